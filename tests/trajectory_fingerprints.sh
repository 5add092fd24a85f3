#!/usr/bin/env bash
# Fingerprints of the trajectory every preset gives: each scene in presets/ and bench/workloads/ runs a
# fixed number of steps on one thread, writing a checkpoint (the whole state, bit for bit) and extended
# XYZ frames along the way; the script prints one line per scene with the SHA-256 of the checkpoint's
# state (the bytes after the preset text it carries, so that an edited description does not count) and
# of the frames.
#
#   tests/trajectory_fingerprints.sh BUILD_DIR [OUT_DIR]      prints "scene checkpoint-sha frames-sha"
#
# Two builds give the same trajectories when their outputs match line for line: a refactoring that must
# not change behaviour is checked by running this on the commit before and after it and diffing:
#   tests/trajectory_fingerprints.sh build-before > before.txt
#   tests/trajectory_fingerprints.sh build-after  > after.txt && diff before.txt after.txt
# Steps per scene keep the whole set near a few minutes on two cores; the 100k workloads run fewer.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: $0 BUILD_DIR [OUT_DIR]}
out=${2:-$(mktemp -d)}
runner="$build/app/runner/lodestone-run"
[ -x "$runner" ] || { echo "no runner at $runner" >&2; exit 1; }
mkdir -p "$out"

steps_for() {
  case "$1" in
    *100k*) echo 20 ;;
    *10k*) echo 100 ;;
    *powder-alignment*|*aggregation*) echo 400 ;;
    *) echo 2000 ;;
  esac
}

# SHA-256 (16 hex digits) of a checkpoint's state: after the magic line, the format version and byte-order
# mark (4 + 4 bytes), from format version 6 the writing program's version (8-byte length, then the text), and the
# preset text (8-byte length, then the text); the final checksum left out.
state_sha() {
  python3 - "$1" <<'PY'
import hashlib, struct, sys
data = open(sys.argv[1], "rb").read()
at = len(b"LODESTONE-CHECKPOINT\n")
version = struct.unpack_from("<I", data, at)[0]
at += 8
if version >= 6:  # the writing program's version string, metadata: left out so a version bump changes nothing
    at += 8 + struct.unpack_from("<Q", data, at)[0]
length = struct.unpack_from("<Q", data, at)[0]
print(hashlib.sha256(data[at + 8 + length:-8]).hexdigest()[:16])
PY
}

for preset in "$here"/presets/*.json "$here"/bench/workloads/*.json; do
  name=$(basename "$(dirname "$preset")")-$(basename "$preset" .json)
  steps=$(steps_for "$name")
  every=$((steps / 4))
  rm -f "$out/$name.ckpt" "$out/$name.xyz"
  # A scene that stops on a failed check (exit 3) still has a trajectory to compare.
  "$runner" "$preset" --steps "$steps" --threads 1 --quiet --table 0 --checkpoint "$out/$name.ckpt" \
    --frames "$out/$name.xyz" --frames-every "$every" >"$out/$name.log" 2>&1 || true
  ckpt=$( [ -f "$out/$name.ckpt" ] && state_sha "$out/$name.ckpt" || echo none)
  # The writer's version (the comment lines' Program key) is left out: a version bump changes no trajectory.
  frames=$( [ -f "$out/$name.xyz" ] && sed -E 's/ Program="[^"]*"//' "$out/$name.xyz" | sha256sum | cut -c1-16 || echo none)
  echo "$name $steps $ckpt $frames"
done
