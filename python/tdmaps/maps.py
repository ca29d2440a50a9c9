"""The map library's closed-form facts, as the CLI `tdmap` prints them (`tdmap list`, `tdmap info`,
`tdmap range`), from the same C++ (src/lib/cli/facts.hpp); no GPU needed.

    >>> import tdmaps.maps
    >>> tdmaps.maps.info("ltm-e", 1000)["launched_blocks"]
    >>> tdmaps.maps.range("ltm")["largest_N"]
"""
from . import _core

__all__ = ["list", "info", "range"]


def list():  # noqa: A001 - the CLI's name
    """[(name, dimension)] of every map, in the registry's order (`tdmap list`)."""
    return [(name, dim) for name, dim in _core.maps_list()]


def info(map, N, *, rho=None):  # noqa: A002
    """`tdmap info MAP -N N [--rho R]` as a dict: map, dim, maps ("block"/"thread"), N, rho, n,
    passes, grids [((gx, gy, gz), (bx, by, bz)) per pass], launched/useful/wasted blocks and threads,
    accepts, exact, device (a warning or None). ValueError where the CLI refuses (its words)."""
    return _core.maps_info(str(map), int(N), rho)


def range(map, *, rho=None):  # noqa: A001
    """`tdmap range MAP [--rho R]` as a dict: map, rho, largest_N, accepts, past (plan()'s refusal
    just past it, or None), between (REC), exact, device."""
    return _core.maps_range(str(map), rho)
