#!/bin/sh
# Ctrl-C during a long preview (matmuls of 256x256 under --preview-steps=2^40:
# minutes of work) stops the preview, not the input: the statement is kept, the
# echo says it was not previewed, and the session goes on (exit status 0).
. "$(dirname "$0")/common.inc"

start_pir repl --preview-steps=1099511627776
expect_last_line 'pir>'
type_text 'var %m : f32[256,256] = 0.001'; press Enter
expect_screen '^%m: f32\[256,256\] = '
type_text 'graph @mm(%x: f32[256,256]) -> (f32[256,256]) {'; press Enter
type_text '  %y = matmul %x, %x'; press Enter
type_text '  return %y'; press Enter
type_text '}'; press Enter
expect_screen '^@mm\(f32\[256,256\]\) -> \(f32\[256,256\]\)$'
expect_last_line 'pir>'
type_text '%r = repeat @mm(%m) {count = 1000000}'; press Enter
sleep 1
screen | grep -q '^%r:' && fail "the preview ended before Ctrl-C: make it longer"
press C-c
expect_screen '^(\^C)?%r: f32\[256,256\]  \(not previewed: interrupted\)$'
expect_last_line 'pir>'
# The statement is kept: %r has its type and can be used.
type_text ':type %r'; press Enter
expect_screen '^%r: f32\[256,256\]$'
type_text '%s = sum %m'; press Enter
expect_screen '^%s: f32\[\] = 65\.5'
press C-d
expect_exit 0
echo PASS
