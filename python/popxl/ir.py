"""PopXL's Ir over a pir Module.

Every statement popxl builds is `.pir` text read by pir's own front end (the
builder that reads files and the REPL), so a popxl program is verified by the
same rules as a file and `Ir.to_pir()` prints it as canonical `.pir`. The main
graph's statements reach pir as they are created; a subgraph is traced in Python
(the result types of each op come from pir, by building the op alone in a probe
graph that is then dropped) and sent whole when its function returns, because
PopXL lets a function add graph inputs after it has created ops.
"""
import inspect
import numbers
import os
import sys
import warnings

import numpy as np

import pir

from . import context
from . import dtypes as _dtypes
from ._names import sanitize, unique
from .graph import Graph
from .replica_grouping import ReplicaGrouping
from .streams import RemoteBuffer, _Resource
from .tensor import Tensor, TensorByRef, TensorSpec, Variable, _type_text

def _user_stacklevel():
    """The stacklevel of warnings.warn, called from here, that names the first
    caller outside popxl (the user's line that built the statement)."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package + os.sep):
        frame, level = frame.f_back, level + 1
    return level


class PirWarning(UserWarning):
    """A warning of pir's front end about the program built (located in its text)."""


class CallOperand:
    """`@graph(args...)` as an operand of a control-flow op."""

    def __init__(self, graph, args):
        self.graph = graph
        self.args = list(args)


def _number_text(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    f = float(v)
    if f != f:
        return "nan"
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    return repr(f)


class Ir:
    """An IR: options, streams, remote buffers, the main graph and subgraphs (PopXL `popxl.Ir`)."""

    def __init__(self, replication=1):
        if replication == "popdist":
            replication = 1
        self._module = pir.Module()
        self._replication = int(replication)
        self.num_host_transfers = 1
        self._graph_names = set()
        self._resource_names = set()
        self._streams = []
        self._variables = []
        self._graphs = {}
        self._main = Graph(self, "main", is_main=True)
        self._sync_options()

    # ---- PopXL's surface --------------------------------------------------------
    @property
    def main_graph(self):
        return self._main

    @property
    def replication_factor(self):
        return self._replication

    @replication_factor.setter
    def replication_factor(self, value):
        self._replication = int(value)
        self._sync_options()

    @property
    def instance_replication_factor(self):
        return self._replication

    def replica_grouping(self, stride=1, group_size=None):
        return ReplicaGrouping(self._replication, stride, group_size)

    def get_graph(self, name):
        return self._graphs[name]

    @property
    def graphs(self):
        return (self._main,) + tuple(self._graphs.values())

    def create_empty_graph(self, name=None):
        raise NotImplementedError("create_empty_graph: pir graphs are built by tracing a function (create_graph)")

    def create_graph(self, fn, *args, **kwargs):
        """Traces `fn` (or a popxl.Module's `build`) into a new subgraph: Tensor
        arguments become graph inputs of the same type, other arguments pass through."""
        from .module import Module
        build = fn.build if isinstance(fn, Module) else fn
        base = type(fn).__name__ if isinstance(fn, Module) else getattr(fn, "__name__", "graph")
        name = unique(base.lstrip("_") or "graph", self._graph_names)
        graph = Graph(self, name)
        try:
            params = list(inspect.signature(build).parameters)
        except (TypeError, ValueError):
            params = []

        def as_input(value, pname):
            by_ref = False
            if isinstance(value, TensorByRef):
                value, by_ref = value.tensor, True
            if isinstance(value, (Tensor, TensorSpec)):
                wanted = pname or (value.name if isinstance(value, Tensor) else "input")
                return self._add_input(graph, value.shape, value.dtype, wanted, by_ref)
            return value

        with graph:
            new_args = [as_input(a, params[i] if i < len(params) else None) for i, a in enumerate(args)]
            new_kwargs = {k: as_input(v, k) for k, v in kwargs.items()}
            out = build(*new_args, **new_kwargs)
        if out is None:
            outs = []
        elif isinstance(out, Tensor):
            outs = [out]
        else:
            outs = list(out)
        for t in outs:
            if not isinstance(t, Tensor) or t._graph is not graph:
                raise ValueError(f"create_graph: @{name} returns {t!r}, which is not a tensor of the graph")
            graph._outputs.append(t)
        self._emit_graph(graph)
        self._graphs[name] = graph
        return graph

    def to_pir(self, path=None):
        """The program as canonical `.pir` (with its IR options); written to `path` if given."""
        self._sync_options()
        text = self._module.text()
        if path is not None:
            with open(path, "w") as f:
                f.write(text)
        return text

    # ---- building ---------------------------------------------------------------
    def _add(self, text, graph="main"):
        # Diagnostics name the graph the text builds; pir's warnings become Python's.
        self._module.add(text, f"<popxl @{graph}>")
        found = self._module.warnings()
        if found:
            warnings.warn(found.rstrip("\n"), PirWarning, stacklevel=_user_stacklevel())

    def _sync_options(self):
        self._module.set_options(self._replication, int(self.num_host_transfers))

    def _declare_stream(self, cls, shape, dtype, name):
        pir_name = unique(name, self._resource_names)
        keyword = "h2d" if cls.__name__ == "HostToDeviceStream" else "d2h"
        self._add(f"{keyword} ${pir_name} : {_type_text(dtype, shape)}")
        s = cls(self, pir_name, shape, dtype)
        self._streams.append(s)
        return s

    def _declare_remote_buffer(self, shape, dtype, entries):
        pir_name = unique("remote_buffer", self._resource_names)
        self._add(f"remote_buffer ${pir_name} : {_type_text(dtype, shape)} {{entries = {entries}}}")
        return RemoteBuffer(self, pir_name, shape, dtype, entries)

    def _declare_variable(self, arr, dtype, name, grouping, retrieval, remote=None):
        graph = self._main
        shape = arr.shape
        attrs = []
        if grouping is not None:
            if grouping.num_groups > 1:
                if not shape or shape[0] != grouping.num_groups:
                    raise ValueError(f"variable: with {grouping.num_groups} replica groups the data has shape "
                                     f"[{grouping.num_groups}] + shape, got {list(shape)}")
                shape = shape[1:]
            attrs.append(f"replica_grouping = {grouping._text()}")
        if retrieval is not None and retrieval != "one_per_group":
            attrs.append(f"retrieval = {retrieval}")
        if remote is not None:
            buffer, offset = remote
            attrs.append(f"remote = ${buffer.name}, offset = {int(offset)}")
        pir_name = graph._new_name(name or "var")
        attr_text = " {" + ", ".join(attrs) + "}" if attrs else ""
        data = pir.literal_text(arr, dtype.pir_name)
        self._add(f"var %{pir_name} : {_type_text(dtype, shape)} = {data}{attr_text}")
        v = Variable(graph, pir_name, dtype, shape, grouping, retrieval or "one_per_group")
        self._variables.append(v)
        return v

    def _add_input(self, graph, shape, dtype, name, by_ref):
        pir_name = graph._new_name(name)
        t = Tensor(graph, pir_name, dtype, shape)
        t._by_ref = bool(by_ref)
        graph._inputs.append(t)
        return t

    def _emit_graph(self, graph):
        params = ", ".join(
            f"%{t._pir_name}: {'&' if getattr(t, '_by_ref', False) else ''}{_type_text(t.dtype, t.shape)}"
            for t in graph._inputs)
        body = "".join(f"  {s}\n" for s in graph._stmts)
        ret = ", ".join(f"%{t._pir_name}" for t in graph._outputs)
        self._add(f"graph @{graph.name}({params}) {{\n{body}  return {ret}\n}}", graph.name)
        graph._closed = True

    def _refresh_outputs(self, graph):
        """Outputs pir added to a graph (autodiff's activations) become its outputs here too."""
        info = self._module.graph_info(graph.name)
        for rname in info["returns"][len(graph._outputs):]:
            graph._outputs.append(graph._tensors[rname])

    def _refresh_call(self, call_info):
        """Results pir added to a labelled call (after autodiff added outputs to its graph)."""
        if call_info._label is None or len(call_info._outputs) == len(call_info.called_graph._outputs):
            return
        parent = call_info.parent_graph
        results = self._module.call_results(parent.name, call_info._label)
        for rname, dt, shape in results[len(call_info._outputs):]:
            t = parent._tensors.get(rname)
            if t is None:
                parent._taken.add(rname)
                t = Tensor(parent, rname, _dtypes.dtype.as_dtype(dt), shape)
            call_info._outputs.append(t)

    # ---- ops ----------------------------------------------------------------------
    def _operand_text(self, graph, value, rename):
        if isinstance(value, Tensor):
            if value._graph is not graph:
                raise ValueError(f"{value!r} belongs to graph @{value._graph.name}, not @{graph.name}: pass it in "
                                 "as an argument of the call")
            return rename(value)
        if isinstance(value, _Resource):
            return f"${value.name}"
        if isinstance(value, CallOperand):
            return f"@{value.graph.name}(" + ", ".join(self._operand_text(graph, a, rename) for a in value.args) + ")"
        if isinstance(value, (numbers.Number, np.number, np.bool_)):
            return _number_text(value)
        raise TypeError(f"cannot use {value!r} as an operand")

    def _op(self, opname, operands, attrs=None, name=None, inplace=None, label=None):
        """Adds `opname operands {attrs}` to the current graph; returns its result tensors.
        `inplace`: the tensor an in-place op overwrites (returned; later readers see the
        new value). `label`: names a call site (`as LABEL`) for autodiff's `using`."""
        graph = context.gcg()
        attr_text = _attrs(attrs or {})
        operand_text = ", ".join(self._operand_text(graph, v, lambda t: f"%{t._pir_name}") for v in operands)
        if inplace is not None:
            target = inplace
            graph._emit(f"{opname} {operand_text}{attr_text}")
            root = target._alias_root
            if root in graph._inputs:
                root._by_ref = True
            return [target]
        results = self._probe_with_attrs(graph, operands, opname, attr_text)
        names = []
        for i, _ in enumerate(results):
            wanted = name if (name and len(results) == 1) else (f"{name}_{i}" if name else opname)
            names.append(graph._new_name(wanted))
        lhs = ", ".join(f"%{n}" for n in names)
        stmt = f"{opname} {operand_text}{attr_text}" + (f" as {label}" if label else "")
        graph._emit(f"{lhs} = {stmt}" if names else stmt)
        return [Tensor(graph, n, _dtypes.dtype.as_dtype(dt), shape) for n, (dt, shape) in zip(names, results)]

    def _probe_with_attrs(self, graph, operands, opname, attr_text):
        """The result types of `opname operands {attrs}`, read from pir: the op is
        built alone in a probe graph whose parameters stand for the operands, then dropped."""
        tensors = []
        index = {}

        def collect(v):
            if isinstance(v, Tensor) and id(v) not in index:
                index[id(v)] = len(tensors)
                tensors.append(v)
            elif isinstance(v, CallOperand):
                for a in v.args:
                    collect(a)

        for v in operands:
            collect(v)
        params = [(f"o{i}", t.dtype.pir_name, list(t.shape), True) for i, t in enumerate(tensors)]
        operand_text = ", ".join(self._operand_text(graph, v, lambda t: f"%o{index[id(t)]}") for v in operands)
        return self._module.result_types(params, f"{opname} {operand_text}{attr_text}", f"<popxl @{graph.name}>")


def _attr_value(v):
    from .graph import Graph as _Graph
    if isinstance(v, ReplicaGrouping):
        return v._text()
    if isinstance(v, _dtypes.dtype):
        return v.pir_name
    if isinstance(v, _Graph):
        return f"@{v.name}"
    if isinstance(v, Tensor):
        return f"%{v._pir_name}"
    if isinstance(v, _Resource):
        return f"${v.name}"
    if isinstance(v, Word):
        return v.word
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_attr_value(x) for x in v) + "]"
    if isinstance(v, np.ndarray):
        return _attr_value(v.tolist())
    return _number_text(v)


class Word:
    """An enum word or `all`: printed bare, not quoted."""

    def __init__(self, word):
        self.word = word


def _attrs(attrs):
    parts = [f"{k} = {_attr_value(v)}" for k, v in attrs.items() if v is not None]
    return " {" + ", ".join(parts) + "}" if parts else ""
