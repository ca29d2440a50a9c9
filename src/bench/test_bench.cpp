// src/bench/test_bench.cpp — the host parts of the experiment harness (no GPU):
// the list grammar and its errors, the budget policy, typed CSV rows, parallel_for.
#define BOOST_TEST_MODULE bench_harness
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "args.hpp"
#include "budget.hpp"
#include "parallel.hpp"
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

BOOST_AUTO_TEST_CASE(typed_cells_and_formats) {
  Row r;
  r << "edm" << 3 << i64(30720) << u64(1) << true << fixed(1.5) << sig(2.0 / 3.0, 4) << fixed(0.0 / 0.0);
  BOOST_TEST(r.line() == "edm,3,30720,1,1,1.500000,0.6667,nan");
  BOOST_TEST(r.size() == 8u);
  Stats s;
  s.reps = 3; s.median_ms = 1; s.p25_ms = 0.5; s.p75_ms = 2; s.min_ms = 0.25; s.max_ms = 4;
  Row q;
  q.stats(s, sig, 3);
  BOOST_TEST(q.line() == "3,1,0.5,2,0.25,4");
}

BOOST_AUTO_TEST_CASE(table_flushes_rows) {
  const std::string path = "test_bench_table.csv";
  {
    Table t(path, "{\"program\":\"t\"}", "a,b");
    t.row(Row() << 1 << "x");
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
