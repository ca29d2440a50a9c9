// src/support/gram/gram_extra_tf32.cu — the outputs mirror, count and minmax of one input precision (tf32),
// compiled apart from gram_tf32.cu (gram.cuh: run_extra_of).
#include "gram.cuh"

namespace gram::detail {
cudaError_t run_extra_tf32(const Prepared& o, const Request& r, cudaStream_t s) { return run_extra_of<Prec::tf32>(o, r, s); }
}  // namespace gram::detail
