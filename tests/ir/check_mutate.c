/* check_mutate.c — ecopt_mutate: equivalence-preserving variants and labelled broken mutants of one function in
 * AT&T assembly as `gcc -S` / `clang -S` write it, for the checker's corpus test.
 *
 * Usage:
 *   ecopt_mutate [--outputs N] [--no-alias] --list FILE.S SYMBOL
 *       every applicable edit, one per line: "<id> <class> <expected> <description>", where expected is "proved"
 *       for a variant and a check_rule_name label (check/check.h) for a mutant;
 *   ecopt_mutate [--outputs N] [--no-alias] FILE.S SYMBOL ID -o OUT.S
 *       write FILE.S with the edit ID applied to SYMBOL's body (the rest of the file unchanged).
 * --outputs N: the function's first N pointer arguments are outputs (default 1: the fiat signature out1, arg1,
 * arg2); --no-alias: no output may alias an input (no aliasing mutants).
 *
 * The function is the straight-line body between "SYMBOL:" and its .cfi_endproc / .size. Each instruction is parsed
 * into operands and its register and flag reads and writes (Intel SDM vol. 2 for each mnemonic; an unknown mnemonic
 * is taken to read and write everything, so no edit is made next to it). A backward liveness pass (registers; CF,
 * OF and the other flags separately; callee-saved registers live at ret) and a forward pass (which register holds
 * which argument pointer or a data value, the rsp offset, which stack slots were written) decide where an edit is
 * sound (a variant) or certainly breaks one rule (a mutant). Sites are chosen without randomness: of the applicable
 * sites of a kind, the first and the one in the middle. Exit 0, 1 on a bad edit id, 2 usage / unreadable input. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15, XMM0 = 16, RIP = 32, NOREG = -1 };

static const char *const n64[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                     "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15" };
static const char *const n32[16] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
                                     "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d" };
static const char *const n16[16] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di",
                                     "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w" };
static const char *const n8[16] = { "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil",
                                    "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b" };
static const int argreg[6] = { RDI, RSI, RDX, RCX, R8, R9 };
#define CALLEE_SAVED ((1u << RBX) | (1u << RBP) | (1u << R12) | (1u << R13) | (1u << R14) | (1u << R15))

/* flags: CF, OF, and the rest (ZF SF PF AF) as one */
enum { F_CF = 1, F_OF = 2, F_OT = 4, F_ALL = 7 };

typedef enum { O_NONE, O_REG, O_IMM, O_MEM } okind;
typedef struct {
    okind k;
    int reg, width, high8;        /* O_REG: index (0..15 gpr, 16..31 xmm), bits, ah/bh/ch/dh */
    int64_t imm;                  /* O_IMM */
    int base, index, scale;       /* O_MEM (NOREG when absent; RIP) */
    int64_t disp;
    bool sym;                     /* O_MEM / O_IMM with a symbol */
    char text[96];
} opnd;

typedef enum {
    C_UNK, C_NOP, C_MOV, C_MOVX, C_LEA, C_ALU, C_CMP, C_NEG, C_NOT, C_MUL, C_IMUL, C_SHIFT, C_SHD, C_SETCC, C_CMOV,
    C_PUSH, C_POP, C_RET, C_XCHG, C_ADCX, C_ADOX, C_MULX
} iclass;

typedef struct {
    int line;                /* index into the file's lines */
    char mn[24];             /* mnemonic as written */
    char base[8];            /* ALU: add adc sub sbb and or xor; SHIFT: shr shl sal sar; SHD: shld shrd */
    iclass cls;
    int width;               /* operand size from the suffix */
    int nops;
    opnd op[3];              /* AT&T order: sources first, destination last */
    uint32_t use, def;       /* registers read / written (bit per index 0..31) */
    int fuse, fdef;          /* flags read / written */
    bool mread, mwrite;      /* memory read / written */
    int cc_flags;            /* SETCC / CMOV: flags read */
} insn;

typedef enum { V_ENTRY, V_PTR, V_DATA, V_CONST, V_STACK } vkind;
typedef struct {
    vkind k;
    int arg;      /* V_PTR */
    int64_t off;  /* V_PTR, V_STACK: byte offset (stack: from entry rsp) */
    unsigned id;  /* V_DATA: value number */
    bool wide;    /* V_DATA: spread over all 64 bits: the low half of a full product (mul's rax, mulx's low result),
                     or a sum with such a value; adding two of them carries about half the time, so a carry mutant
                     there is seen by random inputs too */
} aval;

#define NSLOT 512 /* 8-byte stack slots below entry rsp tracked: [-8*NSLOT, 0) */
typedef struct {
    aval r[32];
    int64_t rsp;                 /* rsp - entry rsp */
    uint8_t written[NSLOT / 8];  /* slot s (offset -8*(s+1)) ever written */
    aval slot[NSLOT];
} fstate;

typedef struct {
    char **lines;
    int nlines, body_lo, body_hi; /* body lines [body_lo, body_hi) */
    insn *v;
    int n;
    uint32_t *live_in, *live_out;
    int *flive_in, *flive_out;
    fstate *st;                   /* state before insn i (n + 1 entries) */
    int nout, nargs;
    bool alias;
    uint32_t used;                /* registers named anywhere in the body */
    uint32_t pushed;              /* registers pushed */
    int last_ret;
} func;

/* ---- one edit ------------------------------------------------------------------------------------------------ */

typedef struct {
    int insn;       /* where */
    int mode;       /* 0 insert before, 1 replace, 2 insert after */
    char text[320]; /* lines, each "\tinsn\n" */
} edit;

typedef struct {
    char id[48], cls[32], expect[24], desc[200];
    edit e[4];
    int ne;
    int ren_a, ren_b; /* swap these register names in the whole body (NOREG: none) */
} cand;

static cand *cands;
static int ncands, capcands;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ecopt_mutate: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        die("out of memory");
    return q;
}

static cand *new_cand(const char *cls, const char *expect, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cand *new_cand(const char *cls, const char *expect, const char *fmt, ...)
{
    if (ncands == capcands) {
        capcands = capcands ? 2 * capcands : 64;
        cands = xrealloc(cands, (size_t)capcands * sizeof *cands);
    }
    cand *c = &cands[ncands++];
    memset(c, 0, sizeof *c);
    c->ren_a = c->ren_b = NOREG;
    snprintf(c->cls, sizeof c->cls, "%s", cls);
    snprintf(c->expect, sizeof c->expect, "%s", expect);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->desc, sizeof c->desc, fmt, ap);
    va_end(ap);
    int k = 0;
    for (int i = 0; i < ncands - 1; i++)
        k += !strcmp(cands[i].cls, cls) && !strcmp(cands[i].expect, expect) ? 1 : 0;
    snprintf(c->id, sizeof c->id, "%s.%s.%d", strcmp(expect, "proved") ? "m" : "v", cls, k + 1);
    return c;
}

static void add_edit(cand *c, int at, int mode, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add_edit(cand *c, int at, int mode, const char *fmt, ...)
{
    if (c->ne >= 4)
        die("internal: too many edits");
    edit *e = &c->e[c->ne++];
    e->insn = at;
    e->mode = mode;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
}

/* ---- parsing ------------------------------------------------------------------------------------------------- */

static int reg_lookup(const char *s, int *width, int *high8)
{
    *high8 = 0;
    for (int i = 0; i < 16; i++) {
        if (!strcmp(s, n64[i])) { *width = 64; return i; }
        if (!strcmp(s, n32[i])) { *width = 32; return i; }
        if (!strcmp(s, n16[i])) { *width = 16; return i; }
        if (!strcmp(s, n8[i])) { *width = 8; return i; }
    }
    static const char *const hi[4] = { "ah", "ch", "dh", "bh" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, hi[i])) {
            *width = 8;
            *high8 = 1;
            return i;
        }
    if (!strncmp(s, "xmm", 3) && isdigit((unsigned char)s[3])) {
        int k = atoi(s + 3);
        if (k >= 0 && k < 16) {
            *width = 128;
            return XMM0 + k;
        }
    }
    if (!strcmp(s, "rip")) {
        *width = 64;
        return RIP;
    }
    return NOREG;
}

static const char *reg_name(int r, int width)
{
    static const char *const xmm[16] = { "xmm0", "xmm1", "xmm2",  "xmm3",  "xmm4",  "xmm5",  "xmm6",  "xmm7",
                                         "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15" };
    if (r >= XMM0 && r < XMM0 + 16)
        return xmm[r - XMM0];
    return width == 64 ? n64[r] : width == 32 ? n32[r] : width == 16 ? n16[r] : n8[r];
}

/* "%rax" -> RAX; -1 when not a register */
static int parse_regtok(const char *s, int *width, int *high8)
{
    if (*s != '%')
        return NOREG;
    return reg_lookup(s + 1, width, high8);
}

static int parse_operand(const char *s, opnd *o)
{
    memset(o, 0, sizeof *o);
    o->base = o->index = NOREG;
    snprintf(o->text, sizeof o->text, "%s", s);
    if (*s == '%') {
        o->k = O_REG;
        o->reg = parse_regtok(s, &o->width, &o->high8);
        return o->reg == NOREG ? -1 : 0;
    }
    if (*s == '$') {
        o->k = O_IMM;
        char *end;
        errno = 0;
        o->imm = strtoll(s + 1, &end, 0);
        if (*end || errno)
            o->sym = true;
        return 0;
    }
    o->k = O_MEM;
    const char *lp = strchr(s, '(');
    char dispbuf[64] = "";
    size_t dl = lp ? (size_t)(lp - s) : strlen(s);
    if (dl >= sizeof dispbuf)
        return -1;
    memcpy(dispbuf, s, dl);
    dispbuf[dl] = 0;
    if (dl) {
        char *end;
        o->disp = strtoll(dispbuf, &end, 0);
        if (*end)
            o->sym = true;
    }
    if (!lp) {
        o->sym = true;
        return 0;
    }
    char inner[64];
    const char *rp = strchr(lp, ')');
    if (!rp || (size_t)(rp - lp - 1) >= sizeof inner)
        return -1;
    memcpy(inner, lp + 1, (size_t)(rp - lp - 1));
    inner[rp - lp - 1] = 0;
    char *parts[3] = { inner, NULL, NULL };
    char *c1 = strchr(inner, ',');
    if (c1) {
        *c1 = 0;
        parts[1] = c1 + 1;
        char *c2 = strchr(parts[1], ',');
        if (c2) {
            *c2 = 0;
            parts[2] = c2 + 1;
        }
    }
    int w, h;
    if (*parts[0]) {
        o->base = parse_regtok(parts[0], &w, &h);
        if (o->base == NOREG)
            return -1;
    }
    if (parts[1] && *parts[1]) {
        o->index = parse_regtok(parts[1], &w, &h);
        if (o->index == NOREG)
            return -1;
        o->scale = parts[2] ? atoi(parts[2]) : 1;
    }
    return 0;
}

static uint32_t bit(int r)
{
    return r >= 0 && r < 32 ? 1u << r : 0;
}

static uint32_t addr_regs(const opnd *o)
{
    return o->k == O_MEM ? bit(o->base) | bit(o->index) : 0;
}

static int cc_flags(const char *cc)
{
    if (!strcmp(cc, "b") || !strcmp(cc, "c") || !strcmp(cc, "nae") || !strcmp(cc, "ae") || !strcmp(cc, "nb") ||
        !strcmp(cc, "nc"))
        return F_CF;
    if (!strcmp(cc, "o") || !strcmp(cc, "no"))
        return F_OF;
    if (!strcmp(cc, "a") || !strcmp(cc, "be") || !strcmp(cc, "na") || !strcmp(cc, "nbe"))
        return F_CF | F_OT;
    if (!strcmp(cc, "l") || !strcmp(cc, "ge") || !strcmp(cc, "g") || !strcmp(cc, "le") || !strcmp(cc, "nl") ||
        !strcmp(cc, "nge") || !strcmp(cc, "ng") || !strcmp(cc, "nle"))
        return F_OF | F_OT;
    if (!strcmp(cc, "e") || !strcmp(cc, "z") || !strcmp(cc, "ne") || !strcmp(cc, "nz") || !strcmp(cc, "s") ||
        !strcmp(cc, "ns") || !strcmp(cc, "p") || !strcmp(cc, "np") || !strcmp(cc, "pe") || !strcmp(cc, "po"))
        return F_OT;
    return -1;
}

static int suffix_width(char c)
{
    return c == 'q' ? 64 : c == 'l' ? 32 : c == 'w' ? 16 : c == 'b' ? 8 : 0;
}

/* classify the mnemonic; width from the suffix (0 when none) */
static void classify(insn *in)
{
    const char *m = in->mn;
    size_t L = strlen(m);
    static const char *const alu[] = { "add", "adc", "sub", "sbb", "and", "or", "xor" };
    static const char *const sh[] = { "shr", "shl", "sal", "sar" };
    in->cls = C_UNK;
    in->width = L ? suffix_width(m[L - 1]) : 0;
    if (!strcmp(m, "nop") || !strcmp(m, "nopl") || !strcmp(m, "nopw") || !strcmp(m, "endbr64")) {
        in->cls = C_NOP;
        return;
    }
    if (!strcmp(m, "ret") || !strcmp(m, "retq")) {
        in->cls = C_RET;
        return;
    }
    if (!strcmp(m, "movabsq")) {
        in->cls = C_MOV;
        return;
    }
    if (L == 4 && !strncmp(m, "mov", 3) && in->width) {
        in->cls = C_MOV;
        return;
    }
    if (!strcmp(m, "movd")) {
        in->cls = C_MOV;
        in->width = 32;
        return;
    }
    if (L == 6 && (!strncmp(m, "movz", 4) || !strncmp(m, "movs", 4)) && suffix_width(m[4]) && suffix_width(m[5])) {
        in->cls = C_MOVX;
        in->width = suffix_width(m[5]);
        return;
    }
    if (!strcmp(m, "cltq") || !strcmp(m, "cqto")) {
        in->cls = C_UNK;
        return;
    }
    if (L == 4 && !strncmp(m, "lea", 3) && in->width) {
        in->cls = C_LEA;
        return;
    }
    for (size_t i = 0; i < sizeof alu / sizeof alu[0]; i++) {
        size_t k = strlen(alu[i]);
        if (L == k + 1 && !strncmp(m, alu[i], k) && in->width) {
            in->cls = C_ALU;
            snprintf(in->base, sizeof in->base, "%s", alu[i]);
            return;
        }
    }
    if (L == 4 && (!strncmp(m, "cmp", 3) || !strncmp(m, "tes", 3)) && in->width) {
        in->cls = C_CMP;
        return;
    }
    if (!strcmp(m, "test") || !strcmp(m, "testq") || !strcmp(m, "testl") || !strcmp(m, "testb")) {
        in->cls = C_CMP;
        in->width = suffix_width(m[L - 1]);
        return;
    }
    if (L == 4 && !strncmp(m, "neg", 3) && in->width) {
        in->cls = C_NEG;
        return;
    }
    if (L == 4 && !strncmp(m, "not", 3) && in->width) {
        in->cls = C_NOT;
        return;
    }
    if (L == 4 && !strncmp(m, "mul", 3) && in->width) {
        in->cls = C_MUL;
        return;
    }
    if (L == 5 && !strncmp(m, "imul", 4) && in->width) {
        in->cls = C_IMUL;
        return;
    }
    for (size_t i = 0; i < 4; i++)
        if (L == 4 && !strncmp(m, sh[i], 3) && in->width) {
            in->cls = C_SHIFT;
            snprintf(in->base, sizeof in->base, "%s", sh[i]);
            return;
        }
    if (L == 5 && (!strncmp(m, "shld", 4) || !strncmp(m, "shrd", 4)) && in->width) {
        in->cls = C_SHD;
        snprintf(in->base, sizeof in->base, "%.4s", m);
        return;
    }
    if (!strncmp(m, "set", 3) && cc_flags(m + 3) >= 0) {
        in->cls = C_SETCC;
        in->width = 8;
        in->cc_flags = cc_flags(m + 3);
        return;
    }
    if (!strncmp(m, "cmov", 4)) {
        char cc[8];
        snprintf(cc, sizeof cc, "%s", m + 4);
        size_t cl = strlen(cc);
        if (cl > 1 && suffix_width(cc[cl - 1]) && cc_flags(cc) < 0)
            cc[cl - 1] = 0;
        if (cc_flags(cc) >= 0) {
            in->cls = C_CMOV;
            in->cc_flags = cc_flags(cc);
            in->width = 0;
            return;
        }
    }
    if (!strcmp(m, "pushq") || !strcmp(m, "push")) {
        in->cls = C_PUSH;
        in->width = 64;
        return;
    }
    if (!strcmp(m, "popq") || !strcmp(m, "pop")) {
        in->cls = C_POP;
        in->width = 64;
        return;
    }
    if (!strncmp(m, "xchg", 4)) {
        in->cls = C_XCHG;
        return;
    }
    if (!strncmp(m, "adcx", 4)) {
        in->cls = C_ADCX;
        return;
    }
    if (!strncmp(m, "adox", 4)) {
        in->cls = C_ADOX;
        return;
    }
    if (!strncmp(m, "mulx", 4)) {
        in->cls = C_MULX;
        return;
    }
}

/* register and flag effects (Intel SDM vol. 2, each instruction's Operation and Flags Affected) */
static void effects(insn *in)
{
    uint32_t a = 0;
    for (int i = 0; i < in->nops; i++) {
        a |= addr_regs(&in->op[i]);
        if (in->op[i].k == O_MEM && in->op[i].base == RIP)
            a &= ~bit(RIP);
    }
    in->use = a;
    opnd *d = in->nops ? &in->op[in->nops - 1] : NULL;
    uint32_t dreg = d && d->k == O_REG ? bit(d->reg) : 0;
    bool dpartial = d && d->k == O_REG && d->width < 32 && d->reg < 16;
    uint32_t srcs = 0;
    for (int i = 0; i + 1 < in->nops; i++)
        if (in->op[i].k == O_REG)
            srcs |= bit(in->op[i].reg);
    bool dmem = d && d->k == O_MEM;
    for (int i = 0; i + 1 < in->nops; i++)
        if (in->op[i].k == O_MEM)
            in->mread = true;
    switch (in->cls) {
    case C_NOP:
        break;
    case C_MOV:
    case C_MOVX:
        in->use |= srcs;
        in->def |= dreg;
        if (dpartial)
            in->use |= dreg;
        in->mwrite = dmem;
        break;
    case C_LEA:
        in->def |= dreg;
        in->mread = false;
        break;
    case C_ALU:
        if (in->nops == 2 && in->op[0].k == O_REG && d->k == O_REG && in->op[0].reg == d->reg &&
            (!strcmp(in->base, "xor") || !strcmp(in->base, "sub"))) {
            in->def |= dreg; /* zero idiom */
            if (dpartial)
                in->use |= dreg;
        } else {
            in->use |= srcs | dreg;
            in->def |= dreg;
        }
        in->fdef = F_ALL;
        if (!strcmp(in->base, "adc") || !strcmp(in->base, "sbb"))
            in->fuse = F_CF;
        in->mread |= dmem;
        in->mwrite = dmem;
        break;
    case C_CMP:
        in->use |= srcs | dreg;
        in->fdef = F_ALL;
        in->mread |= dmem;
        break;
    case C_NEG:
        in->use |= dreg;
        in->def |= dreg;
        in->fdef = F_ALL;
        in->mread = in->mwrite = dmem;
        break;
    case C_NOT:
        in->use |= dreg;
        in->def |= dreg;
        in->mread = in->mwrite = dmem;
        break;
    case C_MUL:
        in->use |= dreg | bit(RAX);
        in->def |= bit(RAX) | (in->width > 8 ? bit(RDX) : 0);
        in->fdef = F_ALL;
        in->mread |= dmem;
        break;
    case C_IMUL:
        if (in->nops == 1) {
            in->use |= dreg | bit(RAX);
            in->def |= bit(RAX) | bit(RDX);
            in->mread |= dmem;
        } else if (in->nops == 2) {
            in->use |= srcs | dreg;
            in->def |= dreg;
        } else {
            in->use |= srcs;
            in->def |= dreg;
        }
        in->fdef = F_ALL;
        break;
    case C_SHIFT:
    case C_SHD:
        in->use |= srcs | dreg;
        in->def |= dreg;
        if (in->op[0].k == O_IMM && (in->op[0].imm & 63) == 0 && in->nops > 1)
            in->fdef = 0;
        else if (in->op[0].k == O_IMM || in->nops == 1)
            in->fdef = F_ALL;
        else {
            in->fdef = F_ALL; /* by %cl: maybe none; conservative both ways */
            in->fuse = F_ALL;
        }
        in->mread = in->mwrite = dmem;
        break;
    case C_SETCC:
        in->fuse = in->cc_flags;
        in->def |= dreg;
        in->use |= dreg; /* partial */
        in->mwrite = dmem;
        break;
    case C_CMOV:
        in->fuse = in->cc_flags;
        in->use |= srcs | dreg;
        in->def |= dreg;
        break;
    case C_PUSH:
        in->use |= bit(RSP) | (d && d->k == O_REG ? dreg : 0);
        in->def |= bit(RSP);
        in->mwrite = true;
        in->mread |= dmem;
        break;
    case C_POP:
        in->use |= bit(RSP);
        in->def |= bit(RSP) | dreg;
        in->mread = true;
        in->mwrite = dmem;
        break;
    case C_RET:
        in->use |= bit(RSP) | CALLEE_SAVED;
        break;
    case C_XCHG:
        in->use |= srcs | dreg;
        in->def |= srcs | dreg;
        in->mread = in->mwrite = in->mread || dmem;
        break;
    case C_ADCX:
    case C_ADOX:
        in->use |= srcs | dreg;
        in->def |= dreg;
        in->fuse = in->fdef = in->cls == C_ADCX ? F_CF : F_OF;
        break;
    case C_MULX:
        in->use |= (in->op[0].k == O_REG ? bit(in->op[0].reg) : 0) | bit(RDX);
        in->def |= bit(in->op[1].reg) | bit(in->op[2].reg);
        break;
    case C_UNK:
    default:
        in->use = in->def = 0xffffffffu;
        in->fuse = in->fdef = F_ALL;
        in->mread = in->mwrite = true;
        break;
    }
    in->use &= ~bit(RIP);
    in->def &= ~bit(RIP);
}

/* split "a, b(c,d), e" at top-level commas */
static int split_ops(char *s, char **out, int max)
{
    int n = 0, depth = 0;
    char *start = s;
    for (char *p = s;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if ((*p == ',' && depth == 0) || !*p) {
            bool end = !*p;
            *p = 0;
            while (*start == ' ' || *start == '\t')
                start++;
            char *e = start + strlen(start);
            while (e > start && (e[-1] == ' ' || e[-1] == '\t'))
                *--e = 0;
            if (*start) {
                if (n == max)
                    return -1;
                out[n++] = start;
            }
            if (end)
                break;
            start = p + 1;
        }
    }
    return n;
}

static bool is_insn_line(const char *l)
{
    if (*l != '\t' && *l != ' ')
        return false;
    while (*l == '\t' || *l == ' ')
        l++;
    if (!*l || *l == '.' || *l == '#')
        return false;
    const char *c = strchr(l, ':');
    const char *sp = l + strcspn(l, " \t");
    if (c && c < sp)
        return false; /* a label */
    return isalpha((unsigned char)*l);
}

static void parse_insn(func *F, int line, insn *in)
{
    memset(in, 0, sizeof *in);
    in->line = line;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", F->lines[line]);
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = 0;
    char *p = buf;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t ml = strcspn(p, " \t");
    if (ml >= sizeof in->mn)
        ml = sizeof in->mn - 1;
    memcpy(in->mn, p, ml);
    in->mn[ml] = 0;
    p += strcspn(p, " \t");
    char *ops[4];
    int n = split_ops(p, ops, 3);
    classify(in);
    if (n < 0) {
        in->cls = C_UNK;
        n = 0;
    }
    in->nops = n;
    for (int i = 0; i < n; i++)
        if (parse_operand(ops[i], &in->op[i]) < 0)
            in->cls = C_UNK;
    if (in->cls == C_CMOV && n == 2)
        in->width = in->op[1].width;
    if ((in->cls == C_XCHG || in->cls == C_ADCX || in->cls == C_ADOX || in->cls == C_MULX) && n >= 1 &&
        in->op[n - 1].k == O_REG)
        in->width = in->op[n - 1].width;
    if (in->cls == C_MULX && (n != 3 || in->op[1].k != O_REG || in->op[2].k != O_REG))
        in->cls = C_UNK;
    if ((in->cls == C_ALU || in->cls == C_MOV || in->cls == C_MOVX || in->cls == C_LEA || in->cls == C_CMP ||
         in->cls == C_XCHG || in->cls == C_ADCX || in->cls == C_ADOX || in->cls == C_CMOV) && n != 2)
        in->cls = C_UNK;
    if (in->cls == C_SHD && n != 3)
        in->cls = C_UNK;
    if ((in->cls == C_MUL || in->cls == C_NEG || in->cls == C_NOT || in->cls == C_SETCC || in->cls == C_PUSH ||
         in->cls == C_POP) && n != 1)
        in->cls = C_UNK;
    for (int i = 0; i < n; i++)
        if (in->op[i].k == O_REG && in->op[i].high8)
            in->cls = C_UNK;
    effects(in);
}

/* ---- analyses ------------------------------------------------------------------------------------------------ */

static void liveness(func *F)
{
    uint32_t live = 0;
    int flive = 0;
    for (int i = F->n - 1; i >= 0; i--) {
        insn *in = &F->v[i];
        if (in->cls == C_RET) {
            live = 0;
            flive = 0;
        }
        F->live_out[i] = live;
        F->flive_out[i] = flive;
        live = (live & ~in->def) | in->use;
        flive = (flive & ~in->fdef) | in->fuse;
        F->live_in[i] = live;
        F->flive_in[i] = flive;
    }
}

static unsigned next_id = 1;

static aval mk(vkind k)
{
    aval a = { k, -1, 0, 0, false };
    if (k == V_DATA)
        a.id = next_id++;
    return a;
}

/* the address's stack offset (from entry rsp) when it is rsp-based (or a register holding a stack pointer) */
static bool stack_addr(const fstate *s, const opnd *o, int64_t *off)
{
    if (o->k != O_MEM || o->index != NOREG || o->base == NOREG || o->base >= 16 || o->sym)
        return false;
    if (s->r[o->base].k != V_STACK)
        return false;
    *off = s->r[o->base].off + o->disp;
    return true;
}

static int slot_of(int64_t off)
{
    if (off >= 0 || off < -8 * NSLOT)
        return -1;
    return (int)((-off - 1) / 8);
}

static void mark_written(fstate *s, int64_t off, int size, const aval *v)
{
    for (int64_t b = off; b < off + size; b += 8) {
        int k = slot_of(b);
        if (k < 0)
            continue;
        s->written[k / 8] |= (uint8_t)(1u << (k % 8));
        s->slot[k] = (size == 8 && v && (off % 8) == 0) ? *v : mk(V_DATA);
    }
}

static bool slot_written(const fstate *s, int64_t off)
{
    int k = slot_of(off);
    return k >= 0 && (s->written[k / 8] >> (k % 8)) & 1;
}

/* the operand holds a wide value (a register, or a stack slot, as tracked) */
static bool operand_wide(const fstate *s, const opnd *o)
{
    int64_t off;
    if (o->k == O_REG && o->reg < 32)
        return s->r[o->reg].k == V_DATA && s->r[o->reg].wide;
    if (stack_addr(s, o, &off) && off % 8 == 0 && slot_written(s, off))
        return s->slot[slot_of(off)].k == V_DATA && s->slot[slot_of(off)].wide;
    return false;
}

static void forward(func *F)
{
    fstate s;
    memset(&s, 0, sizeof s);
    for (int r = 0; r < 32; r++)
        s.r[r] = mk(V_ENTRY);
    for (int k = 0; k < F->nargs && k < 6; k++) {
        s.r[argreg[k]].k = V_PTR;
        s.r[argreg[k]].arg = k;
        s.r[argreg[k]].off = 0;
    }
    s.r[RSP].k = V_STACK;
    s.r[RSP].off = 0;
    for (int i = 0; i < F->n; i++) {
        F->st[i] = s;
        insn *in = &F->v[i];
        opnd *d = in->nops ? &in->op[in->nops - 1] : NULL;
        int64_t off;
        aval v = mk(V_DATA);
        switch (in->cls) {
        case C_MOV:
            if (in->op[0].k == O_REG && in->width == 64 && in->op[0].reg < 32)
                v = s.r[in->op[0].reg];
            else if (in->op[0].k == O_IMM)
                v = mk(V_CONST);
            else if (stack_addr(&s, &in->op[0], &off) && in->width == 64) {
                int k = slot_of(off);
                if (k >= 0 && slot_written(&s, off) && off % 8 == 0)
                    v = s.slot[k];
                if (off >= 8 && off % 8 == 0) { /* a stack argument: pointer 7, 8, ... */
                    v = mk(V_PTR);
                    v.arg = 6 + (int)((off - 8) / 8);
                    v.off = 0;
                }
            }
            if (d->k == O_REG)
                s.r[d->reg] = (d->width >= 32) ? v : mk(V_DATA);
            else if (stack_addr(&s, d, &off))
                mark_written(&s, off, in->width ? in->width / 8 : 8, in->width == 64 ? &v : NULL);
            break;
        case C_LEA:
            if (in->op[0].base != NOREG && in->op[0].base < 16 && in->op[0].index == NOREG &&
                (s.r[in->op[0].base].k == V_PTR || s.r[in->op[0].base].k == V_STACK)) {
                v = s.r[in->op[0].base];
                v.off += in->op[0].disp;
            }
            s.r[d->reg] = v;
            break;
        case C_PUSH:
            s.r[RSP].off -= 8;
            if (in->op[0].k == O_REG)
                v = s.r[in->op[0].reg];
            mark_written(&s, s.r[RSP].off, 8, &v);
            break;
        case C_POP:
            if (slot_of(s.r[RSP].off) >= 0 && slot_written(&s, s.r[RSP].off))
                v = s.slot[slot_of(s.r[RSP].off)];
            s.r[RSP].off += 8;
            if (d->k == O_REG)
                s.r[d->reg] = v;
            break;
        case C_ALU:
            if (d->k == O_REG && d->reg == RSP && in->op[0].k == O_IMM &&
                (!strcmp(in->base, "sub") || !strcmp(in->base, "add"))) {
                s.r[RSP].off += !strcmp(in->base, "sub") ? -in->op[0].imm : in->op[0].imm;
                break;
            }
            /* fall through */
        default:
            if (in->cls == C_UNK)
                for (int r = 0; r < 32; r++)
                    if (r != RSP)
                        s.r[r] = mk(V_DATA);
            for (int r = 0; r < 32; r++)
                if ((in->def >> r & 1) && r != RSP && in->cls != C_UNK)
                    s.r[r] = mk(V_DATA);
            if (in->cls == C_ALU && in->nops == 2 && in->op[0].k == O_REG && d->k == O_REG &&
                in->op[0].reg == d->reg && d->reg < 16 && in->width >= 32 &&
                (!strcmp(in->base, "xor") || !strcmp(in->base, "sub")))
                s.r[d->reg] = mk(V_CONST); /* the zero idiom */
            if (in->cls == C_MUL && in->width == 64)
                s.r[RAX].wide = true;
            if (in->cls == C_MULX)
                s.r[in->op[1].reg].wide = true;
            if (in->cls == C_ALU && d->k == O_REG && d->reg < 16 && in->width == 64 &&
                (!strcmp(in->base, "add") || !strcmp(in->base, "adc") || !strcmp(in->base, "sub") ||
                 !strcmp(in->base, "sbb") || !strcmp(in->base, "xor")))
                s.r[d->reg].wide = F->st[i].r[d->reg].wide || operand_wide(&F->st[i], &in->op[0]);
            if (in->cls == C_XCHG && in->op[0].k == O_REG && d->k == O_REG && in->width == 64) {
                aval t = F->st[i].r[in->op[0].reg];
                s.r[in->op[0].reg] = F->st[i].r[d->reg];
                s.r[d->reg] = t;
            }
            if (in->mwrite && d && stack_addr(&s, d, &off))
                mark_written(&s, off, in->width ? in->width / 8 : 8, NULL);
            break;
        }
    }
    F->st[F->n] = s;
}

/* ---- sites --------------------------------------------------------------------------------------------------- */

#define MAXSITES 2

/* of the m applicable sites in idx, the first and the middle one */
static int pick(int m, int *out)
{
    if (m == 0)
        return 0;
    out[0] = 0;
    if (m == 1 || MAXSITES < 2)
        return 1;
    out[1] = m / 2 > 0 ? m / 2 : 1;
    return out[1] < m ? 2 : 1;
}

/* a caller-saved register free to clobber: dead in mask `live`, not in `avoid`, not an argument register in use,
 * not named in the body (so renaming variants do not collide) when possible */
static int free_reg(const func *F, uint32_t live, uint32_t avoid)
{
    static const int order[] = { R11, R10, R9, R8, RCX, RSI, RDI, RAX, RDX };
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            int r = order[i];
            if ((live | avoid) & bit(r))
                continue;
            if (pass == 0 && (F->used & bit(r)))
                continue;
            return r;
        }
    return NOREG;
}

static uint32_t insn_regs(const insn *in)
{
    uint32_t m = in->use | in->def;
    for (int i = 0; i < in->nops; i++)
        if (in->op[i].k == O_REG)
            m |= bit(in->op[i].reg);
    return m;
}

static bool is_data(const aval *a)
{
    return a->k == V_DATA;
}

/* the instruction index of the last flag writer before i (-1 when none) */
static int last_fdef(const func *F, int i)
{
    for (int j = i - 1; j >= 0; j--)
        if (F->v[j].fdef)
            return j;
    return -1;
}

/* instruction j adds two wide values (its carry and overflow are far from constant) */
static bool add_of_wide(const func *F, int j)
{
    if (j < 0)
        return false;
    const insn *in = &F->v[j];
    if (in->cls != C_ALU || strcmp(in->base, "add") || in->width != 64)
        return false;
    return operand_wide(&F->st[j], &in->op[0]) && operand_wide(&F->st[j], &in->op[1]);
}

/* "(%rdi)" style text of operand o */
static const char *otext(const opnd *o)
{
    return o->text;
}

static int array_of_addr(const fstate *s, const opnd *o)
{
    if (o->k != O_MEM || o->base == NOREG || o->base >= 16)
        return -1;
    return s->r[o->base].k == V_PTR ? s->r[o->base].arg : -1;
}

static int reg_holding_arg(const fstate *s, int arg)
{
    static const int order[] = { RDI, RSI, RDX, RCX, R8, R9, RAX, RBX, RBP, R10, R11, R12, R13, R14, R15 };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (s->r[order[i]].k == V_PTR && s->r[order[i]].arg == arg && s->r[order[i]].off == 0)
            return order[i];
    return NOREG;
}

static void gen_variants(func *F)
{
    int idx[4096], m, sel[MAXSITES], k;
    int n = F->n < 4096 ? F->n : 4096;
    int first = 0; /* insert after the prologue's pushes is not needed: any point works */
    (void)first;

    /* nop */
    m = 0;
    for (int i = 0; i < n; i++)
        if (i <= F->last_ret)
            idx[m++] = i;
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        cand *c = new_cand("nop", "proved", "a nop before instruction %d", idx[sel[s]]);
        add_edit(c, idx[sel[s]], 0, "\tnop\n");
    }

    /* dead mov into a free register */
    m = 0;
    for (int i = 0; i <= F->last_ret && i < n; i++) {
        int t = free_reg(F, F->live_in[i], 0);
        if (t == NOREG)
            continue;
        for (int r = 0; r < 16; r++)
            if (r != t && r != RSP && (F->live_in[i] & bit(r)) && is_data(&F->st[i].r[r])) {
                idx[m++] = i;
                break;
            }
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]], t = free_reg(F, F->live_in[i], 0), r;
        for (r = 0; r < 16; r++)
            if (r != t && r != RSP && (F->live_in[i] & bit(r)) && is_data(&F->st[i].r[r]))
                break;
        cand *c = new_cand("dead-mov", "proved", "movq %%%s, %%%s (dead) before instruction %d", n64[r], n64[t], i);
        add_edit(c, i, 0, "\tmovq\t%%%s, %%%s\n", n64[r], n64[t]);
    }

    /* rename two caller-saved registers (no implicit role, not live at entry) throughout */
    {
        static const int cs[] = { R8, R9, R10, R11, RSI, RDI };
        int pa[64], pb[64];
        m = 0;
        for (size_t a = 0; a < 6; a++)
            for (size_t b = a + 1; b < 6; b++) {
                int ra = cs[a], rb = cs[b];
                if ((F->live_in[0] & (bit(ra) | bit(rb))) || !(F->used & (bit(ra) | bit(rb))))
                    continue;
                pa[m] = ra;
                pb[m] = rb;
                m++;
            }
        k = pick(m, sel);
        for (int s = 0; s < k; s++) {
            cand *c = new_cand("rename", "proved", "swap the names %%%s and %%%s throughout", n64[pa[sel[s]]],
                               n64[pb[sel[s]]]);
            c->ren_a = pa[sel[s]];
            c->ren_b = pb[sel[s]];
        }
        /* callee-saved ones that are both pushed (and so popped) */
        static const int ce[] = { RBX, RBP, R12, R13, R14, R15 };
        m = 0;
        for (size_t a = 0; a < 6; a++)
            for (size_t b = a + 1; b < 6; b++)
                if ((F->pushed & bit(ce[a])) && (F->pushed & bit(ce[b]))) {
                    pa[m] = ce[a];
                    pb[m] = ce[b];
                    m++;
                }
        k = pick(m, sel);
        for (int s = 0; s < k; s++) {
            cand *c = new_cand("rename-saved", "proved", "swap the names %%%s and %%%s (both saved) throughout",
                               n64[pa[sel[s]]], n64[pb[sel[s]]]);
            c->ren_a = pa[sel[s]];
            c->ren_b = pb[sel[s]];
        }
    }

    /* swap two adjacent independent instructions */
    m = 0;
    for (int i = 0; i + 1 <= F->last_ret - 1 && i + 1 < n; i++) {
        const insn *a = &F->v[i], *b = &F->v[i + 1];
        if (a->cls == C_UNK || b->cls == C_UNK || a->cls == C_PUSH || a->cls == C_POP || b->cls == C_PUSH ||
            b->cls == C_POP || a->cls == C_RET || b->cls == C_RET || a->cls == C_NOP || b->cls == C_NOP)
            continue;
        if ((a->def & (b->use | b->def)) || (b->def & (a->use | a->def)))
            continue;
        if ((a->fdef & (b->fuse | b->fdef)) || (b->fdef & (a->fuse | a->fdef)))
            continue;
        if ((a->mwrite && (b->mread || b->mwrite)) || (b->mwrite && (a->mread || a->mwrite)))
            continue;
        if (F->v[i].line + 1 != F->v[i + 1].line)
            continue; /* something (a label, a directive) between them */
        idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        cand *c = new_cand("swap-adjacent", "proved", "swap instructions %d and %d", i, i + 1);
        add_edit(c, i, 1, "%s\n", F->lines[F->v[i + 1].line]);
        add_edit(c, i + 1, 1, "%s\n", F->lines[F->v[i].line]);
    }

    /* commutative operands swapped through a free register: op S, D -> mov S, t; op D, t; mov t, D */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        bool comm = (in->cls == C_ALU && (!strcmp(in->base, "add") || !strcmp(in->base, "adc") ||
                                          !strcmp(in->base, "and") || !strcmp(in->base, "or") ||
                                          !strcmp(in->base, "xor"))) ||
                    (in->cls == C_IMUL && in->nops == 2);
        if (!comm || in->width != 64 || in->op[1].k != O_REG || in->op[0].k == O_IMM || in->op[1].reg == RSP ||
            (in->op[0].k == O_REG && in->op[0].reg == in->op[1].reg))
            continue;
        if (free_reg(F, F->live_out[i], insn_regs(in)) == NOREG)
            continue;
        idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        int t = free_reg(F, F->live_out[i], insn_regs(in));
        cand *c = new_cand("commute", "proved", "%s %s, %s computed as %s %s, %%%s via %%%s (instruction %d)", in->mn,
                           otext(&in->op[0]), otext(&in->op[1]), in->mn, otext(&in->op[1]), n64[t], n64[t], i);
        add_edit(c, i, 1, "\tmovq\t%s, %%%s\n\t%s\t%s, %%%s\n\tmovq\t%%%s, %s\n", otext(&in->op[0]), n64[t], in->mn,
                 otext(&in->op[1]), n64[t], n64[t], otext(&in->op[1]));
    }

    /* mul -> mulx (flags dead after; rdx free to take rax's copy) */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        if (in->cls != C_MUL || in->width != 64 || F->flive_out[i])
            continue;
        if (in->op[0].k == O_MEM && (addr_regs(&in->op[0]) & bit(RDX)))
            continue;
        idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        cand *c = new_cand("mulx", "proved", "%s %s as mulx (instruction %d)", in->mn, otext(&in->op[0]), i);
        if (in->op[0].k == O_REG && in->op[0].reg == RDX)
            add_edit(c, i, 1, "\tmulxq\t%%rax, %%rax, %%rdx\n");
        else
            add_edit(c, i, 1, "\tmovq\t%%rax, %%rdx\n\tmulxq\t%s, %%rax, %%rdx\n", otext(&in->op[0]));
    }

    /* adc -> adcx (only CF read afterwards) */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        if (in->cls != C_ALU || strcmp(in->base, "adc") || in->width != 64 || in->op[0].k == O_IMM ||
            in->op[1].k != O_REG || (F->flive_out[i] & ~F_CF))
            continue;
        idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        cand *c = new_cand("adcx", "proved", "adcq %s, %s as adcx (instruction %d)", otext(&in->op[0]),
                           otext(&in->op[1]), i);
        add_edit(c, i, 1, "\tadcxq\t%s, %s\n", otext(&in->op[0]), otext(&in->op[1]));
    }

    /* add -> lea (flags dead after) */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        if (in->cls != C_ALU || strcmp(in->base, "add") || in->width != 64 || in->op[1].k != O_REG ||
            in->op[1].reg == RSP || F->flive_out[i])
            continue;
        if (in->op[0].k == O_REG ? in->op[0].reg == RSP
                                 : !(in->op[0].k == O_IMM && !in->op[0].sym && in->op[0].imm >= INT32_MIN &&
                                     in->op[0].imm <= INT32_MAX))
            continue;
        idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        cand *c = new_cand("lea", "proved", "addq %s, %s as lea (instruction %d)", otext(&in->op[0]),
                           otext(&in->op[1]), i);
        if (in->op[0].k == O_REG)
            add_edit(c, i, 1, "\tleaq\t(%s,%s), %s\n", otext(&in->op[1]), otext(&in->op[0]), otext(&in->op[1]));
        else
            add_edit(c, i, 1, "\tleaq\t%lld(%s), %s\n", (long long)in->op[0].imm, otext(&in->op[1]),
                     otext(&in->op[1]));
    }

    /* spill through xmm15 around a stretch that does not touch the register, which is clobbered meanwhile */
    if (!(F->used & bit(XMM0 + 15))) {
        int js[4096];
        m = 0;
        for (int i = 0; i < n && i < F->last_ret; i++) {
            const insn *in = &F->v[i];
            int r;
            for (r = 0; r < 16; r++)
                if (r != RSP && (F->live_in[i] & bit(r)) && is_data(&F->st[i].r[r]) && !(insn_regs(in) & bit(r)))
                    break;
            if (r == 16 || in->cls == C_UNK)
                continue;
            int j = i + 1;
            while (j < F->last_ret && j < i + 8 && !(insn_regs(&F->v[j]) & bit(r)) && F->v[j].cls != C_UNK)
                j++;
            js[m] = j * 16 + r;
            idx[m++] = i;
        }
        k = pick(m, sel);
        for (int s = 0; s < k; s++) {
            int i = idx[sel[s]], j = js[sel[s]] / 16, r = js[sel[s]] % 16;
            cand *c = new_cand("xmm-spill", "proved",
                               "%%%s spilled to %%xmm15 before instruction %d, clobbered, restored before %d", n64[r],
                               i, j);
            add_edit(c, i, 0, "\tmovq\t%%%s, %%xmm15\n\tmovl\t$1515870810, %%%s\n", n64[r], n32[r]);
            add_edit(c, j, 0, "\tmovq\t%%xmm15, %%%s\n", n64[r]);
        }
    }

    /* mov -> xchg when the source is dead afterwards */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        if (in->cls != C_MOV || strcmp(in->mn, "movq") || in->op[0].k != O_REG || in->op[1].k != O_REG ||
            in->op[0].reg >= 16 || in->op[1].reg >= 16 || in->op[0].reg == in->op[1].reg ||
            in->op[0].reg == RSP || in->op[1].reg == RSP || (F->live_out[i] & bit(in->op[0].reg)))
            continue;
        idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        cand *c = new_cand("xchg", "proved", "movq %s, %s as xchg (source dead; instruction %d)", otext(&in->op[0]),
                           otext(&in->op[1]), i);
        add_edit(c, i, 1, "\txchgq\t%s, %s\n", otext(&in->op[0]), otext(&in->op[1]));
    }

    /* xor r, r <-> mov $0, r (flags dead after) */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        bool x = in->cls == C_ALU && !strcmp(in->base, "xor") && in->op[0].k == O_REG && in->op[1].k == O_REG &&
                 in->op[0].reg == in->op[1].reg && in->width >= 32 && in->op[0].reg < 16;
        bool z = in->cls == C_MOV && in->op[0].k == O_IMM && !in->op[0].sym && in->op[0].imm == 0 &&
                 in->op[1].k == O_REG && in->op[1].reg < 16 && in->width >= 32;
        if ((x || z) && !F->flive_out[i])
            idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        int r = in->op[1].reg;
        if (in->cls == C_ALU) {
            cand *c = new_cand("zero", "proved", "xor %%%s, %%%s as movl $0 (instruction %d)", n32[r], n32[r], i);
            add_edit(c, i, 1, "\tmovl\t$0, %%%s\n", n32[r]);
        } else {
            cand *c = new_cand("zero", "proved", "mov $0 as xorl %%%s, %%%s (instruction %d)", n32[r], n32[r], i);
            add_edit(c, i, 1, "\txorl\t%%%s, %%%s\n", n32[r], n32[r]);
        }
    }
}

static void gen_mutants(func *F)
{
    int idx[4096], m, sel[MAXSITES], k;
    int n = F->n < 4096 ? F->n : 4096;
    int ret = F->last_ret;
    const char *OD = "output-differs";

    /* swapped operand of a non-commutative operation, through a free register */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        bool ok = false;
        if (in->cls == C_ALU && (!strcmp(in->base, "sub") || !strcmp(in->base, "sbb")) && in->width == 64 &&
            in->op[1].k == O_REG && in->op[0].k != O_IMM && in->op[1].reg != RSP)
            ok = !(in->op[0].k == O_REG && in->op[0].reg == in->op[1].reg) &&
                 is_data(&F->st[i].r[in->op[1].reg]) &&
                 (in->op[0].k != O_REG || is_data(&F->st[i].r[in->op[0].reg]));
        if (in->cls == C_SHD && in->width == 64 && in->op[1].k == O_REG && in->op[2].k == O_REG &&
            in->op[1].reg != in->op[2].reg)
            ok = true;
        if (!ok || free_reg(F, F->live_out[i], insn_regs(in)) == NOREG)
            continue;
        idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        int t = free_reg(F, F->live_out[i], insn_regs(in));
        cand *c = new_cand("swapped-operand", OD, "operands of %s swapped (instruction %d, via %%%s)", in->mn, i,
                           n64[t]);
        if (in->cls == C_SHD)
            add_edit(c, i, 1, "\tmovq\t%s, %%%s\n\t%s\t%s, %s, %%%s\n\tmovq\t%%%s, %s\n", otext(&in->op[1]), n64[t],
                     in->mn, otext(&in->op[0]), otext(&in->op[2]), n64[t], n64[t], otext(&in->op[2]));
        else
            add_edit(c, i, 1, "\tmovq\t%s, %%%s\n\t%s\t%s, %%%s\n\tmovq\t%%%s, %s\n", otext(&in->op[0]), n64[t],
                     in->mn, otext(&in->op[1]), n64[t], n64[t], otext(&in->op[1]));
    }

    /* dropped carry: adc -> add, where the carry comes from adding two wide values and the sum is used (not only
     * its carry out, which the carry in changes only when the operands add up to 2^64 - 1) */
    m = 0;
    for (int i = 0; i < n; i++)
        if (F->v[i].cls == C_ALU && !strcmp(F->v[i].base, "adc") && add_of_wide(F, last_fdef(F, i)) &&
            F->v[i].op[1].k == O_REG && (F->live_out[i] & bit(F->v[i].op[1].reg)))
            idx[m++] = i;
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        cand *c = new_cand("dropped-carry", OD, "%s as add (instruction %d)", in->mn, i);
        add_edit(c, i, 1, "\tadd%c\t%s, %s\n", in->mn[3], otext(&in->op[0]), otext(&in->op[1]));
    }

    /* carry from the wrong flag: setb -> seto, adc -> adox, after an add (where OF and CF differ) */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        if (!add_of_wide(F, last_fdef(F, i)))
            continue;
        if (in->cls == C_SETCC && in->cc_flags == F_CF && (!strcmp(in->mn, "setb") || !strcmp(in->mn, "setc")))
            idx[m++] = i;
        else if (in->cls == C_ALU && !strcmp(in->base, "adc") && in->width == 64 && in->op[0].k != O_IMM &&
                 in->op[1].k == O_REG && (F->live_out[i] & bit(in->op[1].reg)))
            idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        cand *c = new_cand("wrong-flag", OD, "%s reads OF instead of CF (instruction %d)", in->mn, i);
        if (in->cls == C_SETCC)
            add_edit(c, i, 1, "\tseto\t%s\n", otext(&in->op[0]));
        else
            add_edit(c, i, 1, "\tadoxq\t%s, %s\n", otext(&in->op[0]), otext(&in->op[1]));
    }

    /* dropped product */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        if ((in->cls == C_MUL && in->width == 64 && !(in->op[0].k == O_MEM && (addr_regs(&in->op[0]) & bit(RAX)))) ||
            (in->cls == C_IMUL && in->nops >= 2 && in->width == 64))
            idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        cand *c = new_cand("dropped-product", OD, "%s dropped: the operand instead of the product (instruction %d)",
                           in->mn, i);
        if (in->cls == C_MUL)
            add_edit(c, i, 1, "\tmovq\t%s, %%rax\n\tmovl\t$0, %%edx\n", otext(&in->op[0]));
        else if (in->nops == 3)
            add_edit(c, i, 1, "\tmovq\t%s, %s\n", otext(&in->op[1]), otext(&in->op[2]));
        else
            add_edit(c, i, 1, "\t# %s dropped\n", in->mn);
    }

    /* wrong shift count (immediate count, flags dead after) */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        /* not sar $63: on a mask (0 or -1, the usual reason for it) sar $62 gives the same */
        if ((in->cls == C_SHIFT || in->cls == C_SHD) && in->nops >= 2 && in->op[0].k == O_IMM && !in->op[0].sym &&
            in->op[0].imm > 0 && in->op[0].imm < in->width && !F->flive_out[i] &&
            !(in->cls == C_SHIFT && !strcmp(in->base, "sar") && in->op[0].imm == in->width - 1))
            idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        long long kk = in->op[0].imm, nk = kk >= 2 ? kk - 1 : kk + 1;
        cand *c = new_cand("wrong-shift", OD, "%s by %lld instead of %lld (instruction %d)", in->mn, nk, kk, i);
        if (in->nops == 3)
            add_edit(c, i, 1, "\t%s\t$%lld, %s, %s\n", in->mn, nk, otext(&in->op[1]), otext(&in->op[2]));
        else
            add_edit(c, i, 1, "\t%s\t$%lld, %s\n", in->mn, nk, otext(&in->op[1]));
    }

    /* missing reload: a 64-bit load of a spilled data value into a register that holds another computed value */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        int64_t off;
        if (in->cls != C_MOV || strcmp(in->mn, "movq") || in->op[1].k != O_REG || in->op[1].reg >= 16 ||
            !stack_addr(&F->st[i], &in->op[0], &off) || off % 8 || !slot_written(&F->st[i], off))
            continue;
        const aval *sv = &F->st[i].slot[slot_of(off)], *rv = &F->st[i].r[in->op[1].reg];
        if (sv->k == V_DATA && rv->k == V_DATA && sv->id != rv->id && (F->live_out[i] & bit(in->op[1].reg)))
            idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        const insn *in = &F->v[i];
        cand *c = new_cand("missing-reload", OD, "reload %s -> %s removed (instruction %d)", otext(&in->op[0]),
                           otext(&in->op[1]), i);
        add_edit(c, i, 1, "\t# reload removed\n");
    }

    if (ret >= 0) {
        /* clobbered callee-saved register */
        static const int ce[2] = { RBX, R15 };
        for (int s = 0; s < 2; s++) {
            cand *c = new_cand("callee-saved", "callee-saved", "movq $1, %%%s before ret", n64[ce[s]]);
            add_edit(c, ret, 0, "\tmovq\t$1, %%%s\n", n64[ce[s]]);
        }
        /* unbalanced stack */
        cand *c = new_cand("stack-unbalanced", "stack-unbalanced", "an extra pushq $0 before ret");
        add_edit(c, ret, 0, "\tpushq\t$0\n");
        c = new_cand("stack-unbalanced", "stack-unbalanced", "subq $8, %%rsp before ret");
        add_edit(c, ret, 0, "\tsubq\t$8, %%rsp\n");
    }

    /* out-of-bounds stores, at entry */
    {
        cand *c = new_cand("memory-bounds", "memory-bounds", "movq $0, -200(%%rsp) at entry (below the red zone)");
        add_edit(c, 0, 0, "\tmovq\t$0, -200(%%rsp)\n");
        c = new_cand("memory-bounds", "memory-bounds", "movq $0, -8(%%rdi) at entry (before out1)");
        add_edit(c, 0, 0, "\tmovq\t$0, -8(%%rdi)\n");
    }

    /* store to an input, at entry */
    if (F->nargs > F->nout) {
        int a1 = F->nout, a2 = F->nargs - 1 < 6 ? F->nargs - 1 : 5;
        if (a1 < 6) {
            cand *c = new_cand("store-input", "store-input", "movq $0, (%%%s) at entry (input argument %d)",
                               n64[argreg[a1]], a1 + 1);
            add_edit(c, 0, 0, "\tmovq\t$0, (%%%s)\n", n64[argreg[a1]]);
            if (a2 >= a1) {
                c = new_cand("store-input", "store-input", "movq $0, 8(%%%s) at entry (input argument %d)",
                             n64[argreg[a2]], a2 + 1);
                add_edit(c, 0, 0, "\tmovq\t$0, 8(%%%s)\n", n64[argreg[a2]]);
            }
        }
    }

    /* aliasing: a store to out1 that a later load of an input sees when out1 is that input (the case out1 == argK
     * then differs; disjoint buffers do not notice: the real store comes later) */
    if (F->alias && F->nargs > F->nout) {
        cand *c = new_cand("alias", "output-differs", "movq $0, (%%rdi) at entry, before every load of an input");
        add_edit(c, 0, 0, "\tmovq\t$0, (%%rdi)\n");
        int last = -1, lastop = -1;
        for (int i = 0; i < n; i++)
            for (int o = 0; o < F->v[i].nops; o++) {
                int a = array_of_addr(&F->st[i], &F->v[i].op[o]);
                if (a >= F->nout && F->v[i].mread && F->v[i].op[o].index == NOREG) {
                    last = i;
                    lastop = o;
                }
            }
        int r = last >= 0 ? reg_holding_arg(&F->st[last], 0) : NOREG;
        if (last > 0 && r != NOREG) {
            const opnd *lo = &F->v[last].op[lastop];
            long long off = (long long)lo->disp + F->st[last].r[lo->base].off;
            if (off >= 0 && off % 8 == 0) {
                c = new_cand("alias", "output-differs",
                             "movq $0, %lld(%%%s) (out1) before the last input load, of that limb (instruction %d)", off,
                             n64[r], last);
                add_edit(c, last, 0, "\tmovq\t$0, %lld(%%%s)\n", off, n64[r]);
            }
        }
    }

    /* a branch */
    {
        cand *c = new_cand("branch", "branch", "jmp 1f; 1: after the first instruction");
        add_edit(c, 0, 2, "\tjmp\t1f\n1:\n");
        m = 0;
        for (int i = 0; i < n && i < ret; i++)
            if (F->v[i].fdef & F_OT)
                idx[m++] = i;
        if (m) {
            int i = idx[m / 2];
            c = new_cand("branch", "branch", "jne 1f; 1: after instruction %d", i);
            add_edit(c, i, 2, "\tjne\t1f\n1:\n");
        }
    }

    /* a data-dependent address: after a mul, load through rdx (data) */
    m = 0;
    for (int i = 0; i < n; i++) {
        const insn *in = &F->v[i];
        if (in->cls == C_MUL && in->width == 64 && free_reg(F, F->live_out[i], bit(RDX) | bit(RAX)) != NOREG)
            idx[m++] = i;
    }
    k = pick(m, sel);
    for (int s = 0; s < k; s++) {
        int i = idx[sel[s]];
        int t = free_reg(F, F->live_out[i], bit(RDX) | bit(RAX));
        int p = NOREG;
        for (int a = F->nout; a < F->nargs && p == NOREG; a++)
            p = reg_holding_arg(&F->st[i + 1], a);
        cand *c;
        if (p != NOREG) {
            c = new_cand("data-address", "data-address", "movq (%%%s,%%rdx,8), %%%s after the mul at %d", n64[p],
                         n64[t], i);
            add_edit(c, i, 2, "\tmovq\t(%%%s,%%rdx,8), %%%s\n", n64[p], n64[t]);
        } else {
            c = new_cand("data-address", "data-address", "movq (%%rdx), %%%s after the mul at %d", n64[t], i);
            add_edit(c, i, 2, "\tmovq\t(%%rdx), %%%s\n", n64[t]);
        }
    }

    /* a division */
    {
        cand *c = new_cand("division", "division", "divq %%rcx at entry");
        add_edit(c, 0, 0, "\tdivq\t%%rcx\n");
        c = new_cand("division", "division", "divq %%r11 before instruction %d", n / 2);
        add_edit(c, n / 2, 0, "\tdivq\t%%r11\n");
    }

    /* an unknown instruction */
    {
        cand *c = new_cand("unknown-insn", "unknown-insn", "vpaddq %%xmm0, %%xmm1, %%xmm2 at entry");
        add_edit(c, 0, 0, "\tvpaddq\t%%xmm0, %%xmm1, %%xmm2\n");
        c = new_cand("unknown-insn", "unknown-insn", "rdrand %%r11 before instruction %d", n / 2);
        add_edit(c, n / 2, 0, "\trdrand\t%%r11\n");
    }

    /* a read of a stack slot never written */
    {
        int t = free_reg(F, F->live_in[0], 0);
        if (t != NOREG) {
            cand *c = new_cand("stack-unwritten", "stack-unwritten", "movq -64(%%rsp), %%%s at entry", n64[t]);
            add_edit(c, 0, 0, "\tmovq\t-64(%%rsp), %%%s\n", n64[t]);
        }
        if (ret > 0) {
            const fstate *s = &F->st[ret];
            int64_t rsp = s->r[RSP].off, found = 1;
            for (int64_t off = rsp - 8; off >= rsp - 128; off -= 8)
                if (!slot_written(s, off)) {
                    found = off;
                    break;
                }
            int t2 = free_reg(F, F->live_in[ret], 0);
            if (found <= 0 && t2 != NOREG && s->r[RSP].k == V_STACK) {
                cand *c = new_cand("stack-unwritten", "stack-unwritten", "movq %lld(%%rsp), %%%s before ret",
                                   (long long)(found - rsp), n64[t2]);
                add_edit(c, ret, 0, "\tmovq\t%lld(%%rsp), %%%s\n", (long long)(found - rsp), n64[t2]);
            }
        }
    }
}

/* ---- input and output ---------------------------------------------------------------------------------------- */

static void read_lines(func *F, const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        die("%s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int capl = 0;
    while ((len = getline(&line, &cap, fp)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (F->nlines == capl) {
            capl = capl ? 2 * capl : 1024;
            F->lines = xrealloc(F->lines, (size_t)capl * sizeof *F->lines);
        }
        F->lines[F->nlines] = strdup(line);
        if (!F->lines[F->nlines])
            die("out of memory");
        F->nlines++;
    }
    free(line);
    if (ferror(fp))
        die("%s: read error", path);
    fclose(fp);
}

static void find_body(func *F, const char *sym, const char *path)
{
    size_t sl = strlen(sym);
    F->body_lo = -1;
    for (int i = 0; i < F->nlines; i++) {
        const char *l = F->lines[i];
        if (!strncmp(l, sym, sl) && l[sl] == ':') {
            F->body_lo = i + 1;
            break;
        }
    }
    if (F->body_lo < 0)
        die("%s: no label %s:", path, sym);
    F->body_hi = F->nlines;
    for (int i = F->body_lo; i < F->nlines; i++) {
        const char *l = F->lines[i];
        while (*l == ' ' || *l == '\t')
            l++;
        if (!strncmp(l, ".cfi_endproc", 12) || !strncmp(l, ".size", 5) || (!strncmp(l, ".Lfunc_end", 10)) ||
            (isalpha((unsigned char)F->lines[i][0]) && strchr(F->lines[i], ':'))) {
            F->body_hi = i;
            break;
        }
    }
}

/* write line l with registers ra and rb swapped (every width) */
static void put_renamed(FILE *out, const char *l, int ra, int rb)
{
    for (const char *p = l; *p;) {
        if (*p == '%') {
            const char *q = p + 1;
            while (isalnum((unsigned char)*q))
                q++;
            char name[16];
            size_t nl = (size_t)(q - p - 1);
            if (nl < sizeof name) {
                memcpy(name, p + 1, nl);
                name[nl] = 0;
                int w, h, r = reg_lookup(name, &w, &h);
                if (!h && (r == ra || r == rb) && r != NOREG) {
                    fprintf(out, "%%%s", reg_name(r == ra ? rb : ra, w));
                    p = q;
                    continue;
                }
            }
        }
        fputc(*p++, out);
    }
    fputc('\n', out);
}

static void write_out(const func *F, const cand *c, const char *path)
{
    FILE *out = fopen(path, "w");
    if (!out)
        die("%s: %s", path, strerror(errno));
    int *insn_at = xrealloc(NULL, (size_t)F->nlines * sizeof *insn_at);
    for (int i = 0; i < F->nlines; i++)
        insn_at[i] = -1;
    for (int i = 0; i < F->n; i++)
        insn_at[F->v[i].line] = i;
    for (int l = 0; l < F->nlines; l++) {
        int i = insn_at[l];
        bool replaced = false;
        if (i >= 0)
            for (int e = 0; e < c->ne; e++)
                if (c->e[e].insn == i && c->e[e].mode == 0)
                    fputs(c->e[e].text, out);
        if (i >= 0)
            for (int e = 0; e < c->ne; e++)
                if (c->e[e].insn == i && c->e[e].mode == 1) {
                    fputs(c->e[e].text, out);
                    replaced = true;
                }
        if (!replaced) {
            if (c->ren_a != NOREG && l >= F->body_lo && l < F->body_hi)
                put_renamed(out, F->lines[l], c->ren_a, c->ren_b);
            else
                fprintf(out, "%s\n", F->lines[l]);
        }
        if (i >= 0)
            for (int e = 0; e < c->ne; e++)
                if (c->e[e].insn == i && c->e[e].mode == 2)
                    fputs(c->e[e].text, out);
    }
    free(insn_at);
    if (fclose(out) != 0)
        die("%s: write error", path);
}

static void usage(void)
{
    fprintf(stderr, "usage: ecopt_mutate [--outputs N] [--no-alias] --list FILE.S SYMBOL\n"
                    "       ecopt_mutate [--outputs N] [--no-alias] FILE.S SYMBOL ID -o OUT.S\n");
    exit(2);
}

int main(int argc, char **argv)
{
    bool list = false;
    int nout = 1;
    bool alias = true;
    const char *pos[3] = { NULL, NULL, NULL }, *outpath = NULL;
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list"))
            list = true;
        else if (!strcmp(argv[i], "--no-alias"))
            alias = false;
        else if (!strcmp(argv[i], "--outputs") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 15)
                die("--outputs: expected 1..15, got %s", argv[i]);
            nout = (int)v;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            outpath = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1])
            usage();
        else if (npos < 3)
            pos[npos++] = argv[i];
        else
            usage();
    }
    if (list ? npos != 2 : (npos != 3 || !outpath))
        usage();
    func F;
    memset(&F, 0, sizeof F);
    F.nout = nout;
    F.alias = alias;
    read_lines(&F, pos[0]);
    find_body(&F, pos[1], pos[0]);
    F.v = xrealloc(NULL, (size_t)(F.body_hi - F.body_lo + 1) * sizeof *F.v);
    F.last_ret = -1;
    for (int l = F.body_lo; l < F.body_hi; l++)
        if (is_insn_line(F.lines[l])) {
            parse_insn(&F, l, &F.v[F.n]);
            insn *in = &F.v[F.n];
            for (int o = 0; o < in->nops; o++) {
                if (in->op[o].k == O_REG)
                    F.used |= bit(in->op[o].reg);
                F.used |= addr_regs(&in->op[o]);
            }
            if (in->cls == C_PUSH && in->op[0].k == O_REG)
                F.pushed |= bit(in->op[0].reg);
            if (in->cls == C_RET && F.last_ret < 0)
                F.last_ret = F.n;
            F.n++;
        }
    if (F.n == 0 || F.last_ret < 0)
        die("%s: %s has no instructions or no ret", pos[0], pos[1]);
    F.live_in = xrealloc(NULL, (size_t)F.n * sizeof *F.live_in);
    F.live_out = xrealloc(NULL, (size_t)F.n * sizeof *F.live_out);
    F.flive_in = xrealloc(NULL, (size_t)F.n * sizeof *F.flive_in);
    F.flive_out = xrealloc(NULL, (size_t)F.n * sizeof *F.flive_out);
    F.st = xrealloc(NULL, (size_t)(F.n + 1) * sizeof *F.st);
    liveness(&F);
    /* the pointer arguments: those live at entry among rdi rsi rdx rcx r8 r9, at least the outputs */
    F.nargs = nout;
    for (int k = 0; k < 6; k++)
        if (F.live_in[0] & bit(argreg[k]))
            F.nargs = k + 1 > F.nargs ? k + 1 : F.nargs;
    forward(&F);
    gen_variants(&F);
    gen_mutants(&F);
    int rc = 0;
    if (list) {
        for (int i = 0; i < ncands; i++)
            printf("%s %s %s %s\n", cands[i].id, cands[i].cls, cands[i].expect, cands[i].desc);
    } else {
        int i;
        for (i = 0; i < ncands; i++)
            if (!strcmp(cands[i].id, pos[2]))
                break;
        if (i == ncands) {
            fprintf(stderr, "ecopt_mutate: %s: no edit %s for %s (see --list)\n", pos[0], pos[2], pos[1]);
            rc = 1;
        } else
            write_out(&F, &cands[i], outpath);
    }
    for (int l = 0; l < F.nlines; l++)
        free(F.lines[l]);
    free(F.lines);
    free(F.v);
    free(F.live_in);
    free(F.live_out);
    free(F.flive_in);
    free(F.flive_out);
    free(F.st);
    free(cands);
    return rc;
}
