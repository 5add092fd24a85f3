"""The module steps the same Session as lodestone-run: the same preset and thread count give the same bits."""
import lodestone

from conftest import PRESETS, assert_same_state


def test_200_steps_match_the_runner_bit_for_bit(runner, tmp_path):
    preset = PRESETS / "default.json"  # 300 beads: contacts, dipoles on a neighbour list, a field
    checkpoint = tmp_path / "runner.ckpt"
    done = runner(preset, "--steps", 200, "--threads", 2, "--checkpoint", checkpoint, "--quiet", "--table", 0)
    assert done.returncode == 0, done.stderr

    sim = lodestone.Simulation(preset, threads=2)
    assert sim.run(steps=200) == 200
    assert_same_state(sim, lodestone.Simulation.from_checkpoint(checkpoint, threads=2))

    # The whole saved state, contact history included, is the same file byte for byte.
    ours = tmp_path / "python.ckpt"
    sim.save_checkpoint(ours)
    assert ours.read_bytes() == checkpoint.read_bytes()


def test_run_by_time_takes_the_steps_the_runner_takes(runner, tmp_path):
    preset = PRESETS / "two-dipoles.json"
    sim = lodestone.Simulation(str(preset), threads=1)
    duration = 50 * sim.dt
    steps = sim.run(time=duration)
    assert steps == 50
    checkpoint = tmp_path / "runner.ckpt"
    done = runner(preset, "--time", repr(duration), "--threads", 1, "--checkpoint", checkpoint, "--quiet")
    assert done.returncode == 0, done.stderr
    assert_same_state(sim, lodestone.Simulation.from_checkpoint(checkpoint, threads=1))
