#!/usr/bin/env bash
# fuzz.sh — configure a clang libFuzzer build (build/fuzz, -DECOPT_FUZZ=ON), build the harnesses of fuzz/ and run
# each for SECONDS seconds, two at a time, on a scratch corpus seeded from fuzz/corpus/<name>/ (never written to) and,
# where ../shared is there, from its data read in place (fiat-json for fiat_json). Fails when any harness reports a
# crash, a leak, a sanitizer report or a failed assertion; the reproducer is left in build/fuzz/artifacts/.
# Usage: scripts/fuzz.sh [SECONDS] [NAME...]   (default 60 seconds, every harness)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

secs=${1:-60}
shift || true
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(keyfile ir_text fiat_json elf x25519 ed25519)
B=build/fuzz
shared=${ECOPT_SHARED_DIR:-../shared}

# -max_len per harness: a little above the largest useful input of each
declare -A maxlen=([keyfile]=4096 [ir_text]=16384 [fiat_json]=262144 [elf]=16384 [x25519]=512 [ed25519]=400)

# ECOPT_IFMA_EMU=OFF: the emulated ifma backend takes minutes to compile under the sanitizers; the native one is
# fuzzed where the CPU has IFMA.
CC=clang cmake -S . -B "$B" -DECOPT_FUZZ=ON -DECOPT_IFMA_EMU=OFF -DECOPT_BUILD_TESTS=OFF -DECOPT_INSTALL=OFF \
    -DECOPT_BUILD_SHARED=OFF >/dev/null
cmake --build "$B" -j "$(nproc)" --target fuzz_all

mkdir -p "$B/artifacts" "$B/logs"
run() {
    local n=$1 work="$B/work/$1" extra=()
    mkdir -p "$work"
    if [ "$n" = fiat_json ] && [ -d "$shared/fiat-json" ]; then extra=("$shared/fiat-json"); fi
    local dict=()
    [ -f "fuzz/$n.dict" ] && dict=(-dict="fuzz/$n.dict")
    "$B/fuzz/fuzz_$n" -max_total_time="$secs" -max_len="${maxlen[$n]}" -close_fd_mask=2 -print_final_stats=1 \
        -artifact_prefix="$B/artifacts/$n-" "${dict[@]}" "$work" "fuzz/corpus/$n" "${extra[@]}" \
        >"$B/logs/$n.log" 2>&1
}

status=0
pids=()
declare -A pidname
for n in "${names[@]}"; do
    run "$n" &
    pids+=($!)
    pidname[$!]=$n
    if [ ${#pids[@]} -ge 2 ]; then
        wait "${pids[0]}" && rc=0 || rc=$?
        n0=${pidname[${pids[0]}]}
        echo "fuzz $n0: $([ $rc -eq 0 ] && echo ok || echo "FAILED (exit $rc, log $B/logs/$n0.log)"): $(grep -m1 '^stat::number_of_executed_units' "$B/logs/$n0.log" || true)"
        [ $rc -eq 0 ] || status=1
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do
    wait "$p" && rc=0 || rc=$?
    n0=${pidname[$p]}
    echo "fuzz $n0: $([ $rc -eq 0 ] && echo ok || echo "FAILED (exit $rc, log $B/logs/$n0.log)"): $(grep -m1 '^stat::number_of_executed_units' "$B/logs/$n0.log" || true)"
    [ $rc -eq 0 ] || status=1
done
[ $status -eq 0 ] || grep -h -A3 "ERROR\|assertion failed" "$B"/logs/*.log | head -40 >&2
exit $status
