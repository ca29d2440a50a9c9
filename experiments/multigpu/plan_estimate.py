#!/usr/bin/env python3
"""Planning estimates past the measured GPUs (issue #16, item 5), from a multi_hist CSV.

    python3 experiments/multigpu/plan_estimate.py [experiments/results/h200/sdh_multigpu.csv]

Model of one run of SDH on G GPUs (each GPU holds every point; lambda split in G equal ranges):
    T(G) = pairs(N) / (G * R) + c * (chunks - 1) + t_red(G) + t_skew(G)
  R       the per-GPU rate: the (1 GPU, 1 chunk) row at the largest N of the CSV
  c       the cost of one more chunk on a GPU: (t(1 GPU, k chunks) - t(1 GPU, 1 chunk)) / (k - 1) at the
          smallest N measured (where it is largest relative to the run), floored at 0
  t_red   the NCCL sum of the histogram: measured for 1 and 2 GPUs (reduce_ms); for more GPUs in one node
          assumed 4x the 2-GPU value, for several nodes 20x it (a latency-bound allreduce of B * 8 bytes:
          NCCL's ring or tree over NVLink, then InfiniBand; pessimistic placeholders, not measured here)
  t_skew  GPUs that finish at different times (wait_ms of the 2-GPU row), assumed x G/2 past 2 GPUs
Efficiency E(G) = T(1) / (G * T(G)). Printed as a Markdown table for README.md.
"""
import csv, io, json, sys

path = sys.argv[1] if len(sys.argv) > 1 else "experiments/results/h200/sdh_multigpu.csv"
lines = open(path).read().splitlines()
meta = json.loads(lines[0][2:])
rows = list(csv.DictReader(io.StringIO("\n".join(l for l in lines if not l.startswith("#")))))
f = lambda r, k: float(r[k])
nmax = max(int(r["N"]) for r in rows)
nmin = min(int(r["N"]) for r in rows)
base = next(r for r in rows if int(r["N"]) == nmax and r["gpus"] == "1" and r["chunks"] == "1")
R = f(base, "work") / (f(base, "median_ms") * 1e-3)
small1 = next(r for r in rows if int(r["N"]) == nmin and r["gpus"] == "1" and r["chunks"] == "1")
smallk = max((r for r in rows if int(r["N"]) == nmin and r["gpus"] == "1" and int(r["chunks"]) > 1),
             key=lambda r: int(r["chunks"]))
c_ms = max(0.0, (f(smallk, "median_ms") - f(small1, "median_ms")) / (int(smallk["chunks"]) - 1))
two = next((r for r in rows if int(r["N"]) == nmax and r["gpus"] == "2" and r["chunks"] == "1"), None)
red2 = f(two, "reduce_ms") if two else 0.25
skew2 = f(two, "wait_ms") if two else 3.0
red1 = f(base, "reduce_ms")


def t_run(N, G, nodes=1, chunks=1):
    pairs = N * (N - 1) / 2
    red = red1 if G == 1 else red2 if G == 2 else (4 * red2 if nodes == 1 else 20 * red2)
    skew = 0 if G == 1 else skew2 * max(1, G / 2)
    return pairs / (G * R) + (c_ms * (chunks - 1) + red + skew) * 1e-3


print(f"Measured ({meta['gpu']}, commit {meta['commit']}, {path}): R = {R:.4g} pairs/s per GPU at N = {nmax:,}; "
      f"one more chunk c = {c_ms:.3f} ms (N = {nmin:,}); reduction {red1:.3f} ms (1 GPU), {red2:.3f} ms (2 GPUs); "
      f"skew {skew2:.2f} ms (2 GPUs).\n")
print("| N | GPUs (nodes) | time per run | efficiency E(G) | reduction share |")
print("|---|---|---|---|---|")
for N in (10**7, 10**8):
    t1 = t_run(N, 1)
    for G, nodes in ((1, 1), (2, 1), (8, 1), (32, 4), (64, 8)):
        t = t_run(N, G, nodes)
        red = red1 if G == 1 else red2 if G == 2 else (4 * red2 if nodes == 1 else 20 * red2)
        tm = f"{t:.1f} s" if t < 120 else f"{t / 60:.1f} min"
        print(f"| {N:.0e} | {G} ({nodes}) | {tm} | {t1 / (G * t):.4f} | {red * 1e-3 / t:.1e} |")
