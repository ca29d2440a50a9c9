#!/usr/bin/env bash
# verify/fma_contraction.sh NVCC SRC_ROOT — which products nvcc's default contraction
# (-fmad=true) fuses in the papers' formulas, read from the SASS (no GPU needed).
# Compiles verify/fma_contraction.cu with nvcc's default flags for sm_90 and requires, for
# each float map, that the formula as printed (paper_<map>) and the library's arithmetic
# with rounding policy Fused (fused_<map>) have the same float instructions (FFMA, FMUL,
# FADD, MUFU, conversions: the same count of each), and that Fused has exactly the
# expected number of FFMAs more than Pinned (pinned_<map>, the library's kernels): the
# contractions numbers.hpp Fused models. Exit 77 (skipped) without cuobjdump.
set -uo pipefail
nvcc=$1
root=$2
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../experiments/maps2d/find_cuda_tool.sh
. "$root/experiments/maps2d/find_cuda_tool.sh"
[ -n "${CUOBJDUMP:-}" ] || [ ! -x "$root/.tools/cuda/bin/cuobjdump" ] || export CUOBJDUMP="$root/.tools/cuda/bin/cuobjdump"
find_cuobjdump || { echo "cuobjdump not found: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$nvcc" -std=c++17 --expt-relaxed-constexpr -arch=sm_90 -cubin -I"$root/src/lib" -I"$root/src/support" "$here/fma_contraction.cu" \
  -o "$work/fc.cubin" || { echo "nvcc failed"; exit 1; }
cuobjdump_sass "$work/fc.cubin" "$work/fc.sass"
rc=$?
[ $rc -eq 0 ] || { head -5 "$work/fc.sass"; exit $rc; }
# map, FFMAs that Fused adds over Pinned (each one product nvcc contracts):
#   ltm-x 1: 2*lambda + 1/4 (exact either way)     ltm-n 5: that, 3 Newton steps, x*y + eps
#   ltm-r 2: 2*lambda + 1/4, x*rsqrtf(x) + eps      utm-x 2: (4n)*n - 4n, -8k (exact either way)
#   utm-n 6: those, 3 Newton steps, x*y - (2n+1)    tet-f 2: 729l*l - 3, sqrt(.) + 27l
python3 - "$work/fc.sass" <<'PY'
import re, sys
from collections import Counter
ops, cur = {}, None
for line in open(sys.argv[1]):
    m = re.search(r'Function : (\S+)', line)
    if m:
        cur = m.group(1); ops[cur] = []; continue
    m = re.search(r'/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+)', line)
    if m and cur and re.match(r'(FFMA|FMUL|FADD|MUFU|F2I|I2F|FSETP|FCHK|FRND)', m.group(1)):
        ops[cur].append(m.group(1))
expected = {'ltm_x': 1, 'ltm_n': 5, 'ltm_r': 2, 'utm_x': 2, 'utm_n': 6, 'tet_f': 2}
bad = 0
print(f"{'map':6} {'FFMA paper':>10} {'fused':>6} {'pinned':>7}  contracted  same ops")
for m, e in expected.items():
    p, f, q = (Counter(ops.get(k + m, [])) for k in ('paper_', 'fused_', 'pinned_'))
    same = p == f and sum(p.values()) > 0
    ok = same and f['FFMA'] - q['FFMA'] == e
    bad += not ok
    print(f"{m:6} {p['FFMA']:>10} {f['FFMA']:>6} {q['FFMA']:>7}  {f['FFMA'] - q['FFMA']:>3} (want {e})  {'yes' if same else 'NO'}"
          + ('' if ok else '   <-- FAIL'))
    if not same:
        print('   paper:', dict(p)); print('   fused:', dict(f))
sys.exit(1 if bad else 0)
PY
