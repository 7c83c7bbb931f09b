#!/usr/bin/env bash
# errors.sh — every bad-input and failure path of the ecopt command: its exit status (1 no, 2 usage or input,
# 3 environment), its one-line message, and that no output file is left behind.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Keys, a message and its signature for the cases below.
fixture() {
    ok "$ECOPT" keygen ed25519 -o ed.pem
    ok "$ECOPT" pubkey -i ed.pem -o ed.pub
    ok "$ECOPT" keygen x25519 -o x.pem
    ok "$ECOPT" pubkey -i x.pem -o x.pub
    printf 'hello, world\n' >msg
    ok "$ECOPT" sign -k ed.pem -i msg -o msg.sig
}

# ---- usage (exit 2) -----------------------------------------------------------------------------------------------

t_usage_no_command() {
    expect 2 "^ecopt: missing command \(see 'ecopt --help'\)$" "$ECOPT"
}

t_usage_unknown_command() {
    expect 2 "^ecopt: frobnicate: unknown command" "$ECOPT" frobnicate
    expect 2 "^ecopt help: frobnicate: unknown command" "$ECOPT" help frobnicate
}

t_usage_unknown_option() {
    fixture
    expect 2 "^ecopt sign: --frob: unknown option \(see 'ecopt sign --help'\)$" \
        "$ECOPT" sign -k ed.pem -i msg -o out.sig --frob
    expect 2 "^ecopt verify: -x: unknown option" "$ECOPT" verify -x -p ed.pub -i msg -s msg.sig
    expect 2 "^ecopt keygen: --context: unknown option" "$ECOPT" keygen ed25519 -o k.pem --context a
    expect 2 "^ecopt version: --verbose: unknown option" "$ECOPT" version --verbose
    [ ! -e out.sig ] && [ ! -e k.pem ] || fail "output written despite a usage error"
}

t_usage_option_without_value() {
    expect 2 "^ecopt sign: -k: needs a value$" "$ECOPT" sign -i msg -o s -k
    expect 2 "^ecopt verify: --hex: takes no value$" "$ECOPT" verify --hex=yes -p a -i b -s c
}

t_usage_missing_option() {
    fixture
    expect 2 "^ecopt sign: -k: missing: the private key file" "$ECOPT" sign -i msg -o out.sig
    expect 2 "^ecopt sign: -o: missing: the signature file" "$ECOPT" sign -k ed.pem -i msg
    expect 2 "^ecopt verify: -s: missing: the signature file" "$ECOPT" verify -p ed.pub -i msg
    expect 2 "^ecopt x25519: -p: missing: the peer's public key file" "$ECOPT" x25519 -k x.pem
    expect 2 "^ecopt pubkey: -i: missing" "$ECOPT" pubkey -o p.pem
    expect 2 "^ecopt keygen: -o: missing: the output file" "$ECOPT" keygen ed25519
    expect 2 "^ecopt keygen: TYPE: missing: ed25519 or x25519" "$ECOPT" keygen -o k.pem
    [ ! -e out.sig ] && [ ! -e k.pem ] && [ ! -e p.pem ] || fail "output written despite a usage error"
}

t_usage_option_twice() {
    fixture
    expect 2 "^ecopt sign: --in: given more than once$" "$ECOPT" sign -k ed.pem -i msg -i msg -o out.sig
}

t_usage_unexpected_argument() {
    fixture
    expect 2 "^ecopt sign: extra: unexpected argument" "$ECOPT" sign -k ed.pem -i msg -o out.sig extra
    expect 2 "^ecopt keygen: x25519: unexpected argument" "$ECOPT" keygen ed25519 x25519 -o k.pem
    expect 2 "^ecopt help: sign: unexpected argument" "$ECOPT" help verify sign
}

t_usage_keygen_unknown_type() {
    expect 2 "^ecopt keygen: rsa: unknown key type; use ed25519 or x25519$" "$ECOPT" keygen rsa -o k.pem
    [ ! -e k.pem ] || fail "key written"
}

t_usage_stdin_twice() {
    fixture
    expect 2 "^ecopt verify: -: standard input can be used for one input only$" \
        "$ECOPT" verify -p ed.pub -i - -s - </dev/null
    expect 2 "^ecopt sign: -: standard input can be used for one input only$" \
        "$ECOPT" sign -k - -i - -o out.sig </dev/null
}

t_usage_binary_to_terminal() {
    fixture
    command -v script >/dev/null || skip "script(1) is not installed: no pseudo-terminal to test with"
    local rc=0 q
    q=$(printf '%q' "$ECOPT") # script(1) runs its command through a shell: the path may hold spaces
    script -qec "$q x25519 -k x.pem -p x.pub" /dev/null >tty.txt 2>&1 || rc=$?
    [ "$rc" -eq 2 ] || { cat tty.txt; fail "exit status $rc, expected 2"; }
    grep -q "standard output: is a terminal; use --hex or -o FILE" tty.txt || { cat tty.txt; fail "message"; }
    rc=0
    script -qec "$q x25519 -k x.pem -p x.pub --hex" /dev/null >tty.txt 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || { cat tty.txt; fail "--hex on a terminal: exit status $rc"; }
}

t_usage_unknown_backend() {
    fixture
    export ECOPT_BACKEND=no-such-backend
    expect 2 "^ecopt sign: ECOPT_BACKEND=no-such-backend: unknown backend \(compiled in: [a-z0-9_ ]+\)$" \
        "$ECOPT" sign -k ed.pem -i msg -o out.sig
    expect 2 "^ecopt version: ECOPT_BACKEND=no-such-backend: unknown backend" "$ECOPT" version
    [ ! -s out.txt ] || fail "version printed on stdout with an unknown backend: $(<out.txt)"
    expect 2 "^ecopt keygen: ECOPT_BACKEND=no-such-backend" "$ECOPT" keygen x25519 -o k.pem
    expect 2 "^ecopt x25519: ECOPT_BACKEND=no-such-backend" "$ECOPT" x25519 -k x.pem -p x.pub
    expect 2 "^ecopt verify: ECOPT_BACKEND=no-such-backend" "$ECOPT" verify -p ed.pub -i msg -s msg.sig
    [ ! -e out.sig ] && [ ! -e k.pem ] || fail "output written with an unknown backend"
    # Part of a name, or two names, are not names.
    local first list prefix="" n
    list=$(unset ECOPT_BACKEND; "$ECOPT" version | sed -n 's/^compiled in: //p')
    first=${list%% *}
    [ -n "$first" ] || fail "no backend list"
    # A name with its last character dropped that is not itself a name ("adx51" gives "adx5"; one whose prefix is a
    # name is passed over, as "adx4" was when "adx" was the 5 x 51 backend).
    for n in $list; do
        case " $list " in *" ${n:0:${#n}-1} "*) ;; *) prefix=${n:0:${#n}-1}; break ;; esac
    done
    [ -n "$prefix" ] || fail "no backend name whose prefix is not a name: $list"
    ECOPT_BACKEND=$prefix expect 2 "ECOPT_BACKEND=$prefix: unknown backend" "$ECOPT" version
    ECOPT_BACKEND="$first $first" expect 2 "unknown backend" "$ECOPT" version
    # two names that stand next to each other in the list are not one name (they used to pass as "unavailable")
    case "$list" in *" "*) ECOPT_BACKEND="$list" expect 2 "ECOPT_BACKEND=$list: unknown backend" "$ECOPT" version ;; esac
}

t_usage_backend_renamed() {
    # the 4 x 64 backend's old name gets a hint, which says so where adx is not compiled in (noadx build); another
    # unknown name gets none
    # (t_usage_unknown_backend anchors it)
    local list
    list=$(unset ECOPT_BACKEND; "$ECOPT" version | sed -n 's/^compiled in: //p')
    case " $list " in
    *" adx "*) ECOPT_BACKEND=adx4 expect 2 \
        "^ecopt version: ECOPT_BACKEND=adx4: unknown backend \(compiled in: [a-z0-9_ ]+\); adx4 was renamed adx$" \
        "$ECOPT" version ;;
    *) ECOPT_BACKEND=adx4 expect 2 \
        "^ecopt version: ECOPT_BACKEND=adx4: unknown backend \(compiled in: [a-z0-9_ ]+\); adx4 was renamed adx, which this build left out$" \
        "$ECOPT" version ;;
    esac
    ECOPT_BACKEND=adx5 expect 2 "^ecopt version: ECOPT_BACKEND=adx5: unknown backend \(compiled in: [a-z0-9_ ]+\)$" \
        "$ECOPT" version
}

t_usage_backend_not_compiled() {
    # adx, adx51 and x64 are ecopt's, but a build with -DECOPT_ADX=OFF (or off x86-64) leaves them out: said so, not
    # "unknown". Skipped in builds that have all three; .ci/run's noadx build (-DECOPT_ADX=OFF) runs it.
    local list
    list=$(unset ECOPT_BACKEND; "$ECOPT" version | sed -n 's/^compiled in: //p')
    case " $list " in *" adx "*) case " $list " in *" adx51 "*) case " $list " in *" x64 "*)
        skip "this build has adx, adx51 and x64" ;; esac ;; esac ;; esac
    for n in adx adx51 x64; do
        case " $list " in
        *" $n "*) ;;
        *) ECOPT_BACKEND=$n expect 2 \
            "^ecopt version: ECOPT_BACKEND=$n: backend not compiled in \(compiled in: [a-z0-9_ ]+; adx, adx51 and x64 need" \
            "$ECOPT" version ;;
        esac
    done
}

t_usage_backend_long_value_cut() {
    # A long value is shown up to 60 bytes, then "...", never cut inside a UTF-8 character (which would show its
    # first bytes as \xNN, as if the value were invalid UTF-8).
    local a59 a58 e=$'\xc3\xa9' key=$'\xf0\x9f\x94\x91'
    a59=$(printf 'a%.0s' {1..59})
    a58=${a59:1}
    # e (2 bytes) at bytes 60-61: cut before it
    ECOPT_BACKEND="$a59${e}b" expect 2 "^ecopt version: ECOPT_BACKEND=$a59\.\.\.: unknown backend" "$ECOPT" version
    grep -q '\\x' err.txt && fail "a cut character shown as bytes: $(<err.txt)"
    # a 4-byte character at bytes 59-62: cut before it
    ECOPT_BACKEND="$a58${key}b" expect 2 "^ecopt version: ECOPT_BACKEND=$a58\.\.\.: unknown backend" "$ECOPT" version
    grep -q '\\x' err.txt && fail "a cut character shown as bytes: $(<err.txt)"
    # e at bytes 59-60 fits whole; exactly 60 bytes is not cut; 61 ASCII bytes are
    ECOPT_BACKEND="$a58${e}b" expect 2 "^ecopt version: ECOPT_BACKEND=$a58$e\.\.\.: unknown backend" "$ECOPT" version
    ECOPT_BACKEND="$a58$e" expect 2 "^ecopt version: ECOPT_BACKEND=$a58$e: unknown backend" "$ECOPT" version
    ECOPT_BACKEND="${a59}bc" expect 2 "^ecopt version: ECOPT_BACKEND=${a59}b\.\.\.: unknown backend" "$ECOPT" version
    # invalid UTF-8 is still escaped byte by byte (the cut only looks for characters)
    ECOPT_BACKEND="$a58"$'\xff\xfe'"b" expect 2 "^ecopt version: ECOPT_BACKEND=$a58\\\\xff\\\\xfe\.\.\.: unknown" \
        "$ECOPT" version
}

t_backend_ignored_without_library() {
    # ECOPT_BACKEND picks the library's backend: gen, ir, check and opt do not use the library and ignore it, bad
    # or not (docs/command.md, "Exit status"); the library's commands refuse a bad one (t_usage_unknown_backend).
    export ECOPT_BACKEND=no-such-backend
    ok "$ECOPT" gen --prime 2^255-19 --method solinas-unsaturated --limbs 5 --op add --emit ir -o add.ir
    ok "$ECOPT" ir --ir add.ir --emit c -o add.c
    [ -s add.c ] || fail "ecopt ir wrote nothing"
    expect 2 "^ecopt version: ECOPT_BACKEND=no-such-backend: unknown backend" "$ECOPT" version
    "$ECOPT" help >help.txt
    if grep -q '^  opt ' help.txt; then
        ok "$ECOPT" opt --ir add.ir -o add.S --evals 20 --rounds 3 --quiet
        grep -q 'Checker: *PROVED' add.S || fail "ecopt opt: no PROVED .S"
    fi
    if grep -q '^  check ' help.txt && [ -f add.S ]; then
        ok "$ECOPT" check add.S --ir add.ir
        grep -q '^PROVED' out.txt || fail "ecopt check: $(<out.txt)"
    fi
}

t_usage_control_characters_escaped() {
    fixture
    # File names, arguments and ECOPT_BACKEND are printed with control characters escaped: one line always.
    expect 2 '^ecopt sign: no\\nsuch\\x1b\[31m: cannot open: No such file or directory$' \
        "$ECOPT" sign -k ed.pem -i $'no\nsuch\e[31m' -o out.sig
    expect 2 '^ecopt: fro\\nb\\tx: unknown command' "$ECOPT" $'fro\nb\tx'
    expect 2 '^ecopt sign: --fr\\rob: unknown option' "$ECOPT" sign -k ed.pem -i msg -o out.sig $'--fr\rob'
    ECOPT_BACKEND=$'u\n64' expect 2 '^ecopt version: ECOPT_BACKEND=u\\n64: unknown backend' "$ECOPT" version
    printf 'x' >$'new\nline.pem'
    expect 2 '^ecopt verify: new\\nline.pem: not a PEM file' "$ECOPT" verify -p $'new\nline.pem' -i msg -s msg.sig
    # C1 controls: a lone byte 0x9b (CSI to an 8-bit terminal), U+009B in UTF-8 (c2 9b), invalid UTF-8 (c3 28) are
    # escaped byte by byte; other UTF-8 text (e9 = U+00E9 as c3 a9, a 4-byte emoji) is printed as it is
    expect 2 '^ecopt sign: a\\x9bb: cannot open' "$ECOPT" sign -k ed.pem -i $'a\x9bb' -o out.sig
    expect 2 '^ecopt sign: a\\xc2\\x9bb: cannot open' "$ECOPT" sign -k ed.pem -i $'a\xc2\x9bb' -o out.sig
    expect 2 '^ecopt sign: a\\xc3\(b: cannot open' "$ECOPT" sign -k ed.pem -i $'a\xc3(b' -o out.sig
    expect 2 "^ecopt sign: caf"$'\xc3\xa9'"-"$'\xf0\x9f\x94\x91'": cannot open" \
        "$ECOPT" sign -k ed.pem -i $'caf\xc3\xa9-\xf0\x9f\x94\x91' -o out.sig
    [ ! -e out.sig ] || fail "signature written"
}

t_usage_output_is_input() {
    fixture
    cp ed.pem ed.orig
    cp x.pem x.orig
    expect 2 "^ecopt pubkey: ed.pem: is also an input \(-i ed.pem\); write the output to another file$" \
        "$ECOPT" pubkey -i ed.pem -o ed.pem
    expect 2 "^ecopt sign: ed.pem: is also an input \(-k ed.pem\)" "$ECOPT" sign -k ed.pem -i msg -o ed.pem
    expect 2 "^ecopt sign: ed.pem: is also an input \(-k ed.pem\)" "$ECOPT" sign -k ed.pem -i msg -o ed.pem --hex
    expect 2 "^ecopt x25519: x.pem: is also an input \(-k x.pem\)" "$ECOPT" x25519 -k x.pem -p x.pub -o x.pem
    expect 2 "^ecopt x25519: x.pub: is also an input \(-p x.pub\)" "$ECOPT" x25519 -k x.pem -p x.pub -o x.pub
    # Another name for the same file: a hard link, a symbolic link, standard input.
    ln ed.pem hard.pem
    expect 2 "^ecopt pubkey: hard.pem: is also an input \(-i ed.pem\)" "$ECOPT" pubkey -i ed.pem -o hard.pem
    ln -s ed.pem sym.pem
    expect 2 "^ecopt sign: sym.pem: is also an input \(-k ed.pem\)" "$ECOPT" sign -k ed.pem -i msg -o sym.pem
    expect 2 "^ecopt pubkey: ed.pem: is also an input \(-i standard input\)" "$ECOPT" pubkey -i - -o ed.pem <ed.pem
    cmp -s ed.pem ed.orig && cmp -s x.pem x.orig || fail "a private key was overwritten"
    [ -L sym.pem ] || fail "the link was replaced"
    no_leftovers
}

# ---- missing and unreadable input (exit 2) ------------------------------------------------------------------------

t_input_missing_message() {
    fixture
    expect 2 "^ecopt sign: nosuch.txt: cannot open: No such file or directory$" \
        "$ECOPT" sign -k ed.pem -i nosuch.txt -o out.sig
    expect 2 "^ecopt verify: nosuch.txt: cannot open: No such file or directory$" \
        "$ECOPT" verify -p ed.pub -i nosuch.txt -s msg.sig
    [ ! -e out.sig ] || fail "signature written"
    no_leftovers
}

t_input_missing_key() {
    fixture
    expect 2 "^ecopt sign: nosuch.pem: cannot open: No such file or directory$" \
        "$ECOPT" sign -k nosuch.pem -i msg -o out.sig
    expect 2 "^ecopt verify: nosuch.pem: cannot open" "$ECOPT" verify -p nosuch.pem -i msg -s msg.sig
    expect 2 "^ecopt x25519: nosuch.pem: cannot open" "$ECOPT" x25519 -k x.pem -p nosuch.pem
    expect 2 "^ecopt pubkey: nosuch.pem: cannot open" "$ECOPT" pubkey -i nosuch.pem
}

t_input_missing_signature() {
    fixture
    expect 2 "^ecopt verify: nosuch.sig: cannot open: No such file or directory$" \
        "$ECOPT" verify -p ed.pub -i msg -s nosuch.sig
}

t_input_unreadable() {
    fixture
    mkdir adir
    expect 2 "^ecopt sign: adir: cannot read: Is a directory$" "$ECOPT" sign -k ed.pem -i adir -o out.sig
    expect 2 "^ecopt sign: adir: cannot read: Is a directory$" "$ECOPT" sign -k adir -i msg -o out.sig
    [ ! -e out.sig ] || fail "signature written"
    if [ "$(id -u)" -ne 0 ]; then # root reads any file, so this half needs an ordinary user
        cp msg secret.txt
        chmod 000 secret.txt
        expect 2 "^ecopt sign: secret.txt: cannot open: Permission denied$" \
            "$ECOPT" sign -k ed.pem -i secret.txt -o out.sig
    fi
}

# ---- malformed and unsupported key files (exit 2) -----------------------------------------------------------------

t_key_not_pem() {
    fixture
    printf 'this is not a key\n' >junk.pem
    expect 2 "^ecopt sign: junk.pem: not a PEM file \(no '-----BEGIN' line\)$" "$ECOPT" sign -k junk.pem -i msg -o out.sig
    : >empty.pem
    expect 2 "^ecopt verify: empty.pem: not a PEM file" "$ECOPT" verify -p empty.pem -i msg -s msg.sig
    head -c 1000 /dev/urandom >random.pem
    expect 2 "^ecopt pubkey: random.pem: not a PEM file" "$ECOPT" pubkey -i random.pem
}

t_key_malformed_pem() {
    fixture
    # Base64 that is cut off, and a missing END line.
    { echo "-----BEGIN PRIVATE KEY-----"; echo "MC4CAQAwBQYDK2VwBCIEI%%%%"; echo "-----END PRIVATE KEY-----"; } >bad64.pem
    expect 2 "^ecopt sign: bad64.pem: malformed PEM" "$ECOPT" sign -k bad64.pem -i msg -o out.sig
    head -n 2 ed.pem >noend.pem
    expect 2 "^ecopt sign: noend.pem: malformed PEM" "$ECOPT" sign -k noend.pem -i msg -o out.sig
    [ ! -e out.sig ] || fail "signature written"
}

t_key_truncated_der() {
    fixture
    local der
    der=$(pem_der ed.pem)
    pem "PRIVATE KEY" "${der:0:80}" short.pem # 40 of 48 bytes
    expect 2 "^ecopt sign: short.pem: malformed PKCS#8 private key" "$ECOPT" sign -k short.pem -i msg -o out.sig
    pem "PRIVATE KEY" "${der}00" long.pem # one byte after the end
    expect 2 "^ecopt sign: long.pem: malformed PKCS#8 private key: 1 bytes after its end$" \
        "$ECOPT" sign -k long.pem -i msg -o out.sig
    der=$(pem_der ed.pub)
    pem "PUBLIC KEY" "${der:0:60}" short.pub
    expect 2 "^ecopt verify: short.pub: malformed public key" "$ECOPT" verify -p short.pub -i msg -s msg.sig
    # An Ed25519 private key of 31 bytes: well-formed DER, wrong key length.
    pem "PRIVATE KEY" "302d020100300506032b657004210420$(rand_hex 31)" k31.pem
    expect 2 "^ecopt sign: k31.pem: malformed" "$ECOPT" sign -k k31.pem -i msg -o out.sig
    [ ! -e out.sig ] || fail "signature written"
}

t_key_pkcs8_v2_refused() {
    fixture
    # A hand-made PKCS#8 v2 (RFC 5958 OneAsymmetricKey) file: version 1 and the public key as [1] IMPLICIT BIT
    # STRING, the form of RFC 8410 section 10.3.
    local seed pub
    seed=$(pem_raw32 ed.pem)
    pub=$(pem_raw32 ed.pub)
    pem "PRIVATE KEY" "3051020101300506032b657004220420${seed}812100${pub}" v2.pem
    expect 2 "^ecopt sign: v2.pem: a PKCS#8 v2 key \(OneAsymmetricKey, version 1\) is not supported; use a PKCS#8 v1 key \(RFC 8410 section 7\)$" \
        "$ECOPT" sign -k v2.pem -i msg -o out.sig
    # Version 1 without the public key: the same refusal, and the message does not claim a public key.
    pem "PRIVATE KEY" "302e020101300506032b657004220420${seed}" v2nopub.pem
    expect 2 "^ecopt sign: v2nopub.pem: a PKCS#8 v2 key \(OneAsymmetricKey, version 1\) is not supported" \
        "$ECOPT" sign -k v2nopub.pem -i msg -o out.sig
    grep -q "attached" err.txt && fail "the message claims a public key attached"
    expect 2 "^ecopt pubkey: v2.pem: a PKCS#8 v2 key" "$ECOPT" pubkey -i v2.pem
    # The same for X25519.
    seed=$(pem_raw32 x.pem)
    pub=$(pem_raw32 x.pub)
    pem "PRIVATE KEY" "3051020101300506032b656e04220420${seed}812100${pub}" xv2.pem
    expect 2 "^ecopt x25519: xv2.pem: a PKCS#8 v2 key" "$ECOPT" x25519 -k xv2.pem -p x.pub
    # Version 2 does not exist.
    pem "PRIVATE KEY" "302e020102300506032b657004220420${seed}" v3.pem
    expect 2 "^ecopt sign: v3.pem: unsupported PKCS#8 version 2" "$ECOPT" sign -k v3.pem -i msg -o out.sig
    [ ! -e out.sig ] || fail "signature written"
}

t_key_encrypted_refused() {
    fixture
    command -v openssl >/dev/null || fail "openssl is not installed (scripts/install-deps.sh installs it)"
    openssl pkey -in ed.pem -aes-128-cbc -passout pass:secret -out enc.pem 2>/dev/null
    grep -q "BEGIN ENCRYPTED PRIVATE KEY" enc.pem || fail "openssl did not write an encrypted key"
    expect 2 "^ecopt sign: enc.pem: an encrypted private key; ecopt reads unencrypted PKCS#8 keys only$" \
        "$ECOPT" sign -k enc.pem -i msg -o out.sig </dev/null
}

t_key_other_pem_block() {
    fixture
    pem CERTIFICATE "3003020100" cert.pem
    expect 2 "^ecopt sign: cert.pem: a PEM 'CERTIFICATE' block; expected 'PRIVATE KEY'$" \
        "$ECOPT" sign -k cert.pem -i msg -o out.sig
    expect 2 "^ecopt verify: cert.pem: a PEM 'CERTIFICATE' block; expected 'PUBLIC KEY' or 'PRIVATE KEY'$" \
        "$ECOPT" verify -p cert.pem -i msg -s msg.sig
}

t_key_wrong_type_sign() {
    fixture
    expect 2 "^ecopt sign: x.pem: an X25519 key; this command needs an Ed25519 key$" \
        "$ECOPT" sign -k x.pem -i msg -o out.sig
    [ ! -e out.sig ] || fail "signature written"
}

t_key_wrong_type_verify() {
    fixture
    expect 2 "^ecopt verify: x.pub: an X25519 key; this command needs an Ed25519 key$" \
        "$ECOPT" verify -p x.pub -i msg -s msg.sig
}

t_key_wrong_type_x25519() {
    fixture
    expect 2 "^ecopt x25519: ed.pem: an Ed25519 key; this command needs an X25519 key$" \
        "$ECOPT" x25519 -k ed.pem -p x.pub
    expect 2 "^ecopt x25519: ed.pub: an Ed25519 key; this command needs an X25519 key$" \
        "$ECOPT" x25519 -k x.pem -p ed.pub
}

t_key_public_for_private() {
    fixture
    expect 2 "^ecopt sign: ed.pub: a public key; this command needs an Ed25519 private key$" \
        "$ECOPT" sign -k ed.pub -i msg -o out.sig
    expect 2 "^ecopt x25519: x.pub: a public key; this command needs an X25519 private key$" \
        "$ECOPT" x25519 -k x.pub -p x.pub
}

t_key_other_algorithm() {
    fixture
    command -v openssl >/dev/null || fail "openssl is not installed (scripts/install-deps.sh installs it)"
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.pem 2>/dev/null
    openssl pkey -in ec.pem -pubout -out ec.pub
    expect 2 "^ecopt sign: ec.pem: unsupported key algorithm id-ecPublicKey; this command needs an Ed25519 key$" \
        "$ECOPT" sign -k ec.pem -i msg -o out.sig
    expect 2 "^ecopt verify: ec.pub: unsupported key algorithm id-ecPublicKey" "$ECOPT" verify -p ec.pub -i msg -s msg.sig
    expect 2 "^ecopt pubkey: ec.pem: unsupported key algorithm id-ecPublicKey; this command needs an Ed25519 or X25519 key$" \
        "$ECOPT" pubkey -i ec.pem
    # Ed448 is a neighbour that must not be mistaken for Ed25519.
    openssl genpkey -algorithm ed448 -out ed448.pem 2>/dev/null
    expect 2 "^ecopt sign: ed448.pem: unsupported key algorithm ED448" "$ECOPT" sign -k ed448.pem -i msg -o out.sig
}

t_key_pub_bit_string_unused_bits() {
    fixture
    # The Ed25519 public key's BIT STRING declares 1 to 7 unused bits: refused, not read with its low bits cleared.
    local raw der u
    raw=$(pem_raw32 ed.pub)
    for u in 01 03 07; do
        pem "PUBLIC KEY" "302a300506032b65700321${u}${raw}" unused$u.pub
        expect 2 "^ecopt verify: unused$u.pub: malformed public key: BIT STRING with unused bits$" \
            "$ECOPT" verify -p unused$u.pub -i msg -s msg.sig
        expect 2 "^ecopt pubkey: unused$u.pub: malformed public key: BIT STRING with unused bits$" \
            "$ECOPT" pubkey -i unused$u.pub -o out.pub
        [ ! -e out.pub ] || fail "pubkey wrote a key read from a BIT STRING with unused bits"
    done
    raw=$(pem_raw32 x.pub)
    pem "PUBLIC KEY" "302a300506032b656e032101${raw}" xunused.pub
    expect 2 "^ecopt x25519: xunused.pub: malformed public key: BIT STRING with unused bits$" \
        "$ECOPT" x25519 -k x.pem -p xunused.pub -o secret
    [ ! -e secret ] || fail "secret written"
}

t_key_data_after_pem() {
    fixture
    # A second PEM block, or text after the END line, is refused; white space is fine.
    cat ed.pem ed.pem >two.pem
    expect 2 "^ecopt sign: two.pem: malformed PEM: data after the END line" "$ECOPT" sign -k two.pem -i msg -o out.sig
    cat ed.pub x.pub >two.pub
    expect 2 "^ecopt verify: two.pub: malformed PEM: data after the END line" "$ECOPT" verify -p two.pub -i msg -s msg.sig
    { cat x.pem; echo trailing; } >text.pem
    expect 2 "^ecopt x25519: text.pem: malformed PEM: data after the END line" "$ECOPT" x25519 -k text.pem -p x.pub
    [ ! -e out.sig ] || fail "signature written"
    { cat ed.pem; printf '\n  \r\n\t\n'; } >ws.pem
    ok "$ECOPT" sign -k ws.pem -i msg -o out.sig
}

t_key_too_large() {
    fixture
    { cat ed.pem; head -c 70000 /dev/zero | tr '\0' 'a'; } >big.pem
    expect 2 "^ecopt sign: big.pem: too large for a key file \(over 65536 bytes\)$" "$ECOPT" sign -k big.pem -i msg -o out.sig
}

# ---- Ed25519 public keys that break the strict rules for A (exit 2) ----------------------------------------------
# verify (strict) and pubkey check a public key file with ecopt_ed25519_publickey_check; verify --zip215 does not,
# since ZIP 215 accepts such keys (a signature then fails or passes on the equation, exit 1 or 0).

# bad_pub_key NAME HEX MESSAGE: the public key file NAME holding HEX is refused with MESSAGE by verify (every
# variant, and from standard input) and by pubkey (which writes nothing).
bad_pub_key() {
    local f=$1 msg=$3
    ed_pub_pem "$2" "$f"
    expect 2 "^ecopt verify: $f: $msg$" "$ECOPT" verify -p "$f" -i msg -s msg.sig
    [ ! -s out.txt ] || fail "$f: verify printed on stdout"
    expect 2 "^ecopt verify: $f: $msg$" "$ECOPT" verify -p "$f" -i msg -s msg.sig --context abc
    expect 2 "^ecopt verify: $f: $msg$" "$ECOPT" verify -p "$f" -i msg -s msg.sig --prehash
    expect 2 "^ecopt verify: standard input: $msg$" "$ECOPT" verify -p - -i msg -s msg.sig <"$f"
    expect 2 "^ecopt pubkey: $f: $msg$" "$ECOPT" pubkey -i "$f" -o out.pub
    [ ! -e out.pub ] || fail "$f: pubkey wrote a key that breaks the strict rules"
    expect 2 "^ecopt pubkey: $f: $msg$" "$ECOPT" pubkey -i "$f"
    [ ! -s out.txt ] || fail "$f: pubkey wrote the key to stdout"
    no_leftovers
}

t_key_ed25519_pub_noncanonical() {
    fixture
    local m="public key is not a canonical curve point encoding"
    # y = p + 3 and y = p + 18 = 2^255 - 1: y >= p, though y - p is the y of a point of large order.
    bad_pub_key yp3.pub f0ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f "$m"
    bad_pub_key yp18.pub ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f "$m"
    # x = 0 with the sign bit set: y = 1 (the identity) and y = p - 1 (order 2).
    bad_pub_key neg0.pub 0100000000000000000000000000000000000000000000000000000000000080 "$m"
    bad_pub_key neg0o2.pub ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff "$m"
    # y = 2: no x on the curve.
    bad_pub_key off.pub 0200000000000000000000000000000000000000000000000000000000000000 "$m"
    # ZIP 215 reads y mod p and x = 0 either way: not bad input, the equation decides (exit 1); a y with no curve
    # point is still an encoding failure of the signature check (exit 1).
    expect 1 "^ecopt verify: msg.sig: Ed25519 \(ZIP-215\) signature rejected, equation: " \
        "$ECOPT" verify -p yp18.pub -i msg -s msg.sig --zip215
    expect 1 "^ecopt verify: msg.sig: Ed25519 \(ZIP-215\) signature rejected, equation: " \
        "$ECOPT" verify -p neg0.pub -i msg -s msg.sig --zip215
    expect 1 "^ecopt verify: msg.sig: Ed25519 \(ZIP-215\) signature rejected, encoding: " \
        "$ECOPT" verify -p off.pub -i msg -s msg.sig --zip215
    # The fixture's keys pass: a private key always gives a good public key, and so does its public key file.
    ok "$ECOPT" pubkey -i ed.pem -o ok.pub
    ok "$ECOPT" pubkey -i ok.pub
    ok "$ECOPT" verify -p ed.pem -i msg -s msg.sig
}

t_key_ed25519_pub_small_order() {
    fixture
    local m="public key has small order" h n=0
    # The canonical encodings of the 8 points of small order: the identity, order 8, order 4, order 8, order 2
    # (y = p - 1), and the negatives of the order 8 and 4 points.
    for h in \
        0100000000000000000000000000000000000000000000000000000000000000 \
        c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a \
        0000000000000000000000000000000000000000000000000000000000000080 \
        26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05 \
        ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f \
        26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85 \
        0000000000000000000000000000000000000000000000000000000000000000 \
        c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa; do
        n=$((n + 1))
        bad_pub_key so$n.pub "$h" "$m"
    done
    # ZIP 215 accepts them: A = R = the identity and S = 0 satisfy the cofactored equation for every message, and
    # an order-8 A with an honest signature fails on the equation (exit 1), not as bad input.
    h2b "0100000000000000000000000000000000000000000000000000000000000000$(printf '%064d' 0)" >id.sig
    ok "$ECOPT" verify -p so1.pub -i msg -s id.sig --zip215
    expect 1 "^ecopt verify: msg.sig: Ed25519 \(ZIP-215\) signature rejected, equation: " \
        "$ECOPT" verify -p so2.pub -i msg -s msg.sig --zip215
    # Mixed order is not small order: B + T (T of order 8) passes both commands; the signature fails on the
    # equation.
    ed_pub_pem 98519eadf35b995233b51b5cd23e9cc5a28b639b5a4af0ec903cb960d81b7819 mixed.pub
    ok "$ECOPT" pubkey -i mixed.pub -o mixed2.pub
    cmp -s mixed.pub mixed2.pub || fail "a mixed-order key does not pass through pubkey unchanged"
    expect 1 "^ecopt verify: msg.sig: Ed25519 signature rejected, equation: " "$ECOPT" verify -p mixed.pub -i msg -s msg.sig
}

# ---- signature files (exit 2) -------------------------------------------------------------------------------------

t_sig_wrong_length() {
    fixture
    head -c 63 msg.sig >short.sig
    expect 2 "^ecopt verify: short.sig: 63 bytes; an Ed25519 signature is 64$" "$ECOPT" verify -p ed.pub -i msg -s short.sig
    { cat msg.sig; printf x; } >long.sig
    expect 2 "^ecopt verify: long.sig: 65 bytes; an Ed25519 signature is 64$" "$ECOPT" verify -p ed.pub -i msg -s long.sig
    : >empty.sig
    expect 2 "^ecopt verify: empty.sig: 0 bytes" "$ECOPT" verify -p ed.pub -i msg -s empty.sig
}

t_sig_hex_without_flag() {
    fixture
    ok "$ECOPT" sign -k ed.pem -i msg -o hex.sig --hex
    expect 2 "^ecopt verify: hex.sig: 129 bytes; an Ed25519 signature is 64 \(this one looks like hex: use --hex\)$" \
        "$ECOPT" verify -p ed.pub -i msg -s hex.sig
}

t_sig_hex_malformed() {
    fixture
    ok "$ECOPT" sign -k ed.pem -i msg -o hex.sig --hex
    head -c 127 hex.sig >short.hex
    expect 2 "^ecopt verify: short.hex: 127 characters; a hex signature is 128 hex digits" \
        "$ECOPT" verify -p ed.pub -i msg -s short.hex --hex
    { printf 'zz'; tail -c +3 hex.sig; } >bad.hex
    expect 2 "^ecopt verify: bad.hex: not a hex signature \(a character other than 0-9, a-f, A-F\)$" \
        "$ECOPT" verify -p ed.pub -i msg -s bad.hex --hex
    # Upper case is hex too.
    tr a-f A-F <hex.sig >upper.hex
    ok "$ECOPT" verify -p ed.pub -i msg -s upper.hex --hex
    # A raw signature read as hex: 64 characters, less what the hex reader strips: a final "\n", then a final
    # "\r" (so "\r\n", "\n" or a lone "\r"). The signature is random, so its last bytes are 0x0a or 0x0d now
    # and then.
    local raw n=64
    raw=$(b2h msg.sig)
    if [ "${raw: -2}" = 0a ]; then
        n=63
        raw=${raw:0:${#raw}-2}
    fi
    [ "${raw: -2}" != 0d ] || n=$((n - 1))
    expect 2 "^ecopt verify: msg.sig: $n characters; a hex signature is 128" \
        "$ECOPT" verify -p ed.pub -i msg -s msg.sig --hex
    # The same endings, made on purpose: a lone "\r" and "\r\n" are stripped whatever comes before them.
    { head -c 63 msg.sig; printf '\r'; } >cr.sig
    expect 2 "^ecopt verify: cr.sig: 63 characters; a hex signature is 128" \
        "$ECOPT" verify -p ed.pub -i msg -s cr.sig --hex
    { head -c 62 msg.sig; printf '\r\n'; } >crlf.sig
    expect 2 "^ecopt verify: crlf.sig: 62 characters; a hex signature is 128" \
        "$ECOPT" verify -p ed.pub -i msg -s crlf.sig --hex
}

# ---- contexts (exit 2) --------------------------------------------------------------------------------------------

t_context_too_long() {
    fixture
    local c256 c255
    c256=$(head -c 256 /dev/zero | tr '\0' c)
    c255=${c256:1}
    expect 2 "^ecopt sign: --context: 256 bytes long; a context has at most 255$" \
        "$ECOPT" sign -k ed.pem -i msg -o out.sig --context "$c256"
    expect 2 "^ecopt sign: --context: 256 bytes long" "$ECOPT" sign -k ed.pem -i msg -o out.sig --prehash --context "$c256"
    expect 2 "^ecopt verify: --context: 256 bytes long" "$ECOPT" verify -p ed.pub -i msg -s msg.sig --context "$c256"
    expect 2 "^ecopt sign: --context-hex: 256 bytes long; a context has at most 255$" \
        "$ECOPT" sign -k ed.pem -i msg -o out.sig --context-hex "$(rand_hex 256)"
    [ ! -e out.sig ] || fail "signature written"
    # 255 is fine.
    ok "$ECOPT" sign -k ed.pem -i msg -o out.sig --context "$c255"
    ok "$ECOPT" verify -p ed.pub -i msg -s out.sig --context "$c255"
}

t_context_empty_ctx() {
    fixture
    expect 2 "^ecopt sign: --context: empty; Ed25519ctx needs 1 to 255 bytes \(omit it for pure Ed25519\)$" \
        "$ECOPT" sign -k ed.pem -i msg -o out.sig --context ""
    expect 2 "^ecopt sign: --context-hex: empty; Ed25519ctx needs 1 to 255 bytes" \
        "$ECOPT" sign -k ed.pem -i msg -o out.sig --context-hex ""
    expect 2 "^ecopt verify: --context: empty; Ed25519ctx" "$ECOPT" verify -p ed.pub -i msg -s msg.sig --context=
    [ ! -e out.sig ] || fail "signature written"
    # Ed25519ph takes an empty context.
    ok "$ECOPT" sign -k ed.pem -i msg -o out.sig --prehash --context ""
    ok "$ECOPT" verify -p ed.pub -i msg -s out.sig --prehash
}

t_context_hex_malformed() {
    fixture
    expect 2 "^ecopt sign: --context-hex: not a hex string" "$ECOPT" sign -k ed.pem -i msg -o out.sig --context-hex abc
    expect 2 "^ecopt sign: --context-hex: not a hex string" "$ECOPT" sign -k ed.pem -i msg -o out.sig --context-hex 0g
    expect 2 "^ecopt verify: --context-hex: not a hex string" "$ECOPT" verify -p ed.pub -i msg -s msg.sig --context-hex " 00"
}

t_context_both_forms() {
    fixture
    expect 2 "^ecopt sign: --context-hex: cannot be combined with --context$" \
        "$ECOPT" sign -k ed.pem -i msg -o out.sig --context a --context-hex 61
}

# ---- X25519 (exit 2) ----------------------------------------------------------------------------------------------

t_x25519_low_order_peer() {
    fixture
    # u-coordinates whose X25519 output is all zero for every scalar: 0, 1, the two u of the points of order 8,
    # p-1; then p and p+1 (0 and 1 not reduced) and 0 and 1 with the top bit set (masked off by RFC 7748's
    # decoding).
    local u n=0
    for u in \
        0000000000000000000000000000000000000000000000000000000000000000 \
        0100000000000000000000000000000000000000000000000000000000000000 \
        e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800 \
        5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157 \
        ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f \
        edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f \
        eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f \
        0000000000000000000000000000000000000000000000000000000000000080 \
        0100000000000000000000000000000000000000000000000000000000000080; do
        n=$((n + 1))
        x_pub_pem "$u" low$n.pem
        expect 2 "^ecopt x25519: low$n.pem: the peer's public key has small order \(the shared secret would be all zero\)$" \
            "$ECOPT" x25519 -k x.pem -p low$n.pem -o secret
        [ ! -e secret ] || fail "secret written for a low-order peer"
        [ ! -s out.txt ] || fail "something written to stdout for a low-order peer"
    done
    no_leftovers
}

# ---- verification failures (exit 1) -------------------------------------------------------------------------------

t_verify_tampered_message() {
    fixture
    printf 'hello, world!\n' >msg2
    expect 1 "^ecopt verify: msg.sig: Ed25519 signature rejected, equation: " "$ECOPT" verify -p ed.pub -i msg2 -s msg.sig
    [ ! -s out.txt ] || fail "stdout not empty on failure"
}

t_verify_tampered_signature() {
    fixture
    local s
    s=$(b2h msg.sig)
    # Flip a bit of R: R no longer matches (or does not decode).
    h2b "$(printf '%02x' $((0x${s:0:2} ^ 1)))${s:2}" >r.sig
    expect 1 "^ecopt verify: r.sig: Ed25519 signature rejected, (equation|encoding): " "$ECOPT" verify -p ed.pub -i msg -s r.sig
    # Flip a low bit of S (S stays < l): the equation fails.
    h2b "${s:0:64}$(printf '%02x' $((0x${s:64:2} ^ 1)))${s:66}" >s.sig
    expect 1 "^ecopt verify: s.sig: Ed25519 signature rejected, equation: signature does not verify" \
        "$ECOPT" verify -p ed.pub -i msg -s s.sig
}

t_verify_wrong_key() {
    fixture
    ok "$ECOPT" keygen ed25519 -o other.pem
    ok "$ECOPT" pubkey -i other.pem -o other.pub
    expect 1 "^ecopt verify: msg.sig: Ed25519 signature rejected, equation: " "$ECOPT" verify -p other.pub -i msg -s msg.sig
}

t_verify_wrong_variant() {
    fixture
    ok "$ECOPT" sign -k ed.pem -i msg -o ctx.sig --context abc
    expect 1 "Ed25519 signature rejected, equation" "$ECOPT" verify -p ed.pub -i msg -s ctx.sig
    expect 1 "Ed25519ctx signature rejected, equation" "$ECOPT" verify -p ed.pub -i msg -s ctx.sig --context abd
    expect 1 "Ed25519ph signature rejected, equation" "$ECOPT" verify -p ed.pub -i msg -s ctx.sig --context abc --prehash
    expect 1 "Ed25519ctx signature rejected, equation" "$ECOPT" verify -p ed.pub -i msg -s msg.sig --context abc
    ok "$ECOPT" sign -k ed.pem -i msg -o ph.sig --prehash
    expect 1 "Ed25519 signature rejected, equation" "$ECOPT" verify -p ed.pub -i msg -s ph.sig
}

t_verify_s_not_reduced() {
    fixture
    local s
    s=$(b2h msg.sig)
    # S + l is the same scalar mod l, but S must be < l (malleability): l = 2^252 + 27742317777372353535851937790883648493.
    # Setting the top byte to 0xf0 gives S >= 2^255 > l, certainly not reduced.
    h2b "${s:0:126}f0" >big.sig
    expect 1 "^ecopt verify: big.sig: Ed25519 signature rejected, encoding: malformed or non-canonical encoding" \
        "$ECOPT" verify -p ed.pub -i msg -s big.sig
}

t_verify_small_order_r() {
    fixture
    local s
    s=$(b2h msg.sig)
    # R = the identity (y = 1), the simplest point of small order.
    h2b "0100000000000000000000000000000000000000000000000000000000000000${s:64}" >r.sig
    expect 1 "^ecopt verify: r.sig: Ed25519 signature rejected, small order: point of small order" \
        "$ECOPT" verify -p ed.pub -i msg -s r.sig
}

t_verify_noncanonical_r() {
    fixture
    local s
    s=$(b2h msg.sig)
    # y = 2^255 - 1 >= p: never canonical.
    h2b "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f${s:64}" >r.sig
    expect 1 "^ecopt verify: r.sig: Ed25519 signature rejected, encoding: " "$ECOPT" verify -p ed.pub -i msg -s r.sig
}

t_verify_zip215_refuses_variants() {
    fixture
    expect 2 "^ecopt verify: --zip215: defined for pure Ed25519 only" \
        "$ECOPT" verify -p ed.pub -i msg -s msg.sig --zip215 --context abc
    expect 2 "^ecopt verify: --zip215: defined for pure Ed25519 only" "$ECOPT" verify -p ed.pub -i msg -s msg.sig --zip215 --prehash
}

t_verify_zip215_rejects() {
    fixture
    local s
    s=$(b2h msg.sig)
    printf 'hello, world!\n' >msg2
    expect 1 "^ecopt verify: msg.sig: Ed25519 \(ZIP-215\) signature rejected, equation: " \
        "$ECOPT" verify -p ed.pub -i msg2 -s msg.sig --zip215
    # S < l is still required.
    h2b "${s:0:126}f0" >big.sig
    expect 1 "^ecopt verify: big.sig: Ed25519 \(ZIP-215\) signature rejected, encoding: " \
        "$ECOPT" verify -p ed.pub -i msg -s big.sig --zip215
}

# ---- the environment (exit 3) -------------------------------------------------------------------------------------

t_env_output_directory_missing() {
    fixture
    expect 3 "^ecopt sign: nodir/out.sig: cannot create a file in that directory: No such file or directory$" \
        "$ECOPT" sign -k ed.pem -i msg -o nodir/out.sig
    expect 3 "^ecopt keygen: nodir/k.pem: cannot create a file" "$ECOPT" keygen ed25519 -o nodir/k.pem
    expect 3 "^ecopt x25519: nodir/s: cannot create a file" "$ECOPT" x25519 -k x.pem -p x.pub -o nodir/s
    expect 3 "^ecopt pubkey: nodir/p.pem: cannot create a file" "$ECOPT" pubkey -i ed.pem -o nodir/p.pem
}

t_env_output_is_directory() {
    fixture
    mkdir out.sig
    expect 3 "^ecopt sign: out.sig: cannot write: Is a directory$" "$ECOPT" sign -k ed.pem -i msg -o out.sig
    [ -d out.sig ] || fail "the directory was replaced"
    no_leftovers
}

t_env_stdout_full() {
    fixture
    [ -w /dev/full ] || skip "/dev/full is not available"
    # expect sends stdout to out.txt, so the redirection to /dev/full happens inside a wrapper.
    to_full() { "$@" >/dev/full; }
    expect 3 "^ecopt sign: standard output: cannot write: No space left on device$" \
        to_full "$ECOPT" sign -k ed.pem -i msg -o - --hex
    expect 3 "^ecopt x25519: standard output: cannot write: No space left on device$" \
        to_full "$ECOPT" x25519 -k x.pem -p x.pub --hex
    expect 3 "^ecopt pubkey: standard output: cannot write" to_full "$ECOPT" pubkey -i ed.pem
    expect 3 "^ecopt version: standard output: cannot write$" to_full "$ECOPT" version
}

t_env_rng_failure() {
    [ -n "${ECOPT_TEST_FAILRNG:-}" ] && [ -e "$ECOPT_TEST_FAILRNG" ] || skip "no getrandom-failing preload library"
    # The library built for a sanitizer run is not preloaded first; ASan would refuse to start.
    export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
    # LD_PRELOAD splits its value at spaces and colons, so the library is named without its directory, which
    # goes in LD_LIBRARY_PATH (split at colons only): a build directory whose path holds a space works.
    local libdir libname
    libdir=$(dirname "$ECOPT_TEST_FAILRNG")
    libname=$(basename "$ECOPT_TEST_FAILRNG")
    case $libdir$libname in *:*) skip "the preload library's path holds a colon" ;; esac
    expect 3 "^ecopt keygen: getrandom: cannot get random bytes: the system random number generator failed$" \
        env LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LD_PRELOAD="$libname" \
        "$ECOPT" keygen ed25519 -o k.pem
    expect 3 "^ecopt keygen: getrandom: cannot get random bytes" \
        env LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LD_PRELOAD="$libname" \
        "$ECOPT" keygen x25519 -o k.pem
    [ ! -e k.pem ] || fail "key written although getrandom failed"
    no_leftovers
}

run_cases
