// python/tdmaps/_core.cpp — the C++ half of the Python package tdmaps (issue #38, nanobind).
// Always: the map library's closed-form facts (src/lib/cli/facts.hpp: what `tdmap info` and
// `tdmap range` print), a DLPack view of any array (its dtype, shape, strides, device), so the
// Python layer (__init__.py) checks every input without a GPU, the coefficient c_P of the Gram form's error bound
// and the largest value each precision takes (src/support/results/gram_bound.hpp: tdmaps.bound_coefficient, the check
// of x in _arrays.py), and the precisions' names and
// default (src/support/results/gram_names.hpp: tdmaps.PRECISIONS, every precision=). With TDMAPS_PY_KERNELS (the build
// found a GPU, CUDA and CUTLASS: src/support/gram/meson.build): the Gram kernels (gram_api.hpp) and
// the exact mode (gram_exact.hpp) on raw device pointers that the Python layer allocated with the
// caller's framework. Every call waits for its kernels with the GIL released, polling for
// Ctrl-C (wait_interruptible). PyTorch's fast path (torch_pdist, torch_gram): pdist and gram on a
// torch.Tensor that passes every check, read and queued by one call from Python (issue #38's host time).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "cli/facts.hpp"
#include <results/gram_bound.hpp>  // c_P of the Gram form's error bound (tdmaps.bound_coefficient)
#include <results/python_names.hpp>  // tdmaps.pdist's out words (pdist_outputs)
#include <tdmaps/registry.hpp>

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#if defined(TDMAPS_PY_KERNELS)
#include <bench/arch.hpp>
#include <gram/gram_api.hpp>
#if defined(TDMAPS_PY_EXACT)
#include <gram/gram_exact.hpp>
#endif
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>
#endif

namespace nb = nanobind;
using namespace nb::literals;
using tdmaps::i64;

namespace {

// ---- the maps' facts --------------------------------------------------------------------------
nb::dict info_dict(const tdmaps::facts::Info& f) {
  nb::dict d;
  d["map"] = f.map;
  d["dim"] = f.dim;
  d["maps"] = f.kind;
  d["N"] = f.N;
  d["rho"] = f.rho;
  d["n"] = f.n;
  d["passes"] = f.passes;
  nb::list grids;
  for (size_t k = 0; k < f.grids.size(); ++k) {
    const auto g = f.grids[k], b = f.blocks[k];
    grids.append(nb::make_tuple(nb::make_tuple(g.x, g.y, g.z), nb::make_tuple(b.x, b.y, b.z)));
  }
  d["grids"] = grids;
  d["launched_blocks"] = f.counts.launched_blocks;
  d["useful_blocks"] = f.counts.useful_blocks;
  d["wasted_blocks"] = f.counts.wasted_blocks();
  d["launched_threads"] = f.counts.launched_threads;
  d["useful_threads"] = f.counts.useful_threads;
  d["wasted_threads"] = f.counts.wasted_threads();
  d["accepts"] = f.accepts;
  d["exact"] = f.exact;
  d["device"] = f.device.empty() ? nb::none() : nb::cast(f.device);
  return d;
}

bool is2d(const std::string& m) {
  bool found = false;
  tdmaps::with_map(tdmaps::maps2d{}, m.c_str(), [&](auto) { found = true; });
  return found;
}
bool is3d(const std::string& m) {
  bool found = false;
  tdmaps::with_map(tdmaps::maps3d{}, m.c_str(), [&](auto) { found = true; });
  return found;
}
// The block side: default 16 (2D) or 8 (3D), as the CLI's; refusals in the CLI's words.
int block_side(const std::string& map, bool three, nb::object rho) {
  if (!is2d(map) && !three) throw nb::value_error(("unknown map '" + map + "' (see tdmaps.maps.list())").c_str());
  const int r = rho.is_none() ? (three ? 8 : 16) : nb::cast<int>(rho);
  if (const std::string e = tdmaps::block_side_error(r, three); !e.empty()) throw nb::value_error(e.c_str());
  return r;
}

nb::dict maps_info(const std::string& map, i64 N, nb::object rho_arg) {
  const bool three = is3d(map);
  const int rho = block_side(map, three, rho_arg);
  tdmaps::facts::Info f;
  try {
    if (three) tdmaps::with_map(tdmaps::maps3d{}, map.c_str(), [&](auto m) { f = tdmaps::facts::info3<decltype(m)>(N, rho); });
    else tdmaps::with_map(tdmaps::maps2d{}, map.c_str(), [&](auto m) { f = tdmaps::facts::info2<decltype(m)>(N, rho); });
  } catch (const tdmaps::unsupported& e) {
    // the CLI's refusal: the limit, and a map (or block side) that serves N
    std::string msg = e.what();
    if (N >= 1)
      msg += "; " + (three ? tdmaps::serving_hint(tdmaps::maps3d{}, map, N, rho, true)
                           : tdmaps::serving_hint(tdmaps::maps2d{}, map, N, rho, false));
    throw nb::value_error(msg.c_str());
  }
  return info_dict(f);
}

nb::dict maps_range(const std::string& map, nb::object rho_arg) {
  const bool three = is3d(map);
  const int rho = block_side(map, three, rho_arg);
  tdmaps::facts::Range r;
  if (three) tdmaps::with_map(tdmaps::maps3d{}, map.c_str(), [&](auto m) { r = tdmaps::facts::range_of<decltype(m), true>(rho); });
  else tdmaps::with_map(tdmaps::maps2d{}, map.c_str(), [&](auto m) { r = tdmaps::facts::range_of<decltype(m), false>(rho); });
  nb::dict d;
  d["map"] = r.map;
  d["rho"] = rho;
  d["largest_N"] = r.largest_N;
  d["accepts"] = r.accepts;
  const auto opt = [](const std::string& s) { return s.empty() ? nb::none() : nb::cast(s); };
  d["past"] = opt(r.past);
  d["between"] = opt(r.between);
  d["exact"] = r.exact;
  d["device"] = opt(r.device);
  return d;
}

nb::list maps_list() {
  nb::list l;
  tdmaps::for_each_map(tdmaps::maps2d{}, [&](auto m) { l.append(nb::make_tuple(decltype(m)::name, 2)); });
  tdmaps::for_each_map(tdmaps::maps3d{}, [&](auto m) { l.append(nb::make_tuple(decltype(m)::name, 3)); });
  return l;
}

// ---- any array, through DLPack ------------------------------------------------------------
// (dtype code, bits, lanes, shape, strides in elements, device type, device id, data pointer, readonly)
nb::tuple describe(nb::ndarray<nb::ro> a) {
  const auto t = a.dtype();
  std::vector<int64_t> shape, strides;
  for (size_t k = 0; k < a.ndim(); ++k) {
    shape.push_back(a.shape(k));
    strides.push_back(a.stride(k));
  }
  return nb::make_tuple(int(t.code), int(t.bits), int(t.lanes), shape, strides, a.device_type(), a.device_id(),
                        std::uintptr_t(a.data()));
}

#if defined(TDMAPS_PY_KERNELS)
// ---- CUDA errors as Python exceptions, one sentence each ----------------------------------
const char* reinstall = "reinstall with `pip install .` on a machine with this GPU, nvcc and CUTLASS (.ci/deps.sh)";

[[noreturn]] void raise_memory(const std::string& msg) {
  PyErr_SetString(PyExc_MemoryError, msg.c_str());
  throw nb::python_error();
}
void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error
  const std::string s = std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  switch (e) {
    case cudaErrorNoDevice:
      throw std::runtime_error("no CUDA GPU is visible (" + s + "); check nvidia-smi and CUDA_VISIBLE_DEVICES");
    case cudaErrorInsufficientDriver:
      throw std::runtime_error("the NVIDIA driver is older than the CUDA runtime of this build (" + s + "); update the driver");
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorInvalidKernelImage:
      throw std::runtime_error("this build of tdmaps has no code for this GPU (" + s + "); " + reinstall);
    case cudaErrorMemoryAllocation: raise_memory("the GPU ran out of memory (" + s + ")");
    case cudaErrorInvalidValue: throw nb::value_error(("the kernels refused the request (" + s + ")").c_str());
    default: throw std::runtime_error("CUDA error in " + s);
  }
}

// Runs on device `dev` for its lifetime, then restores the caller's device.
struct DeviceGuard {
  int prev = -1;
  explicit DeviceGuard(int dev) {
    check(cudaGetDevice(&prev), "cudaGetDevice");
    if (prev != dev) check(cudaSetDevice(dev), "cudaSetDevice");
  }
  ~DeviceGuard() {
    int now = -1;
    if (prev >= 0 && cudaGetDevice(&now) == cudaSuccess && now != prev) cudaSetDevice(prev);
  }
};

// The build's GPU code (TDMAPS_GPU_SASS, TDMAPS_GPU_PTX: the top-level meson.build).
tdmaps::bench::GpuCode built_code() {
  tdmaps::bench::GpuCode c;
  c.sass = tdmaps::bench::parse_arch_list(TDMAPS_GPU_SASS);
  c.ptx = TDMAPS_GPU_PTX;
  return c;
}
// Device `dev` exists and this build runs on it; else RuntimeError naming the cause and the next step.
// A device found good is remembered (the check costs a few driver calls; every call makes it).
std::vector<char>& sm90_of() {  // per device found good: whether it runs the sm_90a kernels (gram::sm90_runs)
  static std::vector<char> v;
  return v;
}
std::vector<char>& good_devices() {  // per device: found good by require_device
  static std::vector<char> v;
  return v;
}
bool device_known_good(i64 dev) { return dev >= 0 && dev < i64(good_devices().size()) && good_devices()[size_t(dev)]; }
void require_device(int dev) {
  if (device_known_good(dev)) return;
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (dev < 0 || dev >= count)
    throw std::runtime_error("CUDA device " + std::to_string(dev) + " does not exist (" + std::to_string(count) + " visible)");
  int major = 0, minor = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), "cudaDeviceGetAttribute");
  const int cap = 10 * major + minor;
  if (tdmaps::bench::code_path(built_code(), cap) == tdmaps::bench::CodePath::none)
    throw std::runtime_error("this build of tdmaps has no code for GPU " + std::to_string(dev) + " (sm_" + std::to_string(cap) +
                             "; built for sm " + TDMAPS_GPU_SASS + ", PTX compute_" + std::to_string(TDMAPS_GPU_PTX) + "); " + reinstall);
  if (cap < 80)
    throw std::runtime_error("GPU " + std::to_string(dev) + " is sm_" + std::to_string(cap) +
                             "; the tensor-core kernels need sm_80 or newer (Ampere, Hopper)");
  if (int(good_devices().size()) <= dev) good_devices().resize(size_t(dev) + 1, 0);
  if (int(sm90_of().size()) <= dev) sm90_of().resize(size_t(dev) + 1, 0);
  DeviceGuard g(dev);
  sm90_of()[size_t(dev)] = gram::sm90_runs() ? 1 : 0;
  good_devices()[size_t(dev)] = 1;
}
bool sm90_runs_on(int dev) { return sm90_of()[size_t(dev)] != 0; }  // after require_device(dev)

// The names are the Gram vocabulary's (results/gram_names.hpp); an unknown one is the caller's ValueError.
std::string joined_names(bool precs) {
  std::string o;
  if (precs)
    for (gram::Prec p : gram::kPrecs) o += (o.empty() ? "'" : ", '") + std::string(gram::name(p)) + "'";
  else
    for (gram::Out x : gram::kOuts) o += (o.empty() ? "" : ", ") + std::string(gram::name(x));
  return o;
}
gram::Prec prec_of(const std::string& s) {
  try {
    return gram::prec_of(s);
  } catch (const std::invalid_argument&) {
    throw nb::value_error(("precision must be one of " + joined_names(true) + " (got '" + s + "')").c_str());
  }
}
gram::Out out_of(const std::string& s) {
  for (gram::Out o : gram::kOuts)
    if (s == gram::name(o)) return o;
  throw nb::value_error(("unknown output '" + s + "' (" + joined_names(false) + ")").c_str());
}

// The one table of which kernel runs which output (the fastest on an H200:
// experiments/results/h200/gram.csv). sm90: the device runs the sm_90a kernels (gram::sm90_runs).
// product: the Gram product X X^T itself (tdmaps.gram), not distances.
gram::Kernel kernel_for(gram::Out o, gram::Prec p, i64 N, bool sm90, bool product = false) {
  using gram::Kernel;
  switch (o) {
    case gram::Out::lower:
      if (sm90 && gram::sm90_evt_refusal(p, o, N).empty()) return Kernel::sm90_evt;
      return sm90 ? Kernel::sm90_ws : Kernel::classic;
    case gram::Out::hist: return sm90 ? Kernel::sm90_ws : Kernel::sm80_8w;
    case gram::Out::mirror:  // sm90-evt's mirror (two TMA stores a tile): 1.8x sm80-8w at N = 32768, d = 128
      if (sm90 && gram::sm90_evt_refusal(p, o, N, product).empty()) return Kernel::sm90_evt;
      return Kernel::sm80_8w;
    case gram::Out::condensed:  // sm90-evt's condensed (stores from the registers, no D)
      if (sm90 && gram::sm90_evt_refusal(p, o, N, product).empty()) return Kernel::sm90_evt;
      return Kernel::sm80_8w;
    case gram::Out::count:  // sm90-ws 0.75 s, sm80-8w 1.89 s, classic 1.81 s (N = 10^6, d = 128, gram.csv)
    case gram::Out::count_exact:  // count / hist: sm90-ws 3.06 s / 3.92 s, classic 3.69 s / 8.78 s (gram_exact.csv, centered)
    case gram::Out::hist_exact: return sm90 ? Kernel::sm90_ws : Kernel::sm80_8w;
    case gram::Out::minmax: return Kernel::sm80_8w;
  }
  return Kernel::classic;
}
std::string kernel_name(const std::string& out, const std::string& prec, i64 N, int dev) {
  require_device(dev);
  DeviceGuard g(dev);
  return gram::name(kernel_for(out_of(out), prec_of(prec), N, sm90_runs_on(dev)));
}

// N within the LTM-E tile map's range: checked before any allocation (gram::run would throw later).
void require_tiles(i64 N) {
  try {
    (void)gram::launched_tiles(gram::Sched::ltm_e, N);
  } catch (const std::exception& e) {
    throw nb::value_error(("N = " + std::to_string(N) + " is past the range of the LTM-E tile map: " + e.what()).c_str());
  }
}

// Free device memory of `dev` (cudaMemGetInfo), for the Python layer's check before it allocates.
std::size_t free_bytes(int dev) {
  require_device(dev);
  DeviceGuard g(dev);
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

// Waits for the work queued on `s` with the GIL released; every 20 ms takes the GIL back to look
// for a signal. On Ctrl-C, KeyboardInterrupt is raised at once; the kernels run on, and the outputs
// hold whatever they wrote by then (the workspace, the caller's framework's, is stream-ordered: its
// next user on this stream starts after them).
void wait_interruptible(cudaStream_t s) {
  cudaEvent_t done = nullptr;
  check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
  cudaError_t e = cudaEventRecord(done, s);
  if (e != cudaSuccess) {
    cudaEventDestroy(done);
    check(e, "cudaEventRecord");
  }
  bool interrupted = false;
  {
    nb::gil_scoped_release nogil;
    const auto start = std::chrono::steady_clock::now();
    auto last = start;
    while ((e = cudaEventQuery(done)) == cudaErrorNotReady) {
      // the first 0.5 ms by spinning (a sleep lasts 50 us or more on Linux: a short call would end late by
      // that), then naps of 50 us
      if (std::chrono::steady_clock::now() - start > std::chrono::microseconds(500))
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      if (std::chrono::steady_clock::now() - last > std::chrono::milliseconds(20)) {
        nb::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
          interrupted = true;
          break;
        }
        last = std::chrono::steady_clock::now();
      }
    }
  }
  cudaEventDestroy(done);
  if (interrupted) throw nb::python_error();
  check(e, "the kernels");
}

cudaStream_t stream_of(std::uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }
const float* points(std::uintptr_t x) { return reinterpret_cast<const float*>(x); }

// One call's input: N x d float32 points x on device dev, the caller's stream, and the workspace the Python layer
// allocated with the caller's framework (operand_bytes bytes: prepare's operands, no allocation here).
struct Input {
  std::uintptr_t x;
  i64 N;
  int d;
  gram::Prec prec;
  std::uintptr_t workspace;  // 0: the device's cached workspace (Workspace)
  std::uintptr_t stream;
  int dev;
};

// The workspace of the calls whose operands fit in workspace_cache_bytes: one cudaMalloc a device, kept and grown,
// so that a short call allocates nothing. Every use waits on the stream for the previous use's work (an event,
// whichever stream that was) and records its own; a call that finds it taken (another thread, during this call's
// allocation callback) gets a framework allocation instead (the Python layer passes one when ws bytes exceed the cap).
constexpr std::size_t workspace_cache_bytes = std::size_t(64) << 20;
struct Workspace {
  void* p = nullptr;
  std::size_t bytes = 0;
  cudaEvent_t last = nullptr;
  bool busy = false;
};
std::vector<Workspace>& workspaces() {
  static std::vector<Workspace> v;
  return v;
}
// The cached workspace of `dev` (current device) for `bytes` on stream s, or nullptr where it is taken or too small a cap.
void* take_workspace(int dev, std::size_t bytes, cudaStream_t s) {
  if (bytes > workspace_cache_bytes) return nullptr;
  auto& all = workspaces();
  if (int(all.size()) <= dev) all.resize(size_t(dev) + 1);
  Workspace& w = all[size_t(dev)];
  if (w.busy) return nullptr;
  if (!w.last) check(cudaEventCreateWithFlags(&w.last, cudaEventDisableTiming), "cudaEventCreate");
  if (w.bytes < bytes) {
    if (w.p) {
      check(cudaEventSynchronize(w.last), "cudaEventSynchronize");
      check(cudaFree(w.p), "cudaFree");
      w.p = nullptr;
      w.bytes = 0;
    }
    const std::size_t n = std::max<std::size_t>(bytes, std::size_t(1) << 20);
    check(cudaMalloc(&w.p, n), "cudaMalloc (the workspace)");
    w.bytes = n;
  }
  check(cudaStreamWaitEvent(s, w.last, 0), "cudaStreamWaitEvent");  // the previous use's kernels first
  w.busy = true;
  return w.p;
}
// Holds the cached workspace for one call (given back on every exit, its event recorded after the call's work).
struct WorkspaceLease {
  int dev;
  cudaStream_t s;
  void* p;
  WorkspaceLease(int dev_, std::size_t bytes, cudaStream_t s_) : dev(dev_), s(s_), p(take_workspace(dev_, bytes, s_)) {}
  ~WorkspaceLease() {
    if (p) {
      Workspace& w = workspaces()[size_t(dev)];
      w.busy = false;
      cudaEventRecord(w.last, s);
    }
  }
};
bool is_distances(const gram::Request& r) {
  return !r.product && (r.out == gram::Out::lower || r.out == gram::Out::condensed || r.out == gram::Out::mirror);
}

// Every tensor-core call's GPU work, queued on the stream, asynchronous: prepare into the workspace, the kernel
// (kernel_for's), lower's upper part zeroed, and NaN for the pairs of a non-finite point (distances), or the
// non-finite flag (the reductions: their callers wait and read it). The same for pdist and time_distances.
gram::Prepared enqueue_prepare(const Input& in) {
  gram::Prepared p;
  check(gram::prepare(in.prec, points(in.x), in.N, in.d, p, stream_of(in.stream), reinterpret_cast<void*>(in.workspace)),
        "gram::prepare");
  return p;
}
gram::Prepared enqueue_run(const Input& in, const gram::Prepared& p, gram::Request r) {
  r.sched = gram::Sched::ltm_e;
  r.kernel = kernel_for(r.out, in.prec, in.N, sm90_runs_on(in.dev), r.product);
  const cudaStream_t s = stream_of(in.stream);
  cudaError_t e;
  try {
    e = gram::run(p, r, s);
    if (e == cudaErrorInvalidValue && r.kernel == gram::Kernel::sm90_evt) {  // a shape sm90-evt refuses
      r.kernel = r.out == gram::Out::mirror ? gram::Kernel::sm80_8w : gram::Kernel::sm90_ws;
      e = gram::run(p, r, s);
    }
  } catch (const tdmaps::unsupported& ex) {
    throw nb::value_error(("N = " + std::to_string(in.N) + " is past the tile map's range: " + ex.what()).c_str());
  }
  check(e, (std::string("gram::run (") + gram::name(r.out) + ", " + gram::name(r.kernel) + ")").c_str());
  if (r.out == gram::Out::lower) check(gram::zero_upper(r.dst, in.N, s), "gram::zero_upper");  // j >= i: 0
  if (is_distances(r)) check(gram::nan_nonfinite_pairs(p, r, s), "gram::nan_nonfinite_pairs");
  else check(gram::flag_nonfinite_norms(p, p.flag, s), "gram::flag_nonfinite_norms");
  return p;
}
gram::Prepared enqueue(const Input& in, const gram::Request& r) { return enqueue_run(in, enqueue_prepare(in), r); }

Input input_of(std::uintptr_t x, i64 N, int d, const std::string& prec, std::uintptr_t ws, std::uintptr_t stream, int dev) {
  require_device(dev);
  require_tiles(N);
  return Input{x, N, d, prec_of(prec), ws, stream, dev};
}

// Distances (or, r.product, the Gram matrix) into an output that `alloc(dst)` makes (returns the array, sets dst to
// its device pointer), called once the preparation is queued, so that the GPU prepares while the host allocates.
// Asynchronous as a PyTorch operation: returns the array once the work is queued on the stream. in.workspace: the
// framework's workspace, or 0 for the device's cached one. The GPU work of every pdist and gram call (distances(),
// torch_distances()); time_distances() queues the same through enqueue().
template <class Alloc> nb::object queue_distances(Input in, gram::Request r, Alloc&& alloc) {
  DeviceGuard g(in.dev);
  std::optional<WorkspaceLease> lease;
  if (!in.workspace) {  // the cached one; where it is taken, prepare's own (freed below: cudaFree waits for the GPU)
    lease.emplace(in.dev, gram::operand_bytes(in.prec, in.N, in.d), stream_of(in.stream));
    in.workspace = reinterpret_cast<std::uintptr_t>(lease->p);
  }
  struct Own {
    gram::Prepared p;
    ~Own() { gram::release(p); }
  } own;
  own.p = enqueue_prepare(in);
  std::uintptr_t dst = 0;
  nb::object made = alloc(dst);
  r.dst = reinterpret_cast<float*>(dst);
  (void)enqueue_run(in, own.p, r);
  return made;
}

// Distances (or, product, the Gram matrix) for the Python layer's general path (any framework): the output comes
// from `alloc()` (the caller's framework: a pair (array, device pointer)). Returns the array.
nb::object distances(std::uintptr_t x, i64 N, int d, const std::string& prec, const std::string& out, bool take_sqrt,
                     bool product, nb::callable alloc, std::uintptr_t ws, std::uintptr_t stream, int dev) {
  Input in = input_of(x, N, d, prec, ws, stream, dev);
  gram::Request r;
  r.out = out_of(out);
  if (r.out != gram::Out::lower && r.out != gram::Out::condensed && r.out != gram::Out::mirror)
    throw nb::value_error("distances: out must be lower, condensed or mirror");
  r.take_sqrt = take_sqrt;
  r.product = product;
  return queue_distances(in, r, [&](std::uintptr_t& dst) {
    const nb::tuple made = nb::cast<nb::tuple>(alloc());
    dst = nb::cast<std::uintptr_t>(made[1]);
    return nb::object(made[0]);
  });
}

// ---- PyTorch's fast path (issue #38: the binding's host time) -----------------------------------------
// pdist and gram on a torch.Tensor (exactly that type) that passes every check of the general path: float32, on a
// CUDA device that require_device already found good, 2-D, N >= 2, d >= 1, C-contiguous, N within the tile map, the
// operands within the cached workspace and the call's memory within _arrays.CHECKED_BYTES (need_memory asks nothing
// there). The tensor is read here (its attributes by interned names, torch.float32 compared by identity), the stream
// comes from PyTorch's raw-stream function, the output from x.new_empty(sizes) (float32 on x's device, as the
// general path's torch.empty), everything that does not change set once by torch_setup. Anything else (another
// type, a check that fails, an attribute that cannot be read) returns None before any GPU work, and the Python layer
// takes its general path, which raises the general path's errors: the fast path raises only what a call that
// passed the checks raises there (CUDA errors, the allocator's refusal as _arrays' MemoryError, gram's
// check_values).
struct TorchPath {
  PyObject* tensor = nullptr;        // torch.Tensor
  PyObject* float32 = nullptr;       // torch.float32
  PyObject* stream = nullptr;        // torch._C._cuda_getCurrentRawStream: dev -> the current stream's handle
  PyObject* refused = nullptr;       // _arrays.empty_refused(e, dev, shape, dtype): raises e, or it as MemoryError
  PyObject* check_values = nullptr;  // _arrays.check_torch_values(x, d, precision): gram's refusal of non-finite x
  std::size_t checked_bytes = 0;     // _arrays.CHECKED_BYTES
  PyObject *s_dtype, *s_is_cuda, *s_shape, *s_is_contiguous, *s_get_device, *s_data_ptr, *s_new_empty, *s_float32;
  PyObject* precs[std::size(gram::kPrecs)];  // their names, interned (the Python layer's literals are the same objects)
  PyObject *s_condensed, *s_lower, *s_square;
};
TorchPath* torch_path = nullptr;  // set by torch_setup (__init__.py, where PyTorch is installed); never freed

PyObject* interned(const char* s) {
  PyObject* o = PyUnicode_InternFromString(s);
  if (!o) throw nb::python_error();
  return o;
}
void torch_setup(nb::handle tensor, nb::handle float32, nb::callable stream, nb::callable refused,
                 nb::callable check_values, std::size_t checked_bytes) {
  auto* t = new TorchPath;
  t->tensor = nb::borrow(tensor).release().ptr();
  t->float32 = nb::borrow(float32).release().ptr();
  t->stream = nb::borrow(stream).release().ptr();
  t->refused = nb::borrow(refused).release().ptr();
  t->check_values = nb::borrow(check_values).release().ptr();
  t->checked_bytes = checked_bytes;
  t->s_dtype = interned("dtype");
  t->s_is_cuda = interned("is_cuda");
  t->s_shape = interned("shape");
  t->s_is_contiguous = interned("is_contiguous");
  t->s_get_device = interned("get_device");
  t->s_data_ptr = interned("data_ptr");
  t->s_new_empty = interned("new_empty");
  t->s_float32 = interned("float32");
  for (size_t k = 0; k < std::size(gram::kPrecs); ++k) t->precs[k] = interned(gram::name(gram::kPrecs[k]));
  t->s_condensed = interned("condensed");
  t->s_lower = interned("lower");
  t->s_square = interned("square");
  torch_path = t;  // a second setup (tests) replaces the first, which stays (a few objects)
}

// A str equal to `name` (interned: the same object as the Python layer's literal, else compared by value).
bool is_name(PyObject* s, PyObject* name) {
  return s == name || (PyUnicode_CheckExact(s) && PyUnicode_Compare(s, name) == 0);
}
// New references, released on every exit.
struct Ref {
  PyObject* o;
  explicit Ref(PyObject* p) : o(p) {}
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  ~Ref() { Py_XDECREF(o); }
};
PyObject* call_method(PyObject* x, PyObject* name) {
  PyObject* args[1] = {x};
  return PyObject_VectorcallMethod(name, args, 1 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
}
// An int that fits i64, or false (the error cleared).
bool as_i64(PyObject* o, i64& v) {
  if (!o || !PyLong_Check(o)) return false;
  int overflow = 0;
  const long long r = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || (r == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  v = r;
  return true;
}

// What the fast path reads of x: the general path's Points (N, d, dev, ptr) and stream, where every check passes.
struct TorchView {
  i64 N = 0, d = 0, dev = -1;
  std::uintptr_t ptr = 0, stream = 0;
};
// Reads x; false (any Python error cleared) where the fast path does not apply.
bool torch_view(const TorchPath& t, PyObject* x, TorchView& v) {
  if (Py_TYPE(x) != reinterpret_cast<PyTypeObject*>(t.tensor)) return false;
  bool ok;
  {
    Ref dt(PyObject_GetAttr(x, t.s_dtype));
    ok = dt.o == t.float32;
  }
  if (ok) {
    Ref cuda(PyObject_GetAttr(x, t.s_is_cuda));
    ok = cuda.o == Py_True;
  }
  if (ok) {
    Ref shape(PyObject_GetAttr(x, t.s_shape));  // torch.Size, a tuple
    ok = shape.o && PyTuple_Check(shape.o) && PyTuple_GET_SIZE(shape.o) == 2 &&
         as_i64(PyTuple_GET_ITEM(shape.o, 0), v.N) && as_i64(PyTuple_GET_ITEM(shape.o, 1), v.d) && v.N >= 2 &&
         v.d >= 1 && v.d <= INT32_MAX;
  }
  if (ok) {
    // with N >= 2 and d >= 1, is_contiguous() is the general path's test exactly (strides (d, 1); d's stride free
    // where d = 1): PyTorch skips the strides of the dimensions of size 1
    Ref c(call_method(x, t.s_is_contiguous));
    ok = c.o == Py_True;
  }
  if (ok) {
    Ref dev(call_method(x, t.s_get_device));
    ok = as_i64(dev.o, v.dev) && device_known_good(v.dev);  // else the general path: require_device's checks
    if (ok) {
      Ref s(PyObject_CallOneArg(t.stream, dev.o));
      i64 h = 0;
      ok = as_i64(s.o, h);
      v.stream = std::uintptr_t(h);
    }
  }
  if (ok) {
    Ref p(call_method(x, t.s_data_ptr));
    i64 h = 0;
    ok = as_i64(p.o, h);
    v.ptr = std::uintptr_t(h);
  }
  if (!ok && PyErr_Occurred()) PyErr_Clear();
  return ok;
}

// The fast path's call: None where it does not apply (the general path then).
nb::object torch_distances(const TorchPath& t, nb::handle x, gram::Prec prec, gram::Out out, bool take_sqrt, bool product,
                           nb::handle precision) {
  TorchView v;
  if (!torch_view(t, x.ptr(), v)) return nb::none();
  try {
    (void)gram::launched_tiles(gram::Sched::ltm_e, v.N);
  } catch (const std::exception&) {
    return nb::none();  // require_tiles' refusal, from the general path
  }
  const std::size_t nws = gram::operand_bytes(prec, v.N, int(v.d));
  const std::size_t cells = std::size_t(out == gram::Out::condensed ? v.N * (v.N - 1) / 2 : v.N * v.N);
  if (nws > workspace_cache_bytes || nws + 4 * cells > t.checked_bytes) return nb::none();  // _workspace, need_memory
  if (product) {  // gram: check_values, as the general path's, before any GPU work
    Ref r(PyObject_CallFunction(t.check_values, "OLO", x.ptr(), (long long)v.d, precision.ptr()));
    if (!r.o) throw nb::python_error();
  }
  gram::Request r;
  r.out = out;
  r.take_sqrt = take_sqrt;
  r.product = product;
  const Input in{v.ptr, v.N, int(v.d), prec, 0, v.stream, int(v.dev)};
  return queue_distances(in, r, [&](std::uintptr_t& dst) {
    // x.new_empty(cells) or x.new_empty(N, N): the sizes as separate ints (PyTorch parses a tuple of them slower)
    const bool condensed = out == gram::Out::condensed;
    nb::object n = nb::steal(PyLong_FromLongLong(condensed ? (long long)cells : (long long)v.N));
    if (!n.is_valid()) throw nb::python_error();
    PyObject* args[3] = {x.ptr(), n.ptr(), n.ptr()};
    PyObject* a = PyObject_VectorcallMethod(t.s_new_empty, args, (condensed ? 2 : 3) | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                            nullptr);
    if (!a) {  // the allocator's refusal: as the general path's Points.empty
      nb::python_error e;  // fetched (the indicator cleared)
      nb::object shape = condensed ? nb::object(nb::make_tuple(cells)) : nb::object(nb::make_tuple(v.N, v.N));
      Ref again(PyObject_CallFunction(t.refused, "OLOO", e.value().ptr(), (long long)v.dev, shape.ptr(), t.s_float32));
      if (again.o) throw e;  // (empty_refused always raises)
      throw nb::python_error();
    }
    nb::object made = nb::steal(a);
    Ref p(call_method(a, t.s_data_ptr));
    i64 h = 0;
    if (!as_i64(p.o, h)) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "tdmaps: the output's data_ptr() is not an int");
      throw nb::python_error();
    }
    dst = std::uintptr_t(h);
    return made;
  });
}
gram::Prec fast_prec(const TorchPath& t, PyObject* s, bool& ok) {
  for (size_t k = 0; k < std::size(gram::kPrecs); ++k)
    if (is_name(s, t.precs[k])) return gram::kPrecs[k];
  ok = false;
  return gram::Prec::tf32;
}
// pdist(x, squared=squared, precision=precision, out=out) on the fast path, or None.
nb::object torch_pdist(nb::handle x, nb::handle precision, nb::handle out, nb::handle squared) {
  if (!torch_path) return nb::none();
  const TorchPath& t = *torch_path;
  bool ok = true;
  const gram::Prec prec = fast_prec(t, precision.ptr(), ok);
  gram::Out o = gram::Out::condensed;
  if (is_name(out.ptr(), t.s_lower)) o = gram::Out::lower;
  else if (is_name(out.ptr(), t.s_square)) o = gram::Out::mirror;
  else if (!is_name(out.ptr(), t.s_condensed)) ok = false;
  if (!ok) return nb::none();
  const int sq = PyObject_IsTrue(squared.ptr());
  if (sq < 0) {
    PyErr_Clear();
    return nb::none();
  }
  return torch_distances(t, x, prec, o, sq == 0, false, precision);
}
// gram(x, precision=precision) on the fast path, or None.
nb::object torch_gram(nb::handle x, nb::handle precision) {
  if (!torch_path) return nb::none();
  bool ok = true;
  const gram::Prec prec = fast_prec(*torch_path, precision.ptr(), ok);
  if (!ok) return nb::none();
  return torch_distances(*torch_path, x, prec, gram::Out::mirror, false, true, precision);
}
// The fast path's reading of x (tests, experiments/peers/python_overhead.py): (N, d, dev, ptr, stream) or None.
nb::object torch_view_of(nb::handle x) {
  TorchView v;
  if (!torch_path || !torch_view(*torch_path, x.ptr(), v)) return nb::none();
  return nb::make_tuple(v.N, v.d, v.dev, v.ptr, v.stream);
}

// A reduction (hist, count, minmax): queued, waited for (Ctrl-C returns), then refused where x was not finite.
void reduce(const Input& in, const gram::Request& r, int dev) {
  DeviceGuard g(dev);
  if (r.out == gram::Out::hist && (r.buckets < 1 || r.buckets > gram::max_buckets(in.prec)))
    throw nb::value_error(("bins = " + std::to_string(r.buckets) + " is more than the " +
                           std::to_string(gram::max_buckets(in.prec)) +
                           " buckets the fused histogram holds; use fewer bins or exact=True").c_str());
  Input use = in;
  std::optional<WorkspaceLease> lease;
  if (!use.workspace) {  // as in distances()
    lease.emplace(dev, gram::operand_bytes(in.prec, in.N, in.d), stream_of(in.stream));
    use.workspace = reinterpret_cast<std::uintptr_t>(lease->p);
  }
  struct Own {
    gram::Prepared p;
    ~Own() { gram::release(p); }
  } own;
  own.p = enqueue(use, r);
  const gram::Prepared& p = own.p;
  wait_interruptible(stream_of(in.stream));
  unsigned flag = 0;
  check(cudaMemcpy(&flag, p.flag, sizeof flag, cudaMemcpyDeviceToHost), "cudaMemcpy");
  if (flag) {
    const std::string why = std::string("x holds NaN or Inf, or values whose squared norms overflow float32") +
                            (in.prec == gram::Prec::fp16 ? " (or, for fp16, values past its largest 65504)" : "") +
                            "; tdmaps refuses them (their distances would be wrong, not NaN): drop, replace or "
                            "scale those rows first";
    throw nb::value_error(why.c_str());
  }
}
void histogram(std::uintptr_t x, i64 N, int d, const std::string& prec, int buckets, float lo, float width,
               std::uintptr_t hist, std::uintptr_t ws, std::uintptr_t stream, int dev) {
  gram::Request r;
  r.out = gram::Out::hist;
  r.buckets = buckets;
  r.lo = lo;
  r.width = width;
  r.hist = reinterpret_cast<unsigned long long*>(hist);
  reduce(input_of(x, N, d, prec, ws, stream, dev), r, dev);
}
void radius_count(std::uintptr_t x, i64 N, int d, const std::string& prec, float eps2, std::uintptr_t counts,
                  std::uintptr_t total, std::uintptr_t ws, std::uintptr_t stream, int dev) {
  gram::Request r;
  r.out = gram::Out::count;
  r.eps2 = eps2;
  r.counts = reinterpret_cast<unsigned*>(counts);
  r.total = reinterpret_cast<unsigned long long*>(total);
  reduce(input_of(x, N, d, prec, ws, stream, dev), r, dev);
}
void minmax(std::uintptr_t x, i64 N, int d, const std::string& prec, std::uintptr_t out2, std::uintptr_t ws,
            std::uintptr_t stream, int dev) {
  gram::Request r;
  r.out = gram::Out::minmax;
  r.minmax = reinterpret_cast<float*>(out2);
  reduce(input_of(x, N, d, prec, ws, stream, dev), r, dev);
}

// The same work as one pdist call, queued by one C++ call (issue #38): each call of an Enqueue is enqueue() alone (the
// GPU work of distances(): prepare, kernel, zero_upper, NaN pass), its workspace and the output `dst` allocated once.
// python_peers times it between the same CUDA events, recorded from Python, as the Python call, so that the
// difference is the binding's host time alone; time_distances (below) records its events from C++.
struct Enqueue {
  Input in;
  gram::Request r;
  void* ws = nullptr;
  Enqueue(std::uintptr_t x, i64 N, int d, const std::string& prec, const std::string& out, bool take_sqrt,
          std::uintptr_t dst, std::uintptr_t stream, int dev)
      : in(input_of(x, N, d, prec, 0, stream, dev)) {
    r.out = out_of(out);
    if (r.out != gram::Out::lower && r.out != gram::Out::condensed && r.out != gram::Out::mirror)
      throw nb::value_error("Enqueue: out must be lower, condensed or mirror");
    r.take_sqrt = take_sqrt;
    r.dst = reinterpret_cast<float*>(dst);
    DeviceGuard g(dev);
    check(cudaMalloc(&ws, gram::operand_bytes(in.prec, N, d)), "cudaMalloc");
    in.workspace = reinterpret_cast<std::uintptr_t>(ws);
  }
  Enqueue(const Enqueue&) = delete;
  Enqueue& operator=(const Enqueue&) = delete;
  ~Enqueue() {
    DeviceGuard g(in.dev);
    cudaStreamSynchronize(stream_of(in.stream));
    cudaFree(ws);
  }
  void operator()() {
    DeviceGuard g(in.dev);
    (void)enqueue(in, r);
  }
};

// The same work as one pdist call, from C++ alone (the binding's overhead is the difference: issue #38): per rep,
// CUDA events recorded from C++ around one call of an Enqueue (below). ms of each of `reps` reps after `warmup`.
std::vector<double> time_distances(std::uintptr_t x, i64 N, int d, const std::string& prec, const std::string& out,
                                   bool take_sqrt, std::uintptr_t dst, int reps, int warmup, std::uintptr_t stream, int dev) {
  if (reps < 1 || warmup < 0) throw nb::value_error("time_distances: reps >= 1 and warmup >= 0");
  Enqueue q(x, N, d, prec, out, take_sqrt, dst, stream, dev);
  DeviceGuard g(dev);
  const cudaStream_t s = stream_of(stream);
  cudaEvent_t a = nullptr, b = nullptr;
  std::vector<double> ms;
  cudaError_t e = cudaEventCreate(&a);
  if (e == cudaSuccess) e = cudaEventCreate(&b);
  try {
    for (int k = 0; e == cudaSuccess && k < warmup + reps; ++k) {
      if ((e = cudaEventRecord(a, s)) != cudaSuccess) break;
      q();
      if ((e = cudaEventRecord(b, s)) != cudaSuccess || (e = cudaEventSynchronize(b)) != cudaSuccess) break;
      float t = 0;
      if ((e = cudaEventElapsedTime(&t, a, b)) != cudaSuccess) break;
      if (k >= warmup) ms.push_back(t);
    }
  } catch (...) {
    if (a) cudaEventDestroy(a);
    if (b) cudaEventDestroy(b);
    throw;  // q's destructor waits for the stream and frees its workspace
  }
  if (a) cudaEventDestroy(a);
  if (b) cudaEventDestroy(b);
  check(e, "time_distances");
  return ms;
}

#if defined(TDMAPS_PY_EXACT)
// The exact mode: float64 on the CUDA cores, no operands to prepare.
template <class F> void run_exact(i64 N, std::uintptr_t stream, int dev, const char* what, F&& launch) {
  require_device(dev);
  require_tiles(N);
  DeviceGuard g(dev);
  check(launch(stream_of(stream)), what);
  wait_interruptible(stream_of(stream));
}
void exact_histogram(std::uintptr_t x, i64 N, int d, std::uintptr_t edges, int bins, std::uintptr_t hist,
                     std::uintptr_t stream, int dev) {
  run_exact(N, stream, dev, "gram::exact::histogram", [&](cudaStream_t s) {
    return gram::exact::histogram(points(x), N, d, reinterpret_cast<const double*>(edges), bins,
                                  reinterpret_cast<unsigned long long*>(hist), s);
  });
}
void exact_radius_count(std::uintptr_t x, i64 N, int d, double eps, std::uintptr_t counts, std::uintptr_t total,
                        std::uintptr_t stream, int dev) {
  run_exact(N, stream, dev, "gram::exact::radius_count", [&](cudaStream_t s) {
    return gram::exact::radius_count(points(x), N, d, eps, reinterpret_cast<unsigned*>(counts),
                                     reinterpret_cast<unsigned long long*>(total), s);
  });
}
void exact_minmax(std::uintptr_t x, i64 N, int d, std::uintptr_t out2, std::uintptr_t stream, int dev) {
  run_exact(N, stream, dev, "gram::exact::minmax",
            [&](cudaStream_t s) { return gram::exact::minmax(points(x), N, d, reinterpret_cast<double*>(out2), s); });
}
#endif
#endif  // TDMAPS_PY_KERNELS

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "tdmaps' C++ core (nanobind): the map library's facts and, where built, the Gram kernels";
  m.def("maps_info", &maps_info, "map"_a, "N"_a, "rho"_a = nb::none());
  m.def("maps_range", &maps_range, "map"_a, "rho"_a = nb::none());
  m.def("maps_list", &maps_list);
  m.def("describe", &describe, "array"_a);
  m.attr("version") = TDMAPS_VERSION;
  // c_P for d features (NaN for a precision without one): the one definition, gram_bound.hpp, that the kernels use
  m.def("bound_coef", [](const std::string& prec, i64 d) { return gram::bound::coef(prec, d); }, "precision"_a, "d"_a);
  // the largest |value| of x a precision takes (fp16: 65504; NaN for a name without one): gram_bound.hpp's, beside c_P
  m.def("largest_value", [](const std::string& prec) { return gram::bound::largest(prec); }, "precision"_a);
  // tdmaps.pdist's out words, as the peers' CSV layout declares them (results/python_names.hpp): __init__.py holds its
  // own table (each word's kernel output) to them at import
  {
    nb::list outs;
    for (const char* o : results::python_peers::outputs) outs.append(nb::str(o));
    m.attr("pdist_outputs") = nb::tuple(outs);
  }
  // the precisions' names (tdmaps.PRECISIONS) and the default of every precision= : the Gram vocabulary's
  // (results/gram_names.hpp kPrecs, kDefaultPrec), interned as the Python layer's literals are (the fast path's is_name)
  {
    PyObject* names = PyTuple_New(Py_ssize_t(std::size(gram::kPrecs)));
    if (!names) throw nb::python_error();
    nb::tuple precisions = nb::steal<nb::tuple>(names);
    for (size_t k = 0; k < std::size(gram::kPrecs); ++k) {
      PyObject* s = PyUnicode_InternFromString(gram::name(gram::kPrecs[k]));
      if (!s) throw nb::python_error();
      PyTuple_SET_ITEM(names, Py_ssize_t(k), s);  // steals s
      if (gram::kPrecs[k] == gram::kDefaultPrec) m.attr("default_precision") = nb::borrow(s);
    }
    m.attr("precisions") = precisions;
  }
#if defined(TDMAPS_PY_KERNELS)
  m.attr("has_kernels") = true;
  m.attr("gpu_sass") = TDMAPS_GPU_SASS;
  m.attr("gpu_ptx") = TDMAPS_GPU_PTX;
  m.attr("sm90_built") = gram::sm90_built();
#if defined(TDMAPS_PY_EXACT)
  m.attr("has_exact") = true;
#else
  m.attr("has_exact") = false;
#endif
  m.def("require_device", &require_device, "dev"_a);
  m.def("kernel_for", &kernel_name, "out"_a, "precision"_a, "N"_a, "dev"_a);
  m.def("free_bytes", &free_bytes, "dev"_a);
  m.def("operand_bytes", [](const std::string& prec, i64 N, int d) { return gram::operand_bytes(prec_of(prec), N, d); });
  m.def("max_buckets", [](const std::string& prec) { return gram::max_buckets(prec_of(prec)); });
  m.attr("workspace_cache_bytes") = workspace_cache_bytes;
  m.def("require_tiles", &require_tiles, "N"_a);
  m.def("distances", &distances);
  m.def("histogram", &histogram);
  m.def("radius_count", &radius_count);
  m.def("minmax", &minmax);
  m.def("time_distances", &time_distances);
  nb::class_<Enqueue>(m, "Enqueue")
      .def(nb::init<std::uintptr_t, i64, int, const std::string&, const std::string&, bool, std::uintptr_t, std::uintptr_t, int>())
      .def("__call__", &Enqueue::operator());
  m.def("torch_setup", &torch_setup);
  m.def("torch_pdist", &torch_pdist);
  m.def("torch_gram", &torch_gram);
  m.def("torch_view", &torch_view_of);
#if defined(TDMAPS_PY_EXACT)
  m.def("exact_histogram", &exact_histogram);
  m.def("exact_radius_count", &exact_radius_count);
  m.def("exact_minmax", &exact_minmax);
#endif
#else
  m.attr("has_kernels") = false;
  m.attr("has_exact") = false;
  m.attr("sm90_built") = false;
#endif
}
