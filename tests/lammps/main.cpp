// The LAMMPS comparison tests run `lmp`; without it every test exits 77, which ctest reports as
// skipped (SKIP_RETURN_CODE), with the reason on stdout. Listing the tests (catch_discover_tests)
// works either way.

#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  bool listing = false;
  for (int k = 1; k < argc; ++k) listing = listing || std::string(argv[k]).rfind("--list", 0) == 0;
  if (!listing && std::system("command -v lmp >/dev/null 2>&1") != 0) {
    std::cout << "SKIP: lmp (LAMMPS) is not installed (Debian: apt-get install lammps; scripts/install-deps.sh); "
                 "the LAMMPS export is not compared\n";
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
