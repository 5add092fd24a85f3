"""What a script reads besides the arrays: the series row, the clusters, the field at points."""
import numpy as np

import lodestone

from conftest import PRESETS

MU0_OVER_4PI = 1e-7


def test_observe_has_the_series_columns_of_the_runner(runner, tmp_path):
    preset = PRESETS / "chains-and-rings.json"
    series = tmp_path / "series.csv"
    done = runner(preset, "--steps", 40, "--threads", 1, "--series", series, "--series-every", 40, "--quiet")
    assert done.returncode == 0, done.stderr
    version, header, *rows = series.read_text().splitlines()
    assert version == f"# written by Lodestone {lodestone.__version__}"
    last = dict(zip(header.split(","), rows[-1].split(",")))

    sim = lodestone.Simulation(preset, threads=1)
    sim.run(steps=40)
    row = sim.observe()
    assert list(row) == header.split(",")
    assert row["step"] == 40 and isinstance(row["particle_contacts"], int)
    for name, text in last.items():
        value = row[name]
        if text == "":
            assert np.isnan(value), name
        else:
            assert value == (int(text) if isinstance(value, int) else float(text)), name


def test_clusters_cover_every_particle():
    sim = lodestone.Simulation(PRESETS / "chains-and-rings.json", threads=1)
    sim.run(steps=200)
    c = sim.clusters()
    assert c["size"].sum() == len(sim)
    assert c["moment"].shape == (len(c["label"]), 3)
    assert np.all(np.diff(c["label"].astype(np.int64)) > 0)
    # Each cluster's label is its smallest member id, and its size the number of particles carrying the label.
    ids = sim.ids
    for label, size in zip(c["label"], c["size"]):
        members = ids[c["particle_cluster"] == label]
        assert members.min() == label and len(members) == size
    assert sim.observe()["clusters"] == len(c["label"])


def test_field_at_is_the_applied_field_plus_the_dipoles():
    sim = lodestone.Simulation(PRESETS / "two-dipoles.json", threads=1)
    positions, moments, radii = sim.positions, sim.moments, sim.radii
    # A point beside the pair, outside both spheres: the point-dipole sum, in the order the engine sums it.
    point = positions.mean(axis=0) + np.array([0.0, 5 * radii.max(), 0.0])
    expected = np.zeros(3)
    for x, m in zip(positions, moments):
        r = point - x
        d = np.linalg.norm(r)
        n = r / d
        expected += MU0_OVER_4PI / d**3 * (3 * n * n.dot(m) - m)
    b = sim.field_at(point, exact=True)
    assert b.shape == (3,)
    assert np.allclose(b, expected, rtol=1e-12, atol=0)
    many = sim.field_at(np.array([point, point]), exact=True)
    assert many.shape == (2, 3) and np.array_equal(many[0], b)
    sim.set("field.strength", "10 mT")
    sim.set("field.direction", [0, 1, 0])
    assert np.allclose(sim.field_at(point, moments=False), [0.0, 0.01, 0.0], rtol=0, atol=1e-15)
