# The seeds' conjugate-gradient loop (GTC talk slide), with its text as
# printed there but for the slide's typesetting (np.zeros_like, r.dot(r),
# A.dot(p)); A is a symmetric positive definite matrix made with np calls.
# compare: x, i
import numpy as np

n = 300
A = np.eye(n) * 4.0 - np.eye(n, k=1) - np.eye(n, k=-1) + 0.01 * np.ones((n, n))
b = np.arange(n) * 0.01 + 1.0
tolerance = 1e-10

def cg(A, b):
    x = np.zeros_like(b)
    r = b - A.dot(x)
    p = r
    rsold = r.dot(r)
    max_iters = b.shape[0]
    for i in range(max_iters):
        Ap = A.dot(p)
        alpha = rsold / (p.dot(Ap))
        x = x + alpha * p
        r = r - alpha * Ap
        rsnew = r.dot(r)
        if np.sqrt(rsnew) < tolerance:
            break
        beta = rsnew / rsold
        p = r + beta * p
        rsold = rsnew
    return x, i

x, i = cg(A, b)
