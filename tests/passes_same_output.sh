#!/usr/bin/env bash
# Every program of samples/ and tests/lit/ that `pir run` runs without error
# prints byte for byte the same (standard output, standard error, exit status)
# under each pass (fold-transposes, fold-broadcasts and fuse-matmul-updates included:
# they compute what the compile-time lowering computes) and under the pipeline inline,fold-constants,decompose-sum,dce
# as without passes (tools.md §1: passes leave the program's results unchanged).
# Files that expect errors (or are not programs: REPL transcripts) are skipped.
# The trees are copied to a temporary directory first, so that `save` writes
# there and relative load() paths still resolve.
# Usage: tests/passes_same_output.sh PIR SOURCE_DIR
set -u
pir=$(realpath "$1"); src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tree/tests"
cp -r "$src/samples" "$tmp/tree/samples"
cp -r "$src/tests/lit" "$tmp/tree/tests/lit"
pipelines=(dce inline fold-constants fold-transposes fold-broadcasts fuse-matmul-updates decompose-sum
           inline,fold-constants,decompose-sum,dce)
compared=0; failed=0
while IFS= read -r -d '' f; do
  case "$f" in */Inputs/*) continue ;; esac
  grep -q '^# corpus: check-only' "$f" && continue   # runs far too long to compare (see the file)
  (cd "$(dirname "$f")" && timeout 60 "$pir" run "$(basename "$f")" > "$tmp/plain.out" 2> "$tmp/plain.err")
  [ $? = 0 ] || continue
  for p in "${pipelines[@]}"; do
    (cd "$(dirname "$f")" && timeout 60 "$pir" run "$(basename "$f")" --passes="$p" --verify-each \
        > "$tmp/pass.out" 2> "$tmp/pass.err")
    status=$?
    if [ $status != 0 ] || ! cmp -s "$tmp/plain.out" "$tmp/pass.out" || ! cmp -s "$tmp/plain.err" "$tmp/pass.err"; then
      echo "FAIL --passes=$p: ${f#$tmp/tree/} (exit $status)"
      diff "$tmp/plain.out" "$tmp/pass.out" | head -5
      diff "$tmp/plain.err" "$tmp/pass.err" | head -5
      failed=$((failed+1))
    fi
    compared=$((compared+1))
  done
done < <(find "$tmp/tree" -name '*.pir' -print0 | sort -z)
echo "passes: $compared runs compared, $failed differ"
[ $failed = 0 ] && [ $compared -gt 100 ]
