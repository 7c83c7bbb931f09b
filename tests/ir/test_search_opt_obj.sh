#!/usr/bin/env bash
# test_search_opt_obj.sh — `ecopt opt --objective` and `ecopt opt -j`, end to end with tiny budgets (correctness
# only, never speed).
#   objective: latency and throughput each write a PROVED .S (re-proved by `ecopt check`) whose header and summary
#              line name the objective (the default: throughput); latency is refused, exit 2 with one line naming
#              why, for a program whose first output is no valid first input (fiat_25519_add); bad values exit 2.
#   jobs:      -j 2 (on a machine that lets the process use 2 CPUs) writes a PROVED .S whose header names -j 2, both
#              seeds, their CPUs and the winner; -j 0, -j x, -j beyond the CPUs and -j 2 with --cpu exit 2 with
#              one line, writing nothing.
# Usage: test_search_opt_obj.sh ECOPT FIAT_DIR objective|jobs
set -u
ecopt=$1
fiat=$2
part=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-opt-obj-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
passes=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { passes=$((passes + 1)); }
has() { # has FILE STRING WHAT
    if grep -qF -- "$2" "$1"; then pass; else fail "$3 lacks '$2'"; fi
}

json=$fiat/curve25519_64.json
fn=fiat_25519_carry_mul

# bad input: exit 2, one line on stderr (matching the regex), nothing written
bad() {
    local what=$1 want=$2
    shift 2
    rm -f "$tmp/bad.S"
    "$ecopt" opt "$@" 2>"$tmp/err" >/dev/null
    local rc=$?
    if [ $rc -ne 2 ]; then fail "$what: exit $rc, want 2 ($(head -n 1 "$tmp/err"))"; else pass; fi
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && pass || fail "$what: not one line on stderr: $(cat "$tmp/err")"
    grep -qE -- "$want" "$tmp/err" && pass || fail "$what: stderr '$(cat "$tmp/err")' lacks /$want/"
    [ -e "$tmp/bad.S" ] && fail "$what: wrote output" || pass
}

# opt_ok NAME OUT.S CHECK-PROGRAM-ARGS -- OPT-ARGS: exit 0, PROVED by ecopt check
opt_ok() {
    local name=$1 out=$2
    shift 2
    local check=()
    while [ "$1" != -- ]; do
        check+=("$1")
        shift
    done
    shift
    "$ecopt" opt "$@" -o "$out" 2>"$tmp/$name.err"
    local rc=$?
    if [ $rc -ne 0 ]; then
        fail "$name: ecopt opt exited $rc: $(cat "$tmp/$name.err")"
        return 1
    fi
    pass
    local v
    v=$("$ecopt" check "$out" "${check[@]}")
    case $v in PROVED*) pass ;; *) fail "$name: ecopt check: $v" ;; esac
    has "$out" "Checker:   PROVED" "$name: header"
}

case $part in
objective)
    # latency: the multiply's tight outputs are valid loose inputs, chained as both arguments
    if opt_ok latency "$tmp/lat.S" --fiat "$json" --function $fn -- --fiat "$json" --function $fn --evals 200 \
        --bets 2 --objective latency; then
        has "$tmp/lat.S" "Objective: latency (a dependent chain, out1 -> arg1, arg2: each call's output is the next" \
            "latency header"
        has "$tmp/lat.S" " --rounds 31 --objective latency" "latency header's command line"
        grep -qE "^ecopt opt: $fn: PROVED, written to .*: [0-9.]+ (ticks|cycles) \(latency\), " "$tmp/latency.err" &&
            pass || fail "latency summary line: $(tail -n 2 "$tmp/latency.err")"
    fi
    # throughput, explicitly, on a generated square
    gen=(--prime 2^255-19 --method solinas-unsaturated --limbs 5 --op square)
    if opt_ok throughput "$tmp/thr.S" "${gen[@]}" -- "${gen[@]}" --evals 200 --bets 2 --objective throughput; then
        has "$tmp/thr.S" "Objective: throughput (independent calls" "throughput header"
        has "$tmp/thr.S" " --objective throughput" "throughput header's command line"
        grep -qE "^ecopt opt: .*: PROVED, written to .*\(throughput\), " "$tmp/throughput.err" && pass ||
            fail "throughput summary line: $(tail -n 2 "$tmp/throughput.err")"
    fi
    # the default is throughput
    if opt_ok default "$tmp/def.S" "${gen[@]}" -- "${gen[@]}" --evals 60 --bets 1 --quiet; then
        has "$tmp/def.S" "Objective: throughput (independent calls" "default header"
        grep -q "Parallel:" "$tmp/def.S" && fail "default header has a Parallel line" || pass
    fi
    # a program whose output is wider than its input cannot chain
    bad "latency of an add" \
        "^ecopt opt: fiat_25519_add: --objective latency: its calls cannot be chained \(the first output fed back as the first input\): out1\[0\] may reach 0x[0-9a-f]+, above arg1\[0\]'s bound 0x[0-9a-f]+$" \
        --fiat "$json" --function fiat_25519_add -o "$tmp/bad.S" --objective latency
    bad "objective foo" "^ecopt opt: --objective: 'foo' is not latency or throughput$" \
        --fiat "$json" --function $fn -o "$tmp/bad.S" --objective foo
    bad "empty objective" "^ecopt opt: --objective: '' is not latency or throughput$" \
        --fiat "$json" --function $fn -o "$tmp/bad.S" --objective ""
    bad "objective twice" "given more than once" \
        --fiat "$json" --function $fn -o "$tmp/bad.S" --objective latency --objective throughput
    "$ecopt" opt --help | grep -q -- "--objective O" && pass || fail "--help lacks --objective"
    ;;
jobs)
    ncpu=$(nproc)
    bad "-j 0" "^ecopt opt: -j: '0' is not a whole number of searches, at least 1$" \
        --fiat "$json" --function $fn -o "$tmp/bad.S" -j 0
    bad "-j x" "^ecopt opt: -j: 'x' is not a whole number of searches" --fiat "$json" --function $fn -o "$tmp/bad.S" -j x
    bad "-j beyond the CPUs" "^ecopt opt: -j: $((ncpu + 1)) searches, but this process may run on $ncpu CPUs? \(" \
        --fiat "$json" --function $fn -o "$tmp/bad.S" -j $((ncpu + 1))
    bad "--jobs 1000" "^ecopt opt: -j: 1000 searches, but this process may run on" \
        --fiat "$json" --function $fn -o "$tmp/bad.S" --jobs 1000
    bad "-j with --cpu" "^ecopt opt: -j: 2 searches each take a CPU of their own: not with --cpu$" \
        --fiat "$json" --function $fn -o "$tmp/bad.S" -j 2 --cpu 0
    "$ecopt" opt --help | grep -q -- "-j, --jobs N" && pass || fail "--help lacks -j"
    if [ "$ncpu" -lt 2 ]; then
        echo "SKIP: -j 2 needs 2 CPUs (this process may use $ncpu); $passes passed, $fails failed"
        [ $fails -eq 0 ] && exit 77
        exit 1
    fi
    # two searches (seeds 5 and 6, latency), their results side by side, the winner proved and written
    if opt_ok j2 "$tmp/j2.S" --fiat "$json" --function $fn -- --fiat "$json" --function $fn --evals 100 --bets 2 \
        --seed 5 --objective latency -j 2; then
        has "$tmp/j2.S" " --seed 5 --rounds 31 --objective latency -j 2" "-j 2 header's command line"
        has "$tmp/j2.S" "Objective: latency (" "-j 2 header"
        grep -qE '^ \* Parallel:  -j 2: seeds 5, 6 on CPUs [0-9]+, [0-9]+; their results measured again side by side on CPU [0-9]+ with the compilers \(101 rounds\): [0-9.]+, [0-9.]+ (ticks|cycles), paired ratios to seed 5.s 1\.0000, [0-9.]+; seed [56] won$' \
            "$tmp/j2.S" && pass || fail "-j 2: Parallel line: $(grep Parallel "$tmp/j2.S")"
        won=$(sed -n 's/^ \* Parallel: .*; seed \([0-9]*\) won$/\1/p' "$tmp/j2.S")
        grep -qE "^ \* Seed:      $won \(search $((won - 4)) of -j 2 won; see Parallel\)$" "$tmp/j2.S" && pass ||
            fail "-j 2: Seed line: $(grep 'Seed:' "$tmp/j2.S") (winner $won)"
        grep -qE "^ecopt opt: $fn: PROVED, written to .*\(100 evals; -j 2: seed $won won\)$" "$tmp/j2.err" && pass ||
            fail "-j 2: summary line: $(tail -n 1 "$tmp/j2.err")"
        [ "$(grep -c '^opt: search [12] of 2 (seed [56], CPU [0-9]*): ' "$tmp/j2.err")" = 2 ] && pass ||
            fail "-j 2: no line per search on stderr: $(cat "$tmp/j2.err")"
    fi
    # -j 1 is one search in this process: no Parallel line, the plain Seed line
    if opt_ok j1 "$tmp/j1.S" --fiat "$json" --function $fn -- --fiat "$json" --function $fn --evals 60 --bets 1 \
        --seed 3 -j 1 --quiet; then
        grep -q "Parallel:" "$tmp/j1.S" && fail "-j 1 header has a Parallel line" || pass
        grep -qE '^ \* Seed:      3$' "$tmp/j1.S" && pass || fail "-j 1: Seed line: $(grep 'Seed:' "$tmp/j1.S")"
        grep -q -- " -j 1" "$tmp/j1.S" && fail "-j 1 in the header's command line" || pass
    fi
    ;;
*)
    echo "usage: test_search_opt_obj.sh ECOPT FIAT_DIR objective|jobs" >&2
    exit 2
    ;;
esac

echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
