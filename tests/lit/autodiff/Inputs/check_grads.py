#!/usr/bin/env python3
"""Compares pir's printed output with the `# EXPECT:` lines of a golden test.

usage: check_grads.py TEST.pir OUTPUT.txt

Every output line must match the next EXPECT line: the text between numbers
exactly (names, types, brackets), the numbers within 1e-4 relative, plus an
absolute slack of 1e-5 times the largest magnitude on that line (a gradient
element that cancels to about zero in float64 is noise-sized in f32). nan/inf
must match exactly. The expectations come from Inputs/oracle.py (PyTorch, or
NumPy formulas where the spec differs from PyTorch, in float64); numbers are
parsed here without NumPy so the check runs anywhere lit does.
"""
import re
import sys

RTOL = 1e-4
ATOL_OF_MAX = 1e-5

# A number token: not part of a name (%d2x, f32, grad.x1) or of a longer token.
NUMBER = re.compile(r"(?<![\w.%$@])(-?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))(?![\w.])")


def split(line):
    """(skeleton, numbers): the line with each number replaced by '#', and the numbers."""
    nums = [float(m.group(1)) for m in NUMBER.finditer(line)]
    return NUMBER.sub("#", line), nums


def close(got, want, slack):
    if want != want or got != got:  # nan
        return want != want and got != got
    if abs(want) == float("inf") or abs(got) == float("inf"):
        return got == want
    return abs(got - want) <= RTOL * abs(want) + slack


def main():
    test, output = sys.argv[1], sys.argv[2]
    want = [l.split("# EXPECT:", 1)[1].strip() for l in open(test) if l.startswith("# EXPECT:")]
    got = [l.rstrip("\n") for l in open(output) if l.strip()]
    if not want:
        sys.exit("%s: no '# EXPECT:' lines" % test)
    errors = []
    for i in range(max(len(want), len(got))):
        w = want[i] if i < len(want) else "<nothing>"
        g = got[i] if i < len(got) else "<nothing>"
        ws, wn = split(w)
        gs, gn = split(g)
        if ws != gs or len(wn) != len(gn):
            errors.append("line %d: expected\n  %s\ngot\n  %s" % (i + 1, w, g))
            continue
        finite = [abs(x) for x in wn if x == x and abs(x) != float("inf")]
        slack = ATOL_OF_MAX * max(finite, default=0.0)
        bad = [(k, a, b) for k, (a, b) in enumerate(zip(gn, wn)) if not close(a, b, slack)]
        if bad:
            k, a, b = bad[0]
            errors.append("line %d: %d number(s) differ, first #%d: got %r, expected %r\n  expected %s\n  got      %s" %
                          (i + 1, len(bad), k, a, b, w, g))
    if errors:
        print("\n".join(errors))
        sys.exit(1)


if __name__ == "__main__":
    main()
