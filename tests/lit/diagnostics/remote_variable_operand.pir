# A remote variable lives in its buffer entry: using it as an operand without
# remote_load is an error whose note shows the load to write (as PopXL, where a
# remote variable has no device tensor).
# RUN: not %pir check %s 2>&1 | FileCheck %s
# RUN: not %pir run %s 2>&1 | FileCheck %s
# CHECK: {{.*}}remote_variable_operand.pir:18:12: error: add: %w is a remote variable: its value lives in remote buffer $wb and is read with remote_load
# CHECK-NEXT: {{^}}    %y = add %w, 0
# CHECK-NEXT: {{^}}             ^
# CHECK-NEXT: {{.*}}remote_variable_operand.pir:14:7: note: %w is declared here: its home is entry 1 of $wb
# CHECK-NEXT: {{.*}}remote_variable_operand.pir:18:12: note: load it first: `%w_now = remote_load $wb, 1`, then use %w_now
remote_buffer $wb : f32[2] {entries = 2}
d2h $o : f32[2]
main {
  var %w : f32[2] = [1, 2] {remote = $wb, offset = 1}
  %cur = remote_load $wb, 1
  %n = mul %cur, 3
  remote_store $wb, 1, %n
  %y = add %w, 0
  host_store $o, %y
}
run
print $o, %w
