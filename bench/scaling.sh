#!/bin/bash
# Time per step against N for our engine (issue 7; docs/performance.md, docs/figures/scaling.png).
#
# Usage: bench/scaling.sh [RUNS=3] [OUT=docs/figures/scaling]
# Workloads (a) dilute and (b) dense (bench/workloads/*-10k.json) resized to N = 1k ... 100k at the same
# volume fraction (random placement for (a), a bcc lattice of 2 c^3 sites for (b)), each timed RUNS
# times on 1 and 2 threads with build/app/runner/lodestone-run (median of "Time per step"). Writes
# OUT.csv and, when python3-matplotlib is installed, the log-log plot OUT.png.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
OUT=${2:-docs/figures/scaling}
RUNNER=build/app/runner/lodestone-run
[ -x "$RUNNER" ] || { echo "bench: build first ($RUNNER is missing; run scripts/test.sh)" >&2; exit 1; }
# Debian's python3 (with python3-matplotlib), even when another python3 comes first on PATH.
PY=$(command -v /usr/bin/python3 || command -v python3)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Writes the resized preset for workload $1 (a or b) at about $2 particles to $WORK/$1-$2.json.
resize() {
  "$PY" - "$1" "$2" "$WORK/$1-$2.json" << 'EOF'
import json, math, sys
kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
p = json.load(open(f"bench/workloads/{'a-dilute' if kind == 'a' else 'b-dense'}-10k.json"))
if kind == "a":
    length = (n * math.pi / 6 / 0.15) ** (1 / 3)
    p["particles"]["count"] = n
else:
    cells = max(2, round((n / 2) ** (1 / 3)))
    length = cells * p["particles"]["spacing"]
    p["particles"]["count"] = 2 * cells ** 3
p["box"]["max"] = [length] * 3
json.dump(p, open(out, "w"))
EOF
}

median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "workload,particles,threads,us_per_step,runs" > "$OUT.csv"
for kind in a b; do
  for n in 1000 3000 10000 30000 100000; do
    resize "$kind" "$n"
    preset="$WORK/$kind-$n.json"
    count=$("$RUNNER" "$preset" --check 2> /dev/null | sed -n 's/^ *\([0-9]*\) particles on.*/\1/p')
    # About 2 s of stepping per run on one thread (0.5-2 us per particle-step).
    if [ "$kind" = a ]; then steps=$((3000000 / count)); else steps=$((1000000 / count)); fi
    [ "$steps" -ge 10 ] || steps=10
    for threads in 1 2; do
      : > "$WORK/t"
      for _ in $(seq "$RUNS"); do
        "$RUNNER" "$preset" --steps "$steps" --threads "$threads" --table 0 -q --timing 2>&1 |
          sed -n 's/^Time per step \([0-9.e+-]*\) us.*/\1/p' >> "$WORK/t"
      done
      us=$(median < "$WORK/t")
      echo "$kind,$count,$threads,$us,$(tr '\n' ' ' < "$WORK/t")" | tee -a "$OUT.csv"
    done
  done
done

"$PY" - "$OUT" << 'EOF' || echo "bench: no plot (python3-matplotlib missing?)" >&2
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out = sys.argv[1]
rows = list(csv.DictReader(open(out + ".csv")))
fig, ax = plt.subplots(figsize=(6, 4.2))
names = {"a": "(a) dilute, phi 0.15", "b": "(b) dense, phi 0.55"}
for kind, colour in (("a", "tab:blue"), ("b", "tab:red")):
    for threads, style in (("1", "o-"), ("2", "s--")):
        pts = sorted((int(r["particles"]), float(r["us_per_step"])) for r in rows
                     if r["workload"] == kind and r["threads"] == threads)
        ax.loglog([p[0] for p in pts], [p[1] * 1e-3 for p in pts], style, color=colour,
                  label=f"{names[kind]}, {threads} thread{'s' if threads == '2' else ''}")
n0 = 1000
ref = [r for r in rows if r["workload"] == "a" and r["threads"] == "1"]
if ref:
    t0 = min(float(r["us_per_step"]) for r in ref if int(r["particles"]) <= 1100) * 1e-3
    ax.loglog([1e3, 1e5], [t0, t0 * 100], ":", color="grey", label="proportional to N")
ax.set_xlabel("particles N")
ax.set_ylabel("time per step [ms]")
ax.set_title("Lodestone engine: time per step against N")
ax.grid(True, which="both", alpha=0.3)
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(out + ".png", dpi=120)
print("wrote", out + ".png")
EOF
