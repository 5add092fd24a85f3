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

case "$mode" in
  "")
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
    cmake --build build
    # The desktop tests need a display: a private virtual X server for the run (Mesa llvmpipe).
    xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" ctest --test-dir build --output-on-failure --no-tests=error
    ;;
  --sanitize)
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLODESTONE_ENGINE_ONLY=ON \
      "-DLODESTONE_SANITIZE=address;undefined" -DCMAKE_CXX_FLAGS="-O1"
    cmake --build build-asan
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-asan --output-on-failure --no-tests=error
    ;;
  --tsan)
    cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLODESTONE_ENGINE_ONLY=ON \
      -DLODESTONE_SANITIZE=thread -DCMAKE_CXX_FLAGS="-O1"
    cmake --build build-tsan --target engine_tests
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build-tsan/tests/engine_tests "[threading]"
    ;;
  *)
    echo "usage: $0 [--sanitize | --tsan]" >&2
    exit 1
    ;;
esac
