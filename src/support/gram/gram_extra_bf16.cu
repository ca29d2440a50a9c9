// src/support/gram/gram_extra_bf16.cu — the outputs mirror, count and minmax of one input precision (bf16),
// compiled apart from gram_bf16.cu (gram_launch.cuh: OutGroup::extra).
#include "gram.cuh"

namespace gram::detail {
cudaError_t run_extra_bf16(const Prepared& o, const Request& r, cudaStream_t s) { return run_of<Prec::bf16, OutGroup::extra>(o, r, s); }
}  // namespace gram::detail
