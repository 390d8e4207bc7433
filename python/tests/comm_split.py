"""maniple.init(comm) on an mpi4py communicator: the world split into even
and odd ranks, each group computing on its own arrays, checked against
NumPy; run under mpiexec by python/tests/comm.sh."""
import sys

import numpy
from mpi4py import MPI

import maniple

world = MPI.COMM_WORLD
group = world.Split(world.rank % 2, world.rank)
maniple.init(group)
import maniple.numpy as mnp  # noqa: E402

assert maniple.size() == group.size and maniple.rank() == group.rank, (maniple.size(), group.size)
n = 1000 + 7 * (world.rank % 2)  # the two groups hold different arrays
x = mnp.arange(n, dtype="float64")
y = (x * 2 + 1)[::-1]
want = (numpy.arange(n, dtype="float64") * 2 + 1)[::-1]
numpy.testing.assert_array_equal(numpy.asarray(y), want)
assert float(y.sum()) == float(want.sum())
s = mnp.sort(mnp.asarray(want % 13))
numpy.testing.assert_array_equal(numpy.asarray(s), numpy.sort(want % 13))
# the groups really are separate: each saw its own size
sizes = world.allgather((world.rank % 2, maniple.size()))
assert all(sz == sum(1 for c, _ in sizes if c == col) for col, sz in sizes), sizes
if world.rank == 0:
    print("comm_split ok", file=sys.stderr)
