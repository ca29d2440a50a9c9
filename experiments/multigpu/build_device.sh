#!/usr/bin/env bash
# Builds multi_hist and multi_hist_mpi (with the Gram kernels) on the GPU machine, for issue #40.
#   experiments/multigpu/build_device.sh [BUILD]        (default build-dev)
# Boost and CUTLASS come from .carry/ (not on that machine): .carry/boost/{include,lib} holds the
# Boost.Program_options headers (g++ -M of <boost/program_options.hpp>) and libboost_program_options.a of
# the machine that made it (Debian, Boost 1.74); .carry/cutlass/include is .tools/cutlass/include
# (.ci/deps.sh). NCCL: meson.build looks beside nvcc and in the system; where it is only in the pip
# package nvidia-nccl-cu13 (PyTorch's), its folder is put on the compiler's and the loader's paths.
set -euo pipefail
b=${1:-build-dev}
if ! ldconfig -p 2>/dev/null | grep -q 'libnccl\.so' && ! ls "$(dirname "$(dirname "$(command -v nvcc)")")"/lib64/libnccl.so >/dev/null 2>&1; then
  nd=$(python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__) if nvidia.nccl.__file__ else list(nvidia.nccl.__path__)[0])' 2>/dev/null || true)
  if [ -n "$nd" ] && [ -d "$nd/lib" ]; then
    mkdir -p /tmp/nccl_lib && ln -sf "$(ls "$nd"/lib/libnccl.so* | head -n 1)" /tmp/nccl_lib/libnccl.so
    export LIBRARY_PATH="/tmp/nccl_lib:$nd/lib${LIBRARY_PATH:+:$LIBRARY_PATH}" CPATH="$nd/include${CPATH:+:$CPATH}"
    export LD_LIBRARY_PATH="$nd/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "build_device: NCCL from $nd"
  fi
fi
export BOOST_ROOT=$PWD/.carry/boost
[ -d "$b" ] || meson setup "$b" -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass="$PWD/.carry/cutlass/include" -Dfigures=disabled
# where NCCL came from the pip package, the programs need its folder on LD_LIBRARY_PATH: $b/nccl_ld_path
if [ -n "${nd:-}" ]; then echo "$nd/lib" > "$b/nccl_ld_path"; else rm -f "$b/nccl_ld_path"; fi
ninja -C "$b" -j "$(nproc)" experiments/multigpu/multi_hist experiments/multigpu/multi_hist_mpi
ls -l "$b/experiments/multigpu/multi_hist" "$b/experiments/multigpu/multi_hist_mpi"
