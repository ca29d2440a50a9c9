#!/usr/bin/env python3
"""experiments/peers/test_peer_csv.py -- the peers' CSV writer checked without a GPU or PyTorch (run by the test
peer_headers, test_peer_headers.sh):

  PeerCsv.row(**cells) writes the cells in the layout's header order, whatever the order they are given in, after
  the metadata line and the header; a missing column, an unknown one, or a cell holding a comma is a ValueError;
  every peer script's row(...) calls (read from its source: they run only on a GPU) name exactly its layout's
  columns (experiments/layouts.py HEADERS); so do experiments/maps2d/sass_cost.sh's rows (its embedded Python).
"""
import ast
import json
import os
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from peer_common import PeerCsv, row_line  # noqa: E402
from layouts import HEADERS  # noqa: E402  (peer_common puts experiments/ on the path)

SCRIPTS = {  # script (under experiments/) -> the CSV it writes, as test_peer_headers.sh pairs them
    "peers/python_peers.py": "peers_python.csv",
    "peers/gram_peers.py": "peers_gram.csv",
    "peers/torch_peers.py": "peers_edm.csv",
    "sdh/torch_sdh.py": "peers_sdh.csv",
}

fails = 0


def check(ok, what):
    global fails
    print(("ok: " if ok else "FAIL: ") + what)
    fails += not ok


def raises(f, *args):
    try:
        f(*args)
    except ValueError as e:
        return str(e)
    return None


# the order is the header's, a cell written as an f-string writes it
for csv, header in sorted(HEADERS.items()):
    cols = header.split(",")
    cells = {c: ("%s-%d" % (c, k) if k % 2 else k) for k, c in enumerate(cols)}
    want = ",".join(str(cells[c]) for c in cols)
    check(row_line(header, dict(reversed(list(cells.items())))) == want,
          csv + ": cells given in reverse, written in the header's order")
    less = dict(cells)
    del less[cols[-1]]
    e = raises(row_line, header, less)
    check(e is not None and cols[-1] in e and "missing" in e, csv + ": a missing column fails, named (" + str(e) + ")")
    e = raises(row_line, header, dict(cells, no_such_column=1))
    check(e is not None and "no_such_column" in e and "unknown" in e, csv + ": an unknown column fails, named")
    e = raises(row_line, header, dict(cells, **{cols[0]: "a,b"}))
    check(e is not None and cols[0] in e, csv + ": a cell holding a comma fails")

# the file: metadata line, header, the row; nothing written for a row that fails
header = HEADERS["peers_edm.csv"]
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "peers_edm.csv")
    with PeerCsv("test_peer_csv", path, {"program": "test"}, header) as out:
        out.row(GBps="2.5", median_ms=f"{1.23456789:.6g}", impl="pdist", N=1024, features=4, layout="packed", test="edm")
        check(raises(lambda: out.row(test="edm")) is not None, "PeerCsv.row with missing columns fails")
    lines = open(path).read().split("\n")
    check(lines[0] == "# " + json.dumps({"program": "test"}) and lines[1] == header and
          lines[2] == "edm,packed,4,1024,pdist,1.23457,2.5" and lines[3:] == [""],
          "PeerCsv writes the metadata, the header and the row by column name: " + repr(lines[2]))

# each script's row(...) calls name exactly its layout's columns (keyword arguments, no positional ones)
for script, csv in SCRIPTS.items():
    tree = ast.parse(open(os.path.join(here, "..", script)).read(), script)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
             n.func.attr == "row"]
    cols = set(HEADERS[csv].split(","))
    check(len(calls) > 0, script + ": writes its rows through row(...)")
    for c in calls:
        names = {k.arg for k in c.keywords}
        diff = "" if names == cols else " (missing %s, unknown %s)" % (sorted(cols - names), sorted(names - cols))
        check(not c.args and names == cols, "%s line %d: row(...) names the columns of %s%s" % (script, c.lineno, csv, diff))

# experiments/maps2d/sass_cost.sh's Python (its heredoc; it runs only where cuobjdump reads a CUDA build) writes
# map_instructions.csv's rows by column name, row_line(HEADER, r), each r a rows.append(dict(...)) naming exactly the
# layout's columns
sh = open(os.path.join(here, "..", "maps2d", "sass_cost.sh")).read()
py = sh[sh.index("<<'PY'\n") + len("<<'PY'\n"):sh.index("\nPY\n")]
tree = ast.parse(py, "sass_cost.sh's Python")
cols = set(HEADERS["map_instructions.csv"].split(","))
calls = [n.args[0] for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
         n.func.attr == "append" and isinstance(n.func.value, ast.Name) and n.func.value.id == "rows"]
check(len(calls) > 0 and 'HEADERS["map_instructions.csv"]' in py and "row_line(HEADER, r)" in py,
      "sass_cost.sh: its header from HEADERS, its rows through row_line")
for c in calls:
    ok = isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "dict" and not c.args
    names = {k.arg for k in c.keywords} if ok else set()
    diff = "" if names == cols else " (missing %s, unknown %s)" % (sorted(cols - names), sorted(names - cols))
    check(ok and names == cols, "sass_cost.sh line %d of its Python: a row names the columns of map_instructions.csv%s"
          % (c.lineno, diff))

sys.exit(1 if fails else 0)
