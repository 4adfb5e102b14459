# A d2h stream no run has written has no value yet, as a main value before its
# run: `print` and `save` say so (the default run of a file without commands
# still prints every d2h stream). After a run it prints.
# RUN: not %pir run %s 2>&1 | FileCheck %s
# CHECK: {{.*}}print_unwritten_stream.pir:15:7: error: print: d2h stream $y has no value yet: `run` computes it (a host_store to $y writes it)
# CHECK-NEXT: {{^}}  print $y
# CHECK-NEXT: {{^}}        ^
# CHECK-NEXT: {{.*}}print_unwritten_stream.pir:10:5: note: $y is declared here
# CHECK-NOT: $y: f32
d2h $y : f32[2]
main {
  const %c : f32[2] = [1, 2]
  host_store $y, %c
}
print $y
run
print $y
