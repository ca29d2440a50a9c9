# experiments/maps2d/find_cuda_tool.sh — sourced (not run) by the SASS scripts
# (sass_cost.sh, check_sass.sh, maps3d/check_sass3d.sh).
#
#   find_tool NAME ENVVAR        print the path of CUDA tool NAME: $ENVVAR if it names an
#                                executable, else NAME on PATH, else $CUDA_HOME/bin,
#                                $CUDA_PATH/bin, /usr/local/cuda/bin, /opt/cuda/bin;
#                                returns 1 when none has it.
#   find_cuobjdump               find_tool cuobjdump CUOBJDUMP into $cuobjdump and, when
#                                nvdisasm (which `cuobjdump -sass` runs) is not on PATH,
#                                add cuobjdump's folder to PATH if nvdisasm lies there;
#                                returns 1 without cuobjdump.
#   cuobjdump_sass BINARY FILE   `$cuobjdump -sass BINARY` into FILE; returns 0 on success,
#                                77 when cuobjdump failed for want of nvdisasm, 1 otherwise
#                                (the first lines of its output are then in FILE).
# Callers exit 77 (meson's "skipped") when the tool is missing.

find_tool() {  # $1 tool name, $2 env override
  local t=${!2:-}
  if [ -n "$t" ] && [ -x "$t" ]; then echo "$t"; return 0; fi
  t=$(command -v "$1" 2>/dev/null) && { echo "$t"; return 0; }
  for d in ${CUDA_HOME:+$CUDA_HOME/bin} ${CUDA_PATH:+$CUDA_PATH/bin} /usr/local/cuda/bin /opt/cuda/bin; do
    [ -x "$d/$1" ] && { echo "$d/$1"; return 0; }
  done
  return 1
}

find_cuobjdump() {
  cuobjdump=$(find_tool cuobjdump CUOBJDUMP) || return 1
  if [ -z "${NVDISASM_PATH:-}" ] && ! command -v nvdisasm >/dev/null 2>&1; then
    local d
    d=$(dirname "$cuobjdump")
    if [ -x "$d/nvdisasm" ]; then export PATH="$PATH:$d"; fi
  fi
  return 0
}

cuobjdump_sass() {  # $1 binary, $2 output file
  if "$cuobjdump" -sass "$1" >"$2" 2>&1; then return 0; fi
  if grep -q nvdisasm "$2"; then return 77; fi
  return 1
}
