#!/usr/bin/env bash
# Installs the Debian packages, builds Lodestone and starts it on the default preset (the README's
# run command). Extra arguments go to the program, e.g. `scripts/run.sh presets/two-dipoles.json`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --target lodestone-run
# Until the desktop app exists, "the app" is the headless runner on the built-in default preset.
exec build/app/runner/lodestone-run "$@"
