#!/usr/bin/env python3
"""Checks the include order of the source tree against its declared layers.

    check_layers.py SOURCE_DIR LAYER [LAYER ...]

The engine's folders are given bottom first (engine/CMakeLists.txt declares them once, in
LODESTONE_ENGINE_LAYERS): a file in a folder may include headers of its own folder and of the
folders below it, never above. Above the engine, render/ may include the engine; ui/ the engine
and render/; app/ all of them; the engine includes none of render/, ui/ or app/, nor Qt, OpenGL or
ImGui. Every engine header included from outside the engine (app/, ui/, render/, python/, bench/,
fuzz/; the tests include what they test) must be listed in engine/README.md's table of public entry
points. Every violation is printed as FILE:LINE: what it includes and what it may include; the exit
code is 1 when there is any.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
FOREIGN = re.compile(r'^(Q[A-Za-z]+|qt|imgui|GL/|GLES|glm/|epoxy)')


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    layers = sys.argv[2:]
    if not layers:
        print(__doc__)
        return 2
    rank = {name: k for k, name in enumerate(layers)}
    top = {"engine": 0, "render": 1, "ui": 2, "app": 3}
    problems = []
    engine = root / "engine"
    loose = [p.name for p in engine.iterdir() if p.is_file() and p.suffix in (".cpp", ".hpp", ".h")]
    for name in sorted(loose):
        problems.append(f"engine/{name}: a source file at the engine's top level; it belongs in a layer folder")
    for folder in sorted(p.name for p in engine.iterdir() if p.is_dir()):
        if folder not in rank:
            problems.append(f"engine/{folder}/: a folder missing from the declared layers {' < '.join(layers)}")

    for area in top:
        for path in sorted((root / area).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".h"):
                continue
            rel = path.relative_to(root)
            own_layer = rel.parts[1] if area == "engine" and len(rel.parts) > 2 else None
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = f"{rel}:{number}: includes {target}"
                first = target.split("/")[0]
                if area == "engine" and FOREIGN.match(target):
                    problems.append(f"{where}; the engine uses no Qt, OpenGL or ImGui")
                    continue
                if first in top and top[first] > top[area]:
                    problems.append(f"{where}; {area}/ may include only " +
                                    ", ".join(a + "/" for a, k in top.items() if k <= top[area]))
                    continue
                if first == "engine" and own_layer is not None:
                    parts = target.split("/")
                    if len(parts) < 3 or parts[1] not in rank:
                        problems.append(f"{where}; not in a declared layer")
                    elif rank[parts[1]] > rank[own_layer]:
                        allowed = layers[: rank[own_layer] + 1]
                        problems.append(f"{where}; engine/{own_layer}/ may include only {', '.join(allowed)}")
    problems += unlisted_public_headers(root)
    for p in problems:
        print(p)
    print(f"check_layers: {len(problems)} violation(s); layers bottom first: {' < '.join(layers)}")
    return 1 if problems else 0


def unlisted_public_headers(root: pathlib.Path) -> list:
    """Engine headers included from outside the engine that engine/README.md's table does not list."""
    readme = (root / "engine" / "README.md").read_text()
    listed = set(re.findall(r"`([a-z_]+/[a-z0-9_]+\.hpp)`", readme))
    problems = []
    for area in ("app", "ui", "render", "python", "bench", "fuzz"):
        for path in sorted((root / area).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".h"):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if m and m.group(1).startswith("engine/") and m.group(1)[len("engine/"):] not in listed:
                    problems.append(f"{path.relative_to(root)}:{number}: includes {m.group(1)}, which "
                                    "engine/README.md does not list as a public entry point")
    return problems


if __name__ == "__main__":
    sys.exit(main())
