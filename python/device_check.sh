#!/usr/bin/env bash
# The Python package on a bare GPU machine (issue #38): run from the repository root of a copy of
# the tree that carries .carry/ (wheels in .carry/wheels, CUTLASS headers in .carry/cutlass/include),
# without network. Installs meson-python from .carry/wheels, `pip install .` with the GPU kernels
# (timed), then the GPU pytest suite and the CPU one against the installed package.
# Writes its logs into $OUT (default build-py/out): pip_install.log, meson-log.txt, python_gpu.log,
# python_gpu.xml (JUnit), python_cpu.log, summary.txt. Exit status: that of the GPU suite (or of pip).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build-py/out}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
: > "$OUT/summary.txt"
say "device_check: $(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>&1 | head -1); nvcc: $(nvcc --version 2>&1 | tail -1); $("$PY" --version 2>&1); meson $(meson --version 2>&1); ninja $(ninja --version 2>&1); $(nproc) cores"

# 1. the build backend, offline
"$PY" -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata \
  || { say "device_check: could not install meson-python from .carry/wheels"; exit 1; }
"$PY" -c 'import mesonpy, nanobind; print("meson-python", mesonpy.__version__, "nanobind", nanobind.__version__)' | tee -a "$OUT/summary.txt"

# 2. pip install . with the GPU kernels: CUTLASS from .carry, a GPU seen at configure time (gram_bench=auto)
rm -rf build-py/pip
start=$SECONDS
"$PY" -m pip install -v --no-build-isolation --no-deps --no-index \
  -Csetup-args=-Dcutlass="$PWD/.carry/cutlass/include" -Cbuild-dir=build-py/pip . > "$OUT/pip_install.log" 2>&1
pip_rc=$?
pip_s=$((SECONDS - start))
cp build-py/pip/meson-logs/meson-log.txt "$OUT/" 2>/dev/null
say "pip install . : exit $pip_rc after $pip_s s (log: pip_install.log)"
grep -E "^ *Message: (CUDA|CUTLASS|Gram kernels|Python package)" "$OUT/pip_install.log" | sed 's/^ *//' | tee -a "$OUT/summary.txt"
if [ $pip_rc -ne 0 ]; then
  tail -40 "$OUT/pip_install.log"
  exit $pip_rc
fi

# 3. the installed package (imported from outside the source tree)
cd "$OUT"
"$PY" - <<'PY' 2>&1 | tee -a summary.txt
import tdmaps
print("installed:", tdmaps.__file__)
print("build_info:", tdmaps.build_info())
for out in ("lower", "condensed", "hist", "mirror", "count", "minmax"):
    print("kernel_for", out, {p: tdmaps.kernel_for(out, p, 4096) for p in tdmaps.PRECISIONS})
PY
cd - >/dev/null
tests=$PWD/python/tests
(cd "$OUT" && "$PY" "$tests/run_gpu.py" -v -p no:cacheprovider -rs --durations=10 --junitxml="$PWD/python_gpu.xml" > python_gpu.log 2>&1)
gpu_rc=$?
(cd "$OUT" && "$PY" -m pytest -q -p no:cacheprovider "$tests/test_cpu.py" > python_cpu.log 2>&1)
cpu_rc=$?
say "GPU suite: exit $gpu_rc: $(tail -1 "$OUT/python_gpu.log")"
say "CPU suite (installed package; the CLI comparisons skip without TDMAPS_TDMAP): exit $cpu_rc: $(tail -1 "$OUT/python_cpu.log")"
grep -E "FAILED|ERROR" "$OUT/python_gpu.log" | head -30
exit $gpu_rc
