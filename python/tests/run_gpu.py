"""The GPU suite (meson test python_gpu, suite gpu): exit 77 (skipped) where no GPU, no PyTorch/CuPy
with CUDA, or a build without the GPU kernels; else pytest on test_gpu.py with the given arguments."""
import os
import sys

import pytest

try:  # torch before tdmaps (tdmaps/__init__.py says why)
    import torch  # noqa: F401
except ImportError:
    pass
import tdmaps


def gpu_seen():
    try:
        import torch
        if torch.cuda.is_available():
            return True
    except ImportError:
        pass
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # noqa: BLE001 - no CuPy, or no GPU
        return False


if __name__ == "__main__":
    if not gpu_seen():
        print("python_gpu: no GPU (or neither PyTorch nor CuPy with CUDA): skipped")
        sys.exit(77)
    if not tdmaps.build_info()["kernels"]:
        print("python_gpu: this build has no GPU kernels (CUTLASS and a GPU at configure time): skipped")
        sys.exit(77)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.exit(pytest.main([os.path.join(here, "test_gpu.py"), *sys.argv[1:]]))
