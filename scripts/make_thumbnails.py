#!/usr/bin/env python3
"""Makes the scene gallery's thumbnails (assets/thumbnails/NAME.png, 240 x 150; ui/gallery.hpp) by driving the
desktop app through its remote control (scripts/remote_app.py) and taking a screenshot of the X display.

For each preset: a copy with the Plots window closed is opened in `lodestone --remote` at 960 x 750, the side bar and
the "Try this" strip hidden; a waiting protocol phase is told to go on; the scene is advanced by a simulated time
chosen for it (below: a moment that shows what the scene is about); after `sync` the display is captured with
ImageMagick's `import -window root`, the middle of the 3-D view cropped (the menu bar, the "Show panels" button,
the Plots header, the gizmo and the legend left out) and scaled to 240 x 150.

The thumbnails in assets/thumbnails were made with (on Debian 12, Mesa llvmpipe):

    xvfb-run -a -s "-screen 0 1200x800x24" python3 scripts/make_thumbnails.py build/app/desktop/lodestone

Run it again after adding a preset or changing how one looks. Needs DISPLAY (xvfb-run gives one) and ImageMagick.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from remote_app import RemoteApp  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 960, 750  # the window: as narrow as a 16:10 crop of its view, so that a wide scene fits in it
THUMB = "240x150"
LONG_STEP_SECONDS = 60  # a step estimated at over a minute runs this long, then is paused
# Simulated time to advance each scene by before the picture (one that would take over a minute stops after
# LONG_STEP_SECONDS).
MOMENTS = {
    "aggregation": "8us", "bar-magnets": "0.3s", "chain-falls": "0.25s", "chains-and-rings": "2s",
    "chains-suspension": "0.5s", "compass-needles": "3s", "default": "1.2s", "field-switch-on": "1s",
    "magnetic-filament-buckling": "4s", "magnetic-filament-rotating": "3s", "magnetic-walker": "1.5s",
    "magnets-meeting": "0.4s", "powder-alignment": "2s", "rotating-field-chain": "0.8s", "settled-packing": "0.3s",
    "two-dipoles-lj": "15ms", "two-dipoles": "15ms",
}


def capture(out_png, display_png):
    subprocess.run(["import", "-window", "root", str(display_png)], check=True)
    # The window fills the display from the top left, its menu bar 18 px tall. Left out: the "Show panels" button
    # and the Plots header (top 50 px), the gizmo and the legend (below 620 px); a 16:10 piece of the middle.
    top, bottom = 50, 620
    h = bottom - top
    w = h * 16 // 10
    left = (WIDTH - w) // 2
    subprocess.run(["convert", str(display_png), "-crop", "%dx%d+%d+%d" % (w, h, left, top), "+repage",
                    "-resize", THUMB + "!", "-strip", str(out_png)], check=True)


def thumbnail(app, preset, out_dir, work):
    name = preset.stem
    data = json.loads(preset.read_text())
    view = data.setdefault("view", {})
    view["plots_open"] = False
    view["start_paused"] = False
    copy = work / preset.name
    copy.write_text(json.dumps(data))
    env_dir = work / ("state-" + name)
    env_dir.mkdir()
    os.environ["XDG_STATE_HOME"] = str(env_dir)
    remote = RemoteApp(app, [str(copy), "--paused", "--size", "%dx%d" % (WIDTH, HEIGHT), "--autosave-seconds", "0"])
    try:
        for command in ["sidebar hide", "hints hide"]:
            print(" ", command, "->", remote.ask(command))
        if any(phase.get("wait") for phase in data.get("protocol", [])):
            print("  go ->", remote.ask("go"))
        answer = remote.ask("advance " + MOMENTS.get(name, "0.1s"), timeout=600)
        print("  advance ->", answer)
        if answer and answer.startswith("running: "):
            time.sleep(LONG_STEP_SECONDS)  # as far as it gets meanwhile
            remote.send("pause")  # stops it early: its answer comes
            print("  pause ->", remote.answer(120)[1])
        for command in ["frame all", "sync"]:
            print(" ", command, "->", remote.ask(command, timeout=60))
        capture(out_dir / (name + ".png"), work / (name + "-display.png"))
    finally:
        remote.close()


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: make_thumbnails.py LODESTONE [PRESET ...]  (under xvfb-run; see the docstring)")
    app = os.path.abspath(sys.argv[1])
    presets = [pathlib.Path(p) for p in sys.argv[2:]] or sorted((ROOT / "presets").glob("*.json"))
    out_dir = ROOT / "assets" / "thumbnails"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for preset in presets:
            print(preset.stem)
            thumbnail(app, preset, out_dir, pathlib.Path(work))


if __name__ == "__main__":
    main()
