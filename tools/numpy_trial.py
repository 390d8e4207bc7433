"""Run NumPy's own numpy/lib tests against maniple.numpy, as a user would
who changes the imports: `import numpy as np`, `from numpy import ...` and
`from numpy.testing import ...` (NumPy's assertions compare with == and ask
a foreign array for its truth value; maniple.numpy.testing gathers first)
name maniple's modules; everything else stays NumPy's. Prints the pass
ratio and the most common failure messages (issue 21's measure).

    python tools/numpy_trial.py [--keep DIR] [--top N] [pytest args...]
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import numpy

REWRITES = [
    (re.compile(r"^import numpy as np$", re.M), "import maniple.numpy as np"),
    (re.compile(r"^from numpy import ", re.M), "from maniple.numpy import "),
    (re.compile(r"^from numpy\.testing import ", re.M), "from maniple.numpy.testing import "),
    (re.compile(r"^from numpy\.ma\.testutils import assert_equal$", re.M),
     "from maniple.numpy.testing import assert_equal"),
]


def prepare(dest):
    src = os.path.join(os.path.dirname(numpy.__file__), "lib", "tests")
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"))
    for name in sorted(os.listdir(dest)):
        if name.startswith("test_") and name.endswith(".py"):
            path = os.path.join(dest, name)
            with open(path) as f:
                text = f.read()
            for pattern, repl in REWRITES:
                text = pattern.sub(repl, text)
            with open(path, "w") as f:
                f.write(text)


def summary(xml_path, top):
    counts = collections.Counter()
    messages = collections.Counter()
    example = {}
    per_file = collections.Counter()
    for case in ET.parse(xml_path).iter("testcase"):
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        if bad is not None:
            counts["failed"] += 1
            msg = (bad.get("message") or "").split("\n")[0][:110]
            messages[msg] += 1
            example.setdefault(msg, f"{case.get('classname')}::{case.get('name')}")
            per_file[case.get("classname").split(".")[0]] += 1
        elif case.find("skipped") is not None:
            counts["skipped"] += 1
        else:
            counts["passed"] += 1
    ran = counts["passed"] + counts["failed"]
    print(f"numpy {numpy.__version__} lib tests: {counts['passed']} passed, {counts['failed']} failed "
          f"(collection errors included), {counts['skipped']} skipped: "
          f"{100.0 * counts['passed'] / max(ran, 1):.1f}% of those run pass")
    for msg, n in messages.most_common(top):
        print(f"{n:5d}  {msg}  [{example[msg][:70]}]")
    print("failures per file:", ", ".join(f"{f or '(collection)'} {n}" for f, n in per_file.most_common()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", help="directory for the rewritten tests (kept)")
    ap.add_argument("--top", type=int, default=40)
    args, rest = ap.parse_known_args()
    root = args.keep or tempfile.mkdtemp(prefix="maniple-numpy-trial-")
    dest = os.path.join(root, "tests")
    if os.path.exists(dest):
        shutil.rmtree(dest)
    prepare(dest)
    xml_path = os.path.join(root, "trial.xml")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore",
           "--continue-on-collection-errors", f"--junitxml={xml_path}", *rest, dest]
    subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL)
    summary(xml_path, args.top)
    if not args.keep:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
