#!/bin/bash
# device call 51 (session 10) at $TDMAPS_COMMIT: pip install . (the GPU kernels built here) and the GPU pytest suite,
# with kernel_for sending count and the exact mode to sm90-ws. One archive back.
set -o pipefail; export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
echo "$TDMAPS_COMMIT" > .tdmaps-commit
R=/tmp/r51; mkdir -p $R; T0=$SECONDS; REPO=$PWD
pack() { tar czf $OUT/r51.tgz -C $R . 2>/dev/null; }
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
mkdir -p .tools && cp -r .carry/cutlass .tools/cutlass
python3 -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata > $R/pip_deps.log 2>&1
timeout 280 python3 -m pip install -v --no-build-isolation --no-index . > $R/pip_install.log 2>&1; echo "pip install rc=$? at $((SECONDS-T0)) s"
cd $R && python3 -c "import tdmaps; print({o: tdmaps.kernel_for(o, 'tf32', 4096) for o in ('hist','count','count-exact','hist-exact','minmax')})" > $R/kernel_for.log 2>&1; cat $R/kernel_for.log
cd $R && timeout 150 python3 -X faulthandler $REPO/python/tests/run_gpu.py -v -p no:cacheprovider -rs > $R/python_gpu.log 2>&1; echo "pytest rc=$? at $((SECONDS-T0)) s: $(tail -n 1 $R/python_gpu.log)"; grep -E "FAILED|ERROR|Fatal" $R/python_gpu.log | head -5
pack; echo total $((SECONDS-T0)) s
