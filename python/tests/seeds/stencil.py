# The seeds' stencil (cuNumeric/Legate article): views written through with
# center[:] = average; N and I made small for a test.
# compare: grid
import numpy as np

N = 100 # number of elements in one dimension
I = 20 # number of iterations

def initialize(N):
	print("Initializing stencil grid...")
	grid = np.zeros((N + 2, N + 2))
	grid[:, 0] = -273.15
	grid[:, -1] = -273.15
	grid[-1, :] = -273.15
	grid[0, :] = 40.0
	return grid

def run_stencil():
	grid = initialize(N)

	center = grid[1:-1, 1:-1]
	north = grid[0:-2, 1:-1]
	east = grid[1:-1, 2:]
	west = grid[1:-1, 0:-2]
	south = grid[2:, 1:-1]

	for i in range(I):
		average = center + north + east + west + south
		average = 0.2 * average
		center[:] = average
	return grid

grid = run_stencil()
