#!/usr/bin/env bash
# check.sh — `ecopt check`: every exit status (0 proved, 1 rejected, 2 bad input, 3 environment), every bad-input
# path, errors kept under --quiet, PROVED on compiled emitted C (gcc and clang, .S and .o), on generated and
# hand-written IR, REJECTED on hand-edited code (a branch, a wrong result with a counterexample verified here by
# arithmetic), and --no-red-zone.
# Registered by tests/ir/check_cli.cmake as check.cli.<case>; ECOPT_TEST_FIAT is ../shared/fiat-json.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

FIAT=${ECOPT_TEST_FIAT:-}

need_fiat() {
    [ -n "$FIAT" ] && [ -f "$FIAT/curve25519_64.json" ] || fail "fiat-json not found at '$FIAT'"
}

# verdict CODE REGEX CMD...: run CMD (stdout in out.txt, stderr in err.txt); fail unless it exits with CODE (0 or
# 1), prints nothing on stderr, and its first line of stdout matches REGEX (grep -E).
verdict() {
    local code=$1 re=$2 rc=0
    shift 2
    "$@" >out.txt 2>err.txt || rc=$?
    if [ "$rc" -ne "$code" ]; then
        echo "command: $*" >&2
        cat out.txt err.txt >&2
        fail "exit status $rc, expected $code"
    fi
    [ ! -s err.txt ] || { cat err.txt >&2; fail "a verdict with something on stderr"; }
    [ -z "$re" ] || head -n 1 out.txt | grep -Eq -- "$re" || { cat out.txt >&2; fail "stdout does not match /$re/"; }
}

# proved_line SYM N: out.txt's first line is "PROVED SYM (N limbs: i identical, l linear, s by z3; t s)" with
# i + l + s = N.
proved_line() {
    local line i l s
    line=$(head -n 1 out.txt)
    [[ $line =~ ^PROVED\ $1\ \(([0-9]+)\ limbs:\ ([0-9]+)\ identical,\ ([0-9]+)\ linear,\ ([0-9]+)\ by\ z3\;\ [0-9]+\.[0-9]{3}\ s\)$ ]] ||
        fail "not a PROVED line for $1: $line"
    [ "${BASH_REMATCH[1]}" -eq "$2" ] || fail "$1: ${BASH_REMATCH[1]} limbs, the program has $2"
    i=${BASH_REMATCH[2]}
    l=${BASH_REMATCH[3]}
    s=${BASH_REMATCH[4]}
    [ $((i + l + s)) -eq "$2" ] || fail "$1: $i identical + $l linear + $s by z3 is not $2"
    [ "$(wc -l <out.txt)" -eq 1 ] || fail "more than one line after PROVED"
}

# emit_s JSON FUNC CC FLAGS...: FUNC of fiat JSON as C (ecopt ir --emit c), compiled with CC -S into FUNC.s.
emit_s() {
    local json=$1 fn=$2 cc=$3
    shift 3
    command -v "$cc" >/dev/null || skip "$cc not installed"
    ok "$ECOPT" ir --fiat "$FIAT/$json" --function "$fn" --emit c -o "$fn.c"
    "$cc" -std=c11 "$@" -S "$fn.c" -o "$fn.s" 2>cc.txt || { cat cc.txt >&2; fail "$cc cannot compile $fn.c"; }
}

# A hand-written program: o = a + b on limbs below 2^32 (the System V arguments: o in rdi, a in rsi, b in rdx).
add_ir() {
    cat >add.ir <<'EOF'
func add1
  in a[1] 0..0xffffffff
  in b[1] 0..0xffffffff
  out o[1] 0..0x1fffffffe
  a0:u64 = load a[0]
  b0:u64 = load b[0]
  s:u64 = add a0, b0
  store o[0], s
end
EOF
}

# add_s OP [PRE]: add1 in assembly with OP as the combining instruction and PRE lines before it.
add_s() {
    {
        printf '\t.text\n\t.globl add1\n\t.type add1, @function\nadd1:\n'
        printf '\tmovq (%%rsi), %%rax\n'
        [ $# -lt 2 ] || printf '%s\n' "$2"
        printf '\t%s (%%rdx), %%rax\n\tmovq %%rax, (%%rdi)\n\tret\n\t.size add1, .-add1\n' "$1"
    } >add.S
}

# A counterexample line of add1: a, b, then o[0] of the code and of the program.
CEX_RE='^counterexample: .*a = \{(0x[0-9a-f]+)\}.*b = \{(0x[0-9a-f]+)\}.*'
CEX_RE+='o\[0\] = (0x[0-9a-f]+) \(code\), (0x[0-9a-f]+) \(program\)'

# ---- exit status 2: usage ------------------------------------------------------------------------------------------

t_usage() {
    add_ir
    add_s addq
    ok "$ECOPT" check --help
    grep -q '^usage: ecopt check FILE.S|FILE.o' out.txt || fail "help text"
    # the exit status section names every cause of 2 and 3
    local cause
    for cause in 'neither ELF nor .S/.s' 'the bounds pass' 'an assembler' 'a program that does not load' \
        'the symbol missing' 'temporary' 'directory ($TMPDIR, else /tmp) is unusable' 'memory ran out'; do
        sed -n '/^exit status:/,/^$/p' out.txt | tr -s ' \n' ' ' | grep -qF -- "$cause" ||
            fail "--help's exit status omits '$cause'"
    done
    ok "$ECOPT" help check
    expect 2 "^ecopt check: FILE: missing: the .S or .o file" "$ECOPT" check --ir add.ir
    expect 2 "^ecopt check: give one program" "$ECOPT" check add.S
    expect 2 "^ecopt check: give one program" "$ECOPT" check add.S --ir add.ir --fiat x.json --function f
    expect 2 "^ecopt check: give one program" "$ECOPT" check add.S --ir add.ir --prime 2^255-19
    expect 2 "^ecopt check: --function: missing" "$ECOPT" check add.S --fiat x.json
    expect 2 "^ecopt check: --function: not with a generator spec" "$ECOPT" check add.S --prime 2^255-19 \
        --method solinas-unsaturated --limbs 5 --op mul --function f
    expect 2 "^ecopt check: --method: missing" "$ECOPT" check add.S --prime 2^255-19 --limbs 5 --op mul
    expect 2 "^ecopt check: add2.S: unexpected argument" "$ECOPT" check add.S add2.S --ir add.ir
    expect 2 "^ecopt check: --bogus: unknown option" "$ECOPT" check add.S --ir add.ir --bogus
    expect 2 "^ecopt check: --timeout-ms: 'soon' is not a time" "$ECOPT" check add.S --ir add.ir --timeout-ms soon
    expect 2 "^ecopt check: --timeout-ms: '0' is not a time" "$ECOPT" check add.S --ir add.ir --timeout-ms 0
    expect 2 "^ecopt check: --timeout-ms: '-5' is not a time" "$ECOPT" check add.S --ir add.ir --timeout-ms -5
    expect 2 "^ecopt check: --symbol: empty name" "$ECOPT" check add.S --ir add.ir --symbol ''
    expect 2 "^ecopt check: FILE: standard input is not supported" "$ECOPT" check - --ir add.ir
    expect 2 "^ecopt check: --limbs: 'five' is not a limb count" "$ECOPT" check add.S --prime 2^255-19 \
        --method solinas-unsaturated --limbs five --op mul
    expect 2 "^ecopt check: --method: 'karatsuba' is not" "$ECOPT" check add.S --prime 2^255-19 --method karatsuba \
        --limbs 5 --op mul
    expect 2 "^ecopt check: --op: 'cube' is not" "$ECOPT" check add.S --prime 2^255-19 \
        --method solinas-unsaturated --limbs 5 --op cube
}

# ---- exit status 2: bad input ---------------------------------------------------------------------------------------

t_bad_program() {
    add_ir
    add_s addq
    expect 2 "^ecopt check: missing.ir: cannot open" "$ECOPT" check add.S --ir missing.ir
    printf 'func f\n  in a[1]\n  out o[1]\n  x:u64 = frob a_0\nend\n' >bad.ir
    expect 2 "^ecopt check: bad.ir: line 4: " "$ECOPT" check add.S --ir bad.ir
    printf 'func f\0\n' >nul.ir
    expect 2 "^ecopt check: nul.ir: not a text file" "$ECOPT" check add.S --ir nul.ir
    expect 2 "^ecopt check: add.ir: no function named \"nope\"" "$ECOPT" check add.S --ir add.ir --function nope
    # a program whose u64 sum can wrap: it loads, but the checker refuses it (ir_bounds)
    sed 's/0\.\.0xffffffff/0..0xffffffffffffffff/; s/0\.\.0x1fffffffe/0..0xffffffffffffffff/' add.ir >wrap.ir
    grep -q 'a\[1\] 0\.\.0xffffffffffffffff' wrap.ir || fail "sed did not widen the bounds"
    expect 2 "^ecopt check: (add1|wrap.ir): .*(overflow|wrap|bounds|valid)" "$ECOPT" check add.S --ir wrap.ir
    expect 2 "^ecopt check: not a prime: 2\^255-21" "$ECOPT" check add.S --prime 2^255-21 --method montgomery \
        --limbs 4 --op mul
    expect 2 "^ecopt check: missing.json: cannot open" "$ECOPT" check add.S --fiat missing.json --function f
    need_fiat
    expect 2 'no function named "nope"' "$ECOPT" check add.S --fiat "$FIAT/p256_64.json" --function nope
    expect 2 "^ecopt check: .*p256_64.json: fiat_p256_to_bytes: not supported" "$ECOPT" check add.S \
        --fiat "$FIAT/p256_64.json" --function fiat_p256_to_bytes
    printf '[{"operation": "f", ' >trunc.json
    expect 2 "^ecopt check: trunc.json: " "$ECOPT" check add.S --fiat trunc.json --function f
}

t_bad_code() {
    add_ir
    add_s addq
    expect 2 "^ecopt check: missing.S: " "$ECOPT" check missing.S --ir add.ir
    expect 2 "^ecopt check: $PWD/missing.S: No such file" "$ECOPT" check "$PWD/missing.S" --ir add.ir
    mkdir -p adir.o
    expect 2 "^ecopt check: adir.o: Is a directory$" "$ECOPT" check adir.o --ir add.ir
    echo 'not code' >code.txt
    expect 2 "^ecopt check: code.txt: " "$ECOPT" check code.txt --ir add.ir
    printf '\t.text\n\t.globl add1\nadd1:\n\tfrobnicate %%rax\n\tret\n' >asmerr.S
    expect 2 "^ecopt check: asmerr.S: .*frobnicate" "$ECOPT" check asmerr.S --ir add.ir
    # the symbol: the program's name by default, or --symbol
    sed 's/add1/other/g' add.S >other.S
    expect 2 "^ecopt check: other.S: .*add1" "$ECOPT" check other.S --ir add.ir
    expect 2 "^ecopt check: add.S: .*nosuch" "$ECOPT" check add.S --ir add.ir --symbol nosuch
    # a truncated object file
    cc -c add.S -o add.o
    head -c 100 add.o >trunc.o
    expect 2 "^ecopt check: trunc.o: " "$ECOPT" check trunc.o --ir add.ir
    # a 32-bit object
    if printf '\t.text\n\t.globl add1\nadd1:\n\tret\n' >x32.S && cc -m32 -c x32.S -o x32.o 2>/dev/null; then
        expect 2 "^ecopt check: x32.o: " "$ECOPT" check x32.o --ir add.ir
    fi
}

# ---- exit status 3: the environment -------------------------------------------------------------------------------

t_environment() {
    add_ir
    add_s addq
    # a temporary directory it cannot use is the environment's fault (3), named as such, not the input file's
    expect 3 "^ecopt check: $PWD/missing: the temporary directory is unusable \(TMPDIR\): No such file or directory$" \
        env TMPDIR="$PWD/missing" "$ECOPT" check add.S --ir add.ir
    : >afile
    expect 3 "^ecopt check: $PWD/afile: the temporary directory is unusable \(TMPDIR\): Not a directory$" \
        env TMPDIR="$PWD/afile" "$ECOPT" check add.S --ir add.ir
    if [ "$(id -u)" != 0 ]; then # root may write into a mode 555 directory
        mkdir ro && chmod 555 ro
        expect 3 "^ecopt check: $PWD/ro: the temporary directory is unusable \(TMPDIR\): Permission denied$" \
            env TMPDIR="$PWD/ro" "$ECOPT" check add.S --ir add.ir
        chmod 755 ro
    fi
    # --quiet keeps the error
    expect 3 "^ecopt check: $PWD/missing: the temporary directory is unusable" \
        env TMPDIR="$PWD/missing" "$ECOPT" check add.S --ir add.ir --quiet
    [ ! -s out.txt ] || fail "--quiet printed on stdout: $(<out.txt)"
    # an object file needs no temporary directory
    cc -c add.S -o add.o
    verdict 0 "" env TMPDIR="$PWD/missing" "$ECOPT" check add.o --ir add.ir
    proved_line add1 1
}

# --quiet drops the verdict lines only: every error is still one line on stderr
t_quiet_errors() {
    add_ir
    add_s addq
    expect 2 "^ecopt check: missing.S: No such file or directory$" "$ECOPT" check missing.S --ir add.ir --quiet
    expect 2 "^ecopt check: --bogus: unknown option" "$ECOPT" check add.S --ir add.ir --bogus --quiet
    echo 'not code' >code.txt
    expect 2 "^ecopt check: code.txt: .*neither|^ecopt check: code.txt: not an ELF" "$ECOPT" check code.txt --ir add.ir \
        --quiet
    sed 's/0\.\.0xffffffff/0..0xffffffffffffffff/; s/0\.\.0x1fffffffe/0..0xffffffffffffffff/' add.ir >wrap.ir
    expect 2 "^ecopt check: (add1|wrap.ir): " "$ECOPT" check add.S --ir wrap.ir --quiet
    [ ! -s out.txt ] || fail "--quiet printed on stdout: $(<out.txt)"
    # the help text says what --quiet drops and that errors stay
    ok "$ECOPT" check --help
    grep -A1 -- '^  --quiet' out.txt | grep -q 'errors (exit 2 and 3) are still printed' ||
        fail "--help does not say --quiet keeps the errors"
}

# ---- 0 and 1 on hand-written code -----------------------------------------------------------------------------------

t_hand_proved_and_rejected() {
    add_ir
    add_s addq
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    proved_line add1 1
    cc -c add.S -o add.o
    verdict 0 "" "$ECOPT" check add.o --ir add.ir
    proved_line add1 1
    verdict 0 "" "$ECOPT" check add.S --ir add.ir --function add1 --symbol add1 --timeout-ms 10000
    proved_line add1 1
    # the same sum another way: lea of the two registers
    add_s movq $'\tmovq (%rdx), %rcx\n\tleaq (%rax,%rcx), %rcx'
    sed -i 's/movq (%rdx), %rax$/movq %rcx, %rax/' add.S
    grep -q 'movq %rcx, %rax' add.S || fail "sed did not rewrite add.S"
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    proved_line add1 1
    # --quiet: the exit status only
    add_s addq
    verdict 0 "" "$ECOPT" check add.S --ir add.ir --quiet
    [ ! -s out.txt ] || fail "--quiet printed: $(<out.txt)"
}

t_wrong_result() {
    add_ir
    add_s subq
    verdict 1 "^REJECTED add1: output-differs: " "$ECOPT" check add.S --ir add.ir
    [ "$(wc -l <out.txt)" -eq 2 ] || fail "expected REJECTED and a counterexample line: $(<out.txt)"
    local cex a b code prog
    cex=$(sed -n 2p out.txt)
    [[ $cex =~ $CEX_RE ]] ||
        fail "counterexample line: $cex"
    a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]} code=${BASH_REMATCH[3]} prog=${BASH_REMATCH[4]}
    # the counterexample is real: within the bounds, code = a - b and program = a + b (mod 2^64), and they differ
    ((a <= 0xffffffff && b <= 0xffffffff)) || fail "counterexample outside the declared bounds: $cex"
    [ "$(printf '%x' $((a - b)))" = "$(printf '%x' $((code)))" ] || fail "code value is not a - b: $cex"
    [ "$(printf '%x' $((a + b)))" = "$(printf '%x' $((prog)))" ] || fail "program value is not a + b: $cex"
    ((code != prog)) || fail "the two values are equal: $cex"
    verdict 1 "" "$ECOPT" check add.S --ir add.ir --quiet
    [ ! -s out.txt ] || fail "--quiet printed: $(<out.txt)"
}

# aliasing cases: o[0] = a0 + b0, o[1] = a1 + b0 with o allowed to be a or b. Storing o[0] before loading a[1] is
# right in every case (PROVED); loading b[0] again after storing o[0] is wrong exactly when o is b: REJECTED, naming
# that case.
t_alias_cases() {
    cat >al.ir <<'EOF2'
func al
  in a[2] 0..0xffffffff
  in b[2] 0..0xffffffff
  out o[2] alias a, b
  a0:u64 = load a[0]
  b0:u64 = load b[0]
  a1:u64 = load a[1]
  s:u64 = add a0, b0
  t:u64 = add a1, b0
  store o[0], s
  store o[1], t
end
EOF2
    printf '\t.text\n\t.globl al\n\t.type al, @function\nal:\n\tmovq (%%rsi), %%rax\n\tmovq (%%rdx), %%r8\n' >al.S
    printf '\taddq %%r8, %%rax\n\tmovq %%rax, (%%rdi)\n\tmovq 8(%%rsi), %%rcx\n\taddq %%r8, %%rcx\n' >>al.S
    printf '\tmovq %%rcx, 8(%%rdi)\n\tret\n\t.size al, .-al\n' >>al.S
    verdict 0 "" "$ECOPT" check al.S --ir al.ir
    proved_line al 2
    sed -i 's/addq %r8, %rcx$/addq (%rdx), %rcx/' al.S
    grep -q 'addq (%rdx), %rcx' al.S || fail "sed did not rewrite al.S"
    verdict 1 "^REJECTED al: output-differs \(o == b\): " "$ECOPT" check al.S --ir al.ir
    sed -n 2p out.txt | grep -q '^counterexample: ' || fail "no counterexample line: $(<out.txt)"
}

# an output equal to both inputs at once (fe_mul(h, h, h)): o = a + b limb by limb, o allowed to be a or b. The
# planted code stores o[0], loads a[0] and b[0] again and adds (a[0]' - a0) * (b[0]' - b0) to o[1]: zero when o is
# disjoint, or only a, or only b (one of the two loads sees the original), a0 * b0 when o == a == b. It must be
# REJECTED naming that case; the same code without the extra term (limb 1 loaded after o[0] is stored) is PROVED,
# covered by the disjoint proof (the code reads limb 1 before storing it). The rejection names o[1]: evaluated on
# b := a, the program agrees on o[0] = a0 + a0.
t_alias_triple() {
    cat >al3.ir <<'EOF2'
func al3
  in a[2] 0..0xffffffff
  in b[2] 0..0xffffffff
  out o[2] alias a, b
  a0:u64 = load a[0]
  b0:u64 = load b[0]
  s:u64 = add a0, b0
  store o[0], s
  a1:u64 = load a[1]
  b1:u64 = load b[1]
  t:u64 = add a1, b1
  store o[1], t
end
EOF2
    {
        printf '\t.text\n\t.globl al3\n\t.type al3, @function\nal3:\n'
        printf '\tmovq (%%rsi), %%rax\n\tmovq (%%rdx), %%r8\n\tmovq %%rax, %%r9\n\taddq %%r8, %%r9\n'
        printf '\tmovq %%r9, (%%rdi)\n'
        printf '\tmovq (%%rsi), %%r10\n\tsubq %%rax, %%r10\n\tmovq (%%rdx), %%r11\n\tsubq %%r8, %%r11\n'
        printf '\timulq %%r11, %%r10\n'
        printf '\tmovq 8(%%rsi), %%rcx\n\taddq 8(%%rdx), %%rcx\n\taddq %%r10, %%rcx\n\tmovq %%rcx, 8(%%rdi)\n'
        printf '\tret\n\t.size al3, .-al3\n'
    } >al3.S
    verdict 1 "^REJECTED al3: output-differs \(o == a == b\): output limb 1 \(o\[1\]\)" "$ECOPT" check al3.S --ir al3.ir
    sed -n 2p out.txt | grep -q '^counterexample: ' || fail "no counterexample line: $(<out.txt)"
    # each single case alone is right: with o allowed to alias only a, or only b, the same code is PROVED
    sed 's/alias a, b/alias a/' al3.ir >al3a.ir
    verdict 0 "" "$ECOPT" check al3.S --ir al3a.ir
    sed 's/alias a, b/alias b/' al3.ir >al3b.ir
    verdict 0 "" "$ECOPT" check al3.S --ir al3b.ir
    sed -i '/addq %r10, %rcx$/d' al3.S
    grep -q 'addq %r10' al3.S && fail "sed did not rewrite al3.S"
    verdict 0 "" "$ECOPT" check al3.S --ir al3.ir
    proved_line al3 2
    # inputs of different lengths are never one array: no triple case, and nothing to reject
    sed -e 's/in b\[2\] 0..0xffffffff/in b[3] 0..0xffffffff/' al3.ir >al3c.ir
    verdict 0 "" "$ECOPT" check al3.S --ir al3c.ir
}

# a + b as (a ^ b) + 2 (a & b): another structure than the program's, for the solver
t_by_solver() {
    add_ir
    add_s movq $'\tmovq (%rdx), %rcx\n\tmovq %rax, %r8\n\txorq %rcx, %r8\n\tandq %rcx, %rax\n\tleaq (%r8,%rax,2), %rcx'
    sed -i 's/movq (%rdx), %rax$/movq %rcx, %rax/' add.S
    grep -q 'movq %rcx, %rax' add.S || fail "sed did not rewrite add.S"
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    proved_line add1 1
    # (a ^ b) + (a & b) is not a + b when a & b != 0
    sed -i 's/leaq (%r8,%rax,2), %rcx/leaq (%r8,%rax,1), %rcx/' add.S
    verdict 1 "^REJECTED add1: output-differs: " "$ECOPT" check add.S --ir add.ir
    local cex a b code prog
    cex=$(sed -n 2p out.txt)
    [[ $cex =~ $CEX_RE ]] ||
        fail "counterexample line: $cex"
    a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]} code=${BASH_REMATCH[3]} prog=${BASH_REMATCH[4]}
    ((code == ((a ^ b) + (a & b)) && prog == a + b && code != prog)) || fail "not a real counterexample: $cex"
}

t_branch() {
    add_ir
    add_s addq $'\ttestq %rax, %rax\n\tjz 1f\n1:'
    verdict 1 "^REJECTED add1: branch: .*0x[0-9a-f]+" "$ECOPT" check add.S --ir add.ir
}

t_rejected_rules() {
    add_ir
    # a store into the input a (rsi)
    add_s addq $'\tmovq %rax, (%rsi)'
    verdict 1 "^REJECTED add1: store-input: " "$ECOPT" check add.S --ir add.ir
    # a division
    add_s addq $'\txorl %edx, %edx\n\tdivq %rcx'
    verdict 1 "^REJECTED add1: division: " "$ECOPT" check add.S --ir add.ir
    # a clobbered callee-saved register
    add_s addq $'\tmovq %rax, %rbx'
    verdict 1 "^REJECTED add1: callee-saved: " "$ECOPT" check add.S --ir add.ir
    # an unknown instruction
    add_s addq $'\tcpuid'
    verdict 1 "^REJECTED add1: unknown-insn: .*cpuid" "$ECOPT" check add.S --ir add.ir
    # a stack slot read before it was written
    add_s addq $'\tmovq -16(%rsp), %rcx'
    verdict 1 "^REJECTED add1: stack-unwritten: " "$ECOPT" check add.S --ir add.ir
}

t_no_red_zone() {
    add_ir
    # a spill into the red zone below rsp (System V lets a leaf function use 128 bytes there)
    add_s addq $'\tmovq %rax, -8(%rsp)\n\txorl %eax, %eax\n\tmovq -8(%rsp), %rax'
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    proved_line add1 1
    verdict 1 "^REJECTED add1: memory-bounds: " "$ECOPT" check add.S --ir add.ir --no-red-zone
    # beyond the red zone even without the flag
    add_s addq $'\tmovq %rax, -136(%rsp)\n\tmovq -136(%rsp), %rax'
    verdict 1 "^REJECTED add1: memory-bounds: " "$ECOPT" check add.S --ir add.ir
    # a spill in a frame of its own is fine with --no-red-zone
    add_s addq $'\tsubq $8, %rsp\n\tmovq %rax, (%rsp)\n\txorl %eax, %eax\n\tmovq (%rsp), %rax\n\taddq $8, %rsp'
    verdict 0 "" "$ECOPT" check add.S --ir add.ir --no-red-zone
    proved_line add1 1
}

# ---- 0 on compiled code ----------------------------------------------------------------------------------------------

t_fiat_gcc() {
    need_fiat
    emit_s curve25519_64.json fiat_25519_carry_mul gcc -O2 -fno-tree-vectorize
    verdict 0 "" "$ECOPT" check fiat_25519_carry_mul.s --fiat "$FIAT/curve25519_64.json" \
        --function fiat_25519_carry_mul
    proved_line fiat_25519_carry_mul 5
    gcc -c fiat_25519_carry_mul.s -o m.o
    verdict 0 "" "$ECOPT" check m.o --fiat "$FIAT/curve25519_64.json" --function fiat_25519_carry_mul
    proved_line fiat_25519_carry_mul 5
    # gcc spills a leaf function's values into the red zone below rsp when it runs out of registers
    if grep -Eq -- '-[0-9]+\(%rsp\)' fiat_25519_carry_mul.s; then
        verdict 1 "^REJECTED fiat_25519_carry_mul: memory-bounds: .*red zone" "$ECOPT" check m.o \
            --fiat "$FIAT/curve25519_64.json" --function fiat_25519_carry_mul --no-red-zone
    else
        verdict 0 "" "$ECOPT" check m.o --fiat "$FIAT/curve25519_64.json" --function fiat_25519_carry_mul \
            --no-red-zone
        proved_line fiat_25519_carry_mul 5
    fi
}

t_fiat_clang() {
    need_fiat
    # clang's .s has an .addrsig directive that GNU as (cc -c) does not know: the checker then assembles with clang
    emit_s curve25519_64.json fiat_25519_carry_mul clang -O2 -fno-vectorize -fno-slp-vectorize
    grep -q '^[[:space:]]*\.addrsig' fiat_25519_carry_mul.s || fail "no .addrsig in clang's output"
    verdict 0 "" "$ECOPT" check fiat_25519_carry_mul.s --fiat "$FIAT/curve25519_64.json" \
        --function fiat_25519_carry_mul
    proved_line fiat_25519_carry_mul 5
}

t_linear_forms() {
    need_fiat
    # saturated Solinas: the compilers regroup the multi-word sums; the exact linear forms (check/lf.h) prove it
    for cc in gcc clang; do
        command -v $cc >/dev/null || continue
        if [ $cc = gcc ]; then
            emit_s curve25519_solinas_64.json fiat_curve25519_solinas_mul gcc -O2 -fno-tree-vectorize
        else
            emit_s curve25519_solinas_64.json fiat_curve25519_solinas_mul clang -O2 -fno-vectorize -fno-slp-vectorize
        fi
        verdict 0 "" "$ECOPT" check fiat_curve25519_solinas_mul.s --fiat "$FIAT/curve25519_solinas_64.json" \
            --function fiat_curve25519_solinas_mul
        proved_line fiat_curve25519_solinas_mul 4
        grep -Eq '[1-9][0-9]* linear' out.txt || fail "$cc: no limb proved by the linear forms: $(cat out.txt)"
        # a wrong constant in the reduction (38 = 2 * 19 becomes 39) must not be proved by them
        sed -E 's/\$38,/$39,/; t; s/\$19,/$20,/' fiat_curve25519_solinas_mul.s > wrong.s
        if ! cmp -s wrong.s fiat_curve25519_solinas_mul.s; then
            verdict 1 "^REJECTED fiat_curve25519_solinas_mul: (output-differs|unproved): " "$ECOPT" check wrong.s \
                --fiat "$FIAT/curve25519_solinas_64.json" --function fiat_curve25519_solinas_mul --timeout-ms 2000
        fi
    done
}

t_fiat_edited() {
    need_fiat
    emit_s curve25519_64.json fiat_25519_carry_square gcc -O2 -fno-tree-vectorize
    # a wrong result: the first 51-bit mask becomes a 50-bit one
    grep -q '2251799813685247' fiat_25519_carry_square.s || fail "no 2^51-1 mask in gcc's output"
    sed '0,/2251799813685247/s//1125899906842623/' fiat_25519_carry_square.s >wrong.s
    verdict 1 "^REJECTED fiat_25519_carry_square: (output-differs|unproved): " "$ECOPT" check wrong.s \
        --fiat "$FIAT/curve25519_64.json" --function fiat_25519_carry_square
    # a branch in front of the ret
    awk '/^\tret/ && !done { print "\tjmp 1f"; print "1:"; done = 1 } { print }' fiat_25519_carry_square.s >br.s
    grep -q 'jmp 1f' br.s || fail "awk did not insert the branch"
    verdict 1 "^REJECTED fiat_25519_carry_square: branch: " "$ECOPT" check br.s \
        --fiat "$FIAT/curve25519_64.json" --function fiat_25519_carry_square
}

t_gen_and_ir() {
    local gen=(--prime 2^255-19 --method solinas-unsaturated --limbs 5)
    command -v gcc >/dev/null || skip "gcc not installed"
    # a generator spec: the symbol is the generated program's name
    ok "$ECOPT" gen "${gen[@]}" --op square --emit c -o sq.c
    gcc -std=c11 -O2 -fno-tree-vectorize -S sq.c -o sq.s
    verdict 0 "" "$ECOPT" check sq.s "${gen[@]}" --op square
    proved_line solinas_unsaturated_2e255m19_5_carry_square 5
    # an IR file holding two functions: the last one by default, or --function
    ok "$ECOPT" gen "${gen[@]}" --op add --name fadd -o fadd.ir
    ok "$ECOPT" gen "${gen[@]}" --op sub --name fsub -o fsub.ir
    cat fadd.ir fsub.ir >both.ir
    ok "$ECOPT" ir --ir fadd.ir --emit c -o fadd.c
    ok "$ECOPT" ir --ir fsub.ir --emit c -o fsub.c
    cat fadd.c fsub.c >both.c # the emitted helpers are guarded against a second definition
    gcc -std=c11 -O2 -fno-tree-vectorize -S both.c -o both.s 2>cc.txt || { cat cc.txt >&2; fail "both.c"; }
    verdict 0 "" "$ECOPT" check both.s --ir both.ir
    proved_line fsub 5
    verdict 0 "" "$ECOPT" check both.s --ir both.ir --function fadd
    proved_line fadd 5
    # the add program against the sub code: a wrong result
    verdict 1 "^REJECTED fsub: output-differs: " "$ECOPT" check both.s --ir both.ir --function fadd --symbol fsub
    grep -q '^counterexample: ' out.txt || fail "no counterexample line"
}

# Programs that use the form of p: montgomery-sparse (shifts and subtractions for m*p) and solinas-saturated on
# secp256k1 (one fold multiplier 2^32 + 977), each compiled by gcc and proved against its generator spec. 2^127-1
# (p = -1 mod 2^64, K = 2^63: one shifted copy per round) and secp256k1 are seconds; P-256 is t_gen_sparse_p256.
t_gen_sparse() {
    command -v gcc >/dev/null || skip "gcc not installed"
    local g1=(--prime 2^127-1 --method montgomery-sparse --limbs 2)
    ok "$ECOPT" gen "${g1[@]}" --op mul --name sp127 --emit c -o sp127.c
    gcc -std=c11 -O2 -fno-tree-vectorize -S sp127.c -o sp127.s
    verdict 0 "" "$ECOPT" check sp127.s "${g1[@]}" --op mul --symbol sp127
    proved_line sp127 2
    local g2=(--prime 2^256-2^32-977 --method solinas-saturated --limbs 4)
    ok "$ECOPT" gen "${g2[@]}" --op square --name k1sq --emit c -o k1sq.c
    gcc -std=c11 -O2 -fno-tree-vectorize -S k1sq.c -o k1sq.s
    verdict 0 "" "$ECOPT" check k1sq.s "${g2[@]}" --op square --symbol k1sq
    proved_line k1sq 4
    expect 2 "^ecopt gen: .*unknown op for the montgomery-sparse method: carry" "$ECOPT" gen "${g1[@]}" --op carry
}

t_gen_sparse_p256() { # labels: slow
    command -v gcc >/dev/null || skip "gcc not installed"
    local g=(--prime 2^256-2^224+2^192+2^96-1 --method montgomery-sparse --limbs 4)
    ok "$ECOPT" gen "${g[@]}" --op mul --name sp256 --emit c -o sp256.c
    gcc -std=c11 -O2 -fno-tree-vectorize -S sp256.c -o sp256.s
    verdict 0 "" "$ECOPT" check sp256.s "${g[@]}" --op mul --symbol sp256
    proved_line sp256 4
}

# Found by a red-team review: code whose result is right under the checker's first model but wrong or unsafe on a
# real machine. Each must be rejected (or refused) for the reason named.
t_red_team() {
    add_ir
    # a 16-bit return (66 c3: AMD pops 2 bytes) and a far return
    add_s addq
    sed -i 's/^\tret$/\t.byte 0x66, 0xc3/' add.S
    verdict 1 "^REJECTED add1: unknown-insn: .*operand-size" "$ECOPT" check add.S --ir add.ir
    add_s addq
    sed -i 's/^\tret$/\tlretq/' add.S
    verdict 1 "^REJECTED add1: unknown-insn: .*far return" "$ECOPT" check add.S --ir add.ir
    # rsp pointed at an output array (a signal frame would land below it)
    add_s addq $'\tmovq %rsp, %r11\n\tmovq %rdi, %rsp\n\tmovq %r11, %rsp'
    verdict 1 "^REJECTED add1: stack-unbalanced: rsp no longer points into the stack" "$ECOPT" check add.S --ir add.ir
    # a slot written in the red zone, left below it when rsp rose, read back after rsp fell again
    add_s addq $'\tsubq $16, %rsp\n\tmovq %rcx, -120(%rsp)\n\taddq $16, %rsp\n\tsubq $16, %rsp\n\tmovq -120(%rsp), %rcx\n\taddq $16, %rsp'
    verdict 1 "^REJECTED add1: stack-unwritten: " "$ECOPT" check add.S --ir add.ir
    # rsp above the return address
    add_s addq $'\taddq $8, %rsp\n\tsubq $8, %rsp'
    verdict 1 "^REJECTED add1: stack-unbalanced: rsp moved above" "$ECOPT" check add.S --ir add.ir
    # a local and a global of one name in one object (ld -r): ambiguous, exit 2
    command -v ld >/dev/null || skip "ld not installed"
    add_s addq
    sed -e 's/\.globl add1//' add.S >local.S
    add_s subq
    cc -c local.S -o local.o && cc -c add.S -o global.o && ld -r local.o global.o -o both.o || fail "cannot build both.o"
    verdict 1 "^REJECTED add1: symbol: \`add1\` has 2 definitions at different places" "$ECOPT" check both.o \
        --ir add.ir
    # a relocated immediate in a shared object (.rela.dyn, applied by the loader)
    printf '\t.text\n\t.globl add1\n\t.type add1, @function\nadd1:\n\tmovq (%%rsi), %%rax\n\tmovabsq $zz, %%rcx\n' >so.S
    printf '\taddq %%rcx, %%rax\n\tmovq %%rax, (%%rdi)\n\tret\n\t.size add1, .-add1\n\t.data\nzz:\t.quad 0\n' >>so.S
    cc -shared -o so.so so.S -Wl,-z,notext 2>cc.txt || { cat cc.txt >&2; skip "cannot link a text relocation"; }
    verdict 1 "^REJECTED add1: rip-data: " "$ECOPT" check so.so --ir add.ir
}

# --explain on a planted wrong function: the committed proved multiply with one register changed (adcx %rbp, %r10
# -> adcx %rbx, %r10). The explanation must name the limb of the REJECTED line, the mutated instruction (its address
# checked with objdump), and an input on which the CPU running the wrong code and the proved code gives the two
# printed values. And a rule's rejection names the rule and its instruction.
t_explain() {
    local src gen
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/src/field/generated/ecopt_fe_mul_adx.S
    gen=(--prime 2^255-19 --method solinas-saturated-2chain --limbs 4 --op mul --symbol ecopt_fe_mul_adx)
    [ -f "$src" ] || fail "no $src"
    grep -q 'adcx %rbp, %r10' "$src" || fail "the instruction to mutate is not in $src"
    sed '0,/adcx %rbp, %r10/s//adcx %rbx, %r10/' "$src" >wrong.S
    cmp -s "$src" wrong.S && fail "sed changed nothing"
    verdict 1 "^REJECTED ecopt_fe_mul_adx: output-differs: output limb ([0-9]) " "$ECOPT" check wrong.S "${gen[@]}" \
        --explain
    local limb line addr
    limb=$(head -n 1 out.txt | sed -E 's/.*output limb ([0-9]) .*/\1/')
    line=$(grep '^explain: output limb' out.txt) || { cat out.txt >&2; fail "no limb line"; }
    [[ $line =~ ^explain:\ output\ limb\ out1\[$limb\]\ differs:\ (0x[0-9a-f]{16})\ \(code\),\ (0x[0-9a-f]{16})\ \(program\)$ ]] ||
        { cat out.txt >&2; fail "limb line: $line"; }
    local vcode=${BASH_REMATCH[1]} vprog=${BASH_REMATCH[2]}
    line=$(grep '^explain: the two sides part at ' out.txt) || { cat out.txt >&2; fail "no parting line"; }
    [[ $line =~ ^explain:\ the\ two\ sides\ part\ at\ 0x([0-9a-f]+):\ adcx\ %rbx,\ %r10$ ]] ||
        { cat out.txt >&2; fail "the parting instruction is not the mutated one: $line"; }
    addr=${BASH_REMATCH[1]}
    grep -q '^explain: the limb is stored by 0x[0-9a-f]*: mov %[a-z0-9]*, ' out.txt || fail "no store line"
    cc -c wrong.S -o wrong.o
    objdump -d wrong.o >wrong.dis # a file, not a pipe: grep -q would close it early (pipefail)
    grep -Eq "^ +$addr:.*adcx +%rbx,%r10" wrong.dis || fail "0x$addr is not the mutated adcx in objdump"
    # the printed input reproduces on the CPU: the wrong code gives the code value, the proved code the program's
    grep -q ' adx ' /proc/cpuinfo && grep -q ' bmi2 ' /proc/cpuinfo || skip "this CPU has no ADX/BMI2"
    local args
    args=$(grep '^explain: input: ' out.txt | grep -oE '0x[0-9a-f]{16}' | tr '\n' ' ')
    # shellcheck disable=SC2086
    [ "$(echo $args | wc -w)" -eq 8 ] || fail "the input line does not hold 8 limbs: $args"
    printf '%s\n' '#include <stdint.h>' '#include <stdio.h>' '#include <stdlib.h>' \
        'void ecopt_fe_mul_adx(uint64_t o[4], const uint64_t a[4], const uint64_t b[4]);' \
        'int main(int argc, char **argv) {' '    uint64_t a[4], b[4], o[4];' '    if (argc != 10) return 2;' \
        '    for (int i = 0; i < 4; i++) { a[i] = strtoull(argv[1 + i], 0, 16); b[i] = strtoull(argv[5 + i], 0, 16); }' \
        '    ecopt_fe_mul_adx(o, a, b);' '    printf("0x%016llx\n", (unsigned long long)o[atoi(argv[9])]);' \
        '    return 0;' '}' >run.c
    cc -O1 run.c wrong.S -o run_wrong && cc -O1 run.c "$src" -o run_right || fail "cannot build the harness"
    # shellcheck disable=SC2086
    [ "$(./run_wrong $args "$limb")" = "$vcode" ] || fail "the wrong code does not give $vcode on the printed input"
    # shellcheck disable=SC2086
    [ "$(./run_right $args "$limb")" = "$vprog" ] || fail "the proved code does not give $vprog on the printed input"
    # a wrong value that reaches the limb only through carries (the flow follows CF from adc to adcx)
    sed '0,/adcq $0, %r13/s//adcq $1, %r13/' "$src" >carry.S
    verdict 1 "^REJECTED ecopt_fe_mul_adx: output-differs: " "$ECOPT" check carry.S "${gen[@]}" --explain
    grep -Eq '^explain: the two sides part at 0x[0-9a-f]+: adc \$0x01, %r13$' out.txt ||
        { cat out.txt >&2; fail "the parting instruction is not the mutated adc"; }
    # compiled code, whose temporaries are no program values (gcc -O2 computes 19x by way of 9x): the mutated add
    # is named, not the first temporary
    need_fiat
    emit_s curve25519_64.json fiat_25519_carry_mul gcc -O2
    grep -qP '^\taddq\t%rax, %r12$' fiat_25519_carry_mul.s || fail "gcc's output has no 'addq %rax, %r12' to mutate"
    sed '0,/^\taddq\t%rax, %r12$/s//\taddq\t%rax, %r13/' fiat_25519_carry_mul.s >cwrong.s
    verdict 1 "^REJECTED fiat_25519_carry_mul: output-differs: " "$ECOPT" check cwrong.s \
        --fiat "$FIAT/curve25519_64.json" --function fiat_25519_carry_mul --explain
    line=$(grep '^explain: the two sides part at ' out.txt) || { cat out.txt >&2; fail "no parting line"; }
    [[ $line =~ ^explain:\ the\ two\ sides\ part\ at\ 0x([0-9a-f]+):\ add\ %rax,\ %r13$ ]] ||
        { cat out.txt >&2; fail "compiled code: the parting instruction is not the mutated add: $line"; }
    addr=${BASH_REMATCH[1]}
    cc -c cwrong.s -o cwrong.o
    objdump -d cwrong.o >cwrong.dis
    grep -Eq "^ +$addr:.*add +%rax,%r13" cwrong.dis || fail "0x$addr is not the mutated add in objdump"
    # a rule: the rule and its instruction
    add_ir
    add_s addq 'jz 1f
1:'
    verdict 1 "^REJECTED add1: branch: " "$ECOPT" check add.S --ir add.ir --explain
    grep -q '^explain: rule branch broken: ' out.txt || { cat out.txt >&2; fail "no rule line"; }
    grep -Eq '^explain: the instruction: 0x[0-9a-f]+: jz ' out.txt || { cat out.txt >&2; fail "no instruction line"; }
    expect 2 "^ecopt check: --explain: not with --quiet" "$ECOPT" check add.S --ir add.ir --explain --quiet
}

# ---- the bytes that callers of the name run (the rules relocation and symbol) ---------------------------------------

# add_body NAME OP: the instructions of add1 with OP combining, under the label NAME (no directives)
add_body() {
    printf '%s:\n\tmovq (%%rsi), %%rax\n\t%s (%%rdx), %%rax\n\tmovq %%rax, (%%rdi)\n\tret\n' "$1" "$2"
}

# A relocation outside the function whose bytes reach into it: the linker rewrites the code that was checked (here
# the first bytes of a nopl, which become `mov %rsi, %rdx; ...`-like garbage in the linked program).
t_relocation_outside() {
    add_ir
    local type
    for type in R_X86_64_PC64 R_X86_64_64; do
        {
            printf '\t.text\n\t.globl pad\npad:\n\t.reloc ., %s, 0\n\t.long 0\n' "$type"
            printf '\t.globl add1\n\t.type add1, @function\nadd1:\n\tnopl 0(%%rax)\n'
            printf '\tmovq (%%rsi), %%rax\n\taddq (%%rdx), %%rax\n\tmovq %%rax, (%%rdi)\n\tret\n\t.size add1, .-add1\n'
        } >rel.S
        verdict 1 "^REJECTED add1: relocation: $type at 0x0 \(\.rela\.text\), outside \`add1\` .*rewrites its bytes \+0\.\.\+3$" \
            "$ECOPT" check rel.S --ir add.ir
        cc -c rel.S -o rel.o || fail "cannot assemble rel.S"
        verdict 1 "^REJECTED add1: relocation: $type " "$ECOPT" check rel.o --ir add.ir
    done
    # a 32-bit field two bytes before: its last two bytes are the function's
    sed -i 's/\.reloc \., R_X86_64_64, 0/.reloc .+2, R_X86_64_PC32, 0/' rel.S
    grep -q 'R_X86_64_PC32' rel.S || fail "sed did not rewrite rel.S"
    verdict 1 "^REJECTED add1: relocation: R_X86_64_PC32 at 0x2 .*rewrites its bytes \+0\.\.\+1$" \
        "$ECOPT" check rel.S --ir add.ir
    # four bytes before a 4-byte field ends at the function: no overlap, PROVED (the control)
    sed -i 's/\.reloc \.+2, R_X86_64_PC32, 0/.reloc ., R_X86_64_PC32, 0/' rel.S
    verdict 0 "" "$ECOPT" check rel.S --ir add.ir
    proved_line add1 1
    # a type not known here: which bytes it rewrites is unknown (the type byte of the .o patched to 0xc8 = 200)
    cc -c rel.S -o rel.o || fail "cannot assemble rel.S"
    local off
    off=$(readelf -SW rel.o | sed -n 's/.*\] \.rela\.text  *RELA  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
    [ -n "$off" ] || fail "no .rela.text in rel.o"
    printf '\xc8' | dd of=rel.o bs=1 seek=$((0x$off + 8)) conv=notrunc status=none || fail "cannot patch rel.o"
    readelf -rW rel.o | grep -q 'unrecognized: c8' || { readelf -rW rel.o >&2; fail "the patch did not make type 200"; }
    verdict 1 "^REJECTED add1: relocation: a relocation of unknown type 200 at 0x0 \(\.rela\.text\)" "$ECOPT" check \
        rel.o --ir add.ir
    # in a shared object: a text relocation (.rela.dyn, applied by the loader) of a word 4 bytes before add1
    command -v ld >/dev/null || skip "ld not installed"
    {
        printf '\t.text\n\t.globl pad\npad:\n\t.reloc ., R_X86_64_64, zz\n\t.long 0\n\t.globl add1\n'
        printf '\t.type add1, @function\nadd1:\n\tnopl 0(%%rax)\n\tmovq (%%rsi), %%rax\n\taddq (%%rdx), %%rax\n'
        printf '\tmovq %%rax, (%%rdi)\n\tret\n\t.size add1, .-add1\n\t.data\n\t.globl zz\nzz:\t.quad 0\n'
    } >dyn.S
    cc -shared -o dyn.so dyn.S -Wl,-z,notext 2>cc.txt || { cat cc.txt >&2; skip "cannot link a text relocation"; }
    readelf -rW dyn.so | grep -q 'R_X86_64_64\|R_X86_64_RELATIVE' || { readelf -rW dyn.so >&2; fail "no text relocation"; }
    verdict 1 "^REJECTED add1: relocation: R_X86_64_(64|RELATIVE) at 0x[0-9a-f]+ \(\.rela\.dyn\), outside \`add1\`" \
        "$ECOPT" check dyn.so --ir add.ir
    # the same with .rela.dyn's section header disguised as PROGBITS: the loader reads DT_RELA all the same
    local shoff idx
    shoff=$(readelf -hW dyn.so | sed -n 's/.*Start of section headers: *\([0-9]*\).*/\1/p')
    idx=$(readelf -SW dyn.so | sed -n 's/.*\[ *\([0-9]*\)\] \.rela\.dyn .*/\1/p')
    [ -n "$shoff" ] && [ -n "$idx" ] || fail "cannot find .rela.dyn in dyn.so"
    printf '\x01' | dd of=dyn.so bs=1 seek=$((shoff + 64 * idx + 4)) conv=notrunc status=none || fail "patch"
    readelf -SW dyn.so | grep -q '\.rela\.dyn  *PROGBITS' || fail "the patch did not disguise .rela.dyn"
    verdict 1 "^REJECTED add1: relocation: R_X86_64_(64|RELATIVE) at 0x[0-9a-f]+ \(the dynamic section's table\)" \
        "$ECOPT" check dyn.so --ir add.ir
}

# A name that ld or ld.so binds to other code than the clean copy that carries the name in the symbol table.
t_symbol_binds_elsewhere() {
    add_ir
    command -v ld >/dev/null || skip "ld not installed"
    # a local clean add1 and `.symver impl, add1@@V1`: callers of add1 bind to impl (a - b)
    {
        printf '\t.text\n\t.type add1, @function\n'
        add_body add1 addq
        printf '\t.size add1, .-add1\n\t.globl impl\n\t.type impl, @function\n'
        add_body impl subq
        printf '\t.size impl, .-impl\n\t.symver impl, add1@@V1\n'
    } >ver.S
    verdict 1 "^REJECTED add1: symbol: \`add1\` has 2 definitions at different places, \`add1@@V1\` \(FUNC GLOBAL" \
        "$ECOPT" check ver.S --ir add.ir
    cc -c ver.S -o ver.o || fail "cannot assemble ver.S"
    echo 'V1 { global: add1; local: *; };' >v.map
    ld -shared --version-script v.map ver.o -o ver.so || fail "cannot link ver.so"
    verdict 1 "^REJECTED add1: symbol: \`add1\` has [0-9]+ definitions at different places" "$ECOPT" check ver.so \
        --ir add.ir
    # the dynamic symbol table alone (strip: no .symtab): add1@@V1 is the one definition, impl's a - b
    strip -o ver-stripped.so ver.so || fail "strip"
    verdict 1 "^REJECTED add1: output-differs: " "$ECOPT" check ver-stripped.so --ir add.ir
    # ld -r of a local FUNC add1 and a GLOBAL OBJECT add1 in .text (a - b): callers bind to the object
    { printf '\t.text\n\t.type add1, @function\n'; add_body add1 addq; printf '\t.size add1, .-add1\n'; } >loc.S
    { printf '\t.text\n\t.globl add1\n\t.type add1, @object\n'; add_body add1 subq; printf '\t.size add1, .-add1\n'; } >obj.S
    cc -c loc.S -o loc.o && cc -c obj.S -o obj.o && ld -r loc.o obj.o -o lo.o || fail "cannot build lo.o"
    verdict 1 "^REJECTED add1: symbol: \`add1\` has 2 definitions at different places, \`add1\` \(FUNC LOCAL at 0x0, \.symtab\) and \`add1\` \(OBJECT GLOBAL" \
        "$ECOPT" check lo.o --ir add.ir
    ld -shared lo.o -o lo.so || fail "cannot link lo.so"
    verdict 1 "^REJECTED add1: symbol: \`add1\` has [0-9]+ definitions at different places" "$ECOPT" check lo.so \
        --ir add.ir
    strip -o lo-stripped.so lo.so || fail "strip"
    expect 2 "not a function" "$ECOPT" check lo-stripped.so --ir add.ir
    # a local definition alone: other files' callers of add1 reach another definition or none
    verdict 1 "^REJECTED add1: symbol: \`add1\` \(FUNC LOCAL at 0x0, \.symtab\) is not GLOBAL or WEAK" "$ECOPT" check \
        loc.S --ir add.ir
    # an indirect function: its resolver picks the code at run time
    sed 's/@object/@gnu_indirect_function/; s/subq/addq/' obj.S >ifunc.S
    verdict 1 "^REJECTED add1: symbol: \`add1\` \(GNU_IFUNC GLOBAL .* is an indirect function" "$ECOPT" check \
        ifunc.S --ir add.ir
    # a COMDAT group: the linker keeps one copy of the group, perhaps another file's
    {
        printf '\t.section .text.add1,"axG",@progbits,add1,comdat\n\t.globl add1\n\t.type add1, @function\n'
        add_body add1 addq
        printf '\t.size add1, .-add1\n'
    } >comdat.S
    verdict 1 "^REJECTED add1: symbol: .* of a COMDAT group" "$ECOPT" check comdat.S --ir add.ir
    # controls, PROVED: a weak definition; a versioned one in .dynsym (add1@@V1) with its .symtab copy; a label
    sed 's/^\t\.type add1, @object/\t.type add1, @function/; s/\.globl add1/.weak add1/; s/subq/addq/' obj.S >weak.S
    verdict 0 "" "$ECOPT" check weak.S --ir add.ir
    proved_line add1 1
    { printf '\t.text\n\t.globl add1\n\t.type add1, @function\n'; add_body add1 addq
      printf '\t.size add1, .-add1\n'; } >alias.S
    cc -c alias.S -o alias.o && ld -shared --version-script v.map alias.o -o alias.so || fail "cannot link alias.so"
    readelf --dyn-syms -W alias.so | grep -q 'add1@@V1' || fail "alias.so has no add1@@V1"
    verdict 0 "" "$ECOPT" check alias.so --ir add.ir
    proved_line add1 1
    # a linked file whose section header says .text lies where a clean copy is, while the loader maps a - b there
    { printf '\t.text\n\t.globl add1\n\t.type add1, @function\n'; add_body add1 subq
      printf '\t.size add1, .-add1\n\t.section .clean,"",@progbits\n'; add_body clean addq; } >lm.S
    cc -c lm.S -o lm.o && ld -shared lm.o -o lm.so || fail "cannot link lm.so"
    verdict 1 "^REJECTED add1: output-differs: " "$ECOPT" check lm.so --ir add.ir
    local shoff idx clean
    shoff=$(readelf -hW lm.so | sed -n 's/.*Start of section headers: *\([0-9]*\).*/\1/p')
    idx=$(readelf -SW lm.so | sed -n 's/.*\[ *\([0-9]*\)\] \.text .*/\1/p')
    clean=$(readelf -SW lm.so | sed -n 's/.*\] \.clean  *PROGBITS  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
    [ -n "$shoff" ] && [ -n "$idx" ] && [ -n "$clean" ] || fail "cannot find .text and .clean in lm.so"
    readelf -sW lm.so | grep -q ' 0000000000001000 .* add1$' && readelf -SW lm.so | grep -q '\.text .* 0000000000001000 ' ||
        fail "add1 is not at the start of .text"
    local v=$((0x$clean)) bytes="" k
    for k in 0 1 2 3 4 5 6 7; do bytes+=$(printf '\\x%02x' $(((v >> (8 * k)) & 255))); done
    printf "$bytes" | dd of=lm.so bs=1 seek=$((shoff + 64 * idx + 0x18)) conv=notrunc status=none || fail "patch"
    readelf -SW lm.so | grep -q "\.text  *PROGBITS  *0000000000001000 0*$clean " || fail "the patch did not move .text"
    verdict 1 "^REJECTED add1: symbol: \`add1\` .*: the loader maps other bytes there" "$ECOPT" check lm.so --ir add.ir
    { printf '\t.text\n\t.globl add1\n'; add_body add1 addq; } >label.S
    verdict 0 "" "$ECOPT" check label.S --ir add.ir
    proved_line add1 1
}

# A section whose contents the linker may change or drop: ld merges SHF_MERGE/SHF_STRINGS sections (entries of
# sh_entsize bytes, or strings, deduplicated across its inputs: the function's bytes may become another's), drops
# SHF_EXCLUDE ones, and keeps one .gnu.linkonce.* section of each name from all its inputs (legacy COMDAT).
t_section_rewritten() {
    add_ir
    local flags
    for flags in '"axMS",@progbits,1' '"axM",@progbits,4' '"axS",@progbits'; do
        { printf '\t.section .text.m,%s\n\t.globl add1\n\t.type add1, @function\n' "$flags"; add_body add1 addq
          printf '\t.size add1, .-add1\n'; } >merge.S
        verdict 1 "^REJECTED add1: symbol: \`add1\` \(FUNC GLOBAL at 0x0, \.symtab\) is in section \.text\.m, which the linker merges" \
            "$ECOPT" check merge.S --ir add.ir
    done
    { printf '\t.section .text.x,"axe",@progbits\n\t.globl add1\n\t.type add1, @function\n'; add_body add1 addq
      printf '\t.size add1, .-add1\n'; } >excl.S
    cc -c excl.S -o excl.o || fail "cannot assemble excl.S"
    readelf -SW excl.o | grep -q '\.text\.x .* AXE ' || { readelf -SW excl.o >&2; fail "no SHF_EXCLUDE on .text.x"; }
    verdict 1 "^REJECTED add1: symbol: .* is in section \.text\.x, which the linker drops \(SHF_EXCLUDE\)" \
        "$ECOPT" check excl.o --ir add.ir
    { printf '\t.section .gnu.linkonce.t.add1,"ax",@progbits\n\t.globl add1\n\t.type add1, @function\n'
      add_body add1 addq; printf '\t.size add1, .-add1\n'; } >once.S
    verdict 1 "^REJECTED add1: symbol: .* is in section \.gnu\.linkonce\.t\.add1 \(legacy COMDAT" \
        "$ECOPT" check once.S --ir add.ir
    # the control: a section of its own with plain flags
    sed 's/\.gnu\.linkonce\.t\.add1/.text.add1/' once.S >own.S
    verdict 0 "" "$ECOPT" check own.S --ir add.ir
    proved_line add1 1
}

# put64 FILE OFFSET VALUE: the 8 little-endian bytes of VALUE at OFFSET of FILE
put64() {
    local bytes="" k
    for k in 0 1 2 3 4 5 6 7; do bytes+=$(printf '\\x%02x' $((($3 >> (8 * k)) & 255))); done
    printf "$bytes" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none || fail "cannot patch $1"
}

# sec_field FILE NAME COLUMN: a field of section NAME in `readelf -SW` (2 type, 3 address, 4 offset, 5 size; hex)
sec_field() {
    readelf -SW "$1" 2>/dev/null | sed 's/^ *\[ *[0-9]*\] *//' | awk -v n="$2" -v c="$3" '$1 == n { print $c; exit }'
}

# sym_field FILE TABLE NAME COLUMN: a field of symbol NAME in TABLE (.symtab/.dynsym) of `readelf -sW` (1 index,
# 2 value)
sym_field() {
    readelf -sW "$1" 2>/dev/null | awk -v t="'$2'" -v n="$3" -v c="$4" '/^Symbol table/ { in_t = ($3 == t) }
        in_t && $8 == n { sub(":", "", $1); print $c; exit }'
}

# A linked file whose section headers lie about the dynamic symbols: ld.so reads them through PT_DYNAMIC
# (DT_SYMTAB), whatever the headers say. add1 is a - b and impl a + b; the headers are patched so that add1 seems
# to be impl.
t_symbol_dynamic_view() {
    add_ir
    command -v ld >/dev/null && command -v strip >/dev/null || skip "binutils not installed"
    { printf '\t.text\n'
      for f in impl add1; do printf '\t.globl %s\n\t.type %s, @function\n' $f $f; done
      add_body impl addq; printf '\t.size impl, .-impl\n'; add_body add1 subq; printf '\t.size add1, .-add1\n'
    } >dv.S
    cc -c dv.S -o dv.o || fail "cannot assemble dv.S"
    ld -shared dv.o -o dv.so || fail "cannot link dv.so"
    verdict 1 "^REJECTED add1: output-differs: " "$ECOPT" check dv.so --ir add.ir
    local impl shoff idx
    impl=$(sym_field dv.so .dynsym impl 2)
    shoff=$(readelf -hW dv.so | sed -n 's/.*Start of section headers: *\([0-9]*\).*/\1/p')
    [ -n "$impl" ] && [ -n "$shoff" ] || fail "cannot read dv.so"
    # unstripped: .dynsym retyped to PROGBITS (the checker would not see it), .symtab's add1 moved to impl
    cp dv.so lie1.so
    idx=$(readelf -SW lie1.so | sed -n 's/.*\[ *\([0-9]*\)\] \.dynsym .*/\1/p')
    printf '\x01' | dd of=lie1.so bs=1 seek=$((shoff + 64 * idx + 4)) conv=notrunc status=none || fail "patch"
    put64 lie1.so $((0x$(sec_field lie1.so .symtab 4) + 24 * $(sym_field lie1.so .symtab add1 1) + 8)) $((0x$impl))
    [ "$(sym_field lie1.so .symtab add1 2)" = "$impl" ] && [ "$(sec_field lie1.so .dynsym 2)" = PROGBITS ] ||
        fail "the patch did not take"
    verdict 1 "^REJECTED add1: symbol: \`add1\` \(FUNC GLOBAL at 0x$(printf %x $((0x$impl))), \.symtab\), but the loader's dynamic symbol table \(DT_SYMTAB\) has \`add1\` \(FUNC at 0x" \
        "$ECOPT" check lie1.so --ir add.ir
    # stripped: a forged copy of .dynsym appended to the file, its section header pointed there
    strip -o lie2.so dv.so || fail "strip"
    local off size end
    off=$((0x$(sec_field lie2.so .dynsym 4)))
    size=$((0x$(sec_field lie2.so .dynsym 5)))
    end=$(stat -c %s lie2.so)
    shoff=$(readelf -hW lie2.so | sed -n 's/.*Start of section headers: *\([0-9]*\).*/\1/p')
    idx=$(readelf -SW lie2.so | sed -n 's/.*\[ *\([0-9]*\)\] \.dynsym .*/\1/p')
    local add1i
    add1i=$(sym_field lie2.so .dynsym add1 1)
    dd if=lie2.so bs=1 skip="$off" count="$size" status=none >>lie2.so || fail "cannot copy .dynsym"
    put64 lie2.so $((end + 24 * add1i + 8)) $((0x$impl))
    put64 lie2.so $((shoff + 64 * idx + 0x18)) "$end"
    [ "$(sym_field lie2.so .dynsym add1 2)" = "$impl" ] || fail "the forged .dynsym is not the one readelf reads"
    verdict 1 "^REJECTED add1: symbol: \`add1\` \(FUNC GLOBAL at 0x$(printf %x $((0x$impl))), \.dynsym\), but the loader's dynamic symbol table \(DT_SYMTAB\) has \`add1\` " \
        "$ECOPT" check lie2.so --ir add.ir
    # controls, PROVED: the honest file with add1 = a + b, unstripped and stripped, with either hash table
    sed 's/subq/addq/' dv.S >dv2.S
    cc -c dv2.S -o dv2.o || fail "cannot assemble dv2.S"
    local style
    for style in gnu sysv; do
        ld -shared --hash-style=$style dv2.o -o dv2.so && strip -o dv2s.so dv2.so || fail "cannot link dv2.so"
        verdict 0 "" "$ECOPT" check dv2.so --ir add.ir
        proved_line add1 1
        verdict 0 "" "$ECOPT" check dv2s.so --ir add.ir
        proved_line add1 1
    done
}

# ---- the frame bound (the rule frame-size) --------------------------------------------------------------------------

t_frame_size() {
    add_ir
    # 16 MB below the stack, far past any guard page: rejected at the subq
    add_s addq $'\tsubq $16777000, %rsp\n\tmovq %rax, (%rsp)\n\taddq $16777000, %rsp'
    verdict 1 "^REJECTED add1: frame-size: rsp at entry-16777000, more than 4096 bytes below" "$ECOPT" check add.S \
        --ir add.ir
    # one page: fine; the red zone below it is a second page
    add_s addq $'\tsubq $4096, %rsp\n\tmovq %rax, (%rsp)\n\taddq $4096, %rsp'
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    proved_line add1 1
    add_s addq $'\tsubq $4096, %rsp\n\tmovq %rcx, -8(%rsp)\n\taddq $4096, %rsp'
    verdict 1 "^REJECTED add1: frame-size: a 8-byte store at stack offset -4104, more than 4096 bytes below" \
        "$ECOPT" check add.S --ir add.ir
    # the red zone of a frame within the page (CryptOpt's p434: sub rsp, 1800, then [rsp - 0x80])
    add_s addq $'\tsubq $1800, %rsp\n\tmovq %rcx, -128(%rsp)\n\taddq $1800, %rsp'
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    proved_line add1 1
    # a larger frame touched page by page in order
    add_s addq $'\tsubq $4096, %rsp\n\tmovq $0, (%rsp)\n\tsubq $4096, %rsp\n\tmovq $0, (%rsp)\n\tsubq $4000, %rsp\n\tmovq %rcx, -96(%rsp)\n\taddq $12192, %rsp'
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    proved_line add1 1
    # ... but not 8 bytes short of a page
    add_s addq $'\tsubq $4096, %rsp\n\tmovq $0, 8(%rsp)\n\tsubq $4096, %rsp\n\tmovq $0, (%rsp)\n\taddq $8192, %rsp'
    verdict 1 "^REJECTED add1: frame-size: rsp at entry-8192, more than 4096 bytes below the lowest stack byte touched before \(offset -4088\)" \
        "$ECOPT" check add.S --ir add.ir
}

# gcc -fstack-clash-protection's probe, `orq $0, (%rsp)` after each `subq $4096, %rsp`: it reads a slot never
# written and changes no byte. It is a touch for the frame bound that leaves the slot unwritten, with the flags of
# OR with an unknown value (CF = OF = 0).
t_stack_probe() {
    add_ir
    local p=$'\tsubq $4096, %rsp\n\torq $0, (%rsp)\n'
    # a 12 KiB frame probed page by page, then used at its bottom: PROVED
    add_s addq "$p$p$p"$'\tsubq $16, %rsp\n\tmovq %rax, 8(%rsp)\n\tmovq 8(%rsp), %rax\n\taddq $12304, %rsp'
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    proved_line add1 1
    # the same frame without the probes: REJECTED frame-size
    add_s addq $'\tsubq $4096, %rsp\n\tsubq $4096, %rsp\n\tsubq $4096, %rsp\n\tsubq $16, %rsp\n\tmovq %rax, 8(%rsp)\n\tmovq 8(%rsp), %rax\n\taddq $12304, %rsp'
    verdict 1 "^REJECTED add1: frame-size: rsp at entry-8192, more than 4096 bytes below" "$ECOPT" check add.S \
        --ir add.ir
    # the probed slot stays unwritten: reading it back is REJECTED stack-unwritten
    add_s addq "$p"$'\tmovq (%rsp), %rcx\n\taddq $4096, %rsp'
    verdict 1 "^REJECTED add1: stack-unwritten: a load of stack byte -4096, never written" "$ECOPT" check add.S \
        --ir add.ir
    # ... and a written slot keeps its value through the probe
    add_s addq $'\tsubq $8, %rsp\n\tmovq %rax, (%rsp)\n\torq $0, (%rsp)\n\tmovq (%rsp), %rax\n\taddq $8, %rsp'
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    # or $1 is no probe: it reads the slot (REJECTED stack-unwritten at the or), and on a written slot it is an or
    add_s addq "$p"$'\torq $1, (%rsp)\n\taddq $4096, %rsp'
    verdict 1 "^REJECTED add1: stack-unwritten: a load of stack byte -4096, never written at 0x[0-9a-f]+: orq .0x01, \(%rsp\)$" \
        "$ECOPT" check add.S --ir add.ir
    add_s addq $'\tsubq $8, %rsp\n\tmovq %rax, (%rsp)\n\torq $1, (%rsp)\n\tmovq (%rsp), %rax\n\taddq $8, %rsp'
    verdict 1 "^REJECTED add1: output-differs: " "$ECOPT" check add.S --ir add.ir
    # the probe's flags: CF = 0 is known (adc then adds no carry) ...
    add_s adcq "$p"$'\tleaq 4096(%rsp), %rsp'
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    # ... ZF of an unwritten slot is not
    add_s addq "$p"$'\tsetz %cl\n\tmovzbq %cl, %rcx\n\taddq %rcx, %rax\n\taddq $4096, %rsp'
    verdict 1 "^REJECTED add1: unknown-value: " "$ECOPT" check add.S --ir add.ir
    # ZF of a written slot is the value's (0 + a is a when the slot holds 0)
    add_s addq $'\tsubq $8, %rsp\n\tmovq $0, (%rsp)\n\torq $0, (%rsp)\n\tsetnz %cl\n\tmovzbq %cl, %rcx\n\taddq %rcx, %rax\n\taddq $8, %rsp'
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
}

# gcc -O2 -fstack-clash-protection on a function with a 12 KiB local array: its probes are proved. (With the red
# zone, gcc puts a slot 4104 bytes below the last probe, which the page rule rejects: see docs/checker.md.)
t_stack_probe_gcc() {
    command -v gcc >/dev/null || skip "gcc not installed"
    cat >big.c <<'EOF2'
#include <stdint.h>
void add1(uint64_t *o, const uint64_t *a, const uint64_t *b)
{
    volatile uint64_t t[1536];
    t[0] = a[0];
    t[1535] = b[0];
    o[0] = t[0] + t[1535];
}
EOF2
    add_ir
    gcc -O2 -fstack-clash-protection -mno-red-zone -c big.c -o big.o || fail "gcc cannot compile big.c"
    objdump -d big.o | grep -q 'orq *\$0x0,(%rsp)' || skip "this gcc emits no orq \$0 probe"
    verdict 0 "" "$ECOPT" check big.o --ir add.ir
    proved_line add1 1
    gcc -O2 -fno-stack-clash-protection -mno-red-zone -c big.c -o big.o || fail "gcc cannot compile big.c"
    verdict 1 "^REJECTED add1: frame-size: " "$ECOPT" check big.o --ir add.ir
}

# ---- a .S that another compiler driver reads differently -------------------------------------------------------------

# The proof is for the bytes this system's `cc -c` made of the .S: under #ifdef __clang__ clang assembles other code.
# ecopt check says so on stderr (one line, the verdict unchanged); the .o that clang made is checked as what it is.
t_preprocessor_conditional() {
    add_ir
    {
        printf '\t.text\n\t.globl add1\n\t.type add1, @function\nadd1:\n\tmovq (%%rsi), %%rax\n#ifdef __clang__\n'
        printf '\tsubq (%%rdx), %%rax\n#else\n\taddq (%%rdx), %%rax\n#endif\n\tmovq %%rax, (%%rdi)\n\tret\n'
        printf '\t.size add1, .-add1\n'
    } >cond.S
    local rc=0
    "$ECOPT" check cond.S --ir add.ir >out.txt 2>err.txt || rc=$?
    [ "$rc" -eq 0 ] || { cat out.txt err.txt >&2; fail "cond.S with gcc's preprocessor: exit $rc, expected 0"; }
    proved_line add1 1
    [ "$(wc -l <err.txt)" -eq 1 ] && grep -q '^ecopt check: warning: cond.S:6: `#ifdef`: .*check the .o that ships' \
        err.txt || { cat err.txt >&2; fail "no one-line warning naming cond.S:6 and #ifdef"; }
    # no warning for a .S without conditionals, nor for the .o
    add_s addq
    verdict 0 "" "$ECOPT" check add.S --ir add.ir
    command -v clang >/dev/null || skip "clang not installed"
    clang -c cond.S -o cond.o || fail "clang cannot assemble cond.S"
    verdict 1 "^REJECTED add1: output-differs: " "$ECOPT" check cond.o --ir add.ir
}

# The assembler's own conditionals (.ifdef and its variants) and inclusions get the warning #ifdef gets: the code
# depends on --defsym and on the assembler.
t_assembler_conditional() {
    add_ir
    local d
    for d in '.ifdef FOO' '.ifc a,b' '.ifeqs "a","b"' '.IFNDEF FOO'; do
        {
            printf '\t.text\n\t.globl add1\n\t.type add1, @function\nadd1:\n\tmovq (%%rsi), %%rax\n%s\n' "$d"
            printf '\tsubq (%%rdx), %%rax\n\t.else\n\taddq (%%rdx), %%rax\n\t.endif\n\tmovq %%rax, (%%rdi)\n\tret\n'
            printf '\t.size add1, .-add1\n'
        } >acond.S
        local rc=0 w
        w=$(printf '%s' "${d%% *}" | tr 'A-Z' 'a-z')
        "$ECOPT" check acond.S --ir add.ir >out.txt 2>err.txt || rc=$?
        [ "$rc" -le 1 ] || { cat out.txt err.txt >&2; fail "acond.S ($d): exit $rc"; }
        [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "^ecopt check: warning: acond.S:6: \`$w\`: .*check the .o that ships" \
            err.txt || { cat err.txt >&2; fail "no one-line warning naming acond.S:6 and $w"; }
    done
    printf '\t.text\n\t.globl add1\n\t.type add1, @function\n' >inc.S
    add_body add1 addq >>inc.S
    printf '\t.size add1, .-add1\n' >>inc.S
    printf '\t.include "inc.S"\n' >top.S
    "$ECOPT" check top.S --ir add.ir >out.txt 2>err.txt || true
    grep -q '^ecopt check: warning: top.S:1: `.include`: ' err.txt || { cat err.txt >&2; fail "no warning for .include"; }
}

# An assembler error about the end of the file names the .S, not the driver's preprocessed temporary file.
t_assembler_error_names_source() {
    add_ir
    printf '\t.text\n\t.globl add1\nadd1:\n\t.ifdef FOO\n\tret\n' >noend.S
    expect 2 '^ecopt check: noend\.S: the assembler failed: noend\.S: Error: end of file inside conditional$' \
        "$ECOPT" check noend.S --ir add.ir
}

# --explain after a rejection in an aliasing case: the disjoint case's re-run would find no difference; explain
# says which case failed and never contradicts the verdict. The code rereads a[0] after storing o[0]: wrong only
# when o == a.
t_explain_alias() {
    cat >al.ir <<'EOF'
func f
  out o[2] alias a, b
  in a[2] 0..0x7fffffffffffffff
  in b[2] 0..0x7fffffffffffffff
  a0:u64 = load a[0]
  a1:u64 = load a[1]
  b0:u64 = load b[0]
  b1:u64 = load b[1]
  s0:u64 = add a0, b0
  s1:u64 = add a1, b1
  store o[0], s0
  store o[1], s1
end
EOF
    printf '\t.text\n\t.globl f\n\t.type f, @function\nf:\n' >al.S
    printf '\tmov (%%rsi), %%r9\n\tmov (%%rdx), %%r10\n\tlea (%%r9,%%r10), %%rax\n\tmov %%rax, (%%rdi)\n' >>al.S
    printf '\tmov (%%rsi), %%rcx\n\tsub %%r9, %%rcx\n\tmov 8(%%rsi), %%rax\n\tadd 8(%%rdx), %%rax\n' >>al.S
    printf '\tadd %%rcx, %%rax\n\tmov %%rax, 8(%%rdi)\n\tret\n\t.size f, .-f\n' >>al.S
    verdict 1 '^REJECTED f: output-differs \(o == a\): ' "$ECOPT" check al.S --ir al.ir --explain
    grep -q '^explain: rule output-differs broken in the aliasing case o == a: ' out.txt &&
        ! grep -q 'no input found' out.txt || { cat out.txt >&2; fail "explain does not name the aliasing case"; }
}

run_cases
