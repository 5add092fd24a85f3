#!/usr/bin/python3
"""[Dominik-Nubold] Fig. 4, the restructuring test: a grain hits the end of a straight chain from the
side. Hit-and-stick would leave an L (the grain stuck where it first touched); the paper's SAND
contacts (rolling with a critical displacement, eqs. 42-49) let the impact move the end grain of the
chain, and the paper shows a T.

    restructuring.py RUNNER OUT_DIR DATA_DIR FIGURES_DIR

Set-up (ours; the paper gives no numbers for Fig. 4): five iron grains of 20 nm (200 A m^2/kg, the
aggregation run's grains) touching in a straight chain along x, moments head to tail along +x; a sixth
grain starts 6 radii away from the last grain's centre on the +y side, aimed at it, moving along -y
at speed v0, its moment along +x. v0 is chosen per material so that the kinetic energy is 0, 0.3, 1, 3
and 10 times E_roll = 6 pi^2 gamma R* xi_crit, the energy that rolls a grain by 90 degrees (Dominik &
Tielens 1997, the contact model SAND uses; xi_crit = 10 A as in [Dominik-Nubold]). No gas, no field; the contact dashpots are the only damping. Two
contact materials: iron as the paper's SAND has it (E = 211 GPa, surface energy 2 J/m^2) and the
softened contacts of presets/aggregation.json (E = 2 GPa, 0.0115 J/m^2). The dipoles pull the grain
in, so the impact speed is larger than v0 (printed). Each run lasts 300 ns; the aggregate then carries
the impact's momentum (v0 / 6) and may spin; its shape is judged by angles, averaged over the last 30 ns
because the contacts' rolling springs keep ringing (the swing is half their range there).

Writes DATA_DIR/restructuring.csv (one row per run: material, v0, impact speed, the angle of the end
bond to the chain axis at first contact and at the end, which grains the projectile touches at the
end, the shape) and FIGURES_DIR/aggregation-restructuring.png (the end states in the x-y plane)."""
import csv
import json
import math
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

R = 10e-9  # [m]
MATERIALS = {
    "iron (paper)": {"youngs_modulus": "211 GPa", "surface_energy": "2 J/m^2"},
    "softened (aggregation preset)": {"youngs_modulus": "2 GPa", "surface_energy": "0.0115 J/m^2"},
}
CHAIN = 5
MASS = 7874.0 * 4.0 / 3.0 * math.pi * R**3  # [kg]
XI_CRIT = 1e-9  # [m] critical rolling displacement, [Dominik-Nubold] App. A (10 A)
# Kinetic energy of the incoming grain at 6 R in units of the energy that rolls a grain by 90 deg about
# its contact partner, E_roll = 6 pi^2 gamma R* xi_crit (Dominik & Tielens 1997; R* = R/2 for equal grains).
ENERGIES = [0.0, 0.3, 1.0, 3.0, 10.0]


def rolling_energy(material):
    gamma = float(MATERIALS[material]["surface_energy"].split()[0])
    return 6.0 * math.pi**2 * gamma * (R / 2.0) * XI_CRIT


def speed(material, ratio):
    return math.sqrt(2.0 * ratio * rolling_energy(material) / MASS)


def preset(material, v0):
    grains = [{"position": [f"{2 * i * R * 1e9:g} nm", "0 nm", "0 nm"], "radius": "10 nm", "axis": [1, 0, 0]}
              for i in range(CHAIN)]
    x_end = 2 * (CHAIN - 1) * R
    grains.append({"position": [f"{x_end * 1e9:g} nm", f"{6 * R * 1e9:g} nm", "0 nm"], "radius": "10 nm",
                   "axis": [1, 0, 0], "velocity": [0, -v0, 0]})
    return {
        "version": 1,
        "description": f"[Dominik-Nubold] Fig. 4 restructuring test: a grain hits the end of a 5-grain chain "
                       f"from the side at {v0:g} m/s ({material}). scripts/restructuring.py.",
        "materials": [dict({"name": "iron grain", "density": "7874 kg/m^3", "poisson_ratio": 0.29,
                            "magnetization": "1574800 A/m"}, **MATERIALS[material])],
        "contact": {"law": "sand", "sand": {"damping_ratio_n": 0.5, "damping_ratio_t": 0.3}},
        "magnetics": {"method": "direct"},
        "field": {"strength": 0},
        "box": {"min": ["-100 nm"] * 3, "max": ["200 nm"] * 3,
                "x_min": "open", "x_max": "open", "y_min": "open", "y_max": "open", "z_min": "open", "z_max": "open"},
        "particles": {"kind": "list", "particles": grains},
        "run": {"duration": "300 ns", "series_interval": 1000},
    }


def read_frames(path):
    frames = {}
    with open(path) as f:  # '#' lines (the writer's version, units) are comments
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            frames.setdefault(int(r["step"]), {})[int(r["id"])] = (float(r["x"]), float(r["y"]), float(r["z"]),
                                                                   float(r["vx"]), float(r["vy"]), float(r["vz"]))
    return [frames[s] for s in sorted(frames)]


def dist(a, b):
    return math.dist(a[:3], b[:3])


def touching(frame, i, j):
    return dist(frame[i], frame[j]) < 2 * R * 1.02  # adhesive contacts sit near 2R (a few % overlap at most)


def end_angle(frame):
    """Angle [deg] between the chain axis (grain 0 -> grain CHAIN-2) and the end bond (CHAIN-2 -> CHAIN-1)."""
    a, b, c = frame[0], frame[CHAIN - 2], frame[CHAIN - 1]
    u = [b[k] - a[k] for k in range(3)]
    w = [c[k] - b[k] for k in range(3)]
    dot = sum(u[k] * w[k] for k in range(3)) / (math.hypot(*u) * math.hypot(*w))
    return math.degrees(math.acos(max(-1.0, min(1.0, dot))))


def grain_angle(frame):
    """Angle [deg] between the chain axis (grain 0 -> grain CHAIN-2) and the bond end grain -> incoming grain:
    90 where it first touches (from the side), 0 if it rolled round to continue the chain, 180 if it rolled
    back towards the chain."""
    a, b, c, p = frame[0], frame[CHAIN - 2], frame[CHAIN - 1], frame[CHAIN]
    u = [b[k] - a[k] for k in range(3)]
    w = [p[k] - c[k] for k in range(3)]
    dot = sum(u[k] * w[k] for k in range(3)) / (math.hypot(*u) * math.hypot(*w))
    return math.degrees(math.acos(max(-1.0, min(1.0, dot))))


def pieces(frame):
    """Number of separate aggregates (grains connected by touching) at the end."""
    label = {i: i for i in frame}

    def root(i):
        while label[i] != i:
            i = label[i]
        return i
    for i in frame:
        for j in frame:
            if i < j and touching(frame, i, j):
                label[root(i)] = root(j)
    return len({root(i) for i in frame})


def shape(frame, angle):
    """The end state's shape; `angle` is the end bond's mean angle to the chain axis at the end [deg]."""
    p = CHAIN
    partners = [i for i in range(CHAIN) if touching(frame, p, i)]
    if pieces(frame) > 1:
        return partners, f"broken into {pieces(frame)} pieces"
    if angle < 15 and partners == [CHAIN - 1]:
        return partners, "L (as hit and stick)"
    if CHAIN - 2 in partners:
        return partners, "T (grain at the chain's second-last grain)"
    return partners, f"end grain moved ({angle:.0f} deg)"


def main():
    runner, out, data, figs = sys.argv[1:5]
    for d in (out, data, figs):
        os.makedirs(d, exist_ok=True)
    rows, ends = [], []
    for material in MATERIALS:
        for ratio in ENERGIES:
            v0 = speed(material, ratio)
            tag = f"{'iron' if material.startswith('iron') else 'soft'}-{ratio:g}"
            p = os.path.join(out, f"{tag}.json")
            json.dump(preset(material, v0), open(p, "w"), indent=1)
            frames_path = os.path.join(out, f"{tag}.csv")
            done = subprocess.run([runner, p, "--frames", frames_path, "--frames-every", "20", "--quiet",
                                   "--threads", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            base = {"material": material, "kinetic_over_rolling_energy": ratio, "v0_m_s": f"{v0:.3g}"}
            if done.returncode != 0:
                rows.append(dict(base, outcome="run stopped: " + done.stderr.strip().splitlines()[-1]))
                print(material, ratio, rows[-1]["outcome"])
                continue
            frames = read_frames(frames_path)
            k = next((k for k, f in enumerate(frames) if any(touching(f, CHAIN, i) for i in range(CHAIN))), None)
            if k is None:
                rows.append(dict(base, outcome="no contact in 300 ns"))
                continue
            first = frames[k]
            # The approach speed relative to the end grain, in the last frame before the contact.
            before = frames[max(k - 1, 0)]
            impact = math.dist(before[CHAIN][3:], before[CHAIN - 1][3:])
            last = frames[-1]
            # The contacts' rolling and bending springs keep ringing after the impact (the dashpots act on
            # the normal and sliding motion), so the shape is the mean over the last 30 ns, with half the
            # range of the oscillation.
            tail = frames[len(frames) * 9 // 10:]
            ends_ = [end_angle(f) for f in tail]
            grains_ = [grain_angle(f) for f in tail]
            end_mean, end_amp = sum(ends_) / len(ends_), 0.5 * (max(ends_) - min(ends_))
            grain_mean, grain_amp = sum(grains_) / len(grains_), 0.5 * (max(grains_) - min(grains_))
            partners, kind = shape(last, end_mean)
            rows.append(dict(base, **{"impact_speed_m_s": f"{impact:.3g}",
                         "end_angle_at_contact_deg": f"{end_angle(first):.1f}",
                         "end_angle_final_deg": f"{end_mean:.1f}", "end_angle_swing_deg": f"{end_amp:.1f}",
                         "grain_angle_at_contact_deg": f"{grain_angle(first):.1f}",
                         "grain_angle_final_deg": f"{grain_mean:.1f}", "grain_angle_swing_deg": f"{grain_amp:.1f}",
                         "projectile_touches": " ".join(str(i) for i in partners),
                         "outcome": kind}))
            ends.append((material, ratio, last))
            print(f"{material:30s} E/E_roll {ratio:4g}, v0 {v0:6.3g} m/s: impact {impact:6.3g} m/s, end bond {end_angle(first):5.1f} -> "
                  f"{end_mean:5.1f} +- {end_amp:4.1f} deg, grain {grain_angle(first):5.1f} -> {grain_mean:5.1f} +- {grain_amp:4.1f} deg, touches {partners}: {kind}")
    fields = ["material", "kinetic_over_rolling_energy", "v0_m_s", "impact_speed_m_s", "end_angle_at_contact_deg", "end_angle_final_deg",
              "end_angle_swing_deg", "grain_angle_at_contact_deg", "grain_angle_final_deg", "grain_angle_swing_deg",
              "projectile_touches", "outcome"]
    with open(os.path.join(data, "restructuring.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    fig, axes = plt.subplots(len(MATERIALS), len(ENERGIES), figsize=(2.3 * len(ENERGIES), 2.5 * len(MATERIALS)))
    for ax, (material, ratio, last) in zip(axes.flat, ends):
        # In the chain's frame: its second-last grain at the origin, the chain axis along -x, the
        # incoming grain's side up (the aggregate drifts and turns after the impact).
        o, a = last[CHAIN - 2], last[0]
        ux, uy = (o[0] - a[0], o[1] - a[1])
        norm = math.hypot(ux, uy)
        ux, uy = ux / norm, uy / norm
        side = 1.0 if (last[CHAIN][1] - o[1]) * ux - (last[CHAIN][0] - o[0]) * uy >= 0 else -1.0
        for i, g in sorted(last.items()):
            dx, dy = g[0] - o[0], g[1] - o[1]
            x, y = (dx * ux + dy * uy) / R, side * (-dx * uy + dy * ux) / R
            ax.add_patch(plt.Circle((x, y), 1.0, color="tab:red" if i == CHAIN else "tab:blue", alpha=0.7))
        ax.set_xlim(-8, 5)
        ax.set_ylim(-4, 5)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        n = pieces(last)
        ax.set_title(f"{material.split(' ')[0]}, E = {ratio:g} E_roll" + (f" ({n} pieces)" if n > 1 else ""), fontsize=8)
    fig.suptitle("Fig. 4 test: end states (blue: chain, red: the incoming grain; x-y plane, radii)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "aggregation-restructuring.png"), dpi=110)


if __name__ == "__main__":
    main()
