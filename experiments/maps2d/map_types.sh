# experiments/maps2d/map_types.sh — sourced by the SASS tools (check_sass.sh,
# check_sass3d.sh, sass_cost.sh): their map tables come from the registry, through
# `tdmap types` (one line per map: name, dimension, C++ type as c++filt spells it).
#
#   find_tdmap BENCH_BINARY   sets $tdmap: $TDMAP if set, else the tdmap of the same build
#                             (BUILD/src/tdmap beside BUILD/experiments/<area>/<bench>)
#   map_types OUT             writes `tdmap types` to OUT; returns 1 on failure
# shellcheck source=find_cuda_tool.sh
. "$(dirname "${BASH_SOURCE[0]}")/find_cuda_tool.sh"
find_tdmap() {
  if [ -n "${TDMAP:-}" ]; then tdmap=$TDMAP; return 0; fi
  local d
  d=$(cd "$(dirname "$1")/../.." 2>/dev/null && pwd) || return 1
  tdmap="$d/src/tdmap"
  [ -x "$tdmap" ]
}
map_types() {
  "$tdmap" types > "$1" 2>/dev/null && [ -s "$1" ]
}
#   label_sass SASS TYPES     appends " map=<name>" to every "Function : <kernel>" line of
#                             the cuobjdump listing SASS whose first template argument (as
#                             c++filt demangles it) is a map type of TYPES; other kernels
#                             get no label. Needs python3 and c++filt.
label_sass() {
  python3 - "$1" "$2" <<'PY'
import re, subprocess, sys
sass, types = sys.argv[1], sys.argv[2]
by_type = {}
for line in open(types):
    parts = line.rstrip("\n").split(" ", 2)
    if len(parts) == 3:
        by_type[parts[2]] = parts[0]
lines = open(sass, errors="replace").read().split("\n")
fn = re.compile(r"^(\s*Function : )(\S+)(.*)$")
names = sorted({m.group(2) for m in map(fn.match, lines) if m})
dem = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout.split("\n")
def first_targ(d):
    # the first template argument of the function: text after the first '<' up to the
    # top-level ',' or '>'
    i = d.find("<")
    if i < 0:
        return None
    depth, j = 0, i + 1
    for k in range(i + 1, len(d)):
        c = d[k]
        if c == "<":
            depth += 1
        elif c == ">":
            if depth == 0:
                return d[j:k].strip()
            depth -= 1
        elif c == "," and depth == 0:
            return d[j:k].strip()
    return None
label = {}
for n, d in zip(names, dem):
    t = first_targ(d)
    if t in by_type:
        label[n] = by_type[t]
out = []
for l in lines:
    m = fn.match(l)
    if m and m.group(2) in label:
        l = l + " map=" + label[m.group(2)]
    out.append(l)
open(sass, "w").write("\n".join(out))
PY
}
#   labelled_sass TOOL BIN DIM  the common start of the SASS checks: sets $tmp (BIN's
#                             cuobjdump listing, kernels labelled) and $maplist (the
#                             registry's maps of dimension DIM); on a missing tool prints
#                             "TOOL: SKIPPED, ..." and exits 77, on an error exits 1.
#                             The caller removes $tmp (trap). Needs find_cuda_tool.sh.
labelled_sass() {
  local tool=$1 bin=$2 dim=$3 types
  [ -f "$bin" ] || { echo "$tool: no such file: $bin"; exit 1; }
  find_cuobjdump || { echo "$tool: SKIPPED, cuobjdump not found (set CUOBJDUMP or put it on PATH)"; exit 77; }
  find_tdmap "$bin" || { echo "$tool: tdmap not found beside $bin (set TDMAP)"; exit 1; }
  tmp=$(mktemp) types=$(mktemp)
  map_types "$types" || { echo "$tool: $tdmap types failed"; rm -f "$types"; exit 1; }
  cuobjdump_sass "$bin" "$tmp"
  case $? in
    0) ;;
    77) echo "$tool: SKIPPED, cuobjdump needs nvdisasm: $(head -1 "$tmp")"; rm -f "$types"; exit 77 ;;
    *) echo "$tool: cuobjdump -sass failed: $(head -3 "$tmp")"; rm -f "$types"; exit 1 ;;
  esac
  label_sass "$tmp" "$types" || { echo "$tool: labelling the kernels failed"; rm -f "$types"; exit 1; }
  maplist=$(awk -v d="$dim" '$2 == d { printf "%s ", $1 }' "$types")
  rm -f "$types"
}
#   check_collected TOOL BIN DIM KERNELS
#                             the frame of a SASS check (check_sass.sh, check_sass3d.sh):
#                             labelled_sass, then awk over the listing with sass_collect.awk
#                             (kernels whose name matches the regex KERNELS, "nomap" ones left
#                             out) and the check's own rules, read from standard input (an awk
#                             program whose END block judges order[] / body[]; -v maplist);
#                             returns awk's status
check_collected() {
  local tool=$1 bin=$2 dim=$3 kernels=$4
  trap 'rm -f "${tmp:-}"' EXIT
  labelled_sass "$tool" "$bin" "$dim"
  awk -v maplist="$maplist" -v kernels="$kernels" -v skip=nomap \
      -f "$(dirname "${BASH_SOURCE[0]}")/sass_collect.awk" -f /dev/stdin "$tmp"
}
