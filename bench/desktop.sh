#!/usr/bin/env bash
# Desktop benchmark (docs/performance.md): frames/s of the window with 10 000 spheres and arrows
# while the physics runs flat out, and the physics' steps/s with the window open against the
# headless runner on the same preset. Runs under Xvfb (Mesa llvmpipe), alternating headless and
# windowed runs; prints each pair and the medians, with the CPU milliseconds a frame costs the GUI
# thread and llvmpipe's rasteriser and a step costs the physics (robust to the share of a busy
# machine the run was given).
#   bench/desktop.sh [PAIRS=3] [SECONDS=15] [PRESET=bench/presets/suspension-10k.json]
# 100 000 spheres (issue 26): bench/desktop.sh 3 15 bench/workloads/a-dilute-100k.json
# LODESTONE_LOD=none (or =arrows) in the environment turns the renderer's level of detail off (or keeps
# only the arrows'), for before/after figures (render/level_of_detail.hpp, render/occlusion.hpp).
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-3}
seconds=${2:-15}
preset=${3:-bench/presets/suspension-10k.json}
app=build/app/desktop/lodestone
runner=build/app/runner/lodestone-run
[ -x "$app" ] && [ -x "$runner" ] || { echo "build first: cmake --build build" >&2; exit 1; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "preset: $preset"
headless=() windowed=() fps=() gui=() raster=() physics=()
for ((k = 1; k <= pairs; ++k)); do
  # Headless: enough steps for about `seconds` of wall time (estimated from a short probe).
  probe=$("$runner" "$preset" --steps 20 --table 0 -q --timing | sed -n 's/^Time per step \([0-9.e+]*\) us.*/\1/p')
  steps=$(awk -v us="$probe" -v s="$seconds" 'BEGIN { n = int(s * 1e6 / us); print (n < 50 ? 50 : n) }')
  us=$("$runner" "$preset" --steps "$steps" --table 0 -q --timing | sed -n 's/^Time per step \([0-9.e+]*\) us.*/\1/p')
  h=$(awk -v us="$us" 'BEGIN { printf "%.1f", 1e6 / us }')
  # Windowed: the app under Xvfb, 1280x800, physics flat out, moment arrows on (the default).
  line=$(xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" "$app" --preset "$preset" --size 1280x800 \
           --benchmark "$seconds" 2>/dev/null | grep frames_per_second)
  f=$(echo "$line" | awk '{print $4}')
  w=$(echo "$line" | awk '{print $6}')
  g=$(echo "$line" | awk '{print $10}') r=$(echo "$line" | awk '{print $12}') p=$(echo "$line" | awk '{print $14}')
  echo "pair $k: headless $h steps/s | window $w steps/s, $f frames/s | CPU ms: gui $g + rasteriser $r a frame, physics $p a step"
  headless+=("$h") windowed+=("$w") fps+=("$f") gui+=("$g") raster+=("$r") physics+=("$p")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
mh=$(median "${headless[@]}") mw=$(median "${windowed[@]}") mf=$(median "${fps[@]}")
echo "median: headless $mh steps/s, window $mw steps/s ($(awk -v a="$mw" -v b="$mh" 'BEGIN { printf "%.1f", 100 * (1 - a / b) }') % lost), $mf frames/s"
echo "median CPU ms: gui $(median "${gui[@]}") + rasteriser $(median "${raster[@]}") a frame, physics $(median "${physics[@]}") a step"
echo "machine after: load $(cut -d' ' -f1-3 /proc/loadavg)"
