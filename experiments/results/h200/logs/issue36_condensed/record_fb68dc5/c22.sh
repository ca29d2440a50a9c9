#!/bin/bash
# device call 22 (session 5) at $TDMAPS_COMMIT: sm90-evt's BF16 / FP16 symmetric product checked and timed (quick,
# with the --sym sizes), its sanitizers; bench_gram of record; the CUTLASS example examples/gram_sm90; pip install .,
# the Python peers of record and the GPU pytest suite
set -o pipefail; export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=$OUT; mkdir -p $R; T0=$SECONDS; REPO=$PWD
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
gunzip -c .carry/bin/gram_sm90.gz > /tmp/gram_sm90 && chmod +x /tmp/gram_sm90
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 120 /tmp/bench_gram --kernel sm80-8w,sm90-evt --prec tf32,bf16,fp16 --N 32768 --d 128 --out $R/quick > $R/quick.log 2>&1; rc=$?
echo "bench quick rc=$rc at $((SECONDS-T0)) s"; grep -E "failed|left out|mirror-written" $R/quick.log | head -8
f=$(ls $R/quick/*/gram.csv 2>/dev/null | head -1); [ -n "$f" ] && grep -E "mirror|full-gram|condensed,tdmaps" $f | cut -d, -f1-5,10,23
tar czf $OUT/r22.tgz -C $R .
[ $rc -ne 0 ] && exit 1
timeout 60 compute-sanitizer --tool memcheck /tmp/bench_gram --kernel sm90-evt --prec bf16 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/memcheck_bench.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_bench.log)"
timeout 90 compute-sanitizer --tool racecheck /tmp/bench_gram --kernel sm90-evt --prec bf16 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/racecheck_bench.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck_bench.log | tr '\n' ' ')"
tar czf $OUT/r22.tgz -C $R .
timeout 200 /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"; tail -2 $R/bench_gram.log
grep -E "^8192," $R/res/h200/gram.csv | cut -d, -f1-5,10,23
tar czf $OUT/r22.tgz -C $R .
for a in "--N 1000 --d 64" "--N 1004 --d 100" "--N 32768 --d 128" "--N 65536 --d 128"; do timeout 60 /tmp/gram_sm90 $a >> $R/example_gram_sm90.log 2>&1; echo "example $a rc=$?"; done; cat $R/example_gram_sm90.log | tail -8
tar czf $OUT/r22.tgz -C $R .
mkdir -p .tools && cp -r .carry/cutlass .tools/cutlass
python3 -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata
timeout 200 python3 experiments/peers/python_peers.py --pip-install "--no-build-isolation --no-index ." --out $R/res > $R/peers.log 2>&1; echo "peers rc=$? at $((SECONDS-T0)) s"; grep -E "pip install|failed|Error" $R/peers.log | grep -v cuVS | head -5
cut -d, -f1-7,10 $R/res/h200/peers_python.csv | grep -E "^1024|^32768" | head -20
tar czf $OUT/r22.tgz -C $R .
cd $R && timeout 60 python3 -X faulthandler $REPO/python/tests/run_gpu.py -v -p no:cacheprovider -rs > $R/python_gpu.log 2>&1; echo "pytest rc=$? at $((SECONDS-T0)) s: $(tail -n 1 $R/python_gpu.log)"; grep -E "FAILED|ERROR|Fatal" $R/python_gpu.log | head -5
tar czf $OUT/r22.tgz -C $R .; echo total $((SECONDS-T0)) s
