#include "engine/core/version.hpp"

#ifndef LODESTONE_VERSION
#error "LODESTONE_VERSION is set for this file by engine/CMakeLists.txt"
#endif

namespace lodestone {

const char* lodestone_version() {
  return LODESTONE_VERSION;
}

std::string lodestone_version_line() {
  return std::string("Lodestone ") + LODESTONE_VERSION;
}

std::string lodestone_license_and_citation() {
  return std::string(
             "License GPL-3.0-or-later (the LICENSE file): free to use, study, change and share.\n"
             "To cite: The Lodestone developers, Lodestone ") +
         LODESTONE_VERSION + ", an interactive simulator of magnetic granular matter (CITATION.cff).";
}

}  // namespace lodestone
