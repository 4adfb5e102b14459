# The REPL runs 20,000 nested graph calls too (the interpreter's heap frames;
# issue 11): the loaded file runs and prints, then a typed `print` reads the result.
# RUN: %python %S/Inputs/call_chain.py 20000 > %t.pir
# RUN: %pir repl %t.pir < %s | FileCheck %s
print %s
# CHECK: %s: f32[2,2] = {{\[\[}}4, 6], [4, 6]]
# CHECK: %s: f32[2,2] = {{\[\[}}4, 6], [4, 6]]
