# After 20 errors `pir check` stops: "too many errors", exit status 1.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# RUN: not %pir check %s 2>&1 | grep -c "error: unknown op" | FileCheck %s --check-prefix=COUNT
const %a : f32[2] = 1
%r1 = bogus1 %a
%r2 = bogus2 %a
%r3 = bogus3 %a
%r4 = bogus4 %a
%r5 = bogus5 %a
%r6 = bogus6 %a
%r7 = bogus7 %a
%r8 = bogus8 %a
%r9 = bogus9 %a
%r10 = bogus10 %a
%r11 = bogus11 %a
%r12 = bogus12 %a
%r13 = bogus13 %a
%r14 = bogus14 %a
%r15 = bogus15 %a
%r16 = bogus16 %a
%r17 = bogus17 %a
%r18 = bogus18 %a
%r19 = bogus19 %a
%r20 = bogus20 %a
%r21 = bogus21 %a
%r22 = bogus22 %a
%r23 = bogus23 %a
%r24 = bogus24 %a
%r25 = bogus25 %a
# CHECK: too_many_errors.pir:5:7: error: unknown op 'bogus1'
# CHECK: too_many_errors.pir:24:8: error: unknown op 'bogus20'
# CHECK-NEXT: %r20 = bogus20 %a
# CHECK-NEXT: ^
# CHECK-NEXT: pir: error: too many errors emitted (20), stopping now
# CHECK-NOT: bogus21
# COUNT: {{^}}20{{$}}
