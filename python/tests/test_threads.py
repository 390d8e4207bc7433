"""maniple.numpy from Python threads. The C core is not re-entrant, so its
calls keep the GIL and threads take turns (it used to release the GIL on
large arrays, and two threads in the core at once crashed the process). At
one rank the threads run at once; with more ranks every rank must make the
same calls in the same order, so the threads run one after another there."""
import threading

import numpy
import numpy.testing as nt

import maniple.numpy as mnp
from maniple import _core

N = 300  # 90 000 elements: above the size at which the GIL used to be released


def _work(xp, seed):
    """A stencil, fused expressions, reductions and a gather; the results."""
    x = numpy.random.default_rng(seed).standard_normal((N, N))
    a = xp.asarray(x)
    got = []
    for _ in range(4):
        b = a * 2 + 1
        got.append(float(b.sum()))
        got.append(numpy.asarray(b.max(axis=0)))
        a[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    got.append(numpy.asarray(xp.cumsum(a[::7, 3])))
    got.append(numpy.asarray(a))
    return got


def _run_threads(n, together):
    results, errors = [None] * n, []

    def body(i):
        try:
            results[i] = _work(mnp, seed=i)
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    if together:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        for t in threads:
            t.start()
            t.join()
    assert not errors, errors
    return results


def test_threads_give_numpys_results():
    n = 4
    together = _core.size() == 1
    results = _run_threads(n, together)
    for i in range(n):
        want = _work(numpy, seed=i)
        assert len(results[i]) == len(want)
        for g, w in zip(results[i], want):
            # sums differ from NumPy's pairwise order by rounding only
            nt.assert_allclose(g, w, rtol=1e-12, atol=1e-9)
