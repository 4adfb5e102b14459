# Two remote variables cannot share one buffer entry (each would overwrite the
# other); an omitted offset is entry 0.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}remote_shared_entry.pir:12:33: error: var %v: entry 0 of $wb is already the home of %w
# CHECK-NEXT: {{^}}    var %v : f32[2] = 0 {remote = $wb}
# CHECK: {{.*}}remote_shared_entry.pir:11:7: note: %w is declared here
# CHECK: {{.*}}remote_shared_entry.pir:14:47: error: var %t: entry 1 of $wb is already the home of %u
# CHECK: {{.*}}remote_shared_entry.pir:13:7: note: %u is declared here
remote_buffer $wb : f32[2] {entries = 2}
main {
  var %w : f32[2] = [1, 2] {remote = $wb, offset = 0}
  var %v : f32[2] = 0 {remote = $wb}
  var %u : f32[2] = 0 {remote = $wb, offset = 1}
  var %t : f32[2] = 0 {remote = $wb, offset = 1}
}
