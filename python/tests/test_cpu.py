"""The Python package without a GPU (make verify): import, every refusal that needs no GPU, and
tdmaps.maps against the CLI `tdmap` (TDMAPS_TDMAP; the build's). Run from the build tree
(PYTHONPATH=<build>/python: python/tests/meson.build)."""
import inspect
import os
import re
import subprocess

import pytest

import tdmaps
import tdmaps.maps

np = pytest.importorskip("numpy")
TDMAP = os.environ.get("TDMAPS_TDMAP")


def tdmap(*args):
    if not TDMAP:
        pytest.skip("TDMAPS_TDMAP (the CLI) not given")
    r = subprocess.run([TDMAP, *args], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def test_import_and_build_info():
    info = tdmaps.build_info()
    assert set(info) >= {"version", "kernels", "exact", "sm90a"}
    assert tdmaps.__version__ == info["version"]
    for name in ("pdist", "histogram", "radius_count", "gram", "kernel_for", "maps"):
        assert hasattr(tdmaps, name)


def test_bound_coefficient():
    # c_P = 3 u_P + (K + 4) 2^-23 (src/support/gram/gram_cpu.hpp)
    assert tdmaps.bound_coefficient("tf32", 4) == 3 * 2.0**-11 + 8 * 2.0**-23
    assert tdmaps.bound_coefficient("3xtf32", 4) == 3 * 2.0**-21 + 16 * 2.0**-23
    assert tdmaps.bound_coefficient("bf16", 1) == 3 * 2.0**-8 + 5 * 2.0**-23


def test_precisions_are_the_cpp_vocabulary():
    # the names and the default of every precision=: the Gram vocabulary's (gram_names.hpp kPrecs, kDefaultPrec)
    assert tdmaps.PRECISIONS == tuple(tdmaps._core.precisions)
    assert tdmaps._core.default_precision in tdmaps.PRECISIONS
    for f in (tdmaps.pdist, tdmaps.histogram, tdmaps.radius_count, tdmaps.gram, tdmaps.kernel_for):
        assert inspect.signature(f).parameters["precision"].default is tdmaps._core.default_precision


def test_largest_value_is_the_cpp_fact():
    # the largest |value| of x each precision takes, beside c_P in gram_bound.hpp (fp16: 65504): the check of x names it
    assert tdmaps._core.largest_value("fp16") == 65504.0
    with pytest.raises(ValueError, match="past fp16's largest 65504; "):
        tdmaps._arrays._check_absmax(70000.0, 4, "fp16")
    for p in tdmaps.PRECISIONS:
        tdmaps._arrays._check_absmax(65504.0, 4, p)  # within every precision's range
    tdmaps._arrays._check_absmax(1e6, 4, None)  # float64 (the exact mode): no operand type


F32 = np.float32
BAD_INPUTS = [
    ([1.0, 2.0], TypeError, "DLPack"),
    (np.zeros((8, 3)), TypeError, "float64; tdmaps takes float32"),
    (np.zeros((8, 3), np.int32), TypeError, "int32"),
    (np.zeros(8, F32), ValueError, "2-D"),
    (np.zeros((2, 8, 3), F32), ValueError, "2-D"),
    (np.zeros((1, 3), F32), ValueError, "at least 2"),
    (np.zeros((0, 3), F32), ValueError, "at least 2"),
    (np.zeros((8, 0), F32), ValueError, "d = 0"),
    (np.zeros((8, 6), F32)[:, ::2], ValueError, "not C-contiguous"),
    (np.zeros((6, 8), F32).T, ValueError, "not C-contiguous"),
    (np.zeros((8, 3), F32), ValueError, "on the CPU"),
]


@pytest.mark.parametrize("x, exc, words", BAD_INPUTS, ids=[str(k) for k in range(len(BAD_INPUTS))])
@pytest.mark.parametrize("call", ["pdist", "histogram", "radius_count", "gram"])
def test_refusals(x, exc, words, call):
    f = {"pdist": lambda a: tdmaps.pdist(a), "histogram": lambda a: tdmaps.histogram(a, 10),
         "radius_count": lambda a: tdmaps.radius_count(a, 0.5), "gram": lambda a: tdmaps.gram(a)}[call]
    with pytest.raises(exc, match=re.escape(words)) as e:
        f(x)
    assert "\n" not in str(e.value)  # one sentence


def test_argument_refusals():
    x = np.zeros((8, 3), F32)
    with pytest.raises(ValueError, match="precision must be one of"):
        tdmaps.pdist(x, precision="fp8")
    with pytest.raises(ValueError, match="out must be"):
        tdmaps.pdist(x, out="upper")
    with pytest.raises(ValueError, match="eps must be finite"):
        tdmaps.radius_count(x, -1.0)
    with pytest.raises(ValueError, match="eps must be finite"):
        tdmaps.radius_count(x, float("nan"))
    with pytest.raises(ValueError, match="precision must be one of"):
        tdmaps.histogram(x, 10, precision="fp64")
    # said before anything about x or the GPU (x here is on the CPU, which comes after)
    with pytest.raises(TypeError, match="squared must be True or False"):
        tdmaps.pdist(x, squared="yes")
    with pytest.raises(ValueError, match="bins must be at least 1"):
        tdmaps.histogram(x, 0)
    with pytest.raises(ValueError, match="increase monotonically"):
        tdmaps.histogram(x, [3.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="is not finite"):
        tdmaps.histogram(x, 10, range=(0.0, float("nan")))
    with pytest.raises(TypeError, match="exact must be True or False"):
        tdmaps.histogram(x, 10, exact="no")
    with pytest.raises(ValueError, match="d must be >= 1"):
        tdmaps.bound_coefficient("tf32", 0)


def test_no_kernels_sentence():
    if tdmaps.build_info()["kernels"]:
        pytest.skip("this build has the GPU kernels")
    with pytest.raises(RuntimeError, match=r"no GPU kernels.*pip install \.") as e:
        tdmaps.kernel_for("lower")
    assert "\n" not in str(e.value)


# ---- tdmaps.maps against the CLI ----------------------------------------------------------
def cli_info(m, N, rho=None):
    args = ["info", m, "-N", str(N)] + (["--rho", str(rho)] if rho else [])
    rc, out, err = tdmap(*args)
    assert rc == 0, err
    kv = {}
    for line in out.splitlines():
        key, _, val = line.partition(" ")
        kv[key] = val.strip()
    return kv


def first_int(s):
    return int(s.split()[0])


MAPS = [name for name, _ in tdmaps.maps.list()]


def test_list_matches_cli():
    rc, out, err = tdmap("types")
    assert rc == 0, err
    assert [(l.split()[0], int(l.split()[1])) for l in out.splitlines()] == tdmaps.maps.list()


@pytest.mark.parametrize("m", MAPS)
@pytest.mark.parametrize("N", [1000, 4097])
def test_info_matches_cli(m, N):
    N = 1024 if m.startswith("rec") else min(N, tdmaps.maps.range(m)["largest_N"])  # sizes the map accepts
    f = tdmaps.maps.info(m, N)
    kv = cli_info(m, f["N"])
    assert kv["map"].split()[0] == f["map"]
    assert first_int(kv["N"]) == f["N"] and first_int(kv["rho"]) == f["rho"] and first_int(kv["n"]) == f["n"]
    for key in ("launched_blocks", "useful_blocks", "wasted_blocks", "launched_threads", "useful_threads",
                "wasted_threads"):
        assert first_int(kv[key]) == f[key], key
    assert kv["accepts"] == f["accepts"] and kv["exact"] == f["exact"]
    assert kv.get("device") == f["device"]
    grid_lines = [v for k, v in kv.items() if k.startswith("grid")]
    if f["dim"] == 2:
        assert first_int(kv["passes"]) == f["passes"] == len(grid_lines)
        (gx, gy, _), (bx, by, _) = f["grids"][0]
        assert grid_lines[0] == f"{gx} x {gy} blocks of {bx} x {by} threads"
    else:
        (gx, gy, gz), (bx, by, bz) = f["grids"][0]
        assert grid_lines[0] == f"{gx} x {gy} x {gz} blocks of {bx} x {by} x {bz} threads"


@pytest.mark.parametrize("m", MAPS)
def test_range_matches_cli(m):
    rc, out, err = tdmap("range", m)
    assert rc == 0, err
    r = tdmaps.maps.range(m)
    lines = out.splitlines()
    assert lines[0] == f"{r['map']}: {r['accepts']}"
    body = {l.split(":")[0].strip(): l.split(":", 1)[1].strip() for l in lines[1:]}
    assert body.get("past that") == r["past"]
    assert body.get("between") == r["between"]
    assert body["exact"] == r["exact"]
    assert body.get("device") == r["device"]


@pytest.mark.parametrize("args", [("ltm-e", 0), ("bb", -5), ("ltm-e", 2**40), ("bb", 2**40), ("no-such-map", 100)])
def test_info_refusals_match_cli(args):
    m, N = args
    rc, _, err = tdmap("info", m, "-N", str(N))
    assert rc == 2
    with pytest.raises(ValueError) as e:
        tdmaps.maps.info(m, N)
    cli = err.strip().removeprefix("tdmap: ")
    if m == "no-such-map":
        assert "unknown map 'no-such-map'" in str(e.value) and "unknown map 'no-such-map'" in cli
    else:
        assert str(e.value) == cli


def test_rho_refusal_matches_cli():
    rc, _, err = tdmap("info", "ltm-e", "-N", "100", "--rho", "33")
    assert rc == 2
    with pytest.raises(ValueError) as e:
        tdmaps.maps.info("ltm-e", 100, rho=33)
    assert str(e.value) == err.strip().removeprefix("tdmap: ")
