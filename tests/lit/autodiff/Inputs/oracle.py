#!/usr/bin/python3
"""Writes the gradient goldens tests/lit/autodiff/grad_*.pir from an independent oracle.

usage: /usr/bin/python3 oracle.py [--check]   (needs python3-torch and python3-numpy)

Each case is a forward graph @f, its inputs, and the same function in PyTorch
(float64). The generated test runs the forward graph, differentiates it with the
`autodiff` directive, calls @f_grad with random upstream gradients bound through
`using`, prints the gradients and compares them (Inputs/check_grads.py) with the
oracle's numbers, which stand in the test as `# EXPECT:` lines. Inputs are
written with two decimals; the oracle computes from their float32 values, so
both sides start from the same numbers.

Where the spec fixes a gradient PyTorch defines differently (ties of
maximum/minimum and of max/min reductions go to the first operand / element;
collectives follow ops.md; dropout's mask), the case carries a NumPy formula.

--check regenerates into memory and fails if a golden differs from its case.
"""
import os
import re
import sys
import zlib

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
T = torch.float64


def rnd(seed, *shape, lo=-2.0, hi=2.0):
    r = np.random.RandomState(seed)
    return np.round(r.uniform(lo, hi, size=shape), 2).astype(np.float32)


def pos(seed, *shape):
    return rnd(seed, *shape, lo=0.2, hi=2.0)


def ints(values):
    return np.asarray(values, dtype=np.int32)


def fmt_num(x, dtype):
    if dtype.kind in "iu":
        return str(int(x))
    if dtype.kind == "b":
        return "true" if x else "false"
    if dtype == np.float32:
        return str(np.float32(x))  # NumPy's shortest round-trip form of the float32, as pir reads it back
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    s = "%.8g" % x
    return s


def fmt_data(a):
    a = np.asarray(a)
    if a.ndim == 0:
        return fmt_num(a.item(), a.dtype)
    return "[" + ", ".join(fmt_data(x) for x in a) + "]"


def pir_dtype(a):
    return {"float32": "f32", "float64": "f64", "float16": "f16", "int32": "i32", "bool": "bool", "uint32": "u32"}[
        str(np.asarray(a).dtype)]


def pir_type(a, dtype=None):
    a = np.asarray(a)
    return "%s[%s]" % (dtype or pir_dtype(a), ",".join(str(d) for d in a.shape))


class Case:
    """A gradient golden.

    fwd: the text of `graph @f(...)`; inputs: [(name, array)] in @f's parameter
    order; outs: @f's output names in order; fn(*torch tensors) -> tuple of
    outputs; provided / required: the directive's lists (None: defaults);
    grad: optional NumPy oracle (inputs dict, upstream dict) -> {input: grad};
    pre: expected output lines printed before the gradients (print_tensor).
    """

    def __init__(self, name, doc, fwd, inputs, outs, fn=None, provided=None, required=None, grad=None, pre=None,
                 out_dtype="f32", exact_ups=False, header=None):
        self.name, self.doc, self.fwd, self.inputs, self.outs = name, doc, fwd.strip(), inputs, outs
        self.fn, self.provided, self.required, self.grad, self.pre = fn, provided, required, grad, pre or []
        self.out_dtype, self.exact_ups, self.header = out_dtype, exact_ups, header


CASES = []


def case(*a, **k):
    CASES.append(Case(*a, **k))


def float_input(a):
    return np.asarray(a).dtype.kind == "f"


def output_shapes(fwd):
    """The output shapes of the last graph of `fwd` (@f), from its `-> (...)` list."""
    sig = re.findall(r"-> \(([^)]*)\)", fwd)[-1]
    return [tuple(int(d) for d in m.split(",") if d) for m in re.findall(r"\w+\[([0-9,]*)\]", sig)]


def evaluate(c):
    """(forward output arrays by name, required names, gradient arrays by name, upstream arrays by name)."""
    tens = {}
    for n, a in c.inputs:
        t = torch.tensor(np.asarray(a).astype(np.float64) if float_input(a) else np.asarray(a).astype(np.int64))
        if float_input(a):
            t.requires_grad_(True)
        tens[n] = t
    provided = c.provided or c.outs
    shapes = dict(zip(c.outs, output_shapes(c.fwd)))
    ups = {}
    for i, n in enumerate(provided):
        ups[n] = rnd(1000 + i, *shapes[n])
        if c.exact_ups:
            ups[n] = np.round(ups[n] * 8) / np.float32(8)
    outs = None
    if c.grad:
        np_in = {n: np.asarray(a).astype(np.float64) if float_input(a) else np.asarray(a) for n, a in c.inputs}
        grads = c.grad(np_in, {n: u.astype(np.float64) for n, u in ups.items()})
        required = c.required or [n for n, _ in c.inputs if n in grads]
        return outs, required, grads, ups
    outs = c.fn(*[tens[n] for n, _ in c.inputs])
    if not isinstance(outs, tuple):
        outs = (outs,)
    outs = dict(zip(c.outs, outs))
    for n in provided:
        assert tuple(outs[n].shape) == tuple(shapes[n]), (c.name, n, outs[n].shape, shapes[n])
    cand = c.required or [n for n, a in c.inputs if float_input(a)]
    res = torch.autograd.grad([outs[n] for n in provided], [tens[n] for n in cand],
                              grad_outputs=[torch.tensor(ups[n].astype(np.float64)) for n in provided],
                              allow_unused=True)
    grads = {n: g.detach().numpy() for n, g in zip(cand, res) if g is not None}
    required = c.required or [n for n in cand if n in grads]
    return outs, required, grads, ups


def render(c):
    outs, required, grads, ups = evaluate(c)
    provided = c.provided or c.outs
    attrs = []
    if c.provided:
        attrs.append("grads_provided = [%s]" % ", ".join("%" + n for n in c.provided))
    if c.required:
        attrs.append("grads_required = [%s]" % ", ".join("%" + n for n in c.required))
    lines = ["# Generated by Inputs/oracle.py (case %s) from PyTorch float64: edit the case, not this file." % c.name]
    lines += ["# " + l for l in c.doc.strip().split("\n")]
    lines.append("# RUN: %pir run %s > %t && %python %S/Inputs/check_grads.py %s %t")
    if c.header:
        lines.append(c.header)
    lines.append(c.fwd)
    lines.append("autodiff @f -> @f_grad" + (" {%s}" % ", ".join(attrs) if attrs else ""))
    lines.append("main {")
    for n, a in c.inputs:
        lines.append("  const %%%s : %s = %s" % (n, pir_type(a), fmt_data(a)))
    for n in provided:
        lines.append("  const %%up.%s : %s = %s" % (n, pir_type(ups[n], c.out_dtype), fmt_data(ups[n])))
    lines.append("  %s = call @f(%s) as fwd0" % (", ".join("%%out.%s" % n for n in c.outs),
                                                 ", ".join("%" + n for n, _ in c.inputs)))
    lines.append("  %s = call @f_grad(%s) using fwd0" % (", ".join("%%d.%s" % n for n in required),
                                                        ", ".join("%up." + n for n in provided)))
    lines.append("}")
    lines.append("run")
    lines.append("print " + ", ".join("%d." + n for n in required))
    for p in c.pre:
        lines.append("# EXPECT: " + p)
    shapes = dict(c.inputs)
    for n in required:
        g = np.asarray(grads[n], dtype=np.float64).reshape(np.asarray(shapes[n]).shape)
        lines.append("# EXPECT: %%d.%s: %s = %s" % (n, pir_type(shapes[n]), fmt_data(g)))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Cases. Shapes are small: pir summarises prints of more than 1000 elements.

def unary(name, op, fn, x=None, doc=None):
    x = rnd(zlib.crc32(name.encode()) % 1000, 2, 3) if x is None else x
    case("unary_" + name, doc or "%s: elementwise gradient." % op,
         "graph @f(%%x: %s) -> (%s) {\n  %%y = %s %%x\n  return %%y\n}" % (pir_type(x), pir_type(x), op),
         [("x", x)], ["y"], fn)


unary("abs", "abs", torch.abs)
unary("neg", "neg", torch.neg)
unary("sign", "sign", torch.sign, doc="sign: zero gradient (ops.md: 0); the input is still reachable.")
unary("exp", "exp", torch.exp)
unary("log", "log", torch.log, x=pos(3, 2, 3))
unary("log2", "log2", torch.log2, x=pos(4, 2, 3))
unary("sqrt", "sqrt", torch.sqrt, x=pos(5, 2, 3))
unary("rsqrt", "rsqrt", torch.rsqrt, x=pos(6, 2, 3))
unary("reciprocal", "reciprocal", torch.reciprocal, x=pos(7, 2, 3))
unary("square", "square", torch.square)
unary("sin", "sin", torch.sin)
unary("cos", "cos", torch.cos)
unary("tanh", "tanh", torch.tanh)
unary("sigmoid", "sigmoid", torch.sigmoid)
unary("relu", "relu", torch.relu)
unary("gelu", "gelu", lambda x: F.gelu(x, approximate="tanh"), doc="gelu: the tanh approximation.")
unary("gelu_erf", "gelu_erf", F.gelu, doc="gelu_erf: the exact (erf) form.")
unary("erf", "erf", torch.erf, doc="erf: the error function.")
unary("swish", "swish", lambda x: x * torch.sigmoid(x))
unary("softplus", "softplus", F.softplus)
unary("ceil", "ceil", torch.ceil, doc="ceil: zero gradient.")
unary("floor", "floor", torch.floor, doc="floor: zero gradient.")
unary("round", "round", torch.round, doc="round: zero gradient.")
unary("identity", "identity", lambda x: x * 1)
case("unary_clip", "clip: the gradient passes where min <= x <= max (PyTorch clamp).",
     """graph @f(%x: f32[2,4]) -> (f32[2,4]) {
  %y = clip %x {min = -0.5, max = 1.25}
  return %y
}""", [("x", rnd(11, 2, 4))], ["y"], lambda x: torch.clamp(x, -0.5, 1.25))

# binary, with broadcasting both ways and through a literal operand
for op, fn, lo in (("add", torch.add, None), ("sub", torch.sub, None), ("mul", torch.mul, None),
                   ("div", torch.div, 0.5), ("pow", torch.pow, 0.3)):
    a = rnd(20, 2, 3) if lo is None else rnd(20, 2, 3, lo=lo, hi=2.0)
    b = rnd(21, 3) if op != "div" else rnd(21, 3, lo=0.5, hi=2.0)
    case("binary_%s_broadcast_right" % op, "%s: the right operand broadcasts; its gradient is summed back to f32[3]." % op,
         "graph @f(%%x: f32[2,3], %%y: f32[3]) -> (f32[2,3]) {\n  %%z = %s %%x, %%y\n  return %%z\n}" % op,
         [("x", a), ("y", b)], ["z"], fn)
    a2 = rnd(22, 2, 1) if lo is None else rnd(22, 2, 1, lo=lo, hi=2.0)
    b2 = rnd(23, 3) if op != "div" else rnd(23, 3, lo=0.5, hi=2.0)
    case("binary_%s_broadcast_both" % op, "%s: f32[2,1] with f32[3]: both operands broadcast." % op,
         "graph @f(%%x: f32[2,1], %%y: f32[3]) -> (f32[2,3]) {\n  %%z = %s %%x, %%y\n  return %%z\n}" % op,
         [("x", a2), ("y", b2)], ["z"], fn)
case("binary_mul_literal", "A literal operand is a constant: only %x gets a gradient.",
     "graph @f(%x: f32[2,3]) -> (f32[2,3]) {\n  %z = mul %x, 2.5\n  return %z\n}", [("x", rnd(24, 2, 3))], ["z"],
     lambda x: x * 2.5)
case("binary_pow_literals", "pow with a literal exponent and with a literal base.",
     """graph @f(%x: f32[2,3]) -> (f32[2,3], f32[2,3]) {
  %a = pow %x, 3
  %b = pow 2, %x
  return %a, %b
}""", [("x", rnd(28, 2, 3, lo=0.3, hi=2.0))], ["a", "b"], lambda x: (x ** 3, 2 ** x))
case("binary_same_operand", "x * x: both uses of %x add up.",
     "graph @f(%x: f32[2,3]) -> (f32[2,3]) {\n  %z = mul %x, %x\n  return %z\n}", [("x", rnd(25, 2, 3))], ["z"],
     lambda x: x * x)
case("binary_fmod", "fmod: gradient for x only (1), none for y (ops.md).",
     "graph @f(%x: f32[2,3], %y: f32[3]) -> (f32[2,3]) {\n  %z = fmod %x, %y\n  return %z\n}",
     [("x", rnd(26, 2, 3) * 3), ("y", rnd(27, 3, lo=0.7, hi=1.5))], ["z"], torch.fmod, required=["x"],
     grad=lambda i, u: {"x": u["z"]})


def first_extreme_grad(xs, up, pick):
    """maximum/minimum: the gradient goes to the first operand holding the extreme."""
    shape = np.broadcast_shapes(*[x.shape for x in xs])
    bx = [np.broadcast_to(x, shape) for x in xs]
    best = bx[0].copy()
    owner = np.zeros(shape, dtype=int)
    for k in range(1, len(bx)):
        better = pick(bx[k], best)
        best = np.where(better, bx[k], best)
        owner = np.where(better, k, owner)
    out = []
    for k, x in enumerate(xs):
        g = np.where(owner == k, up, 0.0)
        while g.ndim > x.ndim:
            g = g.sum(0)
        for d in range(x.ndim):
            if x.shape[d] == 1 and g.shape[d] != 1:
                g = g.sum(d, keepdims=True)
        out.append(g)
    return out


for op, pick in (("maximum", lambda a, b: a > b), ("minimum", lambda a, b: a < b)):
    xa = np.array([[1, 2, 3], [0.5, -1, 2]], np.float32)
    xb = np.array([1, 0.5, 3], np.float32)
    xc = np.array([[2, 2, -1], [0.5, 0.5, 2]], np.float32)
    case("binary_%s_variadic_ties" % op,
         "%s with three operands, broadcasting and ties: the gradient goes to the first operand holding\n"
         "the result (ops.md), unlike PyTorch, which splits ties: NumPy oracle." % op,
         "graph @f(%%a: f32[2,3], %%b: f32[3], %%c: f32[2,3]) -> (f32[2,3]) {\n  %%z = %s %%a, %%b, %%c\n  return %%z\n}" % op,
         [("a", xa), ("b", xb), ("c", xc)], ["z"], None,
         grad=lambda i, u, pick=pick: dict(zip("abc", first_extreme_grad([i["a"], i["b"], i["c"]], u["z"], pick))))

case("where", "where: gradients for x and y (broadcast back), none for the condition.",
     """graph @f(%c: bool[2,3], %x: f32[2,3], %y: f32[3]) -> (f32[2,3]) {
  %z = where %c, %x, %y
  return %z
}""", [("c", np.array([[True, False, True], [False, False, True]])), ("x", rnd(30, 2, 3)), ("y", rnd(31, 3))],
     ["z"], None, grad=lambda i, u: {"x": np.where(i["c"], u["z"], 0), "y": np.where(i["c"], 0, u["z"]).sum(0)})

# reductions
for op, fn in (("sum", lambda x: x.sum(1)), ("mean", lambda x: x.mean(1)), ("prod", lambda x: x.prod(1)),
               ("sumsquare", lambda x: (x * x).sum(1)), ("logsumexp", lambda x: torch.logsumexp(x, 1)),
               ("l1", lambda x: x.abs().sum(1)), ("l2", lambda x: x.norm(dim=1))):
    case("reduce_%s_axis" % op, "%s over axis 1." % op,
         "graph @f(%%x: f32[2,3,2]) -> (f32[2,2]) {\n  %%y = %s %%x {axis = 1}\n  return %%y\n}" % op,
         [("x", rnd(40, 2, 3, 2))], ["y"], fn)
case("reduce_sum_all_keepdims", "sum over all axes with keepdims, and mean over a list of axes.",
     """graph @f(%x: f32[2,3,2]) -> (f32[1,1,1], f32[3]) {
  %s = sum %x {keepdims = true}
  %m = mean %x {axis = [0, -1]}
  return %s, %m
}""", [("x", rnd(41, 2, 3, 2))], ["s", "m"], lambda x: (x.sum().reshape(1, 1, 1), x.mean((0, 2))))


def first_extreme_reduce(x, up, axis, pick_max, keepdims=False):
    xm = np.moveaxis(x, axis, -1)
    idx = (np.argmax if pick_max else np.argmin)(xm, axis=-1)  # NumPy: first occurrence
    g = np.zeros_like(xm)
    u = up if not keepdims else np.squeeze(up, axis)
    np.put_along_axis(g, idx[..., None], u[..., None], axis=-1)
    return np.moveaxis(g, -1, axis)


for op, is_max in (("max", True), ("min", False)):
    x = np.array([[[1, 3], [3, 0.5], [-1, 0.5]], [[2, 2], [2, -2], [0, 7]]], np.float32)
    case("reduce_%s_ties" % op, "%s over axis 1 with ties: only the first extreme element gets the gradient." % op,
         "graph @f(%%x: f32[2,3,2]) -> (f32[2,2]) {\n  %%y = %s %%x {axis = 1}\n  return %%y\n}" % op,
         [("x", x)], ["y"], None, grad=lambda i, u, m=is_max: {"x": first_extreme_reduce(i["x"], u["y"], 1, m)})
    case("reduce_%s_all" % op, "%s over all axes with a tie: the first (row-major) element." % op,
         "graph @f(%%x: f32[2,3]) -> (f32[]) {\n  %%y = %s %%x\n  return %%y\n}" % op,
         [("x", np.array([[1, 5, -2], [5, -2, 0]], np.float32))], ["y"], None,
         grad=lambda i, u, m=is_max: {"x": first_extreme_reduce(i["x"].reshape(-1), u["y"].reshape(1), 0, m)
                                      .reshape(2, 3)})

case("cumsum", "cumsum along axis 1.", "graph @f(%x: f32[2,4]) -> (f32[2,4]) {\n  %y = cumsum %x {axis = 1}\n  return %y\n}",
     [("x", rnd(50, 2, 4))], ["y"], lambda x: torch.cumsum(x, 1))


def cumsum_torch(x, axis, exclusive, reverse):
    if reverse:
        x = torch.flip(x, [axis])
    y = torch.cumsum(x, axis)
    if exclusive:
        y = y - x
    return torch.flip(y, [axis]) if reverse else y


for cname, axis, excl, rev, seed in (("exclusive", 1, True, False, 160), ("reverse", 0, False, True, 161),
                                     ("reverse_exclusive", -1, True, True, 162)):
    attrs = "axis = %d" % axis + (", exclusive = true" if excl else "") + (", reverse = true" if rev else "")
    case("cumsum_" + cname, "cumsum {%s}: the gradient is the cumsum of g the other way, exclusive alike." % attrs,
         "graph @f(%%x: f32[3,4]) -> (f32[3,4]) {\n  %%y = cumsum %%x {%s}\n  return %%y\n}" % attrs,
         [("x", rnd(seed, 3, 4))], ["y"], lambda x, axis=axis, excl=excl, rev=rev: cumsum_torch(x, axis, excl, rev))
case("topk", "topk values: the gradient is scattered to the chosen positions; indices carry none.",
     """graph @f(%x: f32[2,5]) -> (f32[2,3]) {
  %v, %i = topk %x {k = 3}
  return %v
}""", [("x", rnd(51, 2, 5))], ["v"], lambda x: torch.topk(x, 3).values)
case("topk_smallest", "topk with largest = false on axis 0.",
     """graph @f(%x: f32[4,2]) -> (f32[2,2]) {
  %v, %i = topk %x {k = 2, axis = 0, largest = false}
  return %v
}""", [("x", rnd(52, 4, 2))], ["v"], lambda x: torch.topk(x, 2, dim=0, largest=False).values)
case("softmax", "softmax on axis 0.", "graph @f(%x: f32[3,2]) -> (f32[3,2]) {\n  %y = softmax %x {axis = 0}\n  return %y\n}",
     [("x", rnd(53, 3, 2))], ["y"], lambda x: torch.softmax(x, 0))
case("log_softmax", "log_softmax on the last axis.",
     "graph @f(%x: f32[2,4]) -> (f32[2,4]) {\n  %y = log_softmax %x\n  return %y\n}",
     [("x", rnd(54, 2, 4))], ["y"], lambda x: torch.log_softmax(x, -1))

labels = ints([2, 0, 1, 2])
probs = np.round(np.random.RandomState(55).dirichlet([1, 1, 1], 4), 2).astype(np.float32) + np.float32(0.05)
for red in ("mean", "sum", "none"):
    case("nll_loss_%s" % red, "nll_loss on probabilities, reduction = %s: gradient for probs only." % red,
         """graph @f(%%p: f32[4,3], %%t: i32[4]) -> (%s) {
  %%l = nll_loss %%p, %%t {reduction = %s}
  return %%l
}""" % ("f32[4]" if red == "none" else "f32[]", red), [("p", probs), ("t", labels)], ["l"],
         lambda p, t, red=red: F.nll_loss(torch.log(p), t, reduction=red))
case("nll_loss_ignore_index", "nll_loss with ignore_index: ignored rows get no gradient; the mean divides by the rest.",
     """graph @f(%p: f32[4,3], %t: i32[4]) -> (f32[]) {
  %l = nll_loss %p, %t {ignore_index = 0}
  return %l
}""", [("p", probs), ("t", labels)], ["l"], lambda p, t: F.nll_loss(torch.log(p), t, ignore_index=0))
case("nll_loss_log_prob", "nll_loss with log_prob = true: the operand holds log-probabilities.",
     """graph @f(%p: f32[4,3], %t: i32[4]) -> (f32[]) {
  %l = nll_loss %p, %t {log_prob = true}
  return %l
}""", [("p", rnd(56, 4, 3)), ("t", labels)], ["l"], lambda p, t: F.nll_loss(p, t))
class_weights = np.array([0.5, 2, 1.25], dtype=np.float32)
for red in ("mean", "sum", "none"):
    case("nll_loss_weight_%s" % red,
         "nll_loss with class weights, reduction = %s: each row's gradient scaled by its label's weight%s." % (
             red, "; the mean divides by the sum of the rows' weights" if red == "mean" else ""),
         """graph @f(%%p: f32[4,3], %%t: i32[4], %%w: f32[3]) -> (%s) {
  %%l = nll_loss %%p, %%t, %%w {reduction = %s}
  return %%l
}""" % ("f32[4]" if red == "none" else "f32[]", red), [("p", probs), ("t", labels), ("w", class_weights)], ["l"],
         lambda p, t, w, red=red: F.nll_loss(torch.log(p), t, weight=w.detach(), reduction=red), required=["p"])
case("nll_loss_weight_ignore_index",
     "nll_loss with class weights over [N, d, C] log-probabilities and an ignore_index outside the classes:\n"
     "ignored rows get no gradient, the mean divides by the other rows' weights (ONNX's and PyTorch's).",
     """graph @f(%p: f32[2,3,3], %t: i32[2,3], %w: f32[3]) -> (f32[]) {
  %l = nll_loss %p, %t, %w {ignore_index = -1, log_prob = true}
  return %l
}""", [("p", rnd(163, 2, 3, 3)), ("t", ints([[2, -1, 0], [1, 1, -1]])), ("w", class_weights)], ["l"],
     lambda p, t, w: F.nll_loss(p.permute(0, 2, 1), t, weight=w.detach(), ignore_index=-1), required=["p"])
case("layer_norm", "layer_norm over the last axis: gradients for x, gamma and beta.",
     """graph @f(%x: f32[3,4], %g: f32[4], %b: f32[4]) -> (f32[3,4]) {
  %y = layer_norm %x, %g, %b
  return %y
}""", [("x", rnd(57, 3, 4)), ("g", rnd(58, 4)), ("b", rnd(59, 4))], ["y"],
     lambda x, g, b: F.layer_norm(x, (4,), g, b, eps=1e-5))
case("layer_norm_axes", "layer_norm over the last two axes (axis = 1, ONNX LayerNormalization): gamma and beta [3, 4].",
     """graph @f(%x: f32[2,3,4], %g: f32[3,4], %b: f32[3,4]) -> (f32[2,3,4]) {
  %y = layer_norm %x, %g, %b {axis = 1}
  return %y
}""", [("x", rnd(240, 2, 3, 4)), ("g", rnd(241, 3, 4)), ("b", rnd(242, 3, 4))], ["y"],
     lambda x, g, b: F.layer_norm(x, (3, 4), g, b, eps=1e-5))
case("group_norm", "group_norm with 2 groups of 2 channels.",
     """graph @f(%x: f32[2,4,3], %g: f32[4], %b: f32[4]) -> (f32[2,4,3]) {
  %y = group_norm %x, %g, %b {groups = 2}
  return %y
}""", [("x", rnd(60, 2, 4, 3)), ("g", rnd(61, 4)), ("b", rnd(62, 4))], ["y"],
     lambda x, g, b: F.group_norm(x, 2, g, b, eps=1e-5))
case("batch_norm_inference", "batch_norm_inference: gradient for x only (ops.md).",
     """graph @f(%x: f32[2,3,2], %s: f32[3], %b: f32[3], %m: f32[3], %v: f32[3]) -> (f32[2,3,2]) {
  %y = batch_norm_inference %x, %s, %b, %m, %v
  return %y
}""", [("x", rnd(63, 2, 3, 2)), ("s", rnd(64, 3)), ("b", rnd(65, 3)), ("m", rnd(66, 3)), ("v", pos(67, 3))],
     ["y"], lambda x, s, b, m, v: F.batch_norm(x, m.detach(), v.detach(), s, b, training=False, eps=1e-5), required=["x"])

# linear algebra
for name, sa, sb in (("2d", (2, 3), (3, 4)), ("vec_mat", (3,), (3, 2)), ("mat_vec", (2, 3), (3,)), ("vec_vec", (3,), (3,)),
                     ("batch_broadcast", (2, 1, 2, 3), (3, 3, 2)), ("batch_rhs", (2, 3), (2, 3, 2))):
    a, b = rnd(70, *sa), rnd(71, *sb)
    out = tuple(torch.matmul(torch.zeros(sa), torch.zeros(sb)).shape)
    case("matmul_" + name, "matmul %s x %s (NumPy rules: 1-D promotion, batch broadcasting)." % (pir_type(a), pir_type(b)),
         "graph @f(%%x: %s, %%y: %s) -> (f32[%s]) {\n  %%z = matmul %%x, %%y\n  return %%z\n}" % (
             pir_type(a), pir_type(b), ",".join(map(str, out))), [("x", a), ("y", b)], ["z"], torch.matmul)


def conv_torch(x, w, stride, padding, dilation, groups):
    nd = x.dim() - 2
    # pir's padding is [begin..., end...]; F.pad takes (last_begin, last_end, ..., first_begin, first_end)
    pads = []
    for i in reversed(range(nd)):
        pads += [padding[i], padding[nd + i]]
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[nd]
    return conv(F.pad(x, pads), w, stride=stride, dilation=dilation, groups=groups)


def conv_case(name, xs, ws, stride, padding, dilation, groups, seed):
    x, w = rnd(seed, *xs), rnd(seed + 1, *ws)
    out = tuple(conv_torch(torch.zeros(xs), torch.zeros(ws), stride, padding, dilation, groups).shape)
    attrs = "stride = [%s], padding = [%s], dilation = [%s], groups = %d" % (
        ", ".join(map(str, stride)), ", ".join(map(str, padding)), ", ".join(map(str, dilation)), groups)
    case("conv_" + name, "conv %s, %s {%s}." % (pir_type(x), pir_type(w), attrs),
         "graph @f(%%x: %s, %%w: %s) -> (f32[%s]) {\n  %%y = conv %%x, %%w {%s}\n  return %%y\n}" % (
             pir_type(x), pir_type(w), ",".join(map(str, out)), attrs), [("x", x), ("w", w)], ["y"],
         lambda x, w: conv_torch(x, w, stride, padding, dilation, groups))


conv_case("2d_plain", (1, 2, 4, 4), (3, 2, 2, 2), [1, 1], [0, 0, 0, 0], [1, 1], 1, 80)
conv_case("2d_stride_pad", (2, 2, 5, 4), (2, 2, 3, 2), [2, 1], [1, 0, 0, 1], [1, 1], 1, 82)
conv_case("2d_dilation_groups", (1, 4, 5, 5), (4, 2, 2, 2), [1, 2], [1, 1, 1, 1], [2, 1], 2, 84)
conv_case("2d_uncovered", (1, 1, 6, 6), (2, 1, 2, 2), [3, 3], [0, 0, 0, 0], [1, 1], 1, 86)
conv_case("1d", (2, 2, 7), (3, 2, 3), [2], [1, 2], [1], 1, 88)
conv_case("3d", (1, 2, 3, 4, 3), (2, 2, 2, 2, 2), [1, 2, 1], [0, 1, 0, 1, 0, 0], [1, 1, 1], 1, 90)
# Output rows of 16 and 14: f32 convs of these shapes take the direct kernels.
conv_case("2d_rows_stride2", (1, 2, 3, 32), (3, 2, 3, 3), [1, 2], [1, 1, 1, 1], [1, 1], 1, 92)
conv_case("2d_rows_dilation_groups", (2, 4, 2, 14), (4, 2, 2, 3), [1, 1], [0, 2, 1, 2], [1, 2], 2, 94)

case("conv_transpose_bias", "conv_transpose with its bias: the bias's gradient is g summed over all but the channels.",
     """graph @f(%x: f32[1,2,2,3], %w: f32[2,3,2,2], %b: f32[3]) -> (f32[1,3,3,5]) {
  %y = conv_transpose %x, %w, %b {stride = [2, 2], padding = [1, 0, 0, 1]}
  return %y
}""", [("x", rnd(164, 1, 2, 2, 3)), ("w", rnd(165, 2, 3, 2, 2)), ("b", rnd(166, 3))], ["y"],
     lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2)[:, :, 1:, :-1])


def pool_torch(kind, x, kernel, stride, padding):
    nd = x.dim() - 2
    pads = []
    for i in reversed(range(nd)):
        pads += [padding[i], padding[nd + i]]
    if kind == "max_pool":
        xp = F.pad(x, pads, value=float("-inf"))
        return {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[nd](xp, kernel, stride)
    # average over the real cells only (ONNX count_include_pad = 0)
    avg = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[nd]
    s = avg(F.pad(x, pads), kernel, stride)
    n = avg(F.pad(torch.ones_like(x), pads), kernel, stride)
    return s / n


for kind in ("average_pool", "max_pool"):
    for name, xs, kernel, stride, padding, seed in (("2d", (1, 2, 4, 4), [2, 2], [2, 2], [0, 0, 0, 0], 100),
                                                    ("2d_overlap_pad", (2, 1, 5, 4), [3, 2], [2, 1], [1, 0, 1, 1], 101),
                                                    ("1d", (1, 2, 6), [3], [2], [1, 0], 102)):
        x = rnd(seed, *xs)
        out = tuple(pool_torch(kind, torch.zeros(xs), kernel, stride, padding).shape)
        attrs = "kernel = [%s], stride = [%s], padding = [%s]" % (
            ", ".join(map(str, kernel)), ", ".join(map(str, stride)), ", ".join(map(str, padding)))
        case("%s_%s" % (kind, name), "%s %s {%s}." % (kind, pir_type(x), attrs),
             "graph @f(%%x: %s) -> (f32[%s]) {\n  %%y = %s %%x {%s}\n  return %%y\n}" % (
                 pir_type(x), ",".join(map(str, out)), kind, attrs), [("x", x)], ["y"],
             lambda x, kind=kind, kernel=kernel, stride=stride, padding=padding: pool_torch(kind, x, kernel, stride, padding))


def pool_torch_native(kind, x, kernel, stride, pad, dilation, ceil_mode, count_include_pad):
    """PyTorch's own pools (symmetric padding `pad` per axis)."""
    nd = x.dim() - 2
    if kind == "max_pool":
        return {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[nd](
            x, kernel, stride, pad, dilation=dilation, ceil_mode=ceil_mode)
    assert all(d == 1 for d in dilation)
    return {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[nd](
        x, kernel, stride, pad, ceil_mode=ceil_mode, count_include_pad=count_include_pad)


def average_pool_dilated_2d(x, kernel, stride, padding, dilation):
    """average_pool with dilation (which PyTorch's avg_pool lacks) over the real
    cells: the windows' sums of x and of ones, by F.unfold."""
    pt, pl, pb, pr = padding
    xp = F.pad(x, [pl, pr, pt, pb])
    mp = F.pad(torch.ones_like(x), [pl, pr, pt, pb])
    n, c, h, w = xp.shape
    cols = lambda t: F.unfold(t.reshape(n * c, 1, h, w), kernel, dilation=dilation, stride=stride)
    s, m = cols(xp).sum(1), cols(mp).sum(1)
    oh = (h - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    ow = (w - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    return (s / m).reshape(n, c, oh, ow)


def pool_case(kind, name, xs, kernel, stride, pad, dilation, ceil_mode, count_include_pad, seed, fn=None):
    """A pool with ceil_mode / dilation / count_include_pad: pir's attributes
    (padding written [begin..., end...]) against PyTorch's pool."""
    x = rnd(seed, *xs)
    fn = fn or (lambda x: pool_torch_native(kind, x, kernel, stride, pad, dilation, ceil_mode, count_include_pad))
    out = tuple(fn(torch.zeros(xs, dtype=T)).shape)
    attrs = "kernel = [%s], stride = [%s], padding = [%s]" % (
        ", ".join(map(str, kernel)), ", ".join(map(str, stride)), ", ".join(map(str, list(pad) + list(pad))))
    if any(d != 1 for d in dilation):
        attrs += ", dilation = [%s]" % ", ".join(map(str, dilation))
    if ceil_mode:
        attrs += ", ceil_mode = true"
    if count_include_pad:
        attrs += ", count_include_pad = true"
    case("%s_%s" % (kind, name), "%s %s {%s}." % (kind, pir_type(x), attrs),
         "graph @f(%%x: %s) -> (f32[%s]) {\n  %%y = %s %%x {%s}\n  return %%y\n}" % (
             pir_type(x), ",".join(map(str, out)), kind, attrs), [("x", x)], ["y"], fn)


# ceil_mode (the last windows reach past the end padding), dilation, count_include_pad.
pool_case("max_pool", "2d_ceil_dilation", (1, 2, 7, 6), [2, 3], [2, 2], [1, 1], [2, 1], True, False, 120)
pool_case("max_pool", "1d_ceil", (2, 1, 8), [3], [2], [1], [1], True, False, 121)
pool_case("average_pool", "2d_ceil", (1, 2, 5, 6), [3, 2], [2, 2], [1, 0], [1, 1], True, False, 122)
pool_case("average_pool", "2d_ceil_count_include_pad", (1, 2, 5, 6), [3, 2], [2, 2], [1, 1], [1, 1], True, True, 123)
pool_case("average_pool", "2d_count_include_pad", (2, 1, 5, 4), [3, 3], [2, 1], [1, 1], [1, 1], False, True, 124)
pool_case("average_pool", "2d_dilation", (1, 2, 6, 7), [2, 3], [1, 2], [1, 1], [2, 2], False, False, 125,
          fn=lambda x: average_pool_dilated_2d(x, [2, 3], [1, 2], [1, 1, 1, 1], [2, 2]))
case("max_pool_with_indices", "max_pool_with_indices: the gradient flows through the values (max_pool's); the indices have none.",
     """graph @f(%x: f32[2,2,5,5]) -> (f32[2,2,3,3], i32[2,2,3,3]) {
  %y, %i = max_pool_with_indices %x {kernel = [3, 3], stride = [2, 2], padding = [1, 1, 1, 1], ceil_mode = true}
  return %y, %i
}""", [("x", rnd(126, 2, 2, 5, 5))], ["y", "i"],
     lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True, return_indices=True), provided=["y"])

# shapes
def shape_case(name, xs, body, outty, fn, doc=None, seed=110):
    case("shape_" + name, doc or name + ".", "graph @f(%%x: %s) -> (%s) {\n%s\n}" % (pir_type(rnd(0, *xs)), outty, body),
         [("x", rnd(seed, *xs))], ["y"], fn)


shape_case("reshape", (2, 3), "  %y = reshape %x {shape = [3, -1]}\n  return %y", "f32[3,2]", lambda x: x.reshape(3, 2))
shape_case("flatten", (2, 3, 2), "  %y = flatten %x\n  return %y", "f32[12]", lambda x: x.reshape(-1))
shape_case("flatten_axis", (2, 3, 2), "  %y = flatten %x {axis = 2}\n  return %y", "f32[6,2]", lambda x: x.reshape(6, 2),
           doc="flatten with an axis (ONNX Flatten): [2, 3, 2] to [6, 2].")
shape_case("transpose", (2, 3, 4), "  %y = transpose %x {perm = [1, 2, 0]}\n  return %y", "f32[3,4,2]",
           lambda x: x.permute(1, 2, 0))
shape_case("transpose_default", (2, 3, 4), "  %y = transpose %x\n  return %y", "f32[4,3,2]", lambda x: x.permute(2, 1, 0))
shape_case("squeeze", (2, 1, 3, 1), "  %y = squeeze %x {axes = [1]}\n  return %y", "f32[2,3,1]", lambda x: x.squeeze(1))
shape_case("squeeze_all", (1, 3, 1), "  %y = squeeze %x\n  return %y", "f32[3]", lambda x: x.reshape(3))
shape_case("unsqueeze", (2, 3), "  %y = unsqueeze %x {axes = [0, 3]}\n  return %y", "f32[1,2,3,1]",
           lambda x: x.reshape(1, 2, 3, 1))
shape_case("broadcast", (3, 1), "  %y = broadcast %x {shape = [2, 3, 4]}\n  return %y", "f32[2,3,4]",
           lambda x: x.expand(2, 3, 4))
shape_case("slice", (4, 5), "  %y = slice %x {start = [1, -1], stop = [4, 0], step = [2, -2]}\n  return %y", "f32[2,2]",
           None, doc="slice with a negative step and a negative start: NumPy oracle (PyTorch has no negative steps).")
CASES[-1].grad = lambda i, u: {"x": _scatter_slice(i["x"].shape, (slice(1, 4, 2), slice(-1, 0, -2)), u["y"])}
shape_case("slice_axes", (3, 4), "  %y = slice %x {start = [5], stop = [-5], step = [-1], axes = [1]}\n  return %y",
           "f32[3,4]", None, doc="slice on one axis, clamped start and stop, reversed.")
CASES[-1].grad = lambda i, u: {"x": _scatter_slice(i["x"].shape, (slice(None), slice(5, -5, -1)), u["y"])}
shape_case("slice_unit_steps", (3, 4, 5),
           "  %y = slice %x {start = [1, -3, 0], stop = [3, 4, 5], step = [1, 1, 2]}\n  return %y", "f32[2,3,3]",
           lambda x: x[1:3, 1:4, 0:5:2],
           doc="slice with unit steps on two axes (placed back by one zero pad) and a step of 2 on the third.")
shape_case("subsample", (5, 4), "  %y = subsample %x {strides = [2, 3]}\n  return %y", "f32[3,2]", lambda x: x[::2, ::3])


def _scatter_slice(shape, index, up):
    g = np.zeros(shape)
    g[index] = up
    return g


case("shape_concat", "concat on axis 1 of three operands.",
     """graph @f(%a: f32[2,1], %b: f32[2,3], %c: f32[2,2]) -> (f32[2,6]) {
  %y = concat %a, %b, %c {axis = 1}
  return %y
}""", [("a", rnd(120, 2, 1)), ("b", rnd(121, 2, 3)), ("c", rnd(122, 2, 2))], ["y"], lambda a, b, c: torch.cat([a, b, c], 1))
case("shape_split", "split into three: gradients of two results provided, the third gets none.",
     """graph @f(%x: f32[2,6]) -> (f32[2,1], f32[2,3], f32[2,2]) {
  %a, %b, %c = split %x {splits = [1, 3, 2], axis = 1}
  return %a, %b, %c
}""", [("x", rnd(123, 2, 6))], ["a", "b", "c"], lambda x: tuple(torch.split(x, [1, 3, 2], 1)), provided=["a", "c"])
case("dynamic_slice", "dynamic_slice; the index is clamped so that the slice fits (PyTorch-free oracle).",
     """graph @f(%x: f32[4,5], %i: i32[2]) -> (f32[2,3]) {
  %y = dynamic_slice %x, %i {axes = [0, 1], sizes = [2, 3]}
  return %y
}""", [("x", rnd(124, 4, 5)), ("i", ints([1, 4]))], ["y"], None,
     grad=lambda i, u: {"x": _scatter_slice((4, 5), (slice(1, 3), slice(2, 5)), u["y"])})
case("dynamic_update", "dynamic_update: x gets the gradient outside the slice, u the slice.",
     """graph @f(%x: f32[4,5], %i: i32[1], %u: f32[4,2]) -> (f32[4,5]) {
  %y = dynamic_update %x, %i, %u {axes = [1], sizes = [2]}
  return %y
}""", [("x", rnd(125, 4, 5)), ("i", ints([2])), ("u", rnd(126, 4, 2))], ["y"], None,
     grad=lambda i, u: {"x": np.concatenate([u["y"][:, :2], np.zeros((4, 2)), u["y"][:, 4:]], 1), "u": u["y"][:, 2:4]})
case("gather", "gather on axis 1 with repeated and negative indices: gradients add up; x only.",
     """graph @f(%x: f32[2,4], %i: i32[2,3]) -> (f32[2,2,3]) {
  %y = gather %x, %i {axis = 1}
  return %y
}""", [("x", rnd(127, 2, 4)), ("i", ints([[0, 3, 0], [-1, 2, 2]]))], ["y"],
     lambda x, i: x[:, torch.where(i < 0, i + 4, i)])
case("scatter", "scatter (ScatterElements) on axis 0: x loses the overwritten positions, values get them.",
     """graph @f(%x: f32[3,2], %i: i32[2,2], %v: f32[2,2]) -> (f32[3,2]) {
  %y = scatter %x, %i, %v
  return %y
}""", [("x", rnd(128, 3, 2)), ("i", ints([[2, 0], [0, 1]])), ("v", rnd(129, 2, 2))], ["y"],
     lambda x, i, v: x.scatter(0, i, v))

# casts, detach, print_tensor, random
case("cast_f64", "cast between float dtypes: the gradient is cast back.",
     """graph @f(%x: f32[3]) -> (f32[3]) {
  %a = cast %x {dtype = f64}
  %b = mul %a, %a
  %y = cast %b {dtype = f32}
  return %y
}""", [("x", np.array([0.5, -1.25, 2], np.float32))], ["y"], lambda x: x * x)
case("cast_f16", "cast through f16: inputs and upstream gradients exact in f16 (multiples of 1/8).",
     """graph @f(%x: f32[3]) -> (f32[3]) {
  %a = cast %x {dtype = f16}
  %b = mul %a, 3
  %y = cast %b {dtype = f32}
  return %y
}""", [("x", np.array([0.5, -1.25, 2], np.float32))], ["y"], lambda x: x * 3, exact_ups=True)
case("detach", "detach blocks: %x reaches the output only through mul's other operand.",
     """graph @f(%x: f32[3], %y: f32[3]) -> (f32[3]) {
  %d = detach %x
  %a = mul %d, %y
  %z = add %a, %x
  return %z
}""", [("x", rnd(130, 3)), ("y", rnd(131, 3))], ["z"], lambda x, y: x.detach() * y + x)
_pt_x = rnd(132, 3)
case("print_tensor", "print_tensor passes the gradient through and prints it as TITLE_gradient.",
     """graph @f(%x: f32[3]) -> (f32[3]) {
  %p = print_tensor %x {title = "t"}
  %y = mul %p, 3
  return %y
}""", [("x", _pt_x)], ["y"], lambda x: x * 3,
     pre=["t: " + fmt_data(_pt_x), "t_gradient: " + fmt_data(rnd(1000, 3).astype(np.float64) * 3)])

case("ipu_copy", "ipu_copy and io_tile_copy pass the gradient through.",
     """graph @f(%x: f32[3]) -> (f32[3]) {
  %a = ipu_copy %x {ipu = 1}
  %b = io_tile_copy %a
  %y = mul %b, %b
  return %y
}""", [("x", rnd(133, 3))], ["y"], lambda x: x * x, header="ir {ipus = 2, io_tiles = 32}")

# control flow
case("call_subgraph", "A called subgraph is differentiated first; call has a gradient.",
     """graph @inner(%a: f32[2,3], %w: f32[3]) -> (f32[2,3], f32[3]) {
  %m = mul %a, %w
  %t = tanh %m
  %s = sum %t {axis = 0}
  return %t, %s
}
graph @f(%x: f32[2,3], %w: f32[3]) -> (f32[3]) {
  %t, %s = call @inner(%x, %w)
  %e = exp %s
  %y = add %e, %w
  return %y
}""", [("x", rnd(140, 2, 3)), ("w", rnd(141, 3))], ["y"],
     lambda x, w: torch.exp(torch.tanh(x * w).sum(0)) + w)
case("call_nested_twice", "Two calls of the same subgraph, one nested in another subgraph.",
     """graph @sq(%a: f32[3]) -> (f32[3]) {
  %b = mul %a, %a
  return %b
}
graph @twice(%a: f32[3]) -> (f32[3]) {
  %b = call @sq(%a)
  %c = call @sq(%b)
  return %c
}
graph @f(%x: f32[3], %w: f32[3]) -> (f32[3]) {
  %a = mul %x, %w
  %y = call @twice(%a)
  return %y
}""", [("x", rnd(142, 3)), ("w", rnd(143, 3))], ["y"], lambda x, w: (x * w) ** 4)
for branch in ("true", "false"):
    case("conditional_" + branch, "conditional: the branch taken (%s) is differentiated." % branch,
         """graph @then(%%a: f32[3], %%b: f32[3]) -> (f32[3]) {
  %%c = mul %%a, %%b
  return %%c
}
graph @else(%%a: f32[3]) -> (f32[3]) {
  %%c = sin %%a
  return %%c
}
graph @f(%%x: f32[3], %%w: f32[3]) -> (f32[3]) {
  const %%k : bool[] = %s
  %%y = conditional %%k, @then(%%x, %%w), @else(%%w)
  return %%y
}""" % branch, [("x", rnd(144, 3)), ("w", rnd(145, 3))], ["y"],
         (lambda x, w: x * w) if branch == "true" else (lambda x, w: torch.sin(w) + 0 * x),
         required=["x", "w"])


case("conditional_intermediates", "conditional whose branches have intermediate activations and a call inside.",
     """graph @sq(%a: f32[3]) -> (f32[3]) {
  %b = mul %a, %a
  return %b
}
graph @then(%a: f32[3], %b: f32[3]) -> (f32[3], f32[]) {
  %t = tanh %a
  %u = call @sq(%t)
  %c = mul %u, %b
  %s = sum %c
  return %c, %s
}
graph @else(%a: f32[3], %b: f32[3]) -> (f32[3], f32[]) {
  %e = exp %b
  %s = sum %e
  return %e, %s
}
graph @f(%x: f32[3], %w: f32[3], %k: bool[]) -> (f32[3], f32[]) {
  %y, %s = conditional %k, @then(%x, %w), @else(%w, %x)
  return %y, %s
}""", [("x", rnd(146, 3)), ("w", rnd(147, 3)), ("k", np.array(True))], ["y", "s"],
     lambda x, w, k: (torch.tanh(x) ** 2 * w, (torch.tanh(x) ** 2 * w).sum()))


def write_all(check):
    stale = []
    for c in CASES:
        path = os.path.join(OUT, "grad_%s.pir" % c.name)
        text = render(c)
        if check:
            if not os.path.exists(path) or open(path).read() != text:
                stale.append(path)
        else:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        sys.exit("stale goldens (rerun oracle.py):\n  " + "\n  ".join(stale))
    print("%d cases %s" % (len(CASES), "checked" if check else "written"))


if __name__ == "__main__":
    write_all("--check" in sys.argv)
