// src/support/gpu/sdh_host.cuh — SDH on the GPU, host side: the list of implementations
// (Impl, impl_list, find_impl), what each needs and whether it can run (smem_bytes,
// cannot_run), the device copies of a point set (DeviceSet), and the dispatch
// (prepare_kernels, launch, run_once). Part of the umbrella src/support/gpu/sdh.cuh.
#pragma once
#include "sdh_ladder.cuh"
#include "sdh_tiled.cuh"
#include "sdh_fast.cuh"
#include "sdh_band.cuh"
#include "sdh_gram.cuh"
#include "sdh_gram2.cuh"
#include <registry/sdh_rungs.hpp>

#include <tdmaps/partition.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace tdmaps::gpu::sdh {

// ---- host side --------------------------------------------------------------------------------
// The rungs, their facts and the lists derived from them: registry/sdh_rungs.hpp (Impl, impl_list,
// find_impl, rule_of, is_fast, is_band, is_bracket, threads_of, with_rung). Here, by the rung's
// family: the kernels it runs, its shared memory, its layouts and its launch.

// f(C{}) for the rung type C of a fast implementation (k_fast, k_gram, k_gram2), of a band one.
template <class F>
void with_fast(Impl i, F&& f) {
  with_rung(i, [&](auto c) {
    if constexpr (is_fast_v<decltype(c)>) f(c);
    else die("with_fast: not a fast implementation");
  });
}
template <class F>
void with_band(Impl i, F&& f) {
  with_rung(i, [&](auto c) {
    if constexpr (is_band_v<decltype(c)>) f(c);
    else die("with_band: not a band implementation");
  });
}

// The band kernel's centre, estimate scale and ambiguity band for a point set, with the
// proof's conditions (sdh_band.cuh; NOTES.md "band"). u = 2^-24.
//   |s' - s| <= E = u (17 Pc + 4.1 sqrt(Smax Pc) + 5.1 Smax) (1 + 2^-20)
// Pc = max |c|^2 over the centred points c = RN(p - o), Smax = the rule's bound on every s
// (max_dist2): n = RN(|c|^2) (host, double sum: error <= u Pc each), RN(n_i + n_j) (<= 2u Pc),
// three FFMA with intermediates <= 4 Pc (<= 12u Pc); centring moves S by <= 4u sqrt(S Pc);
// the rule's five roundings move s by <= 5.01u S.
inline BandParams band_params(const Point* pts, i64 N, float w, u32 B) {
  BandParams bp;
  if (N < 1) return bp;
  Point lo = pts[0], hi = pts[0];
  for (i64 i = 1; i < N; ++i) {
    lo.x = std::min(lo.x, pts[i].x); lo.y = std::min(lo.y, pts[i].y); lo.z = std::min(lo.z, pts[i].z);
    hi.x = std::max(hi.x, pts[i].x); hi.y = std::max(hi.y, pts[i].y); hi.z = std::max(hi.z, pts[i].z);
  }
  bp.ox = float(0.5 * (double(lo.x) + double(hi.x)));
  bp.oy = float(0.5 * (double(lo.y) + double(hi.y)));
  bp.oz = float(0.5 * (double(lo.z) + double(hi.z)));
  double Pc = 0;
  for (i64 i = 0; i < N; ++i) {
    const double cx = double(pts[i].x - bp.ox), cy = double(pts[i].y - bp.oy), cz = double(pts[i].z - bp.oz);
    Pc = std::max(Pc, cx * cx + cy * cy + cz * cz);
  }
  const double Smax = double(tdmaps::sdh::max_dist2(pts, N)), u = std::ldexp(1.0, -24), w2 = double(w) * double(w);
  bp.E = u * (17.0 * Pc + 4.1 * std::sqrt(Smax * Pc) + 5.1 * Smax) * (1.0 + std::ldexp(1.0, -20));
  const double e_sq = std::ldexp(1.0, -13);
  bp.mu = e_sq + bp.E / (2.0 * w2) + std::ldexp(1.0, -16);
  const double cbd = (1.0 - bp.mu) / double(w);
  float cb = float(cbd);
  if (double(cb) > cbd) cb = std::nextafter(cb, 0.0f);
  bp.cb = cb;
  float Eb = float(bp.E * (1.0 + std::ldexp(1.0, -20)));
  if (double(Eb) < bp.E * (1.0 + std::ldexp(1.0, -20))) Eb = std::nextafter(Eb, INFINITY);
  bp.Eb = std::max(Eb, 1.17549435e-38f);  // a normal float: a wider band is always safe
  const double lower = double(B - 1) * (e_sq + bp.mu + bp.E / (4.0 * w2) + std::ldexp(1.0, -20));
  if (!(bp.mu < 0.25) || !(lower <= 1.0 - 1.0 / 1024))
    bp.why = "the band estimate is not proven for " + std::to_string(B) + " buckets of width " + std::to_string(w) +
             " over these points (E = " + std::to_string(bp.E) + ": needs (B-1)(2^-13 + mu + E/(4w^2)) < 1, got " +
             std::to_string(lower) + ")";
  if (!std::isfinite(bp.E)) bp.why = "points too far apart for the band kernel";
  return bp;
}

// Dynamic shared memory an implementation needs for B buckets.
inline size_t smem_bytes(Impl i, int tpb, u32 B) {
  size_t b = 0;
  with_rung(i, [&](auto c) {
    using C = decltype(c);
    if constexpr (C::family == Family::ladder) {
      switch (C::ladder) {
        case Ladder::v2: case Ladder::v3: case Ladder::v4: b = size_t(B) * 4; break;
        case Ladder::v5: case Ladder::tiled_bb: case Ladder::tiled_ltm_e: b = size_t(B) * 4 + size_t(tpb) * 12; break;
        default: b = 0; break;  // v1
      }
    } else if constexpr (C::family == Family::band) {
      b = BandLayout<C::T, C::R>::smem_bytes(B);
    } else {
      b = FastLayout<C::T, C::R, C::HM>::smem_bytes(B);
      if constexpr (C::family == Family::gram2) b += gram2_static_bytes(C::Dyn);
    }
  });
  return b;
}

// Why implementation i cannot run (N, B, tpb) on a device with `smem_optin` bytes of
// shared memory per block, or "" if it can.
inline std::string cannot_run(Impl i, i64 N, u32 B, int tpb, size_t smem_optin) {
  const std::string nm = impl_name(i);
  const size_t need = smem_bytes(i, tpb, B);
  if (need > smem_optin) {
    u32 maxb = 0;
    for (u32 lo = 1, hi = 1u << 24; lo <= hi;) {
      const u32 mid = lo + (hi - lo) / 2;
      if (smem_bytes(i, tpb, mid) <= smem_optin) { maxb = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return nm + " needs " + std::to_string(need) + " bytes of shared memory for " + std::to_string(B) +
           " buckets; the device allows " + std::to_string(smem_optin) + " (at most " + std::to_string(maxb) +
           " buckets)";
  }
  if ((is_fast(i) || is_band(i)) && B > tdmaps::sdh::fast_max_buckets)
    return nm + ": at most " + std::to_string(tdmaps::sdh::fast_max_buckets) + " buckets (estimate bound)";
  // 32-bit block counters: the most pairs one block can count
  u64 per_block = 0;
  switch (info_of(i).ladder) {
    case Ladder::v2: case Ladder::v5: per_block = u64(tpb) * u64(N); break;
    case Ladder::v3: case Ladder::v4: per_block = u64(tpb) * u64(N / 2 + 1); break;
    case Ladder::tiled_bb: case Ladder::tiled_ltm_e: per_block = u64(tpb) * u64(tpb); break;
    default: break;  // v1 counts in global memory; fast flushes before overflow
  }
  if (per_block > 0xffffffffull)
    return nm + ": one block may count " + std::to_string(per_block) + " pairs, more than its 32-bit counters hold";
  return "";
}

// Launch parameters of a fast kernel for one point set.
struct FastLaunch {
  LTM_E::Params plan;
  u32 grid = 0;
  size_t smem = 0;
  u32 flush_every = 0;
  u32 rows = 0;        // fast-gram2: table rows (>= B)
  bool clamp = false;  // fast-gram2: k_hi capped at B - 1 (rows = B)
};

// Device copies of one point set in the layouts the versions read, plus the
// histogram and the threshold table.
struct DeviceSet {
  i64 N = 0, cap = 0;
  u32 B = 0;
  float w = 0;
  Point* aos = nullptr;
  float *x = nullptr, *y = nullptr, *z = nullptr;
  float4* p4 = nullptr;
  float4* pc4 = nullptr;  // band kernels: centred points (c, |c|^2)
  float4* pg4 = nullptr;  // fast-gram: the Gram points (c, n) of apps/sdh_cpu.hpp gram_points
  float* thr = nullptr;
  ull* hist = nullptr;
  ull* ambig = nullptr;  // fast-gram2: pairs replayed, summed over its runs on this allocation (never cleared)
  ull* work = nullptr;   // fast-gram2-dyn: tile pairs handed out (zeroed before each launch)
  bool clamp = true;   // fast kernels: some pair may lie beyond the last bucket
  float c = 0;         // fast kernels: estimate scale
  BandParams band;     // band kernels: centre, scale, band (why = cannot run)
  std::string gram_why;  // fast-gram: why it cannot run on this set ("" = it can)
  tdmaps::sdh::BracketScales bracket{0, 0};  // fast-gram2: c_lo, c_hi
  double gram2_rows = 0;  // fast-gram2: rows its table needs without a clamp (k_hi max + 1)
  // host copies (pageable, as the report's program)
  std::vector<Point> h_aos;
  std::vector<float> h_x, h_y, h_z;
  std::vector<float4> h_p4, h_pc4, h_pg4;
  std::vector<float> h_thr;
  // fast kernels: launch parameters (plan, persistent grid, shared bytes), per
  // implementation and clamp flag, computed once per set outside any timing
  std::map<int, FastLaunch> fast_cache;

  DeviceSet() = default;
  DeviceSet(const DeviceSet&) = delete;
  DeviceSet& operator=(const DeviceSet&) = delete;
  ~DeviceSet() { release(); }
  void release() {
    for (void* q : {(void*)aos, (void*)x, (void*)y, (void*)z, (void*)p4, (void*)pc4, (void*)pg4, (void*)thr, (void*)hist, (void*)ambig, (void*)work})
      if (q) cudaFree(q);
    aos = nullptr; x = y = z = nullptr; p4 = nullptr; pc4 = nullptr; pg4 = nullptr; thr = nullptr; hist = nullptr; ambig = nullptr; work = nullptr;
    cap = 0;
  }

  // Sets the points (all layouts, host and device), bucket width and count.
  void set(const Point* pts, i64 n, float width, u32 buckets) {
    if (n > cap || buckets != B) {
      release();
      cap = n;
      aos = device_alloc<Point>(size_t(n), "points (array of structs)");
      x = device_alloc<float>(size_t(n), "points x");
      y = device_alloc<float>(size_t(n), "points y");
      z = device_alloc<float>(size_t(n), "points z");
      p4 = device_alloc<float4>(size_t(n), "points (float4)");
      pc4 = device_alloc<float4>(size_t(n), "centred points (float4)");
      pg4 = device_alloc<float4>(size_t(n), "Gram points (float4)");
      thr = device_alloc<float>(size_t(buckets) + 1, "threshold table");
      hist = device_alloc<ull>(size_t(buckets), "histogram");
      ambig = device_alloc<ull>(1, "fast-gram2 replay count");
      TD_CUDA(cudaMemset(ambig, 0, sizeof(ull)));
      work = device_alloc<ull>(1, "fast-gram2-dyn tile-pair counter");
    }
    N = n; B = buckets; w = width;
    h_aos.assign(pts, pts + n);
    h_x.resize(size_t(n)); h_y.resize(size_t(n)); h_z.resize(size_t(n)); h_p4.resize(size_t(n));
    for (i64 i = 0; i < n; ++i) {
      h_x[size_t(i)] = pts[i].x; h_y[size_t(i)] = pts[i].y; h_z[size_t(i)] = pts[i].z;
      h_p4[size_t(i)] = make_float4(pts[i].x, pts[i].y, pts[i].z, 0.0f);
    }
    h_thr = tdmaps::sdh::thresholds(w, B);
    c = tdmaps::sdh::fast_scale(w);
    band = band_params(pts, n, w, B);
    h_pc4.resize(size_t(n));
    for (i64 i = 0; i < n; ++i) {  // c = RN(p - o) in float; n = RN(|c|^2) from an exact double sum
      const float cx = pts[i].x - band.ox, cy = pts[i].y - band.oy, cz = pts[i].z - band.oz;
      h_pc4[size_t(i)] = make_float4(cx, cy, cz, float(double(cx) * cx + double(cy) * cy + double(cz) * cz));
    }
    const float s_max = tdmaps::sdh::max_dist2(pts, n);
    if (!std::isfinite(s_max)) die("points too far apart: a squared distance overflows float");
    {  // the Gram rule's s: every intermediate is at most n_i + n_j + 2 |c_i| |c_j| <= 4 max n
      const std::vector<tdmaps::sdh::GramPoint> g = tdmaps::sdh::gram_points(pts, n);
      h_pg4.resize(size_t(n));
      double nmax = 0;
      for (i64 i = 0; i < n; ++i) {
        h_pg4[size_t(i)] = make_float4(g[size_t(i)].x, g[size_t(i)].y, g[size_t(i)].z, g[size_t(i)].n);
        nmax = std::max(nmax, double(g[size_t(i)].n));
      }
      gram_why = 4.0 * nmax < 1e38 ? "" : "points too far apart for the Gram rule (4 max |c|^2 >= 1e38)";
      bracket = tdmaps::sdh::bracket_scales(w);
      gram2_rows = tdmaps::sdh::bracket_k_hi_max(nmax, bracket) + 1.0;
    }
    clamp = tdmaps::sdh::bucket_unclamped(s_max, w) > B - 1;
    for (PointLayout l : {PointLayout::aos, PointLayout::soa, PointLayout::p4, PointLayout::centred, PointLayout::gram})
      upload(l);
    fast_cache.clear();
  }

  // The device layouts of the points: array of structs (v1..v3), x/y/z arrays (v4, v5, tiled-*),
  // float4 (fast), centred (band, with float4), Gram points (fast-gram*); each but the first two
  // with the threshold table.
  enum class PointLayout { aos, soa, p4, centred, gram };
  static PointLayout point_layout_of(Impl i) {
    const ImplInfo& f = info_of(i);
    switch (f.family) {
      case Family::ladder:
        return f.ladder == Ladder::v1 || f.ladder == Ladder::v2 || f.ladder == Ladder::v3 ? PointLayout::aos : PointLayout::soa;
      case Family::band: return PointLayout::centred;
      case Family::gram: case Family::gram2: return PointLayout::gram;
      default: return PointLayout::p4;
    }
  }
  // Host -> device copy of the layout implementation i reads.
  void upload(Impl i) { upload(point_layout_of(i)); }
  void upload(PointLayout l) {
    switch (l) {
      case PointLayout::aos:
        TD_CUDA(cudaMemcpy(aos, h_aos.data(), size_t(N) * sizeof(Point), cudaMemcpyHostToDevice));
        break;
      case PointLayout::soa:
        TD_CUDA(cudaMemcpy(x, h_x.data(), size_t(N) * 4, cudaMemcpyHostToDevice));
        TD_CUDA(cudaMemcpy(y, h_y.data(), size_t(N) * 4, cudaMemcpyHostToDevice));
        TD_CUDA(cudaMemcpy(z, h_z.data(), size_t(N) * 4, cudaMemcpyHostToDevice));
        break;
      case PointLayout::centred:
        TD_CUDA(cudaMemcpy(pc4, h_pc4.data(), size_t(N) * sizeof(float4), cudaMemcpyHostToDevice));
        TD_CUDA(cudaMemcpy(p4, h_p4.data(), size_t(N) * sizeof(float4), cudaMemcpyHostToDevice));
        TD_CUDA(cudaMemcpy(thr, h_thr.data(), h_thr.size() * 4, cudaMemcpyHostToDevice));
        break;
      case PointLayout::gram:
        TD_CUDA(cudaMemcpy(pg4, h_pg4.data(), size_t(N) * sizeof(float4), cudaMemcpyHostToDevice));
        TD_CUDA(cudaMemcpy(thr, h_thr.data(), h_thr.size() * 4, cudaMemcpyHostToDevice));
        break;
      case PointLayout::p4:
        TD_CUDA(cudaMemcpy(p4, h_p4.data(), size_t(N) * sizeof(float4), cudaMemcpyHostToDevice));
        TD_CUDA(cudaMemcpy(thr, h_thr.data(), h_thr.size() * 4, cudaMemcpyHostToDevice));
        break;
    }
  }
  std::vector<u64> download() const {
    std::vector<u64> h(B);
    static_assert(sizeof(ull) == sizeof(u64), "64-bit counters");
    TD_CUDA(cudaMemcpy(h.data(), hist, size_t(B) * sizeof(ull), cudaMemcpyDeviceToHost));
    return h;
  }
};

// Raises every kernel's dynamic shared memory limit to the device maximum less its static
// shared memory (once); returns that maximum (bytes per block).
inline size_t prepare_kernels() {
  int dev = 0, optin = 0;
  TD_CUDA(cudaGetDevice(&dev));
  TD_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  auto raise = [&](const void* k) {
    cudaFuncAttributes a{};
    TD_CUDA(cudaFuncGetAttributes(&a, k));
    TD_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - int(a.sharedSizeBytes)));
  };
  raise((const void*)k_v2);
  raise((const void*)k_balanced<false>);
  raise((const void*)k_balanced<true>);
  raise((const void*)k_v5);
  raise((const void*)k_tiled<BB>);
  raise((const void*)k_tiled<LTM_E>);
  // every tile-pair rung's kernels, both clamp variants, with all of the unified L1/shared array
  // as shared memory: the persistent grid is sized by the occupancy this allows (the kernels read
  // global memory once per tile)
  auto raise_max_shared = [&](const void* k) {
    raise(k);
    TD_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxShared)));
  };
  for_each_rung([&](auto c) {
    using C = decltype(c);
    if constexpr (C::family == Family::fast) {
      raise_max_shared((const void*)k_fast<C::T, C::R, C::HM, false, C::Fused>);
      raise_max_shared((const void*)k_fast<C::T, C::R, C::HM, true, C::Fused>);
    } else if constexpr (C::family == Family::gram) {
      raise_max_shared((const void*)k_gram<C::T, C::R, false, C::J>);
      raise_max_shared((const void*)k_gram<C::T, C::R, true, C::J>);
    } else if constexpr (C::family == Family::gram2) {
      raise_max_shared((const void*)(k_gram2<C::T, C::R, false, C::J, C::Dyn>));
      raise_max_shared((const void*)(k_gram2<C::T, C::R, true, C::J, C::Dyn>));
    } else if constexpr (C::family == Family::band) {
      raise_max_shared((const void*)k_band<C::T, C::R, false>);
      raise_max_shared((const void*)k_band<C::T, C::R, true>);
    }
  });
  return size_t(optin);
}

// The persistent grid of a tile-pair kernel: LTM-E over tiles of P points, as many blocks as fit
// on the GPU at once (occupancy of `kernel` with T threads and `smem` bytes), at most one per tile
// pair. The caller sets flush_every.
template <class Kernel>
FastLaunch persistent_launch(const DeviceSet& d, int P, int T, size_t smem, Kernel kernel, const char* what) {
  FastLaunch f;
  f.plan = LTM_E::plan(d.N, P);
  f.smem = smem;
  int dev = 0, sms = 0, per_sm = 0;
  TD_CUDA(cudaGetDevice(&dev));
  TD_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  TD_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, T, f.smem));
  if (per_sm < 1) die(std::string(what) + ": no block fits on an SM with " + std::to_string(f.smem) + " bytes of shared memory");
  f.grid = u32(std::min<u64>(f.plan.total, u64(sms) * u64(per_sm)));
  return f;
}

template <class C, bool Clamp>
FastLaunch fast_launch_params(const DeviceSet& d) {
  using L = FastLayout<C::T, C::R, C::HM>;
  FastLaunch f;
  if constexpr (C::family == Family::gram)
    f = persistent_launch(d, L::P, C::T, L::smem_bytes(d.B), k_gram<C::T, C::R, Clamp, C::J>, "fast-gram kernel");
  else
    f = persistent_launch(d, L::P, C::T, L::smem_bytes(d.B), k_fast<C::T, C::R, C::HM, Clamp, C::Fused>, "fast kernel");
  const u64 ev = 0xffffffffull / L::per_tile_max();
  f.flush_every = u32(std::max<u64>(1, std::min<u64>(ev, 0xffffffffull)));
  return f;
}

// fast-gram2: a table of rows = max(B, k_hi max + 1) rows and no clamp where that fits (at most
// fast_max_buckets rows, the estimate bound of the generic tiles, in the device's shared memory),
// else B rows and k_hi capped at B - 1 (Clamp).
template <class C>
FastLaunch gram2_launch_params(const DeviceSet& d) {
  using L = FastLayout<C::T, C::R, C::HM>;
  int dev = 0, optin = 0;
  TD_CUDA(cudaGetDevice(&dev));
  TD_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  const double need = std::max(double(d.B), d.gram2_rows);
  const bool fits = need <= double(tdmaps::sdh::fast_max_buckets) &&
                    L::smem_bytes(u32(need)) + gram2_static_bytes(C::Dyn) <= size_t(optin);
  const u32 rows = fits ? u32(need) : d.B;
  FastLaunch f = fits ? persistent_launch(d, L::P, C::T, L::smem_bytes(rows), k_gram2<C::T, C::R, false, C::J, C::Dyn>, "fast-gram2 kernel")
                      : persistent_launch(d, L::P, C::T, L::smem_bytes(rows), k_gram2<C::T, C::R, true, C::J, C::Dyn>, "fast-gram2 kernel");
  f.rows = rows;
  f.clamp = !fits;
  f.flush_every = u32(std::max<u64>(1, std::min<u64>(0xffffffffull / L::per_tile_max(), 0xffffffffull)));
  return f;
}

template <class C, bool Clamp>
FastLaunch band_launch_params(const DeviceSet& d) {
  using L = BandLayout<C::T, C::R>;
  FastLaunch f = persistent_launch(d, L::P, C::T, L::smem_bytes(d.B), k_band<C::T, C::R, Clamp>, "band kernel");
  f.flush_every = 1;  // packed 16-bit counters: every tile pair
  return f;
}

// The launch parameters of fast or band implementation i on set d (cached per set).
inline const FastLaunch& fast_params(Impl i, DeviceSet& d) {
  const int key = int(i) * 2 + (d.clamp ? 1 : 0);
  auto it = d.fast_cache.find(key);
  if (it != d.fast_cache.end()) return it->second;
  with_rung(i, [&](auto c) {
    using C = decltype(c);
    if constexpr (C::family == Family::band)
      it = d.fast_cache.emplace(key, d.clamp ? band_launch_params<C, true>(d) : band_launch_params<C, false>(d)).first;
    else if constexpr (C::family == Family::gram2)
      it = d.fast_cache.emplace(key, gram2_launch_params<C>(d)).first;
    else if constexpr (C::family == Family::fast || C::family == Family::gram)
      it = d.fast_cache.emplace(key, d.clamp ? fast_launch_params<C, true>(d) : fast_launch_params<C, false>(d)).first;
    else
      die(std::string("fast_params: ") + C::name + " is not a tile-pair implementation");
  });
  return it->second;
}

// Launches fast or band implementation i over the tile pairs [r.begin, r.end) of its plan
// (fast_params(i, d).plan, tdmaps/partition.hpp), adding to d.hist (not cleared), on
// `stream`; no sync. The persistent grid is the plan's, capped at the range's size.
// fast-gram2-dyn resets the set's tile-pair counter d.work on `stream` before each of its
// launches: launches on one DeviceSet must not run concurrently on different streams (each
// multi_hist worker has its own set and one stream).
inline void launch_fast_range(Impl i, DeviceSet& d, LambdaRange r, cudaStream_t stream = 0) {
  if (r.empty()) return;
  const FastLaunch& f = fast_params(i, d);
  if (r.end > f.plan.total) die("launch_fast_range: range past the plan's " + std::to_string(f.plan.total) + " tile pairs");
  const u32 grid = u32(std::min<u64>(f.grid, r.size()));
  if (is_band(i)) {
    if (!d.band.why.empty()) die("band kernel: " + d.band.why);
    with_band(i, [&](auto cfg) {
      using C = decltype(cfg);
      if (d.clamp)
        k_band<C::T, C::R, true><<<grid, C::T, f.smem, stream>>>(f.plan, r.begin, r.end, d.pc4, d.p4, d.thr, d.B,
                                                                  d.band.cb, d.band.Eb, d.w, d.hist);
      else
        k_band<C::T, C::R, false><<<grid, C::T, f.smem, stream>>>(f.plan, r.begin, r.end, d.pc4, d.p4, d.thr, d.B,
                                                                   d.band.cb, d.band.Eb, d.w, d.hist);
      TD_LAUNCHED();
    });
    return;
  }
  with_fast(i, [&](auto cfg) {
    using C = decltype(cfg);
    if constexpr (C::family == Family::gram2) {
      if (!d.gram_why.empty()) die("fast-gram2: " + d.gram_why);
      auto go = [&](LambdaRange s) {
        const u32 g = u32(std::min<u64>(f.grid, s.size()));
        ull* work = C::Dyn ? d.work : nullptr;
        if (C::Dyn) TD_CUDA(cudaMemsetAsync(d.work, 0, sizeof(ull), stream));  // on the launch's stream, before it
        if (f.clamp)
          k_gram2<C::T, C::R, true, C::J, C::Dyn><<<g, C::T, f.smem, stream>>>(int(d.N), s.begin, s.end, d.pg4, d.thr, d.B, f.rows,
                                                                             d.bracket.lo, d.bracket.hi, f.flush_every, d.hist, d.ambig, work);
        else
          k_gram2<C::T, C::R, false, C::J, C::Dyn><<<g, C::T, f.smem, stream>>>(int(d.N), s.begin, s.end, d.pg4, d.thr, d.B, f.rows,
                                                                              d.bracket.lo, d.bracket.hi, f.flush_every, d.hist, d.ambig, work);
        TD_LAUNCHED();
      };
      if (!C::Dyn) return go(r);
      // Dyn: a block takes at most flush_every tile pairs (k_gram2), so a launch holds at most
      // grid * flush_every / 8 of them (at least one): the blocks suffice, and none nears its cap
      const u64 most = std::max<u64>(1, u64(f.grid) * f.flush_every / 8);
      for (u64 b = r.begin; b < r.end; b += std::min<u64>(most, r.end - b)) go(LambdaRange{b, b + std::min<u64>(most, r.end - b)});
      return;
    }
    if constexpr (C::family == Family::gram) {
      if (!d.gram_why.empty()) die("fast-gram: " + d.gram_why);
      if (d.clamp)
        k_gram<C::T, C::R, true, C::J><<<grid, C::T, f.smem, stream>>>(int(d.N), r.begin, r.end, d.pg4, d.thr, d.B, d.c,
                                                                      f.flush_every, d.hist);
      else
        k_gram<C::T, C::R, false, C::J><<<grid, C::T, f.smem, stream>>>(int(d.N), r.begin, r.end, d.pg4, d.thr, d.B, d.c,
                                                                       f.flush_every, d.hist);
      TD_LAUNCHED();
      return;
    }
    if constexpr (C::family == Family::fast) {
      if (d.clamp)
        k_fast<C::T, C::R, C::HM, true, C::Fused><<<grid, C::T, f.smem, stream>>>(f.plan, r.begin, r.end, d.p4, d.thr, d.B, d.c,
                                                                        f.flush_every, d.hist);
      else
        k_fast<C::T, C::R, C::HM, false, C::Fused><<<grid, C::T, f.smem, stream>>>(f.plan, r.begin, r.end, d.p4, d.thr, d.B, d.c,
                                                                         f.flush_every, d.hist);
      TD_LAUNCHED();
    }
  });
}

// Launches implementation i on the current set (histogram cleared first); no sync.
inline void launch(Impl i, DeviceSet& d, int tpb) {
  TD_CUDA(cudaMemsetAsync(d.hist, 0, size_t(d.B) * sizeof(ull)));
  const int N = int(d.N);
  const u32 blocks = u32((d.N + tpb - 1) / tpb);
  const size_t sh_hist = size_t(d.B) * 4, sh_tile = size_t(d.B) * 4 + size_t(tpb) * 12;
  switch (info_of(i).ladder) {
    case Ladder::v1: k_v1<<<blocks, tpb>>>(d.aos, N, d.w, d.B, d.hist); TD_LAUNCHED(); break;
    case Ladder::v2: k_v2<<<blocks, tpb, sh_hist>>>(d.aos, N, d.w, d.B, d.hist); TD_LAUNCHED(); break;
    case Ladder::v3:
      k_balanced<false><<<blocks, tpb, sh_hist>>>(d.aos, nullptr, nullptr, nullptr, N, d.w, d.B, d.hist);
      TD_LAUNCHED();
      break;
    case Ladder::v4:
      k_balanced<true><<<blocks, tpb, sh_hist>>>(nullptr, d.x, d.y, d.z, N, d.w, d.B, d.hist);
      TD_LAUNCHED();
      break;
    case Ladder::v5: k_v5<<<blocks, tpb, sh_tile>>>(d.x, d.y, d.z, N, d.w, d.B, d.hist); TD_LAUNCHED(); break;
    case Ladder::tiled_bb: {
      const BB::Params p = BB::plan(d.N, tpb);
      k_tiled<BB><<<to_dim3(BB::grid(p, 0)), tpb, sh_tile>>>(p, d.x, d.y, d.z, d.w, d.B, d.hist);
      TD_LAUNCHED();
      break;
    }
    case Ladder::tiled_ltm_e: {
      const LTM_E::Params p = LTM_E::plan(d.N, tpb);
      k_tiled<LTM_E><<<to_dim3(LTM_E::grid(p, 0)), tpb, sh_tile>>>(p, d.x, d.y, d.z, d.w, d.B, d.hist);
      TD_LAUNCHED();
      break;
    }
    case Ladder::none:  // a tile-pair rung: the whole plan, one range
      launch_fast_range(i, d, LambdaRange{0, fast_params(i, d).plan.total});
      break;
  }
}

// Runs i once and returns the histogram.
inline std::vector<u64> run_once(Impl i, DeviceSet& d, int tpb) {
  launch(i, d, tpb);
  TD_CUDA(cudaDeviceSynchronize());
  return d.download();
}

}  // namespace tdmaps::gpu::sdh
