/* encode.c — emit_asm's AT&T text to machine code with Zydis' encoder, and executable memory (emit/encode.h).
 *
 * One pass over the text: comments, directives and labels are dropped, each instruction line is parsed into a
 * ZydisEncoderRequest (AT&T lists operands in the reverse of Intel's order, the order Zydis takes) and encoded.
 * Where the instruction set offers two encodings of the same text, GNU as's choice must be made (Intel SDM vol. 2,
 * "Instruction Format" and the opcode tables of appendix A; gas's rules in binutils' gas/config/tc-i386.c). Zydis
 * 4.0's encoder, which picks the shortest encoding and the first of equal ones, makes the same choices:
 *  - register-to-register ALU operations, test and mov: the MR form ("op r/m, reg", opcode 01 09 11 19 21 29 31
 *    85 89), the AT&T source in ModRM.reg;
 *  - a shift by the immediate 1: the short D1 form;
 *  - immediates: the sign-extended imm8 form when the value (truncated to the operand size) fits in 8 bits, else
 *    the short accumulator form, else imm32; movl $k, %r32 is B8+r;
 *  - memory operands: no displacement for 0 unless the base is rbp/r13, disp8 when it fits, a SIB byte only when
 *    the base is rsp/r12 or there is an index;
 * except movabs, always REX.W B8+r with a 64-bit immediate, written here. tests/ir/test_emit_encode.c holds every
 * form against gas, so a Zydis that chooses otherwise fails there. Numbers with a leading 0 are refused (gas reads
 * them as octal).
 *
 * Speed: about 0.2-0.35 us per instruction (fiat_p256_mul as emit_asm writes it, 173 instructions: 35-57 us on the
 * 2-core test machine). No global state: calls may run in parallel. */
#define _GNU_SOURCE
#include "emit/encode.h"

#include <Zydis/Zydis.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- registers ---------------------------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    ZydisRegister reg;
    unsigned bits; /* 8 32 64 128 (xmm) */
} reginfo;

static const reginfo REGS[] = {
    { "rax", ZYDIS_REGISTER_RAX, 64 },   { "rcx", ZYDIS_REGISTER_RCX, 64 },   { "rdx", ZYDIS_REGISTER_RDX, 64 },
    { "rbx", ZYDIS_REGISTER_RBX, 64 },   { "rsp", ZYDIS_REGISTER_RSP, 64 },   { "rbp", ZYDIS_REGISTER_RBP, 64 },
    { "rsi", ZYDIS_REGISTER_RSI, 64 },   { "rdi", ZYDIS_REGISTER_RDI, 64 },   { "r8", ZYDIS_REGISTER_R8, 64 },
    { "r9", ZYDIS_REGISTER_R9, 64 },     { "r10", ZYDIS_REGISTER_R10, 64 },   { "r11", ZYDIS_REGISTER_R11, 64 },
    { "r12", ZYDIS_REGISTER_R12, 64 },   { "r13", ZYDIS_REGISTER_R13, 64 },   { "r14", ZYDIS_REGISTER_R14, 64 },
    { "r15", ZYDIS_REGISTER_R15, 64 },   { "eax", ZYDIS_REGISTER_EAX, 32 },   { "ecx", ZYDIS_REGISTER_ECX, 32 },
    { "edx", ZYDIS_REGISTER_EDX, 32 },   { "ebx", ZYDIS_REGISTER_EBX, 32 },   { "esp", ZYDIS_REGISTER_ESP, 32 },
    { "ebp", ZYDIS_REGISTER_EBP, 32 },   { "esi", ZYDIS_REGISTER_ESI, 32 },   { "edi", ZYDIS_REGISTER_EDI, 32 },
    { "r8d", ZYDIS_REGISTER_R8D, 32 },   { "r9d", ZYDIS_REGISTER_R9D, 32 },   { "r10d", ZYDIS_REGISTER_R10D, 32 },
    { "r11d", ZYDIS_REGISTER_R11D, 32 }, { "r12d", ZYDIS_REGISTER_R12D, 32 }, { "r13d", ZYDIS_REGISTER_R13D, 32 },
    { "r14d", ZYDIS_REGISTER_R14D, 32 }, { "r15d", ZYDIS_REGISTER_R15D, 32 }, { "al", ZYDIS_REGISTER_AL, 8 },
    { "cl", ZYDIS_REGISTER_CL, 8 },      { "dl", ZYDIS_REGISTER_DL, 8 },      { "bl", ZYDIS_REGISTER_BL, 8 },
    { "spl", ZYDIS_REGISTER_SPL, 8 },    { "bpl", ZYDIS_REGISTER_BPL, 8 },    { "sil", ZYDIS_REGISTER_SIL, 8 },
    { "dil", ZYDIS_REGISTER_DIL, 8 },    { "r8b", ZYDIS_REGISTER_R8B, 8 },    { "r9b", ZYDIS_REGISTER_R9B, 8 },
    { "r10b", ZYDIS_REGISTER_R10B, 8 },  { "r11b", ZYDIS_REGISTER_R11B, 8 },  { "r12b", ZYDIS_REGISTER_R12B, 8 },
    { "r13b", ZYDIS_REGISTER_R13B, 8 },  { "r14b", ZYDIS_REGISTER_R14B, 8 },  { "r15b", ZYDIS_REGISTER_R15B, 8 },
    { "xmm0", ZYDIS_REGISTER_XMM0, 128 }, { "xmm1", ZYDIS_REGISTER_XMM1, 128 }, { "xmm2", ZYDIS_REGISTER_XMM2, 128 },
    { "xmm3", ZYDIS_REGISTER_XMM3, 128 }, { "xmm4", ZYDIS_REGISTER_XMM4, 128 }, { "xmm5", ZYDIS_REGISTER_XMM5, 128 },
    { "xmm6", ZYDIS_REGISTER_XMM6, 128 }, { "xmm7", ZYDIS_REGISTER_XMM7, 128 }, { "xmm8", ZYDIS_REGISTER_XMM8, 128 },
    { "xmm9", ZYDIS_REGISTER_XMM9, 128 }, { "xmm10", ZYDIS_REGISTER_XMM10, 128 },
    { "xmm11", ZYDIS_REGISTER_XMM11, 128 }, { "xmm12", ZYDIS_REGISTER_XMM12, 128 },
    { "xmm13", ZYDIS_REGISTER_XMM13, 128 }, { "xmm14", ZYDIS_REGISTER_XMM14, 128 },
    { "xmm15", ZYDIS_REGISTER_XMM15, 128 },
};
#define NREGS (sizeof REGS / sizeof REGS[0])

/* name (NUL-terminated) is exactly s[0..n) */
static inline bool eqn(const char *name, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (name[i] != s[i])
            return false;
    return !name[n];
}

static const reginfo *find_reg(const char *s, size_t n)
{
    if (n < 2 || n > 5)
        return NULL;
    for (size_t i = 0; i < NREGS; i++)
        if (REGS[i].name[1] == s[1] && eqn(REGS[i].name, s, n))
            return &REGS[i];
    return NULL;
}

/* ---- mnemonics ---------------------------------------------------------------------------------------------- */

typedef enum {
    K_ALU,     /* add adc sub sbb and or xor: src, dst */
    K_MOV,     /* mov (also movq gpr <-> xmm) */
    K_MOVABS,  /* movabs $imm64, reg */
    K_MOVZB,   /* movzbl / movzbq: r8/m8, reg */
    K_LEA,     /* lea mem, reg */
    K_TEST,    /* test src, dst */
    K_UNARY,   /* neg not mul: dst (mul: the source; rax and rdx implicit) */
    K_SHIFT,   /* shl shr sar: $imm8 or %cl, dst */
    K_SHXD,    /* shld shrd: $imm8 or %cl, src, dst */
    K_IMUL,    /* imul src, dst / imul $imm, src, dst */
    K_VEX3,    /* mulx bzhi shlx shrx sarx: three operands */
    K_ADX,     /* adcx adox: src, dst */
    K_CMOV,    /* cmov<cc> src, dst */
    K_SET,     /* set<cc> r8 */
    K_PUSHPOP, /* push pop: reg64 */
    K_NOARG,   /* clc stc ret */
} kind;

typedef struct {
    const char *name;
    ZydisMnemonic mn;
    kind k;
} mninfo;

static const mninfo MNS[] = {
    { "add", ZYDIS_MNEMONIC_ADD, K_ALU },     { "adc", ZYDIS_MNEMONIC_ADC, K_ALU },
    { "sub", ZYDIS_MNEMONIC_SUB, K_ALU },     { "sbb", ZYDIS_MNEMONIC_SBB, K_ALU },
    { "and", ZYDIS_MNEMONIC_AND, K_ALU },     { "or", ZYDIS_MNEMONIC_OR, K_ALU },
    { "xor", ZYDIS_MNEMONIC_XOR, K_ALU },     { "mov", ZYDIS_MNEMONIC_MOV, K_MOV },
    { "movabs", ZYDIS_MNEMONIC_MOV, K_MOVABS }, { "lea", ZYDIS_MNEMONIC_LEA, K_LEA },
    { "test", ZYDIS_MNEMONIC_TEST, K_TEST },  { "neg", ZYDIS_MNEMONIC_NEG, K_UNARY },
    { "not", ZYDIS_MNEMONIC_NOT, K_UNARY },   { "shl", ZYDIS_MNEMONIC_SHL, K_SHIFT },
    { "shr", ZYDIS_MNEMONIC_SHR, K_SHIFT },   { "sar", ZYDIS_MNEMONIC_SAR, K_SHIFT },
    { "shld", ZYDIS_MNEMONIC_SHLD, K_SHXD },  { "shrd", ZYDIS_MNEMONIC_SHRD, K_SHXD },
    { "imul", ZYDIS_MNEMONIC_IMUL, K_IMUL },  { "mulx", ZYDIS_MNEMONIC_MULX, K_VEX3 },
    { "mul", ZYDIS_MNEMONIC_MUL, K_UNARY }, /* one operand: rdx:rax = rax * src (target x86-64) */
    { "bzhi", ZYDIS_MNEMONIC_BZHI, K_VEX3 },  { "shlx", ZYDIS_MNEMONIC_SHLX, K_VEX3 },
    { "shrx", ZYDIS_MNEMONIC_SHRX, K_VEX3 },  { "sarx", ZYDIS_MNEMONIC_SARX, K_VEX3 },
    { "adcx", ZYDIS_MNEMONIC_ADCX, K_ADX },   { "adox", ZYDIS_MNEMONIC_ADOX, K_ADX },
    { "push", ZYDIS_MNEMONIC_PUSH, K_PUSHPOP }, { "pop", ZYDIS_MNEMONIC_POP, K_PUSHPOP },
    { "clc", ZYDIS_MNEMONIC_CLC, K_NOARG },   { "stc", ZYDIS_MNEMONIC_STC, K_NOARG },
    { "ret", ZYDIS_MNEMONIC_RET, K_NOARG },
};
#define NMNS (sizeof MNS / sizeof MNS[0])

/* condition codes by their x86 number (Intel SDM vol. 1, appendix B "EFLAGS Condition Codes"), with the names
 * gas accepts for each */
static const char *const CC_NAMES[16][4] = {
    { "o", NULL },           { "no", NULL },           { "b", "c", "nae", NULL }, { "ae", "nb", "nc", NULL },
    { "e", "z", NULL },      { "ne", "nz", NULL },     { "be", "na", NULL },      { "a", "nbe", NULL },
    { "s", NULL },           { "ns", NULL },           { "p", "pe", NULL },       { "np", "po", NULL },
    { "l", "nge", NULL },    { "ge", "nl", NULL },     { "le", "ng", NULL },      { "g", "nle", NULL },
};
static const ZydisMnemonic CMOV_MN[16] = {
    ZYDIS_MNEMONIC_CMOVO, ZYDIS_MNEMONIC_CMOVNO, ZYDIS_MNEMONIC_CMOVB, ZYDIS_MNEMONIC_CMOVNB,
    ZYDIS_MNEMONIC_CMOVZ, ZYDIS_MNEMONIC_CMOVNZ, ZYDIS_MNEMONIC_CMOVBE, ZYDIS_MNEMONIC_CMOVNBE,
    ZYDIS_MNEMONIC_CMOVS, ZYDIS_MNEMONIC_CMOVNS, ZYDIS_MNEMONIC_CMOVP, ZYDIS_MNEMONIC_CMOVNP,
    ZYDIS_MNEMONIC_CMOVL, ZYDIS_MNEMONIC_CMOVNL, ZYDIS_MNEMONIC_CMOVLE, ZYDIS_MNEMONIC_CMOVNLE,
};
static const ZydisMnemonic SET_MN[16] = {
    ZYDIS_MNEMONIC_SETO, ZYDIS_MNEMONIC_SETNO, ZYDIS_MNEMONIC_SETB, ZYDIS_MNEMONIC_SETNB,
    ZYDIS_MNEMONIC_SETZ, ZYDIS_MNEMONIC_SETNZ, ZYDIS_MNEMONIC_SETBE, ZYDIS_MNEMONIC_SETNBE,
    ZYDIS_MNEMONIC_SETS, ZYDIS_MNEMONIC_SETNS, ZYDIS_MNEMONIC_SETP, ZYDIS_MNEMONIC_SETNP,
    ZYDIS_MNEMONIC_SETL, ZYDIS_MNEMONIC_SETNL, ZYDIS_MNEMONIC_SETLE, ZYDIS_MNEMONIC_SETNLE,
};

static int find_cc(const char *s, size_t n)
{
    for (int i = 0; i < 16; i++)
        for (int j = 0; CC_NAMES[i][j]; j++)
            if (eqn(CC_NAMES[i][j], s, n))
                return i;
    return -1;
}

/* the mnemonic name[0..n): its kind and Zydis mnemonic, the AT&T suffix's size in bits (0: none) */
typedef struct {
    kind k;
    ZydisMnemonic mn;
    unsigned suffix;
    unsigned movzb_dst; /* K_MOVZB: 32 or 64 */
} mnres;

static int find_mn(const char *s, size_t n, mnres *r)
{
    memset(r, 0, sizeof *r);
    if (n == 6 && (!memcmp(s, "movzbl", 6) || !memcmp(s, "movzbq", 6))) {
        r->k = K_MOVZB;
        r->mn = ZYDIS_MNEMONIC_MOVZX;
        r->movzb_dst = s[5] == 'l' ? 32 : 64;
        return 0;
    }
    if (n > 3 && !memcmp(s, "set", 3)) {
        int cc = find_cc(s + 3, n - 3);
        if (cc >= 0) {
            r->k = K_SET;
            r->mn = SET_MN[cc];
            return 0;
        }
    }
    if (n > 4 && !memcmp(s, "cmov", 4)) {
        int cc = find_cc(s + 4, n - 4);
        if (cc < 0 && n > 5 && (s[n - 1] == 'q' || s[n - 1] == 'l')) {
            cc = find_cc(s + 4, n - 5);
            if (cc >= 0)
                r->suffix = s[n - 1] == 'q' ? 64 : 32;
        }
        if (cc >= 0) {
            r->k = K_CMOV;
            r->mn = CMOV_MN[cc];
            return 0;
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        size_t m = n - (size_t)pass;
        if (pass && (n < 2 || (s[n - 1] != 'q' && s[n - 1] != 'l')))
            break;
        for (size_t i = 0; i < NMNS; i++)
            if (MNS[i].name[0] == s[0] && eqn(MNS[i].name, s, m)) {
                r->k = MNS[i].k;
                r->mn = MNS[i].mn;
                r->suffix = pass ? (s[n - 1] == 'q' ? 64u : 32u) : 0u;
                return 0;
            }
    }
    return -1;
}

/* ---- operands ----------------------------------------------------------------------------------------------- */

typedef enum { O_REG, O_IMM, O_MEM } okind;

typedef struct {
    okind k;
    const reginfo *reg;       /* O_REG */
    uint64_t imm;             /* O_IMM: two's complement */
    bool imm_neg;             /* written with a minus sign */
    const reginfo *base, *index; /* O_MEM (NULL: none) */
    unsigned scale;
    int64_t disp;
} opnd;

typedef struct {
    unsigned lineno;
    const char *line; /* the trimmed instruction text */
    size_t linelen;
    char *err;
    size_t errlen;
} ectx;

static int fail(ectx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ectx *c, const char *fmt, ...)
{
    if (!c->err || !c->errlen)
        return -1;
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    int ll = c->linelen > 120 ? 120 : (int)c->linelen;
    snprintf(c->err, c->errlen, "line %u: '%.*s%s': %s", c->lineno, ll, c->line, c->linelen > 120 ? "..." : "",
             why);
    return -1;
}

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* a number: [-]decimal or [-]0xhex, the whole of s[0..n) */
static int parse_num(const char *s, size_t n, uint64_t *v, bool *neg)
{
    *neg = false;
    if (n && (s[0] == '-' || s[0] == '+')) {
        *neg = s[0] == '-';
        s++;
        n--;
    }
    if (!n)
        return -1;
    uint64_t x = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (n - 2 > 16)
            return -1;
        for (size_t i = 2; i < n; i++) {
            char ch = s[i];
            unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
                         : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                         : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10)
                                                  : 16u;
            if (d > 15)
                return -1;
            x = x << 4 | d;
        }
    } else {
        if (n > 1 && s[0] == '0')
            return -1; /* gas reads a leading 0 as octal */
        for (size_t i = 0; i < n; i++) {
            if (s[i] < '0' || s[i] > '9')
                return -1;
            unsigned d = (unsigned)(s[i] - '0');
            if (x > (UINT64_MAX - d) / 10)
                return -1;
            x = x * 10 + d;
        }
    }
    if (*neg) {
        if (x > (uint64_t)1 << 63)
            return -1;
        x = (uint64_t)0 - x;
    }
    *v = x;
    return 0;
}

static const char *trim(const char *s, size_t *n)
{
    while (*n && is_space(*s)) {
        s++;
        (*n)--;
    }
    while (*n && is_space(s[*n - 1]))
        (*n)--;
    return s;
}

static int parse_reg(ectx *c, const char *s, size_t n, const reginfo **r)
{
    s = trim(s, &n);
    if (n < 2 || s[0] != '%')
        return fail(c, "'%.*s' is not a register", (int)n, s);
    *r = find_reg(s + 1, n - 1);
    if (!*r)
        return fail(c, "unknown register '%.*s'", (int)n, s);
    return 0;
}

static int parse_opnd(ectx *c, const char *s, size_t n, opnd *o)
{
    memset(o, 0, sizeof *o);
    s = trim(s, &n);
    if (!n)
        return fail(c, "an empty operand");
    if (s[0] == '%') {
        o->k = O_REG;
        return parse_reg(c, s, n, &o->reg);
    }
    if (s[0] == '$') {
        o->k = O_IMM;
        size_t m = n - 1;
        const char *t = trim(s + 1, &m);
        if (parse_num(t, m, &o->imm, &o->imm_neg) < 0)
            return fail(c, "bad immediate '%.*s' (decimal without leading zeros or 0x hex, 64 bits)", (int)n, s);
        return 0;
    }
    /* memory: [disp](base[,index[,scale]]) */
    o->k = O_MEM;
    const char *lp = memchr(s, '(', n);
    if (!lp || s[n - 1] != ')')
        return fail(c, "bad operand '%.*s' (want %%reg, $imm or disp(%%base,%%index,scale))", (int)n, s);
    size_t dn = (size_t)(lp - s);
    const char *d = trim(s, &dn);
    if (dn) {
        uint64_t v;
        bool neg;
        if (parse_num(d, dn, &v, &neg) < 0 || (!neg && v > INT32_MAX) || (neg && (int64_t)v < INT32_MIN))
            return fail(c, "bad displacement '%.*s' (a signed 32-bit number)", (int)dn, d);
        o->disp = (int64_t)v;
    }
    const char *in = lp + 1;
    size_t inn = (size_t)(s + n - 1 - in);
    const char *parts[3];
    size_t plen[3];
    unsigned np = 0;
    const char *p = in;
    for (;;) {
        const char *cm = memchr(p, ',', (size_t)(in + inn - p));
        if (np == 3)
            return fail(c, "bad memory operand '%.*s'", (int)n, s);
        parts[np] = p;
        plen[np++] = cm ? (size_t)(cm - p) : (size_t)(in + inn - p);
        if (!cm)
            break;
        p = cm + 1;
    }
    size_t bl = plen[0];
    const char *b = trim(parts[0], &bl);
    if (bl && parse_reg(c, b, bl, &o->base) < 0)
        return -1;
    if (np >= 2 && parse_reg(c, parts[1], plen[1], &o->index) < 0)
        return -1;
    o->scale = o->index ? 1 : 0;
    if (np == 3) {
        size_t sl = plen[2];
        const char *sc = trim(parts[2], &sl);
        if (sl != 1 || (sc[0] != '1' && sc[0] != '2' && sc[0] != '4' && sc[0] != '8'))
            return fail(c, "bad scale '%.*s' (1, 2, 4 or 8)", (int)sl, sc);
        o->scale = (unsigned)(sc[0] - '0');
    }
    if (!o->base && !o->index)
        return fail(c, "a memory operand without a register (absolute addresses are not supported)");
    if ((o->base && o->base->bits != 64) || (o->index && o->index->bits != 64))
        return fail(c, "address registers must be 64-bit");
    if (o->index && o->index->reg == ZYDIS_REGISTER_RSP)
        return fail(c, "%%rsp cannot be an index register");
    return 0;
}

/* ---- encoding ----------------------------------------------------------------------------------------------- */

static void set_reg(ZydisEncoderOperand *z, const reginfo *r)
{
    z->type = ZYDIS_OPERAND_TYPE_REGISTER;
    z->reg.value = r->reg;
}

static void set_opnd(ZydisEncoderOperand *z, const opnd *o, unsigned membytes)
{
    switch (o->k) {
    case O_REG: set_reg(z, o->reg); break;
    case O_IMM:
        z->type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
        z->imm.u = o->imm;
        break;
    case O_MEM:
        z->type = ZYDIS_OPERAND_TYPE_MEMORY;
        z->mem.base = o->base ? o->base->reg : ZYDIS_REGISTER_NONE;
        z->mem.index = o->index ? o->index->reg : ZYDIS_REGISTER_NONE;
        z->mem.scale = (ZyanU8)o->scale;
        z->mem.displacement = o->disp;
        z->mem.size = (ZyanU16)membytes;
        break;
    }
}

/* the operation size from the GPR operands (skip: an operand that does not count, e.g. a shift count) and the
 * suffix; 0 with an error when they disagree or nothing gives it */
static unsigned op_size(ectx *c, const opnd *o, unsigned no, unsigned suffix, int skip)
{
    unsigned sz = suffix;
    for (unsigned i = 0; i < no; i++) {
        if ((int)i == skip || o[i].k != O_REG)
            continue;
        unsigned b = o[i].reg->bits;
        if (b != 32 && b != 64) {
            fail(c, "register %%%s cannot be used here (want a 64- or 32-bit register)", o[i].reg->name);
            return 0;
        }
        if (sz && b != sz) {
            fail(c, "register %%%s is not %u-bit%s", o[i].reg->name, sz,
                 suffix ? (suffix == 64 ? " (suffix q)" : " (suffix l)") : "");
            return 0;
        }
        sz = b;
    }
    if (!sz)
        fail(c, "the operand size is unknown (add a q or l suffix)");
    return sz;
}

/* an immediate for a sz-bit operation as the value the CPU sees (sign-extended from 32 bits); -1 when gas would
 * not take it */
static int imm32(ectx *c, const opnd *o, unsigned sz, int64_t *v)
{
    int64_t s = (int64_t)o->imm;
    if (sz == 64 ? (s < INT32_MIN || s > INT32_MAX) : (s < INT32_MIN || s > (int64_t)UINT32_MAX))
        return fail(c, "immediate out of range for a %u-bit operation (a sign-extended 32-bit value%s)", sz,
                    sz == 64 ? "; movabsq for 64 bits" : "");
    *v = (int64_t)(int32_t)(uint32_t)s;
    return 0;
}

static int need_ops(ectx *c, unsigned no, unsigned want)
{
    if (no != want)
        return fail(c, "%u operand%s, want %u", no, no == 1 ? "" : "s", want);
    return 0;
}

/* encode one instruction line s[0..n) (trimmed, not empty) to out (at least ZYDIS_MAX_INSTRUCTION_LENGTH bytes) */
static int encode_line(ectx *c, const char *s, size_t n, uint8_t *out, size_t *outlen)
{
    size_t ml = 0;
    while (ml < n && !is_space(s[ml]))
        ml++;
    mnres m;
    if (find_mn(s, ml, &m) < 0)
        return fail(c, "unknown or unsupported mnemonic '%.*s'", (int)ml, s);
    opnd o[4];
    unsigned no = 0;
    const char *p = s + ml, *end = s + n;
    size_t rest = (size_t)(end - p);
    p = trim(p, &rest);
    end = p + rest;
    while (p < end) {
        const char *q = p;
        int depth = 0;
        while (q < end && (depth || *q != ',')) {
            if (*q == '(')
                depth++;
            else if (*q == ')')
                depth--;
            q++;
        }
        if (no == 4)
            return fail(c, "too many operands");
        if (parse_opnd(c, p, (size_t)(q - p), &o[no]) < 0)
            return -1;
        no++;
        if (q < end && q + 1 == end)
            return fail(c, "an empty operand");
        p = q < end ? q + 1 : q;
    }

    ZydisEncoderRequest rq;
    memset(&rq, 0, sizeof rq);
    rq.machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
    rq.mnemonic = m.mn;
    rq.operand_count = (ZyanU8)no;
    unsigned sz = 0;
    int64_t iv = 0;
    /* validate the shape; operands go to Zydis in reverse (Intel) order */
    switch (m.k) {
    case K_ALU:
    case K_MOV:
    case K_TEST:
        if (need_ops(c, no, 2) < 0)
            return -1;
        if (m.k == K_MOV && ((o[0].k == O_REG && o[0].reg->bits == 128) || (o[1].k == O_REG && o[1].reg->bits == 128))) {
            /* movq between a GPR and an xmm register */
            if (m.suffix != 64 || o[0].k != O_REG || o[1].k != O_REG || (o[0].reg->bits == 128) == (o[1].reg->bits == 128))
                return fail(c, "movq with an xmm register: want movq %%gpr64, %%xmmN or movq %%xmmN, %%gpr64");
            const reginfo *g = o[0].reg->bits == 128 ? o[1].reg : o[0].reg;
            if (g->bits != 64)
                return fail(c, "movq with an xmm register needs a 64-bit register, not %%%s", g->name);
            rq.mnemonic = ZYDIS_MNEMONIC_MOVQ;
            set_reg(&rq.operands[0], o[1].reg);
            set_reg(&rq.operands[1], o[0].reg);
            break;
        }
        if (o[1].k == O_IMM)
            return fail(c, "the destination is an immediate");
        if (o[0].k == O_MEM && o[1].k == O_MEM)
            return fail(c, "two memory operands");
        if (!(sz = op_size(c, o, 2, m.suffix, -1)))
            return -1;
        if (o[0].k == O_IMM) {
            if (imm32(c, &o[0], sz, &iv) < 0)
                return -1;
            o[0].imm = (uint64_t)iv;
        }
        if (m.k == K_TEST && o[0].k == O_MEM)
            return fail(c, "test with a memory source: write the memory operand second");
        set_opnd(&rq.operands[0], &o[1], sz / 8);
        set_opnd(&rq.operands[1], &o[0], sz / 8);
        break;
    case K_MOVABS:
        if (need_ops(c, no, 2) < 0)
            return -1;
        if (o[0].k != O_IMM || o[1].k != O_REG || o[1].reg->bits != 64 || (m.suffix && m.suffix != 64))
            return fail(c, "want movabsq $imm64, %%reg64");
        {
            unsigned id = 0;
            while (REGS[id].reg != o[1].reg->reg)
                id++;
            size_t k = 0;
            out[k++] = (uint8_t)(0x48 | (id >> 3));
            out[k++] = (uint8_t)(0xb8 + (id & 7));
            for (int i = 0; i < 8; i++)
                out[k++] = (uint8_t)(o[0].imm >> (8 * i));
            *outlen = k;
        }
        return 0;
    case K_MOVZB:
        if (need_ops(c, no, 2) < 0)
            return -1;
        if (o[1].k != O_REG || o[1].reg->bits != m.movzb_dst || o[0].k == O_IMM ||
            (o[0].k == O_REG && o[0].reg->bits != 8))
            return fail(c, "want movzb%c %%reg8 or memory, %%reg%u", m.movzb_dst == 32 ? 'l' : 'q', m.movzb_dst);
        set_reg(&rq.operands[0], o[1].reg);
        set_opnd(&rq.operands[1], &o[0], 1);
        break;
    case K_LEA:
        if (need_ops(c, no, 2) < 0)
            return -1;
        if (o[0].k != O_MEM || o[1].k != O_REG)
            return fail(c, "want lea mem, %%reg");
        if (!(sz = op_size(c, o, 2, m.suffix, -1)))
            return -1;
        set_reg(&rq.operands[0], o[1].reg);
        set_opnd(&rq.operands[1], &o[0], 8); /* Zydis: the address size */
        break;
    case K_UNARY:
        if (need_ops(c, no, 1) < 0)
            return -1;
        if (o[0].k == O_IMM)
            return fail(c, "the operand is an immediate");
        if (!(sz = op_size(c, o, 1, m.suffix, -1)))
            return -1;
        set_opnd(&rq.operands[0], &o[0], sz / 8);
        break;
    case K_SHIFT:
    case K_SHXD: {
        unsigned want = m.k == K_SHIFT ? 2 : 3;
        if (need_ops(c, no, want) < 0)
            return -1;
        bool cl = o[0].k == O_REG && o[0].reg->reg == ZYDIS_REGISTER_CL;
        if (!cl && o[0].k != O_IMM)
            return fail(c, "the count must be $imm8 or %%cl");
        if (o[0].k == O_IMM && (o[0].imm_neg || o[0].imm > 255))
            return fail(c, "shift count out of range (0..255)");
        if (o[want - 1].k == O_IMM || (want == 3 && o[1].k != O_REG))
            return fail(c, "bad operands");
        if (!(sz = op_size(c, o, want, m.suffix, 0)))
            return -1;
        for (unsigned i = 0; i < want; i++)
            set_opnd(&rq.operands[i], &o[want - 1 - i], sz / 8);
        break;
    }
    case K_IMUL:
        if (no != 2 && no != 3)
            return fail(c, "imul: want 2 operands (src, %%reg) or 3 ($imm, src, %%reg)");
        if (o[no - 1].k != O_REG || o[no - 2].k == O_IMM || (no == 3 && o[0].k != O_IMM))
            return fail(c, "imul: want 2 operands (src, %%reg) or 3 ($imm, src, %%reg)");
        if (!(sz = op_size(c, o, no, m.suffix, -1)))
            return -1;
        if (no == 3) {
            if (imm32(c, &o[0], sz, &iv) < 0)
                return -1;
            o[0].imm = (uint64_t)iv;
        }
        for (unsigned i = 0; i < no; i++)
            set_opnd(&rq.operands[i], &o[no - 1 - i], sz / 8);
        break;
    case K_VEX3:
        if (need_ops(c, no, 3) < 0)
            return -1;
        for (unsigned i = 0; i < 3; i++)
            if (o[i].k == O_IMM || (o[i].k == O_MEM && i != (m.mn == ZYDIS_MNEMONIC_MULX ? 0u : 1u)))
                return fail(c, "bad operands (registers, one memory source)");
        if (!(sz = op_size(c, o, 3, m.suffix, -1)))
            return -1;
        for (unsigned i = 0; i < 3; i++)
            set_opnd(&rq.operands[i], &o[2 - i], sz / 8);
        break;
    case K_ADX:
    case K_CMOV:
        if (need_ops(c, no, 2) < 0)
            return -1;
        if (o[1].k != O_REG || o[0].k == O_IMM)
            return fail(c, "want src (register or memory), %%reg");
        if (!(sz = op_size(c, o, 2, m.suffix, -1)))
            return -1;
        set_opnd(&rq.operands[0], &o[1], sz / 8);
        set_opnd(&rq.operands[1], &o[0], sz / 8);
        break;
    case K_SET:
        if (need_ops(c, no, 1) < 0)
            return -1;
        if (o[0].k != O_REG || o[0].reg->bits != 8)
            return fail(c, "want set<cc> %%reg8");
        set_reg(&rq.operands[0], o[0].reg);
        break;
    case K_PUSHPOP:
        if (need_ops(c, no, 1) < 0)
            return -1;
        if (o[0].k != O_REG || o[0].reg->bits != 64 || m.suffix == 32)
            return fail(c, "want push/pop %%reg64");
        set_reg(&rq.operands[0], o[0].reg);
        break;
    case K_NOARG:
        if (need_ops(c, no, 0) < 0)
            return -1;
        if (m.suffix && !(m.mn == ZYDIS_MNEMONIC_RET && m.suffix == 64))
            return fail(c, "unknown mnemonic '%.*s'", (int)ml, s);
        break;
    }
    ZyanUSize len = ZYDIS_MAX_INSTRUCTION_LENGTH;
    ZyanStatus st = ZydisEncoderEncodeInstruction(&rq, out, &len);
    if (!ZYAN_SUCCESS(st))
        return fail(c, "cannot be encoded (Zydis status 0x%08x)", (unsigned)st);
    *outlen = len;
    return 0;
}

int encode_asm_text(const char *text, uint8_t **code, size_t *len, char *err, size_t errlen)
{
    if (code)
        *code = NULL;
    if (len)
        *len = 0;
    if (err && errlen)
        err[0] = 0;
    ectx c = { .lineno = 0, .line = "", .linelen = 0, .err = err, .errlen = errlen };
    if (!text || !code || !len)
        return fail(&c, "no text or no output");
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    char *lb = NULL;
    size_t lbcap = 0;
    if (!buf)
        return fail(&c, "out of memory");
    bool in_comment = false;
    const char *p = text;
    unsigned lineno = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t ll = eol ? (size_t)(eol - p) : strlen(p);
        lineno++;
        /* the line without comments */
        if (ll + 1 > lbcap) {
            lbcap = 2 * (ll + 1) + 256;
            char *nl = realloc(lb, lbcap);
            if (!nl) {
                c.lineno = lineno;
                fail(&c, "out of memory");
                goto bad;
            }
            lb = nl;
        }
        size_t k = 0;
        bool directive = false, started = false;
        for (size_t i = 0; i < ll; i++) {
            char ch = p[i];
            if (in_comment) {
                if (ch == '*' && i + 1 < ll && p[i + 1] == '/') {
                    in_comment = false;
                    i++;
                }
                continue;
            }
            if (directive) { /* a directive's text (strings and all) is not looked into */
                lb[k++] = ch;
                continue;
            }
            if (ch == '/' && i + 1 < ll && p[i + 1] == '*') {
                in_comment = true;
                i++;
                lb[k++] = ' ';
                continue;
            }
            if (ch == '#')
                break;
            if (!started && !is_space(ch)) {
                started = true;
                if (ch == '.')
                    directive = true;
            }
            lb[k++] = ch;
        }
        size_t tn = k;
        const char *t = trim(lb, &tn);
        /* labels */
        for (;;) {
            size_t i = 0;
            while (i < tn && (t[i] == '_' || t[i] == '.' || t[i] == '$' || (t[i] >= '0' && t[i] <= '9') ||
                              ((t[i] | 32) >= 'a' && (t[i] | 32) <= 'z')))
                i++;
            if (i == 0 || i >= tn || t[i] != ':')
                break;
            t += i + 1;
            tn -= i + 1;
            t = trim(t, &tn);
        }
        if (tn && t[0] != '.') {
            c.lineno = lineno;
            c.line = t;
            c.linelen = tn;
            if (n + ZYDIS_MAX_INSTRUCTION_LENGTH > cap) {
                cap *= 2;
                uint8_t *nb = realloc(buf, cap);
                if (!nb) {
                    fail(&c, "out of memory");
                    goto bad;
                }
                buf = nb;
            }
            size_t il = 0;
            if (memchr(t, ';', tn)) {
                fail(&c, "one instruction per line");
                goto bad;
            }
            if (encode_line(&c, t, tn, buf + n, &il) < 0)
                goto bad;
            n += il;
        }
        p += ll;
        if (*p == '\n')
            p++;
    }
    if (in_comment) {
        c.lineno = lineno;
        c.line = "";
        c.linelen = 0;
        fail(&c, "a comment is not closed");
        goto bad;
    }
    free(lb);
    *code = buf;
    *len = n;
    return 0;
bad:
    free(lb);
    free(buf);
    return -1;
}

/* ---- executable memory -------------------------------------------------------------------------------------- */

void *encode_exec_map(const uint8_t *code, size_t len, size_t *maplen)
{
    if (maplen)
        *maplen = 0;
    if (!code || !len || !maplen)
        return NULL;
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    if (len > SIZE_MAX - page)
        return NULL;
    size_t ml = (len + page - 1) / page * page;
    void *m = mmap(NULL, ml, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    memcpy(m, code, len);
    memset((uint8_t *)m + len, 0xcc, ml - len); /* int3 */
    if (mprotect(m, ml, PROT_READ | PROT_EXEC) < 0) {
        int e = errno;
        munmap(m, ml);
        errno = e;
        return NULL;
    }
    *maplen = ml;
    return m;
}

void encode_exec_unmap(void *p, size_t maplen)
{
    if (p && maplen)
        munmap(p, maplen);
}
