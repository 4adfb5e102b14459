"""popxl.ops.var_updates: the in-place variable updates of pir's op table."""
from . import _TABLE, _make

for _name, _row in _TABLE.items():
    if _row["inplace"] or _name.startswith("adam_"):
        globals()[_name] = _make(_row)
