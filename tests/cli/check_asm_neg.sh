#!/usr/bin/env bash
# check_asm_neg.sh SOURCE_DIR — scripts/check-asm.sh (ctest style.no_handwritten_asm) must fail on each way of
# slipping unproved code into the library that a review found or that its rules name, and pass on the real tree.
# Each case is a scratch copy of include/ and src/ with one change.
set -euo pipefail
src=$(cd "$1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/check_asm_neg.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0

fresh() {
  rm -rf "$work/t"
  mkdir -p "$work/t"
  cp -r "$src/include" "$src/src" "$work/t/"
}

# expect NAME WANT: check-asm.sh on the scratch tree fails with a message matching WANT ("" = must pass).
expect() {
  local out rc=0
  out=$("$src/scripts/check-asm.sh" "$work/t" 2>&1) || rc=$?
  if [ -z "$2" ]; then
    if [ $rc -ne 0 ]; then echo "FAIL $1: the untouched tree fails: $out"; fails=$((fails + 1)); fi
  elif [ $rc -eq 0 ] || ! grep -qE -- "$2" <<< "$out"; then
    echo "FAIL $1: expected a failure matching '$2', got rc $rc: $out"
    fails=$((fails + 1))
  else
    echo "ok   $1"
  fi
}

gen=src/field/generated
S=ecopt_fe_mul_adx51

fresh; expect "untouched tree" ""

fresh; mkdir -p "$work/t/src/misc"
printf '#define ASM __asm__\nint f(void) { ASM volatile("ud2"); return 0; }\n' > "$work/t/src/misc/a.c"
expect "asm renamed by a macro" "not an empty barrier"

fresh; printf 'int g(void) { __asm__ volatile("nop"); return 0; }\n' > "$work/t/src/ct_extra.c"
expect "non-empty inline asm" "not an empty barrier"

fresh; printf 'int g(void) {\n  __asm__ volatile(\n    "nop");\n  return 0;\n}\n' > "$work/t/src/ct_extra.h"
expect "multi-line inline asm" "not an empty barrier"

fresh; printf 'int h(void) { /* asm( */ return 0; }\n' > "$work/t/src/ok_comment.c"
expect "asm in a comment only" ""

fresh; printf '__asm__ volatile("mulx %%rax, %%rbx, %%rcx");\n' > "$work/t/src/b.inc"
expect "asm in a .inc file" "may not hold"

fresh; { sed -n '1,/^ \*\//p' "$src/$gen/$S.S"; printf '\t.text\n\t.globl\tevil\nevil:\n\tret\n'; } > "$work/t/$gen/evil.s"
expect "a lower-case .s with a PROVED header" "may not hold"

fresh; mkdir -p "$work/t/$gen/sub"; cp "$src/$gen/$S.S" "$work/t/$gen/sub/$S.S"
expect "a .S below generated/" "below src/field/generated"

fresh; printf '\t.text\n\t.globl\tecopt_unproved_extra\necopt_unproved_extra:\n\tmovq $0, (%%rdi)\n\tret\n' >> "$work/t/$gen/$S.S"
expect "a second function appended" "not the optimizer's shape"

fresh; sed -i 's/^\t\.size\t/\t.section .init_array\n\t.quad 0\n\t.text\n&/' "$work/t/$gen/$S.S"
expect "a constructor section in the body" "not the optimizer's shape"

fresh; sed -i '0,/^\tret$/s//\tnop; ud2\n\tret/' "$work/t/$gen/$S.S"
expect "two statements on one line" "not the optimizer's shape"

fresh; sed -i '0,/^\tret$/s//.Lhidden:\n\tret/' "$work/t/$gen/$S.S"
expect "a label in the body" "not the optimizer's shape"

fresh; sed -i 's/^\t\.globl\t.*/\t.globl\tother_name/' "$work/t/$gen/$S.S"
expect "a .globl that is not the file's name" "not the optimizer's shape"

fresh; sed -i 's/^ \* Checker: .*/ * Checker:   UNCHECKED/' "$work/t/$gen/$S.S"
expect "no PROVED verdict" "PROVED verdict"

if [ $fails -ne 0 ]; then echo "$fails case(s) failed"; exit 1; fi
echo "all cases behaved"
