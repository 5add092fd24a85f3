"""set() and get() in a preset in reduced units (units.system "lj"): a bare number means what it means in the
preset's file, not SI (issue 42: `set('field.strength', 0.5)` in two-dipoles-lj gave 0.5 T, the file's 0.5 is
22.36 mT)."""
import json

import lodestone

from conftest import PRESETS, assert_same_state


def lj_preset():
    with open(PRESETS / "two-dipoles-lj.json") as f:
        return json.load(f)


def test_a_bare_number_is_read_and_answered_in_the_presets_reduced_units():
    preset = lj_preset()
    assert preset["units"]["system"] == "lj"
    edited = lodestone.Simulation(preset, threads=1)
    edited.set("field.strength", 0.5)
    assert edited.get("field.strength") == 0.5

    # The same scene with 0.5 written in its file: the two runs agree to the last bit.
    preset["field"]["strength"] = 0.5
    written = lodestone.Simulation(preset, threads=1)
    edited.run(steps=200)
    written.run(steps=200)
    assert_same_state(edited, written)


def test_a_value_with_its_unit_means_that_unit_in_any_system():
    sim = lodestone.Simulation(lj_preset(), threads=1)
    sim.set("field.strength", "22.36068 mT")
    # 22.36 mT is 0.5 of the field unit sqrt(mu0 epsilon / (4 pi sigma^3)) of sigma = 1 mm, epsilon = 2e-5 J.
    assert abs(sim.get("field.strength") - 0.5) < 1e-6
    sim.set("run.duration", 2)  # 2 tau, not 2 s
    assert sim.get("run.duration") == 2
