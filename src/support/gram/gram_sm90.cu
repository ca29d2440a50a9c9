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
  return sm90::run_group<OutGroup::tile>(o, r, s);
}
}  // namespace detail
}  // namespace gram
