/* test_check_exec.c — the checker's x86-64 symbolic executor (check/exec.c). The reference is the CPU.
 *
 * 1. Semantics: several hundred tiny AT&T functions with the fiat signature (out[8], then input arrays of 4 limbs),
 *    each doing one instruction form and storing the result and the flags (setcc, movzbl) into out. All of them are
 *    assembled into one shared object (top-level asm in a C file, cc -shared); each is read back from that object
 *    (check_code_read), decoded and executed symbolically, then run natively on thousands of random and edge inputs
 *    (0, 1, 2^7, 2^15, 2^31, 2^63, 2^64-1, ... and random words of random bit density): every output limb's
 *    expression, evaluated (ex_eval_all), must equal what the CPU stored; a limb the executor says was never stored
 *    must keep the poison the test put there.
 *    Also random straight-line programs (gen_fuzz: 40 instructions over 7 registers, every size, partial
 *    registers, flag producers and consumers, multiplies, shifts, push/pop, stack slots, xmm moves), compared the
 *    same way; those that read a flag the SDM leaves undefined are rejected by the executor and only counted.
 * 2. Rules: one function per rule (and a few variants) that breaks it; the rule and the address in the reason are
 *    asserted.
 * 3. Compiled fiat code (--fiat DIR): mul/square of five curves emitted as C (emit_c), built with gcc and clang into
 *    shared objects; no rule fires and every output limb evaluates to what the native code computes on random
 *    inputs within the declared bounds.
 *
 *    With --wide: every curve of the folder and every limb-array operation (add, sub, opp, carry, selectznz,
 *    from/to_montgomery, ...) at -O2.
 *
 * Usage: test_check_exec [--fiat DIR [--wide]] [--fuzz N] [--seed N] [--samples N] [--keep]. EXEC_DEBUG=1 prints
 * the limbs whose expression differs from the IR's (ir_sym_run) by id. Exit 0 pass, 1 fail, 77 skip (no cc). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cc_util.h"
#include "check/decode.h"
#include "check/elf.h"
#include "check/exec.h"
#include "check/expr.h"
#include "check/ir_sym.h"
#include "emit/emit_c.h"
#include "ir/ir.h"

static int failures;
#define FAIL(...)                                                                                                    \
    do {                                                                                                             \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                       \
        fprintf(stderr, "\n");                                                                                       \
        failures++;                                                                                                  \
    } while (0)

static uint64_t rng_state = 0x5eed;
static uint64_t rng(void)
{
    /* splitmix64 (Steele, Lea, Flood, OOPSLA 2014) */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const uint64_t edges[] = { 0,
                                  1,
                                  2,
                                  3,
                                  0x7f,
                                  0x80,
                                  0xff,
                                  0x100,
                                  0x7fff,
                                  0x8000,
                                  0xffff,
                                  0x7fffffff,
                                  0x80000000,
                                  0xffffffff,
                                  0x100000000ull,
                                  0x7fffffffffffffffull,
                                  0x8000000000000000ull,
                                  0xfffffffffffffffeull,
                                  0xffffffffffffffffull,
                                  0xffffffff80000000ull,
                                  0xffffffffffff8000ull,
                                  0xffffffffffffff80ull };
#define NEDGES (sizeof edges / sizeof edges[0])

/* a word: an edge value, a random word, or a random word of random bit density (sparse or dense) */
static uint64_t word(void)
{
    switch (rng() % 6) {
    case 0: return edges[rng() % NEDGES];
    case 1: return edges[rng() % NEDGES] + (rng() % 3) - 1;
    case 2: return rng() & rng() & rng();
    case 3: return rng() | rng() | rng();
    default: return rng();
    }
}

/* ---- the cases --------------------------------------------------------------------------------------------------- */

#define OUTLEN 12
#define INLEN 4
#define POISON 0xa5a5a5a5deadbeefull

typedef struct {
    char sym[24];       /* symbol in the shared object */
    char desc[96];      /* what it tests */
    char *body;         /* AT&T text, '\n'-separated, without the label */
    unsigned nin;       /* input arrays (INLEN limbs each; 8 for the stack-argument case: 1 limb) */
    unsigned inlen;
    uint64_t alias;     /* the output's alias bits */
    int rule;           /* CHECK_RULE_NONE: run and compare; else the rule expected */
    int at;             /* negative cases: the index of the instruction the reason must name */
    bool no_red_zone;
    bool fuzz;          /* a random program: a read of an undefined flag is a legitimate rejection */
    bool force_andn;    /* andn: not yet SUPPORTED by decode.c; the test marks it so to check exec.c's semantics */
    unsigned same_as;   /* an aliasing case: out1 is input array same_as (1 = arg1; 0 = disjoint), executed by
                           check_exec_case and run on the CPU with one buffer for both */
    bool both;          /* with same_as 1: arg2 is that buffer too (out1 == arg1 == arg2, arg2's values arg1's) */
} tcase;

static tcase *cases;
static unsigned ncases, capcases;
static unsigned ncompared, nfuzz_undef;

static char *vfmt(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = malloc((size_t)n + 1);
    if (!s) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

__attribute__((format(printf, 3, 4)))
static tcase *add_case(const char *desc, unsigned nin, const char *fmt, ...)
{
    if (ncases == capcases) {
        capcases = capcases ? 2 * capcases : 256;
        cases = realloc(cases, capcases * sizeof *cases);
        if (!cases) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    tcase *c = &cases[ncases];
    memset(c, 0, sizeof *c);
    snprintf(c->sym, sizeof c->sym, "t_exec_%u", ncases);
    snprintf(c->desc, sizeof c->desc, "%s", desc);
    c->nin = nin;
    c->inlen = INLEN;
    va_list ap;
    va_start(ap, fmt);
    c->body = vfmt(fmt, ap);
    va_end(ap);
    ncases++;
    return c;
}

static tcase *add_bad(int rule, int at, const char *desc, const char *body)
{
    tcase *c = add_case(desc, 2, "%s", body);
    c->rule = rule;
    c->at = at;
    return c;
}

/* register names: a c d b sp bp si di r8..r15 by width */
static const char *const rn64[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15" };
static const char *reg(int r, unsigned w)
{
    static const char *const n32[16] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
                                         "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d" };
    static const char *const n16[16] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di",
                                         "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w" };
    static const char *const n8[16] = { "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil",
                                        "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b" };
    switch (w) {
    case 32: return n32[r];
    case 16: return n16[r];
    case 8: return n8[r];
    default: return rn64[r];
    }
}
enum { A = 0, C = 1, D = 2, B = 3, R8 = 8, R9 = 9, R10 = 10, R11 = 11 };
static char sfx(unsigned w)
{
    return w == 8 ? 'b' : w == 16 ? 'w' : w == 32 ? 'l' : 'q';
}

/* flag masks for saving */
#define SV_C 1u
#define SV_Z 2u
#define SV_S 4u
#define SV_O 8u
#define SV_P 16u
#define SV_ALL 31u

/* save_flags — setcc of each flag in mask into out[first...] via r10 (never touches the flags) */
static const char *save_flags(unsigned mask, unsigned first)
{
    static char buf[8][512];
    static int which;
    char *b = buf[which++ & 7];
    static const char *const cc[5] = { "c", "z", "s", "o", "p" };
    size_t n = 0;
    b[0] = '\0';
    for (unsigned i = 0; i < 5; i++)
        if (mask >> i & 1) {
            n += (size_t)snprintf(b + n, 512 - n, "set%s %%r10b\nmovzbl %%r10b, %%r10d\nmov %%r10, %u(%%rdi)\n",
                                  cc[i], 8 * first++);
        }
    return b;
}

/* cmp of in1[0] with in2[0]: every status flag defined from data */
#define SET_FLAGS "mov (%%rsi), %%r11\ncmp 8(%%rdx), %%r11\n"

static void gen_alu(void)
{
    static const char *const ops[] = { "add", "sub", "adc", "sbb", "and", "or", "xor", "cmp", "test" };
    static const unsigned ws[4] = { 8, 16, 32, 64 };
    char d[96];
    for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        const char *op = ops[o];
        bool carry = !strcmp(op, "adc") || !strcmp(op, "sbb");
        /* CF from bit 0 of in1[1] */
        const char *cin = carry ? "mov 8(%rsi), %r11\nshr $1, %r11\n" : "";
        for (unsigned wi = 0; wi < 4; wi++) {
            unsigned w = ws[wi];
            snprintf(d, sizeof d, "%s r%u, r%u", op, w, w);
            add_case(d, 2, "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\n%s%s %%%s, %%%s\nmov %%rax, (%%rdi)\n%sret\n", cin,
                     op, reg(C, w), reg(A, w), save_flags(SV_ALL, 1));
            snprintf(d, sizeof d, "%s m%u, r%u", op, w, w);
            if (strcmp(op, "test"))
                add_case(d, 2,
                         "mov (%%rsi), %%rax\nmov %%rax, -16(%%rsp)\nmov (%%rdx), %%rcx\n%s%s -16(%%rsp), %%%s\n"
                         "mov %%rax, (%%rdi)\n%sret\n",
                         cin, op, reg(C, w), save_flags(SV_ALL, 1));
            snprintf(d, sizeof d, "%s r%u, m%u (red zone)", op, w, w);
            add_case(d, 2,
                     "mov (%%rsi), %%rax\nmov %%rax, -16(%%rsp)\nmov (%%rdx), %%rcx\n%s%s %%%s, -16(%%rsp)\n"
                     "mov -16(%%rsp), %%rax\nmov %%rax, (%%rdi)\n%sret\n",
                     cin, op, reg(C, w), save_flags(SV_ALL, 1));
            static const long long imms[3] = { 0x7f, -1, -0x7654321 };
            for (unsigned k = 0; k < 3; k++) {
                long long im = imms[k];
                if (w == 8)
                    im = (int8_t)im;
                if (w == 16)
                    im = (int16_t)im;
                snprintf(d, sizeof d, "%s $%lld, r%u", op, im, w);
                add_case(d, 2, "mov (%%rsi), %%rax\n%s%s $%lld, %%%s\nmov %%rax, (%%rdi)\n%sret\n", cin, op, im,
                         reg(A, w), save_flags(SV_ALL, 1));
            }
            snprintf(d, sizeof d, "%s%c $imm, m%u", op, sfx(w), w);
            add_case(d, 2,
                     "mov (%%rsi), %%rax\nmov %%rax, -24(%%rsp)\n%s%s%c $-100, -24(%%rsp)\nmov -24(%%rsp), %%rax\n"
                     "mov %%rax, (%%rdi)\n%sret\n",
                     cin, op, sfx(w), save_flags(SV_ALL, 1));
            /* the same register twice: xor r,r and sub r,r are 0 whatever r held (the entry garbage of r8) */
            snprintf(d, sizeof d, "%s r%u, same r%u", op, w, w);
            if ((!strcmp(op, "xor") || !strcmp(op, "sub")) && w >= 32)
                add_case(d, 2, "%s %%%s, %%%s\nmov %%rax, (%%rdi)\n%sret\n", op, reg(A, w), reg(A, w),
                         save_flags(SV_ALL, 1));
            else if (!strcmp(op, "xor") || !strcmp(op, "sub"))
                add_case(d, 2, "mov (%%rsi), %%rax\n%s %%%s, %%%s\nmov %%rax, (%%rdi)\n%sret\n", op, reg(A, w),
                         reg(A, w), save_flags(SV_ALL, 1));
            else if (w == 64 || w == 32)
                add_case(d, 2, "mov (%%rsi), %%rax\n%s%s %%%s, %%%s\nmov %%rax, (%%rdi)\n%sret\n", cin, op,
                         reg(A, w), reg(A, w), save_flags(SV_ALL, 1));
        }
        snprintf(d, sizeof d, "%s high bytes", op);
        add_case(d, 2,
                 "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\n%s%s %%ch, %%ah\nmov %%rax, (%%rdi)\n%s%s%s %%al, %%ch\n"
                 "mov %%rcx, 48(%%rdi)\nret\n",
                 cin, op, save_flags(SV_ALL, 1), cin, op);
        snprintf(d, sizeof d, "%s from an argument limb", op);
        add_case(d, 2, "mov (%%rsi), %%rax\n%s%s 16(%%rdx), %%rax\nmov %%rax, (%%rdi)\n%sret\n", cin, op,
                 save_flags(SV_ALL, 1));
    }
}

static void gen_shift(void)
{
    static const char *const ops[] = { "shl", "shr", "sar" };
    static const unsigned ws[4] = { 8, 16, 32, 64 };
    char d[96];
    for (unsigned o = 0; o < 3; o++)
        for (unsigned wi = 0; wi < 4; wi++) {
            unsigned w = ws[wi];
            unsigned counts[] = { 0, 1, 2, 5, w - 1, w, w + 3 };
            for (unsigned ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                unsigned k = counts[ci], km = k & (w == 64 ? 63 : 31);
                if (w == 64 && k >= 64)
                    continue;
                unsigned mask;
                if (km == 0)
                    mask = SV_ALL;
                else if (km >= w)
                    mask = SV_Z | SV_S | SV_P;
                else
                    mask = SV_C | SV_Z | SV_S | SV_P | (km == 1 ? SV_O : 0);
                for (int viacl = 0; viacl < 2; viacl++) {
                    snprintf(d, sizeof d, "%s $%u r%u%s", ops[o], k, w, viacl ? " (cl)" : "");
                    if (viacl)
                        add_case(d, 2,
                                 "mov (%%rdx), %%rax\n" SET_FLAGS "mov $%u, %%ecx\n%s %%cl, %%%s\nmov %%rax, (%%rdi)\n"
                                 "%sret\n",
                                 k, ops[o], reg(A, w), save_flags(mask, 1));
                    else
                        add_case(d, 2, "mov (%%rdx), %%rax\n" SET_FLAGS "%s $%u, %%%s\nmov %%rax, (%%rdi)\n%sret\n",
                                 ops[o], k, reg(A, w), save_flags(mask, 1));
                }
            }
            snprintf(d, sizeof d, "%s r%u (implicit 1)", ops[o], w);
            add_case(d, 2, "mov (%%rdx), %%rax\n%s %%%s\nmov %%rax, (%%rdi)\n%sret\n", ops[o], reg(A, w),
                     save_flags(SV_ALL & ~0u, 1));
            snprintf(d, sizeof d, "%s%c $3, m%u", ops[o], sfx(w), w);
            add_case(d, 2,
                     "mov (%%rdx), %%rax\nmov %%rax, -8(%%rsp)\n%s%c $3, -8(%%rsp)\nmov -8(%%rsp), %%rax\n"
                     "mov %%rax, (%%rdi)\n%sret\n",
                     ops[o], sfx(w), save_flags(SV_C | SV_Z | SV_S | SV_P, 1));
        }
    add_case("shl %ah", 2, "mov (%%rdx), %%rax\nshlb $3, %%ah\nmov %%rax, (%%rdi)\n%sret\n",
             save_flags(SV_C | SV_Z | SV_S | SV_P, 1));
    /* double shifts */
    static const unsigned dw[3] = { 16, 32, 64 };
    for (int left = 0; left < 2; left++)
        for (unsigned wi = 0; wi < 3; wi++) {
            unsigned w = dw[wi];
            unsigned counts[] = { 0, 1, 7, w - 1, w };
            for (unsigned ci = 0; ci < 5; ci++) {
                unsigned k = counts[ci];
                if (k >= 32 && w != 64)
                    continue;
                if (k == 64)
                    continue;
                unsigned mask = k == 0 ? SV_ALL : SV_C | SV_Z | SV_S | SV_P | (k == 1 ? SV_O : 0);
                if (k == w)
                    mask = SV_Z | SV_S | SV_P;
                for (int viacl = 0; viacl < 2; viacl++) {
                    snprintf(d, sizeof d, "%s $%u r%u%s", left ? "shld" : "shrd", k, w, viacl ? " (cl)" : "");
                    char cnt[32];
                    snprintf(cnt, sizeof cnt, viacl ? "%%cl" : "$%u", k);
                    add_case(d, 2,
                             "mov (%%rsi), %%rax\nmov (%%rdx), %%r8\n" SET_FLAGS
                             "mov $%u, %%ecx\n%s %s, %%%s, %%%s\nmov %%rax, (%%rdi)\n%sret\n",
                             k, left ? "shld" : "shrd", cnt, reg(R8, w), reg(A, w), save_flags(mask, 1));
                }
            }
        }
    add_case("shrd m64", 2,
             "mov (%%rsi), %%rax\nmov %%rax, -8(%%rsp)\nmov (%%rdx), %%r8\nshrd $13, %%r8, -8(%%rsp)\n"
             "mov -8(%%rsp), %%rax\nmov %%rax, (%%rdi)\n%sret\n",
             save_flags(SV_C | SV_Z | SV_S | SV_P, 1));
    /* BMI2 shifts and bzhi: counts from a register (constants) */
    for (unsigned wi = 1; wi < 3; wi++) {
        unsigned w = dw[wi];
        unsigned counts[] = { 0, 1, 13, w - 1, w + 3 };
        for (unsigned ci = 0; ci < 5; ci++)
            for (int left = 0; left < 2; left++) {
                snprintf(d, sizeof d, "%s %u r%u", left ? "shlx" : "shrx", counts[ci], w);
                add_case(d, 2,
                         "mov (%%rdx), %%rax\n" SET_FLAGS "mov $%u, %%r8d\n%s %%%s, %%%s, %%%s\nmov %%r9, (%%rdi)\n"
                         "%sret\n",
                         counts[ci], left ? "shlx" : "shrx", reg(R8, w), reg(A, w), reg(R9, w), save_flags(SV_ALL, 1));
            }
        unsigned ns[] = { 0, 1, 17, w - 1, w, w + 5, 255, 256 + 3 };
        for (unsigned ni = 0; ni < 8; ni++) {
            snprintf(d, sizeof d, "bzhi %u r%u", ns[ni], w);
            add_case(d, 2, "mov (%%rdx), %%rax\nmov $%u, %%r8d\nbzhi %%%s, %%%s, %%%s\nmov %%r9, (%%rdi)\n%sret\n",
                     ns[ni], reg(R8, w), reg(A, w), reg(R9, w), save_flags(SV_C | SV_Z | SV_S | SV_O, 1));
        }
        snprintf(d, sizeof d, "bzhi r%u, count in the low byte of a data register", w);
        add_case(d, 2, "mov (%%rdx), %%rax\nmov 8(%%rdx), %%r8\nmov $44, %%r8b\nbzhi %%%s, %%%s, %%%s\n"
                 "shlx %%%s, %%%s, %%%s\nmov %%r9, (%%rdi)\nmov %%r10, 8(%%rdi)\nret\n",
                 reg(R8, w), reg(A, w), reg(R9, w), reg(R8, w), reg(A, w), reg(R10, w));
        snprintf(d, sizeof d, "andn r%u / m%u", w, w);
        tcase *an = add_case(d, 2,
                             "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nmov 8(%%rdx), %%r8\nmov %%r8, -8(%%rsp)\n"
                             "andn %%%s, %%%s, %%%s\nmov %%r9, (%%rdi)\n%sandn -8(%%rsp), %%%s, %%%s\n"
                             "mov %%r10, 8(%%rdi)\nret\n",
                             reg(C, w), reg(A, w), reg(R9, w), save_flags(SV_C | SV_Z | SV_S | SV_O, 2), reg(A, w),
                             reg(R10, w));
        an->force_andn = true;
        snprintf(d, sizeof d, "shlx/shrx m%u", w);
        add_case(d, 2,
                 "mov (%%rdx), %%rax\nmov %%rax, -8(%%rsp)\nmov $9, %%r8d\nshlx %%%s, -8(%%rsp), %%%s\n"
                 "shrx %%%s, -8(%%rsp), %%%s\nmov %%r9, (%%rdi)\nmov %%r10, 8(%%rdi)\nret\n",
                 reg(R8, w), reg(R9, w), reg(R8, w), reg(R10, w));
    }
}

static void gen_mul(void)
{
    static const unsigned ws[4] = { 8, 16, 32, 64 };
    char d[96];
    for (unsigned wi = 0; wi < 4; wi++) {
        unsigned w = ws[wi];
        /* rdx := in2[1] (data), so that dx/edx writes have data to merge into */
        snprintf(d, sizeof d, "mul r%u", w);
        add_case(d, 2,
                 "mov %%rdx, %%r9\nmov (%%rsi), %%rax\nmov (%%r9), %%rcx\nmov 8(%%r9), %%rdx\nmul %%%s\n"
                 "mov %%rax, (%%rdi)\nmov %%rdx, 48(%%rdi)\n%sret\n",
                 reg(C, w), save_flags(SV_C | SV_O, 1));
        snprintf(d, sizeof d, "mul%c m%u", sfx(w), w);
        add_case(d, 2,
                 "mov %%rdx, %%r9\nmov (%%rsi), %%rax\nmov 8(%%r9), %%rdx\nmov 16(%%r9), %%rcx\nmov %%rcx, -8(%%rsp)\n"
                 "mul%c -8(%%rsp)\nmov %%rax, (%%rdi)\nmov %%rdx, 48(%%rdi)\n%sret\n",
                 sfx(w), save_flags(SV_C | SV_O, 1));
        if (w >= 16) {
            snprintf(d, sizeof d, "imul r%u, r%u", w, w);
            add_case(d, 2, "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nimul %%%s, %%%s\nmov %%rax, (%%rdi)\n%sret\n",
                     reg(C, w), reg(A, w), save_flags(SV_C | SV_O, 1));
            snprintf(d, sizeof d, "imul m%u, r%u", w, w);
            add_case(d, 2,
                     "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nmov %%rcx, -8(%%rsp)\nimul -8(%%rsp), %%%s\n"
                     "mov %%rax, (%%rdi)\nret\n",
                     reg(A, w));
            static const long long imms[4] = { 3, -5, 0x12345, -0x80000000ll };
            for (unsigned k = 0; k < 4; k++) {
                long long im = w == 16 ? (int16_t)imms[k] : imms[k];
                snprintf(d, sizeof d, "imul $%lld, r%u, r%u", im, w, w);
                add_case(d, 2,
                         "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nimul $%lld, %%%s, %%%s\nmov %%rax, (%%rdi)\n%sret\n",
                         im, reg(C, w), reg(A, w), save_flags(SV_C | SV_O, 1));
            }
        }
        if (w >= 32) {
            snprintf(d, sizeof d, "mulx r%u", w);
            add_case(d, 2,
                     "mov %%rdx, %%r9\nmov (%%rsi), %%rdx\nmov (%%r9), %%r8\nmov 8(%%rsi), %%r11\ncmp 8(%%r9), %%r11\n"
                     "mulx %%%s, %%%s, %%%s\nmov %%rax, (%%rdi)\nmov %%rcx, 48(%%rdi)\n%sret\n",
                     reg(R8, w), reg(A, w), reg(C, w), save_flags(SV_ALL, 1));
            snprintf(d, sizeof d, "mulx m%u", w);
            add_case(d, 2,
                     "mov %%rdx, %%r9\nmov (%%rsi), %%rdx\nmov 8(%%r9), %%r8\nmov %%r8, -16(%%rsp)\n"
                     "mulx -16(%%rsp), %%%s, %%%s\nmov %%rax, (%%rdi)\nmov %%rcx, 48(%%rdi)\nret\n",
                     reg(A, w), reg(C, w));
            snprintf(d, sizeof d, "mulx r%u, same destination", w);
            add_case(d, 2,
                     "mov %%rdx, %%r9\nmov (%%rsi), %%rdx\nmov (%%r9), %%r8\nmulx %%%s, %%%s, %%%s\n"
                     "mov %%rax, (%%rdi)\nret\n",
                     reg(R8, w), reg(A, w), reg(A, w));
        }
        snprintf(d, sizeof d, "neg r%u", w);
        add_case(d, 2, "mov (%%rsi), %%rax\nneg %%%s\nmov %%rax, (%%rdi)\n%sret\n", reg(A, w), save_flags(SV_ALL, 1));
        snprintf(d, sizeof d, "not r%u", w);
        add_case(d, 2, "mov (%%rsi), %%rax\n" SET_FLAGS "not %%%s\nmov %%rax, (%%rdi)\n%sret\n", reg(A, w),
                 save_flags(SV_ALL, 1));
        snprintf(d, sizeof d, "neg/not m%u", w);
        add_case(d, 2,
                 "mov (%%rsi), %%rax\nmov %%rax, -8(%%rsp)\nneg%c -8(%%rsp)\n%snot%c -8(%%rsp)\nmov -8(%%rsp), %%rax\n"
                 "mov %%rax, (%%rdi)\nret\n",
                 sfx(w), save_flags(SV_ALL, 1), sfx(w));
    }
    add_case("mul %ah ... (8-bit mul of a high register)", 2,
             "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nmul %%ch\nmov %%rax, (%%rdi)\n%sret\n",
             save_flags(SV_C | SV_O, 1));
}

static void gen_moves(void)
{
    static const char *const ext[] = { "movzbw %al, %cx", "movzbl %al, %ecx", "movzbq %al, %rcx", "movzwl %ax, %ecx",
                                       "movzwq %ax, %rcx", "movsbw %al, %cx", "movsbl %al, %ecx", "movsbq %al, %rcx",
                                       "movswl %ax, %ecx", "movswq %ax, %rcx", "movslq %eax, %rcx", "movzbl %ah, %ecx",
                                       "movsbl %ah, %ecx", "movsbl %al, %eax", "movzbw %ah, %ax" };
    char d[96];
    for (unsigned i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        snprintf(d, sizeof d, "%s", ext[i]);
        add_case(d, 2, "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\n%s\nmov %%rax, (%%rdi)\nmov %%rcx, 8(%%rdi)\nret\n",
                 ext[i]);
    }
    static const char *const extm[] = { "movzbl -6(%rsp), %ecx", "movsbq -5(%rsp), %rcx", "movzwq -4(%rsp), %rcx",
                                        "movswl -8(%rsp), %ecx", "movslq -4(%rsp), %rcx", "movsbw -1(%rsp), %cx",
                                        "mov -7(%rsp), %ecx", "mov -3(%rsp), %cx", "mov -5(%rsp), %cl" };
    for (unsigned i = 0; i < sizeof extm / sizeof extm[0]; i++) {
        snprintf(d, sizeof d, "%s (stack bytes)", extm[i]);
        add_case(d, 2,
                 "mov (%%rsi), %%rax\nmov %%rax, -8(%%rsp)\nmov (%%rdx), %%rcx\n%s\nmov %%rcx, (%%rdi)\nret\n",
                 extm[i]);
    }
    add_case("cltq", 2, "mov (%%rsi), %%rax\ncltq\nmov %%rax, (%%rdi)\nret\n");
    add_case("movsbq/movzwl of a spilled limb", 2,
             "mov (%%rsi), %%rax\nmov %%rax, -8(%%rsp)\nmovsbq -8(%%rsp), %%rax\nmovzwl -2(%%rsp), %%ecx\n"
             "mov %%rax, (%%rdi)\nmov %%rcx, 8(%%rdi)\nret\n");
    static const char *const mv[] = { "movabs $0x123456789abcdef0, %rax", "mov $-1, %rax", "movl $-1, %eax",
                                      "movw $0x1234, %ax", "movb $0x56, %ah", "movb $0x9a, %al", "mov %ah, %cl",
                                      "mov %cl, %ah", "mov %ax, %cx", "mov %eax, %ecx", "mov %ch, %ah",
                                      "mov $0x80000000, %eax", "mov $-0x80000000, %rax" };
    for (unsigned i = 0; i < sizeof mv / sizeof mv[0]; i++) {
        snprintf(d, sizeof d, "%s", mv[i]);
        add_case(d, 2, "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\n%s\nmov %%rax, (%%rdi)\nmov %%rcx, 8(%%rdi)\nret\n",
                 mv[i]);
    }
    add_case("stores of 8/16/32 bits into a stack slot, read back whole", 2,
             "mov (%%rsi), %%rax\nmov %%rax, -16(%%rsp)\nmov (%%rdx), %%rcx\nmov %%cl, -15(%%rsp)\n"
             "mov %%cx, -12(%%rsp)\n"
             "mov %%ecx, -20(%%rsp)\nmov -16(%%rsp), %%rax\nmov %%rax, (%%rdi)\nmov -20(%%rsp), %%rax\n"
             "mov %%rax, 8(%%rdi)\nmovq $-7, -32(%%rsp)\nmovl $5, -28(%%rsp)\nmov -32(%%rsp), %%rax\n"
             "mov %%rax, 16(%%rdi)\nret\n");
    static const char *const lea[] = { "lea (%rax,%rcx,8), %r8", "lea -7(%rax,%rcx,2), %r8d",
                                       "lea 0x1000(%rax), %r8w", "lea (,%rcx,4), %r8", "lea (%rax,%rax,2), %r8",
                                       "lea -1(%rcx), %r8", "lea 0x7fffffff(%rax,%rcx,1), %r8d" };
    for (unsigned i = 0; i < sizeof lea / sizeof lea[0]; i++) {
        snprintf(d, sizeof d, "%s", lea[i]);
        add_case(d, 2, "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nmov 8(%%rsi), %%r8\n%s\nmov %%r8, (%%rdi)\nret\n",
                 lea[i]);
    }
    add_case("lea of pointers", 2,
             "lea 16(%%rsi), %%r9\nmov 8(%%r9), %%rax\nlea 8(%%rdi), %%r8\nmov %%rax, 8(%%r8)\nlea -8(%%r9), %%r9\n"
             "mov (%%r9), %%rax\nmov %%rax, (%%rdi)\nmov $2, %%ecx\nmov (%%rdx,%%rcx,8), %%rax\nmov %%rax, 8(%%rdi)\n"
             "add $24, %%rsi\nmov -8(%%rsi), %%rax\nmov %%rax, 24(%%rdi)\nret\n");
    /* xchg */
    static const char *const xc[] = { "xchg %rcx, %rax", "xchg %ecx, %eax", "xchg %cx, %ax", "xchg %cl, %ah",
                                      "xchg %r8, %rax", "xchg %rax, -8(%rsp)", "xchg -8(%rsp), %ecx",
                                      "xchg %al, -7(%rsp)" };
    for (unsigned i = 0; i < sizeof xc / sizeof xc[0]; i++) {
        snprintf(d, sizeof d, "%s", xc[i]);
        add_case(d, 2,
                 "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nmov 8(%%rdx), %%r8\nmov %%r8, -8(%%rsp)\n%s\n"
                 "mov %%rax, (%%rdi)\nmov %%rcx, 8(%%rdi)\nmov %%r8, 16(%%rdi)\nmov -8(%%rsp), %%r8\n"
                 "mov %%r8, 24(%%rdi)\n"
                 "ret\n",
                 xc[i]);
    }
    /* push / pop, callee-saved registers used and restored, a frame */
    add_case("push/pop callee-saved", 2,
             "push %%rbx\npush %%rbp\npush %%r12\nmov (%%rsi), %%rbx\nmov (%%rdx), %%rbp\nmov 8(%%rsi), %%r12\n"
             "add %%rbp, %%rbx\nadc %%r12, %%rbp\nmov %%rbx, (%%rdi)\nmov %%rbp, 8(%%rdi)\npop %%r12\npop %%rbp\n"
             "pop %%rbx\nret\n");
    add_case("push imm / push mem / pop", 2,
             "push $-3\npop %%rax\nmov %%rax, (%%rdi)\npushq 8(%%rsi)\npop %%rcx\nmov %%rcx, 8(%%rdi)\n"
             "push %%rdx\npop %%r8\nmov 16(%%r8), %%rax\nmov %%rax, 16(%%rdi)\npush $0x1234\npopq -32(%%rsp)\n"
             "mov -32(%%rsp), %%rax\nmov %%rax, 24(%%rdi)\nret\n");
    add_case("frame: sub/add rsp, spills", 2,
             "sub $40, %%rsp\nmov (%%rsi), %%rax\nmov %%rax, 8(%%rsp)\nmov %%rdi, 16(%%rsp)\nmov 8(%%rsi), %%rax\n"
             "mov %%rax, (%%rsp)\nmov 16(%%rsp), %%r8\nmov 8(%%rsp), %%rax\nadd (%%rsp), %%rax\nmov %%rax, (%%r8)\n"
             "add $40, %%rsp\nret\n");
    add_case("red zone at -128", 2,
             "mov (%%rsi), %%rax\nmov %%rax, -128(%%rsp)\nmov -128(%%rsp), %%rcx\nmov %%rcx, (%%rdi)\nret\n");
    add_case("rbp frame", 2,
             "push %%rbp\nmov %%rsp, %%rbp\nsub $16, %%rsp\nmov (%%rsi), %%rax\nmov %%rax, -8(%%rbp)\n"
             "mov -8(%%rbp), %%rcx\nmov %%rcx, (%%rdi)\nmov %%rbp, %%rsp\npop %%rbp\nret\n");
    /* xmm spills */
    add_case("movq/movd/vmovq/vmovd spills", 2,
             "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nmovq %%rax, %%xmm0\nmovq %%xmm0, %%r8\nmov %%r8, (%%rdi)\n"
             "movd %%ecx, %%xmm1\nmovd %%xmm1, %%r9d\nmov %%r9, 8(%%rdi)\nvmovq %%rcx, %%xmm2\nvmovq %%xmm2, %%r9\n"
             "mov %%r9, 16(%%rdi)\nvmovd %%eax, %%xmm15\nvmovd %%xmm15, %%r11d\nmov %%r11, 24(%%rdi)\n"
             "movd %%xmm0, %%eax\nmov %%rax, 32(%%rdi)\nmovq %%rsi, %%xmm3\nmovq %%xmm3, %%r10\nmov 8(%%r10), %%rax\n"
             "mov %%rax, 40(%%rdi)\nret\n");
    add_case("nop, endbr64, padding after ret", 2,
             "endbr64\nnop\nnopw 0(%%rax,%%rax,1)\nmov (%%rsi), %%rax\nmov %%rax, (%%rdi)\nret\nint3\nnop\n");
    add_case("rep ret", 2, "mov (%%rsi), %%rax\nmov %%rax, (%%rdi)\nrep ret\n");
}

static const char *const ccs[16] = { "o", "no", "b", "ae", "e", "ne", "be", "a",
                                     "s", "ns", "p", "np", "l", "ge", "le", "g" };

static void gen_cond(void)
{
    char d[96];
    for (unsigned i = 0; i < 16; i++) {
        static const unsigned ws[3] = { 16, 32, 64 };
        for (unsigned wi = 0; wi < 3; wi++) {
            unsigned w = ws[wi];
            snprintf(d, sizeof d, "cmov%s r%u", ccs[i], w);
            add_case(d, 2,
                     "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nmov 8(%%rdx), %%r8\ncmp %%rcx, %%rax\n"
                     "cmov%s %%%s, %%%s\nmov %%rax, (%%rdi)\nret\n",
                     ccs[i], reg(R8, w), reg(A, w));
        }
        snprintf(d, sizeof d, "cmov%s m64 after a 32-bit add", ccs[i]);
        add_case(d, 2,
                 "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nadd %%ecx, %%eax\nmov 8(%%rsi), %%rax\n"
                 "cmov%s 8(%%rdx), %%rax\n"
                 "mov %%rax, (%%rdi)\nret\n",
                 ccs[i]);
        snprintf(d, sizeof d, "set%s r8 / m8 / ah", ccs[i]);
        add_case(d, 2,
                 "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nmov 8(%%rdx), %%r8\nmov %%r8, -8(%%rsp)\nmov %%r8, %%r9\n"
                 "cmpb %%cl, %%al\nset%s %%r8b\nset%s -6(%%rsp)\nset%s %%ah\nsub %%rcx, %%r9\nset%s %%r9b\n"
                 "mov %%r8, (%%rdi)\nmov -8(%%rsp), %%r8\nmov %%r8, 8(%%rdi)\nmov %%rax, 16(%%rdi)\n"
                 "mov %%r9, 24(%%rdi)\n"
                 "ret\n",
                 ccs[i], ccs[i], ccs[i], ccs[i]);
    }
}

static void gen_chains(void)
{
    add_case("add/adc chain of 4 limbs", 2,
             "mov (%%rsi), %%rax\nadd (%%rdx), %%rax\nmov %%rax, (%%rdi)\nmov 8(%%rsi), %%rax\nadc 8(%%rdx), %%rax\n"
             "mov %%rax, 8(%%rdi)\nmov 16(%%rsi), %%rax\nadc 16(%%rdx), %%rax\nmov %%rax, 16(%%rdi)\n"
             "mov 24(%%rsi), %%rax\nadc 24(%%rdx), %%rax\nmov %%rax, 24(%%rdi)\n%sret\n",
             save_flags(SV_ALL, 4));
    add_case("sub/sbb chain of 4 limbs", 2,
             "mov (%%rsi), %%rax\nsub (%%rdx), %%rax\nmov %%rax, (%%rdi)\nmov 8(%%rsi), %%rax\nsbb 8(%%rdx), %%rax\n"
             "mov %%rax, 8(%%rdi)\nmov 16(%%rsi), %%rax\nsbb 16(%%rdx), %%rax\nmov %%rax, 16(%%rdi)\n"
             "mov 24(%%rsi), %%rax\nsbb 24(%%rdx), %%rax\nmov %%rax, 24(%%rdi)\n%sret\n",
             save_flags(SV_ALL, 4));
    add_case("adcx/adox interleaved", 2,
             "mov (%%rsi), %%r8\nmov 8(%%rsi), %%r9\nmov 16(%%rsi), %%r10\nmov 24(%%rsi), %%r11\nxor %%eax, %%eax\n"
             "adcx (%%rdx), %%r8\nadox 8(%%rdx), %%r9\nadcx 16(%%rdx), %%r10\nadox 24(%%rdx), %%r11\n"
             "adcx %%r9, %%r10\nadox %%r8, %%r11\nmov %%r8, (%%rdi)\nmov %%r9, 8(%%rdi)\nmov %%r10, 16(%%rdi)\n"
             "mov %%r11, 24(%%rdi)\nmov $0, %%eax\nadcx %%rax, %%rax\nmov %%rax, 32(%%rdi)\nmov $0, %%ecx\n"
             "adox %%rcx, %%rcx\nmov %%rcx, 40(%%rdi)\nret\n");
    add_case("adcx/adox 32-bit, carries from data", 2,
             "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nmov 8(%%rsi), %%r8\nmov 8(%%rdx), %%r9\nadd %%r8, %%r9\n"
             "adcx %%ecx, %%eax\nadox %%eax, %%ecx\nmov %%rax, (%%rdi)\nmov %%rcx, 8(%%rdi)\n%sret\n",
             save_flags(SV_C | SV_Z | SV_S | SV_O | SV_P, 2));
    add_case("stc/clc with adc $0", 2,
             "mov (%%rsi), %%rax\nmov (%%rdx), %%rcx\nstc\nadc $0, %%rax\nclc\nadc $0, %%rcx\nmov %%rax, (%%rdi)\n"
             "mov %%rcx, 8(%%rdi)\nstc\nsbb %%r8, %%r8\nmov %%r8, 16(%%rdi)\nret\n");
    add_case("mul then adc chain (schoolbook 2x1)", 2,
             "mov %%rdx, %%r9\nmov (%%rsi), %%rax\nmulq (%%r9)\nmov %%rax, (%%rdi)\nmov %%rdx, %%rcx\n"
             "mov 8(%%rsi), %%rax\nmulq (%%r9)\nadd %%rcx, %%rax\nadc $0, %%rdx\nmov %%rax, 8(%%rdi)\n"
             "mov %%rdx, 16(%%rdi)\nret\n");
    add_case("setb into the low byte of a dead pointer, then movzbl", 2,
             "mov (%%rsi), %%rax\ncmp (%%rdx), %%rax\nsetb %%sil\nmovzbl %%sil, %%esi\nmov %%rsi, (%%rdi)\nret\n");
    add_case("sbb r,r mask and cmov on it", 2,
             "mov (%%rsi), %%rax\ncmp (%%rdx), %%rax\nsbb %%rcx, %%rcx\nand 8(%%rsi), %%rcx\nmov %%rcx, (%%rdi)\n"
             "test %%rcx, %%rcx\ncmovne 8(%%rdx), %%rax\nmov %%rax, 8(%%rdi)\nret\n");
    add_case("sbb r,r over a pointer (the emitter's cond ? 38 : 0), and $38", 2,
             "mov (%%rsi), %%rax\nadd (%%rdx), %%rax\nmov %%rax, (%%rdi)\nsbb %%rsi, %%rsi\n%sandl $38, %%esi\n"
             "mov %%rsi, 8(%%rdi)\nsbb %%rdx, %%rdx\nmov %%rdx, 16(%%rdi)\nret\n",
             save_flags(SV_C | SV_Z | SV_S | SV_O | SV_P, 3));
    /* stack arguments: out + 8 inputs of 1 limb; inputs 6..8 on the stack */
    tcase *c = add_case("9 arguments (3 on the stack)", 8,
                        "mov (%%rsi), %%rax\nadd (%%rdx), %%rax\nadd (%%rcx), %%rax\nadd (%%r8), %%rax\n"
                        "add (%%r9), %%rax\n"
                        "mov 8(%%rsp), %%r10\nadd (%%r10), %%rax\nmov 16(%%rsp), %%r10\nadd (%%r10), %%rax\n"
                        "mov 24(%%rsp), %%r10\nmov (%%r10), %%r11\nmov %%rax, (%%rdi)\nmov %%r11, 8(%%rdi)\n"
                        "push %%rbx\nmov 32(%%rsp), %%rbx\nmov (%%rbx), %%rbx\nmov %%rbx, 16(%%rdi)\npop %%rbx\nret\n");
    c->inlen = 1;
    /* an output that may alias input 1: all loads before the first store */
    c = add_case("aliased output, loads first", 2,
                 "mov (%%rsi), %%rax\nmov 8(%%rsi), %%rcx\nmov (%%rdx), %%r8\nadd %%r8, %%rax\nmov %%rax, (%%rdi)\n"
                 "mov %%rcx, 8(%%rdi)\nmov (%%rdi), %%r9\nmov %%r9, 16(%%rdi)\nret\n");
    c->alias = 1u << 1;
}

/* gen_incdec — inc and dec (CF kept: set beforehand by SET_FLAGS; OF SF ZF PF from the result), test and cmp on a
 * register that holds a pointer (test: CF = OF = 0 known; the rest opaque), inc / dec of a pointer, and the aliasing
 * cases' memory: out1 is arg1's buffer (same_as), run on the CPU with one buffer */
static void gen_incdec(void)
{
    static const unsigned ws[4] = { 8, 16, 32, 64 };
    char d[96];
    for (int dec = 0; dec < 2; dec++)
        for (unsigned wi = 0; wi < 4; wi++) {
            unsigned w = ws[wi];
            const char *op = dec ? "dec" : "inc";
            snprintf(d, sizeof d, "%s r%u", op, w);
            add_case(d, 2, "mov (%%rdx), %%rax\n" SET_FLAGS "%s %%%s\nmov %%rax, (%%rdi)\n%sret\n", op, reg(A, w),
                     save_flags(SV_ALL, 1));
            snprintf(d, sizeof d, "%s%c m%u (red zone)", op, sfx(w), w);
            add_case(d, 2,
                     "mov (%%rdx), %%rax\nmov %%rax, -40(%%rsp)\n" SET_FLAGS "%s%c -40(%%rsp)\n%s"
                     "mov -40(%%rsp), %%rax\nmov %%rax, (%%rdi)\nret\n",
                     op, sfx(w), save_flags(SV_ALL, 1));
            snprintf(d, sizeof d, "%s r%u: OF from a constant (CryptOpt's mov $-2; inc)", op, w);
            add_case(d, 2, "mov (%%rsi), %%rcx\n" SET_FLAGS "mov $%d, %%%s\n%s %%%s\nadox %%rcx, %%rcx\n"
                     "mov %%rcx, (%%rdi)\nmov %%rax, 48(%%rdi)\n%sret\n",
                     dec ? 0 : -2, reg(A, 64), op, reg(A, w), save_flags(SV_ALL, 1));
        }
    add_case("inc of a pointer, then a load through it", 2,
             "mov %%rsi, %%rax\ninc %%rax\nmov 7(%%rax), %%rcx\nmov %%rcx, (%%rdi)\nret\n");
    add_case("dec of a pointer, then a load through it", 2,
             "lea 16(%%rdx), %%rax\ndec %%rax\nmov -7(%%rax), %%rcx\nmov %%rcx, (%%rdi)\n" SET_FLAGS "inc %%rax\n"
             "mov %%rax, %%rdx\n%sret\n", save_flags(SV_C, 1));
    for (unsigned wi = 0; wi < 4; wi++) {
        unsigned w = ws[wi];
        snprintf(d, sizeof d, "test r%u, r%u of a pointer: CF = OF = 0", w, w);
        add_case(d, 2, "mov %%rsi, %%rax\n" SET_FLAGS "test %%%s, %%%s\nmov (%%rsi), %%rcx\nadc %%rcx, %%rcx\n"
                 "mov %%rcx, (%%rdi)\n%sret\n", reg(A, w), reg(A, w), save_flags(SV_C | SV_O, 1));
        snprintf(d, sizeof d, "test $imm, r%u of a pointer: CF = OF = 0", w);
        add_case(d, 2, "mov %%rdx, %%rax\n" SET_FLAGS "test $%d, %%%s\nmov (%%rsi), %%rcx\nadox %%rcx, %%rcx\n"
                 "mov %%rcx, (%%rdi)\n%sret\n", w == 8 ? 0x40 : 0x7ff0, reg(A, w), save_flags(SV_C | SV_O, 1));
    }
    /* gcc's stack-clash probe, or $0 on a stack slot: the slot unchanged, the flags of its value when it holds
     * data, CF = OF = 0 known when some byte was never written */
    for (unsigned wi = 0; wi < 4; wi++) {
        unsigned w = ws[wi];
        snprintf(d, sizeof d, "or%c $0, m%u probe of a written slot: its value and flags", sfx(w), w);
        add_case(d, 2, "mov (%%rsi), %%rax\nmov %%rax, -24(%%rsp)\n" SET_FLAGS "or%c $0, -24(%%rsp)\n%s"
                 "mov -24(%%rsp), %%rax\nmov %%rax, (%%rdi)\nret\n", sfx(w), save_flags(SV_ALL, 1));
        snprintf(d, sizeof d, "or%c $0, m%u probe of a slot never written: CF = OF = 0", sfx(w), w);
        add_case(d, 2, "mov (%%rsi), %%rcx\n" SET_FLAGS "or%c $0, -%u(%%rsp)\nadc %%rcx, %%rcx\n"
                 "mov %%rcx, (%%rdi)\n%sret\n", sfx(w), 40 + w / 8, save_flags(SV_C | SV_O, 1));
    }
    add_case("orq $0 probe of a half-written slot: CF = OF = 0, the written half kept", 2,
             "mov (%%rsi), %%rax\nmov %%eax, -48(%%rsp)\n" SET_FLAGS "orq $0, -48(%%rsp)\nmov -48(%%rsp), %%ecx\n"
             "mov %%rcx, 8(%%rdi)\nmov (%%rdx), %%rcx\nadox %%rcx, %%rcx\nmov %%rcx, (%%rdi)\n%sret\n",
             save_flags(SV_C | SV_O, 1));
    add_case("cmp of a pointer: the flags are set, and CF set again by clc", 2,
             "mov (%%rsi), %%rcx\ncmp %%rsi, %%rdx\nclc\nadc %%rcx, %%rcx\nmov %%rcx, (%%rdi)\n%sret\n",
             save_flags(SV_C, 1));
    /* aliasing: out1 is arg1 */
    tcase *c = add_case("out1 == arg1: store out1[0], then load arg1[1] and arg1[0] (the stored value)", 2,
                        "mov (%%rsi), %%rax\nadd (%%rdx), %%rax\nmov %%rax, (%%rdi)\nmov 8(%%rsi), %%rcx\n"
                        "add (%%rsi), %%rcx\nmov %%rcx, 8(%%rdi)\nmov 16(%%rsi), %%r8\nmov %%r8, 16(%%rdi)\n"
                        "mov 24(%%rsi), %%r8\nmov %%r8, 24(%%rdi)\nret\n");
    c->alias = 1u << 1;
    c->same_as = 1;
    c = add_case("out1 == arg2: load out1[1] before a store (arg2's value), store it to out1[2]", 2,
                 "mov 8(%%rdi), %%rax\nmov %%rax, 16(%%rdi)\nmov 16(%%rdx), %%rcx\nmov %%rcx, (%%rdi)\n"
                 "mov (%%rsi), %%rcx\nmov %%rcx, 8(%%rdi)\nmov 24(%%rdx), %%rcx\nmov %%rcx, 24(%%rdi)\nret\n");
    c->alias = 1u << 2;
    c->same_as = 2;
    c = add_case("out1 == arg1 == arg2: store out1[0], reload arg1[0] and arg2[0] (both the stored value)", 2,
                 "mov (%%rsi), %%rax\nadd (%%rdx), %%rax\nmov %%rax, (%%rdi)\nmov (%%rsi), %%rcx\n"
                 "imul (%%rdx), %%rcx\nmov %%rcx, 8(%%rdi)\nmov 16(%%rdx), %%r8\nmov %%r8, 16(%%rdi)\n"
                 "mov 8(%%rsi), %%r8\nadd 24(%%rdx), %%r8\nmov %%r8, 24(%%rdi)\nret\n");
    c->alias = 1u << 1 | 1u << 2;
    c->same_as = 1;
    c->both = true;
    c = add_case("out1 == arg1: out1[4..] beyond arg1's limbs", 2,
                 "mov 24(%%rsi), %%rax\nmov %%rax, 32(%%rdi)\nmov 32(%%rdi), %%rcx\nmov %%rcx, (%%rdi)\nret\n");
    c->alias = 1u << 1;
    c->same_as = 1;
}

/* gen_fuzz — random straight-line programs over rax rcx rdx r8 r9 r10 r11 (loaded from in1[0..6]) and four red-zone
 * slots, mixing every operand size, partial registers, flag producers and consumers, multiplies, shifts,
 * pushes/pops and spills; the registers and CF/ZF/SF/OF/PF are stored at the end. A program that reads a flag the
 * SDM leaves undefined at that point is rejected by the executor (counted, not compared). */
static void gen_fuzz(unsigned nprog, unsigned len)
{
    static const int pool[7] = { A, C, D, R8, R9, R10, R11 };
    static const unsigned ws[4] = { 8, 16, 32, 64 };
    static const char *const alu[] = { "add", "sub", "adc", "sbb", "and", "or", "xor", "cmp", "test" };
    static const char *const sh[] = { "shl", "shr", "sar" };
    size_t cap = 1 << 14;
    char *b = malloc(cap);
    if (!b) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (unsigned p = 0; p < nprog; p++) {
        size_t n = 0;
#define EMIT(...) n += (size_t)snprintf(b + n, cap - n, __VA_ARGS__)
        for (int i = 0; i < 7; i++)
            EMIT("mov %u(%%rsi), %%%s\n", 8 * i, rn64[pool[i]]);
        for (int i = 0; i < 4; i++) /* slots at entry rsp - 40 - 8 i, below the deepest push */
            EMIT("mov %%%s, -%u(%%rsp)\n", rn64[pool[i]], 40 + 8 * i);
        EMIT("cmp %%r8, %%r9\n");
        unsigned depth = 0;
        for (unsigned k = 0; k < len && n + 256 < cap; k++) {
            int r1 = pool[rng() % 7], r2 = pool[rng() % 7];
            unsigned w = ws[rng() % 4];
            unsigned what = (unsigned)(rng() % 16);
            /* flag consumers (adc sbb adcx adox cmovcc setcc) after a fresh cmp half of the time, so that fewer
             * programs read a flag left undefined */
            if ((what <= 3 || what == 8 || what == 10) && rng() % 2)
                EMIT("cmp %%%s, %%%s\n", reg(pool[rng() % 7], 64), reg(pool[rng() % 7], 64));
            switch (what) {
            case 0:
            case 1:
            case 2:
                EMIT("%s %%%s, %%%s\n", alu[rng() % 9], reg(r2, w), reg(r1, w));
                break;
            case 3:
                EMIT("%s $%d, %%%s\n", alu[rng() % 9], (int)(rng() % 256) - 128, reg(r1, w));
                break;
            case 4: {
                unsigned cnt = (unsigned)(rng() % (w + 2));
                if (rng() % 2)
                    EMIT("%s $%u, %%%s\n", sh[rng() % 3], cnt, reg(r1, w));
                else if (r1 != C)
                    EMIT("mov $%u, %%ecx\n%s %%cl, %%%s\n", cnt, sh[rng() % 3], reg(r1, w));
                break;
            }
            case 5:
                if (w >= 32 || (w == 16 && rng() % 2)) {
                    unsigned cnt = (unsigned)(rng() % w);
                    EMIT("%s $%u, %%%s, %%%s\n", rng() % 2 ? "shld" : "shrd", cnt, reg(r2, w), reg(r1, w));
                }
                break;
            case 6:
                if (w == 8)
                    w = 64;
                if (rng() % 2)
                    EMIT("imul %%%s, %%%s\n", reg(r2, w), reg(r1, w));
                else
                    EMIT("imul $%d, %%%s, %%%s\n", (int)(rng() % 2000) - 1000, reg(r2, w), reg(r1, w));
                break;
            case 7:
                EMIT("mul%c %%%s\n", sfx(w), reg(r1, w));
                break;
            case 8:
                if (w < 32)
                    w = 64;
                if (r1 != D && r2 != D && rng() % 2)
                    EMIT("mulx %%%s, %%%s, %%%s\n", reg(r2, w), reg(r1, w), reg(pool[rng() % 7], w));
                else
                    EMIT("%s %%%s, %%%s\n", rng() % 2 ? "adcx" : "adox", reg(r2, w), reg(r1, w));
                break;
            case 9:
                EMIT("%s %%%s\n", rng() % 2 ? "neg" : "not", reg(r1, w));
                break;
            case 10:
                if (w == 8)
                    EMIT("set%s %%%s\n", ccs[rng() % 16], reg(r1, 8));
                else
                    EMIT("cmov%s %%%s, %%%s\n", ccs[rng() % 16], reg(r2, w), reg(r1, w));
                break;
            case 11: {
                static const char *const x[] = { "movzbl", "movzwl", "movsbq", "movswq", "movslq", "movsbl",
                                                 "movzbw" };
                static const unsigned from[] = { 8, 16, 8, 16, 32, 8, 8 }, to[] = { 32, 32, 64, 64, 64, 32, 16 };
                unsigned i = (unsigned)(rng() % 7);
                EMIT("%s %%%s, %%%s\n", x[i], reg(r2, from[i]), reg(r1, to[i]));
                break;
            }
            case 12:
                EMIT("lea %d(%%%s,%%%s,%u), %%%s\n", (int)(rng() % 64) - 32, rn64[r1], rn64[r2], 1u << (rng() % 4),
                     reg(pool[rng() % 7], w < 16 ? 64 : w));
                break;
            case 13:
                if (rng() % 2)
                    EMIT("xchg %%%s, %%%s\n", reg(r2, w), reg(r1, w));
                else if (rng() % 2 && depth < 4) {
                    EMIT("push %%%s\n", rn64[r1]);
                    depth++;
                } else if (depth) {
                    EMIT("pop %%%s\n", rn64[r1]);
                    depth--;
                }
                break;
            case 14: {
                /* the slots (a byte, word, dword or qword inside one), addressed from the current rsp, which is
                 * 8 * depth below the entry rsp */
                unsigned slot = 40 + 8 * (unsigned)(rng() % 4);
                unsigned off = slot - (w / 8) * (unsigned)(rng() % (8 / (w / 8))) - 8 * depth;
                if (rng() % 2)
                    EMIT("mov %%%s, -%u(%%rsp)\n", reg(r1, w), off);
                else
                    EMIT("mov -%u(%%rsp), %%%s\n", off, reg(r1, w));
                break;
            }
            default:
                if (rng() % 3 == 0)
                    EMIT("%s\n", rng() % 2 ? "clc" : "stc");
                else if (r1 <= D && r2 <= D)
                    EMIT("%s %%%ch, %%%ch\n", rng() % 2 ? "add" : "mov", "acd"[r2], "acd"[r1]); /* ah ch dh */
                else {
                    unsigned xr = (unsigned)(rng() % 16);
                    EMIT("movq %%%s, %%xmm%u\nmovq %%xmm%u, %%%s\n", rn64[r2], xr, xr, rn64[r1]);
                }
                break;
            }
        }
        while (depth--)
            EMIT("pop %%r11\n");
        for (int i = 0; i < 7; i++)
            EMIT("mov %%%s, %u(%%rdi)\n", rn64[pool[i]], 8 * i);
        EMIT("mov -48(%%rsp), %%rax\nmov %%rax, 56(%%rdi)\n%s",
             p % 2 ? save_flags(SV_C | SV_Z | SV_S | SV_O, 8) : "");
        EMIT("ret\n");
#undef EMIT
        char d[48];
        snprintf(d, sizeof d, "random program %u", p);
        tcase *c = add_case(d, 1, "%s", b);
        c->fuzz = true;
        c->inlen = 8;
    }
    free(b);
}

static void gen_bad(void)
{
    /* the second argument: the index of the instruction the reason must name */
    add_bad(CHECK_RULE_BRANCH, 2, "conditional branch",
            "mov (%rsi), %rax\ntest %rax, %rax\njz 1f\nmov %rax, (%rdi)\n1: ret\n");
    add_bad(CHECK_RULE_BRANCH, 1, "no ret", "mov (%rsi), %rax\nmov %rax, (%rdi)\n");
    add_bad(CHECK_RULE_BRANCH, 3, "code after ret", "mov (%rsi), %rax\nmov %rax, (%rdi)\nret\nadd %rax, %rax\n");
    add_bad(CHECK_RULE_BRANCH, 0, "call", "call 1f\n1: ret\n");
    add_bad(CHECK_RULE_DIVISION, 2, "division", "mov (%rsi), %rax\nxor %edx, %edx\ndivq 8(%rsi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_INSN, 0, "unknown instruction", "vpaddq %xmm0, %xmm1, %xmm2\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_INSN, 1, "bswap (not in the list)", "mov (%rsi), %rax\nbswap %rax\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_INSN, 1, "lock prefix", "mov (%rsi), %rax\nlock addq %rax, -8(%rsp)\nret\n");
    add_bad(CHECK_RULE_RIP_DATA, 0, "RIP-relative load", "mov 0(%rip), %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_RIP_DATA, 0, "RIP-relative lea", "lea 0(%rip), %rax\nret\n");
    add_bad(CHECK_RULE_RIP_DATA, 0, "absolute address", "mov 0x1000, %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_DATA_ADDRESS, 2, "index from data",
            "mov (%rsi), %rax\nand $3, %rax\nmov (%rdx,%rax,8), %rcx\nmov %rcx, (%rdi)\nret\n");
    add_bad(CHECK_RULE_DATA_ADDRESS, 1, "base from data",
            "mov (%rsi), %rax\nmov (%rax), %rcx\nmov %rcx, (%rdi)\nret\n");
    add_bad(CHECK_RULE_DATA_ADDRESS, 0, "base from an entry register", "mov (%r11), %rcx\nret\n");
    add_bad(CHECK_RULE_DATA_ADDRESS, 0, "two pointers", "mov (%rsi,%rdx,1), %rcx\nret\n");
    add_bad(CHECK_RULE_MEMORY_BOUNDS, 0, "array load past the end", "mov 32(%rsi), %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_MEMORY_BOUNDS, 1, "array store before the start", "mov (%rsi), %rax\nmov %rax, -8(%rdi)\nret\n");
    add_bad(CHECK_RULE_MEMORY_BOUNDS, 1, "stack below the red zone", "mov (%rsi), %rax\nmov %rax, -136(%rsp)\nret\n");
    add_bad(CHECK_RULE_MEMORY_BOUNDS, 3, "below the red zone after the frame is popped",
            "sub $64, %rsp\nmov (%rsi), %rax\nadd $64, %rsp\nmov %rax, -200(%rsp)\nret\n");
    add_bad(CHECK_RULE_MEMORY_BOUNDS, 1, "a huge constant index (offsets wrap)",
            "movabs $0x7ffffffffffffff0, %rax\nmov (%rsi,%rax,8), %rcx\nret\n");
    add_bad(CHECK_RULE_MEMORY_BOUNDS, 2, "a huge constant index on the stack",
            "movabs $0x7ffffffffffffff0, %rax\nmov %rax, -8(%rsp)\nmov %rcx, -8(%rsp,%rax,1)\nret\n");
    add_bad(CHECK_RULE_MEMORY_BOUNDS, 1, "store over the return address", "mov (%rsi), %rax\nmov %rax, (%rsp)\nret\n");
    add_bad(CHECK_RULE_MEMORY_BOUNDS, 0, "load above the arguments", "mov 8(%rsp), %rax\nmov %rax, (%rdi)\nret\n");
    tcase *c = add_bad(CHECK_RULE_MEMORY_BOUNDS, 1, "red zone with no_red_zone",
                       "mov (%rsi), %rax\nmov %rax, -8(%rsp)\nmov -8(%rsp), %rcx\nmov %rcx, (%rdi)\nret\n");
    c->no_red_zone = true;
    add_bad(CHECK_RULE_STORE_INPUT, 1, "store into an input", "mov (%rsi), %rax\nmov %rax, 8(%rsi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 3, "ZF of test on a pointer (an opaque value)",
            "mov %rsi, %rax\ntest %al, %al\nmov (%rsi), %rcx\nsetz %cl\nmov %rcx, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 2, "CF of cmp of two pointers (opaque values)",
            "mov (%rsi), %rax\ncmp %rsi, %rdx\ncmovb (%rdx), %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 3, "SF of a 32-bit cmp of a pointer and a constant",
            "mov (%rsi), %rax\ncmp $5, %esi\nmov (%rdx), %rcx\ncmovs %rcx, %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 3, "ZF of inc of a pointer",
            "mov (%rsi), %rax\nmov %rdx, %rcx\ninc %rcx\ncmovz %rcx, %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_STACK_UNWRITTEN, 0, "stack slot never written", "mov -8(%rsp), %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_STACK_UNWRITTEN, 2, "partly written stack slot",
            "mov (%rsi), %rax\nmov %eax, -8(%rsp)\nmov -8(%rsp), %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_STACK_UNWRITTEN, 0, "output limb read before stored",
            "mov (%rdi), %rax\nmov %rax, 8(%rdi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 2, "ZF undefined after mul",
            "mov (%rsi), %rax\nmulq (%rdx)\ncmovz %rdx, %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 1, "CF never set", "mov (%rsi), %rax\nadc %rax, %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 0, "output from an entry register", "mov %r11, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 2, "OF undefined after shl $2",
            "mov (%rsi), %rax\nshl $2, %rax\nseto %al\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 2, "a condition on an entry register",
            "mov (%rsi), %rax\ncmp %r11, %rax\ncmovb %rax, %rcx\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 2, "an 8-bit write keeps unknown upper bits",
            "mov (%rsi), %rcx\nmov %cl, %al\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 3, "the upper bits of a pointer after an 8-bit write",
            "mov (%rdx), %rax\ncmp 8(%rdx), %rax\nsetb %sil\nmov %rsi, (%rdi)\nret\n");
    add_bad(CHECK_RULE_DATA_ADDRESS, 2, "a pointer with an 8-bit write used as an address",
            "mov (%rdx), %rax\nmov %al, %sil\nmov (%rsi), %rax\nret\n");
    add_bad(CHECK_RULE_CALLEE_SAVED, 2, "rbx clobbered", "mov (%rsi), %rbx\nmov %rbx, (%rdi)\nret\n");
    add_bad(CHECK_RULE_CALLEE_SAVED, 4, "r15 restored to another value",
            "push %r15\npush %r14\npop %r15\npop %r14\nret\n");
    add_bad(CHECK_RULE_STACK_UNBALANCED, 1, "push without pop", "push %rax\nret\n");
    add_bad(CHECK_RULE_STACK_UNBALANCED, 1, "sub rsp without add", "sub $8, %rsp\nret\n");
    add_bad(CHECK_RULE_UNSUPPORTED, 1, "one-operand imul", "mov (%rsi), %rax\nimulq 8(%rsi)\nret\n");
    add_bad(CHECK_RULE_UNSUPPORTED, 2, "shift by a data count",
            "mov (%rsi), %rax\nmov 8(%rsi), %rcx\nshl %cl, %rax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNSUPPORTED, 0, "partial-limb load", "mov 4(%rsi), %eax\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNKNOWN_VALUE, 2, "ZF of imul read (undefined)",
            "mov (%rsi), %rax\nimul 8(%rsi), %rax\nsetz %al\nmov %rax, (%rdi)\nret\n");
    add_bad(CHECK_RULE_UNSUPPORTED, 0, "pointer arithmetic other than a constant", "and $-16, %rsp\nret\n");
}

/* ---- running them ------------------------------------------------------------------------------------------------ */

static ir_func *make_func(unsigned nin, unsigned inlen, uint64_t alias)
{
    ir_func *f = ir_func_new("t");
    if (!f)
        return NULL;
    if (ir_array_add(f, "out1", true, OUTLEN, NULL, NULL) < 0) {
        ir_func_free(f);
        return NULL;
    }
    f->arr[0].alias = alias;
    for (unsigned i = 0; i < nin; i++) {
        char name[16];
        snprintf(name, sizeof name, "arg%u", i + 1);
        if (ir_array_add(f, name, false, inlen, NULL, NULL) < 0) {
            ir_func_free(f);
            return NULL;
        }
    }
    return f;
}

static void call_native(cc_fn fn, unsigned n, void *const *a)
{
    typedef uint64_t *P;
    if (n == 9) {
        ((void (*)(P, P, P, P, P, P, P, P, P))fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
        return;
    }
    cc_call_arrays(fn, n, a);
}

static unsigned nsamples = 3000;
static unsigned nfuzz = 600;
static unsigned nskipped;

/* has_bmi2_adx — CPUID leaf 7: BMI1 (ebx bit 3: andn), BMI2 (ebx bit 8: mulx shlx shrx bzhi) and ADX (ebx bit 19:
 * adcx adox) */
static bool has_bmi2_adx(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return false;
    return (b >> 3 & 1) && (b >> 8 & 1) && (b >> 19 & 1);
}

static bool uses_bmi2_adx(const char *body)
{
    static const char *const m[] = { "mulx", "shlx", "shrx", "bzhi", "adcx", "adox", "andn" };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (strstr(body, m[i]))
            return true;
    return false;
}

static void run_case(const tcase *t, const char *so, void *h)
{
    char err[512];
    check_code code;
    check_insn_list l;
    if (check_code_read(so, t->sym, &code, err, sizeof err) != 0) {
        FAIL("%s (%s): %s", t->sym, t->desc, err);
        return;
    }
    if (check_decode_code(&code, &l, err, sizeof err) != 0) {
        FAIL("%s (%s): %s", t->sym, t->desc, err);
        check_code_free(&code);
        return;
    }
    if (t->force_andn)
        for (size_t i = 0; i < l.n; i++)
            if (l.insns[i].mnemonic == ZYDIS_MNEMONIC_ANDN)
                l.insns[i].cls = CHECK_INSN_SUPPORTED;
    ir_func *f = make_func(t->nin, t->inlen, t->alias);
    ex_ctx *x = ex_ctx_new();
    if (!f || !x) {
        FAIL("out of memory");
        exit(1);
    }
    uint32_t argmap[16];
    for (unsigned k = 0; k <= t->nin; k++)
        argmap[k] = k;
    ex_id outx[OUTLEN];
    ex_id *out[16] = { outx };
    check_result r;
    memset(&r, 0, sizeof r);
    int32_t same_as[16];
    for (unsigned k = 0; k < 16; k++)
        same_as[k] = -1;
    same_as[0] = t->same_as ? (int32_t)t->same_as : -1;
    if (t->both)
        same_as[2] = 1;
    int rc = check_exec_case(x, f, argmap, &l, t->no_red_zone, same_as, out, &r);
    if (t->rule != CHECK_RULE_NONE) {
        const check_insn *want = t->at >= 0 && (size_t)t->at < l.n ? &l.insns[t->at] : NULL;
        char addr[40];
        snprintf(addr, sizeof addr, " at 0x%llx: ", want ? (unsigned long long)want->addr : 0ull);
        if (rc != 1 || r.verdict != CHECK_REJECTED || (int)r.rule != t->rule)
            FAIL("%s (%s): expected rule %s, got rc %d rule %s: %s", t->sym, t->desc, check_rule_name(t->rule), rc,
                 check_rule_name(r.rule), r.reason);
        else if (!want || !strstr(r.reason, addr) || !r.has_addr || r.addr != want->addr || strchr(r.reason, '\n'))
            FAIL("%s (%s): the reason does not name instruction %d%s: %s", t->sym, t->desc, t->at, addr, r.reason);
        goto done;
    }
    if (rc != 0 && t->fuzz && r.rule == CHECK_RULE_UNKNOWN_VALUE && strstr(r.reason, "read of undefined flag")) {
        nfuzz_undef++;
        goto done;
    }
    if (rc != 0) {
        FAIL("%s (%s): rejected: %s", t->sym, t->desc, r.reason);
        goto done;
    }
    if (uses_bmi2_adx(t->body) && !has_bmi2_adx()) {
        nskipped++; /* executed symbolically above, but this CPU cannot run it */
        goto done;
    }
    void *fn = (void *)cc_dlsym(h, t->sym, err, sizeof err);
    if (!fn) {
        FAIL("%s: %s", t->sym, err);
        goto done;
    }
    uint64_t in[9][8], o[OUTLEN], o0[OUTLEN]; /* inlen <= 8 */
    const uint64_t *inp[10];
    void *args[10];
    inp[0] = o;
    args[0] = o;
    for (unsigned k = 0; k < t->nin; k++) {
        inp[k + 1] = in[k];
        args[k + 1] = in[k];
    }
    if (t->same_as) /* one buffer: out1 starts as the input's limbs; the expressions are over the original values */
        args[t->same_as] = o;
    if (t->both)
        args[2] = o;
    uint32_t cnt = ex_count(x);
    ir_u128 *vals = malloc((cnt + 1) * sizeof *vals);
    if (!vals) {
        FAIL("out of memory");
        exit(1);
    }
    unsigned bad = 0;
    for (unsigned s = 0; s < nsamples && bad < 3; s++) {
        for (unsigned k = 0; k < t->nin; k++)
            for (unsigned i = 0; i < t->inlen; i++)
                in[k][i] = word();
        if (t->both)
            memcpy(in[1], in[0], sizeof in[0]);
        for (unsigned i = 0; i < OUTLEN; i++)
            o[i] = t->same_as && i < t->inlen ? in[t->same_as - 1][i] : POISON;
        memcpy(o0, o, sizeof o);
        call_native((cc_fn)fn, t->nin + 1, args);
        if (ex_eval_all(x, inp, vals) != 0) {
            FAIL("ex_eval_all: out of memory");
            break;
        }
        for (unsigned i = 0; i < OUTLEN; i++) {
            uint64_t want = o[i];
            if (!outx[i]) {
                if (want != o0[i]) {
                    FAIL("%s (%s): out[%u] stored by the CPU, not by the executor", t->sym, t->desc, i);
                    bad = 3;
                }
                continue;
            }
            ir_u128 got = vals[outx[i]];
            if (got != (ir_u128)want) {
                char e[256];
                ex_print(x, outx[i], e, sizeof e);
                FAIL("%s (%s): out[%u] = %016llx, expression %s evaluates to %016llx%016llx; inputs %016llx %016llx "
                     "%016llx / %016llx %016llx",
                     t->sym, t->desc, i, (unsigned long long)want, e, (unsigned long long)(uint64_t)(got >> 64),
                     (unsigned long long)(uint64_t)got, (unsigned long long)in[0][0],
                     (unsigned long long)in[0][1], (unsigned long long)in[0][2 % t->inlen],
                     (unsigned long long)in[1][0], (unsigned long long)in[1][1 % t->inlen]);
                bad++;
            }
        }
    }
    free(vals);
    ncompared++;
done:
    ex_ctx_free(x);
    ir_func_free(f);
    check_insn_list_free(&l);
    check_code_free(&code);
}

/* bad_requests — malformed calls are BAD_INPUT with a one-line reason, never a crash */
static void bad_requests(void)
{
    ir_func *f = make_func(2, INLEN, 0);
    ex_ctx *x = ex_ctx_new();
    if (!f || !x) {
        FAIL("out of memory");
        exit(1);
    }
    static const uint8_t code[] = { 0xc3 }; /* ret */
    check_insn_list l;
    char err[256];
    if (check_decode(code, sizeof code, 0, &l, err, sizeof err) != 0) {
        FAIL("decode ret: %s", err);
        exit(1);
    }
    ex_id outx[OUTLEN];
    ex_id *out[16] = { outx };
    uint32_t good[3] = { 0, 1, 2 }, outside[3] = { 0, 1, 7 }, twice[3] = { 0, 1, 1 };
    struct {
        const char *what;
        ex_ctx *x;
        const uint32_t *argmap;
        ex_id *const *out;
    } req[] = {
        { "no context", NULL, good, out },
        { "no argmap", x, NULL, out },
        { "argmap outside", x, outside, out },
        { "array passed twice", x, twice, out },
        { "no out", x, good, NULL },
    };
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        check_result r;
        memset(&r, 0, sizeof r);
        int rc = check_exec(req[i].x, f, req[i].argmap, &l, false, req[i].out, &r);
        if (rc != -1 || r.verdict != CHECK_BAD_INPUT || !r.reason[0] || strchr(r.reason, '\n'))
            FAIL("bad request (%s): rc %d verdict %d reason \"%s\"", req[i].what, rc, (int)r.verdict, r.reason);
    }
    ex_id *none[16] = { NULL };
    check_result r;
    memset(&r, 0, sizeof r);
    if (check_exec(x, f, good, &l, false, none, &r) != -1 || r.verdict != CHECK_BAD_INPUT)
        FAIL("bad request (no out[] for the output array) accepted");
    /* a function that only returns: accepted, nothing stored */
    memset(&r, 0, sizeof r);
    if (check_exec(x, f, good, &l, false, out, &r) != 0 || r.ninsns != 1 || outx[0] != 0)
        FAIL("`ret` alone: rc/ninsns/out wrong: %s", r.reason);
    /* an empty list: no ret */
    check_insn_list empty = { NULL, 0 };
    memset(&r, 0, sizeof r);
    if (check_exec(x, f, good, &empty, false, out, &r) != 1 || r.rule != CHECK_RULE_BRANCH)
        FAIL("empty code: expected branch (no ret), got %s: %s", check_rule_name(r.rule), r.reason);
    check_insn_list_free(&l);
    ex_ctx_free(x);
    ir_func_free(f);
}

/* build — all cases into one shared object (top-level asm in a C file) */
static int build(const char *dir, char *so, size_t solen)
{
    size_t cap = 1 << 16, n = 0;
    char *src = malloc(cap);
    if (!src)
        return -1;
    n += (size_t)snprintf(src, cap, "__asm__(\".text\\n\"\n");
    for (unsigned i = 0; i < ncases; i++) {
        const tcase *t = &cases[i];
        size_t need = 4 * strlen(t->body) + 512;
        if (n + need >= cap) {
            while (n + need >= cap)
                cap *= 2;
            char *p = realloc(src, cap);
            if (!p) {
                free(src);
                return -1;
            }
            src = p;
        }
        n += (size_t)snprintf(src + n, cap - n, "\".p2align 4\\n.globl %s\\n.type %s, @function\\n%s:\\n\"\n", t->sym,
                              t->sym, t->sym);
        const char *b = t->body;
        while (*b) {
            const char *e = strchr(b, '\n');
            size_t len = e ? (size_t)(e - b) : strlen(b);
            n += (size_t)snprintf(src + n, cap - n, "\"%.*s\\n\"\n", (int)len, b);
            b += len + (e ? 1 : 0);
        }
        n += (size_t)snprintf(src + n, cap - n, "\".size %s, .-%s\\n\"\n", t->sym, t->sym);
    }
    snprintf(src + n, cap - n, ");\n");
    char err[4096];
    int rc = cc_build_so("cc", "-O2", src, dir, "exec_cases", so, solen, err, sizeof err);
    if (rc != 0)
        FAIL("the cases do not assemble: %s", err);
    free(src);
    return rc;
}

/* ---- compiled fiat code ------------------------------------------------------------------------------------------ */

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long sz = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *b = sz >= 0 ? malloc((size_t)sz + 1) : NULL;
    if (b && fread(b, 1, (size_t)sz, fp) != (size_t)sz) {
        free(b);
        b = NULL;
    }
    fclose(fp);
    if (b) {
        b[sz] = '\0';
        *len = (size_t)sz;
    }
    return b;
}

static uint64_t in_bounds(ir_u128 lo, ir_u128 hi)
{
    uint64_t l = (uint64_t)lo, h = hi > UINT64_MAX ? UINT64_MAX : (uint64_t)hi;
    switch (rng() % 8) {
    case 0: return l;
    case 1: return h;
    default: break;
    }
    uint64_t span = h - l;
    uint64_t v = word();
    return span == UINT64_MAX ? v : l + v % (span + 1);
}

static void corpus_one(const ir_func *f, const char *cc, const char *opt, const char *dir)
{
    char err[4096], so[1024], stem[160], label[200];
    snprintf(stem, sizeof stem, "%s_%s", f->name, cc);
    snprintf(label, sizeof label, "%s (%s %s)", f->name, cc, opt);
    char *src = emit_c(f, NULL, err, sizeof err);
    if (!src) {
        FAIL("%s: emit_c: %s", label, err);
        return;
    }
    int rc = cc_build_so(cc, opt, src, dir, stem, so, sizeof so, err, sizeof err);
    free(src);
    if (rc != 0) {
        FAIL("%s: does not compile: %s", label, err);
        return;
    }
    check_code code;
    check_insn_list l;
    if (check_code_read(so, f->name, &code, err, sizeof err) != 0) {
        FAIL("%s: %s", label, err);
        return;
    }
    if (check_decode_code(&code, &l, err, sizeof err) != 0) {
        FAIL("%s: %s", label, err);
        check_code_free(&code);
        return;
    }
    uint32_t argmap[16], k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output == (pass == 0))
                argmap[k++] = j;
    ex_ctx *x = ex_ctx_new();
    ex_id *outs[16] = { 0 };
    uint64_t *bufs[16] = { 0 };
    const uint64_t *inp[16] = { 0 };
    void *args[16];
    for (uint32_t j = 0; j < f->narr; j++) {
        outs[j] = calloc(f->arr[j].len, sizeof **outs);
        bufs[j] = calloc(f->arr[j].len, sizeof **bufs);
        inp[j] = bufs[j];
        if (!outs[j] || !bufs[j] || !x) {
            FAIL("out of memory");
            exit(1);
        }
    }
    for (uint32_t i = 0; i < f->narr; i++)
        args[i] = bufs[argmap[i]];
    check_result r;
    memset(&r, 0, sizeof r);
    double t0 = (double)clock();
    rc = check_exec(x, f, argmap, &l, false, outs, &r);
    double secs = ((double)clock() - t0) / CLOCKS_PER_SEC;
    if (rc != 0) {
        FAIL("%s: %s: %s", label, check_rule_name(r.rule), r.reason);
    } else {
        void *h = cc_dlopen(so, err, sizeof err);
        cc_fn fn = h ? cc_dlsym(h, f->name, err, sizeof err) : NULL;
        if (!fn) {
            FAIL("%s: %s", label, err);
        } else {
            ir_u128 *vals = malloc((ex_count(x) + 1) * sizeof *vals);
            unsigned bad = 0;
            for (unsigned s = 0; vals && s < 500 && bad < 3; s++) {
                for (uint32_t j = 0; j < f->narr; j++)
                    for (uint32_t i = 0; i < f->arr[j].len; i++)
                        bufs[j][i] = f->arr[j].is_output ? POISON : in_bounds(f->arr[j].lo[i], f->arr[j].hi[i]);
                cc_call_arrays(fn, f->narr, args);
                if (ex_eval_all(x, inp, vals) != 0)
                    break;
                for (uint32_t j = 0; j < f->narr; j++)
                    if (f->arr[j].is_output)
                        for (uint32_t i = 0; i < f->arr[j].len; i++)
                            if (!outs[j][i] || vals[outs[j][i]] != (ir_u128)bufs[j][i]) {
                                FAIL("%s: %s[%u] differs from the native result (%s)", label, f->arr[j].name, i,
                                     outs[j][i] ? "value" : "never stored");
                                bad++;
                            }
            }
            free(vals);
            /* information for check.c: how many limbs already meet the IR's expression by id */
            ex_id *irout[16] = { 0 };
            unsigned same = 0, total = 0;
            bool ok = true;
            for (uint32_t j = 0; j < f->narr && ok; j++)
                if (f->arr[j].is_output && !(irout[j] = calloc(f->arr[j].len, sizeof **irout)))
                    ok = false;
            if (ok && ir_sym_run(x, f, irout, err, sizeof err) == 0)
                for (uint32_t j = 0; j < f->narr; j++)
                    if (f->arr[j].is_output)
                        for (uint32_t i = 0; i < f->arr[j].len; i++) {
                            total++;
                            same += irout[j][i] == outs[j][i];
                            if (irout[j][i] != outs[j][i] && getenv("EXEC_DEBUG")) {
                                static char e1[8192], e2[8192];
                                ex_print(x, outs[j][i], e1, sizeof e1);
                                ex_print(x, irout[j][i], e2, sizeof e2);
                                printf("  %s[%u] code: %s\n  %s[%u] IR:   %s\n", f->arr[j].name, i, e1,
                                       f->arr[j].name, i, e2);
                            }
                        }
            for (uint32_t j = 0; j < f->narr; j++)
                free(irout[j]);
            printf("corpus %-34s %-5s %-38s %5zu insns, %6u nodes, %.3f s, %u/%u limbs identical to the IR's\n",
                   f->name, cc, opt, r.ninsns, ex_count(x), secs, same, total);
        }
        if (h)
            cc_dlclose(h);
    }
    for (uint32_t j = 0; j < f->narr; j++) {
        free(outs[j]);
        free(bufs[j]);
    }
    ex_ctx_free(x);
    check_insn_list_free(&l);
    check_code_free(&code);
}

static void corpus(const char *fiatdir, const char *dir)
{
    static const char *const files[5] = { "curve25519_64", "curve25519_solinas_64", "p256_64",
                                          "secp256k1_montgomery_64", "poly1305_64" };
    static const char *const fns[5][2] = {
        { "fiat_25519_carry_mul", "fiat_25519_carry_square" },
        { "fiat_curve25519_solinas_mul", "fiat_curve25519_solinas_square" },
        { "fiat_p256_mul", "fiat_p256_square" },
        { "fiat_secp256k1_montgomery_mul", "fiat_secp256k1_montgomery_square" },
        { "fiat_poly1305_carry_mul", "fiat_poly1305_carry_square" },
    };
    static const char *const compilers[2] = { "gcc", "clang" };
    /* the corpus options of test_check_decode.c, then BMI2/ADX code (mulx, adcx/adox, shlx, vmovq spills) and -O3 */
    static const char *const copts[2][3] = {
        { "-O2 -fno-tree-vectorize", "-O2 -mbmi2 -madx -fno-tree-vectorize", "-O3 -fno-tree-vectorize" },
        { "-O2 -fno-vectorize -fno-slp-vectorize", "-O2 -mbmi2 -madx -fno-vectorize -fno-slp-vectorize",
          "-O3 -fno-vectorize -fno-slp-vectorize" },
    };
    for (int fi = 0; fi < 5; fi++) {
        char path[1024], err[1024];
        snprintf(path, sizeof path, "%s/%s.json", fiatdir, files[fi]);
        size_t len;
        char *json = slurp(path, &len);
        if (!json) {
            FAIL("%s: cannot read", path);
            continue;
        }
        for (int k = 0; k < 2; k++) {
            ir_func *f = ir_fiat_load(json, len, path, fns[fi][k], err, sizeof err);
            if (!f) {
                FAIL("%s: %s", fns[fi][k], err);
                continue;
            }
            for (int c = 0; c < 2; c++)
                for (int o = 0; o < 3; o++)
                    if (cc_available(compilers[c]) && (o != 1 || has_bmi2_adx()))
                        corpus_one(f, compilers[c], copts[c][o], dir);
            ir_func_free(f);
        }
        free(json);
    }
}

/* wide — every curve of the folder, every array operation ir_fiat_load takes, gcc and clang at -O2 */
static void corpus_wide(const char *fiatdir, const char *dir)
{
    static const char *const files[] = { "curve25519_64",  "curve25519_solinas_64", "curve25519_scalar_64",
                                         "p224_64",        "p256_64",               "p256_scalar_64",
                                         "p384_64",        "p434_64",               "p448_solinas_64",
                                         "p521_64",        "poly1305_64",           "secp256k1_dettman_64",
                                         "secp256k1_montgomery_64" };
    static const char *const prefixes[] = { "25519", "curve25519_solinas", "25519_scalar", "p224", "p256",
                                            "p256_scalar", "p384", "p434", "p448", "p521", "poly1305",
                                            "secp256k1_dettman", "secp256k1_montgomery" };
    /* the operations ir_fiat_load reads (selectznz takes a scalar condition, relax only restates bounds) */
    static const char *const ops[] = { "mul", "square", "carry_mul", "carry_square", "add", "sub", "opp",
                                       "carry_add", "carry_sub", "carry_opp", "carry", "from_montgomery",
                                       "to_montgomery" };
    static const char *const compilers[2] = { "gcc", "clang" };
    static const char *const copts[2] = { "-O2 -fno-tree-vectorize", "-O2 -fno-vectorize -fno-slp-vectorize" };
    unsigned nf = 0;
    for (size_t fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
        char path[1024], err[1024], name[128];
        snprintf(path, sizeof path, "%s/%s.json", fiatdir, files[fi]);
        size_t len;
        char *json = slurp(path, &len);
        if (!json) {
            FAIL("%s: cannot read", path);
            continue;
        }
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            snprintf(name, sizeof name, "fiat_%s_%s", prefixes[fi], ops[k]);
            char quoted[140];
            snprintf(quoted, sizeof quoted, "\"%s\"", name);
            if (!strstr(json, quoted))
                continue;
            ir_func *f = ir_fiat_load(json, len, path, name, err, sizeof err);
            if (!f) {
                printf("wide: %s not loaded: %s\n", name, err);
                continue;
            }
            nf++;
            for (int c = 0; c < 2; c++)
                if (cc_available(compilers[c]))
                    corpus_one(f, compilers[c], copts[c], dir);
            ir_func_free(f);
        }
        free(json);
    }
    printf("wide: %u functions\n", nf);
}

int main(int argc, char **argv)
{
    const char *fiat = NULL;
    int keep = 0, wide = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fiat") && i + 1 < argc)
            fiat = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            rng_state = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--fuzz") && i + 1 < argc)
            nfuzz = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
            nsamples = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--keep"))
            keep = 1;
        else if (!strcmp(argv[i], "--wide"))
            wide = 1;
        else {
            fprintf(stderr,
                    "usage: test_check_exec [--fiat DIR [--wide]] [--fuzz N] [--seed N] [--samples N] [--keep]\n");
            return 2;
        }
    }
    if (!cc_available("cc")) {
        printf("SKIP: no cc\n");
        return 77;
    }
    char dir[512], err[512], so[1024];
    if (cc_tmpdir(dir, sizeof dir, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (fiat && wide) {
        corpus_wide(fiat, dir);
    } else if (fiat) {
        corpus(fiat, dir);
    } else {
        bad_requests();
        static void (*const gens[7])(void) = { gen_alu,  gen_shift,  gen_mul,   gen_moves,
                                               gen_cond, gen_chains, gen_incdec };
        static const char *const gnames[7] = {
            "add/sub/adc/sbb/and/or/xor/cmp/test", "shifts, shld/shrd, shlx/shrx, bzhi", "mul, imul, mulx, neg, not",
            "moves, extensions, lea, xchg, stack, xmm", "cmovcc, setcc",
            "carry chains, adcx/adox, stack arguments, alias",
            "inc, dec, test/cmp of a pointer, aliasing cases (one buffer)"
        };
        for (int g = 0; g < 7; g++) {
            unsigned before = ncases;
            gens[g]();
            printf("%4u cases: %s\n", ncases - before, gnames[g]);
        }
        gen_fuzz(nfuzz, 40);
        unsigned ngood = ncases;
        gen_bad();
        if (build(dir, so, sizeof so) == 0) {
            void *h = cc_dlopen(so, err, sizeof err);
            if (!h) {
                FAIL("%s", err);
            } else {
                for (unsigned i = 0; i < ncases; i++)
                    run_case(&cases[i], so, h);
                cc_dlclose(h);
            }
        }
        printf("%u semantic cases compared with the CPU (%u samples each), %u rule cases", ncompared, nsamples,
               ncases - ngood);
        if (nskipped)
            printf(", %u cases not run (this CPU has no BMI2/ADX)", nskipped);
        printf("\nof them %u random programs, and %u more that read an undefined flag (rejected, as they must be)\n",
               nfuzz - nfuzz_undef, nfuzz_undef);
        for (unsigned i = 0; i < ncases; i++)
            free(cases[i].body);
        free(cases);
    }
    if (keep)
        printf("kept %s\n", dir);
    else
        cc_rmtree(dir);
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
