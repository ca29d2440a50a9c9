# experiments/experiments.sh — reads experiments/experiments.list, the one list of experiments.
# Sourced (not run) by run_gpu_profile.sh and run_sanitizer.sh:
#   exp_load                      EXP_NAMES (in the list's order) and EXP_<COLUMN>[name]
#   EXP_E, EXP_SRC, EXP_OUT, EXP_LOGS   what @E@, the scripts' folder, @out@ and @logs@ stand for
#   exp_command NAME MORE_ARGS    CMD=(program args MORE_ARGS), the placeholders filled in
#   exp_runnable NAME             false where the step's needs are not met here (nccl: the program was
#                                 not built; cutlass: it or gram/bench_gram (the Gram kernels) was not
#                                 built; torch: python3 has no torch)
EXP_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
EXP_LIST=${EXP_LIST:-$EXP_SRC/experiments.list}
EXP_NAMES=()
declare -A EXP_NEEDS EXP_PROG EXP_ARGS EXP_QUICK EXP_FULL EXP_CSV EXP_SMOKE EXP_SMOKE_S EXP_SANITIZE

exp_trim() {  # exp_trim VALUE: VALUE without leading and trailing blanks, in EXP_T
  local v=$1
  v="${v#"${v%%[![:space:]]*}"}"
  EXP_T="${v%"${v##*[![:space:]]}"}"
}

exp_load() {
  local line name needs prog args quick full csv smoke smoke_s san rest
  while IFS= read -r line || [ -n "$line" ]; do
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    IFS='|' read -r name needs prog args quick full csv smoke smoke_s san rest <<< "$line"
    if [ -n "$rest" ] || [ -z "${san// /}" ]; then
      echo "experiments.list: not ten columns: $line" >&2; return 2
    fi
    exp_trim "$name"; name=$EXP_T
    EXP_NAMES+=("$name")
    exp_trim "$needs"; EXP_NEEDS[$name]=$EXP_T
    exp_trim "$prog"; EXP_PROG[$name]=$EXP_T
    exp_trim "$args"; EXP_ARGS[$name]=$EXP_T
    exp_trim "$quick"; EXP_QUICK[$name]=$EXP_T
    exp_trim "$full"; EXP_FULL[$name]=$EXP_T
    exp_trim "$csv"; EXP_CSV[$name]=$EXP_T
    exp_trim "$smoke"; EXP_SMOKE[$name]=$EXP_T
    exp_trim "$smoke_s"; EXP_SMOKE_S[$name]=$EXP_T
    exp_trim "$san"; EXP_SANITIZE[$name]=$EXP_T
  done < "$EXP_LIST"
}

exp_command() {  # exp_command NAME MORE_ARGS
  local name=$1 more=${2:-} p=${EXP_PROG[$1]} t
  local -a words
  case $p in
    *.sh) CMD=(bash "$EXP_SRC/$p") ;;
    *.py) CMD=(python3 "$EXP_SRC/$p") ;;
    *)    CMD=("$EXP_E/$p") ;;
  esac
  read -ra words <<< "${EXP_ARGS[$name]} $more"
  for t in "${words[@]}"; do
    t=${t//@E@/$EXP_E}; t=${t//@out@/$EXP_OUT}; t=${t//@logs@/$EXP_LOGS}
    CMD+=("$t")
  done
}

exp_runnable() {  # exp_runnable NAME
  case ${EXP_NEEDS[$1]} in
    nccl)    [ -x "$EXP_E/${EXP_PROG[$1]}" ] ;;
    cutlass) [ -x "$EXP_E/${EXP_PROG[$1]}" ] && [ -x "$EXP_E/gram/bench_gram" ] ;;
    torch) command -v python3 >/dev/null && python3 -c 'import torch' 2>/dev/null ;;
    *)     true ;;
  esac
}
