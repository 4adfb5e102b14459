# Memory per input character: a 10 MB input line costs the REPL a few bytes per
# byte at most, whatever it holds (the completeness scan and the parser read it
# in place; nothing makes an object per token). Peak RSS, not time, is checked.
# Not under ASan: its shadow memory alone passes the bound.
# UNSUPPORTED: asan
# RUN: %python %S/Inputs/peak_rss.py %pir 100 brackets 10000000 | FileCheck %s
# RUN: %python %S/Inputs/peak_rss.py %pir 100 brackets_after_op 10000000 | FileCheck %s
# RUN: %python %S/Inputs/peak_rss.py %pir 100 closers 10000000 | FileCheck %s
# RUN: %python %S/Inputs/peak_rss.py %pir 100 commas 10000000 | FileCheck %s
# RUN: %python %S/Inputs/peak_rss.py %pir 100 string 10000000 | FileCheck %s
# CHECK: diagnostic: <repl>:1:
# CHECK-NEXT: peak RSS within 100 MiB
