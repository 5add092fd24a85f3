#!/bin/bash
# Two builds' runners side by side: a change's gain on a noisy machine (docs/performance.md, "Each part's window kept
# with the list").
#
# Usage: bench/runner_ab.sh PRESET STEPS THREADS ROUNDS RUNNER_A RUNNER_B [STAGE=dipoles]
# Runs RUNNER_A and RUNNER_B in turn, ROUNDS times, each `PRESET --steps STEPS --threads THREADS --table 0 -q --timing`,
# and prints for each run the whole step's and STAGE's microseconds per step (the "Time per step" line), then the
# medians and B's over A's. Alternating puts a change in the machine's load on both; compare pairs, not sets.
# REHEARSE=1 reads the "Rehearsed" line of LODESTONE_THREAD_PARTS=rehearse runs instead (what THREADS cores would take).
set -euo pipefail
[ $# -ge 6 ] || { sed -n '5,10p' "$0" >&2; exit 2; }
PRESET=$1 STEPS=$2 THREADS=$3 ROUNDS=$4 A=$5 B=$6 STAGE=${7:-dipoles}
for runner in "$A" "$B"; do [ -x "$runner" ] || { echo "runner_ab: $runner is not an executable" >&2; exit 2; }; done
pattern='^Time per step'
if [ "${REHEARSE:-0}" = 1 ]; then
  pattern='^Rehearsed'
  export LODESTONE_THREAD_PARTS=rehearse
fi
PY=$(command -v /usr/bin/python3 || command -v python3)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for round in $(seq "$ROUNDS"); do
  for side in A B; do
    runner=$A
    [ "$side" = B ] && runner=$B
    line=$("$runner" "$PRESET" --steps "$STEPS" --threads "$THREADS" --table 0 -q --timing 2>&1 | grep "$pattern" | head -1)
    echo "$round $side $line" >> "$WORK/lines.txt"
  done
done
"$PY" - "$WORK/lines.txt" "$STAGE" << 'PYEOF'
import re, statistics, sys
stage = sys.argv[2]
runs = {"A": [], "B": []}
for line in open(sys.argv[1]):
    round_, side, text = line.split(" ", 2)
    total = float(re.search(r"(?:^Time per step |: )([0-9.e+-]+) us", text).group(1))
    found = re.search(re.escape(stage) + r" ([0-9.e+-]+) us", text)
    if not found:
        sys.exit(f"runner_ab: no stage '{stage}' in the runner's timing line")
    runs[side].append((total, float(found.group(1))))
    print(f"round {round_} {side}: whole step {total:9.0f} us, {stage} {float(found.group(1)):9.0f} us")
for k, name in ((0, "whole step"), (1, stage)):
    a = statistics.median(r[k] for r in runs["A"])
    b = statistics.median(r[k] for r in runs["B"])
    lower = sum(rb[k] < ra[k] for ra, rb in zip(runs["A"], runs["B"]))
    print(f"{name}: median A {a:.0f} us, B {b:.0f} us, B/A {b / a:.3f}; B lower in {lower} of {len(runs['A'])} rounds")
PYEOF
