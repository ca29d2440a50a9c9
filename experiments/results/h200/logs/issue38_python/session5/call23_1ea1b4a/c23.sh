#!/bin/bash
# device call 23 (session 5) at $TDMAPS_COMMIT: pip install . and the Python peers of record (the C++ rows now
# tdmaps._core.Enqueue, timed as the Python call), the overhead attribution at N = 1024, the GPU pytest suite
set -o pipefail; export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=$OUT; mkdir -p $R; T0=$SECONDS; REPO=$PWD
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
mkdir -p .tools && cp -r .carry/cutlass .tools/cutlass
python3 -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata
timeout 230 python3 experiments/peers/python_peers.py --pip-install "--no-build-isolation --no-index ." --out $R/res > $R/peers.log 2>&1; echo "peers rc=$? at $((SECONDS-T0)) s"; grep -E "pip install|failed|Error" $R/peers.log | grep -v cuVS | head -5
cut -d, -f1-7,10 $R/res/h200/peers_python.csv | grep -E "^1024|^32768" | grep tdmaps
tar czf $OUT/r23.tgz -C $R .
cd $R && timeout 60 python3 -X faulthandler $REPO/python/tests/run_gpu.py -v -p no:cacheprovider -rs > $R/python_gpu.log 2>&1; echo "pytest rc=$? at $((SECONDS-T0)) s: $(tail -n 1 $R/python_gpu.log)"; grep -E "FAILED|ERROR|Fatal" $R/python_gpu.log | head -5
tar czf $OUT/r23.tgz -C $R .
cd /tmp; for o in lower square; do timeout 30 python3 $REPO/experiments/peers/python_overhead.py --N 1024 --out $o --reps 2000 --warmup 200 > $R/overhead_1024_$o.log 2>&1; echo "overhead $o rc=$?: $(tail -n 1 $R/overhead_1024_$o.log)"; done
tar czf $OUT/r23.tgz -C $R .; echo total $((SECONDS-T0)) s
