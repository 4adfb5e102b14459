"""popxl.ops.collectives: the replica collectives of pir's op table (runtime.md §5)."""
from . import _TABLE, _make

for _name, _row in _TABLE.items():
    if _name.startswith("replicated_"):
        globals()[_name] = _make(_row)
