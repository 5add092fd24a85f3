"""Gzip-compressed text frames of lodestone-run (issue 42): run.xyz.gz, .dump.gz, .csv.gz hold the plain file's
text, ASE reads them, and frame paths that cannot be written are refused by name."""
import gzip
import json

import pytest

from flight_scene import SCENE


def test_gzip_frames_hold_the_same_text(tmp_path, runner):
    scene = tmp_path / "flight.json"
    scene.write_text(json.dumps(SCENE))
    for name in ("run.xyz", "run.xyz.gz", "run.dump", "run.dump.gz", "run.csv", "run.csv.gz"):
        done = runner(scene, "--steps", 300, "--frames", tmp_path / name, "--frames-every", 50, "-q")
        assert done.returncode == 0, done.stderr
    for name in ("run.xyz", "run.dump", "run.csv"):
        compressed = (tmp_path / (name + ".gz")).read_bytes()
        assert compressed[:2] == b"\x1f\x8b"  # the gzip magic
        text = (tmp_path / name).read_text()
        assert text.count("\n") > 20
        assert gzip.decompress(compressed).decode() == text, name


def test_gzip_xyz_reads_in_ase(tmp_path, runner):
    ase_io = pytest.importorskip("ase.io")
    scene = tmp_path / "flight.json"
    scene.write_text(json.dumps(SCENE))
    done = runner(scene, "--steps", 300, "--frames", tmp_path / "run.xyz.gz", "--frames-every", 100, "-q")
    assert done.returncode == 0, done.stderr
    frames = ase_io.read(str(tmp_path / "run.xyz.gz"), index=":")
    assert len(frames) == 4 and len(frames[-1]) == 3


def test_bad_frame_paths_are_refused_by_name(tmp_path, runner):
    scene = tmp_path / "flight.json"
    scene.write_text(json.dumps(SCENE))
    done = runner(scene, "--steps", 10, "--frames", tmp_path / "run.vtp.gz")
    assert done.returncode != 0 and "run.vtp.gz" in done.stderr and "cannot be gzip-compressed" in done.stderr
    done = runner(scene, "--steps", 10, "--frames", tmp_path / "run.txt.gz")
    assert done.returncode != 0 and "'.txt'" in done.stderr and ".h5md" in done.stderr
    done = runner(scene, "--steps", 10, "--frames", tmp_path / "missing" / "run.h5md")
    assert done.returncode == 4 and "H5MD" in done.stderr and "run.h5md" in done.stderr
