#!/usr/bin/env python3
"""experiments/gpu_slug.py — the folder name of a GPU model, the one Python copy of the rule of
src/support/gpu/metadata.cuh's gpu_slug (issue #28): lower case, a leading 'NVIDIA ' and the memory size /
type words (80GB, HBM3, HBM3e) dropped, the other words joined by '-':
'NVIDIA H100 80GB HBM3' -> h100, 'NVIDIA H200' -> h200, 'NVIDIA H100 PCIe' -> h100-pcie.
Imported by the Python programs (peers/torch_peers.py); run_gpu_profile.sh runs it:
  gpu_slug.py NAME   or   ... | gpu_slug.py   (the first line of stdin, e.g. nvidia-smi's name)"""
import re
import sys


def gpu_slug(name):
    n = name.strip().lower()
    if n.startswith("nvidia "):
        n = n[7:]
    return "-".join(w for w in re.split(r"[^a-z0-9]+", n) if w and not re.fullmatch(r"\d+gb|hbm\d*e?", w))


if __name__ == "__main__":
    print(gpu_slug(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.readline()))
