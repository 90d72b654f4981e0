"""SciPy peer for bench/targets.bench.ts: times scipy.optimize.linear_sum_assignment.

Reads commands on stdin, one per line, and answers each with one line on stdout:
  load NAME PATH ROWS COLS   loads a row-major float64 cost matrix (+inf = forbidden pair)
                             written by the bench; answers "ok"
  run NAME                   solves it; answers "MS SIZE COST": the CPU time of the calling
                             thread (time.thread_time_ns) around the call, in ms, the number of
                             pairs and their total cost
  quit                       exits
The matrices stay in memory, so each run times the solver alone, as the bench times mfs.
"""

import sys
import time

import numpy as np
import scipy
from scipy.optimize import linear_sum_assignment

matrices = {}
print("ready scipy %s numpy %s" % (scipy.__version__, np.__version__), flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "load":
        name, path, rows, cols = words[1], words[2], int(words[3]), int(words[4])
        matrices[name] = np.fromfile(path, dtype=np.float64).reshape(rows, cols)
        print("ok", flush=True)
    elif words[0] == "run":
        cost = matrices[words[1]]
        start = time.thread_time_ns()
        row, col = linear_sum_assignment(cost)
        end = time.thread_time_ns()
        print("%.6f %d %r" % ((end - start) / 1e6, len(row), float(cost[row, col].sum())), flush=True)
    elif words[0] == "quit":
        break
