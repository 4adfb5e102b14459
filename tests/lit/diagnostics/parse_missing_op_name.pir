# Results need an op after `=`.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_missing_op_name.pir:4:5: error: expected an op name after '='
%y = 
