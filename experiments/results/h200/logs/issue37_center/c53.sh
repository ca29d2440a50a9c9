#!/bin/bash
# device call 53 (session 11) at $TDMAPS_COMMIT: build bench_gram and multi_hist (centered exact mode, multi_hist --exact);
# bench_gram's quick checks (every kernel and precision; the bracketed exact mode uncentered and centered on uniform,
# coarse and offset points); multi_hist --app gram --exact on one GPU (float64-equal at 4096, chunks identical).
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r53; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r53.tgz -C $R . 2>/dev/null; }
bash experiments/multigpu/build_device.sh $B > $R/build_multi.log 2>&1; rc=$?; echo "build multi rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build_multi.log | head -30; tail -5 $R/build_multi.log; pack; exit 1; }
timeout 300 ninja -C $B -j16 experiments/gram/bench_gram > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -30; pack; exit 1; }
BG=$B/experiments/gram/bench_gram; MH=$B/experiments/multigpu/multi_hist
[ -f $B/nccl_ld_path ] && export LD_LIBRARY_PATH=$(cat $B/nccl_ld_path):$LD_LIBRARY_PATH
for x in $BG $MH; do strip -o /tmp/$(basename $x) $x && gzip -c /tmp/$(basename $x) > $OUT/$(basename $x)_c53.gz; done
[ -f $B/nccl_ld_path ] && cp $B/nccl_ld_path $OUT/
timeout 90 $BG --kernel classic,sm80-8w,sm90-ws --prec tf32,3xtf32,bf16,fp16 --N 2048 --d 128 --sym none --verify-max 300 --samples 256 --reps 2 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"
grep -cE "^\[check\]" $R/quick.log; grep -E "check failed|error" $R/quick.log | head -3; grep -E "bracketed" $R/quick.log | cut -c1-400; pack
timeout 120 $MH --app gram --exact --prec 3xtf32 --buckets 64 --N 65536 --warmup-N 4096 --gpu-counts 1 --chunks 1,4 --reps 2 --out $R/res > $R/multi.log 2>&1; echo "multi rc=$? at $((SECONDS-T0)) s"
tail -6 $R/multi.log
pack; echo total $((SECONDS-T0)) s
