#!/usr/bin/env bash
# test_bench_asm.sh — ecopt_bench_asm (bench/bench_asm.c) end to end, briefly: a committed .S against itself gives
# one run line with three ratios near 1 and a summary line; bad input exits 2 with a message naming the problem, an
# environment that fails exits 3; a terminating signal leaves nothing in $TMPDIR (also the assembler's temporaries).
# With ECOPT and SHARED_DIR (and nasm): one of CryptOpt's NASM files and one s2n-bignum .S (its headers by -I) load
# and give ratios in both objectives; a NASM error, a missing header, a missing nasm are reported.
# Not a timing assertion beyond "a function against its own copy is within 0.5x-2x".
# Usage: test_bench_asm.sh ECOPT_BENCH_ASM SOURCE_DIR [ECOPT SHARED_DIR]
set -u
tool=$1
src=$2
cli=${3:-}
shared=${4:-}
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
grep -q 'per call (throughput)' "$tmp/out" || fail "the default objective is not said to be throughput: $(head -n 1 "$tmp/out")"
# --objective latency: the madd's first output (X3) chained back as its first input (X1)
"$tool" --ir "$ir" --runs 1 --rounds 5 --cpu 0 --objective latency "$s" "$s" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "--objective latency: exit $rc: $(cat "$tmp/err")"
grep -q 'per call (latency)' "$tmp/out" || fail "--objective latency: not said: $(head -n 1 "$tmp/out")"
[ "$(grep -c '^run ' "$tmp/out")" = 1 ] || fail "--objective latency: want 1 run line: $(cat "$tmp/out")"

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
check2 'no such CPU' --ir "$ir" --cpu 4095 "$s" "$s"
check2 'no such CPU' --ir "$ir" --cpu "$(getconf _NPROCESSORS_CONF)" "$s" "$s"
check2 'out of range' --ir "$ir" --cpu -1 "$s" "$s"
check2 'not a number' --ir "$ir" --cpu one "$s" "$s"
check2 'objective: not latency or throughput' --ir "$ir" --objective fast "$s" "$s"
# an add's outputs are wider than its inputs: no latency chain
cat > "$tmp/add.ir" << 'ADDIR'
func add2
  out out1[1] 0..0x2
  in arg1[1] 0..0x1
  in arg2[1] 0..0x1
  a:u64 = load arg1[0]
  b:u64 = load arg2[0]
  c:u64 = add a, b
  store out1[0], c
end
ADDIR
check2 "add.ir: --objective latency: its calls cannot be chained: out1\\[0\\] may reach 0x2, above arg1\\[0\\]'s bound 0x1" \
    --ir "$tmp/add.ir" --objective latency "$s" "$s"
# the peers: CryptOpt's published NASM (.asm) and s2n-bignum's .S, which #includes its headers (-I) and names its
# symbol through a macro (so only the preprocessed text has the .globl)
copt=$shared/cryptopt-fiat-amd64/fiat_p256_mul
s2n=$shared/peers/s2n-bignum
if [ -n "$cli" ] && [ -d "$copt" ] && [ -f "$s2n/x86/p256/bignum_montmul_p256.S" ] && command -v nasm > /dev/null; then
    "$cli" ir --fiat "$shared/fiat-json/p256_64.json" --function fiat_p256_mul -o "$tmp/p256.ir" ||
        fail "ecopt ir: the p256 multiply"
    co=$(ls "$copt"/*.asm | head -n 1)
    sm=$s2n/x86/p256/bignum_montmul_p256.S
    for obj in throughput latency; do
        "$tool" --ir "$tmp/p256.ir" --runs 1 --rounds 5 --cpu 0 --objective $obj -I "$s2n/include" "$co" "$sm" "$co" \
            > "$tmp/out" 2> "$tmp/err"
        rc=$?
        [ $rc -eq 0 ] || fail "peers, $obj: exit $rc: $(cat "$tmp/err")"
        grep -q "per call ($obj)" "$tmp/out" || fail "peers, $obj: not said: $(head -n 1 "$tmp/out")"
        grep -q "^  B = $sm\$" "$tmp/out" || fail "peers, $obj: B is not the s2n file: $(cat "$tmp/out")"
        grep -q '^ratio to A, median \[min-max\] over 1 runs:  B [0-9.]* \[.*\]  C [0-9.]* ' "$tmp/out" ||
            fail "peers, $obj: no summary: $(cat "$tmp/out")"
        awk '/^ratio to A/ { for (i = 1; i <= NF; i++) if ($i == "C") { r = $(i + 1); if (r < 0.5 || r > 2) bad = 1 } }
             END { exit bad }' "$tmp/out" || fail "peers, $obj: the copy's ratio outside [0.5, 2]: $(cat "$tmp/out")"
    done
    # more than 26 files: labelled a, b, ... after Z
    many=()
    for ((k = 0; k < 28; k++)); do many+=("$co"); done
    "$tool" --ir "$tmp/p256.ir" --runs 1 --rounds 3 --cpu 0 "${many[@]}" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ $rc -eq 0 ] || fail "28 files: exit $rc: $(cat "$tmp/err")"
    grep -q '  Z [0-9.]* \[.*\]  a [0-9.]* \[.*\]  b [0-9.]* \[[0-9.-]*\]$' "$tmp/out" ||
        fail "28 files: not labelled Z, a, b: $(tail -n 1 "$tmp/out")"
    printf 'SECTION .text\nGLOBAL g\ng:\nmov rax, [ rdi +\nret\n' > "$tmp/badnasm.asm"
    printf 'SECTION .text\ng:\nret\n' > "$tmp/noglobal.asm"
    check2 'badnasm\.asm: nasm -f elf64 failed: .*badnasm\.asm:4: error' --ir "$tmp/p256.ir" "$co" "$tmp/badnasm.asm"
    check2 'noglobal\.asm: no global symbol' --ir "$tmp/p256.ir" "$co" "$tmp/noglobal.asm"
    check2 'bignum_montmul_p256\.S: cc -E failed: .*_internal_s2n_bignum_x86\.h' --ir "$tmp/p256.ir" "$co" "$sm"
    check2 'nosuchdir: not a folder' --ir "$tmp/p256.ir" -I "$tmp/nosuchdir" "$co" "$sm"
    # no nasm on PATH: the environment, exit 3
    mkdir "$tmp/emptybin"
    PATH=$tmp/emptybin "$tool" --ir "$tmp/p256.ir" "$co" "$co" > /dev/null 2> "$tmp/err2"
    r=$?
    [ $r -eq 3 ] || fail "no nasm: exit $r, want 3"
    grep -q 'cannot run nasm' "$tmp/err2" || fail "no nasm: stderr '$(cat "$tmp/err2")'"
    [ -z "$(ls -A "$tmp/td")" ] || fail "peers: files left behind: $(ls -A "$tmp/td")"
else
    echo "note: the peer files not tried (no ecopt, no $copt or $s2n, or no nasm)"
fi
# a CPU of this machine outside the cgroup's cpuset: the environment refuses it, exit 3 (when there is one)
cpuset=$(cat /sys/fs/cgroup/cpuset.cpus.effective 2> /dev/null || true)
if [ -n "$cpuset" ]; then
    for ((c = 0; c < $(getconf _NPROCESSORS_CONF); c++)); do
        in=0
        IFS=, read -ra parts <<< "$cpuset"
        for p in "${parts[@]}"; do
            lo=${p%-*} hi=${p#*-}
            ((c >= lo && c <= hi)) && in=1
        done
        if [ $in -eq 0 ]; then
            "$tool" --ir "$ir" --cpu $c "$s" "$s" > /dev/null 2> "$tmp/err2"
            r=$?
            [ $r -eq 3 ] || fail "--cpu $c (outside the cpuset $cpuset): exit $r, want 3"
            grep -q 'may not run on it' "$tmp/err2" || fail "--cpu $c: stderr '$(cat "$tmp/err2")'"
            break
        fi
    done
fi
# no usable temporary directory: exit 3
TMPDIR=$tmp/nosuchdir "$tool" --ir "$ir" "$s" "$s" > /dev/null 2> "$tmp/err2"
r=$?
[ $r -eq 3 ] || fail "TMPDIR missing: exit $r, want 3"
grep -q 'cannot create the temporary directory' "$tmp/err2" || fail "TMPDIR missing: stderr '$(cat "$tmp/err2")'"

# terminated while it assembles (16 files take a while): it stops the assembler's process group, waits until all of
# it is gone, removes its directory (the assembler's own temporaries are in it: cc runs with TMPDIR there), then dies
# of the signal (128 + signal number; not SIGINT: a background job of a script ignores it, and the tool leaves an
# ignored signal ignored). SIGTERM once, SIGHUP 20 times at random moments of the assembly; nothing may be left in
# $TMPDIR after any of them.
sixteen=("$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s" "$s")
# kill_during SIG CODE READY_GLOB [DELAY]: start the tool on sixteen files, wait (up to 10 s) until READY_GLOB
# matches, sleep DELAY seconds, send SIG; its exit status must be CODE and $TMPDIR must be empty afterwards
kill_during() {
    local sig=$1 code=$2 ready=$3 delay=${4:-0} pid seen=0 k r
    "$tool" --ir "$ir" --runs 1 --rounds 5 --cpu 0 "${sixteen[@]}" > /dev/null 2>&1 &
    pid=$!
    for ((k = 0; k < 1000 && !seen; k++)); do
        if compgen -G "$ready" > /dev/null; then seen=1; else sleep 0.01; fi
    done
    sleep "$delay"
    kill -"$sig" $pid 2> /dev/null
    wait $pid 2> /dev/null # (bash would report "Hangup")
    r=$?
    [ $seen -eq 1 ] || fail "SIG$sig: $ready never appeared"
    [ $r -eq "$code" ] || fail "SIG$sig (after ${delay}s): exit $r, want $code (died of the signal)"
    [ -z "$(ls -A "$tmp/td")" ] || fail "SIG$sig (after ${delay}s): files left behind: $(ls -A "$tmp/td")"
    rm -rf "${tmp:?}/td/"* # one failure is reported once
}
kill_during TERM 143 "$tmp/td/ecopt-bench-asm-*/f*"
for ((i = 0; i < 20; i++)); do
    kill_during HUP 129 "$tmp/td/ecopt-bench-asm-*/f*" "0.$(printf '%03d' $((RANDOM % 300)))"
done
# A compiler whose helper outlives the driver and ignores SIGTERM (as a cc1 or ld that the driver forked after the
# signal was sent would, for a while): the tool must wait for it (its mark is there when the tool has exited), and
# the temporary file it writes late into its $TMPDIR must not land in the caller's.
realcc=$(command -v cc)
mkdir "$tmp/fakebin" "$tmp/mark"
cat > "$tmp/fakebin/cc" << FAKECC
#!/bin/sh
: > "$tmp/mark/started"
( trap '' TERM; sleep 0.4; : > "\${TMPDIR:-/tmp}/cc-late.tmp"; : > "$tmp/mark/done" ) &
exec "$realcc" "\$@"
FAKECC
chmod +x "$tmp/fakebin/cc"
PATH=$tmp/fakebin:$PATH kill_during HUP 129 "$tmp/mark/started"
[ -e "$tmp/mark/done" ] || fail "SIGHUP: the tool exited before its assembler's process group was gone"
for ((k = 0; k < 200; k++)); do [ -e "$tmp/mark/done" ] && break; sleep 0.01; done
[ -z "$(ls -A "$tmp/td")" ] || fail "SIGHUP: the assembler's helper wrote into \$TMPDIR: $(ls -A "$tmp/td")"
"$tool" --help > "$tmp/help" 2> "$tmp/err3" && grep -q '^usage: ecopt_bench_asm' "$tmp/help" && [ ! -s "$tmp/err3" ] ||
    fail "--help: not usage on stdout with exit 0"
[ $fails -eq 0 ] && echo "ok" || echo "$fails failure(s)"
[ $fails -eq 0 ]
