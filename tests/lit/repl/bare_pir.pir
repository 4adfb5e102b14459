# `pir` with no subcommand and a non-terminal stdin is the REPL in transcript
# mode: no banner, no prompt.
# RUN: %pir < %s 2>&1 | FileCheck %s --match-full-lines --implicit-check-not=pir
var %v : i32[3] = [1, 2, 3]
# CHECK:%v: i32[3] = [1, 2, 3]
%s = sum %v
# CHECK-NEXT:%s: i32[] = 6  (preview: `run` computes it)
