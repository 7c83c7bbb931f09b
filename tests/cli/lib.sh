# lib.sh — helpers for the ecopt command's shell tests; sourced by each tests/cli/*.sh.
#
# A test script is run as   bash <script>.sh ECOPT_BINARY [CASE]
# It defines one function t_<case> per test (ctest registers each as cli.<case>; a "# labels: a;b" comment on the
# definition line adds labels). With CASE it runs that one; without, all of them (handy by hand).
# Each case runs in a fresh temporary directory, removed afterwards. Exit: 0 pass, 1 fail, 77 skip.
# Environment (set by tests/cli/CMakeLists.txt): ECOPT_TEST_VECTORS (../shared/vectors), ECOPT_TEST_FAILRNG
# (a preload library whose getrandom always fails).

set -euo pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: bash $0 PATH/TO/ecopt [CASE]" >&2
    exit 2
fi
ECOPT=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
CASE=${2:-}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

skip() {
    echo "SKIP: $*"
    exit 77
}

# ---- bytes and hex ------------------------------------------------------------------------------------------------

# h2b HEX: write the bytes HEX stands for on stdout.
h2b() {
    local h=$1
    local i
    for ((i = 0; i < ${#h}; i += 4096)); do
        printf '%b' "$(printf '%s' "${h:i:4096}" | sed 's/../\\x&/g')"
    done
}

# b2h FILE: the bytes of FILE as lowercase hex, no newline.
b2h() {
    od -An -v -tx1 "$1" | tr -d ' \n'
}

# rand_hex N: N random bytes as hex.
rand_hex() {
    head -c "$1" /dev/urandom | od -An -v -tx1 | tr -d ' \n'
}

# ---- hand-made key files (RFC 8410 DER: fixed prefix + 32 raw bytes) ----------------------------------------------

DER_ED25519_PRIV=302e020100300506032b657004220420
DER_X25519_PRIV=302e020100300506032b656e04220420
DER_ED25519_PUB=302a300506032b6570032100
DER_X25519_PUB=302a300506032b656e032100

# pem LABEL HEX FILE: a PEM file holding the DER bytes HEX.
pem() {
    {
        echo "-----BEGIN $1-----"
        h2b "$2" | base64 -w 64
        echo "-----END $1-----"
    } >"$3"
}

ed_priv_pem() { pem "PRIVATE KEY" "$DER_ED25519_PRIV$1" "$2"; }
x_priv_pem() { pem "PRIVATE KEY" "$DER_X25519_PRIV$1" "$2"; }
ed_pub_pem() { pem "PUBLIC KEY" "$DER_ED25519_PUB$1" "$2"; }
x_pub_pem() { pem "PUBLIC KEY" "$DER_X25519_PUB$1" "$2"; }

# pem_der FILE: the DER inside a one-block PEM file, as hex.
pem_der() {
    sed -e '/^-----/d' "$1" | base64 -d | od -An -v -tx1 | tr -d ' \n'
}

# pem_raw32 FILE: the last 32 bytes of the DER in a PEM file (the raw key of an RFC 8410 file), as hex.
pem_raw32() {
    local d
    d=$(pem_der "$1")
    printf '%s' "${d: -64}"
}

# ---- running ecopt ------------------------------------------------------------------------------------------------

# expect CODE REGEX CMD...: run CMD with stdout in out.txt and stderr in err.txt; fail unless it exits with CODE
# and, when REGEX is not empty, stderr matches REGEX (grep -E). A failing run must print exactly one line on
# stderr, in the form "ecopt <cmd>: <what>: <reason>".
expect() {
    local code=$1 re=$2
    shift 2
    local rc=0
    "$@" >out.txt 2>err.txt || rc=$?
    if [ "$rc" -ne "$code" ]; then
        echo "command: $*" >&2
        echo "stderr:" >&2
        cat err.txt >&2
        fail "exit status $rc, expected $code"
    fi
    if [ -n "$re" ] && ! grep -Eq -- "$re" err.txt; then
        echo "command: $*" >&2
        echo "stderr:" >&2
        cat err.txt >&2
        fail "stderr does not match /$re/"
    fi
    if [ "$code" -ne 0 ]; then
        [ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt >&2; fail "expected exactly one line on stderr"; }
        grep -Eq '^ecopt( [a-z0-9]+)?: ' err.txt || fail "stderr is not 'ecopt <cmd>: ...': $(<err.txt)"
    fi
}

# ok CMD...: expect success.
ok() {
    expect 0 "" "$@"
}

# no_leftovers: no temporary output file (".NAME.XXXXXX") is left in the current directory.
no_leftovers() {
    local left
    left=$(find . -maxdepth 1 -name '.*.??????' -print)
    [ -z "$left" ] || fail "temporary files left behind: $left"
}

# mode FILE: the permission bits of FILE in octal (e.g. 600).
mode() {
    stat -c %a "$1"
}

# ---- main ---------------------------------------------------------------------------------------------------------

# run_case NAME: run t_NAME in a fresh directory; its exit status goes to CASE_RC.
# set -e must stay in force inside the case, so the case is never run as the left side of || or && (bash ignores
# -e there, also in subshells); the parent turns -e off around it instead.
run_case() {
    local name=$1 dir
    declare -F "t_$name" >/dev/null || { echo "no such case: $name" >&2; exit 2; }
    dir=$(mktemp -d "${TMPDIR:-/tmp}/ecopt-cli-$name.XXXXXX")
    set +e
    (
        set -e
        cd "$dir"
        "t_$name"
    )
    CASE_RC=$?
    set -e
    rm -rf "$dir"
}

run_cases() {
    local name failed=0
    if [ -n "$CASE" ]; then
        run_case "$CASE"
        [ "$CASE_RC" -ne 0 ] || echo "PASS: $CASE"
        exit "$CASE_RC"
    fi
    for name in $(declare -F | sed -n 's/^declare -f t_//p'); do
        run_case "$name"
        case $CASE_RC in
        0) echo "PASS: $name" ;;
        77) echo "SKIP: $name" ;;
        *) echo "FAIL: $name" ; failed=1 ;;
        esac
    done
    exit $failed
}
