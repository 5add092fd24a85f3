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

}  // namespace lodestone
