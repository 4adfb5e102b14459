"""pir names from PopXL names (language.md §1: letters, digits, `_` and `.`)."""
import re

_bad = re.compile(r"[^A-Za-z0-9_.]")


def sanitize(name):
    s = _bad.sub("_", str(name)) or "t"
    return s


def unique(name, taken):
    """`name`, or `name_2`, `name_3`, ... : the first not in `taken` (which it joins)."""
    base = sanitize(name)
    candidate = base
    n = 2
    while candidate in taken:
        candidate = f"{base}_{n}"
        n += 1
    taken.add(candidate)
    return candidate
