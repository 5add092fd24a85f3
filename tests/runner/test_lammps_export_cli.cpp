// lodestone-run --lammps-export DIR (engine/output/export_lammps_input.hpp, docs/lammps.md): the files it
// writes, what they hold, and the refusals: a scene LAMMPS cannot express names each preset field,
// its value and what is exportable (exit 2); an unwritable place names the path (exit 4); the option
// does not mix with a sweep (exit 1). Running the files in LAMMPS: tests/lammps.

#include "../test_process.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace lodestone::test::runner_tests;

TEST_CASE("option --lammps-export writes the script and the data file of two-dipoles and exits", "[runner][lammps]") {
  Workdir dir;
  const Result r =
      dir.run(preset_argument("two-dipoles.json") + " --lammps-export out/lammps --steps 500 --frames-every 100");
  REQUIRE(r.code == 0);
  CHECK(r.output.find("wrote out/lammps/in.lodestone and out/lammps/data.lodestone (2 atoms, 500 steps)") !=
        std::string::npos);
  // The one approximation (dashpots on a sliding contact) is stated, on stderr and in the script.
  CHECK(r.output.find("approximation: contact.linear.dp_nratio = 0.2, dp_sratio = 0.2: while a contact slides") !=
        std::string::npos);
  const std::string script = read_file(dir.path() / "out" / "lammps" / "in.lodestone");
  const std::string data = read_file(dir.path() / "out" / "lammps" / "data.lodestone");
  CHECK(script.find("units           si\n") != std::string::npos);
  CHECK(script.find("atom_style      hybrid sphere dipole\n") != std::string::npos);
  CHECK(script.find("read_data       data.lodestone\n") != std::string::npos);
  CHECK(script.find("pair_style      hybrid/overlay granular lj/cut/dipole/cut") != std::string::npos);
  CHECK(script.find("variable        steps index 500\n") != std::string::npos);
  CHECK(script.find("variable        dump_every index 100\n") != std::string::npos);
  CHECK(script.find("fix             integrate all nve/sphere update dipole\n") != std::string::npos);
  CHECK(script.find("# Approximation: contact.linear.dp_nratio = 0.2, dp_sratio = 0.2: while a contact slides") !=
        std::string::npos);
  CHECK(script.find("neighbor") != std::string::npos);
  CHECK(script.find(" nsq\n") != std::string::npos);  // the direct sum: every pair, no bins
  CHECK(data.find("2 atoms\n1 atom types\n") != std::string::npos);
  CHECK(data.find("Atoms # hybrid sphere dipole") != std::string::npos);
  CHECK(data.find("Velocities") != std::string::npos);
  // No run happened: no frames, no series, and no temporary files left beside the two.
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path() / "out" / "lammps")) {
    (void)entry;
    ++files;
  }
  CHECK(files == 2);
}

TEST_CASE("option --lammps-export refuses physics LAMMPS cannot express, naming each preset field and its value",
          "[runner][lammps]") {
  Workdir dir;
  const Result r = dir.run(preset_argument("powder-alignment.json") + " --lammps-export out");
  CHECK(r.code == 2);
  CHECK(r.output.find("--lammps-export out: the scene cannot be exported to LAMMPS") != std::string::npos);
  CHECK(r.output.find("materials.0.moment_model = \"stoner_wohlfarth\": the export takes \"rigid\" moments only") !=
        std::string::npos);
  CHECK(r.output.find("contact.law = \"hertz_coulomb\": the export takes \"linear\" only") != std::string::npos);
  CHECK(r.output.find("integrator.scheme = \"overdamped_heun\"") != std::string::npos);
  CHECK(r.output.find("pressure.method = \"top_layer\"") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "out"));

  const Result bonds = dir.run(preset_argument("magnetic-filament-rotating.json") + " --lammps-export out");
  CHECK(bonds.code == 2);
  CHECK(bonds.output.find("bonds.create = \"touching\"") != std::string::npos);

  const Result tree = dir.run(preset_argument("two-dipoles.json") + " --lammps-export out --steps 1");
  REQUIRE(tree.code == 0);
  std::string text = read_file(preset_path("two-dipoles.json"));
  text.replace(text.find("\"method\": \"direct\""), 18, "\"method\": \"tree\", \"dipole_cap\": \"0.1 mm\"");
  lodestone::test::write_file(dir.path() / "tree.json", text);
  const Result refused = dir.run("tree.json --lammps-export out2");
  CHECK(refused.code == 2);
  CHECK(refused.output.find("magnetics.method = \"tree\": the export takes \"cutoff\", \"direct\" or \"off\"") !=
        std::string::npos);
  CHECK(refused.output.find("magnetics.dipole_cap = 0.0001") != std::string::npos);

  // gran/hooke/history has one set of coefficients for all pairs: two materials in use that differ are refused, one
  // material exports as that pair style (issue 40), kn and ks of the material with itself in series.
  const std::string two_materials = R"json({
  "version": 1,
  "materials": [ { "name": "soft", "kn": "1e5 N/m", "ks": "8e4 N/m", "friction": 0.3 },
                 { "name": "hard", "kn": "3e5 N/m", "ks": "2e5 N/m", "friction": 0.3 } ],
  "contact": { "law": "linear", "linear": { "convention": "gran/hooke/history" } },
  "magnetics": { "method": "off" },
  "box": { "min": ["-5 mm", "-5 mm", "-5 mm"], "max": ["5 mm", "5 mm", "5 mm"] },
  "particles": { "kind": "list", "particles": [
    { "position": ["0 mm", "0 mm", "0 mm"], "radius": "0.5 mm", "material": "soft" },
    { "position": ["2 mm", "0 mm", "0 mm"], "radius": "0.5 mm", "material": "MATERIAL" } ] }
})json";
  std::string mixed = two_materials;
  mixed.replace(mixed.find("MATERIAL"), 8, "hard");
  lodestone::test::write_file(dir.path() / "mixed.json", mixed);
  const Result one_set = dir.run("mixed.json --lammps-export out3");
  CHECK(one_set.code == 2);
  CHECK(one_set.output.find("contact.linear.convention = \"gran/hooke/history\": \"gran/hooke/history\" has one set of "
                            "coefficients") != std::string::npos);
  std::string single = two_materials;
  single.replace(single.find("MATERIAL"), 8, "soft");
  lodestone::test::write_file(dir.path() / "single.json", single);
  REQUIRE(dir.run("single.json --lammps-export out4 --steps 1").code == 0);
  const std::string script = read_file(dir.path() / "out4" / "in.lodestone");
  CHECK(
      script.find("pair_style      gran/hooke/history 50000 40000 0 0 0.29999999999999999 1\npair_coeff      * *\n") !=
      std::string::npos);
}

TEST_CASE("option --approximate exports what LAMMPS can only approximate, listing each approximation",
          "[runner][lammps]") {
  // chains-suspension has a dipole cap (issue 42): refused without the switch (the message says how to export it),
  // exported with it, the approximation on stderr and in the script; its no-tension dashpots (dp_mode 1) are
  // limit_damping and its rotational damping fix langevin at zero temperature.
  Workdir dir;
  const Result refused = dir.run(preset_argument("chains-suspension.json") + " --lammps-export out --steps 1");
  CHECK(refused.code == 2);
  CHECK(refused.output.find("magnetics.dipole_cap = 0.0005: the export takes 0 only (LAMMPS's dipole pair has no "
                            "capping distance), or pass --approximate") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "out"));

  const Result exported =
      dir.run(preset_argument("chains-suspension.json") + " --lammps-export out --steps 1 --approximate");
  REQUIRE(exported.code == 0);
  CHECK(exported.output.find("lodestone-run: --lammps-export: approximation: magnetics.dipole_cap = 0.0005") !=
        std::string::npos);
  const std::string script = read_file(dir.path() / "out" / "in.lodestone");
  CHECK(script.find("# Approximation: magnetics.dipole_cap = 0.0005") != std::string::npos);
  CHECK(script.find("damping velocity limit_damping\n") != std::string::npos);
  CHECK(script.find("fix             rotational_drag all langevin 0.0 0.0 1.0 20261130 omega yes scale 1 ") !=
        std::string::npos);

  const Result alone = dir.run(preset_argument("chains-suspension.json") + " --approximate --steps 1");
  CHECK(alone.code == 1);
  CHECK(alone.output.find("--approximate requires --lammps-export") != std::string::npos);
}

TEST_CASE("option --lammps-export runs a protocol's phases from where the scene stands", "[runner][lammps]") {
  // rotating-field-chain: two phases of 1.5 s that change the field's frequency (issue 42). From the start the first
  // ends at step 411882; from a checkpoint 10 steps in, 10 steps earlier, and the field's clock starts at the
  // checkpoint's scene time.
  Workdir dir;
  REQUIRE(dir.run(preset_argument("rotating-field-chain.json") + " --lammps-export fresh --steps 10").code == 0);
  const std::string fresh = read_file(dir.path() / "fresh" / "in.lodestone");
  CHECK(fresh.find("# protocol phase 1 \"slow rotation\", to step 411882\n"
                   "if \"${steps} < 411882\" then \"run ${steps} upto\" else \"run 411882 upto\"\n") !=
        std::string::npos);
  CHECK(fresh.find("# protocol phase 2 \"fast rotation\", to the end of the run\n") != std::string::npos);
  CHECK(fresh.find("cos(188.49555921538757*(time+0))") != std::string::npos);  // 30 Hz from the scene's start

  REQUIRE(
      dir.run(preset_argument("rotating-field-chain.json") + " --steps 10 --checkpoint cp.json -q --table 0").code ==
      0);
  REQUIRE(dir.run("--restart cp.json --lammps-export later --steps 10").code == 0);
  const std::string later = read_file(dir.path() / "later" / "in.lodestone");
  CHECK(later.find("# protocol phase 1 \"slow rotation\", to step 411872\n") != std::string::npos);
  CHECK(later.find("*(time+0))") == std::string::npos);
}

TEST_CASE("option --lammps-export into an unwritable place or with a sweep is a clear error", "[runner][lammps]") {
  Workdir dir;
  lodestone::test::write_file(dir.path() / "file", "not a directory\n");
  const Result r = dir.run(preset_argument("two-dipoles.json") + " --lammps-export file/sub");
  CHECK(r.code == 4);
  CHECK(r.output.find("--lammps-export file/sub: ") != std::string::npos);
  CHECK(r.output.find("file/sub") != std::string::npos);

  const Result sweep = dir.run(preset_argument("two-dipoles.json") +
                               " --sweep field.strength=1mT,2mT --sweep-dir s --lammps-export out");
  CHECK(sweep.code == 1);
  CHECK(sweep.output.find("--lammps-export cannot be used with --sweep") != std::string::npos);
}
