"""Our frames read by other people's readers (docs/outputs.md): extended XYZ by ASE (python3-ase), the VTK PolyData
(.vtp) in its three encodings by meshio's VTK XML array decoder (python3-meshio) and by VTK's own reader (python3-vtk9),
the bonds included.

meshio reads VTK's XML UnstructuredGrid (.vtu) but has no PolyData (.vtp) reader, so the .vtp's DataArrays are
decoded one by one with meshio's own VtuReader.read_data (ascii, inline base64 and appended data) after its
_parse_raw_binary turned a raw appended block into base64: the decoding of every array, the part a binary file can
get wrong, is meshio's, the walk over the PolyData sections ours.

The expected values are the module's own arrays (by id) and the bonds found independently from the initial
positions: the preset bonds touching spheres (bonds.create "touching": centres at most (r_a + r_b)(1 + tolerance)
apart), and a bond's stretch is (|x_b - x_a| - L0) / L0 with L0 that initial distance.
"""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import lodestone
from conftest import PRESETS

ase_io = pytest.importorskip("ase.io", reason="python3-ase is not installed (scripts/install-deps.sh)")
meshio_vtu = pytest.importorskip("meshio.vtu._vtu", reason="python3-meshio is not installed (scripts/install-deps.sh)")

WALKER = PRESETS / "magnetic-walker.json"
TOUCH_TOLERANCE = 0.1  # the walker's bonds.touch_tolerance


def touching_pairs(sim):
    """The bonds the preset creates, from the module's arrays at step 0: (id_a, id_b) pairs and their rest lengths."""
    ids, x, r = sim.ids, sim.positions, sim.radii
    pairs = {}
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            d = np.linalg.norm(x[j] - x[i])
            if 0.0 < d <= (r[i] + r[j]) * (1.0 + TOUCH_TOLERANCE):
                pairs[(int(ids[i]), int(ids[j]))] = d
    return pairs


def read_vtp(path):
    """Every DataArray of a .vtp, decoded by meshio: {"PointData/id": array, "Lines/connectivity": ..., ...}."""
    raw = path.read_bytes()
    if b'<AppendedData encoding="raw">' in raw:
        root = meshio_vtu._parse_raw_binary(str(path))  # meshio re-encodes the raw block as base64
    else:
        root = ET.fromstring(raw)
    assert root.tag == "VTKFile" and root.get("type") == "PolyData"
    reader = meshio_vtu.VtuReader.__new__(meshio_vtu.VtuReader)  # its decoder only, without its .vtu walk
    reader.header_type = root.get("header_type", "UInt32")
    reader.byte_order = root.get("byte_order")
    reader.compression = None
    appended = root.find("AppendedData")
    reader.appended_data = appended.text.strip()[1:] if appended is not None else None
    piece = root.find("PolyData/Piece")
    arrays = {}
    for section in ("PointData", "CellData", "Points", "Verts", "Lines"):
        element = piece.find(section)
        if element is None:
            continue
        for data_array in element.findall("DataArray"):
            arrays[f"{section}/{data_array.get('Name')}"] = reader.read_data(data_array)
    return piece, arrays


def test_extended_xyz_read_by_ase(tmp_path):
    sim = lodestone.Simulation(WALKER, threads=1)
    bonds = touching_pairs(sim)
    assert len(bonds) >= 10, "the walker has lost its bonds: the test needs a bonded scene"
    frames = [tmp_path / "step0.xyz", tmp_path / "later.xyz"]
    sim.export_frame(frames[0])
    sim.run(steps=200)
    sim.export_frame(frames[1])

    for path, step in zip(frames, (0, 200)):
        atoms = ase_io.read(path, index=":")
        assert len(atoms) == 1
        frame = atoms[0]
        assert frame.info["Step"] == step
        assert frame.info["Program"] == f"Lodestone {lodestone.__version__}"
        ids = frame.arrays["id"].astype(np.uint64)
        assert len(frame) == len(sim.ids)
        order = np.argsort(ids)
        assert np.array_equal(ids[order], sim.ids)  # every particle once (none is added or deleted)
        # Bonds: the key is the pairs' ids, intact ones only; none breaks in 200 steps of the walker.
        pairs = frame.info["bonds"].reshape(-1, 2)
        assert {tuple(sorted(map(int, p))) for p in pairs} == set(bonds)
        assert "broken_bonds" not in frame.info
    # The last frame's positions are the module's, to the bit (shortest round-trip decimals).
    frame = ase_io.read(frames[1], index=":")[-1]
    order = np.argsort(frame.arrays["id"])
    assert np.array_equal(frame.positions[order], sim.positions)
    assert np.array_equal(frame.arrays["radius"][order], sim.radii)


def test_vtp_read_by_meshio_in_every_encoding_with_bonds_as_lines(tmp_path):
    sim = lodestone.Simulation(WALKER, threads=1)
    rest = touching_pairs(sim)
    sim.run(steps=300)
    read = {}
    for encoding in ("ascii", "base64", "raw"):
        path = tmp_path / f"{encoding}.vtp"
        sim.export_frame(path, vtk_encoding=encoding)
        read[encoding] = read_vtp(path)
    sizes = {e: (tmp_path / f"{e}.vtp").stat().st_size for e in read}
    assert sizes["raw"] < sizes["base64"] < sizes["ascii"], sizes

    piece, arrays = read["ascii"]
    n, bonds = len(sim.ids), len(rest)
    assert int(piece.get("NumberOfPoints")) == n and int(piece.get("NumberOfLines")) == bonds
    # The same arrays, to the bit, whatever the encoding.
    for encoding in ("base64", "raw"):
        other = read[encoding][1]
        assert other.keys() == arrays.keys()
        for name, values in arrays.items():
            assert other[name].dtype == values.dtype, name
            assert np.array_equal(other[name].view(np.uint8), values.view(np.uint8)), f"{encoding}: {name}"

    # Points and point data: the module's arrays, in the file's (dense) order given by its ids.
    ids = arrays["PointData/id"].ravel()
    order = np.argsort(ids)
    assert np.array_equal(ids[order], sim.ids)
    assert np.array_equal(arrays["Points/position"][order], sim.positions)
    assert np.array_equal(arrays["PointData/moment"][order], sim.moments)

    # Bonds as line cells after the vertex cells: two points each, between the right particles.
    ends = arrays["Lines/connectivity"].ravel()
    assert np.array_equal(arrays["Lines/offsets"].ravel(), 2 * np.arange(1, bonds + 1))
    pairs = ids[ends.reshape(-1, 2)]
    assert {tuple(sorted(map(int, p))) for p in pairs} == set(rest)
    # Cell data: vertex cells first (-1, stretch 0), then the bonds (1 = intact), with their stretch.
    intact = arrays["CellData/bond_intact"].ravel()
    stretch = arrays["CellData/bond_stretch"].ravel()
    assert intact.shape == (n + bonds,) and np.all(intact[:n] == -1) and np.all(intact[n:] == 1)
    assert np.all(stretch[:n] == 0.0)
    by_id = dict(zip(sim.ids.tolist(), sim.positions))
    expected = np.array([(np.linalg.norm(by_id[int(b)] - by_id[int(a)]) - rest[tuple(sorted((int(a), int(b))))]) /
                         rest[tuple(sorted((int(a), int(b))))] for a, b in pairs])
    # Same formula in another order of operations: a few ulps of the length, relative to the rest length.
    assert np.max(np.abs(stretch[n:] - expected)) < 1e-12
    assert np.max(np.abs(stretch[n:])) > 1e-9, "no bond is stretched after 300 steps: the check would be empty"


def test_vtp_read_by_vtk_in_every_encoding(tmp_path):
    """VTK's own vtkXMLPolyDataReader (python3-vtk9), the reader ParaView uses: points, ids, the bonds as line cells."""
    vtk = pytest.importorskip("vtkmodules.vtkIOXML", reason="python3-vtk9 is not installed (scripts/install-deps.sh)")
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkCommonCore import vtkIdList

    sim = lodestone.Simulation(WALKER, threads=1)
    rest = touching_pairs(sim)
    sim.run(steps=300)
    for encoding in ("ascii", "base64", "raw"):
        path = tmp_path / f"{encoding}.vtp"
        sim.export_frame(path, vtk_encoding=encoding)
        reader = vtk.vtkXMLPolyDataReader()
        reader.SetFileName(str(path))
        reader.Update()
        assert reader.GetErrorCode() == 0, encoding
        poly = reader.GetOutput()
        n = len(sim.ids)
        assert poly.GetNumberOfPoints() == n and poly.GetNumberOfLines() == len(rest), encoding
        ids = vtk_to_numpy(poly.GetPointData().GetArray("id")).astype(np.uint64)
        order = np.argsort(ids)
        assert np.array_equal(ids[order], sim.ids), encoding
        assert np.array_equal(vtk_to_numpy(poly.GetPoints().GetData())[order], sim.positions), encoding
        lines = poly.GetLines()
        lines.InitTraversal()
        cell = vtkIdList()
        pairs = set()
        while lines.GetNextCell(cell):
            assert cell.GetNumberOfIds() == 2
            pairs.add(tuple(sorted((int(ids[cell.GetId(0)]), int(ids[cell.GetId(1)])))))
        assert pairs == set(rest), encoding
        intact = vtk_to_numpy(poly.GetCellData().GetArray("bond_intact"))
        assert len(intact) == n + len(rest) and np.all(intact[n:] == 1), encoding
