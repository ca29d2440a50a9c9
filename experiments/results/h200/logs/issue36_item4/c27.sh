#!/bin/bash
# device call 27 (session 6) at $TDMAPS_COMMIT: pip install . and the Python peers of record (the kernels with the
# epilogue written once, sm90-evt building its Params each call), and the GPU pytest suite; one archive back
set -o pipefail; export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r27; mkdir -p $R; T0=$SECONDS; REPO=$PWD
pack() { tar czf $OUT/r27.tgz -C $R . 2>/dev/null; }
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
mkdir -p .tools && cp -r .carry/cutlass .tools/cutlass
python3 -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata > $R/pip_deps.log 2>&1
timeout 300 python3 experiments/peers/python_peers.py --pip-install "--no-build-isolation --no-index ." --out $R/res > $R/peers.log 2>&1; echo "peers rc=$? at $((SECONDS-T0)) s"; grep -E "pip install|failed|Error" $R/peers.log | grep -v cuVS | head -5
cut -d, -f1-7,10 $R/res/h200/peers_python.csv | grep -E "^1024|^32768" | grep tdmaps
pack
cd $R && timeout 100 python3 -X faulthandler $REPO/python/tests/run_gpu.py -v -p no:cacheprovider -rs > $R/python_gpu.log 2>&1; echo "pytest rc=$? at $((SECONDS-T0)) s: $(tail -n 1 $R/python_gpu.log)"; grep -E "FAILED|ERROR|Fatal" $R/python_gpu.log | head -5
pack; echo total $((SECONDS-T0)) s
