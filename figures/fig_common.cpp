// figures/fig_common.cpp — what every figure file uses: drawing a figure and recording it
// for the report (emit), recording one that cannot be drawn (skip), the table a figure needs.
#include "figures.hpp"
#include "registry/map_names.hpp"  // a map's family by name

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

namespace fs = std::filesystem;

namespace figs {

// ---- drawing and recording --------------------------------------------------------------
const Captions& captions(const Ctx& ctx) {
  static std::map<std::string, Captions> read;  // by path
  const auto it = read.find(ctx.captions);
  if (it != read.end()) return it->second;
  Captions c;
  std::string err;
  if (!load_captions(ctx.captions, &c, &err)) {
    std::cerr << "tdmaps_figures: " << err << "\n";
    std::exit(2);
  }
  return read.emplace(ctx.captions, std::move(c)).first->second;
}

void emit(Ctx& ctx, Figure& f, const GpuData* g, const Slots& slots) {
  FigRec r;
  r.name = f.name;
  r.gpu = g ? g->slug : "";
  std::string err;
  if (!fill_captions(captions(ctx), f.name, slots, &r.caption, &r.reading, &err)) {
    // the template's bug or the draw function's, not the data's: stop (figures_smoke and drift fail)
    std::cerr << "tdmaps_figures: " << err << (g ? " [" + g->slug + "]" : "") << "\n";
    std::exit(2);
  }
  if (!ctx.gnuplot_ok) {
    r.why = "gnuplot unavailable";
    ctx.figs.push_back(r);
    return;
  }
  const std::string dir = g ? (fs::path(ctx.out) / g->slug).string() : ctx.out;
  const Rendered out = render(f, dir, ctx.svg);
  r.ok = out.ok;
  r.png = out.png;
  r.svg = out.svg;
  if (!out.ok) {
    r.why = out.error;
    ctx.notice(f.name + (g ? " [" + g->slug + "]" : "") + ": not drawn: " + out.error);
  } else {
    std::cerr << "drew " << out.png << (ctx.svg ? " (+ .svg)" : "") << "\n";
  }
  ctx.figs.push_back(r);
}

void skip(Ctx& ctx, const std::string& name, const GpuData* g, const std::string& why) {
  // a figure drawn by an earlier run from data that is gone would contradict the report
  const fs::path dir = g ? fs::path(ctx.out) / g->slug : fs::path(ctx.out);
  std::error_code ec;
  for (const char* ext : {".png", ".svg"})
    if (fs::remove(dir / (name + ext), ec)) std::cerr << "removed stale " << (dir / (name + ext)).string() << "\n";
  FigRec r;
  r.name = name;
  r.gpu = g ? g->slug : "";
  r.why = why;
  ctx.figs.push_back(r);
  ctx.notice(name + (g ? " [" + g->slug + "]" : "") + ": skipped (" + why + ")");
}

// The table a figure needs, with the columns it needs; nullptr after a notice.
const Table* need(Ctx& ctx, const std::string& fig, const GpuData& g, const results::Layout& layout,
                  std::initializer_list<const char*> cols) {
  // a column the layout does not declare is the figure's bug, not the data's: stop (figures_smoke fails)
  const std::vector<std::string> declared = layout.names();
  for (const char* c : cols)
    if (std::find(declared.begin(), declared.end(), c) == declared.end()) {
      std::cerr << "tdmaps_figures: " << fig << " reads column " << c << ", not declared by " << layout.file
                << "'s layout (src/support/results/layouts.hpp)\n";
      std::abort();
    }
  const std::string file = layout.file;
  const Table* t = g.get(layout);
  if (!t) {
    skip(ctx, fig, &g, g.reason(layout));
    return nullptr;
  }
  const std::string miss = t->missing(cols);
  if (!miss.empty()) {
    skip(ctx, fig, &g, file + " lacks column(s) " + miss);
    return nullptr;
  }
  if (t->size() == 0) {
    skip(ctx, fig, &g, file + " has no rows");
    return nullptr;
  }
  return t;
}

std::string title_of(const std::string& what, const GpuData* g) {
  return g ? what + " — " + g->name() : what;
}

HLine bb_line() { return HLine{1.0, "BB (I = 1)", "#000000", 1, 1.4}; }

// The bounding box or cube (any of its names: bb-t, bb-fast, bb3; the registry's family) and the write bandwidth row.
bool is_reference(const std::string& m) {
  return tdmaps::in_family(m, tdmaps::map_family::bb) || m == results::kWriteBwMap;
}

std::vector<std::string> values_of(const Table& t, const std::string& col) {
  std::vector<std::string> v;
  for (const TableRow& r : t.rows())
    if (std::find(v.begin(), v.end(), r.s(col)) == v.end()) v.push_back(r.s(col));
  return v;
}
std::vector<std::string> col_values(const Table& t, const std::string& col) {
  std::vector<std::string> v;
  if (!t.has(col)) return {""};
  for (const TableRow& r : t.rows())
    if (std::find(v.begin(), v.end(), r.s(col)) == v.end()) v.push_back(r.s(col));
  return v;
}

}  // namespace figs
