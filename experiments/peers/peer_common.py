"""experiments/peers/peer_common.py -- what the PyTorch peer scripts share (torch_peers.py, gram_peers.py,
python_peers.py, ../sdh/torch_sdh.py; python_overhead.py its event_times).

add_run_args --reps, --warmup, --out, --quick
parse_sizes  a comma list of integers and/or ranges A:B:STEP, as every program of the package takes --N
open_cuda    PyTorch and its CUDA device, or None after one line saying why the peers are skipped
run_meta     the metadata every peer CSV opens with (its first line, '# {json}'): commit, device UUID, clocks
event_times  CUDA-event times (ms) of `reps` calls after `warmup` calls
PeerCsv      the one writer of a peer CSV: the metadata line, the layout's header, rows by column name
"""
import datetime
import os
import platform
import subprocess
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


def commit_id():
    """The tree's commit as the C++ programs record it (12 hex digits, "+dirty" for local changes): $TDMAPS_COMMIT
    where set (a copy of the tree without its .git), else git's answer, else "unknown"."""
    c = os.environ.get("TDMAPS_COMMIT")
    if c:
        return c
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        head = subprocess.run(["git", "-C", here, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True,
                              timeout=10)
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def device_meta(torch, dev):
    """The device as the C++ programs record it: UUID, SMs, memory, and (nvidia-smi, where it answers) the
    maximum and current clocks and the driver."""
    m = {}
    props = torch.cuda.get_device_properties(dev)
    uuid = getattr(props, "uuid", None)
    if uuid is not None:
        m["uuid"] = "GPU-" + str(uuid)
    m["cc"] = "%d.%d" % (props.major, props.minor)
    m["sm_count"] = props.multi_processor_count
    m["global_mem_mib"] = props.total_memory // 2**20
    q = "clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,driver_version"
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=" + q, "--format=csv,noheader,nounits", "-i",
                            m.get("uuid", str(torch.cuda.current_device()))], capture_output=True, text=True, timeout=20)
        v = [x.strip() for x in r.stdout.strip().split(",")]
        if r.returncode == 0 and len(v) == 5:
            m.update(sm_clock_max_mhz=v[0], mem_clock_max_mhz=v[1], sm_clock_mhz=v[2], mem_clock_mhz=v[3], driver=v[4])
    except (OSError, subprocess.SubprocessError):
        pass
    return m


def run_meta(program, argv, torch, name, slug, **extra):
    """The metadata of a peer CSV: program, arguments, date, commit, versions, device (UUID, clocks); then `extra`."""
    meta = {
        "program": program,
        "args": " ".join(argv),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit_id(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "gpu": name,
        "gpu_slug": slug,
        "python": platform.python_version(),
    }
    meta.update(device_meta(torch, torch.cuda.current_device()))
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


def row_line(header, cells):
    """The CSV line of one row of `header` (experiments/layouts.py HEADERS: the layout's columns), its cells given by
    column name and written in the header's order, each as an f-string writes it (format it first: f"{x:.6g}").
    A column of the header without a cell, or a cell of no column, is a ValueError naming them; so is a cell
    whose text holds a comma or a line break (it would shift the row's columns)."""
    columns = header.split(",")
    missing = [c for c in columns if c not in cells]
    unknown = [c for c in cells if c not in columns]
    if missing or unknown:
        raise ValueError("row of layout '%s': %s" % (header, "; ".join(
            ([("missing column(s) " + ", ".join(missing))] if missing else []) +
            ([("unknown column(s) " + ", ".join(unknown))] if unknown else []))))
    text = [format(cells[c]) for c in columns]
    bad = [c for c, t in zip(columns, text) if "," in t or "\n" in t]
    if bad:
        raise ValueError("row of layout '%s': the cell(s) of %s hold a comma or a line break" % (header, ", ".join(bad)))
    return ",".join(text)


class PeerCsv:
    """A peer CSV: the metadata line and the header on open, then one flushed row per call of row(**cells), its cells
    by column name (row_line: every column of the header, no other); 'wrote' on close."""

    def __init__(self, program, path, meta, header):
        import json
        self.program, self.path, self.header = program, path, header
        self.f = open(path, "w")
        self.f.write("# " + json.dumps(meta) + "\n" + header + "\n")
        self.f.flush()

    def row(self, **cells):
        self.f.write(row_line(self.header, cells) + "\n")
        self.f.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
        print("[%s] wrote %s" % (self.program, self.path), file=sys.stderr)
        return False
