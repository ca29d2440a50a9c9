// src/support/results/layouts.hpp — THE CSV LAYOUTS: every results file's columns, declared once.
//
// Plain C++17, no CUDA, no dependency: the programs that write a results CSV (the CUDA
// experiments under experiments/, the oracle's tables under verify/), the synthetic data
// (figures/synth_results.cpp) and every reader (the figure program, the claim rules, the
// README blocks) take a file's header from here, and open a table through its layout here (never by
// a file-name literal): a per-GPU table by GpuData::get(layout), one of a fixed folder (the
// oracle's, the papers' tables under paper/) at repo_path(layout). The readers still look columns up by name
// (csv.hpp), so an older CSV with fewer columns is read; the drift test (paper/drift_test.sh,
// through check_layouts.cpp here) requires every committed CSV's header to be its layout here.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace results {

struct Layout {
  const char* file;     // file name ("<dir>/<file>"; a per-GPU file lives in experiments/results/<gpu>/)
  const char* where;    // "gpu" (experiments/results/<gpu>/), "cpu" (experiments/results/cpu/), "verify" (verify/results/),
                        // "paper" (paper/: the claims' tables, written by hand)
  const char* writer;   // the program that writes it
  const char* columns;  // the header line, comma-separated, no newline
  // The header line with its newline, as a writer prints it.
  std::string header() const { return std::string(columns) + "\n"; }
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    std::string cur;
    for (const char* p = columns;; ++p) {
      if (*p == ',' || *p == '\0') {
        v.push_back(cur);
        cur.clear();
        if (*p == '\0') break;
      } else {
        cur += *p;
      }
    }
    return v;
  }
};

// The rows of a map column that no map has (registry/map_names.hpp map_named knows neither): the plain write of
// the same bytes in edm.csv and collision.csv (bench_apps, its GBps), and tet_layout.csv's copy bandwidth (bench_maps3d,
// mode bw, its eff_gbs).
inline constexpr const char* kWriteBwMap = "write_bw";
inline constexpr const char* kBwCopyMap = "bw_copy";
// tet_layout.csv's mode of the bandwidth-bound layout kernel's rows and of their reference row (map kBwCopyMap), beside
// the maps' modes (thread, block); its layout column is a data layout's name (tdmaps/layout3d.hpp LinearLayout3::name,
// BlockedLayout3::name). bench_maps3d writes them, the figures and the claims read them.
inline constexpr const char* kBwMode = "bw";
// The modes of a 3D map in tet_dummy.csv, tet_threebody.csv and tet_layout.csv (and map_instructions.csv's 3D rows):
// the map evaluated by every thread, or once a block (shared by its threads). bench_maps3d writes them
// (experiments/maps3d/maps3d_gpu.hpp mode_str returns these; sass_cost.sh spells them for map_instructions.csv); the
// figures and README read them through these.
inline constexpr const char* kThreadMode = "thread";
inline constexpr const char* kBlockMode = "block";
// The kinds of a row of exact_range_gpu.csv and exact_ranges_cpu.csv (column kind): a thread map's root (its range an N),
// a 2D block map's row root g(λ), a 3D map's layer root (its range an N at each ρ), and (exact_range_gpu.csv only) a 2D
// block map's row root on the 32-bit index path. verify/exact_table.cpp (the CPU's table) and the GPU producer
// (experiments/maps2d/gpu_exact_range.cu) write them through these; the figures and README read them through these.
namespace exact_kind {
inline constexpr const char* thread = "thread";
inline constexpr const char* block = "block";
inline constexpr const char* block3 = "block3";
inline constexpr const char* block32 = "block-32";
}  // namespace exact_kind
// The parts of a tetrahedral root in tet_exact_range_gpu.csv (column part): the layer root and the row root. gpu_verify_3d
// (experiments/maps3d/gpu_verify_3d.cu) writes them and README reads them through these.
namespace tet_part {
inline constexpr const char* layer = "layer";
inline constexpr const char* row = "row";
}  // namespace tet_part
// wasted3d.csv's map word for the tetrahedral maps' counts (launched tet(n) blocks whatever the root, so no one map's
// name): experiments/maps3d/wasted3d.cpp writes it (its other rows' word is the box's map name, tdmaps::BB3::name);
// fig_exact reads it as TET_E, the figures' style of the TET series is under it (figures/looks.cpp).
inline constexpr const char* kWasted3dTet = "tet";

namespace layout {
// ---- experiments/results/<gpu>/ ----
// bench_maps --test dummy | sqrt: one row per (form, N, rho, map)
inline constexpr Layout dummy{"dummy.csv", "gpu", "experiments/maps2d/bench_maps",
                              "test,form,N,rho,map,exact,passes,launched_blocks,useful_blocks,wasted_blocks,"
                              "launched_threads,useful_threads,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,"
                              "bb_median_ms,I,index_bits"};
inline constexpr Layout sqrt_{"sqrt.csv", "gpu", "experiments/maps2d/bench_maps", dummy.columns};
// bench_apps --test edm | collision: one row per (test, variant, features, N, rho, map), plus a write_bw row
inline constexpr Layout edm{"edm.csv", "gpu", "experiments/apps2d/bench_apps",
                            "test,variant,features,N,rho,map,exact,bytes_written,reps,median_ms,p25_ms,p75_ms,"
                            "min_ms,max_ms,bb_median_ms,I,GBps"};
inline constexpr Layout collision{"collision.csv", "gpu", "experiments/apps2d/bench_apps", edm.columns};
}  // namespace layout
// edm.csv's variant column of the EDM rows: the output layout (src/support/gpu/edm.cuh EdmOutput, its layout_name): full, the
// N×N matrix (the papers' form); packed, the lower triangle only. bench_apps writes them (and parses --layout by them),
// the figures, the claims (select.hpp pick_rows::edm) and synth_results read / write them through these; torch_peers.py's
// layouts (python_names.hpp edm_peers) are these words too.
namespace edm_variant {
inline constexpr const char* full = "full";
inline constexpr const char* packed = "packed";
}  // namespace edm_variant
// edm.csv's and collision.csv's test column: the EDM rows; the collision rows of the papers' shared-memory kernel, and those
// of the direct kernel (no shared memory, every map). bench_apps writes them (collision_test), the readers select by them
// (select.hpp pick_rows::kernel_test), synth_results writes them.
namespace apps_test {
inline constexpr const char* edm = "edm";
inline constexpr const char* collision = "collision";
inline constexpr const char* collision_direct = "collision-direct";
}  // namespace apps_test
// collision.csv's variant column: the spheres' dimension, 3 coordinates or 1 (bench_apps --dim 3 | 1). bench_apps writes
// them; the claims, the figures, the README blocks and synth_results read / write them through these.
namespace collision_dim {
inline constexpr const char* d3 = "3d";
inline constexpr const char* d1 = "1d";
}  // namespace collision_dim
namespace layout {
// gpu_exact_range: the device's exact range of each float map, both rounding modes
inline constexpr Layout exact_range_gpu{"exact_range_gpu.csv", "gpu", "experiments/maps2d/gpu_exact_range",
                                        "variant,kind,first_wrong,largest_exact_N_rho8,largest_exact_N_rho16,"
                                        "largest_exact_N_rho32,searched_up_to,rounding"};
// gpu_verify_3d: the device's exact range of each tetrahedral root
inline constexpr Layout tet_exact_range_gpu{"tet_exact_range_gpu.csv", "gpu", "experiments/maps3d/gpu_verify_3d",
                                            "root,part,first_wrong,searched_to,largest_exact_N_rho4,"
                                            "largest_exact_N_rho8,largest_exact_N_rho10,note,index_bits"};
// bench_maps3d --test dummy | threebody | layout
inline constexpr Layout tet_dummy{"tet_dummy.csv", "gpu", "experiments/maps3d/bench_maps3d",
                                  "N,rho,n,form,map,mode,exact,verified,launched_blocks,useful_blocks,"
                                  "launched_threads,useful_threads,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,"
                                  "bb3_median_ms,I,I_eq17"};
inline constexpr Layout tet_threebody{"tet_threebody.csv", "gpu", "experiments/maps3d/bench_maps3d",
                                      "N,rho,n,map,mode,verified,launched_blocks,useful_blocks,triplets,r,bin0,bin1,"
                                      "bin2,bin3,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,gtriplets_per_s,"
                                      "bb3_median_ms,I,I_eq17"};
inline constexpr Layout tet_layout{"tet_layout.csv", "gpu", "experiments/maps3d/bench_maps3d",
                                   "N,rho,n,layout,map,mode,verified,slots,padding,padding_over_n2rho3,reps,"
                                   "median_ms,p25_ms,p75_ms,min_ms,max_ms,eff_gbs,bb3_median_ms,I,"
                                   "linear_median_ms,linear_over_blocked"};
// bench_sdh (sdh.csv; sdh_cpu_1M.csv is the same layout at N = 1e6 with the all-core CPU)
inline constexpr Layout sdh{"sdh.csv", "gpu", "experiments/sdh/bench_sdh",
                            "impl,N,bucket_width,buckets,threads_per_block,reps,median_ms,p25_ms,p75_ms,min_ms,"
                            "max_ms,with_transfers_ms,pairs_per_s,speedup_vs_cpu_mt"};
inline constexpr Layout sdh_cpu_1M{"sdh_cpu_1M.csv", "gpu", "experiments/sdh/bench_sdh", sdh.columns};
// multi_hist (experiments/multigpu)
inline constexpr Layout sdh_multigpu{"sdh_multigpu.csv", "gpu", "experiments/multigpu/multi_hist",
                                     "app,N,kernel,gpus,chunks,workers,blocks,work,reps,median_ms,p25_ms,p75_ms,"
                                     "compute_ms,reduce_ms,wait_ms,reduce_frac,work_per_s,rate_vs_first,identical,"
                                     "verified"};
inline constexpr Layout threebody_multigpu{"threebody_multigpu.csv", "gpu", "experiments/multigpu/multi_hist",
                                           sdh_multigpu.columns};
// multi_hist --app gram (issue #27): the Gram kernels' fused distance histogram split over GPUs x chunks;
// kernel "<kernel> <precision> d=<d> B=<buckets>", blocks = LTM-E's c(c+1)/2 tiles, work = pairs,
// verified "float64" = within the float64 histogram's bound (src/support/gram/gram_cpu.hpp compare)
inline constexpr Layout gram_multigpu{"gram_multigpu.csv", "gpu", "experiments/multigpu/multi_hist",
                                      sdh_multigpu.columns};
// multi_hist --app gram --exact (issue #37 item 3): the same columns, app gram-exact, verified "oracle" = bucket for
// bucket the float64 histogram. A file of its own, since a CSV holds one run (one metadata line) and the exact
// histogram is a run of its own.
inline constexpr Layout gram_multigpu_exact{"gram_multigpu_exact.csv", "gpu", "experiments/multigpu/multi_hist",
                                            sdh_multigpu.columns};
// The app column of those four (multi_hist --app), declared once for the program and its readers: gram_exact is
// --app gram --exact (issue #37 item 3: the bracketed exact histogram, bucket for bucket float64's); gram_count and
// gram_count_exact are --app gram --count (the eps-count: per-point neighbour counts and the pair total within eps,
// written to the same layouts as the histogram's, gram_multigpu.csv and gram_multigpu_exact.csv).
}  // namespace layout
namespace multigpu_app {
inline constexpr const char* sdh = "sdh";
inline constexpr const char* threebody = "threebody";
inline constexpr const char* gram = "gram";
inline constexpr const char* gram_exact = "gram-exact";
inline constexpr const char* gram_count = "gram-count";
inline constexpr const char* gram_count_exact = "gram-count-exact";
}  // namespace multigpu_app
namespace layout {
// experiments/peers/torch_peers.py
inline constexpr Layout peers_edm{"peers_edm.csv", "gpu", "experiments/peers/torch_peers.py",
                                  "test,layout,features,N,impl,median_ms,GBps"};
// experiments/sdh/torch_sdh.py
inline constexpr Layout peers_sdh{"peers_sdh.csv", "gpu", "experiments/sdh/torch_sdh.py",
                                  "impl,N,bucket_width,buckets,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,"
                                  "pairs_per_s,exact_at_verify_n"};
// experiments/peers/gram_peers.py (issue #27): torch.cdist (TF32 allowed / not) and torch.mm on bench_gram's
// points, one row per (N, d, precision, impl); GBps: bytes_written (N*N*4) over the median; err_vs_f64 as in
// gram.csv (max |d^2 - d2_exact| / (|x_i|+|x_j|)^2 over the pairs checked; nan for torch.mm)
inline constexpr Layout peers_gram{"peers_gram.csv", "gpu", "experiments/peers/gram_peers.py",
                                   "N,d,precision,output,impl,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,GBps,"
                                   "bytes_written,err_vs_f64"};
// experiments/peers/python_peers.py (issue #38 items 5, 6), one process, the same points: the Python package's
// tdmaps.pdist (output condensed, lower, square), the same GPU work queued by one C++ call (impl
// tdmaps._core.Enqueue, timed between the same CUDA events as tdmaps.pdist), torch.pdist, torch.cdist (precision tf32: TF32 allowed; fp32: not),
// cupyx.scipy.spatial.distance.pdist and scipy.spatial.distance.pdist (device cpu, float64); one row per
// (N, d, impl, output, precision). verified: 1 / 0 within / past the float64 bound of gram.csv, -1 not checked;
// err_vs_f64 as in gram.csv; a call that did not run: NaN times, reps 0, the reason in note.
inline constexpr Layout peers_python{"peers_python.csv", "gpu", "experiments/peers/python_peers.py",
                                     "N,d,impl,output,precision,device,kernel,reps,median_ms,p25_ms,p75_ms,min_ms,"
                                     "max_ms,bytes_written,verified,err_vs_f64,note"};
// bench_gram (experiments/gram, issue #27): one row per (N, d, precision, output, impl); impl
// tdmaps-ltm-e / bb-grid (our CUTLASS kernel, tile scheduler LTM-E or the c x c grid; a kernel other
// than the classic one appends its name, tdmaps-ltm-e-<kernel> / bb-grid-<kernel>),
// cublas-gemm / cublas-syrk (+epilogue: the same d^2 epilogue as a second kernel), write (the
// output's bytes written by a plain kernel: the bandwidth of the same run), empty-blocks (the
// bb-grid's c(c-1)/2 empty blocks alone). TFLOPs: 2 d N(N+1)/2 useful flops over the median,
// GBps: bytes_written over the median; err_vs_f64: max |d2 - d2_exact| / (|x_i|+|x_j|)^2 over the
// pairs checked, err_bound its bound (src/support/gram/gram_cpu.hpp); I = bb_median_ms / median_ms.
inline constexpr Layout gram{"gram.csv", "gpu", "experiments/gram/bench_gram",
                             "N,d,precision,output,impl,tile,launched_tiles,useful_tiles,reps,median_ms,p25_ms,"
                             "p75_ms,min_ms,max_ms,TFLOPs,GBps,bytes_written,err_vs_f64,err_bound,bb_median_ms,I,"
                             "blocks_per_s,verified"};
// bench_gram --exact-N (issue #37 item 2): the bracketed exact mode (count-exact, hist-exact: tensor cores, then the
// pairs whose error bound straddles eps or an edge recounted in float64) at N points, d = --hist-d, one row per
// (N, d, precision, output, impl): the histogram's buckets of bucket_width from 0 (hist-exact), eps (count-exact),
// pairs (i > j), replayed (the pairs recounted) and their percentage, the times,
// fp64_median_ms the all-float64 exact mode's (gram_exact.hpp) in the same run (NaN: not timed at this N), and
// equal_fp64 1 when the result was equal to the all-float64 one, count for count, at this N (-1: not compared).
inline constexpr Layout gram_exact{"gram_exact.csv", "gpu", "experiments/gram/bench_gram",
                                   "N,d,precision,output,impl,buckets,bucket_width,eps,pairs,replayed,replayed_pct,reps,"
                                   "median_ms,p25_ms,p75_ms,min_ms,max_ms,fp64_median_ms,equal_fp64"};
// experiments/compare_runs.py OLD NEW --out FILE (by hand: a rerun against the committed results of its GPU, in the
// rerun's folder, e.g. experiments/results/h200/quick_<commit>/): one row per pair of rows of a timed CSV with one
// key (its columns but the measured ones, measured_columns below), k1..k6 the key's first six cells "column=value"
// (empty past its end), new_over_old the medians' ratio, inside_spread 1 when the new median lies in the old p25..p75
// widened by the old spread.
inline constexpr Layout compare_runs{"compare_with_committed.csv", "gpu", "experiments/compare_runs.py",
                                     "file,k1,k2,k3,k4,k5,k6,old_median_ms,new_median_ms,new_over_old,inside_spread"};
}  // namespace layout
// The columns of the layouts above that a run measures (the times, rates and ratios, the GPU's check): the others are
// a row's key, by which experiments/compare_runs.py pairs two runs' rows (check_layouts --python exports them,
// MEASURED, and fails on a name that is no layout's column).
inline constexpr const char* measured_columns[] = {
    "reps", "median_ms", "p25_ms", "p75_ms", "min_ms", "max_ms", "bb_median_ms", "I", "GBps", "bb3_median_ms", "I_eq17",
    "eff_gbs", "gtriplets_per_s", "linear_median_ms", "linear_over_blocked", "with_transfers_ms", "pairs_per_s",
    "speedup_vs_cpu_mt", "verified"};
namespace layout {
// ---- experiments/results/cpu/ ----
// sass_cost.sh's Python writes it by column name, its header from experiments/layouts.py (check_layouts --python).
inline constexpr Layout map_instructions{"map_instructions.csv", "cpu", "experiments/maps2d/sass_cost.sh",
                                         "arch,dim,map,index_bits,form,mode,instructions,reference_instructions,"
                                         "map_instructions,mufu,int64_ops,branches"};
// ncu_binds (experiments/gram, issue #36): what Nsight Compute says of one profiled kernel a row, from the raw page of
// its report: kernel / output / precision / N / d as labelled; ncu_ms its time under ncu; dram_pct, l2_pct, l1_pct,
// sm_pct the units' throughput in % of their peaks; issue_active_pct the schedulers' issue activity; warp_cycles_per_issue
// the cycles between a warp's instructions, stall_1 / stall_2 the two largest stall reasons of them (cycles each).
inline constexpr Layout ncu_gram{"ncu_gram.csv", "gpu", "experiments/gram/ncu_binds",
                                 "kernel,output,precision,N,d,ncu_ms,dram_pct,l2_pct,l1_pct,sm_pct,issue_active_pct,"
                                 "warp_cycles_per_issue,stall_1,stall_1_cycles,stall_2,stall_2_cycles"};
// sdh_gram_accuracy (issue #26): per N and rule (pinned, fused, gram of src/support/apps/sdh_cpu.hpp),
// the pairs checked (every pair, or the rows i % row_step == 0) and how many land in another bucket
// than the exact distance's; max_abs_err = max |s - exact s|, err_bound the Gram rule's bound there.
inline constexpr Layout sdh_gram_accuracy{"sdh_gram_accuracy.csv", "cpu", "experiments/sdh/gram_accuracy",
                                          "N,pairs_checked,row_step,box,bucket_width,buckets,max_c2,rule,"
                                          "other_bucket_than_exact,fraction,max_abs_err,err_bound"};
// peer_index_audit (issue #27 item 6): one row per triangular index formula (peers' restated from their
// published descriptions, src/support/gram/peer_formulas.hpp, and ours): the first index it gets wrong
// among indices_checked (empty if none), the formula's row there and the right row; points_n: the point
// count of a formula that depends on it (torch.pdist).
inline constexpr Layout peer_index_audit{"peer_index_audit.csv", "cpu", "experiments/gram/peer_index_audit",
                                         "formula,source,index_type,points_n,searched_range,method,indices_checked,"
                                         "first_wrong,first_wrong_row,right_row,verdict,note"};
inline constexpr Layout wasted3d{"wasted3d.csv", "cpu", "experiments/maps3d/wasted3d",
                                 "N,rho,n,map,launched_blocks,useful_blocks,wasted_blocks,launched_threads,"
                                 "useful_threads,wasted_threads,wasted_threads_over_n2rho3,wasted_threads_over_N3,"
                                 "blocked_padding,padding_over_n2rho3"};
// ---- verify/results/ ----
inline constexpr Layout exact_ranges_cpu{"exact_ranges_cpu.csv", "verify", "verify/exact_table",
                                         "variant,kind,source,first_wrong,largest_exact_N_rho8,"
                                         "largest_exact_N_rho16,largest_exact_N_rho32,searched_up_to,note,"
                                         "index_path,rounding"};
inline constexpr Layout printed_forms{"printed_forms.csv", "verify", "verify/printed_forms",
                                      "formula,paper,equation,arithmetic,searched,first_wrong_lambda,first_wrong_N,outcome"};
// ---- paper/ (written by hand: the papers' values, their conditions, the issues' targets) ----
// reported.csv: one row per claim of the papers (the figure program's --reported)
inline constexpr Layout reported{"reported.csv", "paper", "by hand (paper/claims)",
                                 "id,seed_file,section,quantity,paper_value,unit,gpu,context,figure,conditions"};
// conditions.csv (beside reported.csv): the conditions of each family of claims (model.hpp Condition)
inline constexpr Layout conditions{"conditions.csv", "paper", "by hand (paper/claims)",
                                   "family,condition,ours,fixed_by,readings"};
// targets.csv (beside reported.csv): the issues' targets (paper/claims/targets.hpp); csv: a per-GPU layout's file
inline constexpr Layout targets{"targets.csv", "paper", "by hand (paper/claims)",
                                "id,issue,table,target,value,unit,csv,how"};
}  // namespace layout

// Every layout, for the drift test and the readers' checks.
inline const std::vector<const Layout*>& all_layouts() {
  static const std::vector<const Layout*> v = {
      &layout::dummy,         &layout::sqrt_,           &layout::edm,          &layout::collision,
      &layout::exact_range_gpu, &layout::tet_exact_range_gpu, &layout::tet_dummy, &layout::tet_threebody,
      &layout::tet_layout,    &layout::sdh,             &layout::sdh_cpu_1M,   &layout::sdh_multigpu,
      &layout::threebody_multigpu, &layout::gram_multigpu, &layout::gram_multigpu_exact, &layout::peers_edm,  &layout::peers_sdh,    &layout::peers_gram,
      &layout::peers_python,     &layout::ncu_gram,
      &layout::map_instructions,
      &layout::wasted3d,      &layout::exact_ranges_cpu, &layout::printed_forms, &layout::gram,  &layout::gram_exact, &layout::compare_runs,
      &layout::reported,      &layout::conditions,      &layout::targets,
      &layout::sdh_gram_accuracy, &layout::peer_index_audit};
  return v;
}
// The layout of a file name, or nullptr.
inline const Layout* layout_of(const std::string& file) {
  for (const Layout* l : all_layouts())
    if (file == l->file) return l;
  return nullptr;
}
// The layout of a file name a table names (paper/targets.csv's column csv); an undeclared name throws
// std::invalid_argument.
inline const Layout& layout_of_file(const std::string& file) {
  if (const Layout* l = layout_of(file)) return *l;
  throw std::invalid_argument("\"" + file + "\": no layout declared in src/support/results/layouts.hpp");
}
// The path of a table of a fixed folder, from the repository's root: paper/<file>, verify/results/<file>,
// experiments/results/cpu/<file>; a per-GPU layout has none (std::invalid_argument): its folder is the GPU's.
inline std::string repo_path(const Layout& l) {
  const std::string w = l.where;
  if (w == "paper") return std::string("paper/") + l.file;
  if (w == "verify") return std::string("verify/results/") + l.file;
  if (w == "cpu") return std::string("experiments/results/cpu/") + l.file;
  throw std::invalid_argument(std::string(l.file) + ": a per-GPU table, in the folder of its GPU");
}

}  // namespace results
