# 20,000 nested graph calls run on the interpreter's heap frame stack (no native
# recursion), in every replica, then meet at a collective.
# RUN: %python %S/Inputs/call_chain.py 20000 > %t.pir
# RUN: %pir run %t.pir | FileCheck %s
# RUN: %pir run --threads=1 %t.pir | FileCheck %s
# CHECK: %s: f32[2,2] = {{\[\[}}4, 6], [4, 6]]
