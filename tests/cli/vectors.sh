#!/usr/bin/env bash
# vectors.sh — the shared test vectors (../shared/vectors, read in place) through the ecopt command: raw keys from
# the RFCs wrapped in RFC 8410 PEM files, Wycheproof's own PEM files, signatures and secrets compared byte for byte.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VECTORS=${ECOPT_TEST_VECTORS:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/shared/vectors}
[ -d "$VECTORS" ] || { echo "FAIL: test vectors not found at $VECTORS (expected ../shared/vectors next to the repo)" >&2; exit 1; }

# json_records FILE START TRIGGER KEY...: after the first line that matches the regex START (skipping the files'
# "format" descriptions), for each JSON object in which TRIGGER appears, print the values of KEY... separated by
# '|' (null prints as "null"; a key not seen yet prints empty). Values of enclosing objects persist (a Wycheproof
# group's key applies to its tests). This reads the one-"key": value-per-line layout of the shared vector files;
# it is not a general JSON parser.
json_records() {
    local file=$1 start=$2 trigger=$3
    shift 3
    awk -v start="$start" -v trigger="$trigger" -v keys="$*" '
        BEGIN { n = split(keys, K, " ") }
        !started { started = $0 ~ start; next }
        match($0, /^[ \t]*"[A-Za-z_]+": /) {
            key = substr($0, RSTART, RLENGTH)
            sub(/^[ \t]*"/, "", key)
            sub(/": $/, "", key)
            val = substr($0, RSTART + RLENGTH)
            sub(/,[ \t]*$/, "", val)
            if (val ~ /^".*"$/) val = substr(val, 2, length(val) - 2)
            V[key] = val
            if (key == trigger) {
                line = ""
                for (i = 1; i <= n; i++) line = line (i > 1 ? "|" : "") V[K[i]]
                print line
            }
        }' "$file"
}

t_vectors_rfc8032() {
    local file=$VECTORS/rfc8032/rfc8032_ed25519.json n=0
    local name alg sk pk msg ctx sig
    local -a variant
    while IFS='|' read -r name alg sk pk msg ctx sig; do
        n=$((n + 1))
        case $alg in
        Ed25519) variant=() ;;
        Ed25519ctx) variant=(--context-hex "$ctx") ;;
        Ed25519ph) variant=(--prehash --context-hex "$([ "$ctx" = null ] || printf '%s' "$ctx")") ;;
        *) fail "$name: unknown algorithm $alg" ;;
        esac
        ed_priv_pem "$sk" k.pem
        ed_pub_pem "$pk" k.pub
        h2b "$msg" >msg
        ok "$ECOPT" pubkey -i k.pem -o derived.pub
        [ "$(pem_raw32 derived.pub)" = "$pk" ] || fail "$name ($alg): public key $(pem_raw32 derived.pub), expected $pk"
        ok "$ECOPT" sign -k k.pem -i msg -o sig.hex --hex "${variant[@]}"
        [ "$(<sig.hex)" = "$sig" ] || fail "$name ($alg): signature $(<sig.hex), expected $sig"
        h2b "$sig" >sig.raw
        ok "$ECOPT" verify -p k.pub -i msg -s sig.raw "${variant[@]}"
        grep -q "^Signature OK ($alg)$" out.txt || fail "$name: $(<out.txt)"
        # One bit of the message changed: rejected.
        { cat msg; printf 'x'; } >msg2
        expect 1 "$alg signature rejected, equation" "$ECOPT" verify -p k.pub -i msg2 -s sig.raw "${variant[@]}"
    done < <(json_records "$file" '"vectors": \[' message_length name algorithm secret_key public_key message context signature)
    [ $n -eq 10 ] || fail "read $n RFC 8032 vectors, expected 10"
    echo "RFC 8032: $n vectors"
}

t_vectors_rfc7748() {
    local file=$VECTORS/rfc7748/rfc7748_x25519.json n=0
    local scalar u output
    # Section 5.2: X25519(scalar, u) with raw scalars and u-coordinates as key files.
    while IFS='|' read -r scalar u output; do
        n=$((n + 1))
        x_priv_pem "$scalar" k.pem
        x_pub_pem "$u" u.pub
        ok "$ECOPT" x25519 -k k.pem -p u.pub --hex
        [ "$(<out.txt)" = "$output" ] || fail "X25519($scalar, $u) = $(<out.txt), expected $output"
    done < <(json_records "$file" '"scalar_multiplication": \[' u_decoded_decimal scalar u output)
    [ $n -eq 2 ] || fail "read $n section 5.2 vectors, expected 2"
    # Section 6.1: Diffie-Hellman between Alice and Bob.
    local ap apub bp bpub shared
    IFS='|' read -r ap apub bp bpub shared < <(json_records "$file" '"diffie_hellman": \{' shared_secret alice_private alice_public \
        bob_private bob_public shared_secret)
    [ -n "$shared" ] || fail "no section 6.1 vector"
    x_priv_pem "$ap" alice.pem
    x_priv_pem "$bp" bob.pem
    ok "$ECOPT" pubkey -i alice.pem -o alice.pub
    ok "$ECOPT" pubkey -i bob.pem -o bob.pub
    [ "$(pem_raw32 alice.pub)" = "$apub" ] || fail "Alice's public key $(pem_raw32 alice.pub), expected $apub"
    [ "$(pem_raw32 bob.pub)" = "$bpub" ] || fail "Bob's public key $(pem_raw32 bob.pub), expected $bpub"
    ok "$ECOPT" x25519 -k alice.pem -p bob.pub --hex
    [ "$(<out.txt)" = "$shared" ] || fail "Alice's shared secret $(<out.txt), expected $shared"
    ok "$ECOPT" x25519 -k bob.pem -p alice.pub --hex
    [ "$(<out.txt)" = "$shared" ] || fail "Bob's shared secret $(<out.txt), expected $shared"
}

# Wycheproof's X25519 cases with its own PEM key files. All are "valid" or "acceptable"; the ones whose shared
# secret is all zero (a low-order public key) must be refused with exit 2, all others must match.
# wycheproof_x25519_pem STRIDE: every low-order case, and every STRIDE-th of the others (one process each; the
# whole file takes minutes in a sanitizer build, so the full run is labelled slow).
wycheproof_x25519_pem() {
    local stride=$1 file=$VECTORS/wycheproof/x25519_pem_test.json n=0 zero=0 ran=0
    local id pub priv shared result
    while IFS='|' read -r id pub priv shared result; do
        n=$((n + 1))
        if [ "$shared" != "0000000000000000000000000000000000000000000000000000000000000000" ] &&
            [ $((n % stride)) -ne 0 ]; then
            continue
        fi
        ran=$((ran + 1))
        printf '%b' "$pub" >pub.pem
        printf '%b' "$priv" >priv.pem
        if [ "$shared" = "0000000000000000000000000000000000000000000000000000000000000000" ]; then
            zero=$((zero + 1))
            expect 2 "^ecopt x25519: pub.pem: the peer's public key has small order" \
                "$ECOPT" x25519 -k priv.pem -p pub.pem --hex
        else
            ok "$ECOPT" x25519 -k priv.pem -p pub.pem --hex
            [ "$(<out.txt)" = "$shared" ] || fail "tcId $id ($result): $(<out.txt), expected $shared"
        fi
    done < <(json_records "$file" '"testGroups"' result tcId public private shared result)
    [ $n -eq 518 ] || fail "read $n Wycheproof X25519 PEM cases, expected 518"
    echo "Wycheproof X25519 PEM: ran $ran of $n cases, $zero refused as low order"
}

t_vectors_wycheproof_x25519_pem() {
    wycheproof_x25519_pem 5
}

t_vectors_wycheproof_x25519_pem_all() { # labels: slow
    wycheproof_x25519_pem 1
}

# Wycheproof's Ed25519 cases with its own public key PEM files. A signature that is not 64 bytes is bad input
# (exit 2); otherwise valid must verify (exit 0) and invalid must be rejected (exit 1).
t_vectors_wycheproof_ed25519() {
    local file=$VECTORS/wycheproof/ed25519_test.json n=0 bad_len=0
    local id pem msg sig result
    while IFS='|' read -r id pem msg sig result; do
        n=$((n + 1))
        printf '%b' "$pem" >pub.pem
        h2b "$msg" >msg
        h2b "$sig" >sig
        if [ ${#sig} -ne 128 ]; then
            bad_len=$((bad_len + 1))
            [ "$result" = invalid ] || fail "tcId $id: a valid signature of $((${#sig} / 2)) bytes"
            expect 2 "^ecopt verify: sig: $((${#sig} / 2)) bytes; an Ed25519 signature is 64" \
                "$ECOPT" verify -p pub.pem -i msg -s sig
        elif [ "$result" = valid ]; then
            expect 0 "" "$ECOPT" verify -p pub.pem -i msg -s sig || fail "tcId $id"
        else
            expect 1 "^ecopt verify: sig: Ed25519 signature rejected, " "$ECOPT" verify -p pub.pem -i msg -s sig
        fi
    done < <(json_records "$file" '"testGroups"' result tcId publicKeyPem msg sig result)
    [ $n -eq 151 ] || fail "read $n Wycheproof Ed25519 cases, expected 151"
    echo "Wycheproof Ed25519: $n cases, $bad_len with a signature of the wrong length"
}

run_cases
