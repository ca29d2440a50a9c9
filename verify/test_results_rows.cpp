// test_results_rows — the one CSV writer's rows by column name (src/support/results/row.hpp RowOf):
// a column the layout does not declare throws when set, one left unset when the row is written (and
// nothing of the row reaches the file), a row of another layout is refused, the cells are the typed
// row's, and every layout's column names are distinct.
#define BOOST_TEST_MODULE results_rows
#include <boost/test/unit_test.hpp>

#include <results/csv_file.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using results::RowOf;
namespace layout = results::layout;

namespace {
// Whether RowOf<L>::set takes a T (a double does not: its format must be said).
template <class R, class T, class = void>
struct settable : std::false_type {};
template <class R, class T>
struct settable<R, T, std::void_t<decltype(std::declval<R&>().set("N", std::declval<T>()))>> : std::true_type {};
static_assert(!settable<RowOf<layout::wasted3d>, double>::value, "a double cell needs its format");
static_assert(settable<RowOf<layout::wasted3d>, results::Num>::value, "a formatted double is a cell");

// A complete wasted3d row.
RowOf<layout::wasted3d> full_row() {
  RowOf<layout::wasted3d> r;
  r.set("N", 16LL).set("rho", 4).set("n", 4LL).set("map", "tet").set("launched_blocks", 20ULL);
  r.set("useful_blocks", 20ULL).set("wasted_blocks", 0ULL).set("launched_threads", 1280ULL);
  r.set("useful_threads", 816ULL).set("wasted_threads", 464ULL).set("wasted_threads_over_n2rho3", results::sig(0.453125));
  r.set("wasted_threads_over_N3", results::sci(0.11328125, 3)).set("blocked_padding", 0ULL);
  r.set("padding_over_n2rho3", results::fixed(0.0, 2));
  return r;
}
std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
std::string scratch(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string("tdmaps_test_results_rows_") + name)).string();
}
}  // namespace

BOOST_AUTO_TEST_CASE(cells_in_the_layouts_order) {
  BOOST_CHECK_EQUAL(full_row().line(), "16,4,4,tet,20,20,0,1280,816,464,0.453125,1.133e-01,0,0.00");
  // set in any order, the line is in the layout's order
  RowOf<layout::printed_forms> r;
  r.set("outcome", results::quoted("a, b")).set("formula", "f").set("paper", "000").set("equation", "(9)");
  r.set("arithmetic", "float").set("searched", "2^32").set("first_wrong_lambda", "none").set("first_wrong_N", "-");
  BOOST_CHECK_EQUAL(r.line(), "f,000,(9),float,2^32,none,-,\"a, b\"");
}

BOOST_AUTO_TEST_CASE(a_misspelt_column_throws) {
  RowOf<layout::wasted3d> r;
  BOOST_CHECK_THROW(r.set("median_ms", 1), std::invalid_argument);  // not a wasted3d column
  BOOST_CHECK_THROW(r.set("wasted_thread", 1), std::invalid_argument);
  try {
    r.set("Rho", 4);
    BOOST_ERROR("no throw");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    BOOST_CHECK(what.find("wasted3d.csv") != std::string::npos);
    BOOST_CHECK(what.find("\"Rho\"") != std::string::npos);
  }
  r.set("rho", 4);
  BOOST_CHECK_THROW(r.set("rho", 8), std::invalid_argument);  // set twice
}

BOOST_AUTO_TEST_CASE(a_missing_column_is_reported_at_write_time) {
  RowOf<layout::wasted3d> r;
  r.set("N", 16LL).set("rho", 4).set("map", "tet");
  try {
    (void)r.line();
    BOOST_ERROR("no throw");
  } catch (const std::logic_error& e) {
    const std::string what = e.what();
    BOOST_CHECK(what.find("wasted3d.csv") != std::string::npos);
    BOOST_CHECK(what.find("launched_blocks") != std::string::npos);
    BOOST_CHECK(what.find("padding_over_n2rho3") != std::string::npos);
    BOOST_CHECK(what.find(" rho") == std::string::npos);  // set: not listed
  }
  const std::string path = scratch("missing.csv");
  {
    results::CsvFile f(path, "", layout::wasted3d);
    BOOST_CHECK_THROW(f.row(r), std::logic_error);
    f.row(full_row());
  }
  BOOST_CHECK_EQUAL(slurp(path), layout::wasted3d.header() + full_row().line() + "\n");  // nothing of the bad row
  std::filesystem::remove(path);
}

BOOST_AUTO_TEST_CASE(a_row_of_another_layout_is_refused) {
  const std::string path = scratch("other.csv");
  {
    results::CsvFile f(path, "", layout::printed_forms);
    BOOST_CHECK_THROW(f.row(full_row()), std::logic_error);
  }
  BOOST_CHECK_EQUAL(slurp(path), layout::printed_forms.header());
  // a layout sharing another's columns (sqrt.csv is dummy.csv's) writes under it
  RowOf<layout::sqrt_> q;
  for (const std::string& c : layout::dummy.names()) q.set(c, 1);
  {
    results::CsvFile f(path, "", layout::dummy);
    BOOST_CHECK_NO_THROW(f.row(q));
  }
  std::filesystem::remove(path);
}

// A column is found by its name: every layout's names are distinct and none is empty.
BOOST_AUTO_TEST_CASE(every_layouts_columns_are_distinct_names) {
  for (const results::Layout* l : results::all_layouts()) {
    const std::vector<std::string> names = l->names();
    for (std::size_t i = 0; i < names.size(); ++i) {
      BOOST_TEST_CONTEXT(l->file << " column " << i) {
        BOOST_CHECK(!names[i].empty());
        for (std::size_t j = 0; j < i; ++j) BOOST_CHECK(names[i] != names[j]);
      }
    }
  }
}

// By a TD_COL name (checked at compile time: a name the layout lacks is a static_assert) and the 6 timing
// columns by name (RowOf::stats), the text of the same cells set by run-time names.
BOOST_AUTO_TEST_CASE(compile_time_names_and_stats) {
  struct S {
    int reps = 9;
    double median_ms = 1.25, p25_ms = 1.125, p75_ms = 1.5, min_ms = 1.0, max_ms = 2.0;
  } s;
  RowOf<layout::sdh> a, b;
  a.set(TD_COL("impl"), "gpu").set(TD_COL("N"), 1000LL).set(TD_COL("bucket_width"), results::sig(500.0));
  a.set(TD_COL("buckets"), 80u).set(TD_COL("threads_per_block"), "256").stats(s, results::fixed, 4);
  a.set(TD_COL("with_transfers_ms"), "").set(TD_COL("pairs_per_s"), "").set(TD_COL("speedup_vs_cpu_mt"), "");
  b.set("impl", "gpu").set("N", 1000LL).set("bucket_width", results::sig(500.0)).set("buckets", 80u);
  b.set("threads_per_block", "256").set("reps", 9).set("median_ms", results::fixed(1.25, 4));
  b.set("p25_ms", results::fixed(1.125, 4)).set("p75_ms", results::fixed(1.5, 4)).set("min_ms", results::fixed(1.0, 4));
  b.set("max_ms", results::fixed(2.0, 4)).set("with_transfers_ms", "").set("pairs_per_s", "").set("speedup_vs_cpu_mt", "");
  BOOST_CHECK_EQUAL(a.line(), b.line());
  BOOST_CHECK_EQUAL(a.line(), "gpu,1000,500,80,256,9,1.2500,1.1250,1.5000,1.0000,2.0000,,,");
  BOOST_CHECK_THROW(a.set(TD_COL("N"), 1), std::invalid_argument);  // set twice
  static_assert(RowOf<layout::sdh>::index_of(TD_COL("speedup_vs_cpu_mt")) == 13, "");
  static_assert(results::column_index(layout::sdh.columns, "median") == results::no_column, "");
}
