# Writes a program with one long line: KIND is `data` (a const of N elements) or
# `operands` (a concat of N operands).
import sys
kind, n = sys.argv[1], int(sys.argv[2])
if kind == "data":
    print("const %%c : f32[%d] = [%s]" % (n, ", ".join(["1"] * n)))
else:
    print("const %a : f32[1] = 1")
    print("%%s = concat %s" % ", ".join(["%a"] * n))
