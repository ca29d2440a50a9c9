// src/support/gram/gram_sm90.cu — kernel sm90-ws (gram_sm90.cuh), its tile outputs (lower, condensed, hist) for
// every precision, and the entry of the kernel (gram_api.cu dispatches Kernel::sm90_ws here). Compiled for sm_90a
// alone (src/support/gram/meson.build).
#include "gram_sm90.cuh"

namespace gram {
namespace detail {
cudaError_t run_sm90_extra(const Prepared& o, const Request& r, cudaStream_t s);  // gram_sm90_extra.cu
// sm90-ws for every precision (gram_api.cu dispatches Kernel::sm90_ws here): the tile group here, the extra one
// in gram_sm90_extra.cu.
cudaError_t run_sm90(const Prepared& o, const Request& r, cudaStream_t s) {
  if (out_group(r.out) == OutGroup::extra) return run_sm90_extra(o, r, s);
  switch (o.prec) {
    case Prec::tf32: return sm90::run_of<Prec::tf32, OutGroup::tile>(o, r, s);
    case Prec::tf32x3: return sm90::run_of<Prec::tf32x3, OutGroup::tile>(o, r, s);
    case Prec::bf16: return sm90::run_of<Prec::bf16, OutGroup::tile>(o, r, s);
    case Prec::fp16: return sm90::run_of<Prec::fp16, OutGroup::tile>(o, r, s);
  }
  return cudaErrorInvalidValue;
}
}  // namespace detail
}  // namespace gram
