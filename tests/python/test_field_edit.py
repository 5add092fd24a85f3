"""set() is the app's edit: it changes the run as the physics says, and the timeline records it so that a saved
preset replays the run in lodestone-run."""
import numpy as np
import pytest

import lodestone

from conftest import assert_same_state

# Eight magnetised spheres far apart (no contacts, weak neighbours), easy axes up, no field, in a viscous
# liquid that damps their turning: in 40 mT across their axes they settle along the field within 10 ms
# (without the field, the neighbours' fields turn them by under a degree in that time).
NEEDLES = {
    "version": 1,
    "materials": [{"name": "needle", "density": "7500 kg/m^3", "kn": "100 N/m", "magnetization": "50 kA/m"}],
    "magnetics": {"method": "direct"},
    "field": {"strength": 0, "direction": [1, 0, 0]},
    "environment": {"gravity": [0, 0, 0], "rotational_damping": "2e-3 N s/m"},
    "box": {"min": [0, 0, 0], "max": ["20 mm", "20 mm", "20 mm"]},
    "particles": {"kind": "lattice", "count": 8, "diameter": "1 mm", "spacing": "8 mm", "orientation": "aligned",
                  "axis": [0, 0, 1]},
}


def mean_abs_x(sim):
    return float(np.mean(np.abs(sim.easy_axes[:, 0])))


def test_a_field_set_from_python_turns_the_easy_axes_to_it():
    sim = lodestone.Simulation(NEEDLES, threads=1)
    still = lodestone.Simulation(NEEDLES, threads=1)  # the same scene, left without a field
    assert mean_abs_x(sim) < 1e-12

    sim.run(steps=10)
    sim.set("field.strength", "40 mT")  # along x, across the easy axes
    assert sim.get("field.strength") == 0.04
    run_time = 0.01
    sim.run(time=run_time)
    still.run(time=run_time + 10 * still.dt)

    assert mean_abs_x(sim) > 0.999, "the easy axes did not turn to a 40 mT field across them"
    row = sim.observe()
    assert row["alignment"] > 0.999
    assert row["moment_alignment"] > 0.999  # the moments point along the field, not against it
    assert mean_abs_x(still) < 0.02, "without a field the needles should barely turn"


def test_the_timeline_records_the_edit_and_the_runner_replays_it(runner, tmp_path):
    sim = lodestone.Simulation(NEEDLES, threads=1)
    sim.run(steps=30)
    sim.set("field.strength", "40 mT")
    sim.run(steps=70)
    timeline = sim.preset["timeline"]
    assert timeline == [{"step": 30, "set": {"field.strength": 0.04}}]

    saved = tmp_path / "session.json"
    sim.save_preset(saved)
    checkpoint = tmp_path / "replayed.ckpt"
    done = runner(saved, "--steps", 100, "--threads", 1, "--checkpoint", checkpoint, "--quiet")
    assert done.returncode == 0, done.stderr
    assert_same_state(sim, lodestone.Simulation.from_checkpoint(checkpoint, threads=1))


def test_undo_takes_the_edit_back():
    sim = lodestone.Simulation(NEEDLES, threads=1)
    sim.set("field.strength", "40 mT")
    assert sim.undo() is not None
    assert sim.get("field.strength") == 0
    assert sim.undo() is None
    assert sim.redo() is not None
    assert sim.get("field.strength") == 0.04


def test_a_batch_set_is_one_edit_and_all_or_nothing():
    sim = lodestone.Simulation(NEEDLES, threads=1)
    sim.run(steps=10)
    sim.set({"field.strength": "40 mT", "materials.0.friction": 0.25})
    assert sim.get("field.strength") == 0.04
    assert sim.get("materials.0.friction") == 0.25
    timeline = sim.preset["timeline"]
    assert len(timeline) == 1  # one entry with both values, at the step it was made
    assert timeline[0]["set"] == {"field.strength": 0.04, "materials.0.friction": 0.25}
    # A bad value anywhere in the batch refuses the whole batch, naming it.
    with pytest.raises(lodestone.PresetError, match="field.strength"):
        sim.set({"materials.0.friction": 0.5, "field.strength": "40 kg"})
    assert sim.get("materials.0.friction") == 0.25
    # One undo takes back both values.
    assert sim.undo() is not None
    assert sim.get("field.strength") == 0 and sim.get("materials.0.friction") != 0.25
    with pytest.raises(TypeError):
        sim.set(3, 4)


def test_the_class_is_session_and_keeps_its_earlier_name():
    assert lodestone.Simulation is lodestone.Session
    sim = lodestone.Session(NEEDLES, threads=1)
    assert repr(sim).startswith("<lodestone.Session of dict: 8 particles")


def test_hold_keeps_a_needle_from_turning_and_is_replayed():
    # Issue 40: hold() is the app's "Hold still"; the held needle keeps its axis while the others turn to the field.
    sim = lodestone.Simulation(NEEDLES, threads=1)
    start = sim.easy_axes.copy()
    assert "hold particle 0" in sim.hold(0, "orientation")
    sim.set("field.strength", "40 mT")
    sim.run(time=0.01)
    axes = sim.easy_axes
    assert np.array_equal(axes[0], start[0])
    assert np.all(np.abs(axes[1:, 0]) > 0.9)
    with pytest.raises(lodestone.PresetError, match="hold.what"):
        sim.hold(1, "sideways")
    replay = lodestone.Simulation(sim.preset, threads=1)
    replay.run(steps=sim.step)
    assert_same_state(replay, sim)
