#!/usr/bin/python3
"""The PyTorch (float64) peer of samples/train_mlp.pir: same data, same initial
weights, same steps. Prints the `# EXPECT:` line of the sample's losses.
usage: /usr/bin/python3 samples/Inputs/train_mlp_oracle.py"""
import numpy as np
import torch
import torch.nn.functional as F


def data():
    r = np.random.RandomState(3)
    x = np.round(r.uniform(-1, 1, (6, 4)), 2).astype(np.float32)
    y = np.array([0, 2, 1, 1, 0, 2], np.int32)
    w1 = np.round(r.normal(0, 0.5, (4, 8)), 2).astype(np.float32)
    w2 = np.round(r.normal(0, 0.5, (8, 3)), 2).astype(np.float32)
    return x, y, w1, w2


def main():
    x, y, w1, w2 = data()
    t = lambda a: torch.tensor(a.astype(np.float64), requires_grad=True)
    W1, W2 = t(w1), t(w2)
    b1, b2 = t(np.zeros(8)), t(np.zeros(3))
    g, beta = t(np.ones(8)), t(np.zeros(8))
    X, Y = torch.tensor(x.astype(np.float64)), torch.tensor(y.astype(np.int64))
    losses = []
    for step in range(12):
        h = X @ W1 + b1
        n = F.layer_norm(h, (8,), g, beta, eps=1e-5)
        a = F.gelu(n, approximate="tanh")
        o = a @ W2 + b2
        l = F.nll_loss(torch.log_softmax(o, 1), Y)
        losses.append(l.item())
        l.backward()
        with torch.no_grad():
            for p in (W1, b1, g, beta, W2, b2):
                p -= 0.5 * p.grad
                p.grad = None
    print("# EXPECT: $loss: f32[12] = [%s]" % ", ".join("%.8g" % v for v in losses))


if __name__ == "__main__":
    main()
