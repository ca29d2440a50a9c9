#!/usr/bin/env python3
"""experiments/peers/torch_peers.py -- PyTorch peers of the EDM experiment.

Times torch.nn.functional.pdist (condensed output: the strictly lower/upper
triangle without the diagonal, N(N-1)/2 floats) and torch.cdist (the full N x N
matrix) on the same points as bench_apps (uniform in [0,1)^d, the SplitMix64 rule
of experiments/apps2d/apps_host.hpp, feature k of point i a pure function of
(k, i)), d = 1..4 features, over the same N sweep. CUDA events
(torch.cuda.Event) around each call after warm-up; median of --reps.

    python3 experiments/peers/torch_peers.py [--quick] [--N A:B:STEP] [--out experiments/results/local]

Writes <out>/<gpu_slug>/peers_edm.csv:
    # {metadata JSON: torch version, CUDA version, device, date, ...}
    test,layout,features,N,impl,median_ms,GBps
impl: pdist (layout packed), cdist (layout full, PyTorch's default compute mode:
matrix-multiply formulation for large inputs) and cdist-direct (layout full,
compute_mode='donot_use_mm_for_euclid_dist', the difference formula the kernels
use); the names and layouts are EDM_PEERS of experiments/layouts.py (declared once in
src/support/results/python_names.hpp edm_peers, which figures/fig_2d.cpp reads).
GBps = bytes the call writes (pdist N(N-1)/2*4, cdist N*N*4) / median time.

Exits 0 with a message when PyTorch or a CUDA GPU is absent (optional peers).
"""
import argparse
import os
import statistics
import sys

M64 = (1 << 64) - 1
EDM_SEED = 0x0EDF00D5EED  # apps_host.hpp: edm_seed


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def hash3(seed, a, b):
    return splitmix64(splitmix64(seed ^ splitmix64(a)) ^ b)


def u01(h):
    return float(h >> 40) * (1.0 / 16777216.0)  # exact in float32


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_common import PeerCsv, add_run_args, event_times, open_cuda, parse_sizes, run_meta  # noqa: E402
from layouts import HEADERS  # noqa: E402  (experiments/layouts.py, generated from the C++ layouts; peer_common puts experiments/ on the path)
from layouts import EDM_CDIST, EDM_CDIST_DIRECT, EDM_PDIST, EDM_PEERS  # noqa: E402  (peers_edm.csv's impls and their layouts)


# results::layout::peers_edm (src/support/results/layouts.hpp); the test peer_headers holds the two equal
CSV = "peers_edm.csv"
HEADER = HEADERS[CSV]  # results::layout::peers_edm (src/support/results/layouts.hpp)


def parse_args(argv):
    p = argparse.ArgumentParser(description="PyTorch peers (pdist, cdist) of the EDM experiment")
    p.add_argument("--print-header", action="store_true", help="print the CSV's header and stop")
    p.add_argument("-N", "--N", dest="N", default=None,
                   help="sizes: comma list and/or ranges A:B:STEP, as every program takes them "
                        "(default 1024:30720:1024; --quick: 2048,8192,16384,30720)")
    for old in ("--N-from", "--N-to", "--N-step"):  # the old spelling: refused with the new one
        p.add_argument(old, dest=old[2:].replace("-", "_"), default=None, help=argparse.SUPPRESS)
    p.add_argument("--features", default="1,2,3,4", help="comma list of 1..4")
    p.add_argument("--impls", default=",".join(EDM_PEERS), help="comma list of " + ", ".join(EDM_PEERS))
    add_run_args(p, CSV, 20, 3, "N in {2048, 8192, 16384, 30720} (unless --N), reps 10 (unless --reps)")
    a = p.parse_args(argv)
    if a.N_from is not None or a.N_to is not None or a.N_step is not None:
        p.error("--N-from / --N-to / --N-step are now --N A:B:STEP")
    try:
        a.features = [int(x) for x in a.features.split(",") if x]
    except ValueError:
        p.error("--features must be a comma list of 1..4")
    if not a.features or any(d < 1 or d > 4 for d in a.features):
        p.error("--features must be a comma list of 1..4")
    a.impls = [x for x in a.impls.split(",") if x]
    if not a.impls or any(x not in EDM_PEERS for x in a.impls):
        p.error("--impls must be a comma list of " + ", ".join(EDM_PEERS))
    if a.quick and "--reps" not in " ".join(argv):
        a.reps = 10
    spec = a.N if a.N is not None else ("2048,8192,16384,30720" if a.quick else "1024:30720:1024")
    a.sizes = parse_sizes(p, spec, "--N", 2, (1 << 31) - 1)
    if a.reps < 1 or a.warmup < 0:
        p.error("--reps must be >= 1 and --warmup >= 0")
    return a


def main(argv):
    a = parse_args(argv)  # bad input: argparse prints one line and exits 2
    if a.print_header:
        print(HEADER)
        return 0
    cuda = open_cuda("torch_peers", a.out, CSV)
    if cuda is None:
        return 0
    torch, dev, name, slug, path = cuda
    meta = run_meta("torch_peers.py", argv, torch, name, slug,
                    cudnn=torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
                    reps=a.reps, warmup=a.warmup)

    # The points of bench_apps: feature k of point i, independent of N.
    nmax, dmax = max(a.sizes), max(a.features)
    host = torch.tensor([[u01(hash3(EDM_SEED, k, i)) for i in range(nmax)] for k in range(dmax)],
                        dtype=torch.float32)  # [k][i]

    def run(fn, x):
        return statistics.median(event_times(torch, lambda: fn(x), a.warmup, a.reps))

    impls = {  # each impl's call and bytes written; its layout is EDM_PEERS'
        EDM_PDIST: (lambda x: torch.nn.functional.pdist(x), lambda n: n * (n - 1) // 2 * 4),
        EDM_CDIST: (lambda x: torch.cdist(x, x), lambda n: n * n * 4),
        EDM_CDIST_DIRECT: (lambda x: torch.cdist(x, x, compute_mode="donot_use_mm_for_euclid_dist"),
                           lambda n: n * n * 4),
    }
    with PeerCsv("peers", path, meta, HEADER) as out, torch.inference_mode():
        for ni, n in enumerate(a.sizes):
            print(f"[peers] N={n} ({ni + 1}/{len(a.sizes)})", file=sys.stderr, flush=True)
            for d in a.features:
                x = host[:d, :n].t().contiguous().to(dev)  # (N, d)
                for impl in a.impls:
                    fn, nbytes = impls[impl]
                    layout = EDM_PEERS[impl]
                    try:
                        ms = run(fn, x)
                    except torch.cuda.OutOfMemoryError:
                        print(f"[peers] {impl} N={n} d={d}: out of GPU memory; skipped", file=sys.stderr)
                        torch.cuda.empty_cache()
                        continue
                    gbps = nbytes(n) / (ms * 1e6)
                    out.row(test="edm", layout=layout, features=d, N=n, impl=impl, median_ms=f"{ms:.6g}",
                            GBps=f"{gbps:.6g}")
                del x
                torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
