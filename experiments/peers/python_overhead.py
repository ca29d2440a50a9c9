#!/usr/bin/env python3
"""experiments/peers/python_overhead.py -- where the host time of one tdmaps.pdist call goes (issue #38's
overhead target: at most 20 us over the same kernel called from C++ at N = 1024).

On one CUDA float32 array (N x d, default 1024 x 128), the median, 25th and 75th percentile host
microseconds (time.perf_counter_ns, --reps calls after --warmup, the GPU idle before each) of each
step that tdmaps.pdist takes on a torch.Tensor (PyTorch's fast path: one C++ call, _core.torch_pdist
in python/tdmaps/_core.cpp, that reads and checks the tensor, queues prepare, allocates the output by
x.new_empty and queues the kernels), of the general path's steps (Points and the Python layer:
CuPy, JAX, a tensor the fast path declines; python/tdmaps/__init__.py, _arrays.py), of the whole
call's host time on either path, of torch.cdist's host time for scale, and the CUDA-event
milliseconds of the call (either path) and of tdmaps._time_cpp's (the same GPU work from C++).
Prints a table to stdout (a log, not a results CSV: the overhead's numbers of record are
peers_python.csv's rows).

    python3 experiments/peers/python_overhead.py [--N 1024] [--d 128] [--out condensed] [--reps 2000]
"""
import argparse
import os
import statistics
import sys
import time

# experiments/layouts.py (generated from the C++ names, check_layouts --python): gram.csv's name of TF32, the
# precision of tdmaps.pdist's default call, which the C++ steps below repeat
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from layouts import PREC_TF32, PYTHON_OUTPUTS  # noqa: E402
from peer_common import event_times  # noqa: E402  (this folder: the peers' CUDA-event timing)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--N", type=int, default=1024)
    p.add_argument("--d", type=int, default=128)
    p.add_argument("--out", default=None, choices=PYTHON_OUTPUTS,
                   help="tdmaps.pdist's out= (the words of the layouts the C++ exports; default: the package's)")
    p.add_argument("--reps", type=int, default=2000)
    p.add_argument("--warmup", type=int, default=200)
    a = p.parse_args(argv)
    if a.N < 2 or a.d < 1 or a.reps < 10:
        print("python_overhead: N >= 2, d >= 1, reps >= 10", file=sys.stderr)
        return 2
    try:
        import torch
        import tdmaps
        from tdmaps import _arrays, _core
    except ImportError as e:
        print(f"python_overhead: {e}; nothing measured", file=sys.stderr)
        return 0
    if a.out is None:
        a.out = tdmaps._DEFAULT_OUT
    try:
        kind = tdmaps._pdist_kind(a.out)  # the kernels' output of pdist's out (square: mirror)
    except ValueError as e:
        p.error(f"--out: {e}")
    if not torch.cuda.is_available() or not tdmaps.build_info()["kernels"]:
        print("python_overhead: no GPU or no GPU kernels in this build; nothing measured", file=sys.stderr)
        return 0
    torch.manual_seed(1)
    x = torch.rand((a.N, a.d), device="cuda")
    pts = _arrays.Points(x)  # require_device: remembered, the fast path's condition
    b, dev = pts.backend, pts.dev
    shape = tdmaps._pdist_shape(a.N, a.out)
    nws = _core.operand_bytes(PREC_TF32, a.N, a.d)
    dst = b.empty(shape, "float32", dev)
    fixed = (dst, b.ptr(dst))  # the output, allocated once
    if _core.torch_view(x) is None:
        print("python_overhead: the PyTorch fast path declines x (tdmaps._torch_pdist); its steps measure nothing",
              file=sys.stderr)

    def distances_into_fixed():
        return _core.distances(pts.ptr, a.N, a.d, PREC_TF32, kind, True, False, lambda: fixed, 0, pts.stream, dev)

    def general_pdist():  # the general path (Points), as CuPy's and JAX's arrays take it
        fast = tdmaps._torch_pdist
        tdmaps._torch_pdist = _arrays._no_fast_path
        try:
            return tdmaps.pdist(x, out=a.out)
        finally:
            tdmaps._torch_pdist = fast

    def host_us(fn):
        for _ in range(a.warmup):
            fn()
        torch.cuda.synchronize()
        t = []
        for _ in range(a.reps):
            t0 = time.perf_counter_ns()
            fn()
            t.append((time.perf_counter_ns() - t0) / 1e3)
            torch.cuda.synchronize()
        q = statistics.quantiles(t, n=4)
        return q[1], q[0], q[2]

    steps = [
        ("tdmaps.pdist(x, out) (the whole call: PyTorch's fast path, _core.torch_pdist)",
         lambda: tdmaps.pdist(x, out=a.out)),
        ("  _core.torch_view(x) (its reads and checks: dtype, device, shape, contiguity, pointer, raw stream)",
         lambda: _core.torch_view(x)),
        ("  x.new_empty(output) (its allocation, from C++ once prepare is queued)", lambda: x.new_empty(*shape)),
        ("  _core.distances, the output given (the launches: prepare, kernel, NaN pass)", distances_into_fixed),
        ("tdmaps.pdist(x, out) on the general path (Points: CuPy, JAX, declined tensors)", general_pdist),
        ("  Points(x): the checks (_torch_view, device, backend, stream)", lambda: _arrays.Points(x)),
        ("    _arrays._torch_view(x) (the tensor's attributes from Python)", lambda: _arrays._torch_view(x)),
        ("    _core.describe(x) (nanobind ndarray from DLPack: CuPy, JAX)", lambda: _core.describe(x)),
        ("    _core.require_device(dev)", lambda: _core.require_device(dev)),
        ("    backend.stream(dev) (PyTorch's raw stream)", lambda: b.stream(dev)),
        ("  _core.require_tiles(N)", lambda: _core.require_tiles(a.N)),
        ("  _core.operand_bytes", lambda: _core.operand_bytes(PREC_TF32, a.N, a.d)),
        ("  _core.free_bytes(dev) (cudaMemGetInfo; past _arrays.CHECKED_BYTES only)", lambda: _core.free_bytes(dev)),
        ("  backend.cached_free (torch.cuda.memory_stats; only when free is short)", lambda: b.cached_free(dev)),
        ("  backend.empty(output) (torch.empty, from the alloc callback)", lambda: b.empty(shape, "float32", dev)),
        ("  backend.empty(workspace) (past the cached workspace only)", lambda: b.empty((nws,), "uint8", dev)),
        ("torch.cdist(x, x) (for scale)", lambda: torch.cdist(x, x)),
    ]
    print(f"# python_overhead: N = {a.N}, d = {a.d}, out = {a.out}, reps = {a.reps}; torch {torch.__version__}, "
          f"tdmaps {tdmaps.__version__}, {torch.cuda.get_device_name(dev)}")
    print(f"{'host step':<100} {'median_us':>9} {'p25_us':>8} {'p75_us':>8}")
    for name, fn in steps:
        m, lo, hi = host_us(fn)
        print(f"{name:<100} {m:9.1f} {lo:8.1f} {hi:8.1f}")

    def event_ms(fn):  # the median of peer_common.event_times: --warmup untimed calls, then at most 500 timed (ms)
        return statistics.median(event_times(torch, fn, a.warmup, min(a.reps, 500)))

    py = event_ms(lambda: tdmaps.pdist(x, out=a.out))
    gen = event_ms(general_pdist)
    same = event_ms(distances_into_fixed)
    cpp = statistics.median(tdmaps._time_cpp(x, a.out, PREC_TF32, False, min(a.reps, 500), a.warmup))
    print(f"CUDA events, median ms: tdmaps.pdist {py:.4f} (the general path {gen:.4f}); _core.distances into the same "
          f"output and workspace each call {same:.4f}; the same GPU work from C++ (_time_cpp) {cpp:.4f}; "
          f"pdist - C++ {1e3 * (py - cpp):.1f} us (the general path {1e3 * (gen - cpp):.1f} us)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
