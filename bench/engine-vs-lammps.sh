#!/bin/bash
# Lodestone against LAMMPS on the same physics (issue 7; docs/performance.md "Engine against LAMMPS").
#
# Usage: bench/engine-vs-lammps.sh [PAIRS=3] [WORKLOAD ...]
#   WORKLOAD = tag:preset:steps   (default: the four workloads below)
# Needs build/app/runner/lodestone-run (scripts/test.sh builds it; RUNNER=path times another build); LAMMPS
# (`apt-get install lammps`, the `lmp` command) is optional: without it only our engine is timed.
#
# For each workload and thread count (1 and 2) it alternates our run and LAMMPS's (1 and 2 MPI ranks;
# Debian's LAMMPS has no OpenMP) PAIRS times, and prints particle-steps per second of both, the ratio
# of the medians, and the machine's load average before each pair. LAMMPS starts from exactly our
# initial configuration (our first frame converted by bench/lammps/xyz_to_lammps_data.py) and runs
# bench/lammps/in.bench (the LAMMPS reference input we compare with, kept unchanged). Our figure is
# the runner's "Time per step" (all stages, neighbour rebuilds included, set-up excluded); LAMMPS's is
# the loop time of the timed run after a warm-up run. Peak resident memory of our runs is printed too.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-3}
shift || true
WORKLOADS=("$@")
if [ ${#WORKLOADS[@]} -eq 0 ]; then
  WORKLOADS=(
    "a-dilute-10k:bench/workloads/a-dilute-10k.json:300"
    "a-dilute-100k:bench/workloads/a-dilute-100k.json:30"
    "b-dense-10k:bench/workloads/b-dense-10k.json:100"
    "b-dense-100k:bench/workloads/b-dense-100k.json:10"
  )
fi
RUNNER=${RUNNER:-build/app/runner/lodestone-run}  # RUNNER=path times another build
[ -x "$RUNNER" ] || { echo "bench: build first ($RUNNER is missing; run scripts/test.sh)" >&2; exit 1; }
HAVE_LAMMPS=0
command -v lmp > /dev/null && HAVE_LAMMPS=1
[ $HAVE_LAMMPS = 1 ] || echo "bench: lmp not found (apt-get install lammps): timing our engine only" >&2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# Our particle-steps/s for one run; peak resident memory (KiB) into $WORK/rss.
ours() {  # preset steps threads particles (-q prints no particle count: the caller's, from --check)
  local out n us
  out=$(/usr/bin/time -f "rss %M" -o "$WORK/rss.txt" "$RUNNER" "$1" --steps "$2" --threads "$3" --table 0 -q --timing 2>&1)
  n=$4
  us=$(echo "$out" | sed -n 's/^Time per step \([0-9.e+-]*\) us.*/\1/p')
  awk '{print $2}' "$WORK/rss.txt" > "$WORK/rss"
  awk -v n="$n" -v us="$us" 'BEGIN {printf "%.4g\n", n / (us * 1e-6)}'
}

lammps() {  # data steps ranks
  local log="$WORK/lmp.log"
  if [ "$3" = 1 ]; then
    lmp -in bench/lammps/in.bench -var data "$1" -var nwarm 20 -var nrun "$2" -log "$log" -screen none
  else
    mpirun -np "$3" lmp -in bench/lammps/in.bench -var data "$1" -var nwarm 20 -var nrun "$2" -log "$log" -screen none
  fi
  # The second "Loop time of T on P procs for S steps with N atoms".
  grep "^Loop time" "$log" | tail -1 | awk '{printf "%.4g\n", $12 * $9 / $4}'
}

printf "%-14s %7s %4s %14s %14s %7s %9s %s\n" workload N thr "ours [Mp-s/s]" "LAMMPS [Mp-s/s]" ratio "RSS MiB" "load (before each pair)"
for w in "${WORKLOADS[@]}"; do
  IFS=: read -r tag preset steps <<< "$w"
  data="$WORK/$tag.data"
  if [ $HAVE_LAMMPS = 1 ]; then
    "$RUNNER" "$preset" --steps 1 --frames "$WORK/$tag.xyz" --frames-every 1000000 --table 0 -q --threads 1 > /dev/null 2>&1
    python3 bench/lammps/xyz_to_lammps_data.py "$WORK/$tag.xyz" "$data"
  fi
  n=$("$RUNNER" "$preset" --check 2>/dev/null | sed -n 's/^ *\([0-9]*\) particles on.*/\1/p')
  for threads in 1 2; do
    : > "$WORK/ours"; : > "$WORK/theirs"; loads=""
    for _ in $(seq "$PAIRS"); do
      loads="$loads $(cut -d' ' -f1 /proc/loadavg)"
      ours "$preset" "$steps" "$threads" "$n" >> "$WORK/ours"
      [ $HAVE_LAMMPS = 1 ] && lammps "$data" "$steps" "$threads" >> "$WORK/theirs"
    done
    o=$(median < "$WORK/ours")
    if [ $HAVE_LAMMPS = 1 ]; then
      t=$(median < "$WORK/theirs")
      r=$(awk -v o="$o" -v t="$t" 'BEGIN {printf "%.2f", o / t}')
    else
      t="-"; r="-"
    fi
    rss=$(awk '{printf "%.0f", $1 / 1024}' "$WORK/rss")
    printf "%-14s %7s %4s %14s %14s %7s %9s %s\n" "$tag" "$n" "$threads" \
      "$(awk -v v="$o" 'BEGIN {printf "%.3f", v / 1e6}')" \
      "$( [ "$t" = - ] && echo - || awk -v v="$t" 'BEGIN {printf "%.3f", v / 1e6}')" "$r" "$rss" "$loads"
    echo "  runs, ours: $(tr '\n' ' ' < "$WORK/ours")  LAMMPS: $(tr '\n' ' ' < "$WORK/theirs")" >&2
  done
done
