#!/bin/bash
# The energy books' order in dt over an ensemble of nearby runs (issue 40).
#
# Usage: bench/energy_books_ensemble.sh PRESET SECONDS PATH VALUE UNIT [MEMBERS=12] [-- EXTRA ARGS...]
# Runs lodestone-energy-books PRESET SECONDS --as-is MEMBERS times, the k-th with PATH set to VALUE (1 + 0.0037 k)
# UNIT, and prints each member's row and the sums of |drift| at dt, dt/2, dt/4 with their ratios. Extra arguments go
# to every run (e.g. --set integrator.time_step=... to start at a smaller step).
#
# Why: in a scene whose contacts start, stop, stick or slip many times (a walker's feet, two bars colliding), each
# event inside a step leaves an error of order dt^2 whose size depends on where in the step it falls, so one run's
# ratio per halving scatters (0.7 to 15 for the bars). Over members whose events fall at other places in their
# steps the sum has that scatter averaged out: it falls 4 times per halving for a second-order balance and 2 times
# for a first-order part.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 5 ] || { sed -n 3,7p "$0" >&2; exit 2; }
PRESET=$1 SECONDS_=$2 PATH_=$3 VALUE=$4 UNIT=$5
shift 5
MEMBERS=12
if [ $# -gt 0 ] && [ "$1" != "--" ]; then MEMBERS=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
BOOKS=${BOOKS:-build/bench/lodestone-energy-books}
[ -x "$BOOKS" ] || { echo "bench: build it first: ninja -C build lodestone-energy-books" >&2; exit 1; }
for k in $(seq 0 $((MEMBERS - 1))); do
  value=$(awk -v v="$VALUE" -v k="$k" 'BEGIN { printf "%.9g", v * (1 + 0.0037 * k) }')
  "$BOOKS" "$PRESET" "$SECONDS_" --as-is --set "$PATH_=$value $UNIT" "$@" 2>&1 | tail -1 | sed "s|^|$PATH_=$value $UNIT  |"
done | awk '{ print; n = NF; a += ($(n-4) < 0 ? -$(n-4) : $(n-4)); b += ($(n-3) < 0 ? -$(n-3) : $(n-3));
              c += ($(n-2) < 0 ? -$(n-2) : $(n-2)) }
            END { printf "sum of |drift| over %d members: %.3e %.3e %.3e   (%.2f, %.2f)\n", NR, a, b, c, a / b, b / c }'
