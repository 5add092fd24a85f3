#!/usr/bin/env bash
# The rooms a field edit from the panel walks (docs/architecture.md "An edit: a path and a value"): builds
# lodestone-edit-walk, runs three edits under callgrind, collecting only the panel's send_parameters and the
# simulation thread's handling of the edit (and, with --publish, the snapshot published after it), and prints the
# project folders entered, the source files run and any call that climbs back up the layer order.
#
#   bench/edit_walk.sh [BUILD_DIR] [--publish] [PRESET]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true
roots=(--toggle-collect='lodestone::ui::send_parameters*' --toggle-collect='lodestone::SimulationThread::apply_edit*')
if [ "${1:-}" = "--publish" ]; then
  roots+=(--toggle-collect='lodestone::SimulationThread::publish()')
  shift
fi
cmake --build "$build" --target lodestone-edit-walk > /dev/null
out=$(mktemp)
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out" "${roots[@]}" "$build/bench/lodestone-edit-walk" "$@" 2>/dev/null
python3 "$here/bench/edit_walk.py" "$out" "$here"
