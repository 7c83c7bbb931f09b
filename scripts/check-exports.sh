#!/usr/bin/env bash
# check-exports.sh CC NM LIBECOPT.so INCLUDE_DIR — the shared library exports exactly the functions declared in the
# public headers (INCLUDE_DIR/ecopt/*.h): `NM -D --defined-only` against the names of the function declarations,
# read from the headers preprocessed by CC as the library sees them (ECOPT_BUILDING). Fails, listing both sides'
# differences, on an exported internal symbol (a missing -fvisibility=hidden) or on a declared function that is not
# exported (a declaration without ECOPT_API, or a function never defined).
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: check-exports.sh CC NM LIBECOPT.so INCLUDE_DIR" >&2
  exit 2
fi
cc=$1 nm=$2 lib=$3
inc=$(cd "$4" && pwd)
headers=("$inc"/ecopt/*.h)
[ -e "${headers[0]}" ] || { echo "check-exports: no headers in $inc/ecopt" >&2; exit 2; }
[ -f "$lib" ] || { echo "check-exports: $lib: no such file" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/check_exports.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Declared: every ecopt_ identifier followed by "(" once comments and macros are gone (the headers hold no calls).
for h in "${headers[@]}"; do printf '#include "%s"\n' "$h"; done >"$work/all.c"
"$cc" -E -P -DECOPT_BUILDING=1 -I "$inc" "$work/all.c" | tr '\n' ' ' |
  grep -oE '\becopt_[A-Za-z0-9_]*[[:space:]]*\(' | sed -E 's/[[:space:]]*\($//' | sort -u >"$work/declared"
# Exported: every defined dynamic symbol, whatever its name or kind.
"$nm" -D --defined-only "$lib" | awk 'NF >= 3 {print $3}' | sed 's/@.*//' | sort -u >"$work/exported"

n=$(wc -l <"$work/declared")
if [ "$n" -eq 0 ]; then
  echo "check-exports: found no function declarations in ${headers[*]}" >&2
  exit 1
fi
if ! cmp -s "$work/declared" "$work/exported"; then
  echo "check-exports: $lib does not export exactly the functions of $inc/ecopt/*.h:" >&2
  comm -13 "$work/declared" "$work/exported" | sed 's/^/  exported but not declared (internal, should be hidden): /' >&2
  comm -23 "$work/declared" "$work/exported" | sed 's/^/  declared but not exported (missing ECOPT_API?): /' >&2
  exit 1
fi
echo "check-exports: $(basename "$lib") exports exactly the $n functions declared in include/ecopt/"
