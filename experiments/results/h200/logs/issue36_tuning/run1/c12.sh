#!/bin/bash
# device call 12 (session 4): sm90-evt epilogue variants (stores in flight) + its mirror output, H200
set -o pipefail; export TDMAPS_COMMIT=${TDMAPS_COMMIT:-unknown}
R=$OUT; mkdir -p $R; T0=$SECONDS; RO=$PWD
exec > >(tee $R/run.log) 2>&1
t() { echo; echo "=== [$((SECONDS - T0)) s] $*"; }
t setup; date -u; nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv
export BOOST_ROOT=$RO/.carry/boost
t configure + build bench_gram
B=$BUILD
meson setup $B -Dgpu_arch=sm_90 -Dcutlass=$RO/.carry/cutlass/include -Dgram_bench=enabled -Dfigures=disabled -Dpython=disabled >$R/b.log 2>&1 || { tail -30 $R/b.log; exit 1; }
ninja -C $B -j16 experiments/gram/bench_gram >>$R/b.log 2>&1 || { grep -B2 -A20 -i "error" $R/b.log | head -80; tar czf $OUT/r12.tgz -C $R .; exit 1; }
cmd=$(ninja -C $B -t commands experiments/gram/bench_gram | grep "gram_sm90_evt.cu -o" | sed 's/-MD -MF [^ ]* -MT [^ ]* //')
t variants compile
declare -A V=(
  [c32s4]="-DTDMAPS_GRAM_EVT_COOPERATIVE=1 -DTDMAPS_GRAM_EVT_STAGES_D=4 -DTDMAPS_GRAM_EVT_MIRROR_STAGES_D=2"
  [c32s6]="-DTDMAPS_GRAM_EVT_COOPERATIVE=1 -DTDMAPS_GRAM_EVT_STAGES_D=6 -DTDMAPS_GRAM_EVT_MIRROR_STAGES_D=3"
  [c32s8]="-DTDMAPS_GRAM_EVT_COOPERATIVE=1 -DTDMAPS_GRAM_EVT_STAGES_D=8 -DTDMAPS_GRAM_EVT_MIRROR_STAGES_D=4"
  [c64s4]="-DTDMAPS_GRAM_EVT_COOPERATIVE=1 -DTDMAPS_GRAM_EVT_EPI_N=64 -DTDMAPS_GRAM_EVT_STAGES_D=4 -DTDMAPS_GRAM_EVT_MIRROR_STAGES_D=2"
  [p32s8]="-DTDMAPS_GRAM_EVT_STAGES_D=8 -DTDMAPS_GRAM_EVT_MIRROR_STAGES_D=4"
)
for v in "${!V[@]}"; do
  mkdir -p $B/var/$v
  ( cd $B && eval "${cmd/ -o src\/support\/gram\/gram_sm90_evt.o/ -o var\/$v\/gram_sm90_evt.o} ${V[$v]}" > var/$v/cc.log 2>&1 ) &
done; wait
for v in "${!V[@]}"; do
  if [ ! -s $B/var/$v/gram_sm90_evt.o ]; then echo "variant $v: compile failed"; grep -m5 -i error $B/var/$v/cc.log; continue; fi
  cp $B/src/support/gram/libtdmaps_gram.a $B/var/$v/lib.a && ar r $B/var/$v/lib.a $B/var/$v/gram_sm90_evt.o
  ( cd $B && nvcc -o var/$v/bench_gram experiments/gram/bench_gram.p/bench_gram.cu.o -Xcompiler=-Wl,-O1 var/$v/lib.a experiments/libtdmaps_commit.a $BOOST_ROOT/lib/libboost_program_options.a -Xcompiler=-pthread -lcublas ) || echo "variant $v: link failed"
done
ARGS="--kernel sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --reps 10"
t "base (ping-pong, 64x32, 2 stages)"
$B/experiments/gram/bench_gram $ARGS --out $R/base > $R/base.log 2>&1; echo "rc=$?"; tail -3 $R/base.log
for v in c32s4 c32s6 c32s8 c64s4 p32s8; do
  [ -x $B/var/$v/bench_gram ] || continue
  t "variant $v: ${V[$v]}"
  $B/var/$v/bench_gram $ARGS --out $R/$v > $R/$v.log 2>&1; echo "rc=$?"; tail -2 $R/$v.log
done
t summary
for f in $R/*/h200/gram.csv; do echo "## $f"; grep -E "sm90-evt|^.*,write" $f | cut -d, -f1-5,10 | grep -v "bb-grid" ; done
tar czf $OUT/r12.tgz -C $R . ; t done
