"""Periodic image flags (issue 42): Simulation.images and unwrapped_positions count the box lengths each particle
crossed, checkpoints keep them, and every frame format writes them."""
import numpy as np

import lodestone

from flight_scene import L, SCENE, START, STEPS, VELOCITIES


def test_images_count_the_boxes_crossed():
    sim = lodestone.Simulation(SCENE)
    assert sim.images.shape == (3, 3) and sim.images.dtype == np.int32
    assert not sim.images.any()
    sim.run(steps=STEPS)
    images = sim.images
    expected = np.array(START) + sim.time * np.array(VELOCITIES)
    # x: 0.082 m in 0.2 s, 8 boxes; floor((x0 + v t) / L) boxes crossed on x and y, none on z (walls).
    assert np.array_equal(images, np.floor(expected / L).astype(np.int32) * np.array([1, 1, 0]))
    assert images[:, 0].min() >= 8
    assert np.allclose(sim.positions + images * L, expected, rtol=0, atol=1e-12)
    assert np.array_equal(sim.unwrapped_positions, sim.positions + images * np.array([L, L, 0.0]))


def test_images_survive_a_checkpoint(tmp_path):
    sim = lodestone.Simulation(SCENE)
    sim.run(steps=700)
    path = tmp_path / "state.ckpt"
    sim.save_checkpoint(str(path))
    again = lodestone.Simulation.from_checkpoint(str(path))
    assert np.array_equal(again.images, sim.images) and sim.images.any()
    sim.run(steps=300)
    again.run(steps=300)
    assert np.array_equal(again.images, sim.images)


def test_every_frame_format_carries_the_images(tmp_path):
    sim = lodestone.Simulation(SCENE)
    sim.run(steps=STEPS)
    images = sim.images
    assert images.any()
    sim.export_frame(str(tmp_path / "f.csv"))
    rows = np.genfromtxt(tmp_path / "f.csv", delimiter=",", names=True, skip_header=1)
    order = np.argsort(rows["id"])
    assert np.array_equal(np.stack([rows[c][order] for c in ("ix", "iy", "iz")], axis=1), images)
    sim.export_frame(str(tmp_path / "f.xyz"))
    lines = (tmp_path / "f.xyz").read_text().splitlines()
    assert ":image:I:3 " in lines[1]
    xyz = np.array([[int(x) for x in line.split()[-3:]] for line in lines[2:]])
    ids = np.array([int(line.split()[0]) for line in lines[2:]])
    assert np.array_equal(xyz[np.argsort(ids)], images)
    sim.export_frame(str(tmp_path / "f.vtp"))
    text = (tmp_path / "f.vtp").read_text()
    assert 'Name="image" NumberOfComponents="3"' in text
