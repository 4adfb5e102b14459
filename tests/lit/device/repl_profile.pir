# The REPL's :profile reports the program typed so far (no run yet); :dot
# writes its graphs as DOT. A transcript: each line is REPL input.
# RUN: rm -rf %t.d && mkdir -p %t.d && cd %t.d && %pir repl < %s | FileCheck %s
# RUN: dot -Tsvg %t.d/g.dot > /dev/null && FileCheck %s --check-prefix=DOT < %t.d/g.dot
h2d $x : f32[4]
%x = host_load $x
%y = exp %x
:profile
:dot g.dot
# CHECK: %y: f32[4]
# CHECK-NOT: runs executed
# f32[4] on tile 0: exp costs 50 + ceil(4/6) * 30 = 80, and a sync.
# CHECK: 230      1        80         0      150         0  %y = exp
# DOT: "$x" -> "main:op0" [label="$x: f32[4]"];
