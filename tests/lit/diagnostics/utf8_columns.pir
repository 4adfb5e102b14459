# Columns count characters (UTF-8 code points), as clang and rustc do, and the
# caret lines up under the offending token after non-ASCII text: wide (CJK)
# characters take two cells, tabs are kept. `check` reports all three errors.
# RUN: not %pir check %s 2> %t.err
# RUN: FileCheck %s --strict-whitespace --match-full-lines < %t.err
const %a : f32[2] = 1
%c = print_tensor %a {title = "éééé", bogus = 1}
%d = print_tensor %a {title = "日本", bogus = 1}
%e = print_tensor %a {title = "x",	bogus = 1}
# CHECK:{{.*}}utf8_columns.pir:7:39: error: print_tensor: unknown attribute 'bogus'
# CHECK-NEXT:  %c = print_tensor %a {title = "éééé", bogus = 1}
# CHECK-NEXT:                                        ^
# CHECK-NEXT:{{.*}}utf8_columns.pir:8:37: error: print_tensor: unknown attribute 'bogus'
# CHECK-NEXT:  %d = print_tensor %a {title = "日本", bogus = 1}
# CHECK-NEXT:                                        ^
# CHECK-NEXT:{{.*}}utf8_columns.pir:9:36: error: print_tensor: unknown attribute 'bogus'
# CHECK-NEXT:  %e = print_tensor %a {title = "x",	bogus = 1}
# CHECK-NEXT:                                    	^
