#!/usr/bin/env bash
# figures/check_readme_table.sh TDMAPS_FIGURES README — the test figures_readme: every figure the registry
# draws on its own (`tdmaps_figures --list`: scope cpu_only or per_gpu; a comparison gpus_<name> is its
# figure's) has its row in the table of figures/README.md: its name in backticks in a row, or, for a
# variant <base>_<suffix> (fig3_sqrt_rho32, fig5_edm_d1_packed), the row of <base> naming `_<suffix>`.
set -euo pipefail
figs="$1"; readme="$2"; fail=0; n=0
rows=$(grep '^| `' "$readme" || true)
while read -r name scope; do
  [ "$scope" = comparison ] && continue
  n=$((n + 1))
  grep -qF "\`$name\`" <<< "$rows" && continue
  base=${name%_*}; suffix=_${name##*_}
  if [ "$base" != "$name" ] && grep -F "\`$base\`" <<< "$rows" | grep -qF "\`$suffix\`"; then continue; fi
  echo "FAIL: figure $name ($scope) has no row in $readme's table of figures"; fail=1
done < <("$figs" --list | awk '{ print $1, $2 }')
[ "$n" -ge 10 ] || { echo "FAIL: $figs --list listed $n figures"; exit 1; }
[ "$fail" = 0 ] && echo "ok: the $n figures of the registry have their rows in $readme"
exit "$fail"
