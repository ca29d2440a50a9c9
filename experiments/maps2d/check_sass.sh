#!/usr/bin/env bash
# experiments/maps2d/check_sass.sh BINARY — the dummy kernels still compute their map.
#
# The dummy kernel measures the cost of a map only if the compiler kept the map
# (000_dc8ca915cfc23e3c.txt §IV-A: "It is necessary to perform at least one memory
# access otherwise the compiler can optimize the code removing part of the cost of
# mapping"). This disassembles BINARY (bench_maps) with `cuobjdump -sass` and, for
# every instantiation dummy_store<M> and dummy_cond<M> (src/support/gpu/dummy.cuh) of every
# 2D map of the registry (`tdmap types`, through map_types.sh) and every SASS
# architecture in the binary, checks
#   all maps   a global store (STG) and a read of the block index (SR_CTAID.X)
#   bb         an ISETP whose operands are the registers holding SR_CTAID.X and
#              SR_CTAID.Y (the block test bx > by of §IV-B)
#   ltm-x      MUFU.RSQ (sqrtf: __fsqrt_rn is MUFU.RSQ plus a refinement)
#   ltm-n      the magic constant 0x5f3759df (Carmack/Lomont start of Newton)
#   ltm-r      MUFU.RSQ (rsqrtf, eq. (15))
#   ltm-d      MUFU.RSQ64H or double arithmetic (DADD/DMUL/DFMA)
#   ltm-e      MUFU.RSQ (32-bit path estimate) or MUFU.RSQ64H (64-bit path: double sqrt)
#   rb         both thread indices (SR_TID.X and SR_TID.Y); a 64-bit compare on its 64-bit path,
#              in the form of the architecture (nvcc 13.0): sm_75 .. sm_110 chain two 32-bit
#              compares (ISETP ... .EX), sm_120 has one native 64-bit compare (ISETP.*.S64 or
#              .U64, beside IADD.64 and SEL.64); the fat-list run is committed as
#              experiments/results/cpu/check_sass_fat.txt
#   rec        an integer division by a run-time value (MUFU.RCP or a CALL)
#   utm-x      MUFU.RSQ (sqrtf of the UTM argument)
#   utm-n      the magic constant 0x5f3759df
#   bb-t       both thread indices, and NO ISETP on the registers of SR_CTAID.X and
#              SR_CTAID.Y (BB filtering by thread: no block test before the coordinates)
#   rb-b       an ISETP on SR_CTAID.X and SR_CTAID.Y (the block fold's bx <= by)
#   ltm-r-sq   MUFU.RSQ and SR_CTAID.Y (lambda = bx + by n' on the square grid)
#   ltm-e-sq   MUFU.RSQ and SR_CTAID.Y
#   ltm-x-sq   MUFU.RSQ and SR_CTAID.Y
#   ltm-n-sq   the magic constant 0x5f3759df and SR_CTAID.Y
#   ltm-d-sq   MUFU.RSQ64H or double arithmetic (DADD/DMUL/DFMA), and SR_CTAID.Y
#   ltm-lut    a global load (LDG: the table read)
# Prints one line per kernel and a summary; exits 1 on any failure, 77 (meson's
# skip) when cuobjdump (or the nvdisasm it needs) is not available.
set -u
bin=${1:?usage: check_sass.sh BINARY}

# shellcheck source=map_types.sh
. "$(dirname "$0")/map_types.sh"
# the frame (cuobjdump, labels, the collector sass_collect.awk): map_types.sh; the rules: below
check_collected check_sass "$bin" 2 'dummy_(store|cond)' <<'AWK'
function has(b, re) { return b ~ re }
# the register an S2R/S2UR line writes, e.g. "R2" or "UR4"
function s2r_dest(b, sr,    n, lines, k, l, t) {
  n = split(b, lines, "\n")
  for (k = 1; k <= n; ++k) {
    l = lines[k]
    if (l ~ /S2U?R / && (index(l, sr " ") > 0 || index(l, sr ";") > 0)) {
      t = l; sub(/^.*S2U?R +/, "", t); sub(/,.*$/, "", t)
      return t
    }
  }
  return ""
}
# an ISETP whose operands include registers a and b (whole operands)
function isetp_with(b, ra, rb,    n, lines, k, l) {
  if (ra == "" || rb == "") return 0
  n = split(b, lines, "\n")
  for (k = 1; k <= n; ++k) {
    l = lines[k]
    if (l !~ /ISETP/) continue
    gsub(/\.reuse/, "", l)
    if (index(l, " " ra ",") > 0 || index(l, " " ra " ") > 0 || index(l, " -" ra ",") > 0)
      if (index(l, " " rb ",") > 0 || index(l, " " rb " ") > 0 || index(l, " -" rb ",") > 0) return 1
  }
  return 0
}
END {
  nmaps = split(maplist, maps, " ")  # every 2D map of the registry
  pass = 0; fail = 0
  for (k = 1; k <= nk; ++k) {
    key = order[k]; split(key, kp, " "); a = kp[1]; f = kp[2]
    m = mapname(f)
    form = (f ~ /dummy_store/) ? "dummy_store" : "dummy_cond"
    wide = (f ~ /ElEEv/)  # the index type: l = i64 (64-bit path), i = i32 (32-bit path)
    b = body[key]
    seen[a " " form " " m] = 1
    archs[a] = 1
    why = ""
    if (m == "") why = why " unknown-map"
    if (!has(b, "STG")) why = why " no-STG"
    if (!has(b, "SR_CTAID\\.X")) why = why " no-SR_CTAID.X"
    what = "STG"
    if (m == "bb" || m == "rb-b") {
      rx = s2r_dest(b, "SR_CTAID.X"); ry = s2r_dest(b, "SR_CTAID.Y")
      if (!isetp_with(b, rx, ry)) why = why " no-ISETP(" rx "," ry ")"
      what = what ", ISETP(" rx "=ctaid.x, " ry "=ctaid.y)"
    } else if (m == "ltm-e") {
      if (!has(b, "MUFU\\.RSQ")) why = why " no-MUFU.RSQ"
      what = what ", MUFU.RSQ (32-bit path) / MUFU.RSQ64H (64-bit path)"
    } else if (m == "ltm-n" || m == "utm-n") {
      if (!has(b, "0x5f3759df")) why = why " no-0x5f3759df"
      what = what ", 0x5f3759df"
    } else if (m == "ltm-d") {
      if (!has(b, "MUFU\\.RSQ64H|DADD|DMUL|DFMA")) why = why " no-double-sqrt"
      what = what ", MUFU.RSQ64H/DADD/DMUL/DFMA"
    } else if (m == "rb") {
      if (!has(b, "SR_TID\\.X") || !has(b, "SR_TID\\.Y")) why = why " no-SR_TID.X/Y"
      # the 64-bit compare: two chained 32-bit ISETPs before sm_120, one ISETP.*.S64/U64 from it
      cmp64 = (substr(a, 4) + 0 >= 120) ? "ISETP[^ ]*\\.[SU]64" : "ISETP[^ ]*\\.EX"
      cmp64_name = (substr(a, 4) + 0 >= 120) ? "ISETP.*.S64" : "ISETP.*.EX"
      if (wide && !has(b, cmp64)) why = why " no-64-bit-ISETP(" cmp64_name ")"
      what = what ", SR_TID.X/Y" (wide ? ", " cmp64_name : "")
    } else if (m == "bb-t") {
      rx = s2r_dest(b, "SR_CTAID.X"); ry = s2r_dest(b, "SR_CTAID.Y")
      if (!has(b, "SR_TID\\.X") || !has(b, "SR_TID\\.Y")) why = why " no-SR_TID.X/Y"
      if (isetp_with(b, rx, ry)) why = why " block-test-ISETP(" rx "," ry ")"
      what = what ", SR_TID.X/Y, no ISETP(ctaid.x, ctaid.y)"
    } else if (m == "ltm-r-sq" || m == "ltm-e-sq" || m == "ltm-x-sq") {
      if (!has(b, "MUFU\\.RSQ")) why = why " no-MUFU.RSQ"
      if (!has(b, "SR_CTAID\\.Y")) why = why " no-SR_CTAID.Y"
      what = what ", MUFU.RSQ, SR_CTAID.Y"
    } else if (m == "ltm-n-sq") {
      if (!has(b, "0x5f3759df")) why = why " no-0x5f3759df"
      if (!has(b, "SR_CTAID\\.Y")) why = why " no-SR_CTAID.Y"
      what = what ", 0x5f3759df, SR_CTAID.Y"
    } else if (m == "ltm-d-sq") {
      if (!has(b, "MUFU\\.RSQ64H|DADD|DMUL|DFMA")) why = why " no-double-sqrt"
      if (!has(b, "SR_CTAID\\.Y")) why = why " no-SR_CTAID.Y"
      what = what ", MUFU.RSQ64H/DADD/DMUL/DFMA, SR_CTAID.Y"
    } else if (m == "ltm-lut") {
      if (!has(b, "LDG")) why = why " no-LDG"
      what = what ", LDG (the table)"
    } else if (m == "rec") {
      if (!has(b, "MUFU\\.RCP|CALL\\.")) why = why " no-division"
      what = what ", MUFU.RCP/CALL (integer division)"
    }
    w = wide ? "64" : "32"
    if (why == "") { ++pass; printf("ok    %-6s %-11s %-6s %s  %s\n", a, form, m, w, what) }
    else { ++fail; printf("FAIL  %-6s %-11s %-6s %s  missing:%s\n", a, form, m, w, why) }
  }
  n_arch = 0
  for (a in archs) {
    ++n_arch
    for (i = 1; i <= nmaps; ++i)
      for (j = 0; j < 2; ++j) {
        form = j ? "dummy_cond" : "dummy_store"
        if (!((a " " form " " maps[i]) in seen)) { ++fail; printf("FAIL  %-6s %-11s %-6s instantiation not found in the binary\n", a, form, maps[i]) }
      }
  }
  if (n_arch == 0) { ++fail; print "FAIL  no dummy kernel found in the binary" }
  printf("check_sass: %d passed, %d failed\n", pass, fail)
  exit fail ? 1 : 0
}
AWK
