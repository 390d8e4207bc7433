"""The seeds' examples as scripts (python/tests/seeds/): each runs once as
written, with `import numpy as np`, and once with only that line changed to
`import maniple.numpy as np`; the variables its header names must agree."""
import contextlib
import io
import os
import re

import numpy
import pytest

import maniple.numpy as mnp

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")
SCRIPTS = sorted(f for f in os.listdir(HERE) if f.endswith(".py"))


def run(src, path):
    g = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(src, path, "exec"), g)
    return g


@pytest.mark.parametrize("name", SCRIPTS)
def test_seed_script_with_only_the_import_changed(name):
    path = os.path.join(HERE, name)
    src = open(path).read()
    assert src.count("import numpy as np") == 1
    swapped = src.replace("import numpy as np", "import maniple.numpy as np")
    got = run(swapped, path)
    m = re.search(r"^# compare: (.*)$", src, re.M)
    if m:
        want = run(src, path)
        for var in [v.strip() for v in m.group(1).split(",")]:
            w, g = want[var], got[var]
            if isinstance(w, numpy.ndarray):
                assert isinstance(g, mnp.ndarray), var
                assert numpy.asarray(g).dtype == w.dtype, var
                numpy.testing.assert_allclose(numpy.asarray(g), w, rtol=1e-6 if w.dtype == numpy.float32 else 1e-12,
                                              err_msg=f"{name}: {var}")
            else:
                assert g == w, (name, var, g, w)
    else:  # dot_random: the check its header states
        v1, v2 = numpy.asarray(got["vector1"]), numpy.asarray(got["vector2"])
        assert got["dot_product"] == pytest.approx(numpy.dot(v1, v2), rel=1e-12)
