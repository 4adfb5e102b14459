"""PopXL's dtypes over pir's (language.md §2)."""
import numpy as np


class dtype:
    """A tensor element type: PopXL's name, pir's name and the NumPy type."""

    def __init__(self, name, pir_name, np_type, is_floating_point, is_int, is_signed):
        self._name = name
        self._pir_name = pir_name
        self._np_type = np.dtype(np_type)
        self.is_floating_point = is_floating_point
        self.is_int = is_int
        self.is_signed = is_signed

    @property
    def name(self):
        return self._name

    def as_numpy(self):
        return self._np_type

    @property
    def pir_name(self):
        return self._pir_name

    def __repr__(self):
        return f"popxl.dtypes.{self._name}"

    @classmethod
    def as_dtype(cls, value):
        """The dtype of a popxl dtype, a NumPy dtype or type, or a pir dtype name."""
        if isinstance(value, dtype):
            return value
        if isinstance(value, str) and value in _by_pir_name:
            return _by_pir_name[value]
        if isinstance(value, str) and value in _by_name:
            return _by_name[value]
        npd = np.dtype(value)
        if npd in _by_numpy:
            return _by_numpy[npd]
        raise TypeError(f"popxl has no dtype for {value!r}")


bool = dtype("bool", "bool", np.bool_, False, False, False)
int8 = dtype("int8", "i8", np.int8, False, True, True)
int16 = dtype("int16", "i16", np.int16, False, True, True)
int32 = dtype("int32", "i32", np.int32, False, True, True)
int64 = dtype("int64", "i64", np.int64, False, True, True)
uint8 = dtype("uint8", "u8", np.uint8, False, True, False)
uint16 = dtype("uint16", "u16", np.uint16, False, True, False)
uint32 = dtype("uint32", "u32", np.uint32, False, True, False)
uint64 = dtype("uint64", "u64", np.uint64, False, True, False)
float16 = dtype("float16", "f16", np.float16, True, False, True)
float32 = dtype("float32", "f32", np.float32, True, False, True)
float64 = dtype("float64", "f64", np.float64, True, False, True)
half = float16
float = float32
double = float64

_all = [bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64]
_by_name = {d.name: d for d in _all}
# pir stores i64/u64 as i32/u32 (PopXL's downcast): read back, they are 32-bit.
_by_pir_name = {d.pir_name: d for d in _all if d not in (int64, uint64)}
_by_numpy = {d.as_numpy(): d for d in _all}

# PopXL's downcast rule for data without a dtype: 64-bit types become 32-bit.
_downcast = {np.dtype(np.float64): float32, np.dtype(np.int64): int32, np.dtype(np.uint64): uint32}


def dtype_of_data(data, downcast=True):
    """The dtype PopXL gives host data: Python ints int32, floats float32, arrays their own (64-bit downcast)."""
    arr = np.asarray(data)
    if downcast and arr.dtype in _downcast:
        return _downcast[arr.dtype]
    if arr.dtype in (np.dtype(np.int64), np.dtype(np.uint64)):
        return _by_numpy[arr.dtype]
    return dtype.as_dtype(arr.dtype)
