"""The GPU peer figures, measured beside maniple's on a lent GPU (tools/gpu_check.sh):
CuPy's triad a = b + s*c (the device's STREAM) and the seeds' 5-point stencil
written with slices, timed with CUDA events. One JSON line each."""
import json
import sys

try:
    import cupy as cp
except ImportError:
    print(json.dumps({"bench": "gpu_peer", "error": "cupy is not installed"}))
    sys.exit(0)


def timed(fn, reps=7):
    fn()
    cp.cuda.Device().synchronize()
    ts = []
    for _ in range(reps):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b) / 1e3)
    ts.sort()
    return ts[len(ts) // 2]


n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000_000
m = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
b, c = cp.random.random(n), cp.random.random(n)
a = cp.empty_like(b)
t = timed(lambda: cp.add(b, 3.0 * c, out=a))  # two kernels: CuPy does not fuse
fused = cp.ElementwiseKernel("float64 b, float64 c", "float64 a", "a = b + 3.0 * c", "triad")
tf = timed(lambda: fused(b, c, a))
print(json.dumps({"bench": "triad", "impl": "cupy", "elements": n, "median_s": t, "GBps": 24 * n / t / 1e9,
                  "fused_median_s": tf, "fused_GBps": 24 * n / tf / 1e9}))
del a, b, c
g = cp.random.random((m, m))
new = g.copy()


def sweep():
    new[1:-1, 1:-1] = 0.2 * (g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])


t = timed(sweep)
print(json.dumps({"bench": "stencil", "impl": "cupy", "points": (m - 2) ** 2, "median_s": t,
                  "points_per_s": (m - 2) ** 2 / t, "GBps_min_traffic": 16 * (m - 2) ** 2 / t / 1e9}))
