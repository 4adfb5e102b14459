# Unknown, ambiguous and malformed meta-commands are errors: they count as
# failed inputs (exit status 1) and change nothing.
# RUN: not %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s --match-full-lines < %t.out
# RUN: FileCheck %s --check-prefix=ERR --match-full-lines < %t.err
:p
# ERR:pir: error: ambiguous command ':p': :print, :passes, :profile
:d
# ERR-NEXT:pir: error: ambiguous command ':d': :dot, :disasm
:frobnicate
# ERR-NEXT:pir: error: unknown command ':frobnicate' (type :help for the list)
:type
# ERR-NEXT:pir: error: usage: :type %v|@g|$s
:type %absent
# ERR-NEXT:pir: error: no value %absent in the main graph
:print @absent
# ERR-NEXT:pir: error: no graph @absent
:undo
# ERR-NEXT:pir: error: nothing to undo
:load does/not/exist.pir
# ERR-NEXT:pir: error: cannot read does/not/exist.pir: No such file or directory
var %ok : i32[] = 3
# CHECK:%ok: i32[] = 3
