// paper/claims/report.cpp — writes paper/report.md (see report.hpp). Every number in it
// comes from a CSV, from paper/reported.csv or from the map library; the prose
// around them is fixed text.
#include "report.hpp"
#include "judging.hpp"

#include "claims.hpp"
#include "readme.hpp"
#include "select.hpp"

#include <tdmaps/map_utm.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace figs {
namespace {

std::string cell(std::string s) {
  std::string o;
  for (char c : s) {
    if (c == '|') o += "\\|";
    else if (c == '\n') o += ' ';
    else o += c;
  }
  return o;
}

// CUDA's version integers: 12040 -> 12.4
std::string cuda_version(const std::string& v) {
  const double x = to_num(v);
  if (!std::isfinite(x) || x < 1000) return v;
  const long long n = (long long)x;
  return std::to_string(n / 1000) + "." + std::to_string((n % 1000) / 10);
}

std::vector<std::string> bib_keys(const std::string& path) {
  std::vector<std::string> keys;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t at = line.find('@'), br = line.find('{'), cm = line.find(',');
    if (at == 0 && br != std::string::npos && cm != std::string::npos && cm > br)
      keys.push_back(trim(line.substr(br + 1, cm - br - 1)));
  }
  return keys;
}

void setup_section(std::ostream& o, const Ctx& ctx) {
  o << "## 2. Setup\n\n";
  if (ctx.gpus.empty()) {
    o << "No GPU results were found under `" << ctx.results
      << "/`: every GPU figure and GPU claim below is *not measured*. The figures and claims that need no GPU "
         "(the map library's counts, the CPU oracle) are complete.\n\n";
  }
  const std::vector<std::pair<std::string, std::string>> keys = {
      {"gpu", "GPU"},          {"cc", "compute capability"},       {"sm_count", "SMs"},
      {"sm_clock_max_mhz", "SM clock, max (MHz)"}, {"mem_clock_max_mhz", "memory clock, max (MHz)"},
      {"mem_bus_bits", "memory bus (bits)"}, {"global_mem_mib", "global memory (MiB)"}, {"l2_bytes", "L2 (bytes)"},
      {"driver", "CUDA driver"}, {"runtime", "CUDA runtime"}, {"nvcc", "nvcc"}, {"nvcc_flags", "nvcc flags"}};
  for (const GpuData& g : ctx.gpus) {
    o << "### " << g.name() << " (`" << g.slug << "`)\n\n| | |\n|---|---|\n";
    for (const auto& [k, label] : keys) {
      std::string v = g.meta(k);
      if (v.empty()) continue;
      if (k == "driver" || k == "runtime") v = cuda_version(v) + " (" + v + ")";
      o << "| " << label << " | " << cell(v) << " |\n";
    }
    std::set<std::string> commits, dates, extra;
    for (const std::string& f : g.files())
      if (const Table* t = g.get(f)) {
        if (!t->meta_or("commit").empty()) commits.insert(t->meta_or("commit"));
        if (!t->meta_or("date_utc").empty()) dates.insert(t->meta_or("date_utc"));
        for (const auto& [k, v] : t->meta) {
          bool known = k == "args" || k == "program" || k == "commit" || k == "date_utc" || k == "gpu_slug";
          for (const auto& kk : keys) known = known || kk.first == k;
          if (!known) extra.insert(k);
        }
      }
    if (!commits.empty()) o << "| commit(s) | " << cell(join({commits.begin(), commits.end()}, ", ")) << " |\n";
    if (!dates.empty()) o << "| measured (UTC) | " << *dates.begin() << " … " << *dates.rbegin() << " |\n";
    for (const std::string& k : extra) o << "| " << cell(k) << " | " << cell(g.meta(k)) << " |\n";
    o << "\nFiles (each begins with its metadata line):\n\n| file | program | rows | measured (UTC) | commit | arguments |\n"
         "|---|---|---|---|---|---|\n";
    for (const std::string& f : g.files()) {
      const Table* t = g.get(f);
      if (!t) continue;
      o << "| `" << f << "` | " << cell(t->meta_or("program", "—")) << " | " << t->size() << " | "
        << cell(t->meta_or("date_utc", "—")) << " | " << cell(t->meta_or("commit", "—")) << " | `"
        << cell(t->meta_or("args", "—")) << "` |\n";
    }
    o << "\n";
  }
  GpuData cpu = ctx.cpu;
  const std::vector<std::string> cf = cpu.files();
  o << "### CPU side\n\n";
  o << "- CPU oracle's exact-range table: `" << ctx.cpu_exact << "`"
    << (ctx.cpu_exact_table ? " (" + std::to_string(ctx.cpu_exact_table->size()) + " variants)" : " (missing)") << ".\n";
  if (!cf.empty()) {
    o << "- `" << cpu.dir << "/`: ";
    std::vector<std::string> parts;
    for (const std::string& f : cf) {
      const Table* t = cpu.get(f);
      parts.push_back("`" + f + "`" + (t ? " (" + std::to_string(t->size()) + " rows" +
                                               (t->meta_or("commit").empty() ? "" : ", commit " + t->meta_or("commit")) + ")"
                                         : ""));
    }
    o << join(parts, ", ") << ".\n";
  }
  if (!ctx.cpu_check.empty()) o << "- " << ctx.cpu_check << ".\n";
  o << "- Counts of launched, useful and wasted blocks (Fig. 3 right, the tetrahedral counts) are computed by this "
       "program from the map library (`src/lib/tdmaps/counts.hpp`), the same headers the kernels run: they are not "
       "measured and need no GPU.\n\n";
}

void method_section(std::ostream& o, const Ctx& ctx) {
  o << "## 3. Method\n\n";
  // reps actually used, from the data
  double rmin = NAN, rmax = NAN;
  for (const GpuData& g : ctx.gpus)
    for (const std::string& f : g.files())
      if (const Table* t = g.get(f))
        for (const Row& r : t->rows()) {
          const double v = r.d("reps");
          if (!std::isfinite(v) || r.s("map") == "write_bw") continue;
          if (!(v >= rmin)) rmin = v;
          if (!(v <= rmax)) rmax = v;
        }
  o << "**Timing.** Every launch is timed with a pair of CUDA events after untimed warm-up launches (the "
       "`--warmup` argument in the files' metadata). BB and every map are timed in the same run, interleaved, so "
       "each improvement factor I = t_BB / t_map (the `I` column; `bb_median_ms` is t_BB) is a ratio of two medians "
       "measured side by side under the same clocks and temperature. A row reports the median and the 25th/75th "
       "percentiles over its repetitions";
  if (std::isfinite(rmin)) o << " (" << fmt_int(rmin) << " to " << fmt_int(rmax) << " repetitions per row in these data)";
  o << ". Multi-pass maps (REC) are timed over all their launches. An improvement of X% means I = 1 + X/100, the "
       "papers' convention (\"RB ... achieving up to 33% of improvement\").\n\n";
  o << "**Verification.** The CPU oracle (`make verify`) proves every map correct on the code the kernels run: "
       "coverage and uniqueness by exhaustion over small sizes and bijection over every block index of the exact "
       "maps; it also finds where each float map stops being exact (`" << ctx.cpu_exact << "`). On the GPU, each "
       "map's coverage kernel is checked against the CPU expectation (every cell exactly once) before the map is "
       "timed, the application kernels (EDM, collision) are checked against a CPU reference at small N, and "
       "`gpu_exact_range` measures the exact ranges under the device's own rounding (rsqrtf, cbrtf). Float maps are "
       "never timed past their proven range unless a run asks for it (`--allow-inexact`, rows with `exact = 0`, "
       "drawn dotted).\n\n";
  // compute-sanitizer: summarised from the logs the runs left in <results>/<gpu>/logs/sanitizer/
  for (const GpuData& g : ctx.gpus) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(g.dir) / "logs" / "sanitizer";
    if (!fs::is_directory(dir)) continue;
    std::vector<std::string> items;
    std::vector<fs::path> logs;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".log") logs.push_back(e.path());
    std::sort(logs.begin(), logs.end());
    for (const fs::path& p : logs) {
      std::ifstream in(p);
      std::string line;
      int runs = 0, clean = 0;
      while (std::getline(in, line)) {
        if (line.find("ERROR SUMMARY:") != std::string::npos || line.find("RACECHECK SUMMARY:") != std::string::npos) {
          ++runs;
          if (line.find(": 0 errors") != std::string::npos || line.find(": 0 hazards") != std::string::npos) ++clean;
        }
      }
      items.push_back("`" + p.filename().string() + "` " + std::to_string(clean) + "/" + std::to_string(runs) + " clean");
    }
    if (!items.empty())
      o << "**compute-sanitizer (" << g.slug << ").** memcheck and racecheck over every kernel at small N (the "
           "verification sweeps and the benchmarks' pre-timing checks at N = 33..150), summary lines counted from "
           "`" << dir.string() << "/`: " << join(items, ", ") << ".\n\n";
  }
  o << "**Claims.** `paper/reported.csv` holds every quantitative statement of the four texts (002 is a second "
       "extraction of 001), typed once, with its section. For each claim id one entry of the rule table "
       "(`paper/claims/rules.cpp`: rule kind, CSV, selection, statistic, direction; printed in section 5, last table) "
       "computes our value from the CSVs or from the map library. Collision: `test=collision` is the shared-memory "
       "kernel (BB, LTM, RB's block form `rb-b`, REC), `test=collision-direct` the kernel without shared memory (every "
       "map); rows of `rb` / `utm-n` under `test=collision` were timed in the direct kernel and are not compared with "
       "the shared-memory maps. Every claim is judged under the conditions its paper states (§5, Conditions: "
       "`paper/conditions.csv`, with the paper's words); where the paper leaves one open, every reading is computed: "
       "exact ranges in the FMA-contracted mode (nvcc's default) and in pinned rounding (the library's), since neither "
       "paper states its build flags; the block side at ρ = 16 and ρ = 32 except where the paper fixes it (001 §V, for "
       "the ε range: \"16×16\"; 000 Fig. 3's caption, \"On the left, the performance of the different square root "
       "strategies and on the right the number of unnecessary blocks using ρ = 16\", is read as fixing ρ for the right "
       "panel only, since the phrase may qualify that panel alone: the left panel's claims are read at both); LTM on the papers' balanced n'×n' grid (both papers fix it, "
       "maps `ltm-r-sq`, `ltm-e-sq`, `ltm-x-sq`, `ltm-n-sq`, `ltm-d-sq`), judged where a CSV has its rows and \"not measured\" where it has none "
       "(a reading never run does not vote), the linear grid shown beside. A claim counts as holds or differs only when every "
       "reading agrees, otherwise \"depends on the reading\". Otherwise the rules use the dummy kernel's `store` form (every in-domain thread writes i + j to one address, "
       "as in both papers), the EDM's full N×N output with 4 features (000 §V), the 3D collision test, and \"large N\" "
       "means N ≥ " << fmt_int(kLargeN) << " (000 §V: the maps converge \"once N > 15000\"). \"LTM\" in §V of 000 and §IV "
       "of 001 is the papers' chosen LTM-R, so rules take `ltm-r` where it has rows, else `ltm-e` (the exact "
       "variant); \"UTM\" is `utm-n` (Avril's fast square root with two repairs), else `utm-x`. Verdict rule: "
    << verdict_rule_text()
    << " Our GPUs are not the papers' Kepler GPUs: a verdict says whether the statement holds on our hardware, not "
       "whether the paper measured it right.\n\n";
  o << "**Judging rules** (`paper/claims/judging.hpp`; each applies to every claim of its kind and is checked by the "
       "test `claims_rules`):\n\n";
  for (const auto& [name, text] : judging_rules()) o << "- *" << name << "*: " << text << ".\n";
  o << "\n";
}

void figures_section(std::ostream& o, const Ctx& ctx) {
  o << "## 4. Figures\n\n";
  o << "PNG for reading, SVG beside each for papers. Open symbols are the papers' values from "
       "`paper/reported.csv` (shape: which paper and GPU; colour: which map), placed right of our data unless the "
       "paper states the N.\n\n";
  // the registry's order (ctx.fig_order, from figures/figures.hpp), then any figure it does not list (a tet_I_rho<r> of another ρ)
  std::vector<std::string> names;
  for (const auto& e : ctx.fig_order) names.push_back(e.first);
  for (const FigRec& r : ctx.figs)
    if (std::find(names.begin(), names.end(), r.name) == names.end()) names.push_back(r.name);
  int k = 0;
  for (const std::string& name : names) {
    std::vector<const FigRec*> recs;
    for (const FigRec& r : ctx.figs)
      if (r.name == name) recs.push_back(&r);
    if (recs.empty()) continue;
    std::string title = name;
    for (const auto& e : ctx.fig_order)
      if (e.first == name) title = e.second;
    o << "### 4." << ++k << " " << title << " (`" << name << "`)\n\n";
    for (const FigRec* r : recs) {
      const std::string where = r->gpu.empty() ? "" : " — `" + r->gpu + "`";
      if (!r->ok) {
        o << "*Not drawn" << where << ": " << cell(r->why) << ".*\n\n";
        continue;
      }
      o << "![" << cell(name + where) << "](" << rel_to(r->png, ctx.report) << ")\n\n";
      o << r->caption << (r->svg.empty() ? "" : " ([SVG](" + rel_to(r->svg, ctx.report) + "))") << "\n\n";
      if (!r->reading.empty()) o << "*Reading" << where << ".* " << r->reading << "\n\n";
    }
  }
}

// From each GPU's dummy.csv: where the papers' Kepler numbers and ours part. The numbers are
// generated, and so is the explanation (from the same rows and the SASS table).
void hopper_section(std::ostream& o, const Ctx& ctx) {
  const double kNmin = kLargeN;  // "large N" of the results layer (src/support/results/select.hpp)
  o << "## 6. Dummy kernel on Hopper vs Kepler\n\n";
  o << "From each GPU's `dummy.csv` at ρ = " << kRho << ": the median over N ≥ " << fmt_int(kNmin)
    << " of I = t_BB / t_map (the time of each map relative to BB's, measured in the same run) for the papers' "
       "`store` form and the contention-free `cond` form, then BB's own time at the largest N with its launch rate "
       "(launched blocks / median time).\n\n";
  std::vector<std::pair<const GpuData*, const Table*>> gs;
  const std::vector<std::string> forms = {"store", "cond"};
  for (const GpuData& g : ctx.gpus) {
    const Table* t = g.get("dummy.csv");
    if (t && t->missing({"N", "map", "median_ms"}).empty()) gs.emplace_back(&g, t);
    else o << "- `" << g.slug << "`: " << (t ? "dummy.csv lacks column(s) " + t->missing({"N", "map", "median_ms"}) : g.reason("dummy.csv")) << ".\n";
  }
  if (gs.empty()) {
    o << "No GPU has a usable `dummy.csv`: nothing measured.\n\n";
  } else {

    std::vector<std::string> maps;  // ltm-r first, then the other maps of any GPU
    for (const auto& [g, t] : gs) {
      Sel all;
      all.exact_only = false;
      for (const std::string& m : maps_in(*t, all))
        if (m.rfind("bb", 0) != 0 && std::find(maps.begin(), maps.end(), m) == maps.end()) maps.push_back(m);
    }
    maps = order_maps(maps);
    if (std::find(maps.begin(), maps.end(), "ltm-r") != maps.end()) {
      maps.erase(std::find(maps.begin(), maps.end(), "ltm-r"));
      maps.insert(maps.begin(), "ltm-r");
    }
    o << "| GPU | form |";
    for (const std::string& m : maps) o << " " << m << " |";
    o << "\n|---|---|";
    for (size_t k = 0; k < maps.size(); ++k) o << "---|";
    o << "\n";
    for (const auto& [g, t] : gs)
      for (const std::string& form : forms) {
        Sel s;
        if (t->has("form")) s.eq["form"] = form;
        o << "| " << g->name() << " (`" << g->slug << "`) | " << form << " |";
        for (const std::string& m : maps) {
          const double v = med_from(curve(*t, s, m), kNmin);
          o << " " << (std::isfinite(v) ? (m == "ltm-r" ? "**" + fmt(v, 3) + "**" : fmt(v, 3)) : "—") << " |";
        }
        o << "\n";
      }
    o << "\n— : no exact rows at N ≥ " << fmt_int(kNmin) << " (utm-n is exact only for N ≤ " << fmt_int(double(tdmaps::limits::utm_n_max_N)) << ").\n\n";
    o << "| GPU | form | largest N | t_BB (ms) | BB blocks launched | BB launch rate (M blocks/s) | t_ltm-r (ms) | "
         "ltm-r blocks launched | ltm-r launch rate (M blocks/s) |\n|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& [g, t] : gs)
      for (const std::string& form : forms) {
        Sel s;
        if (t->has("form")) s.eq["form"] = form;
        // the largest N with a BB row
        double nmax = NAN;
        for (const Row& r : t->rows())
          if (r.s("map") == "bb" && selected(r, s) && !(r.d("N") <= nmax)) nmax = r.d("N");
        if (!std::isfinite(nmax)) continue;
        o << "| " << g->name() << " | " << form << " | " << fmt_int(nmax) << " |";
        for (const char* m : {"bb", "ltm-r"}) {
          std::vector<double> ms, lb;
          for (const Row& r : t->rows())
            if (r.s("map") == m && selected(r, s) && r.d("N") == nmax) {
              ms.push_back(r.d("median_ms"));
              lb.push_back(r.d("launched_blocks"));
            }
          const double tm = median(ms), b = median(lb);
          o << " " << (std::isfinite(tm) ? fmt_g(tm, 4) : "—") << " | " << (std::isfinite(b) ? fmt_int(b) : "—") << " | "
            << (std::isfinite(tm) && std::isfinite(b) && tm > 0 ? fmt_g(b / tm / 1000, 4) : "—") << " |";
        }
        o << "\n";
      }
    o << "\nLaunch rate = launched_blocks / median_ms / 1000 (millions of blocks per second), at the largest N of "
         "each form.\n\n";
  }
  // the papers' dummy-kernel numbers (Kepler), from reported.csv
  std::vector<std::string> kepler;
  for (const Claim& c : ctx.claims) {
    bool dummy = c.id.find("-dummy-") != std::string::npos;
    for (const Mark& m : c.marks) dummy = dummy || m.fig == "fig5_dummy";
    if (dummy && c.pv.numeric())
      kepler.push_back("`" + c.id + "` " + c.quantity + ": " +
                       (c.unit == "rank" ? "rank " + c.value : c.value + (c.unit.empty() ? "" : " " + c.unit)) + " (" +
                       c.gpu + ")");
  }
  if (!kepler.empty()) {
    o << "The papers' dummy-kernel values (Kepler GPUs, `" << ctx.reported << "`):\n\n";
    for (const std::string& k : kepler) o << "- " << cell(k) << "\n";
    o << "\n";
  }
  // The explanation, generated from the same rows (no prose with typed numbers).
  std::vector<std::string> why;
  for (const auto& [g, t] : gs) {
    std::vector<double> rates;
    double ratio = NAN, nmax = NAN;
    for (const std::string& form : forms) {
      Sel s;
      if (t->has("form")) s.eq["form"] = form;
      for (const Row& r : t->rows())
        if (r.s("map") == "bb" && selected(r, s) && !(r.d("N") <= nmax)) nmax = r.d("N");
      double lb[2] = {NAN, NAN};
      int k = 0;
      for (const char* m : {"bb", "ltm-r"}) {
        std::vector<double> ms, b;
        for (const Row& r : t->rows())
          if (r.s("map") == m && selected(r, s) && r.d("N") == nmax) {
            ms.push_back(r.d("median_ms"));
            b.push_back(r.d("launched_blocks"));
          }
        if (!ms.empty() && median(ms) > 0) rates.push_back(median(b) / median(ms) / 1e6);
        lb[k++] = median(b);
      }
      ratio = lb[0] / lb[1];
    }
    if (rates.size() < 2) continue;
    why.push_back(g->name() + ": BB and ltm-r launch " + fmt_g(*std::min_element(rates.begin(), rates.end()), 3) + "–" +
                  fmt_g(*std::max_element(rates.begin(), rates.end()), 3) +
                  "·10⁹ blocks/s in both forms at N = " + fmt_int(nmax) + " (the table above), and BB launches " +
                  fmt(ratio, 4) + " times ltm-r's blocks there: a kernel whose time is its launched blocks over one "
                  "rate has I = that block ratio");
  }
  std::string sass;
  if (const Table* mi = ctx.cpu.get("map_instructions.csv")) {
    std::vector<std::string> v;
    for (const char* m : {"ltm-r", "ltm-e", "ltm-r-sq"})
      for (const Row& r : mi->rows())
        if (r.s("map") == m && r.s("dim") == "2" && r.s("index_bits") == "32" && r.s("form") == "cond")
          v.push_back(std::string(m) + " " + r.s("map_instructions"));
    if (!v.empty())
      sass = "The maps add few instructions per thread over a map-free kernel on the 32-bit path (SASS, sm_90, "
             "`experiments/results/cpu/map_instructions.csv`, form cond): " + join(v, ", ") + ".";
  }
  o << "**What the rows above show.** ";
  if (!why.empty()) o << join(why, "; ") << ". ";
  o << sass << " The papers' GPUs (Kepler) cannot be measured here (CUDA 13 has no code for sm_30/sm_35): why their "
       "I stays near the values listed above is *reason not measured* in this package; the block-rate reading applies "
       "to the GPUs measured only.\n\n";
}
// The tally, split by what a verdict rests on (issue #35 item 3): for each GPU column the claims judged on that GPU's
// measurements under the paper's conditions; once, the claims of the map library or the CPU oracle (counting and
// formula facts, the same whatever GPU folder they are computed for); "context" rows apart. Each cell gives the count
// and, beside it, how many of them are within the run-to-run noise (per verdict, never pooled).
void split_tally(std::ostream& o, const Ctx& ctx, const std::vector<std::vector<Outcome>>& out,
                 const std::vector<const GpuData*>& cols, bool names) {
  const auto col_name = [&](const GpuData* g) {
    return g ? (names ? g->name() : "`" + g->slug + "`") : std::string("no GPU data");
  };
  o << "| verdict |";
  for (const GpuData* g : cols) o << " " << col_name(g) << ": GPU measurement under the paper's conditions |";
  o << " library / CPU (counting and formula facts, once) |\n|---|";
  for (size_t k = 0; k <= cols.size(); ++k) o << "---|";
  o << "\n";
  const auto cellv = [](size_t n, size_t noise) {
    return std::to_string(n) + (noise ? " (" + std::to_string(noise) + " within noise)" : "");
  };
  const std::vector<const char*> verdicts = {"holds", "differs", "depends on the reading", "not measured", "context"};
  std::vector<size_t> tot(cols.size() + 1, 0);
  for (const char* v : verdicts) {
    o << "| " << v << " |";
    for (size_t k = 0; k <= cols.size(); ++k) {
      const bool lib = k == cols.size();
      size_t n = 0, noise = 0;
      for (size_t i = 0; i < ctx.claims.size(); ++i) {
        if (needs_gpu(ctx.claims[i].id) == lib) continue;
        const Outcome& r = out[i][lib ? 0 : k];
        if (r.verdict != v) continue;
        ++n;
        noise += r.noise;
      }
      tot[k] += n;
      o << " " << cellv(n, noise) << " |";
    }
    o << "\n";
  }
  o << "| total |";
  for (size_t k = 0; k <= cols.size(); ++k) o << " " << tot[k] << " |";
  o << "\n";
}

void claims_section(std::ostream& o, const Ctx& ctx) {
  o << "## 5. Claims: the papers' values beside ours\n\n";
  if (ctx.claims.empty()) {
    o << "`" << ctx.reported << "` is missing: no claims.\n\n";
    return;
  }
  std::vector<const GpuData*> cols;
  for (const GpuData& g : ctx.gpus) cols.push_back(&g);
  if (cols.empty()) cols.push_back(nullptr);
  // outcomes
  std::vector<std::vector<Outcome>> out(ctx.claims.size());
  for (size_t i = 0; i < ctx.claims.size(); ++i)
    for (const GpuData* g : cols) out[i].push_back(evaluate(ctx.claims[i], g, ctx));
  // summary: the tally split by what each verdict rests on
  split_tally(o, ctx, out, cols, false);
  o << "\n";
  o << "**No Kepler GPU is available here** (CUDA 13 has no code for the papers' sm_30/sm_35 GPUs), so no number of "
       "the papers' GPUs is measured. Each \"differs\" row instead gives the measured quantity that sets our value "
       "(the time per launched block and the papers' own k = τ/β, the empty-block floor, a useful block's cost, the "
       "share of the write bandwidth, how the paper's N fills the GPU, a root's radicand) and the value that quantity "
       "would need on the paper's GPU for the claim to agree.\n\n";
  o << "Each claim counts once (statements that 000 and 001 make identically are one row), in one column kind: a claim "
       "judged on GPU measurements counts in each GPU's column; a claim of the map library or the CPU oracle (a count, "
       "a formula, an exact range searched on the CPU) has the same verdict whatever GPU folder it is computed for and "
       "counts once, in the last column. Only the GPU columns' \"holds\" are reproductions by a measurement under the "
       "paper's conditions. \"Within noise\" is given per verdict: a verdict within its run-to-run spread of the "
       "boundary. \"context\" rows put ours beside a number "
       "of other hardware and carry no verdict; \"not measured\" rows say which CSV rows they need. Where the paper "
       "does not fix a condition (LTM's grid, the rounding mode), every reading is computed side by side and the "
       "claim counts as holds or differs only when every measured reading agrees; otherwise \"depends on the "
       "reading\", with the readings named in its row.\n\n";
  if (cols.size() > 1) {
    // the claims whose verdict depends on the GPU
    std::vector<std::string> split;
    for (size_t i = 0; i < ctx.claims.size(); ++i) {
      bool same = true;
      for (size_t k = 1; k < cols.size(); ++k) same = same && out[i][k].verdict == out[i][0].verdict;
      if (same) continue;
      std::vector<std::string> v;
      for (size_t k = 0; k < cols.size(); ++k) v.push_back(cols[k]->slug + " " + out[i][k].verdict);
      split.push_back("`" + ctx.claims[i].id + "` (" + join(v, ", ") + ")");
    }
    o << "Each claim measured on a GPU has one row per GPU below, its verdict computed on that GPU's results alone. "
      << (split.empty() ? std::string("Every verdict is the same on every GPU.")
                        : "Verdicts that differ between the GPUs (" + std::to_string(split.size()) + "): " +
                              join(split, "; ") + ".")
      << "\n\n";
  }
  // the conditions of every claim family (paper/conditions.csv), with the paper's words
  {
    std::vector<std::string> fams;
    std::map<std::string, std::vector<std::string>> members;
    for (const Claim& c : ctx.claims) {
      if (std::find(fams.begin(), fams.end(), c.family) == fams.end()) fams.push_back(c.family);
      members[c.family].push_back(c.id);
    }
    o << "**Conditions.** Each claim's conditions are data (`paper/conditions.csv`, the family in column "
         "`conditions` of `paper/reported.csv`): what our rows use, and the paper's words that fix it, or \"not "
         "stated\". A condition the paper does not fix is read every reasonable way where the data allow (its "
         "readings), side by side in the claim's row: the block side ρ at 16 and 32, the rounding mode as FMA and "
         "pinned. The grid of LTM is fixed by both papers (the balanced n'×n' grid): judged there where measured, the "
         "linear grid shown beside.\n\n";
    o << "| family | claims | condition | ours | fixed by (the paper's words) | readings |\n|---|---|---|---|---|---|\n";
    for (const std::string& f : fams) {
      const Claim* any = nullptr;
      for (const Claim& c : ctx.claims)
        if (c.family == f) { any = &c; break; }
      bool first = true;
      for (const Condition& k : any->conds) {
        o << "| " << (first ? "`" + f + "`" : "″") << " | " << (first ? std::to_string(members[f].size()) : "") << " | "
          << k.name << " | " << cell(k.ours) << " | " << cell(k.fixed_by) << " | "
          << (k.readings.empty() ? "—" : cell(join(k.readings, ", "))) << " |\n";
        first = false;
      }
      if (first) o << "| `" << f << "` | " << members[f].size() << " | — | — | not in paper/conditions.csv | — |\n";
    }
    o << "\n";
  }
  // the table, one part per seed: a claim measured on the GPUs has one row per GPU (its
  // verdict computed on that GPU's results); a claim of the map library / CPU oracle has one row
  std::string seed;
  for (size_t i = 0; i < ctx.claims.size(); ++i) {
    const Claim& c = ctx.claims[i];
    if (c.seed != seed) {
      seed = c.seed;
      o << "\n**" << seed << (seed.find('+') != std::string::npos ? " (stated identically in both)" : "")
        << "**\n\n| id | § | claim | paper (GPU) | ours on | ours | verdict |\n"
           "|---|---|---|---|---|---|---|\n";
    }
    const bool gpu = needs_gpu(c.id);
    const size_t rows = gpu ? cols.size() : 1;
    for (size_t k = 0; k < rows; ++k) {
      if (k == 0)
        o << "| `" << c.id << "` | " << cell(c.section) << " | " << cell(c.quantity) << " | " << cell(c.value)
          << (c.unit.empty() || c.unit == "set" ? "" : " " + cell(c.unit)) << " (" << cell(c.gpu) << "; conditions `"
          << c.family << "`) | ";
      else
        o << "| `" << c.id << "` | | ″ | | ";
      const std::string on = !gpu ? "library / CPU" : cols[k] ? "`" + cols[k]->slug + "`" : "no GPU data";
      const Outcome& r = out[i][k];
      o << on << " | " << cell(r.ours) << " | **" << r.verdict << "**" << (r.noise ? " (within noise)" : "")
        << (r.reason.empty() ? "" : ": " + cell(r.reason))
        << " |\n";
    }
  }
  o << "\nRules (how each \"ours\" is computed):\n\n| id | rule |\n|---|---|\n";
  for (const Claim& c : ctx.claims) {
    const std::vector<double> rhos = rho_readings(c);
    std::vector<std::string> rs;
    for (double r : rhos) rs.push_back(fmt_int(r));
    o << "| `" << c.id << "` | " << cell(rule_text(c.id))
      << (rhos.size() > 1 ? " — evaluated at each ρ reading (" + join(rs, ", ") + "), the same rule with that ρ" : "")
      << " |\n";
  }
  o << "\n";
}

// Issue targets (ours; no paper claim): the targets an issue of this package set for its own kernels, judged on
// each GPU folder's CSVs by the same rows as README's blocks (gram_targets, src/support/results/readme_gram.cpp).
// Not claims of the papers: not in the tally above.
void targets_section(std::ostream& o, const Ctx& ctx) {
  std::vector<std::pair<const GpuData*, std::vector<GramTarget>>> per;
  for (const GpuData& g : ctx.gpus) {
    std::vector<GramTarget> v = gram_targets(g);
    if (!v.empty()) per.emplace_back(&g, std::move(v));
  }
  // issue #26's target: >= 2.5e12 pair distances/s at N = 10^6 on one GPU (sdh.csv, the fastest version there)
  constexpr double kSdhTarget = 2.5e12;
  std::vector<std::string> sdh_rows;
  for (const GpuData& g : ctx.gpus)
    if (const Table* t = g.get("sdh.csv")) {
      const Row* best = nullptr;
      std::vector<Row> rows = t->rows();
      for (const Row& r : rows)
        if (r.d("N") == 1e6 && (!best || r.d("pairs_per_s") > best->d("pairs_per_s"))) best = &r;
      if (!best) continue;
      const double v = best->d("pairs_per_s");
      sdh_rows.push_back("| `26-sdh` | SDH ≥ " + fmt_g(kSdhTarget, 2) + " pair distances/s at N = 1,000,000, one GPU | `" +
                         g.slug + "` | `" + best->s("impl") + "` (`sdh.csv`, commit " + t->meta_or("commit", "?") + ") | " +
                         fmt_g(v, 4) + " (" + fmt(100 * v / kSdhTarget, 1) + " % of the target) | **" +
                         (v >= kSdhTarget ? "met" : "missed") + "** |\n");
    }
  if (per.empty() && sdh_rows.empty()) return;
  o << "### Issue targets (ours; no paper claim)\n\n";
  if (!sdh_rows.empty()) {
    o << "Issue #26 (SDH near the hardware ceiling, `experiments/sdh/`): the fastest version of each GPU folder's "
         "`sdh.csv` at N = 10⁶, every version checked before it was timed.\n\n"
         "| id | target | ours on | ours (kernel) | measured | verdict |\n|---|---|---|---|---|---|\n";
    for (const std::string& r : sdh_rows) o << r;
    o << "\n";
  }
  if (per.empty()) return;
  o << ""
       "Targets that issue #27 (tensor-core pairwise distances over the triangle, `experiments/gram/`) set for our own "
       "kernels, judged on each GPU folder's `gram.csv` (and `peers_gram.csv` for torch.cdist) at N ∈ {32768, 65536} × "
       "d ∈ {64, 128, 256}, with our fastest LTM-E kernel at each size; met / missed / met at some sizes. No paper "
       "states them: they are not in the tally above. README's gram block prints the same rows.\n\n"
       "| id | target | ours on | ours (kernel) | measured | verdict |\n|---|---|---|---|---|---|\n";
  for (const auto& [g, v] : per)
    for (const GramTarget& x : v)
      o << "| `" << x.id << "` | " << cell(x.target) << " | `" << g->slug << "` | " << cell(x.kernel) << " | "
        << cell(x.measured) << " | **" << x.verdict << "**" << (x.where.empty() ? "" : ": " + cell(x.where)) << " |\n";
  o << "\n";
}

// Peers' triangular index formulas (issue #27 item 6): experiments/results/cpu/peer_index_audit.csv
// (experiments/gram/peer_index_audit), each peer's formula restated from its published description
// (src/support/gram/peer_formulas.hpp) beside ours. Not claims of the papers: not in the tally.
void peers_index_section(std::ostream& o, const Ctx& ctx) {
  const Table* t = ctx.cpu.get("peer_index_audit.csv");
  if (!t || t->rows().empty()) return;
  o << "### Peers' triangular index formulas (issue #27 item 6)\n\n"
       "The first index each triangular index formula gets wrong, from `experiments/results/cpu/peer_index_audit.csv` "
       "(`experiments/gram/peer_index_audit`): the peers' formulas restated from their published descriptions "
       "(`src/support/gram/peer_formulas.hpp`; no peer code copied) beside ours, LTM-E as the Gram kernels call it. "
       "Searched at every row's first index and its two neighbours (a proof where the formula's row is monotone in "
       "the index) and at every index of a small range. *May be wrong* is a proof bound, not an error seen: whether "
       "some value within the instruction's documented error gives another row. Not claims of the papers: not in "
       "the tally above.\n\n"
       "| formula | restated from | index | searched | first wrong index | its row (right row) | verdict |\n"
       "|---|---|---|---|---|---|---|\n";
  for (const Row& r : t->rows()) {
    const std::string fw = r.s("first_wrong");
    std::string where = fw.empty() ? "—" : fw;
    if (!fw.empty() && !r.s("points_n").empty()) where += " (n = " + r.s("points_n") + ")";
    const std::string rows = fw.empty() ? "—" : r.s("first_wrong_row") + " (" + r.s("right_row") + ")";
    o << "| " << cell(r.s("formula")) << " | " << cell(r.s("source")) << " | " << cell(r.s("index_type")) << " | "
      << cell(r.s("searched_range")) << " | " << cell(where) << " | " << cell(rows) << " | **" << cell(r.s("verdict"))
      << "**" << (r.s("note").empty() ? "" : ": " + cell(r.s("note"))) << " |\n";
  }
  o << "\n";
}

}  // namespace

std::string readme_claims_block(const Ctx& ctx) {
  std::ostringstream o;
  o << "<!-- written by tdmaps_figures --readme from the claim rules (paper/claims/): the same verdicts as "
       "paper/report.md §5 -->\n";
  if (ctx.claims.empty()) return o.str() + "No claims table (paper/reported.csv).\n";
  std::vector<const GpuData*> cols;
  for (const GpuData& g : ctx.gpus) cols.push_back(&g);
  if (cols.empty()) cols.push_back(nullptr);
  std::vector<std::vector<Outcome>> out(ctx.claims.size());
  for (size_t i = 0; i < ctx.claims.size(); ++i)
    for (const GpuData* g : cols) out[i].push_back(evaluate(ctx.claims[i], g, ctx));
  split_tally(o, ctx, out, cols, true);
  std::vector<std::string> dep;
  for (size_t i = 0; i < ctx.claims.size(); ++i) {
    std::vector<std::string> splits;  // each GPU's, once when the GPUs agree
    bool any = false;
    for (size_t k = 0; k < cols.size(); ++k) {
      const bool dep_k = out[i][k].verdict == "depends on the reading";
      any = any || dep_k;
      splits.push_back((cols[k] ? cols[k]->name() + ": " : std::string()) + (dep_k ? out[i][k].split : out[i][k].verdict));
    }
    if (!any) continue;
    bool same = true;
    for (size_t k = 0; k < cols.size(); ++k)
      same = same && out[i][k].verdict == out[i][0].verdict && out[i][k].split == out[i][0].split;
    dep.push_back("`" + ctx.claims[i].id + "` (" + (same ? out[i][0].split : join(splits, "; ")) + ")");
  }
  {  // the headline: only a GPU column's "holds" is a reproduction by a measurement under the paper's conditions
    std::vector<std::string> rep;
    for (size_t k = 0; k < cols.size(); ++k) {
      size_t n = 0;
      for (size_t i = 0; i < ctx.claims.size(); ++i) n += needs_gpu(ctx.claims[i].id) && out[i][k].verdict == "holds";
      rep.push_back(std::to_string(n) + (cols[k] ? " on the " + cols[k]->name() : std::string()));
    }
    size_t lib = 0;
    for (size_t i = 0; i < ctx.claims.size(); ++i) lib += !needs_gpu(ctx.claims[i].id) && out[i][0].verdict == "holds";
    o << "\nReproduced by a GPU measurement under the paper's conditions: " << join(rep, ", ") << " (\"holds\" in a GPU "
      << "column). A further " << lib << " hold as counting or formula facts of the map library or the CPU oracle, "
      << "which need no GPU.\n";
  }
  o << "\n" << ctx.claims.size() << " claims of the papers 000–004 (four papers; 002 is a second text extraction of 001), each judged under the conditions its paper states "
    << "(`paper/conditions.csv`, with the paper's words); where the paper leaves a condition open (the block side ρ, "
    << "the rounding mode) every reading is computed and the claim counts as holds or differs only if all agree. "
    << "LTM is judged on the balanced n'×n' grid both papers fix; a reading with no measured rows does not vote "
    << "(\"not measured\").";
  {  // the GPU folders whose square-root, EDM or collision CSV has no LTM rows on the papers' grid
    std::vector<std::string> none;
    for (const GpuData* g : cols) {
      if (!g) continue;
      std::vector<std::string> files;
      for (const char* f : {"sqrt.csv", "edm.csv", "collision.csv"}) {
        const Table* t = g->get(f);
        bool sq = false;
        if (t)
          for (const Row& r : t->rows()) sq = sq || r.s("map") == pick_rows::on_grid(pick_rows::Grid::Papers, "ltm-r");
        if (!sq) files.push_back(f);
      }
      if (!files.empty()) none.push_back(g->name() + " (" + join(files, ", ") + ")");
    }
    if (!none.empty()) o << " No n'×n' rows yet: " << join(none, "; ") << ".";
  }
  if (!dep.empty()) o << " Depending on the reading (" << dep.size() << "): " << join(dep, "; ") << ".";
  o << "\n";
  return o.str();
}

bool write_report(const Ctx& ctx, std::string* err) {
  std::ostringstream o;
  o << "# tdmaps — reproduction report\n\n";
  o << "*Generated by `tdmaps_figures` (figures/, claims and report: paper/claims/) from `" << ctx.results << "/`, `" << ctx.cpu_exact << "` and `"
    << ctx.reported << "`. Do not edit: change the program or the CSVs and run `make figures` again.*\n\n";
  o << "## 1. What is reproduced\n\n";
  const std::vector<std::string> keys = bib_keys(ctx.bib);
  o << "| seed | paper | what we redo |\n|---|---|---|\n";
  o << "| `000_dc8ca915cfc23e3c.txt` | Navarro & Hitschfeld, *GPU maps for the space of computation in triangular "
       "domain problems* (HPCC 2014) | g(λ) and its square roots (Fig. 3), BB / RB / REC / UTM on the dummy kernel, "
       "EDM and collision detection (Fig. 5), the bound I < 2, the ε range |\n";
  o << "| `001_76513e4fc7b63a5f.txt` | Navarro & Hitschfeld, *Improving the GPU space of computation under triangular "
       "domain problems* | the earlier version: dummy and EDM with 1–4 features, I vs features |\n";
  o << "| `002_6c9ed4dc0088009a.txt` | a second text extraction of 001 (the same paper), not a copy: the two "
       "extractions differ in places, each with its own errors (below) | its statements are 001's and are counted "
       "once, under 001 |\n";
  o << "| `003_66f856975a7ab3ee.txt` | Navarro, Bustos & Hitschfeld, *Potential benefits of a block-space GPU approach "
       "for discrete tetrahedral domains* | the tetrahedral map g(λ): ℕ → ℕ³ and the blocked layout; the 6× and 2× "
       "predictions measured |\n";
  o << "| `004_aba88004bd1c502c.txt` | *Fast GPU implementation of Spatial Distance Histogram Computation* | the SDH "
       "optimisation ladder against a CPU baseline |\n\n";
  o << "A statement that 000 and 001 make identically is one claim row citing both (id `000+001-…`), so each claim "
       "counts once in the tally.\n\n";
  o << "Where 001 and 002 disagree, both were read. 001's text gives eq. (6)'s constant as c = −2λ and 002's as "
       "c = −2 (002's eq. (6) itself, x² + x − 2λ = 0, keeps the λ): the package reads c = −2λ, which eq. (6) of "
       "both implies. 001 prints eq. (16) as √x = x / rsqrtf(x), which is x^1.5, and 002 as √x = x/√x = "
       "x·rsqrtf(x): the package uses x·rsqrtf(x) (the second form of 000's eq. (15), and what the name LTM-R and "
       "the ε of §III-A describe). 000's eq. (15) itself prints the chain √x = x/rsqrtf(x) = x·rsqrtf(x), so the "
       "x/rsqrtf(x) of 001 is in 000 too, not only an extraction artefact; claims `001-eq16-printed` and "
       "`000-eq15-printed` judge the printed forms.\n\n";
  if (!keys.empty()) o << "BibTeX: `" << ctx.bib << "` (" << join(keys, ", ") << ").\n\n";
  setup_section(o, ctx);
  method_section(o, ctx);
  figures_section(o, ctx);
  claims_section(o, ctx);
  targets_section(o, ctx);
  peers_index_section(o, ctx);
  hopper_section(o, ctx);
  o << "## 7. Notices\n\n";
  if (ctx.notices.empty()) o << "None: every figure was drawn.\n";
  for (const std::string& n : ctx.notices) o << "- " << cell(n) << "\n";
  std::error_code ec;
  const fs::path parent = fs::path(ctx.report).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  std::ofstream f(ctx.report);
  if (!f) {
    if (err) *err = "cannot write " + ctx.report;
    return false;
  }
  f << o.str();
  return bool(f);
}

}  // namespace figs
