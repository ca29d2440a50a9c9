// src/support/gram/gram_extra_fp16.cu — the outputs mirror, count and minmax of one input precision (fp16),
// compiled apart from gram_fp16.cu (gram_launch.cuh: OutGroup::extra).
#include "gram.cuh"

namespace gram::detail {
cudaError_t run_extra_fp16(const Prepared& o, const Request& r, cudaStream_t s) { return run_of<Prec::fp16, OutGroup::extra>(o, r, s); }
}  // namespace gram::detail
