"""run() reports its progress and says where Ctrl+C stopped it (issue 43): the state is kept at that step."""
import _thread
import time

import pytest

import lodestone

from conftest import PRESETS


def test_progress_is_called_with_growing_fractions_and_once_at_the_end():
    sim = lodestone.Simulation(PRESETS / "chains-and-rings.json", threads=1)
    calls = []
    start = time.monotonic()
    done = sim.run(steps=4000, progress=lambda fraction, steps: calls.append((fraction, steps)))
    seconds = time.monotonic() - start
    assert done == 4000
    assert calls[-1] == (1.0, 4000)
    assert all(a <= b for a, b in zip(calls, calls[1:]))  # fractions and steps never go back
    # About twice a second, and the last call: no more than the run's half-seconds plus one (and a margin of one).
    assert len(calls) <= 2 + seconds / 0.5
    # By simulated time the fraction is of the time asked.
    calls.clear()
    sim.run(time=50 * sim.dt, progress=lambda fraction, steps: calls.append((fraction, steps)))
    assert calls[-1][0] == pytest.approx(1.0)


def test_an_interrupted_run_says_where_it_stopped_and_keeps_that_state():
    sim = lodestone.Simulation(PRESETS / "chains-and-rings.json", threads=1)

    def press_ctrl_c(fraction, steps):
        _thread.interrupt_main()  # as Ctrl+C does: the signal is seen at run()'s next look (every 0.1 s)

    with pytest.raises(KeyboardInterrupt) as caught:
        sim.run(steps=10**9, progress=press_ctrl_c)
    text = str(caught.value)
    assert text.startswith(f"run() interrupted at step {sim.step} ")
    assert "of 1000000000 steps; the state is kept there" in text
    assert 0 < sim.step < 10**9
    step = sim.step
    assert sim.run(steps=3) == 3 and sim.step == step + 3  # and it goes on from there
