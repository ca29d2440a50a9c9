// src/support/results/readme_gram.cpp — README's <!-- gram:begin/end --> block (issue #27): the tensor-core
// pairwise-distance results, from each GPU folder's gram.csv (bench_gram; layout
// results::layout::gram). Every number here is read from the committed CSV; the verdicts of issue #27's targets
// are judged from gram_measures() in paper/claims/targets.cpp and passed in.
#include "peaks.hpp"
#include "readme.hpp"
#include "select.hpp"

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

std::vector<GramMeasure> gram_measures(const GpuData& g) {
  std::vector<GramMeasure> out;
  const Table* t = g.get(results::layout::gram);
  if (!t) return out;
  const std::vector<TableRow> rows = t->rows();
  // our fastest LTM-E kernel at a size, and a peer's median at the same size
  const auto ours = [&](const std::string& N, const std::string& d, const std::string& prec, std::string* k) {
    const TableRow* b = pick_rows::gram_best(rows, N, d, prec, kLower);
    if (b) *k = pick_rows::gram_kernel(b->s("impl"));
    return med(b);
  };
  // the sizes, N-major, each with value(N, d, &kernel); `ds`: the target's features (default: all of them)
  const auto sized = [](const std::string& id,
                        const std::function<double(const std::string&, const std::string&, std::string*)>& value,
                        const std::vector<std::string>& ds = pick_rows::gram_target_d()) {
    GramMeasure m{id, {}, "", ""};
    for (const std::string& N : pick_rows::gram_target_N())
      for (const std::string& d : ds) {
        GramPoint p{N, d, NAN, ""};
        p.value = value(N, d, &p.kernel);
        m.points.push_back(p);
      }
    return m;
  };
  const auto ratio = [&](const std::string& prec, const std::string& pprec, const std::string& pout,
                         const std::string& pimpl) {
    return [&rows, &ours, prec, pprec, pout, pimpl](const std::string& N, const std::string& d, std::string* k) {
      return med(find(rows, N, d, pprec, pout, pimpl)) / ours(N, d, prec, k);
    };
  };
  out.push_back(sized("27-write", ratio(kTf32, peer::none, kLower, peer::write)));
  // issue #36's own lower target: the same ratio at d <= 128 (its d = 256 clause is 36-lower-256)
  const std::vector<std::string> d_to_128{"64", "128"};
  out.push_back(sized("36-lower", ratio(kTf32, peer::none, kLower, peer::write), d_to_128));
  out.push_back(sized("27-gemm", ratio(kTf32, kTf32, kFullGram, peer::cublas_gemm)));
  out.push_back(sized("27-gemm-epilogue", ratio(kTf32, kTf32, kFull, peer::cublas_gemm_epilogue)));
  out.push_back(sized("27-syrk", ratio(k3xTf32, peer::fp32, kLower, peer::cublas_syrk_epilogue)));
  if (const Table* p = g.get(results::layout::peers_gram)) {
    const std::vector<TableRow> prow = p->rows();
    out.push_back(sized("27-cdist", [&](const std::string& N, const std::string& d, std::string* k) {
      return med(find(prow, N, d, kTf32, kFull, peer::torch_cdist)) / ours(N, d, kTf32, k);
    }));
  } else {
    out.push_back(GramMeasure{"27-cdist", {}, "no `peers_gram.csv` in this GPU folder", ""});
  }
  // issue #36: the whole N x N (mirror from the lower tiles, or sm90-evt's stock scheduler over the
  // square: full-sm90-evt) against the full write; condensed against the triangle write
  const auto best_full = [&](const std::string& N, const std::string& d, std::string* k) {
    const TableRow* m = pick_rows::gram_best(rows, N, d, kTf32, out_name(Output::mirror));
    const TableRow* e = find(rows, N, d, kTf32, kFull, gram::kFullSquareImpl);
    if (e && e->d("verified") == 0) e = nullptr;
    if (e && (!m || med(e) < med(m))) {
      *k = std::string(gram::name(gram::Kernel::sm90_evt)) + " (stock scheduler, the whole square)";
      return med(e);
    }
    if (m) *k = pick_rows::gram_kernel(m->s("impl")) + " (mirror)";
    return med(m);
  };
  out.push_back(sized("36-mirror", [&](const std::string& N, const std::string& d, std::string* k) {
    return med(find(rows, N, d, peer::none, kFull, peer::write)) / best_full(N, d, k);
  }, d_to_128));
  out.push_back(sized("36-condensed", [&](const std::string& N, const std::string& d, std::string* k) {
    const TableRow* b = pick_rows::gram_best(rows, N, d, kTf32, out_name(Output::condensed));
    if (b) *k = pick_rows::gram_kernel(b->s("impl"));
    return med(find(rows, N, d, peer::none, kLower, peer::write)) / med(b);
  }));
  out.push_back(sized("36-gemm-epilogue", ratio(kTf32, kTf32, kFull, peer::cublas_gemm_epilogue)));
  // the whole square and the lower triangle against torch.cdist (peers_gram.csv: another program, the same points)
  if (const Table* p = g.get(results::layout::peers_gram)) {
    const std::vector<TableRow> prow = p->rows();
    out.push_back(sized("36-cdist-square", [&](const std::string& N, const std::string& d, std::string* k) {
      return med(find(prow, N, d, kTf32, kFull, peer::torch_cdist)) / best_full(N, d, k);
    }));
    out.push_back(sized("36-cdist-lower", [&](const std::string& N, const std::string& d, std::string* k) {
      return med(find(prow, N, d, kTf32, kFull, peer::torch_cdist)) / ours(N, d, kTf32, k);
    }));
  } else {
    for (const char* id : {"36-cdist-square", "36-cdist-lower"})
      out.push_back(GramMeasure{id, {}, "no `peers_gram.csv` in this GPU folder", ""});
  }
  // the symmetric product (BF16 X X^T, the whole N x N written) at the N = 8192, K = 4096 and 8192,
  // against cuBLAS's BF16 GEMM on the same operands (bench_gram --sym)
  {
    GramMeasure m{"36-sym", {}, "", ""};
    for (const std::string d : {"4096", "8192"}) {
      GramPoint p{"8192", d, NAN, ""};
      const TableRow* b = pick_rows::gram_best(rows, p.N, d, kBf16, out_name(Output::mirror_gram));
      if (b) p.kernel = pick_rows::gram_kernel(b->s("impl"));
      p.value = med(find(rows, p.N, d, kBf16, kFullGram, peer::cublas_gemm)) / med(b);
      m.points.push_back(p);
    }
    out.push_back(m);
  }
  // issue #36's lower target at d = 256: the useful TFLOP/s of our fastest TF32 LTM-E kernel (lower) over the TF32
  // dense peak (results/peaks.hpp; the other way there, 80 % of the write, is 27-write at d = 256)
  {
    GramMeasure m{"36-lower-256", {}, "", ""};
    const double peak = tf32_peak(t->meta_or("gpu", g.name()));
    if (!std::isfinite(peak)) m.none = "no TF32 peak known for this GPU (results/peaks.hpp)";
    for (const std::string& N : pick_rows::gram_target_N()) {
      GramPoint p{N, "256", NAN, ""};
      const TableRow* b = pick_rows::gram_best(rows, N, p.d, kTf32, kLower);
      if (b) p.kernel = pick_rows::gram_kernel(b->s("impl"));
      p.value = b ? b->d("TFLOPs") / peak : NAN;
      m.points.push_back(p);
    }
    out.push_back(m);
  }
  // issue #37: one size (N = 10^6, d = 128), seconds: the fused histogram (TF32, BF16) and the eps count (TF32)
  struct OneSize {
    const char* id;
    const char* output;
    std::string prec;
  };
  for (const OneSize& o : {OneSize{"37-hist", gram::name(Output::hist), kTf32}, OneSize{"37-hist-bf16", gram::name(Output::hist), kBf16},
                           OneSize{"37-count", gram::name(Output::count), kTf32}}) {
    GramMeasure h{o.id, {}, "", ""};
    if (const TableRow* b = pick_rows::gram_best(rows, pick_rows::kGramHistN, pick_rows::kGramHistD, o.prec, o.output))
      h.points.push_back(GramPoint{pick_rows::kGramHistN, pick_rows::kGramHistD, med(b) / 1000, pick_rows::gram_kernel(b->s("impl"))});
    else
      h.none = "no " + o.prec + " " + o.output + " row at N = 10⁶, d = 128";
    out.push_back(h);
  }
  // issue #37 item 2: the bracketed exact mode at N = 10^6, d = 128 (gram_exact.csv, bench_gram --exact-N), seconds:
  // our fastest row equal to the all-float64 result, count for count; the others (precision, kernel, buckets, the
  // share replayed) in words
  for (const auto& [id, output] : {std::pair<const char*, const char*>{"37-exact-count", gram::name(gram::Out::count_exact)},
                                   {"37-exact-hist", gram::name(gram::Out::hist_exact)}}) {
    GramMeasure h{id, {}, "", ""};
    const Table* x = g.get(results::layout::gram_exact);
    std::vector<TableRow> xr = x ? x->rows() : std::vector<TableRow>{};
    const TableRow* best = nullptr;
    for (const TableRow& r : xr)
      if (r.s("N") == pick_rows::kGramHistN && r.s("d") == pick_rows::kGramHistD && r.s("output") == output &&
          r.d("equal_fp64") == 1 && r.d("median_ms") > 0 && (!best || r.d("median_ms") < best->d("median_ms")))
        best = &r;
    const auto words = [&](const TableRow& r) {
      return "`" + pick_rows::gram_kernel(r.s("impl")) + "` " + r.s("precision") +
             (r.d("buckets") > 0 ? ", " + r.s("buckets") + " buckets" : std::string()) + ": " +
             fmt_with(r.d("median_ms") / 1000, "%.2f s") + ", " + r.s("replayed_pct") + " % replayed";
    };
    if (best) {
      h.points.push_back(GramPoint{pick_rows::kGramHistN, pick_rows::kGramHistD, best->d("median_ms") / 1000,
                                   pick_rows::gram_kernel(best->s("impl"))});
      h.others = words(*best);
      for (const TableRow& r : xr)
        if (&r != best && r.s("N") == best->s("N") && r.s("d") == best->s("d") && r.s("output") == output)
          h.others += "; " + words(r);
    } else {
      h.none = x ? std::string("no ") + output + " row at N = 10⁶, d = 128" : "no `gram_exact.csv` in this GPU folder";
    }
    out.push_back(h);
  }
  {
    GramMeasure h{"27-hist", {}, "", ""};
    const TableRow* b = pick_rows::gram_best(rows, pick_rows::kGramHistN, pick_rows::kGramHistD, kTf32, kHist);
    if (b) {
      h.points.push_back(GramPoint{pick_rows::kGramHistN, pick_rows::kGramHistD, med(b) / 1000,
                                   pick_rows::gram_kernel(b->s("impl"))});
      for (const TableRow& r : rows)
        if (&r != b && r.s("N") == pick_rows::kGramHistN && r.s("d") == pick_rows::kGramHistD && r.s("precision") == kTf32 &&
            r.s("output") == kHist && !pick_rows::gram_kernel(r.s("impl")).empty())
          h.others += (h.others.empty() ? "" : ", ") + std::string("`") + pick_rows::gram_kernel(r.s("impl")) + "` " +
                      fmt_with(med(&r) / 1000, "%.2f s");
    } else {
      h.none = "no row at N = 10⁶, d = 128";
    }
    out.push_back(h);
  }
  return out;
}

std::string readme_gram_block(const Ctx& ctx, const std::vector<TargetVerdict>& verdicts) {
  std::ostringstream o;
  o << "<!-- written by tdmaps_figures --readme from each GPU folder's gram.csv (src/support/results/readme_gram.cpp) -->\n";
  bool any = false;
  for (const GpuData& g : ctx.gpus) {
    const Table* t = g.get(results::layout::gram);
    if (!t) continue;
    any = true;
    const std::vector<TableRow> rows = t->rows();
    o << "Measured on **" << t->meta_or("gpu", g.slug) << "**, commit `" << t->meta_or("commit", "?") << "` (`experiments/results/"
      << g.slug << "/gram.csv`; every variant checked against float64 before it was timed, all timed interleaved in one run). "
      << "Squared distances d² = ‖xᵢ‖² + ‖xⱼ‖² − 2 xᵢ·xⱼ of N points in d features, the lower triangle of a row-major N×N; ours: "
      << "the CUTLASS SM80 mainloop (mma.sync) with LTM-E over the 128×128 tiles; write: a plain kernel writing the same triangle "
      << "(the bandwidth of this run); cuBLAS full N×N (TF32 GEMM) or its triangle (FP32 SSYRK), the epilogue a second kernel; "
      << "3xTF32 is our FP32-accurate mode; I = t(bb-grid) / t(ltm-e), the same kernel on the c×c grid.\n\n";
    o << "| N | d | ours TF32 (ms) | of the write bandwidth | cuBLAS TF32 GEMM alone / + epilogue (ms) | speed-up over them | ours 3xTF32 / SSYRK + epilogue (ms) | speed-up | ours BF16 (ms) | I (TF32) |\n";
    o << "|---|---|---|---|---|---|---|---|---|---|\n";
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
      o << "| " << N << " | " << d << " | " << fmt_with(ours, "%.3f") << " | " << fmt_with(100 * wr / ours, "%.0f %%") << " | "
        << fmt_with(gemm, "%.2f") << " / " << fmt_with(gemm_e, "%.2f") << " | " << fmt_with(gemm / ours, "%.2f×") << " / "
        << fmt_with(gemm_e / ours, "%.2f×") << " | " << fmt_with(x3, "%.2f") << " / " << fmt_with(syrk_e, "%.2f") << " | "
        << fmt_with(syrk_e / x3, "%.2f×") << " | " << fmt_with(bf, "%.3f") << " | " << fmt_with(r.d("I"), "%.3f") << " |\n";
    }
    // the bb-grid's empty blocks, from the same run's rate
    for (const TableRow& r : rows)
      if (r.s("impl") == peer::empty_blocks && r.s("N") == "65536" && r.s("d") == "128") {
        const TableRow* bb = find(rows, "65536", "128", kTf32, kLower, kBbGrid);
        const TableRow* lt = find(rows, "65536", "128", kTf32, kLower, kLtmE);
        o << "\nAt N = 65536, d = 128 the bb-grid launches " << r.s("launched_tiles") << " more blocks than LTM-E; launched alone "
          << "they take " << fmt_with(r.d("median_ms"), "%.3f") << " ms (" << fmt_with(r.d("blocks_per_s") / 1e9, "%.2f")
          << "·10⁹ blocks/s), against a measured gap of " << fmt_with(med(bb) - med(lt), "%.3f") << " ms in a "
          << fmt_with(med(lt), "%.2f") << " ms kernel: a tile does microseconds of work, so the map's gain here is the empty blocks' "
          << "launch alone (I = " << fmt_with(lt ? lt->d("I") : NAN, "%.3f") << ").\n";
      }
    // a precision as the text writes it (tf32 -> TF32, bf16 -> BF16): the --hist-N run has a row per --hist-prec
    auto shown = [](std::string x) {
      for (char& ch : x) ch = char(std::toupper(static_cast<unsigned char>(ch)));
      return x;
    };
    for (const TableRow& r : rows)
      if (r.s("output") == kHist && r.s("impl") == kLtmE)
        o << "\nFused distance histogram (no N² written), N = " << r.s("N") << ", d = " << r.s("d") << ", " << shown(r.s("precision")) << ", one GPU: "
          << fmt_with(r.d("median_ms") / 1000, "%.2f") << " s (" << fmt_with(r.d("TFLOPs"), "%.1f") << " TFLOP/s of useful work).\n";
    // the other kernels of the same run (bench_gram --kernel: impl tdmaps-ltm-e-<kernel>, bb-grid-<kernel>)
    std::vector<gram::Kernel> kernels;
    for (const TableRow& r : rows) {
      gram::Kernel k;
      if (pick_rows::gram_ltm_kernel(r.s("impl"), k) && k != gram::Kernel::classic && r.s("precision") == kTf32 &&
          r.s("output") == kLower) {
        bool seen = false;
        for (gram::Kernel x : kernels) seen = seen || x == k;
        if (!seen) kernels.push_back(k);
      }
    }
    if (!kernels.empty()) {
      o << "\nThe other kernels of the same run (`bench_gram --kernel`: sm80-8w, the SM80 mainloop on 8 warps with 16-deep "
        << "k-tiles; sm90-ws, CUTLASS 3's Hopper mainloop, TMA + wgmma, warp-specialized; both with LTM-E and the fused "
        << "epilogue; `experiments/gram/NOTES.md`), TF32 lower triangle, I = t(bb-grid) / t(ltm-e) of the same kernel "
        << "(sm90-evt: t(full-sm90-evt) / t(ltm-e), the stock scheduler over the whole square, which writes every cell: twice "
        << "the bytes, so its I is not the grid's alone):\n\n";
      o << "| N | d | kernel | ours TF32 (ms) | of the write bandwidth | speed-up over cuBLAS TF32 GEMM alone / + epilogue | I |\n";
      o << "|---|---|---|---|---|---|---|\n";
      for (const TableRow& r : rows) {
        if (r.s("impl") != kLtmE || r.s("precision") != kTf32 || r.s("output") != kLower) continue;
        const std::string N = r.s("N"), d = r.s("d");
        const double wr = med(find(rows, N, d, peer::none, kLower, peer::write));
        const double gemm = med(find(rows, N, d, kTf32, kFullGram, peer::cublas_gemm));
        const double gemm_e = med(find(rows, N, d, kTf32, kFull, peer::cublas_gemm_epilogue));
        for (gram::Kernel k : kernels) {
          const TableRow* kr = find(rows, N, d, kTf32, kLower, ltm_e_of(k));
          if (!kr) continue;
          const double ours = med(kr);
          o << "| " << N << " | " << d << " | " << gram::name(k) << " | " << fmt_with(ours, "%.3f") << " | " << fmt_with(100 * wr / ours, "%.0f %%")
            << " | " << fmt_with(gemm / ours, "%.2f×") << " / " << fmt_with(gemm_e / ours, "%.2f×") << " | " << fmt_with(kr->d("I"), "%.3f")
            << " |\n";
        }
      }
      for (gram::Kernel k : kernels)
        for (const TableRow& r : rows)
          if (r.s("output") == kHist && r.s("impl") == ltm_e_of(k))
            o << "\nFused distance histogram with " << gram::name(k) << ", N = " << r.s("N") << ", d = " << r.s("d") << ", "
              << shown(r.s("precision")) << ": "
              << fmt_with(r.d("median_ms") / 1000, "%.2f") << " s.\n";
    }
    // torch.cdist on the same points (experiments/peers/gram_peers.py), beside our fastest TF32 kernel
    if (const Table* p = g.get(results::layout::peers_gram)) {
      const std::vector<TableRow> prow = p->rows();
      o << "\n`torch.cdist` on the same points (`experiments/results/" << g.slug << "/peers_gram.csv`: "
        << "`experiments/peers/gram_peers.py`, torch " << p->meta_or("torch", "?")
        << ", the full N×N; a separate program, not interleaved with bench_gram), against our fastest TF32 lower-triangle "
        << "kernel of gram.csv at each size:\n\n";
      o << "| N | d | torch.cdist TF32 / FP32 (ms) | torch.mm TF32 (ms) | ours, fastest TF32 (ms) | speed-up over cdist TF32 / FP32 |\n";
      o << "|---|---|---|---|---|---|\n";
      for (const std::string& N : pick_rows::gram_target_N())
        for (const std::string& d : pick_rows::gram_target_d()) {
          const double c32 = med(find(prow, N, d, kTf32, kFull, peer::torch_cdist));
          const double cf = med(find(prow, N, d, peer::fp32, kFull, peer::torch_cdist));
          const double mm = med(find(prow, N, d, kTf32, kFullGram, peer::torch_mm));
          const TableRow* b = pick_rows::gram_best(rows, N, d, kTf32, kLower);
          if (!std::isfinite(c32) && !std::isfinite(cf) && !b) continue;
          o << "| " << N << " | " << d << " | " << fmt_with(c32, "%.2f") << " / " << fmt_with(cf, "%.2f") << " | " << fmt_with(mm, "%.2f")
            << " | " << (b ? fmt_with(med(b), "%.3f") + " (" + pick_rows::gram_kernel(b->s("impl")) + ")" : std::string("—"))
            << " | " << fmt_with(c32 / med(b), "%.1f×") << " / " << fmt_with(cf / med(b), "%.1f×") << " |\n";
        }
    }
    // the targets of issues #27, #36 and #37 against this folder (their rows of paper/targets.csv, judged in
    // paper/claims/targets.cpp, with what binds a target not met: the same rows as the report's)
    o << "\nIssue #27, #36 and #37 targets against this run (our fastest LTM-E kernel at each size; the issues' sizes; "
      << "what binds a target not met: the Nsight Compute profile in `ncu_gram.csv`, read by the report's rule; the report "
      << "lists the same rows):\n\n| id | target | ours (kernel) | measured | verdict | what binds (ncu) |\n|---|---|---|---|---|---|\n";
    for (const TargetVerdict& x : verdicts)
      if (x.slug == g.slug && (x.id.compare(0, 3, "27-") == 0 || x.id.compare(0, 3, "36-") == 0 || x.id.compare(0, 3, "37-") == 0))
        o << "| `" << x.id << "` | " << x.target << " | " << x.kernel << " | " << x.measured << " | **" << x.verdict << "**"
          << (x.where.empty() ? "" : ": " + x.where) << " | " << (x.binds.empty() ? "—" : x.binds) << " |\n";
    o << "\n";
  }
  if (!any) o << "No `gram.csv` is committed yet.\n";
  return o.str();
}

}  // namespace results
