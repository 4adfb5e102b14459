#!/usr/bin/env python3
"""Runs the ONNX backend test data through `pir import` and `pir run`.

For every test directory (model.onnx and test_data_set_N/{input,output}_K.pb):
imports the model, feeds each data set's inputs as .npy files, saves every output
and compares with the expected outputs at ONNX's tolerances (rtol 1e-3, atol 1e-7).

Inputs that the importer needs as constants (a Reshape's shape, a Slice's starts,
...) are graph inputs in many node tests; when the import says such an input must
be known, the harness moves it into the initializers with the data set's value
and imports again, as a real model would hold it.

Prints the coverage: imported, the op types supported (those of the imported
tests) and unsupported (named by the skips), skipped by reason, passed, failed. Exits 1 when
the share of passing tests among those whose op types pir supports is below
--min-pass (and lists the failures).

Usage: backend_tests.py PIR DATA_DIR WORK_DIR [--suite node] [--min-pass 0.95] [-k SUBSTRING]
"""
import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys

try:
    import numpy as np
    import onnx
    from onnx import numpy_helper
except ImportError as e:  # not Debian's Python with python3-onnx
    print("onnx backend tests: %s; skipped" % e)
    sys.exit(77)

UNSUPPORTED_OP = re.compile(r"unsupported op (\S+)")
UNSUPPORTED_OPSET = re.compile(r"(opset \d+ of domain ai.onnx) is not supported")
UNSUPPORTED_DTYPE = re.compile(r"(string tensors|bfloat16) (is|are) not supported")
MUST_BE_KNOWN = re.compile(r"\(input \d+ '([^']*)'\) must be known at import time")
STREAM_LINE = re.compile(r"^# \$(\S+): ONNX (input|output) '(.*)'")


def load_data_set(directory, prefix):
    tensors = []
    for path in sorted(glob.glob(os.path.join(directory, prefix + "_*.pb")),
                       key=lambda p: int(re.search(r"_(\d+)\.pb$", p).group(1))):
        t = onnx.TensorProto()
        with open(path, "rb") as f:
            t.ParseFromString(f.read())
        tensors.append(numpy_helper.to_array(t))
    return tensors


def pir_import(pir, model_path, out_path, shapes):
    cmd = [pir, "import", model_path, "-o", out_path]
    for name, shape in shapes.items():
        cmd += ["--input-shape", name + "=" + ",".join(str(d) for d in shape)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr


def streams_of(pir_path):
    inputs, outputs = {}, {}
    with open(pir_path) as f:
        for line in f:
            m = STREAM_LINE.match(line)
            if m:
                (inputs if m.group(2) == "input" else outputs)[m.group(3)] = m.group(1)
            elif not line.startswith("#"):
                break
    return inputs, outputs


def compare(expected, actual, rtol, atol):
    if expected.dtype == object:
        return "object outputs are not compared"
    if tuple(expected.shape) != tuple(actual.shape):
        return "shape %s, expected %s" % (actual.shape, expected.shape)
    if expected.dtype == np.bool_ or actual.dtype == np.bool_:
        return None if np.array_equal(expected.astype(bool), actual.astype(bool)) else "values differ"
    if np.issubdtype(expected.dtype, np.integer):
        return None if np.array_equal(expected.astype(np.int64), actual.astype(np.int64)) else "values differ"
    e = expected.astype(np.float64)
    a = actual.astype(np.float64)
    if expected.dtype == np.float16:
        rtol, atol = max(rtol, 1e-3), max(atol, 1e-3)
    ok = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=True)
    if ok.all():
        return None
    k = int(np.argmin(ok.reshape(-1)))
    return "values differ (%d of %d), e.g. at %d: %r vs expected %r" % (
        int((~ok).sum()), ok.size, k, a.reshape(-1)[k], e.reshape(-1)[k])


def op_types(test_dir):
    """The op types of a test's model (its main graph's nodes)."""
    try:
        return {n.op_type for n in onnx.load(os.path.join(test_dir, "model.onnx")).graph.node}
    except Exception:
        return set()


def run_test(pir, test_dir, work, rtol, atol):
    """Returns (status, reason): status in imported-passed/failed, skipped."""
    model_path = os.path.join(test_dir, "model.onnx")
    data_sets = sorted(glob.glob(os.path.join(test_dir, "test_data_set_*")))
    if not data_sets:
        return "skipped", "no data set"
    model = onnx.load(model_path)
    initializers = {t.name for t in model.graph.initializer}
    graph_inputs = [vi.name for vi in model.graph.input if vi.name not in initializers]
    try:
        first_inputs = load_data_set(data_sets[0], "input")
        load_data_set(data_sets[0], "output")
    except Exception:  # sequences, maps and optionals are stored as other protos
        return "skipped", "data are not plain tensors (sequences or optionals)"
    if len(first_inputs) != len(graph_inputs):
        return "skipped", "data set does not match the inputs (optional inputs)"
    values = dict(zip(graph_inputs, first_inputs))
    os.makedirs(work, exist_ok=True)
    out_pir = os.path.join(work, "model.pir")
    current = model_path
    made_constant = []
    for _ in range(len(graph_inputs) + 1):
        shapes = {n: values[n].shape for n in graph_inputs if n not in made_constant}
        status, stderr = pir_import(pir, current, out_pir, shapes)
        if status == 0:
            break
        m = UNSUPPORTED_OP.search(stderr)
        if m:
            return "skipped", "unsupported op " + m.group(1)
        m = UNSUPPORTED_DTYPE.search(stderr)
        if m:
            return "skipped", "unsupported dtype: " + m.group(1)
        m = UNSUPPORTED_OPSET.search(stderr)
        if m:
            return "skipped", "unsupported " + m.group(1)
        m = MUST_BE_KNOWN.search(stderr)
        if m and m.group(1) in values and m.group(1) not in made_constant:
            name = m.group(1)
            made_constant.append(name)
            model.graph.initializer.append(numpy_helper.from_array(values[name], name))
            current = os.path.join(work, "model_static.onnx")
            onnx.save(model, current)
            continue
        return "failed", "import: " + stderr.strip().splitlines()[0] if stderr.strip() else "import failed"
    else:
        return "failed", "import: inputs still not static"
    in_streams, out_streams = streams_of(out_pir)
    for data_set in data_sets:
        inputs = load_data_set(data_set, "input")
        expected = load_data_set(data_set, "output")
        cmd = [pir, "run", out_pir]
        for name, value in zip(graph_inputs, inputs):
            if name in made_constant:
                if data_set != data_sets[0] and not np.array_equal(value, values[name]):
                    return "skipped", "data sets differ in a static input"
                continue
            path = os.path.join(work, "in_%s.npy" % in_streams[name])
            np.save(path, value)
            cmd += ["--feed", "%s=%s" % (in_streams[name], path)]
        outputs = [o.name for o in model.graph.output]
        for name in outputs:
            cmd += ["--save", "%s=%s" % (out_streams[name], os.path.join(work, "out_%s.npy" % out_streams[name]))]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            return "failed", "run: " + (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0]
        for name, exp in zip(outputs, expected):
            actual = np.load(os.path.join(work, "out_%s.npy" % out_streams[name]))
            problem = compare(exp, actual, rtol, atol)
            if problem:
                return "failed", "output %s: %s" % (name, problem)
    return "passed", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pir")
    ap.add_argument("data")
    ap.add_argument("work")
    ap.add_argument("--suite", action="append", help="node, pytorch-converted, pytorch-operator, simple")
    ap.add_argument("--min-pass", type=float, default=0.95)
    ap.add_argument("-k", dest="filter", default="")
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-7)
    args = ap.parse_args()
    if not os.path.isdir(args.data):
        print("onnx backend tests: %s not found (Debian package libonnx-testdata); skipped" % args.data)
        return 77
    suites = args.suite or ["node"]
    status_ok = True
    for suite in suites:
        tests = sorted(d for d in glob.glob(os.path.join(args.data, suite, "*")) if os.path.isdir(d))
        tests = [t for t in tests if args.filter in os.path.basename(t)]
        counts = collections.Counter()
        skipped = collections.Counter()
        failures = []
        supported_ops, unsupported_ops = set(), set()
        for t in tests:
            name = os.path.basename(t)
            work = os.path.join(args.work, suite, name)
            try:
                status, reason = run_test(args.pir, t, work, args.rtol, args.atol)
            except subprocess.TimeoutExpired:
                status, reason = "failed", "timeout"
            shutil.rmtree(work, ignore_errors=True)
            counts[status] += 1
            if status != "skipped":
                supported_ops.update(op_types(t))
            elif reason.startswith("unsupported op "):
                unsupported_ops.add(reason[len("unsupported op "):])
            if status == "skipped":
                skipped[reason] += 1
            elif status == "failed":
                failures.append((name, reason))
        supported = counts["passed"] + counts["failed"]
        rate = counts["passed"] / supported if supported else 1.0
        print("== %s: %d tests; imported (op types supported): %d; skipped: %d; passed: %d; failed: %d; pass rate %.1f%%"
              % (suite, len(tests), supported, counts["skipped"], counts["passed"], counts["failed"], 100 * rate))
        print("op types: %d supported (in the imported tests), %d unsupported (named by the skipped ones)"
              % (len(supported_ops), len(unsupported_ops - supported_ops)))
        print("  supported: %s" % " ".join(sorted(supported_ops)))
        print("skipped by reason:")
        for reason, n in sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0])):
            print("  %4d  %s" % (n, reason))
        if failures:
            print("failed:")
            for name, reason in failures:
                print("  %s: %s" % (name, reason))
        if rate < args.min_pass:
            status_ok = False
            print("FAIL: pass rate %.1f%% below %.1f%%" % (100 * rate, 100 * args.min_pass))
    return 0 if status_ok else 1


if __name__ == "__main__":
    sys.exit(main())
