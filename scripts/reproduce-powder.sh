#!/bin/bash
# Reproduces the study of [Erokhin-Berkov] (Erokhin & Berkov) with presets/powder-alignment.json:
# sweeps of the alignment time tau_0.95 against field, friction and pressure, the torque curves of
# the Stoner-Wohlfarth solver, the free-rotor baseline, then the figures of docs/reproduction-powder.md.
#   scripts/reproduce-powder.sh [OUT]      (default OUT: runs/powder; needs a build in build/)
# The sweeps use 300 grains in a 5.5 x 5.5 um container (the preset has 1000 in 10 x 10 um: the
# same packing height). Each seed's packing (placement, overlap removal, drop, relax) is made once
# and saved as a checkpoint; every alignment run starts from one of them, so runs with different
# fields, frictions and pressures differ only in the alignment phase, as in the paper's figures.
# SEEDS="1 2 3" (default) chooses the packings.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"
out="$(mkdir -p "${1:-$root/runs/powder}" && cd "${1:-$root/runs/powder}" && pwd)"
run="$build/app/runner/lodestone-run"
read -r -a seeds <<< "${SEEDS:-1 2 3}"
[ -x "$run" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
# Debian's numpy and matplotlib (the system python, not one a version manager puts first on PATH).
/usr/bin/python3 -c "import matplotlib, numpy" 2>/dev/null ||
  { apt-get update -q && apt-get install -y -q python3-matplotlib python3-numpy; }

start=$(date +%s)
mkdir -p "$out/packings"
# The presets: a packing preset per seed (300 grains), and the alignment preset that continues a
# packing checkpoint (particles.file is swept over the seeds' checkpoints).
/usr/bin/python3 - "$root/presets/powder-alignment.json" "$out" "${seeds[@]}" <<'EOF'
import json, sys
base, out, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
p = json.load(open(base))
p["particles"]["count"] = 300
p["box"]["max"] = ["5.5 um", "5.5 um", "30 um"]
for s in seeds:
    p["particles"]["seed"] = int(s)
    json.dump(p, open(f"{out}/packings/seed{s}.json", "w"), indent=1)
p["particles"] = {"kind": "checkpoint", "file": f"{out}/packings/seed{seeds[0]}.ckpt"}
p["protocol"][3]["duration"] = "1000 s"  # low fields are slow; a run ends when tau_0.95 is reached
json.dump(p, open(f"{out}/alignment.json", "w"), indent=1)
EOF

# 1. Packings, two at a time: stop as the alignment phase begins and save the state.
printf '%s\n' "${seeds[@]}" | xargs -P "$(nproc)" -I{} sh -c \
  '"$0" "$1/packings/seed{}.json" --stop-at-phase alignment --checkpoint "$1/packings/seed{}.ckpt" --quiet \
     > "$1/packings/seed{}.log" 2>&1 || { echo "packing of seed {} failed: see $1/packings/seed{}.log" >&2; exit 255; }' \
  "$run" "$out"
echo "packings took $(( $(date +%s) - start )) s"

# 2. Alignment sweeps from the packings.
files=$(printf "$out/packings/seed%s.ckpt," "${seeds[@]}")
files=${files%,}
field=protocol.3.set.field.strength
sweep() {  # name, then --sweep options; a job that does not finish is recorded, not fatal
  local name=$1; shift
  "$run" "$out/alignment.json" --sweep "particles.file=$files" "$@" --sweep-dir "$out/$name" --quiet ||
    echo "sweep $name: some jobs did not finish (see $out/$name/results.csv)"
}
sweep field --sweep "$field=2kOe,5kOe,10kOe,15kOe,20kOe,25kOe,30kOe,35kOe,40kOe,60kOe,100kOe" \
  --sweep materials.0.friction=0,0.2
sweep friction --sweep "$field=40kOe" --sweep materials.0.friction=0.05,0.1,0.3,0.5
sweep pressure --sweep "$field=40kOe" --sweep materials.0.friction=0.05 \
  --sweep protocol.2.set.pressure.pressure=2atm,5atm,10atm
# Fig. 7a: the field dependence at the lowest and the highest pressure (40 kOe is in the sweeps above).
sweep pressure-field --sweep "$field=20kOe,30kOe,60kOe,100kOe" --sweep materials.0.friction=0.05 \
  --sweep protocol.2.set.pressure.pressure=0.5atm,10atm
echo "sweeps took $(( $(date +%s) - start )) s on $(nproc) cores"

"$build/app/runner/lodestone-sw-curves" > "$out/sw_curves.csv"
/usr/bin/python3 "$root/scripts/free_rotor_tau.py" > "$out/free_rotor.csv"
/usr/bin/python3 "$root/scripts/plot_powder.py" "$out" "$root/docs/figures" | tee "$out/numbers.txt"
echo "the whole reproduction took $(( $(date +%s) - start )) s on $(nproc) cores" | tee "$out/wall_time.txt"
