// src/support/gram/gram_extra_tf32.cu — the outputs mirror, count and minmax of one input precision (tf32),
// compiled apart from gram_tf32.cu (gram_launch.cuh: OutGroup::extra).
#include "gram.cuh"

namespace gram::detail {
cudaError_t run_extra_tf32(const Prepared& o, const Request& r, cudaStream_t s) { return run_of<Prec::tf32, OutGroup::extra>(o, r, s); }
}  // namespace gram::detail
