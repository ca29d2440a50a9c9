// test_experiment_rows — the GPU programs' CSV rows, built on a CPU-only machine (issue #39 item 1).
// Each program (bench_maps, bench_apps, bench_sdh, bench_maps3d, multi_hist, gpu_exact_range,
// gpu_verify_3d, bench_gram) builds its row by column name in a host-only header beside it (experiments/*/*_rows.hpp,
// results/row.hpp TD_COL); this test includes every one of them, so a column name that its layout does
// not declare fails to compile here too (make verify, no GPU, no nvcc needed), a column left unset throws
// here, and each row's text is the text the program wrote before, cell by cell in column order
// (the positional rows below, OldRow, are those programs' former code).
#define BOOST_TEST_MODULE experiment_rows
#include <boost/test/unit_test.hpp>

#include <bench/table.hpp>
#include <results/csv.hpp>  // split_csv, the reader's fields (gpu_verify_3d's quoted note)

#include "../experiments/apps2d/bench_apps_rows.hpp"
#include "../experiments/gram/bench_gram_rows.hpp"
#include "../experiments/maps2d/bench_maps_rows.hpp"
#include "../experiments/maps2d/gpu_exact_range_rows.hpp"
#include "../experiments/maps3d/bench_maps3d_rows.hpp"
#include "../experiments/maps3d/gpu_verify_3d_rows.hpp"
#include "../experiments/multigpu/multi_hist_rows.hpp"
#include "../experiments/sdh/bench_sdh_rows.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace bench = tdmaps::bench;
namespace rows = tdmaps::rows;

namespace {
bench::Stats stats(double m) {
  bench::Stats s;
  s.reps = 37;
  s.median_ms = m;
  s.p25_ms = m * 0.97;
  s.p75_ms = m * 1.0312345;
  s.min_ms = m * 0.9;
  s.max_ms = m * 1.7;
  return s;
}
std::string pf(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
// The programs' former rows: cells in column order, each with its type (the positional row the writer took until
// issue #39 removed it: rows are set by column name only now), kept here as the reference each RowOf row must equal.
class OldRow {
 public:
  template <class T>
  OldRow& operator<<(const T& v) {
    if (n_++) s_ += ',';
    s_ += results::cell_text(v);  // (a double has no cell_text: say its format)
    return *this;
  }
  OldRow& stats(const bench::Stats& s, results::Num (*f)(double, int) = results::fixed, int digits = 6) {
    return *this << s.reps << f(s.median_ms, digits) << f(s.p25_ms, digits) << f(s.p75_ms, digits)
                 << f(s.min_ms, digits) << f(s.max_ms, digits);
  }
  std::size_t size() const { return n_; }
  const std::string& line() const { return s_; }

 private:
  std::string s_;
  std::size_t n_ = 0;
};
// Every layout's column count equals the cells of its row.
template <const results::Layout& L>
void check(const results::RowOf<L>& r, const OldRow& old) {
  BOOST_CHECK_EQUAL(L.names().size(), old.size());
  BOOST_CHECK_EQUAL(r.line(), old.line());
}
}  // namespace

BOOST_AUTO_TEST_CASE(bench_maps) {
  for (const double m : {0.0123456789, 12.5, 0.0}) {
    const bench::Stats s = stats(m);
    const double bb = 0.034567891;
    for (const bool narrow : {false, true}) {
      OldRow old;
      old << std::string("dummy") << "store" << 16384LL << 8 << std::string("ltm-e") << true << 2 << 2080ULL << 2080ULL
          << 0ULL << 133120ULL << 131072ULL;
      old.stats(s) << bench::fixed(bb) << bench::fixed(s.median_ms > 0 ? bb / s.median_ms : 0.0, 5)
                   << (narrow ? "32" : "64");
      rows::Maps2dRow m;
      m.test = "dummy";
      m.form = "store";
      m.N = 16384;
      m.rho = 8;
      m.map = "ltm-e";
      m.exact = true;
      m.passes = 2;
      m.launched_blocks = 2080;
      m.useful_blocks = 2080;
      m.wasted_blocks = 0;
      m.launched_threads = 133120;
      m.useful_threads = 131072;
      m.stats = s;
      m.bb_median_ms = bb;
      m.narrow = narrow;
      check(rows::maps2d_row(m), old);
    }
  }
}

BOOST_AUTO_TEST_CASE(bench_apps) {
  for (const double bb : {0.25, double(NAN)})
    for (const bool bandwidth : {true, false}) {
      const bench::Stats s = stats(0.123456789);
      const unsigned long long bytes = 1ull << 30;
      const double improvement = (std::isfinite(bb) && s.median_ms > 0) ? bb / s.median_ms : NAN;
      const double gbps = bandwidth && s.median_ms > 0 ? double(bytes) / (s.median_ms * 1e6) : NAN;
      OldRow old;
      old << std::string("edm") << std::string("lower") << 3 << (long long)32768 << 16 << std::string("ltm-e") << false
          << bytes;
      old.stats(s, bench::sig, 6) << bench::sig(bb) << bench::sig(improvement) << bench::sig(gbps);
      rows::Apps2dRow a;
      a.test = "edm";
      a.variant = "lower";
      a.features = 3;
      a.N = 32768;
      a.rho = 16;
      a.map = "ltm-e";
      a.exact = false;
      a.bytes = bytes;
      a.stats = s;
      a.bb_median_ms = bb;
      a.bandwidth = bandwidth;
      check(rows::apps2d_row(a), old);
    }
}

BOOST_AUTO_TEST_CASE(bench_sdh) {
  const float w = 500.0f;
  const unsigned B = 80;
  const long long N = 1000000;
  const double pairs = double(N) * double(N - 1) / 2;
  for (const int threads : {0, 256})
    for (const double with_tr : {-1.0, 17.123456})
      for (const double cpu_mt : {0.0, 4567.8}) {
        const bench::Stats s = stats(12.345678);
        OldRow old;
        old << std::string("gpu-fast") << N << bench::sig(double(w)) << B
            << (threads > 0 ? std::to_string(threads) : "");
        old.stats(s, bench::fixed, 4) << (with_tr >= 0 ? pf("%.4f", with_tr) : "")
                                      << pf("%.6e", pairs / (s.median_ms / 1000.0))
                                      << (cpu_mt > 0 ? pf("%.3f", cpu_mt / s.median_ms) : "");
        rows::SdhRow h;
        h.impl = "gpu-fast";
        h.N = N;
        h.bucket_width = w;
        h.buckets = B;
        h.threads = threads;
        h.stats = s;
        h.with_transfers_ms = with_tr;
        h.pairs = pairs;
        h.cpu_mt_ms = cpu_mt;
        check(rows::sdh_row(h), old);
      }
}

BOOST_AUTO_TEST_CASE(bench_maps3d) {
  using rows::g4;
  using rows::g6;
  const bench::Stats s = stats(1.23456789);
  const double bb = 2.3456789, eq17 = 1.0123456;
  {
    OldRow old;
    old << 1000LL << 8 << 125LL << "cond" << std::string("tet-e") << "thread" << 1 << 1 << 341250ULL << 333375ULL
        << 174720000ULL << 166666500ULL;
    old.stats(s, bench::sig, 6) << g6(bb) << g4(bb / s.median_ms) << g4(eq17);
    rows::TetDummyRow d;
    d.N = 1000;
    d.rho = 8;
    d.n = 125;
    d.form = "cond";
    d.map = "tet-e";
    d.mode = results::kThreadMode;
    d.exact = 1;
    d.verified = 1;
    d.launched_blocks = 341250;
    d.useful_blocks = 333375;
    d.launched_threads = 174720000;
    d.useful_threads = 166666500;
    d.stats = s;
    d.bb3_median_ms = bb;
    d.I_eq17 = eq17;
    check(rows::tet_dummy_row(d), old);
  }
  {
    OldRow old;
    old << 1000LL << 8 << 125LL << std::string("tet-fast") << "block" << 1 << 341250ULL << 333375ULL << 166666500ULL
        << g4(0.05) << 1ULL << 22ULL << 333ULL << 4444ULL;
    old.stats(s, bench::sig, 6) << g4(12.3456) << g6(bb) << g4(bb / s.median_ms) << g4(eq17);
    rows::TetThreebodyRow t;
    t.N = 1000;
    t.rho = 8;
    t.n = 125;
    t.map = "tet-fast";
    t.mode = results::kBlockMode;
    t.launched_blocks = 341250;
    t.useful_blocks = 333375;
    t.triplets = 166666500;
    t.r = 0.05;
    t.bins = {1, 22, 333, 4444};
    t.stats = s;
    t.gtriplets_per_s = 12.3456;
    t.bb3_median_ms = bb;
    t.I_eq17 = eq17;
    check(rows::tet_threebody_row(t), old);
  }
  const bench::Stats bbs = stats(3.3), lins = stats(4.4);
  for (const bench::Stats* b : {&bbs, (const bench::Stats*)nullptr})
    for (const bench::Stats* l : {&lins, (const bench::Stats*)nullptr}) {
      OldRow old;
      old << 1000LL << 8 << 125LL << "blocked" << std::string("tet-e") << "thread" << 1 << 170000000ULL << 3333500ULL
          << g4(3333500.0 / 1000000.0);
      old.stats(s, bench::sig, 6) << g4(456.7) << (b ? bench::text(g6(b->median_ms)) : "")
                                  << (b ? bench::text(g4(b->median_ms / s.median_ms)) : "")
                                  << (l ? bench::text(g6(l->median_ms)) : "")
                                  << (l ? bench::text(g4(l->median_ms / s.median_ms)) : "");
      rows::TetLayoutRow r;
      r.N = 1000;
      r.rho = 8;
      r.n = 125;
      r.layout = "blocked";
      r.map = "tet-e";
      r.mode = results::kThreadMode;
      r.slots = 170000000;
      r.padding = 3333500;
      r.padding_over_n2rho3 = 3333500.0 / 1000000.0;
      r.stats = s;
      r.eff_gbs = 456.7;
      r.bb3_median_ms = b ? b->median_ms : NAN;  // none: NaN (empty cells)
      r.linear_median_ms = l ? l->median_ms : NAN;
      check(rows::tet_layout_row(r), old);
    }
  {  // the bw_copy reference row
    OldRow old;
    old << 1000LL << 8 << 125LL << "-" << "bw_copy" << "bw" << 1 << 166666500ULL << std::uint64_t(0) << g4(0);
    old.stats(s, bench::sig, 6) << g4(999.5) << "" << "" << "" << "";
    rows::TetLayoutRow r;
    r.N = 1000;
    r.rho = 8;
    r.n = 125;
    r.layout = "-";
    r.map = results::kBwCopyMap;
    r.mode = results::kBwMode;
    r.slots = 166666500;
    r.padding = 0;
    r.padding_over_n2rho3 = 0.0;
    r.stats = s;
    r.eff_gbs = 999.5;
    check(rows::tet_layout_row(r), old);
  }
}

BOOST_AUTO_TEST_CASE(multi_hist) {
  const bench::Stats sw = stats(10.123456), sc = stats(9.5), sr = stats(0.4321), sq = stats(0.1234);
  const double per_s = 1.2345678e11, first = 1.1e11;
  for (const bool same : {true, false}) {
    OldRow old;
    old << std::string("sdh") << 1000000LL << std::string("gpu-fast") << 4 << 2 << 4 * 2 << 123456ULL << 499999500000ULL
        << sw.reps << bench::fixed(sw.median_ms, 4) << bench::fixed(sw.p25_ms, 4) << bench::fixed(sw.p75_ms, 4)
        << bench::fixed(sc.median_ms, 4) << bench::fixed(sr.median_ms, 4) << bench::fixed(sq.median_ms, 4)
        << bench::sig(sr.median_ms / sw.median_ms, 4) << bench::sig(per_s, 6) << bench::fixed(per_s / first, 4) << same
        << "oracle";
    rows::MultigpuRow m;
    m.app = "sdh";
    m.N = 1000000;
    m.kernel = "gpu-fast";
    m.gpus = 4;
    m.chunks = 2;
    m.blocks = 123456;
    m.work = 499999500000ULL;
    m.wall = sw;
    m.compute = sc;
    m.reduce = sr;
    m.wait = sq;
    m.work_per_s = per_s;
    m.first_rate = first;
    m.identical = same;
    m.verified = "oracle";
    check(rows::multigpu_row(m), old);
  }
}

BOOST_AUTO_TEST_CASE(gpu_exact_range) {
  const std::uint64_t exact_N[3] = {3037000499ull, 1518500249ull, 759250124ull};
  const std::uint64_t searched = 1ull << 40;
  for (const std::string first : {"none", "4611686014132420609"}) {
    // the former text row
    const std::string old = std::string("ltm-f") + "," + "block" + "," + first + "," + std::to_string(exact_N[0]) + "," +
                            std::to_string(exact_N[1]) + "," + std::to_string(exact_N[2]) + "," +
                            std::to_string(searched) + "," + "pinned";
    rows::ExactRangeGpuRow e;
    e.variant = "ltm-f";
    e.kind = "block";
    e.first_wrong = first;
    for (int k = 0; k < 3; ++k) e.exact_N[k] = exact_N[k];
    e.searched_up_to = searched;
    e.rounding = "pinned";
    const auto r = rows::exact_range_gpu_row(e);
    BOOST_CHECK_EQUAL(r.line(), old);
  }
}

BOOST_AUTO_TEST_CASE(gpu_verify_3d) {
  for (const bool layer : {true, false})
    for (const bool narrow : {true, false}) {
      const std::string ns[3] = {layer ? "1234" : "", layer ? "617" : "", layer ? "493" : ""};
      const char* note = "eq. (14) in float, device cbrtf/sqrtf (as published)";
      const unsigned long long end = 1ull << 34, first = 12345;
      const bool none = layer;
      // the former text row
      const std::string old = std::string("tet-f") + "," + (layer ? "layer" : "row") + "," +
                              (none ? "none" : std::to_string(first)) + "," + std::to_string(end) + "," + ns[0] + "," +
                              ns[1] + "," + ns[2] + ",\"" + note + "\"," + (narrow ? "32" : "64");
      rows::TetExactRangeGpuRow e;
      e.root = "tet-f";
      e.part = layer ? results::tet_part::layer : results::tet_part::row;
      e.first_wrong = none ? "none" : std::to_string(first);
      e.searched_to = end;
      e.largest_exact_N_rho4 = ns[0];
      e.largest_exact_N_rho8 = ns[1];
      e.largest_exact_N_rho10 = ns[2];
      e.note = note;
      e.index_bits = narrow ? 32 : 64;
      const auto r = rows::tet_exact_range_gpu_row(e);
      BOOST_CHECK_EQUAL(r.line(), old);
      // the note's comma inside its quotes: the reader (results/csv.hpp split_csv) sees the header's 9 fields
      const std::vector<std::string> f = results::split_csv(r.line());
      BOOST_CHECK_EQUAL(f.size(), results::layout::tet_exact_range_gpu.names().size());
      BOOST_CHECK_EQUAL(f.at(7), note);
    }
}

BOOST_AUTO_TEST_CASE(bench_gram) {
  const long long N = 32768;
  const int d = 128;
  const unsigned long long c = 256, launched = c * (c + 1) / 2, useful = c * (c + 1) / 2;
  const double flop = 2.0 * double(d) * double(N) * double(N + 1) / 2;
  const bench::Stats s = stats(12.3456789), bbs = stats(13.579);
  const double ms = s.median_ms;
  // the timed variants: ours with their bb-grid, a bb-grid, a checked peer, a peer past the bound, a write,
  // the empty blocks (the former positional row of bench_gram.cu's main loop, its bb and its empty blocks
  // by median)
  struct Case {
    std::string prec;
    gram::Output output;
    std::string impl, tile;
    double bytes, err, bound;
    bool bb, verified;
  };
  const std::string tf32 = gram::name(gram::Prec::tf32);
  const Case cases[] = {
      {tf32, gram::Output::lower, gram::impl_name(gram::Sched::ltm_e, gram::Kernel::classic), "128x128", 2.1e9, 1.2345e-5, 1.5e-3, true, true},
      {tf32, gram::Output::lower_sqrt, gram::impl_name(gram::Sched::bb, gram::Kernel::sm80_8w), "128x128", 2.1e9, 3e-5, 1.5e-3, false, true},
      {tf32, gram::Output::count, gram::impl_name(gram::Sched::ltm_e, gram::Kernel::classic), "128x128", 0, NAN, NAN, false, false},
      {gram::peer::fp32, gram::Output::full, gram::peer::cublas_gemm_epilogue, "cublas", 4.29e9, 2e-7, 1e-6, false, true},
      {tf32, gram::Output::full, gram::peer::cublas_gemm_epilogue, "cublas", 4.29e9, 2e-3, 1.5e-3, false, false},
      {gram::peer::fp32, gram::Output::full_gram, gram::peer::cublas_gemm, "cublas", 4.29e9, NAN, NAN, false, false},
      {gram::peer::none, gram::Output::lower, gram::peer::write, "cublas", 2.1e9, NAN, NAN, false, false},
      {gram::peer::fp64, gram::Output::count, gram::peer::fp64_exact, "64x64", 0, NAN, NAN, false, false},
      {gram::peer::none, gram::Output::none, gram::peer::empty_blocks, "128x128", 0, NAN, NAN, false, false}};
  for (const Case& v : cases) {
    const bool ours_row = v.tile == "128x128" && v.impl != gram::peer::empty_blocks;
    const double empty_ms = ms;  // the empty blocks are the last variant: their own median
    OldRow old;
    old << N << d << v.prec << gram::name(v.output) << v.impl << v.tile << launched << useful;
    old.stats(s, bench::fixed, 4);
    old << bench::sig(v.impl == gram::peer::write || v.impl == gram::peer::empty_blocks ? NAN : flop / (ms * 1e-3) / 1e12, 4)
        << bench::sig(v.bytes > 0 ? v.bytes / (ms * 1e-3) / 1e9 : NAN, 4) << bench::sig(v.bytes, 6) << bench::sig(v.err, 3)
        << bench::sig(v.bound, 3);
    if (v.bb) old << bench::fixed(bbs.median_ms, 4) << bench::fixed(bbs.median_ms / ms, 3);
    else old << bench::sig(NAN) << bench::sig(NAN);
    old << bench::sig(v.impl == gram::peer::empty_blocks ? double(launched) / (empty_ms * 1e-3)
                      : ours_row ? double(launched) / (ms * 1e-3) : NAN, 4)
        << (v.bound >= 0 ? (v.verified ? 1 : 0) : -1);
    rows::GramRow g;
    g.N = N;
    g.d = d;
    g.precision = v.prec;
    g.output = v.output;
    g.impl = v.impl;
    g.tile = v.tile;
    g.launched_tiles = launched;
    g.useful_tiles = useful;
    g.stats = s;
    g.flop = v.impl == gram::peer::write || v.impl == gram::peer::empty_blocks ? NAN : flop;
    g.bytes = v.bytes;
    g.err = v.err;
    g.bound = v.bound;
    if (v.bb) g.bb_median_ms = bbs.median_ms;
    g.blocks_rate = ours_row || v.impl == gram::peer::empty_blocks;
    g.verified = v.bound >= 0 ? (v.verified ? 1 : 0) : -1;
    check(rows::gram_row(g), old);
  }
  // the fused histogram's rows (with their bb-grid) and the eps count's (without), the former --hist-N rows
  const double coef = 1.52587890625e-3;
  for (const bool hist : {true, false}) {
    OldRow old;
    old << N << d << tf32 << gram::name(hist ? gram::Output::hist : gram::Output::count)
        << gram::impl_name(gram::Sched::ltm_e, gram::Kernel::sm80_8w) << "128x128" << launched << useful;
    old.stats(s, bench::fixed, 4);
    old << bench::sig(flop / (ms * 1e-3) / 1e12, 4) << bench::sig(NAN) << bench::sig(0.0, 1) << bench::sig(NAN)
        << bench::sig(coef, 3);
    if (hist) old << bench::fixed(bbs.median_ms, 4) << bench::fixed(bbs.median_ms / ms, 3);
    else old << bench::sig(NAN) << bench::sig(NAN);
    old << bench::sig(double(launched) / (ms * 1e-3), 4) << 1;
    rows::GramRow g;
    g.N = N;
    g.d = d;
    g.precision = tf32;
    g.output = hist ? gram::Output::hist : gram::Output::count;
    g.impl = gram::impl_name(gram::Sched::ltm_e, gram::Kernel::sm80_8w);
    g.tile = "128x128";
    g.launched_tiles = launched;
    g.useful_tiles = useful;
    g.stats = s;
    g.flop = flop;
    g.bound = coef;
    if (hist) g.bb_median_ms = bbs.median_ms;
    g.blocks_rate = true;
    g.verified = 1;
    check(rows::gram_row(g), old);
  }
}

// A TD_COL name is checked at compile time: its index is a constant expression, and a name the layout
// does not declare has none (RowOf::index_of's static_assert, which the line below would trip).
static_assert(results::RowOf<results::layout::tet_layout>::index_of(TD_COL("linear_over_blocked")) == 20, "");
static_assert(results::column_index(results::layout::dummy.columns, "median_ms") == 13, "");
static_assert(results::column_index(results::layout::dummy.columns, "median") == results::no_column, "");
static_assert(results::column_index(results::layout::dummy.columns, "index_bit") == results::no_column, "");
static_assert(results::column_index(results::layout::dummy.columns, "index_bits") == 20, "");
// results::RowOf<results::layout::dummy>().set(TD_COL("medain_ms"), 1);  // does not compile
