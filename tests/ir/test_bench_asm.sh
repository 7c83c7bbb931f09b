#!/usr/bin/env bash
# test_bench_asm.sh — ecopt_bench_asm (bench/bench_asm.c) end to end, briefly: a committed .S against itself gives
# one run line with three ratios near 1 and a summary line; bad input exits 2 with a message naming the problem.
# Not a timing assertion beyond "a function against its own copy is within 0.5x-2x".
# Usage: test_bench_asm.sh ECOPT_BENCH_ASM SOURCE_DIR
set -u
tool=$1
src=$2
ir=$src/src/curve/formulas/ge_madd_adx.ir
s=$src/src/field/generated/ecopt_ge_madd_fused_adx.S
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-bench-asm-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

"$tool" --ir "$ir" --runs 2 --rounds 5 --cpu 0 "$s" "$s" "$s" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "exit $rc: $(cat "$tmp/err")"
[ "$(grep -c '^run ' "$tmp/out")" = 2 ] || fail "want 2 run lines: $(cat "$tmp/out")"
grep -q '^ratio to A, median \[min-max\] over 2 runs:  B [0-9.]* \[.*\]  C ' "$tmp/out" || fail "no summary: $(cat "$tmp/out")"
# every ratio of the copies to A within [0.5, 2]
awk '/^run /{ for (i = 1; i <= NF; i++) if ($i == "/") { r = $(i + 1); if (r < 0.5 || r > 2) bad = 1 } }
     END { exit bad }' "$tmp/out" || fail "a copy's ratio outside [0.5, 2]: $(cat "$tmp/out")"

# bad input: exit 2, one message naming it
printf 'not assembly\n' > "$tmp/bad.S"
printf '\t.globl f\nf:\n\tfoo %%rax\n' > "$tmp/badinsn.S"
check2() { # want-regex args...
    local want=$1
    shift
    "$tool" "$@" > /dev/null 2> "$tmp/err2"
    local r=$?
    [ $r -eq 2 ] || fail "$*: exit $r, want 2"
    grep -qE -- "$want" "$tmp/err2" || fail "$*: stderr '$(cat "$tmp/err2")' lacks /$want/"
}
mkdir "$tmp/td"
export TMPDIR=$tmp/td # the tool's temporary directory goes here and must be gone after every exit
check2 'no \.globl symbol' --ir "$ir" "$s" "$tmp/bad.S"
check2 'cc -fPIC -shared failed' --ir "$ir" "$s" "$tmp/badinsn.S"
check2 'No such file' --ir "$ir" "$s" "$tmp/missing.S"
check2 'at least two' --ir "$ir" "$s"
check2 '--ir is required' "$s" "$s"
check2 'unknown option' --ir "$ir" --bogus "$s" "$s"
check2 'out of range' --ir "$ir" --runs 0 "$s" "$s"
check2 'nosuch.ir' --ir "$tmp/nosuch.ir" "$s" "$s"
check2 'Shapes line has 3 arrays, the program 11' --ir "$ir" "$s" "$src/src/field/generated/ecopt_fe_mul_adx.S"
check2 'given more than once' --ir "$ir" --runs 2 --runs 3 "$s" "$s"
check2 'not a CPU this process may run on' --ir "$ir" --cpu 4095 "$s" "$s"
# terminated while it assembles (16 files take a while): it removes its directory, then dies of the signal (SIGTERM
# and SIGHUP, 128 + signal number; not SIGINT: a background job of a script ignores it, and the tool leaves an
# ignored signal ignored)
for sig in TERM:143 HUP:129; do
    "$tool" --ir "$ir" --runs 1 --rounds 5 --cpu 0 "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" \
        "$s" "$s" "$s" > /dev/null 2>&1 &
    pid=$!
    seen=0
    for ((k = 0; k < 1000 && !seen; k++)); do # up to 10 s for the directory to appear
        if compgen -G "$tmp/td/ecopt-bench-asm-*/f*" > /dev/null; then seen=1; else sleep 0.01; fi
    done
    kill -"${sig%:*}" $pid 2> /dev/null
    wait $pid
    r=$?
    [ $seen -eq 1 ] || fail "SIG${sig%:*}: the temporary directory never appeared"
    [ $r -eq "${sig#*:}" ] || fail "SIG${sig%:*}: exit $r, want ${sig#*:} (died of the signal)"
    [ -z "$(ls -A "$tmp/td")" ] || fail "SIG${sig%:*}: temporary files left behind: $(ls -A "$tmp/td")"
done
"$tool" --help > "$tmp/help" 2> "$tmp/err3" && grep -q '^usage: ecopt_bench_asm' "$tmp/help" && [ ! -s "$tmp/err3" ] ||
    fail "--help: not usage on stdout with exit 0"
[ $fails -eq 0 ] && echo "ok" || echo "$fails failure(s)"
[ $fails -eq 0 ]
