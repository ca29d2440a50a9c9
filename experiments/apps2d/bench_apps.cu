// experiments/apps2d/bench_apps.cu — timing of the application kernels over the
// maps (000_dc8ca915cfc23e3c.txt §V: EDM and collision detection; 001_76513e4fc7b63a5f.txt
// §IV: EDM with 1..4 features), reported as improvement factor I = t_BB / t_map.
//
// For every (N, rho) the reference (bb; bb-fast for the fast EDM variants) and every
// selected map are timed in the same run, interleaved rep by rep (one CUDA-event
// pair per launch, median over --reps after --warmup untimed launches of each).
// Every (kernel, map, rho) is verified against the CPU reference at small N before
// anything is timed; a failure stops the run. The device's write bandwidth (float4
// stores into a 4 GiB buffer, median over reps) is measured first and written as
// map=write_bw rows, so GBps can be read as a fraction of it.
//
// Output: <out>/<gpu_slug>/edm.csv and collision.csv, first line "# " + metadata
// JSON, then tidy rows (see README.md). Progress on stderr. Exit 2 on bad input.
#include "apps_check.cuh"

#include <boost/program_options.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

using namespace tdmaps;
using namespace tdmaps::apps;
namespace po = boost::program_options;

namespace {

[[noreturn]] void bad_input(const std::string& msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  std::exit(2);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ','))
    if (!x.empty()) v.push_back(x);
  return v;
}
std::vector<int> int_list(const std::string& s, const char* what, int lo, int hi) {
  std::vector<int> v;
  for (const auto& x : split(s)) {
    size_t used = 0;
    int k = 0;
    try {
      k = std::stoi(x, &used);
    } catch (...) {
      used = 0;
    }
    if (used != x.size() || k < lo || k > hi)
      bad_input(std::string("--") + what + ": '" + x + "' is not an integer in " + std::to_string(lo) + ".." +
                std::to_string(hi));
    v.push_back(k);
  }
  if (v.empty()) bad_input(std::string("--") + what + " is empty");
  return v;
}

struct Options {
  bool edm = true, collision = true;
  std::vector<int> features{1, 2, 3, 4};
  std::vector<Layout> layouts{Layout::full, Layout::packed};
  std::vector<int> dims{3, 1};
  std::vector<i64> sizes;
  std::vector<int> rhos{16, 32};
  std::vector<std::string> maps;
  int reps = 20, warmup = 3;
  std::string out = "experiments/results";
  bool allow_inexact = false;
};

// ---- write bandwidth -------------------------------------------------------------------------
__global__ void write_bw_kernel(float4* __restrict__ out, u64 n4, float v) {
  const u64 k = u64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n4) out[k] = make_float4(v, v, v, v);
}
struct WriteBw {
  u64 bytes = 0;
  gpu::Stats s;
  double gbps() const { return s.median_ms > 0 ? double(bytes) / (s.median_ms * 1e6) : 0; }
};
WriteBw measure_write_bw(int warmup, int reps) {
  size_t free_b = 0, total_b = 0;
  TD_CUDA(cudaMemGetInfo(&free_b, &total_b));
  u64 bytes = std::min<u64>(u64(4) << 30, (u64(free_b) / 2) & ~u64(0xfffff));
  const u64 n4 = bytes / sizeof(float4);
  DevBuf<float4> buf(size_t(n4), "write-bandwidth buffer");
  const unsigned threads = 256;
  const u64 blocks = (n4 + threads - 1) / threads;
  WriteBw w;
  w.bytes = n4 * sizeof(float4);
  w.s = gpu::time_events(
      [&] {
        write_bw_kernel<<<unsigned(blocks), threads>>>(buf.get(), n4, 1.0f);
        TD_LAUNCHED();
      },
      warmup, std::max(reps, 5));
  return w;
}

// ---- CSV ------------------------------------------------------------------------------------
const char* csv_header =
    "test,variant,features,N,rho,map,exact,bytes_written,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,"
    "bb_median_ms,I,GBps";

std::string num(double v) {
  if (!std::isfinite(v)) return "nan";
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}
std::string csv_row(const std::string& test, const std::string& variant, int features, i64 N, int rho,
                    const std::string& map, bool exact, u64 bytes, const gpu::Stats& s, double bb_ms,
                    bool bandwidth) {
  const double I = (std::isfinite(bb_ms) && s.median_ms > 0) ? bb_ms / s.median_ms : NAN;
  const double gbps = bandwidth && s.median_ms > 0 ? double(bytes) / (s.median_ms * 1e6) : NAN;
  std::ostringstream o;
  o << test << ',' << variant << ',' << features << ',' << N << ',' << rho << ',' << map << ',' << (exact ? 1 : 0)
    << ',' << bytes << ',' << s.reps << ',' << num(s.median_ms) << ',' << num(s.p25_ms) << ',' << num(s.p75_ms)
    << ',' << num(s.min_ms) << ',' << num(s.max_ms) << ',' << num(bb_ms) << ',' << num(I) << ',' << num(gbps);
  return o.str();
}
void write_bw_row(gpu::Csv& csv, const std::string& test, const WriteBw& w) {
  csv.row(csv_row(test, "-", 0, 0, 0, "write_bw", true, w.bytes, w.s, NAN, true));
}

// ---- interleaved timing ----------------------------------------------------------------------
struct Entry {
  std::string map;
  Plan2 plan;
  bool exact = true;
  std::function<void()> launch;
  std::vector<float> t;
};
void time_interleaved(std::vector<Entry>& es, int warmup, int reps) {
  for (auto& e : es) gpu::time_events(e.launch, warmup, 0);
  for (int r = 0; r < reps; ++r)
    for (auto& e : es) e.t.push_back(float(gpu::time_events(e.launch, 0, 1).median_ms));
}

// Plans map `name` for (N, rho): exact if it can, else (with --allow-inexact) inexact.
template <class K>
bool plan_for(const K& k, i64 N, int rho, bool allow_inexact, Plan2& p, bool& exact) {
  try {
    p = k.plan(N, rho, false);
    exact = true;
    return true;
  } catch (const unsupported&) {
  }
  if (!allow_inexact) return false;
  try {
    p = k.plan(N, rho, true);
    exact = false;
    return true;
  } catch (const unsupported&) {
  }
  return false;
}

double elapsed(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Small sizes every kernel is verified at before it is timed: one that is not a
// multiple of rho, one that REC accepts.
const i64 verify_sizes[] = {999, 1024};

// ---- EDM ------------------------------------------------------------------------------------
std::vector<std::string> edm_run_maps(const Options& o) {
  std::vector<std::string> v;
  bool plain = false, fast = false;
  for (const auto& m : o.maps) {
    bool known = false;
    for (const auto& n : edm_map_names()) known = known || n == m;
    if (!known) continue;  // a collision-only name
    (reference_map(m) == "bb" ? plain : fast) = true;
  }
  if (plain) v.push_back("bb");
  if (fast) v.push_back("bb-fast");
  for (const auto& m : o.maps) {
    bool known = false;
    for (const auto& n : edm_map_names()) known = known || n == m;
    if (known && m != "bb" && m != "bb-fast") v.push_back(m);
  }
  return v;
}

// Verifies every (layout, d, rho, map) at the small sizes; returns the set that passed
// (keyed "map/d/layout/rho"); exits 1 on a failure.
std::set<std::string> verify_edm(const Options& o, const std::vector<std::string>& maps) {
  std::set<std::string> ok;
  const i64 Nmax = *std::max_element(std::begin(verify_sizes), std::end(verify_sizes));
  DevBuf<float> d_pts(size_t(Nmax) * edm::max_features, "EDM points (verification)");
  DevBuf<float> d_out(size_t(edm_capacity(Nmax, Layout::full)), "EDM output (verification)");
  int n = 0;
  for (i64 N : verify_sizes) {
    const EdmCells cells = edm_cells(N);
    EdmVerifier ver;
    for (int d : o.features) {
      const auto pts = make_points(N, d);
      upload(d_pts.get(), pts);
      ver.prepare(cells, d, pts);
      for (Layout L : o.layouts)
        for (int rho : o.rhos)
          for (const auto& m : maps) {
            const EdmKernel* k = find_edm(m, d, L);
            Plan2 p;
            bool exact;
            if (!plan_for(*k, N, rho, o.allow_inexact, p, exact)) continue;
            const EdmResult r = ver.run(*k, p, d_pts.get(), d_out.get(), d_out.size());
            ++n;
            if (!r.ok) {
              std::fprintf(stderr, "error: edm %s d=%d %s rho=%d fails verification at N=%lld: %s; not timing it\n",
                           m.c_str(), d, edm::layout_name(L), rho, (long long)N, r.msg.c_str());
              std::exit(1);
            }
            ok.insert(m + "/" + std::to_string(d) + "/" + edm::layout_name(L) + "/" + std::to_string(rho));
          }
    }
  }
  std::fprintf(stderr, "[edm] %d kernel configurations verified against the float64 reference\n", n);
  return ok;
}

void run_edm(const Options& o, const std::string& dir, const std::string& meta, const WriteBw& bw) {
  const auto maps = edm_run_maps(o);
  if (maps.empty()) {
    std::fprintf(stderr, "[edm] no EDM map selected; skipped\n");
    return;
  }
  const auto verified = verify_edm(o, maps);
  gpu::Csv csv(dir + "/edm.csv", meta, csv_header);
  write_bw_row(csv, "edm", bw);

  const i64 Nmax = *std::max_element(o.sizes.begin(), o.sizes.end());
  u64 cap = 0;
  for (Layout L : o.layouts) cap = std::max(cap, edm::out_elems(Nmax, L));
  DevBuf<float> d_pts(size_t(Nmax) * edm::max_features, "EDM points");
  DevBuf<float> d_out(size_t(cap), "EDM output (largest N)");
  const auto t0 = std::chrono::steady_clock::now();
  std::set<std::string> warned;
  // For the summary: per (layout, d), the worst over N >= 16384 of the best map's share
  // of the write bandwidth.
  std::map<std::pair<std::string, i64>, std::pair<double, std::string>> best_at;  // (layout d, N) -> best
  for (size_t ni = 0; ni < o.sizes.size(); ++ni) {
    const i64 N = o.sizes[ni];
    std::fprintf(stderr, "[edm] N=%lld (%zu/%zu), %.0f s\n", (long long)N, ni + 1, o.sizes.size(), elapsed(t0));
    const u64 bytes = edm::written_elems(N) * sizeof(float);
    for (Layout L : o.layouts)
      for (int d : o.features) {
        upload(d_pts.get(), make_points(N, d));
        for (int rho : o.rhos) {
          std::vector<Entry> es;
          for (const auto& m : maps) {
            const EdmKernel* k = find_edm(m, d, L);
            Entry e;
            e.map = m;
            if (!plan_for(*k, N, rho, o.allow_inexact, e.plan, e.exact)) {
              if (warned.insert(m + "/" + std::to_string(rho)).second)
                std::fprintf(stderr, "[edm] %s rho=%d does not accept N=%lld (and maybe others); skipped there\n",
                             m.c_str(), rho, (long long)N);
              continue;
            }
            if (!verified.count(m + "/" + std::to_string(d) + "/" + edm::layout_name(L) + "/" + std::to_string(rho))) {
              if (warned.insert("unverified/" + m + "/" + std::to_string(rho)).second)
                std::fprintf(stderr, "[edm] %s rho=%d could not be verified at small N; not timed\n", m.c_str(), rho);
              continue;
            }
            const Plan2 p = e.plan;
            const float* pts = d_pts.get();
            float* out = d_out.get();
            e.launch = [k, p, pts, out] { k->launch(p, pts, out); };
            es.push_back(std::move(e));
          }
          time_interleaved(es, o.warmup, o.reps);
          std::map<std::string, double> med;
          std::vector<gpu::Stats> st;
          for (auto& e : es) {
            st.push_back(gpu::summarize(e.t));
            med[e.map] = st.back().median_ms;
          }
          double best = 0;
          std::string best_map;
          for (size_t q = 0; q < es.size(); ++q) {
            const auto ref = med.find(reference_map(es[q].map));
            csv.row(csv_row("edm", edm::layout_name(L), d, N, rho, es[q].map, es[q].exact, bytes, st[q],
                            ref == med.end() ? NAN : ref->second, true));
            const double gbps = double(bytes) / (st[q].median_ms * 1e6);
            if (gbps > best) { best = gbps; best_map = es[q].map + " rho=" + std::to_string(rho); }
          }
          if (N >= 16384 && !es.empty()) {
            auto& b = best_at[{std::string(edm::layout_name(L)) + " d=" + std::to_string(d), N}];
            if (best / bw.gbps() > b.first) b = {best / bw.gbps(), best_map + " at N=" + std::to_string(N)};
          }
        }
      }
  }
  std::fprintf(stderr, "[edm] done in %.0f s -> %s/edm.csv\n", elapsed(t0), dir.c_str());
  std::map<std::string, std::pair<double, std::string>> share;  // layout d -> worst N's best
  for (const auto& [key, v] : best_at) {
    auto it = share.find(key.first);
    if (it == share.end() || v.first < it->second.first) share[key.first] = v;
  }
  for (const auto& [key, v] : share)
    std::fprintf(stderr, "[edm] %s: best map reaches >= %.1f%% of the write bandwidth at every N >= 16384 "
                 "(lowest: %s)\n", key.c_str(), 100 * v.first, v.second.c_str());
}

// ---- collision --------------------------------------------------------------------------------
std::vector<std::string> collision_run_maps(const Options& o) {
  std::vector<std::string> v;
  for (const auto& m : o.maps)
    if (find_collision(m, 3)) v.push_back(m);
  if (!v.empty() && std::find(v.begin(), v.end(), "bb") == v.end()) v.insert(v.begin(), "bb");
  return v;
}

void run_collision(const Options& o, const std::string& dir, const std::string& meta, const WriteBw& bw) {
  const auto maps = collision_run_maps(o);
  if (maps.empty()) {
    std::fprintf(stderr, "[collision] no collision map selected; skipped\n");
    return;
  }
  // Verify every (dim, rho, map) at the small sizes first.
  std::set<std::string> verified;
  int n = 0;
  for (i64 N : verify_sizes)
    for (int dim : o.dims) {
      CollisionVerifier ver;
      ver.prepare(N, dim);
      for (int rho : o.rhos)
        for (const auto& m : maps) {
          const CollisionKernel* k = find_collision(m, dim);
          Plan2 p;
          bool exact;
          if (!plan_for(*k, N, rho, o.allow_inexact, p, exact)) continue;
          const CollisionResult r = ver.run(*k, p);
          ++n;
          if (!r.ok) {
            std::fprintf(stderr, "error: collision %s %dD rho=%d fails verification at N=%lld: %s; not timing it\n",
                         m.c_str(), dim, rho, (long long)N, r.msg.c_str());
            std::exit(1);
          }
          verified.insert(m + "/" + std::to_string(dim) + "/" + std::to_string(rho));
        }
    }
  std::fprintf(stderr, "[collision] %d kernel configurations verified against the CPU reference\n", n);

  gpu::Csv csv(dir + "/collision.csv", meta, csv_header);
  write_bw_row(csv, "collision", bw);
  const i64 Nmax = *std::max_element(o.sizes.begin(), o.sizes.end());
  DevBuf<float4> d_s(size_t(Nmax), "spheres");
  DevBuf<u32> d_counts(size_t(Nmax), "collision counts");
  DevBuf<unsigned long long> d_total(1, "collision total");
  TD_CUDA(cudaMemset(d_counts.get(), 0, size_t(Nmax) * sizeof(u32)));
  TD_CUDA(cudaMemset(d_total.get(), 0, sizeof(unsigned long long)));
  const auto t0 = std::chrono::steady_clock::now();
  std::set<std::string> warned;
  for (size_t ni = 0; ni < o.sizes.size(); ++ni) {
    const i64 N = o.sizes[ni];
    std::fprintf(stderr, "[collision] N=%lld (%zu/%zu), %.0f s\n", (long long)N, ni + 1, o.sizes.size(),
                 elapsed(t0));
    for (int dim : o.dims) {
      if (dim == 3) {
        const auto s = make_spheres<3>(N);
        TD_CUDA(cudaMemcpy(d_s.get(), s.data(), s.size() * sizeof(s[0]), cudaMemcpyHostToDevice));
      } else {
        const auto s = make_spheres<1>(N);
        TD_CUDA(cudaMemcpy(d_s.get(), s.data(), s.size() * sizeof(s[0]), cudaMemcpyHostToDevice));
      }
      for (int rho : o.rhos) {
        std::vector<Entry> es;
        for (const auto& m : maps) {
          const CollisionKernel* k = find_collision(m, dim);
          Entry e;
          e.map = m;
          if (!plan_for(*k, N, rho, o.allow_inexact, e.plan, e.exact)) {
            if (warned.insert(m + "/" + std::to_string(rho)).second)
              std::fprintf(stderr, "[collision] %s rho=%d does not accept N=%lld (and maybe others); skipped there\n",
                           m.c_str(), rho, (long long)N);
            continue;
          }
          if (!verified.count(m + "/" + std::to_string(dim) + "/" + std::to_string(rho))) {
            if (warned.insert("unverified/" + m + "/" + std::to_string(rho)).second)
              std::fprintf(stderr, "[collision] %s rho=%d could not be verified at small N; not timed\n", m.c_str(),
                           rho);
            continue;
          }
          const Plan2 p = e.plan;
          const void* s = d_s.get();
          u32* c = d_counts.get();
          unsigned long long* t = d_total.get();
          // Counts accumulate over the launches (no reset inside the timed region).
          e.launch = [k, p, s, c, t] { k->launch(p, s, c, t); };
          es.push_back(std::move(e));
        }
        time_interleaved(es, o.warmup, o.reps);
        double bb = NAN;
        std::vector<gpu::Stats> st;
        for (auto& e : es) {
          st.push_back(gpu::summarize(e.t));
          if (e.map == "bb") bb = st.back().median_ms;
        }
        for (size_t q = 0; q < es.size(); ++q)
          csv.row(csv_row("collision", dim == 3 ? "3d" : "1d", dim, N, rho, es[q].map, es[q].exact, 0, st[q], bb,
                          false));
      }
    }
  }
  std::fprintf(stderr, "[collision] done in %.0f s -> %s/collision.csv\n", elapsed(t0), dir.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::string test = "all", features = "1,2,3,4", layout = "both", dim = "both", rho = "16,32";
  std::string maps = "bb,ltm-r,ltm-e,rb,rec,utm-n,bb-fast,ltm-e-fast";
  long long nfrom = 1024, nto = 30720, nstep = 1024;
  Options o;
  bool quick = false, skip_if_no_gpu = false;
  po::options_description desc(
      "bench_apps: EDM and collision detection over the 2D maps (000 §V, 001 §IV)\nOptions");
  desc.add_options()
      ("help,h", "this help")
      ("test", po::value(&test)->default_value(test), "edm | collision | all")
      ("features", po::value(&features)->default_value(features), "EDM: comma list of 1..4")
      ("layout", po::value(&layout)->default_value(layout), "EDM: full | packed | both")
      ("dim", po::value(&dim)->default_value(dim), "collision: 3 | 1 | both")
      ("N-from", po::value(&nfrom)->default_value(nfrom), "first N")
      ("N-to", po::value(&nto)->default_value(nto), "last N (inclusive)")
      ("N-step", po::value(&nstep)->default_value(nstep), "N step")
      ("rho", po::value(&rho)->default_value(rho), "comma list of block sides (1..32); fast EDM tiles are 4*rho")
      ("maps", po::value(&maps)->default_value(maps),
       "comma list; EDM: bb ltm-r ltm-e rb rec utm-n utm-x bb-fast ltm-r-fast ltm-e-fast; collision: the same "
       "without -fast (fast names are ignored there); bb / bb-fast are always timed as the I reference")
      ("reps", po::value(&o.reps)->default_value(o.reps), "timed launches per (N, rho, map)")
      ("warmup", po::value(&o.warmup)->default_value(o.warmup), "untimed launches before timing")
      ("out", po::value(&o.out)->default_value(o.out), "results folder (files go to <out>/<gpu_slug>/)")
      ("quick", po::bool_switch(&quick), "N in {2048, 8192, 16384, 30720}, rho 16, reps 10 (overrides those options)")
      ("allow-inexact", po::bool_switch(&o.allow_inexact),
       "also time float maps past their exact range (rows get exact=0)")
      ("skip-if-no-gpu", po::bool_switch(&skip_if_no_gpu), "exit 77 (meson's skip) when there is no GPU");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    bad_input(e.what());
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  if (test == "edm") o.collision = false;
  else if (test == "collision") o.edm = false;
  else if (test != "all") bad_input("--test must be edm, collision or all (got '" + test + "')");
  o.features = int_list(features, "features", 1, 4);
  if (layout == "full") o.layouts = {Layout::full};
  else if (layout == "packed") o.layouts = {Layout::packed};
  else if (layout != "both") bad_input("--layout must be full, packed or both (got '" + layout + "')");
  if (dim == "3") o.dims = {3};
  else if (dim == "1") o.dims = {1};
  else if (dim != "both") bad_input("--dim must be 3, 1 or both (got '" + dim + "')");
  o.rhos = int_list(rho, "rho", 1, 32);
  o.maps = split(maps);
  if (o.maps.empty()) bad_input("--maps is empty");
  for (const auto& m : o.maps) {
    bool known = find_collision(m, 3) != nullptr;
    for (const auto& n : edm_map_names()) known = known || n == m;
    if (!known) {
      std::string all;
      for (const auto& n : edm_map_names()) all += (all.empty() ? "" : " ") + n;
      bad_input("unknown map '" + m + "' (known: " + all + ")");
    }
  }
  if (o.reps < 1 || o.warmup < 0) bad_input("--reps must be >= 1 and --warmup >= 0");
  if (quick) {
    o.sizes = {2048, 8192, 16384, 30720};
    o.rhos = {16};
    o.reps = 10;
  } else {
    if (nfrom < 1 || nto < nfrom || nstep < 1)
      bad_input("need 1 <= --N-from <= --N-to and --N-step >= 1");
    for (long long N = nfrom; N <= nto; N += nstep) o.sizes.push_back(N);
  }

  if (skip_if_no_gpu) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      std::fprintf(stderr, "skipped: no CUDA GPU\n");
      return 77;
    }
  }
  const int dev = gpu::require_gpu();
  cudaDeviceProp prop{};
  TD_CUDA(cudaGetDeviceProperties(&prop, dev));
  const std::string dir = o.out + "/" + gpu::gpu_slug(prop);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) bad_input("cannot create " + dir + ": " + ec.message());
  std::string args;
  for (int a = 1; a < argc; ++a) args += (a > 1 ? " " : "") + std::string(argv[a]);
  const std::string meta = gpu::metadata_json("bench_apps", args);

  std::fprintf(stderr, "bench_apps on %s: %zu sizes (%lld..%lld), rho", prop.name, o.sizes.size(),
               (long long)o.sizes.front(), (long long)o.sizes.back());
  for (int r : o.rhos) std::fprintf(stderr, " %d", r);
  std::fprintf(stderr, ", reps %d, warmup %d\n", o.reps, o.warmup);
  const WriteBw bw = measure_write_bw(o.warmup, o.reps);
  std::fprintf(stderr, "write bandwidth: %.1f GB/s (%llu MiB, float4 stores, median of %d)\n", bw.gbps(),
               (unsigned long long)(bw.bytes >> 20), bw.s.reps);
  if (o.edm) run_edm(o, dir, meta, bw);
  if (o.collision) run_collision(o, dir, meta, bw);
  return 0;
}
