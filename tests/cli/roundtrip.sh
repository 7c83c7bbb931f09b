#!/usr/bin/env bash
# roundtrip.sh — the ecopt command working as documented: key files, signatures of each variant, X25519 agreement,
# standard input and output, atomic output files, help, version and backends.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# ---- keys ---------------------------------------------------------------------------------------------------------

t_keygen_ed25519() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    [ "$(mode k.pem)" = 600 ] || fail "private key mode $(mode k.pem), expected 600"
    [ "$(head -n 1 k.pem)" = "-----BEGIN PRIVATE KEY-----" ] || fail "not a PKCS#8 PEM file"
    # PKCS#8 v1 for Ed25519 (RFC 8410 section 7): version 0, id-Ed25519, no public key; 48 bytes.
    local der
    der=$(pem_der k.pem)
    [ "${der:0:32}" = "$DER_ED25519_PRIV" ] || fail "unexpected DER: $der"
    [ ${#der} -eq 96 ] || fail "unexpected DER length: $der"
    [ ! -s out.txt ] || fail "keygen wrote to stdout"
    no_leftovers
}

t_keygen_x25519() {
    ok "$ECOPT" keygen x25519 -o k.pem
    [ "$(mode k.pem)" = 600 ] || fail "private key mode $(mode k.pem), expected 600"
    local der
    der=$(pem_der k.pem)
    [ "${der:0:32}" = "$DER_X25519_PRIV" ] || fail "unexpected DER: $der"
    [ ${#der} -eq 96 ] || fail "unexpected DER length: $der"
}

t_keygen_fresh_keys() {
    ok "$ECOPT" keygen ed25519 -o a.pem
    ok "$ECOPT" keygen ed25519 -o b.pem
    ok "$ECOPT" keygen x25519 -o c.pem
    ok "$ECOPT" keygen X25519 -o d.pem
    [ "$(pem_raw32 a.pem)" != "$(pem_raw32 b.pem)" ] || fail "two Ed25519 keys are equal"
    [ "$(pem_raw32 c.pem)" != "$(pem_raw32 d.pem)" ] || fail "two X25519 keys are equal"
}

t_keygen_overwrites_atomically() {
    # An existing file is replaced whole, with mode 0600 whatever it had before.
    echo old >k.pem
    chmod 644 k.pem
    ok "$ECOPT" keygen ed25519 -o k.pem
    [ "$(mode k.pem)" = 600 ] || fail "mode $(mode k.pem) after overwrite"
    grep -q "BEGIN PRIVATE KEY" k.pem || fail "not replaced"
    no_leftovers
}

t_keygen_to_stdout() {
    ok "$ECOPT" keygen x25519 -o -
    grep -q "BEGIN PRIVATE KEY" out.txt || fail "no key on stdout"
    cp out.txt k.pem
    ok "$ECOPT" pubkey -i k.pem
}

t_pubkey_of_private_key() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    [ "$(head -n 1 k.pub)" = "-----BEGIN PUBLIC KEY-----" ] || fail "not a SubjectPublicKeyInfo PEM file"
    [ "$(mode k.pub)" = "$(printf '%o' $((0666 & ~$(umask))))" ] || fail "public key mode $(mode k.pub)"
    local der
    der=$(pem_der k.pub)
    [ "${der:0:24}" = "$DER_ED25519_PUB" ] && [ ${#der} -eq 88 ] || fail "unexpected DER: $der"
    # Default output is stdout; standard input works as input; a public key passes through unchanged.
    ok "$ECOPT" pubkey -i k.pem
    cmp -s out.txt k.pub || fail "stdout differs from the file"
    ok "$ECOPT" pubkey -i - <k.pem
    cmp -s out.txt k.pub || fail "stdin input gives a different key"
    ok "$ECOPT" pubkey -i k.pub
    cmp -s out.txt k.pub || fail "a public key does not pass through"
}

t_pubkey_x25519() {
    ok "$ECOPT" keygen x25519 -o k.pem
    ok "$ECOPT" pubkey --in k.pem --out k.pub
    local der
    der=$(pem_der k.pub)
    [ "${der:0:24}" = "$DER_X25519_PUB" ] && [ ${#der} -eq 88 ] || fail "unexpected DER: $der"
}

# The public key of a fixed seed is derived, not random: the same seed gives the same key.
t_pubkey_deterministic() {
    local seed
    seed=$(rand_hex 32)
    ed_priv_pem "$seed" a.pem
    ed_priv_pem "$seed" b.pem
    ok "$ECOPT" pubkey -i a.pem -o a.pub
    ok "$ECOPT" pubkey -i b.pem -o b.pub
    cmp -s a.pub b.pub || fail "one seed, two public keys"
}

# PEM as people keep it: CRLF line ends, a comment line before the block, text after it.
t_pubkey_pem_variations() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    sed 's/$/\r/' k.pem >crlf.pem
    { echo "Alice's signing key"; cat k.pem; printf ' \n\n'; } >text.pem # text before, white space after
    local f
    for f in crlf.pem text.pem; do
        ok "$ECOPT" pubkey -i $f
        cmp -s out.txt k.pub || fail "$f gives another public key"
    done
}

# ---- Ed25519 ------------------------------------------------------------------------------------------------------

t_sign_verify_pure() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    printf 'the quick brown fox\n' >msg
    ok "$ECOPT" sign -k k.pem -i msg -o msg.sig
    [ "$(stat -c %s msg.sig)" -eq 64 ] || fail "signature is not 64 bytes"
    ok "$ECOPT" verify -p k.pub -i msg -s msg.sig
    [ "$(<out.txt)" = "Signature OK (Ed25519)" ] || fail "stdout: $(<out.txt)"
    [ ! -s err.txt ] || fail "stderr not empty on success"
    # A private key also serves as the public key.
    ok "$ECOPT" verify -p k.pem -i msg -s msg.sig
    # Deterministic: the same key and message give the same signature.
    ok "$ECOPT" sign -k k.pem -i msg -o again.sig
    cmp -s msg.sig again.sig || fail "signing is not deterministic"
    no_leftovers
}

t_sign_verify_ctx() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    printf 'message' >msg
    ok "$ECOPT" sign -k k.pem -i msg -o a.sig --context "my protocol v1"
    ok "$ECOPT" verify -p k.pub -i msg -s a.sig --context "my protocol v1"
    [ "$(<out.txt)" = "Signature OK (Ed25519ctx)" ] || fail "stdout: $(<out.txt)"
    # --context-hex names the same bytes; --context=VALUE is the same option.
    ok "$ECOPT" sign -k k.pem -i msg -o b.sig --context-hex "$(printf 'my protocol v1' | od -An -v -tx1 | tr -d ' \n')"
    cmp -s a.sig b.sig || fail "--context and --context-hex disagree"
    ok "$ECOPT" sign -k k.pem -i msg -o c.sig "--context=my protocol v1"
    cmp -s a.sig c.sig || fail "--context=VALUE differs"
    # Binary context bytes, including a zero byte, from hex.
    ok "$ECOPT" sign -k k.pem -i msg -o d.sig --context-hex 00ff10
    ok "$ECOPT" verify -p k.pub -i msg -s d.sig --context-hex 00FF10
    expect 1 "Ed25519ctx signature rejected" "$ECOPT" verify -p k.pub -i msg -s d.sig --context-hex 00ff11
}

t_sign_verify_ph() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    head -c 100000 /dev/urandom >msg
    ok "$ECOPT" sign -k k.pem -i msg -o a.sig --prehash
    ok "$ECOPT" verify -p k.pub -i msg -s a.sig --prehash
    [ "$(<out.txt)" = "Signature OK (Ed25519ph)" ] || fail "stdout: $(<out.txt)"
    ok "$ECOPT" sign -k k.pem -i msg -o b.sig --prehash --context ctx
    ok "$ECOPT" verify -p k.pub -i msg -s b.sig --prehash --context ctx
    cmp -s a.sig b.sig && fail "the context does not change an Ed25519ph signature"
    # An empty Ed25519ph context is the same as none.
    ok "$ECOPT" sign -k k.pem -i msg -o c.sig --prehash --context-hex ""
    cmp -s a.sig c.sig || fail "empty context differs from none"
}

# ZIP 215 accepts what the strict policy refuses: small-order and non-canonical A and R.
t_verify_zip215() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    printf 'zip' >msg
    ok "$ECOPT" sign -k k.pem -i msg -o msg.sig
    ok "$ECOPT" verify -p k.pub -i msg -s msg.sig --zip215
    [ "$(<out.txt)" = "Signature OK (Ed25519, ZIP-215)" ] || fail "stdout: $(<out.txt)"
    # A = R = the identity and S = 0 satisfy [8][S]B = [8]R + [8][k]A for every message.
    local id=0100000000000000000000000000000000000000000000000000000000000000
    local zero=0000000000000000000000000000000000000000000000000000000000000000
    h2b "$id$zero" >id.sig
    ed_pub_pem "$id" id.pub
    ok "$ECOPT" verify -p id.pub -i msg -s id.sig --zip215
    # The strict policy refuses such a key file before looking at the signature (bad input, exit 2).
    expect 2 "^ecopt verify: id.pub: public key has small order$" "$ECOPT" verify -p id.pub -i msg -s id.sig
    # The identity encoded non-canonically: y = p + 1, and x = 0 with the sign bit set.
    ed_pub_pem eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f idp.pub
    ok "$ECOPT" verify -p idp.pub -i msg -s id.sig --zip215
    expect 2 "^ecopt verify: idp.pub: public key is not a canonical curve point encoding$" \
        "$ECOPT" verify -p idp.pub -i msg -s id.sig
    ed_pub_pem 0100000000000000000000000000000000000000000000000000000000000080 idneg.pub
    ok "$ECOPT" verify -p idneg.pub -i msg -s id.sig --zip215
    expect 2 "^ecopt verify: idneg.pub: public key is not a canonical curve point encoding$" \
        "$ECOPT" verify -p idneg.pub -i msg -s id.sig
}

t_sign_verify_hex() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    printf 'x' >msg
    ok "$ECOPT" sign -k k.pem -i msg -o raw.sig
    ok "$ECOPT" sign -k k.pem -i msg -o hex.sig --hex
    [ "$(<hex.sig)" = "$(b2h raw.sig)" ] || fail "hex signature is not the hex of the raw one"
    [ "$(stat -c %s hex.sig)" -eq 129 ] || fail "hex signature is not 128 digits and a newline"
    ok "$ECOPT" verify -p k.pub -i msg -s hex.sig --hex
    # No newline, a CRLF, and upper case are accepted too.
    printf '%s' "$(<hex.sig)" >nonl.sig
    ok "$ECOPT" verify -p k.pub -i msg -s nonl.sig --hex
    printf '%s\r\n' "$(<hex.sig)" >crlf.sig
    ok "$ECOPT" verify -p k.pub -i msg -s crlf.sig --hex
    tr a-f A-F <hex.sig >upper.sig
    ok "$ECOPT" verify -p k.pub -i msg -s upper.sig --hex
}

t_sign_verify_stdin_stdout() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    printf 'piped' >msg
    ok "$ECOPT" sign -k k.pem -i - -o msg.sig <msg
    ok "$ECOPT" verify -p k.pub -i msg -s msg.sig
    ok "$ECOPT" sign -k k.pem -i msg -o - --hex
    [ "$(<out.txt)" = "$(b2h msg.sig)" ] || fail "stdout signature differs"
    ok "$ECOPT" sign -k k.pem -i msg -o -
    cmp -s out.txt msg.sig || fail "raw stdout signature differs"
    ok "$ECOPT" verify -p k.pub -i - -s msg.sig <msg
    ok "$ECOPT" verify -p k.pub -i msg -s - <msg.sig
    ok "$ECOPT" verify -p - -i msg -s msg.sig <k.pub
    ok "$ECOPT" sign -k - -i msg -o b.sig <k.pem
    cmp -s b.sig msg.sig || fail "key from stdin gives another signature"
}

t_sign_verify_empty_and_large() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" pubkey -i k.pem -o k.pub
    : >empty
    ok "$ECOPT" sign -k k.pem -i empty -o empty.sig
    ok "$ECOPT" verify -p k.pub -i empty -s empty.sig
    ok "$ECOPT" sign -k k.pem -i - -o stdin-empty.sig </dev/null
    cmp -s empty.sig stdin-empty.sig || fail "empty file and empty stdin differ"
    head -c 5000000 /dev/urandom >large
    ok "$ECOPT" sign -k k.pem -i large -o large.sig
    ok "$ECOPT" verify -p k.pub -i - -s large.sig <large
    ok "$ECOPT" sign -k k.pem -i large -o large-ph.sig --prehash
    ok "$ECOPT" verify -p k.pub -i large -s large-ph.sig --prehash
}

t_sign_output_over_input() {
    # The output may not be one of the inputs: the message (or the key) would be lost.
    ok "$ECOPT" keygen ed25519 -o k.pem
    printf 'abc' >f
    cp f orig
    expect 2 "^ecopt sign: f: is also an input \(-i f\); write the output to another file$" \
        "$ECOPT" sign -k k.pem -i f -o f
    cmp -s f orig || fail "the message was changed"
}

t_long_options() {
    ok "$ECOPT" keygen ed25519 --out k.pem
    ok "$ECOPT" pubkey --in k.pem --out k.pub
    printf 'm' >msg
    ok "$ECOPT" sign --key k.pem --in msg --out msg.sig --context=c
    ok "$ECOPT" verify --pub k.pub --in msg --sig msg.sig --context c
    ok "$ECOPT" keygen x25519 --out x.pem
    ok "$ECOPT" x25519 --key x.pem --peer x.pem --out s
    # An option's value may start with "-": a file called "-o".
    printf 'n' >./-o
    ok "$ECOPT" sign -k k.pem -i -o -o s2 --hex
    # "--" ends the options.
    ok "$ECOPT" keygen -o k2.pem -- ed25519
    # A context that looks like an option is still the value of --context.
    ok "$ECOPT" sign -k k.pem -i msg -o s3 --context --help
    ok "$ECOPT" verify -p k.pub -i msg -s s3 --context=--help
}

# ---- output files that are not plain new files --------------------------------------------------------------------

t_output_through_special_files() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    printf 'abc' >msg
    ok "$ECOPT" sign -k k.pem -i msg -o ref.sig --hex
    # A FIFO is written through, not replaced.
    mkfifo fifo
    timeout 20 cat fifo >got &
    local reader=$!
    ok "$ECOPT" sign -k k.pem -i msg -o fifo --hex
    wait "$reader" || fail "the FIFO reader failed"
    [ -p fifo ] || fail "the FIFO was replaced"
    cmp -s got ref.sig || fail "the FIFO reader got something else"
    # /dev/stdout on a pipe is written through too.
    "$ECOPT" sign -k k.pem -i msg -o /dev/stdout --hex | cat >got2
    cmp -s got2 ref.sig || fail "/dev/stdout on a pipe"
    # A character device stays one.
    ok "$ECOPT" keygen ed25519 -o /dev/null
    ok "$ECOPT" sign -k k.pem -i msg -o /dev/null
    [ -c /dev/null ] || fail "/dev/null is no longer a character device"
    no_leftovers
}

t_output_through_symlink() {
    ok "$ECOPT" keygen ed25519 -o k.pem
    printf 'abc' >msg
    mkdir d
    echo old >d/target
    ln -s d/target link
    ok "$ECOPT" sign -k k.pem -i msg -o link --hex
    [ -L link ] || fail "the symbolic link was replaced"
    [ "$(readlink link)" = d/target ] || fail "the link points elsewhere"
    ok "$ECOPT" sign -k k.pem -i msg -o ref.sig --hex
    cmp -s d/target ref.sig || fail "the link's target does not hold the signature"
    # A link to a key file: the target gets the new key, mode 0600.
    ln -s d/key keylink
    echo old >d/key
    ok "$ECOPT" keygen x25519 -o keylink
    [ -L keylink ] || fail "the key link was replaced"
    grep -q "BEGIN PRIVATE KEY" d/key || fail "the key link's target does not hold the key"
    [ "$(mode d/key)" = 600 ] || fail "key mode $(mode d/key)"
    # A dangling link is an error and creates nothing.
    ln -s d/nosuch dangling
    expect 3 "^ecopt sign: dangling: cannot write: a symbolic link to a missing file$" \
        "$ECOPT" sign -k k.pem -i msg -o dangling
    [ ! -e d/nosuch ] || fail "the dangling link's target was created"
    # A link loop is an error too, and stays a link.
    ln -s loop loop
    expect 3 "^ecopt sign: loop: cannot resolve the symbolic link: Too many levels of symbolic links$" \
        "$ECOPT" sign -k k.pem -i msg -o loop
    [ -L loop ] || fail "the looping link was replaced"
    no_leftovers
    [ -z "$(find d -name '.*.??????')" ] || fail "temporary files left behind in d"
}

# ---- X25519 -------------------------------------------------------------------------------------------------------

t_x25519_agreement() {
    ok "$ECOPT" keygen x25519 -o alice.pem
    ok "$ECOPT" keygen x25519 -o bob.pem
    ok "$ECOPT" pubkey -i alice.pem -o alice.pub
    ok "$ECOPT" pubkey -i bob.pem -o bob.pub
    ok "$ECOPT" x25519 -k alice.pem -p bob.pub -o ab
    ok "$ECOPT" x25519 -k bob.pem -p alice.pub -o ba
    [ "$(stat -c %s ab)" -eq 32 ] || fail "secret is not 32 bytes"
    cmp -s ab ba || fail "the two sides disagree"
    [ "$(mode ab)" = 600 ] || fail "secret file mode $(mode ab), expected 600"
    ok "$ECOPT" x25519 -k alice.pem -p bob.pub --hex
    [ "$(<out.txt)" = "$(b2h ab)" ] || fail "--hex output differs"
    ok "$ECOPT" x25519 -k alice.pem -p bob.pub
    cmp -s out.txt ab || fail "raw stdout differs"
    # A private key works as the peer's key (its public key is used).
    ok "$ECOPT" x25519 -k alice.pem -p bob.pem -o ab2
    cmp -s ab ab2 || fail "private peer key gives another secret"
    # A third party gets something else.
    ok "$ECOPT" keygen x25519 -o eve.pem
    ok "$ECOPT" x25519 -k eve.pem -p bob.pub -o eb
    cmp -s ab eb && fail "eve computed the same secret"
    no_leftovers
}

# ---- help and version ---------------------------------------------------------------------------------------------

t_help() {
    local c
    ok "$ECOPT" --help
    grep -q "^usage: ecopt <command>" out.txt || fail "ecopt --help"
    ok "$ECOPT" -h
    ok "$ECOPT" help
    grep -q "^usage: ecopt <command>" out.txt || fail "ecopt help"
    ok "$ECOPT" help --help
    grep -q "^usage: ecopt <command>" out.txt || fail "ecopt help --help"
    ok "$ECOPT" help -h
    grep -q "^usage: ecopt <command>" out.txt || fail "ecopt help -h"
    for c in keygen pubkey sign verify x25519 version; do
        ok "$ECOPT" help "$c"
        grep -q "^usage: ecopt $c" out.txt || fail "ecopt help $c"
        cp out.txt help1.txt
        ok "$ECOPT" "$c" --help
        cmp -s out.txt help1.txt || fail "ecopt $c --help differs from ecopt help $c"
        ok "$ECOPT" "$c" -h
        ok "$ECOPT" "$c" --help --bogus
        [ ! -s err.txt ] || fail "help printed to stderr"
        grep -qi "example\|usage" out.txt || fail "no usage for $c"
    done
}

t_version() {
    ok "$ECOPT" version
    grep -Eq "^ecopt [0-9]+\.[0-9]+\.[0-9]+$" out.txt || fail "no version line: $(<out.txt)"
    grep -Eq "^backend: [a-z0-9]+$" out.txt || fail "no backend line"
    grep -Eq "^compiled in: [a-z0-9_ ]+$" out.txt || fail "no backend list"
    ok "$ECOPT" --version
}

# Every backend compiled in gives the same keys, signatures and secrets; ECOPT_BACKEND selects each.
t_backends_agree() {
    local list be first="" n=0
    ok "$ECOPT" version
    list=$(sed -n 's/^compiled in: //p' out.txt)
    ok "$ECOPT" keygen ed25519 -o k.pem
    ok "$ECOPT" keygen x25519 -o x.pem
    ok "$ECOPT" keygen x25519 -o y.pem
    head -c 1000 /dev/urandom >msg
    for be in $list; do
        local rc=0
        ECOPT_BACKEND=$be "$ECOPT" version >v.txt 2>&1 || rc=$?
        if [ $rc -eq 2 ] && grep -q "unavailable backend" v.txt; then
            echo "backend $be: not available on this CPU"
            continue
        fi
        [ $rc -eq 0 ] || { cat v.txt; fail "ECOPT_BACKEND=$be ecopt version: exit $rc"; }
        grep -q "^backend: $be$" v.txt || fail "ECOPT_BACKEND=$be is not used: $(<v.txt)"
        export ECOPT_BACKEND=$be
        ok "$ECOPT" pubkey -i k.pem -o k.$be.pub
        ok "$ECOPT" pubkey -i x.pem -o x.$be.pub
        ok "$ECOPT" sign -k k.pem -i msg -o $be.sig
        ok "$ECOPT" sign -k k.pem -i msg -o $be.ctx.sig --context abc
        ok "$ECOPT" sign -k k.pem -i msg -o $be.ph.sig --prehash
        ok "$ECOPT" x25519 -k x.pem -p y.pem -o $be.secret
        ok "$ECOPT" verify -p k.$be.pub -i msg -s $be.sig
        unset ECOPT_BACKEND
        if [ -z "$first" ]; then
            first=$be
        else
            local f
            for f in k.@.pub x.@.pub @.sig @.ctx.sig @.ph.sig @.secret; do
                cmp -s "${f/@/$first}" "${f/@/$be}" || fail "backends $first and $be disagree on ${f/@/$be}"
            done
        fi
        n=$((n + 1))
    done
    [ $n -ge 1 ] || fail "no backend could be used"
    echo "backends compared: $n of: $list"
}

# `make demo` keeps working: the narrated tour runs to its end.
t_demo() {
    local demo
    demo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts" && pwd)/demo.sh
    local rc=0
    bash "$demo" "$ECOPT" >demo.txt 2>&1 || rc=$?
    [ $rc -eq 0 ] || { cat demo.txt >&2; fail "demo.sh: exit status $rc"; }
    grep -q "^Demo complete" demo.txt || { cat demo.txt >&2; fail "demo.sh did not finish"; }
}

# ---- memory errors and leaks --------------------------------------------------------------------------------------

# Each command, on success and on its main failure paths, under valgrind memcheck: no invalid access, no use of
# uninitialised memory, no definite leak.
t_valgrind_commands() { # labels: valgrind
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    local vg=(valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
        --track-origins=yes)
    # clang 14 writes DWARF 5, which Debian 12's valgrind 3.19 cannot read ("unhandled dwarf2 abbrev form code
    # ... Giving up"): then run a copy without debug info (memcheck needs none; it only names fewer lines).
    if ! "${vg[@]}" "$ECOPT" version >vg.txt 2>&1 && grep -q "debuginfo" vg.txt; then
        command -v objcopy >/dev/null || skip "valgrind cannot read this binary's DWARF and objcopy is missing"
        objcopy --strip-debug "$ECOPT" ./ecopt-nodebug
        ECOPT=$PWD/ecopt-nodebug
        echo "valgrind cannot read the debug info (DWARF 5?): testing a copy without it"
    fi
    ok "${vg[@]}" "$ECOPT" version
    ok "${vg[@]}" "$ECOPT" keygen ed25519 -o k.pem
    ok "${vg[@]}" "$ECOPT" keygen x25519 -o x.pem
    ok "${vg[@]}" "$ECOPT" pubkey -i k.pem -o k.pub
    head -c 3000 /dev/urandom >msg
    ok "${vg[@]}" "$ECOPT" sign -k k.pem -i msg -o msg.sig
    ok "${vg[@]}" "$ECOPT" sign -k k.pem -i msg -o ctx.sig --context abc --hex
    ok "${vg[@]}" "$ECOPT" sign -k k.pem -i msg -o ph.sig --prehash
    ok "${vg[@]}" "$ECOPT" verify -p k.pub -i msg -s msg.sig
    ok "${vg[@]}" "$ECOPT" verify -p k.pub -i msg -s ph.sig --prehash
    ok "${vg[@]}" "$ECOPT" x25519 -k x.pem -p x.pem -o s
    expect 1 "rejected, equation" "${vg[@]}" "$ECOPT" verify -p k.pub -i k.pem -s msg.sig
    expect 2 "an X25519 key" "${vg[@]}" "$ECOPT" sign -k x.pem -i msg -o bad.sig
    expect 2 "PKCS#8 v2" "${vg[@]}" "$ECOPT" pubkey -i <(pem "PRIVATE KEY" \
        "3051020101300506032b657004220420$(rand_hex 32)812100$(rand_hex 32)" /dev/stdout)
    x_pub_pem 0000000000000000000000000000000000000000000000000000000000000000 zero.pub
    expect 2 "small order" "${vg[@]}" "$ECOPT" x25519 -k x.pem -p zero.pub
    expect 2 "unknown option" "${vg[@]}" "$ECOPT" sign --bogus
}

run_cases
