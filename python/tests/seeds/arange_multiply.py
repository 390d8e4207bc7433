# The seeds' first example (cuNumeric/Legate article), as written there.
# compare: a, b, c
import numpy as np
a = np.arange(10000, dtype =int)
a = a.reshape((100,100,))
b = np.arange(10000, dtype =int)
b = b.reshape((100,100,))
c = np.multiply(a, b)
print(c)
