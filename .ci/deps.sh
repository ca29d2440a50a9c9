#!/usr/bin/env bash
# Installs what `make verify` and `make figures` need on a Debian 12 machine, once.
# Debian packages: g++, pkg-config, ninja-build, git, python3 (+ python3-venv),
# libboost-test-dev, libboost-program-options-dev, gnuplot-nox,
# libgnuplot-iostream-dev (with the Boost iostreams/filesystem/system it needs),
# cmake (the install check builds examples/ with CMake), openmpi-bin + libopenmpi-dev (mpicc).
# Python package (python/, issue #38): python3-dev (Python.h) and, in .tools/venv, meson-python,
# nanobind, pytest and numpy (the module's build and its CPU tests); optional: without them the
# module and its tests are skipped.
# Meson: Debian 12's meson 1.0 does not track header dependencies of .cu files,
# so a meson >= 1.4 is used: one on PATH if it is new enough, otherwise meson 1.6.1
# from PyPI in .tools/venv. The meson to use is written to .tools/meson.
# Without root (and without passwordless sudo) it prints the install command and stops.
# .ci/deps.sh --cutlass fetches the CUTLASS headers alone (no root), for the Python package's kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tools

# Optional: the CUTLASS/CuTe headers for the tensor-core Gram kernels (src/support/gram/, issue #27), from
# NVIDIA's PyPI wheel nvidia-cutlass (it carries the whole C++ include tree), pinned by version and
# hash, unpacked into .tools/cutlass/include (Meson's option cutlass=auto finds it there). Only
# where nvcc is present; failure to fetch it is not an error: the Gram feature is then skipped.
fetch_cutlass() {
  cutlass_version=4.2.0.0
  cutlass_sha256=f9599ada45c7bcb6bf53f7d3f0a7d154183e53451c01bfa59eecd37dd4a693f6
  if command -v nvcc >/dev/null 2>&1 && [ "$(cat .tools/cutlass/VERSION 2>/dev/null)" != "$cutlass_version" ]; then
    echo "deps: fetching the CUTLASS $cutlass_version headers (nvidia-cutlass wheel) into .tools/cutlass (optional)" >&2
    tmpw=$(mktemp -d)
    pipc=(python3 -m pip)  # Debian's python3 may lack pip; the venv made for Meson has one
    python3 -m pip --version >/dev/null 2>&1 || { [ -x .tools/venv/bin/python ] && pipc=(.tools/venv/bin/python -m pip); }
    if "${pipc[@]}" download -q --no-deps --only-binary=:all: --disable-pip-version-check -d "$tmpw" \
         "nvidia-cutlass==$cutlass_version" >/dev/null 2>&1 \
       && echo "$cutlass_sha256  $(ls "$tmpw"/nvidia_cutlass-*.whl)" | sha256sum -c --status; then
      rm -rf .tools/cutlass
      python3 - "$tmpw"/nvidia_cutlass-*.whl <<'PY' && echo "$cutlass_version" > .tools/cutlass/VERSION
import sys, zipfile, os
z = zipfile.ZipFile(sys.argv[1])
pre = "cutlass_library/source/include/"
for n in z.namelist():
    if n.startswith(pre) and not n.endswith("/"):
        p = os.path.join(".tools/cutlass/include", n[len(pre):])
        os.makedirs(os.path.dirname(p), exist_ok=True)
        open(p, "wb").write(z.read(n))
PY
    else
      echo "deps: could not fetch nvidia-cutlass==$cutlass_version (or its hash differs); the Gram kernels will be skipped" >&2
    fi
    rm -rf "$tmpw"
  fi
}

# .ci/deps.sh --cutlass: the CUTLASS headers alone, no root needed (what `pip install .` on a GPU machine needs for
# the package's kernels: python/README.md), then stop.
if [ "${1:-}" = "--cutlass" ]; then
  fetch_cutlass
  [ -f .tools/cutlass/VERSION ] || { echo "deps: no CUTLASS in .tools/cutlass (it needs nvcc on PATH and PyPI)" >&2; exit 1; }
  exit 0
fi


# need_pkgs: what `make verify` cannot do without; opt_pkgs: what only some tests and `make
# figures` use (gnuplot: the figures and their smoke test; cmake: the install example's CMake
# build; MPI: multi_hist_mpi and its test). Each of those is skipped, with a Meson message,
# when missing; an install that fails (no root, no network) is then a warning, not an error.
need_pkgs=()
opt_pkgs=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_cmd g++        || need_pkgs+=(g++)
have_cmd pkg-config || need_pkgs+=(pkg-config)
have_cmd ninja      || need_pkgs+=(ninja-build)
have_cmd git        || need_pkgs+=(git)
have_cmd python3    || need_pkgs+=(python3)
have_cmd gnuplot    || opt_pkgs+=(gnuplot-nox)
have_cmd cmake      || opt_pkgs+=(cmake)
have_cmd mpicc      || opt_pkgs+=(openmpi-bin libopenmpi-dev)
[ -f /usr/include/boost/test/unit_test.hpp ]     || need_pkgs+=(libboost-test-dev)
[ -f /usr/include/boost/program_options.hpp ]    || need_pkgs+=(libboost-program-options-dev)
python3 -c 'import os, sysconfig, sys; sys.exit(0 if os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)' 2>/dev/null \
                                                 || opt_pkgs+=(python3-dev)
[ -f /usr/include/gnuplot-iostream.h ]           || opt_pkgs+=(libgnuplot-iostream-dev libboost-iostreams-dev libboost-filesystem-dev libboost-system-dev)

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

all_pkgs=("${need_pkgs[@]}" "${opt_pkgs[@]}")
if [ ${#all_pkgs[@]} -gt 0 ]; then
  cmd="apt-get update && apt-get install -y --no-install-recommends ${all_pkgs[*]}"
  ok=1
  if [ "$(id -u)" -eq 0 ] && have_cmd apt-get; then
    echo "deps: installing ${all_pkgs[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    # short timeouts: a machine without network gives up in seconds, not minutes
    aopt=(-o Acquire::Retries=0 -o Acquire::http::Timeout=10 -o Acquire::https::Timeout=10)
    { apt-get "${aopt[@]}" update -q >/dev/null && apt-get "${aopt[@]}" install -y -q --no-install-recommends "${all_pkgs[@]}" >/dev/null; } || ok=0
  elif have_cmd sudo && sudo -n true 2>/dev/null && have_cmd apt-get; then
    echo "deps: installing ${all_pkgs[*]} with sudo" >&2
    sudo -n env DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends ${all_pkgs[*]} >/dev/null" || ok=0
  else
    ok=0
  fi
  if [ $ok = 0 ]; then
    if [ ${#need_pkgs[@]} -gt 0 ]; then
      echo "deps: missing packages ${need_pkgs[*]}; run as root:  $cmd" >&2
      exit 1
    fi
    echo "deps: could not install the optional ${opt_pkgs[*]}: the figures, the install example's CMake build or the MPI test are skipped (to have them:  $cmd)" >&2
  fi
fi

# Optional: cuobjdump and nvdisasm, so the SASS checks (check_sass*, sass_cost_table) run
# where the CUDA toolkit lacks them (a compiler-only install). NVIDIA's PyPI wheels
# nvidia-cuda-cuobjdump / nvidia-cuda-nvdisasm, unpacked into .tools/cuda/bin. Failure to
# fetch them is not an error: those tests then skip.
fetch_sass_tools() {
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
}

# The two optional fetches above need pip alone: where python3 has its own they run in the background
# beside the venv's install (each mostly waits on the network or on one core: issue #39), else after
# it (the CUTLASS one then with the venv's pip).
fetch_bg=()
if python3 -m pip --version >/dev/null 2>&1; then
  fetch_sass_tools & fetch_bg+=($!)
  fetch_cutlass & fetch_bg+=($!)
fi

# The Python package's build and tests (python/README.md): into the venv that runs Meson (Meson's
# python.find_installation() is that interpreter). Optional: without them -Dpython=auto skips the module.
py_pkgs=(meson-python pyproject-metadata packaging nanobind pytest numpy)
if [ -z "$meson_cmd" ]; then
  echo "deps: installing meson 1.6.1 and ${py_pkgs[*]} into .tools/venv" >&2
  rm -rf .tools/venv
  python3 -m venv .tools/venv
  # one pip run for both (one resolution, one download pass); should the optional ones fail, meson
  # alone, and the step below says which are missing. --no-compile: pip byte-compiles none of the
  # modules (numpy's, pytest's, meson's), which costs the first make verify ~4 CPU-s and ~3-4 s of
  # wall time in which little else runs (issue #39; 2-core machine, warm pip cache: deps.sh 19.6 ->
  # 15.7 and 20.3 -> 17.1 CPU-s); Python compiles the modules it imports on first use into the venv's
  # __pycache__ (meson's first setup ~1.3 CPU-s more, once)
  .tools/venv/bin/pip install -q --disable-pip-version-check --no-compile meson==1.6.1 "${py_pkgs[@]}" \
    || .tools/venv/bin/pip install -q --disable-pip-version-check --no-compile meson==1.6.1
  meson_cmd="$PWD/.tools/venv/bin/meson"
fi
echo "$meson_cmd" > .tools/meson

if [ "$meson_cmd" = "$PWD/.tools/venv/bin/meson" ] \
   && ! .tools/venv/bin/python -c 'import mesonpy, pyproject_metadata, packaging, nanobind, pytest, numpy' >/dev/null 2>&1; then
  echo "deps: installing ${py_pkgs[*]} into .tools/venv (the Python package's build and tests)" >&2
  .tools/venv/bin/pip install -q --disable-pip-version-check --no-compile "${py_pkgs[@]}" \
    || echo "deps: could not install ${py_pkgs[*]}: the Python package and its tests are skipped" >&2
fi

for p in "${fetch_bg[@]}"; do wait "$p"; done
if [ ${#fetch_bg[@]} = 0 ]; then
  fetch_sass_tools
  fetch_cutlass
fi
