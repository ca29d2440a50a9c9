// tdmap — command-line access to the map library.
//   tdmap list  [--rho R]               the maps, the largest N plan() accepts, the limit
//   tdmap types                         name, dimension, C++ type of every map (SASS tools)
//   tdmap info  MAP -N N [--rho R]      grid, launched / useful / wasted blocks and threads
//                                       (closed forms: instant at any N)
//   tdmap dump  MAP -N N [--rho R] [--threads]
//                                       CSV of block (or thread) index -> domain coordinate
//   tdmap range MAP [--rho R]           the sizes plan() accepts and why it stops
// Every input is checked before any output: bad input is one line on stderr naming the
// limit, exit code 2. Exit codes: 0 done, 2 bad input or a size no map configuration serves.
#include "facts.hpp"

#include <boost/program_options.hpp>
#include <cstdlib>
#include <limits>
#include <cxxabi.h>
#include <typeinfo>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#ifndef TDMAPS_VERSION
#define TDMAPS_VERSION "unknown"
#endif

namespace po = boost::program_options;
using namespace tdmaps;

namespace {

[[noreturn]] void fail(const std::string& msg) {
  std::fprintf(stderr, "tdmap: %s\n", msg.c_str());
  std::exit(2);
}

// The facts info and range print: facts.hpp (the Python package returns the same values).
using namespace tdmaps::facts;

void print_counts(const Counts& c) {
  const auto pct = [](u64 a, u64 b) { return b ? 100.0 * double(a) / double(b) : 0.0; };
  std::printf("launched_blocks  %llu\nuseful_blocks    %llu\nwasted_blocks    %llu (%.2f%%)\n",
              (unsigned long long)c.launched_blocks, (unsigned long long)c.useful_blocks,
              (unsigned long long)c.wasted_blocks(), pct(c.wasted_blocks(), c.launched_blocks));
  std::printf("launched_threads %llu\nuseful_threads   %llu\nwasted_threads   %llu (%.2f%%)\n",
              (unsigned long long)c.launched_threads, (unsigned long long)c.useful_threads,
              (unsigned long long)c.wasted_threads(), pct(c.wasted_threads(), c.launched_threads));
}

// dump writes at most this many rows; a larger dump is refused before the header.
const u64 dump_limit = 1'000'000;
void check_dump_size(u64 rows, const char* what) {
  if (rows > dump_limit)
    fail("dump: " + grouped(rows) + " " + what + " rows, more than the " + grouped(dump_limit) +
         " rows dump writes; choose a smaller N");
}

// --count-by walk visits at most this many blocks (thread maps: threads): well under a second.
const u64 walk_limit = 10'000'000;
// walk: count by visiting every launched block (counts2/counts3), to check the closed forms.
template <class M>
void run2(const std::string& cmd, i64 N, int rho, bool threads, bool walk) {
  const typename M::Params p = M::plan(N, rho);
  if (cmd == "info") {
    // the walk asks every block (a thread map: up to every thread of a block) of the grid
    const Info f = info2<M>(N, rho);
    const Counts& cc = f.counts;
    if (walk && (M::blockwise ? cc.launched_blocks : cc.launched_threads) > walk_limit)
      fail(std::string("info --count-by walk: more than ") + grouped(walk_limit) + (M::blockwise ? " blocks" : " threads") +
           " to visit; choose a smaller N (the closed forms answer at any N)");
    const Counts c = walk ? counts2<M>(p) : cc;
    std::printf("map              %s (2D, %s-wise)\nN                %lld\nrho              %d\nn                %lld\npasses           %d\n",
                f.map.c_str(), f.kind.c_str(), (long long)N, rho, (long long)f.n, f.passes);
    for (int pass = 0; pass < f.passes; ++pass) {
      const Dim3 g = f.grids[size_t(pass)], b = f.blocks[size_t(pass)];
      std::printf("grid[%d]          %u x %u blocks of %u x %u threads\n", pass, g.x, g.y, b.x, b.y);
    }
    print_counts(c);
    std::printf("accepts          %s\n", f.accepts.c_str());
    std::printf("exact            %s\n", f.exact.c_str());
    return;
  }
  // dump: every check before the header
  if (!threads) {
    if constexpr (!M::blockwise) fail(std::string("dump: ") + M::name + " maps threads, not blocks; add --threads");
    check_dump_size(counts2_closed<M>(p).launched_blocks, "block");
  } else {
    check_dump_size(tri(u64(N)), "thread");
  }
  std::printf(threads ? "pass,bx,by,tx,ty,i,j\n" : "pass,bx,by,i,j\n");
  const Dim3 b = M::block(p);
  for (int pass = 0; pass < p.passes; ++pass) {
    const Dim3 g = M::grid(p, pass);
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        if (!threads) {
          if constexpr (M::blockwise) {
            const Cell2 c = M::block_cell(p, pass, bx, by);
            if (c.inside) std::printf("%d,%u,%u,%lld,%lld\n", pass, bx, by, (long long)c.i, (long long)c.j);
          }
          continue;
        }
        for (u32 ty = 0; ty < b.y; ++ty)
          for (u32 tx = 0; tx < b.x; ++tx) {
            const Cell2 c = M::cell(p, pass, bx, by, tx, ty);
            if (c.inside) std::printf("%d,%u,%u,%u,%u,%lld,%lld\n", pass, bx, by, tx, ty, (long long)c.i, (long long)c.j);
          }
      }
  }
}

template <class M>
void run3(const std::string& cmd, i64 N, int rho, bool threads, bool walk) {
  const Plan3 p = M::plan(N, rho);
  const Dim3 g = M::grid(p), b = M::block(p);
  if (cmd == "info") {
    const Info f = info3<M>(N, rho);
    if (walk && f.counts.launched_blocks > walk_limit)
      fail("info --count-by walk: more than " + grouped(walk_limit) +
           " blocks to visit; choose a smaller N (the closed forms answer at any N)");
    const Counts c = walk ? counts3<M>(p) : f.counts;
    std::printf("map              %s (3D, block-wise)\nN                %lld\nrho              %d\nn                %lld\n",
                f.map.c_str(), (long long)N, rho, (long long)f.n);
    std::printf("grid             %u x %u x %u blocks of %u x %u x %u threads\n", g.x, g.y, g.z, b.x, b.y, b.z);
    print_counts(c);
    std::printf("accepts          %s\n", f.accepts.c_str());
    std::printf("exact            %s\n", f.exact.c_str());
    if (!f.device.empty()) std::printf("device           %s\n", f.device.c_str());
    return;
  }
  check_dump_size(threads ? tet(u64(N)) : counts3_closed<M>(p).launched_blocks, threads ? "thread" : "block");
  std::printf(threads ? "bx,by,bz,tx,ty,tz,x,y,z\n" : "bx,by,bz,x,y,z\n");
  for (u32 bz = 0; bz < g.z; ++bz)
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        if (!threads) {
          const Cell3 c = M::block_cell(p, bx, by, bz);
          if (c.inside) std::printf("%u,%u,%u,%lld,%lld,%lld\n", bx, by, bz, (long long)c.x, (long long)c.y, (long long)c.z);
          continue;
        }
        for (u32 tz = 0; tz < b.z; ++tz)
          for (u32 ty = 0; ty < b.y; ++ty)
            for (u32 tx = 0; tx < b.x; ++tx) {
              const Cell3 c = M::cell(p, bx, by, bz, tx, ty, tz);
              if (c.inside)
                std::printf("%u,%u,%u,%u,%u,%u,%lld,%lld,%lld\n", bx, by, bz, tx, ty, tz, (long long)c.x,
                            (long long)c.y, (long long)c.z);
            }
      }
}

template <class M, bool is3d>
void print_range(int rho) {
  const Range r = range_of<M, is3d>(rho);
  std::printf("%s: %s\n", r.map.c_str(), r.accepts.c_str());
  if (!r.past.empty()) std::printf("  past that: %s\n", r.past.c_str());
  if (!r.between.empty()) std::printf("  between:   %s\n", r.between.c_str());
  std::printf("  exact:     %s\n", r.exact.c_str());
  if (!r.device.empty()) std::printf("  device:    %s\n", r.device.c_str());
}

// The table of `list`: columns sized to their widest cell.
void list(int rho2, int rho3, bool rho_given) {
  std::vector<std::vector<std::string>> rows{{"map", "dim", "maps", "plan() accepts", "exact"}};
  const std::string e3 = block_side_error(rho3, true);
  for_each_map(maps2d{}, [&](auto m) {
    using M = decltype(m);
    rows.push_back({M::name, "2D", kind_of<M>(), accepted_sizes<M>(rho2), exactness2<M>()});
  });
  for_each_map(maps3d{}, [&](auto m) {
    using M = decltype(m);
    const std::string w = device_warning<M>();
    rows.push_back({M::name, "3D", "block", e3.empty() ? accepted_sizes<M>(rho3) : "none: " + e3,
                    exactness3<M>() + (w.empty() ? "" : "; " + w)});
  });
  std::vector<size_t> wd(rows[0].size(), 0);
  for (const auto& r : rows)
    for (size_t k = 0; k < r.size(); ++k) wd[k] = std::max(wd[k], r[k].size());
  for (const auto& r : rows) {
    std::string line;
    for (size_t k = 0; k < r.size(); ++k)
      line += k + 1 < r.size() ? r[k] + std::string(wd[k] - r[k].size() + 2, ' ') : r[k];
    std::printf("%s\n", line.c_str());
  }
  if (!rho_given) std::printf("(2D maps at rho=16, 3D maps at rho=8; --rho R shows both at R)\n");
}

// One line per registry map: its name, dimension and C++ type as the compiler's
// demangler spells it (what c++filt shows in a kernel's name), for the SASS tools
// (experiments/maps2d/check_sass.sh, sass_cost.sh), which take their map tables from here.
template <class M>
std::string type_name() {
  int status = 0;
  char* d = abi::__cxa_demangle(typeid(M).name(), nullptr, nullptr, &status);
  std::string s = status == 0 && d ? d : typeid(M).name();
  std::free(d);
  return s;
}
void types() {
  for_each_map(maps2d{}, [&](auto m) { std::printf("%s 2 %s\n", decltype(m)::name, type_name<decltype(m)>().c_str()); });
  for_each_map(maps3d{}, [&](auto m) { std::printf("%s 3 %s\n", decltype(m)::name, type_name<decltype(m)>().c_str()); });
}

const char* usage =
    "usage: tdmap list  [--rho R]          the maps, the sizes plan() accepts, their exactness\n"
    "       tdmap types                    name, dimension, C++ type of every map (for the SASS tools)\n"
    "       tdmap info  MAP -N N [--rho R] grid, launched / useful / wasted blocks and threads\n"
    "       tdmap dump  MAP -N N [--rho R] [--threads]\n"
    "                                      CSV: block (or thread) index -> domain cell, at most 1,000,000 rows\n"
    "       tdmap range MAP [--rho R]      the sizes plan() accepts at R and the refusal past them\n"
    "       tdmap --version | --help\n"
    "Block side: 1 <= rho, rho*rho <= 1024 in 2D (rho <= 32), rho^3 <= 1024 in 3D (rho <= 10).\n"
    "Exit codes: 0 done; 2 bad input (one line on stderr naming the limit; a refused size also\n"
    "names a map or block side that serves it).\n";

}  // namespace

int main(int argc, char** argv) {
  std::string cmd, map, count_by = "closed";
  std::vector<std::string> extra;
  i64 N = 0;
  int rho = 0;
  bool threads = false;
  po::options_description opts("options");
  opts.add_options()("help,h", "show this help")("version", "print the version")(
      "N,N", po::value<i64>(&N), "problem size, the domain side (info, dump; no default)")(
      "rho", po::value<int>(&rho), "threads per block side (default 16 in 2D, 8 in 3D)")(
      "threads", po::bool_switch(&threads), "dump: one row per thread instead of per block (default: per block)")(
      "count-by", po::value<std::string>(&count_by)->default_value(count_by),
      "info: closed (closed forms, any N) or walk (visit every launched block; the check of the closed forms)");
  po::options_description hidden;
  hidden.add_options()("cmd", po::value<std::string>(&cmd))("map", po::value<std::string>(&map))(
      "extra", po::value<std::vector<std::string>>(&extra));
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("cmd", 1).add("map", 1).add("extra", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::invalid_option_value& e) {  // a value that does not parse: name the option's range
    const std::string o = e.get_option_name();
    fail(std::string("bad arguments: ") + e.what() +
         (o == "--N" ? "; N must be an integer in 1 .. " + std::to_string(std::numeric_limits<i64>::max())
          : o == "--rho" ? "; rho must be an integer (1..32 in 2D, 1..10 in 3D)" : std::string()) + " (see tdmap --help)");
  } catch (const std::exception& e) {
    fail(std::string("bad arguments: ") + e.what() + " (see tdmap --help)");
  }
  if (vm.count("help")) {
    std::cout << usage << opts;
    return 0;
  }
  if (vm.count("version")) {
    std::printf("tdmap (tdmaps) %s\n", TDMAPS_VERSION);
    return 0;
  }
  if (cmd.empty()) fail("name a command: list, types, info, dump, range (see tdmap --help)");
  const bool given_N = vm.count("N"), given_rho = vm.count("rho"), given_count = !vm["count-by"].defaulted();
  const auto refuse_option = [&](bool given, const char* opt) {
    if (given) fail(cmd + " takes no " + opt + " (see tdmap --help)");
  };
  const auto refuse_extra = [&](size_t positionals) {
    const std::vector<std::string> pos_args = [&] {
      std::vector<std::string> v;
      if (!map.empty()) v.push_back(map);
      v.insert(v.end(), extra.begin(), extra.end());
      return v;
    }();
    if (pos_args.size() > positionals) fail(cmd + ": unexpected argument '" + pos_args[positionals] + "' (see tdmap --help)");
  };
  if (cmd != "list" && cmd != "types" && cmd != "info" && cmd != "dump" && cmd != "range")
    fail("unknown command '" + cmd + "' (list, types, info, dump, range)");
  if (count_by != "closed" && count_by != "walk") fail("--count-by must be closed or walk (got '" + count_by + "')");
  if (cmd != "info") refuse_option(given_count, "--count-by");
  if (cmd != "dump") refuse_option(threads, "--threads");
  if (cmd == "list" || cmd == "types" || cmd == "range") refuse_option(given_N, "-N");
  if (cmd == "types") refuse_option(given_rho, "--rho");
  if (cmd == "list" || cmd == "types") {
    refuse_extra(0);
    if (cmd == "types") {
      types();
      return 0;
    }
    if (given_rho) {
      const std::string e = block_side_error(rho, false);  // 2D's limit; 3D rows say theirs
      if (!e.empty()) fail(e);
    }
    list(given_rho ? rho : 16, given_rho ? rho : 8, given_rho);
    return 0;
  }
  if (map.empty()) fail(cmd + ": name a map (see 'tdmap list')");
  refuse_extra(1);
  bool is2d = false, is3d = false;
  with_map(maps2d{}, map.c_str(), [&](auto) { is2d = true; });
  with_map(maps3d{}, map.c_str(), [&](auto) { is3d = true; });
  if (!is2d && !is3d) fail("unknown map '" + map + "' (see 'tdmap list')");
  if (!given_rho) rho = is3d ? 8 : 16;
  if (const std::string e = block_side_error(rho, is3d); !e.empty()) fail(e);
  if (cmd == "range") {
    if (is2d) with_map(maps2d{}, map.c_str(), [&](auto m) { print_range<decltype(m), false>(rho); });
    else with_map(maps3d{}, map.c_str(), [&](auto m) { print_range<decltype(m), true>(rho); });
    return 0;
  }
  if (!given_N) fail(cmd + ": -N is required");
  const bool walk = count_by == "walk";
  try {
    if (is2d) with_map(maps2d{}, map.c_str(), [&](auto m) { run2<decltype(m)>(cmd, N, rho, threads, walk); });
    else with_map(maps3d{}, map.c_str(), [&](auto m) { run3<decltype(m)>(cmd, N, rho, threads, walk); });
  } catch (const unsupported& e) {
    // The refusal names the limit; the hint names a map (or a block side) that serves N.
    if (N < 1) fail(e.what());
    fail(std::string(e.what()) + "; " +
         (is3d ? serving_hint(maps3d{}, map, N, rho, true) : serving_hint(maps2d{}, map, N, rho, false)));
  }
  return 0;
}
