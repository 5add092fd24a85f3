#!/usr/bin/env python3
"""The rooms an edit walks: the project folders whose code runs under the given roots of a callgrind profile.

Reads a callgrind output file (valgrind --tool=callgrind --toggle-collect=ROOT ...; bench/edit_walk.sh) and
prints, for the calls made under the roots: each project folder entered (engine/scene, ui, ...), from which
folder and through which function first, the source files run, and every call that climbs back up the layer
order of engine/README.md (a lower folder calling a higher one). Library code (the C++ library,
nlohmann-json, Eigen) is looked through: a project function calling json that calls a project function back
counts as one call between the two project folders.

  bench/edit_walk.py CALLGRIND_OUT SOURCE_DIR
"""
import collections
import re
import sys

# Highest first (engine/README.md "Layers"; the app, panels and renderer stand on the engine).
LAYERS = ["app/desktop", "ui", "render", "engine/live", "engine/session", "engine/output", "engine/scene",
          "engine/analysis", "engine/step", "engine/magnetic", "engine/contact", "engine/bodies", "engine/core"]


def parse(path):
    """Calls as (caller, callee) -> count, and each function's file; a function is (name, file)."""
    names = {"fl": {}, "fn": {}}
    calls = collections.Counter()
    file_of = {}
    fl = fn = cfl = cfn = None
    pending = None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^(fl|fi|fe|fn|cfl|cfi|cfn)=(?:\((\d+)\))?\s*(.*)$", line)
        if m:
            kind, ident, name = m.groups()
            table = names["fn" if kind in ("fn", "cfn") else "fl"]
            if ident is not None:
                if name:
                    table[ident] = name
                name = table.get(ident, name)
            if kind == "fl":
                fl = name
            elif kind in ("fi", "fe"):
                pass  # inlined code of another file within the same function: the function keeps its file
            elif kind == "fn":
                fn = (name, fl)
                file_of[fn] = fl
                cfl = None
            elif kind in ("cfl", "cfi"):
                cfl = name
            elif kind == "cfn":
                cfn = (name, cfl or fl)
            continue
        m = re.match(r"^calls=(\d+)", line)
        if m:
            pending = int(m.group(1))
            continue
        if pending is not None:
            callee = (cfn[0], cfn[1])
            calls[(fn, callee)] += pending
            file_of.setdefault(callee, cfn[1])
            pending = None
            cfl = None
    return calls, file_of


def folder_of(path, source_dir):
    if not path or not path.startswith(source_dir + "/"):
        return None
    rel = path[len(source_dir) + 1:]
    for layer in LAYERS:
        if rel.startswith(layer + "/"):
            return layer
    return rel.split("/")[0]


def main():
    out, source_dir = sys.argv[1], sys.argv[2].rstrip("/")
    calls, file_of = parse(out)
    callees = collections.defaultdict(set)
    for (a, b), n in calls.items():
        callees[a].add(b)

    def project_callees(f):
        """The project functions f reaches directly or through library code only."""
        seen, stack, found = {f}, [f], set()
        while stack:
            g = stack.pop()
            for h in callees[g]:
                if h in seen:
                    continue
                seen.add(h)
                if folder_of(file_of.get(h), source_dir):
                    found.add(h)
                else:
                    stack.append(h)
        return found

    # The driver (bench/edit_walk.cpp) calls the roots: not a room of the edit.
    functions = [f for f in file_of if folder_of(file_of[f], source_dir) not in (None, "bench")]
    edges = {f: project_callees(f) for f in functions}
    rank = {layer: k for k, layer in enumerate(LAYERS)}
    first_entry = {}
    files = set()
    climbs = []
    for f in sorted(functions, key=lambda f: rank.get(folder_of(file_of[f], source_dir), 99)):
        a = folder_of(file_of[f], source_dir)
        files.add(file_of[f][len(source_dir) + 1:])
        first_entry.setdefault(a, ("(root)", f[0]))
        for g in sorted(edges[f]):
            b = folder_of(file_of[g], source_dir)
            if b == "bench":
                continue
            if b != a and b not in first_entry:
                first_entry[b] = (a, g[0])
            if rank.get(b, 99) < rank.get(a, 99):
                climbs.append((a, b, f[0], g[0]))
    print(f"{len(first_entry)} rooms (folders) entered, {len(files)} source files, "
          f"{len(climbs)} calls climbing back up")
    for room in sorted(first_entry, key=lambda r: rank.get(r, 99)):
        via, fn = first_entry[room]
        print(f"  {room:18s} from {via:18s} by {fn[:110]}")
    print("files:")
    for f in sorted(files):
        print(f"  {f}")
    for a, b, f, g in climbs:
        print(f"climbs up: {a} -> {b}: {f[:80]} calls {g[:80]}")


if __name__ == "__main__":
    main()
