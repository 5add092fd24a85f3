"""go() is the app's "Switch the field on" (issue 39): a protocol phase with `wait` ends when it is called and the
next phase starts, and the timeline records it so that a saved preset replays the run."""
import json

import pytest

import lodestone

from conftest import PRESETS, assert_same_state


def small_field_switch_on():
    """field-switch-on small enough for a test: 30 beads, a fixed time step, its waiting phase 20 steps long."""
    preset = json.loads((PRESETS / "field-switch-on.json").read_text())
    preset["particles"]["count"] = 30
    preset["integrator"] = {"time_step": 1e-5}
    assert preset["protocol"][0]["wait"] == "Switch the field on"
    preset["protocol"][0]["duration"] = 2e-4
    return preset


def test_go_ends_the_waiting_phase_and_the_field_comes_on():
    sim = lodestone.Simulation(small_field_switch_on(), threads=1)
    sim.run(steps=10)
    assert sim.phase == "1/2 no field"
    assert sim.waiting
    assert sim.get("field.strength") == 0

    assert sim.go() == "went on: now phase 2/2 field on"
    assert sim.phase == "2/2 field on"
    assert not sim.waiting
    assert sim.get("field.strength") == pytest.approx(5e-3)
    assert sim.preset["timeline"] == [{"step": 10, "touch": {"go": {}}}]

    with pytest.raises(lodestone.PresetError) as caught:
        sim.go()  # the field phase does not wait: nothing changes
    assert "does not wait" in str(caught.value)
    assert sim.phase == "2/2 field on"
    assert len(sim.preset["timeline"]) == 1


def test_without_go_the_phase_ends_at_its_duration():
    sim = lodestone.Simulation(small_field_switch_on(), threads=1)
    sim.run(steps=15)
    assert sim.phase == "1/2 no field"  # go() at step 10 above ended it earlier
    sim.run(steps=10)
    assert sim.phase == "2/2 field on"
    assert not sim.waiting


def test_a_saved_go_replays_at_its_step(tmp_path):
    sim = lodestone.Simulation(small_field_switch_on(), threads=1)
    sim.run(steps=10)
    sim.go()
    sim.run(steps=30)
    saved = tmp_path / "session.json"
    sim.save_preset(saved)

    replay = lodestone.Simulation(saved, threads=1)
    replay.run(steps=15)
    assert replay.phase == "2/2 field on"  # the recorded go, at step 10, not the phase's 20 steps
    replay.run(steps=25)
    assert_same_state(sim, replay)
