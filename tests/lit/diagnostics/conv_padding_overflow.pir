# Shape rules use checked arithmetic: padding that overflows int64 is an error
# blaming the padding (it overflowed, and the error blamed the window).
# RUN: not %pir check %s 2>&1 | FileCheck %s
var %x : f32[1, 1, 4, 4] = zeros
var %w : f32[1, 1, 2, 2] = zeros
main {
  %y = conv %x, %w {padding = [9223372036854775807, 0, 9223372036854775807, 0]}
}
# CHECK: conv_padding_overflow.pir:7:{{[0-9]+}}: error: {{.*}}padding 9223372036854775807 + 9223372036854775807 {{.*}}longer than int64
