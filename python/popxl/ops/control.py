"""Control flow: call, call_with_info, repeat, conditional (language.md §6)."""
import itertools

import numpy as np

from .. import context
from ..ir import CallOperand
from ..tensor import Tensor, constant
from .call import CallSiteInfo

_labels = itertools.count()


def _bind(graph, inputs, inputs_dict, what):
    params = graph._inputs
    if len(inputs) > len(params):
        raise ValueError(f"{what}: @{graph.name} takes {len(params)} inputs, got {len(inputs)} positional")
    args = list(inputs) + [None] * (len(params) - len(inputs))
    for sub, parent in (inputs_dict or {}).items():
        index = next((i for i, p in enumerate(params) if p is sub), None)
        if index is None:
            raise ValueError(f"{what}: {sub!r} is not an input of @{graph.name}")
        args[index] = parent
    missing = [params[i].name for i, a in enumerate(args) if a is None]
    if missing:
        raise ValueError(f"{what}: no value for the inputs {', '.join(missing)} of @{graph.name}")
    for i, a in enumerate(args):
        if not isinstance(a, Tensor) and not np.isscalar(a):
            args[i] = constant(a, params[i].dtype)
    return args


def _copies_of_by_ref(args, graph):
    """By-reference inputs get a copy: a plain call does not change its caller's tensors (PopXL)."""
    from . import identity
    return [identity(a) if isinstance(a, Tensor) and getattr(p, "_by_ref", False) else a
            for a, p in zip(args, graph._inputs)]


def call(graph, *inputs, inputs_dict=None, name=None):
    """Calls `graph` once; returns its outputs as a tuple (PopXL `ops.call`)."""
    args = _copies_of_by_ref(_bind(graph, inputs, inputs_dict, "call"), graph)
    ir = context.gcg().ir
    return tuple(ir._op("call", [CallOperand(graph, args)], name=name))


def call_with_info(graph, *inputs, inputs_dict=None, name=None):
    """Calls `graph` once; returns the CallSiteInfo (PopXL `ops.call_with_info`). By-reference
    inputs are passed as they are: the call may write them (set_parent_input_modified)."""
    args = _bind(graph, inputs, inputs_dict, "call_with_info")
    parent = context.gcg()
    label = f"popxl_call{next(_labels)}"
    outputs = parent.ir._op("call", [CallOperand(graph, args)], name=name, label=label)
    return CallSiteInfo(graph, parent, args, outputs, label)


def repeat(graph, repeat_count, *inputs, inputs_dict=None, name=None):
    """Runs `graph` repeat_count times; outputs are carried into its first inputs (PopXL `ops.repeat`)."""
    args = _bind(graph, inputs, inputs_dict, "repeat")
    ir = context.gcg().ir
    return tuple(ir._op("repeat", [CallOperand(graph, args)], {"count": int(repeat_count)}, name=name))


def repeat_with_info(graph, repeat_count, *inputs, inputs_dict=None, name=None):
    args = _bind(graph, inputs, inputs_dict, "repeat_with_info")
    parent = context.gcg()
    outputs = parent.ir._op("repeat", [CallOperand(graph, args)], {"count": int(repeat_count)}, name=name)
    return CallSiteInfo(graph, parent, args, outputs, None)


def conditional(cond, then_branch, else_branch, then_inputs=None, else_inputs=None, then_inputs_dict=None,
                else_inputs_dict=None, name=None):
    """Runs one branch (PopXL `ops.conditional`)."""
    then_args = _bind(then_branch, then_inputs or [], then_inputs_dict, "conditional")
    else_args = _bind(else_branch, else_inputs or [], else_inputs_dict, "conditional")
    ir = context.gcg().ir
    return tuple(ir._op("conditional", [cond, CallOperand(then_branch, then_args), CallOperand(else_branch, else_args)],
                        name=name))
