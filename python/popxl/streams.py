"""Host streams and remote buffers (PopXL `h2d_stream`, `d2h_stream`, `remote_buffer`)."""
from . import context
from . import dtypes as _dtypes


class _Resource:
    def __init__(self, ir, pir_name, shape, dtype):
        self._ir = ir
        self._pir_name = pir_name
        self._shape = tuple(int(d) for d in shape)
        self._dtype = dtype

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def tensor_shape(self):
        return self._shape

    @property
    def tensor_dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._pir_name

    @property
    def spec(self):
        from .tensor import TensorSpec
        return TensorSpec(self._shape, self._dtype)

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __repr__(self):
        return f"{type(self).__name__}(${self._pir_name})"


class HostToDeviceStream(_Resource):
    pass


class DeviceToHostStream(_Resource):
    pass


class RemoteBuffer(_Resource):
    def __init__(self, ir, pir_name, shape, dtype, entries):
        super().__init__(ir, pir_name, shape, dtype)
        self._entries = entries

    @property
    def entries(self):
        return self._entries


def h2d_stream(shape, dtype, name=None):
    ir = context.gcg().ir
    return ir._declare_stream(HostToDeviceStream, tuple(shape), _dtypes.dtype.as_dtype(dtype), name or "h2d_stream")


def d2h_stream(shape, dtype, name=None):
    ir = context.gcg().ir
    return ir._declare_stream(DeviceToHostStream, tuple(shape), _dtypes.dtype.as_dtype(dtype), name or "d2h_stream")


def remote_buffer(tensor_shape, tensor_dtype, entries=1):
    ir = context.gcg().ir
    return ir._declare_remote_buffer(tuple(tensor_shape), _dtypes.dtype.as_dtype(tensor_dtype), int(entries))
