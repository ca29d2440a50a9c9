#!/bin/sh
# experiments/commit_id.sh SRC — the commit the GPU programs are built from, for every CSV's
# metadata line (vcs_tag in experiments/meson.build): SRC/.tdmaps-commit when present (one
# line, written where the tree is sent from: the lent GPU machines get a copy of the files
# whose .git may lag them), else git's HEAD, with "+dirty" when tracked files differ from it.
src=${1:?usage: commit_id.sh SRC}
if [ -f "$src/.tdmaps-commit" ]; then head -n 1 "$src/.tdmaps-commit"; exit 0; fi
c=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null) || exit 1
git -C "$src" diff --quiet HEAD -- 2>/dev/null || c="$c+dirty"
echo "$c"
