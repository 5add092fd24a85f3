#!/usr/bin/env bash
# Fuzzes the preset loader, the checkpoint reader, Python's set() edit path and the remote's command parser with
# libFuzzer (docs/reliability.md "Fuzzing").
#   scripts/fuzz.sh [SECONDS]   each target for SECONDS (default 120), two side by side (one per core): the files
#                               first (preset, checkpoint), then the channels (set, remote); 2 x SECONDS in all
# Builds build-fuzz/ with clang (engine and fuzz/ only, ASan + UBSan + libFuzzer), writes the seed
# corpora into build-fuzz/, replays tests/data/fuzz-regressions/ and then fuzzes. Exits 1 when a
# target crashed, leaked, hit UB, ran out of time or memory on one input, or broke an invariant of
# fuzz/fuzz_harness.hpp; the input is then in build-fuzz/crashes/. The corpus that the fuzzer grows
# stays in build-fuzz/corpus/, so a later run starts where this one stopped.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-120}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: $0 [SECONDS per target, default 120]" >&2
  exit 2
fi

scripts/install-deps.sh
# clang and its libFuzzer runtime (Debian 12: clang 14); the normal build needs neither.
packages=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "fuzz: installing ${missing[*]}"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

build=build-fuzz
start=$(date +%s)
# Debug keeps the asserts (and Eigen's index checks); -O1 as in scripts/test.sh --sanitize; line tables
# are all the sanitizers' reports need and compile much faster than full debug information. A unity build, as every
# build (CMakeLists.txt): 4.3 minutes from scratch on two cores instead of 9.
mkdir -p "$build"
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="-O1" \
  -DCMAKE_CXX_FLAGS_DEBUG="-gline-tables-only" -DLODESTONE_FUZZ=ON > "$build/configure.log" || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j2
built=$(date +%s)
echo "fuzz: build took $((built - start)) s"

# Seeds: the shipped presets and test scenes; checkpoints of small scenes written by the engine itself
# (some with fewer particles than their preset, to keep them small).
targets=(preset checkpoint set remote)
rm -rf "$build/seeds" && mkdir -p "$build/crashes"
for target in "${targets[@]}"; do mkdir -p "$build/seeds/$target" "$build/corpus/$target"; done
cp presets/*.json tests/data/*.json "$build/seeds/preset/"
"$build/fuzz/make_checkpoint_seeds" "$build/seeds/checkpoint" presets/two-dipoles.json presets/magnets-meeting.json \
  presets/chain-falls.json presets/bar-magnets.json presets/magnetic-filament-rotating.json \
  presets/compass-needles.json:8 presets/powder-alignment.json:12 presets/aggregation.json:12 \
  presets/settled-packing.json:12 presets/field-switch-on.json:10 > "$build/seeds.log"
# The set() calls and remote lines of the README and docs/python.md: one input a line of fuzz/seeds/TARGET.txt, "\n"
# in it the next line of the input.
for target in set remote; do
  k=0
  while IFS= read -r line; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    k=$((k + 1))
    printf '%b' "$line" > "$build/seeds/$target/readme-$k"
  done < "fuzz/seeds/$target.txt"
done

export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run_target() {  # target, extra libFuzzer options...
  local target=$1
  shift
  local regressions=tests/data/fuzz-regressions/$target
  mkdir -p "$regressions"
  # The first directory receives the new inputs; the others are read only. -timeout: seconds per
  # input; -rss_limit_mb also bounds any single allocation (libFuzzer's -malloc_limit_mb).
  "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/crashes/$target-" "$@" \
    "$build/corpus/$target" "$build/seeds/$target" "$regressions" > "$build/fuzz-$target.log" 2>&1
}

# Two at a time, one per core of CI's two: the fuzz stage takes 2 x SECONDS.
status=0
run_target preset -dict=fuzz/preset.dict -max_len=16384 &
first_pid=$!
run_target checkpoint &
second_pid=$!
wait "$first_pid" || status=1
wait "$second_pid" || status=1
run_target set -dict=fuzz/edit.dict &
first_pid=$!
run_target remote -dict=fuzz/edit.dict &
second_pid=$!
wait "$first_pid" || status=1
wait "$second_pid" || status=1
end=$(date +%s)

for target in "${targets[@]}"; do
  log=$build/fuzz-$target.log
  cov=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [^ ]+' || true)
  execs=$(grep -oE 'stat::number_of_executed_units: +[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || echo "?")
  rate=$(grep -oE 'stat::average_exec_per_sec: +[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || echo "?")
  echo "fuzz: $target: $execs inputs, $rate per second; $cov (log: $log)"
done
echo "fuzz: $((end - start)) s in all ($((built - start)) s build, $((end - built)) s seeds and fuzzing)"

if [ "$status" -ne 0 ]; then
  echo "fuzz: FAILED; the end of each log:" >&2
  for target in "${targets[@]}"; do
    echo "--- $build/fuzz-$target.log" >&2
    grep -E 'ERROR|SUMMARY|Test unit written|uncaught|invariant|timeout|out-of-memory' "$build/fuzz-$target.log" | head -20 >&2 || true
  done
  echo "fuzz: reproduce with $build/fuzz/fuzz_<target> <input>; add the input to tests/data/fuzz-regressions/<target>/" >&2
  ls -1 "$build/crashes" >&2
  exit 1
fi
echo "fuzz: clean"
