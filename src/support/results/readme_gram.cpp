// src/support/results/readme_gram.cpp — README's <!-- gram:begin/end --> block (issue #27): the tensor-core
// pairwise-distance results, from each GPU folder's gram.csv (bench_gram; layout
// results::layout::gram). Every number here is read from the committed CSV; the verdicts of the Gram targets
// are measured and judged beside the papers' claims (paper/claims/gram_measures.cpp, targets.cpp) and passed in.
#include "readme.hpp"
#include "select.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

namespace results {
namespace {
const TableRow* find(const std::vector<TableRow>& rows, const std::string& N, const std::string& d, const std::string& prec,
                const std::string& output, const std::string& impl) {
  return pick_rows::gram(rows, N, d, prec, output, impl);
}
double med(const TableRow* r) { return r ? r->d("median_ms") : NAN; }

// The names gram.csv spells (results/gram_names.hpp, the producer's): precisions, outputs, impls.
using gram::Output;
namespace peer = gram::peer;
const std::string kTf32 = gram::name(gram::Prec::tf32), k3xTf32 = gram::name(gram::Prec::tf32x3), kBf16 = gram::name(gram::Prec::bf16);
std::string out_name(Output o) { return gram::name(o); }
const std::string kLower = out_name(Output::lower), kFull = out_name(Output::full), kFullGram = out_name(Output::full_gram),
                  kHist = out_name(Output::hist);
// our classic kernel under LTM-E and under the bb-grid; our kernel k under LTM-E
const std::string kLtmE = gram::impl_name(gram::Sched::ltm_e, gram::Kernel::classic),
                  kBbGrid = gram::impl_name(gram::Sched::bb, gram::Kernel::classic);
std::string ltm_e_of(gram::Kernel k) { return gram::impl_name(gram::Sched::ltm_e, k); }

}  // namespace

std::string readme_gram_block(const Ctx& ctx, const std::vector<TargetVerdict>& verdicts) {
  // the prose: sections `gram` and `gram_none` of readme.template.md; here the numbers, names and flags
  tmpl::Scope s;
  for (const GpuData& g : ctx.gpus) {
    const Table* t = g.get(results::layout::gram);
    if (!t) continue;
    tmpl::Scope& G = s.add("gpu");
    const std::vector<TableRow> rows = t->rows();
    G.set("gpu", t->meta_or("gpu", g.slug)).set("commit", t->meta_or("commit", "?")).set("slug", g.slug);
    G.list("row");
    G.list("empty");
    G.list("hist");
    G.flag("exact", g.get(results::layout::gram_exact) != nullptr);
    {
      bool any = false;
      for (const TableRow& r : rows) any = any || (r.s("output") == kHist && r.s("impl") == kLtmE);
      G.flag("hist_any", any);
    }
    for (const TableRow& r : rows) {
      if (r.s("impl") != kLtmE || r.s("precision") != kTf32 || r.s("output") != kLower) continue;
      const std::string N = r.s("N"), d = r.s("d");
      const double ours = med(&r);
      const double wr = med(find(rows, N, d, peer::none, kLower, peer::write));
      const double gemm = med(find(rows, N, d, kTf32, kFullGram, peer::cublas_gemm));
      const double gemm_e = med(find(rows, N, d, kTf32, kFull, peer::cublas_gemm_epilogue));
      const double x3 = med(find(rows, N, d, k3xTf32, kLower, kLtmE));
      const double syrk_e = med(find(rows, N, d, peer::fp32, kLower, peer::cublas_syrk_epilogue));
      const double bf = med(find(rows, N, d, kBf16, kLower, kLtmE));
      G.add("row")
          .set("N", N)
          .set("d", d)
          .set("ours", fmt_with(ours, "%.3f"))
          .set("of_write", fmt_with(100 * wr / ours, "%.0f %%"))
          .set("gemm", fmt_with(gemm, "%.2f"))
          .set("gemm_e", fmt_with(gemm_e, "%.2f"))
          .set("over_gemm", fmt_with(gemm / ours, "%.2f×"))
          .set("over_gemm_e", fmt_with(gemm_e / ours, "%.2f×"))
          .set("x3", fmt_with(x3, "%.2f"))
          .set("syrk_e", fmt_with(syrk_e, "%.2f"))
          .set("over_syrk_e", fmt_with(syrk_e / x3, "%.2f×"))
          .set("bf16", fmt_with(bf, "%.3f"))
          .set("I", fmt_with(r.d("I"), "%.3f"));
    }
    // the bb-grid's empty blocks, from the same run's rate; launch_covers_gap: launched alone they take at least the
    // measured gap between the bb-grid and LTM-E (the map's gain is then their launch alone)
    for (const TableRow& r : rows)
      if (r.s("impl") == peer::empty_blocks && r.s("N") == "65536" && r.s("d") == "128") {
        const TableRow* bb = find(rows, "65536", "128", kTf32, kLower, kBbGrid);
        const TableRow* lt = find(rows, "65536", "128", kTf32, kLower, kLtmE);
        const double gap = med(bb) - med(lt);
        G.add("empty")
            .set("N", "65536")
            .set("d", "128")
            .set("tiles", r.s("launched_tiles"))
            .set("ms", fmt_with(r.d("median_ms"), "%.3f"))
            .set("rate", fmt_with(r.d("blocks_per_s") / 1e9, "%.2f"))
            .set("gap", fmt_with(gap, "%.3f"))
            .set("kernel_ms", fmt_with(med(lt), "%.2f"))
            .set("I", fmt_with(lt ? lt->d("I") : NAN, "%.3f"))
            .flag("launch_covers_gap", r.d("median_ms") >= gap);
      }
    // a precision as the text writes it (tf32 -> TF32, bf16 -> BF16): the --hist-N run has a row per --hist-prec
    auto shown = [](std::string x) {
      for (char& ch : x) ch = char(std::toupper(static_cast<unsigned char>(ch)));
      return x;
    };
    for (const TableRow& r : rows)
      if (r.s("output") == kHist && r.s("impl") == kLtmE)
        G.add("hist")
            .set("N", r.s("N"))
            .set("d", r.s("d"))
            .set("prec", shown(r.s("precision")))
            .set("s", fmt_with(r.d("median_ms") / 1000, "%.2f"))
            .set("tflops", fmt_with(r.d("TFLOPs"), "%.1f"));
    // the other kernels of the same run (bench_gram --kernel: impl tdmaps-ltm-e-<kernel>, bb-grid-<kernel>)
    std::vector<gram::Kernel> kernels;
    for (const TableRow& r : rows) {
      gram::Kernel k = gram::Kernel::classic;
      if (pick_rows::gram_ltm_kernel(r.s("impl"), k) && k != gram::Kernel::classic && r.s("precision") == kTf32 &&
          r.s("output") == kLower) {
        bool seen = false;
        for (gram::Kernel x : kernels) seen = seen || x == k;
        if (!seen) kernels.push_back(k);
      }
    }
    G.flag("other_kernels", !kernels.empty());
    G.list("other_row");
    G.list("other_hist");
    for (const TableRow& r : rows) {
      if (kernels.empty() || r.s("impl") != kLtmE || r.s("precision") != kTf32 || r.s("output") != kLower) continue;
      const std::string N = r.s("N"), d = r.s("d");
      const double wr = med(find(rows, N, d, peer::none, kLower, peer::write));
      const double gemm = med(find(rows, N, d, kTf32, kFullGram, peer::cublas_gemm));
      const double gemm_e = med(find(rows, N, d, kTf32, kFull, peer::cublas_gemm_epilogue));
      for (gram::Kernel k : kernels) {
        const TableRow* kr = find(rows, N, d, kTf32, kLower, ltm_e_of(k));
        if (!kr) continue;
        const double ours = med(kr);
        G.add("other_row")
            .set("N", N)
            .set("d", d)
            .set("kernel", gram::name(k))
            .set("ours", fmt_with(ours, "%.3f"))
            .set("of_write", fmt_with(100 * wr / ours, "%.0f %%"))
            .set("over_gemm", fmt_with(gemm / ours, "%.2f×"))
            .set("over_gemm_e", fmt_with(gemm_e / ours, "%.2f×"))
            .set("I", fmt_with(kr->d("I"), "%.3f"));
      }
    }
    for (gram::Kernel k : kernels)
      for (const TableRow& r : rows)
        if (r.s("output") == kHist && r.s("impl") == ltm_e_of(k))
          G.add("other_hist")
              .set("kernel", gram::name(k))
              .set("N", r.s("N"))
              .set("d", r.s("d"))
              .set("prec", shown(r.s("precision")))
              .set("s", fmt_with(r.d("median_ms") / 1000, "%.2f"));
    // the eps count at --hist-N (issue #37): a row per kernel, a column per precision, in the run's order
    {
      const std::string kCount = out_name(Output::count), N = pick_rows::kGramHistN, d = pick_rows::kGramHistD;
      std::vector<std::string> precs;
      std::vector<gram::Kernel> ks;
      for (const TableRow& r : rows) {
        gram::Kernel k = gram::Kernel::classic;
        if (r.s("output") != kCount || r.s("N") != N || r.s("d") != d || !pick_rows::gram_ltm_kernel(r.s("impl"), k)) continue;
        if (std::find(precs.begin(), precs.end(), r.s("precision")) == precs.end()) precs.push_back(r.s("precision"));
        if (std::find(ks.begin(), ks.end(), k) == ks.end()) ks.push_back(k);
      }
      G.flag("count", !ks.empty()).set("count_N", N).set("count_d", d);
      G.list("count_prec");
      G.list("count_row");
      for (const std::string& p : precs) G.add("count_prec").set("prec", shown(p));
      for (gram::Kernel k : ks) {
        tmpl::Scope& row = G.add("count_row");
        row.set("kernel", gram::name(k));
        row.list("cell");
        for (const std::string& p : precs)
          row.add("cell").set("s", fmt_with(med(find(rows, N, d, p, kCount, ltm_e_of(k))) / 1000, "%.2f"));
      }
    }
    // torch.cdist on the same points (experiments/peers/gram_peers.py), beside our fastest TF32 kernel
    const Table* p = g.get(results::layout::peers_gram);
    G.flag("cdist", p != nullptr).set("torch", p ? p->meta_or("torch", "?") : "");
    G.list("cdist_row");
    if (p) {
      const std::vector<TableRow> prow = p->rows();
      for (const std::string& N : pick_rows::gram_target_N())
        for (const std::string& d : pick_rows::gram_target_d()) {
          const double c32 = med(find(prow, N, d, kTf32, kFull, peer::torch_cdist));
          const double cf = med(find(prow, N, d, peer::fp32, kFull, peer::torch_cdist));
          const double mm = med(find(prow, N, d, kTf32, kFullGram, peer::torch_mm));
          const TableRow* b = pick_rows::gram_best(rows, N, d, kTf32, kLower);
          if (!std::isfinite(c32) && !std::isfinite(cf) && !b) continue;
          G.add("cdist_row")
              .set("N", N)
              .set("d", d)
              .set("tf32", fmt_with(c32, "%.2f"))
              .set("fp32", fmt_with(cf, "%.2f"))
              .set("mm", fmt_with(mm, "%.2f"))
              .flag("ours", b != nullptr)
              .set("ours_ms", b ? fmt_with(med(b), "%.3f") : "")
              .set("kernel", b ? pick_rows::gram_kernel(b->s("impl")) : "")
              .set("over_tf32", fmt_with(c32 / med(b), "%.1f×"))
              .set("over_fp32", fmt_with(cf / med(b), "%.1f×"));
        }
    }
    // the Gram targets (issues #27, #36, #37) against this folder: the rows of paper/targets.csv whose column table is
    // gram, judged in paper/claims/targets.cpp, with what binds a target not met: the same rows as the report's table
    G.list("target");
    for (const TargetVerdict& x : verdicts)
      if (x.slug == g.slug && x.table == "gram")
        G.add("target")
            .set("id", x.id)
            .set("target", x.target)
            .set("kernel", x.kernel)
            .set("measured", x.measured)
            .set("verdict", x.verdict)
            .set("where", x.where)
            .set("binds", x.binds);
  }
  return fill_readme(ctx.readme, s.lists.count("gpu") ? "gram" : "gram_none", s);
}

}  // namespace results
