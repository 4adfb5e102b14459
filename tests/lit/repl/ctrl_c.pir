# Ctrl-C on a terminal during an endless `run` (tools.md §5): the run stops at
# the op being executed with a located error, %v keeps its value from before
# the run and the session goes on (exit status 1: an input failed).
# RUN: %python %S/Inputs/ctrl_c.py %pir | FileCheck %s
# CHECK: %v: f32[] = 7
# CHECK: <repl>:{{[0-9]+}}:{{[0-9]+}}: error: {{add|repeat|copy_var_update_}}: interrupted
# CHECK: %v: f32[] = 7
# CHECK: exit status 1
