"""popxl.ops: every op of pir's op table (ir/ops.def) under its name, generated
from the table (an op added there appears here by itself), plus PopXL's
control-flow, IO and composite ops.

A generated op takes its operands first (tensors, Python numbers, or host
arrays, which become constants), then its attributes, positionally in the
table's order or by name. PopXL's names for attributes (`permutation`,
`data_type`, ...) are accepted beside pir's. Keyword arguments PopXL has for
IPU memory planning (`available_memory_proportion`, ...) are accepted and ignored
when None.
"""
import numbers
import sys

import numpy as np

import pir

from .. import context
from ..ir import CallOperand, Word
from ..streams import _Resource
from ..tensor import Tensor, _lift, constant

# PopXL keyword -> pir attribute, where the two differ.
_ATTR_ALIASES = {
    "permutation": "perm",
    "data_type": "dtype",
    "dim": "axis",
    "keepdim": "keepdims",
    "seed_tensor": "seed",
    "num_classes": "num_classes",
}

# PopXL options with no meaning on pir's emulated device: accepted when None or default.
_IGNORED = {"available_memory_proportion", "serialise_mode", "serialise_factor", "output_type", "partials_type",
            "ignore_pad", "pad_type", "name_scope", "debug_context"}

_TABLE = {row["name"]: row for row in pir.op_table()}


def _operand(value, like):
    if isinstance(value, (Tensor, _Resource, CallOperand)):
        return value
    if isinstance(value, (numbers.Number, np.number, np.bool_)):
        return value
    if like is None:
        return constant(value)
    return constant(value, like.dtype)


def _attr(spec, value):
    _, kind, _, enum_values = spec
    if kind == "enum" and isinstance(value, str):
        return Word(value)
    if kind == "axes" and isinstance(value, str):
        return Word(value)
    if kind == "dtype" and not hasattr(value, "pir_name"):
        from .. import dtypes
        return dtypes.dtype.as_dtype(value)
    if kind in ("ints", "axes", "floats") and isinstance(value, tuple):
        return list(value)
    return value


def _make(row):
    name = row["name"]
    attr_specs = row["attrs"]
    attr_names = [a[0] for a in attr_specs]
    min_ops = row["min_operands"]
    max_ops = row["max_operands"]
    resources = [is_res for _, is_res in row["operands"]]

    def op(*args, **kwargs):
        result_name = kwargs.pop("name", None)
        args = list(args)
        operands = []
        # Operands: the required ones, then any further tensor (optional or variadic operands).
        while args and (len(operands) < min_ops or
                        (max_ops < 0 or len(operands) < max_ops) and isinstance(args[0], (Tensor, _Resource))):
            operands.append(args.pop(0))
        like = next((o for o in operands if isinstance(o, Tensor)), None)
        operands = [o if (i < len(resources) and resources[i]) else _operand(o, like) for i, o in enumerate(operands)]
        attrs = {}
        for key, value in zip(attr_names, args):
            attrs[key] = value
        if len(args) > len(attr_names):
            raise TypeError(f"{name}: too many arguments ({len(operands)} operands, attributes {attr_names})")
        for key, value in kwargs.items():
            key = _ATTR_ALIASES.get(key, key)
            if key in _IGNORED:
                continue
            if key not in attr_names:
                if value is None:
                    continue
                raise TypeError(f"{name}: unknown argument '{key}' (attributes: {', '.join(attr_names) or 'none'})")
            attrs[key] = value
        attrs = {k: _attr(attr_specs[attr_names.index(k)], v) for k, v in attrs.items() if v is not None}
        ir = context.gcg().ir
        results = ir._op(name, operands, attrs, name=result_name, inplace=operands[0] if row["inplace"] else None)
        if row["inplace"]:
            return results[0]
        if len(results) == 1:
            return results[0]
        return tuple(results)

    op.__name__ = name
    op.__doc__ = f"pir op `{name} {row['signature']}`" + (
        " {" + ", ".join(a[0] for a in attr_specs) + "}" if attr_specs else "")
    return op


_module = sys.modules[__name__]
for _name, _row in _TABLE.items():
    if not _row["control"]:
        setattr(_module, _name, _make(_row))

from .control import call, call_with_info, conditional, repeat  # noqa: E402
from .io import host_load, host_store, remote_load, remote_load_, remote_store  # noqa: E402
from .composite import _index, nll_loss_with_softmax_grad, reduce_sum, reduce_mean  # noqa: E402
from . import var_updates  # noqa: E402
from . import collectives  # noqa: E402
from .call import CallSiteInfo  # noqa: E402


def __getattr__(attr):
    raise AttributeError(f"popxl.ops has no op '{attr}' (pir's ops: `pir help ops`)")


def init(shape, dtype, name=None, init_type="zero"):
    """A new tensor of `shape` and `dtype`, zero-filled (PopXL `ops.init`)."""
    from .. import dtypes
    ir = context.gcg().ir
    attrs = {"shape": list(shape), "dtype": dtypes.dtype.as_dtype(dtype), "kind": Word(init_type)}
    return ir._op("init", [], attrs, name=name)[0]
