"""experiments/peers/peer_common.py -- what the PyTorch peer scripts share (torch_peers.py, gram_peers.py,
python_peers.py).

add_run_args --reps, --warmup, --out, --quick
parse_sizes  a comma list of integers and/or ranges A:B:STEP, as every program of the package takes --N
open_cuda    PyTorch and its CUDA device, or None after one line saying why the peers are skipped
run_meta     the metadata every peer CSV opens with (its first line, '# {json}')
event_times  CUDA-event times (ms) of `reps` calls after `warmup` calls
"""
import datetime
import os
import platform
import sys

# the GPU-folder rule (experiments/gpu_slug.py runs its one definition, src/support/gpu/gpu_slug.hpp)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gpu_slug import gpu_slug  # noqa: E402


def add_run_args(p, csv_name, reps, warmup, quick_help):
    """The options every peer script shares: --reps, --warmup, --out (its CSV goes to <out>/<gpu_slug>/csv_name), --quick."""
    p.add_argument("--reps", type=int, default=reps, help="timed calls per point (default %d)" % reps)
    p.add_argument("--warmup", type=int, default=warmup, help="untimed calls first (default %d)" % warmup)
    p.add_argument("--out", default="experiments/results/local",
                   help="results folder: <out>/<gpu_slug>/%s (default experiments/results/local)" % csv_name)
    p.add_argument("--quick", action="store_true", help=quick_help)


def parse_sizes(p, spec, what, lo, hi, max_count=100000):
    """Integers of `spec` (comma list of N or A:B:STEP), each in lo..hi, first-seen order; p.error on bad input."""
    out = []
    for item in spec.split(","):
        try:
            v = [int(x) for x in item.split(":")]
        except ValueError:
            p.error("%s: '%s' is not an integer or a range A:B:STEP" % (what, item))
        if len(v) == 1:
            v = [v[0], v[0], 1]
        if len(v) != 3 or v[0] < lo or v[1] > hi or v[1] < v[0] or v[2] < 1 or (v[1] - v[0]) // v[2] > max_count:
            p.error("%s: '%s' must be in %d..%d, or a range A:B:STEP with %d <= A <= B, STEP >= 1" % (what, item, lo, hi, lo))
        out += [x for x in range(v[0], v[1] + 1, v[2]) if x not in out]
    return out


def open_cuda(program, out, csv_name):
    """(torch, device, GPU name, GPU-folder slug, <out>/<slug>/<csv_name>, its folder made), or None when PyTorch
    or a CUDA GPU is absent (said in one line)."""
    try:
        import torch
    except ImportError:
        print("%s: PyTorch is not installed; peers skipped" % program)
        return None
    if not torch.cuda.is_available():
        print("%s: no CUDA GPU visible to PyTorch; peers skipped" % program)
        return None
    dev = torch.device("cuda")
    name = torch.cuda.get_device_name(dev)
    slug = gpu_slug(name)
    os.makedirs(os.path.join(out, slug), exist_ok=True)
    return torch, dev, name, slug, os.path.join(out, slug, csv_name)


def run_meta(program, argv, torch, name, slug, **extra):
    """The metadata of a peer CSV: program, arguments, date, versions, device; then `extra`."""
    meta = {
        "program": program,
        "args": " ".join(argv),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "gpu": name,
        "gpu_slug": slug,
        "python": platform.python_version(),
    }
    meta.update(extra)
    return meta


def event_times(torch, fn, warmup, reps):
    """Milliseconds of `reps` calls of fn(), each between two CUDA events, after `warmup` untimed calls."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        y = fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
        del y
    return times


class PeerCsv:
    """A peer CSV: the metadata line and the header on open, then one flushed row per call; 'wrote' on close."""

    def __init__(self, program, path, meta, header):
        import json
        self.program, self.path = program, path
        self.f = open(path, "w")
        self.f.write("# " + json.dumps(meta) + "\n" + header + "\n")
        self.f.flush()

    def row(self, line):
        self.f.write(line + "\n")
        self.f.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
        print("[%s] wrote %s" % (self.program, self.path), file=sys.stderr)
        return False
