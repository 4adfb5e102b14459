# A statement that starts with a word that is no op but is close to a keyword or
# session command is a misspelt keyword: the error is at the word, with the
# keyword and where its help is, instead of "unknown op" or an error further on
# ("expected ')'"). `check` goes on after each. The op table wins a tie only
# when an op is strictly closer.
# RUN: not %pir check %s 2>&1 | FileCheck %s
grpah @f(%x: f32[2]) -> (f32[2]) {
  return %x
}
h2d $x : f32[2]
d2h $y : f32[2]
graph @g(%x: f32[2]) -> (f32[2]) {
  retrun %x
}
mian {
  %x = host_load $x
}
main {
  vr %w : f32[2] = zeros
}
main {
  cnost %c : f32[2] = [1, 2]
}
main {
  exchnage {
    %a = host_load $x
  }
}
remote_bufer $b : f32[2]
autodif @g -> @g_grad
fed $x = [1, 2]
runn
prnt $y
wrte %w = [1, 2]
sve $y "y.npy"
# CHECK: did_you_mean_keywords.pir:7:1: error: unknown op or keyword 'grpah'; did you mean 'graph'? (`pir help graph`)
# CHECK-NEXT: grpah @f
# CHECK-NEXT: ^
# CHECK: did_you_mean_keywords.pir:13:3: error: unknown op or keyword 'retrun'; did you mean 'return'?
# CHECK: did_you_mean_keywords.pir:15:1: error: unknown op or keyword 'mian'; did you mean 'main'?
# CHECK: did_you_mean_keywords.pir:19:3: error: unknown op or keyword 'vr'; did you mean 'var'?
# CHECK: did_you_mean_keywords.pir:22:3: error: unknown op or keyword 'cnost'; did you mean 'const'?
# CHECK: did_you_mean_keywords.pir:25:3: error: unknown op or keyword 'exchnage'; did you mean 'exchange'?
# CHECK: did_you_mean_keywords.pir:29:1: error: unknown op or keyword 'remote_bufer'; did you mean 'remote_buffer'?
# CHECK: did_you_mean_keywords.pir:30:1: error: unknown op or keyword 'autodif'; did you mean 'autodiff'?
# CHECK: did_you_mean_keywords.pir:31:1: error: unknown op or keyword 'fed'; did you mean 'feed'?
# CHECK: did_you_mean_keywords.pir:32:1: error: unknown op or keyword 'runn'; did you mean 'run'?
# CHECK: did_you_mean_keywords.pir:33:1: error: unknown op or keyword 'prnt'; did you mean 'print'?
# CHECK: did_you_mean_keywords.pir:34:1: error: unknown op or keyword 'wrte'; did you mean 'write'?
# CHECK: did_you_mean_keywords.pir:35:1: error: unknown op or keyword 'sve'; did you mean 'save'?
# CHECK-NOT: error
