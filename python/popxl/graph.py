"""PopXL's Graph: the main graph or a subgraph being traced."""
from . import context
from ._names import unique


class Graph:
    """A graph of the IR. The main graph sends each statement to pir as it is
    created; a subgraph collects its statements while its function is traced and
    is sent whole, as one `graph @name(...) { ... }` item, when tracing ends."""

    def __init__(self, ir, name, is_main=False):
        self._ir = ir
        self._name = name
        self._is_main = is_main
        self._taken = set()
        self._tensors = {}  # pir name -> Tensor
        self._inputs = []
        self._outputs = []
        self._stmts = []
        self._closed = is_main

    # ---- PopXL's surface --------------------------------------------------------
    @property
    def ir(self):
        return self._ir

    @property
    def name(self):
        return self._name

    @property
    def id(self):
        return self._name

    @property
    def inputs(self):
        return tuple(self._inputs)

    @property
    def outputs(self):
        return tuple(self._outputs)

    @property
    def main(self):
        return self._is_main

    def get_tensor(self, name):
        return self._tensors.get(name)

    @property
    def tensors(self):
        return tuple(self._tensors.values())

    def __enter__(self):
        context._push(self)
        return self

    def __exit__(self, *exc):
        context._pop(self)
        return False

    def __repr__(self):
        return f"Graph(@{self._name})"

    def __hash__(self):
        return id(self)

    # ---- building ---------------------------------------------------------------
    def _new_name(self, wanted):
        return unique(context._scoped(wanted), self._taken)

    def _register(self, tensor):
        self._tensors[tensor._pir_name] = tensor

    def _emit(self, text):
        if self._is_main:
            self._ir._add(text)
        elif self._closed:
            raise RuntimeError(f"graph @{self._name} is complete: ops cannot be added to it")
        else:
            self._stmts.append(text)
