#!/usr/bin/env bash
# check-vartime.sh LIBECOPT.a — STYLE.md: every symbol with _vartime in its name is listed in
# scripts/vartime-symbols.txt (variable-time code is reviewed to run on public data only); fails on an unlisted one.
set -euo pipefail
lib=$1
list=$(dirname "$0")/vartime-symbols.txt
found=$(nm -g --defined-only "$lib" | awk '{print $3}' | grep -i vartime | sort -u || true)
bad=0
for s in $found; do
  if ! grep -qx "$s" "$list"; then
    echo "check-vartime: $s is variable-time but not listed in scripts/vartime-symbols.txt" >&2
    bad=1
  fi
done
[ "$bad" -eq 0 ] && echo "check-vartime: $(echo "$found" | grep -c . || true) listed _vartime symbols, none unlisted"
exit "$bad"
