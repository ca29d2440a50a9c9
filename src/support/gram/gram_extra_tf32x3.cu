// src/support/gram/gram_extra_tf32x3.cu — the outputs mirror, count and minmax of one input precision (tf32x3),
// compiled apart from gram_tf32x3.cu (gram_launch.cuh: OutGroup::extra).
#include "gram.cuh"

namespace gram::detail {
cudaError_t run_extra_tf32x3(const Prepared& o, const Request& r, cudaStream_t s) { return run_of<Prec::tf32x3, OutGroup::extra>(o, r, s); }
}  // namespace gram::detail
