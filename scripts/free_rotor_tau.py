#!/usr/bin/python3
"""Free-rotor baseline for docs/reproduction-powder.md: tau_0.95 of grains that turn alone.

    free_rotor_tau.py > free_rotor.csv        (columns: field_kOe, h, tau_s)

Each grain of the powder preset (Sr-ferrite, d = 1 um, rotational drag gamma R^2 with
gamma = 20 N s/m as in the preset) turns without contacts, overdamped, under the Stoner-Wohlfarth
torque K V sin 2psi ([Erokhin-Berkov] eq. 4), psi the moment's angle from the easy axis on the branch
near the axis (eq. 2: h sin(theta - psi) = sin(2 psi) / 2, h = H / H_K, H_K = 2K/Ms):

    d theta / dt = -(K V / (gamma R^2)) sin 2psi = -(4 pi / 3) (K R / gamma) sin 2psi.

Easy axes start uniform on the half sphere around the field (cos theta uniform on (0, 1)), as the
preset's random_hemisphere orientation. tau_0.95 is the first time <cos theta> >= 0.95. This is an
independent computation (numpy, not the engine): the alignment time the packing would have if
contacts cost nothing, which separates what the torque curve does from what the packing does.
"""
import numpy as np

K = 3.5e5  # J/m^3 (3.5e6 erg/cm^3)
MS = 3.8e5  # A/m (380 G)
R = 0.5e-6  # m
GAMMA = 20.0  # N s/m
H_K_KOE = 2 * K / MS / (4e-7 * np.pi) * 4e-6 * np.pi  # 2K/Ms in A/m, then in kOe (18.4)
RATE = (4 * np.pi / 3) * K * R / GAMMA  # 1/s


def psi_of(theta, h):
    """Moment angle from the easy axis, the energy minimum between 0 and theta (Newton, clipped)."""
    psi = theta * h / (1 + h)
    for _ in range(60):
        f = h * np.sin(theta - psi) - 0.5 * np.sin(2 * psi)
        df = -h * np.cos(theta - psi) - np.cos(2 * psi)
        psi = np.clip(psi - f / df, 0.0, theta)
    return psi


def tau(field_koe, grains=2000, dt=0.05, limit=5000.0):
    h = field_koe / H_K_KOE
    theta = np.arccos((np.arange(grains) + 0.5) / grains)  # cos theta uniform on (0, 1)
    t = 0.0
    while np.mean(np.cos(theta)) < 0.95 and t < limit:
        # Heun: the same scheme as the engine's overdamped integrator.
        k1 = -RATE * np.sin(2 * psi_of(theta, h))
        k2 = -RATE * np.sin(2 * psi_of(theta + dt * k1, h))
        theta = theta + 0.5 * dt * (k1 + k2)
        t += dt
    return h, t


if __name__ == "__main__":
    print("field_kOe,h,tau_s")
    for field in [1, 2, 5, 10, 15, 20, 25, 30, 35, 40, 50, 60, 80, 100]:
        h, t = tau(field)
        print(f"{field},{h:.4f},{t:.2f}")
