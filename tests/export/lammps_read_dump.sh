#!/bin/sh
# Runs lodestone-run with --frames run.dump and has LAMMPS (lmp) read the first and the last
# frame back with read_dump, in a box with the boundary flags and bounds the dump states: LAMMPS
# must find every atom of the frame, and atom 1's position and velocity must be the dump's (the
# columns are found by their names). Exits 77 (ctest: skipped) when lmp is not installed.
#
# usage: lammps_read_dump.sh LODESTONE_RUN PRESET STEPS
set -eu
runner=$1 preset=$2 steps=$3

if ! command -v lmp >/dev/null 2>&1; then
  echo "SKIP: lmp (LAMMPS) is not installed (Debian: apt-get install lammps); the dump is not read back"
  exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/lodestone-lammps-XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$runner" "$preset" --steps "$steps" --frames-every "$steps" --frames run.dump --quiet --table 0 >/dev/null

status=0
for step in 0 "$steps"; do
  # The frame's header: NUMBER OF ATOMS, BOX BOUNDS flags and bounds, and the largest type.
  block=$(awk -v step="$step" '
    /^ITEM: TIMESTEP/ { getline t; take = (t == step); next }
    take' run.dump)
  atoms=$(printf '%s\n' "$block" | sed -n '2p')
  flags=$(printf '%s\n' "$block" | sed -n '3p' | sed 's/^ITEM: BOX BOUNDS //')
  bounds=$(printf '%s\n' "$block" | sed -n '4,6p' | tr '\n' ' ')
  types=$(printf '%s\n' "$block" | awk 'NR > 7 { if ($2 > m) m = $2 } END { print m }')
  atom1=$(printf '%s\n' "$block" | awk 'NR > 7 && $1 == 1 { print $3, $4, $5, $6, $7, $8 }')
  cat > in.read <<LAMMPS
units si
atom_style sphere
atom_modify map array
boundary $flags
region box block $bounds
create_box $types box
read_dump run.dump $step x y z vx vy vz box yes add keep
variable n equal atoms
variable x1 equal x[1]
variable y1 equal y[1]
variable z1 equal z[1]
variable vx1 equal vx[1]
variable vy1 equal vy[1]
variable vz1 equal vz[1]
print "ATOMS_READ \${n}"
print "ATOM1 \${x1} \${y1} \${z1} \${vx1} \${vy1} \${vz1}"
LAMMPS
  if ! lmp -in in.read -log none -nocite -echo none > lmp.out 2>&1; then
    echo "FAIL: lmp could not read step $step of the dump:"
    cat lmp.out
    status=1
    continue
  fi
  read=$(sed -n 's/^ATOMS_READ //p' lmp.out)
  if [ "$read" != "$atoms" ]; then
    echo "FAIL: step $step: the dump has $atoms atoms, LAMMPS read '$read'"
    cat lmp.out
    status=1
    continue
  fi
  lammps1=$(sed -n 's/^ATOM1 //p' lmp.out)
  if [ -z "$atom1" ] || [ -z "$lammps1" ]; then
    echo "FAIL: step $step: atom 1 missing (in the dump: '$atom1'; as LAMMPS read it: '$lammps1')"
    status=1
  elif ! printf '%s\n%s\n' "$atom1" "$lammps1" | awk '
      NR == 1 { for (k = 1; k <= 6; ++k) want[k] = $k }
      NR == 2 { for (k = 1; k <= 6; ++k) { d = $k - want[k]; if (d < 0) d = -d; a = want[k] < 0 ? -want[k] : want[k];
                                            if (d > 1e-9 * a + 1e-300) exit 1 } }'; then
    echo "FAIL: step $step: atom 1 in the dump: $atom1; as LAMMPS read it: $lammps1"
    status=1
  else
    echo "ok: step $step: LAMMPS read all $read atoms (boundary $flags, box $bounds); atom 1 x v = $lammps1"
  fi
done
exit $status
