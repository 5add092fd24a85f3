#pragma once
// The program's version, the one every program's --version prints (CMake's project(VERSION), CMakeLists.txt).
// Output headers (series and frame CSV, extended XYZ, VTK, LAMMPS data files) and checkpoints carry it, so that
// a file says which Lodestone wrote it (docs/outputs.md). It is defined in one source file only (version.cpp),
// so that a new version rebuilds one file, not the engine.

#include <string>

namespace lodestone {

// "0.1.0"
const char* lodestone_version();
// "Lodestone 0.1.0": what the outputs' headers write.
std::string lodestone_version_line();
// The licence and how to cite this version: the lines every program's --version prints after its name (LICENSE,
// CITATION.cff).
std::string lodestone_license_and_citation();

}  // namespace lodestone
