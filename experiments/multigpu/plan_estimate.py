#!/usr/bin/env python3
"""Planning estimates past the measured GPUs (issues #16 item 5, #35 item 5, #40), from a multi_hist CSV.

    python3 experiments/multigpu/plan_estimate.py [CSV ...]      (default experiments/results/h200/sdh_multigpu.csv)

Any of multi_hist's CSVs (sdh_multigpu, threebody_multigpu, gram_multigpu, gram_multigpu_exact: one layout), with rows of 1 GPU
only, of 1 and 2 GPUs (the 2-GPU runs) or of 1, 2 and 4 GPUs (issue #40): the terms come from the largest GPU
count Gm measured, at the largest N of the CSV. Model of one run on G GPUs of C chunks each (every GPU holds
every point; lambda split in G * C equal ranges):

    T(G, C) = work(N) / (G * R) + c * (C - 1) + t_red(G) + t_skew(G)

  R       the per-GPU rate with Gm GPUs running: work / (Gm * (compute_ms - wait_ms)) of the (Gm GPUs, 1 chunk)
          row (compute_ms is the slowest GPU's chunks, wait_ms how long the first GPU to finish waited, so
          compute_ms - wait_ms is the fastest GPU's time and the skew is its own term); with 1 GPU only, the
          1 GPU x 1 chunk row's work / median_ms
  c       one more chunk on a GPU (its launch, set-up, tail): (t(1 GPU, k chunks) - t(1 GPU, 1 chunk)) / (k - 1)
          at the largest N, the largest k measured, floored at 0. Used by the "C = 8" column (8 chunks a GPU)
  t_red   the NCCL sum of the histogram (reduce_ms of the (Gm, 1 chunk) row); past Gm in one node (<= 8 GPUs)
          assumed to grow as a latency-bound ring, x (G - 1) / (Gm - 1); across nodes assumed 20 x the 8-GPU
          value x log2(nodes) (InfiniBand; pessimistic placeholders, not measured here)
  t_skew  GPUs that finish at different times: wait_ms of the (Gm, 1 chunk) row, assumed x G / Gm past Gm
  R1      one GPU alone: work / median_ms of the 1 GPU x 1 chunk row (T(1, C) uses R1, T(G > 1, C) uses R; for
          gram the range kernel that every split runs is slower than the whole-grid one, so c, measured on
          one GPU, carries that loss too and the 8-chunk column counts it twice for G > 1)
Efficiency E(G, C) = T(1, 1) / (G * T(G, C)). Printed as Markdown for experiments/multigpu/README.md:
each term with its source (file, row, column), then the table. G past 64 workers (G x C > 64) is marked:
the partition is proven, and multi_hist accepts, at most 64 workers.
"""
import csv, io, json, math, os, sys

# experiments/layouts.py (check_layouts --python): multi_hist's layout and its app words (results::multigpu_app)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from layouts import HEADERS, MULTIGPU_GRAM, MULTIGPU_GRAM_EXACT, MULTIGPU_SDH, MULTIGPU_THREEBODY  # noqa: E402

MAX_WORKERS = 64  # tdmaps/partition.hpp max_workers
PLAN = {MULTIGPU_SDH: (10**7, 10**8), MULTIGPU_THREEBODY: None, MULTIGPU_GRAM: (4 * 10**6, 10**7),
        MULTIGPU_GRAM_EXACT: (4 * 10**6, 10**7)}  # threebody: the CSV's N
UNIT = {MULTIGPU_SDH: "pairs", MULTIGPU_THREEBODY: "triplets", MULTIGPU_GRAM: "pairs", MULTIGPU_GRAM_EXACT: "pairs"}
# results::layout::sdh_multigpu (src/support/results/layouts.hpp): the one layout of multi_hist's four CSVs
CSV = "sdh_multigpu.csv"
HEADER = HEADERS[CSV]


def work(app, N):
    return N * (N + 1) * (N + 2) / 6 if app == MULTIGPU_THREEBODY else N * (N - 1) / 2


def dur(t):
    return f"{t:.2f} s" if t < 10 else f"{t:.1f} s" if t < 120 else f"{t / 60:.1f} min"


def plan(path):
    lines = open(path).read().splitlines()
    meta = json.loads(lines[0][2:])
    body = [l for l in lines if not l.startswith("#")]
    if not body or body[0] != HEADER:
        sys.exit(f"plan_estimate: {path}: header {body[0] if body else '(none)'!r} is not multi_hist's layout "
                 f"(experiments/layouts.py HEADERS[{CSV!r}]): {HEADER}")
    rows = list(csv.DictReader(io.StringIO("\n".join(body))))
    f = lambda r, k: float(r[k])
    app = rows[0]["app"]
    if app not in UNIT:
        sys.exit(f"plan_estimate: {path}: no plan for app {app!r} (known: {', '.join(UNIT)})")
    nmax = max(int(r["N"]) for r in rows)
    at = [r for r in rows if int(r["N"]) == nmax]
    row = lambda g, c: next((r for r in at if int(r["gpus"]) == g and int(r["chunks"]) == c), None)
    base = row(1, 1)
    gm = max(int(r["gpus"]) for r in at if r["chunks"] == "1")
    top = row(gm, 1)
    W = f(base, "work")
    src = f"`{path}` (commit {meta['commit']}, {meta['gpu']}), N = {nmax:,}"
    if gm > 1:
        R = W / (gm * (f(top, "compute_ms") - f(top, "wait_ms")) * 1e-3)
        r_src = f"work / ({gm} x (compute_ms - wait_ms)) of the {gm} GPUs x 1 chunk row"
    else:
        R = W / (f(base, "median_ms") * 1e-3)
        r_src = "work / median_ms of the 1 GPU x 1 chunk row"
    R1 = W / (f(base, "median_ms") * 1e-3)
    kc = max((r for r in at if r["gpus"] == "1" and int(r["chunks"]) > 1), key=lambda r: int(r["chunks"]), default=None)
    c_ms = max(0.0, (f(kc, "median_ms") - f(base, "median_ms")) / (int(kc["chunks"]) - 1)) if kc else 0.0
    red_m, skew_m = (f(top, "reduce_ms"), f(top, "wait_ms")) if gm > 1 else (f(base, "reduce_ms"), 0.0)

    def t_red(G, nodes):
        if G == 1:
            return f(base, "reduce_ms")
        if G <= gm:
            r = row(G, 1)
            return f(r, "reduce_ms") if r else red_m
        scale = (G - 1) / (gm - 1) if gm > 1 else G - 1
        if nodes == 1:
            return red_m * scale
        return 20 * red_m * (7 / (gm - 1) if gm > 1 else 7) * math.log2(nodes)

    def t_skew(G):
        if G == 1:
            return 0.0
        r = row(G, 1) if G <= gm else None
        return f(r, "wait_ms") if r else skew_m * G / max(gm, 2)

    def t_run(N, G, C, nodes):  # one GPU runs at its own measured rate R1 (the whole-grid kernel at C = 1)
        return work(app, N) / (G * (R1 if G == 1 else R)) + (c_ms * (C - 1) + t_red(G, nodes) + t_skew(G)) * 1e-3

    out = [f"**{app}** — terms from {src}:",
           f"- R = {R:.4g} {UNIT[app]}/s per GPU ({r_src}; 1 GPU alone: {R1:.4g}, the 1 GPU x 1 chunk row's work / median_ms)",
           f"- c = {c_ms:.3f} ms a chunk (1 GPU x {kc['chunks']} chunks against 1 GPU x 1 chunk, median_ms)" if kc else
           "- c = 0 (no 1-GPU row with more than one chunk)",
           f"- t_red = {red_m:.3f} ms at {gm} GPU(s) (reduce_ms); past it: placeholders (header of plan_estimate.py)",
           f"- t_skew = {skew_m:.2f} ms at {gm} GPUs (wait_ms); past it x G / {max(gm, 2)}" if gm > 1 else
           "- t_skew: not measured (1 GPU only); taken as 0", ""]
    out += ["| N | GPUs (nodes) | time per run, 1 chunk | E(G), 1 chunk | E(G), 8 chunks a GPU | reduction share |",
            "|---|---|---|---|---|---|"]
    Ns = PLAN.get(app) or (nmax,)
    Gs = sorted({1, *[int(r["gpus"]) for r in at], 8, 32, 256})
    for N in Ns:
        t1 = t_run(N, 1, 1, 1)
        for G in Gs:
            nodes = max(1, -(-G // 8))
            t, t8 = t_run(N, G, 1, nodes), t_run(N, G, 8, nodes)
            mark = lambda C: "†" if G * C > MAX_WORKERS else ""
            out.append(f"| {N:,} | {G} ({nodes}) | {dur(t)}{mark(1)} | {t1 / (G * t):.4f}{mark(1)} | "
                       f"{t1 / (G * t8):.4f}{mark(8)} | {t_red(G, nodes) * 1e-3 / t:.1e} |")
    out += ["", f"† more than the {MAX_WORKERS} workers the partition is proven for: multi_hist refuses it today."]
    return "\n".join(out)


if __name__ == "__main__":
    paths = sys.argv[1:] or [os.path.join("experiments", "results", "h200", CSV)]
    print("\n\n".join(plan(p) for p in paths))
