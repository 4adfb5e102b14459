# Writes a program whose split has N results and whose concat has N operands.
import sys
n = int(sys.argv[1])
names = ", ".join("%%p%d" % i for i in range(n))
print("d2h $y : f32[%d]" % n)
print("d2h $z : f32[3]")
print("const %%x : f32[%d] = [%s]" % (n, ", ".join(str(i) for i in range(n))))
print("main {")
print("  %s = split %%x {axis = 0, splits = [%s]}" % (names, ", ".join(["1"] * n)))
print("  %%c = concat %s {axis = 0}" % names)
print("  host_store $y, %c")
print("  %%e = concat %%p0, %%p1, %%p%d {axis = 0}" % (n - 1))
print("  host_store $z, %e")
print("}")
