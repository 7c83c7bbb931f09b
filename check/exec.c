/* exec.c — symbolic execution of decoded x86-64 code into check/expr.h expressions (see exec.h for the state and
 * the rules).
 *
 * Semantics follow the Intel 64 and IA-32 Architectures Software Developer's Manual (SDM), Vol. 1 §3.4.1.1
 * (32-bit writes zero the upper half, 8/16-bit writes keep it), Vol. 1 §3.4.3.1 and Appendix B (the status flags
 * and the condition codes of Jcc/CMOVcc/SETcc), and Vol. 2 for each instruction ("Operation" and "Flags
 * Affected"). Every form is compared with the CPU running the same bytes in tests/ir/test_check_exec.c.
 *
 * Flags are kept lazily: an instruction records its operands and result, and OF SF ZF AF PF are built only when
 * read (fiat code writes them hundreds of times and reads almost none). CF, which adc chains read, is built
 * eagerly from the exact sum (ex_addcarry) or the borrow (ex_subborrow). */
#include "check/exec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGION_STACK UINT32_MAX
#define STACK_MAX ((int64_t)1 << 24) /* deepest frame modelled, bytes */
/* The frame bound (exec.h): no stack byte touched and no rsp more than FRAME_PAGE bytes below the lowest stack
 * byte touched before (at entry: the return address, which the call wrote at offset 0). The page below a touched
 * byte is mapped or is the guard page, which faults; two pages below may be another thread's stack or any other
 * mapping (the stack-clash attacks: Qualys, "The Stack Clash", 2017). It is the model of GCC's
 * -fstack-clash-protection on x86-64 (the call's push is the first probe; no allocation of a page or more without
 * a probe): a frame of any size passes when each page is touched in order. */
#define FRAME_PAGE 4096

/* A register or memory value: data (an expression below 2^64) or a pointer (region + byte offset). */
typedef struct {
    bool ptr;
    ex_id e;             /* data */
    uint32_t region; /* pointer: REGION_STACK or an array index of f */
    int64_t off;     /* pointer: bytes from the region's start (the stack: from the entry rsp) */
} val;

enum { F_CF, F_PF, F_AF, F_ZF, F_SF, F_OF, NFLAGS };
static const char *const flag_names[NFLAGS] = { "CF", "PF", "AF", "ZF", "SF", "OF" };

/* how a flag is known */
enum {
    H_VAL,   /* v */
    H_UNDEF, /* undefined (at entry, or left undefined by the SDM): reading it is UNKNOWN_VALUE */
    H_LAZY   /* from the recorded operation: op, s, a, b, r */
};
/* recorded operations */
enum {
    OP_ADD, /* r = a + b (+ carry) mod 2^s */
    OP_SUB, /* r = a - b (- borrow) mod 2^s */
    OP_RES  /* only the result r (logic, shifts, bzhi): ZF SF PF */
};

typedef struct {
    uint8_t how, op, s;
    ex_id v, a, b, r;
    ex_id tag; /* the id the observer was told was written (v, or r of a lazy flag): reads report it */
} flag;

typedef struct {
    uint32_t vi;   /* index into the stored values, + 1 (0: never written) */
    uint8_t byte;  /* which byte of that value */
} cell;

typedef struct {
    val v;
    unsigned bytes; /* stored size */
} stored;

typedef struct {
    ex_ctx *x;
    const ir_func *f;
    const uint32_t *argmap;
    uint32_t nargs;
    bool no_red_zone;
    check_result *r;
    const check_insn *in; /* the instruction being executed */
    bool bad;             /* an expression constructor failed */
    val gpr[16];
    val xmm[16];
    ex_id entry[16]; /* the entry values (callee-saved registers) */
    flag fl[NFLAGS];
    cell *cells; /* cells[i]: the stack byte at entry-rsp offset -(i + 1) */
    int64_t ncells;
    stored *sv;
    size_t nsv, capsv;
    ex_id *const *out;
    bool *out_stored; /* per array of f: some limb stored */
    check_exec_obs *obs;  /* NULL: nobody observes */
    const check_insn *first; /* insns->insns, for the observer's instruction index */
    int64_t touched;  /* the lowest stack offset read or written so far (0: the return address) */
    int32_t same_as[16]; /* per array of f: an output's pointer equals input same_as[j]'s (-1: disjoint) */
} st;

/* Zydis' ids of the general-purpose registers (rax 0, rcx 1, rdx 2, rbx 3, rsp 4, rbp 5, rsi 6, rdi 7, r8..r15) */
enum { RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSP = 4, RBP = 5, RSI = 6, RDI = 7 };
static const int arg_regs[6] = { RDI, RSI, RDX, RCX, 8, 9 };
static const int callee_saved[6] = { RBX, RBP, 12, 13, 14, 15 };
static const char *const gpr_names[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                           "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15" };

#define TRY(e)                                                                                                      \
    do {                                                                                                            \
        int rc_ = (e);                                                                                              \
        if (rc_)                                                                                                    \
            return rc_;                                                                                             \
    } while (0)

static ir_u128 mask(unsigned w)
{
    return w >= 128 ? ~(ir_u128)0 : (((ir_u128)1 << w) - 1);
}

/* wadd — offsets wrap mod 2^64 like the addresses they stand for (no signed overflow) */
static int64_t wadd(int64_t a, uint64_t b)
{
    return (int64_t)((uint64_t)a + b);
}

/* ck — note a failed constructor (0); the instruction loop turns it into BAD_INPUT */
static ex_id ck(st *s, ex_id e)
{
    if (!e)
        s->bad = true;
    return e;
}

__attribute__((format(printf, 3, 4)))
static int reject(st *s, check_rule rule, const char *fmt, ...)
{
    char what[400], att[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    check_result *r = s->r;
    r->verdict = CHECK_REJECTED;
    r->rule = rule;
    if (s->in) {
        check_insn_format(s->in, att, sizeof att);
        r->has_addr = true;
        r->addr = s->in->addr;
        snprintf(r->reason, sizeof r->reason, "%s at 0x%llx: %s", what, (unsigned long long)s->in->addr, att);
    } else {
        r->has_addr = false;
        snprintf(r->reason, sizeof r->reason, "%s", what);
    }
    return 1;
}

static int bad_input(check_result *r, const char *msg)
{
    r->verdict = CHECK_BAD_INPUT;
    r->rule = CHECK_RULE_NONE;
    r->has_addr = false;
    snprintf(r->reason, sizeof r->reason, "%s", msg);
    return -1;
}

/* observe — tell the observer that the current instruction wrote data e */
static void observe(st *s, ex_id e, int where, uint32_t arr, uint32_t limb)
{
    if (s->obs && s->obs->write && s->in && e)
        s->obs->write(s->obs->arg, (size_t)(s->in - s->first), e, where, arr, limb);
}

/* ---- expression helpers (all go through ck) ---------------------------------------------------------------------- */

static ex_id k_(st *s, ir_u128 k)
{
    return ck(s, ex_const(s->x, k));
}

static ex_id trunc_(st *s, unsigned w, ex_id a)
{
    return ck(s, ex_trunc(s->x, w, a));
}

/* bit i of a */
static ex_id bit(st *s, ex_id a, unsigned i)
{
    return ck(s, ex_shr(s->x, 1, a, i));
}

/* sum2 — (c1 a + c2 b) mod 2^w */
static ex_id sum2(st *s, unsigned w, ex_id a, ir_u128 c1, ex_id b, ir_u128 c2)
{
    ex_id t[2] = { a, b };
    ir_u128 c[2] = { c1, c2 };
    return ck(s, ex_sum(s->x, w, t, c, 2, 0));
}

static ex_id not1(st *s, ex_id a)
{
    return ck(s, ex_not(s->x, 1, a));
}

/* sext — a (below 2^from) sign-extended to `to` bits: a + (2^to - 2^from) * a[from-1] */
static ex_id sext(st *s, ex_id a, unsigned from, unsigned to)
{
    if (from >= to)
        return a;
    return sum2(s, to, a, 1, bit(s, a, from - 1), mask(to) - mask(from));
}

/* parity — 1 when the low byte of r has an even number of set bits (PF) */
static ex_id parity(st *s, ex_id r)
{
    ex_id t = bit(s, r, 0);
    for (unsigned i = 1; i < 8; i++)
        t = ck(s, ex_xor(s->x, 1, t, bit(s, r, i)));
    return not1(s, t);
}

/* ---- flags ------------------------------------------------------------------------------------------------------- */

static void set_flag(st *s, int f, ex_id v)
{
    s->fl[f].how = H_VAL;
    s->fl[f].v = v;
    s->fl[f].tag = v;
    observe(s, v, CHECK_EXEC_AT_FLAG, 0, 0);
}

static void set_how(st *s, int f, int how)
{
    s->fl[f].how = (uint8_t)how;
    s->fl[f].v = 0;
}

/* set_lazy — OF SF ZF AF PF from an operation (OP_RES: only SF ZF PF; OF and AF are set by the caller) */
static void set_lazy(st *s, int op, unsigned w, ex_id a, ex_id b, ex_id r)
{
    static const int all[5] = { F_OF, F_SF, F_ZF, F_AF, F_PF };
    for (int i = 0; i < 5; i++) {
        if (op == OP_RES && (all[i] == F_OF || all[i] == F_AF))
            continue;
        flag *f = &s->fl[all[i]];
        f->how = H_LAZY;
        f->op = (uint8_t)op;
        f->s = (uint8_t)w;
        f->a = a;
        f->b = b;
        f->r = r;
        f->v = 0;
        f->tag = r;
    }
    observe(s, r, CHECK_EXEC_AT_FLAG, 0, 0);
}

/* get_flag — the flag's value (1 bit); reading an undefined flag is a rule violation */
static int get_flag(st *s, int fi, ex_id *v)
{
    flag *f = &s->fl[fi];
    if (f->how != H_UNDEF)
        observe(s, f->tag, CHECK_EXEC_READ_FLAG, 0, 0);
    switch (f->how) {
    case H_UNDEF:
        return reject(s, CHECK_RULE_UNKNOWN_VALUE, "read of undefined flag %s", flag_names[fi]);
    case H_LAZY: {
        unsigned w = f->s;
        ex_id e = 0;
        switch (fi) {
        case F_ZF: e = ck(s, ex_lnot(s->x, f->r)); break;
        case F_SF: e = bit(s, f->r, w - 1); break;
        case F_PF: e = parity(s, f->r); break;
        case F_AF: /* the carry or borrow out of bit 3: bit 4 of a ^ b ^ r (for a sum and a difference alike) */
            e = bit(s, ck(s, ex_xor(s->x, w, ck(s, ex_xor(s->x, w, f->a, f->b)), f->r)), 4);
            break;
        case F_OF:
            /* add: both operands of one sign, the result of the other: ((a ^ r) & (b ^ r))[w-1];
             * sub: operands of different signs, the result's sign not a's: ((a ^ b) & (a ^ r))[w-1] */
            if (f->op == OP_ADD)
                e = ck(s, ex_and(s->x, w, ck(s, ex_xor(s->x, w, f->a, f->r)), ck(s, ex_xor(s->x, w, f->b, f->r))));
            else
                e = ck(s, ex_and(s->x, w, ck(s, ex_xor(s->x, w, f->a, f->b)), ck(s, ex_xor(s->x, w, f->a, f->r))));
            e = bit(s, e, w - 1);
            break;
        default: break;
        }
        f->how = H_VAL;
        f->v = e;
        break;
    }
    default: break;
    }
    *v = f->v;
    return s->bad ? -1 : 0;
}

/* condition codes (SDM Vol. 1 Appendix B): cond = c != 0, negated when neg */
static int cc_of(ZydisMnemonic m)
{
    switch (m) {
    case ZYDIS_MNEMONIC_CMOVO: case ZYDIS_MNEMONIC_SETO: return 0;
    case ZYDIS_MNEMONIC_CMOVNO: case ZYDIS_MNEMONIC_SETNO: return 1;
    case ZYDIS_MNEMONIC_CMOVB: case ZYDIS_MNEMONIC_SETB: return 2;
    case ZYDIS_MNEMONIC_CMOVNB: case ZYDIS_MNEMONIC_SETNB: return 3;
    case ZYDIS_MNEMONIC_CMOVZ: case ZYDIS_MNEMONIC_SETZ: return 4;
    case ZYDIS_MNEMONIC_CMOVNZ: case ZYDIS_MNEMONIC_SETNZ: return 5;
    case ZYDIS_MNEMONIC_CMOVBE: case ZYDIS_MNEMONIC_SETBE: return 6;
    case ZYDIS_MNEMONIC_CMOVNBE: case ZYDIS_MNEMONIC_SETNBE: return 7;
    case ZYDIS_MNEMONIC_CMOVS: case ZYDIS_MNEMONIC_SETS: return 8;
    case ZYDIS_MNEMONIC_CMOVNS: case ZYDIS_MNEMONIC_SETNS: return 9;
    case ZYDIS_MNEMONIC_CMOVP: case ZYDIS_MNEMONIC_SETP: return 10;
    case ZYDIS_MNEMONIC_CMOVNP: case ZYDIS_MNEMONIC_SETNP: return 11;
    case ZYDIS_MNEMONIC_CMOVL: case ZYDIS_MNEMONIC_SETL: return 12;
    case ZYDIS_MNEMONIC_CMOVNL: case ZYDIS_MNEMONIC_SETNL: return 13;
    case ZYDIS_MNEMONIC_CMOVLE: case ZYDIS_MNEMONIC_SETLE: return 14;
    case ZYDIS_MNEMONIC_CMOVNLE: case ZYDIS_MNEMONIC_SETNLE: return 15;
    default: return -1;
    }
}

static int condition(st *s, ZydisMnemonic m, ex_id *c, bool *neg)
{
    int cc = cc_of(m);
    if (cc < 0)
        return reject(s, CHECK_RULE_UNKNOWN_INSN, "no condition code for `%s`", check_mnemonic(s->in));
    *neg = cc & 1;
    ex_id a = 0, b = 0, z = 0;
    switch (cc >> 1) {
    case 0: TRY(get_flag(s, F_OF, c)); break;
    case 1: TRY(get_flag(s, F_CF, c)); break;
    case 2: TRY(get_flag(s, F_ZF, c)); break;
    case 3: /* CF | ZF */
        TRY(get_flag(s, F_CF, &a));
        TRY(get_flag(s, F_ZF, &z));
        *c = ck(s, ex_or(s->x, 1, a, z));
        break;
    case 4: TRY(get_flag(s, F_SF, c)); break;
    case 5: TRY(get_flag(s, F_PF, c)); break;
    case 6: /* SF != OF */
        TRY(get_flag(s, F_SF, &a));
        TRY(get_flag(s, F_OF, &b));
        *c = ck(s, ex_xor(s->x, 1, a, b));
        break;
    default: /* ZF | (SF != OF) */
        TRY(get_flag(s, F_ZF, &z));
        TRY(get_flag(s, F_SF, &a));
        TRY(get_flag(s, F_OF, &b));
        *c = ck(s, ex_or(s->x, 1, z, ck(s, ex_xor(s->x, 1, a, b))));
        break;
    }
    if (s->bad)
        return -1;
    if (ex_has_unknown(s->x, *c))
        return reject(s, CHECK_RULE_UNKNOWN_VALUE, "a condition that depends on a value the function did not compute");
    return 0;
}

/* ---- registers --------------------------------------------------------------------------------------------------- */

typedef struct {
    int kind; /* 0 gpr, 1 xmm */
    int idx;
    unsigned size;
    bool high; /* ah ch dh bh */
} regref;

static int reg_ref(st *s, ZydisRegister reg, regref *rr)
{
    ZydisRegisterClass c = ZydisRegisterGetClass(reg);
    memset(rr, 0, sizeof *rr);
    switch (c) {
    case ZYDIS_REGCLASS_GPR64:
    case ZYDIS_REGCLASS_GPR32:
    case ZYDIS_REGCLASS_GPR16:
    case ZYDIS_REGCLASS_GPR8: {
        ZydisRegister big = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg);
        rr->idx = ZydisRegisterGetId(big);
        rr->size = ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, reg);
        rr->high = reg == ZYDIS_REGISTER_AH || reg == ZYDIS_REGISTER_CH || reg == ZYDIS_REGISTER_DH ||
                   reg == ZYDIS_REGISTER_BH;
        if (rr->idx < 0 || rr->idx > 15)
            break;
        return 0;
    }
    case ZYDIS_REGCLASS_XMM:
        rr->kind = 1;
        rr->idx = ZydisRegisterGetId(reg);
        rr->size = 64;
        if (rr->idx < 0 || rr->idx > 15)
            break;
        return 0;
    default:
        break;
    }
    const char *n = ZydisRegisterGetString(reg);
    return reject(s, CHECK_RULE_UNSUPPORTED, "register %s not modelled", n ? n : "?");
}

static int read_reg(st *s, ZydisRegister reg, val *v)
{
    regref rr;
    TRY(reg_ref(s, reg, &rr));
    const val *cur = rr.kind ? &s->xmm[rr.idx] : &s->gpr[rr.idx];
    memset(v, 0, sizeof *v);
    if (rr.size == 64) {
        *v = *cur;
        if (!v->ptr)
            observe(s, v->e, CHECK_EXEC_READ, 0, 0);
        return 0;
    }
    if (cur->ptr)
        return reject(s, CHECK_RULE_UNSUPPORTED, "a %u-bit read of a pointer in %s", rr.size,
                      ZydisRegisterGetString(reg));
    v->e = rr.high ? trunc_(s, 8, ck(s, ex_shr(s->x, 64, cur->e, 8))) : trunc_(s, rr.size, cur->e);
    observe(s, v->e, CHECK_EXEC_READ, 0, 0);
    return s->bad ? -1 : 0;
}

/* write_reg — v is below 2^size for size < 64; 32-bit writes zero the upper half, 8/16-bit ones keep it */
static int write_reg(st *s, ZydisRegister reg, const val *v)
{
    regref rr;
    TRY(reg_ref(s, reg, &rr));
    val *cur = rr.kind ? &s->xmm[rr.idx] : &s->gpr[rr.idx];
    if (rr.size == 64) {
        *cur = *v;
        if (!v->ptr)
            observe(s, v->e, CHECK_EXEC_AT_REG, 0, 0);
        return 0;
    }
    if (v->ptr)
        return reject(s, CHECK_RULE_UNSUPPORTED, "a pointer written to the %u-bit register %s", rr.size,
                      ZydisRegisterGetString(reg));
    ex_id e = trunc_(s, rr.size, v->e);
    observe(s, e, CHECK_EXEC_AT_REG, 0, 0);
    if (rr.size == 32) {
        cur->ptr = false;
        cur->e = e;
        return s->bad ? -1 : 0;
    }
    if (cur->ptr) {
        /* an 8/16-bit write over a dead pointer (clang: setb %sil): the pointer's bits are a value the function
         * did not compute, so any later use of them is UNKNOWN_VALUE (or DATA_ADDRESS as an address) */
        cur->ptr = false;
        cur->e = ck(s, ex_unknown(s->x, 64));
    }
    /* merged = 2^(lo+size) * (old >> (lo+size)) + 2^lo * new + (old mod 2^lo), lo = 8 for ah..bh */
    unsigned lo = rr.high ? 8 : 0, top = lo + rr.size;
    ex_id t[3] = { ck(s, ex_shr(s->x, 64, cur->e, top)), e, 0 };
    ir_u128 c[3] = { (ir_u128)1 << top, (ir_u128)1 << lo, 1 };
    unsigned n = 2;
    if (lo)
        t[n++] = trunc_(s, lo, cur->e);
    if (s->bad)
        return -1;
    cur->e = ck(s, ex_sum(s->x, 64, t, c, n, 0));
    observe(s, cur->e, CHECK_EXEC_AT_REG, 0, 0);
    return s->bad ? -1 : 0;
}

/* ---- memory ------------------------------------------------------------------------------------------------------ */

static const char *region_name(const st *s, uint32_t region)
{
    return region == REGION_STACK ? "the stack" : s->f->arr[region].name;
}

/* address — the memory operand's region and offset */
static int address(st *s, const check_operand *o, uint32_t *region, int64_t *off)
{
    if (o->mem.segment != ZYDIS_REGISTER_NONE && o->mem.segment != ZYDIS_REGISTER_DS &&
        o->mem.segment != ZYDIS_REGISTER_SS && o->mem.segment != ZYDIS_REGISTER_ES &&
        o->mem.segment != ZYDIS_REGISTER_CS)
        return reject(s, CHECK_RULE_UNSUPPORTED, "a segment override");
    ZydisRegister parts[2] = { o->mem.base, o->mem.index };
    int64_t scale[2] = { 1, o->mem.scale ? o->mem.scale : 1 };
    int64_t total = o->mem.disp;
    bool have = false;
    for (int i = 0; i < 2; i++) {
        if (parts[i] == ZYDIS_REGISTER_NONE)
            continue;
        if (ZydisRegisterGetClass(parts[i]) != ZYDIS_REGCLASS_GPR64)
            return reject(s, CHECK_RULE_UNSUPPORTED, "an address of other than 64-bit registers");
        val v;
        TRY(read_reg(s, parts[i], &v));
        if (v.ptr) {
            if (have || scale[i] != 1)
                return reject(s, CHECK_RULE_DATA_ADDRESS, "an address computed from data (%s)",
                              have ? "two pointers" : "a scaled pointer");
            have = true;
            *region = v.region;
            total = wadd(total, (uint64_t)v.off);
        } else {
            const ex_node *n = ex_get(s->x, v.e);
            if (!n || n->kind != EX_CONST)
                return reject(s, CHECK_RULE_DATA_ADDRESS, "an address computed from data (%s)",
                              ZydisRegisterGetString(parts[i]));
            total = wadd(total, (uint64_t)n->k * (uint64_t)scale[i]);
        }
    }
    if (!have)
        return reject(s, CHECK_RULE_DATA_ADDRESS, "an address computed from data (no argument pointer or rsp)");
    *off = total;
    return 0;
}

/* stack bounds: [rsp - 128 (0 with no_red_zone), 0) relative to the entry rsp */
static int stack_bounds(st *s, int64_t off, unsigned bytes, bool write)
{
    const val *sp = &s->gpr[RSP];
    int64_t low = sp->ptr && sp->region == REGION_STACK ? sp->off - (s->no_red_zone ? 0 : 128) : 0;
    if (low < -STACK_MAX)
        low = -STACK_MAX;
    if (off < low || off > -(int64_t)bytes)
        return reject(s, CHECK_RULE_MEMORY_BOUNDS, "a %u-byte %s at stack offset %lld, outside [%lld, 0)%s", bytes,
                      write ? "store" : "load", (long long)off, (long long)low,
                      off < low && off + 128 >= low && s->no_red_zone ? " (the red zone is forbidden)" : "");
    if (off < s->touched - FRAME_PAGE)
        return reject(s, CHECK_RULE_FRAME_SIZE, "a %u-byte %s at stack offset %lld, more than %d bytes below the "
                      "lowest stack byte touched before (offset %lld): it may lie beyond the guard page", bytes,
                      write ? "store" : "load", (long long)off, FRAME_PAGE, (long long)s->touched);
    if (off < s->touched)
        s->touched = off;
    return 0;
}

static int limb_of(st *s, uint32_t arr, int64_t off, unsigned bytes, bool write, uint32_t *limb)
{
    const ir_array *a = &s->f->arr[arr];
    if (off < 0 || off > 8 * (int64_t)a->len - (int64_t)bytes)
        return reject(s, CHECK_RULE_MEMORY_BOUNDS, "a %u-byte %s at offset %lld of %s[%u]", bytes,
                      write ? "store" : "load", (long long)off, a->name, a->len);
    if (bytes != 8 || off % 8)
        return reject(s, CHECK_RULE_UNSUPPORTED, "a partial-limb %s (%u bytes at offset %lld of %s)",
                      write ? "store" : "load", bytes, (long long)off, a->name);
    *limb = (uint32_t)(off / 8);
    return 0;
}

static int mem_read(st *s, uint32_t region, int64_t off, unsigned size, val *v)
{
    unsigned bytes = size / 8;
    memset(v, 0, sizeof *v);
    if (region != REGION_STACK) {
        uint32_t limb = 0;
        TRY(limb_of(s, region, off, bytes, false, &limb));
        const ir_array *a = &s->f->arr[region];
        /* one memory per aliasing case: an output equal to input i reads i's limbs until it stores them, and
         * input i reads what that output stored (at most one output equals a given input); an input equal to
         * input i (same_as[k] = i) is i: its loads are i's leaves and see what the output equal to i stored */
        uint32_t in_arr = region;
        if (!a->is_output && s->same_as[region] >= 0)
            region = in_arr = (uint32_t)s->same_as[region];
        if (a->is_output) {
            if (s->out_stored[region] && s->out[region][limb]) {
                v->e = s->out[region][limb];
                return 0;
            }
            int32_t i = s->same_as[region];
            if (i < 0 || limb >= s->f->arr[i].len)
                return reject(s, CHECK_RULE_STACK_UNWRITTEN, "a load of %s[%u] before it was stored", a->name, limb);
            in_arr = (uint32_t)i;
        } else {
            for (uint32_t j = 0; j < s->f->narr; j++)
                if (s->f->arr[j].is_output && s->same_as[j] == (int32_t)region && limb < s->f->arr[j].len &&
                    s->out[j][limb]) {
                    v->e = s->out[j][limb];
                    return 0;
                }
        }
        const ir_array *ia = &s->f->arr[in_arr];
        v->e = ck(s, ex_input(s->x, in_arr, limb, ia->lo[limb], ia->hi[limb]));
        return s->bad ? -1 : 0;
    }
    if (off >= 0) {
        /* the stack arguments: argument 6 + i at 8 + 8 i */
        uint32_t nstack = s->nargs > 6 ? s->nargs - 6 : 0;
        if (off >= 8 && off < 8 + 8 * (int64_t)nstack) {
            if (off % 8 || bytes != 8)
                return reject(s, CHECK_RULE_UNSUPPORTED, "a partial read of a stack argument");
            v->ptr = true;
            v->region = s->argmap[6 + (off - 8) / 8];
            v->off = 0;
            return 0;
        }
        return reject(s, CHECK_RULE_MEMORY_BOUNDS, "a %u-byte load at stack offset %lld (%s)", bytes, (long long)off,
                      off < 8 ? "the return address" : "above the arguments");
    }
    TRY(stack_bounds(s, off, bytes, false));
    /* bytes off .. off + bytes - 1: cells[-(off + i) - 1] */
    for (unsigned i = 0; i < bytes; i++) {
        int64_t ci = -(off + i) - 1;
        if (ci >= s->ncells || !s->cells[ci].vi)
            return reject(s, CHECK_RULE_STACK_UNWRITTEN, "a load of stack byte %lld, never written",
                          (long long)(off + i));
    }
    const cell *c0 = &s->cells[-off - 1];
    /* the whole of one stored value */
    const stored *sv0 = &s->sv[c0->vi - 1];
    bool whole = c0->byte == 0 && sv0->bytes == bytes;
    for (unsigned i = 1; whole && i < bytes; i++) {
        const cell *c = &s->cells[-(off + i) - 1];
        whole = c->vi == c0->vi && c->byte == i;
    }
    if (whole) {
        *v = sv0->v;
        return 0;
    }
    /* pieces: runs of consecutive bytes of one value */
    ex_id t[8];
    ir_u128 co[8];
    unsigned n = 0;
    for (unsigned i = 0; i < bytes;) {
        const cell *c = &s->cells[-(off + i) - 1];
        const stored *sv = &s->sv[c->vi - 1];
        if (sv->v.ptr)
            return reject(s, CHECK_RULE_UNSUPPORTED, "a partial read of a stored pointer");
        unsigned len = 1;
        while (i + len < bytes) {
            const cell *d = &s->cells[-(off + i + len) - 1];
            if (d->vi != c->vi || d->byte != c->byte + len)
                break;
            len++;
        }
        t[n] = trunc_(s, 8 * len, ck(s, ex_shr(s->x, 64, sv->v.e, 8 * c->byte)));
        co[n] = (ir_u128)1 << (8 * i);
        n++;
        i += len;
    }
    v->e = ck(s, ex_sum(s->x, 64, t, co, n, 0));
    return s->bad ? -1 : 0;
}

static int mem_write(st *s, uint32_t region, int64_t off, unsigned size, const val *v)
{
    unsigned bytes = size / 8;
    if (region != REGION_STACK) {
        const ir_array *a = &s->f->arr[region];
        if (!a->is_output)
            return reject(s, CHECK_RULE_STORE_INPUT, "a store into input array %s", a->name);
        uint32_t limb = 0;
        TRY(limb_of(s, region, off, bytes, true, &limb));
        if (v->ptr)
            return reject(s, CHECK_RULE_UNSUPPORTED, "a pointer stored into %s[%u]", a->name, limb);
        if (ex_has_unknown(s->x, v->e))
            return reject(s, CHECK_RULE_UNKNOWN_VALUE,
                          "%s[%u] stored from a value the function did not compute (an undefined flag or a "
                          "register's entry value)",
                          a->name, limb);
        s->out[region][limb] = v->e;
        s->out_stored[region] = true;
        observe(s, v->e, CHECK_EXEC_AT_ARRAY, region, limb);
        return 0;
    }
    if (off >= 0)
        return reject(s, CHECK_RULE_MEMORY_BOUNDS, "a %u-byte store at stack offset %lld (%s)", bytes,
                      (long long)off, off < 8 ? "the return address" : "the caller's frame");
    TRY(stack_bounds(s, off, bytes, true));
    if (v->ptr && bytes != 8)
        return reject(s, CHECK_RULE_UNSUPPORTED, "a partial store of a pointer");
    int64_t need = -off;
    if (need > s->ncells) {
        int64_t nc = s->ncells ? s->ncells : 256;
        while (nc < need)
            nc *= 2;
        cell *c = realloc(s->cells, (size_t)nc * sizeof *c);
        if (!c) {
            s->bad = true;
            return -1;
        }
        memset(c + s->ncells, 0, (size_t)(nc - s->ncells) * sizeof *c);
        s->cells = c;
        s->ncells = nc;
    }
    if (s->nsv == s->capsv) {
        size_t nc = s->capsv ? 2 * s->capsv : 64;
        stored *p = realloc(s->sv, nc * sizeof *p);
        if (!p) {
            s->bad = true;
            return -1;
        }
        s->sv = p;
        s->capsv = nc;
    }
    if (!v->ptr)
        observe(s, v->e, CHECK_EXEC_AT_STACK, 0, 0);
    s->sv[s->nsv].v = *v;
    s->sv[s->nsv].bytes = bytes;
    s->nsv++;
    for (unsigned i = 0; i < bytes; i++) {
        cell *c = &s->cells[-(off + i) - 1];
        c->vi = (uint32_t)s->nsv;
        c->byte = (uint8_t)i;
    }
    return 0;
}

/* ---- operands ---------------------------------------------------------------------------------------------------- */

/* read_op — operand i of the current instruction; an immediate is taken mod 2^w (w 0: the operand's size) */
static int read_op(st *s, unsigned i, unsigned w, val *v)
{
    const check_operand *o = &s->in->ops[i];
    memset(v, 0, sizeof *v);
    switch (o->kind) {
    case CHECK_OPND_REG:
        return read_reg(s, o->reg, v);
    case CHECK_OPND_IMM:
        v->e = k_(s, (ir_u128)o->imm & mask(w ? w : 64));
        return s->bad ? -1 : 0;
    default: {
        uint32_t region = 0;
        int64_t off = 0;
        TRY(address(s, o, &region, &off));
        TRY(mem_read(s, region, off, o->size, v));
        if (!v->ptr)
            observe(s, v->e, CHECK_EXEC_READ, 0, 0);
        return 0;
    }
    }
}

static int write_op(st *s, unsigned i, const val *v)
{
    const check_operand *o = &s->in->ops[i];
    if (o->kind == CHECK_OPND_REG)
        return write_reg(s, o->reg, v);
    if (o->kind != CHECK_OPND_MEM)
        return reject(s, CHECK_RULE_UNSUPPORTED, "a write to an immediate");
    uint32_t region = 0;
    int64_t off = 0;
    TRY(address(s, o, &region, &off));
    val t = *v;
    if (!t.ptr && o->size < 64) {
        t.e = trunc_(s, o->size, t.e);
        if (s->bad)
            return -1;
    }
    return mem_write(s, region, off, o->size, &t);
}

/* read_op_any — read_op, except that a partial read of a register holding a pointer gives the pointer (for the
 * flag-only instructions, which treat it as an opaque value) */
static int read_op_any(st *s, unsigned i, unsigned w, val *v)
{
    const check_operand *o = &s->in->ops[i];
    if (o->kind == CHECK_OPND_REG) {
        regref rr;
        TRY(reg_ref(s, o->reg, &rr));
        const val *cur = rr.kind ? &s->xmm[rr.idx] : &s->gpr[rr.idx];
        if (cur->ptr) {
            *v = *cur;
            return 0;
        }
    }
    return read_op(s, i, w, v);
}

/* read_data — operand i as data below 2^w */
static int read_data(st *s, unsigned i, unsigned w, ex_id *e)
{
    val v;
    TRY(read_op(s, i, w, &v));
    if (v.ptr)
        return reject(s, CHECK_RULE_UNSUPPORTED, "arithmetic on a pointer (%s)", region_name(s, v.region));
    *e = w < 64 ? trunc_(s, w, v.e) : v.e;
    return s->bad ? -1 : 0;
}

static int write_data(st *s, unsigned i, ex_id e)
{
    val v = { false, e, 0, 0 };
    return write_op(s, i, &v);
}

static int write_gpr(st *s, ZydisRegister reg, ex_id e)
{
    val v = { false, e, 0, 0 };
    return write_reg(s, reg, &v);
}

/* const_count — the low 8 bits of operand i as a constant (a count), or reject */
static int const_count(st *s, unsigned i, const char *what, uint64_t *k)
{
    val v;
    TRY(read_op(s, i, 0, &v));
    /* every count is masked to at most its low 8 bits (bzhi: [7:0]; shifts: 5 or 6 bits), so only those must be
     * constant (clang: mov $0x2c, %dl; bzhi %rdx, ...) */
    const ex_node *n = v.ptr ? NULL : ex_get(s->x, trunc_(s, 8, v.e));
    if (s->bad)
        return -1;
    if (!n || n->kind != EX_CONST)
        return reject(s, CHECK_RULE_UNSUPPORTED, "%s by a non-constant count", what);
    *k = (uint64_t)n->k;
    return 0;
}

static ZydisRegister gpr_of(unsigned idx, unsigned size)
{
    static const ZydisRegister r64[16] = {
        ZYDIS_REGISTER_RAX, ZYDIS_REGISTER_RCX, ZYDIS_REGISTER_RDX, ZYDIS_REGISTER_RBX,
        ZYDIS_REGISTER_RSP, ZYDIS_REGISTER_RBP, ZYDIS_REGISTER_RSI, ZYDIS_REGISTER_RDI,
        ZYDIS_REGISTER_R8,  ZYDIS_REGISTER_R9,  ZYDIS_REGISTER_R10, ZYDIS_REGISTER_R11,
        ZYDIS_REGISTER_R12, ZYDIS_REGISTER_R13, ZYDIS_REGISTER_R14, ZYDIS_REGISTER_R15,
    };
    static const ZydisRegister r32[4] = { ZYDIS_REGISTER_EAX, ZYDIS_REGISTER_ECX, ZYDIS_REGISTER_EDX,
                                          ZYDIS_REGISTER_EBX };
    static const ZydisRegister r16[4] = { ZYDIS_REGISTER_AX, ZYDIS_REGISTER_CX, ZYDIS_REGISTER_DX,
                                          ZYDIS_REGISTER_BX };
    static const ZydisRegister r8[4] = { ZYDIS_REGISTER_AL, ZYDIS_REGISTER_CL, ZYDIS_REGISTER_DL,
                                         ZYDIS_REGISTER_BL };
    switch (size) {
    case 32: return r32[idx & 3];
    case 16: return r16[idx & 3];
    case 8: return r8[idx & 3];
    default: return r64[idx & 15];
    }
}

/* ---- instruction groups ------------------------------------------------------------------------------------------ */

/* opaque_op — operand i of test / cmp as data below 2^w, where a pointer (whose address is not modelled) becomes a
 * fresh unknown value: the flags computed from it are unknown, so a later use of ZF, SF, PF (or cmp's CF, OF) is
 * UNKNOWN_VALUE where it is used, while test's CF = OF = 0 stay known (CryptOpt: `test %al, %al` on a register
 * that holds a pointer, to clear CF and OF) */
static int opaque_op(st *s, unsigned i, unsigned w, ex_id *e)
{
    val v;
    TRY(read_op_any(s, i, w, &v));
    if (v.ptr)
        *e = ck(s, ex_unknown(s->x, w));
    else
        *e = w < 64 ? trunc_(s, w, v.e) : v.e;
    return s->bad ? -1 : 0;
}

/* add sub adc sbb cmp (and the pointer forms of add/sub: rsp adjustments) */
static int exec_addsub(st *s, bool sub, bool carry, bool write)
{
    const check_insn *in = s->in;
    unsigned w = in->operand_width;
    const check_operand *d = &in->ops[0];
    /* pointer + constant: rsp adjustment, an array pointer advanced */
    if (!carry && write && d->kind == CHECK_OPND_REG && w == 64) {
        val dv, sv;
        TRY(read_reg(s, d->reg, &dv));
        if (dv.ptr) {
            TRY(read_op(s, 1, 64, &sv));
            const ex_node *n = sv.ptr ? NULL : ex_get(s->x, sv.e);
            if (!n || n->kind != EX_CONST)
                return reject(s, CHECK_RULE_UNSUPPORTED, "pointer arithmetic other than a constant offset");
            int64_t k = (int64_t)(uint64_t)n->k;
            for (int f = 0; f < NFLAGS; f++)
                set_how(s, f, H_UNDEF); /* flags of an address: meaningless here */
            if (!write)
                return 0;
            dv.off = wadd(dv.off, sub ? 0 - (uint64_t)k : (uint64_t)k);
            return write_reg(s, d->reg, &dv);
        }
    }
    ex_id a = 0, b = 0, cin = 0, r = 0, cf = 0;
    if (sub && d->kind == CHECK_OPND_REG && in->ops[1].kind == CHECK_OPND_REG && d->reg == in->ops[1].reg) {
        /* the idioms sub r, r (0) and sbb r, r (0 - CF: all ones or 0): r - r is 0 whatever r held (also a pointer
         * or a register's value at entry), so computing 0 - 0 - c gives the same result and every flag */
        a = b = k_(s, 0);
    } else if (!write) { /* cmp: a pointer operand is an opaque value */
        TRY(opaque_op(s, 0, w, &a));
        TRY(opaque_op(s, 1, w, &b));
    } else {
        TRY(read_data(s, 0, w, &a));
        TRY(read_data(s, 1, w, &b));
    }
    if (carry)
        TRY(get_flag(s, F_CF, &cin));
    else
        cin = k_(s, 0);
    if (s->bad)
        return -1;
    int rc = sub ? ex_subborrow(s->x, w, cin, a, b, &r, &cf) : ex_addcarry(s->x, w, cin, a, b, &r, &cf);
    if (rc) {
        s->bad = true;
        return -1;
    }
    set_flag(s, F_CF, cf);
    set_lazy(s, sub ? OP_SUB : OP_ADD, w, a, b, r);
    return write ? write_data(s, 0, r) : 0;
}

/* inc / dec: a + 1 / a - 1 with OF SF ZF AF PF as add / sub of 1 set them and CF untouched (SDM "INC", "DEC").
 * On a pointer register: the offset moves by one and the five flags are opaque (H_UNDEF, as for add). */
static int exec_incdec(st *s, bool dec)
{
    const check_insn *in = s->in;
    unsigned w = in->operand_width;
    const check_operand *d = &in->ops[0];
    static const int five[5] = { F_OF, F_SF, F_ZF, F_AF, F_PF };
    if (d->kind == CHECK_OPND_REG && w == 64) {
        val dv;
        TRY(read_reg(s, d->reg, &dv));
        if (dv.ptr) {
            for (int i = 0; i < 5; i++)
                set_how(s, five[i], H_UNDEF);
            dv.off = wadd(dv.off, dec ? ~(uint64_t)0 : 1);
            return write_reg(s, d->reg, &dv);
        }
    }
    ex_id a = 0, one = k_(s, 1), z = k_(s, 0), r = 0, cf = 0;
    TRY(read_data(s, 0, w, &a));
    if (s->bad)
        return -1;
    int rc = dec ? ex_subborrow(s->x, w, z, a, one, &r, &cf) : ex_addcarry(s->x, w, z, a, one, &r, &cf);
    if (rc) {
        s->bad = true;
        return -1;
    }
    set_lazy(s, dec ? OP_SUB : OP_ADD, w, a, one, r);
    return write_data(s, 0, r);
}

/* adcx (CF) and adox (OF): an add with carry that touches one flag */
static int exec_adx(st *s, int fi)
{
    unsigned w = s->in->operand_width;
    ex_id a = 0, b = 0, cin = 0, r = 0, cout = 0;
    TRY(read_data(s, 0, w, &a));
    TRY(read_data(s, 1, w, &b));
    TRY(get_flag(s, fi, &cin));
    if (ex_addcarry(s->x, w, cin, a, b, &r, &cout)) {
        s->bad = true;
        return -1;
    }
    set_flag(s, fi, cout);
    return write_data(s, 0, r);
}

/* stack_probe — `or $0, m` on a stack slot (gcc -fstack-clash-protection's `orq $0, (%rsp)` per page): it changes
 * no byte, so it is a touch (the frame bound, stack_bounds) that leaves the slot as it was, unwritten if it was;
 * its flags are those of OR with the slot's value: the value's when every byte holds data, else those of an
 * unknown value (CF = OF = 0 known, the rest unknown where used). *done: it was such a probe (else nothing done). */
static int stack_probe(st *s, bool *done)
{
    const check_insn *in = s->in;
    unsigned w = in->operand_width, bytes = in->ops[0].size / 8;
    *done = false;
    if (in->nops < 2 || in->ops[0].kind != CHECK_OPND_MEM || in->ops[1].kind != CHECK_OPND_IMM || in->ops[1].imm)
        return 0;
    uint32_t region = 0;
    int64_t off = 0;
    TRY(address(s, &in->ops[0], &region, &off));
    if (region != REGION_STACK || off >= 0 || bytes == 0 || bytes > 8)
        return 0; /* the arrays, the return address: as any other or */
    TRY(stack_bounds(s, off, bytes, true));
    bool data = true;
    for (unsigned i = 0; i < bytes && data; i++) {
        int64_t ci = -(off + i) - 1;
        data = ci < s->ncells && s->cells[ci].vi && !s->sv[s->cells[ci].vi - 1].v.ptr;
    }
    ex_id r = 0;
    if (data) {
        val v;
        TRY(mem_read(s, region, off, in->ops[0].size, &v));
        r = w < 64 ? trunc_(s, w, v.e) : v.e;
    } else {
        r = ck(s, ex_unknown(s->x, w));
    }
    if (s->bad)
        return -1;
    set_flag(s, F_CF, k_(s, 0));
    set_flag(s, F_OF, k_(s, 0));
    set_how(s, F_AF, H_UNDEF);
    set_lazy(s, OP_RES, w, 0, 0, r);
    *done = true;
    return 0;
}

static int exec_logic(st *s, ZydisMnemonic m, bool write)
{
    const check_insn *in = s->in;
    unsigned w = in->operand_width;
    ex_id a = 0, b = 0, r = 0;
    if (m == ZYDIS_MNEMONIC_OR) {
        bool done = false;
        TRY(stack_probe(s, &done));
        if (done)
            return 0;
    }
    if (m == ZYDIS_MNEMONIC_XOR && in->ops[0].kind == CHECK_OPND_REG && in->ops[1].kind == CHECK_OPND_REG &&
        in->ops[0].reg == in->ops[1].reg) {
        r = k_(s, 0); /* the zero idiom */
    } else if (!write) { /* test: a pointer operand is an opaque value */
        TRY(opaque_op(s, 0, w, &a));
        TRY(opaque_op(s, 1, w, &b));
        r = ck(s, ex_and(s->x, w, a, b));
    } else {
        TRY(read_data(s, 0, w, &a));
        TRY(read_data(s, 1, w, &b));
        if (m == ZYDIS_MNEMONIC_OR)
            r = ck(s, ex_or(s->x, w, a, b));
        else if (m == ZYDIS_MNEMONIC_XOR)
            r = ck(s, ex_xor(s->x, w, a, b));
        else
            r = ck(s, ex_and(s->x, w, a, b));
    }
    if (s->bad)
        return -1;
    set_flag(s, F_CF, k_(s, 0));
    set_flag(s, F_OF, k_(s, 0));
    set_how(s, F_AF, H_UNDEF);
    set_lazy(s, OP_RES, w, 0, 0, r);
    return write ? write_data(s, 0, r) : 0;
}

/* andn dst, a, b (BMI1; gcc/clang -march=haswell): dst = ~a & b; SF ZF from the result, CF OF cleared, AF PF
 * undefined (SDM "ANDN"). decode.c does not list it yet: reached only once it does. */
static int exec_andn(st *s)
{
    unsigned w = s->in->operand_width;
    ex_id a = 0, b = 0;
    TRY(read_data(s, 1, w, &a));
    TRY(read_data(s, 2, w, &b));
    ex_id r = ck(s, ex_and(s->x, w, ck(s, ex_not(s->x, w, a)), b));
    if (s->bad)
        return -1;
    set_flag(s, F_CF, k_(s, 0));
    set_flag(s, F_OF, k_(s, 0));
    set_how(s, F_AF, H_UNDEF);
    set_lazy(s, OP_RES, w, 0, 0, r);
    set_how(s, F_PF, H_UNDEF);
    return write_data(s, 0, r);
}

/* the shift count: the operand after `first` (imm or cl), masked as the SDM says (6 bits for 64-bit operands,
 * else 5) */
static int shift_count(st *s, unsigned first, unsigned w, unsigned *k)
{
    const check_insn *in = s->in;
    uint64_t c = 1;
    unsigned i;
    for (i = first; i < in->nops; i++)
        if (in->ops[i].kind == CHECK_OPND_IMM || (in->ops[i].kind == CHECK_OPND_REG &&
                                                   in->ops[i].reg == ZYDIS_REGISTER_CL))
            break;
    if (i < in->nops) {
        if (in->ops[i].kind == CHECK_OPND_IMM)
            c = in->ops[i].imm;
        else
            TRY(const_count(s, i, "a shift", &c));
    }
    *k = (unsigned)(c & (w == 64 ? 63u : 31u));
    return 0;
}

static int exec_shift(st *s, ZydisMnemonic m)
{
    unsigned w = s->in->operand_width, k = 0;
    ex_id a = 0, r = 0, cf = 0, of = 0;
    TRY(read_data(s, 0, w, &a));
    TRY(shift_count(s, 1, w, &k));
    if (k == 0) /* "If the count is 0, the flags are not affected"; the destination is still written */
        return write_data(s, 0, a);
    ex_id sign = bit(s, a, w - 1);
    switch (m) {
    case ZYDIS_MNEMONIC_SHL:
        r = k < w ? ck(s, ex_shl(s->x, w, a, k)) : k_(s, 0);
        if (k <= w)
            cf = bit(s, a, w - k);
        if (k == 1)
            of = ck(s, ex_xor(s->x, 1, bit(s, r, w - 1), cf));
        break;
    case ZYDIS_MNEMONIC_SHR:
        r = k < w ? ck(s, ex_shr(s->x, w, a, k)) : k_(s, 0);
        if (k <= w)
            cf = bit(s, a, k - 1);
        if (k == 1)
            of = sign;
        break;
    default: /* sar: (a >> k) + sign * (2^w - 2^(w-k)) */
        if (k < w) {
            r = sum2(s, w, ck(s, ex_shr(s->x, w, a, k)), 1, sign, mask(w) - mask(w - k));
            cf = bit(s, a, k - 1);
        } else {
            r = sum2(s, w, sign, mask(w), sign, 0);
        }
        if (k == 1)
            of = k_(s, 0);
        break;
    }
    if (s->bad)
        return -1;
    /* SDM: CF is undefined for shl/shr counts of at least the operand size; OF for counts other than 1; AF for
     * any non-zero count */
    if (cf && k < w)
        set_flag(s, F_CF, cf);
    else
        set_how(s, F_CF, H_UNDEF);
    if (of)
        set_flag(s, F_OF, of);
    else
        set_how(s, F_OF, H_UNDEF);
    set_how(s, F_AF, H_UNDEF);
    set_lazy(s, OP_RES, w, 0, 0, r);
    return write_data(s, 0, r);
}

static int exec_shxd(st *s, bool left)
{
    unsigned w = s->in->operand_width, k = 0;
    ex_id a = 0, b = 0, r = 0;
    TRY(read_data(s, 0, w, &a));
    TRY(read_data(s, 1, w, &b));
    TRY(shift_count(s, 2, w, &k));
    if (k == 0)
        return write_data(s, 0, a);
    if (k > w) /* 16-bit operands with a count above 16: "the result is undefined" */
        return reject(s, CHECK_RULE_UNSUPPORTED, "a double shift by more than the operand size");
    ex_id cf = 0;
    if (left) { /* (a << k | b >> (w - k)) mod 2^w; for w = 64 that is (a:b >> (64 - k)) mod 2^64, the IR's shrd */
        if (w == 64)
            r = ck(s, ex_shrd(s->x, a, b, 64 - k));
        else
            r = sum2(s, w, a, k < w ? (ir_u128)1 << k : 0, ck(s, ex_shr(s->x, w, b, w - k)), 1);
        cf = bit(s, a, w - k);
    } else {    /* (b:a >> k) mod 2^w */
        if (w == 64)
            r = ck(s, ex_shrd(s->x, b, a, k));
        else
            r = sum2(s, w, ck(s, ex_shr(s->x, w, a, k)), 1, b, k < w ? (ir_u128)1 << (w - k) : 0);
        if (k == w)
            r = b;
        cf = bit(s, a, k - 1);
    }
    if (s->bad)
        return -1;
    set_flag(s, F_CF, cf);
    if (k == 1) /* the sign changed */
        set_flag(s, F_OF, ck(s, ex_xor(s->x, 1, bit(s, r, w - 1), bit(s, a, w - 1))));
    else
        set_how(s, F_OF, H_UNDEF);
    set_how(s, F_AF, H_UNDEF);
    set_lazy(s, OP_RES, w, 0, 0, r);
    return write_data(s, 0, r);
}

/* shlx / shrx dst, src, count (BMI2; no flags) */
static int exec_shx(st *s, bool left)
{
    unsigned w = s->in->operand_width;
    ex_id a = 0;
    uint64_t c = 0;
    TRY(read_data(s, 1, w, &a));
    TRY(const_count(s, 2, left ? "shlx" : "shrx", &c));
    unsigned k = (unsigned)(c & (w == 64 ? 63u : 31u));
    ex_id r = left ? ck(s, ex_shl(s->x, w, a, k)) : ck(s, ex_shr(s->x, w, a, k));
    if (s->bad)
        return -1;
    return write_data(s, 0, r);
}

/* bzhi dst, src, index: src with the bits from index[7:0] up cleared */
static int exec_bzhi(st *s)
{
    unsigned w = s->in->operand_width;
    ex_id a = 0, r = 0;
    uint64_t c = 0;
    TRY(read_data(s, 1, w, &a));
    TRY(const_count(s, 2, "bzhi", &c));
    unsigned n = (unsigned)(c & 0xff);
    r = n < w ? (n ? trunc_(s, n, a) : k_(s, 0)) : a;
    if (s->bad)
        return -1;
    set_flag(s, F_CF, k_(s, n > w - 1));
    set_flag(s, F_OF, k_(s, 0));
    set_how(s, F_AF, H_UNDEF);
    set_lazy(s, OP_RES, w, 0, 0, r);
    set_how(s, F_PF, H_UNDEF);
    return write_data(s, 0, r);
}

/* mul src: rdx:rax = rax * src (ax = al * src for bytes) */
static int exec_mul(st *s)
{
    unsigned w = s->in->operand_width;
    ex_id a = 0, b = 0, lo = 0, hi = 0;
    val av;
    TRY(read_reg(s, gpr_of(RAX, w), &av));
    if (av.ptr)
        return reject(s, CHECK_RULE_UNSUPPORTED, "arithmetic on a pointer");
    a = av.e;
    TRY(read_data(s, 0, w, &b));
    if (ex_mulx(s->x, w, a, b, &lo, &hi)) {
        s->bad = true;
        return -1;
    }
    if (w == 8) {
        TRY(write_gpr(s, ZYDIS_REGISTER_AX, ck(s, ex_mul(s->x, 16, a, b))));
    } else {
        TRY(write_gpr(s, gpr_of(RAX, w), lo));
        TRY(write_gpr(s, gpr_of(RDX, w), hi));
    }
    ex_id of = not1(s, ck(s, ex_lnot(s->x, hi)));
    if (s->bad)
        return -1;
    set_flag(s, F_CF, of);
    set_flag(s, F_OF, of);
    set_how(s, F_SF, H_UNDEF);
    set_how(s, F_ZF, H_UNDEF);
    set_how(s, F_AF, H_UNDEF);
    set_how(s, F_PF, H_UNDEF);
    return 0;
}

/* imul dst, src / imul dst, src, imm: the low w bits of the product (the same for signed and unsigned) */
static int exec_imul(st *s)
{
    const check_insn *in = s->in;
    unsigned w = in->operand_width;
    if (in->nvisible < 2)
        return reject(s, CHECK_RULE_UNSUPPORTED, "the one-operand signed widening multiply");
    ex_id a = 0, b = 0;
    if (in->nvisible == 2) {
        TRY(read_data(s, 0, w, &a));
        TRY(read_data(s, 1, w, &b));
    } else {
        TRY(read_data(s, 1, w, &a));
        TRY(read_data(s, 2, w, &b));
    }
    ex_id r = ck(s, ex_mul(s->x, w, a, b));
    /* CF = OF = the signed product does not fit in w bits (SDM "IMUL": "set when significant bits are carried
     * into the upper half"): the signed high half is uhi - (a < 0 ? b : 0) - (b < 0 ? a : 0) mod 2^w, and it
     * fits exactly when that high half is the sign extension of the low half's top bit, i.e. when
     * hi + lo[w-1] = 0 mod 2^w */
    ex_id lo = 0, uhi = 0;
    if (ex_mulx(s->x, w, a, b, &lo, &uhi)) {
        s->bad = true;
        return -1;
    }
    ex_id z = k_(s, 0);
    ex_id t[4] = { uhi, ck(s, ex_select(s->x, w, bit(s, a, w - 1), z, b)),
                   ck(s, ex_select(s->x, w, bit(s, b, w - 1), z, a)), bit(s, lo, w - 1) };
    ir_u128 c[4] = { 1, mask(w), mask(w), 1 };
    ex_id of = s->bad ? 0 : not1(s, ck(s, ex_lnot(s->x, ck(s, ex_sum(s->x, w, t, c, 4, 0)))));
    if (s->bad)
        return -1;
    set_flag(s, F_CF, of);
    set_flag(s, F_OF, of);
    set_how(s, F_SF, H_UNDEF);
    set_how(s, F_ZF, H_UNDEF);
    set_how(s, F_AF, H_UNDEF);
    set_how(s, F_PF, H_UNDEF);
    return write_data(s, 0, r);
}

/* mulx hi, lo, src (Intel order): hi:lo = rdx * src; no flags; hi wins when both name one register */
static int exec_mulx(st *s)
{
    unsigned w = s->in->operand_width;
    val dv;
    ex_id b = 0, lo = 0, hi = 0;
    TRY(read_reg(s, gpr_of(RDX, w), &dv));
    if (dv.ptr)
        return reject(s, CHECK_RULE_UNSUPPORTED, "arithmetic on a pointer");
    TRY(read_data(s, 2, w, &b));
    if (ex_mulx(s->x, w, dv.e, b, &lo, &hi)) {
        s->bad = true;
        return -1;
    }
    TRY(write_data(s, 1, lo));
    return write_data(s, 0, hi);
}

static int exec_neg(st *s)
{
    unsigned w = s->in->operand_width;
    ex_id a = 0, r = 0, cf = 0, z = k_(s, 0);
    TRY(read_data(s, 0, w, &a));
    if (ex_subborrow(s->x, w, z, z, a, &r, &cf)) {
        s->bad = true;
        return -1;
    }
    set_flag(s, F_CF, cf);
    set_lazy(s, OP_SUB, w, z, a, r);
    return write_data(s, 0, r);
}

static int exec_cmov(st *s)
{
    unsigned w = s->in->operand_width;
    ex_id c = 0, old = 0, nw = 0;
    bool neg = false;
    TRY(condition(s, s->in->mnemonic, &c, &neg));
    val ov, nv;
    TRY(read_op(s, 0, w, &ov));
    TRY(read_op(s, 1, w, &nv));
    if (ov.ptr || nv.ptr) {
        if (w == 64 && ov.ptr && nv.ptr && ov.region == nv.region && ov.off == nv.off)
            return 0;
        return reject(s, CHECK_RULE_UNSUPPORTED, "a conditional move of a pointer");
    }
    old = trunc_(s, w, ov.e);
    nw = trunc_(s, w, nv.e);
    /* moves when the condition holds: c != 0 (neg: c == 0) */
    ex_id r = neg ? ck(s, ex_select(s->x, w, c, nw, old)) : ck(s, ex_select(s->x, w, c, old, nw));
    if (s->bad)
        return -1;
    return write_data(s, 0, r);
}

static int exec_setcc(st *s)
{
    ex_id c = 0;
    bool neg = false;
    TRY(condition(s, s->in->mnemonic, &c, &neg));
    ex_id b = neg ? ck(s, ex_lnot(s->x, c)) : c;
    if (s->bad)
        return -1;
    return write_data(s, 0, b);
}

static int exec_movx(st *s, bool sign)
{
    const check_insn *in = s->in;
    unsigned from = in->ops[1].size, to = in->ops[0].size;
    ex_id a = 0;
    TRY(read_data(s, 1, from, &a));
    ex_id r = sign ? sext(s, a, from, to) : a;
    if (s->bad)
        return -1;
    return write_data(s, 0, r);
}

static int exec_lea(st *s)
{
    const check_insn *in = s->in;
    const check_operand *m = &in->ops[1];
    unsigned w = in->ops[0].size;
    ZydisRegister parts[2] = { m->mem.base, m->mem.index };
    ir_u128 scale[2] = { 1, m->mem.scale ? m->mem.scale : 1 };
    ex_id t[2];
    ir_u128 c[2];
    unsigned n = 0;
    val ptr = { false, 0, 0, 0 };
    for (int i = 0; i < 2; i++) {
        if (parts[i] == ZYDIS_REGISTER_NONE)
            continue;
        if (ZydisRegisterGetClass(parts[i]) != ZYDIS_REGCLASS_GPR64)
            return reject(s, CHECK_RULE_UNSUPPORTED, "an address of other than 64-bit registers");
        val v;
        TRY(read_reg(s, parts[i], &v));
        if (v.ptr) {
            if (ptr.ptr || scale[i] != 1)
                return reject(s, CHECK_RULE_DATA_ADDRESS, "an address computed from data");
            ptr = v;
        } else {
            t[n] = v.e;
            c[n] = scale[i];
            n++;
        }
    }
    if (ptr.ptr) {
        for (unsigned i = 0; i < n; i++) {
            const ex_node *nd = ex_get(s->x, t[i]);
            if (!nd || nd->kind != EX_CONST)
                return reject(s, CHECK_RULE_DATA_ADDRESS, "an address computed from data");
            ptr.off = wadd(ptr.off, (uint64_t)(nd->k * c[i]));
        }
        ptr.off = wadd(ptr.off, (uint64_t)m->mem.disp);
        if (w != 64)
            return reject(s, CHECK_RULE_UNSUPPORTED, "a truncated address");
        return write_reg(s, in->ops[0].reg, &ptr);
    }
    ex_id r = ck(s, ex_sum(s->x, w, t, c, n, (ir_u128)(uint64_t)m->mem.disp & mask(w)));
    if (s->bad)
        return -1;
    return write_gpr(s, in->ops[0].reg, r);
}

static int exec_push(st *s)
{
    if (s->in->operand_width != 64)
        return reject(s, CHECK_RULE_UNSUPPORTED, "a %u-bit push", s->in->operand_width);
    val v, sp = s->gpr[RSP];
    TRY(read_op(s, 0, 64, &v));
    if (!sp.ptr || sp.region != REGION_STACK)
        return reject(s, CHECK_RULE_DATA_ADDRESS, "rsp does not point into the stack");
    sp.off -= 8;
    s->gpr[RSP] = sp;
    return mem_write(s, REGION_STACK, sp.off, 64, &v);
}

static int exec_pop(st *s)
{
    if (s->in->operand_width != 64)
        return reject(s, CHECK_RULE_UNSUPPORTED, "a %u-bit pop", s->in->operand_width);
    val v, sp = s->gpr[RSP];
    if (!sp.ptr || sp.region != REGION_STACK)
        return reject(s, CHECK_RULE_DATA_ADDRESS, "rsp does not point into the stack");
    TRY(mem_read(s, REGION_STACK, sp.off, 64, &v));
    if (!v.ptr)
        observe(s, v.e, CHECK_EXEC_READ, 0, 0);
    sp.off += 8;
    s->gpr[RSP] = sp;
    return write_op(s, 0, &v); /* pop %rsp: the popped value wins, as the SDM says */
}

static int exec_xchg(st *s)
{
    unsigned w = s->in->operand_width;
    val a, b;
    TRY(read_op(s, 0, w, &a));
    TRY(read_op(s, 1, w, &b));
    TRY(write_op(s, 0, &b));
    return write_op(s, 1, &a);
}

/* movq/movd/vmovq/vmovd between a general-purpose and an xmm register (the low 64 bits are tracked) */
static int exec_movxmm(st *s)
{
    const check_insn *in = s->in;
    regref d, src;
    TRY(reg_ref(s, in->ops[0].reg, &d));
    TRY(reg_ref(s, in->ops[1].reg, &src));
    unsigned w = d.kind ? ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, in->ops[1].reg)
                        : ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, in->ops[0].reg);
    val v = src.kind ? s->xmm[src.idx] : s->gpr[src.idx];
    if (w != 64) {
        if (v.ptr)
            return reject(s, CHECK_RULE_UNSUPPORTED, "a 32-bit move of a pointer");
        v.e = trunc_(s, 32, v.e);
        if (s->bad)
            return -1;
    }
    if (d.kind)
        s->xmm[d.idx] = v;
    else
        s->gpr[d.idx] = v;
    return 0;
}

static int exec_one(st *s)
{
    const check_insn *in = s->in;
    unsigned w = in->operand_width;
    ZydisMnemonic m = in->mnemonic;
    switch (m) {
    case ZYDIS_MNEMONIC_NOP:
    case ZYDIS_MNEMONIC_ENDBR64:
        return 0;
    case ZYDIS_MNEMONIC_MOV: {
        val v;
        TRY(read_op(s, 1, in->ops[0].size, &v));
        return write_op(s, 0, &v);
    }
    case ZYDIS_MNEMONIC_MOVZX: return exec_movx(s, false);
    case ZYDIS_MNEMONIC_MOVSX:
    case ZYDIS_MNEMONIC_MOVSXD: return exec_movx(s, true);
    case ZYDIS_MNEMONIC_CDQE: {
        val v;
        TRY(read_reg(s, ZYDIS_REGISTER_EAX, &v));
        return write_gpr(s, ZYDIS_REGISTER_RAX, sext(s, v.e, 32, 64));
    }
    case ZYDIS_MNEMONIC_LEA: return exec_lea(s);
    case ZYDIS_MNEMONIC_ADD: return exec_addsub(s, false, false, true);
    case ZYDIS_MNEMONIC_ADC: return exec_addsub(s, false, true, true);
    case ZYDIS_MNEMONIC_SUB: return exec_addsub(s, true, false, true);
    case ZYDIS_MNEMONIC_SBB: return exec_addsub(s, true, true, true);
    case ZYDIS_MNEMONIC_CMP: return exec_addsub(s, true, false, false);
    case ZYDIS_MNEMONIC_ADCX: return exec_adx(s, F_CF);
    case ZYDIS_MNEMONIC_ADOX: return exec_adx(s, F_OF);
    case ZYDIS_MNEMONIC_NEG: return exec_neg(s);
    case ZYDIS_MNEMONIC_INC: return exec_incdec(s, false);
    case ZYDIS_MNEMONIC_DEC: return exec_incdec(s, true);
    case ZYDIS_MNEMONIC_MUL: return exec_mul(s);
    case ZYDIS_MNEMONIC_MULX: return exec_mulx(s);
    case ZYDIS_MNEMONIC_IMUL: return exec_imul(s);
    case ZYDIS_MNEMONIC_SHL:
    case ZYDIS_MNEMONIC_SHR:
    case ZYDIS_MNEMONIC_SAR: return exec_shift(s, m);
    case ZYDIS_MNEMONIC_SHLD: return exec_shxd(s, true);
    case ZYDIS_MNEMONIC_SHRD: return exec_shxd(s, false);
    case ZYDIS_MNEMONIC_SHLX: return exec_shx(s, true);
    case ZYDIS_MNEMONIC_SHRX: return exec_shx(s, false);
    case ZYDIS_MNEMONIC_BZHI: return exec_bzhi(s);
    case ZYDIS_MNEMONIC_AND:
    case ZYDIS_MNEMONIC_OR:
    case ZYDIS_MNEMONIC_XOR: return exec_logic(s, m, true);
    case ZYDIS_MNEMONIC_TEST: return exec_logic(s, ZYDIS_MNEMONIC_AND, false);
    case ZYDIS_MNEMONIC_ANDN: return exec_andn(s);
    case ZYDIS_MNEMONIC_NOT: {
        ex_id a = 0;
        TRY(read_data(s, 0, w, &a));
        return write_data(s, 0, ck(s, ex_not(s->x, w, a)));
    }
    case ZYDIS_MNEMONIC_CLC:
    case ZYDIS_MNEMONIC_STC:
        set_flag(s, F_CF, k_(s, m == ZYDIS_MNEMONIC_STC));
        return s->bad ? -1 : 0;
    case ZYDIS_MNEMONIC_XCHG: return exec_xchg(s);
    case ZYDIS_MNEMONIC_PUSH: return exec_push(s);
    case ZYDIS_MNEMONIC_POP: return exec_pop(s);
    case ZYDIS_MNEMONIC_MOVQ:
    case ZYDIS_MNEMONIC_MOVD:
    case ZYDIS_MNEMONIC_VMOVQ:
    case ZYDIS_MNEMONIC_VMOVD: return exec_movxmm(s);
    default:
        if (cc_of(m) >= 0)
            return strncmp(check_mnemonic(in), "set", 3) == 0 ? exec_setcc(s) : exec_cmov(s);
        return reject(s, CHECK_RULE_UNKNOWN_INSN, "no semantics for `%s`", check_mnemonic(in));
    }
}

/* at ret: the callee-saved registers hold their entry values, rsp is back at the return address */
static int check_ret(st *s)
{
    for (int i = 0; i < 6; i++) {
        const val *v = &s->gpr[callee_saved[i]];
        if (v->ptr || v->e != s->entry[callee_saved[i]])
            return reject(s, CHECK_RULE_CALLEE_SAVED, "callee-saved %s not restored", gpr_names[callee_saved[i]]);
    }
    const val *sp = &s->gpr[RSP];
    if (!sp->ptr || sp->region != REGION_STACK || sp->off != 0) {
        if (sp->ptr && sp->region == REGION_STACK)
            return reject(s, CHECK_RULE_STACK_UNBALANCED, "rsp at entry%+lld at ret", (long long)sp->off);
        return reject(s, CHECK_RULE_STACK_UNBALANCED, "rsp is not the entry rsp at ret");
    }
    return 0;
}

/* stack_low — the lowest valid stack offset now: rsp minus the red zone (0 with no_red_zone); 0 when rsp is not a
 * stack pointer */
static int64_t stack_low(const st *s)
{
    const val *sp = &s->gpr[RSP];
    if (!sp->ptr || sp->region != REGION_STACK)
        return 0;
    return sp->off - (s->no_red_zone ? 0 : 128);
}

/* after_rsp — after each instruction: rsp must still point into the stack frame, at or below the return address
 * (a signal handler writes below rsp whenever it runs: an rsp into an argument array or above the entry would let
 * it write outside what the function may touch). Bytes that were in the frame or red zone before and are below it
 * now (rsp moved up) are forgotten: a signal may have overwritten them, so a later read of one is STACK_UNWRITTEN. */
static int after_rsp(st *s, int64_t low_before)
{
    const val *sp = &s->gpr[RSP];
    if (!sp->ptr || sp->region != REGION_STACK)
        return reject(s, CHECK_RULE_STACK_UNBALANCED, "rsp no longer points into the stack frame");
    if (sp->off > 0)
        return reject(s, CHECK_RULE_STACK_UNBALANCED, "rsp moved above the return address (entry%+lld)",
                      (long long)sp->off);
    if (sp->off < s->touched - FRAME_PAGE)
        return reject(s, CHECK_RULE_FRAME_SIZE, "rsp at entry%+lld, more than %d bytes below the lowest stack byte "
                      "touched before (offset %lld): a frame larger than a page must touch each page in order",
                      (long long)sp->off, FRAME_PAGE, (long long)s->touched);
    if (sp->off < -STACK_MAX)
        return reject(s, CHECK_RULE_MEMORY_BOUNDS, "a stack frame deeper than %lld bytes", (long long)STACK_MAX);
    int64_t low = stack_low(s);
    if (low_before < -s->ncells)
        low_before = -s->ncells;
    for (int64_t off = low_before; off < low && off < 0; off++) {
        int64_t i = -off - 1; /* cells[i] is offset -(i + 1) */
        if (i >= 0 && i < s->ncells)
            s->cells[i].vi = 0;
    }
    return 0;
}

void check_exec_argmap(const ir_func *f, uint32_t argmap[16])
{
    uint32_t na = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr && na < 16; j++)
            if (f->arr[j].is_output == (pass == 0))
                argmap[na++] = j;
}

static int check_exec_run(ex_ctx *x, const ir_func *f, const uint32_t *argmap, const check_insn_list *insns,
                          bool no_red_zone, const int32_t *same_as, ex_id *const *out, check_result *r,
                          check_exec_obs *obs);

int check_exec(ex_ctx *x, const ir_func *f, const uint32_t *argmap, const check_insn_list *insns, bool no_red_zone,
               ex_id *const *out, check_result *r)
{
    return check_exec_run(x, f, argmap, insns, no_red_zone, NULL, out, r, NULL);
}

int check_exec_case(ex_ctx *x, const ir_func *f, const uint32_t *argmap, const check_insn_list *insns,
                    bool no_red_zone, const int32_t *same_as, ex_id *const *out, check_result *r)
{
    return check_exec_run(x, f, argmap, insns, no_red_zone, same_as, out, r, NULL);
}

int check_exec_observed(ex_ctx *x, const ir_func *f, const uint32_t *argmap, const check_insn_list *insns,
                        bool no_red_zone, ex_id *const *out, check_result *r, check_exec_obs *obs)
{
    return check_exec_run(x, f, argmap, insns, no_red_zone, NULL, out, r, obs);
}

/* final_state — the state at ret, for the observer: every flag the executor knows (lazy ones built now) */
static int final_state(st *s)
{
    check_exec_obs *o = s->obs;
    for (int i = 0; i < NFLAGS; i++) {
        o->flag[i] = 0;
        if (s->fl[i].how != H_UNDEF)
            TRY(get_flag(s, i, &o->flag[i]));
    }
    for (int i = 0; i < 16; i++) {
        o->gpr_ptr[i] = s->gpr[i].ptr;
        o->gpr[i] = s->gpr[i].ptr ? 0 : s->gpr[i].e;
        o->xmm[i] = s->xmm[i].ptr ? 0 : s->xmm[i].e;
    }
    return 0;
}

/* check_exec_run — the executor: one aliasing case (same_as, NULL: disjoint), reporting to obs (NULL: nobody). */
static int check_exec_run(ex_ctx *x, const ir_func *f, const uint32_t *argmap, const check_insn_list *insns,
                          bool no_red_zone, const int32_t *same_as, ex_id *const *out, check_result *r,
                          check_exec_obs *obs)
{
    if (!r)
        return -1;
    r->ninsns = 0;
    if (!x || !f || !argmap || !insns || !out)
        return bad_input(r, "check_exec: a NULL argument");
    if (f->narr == 0 || f->narr > 16)
        return bad_input(r, "check_exec: the program must have 1 to 16 arrays");
    for (uint32_t k = 0; k < f->narr; k++) {
        if (argmap[k] >= f->narr)
            return bad_input(r, "check_exec: argmap names an array the program does not have");
        for (uint32_t j = 0; j < k; j++)
            if (argmap[j] == argmap[k])
                return bad_input(r, "check_exec: argmap passes one array twice");
    }
    for (uint32_t j = 0; j < f->narr; j++)
        if (f->arr[j].is_output) {
            if (!out[j])
                return bad_input(r, "check_exec: no out[] entry for an output array");
            for (uint32_t i = 0; i < f->arr[j].len; i++)
                out[j][i] = 0;
        }
    st s;
    memset(&s, 0, sizeof s);
    for (uint32_t j = 0; j < 16; j++)
        s.same_as[j] = -1;
    if (same_as)
        for (uint32_t j = 0; j < f->narr; j++) {
            int32_t i = same_as[j];
            if (i < 0)
                continue;
            if ((uint32_t)i >= f->narr || f->arr[i].is_output || (uint32_t)i == j || same_as[i] >= 0)
                return bad_input(r, "check_exec: an aliasing case must pair an array with an input that is "
                                    "itself (same_as -1)");
            if (!f->arr[j].is_output && f->arr[j].len != f->arr[i].len)
                return bad_input(r, "check_exec: two equal inputs of different lengths");
            s.same_as[j] = i;
        }
    for (uint32_t j = 0; j < f->narr; j++) /* an input equal to an input that an output equals */
        for (uint32_t k = 0; k < f->narr; k++)
            if (f->arr[j].is_output && f->arr[k].is_output && j != k && s.same_as[j] >= 0 &&
                s.same_as[j] == s.same_as[k])
                return bad_input(r, "check_exec: two outputs equal to one input");
    s.x = x;
    s.f = f;
    s.argmap = argmap;
    s.nargs = f->narr;
    s.no_red_zone = no_red_zone;
    s.r = r;
    s.out = out;
    s.obs = obs;
    s.first = insns->insns;
    s.out_stored = calloc(f->narr, sizeof *s.out_stored);
    if (!s.out_stored)
        return bad_input(r, "out of memory");
    for (int i = 0; i < 16; i++) {
        s.gpr[i].e = ck(&s, ex_unknown(x, 64));
        s.entry[i] = s.gpr[i].e;
        s.xmm[i].e = ck(&s, ex_unknown(x, 64));
    }
    for (uint32_t k = 0; k < 6 && k < s.nargs; k++) {
        val *v = &s.gpr[arg_regs[k]];
        v->ptr = true;
        v->region = argmap[k];
        v->off = 0;
    }
    s.gpr[RSP].ptr = true;
    s.gpr[RSP].region = REGION_STACK;
    s.gpr[RSP].off = 0;
    for (int i = 0; i < NFLAGS; i++)
        s.fl[i].how = H_UNDEF;
    int rc = s.bad ? -1 : 0;
    bool returned = false;
    for (size_t i = 0; i < insns->n && rc == 0 && !returned; i++) {
        const check_insn *in = &insns->insns[i];
        s.in = in;
        r->ninsns++;
        if (in->cls != CHECK_INSN_SUPPORTED) {
            char d[200];
            check_insn_describe(in, d, sizeof d);
            check_rule rule = in->cls == CHECK_INSN_BRANCH     ? CHECK_RULE_BRANCH
                              : in->cls == CHECK_INSN_DIVISION ? CHECK_RULE_DIVISION
                                                               : CHECK_RULE_UNKNOWN_INSN;
            /* describe ends in " at 0x<addr>"; reject adds it again */
            char *at = strstr(d, " at 0x");
            if (at)
                *at = '\0';
            rc = reject(&s, rule, "%s", d);
            break;
        }
        if (in->rip_relative || in->absolute || in->reloc >= 0) {
            rc = reject(&s, CHECK_RULE_RIP_DATA, "%s", in->reloc >= 0 && !in->rip_relative && !in->absolute
                                                          ? "bytes under a relocation"
                                                          : "RIP-relative or absolute data");
            break;
        }
        if (in->mnemonic == ZYDIS_MNEMONIC_RET) {
            rc = check_ret(&s);
            returned = true;
            for (size_t j = i + 1; j < insns->n && rc == 0; j++) {
                const check_insn *p = &insns->insns[j];
                if (p->mnemonic != ZYDIS_MNEMONIC_NOP && p->mnemonic != ZYDIS_MNEMONIC_INT3) {
                    s.in = p;
                    rc = reject(&s, CHECK_RULE_BRANCH, "code after ret");
                }
            }
            break;
        }
        int64_t low_before = stack_low(&s);
        rc = exec_one(&s);
        if (rc == 0 && s.bad)
            rc = -1;
        if (rc == 0)
            rc = after_rsp(&s, low_before);
    }
    if (rc == 0 && returned && obs)
        rc = final_state(&s);
    if (rc == 0 && !returned) {
        s.in = NULL;
        if (insns->n)
            s.in = &insns->insns[insns->n - 1];
        rc = reject(&s, CHECK_RULE_BRANCH, "no ret (the code falls through its end)");
    }
    if (rc < 0 || s.bad) {
        char msg[200];
        snprintf(msg, sizeof msg, "check_exec: %s", ex_err(x) && *ex_err(x) ? ex_err(x) : "out of memory");
        rc = bad_input(r, msg);
    }
    free(s.cells);
    free(s.sv);
    free(s.out_stored);
    return rc;
}
