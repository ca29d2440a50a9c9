// paper/claims/gram_measures.cpp — the Gram targets' measures (gram_measures.hpp): for each target of issues #27,
// #36 and #37, our value at each of its sizes, read from the committed CSVs of one GPU folder. The names the CSVs
// spell come from their producer (results/gram_names.hpp); the rows are picked by the named selections (select.hpp).
#include "gram_measures.hpp"

#include "peaks.hpp"
#include "select.hpp"

#include <functional>

namespace claims {
namespace gram_measure {  // named, not anonymous: the claims library is a unity build
using results::Table;
using results::TableRow;
using results::fmt_with;
using results::tf32_peak;
namespace pick_rows = results::pick_rows;
using gram::Output;
namespace peer = gram::peer;
inline const TableRow* find(const std::vector<TableRow>& rows, const std::string& N, const std::string& d,
                            const std::string& prec, const std::string& output, const std::string& impl) {
  return pick_rows::gram(rows, N, d, prec, output, impl);
}
inline double med(const TableRow* r) { return r ? r->d("median_ms") : NAN; }
inline std::string out_name(Output o) { return gram::name(o); }
const std::string kTf32 = gram::name(gram::Prec::tf32), k3xTf32 = gram::name(gram::Prec::tf32x3), kBf16 = gram::name(gram::Prec::bf16);
const std::string kLower = out_name(Output::lower), kFull = out_name(Output::full), kFullGram = out_name(Output::full_gram),
                  kHist = out_name(Output::hist);
}  // namespace gram_measure

std::vector<GramMeasure> gram_measures(const GpuData& g) {
  using namespace gram_measure;
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

}  // namespace claims
