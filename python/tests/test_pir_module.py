"""The pir bindings: parse, print, verify, build piece by piece, run with NumPy."""
import numpy as np
import pytest

import pir

LINEAR = """
h2d $x : f32[2,3]
d2h $y : f32[2,2]
graph @linear(%x: f32[2,3], %W: f32[3,2], %b: f32[2]) -> (f32[2,2]) {
  %xw = matmul %x, %W
  %y = add %xw, %b
  return %y
}
main {
  var %W : f32[3,2] = [[1, 0], [0, 1], [1, 1]]
  var %b : f32[2] = 0.5
  %x = host_load $x
  %y = call @linear(%x, %W, %b)
  host_store $y, %y
}
"""


def test_parse_print_is_a_fixed_point():
    m = pir.Module.parse(LINEAR, "linear.pir")
    text = m.text()
    assert pir.Module.parse(text).text() == text
    assert "%xw = matmul %x, %W : f32[2,3]" not in text  # result types are the inferred ones
    assert "%xw = matmul %x, %W : f32[2,2]" in text


def test_session_runs_with_numpy_arrays():
    m = pir.Module.parse(LINEAR)
    s = pir.Session(m)
    x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    s.feed("$x", x)
    s.run()
    W = np.array([[1, 0], [0, 1], [1, 1]], np.float32)
    np.testing.assert_array_equal(s.read("$y"), x @ W + 0.5)
    assert s.read("$y").dtype == np.float32
    s.write("%b", np.array([1, 2], np.float32))
    s.run(2)
    np.testing.assert_array_equal(s.read("$y"), x @ W + [1, 2])
    np.testing.assert_array_equal(s.read("%b"), [1, 2])


def test_errors_carry_located_diagnostics():
    with pytest.raises(pir.Error) as e:
        pir.Module.parse("main {\n  %a = add %nope, 1\n}\n", "bad.pir")
    assert "bad.pir:2:" in str(e.value)
    assert "%nope" in str(e.value)
    m = pir.Module.parse(LINEAR)
    s = pir.Session(m)
    with pytest.raises(pir.Error) as e:
        s.run()
    assert "$x" in str(e.value)


def test_text_added_in_pieces_builds_one_program():
    m = pir.Module()
    m.add("d2h $o : i32[]")
    m.add("var %a : i32[] = 3")
    m.begin_graph("inc", [("x", "i32", [], False)])
    m.add("%y = add %x, 1")
    m.add("return %y")
    m.end_graph()
    m.add("%r = call @inc(%a)")
    m.add("host_store $o, %r")
    assert m.value_type("inc", "y") == ("i32", ())
    assert m.value_type("main", "r") == ("i32", ())
    s = pir.Session(m)
    s.run()
    assert s.read("$o") == 4


def test_an_abandoned_graph_leaves_nothing():
    m = pir.Module()
    m.begin_graph("g", [("x", "f32", [2], True)])
    m.add("split %x {splits = [1, 1]}")
    m.abandon_graph()
    assert m.graph_names() == []
    m.begin_graph("g", [])
    m.abandon_graph()
    with pytest.raises(pir.Error):
        m.abandon_graph()


def test_result_types_build_one_statement_and_drop_it():
    m = pir.Module()
    before = m.text()
    assert m.result_types([("x", "f32", [2], True)], "split %x {splits = [1, 1]}") == [("f32", (1,)), ("f32", (1,))]
    assert m.result_types([("a", "f32", [2, 3], False), ("b", "f32", [3, 4], False)], "matmul %a, %b") == [("f32", (2, 4))]
    assert m.text() == before and m.graph_names() == []
    with pytest.raises(pir.Error) as e:
        m.result_types([("a", "f32", [2, 3], False)], "matmul %a, %a", "site.py")
    assert "site.py:1:" in str(e.value)


def test_literal_text_reads_back_exactly():
    a = np.array([[0.1, -0.0, np.inf], [np.nan, 3e-45, 1e30]], np.float32)
    m = pir.Module.parse(f"var %v : f32[2,3] = {pir.literal_text(a, 'f32')}")
    s = pir.Session(m)
    np.testing.assert_array_equal(s.read("%v"), a)
    assert np.signbit(s.read("%v")[0, 1])
    assert pir.literal_text(np.zeros((0,), np.float32), "f32") == "[]"


def test_op_table_lists_every_op():
    names = {row["name"] for row in pir.op_table()}
    assert {"add", "matmul", "softmax", "call", "host_load", "accumulate_"} <= names
    add = next(r for r in pir.op_table() if r["name"] == "add")
    assert add["min_operands"] == 2 and not add["inplace"]
