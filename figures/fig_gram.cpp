// figures/fig_gram.cpp — the tensor-core pairwise distances of issue #27 (gram.csv, bench_gram) and the
// figure of I against the GPU time per block across every experiment of the package.
#include "figures.hpp"

#include <cmath>
#include <map>

namespace figs {
namespace {
const Row* gram_row(const std::vector<Row>& rows, const std::string& N, const std::string& d, const std::string& prec,
                    const std::string& output, const std::string& impl) {
  for (const Row& r : rows)
    if (r.s("N") == N && r.s("d") == d && r.s("precision") == prec && r.s("output") == output && r.s("impl") == impl)
      return &r;
  return nullptr;
}
}  // namespace

// Time against d at each N: ours (LTM-E and bb-grid) in every precision, cuBLAS with and without the epilogue,
// and the bytes of the triangle written by a plain kernel (the floor the write sets).
void gram_time(Ctx& ctx, const GpuData& g) {
  const Table* t = need(ctx, "gram_time", g, "gram.csv", {"N", "d", "precision", "output", "impl", "median_ms"});
  if (!t) return;
  const std::vector<Row> rows = t->rows();
  struct Line {
    const char *prec, *output, *impl, *label, *color;
    int pt, dt;
  };
  const Line lines[] = {
      {"tf32", "lower", "tdmaps-ltm-e", "ours TF32, LTM-E", "#1f77b4", 7, 1},
      {"tf32", "lower", "bb-grid", "ours TF32, bb-grid", "#1f77b4", 6, 2},
      {"3xtf32", "lower", "tdmaps-ltm-e", "ours 3xTF32 (FP32-accurate), LTM-E", "#2ca02c", 5, 1},
      {"bf16", "lower", "tdmaps-ltm-e", "ours BF16, LTM-E", "#9467bd", 9, 1},
      {"tf32", "full-gram", "cublas-gemm", "cuBLAS TF32 GEMM alone (full N×N, no epilogue)", "#ff7f0e", 11, 2},
      {"tf32", "full", "cublas-gemm+epilogue", "cuBLAS TF32 GEMM + epilogue", "#ff7f0e", 11, 1},
      {"fp32", "lower", "cublas-syrk+epilogue", "cuBLAS FP32 SSYRK + epilogue", "#d62728", 13, 1},
      {"none", "lower", "write", "writing the triangle alone", "#000000", 0, 3},
  };
  Figure f;
  f.name = "gram_time";
  f.title = title_of("Squared distances on the tensor cores: time against d (lower triangle)", &g);
  f.width = 1300;
  std::string reading;
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
        const Row* r = gram_row(rows, N, d, l.prec, l.output, l.impl);
        if (r && std::isfinite(r->d("median_ms"))) {
          s.x.push_back(std::stod(d));
          s.y.push_back(r->d("median_ms"));
        }
      }
      if (!s.x.empty()) p.series.push_back(s);
    }
    if (p.series.empty()) continue;
    p.xrange = std::make_pair(50.0, 330.0);
    f.panels.push_back(p);
    const Row* o = gram_row(rows, N, "128", "tf32", "lower", "tdmaps-ltm-e");
    const Row* w = gram_row(rows, N, "128", "none", "lower", "write");
    const Row* ge = gram_row(rows, N, "128", "tf32", "full", "cublas-gemm+epilogue");
    if (o && w && ge)
      reading += "N = " + fmt_int(std::stod(N)) + ", d = 128: ours TF32 " + fmt(o->d("median_ms"), 2) + " ms, writing the triangle " +
                 fmt(w->d("median_ms"), 2) + " ms, cuBLAS TF32 GEMM + epilogue " + fmt(ge->d("median_ms"), 2) + " ms. ";
  }
  if (f.panels.empty()) return skip(ctx, "gram_time", &g, "gram.csv has no rows at N = 32768 or 65536");
  emit(ctx, f, &g,
       "Pairwise squared distances of N points in d features: our CUTLASS kernel over the lower tiles (LTM-E) and on the "
       "c×c grid (bb-grid) against cuBLAS, with the time to write the triangle alone as the floor the write sets.",
       reading);
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
  std::string reading;
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
    reading += label + ": " + fmt(pts.front().first, 1) + "–" + fmt(pts.back().first, 1) + " ns a block, median I " +
               fmt(median(ys), 3) + ". ";
  };
  const auto blocks2 = [](double N, double rho) {
    const double n = std::ceil(N / rho);
    return n * (n + 1) / 2;
  };
  if (const Table* t = g.get("dummy.csv")) {
    std::vector<std::pair<double, double>> v;
    for (const Row& r : t->rows())
      if (r.s("map") == "ltm-e" && r.s("rho") == "16" && r.s("form") == "store" && std::isfinite(r.d("I")))
        v.emplace_back(r.d("median_ms") * 1e6 / r.d("useful_blocks"), r.d("I"));
    add("dummy (store), ltm-e, ρ = 16", "#7f7f7f", 1, v);
  }
  if (const Table* t = g.get("edm.csv")) {
    std::vector<std::pair<double, double>> v;
    for (const Row& r : t->rows())
      if (r.s("map") == "ltm-e" && r.s("rho") == "16" && r.s("variant") == "full" && r.s("features") == "4" && std::isfinite(r.d("I")))
        v.emplace_back(r.d("median_ms") * 1e6 / blocks2(r.d("N"), 16), r.d("I"));
    add("EDM, 4 features, ltm-e, ρ = 16", "#1f77b4", 7, v);
  }
  if (const Table* t = g.get("collision.csv")) {
    std::vector<std::pair<double, double>> v;
    for (const Row& r : t->rows())
      if (r.s("test") == "collision" && r.s("map") == "ltm-e" && r.s("rho") == "16" && r.s("variant") == "3d" && std::isfinite(r.d("I")))
        v.emplace_back(r.d("median_ms") * 1e6 / blocks2(r.d("N"), 16), r.d("I"));
    add("collision 3D, ltm-e, ρ = 16", "#ff7f0e", 5, v);
  }
  if (const Table* t = g.get("tet_threebody.csv")) {
    std::vector<std::pair<double, double>> v;
    for (const Row& r : t->rows())
      if (r.s("map") == "tet-e" && r.s("mode") == "block" && std::isfinite(r.d("I")) && r.d("useful_blocks") > 0)
        v.emplace_back(r.d("median_ms") * 1e6 / r.d("useful_blocks"), r.d("I"));
    add("three-body (3D), tet-e", "#2ca02c", 9, v);
  }
  if (const Table* t = g.get("gram.csv")) {
    std::vector<std::pair<double, double>> v, h;
    for (const Row& r : t->rows())
      if (r.s("impl") == "tdmaps-ltm-e" && std::isfinite(r.d("I")) && r.d("useful_tiles") > 0)
        (r.s("output") == "hist" ? h : v).emplace_back(r.d("median_ms") * 1e6 / r.d("useful_tiles"), r.d("I"));
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
  emit(ctx, f, &g,
       "The gain of a map over the bounding box (I) against the GPU time per useful block (the kernel's median time over "
       "the blocks the map launches), for every experiment of the package: the map saves the empty blocks' launch, which "
       "matters where a block is cheap and stops mattering where a block does microseconds of work.",
       reading);
}

}  // namespace figs
