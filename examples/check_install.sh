#!/usr/bin/env bash
# The installed package works for a consumer (test 'example_install', examples/meson.build):
#   1. installs the build BUILDDIR into a scratch directory (meson install --destdir);
#   2. builds examples/pairs against it with CMake (find_package(tdmaps CONFIG),
#      CMAKE_PREFIX_PATH) and with Meson (dependency('tdmaps') through PKG_CONFIG_PATH),
#      each in its own scratch build directory;
#   3. runs both and checks the CPU result line ("cpu: ... ok"; the GPU part runs where
#      a GPU is present and must then be right too);
#   4. the same with tdmaps as a Meson subproject (a copy of the example whose
#      subprojects/tdmaps links to this source tree; no install).
#   Before the builds: the installed headers hold the maps alone (issue #39): no experiment or
#   figure traits (map_traits, experiment::, a figure style, root_facts: src/support/registry/,
#   not installed).
# Usage: check_install.sh BUILDDIR EXAMPLEDIR MESON-COMMAND...
# Exit 0: both passed; 1: a step failed (its output is printed); 77 (skipped): no cmake
# (the Meson part must still pass). Needs no GPU; nvcc (on PATH, NVCC=, or
# /usr/local/cuda/bin) adds the GPU part to both builds.
set -uo pipefail
builddir=$(cd "$1" && pwd); example=$(cd "$2" && pwd); shift 2
srcroot=$(cd "$example/../.." && pwd)
meson_cmd=("$@")
[ ${#meson_cmd[@]} -gt 0 ] || meson_cmd=(meson)

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tdmaps-install.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
log="$scratch/log"
step() {  # step WHAT CMD...: runs CMD, output to the log; on failure prints it and exits 1
  local what="$1"; shift
  if ! "$@" >"$log" 2>&1; then
    echo "FAIL: $what: $*"; tail -n 60 "$log"; exit 1
  fi
}
t0=$SECONDS

# 1. install into the scratch directory (the prefix of BUILDDIR, below it)
step "meson install" "${meson_cmd[@]}" install -C "$builddir" --no-rebuild --quiet --destdir "$scratch/root"
prefix=$("${meson_cmd[@]}" introspect --buildoptions "$builddir" |
         python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
root="$scratch/root$prefix"
cfg=$(find "$root" -name tdmapsConfig.cmake -path '*/cmake/tdmaps/*' | head -n 1)
pc=$(find "$root" -name tdmaps.pc | head -n 1)
for f in "$root/include/tdmaps/launch.cuh" "$root/bin/tdmap" "$cfg" "$pc"; do
  [ -n "$f" ] && [ -e "$f" ] || { echo "FAIL: not installed: ${f:-tdmapsConfig.cmake or tdmaps.pc} under $root"; find "$root" | head -40; exit 1; }
done
echo "installed into $root (${cfg#$root/}, ${pc#$root/})"
# the installed headers hold the maps alone: the experiments' and figures' knowledge of a map is
# src/support/registry/ (not installed)
if leaks=$(grep -rnE 'map_traits|experiment::|style\{|root_facts|joins *=|static constexpr look ' "$root/include/tdmaps"); then
  echo "FAIL: experiment or figure traits in the installed headers (they belong in src/support/registry/):"
  printf '%s\n' "$leaks" | head -20; exit 1
fi
[ ! -e "$root/include/tdmaps/traits.hpp" ] && [ ! -e "$root/include/registry" ] ||
  { echo "FAIL: traits.hpp or the experiments table installed"; exit 1; }
echo "installed headers: the maps alone (no map_traits, experiment::, style{, root_facts)"
step "installed tdmap CLI" "$root/bin/tdmap" --help

# the CUDA compiler for the examples, if any
nvcc=${NVCC:-$(command -v nvcc || true)}
[ -n "$nvcc" ] || { [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc; }
if [ -n "$nvcc" ]; then echo "GPU part built with $nvcc"; else echo "no nvcc: CPU part only"; fi

check_run() {  # check_run WHAT EXE: runs the example; its CPU line must say ok
  local what="$1" exe="$2" out rc
  out=$("$exe" 2>&1); rc=$?
  printf '%s\n' "$out" | sed "s/^/  $what| /"
  if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q '^cpu: .* ok$'; then
    echo "FAIL: $what: the example exited $rc or its CPU line is not ok"; exit 1
  fi
}

# 2./3. Meson, through pkg-config (relocatable .pc: prefix=${pcfiledir}/...)
step "pkg-config" env PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --cflags tdmaps
echo "pkg-config --cflags tdmaps: $(cat "$log")"
( export PKG_CONFIG_PATH="$(dirname "$pc")"; [ -n "$nvcc" ] && export NVCC="$nvcc"
  step "meson setup (example)" "${meson_cmd[@]}" setup "$scratch/meson" "$example" --wrap-mode=nofallback
  step "meson compile (example)" "${meson_cmd[@]}" compile -C "$scratch/meson" ) || exit 1
check_run meson "$scratch/meson/pairs"

# 4. Meson, tdmaps as a subproject (forcefallback: not the installed one)
mkdir -p "$scratch/sub/subprojects"
cp "$example"/* "$scratch/sub/"
ln -s "$srcroot" "$scratch/sub/subprojects/tdmaps"
( unset PKG_CONFIG_PATH; [ -n "$nvcc" ] && export NVCC="$nvcc"
  step "meson setup (example, subproject)" "${meson_cmd[@]}" setup "$scratch/sub/build" "$scratch/sub" \
    --wrap-mode=forcefallback -Dtdmaps:cuda=disabled
  step "meson compile (example, subproject)" "${meson_cmd[@]}" compile -C "$scratch/sub/build" pairs ) || exit 1
check_run subproject "$scratch/sub/build/pairs"

# 2./3. CMake, through find_package(tdmaps CONFIG)
if ! command -v cmake >/dev/null 2>&1; then
  echo "SKIP: cmake not found: the CMake part did not run (.ci/deps.sh installs it)"; exit 77
fi
cuda_arg=()
[ -n "$nvcc" ] && cuda_arg=(-DCMAKE_CUDA_COMPILER="$nvcc")
step "cmake configure (example)" cmake -S "$example" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$root" \
  -DCMAKE_BUILD_TYPE=Release "${cuda_arg[@]}"
grep -q "pairs: GPU part\|pairs: no CUDA" "$log" && grep "pairs: " "$log" | sed 's/^-- /cmake: /'
step "cmake build (example)" cmake --build "$scratch/cmake" -j "$(nproc 2>/dev/null || echo 2)"
check_run cmake "$scratch/cmake/pairs"

echo "example_install: installed, built and ran with Meson, as a Meson subproject and with CMake in $((SECONDS - t0)) s"
