"""`python -m maniple.numpy.coverage [CSV | --dtypes | --keywords]`:
maniple.numpy against the NumPy
names of cuPyNumeric's published comparison table (data/), one line
per name, then the totals per category:

- native: implemented on distributed arrays;
- gathered: the arrays gathered by design (the linalg factorizations, for
  small dense matrices; coefficient lists of polydiv, roots, poly);
- fallback: an announced NumPy fallback (warns; the arrays are gathered);
- missing: not there, or a dtype maniple arrays cannot hold.

The category is a function's `_mn_kind` attribute ("gathered", "fallback");
without one, what maniple defines is native."""
import csv
import os
import sys


def _default_csv():
    env = os.environ.get("MANIPLE_API_CSV")
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "cupynumeric_api_comparison.csv")


def _resolve(module, dotted):
    obj = module
    for part in dotted.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return None
    return obj


def _unholdable_dtype(name):
    """Whether numpy.<name> is a scalar type maniple arrays cannot hold
    (longdouble, clongdouble, ..., and abstract ones above nothing it holds)."""
    import numpy
    from ._creation import _SUPPORTED
    t = _resolve(numpy, name)
    if not (isinstance(t, type) and issubclass(t, numpy.generic)):
        return False
    if t in (numpy.generic, numpy.number, numpy.integer, numpy.signedinteger, numpy.unsignedinteger, numpy.inexact,
             numpy.floating, numpy.complexfloating):
        return False  # abstract, above dtypes maniple holds (issubdtype checks)
    try:
        return str(numpy.dtype(t)) not in _SUPPORTED
    except TypeError:  # abstract with nothing maniple holds (character, flexible, ...)
        return True


def classify(name):
    """native, gathered, fallback or missing, for a name of the table
    (without "numpy."; ndarray methods as "ndarray.all")."""
    import maniple.numpy as mnp
    if _unholdable_dtype(name):
        return "missing"
    obj = _resolve(mnp, name)
    if obj is None:
        return "missing"
    if name.split(".")[0] in mnp._GATHERED_NAMES:  # NumPy's own objects, which cannot carry _mn_kind
        return "gathered"
    return getattr(obj, "_mn_kind", "native")


def coverage(path=None):
    """[(numpy name, status)] for every name of the reference table."""
    path = path or _default_csv()
    if not path or not os.path.exists(path):
        raise FileNotFoundError("reference table not found: pass its path or set MANIPLE_API_CSV "
                                "(maniple/numpy/data/cupynumeric_api_comparison.csv)")
    rows = []
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        col = next((i for i, h in enumerate(header) if "numpy" in h.lower()), 1)
        for r in reader:
            if len(r) <= col or not r[col].strip():
                continue
            name = r[col].strip()
            if name.startswith("numpy."):
                name = name[len("numpy."):]
            if name.endswith("()"):  # methods are listed as ndarray.all()
                name = name[:-2]
            rows.append((name, classify(name)))
    return rows


CATEGORIES = ("native", "gathered", "fallback", "missing")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("--dtypes", "--keywords"):  # per dtype or keyword, measured (coverage_dtypes.py)
        from . import coverage_dtypes as cd
        rep = cd.dtype_report() if argv[0] == "--dtypes" else cd.keyword_report()
        cd.print_report(rep, argv[0][2:-1])
        return 0
    rows = coverage(argv[0] if argv else None)
    width = max((len(n) for n, _ in rows), default=10)
    for name, status in rows:
        print(f"{name:<{width}}  {status}")
    counts = {c: sum(1 for _, s in rows if s == c) for c in CATEGORIES}
    print(f"\n{len(rows)} NumPy names: " + ", ".join(f"{counts[c]} {c}" for c in CATEGORIES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
