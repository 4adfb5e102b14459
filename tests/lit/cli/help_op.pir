# `pir help OP`: one op from the op table: usage with operand names, attributes
# and defaults, dtype rules, result type, gradient, in-place variant, aliases.
# RUN: %pir help sum | FileCheck %s --check-prefix=SUM --match-full-lines
# SUM: usage: %r = sum x {axis = all, keepdims = false}
# SUM: Attributes:
# SUM-NEXT:   axis: axes              default all
# SUM-NEXT:   keepdims: bool          default false
# SUM: Operand dtypes: numeric
# SUM-NEXT: Result:         the dtype of `x`; reduced axes removed (size 1 with `keepdims`)
# SUM-NEXT: Gradient:       ✓ differentiable
#
# RUN: %pir help add | FileCheck %s --check-prefix=ADD
# ADD: usage: %r = add x, y
# ADD: In place:       add_
# RUN: %pir help negate | FileCheck %s --check-prefix=NEGATE
# NEGATE: usage: %r = neg x
# NEGATE-NEXT: (`negate` is an alias of `neg`)
# NEGATE: Alias:          negate
# RUN: %pir help abs_ | FileCheck %s --check-prefix=EXT
# EXT: usage: [%r =] abs_ x
# EXT: Gradient:       ✗ none
# EXT: In place of:    abs (overwrites `x`)
# EXT: Extension:      not in the spec's op catalogue (ops.md)
# RUN: %pir help nll_loss | FileCheck %s --check-prefix=NLL
# NLL: usage: %r = nll_loss probs, labels[, weight] {reduction = mean, ignore_index = none (optional), log_prob = false}
# NLL: reduction: mean|sum|none   default mean
# NLL: ignore_index: int          optional; absent: none
# RUN: %pir help host_store | FileCheck %s --check-prefix=STORE
# STORE: usage: host_store s, t
# STORE: Gradient:       — not applicable
# RUN: %pir help remote_load_ | FileCheck %s --check-prefix=LOADINTO
# LOADINTO: usage: [%r =] remote_load_ b, offset, t
# LOADINTO: Result:         aliases `t`
# LOADINTO: In place of:    remote_load (overwrites `t`)
# RUN: not %pir help matmull 2>&1 | FileCheck %s --check-prefix=TYPO
# TYPO: pir: error: unknown command, keyword or op 'matmull'; did you mean 'matmul'?
# RUN: not %pir chek 2>&1 | FileCheck %s --check-prefix=CMD
# CMD: pir: error: unknown command 'chek'; did you mean 'check'?
