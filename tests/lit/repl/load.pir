# `pir repl FILE` loads FILE first without echo; `:load FILE` reads a file the
# same way. Diagnostics in a loaded file name the file; a failed load is undone.
# (Inputs/*.lib are pir files with a suffix lit does not take for tests.)
# RUN: cd %S/Inputs && not %pir repl twice.lib < %s > %t.out 2> %t.err
# RUN: FileCheck %s --match-full-lines < %t.out
# RUN: FileCheck %s --check-prefix=ERR < %t.err
%y = call @twice(%w)
# CHECK:%y: f32[2] = [2, 4]  (preview: `run` computes it)
:load bad.lib
# ERR:bad.lib:3:14: error:
# ERR-NEXT:  %q = add %v, %missing
:type %v
# ERR:<repl>:12:7: error: no value %v in the main graph
:load twice.lib
# ERR:twice.lib:1:{{[0-9]+}}: error: {{.*}}twice
print %w
# CHECK-NEXT:%w: f32[2] = [1, 2]
