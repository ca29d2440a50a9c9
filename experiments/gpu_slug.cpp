// experiments/gpu_slug.cpp — the GPU-folder slug for the scripts: gpu_slug.hpp's rule (its one
// definition, src/support/gpu/gpu_slug.hpp), which the CUDA programs apply to cudaDeviceProp::name.
//   gpu_slug NAME     or   ... | gpu_slug     (the first line of stdin, e.g. nvidia-smi's name)
// run_gpu_profile.sh names its results folder with it; experiments/gpu_slug.py runs it for the Python
// programs. Host-only: built with or without CUDA.
#include <gpu/gpu_slug.hpp>

#include <iostream>
#include <string>

int main(int argc, char** argv) {
  std::string name;
  if (argc > 1) name = argv[1];
  else std::getline(std::cin, name);
  std::cout << tdmaps::gpu::gpu_slug(name) << "\n";
  return 0;
}
