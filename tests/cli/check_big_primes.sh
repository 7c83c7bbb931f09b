#!/usr/bin/env bash
# check_big_primes.sh — `ecopt check` on compiler output for the large Montgomery primes: fiat-crypto's p384 and
# p434 multiply and square (the C that `ecopt ir --fiat ... --emit c` emits), compiled by gcc and clang at -O2 and
# -O3, each must be PROVED against its fiat program. One line per case with the verdict and the wall and CPU time
# (times are printed, never asserted: the machine may be shared).
# Usage: check_big_primes.sh ECOPT FIAT_DIR [FILTER]   (FILTER: a substring of "p384.mul gcc -O2" and the like)
# CHECK_PRIMES (default "p384 p434") names other fiat programs (their <name>_64.json, fiat_<name>_mul/_square).
# Exit 0 every case proved, 1 one was not, 77 gcc or clang missing.
set -u
ecopt=$1 fiat=$2 filter=${3:-}
for cc in gcc clang; do
    command -v "$cc" >/dev/null || { echo "check_big_primes: $cc not found: skipped"; exit 77; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for p in ${CHECK_PRIMES:-p384 p434}; do
    for op in mul square; do
        fn=fiat_${p}_$op
        if ! "$ecopt" ir --fiat "$fiat/${p}_64.json" --function "$fn" --emit c >"$tmp/$fn.c"; then
            echo "FAIL $p.$op: ecopt ir"; fail=1; continue
        fi
        for cc in gcc clang; do
            for o in -O2 -O3; do
                name="$p.$op $cc $o"
                [[ -z $filter || $name == *"$filter"* ]] || continue
                obj=$tmp/$fn.$cc$o.o
                if ! "$cc" $o -c "$tmp/$fn.c" -o "$obj"; then
                    echo "FAIL $name: $cc did not compile"; fail=1; continue
                fi
                n=$((n + 1))
                t0=$(date +%s.%N)
                c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
                out=$("$ecopt" check "$obj" --fiat "$fiat/${p}_64.json" --function "$fn" 2>&1)
                rc=$?
                t1=$(date +%s.%N)
                # children's CPU time (cutime + cstime, in clock ticks) of this shell: the checker's
                c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
                line=$(printf '%s | %.1f s wall | %.1f s CPU | %s' "$name" "$(echo "$t1 - $t0" | bc)" \
                       "$(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l)" "$(head -1 <<<"$out")")
                if [[ $rc -eq 0 && $out == PROVED* ]]; then
                    echo "ok   $line"
                else
                    echo "FAIL $line (exit $rc)"; fail=1
                fi
            done
        done
    done
done
echo "check_big_primes: $n cases, $([[ $fail == 0 ]] && echo "all PROVED" || echo "NOT all proved")"
exit $fail
