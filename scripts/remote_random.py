#!/usr/bin/python3
"""Random commands for `lodestone --remote` (issue 43, docs/reliability.md "The remote channel"): every verb, good
values and bad ones (NaN, huge numbers, bad JSON, random bytes), long requests and pauses sent while they run, over several presets, from
a fixed seed. It fails when a command is not answered within --answer-seconds (120), when the app crashes or prints a
sanitizer report, or when `quit` does not end it with exit code 0.

    scripts/remote_random.py [--seconds 600] [--seed 1] [--app build/app/desktop/lodestone] [--answer-seconds 120]

Needs $DISPLAY (or runs itself under xvfb-run). The tests run it for 20 s; the 10-minute run is on demand.
"""
import argparse
import os
import random
import shutil
import string
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from remote_app import RemoteApp, run_under_xvfb_without_display  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PRESETS = ["chains-and-rings", "bar-magnets", "two-dipoles", "field-switch-on", "compass-needles", "magnets-meeting"]
PATHS = ["field.strength", "field.direction", "materials.0.friction", "environment.translational_damping",
         "run.time_step", "view.pace", "contact.linear.kn", "magnetics.cutoff", "field.frequency", "box.max",
         "particles.count", "nonsense.path", "materials.9.friction", "field"]
VALUES = ["25 mT", "0", "0.3", "-1", "1e308", "-1e308", "NaN", "nan", "Infinity", "\"\"", "[0, 0, 1]", "[1, 2]",
          "{\"a\": 1}", "true", "\"40 kOe\"", "40 mT", "banana", "[", "{", "\"1 fortnight\"", "1e-30", "3 mm"]


def number(rng):
    return rng.choice(["1", "5", "0", "-3", "99999999", "1e9", "NaN", "1.5", "2147483648", "abc", "", "18446744073709551616"])


def span(rng):
    return rng.choice(["2 ms", "0.5 s", "1e9s", "0", "-1 s", "NaN s", "1 fortnight", "1e-9 s", "0.05", ""])


def point(rng):
    coordinate = lambda: rng.choice(["0", "1mm", "-2mm", "1e9", "NaN", "x", "0.5 mm"])  # noqa: E731
    return " ".join(coordinate() for _ in range(rng.choice([3, 3, 3, 2, 4])))


def garbage(rng):
    alphabet = string.printable.replace("\n", "").replace("\r", "") + "\u00b5\u00e9\u2603"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60))).strip() or "x"


def command(rng, folder):
    """One random command line (never empty: an empty line is not answered, by design)."""
    verbs = [
        lambda: f"set {rng.choice(PATHS)} {rng.choice(VALUES)}",
        lambda: "confirm", lambda: "cancel",
        lambda: f"get {rng.choice(PATHS)}",
        lambda: "run", lambda: "pause", lambda: "reset",
        lambda: f"step {number(rng)}", lambda: f"advance {span(rng)}",
        lambda: "hash", lambda: "history",
        lambda: f"rewind {number(rng)}",
        lambda: "undo", lambda: "redo", lambda: "recover",
        lambda: f"back {span(rng)}",
        lambda: f"load {rng.choice([os.path.join(ROOT, 'presets', rng.choice(PRESETS) + '.json'), 'missing.json', folder])}",
        lambda: f"save {rng.choice([os.path.join(folder, 'saved.json'), '/proc/nope/x.json', folder])}",
        lambda: "status",
        lambda: f"field-at {point(rng)}" + rng.choice(["", " exact"]),
        lambda: f"drag {number(rng)} {point(rng)}" + rng.choice(["", " 2", " 1e9", " x"]),
        lambda: "release",
        lambda: "add " + rng.choice(["{\"position\": [0, 0, \"2 mm\"], \"radius\": \"0.5 mm\"}",
                                     "{\"copy\": 0, \"position\": [\"3 mm\", 0, \"3 mm\"]}", "{\"shape\": \"bar\"}",
                                     "{", "[]", "{\"position\": [\"NaN\", 0, 0]}"]),
        lambda: f"delete {number(rng)}",
        lambda: "lid " + rng.choice(["0.5 atm", "off", "-1 atm", "NaN", "1e30 Pa", "2 bar"]),
        lambda: "sync",
        lambda: "key " + rng.choice(["space", "escape", "delete", "r", "f", "tab", "f1", "q", ""]),
        lambda: "view",
        lambda: "field-view " + rng.choice(["off", "slice", "lines", "both z", "slice x 1mm", "slice q", "bogus"]),
        lambda: "color " + rng.choice(["cluster", "alignment", "moment", "speed", "nope"]),
        lambda: "frame " + rng.choice(["all", "selection", "x"]),
        lambda: f"select {number(rng)}",
        lambda: "sidebar " + rng.choice(["show", "hide", "300", "5", "NaN"]),
        lambda: "hints " + rng.choice(["show", "hide", "maybe"]),
        lambda: "help", lambda: "about",
        lambda: garbage(rng),
    ]
    return rng.choice(verbs)()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--app", default=os.path.join(ROOT, "build", "app", "desktop", "lodestone"))
    parser.add_argument("--answer-seconds", type=float, default=120.0,
                        help="the longest wait for one answer: a step estimated at under a minute is answered when "
                             "it is done, and an estimate from its first steps can be off")
    args = parser.parse_args()
    run_under_xvfb_without_display("remote_random")

    rng = random.Random(args.seed)
    folder = tempfile.mkdtemp(prefix="lodestone-remote-random.")
    remote = RemoteApp(os.path.abspath(args.app), ["--paused", "--size", "900x600", "--history-mib", "32"], cwd=folder)
    sent, answered, notes, slowest = 0, 0, [], (0.0, "")
    failure = None
    end = time.monotonic() + args.seconds
    try:
        while time.monotonic() < end:
            line = command(rng, folder)
            together = line.startswith(("step", "advance")) and rng.random() < 0.2  # a pause right behind it
            start = time.monotonic()
            remote.send(line)
            if together:  # read while the step runs: acted on at once
                time.sleep(rng.choice([0.0, 0.05, 0.3]))
                remote.send("pause")
            sent += 1
            for expected in [line] + (["pause"] if together else []):
                arrived, text = remote.answer(args.answer_seconds, notes)
                if text is None:
                    code = remote.process.poll()
                    failure = (f"no answer to {expected!r} within {args.answer_seconds:g} s" if arrived is None else
                               f"the app ended (exit code {code}) while answering {expected!r}")
                    break
                answered += 1
                slowest = max(slowest, (arrived - start, line))
            if failure:
                break
            if rng.random() < 0.02:  # now and then a fresh, healthy scene, so that not every command is refused
                remote.ask(f"load {os.path.join(ROOT, 'presets', rng.choice(PRESETS) + '.json')}", args.answer_seconds,
                           notes)
    finally:
        code = remote.close(timeout=30) if failure is None else (remote.close(timeout=5), None)[1]
    reports = [e for e in remote.errors if "Sanitizer" in e or "runtime error" in e]
    print(f"remote_random: seed {args.seed}, {args.seconds:g} s: {sent} commands sent, {answered} answers, "
          f"{len(notes)} lines printed on the app's own (stops, late answers); slowest answer "
          f"{slowest[0]:.2f} s ({slowest[1]!r}); quit -> exit code {code}")
    if failure or code != 0 or reports:
        print("remote_random: FAILED: " + (failure or (f"exit code {code}" if code != 0 else reports[0])))
        print("last lines on stderr:\n  " + "\n  ".join(remote.errors[-20:]))
        return 1
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
