#!/bin/bash
# Reproduces the study of seed 004 (Erokhin & Berkov) with presets/powder-alignment.json:
# sweeps of the alignment time tau_0.95 against field, friction and pressure, the torque curves of
# the Stoner-Wohlfarth solver, then the figures of docs/reproduction-powder.md.
#   scripts/reproduce-powder.sh [OUT]      (default OUT: runs/powder; needs a build in build/)
# The sweeps use 300 grains in a 5.5 x 5.5 um container (the preset has 1000 in 10 x 10 um: the
# same packing height) so that they finish in about half an hour on two cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"
out="${1:-$root/runs/powder}"
run="$build/app/runner/lodestone-run"
preset="$root/presets/powder-alignment.json"
mkdir -p "$out"
[ -x "$run" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }

small=(--sweep particles.count=300 --sweep 'box.max=[5.5e-6,5.5e-6,3e-5]')
field=protocol.3.set.field.strength
start=$(date +%s)
sweep() {  # name, then --sweep options; a job that does not finish is recorded, not fatal
  local name=$1; shift
  "$run" "$preset" "${small[@]}" "$@" --sweep-dir "$out/$name" --quiet || echo "sweep $name: some jobs did not finish (see $out/$name/results.csv)"
}
sweep field-seed1 --sweep "$field=2kOe,5kOe,10kOe,20kOe,40kOe,100kOe" --sweep materials.0.friction=0,0.2 --sweep particles.seed=1
sweep field-seed2 --sweep "$field=10kOe,40kOe,100kOe" --sweep materials.0.friction=0,0.2 --sweep particles.seed=2
sweep friction --sweep "$field=40kOe" --sweep materials.0.friction=0.05,0.5 --sweep particles.seed=1,2
sweep pressure --sweep "$field=40kOe" --sweep protocol.2.set.pressure.pressure=2atm,10atm --sweep materials.0.friction=0.2 --sweep particles.seed=1
"$build/app/runner/lodestone-sw-curves" > "$out/sw_curves.csv"
echo "sweeps took $(( $(date +%s) - start )) s" | tee "$out/wall_time.txt"
# Debian's matplotlib (the system python, not one a version manager puts first on PATH).
/usr/bin/python3 -c "import matplotlib" 2>/dev/null || { apt-get update -q && apt-get install -y -q python3-matplotlib; }
/usr/bin/python3 "$root/scripts/plot_powder.py" "$out" "$root/docs/figures"
