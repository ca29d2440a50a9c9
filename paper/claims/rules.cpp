// paper/claims/rules.cpp — THE RULE TABLE: claim id of paper/reported.csv → rule kind +
// parameters (which CSV, which selection, which statistic, which direction). The kinds
// are in kinds.cpp, the one-off rules in custom*.cpp; the verdict rule in kinds.cpp.
// Every claim id has one entry and every entry one claim (test: paper/claims/test_claims.cpp).
#include "custom.hpp"
#include "judging.hpp"
#include "select.hpp"

#include <map>

namespace claims {
namespace rules {
namespace {

namespace P = pick_rows;
const results::Layout &D = results::layout::dummy, &S = results::layout::sqrt_, &E = results::layout::edm,
                      &C = results::layout::collision;

Rule lib(Rule r) {
  r.gpu = false;
  return r;
}
// A claim of the papers' dummy-kernel comparison of the maps (Rule::papers_dummy).
Rule fig5_dummy(Rule r) {
  r.papers_dummy = true;
  return r;
}
// LTM's grid: the papers ran the balanced n'×n' grid (000 §III-A, eq. (8)); ours is linear. Where
// the paper's own grid is measured both are shown, and the verdict holds only if both agree.
const std::string kPapersGrid = std::string(
    "the papers' n'×n' grid (000 §III-A: \"By balanced grid, we mean n' = ⌈√(n(n+1)/2)⌉ blocks per dimension\"; "
    "001 §II-A the same)");
const std::string kLinearGrid = "our linear grid";
using G = P::Grid;
// A rule on LTM under the grid both papers fix: make(grid) builds it with its LTM maps on that grid
// (P::on_grid: ltm-x → ltm-x-sq …). Judged on the papers' n'×n' grid; our linear grid shown beside, without a
// vote. Where a CSV has no rows of LTM on the papers' grid the claim is "not measured": a reading that was never
// run does not vote (issue #35).
Rule by_grid(const std::function<Rule(G)>& make) {
  return fixed_reading({kPapersGrid, make(G::Papers)}, {{kLinearGrid, make(G::Linear)}});
}
// A claim on UTM over the papers' whole N range (both plot UTM over N = 1,024…30,720: 001 §I "N ∈ [1024, 30720]"):
// where UTM's rows stop short of the largest N the other maps reach in the same CSV (UTM is timed only over its
// exact range, inexact rows included, and cannot be rerun here), the claim is not measured over the paper's range;
// what the rows give over UTM's range is shown beside, without a vote.
Rule utm_span(Rule r, const results::Layout& layout, Sel utm_sel, Sel ref_sel) {
  const std::string file = layout.file;
  r.how += "; not measured where UTM's rows (" + join(kUTM, " else ") + ", " + sel_text(file, utm_sel) +
           ") end below the largest N of the other maps (" + sel_text(file, ref_sel) +
           "): the papers plot UTM over N = 1,024…30,720";
  const Fn fn = r.fn;
  r.fn = [fn, layout, utm_sel, ref_sel](const Claim& c, const GpuData* g, const Ctx& ctx) {
    const Table* t = g ? g->get(layout) : nullptr;
    if (t) {
      const std::string m = pick(*t, utm_sel, kUTM, St::MedAll), ref = pick(*t, ref_sel, kLTM, St::MedAll);
      const auto top = [](const Pts& p) {
        double x = NAN;
        for (const auto& q : p)
          if (!(q.first <= x)) x = q.first;
        return x;
      };
      if (!m.empty() && !ref.empty()) {
        const double um = top(curve(*t, utm_sel, m)), rm = top(curve(*t, ref_sel, ref));
        if (um < rm) {
          const Outcome o = fn(c, g, ctx);
          Outcome u{o.ours, kNotMeasured,
                    "not measured over the paper's N range: " + m + " has rows over " + n_range(*t, utm_sel, m) +
                        " only, the other maps reach N = " + fmt_int(rm) + " (" + ref + "), and the paper's statement "
                        "is on UTM over its whole N range; over UTM's rows the rule gives " + o.verdict +
                        (o.reason.empty() ? "" : " (" + o.reason + ")"),
                    false};
          u.why = o.why;  // its reason quotes o's, and o's cause with it
          return u;
        }
      }
    }
    return fn(c, g, ctx);
  };
  return r;
}

// "a runs faster than b": the median, over the N both have rows for, of I(a) / I(b) (each I a same-run ratio to BB);
// judged against the claim's bound (> 1)
Rule faster_common(const results::Layout& layout, Sel sel, std::vector<std::string> a, std::vector<std::string> b) {
  const std::string file = layout.file;
  Rule r;
  r.how = "median over the N both have of I(" + join(a, " else ") + ") / I(" + join(b, " else ") + "), " + sel_text(file, sel);
  r.fn = [=](const Claim& c, const GpuData* g, const Ctx&) {
    std::string why;
    const Table* t = need_table(g, layout, &why);
    if (!t) return not_measured(why);
    const std::string ma = pick(*t, sel, a, St::MedAll), mb = pick(*t, sel, b, St::MedAll);
    if (ma.empty() || mb.empty()) return needs(file, sel_text("", sel).substr(2) + ", maps " + join(a, " else ") + " and " + join(b, " else "));
    const Pts pa = curve(*t, sel, ma), pb = curve(*t, sel, mb);
    const std::map<double, double> ib(pb.begin(), pb.end());
    std::vector<double> q;
    double n0 = NAN, n1 = NAN;
    for (const auto& [N, I] : pa)
      if (ib.count(N)) {
        q.push_back(I / ib.at(N));
        if (!(N >= n0)) n0 = N;
        if (!(N <= n1)) n1 = N;
      }
    if (q.empty()) return needs(file, ma + " and " + mb + " rows at a common N");
    const double v = median(q);
    Outcome o = judge(c, v, fmt(v, 3) + " (" + ma + " / " + mb + ", median over N = " + fmt_int(n0) + "…" + fmt_int(n1) + ", " +
                                 std::to_string(q.size()) + " sizes)");
    if (o.verdict == kDiffers) {
      const std::string n = bound_note(g, layout, sel, ma);
      if (!n.empty()) add_why(o, n);
    }
    return o;
  };
  return r;
}

// A statement on several maps at once ("REC and UTM are slower than BB"): each map judged on its own; the statement
// differs when a measured part differs, holds only when every part is measured and holds, else it is not measured
// (the parts that were measured named, with their verdicts).
Rule parts(std::vector<std::pair<std::string, Rule>> ps) {
  Rule r;
  std::vector<std::string> hows;
  for (const auto& [label, p] : ps) hows.push_back(label + ": " + p.how);
  r.how = "each map of the statement on its own {" + join(hows, " | ") + "}; differs if a measured part differs, holds "
          "only if every part is measured and holds, else not measured";
  r.gpu = false;
  for (const auto& [label, p] : ps) r.gpu = r.gpu || p.gpu;
  r.fn = [ps](const Claim& c, const GpuData* g, const Ctx& ctx) {
    std::vector<std::string> ours, reasons, unmeasured;
    bool differs = false, noise = false, why = false;
    for (const auto& [label, p] : ps) {
      const Outcome o = p.fn(c, g, ctx);
      ours.push_back("[" + label + "] " + o.ours);
      reasons.push_back("[" + label + "] " + o.verdict + (o.reason.empty() ? "" : ": " + o.reason));
      why = why || o.why;
      if (o.verdict == kNotMeasured) unmeasured.push_back(label);
      else if (o.verdict != kHolds) differs = true;
      noise = noise || o.noise;
    }
    Outcome out;
    out.ours = join(ours, "; ");
    out.verdict = differs ? kDiffers : unmeasured.empty() ? kHolds : kNotMeasured;
    out.reason = (out.verdict == kNotMeasured ? "the statement covers " + join(unmeasured, ", ") +
                                                       ", not measured over the paper's range; the measured parts hold. "
                                                 : std::string()) +
                 join(reasons, "; ");
    out.noise = noise;
    out.why = why;
    return out;
  };
  return r;
}

// The rule table at block side rho (built inside a RhoScope: every selection below, and every
// selection a rule makes when evaluated inside the same scope, reads rows of that ρ).
using Table_ = std::vector<std::pair<std::string, Rule>>;
Table_ build_table() {
  // ---- the selections the rules read: named once in the results layer (src/support/results/select.hpp) ----
  const Sel store = P::dummy(P::Form::Store);                                // dummy.csv, sqrt.csv: the papers' store form
  const Sel store_all = P::dummy(P::Form::Store, false);                     //   … inexact rows included (UTM)
  const Sel edm4 = P::edm(edm_variant::full, 4);                            // edm.csv: full matrix, 4 features
  const Sel edm1 = P::edm(edm_variant::full, 1);
  const Sel edm4_all = P::edm(edm_variant::full, 4, false);
  const Sel col3 = P::collision(P::Kernel::Shared, collision_dim::d3);      // collision.csv: shared-memory kernel
  const Sel col1 = P::collision(P::Kernel::Shared, collision_dim::d1);
  // strategies of the papers' comparisons; in the shared-memory kernel RB is rb-b (P::rb)
  const std::vector<std::string> RB = P::rb(), RBb = P::rb(P::Kernel::Shared), REC = P::rec(),
                               SQ = P::ltm(P::Grid::Papers);
  const auto ltm_dummy = [&]() {
    return fixed_reading({kPapersGrid, stat_I(D, store, SQ, St::MedLarge)}, {{kLinearGrid, stat_I(D, store, kLTM, St::MedLarge)}});
  };
  const auto rank_grid = [&](tdmaps::map_family which) {
    return fixed_reading({kPapersGrid, rank_of(D, store, which, {RB, SQ, REC})},
                         {{kLinearGrid, rank_of(D, store, which, {RB, kLTM, REC})}});
  };
  // LTM-R of Fig. 3 on the papers' grid: sqrt.csv's ltm-r-sq (the square-root study's own run), else dummy.csv's
  // (the same kernel and map, another run); the linear grid (sqrt.csv ltm-r) shown
  const auto sqrt_ltmr = [&](St st) {
    return fixed_reading({kPapersGrid, first_measured({{S.file, stat_I(S, store, {tdmaps::LTM_R_SQ::name}, st)},
                                                       {D.file, stat_I(D, store, {tdmaps::LTM_R_SQ::name}, st)}})},
                         {{kLinearGrid + ", " + S.file, stat_I(S, store, {tdmaps::LTM_R::name}, st)}});
  };
  // the LTM candidates of a comparison on grid g
  const auto L = [](G g, std::vector<std::string> v) { return P::on_grid(g, std::move(v)); };

  // a Fig. 3 value the papers do not qualify by N (000 "I_680 ≈ 1.15"; 001 §V "an average improvement factor of
  // I = 1.15"): read as the median over large N and as the mean over every N, side by side
  const auto sqrt_ltmr_stats = [&]() {
    return readings({{"median over N ≥ " + fmt_int(kLargeN), sqrt_ltmr(St::MedLarge)}, {"mean over every N", sqrt_ltmr(St::MeanAll)}});
  };

  return {
      // ---- stated identically in 000 and 001 -----------------------------------------------------
      // the bound and the hypothesis on I: the dummy kernel is timed (dummy.csv); LTM judged on the papers'
      // n'×n' grid (ltm-r-sq), the best variant on our linear grid shown; ρ read at 16 and 32 (family bound-I)
      {"000+001-bound-I", fixed_reading({kPapersGrid, stat_I(D, store, SQ, St::MedLarge, StatOpt{kInf, true, ""})},
                                        {{kLinearGrid, bound_I(false)}})},
      {"000+001-hyp-I", fixed_reading({kPapersGrid, stat_I(D, store, SQ, St::MedLarge)}, {{kLinearGrid, bound_I(true)}})},
      {"000+001-wasted-bb", wasted_bb()},
      {"000+001-wasted-ltm", wasted_ltm()},
      {"000+001-sqrt-ltmr-680", sqrt_ltmr_stats()},
      {"000+001-eps-ltmn", range_readings({tdmaps::LTM_N::name})},
      // REC's part judged; UTM's part not measured where its rows do not span the paper's N range
      {"000+001-dummy-rec-utm",
       fig5_dummy(parts({{"REC", below_one(D, store_all, {REC})},
                         {"UTM", utm_span(below_one(D, store_all, {kUTM}), D, store_all, store)}}))},
      // 000 and 001 say it differently: "almost as fast as RB" (000, whose §VI gives RB 28%, LTM 18%) and
      // "as fast as RB in practical use" (001): one row each, the paper's own value in reported.csv
      {"000-ltm-vs-rb", by_grid([&](G g) { return ratio_I({E, edm4, L(g, kLTM)}, {E, edm4, RB}, St::MedLarge); })},
      {"001-ltm-vs-rb", by_grid([&](G g) { return ratio_I({E, edm4, L(g, kLTM)}, {E, edm4, RB}, St::MedLarge); })},
      // ---- 000 ------------------------------------------------------------------------------------
      {"000+001-eq9-printed", eq9_printed()},
      {"000+001-fewer-flops", fewer_instructions()},
      {"000+001-eq2-printed", eq2_printed()},
      {"000+001-utm-printed", utm_printed()},
      {"000-sqrt-ltmx-680", by_grid([&](G g) { return stat_I(S, store, L(g, {tdmaps::LTM_X::name}), St::MedLarge); })},
      {"000-sqrt-ltmx-765m", by_grid([&](G g) { return stat_I(S, store, L(g, {tdmaps::LTM_X::name}), St::MedLarge); })},
      {"000-sqrt-ltmn-680", by_grid([&](G g) { return stat_I(S, store, L(g, {tdmaps::LTM_N::name}), St::MedLarge); })},
      {"000-sqrt-ltmn-765m", by_grid([&](G g) { return stat_I(S, store, L(g, {tdmaps::LTM_N::name}), St::MedLarge); })},
      {"000-sqrt-ltmr-765m", sqrt_ltmr(St::MedLarge)},
      {"000-sqrt-k40", by_grid([&](G g) { return sqrt_all_alike(g); })},
      {"000-k40-sqrtf", by_grid([&](G g) { return ratio_I({S, store, L(g, {tdmaps::LTM_X::name})}, {S, store, L(g, {tdmaps::LTM_R::name})}, St::MedLarge); })},
      {"000-rsqrt-best", by_grid([&](G g) { return rsqrt_best(g); })},
      {"000-eps-range", range_readings({tdmaps::LTM_R::name})},
      {"000-utm-range", utm_range_readings()},
      {"000-utm-arg", lib(utm_arg())},
      {"000-range-10x", range_10x()},
      {"000-avril-2x", lib(context("a speedup cited from Avril et al., measured on their hardware"))},
      {"000+001-bb-block-vs-thread", below_one(D, store, {{tdmaps::BB_T::name}})},
      {"000-rb-wasted", rb_wasted()},
      {"000+001-rb-printed", rb_printed()},
      {"000+001-rec-passes", rec_passes()},
      {"000-sblocks-680", sblocks_context()},
      {"000-sblocks-765m", sblocks_context()},
      {"000-sblocks-k40", sblocks_context()},
      {"000-n800", n800()},
      {"000-dummy-rb-33", fig5_dummy(stat_I(D, store, RB, St::Max))},
      {"000-dummy-rb-first", fig5_dummy(rank_grid(tdmaps::map_family::rb))},
      {"000-dummy-ltm-18", fig5_dummy(ltm_dummy())},
      {"000-dummy-ltm-second", fig5_dummy(rank_grid(tdmaps::map_family::ltm))},
      {"000-dummy-k40-7", fig5_dummy(dummy_converge())},
      {"000-edm-rb-28", stat_I(E, edm4, RB, St::Max)},
      {"000-edm-rb-first", by_grid([&](G g) { return rank_of(E, edm4, tdmaps::map_family::rb, {RB, L(g, kLTM), REC}); })},
      // §V "a stable improvement of 18%" (the median over large N) and the abstract's "up to 18%" (the largest): both read
      {"000-edm-ltm-18", by_grid([&](G g) {
         return readings({{"§V 'a stable improvement of 18%'", stat_I(E, edm4, L(g, kLTM), St::MedLarge)},
                          {"abstract 'up to 18%'", stat_I(E, edm4, L(g, kLTM), St::Max)}});
       })},
      {"000-edm-ltm-second", by_grid([&](G g) { return rank_of(E, edm4, tdmaps::map_family::ltm, {RB, L(g, kLTM), REC}); })},
      {"000-edm-rec-12", stat_I(E, edm4, REC, St::Last)},
      // "lower than BB ... for all GPUs" over the papers' N range, as its UTM siblings: utm_span
      {"000-edm-utm-slower", utm_span(below_one(E, edm4_all, {kUTM}), E, edm4_all, edm4)},
      {"000-edm-utm-4", stat_I(E, edm4, kUTM, St::Max, StatOpt{3000, false, ""})},
      {"000-col-ltm-7", by_grid([&](G g) { return stat_I(C, col3, L(g, kLTM), St::Max); })},
      {"000-col-ltm-first", by_grid([&](G g) { return rank_of(C, col3, tdmaps::map_family::ltm, {RBb, L(g, kLTM), REC}); })},
      {"000-col-only-ltm", by_grid([&](G g) { return only_above_one(C, col3, tdmaps::map_family::ltm, {RBb, L(g, kLTM), REC}); })},
      {"000-col-rb-rec-slower", below_one(C, col3, {RBb, REC})},
      {"000-col-utm-100", col_utm_low()},
      {"000-col-utm-overtaken", by_grid([&](G g) { return utm_span(col_utm_overtaken(g), C, P::collision(P::Kernel::Direct, collision_dim::d3, false), col3); })},
      {"000-col1d-ltm", by_grid([&](G g) { return stat_I(C, col1, L(g, kLTM), St::MedLarge); })},
      // statements with no number (audit E)
      {"000-abs-faster-utm-rec", parts({{"REC", by_grid([&](G g) { return faster_common(E, edm4, L(g, kLTM), REC); })},
                                        {"UTM", by_grid([&](G g) { return utm_span(faster_common(E, edm4_all, L(g, kLTM), kUTM), E, edm4_all, edm4); })}})},
      {"000-edm-all-gpus", by_grid([&](G g) { return maps_differ_edm(g); })},
      {"000-1d-vs-3d", by_grid([&](G g) { return ratio_I({C, col1, L(g, kLTM)}, {C, col3, L(g, kLTM)}, St::MedLarge); })},
      {"000-bb-small-n", stat_I(D, store, SQ, St::Max, StatOpt{799, false, ""})},
      // ---- 001 ------------------------------------------------------------------------------------
      {"001-abs-faster-utm", by_grid([&](G g) { return utm_span(faster_common(E, edm4_all, L(g, kLTM), kUTM), E, edm4_all, edm4); })},
      {"001-feat-2-3-similar", by_grid([&](G g) { return feat_similar(g); })},
      {"001-feat-rec", feat_rec()},
      {"001-rec-faster-bb", stat_I(E, edm4, REC, St::MedLarge)},
      {"001-sqrt-ltmx", by_grid([&](G g) { return stat_I(S, store, L(g, {tdmaps::LTM_X::name}), St::MedLarge); })},
      {"001-sqrt-ltmn", by_grid([&](G g) { return stat_I(S, store, L(g, {tdmaps::LTM_N::name}), St::MedLarge); })},
      {"001-fig3-only-ltmr", by_grid([&](G g) { return only_above_one(S, store, P::on_grid(g, tdmaps::LTM_R::name), {L(g, {tdmaps::LTM_X::name}), L(g, {tdmaps::LTM_N::name}), L(g, {tdmaps::LTM_R::name})}); })},
      {"001-avg-115", sqrt_ltmr_stats()},
      {"001-eps-ltmr", range_readings({tdmaps::LTM_R::name})},
      {"001-fermi", out_of_scope("needs a Fermi GPU")},
      {"001-eq16-printed", eq16_printed_001()},
      {"000-eq15-printed", eq15_printed_000()},
      {"001-error-le-1", error_le_one()},
      {"001-avril-two-cond", two_conditionals()},
      {"001-utm-block-rsqrt", out_of_scope("a prediction about a block-level UTM with rsqrtf, a map the package does not have")},
      // dummy.csv has no ltm-x rows and sqrt.csv no ltm-lut rows: no same-run pair exists, so the ratio is cross-run;
      // the library has no ltm-lut on the papers' grid, so that (judged) reading is not measured
      // (each I is a same-run ratio to BB; their quotient compares two runs), said in the rule and the value
      {"001-ltm-lut", [&] {
         Rule r = by_grid([&](G g) { return ratio_I({D, store, L(g, {tdmaps::LTM_LUT::name})}, {S, store, L(g, {tdmaps::LTM_X::name})}, St::MedLarge); });
         const std::string note = "cross-run: ltm-lut's I from dummy.csv, ltm-x's from sqrt.csv (no CSV has both), "
                                  "an exception to the same-run rule of the method";
         r.how += "; " + note;
         const Fn fn = r.fn;
         r.fn = [fn, note](const Claim& c, const GpuData* g, const Ctx& ctx) {
           Outcome o = fn(c, g, ctx);
           if (o.verdict != kNotMeasured) o.ours += " [" + note + "]";
           return o;
         };
         return r;
       }()},
      {"001-future-ltmx", by_grid([&](G g) { return stat_I(S, store, L(g, {tdmaps::LTM_X::name}), St::MedLarge); })},
      {"001-dummy-rb-25", fig5_dummy(stat_I(D, store, RB, St::Max))},
      {"001-dummy-ltm-13", fig5_dummy(ltm_dummy())},
      {"001-edm-rb-14", stat_each(E, {{"d=4", edm4}, {"d=1", edm1}}, RB, St::MeanAll)},
      {"001-edm-ltm-12-15", by_grid([&](G g) { return stat_each(E, {{"d=4", edm4}, {"d=1", edm1}}, L(g, kLTM), St::MedLarge); })},
      {"001-edm-rec-5000", rec_from_N()},
      {"001-edm-rec-5", stat_I(E, edm4, REC, St::Last)},
      {"001-edm-utm-last", by_grid([&](G g) { return utm_span(rank_of(E, edm4_all, tdmaps::map_family::utm, {RB, L(g, kLTM), REC, kUTM}, true), E, edm4_all, edm4); })},
      {"001-feat-flat", by_grid([&](G g) { return feat_flat(g); })},
      {"001-feat-utm", utm_span(feat_utm(), E, edm4_all, edm4)},
      // ---- 003 ------------------------------------------------------------------------------------
      {"003-map-6x", map_6x()},
      {"003-blocks-6x", blocks_6x()},
      {"003-layout-2-F", layout_2f()},
      {"003-threads", tet_threads()},
      {"003-fa128", fa128()},
      // a formula evaluated at the sizes of tet_layout.csv: a library fact, not a GPU measurement
      {"003-fa-layouts", lib(fa_layouts())},
      // the formula's domain (√ of a negative number at λ = 0): a formula fact, the float sweeps shown
      {"003-eq14-float", lib(eq14_float())},
      {"003-2d-20", cites_2d()},
      {"003-eq16-exact", tet_eq16_exact()},
      {"003-eq5-W", lib(eq5_W())},
      {"003-blocked-size", lib(blocked_size())},
      // ---- 004 ------------------------------------------------------------------------------------
      {"004-cpu-818", sdh_time_context(sdh_seed::cpu)},
      {"004-v1-94", sdh_time_context(sdh_seed::v1)},
      {"004-v2-54", sdh_time_context(sdh_seed::v2)},
      {"004-v3-54", sdh_time_context(sdh_seed::v3)},
      {"004-v4-43", sdh_time_context(sdh_seed::v4)},
      {"004-v5-30", sdh_time_context(sdh_seed::v5)},
      {"004-speedup-30", sdh_speedup_context()},
      {"004-private-2-5", sdh_ratio(sdh_seed::v1, sdh_seed::v2)},
      {"004-v1v2-internal", sdh_internal()},
      {"004-v5-3x", sdh_ratio(sdh_seed::v1, sdh_seed::v5)},
      {"004-divergence-none", sdh_ratio(sdh_seed::v2, sdh_seed::v3, Tol{kTolI, false})},
      {"004-tpb-256", sdh_tpb()},
      {"004-biggest-steps", sdh_steps()},
      {"004-gpu-cores", hw_context()},
  };
}

const Table_& table_for(double rho) {
  static std::map<double, Table_> tables;
  auto it = tables.find(rho);
  if (it == tables.end()) {
    RhoScope scope(rho);
    it = tables.emplace(rho, build_table()).first;
  }
  return it->second;
}
const Table_& table() { return table_for(kRho); }
const Rule* find_rule(double rho, const std::string& id) {
  for (const auto& [rid, r] : table_for(rho))
    if (rid == id) return &r;
  return nullptr;
}
}  // namespace
}  // namespace rules

bool has_rule(const std::string& id) { return rules::find_rule(kRho, id) != nullptr; }
std::vector<std::string> rule_ids() {
  std::vector<std::string> v;
  for (const auto& [id, r] : rules::table()) v.push_back(id);
  return v;
}
std::string rule_text(const std::string& id) { return rule_text_at(id, kRho); }
std::string rule_text_at(const std::string& id, double rho) {
  const rules::Rule* r = rules::find_rule(rho, id);
  return r ? r->how : "no rule";
}
bool needs_gpu(const std::string& id) {
  const rules::Rule* r = rules::find_rule(kRho, id);
  return !r || r->gpu;
}
bool papers_dummy(const std::string& id) {
  const rules::Rule* r = rules::find_rule(kRho, id);
  return r && r->papers_dummy;
}
namespace {
Outcome evaluate_at(const Claim& c, const GpuData* gpu, const Ctx& ctx, double rho) {
  RhoScope scope(rho);
  const rules::PaperScope paper(c);
  const rules::Rule* r = rules::find_rule(rho, c.id);
  if (!r) return Outcome{"—", kNotMeasured, "no rule for this claim id", false};
  try {
    Outcome o = r->fn(c, gpu, ctx);
    // a timing claim that differs without a measured cause says so instead of guessing
    const bool timing = r->gpu && c.family.rfind("range", 0) != 0 && c.family != "analysis";
    if (timing && o.verdict == kDiffers && !o.why) add_why(o, note("unmeasured_timing", {}));
    // an exact range that differs: how the paper found its range is not stated, so the cause is not measured
    const bool range = c.family.rfind("range", 0) == 0;
    if (range && (o.verdict == kDiffers || o.verdict == kDepends) && !o.why) add_why(o, note("unmeasured_range", {}));
    return o;
  } catch (const std::exception& e) {
    return Outcome{"—", kNotMeasured, std::string("rule failed: ") + e.what(), false};
  }
}
}  // namespace
std::vector<double> rho_readings(const Claim& c) {
  std::vector<double> v;
  for (const std::string& r : c.readings_of("rho")) {
    const double x = to_num(r);
    if (std::isfinite(x)) v.push_back(x);
  }
  return v;
}
namespace {
Outcome evaluate_readings(const Claim& c, const GpuData* gpu, const Ctx& ctx) {
  const std::vector<double> rhos = rho_readings(c);
  if (rhos.empty()) return evaluate_at(c, gpu, ctx, kRho);
  // ρ is not fixed by the paper (paper/conditions.csv): every reading, side by side
  std::vector<std::pair<std::string, Outcome>> outs;
  for (double r : rhos) outs.emplace_back("ρ = " + fmt_int(r), evaluate_at(c, gpu, ctx, r));
  return rules::combine_readings(outs);
}
}  // namespace
ClaimGrid evaluate_all(const Ctx& ctx) {
  ClaimGrid g;
  for (const GpuData& d : ctx.gpus) g.cols.push_back(&d);
  if (g.cols.empty()) g.cols.push_back(nullptr);
  g.out.resize(ctx.claims.size());
  for (size_t i = 0; i < ctx.claims.size(); ++i)
    for (const GpuData* c : g.cols) g.out[i].push_back(evaluate(ctx.claims[i], c, ctx));
  return g;
}
Outcome evaluate(const Claim& c, const GpuData* gpu, const Ctx& ctx) {
  const NotesScope notes(ctx.reported);  // the words of the rules' reasons (paper/notes.template.md)
  Outcome o = evaluate_readings(c, gpu, ctx);
  // judging rule "citation" (judging.hpp): a citation of other work that the citing paper did not measure is context
  if (is_citation(c) && o.verdict != kNotMeasured && o.verdict != kContext) {
    o.reason = "context: " + std::string(kCitationRule) + "; under the numeric rule ours would be " + o.verdict +
               (o.reason.empty() ? "" : " (" + o.reason + ")");
    o.verdict = kContext;
    o.noise = false;
    o.split.clear();
  }
  return o;
}

}  // namespace claims
