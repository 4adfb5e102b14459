# Printing a zero-size tensor is bounded by what is printed: with more than
# 1000 empty lists it is summarised (it wrote `[]` once per index, 10^14 times).
# RUN: %pir run %s | FileCheck %s
d2h $y : f32[100000000000000, 0]
d2h $s : f32[2, 0]
d2h $e : f32[0, 100000000000000, 100000000000000]
main {}
print $y
print $s
print $e
# CHECK: $y: f32[100000000000000,0] = {{\[\[\], \[\], \[\], \.\.\., \[\], \[\], \[\]\]$}}
# CHECK-NEXT: $s: f32[2,0] = {{\[\[\], \[\]\]$}}
# CHECK-NEXT: $e: f32[0,100000000000000,100000000000000] = []
