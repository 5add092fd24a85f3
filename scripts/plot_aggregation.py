#!/usr/bin/python3
"""Figures and numbers of docs/reproduction-aggregation.md from scripts/reproduce-aggregation.sh.

    plot_aggregation.py RUNS_DIR FIGURES_DIR

Reads RUNS_DIR/capture_<map>.csv and capture_<map>_sigma.csv (lodestone-capture: the collision
probability per (b, v) cell and the cross sections per speed), and the aggregation run's
aggregation_series.csv (S(t), eq. 17), aggregation_frames.xyz (the last frame: cluster moments
against size, eq. 16) and aggregation.log (the runner's own fits). Writes aggregation-*.png into
FIGURES_DIR and prints the numbers the document quotes. Needs python3-matplotlib and
python3-numpy (Debian)."""
import csv
import glob
import gzip
import math
import os
import re
import sys

import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MAPS = {  # name: legend
    "thermal": "thermal spins, start at R_m (paper's set-up)",
    "nospin": "no initial spins, start at R_m",
    "nospin-far": "no initial spins, start 3 b_max upstream",
    "thermal-far": "thermal spins, start 3 b_max upstream",
}
PAPER_C = (0.8, 0.9)
RADIUS = 10e-9  # [m] the grains of [Dominik-Nubold] Fig. 2 (20 nm diameter)


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:  # lines starting with '#' (the writer's version, the unit system) are comments
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def fit_c(sigma_rows):
    """Eq. 27 fit as lodestone-capture does it: weighted mean of sigma/sigma_m (weights 1/err^2),
    error scaled by sqrt(chi2/dof) when > 1; unweighted with the standard error of the mean when
    some error is 0."""
    q = np.array([float(r["c"]) for r in sigma_rows])
    e = np.array([float(r["c_error"]) for r in sigma_rows])
    if len(q) == 0:
        return None
    if np.all(e > 0):
        w = 1 / e**2
        c = float(np.sum(w * q) / np.sum(w))
        chi2 = float(np.sum((q - c) ** 2 * w) / (len(q) - 1)) if len(q) > 1 else 0.0
        err = math.sqrt(1 / np.sum(w)) * max(1.0, math.sqrt(chi2))
    else:
        c = float(np.mean(q))
        chi2 = 0.0
        err = float(np.std(q, ddof=1) / math.sqrt(len(q))) if len(q) > 1 else 0.0
    return c, err, chi2, float(q.min()), float(q.max())


def power_law(x, y):
    """Least squares on log-log; exponent, its standard error (scatter about the line), prefactor."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = (x > 0) & (y > 0)
    u, w = np.log(x[ok]), np.log(y[ok])
    if len(u) < 2 or np.ptp(u) == 0:
        return None
    slope, icpt = np.polyfit(u, w, 1)
    err = 0.0
    if len(u) > 2:
        r = w - (icpt + slope * u)
        err = math.sqrt(np.sum(r**2) / (len(u) - 2) / np.sum((u - u.mean()) ** 2))
    return float(slope), err, math.exp(icpt)


def plot_map(runs, figs, name):
    cells = read_csv(os.path.join(runs, f"capture_{name}.csv"))
    sigma = read_csv(os.path.join(runs, f"capture_{name}_sigma.csv"))
    if not cells or not sigma:
        return None
    speeds = sorted({float(r["v_over_vth"]) for r in cells})
    fracs = sorted({float(r["b_over_bmax"]) for r in cells})
    bmax_th = float(sigma[0]["b_max"]) * float(sigma[0]["v_over_vth"]) ** (2 / 3)  # b_max ~ v^-2/3
    P = np.zeros((len(speeds), len(fracs)))
    for r in cells:
        P[speeds.index(float(r["v_over_vth"])), fracs.index(float(r["b_over_bmax"]))] = float(r["probability"])
    fit = fit_c(sigma)
    if len(speeds) >= 2:
        lv = np.log(speeds)
        v_edges = np.exp(np.concatenate(([lv[0] - (lv[1] - lv[0]) / 2], (lv[1:] + lv[:-1]) / 2,
                                         [lv[-1] + (lv[-1] - lv[-2]) / 2])))
        f = np.array(fracs)
        f_edges = np.concatenate(([0.0], (f[1:] + f[:-1]) / 2, [f[-1] + (f[-1] - f[-2]) / 2]))
        X = np.repeat(v_edges[:, None], len(f_edges), axis=1)
        Y = f_edges[None, :] * bmax_th * X ** (-2 / 3) / RADIUS
        fig, ax = plt.subplots(figsize=(6.4, 4.8))
        mesh = ax.pcolormesh(X, Y, P, cmap="gray", vmin=0, vmax=1, shading="flat")
        fig.colorbar(mesh, ax=ax, label="collision probability P")
        v = np.geomspace(v_edges[0], v_edges[-1], 100)
        ax.plot(v, bmax_th * v ** (-2 / 3) / RADIUS, "r--", label="b_max (eq. 13 corrected)")
        if fit:
            ax.plot(v, math.sqrt(fit[0]) * bmax_th * v ** (-2 / 3) / RADIUS, "c:",
                    label=f"sqrt(c) b_max, c = {fit[0]:.2f} (eq. 27 fit)")
        ax.plot(v, math.sqrt(0.85) * bmax_th * v ** (-2 / 3) / RADIUS, color="orange", lw=0.8,
                label="sqrt(0.85) b_max (paper's c)")
        ax.set_xscale("log")
        ax.set_xlabel("v / v_th")
        ax.set_ylabel("impact parameter b / R")
        ax.set_title(f"P(b, v): {MAPS.get(name, name)}", fontsize=9)
        ax.legend(fontsize=7, loc="upper right")
        fig.tight_layout()
        fig.savefig(os.path.join(figs, f"aggregation-capture-map-{name}.png"), dpi=110)
        plt.close(fig)
    return speeds, fracs, P, sigma, fit


def plot_sigma(figs, maps):
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, m in maps.items():
        if not m:
            continue
        _, _, _, sigma, fit = m
        v = [float(r["v_over_vth"]) for r in sigma]
        c = [float(r["c"]) for r in sigma]
        e = [float(r["c_error"]) for r in sigma]
        line = ax.errorbar(v, c, yerr=e, marker="o", ms=4, capsize=2, label=MAPS.get(name, name))
        if fit and len(v) > 1:
            ax.axhline(fit[0], color=line[0].get_color(), lw=0.7, ls=":")
    ax.axhspan(*PAPER_C, color="orange", alpha=0.25, label="paper: c = 0.8-0.9 (Fig. 3)")
    ax.set_xscale("log")
    ax.set_xlabel("v / v_th")
    ax.set_ylabel("σ / σ_m,  σ_m = 3π (α / (m̄ v²))^(2/3)")
    ax.set_ylim(0, 1.05)
    ax.set_title("Capture cross section against eq. 14 (dotted: eq. 27 fits of c)", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "aggregation-capture-c.png"), dpi=110)
    plt.close(fig)


def read_last_frame(path):
    """Last frame of the extended XYZ: box lengths and the columns of each particle."""
    if not os.path.exists(path):
        return None
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        lines = f.read().splitlines()
    k, last = 0, None
    while k < len(lines) and lines[k].strip():
        n = int(lines[k])
        last = (lines[k + 1], lines[k + 2:k + 2 + n])
        k += 2 + n
    if last is None:
        return None
    head, body = last
    lat = [float(x) for x in re.search(r'Lattice="([^"]+)"', head).group(1).split()]
    time = float(re.search(r"Time=(\S+)", head).group(1))
    props = re.search(r"Properties=(\S+)", head).group(1).split(":")
    cols, at = {}, 0
    for j in range(0, len(props), 3):
        width = int(props[j + 2])
        cols[props[j]] = slice(at, at + width)
        at += width
    data = np.array([[float(x) for x in line.split()] for line in body])
    return np.array([lat[0], lat[4], lat[8]]), time, cols, data


def clusters_from_frame(frame, gap=0.04):
    """Clusters by touching: centre distance below R_i + R_j + gap * R (nearest image on the
    periodic box). The runner's clusters follow contacts; a SAND contact breaks beyond a gap of
    s_b (0.2 nm = 0.02 R here), so the two agree but for pairs that come that close without touching."""
    box, time, cols, d = frame
    pos, rad, mom = d[:, cols["pos"]], d[:, cols["radius"]].ravel(), d[:, cols["moment"]]
    n = len(pos)
    parent = list(range(n))
    edges = {i: [] for i in range(n)}

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        r = pos[i + 1:] - pos[i]
        r -= box * np.round(r / box)
        dist = np.linalg.norm(r, axis=1)
        for j in np.nonzero(dist < rad[i] + rad[i + 1:] + gap * rad[i])[0]:
            edges[i].append((i + 1 + j, r[j]))
            edges[i + 1 + j].append((i, -r[j]))
            a, b = find(i), find(i + 1 + j)
            if a != b:
                parent[a] = b
    groups = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    sizes = np.array([len(g) for g in groups.values()])
    moments = np.array([np.linalg.norm(mom[g].sum(axis=0)) for g in groups.values()])
    # Radius of gyration of each cluster, its grains unwrapped across the periodic box by walking the
    # contacts (a long chain may span more than half the box, so no single nearest image would do).
    gyration = []
    for g in groups.values():
        unwrapped, frontier = {g[0]: np.zeros(3)}, [g[0]]
        while frontier:
            i = frontier.pop()
            for j, rij in edges[i]:
                if j not in unwrapped:
                    unwrapped[j] = unwrapped[i] + rij
                    frontier.append(j)
        r = np.array(list(unwrapped.values()))
        gyration.append(float(np.sqrt(((r - r.mean(axis=0)) ** 2).sum(axis=1).mean())))
    return time, sizes, moments, float(np.linalg.norm(mom[0])), np.array(gyration)


def runner_fits(log):
    out = {}
    if not os.path.exists(log):
        return out
    text = open(log).read()
    m = re.search(r"Accretional remanence.*?\(sizes ([\d.e+-]+) to ([\d.e+-]+)\): b = ([-\d.]+) \+- ([\d.]+)", text)
    if m:
        out["remanence"] = (float(m.group(3)), float(m.group(4)), m.group(1), m.group(2))
    m = re.search(r"Dynamic exponent.*?z = ([-\d.]+) \+- ([\d.]+)", text)
    if m:
        out["z"] = (float(m.group(1)), float(m.group(2)))
    m = re.search(r"Time per step ([\d.]+) us", text)
    if m:
        out["step_us"] = float(m.group(1))
    m = re.search(r"Clusters at t = (\S+) s: (\d+) \(largest (\d+)\), S = (\S+) .*?, (\d+) chains of mean length (\S+), (\d+) rings",
                  text)
    if m:
        out["final"] = m.groups()
    return out


def save_figure(fig, ax, xlabel, ylabel, title, path):
    """The single-panel figures' common finish: axis labels, a small title and legend, saved at 110 dpi."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_size_distribution(runs, figs):
    """n_s(t) at five times spread over the run (aggregation_clusters.csv: step, time, size, count)."""
    rows = read_csv(os.path.join(runs, "aggregation_clusters.csv"))
    if not rows:
        return
    by_time = {}
    for r in rows:
        by_time.setdefault(float(r["time"]), []).append((int(r["size"]), int(r["count"])))
    times = sorted(by_time)
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for frac in (0.0625, 0.125, 0.25, 0.5, 1.0):
        t = min(times, key=lambda x: abs(x - frac * times[-1]))
        sizes, counts = zip(*sorted(by_time[t]))
        ax.loglog(sizes, counts, "o-", ms=3, lw=0.8, label=f"t = {t * 1e6:.2g} µs")
    save_figure(fig, ax, "cluster size s", "number of clusters n_s", "Cluster-size distribution n_s(t)",
                os.path.join(figs, "aggregation-size-distribution.png"))


def rad_of(frame):
    _, _, cols, d = frame
    return float(d[0, cols["radius"]].ravel()[0])


def fractal_dimension(sizes, gyration, radius, figs, name="aggregation-fractal-dimension.png", indent=""):
    """D_f from s ∝ (R_g / R)^D_f over the clusters of three grains or more (two grains always give
    R_g = R); D_f = 1 is a straight chain, about 1.8-2 hit-and-stick cluster-cluster aggregates.
    Printed, and drawn into figs/name unless name is None."""
    big = sizes >= 3
    if big.sum() < 3:
        return
    fit = power_law(gyration[big] / radius, sizes[big])
    if fit:
        print(f"{indent}fractal dimension (s ~ R_g^D over {big.sum()} clusters of sizes 3-{sizes.max()}): "
              f"D_f = {fit[0]:.2f} +- {fit[1]:.2f}")
    if name is None:
        return
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ax.loglog(gyration[big] / radius, sizes[big], "o", ms=4, alpha=0.6, label="clusters, s >= 3")
    g = np.linspace((gyration[big] / radius).min(), (gyration[big] / radius).max(), 50)
    if fit:
        ax.loglog(g, fit[2] * g ** fit[0], "r-", label=f"fit: s ∝ R_g^{fit[0]:.2f} ± {fit[1]:.2f}")
    # A straight chain of s touching grains has R_g = R sqrt((s^2 - 1) / 3).
    chain = np.arange(3, sizes.max() + 1)
    ax.loglog(np.sqrt((chain**2 - 1) / 3.0), chain, "k:", lw=0.8, label="straight chains (D_f = 1)")
    save_figure(fig, ax, "radius of gyration R_g / R", "cluster size s", "Fractal dimension of the final clusters",
                os.path.join(figs, name))


def growth_fits(t, S):
    """The two readings of S(t) the document quotes: S ~ t^z over the second half of the run (the
    late-time power law), and S - 1 ~ t^z' over the whole run (S - 1 grows from 0). Returns the
    second half's rows and the two power_law fits (None where a fit has too few points)."""
    second = (t >= 0.5 * t[-1] * (1 - 1e-9)) & (t > 0)
    grown = (t > 0) & (S > 1)
    return second, power_law(t[second], S[second]), power_law(t[grown], S[grown] - 1)


def plot_aggregation(runs, figs):
    series = read_csv(os.path.join(runs, "aggregation_series.csv"))
    if not series:
        return
    fits = runner_fits(os.path.join(runs, "aggregation.log"))
    t = np.array([float(r["time"]) for r in series])
    S = np.array([float(r["mean_cluster_size"]) for r in series])
    chains = np.array([float(r["chains"]) for r in series])
    clusters = np.array([float(r["clusters"]) for r in series])
    keep = np.concatenate(([True], np.diff(t) > 0))  # a row repeated at the same time counts once
    t, S, chains, clusters = t[keep], S[keep], chains[keep], clusters[keep]
    second, z, z_all = growth_fits(t, S)
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    a.loglog(t * 1e6, S, ".", ms=3, label="S(t), eq. 17")
    if z:
        tt = t[second]
        a.loglog(tt * 1e6, z[2] * tt ** z[0], "r-", label=f"fit second half: z = {z[0]:.2f} ± {z[1]:.2f}")
        a.loglog(tt * 1e6, S[second][0] * (tt / tt[0]) ** 3.2, "k--", lw=0.8, label="slope 3.2 ([Dominik-Nubold], theory)")
    control = read_csv(os.path.join(runs, "control_series.csv"))
    if control:
        tc = np.array([float(r["time"]) for r in control])
        Sc = np.array([float(r["mean_cluster_size"]) for r in control])
        a.loglog(tc[tc > 0] * 1e6, Sc[tc > 0], "g.", ms=2, label="control: no dipoles")
    a.set_xlabel("t [µs]")
    a.set_ylabel("mean cluster size S")
    a.set_title("Mean cluster size (presets/aggregation.json)", fontsize=9)
    a.legend(fontsize=8)
    b.plot(t * 1e6, clusters, label="clusters (incl. single grains)")
    b.plot(t * 1e6, chains, label="chains")
    b.set_xlabel("t [µs]")
    b.set_ylabel("count")
    b.legend(fontsize=8)
    b.set_title("Clusters and chains", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "aggregation-S-t.png"), dpi=110)
    plt.close(fig)

    print("== aggregation run ==")
    if "final" in fits:
        f = fits["final"]
        print(f"final state t = {f[0]} s: {f[1]} clusters (largest {f[2]}), S = {f[3]}, {f[4]} chains of mean length "
              f"{f[5]}, {f[6]} rings")
    if "step_us" in fits:
        print(f"time per step {fits['step_us']} us")
    if z:
        print(f"z (S ~ t^z, second half, {second.sum()} rows): {z[0]:.3f} +- {z[1]:.3f}"
              + (f"  (runner: {fits['z'][0]:.4f} +- {fits['z'][1]:.4f})" if "z" in fits else ""))
    if z_all:
        print(f"S - 1 ~ t^z' over the whole run: z' = {z_all[0]:.3f} +- {z_all[1]:.3f}")
    print(f"S at the end: {S[-1]:.3f}; at half time: {S[second][0]:.3f}")
    if control:
        _, zc, zc_all = growth_fits(tc, Sc)
        print(f"control without dipoles: S at the end {Sc[-1]:.3f}"
              + (f"; z (second half) = {zc[0]:.2f} +- {zc[1]:.2f}" if zc else "")
              + (f"; S - 1 ~ t^{zc_all[0]:.2f} +- {zc_all[1]:.2f} over the run" if zc_all else ""))

    plot_size_distribution(runs, figs)

    last = os.path.join(runs, "aggregation_last_frame.xyz")  # docs/data keeps the last frame only
    frame = read_last_frame(last if os.path.exists(last) else os.path.join(runs, "aggregation_frames.xyz"))
    if frame is None:
        return
    time, sizes, moments, mu, gyration = clusters_from_frame(frame)
    fractal_dimension(sizes, gyration, rad_of(frame), figs)
    big = sizes >= 2
    rem = power_law(sizes[big], moments[big])
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    ax.loglog(sizes[big], moments[big] / mu, "o", ms=4, alpha=0.6, label=f"clusters at t = {time * 1e6:.3g} µs")
    s = np.arange(2, max(3, sizes.max()) + 1)
    if rem:
        ax.loglog(s, rem[2] * s ** rem[0] / mu, "r-", label=f"fit: |Σm| ∝ s^{rem[0]:.2f} ± {rem[1]:.2f}")
    ax.loglog(s, s**0.63, "k--", lw=0.8, label="μ s^0.63 (eq. 16)")
    ax.loglog(s, s**1.0, "k:", lw=0.8, label="μ s (aligned chain, eq. 15)")
    ax.loglog(s, s**0.5, "g:", lw=0.8, label="μ s^0.5 (random moments)")
    save_figure(fig, ax, "cluster size s", "|Σ m| / μ", "Accretional remanence (eq. 16)",
                os.path.join(figs, "aggregation-remanence.png"))
    if rem:
        print(f"remanence from the last frame (t = {time:.4g} s, {big.sum()} clusters with s >= 2, sizes "
              f"{sizes[big].min()}-{sizes.max()}): b = {rem[0]:.3f} +- {rem[1]:.3f}"
              + (f"  (runner, contacts: {fits['remanence'][0]:.4f} +- {fits['remanence'][1]:.4f})"
                 if "remanence" in fits else ""))
        print(f"clusters by touching in the last frame: {len(sizes)}")


def read_parts(paths):
    """The rows of a run written in parts (a restart continues from a checkpoint and rewrites the rows
    after it): merged by step, a later part's row replacing an earlier one, in step order."""
    rows = {}
    for path in sorted(paths, key=lambda q: int(re.search(r"_(\d+)\.csv$", q).group(1))):
        for r in read_csv(path):
            rows[int(r["step"])] = r
    return [rows[k] for k in sorted(rows)]


def plot_long_range(runs, figs):
    """The long-range rerun (scripts/reproduce-aggregation-long-range.sh): P3M, 2500 grains in 4.8 um, against
    the same grains from the same start with the dipoles cut at R_m (long-range/cutoff/), and against the
    500-grain runs (2.8 um, the same number density) at equal times."""
    series = read_parts(glob.glob(os.path.join(runs, "long-range", "series_*.csv")))
    if not series:
        return

    def s_of(rows):
        t = np.array([float(r["time"]) for r in rows])
        S = np.array([float(r["mean_cluster_size"]) for r in rows])
        keep = np.concatenate(([True], np.diff(t) > 0))
        return t[keep], S[keep]

    t, S = s_of(series)
    sources = {"cutoff2500": os.path.join(runs, "long-range", "cutoff", "series.csv")}
    sources.update({name: os.path.join(runs, f"{name}_series.csv") for name in ["aggregation", "aggregation2", "control"]})
    cut = {name: s_of(read_csv(path)) for name, path in sources.items() if read_csv(path)}
    label = {"cutoff2500": "cutoff at R_m, the same 2500 grains and start",
             "aggregation": "cutoff at R_m, 500 grains (1st)", "aggregation2": "cutoff at R_m, 500 grains (2nd)",
             "control": "no dipoles, 500 grains"}
    style = {"cutoff2500": "b.", "aggregation": "c.", "aggregation2": "y.", "control": "g."}
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for name, (tc, Sc) in cut.items():
        ax.loglog(tc[tc > 0] * 1e6, Sc[tc > 0], style[name], ms=2, label=label[name])
    ax.loglog(t[t > 0] * 1e6, S[t > 0], "r.", ms=3, zorder=3, label="P3M (all images), 2500 grains in 4.8 µm")
    save_figure(fig, ax, "t [µs]", "mean cluster size S",
                "Long-range rerun against the cutoff runs (equal number density)",
                os.path.join(figs, "aggregation-long-range.png"))
    print("== long-range rerun (P3M, 2500 grains, 4.8 um box) ==")
    print(f"reached t = {t[-1]:.4g} s (step {series[-1]['step']}) of 1.6e-05 s; S = {S[-1]:.3f}; "
          f"largest cluster {series[-1].get('largest_cluster', '?')}")
    for frac in [0.25, 0.5, 1.0]:
        at = frac * t[-1]
        row = [f"t = {at * 1e6:.2f} us: P3M S - 1 = {np.interp(at, t, S) - 1:.4f}"]
        for name, (tc, Sc) in cut.items():
            row.append(f"{name} {np.interp(at, tc, Sc) - 1:.4f}")
        print("  " + "; ".join(row))
    _, _, z_all = growth_fits(t, S)
    if z_all:
        print(f"  S - 1 ~ t^z' over the run: z' = {z_all[0]:.3f} +- {z_all[1]:.3f}")
    for name, (tc, Sc) in cut.items():
        within = tc <= t[-1] * (1 + 1e-9)
        _, _, zc = growth_fits(tc[within], Sc[within])
        if zc:
            print(f"  {name} over the same times: z' = {zc[0]:.3f} +- {zc[1]:.3f}")
    second, z, _ = growth_fits(t, S)
    if z and t[-1] >= 16e-6 * (1 - 1e-6):
        print(f"  z (S ~ t^z, second half, {second.sum()} rows): {z[0]:.3f} +- {z[1]:.3f}; "
              f"S at half time {S[second][0]:.3f}, at the end {S[-1]:.3f}")
        for name, (tc, Sc) in cut.items():
            sc, zc, _ = growth_fits(tc, Sc)
            if zc:
                print(f"  {name}, z over its own second half: {zc[0]:.3f} +- {zc[1]:.3f}; "
                      f"S at half time {Sc[sc][0]:.3f}, at the end {Sc[-1]:.3f}")
    for name, path, figure in [("P3M", os.path.join(runs, "long-range", "last_frame.xyz.gz"),
                                "aggregation-long-range-fractal-dimension.png"),
                               ("cutoff2500", os.path.join(runs, "long-range", "cutoff", "last_frame.xyz.gz"), None)]:
        frame = read_last_frame(path)
        if frame is None:
            continue
        time, sizes, moments, mu, gyration = clusters_from_frame(frame)
        print(f"  {name}, last frame t = {time:.4g} s: {len(sizes)} clusters by touching, largest {sizes.max()}")
        fractal_dimension(sizes, gyration, rad_of(frame), figs, figure, indent="  ")
        big = sizes >= 2
        rem = power_law(sizes[big], moments[big])
        if rem:
            print(f"  remanence ({big.sum()} clusters with s >= 2, sizes {sizes[big].min()}-{sizes.max()}): "
                  f"b = {rem[0]:.3f} +- {rem[1]:.3f}")
    for name, log in [("P3M", os.path.join(runs, "long-range", "run.log")),
                      ("cutoff2500", os.path.join(runs, "long-range", "cutoff", "run.log"))]:
        if os.path.exists(log):
            for line in open(log):
                if "Time per step" in line:
                    print(f"  {name}: " + line.strip().split(":")[0])
                elif "dipoles P3M" in line:
                    print("  " + line[line.find("dipoles P3M"):].strip())


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    runs, figs = sys.argv[1], sys.argv[2]
    os.makedirs(figs, exist_ok=True)
    maps = {name: plot_map(runs, figs, name) for name in MAPS}
    plot_sigma(figs, maps)
    plot_long_range(runs, figs)
    for name, m in maps.items():
        if not m:
            continue
        speeds, fracs, P, sigma, fit = m
        print(f"== capture map {name}: {MAPS[name]} ==")
        n = int(read_csv(os.path.join(runs, f"capture_{name}.csv"))[0]["runs"])
        print(f"{len(speeds)} speeds x {len(fracs)} impact parameters x {n} shots")
        for r in sigma:
            print(f"  v/v_th = {float(r['v_over_vth']):5.2f}: c = {float(r['c']):.3f} +- {float(r['c_error']):.3f}, "
                  f"c_w = (R_w/b_max)^2 = {float(r['c_white']):.3f}, b_50/b_max = {float(r['half_radius_over_bmax']):.3f}")
        if fit:
            print(f"  eq. 27 fit: c = {fit[0]:.3f} +- {fit[1]:.3f} (chi2/dof {fit[2]:.2g}; per speed {fit[3]:.3f}-{fit[4]:.3f}); "
                  f"mean c_w = {np.mean([float(r['c_white']) for r in sigma]):.3f}")
        for r in sigma:
            if abs(float(r["v_over_vth"]) - 1) < 1e-9:
                s, e = float(r["sigma"]), float(r["sigma_error"])
                g = math.pi * RADIUS**2
                print(f"  sigma(v_th) = {s:.4g} +- {e:.2g} m^2: / pi R^2 = {s / g:.0f} +- {e / g:.0f}; "
                      f"/ pi (2R)^2 = {s / (4 * g):.0f} +- {e / (4 * g):.0f}; / 4 pi (2R)^2 = {s / (16 * g):.1f} "
                      f"+- {e / (16 * g):.1f}; sigma_m / pi R^2 = {float(r['sigma_m']) / g:.0f}")
    plot_aggregation(runs, figs)
    restructuring = read_csv(os.path.join(runs, "restructuring.csv"))
    if restructuring:
        print("== restructuring test (Fig. 4), scripts/restructuring.py ==")
        for r in restructuring:
            print(f"  {r['material']}, E = {r['kinetic_over_rolling_energy']} E_roll (v0 {r['v0_m_s']} m/s, impact "
                  f"{r.get('impact_speed_m_s', '-')} m/s): end bond {r.get('end_angle_final_deg', '-')} deg, "
                  f"grain {r.get('grain_angle_at_contact_deg', '-')} -> {r.get('grain_angle_final_deg', '-')} deg: "
                  f"{r['outcome']}")


if __name__ == "__main__":
    main()
