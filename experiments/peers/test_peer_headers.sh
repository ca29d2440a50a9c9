#!/usr/bin/env bash
# experiments/peers/test_peer_headers.sh CHECK_LAYOUTS SOURCE_ROOT — the test peer_headers: the header a
# Python peer script writes (its --print-header, no GPU or PyTorch needed) is the layout that
# src/support/results/layouts.hpp declares for its CSV (check_layouts --header). The drift test checks
# committed CSVs only; this holds a script to its layout before any run. The scripts take their headers from
# experiments/layouts.py, check_layouts --python's output (generated, committed): the test holds the file to it.
# Their rows go through one writer, peer_common.py's PeerCsv.row(**cells), by column name: test_peer_csv.py checks
# it (the header's order, a missing or unknown column an error) and each script's row(...) calls against its
# layout, without a GPU or PyTorch.
set -euo pipefail
check="$1"; src="$2"; fail=0
for pair in peers/python_peers.py:peers_python.csv peers/gram_peers.py:peers_gram.csv \
            peers/torch_peers.py:peers_edm.csv sdh/torch_sdh.py:peers_sdh.csv; do
  script="${pair%%:*}"; csv="${pair#*:}"
  want=$("$check" --header "$csv")
  got=$(python3 "$src/experiments/$script" --print-header)
  if [ "$got" = "$want" ]; then echo "ok: $script writes the layout of $csv"
  else echo "FAIL: $script's header is not the layout of $csv:"; echo "  got:  $got"; echo "  want: $want"; fail=1; fi
done
# experiments/layouts.py, where they take their headers from, is check_layouts --python's output (generated, committed)
if diff <("$check" --python) "$src/experiments/layouts.py" > /dev/null; then
  echo "ok: experiments/layouts.py is check_layouts --python's output"
else
  echo "FAIL: experiments/layouts.py differs from check_layouts --python's output; regenerate it:"
  echo "  build/paper/check_layouts --python > experiments/layouts.py"; fail=1
fi
python3 "$src/experiments/peers/test_peer_csv.py" || fail=1
exit "$fail"
