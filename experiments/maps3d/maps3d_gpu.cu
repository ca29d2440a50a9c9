// experiments/maps3d/maps3d_gpu.cu — the one translation unit that instantiates the
// kernels of src/support/gpu/tet.cuh for every 3D map and mode, plus the CPU references.
#include <apps/parallel.hpp>
#include "maps3d_gpu.hpp"

#include <gpu/tet.cuh>
#include <tdmaps/counts.hpp>

#include <atomic>
#include <cstring>
#include <thread>
#include <type_traits>

namespace tdmaps::exp3d {

using gpu::launch_checked;

namespace {

using maps3 = maps3d;  // the registry's 3D list (tdmaps/registry.hpp)

template <class F>
void with_map3(const std::string& name, F&& f) {
  if (!with_map(maps3{}, name.c_str(), f)) throw bad_input("unknown 3D map '" + name + "'");
}
// f(M{}, std::integral_constant<gpu::Mode, m>{}) for the variant's map and mode.
template <class F>
void with_variant(const Variant& v, F&& f) {
  with_map3(v.map, [&](auto m) {
    if (v.mode == Mode::thread) f(m, std::integral_constant<gpu::Mode, gpu::Mode::thread>{});
    else f(m, std::integral_constant<gpu::Mode, gpu::Mode::block>{});
  });
}

// f(begin, end) over [0, count) in chunks from a shared counter (the harness's
// parallel_chunks: load balance for triangular work), at most 64 host threads.
template <class F>
void parallel_chunks(u64 count, u64 chunk, F&& f) {
  bench::parallel_chunks(count, chunk, [&](unsigned, u64 b, u64 e) { f(b, e); }, bench::host_workers(64));
}

// Init and checksum kernels run over the cells with TET_E at a fixed block side
// (their result does not depend on it; 8^3 keeps every warp full).
constexpr int kUtilRho = 8;

}  // namespace

Plan3 plan3(const std::string& map, i64 N, int rho, bool allow_inexact) {
  Plan3 p;
  with_map3(map, [&](auto m) { p = decltype(m)::plan(N, rho, allow_inexact); });
  return p;
}
Dim3 grid3(const std::string& map, const Plan3& p) {
  Dim3 g;
  with_map3(map, [&](auto m) { g = decltype(m)::grid(p); });
  return g;
}
u64 exact_blocks3(const std::string& map) {
  u64 e = limits::no_limit;  // an integer map (bb3): no limit
  with_map3(map, [&](auto m) {
    using M = decltype(m);
    if constexpr (is_tet<M>::value) e = M::exact_blocks;
  });
  return e;
}
u64 launched_blocks3(const std::string& map, const Plan3& p) {
  const Dim3 g = grid3(map, p);
  return u64(g.x) * g.y * g.z;
}
// A block (bx, by, bz), bx <= by <= bz < n, has an in-domain thread iff its first
// cell (bx rho, by rho, bz rho) is in the domain: always (bz rho < N since bz < n).
u64 useful_blocks3(const Plan3& p) { return tet(u64(p.n)); }

void launch_dummy(const Variant& v, const Plan3& p, bool store_form, int* out) {
  with_variant(v, [&](auto m, auto md) {
    using M = decltype(m);
    constexpr gpu::Mode mode = decltype(md)::value;
    if (store_form) launch_checked<M>(p, TD_KERNEL_FOR(gpu::dummy3_store<M, mode, Index>), out);
    else launch_checked<M>(p, TD_KERNEL_FOR(gpu::dummy3_cond<M, mode, Index>), out, gpu::dummy3_never);
  });
}

u64 coverage_words3(i64 N) { return gpu::coverage3_words(N); }

std::string Cov3::check(i64 N, u64 expect_useful_blocks) const {
  std::string err;
  const auto add = [&](const std::string& s) { err += (err.empty() ? "" : "; ") + s; };
  if (ood) add(std::to_string(ood) + " out-of-domain productions");
  if (dup) add(std::to_string(dup) + " duplicate productions");
  // With no duplicates and nothing out of domain, tet(N) productions are tet(N)
  // distinct cells of the pyramid: all of them.
  if (inside != tet(u64(N))) add("produced " + std::to_string(inside) + " cells, expected " + std::to_string(tet(u64(N))));
  if (useful_blocks != expect_useful_blocks)
    add("useful blocks " + std::to_string(useful_blocks) + ", expected " + std::to_string(expect_useful_blocks));
  return err;
}

Cov3 run_coverage(const Variant& v, const Plan3& p, u32* bits, unsigned long long* counters) {
  TD_CUDA(cudaMemset(bits, 0, coverage_words3(p.N) * sizeof(u32)));
  TD_CUDA(cudaMemset(counters, 0, gpu::c3_count * sizeof(unsigned long long)));
  with_variant(v, [&](auto m, auto md) {
    using M = decltype(m);
    constexpr gpu::Mode mode = decltype(md)::value;
    launch_checked<M>(p, TD_KERNEL_FOR(gpu::coverage3<M, mode, Index>), bits, counters);
  });
  unsigned long long h[gpu::c3_count];
  TD_CUDA(cudaMemcpy(h, counters, sizeof h, cudaMemcpyDeviceToHost));
  Cov3 c;
  c.inside = h[gpu::c3_inside];
  c.dup = h[gpu::c3_dup];
  c.ood = h[gpu::c3_ood];
  c.useful_blocks = h[gpu::c3_useful_blocks];
  return c;
}

static_assert(kBinCopies3 == gpu::kBinCopies, "bin copies");

void launch_threebody(const Variant& v, const Plan3& p, const float4* pts, float r2, unsigned long long* bins) {
  if (p.rho > gpu::kMaxRho3) throw bad_input("threebody: rho must be <= 10");
  with_variant(v, [&](auto m, auto md) {
    using M = decltype(m);
    constexpr gpu::Mode mode = decltype(md)::value;
    launch_checked<M>(p, TD_KERNEL_FOR(gpu::threebody3<M, mode, Index>), pts, r2, bins);
  });
}
std::array<u64, 4> sum_bins(const unsigned long long* bins_dev) {
  std::vector<unsigned long long> h(size_t(kBinCopies3) * 4);
  TD_CUDA(cudaMemcpy(h.data(), bins_dev, h.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  std::array<u64, 4> s{0, 0, 0, 0};
  for (size_t i = 0; i < h.size(); ++i) s[i % 4] += h[i];
  return s;
}

std::vector<float4> make_points(i64 N) {
  std::vector<float4> p(static_cast<size_t>(N));
  for (i64 i = 0; i < N; ++i)
    p[size_t(i)] = make_float4(cell_value(3 * u64(i)), cell_value(3 * u64(i) + 1), cell_value(3 * u64(i) + 2), 0.0f);
  return p;
}

// The histogram over i <= j <= k, computed as the kernel's arithmetic decides it: the
// side (a, b) of a triangle is short iff dist2_rn(p_a, p_b) < r2 with a <= b (the
// kernel's argument order). With the short-side flags F as bit rows, the triplets
// (i, j, k >= j) of a pair i <= j split by F[i][k] + F[j][k] (popcounts of AND / XOR
// over k >= j), each shifted by F[i][j].
std::array<u64, 4> threebody_reference(const std::vector<float4>& pts, float r2) {
  const u64 N = pts.size(), W = (N + 63) / 64;
  std::vector<u64> F(N * W, 0);
  parallel_chunks(N, 16, [&](u64 b, u64 e) {
    for (u64 i = b; i < e; ++i)
      for (u64 k = 0; k < N; ++k) {
        const bool s = i <= k ? gpu::dist2_rn(pts[i], pts[k]) < r2 : gpu::dist2_rn(pts[k], pts[i]) < r2;
        if (s) F[i * W + k / 64] |= 1ull << (k % 64);
      }
  });
  std::array<std::atomic<u64>, 4> bins;
  for (auto& x : bins) x = 0;
  parallel_chunks(N, 4, [&](u64 b, u64 e) {
    u64 loc[4] = {0, 0, 0, 0};
    for (u64 i = b; i < e; ++i)
      for (u64 j = i; j < N; ++j) {
        const u64* A = &F[i * W];
        const u64* B = &F[j * W];
        const int fij = int((A[j / 64] >> (j % 64)) & 1u);
        u64 both = 0, one = 0;
        for (u64 w = j / 64; w < W; ++w) {
          u64 mask = ~0ull;
          if (w == j / 64) mask &= ~0ull << (j % 64);
          if (w == W - 1 && N % 64) mask &= (1ull << (N % 64)) - 1;
          both += u64(__builtin_popcountll(A[w] & B[w] & mask));
          one += u64(__builtin_popcountll((A[w] ^ B[w]) & mask));
        }
        const u64 none = (N - j) - both - one;
        loc[fij] += none;
        loc[fij + 1] += one;
        loc[fij + 2] += both;
      }
    for (int q = 0; q < 4; ++q) bins[q] += loc[q];
  });
  return {bins[0].load(), bins[1].load(), bins[2].load(), bins[3].load()};
}

u64 layout_slots(DataLayout3 l, i64 N, int rho) {
  return l == DataLayout3::linear ? LinearLayout3::make(N, rho).slots() : BlockedLayout3::make(N, rho).slots();
}

void launch_layout(const Variant& v, const Plan3& p, DataLayout3 l, const float* in, float* out) {
  with_variant(v, [&](auto m, auto md) {
    using M = decltype(m);
    constexpr gpu::Mode mode = decltype(md)::value;
    if (l == DataLayout3::linear)
      launch_checked<M>(p, TD_KERNEL_FOR(gpu::layout3_step<M, mode, LinearLayout3, Index>), LinearLayout3::make(p.N, p.rho), in, out);
    else
      launch_checked<M>(p, TD_KERNEL_FOR(gpu::layout3_step<M, mode, BlockedLayout3, Index>), BlockedLayout3::make(p.N, p.rho), in, out);
  });
}
bool bw_planes_ok(int planes) {
  for (int k : kBwPlaneCounts)
    if (k == planes) return true;
  return false;
}
u64 layout_bw_stride(DataLayout3 l, i64 N, int rho) { return (layout_slots(l, N, rho) + 31) / 32 * 32; }
u64 layout_bw_bytes(i64 N, int planes) { return 8 * u64(planes) * tet(u64(N)); }

namespace {
template <int K>
void launch_bw_k(const Variant& v, const Plan3& p, DataLayout3 l, const float* in, float* out) {
  const u64 stride = layout_bw_stride(l, p.N, p.rho);
  with_variant(v, [&](auto m, auto md) {
    using M = decltype(m);
    constexpr gpu::Mode mode = decltype(md)::value;
    if (l == DataLayout3::linear)
      launch_checked<M>(p, TD_KERNEL_FOR(gpu::layout3_bw<M, mode, LinearLayout3, Index, K>), LinearLayout3::make(p.N, p.rho), in, out,
                 stride);
    else
      launch_checked<M>(p, TD_KERNEL_FOR(gpu::layout3_bw<M, mode, BlockedLayout3, Index, K>), BlockedLayout3::make(p.N, p.rho), in,
                 out, stride);
  });
}
}  // namespace

void launch_layout_bw(const Variant& v, const Plan3& p, DataLayout3 l, int planes, const float* in, float* out) {
  switch (planes) {
    case 1: launch_bw_k<1>(v, p, l, in, out); break;
    case 4: launch_bw_k<4>(v, p, l, in, out); break;
    case 8: launch_bw_k<8>(v, p, l, in, out); break;
    default: throw bad_input("layout bw: planes must be 1, 4 or 8 (got " + std::to_string(planes) + ")");
  }
}
void launch_bw_reference(const float* in, float* out, u64 n) {
  if (n == 0) return;
  static int blocks = 0;
  if (!blocks) {
    int dev = 0, sms = 0;
    TD_CUDA(cudaGetDevice(&dev));
    TD_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    blocks = 8 * sms;  // 8 x 256 threads per SM: full occupancy
  }
  const u64 need = (n / 4 + 255) / 256;
  gpu::bw_copy<<<unsigned(std::max<u64>(1, std::min<u64>(need, u64(blocks)))), 256>>>(in, out, n);
  TD_LAUNCHED();
}

void layout_init(DataLayout3 l, i64 N, int rho, float* a) {
  const Plan3 p = TET_E::plan(N, kUtilRho);
  if (l == DataLayout3::linear) launch_checked<TET_E>(p, gpu::layout3_init<LinearLayout3>, LinearLayout3::make(N, rho), a);
  else launch_checked<TET_E>(p, gpu::layout3_init<BlockedLayout3>, BlockedLayout3::make(N, rho), a);
}
u64 layout_checksum(DataLayout3 l, i64 N, int rho, const float* a, unsigned long long* scratch) {
  TD_CUDA(cudaMemset(scratch, 0, kBinCopies3 * sizeof(unsigned long long)));
  const Plan3 p = TET_E::plan(N, kUtilRho);
  if (l == DataLayout3::linear)
    launch_checked<TET_E>(p, gpu::layout3_checksum<LinearLayout3>, LinearLayout3::make(N, rho), a, scratch);
  else
    launch_checked<TET_E>(p, gpu::layout3_checksum<BlockedLayout3>, BlockedLayout3::make(N, rho), a, scratch);
  std::vector<unsigned long long> h(kBinCopies3);
  TD_CUDA(cudaMemcpy(h.data(), scratch, h.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  u64 s = 0;
  for (auto x : h) s += x;
  return s;
}
u64 layout_reference_checksum(i64 N) {
  std::atomic<u64> sum{0};
  parallel_chunks(u64(N), 1, [&](u64 b, u64 e) {
    // layers are uneven (z^2/2 cells): chunks of one layer, taken in order
    sum += diffuse_reference_checksum(N, i64(b), i64(e));
  });
  return sum.load();
}

using gpu::DevBuf;

std::string verify_coverage(const Variant& v, i64 N, int rho, bool allow_inexact, bool force_wide) {
  Plan3 p = plan3(v.map, N, rho, allow_inexact);
  if (force_wide) p.narrow = false;
  DevBuf<u32> bits(coverage_words3(N), "coverage bitmap");
  DevBuf<unsigned long long> counters(gpu::c3_count, "coverage counters");
  return run_coverage(v, p, bits.get(), counters.get()).check(N, useful_blocks3(p));
}

std::string verify_threebody(const Variant& v, i64 N, int rho, float r) {
  const Plan3 p = plan3(v.map, N, rho, false);
  const std::vector<float4> pts = make_points(N);
  DevBuf<float4> d_pts(pts.size(), "points");
  DevBuf<unsigned long long> bins(size_t(kBinCopies3) * 4, "bins");
  TD_CUDA(cudaMemcpy(d_pts.get(), pts.data(), pts.size() * sizeof(float4), cudaMemcpyHostToDevice));
  TD_CUDA(cudaMemset(bins.get(), 0, size_t(kBinCopies3) * 4 * sizeof(unsigned long long)));
  launch_threebody(v, p, d_pts.get(), r * r, bins.get());
  const std::array<u64, 4> got = sum_bins(bins.get()), want = threebody_reference(pts, r * r);
  if (got == want) return "";
  std::string e = "bins";
  for (int q = 0; q < 4; ++q) e += " " + std::to_string(got[q]) + (got[q] == want[q] ? "" : "(want " + std::to_string(want[q]) + ")");
  return e;
}

std::string verify_layout(const Variant& v, DataLayout3 l, i64 N, int rho) {
  const Plan3 p = plan3(v.map, N, rho, false);
  const u64 slots = layout_slots(l, N, rho), cells = tet(u64(N));
  DevBuf<float> in(slots, "layout input"), out(slots, "layout output");
  TD_CUDA(cudaMemset(in.get(), 0xff, slots * sizeof(float)));  // NaN in every padding slot
  TD_CUDA(cudaMemset(out.get(), 0xff, slots * sizeof(float)));
  layout_init(l, N, rho, in.get());
  launch_layout(v, p, l, in.get(), out.get());
  std::vector<float> got(slots), ref_in(cells), ref_out(cells);
  TD_CUDA(cudaMemcpy(got.data(), out.get(), slots * sizeof(float), cudaMemcpyDeviceToHost));
  for (u64 i = 0; i < cells; ++i) ref_in[i] = cell_value(i);
  parallel_chunks(u64(N), 1, [&](u64 b, u64 e) { diffuse_reference(N, ref_in.data(), ref_out.data(), i64(b), i64(e)); });
  const LinearLayout3 lin = LinearLayout3::make(N, 1);
  const LinearLayout3 la = LinearLayout3::make(N, rho);
  const BlockedLayout3 lb = BlockedLayout3::make(N, rho);
  std::vector<uint8_t> is_cell(slots, 0);
  u64 wrong = 0;
  std::string first;
  for (i64 z = 0; z < N; ++z)
    for (i64 y = 0; y <= z; ++y)
      for (i64 x = 0; x <= y; ++x) {
        const u64 s = l == DataLayout3::linear ? la.index(x, y, z) : lb.index(x, y, z);
        is_cell[s] = 1;
        const float a = got[s], b = ref_out[lin.index(x, y, z)];
        if (std::memcmp(&a, &b, sizeof a) != 0 && wrong++ == 0)
          first = " (first at x=" + std::to_string(x) + " y=" + std::to_string(y) + " z=" + std::to_string(z) + ")";
      }
  u64 touched = 0;
  for (u64 s = 0; s < slots; ++s) {
    u32 b;
    std::memcpy(&b, &got[s], sizeof b);
    if (!is_cell[s] && b != 0xffffffffu) ++touched;
  }
  std::string e;
  if (wrong) e += std::to_string(wrong) + " of " + std::to_string(cells) + " cells differ" + first;
  if (touched) e += (e.empty() ? "" : "; ") + std::to_string(touched) + " padding slots written";
  return e;
}

// Host values of the bw checks: distinct finite floats, exactly representable + 1 (< 2^23).
static float bw_value(u64 k) { return float(k % 4000037u) * 0.5f; }

std::string verify_layout_bw(const Variant& v, DataLayout3 l, i64 N, int rho, int planes) {
  if (!bw_planes_ok(planes)) return "planes must be 1, 4 or 8";
  const Plan3 p = plan3(v.map, N, rho, false);
  const u64 stride = layout_bw_stride(l, N, rho), total = u64(planes) * stride, slots = layout_slots(l, N, rho);
  std::vector<float> h_in(total);
  for (u64 k = 0; k < total; ++k) h_in[k] = bw_value(k);
  DevBuf<float> in(total, "bw input"), out(total, "bw output");
  TD_CUDA(cudaMemcpy(in.get(), h_in.data(), total * sizeof(float), cudaMemcpyHostToDevice));
  TD_CUDA(cudaMemset(out.get(), 0xff, total * sizeof(float)));
  launch_layout_bw(v, p, l, planes, in.get(), out.get());
  std::vector<float> got(total);
  TD_CUDA(cudaMemcpy(got.data(), out.get(), total * sizeof(float), cudaMemcpyDeviceToHost));
  // Which slots hold a cell: every slot of the linear layout; the blocked one's by cell_of.
  std::vector<uint8_t> is_cell(slots, 1);
  if (l == DataLayout3::blocked) {
    const BlockedLayout3 lb = BlockedLayout3::make(N, rho);
    for (u64 s = 0; s < slots; ++s) is_cell[s] = lb.cell_of(s).inside;
  }
  u64 wrong = 0, touched = 0, cells = 0;
  std::string first;
  for (int k = 0; k < planes; ++k)
    for (u64 s = 0; s < stride; ++s) {
      const u64 q = u64(k) * stride + s;
      u32 b;
      std::memcpy(&b, &got[q], sizeof b);
      if (s < slots && is_cell[s]) {
        ++cells;
        const float want = h_in[q] + 1.0f;
        if (std::memcmp(&want, &got[q], sizeof want) != 0 && wrong++ == 0)
          first = " (first: plane " + std::to_string(k) + " slot " + std::to_string(s) + ")";
      } else if (b != 0xffffffffu) {
        ++touched;
      }
    }
  std::string e;
  if (cells != u64(planes) * tet(u64(N))) e = "cell slots " + std::to_string(cells) + ", expected " + std::to_string(u64(planes) * tet(u64(N)));
  if (wrong) e += (e.empty() ? "" : "; ") + std::to_string(wrong) + " cell values differ" + first;
  if (touched) e += (e.empty() ? "" : "; ") + std::to_string(touched) + " padding/tail slots written";
  return e;
}

std::string verify_bw_reference(u64 n) {
  const u64 guard = 64;
  std::vector<float> h_in(n + guard);
  for (u64 k = 0; k < n + guard; ++k) h_in[k] = bw_value(k);
  DevBuf<float> in(n + guard, "bw reference input"), out(n + guard, "bw reference output");
  TD_CUDA(cudaMemcpy(in.get(), h_in.data(), (n + guard) * sizeof(float), cudaMemcpyHostToDevice));
  TD_CUDA(cudaMemset(out.get(), 0xff, (n + guard) * sizeof(float)));
  launch_bw_reference(in.get(), out.get(), n);
  std::vector<float> got(n + guard);
  TD_CUDA(cudaMemcpy(got.data(), out.get(), (n + guard) * sizeof(float), cudaMemcpyDeviceToHost));
  u64 wrong = 0, touched = 0;
  for (u64 k = 0; k < n + guard; ++k) {
    if (k < n) {
      const float want = h_in[k] + 1.0f;
      wrong += std::memcmp(&want, &got[k], sizeof want) != 0;
    } else {
      u32 b;
      std::memcpy(&b, &got[k], sizeof b);
      touched += b != 0xffffffffu;
    }
  }
  std::string e;
  if (wrong) e = std::to_string(wrong) + " of " + std::to_string(n) + " values differ";
  if (touched) e += (e.empty() ? "" : "; ") + std::to_string(touched) + " guard elements written";
  return e;
}

namespace {
template <class Root, bool layer, class U>
u64 first_wrong_gpu(u64 begin, u64 end, unsigned long long* scratch) {
  const u64 chunk = 1ull << 32;
  for (u64 b = begin; b < end; b += chunk) {
    const u64 cnt = std::min(chunk, end - b);
    const unsigned long long none = ~0ull;
    TD_CUDA(cudaMemcpy(scratch, &none, sizeof none, cudaMemcpyHostToDevice));
    const unsigned blocks = unsigned(std::min<u64>((cnt + 255) / 256, 65536));
    gpu::root_check3<Root, layer, U><<<blocks, 256>>>(b, cnt, scratch);
    TD_LAUNCHED();
    unsigned long long first = 0;
    TD_CUDA(cudaMemcpy(&first, scratch, sizeof first, cudaMemcpyDeviceToHost));
    if (first != none) return first;
  }
  return end;
}
template <bool layer>
u64 first_wrong_by_name(const std::string& root, u64 begin, u64 end, unsigned long long* scratch, bool narrow) {
  if (narrow && end > (1ull << 32)) throw bad_input("the narrow (32-bit) path takes lambda < 2^32");
  const auto run = [&](auto root_policy) {
    using R = decltype(root_policy);
    return narrow ? first_wrong_gpu<R, layer, u32>(begin, end, scratch) : first_wrong_gpu<R, layer, u64>(begin, end, scratch);
  };
  // the root of the registry's 3D map of that name (every TET<R> of maps3d; bb3 has none)
  u64 first = 0;
  bool found = false;
  with_map(maps3{}, root.c_str(), [&](auto m) {
    using M = decltype(m);
    if constexpr (is_tet<M>::value) {
      first = run(typename M::root_policy{});
      found = true;
    }
  });
  if (!found) throw bad_input("unknown layer root '" + root + "'");
  return first;
}
}  // namespace

u64 gpu_first_wrong_layer(const std::string& root, u64 begin, u64 end, unsigned long long* scratch, bool narrow) {
  return first_wrong_by_name<true>(root, begin, end, scratch, narrow);
}
u64 gpu_first_wrong_row(const std::string& root, u64 begin, u64 end, unsigned long long* scratch, bool narrow) {
  return first_wrong_by_name<false>(root, begin, end, scratch, narrow);
}

}  // namespace tdmaps::exp3d
