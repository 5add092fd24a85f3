#include "app/runner/run_options.hpp"

#include "app/runner/overrides.hpp"
#include "app/runner/sweep.hpp"
#include "app/trajectory/gsd_writer.hpp"
#include "app/trajectory/gzip_stream.hpp"
#include "app/trajectory/h5md_writer.hpp"
#include "engine/core/version.hpp"
#include "engine/output/export_frames.hpp"
#include "engine/output/field_probe.hpp"
#include "engine/output/field_slice.hpp"
#include "engine/scene/preset_locations.hpp"
#include "engine/scene/units.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

namespace lodestone::runner {
namespace {
constexpr const char* kDescription =
    "lodestone-run: run a Lodestone preset headless (magnetic granular matter: contacts, dipoles, field).\n"
    "Without PRESET it runs the built-in default scene. Progress goes to stderr, a summary table to stdout;\n"
    "with -q nothing but errors and warnings (stderr) and what was asked for.";

constexpr const char* kFooter =
    "Examples:\n"
    "  lodestone-run                                   the default scene for its preset duration\n"
    "  lodestone-run presets/two-dipoles.json --time 20ms --series out.csv --frames out.xyz --frames-every 50\n"
    "  lodestone-run my.json --check                   validate a preset and show the time step it would use\n"
    "  lodestone-run my.json --set field.strength=40mT --set materials.0.friction=0.3\n"
    "                                                  run with these values in place of the preset's\n"
    "  lodestone-run my.json --sweep field.strength=20mT,40mT --sweep particles.seed=1,2,3 --sweep-dir runs --jobs 2\n"
    "                                                  run the 6 combinations, 2 at a time; results in "
    "runs/results.csv\n"
    "  lodestone-run my.json --sweep materials.0.friction=0.1,0.3 --sweep-dir runs --cluster-script sweep.sh\n"
    "                                                  write the job presets and a SLURM array script (sbatch or "
    "bash)\n"
    "  lodestone-run my.json --lammps-export big       write big/in.lodestone and big/data.lodestone for LAMMPS\n"
    "  lodestone-run my.json --sweep particles.seed=1,2,3,4 --sweep-dir runs --cluster-script sweep.sh \\\n"
    "    --cluster-format parallel                     the same jobs for GNU parallel: bash sweep.sh\n"
    "  lodestone-run presets/two-dipoles.json --field-probe points.txt --field-slice z=0,n=64 slice\n"
    "                                                  B at the points of points.txt (points.field.csv) and on the\n"
    "                                                  plane z = 0 (slice.csv, slice_000000.vti... and slice.pvd)\n"
    "  lodestone-run --collect-sweep runs              collect the results of a sweep's jobs again (docs/sweeps.md)\n"
    "  lodestone-run powder.json --stop-at-phase alignment --checkpoint packed.ckpt\n"
    "                                                  prepare a packing once; --restart packed.ckpt continues it\n"
    "\n"
    "Times accept units: 0.5 (seconds), 20ms, 3 us, 1 min.\n"
    "Outputs: the CSV time series, the particle frames, the cluster sizes and the angle\n"
    "distributions are described in docs/outputs.md; frames include step 0, before any motion.\n"
    "Quaternions are written x y z w (w the scalar) in .xyz, .vtp and .csv frames, and w i j k\n"
    "(quatw quati quatj quatk, LAMMPS's order) in LAMMPS dumps.\n"
    "\n"
    "Exit codes: 0 done; 1 bad command-line arguments; 2 bad preset (the message names the JSON path);\n"
    "3 the simulation stopped on a failed check (NaN, runaway overlap; the message names the particle);\n"
    "4 an output file could not be written. A sweep exits 3 when any of its jobs did not finish ok.";

// Single-run options a sweep or a collection refuses (its job command line is fixed, docs/sweeps.md).
constexpr const char* kSingleRunOptions[] = {
    "PRESET",          "--steps",        "--time",          "--dt",
    "--series",        "--series-every", "--frames",        "--frames-every",
    "--clusters",      "--angles",       "--check",         "--save-preset",
    "--preset-docs",   "--restart",      "--checkpoint",    "--checkpoint-every",
    "--stop-at-phase", "--threads",      "--lammps-export", "--field-probe",
    "--field-slice",   "--set",          "--vtk-encoding",  "--hash",
    "--timing"};

// A time given as "0.5", "0.5 s", "20 ms": returns an empty string when valid, else the message.
std::function<std::string(const std::string&)> time_validator() {
  return [](const std::string& text) -> std::string {
    double v = 0.0;
    std::string error;
    if (!parse_quantity_or_si(text, Quantity::Time, v, error)) return error;
    if (!(v > 0.0)) return "'" + text + "' must be a positive time";
    return {};
  };
}

// The seconds of a time time_validator() accepted.
double parse_time(const std::string& text) {
  double v = 0.0;
  std::string error;
  parse_quantity_or_si(text, Quantity::Time, v, error);
  return v;
}

// Options kept as text while CLI11 parses, converted into RunOptions once every check passed.
struct OptionTexts {
  std::string duration, time_step, cluster_format;
};

// PRESET and how long to run it.
void add_run_length_options(CLI::App& app, RunOptions& o, OptionTexts& texts) {
  app.add_option("PRESET", o.preset_path,
                 "Preset JSON file, or the name of a preset that ships with Lodestone (two-dipoles, chains-and-rings, "
                 "...: found in the installed share/lodestone/presets, or the source tree's presets/ when run from "
                 "the build tree) (default: the built-in default scene)")
      ->transform(CLI::Validator(
          [](std::string& text) -> std::string {
            text = resolve_preset_argument(text, LODESTONE_PRESETS_DIR);
            return CLI::ExistingFile(text);
          },
          "FILE|NAME"));
  auto* steps = app.add_option("-n,--steps", o.steps, "Number of steps to run")->check(CLI::PositiveNumber);
  auto* time = app.add_option("-t,--time", texts.duration, "Simulated time to run (default: the preset's run.duration)")
                   ->check(time_validator());
  steps->excludes(time);
  app.add_option("--dt", texts.time_step, "Time step, overriding the preset (default: preset or suggested)")
      ->check(time_validator());
  // One PATH=VALUE per --set (allow_extra_args(false)), so the positional PRESET may follow it.
  app.add_option("--set", o.overrides,
                 "Override a preset value for this run: PATH=VALUE (dotted path, units allowed: "
                 "field.strength=40mT); repeatable, later ones win")
      ->type_name("PATH=VALUE")
      ->allow_extra_args(false)
      ->check([](const std::string& text) {
        std::string path, value;
        return parse_override(text, path, value);
      });
}

// "" when the frames file's extension names a format (an appended text format may end in .gz), else the message.
std::string check_frames_extension(const std::string& path) {
  if (trajectory::is_h5md_path(path) || trajectory::is_gsd_path(path)) return {};
  const std::string plain = trajectory::without_gzip_suffix(path);
  const std::optional<FrameFormat> format = frame_format_of(plain);
  if (format && (plain == path || *format != FrameFormat::VtkPolyData)) return {};
  if (format)
    return "'" + path +
           "': .vtp frames are one file per frame and cannot be gzip-compressed; .gz applies to .xyz, "
           ".dump, .lammpstrj and .csv";
  const std::string extension = std::filesystem::path(plain).extension().string();
  return "'" + path + "' has " + (extension.empty() ? "no extension" : "the unknown extension '" + extension + "'") +
         "; the allowed extensions are " + frame_extensions_help() +
         ", .h5md or .h5 (H5MD), .gsd (GSD), and .xyz, .dump, .lammpstrj, .csv followed by .gz (gzip-compressed)";
}

// The files a run writes as it goes, and the table on stdout.
void add_output_options(CLI::App& app, RunOptions& o) {
  app.add_option("-s,--series", o.series_path, "Write the CSV time series to this file");
  app.add_option("--series-every", o.series_every, "Steps between time-series rows (default: run.series_interval)")
      ->check(CLI::PositiveNumber);
  app.add_option("-f,--frames", o.frames_path,
                 "Write particle frames to this file, in the format of its extension: .xyz (extended XYZ), .vtp "
                 "(VTK, one file per frame, FILE_000000.vtp..., and a .pvd collection beside them for ParaView), "
                 ".dump or .lammpstrj (LAMMPS dump custom, OVITO), .csv, .h5md or .h5 (H5MD 1.1: HDF5 with "
                 "positions, image flags, velocities, forces, moments; h5py, MDAnalysis, OVITO), .gsd (GSD, HOOMD's "
                 "hoomd schema: OVITO, MDAnalysis, freud, the gsd package); a text format "
                 "followed by .gz (run.xyz.gz) is written gzip-compressed")
      ->check(check_frames_extension);
  app.add_option("--vtk-encoding", o.vtk_encoding,
                 "How .vtp frames hold their arrays: ascii (text, the default), base64 (binary inline, about 3/4 of "
                 "ascii's size) or raw (binary appended, the smallest and fastest to read; docs/outputs.md)")
      ->check(CLI::IsMember({"ascii", "base64", "raw"}));
  app.add_option("--frames-every", o.frames_every,
                 "Steps between frames (default: run.frame_interval, or 100 when that is 0)")
      ->check(CLI::PositiveNumber);
  app.add_option("--clusters", o.clusters_path,
                 "Write the cluster-size distribution (CSV: step, time, size, count) at each series row, and "
                 "print the remanence and S(t) ~ t^z fits at the end");
  app.add_option("--angles", o.angles_path,
                 "Write the distributions of theta (easy axis to field) and psi (moment to easy axis) in 5 deg "
                 "bins (CSV: step, time, stage, quantity, bin_low_deg, bin_high_deg, fraction, count) at each "
                 "series row");
  app.add_option("--table", o.table_rows,
                 "Rows of the summary table printed to stdout (0: none; default 10, with --quiet 0)")
      ->check(CLI::Range(0, 100000));
}

// The total field B at points and on a plane, at the frame interval (app/runner/field_output.hpp).
void add_field_options(CLI::App& app, RunOptions& o) {
  auto* probe = app.add_option("--field-probe", o.field_probe_path,
                               "Write the total field B [T] (applied + every moment) at the points of this file at "
                               "each frame (--frames-every): one point per line, x y z in metres or with units "
                               "(1.5mm); CSV to --field-probe-out")
                    ->check(CLI::ExistingFile);
  app.add_option("--field-probe-out", o.field_probe_out,
                 "The CSV of --field-probe (default: the probe file's name with .field.csv)")
      ->needs(probe);
  app.add_option_function<std::vector<std::string>>(
         "--field-slice",
         [&o](const std::vector<std::string>& args) {
           o.field_slice_spec = args.at(0);
           o.field_slice_out = args.at(1);
         },
         "Write B on a plane at each frame: SPEC as z=1mm,n=64 (AXIS=POSITION; n, nx/ny/nz points, 2-4096; "
         "in-plane ranges x=LO:HI, default the box) to OUT.csv and OUT_000000.vti... with OUT.pvd for ParaView")
      ->expected(2)
      ->type_name("SPEC OUT");
  app.add_flag("--field-exact", o.field_exact,
               "--field-probe and --field-slice sum every moment exactly (default: as the forces do, "
               "magnetics.method)");
}

// Threads, progress, and the options that do something else than run (--check, --save-preset,
// --preset-docs).
void add_run_control_options(CLI::App& app, RunOptions& o) {
  app.add_option("--threads", o.threads,
                 "Threads that advance the scene (default: the hardware threads; each sweep job: 1). Runs with the "
                 "same count are bit-identical; different counts agree to round-off")
      ->check(CLI::Range(1, 256));
  app.add_flag("-q,--quiet", o.quiet,
               "Print nothing but errors and warnings (on stderr) and what was asked for: the report of --check, "
               "the line of --hash, the table of an explicit --table N, the timing of --timing, the fits of "
               "--clusters and the means of --angles. No summary, progress, table, end report or lines saying what "
               "was written; a sweep prints only its failed jobs");
  app.add_flag("--timing", o.timing,
               "Print the time per step and per stage at the end ('Time per step ... us: ...') also with --quiet "
               "(without --quiet it is printed anyway); with LODESTONE_THREAD_PARTS=rehearse in the environment, also "
               "each stage's time on as many cores as --threads (the parts run one after another here)");
  app.add_option("--progress-every", o.progress_seconds, "Wall-clock seconds between progress lines")
      ->check(CLI::PositiveNumber);
  app.add_flag("--check", o.check_only, "Validate the preset, print what would run, and exit");
  app.add_flag("--hash", o.print_hash,
               "Print 'hash HEX' at the end: the 64-bit hash of every particle's position, velocity and orientation "
               "in id order, as the app's remote verb hash prints it (compare a replayed session with the app's run; "
               "the same --threads as the app's)");
  app.add_option("--save-preset", o.save_preset_path, "Write the loaded preset with every key in SI (atomic) and exit");
  app.add_flag("--preset-docs", o.preset_docs, "Print the preset field reference (Markdown) and exit");
}

// The state saved and continued (checkpoints, --stop-at-phase) and handed to LAMMPS.
void add_state_options(CLI::App& app, RunOptions& o) {
  auto* restart = app.add_option("--restart", o.restart_path,
                                 "Continue the run saved in this checkpoint, with the preset it holds (for other "
                                 "parameters: a preset with particles.kind checkpoint)")
                      ->check(CLI::ExistingFile);
  auto* checkpoint = app.add_option("--checkpoint", o.checkpoint_path,
                                    "Write a checkpoint (the whole state, for --restart) here when the run ends");
  app.add_option("--checkpoint-every", o.checkpoint_every,
                 "With --checkpoint: also every this many steps (the file is replaced atomically)")
      ->check(CLI::PositiveNumber)
      ->needs(checkpoint);
  app.add_option("--stop-at-phase,--stop-at-stage", o.stop_at_phase,
                 "Stop when this protocol phase begins (its name, or its number from 1), e.g. to save a prepared "
                 "packing with --checkpoint (--stop-at-stage: the older name)");
  restart->excludes(app.get_option("PRESET"));
  app.add_option("--lammps-export", o.lammps_export_dir,
                 "Write the scene as a LAMMPS input script DIR/in.lodestone and data file DIR/data.lodestone "
                 "(units si; run with mpirun -np N lmp -in in.lodestone) and exit; the script runs --steps or "
                 "--time and dumps every --frames-every. Physics LAMMPS cannot express is refused (docs/lammps.md)")
      ->type_name("DIR");
  app.add_flag("--approximate", o.lammps_approximate,
               "With --lammps-export: also export what LAMMPS can only approximate (an uncapped dipole pair, one "
               "mass per material, dipoles at every step), each approximation printed and listed in the script")
      ->needs("--lammps-export");
}

// "" for a --cluster-format the sweep can write, else the message.
std::string check_cluster_format(const std::string& text) {
  if (text == "slurm" || text == "parallel") return {};
  return "'" + text + "' is not a script format; the formats are slurm (sbatch or bash) and parallel (GNU parallel)";
}

std::string check_sbatch_line(const std::string& text) {
  if (text.rfind("--", 0) == 0 && text.size() > 2 && text.find_first_of("\n\r") == std::string::npos) return {};
  return "'" + text + "' is not an sbatch option; allowed one option on one line starting with --, e.g. --time=2:00:00";
}

// "" for a --cluster-extra line: one line that starts with '#' (a directive such as #SBATCH or #PBS, or a
// comment), so that it cannot end the script's header or add a command; else the message.
std::string check_cluster_extra_line(const std::string& text) {
  constexpr const char* kAllowed = "; allowed: one line starting with '#', e.g. '#SBATCH --mem=4G'";
  if (text.rfind('#', 0) != 0) return "'" + text + "' does not start with '#'" + kAllowed;
  if (text.find_first_of("\n\r") != std::string::npos) return "'" + text + "' holds a line break" + kAllowed;
  return {};
}

// Sweeps (sweep.hpp, docs/sweeps.md). Each --sweep takes exactly one KEY=VALUES argument
// (allow_extra_args(false)), so the positional PRESET may follow it.
void add_sweep_options(CLI::App& app, RunOptions& o, OptionTexts& texts) {
  auto* sweep = app.add_option("--sweep", o.sweeps,
                               "Sweep a preset key: KEY=V1,V2,... (dotted path, e.g. field.strength, "
                               "materials.0.friction); repeat for the Cartesian product")
                    ->type_name("KEY=VALUES")
                    ->allow_extra_args(false)
                    ->check([](const std::string& text) {
                      SweepAxis axis;
                      return parse_sweep_spec(text, axis);
                    });
  auto* sweep_dir = app.add_option("--sweep-dir", o.sweep_dir, "Directory for a sweep's job presets, series and logs");
  auto* jobs = app.add_option("-j,--jobs", o.jobs, "Sweep jobs run at a time (default: the hardware threads)")
                   ->check(CLI::Range(1, 4096));
  app.add_option("--sweep-out", o.sweep_out, "Results CSV of a sweep (default: DIR/results.csv)");
  app.add_option("--tau-threshold", o.tau_threshold,
                 "<|n.b|> at which a sweep's tau is taken (default: as at set-up, else 0.95)")
      ->check(CLI::Range(-1.0, 1.0));
  auto* collect = app.add_option("--collect-sweep", o.collect_dir,
                                 "Only collect the results of the sweep in this directory (after its jobs ran)")
                      ->check(CLI::ExistingDirectory);
  auto* script = app.add_option("--cluster-script", o.cluster_script,
                                "With --sweep: write the job presets and this SLURM array / bash script, run nothing");
  app.add_option("--cluster-format", texts.cluster_format,
                 "The --cluster-script: slurm (a SLURM array job that also runs with plain bash; the default) or "
                 "parallel (GNU parallel runs the jobs, on one machine or over ssh)")
      ->type_name("slurm|parallel")
      ->check(check_cluster_format)
      ->needs(script);
  app.add_option("--sbatch", o.sbatch_lines,
                 "An #SBATCH option for the SLURM --cluster-script, e.g. --sbatch --time=2:00:00 (again for more): "
                 "the site's partition, time limit, account")
      ->type_name("OPTION")
      ->allow_extra_args(false)
      ->check(check_sbatch_line)
      ->needs(script);
  app.add_option("--cluster-extra", o.cluster_extra,
                 "A line for the header of the --cluster-script, as given, after its own #SBATCH lines and those of "
                 "--sbatch (in the parallel script at the end of its header comment), e.g. '#SBATCH --mem=4G' or "
                 "'#SBATCH --mail-type=END' (again for more); it must start with '#'")
      ->type_name("LINE")
      ->allow_extra_args(false)
      ->check(check_cluster_extra_line)
      ->needs(script);
  sweep->needs(sweep_dir);
  sweep_dir->needs(sweep);
  jobs->needs(sweep);
  script->needs(sweep)->excludes(jobs);
  collect->excludes(sweep)->excludes(sweep_dir);
}

// A sweep's job command line is fixed (docs/sweeps.md): single-run options would be silently
// ignored, so they are refused (checked here rather than with excludes(), which would clutter
// every line of --help). Run length, time step and series interval are preset keys to sweep.
std::optional<int> refuse_single_run_options(const CLI::App& app) {
  const bool sweeping = app.count("--sweep") > 0;
  if (!sweeping && app.count("--collect-sweep") == 0) return std::nullopt;
  for (const char* name : kSingleRunOptions) {
    if (app.count(name) == 0 || (sweeping && std::string(name) == "PRESET")) continue;
    // What to do instead: --set is a value every job shares, i.e. a one-value sweep of the same key.
    const bool set = std::string(name) == "--set";
    std::cerr << "lodestone-run: " << name << " cannot be used with " << (sweeping ? "--sweep" : "--collect-sweep")
              << (!sweeping ? ""
                  : set     ? " (the jobs' presets are written before they run: put the value in the preset, or give "
                              "it as a sweep of one value, --sweep PATH=VALUE)"
                            : " (set run.duration, integrator.time_step or run.series_interval in the preset, or "
                              "sweep them)")
              << "\nRun with --help for the options.\n";
    return kExitBadArguments;
  }
  return std::nullopt;
}

// --sweep-out and --tau-threshold only mean something to a sweep or a collection; --dt not to a
// restart, which continues with the checkpoint's own parameters.
std::optional<int> refuse_options_out_of_place(const CLI::App& app, const RunOptions& o, const OptionTexts& texts) {
  if ((app.count("--sweep-out") > 0 || app.count("--tau-threshold") > 0) && o.sweeps.empty() && o.collect_dir.empty()) {
    std::cerr << "lodestone-run: --sweep-out and --tau-threshold need --sweep or --collect-sweep\n"
                 "Run with --help for the options.\n";
    return kExitBadArguments;
  }
  if (app.count("--restart") > 0 && (!texts.time_step.empty() || !o.overrides.empty())) {
    std::cerr << "lodestone-run: " << (texts.time_step.empty() ? "--set" : "--dt")
              << " cannot be used with --restart (a restart continues with the checkpoint's own "
                 "parameters; to change them, write a preset with particles.kind checkpoint and file set)\n";
    return kExitBadArguments;
  }
  return std::nullopt;
}

// A --field-slice SPEC that does not parse: the message names the part, its value and what is allowed.
std::optional<int> refuse_bad_field_slice(const RunOptions& o) {
  if (o.field_slice_spec.empty()) return std::nullopt;
  try {
    parse_field_slice(o.field_slice_spec);
  } catch (const FieldInputError& e) {
    std::cerr << "lodestone-run: --field-slice: " << e.what() << "\nRun with --help for the options.\n";
    return kExitBadArguments;
  }
  return std::nullopt;
}

void convert_texts(const OptionTexts& texts, RunOptions& o) {
  if (texts.cluster_format == "parallel") o.cluster_format = ClusterFormat::Parallel;
  if (!texts.duration.empty()) o.duration = parse_time(texts.duration);
  if (!texts.time_step.empty()) o.time_step = parse_time(texts.time_step);
}

}  // namespace

std::optional<int> parse_run_options(int argc, char** argv, RunOptions& o) {
  CLI::App app{kDescription};
  app.footer(kFooter);
  app.set_version_flag("--version",
                       std::string("lodestone-run ") + LODESTONE_VERSION + "\n" + lodestone_license_and_citation());
  app.get_formatter()->column_width(34);
  OptionTexts texts;
  add_run_length_options(app, o, texts);
  add_output_options(app, o);
  add_field_options(app, o);
  add_run_control_options(app, o);
  add_state_options(app, o);
  add_sweep_options(app, o, texts);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "lodestone-run: " << e.what() << "\nRun with --help for the options.\n";
    return kExitBadArguments;
  }
  if (auto code = refuse_single_run_options(app)) return code;
  if (auto code = refuse_options_out_of_place(app, o, texts)) return code;
  if (auto code = refuse_bad_field_slice(o)) return code;
  convert_texts(texts, o);
  if (o.quiet && app.count("--table") == 0) o.table_rows = 0;  // an explicit --table N is asked for
  return std::nullopt;
}

}  // namespace lodestone::runner
