#include "app/runner/lammps_export.hpp"

#include "app/runner/run_options.hpp"
#include "engine/output/export_frames.hpp"
#include "engine/output/export_lammps_input.hpp"
#include "engine/scene/atomic_file.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace lodestone::runner {

int write_lammps_export(const std::string& dir, const Session& session, std::int64_t steps, std::int64_t frames_every,
                        bool approximate, bool quiet) {
  namespace fs = std::filesystem;
  LammpsInput input;
  try {
    LammpsRunSettings run;
    run.steps = steps;
    run.dump_every = frames_every;
    run.approximate = approximate;
    run.phase = session.state().phase;
    run.phase_start_time = session.state().phase_start_time;
    run.protocol_finished = session.state().protocol_finished;
    input = lammps_input(session.document(), session.model(), session.state().particles, session.state().time,
                         "data.lodestone", run);
  } catch (const LammpsExportError& e) {
    std::cerr << "lodestone-run: --lammps-export " << dir << ": " << e.what() << "\n";
    return kExitBadPreset;
  }
  const fs::path script = fs::path(dir) / "in.lodestone", data = fs::path(dir) / "data.lodestone";
  try {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) throw ExportError("cannot create the directory " + dir + ": " + error.message());
    write_file_atomically(data.string(), input.data);
    write_file_atomically(script.string(), input.script);
  } catch (const std::runtime_error& e) {  // ExportError, FileWriteError
    std::cerr << "lodestone-run: --lammps-export " << dir << ": " << e.what() << "\n";
    return kExitOutputError;
  }
  for (const std::string& line :
       lammps_approximations(session.document(), session.model(), session.state().particles, approximate))
    std::cerr << "lodestone-run: --lammps-export: approximation: " << line << "\n";
  if (!quiet)
    std::printf("wrote %s and %s (%zu atoms, %lld steps); run: cd %s && mpirun -np N lmp -in in.lodestone\n",
                script.string().c_str(), data.string().c_str(), session.state().particles.size(),
                static_cast<long long>(steps), dir.c_str());
  return kExitOk;
}

}  // namespace lodestone::runner
