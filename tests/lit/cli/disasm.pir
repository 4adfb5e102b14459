# `pir disasm`: every graph's bytecode, one instruction a line, with the op's
# source location; a collective shows its resolved replica grouping.
# RUN: %pir disasm %s | FileCheck %s
ir {replication = 4}
graph @twice(%a: f32[2]) -> (f32[2]) {
  %b = add %a, %a
  return %b
}
const %x : f32[2] = 1
%y = replicated_all_reduce %x {group = (1, 2)}
%z = call @twice(%y)
# CHECK: @twice
# CHECK: kernel add {{.*}}disasm.pir:6:8
# CHECK: collective replicated_all_reduce group=(1, 2) s{{[0-9]+}}(%x) -> s{{[0-9]+}}(%y) {{.*}}disasm.pir:10:6
# CHECK: call call @twice {{.*}}disasm.pir:11:6
