// src/support/gpu/cuda_check.cuh — checked CUDA calls: every CUDA call and launch is
// checked (die, check, TD_CUDA, TD_LAUNCHED), the GPU is required (require_gpu),
// device memory is allocated with a clear error (device_alloc); to_dim3.
// Part of the umbrella src/support/gpu/common.cuh.
#pragma once
#include <tdmaps/plan.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace tdmaps::gpu {

// ---- errors: every CUDA call and launch is checked --------------------------------
[[noreturn]] inline void die(const std::string& msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  std::exit(1);
}
inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    die(std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " + cudaGetErrorString(e));
}
#define TD_CUDA(call) ::tdmaps::gpu::check((call), #call, __FILE__, __LINE__)
// After every launch: configuration errors now, execution errors at the next sync.
#define TD_LAUNCHED() ::tdmaps::gpu::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

inline dim3 to_dim3(Dim3 d) { return dim3(d.x, d.y, d.z); }

// Exits with status 2 and one line when there is no usable GPU.
inline int require_gpu() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "error: no CUDA GPU available (%s)\n", e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
    std::exit(2);
  }
  int dev = 0;
  TD_CUDA(cudaGetDevice(&dev));
  return dev;
}

// Device memory with a clear error when the GPU has too little.
template <class T>
T* device_alloc(size_t count, const char* what) {
  size_t free_b = 0, total_b = 0;
  TD_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const size_t bytes = count * sizeof(T);
  if (bytes > free_b)
    die(std::string("not enough GPU memory for ") + what + ": need " + std::to_string(bytes >> 20) + " MiB, " +
        std::to_string(free_b >> 20) + " MiB free");
  T* p = nullptr;
  TD_CUDA(cudaMalloc(&p, bytes ? bytes : 1));
  return p;
}

// Device memory that frees itself (device_alloc's clear error when there is too little).
template <class T>
class DevBuf {
 public:
  DevBuf() = default;
  DevBuf(size_t count, const char* what) { alloc(count, what); }
  ~DevBuf() { if (p_) cudaFree(p_); }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  void alloc(size_t count, const char* what) {
    release();
    p_ = device_alloc<T>(count, what);
    n_ = count;
  }
  // Grows to at least `count` elements (contents are not kept).
  void reserve(size_t count, const char* what) { if (count > n_) alloc(count, what); }
  void release() {
    if (p_) TD_CUDA(cudaFree(p_));
    p_ = nullptr;
    n_ = 0;
  }
  T* get() const { return p_; }
  size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

}  // namespace tdmaps::gpu
