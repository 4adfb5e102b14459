#!/usr/bin/python3
"""Steps per second of perf/mlp.pir (the MLP trained with `autodiff`) against PyTorch eager,
side by side in one run, at each thread count: the speed half of mlp_manual_check.py,
for the autodiff program (scripts/mlp_autodiff_check.py checks its losses).

pir: 320 / (T(`run 22`) - T(`run 2`)) of two whole processes (start-up, parse, NPY loads
and compile cancel), with OPENBLAS_NUM_THREADS=T, which caps all of pir's threads within
an op (docs/decisions.md "GEMM backends"). PyTorch: the step of mlp_manual_check.py from the
same data and initial weights, in this process, in the configurations (intra-op threads,
OpenBLAS threads) that mlp_manual_check.py uses, with glibc's malloc set as
bench/peers/peers.py sets it for PyTorch (TORCH_MALLOC_TUNED: this script re-runs itself
with it unless GLIBC_TUNABLES already holds it). Rounds alternate; ratios are per round.

DIR is a copy of the perf scripts (mlp.pir, mlp_manual_check.py, perfutil.py); it has no
default. bench/peers/peers.py --models mlp measures the same program from the repo alone.

usage: mlp_speed.py --perf DIR [--pir PIR] [--threads 1,2] [--rounds 5]
"""
import argparse
import json
import ctypes
import os
import re
import statistics
import sys
import tempfile


# The variables removed for PyTorch, as JSON, for pir's runs after the re-run.
PIR_ENV_KEY = "PIR_MLP_SPEED_PIR_ENV"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pir", default="pir")
    ap.add_argument("--perf", required=True, help="folder of mlp.pir, mlp_manual_check.py, perfutil.py")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    # PyTorch runs in this process, at its best: glibc's malloc tuned (its tunables are read
    # at start-up) and OpenBLAS on its native kernels (OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE
    # unset), so the script re-runs itself in that environment; pir's runs get the removed
    # variables back (peers.py's split: the peer's command alone loses them).
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench", "peers"))
    from peers import TORCH_MALLOC_TUNED, native_env, with_torch_malloc
    forced = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ}
    if forced or TORCH_MALLOC_TUNED not in os.environ.get("GLIBC_TUNABLES", ""):
        env = with_torch_malloc(native_env())
        env[PIR_ENV_KEY] = json.dumps({**json.loads(os.environ.get(PIR_ENV_KEY, "{}")), **forced})
        os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)
    pir_env = json.loads(os.environ.get(PIR_ENV_KEY, "{}"))
    sys.path.insert(0, a.perf)
    import torch
    from mlp_manual_check import TorchMLP, write_data
    from perfutil import Timer, loadavg, run_proc

    d = tempfile.mkdtemp()
    X, Y, W1, W2 = write_data(d)
    text = open(os.path.join(a.perf, "mlp.pir")).read()
    text = re.sub(r"normal\(0, 0\.05, 1\)", 'load("w1.npy")', text)
    text = re.sub(r"normal\(0, 0\.05, 2\)", 'load("w2.npy")', text)
    paths = {}
    for runs in (2, 22):
        paths[runs] = os.path.join(d, "mlp_run%d.pir" % runs)
        with open(paths[runs], "w") as f:
            f.write(re.sub(r"^run 20$", "run %d" % runs, text, flags=re.M))
    blas = ctypes.CDLL("libopenblas.so.0")  # the OpenBLAS torch's matmuls run in
    print("load average at start:", loadavg())
    for T in [int(x) for x in a.threads.split(",")]:
        env = dict(pir_env, OPENBLAS_NUM_THREADS=str(T))
        run_proc([a.pir, "run", paths[2]], env=env)  # warm the page cache
        configs = [(T, 2), (T, T)] if T == 1 else [(T, 2), (T, 1), (1, T)]
        configs = list(dict.fromkeys(configs))
        rows = {"pir (mlp.pir, autodiff)": []}
        rows.update({"torch omp=%d openblas=%d" % c: [] for c in configs})
        for _ in range(a.rounds):
            w1 = run_proc([a.pir, "run", paths[2]], env=env)[0]
            w2 = run_proc([a.pir, "run", paths[22]], env=env)[0]
            rows["pir (mlp.pir, autodiff)"].append(320 / (w2 - w1))
            for key, (omp, ob) in zip(list(rows)[1:], configs):
                torch.set_num_threads(omp)
                blas.openblas_set_num_threads(ob)
                m = TorchMLP(X, Y, W1, W2)
                for i in range(16):
                    m.step(i)
                with Timer() as t:
                    for _ in range(20):
                        for i in range(16):
                            m.step(i)
                rows[key].append(320 / t.wall)
            blas.openblas_set_num_threads(2)
        pir_rows = rows["pir (mlp.pir, autodiff)"]
        for k, v in rows.items():
            line = "threads=%d %-28s steps/s median %8.1f (min %.1f max %.1f)" % (
                T, k, statistics.median(v), min(v), max(v))
            if v is not pir_rows:
                rr = [p / q for p, q in zip(pir_rows, v)]
                line += "  pir/torch median %.2f (min %.2f max %.2f)" % (statistics.median(rr), min(rr), max(rr))
            print(line, flush=True)
    print("load average at end:", loadavg())


if __name__ == "__main__":
    main()
