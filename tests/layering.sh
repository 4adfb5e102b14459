#!/bin/sh
# Layer boundaries (DEVELOPERS.md "Layering"): each library may include only
# itself and the layers below it. Fails listing every include that points up.
#   grammar, ir      -> (nothing of ours but themselves)
#   frontend         -> grammar, ir
#   passes, device   -> ir
#   vm               -> ir, device
#   importers/onnx   -> the public header pir/ only (its own library over the C++ API)
#   api              -> everything below repl (and its public header pir/)
#   python           -> the public header pir/ only (the bindings use the C++ API alone)
#   repl             -> the public headers pir/ only (the `pir` tool and its REPL
#                       are thin over the C++ API)
#   include/pir      -> the public headers pir/ only (and the standard library):
#                       the API's enums come from pir/tables.h, generated from
#                       ir/'s tables (api/public_tables.cmake), not from ir/
src=${1:?usage: layering.sh SOURCE_DIR}
status=0
check() {
  dir=$1; shift
  [ -d "$src/$dir" ] || return 0
  allowed="$dir $*"
  for f in "$src/$dir"/*.h "$src/$dir"/*.hpp "$src/$dir"/*.cpp "$src/$dir"/*.def; do
    [ -f "$f" ] || continue
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
      inc=$(printf '%s\n' "$line" | sed 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
      top=${inc%%/*}
      [ "$top" = "$inc" ] && continue   # same-directory include
      ok=no
      for a in $allowed; do [ "$top" = "$a" ] && ok=yes; done
      if [ $ok = no ]; then
        echo "layering: ${f#$src/}:${line%%:*}: $dir/ must not include $inc"
        echo x >> "$tmp"
      fi
    done
  done
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
check grammar
check ir
check frontend grammar ir
check passes ir
check device ir
check vm ir device
check importers/onnx importers pir
check api pir grammar ir frontend passes device vm
check python pir
check repl pir
check include/pir pir
if [ -s "$tmp" ]; then exit 1; fi
echo "layering: ok"
