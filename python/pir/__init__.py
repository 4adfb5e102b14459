"""pir: IPU-style tensor programs as text.

`Module` parses, builds (text added piece by piece through pir's front end),
prints, verifies and transforms a program; `Session` runs it with NumPy arrays
in and out. Errors raise `pir.Error` with pir's located diagnostics.
"""
from ._pir import Error, Module, Session, literal_text, op_table

__all__ = ["Error", "Module", "Session", "literal_text", "op_table"]
