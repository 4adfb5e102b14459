"""popxl.transforms: autodiff (language.md §9) and the IR passes."""
import enum

from ..graph import Graph
from ..tensor import Tensor
from .._names import unique
from .. import dtypes as _dtypes


class ExpectedConnectionType(enum.Enum):
    Fwd = "Fwd"
    FwdGrad = "FwdGrad"


class ExpectedConnection:
    def __init__(self, fwd_tensor, connection_type):
        self.fwd_tensor = fwd_tensor
        self.connection_type = connection_type

    def __repr__(self):
        return f"ExpectedConnection({self.fwd_tensor!r}, {self.connection_type.name})"


class GradGraphInfo:
    """The gradient graph autodiff made, and how its inputs and outputs relate to
    the forward graph (PopXL `popxl.transforms.GradGraphInfo`)."""

    def __init__(self, ir, graph, forward_graph, expected_inputs, expected_outputs):
        self._ir = ir
        self._graph = graph
        self._fwd = forward_graph
        self._expected_inputs = tuple(expected_inputs)
        self._expected_outputs = tuple(expected_outputs)

    @property
    def graph(self):
        return self._graph

    @property
    def forward_graph(self):
        return self._fwd

    @property
    def expected_inputs(self):
        return self._expected_inputs

    @property
    def expected_outputs(self):
        return self._expected_outputs

    def get_input_tensors(self):
        return self._graph.inputs

    def get_output_tensors(self):
        return self._graph.outputs

    def inputs_dict(self, fwd_call_info):
        """The activations the gradient graph needs, taken from a call of the forward
        graph: {gradient-graph input: tensor of the calling graph}."""
        if fwd_call_info.called_graph is not self._fwd:
            raise ValueError(f"inputs_dict: the call is of @{fwd_call_info.called_graph.name}, not @{self._fwd.name}")
        self._ir._refresh_call(fwd_call_info)
        out = {}
        for grad_input, expected in zip(self._graph.inputs, self._expected_inputs):
            if expected.connection_type is ExpectedConnectionType.Fwd:
                out[grad_input] = fwd_call_info.graph_to_parent(expected.fwd_tensor)
        return out

    def fwd_graph_ins_to_grad_parent_outs(self, grad_call_info):
        return {e.fwd_tensor: grad_call_info.parent_output(i) for i, e in enumerate(self._expected_outputs)}

    def fwd_parent_ins_to_grad_parent_outs(self, fwd_call_info, grad_call_info):
        return {fwd_call_info.graph_to_parent(e.fwd_tensor): grad_call_info.parent_output(i)
                for i, e in enumerate(self._expected_outputs)}


def autodiff(graph, grads_provided=None, grads_required=None, called_graphs_grad_info=None,
             return_all_grad_graphs=False):
    """The gradient graph of `graph` (PopXL `popxl.transforms.autodiff`): its inputs
    are the gradients of `grads_provided` (default: every output) then the
    activations; its outputs the gradients of `grads_required` (default: every
    floating-point input)."""
    ir = graph.ir
    provided = list(graph.outputs) if grads_provided is None else list(grads_provided)
    if grads_required is None:
        required = [t for t in graph.inputs if t.dtype.is_floating_point]
    else:
        required = list(grads_required)
    for t in provided + required:
        if not isinstance(t, Tensor) or t._graph is not graph:
            raise ValueError(f"autodiff: {t!r} is not a tensor of @{graph.name}")
    grad_name = unique(f"{graph.name}_grad", ir._graph_names)
    attrs = (f"grads_provided = [{', '.join('%' + t.name for t in provided)}], "
             f"grads_required = [{', '.join('%' + t.name for t in required)}]")
    ir._add(f"autodiff @{graph.name} -> @{grad_name} {{{attrs}}}")
    info = ir._module.graph_info(grad_name)
    ir._refresh_outputs(graph)
    grad = Graph(ir, grad_name)
    for pname, dt, shape, by_ref in info["params"]:
        grad._taken.add(pname)
        t = Tensor(grad, pname, _dtypes.dtype.as_dtype(dt), shape)
        t._by_ref = by_ref
        grad._inputs.append(t)
    for rname, (dt, shape) in zip(info["returns"], info["outputs"]):
        t = grad._tensors.get(rname)
        if t is None:
            grad._taken.add(rname)
            t = Tensor(grad, rname, _dtypes.dtype.as_dtype(dt), shape)
        grad._outputs.append(t)
    grad._closed = True
    ir._graphs[grad_name] = grad
    expected_inputs = [ExpectedConnection(t, ExpectedConnectionType.FwdGrad) for t in provided]
    expected_inputs += [ExpectedConnection(graph._tensors[a], ExpectedConnectionType.Fwd) for a in info["activations"]]
    expected_outputs = [ExpectedConnection(t, ExpectedConnectionType.FwdGrad) for t in required]
    result = GradGraphInfo(ir, grad, graph, expected_inputs, expected_outputs)
    return [result] if return_all_grad_graphs else result


def merge_exchange(ir=None):
    """Groups independent IO ops into exchange blocks (pir's merge-exchange pass)."""
    _run(ir, "merge-exchange")


def decompose_sum(graph_or_ir=None):
    """Splits gradient sums so they can be scheduled early (pir's decompose-sum pass)."""
    _run(graph_or_ir, "decompose-sum")


def _run(target, name):
    from ..context import gcg
    ir = target.ir if isinstance(target, Graph) else (target or gcg().ir)
    ir._module.run_passes([name])
