#!/usr/bin/env python3
"""Our dipolar P3M against LAMMPS's pppm/dipole at equal accuracy (issue 38; docs/performance.md "P3M against
LAMMPS pppm/dipole"). On demand, never in CI.

Usage: bench/p3m_vs_lammps.py [--sizes 10000,100000] [--threads 1,2] [--phi 0.1] [--repeats 5] [--rounds 3]
                              [--rc 5,6,7,8] [--orders 5,7] [--reference-accuracy 1e-8] [--keep DIR]

For each size, build/bench/lodestone-p3m-anchor writes the scene (a LAMMPS data file) and the reference forces (our
Ewald sum, every dropped term below the reference accuracy), and times our P3M pass at its default accuracy at each
thread count; its error is the RMS force error relative to the RMS force. LAMMPS (bench/lammps/in.p3m:
lj/cut/dipole/long with LJ off, kspace_style pppm/dipole) is measured against the same reference the same way.

Equal accuracy: for each real-space cutoff (--rc, in diameters) and stencil order (--orders), the mesh is raised
through MESHES until LAMMPS's measured error is at most ours (LAMMPS sets g_ewald so that its real-space error
estimate is our absolute error / sqrt 2; the mesh found by bisection). The cheapest such setting on one rank is LAMMPS's figure; it is then
run on each rank count of --threads (mpirun, ranks bound to cores), alternating with our pass, --rounds times. LAMMPS's choice of its own mesh from the
accuracy alone is not used: its search costs minutes of set-up per run at 10 000 atoms. Times are wall seconds per
force pass, medians over the rounds: ours the median of --repeats passes, LAMMPS's loop time over --repeats steps
of a run that does not move the atoms (pair, k-space and ghost communication; set-up excluded, as our tuning is).
--keep DIR/N keeps each size's scene and reference (the Ewald sum takes minutes at 100 000) for the next run.
"""
import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANCHOR = os.path.join(ROOT, "build", "bench", "lodestone-p3m-anchor")
LAMMPS_INPUT = os.path.join(ROOT, "bench", "lammps", "in.p3m")
MESHES = [16, 20, 24, 28, 32, 36, 40, 45, 48, 54, 60, 64, 72, 80, 90, 96, 108, 120, 128, 144, 160, 180, 192]
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}


def read_forces(path):
    forces = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) == 4 and fields[0].isdigit():
                forces[int(fields[0])] = tuple(float(v) for v in fields[1:])
    return forces


def relative_rms_error(forces, reference):
    difference = size = 0.0
    for i, r in reference.items():
        f = forces[i]
        difference += sum((a - b) ** 2 for a, b in zip(f, r))
        size += sum(b * b for b in r)
    return math.sqrt(difference / size)


def run_ours(n, phi, work, threads, repeats, reference_accuracy):
    out = subprocess.run([ANCHOR, str(n), str(phi), work, ",".join(map(str, threads)), str(repeats),
                          str(reference_accuracy)], check=True, capture_output=True, text=True).stdout
    sys.stdout.write("".join(line + "\n" for line in out.splitlines() if line.startswith("#")))
    ours = {}
    for line in out.splitlines():
        if line.startswith("ours "):
            words = line.split()
            values = dict(zip(words[1::2], words[2::2]))
            ours[int(values["threads"])] = values
    return ours


def run_lammps(work, ranks, rc, order, mesh, accuracy, steps):
    """LAMMPS's force error against the reference and its wall seconds per force pass."""
    dump, log = os.path.join(work, "forces.dump"), os.path.join(work, "lammps.log")
    command = ["lmp", "-in", LAMMPS_INPUT, "-var", "data", os.path.join(work, "scene.data"), "-var", "rc", str(rc),
               "-var", "acc", "%.6g" % accuracy, "-var", "mesh", str(mesh), "-var", "order", str(order),
               "-var", "dump", dump, "-var", "nrun", str(steps), "-log", log, "-screen", "none"]
    if ranks > 1:
        command = ["mpirun", "-np", str(ranks), "--bind-to", "core"] + command
    subprocess.run(command, check=True, env={**os.environ, **MPI_ENV}, stdout=subprocess.DEVNULL)
    text = open(log).read()
    loop = float(re.findall(r"Loop time of (\S+) on", text)[-1])
    error = relative_rms_error(read_forces(dump), read_forces(os.path.join(work, "reference.txt")))
    return error, loop / steps


def cheapest_lammps_setting(work, target, accuracy, args):
    """The (seconds, rc, order, mesh, error) of the fastest one-rank setting whose error is at most the target: for
    each cutoff and order, the coarsest mesh of MESHES that reaches it, found by bisection (the error falls as the
    mesh grows)."""
    best = None
    for rc in args.rc:
        for order in args.orders:
            low, high, found = 0, len(MESHES) - 1, None
            while low <= high:
                mid = (low + high) // 2
                error, seconds = run_lammps(work, 1, rc, order, MESHES[mid], accuracy, 2)
                print("#   lammps rc %g order %d mesh %d: error %.3g, %.1f ms" % (rc, order, MESHES[mid], error,
                                                                                 1e3 * seconds), flush=True)
                if error <= target:
                    found, high = (seconds, rc, order, MESHES[mid], error), mid - 1
                else:
                    low = mid + 1
            if found and (not best or found[0] < best[0]):
                best = found
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--phi", type=float, default=0.1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rc", default="5,6,7,8")
    parser.add_argument("--orders", default="5,7")
    parser.add_argument("--reference-accuracy", type=float, default=1e-8)
    parser.add_argument("--keep", help="write the scenes and forces here instead of a temporary folder")
    args = parser.parse_args()
    args.rc = [float(v) for v in args.rc.split(",")]
    args.orders = [int(v) for v in args.orders.split(",")]
    threads = [int(v) for v in args.threads.split(",")]
    if not os.access(ANCHOR, os.X_OK):
        sys.exit("build first: cmake --build build --target lodestone-p3m-anchor")

    rows = []
    for n in [int(v) for v in args.sizes.split(",")]:
        work = os.path.join(args.keep, str(n)) if args.keep else tempfile.mkdtemp(prefix="p3m-anchor-")
        os.makedirs(work, exist_ok=True)
        ours = run_ours(n, args.phi, work, threads, args.repeats, args.reference_accuracy)
        target = float(ours[threads[0]]["rms_error"])
        reference = read_forces(os.path.join(work, "reference.txt"))
        rms_force = math.sqrt(sum(sum(v * v for v in f) for f in reference.values()) / len(reference))
        accuracy = target * rms_force / math.sqrt(2.0)
        best = cheapest_lammps_setting(work, target, accuracy, args)
        if best is None:
            sys.exit("no LAMMPS setting reached our error %.3g; add meshes or cutoffs" % target)
        _, rc, order, mesh, error = best
        times = {t: ([], []) for t in threads}
        for _ in range(args.rounds):
            ours = run_ours(n, args.phi, work, threads, args.repeats, args.reference_accuracy)
            for t in threads:
                times[t][0].append(float(ours[t]["pass_ms"]))
                times[t][1].append(1e3 * run_lammps(work, t, rc, order, mesh, accuracy, args.repeats)[1])
        for t in threads:
            mine = ours[t]
            rows.append((n, t, statistics.median(times[t][0]), float(mine["rms_error"]), "%s^3 P%s rc %.2f" % (
                mine["mesh"], mine["order"], float(mine["cutoff_d"])), statistics.median(times[t][1]), error,
                "%d^3 P%d rc %g" % (mesh, order, rc)))
    print("| N | threads/ranks | ours ms/pass | our error | ours | LAMMPS ms/pass | its error | LAMMPS | LAMMPS / ours |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n, t, ms, err, setting, lms, lerr, lsetting in rows:
        print("| %d | %d | %.1f | %.2e | %s | %.1f | %.2e | %s | **%.1fx** |" % (n, t, ms, err, setting, lms, lerr,
                                                                               lsetting, lms / ms))


if __name__ == "__main__":
    main()
