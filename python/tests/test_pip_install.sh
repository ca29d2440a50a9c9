#!/usr/bin/env bash
# `pip install .` works on a fresh copy of the tree without a GPU: a copy of the tracked files (git
# ls-files, as a clone has them) installed into a scratch venv that sees the build tools of the
# interpreter running the tests (meson-python, nanobind, Meson: .ci/deps.sh puts them in .tools/venv),
# --no-build-isolation (no network); then the installed package imports, its maps answer, and a
# CPU-only build refuses GPU work with one sentence. Usage: test_pip_install.sh SRC_ROOT PYTHON
set -euo pipefail
src=$1 py=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/tree"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$scratch/tree") \
    || { echo "test_pip_install: could not copy the tree (git ls-files)"; exit 1; }
else  # a copy without .git (a GPU machine's): everything but the build trees and the tools
  tar -C "$src" --exclude=./build --exclude='./build-*' --exclude=./.tools --exclude=./.carry --exclude=./.git -cf - . \
    | tar -C "$scratch/tree" -xf - || { echo "test_pip_install: could not copy the tree"; exit 1; }
fi
"$py" -m venv --without-pip "$scratch/venv"
# the build tools and pip of $py's environment, seen from the scratch venv (a .pth line), and its meson on PATH
"$scratch/venv/bin/python" - "$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" <<'PY'
import sys, sysconfig, os
open(os.path.join(sysconfig.get_paths()["purelib"], "parent_env.pth"), "w").write(sys.argv[1] + "\n")
PY
export PATH="$(dirname "$py"):$PATH"
start=$(date +%s)
# -Dbuildtype=debug: the test checks the package builds and installs, not its speed
"$scratch/venv/bin/python" -m pip install -q --no-build-isolation --no-deps --disable-pip-version-check \
  -Csetup-args=-Dbuildtype=debug -Cbuild-dir="$scratch/build" "$scratch/tree"
echo "pip install . took $(( $(date +%s) - start )) s"
cd "$scratch"  # not the source tree: the installed package is imported
"$scratch/venv/bin/python" - <<'PY'
import tdmaps, tdmaps.maps
assert tdmaps.__file__.startswith(__import__("sys").prefix), tdmaps.__file__
print("installed:", tdmaps.__file__, tdmaps.build_info())
assert tdmaps.maps.info("ltm-e", 1000)["useful_blocks"] > 0
if not tdmaps.build_info()["kernels"]:
    try:
        tdmaps.kernel_for("lower")
    except RuntimeError as e:
        assert "pip install ." in str(e), e
    else:
        raise SystemExit("a CPU-only build ran kernel_for")
print("ok")
PY
