"""The graph being built and PopXL's context managers (popxl.context)."""
import contextlib
import threading

_state = threading.local()


def _stack():
    if not hasattr(_state, "graphs"):
        _state.graphs = []
        _state.scopes = []
    return _state.graphs


def gcg():
    """The current graph (PopXL `popxl.gcg`): the innermost `with graph:`."""
    stack = _stack()
    if not stack:
        raise RuntimeError("no graph is being built: use `with ir.main_graph:` (or a graph)")
    return stack[-1]


get_current_graph = gcg


def get_main_graph():
    return gcg().ir.main_graph


def _push(graph):
    _stack().append(graph)


def _pop(graph):
    stack = _stack()
    if not stack or stack[-1] is not graph:
        raise RuntimeError("graph contexts closed out of order")
    stack.pop()


@contextlib.contextmanager
def in_sequence(enabled=True):
    """PopXL's `in_sequence`: ops run in the order they were created. In pir
    every graph runs its statements in textual order (language.md §7), so this
    always holds; the context manager is accepted for PopXL programs."""
    yield


@contextlib.contextmanager
def name_scope(name):
    """Prefixes the names of tensors created inside with `name.` (PopXL `name_scope`)."""
    _stack()
    _state.scopes.append(str(name))
    try:
        yield
    finally:
        _state.scopes.pop()


def _scoped(name):
    _stack()
    if not _state.scopes:
        return name
    return ".".join(_state.scopes + [name])
