#!/usr/bin/env python3
"""Writes the bench workloads (e) and (f) of docs/performance.md, which time the bonds and clumps stages at scale:

  e-bonded-20k.json   a magnetic gel block: 20 000 magnetised beads on a cubic lattice, each joined to the beads it
                      touches by a beam bond ([Voxel-beams], like presets/magnetic-filament-rotating.json), about 57 700
                      bonds; dipoles within 3 diameters, a turning field, periodic box.
  f-clumps-20k.json   5 000 bar magnets of 4 overlapping pebbles each ([PFC-dipole]'s clumps, like
                      presets/bar-magnets.json), 20 000 pebbles, in a liquid in a periodic box, no dipoles (clumps take
                      the scalar dipole path, which would swamp the stages timed here).

  python3 bench/workloads/make_bodies_workloads.py   (rewrites both files beside this script)
"""
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, preset):
    """Indented, except that each entry of a long list takes one line (5 000 clumps)."""
    text = json.dumps(preset, indent=1)
    if "clumps" in preset:
        entries = ",\n  ".join(json.dumps(e) for e in preset["clumps"])
        text = json.dumps({**preset, "clumps": "CLUMPS"}, indent=1).replace('"CLUMPS"', "[\n  " + entries + "\n ]")
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text + "\n")


def periodic(box):
    for side in ("x_min", "x_max", "y_min", "y_max", "z_min", "z_max"):
        box[side] = "periodic"
    return box


def workload(description, material, **sections):
    """A preset with what (e) and (f) share (units, linear contacts, the run), `sections` in order between them."""
    return {
        "version": 1,
        "description": description,
        "units": {"field": "mT", "length": "mm", "pressure": "atm"},
        "materials": [material],
        "contact": {"law": "linear", "linear": {"dp_nratio": 0.3, "dp_sratio": 0.3}},
        **sections,
        "run": {"duration": "0.1 s", "series_interval": 100, "frame_interval": 0},
    }


def bonded():
    box = periodic({"min": ["0 mm"] * 3, "max": ["50 mm", "35 mm", "30 mm"]})
    return workload(
        "Benchmark workload (e): a magnetic gel block of 20 000 magnetised beads of 1 mm on a cubic lattice, each "
        "joined to its touching neighbours by soft beam bonds (about 57 700), dipoles within 3 mm, a field turning at "
        "1 Hz, periodic box. Times the bonds stage at scale (bench/workloads/make_bodies_workloads.py).",
        {"name": "magnetic bead", "density": "7500 kg/m^3", "kn": "30 N/m", "ks": "24 N/m", "friction": 0.3,
         "magnetization": "20 kA/m"},
        magnetics={"method": "cutoff", "cutoff": "3 mm"},
        field={"program": "rotating", "strength": "5 mT", "direction": [1, 0, 0], "rotation_axis": [0, 0, 1],
               "frequency": "1 Hz"},
        environment={"translational_damping": "2e-3 N s/m", "rotational_damping": "2e-3 N s/m"},
        box=box,
        bonds={"create": "touching", "touch_tolerance": 0.1, "youngs_modulus": "0.2 MPa", "radius_ratio": 0.5,
               "damping_ratio": 1},
        integrator={"scheme": "velocity_verlet", "time_step": "1e-5 s"},
        # 40 x 25 x 20 beads of 1 mm, touching (spacing = diameter), in a corner of the box: no bond across its faces.
        particles={"kind": "lattice", "count": 20000, "seed": 1, "diameter": "1 mm", "spacing": "1 mm",
                   "orientation": "random",
                   "region": {"min": ["0 mm", "0 mm", "0 mm"], "max": ["40 mm", "25 mm", "20 mm"]}},
    )


def clumps():
    random.seed(2)
    side = 18  # 18 x 18 x 16 sites, the first 5 000 hold a bar
    spacing = 4.5  # mm between bar centres: a bar is 3.4 mm long
    bars = []
    for x in range(side):
        for y in range(side):
            for z in range(16):
                if len(bars) == 5000:
                    break
                a = [random.uniform(-1, 1) for _ in range(3)]
                norm = math.sqrt(sum(c * c for c in a))
                bars.append({"shape": "bar",
                             "position": [f"{spacing * (x + 0.5):.3f} mm", f"{spacing * (y + 0.5):.3f} mm",
                                          f"{spacing * (z + 0.5):.3f} mm"],
                             "axis": [round(c / norm, 6) for c in a], "count": 4, "pebble_radius": "0.5 mm",
                             "spacing": "0.8 mm",
                             "velocity": [f"{random.uniform(-20, 20):.2f} mm/s" for _ in range(3)]})
    box = periodic({"min": ["0 mm"] * 3, "max": [f"{spacing * side} mm", f"{spacing * side} mm", f"{spacing * 16} mm"]})
    return workload(
        "Benchmark workload (f): 5 000 bar magnets, each a rigid clump of 4 overlapping pebbles of 1 mm (20 000 "
        "pebbles), moving at random in a liquid in a periodic box, dipoles off. Times the clumps stages at scale "
        "(bench/workloads/make_bodies_workloads.py).",
        {"name": "ferrite bar", "density": "5000 kg/m^3", "kn": "1e3 N/m", "ks": "8e2 N/m", "friction": 0.3,
         "magnetization": "200 kA/m"},
        magnetics={"method": "off"},
        field={"strength": "5 mT", "direction": [0, 0, 1]},
        environment={"translational_damping": "1e-4 N s/m", "rotational_damping": "1e-4 N s/m"},
        box=box,
        particles={"kind": "list", "particles": []},
        clumps=bars,
    )


write("e-bonded-20k.json", bonded())
write("f-clumps-20k.json", clumps())
