"""Session.run of the PopXL user guide's first program (two h2d streams, add,
one d2h stream): the cost of one call after the first, in microseconds.

  PYTHONPATH=build/python/pkg /usr/bin/python3 bench/popxl_session_bench.py [CALLS]
"""
import sys
import time

import numpy as np

import popxl
import popxl.ops as ops


def main():
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    ir = popxl.Ir()
    with ir.main_graph:
        a_in = popxl.h2d_stream([1], popxl.float32, name="input0_stream")
        b_in = popxl.h2d_stream([1], popxl.float32, name="input1_stream")
        o = ops.add(ops.host_load(a_in, "a"), ops.host_load(b_in, "b"))
        out = popxl.d2h_stream(o.shape, o.dtype, name="output_stream")
        ops.host_store(out, o)
    inputs = {a_in: np.random.rand(1).astype(np.float32), b_in: np.random.rand(1).astype(np.float32)}
    with popxl.Session(ir, "ipu_model") as session:
        session.run(inputs)
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(calls // 5):
                session.run(inputs)
            best = min(best, (time.perf_counter() - start) / (calls // 5))
    print(f"popxl Session.run (simple_addition): {best * 1e6:.1f} us per call (best of 5 rounds of {calls // 5})")


if __name__ == "__main__":
    main()
