#!/usr/bin/env bash
# Installs what `make verify` and `make figures` need on a Debian 12 machine, once.
# Debian packages: g++, pkg-config, ninja-build, git, python3 (+ python3-venv),
# libboost-test-dev, libboost-program-options-dev, gnuplot-nox,
# libgnuplot-iostream-dev (with the Boost iostreams/filesystem/system it needs),
# cmake (the install check builds examples/ with CMake), openmpi-bin + libopenmpi-dev (mpicc).
# Meson: Debian 12's meson 1.0 does not track header dependencies of .cu files,
# so a meson >= 1.4 is used: one on PATH if it is new enough, otherwise meson 1.6.1
# from PyPI in .tools/venv. The meson to use is written to .tools/meson.
# Without root (and without passwordless sudo) it prints the install command and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tools

need_pkgs=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_cmd g++        || need_pkgs+=(g++)
have_cmd pkg-config || need_pkgs+=(pkg-config)
have_cmd ninja      || need_pkgs+=(ninja-build)
have_cmd git        || need_pkgs+=(git)
have_cmd python3    || need_pkgs+=(python3)
have_cmd gnuplot    || need_pkgs+=(gnuplot-nox)
have_cmd cmake      || need_pkgs+=(cmake)
have_cmd mpicc      || need_pkgs+=(openmpi-bin libopenmpi-dev)
[ -f /usr/include/boost/test/unit_test.hpp ]     || need_pkgs+=(libboost-test-dev)
[ -f /usr/include/boost/program_options.hpp ]    || need_pkgs+=(libboost-program-options-dev)
[ -f /usr/include/gnuplot-iostream.h ]           || need_pkgs+=(libgnuplot-iostream-dev libboost-iostreams-dev libboost-filesystem-dev libboost-system-dev)

meson_ok() {  # meson_ok CMD: CMD is a meson >= 1.4
  local v
  v=$("$1" --version 2>/dev/null) || return 1
  python3 - "$v" <<'PY' 2>/dev/null
import sys
v = tuple(int(x) for x in sys.argv[1].split('.')[:2])
sys.exit(0 if v >= (1, 4) else 1)
PY
}
meson_cmd=""
if [ -x .tools/venv/bin/meson ] && meson_ok .tools/venv/bin/meson; then meson_cmd="$PWD/.tools/venv/bin/meson"
elif have_cmd meson && meson_ok meson; then meson_cmd="$(command -v meson)"
fi
if [ -z "$meson_cmd" ] && ! { have_cmd python3 && python3 -c 'import ensurepip, venv' >/dev/null 2>&1; }; then
  need_pkgs+=(python3-venv)
fi

if [ ${#need_pkgs[@]} -gt 0 ]; then
  cmd="apt-get update && apt-get install -y --no-install-recommends ${need_pkgs[*]}"
  if [ "$(id -u)" -eq 0 ] && have_cmd apt-get; then
    echo "deps: installing ${need_pkgs[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "${need_pkgs[@]}" >/dev/null
  elif have_cmd sudo && sudo -n true 2>/dev/null && have_cmd apt-get; then
    echo "deps: installing ${need_pkgs[*]} with sudo" >&2
    sudo -n env DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends ${need_pkgs[*]} >/dev/null"
  else
    echo "deps: missing packages; run as root:  $cmd" >&2
    exit 1
  fi
fi

if [ -z "$meson_cmd" ]; then
  echo "deps: installing meson 1.6.1 into .tools/venv" >&2
  rm -rf .tools/venv
  python3 -m venv .tools/venv
  .tools/venv/bin/pip install -q --disable-pip-version-check meson==1.6.1
  meson_cmd="$PWD/.tools/venv/bin/meson"
fi
echo "$meson_cmd" > .tools/meson

# Optional: cuobjdump and nvdisasm, so the SASS checks (check_sass*, sass_cost_table) run
# where the CUDA toolkit lacks them (a compiler-only install). NVIDIA's PyPI wheels
# nvidia-cuda-cuobjdump / nvidia-cuda-nvdisasm, unpacked into .tools/cuda/bin. Failure to
# fetch them is not an error: those tests then skip.
if command -v nvcc >/dev/null 2>&1 && ! command -v cuobjdump >/dev/null 2>&1 \
   && [ ! -x "$(dirname "$(command -v nvcc)")/cuobjdump" ] && [ ! -x .tools/cuda/bin/cuobjdump ]; then
  echo "deps: fetching cuobjdump/nvdisasm wheels into .tools/cuda (optional)" >&2
  tmpw=$(mktemp -d)
  if python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmpw" nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm >/dev/null 2>&1; then
    mkdir -p .tools/cuda/bin
    for w in "$tmpw"/*.whl; do
      python3 - "$w" <<'PY' || true
import sys, zipfile, os, stat
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    b = os.path.basename(n)
    if n.endswith(("/bin/cuobjdump", "/bin/nvdisasm")):
        p = os.path.join(".tools/cuda/bin", b)
        open(p, "wb").write(z.read(n))
        os.chmod(p, 0o755)
PY
    done
  else
    echo "deps: could not fetch them; the SASS checks will skip" >&2
  fi
  rm -rf "$tmpw"
fi
