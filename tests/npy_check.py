#!/usr/bin/env python3
"""NumPy side of the .npy interoperability test (see npy_numpy.sh, t_npy.c).

  npy_check.py write DIR   write reference files with numpy.save
  npy_check.py read DIR    check the out_*.npy files t_npy wrote

Element k (flat C-order index) of every file follows the formula of its
dtype; t_npy.c uses the same formulas.
"""
import os
import sys

import numpy as np

FORMULA = {
    "bool": lambda k: k % 3 == 0,
    "int32": lambda k: 3 * k - 7,
    "int64": lambda k: 3000000000 * k - 7,
    "float32": lambda k: k * 0.25 - 2.0,
    "float64": lambda k: k * 0.5 - 3.0,
    "int8": lambda k: (7 * k) % 250 - 125,
    "int16": lambda k: (301 * k) % 60000 - 30000,
    "uint8": lambda k: (3 * k + 1) % 256,
    "uint16": lambda k: (1001 * k) % 65536,
    "uint32": lambda k: 4000000000 - 3 * k,
    "uint64": lambda k: (10 ** 19 - 2048 * k.astype(object)).astype(np.uint64),
    "float16": lambda k: (k % 64) * 0.125 - 3.0,
    # the real part float32's and float64's formula, the imaginary part -1/2 of it
    "complex64": lambda k: (k * 0.25 - 2.0) * (1 - 0.5j),
    "complex128": lambda k: (k * 0.5 - 3.0) * (1 - 0.5j),
}


def make(dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(n, dtype=np.int64)
    return np.asarray(FORMULA[dtype](k)).astype(dtype).reshape(shape)


# name -> (dtype, shape) of the plain reference files t_npy loads
REFS = {
    "ref_f64_2d.npy": ("float64", (7, 5)),
    "ref_f32_1d.npy": ("float32", (17,)),
    "ref_i32_3d.npy": ("int32", (4, 3, 5)),
    "ref_i64_2d.npy": ("int64", (6, 4)),
    "ref_bool_1d.npy": ("bool", (13,)),
    "ref_f64_0d.npy": ("float64", ()),
    "ref_i64_empty.npy": ("int64", (3, 0)),
    "ref_i8_2d.npy": ("int8", (7, 5)),
    "ref_u16_1d.npy": ("uint16", (17,)),
    "ref_u64_3d.npy": ("uint64", (4, 3, 5)),
    "ref_f16_2d.npy": ("float16", (7, 5)),
    "ref_c64_2d.npy": ("complex64", (7, 5)),
    "ref_c128_1d.npy": ("complex128", (17,)),
}

# name -> (dtype, shape) t_npy writes for NumPy
OUTS = {
    "out_f64_2d.npy": ("float64", (7, 5)),
    "out_f32_1d.npy": ("float32", (17,)),
    "out_i32_3d.npy": ("int32", (4, 3, 5)),
    "out_i64_2d.npy": ("int64", (6, 4)),
    "out_bool_1d.npy": ("bool", (13,)),
    "out_f64_0d.npy": ("float64", ()),
    "out_f32_empty.npy": ("float32", (0, 4)),
    "out_u8_2d.npy": ("uint8", (7, 5)),
    "out_i16_1d.npy": ("int16", (17,)),
    "out_u32_3d.npy": ("uint32", (4, 3, 5)),
    "out_c128_2d.npy": ("complex128", (7, 5)),
    "out_c64_1d.npy": ("complex64", (17,)),
}


def write(d):
    os.makedirs(d, exist_ok=True)
    for name, (dt, shape) in REFS.items():
        np.save(os.path.join(d, name), make(dt, shape))
    # format version 2.0 (4-byte header length)
    with open(os.path.join(d, "ref_f64_v2.npy"), "wb") as f:
        np.lib.format.write_array(f, make("float64", (17,)), version=(2, 0))
    # Fortran order (numpy.save writes fortran_order True): read as NumPy does
    fort = np.asfortranarray(make("float64", (7, 5)))
    assert not fort.flags.c_contiguous
    np.save(os.path.join(d, "ref_fortran.npy"), fort)
    np.save(os.path.join(d, "ref_fortran_i32_3d.npy"), np.asfortranarray(make("int32", (4, 3, 5))))
    # files maniple must refuse
    np.save(os.path.join(d, "ref_bigendian.npy"), make("float64", (17,)).astype(">f8"))
    # sanity: what numpy wrote is what the headers should say
    with open(os.path.join(d, "ref_fortran.npy"), "rb") as f:
        assert b"'fortran_order': True" in f.read(128)
    with open(os.path.join(d, "ref_bigendian.npy"), "rb") as f:
        assert b"'>f8'" in f.read(128)


def read(d):
    errors = []

    def check(name, got, want):
        if got.dtype != want.dtype:
            errors.append(f"{name}: dtype {got.dtype}, expected {want.dtype}")
        elif got.shape != want.shape:
            errors.append(f"{name}: shape {got.shape}, expected {want.shape}")
        elif not np.array_equal(got, want):
            bad = np.argwhere(got != want)[:5]
            errors.append(f"{name}: values differ at {bad.tolist()}:\n got {got!r}\n want {want!r}")

    def load(name):
        path = os.path.join(d, name)
        try:
            return np.load(path, allow_pickle=False)
        except Exception as e:  # noqa: BLE001 - report every failure
            errors.append(f"{name}: numpy.load failed: {type(e).__name__}: {e}")
            return None

    for name, (dt, shape) in OUTS.items():
        got = load(name)
        if got is not None:
            check(name, got, make(dt, shape))
    base = make("float64", (7, 5))
    got = load("out_view_rows.npy")
    if got is not None:
        check("out_view_rows.npy", got, np.ascontiguousarray(base[1:-1:2]))
    got = load("out_view_rows_T.npy")
    if got is not None:
        check("out_view_rows_T.npy", got, np.ascontiguousarray(base[1:-1:2].T))
    if errors:
        for e in errors:
            print("npy_check.py read:", e, file=sys.stderr)
        return 1
    return 0


def main(argv):
    if len(argv) != 3 or argv[1] not in ("write", "read"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "write":
        write(argv[2])
        return 0
    return read(argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
