#!/bin/bash
# device call 14: sm90-evt variants (L2 persisting window over the operands; 64x64 epilogue subtiles) and ncu of
# the base kernel (lower, mirror) at N = 65536: DRAM bytes read/written, L2 hit rate and throughput
export TDMAPS_COMMIT=${TDMAPS_COMMIT:-unknown}; R=$OUT; B=$BUILD; mkdir -p $R; T0=$SECONDS; RO=$PWD
export BOOST_ROOT=$RO/.carry/boost
t() { echo "=== [$((SECONDS - T0)) s] $*" | tee -a $R/run.log; }
t setup; nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee -a $R/run.log
meson setup $B -Dgpu_arch=sm_90 -Dcutlass=$RO/.carry/cutlass/include -Dgram_bench=enabled -Dfigures=disabled -Dpython=disabled >$R/b.log 2>&1 || { tail -30 $R/b.log; exit 1; }
cmd=$(ninja -C $B -t commands experiments/gram/bench_gram | grep "gram_sm90_evt.cu -o" | sed 's/-MD -MF [^ ]* -MT [^ ]* //')
declare -A V=(
  [g4]="-DTDMAPS_GRAM_EVT_BAND=4"
  [g8]="-DTDMAPS_GRAM_EVT_BAND=8"
  [g16]="-DTDMAPS_GRAM_EVT_BAND=16"
)
pids=""
for v in "${!V[@]}"; do
  mkdir -p $B/var/$v
  ( cd $B && eval "${cmd/ -o src\/support\/gram\/gram_sm90_evt.o/ -o var\/$v\/gram_sm90_evt.o} ${V[$v]}" > var/$v/cc.log 2>&1 ) &
  pids="$pids $!"
done
t build base; ninja -C $B -j14 experiments/gram/bench_gram >>$R/b.log 2>&1 || { grep -B2 -A20 -i "error" $R/b.log | head -60; }
t wait variants; wait $pids
for v in "${!V[@]}"; do
  [ -s $B/var/$v/gram_sm90_evt.o ] || { echo "variant $v: compile failed"; grep -m5 -i error $B/var/$v/cc.log; continue; }
  cp $B/src/support/gram/libtdmaps_gram.a $B/var/$v/lib.a && ar r $B/var/$v/lib.a $B/var/$v/gram_sm90_evt.o 2>/dev/null
  ( cd $B && nvcc -o var/$v/bench_gram experiments/gram/bench_gram.p/bench_gram.cu.o var/$v/lib.a experiments/libtdmaps_commit.a $BOOST_ROOT/lib/libboost_program_options.a -Xcompiler=-pthread -lcublas ) || echo "variant $v: link failed"
done
ARGS="--kernel sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --reps 10"
t base; timeout 60 $B/experiments/gram/bench_gram $ARGS --out $R/base > $R/base.log 2>&1; echo "rc=$?"
for v in g4 g8 g16; do
  [ -x $B/var/$v/bench_gram ] || continue
  t "variant $v"; timeout 60 $B/var/$v/bench_gram $ARGS --out $R/$v > $R/$v.log 2>&1; echo "rc=$?"; grep -i "L2 window\|wrote\|fail" $R/$v.log | head -3
  tar czf $OUT/r15.tgz -C $R .
done
for v in base g4 g8 g16; do echo "## $v"; grep tdmaps-ltm-e-sm90-evt $R/$v/h200/gram.csv | awk -F, '$4=="lower"||$4=="mirror"{printf "%s/%s/%s=%s ", $1,$2,$4,$10}'; echo; done
t "ncu g8"
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
timeout 100 ncu -k regex:device_kernel --launch-skip 38 --launch-count 20 --metrics $M --csv $B/var/g8/bench_gram --kernel sm90-evt --prec tf32 --N 65536 --d 128,256 --reps 1 --samples 64 --out $R/ncu > $R/ncu_base.csv 2>$R/ncu_base.err; echo "ncu rc=$?"
python3 - $R/ncu_base.csv <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; idx = {k: i for i, k in enumerate(h)}
by = collections.OrderedDict()
for r in rows[1:]:
    key = (r[idx["ID"]], r[idx["Grid Size"]] if "Grid Size" in idx else "")
    by.setdefault(r[idx["ID"]], {})[r[idx["Metric Name"]]] = (r[idx["Metric Value"]], r[idx["Metric Unit"]])
for k, m in by.items():
    t = m.get("gpu__time_duration.sum", ("0", ""))
    try: ms = float(t[0].replace(",", "")) / {"n": 1e6, "u": 1e3}.get(t[1][:1], 1)
    except: ms = 0
    if ms < 0.5: continue
    print(k, "; ".join(f"{n.split('.')[0]}={v}{u}" for n, (v, u) in m.items()))
PY
tar czf $OUT/r15.tgz -C $R .; t done
