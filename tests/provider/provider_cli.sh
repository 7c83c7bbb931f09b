#!/usr/bin/env bash
# provider_cli.sh — the ecopt provider (ecopt.so) through the openssl command: keys, signatures and shared secrets
# each way between it and OpenSSL's default provider, the proof that ecopt's code ran, and openssl speed.
#
#   bash provider_cli.sh OPENSSL MODULE_DIR [CASE]
#
# Each function t_<case> is one ctest test, provider.cli_<case> (tests/CMakeLists.txt); without CASE all run. Each
# runs in a fresh temporary directory. Exit: 0 pass, 1 fail, 2 bad usage.
#
# Which provider ran: "-provider ecopt -provider base" loads no other X25519 or Ed25519 implementation (the base
# provider has the file decoders and encoders only), so whatever works there ran in ecopt; base cannot read an
# Ed25519 private key file (its decoder derives A with SHA-512, which base lacks), so signing from a file runs
# with "-provider ecopt -provider default -propquery ?provider=ecopt", and t_policy shows that that form runs ecopt's
# verification: it refuses a small-order key OpenSSL's own Ed25519 accepts.
set -euo pipefail

if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -f "$2/ecopt.so" ]; then
    echo "usage: bash $0 OPENSSL MODULE_DIR [CASE]   (MODULE_DIR holds ecopt.so)" >&2
    exit 2
fi
OPENSSL=$1
MODDIR=$(cd "$2" && pwd)
CASE=${3:-}
ONLY_ECOPT=(-provider-path "$MODDIR" -provider ecopt -provider base)
PREFER_ECOPT=(-provider-path "$MODDIR" -provider ecopt -provider default -propquery '?provider=ecopt')

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# ossl ARGS...: run openssl, failing the test with its output when it fails.
ossl() {
    "$OPENSSL" "$@" >ossl.out 2>&1 || { cat ossl.out >&2; fail "openssl $* failed"; }
}

# h2b HEX: the bytes HEX stands for, on stdout.
h2b() {
    printf '%b' "$(printf '%s' "$1" | sed 's/../\\x&/g')"
}

t_list() {
    ossl list -providers "${ONLY_ECOPT[@]}"
    grep -q '^  ecopt$' ossl.out || fail "openssl list -providers does not show ecopt"
    grep -A3 '^  ecopt$' ossl.out | grep -q 'status: active' || fail "ecopt is not active"
    ossl list -signature-algorithms "${ONLY_ECOPT[@]}"
    grep -q 'ED25519 } @ ecopt' ossl.out || fail "no ED25519 signature in ecopt"
    ossl list -key-exchange-algorithms "${ONLY_ECOPT[@]}"
    grep -q 'X25519 } @ ecopt' ossl.out || fail "no X25519 key exchange in ecopt"
    ossl list -key-managers "${ONLY_ECOPT[@]}"
    [ "$(grep -c '} @ ecopt' ossl.out)" = 2 ] || fail "ecopt should list two key managers"
}

t_genpkey() {
    local a
    for a in ED25519 X25519; do
        ossl genpkey "${ONLY_ECOPT[@]}" -algorithm $a -out $a.pem
        # the default provider reads the key and derives the public key ecopt wrote... and computes: the same
        ossl pkey -in $a.pem -pubout -out $a.default.pub
        ossl pkey "${PREFER_ECOPT[@]}" -in $a.pem -pubout -out $a.ecopt.pub
        cmp -s $a.default.pub $a.ecopt.pub || fail "$a: the providers derive different public keys"
        ossl pkey -in $a.pem -text -noout
        grep -q "$a Private-Key" ossl.out || fail "$a: openssl does not read ecopt's key as $a"
    done
}

t_sign_verify() {
    head -c 1000 /dev/urandom >msg
    ossl genpkey -algorithm ED25519 -out def.pem          # made by the default provider
    ossl genpkey "${ONLY_ECOPT[@]}" -algorithm ED25519 -out eco.pem
    local k
    for k in def eco; do
        ossl pkey -in $k.pem -pubout -out $k.pub
        ossl pkeyutl "${PREFER_ECOPT[@]}" -sign -rawin -inkey $k.pem -in msg -out $k.sig.ecopt
        ossl pkeyutl -sign -rawin -inkey $k.pem -in msg -out $k.sig.default
        # Ed25519 is deterministic: the two providers write the same 64 bytes
        cmp -s $k.sig.ecopt $k.sig.default || fail "$k key: ecopt and default sign differently"
        [ "$(wc -c <$k.sig.ecopt)" = 64 ] || fail "$k key: the signature is not 64 bytes"
        ossl pkeyutl -verify -rawin -pubin -inkey $k.pub -in msg -sigfile $k.sig.ecopt
        ossl pkeyutl "${ONLY_ECOPT[@]}" -verify -rawin -pubin -inkey $k.pub -in msg -sigfile $k.sig.default
        grep -q 'Signature Verified Successfully' ossl.out || fail "$k key: ecopt does not verify"
        # a changed message is refused by ecopt
        printf 'x' >>msg
        if "$OPENSSL" pkeyutl "${ONLY_ECOPT[@]}" -verify -rawin -pubin -inkey $k.pub -in msg -sigfile $k.sig.default \
            >out 2>&1; then
            fail "$k key: ecopt verifies a changed message"
        fi
        grep -q 'Signature Verification Failure' out || { cat out >&2; fail "$k key: no verification failure"; }
        head -c 1000 msg >msg.1 && mv msg.1 msg
    done
}

t_derive() {
    ossl genpkey -algorithm X25519 -out def.pem
    ossl genpkey "${ONLY_ECOPT[@]}" -algorithm X25519 -out eco.pem
    ossl pkey -in def.pem -pubout -out def.pub
    ossl pkey -in eco.pem -pubout -out eco.pub
    # each side in each provider: four secrets, all equal
    ossl pkeyutl "${ONLY_ECOPT[@]}" -derive -inkey eco.pem -peerkey def.pub -out s1
    ossl pkeyutl "${ONLY_ECOPT[@]}" -derive -inkey def.pem -peerkey eco.pub -out s2
    ossl pkeyutl -derive -inkey eco.pem -peerkey def.pub -out s3
    ossl pkeyutl -derive -inkey def.pem -peerkey eco.pub -out s4
    [ "$(wc -c <s1)" = 32 ] || fail "the shared secret is not 32 bytes"
    local s
    for s in s2 s3 s4; do cmp -s s1 $s || fail "shared secrets s1 and $s differ"; done
}

# A key of small order (A = the identity) with R = the identity, S = 0 satisfies the unreduced equation: OpenSSL's
# Ed25519 accepts it, ecopt's STRICT policy refuses it (include/ecopt/ecopt.h, rule 2). So a refusal shows that
# ecopt's verification ran, in the -provider ecopt -provider default form.
t_policy() {
    local id=0100000000000000000000000000000000000000000000000000000000000000
    local zero=0000000000000000000000000000000000000000000000000000000000000000
    h2b 302a300506032b6570032100$id >id.der
    h2b $id$zero >id.sig
    printf 'any message' >msg
    ossl pkeyutl -verify -rawin -pubin -keyform DER -inkey id.der -in msg -sigfile id.sig
    grep -q 'Signature Verified Successfully' ossl.out || fail "OpenSSL's default provider no longer accepts it"
    if "$OPENSSL" pkeyutl "${PREFER_ECOPT[@]}" -verify -rawin -pubin -keyform DER -inkey id.der -in msg \
        -sigfile id.sig >out 2>&1; then
        fail "ecopt's verification did not run (the small-order key was accepted)"
    fi
    grep -q 'Signature Verification Failure' out || { cat out >&2; fail "no verification failure"; }
}

# The openssl.cnf snippet of docs/provider.md: both providers activated, ecopt preferred by default_properties; the
# policy case above shows that ecopt's verification ran, with no option on the command line.
t_config() {
    cat >ecopt.cnf <<CNF
openssl_conf = openssl_init

[openssl_init]
providers = provider_sect
alg_section = algorithm_sect

[provider_sect]
ecopt = ecopt_sect
default = default_sect

[ecopt_sect]
module = $MODDIR/ecopt.so
activate = 1

[default_sect]
activate = 1

[algorithm_sect]
default_properties = ?provider=ecopt
CNF
    local id=0100000000000000000000000000000000000000000000000000000000000000
    local zero=0000000000000000000000000000000000000000000000000000000000000000
    h2b 302a300506032b6570032100$id >id.der
    h2b $id$zero >id.sig
    printf 'any message' >msg
    OPENSSL_CONF=ecopt.cnf ossl list -providers
    grep -q '^  ecopt$' ossl.out || fail "the configuration did not load ecopt"
    if OPENSSL_CONF=ecopt.cnf "$OPENSSL" pkeyutl -verify -rawin -pubin -keyform DER -inkey id.der -in msg \
        -sigfile id.sig >out 2>&1; then
        fail "with the configuration, ecopt's verification did not run"
    fi
    grep -q 'Signature Verification Failure' out || { cat out >&2; fail "no verification failure"; }
    # and the configuration signs and derives as usual
    OPENSSL_CONF=ecopt.cnf ossl genpkey -algorithm ED25519 -out ed.pem
    OPENSSL_CONF=ecopt.cnf ossl pkeyutl -sign -rawin -inkey ed.pem -in msg -out sig
    ossl pkey -in ed.pem -pubout -out ed.pub
    ossl pkeyutl -verify -rawin -pubin -inkey ed.pub -in msg -sigfile sig
}

# An X25519 peer of small order: the shared secret would be all zero; ecopt refuses it with its error.
t_zero_peer() {
    ossl genpkey -algorithm X25519 -out own.pem
    h2b 302a300506032b656e0321000000000000000000000000000000000000000000000000000000000000000000 >zero.der
    ossl pkey -pubin -inform DER -in zero.der -out zero.pem
    if "$OPENSSL" pkeyutl "${ONLY_ECOPT[@]}" -derive -inkey own.pem -peerkey zero.pem -out s >out 2>&1; then
        fail "ecopt derived a secret from the all-zero peer"
    fi
    grep -q 'all zero' out || { cat out >&2; fail "the error does not name the all-zero secret"; }
    [ ! -s s ] || fail "a secret was written"
}

t_speed() {
    ossl speed -provider-path "$MODDIR" -provider ecopt -provider default -seconds 1 ed25519 ecdhx25519
    grep -q 'EdDSA (Ed25519)' ossl.out || { cat ossl.out >&2; fail "no Ed25519 line"; }
    grep -q 'ecdh (X25519)' ossl.out || { cat ossl.out >&2; fail "no X25519 line"; }
}

run_case() {
    local dir
    dir=$(mktemp -d)
    (cd "$dir" && "t_$1") || { rm -rf "$dir"; return 1; }
    rm -rf "$dir"
}

if [ -n "$CASE" ]; then
    declare -F "t_$CASE" >/dev/null || { echo "$0: no case $CASE" >&2; exit 2; }
    run_case "$CASE"
else
    for f in $(declare -F | awk '{print $3}' | grep '^t_'); do
        run_case "${f#t_}"
        echo "ok ${f#t_}"
    done
fi
