#!/usr/bin/env python3
"""Runs lodestone-run with --frames run.vtp and --field-slice SPEC slice and checks the VTK files with
Python's own XML parser, independently of the C++ code that wrote them: the .pvd is a VTK Collection
listing every frame (existing files, times ascending, as many as the run wrote); each .vtp is VTK PolyData
whose every DataArray holds NumberOfComponents x NumberOfPoints values (field data: x NumberOfTuples),
with one vertex cell per point and the point arrays docs/outputs.md lists; each field slice .vti is VTK
ImageData one node thick whose B and B_magnitude arrays hold 3 and 1 values per node of its extent.

usage: check_vtk_files.py LODESTONE_RUN PRESET
"""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as E

POINT_ARRAYS = {
    "id": 1, "material": 1, "radius": 1, "velocity": 3, "angular_velocity": 3, "orientation": 4,
    "easy_axis": 3, "moment": 3, "force": 3, "torque": 3, "alignment": 1, "cluster": 1,
}
STEPS, EVERY = 20, 10


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def values(array):
    words = (array.text or "").split()
    for w in words:
        float(w)  # every value is a number
    return words


def check_vtp(path, expected_time):
    root = E.parse(path).getroot()
    if root.tag != "VTKFile" or root.get("type") != "PolyData":
        fail(f"{path}: root is {root.tag} type={root.get('type')}, expected VTKFile type=PolyData")
    pieces = root.findall("./PolyData/Piece")
    if len(pieces) != 1:
        fail(f"{path}: {len(pieces)} Piece elements, expected 1")
    piece = pieces[0]
    n = int(piece.get("NumberOfPoints"))
    if n <= 0 or int(piece.get("NumberOfVerts")) != n:
        fail(f"{path}: NumberOfPoints={n}, NumberOfVerts={piece.get('NumberOfVerts')}")
    for array in root.findall("./PolyData/FieldData/DataArray"):
        count = int(array.get("NumberOfTuples")) * int(array.get("NumberOfComponents", "1"))
        if len(values(array)) != count:
            fail(f"{path}: field data {array.get('Name')} has {len(values(array))} values, expected {count}")
    time = float(values(root.find("./PolyData/FieldData/DataArray[@Name='TimeValue']"))[0])
    if abs(time - expected_time) > 1e-9 * max(abs(time), 1e-300):
        fail(f"{path}: TimeValue {time} but the .pvd says {expected_time}")
    names = {}
    for section in ("PointData", "Points", "Verts"):
        for array in piece.findall(f"./{section}/DataArray"):
            components = int(array.get("NumberOfComponents", "1"))
            got = len(values(array))
            if got != components * n:
                fail(f"{path}: {section} array {array.get('Name')}: {got} values, expected {components} x {n}")
            names[(section, array.get("Name"))] = (components, array)
    for name, components in POINT_ARRAYS.items():
        if names.get(("PointData", name), (None,))[0] != components:
            fail(f"{path}: point array {name} with {components} components missing")
    points = piece.findall("./Points/DataArray")
    if len(points) != 1 or int(points[0].get("NumberOfComponents")) != 3:
        fail(f"{path}: Points must hold one 3-component array")
    connectivity = [int(v) for v in values(names[("Verts", "connectivity")][1])]
    offsets = [int(v) for v in values(names[("Verts", "offsets")][1])]
    if connectivity != list(range(n)) or offsets != list(range(1, n + 1)):
        fail(f"{path}: Verts are not one vertex per point")
    return n


SLICE_SPEC, SLICE_NODES = "z=1mm,nx=7,ny=5", (7, 5)


def check_vti(path, expected_time):
    root = E.parse(path).getroot()
    if root.tag != "VTKFile" or root.get("type") != "ImageData":
        fail(f"{path}: root is {root.tag} type={root.get('type')}, expected VTKFile type=ImageData")
    image = root.find("./ImageData")
    extent = [int(v) for v in image.get("WholeExtent").split()]
    if extent != [0, SLICE_NODES[0] - 1, 0, SLICE_NODES[1] - 1, 0, 0]:
        fail(f"{path}: WholeExtent {extent} for {SLICE_SPEC}")
    if len(image.get("Origin").split()) != 3 or any(float(v) <= 0 for v in image.get("Spacing").split()):
        fail(f"{path}: Origin {image.get('Origin')}, Spacing {image.get('Spacing')}")
    pieces = image.findall("./Piece")
    if len(pieces) != 1 or [int(v) for v in pieces[0].get("Extent").split()] != extent:
        fail(f"{path}: expected one Piece with the whole extent")
    time = float(values(root.find("./ImageData/FieldData/DataArray[@Name='TimeValue']"))[0])
    if abs(time - expected_time) > 1e-9 * max(abs(time), 1e-300):
        fail(f"{path}: TimeValue {time} but the .pvd says {expected_time}")
    n = SLICE_NODES[0] * SLICE_NODES[1]
    arrays = {a.get("Name"): a for a in pieces[0].findall("./PointData/DataArray")}
    for name, components in (("B", 3), ("B_magnitude", 1)):
        if name not in arrays or int(arrays[name].get("NumberOfComponents")) != components:
            fail(f"{path}: point array {name} with {components} components missing")
        if len(values(arrays[name])) != components * n:
            fail(f"{path}: {name} has {len(values(arrays[name]))} values, expected {components} x {n}")


def check_collection(path, frames):
    root = E.parse(path).getroot()
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        fail(f"{path}: root is {root.tag} type={root.get('type')}, expected VTKFile type=Collection")
    datasets = root.findall("./Collection/DataSet")
    if len(datasets) != frames:
        fail(f"{path} lists {len(datasets)} data sets, expected {frames}")
    times = [float(d.get("timestep")) for d in datasets]
    if times != sorted(times) or len(set(times)) != len(times):
        fail(f"{path}: times not increasing: {times}")
    return datasets, times


def main():
    runner, preset = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="lodestone-vtk-") as directory:
        command = [runner, preset, "--steps", str(STEPS), "--frames", "run.vtp", "--frames-every", str(EVERY),
                   "--field-slice", SLICE_SPEC, "slice", "--quiet", "--table", "0"]
        result = subprocess.run(command, cwd=directory, capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"{' '.join(command)} exited {result.returncode}:\n{result.stdout}{result.stderr}")
        frames = STEPS // EVERY + 1
        datasets, times = check_collection(os.path.join(directory, "run.pvd"), frames)
        slices, slice_times = check_collection(os.path.join(directory, "slice.pvd"), frames)
        if slice_times != times:
            fail(f"slice.pvd times {slice_times} differ from run.pvd's {times}")
        for d, time in zip(slices, slice_times):
            check_vti(os.path.join(directory, d.get("file")), time)
        counts = set()
        for d, time in zip(datasets, times):
            counts.add(check_vtp(os.path.join(directory, d.get("file")), time))
        if len(counts) != 1:
            fail(f"frames with different point counts: {counts}")
        leftovers = [f for f in os.listdir(directory) if ".tmp" in f]
        if leftovers:
            fail(f"temporary files left behind: {leftovers}")
        print(f"ok: run.pvd lists {frames} frames of {counts.pop()} points, times {times}; slice.pvd {frames} slices")


if __name__ == "__main__":
    main()
