#!/usr/bin/env bash
# Installs every Debian 12 package Lodestone needs to build, run and test.
# Needs root (or sudo). Skips apt entirely when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  # the formatting check (scripts/check-format.sh, .ci/run)
  clang-format
  libeigen3-dev nlohmann-json3-dev libcli11-dev catch2
  # FFTs for the dipolar P3M method (engine/magnetic/p3m.cpp)
  libfftw3-dev
  # trajectories outside the engine (app/trajectory/): H5MD through HDF5, gzip-compressed frames through zlib;
  # h5py reads the H5MD files back in the tests, the gsd package the GSD files (written without a library)
  libhdf5-dev zlib1g-dev python3-h5py python3-gsd
  # desktop app: Qt 6 widgets + OpenGL, Dear ImGui (with its OpenGL 3 backend), GLM, Mesa
  qt6-base-dev libqt6opengl6-dev libimgui-dev libglm-dev libgl-dev libegl-dev libgl1-mesa-dri
  # GUI tests and screenshots on a machine without a display
  xvfb xauth mesa-utils
  # export tests: the VTK files parsed by Python's XML parser, the LAMMPS dump read by LAMMPS (lmp)
  python3 lammps
  # the Python module (python/, docs/python.md) and its tests; our frames read by ASE and meshio (tests/python/test_readers.py)
  pybind11-dev python3-dev python3-numpy python3-pytest python3-ase python3-meshio python3-vtk9
  # cmake --install: man pages from --help, and the install test's check of the desktop entry
  help2man desktop-file-utils
  # movies from the app (MP4 through ffmpeg) and their test (ffprobe)
  ffmpeg
  # sweep tests: the --cluster-format parallel script run by GNU parallel
  parallel
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
