#!/bin/bash
# Two builds' runners side by side: a change's gain on a noisy machine (docs/performance.md, "Each part's window kept
# with the list").
#
# Usage: bench/runner_ab.sh PRESET STEPS THREADS ROUNDS RUNNER_A RUNNER_B [STAGES=dipoles]
# Runs RUNNER_A and RUNNER_B in turn, ROUNDS times, each `PRESET --steps STEPS --threads THREADS --table 0 -q --timing`,
# and prints for each run the whole step's and STAGES' microseconds per step (the "Time per step" line; STAGES: names
# joined by commas, those with a comma of their own as they are, e.g. "contacts,gravity, damping"; or "all"), then the medians and B's over A's. Alternating puts a change in the machine's load on both; compare pairs, not sets.
# REHEARSE=1 reads the "Rehearsed" line of LODESTONE_THREAD_PARTS=rehearse runs instead (what THREADS cores would take).
# ENV_A and ENV_B are VAR=VALUE words put in A's and B's environment: one runner twice, two settings (e.g.
# ENV_A=LODESTONE_THREAD_PARTS=claimed to compare hand-outs; docs/performance.md, "Each thread's own parts first").
# ARGS are more runner arguments for both, e.g. ARGS="--set integrator.neighbor_skin=0.002" (lists rebuilt each step).
set -euo pipefail
[ $# -ge 6 ] || { sed -n '5,12p' "$0" >&2; exit 2; }
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
    runner=$A settings=${ENV_A:-}
    [ "$side" = B ] && runner=$B settings=${ENV_B:-}
    # shellcheck disable=SC2086  # the settings are words
    line=$(env $settings "$runner" "$PRESET" --steps "$STEPS" --threads "$THREADS" --table 0 -q --timing ${ARGS:-} 2>&1 | grep "$pattern" | head -1)
    echo "$round $side $line" >> "$WORK/lines.txt"
  done
done
"$PY" - "$WORK/lines.txt" "$STAGE" << 'PYEOF'
import re, statistics, sys
wanted = sys.argv[2]
runs = {"A": [], "B": []}  # per run: {"whole step": us, stage: us, ...}
for line in open(sys.argv[1]):
    round_, side, text = line.split(" ", 2)
    times = {"whole step": float(re.search(r"(?:^Time per step |: )([0-9.e+-]+) us", text).group(1))}
    for name, us in re.findall(r"(?:: |, )([a-z][a-z ,()]*?) ([0-9.e+-]+) us", text):
        times[name] = float(us)
    if wanted == "all":
        stages = [n for n in times if n != "whole step"]
    else:  # names joined by commas; a name with a comma of its own ("gravity, damping") is rejoined
        stages, name = [], ""
        for piece in wanted.split(","):
            name = piece if not name else name + "," + piece
            if name in times:
                stages.append(name)
                name = ""
        if name:
            sys.exit(f"runner_ab: no stage '{name}' in the runner's timing line")
    runs[side].append(times)
    shown = ", ".join(f"{n} {times[n]:.0f} us" for n in stages)
    print(f"round {round_} {side}: whole step {times['whole step']:9.0f} us, {shown}")
for name in ["whole step"] + stages:
    a = statistics.median(r[name] for r in runs["A"])
    b = statistics.median(r[name] for r in runs["B"])
    lower = sum(rb[name] < ra[name] for ra, rb in zip(runs["A"], runs["B"]))
    print(f"{name}: median A {a:.0f} us, B {b:.0f} us, B/A {b / a:.3f}; B lower in {lower} of {len(runs['A'])} rounds")
PYEOF
