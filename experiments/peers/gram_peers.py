#!/usr/bin/env python3
"""experiments/peers/gram_peers.py -- PyTorch peers of the tensor-core pairwise distances (issue #27).

Times torch.cdist (the full N x N distance matrix; PyTorch's default compute mode, the
matrix-multiply formulation for inputs this large) with TF32 allowed and with it disallowed,
and torch.mm (the full N x N Gram matrix alone, TF32 allowed), on the points bench_gram times:
gram_cpu::points(N, d, seed) of src/support/gram/gram_cpu.hpp (splitmix64 from `seed`, one value
per feature in row-major order, each value (z >> 40) / 2^24, in [0, 1)), the same N and d sweep
(default N = 32768, 65536; d = 64, 128, 256; --seed 27, bench_gram's default). CUDA events
(torch.cuda.Event) around each call after warm-up; median and quartiles of --reps.

    python3 experiments/peers/gram_peers.py [--quick] [--N 32768,65536] [--d 64,128,256] [--out experiments/results/local]

Writes <out>/<gpu_slug>/peers_gram.csv (layout results::layout::peers_gram):
    # {metadata JSON: torch version, CUDA version, device, date, ...}
    N,d,precision,output,impl,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,GBps,bytes_written,err_vs_f64
impl torch.cdist (output full: distances, precision tf32 or fp32 as torch.backends.cuda.matmul.allow_tf32
was set) and torch.mm (output full-gram, tf32). GBps = bytes_written (N*N*4) / median. err_vs_f64: over
--samples pairs (i, j), max |d_torch^2 - d2_exact| / (|x_i| + |x_j|)^2 against float64, the measure and
scale of bench_gram's column of the same name (nan for torch.mm).

Exits 0 with a message when PyTorch or a CUDA GPU is absent (optional peers).
"""
import argparse
import os
import sys

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_common import PeerCsv, add_run_args, event_times, open_cuda, parse_sizes, run_meta  # noqa: E402
# experiments/layouts.py, generated from the C++ layouts and names (check_layouts --python); peer_common puts experiments/ on the path
from layouts import GRAM_PEERS, GRAM_TORCH_CDIST, GRAM_TORCH_MM, HEADERS, PREC_TF32  # noqa: E402


def points(np, n, d, seed):
    """gram_cpu::points(N, d, seed): value k of the row-major N x d array from the k-th step of splitmix64."""
    k = np.arange(1, n * d + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + k * np.uint64(GOLDEN)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return ((z >> np.uint64(40)).astype(np.float64) / float(1 << 24)).astype(np.float32).reshape(n, d)


# results::layout::peers_gram (src/support/results/layouts.hpp); the test peer_headers holds the two equal
CSV = "peers_gram.csv"
HEADER = HEADERS[CSV]  # results::layout::peers_gram (src/support/results/layouts.hpp)


def parse_args(argv):
    p = argparse.ArgumentParser(description=f"PyTorch peers ({GRAM_TORCH_CDIST}, {GRAM_TORCH_MM}) of bench_gram")
    p.add_argument("--print-header", action="store_true", help="print the CSV's header and stop")
    p.add_argument("-N", "--N", dest="N", default=None, help="point counts: comma list and/or ranges A:B:STEP (default 32768,65536; --quick: 16384)")
    p.add_argument("--d", default=None, help="features (default 64,128,256; --quick: 128)")
    words = ", ".join(GRAM_PEERS)  # the rows' words (python_names.hpp gram_peers)
    p.add_argument("--impls", default=",".join(GRAM_PEERS), help="comma list of " + words)
    p.add_argument("--seed", type=int, default=27, help="bench_gram's --seed (default 27)")
    p.add_argument("--samples", type=int, default=1024, help="pairs checked against float64 (default 1024)")
    add_run_args(p, CSV, 10, 2, "N = 16384, d = 128 (unless given), reps 5 (unless --reps)")
    a = p.parse_args(argv)
    a.N = parse_sizes(p, a.N or ("16384" if a.quick else "32768,65536"), "--N", 2, 131072)
    a.d = parse_sizes(p, a.d or ("128" if a.quick else "64,128,256"), "--d", 1, 4096)
    a.impls = [x for x in a.impls.split(",") if x]
    if not a.impls or any(x not in GRAM_PEERS for x in a.impls):
        p.error("--impls must be a comma list of " + words)
    if a.quick and "--reps" not in " ".join(argv):
        a.reps = 5
    if a.reps < 1 or a.warmup < 0 or a.samples < 1:
        p.error("--reps and --samples must be >= 1, --warmup >= 0")
    return a


def main(argv):
    a = parse_args(argv)  # bad input: argparse prints one line and exits 2
    if a.print_header:
        print(HEADER)
        return 0
    try:
        import numpy as np
    except ImportError:
        print("gram_peers: NumPy is not installed; peers skipped")
        return 0
    cuda = open_cuda("gram_peers", a.out, CSV)
    if cuda is None:
        return 0
    torch, dev, name, slug, path = cuda
    meta = run_meta("gram_peers.py", argv, torch, name, slug, numpy=np.__version__, reps=a.reps, warmup=a.warmup,
                    seed=a.seed, points="gram_cpu::points(N, d, seed) (src/support/gram/gram_cpu.hpp)")

    def timed(fn):
        times = event_times(torch, fn, a.warmup, a.reps)
        t = np.array(times)
        return [float(np.median(t)), float(np.percentile(t, 25)), float(np.percentile(t, 75)), float(t.min()), float(t.max())]

    def set_tf32(on):
        torch.backends.cuda.matmul.allow_tf32 = on
        torch.backends.cudnn.allow_tf32 = on

    calls = {  # impl -> (call, whether it returns distances: checked against float64)
        GRAM_TORCH_CDIST: (lambda x: torch.cdist(x, x), True),
        GRAM_TORCH_MM: (lambda x: torch.mm(x, x.t()), False),
    }
    allow0 = torch.backends.cuda.matmul.allow_tf32
    with PeerCsv("gram_peers", path, meta, HEADER) as out, torch.inference_mode():
        for n in a.N:
            for d in a.d:
                print(f"[gram_peers] N={n} d={d}", file=sys.stderr, flush=True)
                X = points(np, n, d, a.seed)
                x = torch.from_numpy(X).to(dev)
                rng = np.random.default_rng(a.seed + n * 131 + d)
                si = rng.integers(0, n, a.samples)
                sj = rng.integers(0, n, a.samples)
                Xd = X.astype(np.float64)
                diff = Xd[si] - Xd[sj]
                exact = (diff * diff).sum(axis=1)
                S = (np.sqrt((Xd[si] ** 2).sum(axis=1)) + np.sqrt((Xd[sj] ** 2).sum(axis=1))) ** 2
                ti, tj = torch.from_numpy(si).to(dev), torch.from_numpy(sj).to(dev)
                for key in a.impls:
                    impl, prec, output = GRAM_PEERS[key]
                    call, distances = calls[impl]
                    set_tf32(prec == PREC_TF32)  # TF32 allowed for the tf32 rows alone
                    try:
                        st = timed(lambda: call(x))
                        err = float("nan")
                        if distances:
                            y = call(x)
                            got = y[ti, tj].double().cpu().numpy()
                            err = float(np.max(np.abs(got * got - exact) / S))
                            del y
                    except torch.cuda.OutOfMemoryError:
                        print(f"[gram_peers] {impl} {prec} N={n} d={d}: out of GPU memory; skipped", file=sys.stderr)
                        torch.cuda.empty_cache()
                        continue
                    finally:
                        set_tf32(allow0)
                    nbytes = n * n * 4
                    out.row(N=n, d=d, precision=prec, output=output, impl=impl, reps=a.reps, median_ms=f"{st[0]:.6g}",
                            p25_ms=f"{st[1]:.6g}", p75_ms=f"{st[2]:.6g}", min_ms=f"{st[3]:.6g}", max_ms=f"{st[4]:.6g}",
                            GBps=f"{nbytes / (st[0] * 1e6):.6g}", bytes_written=nbytes, err_vs_f64=f"{err:.3g}")
                    torch.cuda.empty_cache()
                del x
                torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
