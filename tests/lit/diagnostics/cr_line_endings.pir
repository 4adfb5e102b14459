# A lone CR ends a line (classic Mac files) as LF and CRLF do: a comment stops at
# it instead of swallowing the file, and diagnostics count and quote its lines.
# RUN: printf '# a comment\rconst %%%%x : f32[2] = [1, 2]\r%%%%y = add %%%%x, %%%%x\rrun\rprint %%%%y\r' > %t.cr.pir
# RUN: %pir run %t.cr.pir | FileCheck %s --check-prefix=OUT
# RUN: printf '# a comment\r\nconst %%%%x : f32[2] = [1, 2]\r\n%%%%y = add %%%%x, %%%%q\r\n' > %t.crlf.pir
# RUN: not %pir run %t.crlf.pir 2>&1 | FileCheck %s --check-prefix=CRLF
# RUN: printf '# a comment\rconst %%%%x : f32[2] = [1, 2]\r%%%%y = add %%%%x, %%%%q\r' > %t.bad.pir
# RUN: not %pir run %t.bad.pir 2>&1 | FileCheck %s --check-prefix=BAD
# OUT: %y: f32[2] = [2, 4]
# CRLF: crlf.pir:3:14: error: add: unknown value %q
# BAD: bad.pir:3:14: error: add: unknown value %q
# BAD-NEXT: {{^}}  %y = add %x, %q{{$}}
