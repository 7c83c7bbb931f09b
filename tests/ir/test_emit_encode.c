/* test_emit_encode.c — emit/encode.c: the bytes encode_asm_text produces are EXACTLY the bytes the system assembler
 * (`cc -c`) produces for the same text (the measured code must be the code written out), and they run.
 *
 *  1. Instruction forms: every mnemonic and operand shape emit_asm writes (and those being added: bzhi shlx shrx
 *     sarx, movq gpr<->xmm, 3-operand imul, shld/shrd, cmov<cc>/set<cc> for every condition name, push/pop, ...)
 *     with every register, every base register (rsp/r12 need a SIB byte, rbp/r13 a displacement), index and scale,
 *     displacements 0 / 8-bit / 32-bit at their edges and immediates at the imm8/imm32 edges. All lines go into
 *     one function, assembled once; gas's bytes are split into instructions with Zydis' decoder and each line's
 *     encoding is compared with its instruction. Lines that must be refused are refused.
 *  2. emit_asm's output for the programs of emit_progs.c and fiat-crypto's multiplies and squares (--fiat DIR):
 *     the default emission, random decisions, and random topological node orders (loads and stores in order) with
 *     random decisions; all assembled in one file, each function's bytes (check/elf.h) compared with
 *     encode_asm_text's.
 *  3. A few encoded functions copied into executable memory (encode_exec_map) and run against ir_eval on edge and
 *     random inputs (when the CPU has BMI2 and ADX).
 * Any mismatch prints the line and both byte strings. Also prints how long encode_asm_text takes on p256's mul.
 *
 * Usage: test_emit_encode [--seed N] [--fiat DIR] [--keep]
 * Exit 0 pass, 1 fail, 2 usage, 77 skip (no cc). */
#define _GNU_SOURCE
#include <Zydis/Zydis.h>
#include <cpuid.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cc_util.h"
#include "check/elf.h"
#include "emit/emit_asm.h"
#include "emit/encode.h"
#include "emit_progs.h"
#include "ir/ir.h"

static int failures;
#define FAIL(...)                                                                                                    \
    do {                                                                                                             \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                       \
        fprintf(stderr, "\n");                                                                                       \
        failures++;                                                                                                  \
    } while (0)

static uint64_t seed = 1;
static char dir[512];

/* ---- growable text and line lists -------------------------------------------------------------------------- */

typedef struct {
    char *s;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            fprintf(stderr, "formatting failed\n");
            exit(1);
        }
        if (b->s && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        size_t nc = 2 * b->cap + (size_t)k + 4096;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        b->s = ns;
        b->cap = nc;
    }
}

typedef struct {
    char **v;
    size_t n, cap;
} lines;

static void ln_add(lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ln_add(lines *l, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (l->n == l->cap) {
        l->cap = 2 * l->cap + 1024;
        char **nv = realloc(l->v, l->cap * sizeof *nv);
        if (!nv) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        l->v = nv;
    }
    l->v[l->n] = strdup(buf);
    if (!l->v[l->n]) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    l->n++;
}

static void ln_free(lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static void hex(char *out, size_t outlen, const uint8_t *b, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    for (size_t i = 0; i < n && k + 4 < outlen; i++)
        k += (size_t)snprintf(out + k, outlen - k, "%s%02x", i ? " " : "", b[i]);
}

static int write_file(const char *path, const char *s, size_t n)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    size_t w = fwrite(s, 1, n, fp);
    return fclose(fp) == 0 && w == n ? 0 : -1;
}

/* ---- 1. instruction forms ---------------------------------------------------------------------------------- */

static const char *const R64[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                     "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15" };
static const char *const R32[16] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
                                     "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d" };
static const char *const R8[16] = { "al",  "cl",  "dl",   "bl",   "spl",  "bpl",  "sil",  "dil",
                                    "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b" };
static const char *const CCS[] = { "o", "no", "b",  "c",  "nae", "ae", "nb", "nc", "e",  "z", "ne",
                                   "nz", "be", "na", "a", "nbe", "s", "ns", "p", "pe", "np", "po",
                                   "l", "nge", "ge", "nl", "le", "ng", "g", "nle" };
#define NCCS (sizeof CCS / sizeof CCS[0])
/* displacements: none, 8-bit edges, 32-bit edges */
static const char *const DISPS[] = { "", "0", "8", "-8", "127", "-128", "128", "-129", "0x7fffffff", "-2147483648",
                                     "4096", "0x10" };
#define NDISPS (sizeof DISPS / sizeof DISPS[0])
/* immediates at the imm8 / imm32 edges (valid sign-extended 32-bit values for a 64-bit operation) */
static const char *const IMMS[] = { "0", "1", "-1", "2", "127", "-128", "128", "-129", "255", "256", "0x7f", "0x80",
                                    "0x7fffffff", "-2147483648", "-2147483647", "19", "38", "0xffff" };
#define NIMMS (sizeof IMMS / sizeof IMMS[0])
/* and for a 32-bit operation, also the unsigned 32-bit ones */
static const char *const IMMS32[] = { "0xffffffff", "4294967295", "0x80000000", "0xffffff80", "0xffffff7f" };
#define NIMMS32 (sizeof IMMS32 / sizeof IMMS32[0])

/* memory operands: every base with every displacement; base + index * scale for every pair (index != rsp); no
 * base; a few with displacements */
static void mems_full(lines *m)
{
    for (int b = 0; b < 16; b++)
        for (size_t d = 0; d < NDISPS; d++)
            ln_add(m, "%s(%%%s)", DISPS[d], R64[b]);
    for (int b = 0; b < 16; b++)
        for (int i = 0; i < 16; i++)
            if (i != 4)
                for (int s = 1; s <= 8; s *= 2)
                    ln_add(m, "%s(%%%s,%%%s,%d)", (b + i + s) % 3 == 0 ? "8" : (b + i + s) % 3 == 1 ? "" : "-300",
                           R64[b], R64[i], s);
    for (int b = 0; b < 16; b++)
        for (int i = 0; i < 16; i++)
            if (i != 4)
                ln_add(m, "(%%%s,%%%s)", R64[b], R64[i]);
    for (int i = 0; i < 16; i++)
        if (i != 4)
            for (int s = 1; s <= 8; s *= 2)
                ln_add(m, "%s(,%%%s,%d)", i & 1 ? "16" : "", R64[i], s);
}

static void mems_small(lines *m)
{
    for (int b = 0; b < 16; b++) {
        ln_add(m, "(%%%s)", R64[b]);
        ln_add(m, "0(%%%s)", R64[b]);
        ln_add(m, "%d(%%%s)", 8 * b + 8, R64[b]);
        ln_add(m, "-129(%%%s)", R64[b]);
        ln_add(m, "0x1000(%%%s)", R64[b]);
        ln_add(m, "(%%%s,%%%s,8)", R64[b], R64[(b + 3) % 16 == 4 ? 12 : (b + 3) % 16]);
    }
}

static void gen_forms(lines *L)
{
    lines mf = { 0 }, ms = { 0 };
    mems_full(&mf);
    mems_small(&ms);
    static const char *const ALU[] = { "add", "adc", "sub", "sbb", "and", "or", "xor", "mov" };
    for (size_t a = 0; a < sizeof ALU / sizeof ALU[0]; a++) {
        for (int s = 0; s < 16; s++)
            for (int d = 0; d < 16; d++) {
                ln_add(L, "%sq %%%s, %%%s", ALU[a], R64[s], R64[d]);
                if ((s + d) % 3 == 0 || a >= 4)
                    ln_add(L, "%sl %%%s, %%%s", ALU[a], R32[s], R32[d]);
            }
        for (int d = 0; d < 16; d++) {
            for (size_t i = 0; i < NIMMS; i++) {
                ln_add(L, "%sq $%s, %%%s", ALU[a], IMMS[i], R64[d]);
                ln_add(L, "%sl $%s, %%%s", ALU[a], IMMS[i], R32[d]);
            }
            for (size_t i = 0; i < NIMMS32; i++)
                ln_add(L, "%sl $%s, %%%s", ALU[a], IMMS32[i], R32[d]);
        }
        lines *mm = a == 7 ? &mf : &ms; /* movq loads and stores: every address form */
        for (size_t k = 0; k < mm->n; k++) {
            ln_add(L, "%sq %s, %%%s", ALU[a], mm->v[k], R64[k % 16]);
            ln_add(L, "%sq %%%s, %s", ALU[a], R64[(k * 7 + 3) % 16], mm->v[k]);
            if (k % 4 == 0)
                ln_add(L, "%sq $%s, %s", ALU[a], IMMS[k % NIMMS], mm->v[k]);
        }
        /* without a suffix (register operands give the size) */
        ln_add(L, "%s %%rax, %%r9", ALU[a]);
        ln_add(L, "%s %%r10d, %%eax", ALU[a]);
    }
    for (int d = 0; d < 16; d++) {
        static const char *const BIG[] = { "0", "1", "-1", "0x7fffffff", "0x80000000", "0xffffffff",
                                           "0x123456789abcdef0", "0x7fffffffffffffff", "0x8000000000000000",
                                           "0xffffffffffffffff", "-9223372036854775808", "18446744073709551615" };
        for (size_t i = 0; i < sizeof BIG / sizeof BIG[0]; i++)
            ln_add(L, "movabsq $%s, %%%s", BIG[i], R64[d]);
        ln_add(L, "movl $4294967295, %%%s", R32[d]);
        ln_add(L, "movl $2147483648, %%%s", R32[d]);
    }
    /* test */
    for (int s = 0; s < 16; s++)
        for (int d = 0; d < 16; d++)
            ln_add(L, "testq %%%s, %%%s", R64[s], R64[d]);
    for (size_t k = 0; k < ms.n; k++)
        ln_add(L, "testq %%%s, %s", R64[k % 16], ms.v[k]);
    for (int d = 0; d < 16; d++)
        for (size_t i = 0; i < NIMMS; i += 3)
            ln_add(L, "testq $%s, %%%s", IMMS[i], R64[d]);
    /* neg not */
    for (int d = 0; d < 16; d++) {
        ln_add(L, "negq %%%s", R64[d]);
        ln_add(L, "notq %%%s", R64[d]);
        ln_add(L, "negl %%%s", R32[d]);
        ln_add(L, "notl %%%s", R32[d]);
    }
    for (size_t k = 0; k < ms.n; k += 5) {
        ln_add(L, "negq %s", ms.v[k]);
        ln_add(L, "notq %s", ms.v[k]);
    }
    /* mul: one operand, rax and rdx implicit (the x86-64 target's products) */
    for (int d = 0; d < 16; d++)
        ln_add(L, "mulq %%%s", R64[d]);
    for (size_t k = 0; k < ms.n; k += 3)
        ln_add(L, "mulq %s", ms.v[k]);
    /* shifts */
    static const char *const SH[] = { "shl", "shr", "sar" };
    static const char *const CNT[] = { "1", "0", "2", "31", "32", "63", "64", "255" };
    for (int sh = 0; sh < 3; sh++)
        for (int d = 0; d < 16; d++) {
            for (size_t i = 0; i < sizeof CNT / sizeof CNT[0]; i++) {
                ln_add(L, "%sq $%s, %%%s", SH[sh], CNT[i], R64[d]);
                ln_add(L, "%sl $%s, %%%s", SH[sh], CNT[i], R32[d]);
            }
            ln_add(L, "%sq %%cl, %%%s", SH[sh], R64[d]);
            ln_add(L, "%sq $1, %s", SH[sh], ms.v[(size_t)d * 5 % ms.n]);
            ln_add(L, "%sq $7, %s", SH[sh], ms.v[(size_t)d * 3 % ms.n]);
        }
    static const char *const SHD[] = { "shld", "shrd" };
    for (int sh = 0; sh < 2; sh++)
        for (int s = 0; s < 16; s++)
            for (int d = 0; d < 16; d++) {
                ln_add(L, "%sq $%s, %%%s, %%%s", SHD[sh], CNT[(s + d) % 8], R64[s], R64[d]);
                if (s % 5 == 0)
                    ln_add(L, "%sq %%cl, %%%s, %%%s", SHD[sh], R64[s], R64[d]);
                if (d == 3)
                    ln_add(L, "%sq $13, %%%s, %s", SHD[sh], R64[s], ms.v[(size_t)s * 5 % ms.n]);
            }
    /* imul: 2 and 3 operands */
    for (int s = 0; s < 16; s++)
        for (int d = 0; d < 16; d++) {
            ln_add(L, "imulq %%%s, %%%s", R64[s], R64[d]);
            ln_add(L, "imulq $%s, %%%s, %%%s", IMMS[(s * 16 + d) % NIMMS], R64[s], R64[d]);
        }
    for (size_t k = 0; k < ms.n; k++) {
        ln_add(L, "imulq %s, %%%s", ms.v[k], R64[k % 16]);
        ln_add(L, "imulq $%s, %s, %%%s", IMMS[k % NIMMS], ms.v[k], R64[(k + 5) % 16]);
    }
    for (size_t i = 0; i < NIMMS; i++)
        ln_add(L, "imulq $%s, %%r13, %%rbp", IMMS[i]);
    /* lea: every address form */
    for (size_t k = 0; k < mf.n; k++)
        ln_add(L, "leaq %s, %%%s", mf.v[k], R64[(k * 5) % 16]);
    for (int d = 0; d < 16; d++)
        ln_add(L, "leal (%%%s,%%%s,2), %%%s", R64[d], R64[(d + 1) % 16 == 4 ? 5 : (d + 1) % 16], R32[d]);
    /* mulx bzhi shlx shrx sarx: three registers, or a memory source */
    static const char *const V3[] = { "mulx", "bzhi", "shlx", "shrx", "sarx" };
    for (int v = 0; v < 5; v++) {
        for (int a = 0; a < 16; a++)
            for (int b = 0; b < 16; b++) {
                ln_add(L, "%s %%%s, %%%s, %%%s", V3[v], R64[a], R64[b], R64[(a * 5 + b * 3 + v) % 16]);
                if ((a + b) % 4 == 0)
                    ln_add(L, "%sq %%%s, %%%s, %%%s", V3[v], R64[b], R64[(a + 7) % 16], R64[a]);
            }
        for (size_t k = 0; k < ms.n; k++) {
            if (v == 0)
                ln_add(L, "mulx %s, %%%s, %%%s", ms.v[k], R64[k % 16], R64[(k + 9) % 16]);
            else
                ln_add(L, "%s %%%s, %s, %%%s", V3[v], R64[k % 16], ms.v[k], R64[(k + 9) % 16]);
        }
        ln_add(L, "%s %%eax, %%r9d, %%r15d", V3[v]);
    }
    /* adcx adox */
    static const char *const AX[] = { "adcx", "adox" };
    for (int x = 0; x < 2; x++) {
        for (int s = 0; s < 16; s++)
            for (int d = 0; d < 16; d++)
                ln_add(L, "%s %%%s, %%%s", AX[x], R64[s], R64[d]);
        for (size_t k = 0; k < ms.n; k++)
            ln_add(L, "%s%s %s, %%%s", AX[x], k & 1 ? "q" : "", ms.v[k], R64[k % 16]);
    }
    /* cmov<cc> set<cc> */
    for (size_t c = 0; c < NCCS; c++) {
        for (int s = 0; s < 16; s++) {
            ln_add(L, "cmov%sq %%%s, %%%s", CCS[c], R64[s], R64[(s * 7 + c) % 16]);
            ln_add(L, "set%s %%%s", CCS[c], R8[s]);
        }
        ln_add(L, "cmov%s %%r8, %%rdx", CCS[c]);
        ln_add(L, "cmov%sq %s, %%r11", CCS[c], ms.v[c % ms.n]);
    }
    for (int s = 0; s < 16; s++)
        for (int d = 0; d < 16; d++)
            ln_add(L, "cmovcq %%%s, %%%s", R64[s], R64[d]);
    /* movzbl, movq gpr <-> xmm */
    for (int s = 0; s < 16; s++)
        for (int d = 0; d < 16; d++) {
            ln_add(L, "movzbl %%%s, %%%s", R8[s], R32[d]);
            ln_add(L, "movq %%%s, %%xmm%d", R64[s], d);
            ln_add(L, "movq %%xmm%d, %%%s", s, R64[d]);
        }
    for (size_t k = 0; k < ms.n; k += 3)
        ln_add(L, "movzbl %s, %%%s", ms.v[k], R32[k % 16]);
    /* push pop, the frame, clc stc ret */
    for (int r = 0; r < 16; r++) {
        ln_add(L, "pushq %%%s", R64[r]);
        ln_add(L, "popq %%%s", R64[r]);
        ln_add(L, "push %%%s", R64[r]);
        ln_add(L, "pop %%%s", R64[r]);
    }
    for (int k = 8; k <= 8 * 2000; k = k < 200 ? k + 8 : k * 2) {
        ln_add(L, "subq $%d, %%rsp", k);
        ln_add(L, "addq $%d, %%rsp", k);
    }
    ln_add(L, "clc");
    ln_add(L, "stc");
    ln_add(L, "ret");
    ln_add(L, "retq");
    ln_free(&mf);
    ln_free(&ms);
}

/* lines encode_asm_text must refuse (gas refuses them too, or they are outside the syntax it takes) */
static const char *const BAD[] = {
    "addq %eax, %rbx",         "movq %eax, %rbx",        "addl %rax, %rbx",         "addq $0x80000000, %rax",
    "movq $0x123456789, %rax", "leaq (%rax,%rsp), %rbx", "foo %rax",                "movq %rax",
    "movq %rax, %rbx, %rcx",   "addq $1, $2",            "movq 8(%rax), 8(%rbx)",   "movq %xmm0, %eax",
    "movl %xmm0, %rax",        "movq %rax, %xmm16",      "setc %rax",               "movzbl %eax, %ebx",
    "pushq %eax",              "shlq $256, %rax",        "shlq %rcx, %rax",         "movq 8(%rax,%rbx,3), %rcx",
    "movq 8(%rax, %rcx",       "addq %rax, %rbx;",       "addq $, %rax",            "addq $0x, %rax",
    "clcq",                    "movq $1, 8(%rax)x",      "movq %rax,",              "imulq $3, %rax",
    "mulx $1, %rax, %rbx",     "movabsq $1, %eax",       "addq 99999999999(%rax), %rbx",
    "addq $99999999999999999999, %rax",                  "testq (%rax), %rbx",      "cmovcq $1, %rax",
    "adcx %rax, 8(%rsp)",      "mov $1, 8(%rax)",        "movq %al, %rbx",          "nop",
    "addq $017, %rax",         "movq 010(%rax), %rbx",   "mov %xmm1, %rsi",         "movl %rax, %xmm0",
};

/* the lines L as one function assembled by gas, split into instructions by Zydis' decoder, each compared with
 * encode_asm_text's encoding of the line alone, then the whole text at once. 0 when all are equal. */
static int compare_lines(const lines *L, const char *what)
{
    sbuf s = { 0 };
    sb_add(&s, "\t.text\n\t.globl\tenc_forms\n\t.type\tenc_forms, @function\nenc_forms:\n");
    for (size_t i = 0; i < L->n; i++)
        sb_add(&s, "\t%s\n", L->v[i]);
    sb_add(&s, "\t.size\tenc_forms, .-enc_forms\n\t.section\t.note.GNU-stack,\"\",@progbits\n");
    char path[700], err[1024];
    snprintf(path, sizeof path, "%s/%s.S", dir, what);
    check_code gas;
    memset(&gas, 0, sizeof gas);
    size_t off = 0, bad = 0, nbytes = 0;
    if (write_file(path, s.s, s.n) < 0) {
        FAIL("cannot write %s", path);
        bad++;
        goto out;
    }
    if (check_code_read(path, "enc_forms", &gas, err, sizeof err) < 0) {
        FAIL("%s: the assembler: %s", what, err);
        bad++;
        goto out;
    }
    ZydisDecoder dec;
    ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    for (size_t i = 0; i < L->n && bad < 20; i++) {
        ZydisDecodedInstruction in;
        if (off >= gas.size ||
            !ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&dec, NULL, gas.bytes + off, gas.size - off, &in))) {
            FAIL("%s: gas's bytes end or do not decode at line %zu '%s' (offset %zu)", what, i + 1, L->v[i], off);
            bad++;
            goto out;
        }
        uint8_t *code = NULL;
        size_t len = 0;
        char hm[128], hg[128];
        hex(hg, sizeof hg, gas.bytes + off, in.length);
        if (encode_asm_text(L->v[i], &code, &len, err, sizeof err) < 0) {
            FAIL("%s: '%s' (gas: %s): %s", what, L->v[i], hg, err);
            bad++;
        } else if (len != in.length || memcmp(code, gas.bytes + off, len)) {
            hex(hm, sizeof hm, code, len);
            FAIL("%s: '%s': encode_asm_text %s, gas %s", what, L->v[i], hm, hg);
            bad++;
        }
        nbytes += len;
        free(code);
        off += in.length;
    }
    if (!bad && off != gas.size) {
        FAIL("%s: gas has %zu bytes, the lines decode to %zu", what, gas.size, off);
        bad++;
    }
    /* the whole text at once (directives and label skipped) */
    uint8_t *all = NULL;
    size_t alen = 0;
    if (encode_asm_text(s.s, &all, &alen, err, sizeof err) < 0) {
        FAIL("%s: the whole text: %s", what, err);
        bad++;
    } else if (alen != gas.size || memcmp(all, gas.bytes, alen)) {
        FAIL("%s: the whole text: %zu bytes, gas %zu, or they differ", what, alen, gas.size);
        bad++;
    }
    free(all);
    printf("%s: %zu instruction lines, %zu bytes, %s gas's\n", what, L->n, nbytes, bad ? "NOT" : "equal to");
out:
    check_code_free(&gas);
    free(s.s);
    return bad ? -1 : 0;
}

static void test_forms(void)
{
    lines L = { 0 };
    gen_forms(&L);
    char err[1024];
    compare_lines(&L, "forms");
    /* refusals */
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        uint8_t *code = (uint8_t *)1;
        size_t len = 7;
        err[0] = 0;
        if (encode_asm_text(BAD[i], &code, &len, err, sizeof err) == 0) {
            FAIL("'%s' was encoded (want an error)", BAD[i]);
            free(code);
        } else if (code || len || strncmp(err, "line 1: '", 9) || strchr(err, '\n'))
            FAIL("'%s': error '%s' (want \"line 1: '...': why\", code NULL, len 0)", BAD[i], err);
    }
    {
        uint8_t *code = NULL;
        size_t len = 0;
        if (encode_asm_text("\tret\n/* not closed\n", &code, &len, err, sizeof err) == 0 || !strstr(err, "comment"))
            FAIL("an unclosed comment: '%s'", err);
        if (encode_asm_text("f:\n\tclc\n\t.p2align 4 # x\n\tmulx 8(%rsi), %r8, %r9 # ok\n  g: ret\nh: /* a */ stc /* b\n"
                            " */\n\tbogus %rax\n",
                            &code, &len, err, sizeof err) == 0 ||
            strncmp(err, "line 8: 'bogus %rax'", 20))
            FAIL("error line number: '%s'", err);
        if (encode_asm_text("", &code, &len, err, sizeof err) < 0 || !code || len)
            FAIL("empty text: %s", err);
        free(code);
        if (encode_asm_text(NULL, &code, &len, err, sizeof err) == 0)
            FAIL("NULL text accepted");
        size_t ml = 99;
        if (encode_exec_map(NULL, 0, &ml) || ml || encode_exec_map((const uint8_t *)"\xc3", 0, &ml) || ml)
            FAIL("encode_exec_map of nothing: want NULL and maplen 0");
        encode_exec_unmap(NULL, 0);
    }
    /* mutated lines: accepted or refused with a one-line error, never a crash (ASan watches) */
    {
        static const char CH[] = "%$(),-0x19afqlr: \t#/*.;\n";
        uint64_t st = seed ^ 0xf022;
        unsigned nacc = 0, nref = 0;
        lines acc = { 0 };
        for (int t = 0; t < 20000; t++) {
            char buf[300];
            snprintf(buf, sizeof buf, "%s", L.v[ep_rand(&st) % L.n]);
            for (int k = 0, nk = 1 + (int)(ep_rand(&st) % 3); k < nk; k++) {
                size_t bl = strlen(buf), at = bl ? ep_rand(&st) % bl : 0;
                switch (ep_rand(&st) % 4) {
                case 0: memmove(buf + at, buf + at + 1, bl - at); break;                 /* delete */
                case 1: if (bl) buf[at] = CH[ep_rand(&st) % (sizeof CH - 1)]; break;     /* replace */
                case 2:                                                                    /* insert */
                    if (bl + 2 < sizeof buf) {
                        memmove(buf + at + 1, buf + at, bl - at + 1);
                        buf[at] = CH[ep_rand(&st) % (sizeof CH - 1)];
                    }
                    break;
                default: buf[at] = 0; break;                                               /* truncate */
                }
            }
            uint8_t *code = NULL;
            size_t len = 0;
            err[0] = 0;
            if (encode_asm_text(buf, &code, &len, err, sizeof err) == 0) {
                nacc++;
                if (len && !strchr(buf, '\n') && !strchr(buf, '#') && !strchr(buf, '/') && !strchr(buf, ':'))
                    ln_add(&acc, "%s", buf); /* one instruction on one line: gas must agree */
            }
            else if (code || len || strncmp(err, "line ", 5) || strchr(err, '\n'))
                FAIL("mutated '%s': error '%s' (want \"line N: ...\", code NULL, len 0)", buf, err);
            else
                nref++;
            free(code);
        }
        printf("mutated lines: %u accepted, %u refused with an error\n", nacc, nref);
        compare_lines(&acc, "accepted-mutants");
        ln_free(&acc);
    }
    ln_free(&L);
}

/* ---- 2. emit_asm's output ---------------------------------------------------------------------------------- */


typedef struct {
    char sym[64];
    char label[160];
    char *text;
} emitted;

static emitted *ems;
static size_t nems, capems;

/* emit low (variant 0 default, 1-2 random decisions, 3-4 a random order with random decisions) and keep it;
 * -1 when emit_asm refuses it (a failure unless may_refuse: then the reason is printed) */
static int emit_one(const ir_func *low, int variant, const char *label, bool may_refuse)
{
    uint64_t st = seed * 0x9e3779b97f4a7c15u + 1000003u * (uint64_t)nems + (uint64_t)variant;
    ir_func *sh = variant >= 3 ? ep_random_schedule(low, &st) : NULL;
    const ir_func *f = sh ? sh : low;
    if (variant >= 3 && !sh) {
        FAIL("out of memory");
        return -1;
    }
    uint8_t *dec = NULL;
    if (variant) {
        dec = calloc(f->nnode + 1, 1);
        if (!dec) {
            FAIL("out of memory");
            ir_func_free(sh);
            return -1;
        }
        for (uint32_t i = 0; i < f->nnode; i++)
            dec[i] = (uint8_t)ep_rand(&st);
    }
    if (nems == capems) {
        capems = 2 * capems + 64;
        emitted *ne = realloc(ems, capems * sizeof *ne);
        if (!ne) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        ems = ne;
    }
    emitted *e = &ems[nems];
    memset(e, 0, sizeof *e);
    snprintf(e->sym, sizeof e->sym, "enc_f%zu", nems);
    snprintf(e->label, sizeof e->label, "%s (%s)", label,
             variant == 0 ? "default" : variant <= 2 ? "random decisions" : "random order and decisions");
    /* every third emission for the x86-64 target (mulq, one carry chain) */
    emit_asm_opts o = { .symbol = e->sym, .hidden = (nems & 1) != 0, .decisions = dec, .command = "test_emit_encode",
                        .target = nems % 3 == 2 ? EMIT_ASM_TARGET_X86_64 : EMIT_ASM_TARGET_ADX };
    char err[1024];
    int rc = emit_asm(f, &o, &e->text, NULL, err, sizeof err);
    if (rc < 0 && may_refuse)
        printf("skipped %s: emit_asm refuses it: %s\n", label, err);
    else if (rc < 0)
        FAIL("%s: emit_asm: %s", e->label, err);
    else
        nems++;
    free(dec);
    ir_func_free(sh);
    return rc;
}

static void emit_all(const ir_func *src, const char *label)
{
    char err[1024];
    ir_func *low = ir_lower(src, err, sizeof err);
    if (!low) {
        FAIL("%s: ir_lower: %s", label, err);
        return;
    }
    /* a program emit_asm refuses by default (mulx.32 in emit_progs' lw_ops) is emit_asm's own test's business */
    for (int v = 0; v < 5; v++)
        if (emit_one(low, v, label, v == 0) < 0 && v == 0)
            break;
    ir_func_free(low);
}

/* where text and gas's bytes first differ: the line (encode growing prefixes of the text) */
static void locate(const emitted *e, const uint8_t *mine, size_t mlen, const uint8_t *gas, size_t glen)
{
    size_t d = 0;
    while (d < mlen && d < glen && mine[d] == gas[d])
        d++;
    const char *t = e->text;
    size_t before = 0;
    for (const char *p = t; *p;) {
        const char *eol = strchr(p, '\n');
        size_t upto = eol ? (size_t)(eol - t) + 1 : strlen(t);
        char *pre = strndup(t, upto);
        uint8_t *c = NULL;
        size_t n = 0;
        char err[512];
        int r = pre ? encode_asm_text(pre, &c, &n, err, sizeof err) : -1;
        free(pre);
        free(c);
        if (r == 0 && n > d) {
            char hm[128], hg[128];
            hex(hm, sizeof hm, mine + before, n - before);
            hex(hg, sizeof hg, gas + before, glen - before < 15 ? glen - before : 15);
            FAIL("%s: byte %zu differs: line '%.*s': encode_asm_text %s, gas (from there) %s", e->label, d,
                 (int)(upto - (size_t)(p - t)) - (eol ? 1 : 0), p, hm, hg);
            return;
        }
        if (r == 0)
            before = n;
        if (!eol)
            break;
        p = eol + 1;
    }
    FAIL("%s: %zu bytes, gas %zu (the difference is past the last line)", e->label, mlen, glen);
}

static void compare_all(void)
{
    sbuf all = { 0 };
    for (size_t i = 0; i < nems; i++)
        sb_add(&all, "%s\n", ems[i].text);
    char path[700], err[1024];
    snprintf(path, sizeof path, "%s/emitted.S", dir);
    uint8_t *obj = NULL;
    size_t olen = 0;
    if (write_file(path, all.s, all.n) < 0) {
        FAIL("cannot write %s", path);
        goto out;
    }
    if (check_assemble(path, &obj, &olen, err, sizeof err) < 0) {
        FAIL("the assembler: %s", err);
        goto out;
    }
    size_t same = 0, bytes = 0, insns = 0;
    for (size_t i = 0; i < nems; i++) {
        check_code gas;
        memset(&gas, 0, sizeof gas);
        if (check_code_from_object(obj, olen, path, ems[i].sym, &gas, err, sizeof err) < 0) {
            FAIL("%s: %s", ems[i].label, err);
            continue;
        }
        if (gas.nrelocs)
            FAIL("%s: %zu relocations in gas's code", ems[i].label, gas.nrelocs);
        uint8_t *code = NULL;
        size_t len = 0;
        if (encode_asm_text(ems[i].text, &code, &len, err, sizeof err) < 0)
            FAIL("%s: %s", ems[i].label, err);
        else if (len != gas.size || memcmp(code, gas.bytes, len))
            locate(&ems[i], code, len, gas.bytes, gas.size);
        else {
            same++;
            bytes += len;
            for (const char *p = ems[i].text; (p = strstr(p, "\n\t")); p += 2)
                insns += p[2] != '.';
        }
        free(code);
        check_code_free(&gas);
    }
    printf("emit_asm output: %zu of %zu functions (%zu instructions, %zu bytes) equal to gas's bytes\n", same, nems,
           insns, bytes);
    /* the mnemonics that occurred (so a form emit_asm starts to write shows up here) */
    char seen[2048] = "";
    size_t sl = 0;
    for (size_t i = 0; i < nems; i++)
        for (const char *p = ems[i].text; (p = strstr(p, "\n\t")); p += 2) {
            size_t k = 0;
            while (p[2 + k] && p[2 + k] != ' ' && p[2 + k] != '\t' && p[2 + k] != '\n')
                k++;
            if (p[2] == '.' || !k || k > 12)
                continue;
            char w[16];
            snprintf(w, sizeof w, " %.*s ", (int)k, p + 2);
            if (!strstr(seen, w) && sl + k + 2 < sizeof seen)
                sl += (size_t)snprintf(seen + sl, sizeof seen - sl, "%s", w + (sl ? 1 : 0));
        }
    printf("mnemonics in emit_asm's output:%s\n", seen);
out:
    free(obj);
    free(all.s);
}

/* ---- 3. running the encoded code --------------------------------------------------------------------------- */

static int cpu_has_adx_bmi2(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    return (b >> 8 & 1) && (b >> 19 & 1);
}

static void run_encoded(const ir_func *src, int variant, long n, const char *label)
{
    char err[1024];
    ir_func *low = ir_lower(src, err, sizeof err);
    if (!low) {
        FAIL("%s: ir_lower: %s", label, err);
        return;
    }
    int rc = emit_one(low, variant, label, true);
    ir_func_free(low);
    if (rc < 0)
        return;
    emitted *e = &ems[nems - 1];
    uint8_t *code = NULL;
    size_t len = 0, maplen = 0;
    if (encode_asm_text(e->text, &code, &len, err, sizeof err) < 0) {
        FAIL("%s: %s", e->label, err);
        return;
    }
    void *m = encode_exec_map(code, len, &maplen);
    free(code);
    if (!m) {
        FAIL("%s: encode_exec_map failed", e->label);
        return;
    }
    cc_fn fn = (cc_fn)m;
    static uint64_t in[EP_MAXARR][EP_MAXLIMB], want[EP_MAXARR][EP_MAXLIMB], got[EP_MAXARR][EP_MAXLIMB];
    uint64_t st = seed ^ 0xe7c0de;
    unsigned bad = 0;
    long t;
    for (t = -(long)EP_NEDGE; t < n && bad < 3; t++) {
        memset(in, 0, sizeof in);
        ep_inputs(src, t < 0 ? (int)(t + EP_NEDGE) : -1, &st, in);
        memset(want, 0, sizeof want);
        if (ep_eval(src, in, want) < 0) {
            FAIL("ir_eval failed");
            break;
        }
        memset(got, 0xee, sizeof got);
        void *args[EP_MAXARR];
        unsigned na = 0;
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t j = 0; j < src->narr; j++)
                if (src->arr[j].is_output == (pass == 0))
                    args[na++] = pass == 0 ? (void *)got[j] : (void *)in[j];
        if (cc_call_arrays(fn, na, args) < 0) {
            FAIL("%s: %u arrays", e->label, na);
            break;
        }
        for (uint32_t j = 0; j < src->narr; j++)
            if (src->arr[j].is_output && memcmp(got[j], want[j], src->arr[j].len * sizeof(uint64_t))) {
                FAIL("%s: output %s differs from ir_eval (input %ld)", e->label, src->arr[j].name, t);
                ep_print_limbs("got", got[j], src->arr[j].len);
                ep_print_limbs("want", want[j], src->arr[j].len);
                bad++;
            }
    }
    encode_exec_unmap(m, maplen);
    printf("ran %s from executable memory on %ld inputs: %s\n", e->label, t + EP_NEDGE, bad ? "WRONG" : "agrees");
}

/* ---- main -------------------------------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *fdir = NULL;
    int keep = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--fiat") && i + 1 < argc)
            fdir = argv[++i];
        else if (!strcmp(argv[i], "--keep"))
            keep = 1;
        else {
            fprintf(stderr, "usage: test_emit_encode [--seed N] [--fiat DIR] [--keep]\n");
            return 2;
        }
    }
    printf("test_emit_encode --seed %llu\n", (unsigned long long)seed);
    if (!cc_available("cc")) {
        printf("SKIP: no cc\n");
        return 77;
    }
    char err[1024];
    if (cc_tmpdir(dir, sizeof dir, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    double t0 = now();
    test_forms();
    double t1 = now();

    /* emit_progs' programs and fiat's multiplies and squares */
    for (unsigned i = 0; i < ep_nprogs; i++) {
        if (!ep_progs[i].lowerable)
            continue;
        ir_func *f = ep_progs[i].build();
        if (!f) {
            FAIL("%s: build failed", ep_progs[i].name);
            continue;
        }
        emit_all(f, ep_progs[i].name);
        ir_func_free(f);
    }
    ir_func *fns[256];
    int nf = 0;
    unsigned ffail = 0;
    if (fdir) {
        nf = ep_fiat_load_dir(fdir, fns, 256, &ffail);
        if (nf < 0) {
            FAIL("cannot open %s", fdir);
            nf = 0;
        }
        if (ffail)
            FAIL("%u fiat functions did not load", ffail);
    }
    ir_func *p256 = NULL, *c25519 = NULL;
    for (int i = 0; i < nf; i++) {
        const char *nm = fns[i]->name;
        size_t l = strlen(nm);
        bool mulsq = (l >= 4 && !strcmp(nm + l - 4, "_mul")) || (l >= 7 && !strcmp(nm + l - 7, "_square"));
        if (mulsq)
            emit_all(fns[i], nm);
        if (!strcmp(nm, "fiat_p256_mul"))
            p256 = fns[i];
        if (!strcmp(nm, "fiat_25519_carry_mul"))
            c25519 = fns[i];
    }
    compare_all();
    double t2 = now();

    if (cpu_has_adx_bmi2()) {
        for (unsigned i = 0; i < ep_nprogs; i++)
            if (ep_progs[i].lowerable && (!strcmp(ep_progs[i].name, "lw_mul") || i % 4 == 1)) {
                ir_func *f = ep_progs[i].build();
                if (f) {
                    run_encoded(f, (int)(i % 5), 1000, ep_progs[i].name);
                    ir_func_free(f);
                }
            }
        if (p256) {
            run_encoded(p256, 0, 3000, p256->name);
            run_encoded(p256, 4, 3000, p256->name);
        }
        if (c25519) {
            run_encoded(c25519, 0, 3000, c25519->name);
            run_encoded(c25519, 3, 3000, c25519->name);
        }
    } else
        printf("no BMI2/ADX: the encoded code is not run\n");
    double t3 = now();

    /* how long encoding takes (the optimizer encodes every candidate) */
    if (p256) {
        ir_func *low = ir_lower(p256, err, sizeof err);
        char *text = NULL;
        emit_asm_stats stats;
        emit_asm_opts o = { .symbol = "p256_mul", .stats = &stats };
        if (!low || emit_asm(low, &o, &text, NULL, err, sizeof err) < 0)
            FAIL("p256 mul: %s", err);
        else {
            enum { REPS = 201 };
            static double us[REPS];
            size_t len = 0;
            for (int r = 0; r < REPS; r++) {
                uint8_t *code = NULL;
                double a = now();
                int rc = encode_asm_text(text, &code, &len, err, sizeof err);
                us[r] = (now() - a) * 1e6;
                free(code);
                if (rc < 0) {
                    FAIL("p256 mul: %s", err);
                    break;
                }
            }
            qsort(us, REPS, sizeof us[0], cmp_double);
            printf("encode_asm_text on fiat_p256_mul: %u instructions, %zu bytes, %.1f us (median of %d; min %.1f)\n",
                   stats.ninsns, len, us[REPS / 2], REPS, us[0]);
        }
        free(text);
        ir_func_free(low);
    }
    printf("times: forms %.2f s, emitted %.2f s, runs %.2f s\n", t1 - t0, t2 - t1, t3 - t2);

    for (size_t i = 0; i < nems; i++)
        free(ems[i].text);
    free(ems);
    for (int i = 0; i < nf; i++)
        ir_func_free(fns[i]);
    if (keep)
        printf("kept %s\n", dir);
    else
        cc_rmtree(dir);
    if (failures) {
        printf("%d failures (seed %llu)\n", failures, (unsigned long long)seed);
        return 1;
    }
    printf("ok\n");
    return 0;
}
