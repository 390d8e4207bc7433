"""MPI ping-pong between ranks 0 and 1 (mpi4py): the latency and bandwidth
the performance model uses for messages on this machine. Reps round trips
per size, each timing the median of reps; one JSON line per size.

    mpiexec -n 2 python benchmarks/pingpong.py [reps]"""
import json
import statistics
import sys
import time

import numpy
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
if comm.Get_size() < 2:
    sys.exit("pingpong.py: needs 2 ranks")
for size in (8, 1 << 22):
    buf = numpy.zeros(size // 8)
    inner = 200 if size < 4096 else 10
    times = []
    for r in range(REPS + 1):
        comm.Barrier()
        t0 = time.perf_counter()
        for _ in range(inner):
            if rank == 0:
                comm.Send(buf, 1)
                comm.Recv(buf, 1)
            elif rank == 1:
                comm.Recv(buf, 0)
                comm.Send(buf, 0)
        if r:  # the first round warms up
            times.append((time.perf_counter() - t0) / inner / 2)  # one way
    if rank == 0:
        print(json.dumps({"bench": "pingpong", "bytes": size, "median_s": statistics.median(times),
                          "min_s": min(times), "max_s": max(times), "reps": REPS}), flush=True)
