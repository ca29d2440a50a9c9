// experiments/maps3d/bench_maps3d.cu — the experiments of 003_66f856975a7ab3ee.txt
// (tetrahedral domain, blocks of rho^3 threads):
//   --test dummy      the map alone (dummy kernels, two forms: `store`, every in-domain
//                     thread stores x+y+z to one address as the papers do; `cond`, the
//                     contention-free store under an impossible condition), BB3
//                     against g(lambda) with each layer root and mode. Predicted:
//                     I = BB3 / map up to 6 (eq. (17)-(18)).
//   --test threebody  a 3-body histogram over all triplets i <= j <= k of N points
//                     (how many sides of each triangle are shorter than r), block
//                     tiles in shared memory at the map's block coordinate.
//   --test layout     one diffusion step over the pyramid with the data in the linear
//                     z->y->x layout and in the succinct blocked layout of §III-A,
//                     each driven by BB3 and by g(lambda). Predicted: blocked up to
//                     2x faster than linear (eq. (10)).
// For every (N, rho) all variants are timed in the same run, interleaved (round after
// round every variant gets one timed launch, order rotated), CUDA events per launch.
// I = BB3 median / variant median (same form / layout). Every variant is verified on
// the GPU against the CPU before it is timed (see README.md for what is checked).
//
// Output: <out>/<gpu_slug>/tet_<test>.csv, "# " + metadata JSON, header, rows flushed.
// Progress on stderr. Bad input: one line on stderr, exit 2. Verification failure of
// an exact map: exit 1.
#include "maps3d_gpu.hpp"
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)

#include <bench/gpu.cuh>
#include <bench/predict.hpp>

#include <boost/program_options.hpp>

#include <cinttypes>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <select.hpp>   // results::pick_rows::form_name: the forms' words, declared once
#include <layouts.hpp>  // results::layout: the CSV columns, declared once (src/support/results/layouts.hpp)
#include "bench_maps3d_rows.hpp"  // the CSV row by column name (host only; verify/test_experiment_rows checks it)

namespace po = boost::program_options;
using namespace tdmaps;
using namespace tdmaps::exp3d;

namespace {

// The form's word (tet_dummy.csv's column form, --form): the readers' (results::pick_rows::form_name).
const char* form_word(bool store) {
  return results::pick_rows::form_name(store ? results::pick_rows::Form::Store : results::pick_rows::Form::Cond);
}

struct Options {
  std::string test = "dummy";
  std::vector<i64> ns;
  std::vector<int> rhos{8, 4};
  std::vector<std::string> maps = map3_default_names();  // the registry's (maps3d_default)
  std::vector<Mode> modes{Mode::thread, Mode::block};
  std::vector<bool> forms{false, true};  // store_form: cond, store
  float r = 0.25f;
  i64 verify_N = 97;
  int bw_planes = 4;  // layout, mode=bw: float planes per cell of the bandwidth-bound kernel
  bench::RunOptions run;
};

Options parse(int argc, char** argv) {
  Options o;
  o.run = bench::RunOptions::with(20, 3, 3, 300);  // reps, warmup, min_reps, budget_s
  std::vector<std::string> n_args, rho_args, map_args, mode_args;
  std::string form = "cond,store";
  // the default sizes, from default_Ns itself
  std::string sizes_help = "problem sizes: comma list and/or ranges A:B:STEP (default";
  for (bool quick : {false, true})
    for (const char* t : {"dummy", "threebody", "layout"}) {
      sizes_help += std::string(quick && std::string(t) == "dummy" ? "; --quick:" : "") + " " + t + " ";
      std::string v;
      for (i64 n : default_Ns(t, quick)) v += (v.empty() ? "" : ",") + std::to_string(n);
      sizes_help += v;
    }
  sizes_help += ")";
  const std::string maps_help = maps3_help();
  bench::Cli cli("bench_maps3d", "bench_maps3d: tetrahedral-domain experiments (003_66f856975a7ab3ee.txt)\noptions");
  cli.add()("test", po::value<std::string>(&o.test)->default_value("dummy"), "dummy | threebody | layout")
      ("N", po::value<std::vector<std::string>>(&n_args)->composing(),
       sizes_help.c_str())
      ("rho", po::value<std::vector<std::string>>(&rho_args)->composing(), "block sides, rho^3 <= 1024 (default 8,4)")
      ("maps", po::value<std::vector<std::string>>(&map_args)->composing(),
       maps_help.c_str())
      ("modes", po::value<std::vector<std::string>>(&mode_args)->composing(),
       "where the map is evaluated: thread (every thread), block (thread 0, shared), both (default both)")
      ("form", po::value<std::string>(&form)->default_value("cond,store"), "dummy forms: cond, store, both (comma list)")
      ("r", po::value<float>(&o.r)->default_value(0.25f), "threebody: side length threshold (unit cube)")
      ("verify-max", po::value<i64>(&o.verify_N)->default_value(97), "size of the full CPU comparison before timing")
      ("bw-planes", po::value<int>(&o.bw_planes)->default_value(4),
       "layout: float planes per cell of the bandwidth-bound kernel (mode=bw rows): 1, 4 or 8; 0 = no bw rows");
  cli.add_run_options(o.run);
  cli.renamed("verify-N", "verify-max");
  cli.parse(argc, argv);
  cli.check([&] {
    o.test = bench::parse_choice(o.test, "--test", {"dummy", "threebody", "layout"});
    o.ns = n_args.empty() ? default_Ns(o.test, o.run.quick) : parse_Ns(n_args);
    if (!rho_args.empty()) o.rhos = parse_rhos(rho_args);
    if (!map_args.empty()) o.maps = parse_maps3(map_args);
    if (!mode_args.empty()) {
      o.modes.clear();
      for (int m : parse_modes(mode_args)) o.modes.push_back(Mode(m));
    }
    o.forms.clear();
    const std::string store_word = form_word(true);
    for (const std::string& f : bench::parse_names({form}, "--form", {form_word(false), store_word, "both"})) {
      if (f == "both") {
        for (bool st : {false, true})
          if (std::find(o.forms.begin(), o.forms.end(), st) == o.forms.end()) o.forms.push_back(st);
      } else if (std::find(o.forms.begin(), o.forms.end(), f == store_word) == o.forms.end()) {
        o.forms.push_back(f == store_word);
      }
    }
    if (o.run.quick) {
      if (!cli.given("reps")) o.run.reps = 5;
      if (!cli.given("warmup")) o.run.warmup = 1;
      o.run.min_reps = std::min(o.run.min_reps, o.run.reps);
    }
    if (!(o.r > 0.0f && o.r < 2.0f)) throw bad_input("--r: must be in (0, 2)");
    if (o.verify_N < 1 || o.verify_N > 1024) throw bad_input("--verify-max: must be in 1..1024");
    if (o.bw_planes != 0 && !bw_planes_ok(o.bw_planes)) throw bad_input("--bw-planes: must be 0, 1, 4 or 8");
  });
  return o;
}

// Number formats of the tet_*.csv files: timings %.6g, derived values %.4g (bench_maps3d_rows.hpp, whose
// rows set each cell by column name).
using rows::g4;
using rows::g6;

// Points (one interleaved timing each) of the run, for the budget.
long points_of(const Options& o) {
  const long per = o.test == "dummy" ? long(o.forms.size()) : (o.test == "layout" && o.bw_planes ? 2 : 1);
  return long(o.ns.size() * o.rhos.size()) * per;
}

using gpu::DevBuf;

size_t free_bytes() {
  size_t f = 0, t = 0;
  TD_CUDA(cudaMemGetInfo(&f, &t));
  return f;
}

// The variants timed against the bb3 baseline (bb3:thread is always first).
std::vector<Variant> variants(const Options& o) {
  std::vector<Variant> v{{"bb3", Mode::thread}};
  for (const auto& m : o.maps)
    for (Mode md : o.modes) v.push_back({m, md});
  return v;
}

// Plan of a variant at (N, rho), or why not (tet-f past its exact range, grid limits).
bool try_plan(const Variant& v, i64 N, int rho, bool allow_inexact, Plan3& p, bool& exact, std::string& why) {
  const auto r = bench::try_plan([&](bool inexact) { return plan3(v.map, N, rho, inexact); }, allow_inexact, exact, why);
  if (r) p = *r;
  return r.has_value();
}

// try_plan with one note on stderr when the variant has no plan at (N, rho).
bool plan_or_note(const char* tag, const Variant& v, i64 N, int rho, bool allow_inexact, Plan3& p, bool& exact) {
  std::string why;
  if (try_plan(v, N, rho, allow_inexact, p, exact, why)) return true;
  std::fprintf(stderr, "[%s] rho=%d N=%" PRId64 " %s: skipped (%s)\n", tag, rho, N, v.label().c_str(), why.c_str());
  return false;
}

[[noreturn]] void verification_failed(const std::string& what) {
  std::fprintf(stderr, "bench_maps3d: VERIFICATION FAILED: %s\n", what.c_str());
  std::exit(1);
}

// Before any timing: the full CPU comparison of every kernel x variant at verify_N.
void verify_before_timing(const Options& o, const std::vector<Variant>& vs) {
  if (o.test == "layout" && o.bw_planes) {
    const std::string e = verify_bw_reference(u64(o.bw_planes) * tet(u64(o.verify_N)));
    if (!e.empty()) verification_failed("bw reference N=" + std::to_string(o.verify_N) + ": " + e);
  }
  for (int rho : o.rhos)
    for (const Variant& v : vs) {
      Plan3 p;
      bool exact = false;
      std::string why;
      if (!try_plan(v, o.verify_N, rho, false, p, exact, why)) {
        std::fprintf(stderr, "[verify] %s rho=%d N=%" PRId64 ": not exact here, skipped (%s)\n", v.label().c_str(), rho,
                     o.verify_N, why.c_str());
        continue;
      }
      std::string e;
      const auto fail = [&](const std::string& what) {
        verification_failed(v.label() + " rho=" + std::to_string(rho) + " N=" + std::to_string(o.verify_N) + " " +
                            what + ": " + e);
      };
      if (o.test == "dummy") {
        if (!(e = verify_coverage(v, o.verify_N, rho, false)).empty()) fail("coverage");
      } else if (o.test == "threebody") {
        if (!(e = verify_threebody(v, o.verify_N, rho, o.r)).empty()) fail("threebody");
      } else {
        for (DataLayout3 l : {DataLayout3::linear, DataLayout3::blocked}) {
          if (!(e = verify_layout(v, l, o.verify_N, rho)).empty()) fail(std::string("layout ") + layout_str(l));
          if (o.bw_planes && v.mode == Mode::thread &&
              !(e = verify_layout_bw(v, l, o.verify_N, rho, o.bw_planes)).empty())
            fail(std::string("layout bw ") + layout_str(l));
        }
      }
      std::fprintf(stderr, "[verify] %s rho=%d N=%" PRId64 ": ok\n", v.label().c_str(), rho, o.verify_N);
    }
}

// ---- dummy ----------------------------------------------------------------------------------
void run_dummy(const Options& o, results::CsvFile& csv, bench::Interleaved& timer) {
  const std::vector<Variant> all = variants(o);
  verify_before_timing(o, all);
  DevBuf<int> out(1, "dummy output");
  TD_CUDA(cudaMemset(out.get(), 0, sizeof(int)));
  for (int rho : o.rhos)
    for (i64 N : o.ns) {
      // variants with a plan here, each verified (coverage) at this very (N, rho)
      std::vector<Variant> vs;
      std::vector<Plan3> ps;
      std::vector<int> exact, verified;
      DevBuf<u32> bits(coverage_words3(N), "coverage bitmap");
      DevBuf<unsigned long long> counters(4, "coverage counters");
      for (const Variant& v : all) {
        Plan3 p;
        bool ex = false;
        if (!plan_or_note("dummy", v, N, rho, o.run.allow_inexact, p, ex)) {
          if (v.map == "bb3") break;
          continue;
        }
        const std::string e = run_coverage(v, p, bits.get(), counters.get()).check(N, useful_blocks3(p));
        if (!e.empty() && ex) verification_failed(v.label() + " rho=" + std::to_string(rho) + " N=" + std::to_string(N) + ": " + e);
        vs.push_back(v);
        ps.push_back(p);
        exact.push_back(ex);
        verified.push_back(e.empty());
      }
      if (vs.empty() || vs[0].map != "bb3") continue;
      for (bool store : o.forms) {
        std::vector<std::function<void()>> fns;
        for (size_t i = 0; i < vs.size(); ++i)
          fns.push_back([&, i, store] { launch_dummy(vs[i], ps[i], store, out.get()); });
        std::fprintf(stderr, "[dummy] rho=%d N=%" PRId64 " form=%s:", rho, N, form_word(store));
        const std::vector<bench::Stats> s = timer.time(fns);
        const double bb = s[0].median_ms;
        for (size_t i = 0; i < vs.size(); ++i) {
          const Plan3& p = ps[i];
          const u64 lb = launched_blocks3(vs[i].map, p), r3 = u64(rho) * rho * rho;
          std::fprintf(stderr, " %s %.4g ms (I=%.3g)", vs[i].label().c_str(), s[i].median_ms, bb / s[i].median_ms);
          rows::TetDummyRow d;
          d.N = N;
          d.rho = rho;
          d.n = p.n;
          d.form = form_word(store);
          d.map = vs[i].map;
          d.mode = mode_str(vs[i].mode);
          d.exact = exact[i];
          d.verified = verified[i];
          d.launched_blocks = lb;
          d.useful_blocks = useful_blocks3(p);
          d.launched_threads = lb * r3;
          d.useful_threads = tet(u64(N));
          d.stats = s[i];
          d.bb3_median_ms = bb;
          d.I_eq17 = eq17_bound(p.n);
          csv.row(rows::tet_dummy_row(d));
        }
        std::fprintf(stderr, "\n");
      }
    }
}

// ---- threebody ------------------------------------------------------------------------------
void run_threebody(const Options& o, results::CsvFile& csv, bench::Interleaved& timer) {
  const std::vector<Variant> all = variants(o);
  verify_before_timing(o, all);
  const float r2 = o.r * o.r;
  for (i64 N : o.ns) {
    const std::vector<float4> pts = make_points(N);
    std::fprintf(stderr, "[threebody] N=%" PRId64 ": CPU reference...", N);
    const std::array<u64, 4> ref = threebody_reference(pts, r2);
    std::fprintf(stderr, " bins %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", ref[0], ref[1], ref[2], ref[3]);
    if (ref[0] + ref[1] + ref[2] + ref[3] != tet(u64(N))) verification_failed("CPU reference does not count tet(N) triplets");
    DevBuf<float4> d_pts(pts.size(), "points");
    TD_CUDA(cudaMemcpy(d_pts.get(), pts.data(), pts.size() * sizeof(float4), cudaMemcpyHostToDevice));
    DevBuf<unsigned long long> bins(size_t(kBinCopies3) * 4, "bins");
    for (int rho : o.rhos) {
      std::vector<Variant> vs;
      std::vector<Plan3> ps;
      for (const Variant& v : all) {
        Plan3 p;
        bool ex = false;
        if (!plan_or_note("threebody", v, N, rho, false, p, ex)) {
          if (v.map == "bb3") break;
          continue;
        }
        // verified at this N against the CPU before timing
        TD_CUDA(cudaMemset(bins.get(), 0, bins.size() * sizeof(unsigned long long)));
        launch_threebody(v, p, d_pts.get(), r2, bins.get());
        if (sum_bins(bins.get()) != ref)
          verification_failed("threebody " + v.label() + " rho=" + std::to_string(rho) + " N=" + std::to_string(N) +
                              ": bins differ from the CPU reference");
        vs.push_back(v);
        ps.push_back(p);
      }
      if (vs.empty() || vs[0].map != "bb3") continue;
      std::vector<std::function<void()>> fns;
      for (size_t i = 0; i < vs.size(); ++i) fns.push_back([&, i] { launch_threebody(vs[i], ps[i], d_pts.get(), r2, bins.get()); });
      std::fprintf(stderr, "[threebody] rho=%d N=%" PRId64 ":", rho, N);
      const std::vector<bench::Stats> s = timer.time(fns);
      const double bb = s[0].median_ms;
      for (size_t i = 0; i < vs.size(); ++i) {
        const Plan3& p = ps[i];
        const double gtps = double(tet(u64(N))) / (s[i].median_ms * 1e-3) * 1e-9;
        std::fprintf(stderr, " %s %.4g ms (I=%.3g)", vs[i].label().c_str(), s[i].median_ms, bb / s[i].median_ms);
        rows::TetThreebodyRow t;
        t.N = N;
        t.rho = rho;
        t.n = p.n;
        t.map = vs[i].map;
        t.mode = mode_str(vs[i].mode);
        t.launched_blocks = launched_blocks3(vs[i].map, p);
        t.useful_blocks = useful_blocks3(p);
        t.triplets = tet(u64(N));
        t.r = o.r;
        t.bins = {ref[0], ref[1], ref[2], ref[3]};
        t.stats = s[i];
        t.gtriplets_per_s = gtps;
        t.bb3_median_ms = bb;
        t.I_eq17 = eq17_bound(p.n);
        csv.row(rows::tet_threebody_row(t));
      }
      std::fprintf(stderr, "\n");
    }
  }
}

// ---- layout ---------------------------------------------------------------------------------
// A timed variant's row of tet_layout.csv at (N, rho) over `slots` slots, less its names (layout, map, mode: the
// caller's; run_layout and run_layout_bw differ in mode alone): its padding and the padding's share of n^2 rho^3, its
// timing and bandwidth, the medians of BB3 and of the same map in the linear layout at the point (nullptr: not timed).
rows::TetLayoutRow tet_layout_point(i64 N, int rho, u64 slots, const bench::Stats& s, double gbs, const bench::Stats* bb,
                                    const bench::Stats* lin) {
  const BlockedLayout3 B = BlockedLayout3::make(N, rho);
  const u64 pad = slots - tet(u64(N));
  rows::TetLayoutRow r;
  r.N = N;
  r.rho = rho;
  r.n = B.n;
  r.slots = slots;
  r.padding = pad;
  r.padding_over_n2rho3 = double(pad) / (double(B.n) * double(B.n) * double(rho) * rho * rho);
  r.stats = s;
  r.eff_gbs = gbs;
  r.bb3_median_ms = bb ? bb->median_ms : NAN;
  r.linear_median_ms = lin ? lin->median_ms : NAN;
  return r;
}

// The bandwidth-bound layout kernel at one (N, rho): every thread-mode variant in both
// layouts plus the bandwidth reference over the same bytes, interleaved; rows mode=bw
// and one reference row map=bw_copy (eff_gbs = its measured bandwidth). Skipped where
// the buffers do not fit.
void run_layout_bw(const Options& o, results::CsvFile& csv, bench::Interleaved& timer, const std::vector<Variant>& all,
                   i64 N, int rho) {
  const int P = o.bw_planes;
  const u64 stride[2] = {layout_bw_stride(DataLayout3::linear, N, rho), layout_bw_stride(DataLayout3::blocked, N, rho)};
  const u64 ref_n = u64(P) * tet(u64(N));
  const size_t need = size_t(2 * P * (stride[0] + stride[1]) + 2 * ref_n) * sizeof(float);
  if (need + (size_t(512) << 20) > free_bytes()) {
    std::fprintf(stderr, "[layout bw] rho=%d N=%" PRId64 ": skipped, needs %.1f GiB (%.1f GiB free)\n", rho, N,
                 double(need) / (1ull << 30), double(free_bytes()) / (1ull << 30));
    return;
  }
  DevBuf<float> in[2] = {DevBuf<float>(size_t(P * stride[0]), "bw linear in"), DevBuf<float>(size_t(P * stride[1]), "bw blocked in")};
  DevBuf<float> out[2] = {DevBuf<float>(size_t(P * stride[0]), "bw linear out"), DevBuf<float>(size_t(P * stride[1]), "bw blocked out")};
  DevBuf<float> rin(size_t(ref_n), "bw reference in"), rout(size_t(ref_n), "bw reference out");
  for (int l = 0; l < 2; ++l) TD_CUDA(cudaMemset(in[l].get(), 0, in[l].size() * sizeof(float)));
  TD_CUDA(cudaMemset(rin.get(), 0, rin.size() * sizeof(float)));
  struct Combo { Variant v; Plan3 p; DataLayout3 l; };
  std::vector<Combo> cs;
  for (int l = 0; l < 2; ++l)
    for (const Variant& v : all) {
      if (v.mode != Mode::thread) continue;
      Plan3 p;
      bool ex = false;
      std::string why;
      if (try_plan(v, N, rho, false, p, ex, why)) cs.push_back({v, p, DataLayout3(l)});
    }
  std::vector<std::function<void()>> fns;
  for (const Combo& c : cs) {
    const int l = int(c.l);
    fns.push_back([&, c, l] { launch_layout_bw(c.v, c.p, c.l, P, in[l].get(), out[l].get()); });
  }
  fns.push_back([&] { launch_bw_reference(rin.get(), rout.get(), ref_n); });
  std::fprintf(stderr, "[layout bw] rho=%d N=%" PRId64 " planes=%d:", rho, N, P);
  const std::vector<bench::Stats> s = timer.time(fns);
  const double bytes = double(layout_bw_bytes(N, P));
  const bench::Stats& ref = s.back();
  const double ref_gbs = bytes / (ref.median_ms * 1e-3) * 1e-9;
  std::fprintf(stderr, " reference %.0f GB/s\n", ref_gbs);
  const auto find = [&](const std::string& map, DataLayout3 l) -> const bench::Stats* {
    for (size_t j = 0; j < cs.size(); ++j)
      if (cs[j].v.map == map && cs[j].l == l) return &s[j];
    return nullptr;
  };
  const BlockedLayout3 B = BlockedLayout3::make(N, rho);
  for (size_t i = 0; i < cs.size(); ++i) {
    const Combo& c = cs[i];
    const bench::Stats* bb = find("bb3", c.l);
    const bench::Stats* lin = find(c.v.map, DataLayout3::linear);
    const u64 slots = stride[int(c.l)];
    const double gbs = bytes / (s[i].median_ms * 1e-3) * 1e-9;
    std::fprintf(stderr, "  bw %s %s %.4g ms (%.0f GB/s, %.0f%% of the reference)\n", layout_str(c.l),
                 c.v.map.c_str(), s[i].median_ms, gbs, 100 * gbs / ref_gbs);
    rows::TetLayoutRow r = tet_layout_point(N, rho, slots, s[i], gbs, bb, lin);
    r.layout = layout_str(c.l);
    r.map = c.v.map;
    r.mode = results::kBwMode;
    csv.row(rows::tet_layout_row(r));
  }
  // the reference: the same bytes read and written by a plain float4 copy kernel (no BB3, no linear layout)
  rows::TetLayoutRow r;
  r.N = N;
  r.rho = rho;
  r.n = B.n;
  r.layout = "-";
  r.map = results::kBwCopyMap;
  r.mode = results::kBwMode;
  r.slots = ref_n;
  r.padding = 0;
  r.padding_over_n2rho3 = 0.0;
  r.stats = ref;
  r.eff_gbs = ref_gbs;
  csv.row(rows::tet_layout_row(r));
}

void run_layout(const Options& o, results::CsvFile& csv, bench::Interleaved& timer) {
  const std::vector<Variant> all = variants(o);
  verify_before_timing(o, all);
  DevBuf<unsigned long long> scratch(kBinCopies3, "checksum scratch");
  for (i64 N : o.ns) {
    bool ref_done = false;
    u64 ref_sum = 0;
    for (int rho : o.rhos) {
      const u64 lin_slots = layout_slots(DataLayout3::linear, N, rho), blk_slots = layout_slots(DataLayout3::blocked, N, rho);
      const size_t need = size_t(2 * (lin_slots + blk_slots)) * sizeof(float);
      if (need + (size_t(512) << 20) > free_bytes()) {
        std::fprintf(stderr, "[layout] rho=%d N=%" PRId64 ": skipped, needs %.1f GiB for both layouts (%.1f GiB free)\n", rho, N,
                     double(need) / (1ull << 30), double(free_bytes()) / (1ull << 30));
        continue;
      }
      if (!ref_done) {
        std::fprintf(stderr, "[layout] N=%" PRId64 ": CPU reference checksum...\n", N);
        ref_sum = layout_reference_checksum(N);
        ref_done = true;
      }
      DevBuf<float> in[2] = {DevBuf<float>(lin_slots, "linear in"), DevBuf<float>(blk_slots, "blocked in")};
      DevBuf<float> out[2] = {DevBuf<float>(lin_slots, "linear out"), DevBuf<float>(blk_slots, "blocked out")};
      for (int l = 0; l < 2; ++l) {
        TD_CUDA(cudaMemset(in[l].get(), 0xff, in[l].size() * sizeof(float)));
        layout_init(DataLayout3(l), N, rho, in[l].get());
      }
      struct Combo { Variant v; Plan3 p; DataLayout3 l; };
      std::vector<Combo> cs;
      for (int l = 0; l < 2; ++l)
        for (const Variant& v : all) {
          Plan3 p;
          bool ex = false;
          if (!plan_or_note("layout", v, N, rho, false, p, ex)) continue;
          // verified at this N: the checksum of the output equals the CPU's
          TD_CUDA(cudaMemset(out[l].get(), 0xff, out[l].size() * sizeof(float)));
          launch_layout(v, p, DataLayout3(l), in[l].get(), out[l].get());
          const u64 got = layout_checksum(DataLayout3(l), N, rho, out[l].get(), scratch.get());
          if (got != ref_sum)
            verification_failed("layout " + std::string(layout_str(DataLayout3(l))) + " " + v.label() + " rho=" +
                                std::to_string(rho) + " N=" + std::to_string(N) + ": checksum differs from the CPU's");
          cs.push_back({v, p, DataLayout3(l)});
        }
      std::vector<std::function<void()>> fns;
      for (size_t i = 0; i < cs.size(); ++i) {
        const int l = int(cs[i].l);
        fns.push_back([&, i, l] { launch_layout(cs[i].v, cs[i].p, cs[i].l, in[l].get(), out[l].get()); });
      }
      std::fprintf(stderr, "[layout] rho=%d N=%" PRId64 ":", rho, N);
      const std::vector<bench::Stats> s = timer.time(fns);
      std::fprintf(stderr, "\n");
      const auto find = [&](const std::string& map, Mode m, DataLayout3 l) -> const bench::Stats* {
        for (size_t j = 0; j < cs.size(); ++j)
          if (cs[j].v.map == map && cs[j].v.mode == m && cs[j].l == l) return &s[j];
        return nullptr;
      };
      for (size_t i = 0; i < cs.size(); ++i) {
        const Combo& c = cs[i];
        const bench::Stats* bb = find("bb3", Mode::thread, c.l);
        const bench::Stats* lin = find(c.v.map, c.v.mode, DataLayout3::linear);
        const u64 slots = c.l == DataLayout3::linear ? lin_slots : blk_slots;
        const double gbs = double(tet(u64(N))) * 8.0 / (s[i].median_ms * 1e-3) * 1e-9;
        std::fprintf(stderr, "  %s %s %.4g ms (%.0f GB/s)%s%s\n", layout_str(c.l), c.v.label().c_str(), s[i].median_ms, gbs,
                     bb ? (" I=" + bench::text(g4(bb->median_ms / s[i].median_ms))).c_str() : "",
                     lin && c.l == DataLayout3::blocked ? (" linear/blocked=" + bench::text(g4(lin->median_ms / s[i].median_ms))).c_str() : "");
        rows::TetLayoutRow r = tet_layout_point(N, rho, slots, s[i], gbs, bb, lin);
        r.layout = layout_str(c.l);
        r.map = c.v.map;
        r.mode = mode_str(c.v.mode);
        csv.row(rows::tet_layout_row(r));
      }
    }
    if (o.bw_planes)
      for (int rho : o.rhos) run_layout_bw(o, csv, timer, all, N, rho);
  }
}

// The run's predicted time (bench/predict.hpp), before any CUDA call. GPU: the stated model
// (BB3 launches N^3 cells, a TET map tet(N) ~ N^3 / 6; layout: bytes moved); CPU: the
// three-body reference (threebody_reference: O(N^3 / 64) word operations, measured here on
// a small set and scaled by N^3) and the layout checksum (about 1e8 cells/s, stated).
bench::Forecast forecast(const Options& o) {
  bench::Forecast f;
  const double nv = double(variants(o).size());
  double cpu_tb = 0;
  if (o.test == "threebody") {
    const i64 n0 = 400;
    const std::vector<float4> pts = make_points(n0);
    cpu_tb = bench::calibrate([&] { (void)threebody_reference(pts, o.r * o.r); }, double(n0), 3.0, 1e-15);
    f.add("CPU reference", double(o.verify_N) * o.verify_N * o.verify_N * cpu_tb * nv * double(o.rhos.size()));
  }
  std::vector<double> rounds;
  for (i64 N : o.ns) {
    const double n3 = double(N) * double(N) * double(N);
    const double cube = n3 / bench::model::gpu_cells3d_per_s, tetra = cube / 6;
    if (o.test == "threebody") f.add("CPU reference", n3 * cpu_tb);
    if (o.test == "layout") f.add("CPU reference", n3 / 6 / 1e8);
    for (size_t r = 0; r < o.rhos.size(); ++r) {
      if (o.test == "layout") {
        const double bytes = n3 / 6 * 8 * (1 + (o.bw_planes ? o.bw_planes : 0));
        rounds.push_back(2 * nv * bytes / bench::model::gpu_bytes_per_s);
      } else {
        const double round = cube + (nv - 1) * tetra;
        for (size_t k = 0; k < (o.test == "dummy" ? o.forms.size() : 1); ++k) rounds.push_back(round);
        if (o.test == "threebody") f.add("GPU verification", round);
      }
    }
  }
  f.add("GPU timing", bench::sweep_seconds(rounds, o.run));
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);  // exits 2 on bad input, before any CUDA call
  bench::refuse_or_go("bench_maps3d", forecast(o), o.run);  // before any CUDA call
  bench::Session session("bench_maps3d", argc, argv, o.run);
  // tet_<test>.csv, opened through its layout
  const results::Layout& layout = o.test == "dummy"       ? results::layout::tet_dummy
                                  : o.test == "threebody" ? results::layout::tet_threebody
                                                          : results::layout::tet_layout;
  const std::string file = layout.file;
  std::fprintf(stderr, "bench_maps3d: %s on %s -> %s/%s\n", o.test.c_str(), session.prop().name, session.dir().c_str(),
               file.c_str());
  bench::Budget budget(o.run.budget_s, points_of(o));
  bench::Interleaved timer(o.run, budget);
  if (o.test == "dummy") {
    const auto csv = session.table(results::layout::tet_dummy);
    run_dummy(o, *csv, timer);
  } else if (o.test == "threebody") {
    const auto csv = session.table(results::layout::tet_threebody);
    run_threebody(o, *csv, timer);
  } else {
    const auto csv = session.table(results::layout::tet_layout);
    run_layout(o, *csv, timer);
  }
  std::fprintf(stderr, "bench_maps3d: done (%.0f s of timed launches)\n", budget.used_s());
  return 0;
}
