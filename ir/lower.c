/* lower.c — ir_lower: u128 arithmetic to 64-bit operations (DESIGN.md, "The IR").
 *
 * Every u128 value v of the source becomes a pair of 64-bit words (lo, hi) with v = hi * 2^64 + lo. The high word
 * is the constant 0 (no node at all) when v is a cast from 64 bits or less, or when the source's bounds say
 * v < 2^64. Rules, one per operation with a u128 result (k a constant shift amount):
 *   (u128)x           (x, 0)                                  a cast from 64 bits or less is a projection
 *   a * b             mulx(a.lo, b.lo) = (lo, hi)             only when a.hi = b.hi = 0 (else: no lowering);
 *                                                             a plain u64 `mul` when the product is < 2^64
 *   a + b             (lo, c) = addcarryx(0, a.lo, b.lo); hi = addcarryx(c, a.hi, b.hi), carry dropped
 *                     when a.hi = b.hi = 0: hi = (u64)c       (a plain u64 `add` when the sum is < 2^64)
 *   a - b             the same with subborrowx                (a plain u64 `sub` when it cannot borrow)
 *   a >> k, k < 64    lo = shrd(a.hi, a.lo, k), hi = a.hi >> k
 *   a >> k, k >= 64   lo = a.hi >> (k - 64), hi = 0
 *   a << k, k < 64    lo = (a.lo << k) mod 2^64, hi = shrd(a.hi, a.lo, 64 - k)
 *   a << k, k >= 64   lo = 0, hi = (a.lo << (k - 64)) mod 2^64
 *   & | ^ ~ cmovznz   per word, with the trivial cases folded (x & 0 = 0, x & (2^64-1) = x, x | 0 = x, ...)
 * An operation with a result of 64 bits or less and a u128 operand uses the low words, since its result is taken
 * mod 2^w (w <= 64) and depends only on the operands' low 64 bits (`+ - * & | ^ ~ <<`), or is computed from both
 * words (`>>` by shrd, `!` and the cmovznz condition from lo | hi). Loads, stores and 64-bit nodes are copied.
 *
 * A shift `(x mod 2^64) << k` that may drop bits is written as (x & (2^(64-k) - 1)) << k so that ir_bounds, for
 * which a u64 `<<` must not wrap, still accepts the lowered function.
 *
 * The funnel shift and the add-with-carry decomposition are the textbook multiword algorithms (Knuth, TAOCP vol. 2,
 * 4.3.1, Algorithm A), one 64-bit digit at a time.
 *
 * Soundness: dropping a high word because the source's bounds say v < 2^64 relies on the inputs being within
 * their declared bounds (the same precondition as the source's own bounds). */
#include "ir/ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    ir_val lo, hi; /* hi == IR_NOVAL: a value of 64 bits or less (lo is its copy, of the source's width) */
} lw_pair;

typedef struct {
    const ir_func *f;    /* the source */
    ir_func *b;          /* a clone of the source with fresh bounds (ir_bounds) */
    ir_func *g;          /* the lowered function being built */
    lw_pair *map;        /* per source value */
    uint8_t *mapped;
    char **names;        /* names in use in g (open addressing) */
    uint32_t nnames, capnames;
    char *err;
    size_t errlen;
    int failed;
} lw_ctx;

static int lw_fail(lw_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int lw_fail(lw_ctx *c, const char *fmt, ...)
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

/* ---- names ------------------------------------------------------------------------------------------------------ */

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static int name_used(const lw_ctx *c, const char *s)
{
    if (!c->capnames)
        return 0;
    for (uint32_t i = name_hash(s) & (c->capnames - 1);; i = (i + 1) & (c->capnames - 1)) {
        if (!c->names[i])
            return 0;
        if (!strcmp(c->names[i], s))
            return 1;
    }
}

static int name_add(lw_ctx *c, const char *s)
{
    if (name_used(c, s))
        return 0;
    if (2 * (c->nnames + 1) > c->capnames) {
        uint32_t cap = c->capnames ? 2 * c->capnames : 512;
        char **nn = calloc(cap, sizeof *nn);
        if (!nn)
            return lw_fail(c, "out of memory");
        for (uint32_t i = 0; i < c->capnames; i++) {
            if (!c->names[i])
                continue;
            uint32_t j = name_hash(c->names[i]) & (cap - 1);
            while (nn[j])
                j = (j + 1) & (cap - 1);
            nn[j] = c->names[i];
        }
        free(c->names);
        c->names = nn;
        c->capnames = cap;
    }
    uint32_t i = name_hash(s) & (c->capnames - 1);
    while (c->names[i])
        i = (i + 1) & (c->capnames - 1);
    size_t n = strlen(s) + 1;
    c->names[i] = malloc(n);
    if (!c->names[i])
        return lw_fail(c, "out of memory");
    memcpy(c->names[i], s, n);
    c->nnames++;
    return 0;
}

/* A fresh name "<base><suffix>" (or with "_2", "_3", ... appended when taken) into out (IR_NAME_MAX). */
static const char *fresh(lw_ctx *c, const char *base, const char *suffix, char *out)
{
    char tmp[IR_NAME_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s%s", base, suffix);
    snprintf(out, IR_NAME_MAX, "%.*s", IR_NAME_MAX - 1, tmp);
    for (unsigned k = 2; name_used(c, out); k++) {
        char num[16];
        snprintf(num, sizeof num, "_%u", k);
        size_t nl = strlen(num), bl = strlen(tmp);
        if (bl + nl >= IR_NAME_MAX)
            bl = IR_NAME_MAX - 1 - nl;
        snprintf(out, IR_NAME_MAX, "%.*s%s", (int)bl, tmp, num);
    }
    name_add(c, out);
    return out;
}

/* ---- building blocks over g --------------------------------------------------------------------------------- */

static const ir_u128 MAX64 = (ir_u128)UINT64_MAX;

static ir_val k64(lw_ctx *c, ir_u128 k)
{
    ir_val v = ir_const(c->g, 64, k & MAX64);
    if (v == IR_NOVAL)
        lw_fail(c, "%s", c->g->err);
    return v;
}

static int is_k(const lw_ctx *c, ir_val v, ir_u128 k)
{
    const ir_value *x = &c->g->val[v];
    return x->is_const && x->k == k;
}

/* value v of g is known to be 0 (a constant, or bounds [0, 0]) */
static int is_zero(const lw_ctx *c, ir_val v)
{
    const ir_value *x = &c->g->val[v];
    return x->is_const ? x->k == 0 : x->hi == 0;
}

static ir_u128 ghi(const lw_ctx *c, ir_val v) { return c->g->val[v].hi; }
static ir_u128 glo(const lw_ctx *c, ir_val v) { return c->g->val[v].lo; }

/* emit one node in g; returns result 0 (and result 1 in *r1) or IR_NOVAL after lw_fail */
static ir_val gemit(lw_ctx *c, ir_op op, unsigned width, unsigned size, const ir_val *args, unsigned nargs,
                    const char *n0, const char *n1, ir_val *r1)
{
    if (c->failed)
        return IR_NOVAL;
    for (unsigned i = 0; i < nargs; i++)
        if (args[i] == IR_NOVAL)
            return IR_NOVAL;
    ir_val res[IR_MAX_RES];
    const char *names[IR_MAX_RES] = { n0, n1 };
    if (ir_emit(c->g, op, width, size, args, nargs, res, names) < 0) {
        lw_fail(c, "%s", c->g->err);
        return IR_NOVAL;
    }
    if (r1)
        *r1 = res[1];
    return res[0];
}

static ir_val g1(lw_ctx *c, ir_op op, unsigned w, ir_val a, const char *name)
{
    return gemit(c, op, w, 0, &a, 1, name, NULL, NULL);
}

static ir_val g2(lw_ctx *c, ir_op op, unsigned w, ir_val a, ir_val b, const char *name)
{
    ir_val args[2] = { a, b };
    return gemit(c, op, w, 0, args, 2, name, NULL, NULL);
}

static ir_val g3(lw_ctx *c, ir_op op, unsigned w, ir_val a, ir_val b, ir_val x, const char *name)
{
    ir_val args[3] = { a, b, x };
    return gemit(c, op, w, 0, args, 3, name, NULL, NULL);
}

/* v as a u64 word (a u1 value is widened by a cast node) */
static ir_val word(lw_ctx *c, ir_val v, const char *base)
{
    if (v == IR_NOVAL || c->g->val[v].width == 64)
        return v;
    if (c->g->val[v].is_const)
        return k64(c, c->g->val[v].k);
    char nm[IR_NAME_MAX];
    return g1(c, IR_CAST, 64, v, fresh(c, base, "_w", nm));
}

/* (x mod 2^64) << k as a u64, k < 64, masking first when bits would be dropped */
static ir_val shl64(lw_ctx *c, ir_val x, unsigned k, const char *base, const char *name)
{
    if (k == 0 || is_zero(c, x))
        return k == 0 ? x : k64(c, 0);
    if (c->g->val[x].is_const)
        return k64(c, c->g->val[x].k << k);
    if (ghi(c, x) > (MAX64 >> k)) {
        char nm[IR_NAME_MAX];
        x = g2(c, IR_AND, 64, x, k64(c, MAX64 >> k), fresh(c, base, "_m", nm));
    }
    return g2(c, IR_SHL, 64, x, k64(c, k), name);
}

/* (hi * 2^64 + lo) >> k mod 2^64, k < 64 */
static ir_val shr_pair(lw_ctx *c, ir_val lo, ir_val hi, unsigned k, const char *name)
{
    if (k == 0)
        return lo;
    if (is_zero(c, hi))
        return is_zero(c, lo) ? k64(c, 0) : g2(c, IR_SHR, 64, lo, k64(c, k), name);
    return g3(c, IR_SHRD, 64, hi, lo, k64(c, k), name);
}

/* x >> k for a u64 word, k < 64 */
static ir_val shr64(lw_ctx *c, ir_val x, unsigned k, const char *name)
{
    if (k == 0)
        return x;
    if (is_zero(c, x))
        return k64(c, 0);
    if (c->g->val[x].is_const)
        return k64(c, c->g->val[x].k >> k);
    return g2(c, IR_SHR, 64, x, k64(c, k), name);
}

/* x OP y for u64 words, trivial cases folded */
static ir_val bitop(lw_ctx *c, ir_op op, ir_val x, ir_val y, const char *name)
{
    if (x == IR_NOVAL || y == IR_NOVAL)
        return IR_NOVAL;
    const ir_value *a = &c->g->val[x], *b = &c->g->val[y];
    if (a->is_const && b->is_const)
        return k64(c, op == IR_AND ? a->k & b->k : op == IR_OR ? a->k | b->k : a->k ^ b->k);
    switch (op) {
    case IR_AND:
        if (is_zero(c, x) || is_zero(c, y))
            return k64(c, 0);
        if (is_k(c, x, MAX64) || x == y)
            return y;
        if (is_k(c, y, MAX64))
            return x;
        break;
    case IR_OR:
        if (is_k(c, x, MAX64) || is_k(c, y, MAX64))
            return k64(c, MAX64);
        if (is_zero(c, x) || x == y)
            return y;
        if (is_zero(c, y))
            return x;
        break;
    default:
        if (is_zero(c, x))
            return y;
        if (is_zero(c, y))
            return x;
        break;
    }
    return g2(c, op, 64, x, y, name);
}

/* a value that is nonzero exactly when the pair is nonzero */
static ir_val nonzero_word(lw_ctx *c, lw_pair p, const char *base)
{
    if (p.hi == IR_NOVAL || is_zero(c, p.hi))
        return p.lo;
    char nm[IR_NAME_MAX];
    return bitop(c, IR_OR, p.lo, p.hi, fresh(c, base, "_nz", nm));
}

/* ---- the source's values in g --------------------------------------------------------------------------------- */

/* source value v: for a u128, its (lo, hi) words (u64 values of g); otherwise (copy, IR_NOVAL) */
static lw_pair get(lw_ctx *c, ir_val v)
{
    const ir_value *s = &c->f->val[v];
    lw_pair p = { IR_NOVAL, IR_NOVAL };
    if (c->mapped[v])
        return c->map[v];
    if (!s->is_const) {
        lw_fail(c, "value %s is used before it is defined", s->name);
        return p;
    }
    if (s->width == 128) {
        p.lo = k64(c, s->k);
        p.hi = k64(c, s->k >> 64);
    } else {
        p.lo = ir_const(c->g, s->width, s->k);
        if (p.lo == IR_NOVAL)
            lw_fail(c, "%s", c->g->err);
    }
    c->map[v] = p;
    c->mapped[v] = 1;
    return p;
}

/* source value v as a pair of u64 words (a value of 64 bits or less gets the high word 0) */
static lw_pair get_pair(lw_ctx *c, ir_val v, const char *base)
{
    lw_pair p = get(c, v);
    if (p.hi == IR_NOVAL && p.lo != IR_NOVAL) {
        p.lo = word(c, p.lo, base);
        p.hi = k64(c, 0);
    }
    return p;
}

/* source value v's low 64 bits (or the value itself when it is 64 bits or less) */
static ir_val get_low(lw_ctx *c, ir_val v)
{
    return get(c, v).lo;
}

static void set(lw_ctx *c, ir_val v, ir_val lo, ir_val hi)
{
    c->map[v].lo = lo;
    c->map[v].hi = hi;
    c->mapped[v] = 1;
}

static void describe(const ir_func *f, uint32_t i, char *buf, size_t len)
{
    const ir_node *n = &f->node[i];
    int o = 0;
    buf[0] = 0;
    if (n->nres)
        o += snprintf(buf + o, len - (size_t)o, "%s%s%s = ", f->val[n->res[0]].name, n->nres > 1 ? ", " : "",
                      n->nres > 1 ? f->val[n->res[1]].name : "");
    if (o < (int)len)
        o += snprintf(buf + o, len - (size_t)o, "%s", ir_op_name((ir_op)n->op));
    for (unsigned k = 0; k < n->nargs && o < (int)len; k++)
        o += snprintf(buf + o, len - (size_t)o, "%s %s", k ? "," : "", f->val[n->arg[k]].name);
}

/* ---- one source node ------------------------------------------------------------------------------------------ */

/* An operation whose result has 64 bits or less but with a u128 operand. */
static void lower_narrow(lw_ctx *c, const ir_node *n)
{
    const ir_value *r = &c->f->val[n->res[0]];
    unsigned w = r->width;
    const char *nm = r->name;
    ir_val v = IR_NOVAL;
    char tmp[IR_NAME_MAX];
    /* the u64 form of the result is named after the source value when no cast to u1 follows */
    const char *n64 = w == 64 ? nm : fresh(c, nm, "_w", tmp);
    switch ((ir_op)n->op) {
    case IR_CAST:
        v = get_low(c, n->arg[0]);
        break;
    case IR_ADD:
    case IR_SUB:
    case IR_MUL:
        v = g2(c, (ir_op)n->op, 64, word(c, get_low(c, n->arg[0]), nm), word(c, get_low(c, n->arg[1]), nm), n64);
        break;
    case IR_AND:
    case IR_OR:
    case IR_XOR:
        v = bitop(c, (ir_op)n->op, word(c, get_low(c, n->arg[0]), nm), word(c, get_low(c, n->arg[1]), nm), n64);
        break;
    case IR_NOT:
        v = g1(c, IR_NOT, 64, word(c, get_low(c, n->arg[0]), nm), n64);
        break;
    case IR_SHL: {
        unsigned k = (unsigned)c->f->val[n->arg[1]].k;
        v = k >= 64 ? k64(c, 0) : shl64(c, word(c, get_low(c, n->arg[0]), nm), k, nm, n64);
        break;
    }
    case IR_SHR: {
        unsigned k = (unsigned)c->f->val[n->arg[1]].k;
        lw_pair a = get_pair(c, n->arg[0], nm);
        if (a.lo == IR_NOVAL)
            return;
        v = k >= 64 ? shr64(c, a.hi, k - 64, n64) : shr_pair(c, a.lo, a.hi, k, n64);
        break;
    }
    case IR_LNOT: {
        lw_pair a = get_pair(c, n->arg[0], nm);
        if (a.lo == IR_NOVAL)
            return;
        set(c, n->res[0], g1(c, IR_LNOT, w, nonzero_word(c, a, nm), nm), IR_NOVAL);
        return;
    }
    case IR_CMOVZNZ: {
        lw_pair cond = get_pair(c, n->arg[0], nm);
        if (cond.lo == IR_NOVAL)
            return;
        ir_val z = get_low(c, n->arg[1]), x = get_low(c, n->arg[2]);
        ir_val cw = nonzero_word(c, cond, nm);
        if (c->f->val[n->arg[1]].width == 128 || c->f->val[n->arg[2]].width == 128) {
            v = z == x ? z : g3(c, IR_CMOVZNZ, 64, cw, word(c, z, nm), word(c, x, nm), n64);
        } else {
            set(c, n->res[0], z == x ? z : g3(c, IR_CMOVZNZ, w, cw, z, x, nm), IR_NOVAL);
            return;
        }
        break;
    }
    default: {
        char d[200];
        describe(c->f, (uint32_t)(n - c->f->node), d, sizeof d);
        lw_fail(c, "node %u (%s): a u128 operand of %s has no lowering", (unsigned)(n - c->f->node), d,
                ir_op_name((ir_op)n->op));
        return;
    }
    }
    if (v != IR_NOVAL && w < c->g->val[v].width) {
        if (c->g->val[v].is_const) {
            v = ir_const(c->g, w, c->g->val[v].k & ir_width_max(w));
        } else {
            v = g1(c, IR_CAST, w, v, nm);
        }
    }
    set(c, n->res[0], v, IR_NOVAL);
}

/* An operation with a u128 result. */
static void lower_wide(lw_ctx *c, uint32_t i)
{
    const ir_node *n = &c->f->node[i];
    const ir_value *r = &c->b->val[n->res[0]];
    const char *nm = r->name;
    /* the source's bounds say the result is below 2^64: no high word */
    int small = r->hi <= MAX64;
    char nlo[IR_NAME_MAX], nhi[IR_NAME_MAX], nc[IR_NAME_MAX], nx[IR_NAME_MAX];
    const char *lo_name = small ? fresh(c, nm, "", nlo) : fresh(c, nm, "_lo", nlo);
    const char *hi_name = fresh(c, nm, "_hi", nhi);
    ir_val lo = IR_NOVAL, hi = IR_NOVAL, zero = k64(c, 0);
    lw_pair a = { IR_NOVAL, IR_NOVAL }, b = { IR_NOVAL, IR_NOVAL };
    if (n->nargs >= 1 && n->op != IR_CMOVZNZ)
        a = get_pair(c, n->arg[0], nm);
    if (n->nargs >= 2 && n->op != IR_SHL && n->op != IR_SHR && n->op != IR_CMOVZNZ)
        b = get_pair(c, n->arg[1], nm);
    if (c->failed)
        return;
    switch ((ir_op)n->op) {
    case IR_CAST:
        lo = a.lo, hi = a.hi;
        break;
    case IR_ADD:
        if (is_zero(c, b.lo) && is_zero(c, b.hi)) {
            lo = a.lo, hi = a.hi;
        } else if (is_zero(c, a.lo) && is_zero(c, a.hi)) {
            lo = b.lo, hi = b.hi;
        } else if (small && is_zero(c, a.hi) && is_zero(c, b.hi) && ghi(c, a.lo) + ghi(c, b.lo) <= MAX64) {
            /* both operands and the sum fit in 64 bits (ir_bounds sees it too): a plain add */
            lo = g2(c, IR_ADD, 64, a.lo, b.lo, lo_name);
            hi = zero;
        } else {
            ir_val args[3] = { zero, a.lo, b.lo }, cy = IR_NOVAL;
            lo = gemit(c, IR_ADDCARRYX, 64, 64, args, 3, lo_name, fresh(c, nm, "_c", nc), &cy);
            if (small)
                hi = zero;
            else if (is_zero(c, a.hi) && is_zero(c, b.hi))
                hi = g1(c, IR_CAST, 64, cy, hi_name); /* the carry is the high word */
            else {
                ir_val args2[3] = { cy, a.hi, b.hi };
                hi = gemit(c, IR_ADDCARRYX, 64, 64, args2, 3, hi_name, fresh(c, nm, "_c2", nx), NULL);
            }
        }
        break;
    case IR_SUB:
        if (is_zero(c, b.lo) && is_zero(c, b.hi)) {
            lo = a.lo, hi = a.hi;
        } else if (small && glo(c, a.lo) >= ghi(c, b.lo)) {
            /* the low words cannot borrow, and the result fits in 64 bits: a plain sub */
            lo = g2(c, IR_SUB, 64, a.lo, b.lo, lo_name);
            hi = zero;
        } else {
            /* subborrowx args are (borrow in, minuend, subtrahend) */
            ir_val args[3] = { zero, a.lo, b.lo }, br = IR_NOVAL;
            lo = gemit(c, IR_SUBBORROWX, 64, 64, args, 3, lo_name, fresh(c, nm, "_b", nc), &br);
            if (small) {
                hi = zero;
            } else {
                ir_val args2[3] = { br, a.hi, b.hi };
                hi = gemit(c, IR_SUBBORROWX, 64, 64, args2, 3, hi_name, fresh(c, nm, "_b2", nx), NULL);
            }
        }
        break;
    case IR_MUL:
        if ((is_zero(c, a.lo) && is_zero(c, a.hi)) || (is_zero(c, b.lo) && is_zero(c, b.hi))) {
            lo = hi = zero;
        } else if (is_k(c, b.lo, 1) && is_zero(c, b.hi)) {
            lo = a.lo, hi = a.hi;
        } else if (is_k(c, a.lo, 1) && is_zero(c, a.hi)) {
            lo = b.lo, hi = b.hi;
        } else if (!is_zero(c, a.hi) || !is_zero(c, b.hi)) {
            char d[200];
            describe(c->f, i, d, sizeof d);
            lw_fail(c, "node %u (%s): u128 product whose operands can exceed 64 bits has no lowering", i, d);
            return;
        } else if (small && ghi(c, a.lo) * ghi(c, b.lo) <= MAX64) {
            /* both below 2^64 and the product too: a plain u64 mul */
            lo = g2(c, IR_MUL, 64, a.lo, b.lo, lo_name);
            hi = zero;
        } else {
            ir_val args[2] = { a.lo, b.lo }, h = IR_NOVAL;
            lo = gemit(c, IR_MULX, 64, 64, args, 2, lo_name, hi_name, &h);
            hi = small ? zero : h;
        }
        break;
    case IR_SHL: {
        unsigned k = (unsigned)c->f->val[n->arg[1]].k;
        if (k == 0) {
            lo = a.lo, hi = a.hi;
        } else if (k < 64) {
            lo = shl64(c, a.lo, k, nm, lo_name);
            if (small)
                hi = zero;
            else if (is_zero(c, a.hi))
                hi = shr64(c, a.lo, 64 - k, hi_name);
            else
                hi = g3(c, IR_SHRD, 64, a.hi, a.lo, k64(c, 64 - k), hi_name);
        } else {
            lo = zero;
            hi = shl64(c, a.lo, k - 64, nm, hi_name);
        }
        break;
    }
    case IR_SHR: {
        unsigned k = (unsigned)c->f->val[n->arg[1]].k;
        if (k < 64) {
            lo = shr_pair(c, a.lo, a.hi, k, lo_name);
            hi = small ? zero : shr64(c, a.hi, k, hi_name);
        } else {
            lo = shr64(c, a.hi, k - 64, lo_name);
            hi = zero;
        }
        break;
    }
    case IR_AND:
    case IR_OR:
    case IR_XOR:
        lo = bitop(c, (ir_op)n->op, a.lo, b.lo, lo_name);
        hi = small ? zero : bitop(c, (ir_op)n->op, a.hi, b.hi, hi_name);
        break;
    case IR_NOT:
        lo = g1(c, IR_NOT, 64, a.lo, lo_name);
        hi = small ? zero : is_zero(c, a.hi) ? k64(c, MAX64) : g1(c, IR_NOT, 64, a.hi, hi_name);
        break;
    case IR_LNOT:
        lo = g1(c, IR_LNOT, 64, nonzero_word(c, a, nm), lo_name);
        hi = zero;
        break;
    case IR_CMOVZNZ: {
        lw_pair cond = get_pair(c, n->arg[0], nm), z = get_pair(c, n->arg[1], nm), x = get_pair(c, n->arg[2], nm);
        if (c->failed)
            return;
        ir_val cw = nonzero_word(c, cond, nm);
        lo = z.lo == x.lo ? z.lo : g3(c, IR_CMOVZNZ, 64, cw, z.lo, x.lo, lo_name);
        hi = small ? zero : z.hi == x.hi ? z.hi : g3(c, IR_CMOVZNZ, 64, cw, z.hi, x.hi, hi_name);
        break;
    }
    default: {
        char d[200];
        describe(c->f, i, d, sizeof d);
        lw_fail(c, "node %u (%s): %s with a u128 result has no lowering", i, d, ir_op_name((ir_op)n->op));
        return;
    }
    }
    if (c->failed || lo == IR_NOVAL || hi == IR_NOVAL) {
        lw_fail(c, "node %u: lowering failed", i);
        return;
    }
    /* a high word whose bounds in g are [0, 0] is the constant 0 */
    if (is_zero(c, hi))
        hi = zero;
    set(c, n->res[0], lo, hi);
}

static void lower_node(lw_ctx *c, uint32_t i)
{
    const ir_node *n = &c->f->node[i];
    int wide_arg = 0;
    for (unsigned k = 0; k < n->nargs; k++)
        wide_arg |= c->f->val[n->arg[k]].width == 128;
    if (n->op == IR_LOAD) {
        ir_val v = ir_load(c->g, n->arr, n->limb, c->f->val[n->res[0]].name);
        if (v == IR_NOVAL)
            lw_fail(c, "%s", c->g->err);
        set(c, n->res[0], v, IR_NOVAL);
        return;
    }
    if (n->op == IR_STORE) {
        ir_val v = get_low(c, n->arg[0]);
        if (v != IR_NOVAL && ir_store(c->g, n->arr, n->limb, v) < 0)
            lw_fail(c, "%s", c->g->err);
        return;
    }
    if (n->nres && c->f->val[n->res[0]].width == 128) {
        lower_wide(c, i);
        return;
    }
    if (wide_arg) {
        lower_narrow(c, n);
        return;
    }
    /* no u128 anywhere: a copy */
    ir_val args[IR_MAX_ARGS], res[IR_MAX_RES];
    for (unsigned k = 0; k < n->nargs; k++)
        args[k] = get_low(c, n->arg[k]);
    const char *n0 = n->nres > 0 ? c->f->val[n->res[0]].name : NULL;
    const char *n1 = n->nres > 1 ? c->f->val[n->res[1]].name : NULL;
    res[0] = gemit(c, (ir_op)n->op, n->nres ? c->f->val[n->res[0]].width : 64, n->size, args, n->nargs, n0, n1,
                   &res[1]);
    for (unsigned k = 0; k < n->nres && !c->failed; k++)
        set(c, n->res[k], res[k], IR_NOVAL);
}

ir_func *ir_lower(const ir_func *f, char *err, size_t errlen)
{
    lw_ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.err = err;
    c.errlen = errlen;
    if (err && errlen)
        err[0] = 0;
    c.b = ir_func_clone(f);
    c.g = ir_func_new(f->name);
    c.map = calloc(f->nval ? f->nval : 1, sizeof *c.map);
    c.mapped = calloc(f->nval ? f->nval : 1, 1);
    if (!c.b || !c.g || !c.map || !c.mapped) {
        lw_fail(&c, "out of memory");
        goto done;
    }
    /* fresh bounds of the source (its own overflow report is not ours to give: the lowering keeps the wrapping
     * semantics, and the bounds stay sound for it) */
    (void)ir_bounds(c.b);
    memcpy(c.g->prime, f->prime, sizeof c.g->prime);
    c.g->repr = f->repr;
    c.g->nlimbw = f->nlimbw;
    memcpy(c.g->limbw, f->limbw, sizeof c.g->limbw);
    c.g->kind = f->kind;
    c.g->pre_lt_p = f->pre_lt_p;
    for (uint32_t j = 0; j < f->narr && !c.failed; j++) {
        const ir_array *a = &f->arr[j];
        if (ir_array_add(c.g, a->name, a->is_output, a->len, a->lo, a->hi) < 0) {
            lw_fail(&c, "%s", c.g->err);
            break;
        }
        c.g->arr[j].alias = a->alias;
        c.g->arr[j].width = a->width;
    }
    /* names copied from the source (values of 64 bits or less) are reserved before any fresh name is made */
    for (uint32_t v = 0; v < f->nval && !c.failed; v++)
        if (!f->val[v].is_const && f->val[v].width <= 64 && f->val[v].node != IR_NOVAL)
            name_add(&c, f->val[v].name);
    for (uint32_t i = 0; i < f->nnode && !c.failed; i++) {
        const ir_node *n = &f->node[i];
        int ok = 1;
        for (unsigned k = 0; k < n->nargs; k++)
            ok &= n->arg[k] < f->nval;
        for (unsigned k = 0; k < n->nres; k++)
            ok &= n->res[k] < f->nval;
        if (!ok) {
            lw_fail(&c, "node %u: an operand or result is not a value", i);
            break;
        }
        lower_node(&c, i);
    }
    if (!c.failed) {
        ir_dce(c.g);
        if (ir_validate(c.g) < 0)
            lw_fail(&c, "lowered function does not validate: %s", c.g->err);
    }
    for (uint32_t v = 0; v < c.g->nval && !c.failed; v++)
        if (c.g->val[v].width > 64 && c.g->val[v].node != IR_NOVAL)
            lw_fail(&c, "value %s is still u128 after lowering", c.g->val[v].name);
done:
    for (uint32_t i = 0; i < c.capnames; i++)
        free(c.names[i]);
    free(c.names);
    free(c.map);
    free(c.mapped);
    ir_func_free(c.b);
    if (c.failed) {
        ir_func_free(c.g);
        return NULL;
    }
    c.g->err[0] = 0;
    return c.g;
}
