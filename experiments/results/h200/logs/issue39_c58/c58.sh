#!/bin/bash
# device call 58 (session 11, one H200) at $TDMAPS_COMMIT: the GPU-side code changed after call 56's suite, run:
# bench_apps (fast_suffix / map_named) through its meson GPU tests and gpu_verify_apps; the Python peer scripts,
# whose rows are now written by column name (PeerCsv), at their quick sizes, their CSVs checked against the layouts.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost PYTHONUNBUFFERED=1
echo "$TDMAPS_COMMIT" > .tdmaps-commit
R=/tmp/r58; mkdir -p $R; T0=$SECONDS; B=build-v
pack() { tar czf $OUT/r58.tgz -C $R . 2>/dev/null; }
meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=disabled -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
ninja -C $B -j16 experiments/apps2d/bench_apps experiments/apps2d/gpu_verify_apps paper/check_layouts experiments/gpu_slug > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -20; pack; exit 1; }
timeout 200 meson test -C $B --no-rebuild --suite gpu gpu_verify_apps bench_apps_edm bench_apps_collision --print-errorlogs > $R/suite_apps.log 2>&1; echo "apps tests rc=$? at $((SECONDS-T0)) s"; grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:" $R/suite_apps.log
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/$B/experiments/gpu_slug
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
timeout 120 $PY experiments/peers/torch_peers.py --quick --out $R/peers > $R/torch_peers.log 2>&1; echo "torch_peers rc=$? at $((SECONDS-T0)) s"
timeout 120 $PY experiments/peers/gram_peers.py --quick --out $R/peers > $R/gram_peers.log 2>&1; echo "gram_peers rc=$? at $((SECONDS-T0)) s"
timeout 120 $PY experiments/sdh/torch_sdh.py --N 20000 --reps 3 --out $R/peers_sdh.csv > $R/torch_sdh.log 2>&1; echo "torch_sdh rc=$? at $((SECONDS-T0)) s"
find $R/peers -name "*.csv" > $R/csvs.txt; echo $R/peers_sdh.csv >> $R/csvs.txt
$B/paper/check_layouts $(cat $R/csvs.txt) > $R/check_layouts.log 2>&1; echo "check_layouts rc=$?"; tail -3 $R/check_layouts.log
for f in $(cat $R/csvs.txt); do echo "$f: $(grep -vc '^#' $f) lines"; done
pack; echo total $((SECONDS-T0)) s
