"""PopXL's tensors: results, variables, constants and graph inputs."""
import numbers

import numpy as np

import pir

from . import context
from . import dtypes as _dtypes


def _type_text(dtype, shape):
    return f"{dtype.pir_name}[{','.join(str(int(d)) for d in shape)}]"


class Tensor:
    """A tensor of one graph: its pir name (`%name`), dtype and shape."""

    def __init__(self, graph, pir_name, dtype, shape):
        self._graph = graph
        self._pir_name = pir_name
        self._dtype = dtype
        self._shape = tuple(int(d) for d in shape)
        self._alias_root = self
        graph._register(self)

    # ---- PopXL's surface --------------------------------------------------------
    @property
    def name(self):
        return self._pir_name

    @property
    def id(self):
        return self._pir_name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    @property
    def rank(self):
        return len(self._shape)

    @property
    def nelms(self):
        return int(np.prod(self._shape, dtype=np.int64))

    @property
    def ir(self):
        return self._graph.ir

    @property
    def spec(self):
        return TensorSpec(self._shape, self._dtype)

    def __repr__(self):
        return f"Tensor[%{self._pir_name} {_type_text(self._dtype, self._shape)}]"

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __bool__(self):
        raise TypeError("a popxl Tensor has no truth value until the program runs")

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a scalar tensor")
        return self._shape[0]

    # Arithmetic and comparisons build ops (popxl.ops), as in PopXL.
    def __add__(self, other):
        from . import ops
        return ops.add(self, other)

    def __radd__(self, other):
        from . import ops
        return ops.add(_lift(other, self), self)

    def __iadd__(self, other):
        from . import ops
        ops.add_(self, other)
        return self

    def __sub__(self, other):
        from . import ops
        return ops.sub(self, other)

    def __rsub__(self, other):
        from . import ops
        return ops.sub(_lift(other, self), self)

    def __isub__(self, other):
        from . import ops
        ops.sub_(self, other)
        return self

    def __mul__(self, other):
        from . import ops
        return ops.mul(self, other)

    def __rmul__(self, other):
        from . import ops
        return ops.mul(_lift(other, self), self)

    def __imul__(self, other):
        from . import ops
        ops.mul_(self, other)
        return self

    def __truediv__(self, other):
        from . import ops
        return ops.div(self, other)

    def __rtruediv__(self, other):
        from . import ops
        return ops.div(_lift(other, self), self)

    def __itruediv__(self, other):
        from . import ops
        ops.div_(self, other)
        return self

    def __mod__(self, other):
        from . import ops
        return ops.fmod(self, other)

    def __pow__(self, other):
        from . import ops
        return ops.pow(self, other)

    def __rpow__(self, other):
        from . import ops
        return ops.pow(_lift(other, self), self)

    def __matmul__(self, other):
        from . import ops
        return ops.matmul(self, other)

    def __rmatmul__(self, other):
        from . import ops
        return ops.matmul(_lift(other, self), self)

    def __neg__(self):
        from . import ops
        return ops.neg(self)

    def __abs__(self):
        from . import ops
        return ops.abs(self)

    def __invert__(self):
        from . import ops
        return ops.logical_not(self)

    def __and__(self, other):
        from . import ops
        return ops.logical_and(self, other)

    def __or__(self, other):
        from . import ops
        return ops.logical_or(self, other)

    def __xor__(self, other):
        from . import ops
        return ops.logical_xor(self, other)

    def __gt__(self, other):
        from . import ops
        return ops.greater(self, other)

    def __ge__(self, other):
        from . import ops
        return ops.greater_equal(self, other)

    def __lt__(self, other):
        from . import ops
        return ops.less(self, other)

    def __le__(self, other):
        from . import ops
        return ops.less_equal(self, other)

    def __getitem__(self, key):
        from . import ops
        return ops._index(self, key)

    # Shape methods, as PopXL's Tensor has them.
    def reshape(self, shape):
        from . import ops
        return ops.reshape(self, shape)

    def reshape_(self, shape):
        from . import ops
        return ops.reshape_(self, shape)

    def transpose(self, permutation=None):
        from . import ops
        return ops.transpose(self, permutation)

    def transpose_(self, permutation=None):
        from . import ops
        return ops.transpose_(self, permutation)

    @property
    def T(self):
        return self.transpose()

    def flatten(self):
        return self.reshape((-1,))

    def detach(self):
        from . import ops
        return ops.detach(self)

    def copy_to_ipu(self, destination, source=None):
        from . import ops
        return ops.ipu_copy(self, destination)


class Variable(Tensor):
    """A variable (PopXL `popxl.variable`): state of the main graph kept across runs."""

    def __init__(self, graph, pir_name, dtype, shape, replica_grouping=None, retrieval_mode="one_per_group"):
        super().__init__(graph, pir_name, dtype, shape)
        self._replica_grouping = replica_grouping
        self._retrieval_mode = retrieval_mode

    @property
    def replica_grouping(self):
        return self._replica_grouping

    @property
    def retrieval_mode(self):
        return self._retrieval_mode


class Constant(Tensor):
    """A constant (PopXL `popxl.constant`)."""


class TensorSpec:
    """A shape and dtype (PopXL `popxl.TensorSpec`)."""

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = _dtypes.dtype.as_dtype(dtype)


class TensorByRef:
    """Marks a create_graph argument as a by-reference input (`&` in pir)."""

    def __init__(self, tensor):
        self.tensor = tensor


def _host_array(data, dtype, downcast):
    if dtype is None:
        dtype = _dtypes.dtype_of_data(data, downcast)
    else:
        dtype = _dtypes.dtype.as_dtype(dtype)
    if isinstance(data, Tensor):
        raise TypeError("host data must be a NumPy array or Python number, not a popxl.Tensor")
    arr = np.asarray(data)
    if dtype in (_dtypes.int64, _dtypes.uint64):
        store = _dtypes.int32 if dtype is _dtypes.int64 else _dtypes.uint32
        info = np.iinfo(store.as_numpy())
        if arr.size and (arr.min() < info.min or arr.max() > info.max):
            raise ValueError(f"{dtype.name} data does not fit {store.name}, pir's storage for it")
        dtype = store
    return np.array(arr, dtype=dtype.as_numpy(), order="C"), dtype


def _lift(value, like):
    """A Python number or array as an operand of an op whose other operand is `like`."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (numbers.Number, np.number, np.bool_)):
        return value
    return constant(value, like.dtype)


def _attrs_text(pairs):
    parts = [f"{k} = {v}" for k, v in pairs if v is not None]
    return " {" + ", ".join(parts) + "}" if parts else ""


def variable(data, dtype=None, name=None, downcast=True, replica_grouping=None, retrieval_mode=None, **_placement):
    """A variable of the main graph initialised from `data` (PopXL `popxl.variable`).
    With a replica grouping of several groups, `data` has shape [num_groups] + shape."""
    ir = context.gcg().ir
    arr, dtype = _host_array(data, dtype, downcast)
    return ir._declare_variable(arr, dtype, name, replica_grouping, retrieval_mode)


def remote_variable(data, remote_buffer, offset=0, dtype=None, name=None, downcast=True, replica_grouping=None,
                    retrieval_mode=None):
    """A variable whose home is entry `offset` of `remote_buffer` (PopXL `popxl.remote_variable`)."""
    ir = context.gcg().ir
    arr, dtype = _host_array(data, dtype, downcast)
    return ir._declare_variable(arr, dtype, name, replica_grouping, retrieval_mode, remote=(remote_buffer, offset))


def constant(data, dtype=None, name=None, downcast=True):
    """A constant of the current graph (PopXL `popxl.constant`)."""
    graph = context.gcg()
    arr, dtype = _host_array(data, dtype, downcast)
    pir_name = graph._new_name(name or "c")
    graph._emit(f"const %{pir_name} : {_type_text(dtype, arr.shape)} = {pir.literal_text(arr, dtype.pir_name)}")
    return Constant(graph, pir_name, dtype, arr.shape)


def graph_input(shape, dtype, name=None, by_ref=False, meta_shape=None):
    """A new input of the subgraph being traced (PopXL `popxl.graph_input`)."""
    graph = context.gcg()
    if graph.main:
        raise RuntimeError("graph_input: the main graph has no inputs; call it inside a function given to create_graph")
    return graph._ir._add_input(graph, tuple(shape), _dtypes.dtype.as_dtype(dtype), name or "input", by_ref)


def graph_output(t):
    """Marks `t` as the next output of the subgraph being traced (PopXL `popxl.graph_output`)."""
    graph = context.gcg()
    if graph.main:
        raise RuntimeError("graph_output: the main graph has no outputs")
    if not isinstance(t, Tensor) or t._graph is not graph:
        raise ValueError(f"graph_output: {t!r} is not a tensor of @{graph.name}")
    graph._outputs.append(t)
