#!/usr/bin/env bash
# stream.sh — sign --prehash and verify --prehash hash their input in fixed-size pieces: a file far larger than the
# memory bound below is signed and verified within it, from a file, from standard input and from a pipe, and the
# signature equals libsodium's streaming Ed25519ph (tests/cli/ph_oracle.c).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The input: 96 MiB of zeros (a sparse file: no disk, read fast) and a tail that is not zero. The bound: the
# maximum resident memory of the same command on a 3-byte file (libcrypto, the loader; more under ASan) plus
# 16 MiB, far under the file (reading it whole took more than its size).
BIG_MIB=96
SLACK_KIB=$((16 * 1024))

# maxrss STDIN CMD...: run CMD with standard input from the file STDIN ('-': a pipe fed by cat from the file named
# by PIPE_FROM), stdout in out.txt, stderr in err.txt; print "EXIT MAXRSS_KIB" of CMD (cat's is far smaller).
maxrss() {
    python3 - "$@" <<'PY'
import os, resource, subprocess, sys
src, cmd = sys.argv[1], sys.argv[2:]
with open("out.txt", "wb") as out, open("err.txt", "wb") as err:
    if src == "-":
        cat = subprocess.Popen(["cat", os.environ["PIPE_FROM"]], stdout=subprocess.PIPE)
        p = subprocess.Popen(cmd, stdin=cat.stdout, stdout=out, stderr=err)
        cat.stdout.close()
        rc = p.wait()
        cat.wait()
    else:
        with open(src, "rb") as f:
            rc = subprocess.Popen(cmd, stdin=f, stdout=out, stderr=err).wait()
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}

# bounded WHAT EXPECTED_EXIT STDIN CMD...: run CMD under maxrss; fail unless it exits as expected within the bound.
bounded() {
    local what=$1 want=$2 rc kib
    shift 2
    read -r rc kib < <(maxrss "$@")
    [ "$rc" -eq "$want" ] || { cat err.txt >&2; fail "$what: exit $rc, want $want"; }
    [ "$kib" -lt "$MAX_RSS_KIB" ] || fail "$what: maximum resident memory $kib KiB for a $BIG_MIB MiB input (bound $MAX_RSS_KIB KiB)"
    echo "$what: exit $rc, max RSS $kib KiB"
}

setup() {
    command -v python3 >/dev/null || skip "python3 not found (measures the memory)"
    [ -n "${ECOPT_TEST_PHORACLE:-}" ] && [ -x "$ECOPT_TEST_PHORACLE" ] ||
        skip "ECOPT_TEST_PHORACLE not set (libsodium's streaming Ed25519ph, built with libsodium)"
    SEED=$(rand_hex 32)
    ed_priv_pem "$SEED" k.pem
    truncate -s "${BIG_MIB}M" big
    printf 'the end' >>big
    printf 'abc' >small
    local rc kib
    read -r rc kib < <(maxrss /dev/null "$ECOPT" sign --prehash -k k.pem -i small -o - --hex)
    [ "$rc" -eq 0 ] || { cat err.txt >&2; fail "sign --prehash of a 3-byte file: exit $rc"; }
    MAX_RSS_KIB=$((kib + SLACK_KIB))
    echo "baseline: max RSS $kib KiB on a 3-byte file; bound $MAX_RSS_KIB KiB"
}

t_prehash_sign_streams() {
    setup
    local want
    want=$("$ECOPT_TEST_PHORACLE" "$SEED" big)
    bounded "sign --prehash -i big" 0 /dev/null "$ECOPT" sign --prehash -k k.pem -i big -o sig.hex --hex
    [ "$(<sig.hex)" = "$want" ] || fail "sign --prehash -i big: $(<sig.hex), libsodium: $want"
    bounded "sign --prehash -i - <big" 0 big "$ECOPT" sign --prehash -k k.pem -i - -o - --hex
    [ "$(<out.txt)" = "$want" ] || fail "sign --prehash from standard input: $(<out.txt), libsodium: $want"
    PIPE_FROM=big bounded "cat big | sign --prehash -i -" 0 - "$ECOPT" sign --prehash -k k.pem -i - -o - --hex
    [ "$(<out.txt)" = "$want" ] || fail "sign --prehash from a pipe: $(<out.txt), libsodium: $want"
    # a small message too: the same answer as libsodium (one piece, and an empty file)
    : >empty
    ok "$ECOPT" sign --prehash -k k.pem -i small -o - --hex
    [ "$(<out.txt)" = "$("$ECOPT_TEST_PHORACLE" "$SEED" small)" ] || fail "sign --prehash of 3 bytes differs from libsodium"
    ok "$ECOPT" sign --prehash -k k.pem -i empty -o - --hex
    [ "$(<out.txt)" = "$("$ECOPT_TEST_PHORACLE" "$SEED" empty)" ] || fail "sign --prehash of 0 bytes differs from libsodium"
}

t_prehash_verify_streams() {
    setup
    "$ECOPT_TEST_PHORACLE" "$SEED" big >sig.hex
    "$ECOPT" pubkey -i k.pem -o pub.pem
    bounded "verify --prehash -i big" 0 /dev/null "$ECOPT" verify --prehash -p pub.pem -i big -s sig.hex --hex
    grep -q '^Signature OK (Ed25519ph)$' out.txt || fail "verify --prehash: $(<out.txt)"
    bounded "verify --prehash -i - <big" 0 big "$ECOPT" verify --prehash -p pub.pem -i - -s sig.hex --hex
    # a context: signed and verified streamed, and refused without it
    bounded "sign --prehash --context" 0 /dev/null "$ECOPT" sign --prehash --context app -k k.pem -i big -o ctx.sig
    bounded "verify --prehash --context" 0 /dev/null "$ECOPT" verify --prehash --context app -p pub.pem -i big -s ctx.sig
    bounded "verify --prehash, no context" 1 /dev/null "$ECOPT" verify --prehash -p pub.pem -i big -s ctx.sig
    # one more byte: rejected
    printf 'x' >>big
    bounded "verify --prehash, file extended" 1 /dev/null "$ECOPT" verify --prehash -p pub.pem -i big -s sig.hex --hex
    grep -Eq 'Ed25519ph signature rejected, equation' err.txt || fail "verify --prehash, file extended: $(<err.txt)"
    # a missing or unreadable input is bad input (exit 2), as before
    expect 2 '^ecopt verify: nosuch: cannot open: ' "$ECOPT" verify --prehash -p pub.pem -i nosuch -s sig.hex --hex
    expect 2 '^ecopt sign: \.: cannot read: ' "$ECOPT" sign --prehash -k k.pem -i . -o s2
    [ ! -e s2 ] || fail "a failed sign wrote its output"
}

run_cases
