#!/usr/bin/python3
"""Soak with hands on (issue 41, part 4; docs/reliability.md "Soak with hands on"): the desktop app under Xvfb driven
through `lodestone --remote` as a student's hands would drive it, at random from a fixed seed: steps, drags and
releases, adds (copies of a particle at random points: those that would overlap are refused, as designed), deletes,
holds, the lid on and off, rewinds to steps seen before, undo and redo. It fails when

  - a command is not answered within --answer-seconds, the app crashes or prints a sanitizer report, or a good
    command is refused for another reason than one the script allows (an overlap, nothing to undo or redo, ...);
  - after a run stopped on a failed check (a hard pull can press two magnets into each other), `recover` does not
    take the run back to health, as a user would;
  - the state's hash after a rewind to step S differs from the hash recorded at S (hashes are recorded before each
    action; an action at step T drops those of steps >= T, whose states it changed);
  - the app's resident memory grows after the warm-up by more than its history budget plus --rss-slack-mib;
  - the saved session, replayed by lodestone-run to the last step, does not end on the app's last hash.

    scripts/soak_hands.py [--seconds 1800] [--actions N] [--seed 1] [--build build] [--preset tests/data/magnets-in-box.json]

--actions N stops after N actions (a run of a given seed is then the same whatever the machine's speed). Needs
$DISPLAY (or runs itself under xvfb-run). The tests run 2000 actions of seed 1; the 30-minute run is on demand.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from remote_app import RemoteApp, run_under_xvfb_without_display  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HISTORY_MIB = 32
# Refusals a random hand can meet by design: anything else refused is a failure.
ALLOWED_REFUSALS = re.compile(r"would overlap|is not inside the box|would be above the lid|nothing to undo|"
                              r"nothing to redo|no drag is active|is being dragged|no particle has id|"
                              r"all that is left of the scene|a pebble of a magnet|there is no lid|"
                              r"is not kept|before the first kept|beyond the furthest")


class Soak:
    def __init__(self, remote, rng, args):
        self.remote, self.rng, self.args = remote, rng, args
        self.recorded = {}  # step -> hash seen there on the current branch of the run
        self.ids, self.step = [], 0
        self.actions = 0
        self.counts = {"commands": 0, "refused as designed": 0, "rewinds checked": 0, "recoveries": 0}
        self.failures = []
        self.notes = []  # lines the app printed on its own: "stopped: ..." when a check failed
        self.seen_notes = 0
        self.log = []  # the commands sent, for the report of a failure

    def ask(self, line):
        self.counts["commands"] += 1
        self.log = (self.log + [line])[-12:]
        answer = self.remote.ask(line, self.args.answer_seconds, self.notes)
        if answer is None:
            code = self.remote.process.poll()
            raise RuntimeError(f"no answer to {line!r}" if code is None else f"the app ended ({code}) on {line!r}")
        if "on a failed check" in answer or self.stopped():
            self.recover(line)
            return answer
        if answer.startswith("refused:"):
            if not ALLOWED_REFUSALS.search(answer):
                self.failures.append(f"{line!r} refused: {answer}")
            self.counts["refused as designed"] += 1
        return answer

    def stopped(self):
        """A check failed since the last look (the app printed "stopped: ..." on its own)."""
        fresh = len(self.notes) > self.seen_notes and any(n.startswith("stopped:") for n in self.notes[self.seen_notes:])
        self.seen_notes = len(self.notes)
        return fresh

    def recover(self, line):
        """What a user does after a blow-up: `recover`, back to before the edit that caused it; the run must then be
        healthy again."""
        self.counts["recoveries"] += 1
        answer = self.remote.ask("recover", self.args.answer_seconds, self.notes)
        self.seen_notes = len(self.notes)
        health = self.remote.ask("status", self.args.answer_seconds, self.notes) or ""
        if not (answer or "").startswith("undone:") or "healthy=1" not in health:
            self.failures.append(f"after {line!r} stopped the run ({self.notes[-1] if self.notes else '?'}), recover "
                                 f"answered {answer!r} and status {health!r}")
        self.acted()

    def status(self):
        answer = self.ask("status")
        self.step = int(re.search(r"step=(\d+)", answer).group(1))
        return answer

    def hash_here(self):
        return self.ask("hash").split()[-1]

    def record(self):
        self.status()
        self.recorded[self.step] = self.hash_here()

    def acted(self, began=None):
        """An action changed the state from the step it began at (a pull began before the steps it spans) or the step
        it went back to (an undo of a pull, a recover), whichever is earlier: hashes from there on no longer hold."""
        self.status()
        since = self.step if began is None else min(began, self.step)
        self.recorded = {s: h for s, h in self.recorded.items() if s < since}

    def coordinates(self):
        """A random point inside the box of magnets-in-box.json (10 mm a side), in millimetres."""
        return [f"{self.rng.uniform(-4.2, 4.2):.3f}mm" for _ in range(3)]

    def point(self):
        return " ".join(self.coordinates())

    def one_action(self):
        self.actions += 1
        r = self.rng.random()
        self.record()
        began = self.step
        if r < 0.30:
            self.ask(f"step {self.rng.choice([5, 20, 50, 120])}")
            return
        if r < 0.40 and self.recorded:
            target = self.rng.choice(sorted(self.recorded))
            answer = self.ask(f"rewind {target}")
            if answer.startswith("ok rewind"):
                self.status()
                got = self.hash_here()
                self.counts["rewinds checked"] += 1
                if got != self.recorded[target]:
                    self.failures.append(f"rewind {target}: hash {got}, recorded {self.recorded[target]}")
            return
        if r < 0.52 and self.ids:
            particle = self.rng.choice(self.ids)
            self.ask(f"drag {particle} {self.point()}")
            self.ask("step 10")
            self.ask(f"drag {particle} {self.point()}")
            self.ask("step 10")
            self.ask("release")
        elif r < 0.62 and self.ids:
            position = ", ".join('"%s"' % c for c in self.coordinates())
            answer = self.ask('add {"copy": %d, "position": [%s]}' % (self.rng.choice(self.ids), position))
            found = re.search(r"add particle (\d+)", answer)
            if answer.startswith("ok") and found:
                self.ids.append(int(found.group(1)))
        elif r < 0.68 and len(self.ids) > 2:
            particle = self.rng.choice(self.ids)
            if self.ask(f"delete {particle}").startswith("ok"):
                self.ids.remove(particle)
        elif r < 0.76 and self.ids:
            self.ask(f"hold {self.rng.choice(self.ids)} {self.rng.choice(['both', 'position', 'orientation', 'none'])}")
        elif r < 0.82:
            self.ask(self.rng.choice(["lid 1 Pa", "lid 3 Pa", "lid off"]))  # ~1e-4 N on the box top
        elif r < 0.91:
            self.ask("undo")
        else:
            self.ask("redo")
        self.acted(began)
        # An undo can bring back a deleted particle or take an added one away: the script asks for the ids again.
        self.ids = self.read_ids()

    def read_ids(self):
        """The particle ids the app's scene has now (the remote's `ids`)."""
        answer = self.ask("ids")
        if not answer.startswith("ids"):
            raise RuntimeError(f"ids answered {answer!r}")
        return [int(v) for v in answer.split()[1:]]


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def replay_hash(runner, saved, steps):
    out = subprocess.run([runner, saved, "--steps", str(steps), "--threads", "1", "--hash", "-q", "--table", "0"],
                         capture_output=True, text=True)
    found = re.search(r"^hash (\S+)", out.stdout, re.M)
    return found.group(1) if found else f"(none: exit {out.returncode}: {out.stderr.strip()[-200:]})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1800.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--actions", type=int, default=0, help="stop after this many actions (0: only --seconds)")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--preset", default=os.path.join(ROOT, "tests", "data", "magnets-in-box.json"))
    parser.add_argument("--answer-seconds", type=float, default=120.0)
    parser.add_argument("--rss-slack-mib", type=float, default=64.0)
    args = parser.parse_args()
    run_under_xvfb_without_display("soak_hands")
    app = os.path.join(args.build, "app", "desktop", "lodestone")
    runner = os.path.join(args.build, "app", "runner", "lodestone-run")
    folder = tempfile.mkdtemp(prefix="lodestone-soak-hands.")
    env_state = os.path.join(folder, "state")
    os.environ["XDG_STATE_HOME"] = env_state  # the app's autosaves go with the folder
    remote = RemoteApp(app, ["--paused", "--threads", "1", "--size", "900x600", "--history-mib", str(HISTORY_MIB),
                             "--preset", os.path.abspath(args.preset)], cwd=folder)
    soak = Soak(remote, random.Random(args.seed), args)
    baseline = peak = 0.0
    start = time.monotonic()
    failure = None
    try:
        soak.ids = soak.read_ids()
        actions = 0
        while time.monotonic() - start < args.seconds and not soak.failures and (not args.actions or
                                                                                  actions < args.actions):
            soak.one_action()
            actions += 1
            rss = resident_mib(remote.process.pid)
            if not baseline and time.monotonic() - start > min(60.0, args.seconds / 3):
                baseline = rss
            peak = max(peak, rss)
        soak.status()
        last_step, last_hash = soak.step, soak.hash_here()
        saved = os.path.join(folder, "session.json")
        if not soak.ask(f"save {saved}").startswith("ok"):
            soak.failures.append("the session was not saved")
        else:
            replayed = replay_hash(runner, saved, last_step)
            if replayed != last_hash:
                soak.failures.append(f"the saved session replays to hash {replayed} at step {last_step}, the app "
                                     f"had {last_hash}")
    except RuntimeError as e:
        failure = str(e)
    code = remote.close(timeout=30)
    reports = [e for e in remote.errors if "Sanitizer" in e or "runtime error" in e]
    growth = peak - (baseline or peak)
    if growth > HISTORY_MIB + args.rss_slack_mib:
        soak.failures.append(f"memory grew by {growth:.0f} MiB after the warm-up (bound: history {HISTORY_MIB} MiB "
                             f"+ {args.rss_slack_mib:g} MiB)")
    print(f"soak_hands: seed {args.seed}, {soak.actions} actions, {time.monotonic() - start:.0f} s: " +
          ", ".join(f"{v} {k}" for k, v in soak.counts.items()) +
          f"; step {soak.step}; memory baseline {baseline:.0f} MiB, peak {peak:.0f} MiB; quit -> exit code {code}")
    problems = ([failure] if failure else []) + soak.failures + reports + ([f"exit code {code}"] if code != 0 else [])
    if problems:
        print("soak_hands: FAILED:\n  " + "\n  ".join(problems[:10]))
        print("the last commands:\n  " + "\n  ".join(soak.log) + "\nnotes:\n  " + "\n  ".join(soak.notes[-5:]))
        print("last lines on stderr:\n  " + "\n  ".join(remote.errors[-10:]))
        return 1
    shutil.rmtree(folder, ignore_errors=True)
    print("soak_hands: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
