#!/bin/bash
# device call 29 (session 6) at $TDMAPS_COMMIT: the epilogue written once at the old kernels' cost (79d4449; built at 6f554d9): bench_gram
# of record (every kernel checked against float64 before it is timed), memcheck and racecheck of classic, sm80-8w and
# sm90-ws, pip install . and the GPU pytest suite. One archive back.
set -o pipefail; export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r29; mkdir -p $R; T0=$SECONDS; REPO=$PWD
pack() { tar czf $OUT/r29.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 220 /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"; tail -2 $R/bench_gram.log; grep -c "^\[check\]" $R/bench_gram.log
pack
for tool in memcheck racecheck; do
timeout 100 compute-sanitizer --tool $tool /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws --prec tf32 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 600 --hist-verify 600 --out $R/san_$tool > $R/${tool}_bench.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"
done
pack
mkdir -p .tools && cp -r .carry/cutlass .tools/cutlass
python3 -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata > $R/pip_deps.log 2>&1
timeout 200 python3 -m pip install --no-build-isolation --no-index . > $R/pip_install.log 2>&1; echo "pip install rc=$? at $((SECONDS-T0)) s"
cd $R && timeout 100 python3 -X faulthandler $REPO/python/tests/run_gpu.py -v -p no:cacheprovider -rs > $R/python_gpu.log 2>&1; echo "pytest rc=$? at $((SECONDS-T0)) s: $(tail -n 1 $R/python_gpu.log)"; grep -E "FAILED|ERROR|Fatal" $R/python_gpu.log | head -5
pack; echo total $((SECONDS-T0)) s
