"""Type stubs of the compiled module `lodestone` (docs/python.md), written by scripts/make_stubs.py from the
module's own signatures: do not edit by hand."""
import os
from typing import Any, Optional

import numpy
from numpy.typing import NDArray

__version__: str

class CheckpointError(ValueError):
    """A checkpoint that cannot be read (damaged, another version) or written."""

class ConfirmationNeeded(ValueError):
    """An edit the app would ask about first (a field beyond any laboratory magnet, a time step that collapses); set(..., confirm=True) applies it."""

class ExportError(OSError):
    """A frame file that cannot be written."""

class PresetError(ValueError):
    """A bad preset or value. str(e) is the engine's message; e.path the JSON path at fault ("$.field.strength"), e.message what is wrong and what is allowed."""

class SimulationStopped(RuntimeError):
    """The run stopped on a failed check (NaN, runaway overlap, a particle through a wall); the message names the particle and the likely cause. The state is kept."""

class Session:
    """A scene being run: the engine's Session, as in the app and lodestone-run (also named Simulation, its earlier name). The same preset and thread count give the same bits as `lodestone-run`."""

    def __init__(self, preset: Any = None, *, threads: Optional[int] = None) -> None:
        """Builds the scene of a preset: a path (str or os.PathLike), JSON text (a str starting with '{'), a dict (the JSON object of a preset file), or None for the built-in default scene. threads: engine threads (default: all hardware threads, as lodestone-run). Raises PresetError naming the JSON path at fault."""
        ...
    def __len__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def angular_velocities(self) -> NDArray[numpy.float64]:
        """Angular velocities (N, 3) [rad/s], world frame, in id order (a copy)."""
        ...
    def clusters(self) -> dict:
        """Clusters of particles in contact, as a dict of numpy arrays, one row per cluster: label (its smallest particle id), size, contacts, moment (K, 3) [A m^2], chain, ring; and particle_cluster, the label of each particle's cluster in id order."""
        ...
    @property
    def dt(self) -> float:
        """The time step in use [s]."""
        ...
    @property
    def easy_axes(self) -> NDArray[numpy.float64]:
        """Easy axes (N, 3), unit, world frame, in id order (a copy)."""
        ...
    def export_frame(self, path: str | os.PathLike[str], vtk_encoding: str = 'ascii') -> None:
        """Writes the particles now to a file whose extension picks the format: .vtp (ParaView), .xyz (OVITO), .dump or .lammpstrj (LAMMPS), .csv (docs/outputs.md); bonds included. vtk_encoding: a .vtp's arrays as ascii, base64 or raw (binary appended). Raises ExportError, or ValueError for an unknown encoding."""
        ...
    def field_at(self, points: NDArray[numpy.float64], *, exact: bool = False, applied: bool = True, moments: bool = True) -> NDArray[numpy.float64]:
        """The total magnetic field B [T] at points [m] of shape (3,) or (M, 3): the applied field plus every moment summed as the forces do (magnetics.method), or all of them with exact=True; inside a sphere its own term is the uniform interior field (docs/physics.md, 'Field evaluation'). applied=False or moments=False leave that part out."""
        ...
    @property
    def forces(self) -> NDArray[numpy.float64]:
        """Total forces of the last force pass (N, 3) [N], in id order (a copy)."""
        ...
    @staticmethod
    def from_checkpoint(path: str | os.PathLike[str], *, threads: Optional[int] = None) -> Session:
        """Continues a checkpoint (save_checkpoint, lodestone-run --checkpoint) with its own preset: with the same thread count the next steps are bit-identical to those the saved run would have made."""
        ...
    def get(self, path: str) -> Any:
        """The value in force at a dotted path, in the preset's unit system as its saved file holds it (SI, or the reduced units of a preset in units lj): sim.get('field.strength')."""
        ...
    def go(self) -> str:
        """Ends the running protocol phase that waits for the user (a phase with 'wait', field-switch-on's 'Switch the field on') and starts the next, as the app's button: sim.go() -> 'went on: now phase 2/2 field on'. A script need not call it (run() ends such a phase at its duration, as lodestone-run does), but a go() ends it now. Recorded in the timeline, so save_preset() replays it. Raises PresetError when the running phase does not wait (see waiting)."""
        ...
    def hold(self, particle_id: int, what: str = 'both') -> str:
        """Holds a sphere still from now on, as the app's 'Hold still': what='position' (it may still turn), 'orientation' (it may still move), 'both', or 'none' to let it go. The forces and torques on it are still computed; its held velocities become zero (their kinetic energy is booked as hold_work). Recorded in the timeline, so save_preset() replays it. Raises PresetError for an unknown id or a clump's pebble."""
        ...
    @property
    def ids(self) -> NDArray[numpy.uint64]:
        """Particle ids, ascending (N,) uint64: row k of every particle array belongs to ids[k]."""
        ...
    @property
    def images(self) -> NDArray[numpy.int32]:
        """Periodic image flags (N, 3) int32, in id order (a copy): the box lengths each particle has crossed along x, y, z (LAMMPS's ix iy iz; 0 on axes that are not periodic). The unwrapped centre is positions + images * L."""
        ...
    @property
    def moments(self) -> NDArray[numpy.float64]:
        """Magnetic moments (N, 3) [A m^2], world frame, in id order (a copy)."""
        ...
    def observe(self) -> dict:
        """The time-series row of now as a dict, keyed by the columns of lodestone-run --series (docs/outputs.md): energies, alignment, magnetisation, contacts, clusters..."""
        ...
    @property
    def orientations(self) -> NDArray[numpy.float64]:
        """Orientations (N, 4), unit quaternions body -> world as x, y, z, w (scalar last, as scipy.spatial.transform.Rotation.from_quat), in id order (a copy)."""
        ...
    @property
    def phase(self) -> str:
        """The running protocol phase, '2/3 drop', or '' without a protocol."""
        ...
    @property
    def positions(self) -> NDArray[numpy.float64]:
        """Centres (N, 3) [m], in id order (a copy)."""
        ...
    @property
    def preset(self) -> dict:
        """The preset save_preset writes, as a dict: the one loaded, with its timeline of changes."""
        ...
    @property
    def radii(self) -> NDArray[numpy.float64]:
        """Radii (N,) [m], in id order (a copy)."""
        ...
    def redo(self) -> Optional[str]:
        """Redoes the last undone set(); returns what it redid, or None."""
        ...
    def reset(self) -> None:
        """Back to t = 0 with the parameters in force, as the app's Reset: the set() edits so far become the scene's own, so a changed generator (particles.count, particles.seed) takes effect here."""
        ...
    def run(self, *, steps: Optional[int] = None, time: Optional[float] = None, progress: Any = None) -> int:
        """Runs `steps` steps or `time` seconds of simulated time (one of them), releasing the GIL; Ctrl+C interrupts between steps (KeyboardInterrupt says at which step; the state is kept there). Protocol phases and timeline entries apply as the run reaches them. progress: a callable, called as progress(fraction, steps_done) about twice a second and once at the end (e.g. to drive a progress bar). Returns the steps done. Raises SimulationStopped when a check fails (the state it stopped on is kept)."""
        ...
    def save_checkpoint(self, path: str | os.PathLike[str]) -> None:
        """Writes the whole state and its preset (atomically), bit for bit: Session.from_checkpoint and lodestone-run --restart continue it."""
        ...
    def save_preset(self, path: str | os.PathLike[str]) -> None:
        """Writes the preset with the timeline of set() changes (atomically): lodestone-run on it replays this run."""
        ...
    def set(self, path: Any, value: Any = None, *, confirm: bool = False) -> None:
        """Changes a parameter at a dotted path, as the app's panels do: sim.set('field.strength', '40 mT'), sim.set('materials.0.friction', 0.3); or several at once, as one edit: sim.set({'field.strength': '40 mT', 'materials.0.friction': 0.3}). Units are allowed where a preset file allows them; a bare number is in the preset's unit system (in a preset in reduced units, 0.5 of its field unit), as its file reads it. The change applies before the next step and is recorded in the timeline, so save_preset() replays it. Raises PresetError (path, value, what is allowed), or ConfirmationNeeded for a change the app would ask about unless confirm=True."""
        ...
    def state_hash(self) -> str:
        """A 64-bit hash of every particle's id, position, velocity and orientation in id order, as 16 hex digits: the app's `hash` remote command. Equal hashes mean bit-identical motion."""
        ...
    @property
    def step(self) -> int:
        """Steps since the scene began."""
        ...
    @property
    def stopped(self) -> Optional[str]:
        """None while the run is healthy; after a failed check, its message."""
        ...
    @property
    def threads(self) -> int:
        """Engine threads. Runs with the same count are bit-identical; different counts agree to round-off."""
        ...
    @property
    def time(self) -> float:
        """Simulated time [s]."""
        ...
    @property
    def torques(self) -> NDArray[numpy.float64]:
        """Total torques of the last force pass (N, 3) [N m], in id order (a copy)."""
        ...
    def undo(self) -> Optional[str]:
        """Undoes the last set(); returns what it undid, or None."""
        ...
    @property
    def unwrapped_positions(self) -> NDArray[numpy.float64]:
        """Unwrapped centres (N, 3) [m], in id order (a copy): positions + images * L, continuous across periodic boundaries (for mean-square displacements)."""
        ...
    @property
    def velocities(self) -> NDArray[numpy.float64]:
        """Velocities (N, 3) [m/s], in id order (a copy)."""
        ...
    @property
    def waiting(self) -> bool:
        """True while the running protocol phase waits for the user (it has 'wait', e.g. 'Switch the field on'): go() ends it; run() ends it at its duration."""
        ...

Simulation = Session
