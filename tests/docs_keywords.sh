#!/bin/sh
# The keyword reference of docs/language.md §13 is generated from
# grammar/keywords.def (`pir help keywords --markdown`), between two marker
# lines. `check` (the test docs_keywords_current) compares the committed text
# with a fresh generation; `write` (`ninja -C build docs-keywords`) replaces it.
# usage: docs_keywords.sh PIR LANGUAGE_MD check|write
set -eu
pir=$1 doc=$2 mode=$3
begin='<!-- BEGIN keyword reference: generated from grammar/keywords.def by `ninja -C build docs-keywords` -->'
end='<!-- END keyword reference -->'
grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc" || { echo "$doc: the keyword reference markers are missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$pir" help keywords --markdown > "$tmp/table"
awk -v begin="$begin" -v end="$end" -v table="$tmp/table" '
  $0 == begin { print; while ((getline line < table) > 0) print line; skipping = 1; next }
  $0 == end { skipping = 0 }
  !skipping { print }' "$doc" > "$tmp/doc"
if [ "$mode" = write ]; then
  cat "$tmp/doc" > "$doc"
else
  diff -u "$doc" "$tmp/doc" || { echo "docs/language.md's keyword reference is stale: run ninja -C build docs-keywords"; exit 1; }
fi
