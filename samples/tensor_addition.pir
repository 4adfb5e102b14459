# The PopXL user guide's tensor_addition.py: two host-to-device streams, one
# add, one device-to-host stream. The guide feeds np.random data; here the
# feeds are fixed so that the results can be checked.
#
#   input0 = popxl.h2d_stream([1], popxl.float32, name="input0_stream")
#   a = ops.host_load(input0, "a")
#   input1 = popxl.h2d_stream([1], popxl.float32, name="input1_stream")
#   b = ops.host_load(input1, "b")
#   o = ops.add(a, b)
#   o_d2h = popxl.d2h_stream(o.shape, o.dtype, name="output_stream")
#   ops.host_store(o_d2h, o)
#
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES

h2d $input0_stream : f32[1]
%a = host_load $input0_stream
h2d $input1_stream : f32[1]
%b = host_load $input1_stream
%o = add %a, %b
d2h $output_stream : f32[1]
host_store $output_stream, %o

feed $input0_stream = [1.5]
feed $input1_stream = [0.25]
run
print $output_stream, %a, %b
# VALUES: $output_stream: f32[1] = [1.75]
# VALUES-NEXT: %a: f32[1] = [1.5]
# VALUES-NEXT: %b: f32[1] = [0.25]

# A feed stays until fed again: only input0 changes.
feed $input0_stream = [-3]
run
print $output_stream
# VALUES-NEXT: $output_stream: f32[1] = [-2.75]

# Bare statements belong to main; declarations are gathered first, in order.
# IR: h2d $input0_stream : f32[1]
# IR-NEXT: h2d $input1_stream : f32[1]
# IR-NEXT: d2h $output_stream : f32[1]
# IR-EMPTY:
# IR-NEXT: main {
# IR-NEXT:   %a = host_load $input0_stream : f32[1]
# IR-NEXT:   %b = host_load $input1_stream : f32[1]
# IR-NEXT:   %o = add %a, %b : f32[1]
# IR-NEXT:   host_store $output_stream, %o
# IR-NEXT: }
# IR-NOT: feed
