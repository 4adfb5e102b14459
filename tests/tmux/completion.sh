#!/bin/sh
# Tab completion of a main-graph % name, an op name and a meta-command.
. "$(dirname "$0")/common.inc"

start_pir
expect_last_line 'pir>'
type_text 'var %weights : f32[2] = [1, 2]'; press Enter
expect_screen '^%weights: f32\[2\] = \[1, 2\]$'

type_text '%y = add %wei'; press Tab
expect_last_line 'pir> %y = add %weights'
type_text ', %weights'; press Enter
expect_screen '^%y: f32\[2\] = \[2, 4\]  \(preview: `run` computes it\)$'

type_text '%z = softp'; press Tab
expect_last_line 'pir> %z = softplus'
type_text '%y'; press Enter
expect_screen '^%z: f32\[2\]'

type_text ':gra'; press Tab
expect_last_line 'pir> :graphs'
press Enter
expect_last_line 'pir>'
press C-d
expect_exit 0
echo PASS
