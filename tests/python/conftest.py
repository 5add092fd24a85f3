"""Shared fixtures of the Python module's tests (run by CTest: tests/CMakeLists.txt, "python: ...").

CTest passes PYTHONPATH (the built module), LODESTONE_RUNNER (the lodestone-run binary) and
LODESTONE_SOURCE_DIR (for presets/) through the environment.
"""
import os
import pathlib
import subprocess

import numpy as np
import pytest

import lodestone

SOURCE_DIR = pathlib.Path(os.environ.get("LODESTONE_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PRESETS = SOURCE_DIR / "presets"

# Every per-particle array of a Simulation; compared bit for bit between runs.
PARTICLE_ARRAYS = ("positions", "velocities", "angular_velocities", "orientations", "moments", "easy_axes",
                   "forces", "torques", "radii")


@pytest.fixture
def runner():
    """Runs lodestone-run with the given arguments; returns the finished process (output captured)."""
    binary = os.environ.get("LODESTONE_RUNNER")
    if not binary:
        pytest.fail("LODESTONE_RUNNER is not set: run these tests through ctest")

    def run(*args):
        return subprocess.run([binary, *map(str, args)], capture_output=True, text=True, timeout=120)

    return run


def assert_same_state(a: lodestone.Simulation, b: lodestone.Simulation):
    """Two simulations hold the same particles in the same state, to the last bit of every double."""
    assert a.step == b.step
    assert np.float64(a.time).tobytes() == np.float64(b.time).tobytes()
    assert np.array_equal(a.ids, b.ids)
    for name in PARTICLE_ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.shape == y.shape, name
        # Compared as bits: equal doubles with different bits (0.0 and -0.0) count as different.
        assert np.array_equal(x.view(np.uint64), y.view(np.uint64)), f"{name} differs"
    assert a.state_hash() == b.state_hash()
