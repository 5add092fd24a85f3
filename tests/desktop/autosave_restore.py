#!/usr/bin/python3
"""Autosave and restore after a crash (issue 41): the real app under Xvfb, driven through `lodestone --remote`.

  1. The app runs a scene, gets an edit, a pull and an added bar magnet, autosaves (every 0.2 s here) and is killed
     with SIGKILL: its autosave stays in $XDG_STATE_HOME/lodestone.
  2. The next start with --restore has the same `hash` as the killed app's state, unsaved; its saved document replays
     in lodestone-run (--hash, the same thread count) to that hash.
  3. A plain start restores with the remote verb `restore` ("ok restore STEP") to the same hash (the newest autosave:
     the restored app's, itself killed), and its clean quit removes its autosaves and those it restored.
  4. A truncated autosave is refused by name ("refused: restore: autosave PATH: the file ends inside ...") and moved
     aside to damaged/.

    tests/desktop/autosave_restore.py APP RUNNER    (with $DISPLAY; ctest runs it under xvfb-run)
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from remote_app import RemoteApp, display_environment  # noqa: E402

# Three 1 mm magnets in a box walled on the floor and the sides, open on top, no gravity (shared with
# test_remote_touch.cpp).
SCENE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "magnets-in-box.json")
BAR = ('add {"shape": "bar", "count": 3, "pebble_radius": "0.3 mm", "position": ["0 mm", "0 mm", "3 mm"], '
       '"axis": [1, 0, 0]}')
COMMON = ["--paused", "--size", "640x400", "--threads", "1", "--autosave-seconds", "0.2"]

failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def start(app, work, extra):
    remote = RemoteApp(app, COMMON + extra, cwd=work)
    check(remote.ask("sync", timeout=60) == "ok sync", f"the app starts ({' '.join(extra)}) and answers sync")
    return remote


def status(remote):
    text = remote.ask("status", timeout=10) or ""
    return dict(word.split("=", 1) for word in text.split()[1:] if "=" in word)


def wait_autosaved(remote, step):
    """Polls `status` until the newest autosave written is of `step` (at most 20 s)."""
    end = time.monotonic() + 20.0
    while time.monotonic() < end:
        if status(remote).get("autosaved") == str(step):
            return True
        time.sleep(0.1)
    return False


def kill(remote):
    remote.process.kill()  # SIGKILL: no clean-up of any kind
    remote.process.wait()


def autosaves(state):
    return sorted(glob.glob(os.path.join(state, "lodestone", "autosave", "*", "*.autosave")))


def edit_pull_add_and_crash(app, work, state):
    remote = start(app, work, ["scene.json"])
    for command, answer in [("set field.strength 5 mT", "ok set field.strength"), ("step 30", "ok step 30 now 30"),
                            ("drag 0 0 1mm 1mm", "ok drag particle 0"), ("step 20", "ok step 20 now 50"),
                            ("release", "ok released particle 0"), (BAR, "ok add a bar magnet"),
                            ("step 20", "ok step 20 now 70")]:
        got = remote.ask(command) or ""
        check(got.startswith(answer), f"{command!r} answered {got!r}")
    saved = remote.ask("hash") or ""
    check(saved.startswith("hash "), f"the state's hash ({saved!r})")
    check(wait_autosaved(remote, 70), "the state at step 70 is autosaved within 20 s")
    kill(remote)
    check(len(autosaves(state)) >= 1, f"the killed app left its autosave ({autosaves(state)})")
    return saved


def main(app, runner):
    display_environment()
    work = tempfile.mkdtemp(prefix="lodestone-autosave-")
    state = os.path.join(work, "state")
    os.environ["XDG_STATE_HOME"] = state  # the app's state folder, this test's own
    shutil.copyfile(SCENE, os.path.join(work, "scene.json"))
    try:
        saved = edit_pull_add_and_crash(app, work, state)

        # --restore: the same state, unsaved; saved, it replays headless to it. Killed too: its autosave stays.
        restored = start(app, work, ["--restore"])
        check(restored.ask("hash") == saved, "--restore gives the autosaved state's hash")
        fields = status(restored)
        check(fields.get("step") == "70" and fields.get("unsaved") == "1",
              f"restored at step 70, unsaved ({fields})")
        check(restored.ask("save restored.json") == "ok save restored.json", "the restored session is saved")
        check(wait_autosaved(restored, 70), "the restored session is autosaved in turn")
        kill(restored)  # its folder and the killed app's, which it had taken over, are left behind
        replay = subprocess.run([runner, "restored.json", "--steps", "70", "--threads", "1", "--quiet", "--hash"],
                                cwd=work, capture_output=True, text=True, timeout=60)
        replayed = [line for line in replay.stdout.splitlines() if line.startswith("hash ")]
        check(replay.returncode == 0 and replayed == [saved],
              f"lodestone-run replays the restored document to the same hash ({replayed}, exit {replay.returncode})")

        # The remote verb, on a plain start; a clean quit removes its autosaves and the ones it restored.
        plain = start(app, work, ["scene.json"])
        check(plain.ask("restore") == "ok restore 70", "the remote verb restore answers 'ok restore 70'")
        check(plain.ask("hash") == saved, "the remote restore gives the autosaved state's hash")
        pid = plain.process.pid
        check(plain.close() == 0, "the app quits cleanly")
        own = glob.glob(os.path.join(state, "lodestone", "autosave", f"{pid}-*"))
        check(own == [], f"its clean quit removed its autosave folder ({own})")

        # A truncated autosave: refused by name, moved aside, never loaded.
        left = autosaves(state)
        check(len(left) >= 1, f"an autosave of a killed app is still there to damage ({left})")
        for path in left:
            with open(path, "r+b") as f:
                f.truncate(os.path.getsize(path) // 2)
        damaged = start(app, work, ["scene.json"])
        answer = damaged.ask("restore") or ""
        check(answer.startswith("refused: restore: autosave ") and any(p in answer for p in left) and
              "the file ends inside" in answer and "moved aside to " in answer,
              f"a truncated autosave is refused by name ({answer!r})")
        check(damaged.close() == 0, "the app quits cleanly after the refusal")
        aside = glob.glob(os.path.join(state, "lodestone", "damaged", "*.autosave"))
        check(len(aside) == 1, f"the damaged file is kept aside ({aside})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
