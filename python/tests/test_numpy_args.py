"""Arguments as NumPy takes them (issue 14 item 6): an axis, a count, a
shape or an offset that NumPy refuses (a float, a bool where it wants an
integer, a repeated axis, a negative dimension) is refused by maniple with
the same exception type and message, on every rank; what NumPy accepts
(a float k of tri/tril/triu, float repeats, float sections) gives NumPy's
result. Each case runs NumPy and maniple.numpy side by side."""
import numpy
import pytest

import maniple.numpy as mnp
from xp import check, data

A = data((2, 3), seed=3)
V = data((4,), seed=4)
ONES = numpy.ones((3, 3))


def same_error(fn):
    """fn raises in NumPy; maniple raises the same type with the same text."""
    with pytest.raises(Exception) as want:
        fn(numpy)
    with pytest.raises(Exception) as got:
        fn(mnp)
    assert type(got.value) is type(want.value), (got.value, want.value)
    assert str(got.value) == str(want.value)


def a(xp):
    return xp.asarray(A)


def v(xp):
    return xp.asarray(V)


REFUSED = {
    # axes: operator.index, normalize_axis_index, normalize_axis_tuple
    "flip_repeated": lambda xp: xp.flip(a(xp), axis=(1, 1)),
    "flip_repeated_list": lambda xp: xp.flip(a(xp), axis=[0, 0]),
    "flip_float": lambda xp: xp.flip(a(xp), 0.5),
    "flip_float_in_tuple": lambda xp: xp.flip(a(xp), (0, 0.5)),
    "flip_out_of_range": lambda xp: xp.flip(a(xp), (0, 5)),
    "argmax_float": lambda xp: xp.argmax(a(xp), axis=0.5),
    "argmax_tuple": lambda xp: xp.argmax(a(xp), axis=(0,)),
    "argmax_method_float": lambda xp: a(xp).argmax(0.5),
    "sum_float": lambda xp: xp.sum(a(xp), axis=0.5),
    "sum_float_in_tuple": lambda xp: xp.sum(a(xp), axis=(0, 0.5)),
    "sum_list": lambda xp: xp.sum(a(xp), axis=[0]),
    "sum_bool": lambda xp: xp.sum(a(xp), axis=True),
    "sum_repeated": lambda xp: xp.sum(a(xp), axis=(0, 0)),
    "sum_0d_float_array": lambda xp: xp.sum(a(xp), axis=numpy.array(1.0)),
    "sum_method_float": lambda xp: a(xp).sum(axis=0.5),
    "min_repeated": lambda xp: xp.min(a(xp), axis=(0, 0)),
    "max_method_float": lambda xp: a(xp).max(0.5),
    "any_float": lambda xp: xp.any(a(xp), axis=0.5),
    "mean_float": lambda xp: xp.mean(a(xp), axis=0.5),
    "mean_bool": lambda xp: xp.mean(a(xp), axis=True),
    "mean_repeated": lambda xp: xp.mean(a(xp), axis=(0, 0)),
    "var_repeated": lambda xp: xp.var(a(xp), axis=(0, 0)),
    "std_float": lambda xp: xp.std(a(xp), axis=0.5),
    "cumsum_float": lambda xp: xp.cumsum(a(xp), axis=1.0),
    "cumsum_bool": lambda xp: xp.cumsum(a(xp), axis=True),
    "cumsum_tuple": lambda xp: xp.cumsum(a(xp), axis=(0,)),
    "cumsum_method_float": lambda xp: a(xp).cumsum(0.5),
    "sort_float": lambda xp: xp.sort(a(xp), axis=0.5),
    "sort_tuple": lambda xp: xp.sort(a(xp), axis=(0,)),
    "argsort_float": lambda xp: xp.argsort(a(xp), axis=0.5),
    "concatenate_float": lambda xp: xp.concatenate([a(xp), a(xp)], axis=0.0),
    "concatenate_bool": lambda xp: xp.concatenate([a(xp)], axis=True),
    "append_float": lambda xp: xp.append(a(xp), a(xp), axis=0.5),
    "stack_float": lambda xp: xp.stack([a(xp), a(xp)], axis=0.5),
    "swapaxes_float": lambda xp: xp.swapaxes(a(xp), 0.0, 1),
    "swapaxes_out_of_range": lambda xp: xp.swapaxes(a(xp), 0, 5),
    "swapaxes_method_float": lambda xp: a(xp).swapaxes(0.0, 1),
    "squeeze_float": lambda xp: xp.squeeze(xp.ones((1, 1)), axis=0.0),
    "squeeze_repeated": lambda xp: xp.squeeze(xp.ones((1, 1)), axis=(0, 0)),
    "squeeze_list": lambda xp: xp.squeeze(xp.ones((1, 1)), axis=[0]),
    "expand_dims_float": lambda xp: xp.expand_dims(a(xp), 0.5),
    "expand_dims_repeated": lambda xp: xp.expand_dims(a(xp), (0, 0)),
    "moveaxis_repeated": lambda xp: xp.moveaxis(a(xp), [0, 0], [0, 1]),
    "moveaxis_repeated_dest": lambda xp: xp.moveaxis(a(xp), 0, [1, 1]),
    "moveaxis_float": lambda xp: xp.moveaxis(a(xp), 0.0, 1),
    "moveaxis_out_of_range": lambda xp: xp.moveaxis(a(xp), 0, 5),
    "moveaxis_lengths": lambda xp: xp.moveaxis(a(xp), [0], [1, 0]),
    "transpose_repeated": lambda xp: xp.transpose(a(xp), (0, 0)),
    "transpose_method_repeated": lambda xp: a(xp).transpose(0, 0),
    "transpose_short": lambda xp: xp.transpose(a(xp), (0,)),
    "transpose_float": lambda xp: xp.transpose(a(xp), (0.0, 1)),
    "transpose_out_of_range": lambda xp: xp.transpose(a(xp), (0, 5)),
    "rollaxis_float": lambda xp: xp.rollaxis(a(xp), 0.5),
    "rollaxis_float_start": lambda xp: xp.rollaxis(a(xp), 0, 1.5),
    "rollaxis_start": lambda xp: xp.rollaxis(a(xp), 0, -5),
    "repeat_axis_float": lambda xp: xp.repeat(a(xp), 2, axis=0.5),
    "take_axis_float": lambda xp: xp.take(a(xp), [0], axis=0.5),
    "compress_axis_float": lambda xp: xp.compress([1, 0], a(xp), axis=0.5),
    "take_along_axis_float": lambda xp: xp.take_along_axis(a(xp), xp.asarray(numpy.zeros((2, 3), int)), axis=0.5),
    "partition_axis_float": lambda xp: xp.partition(v(xp), 1, axis=0.0),
    "partition_kth_float": lambda xp: xp.partition(v(xp), 1.0),
    "argpartition_kth_float": lambda xp: xp.argpartition(v(xp), 1.0),
    "partition_kth_negative": lambda xp: xp.partition(v(xp), -5),
    "diff_axis_float": lambda xp: xp.diff(a(xp), axis=0.5),
    "diff_n_float": lambda xp: xp.diff(a(xp), n=1.5),
    "ptp_float": lambda xp: xp.ptp(a(xp), axis=0.5),
    "median_float": lambda xp: xp.median(a(xp), axis=0.5),
    "median_repeated": lambda xp: xp.median(a(xp), axis=(0, 0)),
    "quantile_repeated": lambda xp: xp.quantile(a(xp), 0.5, axis=(0, 0)),
    "average_float": lambda xp: xp.average(a(xp), axis=0.5),
    "average_out_of_range": lambda xp: xp.average(a(xp), axis=5),
    "gradient_float": lambda xp: xp.gradient(a(xp), axis=0.5),
    "vectorize_not_callable": lambda xp: xp.vectorize(3),
    "einsum_nothing": lambda xp: xp.einsum(),
    "unravel_empty_list": lambda xp: xp.unravel_index([], (10, 3, 5)),
    "unravel_float_array": lambda xp: xp.unravel_index(xp.asarray(numpy.array([1.0])), (10, 3, 5)),
    "unravel_too_big": lambda xp: xp.unravel_index(1, (2 ** 32 - 1, 2 ** 31 + 1)),
    "ravel_too_big": lambda xp: xp.ravel_multi_index(([0], [0]), (numpy.iinfo(numpy.intp).max // 2 + 1, 2)),
    "ravel_zero_dim": lambda xp: xp.ravel_multi_index(xp.asarray(numpy.zeros((3, 1), numpy.intp)), (2, 1, 0),
                                                      mode="clip"),
    "size_bad_axis": lambda xp: xp.size(a(xp), 5),
    "reshape_bool": lambda xp: a(xp).reshape(True, -1),
    "reshape_bool_function": lambda xp: xp.reshape(a(xp), (True, -1)),
    "einsum_bad_order": lambda xp: xp.einsum("i", a(xp)[0], order="W"),
    "einsum_bad_casting": lambda xp: xp.einsum("ij->j", a(xp), casting="same_value"),
    "i0_complex": lambda xp: xp.i0(xp.asarray([1 + 1j])),
    "diff_negative_order": lambda xp: xp.diff([0, 1, 2], n=-1),
    "count_nonzero_float": lambda xp: xp.count_nonzero(a(xp), axis=0.5),
    "nansum_float": lambda xp: xp.nansum(a(xp), axis=0.5),
    "nanargmax_float": lambda xp: xp.nanargmax(a(xp), axis=0.5),
    "unstack_float": lambda xp: xp.unstack(a(xp), axis=0.5),
    "unstack_out_of_range": lambda xp: xp.unstack(a(xp), axis=5),
    "apply_along_axis_float": lambda xp: xp.apply_along_axis(xp.sum, 0.5, a(xp)),
    "delete_axis_float": lambda xp: xp.delete(a(xp), 0, axis=0.5),
    "insert_axis_float": lambda xp: xp.insert(a(xp), 0, 1, axis=0.5),
    "roll_axis_float": lambda xp: xp.roll(a(xp), 1, axis=0.5),
    "cumulative_sum_float": lambda xp: xp.cumulative_sum(a(xp), axis=0.5),
    "vecdot_float": lambda xp: xp.vecdot(a(xp), a(xp), axis=0.5),
    "diagonal_offset_float": lambda xp: xp.diagonal(a(xp), 0.5),
    "diagonal_axis_float": lambda xp: xp.diagonal(a(xp), 0, 0.0, 1),
    "diagonal_out_of_range": lambda xp: xp.diagonal(a(xp), 0, 0, 5),
    "diagonal_method_float": lambda xp: a(xp).diagonal(0.5),
    "trace_offset_float": lambda xp: xp.trace(a(xp), 0.5),
    "split_axis_float": lambda xp: xp.split(a(xp), 2, axis=0.5),
    "split_zero_sections": lambda xp: xp.split(v(xp), 0),
    "split_unequal": lambda xp: xp.split(v(xp), 2.5),
    "split_float_point": lambda xp: xp.split(v(xp), [1.5]),
    "tensordot_float": lambda xp: xp.tensordot(a(xp), a(xp), axes=1.5),
    # counts, shapes, offsets
    "eye_float": lambda xp: xp.eye(2.5),
    "eye_negative": lambda xp: xp.eye(-1),
    "eye_float_m": lambda xp: xp.eye(2, 2.0),
    "eye_float_k": lambda xp: xp.eye(2, k=0.5),
    "eye_negative_m": lambda xp: xp.eye(2, -1),
    "eye_bool": lambda xp: xp.eye(True),
    "identity_float": lambda xp: xp.identity(2.0),
    "identity_negative": lambda xp: xp.identity(-1),
    "diag_float_k": lambda xp: xp.diag(v(xp), k=0.5),
    "diag_2d_float_k": lambda xp: xp.diag(a(xp), k=0.5),
    "diagflat_float_k": lambda xp: xp.diagflat(v(xp), k=0.5),
    "full_float_dim": lambda xp: xp.full((2.0, 2), 1),
    "full_float_shape": lambda xp: xp.full(2.5, 1),
    "full_negative": lambda xp: xp.full((2, -1), 1),
    "zeros_float": lambda xp: xp.zeros(2.0),
    "zeros_float_in_list": lambda xp: xp.zeros([2, 3.0]),
    "zeros_negative": lambda xp: xp.zeros(-1),
    "zeros_none": lambda xp: xp.zeros(None),
    "ones_bool_dim": lambda xp: xp.ones((True, 2)),
    "empty_numpy_float": lambda xp: xp.empty(numpy.float64(2)),
    "linspace_float": lambda xp: xp.linspace(0, 1, 2.5),
    "linspace_negative": lambda xp: xp.linspace(0, 1, -1),
    "linspace_none": lambda xp: xp.linspace(0, 1, num=None),
    "tile_float": lambda xp: xp.tile(a(xp), 2.5),
    "tile_float_in_tuple": lambda xp: xp.tile(a(xp), (2.0, 1)),
    "tile_negative": lambda xp: xp.tile(a(xp), -1),
    "broadcast_to_float": lambda xp: xp.broadcast_to(a(xp), (2.0, 3)),
    "broadcast_to_negative": lambda xp: xp.broadcast_to(a(xp), -1),
    "resize_negative": lambda xp: xp.resize(a(xp), (2, -1)),
    "resize_float": lambda xp: xp.resize(a(xp), 2.5),
    "reshape_float": lambda xp: xp.reshape(a(xp), (3.0, 2)),
    "pad_float": lambda xp: xp.pad(a(xp), 1.5),
    "pad_float_pair": lambda xp: xp.pad(a(xp), (1.0, 2)),
    "pad_negative": lambda xp: xp.pad(a(xp), -1),
    "indices_float": lambda xp: xp.indices((2.0, 3)),
    "indices_negative": lambda xp: xp.indices((2, -1)),
    "unravel_index_float": lambda xp: xp.unravel_index(2, (2.0, 3)),
    "ravel_multi_index_float": lambda xp: xp.ravel_multi_index(([0], [1]), (2.0, 3)),
    "mask_indices_float": lambda xp: xp.mask_indices(2.0, xp.triu),
    "rot90_repeated": lambda xp: xp.rot90(a(xp), 1, (0, 0)),
    "rot90_out_of_range": lambda xp: xp.rot90(a(xp), 1, (0, 5)),
    "rot90_one_axis": lambda xp: xp.rot90(a(xp), 1, (0,)),
    "rot90_float_axis": lambda xp: xp.rot90(a(xp), 1, (0.0, 1)),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_as_numpy_refuses(name):
    same_error(REFUSED[name])


ACCEPTED = {
    # NumPy takes these: maniple gives NumPy's result
    "sum_numpy_int_axis": lambda xp: xp.sum(a(xp), axis=numpy.int32(1)),
    "sum_0d_int_array_axis": lambda xp: xp.sum(a(xp), axis=numpy.array(1)),
    "sort_bool_axis": lambda xp: xp.sort(a(xp), axis=True),
    "swapaxes_bool": lambda xp: xp.swapaxes(a(xp), True, 0),
    "flip_list": lambda xp: xp.flip(a(xp), [0, 1]),
    "expand_dims_list": lambda xp: xp.expand_dims(a(xp), [0, 1]),
    "transpose_list": lambda xp: xp.transpose(a(xp), [1, 0]),
    "repeat_float": lambda xp: xp.repeat(a(xp), 2.5),
    "repeat_bool": lambda xp: xp.repeat(a(xp), True),
    "repeat_float_method": lambda xp: a(xp).repeat(2.0),
    "split_float_sections": lambda xp: xp.split(v(xp), 2.0),
    "array_split_float_sections": lambda xp: xp.array_split(v(xp), 2.5),
    "roll_float_shift": lambda xp: xp.roll(v(xp), 1.5),
    "roll_repeated_axes": lambda xp: xp.roll(a(xp), (1, 1), axis=(1, 1)),
    "tile_list": lambda xp: xp.tile(a(xp), [2, 1]),
    "tile_numpy_int": lambda xp: xp.tile(a(xp), numpy.int32(2)),
    "tile_float_ones": lambda xp: xp.tile(a(xp), 1.0),
    "eye_numpy_int_k": lambda xp: xp.eye(3, dtype=int, k=numpy.int64(1)),
    "eye_k_past_m": lambda xp: xp.eye(2, k=2.5),
    "identity_numpy_int": lambda xp: xp.identity(numpy.int32(2)),
    "diag_bool_k": lambda xp: xp.diag(v(xp), k=True),
    "diag_numpy_int_k": lambda xp: xp.diag(v(xp), k=numpy.int32(-1)),
    "zeros_numpy_int": lambda xp: xp.zeros(numpy.int32(2)),
    "zeros_0d_array": lambda xp: xp.zeros(numpy.array(2)),
    "zeros_array_shape": lambda xp: xp.zeros(numpy.array([2, 3])),
    "zeros_empty_shape": lambda xp: xp.zeros(()),
    "ones_numpy_int_in_tuple": lambda xp: xp.ones((2, numpy.int64(3))),
    "linspace_numpy_int": lambda xp: xp.linspace(0, 1, numpy.int32(3)),
    "linspace_bool": lambda xp: xp.linspace(0, 1, True),
    "linspace_float32": lambda xp: xp.linspace(numpy.float32(0), numpy.float32(1), 5),
    "linspace_retstep": lambda xp: xp.linspace(0, 1, 5, retstep=True),
    "linspace_retstep_one": lambda xp: xp.linspace(2.0, 3.0, 1, retstep=True),
    "linspace_retstep_open": lambda xp: xp.linspace(0, 2, 4, endpoint=False, retstep=True),
    "full_float32_fill": lambda xp: xp.full(3, numpy.float32(1.5)),
    "full_int32_fill": lambda xp: xp.full(3, numpy.int32(7)),
    "pad_numpy_int": lambda xp: xp.pad(a(xp), numpy.int32(1)),
    "take_float_indices": lambda xp: xp.take(v(xp), [1.7, 0.2]),
    "take_float_index": lambda xp: xp.take(v(xp), 2.9),
    "diag_indices_float": lambda xp: xp.diag_indices(2.0),
    "rot90_float_k": lambda xp: xp.rot90(a(xp), 1.5),
    "rollaxis_end": lambda xp: xp.rollaxis(a(xp), 0, 2),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted_as_numpy_accepts(name):
    check(ACCEPTED[name])


@pytest.mark.parametrize("k", [0.5, -0.5, 0.1, 1.5, -1.7, 2.2, 0, -1, numpy.float64(0.5)])
def test_tri_family_with_float_k(k):
    """NumPy builds tri from arange(-k, M - k, dtype=int): a float k gives
    its (surprising) masks, which maniple reproduces."""
    m = data((3, 4), seed=5)
    check(lambda xp: xp.tril(xp.asarray(ONES), k=k))
    check(lambda xp: xp.triu(xp.asarray(ONES), k=k))
    check(lambda xp: xp.tril(xp.asarray(m), k=k))
    check(lambda xp: xp.triu(xp.asarray(m), k=k))
    check(lambda xp: xp.tri(3, 4, k=k))
    check(lambda xp: xp.tril_indices(3, k))
    check(lambda xp: xp.triu_indices(3, k, 4))


@pytest.mark.parametrize("n,m", [(2.5, None), (2, 2.5), (3.0, 3)])
def test_tri_with_float_sizes(n, m):
    check(lambda xp: xp.tri(n, m))
    check(lambda xp: xp.tril_indices(n, 0, m))


def test_einsum_path_is_numpys():
    """einsum_path's path and report are NumPy's, for every optimize."""
    x, y, z = data((2, 3)), data((3, 4)), data((4, 5))
    for optimize in (False, True, "greedy", "optimal", ["einsum_path", (0, 1), (0, 1)]):
        want = numpy.einsum_path("ij,jk,kl->il", x, y, z, optimize=optimize)
        got = mnp.einsum_path("ij,jk,kl->il", mnp.asarray(x), mnp.asarray(y), mnp.asarray(z), optimize=optimize)
        assert got == want
    assert mnp.einsum_path("ij,jk", mnp.asarray(x), y) == numpy.einsum_path("ij,jk", x, y)


RANDOM_REFUSED = {
    "seed_float": lambda xp: xp.random.seed(1.5),
    "seed_negative": lambda xp: xp.random.seed(-1),
    "seed_too_big": lambda xp: xp.random.seed(2 ** 33),
    "randint_low_ge_high": lambda xp: xp.random.randint(5, 1),
    "randint_float_dtype": lambda xp: xp.random.randint(0, 5, dtype=float),
    "randint_out_of_int32": lambda xp: xp.random.randint(-1, 2 ** 40, dtype=numpy.int32),
    "randint_nan": lambda xp: xp.random.randint(numpy.nan),
    "randint_bool_high": lambda xp: xp.random.randint(5, dtype=bool),
    "default_rng_float": lambda xp: xp.random.default_rng(1.5),
    "default_rng_negative": lambda xp: xp.random.default_rng(-1),
    "integers_out_of_int32": lambda xp: xp.random.default_rng(0).integers(0, 2 ** 40, dtype=numpy.int32),
    "integers_float_dtype": lambda xp: xp.random.default_rng(0).integers(5, dtype=float),
    "integers_low_ge_high": lambda xp: xp.random.default_rng(0).integers(5, 1),
    "random_float_size": lambda xp: xp.random.random(2.5),
    "rand_float_dim": lambda xp: xp.random.rand(2, 2.0),
}


@pytest.mark.parametrize("name", sorted(RANDOM_REFUSED))
def test_random_arguments_refused_as_numpy(name):
    same_error(RANDOM_REFUSED[name])


def test_random_seeds_numpy_accepts():
    for s in ([1, 2], numpy.uint32(5), True, 2 ** 32 - 1):
        mnp.random.seed(s)
    mnp.random.seed([1, 2])
    a = mnp.random.rand(4)
    mnp.random.seed([1, 2])
    numpy.testing.assert_array_equal(numpy.asarray(mnp.random.rand(4)), numpy.asarray(a))
    mnp.random.seed([1, 3])
    assert not numpy.array_equal(numpy.asarray(mnp.random.rand(4)), numpy.asarray(a))
    g = mnp.random.default_rng([1, 2])
    assert mnp.random.default_rng(g) is g
    mnp.random.default_rng(numpy.random.SeedSequence(3)).random(2)


def test_randint_truncates_float_bounds_as_numpy():
    """randint(1.5, 5) draws 1..4 evenly, as NumPy (not floor(U(1.5, 5)),
    which gave 1 half the weight)."""
    mnp.random.seed(0)
    got = numpy.asarray(mnp.random.randint(1.5, 5, size=4000))
    values, counts = numpy.unique(got, return_counts=True)
    numpy.testing.assert_array_equal(values, numpy.unique(numpy.random.randint(1.5, 5, size=4000)))
    assert counts.min() > 850  # each of 4 values near 1000 (half weight would be near 570)
    got = numpy.asarray(mnp.random.default_rng(1).integers(-1.5, 1.5, size=100))
    numpy.testing.assert_array_equal(numpy.unique(got), [-1, 0])


# ---- joining: dtype=, casting=, out=, and their errors (NumPy's own) ----

JOIN_REFUSED = {
    "concat_float_into_int_out": lambda xp: xp.concatenate([a(xp), a(xp)], out=xp.zeros((4, 3), "int64")),
    "concat_unsafe_dtype": lambda xp: xp.concatenate([a(xp)], dtype="int32"),
    "concat_safe_down": lambda xp: xp.concatenate([a(xp)], dtype="float32", casting="safe"),
    "concat_out_and_dtype": lambda xp: xp.concatenate([a(xp)], out=xp.zeros((2, 3)), dtype="float64"),
    "concat_bad_casting": lambda xp: xp.concatenate([a(xp)], dtype="float64", casting="bogus"),
    "concat_ndim": lambda xp: xp.concatenate([v(xp), a(xp)]),
    "stack_same_kind": lambda xp: xp.stack([v(xp), v(xp)], dtype="int8"),
    "vstack_no_cast": lambda xp: xp.vstack([a(xp), a(xp)], dtype="float32", casting="no"),
    "hstack_generator": lambda xp: xp.hstack(x for x in [v(xp)]),
    "vstack_scalar": lambda xp: xp.vstack(1),
}


@pytest.mark.parametrize("name", JOIN_REFUSED)
def test_joining_refused_as_numpy(name):
    same_error(JOIN_REFUSED[name])


@pytest.mark.parametrize("casting", ["unsafe", "same_kind"])
def test_joining_dtype_and_casting(casting):
    check(lambda xp: xp.concatenate([a(xp), a(xp) * 3], dtype="float32", casting=casting))
    check(lambda xp: xp.concatenate([a(xp), a(xp)], axis=None, dtype="complex64", casting=casting))
    check(lambda xp: xp.concatenate([xp.asarray(2.5), xp.asarray([1, 2])], axis=None))
    check(lambda xp: xp.stack([v(xp), v(xp) * 2], axis=1, dtype="float32", casting=casting))
    check(lambda xp: xp.vstack([a(xp), a(xp)], dtype="float32", casting=casting))
    check(lambda xp: xp.hstack([v(xp), v(xp)], dtype="float32", casting=casting))
    check(lambda xp: xp.concatenate([(a(xp) * 10), a(xp)], dtype="int16", casting="unsafe"))


def test_concatenate_into_out_casts_as_numpy():
    def into(xp):
        out = xp.zeros((4, 3), "float32")
        r = xp.concatenate([a(xp), a(xp) - 1], out=out)
        assert r is out
        return out
    check(into)
    check(lambda xp: xp.vstack(xp.asarray(A)))  # an array is a sequence of its rows


def test_concatenate_of_f_ordered_arrays_is_f_ordered():
    for xp in (numpy, mnp):
        f = xp.asfortranarray(xp.asarray(A))
        r = xp.concatenate([f, f], axis=1)
        assert r.flags.f_contiguous and not r.flags.c_contiguous
        assert xp.concatenate([f, xp.asarray(A)]).flags.c_contiguous
    check(lambda xp: xp.concatenate([xp.asfortranarray(a(xp)), a(xp).T.T], axis=0))
