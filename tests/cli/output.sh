#!/usr/bin/env bash
# output.sh — -o naming a descriptor (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/<pid>/fd/N, or a
# link to one) writes through that descriptor exactly as -o - does: the shell's >> appends, an earlier writer's
# output stays, the caller's file is never truncated, replaced or renamed over, and nothing named /dev/stdout is
# ever created. Each case compares with the output of -o -.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# setup: an Ed25519 key, a message, and want.hex, the hex signature as -o - writes it.
setup() {
    "$ECOPT" keygen ed25519 -o k.pem
    printf 'the message\n' >m
    "$ECOPT" sign -k k.pem -i m -o - --hex >want.hex
    [ "$(wc -c <want.hex)" -eq 129 ] || fail "-o - --hex wrote $(wc -c <want.hex) bytes"
}

t_out_stdout_append() {
    setup
    printf 'line 1\nline 2\n' >sigs.log
    local ino
    ino=$(stat -c %i sigs.log)
    "$ECOPT" sign -k k.pem -i m -o /dev/stdout --hex >>sigs.log
    "$ECOPT" sign -k k.pem -i m -o /dev/stdout --hex >>sigs.log
    { printf 'line 1\nline 2\n'; cat want.hex want.hex; } >expected
    cmp -s sigs.log expected || fail ">> lost lines: $(od -c sigs.log | head -5)"
    [ "$(stat -c %i sigs.log)" = "$ino" ] || fail "sigs.log was replaced (inode changed), not appended to"
    no_leftovers
}

t_out_stdout_keeps_header() {
    setup
    { echo header; "$ECOPT" sign -k k.pem -i m -o /dev/stdout --hex; echo trailer; } >out
    { echo header; cat want.hex; echo trailer; } >expected
    cmp -s out expected || fail "the group's output is not header, signature, trailer: $(od -c out | head -5)"
    # raw bytes too
    { echo header; "$ECOPT" sign -k k.pem -i m -o /dev/stdout; } >out.bin
    [ "$(head -n 1 out.bin)" = header ] || fail "binary signature: the header is lost"
    [ "$(wc -c <out.bin)" -eq 71 ] || fail "binary signature: $(wc -c <out.bin) bytes, want 7 + 64"
    ok "$ECOPT" verify -p k.pem -i m -s <(tail -c 64 out.bin)
}

# A regular file the shell opened (>): written through the descriptor, same inode, same contents as -o -.
t_out_stdout_regular_file() {
    setup
    : >sig.hex
    local ino
    ino=$(stat -c %i sig.hex)
    exec 4>sig.hex # hold the file open: a rename over it would leave this descriptor on the old inode
    "$ECOPT" sign -k k.pem -i m -o /dev/stdout --hex >&4
    exec 4>&-
    cmp -s sig.hex want.hex || fail "sig.hex differs from -o - output"
    [ "$(stat -c %i sig.hex)" = "$ino" ] || fail "sig.hex was replaced (inode changed)"
    # a link to a descriptor's name, and a relative link to /proc/self/fd/1, are the descriptor too
    ln -s /dev/stdout out.link
    ln -s ../../../../../../../../proc/self/fd/1 rel.link
    printf 'old\n' >log
    "$ECOPT" sign -k k.pem -i m -o out.link --hex >>log
    "$ECOPT" sign -k k.pem -i m -o rel.link --hex >>log
    { echo old; cat want.hex want.hex; } >expected
    cmp -s log expected || fail "a link to /dev/stdout or /proc/self/fd/1: log is $(od -c log | head -5)"
    [ -L out.link ] && [ -L rel.link ] || fail "a link was replaced"
    # /proc/<pid>/fd/1 with ecopt's own pid (exec keeps the shell's pid), and /proc/self/fd/1
    bash -c 'exec "$0" sign -k k.pem -i m -o /proc/$$/fd/1 --hex' "$ECOPT" >>log
    "$ECOPT" sign -k k.pem -i m -o /proc/self/fd/1 --hex >>log
    cat want.hex want.hex >>expected
    cmp -s log expected || fail "/proc/<own pid>/fd/1 or /proc/self/fd/1: log is $(od -c log | head -8)"
    # a plain file name is still written to a temporary file and renamed (atomic replacement)
    ok "$ECOPT" sign -k k.pem -i m -o plain.hex --hex
    cmp -s plain.hex want.hex || fail "-o plain.hex differs from -o - output"
    no_leftovers
}

# (A pipe was written correctly before too, through a reopen of /proc/self/fd/1; kept as a regression test.)
t_out_stdout_pipe() {
    setup
    { echo header; "$ECOPT" sign -k k.pem -i m -o /dev/stdout --hex; } | cat >out
    { echo header; cat want.hex; } >expected
    cmp -s out expected || fail "through a pipe: $(od -c out | head -5)"
}

# A socket as standard output: a socketpair from python3; the parent reads what ecopt wrote.
t_out_stdout_socket() {
    setup
    command -v python3 >/dev/null || skip "python3 not found (needed for a socketpair)"
    python3 - "$ECOPT" >got.hex <<'EOF'
import socket, subprocess, sys
a, b = socket.socketpair()
p = subprocess.Popen([sys.argv[1], "sign", "-k", "k.pem", "-i", "m", "-o", "/dev/stdout", "--hex"], stdout=b)
b.close()
data = b""
while True:
    chunk = a.recv(4096)
    if not chunk:
        break
    data += chunk
sys.stdout.buffer.write(data)
sys.exit(p.wait())
EOF
    cmp -s got.hex want.hex || fail "through a socket: got $(od -c got.hex | head -3)"
}

# Standard output closed: a clear error, exit 3, and nothing created or replaced.
t_out_stdout_closed() {
    setup
    local before
    before=$(ls -l --time-style=+ /dev/stdout 2>&1 || true)
    local rc=0
    "$ECOPT" sign -k k.pem -i m -o /dev/stdout --hex >&- 2>err.txt || rc=$?
    [ $rc -eq 3 ] || fail "closed stdout: exit $rc, want 3 ($(<err.txt))"
    grep -Eq '^ecopt sign: /dev/stdout: cannot write: descriptor 1 is not open' err.txt ||
        fail "closed stdout: message $(<err.txt)"
    [ "$(wc -l <err.txt)" -eq 1 ] || fail "more than one line on stderr"
    [ "$(ls -l --time-style=+ /dev/stdout 2>&1 || true)" = "$before" ] || fail "/dev/stdout changed"
    # the same for /dev/fd/N with N not open
    rc=0
    "$ECOPT" sign -k k.pem -i m -o /dev/fd/7 --hex 7>&- 2>err.txt || rc=$?
    [ $rc -eq 3 ] || fail "closed /dev/fd/7: exit $rc, want 3 ($(<err.txt))"
    grep -Eq '^ecopt sign: /dev/fd/7: cannot write: descriptor 7 is not open' err.txt ||
        fail "closed /dev/fd/7: message $(<err.txt)"
    # open for reading only
    printf 'keep\n' >ro
    rc=0
    "$ECOPT" sign -k k.pem -i m -o /dev/fd/7 --hex 7<ro 2>err.txt || rc=$?
    [ $rc -eq 3 ] || fail "read-only /dev/fd/7: exit $rc, want 3 ($(<err.txt))"
    grep -q 'open for reading only' err.txt || fail "read-only /dev/fd/7: message $(<err.txt)"
    [ "$(<ro)" = keep ] || fail "the file behind the read-only descriptor was changed"
    no_leftovers
}

# /dev/fd/N with N opened by the shell in append mode; the x25519 secret and a public key go the same way.
t_out_dev_fd_append() {
    setup
    printf 'old\n' >log
    "$ECOPT" sign -k k.pem -i m -o /dev/fd/3 --hex 3>>log
    "$ECOPT" sign -k k.pem -i m -o /dev/fd/3 --hex 3>>log
    { echo old; cat want.hex want.hex; } >expected
    cmp -s log expected || fail "3>>log: log is $(od -c log | head -5)"
    "$ECOPT" pubkey -i k.pem -o - >pub.want
    printf 'old\n' >pubs
    "$ECOPT" pubkey -i k.pem -o /dev/fd/3 3>>pubs
    { echo old; cat pub.want; } >expected
    cmp -s pubs expected || fail "pubkey -o /dev/fd/3: $(<pubs)"
    "$ECOPT" keygen x25519 -o a.pem
    "$ECOPT" keygen x25519 -o b.pem
    "$ECOPT" x25519 -k a.pem -p b.pem --hex -o - >sec.want
    printf 'old\n' >secs
    "$ECOPT" x25519 -k a.pem -p b.pem --hex -o /dev/stderr 2>>secs
    { echo old; cat sec.want; } >expected
    cmp -s secs expected || fail "x25519 -o /dev/stderr 2>>secs: $(<secs)"
    no_leftovers
}

# A descriptor of another process (the calling shell's /proc/$$/fd/1, also through a link) names a file that process
# has open: never resolved and renamed over (its log would lose every line), refused with exit 2, the file intact.
t_out_other_process_fd() {
    setup
    printf 'old line\n' >shell.log
    local ino rc=0
    ino=$(stat -c %i shell.log)
    bash -c 'echo "line 1"; "$1" sign -k k.pem -i m -o /proc/$$/fd/1 --hex 2>err.txt; echo "rc=$?"' _ "$ECOPT" \
        >>shell.log || rc=$?
    [ "$rc" -eq 0 ] || fail "the shell exited $rc"
    printf 'old line\nline 1\nrc=2\n' >expected
    cmp -s shell.log expected || fail "shell.log is $(od -c shell.log | head -5), want old line, line 1, rc=2"
    [ "$(stat -c %i shell.log)" = "$ino" ] || fail "shell.log was replaced (inode changed)"
    grep -q "a descriptor of another process" err.txt || fail "message: $(<err.txt)"
    ln -s "/proc/$$/fd/1" viaLink
    expect 2 "a descriptor of another process" "$ECOPT" sign -k k.pem -i m -o viaLink --hex
    expect 2 "a descriptor of another process" "$ECOPT" sign -k k.pem -i m -o "/proc/$$/task/$$/fd/1" --hex
    no_leftovers
}

# Raw bytes are refused on a terminal reached as /dev/stdout, as they are for -o - (they may be secret).
t_out_stdout_terminal() {
    setup
    command -v script >/dev/null || skip "script(1) is not installed: no pseudo-terminal to test with"
    local rc=0 q
    q=$(printf '%q' "$ECOPT")
    script -qec "$q sign -k k.pem -i m -o /dev/stdout" /dev/null >tty.txt 2>&1 || rc=$?
    [ "$rc" -eq 2 ] || { cat -v tty.txt; fail "raw signature to a terminal as /dev/stdout: exit $rc, expected 2"; }
    grep -q "/dev/stdout: is a terminal; use --hex or -o FILE" tty.txt || { cat -v tty.txt; fail "message"; }
    rc=0
    script -qec "$q sign -k k.pem -i m -o /dev/stdout --hex" /dev/null >tty.txt 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || { cat tty.txt; fail "--hex to a terminal as /dev/stdout: exit $rc"; }
    grep -q "$(<want.hex)" tty.txt || fail "--hex to a terminal: the signature is not shown: $(<tty.txt)"
}

run_cases
