# The IR an input makes (ops, their uses and results) is charged to the
# host-memory budget, checked before it is made: an op whose result count comes
# from an attribute, or a file of many small statements, is a located error at
# the statement that crosses the budget in check, run and the REPL, not an
# exhausted machine.
# RUN: not %pir run --max-memory=8M %s 2>&1 | FileCheck %s --check-prefix=SEEDS
# RUN: env PIR_MAX_MEMORY=8M not %pir check %s 2>&1 | FileCheck %s --check-prefix=SEEDS
# RUN: not %pir repl --max-memory=8M < %s 2>&1 | FileCheck %s --check-prefix=REPL
# SEEDS: ir_budget.pir:[[@LINE+9]]:8: error: split_random_seed: out of host memory: {{[0-9]+}} bytes {{.*}}more would exceed the budget of 8388608 bytes (8 MiB)
# REPL: <repl>:[[@LINE+8]]:8: error: split_random_seed: out of host memory: {{[0-9]+}} bytes {{.*}}more would exceed the budget of 8388608 bytes (8 MiB)
#
# RUN: %python -c "print('main {\n  const %%a : f32[] = 1'); print(''.join('  %%v' + str(i) + ' = neg %%a\n' for i in range(200000))); print('}')" > %t.many.pir
# RUN: not %pir run --max-memory=16M %t.many.pir 2>&1 | FileCheck %s --check-prefix=MANY
# RUN: not %pir repl --max-memory=16M < %t.many.pir 2>&1 | FileCheck %s --check-prefix=MANY
# MANY: :{{[0-9]+}}:{{[0-9]+}}: error: out of host memory: {{[0-9]+}} bytes more would exceed the budget of 16777216 bytes (16 MiB)
main {
  const %s : u32[2] = [1, 2]
  %a = split_random_seed %s {n = 60000}
}
