#!/bin/sh
# Memory per input byte (decisions.md "Resource budgets"): a 10 MB line of each
# kind the parser keeps elements of (operands, attribute lists, literal data,
# names, types, dims, results, print targets, parameters, strings, brackets)
# stays within 100 MB of peak RSS in `pir check`, `pir run` and the REPL: it
# either reads in that room or stops at a located error. Peak RSS from
# /usr/bin/time (GNU time's %M, in KiB); no time is asserted.
# Usage: tests/long_lines_memory.sh PIR
pir=${1:?usage: long_lines_memory.sh PIR}
limit_kib=$((100 * 1024))
[ -x /usr/bin/time ] || { echo "long_lines_memory: /usr/bin/time is missing: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# line FILE PREFIX ITEM SEPARATOR SUFFIX: appends one line of about 10 MB, the
# item repeated between prefix and suffix; N in the prefix becomes the count.
line() {
  awk -v prefix="$2" -v item="$3" -v sep="$4" -v suffix="$5" 'BEGIN {
    n = int((10 * 1024 * 1024 - length(prefix) - length(suffix) - 8) / (length(item) + length(sep)))
    gsub(/N/, n, prefix)
    chunk = item; for (k = 1; k < 1000; ++k) chunk = chunk sep item
    printf "%s%s", prefix, item
    for (k = 1; k + 1000 <= n; k += 1000) printf "%s%s", sep, chunk
    for (; k < n; ++k) printf "%s%s", sep, item
    printf "%s\n", suffix
  }' >> "$1"
}

# kind NAME [PREFIX_LINE]: the file $tmp/NAME.pir starts with PREFIX_LINE; the
# caller appends the long line.
kind() {
  f="$tmp/$1.pir"
  : > "$f"
  [ -z "$2" ] || printf '%s\n' "$2" >> "$f"
}

a='const %a : f32[1] = 1'
kind operands "$a";        line "$f" '%s = concat ' '%a' ', ' ''
kind variadic "$a";        line "$f" '%s = maximum ' '%a' ', ' ''
kind call_args "$a";       line "$f" '%s = call @g(' '%a' ', ' ')'
kind return_values "graph @g() {";  line "$f" 'return ' '%a' ', ' ''; echo '}' >> "$f"
kind perm "$a";            line "$f" '%s = transpose %a {perm = [' '0' ', ' ']}'
kind ints "$a";            line "$f" '%s = reshape %a {shape = [' '1' ',' ']}'
kind floats "$a";          line "$f" '%s = concat %a {values = [' '0.5' ',' ']}'
kind words "$a";           line "$f" '%s = concat %a {x = [' 'w' ',' ']}'
kind strings "$a";         line "$f" '%s = concat %a {x = (' '""' ',' ')}'
kind value_refs "$a";      line "$f" '%s = concat %a {x = [' '%a' ',' ']}'
kind nested_attrs "$a";    line "$f" '%s = concat %a {x = [' '[1]' ',' ']}'
kind const_data "";        line "$f" 'const %c : f32[N] = [' '1' ', ' ']'
kind const_rows "";        line "$f" 'const %c : f32[N,1] = [' '[1]' ',' ']'
kind const_shorter "";     line "$f" 'const %c : f32[1] = [' '1' ',' ']'
kind var_data "";          line "$f" 'var %v : f32[N] = [' '1' ',' ']'
kind feed_data "";         line "$f" 'h2d $x : f32[N]; feed $x = [' '1' ', ' ']'
kind dims "";              line "$f" 'const %c : f32[' '1' ',' '] = 1'
kind results "$a";         line "$f" '' '%r' ', ' ' = concat %a'
kind result_types "$a";    line "$f" '%s = concat %a : ' 'f32[1]' ', ' ''
kind print_targets "$a";   line "$f" 'print ' '%a' ', ' ''
kind params "";            line "$f" 'graph @g(' '%p: f32[1]' ', ' ') {}'
kind exchange "$a";        line "$f" 'exchange { ' '%b = copy %a' '; ' ' }'
kind long_name "$a";       line "$f" '%' 'n' '' ' = neg %a'
kind long_string "$a";     line "$f" '%s = concat %a {x = "' 'x' '' '"}'
kind brackets "";          line "$f" '' '[' '' ''
kind comment "$a";         line "$f" '# ' 'x' '' ''

for f in "$tmp"/*.pir; do
  name=$(basename "$f" .pir)
  for mode in check run repl; do
    if [ $mode = repl ]; then
      /usr/bin/time -f %M -o "$tmp/rss" "$pir" repl < "$f" > "$tmp/out" 2> "$tmp/err"
    else
      /usr/bin/time -f %M -o "$tmp/rss" "$pir" $mode "$f" > "$tmp/out" 2> "$tmp/err"
    fi
    code=$?
    rss=$(tail -n 1 "$tmp/rss")
    # Exit 0 or 1 (an error in the input), never a crash or the system's refusal.
    if [ $code -gt 1 ] || grep -q 'out of memory\|Command terminated' "$tmp/err" "$tmp/rss"; then
      echo "FAIL $name ($mode): exit $code: $(head -c 300 "$tmp/err")"
      status=1
    elif [ "$rss" -gt $limit_kib ]; then
      echo "FAIL $name ($mode): peak RSS $rss KiB > $limit_kib KiB"
      status=1
    elif [ $code -eq 1 ] && ! grep -q ':[0-9][0-9]*:[0-9][0-9]*: error: ' "$tmp/err"; then
      echo "FAIL $name ($mode): an error without a location: $(head -c 300 "$tmp/err")"
      status=1
    else
      echo "ok   $name ($mode): peak RSS $rss KiB, exit $code"
    fi
  done
done
exit $status
