#!/usr/bin/env bash
# experiments/run_gpu_profile.sh BUILD RESULTS [probe|full] — everything a results
# folder holds, on the GPU of this machine, in one command: the GPU verification
# (every kernel against the CPU, both index paths), the SASS checks, the exact ranges
# measured on the device, then the 2D and 3D sweeps. Results land in
# RESULTS/<gpu_slug>/, logs in RESULTS/<gpu_slug>/logs/. A failed verification stops
# the run before anything is timed (set -e).
#   probe  small sweeps (the --quick profile of each program)
#   full   the full sweeps behind the committed CSVs (not timed end to end: three 90-s budgets
#          of bench_maps3d and the SDH sweep to N = 1e6 alone take several minutes)
# RESULTS is a folder of its own, e.g. experiments/results/local: the committed folder
# (experiments/results) is refused, so a rerun never overwrites the committed results;
# experiments/promote_results.sh RESULTS/<gpu_slug> makes a run the committed one.
# `make figures` runs the same experiments (quick unless FULL=1) into
# experiments/results/local and then draws them into figures/local.
set -euo pipefail
build=${1:?usage: run_gpu_profile.sh BUILD RESULTS [probe|full]}
res=${2:?usage: run_gpu_profile.sh BUILD RESULTS [probe|full]}
profile=${3:-full}
case "$profile" in probe|full) ;; *) echo "run_gpu_profile: profile must be probe or full (got '$profile')" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(realpath -m "$res")" = "$(realpath -m "$here/results")" ]; then
  echo "run_gpu_profile: $res is the committed results folder; run into a folder of its own (e.g." \
       "experiments/results/local), then experiments/promote_results.sh makes it the committed one" >&2
  exit 2
fi
E="$build/experiments"
quick=""; [ "$profile" = probe ] && quick="--quick"
# the folder name of this GPU, one per model (the rule asked of src/gpu/metadata.cuh gpu_slug,
# issue #28): lower case, "NVIDIA " and the memory size / type words dropped:
# "NVIDIA H100 80GB HBM3" -> h100, "NVIDIA H200" -> h200, "NVIDIA H100 PCIe" -> h100-pcie
slug=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | python3 -c '
import re, sys
n = sys.stdin.read().strip().lower()
n = n[7:] if n.startswith("nvidia ") else n
words = [w for w in re.split(r"[^a-z0-9]+", n) if w and not re.fullmatch(r"\d+gb|hbm\d*e?", w)]
print("-".join(words))')
logs="$res/$slug/logs"
mkdir -p "$logs"
step() {  # step LOG CMD...: run, keep the log, say how long it took
  local log=$1; shift
  local t0=$SECONDS
  echo "== $* " >&2
  "$@" > "$logs/$log" 2>&1 || { echo "FAILED ($?): $*  (log: $logs/$log)" >&2; tail -n 20 "$logs/$log" >&2; exit 1; }
  echo "   ok in $((SECONDS - t0)) s: $(tail -n 1 "$logs/$log")" >&2
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv > "$logs/nvidia_smi.txt" 2>&1 || true
step sass2d.log bash "$here/maps2d/check_sass.sh" "$E/maps2d/bench_maps"
step sass3d.log bash "$here/maps3d/check_sass3d.sh" "$E/maps3d/bench_maps3d"
[ -e "$res/cpu" ] || ln -s "$here/results/cpu" "$res/cpu"  # the CPU tables a drawing of RESULTS needs
step vmaps.log "$E/maps2d/gpu_verify_maps"
step v3d.log "$E/maps3d/gpu_verify_3d" $quick --out "$res"
step vapps.log "$E/apps2d/gpu_verify_apps"
step exact.log "$E/maps2d/gpu_exact_range" --out "$res"
step dummy.log "$E/maps2d/bench_maps" --test dummy $quick --out "$res"
step sqrt.log "$E/maps2d/bench_maps" --test sqrt $quick --out "$res"
step edm.log "$E/apps2d/bench_apps" --test edm $quick --out "$res"
step collision.log "$E/apps2d/bench_apps" --test collision $quick --out "$res"
for t in dummy threebody layout; do
  step "tet_$t.log" "$E/maps3d/bench_maps3d" --test $t $quick --budget-s 90 --out "$res"
done
# SDH (experiments/sdh): the ladder, the fast rungs at N = 10^6 (the quick profile: the best versions)
if [ "$profile" = probe ]; then step sdh.log "$E/sdh/bench_sdh" --quick --out "$res"
else step sdh.log "$E/sdh/bench_sdh" --N 10000,100000,1000000 --cpu-max-s 25 --gpu-max-s 8 --out "$res"; fi
# past one GPU (experiments/multigpu): every visible GPU, 1 and 8 chunks; the splits checked against the
# CPU oracle first (1, 2, 4, 8 chunks; those CSVs go under logs/multigpu_checks)
if [ -x "$E/multigpu/multi_hist" ]; then
  export NCCL_NVLS_ENABLE=0
  step multigpu_checks.log "$E/multigpu/multi_hist" --app sdh --N 1000,10001,65537 --chunks 1,2,4,8 --reps 2 --out "$logs/multigpu_checks"
  # the sizes and repetitions of the committed runs (run_multigpu.sh's defaults; the probe: smaller sizes)
  sdhN=1000000,4000000; tbN=16384; [ "$profile" = probe ] && { sdhN=1000000; tbN=4096; }
  step multigpu_sdh.log "$E/multigpu/multi_hist" --app sdh --N $sdhN --chunks 1,8 --reps 5 --warmup 1 --out "$res"
  step multigpu_threebody.log "$E/multigpu/multi_hist" --app threebody --N $tbN --chunks 1,8 --reps 5 --warmup 1 --out "$res"
fi
echo "results in $res/$slug (draw them: build/figures/tdmaps_figures --results $res --out figures/local" \
     "--report figures/local/report.md; make them the committed ones: experiments/promote_results.sh $res/<gpu_slug>)" >&2
