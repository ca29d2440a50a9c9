# experiments/maps2d/sass_collect.awk — the SASS collector the checks share (check_sass.sh,
# check_sass3d.sh): reads a cuobjdump -sass listing whose kernels map_types.sh labelled
# (" map=<name>" on the "Function :" line) and, for every kernel whose name matches the regex
# `kernels` (awk -v kernels=...) but not `skip` (-v skip=..., default: none), keeps its
# instructions (no addresses, no encodings), one per line, per SASS architecture.
# Leaves to the checking program's END block:
#   nk, order[1..nk]   the keys "<arch> <kernel>" in listing order
#   body[key]          the instructions of that kernel for that architecture, "\n "-separated
#   kmap[kernel]       the map name from the label; mapname(kernel) returns it ("" if none)
function mapname(f) { return (f in kmap) ? kmap[f] : "" }
/arch = sm_/ { arch = $3 }
/Function : / { fn = $3; for (i = 4; i <= NF; ++i) if ($i ~ /^map=/) kmap[fn] = substr($i, 5); next }
/^ +\/\*[0-9a-f]+\*\/ / {
  if (fn !~ kernels || (skip != "" && fn ~ skip)) next
  l = $0
  sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", l)
  sub(/ *\/\*.*$/, "", l)
  key = arch " " fn
  if (!(key in body)) { order[++nk] = key }
  body[key] = body[key] "\n " l
}
