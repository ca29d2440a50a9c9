// src/support/gram/gram_launch.cuh — launching: the per-device kernel attributes, the launch of each kernel
// family, the tile range of a request, and the one dispatch from a Request to a launch (run_of,
// run_extra_of). Part of gram.cuh.
#pragma once
#include "gram_kernels.cuh"

namespace gram {

// A kernel's one-time setup (its function attributes) is the current device's: `done` holds a bit
// per device already set up (devices past 63: every call). Marks the current device; true where it
// was not yet (the caller sets up, and calls forget() if that fails).
struct PerDevice {
  unsigned long long done = 0;
  int dev = -1;
  bool first() {
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return true;
    const unsigned long long bit = 1ull << dev;
    if (done & bit) return false;
    done |= bit;
    return true;
  }
  void forget() {
    if (dev >= 0 && dev < 64) done &= ~(1ull << dev);
  }
};
template <class K> cudaError_t max_dynamic_smem(PerDevice& once, K k, int smem) {
  if (!once.first()) return cudaSuccess;
  const cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  if (e != cudaSuccess) once.forget();
  return e;
}

// Launches a kernel over the tiles of `tiles` (a TileMap over c = Np / 128 tiles, or a TileRange of
// its blocks). classic: the map's (range's) grid, one block a tile. persistent: as many blocks as fit
// on the GPU at once (occupancy x SMs), each walking the map's (range's) blocks.
template <Prec P, class Tiles, Out O>
cudaError_t launch(Kernel kern, const Params& p, const Tiles& tiles, cudaStream_t s = 0) {
  const tdmaps::Dim3 g = tiles.grid();
  if (kern == Kernel::classic) {
    auto k = gram_kernel_classic<P, Tiles, O>;
    constexpr int smem = smem_bytes_classic<P>();
    static PerDevice attr;
    if (const cudaError_t e = max_dynamic_smem(attr, k, smem); e != cudaSuccess) return e;
    k<<<dim3(g.x, g.y, g.z), threads, smem, s>>>(p, tiles);
    return cudaGetLastError();
  }
  if (kern == Kernel::sm80_8w) {
    using Shp = Warp8Shape<P>;
    auto k = gram_kernel_classic<P, Tiles, O, Shp>;
    constexpr int smem = smem_bytes_classic<P, Shp>();
    static PerDevice attr;
    if (const cudaError_t e = max_dynamic_smem(attr, k, smem); e != cudaSuccess) return e;
    k<<<dim3(g.x, g.y, g.z), Shp::threads, smem, s>>>(p, tiles);
    return cudaGetLastError();
  }
  if (kern != Kernel::persistent) return cudaErrorInvalidValue;  // sm90-ws: gram_sm90.cu (run() dispatches it)
  if constexpr (O != Out::lower && O != Out::condensed && O != Out::hist) {
    return cudaErrorInvalidValue;  // mirror, count, minmax: the classic epilogue only
  } else {
  auto k = gram_kernel_persistent<P, Tiles, O>;
  constexpr int smem = smem_bytes_persistent<P, O>();
  static PerDevice attr;
  static int resident_of[64] = {};  // blocks of this kernel on the whole GPU, per device
  if (const cudaError_t e = max_dynamic_smem(attr, k, smem); e != cudaSuccess) return e;
  int resident = attr.dev >= 0 && attr.dev < 64 ? resident_of[attr.dev] : 0;
  if (!resident) {
    cudaError_t e;
    int dev = 0, sms = 0, per_sm = 0;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess) return e;
    if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) return e;
    if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, smem)) != cudaSuccess) return e;
    resident = std::max(1, per_sm) * sms;
    if (dev >= 0 && dev < 64) resident_of[dev] = resident;
  }
  const u64 total = u64(g.x) * g.y * g.z;
  const unsigned blocks = unsigned(std::min<u64>(total, u64(resident)));
  if (blocks == 0) return cudaSuccess;
  k<<<blocks, threads, smem, s>>>(p, tiles, g.x, total);
  return cudaGetLastError();
  }
}

// A Request's tile range (Request::lam_begin, lam_end) over LTM-E's tiles `ltm`: ranged = false for
// the whole grid (the default, or [0, c(c+1)/2) given), else `range`. Ranges are for the fused
// histogram under LTM-E alone; any other use, or a range past the grid: cudaErrorInvalidValue. (Past
// c = 65535 the grid has several rows, the last row's tail outside: launched() >= c(c+1)/2, short of
// it by less than the rows.)
inline cudaError_t tile_range(const Request& r, const tdmaps::TileMap<tdmaps::LTM_E>& ltm, bool& ranged,
                              tdmaps::TileRange<tdmaps::LTM_E>& range) {
  const unsigned long long n = ltm.launched(), used = tdmaps::TileMap<tdmaps::LTM_E>::useful(ltm.side());
  const unsigned long long end = r.lam_end == Request::all_tiles ? n : r.lam_end;
  ranged = !(r.lam_begin == 0 && end >= used && end <= n);
  if (!ranged) return cudaSuccess;
  if (r.out != Out::hist || r.sched != Sched::ltm_e || r.lam_begin > end || end > n) return cudaErrorInvalidValue;
  range = tdmaps::TileRange<tdmaps::LTM_E>::make(ltm, r.lam_begin, end);
  return cudaSuccess;
}

// One request's kernel parameters, its tile source (LTM-E, the bounding box, or a range of LTM-E's
// tiles) and output, for every kernel family: `launch(tiles, out, p)` gets the tile source, the output
// as std::integral_constant<Out, ...> and the parameters, and launches (run_of below; gram_sm90.cu).
inline Params params_of(const Prepared& o, const Request& r) {
  Params p;
  p.A = o.A;
  p.B = o.B;
  p.norms = o.norms;
  p.N = o.N;
  p.Kp = o.Kp;
  p.out = r.dst;
  p.hist = r.hist;
  p.buckets = r.buckets;
  p.inv_width = r.width > 0 ? 1.0f / r.width : 0.0f;
  p.lo_scaled = r.width > 0 ? -r.lo / r.width : 0.0f;
  p.take_sqrt = r.take_sqrt;
  p.product = r.product;
  p.counts = r.counts;
  p.total = r.total;
  p.eps2 = r.eps2;
  p.minmax = r.minmax;
  return p;
}
template <class Launch>
cudaError_t dispatch(const Prepared& o, const Request& r, Launch&& launch) {
  const Params p = params_of(o, r);
  if (r.out == Out::hist && (r.buckets < 1 || r.buckets > hist_max_buckets)) return cudaErrorInvalidValue;
  const i64 c = o.Np / tile_side;
  const tdmaps::TileMap<tdmaps::LTM_E> ltm = tdmaps::TileMap<tdmaps::LTM_E>::make(c);
  bool ranged = false;
  tdmaps::TileRange<tdmaps::LTM_E> range;  // a range of LTM-E's blocks (Request::lam_begin, lam_end)
  if (const cudaError_t e = tile_range(r, ltm, ranged, range); e != cudaSuccess) return e;
  if (ranged) return range.count ? launch(range, std::integral_constant<Out, Out::hist>{}, p) : cudaSuccess;
  auto go = [&](auto map_tag) -> cudaError_t {
    const auto tiles = tdmaps::TileMap<decltype(map_tag)>::make(c);
    switch (r.out) {
      case Out::lower: return launch(tiles, std::integral_constant<Out, Out::lower>{}, p);
      case Out::condensed: return launch(tiles, std::integral_constant<Out, Out::condensed>{}, p);
      case Out::hist: return launch(tiles, std::integral_constant<Out, Out::hist>{}, p);
      default: return cudaErrorInvalidValue;  // mirror, count, minmax: run_extra_of
    }
  };
  return r.sched == Sched::ltm_e ? go(tdmaps::LTM_E{}) : go(tdmaps::BB{});
}

// The launch of one precision: every scheduler and output (the definitions behind run()).
template <Prec P> cudaError_t run_of(const Prepared& o, const Request& r, cudaStream_t s) {
  return dispatch(o, r, [&](const auto& tiles, auto out, const Params& p) {
    return launch<P, std::decay_t<decltype(tiles)>, decltype(out)::value>(r.kernel, p, tiles, s);
  });
}

// mirror, count and minmax (issues #37, #38): the classic epilogue (kernels classic and sm80-8w) over
// LTM-E's lower tiles, compiled apart (gram_extra_<prec>.cu) so that the precisions' files build in
// parallel. Anything else: cudaErrorInvalidValue.
template <Prec P> cudaError_t run_extra_of(const Prepared& o, const Request& r, cudaStream_t s) {
  if (r.sched != Sched::ltm_e || (r.kernel != Kernel::classic && r.kernel != Kernel::sm80_8w) || r.lam_begin != 0 ||
      r.lam_end != Request::all_tiles)
    return cudaErrorInvalidValue;
  const Params p = params_of(o, r);
  const auto tiles = tdmaps::TileMap<tdmaps::LTM_E>::make(o.Np / tile_side);
  using T = std::decay_t<decltype(tiles)>;
  switch (r.out) {
    case Out::mirror:
      if (!r.dst) return cudaErrorInvalidValue;
      return launch<P, T, Out::mirror>(r.kernel, p, tiles, s);
    case Out::count:
      if (!r.counts || !r.total) return cudaErrorInvalidValue;
      return launch<P, T, Out::count>(r.kernel, p, tiles, s);
    case Out::minmax:
      if (!r.minmax) return cudaErrorInvalidValue;
      return launch<P, T, Out::minmax>(r.kernel, p, tiles, s);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace gram
