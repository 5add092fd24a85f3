#!/usr/bin/env bash
# Teaching scenes in the app (issue 5: each opens and runs smoothly, at least 20 frames/s): every
# preset given (default: the six teaching scenes) is opened in the desktop app under Xvfb at
# 1280x800 with `lodestone --benchmark SECONDS` (one second of warm-up, then frames and physics steps
# are counted; the preset's own pace applies), ROUNDS times in turn; prints each run and the medians.
#   bench/teaching-scenes.sh [ROUNDS=3] [SECONDS=10] [PRESET ...]
# BUILD=dir selects the build directory (default build/).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
seconds=${2:-10}
shift $(($# < 2 ? $# : 2))
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(presets/magnets-meeting.json presets/rotating-field-chain.json
  presets/chains-and-rings.json presets/field-switch-on.json presets/chain-falls.json presets/compass-needles.json)
app=${BUILD:-build}/app/desktop/lodestone
[ -x "$app" ] || { echo "build first: cmake --build ${BUILD:-build}" >&2; exit 1; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
declare -A fps steps
for ((r = 1; r <= rounds; ++r)); do
  for preset in "${presets[@]}"; do
    line=$(xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" "$app" --preset "$preset" --size 1280x800 \
             --benchmark "$seconds" 2>/dev/null | grep frames_per_second || true)
    [ -n "$line" ] || { echo "round $r: $preset: the app printed no benchmark line" >&2; exit 1; }
    f=$(echo "$line" | awk '{print $4}')
    s=$(echo "$line" | awk '{print $6}')
    echo "round $r: $preset: $f frames/s, $s steps/s"
    fps[$preset]="${fps[$preset]:-} $f"
    steps[$preset]="${steps[$preset]:-} $s"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
printf '\n%-40s %10s %10s %12s\n' preset "frames/s" "(min)" "steps/s"
slow=0
for preset in "${presets[@]}"; do
  # shellcheck disable=SC2086
  m=$(median ${fps[$preset]})
  low=$(printf '%s\n' ${fps[$preset]} | sort -g | head -1)
  printf '%-40s %10s %10s %12s\n' "$preset" "$m" "$low" "$(median ${steps[$preset]})"
  awk -v m="$m" 'BEGIN { exit !(m < 20) }' && slow=1
done
[ "$slow" -eq 0 ] && echo "every scene at 20 frames/s or more (median)" || echo "some scene below 20 frames/s (median)"
