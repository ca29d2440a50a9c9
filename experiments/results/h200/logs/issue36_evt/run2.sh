#!/bin/bash
# Second device run of issue #36 item 2: the sm90-evt epilogue with sqrt.approx, ping-pong (the default)
# against cooperative (-DTDMAPS_GRAM_EVT_COOPERATIVE=1: the same source, rebuilt), each in its own
# bench_gram run with the same peers. From the repository root, with .carry/.
R=$PWD; T=/tmp/t2; mkdir -p $T && tar xzf .carry/epi/tree.tgz -C $T && cd $T || exit 1
exec > >(tee $OUT/run2.log) 2>&1
s=$SECONDS; t() { echo; echo "=== [$((SECONDS - s)) s] $*"; }
t setup; date -u; nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv
export BOOST_ROOT=$R/.carry/boost
t configure + build bench_gram
meson setup b -Dgpu_arch=sm_90 -Dcutlass=$R/.carry/cutlass/include -Dgram_bench=enabled -Dfigures=disabled >b.log 2>&1 || { tail -30 b.log; exit 1; }
ninja -C b -j16 experiments/gram/bench_gram >>b.log 2>&1 || { grep -B2 -A10 -i "error" b.log | head -60; exit 1; }
B=b/experiments/gram/bench_gram
t "1. ping-pong: sm90-ws, sm90-evt, N 32768 65536, d 64 128 256"
$B --kernel sm90-ws,sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --reps 10 --out $OUT/pp; echo "rc=$?"
t "2. rebuild sm90-evt as cooperative"
sed -i 's/^#define TDMAPS_GRAM_EVT_COOPERATIVE 0$/#define TDMAPS_GRAM_EVT_COOPERATIVE 1/' src/support/gram/gram_sm90_evt.cu
grep -n "^#define TDMAPS_GRAM_EVT_COOPERATIVE" src/support/gram/gram_sm90_evt.cu
ninja -C b -j16 experiments/gram/bench_gram >>b.log 2>&1 || { grep -B2 -A10 -i "error" b.log | head -60; exit 1; }
t "3. cooperative: sm90-evt, same sizes"
$B --kernel sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --reps 10 --out $OUT/coop; echo "rc=$?"
t done
