# The first example of the PopXL user guide (simple_addition.py):
#
#   with main:
#       a = popxl.variable(1)
#       b = popxl.constant(2)
#       c = a + b
#       d2h_stream = popxl.d2h_stream(c.shape, c.dtype)
#       ops.host_store(d2h_stream, c)
#
# Python ints make int32 tensors. With no session command, `pir run` runs the
# main graph once and prints every d2h stream.
#
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
# The printed program runs exactly as the original:
# RUN: %pir opt %s > %t.pir && %pir run %t.pir | FileCheck %s --check-prefix=VALUES

d2h $c_stream : i32[]

main {
  var %a : i32[] = 1
  const %b : i32[] = 2
  %c = add %a, %b
  host_store $c_stream, %c
}

# VALUES: $c_stream: i32[] = 3
# VALUES-NOT: {{.}}

# IR: d2h $c_stream : i32[]
# IR: main {
# IR-NEXT:   var %a : i32[] = 1
# IR-NEXT:   const %b : i32[] = 2
# IR-NEXT:   %c = add %a, %b : i32[]
# IR-NEXT:   host_store $c_stream, %c
# IR-NEXT: }
