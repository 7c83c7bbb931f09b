#!/usr/bin/env bash
# batch.sh — ecopt verify --batch LIST: one verdict per signature line, agreeing with ecopt verify on each line;
# exit codes; malformed lines named with their number; --zip215; getrandom failing.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# make_line SEED MSG-HEX: "PUB-HEX SIG-HEX MSG-HEX" of a key made from the 32-byte SEED (hex) signing MSG, with the
# files k.pem, k.pub, msg, sig.hex left for the single verification.
make_line() {
    ed_priv_pem "$1" k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    h2b "$2" >msg
    ok "$ECOPT" sign -k k.pem -i msg -o sig.hex --hex
    printf '%s %s %s\n' "$(pem_raw32 k.pub)" "$(<sig.hex)" "$2"
}

ZERO32=0000000000000000000000000000000000000000000000000000000000000000
IDENTITY=0100000000000000000000000000000000000000000000000000000000000000

t_batch_valid() {
    local i
    : >list
    for i in 1 2 3 4 5; do
        make_line "$(rand_hex 32)" "$(rand_hex $((i * 7)))" >>list
    done
    make_line "$(rand_hex 32)" "" | sed 's/ $//' >>list # no message field: the empty message
    { echo "# a comment"; echo; cat list; } >list2
    ok "$ECOPT" verify --batch list2
    [ "$(wc -l <out.txt)" -eq 6 ] || fail "expected 6 verdicts: $(<out.txt)"
    for i in 3 4 5 6 7 8; do grep -qx "$i: OK" out.txt || fail "line $i: $(<out.txt)"; done
    ok "$ECOPT" verify --batch - <list2
    [ "$(wc -l <out.txt)" -eq 6 ] || fail "standard input: $(<out.txt)"
}

# Every line's verdict against ecopt verify of the same signature, with bits flipped in R, S, the message and A.
t_batch_agrees_with_verify() {
    local i line pub sig msg kind verdict want
    : >list
    : >want
    for i in $(seq 1 12); do
        line=$(make_line "$(rand_hex 32)" "$(rand_hex 20)")
        read -r pub sig msg <<<"$line"
        kind=$((i % 4))
        case $kind in
        1) sig="$(printf '%02x' $((0x${sig:0:2} ^ 1)))${sig:2}" ;;      # R
        2) sig="${sig:0:64}$(printf '%02x' $((0x${sig:64:2} ^ 4)))${sig:66}" ;; # S
        3) msg="$(printf '%02x' $((0x${msg:0:2} ^ 128)))${msg:2}" ;;    # message
        esac
        printf '%s %s %s\n' "$pub" "$sig" "$msg" >>list
        h2b "$sig" >sig.raw
        h2b "$msg" >msg
        ed_pub_pem "$pub" k.pub
        rc=0
        "$ECOPT" verify -p k.pub -i msg -s sig.raw >/dev/null 2>&1 || rc=$?
        if [ $rc -eq 0 ]; then echo "$i: OK" >>want; else echo "$i: FAIL" >>want; fi
    done
    expect 1 "list: 9 of 12 signatures rejected" "$ECOPT" verify --batch list
    sed 's/^\([0-9]*: FAIL\).*/\1/' out.txt >got
    diff -u want got >&2 || fail "batch verdicts differ from ecopt verify"
}

t_batch_zip215() {
    # A = identity, R = identity, S = 0: the cofactored equation holds; strict refuses A (small order), ZIP 215
    # accepts. A non-canonical R (y = p + 1 with the identity's point, i.e. y = 1 written as 2^255 - 18): strict
    # encoding error, ZIP 215 accepts.
    local noncanon=eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f
    printf '%s %s%s 00\n%s %s%s\n' "$IDENTITY" "$IDENTITY" "$ZERO32" "$IDENTITY" "$noncanon" "$ZERO32" >list
    expect 1 "2 of 2 signatures rejected" "$ECOPT" verify --batch list
    grep -qx "1: FAIL small order: .*" out.txt || fail "strict, line 1: $(<out.txt)"
    grep -qx "2: FAIL small order: .*" out.txt || fail "strict, line 2 (A is checked first): $(<out.txt)"
    ok "$ECOPT" verify --batch list --zip215
    grep -qx "1: OK" out.txt && grep -qx "2: OK" out.txt || fail "ZIP-215: $(<out.txt)"
}

t_batch_malformed() {
    make_line "$(rand_hex 32)" "ab" >list
    local good
    good=$(head -n 1 list)
    printf '%s\n%s\n' "$good" "${good:0:60}" >bad1
    expect 2 "bad1:2: expected PUBKEY-HEX SIG-HEX \[MSG-HEX\]" "$ECOPT" verify --batch bad1
    [ ! -s out.txt ] || fail "verdicts printed for a malformed list: $(<out.txt)"
    printf '%s\n\n%s\n' "$good" "${good/ / 00}" >bad2
    expect 2 "bad2:3: signature: wrong length \(128 hex digits\)" "$ECOPT" verify --batch bad2
    printf 'zz%s\n' "${good:2}" >bad3
    expect 2 "bad3:1: public key: not hex" "$ECOPT" verify --batch bad3
    printf '%s 0\n' "${good% *}" >bad4
    expect 2 "bad4:1: message: an odd number of hex digits" "$ECOPT" verify --batch bad4
    printf '%s extra\n' "$good" >bad5
    expect 2 "bad5:1: expected PUBKEY-HEX SIG-HEX" "$ECOPT" verify --batch bad5
    expect 2 "no-such-file" "$ECOPT" verify --batch no-such-file
    expect 2 "-p/--pub: not with --batch" "$ECOPT" verify --batch list -p k.pub
    expect 2 "-p/--pub: not with --batch" "$ECOPT" verify --batch list --pub k.pub
    printf '\xef\xbb\xbf%s\n' "$good" >bad6
    expect 2 "bad6:1: unexpected byte 0xef at column 1: a UTF-8 byte order mark" "$ECOPT" verify --batch bad6
    printf '%s\n%s\0%s\n' "$good" "${good:0:10}" "${good:11}" >bad7
    expect 2 "bad7:2: unexpected byte 0x00 at column 11" "$ECOPT" verify --batch bad7
    printf '# caf\xc3\xa9 \0\n%s\n' "$good" >ok8 # a comment may hold any byte
    ok "$ECOPT" verify --batch ok8
    expect 2 "--context: not with --batch" "$ECOPT" verify --batch list --context x
}

t_batch_empty() {
    printf '# nothing\n\n' >list
    ok "$ECOPT" verify --batch list
    [ ! -s out.txt ] || fail "verdicts for an empty list: $(<out.txt)"
}

t_batch_rng_failure() {
    # (a build of the command alone, e.g. CI's noadx step, names the library without building it)
    [ -n "${ECOPT_TEST_FAILRNG:-}" ] && [ -f "$ECOPT_TEST_FAILRNG" ] || skip "no failing-getrandom library"
    local i line pub sig msg
    : >list
    for i in 1 2 3; do make_line "$(rand_hex 32)" "ab" >>list; done # 3 survivors: a combined check is needed
    # (on u64: the ifma backends settle every group by single checks and never draw randomness)
    expect 3 "" env ECOPT_BACKEND=u64 LD_PRELOAD="$ECOPT_TEST_FAILRNG" "$ECOPT" verify --batch list
    [ ! -s out.txt ] || fail "verdicts printed without randomness: $(<out.txt)"
    # one survivor is settled by a single check, without randomness
    head -n 1 list >list1
    ok env LD_PRELOAD="$ECOPT_TEST_FAILRNG" "$ECOPT" verify --batch list1
    grep -qx "1: OK" out.txt || fail "one valid line without randomness: $(<out.txt)"
    # every line fails a per-item rule (S >= 2^255 > l): every verdict is known, exit 1 (not 3)
    : >listx
    while read -r pub sig msg; do printf '%s %sff %s\n' "$pub" "${sig:0:126}" "$msg" >>listx; done <list
    expect 1 "3 of 3 signatures rejected" env LD_PRELOAD="$ECOPT_TEST_FAILRNG" "$ECOPT" verify --batch listx
    [ "$(grep -c ': FAIL encoding' out.txt)" -eq 3 ] || fail "per-item verdicts with getrandom failing: $(<out.txt)"
}

run_cases
