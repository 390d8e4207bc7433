"""`python -m maniple.numpy.coverage [CSV]`: maniple.numpy against the NumPy
names of cuPyNumeric's published comparison table (shared/anchors), one line
per name: native (implemented on distributed arrays), fallback (runs through
an announced gather; none yet) or missing. Totals at the end."""
import csv
import os
import sys


def _default_csv():
    env = os.environ.get("MANIPLE_API_CSV")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for up in range(2, 7):  # the source tree's ../shared/anchors
        root = os.path.abspath(os.path.join(here, *[".."] * up))
        cand = os.path.join(root, "..", "shared", "anchors", "cupynumeric_api_comparison.csv")
        if os.path.exists(cand):
            return os.path.abspath(cand)
    return None


def _resolve(module, dotted):
    obj = module
    for part in dotted.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return None
    return obj


def coverage(path=None):
    """[(numpy name, status)] for every name of the reference table."""
    import maniple.numpy as mnp
    path = path or _default_csv()
    if not path or not os.path.exists(path):
        raise FileNotFoundError("reference table not found: pass its path or set MANIPLE_API_CSV "
                                "(shared/anchors/cupynumeric_api_comparison.csv)")
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
            status = "native" if _resolve(mnp, name) is not None else "missing"
            rows.append((name, status))
    return rows


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    rows = coverage(argv[0] if argv else None)
    width = max((len(n) for n, _ in rows), default=10)
    for name, status in rows:
        print(f"{name:<{width}}  {status}")
    native = sum(1 for _, s in rows if s == "native")
    print(f"\n{len(rows)} NumPy names: {native} native, 0 fallback, {len(rows) - native} missing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
