# Names that end in a number are told apart by their text: %v1, %v01 and %v001
# are three values, %12 and %012 two; a second definition is reported whether the
# name's number is near its neighbours' or far beyond them.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK-NOT: error
const %v1 : f32[2] = 1
%v01 = neg %v1
%v001 = neg %v01
%v1000000 = add %v01, %v001
%12 = neg %v01
%012 = neg %12
# CHECK: numbered_names.pir:[[@LINE+2]]:1: error: redefinition of %v1000000
# CHECK: numbered_names.pir:9:1: note: %v1000000 is first defined here
%v1000000 = neg %v1
# CHECK: numbered_names.pir:[[@LINE+2]]:1: error: redefinition of %v1
# CHECK: numbered_names.pir:6:7: note: %v1 is first defined here
%v1 = neg %v001
# CHECK: numbered_names.pir:[[@LINE+1]]:10: error: neg: unknown value %v0001
%w = neg %v0001
# CHECK-NOT: error
