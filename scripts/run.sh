#!/usr/bin/env bash
# Installs the Debian packages, builds Lodestone and starts the desktop app on the built-in
# default preset (the README's run command). Extra arguments go to the app, e.g.
#   scripts/run.sh presets/two-dipoles.json
# Without a display (a server, a cluster node) it says so and runs the headless runner instead.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --target lodestone lodestone-run

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run.sh: no display (DISPLAY is not set), so the window cannot open here; running the headless" >&2
  echo "        runner on the default preset instead (build/app/runner/lodestone-run --help for more)." >&2
  exec build/app/runner/lodestone-run "$@"
fi
exec build/app/desktop/lodestone "$@"
