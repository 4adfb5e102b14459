#!/bin/sh
# `pir repl FILE` on a terminal: the banner first, then what FILE prints, then the
# prompt. FILE loads w.npy relative to its own directory; :dot then writes the
# program (the relative load included) without failing.
. "$(dirname "$0")/common.inc"

mkdir -p "$TMP_HOME/prog"
printf '\223NUMPY\001\000v\000' > "$TMP_HOME/prog/w.npy"
printf "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }" >> "$TMP_HOME/prog/w.npy"
# Pad the header to 118 bytes, then a newline: 128 bytes before the data.
header_len=$(( 10 + $(printf "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }" | wc -c) ))
printf "%$(( 127 - header_len ))s\n" "" >> "$TMP_HOME/prog/w.npy"
printf '\000\000\200\077\000\000\000\100' >> "$TMP_HOME/prog/w.npy"  # 1.0f, 2.0f
cat > "$TMP_HOME/prog/model.pir" <<'PIR'
var %w : f32[2] = load("w.npy")
%d = add %w, %w
run
print %d
PIR

start_pir repl prog/model.pir
expect_last_line 'pir>'
first=$(screen | sed -n 1p)
second=$(screen | sed -n 2p)
[ "$first" = "pir 0.1.0 - type :help for help" ] || fail "the banner is not the first line: '$first'"
[ "$second" = "%d: f32[2] = [2, 4]" ] || fail "FILE's output does not follow the banner: '$second'"

type_text ':dot g.dot'; press Enter
expect_last_line 'pir>'
screen | grep -q 'error' && fail ":dot failed"
grep -q 'digraph' "$TMP_HOME/g.dot" || fail ":dot wrote no graph"
press C-d
expect_exit 0
echo PASS
