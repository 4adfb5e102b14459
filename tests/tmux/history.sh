#!/bin/sh
# Persistent history: a line typed in one session is recalled with Up in the
# next, from $HOME/.pir_history; Ctrl-R searches it.
. "$(dirname "$0")/common.inc"

start_pir
expect_last_line 'pir>'
type_text 'var %remembered : f32[1] = 7'; press Enter
expect_screen '^%remembered: f32\[1\] = \[7\]$'
type_text ':quit'; press Enter
expect_exit 0
grep -q 'remembered' "$TMP_HOME/.pir_history" || fail "history file lacks the line"

start_pir
expect_last_line 'pir>'
press Up
press Up
expect_last_line 'pir> var %remembered : f32[1] = 7'
press Enter
expect_screen '^%remembered: f32\[1\] = \[7\]$'

# Ctrl-R: incremental search backwards.
type_text ':graphs'; press Enter
# Wait for the prompt before searching, as a person would: keys typed ahead of
# the prompt reach libedit's search mode in a different order.
expect_last_line 'pir>'
press C-r
type_text 'rememb'
expect_last_line 'bck:rememb'
expect_screen '^pir> var %remembered : f32\[1\] = 7$'
press C-c
expect_last_line 'pir>'
press C-d
expect_exit 0
echo PASS
