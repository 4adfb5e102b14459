# An op whose operands are all literals cannot infer its dtype.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}all_literals.pir:4:10: error: add: cannot infer the dtype: declare a const
%y = add 1, 2
