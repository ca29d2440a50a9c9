// experiments/maps3d/wasted3d.cpp — launched, useful and wasted blocks and threads of
// the bounding box BB3 and of g(lambda) (TET, any exact layer root: they launch the
// same grid) on the tetrahedral domain, next to the paper's orders of growth
// (003_66f856975a7ab3ee.txt §I and §III-B: the box wastes O(n^3) threads, g(lambda)
// O(n^2 rho^3)), and the padding of the succinct blocked layout (§III-A, eq. (9)).
// Plain C++, no GPU: counts come from counts.hpp counts3<M>, i.e. from walking every
// launched block through the map itself.
//
//   wasted3d [OUT_DIR]    writes OUT_DIR/cpu/wasted3d.csv (default experiments/results)
//
// Columns: N, rho, n = ceil(N/rho), map; launched/useful/wasted blocks and threads
// (a thread is useful when its cell is in the pyramid: tet(N) of them); wasted threads
// over n^2 rho^3 and over N^3; padding slots of the blocked layout, tet(n) rho^3 - tet(N),
// and that over n^2 rho^3 (eq. (9)'s term).
#include <tdmaps/counts.hpp>
#include <tdmaps/layout3d.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <csv_file.hpp>  // results::CsvFile, the one writer, and the layouts (src/support/results/)

using namespace tdmaps;

int main(int argc, char** argv) {
  if (argc > 2 || (argc == 2 && std::string(argv[1]).rfind("-", 0) == 0)) {
    std::fprintf(stderr, "usage: wasted3d [OUT_DIR]   (writes OUT_DIR/cpu/wasted3d.csv; default experiments/results)\n");
    return 2;
  }
  const std::string out = argc == 2 ? argv[1] : "experiments/results";
  const std::string path = out + "/cpu/" + results::layout::wasted3d.file;
  results::CsvFile f(path,
                     "{\"program\":\"wasted3d\",\"date_utc\":\"" + results::utc_now() +
                         "\",\"source\":\"counts.hpp counts3 over every launched block\"}",
                     results::layout::wasted3d);
  const i64 Ns[] = {16, 31, 64, 100, 128, 255, 256, 500, 512, 1000, 1024, 1500, 2048, 3000, 4096};
  const auto t0 = std::chrono::steady_clock::now();
  for (int rho : {4, 8})
    for (i64 N : Ns) {
      const BlockedLayout3 B = BlockedLayout3::make(N, rho);
      const double n2r3 = double(B.n) * double(B.n) * double(rho) * rho * rho;
      const double N3 = double(N) * double(N) * double(N);
      const auto row = [&](const char* name, const Counts& c) {
        results::RowOf<results::layout::wasted3d> r;
        r.set(TD_COL("N"), (long long)N).set(TD_COL("rho"), rho).set(TD_COL("n"), (long long)B.n).set(TD_COL("map"), name);
        r.set(TD_COL("launched_blocks"), (unsigned long long)c.launched_blocks).set(TD_COL("useful_blocks"), (unsigned long long)c.useful_blocks);
        r.set(TD_COL("wasted_blocks"), (unsigned long long)c.wasted_blocks());
        r.set(TD_COL("launched_threads"), (unsigned long long)c.launched_threads).set(TD_COL("useful_threads"), (unsigned long long)c.useful_threads);
        r.set(TD_COL("wasted_threads"), (unsigned long long)c.wasted_threads());
        r.set(TD_COL("wasted_threads_over_n2rho3"), results::sig(double(c.wasted_threads()) / n2r3));
        r.set(TD_COL("wasted_threads_over_N3"), results::sig(double(c.wasted_threads()) / N3));
        r.set(TD_COL("blocked_padding"), (unsigned long long)B.padding()).set(TD_COL("padding_over_n2rho3"), results::sig(double(B.padding()) / n2r3));
        f.row(r);
      };
      const Counts bb = counts3<BB3>(BB3::plan(N, rho));
      const Counts te = counts3<TET_E>(TET_E::plan(N, rho));
      // Closed forms the walk must agree with: both maps' useful blocks are the tet(n)
      // blocks bx <= by <= bz; BB3 launches n^3, g(lambda) tet(n) (one grid row here).
      const u64 n = u64(B.n);
      if (bb.useful_blocks != tet(n) || bb.launched_blocks != n * n * n || te.useful_blocks != tet(n) ||
          te.launched_blocks != tet(n)) {
        std::fprintf(stderr, "wasted3d: counts disagree with the closed forms at N=%lld rho=%d\n", (long long)N, rho);
        return 1;
      }
      row(BB3::name, bb);              // the box's map name (tdmaps/map_3d.hpp), as the readers look it up
      row(results::kWasted3dTet, te);  // TET's counts, any root (results/layouts.hpp)
      std::fprintf(stderr, "wasted3d: rho=%d N=%lld done (%.1f s)\n", rho, (long long)N,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  std::fprintf(stderr, "wasted3d: wrote %s\n", path.c_str());
  return 0;
}
