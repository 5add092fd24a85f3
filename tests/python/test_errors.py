"""Errors reach Python as exceptions carrying the engine's message: the JSON path, the value, what is allowed."""
import pytest

import lodestone

from conftest import PRESETS


def test_a_bad_value_raises_with_the_json_path():
    sim = lodestone.Simulation(PRESETS / "two-dipoles.json", threads=1)
    with pytest.raises(lodestone.PresetError) as caught:
        sim.set("field.strength", "40 furlongs")
    assert caught.value.path == "$.field.strength"
    assert "furlongs" in str(caught.value)
    assert str(caught.value).startswith("$.field.strength: ")
    assert caught.value.message in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert sim.preset.get("timeline", []) == []  # a refused edit records nothing


def test_an_unknown_path_names_the_keys_there():
    sim = lodestone.Simulation(PRESETS / "two-dipoles.json", threads=1)
    with pytest.raises(lodestone.PresetError) as caught:
        sim.set("field.strenght", 0.01)
    assert "strenght" in str(caught.value) and "strength" in str(caught.value)


def test_a_bad_preset_raises_with_the_json_path():
    with pytest.raises(lodestone.PresetError) as caught:
        lodestone.Simulation({"version": 1, "materials": [{"name": "a", "density": -3}]})
    assert caught.value.path == "$.materials[0].density"
    with pytest.raises(lodestone.PresetError) as caught:
        lodestone.Simulation('{"version": 1, "field": {"strength": }}')
    assert "broken JSON" in str(caught.value)
    with pytest.raises(lodestone.PresetError) as caught:
        lodestone.Simulation(PRESETS / "no-such-preset.json")
    assert "cannot open" in str(caught.value)


def test_a_field_beyond_any_magnet_needs_confirmation():
    sim = lodestone.Simulation(PRESETS / "two-dipoles.json", threads=1)
    with pytest.raises(lodestone.ConfirmationNeeded):
        sim.set("field.strength", "80 T")
    assert sim.get("field.strength") == 0
    sim.set("field.strength", "80 T", confirm=True)
    assert sim.get("field.strength") == 80.0


def test_bad_arguments():
    sim = lodestone.Simulation(PRESETS / "two-dipoles.json", threads=1)
    with pytest.raises(ValueError):
        sim.run()
    with pytest.raises(ValueError):
        sim.run(steps=5, time=1.0)
    with pytest.raises(ValueError):
        sim.field_at([[0.0, 0.0]])
    with pytest.raises(TypeError):
        lodestone.Simulation(42)
    with pytest.raises(lodestone.ExportError):
        sim.export_frame("frame.unknown-extension")


def test_a_failed_check_raises_simulation_stopped_and_keeps_the_state():
    # As lodestone-run --dt 1e-3 (tests/runner/test_runner_cli.cpp): the collision overlaps the spheres.
    sim = lodestone.Simulation(PRESETS / "two-dipoles.json", threads=1)
    sim.set("integrator.time_step", "1 ms", confirm=True)
    with pytest.raises(lodestone.SimulationStopped) as caught:
        sim.run(steps=50)
    assert "particle" in str(caught.value)
    assert sim.stopped is not None and sim.stopped in str(caught.value)
    assert sim.step < 50 and sim.positions.shape == (2, 3)
    with pytest.raises(lodestone.SimulationStopped):
        sim.run(steps=1)
