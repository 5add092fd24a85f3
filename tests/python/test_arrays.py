"""The particle arrays: shapes, dtypes, and rows in id order after the neighbour sort has reordered the engine's."""
import numpy as np

import lodestone

from conftest import PARTICLE_ARRAYS

# Scenes of 4096 particles or more are reordered by cell at every neighbour-list rebuild
# (engine/step/neighbor.hpp, kSpatialSortMinParticles): random placement puts the ids out of that order.
LARGE_SCENE = {
    "version": 1,
    "materials": [{"name": "bead", "density": "5000 kg/m^3", "kn": "1000 N/m", "magnetization": "30 kA/m"}],
    "magnetics": {"method": "off"},
    "environment": {"gravity": [0, 0, -9.81]},
    "box": {"min": [0, 0, 0], "max": ["120 mm", "120 mm", "12 mm"], "x_min": "periodic", "x_max": "periodic",
            "y_min": "periodic", "y_max": "periodic"},
    "particles": {"kind": "random", "count": 4200, "seed": 3, "diameter": "1 mm", "orientation": "random"},
}

SHAPES = {"positions": 3, "velocities": 3, "angular_velocities": 3, "orientations": 4, "moments": 3,
          "easy_axes": 3, "forces": 3, "torques": 3}


def test_arrays_are_in_id_order_after_a_reorder(tmp_path):
    sim = lodestone.Simulation(LARGE_SCENE, threads=2)
    sim.run(steps=3)
    n = len(sim)
    assert n == 4200

    ids = sim.ids
    assert ids.dtype == np.uint64 and ids.shape == (n,)
    assert np.all(np.diff(ids.astype(np.int64)) > 0)  # ascending, no repeats
    for name, columns in SHAPES.items():
        a = getattr(sim, name)
        assert a.dtype == np.float64 and a.shape == (n, columns) and a.flags.c_contiguous, name
    assert sim.radii.dtype == np.float64 and sim.radii.shape == (n,)

    # The frame export writes the engine's own (dense) order with each row's id: it must not be the id order,
    # or this test would not test the reordering, and every array must be that frame's rows sorted by id.
    frame = tmp_path / "frame.csv"
    sim.export_frame(frame)
    # skip_header: the version comment line (genfromtxt would take a first '#' line for the names).
    rows = np.genfromtxt(frame, delimiter=",", names=True, skip_header=1)
    dense_ids = rows["id"].astype(np.uint64)
    assert not np.all(np.diff(dense_ids.astype(np.int64)) > 0), "the neighbour sort did not reorder the scene"
    order = np.argsort(dense_ids)
    assert np.array_equal(dense_ids[order], ids)

    def columns(*names):
        return np.column_stack([rows[c] for c in names])[order]

    expected = {
        "positions": columns("x", "y", "z"),
        "velocities": columns("vx", "vy", "vz"),
        "orientations": columns("qx", "qy", "qz", "qw"),
        "angular_velocities": columns("omega_x", "omega_y", "omega_z"),
        "easy_axes": columns("easy_axis_x", "easy_axis_y", "easy_axis_z"),
        "moments": columns("moment_x", "moment_y", "moment_z"),
        "forces": columns("force_x", "force_y", "force_z"),
        "torques": columns("torque_x", "torque_y", "torque_z"),
        "radii": rows["radius"][order],
    }
    assert set(expected) == set(PARTICLE_ARRAYS)
    for name, values in expected.items():
        # The CSV holds each double's shortest round-trip text: equal values are equal bits.
        assert np.array_equal(getattr(sim, name), values), name


def test_arrays_are_copies():
    sim = lodestone.Simulation(None, threads=1)  # the built-in default scene
    before = sim.positions
    before[:] = 0.0
    assert not np.array_equal(sim.positions, before)
    kept = sim.positions
    sim.run(steps=5)
    assert not np.array_equal(sim.positions, kept)  # the copy stays as it was; the scene moved on
    assert sim.step == 5 and sim.time == 5 * sim.dt
