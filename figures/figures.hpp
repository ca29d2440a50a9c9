// figures/figures.hpp — the figure registry and what the figure files share.
//
// figure_registry() is the one table of every figure: its order is the report's figure
// order (section 4 of paper/report.md), its draw functions are what main() calls, and its
// gallery positions make the README gallery (`tdmaps_figures --readme-gallery README.md`).
// Adding a figure = a draw function in a fig_*.cpp, declared below, one entry in the table at
// the end of this file and its section (caption and reading) in figures/captions.template.md
// (see CONTRIBUTING-figures.md).
#pragma once
#include "captions.hpp"
#include "looks.hpp"
#include "model.hpp"
#include "plot.hpp"

#include "layouts.hpp"

#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace figs {
using namespace results;  // the results layer (src/support/results/), which figs builds on

// ---- drawing and recording (fig_common.cpp) -------------------------------------------------
inline constexpr const char* kIlabel = "I = t_BB / t_map";

// A figure's slots: the numbers, names and lists its caption and reading take (captions.hpp).
using Slots = tmpl::Scope;
// Renders f into <out>[/<gpu>] and records it (name, GPU, caption, reading) for the report: the caption and
// reading are its section of figures/captions.template.md (found by f.name) filled from `slots`; a section
// missing or a slot not filled stops the program (exit 2).
void emit(Ctx& ctx, Figure& f, const GpuData* g, const Slots& slots);
// The captions file of ctx.captions, read once; the program stops (exit 2) when it cannot be read or parsed.
const Captions& captions(const Ctx& ctx);
// Records a figure as not drawn (with a notice) and removes an old PNG/SVG of it.
void skip(Ctx& ctx, const std::string& name, const GpuData* g, const std::string& why);
// The table a figure needs, opened through its layout, with the columns it needs (each one the layout
// declares, or the program stops); nullptr after a notice.
const Table* need(Ctx& ctx, const std::string& fig, const GpuData& g, const results::Layout& layout,
                  std::initializer_list<const char*> cols);
std::string title_of(const std::string& what, const GpuData* g);
HLine bb_line();
bool is_reference(const std::string& m);
std::vector<std::string> values_of(const Table& t, const std::string& col);
std::vector<std::string> col_values(const Table& t, const std::string& col);  // {""} without the column

// ---- the draw functions ---------------------------------------------------------------------
// fig_exact.cpp: no GPU data (the map library, the CPU oracle; exact_range adds each GPU's sweep)
void fig3_wasted(Ctx& ctx);
void exact_range(Ctx& ctx);
void tet_wasted(Ctx& ctx);
void check_wasted3d(Ctx& ctx);  // <results>/cpu/wasted3d.csv against the library (a check, no figure)
// fig_2d.cpp: one GPU's 2D figures
void fig3_sqrt(Ctx& ctx, const GpuData& g);       // + fig3_sqrt_rho32
void fig5_dummy(Ctx& ctx, const GpuData& g);      // + fig5_dummy_cond
void fig5_edm(Ctx& ctx, const GpuData& g, int features);  // fig5_edm_d<features> + _packed
void fig5_collision(Ctx& ctx, const GpuData& g, const std::string& dim);
void fig5_features(Ctx& ctx, const GpuData& g);
void edm_roofline(Ctx& ctx, const GpuData& g);
// fig_gram.cpp (issue #27): gram.csv, and I against the work per block across the experiments
void gram_time(Ctx& ctx, const GpuData& g);
void gram_roofline(Ctx& ctx, const GpuData& g);
void block_work_I(Ctx& ctx, const GpuData& g);
void gram_reductions(Ctx& ctx, const GpuData& g);  // issue #37: histogram and eps-count pairs/s
void gram_ladder(Ctx& ctx, const GpuData& g);      // issue #36: our kernels against the write
void gram_symmetric(Ctx& ctx, const GpuData& g);   // issue #36: BF16 X.X^T against cuBLAS
// fig_3d.cpp: one GPU's tetrahedral figures
void tet_I(Ctx& ctx, const GpuData& g);           // tet_I (ρ = 8, else the largest) + tet_I_rho<r>
void tet_layout(Ctx& ctx, const GpuData& g);
// fig_sdh.cpp
void sdh_ladder(Ctx& ctx, const GpuData& g);
void sdh_scaling(Ctx& ctx, const GpuData& g);
// fig_multigpu.cpp: SDH and three-body over several GPUs (sdh_multigpu.csv, threebody_multigpu.csv)
void multigpu_scaling(Ctx& ctx, const GpuData& g);
// fig_compare.cpp: gpus_<name>, every GPU in one figure (two GPU folders or more)
void cmp_fig3_sqrt(Ctx& ctx);
void cmp_fig5_dummy(Ctx& ctx);
void cmp_fig5_dummy_cond(Ctx& ctx);
void cmp_fig5_edm(Ctx& ctx, int features);
void cmp_fig5_collision(Ctx& ctx, const std::string& dim);
void cmp_tet_I(Ctx& ctx);                         // gpus_tet_I + gpus_tet_I_rho<r>
void cmp_tet_layout(Ctx& ctx);
void cmp_sdh_scaling(Ctx& ctx);

// Shared by a per-GPU figure and its comparison.
void tet_refs(const Ctx& ctx, Panel& p, int r, double xmax);  // fig_3d.cpp
std::string layout_curves(const Table& t, std::map<std::string, Pts>& out, std::map<std::string, std::string>& map_of,
                          std::map<std::string, std::string>& mode_of, double* rho_used);  // fig_3d.cpp
std::vector<std::pair<std::string, Pts>> sdh_curves(const Table& tab);  // fig_sdh.cpp

// ---- the README gallery (gallery.cpp) -------------------------------------------------------
inline constexpr const char* kGalleryBegin = "<!-- gallery:begin -->";
inline constexpr const char* kGalleryEnd = "<!-- gallery:end -->";
// "" when `readme` can be read and has both markers, else why not.
std::string gallery_check(const std::string& readme);
// Rewrites the block between the markers of `readme` from the registry's gallery entries and
// the figures drawn in this run (ctx.figs); false (with *err) when it cannot.
bool write_gallery(const Ctx& ctx, const std::string& readme, std::string* err);

// ---- the registry ---------------------------------------------------------------------------
enum class Scope {
  cpu_only,    // drawn once, from no GPU data: <out>/<name>.png
  per_gpu,     // drawn once per GPU folder: <out>/<gpu_slug>/<name>.png
  comparison,  // drawn once with every GPU (two GPU folders or more): <out>/gpus_<...>.png
};

inline const char* scope_name(Scope s) {
  return s == Scope::cpu_only ? "cpu_only" : s == Scope::per_gpu ? "per_gpu" : "comparison";
}

// draw gets the GPU for Scope::per_gpu, nullptr otherwise.
using DrawFn = void (*)(Ctx& ctx, const GpuData* g);

struct FigureEntry {
  std::string name;     // file stem (the figure's name in the report and on disk)
  std::string heading;  // the report's heading of the figure (its caption and reading: figures/captions.template.md)
  Scope scope;
  // nullptr: a variant another entry's function draws (fig3_sqrt draws fig3_sqrt_rho32, tet_I
  // draws tet_I_rho4, ...); the entry then only places it in the report and the gallery.
  DrawFn draw;
  int gallery;          // position in the README gallery (1, 2, ...); 0: not in it
  std::string alt;      // the gallery's alt text

  FigureEntry(std::string name_, std::string heading_, Scope scope_, DrawFn draw_ = nullptr, int gallery_ = 0,
              std::string alt_ = "")
      : name(std::move(name_)), heading(std::move(heading_)), scope(scope_), draw(draw_), gallery(gallery_),
        alt(std::move(alt_)) {}
};

// Every figure, in the report's order; main() draws the cpu_only entries, then the per_gpu
// entries for each GPU (h200 first), then the comparison entries, each group in this order.
// The gallery shows, for a gallery entry <name>, gpus_<name> where this run drew it (every GPU
// in one figure), else the first GPU's <name> (h200 first).
inline const std::vector<FigureEntry>& figure_registry() {
  using G = const GpuData*;
  static const std::vector<FigureEntry> r = {
      {"fig3_sqrt", "Fig. 3 (left): the square root of g(λ)", Scope::per_gpu,
       [](Ctx& c, G g) { fig3_sqrt(c, *g); }, 1, "square-root study"},
      {"gpus_fig3_sqrt", "Fig. 3 (left): the square root of g(λ), every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_fig3_sqrt(c); }},
      {"fig3_sqrt_rho32", "Fig. 3 (left) at ρ = 32", Scope::per_gpu},
      {"fig3_wasted", "Fig. 3 (right): unnecessary blocks", Scope::cpu_only,
       [](Ctx& c, G) { fig3_wasted(c); }},
      {"fig5_dummy", "Fig. 5: dummy kernel", Scope::per_gpu,
       [](Ctx& c, G g) { fig5_dummy(c, *g); }},
      {"gpus_fig5_dummy", "Fig. 5: dummy kernel, every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_fig5_dummy(c); }},
      {"fig5_dummy_cond", "Fig. 5: dummy kernel without the store", Scope::per_gpu, nullptr, 2, "dummy kernel"},
      {"gpus_fig5_dummy_cond", "Fig. 5: dummy kernel without the store, every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_fig5_dummy_cond(c); }},
      {"fig5_edm_d1", "Fig. 5: EDM, 1 feature", Scope::per_gpu,
       [](Ctx& c, G g) { fig5_edm(c, *g, 1); }},
      {"fig5_edm_d1_packed", "EDM, 1 feature, packed output", Scope::per_gpu},
      {"gpus_fig5_edm_d1", "EDM, 1 feature, full and packed, every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_fig5_edm(c, 1); }},
      {"fig5_edm_d4", "Fig. 5: EDM, 4 features", Scope::per_gpu,
       [](Ctx& c, G g) { fig5_edm(c, *g, 4); }, 3, "EDM, 4 features"},
      {"fig5_edm_d4_packed", "EDM, 4 features, packed output", Scope::per_gpu},
      {"gpus_fig5_edm_d4", "EDM, 4 features, full and packed, every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_fig5_edm(c, 4); }},
      {"fig5_features", "001 Fig. 5 (last panel): I vs features", Scope::per_gpu,
       [](Ctx& c, G g) { fig5_features(c, *g); }},
      {"edm_roofline", "EDM against the write bandwidth", Scope::per_gpu,
       [](Ctx& c, G g) { edm_roofline(c, *g); }, 7, "EDM roofline"},
      {"fig5_collision_3d", "Fig. 5: collision detection 3D", Scope::per_gpu,
       [](Ctx& c, G g) { fig5_collision(c, *g, collision_dim::d3); }, 4, "collision 3D"},
      {"gpus_fig5_collision_3d", "Fig. 5: collision detection 3D, every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_fig5_collision(c, collision_dim::d3); }},
      {"fig5_collision_3d_direct", "Collision detection 3D without shared memory (second kernel style)",
       Scope::per_gpu},
      {"fig5_collision_1d", "Fig. 5: collision detection 1D", Scope::per_gpu,
       [](Ctx& c, G g) { fig5_collision(c, *g, collision_dim::d1); }},
      {"fig5_collision_1d_direct", "Collision detection 1D without shared memory (second kernel style)",
       Scope::per_gpu},
      {"gpus_fig5_collision_1d", "Fig. 5: collision detection 1D, every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_fig5_collision(c, collision_dim::d1); }},
      {"exact_range", "Exact ranges of the float maps", Scope::cpu_only,
       [](Ctx& c, G) { exact_range(c); }, 5, "exact ranges"},
      {"tet_wasted", "Tetrahedral domain: wasted threads and blocks", Scope::cpu_only,
       [](Ctx& c, G) { tet_wasted(c); }},
      {"tet_I", "Tetrahedral map vs bounding box", Scope::per_gpu,
       [](Ctx& c, G g) { tet_I(c, *g); }},
      {"gpus_tet_I", "Tetrahedral map vs bounding box, every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_tet_I(c); }},
      {"tet_I_rho4", "Tetrahedral map vs bounding box, ρ = 4", Scope::per_gpu, nullptr, 6, "tetrahedral map"},
      {"gpus_tet_I_rho4", "Tetrahedral map vs bounding box, ρ = 4, every GPU", Scope::comparison},
      {"tet_layout", "Tetrahedral data layout", Scope::per_gpu,
       [](Ctx& c, G g) { tet_layout(c, *g); }},
      {"gpus_tet_layout", "Tetrahedral data layout, every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_tet_layout(c); }},
      {"sdh_ladder", "SDH optimisation ladder", Scope::per_gpu,
       [](Ctx& c, G g) { sdh_ladder(c, *g); }},
      {"sdh_scaling", "SDH throughput", Scope::per_gpu,
       [](Ctx& c, G g) { sdh_scaling(c, *g); }, 8, "SDH"},
      {"gpus_sdh_scaling", "SDH throughput, every GPU", Scope::comparison,
       [](Ctx& c, G) { cmp_sdh_scaling(c); }},
      {"multigpu_scaling", "SDH, three-body and exact Gram histograms on several GPUs", Scope::per_gpu,
       [](Ctx& c, G g) { multigpu_scaling(c, *g); }, 9, "multi-GPU scaling"},
      {"gram_time", "Pairwise distances on the tensor cores (issue #27)", Scope::per_gpu,
       [](Ctx& c, G g) { gram_time(c, *g); }},
      {"gram_roofline", "Pairwise distances on the tensor cores: roofline (issue #27)", Scope::per_gpu,
       [](Ctx& c, G g) { gram_roofline(c, *g); }},
      {"gram_ladder", "The Gram kernels' ladder against the write (issue #36)", Scope::per_gpu,
       [](Ctx& c, G g) { gram_ladder(c, *g); }},
      {"gram_symmetric", "The symmetric product X·Xᵀ in BF16 against cuBLAS (issue #36)", Scope::per_gpu,
       [](Ctx& c, G g) { gram_symmetric(c, *g); }},
      {"gram_reductions", "Pair reductions without N² written: pairs per second (issue #37)", Scope::per_gpu,
       [](Ctx& c, G g) { gram_reductions(c, *g); }},
      {"block_work_I", "I against the work per block, every experiment", Scope::per_gpu,
       [](Ctx& c, G g) { block_work_I(c, *g); }, 10, "I against the work per block"},
  };
  return r;
}

}  // namespace figs
