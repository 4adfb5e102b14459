"""popxl (PopXL's API) on pir: values checked against NumPy."""
import os
import subprocess
import tempfile

import numpy as np
import pytest

import pir
import popxl
import popxl.ops as ops
import popxl.transforms as transforms


def assert_pir_run_matches(ir, inputs, outputs):
    """When the pir executable is known: the IR's `.pir` text (`to_pir()`) run once by
    `pir run` from a fresh state gives every d2h stream the data of `outputs` (what a
    fresh session's first run returned)."""
    exe = os.environ.get("PIR_EXE")
    if not exe:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "prog.pir")
        ir.to_pir(path)
        args = [exe, "run", path]
        for stream, data in (inputs or {}).items():
            np.save(os.path.join(tmp, f"in_{stream.name}.npy"), data)
            args += ["--feed", f"{stream.name}={os.path.join(tmp, f'in_{stream.name}.npy')}"]
        for stream in outputs:
            args += ["--save", f"{stream.name}={os.path.join(tmp, f'out_{stream.name}.npy')}"]
        subprocess.run(args, check=True, capture_output=True)
        for stream, data in outputs.items():
            np.testing.assert_array_equal(np.load(os.path.join(tmp, f"out_{stream.name}.npy")), data,
                                          err_msg=f"pir run of to_pir() differs on {stream.name}")


def run_once(ir, inputs=None):
    """Runs the IR once in a session and checks that `pir run` of its text agrees."""
    with popxl.Session(ir, "ipu_model") as s:
        outputs = s.run(inputs or {})
    assert_pir_run_matches(ir, inputs, outputs)
    return outputs


def test_addition_of_two_streams():
    ir = popxl.Ir()
    with ir.main_graph:
        a_in = popxl.h2d_stream([2], popxl.float32, name="a_stream")
        b_in = popxl.h2d_stream([2], popxl.float32, name="b_stream")
        o = ops.add(ops.host_load(a_in, "a"), ops.host_load(b_in, "b"))
        out = popxl.d2h_stream(o.shape, o.dtype, name="out")
        ops.host_store(out, o)
    a, b = np.array([1.5, 2], np.float32), np.array([0.25, -4], np.float32)
    outputs = run_once(ir, {a_in: a, b_in: b})
    np.testing.assert_array_equal(outputs[out], a + b)
    assert outputs[out].dtype == np.float32
    # run_with_outputs fills the caller's arrays
    target = {out: np.empty([2], np.float32)}
    with popxl.Session(ir, "cpu") as s:
        s.run_with_outputs({a_in: a, b_in: b}, target)
    np.testing.assert_array_equal(target[out], a + b)


def test_python_numbers_take_popxls_dtypes():
    ir = popxl.Ir()
    with ir.main_graph:
        a = popxl.variable(3, name="a")
        b = popxl.constant(1.5, name="b")
        c = popxl.variable(np.arange(4.0), name="c")
        assert a.dtype == popxl.int32 and b.dtype == popxl.float32 and c.dtype == popxl.float32
        assert a.shape == () and c.shape == (4,)
        o = a + 2
        out = popxl.d2h_stream(o.shape, o.dtype)
        ops.host_store(out, o)
    assert run_once(ir)[out] == 5


def test_operators_match_numpy():
    x = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)
    y = np.array([[0.5, 4.0], [-1.0, 2.0]], np.float32)
    ir = popxl.Ir()
    with ir.main_graph:
        X, Y = popxl.variable(x, name="x"), popxl.variable(y, name="y")
        exprs = {"add": X + Y, "sub": X - Y, "mul": X * Y, "div": X / Y, "matmul": X @ Y, "neg": -X,
                 "radd": 1 + X, "rsub": 1 - X, "rmul": 2 * X, "pow": Y ** 2, "T": X.T,
                 "reshape": X.reshape((4,)), "row": X[1], "col": X[:, 0], "gt": X > Y, "le": X <= Y}
        streams = {}
        for k, t in exprs.items():
            streams[k] = popxl.d2h_stream(t.shape, t.dtype, name=k)
            ops.host_store(streams[k], t)
    got = run_once(ir)
    want = {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y, "matmul": x @ y, "neg": -x, "radd": 1 + x,
            "rsub": 1 - x, "rmul": 2 * x, "pow": y ** 2, "T": x.T, "reshape": x.reshape(4), "row": x[1],
            "col": x[:, 0], "gt": x > y, "le": x <= y}
    for k, w in want.items():
        np.testing.assert_allclose(got[streams[k]], w, rtol=1e-6, err_msg=k)


def test_generated_ops_take_attributes_by_position_and_name():
    x = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], np.float32)
    ir = popxl.Ir()
    with ir.main_graph:
        X = popxl.variable(x)
        s1 = ops.softmax(X, 1)
        s0 = ops.softmax(X, axis=0)
        t = ops.transpose(X, permutation=[1, 0])
        r = ops.sum(X, axis=1, keepdims=True)
        c = ops.cast(X, popxl.int32)
        outs = [s1, s0, t, r, c]
        streams = [popxl.d2h_stream(o.shape, o.dtype) for o in outs]
        for s, o in zip(streams, outs):
            ops.host_store(s, o)
    got = run_once(ir)
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(got[streams[0]], e / e.sum(1, keepdims=True), rtol=1e-6)
    e0 = np.exp(x - x.max(0, keepdims=True))
    np.testing.assert_allclose(got[streams[1]], e0 / e0.sum(0, keepdims=True), rtol=1e-6)
    np.testing.assert_array_equal(got[streams[2]], x.T)
    np.testing.assert_array_equal(got[streams[3]], x.sum(1, keepdims=True))
    assert got[streams[4]].dtype == np.int32
    with pytest.raises(TypeError, match="unknown argument 'axes_typo'"):
        with ir.main_graph:
            ops.softmax(X, axes_typo=1)


def test_subgraph_with_late_inputs_called_twice():
    ir = popxl.Ir()

    class Linear(popxl.Module):
        def build(self, x, out_features):
            self.W = popxl.graph_input((x.shape[-1], out_features), popxl.float32, "W")
            y = x @ self.W
            self.b = popxl.graph_input((out_features,), popxl.float32, "b")
            return y + self.b

    x = np.array([[1, 2], [3, 4]], np.float32)
    W0, b0 = np.array([[1, 0, 1], [0, 1, 1]], np.float32), np.array([0.5, 0, -1], np.float32)
    with ir.main_graph:
        X = popxl.variable(x, name="x")
        w, b = popxl.variable(W0, name="W"), popxl.variable(b0, name="b")
        lin = Linear()
        g = ir.create_graph(lin, X, out_features=3)
        assert [t.shape for t in g.inputs] == [(2, 2), (2, 3), (3,)]
        (y,) = ops.call(g, X, inputs_dict={lin.W: w, lin.b: b})
        out = popxl.d2h_stream(y.shape, y.dtype)
        ops.host_store(out, y)
    np.testing.assert_allclose(run_once(ir)[out], x @ W0 + b0)
    assert "graph @Linear(%x: f32[2,2], %W: f32[2,3], %b: f32[3]) -> (f32[2,3])" in ir.to_pir()


def test_repeat_carries_outputs_into_inputs_and_fills_host_transfers():
    ir = popxl.Ir()
    n = 4
    with ir.main_graph:
        x_in = popxl.h2d_stream([2], popxl.float32, name="x_in")
        y_out = popxl.d2h_stream([2], popxl.float32, name="y_out")
        acc = popxl.variable(np.zeros(2, np.float32), name="acc")

        def body(total):
            x = ops.host_load(x_in, "x")
            total = total + x
            ops.host_store(y_out, total)
            return total

        g = ir.create_graph(body, acc)
        (final,) = ops.repeat(g, n, acc)
        fin = popxl.d2h_stream(final.shape, final.dtype, name="final")
        ops.host_store(fin, final)
    ir.num_host_transfers = n
    data = np.arange(8, dtype=np.float32).reshape(n, 2)
    got = run_once(ir, {x_in: data})
    assert got[y_out].shape == (n, 2)
    np.testing.assert_array_equal(got[y_out], np.cumsum(data, axis=0))
    # a stream stored once fills the first of its num_host_transfers slots
    assert got[fin].shape == (n, 2)
    np.testing.assert_array_equal(got[fin][0], data.sum(0))


def test_call_with_info_writes_the_parent_input():
    ir = popxl.Ir()

    def increment(x):
        value = popxl.graph_input(x.shape, x.dtype, "value")
        ops.var_updates.copy_var_update_(x, x + value)

    with ir.main_graph, popxl.in_sequence():
        x = popxl.variable(1, name="x")
        g = ir.create_graph(increment, x)
        info = ops.call_with_info(g, x, popxl.constant(5))
        info.set_parent_input_modified(x)
        out = popxl.d2h_stream(x.shape, x.dtype)
        ops.host_store(out, x)
        # A plain call of the same graph does not change its argument.
        y = popxl.variable(10, name="y")
        ops.call(g, y, 1)
        out_y = popxl.d2h_stream(y.shape, y.dtype)
        ops.host_store(out_y, y)
    with popxl.Session(ir, "ipu_model") as s:
        got = s.run()
        assert_pir_run_matches(ir, {}, got)
        assert got[out] == 6 and got[out_y] == 10
        assert s.get_tensor_data(x) == 6
        got = s.run()
        assert got[out] == 11


def test_autodiff_matches_numpy():
    ir = popxl.Ir()
    rng = np.random.default_rng(0)
    xd = rng.normal(size=(4, 3)).astype(np.float32)
    Wd = rng.normal(size=(3, 2)).astype(np.float32)
    bd = rng.normal(size=(2,)).astype(np.float32)

    def fwd(x, W, b):
        return ops.tanh(x @ W + b)

    with ir.main_graph:
        x, W, b = popxl.variable(xd, name="x"), popxl.variable(Wd, name="W"), popxl.variable(bd, name="b")
        g = ir.create_graph(fwd, x, W, b)
        info = ops.call_with_info(g, x, W, b)
        grad = transforms.autodiff(g)
        assert [e.connection_type.name for e in grad.expected_outputs] == ["FwdGrad"] * 3
        seed = popxl.constant(np.ones((4, 2), np.float32))
        acts = grad.inputs_dict(info)
        gcall = ops.call_with_info(grad.graph, seed, inputs_dict=acts)
        grads = grad.fwd_parent_ins_to_grad_parent_outs(info, gcall)
        streams = {k: popxl.d2h_stream(grads[t].shape, grads[t].dtype, name="d" + k)
                   for k, t in (("x", x), ("W", W), ("b", b))}
        for k, t in (("x", x), ("W", W), ("b", b)):
            ops.host_store(streams[k], grads[t])
    got = run_once(ir)
    y = np.tanh(xd @ Wd + bd)
    dz = 1 - y * y
    np.testing.assert_allclose(got[streams["W"]], xd.T @ dz, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[streams["b"]], dz.sum(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[streams["x"]], dz @ Wd.T, rtol=1e-5, atol=1e-6)


def test_remote_variable_and_replica_groupings():
    ir = popxl.Ir(replication=2)
    groups = ir.replica_grouping(group_size=1)
    data = np.arange(6, dtype=np.int32).reshape(2, 3)
    with ir.main_graph, popxl.in_sequence():
        buf = popxl.remote_buffer((3,), popxl.int32, 1)
        rv = popxl.remote_variable(data, buf, 0, replica_grouping=groups)
        v = ops.remote_load(buf, 0)
        v += 1
        ops.remote_store(buf, 0, v)
        per = popxl.variable(np.array([[1, 2], [3, 4]], np.float32), replica_grouping=groups,
                             retrieval_mode="all_replicas")
        total = ops.collectives.replicated_all_reduce(per, op="add")
        out = popxl.d2h_stream(total.shape, total.dtype)
        ops.host_store(out, total)
    with popxl.Session(ir, "ipu_model") as s:
        got = s.run()
        assert_pir_run_matches(ir, {}, got)
        np.testing.assert_array_equal(s.get_tensor_data(rv), data + 1)
        # the stream buffer has a replica dimension: each replica stored the same sum
        np.testing.assert_array_equal(got[out], [[4, 6], [4, 6]])
        np.testing.assert_array_equal(s.get_tensor_data(per), [[1, 2], [3, 4]])


def test_session_errors_where_popxl_raises_them():
    ir = popxl.Ir()
    with ir.main_graph:
        x_in = popxl.h2d_stream([2], popxl.float32, name="x_in")
        x = ops.host_load(x_in)
        out = popxl.d2h_stream([2], popxl.float32)
        ops.host_store(out, x)
    with pytest.raises(ValueError, match="not available"):
        popxl.Session(ir, "ipu_hw")
    s = popxl.Session(ir, "ipu_model")
    with pytest.raises(ValueError, match="not attached"):
        s.run({x_in: np.zeros(2, np.float32)})
    with s:
        with pytest.raises(ValueError, match="no input for the h2d stream x_in"):
            s.run({})
        with pytest.raises(ValueError, match="expected \\(2,\\)"):
            s.run({x_in: np.zeros(3, np.float32)})
    assert not s.is_attached


def test_a_bad_op_raises_pirs_located_error():
    ir = popxl.Ir()
    with ir.main_graph:
        a = popxl.variable(np.zeros((2, 3), np.float32))
        b = popxl.variable(np.zeros((4, 5), np.float32))
        with pytest.raises(pir.Error, match="matmul"):
            a @ b
        # the failed op left nothing behind: the graph still builds and runs
        c = a + 1
        out = popxl.d2h_stream(c.shape, c.dtype)
        ops.host_store(out, c)
    np.testing.assert_array_equal(run_once(ir)[out], np.ones((2, 3)))


def test_to_pir_runs_with_the_same_outputs(tmp_path):
    ir = popxl.Ir()
    with ir.main_graph:
        x_in = popxl.h2d_stream([3], popxl.float32, name="x_in")
        w = popxl.variable(np.array([0.5, -1, 2], np.float32), name="w")
        y = ops.relu(ops.host_load(x_in, "x") * w)
        out = popxl.d2h_stream(y.shape, y.dtype, name="y_out")
        ops.host_store(out, y)
    x = np.array([2, 3, 4], np.float32)
    want = run_once(ir, {x_in: x})[out]
    path = tmp_path / "prog.pir"
    ir.to_pir(str(path))
    # the text reads back to the same program
    assert pir.Module.parse(path.read_text()).text() == path.read_text()
    exe = os.environ.get("PIR_EXE")
    if not exe:
        pytest.skip("PIR_EXE (the pir executable) is not set")
    np.save(tmp_path / "x.npy", x)
    subprocess.run([exe, "run", str(path), "--feed", f"x_in={tmp_path / 'x.npy'}", "--save",
                    f"y_out={tmp_path / 'y.npy'}"], check=True, capture_output=True)
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy"), want)


def test_results_are_arrays_over_the_sessions_buffer():
    ir = popxl.Ir()
    ir.num_host_transfers = 2
    with ir.main_graph:
        x_in = popxl.h2d_stream([3], popxl.float32, name="x_in")
        y = ops.host_load(x_in, "x") * 2
        out = popxl.d2h_stream(y.shape, y.dtype, name="y_out")
        ops.host_store(out, y)
        ops.host_store(out, ops.host_load(x_in) + 1)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    with popxl.Session(ir, "ipu_model") as s:
        first = s.run({x_in: x})[out]
        # no copy: the array's memory is the session's stream buffer, owned by a pir object
        root = first
        while isinstance(root.base, np.ndarray):  # popxl's reshape to the host shape is a view
            root = root.base
        assert not root.flags.owndata and type(root.base).__name__ == "PyCapsule"
        assert not first.flags.writeable
        np.testing.assert_array_equal(first, [x[0] * 2, x[1] + 1])
        # a later run leaves an earlier result as it was (the session's buffer is copied on write)
        second = s.run({x_in: x + 10})[out]
        np.testing.assert_array_equal(first, [x[0] * 2, x[1] + 1])
        np.testing.assert_array_equal(second, [(x[0] + 10) * 2, x[1] + 11])
        assert not np.shares_memory(first, second)
    assert_pir_run_matches(ir, {x_in: x}, {out: first})


def test_feeds_take_any_layout_and_dtype_with_numpys_values():
    ir = popxl.Ir()
    with ir.main_graph:
        x_in = popxl.h2d_stream([2, 3], popxl.float32, name="x_in")
        i_in = popxl.h2d_stream([3], popxl.int32, name="i_in")
        y = ops.host_load(x_in, "x") + ops.cast(ops.host_load(i_in, "i"), popxl.float32)
        out = popxl.d2h_stream(y.shape, y.dtype, name="y_out")
        ops.host_store(out, y)
    base = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
    i = np.array([1, -2, 3])
    with popxl.Session(ir, "ipu_model") as s:
        for x in (base[:2, :3].copy(),          # contiguous, the stream's dtype: read in place
                  base[::2, 1:],                # strided: gathered in the one pass
                  base.T[:2, :3],               # transposed view
                  base[:2, :3].astype(np.float64),  # another dtype: converted in the one pass
                  base[:2, :3].astype(">f4")):      # big-endian: converted by NumPy first
            for ints in (i, i.astype(np.int32), i.astype(np.int8)[::-1][::-1]):
                got = s.run({x_in: x, i_in: ints})[out]
                np.testing.assert_array_equal(got, x.astype(np.float32) + ints.astype(np.float32))
    assert_pir_run_matches(ir, {x_in: x.astype(np.float32), i_in: i.astype(np.int32)}, {out: got})


def test_a_run_releases_the_gil():
    """While one thread runs the session, another runs Python: it finds the session
    and its module busy (which it can observe only while the run executes without
    the GIL)."""
    import threading
    m = pir.Module.parse("var %n : f32[] = 0\naccumulate_ %n, 1\n")
    s = pir.Session(m)
    runs = 200000
    worker = threading.Thread(target=s.run, args=(runs,))
    seen = set()
    worker.start()
    while worker.is_alive() and len(seen) < 2:
        for what, call in (("session", lambda: s.read("%n")), ("module", lambda: m.text())):
            try:
                call()
            except pir.Error as e:
                assert "in use by another thread" in str(e)
                seen.add(what)
    worker.join()
    assert seen == {"session", "module"}
    assert s.read("%n") == runs


def test_run_errors_carry_pirs_located_diagnostics():
    ir = popxl.Ir()
    with ir.main_graph:
        x_in = popxl.h2d_stream([2], popxl.int32, name="x_in")
        y = ops.host_load(x_in, "x") / popxl.constant(np.array([1, 0], np.int32))
        out = popxl.d2h_stream(y.shape, y.dtype, name="y_out")
        ops.host_store(out, y)
    with popxl.Session(ir, "ipu_model") as s:
        with pytest.raises(pir.Error) as e:
            s.run({x_in: np.array([4, 4], np.int32)})
    # located in the statement popxl built (the text of the main graph), with its source line
    assert "<popxl @main>:1:" in str(e.value) and "error: div: integer division by zero" in str(e.value)
    assert "= div %x, %" in str(e.value)


def test_pirs_warnings_are_python_warnings_at_the_users_line():
    from popxl.ir import PirWarning
    ir = popxl.Ir()

    def f(x):
        y = x * 2
        ops.add_(y, 1)  # nothing reads y afterwards
        return x

    with ir.main_graph:
        a = popxl.variable(np.zeros(2, np.float32), name="a")
        with pytest.warns(PirWarning, match=r"<popxl @f>:3:\d+: warning: add_: writes %\w+ in place") as caught:
            ir.create_graph(f, a)
    assert caught[0].filename == __file__


def test_generated_ops_take_the_onnx_attributes_and_optional_operands():
    # The op table's new attributes and optional operands reach popxl.ops by
    # themselves: cumsum's direction, argmax's select_last_index, nll_loss's class
    # weights as a third operand (values: NumPy, the weighted mean as PyTorch's).
    ir = popxl.Ir()
    x = np.array([[1, 3, 3], [2, 0, 2]], np.float32)
    probs = np.array([[0.2, 0.5, 0.3], [0.6, 0.25, 0.15]], np.float32)
    labels = np.array([1, 2], np.int32)
    weight = np.array([0.5, 2, 1.25], np.float32)
    with ir.main_graph:
        xt = popxl.constant(x, name="x")
        c = ops.cumsum(xt, axis=1, exclusive=True, reverse=True)
        a = ops.argmax(xt, axis=1, select_last_index=True)
        loss = ops.nll_loss(popxl.constant(probs, name="p"), popxl.constant(labels, name="t"),
                            popxl.constant(weight, name="w"))
        streams = []
        for t in (c, a, loss):
            s = popxl.d2h_stream(t.shape, t.dtype, name="out_" + t.name)
            ops.host_store(s, t)
            streams.append(s)
    got = run_once(ir)
    np.testing.assert_array_equal(got[streams[0]], [[6, 3, 0], [2, 2, 0]])
    np.testing.assert_array_equal(got[streams[1]], [2, 2])
    want = -(2 * np.log(0.5) + 1.25 * np.log(0.15)) / (2 + 1.25)
    np.testing.assert_allclose(got[streams[2]], want, rtol=1e-6)
