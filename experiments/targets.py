#!/usr/bin/env python3
"""The lean-map performance targets, read from the committed CSVs (nothing typed by hand).

  python3 experiments/targets.py [GPU ...] [--baseline REV] [--markdown]

For each GPU folder in experiments/results/ (default: every folder with dummy.csv) it
prints each target of the lean-maps issue with the measured value, the CSV it comes
from and whether it is met. Medians over N >= 16384, rho = 16 unless a row says
otherwise. "No experiment slower than before" compares each (experiment, N, rho, map)
median with the same row of the CSVs at git revision REV (default: the last commit
before the lean maps, 8fe512e), where that revision has the file for this GPU:
a row is "slower" when its new median is above the old p75 by more than the old
interquartile range (run-to-run noise), and the worst ratio is shown.
"""
import os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import ROOT, load, med, parse  # noqa: E402  (one CSV reader for both scripts)

RES = os.path.join(ROOT, "experiments", "results")


def load_rev(rev, gpu, name):
    try:
        text = subprocess.run(["git", "-C", ROOT, "show", f"{rev}:experiments/results/{gpu}/{name}"],
                              capture_output=True, text=True, check=True).stdout
    except (subprocess.CalledProcessError, OSError):  # no git, or no such file at rev
        return {}, []
    return parse(text)


def big(rows, nmin=16384):
    return [r for r in rows if int(r["N"]) >= nmin]


def I_of(rows, **kw):
    sel = [r for r in big(rows) if all(r.get(k) == v for k, v in kw.items())]
    return med([float(r["I"]) for r in sel])


def ms_of(rows, **kw):
    sel = [r for r in big(rows) if all(r.get(k) == v for k, v in kw.items())]
    return med([float(r["median_ms"]) for r in sel])


def ratio_within(a, b, tol):  # a within tol of b (a slower than b by at most tol)
    return a == a and b == b and a <= b * (1 + tol)


def targets(gpu, baseline):
    out = []
    _, dummy = load(gpu, "dummy.csv")
    _, sq = load(gpu, "sqrt.csv")
    _, edm = load(gpu, "edm.csv")
    _, col = load(gpu, "collision.csv")
    _, t3 = load(gpu, "tet_dummy.csv")
    _, t3b = load(gpu, "tet_threebody.csv")
    _, tl = load(gpu, "tet_layout.csv")

    def add(name, value, ok, src):
        out.append((name, value, "met" if ok else "NOT met", src))

    for m in ["ltm-x", "ltm-n", "ltm-r", "ltm-d", "ltm-e"]:
        v = I_of(sq, form="cond", rho="16", map=m)
        add(f"contention-free dummy: {m} I >= 1.95", f"{v:.3f}", v >= 1.95, "sqrt.csv form=cond")
    bs, bc = ms_of(dummy, form="store", rho="16", map="bb"), ms_of(dummy, form="cond", rho="16", map="bb")
    add("BB store form within 3% of BB cond form (median ms)", f"{bs:.4f} / {bc:.4f} = {bs / bc:.3f}",
        ratio_within(bs, bc, 0.03), "dummy.csv map=bb")
    v = I_of(dummy, form="store", rho="16", map="ltm-r")
    add("papers' store form: ltm-r I >= 1.6", f"{v:.3f}", v >= 1.6, "dummy.csv form=store")
    v = I_of(dummy, form="store", rho="16", map="ltm-e")
    add("papers' store form: ltm-e I >= 1.45", f"{v:.3f}", v >= 1.45, "dummy.csv form=store")
    # ltm-e within 3% of ltm-r: median over N >= 16384 of t(ltm-e) / t(ltm-r) in the same run
    def pair_ratio(rows, a, b, keys, **kw):
        by = {}
        for r in big(rows):
            if all(r.get(k) == v for k, v in kw.items()) and r["map"] in (a, b):
                by.setdefault(tuple(r[k] for k in keys), {})[r["map"]] = float(r["median_ms"])
        return med([d[a] / d[b] for d in by.values() if a in d and b in d])
    v = pair_ratio(dummy, "ltm-e", "ltm-r", ["N"], form="cond", rho="16")
    add("ltm-e within 3% of ltm-r: contention-free dummy, t(e)/t(r)", f"{v:.3f}", ratio_within(v, 1, 0.03), "dummy.csv")
    for lay in ["full", "packed"]:
        v = pair_ratio(edm, "ltm-e", "ltm-r", ["N", "features"], variant=lay, rho="16")
        add(f"ltm-e within 3% of ltm-r: plain EDM ({lay}, d = 1..4), t(e)/t(r)", f"{v:.3f}", ratio_within(v, 1, 0.03),
            "edm.csv")
    for d in ["3", "1"]:
        v = pair_ratio(col, "ltm-e", "ltm-r", ["N"], features=d, rho="16")
        add(f"ltm-e within 3% of ltm-r: collision {d}D, t(e)/t(r)", f"{v:.3f}", ratio_within(v, 1, 0.03), "collision.csv")
    # tetrahedral: every test at rho 4 and 8, both modes, same run
    for name, rows, extra in [("dummy cond", t3, {"form": "cond"}), ("dummy store", t3, {"form": "store"}),
                              ("three-body", t3b, {}), ("layout", tl, {})]:
        for rho in ["4", "8"]:
            worst = float("nan")
            by = {}
            for r in rows:
                if r.get("rho") != rho or any(r.get(k) != v for k, v in extra.items()):
                    continue
                key = (r["N"], r.get("mode"), r.get("layout"))
                by.setdefault(key, {})[r["map"]] = float(r["median_ms"])
            rs = [d["tet-e"] / d["tet-fast"] for d in by.values() if "tet-e" in d and "tet-fast" in d]
            if rs:
                worst = med(rs)
            add(f"tet-e within 5% of tet-fast: {name}, rho={rho}, t(e)/t(fast) (median over N, modes)",
                f"{worst:.3f}", ratio_within(worst, 1, 0.05), {"dummy cond": "tet_dummy.csv", "dummy store": "tet_dummy.csv",
                                                            "three-body": "tet_threebody.csv", "layout": "tet_layout.csv"}[name])
    # no experiment slower than before
    if baseline:
        for name, keys in [("dummy.csv", ["form", "N", "rho", "map"]), ("sqrt.csv", ["form", "N", "rho", "map"]),
                           ("edm.csv", ["variant", "features", "N", "rho", "map"]),
                           ("collision.csv", ["variant", "features", "N", "rho", "map"]),
                           ("tet_dummy.csv", ["form", "N", "rho", "map", "mode"]),
                           ("tet_threebody.csv", ["N", "rho", "map", "mode"]),
                           ("tet_layout.csv", ["layout", "N", "rho", "map", "mode"])]:
            _, old = load_rev(baseline, gpu, name)
            _, new = load(gpu, name)
            if not old or not new:
                continue
            o = {tuple(r.get(k) for k in keys): r for r in old}
            slower, worst, worst_key, n = 0, 0.0, None, 0
            for r in new:
                k = tuple(r.get(x) for x in keys)
                if k not in o or r["map"] == "write_bw":
                    continue
                a, b = float(r["median_ms"]), o[k]
                p25, p75 = float(b["p25_ms"]), float(b["p75_ms"])
                n += 1
                rt = a / float(b["median_ms"])
                if rt > worst:
                    worst, worst_key = rt, k
                if a > p75 + (p75 - p25) and rt > 1.02:
                    slower += 1
            add(f"no row slower than at {baseline}: {name} ({n} rows compared)",
                f"{slower} slower; worst new/old {worst:.3f} at {dict(zip(keys, worst_key)) if worst_key else '-'}",
                slower == 0, name)
    return out


def main():
    args = sys.argv[1:]
    baseline, md = "8fe512e", False
    if "--baseline" in args:
        i = args.index("--baseline")
        baseline = args[i + 1]
        del args[i:i + 2]
    if "--markdown" in args:
        md = True
        args.remove("--markdown")
    gpus = args or sorted(g for g in os.listdir(RES) if os.path.exists(os.path.join(RES, g, "dummy.csv")))
    for g in gpus:
        rows = targets(g, baseline)
        if md:
            print(f"\n**{g}**\n\n| target | measured | | from |\n|---|---|---|---|")
            for n, v, ok, src in rows:
                print(f"| {n} | {v} | {ok} | `{src}` |")
        else:
            print(f"== {g}")
            for n, v, ok, src in rows:
                print(f"  {ok:8s} {n}: {v}  [{src}]")


if __name__ == "__main__":
    main()
