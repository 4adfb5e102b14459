# Writes a program whose main calls @g0, @g0 calls @g1, ... @g{N-1} adds 1:
# N nested graph activations (language.md §6: calls nest to any depth).
import sys

n = int(sys.argv[1])
out = ["ir {replication = 2}"]
for i in range(n - 1, -1, -1):
    body = "  %y = add %x, 1" if i == n - 1 else f"  %y = call @g{i + 1}(%x)"
    out.append(f"graph @g{i}(%x: f32[2]) -> (f32[2]) {{\n{body}\n  return %y\n}}")
out.append("main {\n  var %w : f32[2] = [1, 2]\n  %y = call @g0(%w)\n"
           "  %s = replicated_all_reduce %y {op = add}\n}\nrun\nprint %s")
print("\n".join(out))
