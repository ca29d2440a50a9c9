// figures/gallery.cpp — the README gallery: the block between <!-- gallery:begin --> and
// <!-- gallery:end --> rewritten from the registry's gallery entries (figures.hpp), two
// images a row, each the comparison figure gpus_<name> where this run drew it, else the
// first GPU's <name> (h200 first), else the figure without GPU data <name>.
#include "figures.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace figs {
namespace {


// The markers' positions: begin at *b, end at *e (after begin); false when either is missing.
bool find_markers(const std::string& text, size_t* b, size_t* e) {
  *b = text.find(kGalleryBegin);
  if (*b == std::string::npos) return false;
  *e = text.find(kGalleryEnd, *b);
  return *e != std::string::npos;
}

// The PNG this run drew for a gallery entry ("" if none).
std::string image_of(const Ctx& ctx, const FigureEntry& e) {
  const auto drawn = [&](const std::string& name) -> std::string {
    for (const FigRec& r : ctx.figs)  // per-GPU records are in ctx.gpus' order: h200 first
      if (r.name == name && r.ok && !r.png.empty()) return r.png;
    return "";
  };
  if (e.scope == Scope::per_gpu) {
    const std::string cmp = drawn("gpus_" + e.name);
    if (!cmp.empty()) return cmp;
  }
  return drawn(e.name);
}

}  // namespace

std::string gallery_check(const std::string& readme) {
  std::string text;
  if (!tmpl::read_text(readme, &text)) return readme + ": cannot be read";
  size_t b, e;
  if (!find_markers(text, &b, &e))
    return readme + ": no " + kGalleryBegin + " ... " + kGalleryEnd + " block";
  return "";
}

bool write_gallery(const Ctx& ctx, const std::string& readme, std::string* err) {
  std::vector<const FigureEntry*> entries;
  for (const FigureEntry& e : figure_registry())
    if (e.gallery > 0) entries.push_back(&e);
  std::stable_sort(entries.begin(), entries.end(),
                   [](const FigureEntry* a, const FigureEntry* b) { return a->gallery < b->gallery; });
  std::vector<std::string> cells, missing;
  for (const FigureEntry* e : entries) {
    const std::string png = image_of(ctx, *e);
    if (png.empty()) missing.push_back(e->name);
    else cells.push_back("![" + e->alt + "](" + rel_to(png, readme) + ")");
  }
  if (cells.size() % 2) cells.push_back("");
  std::string block = std::string(kGalleryBegin) +
                      "\n<!-- written by tdmaps_figures --readme-gallery from the figure registry "
                      "(figures/figures.hpp): edit the registry, not this table -->\n";
  if (!cells.empty()) {
    block += "| | |\n|---|---|\n";
    for (size_t k = 0; k < cells.size(); k += 2) block += "| " + cells[k] + " | " + cells[k + 1] + " |\n";
  }
  std::string text;
  if (!tmpl::read_text(readme, &text)) {
    *err = readme + ": cannot be read";
    return false;
  }
  size_t b, e;
  if (!find_markers(text, &b, &e)) {
    *err = readme + ": no " + std::string(kGalleryBegin) + " ... " + kGalleryEnd + " block";
    return false;
  }
  const std::string out = text.substr(0, b) + block + text.substr(e);
  if (!missing.empty())
    std::cerr << "note: " << readme << " gallery: not drawn in this run, left out: " << join(missing, ", ") << "\n";
  if (out == text) return true;
  std::ofstream o(readme, std::ios::binary | std::ios::trunc);
  o << out;
  if (!o) {
    *err = readme + ": cannot be written";
    return false;
  }
  return true;
}

}  // namespace figs
