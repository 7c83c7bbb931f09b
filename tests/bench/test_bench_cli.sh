#!/usr/bin/env bash
# test_bench_cli.sh — ecopt_bench's command line (bench/bench.c), not its figures: --help, bad usage exits 2 with a
# one-line reason before anything is measured (an --out that is missing, not a directory or not writable; a --cpu
# that is not a number or not a CPU of this machine), a CPU outside the cpuset exits 3 (when the host has one), a
# one-round run on CPU 0 writes its table (with the spread as its last column) and the run's wall and CPU time, and
# a run that shares CPU 0 with a busy loop (the disturbance it must notice) says `warning:` on stdout and in bench.md
# and still exits 0 (not with ECOPT_BENCH_CLI_NO_DISTURBED set, as the sanitizer build does). No timing assertion.
# With ECOPT_BENCH_FUSED: that tool's --help and bad usage (exit 2, one line,
# nothing measured) and a one-round run on CPU 0.
# Usage: test_bench_cli.sh ECOPT_BENCH [ECOPT_BENCH_FUSED]
set -u
tool=$1
fused=${2:-}
hog=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-bench-cli-XXXXXX")
trap '[ -z "$hog" ] || kill "$hog" 2> /dev/null; chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM # ctest's timeout: the EXIT trap still stops the busy loop
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
run=(--cpu 0 --rounds 1 --batch 1) # should a check be missing, the run it lets through is short and on CPU 0

# want CODE REGEX ARGS...: exit CODE, REGEX on the first line of stderr, nothing measured (stdout empty); for
# --out and --cpu problems, exactly one line on stderr
want() {
    local code=$1 re=$2 r
    shift 2
    "$tool" "$@" > "$tmp/out" 2> "$tmp/err"
    r=$?
    [ $r -eq "$code" ] || fail "$*: exit $r, want $code ($(head -n 1 "$tmp/err"))"
    head -n 1 "$tmp/err" | grep -qE -- "$re" || fail "$*: stderr '$(head -n 1 "$tmp/err")' lacks /$re/"
    [ ! -s "$tmp/out" ] || fail "$*: it measured before failing: $(head -n 1 "$tmp/out")"
}
one_line() { [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "$1: not one line on stderr: $(cat "$tmp/err")"; }

"$tool" --help > "$tmp/help" 2> "$tmp/err"
r=$?
[ $r -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^usage: ecopt_bench ' "$tmp/help" || fail "--help: exit $r, not usage"
grep -q 'exit status: 0; 2 bad usage' "$tmp/help" || fail "--help does not give the exit status"
grep -q '3 the environment failed' "$tmp/help" || fail "--help does not give exit 3"
grep -q "^disturbance: a line 'warning: ...'" "$tmp/help" || fail "--help does not give the disturbance rule"

# --out: checked first, one line, exit 2
want 2 "^ecopt_bench: --out $tmp/missing: No such file or directory$" "${run[@]}" --out "$tmp/missing"
one_line "--out missing"
: > "$tmp/afile"
want 2 "^ecopt_bench: --out $tmp/afile: not a directory$" "${run[@]}" --out "$tmp/afile"
one_line "--out a file"
want 2 "^ecopt_bench: --out /proc: cannot create a file in it: " "${run[@]}" --out /proc
one_line "--out /proc"
if [ "$(id -u)" != 0 ]; then # root writes into a mode 555 directory anyway
    mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
    want 2 "^ecopt_bench: --out $tmp/ro: cannot create a file in it: Permission denied$" "${run[@]}" --out "$tmp/ro"
fi

# usage: exit 2
mkdir "$tmp/res"
want 2 '^ecopt_bench: --cpu abc: not a number \(see --help\)$' --cpu abc --rounds 1 --batch 1 --out "$tmp/res"
want 2 '^ecopt_bench: --cpu -1: a value out of range \(see --help\)$' --cpu -1 --rounds 1 --batch 1 --out "$tmp/res"
ncpu=$(getconf _NPROCESSORS_CONF)
want 2 "^ecopt_bench: --cpu $ncpu: no such CPU" --cpu "$ncpu" --rounds 1 --batch 1 --out "$tmp/res"
one_line "--cpu $ncpu"
want 2 '^ecopt_bench: --rounds 0: a value out of range \(see --help\)$' --cpu 0 --rounds 0 --out "$tmp/res"
want 2 '^ecopt_bench: --batch 2x: not a number \(see --help\)$' --cpu 0 --batch 2x --out "$tmp/res"
want 2 '^ecopt_bench: --bogus: unknown option \(see --help\)$' "${run[@]}" --bogus
one_line "--bogus"
want 2 '^ecopt_bench: --cpu: an option given more than once \(see --help\)$' "${run[@]}" --cpu 0
want 2 '^ecopt_bench: --out: an option without its value \(see --help\)$' "${run[@]}" --out
# a value that is itself an option is missing, not a directory named "--rounds"
want 2 '^ecopt_bench: --out: an option without its value \(see --help\)$' --out --rounds 1

# a CPU of this machine outside the cgroup's cpuset: the environment refuses it, exit 3 (when there is one)
cpuset=$(cat /sys/fs/cgroup/cpuset.cpus.effective 2> /dev/null || true)
for ((c = 0; c < ncpu && ${#cpuset} > 0; c++)); do
    in=0
    IFS=, read -ra parts <<< "$cpuset"
    for p in "${parts[@]}"; do
        lo=${p%-*} hi=${p#*-}
        ((c >= lo && c <= hi)) && in=1
    done
    if [ $in -eq 0 ]; then
        want 3 "^ecopt_bench: --cpu $c: this process may not run on it" --cpu $c --rounds 1 --batch 1 --out "$tmp/res"
        break
    fi
done

# a one-round run writes the table
"$tool" "${run[@]}" --out "$tmp/res" > "$tmp/out" 2> "$tmp/err"
r=$?
[ $r -eq 0 ] || fail "a one-round run: exit $r: $(cat "$tmp/err")"
grep -q '^| X25519 (variable base) | ecopt-' "$tmp/res/bench.md" || fail "bench.md has no X25519 row"
grep -q 'pinned to CPU 0' "$tmp/out" || fail "the run does not say it is pinned to CPU 0"
# the CPU, its IFMA, the ticks per core cycle measured in the run, and what the s2n-bignum rows are (or why n/a)
grep -qE '^cpu: .*\(family [0-9]+, model [0-9]+, stepping [0-9]+; AVX-512 IFMA (yes|no)\)$' "$tmp/out" ||
    fail "the run does not name the CPU and its IFMA: $(grep -m1 '^cpu' "$tmp/out")"
grep -qE '1 core cycle = (0\.[1-9]|[1-4]\.)[0-9]* TSC ticks \(a chain of dependent adds' "$tmp/out" ||
    fail "the run does not give the ticks per core cycle (in 0.1-5): $(grep -m1 'tick rate' "$tmp/out")"
grep -qE '^s2n-bignum: ' "$tmp/out" || fail "the run does not say what the s2n-bignum rows are"
# the batch table: ticks per key at n = 8, 64, 256 for X25519 and the base point, with libsodium's n single calls
for n in 8 64 256; do
    grep -qE "^\| X25519 batch \| $n \| ecopt-[a-z0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9.]+ \| (n/a|[0-9.]+) \| [0-9.]+ \|$" \
        "$tmp/res/bench.md" || fail "bench.md has no X25519 batch row at n = $n"
    grep -qE "^\| X25519 base point batch \| $n \| libsodium \(n calls\) \| [0-9]+ \| [0-9]+ \| 1\.000 \| " \
        "$tmp/res/bench.md" || fail "bench.md has no base point batch reference row at n = $n"
done
if grep -q '^s2n-bignum: X25519' "$tmp/out"; then
    grep -qE '^\| X25519 \(variable base\) \| s2n-bignum \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9.]+ \| 1\.000 \| ' \
        "$tmp/res/bench.md" || fail "s2n-bignum is built in but bench.md has no s2n-bignum X25519 row at ratio 1.000"
fi
[ -z "$(ls -A "$tmp/res" | grep -v '^bench\.\(md\|dat\|png\)$')" ] || fail "more in --out than the results: $(ls -A "$tmp/res")"
# the spread, (Q3 - Q1) / median, is the last column of both tables; the first columns are unchanged
grep -q '^| operation | implementation | median ticks | cycles | ops/s | ratio vs libsodium | ratio vs s2n-bignum | spread |$' "$tmp/res/bench.md" ||
    fail "bench.md's table header has no spread column: $(grep -m1 '^| operation' "$tmp/res/bench.md")"
grep -qE '^\| X25519 \(variable base\) \| libsodium \| [0-9]+ \| [0-9]+ \| [0-9]+ \| 1\.000 \| (n/a|[0-9]+\.[0-9]{3}) \| 0\.000 \|$' "$tmp/res/bench.md" ||
    fail "bench.md's libsodium X25519 row lacks its spread (1 round: 0.000): $(grep -m1 '| libsod' "$tmp/res/bench.md")"
grep -qE '^\| fe_mul u64 hand-written \| [0-9.]+ \| 1\.000 \| 0\.000 \|$' "$tmp/res/bench.md" ||
    fail "bench.md's field table lacks the spread: $(grep -m1 'fe_mul u64 hand' "$tmp/res/bench.md")"
grep -qE '^run: wall [0-9.]+ s, CPU [0-9.]+ s \(user \+ system\), [0-9]+ involuntary context switches' "$tmp/out" ||
    fail "stdout does not give the run's wall and CPU time"
grep -qE '^run: wall [0-9.]+ s, CPU [0-9.]+ s' "$tmp/res/bench.md" ||
    fail "bench.md does not give the run's wall and CPU time"

# disturbed: a busy loop shares CPU 0 with the run, which gets about half of it (wall about 2 x CPU time, far
# past the rule's 1.25): it must say so, on stdout and in bench.md, naming rows, and still exit 0
if [ -n "${ECOPT_BENCH_CLI_NO_DISTURBED:-}" ]; then
    echo "skip: the disturbed run (ECOPT_BENCH_CLI_NO_DISTURBED: a sanitizer build, where it takes minutes)"
elif command -v taskset > /dev/null; then
    taskset -c 0 bash -c 'while :; do :; done' &
    hog=$!
    sleep 0.2
    "$tool" --cpu 0 --rounds 21 --batch 2 --out "$tmp/res" > "$tmp/out" 2> "$tmp/err"
    r=$?
    kill "$hog" 2> /dev/null
    wait "$hog" 2> /dev/null
    hog=
    [ $r -eq 0 ] || fail "a disturbed run: exit $r, want 0: $(cat "$tmp/err")"
    grep -qE '^warning: disturbed measurement .*: (X25519|Ed25519|fe_|field table)' "$tmp/out" ||
        fail "a run sharing CPU 0 with a busy loop gave no warning naming rows: $(grep -E '^(run|warn)' "$tmp/out")"
    grep -qE '^warning: disturbed measurement .*: (X25519|Ed25519|fe_|field table)' "$tmp/res/bench.md" ||
        fail "bench.md of a disturbed run has no warning line"
else
    echo "skip: no taskset, the disturbed run is not tested"
fi

# ecopt_bench_fused: its options (it used to ignore them and run the whole benchmark)
if [ -n "$fused" ]; then
    "$fused" --help > "$tmp/help" 2> "$tmp/err"
    r=$?
    [ $r -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^usage: ecopt_bench_fused ' "$tmp/help" ||
        fail "fused --help: exit $r, not usage"
    grep -q -- '--rounds N' "$tmp/help" && grep -q -- '--cpu N' "$tmp/help" &&
        grep -q '^exit status: 0; 2 bad usage' "$tmp/help" ||
        fail "fused --help does not document --rounds, --cpu and the exit status"
    fwant() { # fwant REGEX ARGS...: exit 2, one line on stderr matching REGEX, nothing measured
        local re=$1 r
        shift
        "$fused" "$@" > "$tmp/out" 2> "$tmp/err"
        r=$?
        [ $r -eq 2 ] || fail "fused $*: exit $r, want 2"
        [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "fused $*: not one line on stderr: $(cat "$tmp/err")"
        grep -qE -- "$re" "$tmp/err" || fail "fused $*: stderr '$(cat "$tmp/err")' lacks /$re/"
        [ ! -s "$tmp/out" ] || fail "fused $*: it measured before failing: $(head -n 1 "$tmp/out")"
    }
    fwant '^ecopt_bench_fused: --bogus: unknown option' --bogus --cpu 0 --rounds 1
    fwant '^ecopt_bench_fused: --bogus: unknown option' --cpu 0 --rounds 1 --bogus
    fwant '^ecopt_bench_fused: extra: unexpected argument' --cpu 0 --rounds 1 extra
    fwant '^ecopt_bench_fused: --rounds 0: a value out of range' --cpu 0 --rounds 0
    fwant '^ecopt_bench_fused: --rounds 3x: not a number' --cpu 0 --rounds 3x
    fwant '^ecopt_bench_fused: --rounds: an option without its value' --cpu 0 --rounds
    fwant '^ecopt_bench_fused: --cpu: an option given more than once' --rounds 1 --cpu 0 --cpu 0
    fwant "^ecopt_bench_fused: --cpu $ncpu: no such CPU" --rounds 1 --cpu "$ncpu"
    if grep -qw adx /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then # the code it measures needs them
        "$fused" --cpu 0 --rounds 1 > "$tmp/out" 2> "$tmp/err"
        r=$?
        [ $r -eq 0 ] || fail "fused, one round: exit $r: $(cat "$tmp/err")"
        grep -q '1 rounds of 200 calls .*pinned to CPU 0' "$tmp/out" || fail "fused, one round: $(head -n 1 "$tmp/out")"
        grep -q '^ladder adx51 ' "$tmp/out" || fail "fused, one round: no ladder row"
    fi
fi
[ $fails -eq 0 ] && echo "ok" || echo "$fails failure(s)"
[ $fails -eq 0 ]
