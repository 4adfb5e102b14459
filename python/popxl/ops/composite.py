"""PopXL ops that pir writes as several of its own."""
from .. import context
from ..tensor import Tensor


def nll_loss_with_softmax_grad(probs, labels, loss_grad=1, reduction="mean", ignore_index=None):
    """(loss, d loss / d logits) for `probs = softmax(logits)`: the loss of `nll_loss`, and
    (probs - onehot(labels)) * loss_grad, divided by the batch for reduction `mean`
    (PopXL `ops.nll_loss_with_softmax_grad`)."""
    from . import cast, mul, nll_loss, onehot, sub, unsqueeze, not_equal
    loss = nll_loss(probs, labels, reduction=reduction, ignore_index=ignore_index)
    classes = probs.shape[-1]
    hot = onehot(labels, num_classes=classes, dtype=probs.dtype)
    grad = sub(probs, hot)
    if ignore_index is not None:
        keep = cast(not_equal(labels, ignore_index), probs.dtype)
        grad = mul(grad, unsqueeze(keep, axes=[-1]))
    scale = loss_grad
    if reduction == "mean":
        count = 1
        for d in labels.shape:
            count *= d
        if isinstance(loss_grad, Tensor):
            scale = mul(loss_grad, 1.0 / count)
        else:
            scale = float(loss_grad) / count
    grad = mul(grad, scale)
    return loss, grad


def reduce_sum(t, axis=None, keepdims=False):
    from . import sum as _sum
    return _sum(t, axis=axis, keepdims=keepdims)


def reduce_mean(t, axis=None, keepdims=False):
    from . import mean
    return mean(t, axis=axis, keepdims=keepdims)


def _index(t, key):
    """t[key] for ints and slices over the leading axes (PopXL Tensor.__getitem__)."""
    from . import slice as _slice, squeeze, gather
    if isinstance(key, Tensor):
        return gather(t, key, axis=0)
    if not isinstance(key, tuple):
        key = (key,)
    starts, stops, steps, axes, drop = [], [], [], [], []
    for axis, k in enumerate(key):
        n = t.shape[axis]
        if isinstance(k, int):
            i = k + n if k < 0 else k
            if not 0 <= i < n:
                raise IndexError(f"index {k} is out of range for axis {axis} of size {n}")
            starts.append(i), stops.append(i + 1), steps.append(1), axes.append(axis), drop.append(axis)
        elif isinstance(k, slice):
            start, stop, step = k.indices(n)
            starts.append(start), stops.append(stop), steps.append(step), axes.append(axis)
        else:
            raise TypeError(f"unsupported index {k!r}: ints, slices or an index tensor")
    out = _slice(t, start=starts, stop=stops, step=steps, axes=axes)
    if drop:
        out = squeeze(out, axes=drop)
    return out
