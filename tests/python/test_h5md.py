"""H5MD output of lodestone-run (issue 42): a periodic run read back with h5py against the H5MD 1.1 layout
(https://nongnu.org/h5md/h5md.html; docs/outputs.md "H5MD"), its unwrapped positions continuous and equal to the
dump's."""
import json

import numpy as np
import pytest

from flight_scene import L, SCENE, START, STEPS, VELOCITIES


def dump_frames(path):
    """The frames of a LAMMPS dump as (step, {column: array}) in id order."""
    frames = []
    lines = path.read_text().splitlines()
    k = 0
    while k < len(lines):
        assert lines[k] == "ITEM: TIMESTEP"
        step = int(lines[k + 1])
        n = int(lines[k + 3])
        columns = lines[k + 8].split()[2:]
        rows = np.array([[float(x) for x in line.split()] for line in lines[k + 9:k + 9 + n]])
        rows = rows[np.argsort(rows[:, 0])]
        frames.append((step, {c: rows[:, j] for j, c in enumerate(columns)}))
        k += 9 + n
    return frames


@pytest.fixture
def periodic_run(tmp_path, runner):
    """The scene run by lodestone-run into an H5MD file and a LAMMPS dump (two runs, the same bits)."""
    scene = tmp_path / "flight.json"
    scene.write_text(json.dumps(SCENE))
    for out in ("run.h5md", "run.dump"):
        done = runner(scene, "--steps", STEPS, "--frames", tmp_path / out, "--frames-every", 100, "-q")
        assert done.returncode == 0, done.stderr
    return tmp_path


def test_h5md_file_has_the_h5md_layout(periodic_run):
    h5py = pytest.importorskip("h5py")
    with h5py.File(periodic_run / "run.h5md", "r") as f:
        meta = f["h5md"]
        assert list(meta.attrs["version"]) == [1, 1]
        assert meta["author"].attrs["name"]
        assert meta["creator"].attrs["name"] == b"Lodestone"
        assert meta["creator"].attrs["version"]
        group = f["particles/all"]
        box = group["box"]
        assert box.attrs["dimension"] == 3
        assert [b.decode() for b in box.attrs["boundary"]] == ["periodic", "periodic", "none"]
        assert np.array_equal(box["edges"][()], [L, L, L])
        frames = STEPS // 100 + 1
        position = group["position"]
        assert position["value"].shape == (frames, 3, 3)
        assert position["value"].maxshape[0] is None and position["value"].chunks is not None
        assert position["value"].attrs["unit"] == b"m"
        assert np.array_equal(position["step"][()], np.arange(0, STEPS + 1, 100))
        assert np.allclose(position["time"][()], position["step"][()] * 1e-4, rtol=1e-12)
        for name, dtype, shape in (("image", np.int32, (frames, 3, 3)), ("velocity", np.float64, (frames, 3, 3)),
                                   ("force", np.float64, (frames, 3, 3)), ("moment", np.float64, (frames, 3, 3)),
                                   ("radius", np.float64, (frames, 3)), ("species", np.int32, (frames, 3)),
                                   ("id", np.int64, (frames, 3))):
            element = group[name]
            assert element["value"].dtype == dtype and element["value"].shape == shape, name
            # step and time are the position's own datasets, hard-linked (H5MD 1.1: required for image).
            assert element["step"].id == position["step"].id and element["time"].id == position["time"].id, name
        preset = json.loads(f["parameters/preset"][()])
        assert preset["box"]["x_min"] == "periodic"
        assert f["parameters/units"][()] == b"SI"
        assert np.array_equal(f["parameters/box_min"][()], [0, 0, 0])


def test_h5md_unwrapped_positions_are_continuous_and_match_the_dump(periodic_run):
    h5py = pytest.importorskip("h5py")
    with h5py.File(periodic_run / "run.h5md", "r") as f:
        group = f["particles/all"]
        position = group["position/value"][()]
        image = group["image/value"][()]
        edges = group["box/edges"][()]
        ids = group["id/value"][()]
        steps = group["position/step"][()]
        time = group["position/time"][()]
        velocity = group["velocity/value"][()]
    assert np.array_equal(ids, np.tile([0, 1, 2], (len(steps), 1)))
    unwrapped = position + image * edges
    # Free flight: the unwrapped path is x0 + v t, smooth across every crossing, while the wrapped one jumps.
    expected = np.array(START)[None, :, :] + time[:, None, None] * np.array(VELOCITIES)[None, :, :]
    assert np.allclose(unwrapped, expected, rtol=0, atol=1e-12)
    assert np.abs(np.diff(unwrapped, axis=0)).max() < 0.5 * L
    assert np.abs(np.diff(position, axis=0)).max() > 0.5 * L
    assert image[-1, :, 0].min() >= 8
    assert np.array_equal(velocity[0], VELOCITIES)
    # The dump of the same run: the same positions (bit for bit: both are shortest round-trip decimals of the
    # same doubles) and the same image flags in its ix iy iz columns.
    dump = dump_frames(periodic_run / "run.dump")
    assert [s for s, _ in dump] == list(steps)
    for k, (_, columns) in enumerate(dump):
        assert np.array_equal(np.stack([columns[c] for c in ("x", "y", "z")], axis=1), position[k])
        assert np.array_equal(np.stack([columns[c] for c in ("ix", "iy", "iz")], axis=1), image[k])
