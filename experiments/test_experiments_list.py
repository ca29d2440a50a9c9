#!/usr/bin/env python3
"""experiments/test_experiments_list.py SOURCE_ROOT BUILD_ROOT — the test experiments_list (make verify).

Proves that experiments/experiments.list, the one list of experiments, drives the scripts and the tests,
reading the list on its own (this parser, not the scripts' experiments.sh):
  - run_gpu_profile.sh --dry-run (probe and full) prints exactly the list's steps, in order, each as
    program + args + quick / full;
  - run_figures.sh --dry-run (and FULL=1) is that profile;
  - run_sanitizer.sh --dry-run runs exactly the lines with a sanitize column, under both tools;
  - the run scripts name no experiment program of their own (every program comes from the list);
  - the meson tests of suite 'gpu' are exactly the lines with a smoke column (args + smoke), where CUDA
    is built (BUILD_ROOT/meson-info/intro-tests.json);
  - every csv a line writes is a per-GPU layout of src/support/results/layouts.hpp, and every per-GPU layout
    is written by a line (but those written by hand, named below).
figures/smoke_test.sh checks the synthetic results against the same list.
"""
import json
import os
import re
import subprocess
import sys

# per-GPU layouts no step of the profile writes (run by hand, experiments/sdh/README.md)
NOT_IN_PROFILE = {
    "sdh_cpu_1M.csv": "bench_sdh's all-core CPU run at N = 1e6, by hand",
    "peers_sdh.csv": "experiments/sdh/torch_sdh.py, by hand",
    "gram_multigpu.csv": "multi_hist --app gram on 1 and 2 GPUs (experiments/multigpu/README.md), by hand",
    "gram_multigpu_exact.csv": "multi_hist --app gram --exact on 1 and 2 GPUs (run_multigpu.sh i37_gram_exact), by hand",
    "ncu_gram.csv": "experiments/gram/ncu_binds on Nsight Compute reports (experiments/gram/README.md), by hand",
    "compare_with_committed.csv": "experiments/compare_runs.py --out, a rerun against the committed results, by hand",
}
# GPU tests of experiment programs not yet made from the list (remove with their line)
NOT_YET = {}
COLUMNS = ["name", "needs", "program", "args", "quick", "full", "csv", "smoke", "smoke_s", "sanitize"]

src, build = sys.argv[1], sys.argv[2]
exp = os.path.join(src, "experiments")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def read_list():
    rows = []
    with open(os.path.join(exp, "experiments.list")) as f:
        for line in f:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in line.rstrip("\n").split("|")]
            if len(cols) != len(COLUMNS):
                fail("not %d columns: %s" % (len(COLUMNS), line.strip()))
                continue
            rows.append(dict(zip(COLUMNS, cols)))
    names = [r["name"] for r in rows]
    for n in set(names):
        if names.count(n) > 1:
            fail("name twice in the list: " + n)
    for r in rows:
        if r["needs"] not in ("gpu", "cpu", "nccl", "cutlass", "torch"):
            fail("%s: needs is %r" % (r["name"], r["needs"]))
        if not r["smoke_s"].isdigit():
            fail("%s: smoke_s is %r" % (r["name"], r["smoke_s"]))
    return rows


def command(r, more, E, out, logs):
    p = r["program"]
    if p.endswith(".sh"):
        cmd = ["bash", os.path.join(exp, p)]
    elif p.endswith(".py"):
        cmd = ["python3", os.path.join(exp, p)]
    else:
        cmd = [E + "/" + p]
    for w in (r["args"] + " " + more).split():
        cmd.append(w.replace("@E@", E).replace("@out@", out).replace("@logs@", logs))
    return cmd


def dry(args, env=None):
    e = dict(os.environ, TDMAPS_GPU_SLUG="gpu")
    e.pop("FULL", None)
    e.pop("RESULTS", None)
    e.update(env or {})
    r = subprocess.run(["bash"] + args, capture_output=True, text=True, env=e, cwd=src)
    if r.returncode != 0:
        fail("%s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r.stdout.splitlines()


def compare(what, got, want):
    if got == want:
        print("ok: %s: %d commands, the list's" % (what, len(want)))
        return
    fail("%s does not run the list:" % what)
    for g, w in zip(got + [""] * len(want), want + [""] * len(got)):
        if g != w:
            print("   got:  " + g + "\n   want: " + w)
            break


rows = read_list()
B = "/dry/build"
E = B + "/experiments"
for profile, col in (("probe", "quick"), ("full", "full")):
    want = ["%s: %s" % (r["name"], " ".join(command(r, r[col], E, "/dry/res", "/dry/res/gpu/logs"))) for r in rows]
    compare("run_gpu_profile.sh %s" % profile,
            dry([os.path.join(exp, "run_gpu_profile.sh"), "--dry-run", B, "/dry/res", profile]), want)
    local = "experiments/results/local"
    want = ["%s: %s" % (r["name"], " ".join(command(r, r[col], E, local, local + "/gpu/logs"))) for r in rows]
    compare("make figures (%s profile)" % profile,
            dry([os.path.join(exp, "run_figures.sh"), "--dry-run", B], {"FULL": "1" if profile == "full" else "0"}),
            want)
want = ["%s %s: %s" % (tool, r["name"], " ".join(command(r, r["sanitize"], E, "/scratch", "/scratch/logs")))
        for tool in ("memcheck", "racecheck") for r in rows if r["sanitize"] != "-"]
compare("run_sanitizer.sh", dry([os.path.join(exp, "run_sanitizer.sh"), "--dry-run", B, "/dry/logs"]), want)

# the scripts name no program of the list themselves
programs = {os.path.basename(r["program"]) for r in rows}
for script in ("run_gpu_profile.sh", "run_figures.sh", "run_sanitizer.sh"):
    text = open(os.path.join(exp, script)).read()
    code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    for p in sorted(programs):
        if re.search(r"\b%s\b" % re.escape(p), code):
            fail("%s names %s itself (a step belongs in experiments.list)" % (script, p))

# the meson tests of suite gpu
intro = os.path.join(build, "meson-info", "intro-tests.json")
targets = os.path.join(build, "meson-info", "intro-targets.json")
tests = json.load(open(intro))
# the GPU tests of the experiment programs (examples/ and the library have GPU tests of their own)
exp_build = os.path.join(build, "experiments") + os.sep
gpu_tests = {t["name"]: t for t in tests if any(s.split(":")[-1] == "gpu" for s in t["suite"])
             and os.path.abspath(t["cmd"][0]).startswith(os.path.abspath(exp_build)) and t["name"] not in NOT_YET}
built = set()
for t in json.load(open(targets)):
    for fn in t.get("filename", []):
        built.add(os.path.relpath(fn, os.path.join(build, "experiments")))
cuda = any(p.startswith("maps2d/") for p in built)
want_tests = {}
for r in rows:
    if r["smoke"] == "-" or not cuda:
        continue
    if r["needs"] == "cutlass" and "gram/bench_gram" not in built:
        continue  # no Gram kernels here (multi_hist is built without --app gram)
    if r["program"] not in built:
        if r["needs"] in ("nccl", "cutlass"):
            continue
        fail("%s: its program %s is not built" % (r["name"], r["program"]))
        continue
    want_tests[r["name"]] = r
res_tmp = os.path.join(build, "experiments", "test-results")
for name in sorted(set(gpu_tests) | set(want_tests)):
    if name not in want_tests:
        fail("meson test %s (suite gpu) is not a line of experiments.list" % name)
        continue
    if name not in gpu_tests:
        fail("experiments.list line %s has a smoke column but no meson test of suite gpu" % name)
        continue
    r, t = want_tests[name], gpu_tests[name]
    want = command(r, r["smoke"], os.path.join(build, "experiments"), res_tmp, res_tmp + "/logs")
    got = [os.path.relpath(t["cmd"][0], build)] + t["cmd"][1:]
    want = [os.path.relpath(want[0], build)] + want[1:]
    if got != want:
        fail("meson test %s runs %s, the list says %s" % (name, " ".join(got), " ".join(want)))
    if t["timeout"] != int(r["smoke_s"]):
        fail("meson test %s: timeout %s, the list says %s" % (name, t["timeout"], r["smoke_s"]))
print("ok: %d meson tests of suite gpu, the list's smoke lines%s" % (len(gpu_tests), "" if cuda else " (no CUDA: none)"))

# the CSVs against the layouts
layouts = re.findall(r'Layout\s+\w+\{"([^"]+)",\s*"(\w+)"', open(os.path.join(src, "src", "support", "results", "layouts.hpp")).read())
gpu_layouts = {f for f, where in layouts if where == "gpu"}
written = set()
for r in rows:
    if r["csv"] == "-":
        continue
    for f in r["csv"].split(","):
        written.add(f)
        if f not in gpu_layouts:
            fail("%s writes %s, not a per-GPU layout of src/support/results/layouts.hpp" % (r["name"], f))
for f in sorted(gpu_layouts - written - set(NOT_IN_PROFILE)):
    fail("no line of experiments.list writes %s (a per-GPU layout of layouts.hpp)" % f)
print("ok: the list writes %d of the %d per-GPU layouts (%s by hand)" % (len(written), len(gpu_layouts),
                                                                   ", ".join(sorted(NOT_IN_PROFILE))))
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("experiments_list: ok")
