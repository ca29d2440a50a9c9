// figures/tdmaps_figures.cpp — `make figures`'s drawing program: every figure of
// the reproduced papers redrawn from our results, and paper/report.md.
//
//   tdmaps_figures [--results experiments/results] [--out figures/out] [--gpu SLUG]
//                  [--reported paper/reported.csv] [--report paper/report.md]
//                  [--cpu-exact verify/results/exact_ranges_cpu.csv] [--no-svg] [--no-report]
//                  [--readme-gallery README.md] [--captions figures/captions.template.md] [--check-captions]
//                  [--readme-template src/support/results/readme.template.md] [--check-readme-template]
//
// The figures are the entries of the registry (figures.hpp, figure_registry()), drawn by
// the fig_*.cpp files; their captions and readings are figures/captions.template.md's sections,
// filled by the draw functions (captions.hpp); this file reads the options, checks the captions
// against the registry, finds the GPU folders and runs them.
//
// Results: <results>/<gpu_slug>/*.csv (one folder per GPU; every folder but cpu/)
// and <results>/cpu/. Every file is read by column name; a missing file or column
// skips that figure with a one-line notice. Figures that need no GPU data (wasted
// blocks from the map library, the CPU oracle's exact ranges) are always drawn:
// the program exits 0 when they were, 1 when even they could not be drawn (no
// gnuplot), 2 on bad arguments (and a --readme-gallery file without the markers, a captions
// file that does not serve the registry, a slot a draw function does not fill, a README template
// (src/support/results/readme_template.hpp) without a section its blocks fill or with a slot they do not).
//
// Output: <out>/<name>.png and .svg for the figures without GPU data,
// <out>/<gpu_slug>/<name>.png and .svg for each GPU's (h200 first, then by slug),
// <out>/gpus_<name>.png and .svg with every GPU in one figure (two GPUs or more);
// paper/report.md; with --readme-gallery, the README's gallery block.
// Paper values (paper/reported.csv, column figure = "fig[:map][@x]") are drawn on
// the figure they belong to as open marks: colour of the map, shape of the paper
// and GPU.
#include "claims.hpp"
#include "figures.hpp"
#include "model.hpp"
#include "plot.hpp"
#include "readme.hpp"
#include "report.hpp"
#include "targets.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <iostream>

namespace fs = std::filesystem;
namespace po = boost::program_options;
using namespace figs;
using namespace claims;  // the claims, the targets and the report (paper/claims/)

namespace {

std::vector<GpuData> find_gpus(const std::string& results, const std::string& only, Ctx& ctx) {
  std::vector<GpuData> v;
  std::error_code ec;
  if (!fs::is_directory(results, ec)) {
    ctx.notice("results folder " + results + " not found: only the figures without GPU data are drawn");
    return v;
  }
  for (const auto& e : fs::directory_iterator(results, ec)) {
    if (!e.is_directory()) continue;
    const std::string slug = e.path().filename().string();
    if (slug == "cpu" || slug.empty() || slug[0] == '.') continue;
    if (!only.empty() && slug != only) continue;
    GpuData g;
    g.slug = slug;
    g.dir = e.path().string();
    if (g.files().empty()) continue;
    v.push_back(std::move(g));
  }
  // h200 first (the reference GPU of the committed results), then the others by slug
  std::sort(v.begin(), v.end(), [](const GpuData& a, const GpuData& b) {
    return (a.slug == "h200") != (b.slug == "h200") ? a.slug == "h200" : a.slug < b.slug;
  });
  if (!only.empty() && v.empty()) ctx.notice("--gpu " + only + ": no folder " + results + "/" + only + " with CSVs");
  if (only.empty() && v.empty()) ctx.notice("no GPU results under " + results + ": only the figures without GPU data are drawn");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  Ctx ctx;
  std::string gpu, gallery;
  bool no_report = false;
  po::options_description d("tdmaps_figures: redraws every figure from the results and writes the report\noptions");
  d.add_options()("help,h", "show this help")("version", "print the version and stop")
      ("results", po::value(&ctx.results)->default_value(ctx.results), "results folder (<gpu_slug>/ and cpu/)")
      ("out", po::value(&ctx.out)->default_value(ctx.out), "output folder of the PNG and SVG files")
      ("gpu", po::value(&gpu), "draw only this GPU's folder (default: every GPU folder found)")
      ("reported", po::value(&ctx.reported)->default_value(ctx.reported), "the papers' values")
      ("cpu-exact", po::value(&ctx.cpu_exact)->default_value(ctx.cpu_exact), "the CPU oracle's exact-range table")
      ("report", po::value(&ctx.report)->default_value(ctx.report), "the report to write")
      ("report-template", po::value(&ctx.report_template),
       "the report's prose, with the named slots the program fills (default: report.template.md beside --reported)")
      ("captions", po::value(&ctx.captions),
       "the figures' captions and readings, with the named slots the draw functions fill (default: "
       "figures/captions.template.md of the repository whose paper/ holds --reported)")
      ("check-captions", "check the captions file against the figure registry (every figure has its section, every "
                         "section and partial serves one) and stop")
      ("bib", po::value(&ctx.bib)->default_value(ctx.bib), "BibTeX of the reproduced papers (cited by the report)")
      ("no-svg", po::bool_switch(), "PNG only")
      ("no-report", po::bool_switch(&no_report), "do not write the report")
      ("readme-gallery", po::value(&gallery),
       "also rewrite the generated blocks of this README: the gallery (<!-- gallery:begin --> ... <!-- gallery:end -->) "
       "from the figures drawn in this run, and, where their markers are, the blocks results, targets, claims, maps, "
       "rounding, gram and python (<!-- name:begin/end -->) from the CSVs (src/support/results/readme.cpp, readme_gram.cpp, "
       "readme_python.cpp)")
      ("readme", po::value(&gallery), "the same as --readme-gallery")
      ("readme-template", po::value(&ctx.readme_template),
       "the prose of README's generated blocks, with the named slots the program fills (default: "
       "src/support/results/readme.template.md of the repository whose paper/ holds --reported)")
      ("check-readme-template", "check the README template (each section the blocks fill is there, each section and "
                                "partial there is filled or included) and stop")
      ("list", "print the figure registry, one figure a line (name, scope, gallery position, heading), and stop");
  po::variables_map vm;
  try {
    const po::parsed_options parsed = po::command_line_parser(argc, argv).options(d).run();
    for (const std::string& extra : po::collect_unrecognized(parsed.options, po::include_positional))
      throw std::runtime_error("unexpected argument '" + extra + "' (options start with --; see --help)");
    po::store(parsed, vm);
    if (vm.count("help")) {
      std::cout << d << "\nExit codes: 0 drawn (a figure whose data is missing is skipped with a notice); 1 no figure "
                       "could be drawn (gnuplot missing?); 2 bad input (the captions included).\n";
      return 0;
    }
    if (vm.count("version")) {
#ifndef TDMAPS_VERSION
#define TDMAPS_VERSION "unknown"
#endif
      std::cout << "tdmaps_figures (tdmaps) " << TDMAPS_VERSION << "\n";
      return 0;
    }
    if (vm.count("list")) {  // the registry as the tests read it (figures/smoke_test.sh, verify/test_throwaway_map.sh)
      for (const FigureEntry& e : figure_registry())
        std::cout << e.name << " " << scope_name(e.scope) << " " << e.gallery << " " << e.heading << "\n";
      return 0;
    }
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "tdmaps_figures: " << e.what() << "\n";
    return 2;
  }
  ctx.svg = !vm["no-svg"].as<bool>();
  if (!vm.count("report-template"))  // paper/reported.csv -> paper/report.template.md
    ctx.report_template = (std::filesystem::path(ctx.reported).parent_path() / "report.template.md").string();
  if (!vm.count("captions"))  // paper/reported.csv -> figures/captions.template.md
    ctx.captions =
        (fs::path(ctx.reported).parent_path() / ".." / "figures" / "captions.template.md").lexically_normal().string();
  {  // the captions before anything is drawn: a figure without its section, or a section of no figure, stops here
    std::vector<std::string> names;
    for (const FigureEntry& e : figure_registry()) names.push_back(e.name);
    const Captions& c = captions(ctx);
    const std::vector<std::string> bad = captions_problems(c, names);
    for (const std::string& b : bad) std::cerr << "tdmaps_figures: " << ctx.captions << ": " << b << "\n";
    if (!bad.empty()) return 2;
    if (vm.count("check-captions")) {
      std::cout << ctx.captions << ": " << c.sections.size() << " sections and " << c.partials.size()
                << " partials; each of the registry's " << names.size() << " figures has its section: ok\n";
      return 0;
    }
  }
  if (!vm.count("readme-template"))  // paper/reported.csv -> src/support/results/readme.template.md
    ctx.readme_template = (fs::path(ctx.reported).parent_path() / ".." / "src" / "support" / "results" / "readme.template.md")
                              .lexically_normal()
                              .string();
  if (!gallery.empty() || vm.count("check-readme-template")) {  // README's blocks' prose before anything is drawn
    std::string err;
    if (!load_readme_template(ctx.readme_template, &ctx.readme, &err)) {
      std::cerr << "tdmaps_figures: " << err << "\n";
      return 2;
    }
    const std::vector<std::string> bad = readme_template_problems(ctx.readme);
    for (const std::string& b : bad) std::cerr << "tdmaps_figures: " << ctx.readme_template << ": " << b << "\n";
    if (!bad.empty()) return 2;
    if (vm.count("check-readme-template")) {
      std::cout << ctx.readme_template << ": " << ctx.readme.sections.size() << " sections and "
                << ctx.readme.partials.size() << " partials; each section the blocks fill is there: ok\n";
      return 0;
    }
  }
  if (!gallery.empty()) {
    const std::string bad = gallery_check(gallery);
    if (!bad.empty()) {
      std::cerr << "tdmaps_figures: --readme-gallery " << bad << "\n";
      return 2;
    }
  }

  std::string why;
  if (!gnuplot_available(&why)) {
    ctx.gnuplot_ok = false;
    ctx.notice(why);
  }
  ctx.claims = load_claims(ctx.reported, &why);
  if (ctx.claims.empty()) ctx.notice(ctx.reported + ": " + (why.empty() ? "no claims" : why) + " (no paper marks, no claims table)");
  ctx.cpu_exact_table = read_table(ctx.cpu_exact, results::layout::exact_ranges_cpu, &why);
  if (!ctx.cpu_exact_table) ctx.notice(ctx.cpu_exact + ": " + why);
  ctx.cpu.slug = "cpu";
  ctx.cpu.dir = (fs::path(ctx.results) / "cpu").string();
  ctx.gpus = find_gpus(ctx.results, gpu, ctx);
  for (const GpuData& g : ctx.gpus) {
    std::cerr << "GPU " << g.slug << ": " << g.name() << ", commit " << (g.meta("commit").empty() ? "?" : g.meta("commit"))
              << ", " << (g.meta("date_utc").empty() ? "date ?" : g.meta("date_utc")) << " (" << g.files().size()
              << " CSV files in " << g.dir << ")\n";
  }

  for (const FigureEntry& e : figure_registry()) ctx.fig_order.emplace_back(e.name, e.heading);
  check_wasted3d(ctx);
  // every figure of the registry (figures.hpp): those without GPU data, each GPU's, then the
  // comparisons (every GPU in one figure: two GPUs or more)
  const auto draw_all = [&](Scope scope, const GpuData* g) {
    for (const FigureEntry& e : figure_registry())
      if (e.scope == scope && e.draw) e.draw(ctx, g);
  };
  draw_all(Scope::cpu_only, nullptr);
  size_t cpu_ok = 0;
  for (const FigRec& r : ctx.figs) cpu_ok += r.ok;
  for (const GpuData& g : ctx.gpus) draw_all(Scope::per_gpu, &g);
  draw_all(Scope::comparison, nullptr);
  size_t drawn = 0;
  for (const FigRec& r : ctx.figs) drawn += r.ok;
  std::cerr << "tdmaps_figures: " << drawn << " figure(s) drawn into " << ctx.out << ", " << (ctx.figs.size() - drawn)
            << " skipped\n";

  if (!no_report) {
    std::string err;
    if (!write_report(ctx, &err)) std::cerr << "tdmaps_figures: report not written: " << err << "\n";
    else std::cerr << "tdmaps_figures: wrote " << ctx.report << "\n";
  }
  if (!gallery.empty()) {
    // our targets' verdicts (paper/targets.csv, judged in paper/claims/targets.cpp): README's SDH sentences and gram block
    std::string twhy;
    const std::vector<TargetVerdict> verdicts = target_verdicts(ctx, &twhy);
    if (verdicts.empty() && !twhy.empty()) std::cerr << "tdmaps_figures: no target verdicts: " << twhy << "\n";
    std::vector<std::pair<std::string, std::string>> blocks;
    try {  // a section of the README template missing, or a slot of it not filled: nothing of README is written
      blocks = {{"results", readme_results_block(ctx, verdicts)},
                {"targets", readme_targets_block(ctx)},
                {"claims", readme_claims_block(ctx)},
                {"maps", readme_maps_block(ctx)},
                {"rounding", readme_rounding_block(ctx)},
                {"gram", readme_gram_block(ctx, verdicts)},
                {"python", readme_python_block(ctx, verdicts)}};
    } catch (const ReadmeTemplateError& e) {
      std::cerr << "tdmaps_figures: README not written (neither its gallery nor its blocks): " << e.what() << "\n";
      return 2;
    }
    std::string err;
    if (!write_gallery(ctx, gallery, &err)) std::cerr << "tdmaps_figures: gallery not written: " << err << "\n";
    else std::cerr << "tdmaps_figures: wrote the gallery of " << gallery << "\n";
    std::ifstream in(gallery, std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    std::string text = buf.str();
    const std::string before = text;
    for (const auto& [name, body] : blocks)
      if (!replace_block(text, name, body))
        std::cerr << "tdmaps_figures: " << gallery << " has no <!-- " << name << ":begin/end --> block: not written\n";
    if (text != before) {
      std::ofstream out(gallery, std::ios::binary | std::ios::trunc);
      out << text;
    }
    std::cerr << "tdmaps_figures: wrote the results blocks of " << gallery << "\n";
  }
  return cpu_ok > 0 ? 0 : 1;
}
