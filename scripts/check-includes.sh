#!/usr/bin/env bash
# check-includes.sh SOURCE_DIR — DESIGN.md: the library (include/, src/) never depends on the optimizer
# (ir/ gen/ emit/ search/ check/). Fails on any #include of those folders from include/ or src/.
set -euo pipefail
cd "$1"
hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](\.\./)*(ir|gen|emit|search|check)/' include src || true)
if [ -n "$hits" ]; then
  echo "check-includes: the library reaches into the optimizer:" >&2
  echo "$hits" >&2
  exit 1
fi
echo "check-includes: include/ and src/ include nothing from ir/ gen/ emit/ search/ check/"
