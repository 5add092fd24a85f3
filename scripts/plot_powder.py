#!/usr/bin/python3
"""Figures of docs/reproduction-powder.md from the sweeps of scripts/reproduce-powder.sh.

    plot_powder.py RUNS_DIR FIGURES_DIR

Reads RUNS_DIR/<sweep>/results.csv (one row per job: swept keys, status, tau, final_alignment),
the job series (job_NNN.csv) for the alignment curves, and RUNS_DIR/sw_curves.csv. Prints the
numbers the document quotes. Needs python3-matplotlib (Debian)."""
import csv
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FIELD = "protocol.3.set.field.strength"
FRICTION = "materials.0.friction"
PRESSURE = "protocol.2.set.pressure.pressure"
SEED = "particles.seed"


def rows(runs, sweep):
    path = os.path.join(runs, sweep, "results.csv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        out = list(csv.DictReader(f))
    for r in out:
        r["dir"] = os.path.join(runs, sweep)
    return out


def number(text):
    """'40kOe' -> 40.0, '2atm' -> 2.0, '0.2' -> 0.2 (the unit is in the axis label)."""
    digits = "".join(c for c in text if c.isdigit() or c in ".-e")
    return float(digits.rstrip("e")) if digits else float("nan")


def tau(r):
    return float(r["tau"]) if r.get("tau") else None


def summary(group):
    """Mean and spread of tau over seeds; censored runs (tau not reached) count as None."""
    values = [tau(r) for r in group]
    reached = [v for v in values if v is not None]
    mean = statistics.mean(reached) if reached else None
    spread = statistics.stdev(reached) if len(reached) > 1 else 0.0
    return mean, spread, len(reached), len(values)


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
        for r in csv.DictReader(f):
            if r["table"] == "torque":
                curves.setdefault(float(r["theta_deg"]), []).append((float(r["field_kOe"]), float(r["value"])))
            else:
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


def plot_tau_field(field_rows, figs):
    fig, ax = plt.subplots(figsize=(6, 4.2))
    print("\nFig. 6a, tau_0.95 [s] against field (mean +- spread over seeds; n reached / runs):")
    for mu, group in by(field_rows, FRICTION).items():
        xs, ys, es, cens = [], [], [], []
        for h, g in by(group, FIELD).items():
            mean, spread, n, total = summary(g)
            print(f"  mu {mu:g}, {h:g} kOe: " + (f"{mean:.1f} +- {spread:.1f} s ({n}/{total})" if mean else
                                                 f"not reached in {max(float(r['final_time']) for r in g):.0f} s"))
            if mean is not None:
                xs.append(h), ys.append(mean), es.append(spread)
            else:
                cens.append(h)
        line = ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3, label=f"μ = {mu:g}")
        if cens:
            ax.plot(cens, [ax.get_ylim()[1]] * len(cens), "^", color=line[0].get_color())
    ax.set_xscale("log")
    ax.set_xlabel("H [kOe]")
    ax.set_ylabel("τ0.95 [s]")
    ax.set_title("Alignment time against field (300 grains, 0.5 atm)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "powder-tau-field.png"), dpi=110)


def plot_tau_simple(group_rows, key, xlabel, name, title):
    fig, ax = plt.subplots(figsize=(5.5, 4))
    xs, ys, es = [], [], []
    print(f"\n{title}:")
    for x, g in by(group_rows, key).items():
        mean, spread, n, total = summary(g)
        print(f"  {x:g}: " + (f"{mean:.1f} +- {spread:.1f} s ({n}/{total})" if mean else "not reached"))
        if mean is not None:
            xs.append(x), ys.append(mean), es.append(spread)
    ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("τ0.95 [s]")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, name), dpi=110)


def plot_curves(field_rows, figs):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, (mu, group) in zip(axes, by(field_rows, FRICTION).items()):
        for r in group:
            series = os.path.join(r["dir"], f"job_{int(r['job']):03d}.csv")
            if not os.path.exists(series):
                continue
            with open(series) as f:
                data = [row for row in csv.DictReader(f)]
            last = max(int(row["stage"]) for row in data)
            t = [float(row["stage_time"]) for row in data if int(row["stage"]) == last]
            c = [float(row["alignment"]) for row in data if int(row["stage"]) == last]
            ax.plot(t, c, label=f"{r[FIELD]} seed {r[SEED]}", lw=1)
        ax.axhline(0.95, color="grey", lw=0.6)
        ax.set_title(f"μ = {mu:g}")
        ax.set_xlabel("time in the alignment stage [s]")
        ax.legend(fontsize=6)
    axes[0].set_ylabel("<cos θ>")
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "powder-alignment-curves.png"), dpi=110)


def main():
    runs, figs = sys.argv[1], sys.argv[2]
    os.makedirs(figs, exist_ok=True)
    plot_torque(runs, figs)
    field_rows = rows(runs, "field-seed1") + rows(runs, "field-seed2")
    if field_rows:
        plot_tau_field(field_rows, figs)
        plot_curves(field_rows, figs)
    at40 = [r for r in field_rows if number(r[FIELD]) == 40] + rows(runs, "friction")
    if at40:
        plot_tau_simple(at40, FRICTION, "friction coefficient μ", "powder-tau-friction.png",
                        "Fig. 6b, tau_0.95 at 40 kOe against friction")
    pressure = [r for r in field_rows if number(r[FIELD]) == 40 and number(r[FRICTION]) == 0.2]
    for r in pressure:
        r[PRESSURE] = "0.5atm"
    pressure += rows(runs, "pressure")
    if pressure:
        plot_tau_simple(pressure, PRESSURE, "pressure [atm]", "powder-tau-pressure.png",
                        "Fig. 7b, tau_0.95 at 40 kOe, mu = 0.2, against pressure")


if __name__ == "__main__":
    main()
