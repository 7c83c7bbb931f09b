/* emit_asm.c — lowered IR to x86-64 AT&T assembly (see emit_asm.h for the contract).
 *
 * One walk over the nodes in order. State: which value each register holds, each value's register / stack slot /
 * input limb (a lazily loaded value, until its array may have been overwritten) / flag (a carry that an addcarryx
 * or subborrowx left in CF or OF), and whether CF/OF are known to be 0. Every
 * instruction that writes a flag first saves (setc/seto + movzbl) the value that flag holds when it is still needed.
 * Each node: lock the registers of its operands, bring the operands it needs into registers (reloading spilled
 * ones, materialising constants that are not immediates), pick the destination (the register of an operand that
 * dies here, else a fresh one: free, or freed by spilling the value whose next use is furthest), then the flags,
 * then the instruction. Registers that hold a known constant (kvalid: written by mov_imm, by no instruction since)
 * are reused for that constant. The walk runs twice: the first finds the frame size and the callee-saved registers used,
 * the second, identical in every decision, writes the text with the final stack offsets.
 *
 * Instruction semantics: Intel 64 and IA-32 Architectures SDM, vol. 2 (ADCX, ADOX, MULX, SHRD, CMOVcc, SETcc, NEG,
 * LEA, IMUL); the calling convention: System V AMD64 psABI, 3.2. */
#define _GNU_SOURCE
#include "emit/emit_asm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15, NREG };

static const char *const R64[NREG] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                       "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15" };
static const char *const R32[NREG] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
                                       "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d" };
static const char *const R8N[NREG] = { "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil",
                                       "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b" };
static const int ARGREG[6] = { RDI, RSI, RDX, RCX, R8, R9 };
/* Allocation order: caller-saved first (rdx late: mulx wants it), then callee-saved. Target x86-64: rax and rdx
 * late, since every mulq needs both (a value left there must move out again before the next product). */
static const int ORDER_ADX[15] = { RAX, RCX, RSI, RDI, R8, R9, R10, R11, RDX, RBX, RBP, R12, R13, R14, R15 };
static const int ORDER_X64[15] = { RCX, RSI, RDI, R8, R9, R10, R11, RAX, RDX, RBX, RBP, R12, R13, R14, R15 };
static const int CALLEE[6] = { RBX, RBP, R12, R13, R14, R15 };

#define FREE (-1)
#define TEMP (-2)
#define NOUSE UINT32_MAX
#define F_CF 1
#define F_OF 2

typedef struct {
    int reg, slot, stack_arg;
    int xmm;              /* spilled to this xmm register (-1: none) */
    int home_arr;         /* a loaded value: the input array it came from (-1: none), valid until a store to an
                             output that may alias it */
    uint32_t home_limb;
    uint32_t u0, un, up; /* uses: c->uses[u0 .. u0 + un), node positions ascending; up = first not yet passed */
    uint8_t width;
} av;

typedef struct {
    const ir_func *f;
    const emit_asm_opts *o;
    bool x64;               /* target x86-64: no BMI2/ADX instruction (emit_asm.h) */
    const int *order;       /* allocation order (ORDER_ADX or ORDER_X64) */
    uint32_t nv;            /* f->nval + f->narr (argument pointers are values nval + j) */
    av *v;
    uint32_t *uses;
    int regv[NREG];         /* value, FREE or TEMP */
    bool lock[NREG];
    bool used[NREG];
    uint8_t *slot_busy;
    bool xmm_busy[16], xmm_used[16];
    uint32_t nslot_cap, nslots;
    uint32_t flagv[3];      /* [F_CF], [F_OF]: value held, or IR_NOVAL */
    bool alias_dead[64];    /* input j: an output that may alias it has been stored to (set at the first such store
                               BEFORE the values of j still needed are rescued from it, see do_store) */
    bool rescue;            /* do_store is reading those values: mem_of may still read their limbs */
    uint32_t *kill;         /* input j: the first store to an output that may alias it (NOUSE: none) */
    uint8_t *need_kill;     /* input j: a value loaded from it is used at or after kill[j] */
    uint32_t *tmp;          /* node_uses scratch */
    bool known0[3];
    uint32_t zf_val;        /* ZF = (this value != 0): a testq of its register and no flag write since (IR_NOVAL:
                               unknown) */
    bool kvalid[NREG];      /* register r holds the constant kreg[r]: written by mov_imm and by no instruction
                               since (ins reads the registers each instruction writes off its text) */
    uint64_t kreg[NREG];
    uint32_t cur;
    /* frame (pass 2) */
    unsigned frame, npush;
    /* output */
    char *buf;
    size_t len, cap;
    emit_asm_stats st;
    char *err;
    size_t errlen;
    int failed;
} ctx;

static int fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ctx *c, const char *fmt, ...)
{
    if (c->failed)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    if (c->err && c->errlen)
        vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
    c->failed = 1;
    return -1;
}

static void put(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(ctx *c, const char *fmt, ...)
{
    if (c->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(c->buf + c->len, c->cap - c->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            fail(c, "formatting failed");
            return;
        }
        if ((size_t)n < c->cap - c->len) {
            c->len += (size_t)n;
            return;
        }
        size_t nc = c->cap * 2 + (size_t)n + 256;
        char *nb = realloc(c->buf, nc);
        if (!nb) {
            fail(c, "out of memory");
            return;
        }
        c->buf = nb;
        c->cap = nc;
    }
}

/* the general-purpose register an operand text names ("%rax", "%r8d", "%al"), -1 for anything else (memory, an
 * immediate, an xmm register) */
static int reg_named(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n < 2 || s[0] != '%')
        return -1;
    for (int r = 0; r < NREG; r++) {
        const char *names[3] = { R64[r], R32[r], R8N[r] };
        for (int k = 0; k < 3; k++)
            if (strlen(names[k]) == n - 1 && !strncmp(names[k], s + 1, n - 1))
                return r;
    }
    return -1;
}

/* one instruction. The registers it writes lose their known constant (kvalid): every instruction the emitter
 * writes names its destinations as its last operand (mulx: its last two), and writes no register implicitly but
 * mulq (target x86-64: rax and rdx), so the text says which ones they are. Counting the last operand of an instruction that only reads it (test, push)
 * merely forgets a constant. */
static void ins(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ins(ctx *c, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    put(c, "\t%s\n", line);
    c->st.ninsns++;
    /* operands: split at the commas outside parentheses, after the mnemonic */
    const char *p = line;
    while (*p && *p != ' ' && *p != '\t')
        p++;
    const char *op[4];
    size_t opn[4];
    int nop = 0, depth = 0;
    const char *start = p;
    for (const char *q = p;; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')')
            depth--;
        if (*q == 0 || (*q == ',' && depth == 0)) {
            if (nop < 4 && q > start) {
                op[nop] = start;
                opn[nop++] = (size_t)(q - start);
            }
            if (!*q)
                break;
            start = q + 1;
        }
    }
    int nw = !strncmp(line, "mulx", 4) ? 2 : 1;
    for (int k = nop - 1; k >= 0 && k >= nop - nw; k--) {
        int r = reg_named(op[k], opn[k]);
        if (r >= 0)
            c->kvalid[r] = false;
    }
    if (!strncmp(line, "mulq ", 5)) /* target x86-64: mulq reads its operand and writes rdx:rax implicitly */
        c->kvalid[RAX] = c->kvalid[RDX] = false;
}

/* ---- values and uses ---------------------------------------------------------------------------------------- */

static bool is_const(const ctx *c, uint32_t v)
{
    return v < c->f->nval && c->f->val[v].is_const;
}

static uint64_t kval(const ctx *c, uint32_t v)
{
    return (uint64_t)c->f->val[v].k;
}

/* first use of v strictly after node position `after`, NOUSE if none */
static uint32_t next_use(ctx *c, uint32_t v, uint32_t after)
{
    av *a = &c->v[v];
    while (a->up < a->un && c->uses[a->u0 + a->up] <= after && c->uses[a->u0 + a->up] < c->cur)
        a->up++;
    for (uint32_t i = a->up; i < a->un; i++)
        if (c->uses[a->u0 + i] > after)
            return c->uses[a->u0 + i];
    return NOUSE;
}

static bool dies(ctx *c, uint32_t v)
{
    return next_use(c, v, c->cur) == NOUSE;
}

static bool used_at_or_after(ctx *c, uint32_t v)
{
    return c->cur == 0 ? c->v[v].un > 0 : next_use(c, v, c->cur - 1) != NOUSE;
}

static bool has_mem(const ctx *c, uint32_t v)
{
    return c->v[v].slot >= 0 || c->v[v].stack_arg >= 0 || (c->v[v].home_arr >= 0 && !c->alias_dead[c->v[v].home_arr]);
}

/* v has a copy outside the registers and flags (memory, or an xmm register): evicting it needs no spill */
static bool has_copy(const ctx *c, uint32_t v)
{
    return c->v[v].xmm >= 0 || has_mem(c, v);
}

/* the decision byte of node i */
static uint8_t dec_of(const ctx *c, uint32_t i)
{
    return c->o && c->o->decisions && i < c->f->nnode ? c->o->decisions[i] : 0;
}

static int ensure_reg(ctx *c, uint32_t v);

static bool in_flag(const ctx *c, uint32_t v, int fl)
{
    return c->flagv[fl] == v;
}

/* where v is in memory: its slot, its stack argument, or its limb of the input array (whose pointer is then
 * brought into a register and locked) */
static void mem_of(ctx *c, uint32_t v, char *s, size_t n)
{
    if (c->v[v].slot >= 0)
        snprintf(s, n, "%d(%%rsp)", 8 * c->v[v].slot);
    else if (c->v[v].stack_arg < 0) {
        /* the limb may be read only while no store may have overwritten it (do_store's rescue reads it just
         * before the store, with alias_dead already set: c->rescue) */
        if (c->v[v].home_arr < 0 || (c->alias_dead[c->v[v].home_arr] && !c->rescue)) {
            fail(c, "internal: node %u: value %u has no location", c->cur, v);
            snprintf(s, n, "0(%%rsp)");
            return;
        }
        int p = ensure_reg(c, c->f->nval + (uint32_t)c->v[v].home_arr);
        snprintf(s, n, "%u(%%%s)", 8 * c->v[v].home_limb, R64[p]);
    } else
        snprintf(s, n, "%u(%%rsp)", c->frame + 8 * c->npush + 8 + 8 * (unsigned)(c->v[v].stack_arg - 6));
}

static int new_slot(ctx *c)
{
    for (uint32_t i = 0; i < c->nslot_cap; i++)
        if (!c->slot_busy[i]) {
            c->slot_busy[i] = 1;
            if (i + 1 > c->nslots)
                c->nslots = i + 1;
            return (int)i;
        }
    fail(c, "internal: out of stack slots");
    return 0;
}

/* ---- registers ------------------------------------------------------------------------------------------------- */

static bool fits_s32(uint64_t k)
{
    return k <= 0x7fffffffu || k >= 0xffffffff80000000u;
}

static void clobber(ctx *c, int mask, uint32_t consumed);

/* no flag holds a carry that is still needed (whether or not it also has a copy: a node may still read it from
 * the flag) */
static bool flags_free(ctx *c)
{
    for (int fl = 1; fl <= 2; fl++)
        if (c->flagv[fl] != IR_NOVAL && used_at_or_after(c, c->flagv[fl]))
            return false;
    return true;
}

/* the constant k into r; r then keeps k as a known constant (kvalid) until an instruction writes it. A zero is
 * `xorl r, r` when no flag holds anything live: it clears CF and OF too (Intel SDM vol. 2 "XOR"), so a chain that
 * starts next needs no testq or clc. */
static void mov_imm(ctx *c, uint64_t k, int r)
{
    if (k == 0 && flags_free(c)) {
        clobber(c, 3, IR_NOVAL);
        ins(c, "xorl %%%s, %%%s", R32[r], R32[r]);
        c->known0[1] = c->known0[2] = true;
    } else if (k <= 0xffffffffu)
        ins(c, "movl $%llu, %%%s", (unsigned long long)k, R32[r]);
    else if (fits_s32(k))
        ins(c, "movq $%lld, %%%s", (long long)(int64_t)k, R64[r]);
    else
        ins(c, "movabsq $0x%llx, %%%s", (unsigned long long)k, R64[r]);
    c->kvalid[r] = true;
    c->kreg[r] = k;
}

/* a free, unlocked register holding the constant k (-1: none) */
static int find_k(ctx *c, uint64_t k)
{
    for (int i = 0; i < 15; i++) {
        int r = c->order[i];
        if (c->regv[r] == FREE && !c->lock[r] && c->kvalid[r] && c->kreg[r] == k)
            return r;
    }
    return -1;
}

/* the free register a new value takes (-1: none; avoid: never that one): a free one that holds no known
 * constant and costs no push (caller-saved, or a callee-saved one already used), else one that holds a constant
 * (it is rematerialised when needed again), else a new callee-saved one */
static int free_reg(ctx *c, int avoid)
{
    int second = -1, third = -1;
    for (int i = 0; i < 15; i++) {
        int r = c->order[i];
        if (c->regv[r] != FREE || c->lock[r] || r == avoid)
            continue;
        bool callee = r == RBX || r == RBP || r >= R12;
        if (!c->kvalid[r] && (!callee || c->used[r]))
            return r;
        if (c->kvalid[r] && second < 0)
            second = r;
        if (!c->kvalid[r] && third < 0)
            third = r;
    }
    return second >= 0 ? second : third;
}

/* empty register r: spill its value to a slot when it has no memory copy and is used again */
static void evict(ctx *c, int r)
{
    int v = c->regv[r];
    if (v >= 0) {
        if (!has_copy(c, (uint32_t)v) && used_at_or_after(c, (uint32_t)v)) {
            int x = -1;
            if ((uint32_t)v < c->f->nval && (dec_of(c, c->f->val[v].node) & EMIT_ASM_D_XMM))
                for (int i = 0; i < 16 && x < 0; i++)
                    if (!c->xmm_busy[i])
                        x = i;
            if (x >= 0) {
                c->xmm_busy[x] = c->xmm_used[x] = true;
                c->v[v].xmm = x;
                ins(c, "movq %%%s, %%xmm%d", R64[r], x);
                c->st.nxmm++;
            } else {
                c->v[v].slot = new_slot(c);
                ins(c, "movq %%%s, %d(%%rsp)", R64[r], 8 * c->v[v].slot);
                c->st.nspills++;
            }
        }
        c->v[v].reg = -1;
    }
    c->regv[r] = FREE;
}

static void claim(ctx *c, int r, int owner)
{
    c->regv[r] = owner;
    c->lock[r] = true;
    c->used[r] = true;
    if (owner >= 0)
        c->v[owner].reg = r;
}

/* a register for this node (locked, marked TEMP), freeing one by Belady's rule when none is free */
static int alloc_reg(ctx *c, int avoid)
{
    int fr = free_reg(c, avoid);
    if (fr >= 0) {
        claim(c, fr, TEMP);
        return fr;
    }
    int best = -1;
    uint32_t bestu = 0;
    bool bestmem = false;
    for (int i = 0; i < 15; i++) {
        int r = c->order[i];
        if (c->lock[r] || r == avoid || c->regv[r] < 0)
            continue;
        uint32_t u = next_use(c, (uint32_t)c->regv[r], c->cur);
        bool m = has_copy(c, (uint32_t)c->regv[r]);
        if (best < 0 || u > bestu || (u == bestu && m && !bestmem)) {
            best = r;
            bestu = u;
            bestmem = m;
        }
    }
    if (best < 0) {
        fail(c, "internal: node %u needs more registers than there are", c->cur);
        return RAX;
    }
    evict(c, best);
    claim(c, best, TEMP);
    return best;
}

static void release(ctx *c, int r)
{
    if (c->regv[r] >= 0)
        c->v[c->regv[r]].reg = -1;
    c->regv[r] = FREE;
}

/* materialise the carry v held in flag fl into a register */
static int materialise(ctx *c, uint32_t v, int fl)
{
    int r = alloc_reg(c, -1);
    ins(c, "set%s %%%s", fl == F_CF ? "c" : "o", R8N[r]);
    ins(c, "movzbl %%%s, %%%s", R8N[r], R32[r]);
    c->st.nflags++;
    c->regv[r] = (int)v;
    c->v[v].reg = r;
    return r;
}

/* v (not a constant) into a register, locked */
static int ensure_reg(ctx *c, uint32_t v)
{
    if (c->v[v].reg >= 0) {
        c->lock[c->v[v].reg] = true;
        return c->v[v].reg;
    }
    for (int fl = F_CF; fl <= F_OF; fl++)
        if (in_flag(c, v, fl))
            return materialise(c, v, fl);
    if (c->v[v].xmm >= 0) {
        int r = alloc_reg(c, -1);
        ins(c, "movq %%xmm%d, %%%s", c->v[v].xmm, R64[r]);
        c->st.nreloads++;
        c->regv[r] = (int)v;
        c->v[v].reg = r;
        return r;
    }
    if (!has_mem(c, v)) {
        fail(c, "internal: node %u: value %u has no location", c->cur, v);
        return RAX;
    }
    int r = alloc_reg(c, -1);
    char m[48];
    mem_of(c, v, m, sizeof m);
    ins(c, "movq %s, %%%s", m, R64[r]);
    c->st.nreloads++;
    c->regv[r] = (int)v;
    c->v[v].reg = r;
    return r;
}

/* a register holding v or the constant (temps are released at the end of the node) */
static int reg_of(ctx *c, uint32_t v)
{
    if (is_const(c, v)) {
        int r = find_k(c, kval(c, v));
        if (r >= 0) {
            claim(c, r, TEMP);
            return r;
        }
        r = alloc_reg(c, -1);
        mov_imm(c, kval(c, v), r);
        return r;
    }
    return ensure_reg(c, v);
}

/* a source operand as text: "$k" when allowed and a sign-extended 32-bit immediate, its stack slot when it is
 * spilled (every caller's instruction takes r/m64 there), else "%reg" */
static void src_op(ctx *c, uint32_t v, bool imm_ok, char *s, size_t n)
{
    if (is_const(c, v) && imm_ok && fits_s32(kval(c, v))) {
        snprintf(s, n, "$%lld", (long long)(int64_t)kval(c, v));
        return;
    }
    if (!is_const(c, v) && c->v[v].reg < 0 && has_mem(c, v)) {
        mem_of(c, v, s, n);
        return;
    }
    snprintf(s, n, "%%%s", R64[reg_of(c, v)]);
}

/* a register that may be overwritten and now holds v: the register of v itself when v dies at this node and
 * steal allows it, else a fresh copy */
static int dst_from(ctx *c, uint32_t v, bool steal)
{
    if (!is_const(c, v) && c->v[v].reg < 0 && !in_flag(c, v, F_CF) && !in_flag(c, v, F_OF) && has_copy(c, v) &&
        !dies(c, v)) {
        /* v stays where it is (memory or xmm) and is read straight into the destination: one load, where
         * bringing v into a register and copying it there takes two */
        int d = alloc_reg(c, -1);
        char m[48];
        if (c->v[v].xmm >= 0)
            snprintf(m, sizeof m, "%%xmm%d", c->v[v].xmm);
        else
            mem_of(c, v, m, sizeof m);
        ins(c, "movq %s, %%%s", m, R64[d]);
        c->st.nreloads++;
        return d;
    }
    if (!is_const(c, v)) {
        int r = ensure_reg(c, v);
        if (steal && dies(c, v)) {
            c->v[v].reg = -1;
            c->regv[r] = TEMP;
            return r;
        }
        int d = alloc_reg(c, -1);
        ins(c, "movq %%%s, %%%s", R64[r], R64[d]);
        return d;
    }
    int d = find_k(c, kval(c, v));
    if (d >= 0) {
        claim(c, d, TEMP); /* the instruction that writes d forgets the constant */
        return d;
    }
    d = alloc_reg(c, -1);
    mov_imm(c, kval(c, v), d);
    return d;
}

/* a destination register when the instruction does not read it: a dying operand's register, else a fresh one */
static int dst_any(ctx *c, uint32_t a, uint32_t b)
{
    uint32_t cand[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        uint32_t v = cand[i];
        if (v != IR_NOVAL && !is_const(c, v) && c->v[v].reg >= 0 && dies(c, v)) {
            int r = c->v[v].reg;
            c->v[v].reg = -1;
            c->regv[r] = TEMP;
            c->lock[r] = true;
            return r;
        }
    }
    return alloc_reg(c, -1);
}

/* an instruction writing the flags in mask follows: save what they hold if it is still needed (consumed: the
 * value the instruction itself reads from that flag, needed only if used after this node) */
static void clobber(ctx *c, int mask, uint32_t consumed)
{
    if (mask == 3) /* every flag-writing instruction but adcx, adox, clc and stc writes ZF */
        c->zf_val = IR_NOVAL;
    for (int fl = F_CF; fl <= F_OF; fl++) {
        if (!(mask & (fl == F_CF ? 1 : 2)))
            continue;
        uint32_t v = c->flagv[fl];
        if (v != IR_NOVAL && c->v[v].reg < 0 && !has_copy(c, v)) {
            bool need = v == consumed ? !dies(c, v) : used_at_or_after(c, v);
            if (need) {
                int r = materialise(c, v, fl);
                c->lock[r] = false;
            }
        }
        c->flagv[fl] = IR_NOVAL;
        c->known0[fl] = false;
    }
}
#define M_CF 1
#define M_OF 2
#define M_ALL 3

/* flag fl (F_CF or F_OF) holds a carry that is still needed and exists nowhere else (an instruction that writes
 * the flag would have to save it first) */
static bool flag_holds_live(ctx *c, int fl)
{
    uint32_t o = c->flagv[fl];
    return o != IR_NOVAL && c->v[o].reg < 0 && !has_copy(c, o) && used_at_or_after(c, o);
}

/* result v of this node in register r */
static void set_res(ctx *c, uint32_t v, int r)
{
    if (v == IR_NOVAL || !c->v[v].un) {
        c->regv[r] = TEMP; /* released at the end of the node */
        return;
    }
    c->regv[r] = (int)v;
    c->v[v].reg = r;
}

static void set_flag_res(ctx *c, uint32_t v, int fl)
{
    c->flagv[fl] = (v != IR_NOVAL && c->v[v].un) ? v : IR_NOVAL;
    c->known0[fl] = false;
}

/* a u1 result computed in 64 bits: keep bit 0 */
static void narrow(ctx *c, uint32_t res, int d)
{
    if (c->f->val[res].width == 1) {
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "andl $1, %%%s", R32[d]);
    }
}

/* the carry-in v into CF for adc/adcx/sbb; returns 0, or 1 when it is the constant 0 and the caller must start the
 * chain (add/sub, or clc when OF is live) */
static int carry_into_cf(ctx *c, uint32_t cin, uint32_t a, uint32_t b, int dreg)
{
    if (is_const(c, cin)) {
        if (kval(c, cin) == 0)
            return 1;
        clobber(c, M_CF, IR_NOVAL);
        ins(c, "stc");
        return 0;
    }
    if (in_flag(c, cin, F_CF))
        return 0;
    /* from a register (or OF): neg sets CF = (x != 0) */
    int r = ensure_reg(c, cin);
    int t;
    if (dies(c, cin) && cin != a && cin != b && r != dreg) {
        c->v[cin].reg = -1;
        c->regv[r] = TEMP;
        t = r;
    } else {
        t = alloc_reg(c, -1);
        ins(c, "movq %%%s, %%%s", R64[r], R64[t]);
    }
    clobber(c, M_ALL, IR_NOVAL);
    ins(c, "negq %%%s", R64[t]);
    return 0;
}

/* ---- nodes -------------------------------------------------------------------------------------------------- */

static void lock_operands(ctx *c, const ir_node *n)
{
    for (int i = 0; i < n->nargs; i++)
        if (!is_const(c, n->arg[i]) && c->v[n->arg[i]].reg >= 0)
            c->lock[c->v[n->arg[i]].reg] = true;
    if (n->op == IR_LOAD || n->op == IR_STORE) {
        uint32_t p = c->f->nval + n->arr;
        if (c->v[p].reg >= 0)
            c->lock[c->v[p].reg] = true;
    }
}

static void do_addcarryx(ctx *c, const ir_node *n, uint8_t dec)
{
    uint32_t cin = n->arg[0], a = n->arg[1], b = n->arg[2];
    /* the destination comes from a non-constant operand, preferably one that dies here */
    if (is_const(c, a) || (!is_const(c, b) && !dies(c, a) && dies(c, b))) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    /* target x86-64: when both die, keep the sum out of rax and rdx (the next mulq would move it out again) */
    if (c->x64 && !is_const(c, a) && !is_const(c, b) && dies(c, a) && dies(c, b) &&
        (c->v[a].reg == RAX || c->v[a].reg == RDX) && c->v[b].reg >= 0 && c->v[b].reg != RAX &&
        c->v[b].reg != RDX) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    bool of = in_flag(c, cin, F_OF) ||
              ((dec & EMIT_ASM_D_OF) && !c->x64 && (is_const(c, cin) && kval(c, cin) == 0 &&
                                         (c->known0[F_OF] || !flag_holds_live(c, F_CF))));
    /* the OF chain asked for while CF holds a live carry and OF nothing: OF is cleared without touching CF by
     * `adox t, t` of a zero t (0 + 0 + OF < 2: no carry out), instead of saving the CF carry for a testq */
    bool of_clear = false;
    if (!of && !c->x64 && (dec & EMIT_ASM_D_OF) && is_const(c, cin) && kval(c, cin) == 0 &&
        !flag_holds_live(c, F_OF) && !c->known0[F_OF])
        of = of_clear = true;
    char s[48];
    if (of) {
        /* adox: both operands in registers */
        src_op(c, b, false, s, sizeof s);
        int d = dst_from(c, a, true);
        if (!in_flag(c, cin, F_OF) && !c->known0[F_OF] && of_clear) {
            int t = find_k(c, 0);
            if (t >= 0)
                claim(c, t, TEMP);
            else {
                t = alloc_reg(c, -1);
                mov_imm(c, 0, t);
            }
            clobber(c, M_OF, IR_NOVAL);
            ins(c, "adox %%%s, %%%s", R64[t], R64[t]);
            c->known0[F_OF] = true;
        } else if (!in_flag(c, cin, F_OF) && !c->known0[F_OF]) {
            clobber(c, M_ALL, IR_NOVAL);
            ins(c, "testq %%%s, %%%s", R64[d], R64[d]); /* CF = OF = 0 */
            c->known0[F_CF] = c->known0[F_OF] = true;
        }
        clobber(c, M_OF, cin);
        ins(c, "adox %s, %%%s", s, R64[d]);
        set_res(c, n->res[0], d);
        set_flag_res(c, n->res[1], F_OF);
        return;
    }
    bool cf_free = !flag_holds_live(c, F_OF);
    /* when OF holds a live carry, only adcx keeps it: no immediates then */
    src_op(c, b, cf_free, s, sizeof s);
    int d = dst_from(c, a, true);
    int start = carry_into_cf(c, cin, a, b, d);
    const char *mn;
    if (start) {
        if (c->known0[F_CF]) {
            mn = s[0] == '$' ? "adcq" : "adcx";
        } else if (cf_free) {
            mn = "addq";
        } else {
            clobber(c, M_CF, IR_NOVAL);
            ins(c, "clc");
            mn = "adcx";
        }
    } else {
        mn = s[0] == '$' ? "adcq" : "adcx"; /* an immediate only when OF holds nothing live */
    }
    if (c->x64 && !strcmp(mn, "adcx"))
        mn = "adcq"; /* no OF chain on this target: adc's OF write loses nothing */
    bool full = !strcmp(mn, "addq") || !strcmp(mn, "adcq");
    clobber(c, full ? M_ALL : M_CF, cin);
    ins(c, "%s %s, %%%s", mn, s, R64[d]);
    set_res(c, n->res[0], d);
    set_flag_res(c, n->res[1], F_CF);
}

static void do_subborrowx(ctx *c, const ir_node *n)
{
    uint32_t cin = n->arg[0], a = n->arg[1], b = n->arg[2];
    char s[48];
    src_op(c, b, true, s, sizeof s);
    int d = dst_from(c, a, true);
    int start = carry_into_cf(c, cin, a, b, d);
    clobber(c, M_ALL, cin);
    ins(c, "%s %s, %%%s", start ? "subq" : "sbbq", s, R64[d]);
    set_res(c, n->res[0], d);
    set_flag_res(c, n->res[1], F_CF);
}

/* move value v (not constant) to rdx, keeping other values alive */
static void into_rdx(ctx *c, uint32_t v)
{
    if (!is_const(c, v) && c->v[v].reg == RDX) {
        c->lock[RDX] = true;
        return;
    }
    int w = c->regv[RDX];
    /* an occupant that is dead, or that has a copy in memory (a slot, a stack argument, its input limb), is
     * dropped rather than moved: reading it back later costs at most the load the move costs now, and nothing
     * when that use takes a memory operand */
    if (w >= 0 && ((!c->lock[RDX] && !used_at_or_after(c, (uint32_t)w)) || has_mem(c, (uint32_t)w))) {
        release(c, RDX);
        c->lock[RDX] = false;
        w = FREE;
    }
    if (w >= 0 || w == TEMP) {
        /* move the occupant elsewhere (a free register, or a spill) */
        bool locked = c->lock[RDX];
        c->lock[RDX] = true;
        int r = free_reg(c, RDX);
        if (r < 0 && (locked || w == TEMP))
            r = alloc_reg(c, RDX);
        if (r >= 0) {
            ins(c, "movq %%rdx, %%%s", R64[r]);
            c->regv[r] = w;
            c->used[r] = true;
            c->lock[r] = locked;
            if (w >= 0)
                c->v[w].reg = r;
            c->regv[RDX] = FREE;
        } else {
            c->lock[RDX] = false;
            evict(c, RDX);
        }
    }
    c->lock[RDX] = true; /* not for an address register of the load below */
    if (is_const(c, v)) {
        if (!(c->kvalid[RDX] && c->kreg[RDX] == kval(c, v)))
            mov_imm(c, kval(c, v), RDX);
        claim(c, RDX, TEMP);
        return;
    }
    if (c->v[v].reg >= 0) {
        int r = c->v[v].reg;
        ins(c, "movq %%%s, %%rdx", R64[r]);
        c->regv[r] = FREE;
        c->lock[r] = false;
    } else if (in_flag(c, v, F_CF) || in_flag(c, v, F_OF)) {
        int fl = in_flag(c, v, F_CF) ? F_CF : F_OF;
        ins(c, "set%s %%dl", fl == F_CF ? "c" : "o");
        ins(c, "movzbl %%dl, %%edx");
        c->st.nflags++;
    } else if (c->v[v].xmm >= 0) {
        ins(c, "movq %%xmm%d, %%rdx", c->v[v].xmm);
        c->st.nreloads++;
    } else {
        char m[48];
        mem_of(c, v, m, sizeof m);
        ins(c, "movq %s, %%rdx", m);
        c->st.nreloads++;
    }
    claim(c, RDX, (int)v);
}

static void do_mulx(ctx *c, const ir_node *n, uint8_t dec)
{
    uint32_t a = n->arg[0], b = n->arg[1];
    uint32_t x; /* the operand in rdx */
    if (dec & EMIT_ASM_D_RDX_A)
        x = a;
    else if (dec & EMIT_ASM_D_RDX_B)
        x = b;
    else if (!is_const(c, a) && c->v[a].reg == RDX)
        x = a;
    else if (!is_const(c, b) && c->v[b].reg == RDX)
        x = b;
    else if (is_const(c, a))
        x = a;
    else if (is_const(c, b))
        x = b;
    else
        x = next_use(c, b, c->cur) < next_use(c, a, c->cur) ? b : a;
    uint32_t y = x == a ? b : a;
    into_rdx(c, x);
    char ys[48];
    int ry = -1;
    if (x == y && !is_const(c, x)) {
        ry = RDX;
        snprintf(ys, sizeof ys, "%%rdx");
    } else if (!is_const(c, y) && c->v[y].reg < 0 && has_mem(c, y)) {
        mem_of(c, y, ys, sizeof ys); /* mulx takes r/m64 */
    } else {
        ry = reg_of(c, y);
        snprintf(ys, sizeof ys, "%%%s", R64[ry]);
    }
    int lo = -1, hi = -1;
    /* destinations: registers of operands that die here, else fresh ones */
    /* in order: y's register when y dies, free registers (no spill), rdx when x dies (a result left in rdx must
     * usually move out again for the next mulx), then whatever alloc_reg frees */
    int cand[2] = { -1, -1 }, nc = 0;
    if (ry >= 0 && ry != RDX && (c->regv[ry] == TEMP || (c->regv[ry] >= 0 && dies(c, (uint32_t)c->regv[ry]))))
        cand[nc++] = ry;
    while (nc < 2) {
        int r = free_reg(c, nc ? cand[0] : -1);
        if (r < 0 || (nc && r == cand[0]))
            break;
        cand[nc++] = r;
    }
    if (nc < 2 && (c->regv[RDX] == TEMP || (c->regv[RDX] >= 0 && dies(c, (uint32_t)c->regv[RDX]))))
        cand[nc++] = RDX;
    for (int i = 0; i < nc; i++) {
        release(c, cand[i]);
        claim(c, cand[i], TEMP);
    }
    lo = nc > 0 ? cand[0] : alloc_reg(c, -1);
    hi = nc > 1 ? cand[1] : alloc_reg(c, lo);
    ins(c, "mulx %s, %%%s, %%%s", ys, R64[lo], R64[hi]);
    set_res(c, n->res[0], lo);
    set_res(c, n->res[1], hi);
}

/* Target x86-64: empty register R for this node's fixed use (mulq's rax and rdx): its value, when still needed
 * after this node or as an operand of it, moves to a free register (locked as before: an operand keeps its lock),
 * else it is evicted (a spill when it has no other copy). R is then locked and TEMP. */
static void vacate(ctx *c, int R)
{
    int w = c->regv[R];
    if (w >= 0 && !used_at_or_after(c, (uint32_t)w)) {
        release(c, R);
        w = FREE;
    }
    if (w != FREE) {
        bool locked = c->lock[R];
        c->lock[R] = true;
        int r = free_reg(c, R == RAX ? RDX : RAX); /* not into the other one mulq takes: it would move again */
        if (r < 0 && w == TEMP)
            r = alloc_reg(c, R);
        if (r >= 0) {
            ins(c, "movq %%%s, %%%s", R64[R], R64[r]);
            c->regv[r] = w;
            c->used[r] = true;
            c->lock[r] = locked;
            if (w >= 0)
                c->v[w].reg = r;
            c->regv[R] = FREE;
        } else {
            c->lock[R] = false;
            evict(c, R);
        }
    }
    claim(c, R, TEMP);
}

/* mulx on target x86-64: `mulq src` with one factor in rax (Intel SDM vol. 2B "MUL": rdx:rax = rax * r/m64; CF and
 * OF written, SF ZF AF PF undefined), so every flag is saved first if still needed. The factor in rax is the one
 * the decision names (D_RDX_A / D_RDX_B), else one already in rax, else the one whose register dies, else a
 * constant, else the one used again sooner (mulq consumes rax, so a factor used later keeps its other copy). */
static void do_mulq(ctx *c, const ir_node *n, uint8_t dec)
{
    uint32_t a = n->arg[0], b = n->arg[1];
    uint32_t x;
    if (dec & EMIT_ASM_D_RDX_A)
        x = a;
    else if (dec & EMIT_ASM_D_RDX_B)
        x = b;
    else if (!is_const(c, a) && c->v[a].reg == RAX)
        x = a;
    else if (!is_const(c, b) && c->v[b].reg == RAX)
        x = b;
    else if (is_const(c, a))
        x = a;
    else if (is_const(c, b))
        x = b;
    else if (c->v[a].reg >= 0 && dies(c, a))
        x = a;
    else if (c->v[b].reg >= 0 && dies(c, b))
        x = b;
    else
        x = next_use(c, b, c->cur) < next_use(c, a, c->cur) ? b : a;
    uint32_t y = x == a ? b : a;
    bool sq = x == y;
    clobber(c, M_ALL, IR_NOVAL);
    /* rax: x may already be there */
    bool have_x = false;
    if (!is_const(c, x) && c->v[x].reg == RAX) {
        have_x = true;
        if (dies(c, x)) {
            c->v[x].reg = -1;
            claim(c, RAX, TEMP);
        } else {
            vacate(c, RAX); /* x moves to another register (or a slot): rax keeps its value */
        }
    } else {
        vacate(c, RAX);
        if (!is_const(c, x) && c->v[x].reg == RDX) { /* straight into rax (vacate(RDX) below keeps a live copy) */
            ins(c, "movq %%rdx, %%rax");
            have_x = true;
            if (dies(c, x)) {
                c->v[x].reg = -1;
                c->regv[RDX] = FREE;
                c->lock[RDX] = false;
            }
        }
    }
    /* rdx: y may stay there when it dies here (mulq reads its source before writing rdx) */
    bool y_in_rdx = !sq && !is_const(c, y) && c->v[y].reg == RDX && dies(c, y);
    if (y_in_rdx) {
        c->v[y].reg = -1;
        claim(c, RDX, TEMP);
    } else {
        vacate(c, RDX);
    }
    if (!have_x) {
        if (is_const(c, x)) {
            mov_imm(c, kval(c, x), RAX);
        } else if (c->v[x].reg >= 0) {
            int r = c->v[x].reg;
            ins(c, "movq %%%s, %%rax", R64[r]);
        } else if (c->v[x].xmm >= 0) {
            ins(c, "movq %%xmm%d, %%rax", c->v[x].xmm);
            c->st.nreloads++;
        } else {
            char m[48];
            mem_of(c, x, m, sizeof m);
            ins(c, "movq %s, %%rax", m);
            c->st.nreloads++;
        }
    }
    char ys[48];
    if (sq)
        snprintf(ys, sizeof ys, "%%rax");
    else if (y_in_rdx)
        snprintf(ys, sizeof ys, "%%rdx");
    else if (!is_const(c, y) && c->v[y].reg >= 0)
        snprintf(ys, sizeof ys, "%%%s", R64[ensure_reg(c, y)]);
    else if (!is_const(c, y) && has_mem(c, y))
        mem_of(c, y, ys, sizeof ys);
    else
        snprintf(ys, sizeof ys, "%%%s", R64[reg_of(c, y)]);
    ins(c, "mulq %s", ys);
    set_res(c, n->res[0], RAX);
    set_res(c, n->res[1], RDX);
}

/* leaq of base + index * scale into d (base -1: none) */
static void lea3(ctx *c, int base, int index, int scale, int d)
{
    if (base > 15 || index < 0 || index > 15 || d < 0 || d > 15) { /* never: the callers pass allocated registers */
        fail(c, "lea with no register (internal error)");
        return;
    }
    if (base < 0)
        ins(c, "leaq (,%%%s,%d), %%%s", R64[index], scale, R64[d]);
    else if (scale == 1)
        ins(c, "leaq (%%%s,%%%s), %%%s", R64[base], R64[index], R64[d]);
    else
        ins(c, "leaq (%%%s,%%%s,%d), %%%s", R64[base], R64[index], scale, R64[d]);
}

/* t = p * x by one lea (p in 2 3 4 5 8 9) */
static void lea_mul(ctx *c, int x, unsigned p, int t)
{
    if (p == 4 || p == 8)
        lea3(c, -1, x, (int)p, t);
    else
        lea3(c, x, x, p == 2 ? 1 : (int)p - 1, t);
}

/* A plan for k * a by one or two leas: t = p * a, then (form 0) nothing, (1) d = q * t, (2) d = a + q * t,
 * (3) d = t + q * a. Returns false when none exists. */
typedef struct {
    unsigned p, form, q;
} lea_plan;

static bool lea_plan_for(uint64_t k, lea_plan *pl)
{
    static const unsigned P[6] = { 2, 3, 4, 5, 8, 9 }, S[4] = { 1, 2, 4, 8 };
    for (int i = 0; i < 6; i++)
        if (k == P[i]) {
            *pl = (lea_plan){ P[i], 0, 0 };
            return true;
        }
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 6; j++)
            if (k == (uint64_t)P[i] * P[j]) {
                *pl = (lea_plan){ P[i], 1, P[j] };
                return true;
            }
        for (int j = 0; j < 4; j++) {
            if (k == 1 + (uint64_t)S[j] * P[i]) {
                *pl = (lea_plan){ P[i], 2, S[j] };
                return true;
            }
            if (k == P[i] + (uint64_t)S[j]) {
                *pl = (lea_plan){ P[i], 3, S[j] };
                return true;
            }
        }
    }
    return false;
}

/* d = a * k for a constant k >= 2 (a not a constant) by the method of the decision (EMIT_ASM_D_CMUL_*) where it
 * applies, else the default (lea for 2 3 4 5 8 9, else imul) */
static int mul_const(ctx *c, uint32_t a, uint64_t k, uint8_t dec)
{
    unsigned sel = dec & EMIT_ASM_D_CMUL_MASK;
    lea_plan pl = { 0, 0, 0 };
    bool pow2 = (k & (k - 1)) == 0;
    bool lea_ok = lea_plan_for(k, &pl);
    if (sel == EMIT_ASM_D_CMUL_SHL && !pow2)
        sel = 0;
    if (sel == EMIT_ASM_D_CMUL_LEA && !lea_ok)
        sel = 0;
    if (sel == 0)
        sel = lea_ok && pl.form == 0 ? EMIT_ASM_D_CMUL_LEA : EMIT_ASM_D_CMUL_IMUL;
    int d;
    if (sel == EMIT_ASM_D_CMUL_SHL) {
        d = dst_from(c, a, true);
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "shlq $%d, %%%s", __builtin_ctzll(k), R64[d]);
    } else if (sel == EMIT_ASM_D_CMUL_LEA) {
        int ra = ensure_reg(c, a);
        if (pl.form == 0 || pl.form == 1) {
            d = dst_any(c, a, IR_NOVAL);
            lea_mul(c, ra, pl.p, d);
            if (pl.form == 1)
                lea_mul(c, d, pl.q, d);
        } else {
            d = alloc_reg(c, -1); /* a is read again: never its register */
            lea_mul(c, ra, pl.p, d);
            if (pl.form == 2)
                lea3(c, ra, d, (int)pl.q, d);
            else
                lea3(c, d, ra, (int)pl.q, d);
        }
    } else if (fits_s32(k)) {
        int ra = ensure_reg(c, a);
        d = dst_any(c, a, IR_NOVAL);
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "imulq $%lld, %%%s, %%%s", (long long)(int64_t)k, R64[ra], R64[d]);
    } else {
        int t = alloc_reg(c, -1);
        mov_imm(c, k, t);
        d = dst_from(c, a, true);
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "imulq %%%s, %%%s", R64[t], R64[d]);
    }
    return d;
}

static void do_mul(ctx *c, const ir_node *n, uint8_t dec)
{
    uint32_t a = n->arg[0], b = n->arg[1], res = n->res[0];
    if (is_const(c, a)) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    int d;
    if (is_const(c, b) && !is_const(c, a)) {
        uint64_t k = kval(c, b);
        if (k == 0) {
            d = alloc_reg(c, -1);
            mov_imm(c, 0, d);
        } else if (k == 1) {
            d = dst_from(c, a, true);
        } else {
            d = mul_const(c, a, k, dec);
        }
    } else {
        int rb = reg_of(c, b);
        d = dst_from(c, a, true);
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "imulq %%%s, %%%s", R64[rb], R64[d]);
    }
    narrow(c, res, d);
    set_res(c, res, d);
}

static void do_add(ctx *c, const ir_node *n, uint8_t dec)
{
    uint32_t a = n->arg[0], b = n->arg[1], res = n->res[0];
    if (is_const(c, a)) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    int d;
    /* a carry still in CF plus a value: adc $0 (the carry is consumed from the flag) by default when OF holds
     * nothing live (adc writes OF: a live OF carry would have to be saved), else setc + movzbl + lea; decision
     * ADC0 takes the other one */
    uint32_t cy = IR_NOVAL, other = IR_NOVAL;
    if (!is_const(c, a) && in_flag(c, a, F_CF) && c->v[a].reg < 0)
        cy = a, other = b;
    else if (!is_const(c, b) && in_flag(c, b, F_CF) && c->v[b].reg < 0)
        cy = b, other = a;
    bool adc0 = !flag_holds_live(c, F_OF) != !!(dec & EMIT_ASM_D_ADC0);
    if (adc0 && cy != IR_NOVAL && cy != other && (is_const(c, other) || c->f->val[other].width == 64)) {
        d = dst_from(c, other, true);
        clobber(c, M_ALL, cy);
        ins(c, "adcq $0, %%%s", R64[d]);
    } else if (is_const(c, a)) {
        d = alloc_reg(c, -1);
        mov_imm(c, kval(c, a) + kval(c, b), d);
    } else if (is_const(c, b) && fits_s32(kval(c, b))) {
        int ra = ensure_reg(c, a);
        d = dst_any(c, a, IR_NOVAL);
        ins(c, "leaq %lld(%%%s), %%%s", (long long)(int64_t)kval(c, b), R64[ra], R64[d]);
    } else {
        int ra = ensure_reg(c, a), rb = reg_of(c, b);
        d = dst_any(c, a, is_const(c, b) ? IR_NOVAL : b);
        ins(c, "leaq (%%%s,%%%s), %%%s", R64[ra], R64[rb], R64[d]);
    }
    narrow(c, res, d);
    set_res(c, res, d);
}

/* sub and or xor: d = a OP b with d a copy of a */
static void do_binop(ctx *c, const ir_node *n, const char *mn, bool commutative, uint8_t dec)
{
    uint32_t a = n->arg[0], b = n->arg[1], res = n->res[0];
    if (commutative && (is_const(c, a) || (!is_const(c, b) && !dies(c, a) && dies(c, b)))) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    uint64_t mk = is_const(c, b) ? kval(c, b) : 0;
    if (n->op == IR_AND && (dec & EMIT_ASM_D_BZHI) && !c->x64 && !is_const(c, a) && mk && mk != UINT64_MAX &&
        (mk & (mk + 1)) == 0) {
        /* decision BZHI: the index in a fresh register, which also takes the result */
        char s[48];
        src_op(c, a, false, s, sizeof s);
        int d = alloc_reg(c, -1);
        mov_imm(c, (uint64_t)__builtin_popcountll(mk), d);
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "bzhiq %%%s, %s, %%%s", R64[d], s, R64[d]);
        narrow(c, res, d);
        set_res(c, res, d);
        return;
    }
    if (n->op == IR_AND && is_const(c, b) && kval(c, b) == 0xffffffffu && !is_const(c, a)) {
        int ra = ensure_reg(c, a);
        int d = dst_any(c, a, IR_NOVAL);
        ins(c, "movl %%%s, %%%s", R32[ra], R32[d]);
        narrow(c, res, d);
        set_res(c, res, d);
        return;
    }
    char s[48];
    src_op(c, b, true, s, sizeof s);
    int d = dst_from(c, a, true);
    clobber(c, M_ALL, IR_NOVAL);
    ins(c, "%s %s, %%%s", mn, s, R64[d]);
    bool u1ops = (is_const(c, a) ? kval(c, a) <= 1 : c->f->val[a].width == 1) &&
                 (is_const(c, b) ? kval(c, b) <= 1 : c->f->val[b].width == 1);
    if (!(u1ops && n->op != IR_SUB))
        narrow(c, res, d);
    set_res(c, res, d);
}

static void do_shift(ctx *c, const ir_node *n, uint8_t dec)
{
    uint32_t a = n->arg[0], res = n->res[0];
    uint64_t k = kval(c, n->arg[1]);
    int d;
    if (k >= 64 || (is_const(c, a) && kval(c, a) == 0)) {
        d = alloc_reg(c, -1);
        mov_imm(c, 0, d);
    } else if (k == 0) {
        d = dst_from(c, a, true);
    } else if ((dec & EMIT_ASM_D_SHX) && !c->x64 && !is_const(c, a)) {
        /* shlx/shrx: the count in a fresh register, which also takes the result; no flag is written */
        char sa[48];
        src_op(c, a, false, sa, sizeof sa);
        d = alloc_reg(c, -1);
        mov_imm(c, k, d);
        ins(c, "%s %%%s, %s, %%%s", n->op == IR_SHL ? "shlxq" : "shrxq", R64[d], sa, R64[d]);
    } else if (n->op == IR_SHL && !is_const(c, a) && (dec & EMIT_ASM_D_CMUL_MASK) == EMIT_ASM_D_CMUL_IMUL &&
               k <= 30) {
        int ra = ensure_reg(c, a);
        d = dst_any(c, a, IR_NOVAL);
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "imulq $%d, %%%s, %%%s", 1 << k, R64[ra], R64[d]);
    } else if (n->op == IR_SHL && k <= 3 && !is_const(c, a) && (dec & EMIT_ASM_D_CMUL_MASK) != EMIT_ASM_D_CMUL_SHL) {
        int ra = ensure_reg(c, a);
        d = dst_any(c, a, IR_NOVAL);
        if (k == 1)
            ins(c, "leaq (%%%s,%%%s), %%%s", R64[ra], R64[ra], R64[d]);
        else
            ins(c, "leaq (,%%%s,%d), %%%s", R64[ra], 1 << k, R64[d]);
    } else {
        d = dst_from(c, a, true);
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "%s $%u, %%%s", n->op == IR_SHL ? "shlq" : "shrq", (unsigned)k, R64[d]);
    }
    if (!(n->op == IR_SHR && !is_const(c, a) && c->f->val[a].width == 1))
        narrow(c, res, d);
    set_res(c, res, d);
}

static void do_shrd(ctx *c, const ir_node *n)
{
    uint32_t hi = n->arg[0], lo = n->arg[1], res = n->res[0];
    uint64_t k = kval(c, n->arg[2]);
    int d;
    if (k == 0) {
        d = dst_from(c, lo, true);
    } else if (k >= 128) {
        d = alloc_reg(c, -1);
        mov_imm(c, 0, d);
    } else if (k >= 64) {
        d = dst_from(c, hi, true);
        if (k > 64) {
            clobber(c, M_ALL, IR_NOVAL);
            ins(c, "shrq $%u, %%%s", (unsigned)(k - 64), R64[d]);
        }
    } else {
        int rh = reg_of(c, hi);
        d = dst_from(c, lo, true);
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "shrdq $%u, %%%s, %%%s", (unsigned)k, R64[rh], R64[d]);
    }
    narrow(c, res, d);
    set_res(c, res, d);
}

static void do_not(ctx *c, const ir_node *n)
{
    uint32_t a = n->arg[0], res = n->res[0];
    int d = dst_from(c, a, true);
    if (c->f->val[res].width == 1) {
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "xorl $1, %%%s", R32[d]);
        narrow(c, res, d);
    } else {
        ins(c, "notq %%%s", R64[d]);
    }
    set_res(c, res, d);
}

static void do_lnot(ctx *c, const ir_node *n)
{
    uint32_t a = n->arg[0], res = n->res[0];
    int d;
    if (is_const(c, a)) {
        d = alloc_reg(c, -1);
        mov_imm(c, kval(c, a) == 0, d);
    } else {
        int ra = ensure_reg(c, a);
        d = dst_any(c, a, IR_NOVAL);
        clobber(c, M_ALL, IR_NOVAL);
        ins(c, "testq %%%s, %%%s", R64[ra], R64[ra]);
        ins(c, "sete %%%s", R8N[d]);
        ins(c, "movzbl %%%s, %%%s", R8N[d], R32[d]);
    }
    set_res(c, res, d);
}

static void do_cast(ctx *c, const ir_node *n)
{
    uint32_t a = n->arg[0], res = n->res[0];
    int d = dst_from(c, a, true);
    if (c->f->val[res].width == 1 && !(is_const(c, a) ? kval(c, a) <= 1 : c->f->val[a].width == 1))
        narrow(c, res, d);
    set_res(c, res, d);
}

/* sbb_mask_fits — cmovznz(cond, z, nz) is lowered as sbb/and (EMIT_ASM_D_SBB): asked for by the node's decision,
 * z = 0, nz a constant in [1, 2^31) (an andl immediate that keeps the upper half zero), cond dies here, and OF
 * holds nothing still needed (the and clears it). */
static bool sbb_mask_fits(ctx *c, uint32_t cond, uint32_t z, uint32_t nz)
{
    if (!(dec_of(c, c->cur) & EMIT_ASM_D_SBB))
        return false;
    if (!is_const(c, z) || !is_const(c, nz) || kval(c, z) != 0 || kval(c, nz) == 0 || kval(c, nz) > 0x7fffffffu)
        return false;
    return dies(c, cond) && !flag_holds_live(c, F_OF);
}

static void do_cmov(ctx *c, const ir_node *n)
{
    uint32_t cond = n->arg[0], z = n->arg[1], nz = n->arg[2], res = n->res[0];
    int d;
    if (is_const(c, cond)) {
        d = dst_from(c, kval(c, cond) ? nz : z, true);
    } else {
        int fl = in_flag(c, cond, F_CF) ? F_CF : in_flag(c, cond, F_OF) ? F_OF : 0;
        if (fl == F_CF && sbb_mask_fits(c, cond, z, nz)) {
            /* cond ? K : 0 with cond in CF and dying, OF free: sbb d, d (all ones when CF set, 0 when clear), and
             * $K (andl zero-extends) — two instructions and one register, where the cmov form needs two
             * immediates in two registers. Both flags are left dead (and clears CF and OF). */
            clobber(c, M_ALL, cond);
            d = alloc_reg(c, -1);
            ins(c, "sbbq %%%s, %%%s", R64[d], R64[d]);
            ins(c, "andl $%llu, %%%s", (unsigned long long)kval(c, nz), R32[d]);
            set_res(c, res, d);
            return;
        }
        int rc = fl || c->zf_val == cond ? -1 : ensure_reg(c, cond);
        int rn = reg_of(c, nz);
        d = dst_from(c, z, true);
        if (!fl && rc < 0 && c->zf_val != cond) /* a zero idiom (mov_imm) just wrote the flags */
            rc = ensure_reg(c, cond);
        const char *cc = "nz";
        if (fl == F_CF)
            cc = "c";
        else if (fl == F_OF)
            cc = "o";
        else if (c->zf_val != cond) { /* ZF still says cond != 0 after an earlier test: no second one */
            clobber(c, M_ALL, IR_NOVAL);
            ins(c, "testq %%%s, %%%s", R64[rc], R64[rc]);
            c->known0[F_CF] = c->known0[F_OF] = true;
            c->zf_val = cond;
        }
        ins(c, "cmov%sq %%%s, %%%s", cc, R64[rn], R64[d]);
    }
    set_res(c, res, d);
}

static void do_load(ctx *c, const ir_node *n)
{
    uint32_t v = n->res[0];
    if (!c->alias_dead[n->arr]) {
        /* lazily: the value stays in the input array, read where it is used (as a memory operand, or into a
         * register), until a store to an output that may alias the array */
        c->v[v].home_arr = (int)n->arr;
        c->v[v].home_limb = n->limb;
        return;
    }
    int p = ensure_reg(c, c->f->nval + n->arr);
    int d = alloc_reg(c, -1);
    ins(c, "movq %u(%%%s), %%%s", 8 * n->limb, R64[p], R64[d]);
    set_res(c, n->res[0], d);
}

static void do_store(ctx *c, const ir_node *n)
{
    uint32_t v = n->arg[0];
    /* The first store to an output that may alias input j: the values of j still needed and only in j are read
     * into free registers or stack slots first. Every such j is marked dead BEFORE any is read: a value of j that
     * is in a register (read earlier, or by this rescue) and is evicted while the rescue needs registers must be
     * spilled, since its limb is about to be overwritten. (Marking j dead only after its rescue let evict() drop
     * such a register as "still in memory": the value had no location afterwards, and mulx's rdx operand even
     * read the overwritten limb.) */
    uint64_t kill = 0;
    for (uint32_t j = 0; j < c->f->narr && j < 64; j++)
        if (!c->alias_dead[j] && ((c->f->arr[n->arr].alias >> j) & 1)) {
            kill |= 1ull << j;
            c->alias_dead[j] = true;
        }
    c->rescue = true;
    for (uint32_t w = 0; kill && w < c->f->nval; w++) {
        av *a = &c->v[w];
        if (a->home_arr < 0 || !((kill >> a->home_arr) & 1) || a->reg >= 0 || a->slot >= 0 || a->xmm >= 0 ||
            !used_at_or_after(c, w))
            continue;
        int r = free_reg(c, -1);
        char m[48];
        if (r >= 0) { /* into a free register (a spill later if it must leave) */
            mem_of(c, w, m, sizeof m);
            if (c->regv[r] != FREE) { /* mem_of took it for the pointer: use another */
                r = alloc_reg(c, -1);
                c->lock[r] = false;
            }
            ins(c, "movq %s, %%%s", m, R64[r]);
            c->regv[r] = (int)w;
            c->used[r] = true;
            a->reg = r;
            c->st.nreloads++;
            continue;
        }
        r = alloc_reg(c, -1);
        mem_of(c, w, m, sizeof m);
        ins(c, "movq %s, %%%s", m, R64[r]);
        a->slot = new_slot(c);
        ins(c, "movq %%%s, %d(%%rsp)", R64[r], 8 * a->slot);
        c->st.nreloads++;
        c->st.nspills++;
        c->regv[r] = FREE;
        c->lock[r] = false;
    }
    c->rescue = false;
    int p = ensure_reg(c, c->f->nval + n->arr);
    if (is_const(c, v) && fits_s32(kval(c, v))) {
        ins(c, "movq $%lld, %u(%%%s)", (long long)(int64_t)kval(c, v), 8 * n->limb, R64[p]);
        return;
    }
    int r = reg_of(c, v);
    ins(c, "movq %%%s, %u(%%%s)", R64[r], 8 * n->limb, R64[p]);
}

static uint32_t node_uses(const ctx *c, uint32_t i, uint32_t *out);

/* end of node: release temps and dead values (every value the node uses, see node_uses) */
static void end_node(ctx *c, const ir_node *n)
{
    for (int r = 0; r < NREG; r++) {
        c->lock[r] = false;
        if (c->regv[r] == TEMP && r != RSP)
            c->regv[r] = FREE;
    }
    (void)n;
    uint32_t no = node_uses(c, c->cur, c->tmp);
    for (uint32_t i = 0; i < no; i++) {
        uint32_t v = c->tmp[i];
        if (!dies(c, v))
            continue;
        if (c->v[v].reg >= 0) {
            c->regv[c->v[v].reg] = FREE;
            c->v[v].reg = -1;
        }
        if (c->v[v].slot >= 0) {
            c->slot_busy[c->v[v].slot] = 0;
            c->v[v].slot = -1;
        }
        if (c->v[v].xmm >= 0) {
            c->xmm_busy[c->v[v].xmm] = false;
            c->v[v].xmm = -1;
        }
        for (int fl = F_CF; fl <= F_OF; fl++)
            if (c->flagv[fl] == v)
                c->flagv[fl] = IR_NOVAL;
    }
}

/* ---- checks and the walk ----------------------------------------------------------------------------------- */

/* The values node i uses, into out (repeats allowed): its non-constant operands; the array pointer of a load or
 * store; the pointer of input j for each operand loaded from j before kill[j] (a lazily loaded value is read
 * through the pointer); the pointer of input j at kill[j] when a value of j is used from then on (it moves to a
 * slot there). */
static uint32_t node_uses(const ctx *c, uint32_t i, uint32_t *out)
{
    const ir_func *f = c->f;
    const ir_node *n = &f->node[i];
    uint32_t m = 0;
    for (int k = 0; k < n->nargs; k++) {
        const ir_value *x = &f->val[n->arg[k]];
        if (x->is_const)
            continue;
        out[m++] = n->arg[k];
        if (f->node[x->node].op == IR_LOAD && i < c->kill[f->node[x->node].arr])
            out[m++] = f->nval + f->node[x->node].arr;
    }
    if (n->op == IR_LOAD || n->op == IR_STORE)
        out[m++] = f->nval + n->arr;
    for (uint32_t j = 0; j < f->narr; j++)
        if (c->kill[j] == i && c->need_kill[j])
            out[m++] = f->nval + j;
    return m;
}

static int check_input(ctx *c, const char *sym)
{
    const ir_func *f = c->f;
    if (!sym[0] || !((sym[0] >= 'a' && sym[0] <= 'z') || (sym[0] >= 'A' && sym[0] <= 'Z') || sym[0] == '_'))
        return fail(c, "symbol '%s' is not an identifier", sym);
    for (const char *p = sym; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return fail(c, "symbol '%s' is not an identifier", sym);
    if (f->narr == 0 || f->narr > 64)
        return fail(c, "%s: %u arrays (1 to 64 supported)", f->name, f->narr);
    for (uint32_t j = 0; j < f->narr; j++)
        if (f->arr[j].width != 64 || f->arr[j].len > (1u << 24))
            return fail(c, "array %s: only 64-bit limbs (at most 2^24) are supported", f->arr[j].name);
    for (uint32_t v = 0; v < f->nval; v++) {
        const ir_value *x = &f->val[v];
        if (x->width != 1 && x->width != 64)
            return fail(c, "value %s is u%u: lower the function first (ir_lower)", x->name, x->width);
    }
    for (uint32_t i = 0; i < f->nnode; i++) {
        const ir_node *n = &f->node[i];
        const char *on = n->op < IR_NOPS ? ir_op_name((ir_op)n->op) : "?";
        if (n->op >= IR_NOPS)
            return fail(c, "node %u: unknown operation %u", i, n->op);
        if (n->nargs != ir_op_nargs((ir_op)n->op) || n->nres != ir_op_nres((ir_op)n->op))
            return fail(c, "node %u (%s): wrong operand count", i, on);
        if (ir_op_sized((ir_op)n->op) && n->size != 64)
            return fail(c, "node %u (%s.%u): only size 64 is supported", i, on, n->size);
        if ((n->op == IR_LOAD || n->op == IR_STORE) &&
            (n->arr >= f->narr || n->limb >= f->arr[n->arr].len || f->arr[n->arr].is_output != (n->op == IR_STORE)))
            return fail(c, "node %u (%s): bad array or limb", i, on);
        for (int k = 0; k < n->nargs; k++) {
            ir_val a = n->arg[k];
            if (a >= f->nval)
                return fail(c, "node %u (%s): operand %d undefined", i, on, k);
            const ir_value *x = &f->val[a];
            if (!x->is_const && x->node >= i)
                return fail(c, "node %u (%s): operand %s used before it is defined", i, on, x->name);
            if (!x->is_const && (x->slot >= IR_MAX_RES || f->node[x->node].res[x->slot] != a))
                return fail(c, "node %u (%s): operand %s: incoherent definition", i, on, x->name);
        }
        for (int k = 0; k < n->nres; k++)
            if (n->res[k] >= f->nval)
                return fail(c, "node %u (%s): result %d undefined", i, on, k);
        if ((n->op == IR_SHL || n->op == IR_SHR) && !f->val[n->arg[1]].is_const)
            return fail(c, "node %u (%s): the shift amount must be a constant", i, on);
        if (n->op == IR_SHRD && !f->val[n->arg[2]].is_const)
            return fail(c, "node %u (shrd): the shift amount must be a constant", i);
        if (ir_op_sized((ir_op)n->op) && n->op != IR_MULX) {
            ir_val cin = n->arg[0];
            if (f->val[cin].is_const ? f->val[cin].k > 1 : f->val[cin].width != 1)
                return fail(c, "node %u (%s): the carry-in must be a u1 value or 0 or 1", i, on);
        }
    }
    return 0;
}

static int walk(ctx *c)
{
    const ir_func *f = c->f;
    for (int r = 0; r < NREG; r++) {
        c->regv[r] = FREE;
        c->lock[r] = false;
        c->used[r] = false;
    }
    c->regv[RSP] = TEMP; /* never allocated */
    memset(c->slot_busy, 0, c->nslot_cap);
    memset(c->xmm_busy, 0, sizeof c->xmm_busy);
    memset(c->xmm_used, 0, sizeof c->xmm_used);
    c->nslots = 0;
    c->flagv[F_CF] = c->flagv[F_OF] = IR_NOVAL;
    c->known0[F_CF] = c->known0[F_OF] = false;
    c->zf_val = IR_NOVAL;
    memset(c->kvalid, 0, sizeof c->kvalid);
    memset(c->alias_dead, 0, sizeof c->alias_dead);
    memset(&c->st, 0, sizeof c->st);
    c->len = 0;
    for (uint32_t v = 0; v < c->nv; v++) {
        c->v[v].reg = -1;
        c->v[v].slot = -1;
        c->v[v].xmm = -1;
        c->v[v].stack_arg = -1;
        c->v[v].home_arr = -1;
        c->v[v].up = 0;
    }
    /* argument k: output arrays first, then inputs */
    unsigned k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output == (pass == 0)) {
                uint32_t p = f->nval + j;
                if (k < 6) {
                    if (c->v[p].un) {
                        c->regv[ARGREG[k]] = (int)p;
                        c->v[p].reg = ARGREG[k];
                    }
                } else {
                    c->v[p].stack_arg = (int)k;
                }
                k++;
            }

    const char *sym = c->o && c->o->symbol ? c->o->symbol : f->name;
    /* the prologue (known after the first walk) */
    put(c, "\t.text\n\t.globl\t%s\n", sym);
    if (c->o && c->o->hidden)
        put(c, "\t.hidden\t%s\n", sym);
    put(c, "\t.type\t%s, @function\n\t.p2align 4\n%s:\n", sym, sym);
    for (int i = 0; i < 6; i++)
        if (c->npush & (1u << (8 + i)))
            ins(c, "pushq %%%s", R64[CALLEE[i]]);
    if (c->frame)
        ins(c, "subq $%u, %%rsp", c->frame);
    unsigned npush_mask = c->npush;
    c->npush = 0;
    for (int i = 0; i < 6; i++)
        if (npush_mask & (1u << (8 + i)))
            c->npush++;

    for (uint32_t i = 0; i < f->nnode && !c->failed; i++) {
        const ir_node *n = &f->node[i];
        uint8_t dec = c->o && c->o->decisions ? c->o->decisions[i] : 0;
        c->cur = i;
        lock_operands(c, n);
        switch ((ir_op)n->op) {
        case IR_LOAD: do_load(c, n); break;
        case IR_STORE: do_store(c, n); break;
        case IR_CAST: do_cast(c, n); break;
        case IR_ADD: do_add(c, n, dec); break;
        case IR_SUB: do_binop(c, n, "subq", false, 0); break;
        case IR_MUL: do_mul(c, n, dec); break;
        case IR_SHL:
        case IR_SHR: do_shift(c, n, dec); break;
        case IR_AND: do_binop(c, n, "andq", true, dec); break;
        case IR_OR: do_binop(c, n, "orq", true, 0); break;
        case IR_XOR: do_binop(c, n, "xorq", true, 0); break;
        case IR_NOT: do_not(c, n); break;
        case IR_LNOT: do_lnot(c, n); break;
        case IR_MULX:
            if (c->x64)
                do_mulq(c, n, dec);
            else
                do_mulx(c, n, dec);
            break;
        case IR_ADDCARRYX: do_addcarryx(c, n, dec); break;
        case IR_SUBBORROWX: do_subborrowx(c, n); break;
        case IR_CMOVZNZ: do_cmov(c, n); break;
        case IR_SHRD: do_shrd(c, n); break;
        default: return fail(c, "node %u: unsupported operation", i);
        }
        end_node(c, n);
    }
    if (c->frame)
        ins(c, "addq $%u, %%rsp", c->frame);
    for (int i = 5; i >= 0; i--)
        if (npush_mask & (1u << (8 + i)))
            ins(c, "popq %%%s", R64[CALLEE[i]]);
    ins(c, "ret");
    put(c, "\t.size\t%s, .-%s\n\t.section\t.note.GNU-stack,\"\",@progbits\n", sym, sym);
    c->npush = npush_mask;
    return c->failed ? -1 : 0;
}

static void header(ctx *c, char **out, size_t *len)
{
    const ir_func *f = c->f;
    const char *sym = c->o && c->o->symbol ? c->o->symbol : f->name;
    char *body = c->buf;
    size_t blen = c->len;
    c->cap = blen + 4096;
    c->len = 0;
    c->buf = malloc(c->cap);
    if (!c->buf) {
        c->buf = body;
        fail(c, "out of memory");
        return;
    }
    put(c, "/* GENERATED by ecopt — do not edit.\n * %s\n *\n",
        c->o && c->o->command ? c->o->command : "command: none");
    put(c, " * %s — %s (straight-line x86-64, emit/emit_asm.c)\n", sym, f->prime[0] ? f->prime : "IR program");
    put(c, " * Shapes:  void %s(", sym);
    unsigned k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output == (pass == 0))
                put(c, "%suint64_t %s%s[%u]", k++ ? ", " : "", pass ? "const " : "", f->arr[j].name,
                    f->arr[j].len);
    put(c, ")\n * Bounds:  those of the IR program\n * Alias:   ");
    int any = 0;
    for (uint32_t j = 0; j < f->narr; j++)
        for (uint32_t i = 0; i < f->narr && i < 64; i++)
            if (f->arr[j].is_output && ((f->arr[j].alias >> i) & 1))
                put(c, "%s%s may equal %s", any++ ? ", " : "", f->arr[j].name, f->arr[i].name);
    put(c, "%s\n * Time:    constant (no branch, no data-dependent address)\n", any ? "" : "none");
    put(c, " * ABI:     System V AMD64; clobbers rax rcx rdx rsi rdi r8-r11%s and the flags",
        c->st.nxmmregs ? ", xmm spill registers" : "");
    int ns = 0;
    for (int i = 0; i < 6; i++)
        if (c->npush & (1u << (8 + i)))
            put(c, "%s%s", ns++ ? " " : "; saves ", R64[CALLEE[i]]);
    put(c, "\n * Target:  %s\n", c->x64 ? "x86-64 (baseline: mulq, adcq, sbbq; no BMI2, no ADX)"
                                            : "adx (x86-64 with BMI2 and ADX)");
    put(c, " * Stats:   %u instructions, %u spills, %u reloads, %u stack slots, %u flag saves", c->st.ninsns,
        c->st.nspills, c->st.nreloads, c->st.nslots, c->st.nflags);
    if (c->st.nxmm)
        put(c, ", %u xmm spills (%u registers)", c->st.nxmm, c->st.nxmmregs);
    put(c, "\n");
    if (c->o && c->o->header_extra && c->o->header_extra[0]) {
        size_t n = strlen(c->o->header_extra);
        put(c, "%s%s", c->o->header_extra, c->o->header_extra[n - 1] == '\n' ? "" : "\n");
    }
    put(c, " */\n");
    put(c, "%.*s", (int)blen, body);
    free(body);
    if (!c->failed) {
        *out = c->buf;
        if (len)
            *len = c->len;
        c->buf = NULL;
    }
}

int emit_asm(const ir_func *f, const emit_asm_opts *opts, char **out, size_t *len, char *err, size_t errlen)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.o = opts;
    if (opts && opts->target != EMIT_ASM_TARGET_ADX && opts->target != EMIT_ASM_TARGET_X86_64)
        return fail(&c, "unknown target %d", (int)opts->target);
    c.x64 = opts && opts->target == EMIT_ASM_TARGET_X86_64;
    c.order = c.x64 ? ORDER_X64 : ORDER_ADX;
    c.err = err;
    c.errlen = errlen;
    if (err && errlen)
        err[0] = 0;
    if (!out)
        return fail(&c, "no output pointer");
    *out = NULL;
    if (!f)
        return fail(&c, "no function");
    const char *sym = opts && opts->symbol ? opts->symbol : f->name;
    if (check_input(&c, sym) < 0)
        return -1;
    if (opts && opts->header_extra) {
        /* every line " * ...", no comment end inside */
        unsigned line = 1;
        for (const char *p = opts->header_extra; *p; line++) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            if (n < 3 || strncmp(p, " * ", 3))
                return fail(&c, "header_extra line %u does not start with \" * \"", line);
            for (size_t i = 0; i + 1 < n; i++)
                if (p[i] == '*' && p[i + 1] == '/')
                    return fail(&c, "header_extra line %u contains \"*/\"", line);
            p += n + (e ? 1 : 0);
        }
    }
    c.nv = f->nval + f->narr;
    c.v = calloc(c.nv, sizeof *c.v);
    c.nslot_cap = c.nv + 16;
    c.slot_busy = calloc(c.nslot_cap, 1);
    c.cap = 1 << 16;
    c.buf = malloc(c.cap);
    if (!c.v || !c.slot_busy || !c.buf) {
        fail(&c, "out of memory");
        goto done;
    }
    /* uses per value, in node order (node_uses) */
    uint32_t *tmp = c.tmp = malloc((2u * IR_MAX_ARGS + 1 + f->narr) * sizeof *tmp);
    c.kill = malloc(f->narr * sizeof *c.kill);
    c.need_kill = calloc(f->narr, 1);
    if (!tmp || !c.kill || !c.need_kill) {
        fail(&c, "out of memory");
        goto done;
    }
    for (uint32_t j = 0; j < f->narr; j++) {
        c.kill[j] = NOUSE;
        for (uint32_t i = 0; i < f->nnode && c.kill[j] == NOUSE; i++)
            if (f->node[i].op == IR_STORE && j < 64 && ((f->arr[f->node[i].arr].alias >> j) & 1))
                c.kill[j] = i;
    }
    for (uint32_t i = 0; i < f->nnode; i++) {
        const ir_node *n = &f->node[i];
        for (int k = 0; k < n->nargs; k++) {
            const ir_value *x = &f->val[n->arg[k]];
            if (!x->is_const && f->node[x->node].op == IR_LOAD && i >= c.kill[f->node[x->node].arr])
                c.need_kill[f->node[x->node].arr] = 1;
        }
    }
    for (uint32_t i = 0; i < f->nnode; i++) {
        uint32_t m = node_uses(&c, i, tmp);
        for (uint32_t k = 0; k < m; k++)
            c.v[tmp[k]].un++;
    }
    uint32_t off = 0;
    for (uint32_t v = 0; v < c.nv; v++) {
        c.v[v].u0 = off;
        off += c.v[v].un;
        c.v[v].un = 0;
        c.v[v].width = v < f->nval ? f->val[v].width : 64;
    }
    c.uses = malloc(((size_t)off + 1) * sizeof *c.uses);
    if (!c.uses) {
        fail(&c, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < f->nnode; i++) {
        uint32_t m = node_uses(&c, i, tmp);
        for (uint32_t k = 0; k < m; k++) {
            av *a = &c.v[tmp[k]];
            if (!a->un || c.uses[a->u0 + a->un - 1] != i)
                c.uses[a->u0 + a->un++] = i;
        }
    }
    /* pass 1: frame and callee-saved registers; pass 2: the text */
    if (walk(&c) < 0)
        goto done;
    unsigned mask = 0;
    for (int i = 0; i < 6; i++)
        if (c.used[CALLEE[i]])
            mask |= 1u << (8 + i);
    c.npush = mask;
    c.frame = 8 * c.nslots;
    unsigned nslots1 = c.nslots;
    if (walk(&c) < 0)
        goto done;
    if (c.nslots != nslots1) {
        fail(&c, "internal: the two walks differ");
        goto done;
    }
    c.st.nslots = c.nslots;
    for (int i = 0; i < 16; i++)
        c.st.nxmmregs += c.xmm_used[i];
    for (int i = 0; i < 6; i++)
        if (mask & (1u << (8 + i)))
            c.st.nsaved++;
    header(&c, out, len);
    if (!c.failed && opts && opts->stats)
        *opts->stats = c.st;
done:
    free(c.v);
    free(c.uses);
    free(c.kill);
    free(c.need_kill);
    free(c.tmp);
    free(c.slot_busy);
    free(c.buf);
    return c.failed ? -1 : 0;
}

const char *emit_asm_target_name(emit_asm_target t)
{
    return t == EMIT_ASM_TARGET_ADX ? "adx" : t == EMIT_ASM_TARGET_X86_64 ? "x86-64" : NULL;
}

int emit_asm_target_parse(const char *name, emit_asm_target *t)
{
    if (name && !strcmp(name, "adx")) {
        *t = EMIT_ASM_TARGET_ADX;
        return 0;
    }
    if (name && !strcmp(name, "x86-64")) {
        *t = EMIT_ASM_TARGET_X86_64;
        return 0;
    }
    return -1;
}
