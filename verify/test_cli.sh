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
expect_error "N must be an integer in 1 .. 9223372036854775807"  info ltm-e -N 99999999999999999999
expect_error "rho must be"           info bb -N 10 --rho 0
expect_error "rho^3"                 info bb3 -N 10 --rho 11
expect_error "-N is required"        info bb
expect_error "unknown command"       frobnicate bb
expect_error "add --threads"         dump utm-n -N 10

# refusals that help: the limit, and a map (or block side) that serves the size
# The hint's maps are derived, not listed here (a new map joins them without an edit): they must be exactly
# the 2D maps of `tdmap list`, but the refused one, whose `info` accepts the size, in the registry's order.
expect_hint() {  # expect_hint REFUSED N
  local refused=$1 n=$2 err want="" m
  err=$("$tdmap" info "$refused" -N "$n" 2>&1 >/dev/null)
  for m in $("$tdmap" list | awk 'NR > 1 && $2 == "2D" { print $1 }'); do
    [ "$m" = "$refused" ] && continue
    "$tdmap" info "$m" -N "$n" >/dev/null 2>&1 && want="${want:+$want, }$m"
  done
  if [ -z "$want" ]; then bad "expect_hint $refused $n: no map serves N=$n"; return; fi
  expect_error "; use $want (serves\\? N=$n at rho=16)\$" info "$refused" -N "$n"
}
expect_hint ltm-n 30720
expect_hint bb 2000000
expect_error "more than a CUDA grid holds"  info ltm-e -N 9223372036854775807
expect_error "no 2D map of tdmaps serves"   info ltm-e -N 9223372036854775807

# issue #28: nothing falls back to a default, nothing extra is ignored, every block side launches
expect_error "rho must be in 1..32 in 2D"  info ltm-e -N 100 --rho -1
expect_error "rho must be in 1..32 in 2D"  list --rho 0
expect_error "at most 1024"          info ltm-e -N 100 --rho 33
expect_error "rho must be in 1..10 in 3D"  info tet-e -N 100 --rho 11
expect_error "unexpected argument"   info bb -N 5 extra
expect_error "unexpected argument"   list foo
expect_error "takes no -N"           range rec -N 5
expect_error "takes no --threads"    info rb -N 9 --threads
expect_error "name a command"
expect_error "count-by must be"      info bb -N 5 --count-by guess
expect_error "more than the 1,000,000 rows" dump bb -N 2000 --rho 1
# a refused size names only a configuration that launches, and the suggestion answers
expect_error "at any block side a GPU launches" info ltm-e -N 4294967296
expect_error "rho\*rho = 262144"     info ltm-e -N 4294967296 --rho 512
expect_error "; use .*ltm-e.* --rho 32 (no map serves" info ltm-n -N 300000000
expect_ok info ltm-e -N 300000000 --rho 32
expect_ok --version
if "$tdmap" --help | grep -q "Exit codes"; then ok; else bad "tdmap --help does not give the exit codes"; fi
if "$tdmap" range rec | grep -q "N = rho\*n with n = N/rho even"; then ok; else bad "range rec does not say which N it takes"; fi
expect_ok range rec
expect_ok list --rho 10
# dump checks before it prints: no header on stdout when it refuses
out=$("$tdmap" dump rb -N 9 2>/dev/null)
if [ -z "$out" ]; then ok; else bad "dump rb without --threads wrote '$out' before its error"; fi
# the device-wrong map is flagged in info, range and list
if "$tdmap" info tet-f -N 24 | grep -q "WRONG ON THE GPU"; then ok; else bad "info tet-f: no device warning"; fi
if "$tdmap" list | grep "^tet-f" | grep -q "WRONG ON THE GPU"; then ok; else bad "list: tet-f not flagged"; fi
# info is closed-form: N = 1e8 at once
start=$(date +%s%N)
"$tdmap" info ltm-e -N 100000000 >/dev/null || bad "info ltm-e -N 1e8 failed"
took=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$took" -lt 1000 ]; then ok; else bad "info ltm-e -N 1e8 took ${took} ms"; fi
# list, range and info agree with plan(): the largest N list shows is accepted, one more refused
# every map of the registry, as `tdmap list` names them (a new map is checked without an edit here)
maps=$("$tdmap" list | awk 'NR > 1 && ($2 == "2D" || $2 == "3D") { print $1 }')
if [ "$(printf '%s\n' $maps | wc -l)" -ge 20 ] && printf '%s\n' $maps | grep -qx ltm-e && printf '%s\n' $maps | grep -qx tet-e; then ok
else bad "tdmap list: no map table ($maps)"; fi
for m in $maps; do
  top=$("$tdmap" range "$m" | sed -n '1s/.*N <= \([0-9,]*\) at.*/\1/p' | tr -d ,)
  if [ -z "$top" ]; then bad "range $m: no largest N"; continue; fi
  if "$tdmap" info "$m" -N "$top" >/dev/null 2>&1 && ! "$tdmap" info "$m" -N $((top + 1)) >/dev/null 2>&1; then ok
  else bad "range $m says N <= $top, info disagrees"; fi
done
# the closed forms against a walk over every launched block
for m in $maps; do
  for rho in 1 3 8; do
    for N in 1 17 48 96 129; do
      a=$("$tdmap" info "$m" -N "$N" --rho "$rho" 2>&1); b=$("$tdmap" info "$m" -N "$N" --rho "$rho" --count-by walk 2>&1)
      if [ "$a" = "$b" ]; then ok; else bad "info $m -N $N --rho $rho: closed form differs from the walk"; fi
    done
  done
done

# dump: block-level CSV of ltm-e for N=64, rho=16 has one row per block: 4*5/2 = 10
rows=$("$tdmap" dump ltm-e -N 64 --rho 16 | tail -n +2 | wc -l)
if [ "$rows" -eq 10 ]; then ok; else bad "dump ltm-e rows=$rows, expected 10"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
