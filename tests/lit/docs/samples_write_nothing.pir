# Running a sample or a tutorial step in place (`pir run samples/X.pir`) writes
# nothing into samples/ or docs/: outputs go to the working directory or a
# temporary one. Checked on a copy of both folders.
# RUN: %python %S/Inputs/run_in_scratch.py %pir %S/../../.. | FileCheck %s
# CHECK: {{[0-9]+}} programs run
# CHECK-NEXT: nothing written next to them
