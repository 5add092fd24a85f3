"""Checkpoints: a run continued from one is bit-identical to the run that went on."""
import lodestone

from conftest import PRESETS, assert_same_state


def test_checkpoint_round_trip_continues_bit_identically(tmp_path):
    sim = lodestone.Simulation(PRESETS / "chains-and-rings.json", threads=2)
    sim.run(steps=100)
    sim.set("field.strength", "5 mT")  # a timeline entry before the checkpoint, folded into its preset
    sim.run(steps=20)
    path = tmp_path / "state.ckpt"
    sim.save_checkpoint(path)

    restored = lodestone.Simulation.from_checkpoint(path, threads=2)
    assert_same_state(sim, restored)
    assert restored.get("field.strength") == 0.005
    sim.run(steps=150)
    restored.run(steps=150)
    assert_same_state(sim, restored)


def test_a_damaged_checkpoint_raises_checkpoint_error(tmp_path):
    sim = lodestone.Simulation(PRESETS / "two-dipoles.json", threads=1)
    path = tmp_path / "state.ckpt"
    sim.save_checkpoint(path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    try:
        lodestone.Simulation.from_checkpoint(path)
    except lodestone.CheckpointError as e:
        assert "checksum" in str(e)
    else:
        raise AssertionError("a damaged checkpoint was read")
