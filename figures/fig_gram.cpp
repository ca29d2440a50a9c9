// figures/fig_gram.cpp — the tensor-core pairwise distances of issue #27 (gram.csv, bench_gram) and the
// figure of I against the GPU time per block across every experiment of the package.
#include "peaks.hpp"
#include "figures.hpp"
#include "select.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace figs {
namespace {
const TableRow* gram_row(const std::vector<TableRow>& rows, const std::string& N, const std::string& d, const std::string& prec,
                    const std::string& output, const std::string& impl) {
  return pick_rows::gram(rows, N, d, prec, output, impl);
}

// The names gram.csv spells (results/gram_names.hpp, the producer's): precisions, outputs, impls.
using gram::Output;
using gram::Kernel;
const std::string kTf32 = gram::name(gram::Prec::tf32), k3xTf32 = gram::name(gram::Prec::tf32x3), kBf16 = gram::name(gram::Prec::bf16);
std::string out_name(Output o) { return gram::name(o); }
const std::string kLower = out_name(Output::lower), kFull = out_name(Output::full), kFullGram = out_name(Output::full_gram),
                  kHist = out_name(Output::hist), kCount = out_name(Output::count), kMirrorGram = out_name(Output::mirror_gram);
// our kernel k under LTM-E (the classic kernel's impl: tdmaps-ltm-e), the classic kernel under the bb-grid
std::string ltm_e_of(Kernel k) { return gram::impl_name(gram::Sched::ltm_e, k); }
const std::string kLtmE = ltm_e_of(Kernel::classic), kBbGrid = gram::impl_name(gram::Sched::bb, Kernel::classic);
// the kernels of our LTM-E rows (pick_rows::gram_ltm_kernel) at a precision and output, in the rows' order
std::vector<Kernel> ltm_kernels(const std::vector<TableRow>& rows, const std::string& prec, const std::string& output) {
  std::vector<Kernel> ks;
  for (const TableRow& r : rows) {
    Kernel k;
    if (pick_rows::gram_ltm_kernel(r.s("impl"), k) && r.s("precision") == prec && r.s("output") == output &&
        std::find(ks.begin(), ks.end(), k) == ks.end())
      ks.push_back(k);
  }
  return ks;
}

// The TF32 dense peak (a model constant): results/peaks.hpp, where target 36-lower-256 reads it too.
using results::kTf32PeakSource;
using results::kTf32PeakTflops;
using results::tf32_peak;
}  // namespace

// Time against d at each N: ours (LTM-E and bb-grid) in every precision, cuBLAS with and without the epilogue,
// torch.cdist (peers_gram.csv) and the bytes of the triangle written by a plain kernel (the floor the write sets).
void gram_time(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "gram_time", g, results::layout::gram, {"N", "d", "precision", "output", "impl", "median_ms"});
  if (!t) return;
  const std::vector<TableRow> rows = t->rows();
  const Table* pt = g.get(results::layout::peers_gram);
  const std::vector<TableRow> prows = pt ? pt->rows() : std::vector<TableRow>{};
  struct Line {
    std::string prec, output, impl;
    const char *label, *color;
    int pt, dt;
    bool peer;  // from peers_gram.csv
  };
  const Line lines[] = {
      {kTf32, kLower, kLtmE, "ours TF32, classic kernel, LTM-E", "#1f77b4", 7, 1, false},
      {kTf32, kLower, kBbGrid, "ours TF32, classic kernel, bb-grid", "#1f77b4", 6, 2, false},
      {kTf32, kLower, ltm_e_of(Kernel::sm90_ws), "ours TF32, sm90-ws kernel (TMA + wgmma), LTM-E", "#17becf", 5, 1, false},
      {kTf32, kLower, ltm_e_of(Kernel::sm90_evt), "ours TF32, sm90-evt (stock CUTLASS 3 GEMM + the tdmaps scheduler), LTM-E",
       "#e377c2", 3, 1, false},
      {k3xTf32, kLower, kLtmE, "ours 3xTF32 (FP32-accurate), classic, LTM-E", "#2ca02c", 5, 1, false},
      {kBf16, kLower, kLtmE, "ours BF16, classic, LTM-E", "#9467bd", 9, 1, false},
      {kTf32, kFullGram, gram::peer::cublas_gemm, "cuBLAS TF32 GEMM alone (full N×N, no epilogue)", "#ff7f0e", 11, 2, false},
      {kTf32, kFull, gram::peer::cublas_gemm_epilogue, "cuBLAS TF32 GEMM + epilogue", "#ff7f0e", 11, 1, false},
      {gram::peer::fp32, kLower, gram::peer::cublas_syrk_epilogue, "cuBLAS FP32 SSYRK + epilogue", "#d62728", 13, 1, false},
      {kTf32, kFull, gram::peer::torch_cdist, "torch.cdist, TF32 allowed (full N×N; peers_gram.csv, another program)", "#8c564b", 4, 2, true},
      {gram::peer::none, kLower, gram::peer::write, "writing the triangle alone", "#000000", 0, 3, false},
  };
  Figure f;
  f.name = "gram_time";
  f.title = title_of("Squared distances on the tensor cores: time against d (lower triangle)", &g);
  f.width = 1300;
  f.height = 720;
  const std::string d_read = "128";  // the reading's d
  Slots slots;
  slots.list("sizes");
  for (const std::string N : {"32768", "65536"}) {
    Panel p;
    p.title = "N = " + fmt_int(std::stod(N));
    p.xlabel = "d (features)";
    p.ylabel = "ms (median)";
    p.logx = true;
    p.logy = true;
    p.key = "below";
    for (const Line& l : lines) {
      Series s;
      s.label = l.label;
      s.color = l.color;
      s.pt = l.pt;
      s.dt = l.dt;
      for (const char* d : {"64", "128", "256"}) {
        const TableRow* r = gram_row(l.peer ? prows : rows, N, d, l.prec, l.output, l.impl);
        if (r && std::isfinite(r->d("median_ms"))) {
          s.x.push_back(std::stod(d));
          s.y.push_back(r->d("median_ms"));
        }
      }
      if (!s.x.empty()) p.series.push_back(s);
    }
    if (p.series.empty()) continue;
    double ylo = INFINITY, yhi = 0;
    for (const Series& s : p.series)
      for (double y : s.y) ylo = std::min(ylo, y), yhi = std::max(yhi, y);
    p.yrange = std::make_pair(std::pow(10.0, std::floor(std::log10(ylo / 1.2))), std::pow(10.0, std::ceil(std::log10(yhi * 1.2))));
    p.xrange = std::make_pair(32.0, 400.0);  // log axis, tics a factor 2 apart from 32: 64, 128, 256 marked
    p.xtic = 2;
    f.panels.push_back(p);
    const TableRow* o = gram_row(rows, N, d_read, kTf32, kLower, kLtmE);
    const TableRow* ws = gram_row(rows, N, d_read, kTf32, kLower, ltm_e_of(Kernel::sm90_ws));
    const TableRow* w = gram_row(rows, N, d_read, gram::peer::none, kLower, gram::peer::write);
    const TableRow* ge = gram_row(rows, N, d_read, kTf32, kFull, gram::peer::cublas_gemm_epilogue);
    const TableRow* cd = gram_row(prows, N, d_read, kTf32, kFull, gram::peer::torch_cdist);
    if (o && w && ge)
      slots.add("sizes")
          .set("n", fmt_int(std::stod(N)))
          .set("d", d_read)
          .set("classic", fmt(o->d("median_ms"), 2))
          .set("ws", ws ? fmt(ws->d("median_ms"), 2) : "")
          .set("write", fmt(w->d("median_ms"), 2))
          .set("gemm_epilogue", fmt(ge->d("median_ms"), 2))
          .set("cdist", cd ? fmt(cd->d("median_ms"), 2) : "");
  }
  if (f.panels.empty()) return skip(ctx, "gram_time", &g, "gram.csv has no rows at N = 32768 or 65536");
  emit(ctx, f, &g, slots);
}

// The roofline of the TF32 lower-triangle kernels: useful TFLOP/s (2d·N(N+1)/2 flops over the median, gram.csv's
// TFLOPs) against the useful flops per byte written (TFLOPs / GBps, = d/2 for the triangle), under two ceilings:
// the same run's measured write bandwidth (median of its `write` rows of the triangle) and the TF32 tensor-core
// peak (a model constant, kTf32PeakTflops); and the bytes written per second against d, with that bandwidth and
// the 80 % of it.
void gram_roofline(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "gram_roofline", g, results::layout::gram, {"N", "d", "precision", "output", "impl", "TFLOPs", "GBps"});
  if (!t) return;
  const std::vector<TableRow> rows = t->rows();
  std::vector<double> bw;
  for (const TableRow& r : rows)
    if (r.s("impl") == gram::peer::write && r.s("output") == kLower) bw.push_back(r.d("GBps"));
  const double wbw = median(bw);
  const double peak = tf32_peak(t->meta_or("gpu", g.name()));
  const std::vector<Kernel> kernels = ltm_kernels(rows, kTf32, kLower);
  if (kernels.empty()) return skip(ctx, "gram_roofline", &g, "gram.csv has no TF32 lower-triangle rows of our kernels");
  const auto color = [](Kernel k) {
    return k == Kernel::classic ? "#1f77b4" : k == Kernel::sm80_8w ? "#2ca02c" : k == Kernel::sm90_ws ? "#17becf" : "#7f7f7f";
  };
  const auto ptype = [](Kernel k, bool first) {
    const int filled = k == Kernel::classic ? 7 : k == Kernel::sm80_8w ? 9 : k == Kernel::sm90_ws ? 5 : 13;
    return first ? filled : filled - 1;  // gnuplot: the open shape is one below the filled one
  };
  Panel a, b;
  a.title = "useful TFLOP/s against flops per byte written";
  a.xlabel = "useful flops per byte written (TFLOPs / GBps of gram.csv)";
  a.ylabel = "TFLOP/s of useful work";
  a.logx = a.logy = true;
  a.key = "below";
  b.title = "bytes written per second against d";
  b.xlabel = "d (features)";
  b.ylabel = "GB/s written";
  b.logx = true;
  b.key = "below";
  double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
  Slots slots;
  slots.list("kernels");
  for (Kernel k : kernels) {
    std::vector<double> tf, pw;
    for (size_t i = 0; i < pick_rows::gram_target_N().size(); ++i) {
      const std::string& N = pick_rows::gram_target_N()[i];
      Series sa, sb;
      sa.label = sb.label = gram::name(k) + (", N = " + fmt_int(std::stod(N)));
      sa.color = sb.color = color(k);
      sa.pt = sb.pt = ptype(k, i == 0);
      sa.dt = sb.dt = i == 0 ? 1 : 2;
      for (const std::string& d : pick_rows::gram_target_d()) {
        const TableRow* r = gram_row(rows, N, d, kTf32, kLower, ltm_e_of(k));
        if (!r || !(r->d("TFLOPs") > 0) || !(r->d("GBps") > 0)) continue;
        const double x = r->d("TFLOPs") * 1e3 / r->d("GBps");
        sa.x.push_back(x);
        sa.y.push_back(r->d("TFLOPs"));
        sb.x.push_back(std::stod(d));
        sb.y.push_back(r->d("GBps"));
        xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, r->d("TFLOPs")), yhi = std::max(yhi, r->d("TFLOPs"));
        tf.push_back(r->d("TFLOPs"));
        pw.push_back(100 * r->d("GBps") / wbw);
      }
      if (sa.x.empty()) continue;
      a.series.push_back(sa);
      b.series.push_back(sb);
    }
    if (tf.empty()) continue;
    const auto [tmin, tmax] = std::minmax_element(tf.begin(), tf.end());
    const auto [pmin, pmax] = std::minmax_element(pw.begin(), pw.end());
    slots.add("kernels")
        .set("kernel", gram::name(k))
        .set("tflops_min", fmt(*tmin, 1))
        .set("tflops_max", fmt(*tmax, 1))
        .set("peak_min", std::isfinite(peak) ? fmt(100 * *tmin / peak, 0) : "")
        .set("peak_max", std::isfinite(peak) ? fmt(100 * *tmax / peak, 0) : "")
        .set("bw_min", std::isfinite(wbw) ? fmt(*pmin, 0) : "")
        .set("bw_max", std::isfinite(wbw) ? fmt(*pmax, 0) : "");
  }
  if (a.series.empty())
    return skip(ctx, "gram_roofline", &g, "gram.csv has no TF32 lower-triangle rows with TFLOPs and GBps at N = 32768 or 65536");
  {  // cuBLAS's GEMM alone, on the same axes (its bytes are the full N×N; its flops counted as ours, the useful ones)
    Series s;
    s.label = "cuBLAS TF32 GEMM alone (writes the full N×N; useful flops)";
    s.color = "#ff7f0e";
    s.pt = 11;
    s.with = "points";
    for (const std::string& N : pick_rows::gram_target_N())
      for (const std::string& d : pick_rows::gram_target_d())
        if (const TableRow* r = gram_row(rows, N, d, kTf32, kFullGram, gram::peer::cublas_gemm))
          if (r->d("TFLOPs") > 0 && r->d("GBps") > 0) {
            s.x.push_back(r->d("TFLOPs") * 1e3 / r->d("GBps"));
            s.y.push_back(r->d("TFLOPs"));
            xlo = std::min(xlo, s.x.back()), xhi = std::max(xhi, s.x.back());
            ylo = std::min(ylo, s.y.back()), yhi = std::max(yhi, s.y.back());
          }
    if (!s.x.empty()) a.series.push_back(s);
  }
  // log axes: x from a power of 2 with tics a factor 2 apart (the triangle's flops a byte are d/2), y by decades
  xlo = std::exp2(std::floor(std::log2(xlo / 1.4))), xhi = std::exp2(std::ceil(std::log2(xhi * 1.4)));
  a.xtic = 2;
  if (std::isfinite(wbw)) {
    Series c;
    c.label = "ceiling: the run's write bandwidth, " + fmt(wbw, 0) + " GB/s (median of its write rows) × flops/byte";
    c.color = "#d62728";
    c.with = "lines";
    c.dt = 2;
    c.x = {xlo, xhi};
    c.y = {wbw * xlo / 1e3, wbw * xhi / 1e3};
    a.series.push_back(c);
    yhi = std::max(yhi, std::min(c.y.back(), std::isfinite(peak) ? peak : c.y.back()));
    b.hlines.push_back(HLine{wbw, "the run's write bandwidth (median of its write rows)", "#d62728", 2, 1.6});
    b.hlines.push_back(HLine{0.8 * wbw, "80 % of it (issue #27's target)", "#d62728", 3, 1.2});
    b.yrange = std::make_pair(0.0, wbw * 1.1);
  }
  if (std::isfinite(peak)) {
    a.hlines.push_back(HLine{peak, "ceiling: TF32 tensor-core peak, dense, " + fmt(peak, 1) + " TFLOP/s (datasheet; a model constant)",
                             "#000000", 1, 1.4});
    yhi = std::max(yhi, peak);
  }
  a.xrange = std::make_pair(xlo, xhi);
  a.yrange = std::make_pair(std::pow(10.0, std::floor(std::log10(ylo / 1.2))), std::pow(10.0, std::ceil(std::log10(yhi * 1.2))));
  b.xrange = std::make_pair(32.0, 400.0);
  b.xtic = 2;
  Figure f;
  f.name = "gram_roofline";
  f.title = title_of("Squared distances on the tensor cores (TF32, lower triangle): roofline", &g);
  f.width = 1300;
  f.height = 750;
  f.panels.push_back(a);
  f.panels.push_back(b);
  const bool meet = std::isfinite(wbw) && std::isfinite(peak);
  slots.set("meet", meet ? fmt(peak * 1e3 / wbw, 0) : "").set("meet_d", meet ? fmt(2 * peak * 1e3 / wbw, 0) : "");
  slots.set("peak", std::isfinite(peak) ? fmt(peak, 1) : "").set("peak_source", kTf32PeakSource);
  emit(ctx, f, &g, slots);
}

// I = t(BB) / t(map) against the GPU time per useful block (median time over the blocks the map launches),
// one series per experiment: where a block does little, the empty blocks of BB cost a large share; where a block
// does microseconds of work, the launch of the empty ones stops mattering.
void block_work_I(Ctx& ctx, const GpuData& g) {
  struct Src {
    std::string label, file, color;
    int pt;
  };
  Panel p;
  p.title = "";
  p.xlabel = "GPU time per useful block, ns (median kernel time / blocks of the map)";
  p.ylabel = "I = t(BB) / t(map)";
  p.logx = true;
  p.key = "below";
  Slots slots;
  slots.list("experiments");
  auto add = [&](const std::string& label, const std::string& color, int pt, std::vector<std::pair<double, double>> pts) {
    if (pts.empty()) return;
    std::sort(pts.begin(), pts.end());
    Series s;
    s.label = label;
    s.color = color;
    s.pt = pt;
    s.with = "points";
    for (const auto& [x, y] : pts) {
      s.x.push_back(x);
      s.y.push_back(y);
    }
    p.series.push_back(s);
    std::vector<double> ys;
    for (const auto& q : pts) ys.push_back(q.second);
    slots.add("experiments")
        .set("series", label)
        .set("ns_min", fmt(pts.front().first, 1))
        .set("ns_max", fmt(pts.back().first, 1))
        .set("median_i", fmt(median(ys), 3));
  };
  const auto blocks2 = [](double N, double rho) {
    const double n = std::ceil(N / rho);
    return n * (n + 1) / 2;
  };
  if (const Table* t = g.get(results::layout::dummy)) {
    std::vector<std::pair<double, double>> v;
    const std::string store = pick_rows::form_name(pick_rows::Form::Store);
    for (const TableRow& r : t->rows())
      if (r.s("map") == tdmaps::LTM_E::name && r.s("rho") == "16" && r.s("form") == store && std::isfinite(r.d("I")))
        v.emplace_back(r.d("median_ms") * 1e6 / r.d("useful_blocks"), r.d("I"));
    add("dummy (" + store + "), " + tdmaps::LTM_E::name + ", ρ = 16", "#7f7f7f", 1, v);
  }
  if (const Table* t = g.get(results::layout::edm)) {
    std::vector<std::pair<double, double>> v;
    for (const TableRow& r : t->rows())
      if (r.s("map") == tdmaps::LTM_E::name && r.s("rho") == "16" && r.s("variant") == edm_variant::full && r.s("features") == "4" &&
          std::isfinite(r.d("I")))
        v.emplace_back(r.d("median_ms") * 1e6 / blocks2(r.d("N"), 16), r.d("I"));
    add(std::string("EDM, 4 features, ") + tdmaps::LTM_E::name + ", ρ = 16", "#1f77b4", 7, v);
  }
  if (const Table* t = g.get(results::layout::collision)) {
    std::vector<std::pair<double, double>> v;
    for (const TableRow& r : t->rows())
      if (r.s("test") == apps_test::collision && r.s("map") == tdmaps::LTM_E::name && r.s("rho") == "16" &&
          r.s("variant") == collision_dim::d3 && std::isfinite(r.d("I")))
        v.emplace_back(r.d("median_ms") * 1e6 / blocks2(r.d("N"), 16), r.d("I"));
    add(std::string("collision 3D, ") + tdmaps::LTM_E::name + ", ρ = 16", "#ff7f0e", 5, v);
  }
  if (const Table* t = g.get(results::layout::tet_threebody)) {
    std::vector<std::pair<double, double>> v;
    for (const TableRow& r : t->rows())
      if (r.s("map") == tdmaps::TET_E::name && r.s("mode") == results::kBlockMode && std::isfinite(r.d("I")) &&
          r.d("useful_blocks") > 0)
        v.emplace_back(r.d("median_ms") * 1e6 / r.d("useful_blocks"), r.d("I"));
    add(std::string("three-body (3D), ") + tdmaps::TET_E::name, "#2ca02c", 9, v);
  }
  if (const Table* t = g.get(results::layout::gram)) {
    std::vector<std::pair<double, double>> v, h;
    for (const TableRow& r : t->rows())
      if (r.s("impl") == kLtmE && std::isfinite(r.d("I")) && r.d("useful_tiles") > 0)
        (r.s("output") == kHist ? h : v).emplace_back(r.d("median_ms") * 1e6 / r.d("useful_tiles"), r.d("I"));
    add("GEMM tiles (pairwise distances, 128×128), ltm-e", "#d62728", 11, v);
    add("GEMM tiles, fused histogram", "#9467bd", 13, h);
  }
  if (p.series.empty()) return skip(ctx, "block_work_I", &g, "no dummy, EDM, collision, three-body or gram CSV");
  p.hlines.push_back(HLine{1.0, "I = 1", "#000000", 2, 1.0});
  Figure f;
  f.name = "block_work_I";
  f.title = title_of("Where a map matters: I against the work per block, every experiment", &g);
  f.width = 1100;
  f.height = 700;
  f.panels.push_back(p);
  emit(ctx, f, &g, slots);
}

}  // namespace figs

namespace figs {
// Issue #37: the pair reductions (nothing of N² written) in pairs per second against N, at d = 128: the
// fused histogram and the ε-count of each of our kernels, the exact mode's ε-count (float64, CUDA cores),
// and, as lines, the TF32 roof at d = 128 (the dense peak over 2d flops a pair) and the SDH kernels'
// best rate (sdh.csv, d = 3: another problem, the papers' own).
void gram_reductions(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "gram_reductions", g, results::layout::gram, {"N", "d", "precision", "output", "impl", "median_ms"});
  if (!t) return;
  const std::vector<TableRow> rows = t->rows();
  const std::string d = "128";
  // two panels: the tensor-core reductions within their stated bound (gram.csv), and the exact ones, equal to float64
  // (the all-float64 count of gram.csv, the bracketed modes of gram_exact.csv); one series per (output, impl, ...)
  std::map<std::string, Series> by;
  std::vector<std::string> order[2];
  double best = 0, best_N = 0, best_tf32 = 0;
  std::string best_what, best_tf32_what;
  const auto series = [&](int panel, const std::string& key, auto&& make) -> Series& {
    if (!by.count(key)) {
      by[key] = make();
      order[panel].push_back(key);
    }
    return by[key];
  };
  for (const TableRow& r : rows) {
    const std::string out = r.s("output"), impl = r.s("impl");
    if (r.s("d") != d || !(out == kHist || out == kCount) || !(r.d("median_ms") > 0)) continue;
    Kernel kern = Kernel::classic;
    const bool ours = pick_rows::gram_ltm_kernel(impl, kern);
    if (!ours && impl != gram::peer::fp64_exact) continue;
    const std::string k = ours ? gram::name(kern) : "";
    const double N = r.d("N"), pairs_s = N * (N - 1) / 2 / (r.d("median_ms") * 1e-3);
    const std::string key = out + (k.empty() ? ", exact (float64, CUDA cores)" : ", " + k + ", " + r.s("precision"));
    const bool bf16 = r.s("precision") == gram::name(gram::Prec::bf16), fp16 = r.s("precision") == gram::name(gram::Prec::fp16);
    Series& s = series(ours ? 0 : 1, key, [&] {
      Series n;
      n.label = (out == kHist ? "histogram" : "ε-count") + key.substr(out.size());
      n.color = !ours ? "#d62728" : kern == Kernel::classic ? "#1f77b4" : kern == Kernel::sm80_8w ? "#2ca02c" : kern == Kernel::sm90_ws ? "#17becf" : "#7f7f7f";
      n.pt = out == kHist ? (bf16 ? 6 : fp16 ? 13 : 7) : (bf16 ? 4 : fp16 ? 12 : 5);  // TF32 filled, BF16 open, FP16 diamonds
      n.dt = out == kHist ? 1 : 2;
      return n;
    });
    s.x.push_back(N);
    s.y.push_back(pairs_s);
    if (pairs_s > best) best = pairs_s, best_N = N, best_what = s.label;
    if (ours && r.s("precision") == gram::name(gram::Prec::tf32) && pairs_s > best_tf32) best_tf32 = pairs_s, best_tf32_what = s.label;
  }
  // the bracketed exact mode (gram_exact.csv, bench_gram --exact-N): tensor cores, the straddling pairs in float64;
  // every row equal to the all-float64 result (equal_fp64 = 1), one series per (output, kernel, precision, buckets)
  if (const Table* x = g.get(results::layout::gram_exact))
    for (const TableRow& r : x->rows()) {
      if (r.s("d") != d || r.d("equal_fp64") != 1 || !(r.d("median_ms") > 0)) continue;
      Kernel kern = Kernel::classic;
      if (!pick_rows::gram_ltm_kernel(r.s("impl"), kern)) continue;
      const bool hist = r.s("output") == gram::name(gram::Out::hist_exact);
      const std::string key = r.s("output") + ", " + gram::name(kern) + ", " + r.s("precision") + (hist ? ", " + r.s("buckets") : "");
      Series& s = series(1, key, [&] {
        Series n;
        n.label = std::string(hist ? "histogram" : "ε-count") + ", bracketed: " + r.s("precision") + " + float64 replay, " +
                  gram::name(kern) + (hist ? ", " + r.s("buckets") + " buckets" : "");
        n.color = r.s("precision") == gram::name(gram::Prec::tf32x3) ? "#9467bd" : "#8c564b";
        n.pt = hist ? 9 : 11;
        n.dt = kern == Kernel::classic ? 1 : 3;
        return n;
      });
      const double N = r.d("N");
      s.x.push_back(N);
      s.y.push_back(N * (N - 1) / 2 / (r.d("median_ms") * 1e-3));
    }
  if (order[0].empty() && order[1].empty())
    return skip(ctx, "gram_reductions", &g, "gram.csv has no histogram or count rows at d = 128");
  const double peak = tf32_peak(t->meta_or("gpu", g.name()));
  double sdh_best = 0;
  if (const Table* s = g.get(results::layout::sdh))
    for (const TableRow& r : s->rows()) sdh_best = std::max(sdh_best, r.d("pairs_per_s"));
  Figure f;
  f.name = "gram_reductions";
  f.title = title_of("Pair reductions without N² written (issue #37)", &g);
  f.width = 1500;
  f.height = 900;
  const char* titles[2] = {"tensor cores, within each precision's stated bound (d = 128)",
                           "exact: equal to float64 (d = 128)"};
  for (int k = 0; k < 2; ++k) {
    if (order[k].empty()) continue;
    Panel p;
    p.title = titles[k];
    p.xlabel = "N (points)";
    p.ylabel = "pairs i > j per second";
    p.logx = p.logy = true;
    p.xrange = std::make_pair(2e4, 2e6);  // the sizes measured (32768 .. 10^6), none on the frame
    p.key = "below";
    for (const std::string& key : order[k]) {
      const Series& s = by[key];
      std::vector<size_t> idx(s.x.size());
      for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return s.x[a] < s.x[b]; });
      Series o = s;
      for (size_t i = 0; i < idx.size(); ++i) o.x[i] = s.x[idx[i]], o.y[i] = s.y[idx[i]];
      p.series.push_back(o);
    }
    if (std::isfinite(peak))
      p.hlines.push_back(HLine{peak * 1e12 / (2.0 * 128), "TF32 dense peak / (2d flops a pair), d = 128", "#000000", 2});
    if (sdh_best > 0) p.hlines.push_back(HLine{sdh_best, "SDH kernels' best (sdh.csv, d = 3, CUDA cores)", "#ff7f0e", 3});
    f.panels.push_back(p);
  }
  Slots slots;
  slots.set("fastest", best_what).set("fastest_pairs_s", fmt_g(best, 3)).set("fastest_n", fmt_int(best_N)).set("d", d);
  slots.set("roof", "").set("roof_pct", "").set("fastest_tf32", "").set("sdh_best", "");
  if (std::isfinite(peak)) {
    const double roof = peak * 1e12 / (2.0 * 128);
    slots.set("roof", fmt_g(roof, 3)).set("roof_pct", fmt(100 * best_tf32 / roof, 0)).set("fastest_tf32", best_tf32_what);
  }
  if (sdh_best > 0) slots.set("sdh_best", fmt_g(sdh_best, 3));
  emit(ctx, f, &g, slots);
}
}  // namespace figs

namespace figs {
// Issue #36: the ladder of our TF32 lower-triangle kernels at each size of the issue (classic,
// sm80-8w, sm90-ws, sm90-evt: whichever this gram.csv holds), as the share of the same run's triangle
// write; and the symmetric product X·Xᵀ (mirror-gram, BF16) against cuBLAS BF16 GEMM on the same operands.
void gram_ladder(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "gram_ladder", g, results::layout::gram, {"N", "d", "precision", "output", "impl", "median_ms"});
  if (!t) return;
  const std::vector<TableRow> rows = t->rows();
  Panel p;
  p.title = "TF32 lower triangle: % of the same run's triangle write";
  p.bars = true;
  p.ylabel = "% of the write bandwidth";
  p.yrange = std::make_pair(0.0, 100.0);
  p.key = "below";
  for (const std::string& N : pick_rows::gram_target_N())
    for (const std::string& d : pick_rows::gram_target_d()) p.categories.push_back("N=" + N + ", d=" + d);
  Slots slots;
  slots.list("kernels");
  for (Kernel k : gram::kKernels) {  // the ladder, in its order
    Series s;
    s.label = gram::name(k);
    s.color = k == Kernel::classic ? "#1f77b4" : k == Kernel::sm80_8w ? "#2ca02c" : k == Kernel::sm90_ws ? "#17becf" : "#d62728";
    bool any = false;
    double best = 0;
    for (const std::string& N : pick_rows::gram_target_N())
      for (const std::string& d : pick_rows::gram_target_d()) {
        const TableRow* r = gram_row(rows, N, d, kTf32, kLower, ltm_e_of(k));
        const TableRow* w = gram_row(rows, N, d, gram::peer::none, kLower, gram::peer::write);
        const double v = r && w && r->d("median_ms") > 0 ? 100 * w->d("median_ms") / r->d("median_ms") : NAN;
        s.y.push_back(v);
        if (std::isfinite(v)) any = true, best = std::max(best, v);
      }
    if (!any) continue;
    p.series.push_back(s);
    slots.add("kernels").set("kernel", gram::name(k)).set("best", fmt(best, 0));
  }
  if (p.series.empty()) return skip(ctx, "gram_ladder", &g, "gram.csv has no TF32 lower rows of our kernels with a write row");
  p.hlines.push_back(HLine{80, "issue #36's target: 80 % of the write", "#000000", 2});
  Figure f;
  f.name = "gram_ladder";
  f.title = title_of("The kernels' ladder (issue #36)", &g);
  f.panels.push_back(p);
  f.width = 1100;
  emit(ctx, f, &g, slots);
}

void gram_symmetric(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "gram_symmetric", g, results::layout::gram, {"N", "d", "precision", "output", "impl", "median_ms"});
  if (!t) return;
  const std::vector<TableRow> rows = t->rows();
  Panel p;
  p.title = "X·Xᵀ in BF16 (FP32 accumulation), the whole N×N: cuBLAS GEMM time over ours";
  p.bars = true;
  p.ylabel = "speed-up over cuBLAS BF16 GEMM";
  p.yrange = std::make_pair(0.0, 2.2);
  p.key = "below";
  std::vector<std::pair<std::string, std::string>> sizes;
  for (const TableRow& r : rows)
    if (r.s("output") == kMirrorGram && r.s("precision") == kBf16) {
      const std::pair<std::string, std::string> nd{r.s("N"), r.s("d")};
      if (std::find(sizes.begin(), sizes.end(), nd) == sizes.end()) sizes.push_back(nd);
    }
  if (sizes.empty()) return skip(ctx, "gram_symmetric", &g, "gram.csv has no BF16 mirror-gram rows");
  for (const auto& [N, d] : sizes) p.categories.push_back("N=" + N + ", d=" + d);
  Slots slots;
  slots.list("kernels");
  for (Kernel k : {Kernel::classic, Kernel::sm80_8w, Kernel::sm90_evt}) {  // sm90-evt: CUTLASS 3, the tdmaps scheduler
    Series s;
    s.label = "ours, " + std::string(gram::name(k)) + " (mirror-written)";
    s.color = k == Kernel::classic ? "#1f77b4" : k == Kernel::sm80_8w ? "#2ca02c" : "#d62728";
    double best = 0;
    for (const auto& [N, d] : sizes) {
      const TableRow* r = gram_row(rows, N, d, kBf16, kMirrorGram, ltm_e_of(k));
      const TableRow* c = gram_row(rows, N, d, kBf16, kFullGram, gram::peer::cublas_gemm);
      const double v = r && c && r->d("median_ms") > 0 ? c->d("median_ms") / r->d("median_ms") : NAN;
      s.y.push_back(v);
      if (std::isfinite(v)) best = std::max(best, v);
    }
    if (best == 0) continue;  // a kernel without these rows (sm90-evt: sm_90a only)
    p.series.push_back(s);
    slots.add("kernels").set("kernel", gram::name(k)).set("best", fmt(best, 2));
  }
  p.hlines.push_back(HLine{1.8, "issue #36's target (Muon sizes): 1.8×", "#000000", 2});
  p.hlines.push_back(HLine{1.0, "cuBLAS", "#7f7f7f", 3});
  Figure f;
  f.name = "gram_symmetric";
  f.title = title_of("The symmetric product X·Xᵀ (issue #36)", &g);
  f.panels.push_back(p);
  emit(ctx, f, &g, slots);
}
}  // namespace figs
