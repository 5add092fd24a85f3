#!/usr/bin/python3
"""How long one edit takes, measured as a user makes it (docs/performance.md, "Edits: one value, not the document").

    PYTHONPATH=build/python bench/edit_latency.py [--particles N] [--repeats R] [--app build/app/desktop/lodestone]

Builds a scene of N particles (chains-suspension's material and density, the box scaled to keep its volume
fraction) and saves it twice: with the particles listed one by one (particles.kind list: what a saved scene
holds) and with the generator. For each it prints the median and the range of R times of
  - Python: sim.set('field.strength', ...), a batch sim.set({...}) of three values, sim.get('field.strength');
  - with --app: the desktop app driven through `lodestone --remote` under Xvfb (xvfb-run): from writing
    `set field.strength ...` to reading its `ok`, and the same for `get`; each sent after a second of quiet, as a
    person or a script that reads the answer sends the next (the paused app at rest: app/desktop/scene_view.hpp);
    and `set` sent back to back, the moment the last answer came, when it waits for the frame being drawn.
The times are wall times on this machine; compare builds side by side in one run.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import lodestone

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "..", "presets", "chains-suspension.json")


def scenes(particles, folder):
    preset = json.load(open(BASE))
    length = 16e-3 * (particles / 400.0) ** (1.0 / 3.0)  # 400 particles in 16 mm
    preset["box"]["max"] = [length, length, length]
    preset["particles"]["count"] = particles
    preset.pop("protocol", None)
    generated = os.path.join(folder, "generated.json")
    json.dump(preset, open(generated, "w"))
    sim = lodestone.Simulation(generated, threads=1)
    listed = dict(preset)
    listed["particles"] = {
        "kind": "list",
        "particles": [{"position": [float(x) for x in p], "radius": float(r), "axis": [float(x) for x in a]}
                      for p, r, a in zip(sim.positions, sim.radii, sim.easy_axes)]}
    listed_path = os.path.join(folder, "listed.json")
    json.dump(listed, open(listed_path, "w"))
    return {"listed": listed_path, "generated": generated}


def summary(seconds):
    ms = sorted(1e3 * s for s in seconds)
    return f"{statistics.median(ms):8.3f} ms (range {ms[0]:.3f} - {ms[-1]:.3f})"


def timed(action, repeats, quiet=0.0):
    out = []
    for k in range(repeats):
        time.sleep(quiet)
        start = time.perf_counter()
        action(k)
        out.append(time.perf_counter() - start)
    return out


def python_times(path, repeats):
    sim = lodestone.Simulation(path, threads=1)
    sim.run(steps=5)
    rows = {
        "set": timed(lambda k: sim.set("field.strength", f"{10 + k % 7} mT"), repeats),
        "set 3 values": timed(lambda k: sim.set({"field.strength": f"{10 + k % 7} mT",
                                                 "environment.translational_damping": 0.01 * (1 + k % 3),
                                                 "materials.0.friction": 0.1 + 0.01 * (k % 5)}), repeats),
        "get": timed(lambda k: sim.get("field.strength"), repeats),
    }
    return rows


def remote_times(app, path, repeats):
    command = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", app, path, "--remote", "--paused"]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, bufsize=1)

    def ask(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        while True:
            answer = proc.stdout.readline()
            if not answer:
                raise RuntimeError(f"the app ended while answering {line!r}")
            if answer.startswith(("ok", "value", "refused", "confirm")):
                return answer

    ask("sync")
    rows = {
        "remote set": timed(lambda k: ask(f"set field.strength {10 + k % 7} mT"), repeats, quiet=1.0),
        "remote get": timed(lambda k: ask("get field.strength"), repeats, quiet=1.0),
        "remote set, back to back": timed(lambda k: ask(f"set field.strength {10 + k % 7} mT"), repeats),
    }
    ask("quit") if proc.poll() is None else None
    proc.wait(timeout=30)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--particles", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--app", help="the desktop app, to time the remote set and get as well")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, path in scenes(args.particles, folder).items():
            rows = python_times(path, args.repeats)
            if args.app:
                rows.update(remote_times(args.app, path, args.repeats))
            for what, seconds in rows.items():
                print(f"{args.particles} {name:9s} {what:13s} {summary(seconds)}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
