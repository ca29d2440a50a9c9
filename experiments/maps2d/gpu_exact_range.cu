// experiments/maps2d/gpu_exact_range.cu — where each float map stops being exact,
// measured on the GPU, where the device rounding of rsqrtf / cbrtf applies (the
// host cannot reproduce those bit for bit; each map's limit lives beside its policy in
// src/lib/tdmaps/map_*.hpp, namespace limits).
//
//   block maps  every block index lambda < --ltm-max (2^32) for LTM-X, LTM-N, LTM-R,
//               LTM-D (g(lambda) of eq. (2), 000_dc8ca915cfc23e3c.txt §III, with each
//               square root of §IV-A), and lambda < --tet-max (2^34) for the float
//               tetrahedral map TET-F (eq. (14)/(16) of 003_66f856975a7ab3ee.txt),
//               compared with the exact maps LTM-E / TET-E (integer-corrected roots,
//               numbers.hpp); the first differing lambda is found with atomicMin,
//               sweeping chunks in order and stopping after the first chunk that
//               holds a failure.
//   thread maps UTM-X, UTM-N: for N = 1, 2, ... (up to --utm-max, 8192), every thread
//               k < N(N+1)/2 of UTM::map_thread(N, k) against the column-major
//               enumeration (k runs over j = 0..N-1, i = j..N-1); stops at the first
//               N with a wrong thread.
//
// The maps: every map of the registry whose traits declare a root (registry/traits.hpp root_facts;
// rows, layers and thread rows as listed there), none named here.
//
// Rounding: every float map is swept twice, column rounding = "pinned" (the library's
// arithmetic, what the kernels run) and "fma" (numbers.hpp Fused: an explicit __fmaf_rn at
// each product that nvcc's default -fmad=true contracts in the papers' formulas, as
// verify/fma_contraction.sh reads from the SASS: the papers' binaries). ltm-d and ltm-e
// (block-32 rows) have no contractible product that changes a value: pinned only.
//
// Output: <out>/<gpu_slug>/exact_range_gpu.csv (first line "# " + metadata JSON) with
//   variant,kind,first_wrong,largest_exact_N_rho8,largest_exact_N_rho16,largest_exact_N_rho32,searched_up_to,rounding
// block maps: first_wrong = first wrong lambda (= the number of leading exact block
// indices, the value the map header's limits:: constant holds), largest_exact_N_rhoR = R * (largest n
// with tri(n) <= first_wrong) (tet-f: tet(n)); thread maps: first_wrong = first N
// with a wrong thread, largest_exact_N_* = first_wrong - 1 for every rho. When
// nothing failed below searched_up_to, first_wrong is "none" and the N columns are
// computed from searched_up_to (lower bounds). A table goes to stdout with the
// limits:: constants beside the measured values.
#include <bench/gpu.cuh>
#include "maps2d_host.hpp"

#include <gpu/common.cuh>
#include <tdmaps/registry.hpp>
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)

#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <type_traits>
#include <filesystem>
#include <iostream>
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)
#include "gpu_exact_range_rows.hpp"  // the CSV row by column name (host only; verify/test_experiment_rows checks it)

namespace po = boost::program_options;
using namespace tdmaps;
using namespace tdmaps::gpu;
using namespace tdmaps::exp2d;

namespace {

constexpr unsigned long long none = ~0ull;

// Whether the float map agrees with the exact one at block index l.
template <class S>
struct LtmCheck {
  TD_HD static bool exact(u64 l) {
    const Cell2 a = LTM<S>::g(l), b = LTM_E::g(l);
    return a.i == b.i && a.j == b.j;
  }
};
// The 32-bit path of LTM<S> at block index l < 2^32 against the (proven) 64-bit LTM-E,
// over the lambdas the 32-bit path serves (l < tri(65535)); for LTM-E also that its
// narrow estimate is within one of the row for EVERY l < 2^32 (what its single
// compare-and-step each way repairs), on the device's own approximate rsqrt.
template <class S>
struct Ltm32Check {
  TD_HD static bool exact(u64 l) {
    const Cell2 b = LTM_E::g(l);
    if constexpr (std::is_same_v<S, SqrtE>) {
      const i64 e = i64(SqrtE::estimate(u32(l)));
      if (e < b.i - 1 || e > b.i + 1) return false;
    }
    if (l >= tri(u64(LTM<S>::narrow_max_n))) return true;
    const Cell2T<i32> a = LTM<S>::template g<i32>(u32(l));
    return a.i == b.i && a.j == b.j;
  }
};
// The same with rounding policy Fused (the papers' binaries): the float row of the
// 64-bit path, rounded as nvcc's default contraction rounds it.
template <class S>
struct LtmFmaCheck {
  TD_HD static bool exact(u64 l) {
    const Root<u64> r = S::template row<u64, Fused>(l);
    const Cell2 b = LTM_E::g(l);
    return i64(r.k) == b.i && i64(l - r.base) == b.j;
  }
};
// A float TET map M (TET-F: eq. (16) with the layer of eq. (14)) in rounding R, against TET-E.
template <class M, class R = Pinned>
struct TetCheck {
  using P = typename M::root_policy;
  TD_HD static bool exact(u64 l) {
    const Root<u64> z = P::template layer<u64, R>(l);
    const u64 lp = l - z.base;
    const Root<u64> y = P::template row<u64>(lp);
    const Cell3 b = TET_E::g(l);
    if constexpr (std::is_same_v<R, Pinned>) {
      const Cell3 a = M::g(l);  // the library's own g (the same arithmetic)
      return a.x == b.x && a.y == b.y && a.z == b.z;
    }
    return i64(lp - y.base) == b.x && i64(y.k) == b.y && i64(z.k) == b.z;
  }
};

template <class C>
__global__ void sweep(u64 begin, u64 end, unsigned long long* first) {
  const u64 stride = u64(gridDim.x) * blockDim.x;
  for (u64 l = begin + u64(blockIdx.x) * blockDim.x + threadIdx.x; l < end; l += stride)
    if (!C::exact(l) && l < *(volatile unsigned long long*)first) atomicMin(first, (unsigned long long)l);
}

// First l < limit where C is wrong, or `none`.
template <class C>
unsigned long long first_failure(u64 limit, int blocks, unsigned long long* d_first) {
  TD_CUDA(cudaMemset(d_first, 0xff, sizeof(unsigned long long)));
  u64 chunk = u64(1) << 24;
  for (u64 begin = 0; begin < limit;) {
    const u64 end = limit - begin < chunk ? limit : begin + chunk;
    sweep<C><<<blocks, 256>>>(begin, end, d_first);
    TD_LAUNCHED();
    unsigned long long h = none;
    TD_CUDA(cudaMemcpy(&h, d_first, sizeof h, cudaMemcpyDeviceToHost));
    if (h != none) return h;
    begin = end;
    chunk = std::min<u64>(chunk * 2, u64(1) << 32);
  }
  return none;
}

// Thread (x, y) of the grid checks cell (i, j) = (y + x, y) of side N: its
// column-major position k, and that UTM maps thread k there.
template <class U, class R>
__global__ void utm_check(i64 N, unsigned long long* bad_k) {
  const i64 j = blockIdx.y;
  const i64 i = j + i64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const i64 k = colmajor_index(N, i, j);
  const Cell2 c = U::template map_thread<i64, R>(N, k);
  if (c.i != i || c.j != j) atomicMin(bad_k, (unsigned long long)k);
}

struct Row {
  std::string variant, kind, rounding = Pinned::name;
  unsigned long long first_wrong = none;  // lambda (block maps) or N (thread maps)
  unsigned long long first_wrong_k = none;  // thread maps: first wrong thread at that N
  u64 searched_up_to = 0;
  u64 exact_N[3] = {0, 0, 0};  // rho 8, 16, 32
  long long constant = 0;       // the map's limits:: constant (src/lib/tdmaps/map_*.hpp); -1: none
  double seconds = 0;
};
const int rhos[3] = {8, 16, 32};

// LTM<S> against LTM-E over every block index below `limit`: kind "block" checks the
// 64-bit path (LtmCheck; LtmFmaCheck for rounding fma), kind "block-32" the 32-bit one (Ltm32Check).
template <class S, class Check = LtmCheck<S>>
Row ltm_row(u64 limit, int blocks, unsigned long long* d_first, const char* kind = results::exact_kind::block) {
  const auto t0 = std::chrono::steady_clock::now();
  Row r;
  r.variant = S::name;
  r.kind = kind;
  if constexpr (std::is_same_v<Check, LtmFmaCheck<S>>) r.rounding = Fused::name;
  r.first_wrong = first_failure<Check>(limit, blocks, d_first);
  r.searched_up_to = limit;
  const u64 good = r.first_wrong == none ? limit : r.first_wrong;
  for (int k = 0; k < 3; ++k) r.exact_N[k] = u64(rhos[k]) * largest_n_tri(good);
  r.constant = (long long)LTM<S>::exact_blocks;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}
template <class S>
Row ltm32_row(u64 limit, int blocks, unsigned long long* d_first) {
  return ltm_row<S, Ltm32Check<S>>(limit, blocks, d_first, results::exact_kind::block32);
}
// rounding fma; `constant`: the map's fma limit, or -1 where only the GPU measures it (ltm-r).
template <class S>
Row ltm_fma_row(u64 limit, int blocks, unsigned long long* d_first, long long constant) {
  Row r = ltm_row<S, LtmFmaCheck<S>>(limit, blocks, d_first);
  r.constant = constant;
  return r;
}

template <class M, class R = Pinned>
Row tet_row(u64 limit, int blocks, unsigned long long* d_first, long long constant = (long long)M::exact_blocks) {
  const auto t0 = std::chrono::steady_clock::now();
  Row r;
  r.variant = M::name;
  r.kind = results::exact_kind::block3;
  r.rounding = R::name;
  r.first_wrong = first_failure<TetCheck<M, R>>(limit, blocks, d_first);
  r.searched_up_to = limit;
  const u64 good = r.first_wrong == none ? limit : r.first_wrong;
  for (int k = 0; k < 3; ++k) r.exact_N[k] = u64(rhos[k]) * largest_n_tet(good);
  r.constant = constant;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

template <class U, class R = Pinned>
Row utm_row(i64 max_N, unsigned long long* d_bad, long long constant = U::max_N) {
  const auto t0 = std::chrono::steady_clock::now();
  Row r;
  r.variant = U::name;
  r.kind = results::exact_kind::thread;
  r.rounding = R::name;
  r.constant = constant;
  TD_CUDA(cudaMemset(d_bad, 0xff, size_t(max_N + 1) * sizeof(unsigned long long)));
  std::vector<unsigned long long> h;
  const i64 batch = 256;
  for (i64 n0 = 1; n0 <= max_N && r.first_wrong == none; n0 += batch) {
    const i64 n1 = std::min(max_N, n0 + batch - 1);
    for (i64 N = n0; N <= n1; ++N) {
      utm_check<U, R><<<dim3(unsigned((N + 255) / 256), unsigned(N)), 256>>>(N, d_bad + N);
      TD_LAUNCHED();
    }
    h.resize(size_t(n1 - n0 + 1));
    TD_CUDA(cudaMemcpy(h.data(), d_bad + n0, h.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    for (i64 N = n0; N <= n1; ++N)
      if (h[size_t(N - n0)] != none) {
        r.first_wrong = (unsigned long long)N;
        r.first_wrong_k = h[size_t(N - n0)];
        break;
      }
    r.searched_up_to = u64(r.first_wrong == none ? n1 : r.first_wrong);
  }
  const u64 good = r.first_wrong == none ? r.searched_up_to : r.first_wrong - 1;
  for (u64& n : r.exact_N) n = good;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

std::string num_or_none(unsigned long long v) { return v == none ? "none" : std::to_string(v); }

// What the map's limits:: constant should hold, in its terms, and whether it does.
std::string verdict(const Row& r) {
  long long measured;
  if (r.kind == results::exact_kind::thread) measured = (long long)r.exact_N[0];
  else measured = r.first_wrong == none ? (long long)r.searched_up_to : (long long)r.first_wrong;
  if (r.constant < 0) return "measured (no limits:: constant: the GPU is its source)";
  if (r.first_wrong == none && r.constant >= measured) return "ok (no failure below searched_up_to)";
  if (measured == r.constant) return "ok";
  return "DIFFERS: measured " + std::to_string(measured) + " (update the limits:: constant in src/lib/tdmaps/map_*.hpp)";
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_dir;
  u64 ltm_max = u64(1) << 32, tet_max = u64(1) << 34;
  i64 utm_max = 8192;
  bool skip_if_no_gpu = false;
  bench::Cli cli("gpu_exact_range", "gpu_exact_range: exact range of the float maps, measured on the GPU\noptions");
  cli.add()("out", po::value<std::string>(&out_dir)->default_value(bench::default_results_dir()), "results folder (files go to <out>/<gpu_slug>/)")
      ("ltm-max", po::value<u64>(&ltm_max)->default_value(u64(1) << 32), "LTM: sweep block indices below this")
      ("tet-max", po::value<u64>(&tet_max)->default_value(u64(1) << 34), "TET-F: sweep block indices below this")
      ("utm-max", po::value<i64>(&utm_max)->default_value(8192), "UTM: search N = 1 .. this (at most 65535)")
      ("skip-if-no-gpu", po::bool_switch(&skip_if_no_gpu), "exit 77 (meson's skip code) when there is no GPU (else exit 3)");
  cli.parse(argc, argv);
  cli.check([&] {
    if (ltm_max < 1 || ltm_max > (u64(1) << 50)) throw bad_input("--ltm-max must be in 1..2^50");
    if (tet_max < 1 || tet_max > (u64(1) << 50)) throw bad_input("--tet-max must be in 1..2^50");
    if (utm_max < 1 || utm_max > 65535) throw bad_input("--utm-max must be in 1..65535 (grid y limit)");
  });
  const int dev = bench::require_gpu_or_exit("gpu_exact_range", skip_if_no_gpu);  // 77 / 3 without a GPU
  cudaDeviceProp prop{};
  TD_CUDA(cudaGetDeviceProperties(&prop, dev));
  const int blocks = prop.multiProcessorCount * 16;  // 16 blocks of 256 threads per SM, grid-stride
  const std::string dir = out_dir + "/" + gpu_slug(prop);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) die("cannot create " + dir + ": " + ec.message());
  const std::string path = dir + "/" + results::layout::exact_range_gpu.file;
  results::CsvFile csv(path, metadata_json("gpu_exact_range", join_args(argc, argv)), results::layout::exact_range_gpu);

  unsigned long long* d_first = device_alloc<unsigned long long>(1, "the sweep result");
  unsigned long long* d_bad = device_alloc<unsigned long long>(size_t(utm_max + 1), "the UTM results");
  std::printf("GPU %s: exact range of the float maps\n", prop.name);
  std::printf("%-6s %-8s %-6s %14s %10s %10s %10s %14s %14s %7s  %s\n", "map", "kind", "round", "first_wrong", "N@rho8",
              "N@rho16", "N@rho32", "searched_to", "exact_limits", "sec", "verdict");
  const auto emit = [&](const Row& r) {
    rows::ExactRangeGpuRow e;
    e.variant = r.variant;
    e.kind = r.kind;
    e.first_wrong = num_or_none(r.first_wrong);
    for (int k = 0; k < 3; ++k) e.exact_N[k] = r.exact_N[k];
    e.searched_up_to = r.searched_up_to;
    e.rounding = r.rounding;
    csv.row(rows::exact_range_gpu_row(e));
    std::printf("%-6s %-8s %-6s %14s %10llu %10llu %10llu %14llu %14lld %7.3f  %s\n", r.variant.c_str(), r.kind.c_str(),
                r.rounding.c_str(), num_or_none(r.first_wrong).c_str(), (unsigned long long)r.exact_N[0],
                (unsigned long long)r.exact_N[1],
                (unsigned long long)r.exact_N[2], (unsigned long long)r.searched_up_to, r.constant, r.seconds,
                verdict(r).c_str());
    if (r.kind == results::exact_kind::thread && r.first_wrong != none)
      std::printf("       first wrong thread at N=%llu: k=%llu\n", r.first_wrong, r.first_wrong_k);
    std::fflush(stdout);
  };
  // The maps swept, from the registry (registry/traits.hpp root_facts): the float maps (every map with
  // a root that is not corrected: those are the references LTM-E / TET-E) against the exact ones.
  // Kinds: row -> block (LTM-E as reference), layer -> block3 (TET-E), thread -> thread.
  for_each_root<root_kind::row>(maps2d{}, [&](auto m) {
    using M = decltype(m);
    if constexpr (!map_traits<M>::root.corrected) emit(ltm_row<typename M::sqrt_policy>(ltm_max, blocks, d_first));
  });
  for_each_root<root_kind::layer>(maps3d{}, [&](auto m) {
    using M = decltype(m);
    if constexpr (!map_traits<M>::root.corrected) emit(tet_row<M>(tet_max, blocks, d_first));
  });
  for_each_root<root_kind::thread>(maps2d{}, [&](auto m) { emit(utm_row<decltype(m)>(utm_max, d_bad)); });
  // The papers' binaries: the same maps FMA-contracted (rounding fma), where they have a product nvcc
  // contracts; the constant is the map's fma limit (-1: the GPU is its source).
  for_each_root<root_kind::row>(maps2d{}, [&](auto m) {
    using M = decltype(m);
    constexpr root_facts f = map_traits<M>::root;
    if constexpr (!f.corrected && f.fma) emit(ltm_fma_row<typename M::sqrt_policy>(ltm_max, blocks, d_first, f.fma_limit));
  });
  for_each_root<root_kind::layer>(maps3d{}, [&](auto m) {
    using M = decltype(m);
    constexpr root_facts f = map_traits<M>::root;
    if constexpr (!f.corrected && f.fma) emit(tet_row<M, Fused>(tet_max, blocks, d_first, f.fma_limit));
  });
  for_each_root<root_kind::thread>(maps2d{}, [&](auto m) {
    using M = decltype(m);
    constexpr root_facts f = map_traits<M>::root;
    if constexpr (f.fma) emit(utm_row<M, Fused>(utm_max, d_bad, f.fma_limit));
  });
  // The 32-bit path (kind block-32): every 2D map with a root, LTM-E's narrow estimate among them.
  const u64 max32 = std::min<u64>(ltm_max, u64(1) << 32);
  for_each_root<root_kind::row>(maps2d{}, [&](auto m) {
    emit(ltm32_row<typename decltype(m)::sqrt_policy>(max32, blocks, d_first));
  });
  TD_CUDA(cudaFree(d_first));
  TD_CUDA(cudaFree(d_bad));
  std::printf("wrote %s\n", path.c_str());
  return 0;
}
