#!/usr/bin/env bash
# The command-line tool: good input works; bad input gives ONE line on stderr that
# names the limit, and exit code 2.
set -u
tdmap="$1"
pass=0; fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }

expect_error() {  # expect_error PATTERN ARGS...
  local pat="$1"; shift
  local err rc
  err=$("$tdmap" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -ne 2 ]; then bad "tdmap $* exited $rc, expected 2"; return; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then bad "tdmap $*: stderr is not one line: $err"; return; fi
  if ! printf '%s' "$err" | grep -q -- "$pat"; then bad "tdmap $*: '$err' does not mention '$pat'"; return; fi
  ok
}
expect_ok() {
  if "$tdmap" "$@" >/dev/null 2>&1; then ok; else bad "tdmap $* failed"; fi
}

expect_ok list
expect_ok info ltm-e -N 30720
expect_ok info rec -N 4096 --rho 32
expect_ok info tet-e -N 200
expect_ok range ltm-n
expect_ok dump rb -N 9 --rho 4 --threads
expect_error "N must be >= 1"        info bb -N 0
expect_error "N must be >= 1"        info ltm-e -N -5
expect_error "N <= 25952"            info ltm-n -N 30720
expect_error "N <= 4096"             info utm-x -N 5000
expect_error "m\*2^k"                info rec -N 1000
expect_error "is odd"                info rec -N 48
expect_error "unknown map"           info nosuchmap -N 10
expect_error "invalid"               info bb -N 12x
expect_error "rho must be"           info bb -N 10 --rho 0
expect_error "rho^3"                 info bb3 -N 10 --rho 11
expect_error "-N is required"        info bb
expect_error "unknown command"       frobnicate bb
expect_error "add --threads"         dump utm-n -N 10

# refusals that help: the limit, and a map (or block side) that serves the size
expect_error "use bb, ltm-x, ltm-r, ltm-d, ltm-e"  info ltm-n -N 30720
expect_error "more than a CUDA grid holds"  info ltm-e -N 9223372036854775807
expect_error "no 2D map of tdmaps serves"   info ltm-e -N 9223372036854775807
expect_error "use ltm-e, rb"          info bb -N 2000000

# dump: block-level CSV of ltm-e for N=64, rho=16 has one row per block: 4*5/2 = 10
rows=$("$tdmap" dump ltm-e -N 64 --rho 16 | tail -n +2 | wc -l)
if [ "$rows" -eq 10 ]; then ok; else bad "dump ltm-e rows=$rows, expected 10"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
