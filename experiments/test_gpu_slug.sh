#!/usr/bin/env bash
# experiments/test_gpu_slug.sh GPU_SLUG_PROGRAM GPU_SLUG_PY — meson test gpu_slug: the rule's examples
# (src/support/gpu/gpu_slug.hpp) through the program, by argument and on stdin, and through the Python
# module the Python programs import (which runs the same program).
set -euo pipefail
prog=$1 py=$2
fail=0
while IFS='|' read -r name want; do
  a=$("$prog" "$name"); b=$(printf '%s\n' "$name" | "$prog"); c=$(TDMAPS_GPU_SLUG_PROGRAM="$prog" python3 "$py" "$name")
  if [ "$a" = "$want" ] && [ "$b" = "$want" ] && [ "$c" = "$want" ]; then echo "ok: '$name' -> $want"
  else echo "FAIL: '$name' -> '$a' (stdin '$b', python '$c'), want $want"; fail=1; fi
done <<'LIST'
NVIDIA H100 80GB HBM3|h100
NVIDIA H200|h200
NVIDIA H100 PCIe|h100-pcie
NVIDIA A100-SXM4-80GB|a100-sxm4
NVIDIA H100 NVL 94GB HBM3e|h100-nvl
Tesla V100-SXM2-16GB|tesla-v100-sxm2
NVIDIA 80GB|gpu
LIST
exit $fail
