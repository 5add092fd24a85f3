#!/bin/sh
# cmake --install into a temporary prefix, then the installed programs run from elsewhere (docs: README "Install").
#   check_install.sh BUILD_DIR PYTHON_OR_EMPTY
# Checks: the programs, presets, desktop entry, icon, MIME type and man pages are installed; the installed
# lodestone-run finds a preset by name in PREFIX/share/lodestone/presets (and, the prefix moved elsewhere, in the
# moved copy: nothing points back to the source or build tree) and runs it; the installed Python module imports
# from PREFIX/lib/python3/dist-packages and runs an installed preset; the .desktop file passes
# desktop-file-validate and the MIME package update-mime-database, each when installed.
set -eu
build=$1
python=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/usr" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }
cd "$work"  # not the source tree: nothing below may rely on ./presets
prefix=$work/usr
for f in bin/lodestone-run bin/lodestone-capture bin/lodestone-sw-curves share/lodestone/presets/two-dipoles.json \
         share/lodestone/presets/magnetic-walker.json; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
echo "installed: $(find "$prefix" -type f | wc -l) files"

# A preset by name, from the installed share/lodestone/presets.
"$prefix/bin/lodestone-run" --version | grep -q '^lodestone-run [0-9]' || fail "lodestone-run --version"
"$prefix/bin/lodestone-run" two-dipoles --check >check.txt 2>&1 || { cat check.txt; fail "lodestone-run two-dipoles --check"; }
grep -qF "$prefix/share/lodestone/presets/two-dipoles.json" check.txt ||
  { cat check.txt; fail "the installed runner did not take two-dipoles from $prefix/share/lodestone/presets"; }
"$prefix/bin/lodestone-run" two-dipoles.json --steps 50 --quiet --table 0 --series s.csv --frames f.xyz >run.txt 2>&1 ||
  { cat run.txt; fail "lodestone-run two-dipoles.json --steps 50"; }
[ "$(grep -c '^2$' f.xyz)" -ge 1 ] || fail "no frames written"
head -n 1 s.csv | grep -q '^# written by Lodestone [0-9]' || fail "the series does not start with the version comment"
"$prefix/bin/lodestone-run" no-such-preset --check >bad.txt 2>&1 && fail "an unknown preset name was accepted"
grep -q "no-such-preset" bad.txt || { cat bad.txt; fail "the refusal does not name the preset"; }

# The prefix moved: the programs find the presets beside themselves, not where they were installed.
mv "$prefix" "$work/moved"
"$work/moved/bin/lodestone-run" chains-and-rings --check >moved.txt 2>&1 || { cat moved.txt; fail "moved runner"; }
grep -qF "$work/moved/share/lodestone/presets/chains-and-rings.json" moved.txt ||
  { cat moved.txt; fail "the moved runner did not read the moved presets"; }
mv "$work/moved" "$prefix"

# Man pages from --help.
for program in lodestone-run lodestone-capture lodestone-sw-curves; do
  page=$prefix/share/man/man1/$program.1
  if command -v help2man >/dev/null 2>&1; then
    grep -q '^\.TH' "$page" || fail "no man page $page"
  fi
done
if command -v help2man >/dev/null 2>&1; then
  grep -q 'frames' "$prefix/share/man/man1/lodestone-run.1" || fail "lodestone-run.1 lacks the --frames option"
fi

# The Python module.
if [ -n "$python" ]; then
  module_dir=$prefix/lib/python3/dist-packages
  ls "$module_dir"/lodestone*.so >/dev/null 2>&1 || fail "the Python module is not in $module_dir"
  PYTHONPATH=$module_dir "$python" - "$prefix" <<'PY' || fail "the installed Python module"
import os, sys
prefix = sys.argv[1]
import lodestone
assert os.path.realpath(lodestone.__file__).startswith(os.path.realpath(prefix)), lodestone.__file__
sim = lodestone.Simulation(os.path.join(prefix, "share/lodestone/presets/two-dipoles.json"), threads=1)
sim.run(steps=20)
assert sim.step == 20, sim.step
print("python: lodestone", lodestone.__version__, "from", lodestone.__file__)
PY
fi

# The licence and the citation file beside the programs.
for f in share/doc/lodestone/LICENSE share/doc/lodestone/CITATION.cff; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done

# The desktop entry, its icon and the MIME type (the app's part of the install).
if [ -e "$prefix/bin/lodestone" ]; then
  for f in share/applications/lodestone.desktop share/icons/hicolor/scalable/apps/lodestone.svg \
           share/mime/packages/lodestone.xml; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
  done
  "$prefix/bin/lodestone" --version | grep -q '^Lodestone [0-9]' || fail "lodestone --version"
  if command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "$prefix/share/applications/lodestone.desktop" || fail "desktop-file-validate"
    echo "desktop-file-validate: ok"
  else
    echo "desktop-file-validate not installed (desktop-file-utils): the .desktop file is not validated"
  fi
  if command -v update-mime-database >/dev/null 2>&1; then
    update-mime-database "$prefix/share/mime" >/dev/null 2>&1 || fail "update-mime-database"
    [ -e "$prefix/share/mime/application/x-lodestone-preset.xml" ] || fail "the MIME type was not registered"
    echo "update-mime-database: application/x-lodestone-preset registered"
  fi
fi
echo "install: ok"
