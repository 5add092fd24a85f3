"""A preset by its name, as lodestone-run takes it; the thread count a cluster job or OpenMP user sets (issue 42)."""
import pytest

import lodestone


def test_a_preset_by_name_is_the_shipped_one():
    by_name = lodestone.Session("two-dipoles", threads=1)
    assert len(by_name.ids) == 2
    assert by_name.preset == lodestone.Session("two-dipoles.json", threads=1).preset
    with pytest.raises(lodestone.PresetError) as caught:
        lodestone.Session("no-such-preset", threads=1)
    assert "cannot open" in str(caught.value)


def test_threads_follow_omp_num_threads_then_slurm(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setenv("SLURM_CPUS_PER_TASK", "3")
    assert lodestone.Session("two-dipoles").threads == 3
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert lodestone.Session("two-dipoles").threads == 2
    assert lodestone.Session("two-dipoles", threads=1).threads == 1  # an explicit count wins
    monkeypatch.setenv("OMP_NUM_THREADS", "many")
    with pytest.raises(ValueError, match="OMP_NUM_THREADS='many'"):
        lodestone.Session("two-dipoles")


def test_reset_goes_back_to_the_start_with_the_edits_in_force():
    # Issue 42: sim.set('particles.count', 10) was taken, get() said 10, and the scene kept its particles; a reset (as
    # the app's) builds the scene again from the parameters in force.
    sim = lodestone.Session("chains-and-rings", threads=1)
    sim.run(steps=20)
    # It says so now: set() asks for confirmation, naming the wait for reset(), and changes nothing without it.
    with pytest.raises(lodestone.ConfirmationNeeded, match=r"particles.count changes how the particles are made.*until Reset"):
        sim.set("particles.count", 10)
    assert sim.get("particles.count") == 60
    sim.set("particles.count", 10, confirm=True)
    sim.set("field.strength", "5 mT")
    assert len(sim.ids) == 60  # a generator's change waits for the reset
    sim.reset()
    assert sim.step == 0 and sim.time == 0.0
    assert len(sim.ids) == 10
    assert sim.get("field.strength") == pytest.approx(5e-3)
    assert sim.threads == 1
    sim.run(steps=5)
    assert sim.step == 5
