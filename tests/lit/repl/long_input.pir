# Long REPL input (issue 11): a 20,000-line literal and 5,000 chained
# statements, each echoed with its preview; in-place writes between previews
# are seen by later ones. (Linearity itself is asserted by counters in
# tests/unit/interrupt_test.cpp and timed in bench/repl_bench.cpp.)
# RUN: %python %S/Inputs/long_input.py literal 20000 | %pir repl | FileCheck %s --check-prefix=LIT
# LIT: %m: f32[20000] = [0, 1, 2, ..., 5, 6, 0]
# RUN: %python %S/Inputs/long_input.py chain 5000 | %pir repl | FileCheck %s --check-prefix=CHAIN
# CHAIN: %x0: f32[2] = [1, 1]
# CHAIN: %x1: f32[2] = [2, 2]
# CHAIN: %x4999: f32[2] = [5000, 5000]
# The accumulate_ doubles %x0 before %y reads it; %x4999 was computed before.
# CHAIN-NEXT: %y: f32[2] = [5002, 5002]
