#!/bin/bash
# device call 59 (session 11, one H200) at $TDMAPS_COMMIT: multi_hist (the app column gram-exact, the replay list
# sized to the problem) built with the Gram kernels; the meson GPU tests multi_gpu_gram and multi_gpu_gram_exact.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r59; mkdir -p $R; T0=$SECONDS; B=build-m
pack() { tar czf $OUT/r59.tgz -C $R . 2>/dev/null; }
timeout 250 bash experiments/multigpu/build_device.sh $B > $R/build_multi.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build_multi.log | head -20; tail -3 $R/build_multi.log; pack; exit 1; }
[ -f $B/nccl_ld_path ] && export LD_LIBRARY_PATH=$(cat $B/nccl_ld_path):$LD_LIBRARY_PATH
timeout 60 meson test -C $B --no-rebuild --suite gpu multi_gpu_gram multi_gpu_gram_exact --print-errorlogs > $R/suite.log 2>&1; echo "tests rc=$? at $((SECONDS-T0)) s"
grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:" $R/suite.log; cp $B/meson-logs/testlog.txt $R/ 2>/dev/null
f=$(find $B -name gram_multigpu_exact.csv | head -1); [ -n "$f" ] && cp $f $R/ && cut -d, -f1-5,20 $f | tail -4
pack; echo total $((SECONDS-T0)) s
