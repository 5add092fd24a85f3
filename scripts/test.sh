#!/usr/bin/env bash
# Installs the Debian packages, builds everything and runs every test (the README's test command).
#   scripts/test.sh              RelWithDebInfo build in build/, all tests (GUI tests under Xvfb)
#   scripts/test.sh --sanitize   engine and runner tests under AddressSanitizer + UBSan in build-asan/
#   scripts/test.sh --tsan       the threading tests (command queue, snapshot buffer, simulation
#                                thread) under ThreadSanitizer in build-tsan/
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
scripts/install-deps.sh

# ccache when the machine has it (a rebuild of an unchanged file is then a cache hit); not installed for it.
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# Every build here is a unity build (CMakeLists.txt: a target's sources compiled 16 to a file; from scratch on two
# cores the normal tree takes 10 minutes instead of 23, the sanitizer trees 42 % (ASan) and 63 % (TSan) less CPU
# already at 8 to a file; docs/reliability.md "In CI"). The sanitizer builds need line
# tables for their reports, not full debug information (-g1 compiles the Eigen-heavy sources much faster); the tests
# run two at a time, one per core.
sanitizer_flags=(-DCMAKE_CXX_FLAGS_DEBUG=-g1)

case "$mode" in
  "")
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}"
    cmake --build build
    # The desktop tests need a display: a private virtual X server for the run (Mesa llvmpipe). -noreset: by default
    # the server resets when its last client leaves and refuses connections meanwhile, so an app started by one test
    # as another's left aborted ("could not connect to display", exit 134; 14 of 600 quick connections from two loops).
    xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp -noreset" ctest --test-dir build --output-on-failure --no-tests=error -j2
    ;;
  --sanitize)
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLODESTONE_ENGINE_ONLY=ON \
      "-DLODESTONE_SANITIZE=address;undefined" -DCMAKE_CXX_FLAGS="-O1" "${sanitizer_flags[@]}" "${launcher[@]}"
    cmake --build build-asan
    # Left out here, run in the normal build: the oblique-landing convergence studies (10^7 steps of one sphere,
    # 19 s in the normal build, 500 s under the sanitizers; the LAMMPS conventions', 2.7 million steps, 6.5 s), whose
    # code paths the other contact tests cover; and the five slowest of the rest under the sanitizers (2026-11-30:
    # 90-290 s each, half the sanitizer tests' time; docs/reliability.md "In CI"), long runs of paths that shorter
    # tests cover there: P3M at full accuracy and its Verlet-list walk (the repeat, Lorentz-lattice and field-point
    # cases), equipartition at T > 0 (the Brownian checkpoint and seed cases), two teaching scenes.
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-asan --output-on-failure --no-tests=error -j2 \
      -E "Coulomb's limit holds at every step|LAMMPS conventions: the energy balance|\
p3m: forces, torques and energy against the Ewald sum at the default accuracy|\
p3m: real-space pairs from the Verlet list|velocity Verlet at temperature T|\
scene compass-needles|scene chains-and-rings"
    ;;
  --tsan)
    cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLODESTONE_ENGINE_ONLY=ON \
      -DLODESTONE_SANITIZE=thread -DCMAKE_CXX_FLAGS="-O1" "${sanitizer_flags[@]}" "${launcher[@]}"
    cmake --build build-tsan --target threading_tests
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build-tsan/tests/threading_tests "[threading]"
    ;;
  *)
    echo "usage: $0 [--sanitize | --tsan]" >&2
    exit 1
    ;;
esac
