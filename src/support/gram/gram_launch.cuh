// src/support/gram/gram_launch.cuh — launching: the launch of our SM80-mainloop kernels, the tile range of a
// request, and the one dispatch from a Request to a launch (dispatch(); run_of instantiates it for the SM80
// kernels, gram_sm90.cuh's run_of for sm90-ws). Part of gram.cuh.
#pragma once
#include "gram_kernels.cuh"
#include "gram_exact.hpp"  // the exact mode's replay

namespace gram {

// A kernel's dynamic shared memory past 48 KB is allowed by its function attribute, set before every launch
// (as CUTLASS's own adapter does; no state kept between calls: run() may be called from any thread, device
// and stream).
template <class K> cudaError_t allow_dynamic_smem(K k, int smem) {
  return cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
}

// Launches a kernel of ours over the tiles of `tiles` (a TileMap over c = Np / 128 tiles, or a TileRange of
// its blocks): the map's (range's) grid, one block a tile. classic: 4 warps; sm80-8w: 8 warps.
// (sm90-ws: gram_sm90.cuh; sm90-evt: gram_sm90_evt.cu. run() dispatches them.)
template <Prec P, class Tiles, Out O>
cudaError_t launch(Kernel kern, const Params& p, const Tiles& tiles, cudaStream_t s = 0) {
  const tdmaps::Dim3 g = tiles.grid();
  auto go = [&](auto shape) -> cudaError_t {
    using Shp = decltype(shape);
    auto k = gram_kernel_classic<P, Tiles, O, Shp>;
    constexpr int smem = smem_bytes_classic<P, Shp>();
    if (const cudaError_t e = allow_dynamic_smem(k, smem); e != cudaSuccess) return e;
    k<<<dim3(g.x, g.y, g.z), Shp::threads, smem, s>>>(p, tiles);
    return cudaGetLastError();
  };
  if (kern == Kernel::classic) return go(ClassicShape<P>{});
  if (kern == Kernel::sm80_8w) return go(Warp8Shape<P>{});
  return cudaErrorInvalidValue;
}

// A Request's tile range (Request::lam_begin, lam_end) over LTM-E's tiles `ltm`: ranged = false for
// the whole grid (the default, or [0, c(c+1)/2) given), else `range`. Ranges are for the fused
// reductions (hist, hist_exact, count, count_exact: multi_hist's lambda ranges) under LTM-E alone; any other use,
// or a range past the grid: cudaErrorInvalidValue. (Past
// c = 65535 the grid has several rows, the last row's tail outside: launched() >= c(c+1)/2, short of
// it by less than the rows.)
inline cudaError_t tile_range(const Request& r, const tdmaps::TileMap<tdmaps::LTM_E>& ltm, bool& ranged,
                              tdmaps::TileRange<tdmaps::LTM_E>& range) {
  const unsigned long long n = ltm.launched(), used = tdmaps::TileMap<tdmaps::LTM_E>::useful(ltm.side());
  const unsigned long long end = r.lam_end == Request::all_tiles ? n : r.lam_end;
  ranged = !(r.lam_begin == 0 && end >= used && end <= n);
  if (!ranged) return cudaSuccess;
  const bool reduction = r.out == Out::hist || r.out == Out::hist_exact || r.out == Out::count || r.out == Out::count_exact;
  if (!reduction || r.sched != Sched::ltm_e || r.lam_begin > end || end > n)
    return cudaErrorInvalidValue;
  range = tdmaps::TileRange<tdmaps::LTM_E>::make(ltm, r.lam_begin, end);
  return cudaSuccess;
}

// One request's kernel parameters, its tile source (LTM-E, the bounding box, or a range of LTM-E's
// tiles) and output, for every kernel family: `launch(tiles, out, p)` gets the tile source, the output
// as std::integral_constant<Out, ...> and the parameters, and launches (run_of below; gram_sm90.cuh).
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
  if (r.out == Out::count_exact || r.out == Out::hist_exact) {
    // The bracket (issue #37 item 2). gram_cpu.hpp's bound: |d2_gpu - d2_exact| <= c_P S, S = (|x_i| + |x_j|)^2
    // <= 2 (|x_i|^2 + |x_j|^2). The kernel has the norms in float (relative error <= (d + 1) 2^-24 <= 2^-10 for
    // d <= 8192), and rounds d2 - E, d2 + E and E itself (each <= 2^-24 relative, and E >= c_P d2 >= 2^-20 d2
    // since S >= d2): the factor 1.5 on 2 c_P covers them with room (0.5 c_P S against at most 2^-9 c_P S + 3 2^-24 d2).
    // The float64 reference's own roundings (d2_exact and its sqrt, ~d 2^-53 relative) are far inside too.
    // Centered operands (Prepared::centered): y_ik = fl(x_ik - mu_k) moves each point by e_i, |e_i| <= 2^-24 |y_i| (1 + 2^-24),
    // so |d2(y) - d2(x)| <= 2 d |e_i - e_j| + |e_i - e_j|^2 <= 2^-23 (|y_i| + |y_j|)^2 (1 + 2^-22): c_P + 2^-22 covers it
    // twice over, S now of the y's (the norms the kernel has).
    p.bracket = float(3.0 * (gram_cpu::bound_coef(name(o.prec), o.d) + (o.centered ? std::ldexp(1.0, -22) : 0.0)));
    // count_exact: sure within when d2 + E < eps^2 rounded down, sure outside when d2 - E > eps^2 rounded up.
    const double e2 = r.eps * r.eps;
    p.eps2 = std::nextafter(float(e2), 0.0f);
    p.eps2_hi = std::nextafter(float(e2), INFINITY);
    // hist_exact: q = (d - lo) / w in float: sqrt.approx (<= 2^-21 relative), the FFMA with the rounded 1 / w and
    // -lo / w (<= 3 2^-24 of |q| + |lo / w|): a margin of (buckets + |lo / w| + 1) 2^-19 in bucket units, 2.6x that.
    p.q_margin = float((double(r.buckets) + std::fabs(double(p.lo_scaled)) + 1.0) * std::ldexp(1.0, -19));
    p.replay = r.replay;
    p.replay_cap = r.replay_cap;
    p.replay_n = r.replay_n;
  }
  return p;
}
// The one dispatch: checks the request (its output's group and pointers, buckets, scheduler, tile range) and
// calls `launch(tiles, out, p)` (on stream s; the exact mode's replay follows it there) with the tile source, the output as std::integral_constant<Out, ...> and the
// parameters. Anything it does not serve: cudaErrorInvalidValue, before any launch.
template <OutGroup G, class Launch>
cudaError_t dispatch(const Prepared& o, const Request& r, cudaStream_t s, Launch&& launch) {
  if (out_group(r.out) != G) return cudaErrorInvalidValue;
  switch (r.out) {
    case Out::hist:
      if (r.buckets < 1 || r.buckets > hist_max_buckets) return cudaErrorInvalidValue;
      break;
    case Out::mirror:
      if (!r.dst) return cudaErrorInvalidValue;
      break;
    case Out::count:  // eps2 >= 0: the kernels' one-FSETP test (epi::within_eps2) assumes it
      if (!r.counts || !r.total || !(r.eps2 >= 0)) return cudaErrorInvalidValue;
      break;
    case Out::minmax:
      if (!r.minmax) return cudaErrorInvalidValue;
      break;
    case Out::count_exact:
      if (!r.counts || !r.total || !r.X || !r.replay_n || (r.replay_cap && !r.replay) || !(r.eps >= 0))
        return cudaErrorInvalidValue;
      break;
    case Out::hist_exact:
      if (!r.hist || !r.edges || !r.X || !r.replay_n || (r.replay_cap && !r.replay) || r.buckets < 1 ||
          r.buckets > hist_max_buckets || r.buckets > exact::max_bins || !(r.width > 0))
        return cudaErrorInvalidValue;
      break;
    default: break;
  }
  if ((r.out == Out::count_exact || r.out == Out::hist_exact) && o.N >= (i64(1) << 32)) return cudaErrorInvalidValue;
  if (r.product && o.centered) return cudaErrorInvalidValue;  // X X^T is not of the shifted points
  if (G == OutGroup::extra && r.sched != Sched::ltm_e) return cudaErrorInvalidValue;
  const Params p = params_of(o, r);
  const i64 c = o.Np / tile_side;
  const tdmaps::TileMap<tdmaps::LTM_E> ltm = tdmaps::TileMap<tdmaps::LTM_E>::make(c);
  bool ranged = false;
  tdmaps::TileRange<tdmaps::LTM_E> range;  // a range of LTM-E's blocks (Request::lam_begin, lam_end)
  if (const cudaError_t e = tile_range(r, ltm, ranged, range); e != cudaSuccess) return e;
  using Lower = std::integral_constant<Out, Out::lower>;
  using Condensed = std::integral_constant<Out, Out::condensed>;
  using Hist = std::integral_constant<Out, Out::hist>;
  using Mirror = std::integral_constant<Out, Out::mirror>;
  using Count = std::integral_constant<Out, Out::count>;
  using Minmax = std::integral_constant<Out, Out::minmax>;
  if constexpr (G == OutGroup::tile) {
    if (ranged) return range.count ? launch(range, Hist{}, p) : cudaSuccess;
    auto go = [&](auto map_tag) -> cudaError_t {
      const auto tiles = tdmaps::TileMap<decltype(map_tag)>::make(c);
      switch (r.out) {
        case Out::lower: return launch(tiles, Lower{}, p);
        case Out::condensed: return launch(tiles, Condensed{}, p);
        case Out::hist: return launch(tiles, Hist{}, p);
        default: return cudaErrorInvalidValue;
      }
    };
    return r.sched == Sched::ltm_e ? go(tdmaps::LTM_E{}) : go(tdmaps::BB{});
  } else {
    using HistExact = std::integral_constant<Out, Out::hist_exact>;
    using CountExact = std::integral_constant<Out, Out::count_exact>;
    if (ranged) {  // a reduction over a range of LTM-E's blocks (multi_hist --app gram), the exact ones then their replay
      switch (r.out) {
        case Out::count: return range.count ? launch(range, Count{}, p) : cudaSuccess;
        case Out::count_exact:
          if (range.count)
            if (const cudaError_t e = launch(range, CountExact{}, p); e != cudaSuccess) return e;
          return exact::replay_count(r.X, o.N, o.d, r.eps, r.replay, r.replay_n, r.replay_cap, r.counts, r.total, s);
        default:  // hist_exact (tile_range refuses the other outputs)
          if (range.count)
            if (const cudaError_t e = launch(range, HistExact{}, p); e != cudaSuccess) return e;
          return exact::replay_histogram(r.X, o.N, o.d, r.edges, r.buckets, r.replay, r.replay_n, r.replay_cap, r.hist, s);
      }
    }
    switch (r.out) {
      case Out::mirror: return launch(ltm, Mirror{}, p);
      case Out::count: return launch(ltm, Count{}, p);
      case Out::minmax: return launch(ltm, Minmax{}, p);
      case Out::count_exact: {  // the tensor cores' bracketed count, then the replayed pairs in float64
        if (const cudaError_t e = launch(ltm, CountExact{}, p); e != cudaSuccess) return e;
        return exact::replay_count(r.X, o.N, o.d, r.eps, r.replay, r.replay_n, r.replay_cap, r.counts, r.total, s);
      }
      case Out::hist_exact: {
        if (const cudaError_t e = launch(ltm, HistExact{}, p); e != cudaSuccess) return e;
        return exact::replay_histogram(r.X, o.N, o.d, r.edges, r.buckets, r.replay, r.replay_n, r.replay_cap, r.hist, s);
      }
      default: return cudaErrorInvalidValue;
    }
  }
}

// The launch of one precision and output group on the kernels classic and sm80-8w (the definitions behind run()).
template <Prec P, OutGroup G = OutGroup::tile> cudaError_t run_of(const Prepared& o, const Request& r, cudaStream_t s) {
  return dispatch<G>(o, r, s, [&](const auto& tiles, auto out, const Params& p) {
    return launch<P, std::decay_t<decltype(tiles)>, decltype(out)::value>(r.kernel, p, tiles, s);
  });
}

}  // namespace gram
