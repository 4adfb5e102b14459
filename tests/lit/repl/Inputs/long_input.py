"""Writes long REPL input to stdout: `literal N` (an N-line literal) or
`chain N` (N chained statements, then an in-place write and one more)."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
if kind == "literal":
    print("var %%m : f32[%d] = [" % n)
    for i in range(n - 1):
        print("%d," % (i % 7))
    print("%d]" % ((n - 1) % 7))
else:
    print("var %x0 : f32[2] = 1")
    for i in range(1, n):
        print("%%x%d = add %%x%d, %%x0" % (i, i - 1))
    print("accumulate_ %x0, %x0")
    print("%%y = add %%x%d, %%x0" % (n - 1))
