#!/usr/bin/env bash
# test_bench_cli.sh — ecopt_bench's command line (bench/bench.c), not its figures: --help, bad usage exits 2 with a
# one-line reason before anything is measured (an --out that is missing, not a directory or not writable; a --cpu
# that is not a number or not a CPU of this machine), a CPU outside the cpuset exits 3 (when the host has one), and
# a one-round run on CPU 0 writes its table. No timing assertion.
# Usage: test_bench_cli.sh ECOPT_BENCH
set -u
tool=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-bench-cli-XXXXXX")
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
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
want 2 '^ecopt_bench: --cpu abc: not a number$' --cpu abc --rounds 1 --batch 1 --out "$tmp/res"
want 2 '^ecopt_bench: --cpu -1: a value out of range$' --cpu -1 --rounds 1 --batch 1 --out "$tmp/res"
ncpu=$(getconf _NPROCESSORS_CONF)
want 2 "^ecopt_bench: --cpu $ncpu: no such CPU" --cpu "$ncpu" --rounds 1 --batch 1 --out "$tmp/res"
one_line "--cpu $ncpu"
want 2 '^ecopt_bench: --rounds 0: a value out of range$' --cpu 0 --rounds 0 --out "$tmp/res"
want 2 '^ecopt_bench: --batch 2x: not a number$' --cpu 0 --batch 2x --out "$tmp/res"
want 2 '^ecopt_bench: unknown option$' "${run[@]}" --bogus
want 2 '^ecopt_bench: an option given more than once$' "${run[@]}" --cpu 0
want 2 '^ecopt_bench: an option without its value$' "${run[@]}" --out

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
[ -z "$(ls -A "$tmp/res" | grep -v '^bench\.\(md\|dat\|png\)$')" ] || fail "more in --out than the results: $(ls -A "$tmp/res")"
[ $fails -eq 0 ] && echo "ok" || echo "$fails failure(s)"
[ $fails -eq 0 ]
