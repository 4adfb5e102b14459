#!/bin/sh
# The REPL on a terminal: banner, prompt, echo, continuation prompt of a graph
# typed line by line, Ctrl-C abandoning an input, Ctrl-D leaving.
. "$(dirname "$0")/common.inc"

start_pir
expect_screen '^pir 0\.1\.0 - type :help for help$'
expect_last_line 'pir>'

type_text 'var %w : f32[2] = [1, 2]'; press Enter
expect_screen '^%w: f32\[2\] = \[1, 2\]$'

type_text 'graph @sq(%a: f32[2]) -> (f32[2]) {'; press Enter
expect_last_line '...>'
type_text '  %b = mul %a, %a'; press Enter
expect_last_line '...>'
type_text '  return %b'; press Enter
type_text '}'; press Enter
expect_screen '^@sq\(f32\[2\]\) -> \(f32\[2\]\)$'
expect_last_line 'pir>'

# Ctrl-C drops a half-typed input, including an open graph.
type_text 'graph @half(%a: f32[2]) {'; press Enter
expect_last_line '...>'
press C-c
expect_last_line 'pir>'
type_text ':graphs'; press Enter
expect_screen '^@sq\(f32\[2\]\) -> \(f32\[2\]\)$'
screen | grep -q '^@half' && fail "the abandoned graph @half was defined"

# An error leaves the session as it was; the next statement works.
type_text '%y = add %w, %nope'; press Enter
expect_screen '^<repl>:[0-9]+:14: error: '
type_text '%y = call @sq(%w)'; press Enter
expect_screen '^%y: f32\[2\]'

press C-d
expect_exit 1
echo PASS
