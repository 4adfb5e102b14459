#!/usr/bin/env bash
# For every program in samples/, tests/lit/ and docs/tutorial/ that `pir check` accepts:
#  1. `pir opt` is a fixed point (opt of opt's output gives the same text);
#  2. where the session commands all come after the definitions, the canonical
#     text followed by those commands runs to the same output as the original.
# Usage: tests/roundtrip_all.sh PIR SOURCE_DIR
# Nothing is written into SOURCE_DIR (it may be read-only): the programs are
# copied to a temporary mirror, where printed copies sit next to their originals
# (load() paths are relative) and where `save` commands write.
set -u
pir=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/tests"
cp -r "$2/samples" "$tmp/src/" && cp -r "$2/tests/lit" "$tmp/src/tests/" && chmod -R u+w "$tmp/src"
src=$tmp/src
checked=0; ran=0; failed=0
is_command() { [[ "$1" =~ ^[[:space:]]*(feed|run|print|write|save)([[:space:]]|$) ]]; }
while IFS= read -r -d '' f; do
  grep -q '^# corpus: check-only' "$f" && continue   # runs far too long to compare (see the file)
  "$pir" check "$f" >/dev/null 2>&1 || continue
  dir=$(dirname "$f")
  # The printed text is re-read next to the original: load() paths are relative.
  rm -f "$tmp/b.err"
  "$pir" opt "$f" > "$dir/.roundtrip_tmp.pir" 2>/dev/null && "$pir" opt "$dir/.roundtrip_tmp.pir" > "$tmp/b.pir" 2>"$tmp/b.err"
  mv "$dir/.roundtrip_tmp.pir" "$tmp/a.pir"
  # A load("F") after `save X "F"` in the same text is not checked at the parse
  # (decisions.md): the printed program has no commands, so F never appears for it.
  if grep -q 'cannot open' "$tmp/b.err" && grep -qE '^[[:space:]]*save[[:space:]]' "$f"; then continue; fi
  if ! cmp -s "$tmp/a.pir" "$tmp/b.pir"; then echo "FAIL fixed point: $f"; failed=$((failed+1)); continue; fi
  checked=$((checked+1))
  # Session commands: from the first command line on, only commands may follow.
  first=$(grep -nE '^[[:space:]]*(feed|run|print|write|save)([[:space:]]|$)' "$f" | head -1 | cut -d: -f1)
  [ -n "$first" ] || continue
  tail -n +"$first" "$f" | sed -e 's/#.*//' -e '/^[[:space:]]*$/d' > "$tmp/cmds"
  ok=1; while IFS= read -r line; do is_command "$line" || ok=0; done < "$tmp/cmds"
  [ $ok = 1 ] || continue
  grep -q 'load(' "$tmp/cmds" "$f" && continue   # relative paths: the copy lives elsewhere
  cp "$tmp/a.pir" "$dir/.roundtrip_tmp.pir"; cat "$tmp/cmds" >> "$dir/.roundtrip_tmp.pir"
  # Bounded: a program that loops for hours must fail this test, not hang CI.
  timeout 60 "$pir" run "$f" > "$tmp/out1" 2>&1; s1=$?
  timeout 60 "$pir" run "$dir/.roundtrip_tmp.pir" > "$tmp/out2" 2>&1; s2=$?
  rm -f "$dir/.roundtrip_tmp.pir"
  sed -i "s#$(basename "$f")#FILE#; s#.roundtrip_tmp.pir#FILE#" "$tmp/out1" "$tmp/out2"
  if [ $s1 != $s2 ] || ! diff -q <(grep -v '^ ' "$tmp/out1" | sed -E 's/FILE:[0-9]+:[0-9]+/FILE/') \
                                  <(grep -v '^ ' "$tmp/out2" | sed -E 's/FILE:[0-9]+:[0-9]+/FILE/') >/dev/null; then
    echo "FAIL same results: $f"; diff "$tmp/out1" "$tmp/out2" | head -5; failed=$((failed+1))
  fi
  ran=$((ran+1))
done < <(find "$src/samples" "$src/tests/lit" "$src/docs/tutorial" -name '*.pir' -print0 | sort -z)
echo "roundtrip: $checked fixed points, $ran re-runs compared"
echo "$((checked + ran - failed)) passed, $failed failed"
[ $failed = 0 ] && [ $checked -gt 50 ] && [ $ran -gt 20 ]
