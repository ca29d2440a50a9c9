"""Arrays of any framework, through DLPack: the checks every function makes before any GPU work,
and the framework ("backend") that allocates the outputs.

The input's framework allocates where it can (PyTorch, CuPy: their caching allocators and the
caller's current stream); any other framework's array (JAX, ...) is viewed zero-copy by PyTorch
or CuPy, which allocate, and the outputs go back to the input's framework (JAX) or, for a
framework tdmaps does not know, as DLPack capsules.
"""
import math
import sys

from . import _core

_FLOAT = 2  # DLPack type codes
_CUDA = 2
_DEVICE_NAMES = {1: "the CPU", 3: "CUDA host memory", 4: "OpenCL", 7: "Vulkan", 8: "Metal",
                 10: "ROCm", 11: "ROCm host memory", 13: "CUDA managed memory", 14: "oneAPI"}
_DTYPE_CODES = {0: "int", 1: "uint", 2: "float", 4: "bfloat", 5: "complex", 6: "bool"}

NO_KERNELS = ("this build of tdmaps has no GPU kernels (it was built where no GPU, CUDA or CUTLASS "
              "was found); reinstall with `pip install .` on a machine with an NVIDIA GPU, nvcc and "
              "CUTLASS (.ci/deps.sh)")


# need_memory asks the device (cudaMemGetInfo) only past this many bytes
CHECKED_BYTES = 256 * 2**20


def require_kernels():
    if not _core.has_kernels:
        raise RuntimeError(NO_KERNELS)


def _framework(x):
    mod = type(x).__module__.split(".")[0]
    if mod == "torch":
        return "torch"
    if mod == "cupy":
        return "cupy"
    if mod in ("jax", "jaxlib"):
        return "jax"
    return "other"


class Points:
    """A checked input: N x d float32, C-contiguous, on CUDA device `dev`; `work` is the array the
    backend sees (the input itself, or a zero-copy view of it)."""

    def __init__(self, x):
        if not hasattr(x, "__dlpack__"):
            raise TypeError(f"x must be an array that supports DLPack (PyTorch, CuPy, JAX), not {type(x).__name__}")
        self.framework = _framework(x)
        if self.framework == "torch" and x.requires_grad:
            x = x.detach()  # DLPack refuses tensors that require grad; the result has no gradient
        view = _torch_view(x) if self.framework == "torch" else None
        if view is None:
            try:
                view = _core.describe(x)
            except Exception as e:  # noqa: BLE001 - any failure to export is the caller's array
                raise TypeError(f"x could not be read through DLPack ({e})") from None
        code, bits, lanes, shape, strides, dev_type, dev_id, ptr = view
        if (code, bits, lanes) != (_FLOAT, 32, 1):
            name = _DTYPE_CODES.get(code, f"code {code}") + str(bits) + (f"x{lanes}" if lanes != 1 else "")
            raise TypeError(f"x has dtype {name}; tdmaps takes float32 (convert it, e.g. x.float() or x.astype('float32'))")
        if len(shape) != 2:
            raise ValueError(f"x must be 2-D (N points x d features), not {len(shape)}-D")
        N, d = shape
        if N < 2:
            raise ValueError(f"x has N = {N} points; pair distances need at least 2")
        if d == 0:
            raise ValueError("x has d = 0 features; every point needs at least one")
        if (d > 1 and strides[1] != 1) or strides[0] != d:
            raise ValueError(f"x is not C-contiguous (strides {tuple(strides)} in elements); tdmaps does not copy: "
                             "pass a contiguous array (x.contiguous() in PyTorch, cupy.ascontiguousarray(x))")
        if dev_type != _CUDA:
            where = _DEVICE_NAMES.get(dev_type, f"DLPack device type {dev_type}")
            raise ValueError(f"x is on {where}; tdmaps needs it on a CUDA GPU (e.g. x.cuda() or cupy.asarray(x))")
        require_kernels()
        _core.require_device(dev_id)
        self.N, self.d, self.dev, self.ptr = int(N), int(d), int(dev_id), int(ptr)
        self.input = x
        self.backend, self.work = _backend_of(x, self.framework)
        self.stream = self.backend.stream(self.dev)

    def check_values(self, precision=None):
        """NaN, Inf and values whose squared norms overflow float32 are refused (one reduction over x
        on the GPU): the Gram form would turn them into wrong finite distances."""
        _check_absmax(self.backend.absmax(self.work), self.d, precision)

    def need_memory(self, nbytes, call, out=None):
        """Refuses (MemoryError) a call whose GPU memory (the workspace and the outputs, both allocated by
        the framework) exceeds what is free on the device and in the framework's cache, before any of it
        is allocated. Requests up to CHECKED_BYTES skip the question (cudaMemGetInfo costs 6 us, a third
        of the call's budget at N = 1024): the framework's own refusal, should one come, is raised as the
        same MemoryError by empty(). The cache is asked only when the free memory alone is too little
        (asking PyTorch costs 100-250 us)."""
        if nbytes <= CHECKED_BYTES:
            return
        free = _core.free_bytes(self.dev)
        if nbytes <= free:
            return
        cached = self.backend.cached_free(self.dev)
        if nbytes > free + cached:
            what = f"{call} of {self.N} points" + (f" ({out})" if out else "")
            raise MemoryError(f"{what} needs {nbytes / 2**30:.2f} GiB of GPU memory, {(free + cached) / 2**30:.2f} GiB "
                              f"are free on GPU {self.dev}; use fewer points")

    def empty(self, shape, dtype):
        """An uninitialised array of the backend on this device; its out-of-memory error as MemoryError."""
        try:
            return self.backend.empty(shape, dtype, self.dev)
        except Exception as e:  # torch.OutOfMemoryError, cupy's OutOfMemoryError: RuntimeError's kin
            empty_refused(e, self.dev, shape, dtype)

    def empty_ptr(self, shape, dtype):
        """(empty(shape, dtype), its device pointer): the output the C++ call allocates once its preparation is queued."""
        a = self.empty(shape, dtype)
        return a, self.backend.ptr(a)

    def result(self, a):
        """An output in the caller's framework."""
        if self.framework in ("torch", "cupy"):
            return a
        if self.framework == "jax":
            import jax.dlpack
            return jax.dlpack.from_dlpack(a)
        return a.__dlpack__()


def _check_absmax(m, d, precision):
    """Points.check_values' refusals of x whose largest |value| is m (d features)."""
    if not (m <= 3.4e38):  # NaN compares false
        raise ValueError("x holds NaN or Inf; tdmaps refuses them (their distances would be wrong, not NaN): "
                         "drop or replace those rows first")
    limit = math.sqrt(3.4e38 / (4.0 * d))
    if m > limit:
        raise ValueError(f"x holds values up to {m:.3g}, past {limit:.3g}: squared norms would overflow "
                         "float32; scale x down")
    # the largest value of the precision's operand type (fp16: 65504; the others' lie past the squared norms' limit
    # above): declared with c_P, src/support/results/gram_bound.hpp; None: float64 (the exact mode)
    top = _core.largest_value(precision) if precision is not None else math.inf
    if m > top:
        raise ValueError(f"x holds values up to {m:.3g}, past {precision}'s largest {top:g}; scale x down or use "
                         "another precision")


def empty_refused(e, dev, shape, dtype):
    """Raises the framework's refusal e to allocate an array of shape and dtype on GPU dev: an out-of-memory error
    as MemoryError, any other as it is (Points.empty; _core's PyTorch fast path)."""
    if isinstance(e, MemoryError) or "out of memory" not in str(e).lower():
        raise e
    raise MemoryError(f"the GPU {dev} has too little free memory for an array of {shape} {dtype} "
                      "(the framework refused it); use fewer points") from None


def check_torch_values(x, d, precision):
    """Points.check_values for a float32 CUDA torch.Tensor x of d features (gram's fast path: _core.torch_gram)."""
    _check_absmax(float((x.detach() if x.requires_grad else x).abs().max()), d, precision)


def _no_fast_path(*args):
    return None


def torch_fast_path():
    """(pdist's, gram's) fast path for PyTorch tensors: _core.torch_pdist and _core.torch_gram, handed once what
    does not change from call to call (torch.Tensor, torch.float32, the raw-stream function, the checks' helpers
    above); where they cannot run (no GPU kernels in this build, no PyTorch, a PyTorch without the raw-stream
    function) functions that return None, and every call takes the general path (Points)."""
    torch = sys.modules.get("torch")  # imported by __init__.py where it is installed
    if not _core.has_kernels or torch is None:
        return _no_fast_path, _no_fast_path
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if not callable(raw):
        return _no_fast_path, _no_fast_path
    _core.torch_setup(torch.Tensor, torch.float32, raw, empty_refused, check_torch_values, CHECKED_BYTES)
    return _core.torch_pdist, _core.torch_gram


def _torch_view(x):
    """describe()'s tuple for a float32 CUDA PyTorch tensor, read from the tensor itself (a third of the time of
    a DLPack export: test_gpu.py holds the two equal); None for any other, which goes through DLPack."""
    t = _backend("torch").t
    if x.dtype is not t.float32 or not x.is_cuda:
        return None
    return _FLOAT, 32, 1, tuple(x.shape), x.stride(), _CUDA, x.get_device(), x.data_ptr()


_backends = {}  # one instance each, made on first use


def _backend(name):
    b = _backends.get(name)
    if b is None:
        b = _backends[name] = {"torch": _Torch, "cupy": _CuPy}[name]()
    return b


def _backend_of(x, framework):
    if framework in ("torch", "cupy"):
        return _backend(framework), x
    if framework == "jax":
        x.block_until_ready()
    for name in ("torch", "cupy"):
        try:
            b = _backend(name)
        except ImportError:
            continue
        return b, b.from_dlpack(x)
    raise RuntimeError(f"tdmaps allocates its outputs with PyTorch or CuPy, and neither is installed "
                       f"(x is a {type(x).__module__}.{type(x).__name__}); install one of them")


class _Torch:
    def __init__(self):
        import torch
        self.t = torch
        self.dtypes = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64,
                       "int32": torch.int32, "uint8": torch.uint8}
        self.devices = {}
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # the stream's handle, without a Stream object
        self.raw_stream = raw if callable(raw) else None

    def from_dlpack(self, x):
        return self.t.from_dlpack(x)

    def stream(self, dev):
        if self.raw_stream is not None:
            return int(self.raw_stream(dev))
        return int(self.t.cuda.current_stream(dev).cuda_stream)

    def public_stream(self, dev):  # test_gpu.py: the raw handle equals the public API's
        return int(self.t.cuda.current_stream(dev).cuda_stream)

    def absmax(self, x):
        return float(x.abs().max())

    def cached_free(self, dev):
        return int(self.t.cuda.memory_reserved(dev) - self.t.cuda.memory_allocated(dev))

    def _dev(self, dev):
        d = self.devices.get(dev)
        if d is None:
            d = self.devices[dev] = self.t.device("cuda", dev)
        return d

    def empty(self, shape, dtype, dev):
        return self.t.empty(shape, dtype=self.dtypes[dtype], device=self._dev(dev))

    def zeros(self, shape, dtype, dev):
        return self.t.zeros(shape, dtype=self.dtypes[dtype], device=self._dev(dev))

    def full(self, shape, value, dtype, dev):
        return self.t.full(shape, value, dtype=self.dtypes[dtype], device=self._dev(dev))

    def asarray(self, values, dtype, dev):
        return self.t.tensor(values, dtype=self.dtypes[dtype], device=self._dev(dev))

    def ptr(self, a):
        return int(a.data_ptr())

    def zero_diagonal(self, a):
        a.diagonal().zero_()

    def to_int64(self, a):
        return a.to(self.t.int64)

    def tolist(self, a):
        return a.tolist()


class _CuPy:
    def __init__(self):
        import cupy
        self.c = cupy

    def from_dlpack(self, x):
        return self.c.from_dlpack(x)

    def stream(self, dev):
        with self.c.cuda.Device(dev):
            return int(self.c.cuda.get_current_stream().ptr)

    def absmax(self, x):
        return float(self.c.abs(x).max())

    def cached_free(self, dev):
        with self.c.cuda.Device(dev):
            return int(self.c.get_default_memory_pool().free_bytes())

    def empty(self, shape, dtype, dev):
        with self.c.cuda.Device(dev):
            return self.c.empty(shape, dtype=dtype)

    def zeros(self, shape, dtype, dev):
        with self.c.cuda.Device(dev):
            return self.c.zeros(shape, dtype=dtype)

    def full(self, shape, value, dtype, dev):
        with self.c.cuda.Device(dev):
            return self.c.full(shape, value, dtype=dtype)

    def asarray(self, values, dtype, dev):
        with self.c.cuda.Device(dev):
            return self.c.asarray(values, dtype=dtype)

    def ptr(self, a):
        return int(a.data.ptr)

    def zero_diagonal(self, a):
        with a.device:
            self.c.fill_diagonal(a, 0)

    def to_int64(self, a):
        with a.device:
            return a.astype(self.c.int64)

    def tolist(self, a):
        return a.tolist()
