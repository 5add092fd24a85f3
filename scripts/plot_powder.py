#!/usr/bin/python3
"""Figures of docs/reproduction-powder.md from the committed tables in docs/data/powder/.

    plot_powder.py DATA_DIR FIGURES_DIR        (DATA_DIR: docs/data/powder, written by
                                                scripts/powder_data.py at the end of reproduce-powder.sh)

Reads DATA_DIR/<sweep>/results.csv (one row per job: swept keys, status, tau, final_alignment) for the
sweeps field, friction, pressure, pressure-field, check-step and check-slip, the thinned alignment
curves DATA_DIR/field/job_NNN.csv, DATA_DIR/sw_curves.csv (the engine's torque and psi(theta)
curves), DATA_DIR/free_rotor.csv (scripts/free_rotor_tau.py) and DATA_DIR/setup.json. Prints the
numbers the document quotes. Needs python3-matplotlib and python3-numpy (Debian)."""
import csv
import json
import math
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FIELD = "protocol.3.set.field.strength"
FRICTION = "materials.0.friction"
PRESSURE = "protocol.2.set.pressure.pressure"
PACKING = "particles.file"


def rows(runs, sweep):
    path = os.path.join(runs, sweep, "results.csv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        out = list(csv.DictReader(line for line in f if not line.startswith("#")))
    for r in out:
        r["dir"] = os.path.join(runs, sweep)
        r["seed"] = int(re.search(r"seed(\d+)", r[PACKING]).group(1))
    return out


def number(text):
    """'40kOe' -> 40.0, '2atm' -> 2.0, '0.2' -> 0.2 (the unit is in the axis label)."""
    return float(re.match(r"[-+0-9.eE]+?(?=[a-zA-Z]*$)", text).group(0))


def tau(r):
    return float(r["tau"]) if r.get("tau") else None


def summary(group):
    """Mean and standard deviation of tau over the packings; runs that did not align count apart."""
    reached = [tau(r) for r in group if tau(r) is not None]
    mean = statistics.mean(reached) if reached else None
    spread = statistics.stdev(reached) if len(reached) > 1 else 0.0
    return mean, spread, len(reached), len(group)


def by(rows_, key):
    groups = {}
    for r in rows_:
        groups.setdefault(number(r[key]), []).append(r)
    return dict(sorted(groups.items()))


def plot_torque(runs, figs):
    path = os.path.join(runs, "sw_curves.csv")
    if not os.path.exists(path):
        return
    curves, peaks = {}, []
    with open(path) as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            if r["table"] == "torque":
                curves.setdefault(float(r["theta_deg"]), []).append((float(r["field_kOe"]), float(r["value"])))
            elif r["table"] == "peak":
                peaks.append((float(r["theta_deg"]), float(r["field_kOe"]), float(r["value"])))
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for theta, pts in curves.items():
        a.plot([p[0] for p in pts], [p[1] for p in pts], label=f"{theta:g}°")
    a.set_xscale("log")
    a.set_xlabel("H [kOe]")
    a.set_ylabel("T / KV = sin 2ψ")
    a.set_title("Torque against field (engine solver), Sr-ferrite")
    a.legend(fontsize=7, ncol=2, title="θ")
    b.plot([p[0] for p in peaks], [p[1] for p in peaks], "o", label="engine: largest torque")
    b.plot([p[0] for p in peaks], [p[2] for p in peaks], "-", label="closed form H_K / (2 sin(θ-45°))")
    b.set_yscale("log")
    b.set_xlabel("θ [deg]")
    b.set_ylabel("field of the largest torque [kOe]")
    b.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "powder-torque.png"), dpi=110)
    print("Fig. 3c, field of the largest torque [kOe]:", ", ".join(f"{t:g} deg: {h:.1f}" for t, h, _ in peaks[::4]))


def plot_psi(runs, figs):
    """Fig. 2: psi (moment to easy axis) against theta (easy axis to field) at fixed fields."""
    path = os.path.join(runs, "sw_curves.csv")
    if not os.path.exists(path):
        return
    curves, worst = {}, 0.0
    with open(path) as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            if r["table"] != "psi":
                continue
            h, theta, psi = float(r["field_kOe"]), float(r["theta_deg"]), float(r["psi_deg"])
            curves.setdefault(h, []).append((theta, psi))
            if not math.isnan(float(r["value"])):
                worst = max(worst, abs(psi - float(r["value"])))
    fig, ax = plt.subplots(figsize=(6, 4.4))
    for h, pts in sorted(curves.items()):
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=f"{h:g} kOe")
    ax.plot([0, 90], [0, 90], color="grey", lw=0.6, ls=":", label="ψ = θ (moment along the field)")
    ax.set_xlabel("θ: easy axis to field [deg]")
    ax.set_ylabel("ψ: moment to easy axis [deg]")
    ax.set_title("Fig. 2: ψ(θ) from eq. 2 (engine solver), Sr-ferrite, H_K = 18.4 kOe", fontsize=10)
    ax.legend(fontsize=8, title="H")
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "powder-psi-theta.png"), dpi=110)
    print("Fig. 2, psi at theta = 45 deg:", ", ".join(f"{h:g} kOe: {dict(p)[45.0]:.1f} deg" for h, p in sorted(curves.items())),
          f"; at theta = 90 deg the solver matches sin psi = H/H_K to {worst:.1e} deg")


def free_rotor(runs):
    path = os.path.join(runs, "free_rotor.csv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [(float(r["field_kOe"]), float(r["tau_s"])) for r in csv.DictReader(line for line in f if not line.startswith("#"))]


def grains(runs):
    path = os.path.join(runs, "setup.json")
    return json.load(open(path))["grains"] if os.path.exists(path) else None


def plot_tau_field(field_rows, rotor, figs, count):
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    print("\nFig. 6a, tau_0.95 [s] against field (mean +- standard deviation over packings; aligned / runs):")
    for mu, group in by(field_rows, FRICTION).items():
        xs, ys, es = [], [], []
        for h, g in by(group, FIELD).items():
            mean, spread, n, total = summary(g)
            print(f"  mu {mu:g}, {h:g} kOe: " + (f"{mean:.1f} +- {spread:.1f} s ({n}/{total})" if mean else
                                                 f"not aligned in {max(float(r['final_time']) for r in g):.0f} s"))
            if mean is not None:
                xs.append(h), ys.append(mean), es.append(spread)
        ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3, label=f"packing, μ = {mu:g}")
        # The minimum per packing: the packings are the same at every field, so compare within one.
        best = {}
        for r in group:
            if tau(r) is not None and (r["seed"] not in best or tau(r) < tau(best[r["seed"]])):
                best[r["seed"]] = r
        print(f"  mu {mu:g}: field of the shortest tau per packing: " +
              ", ".join(f"seed {s}: {number(r[FIELD]):g} kOe ({tau(r):.1f} s)" for s, r in sorted(best.items())))
    if rotor:
        ax.plot([p[0] for p in rotor], [p[1] for p in rotor], "k--", lw=1, label="free grains (no contacts)")
        low = min(rotor, key=lambda p: p[1])
        print(f"  free grains: shortest tau {low[1]:.1f} s at {low[0]:g} kOe; "
              + ", ".join(f"{h:g} kOe: {t:.1f} s" for h, t in rotor))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("H [kOe]")
    ax.set_ylabel("τ0.95 [s]")
    ax.set_title(f"Figs. 5-6a: alignment time against field ({count} grains, 0.5 atm)", fontsize=10)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "powder-tau-field.png"), dpi=110)


def plot_tau_simple(group_rows, key, xlabel, name, title, figs):
    fig, ax = plt.subplots(figsize=(5.5, 4))
    xs, ys, es = [], [], []
    print(f"\n{title}:")
    for x, g in by(group_rows, key).items():
        mean, spread, n, total = summary(g)
        print(f"  {x:g}: " + (f"{mean:.1f} +- {spread:.1f} s ({n}/{total})" if mean else "not aligned"))
        if mean is not None:
            xs.append(x), ys.append(mean), es.append(spread)
    # The change from the first to the last value, per packing, then its mean and spread.
    first, last = min(xs), max(xs)
    change = []
    for seed in sorted({r["seed"] for r in group_rows}):
        mine = {number(r[key]): tau(r) for r in group_rows if r["seed"] == seed}
        if mine.get(first) and mine.get(last):
            change.append(100.0 * (mine[last] / mine[first] - 1.0))
    if change:
        print(f"  from {first:g} to {last:g}: {statistics.mean(change):+.1f} % "
              f"(per packing: {', '.join(f'{c:+.1f} %' for c in change)})")
    ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("τ0.95 [s]")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, name), dpi=110)


def plot_curves(field_rows, figs):
    """<cos theta> in the alignment phase, one line per field, for the first packing."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    first_seed = min(r["seed"] for r in field_rows)
    for ax, (mu, group) in zip(axes, by(field_rows, FRICTION).items()):
        for r in sorted((r for r in group if r["seed"] == first_seed), key=lambda r: number(r[FIELD])):
            series = os.path.join(r["dir"], f"{r['job']}.csv")
            if not os.path.exists(series):
                continue
            with open(series) as f:  # the series starts with a '#' comment line (the writer's version)
                data = list(csv.DictReader(line for line in f if not line.startswith("#")))
            last = max(int(row["stage"]) for row in data)
            t = [float(row["stage_time"]) for row in data if int(row["stage"]) == last]
            c = [float(row["alignment"]) for row in data if int(row["stage"]) == last]
            ax.plot(t, c, label=r[FIELD].replace("kOe", " kOe"), lw=1)
        ax.axhline(0.95, color="grey", lw=0.6)
        ax.set_xscale("log")
        ax.set_title(f"μ = {mu:g} (packing {first_seed})")
        ax.set_xlabel("time in the alignment phase [s]")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("<cos θ>")
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "powder-alignment-curves.png"), dpi=110)


def main():
    runs, figs = sys.argv[1], sys.argv[2]
    os.makedirs(figs, exist_ok=True)
    plot_torque(runs, figs)
    plot_psi(runs, figs)
    field_rows = rows(runs, "field")
    friction_rows = rows(runs, "friction")
    if field_rows:
        plot_tau_field(field_rows, free_rotor(runs), figs, grains(runs))
        plot_curves(field_rows, figs)
    at40 = [r for r in field_rows if number(r[FIELD]) == 40] + friction_rows
    if at40:
        plot_tau_simple(at40, FRICTION, "friction coefficient μ", "powder-tau-friction.png",
                        "Fig. 6b, tau_0.95 at 40 kOe, 0.5 atm, against friction", figs)
        contacts_against_friction(friction_rows)
    # Fig. 7 is at mu = 0.05: its 0.5 atm point is the friction sweep's.
    pressure = [r for r in friction_rows if number(r[FRICTION]) == 0.05]
    for r in pressure:
        r[PRESSURE] = "0.5atm"
    pressure += rows(runs, "pressure")
    if len(pressure) > len(friction_rows) / 4:
        plot_tau_simple(pressure, PRESSURE, "pressure [atm]", "powder-tau-pressure.png",
                        "Fig. 7b, tau_0.95 at 40 kOe, mu = 0.05, against pressure", figs)
        # Fig. 7a: against field at 0.5 and 10 atm; the 40 kOe points are those of Fig. 7b.
        extremes = [r for r in pressure if number(r[PRESSURE]) in (0.5, 10)]
        plot_tau_pressure_field(extremes + rows(runs, "pressure-field"), figs)
    checks(runs, field_rows)


def contacts_against_friction(friction_rows):
    """What the contacts did while the grains turned (scripts/powder_data.py's CONTACT_SUMMARY), per friction:
    means over the packings of the friction loss, the slips that started and the contacts lost."""
    known = [r for r in friction_rows if r.get("alignment_slips_started")]
    if not known:
        return
    print("  contacts during the alignment (mean over packings): friction loss, slips started, contacts at field on -> end")
    for mu, group in by(known, FRICTION).items():
        loss = statistics.mean(float(r["alignment_friction_loss_J"]) for r in group)
        slips = statistics.mean(float(r["alignment_slips_started"]) for r in group)
        before = statistics.mean(float(r["contacts_at_field_on"]) for r in group)
        after = statistics.mean(float(r["contacts_at_end"]) for r in group)
        print(f"  mu {mu:g}: {loss:.3g} J, {slips:.0f} slips started, {before:.0f} -> {after:.0f} contacts "
              f"({100 * (after - before) / before:+.1f} %)")


def checks(runs, field_rows):
    """The numerical checks on the first packing at 40 kOe, mu = 0.2, against the reference job."""
    ref = [r for r in field_rows if number(r[FIELD]) == 40 and number(r[FRICTION]) == 0.2]
    step, slip = rows(runs, "check-step"), rows(runs, "check-slip")
    if not ref or not (step or slip):
        return
    first = min(r["seed"] for r in step + slip)
    base = next((tau(r) for r in ref if r["seed"] == first), None)
    if base is None:
        return
    print(f"\nNumerical checks, packing {first}, 40 kOe, mu = 0.2: tau_0.95 = {base:.2f} s")
    for label, group, key in [("time step", step, "protocol.3.set.integrator.time_step"),
                              ("slip velocity [m/s]", slip, "contact.hertz_coulomb.slip_velocity")]:
        for r in group:
            if tau(r) is not None:
                print(f"  {label} {r[key]}: {tau(r):.2f} s ({100.0 * (tau(r) / base - 1.0):+.1f} %)")


def plot_tau_pressure_field(group_rows, figs):
    fig, ax = plt.subplots(figsize=(6, 4.2))
    print("\nFig. 7a, tau_0.95 [s] against field at mu = 0.05:")
    for p, group in by(group_rows, PRESSURE).items():
        xs, ys, es = [], [], []
        for h, g in by(group, FIELD).items():
            mean, spread, n, total = summary(g)
            if mean is not None:
                xs.append(h), ys.append(mean), es.append(spread)
        lowest = min(zip(ys, xs))
        print(f"  {p:g} atm: " + ", ".join(f"{h:g} kOe: {t:.1f}" for h, t in zip(xs, ys)) +
              f"; shortest at {lowest[1]:g} kOe")
        ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3, label=f"P = {p:g} atm")
    ax.set_xscale("log")
    ax.set_xlabel("H [kOe]")
    ax.set_ylabel("τ0.95 [s]")
    ax.set_title("Fig. 7a: alignment time against field, μ = 0.05", fontsize=10)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "powder-tau-pressure-field.png"), dpi=110)


if __name__ == "__main__":
    main()
