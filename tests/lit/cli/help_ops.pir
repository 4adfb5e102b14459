# `pir help ops` is the op reference generated from the op table (ir/ops.def).
# RUN: %pir help ops | FileCheck %s
# CHECK: | op | operands | attributes | grad | in place |
# CHECK: | `add` | 2 |  | yes |  |
# CHECK: | `maximum` | 2+ |  | yes |  |
# CHECK: | `add_` | 2 |  | no | yes |
# CHECK: | `sum` | 1 | `axis:axes=all, keepdims:bool=false` | yes |  |
# CHECK: | `repeat` | 0+ | `count:int` | no |  |
# CHECK: | `host_load` | 1 |  | - |  |
# CHECK-NOT: `var`
