#!/bin/bash
# Threads on a shared machine (issue 26; docs/performance.md "Contention"): the step time of the
# reference workloads at --threads 1 and 2, alone and with one competing CPU-bound process
# (bench/busy_loop.cpp) running beside them.
#
# Usage: bench/contention.sh [RUNS=3] [WORKLOAD ...]
#   WORKLOAD = tag:preset:steps   (default: (a) and (b) at 10k)
# Environment: RUNNER (default build/app/runner/lodestone-run), BUSY (default
# build/bench/lodestone-busy-loop; built here if missing), PIN=CPU pins the busy loop to that CPU
# (default: not pinned, the scheduler places it).
#
# For each workload the four cases (1 and 2 threads, alone and beside the busy loop) are run in turn,
# RUNS times, and the median "Time per step" of each is printed with the ratio threads 2 / threads 1
# (below 1: two threads are faster) and the load average before the runs. The target: beside the busy
# loop, two threads are never slower than one. The machine should otherwise be idle; `uptime` tells.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
shift || true
WORKLOADS=("$@")
if [ ${#WORKLOADS[@]} -eq 0 ]; then
  WORKLOADS=(
    "a-dilute-10k:bench/workloads/a-dilute-10k.json:300"
    "b-dense-10k:bench/workloads/b-dense-10k.json:100"
  )
fi
RUNNER=${RUNNER:-build/app/runner/lodestone-run}
BUSY=${BUSY:-build/bench/lodestone-busy-loop}
[ -x "$RUNNER" ] || { echo "contention: build first ($RUNNER is missing; run scripts/test.sh)" >&2; exit 1; }
[ -x "$BUSY" ] || cmake --build build --target lodestone-busy-loop > /dev/null
WORK=$(mktemp -d)
BUSY_PID=""
cleanup() {
  [ -n "$BUSY_PID" ] && kill "$BUSY_PID" 2> /dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

step_us() {  # preset steps threads
  "$RUNNER" "$1" --steps "$2" --threads "$3" --table 0 -q --timing 2>&1 | sed -n 's/^Time per step \([0-9.e+-]*\) us.*/\1/p'
}

printf "%-14s %-6s %12s %12s %8s  %s\n" workload busy "1 thr [ms]" "2 thr [ms]" "2 / 1" "load (before)"
for w in "${WORKLOADS[@]}"; do
  IFS=: read -r tag preset steps <<< "$w"
  for busy in no yes; do
    : > "$WORK/t1"; : > "$WORK/t2"; loads=""
    for _ in $(seq "$RUNS"); do
      loads="$loads $(cut -d' ' -f1 /proc/loadavg)"
      if [ $busy = yes ]; then
        "$BUSY" 3600 ${PIN:+"$PIN"} > /dev/null &
        BUSY_PID=$!
        sleep 0.2
      fi
      step_us "$preset" "$steps" 1 >> "$WORK/t1"
      step_us "$preset" "$steps" 2 >> "$WORK/t2"
      if [ -n "$BUSY_PID" ]; then
        kill "$BUSY_PID"
        wait "$BUSY_PID" 2> /dev/null || true
        BUSY_PID=""
      fi
    done
    t1=$(median < "$WORK/t1")
    t2=$(median < "$WORK/t2")
    printf "%-14s %-6s %12.3f %12.3f %8.2f %s\n" "$tag" "$busy" "$(awk -v v="$t1" 'BEGIN {print v / 1e3}')" \
      "$(awk -v v="$t2" 'BEGIN {print v / 1e3}')" "$(awk -v a="$t1" -v b="$t2" 'BEGIN {print b / a}')" "$loads"
    echo "  runs [us], 1 thread: $(tr '\n' ' ' < "$WORK/t1")  2 threads: $(tr '\n' ' ' < "$WORK/t2")" >&2
  done
done
