#!/usr/bin/python3
"""perf/mlp.pir (the MLP trained with the autodiff directive) against its PyTorch peer,
step for step, from the same data and the same initial weights.

mlp.pir draws its initial weights with pir's own generator (normal(0, 0.05, seed)),
which PyTorch cannot reproduce, so this runs a copy whose two `normal(...)` inits
read w1.npy / w2.npy instead, written by the peers' helper (mlp_manual_check.py:
x.npy, y.npy from RandomState(0), weights from RandomState(1)). It compares the 16
losses of the first run (steps 1..16) and of the 20th (steps 305..320) with PyTorch's.

usage: mlp_autodiff_check.py --perf DIR [--pir PIR] [--dir OUT]
DIR is a copy of the perf scripts (mlp.pir, mlp_manual_check.py), as for mlp_speed.py.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pir", default="pir")
    ap.add_argument("--perf", required=True, help="folder of mlp.pir and mlp_manual_check.py")
    ap.add_argument("--dir", default=None)
    a = ap.parse_args()
    sys.path.insert(0, a.perf)
    from mlp_manual_check import TorchMLP, write_data  # the peers' data, init and step
    d = a.dir or tempfile.mkdtemp()
    os.makedirs(d, exist_ok=True)
    X, Y, W1, W2 = write_data(d)
    text = open(os.path.join(a.perf, "mlp.pir")).read()
    text, n1 = re.subn(r"normal\(0, 0\.05, 1\)", 'load("w1.npy")', text)
    text, n2 = re.subn(r"normal\(0, 0\.05, 2\)", 'load("w2.npy")', text)
    assert n1 == 1 and n2 == 1, "mlp.pir's inits changed"
    losses = {}
    for runs in (1, 20):
        path = os.path.join(d, "mlp_run%d.pir" % runs)
        with open(path, "w") as f:
            f.write(re.sub(r"^run 20$", "run %d" % runs, text, flags=re.M))
        out = subprocess.run([a.pir, "run", path], check=True, capture_output=True, text=True).stdout
        m = re.search(r"\$loss: f32\[16\] = \[([^\]]*)\]", out)
        assert m, out
        losses[runs] = np.array([float(v) for v in m.group(1).split(",")])
    m = TorchMLP(X, Y, W1, W2)
    torch_losses = np.array([m.step(s % 16).item() for s in range(320)])
    worst = 0.0
    for name, p, t in (("steps 1..16", losses[1], torch_losses[:16]), ("steps 305..320", losses[20], torch_losses[304:])):
        rel = np.abs(p - t) / np.abs(t)
        worst = max(worst, rel.max())
        print("%-15s pir   %s\n%-15s torch %s\n%-15s max rel diff %.2e" % (
            name, np.array2string(p[:6], precision=6), "", np.array2string(t[:6], precision=6), "", rel.max()))
    print("PASS" if worst < 1e-4 else "FAIL", "(max relative difference %.2e, bound 1e-4)" % worst)
    sys.exit(0 if worst < 1e-4 else 1)


if __name__ == "__main__":
    main()
