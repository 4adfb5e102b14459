#!/usr/bin/python3
"""Models as users have them: exported by torch.onnx.export, imported by `pir import`.

Each model (torchvision's resnet18, mobilenet_v2 and squeezenet1_0 with random
weights, and a small BERT-style encoder written here) is exported into a
temporary directory at test time, imported, and then:

  outputs  runs under `pir run` and compares every output with PyTorch's
           (float32, eval mode): max |pir - torch| <= RTOL * max |torch| per output
           (relative to the output's magnitude, RTOL = 1e-4);
  profile  runs under `pir profile --json` and checks the report: tile memory
           (every tile within tile_memory, the peak at least the weights' bytes)
           and cycles (every kind counted, totals the sums of the ops');
  train    samples/train_imported_cnn.pir: its graph is what `pir import` writes
           for the small CNN of samples/Inputs/imported_cnn.py, and its losses
           match PyTorch's SGD steps to RTOL.

Exits 77 (skipped, with the reason) when PyTorch or torchvision is missing
(Debian: python3-torch, python3-torchvision; scripts/setup.sh installs them).

Usage: torch_models.py PIR {outputs|profile|train} [-k NAME]...
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from backend_tests import streams_of  # the stream names the importer wrote, per ONNX name

try:
    import numpy as np
    import torch
    import torch.nn as nn
    import torchvision
except ImportError as e:
    print("torch models: %s (Debian: python3-torch python3-torchvision); skipped" % e)
    sys.exit(77)

RTOL = 1e-4
OPSET = 13


class EncoderLayer(nn.Module):
    """A post-norm BERT layer: self-attention with a padding mask, exact GELU FFN."""

    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(hidden, hidden)
        self.k = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, hidden)
        self.o = nn.Linear(hidden, hidden)
        self.norm1 = nn.LayerNorm(hidden, eps=1e-12)
        self.ff1 = nn.Linear(hidden, ffn)
        self.ff2 = nn.Linear(ffn, hidden)
        self.norm2 = nn.LayerNorm(hidden, eps=1e-12)

    def split(self, t):
        b, s, h = t.shape
        return t.view(b, s, self.heads, h // self.heads).transpose(1, 2)

    def forward(self, x, mask_bias):
        b, s, h = x.shape
        q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
        scores = q @ k.transpose(-1, -2) / (h // self.heads) ** 0.5 + mask_bias
        ctx = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, h)
        x = self.norm1(x + self.o(ctx))
        return self.norm2(x + self.ff2(nn.functional.gelu(self.ff1(x))))


class BertEncoder(nn.Module):
    """Token, position and type embeddings, two encoder layers, a tanh pooler."""

    def __init__(self, vocab=100, hidden=32, heads=4, ffn=64, layers=2, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, hidden)
        self.pos = nn.Embedding(max_len, hidden)
        self.typ = nn.Embedding(2, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList([EncoderLayer(hidden, heads, ffn) for _ in range(layers)])
        self.pool = nn.Linear(hidden, hidden)

    def forward(self, input_ids, attention_mask):
        s = input_ids.shape[1]
        positions = torch.arange(s, device=input_ids.device).unsqueeze(0)
        x = self.norm(self.tok(input_ids) + self.pos(positions) + self.typ(torch.zeros_like(input_ids)))
        mask_bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask_bias)
        return x, torch.tanh(self.pool(x[:, 0]))


def bert_inputs():
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, 100, (2, 16), generator=g)
    mask = torch.ones(2, 16, dtype=torch.int64)
    mask[1, 11:] = 0
    return (ids, mask), ["input_ids", "attention_mask"], ["hidden", "pooled"]


def image_inputs(size=64):
    g = torch.Generator().manual_seed(1)
    return (torch.randn(1, 3, size, size, generator=g),), ["image"], ["logits"]


def randomize_batch_norm(model):
    """Random running statistics, so that the folded or imported batch norm is exercised."""
    g = torch.Generator().manual_seed(2)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)
            m.weight.data.copy_(torch.rand(m.num_features, generator=g) + 0.5)
            m.bias.data.copy_(torch.randn(m.num_features, generator=g) * 0.1)
    return model


def models():
    """name -> (constructor, inputs): constructors build with random weights."""
    return {
        "resnet18": (lambda: randomize_batch_norm(torchvision.models.resnet18(weights=None)), image_inputs),
        "mobilenet_v2": (lambda: randomize_batch_norm(torchvision.models.mobilenet_v2(weights=None)), image_inputs),
        "squeezenet1_0": (lambda: torchvision.models.squeezenet1_0(weights=None), image_inputs),
        "bert_encoder": (BertEncoder, bert_inputs),
    }


def export(name, work):
    """Exports model NAME into WORK; returns (onnx path, inputs, input names, output names, torch outputs)."""
    make, inputs_of = models()[name]
    torch.manual_seed(0)
    model = make().eval()
    inputs, in_names, out_names = inputs_of()
    with torch.no_grad():
        expected = model(*inputs)
    if isinstance(expected, torch.Tensor):
        expected = (expected,)
    path = os.path.join(work, name + ".onnx")
    torch.onnx.export(model, inputs, path, input_names=in_names, output_names=out_names,
                      opset_version=OPSET, do_constant_folding=True)
    return path, [t.numpy() for t in inputs], in_names, out_names, [t.numpy() for t in expected]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd[:2]), p.returncode, p.stderr.strip()))
    return p.stdout


def import_and_feed(pir, name, work):
    """Exports and imports model NAME; returns (pir path, feed arguments, output streams, expected)."""
    onnx_path, inputs, in_names, out_names, expected = export(name, work)
    pir_path = os.path.join(work, name + ".pir")
    run([pir, "import", onnx_path, "-o", pir_path])
    in_streams, out_streams = streams_of(pir_path)
    feeds = []
    for n, value in zip(in_names, inputs):
        npy = os.path.join(work, "%s.in.%s.npy" % (name, in_streams[n]))
        np.save(npy, value)
        feeds += ["--feed", "%s=%s" % (in_streams[n], npy)]
    return pir_path, feeds, [out_streams[n] for n in out_names], expected


def check_outputs(pir, name, work):
    pir_path, feeds, outs, expected = import_and_feed(pir, name, work)
    saves = []
    for s in outs:
        saves += ["--save", "%s=%s" % (s, os.path.join(work, "%s.out.%s.npy" % (name, s)))]
    run([pir, "run", pir_path] + feeds + saves)
    problems = []
    for s, exp in zip(outs, expected):
        actual = np.load(os.path.join(work, "%s.out.%s.npy" % (name, s)))
        if actual.shape != exp.shape:
            problems.append("$%s: shape %s, PyTorch %s" % (s, actual.shape, exp.shape))
            continue
        scale = float(np.abs(exp).max())
        err = float(np.abs(actual.astype(np.float64) - exp).max())
        rel = err / scale if scale else err
        print("  %-14s $%-8s %-16s max |diff| %.3g, relative %.3g" % (name, s, "x".join(map(str, exp.shape)), err, rel))
        if not rel <= RTOL:
            problems.append("$%s: relative difference %.3g above %g" % (s, rel, RTOL))
    return problems


def check_profile(pir, name, work):
    pir_path, feeds, _, _ = import_and_feed(pir, name, work)
    report_path = os.path.join(work, name + ".profile.json")
    run([pir, "profile", pir_path, "--json=" + report_path] + feeds)
    with open(report_path) as f:
        report = json.load(f)
    problems = []
    memory, cycles, ops = report["memory"], report["cycles"], report["ops"]
    weights = sum(os.path.getsize(os.path.join(work, f)) - 128 for f in os.listdir(work)
                  if f.startswith(name + ".") and f.endswith(".npy") and ".in." not in f)
    peak_total = sum(t["peak_bytes"] for t in memory["tiles"])
    if report["schema"] != "pir-profile/1":
        problems.append("schema %r" % report["schema"])
    if not 0 < memory["max_peak_bytes"] <= memory["tile_memory"]:
        problems.append("max_peak_bytes %d not within (0, %d]" % (memory["max_peak_bytes"], memory["tile_memory"]))
    if any(t["peak_bytes"] > memory["tile_memory"] or t["always_live_bytes"] > t["peak_bytes"] for t in memory["tiles"]):
        problems.append("a tile's peak exceeds tile_memory or is below its always-live bytes")
    if memory["tiles_used"] != len(memory["tiles"]) or memory["tiles_used"] < 2:
        problems.append("tiles_used %d for %d tiles listed" % (memory["tiles_used"], len(memory["tiles"])))
    if peak_total < weights:
        problems.append("the tiles' peaks (%d bytes) hold less than the weights (%d bytes)" % (peak_total, weights))
    for kind in ("compute", "exchange", "sync", "host_io", "syncs"):
        summed = sum(op[kind] for op in ops)
        if cycles[kind] != summed:
            problems.append("cycles.%s %d is not the ops' sum %d" % (kind, cycles[kind], summed))
        if cycles[kind] <= 0:
            problems.append("no %s counted" % kind)
    if cycles["total"] != sum(cycles[k] for k in ("compute", "exchange", "sync", "host_io")):
        problems.append("cycles.total is not the sum of its kinds")
    kinds = {op["op"] for op in ops}
    wanted = {"conv", "matmul"} & kinds
    if not wanted:
        problems.append("no conv or matmul among the profiled ops: %s" % sorted(kinds))
    print("  %-14s %3d ops, %4d tiles, peak %6d of %d bytes per tile, weights %8d bytes, %d cycles (compute %d, exchange %d, sync %d, host IO %d)"
          % (name, len(ops), memory["tiles_used"], memory["max_peak_bytes"], memory["tile_memory"], weights,
             cycles["total"], cycles["compute"], cycles["exchange"], cycles["sync"], cycles["host_io"]))
    return problems


def imported_statements(text):
    """(the statements of a main, without its host IO, and its `var` statements) of an import."""
    body = text.split("main {", 1)[1].rsplit("}", 1)[0]
    lines = [l.strip() for l in body.splitlines() if l.strip()]
    ops = [l for l in lines if not l.startswith("var ") and " host_load " not in l and not l.startswith("host_store ")]
    return ops, [l for l in lines if l.startswith("var ")]


def check_training(pir, work):
    """samples/train_imported_cnn.pir: its graph is the import of the model, its losses PyTorch's."""
    samples = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "samples")
    sys.path.insert(0, os.path.join(samples, "Inputs"))
    sys.dont_write_bytecode = True  # nothing is written into the source tree
    import imported_cnn
    imported_cnn.export(work)
    pir_path = os.path.join(work, "imported_cnn.pir")
    run([pir, "import", os.path.join(work, "imported_cnn.onnx"), "-o", pir_path])
    with open(pir_path) as f:
        ops, variables = imported_statements(f.read())
    sample_path = os.path.join(samples, "train_imported_cnn.pir")
    with open(sample_path) as f:
        sample = f.read()
    graph = sample.split("# imported statements", 1)[1].split("# end of the imported statements", 1)[0]
    sample_ops = [l.strip() for l in graph.splitlines()[1:] if l.strip()]
    _, sample_vars = imported_statements(sample)
    problems = []
    if sample_ops != ops:
        problems.append("the sample's imported statements differ from `pir import`'s:\n    " + "\n    ".join(ops))
    if [v.replace('load("Inputs/', 'load("') for v in sample_vars] != variables:
        problems.append("the sample's variables differ from `pir import`'s:\n    " + "\n    ".join(variables))
    for f in os.listdir(work):
        if f.startswith("imported_cnn.") and f.endswith("_weight.npy"):
            if not np.array_equal(np.load(os.path.join(work, f)), np.load(os.path.join(samples, "Inputs", f))):
                problems.append("samples/Inputs/%s differs from the import's" % f)
    out = run([pir, "run", sample_path])
    losses = [float(v) for v in out.split("= [", 1)[1].split("]", 1)[0].split(",")]
    expected = imported_cnn.losses(torch.float32)
    rel = max(abs(a - e) / abs(e) for a, e in zip(losses, expected))
    print("  train_imported_cnn: %d steps, losses %s (PyTorch %s), max relative difference %.3g"
          % (len(losses), ", ".join("%.6f" % v for v in losses), ", ".join("%.6f" % v for v in expected), rel))
    if len(losses) != len(expected) or not rel <= RTOL:
        problems.append("losses differ from PyTorch's by %.3g relative" % rel)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pir")
    ap.add_argument("check", choices=["outputs", "profile", "train"])
    ap.add_argument("-k", dest="names", action="append", help="only these models")
    args = ap.parse_args()
    if args.check == "train":
        names = ["train_imported_cnn"]
        check = lambda pir, name, work: check_training(pir, work)
    else:
        names = args.names or list(models())
        check = check_outputs if args.check == "outputs" else check_profile
    torch.set_num_threads(1)
    failed = []
    with tempfile.TemporaryDirectory(prefix="pir_torch_models_") as work:
        for name in names:
            try:
                problems = check(args.pir, name, work)
            except Exception as e:  # an export, import or run that fails is the model's failure
                problems = [str(e)]
            for p in problems:
                print("FAIL %s: %s" % (name, p))
            if problems:
                failed.append(name)
    print("== torch models (%s): %d of %d pass" % (args.check, len(names) - len(failed), len(names)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
