# `pir dot`: Graphviz DOT of the graphs. Ops are boxes, tensors edges labelled
# with their types, graph inputs and returns ellipses, calls dashed edges into
# the callee's cluster; an exchange block is a nested cluster. The output is
# valid DOT: Graphviz renders it.
# RUN: %pir dot %s | FileCheck %s
# RUN: %pir dot %s | dot -Tsvg > %t.svg && FileCheck %s --check-prefix=SVG < %t.svg
# RUN: %pir dot %s --graph=@step -o %t.dot && FileCheck %s --check-prefix=ONE < %t.dot
# RUN: not %pir dot %s --graph=@nope 2>&1 | FileCheck %s --check-prefix=NOPE
h2d $x : f32[2]
d2h $y : f32[2]
graph @step(%acc: f32[2], %w: &f32[2]) -> (f32[2]) {
  %x = host_load $x
  %a = mul %x, 2
  %b = add %acc, %a
  return %b
}
graph @pos(%v: f32[2]) -> (f32[2]) {
  return %v
}
graph @neg(%v: f32[2]) -> (f32[2]) {
  %n = neg %v
  return %n
}
main {
  var %w : f32[2] = [1, 2]
  const %z : f32[2] = 0
  %s = repeat @step(%z, %w) {count = 3}
  %m = sum %s
  %p = greater %m, 0
  %r = conditional %p, @pos(%s), @neg(%s)
  exchange {
    host_store $y, %r
    %x = host_load $x
  }
}
# CHECK: digraph pir {
# CHECK-NEXT:   compound=true;
# CHECK:   subgraph "cluster_g_step" {
# CHECK-NEXT:     label="@step";
# CHECK:     "g_step:in0" [shape=ellipse, label="%acc: f32[2]"];
# CHECK-NEXT:     "g_step:in1" [shape=ellipse, label="&%w: f32[2]"];
# CHECK-NEXT:     "g_step:op0" [shape=box, label="host_load"];
# CHECK-NEXT:     "g_step:op1" [shape=box, label="mul"];
# CHECK-NEXT:     "g_step:lit0" [shape=plaintext, label="2"];
# CHECK-NEXT:     "g_step:op2" [shape=box, label="add"];
# CHECK-NEXT:     "g_step:return" [shape=ellipse, label="return"];
# CHECK:   subgraph "cluster_main" {
# CHECK:     "main:op4" [shape=cylinder, label="var %w"];
# CHECK-NEXT:     "main:op5" [shape=note, label="const %z"];
# CHECK-NEXT:     "main:op6" [shape=box, label="repeat x3"];
# CHECK:     "main:op9" [shape=box, label="conditional"];
# CHECK-NEXT:     subgraph "cluster_main:ex0" {
# CHECK-NEXT:       label="exchange";
# CHECK-NEXT:       style=dashed;
# CHECK-NEXT:       "main:op10" [shape=box, label="host_store"];
# CHECK-NEXT:       "main:op11" [shape=box, label="host_load"];
# CHECK-NEXT:     }
# CHECK:   "$x" [shape=cds, label="h2d $x\nf32[2]"];
# CHECK-NEXT:   "$y" [shape=cds, label="d2h $y\nf32[2]"];
# CHECK:   "g_step:op1" -> "g_step:op2" [label="%a: f32[2]"];
# CHECK:   "main:op6" -> "g_step:anchor" [label="body", style=dashed, lhead="cluster_g_step"];
# CHECK:   "main:op9" -> "g_pos:anchor" [label="then", style=dashed, lhead="cluster_g_pos"];
# CHECK:   "main:op9" -> "g_neg:anchor" [label="else", style=dashed, lhead="cluster_g_neg"];
# CHECK:   "main:op10" -> "$y" [label="%r: f32[2]"];
# CHECK: }
# SVG: <svg
# SVG: <title>cluster_g_step</title>
# SVG: <title>main:op6&#45;&gt;g_step:anchor</title>
# ONE: subgraph "cluster_g_step" {
# ONE-NOT: cluster_main
# NOPE: pir: error: no graph @nope in
