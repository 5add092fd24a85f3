#!/bin/bash
# Reproduces the study of [Erokhin-Berkov] (Erokhin & Berkov) with presets/powder-alignment.json:
# sweeps of the alignment time tau_0.95 against field, friction and pressure from three independent
# packings, the numerical checks, the Stoner-Wohlfarth curves (Figs. 2-3) and the free-rotor baseline;
# then the small result tables go to docs/data/powder/ and the figures of docs/reproduction-powder.md
# are drawn from them.
#   scripts/reproduce-powder.sh [OUT]   (default OUT: runs/powder; BUILD=dir picks the build, default build/)
# GRAINS (default 1000, the paper's) sets the number of grains; the container floor scales with it so
# the packing height stays that of the preset (1000 grains on 10 x 10 um). SEEDS="1 2 3" (default)
# chooses the packings: each seed places the grains at different random positions, sizes and axes.
# Each packing (placement, overlap removal, drop, relax) is made once and saved as a checkpoint; every
# alignment job starts from one, so jobs with different fields, frictions and pressures differ only
# in the alignment phase, as in the paper's figures.
# The field grid starts at 5 kOe: 2 kOe (tau 185-250 s, the earlier 300-grain sweeps) alone would cost
# 40 % of the 1000-grain sweeps and says nothing about the optimum.
# SWEEPS="friction pressure ..." runs only the sweeps named (default: all six; the packings are always made,
# and they are the same bits for the same seeds and build), e.g. to add sweeps to a run whose others are done.
# Resumable: an interrupted run started again with the same OUT keeps the packings and the jobs
# that finished (GNU parallel's --resume over each sweep's job log).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"
out="$(mkdir -p "${1:-$root/runs/powder}" && cd "${1:-$root/runs/powder}" && pwd)"
data="${DATA:-$root/docs/data/powder}"
run="$build/app/runner/lodestone-run"
grains="${GRAINS:-1000}"
jobs="${JOBS:-$(nproc)}"
read -r -a seeds <<< "${SEEDS:-1 2 3}"
only=" ${SWEEPS:-field friction pressure pressure-field check-step check-slip} "
[ -x "$run" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
command -v parallel > /dev/null || { echo "needs GNU parallel (apt-get install parallel)" >&2; exit 1; }
# Debian's numpy and matplotlib (the system python, not one a version manager puts first on PATH).
/usr/bin/python3 -c "import matplotlib, numpy" 2>/dev/null ||
  { apt-get update -q && apt-get install -y -q python3-matplotlib python3-numpy; }

start=$(date +%s)
elapsed() { echo "$1: $(( $(date +%s) - start )) s since the start" | tee -a "$out/timings.txt"; }
mkdir -p "$out/packings"
echo "started $(date -u +%FT%TZ), $grains grains, seeds ${seeds[*]}, $jobs jobs at a time, $(nproc) cores" >> "$out/timings.txt"
# The presets: a packing preset per seed, and the alignment preset that continues a packing
# checkpoint (particles.file is swept over the seeds' checkpoints).
/usr/bin/python3 - "$root/presets/powder-alignment.json" "$out" "$grains" "${seeds[@]}" <<'PY'
import json, math, sys
base, out, grains, seeds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
p = json.load(open(base))
side = 10.0 * math.sqrt(grains / 1000.0)  # um: the preset's 1000 grains on 10 x 10 um, same height
p["particles"]["count"] = grains
p["box"]["max"] = [f"{side:.4g} um", f"{side:.4g} um", "30 um"]
for s in seeds:
    p["particles"]["seed"] = int(s)
    json.dump(p, open(f"{out}/packings/seed{s}.json", "w"), indent=1)
p["particles"] = {"kind": "checkpoint", "file": f"{out}/packings/seed{seeds[0]}.ckpt"}
p["protocol"][3]["duration"] = "1000 s"  # low fields are slow; a run ends when tau_0.95 is reached
p["contact"]["hertz_coulomb"] = {"slip_velocity": 0}  # the default (eq. 8 as written), swept in a check
json.dump(p, open(f"{out}/alignment.json", "w"), indent=1)
PY

# 1. Packings, two at a time: stop as the alignment phase begins and save the state. The log's last
#    lines give each packing's wall time (the paper-size protocol up to the field).
printf '%s\n' "${seeds[@]}" | xargs -P "$jobs" -I{} sh -c \
  '[ -s "$1/packings/seed{}.ckpt" ] && exit 0
   /usr/bin/time -f "packing seed {}: %e s wall, %U s user" -o "$1/packings/seed{}.time" \
     "$0" "$1/packings/seed{}.json" --stop-at-phase alignment --checkpoint "$1/packings/seed{}.ckpt" --quiet \
     > "$1/packings/seed{}.log" 2>&1 || { echo "packing of seed {} failed: see $1/packings/seed{}.log" >&2; exit 255; }' \
  "$run" "$out"
cat "$out"/packings/seed*.time >> "$out/timings.txt"
elapsed "packings"

# 2. Alignment sweeps from the packings, each through GNU parallel so that a second start resumes.
files=$(printf "$out/packings/seed%s.ckpt," "${seeds[@]}")
files=${files%,}
field=protocol.3.set.field.strength
friction=materials.0.friction
pressure=protocol.2.set.pressure.pressure
sweep() {  # name, then --sweep options; a job that does not finish is recorded, not fatal
  local name=$1; shift
  [[ "$only" == *" $name "* ]] || return 0
  if [ ! -f "$out/$name/sweep.json" ]; then
    "$run" "$out/alignment.json" "$@" --sweep-dir "$out/$name" --cluster-script "$out/$name/run.sh" \
      --cluster-format parallel > /dev/null
  fi
  PARALLEL_JOBS="$jobs" PARALLEL_ARGS="--resume" bash "$out/$name/run.sh" > "$out/$name/run.log" 2>&1 ||
    echo "sweep $name: some jobs did not finish (see $out/$name/results.csv)"
  elapsed "sweep $name"
}
sweep field --sweep "particles.file=$files" \
  --sweep "$field=5kOe,10kOe,15kOe,20kOe,25kOe,30kOe,35kOe,40kOe,60kOe,100kOe" --sweep "$friction=0,0.2"
sweep friction --sweep "particles.file=$files" --sweep "$field=40kOe" --sweep "$friction=0.05,0.1,0.3,0.5"
sweep pressure --sweep "particles.file=$files" --sweep "$field=40kOe" --sweep "$friction=0.05" \
  --sweep "$pressure=2atm,5atm,10atm"
# Fig. 7a: the field dependence at the lowest and the highest pressure (40 kOe is in the sweeps above).
sweep pressure-field --sweep "particles.file=$files" --sweep "$field=20kOe,30kOe,60kOe,100kOe" \
  --sweep "$friction=0.05" --sweep "$pressure=0.5atm,10atm"
# Numerical checks on the first packing at 40 kOe, mu = 0.2: the time step halved, and the friction
# regularised at two slip velocities (eq. 8 as written has none).
first="$out/packings/seed${seeds[0]}.ckpt"
sweep check-step --sweep "particles.file=$first" --sweep "$field=40kOe" --sweep "$friction=0.2" \
  --sweep "protocol.3.set.integrator.time_step=0.25ms"
sweep check-slip --sweep "particles.file=$first" --sweep "$field=40kOe" --sweep "$friction=0.2" \
  --sweep "contact.hertz_coulomb.slip_velocity=1e-9,1e-8"

"$build/app/runner/lodestone-sw-curves" > "$out/sw_curves.csv"
/usr/bin/python3 "$root/scripts/free_rotor_tau.py" > "$out/free_rotor.csv"
# 3. The small tables to docs/data/powder/, then the figures and the numbers from there alone.
/usr/bin/python3 "$root/scripts/powder_data.py" "$out" "$data" "$grains"
elapsed "all runs"
cp "$out/timings.txt" "$data/timings.txt"
/usr/bin/python3 "$root/scripts/plot_powder.py" "$data" "$root/docs/figures" | tee "$data/numbers.txt"
