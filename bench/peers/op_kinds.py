#!/usr/bin/python3
"""pir against PyTorch eager on kinds of ops the training workloads of peers.py do not
use, one SGD-style step of each (forward, `autodiff` gradient, an update), from the
same inputs:

  resize    nearest, bilinear and bicubic upsampling x2 of f32[16, 32, 32, 32] (U-Nets,
            FPNs, YOLO's neck; ONNX Resize)
  layout    pad, concat, a crop (slice), cumsum, gather_elements, logsumexp, a max
            over the batch, a global mean and group_norm of f32[32, 64, 28, 28]
  lrn       local response normalisation (size 5) of f32[32, 64, 28, 28] (AlexNet,
            GoogLeNet)
  norms     an RMS norm's x^2 (pow), a masked softmax (where) over f32[8, 12, 512, 512]
            and topk (k = 8) over f32[8, 512, 768]
  random    random_normal of f32[16, 64, 4096] and dropout (p = 0.1) of it
  batchnorm batch normalisation as training computes it (mean and variance over the
            batch and the positions, per channel), then relu, of f32[32, 64, 56, 56]
  activations  swish (SiLU), softplus, relu6 and hardswish of f32[32, 64, 56, 56]
            (MobileNetV3, EfficientNet)
  conv1d    a 1-D convolution (64 to 64 channels, kernel 5, padding 2) of
            f32[16, 64, 1024] (text and audio CNNs)
  depthwise a depthwise 3x3 convolution (groups = channels) of f32[32, 64, 56, 56]
            (MobileNet, EfficientNet)
  dilated   a 3x3 convolution at dilation 2 of f32[16, 32, 64, 64] (DeepLab)
  strided   a 3x3 convolution at stride 2 of f32[32, 32, 56, 56] to 64 channels
  conv_transpose  a 4x4 transposed convolution at stride 2 of f32[16, 32, 32, 32]
            (DCGAN, U-Net decoders)
  conv3d    a 3x3x3 convolution of f32[4, 16, 16, 32, 32] (video, medical volumes)
  pools     average_pool 3x3 at stride 1 (Inception) and max_pool 3x3 at stride 2
            with padding 1 (the ResNet stem) of f32[32, 64, 56, 56]
  reductions  sum, mean, max, sumsquare, logsumexp and argmax (its maxima gathered back)
            along axis 0, 1 and 2 of f32[64, 256, 256], softmax along axis 1 and
            log_softmax along axis 0
  indexing  an embedding lookup (gather of 32K rows of an f32[65536, 64] table, its
            gradient a scatter-add), gather_elements, scatter_elements (replace and add)
            and cumsum along the middle axis of f32[32, 256, 256], onehot (1000 classes),
            where, dynamic_slice and dynamic_update
  einsum_attn  attention as einsums ("bhqd,bhkd->bhqk", softmax, "bhqk,bhkd->bhqd") over
            f32[8, 8, 256, 64] and a bilinear form "bi,ij,bj->b" (two einsums) of
            f32[4096, 256]
  elementwise_misc  abs, log2, sqrt, reciprocal, sign, floor, round, fmod, pow with a
            tensor exponent, maximum, minimum, sin, cos, erf, an isnan mask and a cast to
            f16 and back, of f32[16, 64, 64, 64]

pir's time per step from two whole processes (`run` of R1 and R2 repeats of the step:
start-up, parse, loads and compile cancel), PyTorch's from a timed loop after two warm-up
steps, both at one thread (OPENBLAS_NUM_THREADS=1; PyTorch with
torch.set_num_threads(1), OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed, its default
ATen ISA). Per round (default 3), the two peers alternate their order; the ratio
torch / pir (above 1: pir is faster) is taken per round and its median reported.

usage: op_kinds.py [--pir PATH] [--kinds resize,layout,...] [--rounds 3]
PATH defaults to the build tree next to this script (../../build/repl/pir).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name -> (inputs: name -> (shape, kind), pir step body, torch step source)
KINDS = {
    "resize": ({"x": ((16, 32, 32, 32), "normal")}, """
  %r = resize %x {shape = [16, 32, 64, 64], mode = nearest}
  %rl = resize %x {shape = [16, 32, 64, 64], mode = linear}
  %rc = resize %x {shape = [16, 32, 64, 64], mode = cubic, cubic_coeff_a = -0.75}
  %s1 = sumsquare %r
  %s2 = sumsquare %rl
  %s3 = sumsquare %rc
  %a = add %s1, %s2
  %l = add %a, %s3
""", """
r = F.interpolate(x, scale_factor=2, mode="nearest")
rl = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
rc = F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=False)
l = (r * r).sum() + (rl * rl).sum() + (rc * rc).sum()
"""),
    "layout": ({"x": ((32, 64, 28, 28), "normal"), "ga": ((64,), "ones"), "be": ((64,), "zeros"),
                "idx": ((32, 64, 28, 28), "index28")}, """
  %p = pad %x {pads = [0, 0, 1, 1, 0, 0, 1, 1]}
  %c = concat %x, %x {axis = 1}
  %s = slice %x {start = [0, 0, 1, 1], stop = [32, 64, 27, 27]}
  %cs = cumsum %x {axis = 3}
  %ge = gather_elements %x, %idx {axis = 3}
  %ls = logsumexp %x {axis = 1}
  %mx = max %x {axis = 0}
  %gm = mean %x {axis = [2, 3]}
  %gn = group_norm %x, %ga, %be {groups = 64}
  %t1 = sumsquare %p
  %t2 = sumsquare %c
  %t3 = sumsquare %s
  %t4 = sumsquare %cs
  %t5 = sumsquare %ge
  %t6 = sumsquare %ls
  %t7 = sumsquare %mx
  %t8 = sumsquare %gm
  %t9 = sumsquare %gn
  %a1 = add %t1, %t2
  %a2 = add %a1, %t3
  %a3 = add %a2, %t4
  %a4 = add %a3, %t5
  %a5 = add %a4, %t6
  %a6 = add %a5, %t7
  %a7 = add %a6, %t8
  %l = add %a7, %t9
""", """
p = F.pad(x, (1, 1, 1, 1)); c = torch.cat([x, x], 1); s = x[:, :, 1:27, 1:27]; cs = torch.cumsum(x, 3)
ge = torch.gather(x, 3, idx.long()); ls = torch.logsumexp(x, 1); mx = x.max(0).values; gm = x.mean((2, 3))
gn = F.group_norm(x, 64, ga, be)
l = sum((t * t).sum() for t in (p, c, s, cs, ge, ls, mx, gm, gn))
"""),
    "lrn": ({"x": ((32, 64, 28, 28), "normal")}, """
  %lr = lrn %x {size = 5}
  %l = sumsquare %lr
""", """
lr = F.local_response_norm(x, 5)
l = (lr * lr).sum()
"""),
    "norms": ({"h": ((8, 512, 768), "normal"), "m": ((8, 1, 512, 512), "mask"), "s": ((8, 12, 512, 512), "normal")}, """
  %p2 = pow %h, 2.0
  %ms = mean %p2 {axis = [-1], keepdims = true}
  %e = add %ms, 1e-6
  %r = rsqrt %e
  %n = mul %h, %r
  %sm = where %m, %s, -10000.0
  %pr = softmax %sm {axis = -1}
  %tk, %ti = topk %h {k = 8}
  %t1 = sumsquare %n
  %t2 = sumsquare %pr
  %t3 = sum %tk
  %a = add %t1, %t2
  %l = add %a, %t3
""", """
n = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
pr = torch.softmax(torch.where(m, s, torch.tensor(-10000.0)), -1)
tk = torch.topk(h, 8).values
l = (n * n).sum() + (pr * pr).sum() + tk.sum()
"""),
    "conv1d": ({"x": ((16, 64, 1024), "normal"), "w": ((64, 64, 5), "normal")}, """
  %y = conv %x, %w {padding = [2, 2]}
  %l = sumsquare %y
""", """
y = F.conv1d(x, w, padding=2)
l = (y * y).sum()
"""),
    "depthwise": ({"x": ((32, 64, 56, 56), "normal"), "w": ((64, 1, 3, 3), "normal")}, """
  %y = conv %x, %w {padding = [1, 1, 1, 1], groups = 64}
  %l = sumsquare %y
""", """
y = F.conv2d(x, w, padding=1, groups=64)
l = (y * y).sum()
"""),
    "dilated": ({"x": ((16, 32, 64, 64), "normal"), "w": ((32, 32, 3, 3), "normal")}, """
  %y = conv %x, %w {padding = [2, 2, 2, 2], dilation = [2, 2]}
  %l = sumsquare %y
""", """
y = F.conv2d(x, w, padding=2, dilation=2)
l = (y * y).sum()
"""),
    "strided": ({"x": ((32, 32, 56, 56), "normal"), "w": ((64, 32, 3, 3), "normal")}, """
  %y = conv %x, %w {padding = [1, 1, 1, 1], stride = [2, 2]}
  %l = sumsquare %y
""", """
y = F.conv2d(x, w, stride=2, padding=1)
l = (y * y).sum()
"""),
    "conv_transpose": ({"x": ((16, 32, 32, 32), "normal"), "w": ((32, 16, 4, 4), "normal")}, """
  %y = conv_transpose %x, %w {padding = [1, 1, 1, 1], stride = [2, 2]}
  %l = sumsquare %y
""", """
y = F.conv_transpose2d(x, w, stride=2, padding=1)
l = (y * y).sum()
"""),
    "conv3d": ({"x": ((4, 16, 16, 32, 32), "normal"), "w": ((16, 16, 3, 3, 3), "normal")}, """
  %y = conv %x, %w {padding = [1, 1, 1, 1, 1, 1]}
  %l = sumsquare %y
""", """
y = F.conv3d(x, w, padding=1)
l = (y * y).sum()
"""),
    "pools": ({"x": ((32, 64, 56, 56), "normal")}, """
  %a = average_pool %x {kernel = [3, 3], stride = [1, 1], padding = [1, 1, 1, 1]}
  %m = max_pool %x {kernel = [3, 3], stride = [2, 2], padding = [1, 1, 1, 1]}
  %s1 = sumsquare %a
  %s2 = sumsquare %m
  %l = add %s1, %s2
""", """
a = F.avg_pool2d(x, 3, stride=1, padding=1, count_include_pad=False)
m = F.max_pool2d(x, 3, stride=2, padding=1)
l = (a * a).sum() + (m * m).sum()
"""),
    "batchnorm": ({"x": ((32, 64, 56, 56), "normal"), "ga": ((1, 64, 1, 1), "ones"), "be": ((1, 64, 1, 1), "zeros")}, """
  %mu = mean %x {axis = [0, 2, 3], keepdims = true}
  %d = sub %x, %mu
  %d2 = mul %d, %d
  %var = mean %d2 {axis = [0, 2, 3], keepdims = true}
  %ve = add %var, 1e-5
  %r = rsqrt %ve
  %n = mul %d, %r
  %s = mul %n, %ga
  %y = add %s, %be
  %z = relu %y
  %l = sumsquare %z
""", """
mu = x.mean((0, 2, 3), keepdim=True)
d = x - mu
var = (d * d).mean((0, 2, 3), keepdim=True)
y = d * torch.rsqrt(var + 1e-5) * ga + be
z = torch.relu(y)
l = (z * z).sum()
"""),
    "activations": ({"x": ((32, 64, 56, 56), "normal")}, """
  %a = swish %x
  %b = softplus %x
  %c = clip %x {min = 0.0, max = 6.0}
  %t = add %x, 3.0
  %hc = clip %t {min = 0.0, max = 6.0}
  %hm = mul %x, %hc
  %h = div %hm, 6.0
  %s1 = sumsquare %a
  %s2 = sumsquare %b
  %s3 = sumsquare %c
  %s4 = sumsquare %h
  %u = add %s1, %s2
  %v = add %u, %s3
  %l = add %v, %s4
""", """
a = F.silu(x); b = F.softplus(x); c = F.relu6(x); h = F.hardswish(x)
l = (a * a).sum() + (b * b).sum() + (c * c).sum() + (h * h).sum()
"""),
    "random": ({"x": ((16, 64, 4096), "normal")}, """
  const %seed : u32[2] = [1, 2]
  %rn = random_normal %seed {shape = [16, 64, 4096]}
  %y = add %x, %rn
  %d = dropout %y, %seed {p = 0.1}
  %l = sumsquare %d
""", """
y = x + torch.randn(16, 64, 4096)
d = F.dropout(y, 0.1, training=True)
l = (d * d).sum()
"""),
}


def reductions_kind():
    """Each reduction along each axis of one 3-D tensor, every result summed into the loss."""
    body, terms = [], []
    for axis in (0, 1, 2):
        for op in ("sum", "mean", "max", "sumsquare", "logsumexp"):
            body.append("  %%%s%d = %s %%x {axis = %d}" % (op, axis, op, axis))
            terms.append("%s%d" % (op, axis))
        body.append("  %%am%d = argmax %%x {axis = %d, keepdims = true}" % (axis, axis))
        body.append("  %%ag%d = gather_elements %%x, %%am%d {axis = %d}" % (axis, axis, axis))
        terms.append("ag%d" % axis)
    body.append("  %sm = softmax %x {axis = 1}")
    body.append("  %lsm = log_softmax %x {axis = 0}")
    terms += ["sm", "lsm"]
    for t in terms:
        body.append("  %%t_%s = sumsquare %%%s" % (t, t))
    acc = "t_" + terms[0]
    for i, t in enumerate(terms[1:]):
        name = "l" if i == len(terms) - 2 else "a%d" % i
        body.append("  %%%s = add %%%s, %%t_%s" % (name, acc, t))
        acc = name
    source = """
r = []
for d in (0, 1, 2):
    r += [x.sum(d), x.mean(d), x.max(d).values, (x * x).sum(d), torch.logsumexp(x, d)]
    r.append(torch.gather(x, d, x.argmax(d, keepdim=True)))
r += [torch.softmax(x, 1), torch.log_softmax(x, 0)]
l = sum((t * t).sum() for t in r)
"""
    return {"x": ((64, 256, 256), "normal")}, "\n".join(body) + "\n", source


KINDS["reductions"] = reductions_kind()

KINDS["indexing"] = ({"table": ((65536, 64), "normal"), "ids": ((64, 512), "index65536"),
                      "x": ((32, 256, 256), "normal"), "u": ((32, 256, 256), "normal"),
                      "idx": ((32, 256, 256), "index256"), "m": ((32, 256, 256), "mask"),
                      "lab": ((4096,), "index1000"), "z": ((4096, 1000), "normal")}, """
  const %pos : i32[1] = [64]
  %e = gather %table, %ids {axis = 0}
  %ge = gather_elements %x, %idx {axis = 1}
  %sc = scatter_elements %x, %idx, %u {axis = 1}
  %sa = scatter_elements %x, %idx, %u {axis = 1, reduction = add}
  %cs = cumsum %x {axis = 1}
  %oh = onehot %lab {num_classes = 1000}
  %zo = mul %z, %oh
  %w = where %m, %x, %u
  %ds = dynamic_slice %u, %pos {axes = [2], sizes = [128]}
  %du = dynamic_update %x, %pos, %ds {axes = [2], sizes = [128]}
  %t1 = sumsquare %e
  %t2 = sumsquare %ge
  %t3 = sumsquare %sc
  %t4 = sumsquare %sa
  %t5 = sumsquare %cs
  %t6 = sumsquare %zo
  %t7 = sumsquare %w
  %t8 = sumsquare %du
  %a1 = add %t1, %t2
  %a2 = add %a1, %t3
  %a3 = add %a2, %t4
  %a4 = add %a3, %t5
  %a5 = add %a4, %t6
  %a6 = add %a5, %t7
  %l = add %a6, %t8
""", """
e = F.embedding(ids.long(), table); i = idx.long()
ge = torch.gather(x, 1, i); sc = x.scatter(1, i, u); sa = x.scatter_add(1, i, u); cs = torch.cumsum(x, 1)
zo = z * F.one_hot(lab.long(), 1000).float(); w = torch.where(m, x, u)
ds = u.narrow(2, 64, 128); du = x.clone(); du[:, :, 64:192] = ds
l = sum((t * t).sum() for t in (e, ge, sc, sa, cs, zo, w, du))
""")

KINDS["einsum_attn"] = ({"q": ((8, 8, 256, 64), "normal"), "k": ((8, 8, 256, 64), "normal"),
                         "v": ((8, 8, 256, 64), "normal"), "a": ((4096, 256), "normal"),
                         "wb": ((256, 256), "normal"), "c": ((4096, 256), "normal")}, """
  %s0 = einsum %q, %k {equation = "bhqd,bhkd->bhqk"}
  %s = mul %s0, 0.125
  %p = softmax %s {axis = -1}
  %o = einsum %p, %v {equation = "bhqk,bhkd->bhqd"}
  %aw = einsum %a, %wb {equation = "bi,ij->bj"}
  %bl = einsum %aw, %c {equation = "bj,bj->b"}
  %t1 = sumsquare %o
  %t2 = sumsquare %bl
  %l = add %t1, %t2
""", """
p = torch.softmax(torch.einsum("bhqd,bhkd->bhqk", q, k) * 0.125, -1)
o = torch.einsum("bhqk,bhkd->bhqd", p, v)
bl = torch.einsum("bi,ij,bj->b", a, wb, c)
l = (o * o).sum() + (bl * bl).sum()
""")

KINDS["elementwise_misc"] = ({"x": ((16, 64, 64, 64), "normal"), "y": ((16, 64, 64, 64), "normal")}, """
  %ab = abs %x
  %a1 = add %ab, 0.5
  %l2 = log2 %a1
  %sq = sqrt %a1
  %rc = reciprocal %a1
  %sg = sign %x
  %sgy = mul %sg, %y
  %fl = floor %x
  %fly = mul %fl, %y
  %rd = round %x
  %rdy = mul %rd, %y
  %fm = fmod %x, %a1
  %pw = pow %a1, %y
  %mx = maximum %x, %y
  %mn = minimum %x, %y
  %sn = sin %x
  %cs = cos %y
  %ef = erf %x
  %nan = isnan %x
  %nz = where %nan, 0.0, %x
  %h = cast %nz {dtype = f16}
  %hf = cast %h {dtype = f32}
  %t1 = sumsquare %l2
  %t2 = sumsquare %sq
  %t3 = sumsquare %rc
  %t4 = sumsquare %sgy
  %t5 = sumsquare %fly
  %t6 = sumsquare %rdy
  %t7 = sumsquare %fm
  %t8 = sumsquare %pw
  %t9 = sumsquare %mx
  %t10 = sumsquare %mn
  %t11 = sumsquare %sn
  %t12 = sumsquare %cs
  %t13 = sumsquare %ef
  %t14 = sumsquare %hf
  %u1 = add %t1, %t2
  %u2 = add %u1, %t3
  %u3 = add %u2, %t4
  %u4 = add %u3, %t5
  %u5 = add %u4, %t6
  %u6 = add %u5, %t7
  %u7 = add %u6, %t8
  %u8 = add %u7, %t9
  %u9 = add %u8, %t10
  %u10 = add %u9, %t11
  %u11 = add %u10, %t12
  %u12 = add %u11, %t13
  %l = add %u12, %t14
""", """
a1 = x.abs() + 0.5
r = [torch.log2(a1), torch.sqrt(a1), torch.reciprocal(a1), torch.sign(x) * y, torch.floor(x) * y,
     torch.round(x) * y, torch.fmod(x, a1), torch.pow(a1, y), torch.maximum(x, y), torch.minimum(x, y),
     torch.sin(x), torch.cos(y), torch.erf(x), torch.where(torch.isnan(x), 0.0, x).half().float()]
l = sum((t * t).sum() for t in r)
""")


def write_inputs(kind, folder):
    import numpy as np
    rng = np.random.RandomState(0)
    for name, (shape, how) in KINDS[kind][0].items():
        if how == "normal":
            a = rng.standard_normal(shape).astype(np.float32)
        elif how == "ones":
            a = np.ones(shape, np.float32)
        elif how == "zeros":
            a = np.zeros(shape, np.float32)
        elif how == "mask":
            a = rng.random_sample(shape) > 0.5
        else:  # indexN: indices into an axis of N
            a = rng.randint(0, int(how[len("index"):]), shape).astype(np.int32)
        np.save(os.path.join(folder, name + ".npy"), a)


def pir_type(shape, how):
    dtype = "bool" if how == "mask" else "i32" if how.startswith("index") else "f32"
    return "%s[%s]" % (dtype, ",".join(str(d) for d in shape))


def pir_program(kind, repeats):
    inputs, body, _ = KINDS[kind]
    floats = [n for n, (_, how) in inputs.items() if how in ("normal", "ones", "zeros")]
    params = ", ".join("%%%s: %s" % (n, pir_type(*inputs[n])) for n in inputs)
    refs = ", ".join("%%%s: &%s" % (n, pir_type(*inputs[n])) for n in inputs)
    args = ", ".join("%" + n for n in inputs)
    grads = ", ".join("%" + n for n in floats)
    lines = ["d2h $loss : f32[]", "graph @f(%s) -> (f32[]) {" % params, body.strip("\n"), "  return %l", "}",
             "autodiff @f -> @f_grad {grads_required = [%s]}" % grads,
             "graph @step(%s) -> () {" % refs,
             "  %%l = call @f(%s) as fwd" % args,
             "  %s = call @f_grad(1.0) using fwd" % ", ".join("%d_" + n for n in floats)]
    lines += ["  scaled_add_ %%%s, %%d_%s {b = -0.0001}" % (n, n) for n in floats]
    lines += ["  host_store $loss, %l", "  return", "}"]
    lines += ['var %%%s : %s = load("%s.npy")' % (n, pir_type(*inputs[n]), n) for n in inputs]
    lines += ["repeat @step(%s) {count = %d}" % (args, repeats), "run 1", "print $loss", ""]
    return "\n".join(lines)


def pir_seconds(pir, kind, folder, repeats):
    path = os.path.join(folder, "%s_%d.pir" % (kind, repeats))
    with open(path, "w") as f:
        f.write(pir_program(kind, repeats))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    start = time.perf_counter()
    subprocess.run([pir, "run", path, "--threads=1"], check=True, cwd=folder, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


TORCH_CHILD = r"""
import os, sys, time, numpy as np, torch
import torch.nn.functional as F
torch.set_num_threads(1)
folder, steps = sys.argv[1], int(sys.argv[2])
names = sys.argv[3].split(",")
floats = set(sys.argv[4].split(","))
t = {}
for n in names:
    a = torch.tensor(np.load(os.path.join(folder, n + ".npy")))
    t[n] = a.requires_grad_() if n in floats else a
body = sys.stdin.read()
def step():
    env = dict(t, F=F, torch=torch)
    exec(body, env)
    env["l"].backward()
    with torch.no_grad():
        for n in floats:
            t[n] -= 0.0001 * t[n].grad
            t[n].grad = None
for _ in range(2):
    step()
start = time.perf_counter()
for _ in range(steps):
    step()
print((time.perf_counter() - start) / steps)
"""


def torch_seconds_per_step(kind, folder, steps):
    inputs, _, source = KINDS[kind]
    floats = [n for n, (_, how) in inputs.items() if how in ("normal", "ones", "zeros")]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    out = subprocess.run([sys.executable, "-c", TORCH_CHILD, folder, str(steps), ",".join(inputs), ",".join(floats)],
                         input=source, capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pir", default=os.path.join(HERE, "..", "..", "build", "repl", "pir"))
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", default="1,4", help="R1,R2: the step repeats of pir's two processes")
    a = ap.parse_args()
    r1, r2 = (int(v) for v in a.repeats.split(","))
    pir = os.path.abspath(a.pir)
    kinds = a.kinds.split(",")
    for k in kinds:
        if k not in KINDS:
            sys.exit("unknown kind %s (known: %s)" % (k, ", ".join(KINDS)))
    with tempfile.TemporaryDirectory(prefix="pir_op_kinds_") as tmp:
        for kind in kinds:
            folder = os.path.join(tmp, kind)
            os.makedirs(folder)
            write_inputs(kind, folder)
            ratios, pir_ms, torch_ms = [], [], []
            for rnd in range(a.rounds):
                def run_pir():
                    return (pir_seconds(pir, kind, folder, r2) - pir_seconds(pir, kind, folder, r1)) / (r2 - r1)
                def run_torch():
                    return torch_seconds_per_step(kind, folder, r2 - r1)
                if rnd % 2 == 0:
                    p, t = run_pir(), run_torch()
                else:
                    t, p = run_torch(), run_pir()
                pir_ms.append(1e3 * p)
                torch_ms.append(1e3 * t)
                ratios.append(t / p)
            print("%-8s pir %8.1f ms/step  torch %8.1f ms/step  torch/pir %.2f (rounds %s)" %
                  (kind, statistics.median(pir_ms), statistics.median(torch_ms), statistics.median(ratios),
                   " ".join("%.2f" % r for r in ratios)), flush=True)


if __name__ == "__main__":
    main()
