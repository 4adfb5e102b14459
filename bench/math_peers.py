#!/usr/bin/python3
"""pir's elementwise math kernels (tanh, exp, log, sigmoid, gelu, sin, cos on f32[1M]) beside
NumPy's.

pir: `kernels_bench`'s `pir_only/<op>_1M` cases (the kernel as the VM calls it, one thread:
OPENBLAS_NUM_THREADS=1), CPU time per call. NumPy: the same sizes and input ranges
([-1, 1), log's (0, 2], sin's and cos's [-100, 100)), CPU time per call of its best form
with preallocated outputs: its own ufunc for tanh/exp/log/sin/cos (SVML's AVX-512 kernels
when NumPy's dispatcher picks them), and in-place ufunc chains for sigmoid and gelu, which
NumPy has no ufunc for.
Rounds alternate pir and NumPy; each op's ratio NumPy / pir (higher is better for pir)
is the median of the rounds.

usage: math_peers.py [--bench PATH] [--rounds 5]
PATH defaults to the build tree next to this script (../build/bench/kernels_bench).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = ["tanh", "exp", "log", "sigmoid", "gelu", "sin", "cos"]
N = 1 << 20


def numpy_forms(np):
    t = np.empty(N, np.float32)
    k = np.float32(0.7978845608028654)
    a = np.float32(0.044715)

    def sigmoid(x, y):
        np.negative(x, out=y)
        np.exp(y, out=y)
        np.add(y, np.float32(1), out=y)
        np.reciprocal(y, out=y)

    def gelu(x, y):
        np.multiply(x, x, out=t)
        np.multiply(t, x, out=t)
        np.multiply(t, a, out=t)
        np.add(t, x, out=t)
        np.multiply(t, k, out=t)
        np.tanh(t, out=t)
        np.add(t, np.float32(1), out=t)
        np.multiply(x, np.float32(0.5), out=y)
        np.multiply(y, t, out=y)

    return {"tanh": lambda x, y: np.tanh(x, out=y), "exp": lambda x, y: np.exp(x, out=y),
            "log": lambda x, y: np.log(x, out=y), "sigmoid": sigmoid, "gelu": gelu,
            "sin": lambda x, y: np.sin(x, out=y), "cos": lambda x, y: np.cos(x, out=y)}


def numpy_ns(np, form, x, y, min_seconds=0.3):
    for _ in range(3):
        form(x, y)
    calls, t0 = 0, time.process_time()
    while True:
        for _ in range(10):
            form(x, y)
        calls += 10
        spent = time.process_time() - t0
        if spent >= min_seconds:
            return spent / calls * 1e9


def pir_ns(bench, env):
    out = subprocess.run([bench, "--benchmark_filter=^pir_only/(%s)_1M$" % "|".join(OPS),
                          "--benchmark_format=json", "--benchmark_min_time=0.3"],
                         env=env, check=True, capture_output=True, text=True).stdout
    res = {}
    for b in json.loads(out)["benchmarks"]:
        name = b["name"].split("/")[1][:-len("_1M")]
        scale = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
        res[name] = b["cpu_time"] * scale
        res["isa"] = b.get("label", "")
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=os.path.join(HERE, "..", "build", "bench", "kernels_bench"))
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    import numpy as np
    from numpy.core._multiarray_umath import __cpu_features__ as features
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    rng = np.random.RandomState(0)
    xs = {op: rng.uniform(-1, 1, N).astype(np.float32) for op in OPS}
    xs["log"] = xs["log"] + np.float32(1.0001)
    for op in ("sin", "cos"):
        xs[op] = xs[op] * np.float32(100)
    y = np.empty(N, np.float32)
    forms = numpy_forms(np)
    avx512 = [k for k in ("AVX512F", "AVX512_SKX") if features.get(k)]
    print("NumPy %s, CPU features used by its dispatcher: %s" % (np.__version__, ", ".join(avx512) or "no AVX-512"))
    ratios = {op: [] for op in OPS}
    times = {op: ([], []) for op in OPS}
    isa = ""
    for r in range(args.rounds):
        first_pir = r % 2 == 0
        if first_pir:
            p = pir_ns(args.bench, env)
        n = {op: numpy_ns(np, forms[op], xs[op], y) for op in OPS}
        if not first_pir:
            p = pir_ns(args.bench, env)
        isa = p.pop("isa")
        for op in OPS:
            ratios[op].append(n[op] / p[op])
            times[op][0].append(p[op])
            times[op][1].append(n[op])
    print("pir SIMD table: %s; f32[%d], CPU time per call, medians of %d rounds" % (isa, N, args.rounds))
    for op in OPS:
        print("%-8s pir %8.1f us  numpy %8.1f us  numpy/pir median %.2f (rounds %s)" % (
            op, statistics.median(times[op][0]) / 1e3, statistics.median(times[op][1]) / 1e3,
            statistics.median(ratios[op]), " ".join("%.2f" % v for v in ratios[op])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
