// lodestone-run --frames in each format (engine/output/export_frames.hpp): the extension chooses the
// format, every format holds the same frames with the same values, a VTK run leaves numbered .vtp
// files and a .pvd, and a bad extension or an unwritable place is a clear error.

#include "../test_process.hpp"
#include "../text_fields.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace lodestone::test::runner_tests;

namespace {

using lodestone::test::lines_of;
using lodestone::test::split;
using lodestone::test::words;

std::string two_dipoles() {
  return preset_argument("two-dipoles.json");
}

// The values of the DataArray `name` of a .vtp file.
std::vector<std::string> vtp_array(const std::string& xml, const std::string& name) {
  std::smatch m;
  const std::regex re("<DataArray[^>]* Name=\"" + name + "\"[^>]*>([^<]*)</DataArray>");
  REQUIRE(std::regex_search(xml, m, re));
  return words(m[1]);
}

const char* kRun = " --steps 40 --frames-every 20 --quiet --table 0 --frames ";

}  // namespace

TEST_CASE("runner: --frames writes the format of its extension, every format the same frames and values",
          "[runner][export]") {
  Workdir dir;
  for (const char* file : {"run.xyz", "run.vtp", "run.dump", "run.lammpstrj", "run.csv"}) {
    const Result r = dir.run(two_dipoles() + kRun + file);
    REQUIRE(r.code == 0);
  }
  // Position z of particle 1 (id 1) at step 40, as each format prints it.
  std::vector<std::string> z_at_40;

  const auto xyz = lines_of(read_file(dir.path() / "run.xyz"));
  REQUIRE(xyz.size() == 3 * 4);
  CHECK_THAT(xyz[9], Catch::Contains("Step=40"));
  CHECK(words(xyz[11])[0] == "1");
  z_at_40.push_back(words(xyz[11])[4]);

  // VTK: three numbered frames and the collection listing them in order.
  const std::string pvd = read_file(dir.path() / "run.pvd");
  const std::regex dataset(R"re(<DataSet timestep="([^"]+)" group="" part="0" file="([^"]+)"/>)re");
  std::vector<std::string> listed;
  for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), dataset); it != std::sregex_iterator(); ++it)
    listed.push_back((*it)[2]);
  CHECK(listed == std::vector<std::string>{"run_000000.vtp", "run_000001.vtp", "run_000002.vtp"});
  const std::string last = read_file(dir.path() / "run_000002.vtp");
  CHECK_THAT(last, Catch::Contains("NumberOfPoints=\"2\""));
  CHECK(vtp_array(last, "Step") == std::vector<std::string>{"40"});
  CHECK(vtp_array(last, "id") == std::vector<std::string>{"0", "1"});
  z_at_40.push_back(vtp_array(last, "position")[5]);

  // LAMMPS: .dump and .lammpstrj are the same format; three TIMESTEP blocks; an open box is "ss".
  CHECK(read_file(dir.path() / "run.dump") == read_file(dir.path() / "run.lammpstrj"));
  const auto dump = lines_of(read_file(dir.path() / "run.dump"));
  REQUIRE(dump.size() == 3 * (9 + 2));
  for (int frame = 0; frame < 3; ++frame) {
    const size_t at = 11 * static_cast<size_t>(frame);
    CHECK(dump[at] == "ITEM: TIMESTEP");
    CHECK(dump[at + 1] == std::to_string(20 * frame));
    CHECK(dump[at + 3] == "2");
    CHECK(dump[at + 4] == "ITEM: BOX BOUNDS ss ss ss");
    CHECK(words(dump[at + 9])[0] == "1");  // LAMMPS ids from 1
    CHECK(words(dump[at + 10])[0] == "2");
  }
  z_at_40.push_back(words(dump[22 + 10])[4]);

  // CSV: the writer's version, one header, a row per particle per frame.
  const auto csv = lines_of(read_file(dir.path() / "run.csv"));
  REQUIRE(csv.size() == 2 + 3 * 2);
  CHECK_THAT(csv[0], Catch::StartsWith("# written by Lodestone "));
  const auto header = split(csv[1], ',');
  CHECK(header[0] == "step");
  CHECK(header[1] == "time");
  CHECK(header[7] == "z");
  for (size_t row = 2; row < csv.size(); ++row) {
    const auto cells = split(csv[row], ',');
    CHECK(cells.size() == header.size());
    CHECK(cells[0] == std::to_string(20 * ((row - 2) / 2)));
    CHECK(cells[2] == std::to_string((row - 2) % 2));
  }
  z_at_40.push_back(split(csv[7], ',')[7]);

  INFO("z of id 1 at step 40 in xyz, vtp, dump, csv");
  CHECK(z_at_40 == std::vector<std::string>(4, z_at_40[0]));
  CHECK(z_at_40[0] != "0.001");  // it moved towards particle 0 (the preset starts it at z = 1 mm)
}

TEST_CASE("runner: --frames with an unknown extension exits 1 naming the option, the value and the allowed ones",
          "[runner][export]") {
  Workdir dir;
  for (const char* file : {"run.txt", "run"}) {
    const Result r = dir.run(two_dipoles() + kRun + file);
    CHECK(r.code == 1);
    CHECK_THAT(r.output, Catch::Contains("--frames"));
    CHECK_THAT(r.output, Catch::Contains(std::string("'") + file + "'"));
    for (const char* allowed : {".xyz", ".vtp", ".dump", ".lammpstrj", ".csv"})
      CHECK_THAT(r.output, Catch::Contains(allowed));
  }
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("runner: --frames into a missing directory exits 4 and says why", "[runner][export]") {
  Workdir dir;
  for (const char* file : {"missing/run.vtp", "missing/run.dump", "missing/run.csv"}) {
    const Result r = dir.run(two_dipoles() + kRun + file);
    CHECK(r.code == 4);
    CHECK_THAT(r.output, Catch::Contains("missing/run."));
    CHECK_THAT(r.output, Catch::Contains("No such file or directory"));
  }
}

TEST_CASE("runner: a VTK series goes beside the path, the .pvd named after its stem", "[runner][export]") {
  Workdir dir;
  fs::create_directory(dir.path() / "out");
  const Result r = dir.run(two_dipoles() + " --steps 10 --frames-every 5 --quiet --table 0 --frames out/field.vtp");
  REQUIRE(r.code == 0);
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir.path() / "out"))
    files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  CHECK(files == std::vector<std::string>{"field.pvd", "field_000000.vtp", "field_000001.vtp", "field_000002.vtp"});
  CHECK_FALSE(fs::exists(dir.path() / "out" / "field.vtp"));
}

TEST_CASE("runner: --vtk-encoding writes binary .vtp frames holding the ascii frames' values, a bad name is refused",
          "[runner][export]") {
  Workdir dir;
  for (const char* encoding : {"ascii", "base64", "raw"})
    REQUIRE(dir.run(preset_argument("magnetic-walker.json") + " --steps 20 --frames-every 10 --quiet --table 0 " +
                    "--frames " + encoding + ".vtp --vtk-encoding " + encoding)
                .code == 0);
  const std::string ascii = read_file(dir.path() / "ascii_000002.vtp");
  const std::string inline_binary = read_file(dir.path() / "base64_000002.vtp");
  const std::string raw = read_file(dir.path() / "raw_000002.vtp");
  // The bonds as lines in all three; the binary ones smaller (the decoding is checked bit for bit by
  // tests/engine/output/test_export.cpp and, with meshio, tests/python/test_readers.py).
  for (const std::string* text : {&ascii, &inline_binary, &raw})
    CHECK_THAT(*text, Catch::Contains("NumberOfVerts=\"20\" NumberOfLines=\"28\""));
  CHECK_THAT(inline_binary, Catch::Contains("format=\"binary\"") && !Catch::Contains("format=\"appended\""));
  CHECK_THAT(raw, Catch::Contains("<AppendedData encoding=\"raw\">") && !Catch::Contains("format=\"binary\""));
  CHECK(raw.size() < inline_binary.size());
  CHECK(inline_binary.size() < ascii.size());

  const Result bad = dir.run(two_dipoles() + " --steps 2 --frames x.vtp --vtk-encoding binary");
  CHECK(bad.code == 1);
  CHECK_THAT(bad.output, Catch::Contains("--vtk-encoding") && Catch::Contains("binary"));
}

TEST_CASE("runner: a preset by name, the series and frames headed by the writer's version", "[runner][export]") {
  Workdir dir;  // a fresh directory: no presets/ here, the name is found in the source tree's presets/
  const Result r = dir.run("two-dipoles --steps 10 --table 0 --series s.csv --frames f.xyz");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("presets/two-dipoles.json"));
  const auto series = lines_of(read_file(dir.path() / "s.csv"));
  REQUIRE(series.size() >= 3);
  CHECK_THAT(series[0], Catch::StartsWith("# written by Lodestone "));
  CHECK_THAT(series[1], Catch::StartsWith("step,time,"));
  CHECK_THAT(lines_of(read_file(dir.path() / "f.xyz")).at(1),
             Catch::EndsWith("Program=\"Lodestone " + split(series[0], ' ').back() + "\""));
  const Result unknown = dir.run("no-such-scene --check");
  CHECK(unknown.code == 1);
  CHECK_THAT(unknown.output, Catch::Contains("no-such-scene"));
}
