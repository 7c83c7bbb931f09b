#!/usr/bin/env bash
# demo.sh — a short narrated tour of the ecopt command, run by `make demo`.
# Usage: scripts/demo.sh PATH/TO/ecopt
# Works in a temporary directory that is removed at the end; exits non-zero if any step does not do what it says.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: scripts/demo.sh PATH/TO/ecopt (build it first: make build)" >&2
    exit 2
fi
ECOPT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
command -v openssl >/dev/null || { echo "demo.sh: the openssl command is needed (scripts/install-deps.sh)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ecopt-demo.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

if [ -t 1 ]; then B=$'\e[1m' D=$'\e[2m' G=$'\e[32m' R=$'\e[31m' N=$'\e[0m'; else B= D= G= R= N=; fi
step=0

# say TEXT: start a new step.
say() {
    step=$((step + 1))
    printf '\n%s%d. %s%s\n' "$B" "$step" "$*" "$N"
}

# note TEXT: a line of explanation.
note() {
    printf '%s   %s%s\n' "$D" "$*" "$N"
}

# run EXPECTED_STATUS CMD...: show the command (with "ecopt" for the binary's path), run it, show its output
# indented, and stop the demo unless it exits with EXPECTED_STATUS.
run() {
    local want=$1
    shift
    local shown=("$@")
    [ "${shown[0]}" = "$ECOPT" ] && shown[0]=ecopt
    printf '   $ %s\n' "${shown[*]}"
    local rc=0
    "$@" >out.txt 2>&1 || rc=$?
    sed 's/^/     /' out.txt
    if [ "$rc" -ne "$want" ]; then
        printf '%s   demo failed: exit status %d, expected %d%s\n' "$R" "$rc" "$want" "$N" >&2
        exit 1
    fi
    if [ "$rc" -ne 0 ]; then
        printf '%s   (exit status %d, as expected)%s\n' "$G" "$rc" "$N"
    fi
}

# same FILE1 FILE2 WHAT: stop unless two files are equal; say so.
same() {
    if cmp -s "$1" "$2"; then
        printf '%s   %s: identical%s\n' "$G" "$3" "$N"
    else
        printf '%s   demo failed: %s differ%s\n' "$R" "$3" "$N" >&2
        exit 1
    fi
}

printf '%secopt demo%s — working in %s (removed at the end)\n' "$B" "$N" "$WORK"
run 0 "$ECOPT" version

say "Alice makes an Ed25519 key pair"
note "The private key is a PKCS#8 PEM file (RFC 8410), written with mode 0600."
run 0 "$ECOPT" keygen ed25519 -o alice.pem
run 0 "$ECOPT" pubkey -i alice.pem -o alice.pub.pem
run 0 cat alice.pub.pem
run 0 ls -l alice.pem alice.pub.pem

say "Alice signs a file"
printf 'Alice pays Bob 10 euros.\n' >contract.txt
run 0 cat contract.txt
run 0 "$ECOPT" sign -k alice.pem -i contract.txt -o contract.sig
note "The signature is 64 bytes (R || S); here it is in hex:"
run 0 od -An -v -tx1 contract.sig

say "Bob verifies the signature with Alice's public key"
run 0 "$ECOPT" verify -p alice.pub.pem -i contract.txt -s contract.sig

say "Someone changes the file: verification fails (exit status 1)"
printf 'Alice pays Bob 1000 euros.\n' >contract.txt
run 0 cat contract.txt
run 1 "$ECOPT" verify -p alice.pub.pem -i contract.txt -s contract.sig
printf 'Alice pays Bob 10 euros.\n' >contract.txt

say "Alice and Bob agree on a shared secret with X25519"
note "Each makes an X25519 key and sends the other only the public key."
run 0 "$ECOPT" keygen x25519 -o alice-x.pem
run 0 "$ECOPT" pubkey -i alice-x.pem -o alice-x.pub.pem
run 0 "$ECOPT" keygen x25519 -o bob-x.pem
run 0 "$ECOPT" pubkey -i bob-x.pem -o bob-x.pub.pem
note "Alice combines her private key with Bob's public key, and Bob the other way round:"
run 0 "$ECOPT" x25519 -k alice-x.pem -p bob-x.pub.pem -o alice.secret
run 0 "$ECOPT" x25519 -k bob-x.pem -p alice-x.pub.pem -o bob.secret
run 0 od -An -v -tx1 alice.secret
run 0 od -An -v -tx1 bob.secret
same alice.secret bob.secret "Alice's and Bob's secrets"

say "OpenSSL checks ecopt's work, and the other way round"
note "openssl verifies the signature that ecopt made:"
run 0 openssl pkeyutl -verify -rawin -pubin -inkey alice.pub.pem -in contract.txt -sigfile contract.sig
note "openssl makes a key and signs; ecopt verifies:"
run 0 openssl genpkey -algorithm ed25519 -out carol.pem
run 0 openssl pkey -in carol.pem -pubout -out carol.pub.pem
run 0 openssl pkeyutl -sign -rawin -inkey carol.pem -in contract.txt -out carol.sig
run 0 "$ECOPT" verify -p carol.pub.pem -i contract.txt -s carol.sig
note "Ed25519 signing is deterministic, so ecopt's signature with Carol's key is the same bytes:"
run 0 "$ECOPT" sign -k carol.pem -i contract.txt -o carol-by-ecopt.sig
same carol.sig carol-by-ecopt.sig "openssl's and ecopt's signatures"
note "openssl derives the X25519 secret from Alice's key and Bob's public key:"
run 0 openssl pkeyutl -derive -inkey alice-x.pem -peerkey bob-x.pub.pem -out openssl.secret
same alice.secret openssl.secret "ecopt's and openssl's secrets"

printf '\n%sDemo complete.%s Try "ecopt --help" (%s), or "make test".\n' "$B" "$N" "$ECOPT"
