#!/usr/bin/env python3
"""PyTorch peer for the SDH experiment (optional).

Two ways a PyTorch user would compute the all-pairs distance histogram on the GPU,
over the same points as bench_sdh (the generator of apps/sdh_cpu.hpp is
reproduced bit for bit with numpy), in row chunks of the pair triangle (i < j):

  torch-direct  dx, dy, dz, s = (dx*dx + dy*dy) + dz*dz, sqrt, / w, trunc, clamp,
                bincount: the rule of sdh_cpu.hpp op by op (separate elementwise
                kernels: no contraction), so it should match the CPU exactly
  torch-cdist   torch.cdist (matrix-multiply form of the distance), floor(d / w),
                clamp, bincount: the idiomatic, faster and inexact form

Before timing, each is compared at --verify-max points with the rule evaluated in
numpy float32 (exact IEEE single operations); the column exact_at_verify_n says
whether the histograms are equal. Timings: CUDA events around the whole chunked
computation, points already on the GPU; median and quartiles over --reps.

CSV: experiments/results/local/<gpu_slug>/peers_sdh.csv (default; --out FILE for another), first line "# " + JSON metadata.
Exits 0 with a message when torch or a CUDA device is missing.
"""
import argparse
import math
import os
import sys

# the GPU-folder rule (experiments/gpu_slug.py runs its one definition, src/support/gpu/gpu_slug.hpp)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gpu_slug import gpu_slug  # noqa: E402
# experiments/layouts.py, generated from the C++ layouts and peers_sdh.csv's words (results/python_names.hpp sdh_peers)
from layouts import HEADERS, SDH_EXACT_NO, SDH_EXACT_YES, SDH_PEERS, SDH_TORCH_DIRECT  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
from peer_common import PeerCsv, run_meta  # noqa: E402  (the peers' one CSV writer: rows by column name; metadata)

BOX = 23000.0
SEED = 0x5D4C0FFEE5D4
GAMMA = 0x9E3779B97F4A7C15
M64 = (1 << 64) - 1


def points(n, box=BOX, seed=SEED):
    """The points of tdmaps::sdh::uniform_points (splitmix64, 24 bits per coordinate)."""
    import numpy as np

    with np.errstate(over="ignore"):
        k = np.arange(1, 3 * n + 1, dtype=np.uint64)
        z = np.uint64(seed) + k * np.uint64(GAMMA)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    scale = np.float32(box) * np.float32(1.0 / 16777216.0)
    c = (z >> np.uint64(40)).astype(np.float32) * scale
    return c.reshape(n, 3)


def default_buckets(box, w):
    import numpy as np

    b = np.float32(box)
    s = (b * b + b * b) + b * b
    q = np.float32(np.sqrt(np.float32(s))) / np.float32(w)
    return int(np.float32(q)) + 1


def rule_numpy(p, w, B):
    """The rule of sdh_cpu.hpp in numpy float32 (every op IEEE single, round to nearest)."""
    import numpy as np

    n = p.shape[0]
    h = np.zeros(B, dtype=np.int64)
    wf = np.float32(w)
    for i in range(n - 1):
        d = p[i][None, :] - p[i + 1 :]
        s = (d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]) + d[:, 2] * d[:, 2]
        q = np.sqrt(s) / wf
        k = np.minimum(np.trunc(q), np.float32(B - 1)).astype(np.int64)
        h += np.bincount(k, minlength=B)
    return h


def sdh_torch(X, w, B, mode, chunk):
    """Histogram of all pairs i < j of X (n x 3, float32, on the GPU)."""
    import torch

    n = X.shape[0]
    h = torch.zeros(B, dtype=torch.int64, device=X.device)
    # a 0-dim GPU tensor, not a Python scalar: ATen divides by a CPU scalar through
    # its reciprocal, which is not the correctly rounded quotient of the rule
    wt = torch.tensor(w, dtype=torch.float32, device=X.device)

    def bucket_direct(A, C):
        dx = A[:, None, 0] - C[None, :, 0]
        dy = A[:, None, 1] - C[None, :, 1]
        dz = A[:, None, 2] - C[None, :, 2]
        s = (dx * dx + dy * dy) + dz * dz
        q = torch.sqrt(s) / wt
        return torch.clamp(torch.trunc(q), max=B - 1).to(torch.int64)

    def bucket_cdist(A, C):
        d = torch.cdist(A, C)
        return torch.clamp(torch.floor(d / wt), max=B - 1).to(torch.int64)

    f = bucket_direct if mode == "direct" else bucket_cdist
    for a in range(0, n, chunk):
        b = min(n, a + chunk)
        A = X[a:b]
        k = f(A, A)
        m = torch.triu(torch.ones(b - a, b - a, dtype=torch.bool, device=X.device), diagonal=1)
        h += torch.bincount(k[m], minlength=B)
        if b < n:
            for c0 in range(b, n, 8 * chunk):
                c1 = min(n, c0 + 8 * chunk)
                h += torch.bincount(f(A, X[c0:c1]).reshape(-1), minlength=B)
    return h


# results::layout::peers_sdh (src/support/results/layouts.hpp); the test peer_headers holds the two equal
CSV = "peers_sdh.csv"
HEADER = HEADERS[CSV]  # results::layout::peers_sdh (src/support/results/layouts.hpp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--print-header", action="store_true", help="print the CSV's header and stop")
    ap.add_argument("--N", default="10000,100000,1000000")
    ap.add_argument("--bucket-width", type=float, default=500.0)
    ap.add_argument("--buckets", type=int, default=0)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=2048, help="rows per chunk (GPU memory ~ chunk * 8 * chunk * 40 bytes)")
    ap.add_argument("--verify-max", dest="verify_n", type=int, default=3000,
                    help="points of the check against the rule before timing (the name every program uses)")
    ap.add_argument("--verify-n", dest="verify_n_old", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--max-s", type=float, default=60.0, help="skip a size predicted to take longer per run")
    ap.add_argument("--impl", default=",".join(SDH_PEERS), help="comma list of " + ", ".join(SDH_PEERS))
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    if a.verify_n_old is not None:
        ap.error("--verify-n is now --verify-max")
    impls = [x for x in a.impl.split(",") if x]
    bad = [x for x in impls if x not in SDH_PEERS]
    if bad:
        ap.error("--impl: unknown %s (known: %s)" % (", ".join(bad), ", ".join(SDH_PEERS)))
    if a.print_header:
        print(HEADER)
        return 0
    try:
        import numpy as np
        import torch
    except Exception as e:  # noqa: BLE001
        print(f"torch_sdh: PyTorch or numpy not available ({e}); nothing measured")
        return 0
    if not torch.cuda.is_available():
        print("torch_sdh: no CUDA device visible to PyTorch; nothing measured")
        return 0
    Ns = [int(x) for x in a.N.split(",") if x]
    w = float(np.float32(a.bucket_width))
    if any(n < 2 for n in Ns) or not (w > 0) or a.buckets < 0:
        print("error: N >= 2, bucket width > 0, buckets >= 0", file=sys.stderr)
        return 2
    B = a.buckets if a.buckets > 0 else default_buckets(BOX, w)
    dev = torch.device("cuda")
    name = torch.cuda.get_device_name(0)
    out = a.out or os.path.join("experiments", "results", "local", gpu_slug(name), CSV)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    meta = run_meta("torch_sdh.py", sys.argv, torch, name, gpu_slug(name), box=BOX, seed=SEED, chunk=a.chunk)
    P = points(max(Ns + [a.verify_n]))
    Xall = torch.from_numpy(P).to(dev)

    exact = {}
    ref = rule_numpy(P[: a.verify_n], w, B)
    for impl in impls:
        mode = "direct" if impl == SDH_TORCH_DIRECT else "cdist"
        h = sdh_torch(Xall[: a.verify_n], w, B, mode, a.chunk).cpu().numpy()
        exact[impl] = bool((h == ref).all())
        diff = int(np.abs(h - ref).sum())
        print(f"{impl}: N={a.verify_n} {'equals' if exact[impl] else 'differs from'} the rule "
              f"({diff} pair counts off)", file=sys.stderr)

    with PeerCsv("torch_sdh", out, meta, HEADER) as table:
        last = {}
        for n in Ns:
            X = Xall[:n]
            pairs = n * (n - 1) // 2
            for impl in impls:
                mode = "direct" if impl == SDH_TORCH_DIRECT else "cdist"
                if impl in last:
                    n0, ms0 = last[impl]
                    if ms0 * (n / n0) ** 2 > 1000 * a.max_s:
                        print(f"skip {impl} N={n} (predicted {ms0 * (n / n0) ** 2 / 1000:.0f} s)", file=sys.stderr)
                        continue
                h = sdh_torch(X, w, B, mode, a.chunk)  # warm-up, checked
                if int(h.sum().item()) != pairs:
                    print(f"error: {impl} N={n}: histogram sums to {int(h.sum())}, not {pairs}", file=sys.stderr)
                    return 1
                t = []
                for _ in range(a.reps):
                    e0 = torch.cuda.Event(enable_timing=True)
                    e1 = torch.cuda.Event(enable_timing=True)
                    e0.record()
                    sdh_torch(X, w, B, mode, a.chunk)
                    e1.record()
                    torch.cuda.synchronize()
                    t.append(e0.elapsed_time(e1))
                t.sort()
                q = lambda fr: t[int(fr * (len(t) - 1) + 0.5)]  # noqa: E731
                med = q(0.5)
                last[impl] = (n, med)
                table.row(impl=impl, N=n, bucket_width=f"{w:g}", buckets=B, reps=len(t), median_ms=f"{med:.4f}",
                          p25_ms=f"{q(0.25):.4f}", p75_ms=f"{q(0.75):.4f}", min_ms=f"{t[0]:.4f}", max_ms=f"{t[-1]:.4f}",
                          pairs_per_s=f"{pairs / (med / 1000):.6e}", exact_at_verify_n=SDH_EXACT_YES if exact[impl] else SDH_EXACT_NO)
                print(f"  {impl} N={n} median {med:.2f} ms  {pairs / (med / 1000):.3e} pairs/s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
