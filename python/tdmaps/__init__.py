"""tdmaps: pair distances, their histogram, neighbour counts and the Gram matrix of the rows of a
GPU array, on the tensor cores over the lower triangle of 128 x 128 tiles (the LTM-E tile map).

Every function takes an N x d float32 C-contiguous CUDA array of any DLPack framework (PyTorch,
CuPy, JAX) without copying it, runs on the caller's current stream (PyTorch, CuPy; JAX: through
PyTorch or CuPy) and returns its result in the input's framework. pdist and gram return at once,
their work queued on that stream (as torch.cdist does); histogram and radius_count return when
their counts are ready. Bad input raises one exception (TypeError, ValueError, MemoryError,
RuntimeError) before any GPU work; Ctrl-C during a waiting call returns control (KeyboardInterrupt;
the outputs of that call are then incomplete).

Precision (the tensor cores' inputs; K = d, 3d for "3xtf32"): for points x_i, x_j and
S = (|x_i| + |x_j|)^2, every squared distance satisfies |d2 - d2_exact| <= c_P * S with
c_P = 3 u_P + (K + 4) 2^-23, u_P = 2^-11 (tf32, fp16), 2^-21 (3xtf32: FP32-accurate), 2^-8
(bf16); a distance d satisfies |d - d_exact| <= sqrt(c_P S) + 2^-23 d. The bound is relative to S,
not to d^2: close points far from the origin lose digits (centre x first). exact=True
(histogram, radius_count) computes every pair in float64 on the CUDA cores instead: the result
of a float64 computation, bit for bit.

Non-finite input: a row holding NaN or Inf, or whose squared norm overflows float32 (or, for fp16,
a value past 65504), gets NaN for each of its pairs in pdist (the diagonal stays 0), as torch.cdist
and SciPy give NaN for NaN rows; histogram, radius_count and gram refuse such x (ValueError): the
Gram form would turn it into wrong finite counts.
See python/README.md; tdmaps.maps for the map library's facts.
"""
import builtins
import importlib.util
import math
import operator as _operator

# PyTorch first, where it is installed: on an H200 machine (torch 2.11) importing this package's module
# before torch made torch's own later import crash (segmentation fault in torch.ao.quantization's import;
# torch first: no crash; experiments/results/h200/logs/issue36_37_38/c4_import_order.log). Cause not found.
if importlib.util.find_spec("torch") is not None:
    import torch  # noqa: F401

from . import _core, maps
from ._arrays import NO_KERNELS, Points, require_kernels, torch_fast_path

# PyTorch's fast path (issue #38: the host time of a call): a CUDA torch.Tensor that passes every check goes through
# one C++ call (_core.cpp, torch_pdist, torch_gram: the same checks, the same GPU work); they return None for any
# other input, which takes the general path below (Points: any DLPack framework; every refusal raised there).
_torch_pdist, _torch_gram = torch_fast_path()

__all__ = ["pdist", "histogram", "radius_count", "gram", "kernel_for", "build_info", "maps", "PRECISIONS"]
__version__ = _core.version

# The precisions' names and the default of every precision= below: the Gram vocabulary's, declared once in C++
# (src/support/results/gram_names.hpp kPrecs, kDefaultPrec; exported by _core.cpp).
PRECISIONS = tuple(_core.precisions)
_DEFAULT_PRECISION = _core.default_precision


def bound_coefficient(precision, d):
    """c_P of the error bound |d2_gpu - d2| <= c_P (|x_i| + |x_j|)^2 for d features."""
    _check_precision(precision)
    try:
        d = _operator.index(d)
    except TypeError:
        raise TypeError(f"d must be an integer (the features), not {type(d).__name__}") from None
    if d < 1:
        raise ValueError(f"d must be >= 1 (the features), not {d}")
    # the one definition, which the kernels use too (src/support/results/gram_bound.hpp)
    return _core.bound_coef(precision, d)


def _check_precision(precision):
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(repr(p) for p in PRECISIONS)} (got {precision!r})")


def build_info():
    """What this build carries: GPU kernels, the architectures, the sm_90a kernels, the exact mode."""
    info = {"version": _core.version, "kernels": bool(_core.has_kernels), "exact": bool(_core.has_exact),
            "sm90a": bool(_core.sm90_built)}
    if _core.has_kernels:
        info.update(sass=_core.gpu_sass, ptx=_core.gpu_ptx)
    return info


def kernel_for(out, precision=_DEFAULT_PRECISION, N=1024, device=0):
    """The kernel that runs output `out` ("lower", "condensed", "hist", "mirror", "count", "minmax")
    at this precision and N on GPU `device`: the one table in C++ (python/tdmaps/_core.cpp)."""
    require_kernels()
    _check_precision(precision)
    return _core.kernel_for(out, precision, int(N), int(device))


def _operands(p, precision):
    """Bytes of the workspace that holds the operands as the tensor cores read them (gram::prepare)."""
    return _core.operand_bytes(precision, p.N, p.d)


def _workspace(p, nbytes):
    """The operands' workspace of nbytes (_operands): None (the device's cached one, _core.workspace_cache_bytes at
    most: a short call allocates nothing), or a framework array (its caching allocator, the caller's stream)."""
    return None if nbytes <= _core.workspace_cache_bytes else p.empty((nbytes,), "uint8")


def _ptr(p, a):
    return 0 if a is None else p.backend.ptr(a)


# pdist's out= words, each with the kernels' output it runs ("square" is the mirror epilogue), and its default: declared
# here alone; the peer scripts (experiments/peers/python_peers.py, python_overhead.py) take them from here, through
# _pdist_kind, _pdist_shape and _pdist_full.
_PDIST_KINDS = {"condensed": "condensed", "lower": "lower", "square": "mirror"}
_DEFAULT_OUT = "condensed"
if tuple(_PDIST_KINDS) != tuple(_core.pdist_outputs):  # the words the C++ layouts declare (results/python_names.hpp)
    raise ImportError(f"tdmaps: pdist's out words {tuple(_PDIST_KINDS)} differ from the C++ vocabulary's "
                      f"{tuple(_core.pdist_outputs)}")


def _pdist_kind(out):
    """The kernels' output of pdist's `out` ("square" is the mirror epilogue)."""
    kind = _PDIST_KINDS.get(out) if isinstance(out, str) else None
    if kind is None:
        raise ValueError(f"out must be 'condensed', 'lower' or 'square' (got {out!r})")
    return kind


def _pdist_shape(N, out):
    return (N * (N - 1) // 2,) if out == "condensed" else (N, N)


def _pdist_full(out):
    """Whether pdist's `out` holds every cell of N x N (square: the mirror epilogue); lower and condensed hold the pairs
    j < i alone."""
    return _pdist_kind(out) == "mirror"


def pdist(x, *, squared=False, precision=_DEFAULT_PRECISION, out=_DEFAULT_OUT):
    """Distances between the rows of x (N x d).

    out="condensed": a vector of the N(N-1)/2 pairs i < j in SciPy's order (scipy.spatial.distance.pdist).
    out="lower": N x N, the lower triangle j < i written, the diagonal and the upper part 0.
    out="square": N x N, every pair (what torch.cdist(x, x) returns), the diagonal 0.
    squared=True gives d^2. float32, in the caller's framework. Error bound: the module's docstring
    (c_P: tdmaps.bound_coefficient(precision, d)).
    """
    if squared not in (True, False):
        raise TypeError(f"squared must be True or False, not {squared!r}")
    y = _torch_pdist(x, precision, out, squared)  # PyTorch's fast path; None: the general path
    if y is not None:
        return y
    _check_precision(precision)
    kind = _pdist_kind(out)
    p = Points(x)
    _core.require_tiles(p.N)
    shape = _pdist_shape(p.N, out)
    nws = _operands(p, precision)
    p.need_memory(nws + 4 * math.prod(shape), "pdist", out)
    # every cell is written by the call: lower's diagonal and upper part 0 (gram::zero_upper after the
    # kernel), square's diagonal 0 (the mirror epilogue); the pairs of a non-finite point NaN
    # (gram::nan_nonfinite_pairs). Queued on the caller's stream, not waited for (as torch.cdist).
    ws = _workspace(p, nws)
    # the output is allocated by the call once the preparation is queued (the GPU prepares meanwhile)
    dst = _core.distances(p.ptr, p.N, p.d, precision, kind, not squared, False, lambda: p.empty_ptr(shape, "float32"),
                          _ptr(p, ws), p.stream, p.dev)
    return p.result(dst)


def _time_cpp(x, out, precision, squared, reps, warmup):
    """ms of each of `reps` pdist-equivalent calls made from C++ alone (the same GPU work as pdist's: prepare
    into a workspace, kernel, lower's zeroed upper part, the NaN pass; the workspace and the output allocated
    once): the benchmark's measure of the binding's overhead (experiments/peers/python_peers.py)."""
    _check_precision(precision)
    kind = _pdist_kind(out)
    p = Points(x)
    dst = p.backend.empty(_pdist_shape(p.N, out), "float32", p.dev)
    return _core.time_distances(p.ptr, p.N, p.d, precision, kind, not squared, p.backend.ptr(dst), int(reps),
                                int(warmup), p.stream, p.dev)


def _enqueue_cpp(x, out, precision, squared):
    """A callable that queues the GPU work of one pdist call from C++ alone (prepare into its own workspace, kernel,
    lower's zeroed upper part, the NaN pass; the workspace and the output allocated here, once): the benchmark
    times it between the same CUDA events as tdmaps.pdist, so that the difference is the binding's host time
    (experiments/peers/python_peers.py). The output is kept alive by the callable."""
    _check_precision(precision)
    kind = _pdist_kind(out)
    p = Points(x)
    dst = p.backend.empty(_pdist_shape(p.N, out), "float32", p.dev)
    q = _core.Enqueue(p.ptr, p.N, p.d, precision, kind, not squared, p.backend.ptr(dst), p.stream, p.dev)

    def call():
        q()
        return dst
    return call


def gram(x, *, precision=_DEFAULT_PRECISION):
    """The Gram matrix X X^T (N x N, float32, every cell written). Error: |g - g_exact| <= c_P S
    (c_P as for distances, S = (|x_i| + |x_j|)^2)."""
    y = _torch_gram(x, precision)  # PyTorch's fast path; None: the general path
    if y is not None:
        return y
    _check_precision(precision)
    p = Points(x)
    p.check_values(precision)
    _core.require_tiles(p.N)
    nws = _operands(p, precision)
    p.need_memory(nws + 4 * p.N * p.N, "gram")
    ws = _workspace(p, nws)
    dst = _core.distances(p.ptr, p.N, p.d, precision, "mirror", False, True, lambda: p.empty_ptr((p.N, p.N), "float32"),
                          _ptr(p, ws), p.stream, p.dev)
    return p.result(dst)


def _require_exact():
    if not _core.has_exact:
        raise RuntimeError("this build of tdmaps has no exact mode (src/support/gram/gram_exact.cu was not in "
                           "the tree it was built from); use exact=False or reinstall from a newer tree")


def _distance_range(p, precision, exact):
    """(least, largest) pair distance, for range=None: float64 exactly (exact) or the tensor cores'."""
    b = p.backend
    if exact:
        mm = b.asarray([math.inf, 0.0], "float64", p.dev)
        _core.exact_minmax(p.ptr, p.N, p.d, b.ptr(mm), p.stream, p.dev)
    else:
        mm = b.asarray([math.inf, 0.0], "float32", p.dev)
        ws = _workspace(p, _operands(p, precision))
        _core.minmax(p.ptr, p.N, p.d, precision, b.ptr(mm), _ptr(p, ws), p.stream, p.dev)
    lo, hi = (float(v) for v in b.tolist(mm))
    return lo, hi


def histogram(x, bins, range=None, *, precision=_DEFAULT_PRECISION, exact=False):
    """Histogram of the distances of the N(N-1)/2 pairs i > j of the rows of x, by NumPy's rules:
    returns (hist, bin_edges) as numpy.histogram(pdist(x), bins, range) does, as int64 and float64
    arrays of the caller's framework.

    bins: an int (equal-width bins over range) or a sequence of increasing edges (exact=True; or
    equal-width edges). range=(lo, hi), default the least and largest pair distance; lo == hi widens
    it to (lo - 0.5, hi + 0.5). Every bin is [e_b, e_b+1), the last one closed; distances outside
    are not counted.

    exact=False: the tensor cores at `precision` (bins <= the fused histogram's buckets); a pair
    within the error bound of an edge may land in the neighbouring bin. With range=None the edges
    span the least and largest distance as the kernels compute them, widened by 2^-18 of the
    largest, so every pair is counted. exact=True: float64 on the CUDA cores, the counts of a float64
    CPU computation exactly, range=None is exactly (min, max) of the float64 distances.
    """
    _check_precision(precision)
    if exact not in (True, False):
        raise TypeError(f"exact must be True or False, not {exact!r}")
    # bins and range first: their mistakes are said before anything about x or the GPU
    if isinstance(bins, str):
        raise ValueError(f"bins = {bins!r}: tdmaps takes a number of bins or a sequence of edges, not an estimator name")
    edges = None
    if isinstance(bins, (int,)) or (hasattr(bins, "__index__") and not hasattr(bins, "__len__")):
        nbins = int(bins.__index__())
        if nbins < 1:
            raise ValueError(f"bins must be at least 1 (got {nbins})")
    else:
        edges = [float(e) for e in bins]
        nbins = len(edges) - 1
        if nbins < 1:
            raise ValueError("bins as edges needs at least 2 of them")
        if not all(math.isfinite(e) for e in edges) or any(edges[k + 1] <= edges[k] for k in builtins.range(nbins)):
            raise ValueError("bins must increase monotonically and be finite")
        if range is not None:
            raise ValueError("give either bins as edges or range, not both")
    if range is not None:
        try:
            lo, hi = (float(v) for v in range)
        except (TypeError, ValueError):
            raise ValueError(f"range must be a pair (lo, hi), not {range!r}") from None
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ValueError(f"range ({lo}, {hi}) is not finite")
        if lo > hi:
            raise ValueError(f"range: max must be larger than min ({lo} > {hi})")
    p = Points(x)
    p.check_values(None if exact else precision)
    _core.require_tiles(p.N)
    b = p.backend
    if exact:
        _require_exact()
    if not exact and nbins > _core.max_buckets(precision):
        raise ValueError(f"bins = {nbins} is more than the {_core.max_buckets(precision)} buckets the tensor-core "
                         "histogram holds; use fewer bins or exact=True")
    p.need_memory((0 if exact else _operands(p, precision)) + 16 * (nbins + 1), "histogram")
    if edges is None:
        if range is None:
            lo, hi = _distance_range(p, precision, exact)
            if not exact:  # the kernels' rounding: every pair inside the edges
                lo, hi = max(0.0, lo - 2.0**-18 * hi), hi + 2.0**-18 * hi
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        step = (hi - lo) / nbins  # numpy.linspace's arithmetic, as numpy.histogram's edges
        edges = [k * step + lo for k in builtins.range(nbins + 1)]
        edges[-1] = hi
    elif not exact:
        width = (edges[-1] - edges[0]) / nbins
        if any(abs(edges[k] - (edges[0] + k * width)) > 1e-6 * abs(width) for k in builtins.range(nbins + 1)):
            raise ValueError("uneven bin edges need exact=True (the tensor-core histogram has equal-width bins)")
    hist = b.zeros((nbins,), "int64", p.dev)
    edges_dev = b.asarray(edges, "float64", p.dev)
    if exact:
        _core.exact_histogram(p.ptr, p.N, p.d, b.ptr(edges_dev), nbins, b.ptr(hist), p.stream, p.dev)
    else:
        width = (edges[-1] - edges[0]) / nbins
        ws = _workspace(p, _operands(p, precision))
        _core.histogram(p.ptr, p.N, p.d, precision, nbins, edges[0], width, b.ptr(hist), _ptr(p, ws), p.stream, p.dev)
    return p.result(hist), p.result(edges_dev)


def radius_count(x, eps, *, per_point=True, exact=False, precision=_DEFAULT_PRECISION):
    """Neighbours within eps (distance <= eps) of each row of x: point i counts every j != i
    (int64, N). per_point=False: the number of pairs i > j within eps (a Python int).
    exact=False: the tensor cores at `precision` (a pair within the error bound of eps may count
    either way); exact=True: float64 on the CUDA cores, the counts of a float64 computation exactly.
    """
    _check_precision(precision)
    try:
        eps = float(eps)
    except (TypeError, ValueError):
        raise TypeError(f"eps must be a number, not {type(eps).__name__}") from None
    if not (eps >= 0 and math.isfinite(eps)):
        raise ValueError(f"eps must be finite and >= 0 (got {eps})")
    p = Points(x)
    p.check_values(None if exact else precision)
    _core.require_tiles(p.N)
    if exact:
        _require_exact()
    p.need_memory((0 if exact else _operands(p, precision)) + 12 * p.N + 8, "radius_count")
    b = p.backend
    counts = b.zeros((p.N,), "int32", p.dev)  # the kernels' unsigned counters
    total = b.zeros((1,), "int64", p.dev)
    if exact:
        _core.exact_radius_count(p.ptr, p.N, p.d, eps, b.ptr(counts), b.ptr(total), p.stream, p.dev)
    else:
        eps2 = min(eps * eps, 3.4e38)
        ws = _workspace(p, _operands(p, precision))
        _core.radius_count(p.ptr, p.N, p.d, precision, eps2, b.ptr(counts), b.ptr(total), _ptr(p, ws), p.stream,
                           p.dev)
    if not per_point:
        return int(b.tolist(total)[0])
    return p.result(b.to_int64(counts))


# Each function's docstring ends with the error bound of its precision: the module docstring's paragraph, once.
_BOUND = __doc__[__doc__.index("Precision (the tensor cores"):__doc__.index("Non-finite input")].strip()
for _f in (pdist, histogram, radius_count, gram):
    _f.__doc__ = _f.__doc__.rstrip() + "\n\n    " + _BOUND.replace("\n", "\n    ") + "\n"
del _f

