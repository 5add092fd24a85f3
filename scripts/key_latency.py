#!/usr/bin/env python3
"""Wall time of each key event in the desktop app, as a teacher presses it (issue 39: "each key event's wall time at
the default pace"): for every teaching preset (view.group "teaching"), the app is started at the preset's own pace and
real keys are pressed with xdotool; the time from the press to its effect is measured through the app's remote control
(scripts/remote_app.py) or, for a key that opens a dialog, by looking for the dialog's window.

    key        what is waited for
    space      `status` says running=0 (pause), then again running=1 (run)
    Tab        `view` says sidebar=hidden, then the width again
    Escape     nothing to see: the press, then `sync` (the window has drawn everything since)
    Ctrl+O     the "Open preset" dialog has the keyboard (then Escape closes it)
    Ctrl+R     the "Record movie" dialog has the keyboard (then Escape closes it)
    keys back  after each dialog's Escape: the main window has the keyboard again

Prints one row per preset and key: the median and the largest of REPEATS presses [ms], each from the press to the
first answer that shows its effect (so a remote round trip, about a millisecond, is included). Usage (Debian 12, Mesa
llvmpipe; the figures in docs/performance.md, "Key events", were made with this command):

    xvfb-run -a -s "-screen 0 1280x800x24" python3 scripts/key_latency.py build/app/desktop/lodestone [REPEATS] [PRESET ...]
"""
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from remote_app import RemoteApp  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
POLL = 0.002  # [s] between two looks


def xdotool(*args):
    return subprocess.run(["xdotool", *args], capture_output=True, text=True).stdout.strip()


def field(line, key):
    for word in (line or "").split():
        if word.startswith(key + "="):
            return word[len(key) + 1:]
    return None


def until(check, timeout=20.0):
    """Seconds until check() is true (polling), or None after `timeout`."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if check():
            return time.monotonic() - start
        time.sleep(POLL)
    return None


def focused_name():
    """The name of the window that has the keyboard ("" when none)."""
    return xdotool("getwindowfocus", "getwindowname")


def press(key):
    start = time.monotonic()
    xdotool("key", key)
    return start


def focus_view():
    # Without a window manager nothing gives the window the keyboard: a click in an empty corner of the 3-D view does,
    # as a user's would (right of the side bar, below the menu bar, clear of the Plots window and the legend).
    xdotool("mousemove", "420", "90", "click", "1")
    time.sleep(0.2)


def measure_once(remote):
    """One press of each key; {key: seconds}."""
    out = {}
    focus_view()
    for key, want in (("space", "0"), ("space", "1")):
        start = press(key)
        ok = until(lambda: field(remote.ask("status"), "running") == want)
        out.setdefault("space", []).append(None if ok is None else time.monotonic() - start)
    for want_hidden in (True, False):
        start = press("Tab")
        ok = until(lambda: (field(remote.ask("view"), "sidebar") == "hidden") == want_hidden)
        out.setdefault("Tab", []).append(None if ok is None else time.monotonic() - start)
    start = press("Escape")
    remote.ask("sync")
    out["Escape"] = [time.monotonic() - start]
    for key, title in (("ctrl+o", "Open preset"), ("ctrl+r", "Record movie")):
        start = press(key)
        # Up when it has the keys: a window found by name may not be mapped and focused yet, and an Escape sent then
        # goes to the main window and leaves the dialog open (the next key then lands in the dialog).
        ok = until(lambda: focused_name() == title)
        out[key] = [None if ok is None else time.monotonic() - start]
        closed = press("Escape")
        # The keys back in the main window once the dialog has gone (issue 39: shortcuts right after any dialog).
        ok = until(lambda: focused_name().startswith("Lodestone"))
        out.setdefault("keys back", []).append(None if ok is None else time.monotonic() - closed)
        remote.ask("sync")
    return out


def teaching_presets():
    for path in sorted((ROOT / "presets").glob("*.json")):
        if json.loads(path.read_text()).get("view", {}).get("group") == "teaching":
            yield path


def measure_preset(app, preset, repeats, work):
    os.environ["XDG_STATE_HOME"] = str(work / ("state-" + preset.stem))
    remote = RemoteApp(app, [str(preset), "--size", "1280x780", "--autosave-seconds", "0"])
    try:
        remote.ask("hints hide")
        remote.ask("sync")
        if field(remote.ask("status"), "running") != "1":  # a scene that starts paused: run it first
            remote.ask("run")
        samples = {}
        for _ in range(repeats):
            for key, seconds in measure_once(remote).items():
                samples.setdefault(key, []).extend(seconds)
            time.sleep(0.5)
        return samples
    finally:
        remote.close()


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: key_latency.py LODESTONE [REPEATS] [PRESET ...]  (under xvfb-run; see the docstring)")
    app = os.path.abspath(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    presets = [pathlib.Path(p) for p in sys.argv[3:]] or list(teaching_presets())
    print("%-22s %-8s %10s %10s" % ("preset", "key", "median_ms", "max_ms"))
    with tempfile.TemporaryDirectory() as work:
        for preset in presets:
            samples = measure_preset(app, preset, repeats, pathlib.Path(work))
            for key, seconds in samples.items():
                good = [1e3 * s for s in seconds if s is not None]
                missed = len(seconds) - len(good)
                median = "%.0f" % statistics.median(good) if good else "-"
                worst = "%.0f" % max(good) if good else "-"
                print("%-22s %-8s %10s %10s%s" % (preset.stem, key, median, worst,
                                                 "  (%d not seen in 20 s)" % missed if missed else ""))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
