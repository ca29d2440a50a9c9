// src/support/results/gram_names.hpp — the vocabulary of the tensor-core Gram family (issues #27, #36-#39), once:
// the enums of the Gram kernels' interface (precision, output, scheduler, kernel), the name gram.csv spells for each,
// the lists of them, the impl column as a function of (scheduler, kernel) beside its inverse, and the names of the
// rows that are not a request of ours (the peers' impls and precisions, the CSV-only outputs).
//   Producer: src/support/gram/gram_api.hpp includes this header (its enums are these) and experiments/gram/bench_gram.cu
//   writes gram.csv with these names. Readers: select.hpp, readme_gram.cpp, figures/fig_gram.cpp, verify/test_gram.cpp.
// Host-only and free of CUDA and CUTLASS: the results layer builds without CUDA. It lives in results/, not gram/,
// because of the include order (src/README.md): gram may include results, results may not include gram.
#pragma once
#include <stdexcept>
#include <string>

namespace gram {

// ---- the interface's enums (documented where they are used: gram_api.hpp) ---------------------------------
enum class Prec { tf32, tf32x3, bf16, fp16 };
enum class Out { lower, condensed, hist, mirror, count, minmax, count_exact, hist_exact };
enum class Sched { ltm_e, bb };
enum class Kernel { classic, sm80_8w, sm90_ws, sm90_evt };

inline constexpr Prec kPrecs[] = {Prec::tf32, Prec::tf32x3, Prec::bf16, Prec::fp16};
// The precision a caller who names none gets: the Python package's precision= (python/tdmaps/_core.cpp exports it,
// with kPrecs' names, as _core.default_precision and _core.precisions).
inline constexpr Prec kDefaultPrec = Prec::tf32;
inline constexpr Out kOuts[] = {Out::lower, Out::condensed, Out::hist,       Out::mirror,
                                Out::count, Out::minmax,    Out::count_exact, Out::hist_exact};
inline constexpr Sched kScheds[] = {Sched::ltm_e, Sched::bb};
// In the order of the kernels' ladder (issue #36; figures/fig_gram.cpp gram_ladder draws them in it).
inline constexpr Kernel kKernels[] = {Kernel::classic, Kernel::sm80_8w, Kernel::sm90_ws, Kernel::sm90_evt};

// The precision column of gram.csv (and bench_gram --prec, tdmaps.pdist's precision=).
constexpr const char* name(Prec p) {
  switch (p) {
    case Prec::tf32: return "tf32";
    case Prec::tf32x3: return "3xtf32";
    case Prec::bf16: return "bf16";
    case Prec::fp16: return "fp16";
  }
  return "?";
}
// Its inverse: the precision of a name above; std::invalid_argument for any other string.
inline Prec prec_of(const std::string& s) {
  for (Prec p : kPrecs)
    if (s == name(p)) return p;
  throw std::invalid_argument("not a Gram precision: '" + s + "' (tf32, 3xtf32, bf16, fp16)");
}

constexpr const char* name(Out o) {
  switch (o) {
    case Out::lower: return "lower";
    case Out::condensed: return "condensed";
    case Out::hist: return "hist";
    case Out::mirror: return "mirror";
    case Out::count: return "count";
    case Out::minmax: return "minmax";
    case Out::count_exact: return "count-exact";
    case Out::hist_exact: return "hist-exact";
  }
  return "?";
}

// The kernel column of bench_gram --kernel, and the suffix of the impl column (impl_name).
constexpr const char* name(Kernel k) {
  switch (k) {
    case Kernel::classic: return "classic";
    case Kernel::sm80_8w: return "sm80-8w";
    case Kernel::sm90_ws: return "sm90-ws";
    case Kernel::sm90_evt: return "sm90-evt";
  }
  return "?";
}
// Its inverse: the kernel of a name above; false where none is.
inline bool kernel_of(const std::string& s, Kernel& k) {
  for (Kernel c : kKernels)
    if (s == name(c)) {
      k = c;
      return true;
    }
  return false;
}

constexpr const char* name(Sched s) { return s == Sched::ltm_e ? "tdmaps-ltm-e" : "bb-grid"; }

// ---- the impl column of our rows: composed here, parsed here ---------------------------------------------
// sm90-evt's second scheduler is CUTLASS's own over the whole square (Sched::bb, every cell of N x N written):
// its rows are this impl, with the outputs full / full-sqrt.
inline constexpr const char* kFullSquareImpl = "full-sm90-evt";
// The impl of our kernel k under scheduler s: the classic kernel's rows keep the scheduler's name (tdmaps-ltm-e,
// bb-grid); another kernel's carry its name after it (tdmaps-ltm-e-sm90-ws, bb-grid-sm90-ws), so that each kernel's
// I is against the bb-grid of the same kernel; sm90-evt under Sched::bb: kFullSquareImpl.
inline std::string impl_name(Sched s, Kernel k) {
  if (k == Kernel::sm90_evt && s == Sched::bb) return kFullSquareImpl;
  return k == Kernel::classic ? std::string(name(s)) : std::string(name(s)) + "-" + name(k);
}
// The inverse of impl_name: the (s, k) whose impl is `impl`; false for every other impl (the peers' rows).
inline bool impl_of(const std::string& impl, Sched& s, Kernel& k) {
  for (Sched cs : kScheds)
    for (Kernel ck : kKernels)
      if (impl == impl_name(cs, ck)) {
        s = cs;
        k = ck;
        return true;
      }
  return false;
}

// ---- the output column of gram.csv: what a row wrote ------------------------------------------------------
// Ours: lower (d^2), lower-sqrt (d), condensed, hist, mirror (d^2, the whole N x N from the lower tiles),
// mirror-gram (the product x_i.x_j, the whole N x N: BF16 / FP16), count; full / full-sqrt (kFullSquareImpl's
// whole square). The peers': full (cuBLAS GEMM + epilogue, torch.cdist; the write of N x N), full-gram (a GEMM
// alone), lower (SSYRK + epilogue; the write of the triangle), lower-gram (SSYRK alone); none (empty-blocks).
enum class Output { lower, lower_sqrt, lower_gram, condensed, hist, mirror, mirror_gram, count, full, full_sqrt, full_gram, none };
inline constexpr Output kOutputs[] = {Output::lower,     Output::lower_sqrt,  Output::lower_gram, Output::condensed,
                                      Output::hist,      Output::mirror,      Output::mirror_gram, Output::count,
                                      Output::full,      Output::full_sqrt,   Output::full_gram,   Output::none};
constexpr const char* name(Output o) {
  switch (o) {
    case Output::lower: return "lower";
    case Output::lower_sqrt: return "lower-sqrt";
    case Output::lower_gram: return "lower-gram";
    case Output::condensed: return "condensed";
    case Output::hist: return "hist";
    case Output::mirror: return "mirror";
    case Output::mirror_gram: return "mirror-gram";
    case Output::count: return "count";
    case Output::full: return "full";
    case Output::full_sqrt: return "full-sqrt";
    case Output::full_gram: return "full-gram";
    case Output::none: return "none";
  }
  return "?";
}
// Its inverse: the output of a name above; false where none is.
inline bool output_of(const std::string& s, Output& o) {
  for (Output c : kOutputs)
    if (s == name(c)) {
      o = c;
      return true;
    }
  return false;
}

// ---- the rows that are not a request of ours: the peers of gram.csv and peers_gram.csv --------------------
namespace peer {
// The precision column beyond Prec: cuBLAS FP32, the exact mode's float64, none (a write, the empty blocks).
inline constexpr const char* fp32 = "fp32";
inline constexpr const char* fp64 = "fp64";
inline constexpr const char* none = "none";
// The impl column: cuBLAS (alone, or with the epilogue as a second kernel), the plain write of the same
// bytes, the bb-grid's empty blocks alone, the exact mode (gram_exact.hpp), and peers_gram.csv's torch.
inline constexpr const char* cublas_gemm = "cublas-gemm";
inline constexpr const char* cublas_gemm_epilogue = "cublas-gemm+epilogue";
inline constexpr const char* cublas_syrk = "cublas-syrk";
inline constexpr const char* cublas_syrk_epilogue = "cublas-syrk+epilogue";
inline constexpr const char* write = "write";
inline constexpr const char* empty_blocks = "empty-blocks";
inline constexpr const char* fp64_exact = "fp64-exact";
inline constexpr const char* torch_cdist = "torch.cdist";
inline constexpr const char* torch_mm = "torch.mm";
}  // namespace peer

}  // namespace gram
