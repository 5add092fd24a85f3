#!/usr/bin/python3
"""Writes python/lodestone.pyi, the type stubs of the compiled module `lodestone` (issue 42), from the signatures
pybind11 puts at the top of every docstring, so that editors and type checkers (mypy, pyright) know the module.
Run it after changing the bindings (tests/python/test_stubs.py fails until the stubs match the module):

    PYTHONPATH=build/python /usr/bin/python3 scripts/make_stubs.py [--check]

--check prints the difference and exits 1 instead of writing.
"""
import difflib
import pathlib
import re
import sys

import lodestone

STUBS = pathlib.Path(__file__).resolve().parent.parent / "python" / "lodestone.pyi"
# pybind11's names for what Python sees.
TYPE_NAMES = [
    (r"numpy\.ndarray\[numpy\.(\w+)\]", r"NDArray[numpy.\1]"),
    (r"lodestone\.Session", "Session"),
    (r"\bpath: handle", "path: Any"),
    (r"\bhandle\b", "Any"),
    (r"\bobject\b", "Any"),
]
# Methods whose `path` is a file (set's path is a dotted path or a dict).
FILE_PATHS = ("save_preset", "save_checkpoint", "export_frame", "from_checkpoint")
PREAMBLE = '''"""Type stubs of the compiled module `lodestone` (docs/python.md), written by scripts/make_stubs.py from the
module's own signatures: do not edit by hand."""
import os
from typing import Any, Optional

import numpy
from numpy.typing import NDArray

__version__: str

'''


def python_types(signature):
    for pattern, replacement in TYPE_NAMES:
        signature = re.sub(pattern, replacement, signature)
    return signature


def docstring(text, indent, signed=False):
    """The docstring as a stub's docstring, without pybind11's signature line when it is `signed` (a function's; a
    property's or a class's has none, and may well start with a parenthesis of its own)."""
    lines = text.split("\n")
    body = "\n".join(lines[1:]).strip() if signed else text.strip()
    if not body:
        return ""
    pad = " " * indent
    return pad + '"""' + body.replace('"""', "'''").replace("\n", "\n" + pad) + '"""\n'


def signature_of(function):
    """pybind11's first docstring line, e.g. 'run(self: lodestone.Session, *, steps: Optional[int] = None) -> int'."""
    doc = function.__doc__ or ""
    first = doc.split("\n")[0]
    if not re.match(r"^\w+\(.*\)( -> .+)?$", first):
        raise SystemExit(f"make_stubs: no signature in the docstring of {function!r}: {first!r}")
    return first, doc


def method_stub(name, function, static=False):
    first, doc = signature_of(function)
    arguments, result = re.match(r"^\w+\((.*)\)(?: -> (.+))?$", first).groups()
    if not static:
        arguments = re.sub(r"^self: [\w.]+", "self", arguments)
    arguments = python_types(arguments)
    if name in FILE_PATHS:
        arguments = arguments.replace("path: Any", "path: str | os.PathLike[str]")
    out = "    @staticmethod\n" if static else ""
    out += f"    def {name}({arguments}) -> {python_types(result or 'None')}:\n"
    return out + (docstring(doc, 8, signed=True) or "") + "        ...\n"


def property_stub(name, prop):
    result = re.match(r"^\(\w+: [\w.]+\) -> (.+)$", (prop.fget.__doc__ or "").split("\n")[0]).group(1)
    out = f"    @property\n    def {name}(self) -> {python_types(result)}:\n"
    return out + (docstring(prop.__doc__ or "", 8) or "") + "        ...\n"


def class_stub(cls):
    out = f"class {cls.__name__}:\n" + docstring(cls.__doc__ or "", 4) + "\n"
    for name, member in sorted(vars(cls).items()):
        if name.startswith("_") and name not in ("__init__", "__len__", "__repr__"):
            continue
        if isinstance(member, property):
            out += property_stub(name, member)
        elif isinstance(member, staticmethod):
            out += method_stub(name, member.__func__, static=True)
        elif callable(member):
            out += method_stub(name, member)
    return out


def module_stub():
    out = PREAMBLE
    for name in sorted(dir(lodestone)):
        value = getattr(lodestone, name)
        if isinstance(value, type) and issubclass(value, BaseException):
            base = value.__bases__[0].__name__
            out += f"class {name}({base}):\n" + (docstring(value.__doc__ or "", 4) or "    ...\n") + "\n"
    for name in sorted(dir(lodestone)):
        value = getattr(lodestone, name)
        if name.startswith("_") or isinstance(value, type) and issubclass(value, BaseException):
            continue
        if isinstance(value, type) and value.__name__ == name:
            out += class_stub(value) + "\n"
        elif callable(value) and not isinstance(value, type):
            out += method_stub(name, value, static=True).replace("    @staticmethod\n", "").replace("\n    ", "\n")
    for name in sorted(dir(lodestone)):
        value = getattr(lodestone, name)
        if isinstance(value, type) and value.__name__ != name:
            out += f"{name} = {value.__name__}\n"
    return out


def main():
    text = module_stub()
    if "--check" in sys.argv:
        old = STUBS.read_text() if STUBS.exists() else ""
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True), str(STUBS),
                                                       "the module now"))
            return 1
        return 0
    STUBS.write_text(text)
    print(f"make_stubs: wrote {STUBS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
