// src/support/bench/test_bench.cpp — the host parts of the experiment harness (no GPU):
// the list grammar and its errors, the budget policy, typed CSV rows, parallel_for, and which
// GPUs a binary's code runs on (arch.hpp: CUDA's SASS and PTX rules, the refusal line).
#define BOOST_TEST_MODULE bench_harness
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "arch.hpp"
#include "args.hpp"
#include "budget.hpp"
#include <apps/parallel.hpp>
#include "predict.hpp"
#include "table.hpp"

#include <atomic>
#include <cstdio>
#include <fstream>

using namespace tdmaps;
using namespace tdmaps::bench;
namespace bdata = boost::unit_test::data;

BOOST_AUTO_TEST_SUITE(list_grammar)

BOOST_AUTO_TEST_CASE(split_list_items_and_blanks) {
  const auto l = split_list({"a,b", " c ", "d"}, "--x");
  BOOST_TEST((l == std::vector<std::string>{"a", "b", "c", "d"}));
  BOOST_CHECK_THROW(split_list({"a,,b"}, "--x"), bad_input);
}

BOOST_AUTO_TEST_CASE(ints_lists_and_ranges) {
  BOOST_TEST((parse_ints({"1,5:9:2", "5"}, "--N", 1, 100) == std::vector<i64>{1, 5, 7, 9}));
  BOOST_TEST(parse_ints({"1024:30720:1024"}, "--N", 1, i64(1) << 31).size() == 30u);
  BOOST_TEST((parse_small_ints({"16,32", "8"}, "--rho", 1, 32) == std::vector<int>{16, 32, 8}));
}

BOOST_DATA_TEST_CASE(ints_refused, bdata::make({"0", "33", "16x", "-4", "3:1:1", "1:5", "x", "1:9:0", "0:2000000:1"}),
                     item) {
  BOOST_CHECK_THROW(parse_ints({item}, "--rho", 1, 32), bad_input);
}

BOOST_AUTO_TEST_CASE(names_closed_set) {
  const std::vector<std::string> known{"bb", "ltm-r", "utm-n"};
  BOOST_TEST((parse_names({"bb,ltm-r", "ltm-r", "utm-n"}, "--maps", known) == known));
  try {
    parse_names({"ltm-q"}, "--maps", known);
    BOOST_FAIL("no error");
  } catch (const bad_input& e) {
    BOOST_TEST(std::string(e.what()) == "--maps: unknown name 'ltm-q' (known: bb, ltm-r, utm-n)");
  }
  BOOST_TEST(parse_choice("sqrt", "--test", {"dummy", "sqrt"}) == "sqrt");
  BOOST_CHECK_THROW(parse_choice("nope", "--test", {"dummy", "sqrt"}), bad_input);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(time_budget)

BOOST_AUTO_TEST_CASE(no_budget_keeps_reps) {
  Budget b(0, 10);
  BOOST_TEST(b.reps(1e6, 30, 10) == 30);
}

BOOST_AUTO_TEST_CASE(equal_share_of_what_is_left) {
  Budget b(10.0, 4);  // 2.5 s per point
  BOOST_TEST(b.reps(1.0, 30, 10) == 30);      // 30 ms: fits
  BOOST_TEST(b.reps(100.0, 30, 10) == 25);    // 2500 ms / 100 ms
  BOOST_TEST(b.reps(1000.0, 30, 10) == 10);   // never below the minimum
  BOOST_TEST(b.reps(100.0, 5, 10) == 5);      // asked for fewer than the minimum: kept
  b.spend(0.5);                               // a cheap point leaves 9.5 s for 3
  BOOST_TEST(b.reps(100.0, 40, 10) == 31);    // 3166 ms / 100 ms
  b.spend(9.5);                               // spent
  BOOST_TEST(b.reps(100.0, 40, 10) == 10);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(csv_rows)

// A layout of this test's own (rows by column name are the only rows: results/row.hpp RowOf).
inline constexpr results::Layout test_cells{"test_bench_cells.csv", "cpu", "test_bench",
                                            "app,k,N,one,flag,x,y,z,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms"};
inline constexpr results::Layout test_ab{"test_bench_table.csv", "cpu", "test_bench", "a,b"};

BOOST_AUTO_TEST_CASE(typed_cells_and_formats) {
  Stats s;
  s.reps = 3; s.median_ms = 1; s.p25_ms = 0.5; s.p75_ms = 2; s.min_ms = 0.25; s.max_ms = 4;
  results::RowOf<test_cells> r;
  r.set(TD_COL("app"), "edm").set(TD_COL("k"), 3).set(TD_COL("N"), i64(30720)).set(TD_COL("one"), u64(1))
      .set(TD_COL("flag"), true).set(TD_COL("x"), fixed(1.5)).set(TD_COL("y"), sig(2.0 / 3.0, 4))
      .set(TD_COL("z"), fixed(0.0 / 0.0)).stats(s, sig, 3);
  BOOST_TEST(r.line() == "edm,3,30720,1,1,1.500000,0.6667,nan,3,1,0.5,2,0.25,4");
  results::RowOf<test_ab> partial;
  partial.set(TD_COL("a"), 1);
  BOOST_CHECK_THROW(partial.line(), std::logic_error);                     // b unset
  BOOST_CHECK_THROW(partial.set("c", 2), std::invalid_argument);           // no such column
  BOOST_CHECK_THROW(partial.set(TD_COL("a"), 2), std::invalid_argument);   // a set twice
}

BOOST_AUTO_TEST_CASE(table_flushes_rows) {
  const std::string path = "test_bench_table.csv";
  {
    results::CsvFile t(path, "{\"program\":\"t\"}", test_ab);
    t.row(results::RowOf<test_ab>().set(TD_COL("a"), 1).set(TD_COL("b"), "x"));
    std::ifstream f(path);  // read while the table is still open: the row is there
    std::string l1, l2, l3;
    std::getline(f, l1);
    std::getline(f, l2);
    std::getline(f, l3);
    BOOST_TEST(l1 == "# {\"program\":\"t\"}");
    BOOST_TEST(l2 == "a,b");
    BOOST_TEST(l3 == "1,x");
  }
  std::remove(path.c_str());
}

BOOST_AUTO_TEST_CASE(summary_quartiles) {
  const Stats s = summarize({5, 1, 4, 2, 3});
  BOOST_TEST(s.reps == 5);
  BOOST_TEST(s.median_ms == 3);
  BOOST_TEST(s.p25_ms == 2);
  BOOST_TEST(s.p75_ms == 4);
  BOOST_TEST(s.min_ms == 1);
  BOOST_TEST(s.max_ms == 5);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(host_threads)

BOOST_DATA_TEST_CASE(parallel_for_covers_once, bdata::make({0, 1, 7, 1000}) * bdata::make({1u, 3u, 0u}), count, workers) {
  std::vector<std::atomic<int>> hit(static_cast<size_t>(count));
  parallel_for(u64(count), [&](unsigned, u64 b, u64 e) { for (u64 i = b; i < e; ++i) ++hit[i]; }, workers);
  for (auto& h : hit) BOOST_TEST(h.load() == 1);
}

BOOST_DATA_TEST_CASE(parallel_chunks_covers_once, bdata::make({0, 1, 7, 1000}) * bdata::make({1u, 4u}), count, workers) {
  std::vector<std::atomic<int>> hit(static_cast<size_t>(count));
  std::atomic<bool> bad_worker{false};  // Boost.Test assertions are not thread-safe
  parallel_chunks(u64(count), 16, [&](unsigned w, u64 b, u64 e) {
    if (w >= workers) bad_worker = true;
    for (u64 i = b; i < e; ++i) ++hit[i];
  }, workers);
  BOOST_TEST(!bad_worker.load());
  for (auto& h : hit) BOOST_TEST(h.load() == 1);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(gpu_code)

BOOST_AUTO_TEST_CASE(arch_lists_and_capabilities) {
  BOOST_TEST((parse_arch_list("75,80,90") == std::vector<int>{75, 80, 90}));
  BOOST_TEST((parse_arch_list("120") == std::vector<int>{120}));
  BOOST_TEST(parse_arch_list("").empty());
  BOOST_TEST((parse_arch_list("90,x,,100") == std::vector<int>{90, 100}));
  BOOST_TEST(parse_capability("sm_52") == 52);
  BOOST_TEST(parse_capability("compute_120") == 120);
  BOOST_TEST(parse_capability("8.6") == 86);
  BOOST_TEST(parse_capability("12.1") == 121);
  BOOST_TEST(parse_capability("90") == 90);
  for (const char* bad : {"", "sm_", "sm_9x", "8.", "8.10", "x.5", "5", "1234"}) BOOST_TEST(parse_capability(bad) == 0);
}

// SASS sm_XY runs on X.Z for Z >= Y only.
BOOST_AUTO_TEST_CASE(sass_same_major_newer_minor) {
  const GpuCode c{{80}, 0};
  BOOST_TEST((code_path(c, 80) == CodePath::sass));
  BOOST_TEST((code_path(c, 86) == CodePath::sass));  // A100 code on an RTX 3090
  BOOST_TEST((code_path(c, 89) == CodePath::sass));  // ... and on an L40S
  const GpuCode c86{{86}, 0};
  BOOST_TEST((code_path(c86, 80) == CodePath::none));  // older minor: refused
  BOOST_TEST((code_path(c, 90) == CodePath::none));    // other major: refused
  BOOST_TEST((code_path(c, 75) == CodePath::none));
  const GpuCode c120{{120}, 0};
  BOOST_TEST((code_path(c120, 121) == CodePath::sass));
  BOOST_TEST((code_path(c120, 100) == CodePath::none));
}

// PTX compute_XY is JIT-compiled for any device >= X.Y, across majors; never for an older one.
BOOST_AUTO_TEST_CASE(ptx_forward_only) {
  const GpuCode c{{90}, 90};
  BOOST_TEST((code_path(c, 90) == CodePath::sass));
  BOOST_TEST((code_path(c, 100) == CodePath::ptx_jit));
  BOOST_TEST((code_path(c, 120) == CodePath::ptx_jit));
  BOOST_TEST((code_path(c, 89) == CodePath::none));  // PTX newer than the device
  BOOST_TEST((code_path(c, 80) == CodePath::none));
  const GpuCode ptx_only{{}, 80};
  BOOST_TEST((code_path(ptx_only, 80) == CodePath::ptx_jit));
  BOOST_TEST((code_path(ptx_only, 75) == CodePath::none));
}

BOOST_AUTO_TEST_CASE(several_sass_entries) {
  const GpuCode fat{{75, 80, 86, 89, 90, 100, 110, 120}, 120};
  for (int cap : {75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121}) BOOST_TEST((code_path(fat, cap) == CodePath::sass));
  BOOST_TEST((code_path(fat, 130) == CodePath::ptx_jit));  // a GPU newer than the toolkit
  for (int cap : {35, 52, 61, 70, 72}) BOOST_TEST((code_path(fat, cap) == CodePath::none));
  const GpuCode two{{80, 90}, 90};
  BOOST_TEST((code_path(two, 86) == CodePath::sass));
  BOOST_TEST((code_path(two, 75) == CodePath::none));
}

BOOST_AUTO_TEST_CASE(refusal_line) {
  const GpuCode c{{90}, 90};
  BOOST_TEST(arch_refusal("bench_sdh", c, 90, "NVIDIA H100", 13000).empty());
  BOOST_TEST(arch_refusal("bench_sdh", c, 100, "NVIDIA B200", 13000).empty());  // through the PTX
  BOOST_TEST(arch_refusal("bench_sdh", c, 80, "NVIDIA A100-SXM4-80GB", 13000) ==
             "bench_sdh: this binary has GPU code for sm_90 (PTX compute_90) but the GPU found is sm_80 "
             "(NVIDIA A100-SXM4-80GB): rebuild for it with: make build MESONFLAGS=-Dgpu_arch=sm_80");
  const GpuCode two{{90, 80}, 90};
  BOOST_TEST(arch_refusal("p", two, 75, "Tesla T4") ==
             "p: this binary has GPU code for sm_80 and sm_90 (PTX compute_90) but the GPU found is sm_75 (Tesla T4): "
             "rebuild for it with: make build MESONFLAGS=-Dgpu_arch=sm_75");
  // A GPU the toolkit that built the binary cannot target: the line says so.
  const std::string kepler = arch_refusal("p", GpuCode{{75, 80, 90}, 90}, 35, "Tesla K40m", 13000);
  BOOST_TEST(kepler ==
             "p: this binary has GPU code for sm_75, sm_80 and sm_90 (PTX compute_90) but the GPU found is sm_35 "
             "(Tesla K40m): rebuild for it with: make build MESONFLAGS=-Dgpu_arch=sm_35 and an older CUDA (CUDA 13.0, "
             "which built this binary, targets sm_75 and newer; README: Supported GPUs and CUDA versions)");
  BOOST_TEST(kepler.find('\n') == std::string::npos);
  BOOST_TEST(oldest_target(12080) == 50);
  BOOST_TEST(oldest_target(11080) == 35);
  BOOST_TEST(oldest_target(10020) == 30);
  BOOST_TEST(cuda_name(12080) == "CUDA 12.8");
  BOOST_TEST(load_refusal("p", c, 90, "NVIDIA H100", "the provided PTX was compiled with an unsupported toolchain.") ==
             "p: the GPU found, sm_90 (NVIDIA H100), cannot load this binary's GPU code for sm_90 (PTX compute_90) "
             "(the provided PTX was compiled with an unsupported toolchain.): update the driver or rebuild for it "
             "with: make build MESONFLAGS=-Dgpu_arch=sm_90");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(prediction_and_refusal)

BOOST_AUTO_TEST_CASE(human_times) {
  BOOST_TEST(human_time(42) == "42 s");
  BOOST_TEST(human_time(210) == "3.5 min");
  BOOST_TEST(human_time(2.5 * 3600) == "2.5 h");
  BOOST_TEST(human_time(16 * 86400) == "16 days");
}

BOOST_AUTO_TEST_CASE(forecast_parts_and_refusal_line) {
  Forecast f;
  f.add("GPU timing", 600);
  f.add("CPU reference", 5 * 3600);
  f.add("GPU timing", 600);
  f.add("nothing", 0);  // no part
  BOOST_TEST(f.parts.size() == 2u);
  BOOST_TEST(f.total() == 5 * 3600 + 1200);
  BOOST_TEST(f.describe() == "CPU reference 5 h, GPU timing 20 min");
  BOOST_TEST(refusal("prog", f, 400).empty());
  BOOST_TEST(refusal("prog", f, 60) ==
             "prog: refused: predicted 5.33 h (CPU reference 5 h, GPU timing 20 min) is more than --max-minutes 60; "
             "pass --max-minutes 353 to run it");
}

BOOST_AUTO_TEST_CASE(sweep_under_the_budget_policy) {
  RunOptions r = RunOptions::with(20, 2, 5, 0);
  BOOST_TEST(sweep_seconds({1.0, 2.0}, r) == 3.0 * 22);  // no budget: warm-up + every rep
  r.budget_s = 10;                                        // the budget cuts reps ...
  BOOST_TEST(sweep_seconds({1.0, 2.0}, r) == 3.0 * 2 + 15.0);  // ... but never below min_reps (5 x 3 s)
  r.budget_s = 30;
  BOOST_TEST(sweep_seconds({1.0, 2.0}, r) == 3.0 * 2 + 30.0);
}

BOOST_AUTO_TEST_SUITE_END()
