#!/bin/bash
# device call 20 (session 5): sm90-evt condensed v3 (staged, 16-byte stores) at 31f78e2: checked and timed, its
# sanitizers; then bench_gram of record; then pip install . and the Python peers of record, the GPU pytest suite
set -o pipefail; export TDMAPS_COMMIT=31f78e263064 PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$SECONDS; REPO=$PWD
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 100 /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --out $R/quick > $R/quick.log 2>&1; rc=$?
echo "bench quick rc=$rc at $((SECONDS-T0)) s"; grep -E "failed|left out" $R/quick.log | head -5
f=$(ls $R/quick/*/gram.csv 2>/dev/null | head -1); [ -n "$f" ] && grep -E "condensed|,lower,|,write" $f | grep -E "sm90-evt|write" | cut -d, -f1-5,10,23
tar czf $OUT/r20.tgz -C $R .
[ $rc -ne 0 ] && exit 1
m=$(grep "^65536,128,tf32,condensed,tdmaps-ltm-e-sm90-evt" $f | cut -d, -f10); echo "condensed 65536/128: $m ms"
awk -v m=$m 'BEGIN { exit !(m < 7.0) }' || { echo "not faster than v1 (7.38 ms): stop"; exit 3; }
timeout 60 compute-sanitizer --tool memcheck /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 516 --d 64 --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/memcheck_bench.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_bench.log)"
timeout 90 compute-sanitizer --tool racecheck /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 516 --d 64 --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/racecheck_bench.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck_bench.log | tr '\n' ' ')"
tar czf $OUT/r20.tgz -C $R .
timeout 150 /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"; tail -2 $R/bench_gram.log
tar czf $OUT/r20.tgz -C $R .
mkdir -p .tools && cp -r .carry/cutlass .tools/cutlass
python3 -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata
timeout 200 python3 experiments/peers/python_peers.py --pip-install "--no-build-isolation --no-index ." --out $R/res > $R/peers.log 2>&1; echo "peers rc=$? at $((SECONDS-T0)) s"; grep -E "pip install|failed|Error" $R/peers.log | grep -v cuVS | head -5
cut -d, -f1-7,10 $R/res/h200/peers_python.csv | grep -E "tdmaps|torch" | head -30
tar czf $OUT/r20.tgz -C $R .
cd $R && timeout 60 python3 -X faulthandler $REPO/python/tests/run_gpu.py -v -p no:cacheprovider -rs > $R/python_gpu.log 2>&1; echo "pytest rc=$? at $((SECONDS-T0)) s: $(tail -n 1 $R/python_gpu.log)"; grep -E "FAILED|ERROR|Fatal" $R/python_gpu.log | head -5
tar czf $OUT/r20.tgz -C $R .; echo total $((SECONDS-T0)) s
