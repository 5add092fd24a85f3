#!/usr/bin/python3
"""Copies the small result tables of scripts/reproduce-powder.sh into docs/data/powder/.

    powder_data.py RUNS_DIR DATA_DIR GRAINS

Per sweep, results.csv (one row per job; the packing checkpoint's path shortened to its name, e.g.
seed2.ckpt); for the field sweep's first packing also each job's alignment curve (stage, stage_time,
alignment), thinned to at most 300 rows spaced evenly in log time, which is how the figure plots it;
per job also what the contacts did while the field aligned the grains (CONTACT_SUMMARY);
sw_curves.csv, free_rotor.csv, and setup.json (grains, packings, each packing's time). Everything
the figures and numbers of docs/reproduction-powder.md need, a few hundred kB in all."""
import csv
import json
import math
import os
import re
import shutil
import sys

SWEEPS = ["field", "friction", "pressure", "pressure-field", "check-step", "check-slip"]
PACKING = "particles.file"


def shorten(path):
    return os.path.basename(path)


def thin(rows, keep=300):
    """At most `keep` rows of the last stage, evenly spaced in log(stage_time), first and last kept."""
    last = max(int(r["stage"]) for r in rows)
    rows = [r for r in rows if int(r["stage"]) == last]
    if len(rows) <= keep:
        return rows
    t = [float(r["stage_time"]) for r in rows]
    t0 = next((x for x in t if x > 0), 1e-9)
    lo, hi = math.log(t0), math.log(max(t[-1], t0 * 1.0001))
    picked, target = [rows[0]], lo
    step = (hi - lo) / (keep - 2)
    for r, x in zip(rows[1:-1], t[1:-1]):
        if x > 0 and math.log(x) >= target:
            picked.append(r)
            target = math.log(x) + step
    picked.append(rows[-1])
    return picked


# Per job, what the contacts did during the alignment stage (its first and last series rows): the energy
# friction dissipated, the number of contacts that started to slip, and the contact count at both ends.
CONTACT_SUMMARY = ["alignment_friction_loss_J", "alignment_slips_started", "contacts_at_field_on", "contacts_at_end"]


def contact_summary(rows):
    last = max(int(r["stage"]) for r in rows)
    stage = [r for r in rows if int(r["stage"]) == last]
    first, end = stage[0], stage[-1]
    return dict(zip(CONTACT_SUMMARY, [
        f"{float(end['dissipated_friction']) - float(first['dissipated_friction']):.6g}",
        f"{float(end['slips_started']) - float(first['slips_started']):.0f}",
        first["particle_contacts"], end["particle_contacts"]]))


def main():
    runs, data, grains = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(data, exist_ok=True)
    packings = {}
    for sweep in SWEEPS:
        src = os.path.join(runs, sweep, "results.csv")
        if not os.path.exists(src):
            continue
        with open(src) as f:
            reader = csv.DictReader(line for line in f if not line.startswith("#"))
            fields, rows = reader.fieldnames, list(reader)
        os.makedirs(os.path.join(data, sweep), exist_ok=True)
        first = min((shorten(r[PACKING]) for r in rows), default="")
        for r in rows:
            full = r[PACKING]
            r[PACKING] = shorten(full)
            series = os.path.join(runs, sweep, f"{r['job']}.csv")
            if not os.path.exists(series):
                continue
            with open(series) as f:  # '#' lines (the writer's version, units) are comments
                full_rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
            if full_rows and "slips_started" in full_rows[0]:
                r.update(contact_summary(full_rows))
            if sweep == "field" and r[PACKING] == first:
                kept = thin(full_rows)
                with open(os.path.join(data, sweep, f"{r['job']}.csv"), "w", newline="") as f:
                    w = csv.DictWriter(f, ["stage", "stage_time", "alignment"], extrasaction="ignore")
                    w.writeheader()
                    w.writerows(kept)
        if any(CONTACT_SUMMARY[0] in r for r in rows):
            fields = fields + CONTACT_SUMMARY
        with open(os.path.join(data, sweep, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fields, restval="")
            w.writeheader()
            w.writerows(rows)
    for seed_time in sorted(os.listdir(os.path.join(runs, "packings"))):
        m = re.match(r"seed(\d+)\.time$", seed_time)
        if m:
            with open(os.path.join(runs, "packings", seed_time)) as f:
                packings[f"seed{m.group(1)}"] = f.read().strip()
    for name in ["sw_curves.csv", "free_rotor.csv"]:
        shutil.copy(os.path.join(runs, name), os.path.join(data, name))
    with open(os.path.join(data, "setup.json"), "w") as f:
        json.dump({"grains": grains, "packings": packings}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
