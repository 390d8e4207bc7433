"""numpy.pad's modes against NumPy's own pad, on arrays split over the
ranks (shapes with fewer rows than ranks, pads wider than the array, so
that reflect and wrap take several rounds), under mpiexec -n 1, 2, 3."""
import numpy
import pytest

import maniple.numpy as mnp
from xp import check, data, raises_like

SHAPES = [(7,), (6, 5), (2, 1, 4), (1,), (3, 9)]
WIDTHS = [1, (2, 3), 11, ((0, 4),), 0, {0: (3, 1)}]
MODES = [("constant", {}), ("constant", {"constant_values": ((1, -2),)}), ("constant", {"constant_values": 7.5}),
         ("edge", {}), ("linear_ramp", {}), ("linear_ramp", {"end_values": (-3, 7)}), ("maximum", {}),
         ("minimum", {"stat_length": 2}), ("mean", {"stat_length": ((1, 3),)}), ("median", {}),
         ("median", {"stat_length": 1.6}), ("reflect", {}), ("reflect", {"reflect_type": "odd"}), ("symmetric", {}),
         ("symmetric", {"reflect_type": "odd"}), ("wrap", {})]


def _x(shape, dtype):
    if dtype == "complex128":
        return data(shape, "float64", seed=1) + 1j * data(shape, "float64", seed=2)
    return data(shape, "float64", seed=1).astype(dtype) if dtype != "uint8" else numpy.abs(data(shape, "int64")).astype(
        dtype)


@pytest.mark.parametrize("mode,kw", MODES, ids=[f"{m}-{i}" for i, (m, _) in enumerate(MODES)])
@pytest.mark.parametrize("dtype", ["float64", "int64", "float32", "uint8", "complex128"])
def test_pad_as_numpy(mode, kw, dtype):
    # mean of float32 sums in another order than NumPy's pairwise sum: a rounding apart
    tol = {"rtol": 1e-6} if dtype == "float32" and mode == "mean" else \
        {"rtol": 1e-14} if dtype == "complex128" and mode == "mean" else {}
    for shape in SHAPES:
        x = _x(shape, dtype)
        for w in WIDTHS:
            if isinstance(w, dict) and len(shape) == 1 and 0 not in w:
                continue
            check(lambda xp: xp.pad(xp.asarray(x), w, mode, **kw), **tol)


def test_pad_corners_and_layout():
    """Each axis pads over the pads of the axes before it: the corners are
    NumPy's; an F-ordered array pads to an F-ordered one."""
    x = data((5, 4), "float64")
    for mode in ("edge", "reflect", "wrap", "mean", "linear_ramp"):
        check(lambda xp: xp.pad(xp.asarray(x), ((2, 3), (4, 1)), mode))
    f = mnp.ones((5, 8), order="F")
    assert mnp.pad(f, 2, "edge").flags.f_contiguous and not mnp.pad(mnp.ones((5, 8)), 2).flags.f_contiguous


def test_pad_with_a_function():
    def ends(v, width, iaxis, kwargs):
        v[:width[0]] = kwargs.get("fill", -1)
        if width[1]:
            v[-width[1]:] = 99
    x = data((4, 3), "int64")
    check(lambda xp: xp.pad(xp.asarray(x), 2, ends, fill=5))


def test_pad_refusals():
    x = data((4, 3), "float64")
    raises_like(lambda xp: xp.pad(xp.asarray(x), 1, "nearest"), ValueError, "mode 'nearest' is not supported")
    raises_like(lambda xp: xp.pad(xp.asarray(x), 1, "edge", constant_values=3), ValueError,
                "unsupported keyword arguments for mode 'edge'")
    raises_like(lambda xp: xp.pad(xp.asarray(x), 1.5, "edge"), TypeError, "`pad_width` must be of integral type")
    raises_like(lambda xp: xp.pad(xp.asarray(x), ((1, -1),), "edge"), ValueError, "index can't contain negative")
    raises_like(lambda xp: xp.pad(xp.asarray(x), ((1, 2, 3),), "edge"), ValueError, "could not be broadcast")
    raises_like(lambda xp: xp.pad(xp.asarray(x), 1, "maximum", stat_length=0), ValueError,
                "stat_length of 0 yields no value for padding")
    raises_like(lambda xp: xp.pad(xp.zeros((0, 3)), ((1, 0), (0, 0)), "wrap"), ValueError,
                "can't extend empty axis 0 using modes other than 'constant' or 'empty'")
    check(lambda xp: xp.pad(xp.zeros((0, 3)), ((0, 0), (2, 1)), "wrap"))  # the empty axis not extended
    check(lambda xp: xp.pad(xp.zeros((0, 3)), ((2, 1), (2, 1)), "constant", constant_values=4))
    assert mnp.pad(mnp.asarray(x), 2, "empty").shape == (8, 7)
