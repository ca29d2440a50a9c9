#!/bin/bash
# device call 33 (session 7) at $TDMAPS_COMMIT: pip install . and the Python GPU suite after the one-dispatch fold
# (c042102), and ncu of the kernels behind the two missed Gram targets that had no profile: sm80-8w's eps-count
# (37-count, N = 10^6, d = 128) and sm90-ws 3xTF32 lower (27-syrk, N = 65536, d = 128); ncu_binds reads the longest
# launch of each. One archive back.
set -o pipefail; export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r33; mkdir -p $R; T0=$SECONDS; REPO=$PWD
pack() { tar czf $OUT/r33.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
mkdir -p .tools/cutlass && tar xJf .carry/cutlass_inc.tar.xz -C .tools   # what .ci/deps.sh puts there (.tools/cutlass/include)
python3 -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata > $R/pip_deps.log 2>&1
( timeout 240 python3 -m pip install --no-build-isolation --no-index . > $R/pip_install.log 2>&1; echo "pip install rc=$? at $((SECONDS-T0)) s" > $R/pip_rc.txt ) &
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
prof() {  # prof NAME REGEX COUNT bench_gram-args...
  local k=$1 re=$2 count=$3; shift 3
  local left=$((400-(SECONDS-T0))); [ $left -lt 40 ] && { echo "ncu $k: no time left"; return; }
  timeout $left ncu --kill on --kernel-name-base mangled --kernel-name "regex:$re" --launch-count $count $S -o $R/ncu_$k /tmp/bench_gram "$@" --out $R/ncu_x > $R/ncu_${k}_run.log 2>&1; echo "ncu $k rc=$? at $((SECONDS-T0)) s: $(grep -c '==PROF== Profiling' $R/ncu_${k}_run.log) launches"
  ncu --import $R/ncu_$k.ncu-rep --page details > $R/ncu_$k.txt 2>&1; ncu --import $R/ncu_$k.ncu-rep --page raw --csv > $R/ncu_${k}_raw.csv 2>&1; rm -f $R/ncu_$k.ncu-rep
  grep -E "Duration" $R/ncu_$k.txt | sort -k3 -n | tail -1
  pack
}
prof syrk_lower 'gram_kernel_sm90ILNS_4PrecE1EN6tdmaps7TileMapINS3_3LTMINS3_5SqrtEEEEEELNS_3OutE0E' 3 --kernel sm90-ws --prec 3xtf32 --N 65536 --d 128 --sym none --verify-max 200 --samples 64 --reps 1
prof count 'gram_kernel_classicILNS_4PrecE0EN6tdmaps7TileMapINS2_3LTMINS2_5SqrtEEEEEELNS_3OutE4ENS_10Warp8Shape' 3 --kernel sm80-8w --prec tf32 --N 1024 --d 128 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 1000000
wait; cat $R/pip_rc.txt
cd $R && timeout 150 python3 -X faulthandler $REPO/python/tests/run_gpu.py -v -p no:cacheprovider -rs > $R/python_gpu.log 2>&1; echo "pytest rc=$? at $((SECONDS-T0)) s: $(tail -n 1 $R/python_gpu.log)"; grep -E "FAILED|ERROR|Fatal" $R/python_gpu.log | head -5
pack; echo total $((SECONDS-T0)) s
