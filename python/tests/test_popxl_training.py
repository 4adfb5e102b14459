"""A PopXL training program in the style of the user guide's mnist.py: two linear
layers traced as Modules, autodiff through call_with_info, SGD with scaled_add_;
the loss must fall and the accuracy rise well above chance on separable data."""
import numpy as np

import popxl
import popxl.ops as ops
import popxl.transforms as transforms
from test_popxl import assert_pir_run_matches


class Linear(popxl.Module):
    def build(self, x, out_features, act=True):
        self.W = popxl.graph_input((x.shape[-1], out_features), popxl.float32, "W")
        self.b = popxl.graph_input((out_features,), popxl.float32, "b")
        y = x @ self.W + self.b
        return ops.gelu(y) if act else y


def build(batch, features, classes, lr, rng):
    ir = popxl.Ir()
    ir.num_host_transfers = 1
    with ir.main_graph, popxl.in_sequence():
        img = popxl.h2d_stream([batch, features], popxl.float32, name="input_stream")
        lab = popxl.h2d_stream([batch], popxl.int32, name="label_stream")
        x = ops.host_load(img, "x")
        labels = ops.host_load(lab, "labels")
        W0 = popxl.variable(rng.normal(0, 0.1, (features, 16)).astype(np.float32), name="W0")
        b0 = popxl.variable(np.zeros(16, np.float32), name="b0")
        W1 = popxl.variable(rng.normal(0, 0.1, (16, classes)).astype(np.float32), name="W1")
        b1 = popxl.variable(np.zeros(classes, np.float32), name="b1")
        l0, l1 = Linear(), Linear()
        g0 = ir.create_graph(l0, x, out_features=16)
        c0 = ops.call_with_info(g0, x, inputs_dict={l0.W: W0, l0.b: b0})
        h = c0.outputs[0]
        g1 = ir.create_graph(l1, h, out_features=classes, act=False)
        c1 = ops.call_with_info(g1, h, inputs_dict={l1.W: W1, l1.b: b1})
        probs = ops.softmax(c1.outputs[0], axis=-1)
        loss, dy = ops.nll_loss_with_softmax_grad(probs, labels)
        bwd1 = transforms.autodiff(g1)
        gc1 = ops.call_with_info(bwd1.graph, dy, inputs_dict=bwd1.inputs_dict(c1))
        grads1 = bwd1.fwd_parent_ins_to_grad_parent_outs(c1, gc1)
        bwd0 = transforms.autodiff(g0, grads_required=[l0.W, l0.b])
        dW0, db0 = ops.call(bwd0.graph, grads1[h], inputs_dict=bwd0.inputs_dict(c0))
        for v, g in ((W0, dW0), (b0, db0), (W1, grads1[W1]), (b1, grads1[b1])):
            ops.scaled_add_(v, g, b=-lr)
        loss_out = popxl.d2h_stream(loss.shape, loss.dtype, name="loss_stream")
        ops.host_store(loss_out, loss)
        pred_out = popxl.d2h_stream(probs.shape, probs.dtype, name="probs")
        ops.host_store(pred_out, probs)
    return ir, img, lab, loss_out, pred_out, (W0, b0, W1, b1)


def test_training_reduces_the_loss_and_learns():
    rng = np.random.default_rng(1)
    batch, features, classes = 32, 8, 4
    centres = rng.normal(0, 2, (classes, features)).astype(np.float32)
    ir, img, lab, loss_out, pred_out, params = build(batch, features, classes, 0.2, rng)
    losses, accuracy = [], []
    with popxl.Session(ir, "ipu_model") as s:
        for step in range(60):
            labels = rng.integers(0, classes, batch).astype(np.int32)
            data = (centres[labels] + rng.normal(0, 0.5, (batch, features))).astype(np.float32)
            out = s.run({img: data, lab: labels})
            if step == 0:
                first = ({img: data, lab: labels}, out)
            losses.append(float(out[loss_out]))
            accuracy.append(float(np.mean(out[pred_out].argmax(-1) == labels)))
        weights = s.get_tensors_data(params)
    # the program's text, run by `pir run`, takes the same first step
    assert_pir_run_matches(ir, *first)
    assert np.mean(losses[-10:]) < 0.5 * np.mean(losses[:5])
    assert np.mean(accuracy[-10:]) > 0.9  # chance is 0.25
    assert all(np.isfinite(w).all() for w in weights.values())
