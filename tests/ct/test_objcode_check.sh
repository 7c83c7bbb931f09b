#!/usr/bin/env bash
# test_objcode_check.sh CC CHECKER — ct.objcode_selftest: scripts/check-ct-objdump.py must reject planted leaks in
# object code the compiler CC makes at -O2 and accept constant-time code, so that ct.objcode_ifma's pass means
# something. tests/ct/objcode/: leak_branch.c (a branch on a secret byte), leak_index.c (a table read at a secret
# index, from memory and passed by value), clean.c (a masked scan of a table indexed by a loop counter; a loop over a
# count passed by value, accepted only once that register is declared public). Exit 0 all as expected, 1 otherwise,
# 77 (skip) without objdump.
set -u
cc=$1
checker=$2
src=$(dirname "$0")/objcode
command -v "${OBJDUMP:-objdump}" > /dev/null || { echo "SKIP: no objdump"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/objcode-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
for f in leak_branch leak_index clean; do
    $cc -O2 -fPIC -c "$src/$f.c" -o "$tmp/$f.o" || { echo "FAIL: $cc cannot compile $f.c" >&2; exit 1; }
done

# want CODE FILE ARGS...: the checker exits CODE; its output in $tmp/out
want() {
    local code=$1 r
    shift
    python3 "$checker" "$@" > "$tmp/out" 2>&1
    r=$?
    [ $r -eq "$code" ] || fail "check-ct-objdump.py $*: exit $r, want $code: $(cat "$tmp/out")"
}
want 1 "$tmp/leak_branch.o"
grep -qE '^leak_branch\.o: planted_branch\+0x[0-9a-f]+: j[a-z]+ .*: a conditional branch on flags that may depend on a secret$' \
    "$tmp/out" || fail "the secret branch is not named: $(cat "$tmp/out")"
want 1 "$tmp/leak_index.o"
grep -qE '^leak_index\.o: planted_index\+0x[0-9a-f]+: .*: memory index %r[a-z0-9]+ may depend on a secret$' "$tmp/out" ||
    fail "the secret table index (from memory) is not named: $(cat "$tmp/out")"
grep -qE '^leak_index\.o: planted_index_arg\+0x[0-9a-f]+: .*: memory index %r[a-z0-9]+ may depend on a secret$' \
    "$tmp/out" || fail "the table index passed by value is not named: $(cat "$tmp/out")"
# the public count is an argument: rejected as such until declared, and only that function
want 1 "$tmp/clean.o"
grep -q 'planted_count+' "$tmp/out" || fail "the loop over an undeclared argument is accepted: $(cat "$tmp/out")"
! grep -q 'planted_select+' "$tmp/out" || fail "the masked table scan is rejected: $(cat "$tmp/out")"
want 0 --public 'planted_count:rdx:the count is public' "$tmp/clean.o"
grep -q '^note: planted_count: %rdx taken as public: the count is public$' "$tmp/out" ||
    fail "the declared exception is not printed with its reason: $(cat "$tmp/out")"
grep -q '^check-ct-objdump: 2 function(s), [0-9]* instructions, 0 violation(s)' "$tmp/out" ||
    fail "clean.o: not both functions checked: $(cat "$tmp/out")"
# --skip takes a function out (with a reason); --expect-functions fails when nothing checked matches
want 0 --skip 'planted_count:variable time by design' "$tmp/clean.o"
want 1 --expect-functions 'no_such_function' --public 'planted_count:rdx:public' "$tmp/clean.o"
grep -q 'no checked function matches no_such_function' "$tmp/out" || fail "--expect-functions: $(cat "$tmp/out")"
# objects from a list file (@FILE), as ctest passes a target's objects
printf '%s\n' "$tmp/leak_branch.o" "$tmp/clean.o" > "$tmp/list"
want 1 "@$tmp/list"
grep -q 'planted_branch+' "$tmp/out" || fail "@FILE: the objects in the list are not checked: $(cat "$tmp/out")"
want 2 "$tmp/missing.o"
[ $fails -eq 0 ] && echo "ok: planted leaks rejected, constant-time code accepted ($cc)"
[ $fails -eq 0 ]
