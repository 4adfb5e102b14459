#!/usr/bin/python3
"""The PyTorch side of samples/train_imported_cnn.pir.

The model is a small CNN (conv 3x3 1->4 + relu + max_pool 2x2, linear 64->3),
built with torch.manual_seed(0); the data are six 8x8 images and their classes.

  export DIR    writes DIR/imported_cnn.onnx (torch.onnx.export, opset 13)
                and DIR/imported_cnn.x.npy, DIR/imported_cnn.y.npy (the data)
  losses        prints the `# EXPECT:` line: the losses of STEPS SGD steps
                (learning rate LR, log-softmax cross-entropy, float64)

How the sample was made: `export` into samples/Inputs, `pir import
imported_cnn.onnx -o imported_cnn.pir` there, the imported statements moved
into `graph @model` (the weights' `var`s as its parameters), then a loss, the
`autodiff` and an SGD step added (tests/onnx/torch_models.py `train` checks
that the graph is still what the importer writes, and the losses PyTorch's).
usage: /usr/bin/python3 samples/Inputs/imported_cnn.py {export DIR|losses}
"""
import os
import sys

import numpy as np
import torch
import torch.nn as nn

STEPS = 8
LR = 0.1


class SmallCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(64, 3)

    def forward(self, image):
        h = torch.max_pool2d(torch.relu(self.conv(image)), 2)
        return self.fc(h.flatten(1))


def model():
    torch.manual_seed(0)
    return SmallCnn()


def data():
    r = np.random.RandomState(5)
    x = np.round(r.uniform(-1, 1, (6, 1, 8, 8)), 2).astype(np.float32)
    y = np.array([0, 1, 2, 2, 1, 0], np.int32)
    return x, y


def export(directory):
    x, y = data()
    torch.onnx.export(model().eval(), torch.tensor(x), os.path.join(directory, "imported_cnn.onnx"),
                      input_names=["image"], output_names=["logits"], opset_version=13)
    np.save(os.path.join(directory, "imported_cnn.x.npy"), x)
    np.save(os.path.join(directory, "imported_cnn.y.npy"), y)


def losses(dtype=torch.float64):
    x, y = data()
    m = model().to(dtype)
    opt = torch.optim.SGD(m.parameters(), lr=LR)
    X, Y = torch.tensor(x).to(dtype), torch.tensor(y.astype(np.int64))
    out = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = nn.functional.nll_loss(torch.log_softmax(m(X), 1), Y)
        loss.backward()
        opt.step()
        out.append(float(loss))
    return out


def main():
    if sys.argv[1:2] == ["export"] and len(sys.argv) == 3:
        export(sys.argv[2])
    elif sys.argv[1:] == ["losses"]:
        print("# EXPECT: $loss: f32[%d] = [%s]" % (STEPS, ", ".join("%.8g" % v for v in losses())))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
