#!/usr/bin/env bash
# Every program in samples/ and tests/lit/ that `pir check` accepts and whose
# session commands all follow its definitions gives the same output and exit
# status under `--passes=merge-exchange` as without (tools.md: passes keep the
# program's results). Files with commands between statements run differently
# under any --passes (the commands wait for the whole file), so they are skipped.
# Usage: tests/merge_exchange_all.sh PIR SOURCE_DIR
set -u
pir=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
compared=0; merged=0; failed=0
while IFS= read -r -d '' f; do
  grep -q '^# corpus: check-only' "$f" && continue   # runs far too long to compare (see the file)
  "$pir" check "$f" >/dev/null 2>&1 || continue
  first=$(grep -nE '^[[:space:]]*(feed|run|print|write|save)([[:space:]]|$)' "$f" | head -1 | cut -d: -f1)
  if [ -n "$first" ]; then
    tail -n +"$first" "$f" | sed -e 's/#.*//' -e '/^[[:space:]]*$/d' |
      grep -qvE '^[[:space:]]*(feed|run|print|write|save)([[:space:]]|$)' && continue
  fi
  grep -q 'save ' "$f" && continue   # writes files next to the test
  # Bounded: a program that loops for hours must fail this test, not hang CI.
  timeout 60 "$pir" run "$f" > "$tmp/out1" 2>&1; s1=$?
  timeout 60 "$pir" run --passes=merge-exchange "$f" > "$tmp/out2" 2>&1; s2=$?
  if [ $s1 != $s2 ] || ! cmp -s "$tmp/out1" "$tmp/out2"; then
    echo "FAIL different results under merge-exchange: $f"; diff "$tmp/out1" "$tmp/out2" | head -5
    failed=$((failed+1))
  fi
  "$pir" opt --passes=merge-exchange "$f" 2>/dev/null | grep -q 'exchange {' && merged=$((merged+1))
  compared=$((compared+1))
done < <(find "$src/samples" "$src/tests/lit" -name '*.pir' -print0 | sort -z)
echo "merge-exchange: $compared programs compared, $merged with exchange blocks after the pass, $failed failed"
[ $failed = 0 ] && [ $compared -gt 50 ] && [ $merged -gt 3 ]
