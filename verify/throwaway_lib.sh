# verify/throwaway_lib.sh — what the throwaway tests share (sourced by test_throwaway_map.sh and
# test_throwaway_family.sh): the scratch copy of the source tree and the check that a recipe touched exactly
# its files.

# The source tree's files as the scratch copy takes them (the build folders, .tools, .git, the results and the
# figures' output left out): a tar stream of SRC on stdout.
throwaway_tar() {
  tar -C "$1" -c --exclude='./build*' --exclude=./.tools --exclude=./.git --exclude=./experiments/results \
      --exclude=./figures/out --exclude=./figures/local --exclude=./.carry .
}
# throwaway_copy SRC TREE: TREE made afresh as that copy of SRC.
throwaway_copy() {
  rm -rf "$2"
  mkdir -p "$2"
  throwaway_tar "$1" | tar -C "$2" -x
}
# throwaway_touched SRC TREE WORK WANT: exit 1 (after a diff) unless the files TREE adds to or changes from SRC's
# copy are exactly WANT (sorted paths, one a line).
throwaway_touched() {
  local src=$1 tree=$2 work=$3 want=$4 got
  throwaway_tar "$src" | tar -t | sed 's|^\./||' | grep -v '/$' | sort > "$work/files.src"
  (cd "$tree" && find . -type f | sed 's|^\./||' | sort) > "$work/files.tree"
  got=$( { comm -13 "$work/files.src" "$work/files.tree"
           comm -12 "$work/files.src" "$work/files.tree" | while read -r f; do cmp -s "$src/$f" "$tree/$f" || echo "$f"; done; } | sort)
  if [ "$got" = "$want" ]; then
    echo "ok: the recipes touch exactly their $(printf '%s\n' "$want" | wc -l) files"
  else
    echo "FAIL: the files the recipes touched are not the recipes' $(printf '%s\n' "$want" | wc -l):"
    diff <(echo "$want") <(echo "$got") || true
    exit 1
  fi
}
