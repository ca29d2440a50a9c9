#!/usr/bin/env python3
"""Bounded fuzz test of every command line (issue #28 item 5).

    fuzz_args.py TDMAP BUILD_ROOT [--budget-s 20] [--timeout-s 10] [--jobs 4]

Runs `tdmap` (every subcommand) and every experiment program found under
BUILD_ROOT/experiments over a grid of bad, huge and boundary inputs, each case with a
TIMEOUT_S limit, JOBS at a time. A case passes when it

  * ends within the limit and is not killed by a signal (no hang, no crash), and
  * either exits 0 with an empty stderr (--predict-only: its one prediction line) and a correct
    answer (for `tdmap info` the counts are checked: launched >= useful, useful threads =
    tri(N) / tet(N)),
  * or exits with a documented non-zero code (tdmap: 2; programs: 2 bad input, 3 no GPU,
    77 skipped) with ONE line on stderr (77: one line on stdout) and nothing else printed.
    Inputs no program may take (MUST_REFUSE: a bad size, block side, count, name, a stray
    argument) must give exit 2 exactly, so a bad value cannot hide behind the no-GPU exit.

The programs never reach a GPU here: CUDA_VISIBLE_DEVICES is empty for every case, so a valid
command line ends at the no-GPU line (exit 3) and nothing is measured or written. A program
that is not built (no nvcc) is left out and named. The whole run stops at BUDGET_S: the
cases left are counted as not run, and the test fails only on a failing case.
"""
import concurrent.futures as cf
import os
import re
import subprocess
import sys
import time

BIG = ["0", "-1", "1", "2", "17", "1000", "65536", "100000000", "4294967296", "9223372036854775807",
       "9223372036854775808", "-9223372036854775808", "12x", "1e3", "", " ", "0x10"]
RHOS = [None, "0", "-1", "1", "10", "11", "32", "33", "512", "1024", "abc"]
MAPS2, MAPS3 = [], []  # the registry's maps, read from `tdmap list` (maps_of_tdmap, main)


def maps_of_tdmap(tdmap):
    """The 2D and 3D maps `tdmap list` names (the registry's, in its order)."""
    out = subprocess.run([tdmap, "list"], capture_output=True, text=True, timeout=60, check=True).stdout
    rows = [line.split() for line in out.splitlines()[1:]]
    m2 = [r[0] for r in rows if len(r) > 1 and r[1] == "2D"]
    m3 = [r[0] for r in rows if len(r) > 1 and r[1] == "3D"]
    if not m2 or not m3:
        sys.exit("fuzz_args: `tdmap list` names no 2D or no 3D map:\n" + out)
    return m2, m3


def tri(n):
    return n * (n + 1) // 2


def tet(n):
    return n * (n + 1) * (n + 2) // 6


def tdmap_cases(t):
    c = [[t], [t, "--help"], [t, "--version"], [t, "list"], [t, "types"], [t, "list", "--rho", "10"],
         [t, "list", "--rho", "33"], [t, "list", "x"], [t, "types", "--rho", "4"], [t, "frobnicate"],
         [t, "info"], [t, "--N", "5"], [t, "info", "-N", "5"], [t, "range"], [t, "dump", "bb"],
         [t, "info", "bb", "-N", "5", "-N", "6"], [t, "info", "bb", "--count-by", "walk", "-N", "100000000"]]
    for m in MAPS2 + MAPS3 + ["nosuch", "BB", "ltm-e "]:
        for rho in RHOS:
            r = [] if rho is None else ["--rho", rho]
            c.append([t, "range", m] + r)
            Ns = BIG if rho is None else ["1", "1000", "4294967296"]
            for N in Ns:
                c.append([t, "info", m, "-N", N] + r)
                c.append([t, "dump", m, "-N", N] + r + (["--threads"] if N in ("1", "17") else []))
        c.append([t, "info", m, "-N", "17", "extra"])
        for N, rho in (("65536", "16"), ("5000", "1"), ("100000", "32"), ("3000", "10")):
            c.append([t, "info", m, "-N", N, "--rho", rho, "--count-by", "walk"])
        c.append([t, "dump", m, "-N", "17", "--threads", "--rho", "4"])
    return c


# Flags every experiment program may be given, bad and boundary values.
COMMON = [[], ["--help"], ["--version"], ["extra"], ["--nosuch"], ["-N"], ["--N", "0"], ["-N", "-1"], ["-N", "1"],
          ["--N", "99999999999999999999"], ["--N", "1:0:1"], ["--N", "1:10:0"], ["--N", "1:99999999:1"],
          ["--N", "a"], ["--N", ""], ["--N", "1,,2"], ["--N", "4294967296"], ["--N", "2147483648"],
          ["--rho", "0"], ["--rho", "33"], ["--rho", "-1"], ["--rho", "1e3"], ["--reps", "0"],
          ["--reps", "99999999999"], ["--warmup", "-1"], ["--budget-s", "nan"], ["--budget-s", "-1"],
          ["--max-minutes", "0"], ["--max-minutes", "inf"], ["--max-minutes", "1e-9"], ["--min-reps", "0"],
          ["--maps", "nosuch"], ["--maps", ""], ["--test", "nosuch"], ["--quick", "--N", "1"], ["--quick"],
          ["--skip-if-no-gpu"], ["--predict-only"], ["--verify-max", "0"], ["--verify-max", "-1"],
          ["--bucket-width", "0"], ["--out", ""]]
SPECIFIC = {
    "bench_maps": [["--test", "sqrt", "--rho", "64"], ["--form", "x"], ["--form", "both"], ["--test", "dummy", "--maps", "ltm-lut,tet-e"],
                   ["--test", "dummy", "--N", "5000000"], ["--test", "dummy", "--N", "5000000", "--predict-only"]],
    "bench_apps": [["--features", "0"], ["--features", "5"], ["--layout", "x"], ["--dim", "2"], ["--style", "both"],
                   ["--maps", "ltm-x"], ["--test", "edm", "--N", "1000000"], ["--test", "collision", "--N", "2147483648"]],
    "bench_maps3d": [["--modes", "both"], ["--modes", "x"], ["--rho", "11"], ["--rho", "10"], ["--bw-planes", "3"],
                     ["--r", "0"], ["--r", "nan"], ["--verify-N", "5"], ["--test", "threebody", "--N", "200000"],
                     ["--form", "both"], ["--maps", "bb3"]],
    "bench_sdh": [["--bucket-width", "-1"], ["--bucket-width", "nan"], ["--buckets", "-1"], ["--box", "0"],
                  ["--impl", "x"], ["--threads-per-block", "0"], ["--threads-per-block", "2048"],
                  ["--verify-n", "5"], ["--N", "100000000"], ["--cpu-threads", "-1"], ["--seed", "-1"]],
    "multi_hist": [["--app", "x"], ["--app", "sdh", "--N", "30000000"], ["--chunks", "0"], ["--gpu-counts", "0"],
                   ["--width", "0"], ["--backend", "x"], ["--impl", "x"], ["--app", "threebody", "--map", "x"]],
    "gpu_exact_range": [["--ltm-max", "0"], ["--utm-max", "70000"], ["--tet-max", "99999999999999999999"]],
    "gpu_verify_apps": [["--only", "x"], ["--only", "both"], ["--only", "edm", "--only", "collision"]],
    "gpu_verify_maps": [["--maps", "x"], ["--max-N", "-1"], ["--rho", "33"]],
    "gpu_verify_3d": [["--quick"]],
    "gpu_verify_sdh": [],
}
# Inputs every program must refuse as bad input (exit 2, before any GPU work), whether it has
# the option (a bad value) or not (an unknown option). multi_hist is left out of this stricter
# check while it exits 2 without a GPU too.
MUST_REFUSE = [["extra"], ["--nosuch"], ["--N", "0"], ["-N", "-1"], ["--N", "a"], ["--N", "1:0:1"], ["--N", "1:10:0"],
               ["--rho", "0"], ["--rho", "33"], ["--rho", "-1"], ["--reps", "0"], ["--warmup", "-1"],
               ["--budget-s", "nan"], ["--budget-s", "-1"], ["--max-minutes", "0"], ["--min-reps", "0"],
               ["--maps", "nosuch"], ["--maps", ""], ["--test", "nosuch"], ["--bucket-width", "0"]]
STRICT_EXIT = {}  # every program: a bad input exits exactly 2
PROGRAMS = {"bench_maps": "maps2d", "gpu_exact_range": "maps2d", "gpu_verify_maps": "maps2d", "bench_apps": "apps2d",
            "gpu_verify_apps": "apps2d", "bench_maps3d": "maps3d", "gpu_verify_3d": "maps3d", "bench_sdh": "sdh",
            "gpu_verify_sdh": "sdh", "multi_hist": "multigpu"}


def check_info(args, out):
    """A correct `tdmap info` answer: its counts agree with the domain."""
    v = dict(re.findall(r"^(\w+)\s+(\d+)", out, re.M))
    try:
        N = int(v["N"])
        lb, ub, lt, ut = (int(v[k]) for k in ("launched_blocks", "useful_blocks", "launched_threads", "useful_threads"))
    except (KeyError, ValueError):
        return "info answered without its counts"
    want = tet(N) if "3D" in out.split("\n", 1)[0] else tri(N)
    if ut != want:
        return "useful_threads %d, the domain has %d" % (ut, want)
    if lb < ub or lt < ut or ub < 1:
        return "launched < useful"
    return ""


def run_case(args, timeout, tdmap, must_refuse=False):
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    t0 = time.monotonic()
    try:
        p = subprocess.run(args, capture_output=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "hangs: no answer within %g s" % timeout
    took = time.monotonic() - t0
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    rc = p.returncode
    if rc < 0 or rc >= 128:
        return "crashed (signal %d)" % (-rc if rc < 0 else rc - 128)
    if rc == 0 and must_refuse:
        return "accepted what it must refuse (exit 0)"
    if rc == 0:
        # --predict-only answers with its one prediction line on stderr
        if err.strip() and not ("--predict-only" in args and len(err.strip().splitlines()) == 1):
            return "exit 0 with stderr: " + err.strip().splitlines()[0][:160]
        if tdmap and len(args) > 1 and args[1] == "info":
            return check_info(args, out)
        return ""
    is_tdmap = tdmap
    if rc == 77 and not is_tdmap and not must_refuse:
        if err.strip() or len(out.strip().splitlines()) != 1:
            return "exit 77 without exactly one line on stdout"
        return ""
    allowed = {2} if is_tdmap or must_refuse else {1, 2, 3}
    if rc not in allowed:
        return "exit %d (documented: %s)" % (rc, sorted(allowed))
    lines = err.strip("\n").splitlines()
    if len(lines) != 1 or not lines[0].strip():
        return "exit %d with %d lines on stderr: %r" % (rc, len(lines), err[:200])
    if out.strip() and not (rc == 1):
        return "exit %d after printing to stdout: %r" % (rc, out[:120])
    del took
    return ""


def main():
    argv = sys.argv[1:]
    opts = {"--budget-s": 20.0, "--timeout-s": 10.0, "--jobs": 4}
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] in opts:
            opts[argv[i]] = type(opts[argv[i]])(argv[i + 1])
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    if len(pos) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    tdmap, root = pos
    m2, m3 = maps_of_tdmap(tdmap)
    MAPS2[:], MAPS3[:] = m2, m3
    cases = [(c, True, False) for c in tdmap_cases(tdmap)]
    missing = []
    for prog, area in PROGRAMS.items():
        exe = os.path.join(root, "experiments", area, prog)
        if not os.access(exe, os.X_OK):
            missing.append(prog)
            continue
        for extra in COMMON + SPECIFIC[prog]:
            cases.append(([exe] + extra, False, False))
        if STRICT_EXIT.get(prog, True):
            for extra in MUST_REFUSE:
                cases.append(([exe] + extra, False, True))
    t0 = time.monotonic()
    fails, done, late = [], 0, 0
    with cf.ThreadPoolExecutor(max_workers=opts["--jobs"]) as ex:
        futs = {}
        for c, is_t, strict in cases:
            futs[ex.submit(lambda c=c, is_t=is_t, strict=strict: None if time.monotonic() - t0 > opts["--budget-s"]
                           else run_case(c, opts["--timeout-s"], is_t, strict))] = c
        for f in cf.as_completed(futs):
            r = f.result()
            if r is None:
                late += 1
                continue
            done += 1
            if r:
                fails.append("FAIL: %s: %s" % (" ".join(repr(a) if (not a or " " in a) else a
                                                         for a in [os.path.basename(futs[f][0])] + futs[f][1:]), r))
    for line in sorted(fails):
        print(line)
    print("%d cases in %.1f s (%d jobs, %g s each at most): %d failed%s%s" % (
        done, time.monotonic() - t0, opts["--jobs"], opts["--timeout-s"], len(fails),
        ", %d not run (budget %g s)" % (late, opts["--budget-s"]) if late else "",
        "; not built, left out: " + ", ".join(missing) if missing else ""))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
