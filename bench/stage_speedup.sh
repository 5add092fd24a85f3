#!/bin/bash
# Each stage's time per step at 1 and N threads and its speed-up (issue 38: "every stage parallel").
#
# Usage: bench/stage_speedup.sh [PRESET=bench/workloads/a-dilute-100k.json] [STEPS=40] [THREADS=2] [RUNS=5]
# Runs build/app/runner/lodestone-run on the preset RUNS times at 1 and at THREADS threads, alternating (so that a
# change in the machine's load falls on both), and prints for each stage the median of its microseconds per step
# (the runner's "Time per step" line) at each count and the ratio. Medians over runs, each run's stage times being
# means over its steps (set-up excluded). An older runner that prints whole percentages only is read from those.
# REHEARSE=1 runs the THREADS-thread runs with LODESTONE_THREAD_PARTS=rehearse and takes their projected times (what
# THREADS cores would take, the parts timed one after another on one: docs/performance.md, "A rehearsal of 16 cores
# on two"), so that e.g. `REHEARSE=1 bench/stage_speedup.sh PRESET 20 16 3` sets one real thread beside 16 rehearsed.
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET=${1:-bench/workloads/a-dilute-100k.json}
STEPS=${2:-40}
THREADS=${3:-2}
RUNS=${4:-5}
RUNNER=${RUNNER:-build/app/runner/lodestone-run}  # RUNNER=path compares another build
[ -x "$RUNNER" ] || { echo "bench: build first ($RUNNER is missing; run scripts/test.sh)" >&2; exit 1; }
PY=$(command -v /usr/bin/python3 || command -v python3)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for run in $(seq "$RUNS"); do
  "$RUNNER" "$PRESET" --steps "$STEPS" --threads 1 --table 0 -q --timing 2>&1 | grep '^Time per step' >> "$WORK/1.txt"
  if [ "${REHEARSE:-0}" = 1 ]; then
    LODESTONE_THREAD_PARTS=rehearse "$RUNNER" "$PRESET" --steps "$STEPS" --threads "$THREADS" --table 0 -q --timing 2>&1 |
      grep '^Rehearsed' >> "$WORK/n.txt"
  else
    "$RUNNER" "$PRESET" --steps "$STEPS" --threads "$THREADS" --table 0 -q --timing 2>&1 | grep '^Time per step' >> "$WORK/n.txt"
  fi
done
[ "${REHEARSE:-0}" = 1 ] && LABEL="$THREADS rehearsed" || LABEL="$THREADS threads"
"$PY" - "$WORK/1.txt" "$WORK/n.txt" "$LABEL" "$PRESET" << 'PYEOF'
import re, statistics, sys
def stages(path):
    runs = []
    for line in open(path):
        # "Time per step T us: ..." or, rehearsed, "Rehearsed on ...: T us per step, ...: ..."
        total = float(re.search(r"(?:^Time per step |: )([0-9.e+-]+) us", line).group(1))
        parts = {"whole step": total}
        # A rehearsed line's "(12.3x; serial 4 us)" after each stage, cut to the "(" a plain line has there.
        stages_text = re.sub(r"\([0-9.]+x; serial [^)]*\)", "(", line.split(":", 1)[1])
        for name, us in re.findall(r" ([a-z ,()]+?) ([0-9.e+-]+) us \(", stages_text):
            parts[name.strip()] = float(us)
        if len(parts) == 1:  # a runner before f85f953's successor printed whole percentages only
            for name, percent in re.findall(r" ([a-z ,()]+?) ([0-9]+)%", stages_text):
                parts[name.strip()] = total * float(percent) / 100.0
        runs.append(parts)
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}
one, many, n, preset = stages(sys.argv[1]), stages(sys.argv[2]), sys.argv[3], sys.argv[4]
print(f"{preset}: median us per step over {len(open(sys.argv[1]).readlines())} runs")
print(f"{'stage':28s} {'1 thread':>10s} {n:>14s} {'speed-up':>9s}")
for k in one:
    if one[k] < 1.0 and many[k] < 1.0:
        continue
    ratio = one[k] / many[k] if many[k] > 0 else float("inf")
    print(f"{k:28s} {one[k]:10.1f} {many[k]:14.1f} {ratio:9.2f}")
PYEOF
