"""popxl.Session over a pir session (runtime.md §2-5).

Host buffers have PopXL's shapes: a stream of shape S moves arrays of shape
[num_host_transfers] + [replication] + S, each leading dimension present only
when it is greater than 1; grouped variables read and write [num_groups] + S.
"""
import numpy as np

import pir

from .streams import DeviceToHostStream, HostToDeviceStream
from .tensor import Constant, Tensor, Variable

_DEVICES = ("ipu_model", "cpu")


class Session:
    def __init__(self, ir, device_desc="ipu_model", threads=0):
        if device_desc not in _DEVICES:
            raise ValueError(f"Session: device '{device_desc}' is not available: pir emulates "
                             f"{' and '.join(repr(d) for d in _DEVICES)} (there is no IPU hardware)")
        self._ir = ir
        self._device_desc = device_desc
        self._depth = 0
        ir._sync_options()
        ir._module.verify()
        self._engine = pir.Session(ir._module, threads)
        # The IR may not change once a session runs it: streams and shapes are fixed here.
        self._h2d = {s: ("$" + s.name, self._host_shape(s)) for s in ir._streams if isinstance(s, HostToDeviceStream)}
        self._d2h = [(s, "$" + s.name, self._host_shape(s)) for s in ir._streams if isinstance(s, DeviceToHostStream)]

    @property
    def ir(self):
        return self._ir

    @property
    def device(self):
        return self._device_desc

    @property
    def is_attached(self):
        return self._depth > 0

    def __enter__(self):
        self._depth += 1
        return self

    def __exit__(self, *exc):
        self._depth -= 1
        return False

    def weights_from_host(self):
        """Variables live in one place here: nothing to copy."""

    def weights_to_host(self):
        """Variables live in one place here: nothing to copy."""

    def _check_attached(self, what):
        if not self.is_attached:
            raise ValueError(f"Session.{what}: the session is not attached to a device: call it inside `with session:`")

    def _host_shape(self, stream):
        shape = list(stream.shape)
        if self._ir.replication_factor > 1:
            shape = [self._ir.replication_factor] + shape
        if self._ir.num_host_transfers > 1:
            shape = [self._ir.num_host_transfers] + shape
        return tuple(shape)

    def _feed(self, inputs):
        inputs = inputs or {}
        if len(inputs) != len(self._h2d) or any(s not in inputs for s in self._h2d):
            for s in self._h2d:
                if s not in inputs:
                    raise ValueError(f"Session.run: no input for the h2d stream {s.name} (inputs are given for every "
                                     "h2d stream of the IR)")
            for s in inputs:
                if s not in self._h2d:
                    raise ValueError(f"Session.run: {s!r} is not an h2d stream of this IR")
        for s, data in inputs.items():
            name, want = self._h2d[s]
            arr = data if isinstance(data, np.ndarray) else np.asarray(data)
            if arr.shape != want:
                if arr.size != 1 or int(np.prod(want)) != 1:
                    raise ValueError(f"Session.run: input for {s.name} has shape {arr.shape}, expected {want} "
                                     f"([num_host_transfers] + [replication] + stream shape)")
                arr = arr.reshape(want)
            self._engine.feed(name, arr)

    def run(self, inputs=None, downcast_inputs=True):
        """Runs the main graph once; returns {d2h stream: array} (PopXL `Session.run`)."""
        self._check_attached("run")
        self._feed(inputs)
        self._engine.run(1)
        self._print_output()
        read = self._engine.read
        return {s: read(name).reshape(shape) for s, name, shape in self._d2h}

    def run_with_outputs(self, inputs=None, outputs=None, downcast_inputs=True):
        """Runs once and writes each d2h stream's data into the arrays of `outputs`."""
        self._check_attached("run_with_outputs")
        self._feed(inputs)
        self._engine.run(1)
        self._print_output()
        for s, target in (outputs or {}).items():
            data = self._read_stream(s)
            if target.shape != data.shape:
                raise ValueError(f"run_with_outputs: the array for {s.name} has shape {target.shape}, expected {data.shape}")
            np.copyto(target, data, casting="unsafe")

    def _print_output(self):
        text = self._engine.output()
        if text:
            print(text, end="")

    def _read_stream(self, stream):
        data = self._engine.read("$" + stream.name)
        return data.reshape(self._host_shape(stream))

    def get_tensor_data(self, tensor):
        """The value of a variable or constant (PopXL `Session.get_tensor_data`)."""
        if not isinstance(tensor, (Variable, Constant)):
            raise TypeError(f"get_tensor_data: {tensor!r} is not a variable or constant")
        if tensor._graph is not self._ir.main_graph:
            raise ValueError(f"get_tensor_data: {tensor!r} is not a tensor of this session's main graph")
        return self._engine.read("%" + tensor.name)

    def get_tensors_data(self, tensors):
        return {t: self.get_tensor_data(t) for t in tensors}

    def write_variable_data(self, tensor, data):
        """Overwrites a variable (PopXL `Session.write_variable_data`)."""
        if not isinstance(tensor, Variable):
            raise TypeError(f"write_variable_data: {tensor!r} is not a variable")
        self._engine.write("%" + tensor.name, np.asarray(data))

    def write_variables_data(self, data):
        for t, d in data.items():
            self.write_variable_data(t, d)
