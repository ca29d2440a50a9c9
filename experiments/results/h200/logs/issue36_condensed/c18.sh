#!/bin/bash
# device call 18 (session 5): sm90-evt condensed checked and timed (bench_gram built here at 5fb0eec), its
# sanitizers, then pip install . and the Python peers of record, the overhead logs, the GPU pytest suite
set -o pipefail; export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$SECONDS; REPO=$PWD
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $R/nvidia_smi.txt
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 150 /tmp/bench_gram --kernel sm80-8w,sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --out $R/quick > $R/quick.log 2>&1; rc=$?
echo "bench quick rc=$rc at $((SECONDS-T0)) s"; grep -E "check|failed|left out" $R/quick.log | head -12
f=$(ls $R/quick/*/gram.csv 2>/dev/null | head -1); [ -n "$f" ] && grep -E "condensed|,lower,|,write|mirror" $f | grep -E "sm90-evt|sm80-8w|write" | cut -d, -f1-5,10,11,12,23
tar czf $OUT/r18.tgz -C $R .
[ $rc -ne 0 ] && exit 1
timeout 100 compute-sanitizer --tool memcheck /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 512 --d 64 --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/memcheck_bench.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_bench.log)"
timeout 120 compute-sanitizer --tool racecheck /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 512 --d 64 --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/racecheck_bench.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck_bench.log | tr '\n' ' ')"
tar czf $OUT/r18.tgz -C $R .
mkdir -p .tools && cp -r .carry/cutlass .tools/cutlass
python3 -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata
timeout 220 python3 experiments/peers/python_peers.py --pip-install "--no-build-isolation --no-index ." --out $R/res > $R/peers.log 2>&1; echo "peers rc=$? at $((SECONDS-T0)) s"; grep -E "pip install|failed|Error" $R/peers.log | grep -v cuVS | head -8
cut -d, -f1-13,15 $R/res/h200/peers_python.csv | grep -E "tdmaps|torch"
tar czf $OUT/r18.tgz -C $R .
cd $R && timeout 100 python3 -X faulthandler $REPO/python/tests/run_gpu.py -v -p no:cacheprovider -rs > $R/python_gpu.log 2>&1; echo "pytest rc=$? at $((SECONDS-T0)) s: $(tail -n 1 $R/python_gpu.log)"; grep -E "FAILED|ERROR|Fatal" $R/python_gpu.log | head -10
tar czf $OUT/r18.tgz -C $R .; echo total $((SECONDS-T0)) s
