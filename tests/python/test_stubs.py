"""The type stubs python/lodestone.pyi (issue 42) name the module as it is: written by scripts/make_stubs.py from the
module's own signatures, checked here so that a binding added or changed without new stubs fails."""
import ast
import os
import pathlib
import subprocess
import sys

import lodestone

SOURCE = pathlib.Path(os.environ.get("LODESTONE_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def test_the_stubs_are_what_make_stubs_writes_from_the_module_now():
    done = subprocess.run([sys.executable, str(SOURCE / "scripts" / "make_stubs.py"), "--check"], capture_output=True,
                          text=True)
    assert done.returncode == 0, "python/lodestone.pyi is out of date; run scripts/make_stubs.py:\n" + done.stdout


def test_the_stubs_name_every_public_member_of_the_session_and_nothing_else():
    tree = ast.parse((SOURCE / "python" / "lodestone.pyi").read_text())
    session = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Session")
    stubbed = {n.name for n in session.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    public = {n for n in dir(lodestone.Session) if not n.startswith("_")}
    assert stubbed == public
    errors = {n.name for n in tree.body if isinstance(n, ast.ClassDef) and n.name.endswith(("Error", "Needed",
                                                                                           "Stopped"))}
    assert errors == {n for n in dir(lodestone) if isinstance(getattr(lodestone, n), type)
                      and issubclass(getattr(lodestone, n), BaseException)}
