#!/bin/bash
# device call 13: link and run the variants that c12.sh compiled in $BUILD (c12's `wait` also waited for its tee)
export TDMAPS_COMMIT=${TDMAPS_COMMIT:-unknown}; R=$OUT; B=$BUILD; T0=$SECONDS; RO=$PWD
export BOOST_ROOT=$RO/.carry/boost
t() { echo "=== [$((SECONDS - T0)) s] $*" | tee -a $R/run13.log; }
pkill -f tee; ls -la $B/var/*/gram_sm90_evt.o; for v in $B/var/*; do echo "$v: $(grep -ci error $v/cc.log) errors"; done
for v in c32s4 c32s6 c32s8 c64s4 p32s8; do
  cp $B/src/support/gram/libtdmaps_gram.a $B/var/$v/lib.a && ar r $B/var/$v/lib.a $B/var/$v/gram_sm90_evt.o
  ( cd $B && nvcc -o var/$v/bench_gram experiments/gram/bench_gram.p/bench_gram.cu.o var/$v/lib.a experiments/libtdmaps_commit.a $BOOST_ROOT/lib/libboost_program_options.a -Xcompiler=-pthread -lcublas ) || echo "variant $v: link failed"
done
ARGS="--kernel sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --reps 10"
echo skip base
tar czf $OUT/r13.tgz -C $R .
for v in c32s4 c32s6 c32s8 c64s4 p32s8; do
  [ -x $B/var/$v/bench_gram ] || continue
  t "variant $v"; timeout 60 $B/var/$v/bench_gram $ARGS --out $R/$v > $R/$v.log 2>&1; echo "rc=$?"; tail -n 2 $R/$v.log
  tar czf $OUT/r13.tgz -C $R .
done
for f in $R/*/h200/gram.csv; do echo "## $f"; grep -E "sm90-evt|,write" $f | cut -d, -f1-5,10 | grep -v "bb-grid" ; done
t done
