// examples/gram_sm90 — a user's own stock CUTLASS 3 GEMM (SM90, TMA warp-specialized) that computes
// only the lower-triangle tiles of a symmetric product, through the installed tdmaps/cutlass.hpp
// (issue #36).
//
// D = X X^T (X: N x d, row-major; no C, no norms) with a stock TF32 GEMM: float operands read by TMA,
// tfloat32 tensor-core MMA (wgmma), FP32 accumulation, a TMA-store epilogue; the kernel is
// cutlass::gemm::kernel::GemmUniversal built by the CollectiveBuilders, in two variants (ping-pong and
// cooperative). The only change from a plain GEMM: its tile-scheduler tag is
// tdmaps::cutlass_tiles::LowerTriangleScheduler<> (LTM-E), so the persistent CTAs walk the c(c+1)/2
// tiles J <= I of the c x c tile grid. Each variant is timed beside the same stock kernel over the
// full N x N square (CUTLASS's default persistent scheduler).
//
// Checked against a float64 CPU product, within the TF32 bound, on sampled cells (every cell when
// N <= 2048): cells of lower tiles, the partial edge tiles included (N % 128 != 0), and cells of
// tiles above the diagonal, which must keep the poison written before the run (never touched).
//
//   gram_sm90 [--N N] [--d d] [--reps r]   default N = 1000, d = 64, reps = 10
//     N, d: multiples of 4 (TMA: 16-byte rows), N in 4..131072, d in 4..8192; reps in 1..1000
// Output: one line per variant,
//   variant,N,d,tiles_lower,tiles_full,lower_ms,full_ms,full_over_lower,cells_checked,worst_rel_err,bound,above_written,status
// lower_ms / full_ms: median of reps launches (CUDA events, after 2 warm-ups).
// Exit 0: right; 1: wrong or a CUDA/CUTLASS failure; 2: bad arguments; 77: no SM90 GPU (one line).
#include <tdmaps/cutlass.hpp>

#include <cute/tensor.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if !defined(TDMAPS_CUTLASS_SM90)
#error "gram_sm90 needs the CUTLASS 3 headers (tdmaps/cutlass.hpp defines TDMAPS_CUTLASS_SM90 with them)"
#endif

namespace gram_example {  // named: nvcc's kernel stubs and cute's anonymous namespaces clash otherwise
using namespace cute;

constexpr int tile = 128;
using TileShape = Shape<_128, _128, _32>;  // square tiles (the scheduler requires it); 32 TF32 = 128-byte k rows
using ClusterShape = Shape<_1, _1, _1>;

// A plain CUTLASS 3 TF32 GEMM, D = A B^T with A = B = X (both K-major), D row-major, no C.
template <class KernelSchedule, class EpilogueSchedule, class SchedulerTag>
struct GemmOf {
  using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float,  // accumulator, compute
      void, cutlass::layout::RowMajor, 4,                              // no C
      float, cutlass::layout::RowMajor, 4,                             // D
      EpilogueSchedule>::CollectiveOp;
  using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, float, cutlass::layout::RowMajor, 4,  // A = X
      float, cutlass::layout::ColumnMajor, 4,                                                    // B = X^T
      float, TileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<int(sizeof(typename Epilogue::SharedStorage))>,
      KernelSchedule>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue, SchedulerTag>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
};

using Lower = tdmaps::cutlass_tiles::LowerTriangleScheduler<>;  // LTM-E, in bands of 8 tile rows (the default)
using Stock = void;                                              // CUTLASS's default persistent scheduler
using PingK = cutlass::gemm::KernelTmaWarpSpecializedPingpong;
using PingE = cutlass::epilogue::TmaWarpSpecialized;
using CoopK = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using CoopE = cutlass::epilogue::TmaWarpSpecializedCooperative;

#define CHECK(call)                                                                            \
  do {                                                                                         \
    const cudaError_t e_ = (call);                                                             \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "gram_sm90: %s: %s\n", #call, cudaGetErrorString(e_));             \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

// Our own gather of sampled cells (a few thousand), so the N x N result never crosses to the host.
__global__ void gather(const float* D, long long ld, const long long* cells, float* out, int n) {
  const int k = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (k < n) out[k] = D[cells[2 * k] * ld + cells[2 * k + 1]];
}

struct Problem {
  long long N = 0, d = 0;
  const float* X = nullptr;  // device
  float* D = nullptr;        // device, N x N, ld N
  int sms = 0;
};

// One GEMM object, initialized once; run() launches it (no host work in the timed loop).
template <class G>
struct Runner {
  using Gemm = typename G::Gemm;
  Gemm gemm;
  void* workspace = nullptr;

  // Empty: ready; else the reason (one line).
  std::string init(const Problem& p) {
    using K = typename G::Kernel;
    typename K::StrideA sa{};
    typename K::StrideB sb{};
    typename K::StrideD sd{};
    get<0>(sa) = p.d;
    get<0>(sb) = p.d;
    get<0>(sd) = p.N;
    typename Gemm::Arguments args{};
    args.mode = cutlass::gemm::GemmUniversalMode::kGemm;
    args.problem_shape = {int(p.N), int(p.N), int(p.d), 1};
    args.mainloop.ptr_A = p.X;
    args.mainloop.dA = sa;
    args.mainloop.ptr_B = p.X;
    args.mainloop.dB = sb;
    args.epilogue.thread.alpha = 1.0f;
    args.epilogue.thread.beta = 0.0f;
    args.epilogue.ptr_C = nullptr;
    args.epilogue.ptr_D = p.D;
    args.epilogue.dD = sd;
    args.hw_info.device_id = 0;
    args.hw_info.sm_count = p.sms;
    if constexpr (std::is_same_v<typename K::TileSchedulerTag, Lower>) {
      const std::string why = tdmaps::cutlass_tiles::lower_triangle_refusal(args.problem_shape);
      if (!why.empty()) return why;
    }
    if (gemm.can_implement(args) != cutlass::Status::kSuccess) return "CUTLASS cannot run this size";
    const size_t ws = Gemm::get_workspace_size(args);
    if (ws) CHECK(cudaMalloc(&workspace, ws));
    const cutlass::Status s = gemm.initialize(args, workspace);
    if (s != cutlass::Status::kSuccess) return std::string("initialize: ") + cutlassGetStatusString(s);
    return {};
  }
  void launch() {
    const cutlass::Status s = gemm.run();
    if (s != cutlass::Status::kSuccess) {
      std::fprintf(stderr, "gram_sm90: the CUTLASS launch failed: %s\n", cutlassGetStatusString(s));
      std::exit(1);
    }
    CHECK(cudaGetLastError());
  }
  // Median of reps timed launches after 2 warm-ups (ms).
  double time(int reps) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int w = 0; w < 2; ++w) launch();
    std::vector<float> ms(size_t(reps), 0.0f);
    for (int r = 0; r < reps; ++r) {
      CHECK(cudaEventRecord(a));
      launch();
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      CHECK(cudaEventElapsedTime(&ms[size_t(r)], a, b));
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    std::sort(ms.begin(), ms.end());
    return reps % 2 ? ms[size_t(reps / 2)] : 0.5 * (ms[size_t(reps / 2 - 1)] + ms[size_t(reps / 2)]);
  }
  ~Runner() {
    if (workspace) cudaFree(workspace);
  }
};

struct Check {
  long long checked = 0, bad = 0, above_written = 0, above_checked = 0;
  double worst = 0;
};

// The sampled cells: all when N <= 2048; else edges (first/last rows and columns, the partial
// last tile row/column), the tile boundaries around the diagonal, and uniform random cells.
std::vector<long long> sample_cells(long long N) {
  std::vector<long long> cells;
  auto add = [&](long long i, long long j) {
    if (i >= 0 && j >= 0 && i < N && j < N) {
      cells.push_back(i);
      cells.push_back(j);
    }
  };
  if (N <= 2048) {
    for (long long i = 0; i < N; ++i)
      for (long long j = 0; j < N; ++j) add(i, j);
    return cells;
  }
  const long long last = (N - 1) / tile * tile;  // first row of the last (maybe partial) tile row
  const long long edges[] = {0, 1, tile - 1, tile, tile + 1, last - 1, last, last + 1, N - 2, N - 1};
  for (long long i : edges)
    for (long long j : edges) add(i, j);
  unsigned s = 36;
  auto rnd = [&](long long n) {
    s = s * 1664525u + 1013904223u;
    const unsigned hi = s >> 8;
    s = s * 1664525u + 1013904223u;
    return (long long)((((unsigned long long)hi << 24) | (s >> 8)) % (unsigned long long)n);
  };
  for (int k = 0; k < 4096; ++k) {  // around the diagonal: the diagonal tile's last column, the next tile's first
    const long long i = rnd(N), t = i / tile * tile;
    add(i, t + tile - 1);
    add(i, t + tile);
    add(i, t);
    add(i, t - 1);
  }
  for (int k = 0; k < 16384; ++k) add(rnd(N), rnd(N));
  for (int k = 0; k < 1024; ++k) {  // the partial last tile row and column
    add(last + rnd(N - last), rnd(N));
    add(rnd(N), last + rnd(N - last));
  }
  return cells;
}

// Reads the sampled cells of D back and checks them: a lower tile's cell against the float64
// product within the TF32 bound; a cell of a tile above the diagonal, when `lower`, against the poison.
Check check(const Problem& p, const std::vector<float>& X, const std::vector<long long>& cells, bool lower,
            double bound) {
  const int n = int(cells.size() / 2);
  long long* dc;
  float* dv;
  CHECK(cudaMalloc(&dc, cells.size() * sizeof(long long)));
  CHECK(cudaMalloc(&dv, size_t(n) * sizeof(float)));
  CHECK(cudaMemcpy(dc, cells.data(), cells.size() * sizeof(long long), cudaMemcpyHostToDevice));
  gather<<<(n + 255) / 256, 256>>>(p.D, p.N, dc, dv, n);
  CHECK(cudaGetLastError());
  std::vector<float> v(static_cast<size_t>(n));
  CHECK(cudaMemcpy(v.data(), dv, v.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dv));
  Check c;
  for (int k = 0; k < n; ++k) {
    const long long i = cells[size_t(2 * k)], j = cells[size_t(2 * k + 1)];
    uint32_t bits;
    std::memcpy(&bits, &v[size_t(k)], 4);
    if (lower && i / tile < j / tile) {  // a tile above the diagonal: never touched
      ++c.above_checked;
      c.above_written += bits != 0xffffffffu;
      continue;
    }
    double ref = 0, scale = 0;
    for (long long q = 0; q < p.d; ++q) {
      const double t = double(X[size_t(i * p.d + q)]) * double(X[size_t(j * p.d + q)]);
      ref += t;
      scale += std::fabs(t);
    }
    const double err = std::fabs(double(v[size_t(k)]) - ref) / (scale > 0 ? scale : 1.0);
    const bool ok = err <= bound;  // false for NaN
    c.worst = std::isnan(err) ? 1.0 : std::fmax(c.worst, err);
    c.bad += !ok;
    ++c.checked;
  }
  return c;
}

template <class GL, class GF>
bool variant(const char* name, const Problem& p, const std::vector<float>& X, const std::vector<long long>& cells,
             int reps) {
  const size_t bytes = size_t(p.N) * size_t(p.N) * sizeof(float);
  // TF32 operands: each within a relative 2^-10 (truncation), so a product within 2^-9 + 2^-20; FP32
  // accumulation of d terms adds at most (d + 1) 2^-23 of the sum of |products|.
  const double bound = std::ldexp(1.0, -9) + std::ldexp(1.0, -20) + double(p.d + 1) * std::ldexp(1.0, -23);
  const long long c = (p.N + tile - 1) / tile;

  Runner<GL> lower;
  std::string why = lower.init(p);
  if (!why.empty()) {
    std::fprintf(stderr, "gram_sm90: %s (lower tiles): %s\n", name, why.c_str());
    return false;
  }
  CHECK(cudaMemset(p.D, 0xff, bytes));  // poison: NaN, bits 0xffffffff
  lower.launch();
  CHECK(cudaDeviceSynchronize());
  const Check cl = check(p, X, cells, true, bound);
  const double lower_ms = lower.time(reps);

  Runner<GF> full;
  why = full.init(p);
  if (!why.empty()) {
    std::fprintf(stderr, "gram_sm90: %s (full square): %s\n", name, why.c_str());
    return false;
  }
  CHECK(cudaMemset(p.D, 0xff, bytes));
  full.launch();
  CHECK(cudaDeviceSynchronize());
  const Check cf = check(p, X, cells, false, bound);
  const double full_ms = full.time(reps);

  const bool ok = cl.bad == 0 && cl.above_written == 0 && cf.bad == 0 && cl.checked > 0;
  std::printf("%s,%lld,%lld,%lld,%lld,%.4f,%.4f,%.3f,%lld+%lld,%.2e,%.2e,%lld/%lld,%s\n", name, p.N, p.d,
              c * (c + 1) / 2, c * c, lower_ms, full_ms, full_ms / lower_ms, cl.checked + cl.above_checked,
              cf.checked, std::fmax(cl.worst, cf.worst), bound, cl.above_written, cl.above_checked,
              ok ? "ok" : "WRONG");
  if (!ok)
    std::fprintf(stderr, "gram_sm90: %s: lower tiles %lld of %lld cells off, %lld cells above written; full %lld off\n",
                 name, cl.bad, cl.checked, cl.above_written, cf.bad);
  return ok;
}

bool parse(int argc, char** argv, long long& N, long long& d, int& reps) {
  for (int a = 1; a < argc; a += 2) {
    if (a + 1 >= argc) return false;
    char* end = nullptr;
    const long long v = std::strtoll(argv[a + 1], &end, 10);
    if (!*argv[a + 1] || *end) return false;
    if (!std::strcmp(argv[a], "--N")) N = v;
    else if (!std::strcmp(argv[a], "--d")) d = v;
    else if (!std::strcmp(argv[a], "--reps")) reps = int(v < 0 || v > 1000 ? 0 : v);
    else return false;
  }
  return N >= 4 && N <= 131072 && N % 4 == 0 && d >= 4 && d <= 8192 && d % 4 == 0 && reps >= 1;
}
}  // namespace gram_example

int main(int argc, char** argv) {
  using namespace gram_example;
  long long N = 1000, d = 64;
  int reps = 10;
  if (!parse(argc, argv, N, d, reps)) {
    std::fprintf(stderr,
                 "gram_sm90: usage: gram_sm90 [--N N, a multiple of 4 in 4..131072] [--d d, a multiple of 4 in "
                 "4..8192] [--reps 1..1000]\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gram_sm90: SKIPPED, no GPU\n");
    return 77;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 9) {
    std::printf("gram_sm90: SKIPPED, %s is sm_%d%d; this example is built for sm_90a (Hopper) only\n", prop.name,
                prop.major, prop.minor);
    return 77;
  }
  const size_t dbytes = size_t(N) * size_t(N) * sizeof(float);
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (dbytes + size_t(N * d) * 4 + (size_t(64) << 20) > free_b) {
    std::fprintf(stderr, "gram_sm90: N=%lld needs %.1f GiB for D; the GPU has %.1f GiB free\n", N,
                 double(dbytes) / double(1ull << 30), double(free_b) / double(1ull << 30));
    return 2;
  }

  std::vector<float> X(size_t(N * d));
  unsigned s = 27;
  for (auto& v : X) v = float((s = s * 1664525u + 1013904223u) >> 8) / float(1u << 24);  // [0, 1)
  Problem p;
  p.N = N;
  p.d = d;
  p.sms = prop.multiProcessorCount;
  float *dX, *dD;
  CHECK(cudaMalloc(&dX, X.size() * sizeof(float)));
  CHECK(cudaMalloc(&dD, dbytes));
  CHECK(cudaMemcpy(dX, X.data(), X.size() * sizeof(float), cudaMemcpyHostToDevice));
  p.X = dX;
  p.D = dD;
  const std::vector<long long> cells = sample_cells(N);

  std::printf("# gram_sm90: %s, %d SMs; TF32 D = X X^T, tiles 128x128x32, lower tiles by tdmaps LTM-E vs the full square (stock scheduler)\n",
              prop.name, p.sms);
  std::printf("variant,N,d,tiles_lower,tiles_full,lower_ms,full_ms,full_over_lower,cells_checked,worst_rel_err,bound,above_written,status\n");
  bool ok = variant<GemmOf<PingK, PingE, Lower>, GemmOf<PingK, PingE, Stock>>("pingpong", p, X, cells, reps);
  ok = variant<GemmOf<CoopK, CoopE, Lower>, GemmOf<CoopK, CoopE, Stock>>("cooperative", p, X, cells, reps) && ok;
  CHECK(cudaFree(dX));
  CHECK(cudaFree(dD));
  return ok ? 0 : 1;
}
