#!/bin/bash
# Reproduces [Dominik-Nubold] (Dominik & Nubold, the SAND code) Sec. 3-4: the capture experiment of Sec. 4.1
# (Figs. 2-3, eqs. 10-14 and 27) with lodestone-capture, and an aggregation run with
# presets/aggregation.json (S(t) of eqs. 17-18, accretional remanence of eq. 16, the clusters' fractal
# dimension) beside its non-magnetic control, the restructuring test of Fig. 4 (scripts/restructuring.py);
# then the small result tables go to docs/data/aggregation/ and the figures and numbers of
# docs/reproduction-aggregation.md are made from them.
#   scripts/reproduce-aggregation.sh [OUT]      (default OUT: /work/runs/aggregation)
# BUILD=dir chooses the build (default build/; it needs lodestone-capture and lodestone-run).
# RUNS=n sets the shots per (b, v) cell of the two main maps (default 100). Resumable: started again
# with the same OUT, it skips every step that finished (a marker file per step, OUT/.done_STEP).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"
out="$(mkdir -p "${1:-/work/runs/aggregation}" && cd "${1:-/work/runs/aggregation}" && pwd)"
capture="$build/app/runner/lodestone-capture"
run="$build/app/runner/lodestone-run"
runs="${RUNS:-100}"
data="${DATA:-$root/docs/data/aggregation}"
for exe in "$capture" "$run"; do
  [ -x "$exe" ] || { echo "build first: cmake -S . -B build && cmake --build build ($exe is missing)" >&2; exit 1; }
done
# Debian's numpy and matplotlib (the system python, not one a version manager puts first on PATH).
/usr/bin/python3 -c "import matplotlib, numpy" 2>/dev/null ||
  { apt-get update -q && apt-get install -y -q python3-matplotlib python3-numpy; }

start=$(date +%s)
cores=$(nproc)
# [Dominik-Nubold] Sec. 4.1: 20 nm iron grains with 200 A m^2/kg at 100 K (the defaults of lodestone-capture),
# speeds 0.3-3 v_th, b from 0 to 1.5 b_max.
speeds=0.3,0.4,0.5,0.7,1,1.4,2,3

# 1. The aggregation run (one thread) starts first and runs beside the maps.
touch "$out/timings.txt"
finished() { [ -f "$out/.done_$1" ]; }  # step name
mark() { touch "$out/.done_$1"; }
(
  code=0
  if ! finished aggregation; then
    t0=$(date +%s)
    "$run" "$root/presets/aggregation.json" --series "$out/aggregation_series.csv" \
      --clusters "$out/aggregation_clusters.csv" --frames "$out/aggregation_frames.xyz" --frames-every 100000 \
      --quiet --timing > "$out/aggregation.log" 2>&1 || code=$?
    echo "aggregation run: $(( $(date +%s) - t0 )) s (exit $code)" >> "$out/timings.txt"
    [ $code = 0 ] && mark aggregation
  fi
  # A second realisation: the velocity spread 0.2045 instead of 0.2046 m/s, otherwise identical (a
  # different trajectory from the first step on).
  if ! finished aggregation2; then
    t1=$(date +%s)
    "$run" "$root/presets/aggregation.json" --set particles.velocity_spread=0.2045m/s \
      --series "$out/aggregation2_series.csv" --quiet --timing > "$out/aggregation2.log" 2>&1 && mark aggregation2 ||
      echo "the second realisation did not finish: see $out/aggregation2.log"
    echo "second realisation: $(( $(date +%s) - t1 )) s" >> "$out/timings.txt"
  fi
  # The weak-bath trial: a 10 times weaker bath (friction time 24 us) to 6 us; the grains heat up.
  if ! finished weakbath; then
    t1=$(date +%s)
    "$run" "$root/presets/aggregation.json" --set environment.translational_damping=1.35e-15kg/s \
      --set environment.rotational_damping=1.8e-15kg/s --time 6us \
      --series "$out/weakbath_series.csv" --quiet > "$out/weakbath.log" 2>&1 && mark weakbath ||
      echo "the weak-bath trial did not finish: see $out/weakbath.log"
    echo "weak-bath trial: $(( $(date +%s) - t1 )) s" >> "$out/timings.txt"
  fi
  exit $code
) &
agg=$!

# 2. The capture maps on the remaining core(s).
jobs=$(( cores > 1 ? cores - 1 : 1 ))
map() {  # name, speeds, then lodestone-capture options (--speeds given twice would add up)
  local name=$1 v=$2; shift 2
  finished "map-$name" && return 0
  local t0=$(date +%s)
  "$capture" --speeds "$v" --b-top 1.5 --b-step 0.05 --jobs "$jobs" -q \
    -o "$out/capture_$name.csv" --summary "$out/capture_${name}_sigma.csv" "$@" > "$out/capture_$name.log"
  mark "map-$name"
  echo "map $name: $(( $(date +%s) - t0 )) s" | tee -a "$out/timings.txt"
}
# The paper's set-up: random orientations, thermal spins (Fig. 2's caption), the projectile placed
# R_m (eq. 2) upstream of the target.
map thermal "$speeds" --spin thermal --start-rm 1 --runs "$runs"
# Without initial spins, same placement; and without spins started 3 b_max upstream (the shot is then
# self-similar in v: P depends on b / b_max only).
map nospin "$speeds" --spin none --start-rm 1 --runs "$runs"
map nospin-far "$speeds" --spin none --start 3 --runs 50
# Thermal spins started 3 b_max upstream, at v_th only (the start-distance dependence with spins).
map thermal-far 1 --spin thermal --start 3 --runs 50

# The non-magnetic control: the same grains, box, bath and contacts with the dipoles switched off, so
# grains meet only by their thermal (Brownian, here nearly ballistic between captures) motion.
if ! finished control; then
  t0=$(date +%s)
  "$run" "$root/presets/aggregation.json" --set magnetics.method=off --series "$out/control_series.csv" \
    --clusters "$out/control_clusters.csv" --quiet > "$out/control.log" 2>&1 && mark control ||
    echo "the control run did not finish: see $out/control.log"
  echo "control run (no dipoles): $(( $(date +%s) - t0 )) s" | tee -a "$out/timings.txt"
fi
# The cost of the all-pairs sum (magnetics.method direct) against the cutoff at R_m, 2000 steps each,
# one thread: the runner's last line gives the time per step.
for method in direct cutoff; do
  finished "cost-$method" && continue
  "$run" "$root/presets/aggregation.json" --set magnetics.method=$method --steps 2000 --threads 1 --quiet \
    --timing > "$out/cost_$method.log" 2>&1 && grep -h "Time per step" "$out/cost_$method.log" | sed "s/^/$method: /" \
    | tee -a "$out/timings.txt" && mark "cost-$method"
done
# [Dominik-Nubold] Fig. 4: a grain hits the end of a chain (a minute).
t0=$(date +%s)
/usr/bin/python3 "$root/scripts/restructuring.py" "$run" "$out/restructuring" "$data" "$root/docs/figures" \
  | tee "$out/restructuring.txt"
echo "restructuring test: $(( $(date +%s) - t0 )) s" | tee -a "$out/timings.txt"

wait "$agg" || echo "the aggregation run did not finish: see $out/aggregation.log"
tail -n 1 "$out/timings.txt"
grep -h "Time per step\|Clusters at\|Accretional\|Dynamic exponent" "$out/aggregation.log" || true

echo "the whole reproduction took $(( $(date +%s) - start )) s on $cores cores" | tee "$out/wall_time.txt"
# The small tables to docs/data/aggregation/ (a few hundred kB), then the figures and numbers from there.
mkdir -p "$data"
cp "$out"/capture_*.csv "$out"/aggregation_series.csv "$out"/aggregation_clusters.csv "$out"/aggregation2_series.csv \
  "$out"/control_series.csv "$out"/weakbath_series.csv "$out"/timings.txt "$out"/wall_time.txt "$data"/
for log in aggregation aggregation2; do
  grep -h "Time per step\|Clusters at\|Accretional\|Dynamic exponent" "$out/$log.log" > "$data/$log.log" || true
done
# The last frame of the run only (the cluster shapes and moments at the end).
awk 'NR == FNR { if ($0 ~ /^[0-9]+$/) { n = $0; start = FNR } next } FNR >= start' \
  "$out/aggregation_frames.xyz" "$out/aggregation_frames.xyz" > "$data/aggregation_last_frame.xyz"
/usr/bin/python3 "$root/scripts/plot_aggregation.py" "$data" "$root/docs/figures" | tee "$data/numbers.txt"
