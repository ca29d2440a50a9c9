#!/usr/bin/env python3
"""experiments/peers/python_peers.py -- the Python package tdmaps against its peers (issue #38 items 5, 6).

In one process, on the same CUDA float32 arrays (bench_gram's points: gram_cpu::points(N, d, seed), as
gram_peers.py makes them; default N = 1024, 8192, 32768, d = 128, --seed 27), times
  tdmaps.pdist(x, out=o, precision=P)       for o in condensed, lower, square (the Python call)
  tdmaps._enqueue_cpp(x, o, P, False)()    the same GPU work queued by one C++ call (impl tdmaps._core.Enqueue:
                                            prepare into a workspace, the kernel, lower's zeroed upper part, the
                                            NaN pass; workspace and output allocated once), timed between the
                                            same CUDA events, recorded from Python, as tdmaps.pdist: the
                                            difference is the binding's host time (NaN rows with a note where
                                            the package lacks it)
  torch.pdist(x)                            condensed, FP32 (no matrix product)
  torch.cdist(x, x)                         N x N, TF32 allowed and not (rows tf32, fp32)
  cupyx.scipy.spatial.distance.pdist        condensed, where CuPy (and its pylibraft) runs; a note otherwise
  scipy.spatial.distance.pdist              condensed, float64 on the CPU, at the N where one call is
                                            predicted under --scipy-max-s (a note row otherwise)
Each output is checked against float64 distances (torch.cdist of the float64 points, the difference
formula) before it is timed: every row at N <= --verify-all-max, else --verify-rows rows drawn at random;
verified = 1 when every checked |d^2 - d2_exact| <= c_P S + 2^-21 d2_exact (c_P, S: the bound of
src/support/gram/gram_cpu.hpp; c_P of the row's precision from experiments/layouts.py GRAM_BOUND, SciPy's
float64 held to FP32's), 0 when not, -1 when not checked (a call that did not run; the C++ rows,
whose kernel the tdmaps.pdist rows check). GPU calls: CUDA events around each call after warm-up, the
stream idle before each (so a call's host time counts); SciPy: the wall clock.

    python3 experiments/peers/python_peers.py [--quick] [--N 1024,8192,32768] [--d 128] [--out experiments/results/local]

Writes <out>/<gpu_slug>/peers_python.csv (layout results::layout::peers_python; --print-header prints it):
    # {metadata JSON: versions of torch, tdmaps, NumPy, SciPy, CuPy; device; date; pip_install_s where --pip-install}
    N,d,impl,output,precision,device,kernel,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,bytes_written,verified,err_vs_f64,note
err_vs_f64: max |d^2 - d2_exact| / (|x_i| + |x_j|)^2 over the pairs checked (as bench_gram's column).

Exits 0 with one line and no CSV when NumPy, PyTorch, a CUDA GPU or the tdmaps package is absent;
bad input: one line, exit 2.
"""
import argparse
import math
import os
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_common import PeerCsv, add_run_args, event_times, open_cuda, parse_sizes, run_meta  # noqa: E402
# experiments/layouts.py, generated from the C++ layouts and names; peer_common puts experiments/ on the path
from layouts import HEADERS, PREC_TF32, PYTHON_CPP_IMPL, PYTHON_OUTPUTS, PYTHON_PDIST, PYTHON_PEERS  # noqa: E402
from layouts import GRAM_BOUND, GRAM_PRECISIONS, PREC_FP32  # noqa: E402  (c_P of the error bound: gram_bound.hpp)

PROGRAM = "python_peers"
CSV = "peers_python.csv"
HEADER = HEADERS[CSV]  # results::layout::peers_python (src/support/results/layouts.hpp)
# the rows' names, declared once in src/support/results/python_names.hpp: tdmaps.pdist's impl, the C++ rows' impl,
# tdmaps.pdist's outputs, and each --peers word's rows (impl, output, precision, device)
CPP_IMPL = PYTHON_CPP_IMPL
OUTPUTS = PYTHON_OUTPUTS
PEERS = tuple(PYTHON_PEERS)


def bound_coef(prec, d):
    """c_P of |d2 - d2_exact| <= c_P S for d features (GRAM_BOUND: src/support/results/gram_bound.hpp's, exported)."""
    a, b = GRAM_BOUND[prec]
    return a + b * d


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):  # bad input: one line, exit 2
        self.exit(2, "%s: %s\n" % (PROGRAM, message))


def parse_args(argv):
    p = OneLineParser(description="tdmaps.pdist (the Python package) against torch, CuPy and SciPy, and its "
                                  "call against the same kernel called from C++")
    p.add_argument("-N", "--N", dest="N", default=None,
                   help="point counts: comma list and/or ranges A:B:STEP (default 1024,8192,32768; --quick: 1024,32768)")
    p.add_argument("--d", default=None, help="features (default 128)")
    p.add_argument("--outputs", default=",".join(OUTPUTS), help="tdmaps.pdist's out: comma list of " + ", ".join(OUTPUTS))
    p.add_argument("--precision", default=PREC_TF32, choices=GRAM_PRECISIONS,
                   help="tdmaps.pdist's precision (default %s)" % PREC_TF32)
    p.add_argument("--peers", default=",".join(PEERS), help="comma list of " + ", ".join(PEERS))
    p.add_argument("--seed", type=int, default=27, help="bench_gram's --seed (default 27)")
    p.add_argument("--verify-all-max", type=int, default=4096, help="every row checked up to this N (default 4096)")
    p.add_argument("--verify-rows", type=int, default=256, help="rows checked past it (default 256)")
    p.add_argument("--scipy-max-s", type=float, default=10.0,
                   help="SciPy only where one call is predicted under this many seconds (default 10)")
    p.add_argument("--scipy-reps", type=int, default=3, help="timed SciPy calls (default 3)")
    p.add_argument("--pip-install", metavar="[PIP_ARGS] DIR", default=None,
                   help="first run and time `python3 -m pip install [PIP_ARGS] DIR` (recorded as pip_install_s in the "
                        "metadata), e.g. '--no-build-isolation --no-index .' on a machine without network")
    p.add_argument("--overhead-reps", type=int, default=200,
                   help="timed calls of the tdmaps rows (Python and C++) at N <= 8192, where the binding's overhead of "
                        "tens of microseconds is read (default 200; --reps elsewhere)")
    p.add_argument("--warmup-s", type=float, default=1.0,
                   help="seconds of untimed tdmaps.pdist calls before each size's first timed row and before each tdmaps "
                        "row (Python and C++): the GPU's clocks and the host's caches warm (default 1)")
    p.add_argument("--print-header", action="store_true", help="print the CSV's header and stop")
    add_run_args(p, CSV, 30, 5, "N = 1024, 32768 (unless --N: the two sizes of the overhead checks), reps 10 (unless --reps)")
    a = p.parse_args(argv)
    a.N = parse_sizes(p, a.N or ("1024,32768" if a.quick else "1024,8192,32768"), "--N", 2, 131072)
    a.d = parse_sizes(p, a.d or "128", "--d", 1, 4096)
    a.outputs = [x for x in a.outputs.split(",") if x]
    if not a.outputs or any(x not in OUTPUTS for x in a.outputs):
        p.error("--outputs must be a comma list of " + ", ".join(OUTPUTS))
    a.peers = [x for x in a.peers.split(",") if x]
    if any(x not in PEERS for x in a.peers):
        p.error("--peers must be a comma list of " + ", ".join(PEERS))
    if a.quick and "--reps" not in " ".join(argv):
        a.reps = 10
    if a.quick:
        a.overhead_reps = min(a.overhead_reps, 50)
    if a.overhead_reps < 1 or a.warmup_s < 0:
        p.error("--overhead-reps >= 1 and --warmup-s >= 0")
    if a.reps < 1 or a.warmup < 0 or a.scipy_reps < 1 or a.verify_rows < 1 or a.verify_all_max < 0:
        p.error("--reps, --scipy-reps and --verify-rows must be >= 1, --warmup and --verify-all-max >= 0")
    if not a.scipy_max_s > 0:
        p.error("--scipy-max-s must be > 0")
    if a.pip_install is not None and not (shlex.split(a.pip_install) and os.path.isdir(shlex.split(a.pip_install)[-1])):
        p.error("--pip-install: '%s' does not end with a folder" % a.pip_install)
    return a


def stats(np, times):
    """[median, p25, p75, min, max] in ms; NaN x 5 for no times."""
    if not times:
        return [float("nan")] * 5
    t = np.array(times, dtype=np.float64)
    return [float(np.median(t)), float(np.percentile(t, 25)), float(np.percentile(t, 75)), float(t.min()), float(t.max())]


class Checker:
    """float64 distances of rows R of the points to every point, and the check of an output against them."""

    def __init__(self, torch, x, a, n, d, full):
        self.torch, self.n, self.d = torch, n, d
        self.full = full  # full(output): the output holds every cell of N x N (tdmaps._pdist_full)
        x64 = x.double()
        if n <= a.verify_all_max:
            rows = torch.arange(n, device=x.device)
        else:
            g = torch.Generator().manual_seed(a.seed + n * 131 + d)
            rows = torch.unique(torch.cat([torch.tensor([0, n - 1]), torch.randint(0, n, (a.verify_rows,), generator=g)]))
            rows = rows.to(x.device)
        self.rows = rows
        exact = torch.cdist(x64[rows], x64, compute_mode="donot_use_mm_for_euclid_dist")
        self.d2 = exact * exact  # |R| x N
        nrm = x64.norm(dim=1)
        self.S = (nrm[rows][:, None] + nrm[None, :]) ** 2
        self.cols = torch.arange(n, device=x.device)

    def index(self, y, output):
        """(flat output, flat index of pair (r, j) for r in rows, j all, mask of the pairs it holds)."""
        torch, n = self.torch, self.n
        r = self.rows[:, None].expand(-1, n)
        j = self.cols[None, :].expand(len(self.rows), -1)
        hi, lo = torch.maximum(r, j), torch.minimum(r, j)
        flat = y.reshape(-1)
        if y.dim() == 2 and tuple(y.shape) == (n, n):  # square: every (r, j) as it is; lower: (r, j) read at j <= i
            return flat, (r * n + j) if self.full(output) else (hi * n + lo), torch.ones_like(r, dtype=torch.bool)
        if flat.numel() == n * (n - 1) // 2:  # condensed (pdist order, a < b), no diagonal
            idx = n * lo - lo * (lo + 1) // 2 + (hi - lo - 1)
            return flat, idx.clamp(min=0), r != j
        if flat.numel() == n * (n + 1) // 2:  # a packed lower triangle, row-major, diagonal included
            return flat, hi * (hi + 1) // 2 + lo, torch.ones_like(r, dtype=torch.bool)
        raise ValueError("output of shape %s is none of condensed, lower, square for N = %d" % (tuple(y.shape), n))

    def check(self, y, output, prec, squared=False):
        """(verified 1/0, err_vs_f64) of output y (a torch tensor, any device) against the float64 distances."""
        torch = self.torch
        y = y.to(self.rows.device)
        flat, idx, held = self.index(y, output)
        got = flat[idx].double()
        got2 = got if squared else got * got
        dev = (got2 - self.d2).abs()
        coef = bound_coef(prec, self.d)
        ok = (dev <= coef * self.S + 2.0 ** -21 * self.d2) | ~held
        finite = torch.isfinite(got) | ~held
        err = float((dev / self.S)[held].max()) if bool(held.any()) else float("nan")
        return (1 if bool(ok.all()) and bool(finite.all()) else 0), err


def main(argv):
    a = parse_args(argv)
    if a.print_header:
        print(HEADER)
        return 0
    try:
        import numpy as np
    except ImportError:
        print("%s: NumPy is not installed; peers skipped" % PROGRAM)
        return 0
    pip_s = None
    if a.pip_install is not None:  # the install, timed by this program (before tdmaps is imported)
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet"] + shlex.split(a.pip_install))
        pip_s = time.perf_counter() - t0
        if r.returncode != 0:
            print("%s: pip install %s failed (exit %d)" % (PROGRAM, a.pip_install, r.returncode), file=sys.stderr)
            return 1
        print("[%s] pip install %s: %.1f s" % (PROGRAM, a.pip_install, pip_s), file=sys.stderr)
    try:
        import tdmaps
    except Exception as e:  # not installed, or its extension does not load here
        print("%s: the tdmaps package is not importable (%s: %s; pip install .); peers skipped"
              % (PROGRAM, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
        return 0
    cuda = open_cuda(PROGRAM, a.out, CSV)
    if cuda is None:
        return 0
    torch, dev, name, slug, path = cuda
    from gram_peers import points

    core = getattr(tdmaps, "_core", None)
    kernel_for = getattr(tdmaps, "kernel_for", None)
    enqueue_cpp = getattr(tdmaps, "_enqueue_cpp", None)
    if enqueue_cpp is None:
        print("[%s] tdmaps._enqueue_cpp is absent: the C++ rows are NaN" % PROGRAM, file=sys.stderr)
    versions = {"tdmaps": getattr(tdmaps, "__version__", "?"), "numpy": np.__version__}
    try:
        import scipy
        import scipy.spatial.distance as scipy_distance
        versions["scipy"] = scipy.__version__
    except ImportError:
        scipy_distance = None
    try:
        import cupy
        versions["cupy"] = cupy.__version__
    except Exception:
        cupy = None
    meta = run_meta(PROGRAM + ".py", argv, torch, name, slug, reps=a.reps, overhead_reps=a.overhead_reps,
                    warmup=a.warmup, warmup_s=a.warmup_s, seed=a.seed,
                    precision=a.precision, enqueue_cpp="yes" if enqueue_cpp else "absent", cpu_count=os.cpu_count(),
                    points="gram_cpu::points(N, d, seed) (src/support/gram/gram_cpu.hpp)", **versions)
    if pip_s is not None:
        meta["pip_install_s"] = round(pip_s, 1)
        meta["pip_install"] = "python3 -m pip install " + a.pip_install

    def kernel_name(o):
        try:
            return str(kernel_for(tdmaps._pdist_kind(o), a.precision, n)) if kernel_for else "?"
        except Exception as e:
            return "? (%s)" % type(e).__name__

    def set_tf32(on):
        torch.backends.cuda.matmul.allow_tf32 = on
        torch.backends.cudnn.allow_tf32 = on

    allow0 = torch.backends.cuda.matmul.allow_tf32
    nan = float("nan")
    scipy_last = None  # (N, d, seconds of one call): the prediction of the next size's

    with PeerCsv(PROGRAM, path, meta, HEADER) as out, torch.inference_mode():

        def row(n, d, impl, output, prec, device, kernel, reps, st, nbytes, verified, err, note=""):
            note = note.replace(",", ";").replace("\n", " ")
            kernel = str(kernel).replace(",", ";")
            out.row(N=n, d=d, impl=impl, output=output, precision=prec, device=device, kernel=kernel, reps=reps,
                    median_ms=f"{st[0]:.6g}", p25_ms=f"{st[1]:.6g}", p75_ms=f"{st[2]:.6g}", min_ms=f"{st[3]:.6g}",
                    max_ms=f"{st[4]:.6g}", bytes_written=nbytes, verified=verified, err_vs_f64=f"{err:.3g}", note=note)

        def reps_of(n, impl):
            return max(a.reps, a.overhead_reps) if impl in (PYTHON_PDIST, CPP_IMPL) and n <= 8192 else a.reps

        def warm(call):
            """Untimed calls for --warmup-s seconds, right before a tdmaps row is timed: the check before it runs on
            the CPU for a while, and a GPU left idle drops its clocks, which a short call at N = 1024 would pay
            for (the same warm-up precedes the C++ row of the same GPU work)."""
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < a.warmup_s:
                call()
                torch.cuda.synchronize()

        def gpu_row(n, d, chk, impl, output, prec, kernel, call, nbytes, check_prec=None):
            """Check one call's output, then time it (CUDA events); OOM and other failures become a note row."""
            print(f"[{PROGRAM}] N={n} d={d} {impl} {output} {prec}", file=sys.stderr, flush=True)
            try:
                y = call()
                torch.cuda.synchronize()
                ver, err = chk.check(y if isinstance(y, torch.Tensor) else torch.from_dlpack(y), output, check_prec or prec)
                del y
                reps = reps_of(n, impl)
                if impl in (PYTHON_PDIST, CPP_IMPL):
                    warm(call)
                st = stats(np, event_times(torch, call, a.warmup, reps))
                row(n, d, impl, output, prec, "gpu", kernel, reps, st, nbytes, ver, err)
            except torch.cuda.OutOfMemoryError:
                torch.cuda.empty_cache()
                print(f"[{PROGRAM}] {impl} N={n}: out of GPU memory; skipped", file=sys.stderr)
                row(n, d, impl, output, prec, "gpu", kernel, 0, [nan] * 5, nbytes, -1, nan, "out of GPU memory")
            except Exception as e:  # a call that fails is a row with its reason, and the run goes on
                why = "failed: %s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
                print(f"[{PROGRAM}] {impl} {output} N={n}: {why}", file=sys.stderr)
                row(n, d, impl, output, prec, "gpu", kernel, 0, [nan] * 5, nbytes, -1, nan, why)
            torch.cuda.empty_cache()

        for n in a.N:
            for d in a.d:
                x = torch.from_numpy(points(np, n, d, a.seed)).to(dev)
                chk = Checker(torch, x, a, n, d, tdmaps._pdist_full)
                # float32 bytes of each output (the peers' rows are of pdist's outputs too): the package's shapes
                nbytes = {o: 4 * math.prod(tdmaps._pdist_shape(n, o)) for o in tdmaps._PDIST_KINDS}
                # untimed calls first, at this size (the GPU idles through SciPy's CPU rows of the size before: its
                # clocks drop, and the first timed rows would pay for their rise)
                t0 = time.perf_counter()
                while time.perf_counter() - t0 < a.warmup_s:
                    tdmaps.pdist(x, precision=a.precision)
                    torch.cuda.synchronize()
                # per output: tdmaps from Python, then the same GPU work from C++, back to back
                for o in a.outputs:
                    k = kernel_name(o)
                    gpu_row(n, d, chk, PYTHON_PDIST, o, a.precision, k,
                            lambda o=o: tdmaps.pdist(x, out=o, precision=a.precision), nbytes[o])
                    if enqueue_cpp is None:
                        row(n, d, CPP_IMPL, o, a.precision, "gpu", k, 0, [nan] * 5, nbytes[o], -1, nan,
                            "tdmaps._enqueue_cpp absent in this build")
                        continue
                    print(f"[{PROGRAM}] N={n} d={d} {CPP_IMPL} {o}", file=sys.stderr, flush=True)
                    try:
                        q = enqueue_cpp(x, o, a.precision, False)
                        warm(q)
                        t = event_times(torch, q, a.warmup, reps_of(n, CPP_IMPL))
                        del q
                        row(n, d, CPP_IMPL, o, a.precision, "gpu", k, len(t), stats(np, t), nbytes[o], -1,
                            nan, "the same GPU work queued by one C++ call (prepare; kernel; zero_upper for lower; NaN pass), workspace and output allocated once; the same CUDA events as tdmaps.pdist (checked as tdmaps.pdist)")
                    except Exception as e:
                        print(f"[{PROGRAM}] {CPP_IMPL} {o}: {type(e).__name__}: {e}", file=sys.stderr)
                        row(n, d, CPP_IMPL, o, a.precision, "gpu", k, 0, [nan] * 5, nbytes[o], -1, nan,
                            "enqueue_cpp failed: " + type(e).__name__)
                    torch.cuda.empty_cache()
                # the peers on the same array
                if "torch.pdist" in a.peers:
                    for impl, o, prec, _ in PYTHON_PEERS["torch.pdist"]:
                        gpu_row(n, d, chk, impl, o, prec, "-", lambda: torch.pdist(x), nbytes[o])
                if "torch.cdist" in a.peers:
                    for impl, o, prec, _ in PYTHON_PEERS["torch.cdist"]:  # TF32 allowed for the tf32 row alone
                        set_tf32(prec == PREC_TF32)
                        try:
                            gpu_row(n, d, chk, impl, o, prec, "-", lambda: torch.cdist(x, x), nbytes[o])
                        finally:
                            set_tf32(allow0)
                if "cupy" in a.peers:
                    (impl, o, prec, device), = PYTHON_PEERS["cupy"]
                    why = None
                    if cupy is None:
                        why = "CuPy is not installed"
                    else:
                        try:
                            from cupyx.scipy.spatial.distance import pdist as cupy_pdist
                            xc = cupy.from_dlpack(x)
                            y = cupy_pdist(xc, "euclidean")
                            del y
                        except Exception as e:  # ImportError, NotImplementedError, RuntimeError (no pylibraft)
                            why = "does not run here: %s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
                    if why:
                        print(f"[{PROGRAM}] {impl}: {why}", file=sys.stderr)
                        row(n, d, impl, o, prec, device, "-", 0, [nan] * 5, nbytes[o], -1, nan, why)
                    else:
                        gpu_row(n, d, chk, impl, o, prec, "-",
                                lambda: torch.from_dlpack(cupy_pdist(xc, "euclidean")), nbytes[o])
                        del xc
                        cupy.get_default_memory_pool().free_all_blocks()
                if "scipy" in a.peers:
                    (impl, o, prec, device), = PYTHON_PEERS["scipy"]  # float64: twice the bytes of float32
                    why = None
                    if scipy_distance is None:
                        why = "SciPy is not installed"
                    if not why and scipy_last is None and n > 1024:  # the first size: predicted from a probe at N = 1024
                        t0 = time.perf_counter()
                        scipy_distance.pdist(x[:1024].cpu().numpy(), "euclidean")
                        scipy_last = (1024, d, time.perf_counter() - t0)
                    if not why and scipy_last is not None:
                        n0, d0, s0 = scipy_last
                        pred = s0 * (n * (n - 1)) / (n0 * (n0 - 1)) * d / d0
                        if pred > a.scipy_max_s:
                            why = "skipped: one call predicted %.0f s > --scipy-max-s %g (%.2f s at N = %d)" % (
                                pred, a.scipy_max_s, s0, n0)
                    if why:
                        print(f"[{PROGRAM}] {impl} N={n}: {why}", file=sys.stderr)
                        row(n, d, impl, o, prec, device, "-", 0, [nan] * 5, nbytes[o] * 2, -1, nan, why)
                    else:
                        print(f"[{PROGRAM}] N={n} d={d} {impl} (CPU)", file=sys.stderr, flush=True)
                        X = x.cpu().numpy()
                        t0 = time.perf_counter()
                        y = scipy_distance.pdist(X, "euclidean")  # float64; the first call, checked
                        first = time.perf_counter() - t0
                        ver, err = chk.check(torch.from_numpy(y), o, PREC_FP32)  # float64: held to FP32's bound (u = 0)
                        del y
                        times = []
                        for _ in range(a.scipy_reps if first * a.scipy_reps <= 3 * a.scipy_max_s else 1):
                            t0 = time.perf_counter()
                            y = scipy_distance.pdist(X, "euclidean")
                            times.append((time.perf_counter() - t0) * 1e3)
                            del y
                        scipy_last = (n, d, min(times) / 1e3)
                        row(n, d, impl, o, prec, device, "-", len(times), stats(np, times), nbytes[o] * 2, ver, err,
                            "CPU wall clock; float64; one thread")
                del x, chk
                torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
