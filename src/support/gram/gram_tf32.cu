// src/support/gram/gram_tf32.cu — the Gram kernels of one input precision (tf32), compiled on their own (gram.cuh).
#include "gram.cuh"

namespace gram::detail {
cudaError_t prepare_tf32(const float* X, i64 N, int d, Prepared& o, cudaStream_t s, void* ws, bool center) {
  return prepare_of<Prec::tf32>(X, N, d, o, s, ws, center);
}
cudaError_t run_tf32(const Prepared& o, const Request& r, cudaStream_t s) { return run_of<Prec::tf32>(o, r, s); }
size_t operand_bytes_tf32(i64 N, int d) { return operand_bytes_of<Prec::tf32>(N, d); }
int max_buckets_tf32() { return max_buckets<Prec::tf32>(); }
}  // namespace gram::detail
