#!/usr/bin/env bash
# The partition-and-reduce logic on 2 MPI ranks (CPU back end) against one process:
# every result line (app, N, chunks -> sum and FNV-1a of the histogram) of the MPI run
# must say "identical" (equal to the single-process result, computed in the same run)
# and carry the same sum and hash as the one-process run's line with the same number of
# workers. Also: more ranks x chunks than the proven 64 workers is refused with one line.
# Usage: test_multi_mpi.sh MPIRUN MULTI_HIST_MPI MULTI_HIST
set -uo pipefail
mpirun=$1 mpi_prog=$2 one_prog=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# containers: shared memory and loopback only
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm_rsh_agent=false
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for app in "sdh --N 2,1000,3001" "threebody --N 2,61,130 --rho 4"; do
  # shellcheck disable=SC2086
  if ! timeout 240 "$mpirun" -np 2 "$mpi_prog" --backend cpu --app $app --chunks 1,3,32 >"$tmp/mpi.txt" 2>"$tmp/mpi.err"; then
    echo "FAIL: mpirun -np 2 --app $app exited non-zero"; cat "$tmp/mpi.err"; fail=1
  fi
  # shellcheck disable=SC2086
  "$one_prog" --backend cpu --app $app --chunks 2,6,64 >"$tmp/one.txt" 2>&1 || { echo "FAIL: one process --app $app"; cat "$tmp/one.txt"; fail=1; }
  cat "$tmp/mpi.txt"
  n=$(grep -c '^result .* ranks=2 .* identical$' "$tmp/mpi.txt")
  want=$(( $(echo "$app" | awk '{print $3}' | tr ',' '\n' | wc -l) * 3 ))
  [ "$n" -eq "$want" ] || { echo "FAIL: $n of $want MPI result lines say identical"; fail=1; }
  # same workers (2 ranks x c chunks = 1 process x 2c chunks): same sum and hash
  while read -r line; do
    N=$(sed -n 's/.* N=\([0-9]*\) .*/\1/p' <<<"$line"); W=$(sed -n 's/.* workers=\([0-9]*\) .*/\1/p' <<<"$line")
    key=$(grep -o 'sum=[0-9]* fnv=[0-9a-f]*' <<<"$line")
    other=$(grep " N=$N .*workers=$W " "$tmp/one.txt" | grep -o 'sum=[0-9]* fnv=[0-9a-f]*')
    [ "$key" = "$other" ] || { echo "FAIL: N=$N workers=$W: MPI '$key' vs one process '$other'"; fail=1; }
  done < <(grep '^result' "$tmp/mpi.txt")
done
# more workers than the partition is proven for: one line, exit 2
out=$(timeout 120 "$mpirun" -np 2 "$mpi_prog" --backend cpu --app sdh --N 100 --chunks 33 2>&1); rc=$?
if [ $rc -eq 0 ] || ! grep -q "at most 64" <<<"$out"; then echo "FAIL: 2 ranks x 33 chunks not refused (rc=$rc): $out"; fail=1; fi
[ $fail -eq 0 ] && echo "multi_mpi: all checks passed"
exit $fail
