# `pir help ops` is the op reference generated from the op table (ir/ops.def):
# operand names, attributes with defaults, gradient, in-place variants, aliases,
# extensions. `--markdown` gives docs/ops.md (the test docs_ops_current checks the
# committed file against it).
# RUN: %pir help ops | FileCheck %s
# CHECK: Elementwise unary:
# CHECK: abs x{{ +}}✓  in place: abs_{{$}}
# CHECK: neg x{{ +}}✓  in place: neg_  alias: negate{{$}}
# CHECK: clip x {min = -inf, max = inf}{{ +}}✓  in place: clip_{{$}}
# CHECK: abs_ x{{ +}}✗  [ext]{{$}}
# CHECK: Elementwise binary and ternary:
# CHECK: maximum x, y, ...{{ +}}✓  in place: maximum_{{$}}
# CHECK: scaled_add x, y[, a, b] {a = 1, b = 1}{{ +}}✗  in place: scaled_add_{{$}}
# CHECK: Reductions and normalisation:
# CHECK: sum x {axis = all, keepdims = false}{{ +}}✓{{$}}
# CHECK: Control flow (language.md §6):
# CHECK: repeat @body(args...) {count}{{ +}}✗{{$}}
# CHECK: IO and copies (exchange ops, language.md §8):
# CHECK: host_load s{{ +}}—{{$}}
# CHECK-NOT: var
#
# RUN: %pir help ops --markdown | FileCheck %s --check-prefix=MD
# MD: # Op reference
# MD: | op | operands | attributes | operand dtypes | result | grad | in place | notes |
# MD: | `abs_` | `x` |  | numeric (not bool) | aliases `x` | ✗ |  | **extension** (not in the spec's ops.md); in place: overwrites `x` with `abs` |
# MD: | `add` | `x, y` |  | numeric, all equal | that dtype, the NumPy broadcast of the shapes | ✓ | `add_` |  |
# RUN: not %pir help ops --json 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: pir: error: unknown option '--json' for 'help'
