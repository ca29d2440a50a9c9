// experiments/gram/bench_gram.cu — pairwise squared distances on the tensor cores over the
// triangle only (issue #27): our CUTLASS kernel (src/support/gram/) with its tile scheduler a tdmaps map
// (LTM-E over the lower tiles) and the same kernel on the c x c grid (bb-grid), against cuBLAS
// (GEMM TF32 and FP32, full N x N; SSYRK FP32, the triangle), each alone and plus the same
// epilogue as a second kernel, and the write bandwidth of the same run; all interleaved by the
// harness's timer, every output checked against the float64 CPU oracle first.
//
//   bench_gram [--N 32768,65536] [--d 64,128,256] [--prec tf32,3xtf32,bf16,fp16]
//              [--verify-max 1000] [--samples 4096] [--hist-N 0] [--reps 10] [--out DIR]
//              [--kernel classic,sm80-8w,sm90-ws,sm90-evt]
//
// Each kernel of --kernel (gram_api.hpp: Kernel) runs with both schedulers; a kernel other than
// classic names its rows' impl (tdmaps-ltm-e-<kernel>, bb-grid-<kernel>); sm90-ws and sm90-evt are left
// out, with a line, where they are not built or the GPU is not compute capability 9.0. sm90-evt (issue
// #36: stock CUTLASS 3 GEMM + the tdmaps scheduler + an epilogue visitor tree) runs TF32 and the outputs
// lower / lower-sqrt, condensed (LTM-E alone) and mirror (gram::sm90_evt_refusal; the rest is left out for it with
// one line each), and
// its second scheduler is CUTLASS's own over the whole square: rows "full-sm90-evt", outputs full /
// full-sqrt, every cell of N x N written and checked. Its small check runs at N = 132, not 129 (TMA
// stores rows of 16 bytes: N % 4 == 0).
// 1. Check (no timing), for each kernel: at N = --verify-max and 129 (partial edge tiles), d = 64 and 100 (K
//    padded), every precision x scheduler x output (lower, lower with sqrt, condensed, fused
//    histogram) against float64 over every pair, within the bound of src/support/gram/gram_cpu.hpp;
//    lower: the cells above the diagonal must stay unwritten.
// 2. Each timed (N, d): every variant runs once and is checked on --samples pairs against
//    float64 and against cuBLAS FP32 + epilogue (error columns), then all are timed
//    interleaved (bench::Interleaved).
// 3. --hist-N N: the fused histogram (TF32, d = --hist-d) at N points, verified on its first
//    --hist-verify points against the float64 histogram, timed with its bb-grid.
// CSV: <out>/<gpu_slug>/gram.csv (layout results::layout::gram).
#include <gram/gram_api.hpp>
#include <gram/gram_cpu.hpp>
#include <gram/gram_exact.hpp>

#include <bench/gpu.cuh>
#include <bench/predict.hpp>
#include <layouts.hpp>

#include "bench_gram_rows.hpp"  // the CSV row by column name (host only; verify/test_experiment_rows checks it)

#include <cublas_v2.h>

#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace tdmaps;
namespace po = boost::program_options;
namespace gc = gram_cpu;

namespace {

const char* cublas_name(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "cuBLAS error";
  }
}
#define TD_CUBLAS(call)                                                                              \
  do {                                                                                               \
    const cublasStatus_t st_ = (call);                                                               \
    if (st_ != CUBLAS_STATUS_SUCCESS) ::tdmaps::gpu::die(std::string(#call) + ": " + cublas_name(st_)); \
  } while (0)

// ---- the peers' epilogue and the helpers (plain CUDA) ---------------------------------------
__global__ void norms32(const float* X, i64 N, int d, float* n) {
  const i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float s = 0;
  for (int k = 0; k < d; ++k) s = fmaf(X[i * d + k], X[i * d + k], s);
  n[i] = s;
}
// Full N x N in place: G -> max(n_i + n_j - 2 G, 0) (G symmetric, so either layout).
__global__ void epilogue_full(float* G, const float* n, i64 N) {
  for (i64 row = blockIdx.y; row < N; row += gridDim.y) {
    const float ni = n[row];
    for (i64 j = i64(blockIdx.x) * blockDim.x + threadIdx.x; j < N; j += i64(gridDim.x) * blockDim.x)
      G[row * N + j] = fmaxf(ni + n[j] - 2.0f * G[row * N + j], 0.0f);
  }
}
// SSYRK's triangle (column-major lower = row-major upper: row a, columns b >= a), in place.
__global__ void epilogue_upper(float* G, const float* n, i64 N) {
  for (i64 row = blockIdx.y; row < N; row += gridDim.y) {
    const float ni = n[row];
    for (i64 j = row + i64(blockIdx.x) * blockDim.x + threadIdx.x; j < N; j += i64(gridDim.x) * blockDim.x)
      G[row * N + j] = fmaxf(ni + n[j] - 2.0f * G[row * N + j], 0.0f);
  }
}
__global__ void fill4(float4* p, i64 n4, float v) {
  for (i64 k = i64(blockIdx.x) * blockDim.x + threadIdx.x; k < n4; k += i64(gridDim.x) * blockDim.x)
    p[k] = make_float4(v, v, v, v);
}
__global__ void empty_blocks() {}
__global__ void gather(const float* src, const i64* idx, int n, float* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = src[idx[k]];
}

std::string pf(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

struct Dev {  // a device buffer, freed at scope end
  void* p = nullptr;
  size_t bytes = 0;
  Dev() = default;
  explicit Dev(size_t b) : bytes(b) { TD_CUDA(cudaMalloc(&p, b ? b : 1)); }
  ~Dev() { if (p) cudaFree(p); }
  Dev(const Dev&) = delete;
  Dev& operator=(const Dev&) = delete;
  template <class T> T* as() const { return static_cast<T*>(p); }
};

std::vector<gram::Kernel> g_kernels{gram::Kernel::classic};  // --kernel
// The CSV's names (results/gram_names.hpp, through gram_api.hpp): the impl column of our kernel under a
// scheduler is gram::impl_name(s, k), a precision's name gram::name(p) (parsed by gram::prec_of), the
// output column gram::name(gram::Output), the peers' rows gram::peer.
using gram::Output;
// The names of a list of the vocabulary (--prec, --kernel: what parse_names knows).
template <class E, size_t n> std::vector<std::string> names_of(const E (&list)[n]) {
  std::vector<std::string> v;
  for (E e : list) v.push_back(gram::name(e));
  return v;
}
// Them as one string, joined by sep (the options' defaults and help lines).
template <class E, size_t n> std::string names_joined(const E (&list)[n], const char* sep) {
  std::string s;
  for (E e : list) s += (s.empty() ? "" : sep) + std::string(gram::name(e));
  return s;
}

// Full check of one precision at (N, d) against float64: every pair, every scheduler and output.
// Returns the worst err / S seen; exits 1 on a failure.
// One fused-histogram launch of `kern` with scheduler `sc` into dH (zeroed first), compared with
// the float64 histogram h: pairs counted, pairs h holds, and pairs in another bucket (summed |H - h|).
using HistCompare = gc::HistCompare;  // gram_cpu.hpp: the comparison multi_hist --app gram makes too
// The fused histogram's request: B buckets of width w into dH (added to).
gram::Request hist_request(gram::Kernel kern, gram::Sched sc, int B, double w, Dev& dH) {
  gram::Request r;
  r.kernel = kern;
  r.sched = sc;
  r.out = gram::Out::hist;
  r.hist = dH.as<unsigned long long>();
  r.buckets = B;
  r.width = float(w);
  return r;
}
HistCompare run_hist(const gram::Prepared& op, gram::Kernel kern, gram::Sched sc, int B, double w, Dev& dH,
                     const gc::Hist& h) {
  TD_CUDA(cudaMemset(dH.p, 0, dH.bytes));
  TD_CUDA(gram::run(op, hist_request(kern, sc, B, w, dH)));
  std::vector<unsigned long long> H(static_cast<size_t>(B));
  TD_CUDA(cudaMemcpy(H.data(), dH.p, dH.bytes, cudaMemcpyDeviceToHost));
  return gc::compare(H, h.counts, h.edge);
}

// The outputs of our epilogue (kernels classic, sm80-8w, sm90-ws; sm90-evt its mirror and count; issues #37, #38), every pair against float64: mirror
// (d^2, d, and the product x_i.x_j: every cell of N x N within the bound, exactly symmetric, distances 0
// on the diagonal), count (per point and in total, within the pairs whose d^2 lies within the bound of
// eps^2) and minmax (within the bound of the float64 least / largest distance).
template <class Fail>
void check_extra(const gram::Prepared& op, gram::Kernel kern, const std::vector<float>& X, i64 N, int d,
                 const std::vector<double>& S, const std::vector<double>& ex, Fail&& fail) {
  const std::string pn = gram::name(op.prec), sn = gram::impl_name(gram::Sched::ltm_e, kern);
  const double coef = gc::bound_coef(pn, d);
  Dev dD(size_t(N * N) * 4);
  std::vector<float> D(size_t(N * N));
  const bool evt = kern == gram::Kernel::sm90_evt;  // what it refuses: gram::sm90_evt_refusal
  for (int mode = 0; mode < 3; ++mode) {  // d^2, d, product
    if (evt && !gram::sm90_evt_refusal(op.prec, gram::Out::mirror, N, mode == 2).empty()) continue;
    TD_CUDA(cudaMemset(dD.p, 0xff, dD.bytes));
    gram::Request r;
    r.kernel = kern;
    r.out = gram::Out::mirror;
    r.take_sqrt = mode == 1;
    r.product = mode == 2;
    r.dst = dD.as<float>();
    TD_CUDA(gram::run(op, r));
    TD_CUDA(cudaMemcpy(D.data(), dD.p, D.size() * 4, cudaMemcpyDeviceToHost));
    for (i64 i = 0; i < N; ++i)
      for (i64 j = 0; j < N; ++j) {
        const float v = D[size_t(i * N + j)];
        const std::string at = " mirror" + std::string(mode == 1 ? "-sqrt" : mode == 2 ? "-gram" : "") + " (" +
                               std::to_string(i) + "," + std::to_string(j) + ") ";
        if (std::memcmp(&v, &D[size_t(j * N + i)], 4) != 0) fail(sn + at + "differs from its transpose");
        const double sc = S[size_t(i * N + j)], e = ex[size_t(i * N + j)];
        if (mode < 2 && i == j && v != 0.0f) fail(sn + at + "is not 0 on the diagonal");
        bool ok;
        if (mode == 0) ok = std::fabs(double(v) - e) <= coef * sc;
        else if (mode == 1) ok = std::fabs(double(v) - std::sqrt(e)) <= std::sqrt(coef * sc) + std::ldexp(std::sqrt(e), -23);
        else ok = std::fabs(double(v) - gc::dot_exact(X.data(), d, i, j)) <= coef * sc;
        if (!ok) fail(sn + at + pf("%.9g", v) + " is outside the bound");
      }
  }
  // count: eps^2 = d / 6 (about half the pairs of the unit cube)
  const double eps2 = double(d) / 6;
  const gc::CountReference cref = gc::count_reference(X.data(), N, d, eps2, coef);
  double lo = INFINITY, hi = 0, smax = 0;
  for (i64 i = 1; i < N; ++i)
    for (i64 j = 0; j < i; ++j) {
      const double e = ex[size_t(i * N + j)];
      smax = std::max(smax, S[size_t(i * N + j)]);
      lo = std::min(lo, std::sqrt(e));
      hi = std::max(hi, std::sqrt(e));
    }
  Dev dC(size_t(N) * 4), dT(8);
  TD_CUDA(cudaMemset(dC.p, 0, dC.bytes));
  TD_CUDA(cudaMemset(dT.p, 0, dT.bytes));
  gram::Request r;
  r.kernel = kern;
  r.out = gram::Out::count;
  r.counts = dC.as<unsigned>();
  r.total = dT.as<unsigned long long>();
  r.eps2 = float(eps2);
  TD_CUDA(gram::run(op, r));
  std::vector<unsigned> got(static_cast<size_t>(N));
  unsigned long long got_total = 0;
  TD_CUDA(cudaMemcpy(got.data(), dC.p, dC.bytes, cudaMemcpyDeviceToHost));
  TD_CUDA(cudaMemcpy(&got_total, dT.p, 8, cudaMemcpyDeviceToHost));
  i64 bad = -1;
  if (!cref.admits(got, got_total, &bad))
    fail(bad >= 0 ? sn + " count: point " + std::to_string(bad) + ": " + std::to_string(got[size_t(bad)]) +
                        " neighbours, float64 " + std::to_string(cref.want[size_t(bad)]) + " (" +
                        std::to_string(cref.near[size_t(bad)]) + " pairs near eps)"
                  : sn + " count: " + std::to_string(got_total) + " pairs, float64 " + std::to_string(cref.want_total));
  if (evt) return;  // minmax: classic, sm80-8w and sm90-ws
  // minmax
  Dev dM(8);
  const float init[2] = {INFINITY, 0.0f};
  TD_CUDA(cudaMemcpy(dM.p, init, 8, cudaMemcpyHostToDevice));
  gram::Request m;
  m.kernel = kern;
  m.out = gram::Out::minmax;
  m.minmax = dM.as<float>();
  TD_CUDA(gram::run(op, m));
  float mm[2];
  TD_CUDA(cudaMemcpy(mm, dM.p, 8, cudaMemcpyDeviceToHost));
  const double tol = std::sqrt(coef * smax) + std::ldexp(hi, -20);
  if (!(std::fabs(mm[0] - lo) <= tol && std::fabs(mm[1] - hi) <= tol))
    fail(sn + " minmax: " + pf("%.9g", mm[0]) + ", " + pf("%.9g", mm[1]) + " vs float64 " + pf("%.9g", lo) + ", " + pf("%.9g", hi));
}

// The exact mode (gram_exact.hpp) against float64, bit for bit: the histogram by the edges (bins
// reaching past the largest distance, so that the last edge is met), the counts within eps and the
// least / largest distance. Points on a coarse grid, so that many distances fall exactly on an edge.
void check_exact(i64 N, int d, std::uint64_t seed) {
  std::vector<float> X = gc::points(N, d, seed);
  for (float& v : X) v = std::floor(v * 4) / 4;  // coarse: exact ties with the edges below
  Dev dX(X.size() * 4);
  TD_CUDA(cudaMemcpy(dX.p, X.data(), X.size() * 4, cudaMemcpyHostToDevice));
  auto fail = [&](const std::string& what) {
    std::fprintf(stderr, "bench_gram: exact-mode check failed at N=%lld d=%d: %s\n", (long long)N, d, what.c_str());
    std::exit(1);
  };
  double lo, hi;
  gc::distance_range(X.data(), N, d, lo, hi);
  Dev dM(16);
  const double init[2] = {INFINITY, 0.0};
  TD_CUDA(cudaMemcpy(dM.p, init, 16, cudaMemcpyHostToDevice));
  TD_CUDA(gram::exact::minmax(dX.as<float>(), N, d, dM.as<double>()));
  double mm[2];
  TD_CUDA(cudaMemcpy(mm, dM.p, 16, cudaMemcpyDeviceToHost));
  if (mm[0] != lo || mm[1] != hi) fail("minmax " + pf("%.17g", mm[0]) + ", " + pf("%.17g", mm[1]));
  const int bins = 97;
  std::vector<double> edges(bins + 1);
  for (int b = 0; b <= bins; ++b) edges[size_t(b)] = b == bins ? hi : lo + (hi - lo) * b / bins;
  for (int b = 0; b <= bins; b += 4) edges[size_t(b)] = std::sqrt(double(b) / 16 * d / 8);  // edges on grid distances
  std::sort(edges.begin(), edges.end());
  edges.back() = std::max(edges.back(), hi);
  Dev dE(edges.size() * 8), dH(size_t(bins) * 8);
  TD_CUDA(cudaMemcpy(dE.p, edges.data(), dE.bytes, cudaMemcpyHostToDevice));
  TD_CUDA(cudaMemset(dH.p, 0, dH.bytes));
  TD_CUDA(gram::exact::histogram(dX.as<float>(), N, d, dE.as<double>(), bins, dH.as<unsigned long long>()));
  std::vector<unsigned long long> H(static_cast<size_t>(bins));
  TD_CUDA(cudaMemcpy(H.data(), dH.p, dH.bytes, cudaMemcpyDeviceToHost));
  const std::vector<std::uint64_t> h = gc::edge_histogram(X.data(), N, d, edges);
  for (int b = 0; b < bins; ++b)
    if (H[size_t(b)] != h[size_t(b)]) fail("histogram bucket " + std::to_string(b) + ": " + std::to_string(H[size_t(b)]) + " vs " + std::to_string(h[size_t(b)]));
  const double eps = std::sqrt(double(d) / 8);  // a grid distance: ties
  const gc::RadiusCounts rc = gc::radius_counts(X.data(), N, d, eps);
  Dev dC(size_t(N) * 4), dT(8);
  TD_CUDA(cudaMemset(dC.p, 0, dC.bytes));
  TD_CUDA(cudaMemset(dT.p, 0, dT.bytes));
  TD_CUDA(gram::exact::radius_count(dX.as<float>(), N, d, eps, dC.as<unsigned>(), dT.as<unsigned long long>()));
  std::vector<unsigned> C(static_cast<size_t>(N));
  unsigned long long T = 0;
  TD_CUDA(cudaMemcpy(C.data(), dC.p, dC.bytes, cudaMemcpyDeviceToHost));
  TD_CUDA(cudaMemcpy(&T, dT.p, 8, cudaMemcpyDeviceToHost));
  for (i64 i = 0; i < N; ++i)
    if (C[size_t(i)] != rc.per_point[size_t(i)]) fail("count of point " + std::to_string(i));
  if (T != rc.pairs) fail("pair count " + std::to_string(T) + " vs " + std::to_string(rc.pairs));
  std::fprintf(stderr, "[check] exact mode N=%lld d=%d: histogram (%d edges), counts within eps (%llu pairs) and minmax equal float64\n",
               (long long)N, d, bins + 1, (unsigned long long)rc.pairs);
}

// ---- the bracketed exact mode (issue #37 item 2: count_exact, hist_exact) ----
// The points of its checks: uniform; coarse (a grid of 1/4: duplicated points, and distances exactly on eps and on
// the edges); offset (uniform + 256: the Gram form's weak spot, a large common offset, so that the bound replays
// nearly every pair); near_ulp (the coarse grid, then one coordinate of every other point moved by one ulp, up or
// down: many distances within an ulp or two of an edge or of eps, not on them, where only the bracket decides).
enum class ExactData { uniform, coarse, offset, near_ulp };
const char* name(ExactData k) {
  return k == ExactData::uniform ? "uniform" : k == ExactData::coarse ? "coarse" : k == ExactData::offset ? "offset" : "near-ulp";
}
bool on_grid(ExactData k) { return k == ExactData::coarse || k == ExactData::near_ulp; }  // edges and eps of the 1/4 grid
std::vector<float> exact_points(i64 N, int d, std::uint64_t seed, ExactData k) {
  std::vector<float> X = gc::points(N, d, seed);
  for (float& v : X) v = on_grid(k) ? std::floor(v * 4) / 4 : k == ExactData::offset ? v + 256.0f : v;
  if (k == ExactData::near_ulp)
    for (i64 i = 1; i < N; i += 2) {
      float& v = X[size_t(i) * size_t(d) + size_t(i % d)];
      v = std::nextafter(v, (i / 2) % 2 ? HUGE_VALF : -HUGE_VALF);
    }
  return X;
}
// Its buckets: width w from 0, enough of them to hold every distance (the last edge at or past sqrt(d)), the edges
// b w in float64 (the reference's and the replay's, one array).
struct ExactEdges {
  double w = 0;
  int buckets = 0;
  std::vector<double> edges;
};
ExactEdges exact_edges(int d, ExactData k, int most, int per_sqrt_d = 64) {
  ExactEdges e;
  // coarse: d = b / 4 <=> d^2 = b^2 / 16, a grid value; else sqrt(d) / per_sqrt_d
  e.w = on_grid(k) ? 0.25 : std::sqrt(double(d)) / per_sqrt_d;
  e.buckets = std::min(most, int(std::ceil(std::sqrt(double(d)) / e.w)) + 1);
  for (int b = 0; b <= e.buckets; ++b) e.edges.push_back(b * e.w);
  return e;
}
double exact_eps(int d, ExactData k) { return on_grid(k) ? std::sqrt(double(d) / 8) : std::sqrt(double(d) / 6); }
// One bracketed run: count_exact or hist_exact into zeroed outputs; the replayed pairs' count back.
struct ExactBuffers {
  Dev counts, total, hist, edges, replay, n;
  ExactBuffers(i64 N, int buckets, unsigned long long cap)
      : counts(size_t(N) * 4), total(8), hist(size_t(buckets) * 8), edges(size_t(buckets + 1) * 8), replay(size_t(cap) * 8), n(8) {}
  void zero(cudaStream_t s = 0) {
    for (Dev* b : {&counts, &total, &hist, &n}) TD_CUDA(cudaMemsetAsync(b->p, 0, b->bytes, s));
  }
};
gram::Request exact_request(gram::Kernel kern, gram::Out o, const float* X, const ExactEdges& e, double eps, ExactBuffers& b,
                            unsigned long long cap) {
  gram::Request r;
  r.kernel = kern;
  r.out = o;
  r.X = X;
  r.counts = b.counts.as<unsigned>();
  r.total = b.total.as<unsigned long long>();
  r.eps = eps;
  r.hist = b.hist.as<unsigned long long>();
  r.buckets = e.buckets;
  r.width = float(e.w);
  r.lo = 0;
  r.edges = b.edges.as<double>();
  r.replay = b.replay.as<unsigned long long>();
  r.replay_cap = cap;
  r.replay_n = b.n.as<unsigned long long>();
  return r;
}
// The check: every kernel given (classic, sm80-8w, sm90-ws) and precision (TF32, 3xTF32), both outputs, against the float64 CPU
// reference count for count, bucket for bucket, on each kind of data.
void check_bracketed(i64 N, int d, std::uint64_t seed, ExactData kind, const std::vector<gram::Kernel>& kernels) {
  const std::vector<float> X = exact_points(N, d, seed, kind);
  const ExactEdges e = exact_edges(d, kind, gram::max_buckets(gram::Prec::tf32));
  const double eps = exact_eps(d, kind);
  const std::vector<std::uint64_t> want_h = gc::edge_histogram(X.data(), N, d, e.edges);
  const gc::RadiusCounts want_c = gc::radius_counts(X.data(), N, d, eps);
  const unsigned long long pairs = (unsigned long long)(N) * (N - 1) / 2;
  Dev dX(X.size() * 4);
  TD_CUDA(cudaMemcpy(dX.p, X.data(), X.size() * 4, cudaMemcpyHostToDevice));
  ExactBuffers b(N, e.buckets, pairs);
  TD_CUDA(cudaMemcpy(b.edges.p, e.edges.data(), b.edges.bytes, cudaMemcpyHostToDevice));
  auto fail = [&](const std::string& what) {
    std::fprintf(stderr, "bench_gram: check failed: the bracketed exact mode at N=%lld d=%d (%s points): %s\n", (long long)N, d,
                 name(kind), what.c_str());
    std::exit(1);
  };
  std::string replayed;
  for (const bool center : {false, true})  // the operands of x, and of x - mu (Prepared::centered: what the timing uses)
  for (gram::Prec prec : {gram::Prec::tf32, gram::Prec::tf32x3}) {
    gram::Prepared op;
    TD_CUDA(gram::prepare(prec, dX.as<float>(), N, d, op, 0, nullptr, center));
    for (gram::Kernel kern : kernels)
      for (gram::Out o : {gram::Out::count_exact, gram::Out::hist_exact}) {
        b.zero();
        TD_CUDA(gram::run(op, exact_request(kern, o, dX.as<float>(), e, eps, b, pairs)));
        unsigned long long n = 0, total = 0;
        TD_CUDA(cudaMemcpy(&n, b.n.p, 8, cudaMemcpyDeviceToHost));
        const std::string what = std::string(gram::name(kern)) + " " + gram::name(prec) + (center ? " centered " : " ") + gram::name(o);
        if (n > pairs) fail(what + ": " + std::to_string(n) + " pairs replayed of " + std::to_string(pairs));
        if (o == gram::Out::count_exact) {
          std::vector<unsigned> got(static_cast<size_t>(N));
          TD_CUDA(cudaMemcpy(got.data(), b.counts.p, b.counts.bytes, cudaMemcpyDeviceToHost));
          TD_CUDA(cudaMemcpy(&total, b.total.p, 8, cudaMemcpyDeviceToHost));
          for (i64 i = 0; i < N; ++i)
            if (got[size_t(i)] != want_c.per_point[size_t(i)])
              fail(what + ": point " + std::to_string(i) + " has " + std::to_string(got[size_t(i)]) + " neighbours, float64 " +
                   std::to_string(want_c.per_point[size_t(i)]));
          if (total != want_c.pairs) fail(what + ": " + std::to_string(total) + " pairs, float64 " + std::to_string(want_c.pairs));
        } else {
          std::vector<unsigned long long> got(static_cast<size_t>(e.buckets));
          TD_CUDA(cudaMemcpy(got.data(), b.hist.p, b.hist.bytes, cudaMemcpyDeviceToHost));
          for (int k = 0; k < e.buckets; ++k)
            if (got[size_t(k)] != want_h[size_t(k)])
              fail(what + ": bucket " + std::to_string(k) + " holds " + std::to_string(got[size_t(k)]) + ", float64 " +
                   std::to_string(want_h[size_t(k)]));
        }
        replayed += (replayed.empty() ? "" : ", ") + what + " " + pf("%.1f %%", 100.0 * double(n) / double(pairs));
      }
    gram::release(op);
  }
  std::fprintf(stderr, "[check] bracketed exact mode N=%lld d=%d, %s points (%d buckets, %llu pairs within eps): equal to float64; replayed: %s\n",
               (long long)N, d, name(kind), e.buckets, (unsigned long long)want_c.pairs, replayed.c_str());
}

double check_small(gram::Prec prec, gram::Kernel kern, i64 N, int d, std::uint64_t seed) {
  const std::vector<float> X = gc::points(N, d, seed);
  Dev dX(X.size() * 4);
  TD_CUDA(cudaMemcpy(dX.p, X.data(), X.size() * 4, cudaMemcpyHostToDevice));
  gram::Prepared op;
  TD_CUDA(gram::prepare(prec, dX.as<float>(), N, d, op));
  const std::string pn = gram::name(prec);
  const double coef = gc::bound_coef(pn, d);
  std::vector<double> S(static_cast<size_t>(N * N)), ex(static_cast<size_t>(N * N));
  for (i64 i = 0; i < N; ++i)
    for (i64 j = 0; j <= i; ++j) {
      S[i * N + j] = S[j * N + i] = gc::scale(X.data(), d, i, j);
      ex[i * N + j] = ex[j * N + i] = gc::d2_exact(X.data(), d, i, j);
    }
  double worst = 0;
  auto fail = [&](const std::string& what) {
    std::fprintf(stderr, "bench_gram: check failed: %s %s N=%lld d=%d: %s\n", pn.c_str(), gram::name(kern), (long long)N, d, what.c_str());
    std::exit(1);
  };
  Dev dD(size_t(N * N) * 4);
  std::vector<float> D(static_cast<size_t>(N * N));
  const bool evt = kern == gram::Kernel::sm90_evt;  // ltm-e: lower, lower + sqrt, condensed; bb: the whole square
  for (gram::Sched sc : {gram::Sched::ltm_e, gram::Sched::bb}) {
    const std::string sn = gram::impl_name(sc, kern);
    const bool full = evt && sc == gram::Sched::bb;  // every cell written
    for (int mode = 0; mode < (full ? 2 : 3); ++mode) {  // lower, lower + sqrt, condensed
      if (evt && !gram::sm90_evt_refusal(prec, mode == 2 ? gram::Out::condensed : gram::Out::lower, N).empty()) continue;
      TD_CUDA(cudaMemset(dD.p, 0xff, dD.bytes));  // NaN: what is not written stays NaN
      gram::Request r;
      r.kernel = kern;
      r.sched = sc;
      r.out = mode == 2 ? gram::Out::condensed : gram::Out::lower;
      r.take_sqrt = mode == 1;
      r.dst = dD.as<float>();
      TD_CUDA(gram::run(op, r));
      TD_CUDA(cudaDeviceSynchronize());
      TD_CUDA(cudaMemcpy(D.data(), dD.p, D.size() * 4, cudaMemcpyDeviceToHost));
      for (i64 i = 0; i < N; ++i)
        for (i64 j = 0; j < N; ++j) {
          float v;
          bool want;
          if (mode == 2) {
            if (i >= j) continue;
            v = D[size_t(gc::condensed_index(N, i, j))];
            want = true;
          } else {
            v = D[size_t(i * N + j)];
            want = j <= i || full;
          }
          if (!want) {
            if (!std::isnan(v)) fail(sn + ": cell (" + std::to_string(i) + "," + std::to_string(j) + ") above the diagonal was written");
            continue;
          }
          const double s = S[size_t(i * N + j)], e = ex[size_t(i * N + j)];
          double err;
          if (mode == 1) {
            err = std::fabs(double(v) - std::sqrt(e));
            if (!(err <= std::sqrt(coef * s) + std::ldexp(std::sqrt(e), -23)))
              fail(sn + " sqrt: (" + std::to_string(i) + "," + std::to_string(j) + ") " + pf("%.9g", v) + " vs " + pf("%.9g", std::sqrt(e)));
            continue;
          }
          err = std::fabs(double(v) - e) / s;
          worst = std::max(worst, err);
          if (!(err <= coef))
            fail(sn + " " + gram::name(mode == 2 ? gram::Out::condensed : gram::Out::lower) + ": (" + std::to_string(i) + "," + std::to_string(j) + ") " +
                 pf("%.9g", v) + " vs " + pf("%.9g", e) + ", err/S " + pf("%.3g", err) + " > bound " + pf("%.3g", coef));
        }
      if (mode == 2)  // the condensed array's tail past N(N-1)/2 untouched
        for (size_t k = size_t(N * (N - 1) / 2); k < D.size(); ++k)
          if (!std::isnan(D[k])) fail(sn + " condensed: wrote past N(N-1)/2");
    }
    if (evt && sc != gram::Sched::ltm_e) continue;  // sm90-evt's fused histogram: the lower tiles (LTM-E) alone
    // the fused histogram: every pair i > j once; within the bound of the float64 histogram
    const int B = std::min(256, gram::max_buckets(prec));
    const double w = std::sqrt(double(d)) / B;
    double smax = 0;
    for (double s : S) smax = std::max(smax, s);
    const gc::Hist h = gc::histogram(X.data(), N, d, w, B, std::sqrt(coef * smax) * 1.01);
    Dev dH(size_t(B) * 8);
    const HistCompare hc = run_hist(op, kern, sc, B, w, dH, h);
    const unsigned long long total = hc.got, want_total = hc.want, diff = hc.moved;
    if (total != want_total || diff > 2 * h.edge)
      fail(sn + " hist: " + std::to_string(total) + " pairs counted (want " + std::to_string(want_total) + "), " +
           std::to_string(diff) + " moved, more than twice the " + std::to_string(h.edge) + " pairs near a bucket edge");
  }
  check_extra(op, kern, X, N, d, S, ex, fail);  // every kernel: sm90-evt its mirror and count
  gram::release(op);
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> n_args{"32768,65536"}, d_args{"64,128,256"}, prec_args{names_joined(gram::kPrecs, ",")},
      exact_args, hist_prec_args{gram::name(gram::kDefaultPrec)};
  std::vector<i64> exact_ns;
  long long verify_n = 1000, samples = 4096, hist_n = 0, hist_verify = 4096;
  int hist_d = 128, hist_buckets = 1024;
  unsigned long long seed = 27;
  std::string kernel_arg = "classic", sym_arg = "8192x4096,8192x8192";
  bench::RunOptions run = bench::RunOptions::with(10, 2, 3, 0);

  bench::Cli cli("bench_gram", "bench_gram: pairwise squared distances on the tensor cores over the triangle of tiles "
                               "(tdmaps tile scheduler) against the bb-grid and cuBLAS\noptions");
  cli.add_points(n_args, "32768,65536");
  cli.add()("d", po::value(&d_args)->composing(), "features: comma list and/or ranges, 1..8192 (default 64,128,256)")
      ("prec", po::value(&prec_args)->composing(), ("precisions: " + names_joined(gram::kPrecs, ", ") + " (default all)").c_str());
  cli.add_verify_max(verify_n, "float64 (every pair; and N = 129)");
  cli.add()("samples", po::value(&samples)->default_value(4096), "pairs checked against float64 and cuBLAS FP32 at each timed size")
      ("hist-N", po::value(&hist_n)->default_value(0), "N of the fused-histogram run (0: none)")
      ("hist-d", po::value(&hist_d)->default_value(128), "features of the fused-histogram run")
      ("hist-buckets", po::value(&hist_buckets)->default_value(1024), "buckets of the fused histogram (width sqrt(d)/buckets)")
      ("hist-prec", po::value(&hist_prec_args)->composing(), (std::string("precisions of the fused-histogram and eps-count run at --hist-N (default ") +
       gram::name(gram::kDefaultPrec) + ")").c_str())
      ("hist-verify", po::value(&hist_verify)->default_value(4096), "points of the histogram's float64 check (the first ones)")
      ("exact-N", po::value(&exact_args)->composing(), "point counts of the bracketed exact mode's timing (issue #37: "
       "count-exact, hist-exact at d = --hist-d, TF32 and 3xTF32, kernels classic / sm80-8w / sm90-ws, beside the all-float64 "
       "exact mode; gram_exact.csv); default none");
  cli.add()("sym", po::value(&sym_arg)->default_value("8192x4096,8192x8192"),
            "sizes NxD of the symmetric product alone (issue #36 item 3: BF16 / FP16 X X^T mirror-written, against "
            "cuBLAS's BF16 GEMM), a comma list; none: no such rows");
  cli.add_seed(seed);
  cli.add()("kernel", po::value(&kernel_arg)->default_value("classic"),
       "our kernels, a comma list, each timed with its own bb-grid: classic (a block a tile), "
       "sm80-8w (classic on 8 warps, 16-deep k-tiles), sm90-ws (Hopper: TMA + wgmma warp-specialized; sm_90a only, "
       "left out with a line elsewhere), sm90-evt (Hopper: stock CUTLASS 3 GEMM + the tdmaps scheduler + an epilogue "
       "visitor tree; TF32 lower / lower-sqrt / condensed / mirror, and the fused reductions hist / count / exact in every "
       "precision; sm_90a only)");
  cli.add_run_options(run, false);
  cli.parse(argc, argv);
  if (run.quick) run.min_reps = std::min(run.min_reps, cli.given("reps") ? run.reps : 5);
  if (cli.quick_unset("reps")) run.reps = 5;
  if (cli.quick_unset("N")) n_args = {"16384"};
  if (cli.quick_unset("d")) d_args = {"128"};
  if (cli.quick_unset("sym")) sym_arg = "none";
  std::vector<i64> Ns, ds;
  std::vector<gram::Prec> precs, hist_precs;  // --prec, --hist-prec, parsed once (gram::prec_of)
  struct Job {  // a timed size; sym: the symmetric product's rows alone
    i64 N, d;
    bool sym;
  };
  std::vector<Job> jobs;
  cli.check([&] {
    Ns = bench::parse_ints(n_args, "--N", 2, 131072);
    ds = bench::parse_ints(d_args, "--d", 1, 8192);
    for (const std::string& pn : bench::parse_names(prec_args, "--prec", names_of(gram::kPrecs))) precs.push_back(gram::prec_of(pn));
    for (const std::string& pn : bench::parse_names(hist_prec_args, "--hist-prec", names_of(gram::kPrecs)))
      hist_precs.push_back(gram::prec_of(pn));
    if (verify_n < 2 || verify_n > 4096) throw bench::bad_input("--verify-max must be in 2..4096");
    if (samples < 1 || samples > 1000000) throw bench::bad_input("--samples must be in 1..1000000");
    if (hist_n < 0 || hist_n > 4000000) throw bench::bad_input("--hist-N must be in 0..4000000");
    if (hist_d < 1 || hist_d > 4096) throw bench::bad_input("--hist-d must be in 1..4096");
    if (hist_buckets < 1 || hist_buckets > 8192) throw bench::bad_input("--hist-buckets must be in 1..8192");
    if (hist_verify < 2 || hist_verify > 20000) throw bench::bad_input("--hist-verify must be in 2..20000");
    if (!exact_args.empty()) exact_ns = bench::parse_ints(exact_args, "--exact-N", 2, 1000000);
    if (run.warmup < 1) throw bench::bad_input("--warmup must be >= 1");
    for (i64 N : Ns)
      for (i64 d : ds) jobs.push_back({N, d, false});
    if (sym_arg != "none") {
      std::stringstream ss(sym_arg);
      for (std::string item; std::getline(ss, item, ',');) {
        long long N = 0, d = 0;
        char x = 0, extra = 0;
        if (std::sscanf(item.c_str(), "%lld%c%lld%c", &N, &x, &d, &extra) != 3 || x != 'x' || N < 4 || N > 131072 || d < 1 || d > 8192)
          throw bench::bad_input("--sym: '" + item + "' is not NxD with N in 4..131072 and D in 1..8192 (or none)");
        jobs.push_back({N, d, true});
      }
    }
    g_kernels.clear();
    for (const std::string& kn : bench::parse_names({kernel_arg}, "--kernel", names_of(gram::kKernels))) {
      gram::Kernel k;
      gram::kernel_of(kn, k);
      g_kernels.push_back(k);
    }
  });

  // ---- prediction (bench/predict.hpp): the timed sweep at a stated 100 TFLOP/s and 2 TB/s per variant
  {
    bench::Forecast f;
    for (const Job& job : jobs) {
      const i64 N = job.N, d = job.d;
        const double flop = 2.0 * double(N) * double(N) * double(d), bytes = 4.0 * double(N) * double(N);
        const double variant_s = flop / 100e12 + bytes / 2e12;
        const double fp32_s = flop / 40e12 + bytes / 2e12;
        f.add("GPU timing", (run.warmup + run.reps + 1) *
                                (variant_s * (2.0 * (precs.size() + 2) * g_kernels.size() + 9) + 2 * fp32_s));
        f.add("CPU reference", double(samples) * double(d) * 30 / 1e9);
      }
    f.add("GPU verification", double(verify_n) * verify_n * 64 * 4 * precs.size() * 12 / 1e9);
    for (i64 n : exact_ns)  // the tensor passes (3xTF32: three products), and the float64 runs at 5 TFLOP/s
      f.add("GPU timing", (7.0 * 2 * 4 * 2 * double(n) * n * hist_d / 100e12) + 2 * double(n) * n * hist_d / 5e12);
    if (hist_n > 0) {
      f.add("GPU timing", (run.warmup + run.reps + 1) * 4 * g_kernels.size() * hist_precs.size() *
                              (double(hist_n) * hist_n * hist_d / 100e12));
      f.add("CPU reference", double(hist_verify) * hist_verify * hist_d / 2 / 1e9);
    }
    bench::refuse_or_go("bench_gram", f, run);  // --predict-only: prints it and exits 0
  }
  bench::Session session("bench_gram", argc, argv, run);
  auto csv = session.table(results::layout::gram);
  cublasHandle_t handle;
  TD_CUBLAS(cublasCreate(&handle));
  // sm90-ws runs on compute capability 9.0 alone (sm_90a code), and only where this build has it
  for (auto it = g_kernels.begin(); it != g_kernels.end();)
    if ((*it == gram::Kernel::sm90_ws || *it == gram::Kernel::sm90_evt) && !gram::sm90_runs()) {
      std::fprintf(stderr, "bench_gram: kernel %s left out: %s\n", gram::name(*it),
                   gram::sm90_built() ? "this GPU is not compute capability 9.0 (sm_90a code)" : "not in this build (gram_sm90.cu needs nvcc >= 12.0)");
      it = g_kernels.erase(it);
    } else {
      ++it;
    }
  if (g_kernels.empty()) {
    std::fprintf(stderr, "bench_gram: no kernel of --kernel runs here\n");
    return 2;
  }
  // what sm90-evt refuses, one line each (gram::sm90_evt_refusal)
  auto evt_product = [&](gram::Prec p) { return gram::sm90_evt_refusal(p, gram::Out::mirror, 4, true).empty(); };
  if (std::find(g_kernels.begin(), g_kernels.end(), gram::Kernel::sm90_evt) != g_kernels.end()) {
    for (gram::Prec p : precs)
      if (!gram::sm90_evt_refusal(p, gram::Out::lower, 4).empty())
        std::fprintf(stderr, "bench_gram: %s: left out for it (its reductions%s run)\n",
                     gram::sm90_evt_refusal(p, gram::Out::lower, 4).c_str(), evt_product(p) ? " and the mirror-written product" : "");
    std::fprintf(stderr, "bench_gram: %s: left out for it\n", gram::sm90_evt_refusal(gram::Prec::tf32, gram::Out::minmax, 4).c_str());
  }

  // ---- memory: every timed size's buffers must fit what is free, said in one line before any work
  {
    size_t free_b = 0, total_b = 0;
    TD_CUDA(cudaMemGetInfo(&free_b, &total_b));
    for (const Job& job : jobs) {
      const i64 N = job.N, d = job.d;
        const double full = double(N) * double(N), cond = double(N) * double(N - 1) / 2;
        double need = 4.0 * double(N) * double(d) + 4.0 * double(N) + 2 * 4.0 * full + 4.0 * cond + 8.0 * double(N) + 16;
        for (gram::Prec p : precs) need += double(gram::operand_bytes(p, N, int(d)));
        if (need > 0.97 * double(free_b)) {
          std::fprintf(stderr, "bench_gram: N = %lld, d = %lld needs %.1f GiB of GPU memory, %.1f GiB are free: use a smaller --N\n",
                       (long long)N, (long long)d, need / double(1ull << 30), double(free_b) / double(1ull << 30));
          return 2;
        }
      }
  }

  // ---- 1. the full check at sizes with partial edge tiles
  for (gram::Kernel kern : g_kernels)
    for (gram::Prec p : precs)
      for (i64 N0 : {verify_n, 129ll})
        for (int d : {64, 100}) {
          const bool evt = kern == gram::Kernel::sm90_evt;
          // sm90-evt: lower / mirror at N % 4 == 0 (129 -> 132: still a partial edge tile), condensed at N0 too
          const bool dist = !evt || gram::sm90_evt_refusal(p, gram::Out::lower, 4).empty();
          std::vector<i64> sizes{evt ? (N0 + 3) / 4 * 4 : N0};
          if (sizes[0] != N0 && dist) sizes.push_back(N0);
          for (const i64 N : sizes) {
            const bool all = !evt || gram::sm90_evt_refusal(p, gram::Out::lower, N).empty();
            const double w = check_small(p, kern, N, d, seed + 1);
            std::fprintf(stderr, "[check] %s %s N=%lld d=%d: every pair, both schedulers, %s ok (worst err/S %.3g, bound %.3g)\n",
                         gram::name(kern), gram::name(p), (long long)N, d,
                         !evt ? "lower / sqrt / condensed / hist"
                              : !dist ? (evt_product(p) ? "hist / count and the mirror-written product (ltm-e)" : "hist / count (ltm-e)")
                              : all ? "lower / sqrt / condensed / mirror / hist / count (ltm-e), full / full-sqrt (full-sm90-evt)"
                                    : "condensed / hist / count (ltm-e; lower and mirror refuse this N)",
                         w, gc::bound_coef(gram::name(p), d));
          }
        }

  for (i64 N0 : {verify_n, 129ll})
    for (int d : {3, 100}) check_exact(N0, d, seed + 3);
  const std::vector<gram::Kernel> exact_kernels = g_kernels;  // the bracketed exact mode's kernels: every one
  if (!exact_kernels.empty())
    for (i64 N0 : {verify_n, 129ll})
      for (int d : {3, 100})
        for (ExactData kind : {ExactData::uniform, ExactData::coarse, ExactData::offset, ExactData::near_ulp})
          check_bracketed(N0, d, seed + 5, kind, exact_kernels);

  // ---- 2. the timed sizes
  bench::Budget budget(run.budget_s, long(jobs.size()));
  bench::Interleaved timer(run, budget);
  bench::Progress progress("gram", jobs.size());
  for (const Job& job : jobs) {
      const i64 N = job.N;
      const int d = int(job.d);
      const bool sym_only = job.sym;  // the symmetric product (BF16 / FP16 mirror-gram) and its cuBLAS peer alone
      if (sym_only && std::none_of(precs.begin(), precs.end(), [](gram::Prec p) {
            return p == gram::Prec::bf16 || p == gram::Prec::fp16;
          })) {
        std::fprintf(stderr, "bench_gram: --sym %lldx%d left out: no bf16 or fp16 in --prec\n", (long long)N, d);
        continue;
      }
      if (std::find(g_kernels.begin(), g_kernels.end(), gram::Kernel::sm90_evt) != g_kernels.end() &&
          !gram::sm90_evt_refusal(gram::Prec::tf32, gram::Out::lower, N).empty())
        std::fprintf(stderr, "bench_gram: %s: left out at this N\n", gram::sm90_evt_refusal(gram::Prec::tf32, gram::Out::lower, N).c_str());
      const std::vector<float> X = gc::points(N, d, seed);
      Dev dX(X.size() * 4), dn(size_t(N) * 4);
      TD_CUDA(cudaMemcpy(dX.p, X.data(), X.size() * 4, cudaMemcpyHostToDevice));
      norms32<<<unsigned((N + 255) / 256), 256>>>(dX.as<float>(), N, d, dn.as<float>());
      TD_CUDA(cudaGetLastError());
      const size_t full = size_t(N) * size_t(N), cond = size_t(N) * size_t(N - 1) / 2;
      Dev dD(full * 4), dG(full * 4), dC(cond * 4), dCnt(size_t(N + 1) / 2 * 8 + 8);  // dCnt: N counts, then the total
      // the sampled pairs: random i >= j, plus pairs of diagonal tiles
      std::mt19937_64 rng(seed + u64(N) * 131 + u64(d));
      std::vector<i64> si, sj;
      for (long long k = 0; k < samples; ++k) {
        i64 i = i64(rng() % u64(N)), j = i64(rng() % u64(N));
        if (k % 4 == 0) j = std::max<i64>(0, i - i64(rng() % 128));  // near the diagonal
        if (j > i) std::swap(i, j);
        if (i == j) i = std::min(N - 1, i + 1);
        if (i == j) j = 0;
        si.push_back(i);
        sj.push_back(j);
      }
      const int ns = int(si.size());
      std::vector<double> sS(static_cast<size_t>(ns)), sE(static_cast<size_t>(ns)), sP(static_cast<size_t>(ns));
      for (int k = 0; k < ns; ++k) {
        sS[size_t(k)] = gc::scale(X.data(), d, si[size_t(k)], sj[size_t(k)]);
        sE[size_t(k)] = gc::d2_exact(X.data(), d, si[size_t(k)], sj[size_t(k)]);
        sP[size_t(k)] = gc::dot_exact(X.data(), d, si[size_t(k)], sj[size_t(k)]);
      }
      std::vector<i64> idx_lower(static_cast<size_t>(ns)), idx_cond(static_cast<size_t>(ns)), idx_upper(static_cast<size_t>(ns));
      for (int k = 0; k < ns; ++k) {
        idx_lower[size_t(k)] = si[size_t(k)] * N + sj[size_t(k)];
        idx_upper[size_t(k)] = sj[size_t(k)] * N + si[size_t(k)];
        idx_cond[size_t(k)] = gc::condensed_index(N, sj[size_t(k)], si[size_t(k)]);
      }
      Dev dIdx(size_t(ns) * 8), dOut(size_t(ns) * 4);
      std::vector<float> ref_fp32(static_cast<size_t>(ns));  // cuBLAS FP32 + epilogue at the samples
      auto sample = [&](const float* src, const std::vector<i64>& idx) {
        TD_CUDA(cudaMemcpy(dIdx.p, idx.data(), size_t(ns) * 8, cudaMemcpyHostToDevice));
        gather<<<unsigned((ns + 255) / 256), 256>>>(src, dIdx.as<i64>(), ns, dOut.as<float>());
        TD_CUDA(cudaGetLastError());
        std::vector<float> v(static_cast<size_t>(ns));
        TD_CUDA(cudaMemcpy(v.data(), dOut.p, size_t(ns) * 4, cudaMemcpyDeviceToHost));
        return v;
      };
      auto err_of = [&](const std::vector<float>& v, bool sq, double* vs_fp32, bool product = false) {
        double e = 0, f = 0;
        for (int k = 0; k < ns; ++k) {
          const double x = sq ? double(v[size_t(k)]) * double(v[size_t(k)]) : double(v[size_t(k)]);
          if (product) {  // the Gram product itself: against float64's x_i.x_j (no cuBLAS column)
            e = std::max(e, std::fabs(x - sP[size_t(k)]) / sS[size_t(k)]);
            continue;
          }
          e = std::max(e, std::fabs(x - sE[size_t(k)]) / sS[size_t(k)]);
          f = std::max(f, std::fabs(x - double(ref_fp32[size_t(k)])) / sS[size_t(k)]);
        }
        if (vs_fp32) *vs_fp32 = f;
        return e;
      };

      // the variants
      struct Variant {
        std::string prec, impl, tile;
        Output output = Output::none;
        std::function<void()> launch;
        unsigned long long launched = 0, useful = 0;
        double bytes = 0, err = NAN, bound = NAN;
        int bb = -1;  // index of its bb-grid variant
        bool verified = false;
      };
      std::vector<Variant> V;
      const float one = 1.0f, zero = 0.0f;
      const i64 c = (N + gram::tile_side - 1) / gram::tile_side;
      const double lower_bytes = double(N) * double(N + 1) / 2 * 4;
      auto gemm = [&](cublasComputeType_t ct) {
        TD_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(N), int(N), d, &one, dX.p, CUDA_R_32F, d, dX.p,
                               CUDA_R_32F, d, &zero, dG.p, CUDA_R_32F, int(N), ct, CUBLAS_GEMM_DEFAULT));
      };
      auto syrk = [&] {
        TD_CUBLAS(cublasSsyrk(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, int(N), d, &one, dX.as<float>(), d, &zero,
                              dG.as<float>(), int(N)));
      };
      const dim3 egrid(unsigned(std::min<i64>(8, (N + 1023) / 1024)), unsigned(std::min<i64>(N, 32768)));
      auto epi_full = [&] { epilogue_full<<<egrid, 256>>>(dG.as<float>(), dn.as<float>(), N); TD_CUDA(cudaGetLastError()); };
      auto epi_upper = [&] { epilogue_upper<<<egrid, 256>>>(dG.as<float>(), dn.as<float>(), N); TD_CUDA(cudaGetLastError()); };
      // reference first: cuBLAS FP32 + epilogue, sampled (row-major view of a symmetric G)
      gemm(CUBLAS_COMPUTE_32F);
      epi_full();
      TD_CUDA(cudaDeviceSynchronize());
      ref_fp32 = sample(dG.as<float>(), idx_lower);

      std::vector<gram::Prepared> ops;
      for (gram::Prec p : precs) {
        ops.emplace_back();
        TD_CUDA(gram::prepare(p, dX.as<float>(), N, d, ops.back()));
      }
      TD_CUDA(cudaDeviceSynchronize());
      for (size_t pi = 0; pi < precs.size(); ++pi) {
        const gram::Prec prec = precs[pi];
        const std::string pn = gram::name(prec);  // the CSV's precision column
        const gram::Prepared* op = &ops[pi];
        auto ours = [&](gram::Kernel kern, gram::Sched sc, gram::Out o, bool sq, float* dst, Output output) {
          Variant v;
          v.prec = pn;
          v.output = output;
          v.impl = gram::impl_name(sc, kern);
          v.tile = "128x128";
          gram::Request r;
          r.kernel = kern;
          r.sched = sc;
          r.out = o;
          r.take_sqrt = sq;
          r.dst = dst;
          v.launch = [op, r] { TD_CUDA(gram::run(*op, r)); };
          v.launched = gram::launched_tiles(sc, N);
          v.useful = u64(c) * u64(c + 1) / 2;
          v.bytes = o == gram::Out::condensed ? double(cond) * 4 : lower_bytes;
          v.bound = gc::bound_coef(pn, d);
          return v;
        };
        if (sym_only && prec != gram::Prec::bf16 && prec != gram::Prec::fp16) continue;
        const bool extra = prec == gram::Prec::tf32;
        std::vector<std::tuple<gram::Out, bool, float*, Output>> outs{{gram::Out::lower, false, dD.as<float>(), Output::lower}};
        if (extra) {
          outs.push_back({gram::Out::lower, true, dD.as<float>(), Output::lower_sqrt});
          outs.push_back({gram::Out::condensed, false, dC.as<float>(), Output::condensed});
        }
        // the classic epilogue's outputs (issues #37, #38): mirror (TF32: d^2; BF16/FP16: the product,
        // the symmetric X.X^T) and the eps count (TF32), LTM-E alone
        for (gram::Kernel kern : g_kernels) {
          const bool evt = kern == gram::Kernel::sm90_evt;  // its mirror of distances (TF32) and of the product
          const bool prod = prec == gram::Prec::bf16 || prec == gram::Prec::fp16;
          if (kern != gram::Kernel::classic && kern != gram::Kernel::sm80_8w && !evt) continue;
          if ((prec == gram::Prec::tf32 || prod) && !(evt && !gram::sm90_evt_refusal(prec, gram::Out::mirror, N, prod).empty())) {
            V.push_back(ours(kern, gram::Sched::ltm_e, gram::Out::mirror, false, dD.as<float>(), prod ? Output::mirror_gram : Output::mirror));
            gram::Request r;
            r.kernel = kern;
            r.out = gram::Out::mirror;
            r.product = prod;
            r.dst = dD.as<float>();
            V.back().launch = [op, r] { TD_CUDA(gram::run(*op, r)); };
            V.back().bytes = double(full) * 4;
          }
          if (prec == gram::Prec::tf32) {
            V.push_back(ours(kern, gram::Sched::ltm_e, gram::Out::count, false, nullptr, Output::count));
            gram::Request r;
            r.kernel = kern;
            r.out = gram::Out::count;
            r.counts = dCnt.as<unsigned>();
            r.total = dCnt.as<unsigned long long>() + (N + 1) / 2;
            r.eps2 = float(d) / 6;
            V.back().launch = [op, r] { TD_CUDA(gram::run(*op, r)); };
            V.back().bytes = 0;
            V.back().bound = NAN;  // a reduction: checked in full at the small sizes (check_extra)
          }
        }
        if (sym_only) outs.clear();
        for (gram::Kernel kern : g_kernels)
          for (auto& [o, sq, dst, output] : outs) {
            const bool evt = kern == gram::Kernel::sm90_evt;
            if (evt && !gram::sm90_evt_refusal(prec, o, N).empty()) continue;  // said once, above (N: below)
            if (evt && o == gram::Out::condensed) {  // LTM-E alone: the stock scheduler's square has no condensed order
              V.push_back(ours(kern, gram::Sched::ltm_e, o, sq, dst, output));
              continue;
            }
            V.push_back(ours(kern, gram::Sched::bb, o, sq, dst, output));
            if (evt) {  // the stock scheduler over the whole square: every cell written
              V.back().output = sq ? Output::full_sqrt : Output::full;
              V.back().bytes = double(full) * 4;
              V.back().useful = u64(c) * u64(c);
            }
            const int bbi = int(V.size()) - 1;
            V.push_back(ours(kern, gram::Sched::ltm_e, o, sq, dst, output));
            V.back().bb = bbi;
          }
      }
      {  // cuBLAS
        auto peer = [&](const std::string& prec, Output output, const std::string& impl, std::function<void()> f,
                        double bytes) {
          Variant v;
          v.prec = prec;
          v.output = output;
          v.impl = impl;
          v.tile = "cublas";
          v.launch = std::move(f);
          v.bytes = bytes;
          return v;
        };
        const std::string tf32 = gram::name(gram::Prec::tf32), bf16 = gram::name(gram::Prec::bf16);
        if (!sym_only) {
          V.push_back(peer(tf32, Output::full_gram, gram::peer::cublas_gemm, [&] { gemm(CUBLAS_COMPUTE_32F_FAST_TF32); }, double(full) * 4));
          V.push_back(peer(tf32, Output::full, gram::peer::cublas_gemm_epilogue, [&] { gemm(CUBLAS_COMPUTE_32F_FAST_TF32); epi_full(); }, double(full) * 4));
          V.back().bound = gc::bound_coef(tf32, d);
          V.push_back(peer(gram::peer::fp32, Output::full_gram, gram::peer::cublas_gemm, [&] { gemm(CUBLAS_COMPUTE_32F); }, double(full) * 4));
          V.push_back(peer(gram::peer::fp32, Output::full, gram::peer::cublas_gemm_epilogue, [&] { gemm(CUBLAS_COMPUTE_32F); epi_full(); }, double(full) * 4));
          V.back().bound = gc::bound_coef(gram::peer::fp32, d);
        }
        for (size_t pi = 0; pi < precs.size(); ++pi)  // the symmetric product's peer: cuBLAS on the same BF16 operands
          if (precs[pi] == gram::Prec::bf16) {
            const gram::Prepared* op = &ops[pi];
            V.push_back(peer(bf16, Output::full_gram, gram::peer::cublas_gemm, [&, op] {
              TD_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(N), int(N), int(op->Kp), &one, op->A, CUDA_R_16BF,
                                     int(op->Kp), op->A, CUDA_R_16BF, int(op->Kp), &zero, dG.p, CUDA_R_32F, int(N),
                                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
            }, double(full) * 4));
          }
        if (!sym_only) {
          V.push_back(peer(gram::peer::fp32, Output::lower_gram, gram::peer::cublas_syrk, syrk, lower_bytes));
          V.push_back(peer(gram::peer::fp32, Output::lower, gram::peer::cublas_syrk_epilogue, [&] { syrk(); epi_upper(); }, lower_bytes));
          V.back().bound = gc::bound_coef(gram::peer::fp32, d);
          // by value: these die with this block, before the launches run (a dangling reference wrote
          // out of bounds on an H200)
          const i64 n4f = i64(full / 4), n4l = i64(lower_bytes / 16);
          V.push_back(peer(gram::peer::none, Output::full, gram::peer::write, [&, n4f] { fill4<<<unsigned(std::min<i64>((n4f + 255) / 256, 1 << 20)), 256>>>(reinterpret_cast<float4*>(dG.p), n4f, 0.0f); TD_CUDA(cudaGetLastError()); }, double(n4f) * 16));
          V.push_back(peer(gram::peer::none, Output::lower, gram::peer::write, [&, n4l] { fill4<<<unsigned(std::min<i64>((n4l + 255) / 256, 1 << 20)), 256>>>(reinterpret_cast<float4*>(dG.p), n4l, 0.0f); TD_CUDA(cudaGetLastError()); }, double(n4l) * 16));
          // the exact mode (gram_exact.hpp: float64 on the CUDA cores), the eps count
          V.push_back(peer(gram::peer::fp64, Output::count, gram::peer::fp64_exact, [&] {
            TD_CUDA(gram::exact::radius_count(dX.as<float>(), N, d, std::sqrt(double(d) / 6), dCnt.as<unsigned>(),
                                              dCnt.as<unsigned long long>() + (N + 1) / 2));
          }, 0));
          V.back().tile = "64x64";
          // the bb-grid's empty blocks alone: c(c-1)/2 blocks of the classic kernel's shape and shared
          // memory (tf32: 3 stages of two 128 x 32 float tiles, 96 KB: 2 blocks an SM, as the kernel)
          const int smem = 96 * 1024;
          TD_CUDA(cudaFuncSetAttribute(empty_blocks, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
          const unsigned long long nempty = u64(c) * u64(c - 1) / 2;
          Variant e = peer(gram::peer::none, Output::none, gram::peer::empty_blocks, [=] { if (nempty) { empty_blocks<<<unsigned(nempty), 128, smem>>>(); TD_CUDA(cudaGetLastError()); } }, 0);
          e.tile = "128x128";
          e.launched = nempty;
          V.push_back(e);
        }
      }
      // every variant once, checked at the samples (against float64 and cuBLAS FP32 + epilogue)
      for (auto& v : V) {
        v.launch();
        TD_CUDA(cudaDeviceSynchronize());
        if (!(v.bound >= 0)) continue;  // no d^2 output (a GEMM alone, a write)
        const bool sq = v.output == Output::lower_sqrt || v.output == Output::full_sqrt;
        const std::vector<i64>& idx =
            v.output == Output::condensed ? idx_cond : v.impl == gram::peer::cublas_syrk_epilogue ? idx_upper : idx_lower;
        const float* src = v.output == Output::condensed ? dC.as<float>() : v.tile == "cublas" ? dG.as<float>() : dD.as<float>();
        double vs32 = 0;
        v.err = err_of(sample(src, idx), sq, &vs32, v.output == Output::mirror_gram);
        if (v.output == Output::mirror || v.output == Output::mirror_gram)  // the upper cells too: (j, i), the transpose
          v.err = std::max(v.err, err_of(sample(src, idx_upper), sq, nullptr, v.output == Output::mirror_gram));
        const double lim = sq ? v.bound + std::ldexp(1.0, -21) : v.bound;  // sqrt output: compared as its square
        v.verified = v.err <= lim;
        if (!v.verified && v.tile != "cublas") {  // a peer past our bound is recorded (verified 0), not fatal
          std::fprintf(stderr, "bench_gram: check failed at N=%lld d=%d: %s %s %s: err/S %.3g > bound %.3g (vs cuBLAS FP32 %.3g)\n",
                       (long long)N, d, v.prec.c_str(), gram::name(v.output), v.impl.c_str(), v.err, lim, vs32);
          return 1;
        }
      }
      std::vector<std::function<void()>> launches;
      for (auto& v : V) launches.push_back(v.launch);
      const std::vector<bench::Stats> st = timer.time(launches);
      const double flop = 2.0 * double(d) * double(N) * double(N + 1) / 2;
      for (size_t k = 0; k < V.size(); ++k) {
        const Variant& v = V[k];
        const bool ours_row = v.tile == "128x128" && v.impl != gram::peer::empty_blocks;
        rows::GramRow g;
        g.N = N;
        g.d = d;
        g.precision = v.prec;
        g.output = v.output;
        g.impl = v.impl;
        g.tile = v.tile;
        g.launched_tiles = v.launched;
        g.useful_tiles = v.useful;
        g.stats = st[k];
        g.flop = v.impl == gram::peer::write || v.impl == gram::peer::empty_blocks ? NAN : flop;
        g.bytes = v.bytes;
        g.err = v.err;
        g.bound = v.bound;
        if (v.bb >= 0) g.bb_median_ms = st[size_t(v.bb)].median_ms;
        g.blocks_rate = ours_row || v.impl == gram::peer::empty_blocks;  // the empty blocks: the last variant, its own median
        g.verified = v.bound >= 0 ? (v.verified ? 1 : 0) : -1;
        csv->row(rows::gram_row(g));
      }
      for (auto& op : ops) gram::release(op);
      progress.step("N=%lld d=%d: %zu variants, %d reps", (long long)N, d, V.size(), timer.last_reps());
    }

  // ---- 3. the fused histogram and the eps count at --hist-N, in each precision of --hist-prec
  for (const gram::Prec hp : hist_n > 0 ? hist_precs : std::vector<gram::Prec>{}) {
    const i64 N = hist_n;
    const int d = hist_d, B = std::min(hist_buckets, gram::max_buckets(hp));
    const double w = std::sqrt(double(d)) / B;
    const std::vector<float> X = gc::points(N, d, seed + 7);
    Dev dX(X.size() * 4), dH(size_t(B) * 8);
    TD_CUDA(cudaMemcpy(dX.p, X.data(), X.size() * 4, cudaMemcpyHostToDevice));
    gram::Prepared op, sub;
    TD_CUDA(gram::prepare(hp, dX.as<float>(), N, d, op));
    const i64 nv = std::min<i64>(hist_verify, N);
    TD_CUDA(gram::prepare(hp, dX.as<float>(), nv, d, sub));
    // check: the first nv points against the float64 histogram
    const double coef = gc::bound_coef(gram::name(hp), d);
    double smax = 0;
    for (i64 i = 0; i < nv; ++i) smax = std::max(smax, gc::scale(X.data(), d, i, i));
    const gc::Hist h = gc::histogram(X.data(), nv, d, w, B, std::sqrt(coef * smax) * 1.01);
    std::vector<std::pair<gram::Kernel, gram::Sched>> hv;  // per kernel: its bb-grid, then LTM-E
    for (gram::Kernel kern : g_kernels)
      for (gram::Sched sc : {gram::Sched::bb, gram::Sched::ltm_e})
        if (kern != gram::Kernel::sm90_evt || sc == gram::Sched::ltm_e) hv.push_back({kern, sc});  // sm90-evt: LTM-E alone
    bool ok = true;
    for (const auto& [kern, sc] : hv) {
      const HistCompare hc = run_hist(sub, kern, sc, B, w, dH, h);
      const unsigned long long tot = hc.got, want = hc.want, diff = hc.moved;
      ok = ok && tot == want && diff <= 2 * h.edge;
      std::fprintf(stderr, "[hist] %s on the first %lld points: %llu pairs (float64 %llu), %llu moved (%llu near an edge)\n",
                   gram::impl_name(sc, kern).c_str(), (long long)nv, tot, want, diff, (unsigned long long)h.edge);
    }
    if (!ok) {
      std::fprintf(stderr, "bench_gram: check failed: the fused histogram differs from float64 beyond the pairs near an edge\n");
      return 1;
    }
    std::vector<std::function<void()>> L;
    for (const auto& [kern, sc] : hv) {
      const gram::Request r = hist_request(kern, sc, B, w, dH);
      L.push_back([&op, r] { TD_CUDA(gram::run(op, r)); });
    }
    bench::Budget hb(0, 1);
    bench::RunOptions hr = run;
    hr.reps = std::min(run.reps, 5);
    hr.min_reps = std::min(hr.min_reps, hr.reps);
    hr.warmup = 1;
    bench::Interleaved ht(hr, hb);
    const std::vector<bench::Stats> st = ht.time(L);
    const i64 c = (N + gram::tile_side - 1) / gram::tile_side;
    const double flop = 2.0 * double(d) * double(N) * double(N + 1) / 2;
    for (size_t k = 0; k < L.size(); ++k) {
      const auto [kern, sc] = hv[k];
      // the same kernel's bb-grid (none for sm90-evt: I is nan)
      const bool has_bb = k > 0 && hv[k - 1] == std::make_pair(kern, gram::Sched::bb);
      const double ms = st[k].median_ms, bb_ms = sc == gram::Sched::bb ? ms : has_bb ? st[k - 1].median_ms : NAN;
      rows::GramRow g;
      g.N = N;
      g.d = d;
      g.precision = gram::name(hp);
      g.output = Output::hist;
      g.impl = gram::impl_name(sc, kern);
      g.tile = "128x128";
      g.launched_tiles = gram::launched_tiles(sc, N);
      g.useful_tiles = u64(c) * u64(c + 1) / 2;
      g.stats = st[k];
      g.flop = flop;
      g.bound = coef;
      g.bb_median_ms = bb_ms;
      g.blocks_rate = true;
      g.verified = 1;
      csv->row(rows::gram_row(g));
      if (sc == gram::Sched::ltm_e)
        std::fprintf(stderr, "[hist] %s %s N=%lld d=%d: ltm-e %.1f ms, bb-grid %.1f ms\n", gram::name(kern), gram::name(hp),
                     (long long)N, d, ms, bb_ms);
    }
    // the eps count at the same N (every kernel), eps^2 = d / 6; its
    // check: the first nv points' counts against float64 within the pairs near eps (check_extra's rule)
    const std::vector<gram::Kernel> ck = g_kernels;
    if (!ck.empty()) {
      Dev dCnt(size_t(N) * 4), dTot(8);
      const double eps2 = double(d) / 6;
      auto count_req = [&](gram::Kernel kern) {
        gram::Request r;
        r.kernel = kern;
        r.out = gram::Out::count;
        r.counts = dCnt.as<unsigned>();
        r.total = dTot.as<unsigned long long>();
        r.eps2 = float(eps2);
        return r;
      };
      const gc::CountReference cref = gc::count_reference(X.data(), nv, d, eps2, coef);
      for (gram::Kernel kern : ck) {
        TD_CUDA(cudaMemset(dCnt.p, 0, dCnt.bytes));
        TD_CUDA(cudaMemset(dTot.p, 0, dTot.bytes));
        TD_CUDA(gram::run(sub, count_req(kern)));
        std::vector<unsigned> got(static_cast<size_t>(nv));
        unsigned long long got_total = 0;
        TD_CUDA(cudaMemcpy(got.data(), dCnt.p, size_t(nv) * 4, cudaMemcpyDeviceToHost));
        TD_CUDA(cudaMemcpy(&got_total, dTot.p, 8, cudaMemcpyDeviceToHost));
        i64 bad = -1;
        if (!cref.admits(got, got_total, &bad)) {
          std::fprintf(stderr, "bench_gram: check failed: eps count (point %lld, or the pair total) on the first %lld points\n",
                       (long long)bad, (long long)nv);
          return 1;
        }
        // as the histogram's line: how far the total is from float64's, and how many pairs the bound allows to move
        std::fprintf(stderr, "[count] %s on the first %lld points: %llu pairs within eps (float64 %llu, off by %llu), "
                     "%llu within the bound of eps (allowed to move)\n", gram::impl_name(gram::Sched::ltm_e, kern).c_str(),
                     (long long)nv, got_total, (unsigned long long)cref.want_total,
                     got_total > cref.want_total ? got_total - cref.want_total : cref.want_total - got_total,
                     (unsigned long long)cref.near_total);
      }
      std::vector<std::function<void()>> CL;
      for (gram::Kernel kern : ck) {
        const gram::Request r = count_req(kern);
        CL.push_back([&op, r] { TD_CUDA(gram::run(op, r)); });
      }
      const std::vector<bench::Stats> cs = ht.time(CL);
      for (size_t k = 0; k < CL.size(); ++k) {
        const double ms = cs[k].median_ms;
        rows::GramRow g;
        g.N = N;
        g.d = d;
        g.precision = gram::name(hp);
        g.output = Output::count;
        g.impl = gram::impl_name(gram::Sched::ltm_e, ck[k]);
        g.tile = "128x128";
        g.launched_tiles = gram::launched_tiles(gram::Sched::ltm_e, N);
        g.useful_tiles = u64(c) * u64(c + 1) / 2;
        g.stats = cs[k];
        g.flop = flop;
        g.bound = coef;
        g.blocks_rate = true;
        g.verified = 1;
        csv->row(rows::gram_row(g));
        std::fprintf(stderr, "[count] %s %s N=%lld d=%d: %.1f ms (checked on the first %lld points)\n", gram::name(ck[k]),
                     gram::name(hp), (long long)N, d, ms, (long long)nv);
      }
    }
    gram::release(op);
    gram::release(sub);
  }
  // ---- 4. the bracketed exact mode at --exact-N (issue #37 item 2; gram_exact.csv): each (precision, kernel, output)
  // run once and compared with the all-float64 exact mode's result at the same N, count for count (a replay list
  // past the memory set aside for it: said, no row), then timed; the all-float64 one timed beside it up to N = 131072.
  if (!exact_ns.empty() && !exact_kernels.empty()) {
    auto xcsv = session.table(results::layout::gram_exact);
    for (const i64 N : exact_ns) {
      const int d = hist_d;
      const std::vector<float> X = exact_points(N, d, seed + 11, ExactData::uniform);
      // the histogram at two widths: sqrt(d) / 64, and --hist-buckets' sqrt(d) / B (the fused histogram's, 27-hist)
      const int most = gram::max_buckets(gram::Prec::tf32);
      const std::vector<ExactEdges> widths{exact_edges(d, ExactData::uniform, most, 64),
                                           exact_edges(d, ExactData::uniform, most, std::min(hist_buckets, most - 1))};
      const double eps = exact_eps(d, ExactData::uniform);
      const unsigned long long pairs = (unsigned long long)(N) * (N - 1) / 2;
      Dev dX(X.size() * 4);
      TD_CUDA(cudaMemcpy(dX.p, X.data(), X.size() * 4, cudaMemcpyHostToDevice));
      std::vector<gram::Prepared> ops(2);
      const gram::Prec xprecs[2] = {gram::Prec::tf32x3, gram::Prec::tf32};
      // centered (Prepared::centered): the exact mode's operands, of x - mu (its bound on their smaller norms)
      for (int k = 0; k < 2; ++k) TD_CUDA(gram::prepare(xprecs[k], dX.as<float>(), N, d, ops[size_t(k)], 0, nullptr, true));
      size_t free_b = 0, total_b = 0;
      TD_CUDA(cudaMemGetInfo(&free_b, &total_b));
      const unsigned long long cap = std::min<unsigned long long>(pairs, (unsigned long long)(double(free_b) * 0.7 / 8));
      const int nb = std::max(widths[0].buckets, widths[1].buckets);
      ExactBuffers b(N, nb, cap), ref(N, nb, 0);
      bench::Budget xb(0, 1);
      bench::RunOptions xr = run;
      xr.reps = std::min(run.reps, 5);
      xr.min_reps = std::min(xr.min_reps, xr.reps);
      xr.warmup = 1;
      const bool time_fp64 = N <= 131072;
      const std::pair<gram::Out, int> cases[] = {{gram::Out::count_exact, 0}, {gram::Out::hist_exact, 0}, {gram::Out::hist_exact, 1}};
      for (const auto& [o, wi] : cases) {
        const bool cnt = o == gram::Out::count_exact;
        const ExactEdges& e = widths[size_t(wi)];
        // the all-float64 reference of this case, once
        TD_CUDA(cudaMemcpy(b.edges.p, e.edges.data(), e.edges.size() * 8, cudaMemcpyHostToDevice));
        ref.zero();
        if (cnt) TD_CUDA(gram::exact::radius_count(dX.as<float>(), N, d, eps, ref.counts.as<unsigned>(), ref.total.as<unsigned long long>()));
        else TD_CUDA(gram::exact::histogram(dX.as<float>(), N, d, b.edges.as<double>(), e.buckets, ref.hist.as<unsigned long long>()));
        std::vector<unsigned> want_c(static_cast<size_t>(N)), got_c(static_cast<size_t>(N));
        std::vector<unsigned long long> want_h(static_cast<size_t>(e.buckets)), got_h(static_cast<size_t>(e.buckets));
        unsigned long long want_t = 0, got_t = 0;
        TD_CUDA(cudaMemcpy(want_c.data(), ref.counts.p, size_t(N) * 4, cudaMemcpyDeviceToHost));
        TD_CUDA(cudaMemcpy(want_h.data(), ref.hist.p, size_t(e.buckets) * 8, cudaMemcpyDeviceToHost));
        TD_CUDA(cudaMemcpy(&want_t, ref.total.p, 8, cudaMemcpyDeviceToHost));
        std::vector<rows::GramExactRow> rowsv;
        std::vector<std::function<void()>> L;
        for (int k = 0; k < 2; ++k)
          for (gram::Kernel kern : exact_kernels) {
            const gram::Request r = exact_request(kern, o, dX.as<float>(), e, eps, b, cap);
            b.zero();
            TD_CUDA(gram::run(ops[size_t(k)], r));
            unsigned long long n = 0;
            TD_CUDA(cudaMemcpy(&n, b.n.p, 8, cudaMemcpyDeviceToHost));
            const std::string what = std::string(gram::name(kern)) + " " + gram::name(xprecs[k]) + " " + gram::name(o);
            if (n > cap) {
              std::fprintf(stderr, "[exact] %s N=%lld d=%d: %llu pairs to replay (%.1f %%), past the %llu the free memory holds: no row\n",
                           what.c_str(), (long long)N, d, n, 100.0 * double(n) / double(pairs), cap);
              continue;
            }
            bool equal;
            if (cnt) {
              TD_CUDA(cudaMemcpy(got_c.data(), b.counts.p, b.counts.bytes, cudaMemcpyDeviceToHost));
              TD_CUDA(cudaMemcpy(&got_t, b.total.p, 8, cudaMemcpyDeviceToHost));
              equal = got_c == want_c && got_t == want_t;
            } else {
              TD_CUDA(cudaMemcpy(got_h.data(), b.hist.p, size_t(e.buckets) * 8, cudaMemcpyDeviceToHost));
              equal = got_h == want_h;
            }
            if (!equal) {
              std::fprintf(stderr, "bench_gram: check failed: %s at N=%lld d=%d differs from the all-float64 exact mode\n",
                           what.c_str(), (long long)N, d);
              return 1;
            }
            rows::GramExactRow g;
            g.N = N;
            g.d = d;
            g.precision = xprecs[k];
            g.output = o;
            g.kernel = kern;
            g.buckets = e.buckets;
            g.bucket_width = e.w;
            g.eps = eps;
            g.pairs = pairs;
            g.replayed = n;
            g.equal_fp64 = 1;
            rowsv.push_back(g);
            gram::Prepared* op = &ops[size_t(k)];
            ExactBuffers* bp = &b;
            L.push_back([op, r, bp] {
              bp->zero();
              TD_CUDA(gram::run(*op, r));
            });
          }
        if (time_fp64) {
          ExactBuffers* rp = &ref;
          const double* edges = b.edges.as<double>();
          const float* x = dX.as<float>();
          const int bins = e.buckets;
          L.push_back([=] {
            rp->zero();
            if (cnt) TD_CUDA(gram::exact::radius_count(x, N, d, eps, rp->counts.as<unsigned>(), rp->total.as<unsigned long long>()));
            else TD_CUDA(gram::exact::histogram(x, N, d, edges, bins, rp->hist.as<unsigned long long>()));
          });
        }
        if (L.empty()) continue;
        bench::Interleaved xt(xr, xb);
        const std::vector<bench::Stats> st = xt.time(L);
        for (size_t k = 0; k < rowsv.size(); ++k) {
          rowsv[k].stats = st[k];
          if (time_fp64) rowsv[k].fp64_median_ms = st.back().median_ms;
          xcsv->row(rows::gram_exact_row(rowsv[k]));
          std::fprintf(stderr, "[exact] %s %s %s (%d buckets) N=%lld d=%d: %.1f ms, %.3f %% of the pairs replayed, equal to float64%s\n",
                       gram::name(rowsv[k].kernel), gram::name(rowsv[k].precision), gram::name(o), cnt ? 0 : e.buckets, (long long)N, d, st[k].median_ms,
                       100.0 * double(rowsv[k].replayed) / double(pairs),
                       time_fp64 ? (" (all-float64: " + pf("%.1f ms", st.back().median_ms) + ")").c_str() : "");
        }
      }
      for (auto& op : ops) gram::release(op);
    }
    std::fprintf(stderr, "bench_gram: wrote %s\n", xcsv->path().c_str());
  }
  TD_CUBLAS(cublasDestroy(handle));
  std::fprintf(stderr, "bench_gram: wrote %s\n", csv->path().c_str());
  return 0;
}
