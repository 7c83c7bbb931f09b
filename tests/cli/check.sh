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
    local rc=0
    "$ECOPT" check both.o --ir add.ir >out.txt 2>err.txt || rc=$?
    [ "$rc" -eq 2 ] || fail "ambiguous symbol: exit $rc, expected 2"
    grep -q "defined 2 times" err.txt || { cat err.txt >&2; fail "no 'defined 2 times' message"; }
    # a relocated immediate in a shared object (.rela.dyn, applied by the loader)
    printf '\t.text\n\t.globl add1\n\t.type add1, @function\nadd1:\n\tmovq (%%rsi), %%rax\n\tmovabsq $zz, %%rcx\n' >so.S
    printf '\taddq %%rcx, %%rax\n\tmovq %%rax, (%%rdi)\n\tret\n\t.size add1, .-add1\n\t.data\nzz:\t.quad 0\n' >>so.S
    cc -shared -o so.so so.S -Wl,-z,notext 2>cc.txt || { cat cc.txt >&2; skip "cannot link a text relocation"; }
    verdict 1 "^REJECTED add1: rip-data: " "$ECOPT" check so.so --ir add.ir
}

run_cases
