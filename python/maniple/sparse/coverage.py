"""`python -m maniple.sparse.coverage`: maniple.sparse against SciPy's
public scipy.sparse names (functions and classes from dir(scipy.sparse))
and the public methods and attributes of scipy.sparse.csr_array (as
"csr_array.name"), one line per name, then the totals:

- native: implemented on row-distributed matrices;
- fallback: an announced SciPy fallback (a function with
  `_mn_kind = "fallback"`; maniple.sparse has none so far);
- missing: not there (an AttributeError saying so).

Needs SciPy installed (the reference names are read from it)."""
import inspect
import sys

CATEGORIES = ("native", "fallback", "missing")


def reference_names():
    """SciPy's names: the public functions and classes of scipy.sparse,
    then csr_array's public methods and attributes."""
    import scipy.sparse as ss
    top = sorted(n for n in dir(ss) if not n.startswith("_") and not inspect.ismodule(getattr(ss, n))
                 and (inspect.isclass(getattr(ss, n)) or callable(getattr(ss, n))))
    methods = sorted(f"csr_array.{n}" for n in dir(ss.csr_array) if not n.startswith("_"))
    return top + methods


def classify(name):
    import maniple.sparse as msp
    obj = msp
    for part in name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return "missing"
    return getattr(obj, "_mn_kind", "native")


def coverage():
    return [(n, classify(n)) for n in reference_names()]


def main(argv=None):
    rows = coverage()
    width = max((len(n) for n, _ in rows), default=10)
    for name, status in rows:
        print(f"{name:<{width}}  {status}")
    counts = {c: sum(1 for _, s in rows if s == c) for c in CATEGORIES}
    print(f"\n{len(rows)} scipy.sparse names: " + ", ".join(f"{counts[c]} {c}" for c in CATEGORIES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
