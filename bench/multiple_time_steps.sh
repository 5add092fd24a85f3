#!/usr/bin/env bash
# Multiple time steps for the dipole forces (magnetics.force_interval = k, [Dominik-Nubold] App. A.8;
# docs/performance.md, docs/physics.md). Run on demand, never in CI.
#   1. Speed: ROUNDS rounds of k = 1, 2, 4, 8 in turn (alternating, so that a change in the machine's
#      load hits every k alike), each `lodestone-run --steps STEPS`; medians of the time per step and of
#      the dipole stage's share, and the speed-up against k = 1.
#   2. Error (bench/mts_error.cpp): for k = 2, 4, 8, the RMS force and torque error of the extrapolated
#      passes against the exact pass at the same state, and the observables (mean cluster size S,
#      dipole energy, energy balance, contacts, <m.b>) over ERROR_STEPS steps, with k = 1 for each seed.
#   bench/multiple_time_steps.sh [ROUNDS=3] [STEPS=20000] [PRESET=presets/chains-suspension.json]
#                                [ERROR_STEPS=40000] [SEEDS="3"]
# ERROR_STEPS=0 skips the error part.
# BUILD=dir selects the build directory (default build/).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
steps=${2:-20000}
preset=${3:-presets/chains-suspension.json}
error_steps=${4:-40000}
seeds=${5:-3}
build=${BUILD:-build}
runner=$build/app/runner/lodestone-run
[ -x "$runner" ] || { echo "build first: cmake --build $build" >&2; exit 1; }
cmake --build "$build" --target lodestone-mts-error >/dev/null
errors=$build/bench/lodestone-mts-error
ks=(1 2 4 8)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The preset with every key written out, then one copy per k (the saved form has "force_interval": 1).
"$runner" "$preset" --save-preset "$work/base.json" >/dev/null
for k in "${ks[@]}"; do
  sed "s/\"force_interval\": 1\$/\"force_interval\": $k/; s/\"force_interval\": 1,/\"force_interval\": $k,/" \
    "$work/base.json" >"$work/k$k.json"
  grep -q "\"force_interval\": $k" "$work/k$k.json" || { echo "could not set force_interval in $preset" >&2; exit 1; }
done

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "preset: $preset, $steps steps per timing run, $rounds rounds"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
declare -A per_step dipoles
for ((r = 1; r <= rounds; ++r)); do
  line="round $r:"
  for k in "${ks[@]}"; do
    out=$("$runner" "$work/k$k.json" --steps "$steps" --table 0 -q --timing | grep '^Time per step')
    us=$(echo "$out" | sed -n 's/^Time per step \([0-9.e+]*\) us.*/\1/p')
    share=$(echo "$out" | sed -n 's/.* dipoles \([0-9]*\)%.*/\1/p')
    per_step[$k]="${per_step[$k]:-} $us"
    dipoles[$k]="${dipoles[$k]:-} $(awk -v u="$us" -v s="$share" 'BEGIN { print u * s / 100 }')"
    line="$line  k=$k ${us} us (dipoles ${share}%)"
  done
  echo "$line"
done
echo "load after timing: $(cut -d' ' -f1-3 /proc/loadavg)"
base=$(median ${per_step[1]})
printf '\n%3s %12s %10s %18s\n' k "us/step" speed-up "dipole stage us"
for k in "${ks[@]}"; do
  m=$(median ${per_step[$k]})
  d=$(median ${dipoles[$k]})
  printf '%3s %12s %10s %18s\n' "$k" "$m" "$(awk -v a="$base" -v b="$m" 'BEGIN { printf "%.2f", a / b }')" "$d"
done

[ "$error_steps" -gt 0 ] || exit 0
echo
echo "error over $error_steps steps (extrapolated passes against the exact pass; observables every $((error_steps / 8)) steps)"
for seed in $seeds; do
  for k in "${ks[@]}"; do
    echo "--- seed $seed, k = $k"
    "$errors" "$work/k1.json" "$k" "$error_steps" "$seed" 8 | grep -v '^# time_s'
  done
done
