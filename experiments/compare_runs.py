#!/usr/bin/env python3
"""Compare two runs of the experiment programs row by row (e.g. a rerun of the quick
profile after a refactor against the committed results of the same GPU).

  python3 experiments/compare_runs.py OLD_DIR NEW_DIR [--out FILE]

For every CSV present in both folders whose rows are timed (median_ms, p25_ms, p75_ms columns), the rows
with the same key (every column that is not a measurement) are paired; each pair
compares the medians (new/old) and whether the new median lies inside the old
p25..p75 widened by the old run-to-run spread (max(p75-p25, 3% of the median)), and
where the file has it, the improvement factor I (new/old) of the non-reference maps.
Prints one line per CSV (pairs, median and 10th/90th percentile of new/old, share
inside the spread) and, with --out, writes every pair as CSV. The columns of both
files must be the same (a refactor keeps the schema): a difference is reported.
"""
import csv, io, os, statistics, sys

# experiments/layouts.py (check_layouts --python): the output's layout (results::layout::compare_runs), the measured
# columns (results::measured_columns: a row's key is its other columns) and the maps every I is taken against
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layouts import HEADERS, MEASURED, REFERENCE_MAPS  # noqa: E402

CSV = "compare_with_committed.csv"  # results::layout::compare_runs (src/support/results/layouts.hpp)
COLUMNS = HEADERS[CSV].split(",")
KEYS = COLUMNS[1:7]  # k1..k6: the key's first six cells, "column=value"

def read(path):
    lines = [l for l in open(path).read().splitlines() if not l.startswith("#")]
    r = csv.DictReader(io.StringIO("\n".join(lines)))
    return r.fieldnames, list(r)


def key_of(row, cols):
    return tuple(row[c] for c in cols)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    old_dir, new_dir = argv[0], argv[1]
    out = argv[argv.index("--out") + 1] if "--out" in argv else None
    pairs_all = []
    status = 0
    # every CSV of both folders whose rows are timed (median_ms and its quartiles): no list of file names to keep
    for f in sorted(x for x in os.listdir(old_dir) if x.endswith(".csv")):
        po, pn = os.path.join(old_dir, f), os.path.join(new_dir, f)
        if not os.path.exists(pn):
            continue
        co, ro = read(po)
        cn, rn = read(pn)
        if not {"median_ms", "p25_ms", "p75_ms"} <= set(co or []):
            continue
        if co != cn:
            print(f"{f}: COLUMNS DIFFER\n  old: {co}\n  new: {cn}")
            status = 1
            continue
        keys = [c for c in co if c not in MEASURED]
        old = {key_of(r, keys): r for r in ro}
        ratios, inside, iratio = [], 0, []
        for r in rn:
            o = old.get(key_of(r, keys))
            if o is None or not o.get("median_ms") or not r.get("median_ms"):
                continue
            try:
                mo, mn = float(o["median_ms"]), float(r["median_ms"])
                lo, hi = float(o["p25_ms"]), float(o["p75_ms"])
            except ValueError:
                continue
            if mo <= 0:
                continue
            spread = max(hi - lo, 0.03 * mo)
            ok = lo - spread <= mn <= hi + spread
            inside += ok
            ratios.append(mn / mo)
            for col in ("I",):  # the ratio to BB of the same run: what the claims read
                try:
                    io_, in_ = float(o.get(col, "")), float(r.get(col, ""))
                    if io_ > 0 and in_ > 0 and r.get("map") not in REFERENCE_MAPS:
                        iratio.append(in_ / io_)
                except ValueError:
                    pass
            key = [f"{k}={v}" for k, v in zip(keys, key_of(r, keys))][:len(KEYS)]
            pairs_all.append(dict(file=f, **dict(zip(KEYS, key + [""] * len(KEYS))), old_median_ms=mo, new_median_ms=mn,
                                  new_over_old=mn / mo, inside_spread=int(ok)))
        if not ratios:
            print(f"{f}: no common rows")
            continue
        q = statistics.quantiles(ratios, n=10) if len(ratios) >= 10 else [min(ratios)] * 9 + [max(ratios)]
        print(f"{f}: {len(ratios)} pairs, new/old median {statistics.median(ratios):.3f} "
              f"(10%: {q[0]:.3f}, 90%: {q[-1]:.3f}), inside the old run's spread: {inside}/{len(ratios)}"
              + (f"; I new/old median {statistics.median(iratio):.3f} (min {min(iratio):.3f}, max {max(iratio):.3f})"
                 if iratio else ""))
    if out:
        with open(out, "w", newline="") as fh:
            w = csv.DictWriter(fh, COLUMNS)  # rows by column name: a missing or unknown column is an error
            w.writeheader()
            for p in pairs_all:
                if set(p) != set(COLUMNS):
                    raise ValueError("%s: a row of columns %s, not its layout's" % (CSV, sorted(p)))
                w.writerow(p)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
