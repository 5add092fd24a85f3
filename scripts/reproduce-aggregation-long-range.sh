#!/bin/bash
# The long-range rerun of [Dominik-Nubold]'s aggregation (issue 25; docs/reproduction-aggregation.md,
# "Long-range rerun"): presets/aggregation.json with every periodic image of every dipole (P3M at its
# default accuracy) instead of the SAND cutoff at R_m, in a box of 4.8 um (twice the 240 R capture
# radius that two 50-grain clusters reach at their thermal speed, so that no capture disc wraps onto
# itself) holding 2500 grains, the same number density as the 500-grain run (volume fraction 9.4e-5).
# The dipole pass runs in full every 8th step and is extrapolated in between ([Dominik-Nubold] App.
# A.8, magnetics.force_interval; docs/physics.md "Multiple time steps").
#   scripts/reproduce-aggregation-long-range.sh [OUT]   (default OUT: /work/runs/aggregation-long-range)
# BUILD=dir picks the build (default build/), DURATION the simulated time in seconds (default 16e-6, the preset's),
# THREADS the threads (default 1; runs on different counts agree to round-off, not to the bit).
# Resumable: a checkpoint every 20 000 steps; started again, it continues from the last one and writes
# the series from there to the next part file (series_1.csv, ...). Then the tables go to
# docs/data/aggregation/long-range/ and scripts/plot_aggregation.py draws the figures from them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"
out="$(mkdir -p "${1:-/work/runs/aggregation-long-range}" && cd "${1:-/work/runs/aggregation-long-range}" && pwd)"
data="${DATA:-$root/docs/data/aggregation/long-range}"
run="$build/app/runner/lodestone-run"
[ -x "$run" ] || { echo "build first: cmake -S . -B build && cmake --build build ($run is missing)" >&2; exit 1; }
settings=(--set particles.count=2500 --set 'box.max=["4800 nm","4800 nm","4800 nm"]'
  --set magnetics.method=p3m --set magnetics.force_interval=8 --set "run.duration=${DURATION:-16e-6}")
shopt -s nullglob
parts=("$out"/series_*.csv)
part=${#parts[@]}
if [ ! -f "$out/.done" ]; then
  if [ -s "$out/run.ckpt" ]; then
    # The settings are in the checkpoint's preset; a restart runs --time from the checkpoint's time, which
    # a one-step probe reads off the first row of its series.
    "$run" --restart "$out/run.ckpt" --steps 1 --series "$out/probe.csv" --quiet > /dev/null
    left=$(awk -F, -v d="${DURATION:-16e-6}" '!/^#/ && $1 ~ /^[0-9]+$/ { printf "%.9g", d - $2; exit }' "$out/probe.csv")
    input=(--restart "$out/run.ckpt" --time "$left")
  else
    input=("$root/presets/aggregation.json" "${settings[@]}")
  fi
  t0=$(date +%s)
  # Not --quiet: the summary's "dipoles" line goes from the log into docs/data (below); progress every 10 minutes.
  "$run" "${input[@]}" --threads "${THREADS:-1}" --series "$out/series_$part.csv" --clusters "$out/clusters_$part.csv" \
    --checkpoint "$out/run.ckpt" --checkpoint-every 20000 --table 0 --progress-every 600 > "$out/run_$part.log" 2>&1
  echo "long-range run, part $part: $(( $(date +%s) - t0 )) s" | tee -a "$out/timings.txt"
  touch "$out/.done"
fi
# The control: the same 2500 grains in the same box from the same start, the dipoles cut at R_m as in the preset
# (magnetics.method cutoff); only the method differs, so the comparison is free of the 500-grain runs' finite size.
# About 20 minutes on one core; not resumable (it starts again if stopped).
if [ ! -f "$out/cutoff/.done" ]; then
  mkdir -p "$out/cutoff"
  t0=$(date +%s)
  "$run" "$root/presets/aggregation.json" "${settings[@]/magnetics.method=p3m/magnetics.method=cutoff}" \
    --threads "${THREADS:-1}" --series "$out/cutoff/series.csv" --clusters "$out/cutoff/clusters.csv" \
    --checkpoint "$out/cutoff/run.ckpt" --table 0 --progress-every 600 > "$out/cutoff/run.log" 2>&1
  echo "same-box cutoff control: $(( $(date +%s) - t0 )) s" | tee -a "$out/timings.txt"
  touch "$out/cutoff/.done"
fi

# The final state as one frame (the cluster shapes and moments at the end: fractal dimension, remanence), from the
# checkpoint the run wrote when it ended: a restart writes its first frame before it moves. Only the columns the
# figures read (id, radius, position, moment), compressed: 2500 grains.
last_frame() {  # CHECKPOINT FRAME: writes FRAME.gz
  "$run" --restart "$1" --steps 1 --frames "$2" --frames-every 1000 --quiet > /dev/null
  /usr/bin/python3 - "$2" <<'PY'
import gzip, re, sys
keep = ["id", "radius", "pos", "moment"]
lines = open(sys.argv[1]).read().splitlines()
props = re.search(r"Properties=(\S+)", lines[1]).group(1).split(":")
columns, at = {}, 0
for j in range(0, len(props), 3):
    columns[props[j]] = (props[j:j + 3], at, at + int(props[j + 2]))
    at += int(props[j + 2])
head = lines[1].replace("Properties=" + ":".join(props), "Properties=" + ":".join(sum((columns[k][0] for k in keep), [])))
with gzip.open(sys.argv[1] + ".gz", "wt", compresslevel=9) as f:
    f.write(lines[0] + "\n" + head + "\n")
    for line in lines[2:2 + int(lines[0])]:
        x = line.split()
        f.write(" ".join(sum((x[columns[k][1]:columns[k][2]] for k in keep), [])) + "\n")
PY
  rm "$2"
}
[ -s "$out/last_frame.xyz.gz" ] || last_frame "$out/run.ckpt" "$out/last_frame.xyz"
[ -s "$out/cutoff/last_frame.xyz.gz" ] || last_frame "$out/cutoff/run.ckpt" "$out/cutoff/last_frame.xyz"
mkdir -p "$data"
cp "$out"/series_*.csv "$out"/clusters_*.csv "$out/timings.txt" "$data"/
cp "$out/last_frame.xyz.gz" "$data"/
mkdir -p "$data/cutoff"
cp "$out"/cutoff/series.csv "$out"/cutoff/clusters.csv "$out/cutoff/last_frame.xyz.gz" "$data/cutoff"/
grep -h "dipoles\|Time per step\|Clusters at\|Accretional\|Dynamic exponent" "$out"/cutoff/run.log > "$data/cutoff/run.log" || true
grep -h "dipoles P3M\|Time per step\|Clusters at\|Accretional\|Dynamic exponent" "$out"/run_*.log > "$data/run.log" || true
/usr/bin/python3 "$root/scripts/plot_aggregation.py" "$root/docs/data/aggregation" "$root/docs/figures" \
  | tee "$root/docs/data/aggregation/numbers.txt"
