"""The peer of bench_cuda: the same operations written as a CuPy user
writes them, at the same size, beside the device copy, in one run.

    python bench_cuda_cupy.py [n_elements] [reps]   (defaults 2**26, 20)

Prints the same columns as bench_cuda. Needs CuPy and a GPU; exits 77
with a message otherwise."""
import sys
import time


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 26
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    try:
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # no CuPy or no device: nothing to measure
        print(f"SKIP: {e}")
        return 77
    sync = cp.cuda.Device().synchronize
    a = 1.0 + 1e-3 * (cp.arange(n, dtype=cp.float64) % 1000)
    b, c, o = a.copy(), a.copy(), cp.empty_like(a)
    nb = 8 * n
    copy_gbs = [0.0]
    last = [0.0]

    def timed(name, nbytes, fn):
        fn()
        sync()
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            sync()
            ts.append(time.perf_counter() - t0)
        med = sorted(ts)[reps // 2]
        gbs = nbytes / med / 1e9
        copy_gbs[0] = copy_gbs[0] or gbs
        last[0] = med
        print(f"{name:<34} {med * 1e3:10.3f} ms {nbytes / 1e6:9.1f} MB {gbs:8.1f} GB/s"
              f" {gbs / copy_gbs[0]:6.2f} x copy")

    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"device {name}; CuPy {cp.__version__}; n = {n} float64, {reps} reps, median")
    timed("cupy.copyto (copy)", 2 * nb, lambda: cp.copyto(o, a))
    timed("cupy.add(a, b, out=o)", 3 * nb, lambda: cp.add(a, b, out=o))
    timed("a * b + c (triad, 2 kernels)", 4 * nb, lambda: a * b + c)
    timed("cupy.sqrt(a, out=o)", 2 * nb, lambda: cp.sqrt(a, out=o))
    timed("a.astype(float32)", 12 * n, lambda: a.astype(cp.float32))
    timed("o += 0.5 * a (axpy)", 3 * nb, lambda: o.__iadd__(0.5 * a))
    timed("cupy.dot(a, b)", 2 * nb, lambda: cp.dot(a, b))
    # the seeds' stencil idiom: views of one grid written through
    m = int(n ** 0.5)
    g = a[: m * m].reshape(m, m)
    f = b[: m * m].reshape(m, m)
    center = g[1:-1, 1:-1]

    def jacobi():
        center[:] = 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:] + f[1:-1, 1:-1])

    pts = (m - 2) * (m - 2)
    timed(f"stencil 5-pt Jacobi {m}x{m}", 24 * pts, jacobi)
    print(f"stencil: {pts / last[0] / 1e9:.2f} G points/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
