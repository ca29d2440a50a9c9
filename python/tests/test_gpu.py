"""Every function and precision on a GPU against float64 on the host (NumPy, SciPy): the error bound
of each precision (gram_cpu.hpp), SciPy's condensed order, partial tiles (N not a multiple of 128),
exact mode equal to float64, the refusals that need a GPU, Ctrl-C. Suite gpu (run_gpu.py)."""
import math
import os
import signal
import threading
import time

import numpy as np
import pytest

import tdmaps

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")
if not torch.cuda.is_available() or not tdmaps.build_info()["kernels"]:
    pytest.skip("no GPU, or a build without the GPU kernels", allow_module_level=True)
scipy_distance = pytest.importorskip("scipy.spatial.distance")

PRECS = list(tdmaps.PRECISIONS)
SIZES = [(2, 3), (130, 5), (257, 17), (600, 64)]  # partial tiles: none is a multiple of 128
EXACT = tdmaps.build_info()["exact"]


def points(N, d, seed=1, offset=0.0):
    rng = np.random.default_rng(seed + 1000 * N + d)
    return (rng.random((N, d), dtype=np.float32) + np.float32(offset)).astype(np.float32)


def d2_exact(x):
    """float64 squared distances of the pairs i < j in SciPy's order, summed k = 0 .. d-1 (gram_exact.hpp)."""
    X = x.astype(np.float64)
    i, j = np.triu_indices(len(X), 1)
    s = np.zeros(len(i))
    for k in range(X.shape[1]):
        t = X[i, k] - X[j, k]
        s = s + t * t
    return s, i, j


def scale(x, i, j):
    n = np.sqrt((x.astype(np.float64) ** 2).sum(1))
    return (n[i] + n[j]) ** 2


def tol_d(x, prec, i, j, d):  # |d_gpu - d| (gram_cpu.hpp), plus sqrt.approx's few ulps
    c = tdmaps.bound_coefficient(prec, x.shape[1])
    return np.sqrt(c * scale(x, i, j)) + 2.0**-21 * d + 1e-30


def cuda(x):
    return torch.from_numpy(x).cuda()


def test_print_kernel_table():
    for out in ("lower", "condensed", "hist", "mirror", "count", "minmax"):
        print(out, {p: tdmaps.kernel_for(out, p, 1024) for p in PRECS})


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("N, d", SIZES)
def test_pdist_condensed_against_scipy(prec, N, d):
    x = points(N, d)
    got = tdmaps.pdist(cuda(x), precision=prec).cpu().numpy().astype(np.float64)
    ref = scipy_distance.pdist(x.astype(np.float64))  # SciPy's order
    s, i, j = d2_exact(x)
    assert got.shape == ref.shape
    assert np.all(np.abs(got - ref) <= tol_d(x, prec, i, j, ref))
    got2 = tdmaps.pdist(cuda(x), precision=prec, squared=True).cpu().numpy().astype(np.float64)
    c = tdmaps.bound_coefficient(prec, d)
    assert np.all(np.abs(got2 - s) <= c * scale(x, i, j) + 1e-30)


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("N, d", SIZES)
def test_pdist_lower_and_square(prec, N, d):
    x = points(N, d, offset=-0.5)
    ref = scipy_distance.squareform(scipy_distance.pdist(x.astype(np.float64)))
    s, i, j = d2_exact(x)
    t = scipy_distance.squareform(tol_d(x, prec, i, j, np.sqrt(s)))
    low = tdmaps.pdist(cuda(x), precision=prec, out="lower").cpu().numpy().astype(np.float64)
    lo_mask = np.tril(np.ones((N, N), bool), -1)
    assert np.all(np.abs(low - ref)[lo_mask] <= t[lo_mask])
    assert np.all(low[~lo_mask] == 0)  # the diagonal and the upper part
    sq = tdmaps.pdist(cuda(x), precision=prec, out="square").cpu().numpy().astype(np.float64)
    assert np.all(np.abs(sq - ref) <= t) and np.all(np.diag(sq) == 0)
    cd = torch.cdist(cuda(x).double(), cuda(x).double()).cpu().numpy()
    assert np.all(np.abs(sq - cd) <= t + 1e-9)


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("N, d", SIZES)
def test_gram(prec, N, d):
    x = points(N, d, offset=-0.5)
    X = x.astype(np.float64)
    G = tdmaps.gram(cuda(x), precision=prec).cpu().numpy().astype(np.float64)
    n = np.sqrt((X**2).sum(1))
    S = (n[:, None] + n[None, :]) ** 2
    assert np.all(np.abs(G - X @ X.T) <= tdmaps.bound_coefficient(prec, d) * S + 1e-30)


def moved_and_edges(x, prec, edges, hist):
    """sum |hist - float64 histogram| and the pairs within the bound of an edge."""
    s, i, j = d2_exact(x)
    dist = np.sqrt(s)
    ref, _ = np.histogram(dist, edges)
    t = tol_d(x, prec, i, j, dist)
    near = np.zeros(len(dist), bool)
    for e in edges:
        near |= np.abs(dist - e) <= t
    return int(np.abs(np.asarray(hist) - ref).sum()), int(near.sum()), ref


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("N, d", SIZES[1:])
@pytest.mark.parametrize("bins, rng", [(10, None), (37, (0.1, 1.3)), (1, None)])
def test_histogram(prec, N, d, bins, rng):
    x = points(N, d)
    hist, edges = tdmaps.histogram(cuda(x), bins, rng, precision=prec)
    assert hist.dtype == torch.int64 and edges.dtype == torch.float64 and len(edges) == bins + 1
    h, e = hist.cpu().numpy(), edges.cpu().numpy()
    moved, near, ref = moved_and_edges(x, prec, e, h)
    assert moved <= 2 * near, (moved, near)
    if rng is None:
        assert h.sum() == N * (N - 1) // 2  # every pair inside the edges
    else:
        assert np.allclose(e, np.linspace(rng[0], rng[1], bins + 1))


@pytest.mark.skipif(not EXACT, reason="build without the exact mode (gram_exact.cu)")
@pytest.mark.parametrize("N, d", SIZES)
@pytest.mark.parametrize("bins, rng", [(10, None), (37, (0.1, 1.3)), ([0.0, 0.2, 0.25, 0.9, 2.0], None)])
def test_histogram_exact_equals_float64(N, d, bins, rng):
    x = points(N, d)
    hist, edges = tdmaps.histogram(cuda(x), bins, rng, exact=True)
    s, _, _ = d2_exact(x)
    dist = np.sqrt(s)
    if rng is None and isinstance(bins, int):
        want_edges = np.linspace(dist.min(), dist.max(), bins + 1) if dist.min() < dist.max() else None
        if want_edges is not None:
            assert np.array_equal(edges.cpu().numpy(), want_edges)
    ref, ref_edges = np.histogram(dist, bins if not isinstance(bins, int) else edges.cpu().numpy())
    assert np.array_equal(hist.cpu().numpy(), ref)


def radius_ref(x, eps):
    s, i, j = d2_exact(x)
    within = np.sqrt(s) <= eps
    counts = np.bincount(i[within], minlength=len(x)) + np.bincount(j[within], minlength=len(x))
    return counts, int(within.sum()), s, i, j


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("N, d", SIZES)
def test_radius_count(prec, N, d):
    x = points(N, d)
    eps = 0.4 * math.sqrt(d)
    counts = tdmaps.radius_count(cuda(x), eps, precision=prec)
    assert counts.dtype == torch.int64 and counts.shape == (N,)
    ref, total, s, i, j = radius_ref(x, eps)
    t = tol_d(x, prec, i, j, np.sqrt(s))
    near = np.abs(np.sqrt(s) - eps) <= t
    slack = np.bincount(i[near], minlength=N) + np.bincount(j[near], minlength=N)
    assert np.all(np.abs(counts.cpu().numpy() - ref) <= slack)
    pairs = tdmaps.radius_count(cuda(x), eps, per_point=False, precision=prec)
    assert abs(pairs - total) <= int(near.sum())


@pytest.mark.skipif(not EXACT, reason="build without the exact mode (gram_exact.cu)")
@pytest.mark.parametrize("N, d", SIZES)
def test_radius_count_exact_equals_float64(N, d):
    x = points(N, d)
    x[1] = x[0]  # a duplicate: distance 0, counted (j != i)
    for eps in (0.0, 0.3 * math.sqrt(d), float(np.sqrt(np.sort(d2_exact(x)[0])[len(x) * (len(x) - 1) // 4]))):  # the last: a pair exactly at eps
        ref, total, *_ = radius_ref(x, eps)
        assert np.array_equal(tdmaps.radius_count(cuda(x), eps, exact=True).cpu().numpy(), ref)
        assert tdmaps.radius_count(cuda(x), eps, per_point=False, exact=True) == total


def nan_pairs_as_documented(x, bad_rows, out, prec="tf32"):
    """pdist's answer to non-finite rows: NaN for every pair of such a row (the diagonal 0), the other pairs as
    for finite input (within the precision's bound of float64)."""
    y = tdmaps.pdist(cuda(x), out=out, precision=prec).cpu().numpy().astype(np.float64)
    N = len(x)
    good = np.ones(N, bool)
    good[bad_rows] = False
    xs = np.where(good[:, None], x, 0).astype(np.float32)  # the bound's scale over the finite rows only
    s, i, j = d2_exact(xs)
    hit = ~(good[i] & good[j])
    if out == "condensed":
        got = y
    else:
        got = y[j, i] if out == "lower" else y[i, j]  # lower holds (row > column): SciPy's (i < j) is at [j, i]
        if out == "square":
            assert np.array_equal(np.isnan(y), np.isnan(y.T))
        assert np.all(np.diag(y) == 0)
        if out == "lower":
            assert np.all(np.triu(y) == 0)
    assert np.all(np.isnan(got[hit])) and not np.any(np.isnan(got[~hit]))
    d = np.sqrt(s)
    assert np.all(np.abs(got[~hit] - d[~hit]) <= tol_d(xs, prec, i, j, d)[~hit])


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), 1e30])
@pytest.mark.parametrize("out", ["condensed", "lower", "square"])
def test_pdist_nan_for_nonfinite_rows(bad, out):
    x = points(130, 4)
    x[77, 2] = bad  # 1e30: finite, but its squared norm overflows float32
    x[129, 0] = bad  # in the last, partial tile
    nan_pairs_as_documented(x, [77, 129], out)


def test_pdist_fp16_past_its_range_nan():
    x = points(130, 4)
    x[3, 0] = 70000.0
    nan_pairs_as_documented(x, [3], "condensed", "fp16")


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), 1e30])
def test_reductions_refuse_nonfinite(bad):
    x = points(130, 4)
    x[77, 2] = bad
    for call in (lambda a: tdmaps.histogram(a, 8), lambda a: tdmaps.radius_count(a, 1.0), lambda a: tdmaps.gram(a)):
        with pytest.raises(ValueError, match="NaN or Inf|overflow"):
            call(cuda(x))


def test_fp16_range_refused():
    x = points(130, 4)
    x[3, 0] = 70000.0
    with pytest.raises(ValueError, match="65504"):
        tdmaps.histogram(cuda(x), 8, precision="fp16")


def test_device_refusals():
    x = cuda(points(130, 4))
    with pytest.raises(TypeError, match="float32"):
        tdmaps.pdist(x.double())
    with pytest.raises(ValueError, match="not C-contiguous"):
        tdmaps.pdist(cuda(points(130, 8))[:, ::2])
    with pytest.raises(ValueError, match="not C-contiguous"):
        tdmaps.pdist(cuda(points(8, 130)).T)
    with pytest.raises(ValueError, match="uneven bin edges"):
        tdmaps.histogram(x, [0.0, 0.1, 0.5])
    with pytest.raises(ValueError, match="buckets"):
        tdmaps.histogram(x, 10**7)


def test_memory_refused_before_allocation():
    x = torch.zeros((2_000_000, 1), device="cuda")
    before = torch.cuda.memory_allocated()
    with pytest.raises(MemoryError, match="GiB of GPU memory"):
        tdmaps.pdist(x, out="square")
    assert torch.cuda.memory_allocated() == before


def test_torch_fast_path_equals_dlpack():
    from tdmaps import _arrays, _core
    base = cuda(points(300, 24))
    for t in (base, base[5:260], base[:, :1].contiguous(), base[:, ::2], base.T, base[:1], base.reshape(24, 300)):
        def norm(v):
            return tuple(tuple(e) if isinstance(e, (list, tuple)) else e for e in v)
        assert norm(_arrays._torch_view(t)) == norm(_core.describe(t)), t.shape
    b = _arrays._backend("torch")
    s = torch.cuda.Stream()
    for st in (torch.cuda.current_stream(), s):
        with torch.cuda.stream(st):
            assert b.stream(0) == b.public_stream(0) == st.cuda_stream


def test_torch_fast_path_reads_as_the_general_path():
    # _core.torch_view: what pdist's and gram's fast path (_core.torch_pdist, torch_gram) reads of a tensor; None for
    # every tensor the general path refuses (that path raises its errors)
    from tdmaps import _arrays, _core
    assert tdmaps._torch_pdist is _core.torch_pdist  # the fast path is on where PyTorch has CUDA
    base = cuda(points(300, 24))
    tdmaps.pdist(base)  # require_device(0) remembered (before it, the fast path declines)
    for t in (base, base[5:260], base[:, :1].contiguous(), base[:, ::2], base.T, base[:1], base.reshape(24, 300),
              base[:, :0], base[0], base.double(), base.cpu(), torch.nn.Parameter(base.clone())):
        try:
            p = _arrays.Points(t)
        except (TypeError, ValueError):
            p = None
        v = _core.torch_view(t)
        if p is None or type(t) is not torch.Tensor:  # refused, or a subclass: the general path
            assert v is None, t.shape
        else:
            assert v == (p.N, p.d, p.dev, p.ptr, p.stream) and p.stream == torch.cuda.current_stream().cuda_stream
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        assert _core.torch_view(base)[4] == s.cuda_stream


def test_torch_fast_path_equals_general_path(monkeypatch):
    x = cuda(points(257, 17, offset=-0.5))
    fast = {(o, p, sq): tdmaps.pdist(x, out=o, precision=p, squared=sq)
            for o in ("condensed", "lower", "square") for p in PRECS for sq in (False, True)}
    fast_g = {p: tdmaps.gram(x, precision=p) for p in PRECS}
    monkeypatch.setattr(tdmaps._core, "distances", None)  # the fast path does not use it
    assert tdmaps.pdist(x).shape == (257 * 256 // 2,)
    monkeypatch.undo()
    monkeypatch.setattr(tdmaps, "_torch_pdist", lambda *a: None)  # the general path
    monkeypatch.setattr(tdmaps, "_torch_gram", lambda *a: None)
    for (o, p, sq), y in fast.items():
        assert torch.equal(y, tdmaps.pdist(x, out=o, precision=p, squared=sq)), (o, p, sq)
    for p, y in fast_g.items():
        assert torch.equal(y, tdmaps.gram(x, precision=p)), p


def test_cached_workspace_across_streams():
    # the device's cached workspace, used by calls on two streams in turn: each waits for the previous one's kernels
    xs = (cuda(points(600, 64)), cuda(points(257, 17, seed=2)))
    outs = ("condensed", "square")
    ref = {(w, o): tdmaps.pdist(xs[w], out=o) for w in (0, 1) for o in outs}
    torch.cuda.synchronize()
    streams = (torch.cuda.Stream(), torch.cuda.Stream())
    got = []
    for k in range(20):
        w, o = k % 2, outs[int(k % 3 == 0)]
        with torch.cuda.stream(streams[w]):
            got.append((w, o, tdmaps.pdist(xs[w], out=o)))
    torch.cuda.synchronize()
    for k, (w, o, y) in enumerate(got):
        assert torch.equal(y, ref[(w, o)]), k


def test_workspace_past_the_cache_from_the_framework():
    N, d = 300, 45000  # operands of 384 x 45000 floats: 69 MB, past the 64 MiB of the cached workspace
    assert tdmaps._core.operand_bytes("tf32", N, d) > tdmaps._core.workspace_cache_bytes
    x = points(N, d)
    xt = cuda(x)
    got = tdmaps.pdist(xt).double().cpu().numpy()
    i, j = np.triu_indices(N, 1)
    ref = torch.cdist(xt.double(), xt.double()).cpu().numpy()[i, j]
    assert np.all(np.abs(got - ref) <= tol_d(x, "tf32", i, j, ref))


def test_requires_grad_and_stream():
    x = cuda(points(257, 8)).requires_grad_()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        d = tdmaps.pdist(x)  # queued on s, not waited for
    assert not d.requires_grad and d.shape == (257 * 256 // 2,)
    s.synchronize()
    assert torch.equal(d, tdmaps.pdist(x.detach()))


def test_cupy_in_cupy_out():
    cp = pytest.importorskip("cupy")
    x = points(257, 8)
    d = tdmaps.pdist(cp.asarray(x))
    assert isinstance(d, cp.ndarray)
    ref = scipy_distance.pdist(x.astype(np.float64))
    assert np.allclose(cp.asnumpy(d), ref, atol=1e-2)
    h, e = tdmaps.histogram(cp.asarray(x), 10)
    assert isinstance(h, cp.ndarray) and int(h.sum()) == 257 * 256 // 2


def test_jax_in_jax_out():
    jax = pytest.importorskip("jax")
    if not any(dv.platform == "gpu" for dv in jax.devices()):
        pytest.skip("JAX sees no GPU")
    x = points(257, 8)
    xj = jax.device_put(x, [dv for dv in jax.devices() if dv.platform == "gpu"][0])
    d = tdmaps.pdist(xj)
    assert isinstance(d, jax.Array)
    assert np.allclose(np.asarray(d), scipy_distance.pdist(x.astype(np.float64)), atol=1e-2)


def test_ctrl_c_returns_control():
    # a long call, SIGINT after 0.3 s: KeyboardInterrupt well before the call could have ended
    if EXACT:
        x = torch.rand((300_000, 512), device="cuda")
        call = lambda: tdmaps.radius_count(x, 1.0, exact=True)  # noqa: E731 (~1e14 float64 operations)
    else:
        x = torch.rand((1_000_000, 1024), device="cuda")
        call = lambda: tdmaps.histogram(x, 16, (0.0, 30.0))  # noqa: E731
    in_call = [True]

    def on_sigint(signum, frame):  # KeyboardInterrupt only during the call: a late signal is dropped
        if in_call[0]:
            raise KeyboardInterrupt

    old = signal.signal(signal.SIGINT, on_sigint)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        back = time.perf_counter() - t0
    finally:
        in_call[0] = False
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    torch.cuda.synchronize()  # the kernels end in the background
    total = time.perf_counter() - t0
    print(f"control back after {back:.2f} s; the kernels ended after {total:.2f} s")
    assert back < 1.0 and back < total
    assert tdmaps.pdist(cuda(points(130, 4))).shape == (130 * 129 // 2,)  # the next call works
