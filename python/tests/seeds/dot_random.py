# The seeds' dot product of random vectors (cuPyNumeric article), timing
# removed and the size made small. The streams differ from NumPy's, so the
# check is dot_product against NumPy's dot of the same (gathered) vectors.
# check: dot_product == numpy.dot(vector1, vector2)
import numpy as np
size = 100001
vector1 = np.random.rand(size)
vector2 = np.random.rand(size)
dot_product = np.dot(vector1, vector2)
print("dot product:", dot_product)
