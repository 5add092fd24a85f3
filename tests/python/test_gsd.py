"""GSD output of lodestone-run (issue 42): a periodic run read back with the gsd package (Debian's python3-gsd) as
HOOMD's "hoomd" schema (docs/outputs.md "GSD"): box, types, positions centred on the box, image flags, velocities,
diameters, our ids and moments under log/, and its unwrapped positions continuous and equal to x0 + v t."""
import json

import numpy as np
import pytest

from flight_scene import L, SCENE, START, STEPS, VELOCITIES


@pytest.fixture
def gsd_run(tmp_path, runner):
    scene = tmp_path / "flight.json"
    scene.write_text(json.dumps(SCENE))
    done = runner(scene, "--steps", STEPS, "--frames", tmp_path / "run.gsd", "--frames-every", 100, "-q")
    assert done.returncode == 0, done.stderr
    return tmp_path / "run.gsd"


def test_gsd_file_reads_as_the_hoomd_schema(gsd_run):
    hoomd = pytest.importorskip("gsd.hoomd")
    with hoomd.open(str(gsd_run), "rb") as trajectory:
        assert len(trajectory) == STEPS // 100 + 1
        first = trajectory[0]
        assert first.configuration.dimensions == 3
        assert np.allclose(first.configuration.box, [L, L, L, 0, 0, 0])
        assert first.particles.N == 3
        assert first.particles.types == ["1"]
        assert list(first.particles.typeid) == [0, 0, 0]
        assert np.allclose(first.particles.diameter, 0.8e-3)
        assert list(first.log["particles/id"]) == [0, 1, 2]
        assert first.log["particles/moment"].shape == (3, 3)
        steps = [frame.configuration.step for frame in trajectory]
        assert steps == list(range(0, STEPS + 1, 100))
        time = np.array([frame.log["time"][0] for frame in trajectory])
        position = np.array([frame.particles.position for frame in trajectory], dtype=np.float64)
        image = np.array([frame.particles.image for frame in trajectory])
        velocity = np.array([frame.particles.velocity for frame in trajectory], dtype=np.float64)
    # HOOMD's box is centred on the origin: ours runs from 0 to L, so positions are shifted by L/2.
    unwrapped = position + L / 2 + image * L
    expected = np.array(START)[None, :, :] + time[:, None, None] * np.array(VELOCITIES)[None, :, :]
    # float32 positions (the schema's): within a few float32 ulps of the box (1e-9 m here).
    assert np.allclose(unwrapped, expected, rtol=0, atol=1e-8)
    assert np.abs(np.diff(unwrapped, axis=0)).max() < 0.5 * L
    assert image[-1, :, 0].min() >= 8
    assert np.allclose(velocity[0], VELOCITIES, rtol=1e-6)


def test_gsd_path_in_a_directory_that_does_not_exist_is_refused(tmp_path, runner):
    scene = tmp_path / "flight.json"
    scene.write_text(json.dumps(SCENE))
    done = runner(scene, "--steps", 10, "--frames", tmp_path / "no" / "such" / "run.gsd", "-q")
    assert done.returncode == 4
    assert "cannot write the GSD frames file" in done.stderr
