#!/usr/bin/env python3
"""experiments/gpu_slug.py — the folder name of a GPU model for the Python programs
(peers/torch_peers.py, peers/gram_peers.py, sdh/torch_sdh.py: `from gpu_slug import gpu_slug`). The rule
has one definition, src/support/gpu/gpu_slug.hpp (the CUDA programs apply it to the device's name); this
module runs its program, experiments/gpu_slug.cpp ('NVIDIA H100 80GB HBM3' -> h100, 'NVIDIA H200' -> h200,
'NVIDIA H100 PCIe' -> h100-pcie). The program: $TDMAPS_GPU_SLUG_PROGRAM (run_gpu_profile.sh sets it), else
build/experiments/gpu_slug of this checkout (make builds it, with or without CUDA).
  gpu_slug.py NAME   or   ... | gpu_slug.py   (the first line of stdin)"""
import os
import subprocess
import sys


def program():
    p = os.environ.get("TDMAPS_GPU_SLUG_PROGRAM") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "experiments", "gpu_slug")
    if not os.access(p, os.X_OK):
        sys.exit(f"gpu_slug: {p} not found: build the C++ programs first (make), or set TDMAPS_GPU_SLUG_PROGRAM")
    return p


def gpu_slug(name):
    return subprocess.run([program(), name.strip()], capture_output=True, text=True, check=True).stdout.strip()


if __name__ == "__main__":
    print(gpu_slug(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.readline()))
