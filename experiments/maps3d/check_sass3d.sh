#!/usr/bin/env bash
# experiments/maps3d/check_sass3d.sh BINARY — the 3D dummy kernels still compute their map.
#
# A dummy kernel measures the cost of a map only if the compiler kept the map (the
# store of x + y + z, or the store under an impossible condition, keeps it alive).
# This disassembles BINARY (bench_maps3d or gpu_verify_3d) with `cuobjdump -sass` and,
# for every instantiation dummy3_store<M, mode> and dummy3_cond<M, mode>
# (src/support/gpu/tet.cuh) and every SASS architecture in the binary, checks
#   all        a global store (STG) and a read of the block index (SR_CTAID.X)
#   bb3        an ISETP (the block test bx <= by <= bz)
#   tet-f      MUFU.LG2 and MUFU.EX2 (cbrtf of eq. (14)), MUFU.RCP (its divisions),
#              MUFU.RSQ (the square roots of eq. (14) and (16))
#   tet-e      MUFU.LG2 and MUFU.EX2 (cbrtf estimate of tet_root), MUFU.RSQ (tri_root)
#   tet-fast   the constant 0x54a2fa8c (reciprocal cube root start), MUFU.RSQ (row
#              estimate), IMAD.WIDE.U32 (the integer check z(z+1)(z+2) <= 6 lambda)
#   mode 1     (block: thread 0 maps, shares) BAR.SYNC, STS and LDS
#   mode 0     (thread: every thread maps) no BAR.SYNC
# Prints one line per kernel and a summary; exits 1 on any failure, 77 (meson's
# skip) when cuobjdump (or the nvdisasm it needs) is not available.
set -u
bin=${1:?usage: check_sass3d.sh BINARY}

# shellcheck source=../maps2d/map_types.sh
. "$(dirname "$0")/../maps2d/map_types.sh"
# the frame (cuobjdump, labels, the collector sass_collect.awk): map_types.sh; the rules: below
check_collected check_sass3d "$bin" 3 'dummy3_(store|cond)' <<'AWK'
function need(key, what, ok) {
  if (!ok) { missing = missing " " what }
}
END {
  fails = 0
  if (nk == 0) { print "check_sass3d: FAIL, no dummy3_store/dummy3_cond kernels found"; exit 1 }
  seen_maps = ""
  for (i = 1; i <= nk; ++i) {
    key = order[i]; b = body[key]
    split(key, kp, " "); f = kp[2]
    m = mapname(f)
    mode = (f ~ /ModeE1/) ? "block" : "thread"
    form = (f ~ /dummy3_store/) ? "store" : "cond"
    missing = ""
    need(key, "STG", b ~ /STG/)
    need(key, "SR_CTAID.X", b ~ /SR_CTAID\.X/)
    if (m == "bb3") need(key, "ISETP", b ~ /ISETP/)
    else if (m == "tet-f") {
      need(key, "MUFU.LG2", b ~ /MUFU\.LG2/); need(key, "MUFU.EX2", b ~ /MUFU\.EX2/)
      need(key, "MUFU.RCP", b ~ /MUFU\.RCP/); need(key, "MUFU.RSQ", b ~ /MUFU\.RSQ/)
    } else if (m == "tet-e") {
      need(key, "MUFU.LG2", b ~ /MUFU\.LG2/); need(key, "MUFU.EX2", b ~ /MUFU\.EX2/)
      need(key, "MUFU.RSQ", b ~ /MUFU\.RSQ/)
    } else if (m == "tet-fast") {
      need(key, "0x54a2fa8c", b ~ /0x54a2fa8c/); need(key, "MUFU.RSQ", b ~ /MUFU\.RSQ/)
      need(key, "IMAD.WIDE.U32", b ~ /IMAD\.WIDE\.U32/)
    } else missing = missing " (unknown map)"
    if (mode == "block") { need(key, "BAR.SYNC", b ~ /BAR\.SYNC/); need(key, "STS", b ~ /STS/); need(key, "LDS", b ~ /LDS/) }
    else if (b ~ /BAR\.SYNC/) missing = missing " (unexpected BAR.SYNC)"
    status = (missing == "") ? "ok  " : "FAIL"
    if (missing != "") ++fails
    printf "%s %-6s %-9s %-6s %-5s%s\n", status, kp[1], m, mode, form, (missing == "" ? "" : " missing:" missing)
    if (index(seen_maps, " " m ":" mode ":" form) == 0) seen_maps = seen_maps " " m ":" mode ":" form
  }
  # every map x mode x form must be present
  nm = split(maplist, ms, " "); split("thread block", mds, " "); split("store cond", fs, " ")
  for (a = 1; a <= nm; ++a) for (c = 1; c <= 2; ++c) for (e = 1; e <= 2; ++e) {
    k = ms[a] ":" mds[c] ":" fs[e]
    if (index(seen_maps " ", " " k " ") == 0) { print "FAIL missing instantiation " k; ++fails }
  }
  printf "check_sass3d: %d kernels, %d failures\n", nk, fails
  exit fails ? 1 : 0
}
AWK
