// src/support/gram/gram_bf16.cu — the Gram kernels of one input precision (bf16), compiled on their own (gram.cuh).
#include "gram.cuh"

namespace gram::detail {
cudaError_t prepare_bf16(const float* X, i64 N, int d, Prepared& o, cudaStream_t s, void* ws, bool center) {
  return prepare_of<Prec::bf16>(X, N, d, o, s, ws, center);
}
cudaError_t run_bf16(const Prepared& o, const Request& r, cudaStream_t s) { return run_of<Prec::bf16>(o, r, s); }
size_t operand_bytes_bf16(i64 N, int d) { return operand_bytes_of<Prec::bf16>(N, d); }
int max_buckets_bf16() { return max_buckets<Prec::bf16>(); }
}  // namespace gram::detail
