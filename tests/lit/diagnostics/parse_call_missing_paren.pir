# A graph call needs its argument list.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_call_missing_paren.pir:7:8: error: expected '(' and the arguments of the call
graph @g() -> () {
  return
}
call @g
