"""Writes a little-endian f32 NPY file: `write_npy.py OUT V1 V2 ...` (1-D)."""
import struct
import sys

out, values = sys.argv[1], [float(v) for v in sys.argv[2:]]
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
header += " " * (127 - 10 - len(header)) + "\n"  # data starts at byte 128
with open(out, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%df" % len(values), *values))
