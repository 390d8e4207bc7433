# The seeds' image reconstruction from its Laplacian by Jacobi sweeps, in
# float32 with the buffers swapped each step (GPU course slides); the PGM
# file is replaced by a picture made with np calls, and 150000 sweeps by 60.
# compare: X
import numpy as np

def jacobi_cpu_mat(ap, a, b):
    ap[1:-1, 1:-1] = 0.25 * (a[0:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, 0:-2] + a[1:-1, 2:] - b)

m, n = 37, 29
blur = ((np.arange(m * n) * 7 % 256).reshape((m, n))).astype('float32')
X = np.zeros((m+2, n+2),dtype='float32')
X[1:-1,1:-1] = np.float32(blur)
X2 = np.copy(X)
for i in range(60):
   jacobi_cpu_mat(X2, X,blur)
   X, X2 = X2, X
