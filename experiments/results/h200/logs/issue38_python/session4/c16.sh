#!/bin/bash
# device call 16 (session 4): pip install . (timed), the peers of record, the overhead attribution at N = 1024,
# the GPU pytest suite, memcheck and racecheck of the Python path (square: the sm90-evt mirror kernel now)
set -o pipefail; export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$SECONDS; REPO=$PWD
mkdir -p .tools && cp -r .carry/cutlass .tools/cutlass
python3 -m pip install -q --no-index --find-links .carry/wheels meson-python pyproject-metadata
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $R/nvidia_smi.txt
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 260 python3 experiments/peers/python_peers.py --pip-install "--no-build-isolation --no-index ." --out $R/res > $R/peers.log 2>&1; echo "peers rc=$? at $((SECONDS-T0)) s"; grep -E "pip install|failed|Error" $R/peers.log | grep -v cuVS | head -8
cut -d, -f1-9 $R/res/h200/peers_python.csv | grep -E "tdmaps|torch.pdist"
tar czf $OUT/r16.tgz -C $R .
cd /tmp
for o in condensed lower square; do
  timeout 40 python3 $REPO/experiments/peers/python_overhead.py --N 1024 --out $o --reps 2000 --warmup 200 > $R/overhead_1024_$o.log 2>&1; echo "overhead $o rc=$?: $(tail -n 1 $R/overhead_1024_$o.log)"
done
tar czf $OUT/r16.tgz -C $R .
cd $R && timeout 100 python3 -X faulthandler $REPO/python/tests/run_gpu.py -v -p no:cacheprovider -rs > $R/python_gpu.log 2>&1; echo "pytest rc=$? at $((SECONDS-T0)) s: $(tail -n 1 $R/python_gpu.log)"; grep -E "FAILED|ERROR|Fatal" $R/python_gpu.log | head -10
tar czf $OUT/r16.tgz -C $R .
cat > /tmp/ms.py <<'PY'
import torch, tdmaps
x = torch.rand((300, 20), device="cuda"); x[7, 3] = float("nan")
y = [tdmaps.pdist(x, out=o) for o in ("condensed", "lower", "square")]
s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
for k in range(6):
    with torch.cuda.stream(s1 if k % 2 else s2):
        y.append(tdmaps.pdist(torch.rand((256 + 4 * k, 33), device="cuda"), out="square"))
torch.cuda.synchronize()
print(int(torch.isnan(y[2]).sum()), "NaN cells in square (want 2 x 299)")
print(tdmaps.histogram(torch.rand((500, 8), device="cuda"), 10)[0].sum().item(), "pairs (want 124750)")
PY
cd /tmp; timeout 60 compute-sanitizer --tool memcheck python3 /tmp/ms.py > $R/memcheck_python.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|want' $R/memcheck_python.log | tr '\n' ' ')"
timeout 60 compute-sanitizer --tool racecheck python3 /tmp/ms.py > $R/racecheck_python.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck_python.log | tr '\n' ' ')"
tar czf $OUT/r16.tgz -C $R .; echo total $((SECONDS-T0)) s
