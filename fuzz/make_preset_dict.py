#!/usr/bin/env python3
"""Writes the libFuzzer dictionaries from docs/presets.md (generated from engine/scene/preset_schema.cpp):
fuzz/preset.dict for fuzz_preset (every preset key, choice word and unit, and a few JSON tokens), and
fuzz/edit.dict for fuzz_set and fuzz_remote (every dotted path as set() and the remote's `set` take it, the
same words and units, and the remote's verbs). Run it after adding preset fields or remote verbs:
python3 fuzz/make_preset_dict.py"""
import pathlib
import re

root = pathlib.Path(__file__).resolve().parent.parent
keys, words, units, paths = set(), set(), set(), set()
for line in (root / "docs/presets.md").read_text(encoding="utf-8").splitlines():
    m = re.match(r"\| `([^`]+)` \| ([^|]*) \| ([^|]*) \| ([^|]*) \|", line)
    if not m:
        continue
    path, kind, _, accepts = m.groups()
    keys.update(p for p in re.split(r"[.\[\]]", path) if p and not p.isdigit())
    paths.add(path.replace("[]", ".0"))
    for prefix in ("one of:", "list of:"):
        if kind.startswith(prefix):
            words.update(w.strip() for w in kind[len(prefix):].split(","))
    units.update(u.strip() for u in accepts.split(",") if u.strip())


def quoted(text):
    # libFuzzer dictionary entries: printable ASCII with backslash, quote and \\xNN escapes; other bytes are refused.
    out = ""
    for byte in text.encode("utf-8"):
        c = chr(byte)
        out += "\\" + c if c in '\\"' else c if 32 <= byte < 127 else "\\x%02X" % byte
    return '"' + out + '"'


lines = ["# libFuzzer dictionary of fuzz_preset, written by fuzz/make_preset_dict.py from docs/presets.md."]
lines += [quoted('"%s":' % k) for k in sorted(keys)]
lines += [quoted('"%s"' % w) for w in sorted(words)]
lines += [quoted(u) for u in sorted(units)]
lines += [quoted(t) for t in ["true", "false", "null", "1e308", "-1e308", "5e-324", "-0", '"none"', '"auto"', "[0, 0, 0]"]]
(root / "fuzz/preset.dict").write_text("\n".join(lines) + "\n", encoding="utf-8")
print("fuzz/preset.dict: %d keys, %d words, %d units" % (len(keys), len(words), len(units)))

# The remote's verbs (app/desktop/remote_parse.cpp) and the words its arguments take.
verbs = re.findall(r'\{"([a-z-]+)", (?:read_\w+|nullptr)\}', (root / "app/desktop/remote_parse.cpp").read_text())
remote_words = ["off", "exact", "all", "selection", "show", "hide", "open", "space", "escape", "tab", "f1", "x", "y", "z"]
lines = ["# libFuzzer dictionary of fuzz_set and fuzz_remote, written by fuzz/make_preset_dict.py from docs/presets.md",
         "# and app/desktop/remote_parse.cpp."]
lines += [quoted(p) for p in sorted(paths)]
lines += [quoted('"%s"' % w) for w in sorted(words)]
lines += [quoted(u) for u in sorted(units)]
lines += [quoted(v + " ") for v in sorted(verbs)] + [quoted(w) for w in remote_words]
lines += [quoted(t) for t in ["true", "false", "null", "nan", "inf", "1e308", "-1e308", "5e-324", "-0", "\n", '{"position": [0, 0, 0]}', '"shape": "bar"', '"copy": ']]
(root / "fuzz/edit.dict").write_text("\n".join(lines) + "\n", encoding="utf-8")
print("fuzz/edit.dict: %d paths, %d verbs" % (len(paths), len(verbs)))
