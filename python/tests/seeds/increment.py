# The seeds' increment check (PyOpenCL and Numba slides) with the kernel
# replaced by the NumPy statement it computes.
# compare: x
import numpy as np
import sys
N = 256
x = np.ones(N, dtype=np.float32)
x += np.float32(3.0)
if np.any(abs(x-4.0) > 1e-12):
  print(f"******* ERROR ******")
  sys.exit(-1)
