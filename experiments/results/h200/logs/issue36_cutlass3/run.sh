#!/bin/bash
# The device run of issue #36 item 1 (gram_sm90), as sent: from a folder holding gram_sm90.cu, the prebuilt
# gram_sm90, lib/tdmaps/ (src/lib/tdmaps) and ../cutlass/include (the CUTLASS 4.2 headers): loader check, rebuild if needed, memcheck, sizes
cd "$(dirname "$0")"
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
./gram_sm90 --N 3 >/dev/null 2>&1; rc=$?
if [ $rc -ne 2 ]; then
  echo "prebuilt binary does not start here (rc=$rc): rebuilding"
  nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr -DNDEBUG -Xcompiler=-ffp-contract=off \
    -I lib -isystem ../cutlass/include gram_sm90.cu -o gram_sm90 || exit 1
fi
./gram_sm90 --N 1000 --d 64 --reps 5; echo "rc=$?"
timeout 240 compute-sanitizer --tool memcheck --print-limit 20 ./gram_sm90 --N 1000 --d 64 --reps 1 2>&1 | tail -n 15; echo "memcheck rc=${PIPESTATUS[0]}"
for a in "2044 64" "5000 96" "32768 128" "65536 64" "65536 128" "65536 256"; do
  set -- $a; ./gram_sm90 --N $1 --d $2 --reps 20 | grep -v "^#\|^variant"; echo "rc=${PIPESTATUS[0]}"
done
