#pragma once
// lodestone-run --lammps-export DIR: the scene as DIR/in.lodestone and DIR/data.lodestone
// (engine/output/export_lammps_input.hpp, docs/lammps.md), then exit.

#include "engine/session/session.hpp"

#include <cstdint>
#include <string>

namespace lodestone::runner {

// Writes both files (atomically; DIR is created). The script runs `steps` steps and dumps every
// `frames_every`; with `approximate` (--approximate) what LAMMPS can only approximate is exported, each approximation
// printed on stderr and listed in the script. Prints what it wrote (not when `quiet`); returns the exit code: 0, 2 when
// the scene uses physics LAMMPS cannot express (the message names the preset field), 4 when a file cannot be written.
int write_lammps_export(const std::string& dir, const Session& session, std::int64_t steps, std::int64_t frames_every,
                        bool approximate, bool quiet);

}  // namespace lodestone::runner
