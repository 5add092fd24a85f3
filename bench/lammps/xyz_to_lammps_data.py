#!/usr/bin/env python3
"""Turn the first frame of a Lodestone extended-XYZ file into a LAMMPS data file (atom_style hybrid
sphere dipole), so that LAMMPS starts from exactly our initial configuration.

Units: the benchmark workloads use d = 1 m, m = 1 kg (density 6/pi), and moments of sqrt(1e7) A m^2, so
that LAMMPS's lj units with mu0/4pi = 1 and |mu| = 1 are the same numbers (bench/workloads/*.json).
Moments are divided by sqrt(1e7); positions and radii are kept. Ids become id + 1 (LAMMPS ids start at 1).

Usage: xyz_to_lammps_data.py FRAME.xyz OUT.data
"""
import math
import re
import sys

MOMENT_UNIT = math.sqrt(1e7)  # A m^2 of |mu| = 1 in the benchmark's lj units
DENSITY = 6.0 / math.pi


def main(src, out):
    with open(src) as f:
        n = int(f.readline())
        header = f.readline()
        lattice = [float(v) for v in re.search(r'Lattice="([^"]*)"', header).group(1).split()]
        origin = [float(v) for v in re.search(r'Origin="([^"]*)"', header).group(1).split()]
        props = re.search(r"Properties=(\S+)", header).group(1).split(":")
        columns, k = {}, 0
        for name, _kind, count in zip(props[0::3], props[1::3], props[2::3]):
            columns[name] = k
            k += int(count)
        rows = [f.readline().split() for _ in range(n)]
    lengths = [lattice[0], lattice[4], lattice[8]]
    with open(out, "w") as g:
        g.write(f"LAMMPS data file: first frame of {src} (Lodestone benchmark workload)\n\n")
        g.write(f"{n} atoms\n1 atom types\n\n")
        for a, name in enumerate("xyz"):
            g.write(f"{origin[a]:.12g} {origin[a] + lengths[a]:.12g} {name}lo {name}hi\n")
        g.write("\nAtoms # hybrid sphere dipole\n\n")
        for r in rows:
            ident = int(r[columns["id"]]) + 1
            x = r[columns["pos"]:columns["pos"] + 3]
            radius = float(r[columns["radius"]])
            m = [float(v) / MOMENT_UNIT for v in r[columns["moment"]:columns["moment"] + 3]]
            g.write(f"{ident} 1 {x[0]} {x[1]} {x[2]} {2 * radius:.12g} {DENSITY:.12g} 0 "
                    f"{m[0]:.12g} {m[1]:.12g} {m[2]:.12g}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
