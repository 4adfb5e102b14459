"""popxl: Graphcore's PopXL Python API, running on pir's emulated IPU.

Programs written for PopXL build and run unchanged: `popxl.Ir`, graphs traced
from Python functions, tensors, streams, remote buffers, replicas, autodiff and
sessions. Every graph is pir IR (`Ir.to_pir()` prints it as `.pir`), built and
verified by pir's front end and run by its VM.
"""
from . import dtypes
from .context import gcg, get_current_graph, get_main_graph, in_sequence, name_scope
from .dtypes import (bool, dtype, double, float, float16, float32, float64, half, int8, int16, int32, int64,
                     uint8, uint16, uint32, uint64)
from .graph import Graph
from .ir import Ir
from .module import Module
from .replica_grouping import ReplicaGrouping
from .session import Session
from .streams import DeviceToHostStream, HostToDeviceStream, RemoteBuffer, d2h_stream, h2d_stream, remote_buffer
from .tensor import (Constant, Tensor, TensorByRef, TensorSpec, Variable, constant, graph_input, graph_output,
                     remote_variable, variable)
from . import ops  # noqa: E402  (ops needs the names above)
from . import transforms  # noqa: E402

__all__ = [name for name in dir() if not name.startswith("_")]
