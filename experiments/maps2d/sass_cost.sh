#!/usr/bin/env bash
# experiments/maps2d/sass_cost.sh [--check] BENCH_MAPS BENCH_MAPS3D OUT_CSV
#   — the static SASS instruction count of every map's dummy kernel, per index width.
#
# Disassembles BENCH_MAPS (build/experiments/maps2d/bench_maps) and BENCH_MAPS3D
# (build/experiments/maps3d/bench_maps3d) with `cuobjdump -sass`, demangles the kernel
# names with c++filt and, for every SASS architecture in the binaries, counts the
# instructions of
#   2D  tdmaps::gpu::dummy_cond<M, I> and dummy_store<M, I> (src/support/gpu/dummy.cuh) for the
#       2D maps of the registry (`tdmap types`: bb ltm-x ltm-n ltm-r ltm-d ltm-e ltm-r-sq ltm-e-sq
#       ltm-x-sq ltm-n-sq ltm-d-sq ltm-lut rb rb-b rec utm-x utm-n bb-t), I = int / long;
#       reference: dummy_cond_nomap (the same kernel without a map)
#   3D  tdmaps::gpu::dummy3_cond<M, Mode, I> (src/support/gpu/tet.cuh) for bb3 tet-f tet-e
#       tet-fast, Mode 0 = thread (every thread maps), 1 = block (thread 0 maps and
#       shares through shared memory), I = int / long; reference: dummy3_cond_nomap.
#
# The counts are STATIC: every instruction of the kernel's SASS listing counted once
# (both sides of every branch, and any local subroutine the kernel CALLs, e.g. a
# division or square-root slow path), not instructions executed. Not counted: NOP
# (padding) and the unconditional branch to its own address that ends every kernel.
#
# Columns of OUT_CSV (first line: `# {json}` with cuobjdump's version, the commit
# (suffix -dirty when src/ has uncommitted changes) and the UTC date; the header is the layout
# map_instructions of src/support/results/layouts.hpp, taken from experiments/layouts.py,
# and each row is written by column name):
#   arch                 SASS architecture (sm_90, ...): one row per arch and kernel
#   dim, map             2 or 3; the map's command-line name
#   index_bits           32 (I = int, the narrow path) or 64 (I = long, the wide path)
#   form                 cond (dummy_cond / dummy3_cond) or store (dummy_store, 2D)
#   mode                 - (2D), thread or block (3D)
#   instructions         the kernel's instruction count (as above)
#   reference_instructions  the map-free reference kernel's count (same arch and dim)
#   map_instructions     instructions - reference_instructions: what the map adds
#   mufu                 MUFU.* instructions (special-function unit: RSQ, RCP, LG2, ...)
#   int64_ops            instructions that are evidently 64-bit integer work:
#                        IMAD.WIDE* / UIMAD.WIDE* (32x32 -> 64 products); any opcode with
#                        an .X modifier (IADD3.X, IMAD.X, LEA.HI.X, ...: carry into a high
#                        word); ISETP.*.EX / UISETP.*.EX (high word of a 64-bit compare);
#                        SHF/USHF with .64/.U64/.S64 (64-bit shifts, incl. SHF.L.U64.HI);
#                        I2F*/F2I*/I2I* with a U64 or S64 type (I2F.F64.U64,
#                        F2I.U64.TRUNC, ...); any integer opcode (I*, UI*) with a .64
#                        modifier (IADD.64, IMNMX.64 on newer archs). Not counted: the
#                        .64 of register-pair loads/stores and addresses (LDC.64,
#                        STG [R2.64]) and the 32-bit halves (MOV, SEL, LOP3) of a 64-bit
#                        value, which SASS does not mark
#   branches             BRA*/BRX*/JMP* (without the final self-branch) plus predicated
#                        EXITs (@P EXIT); CALL/RET not counted
#
# Exits 0 with OUT_CSV written; 1 when a binary is missing, cuobjdump fails or a kernel
# of the list above is not found; 77 (meson's skip) when cuobjdump, or the nvdisasm it
# needs, is not available. With --check (the meson test sass_cost_table) also exits 1
# unless every narrow (int) kernel's map_instructions is <= its wide (long) twin's.
set -u
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
[ $# -eq 3 ] || { echo "usage: sass_cost.sh [--check] BENCH_MAPS BENCH_MAPS3D OUT_CSV" >&2; exit 2; }
bin2=$1 bin3=$2 out=$3
for b in "$bin2" "$bin3"; do
  [ -f "$b" ] || { echo "sass_cost: no such file: $b" >&2; exit 1; }
done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=find_cuda_tool.sh
. "$here/find_cuda_tool.sh"
find_cuobjdump || { echo "sass_cost: SKIPPED, cuobjdump not found (set CUOBJDUMP or put it on PATH)"; exit 77; }
command -v c++filt >/dev/null 2>&1 || { echo "sass_cost: c++filt (binutils) not found" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "sass_cost: python3 not found" >&2; exit 1; }

# shellcheck source=map_types.sh
. "$here/map_types.sh"
find_tdmap "$bin2" || { echo "sass_cost: tdmap not found beside $bin2 (set TDMAP)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
map_types "$tmp/types.txt" || { echo "sass_cost: $tdmap types failed" >&2; exit 1; }
for k in 2 3; do
  b=$bin2; [ $k = 3 ] && b=$bin3
  cuobjdump_sass "$b" "$tmp/sass$k.txt"; rc=$?
  if [ $rc = 77 ]; then echo "sass_cost: SKIPPED, cuobjdump needs nvdisasm: $(head -1 "$tmp/sass$k.txt")"; exit 77; fi
  if [ $rc != 0 ]; then echo "sass_cost: cuobjdump -sass $b failed: $(head -3 "$tmp/sass$k.txt")" >&2; exit 1; fi
done
version=$("$cuobjdump" --version 2>/dev/null | grep -i 'release' | tail -1)
[ -n "$version" ] || version=$("$cuobjdump" --version 2>/dev/null | tail -1)
commit=unknown
if c=$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null); then
  commit=$c
  top=$(git -C "$here" rev-parse --show-toplevel 2>/dev/null)
  if [ -n "$top" ] && [ -n "$(git -C "$top" status --porcelain -- src 2>/dev/null)" ]; then commit="$commit-dirty"; fi
fi
date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)

mkdir -p "$(dirname "$out")" || exit 1
python3 - "$tmp/sass2.txt" "$tmp/sass3.txt" "$out" "$version" "$commit" "$date_utc" "$check" "$tmp/types.txt" \
  "$here/.." <<'PY'
import json, os, re, subprocess, sys

sass2, sass3, out, version, commit, date_utc, check, types_file, experiments = sys.argv[1:10]
check = check == "1"
# The header is map_instructions.csv's layout (src/support/results/layouts.hpp, exported by
# `check_layouts --python` to experiments/layouts.py); a row is written by column name
# (peers/peer_common.py row_line: every column of the header, no other).
sys.path.insert(0, experiments)
sys.path.insert(0, os.path.join(experiments, "peers"))
from layouts import HEADERS  # noqa: E402
from peer_common import row_line  # noqa: E402
HEADER = HEADERS["map_instructions.csv"]

# The map tables come from the registry: `tdmap types` (map_types.sh) gives each map's
# name, dimension and C++ type as c++filt spells it.
MAPS2, MAPS3 = [], []
for line in open(types_file):
    name, dim, ctype = line.rstrip("\n").split(" ", 2)
    (MAPS2 if dim == "2" else MAPS3).append((ctype, name))
NAME2 = dict(MAPS2)
NAME3 = dict(MAPS3)
BITS = {"int": 32, "long": 64}
MODE = {"0": "thread", "1": "block"}

INSN = re.compile(r"^\s+/\*([0-9a-f]+)\*/\s+(.*?)\s*;")
PRED = re.compile(r"^@!?U?P[T0-9]+\s+")


def parse(path):
    """{(arch, mangled): [(address, predicated, opcode, operands)]}, first copy of each."""
    funcs, arch, fn, cur = {}, None, None, None
    for line in open(path, errors="replace"):
        m = re.match(r"^\s*code for (sm_\w+)", line)
        if m:
            arch, fn, cur = m.group(1), None, None
            continue
        m = re.match(r"^\s*Function : (\S+)", line)
        if m:
            fn = m.group(1)
            key = (arch, fn)
            if key in funcs:  # the same kernel in a second module: keep the first
                cur = None
            else:
                cur = funcs[key] = []
            continue
        if cur is None:
            continue
        m = INSN.match(line)
        if not m:
            continue
        text = m.group(2)
        p = PRED.match(text)
        pred = p is not None and not p.group(0).startswith("@PT")
        if p:
            text = text[p.end():]
        parts = text.split(None, 1)
        cur.append((int(m.group(1), 16), pred, parts[0], parts[1] if len(parts) > 1 else ""))
    return funcs


def int64_op(op):
    t = op.split(".")
    base, mods = t[0], set(t[1:])
    if base in ("IMAD", "UIMAD") and "WIDE" in mods:
        return True
    if "X" in mods:
        return True
    if base in ("ISETP", "UISETP") and "EX" in mods:
        return True
    if base in ("SHF", "USHF") and mods & {"64", "U64", "S64"}:
        return True
    if base.startswith(("I2F", "F2I", "I2I")) and mods & {"U64", "S64"}:
        return True
    if (base.startswith("I") or base.startswith("UI")) and "64" in mods:
        return True
    return False


def count(insns):
    n = mufu = i64 = br = selfbra = 0
    for addr, pred, op, args in insns:
        if op == "NOP":
            continue
        base = op.split(".")[0]
        if base == "BRA" and not pred:
            m = re.match(r"^`?\(?(0x[0-9a-f]+)", args)
            if m and int(m.group(1), 16) == addr:
                selfbra += 1
                continue
        n += 1
        if base == "MUFU":
            mufu += 1
        if int64_op(op):
            i64 += 1
        if base in ("BRA", "BRX", "JMP", "JMX") or (base == "EXIT" and pred):
            br += 1
    return n, mufu, i64, br, selfbra


funcs = {}
for dim, path in (("2", sass2), ("3", sass3)):
    for (arch, fn), insns in parse(path).items():
        funcs[(dim, arch, fn)] = insns
names = sorted({fn for _, _, fn in funcs})
dem = subprocess.run(["c++filt"], input="\n".join(names) + "\n", capture_output=True, text=True, check=True)
demangled = dict(zip(names, dem.stdout.splitlines()))

# the 2D kernels take the map's own plan, typename M::Params (c++filt: "<map>::Params")
R2 = re.compile(r"^void tdmaps::gpu::dummy_(cond|store)<(.+), (int|long)>\(\2::Params, int, int\*(, int)?\)$")
R3 = re.compile(r"^void tdmaps::gpu::dummy3_cond<(.+), \(tdmaps::gpu::Mode\)([01]), (int|long)>\(tdmaps::Plan3, int\*, int\)$")
kern, ref, archs, warn = {}, {}, set(), []
for (dim, arch, fn), insns in funcs.items():
    d = demangled[fn]
    key = None
    if dim == "2" and d.startswith("tdmaps::gpu::dummy_cond_nomap("):
        ref[(arch, dim)] = count(insns)
        archs.add(arch)
        continue
    if dim == "3" and d.startswith("tdmaps::gpu::dummy3_cond_nomap("):
        ref[(arch, dim)] = count(insns)
        archs.add(arch)
        continue
    m = R2.match(d) if dim == "2" else None
    if m and m.group(2) in NAME2:
        key = (arch, dim, NAME2[m.group(2)], BITS[m.group(3)], m.group(1), "-")
    m = R3.match(d) if dim == "3" else None
    if m and m.group(1) in NAME3:
        key = (arch, dim, NAME3[m.group(1)], BITS[m.group(3)], "cond", MODE[m.group(2)])
    if key:
        kern[key] = count(insns)
        archs.add(arch)

errors = []
rows = []
for arch in sorted(archs):
    plan = [("2", n, b, f, "-") for _, n in MAPS2 for f in ("cond", "store") for b in (32, 64)]
    plan += [("3", n, b, "cond", md) for _, n in MAPS3 for md in ("thread", "block") for b in (32, 64)]
    for dim in ("2", "3"):
        if (arch, dim) not in ref:
            errors.append(f"{arch}: the {dim}D reference kernel ({'dummy_cond_nomap' if dim == '2' else 'dummy3_cond_nomap'}) not found")
    for dim, name, bits, form, mode in plan:
        key = (arch, dim, name, bits, form, mode)
        if key not in kern:
            errors.append(f"{arch}: {dim}D {name} {form} {mode} i{bits} kernel not found")
            continue
        if (arch, dim) not in ref:
            continue
        n, mufu, i64, br, selfbra = kern[key]
        r = ref[(arch, dim)][0]
        if selfbra != 1:
            warn.append(f"{arch}: {dim}D {name} {form} {mode} i{bits}: {selfbra} self-branches")
        rows.append(dict(arch=arch, dim=dim, map=name, index_bits=bits, form=form, mode=mode, instructions=n,
                         reference_instructions=r, map_instructions=n - r, mufu=mufu, int64_ops=i64, branches=br))
if not archs:
    errors.append("no dummy kernel found in the binaries")

if check:
    KEY = ("arch", "dim", "map", "index_bits", "form", "mode")
    by = {tuple(r[c] for c in KEY): r for r in rows}
    for r in rows:
        if r["index_bits"] != 32:
            continue
        w = by.get(tuple(64 if c == "index_bits" else r[c] for c in KEY))
        if w is not None and r["map_instructions"] > w["map_instructions"]:
            errors.append(f"{r['arch']}: {r['dim']}D {r['map']} {r['form']} {r['mode']}: narrow map_instructions "
                          f"{r['map_instructions']} > wide {w['map_instructions']}")

for w in warn:
    print("sass_cost: warning:", w, file=sys.stderr)
if errors:
    for e in errors:
        print("sass_cost: FAIL", e, file=sys.stderr)
    sys.exit(1)

meta = {"program": "sass_cost", "cuobjdump": version, "commit": commit, "date_utc": date_utc}
tmp = out + ".tmp"
with open(tmp, "w") as f:
    f.write("# " + json.dumps(meta, separators=(",", ":")) + "\n")
    f.write(HEADER + "\n")
    for r in rows:
        f.write(row_line(HEADER, r) + "\n")
os.replace(tmp, out)
print(f"sass_cost: {len(rows)} rows ({', '.join(sorted(archs))}) -> {out}" + (" (narrow <= wide: ok)" if check else ""))
PY
