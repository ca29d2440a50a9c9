#!/usr/bin/env python3
"""Summary table of the GPUs' results, for README.md: every number is read from the
committed CSVs in experiments/results/<gpu>/ (nothing typed by hand).

  python3 experiments/summarize.py [GPU_SLUG ...]     print the markdown block of these GPUs
                                                      (default: every GPU folder, h200 first)
  python3 experiments/summarize.py --readme           replace the block between the
                                                      <!-- results:begin/end --> markers of
                                                      README.md with the block of every GPU folder
  python3 experiments/summarize.py --readme --dry-run print that block instead of writing it

One GPU gives the one-GPU block (a table per experiment kind); several give one table with a
row per experiment and GPU, then each GPU's remaining lines.
"""
import csv, io, json, os, re, statistics, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(text):
    """A results CSV's text: its metadata (first line "# {json}") and its rows by column name."""
    lines = text.splitlines()
    meta = json.loads(lines[0][2:]) if lines and lines[0].startswith("# ") else {}
    return meta, list(csv.DictReader(io.StringIO("\n".join(l for l in lines if not l.startswith("#")))))


def load(gpu, name):
    path = os.path.join(ROOT, "experiments", "results", gpu, name)
    if not os.path.exists(path):
        return None, []
    return parse(open(path).read())


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def large_I(rows, pred, key="I", nmin=15000):
    return med([float(r[key]) for r in rows if pred(r) and int(r["N"]) >= nmin])


RESULTS = os.path.join(ROOT, "experiments", "results")
MAPS = ["ltm-r", "ltm-e", "rb", "rec", "utm-n"]
SQRT_MAPS = ["ltm-x", "ltm-n", "ltm-r", "ltm-d", "ltm-e"]


def gpu_folders():
    """Every GPU folder of experiments/results (not cpu/), h200 first, then by name."""
    if not os.path.isdir(RESULTS):
        return []
    v = [d for d in os.listdir(RESULTS)
         if d != "cpu" and not d.startswith(".") and os.path.isdir(os.path.join(RESULTS, d))
         and any(f.endswith(".csv") for f in os.listdir(os.path.join(RESULTS, d)))]
    return sorted(v, key=lambda d: (d != "h200", d))


def measure(gpu):
    """Everything the block says about one GPU: meta, the I rows, the square roots, the other lines."""
    m, dummy = load(gpu, "dummy.csv")
    _, sqrt = load(gpu, "sqrt.csv")
    _, edm = load(gpu, "edm.csv")
    _, col = load(gpu, "collision.csv")
    _, t3 = load(gpu, "tet_dummy.csv")
    _, t3b = load(gpu, "tet_threebody.csv")
    _, tl = load(gpu, "tet_layout.csv")
    _, sdh = load(gpu, "sdh.csv")
    res = {"gpu": gpu, "meta": m or {}, "rows": [], "sqrt": [], "edm_bw": None, "tet": [], "sdh": None}

    def row(label, rows, pred, paper):
        cells = []
        for mp in MAPS:
            v = large_I(rows, lambda r, mp=mp: pred(r) and r["map"] == mp)
            if v != v:  # nan: not measured at large N (utm-n refuses N > 5792)
                v = med([float(r["I"]) for r in rows if pred(r) and r["map"] == mp])
                cells.append(f"{v:.2f}*" if v == v else "—")
            else:
                cells.append(f"{v:.2f}")
        res["rows"].append((label, cells, paper))

    row("dummy, one-address store (papers' form)", dummy, lambda r: r["form"] == "store" and r["rho"] == "16", "LTM 1.13–1.18, RB ≤ 1.33")
    row("dummy, contention-free", dummy, lambda r: r["form"] == "cond" and r["rho"] == "16", "bound I < 2")
    row("EDM, 4 features, full matrix", edm, lambda r: r["variant"] == "full" and r["features"] == "4" and r["rho"] == "16", "LTM 1.18, RB ≤ 1.28")
    row("EDM, 4 features, packed", edm, lambda r: r["variant"] == "packed" and r["features"] == "4" and r["rho"] == "16", "—")
    row("collision 3D (shared memory)", col, lambda r: r["variant"] == "3d" and r["rho"] == "16", "LTM ≤ 1.07, others < 1")
    row("collision 1D", col, lambda r: r["variant"] == "1d" and r["rho"] == "16", "LTM ≈ 1")

    res["sqrt"] = [(mp, large_I(sqrt, lambda r, mp=mp: r['form'] == 'cond' and r['rho'] == '16' and r['map'] == mp))
                   for mp in SQRT_MAPS]
    bw = med([float(r["GBps"]) for r in edm if r["map"] == "write_bw"])
    parts = []
    for lay in ["full", "packed"]:
        best = {}  # (features, N) -> best map's GB/s
        for r in edm:
            if r["variant"] == lay and r["map"] != "write_bw" and int(r["N"]) >= 16384:
                k = (r["features"], int(r["N"]))
                best[k] = max(best.get(k, 0.0), float(r["GBps"]))
        if best:
            lo = min(best, key=best.get)
            parts.append(f"{lay}: {best[lo] / bw * 100:.0f}–{max(best.values()) / bw * 100:.0f}% "
                         f"(lowest: {lo[0]} feature{'s' if lo[0] != '1' else ''} at N = {lo[1]:,})")
    res["edm_bw"] = (f"EDM against the write bandwidth measured in the same run ({bw:.0f} GB/s), best map at each "
                     f"N ≥ 16,384 and each feature count 1..4: " + "; ".join(parts) + " (target: ≥ 85% at every N).")

    if t3:
        nmax = max(int(r["N"]) for r in t3)
        def t3I(mp, mode, rho, form="cond"):
            return med([float(r["I"]) for r in t3 if r["map"] == mp and r["mode"] == mode and r["rho"] == rho and r["form"] == form and int(r["N"]) == nmax])
        res["tet"].append(f"Tetrahedral domain, N = {nmax}, contention-free dummy, I = t(BB3) / t(map): "
                          f"tet-fast (per block) ρ=4 **{t3I('tet-fast', 'block', '4'):.2f}**, ρ=8 {t3I('tet-fast', 'block', '8'):.2f}; "
                          f"tet-e (per thread) ρ=4 {t3I('tet-e', 'thread', '4'):.2f} — paper's bound 6×.")
    if t3b:
        nmax = max(int(r["N"]) for r in t3b)
        v = max(float(r["I"]) for r in t3b if int(r["N"]) == nmax)
        res["tet"].append(f"3-body (all triplets, N = {nmax}): best map {v:.2f}× faster than BB3.")
    if tl:
        vals = [float(r["linear_over_blocked"]) for r in tl if r.get("linear_over_blocked") not in (None, "", "nan")]
        if vals:
            res["tet"].append(f"Blocked vs linear layout (stencil step): linear/blocked time ratio {min(vals):.2f}–{max(vals):.2f} "
                              f"(paper predicts up to 2×).")
    if sdh:
        nmax = max(int(r["N"]) for r in sdh)
        bestr = max((r for r in sdh if int(r["N"]) == nmax), key=lambda r: float(r["pairs_per_s"]))
        sp = [r for r in sdh if r["impl"] == bestr["impl"] and r["speedup_vs_cpu_mt"]]
        spd = f"; {float(sp[-1]['speedup_vs_cpu_mt']):.0f}× the all-core CPU at N = {int(sp[-1]['N']):,}" if sp else ""
        _, big = load(gpu, "sdh_cpu_1M.csv")
        b = [r for r in big if r["impl"] == bestr["impl"] and r["speedup_vs_cpu_mt"]]
        if b:
            spd = f"; {float(b[0]['speedup_vs_cpu_mt']):.0f}× the all-core CPU in the same run at N = {int(b[0]['N']):,} (sdh_cpu_1M.csv)"
        res["sdh"] = f"SDH: best version `{bestr['impl']}` at N = {nmax:,}: {float(bestr['pairs_per_s']):.2e} pair distances/s{spd}."
    res["multi"] = multi_gpu_line(gpu)
    return res


def multi_gpu_line(gpu):
    """Past one GPU (experiments/multigpu): the speed-up of G GPUs and of 8 chunks on one GPU over 1 GPU x 1
    chunk in the same run, the reduction's share, bit-identity (sdh_multigpu.csv, threebody_multigpu.csv)."""
    parts, meta, commits = [], {}, []
    for name, app, what in (("sdh_multigpu.csv", "SDH", "pairs"), ("threebody_multigpu.csv", "three-body", "triplets")):
        m, rows = load(gpu, name)
        if not rows:
            continue
        meta = meta or m
        if m.get("commit") and m["commit"] not in commits:
            commits.append(m["commit"])
        n = max(int(r["N"]) for r in rows)
        at = [r for r in rows if int(r["N"]) == n]
        one = [r for r in at if r["gpus"] == "1" and r["chunks"] == "1"]
        if not one:
            continue
        txt = f"{app} at N = {n:,} ({float(one[0]['work_per_s']):.3g} {what}/s on 1 GPU)"
        gmax = max(int(r["gpus"]) for r in at)
        g = [r for r in at if int(r["gpus"]) == gmax and r["chunks"] == "1"]
        if gmax > 1 and g:
            txt += (f": {gmax} GPUs ×{float(g[0]['rate_vs_first']):.3f}, reduction {float(g[0]['reduce_ms']):.2f} ms "
                    f"({100 * float(g[0]['reduce_frac']):.4f}% of the run)")
        c = [r for r in at if r["gpus"] == "1" and int(r["chunks"]) > 1]
        if c:
            cm = max(c, key=lambda r: int(r["chunks"]))
            txt += f"; {cm['chunks']} chunks on 1 GPU ×{float(cm['rate_vs_first']):.3f}"
        same = all(r["identical"] == "1" for r in rows)
        txt += "; every split bit-identical" if same else "; NOT every split identical"
        parts.append(txt)
    if not parts:
        return ""
    gpus = meta.get("gpus_used", "?")
    # each CSV's own commit (SDH's first) where two runs made them
    at = ("commits " if len(commits) > 1 else "commit ") + (", ".join(f"`{c}`" for c in commits) or "`?`")
    return (f"Past one GPU ({gpus} × {meta.get('gpu', '?')}, NCCL {meta.get('nccl', '?')}, {at}): "
            + "; ".join(parts) + " (sdh_multigpu.csv, threebody_multigpu.csv; experiments/multigpu/README.md).")


def gpu_name(r):
    return r["meta"].get("gpu", r["gpu"])


def measured_on(r):
    m = r["meta"]
    return (f"**{gpu_name(r)}** (driver {m.get('driver', '?')}, CUDA {m.get('nvcc', '?')}), "
            f"commit `{m.get('commit', '?')}`")


INTRO = ("I = t(BB) / t(map) from the same run, median over N ≥ 15,000 (2D, ρ = 16 unless noted).")
UTM_NOTE = "\\* utm-n is exact only for N ≤ 5,792: median over the N it accepts."


def table(gpu):
    """The block of one GPU (the form README.md had before a second GPU was measured)."""
    r = measure(gpu)
    out = [f"Measured on {measured_on(r)} (each CSV's first line records its own). {INTRO}\n"]
    out.append("| experiment | " + " | ".join(MAPS) + " | paper |")
    out.append("|---|---|---|---|---|---|---|")
    for label, cells, paper in r["rows"]:
        out.append(f"| {label} | " + " | ".join(cells) + f" | {paper} |")
    out.append(f"\n{UTM_NOTE}\n")
    out.append("| square root of g(λ) (dummy, contention-free, ρ = 16) | " +
               " | ".join(f"{mp} {v:.2f}" for mp, v in r["sqrt"]) + " |")
    out.append("|---|---|---|---|---|---|")
    out.append(f"\n{r['edm_bw']}\n")
    out.extend(r["tet"])
    if r["sdh"]:
        out.append(f"\n{r['sdh']}")
    if r.get("multi"):
        out.append(f"\n{r['multi']}")
    return "\n".join(out) + "\n"


def tables(gpus):
    """The block of several GPUs: one table with a row per experiment and GPU, the square roots
    with a row per GPU, then each GPU's EDM bandwidth, tetrahedral and SDH lines."""
    if len(gpus) == 1:
        return table(gpus[0])
    rs = [measure(g) for g in gpus]
    out = ["Measured on " + "; ".join(measured_on(r) for r in rs) +
           f" (each CSV's first line records its own). {INTRO}\n"]
    out.append("| experiment | GPU | " + " | ".join(MAPS) + " | paper |")
    out.append("|---|---|" + "---|" * len(MAPS) + "---|")
    for i, (label, _, paper) in enumerate(rs[0]["rows"]):
        for k, r in enumerate(rs):
            _, cells, _ = r["rows"][i]
            out.append(f"| {label if k == 0 else '″'} | {gpu_name(r)} | " + " | ".join(cells) +
                       f" | {paper if k == 0 else ''} |")
    out.append(f"\n{UTM_NOTE}\n")
    out.append("| square root of g(λ) (dummy, contention-free, ρ = 16) | " + " | ".join(SQRT_MAPS) + " |")
    out.append("|---|" + "---|" * len(SQRT_MAPS))
    for r in rs:
        out.append(f"| {gpu_name(r)} | " + " | ".join(f"{v:.2f}" for _, v in r["sqrt"]) + " |")
    for r in rs:
        out.append(f"\n**{gpu_name(r)}** (`{r['gpu']}`). {r['edm_bw']}")
        if r["tet"]:
            out.append(" ".join(r["tet"]))
        if r["sdh"]:
            out.append(r["sdh"])
        if r.get("multi"):
            out.append(r["multi"])
    return "\n".join(out) + "\n"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    readme = "--readme" in sys.argv
    if readme and args:
        sys.stderr.write(f"summarize.py: --readme covers every GPU folder; ignoring {' '.join(args)}\n")
    gpus = gpu_folders() if readme or not args else args
    if not gpus:
        sys.exit(f"summarize.py: no GPU folder with CSVs under {RESULTS}")
    text = tables(gpus)
    if readme and "--dry-run" not in sys.argv:
        p = os.path.join(ROOT, "README.md")
        s = open(p).read()
        s2 = re.sub(r"(<!-- results:begin -->\n).*?(<!-- results:end -->)", lambda m: m.group(1) + text + m.group(2), s, flags=re.S)
        open(p, "w").write(s2)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
