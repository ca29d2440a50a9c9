// tdmap — command-line access to the map library.
//   tdmap list                          the maps and their exact ranges
//   tdmap info  MAP -N N [--rho R]      grid, launched / useful / wasted blocks and threads
//   tdmap dump  MAP -N N [--rho R] [--threads]
//                                       CSV of block (or thread) index -> domain coordinate
//   tdmap range MAP [--rho R]           exact range of MAP (block index and largest N)
// Bad input: one line on stderr naming the limit, exit code 2.
#include <tdmaps/counts.hpp>
#include <tdmaps/suggest.hpp>

#include <boost/program_options.hpp>
#include <cstdlib>
#include <cxxabi.h>
#include <typeinfo>

#include <cstdio>
#include <iostream>
#include <string>

namespace po = boost::program_options;
using namespace tdmaps;

namespace {

[[noreturn]] void fail(const std::string& msg) {
  std::fprintf(stderr, "tdmap: %s\n", msg.c_str());
  std::exit(2);
}

template <class M> const char* kind_of() { return M::blockwise ? "block" : "thread"; }

// Exact range of a 2D map at block size rho, as text.
template <class M>
std::string range2(int rho) {
  if constexpr (is_ltm<M>::value) {
    const u64 b = M::exact_blocks;
    if (b >= limits::no_limit) return "every N (exact integer map)";
    u64 n = tri_root(b);
    if (tri(n) > b) --n;
    return "block index < " + std::to_string(b) + "  =>  N <= " + std::to_string(n * u64(rho)) +
           " at rho=" + std::to_string(rho) + (M::sqrt_policy::host_exact_repro ? "" : "  [device rounding; GPU-measured]");
  } else if constexpr (is_utm<M>::value) {
    return "N <= " + std::to_string(M::max_N) + " (any rho)";
  } else {
    return "every N (integer map)";
  }
}
}  // namespace

namespace {
template <class M>
std::string range3(int rho) {
  if constexpr (std::is_same_v<M, BB3>) {
    return "every N (integer map)";
  } else {
    const u64 b = M::exact_blocks;
    if (b >= (1ull << 60)) return "every N (exact integer map)";
    u64 n = tet_root(b);
    if (tet(n) > b) --n;
    return "block index < " + std::to_string(b) + "  =>  N <= " + std::to_string(n * u64(rho)) + " at rho=" +
           std::to_string(rho) +
           (std::is_same_v<M, TET_F> ? "  [device rounding; GPU-measured]" : "  [proven by the oracle]");
  }
}

void print_counts(const Counts& c) {
  const auto pct = [](u64 a, u64 b) { return b ? 100.0 * double(a) / double(b) : 0.0; };
  std::printf("launched_blocks  %llu\nuseful_blocks    %llu\nwasted_blocks    %llu (%.2f%%)\n",
              (unsigned long long)c.launched_blocks, (unsigned long long)c.useful_blocks,
              (unsigned long long)c.wasted_blocks(), pct(c.wasted_blocks(), c.launched_blocks));
  std::printf("launched_threads %llu\nuseful_threads   %llu\nwasted_threads   %llu (%.2f%%)\n",
              (unsigned long long)c.launched_threads, (unsigned long long)c.useful_threads,
              (unsigned long long)c.wasted_threads(), pct(c.wasted_threads(), c.launched_threads));
}

const u64 dump_limit = 50'000'000;  // rows

template <class M>
void run2(const std::string& cmd, i64 N, int rho, bool threads) {
  const Plan2 p = M::plan(N, rho);
  if (cmd == "info") {
    std::printf("map              %s (2D, %s-wise)\nN                %lld\nrho              %d\nn                %lld\npasses           %d\n",
                M::name, kind_of<M>(), (long long)N, rho, (long long)p.n, p.passes);
    for (int pass = 0; pass < p.passes; ++pass) {
      const Dim3 g = M::grid(p, pass), b = M::block(p);
      std::printf("grid[%d]          %u x %u blocks of %u x %u threads\n", pass, g.x, g.y, b.x, b.y);
    }
    print_counts(counts2<M>(p));
    std::printf("exact range      %s\n", range2<M>(rho).c_str());
    return;
  }
  // dump
  u64 rows = 0;
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
            if (++rows > dump_limit) fail("dump: more than 50000000 rows; choose a smaller N");
            continue;
          } else {
            fail(std::string("dump: ") + M::name + " maps threads, not blocks; add --threads");
          }
        }
        for (u32 ty = 0; ty < b.y; ++ty)
          for (u32 tx = 0; tx < b.x; ++tx) {
            const Cell2 c = M::cell(p, pass, bx, by, tx, ty);
            if (!c.inside) continue;
            std::printf("%d,%u,%u,%u,%u,%lld,%lld\n", pass, bx, by, tx, ty, (long long)c.i, (long long)c.j);
            if (++rows > dump_limit) fail("dump: more than 50000000 rows; choose a smaller N");
          }
      }
  }
}

template <class M>
void run3(const std::string& cmd, i64 N, int rho, bool threads) {
  const Plan3 p = M::plan(N, rho);
  const Dim3 g = M::grid(p), b = M::block(p);
  if (cmd == "info") {
    std::printf("map              %s (3D, block-wise)\nN                %lld\nrho              %d\nn                %lld\n",
                M::name, (long long)N, rho, (long long)p.n);
    std::printf("grid             %u x %u x %u blocks of %u x %u x %u threads\n", g.x, g.y, g.z, b.x, b.y, b.z);
    print_counts(counts3<M>(p));
    std::printf("exact range      %s\n", range3<M>(rho).c_str());
    return;
  }
  u64 rows = 0;
  std::printf(threads ? "bx,by,bz,tx,ty,tz,x,y,z\n" : "bx,by,bz,x,y,z\n");
  for (u32 bz = 0; bz < g.z; ++bz)
    for (u32 by = 0; by < g.y; ++by)
      for (u32 bx = 0; bx < g.x; ++bx) {
        if (!threads) {
          const Cell3 c = M::block_cell(p, bx, by, bz);
          if (c.inside) std::printf("%u,%u,%u,%lld,%lld,%lld\n", bx, by, bz, (long long)c.x, (long long)c.y, (long long)c.z);
          if (++rows > dump_limit) fail("dump: more than 50000000 rows; choose a smaller N");
          continue;
        }
        for (u32 tz = 0; tz < b.z; ++tz)
          for (u32 ty = 0; ty < b.y; ++ty)
            for (u32 tx = 0; tx < b.x; ++tx) {
              const Cell3 c = M::cell(p, bx, by, bz, tx, ty, tz);
              if (!c.inside) continue;
              std::printf("%u,%u,%u,%u,%u,%u,%lld,%lld,%lld\n", bx, by, bz, tx, ty, tz, (long long)c.x,
                          (long long)c.y, (long long)c.z);
              if (++rows > dump_limit) fail("dump: more than 50000000 rows; choose a smaller N");
            }
      }
}

void list(int rho2, int rho3) {
  std::printf("%-7s %-3s %-7s %s\n", "map", "dim", "maps", "exact range");
  for_each_map(maps2d{}, [&](auto m) {
    using M = decltype(m);
    std::printf("%-7s %-3s %-7s %s\n", M::name, "2D", kind_of<M>(), range2<M>(rho2).c_str());
  });
  for_each_map(maps3d{}, [&](auto m) {
    using M = decltype(m);
    std::printf("%-7s %-3s %-7s %s\n", M::name, "3D", "block", range3<M>(rho3).c_str());
  });
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
    "usage: tdmap list [--rho R]\n"
    "       tdmap types          (name, dimension, C++ type of every map; for the SASS tools)\n"
    "       tdmap info  MAP -N N [--rho R]\n"
    "       tdmap dump  MAP -N N [--rho R] [--threads]\n"
    "       tdmap range MAP [--rho R]\n";

}  // namespace

int main(int argc, char** argv) {
  std::string cmd, map;
  i64 N = 0;
  int rho = -1;
  bool threads = false;
  po::options_description opts("options");
  opts.add_options()("help,h", "show this help")("N,N", po::value<i64>(&N), "problem size (domain side)")(
      "rho", po::value<int>(&rho), "threads per block side (default 16 in 2D, 8 in 3D)")(
      "threads", po::bool_switch(&threads), "dump: one row per thread instead of per block");
  po::options_description hidden;
  hidden.add_options()("cmd", po::value<std::string>(&cmd))("map", po::value<std::string>(&map));
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("cmd", 1).add("map", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    fail(std::string("bad arguments: ") + e.what());
  }
  if (vm.count("help") || cmd.empty()) {
    std::cout << usage << opts;
    return cmd.empty() && !vm.count("help") ? 2 : 0;
  }
  try {
    if (cmd == "list") { list(rho > 0 ? rho : 16, rho > 0 ? rho : 8); return 0; }
    if (cmd == "types") { types(); return 0; }
    if (cmd != "info" && cmd != "dump" && cmd != "range") fail("unknown command '" + cmd + "' (list, types, info, dump, range)");
    if (map.empty()) fail(cmd + ": name a map (see 'tdmap list')");
    bool is3d = false;
    with_map(maps3d{}, map.c_str(), [&](auto) { is3d = true; });
    if (rho == -1) rho = is3d ? 8 : 16;
    if (rho <= 0 || rho > 1024) fail("--rho must be in 1..1024 (got " + std::to_string(rho) + ")");
    if (cmd == "range") {
      bool found = with_map(maps2d{}, map.c_str(), [&](auto m) { std::printf("%s: %s\n", map.c_str(), range2<decltype(m)>(rho).c_str()); });
      found = found || with_map(maps3d{}, map.c_str(), [&](auto m) { std::printf("%s: %s\n", map.c_str(), range3<decltype(m)>(rho).c_str()); });
      if (!found) fail("unknown map '" + map + "' (see 'tdmap list')");
      return 0;
    }
    if (!vm.count("N")) fail(cmd + ": -N is required");
    bool found = with_map(maps2d{}, map.c_str(), [&](auto m) { run2<decltype(m)>(cmd, N, rho, threads); });
    found = found || with_map(maps3d{}, map.c_str(), [&](auto m) { run3<decltype(m)>(cmd, N, rho, threads); });
    if (!found) fail("unknown map '" + map + "' (see 'tdmap list')");
  } catch (const unsupported& e) {
    // The refusal names the limit; the hint names a map (or a block side) that serves N.
    bool is3d = false;
    with_map(maps3d{}, map.c_str(), [&](auto) { is3d = true; });
    if (N < 1) fail(e.what());
    fail(std::string(e.what()) + "; " +
         (is3d ? serving_hint(maps3d{}, map, N, rho, true) : serving_hint(maps2d{}, map, N, rho, false)));
  }
  return 0;
}
