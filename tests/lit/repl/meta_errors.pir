# Unknown, ambiguous and malformed meta-commands are errors: they count as
# failed inputs (exit status 1) and change nothing. They are located like any
# other error: `<repl>:LINE:COL`, the line, a caret (at the argument at fault).
# RUN: not %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s --match-full-lines < %t.out
# RUN: FileCheck %s --check-prefix=ERR --match-full-lines < %t.err
:p
# ERR:<repl>:7:1: error: ambiguous command ':p': :print, :passes, :profile
# ERR-NEXT:  :p
# ERR-NEXT:  ^
:d
# ERR-NEXT:<repl>:11:1: error: ambiguous command ':d': :dot, :disasm
# ERR-NEXT:  :d
# ERR-NEXT:  ^
  :frobnicate
# ERR-NEXT:<repl>:15:3: error: unknown command ':frobnicate' (type :help for the list)
# ERR-NEXT:    :frobnicate
# ERR-NEXT:    ^
:type
# ERR-NEXT:<repl>:19:1: error: usage: :type %v|@g|$s
# ERR-NEXT:  :type
# ERR-NEXT:  ^
:type %absent
# ERR-NEXT:<repl>:23:7: error: no value %absent in the main graph
# ERR-NEXT:  :type %absent
# ERR-NEXT:        ^
:print @absent
# ERR-NEXT:<repl>:27:8: error: no graph @absent
# ERR-NEXT:  :print @absent
# ERR-NEXT:         ^
:undo
# ERR-NEXT:<repl>:31:1: error: nothing to undo
# ERR-NEXT:  :undo
# ERR-NEXT:  ^
:load does/not/exist.pir
# ERR-NEXT:pir: error: cannot read does/not/exist.pir: No such file or directory
var %ok : i32[] = 3
# CHECK:%ok: i32[] = 3
