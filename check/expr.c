/* expr.c — hash-consed, normalised expressions for the equivalence checker (see expr.h for the language and the
 * rules). Hash-consing as in Ershov 1958 / Goto 1974 ("value numbering"); the sum normal form is the usual
 * linear-combination form (sorted terms, merged coefficients) over Z/2^w. */
#include "check/expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ex_ctx {
    ex_node *n; /* n[0] unused */
    uint32_t nn, capn;
    ex_arg *pool;
    uint32_t np, capp;
    uint32_t *tab; /* open addressing, ids, 0 = empty */
    uint32_t tabcap;
    uint32_t nunknown;
    ex_arg *scr; /* scratch for sums */
    uint32_t nscr, capscr;
    ir_u128 *ev;
    uint32_t evcap;
    bool raw; /* ex_ctx_set_raw: no carry merging */
    char err[128];
};

#define U128_MAX (~(ir_u128)0)

static ir_u128 mask(unsigned w)
{
    return w >= 128 ? U128_MAX : (((ir_u128)1 << w) - 1);
}

static unsigned bitlen(ir_u128 v)
{
    unsigned n = 0;
    if (v >> 64) {
        n = 64;
        v >>= 64;
    }
    uint64_t u = (uint64_t)v;
    return u ? n + 64 - (unsigned)__builtin_clzll(u) : n;
}

static unsigned width_of(ir_u128 hi)
{
    unsigned b = bitlen(hi);
    return b ? b : 1;
}

static ex_id fail(ex_ctx *x, const char *msg)
{
    snprintf(x->err, sizeof x->err, "%s", msg);
    return 0;
}

ex_ctx *ex_ctx_new(void)
{
    ex_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->capn = 256;
    x->n = malloc(x->capn * sizeof *x->n);
    x->capp = 1024;
    x->pool = malloc(x->capp * sizeof *x->pool);
    x->tabcap = 1024;
    x->tab = calloc(x->tabcap, sizeof *x->tab);
    x->capscr = 64;
    x->scr = malloc(x->capscr * sizeof *x->scr);
    if (!x->n || !x->pool || !x->tab || !x->scr) {
        ex_ctx_free(x);
        return NULL;
    }
    memset(&x->n[0], 0, sizeof x->n[0]);
    x->nn = 1;
    return x;
}

void ex_ctx_free(ex_ctx *x)
{
    if (!x)
        return;
    free(x->n);
    free(x->pool);
    free(x->tab);
    free(x->scr);
    free(x->ev);
    free(x);
}

const ex_node *ex_get(const ex_ctx *x, ex_id id)
{
    return id && id < x->nn ? &x->n[id] : NULL;
}

const ex_arg *ex_args(const ex_ctx *x, ex_id id)
{
    return &x->pool[x->n[id].args];
}

uint32_t ex_count(const ex_ctx *x)
{
    return x->nn - 1;
}

const char *ex_err(const ex_ctx *x)
{
    return x->err;
}

const char *ex_kind_name(ex_kind k)
{
    static const char *const names[EX_NKINDS] = { "const", "input", "unknown", "sum", "mul", "shr",
                                                  "and",   "or",    "xor",     "eqz", "lt",  "select" };
    return k < EX_NKINDS ? names[k] : "?";
}

void ex_ctx_set_raw(ex_ctx *x, bool raw)
{
    x->raw = raw;
}

bool ex_has_unknown(const ex_ctx *x, ex_id e)
{
    return e && e < x->nn && x->n[e].unknown;
}

/* ---- hash-consing ------------------------------------------------------------------------------------------------ */

static uint32_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    return (uint32_t)(h ^ (h >> 32));
}

static uint32_t key_hash(unsigned kind, unsigned width, ir_u128 k, const ex_arg *a, uint32_t na)
{
    uint64_t h = (uint64_t)kind * 1000003u + width;
    h = h * 0x100000001b3u ^ (uint64_t)k;
    h = h * 0x100000001b3u ^ (uint64_t)(k >> 64);
    for (uint32_t i = 0; i < na; i++) {
        h = h * 0x100000001b3u ^ a[i].id;
        h = h * 0x100000001b3u ^ (uint64_t)a[i].c ^ (uint64_t)(a[i].c >> 64) * 31;
    }
    return mix(h, h >> 29);
}

static bool same_key(const ex_ctx *x, const ex_node *n, unsigned kind, unsigned width, ir_u128 k, const ex_arg *a,
                     uint32_t na)
{
    if (n->kind != kind || n->width != width || n->k != k || n->nargs != na)
        return false;
    const ex_arg *b = &x->pool[n->args];
    for (uint32_t i = 0; i < na; i++)
        if (a[i].id != b[i].id || a[i].c != b[i].c)
            return false;
    return true;
}

static int grow_tab(ex_ctx *x)
{
    uint32_t cap = x->tabcap * 2;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < x->tabcap; i++) {
        uint32_t id = x->tab[i];
        if (!id)
            continue;
        uint32_t j = x->n[id].hash & (cap - 1);
        while (t[j])
            j = (j + 1) & (cap - 1);
        t[j] = id;
    }
    free(x->tab);
    x->tab = t;
    x->tabcap = cap;
    return 0;
}

/* intern — the id of the node (kind, width, k, args); made with bounds [lo, hi] and `wraps` if new. A computed node
 * whose bounds are one value is that constant. a may point into x->scr but not into x->pool. */
static ex_id intern(ex_ctx *x, unsigned kind, unsigned width, bool wraps, ir_u128 k, const ex_arg *a, uint32_t na,
                    ir_u128 lo, ir_u128 hi);

ex_id ex_const(ex_ctx *x, ir_u128 k)
{
    return intern(x, EX_CONST, width_of(k), false, k, NULL, 0, k, k);
}

static ex_id intern(ex_ctx *x, unsigned kind, unsigned width, bool wraps, ir_u128 k, const ex_arg *a, uint32_t na,
                    ir_u128 lo, ir_u128 hi)
{
    if (kind > EX_UNKNOWN && lo == hi)
        return ex_const(x, lo);
    if (width < 1 || width > 128)
        return fail(x, "width out of range");
    uint32_t h = key_hash(kind, width, k, a, na);
    uint32_t j = h & (x->tabcap - 1);
    while (x->tab[j]) {
        const ex_node *n = &x->n[x->tab[j]];
        if (n->hash == h && same_key(x, n, kind, width, k, a, na))
            return x->tab[j];
        j = (j + 1) & (x->tabcap - 1);
    }
    if (x->nn == x->capn) {
        uint32_t cap = x->capn * 2;
        ex_node *nn = realloc(x->n, cap * sizeof *nn);
        if (!nn)
            return fail(x, "out of memory");
        x->n = nn;
        x->capn = cap;
    }
    if (x->np + na > x->capp) {
        uint32_t cap = x->capp * 2;
        while (cap < x->np + na)
            cap *= 2;
        ex_arg *p = realloc(x->pool, cap * sizeof *p);
        if (!p)
            return fail(x, "out of memory");
        x->pool = p;
        x->capp = cap;
    }
    ex_id id = x->nn++;
    ex_node *n = &x->n[id];
    memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    n->width = (uint8_t)width;
    n->wraps = wraps;
    n->k = k;
    n->lo = lo;
    n->hi = hi;
    n->hash = h;
    n->nargs = na;
    n->args = x->np;
    n->unknown = kind == EX_UNKNOWN;
    for (uint32_t i = 0; i < na; i++) {
        x->pool[x->np++] = a[i];
        if (x->n[a[i].id].unknown)
            n->unknown = true;
    }
    x->tab[j] = id;
    if (2 * (x->nn + 1) > x->tabcap && grow_tab(x) != 0) {
        x->nn--; /* keep the table consistent: forget the node */
        x->np -= na;
        x->tab[j] = 0;
        return fail(x, "out of memory");
    }
    return id;
}

static bool valid(const ex_ctx *x, ex_id a)
{
    return a && a < x->nn;
}

ex_id ex_input(ex_ctx *x, uint32_t arr, uint32_t limb, ir_u128 lo, ir_u128 hi)
{
    if (lo > hi)
        return fail(x, "input bounds: lo > hi");
    return intern(x, EX_INPUT, 64, false, (ir_u128)arr << 32 | limb, NULL, 0, lo, hi);
}

ex_id ex_unknown(ex_ctx *x, unsigned w)
{
    if (w < 1 || w > 128)
        return fail(x, "width out of range");
    return intern(x, EX_UNKNOWN, w, false, ++x->nunknown, NULL, 0, 0, mask(w));
}

/* ---- sums -------------------------------------------------------------------------------------------------------- */

static unsigned tzc(ir_u128 c)
{
    if (!c)
        return 128;
    uint64_t lo = (uint64_t)c;
    return lo ? (unsigned)__builtin_ctzll(lo) : 64 + (unsigned)__builtin_ctzll((uint64_t)(c >> 64));
}

static int scr_push(ex_ctx *x, ex_id id, ir_u128 c)
{
    if (x->nscr == x->capscr) {
        uint32_t cap = x->capscr * 2;
        ex_arg *s = realloc(x->scr, cap * sizeof *s);
        if (!s)
            return -1;
        x->scr = s;
        x->capscr = cap;
    }
    x->scr[x->nscr].id = id;
    x->scr[x->nscr].c = c;
    x->nscr++;
    return 0;
}

/* expand — add c * t into the scratch sum of width w (constant into *k), flattening child sums that may be merged:
 * those that cannot wrap, and those at least w bits wide ((v mod 2^u) mod 2^w = v mod 2^w for u >= w). */
static int expand(ex_ctx *x, unsigned w, ex_id t, ir_u128 c, ir_u128 *k)
{
    c &= mask(w);
    if (!c)
        return 0;
    const ex_node *n = &x->n[t];
    if (n->kind == EX_CONST) {
        *k += c * n->k;
        return 0;
    }
    /* c * (v mod 2^u) = c * v mod 2^w when 2^(w-u) divides c */
    if (n->kind == EX_SUM && (!n->wraps || n->width >= w || tzc(c) >= w - n->width)) {
        *k += c * n->k;
        uint32_t first = n->args, na = n->nargs;
        for (uint32_t i = 0; i < na; i++)
            if (expand(x, w, x->pool[first + i].id, c * x->pool[first + i].c, k) != 0)
                return -1;
        return 0;
    }
    return scr_push(x, t, c);
}

static int cmp_arg(const void *pa, const void *pb)
{
    const ex_arg *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* finish_sum — normalise the scratch sum of width w with constant k and make its node. */
static ex_id mk_shr(ex_ctx *x, ex_id a, unsigned k);

/* merge_carries — in the sum being built (x->scr, sorted and merged), two carries with the same coefficient,
 * X >> 64 and Y >> 64, where Y is an exact sum (X mod 2^64) + R (R >= 0: the other terms, positive, and the
 * constant), become one: (X >> 64) + (((X mod 2^64) + R) >> 64) = (X + R) >> 64 for integers X, R >= 0. This
 * is how one multi-word addition grouped two ways (a u128 sum vs add/adc pairs in another order) meets one form.
 * X + R is built as a 128-bit sum; when it can wrap, the merge is made only in a sum of at most 64 bits (m is the
 * sum's mask), where the lost 2^128 (2^64 after the shift) vanishes; likewise Y may be a 128-bit sum that wraps
 * (u128 accumulations), with small positive coefficients, in a sum of at most 64 bits.
 * Repeats while something merges. Returns the number of merges, -1 when memory runs out. */
/* small_sum — every coefficient and the constant of sum e at most 2^64 (so, read as integers, a non-negative sum) */
static bool small_sum(const ex_ctx *x, ex_id e)
{
    const ex_node *n = &x->n[e];
    if (n->k > ((ir_u128)1 << 64))
        return false;
    for (uint32_t i = 0; i < n->nargs; i++)
        if (x->pool[n->args + i].c > ((ir_u128)1 << 64))
            return false;
    return true;
}

static int merge_carries(ex_ctx *x, ir_u128 m)
{
    uint32_t n = x->nscr, nshr = 0;
    for (uint32_t i = 0; i < n; i++) {
        const ex_node *e = &x->n[x->scr[i].id];
        nshr += e->kind == EX_SHR && e->k == 64;
    }
    if (nshr < 2)
        return 0;
    ex_arg *t = malloc((size_t)n * sizeof *t);
    ex_id *tx = malloc((size_t)n * sizeof *tx);
    uint8_t *used = malloc(n);
    if (!t || !tx || !used) {
        free(t);
        free(tx);
        free(used);
        return -1;
    }
    memcpy(t, x->scr, (size_t)n * sizeof *t);
    int merged = 0, rc = 0;
    for (bool again = true; again && rc == 0;) {
        again = false;
        /* X mod 2^64 for every carry X >> 64 (computed once per pass), then disjoint pairs (i, j) where Y (under
         * j) holds X_i mod 2^64 with coefficient 1 */
        for (uint32_t i = 0; i < n; i++) {
            tx[i] = 0;
            used[i] = 0;
        }
        for (uint32_t j = 0; j < n && rc == 0; j++) {
            const ex_node *nj = &x->n[t[j].id];
            if (used[j] || nj->kind != EX_SHR || nj->k != 64)
                continue;
            ex_id Y = x->pool[nj->args].id;
            if (x->n[Y].kind != EX_SUM)
                continue;
            /* Y wrapping at 2^128 (a u128 accumulation whose interval bounds pass 2^128) moves (Y mod 2^128) >> 64
             * by a multiple of 2^64 from the exact Y >> 64: invisible in a sum of at most 64 bits, when Y's integer
             * value is its constant plus its terms with their (small, positive) coefficients */
            if (x->n[Y].wraps && !(x->n[Y].width == 128 && m <= (ir_u128)UINT64_MAX && small_sum(x, Y)))
                continue;
            for (uint32_t i = 0; i < n && rc == 0; i++) {
                const ex_node *ni = &x->n[t[i].id];
                if (i == j || used[i] || t[i].c != t[j].c || ni->kind != EX_SHR || ni->k != 64)
                    continue;
                /* X mod 2^64 among Y's terms with coefficient 1: a cheap shape test first (a one-term truncation of
                 * X, or a 64-bit sum starting with X's first term), then the real truncation, made once per i */
                ex_id X = x->pool[ni->args].id;
                const ex_node *nx = &x->n[X], *ny = &x->n[Y];
                ex_id first = nx->kind == EX_SUM && nx->nargs ? x->pool[nx->args].id : X;
                uint32_t hit = UINT32_MAX;
                for (uint32_t q = 0; q < ny->nargs && hit == UINT32_MAX; q++) {
                    const ex_arg *yq = &x->pool[ny->args + q];
                    const ex_node *tq = &x->n[yq->id];
                    if (yq->c != 1 || tq->kind != EX_SUM || !tq->wraps || tq->width != 64 || !tq->nargs ||
                        x->pool[tq->args].id != first)
                        continue;
                    if (!tx[i]) {
                        tx[i] = ex_trunc(x, 64, X);
                        if (!tx[i]) {
                            rc = -1;
                            break;
                        }
                        ny = &x->n[Y];
                    }
                    if (x->pool[ny->args + q].id == tx[i])
                        hit = q;
                }
                if (hit == UINT32_MAX)
                    continue;
                /* Z = X + R, exact in 128 bits */
                uint32_t zn = 0, yn = ny->nargs;
                ex_id *zt = malloc(((size_t)yn + 1) * sizeof *zt);
                ir_u128 *zc = malloc(((size_t)yn + 1) * sizeof *zc);
                if (!zt || !zc) {
                    free(zt);
                    free(zc);
                    rc = -1;
                    break;
                }
                zt[zn] = x->pool[x->n[t[i].id].args].id;
                zc[zn++] = 1;
                for (uint32_t q = 0; q < yn; q++)
                    if (q != hit) {
                        zt[zn] = x->pool[ny->args + q].id;
                        zc[zn++] = x->pool[ny->args + q].c;
                    }
                ir_u128 yk = ny->k;
                ex_id Z = ex_sum(x, 128, zt, zc, zn, yk);
                free(zt);
                free(zc);
                if (!Z) {
                    rc = -1;
                    break;
                }
                /* Z wrapping at 2^128 changes (X + R) >> 64 by 2^64 exactly, invisible in a sum of at most 64 bits.
                 * Whether X + R can reach 2^128 is read from the bounds of X and Y (R <= Y), not from Z's flag:
                 * Z's constant is folded mod 2^128, which can make a sum that passes 2^128 look exact. */
                bool zwrap = x->n[Z].wraps || x->n[X].hi > U128_MAX - x->n[Y].hi;
                if (zwrap && m > (ir_u128)UINT64_MAX)
                    continue;
                ex_id hz = mk_shr(x, Z, 64);
                if (!hz) {
                    rc = -1;
                    break;
                }
                t[i].id = hz;
                t[j].c = 0; /* dropped below */
                used[i] = used[j] = 1;
                tx[i] = 0;
                merged++;
                again = true;
                break;
            }
        }
        /* drop the merged-away terms */
        uint32_t q = 0;
        for (uint32_t i = 0; i < n; i++)
            if (t[i].c)
                t[q++] = t[i];
        n = q;
    }
    free(tx);
    free(used);
    if (rc != 0) {
        free(t);
        return -1;
    }
    /* back into the scratch list, sorted and merged again (a merged carry may equal a term already there) */
    x->nscr = 0;
    for (uint32_t i = 0; i < n; i++)
        if (scr_push(x, t[i].id, t[i].c) != 0) {
            free(t);
            return -1;
        }
    free(t);
    if (merged) {
        qsort(x->scr, x->nscr, sizeof *x->scr, cmp_arg);
        uint32_t q = 0;
        for (uint32_t i = 0; i < x->nscr; i++) {
            if (q && x->scr[q - 1].id == x->scr[i].id)
                x->scr[q - 1].c = (x->scr[q - 1].c + x->scr[i].c) & m;
            else
                x->scr[q++] = x->scr[i];
            if (x->scr[q - 1].c == 0)
                q--;
        }
        x->nscr = q;
    }
    return merged;
}

static ex_id finish_sum(ex_ctx *x, unsigned w, ir_u128 k)
{
    ir_u128 m = mask(w);
    k &= m;
    qsort(x->scr, x->nscr, sizeof *x->scr, cmp_arg);
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->nscr; i++) {
        if (n && x->scr[n - 1].id == x->scr[i].id) {
            x->scr[n - 1].c = (x->scr[n - 1].c + x->scr[i].c) & m;
        } else {
            x->scr[n++] = x->scr[i];
            x->scr[n - 1].c &= m;
        }
        if (x->scr[n - 1].c == 0)
            n--;
    }
    x->nscr = n;
    if (n >= 2 && !x->raw) {
        int mr = merge_carries(x, m);
        if (mr < 0)
            return fail(x, "out of memory");
        n = x->nscr;
    }
    if (n == 0)
        return ex_const(x, k);
    /* exact bounds when nothing can wrap: lo = k + sum c lo_i, hi = k + sum c hi_i, all below 2^w */
    bool wraps = false;
    ir_u128 lo = k, hi = k;
    for (uint32_t i = 0; i < n && !wraps; i++) {
        const ex_node *t = &x->n[x->scr[i].id];
        ir_u128 c = x->scr[i].c;
        if (t->hi && c > U128_MAX / t->hi) {
            wraps = true;
            break;
        }
        ir_u128 p = c * t->hi;
        if (hi > U128_MAX - p) {
            wraps = true;
            break;
        }
        hi += p;
        lo += c * t->lo;
    }
    if (!wraps && hi > m)
        wraps = true;
    if (!wraps) {
        if (n == 1 && x->scr[0].c == 1 && k == 0)
            return x->scr[0].id;
        return intern(x, EX_SUM, width_of(hi), false, k, x->scr, n, lo, hi);
    }
    return intern(x, EX_SUM, w, true, k, x->scr, n, 0, m);
}

ex_id ex_sum(ex_ctx *x, unsigned w, const ex_id *t, const ir_u128 *c, unsigned n, ir_u128 k)
{
    if (w < 1 || w > 128)
        return fail(x, "width out of range");
    for (unsigned i = 0; i < n; i++)
        if (!valid(x, t[i]))
            return fail(x, "bad operand");
    x->nscr = 0;
    for (unsigned i = 0; i < n; i++)
        if (expand(x, w, t[i], c ? c[i] : 1, &k) != 0)
            return fail(x, "out of memory");
    return finish_sum(x, w, k);
}

static ex_id sum1(ex_ctx *x, unsigned w, ex_id a, ir_u128 c, ir_u128 k)
{
    return ex_sum(x, w, &a, &c, 1, k);
}

/* ---- the other kinds --------------------------------------------------------------------------------------------- */

/* as_mask — whether e is a mask made from a bit t (a value of at most 1): the sum 0 - t mod 2^w (all ones exactly
 * when t = 1; *inv false) or t - 1 mod 2^w, that is ~(0 - t) (all ones exactly when t = 0; *inv true). *w gets the
 * sum's width, *t the bit. */
static bool as_mask(const ex_ctx *x, ex_id e, ex_id *t, bool *inv, unsigned *w)
{
    const ex_node *n = &x->n[e];
    if (n->kind != EX_SUM || n->nargs != 1)
        return false;
    const ex_arg *a = &x->pool[n->args];
    if (x->n[a->id].hi > 1)
        return false;
    ir_u128 all = mask(n->width);
    if (n->k == 0 && a->c == all)
        *inv = false;
    else if (n->k == all && a->c == 1)
        *inv = true;
    else
        return false;
    *t = a->id;
    *w = n->width;
    return true;
}

static ex_id mk2(ex_ctx *x, unsigned kind, unsigned width, bool wraps, ex_id a, ex_id b, ir_u128 k, ir_u128 lo,
                 ir_u128 hi)
{
    ex_arg args[2] = { { a, 0 }, { b, 0 } };
    return intern(x, kind, width, wraps, k, args, 2, lo, hi);
}

static ex_id mk_and(ex_ctx *x, ex_id a, ex_id b);
static ex_id mk_orxor(ex_ctx *x, unsigned kind, ex_id a, ex_id b);
static ex_id mk_select(ex_ctx *x, ex_id c, ex_id z, ex_id nz);

ex_id ex_trunc(ex_ctx *x, unsigned w, ex_id a)
{
    if (w < 1 || w > 128)
        return fail(x, "width out of range");
    if (!valid(x, a))
        return fail(x, "bad operand");
    ir_u128 m = mask(w);
    const ex_node *n = &x->n[a];
    if (n->hi <= m)
        return a;
    if (n->kind == EX_CONST)
        return ex_const(x, n->k & m);
    if (n->kind == EX_AND) {
        ex_arg p = x->pool[n->args], q = x->pool[n->args + 1];
        if (x->n[q.id].kind == EX_CONST)
            return mk_and(x, p.id, ex_const(x, x->n[q.id].k & m));
        if (x->n[p.id].kind == EX_CONST)
            return mk_and(x, q.id, ex_const(x, x->n[p.id].k & m));
    }
    /* x^2 mod 2^w <= 2^w - 4 for w >= 3: squares are 0, 1 or 4 mod 8 (clang adds a bit into the low word of a
     * square without a carry; a true bound, so every node that equals this one may carry it) */
    bool square = n->kind == EX_MUL && w >= 3 && x->pool[n->args].id == x->pool[n->args + 1].id;
    ex_id r = sum1(x, w, a, 1, 0); /* (may move x->n: n is not used below) */
    if (r && square && x->n[r].hi > m - 3)
        x->n[r].hi = m - 3;
    return r;
}

static ex_id mk_mul(ex_ctx *x, ex_id a, ex_id b)
{
    if (a > b) {
        ex_id t = a;
        a = b;
        b = t;
    }
    const ex_node *na = &x->n[a], *nb = &x->n[b];
    if (na->hi && nb->hi > U128_MAX / na->hi)
        return mk2(x, EX_MUL, 128, true, a, b, 0, 0, U128_MAX);
    ir_u128 hi = na->hi * nb->hi;
    return mk2(x, EX_MUL, width_of(hi), false, a, b, 0, na->lo * nb->lo, hi);
}

ex_id ex_mul(ex_ctx *x, unsigned w, ex_id a, ex_id b)
{
    if (!valid(x, a) || !valid(x, b))
        return fail(x, "bad operand");
    const ex_node *na = &x->n[a], *nb = &x->n[b];
    if (na->kind == EX_CONST && nb->kind == EX_CONST)
        return ex_const(x, (na->k * nb->k) & mask(w));
    if (na->kind == EX_CONST)
        return sum1(x, w, b, na->k, 0);
    if (nb->kind == EX_CONST)
        return sum1(x, w, a, nb->k, 0);
    ex_id p = mk_mul(x, a, b);
    return p ? ex_trunc(x, w, p) : 0;
}

ex_id ex_add(ex_ctx *x, unsigned w, ex_id a, ex_id b)
{
    ex_id t[2] = { a, b };
    return ex_sum(x, w, t, NULL, 2, 0);
}

ex_id ex_sub(ex_ctx *x, unsigned w, ex_id a, ex_id b)
{
    ex_id t[2] = { a, b };
    ir_u128 c[2] = { 1, U128_MAX };
    return ex_sum(x, w, t, c, 2, 0);
}

ex_id ex_not(ex_ctx *x, unsigned w, ex_id a)
{
    return sum1(x, w, a, U128_MAX, mask(w));
}

ex_id ex_shl(ex_ctx *x, unsigned w, ex_id a, unsigned k)
{
    if (!valid(x, a))
        return fail(x, "bad operand");
    if (k >= w || k >= 128)
        return ex_const(x, 0);
    return sum1(x, w, a, (ir_u128)1 << k, 0);
}

static ex_id mk_shr(ex_ctx *x, ex_id a, unsigned k)
{
    if (k == 0)
        return a;
    const ex_node *n = &x->n[a];
    if (k >= 128 || (n->hi >> k) == 0)
        return ex_const(x, 0);
    if (n->kind == EX_CONST)
        return ex_const(x, n->k >> k);
    {
        /* a mask from a bit, shifted right, is the same mask k bits narrower: (0 - t) >> k = (0 - t) mod 2^(w-k),
         * (t - 1) >> k = (t - 1) mod 2^(w-k) (both are all ones or zero) */
        ex_id t;
        bool inv;
        unsigned w;
        if (as_mask(x, a, &t, &inv, &w) && k < w)
            return inv ? sum1(x, w - k, t, 1, mask(w - k)) : sum1(x, w - k, t, mask(w - k), 0);
    }
    if (n->kind == EX_SUM && !n->wraps && n->nargs == 1 && x->n[x->pool[n->args].id].hi <= 1) {
        /* (c0 + c t) >> k with t a bit is linear in t: (c0 >> k) + t ((c0 + c) >> k - c0 >> k) (the carry out of
         * `add $-1, r` on a saved carry r is r) */
        ex_id t = x->pool[n->args].id;
        ir_u128 c = x->pool[n->args].c, v0 = n->k >> k, v1 = (n->k + c) >> k;
        return sum1(x, 128, t, v1 - v0, v0);
    }
    if (n->kind == EX_SUM && !n->wraps) {
        /* an exact sum whose coefficients and constant are all multiples of 2^j: (2^j s) >> k = s >> (k - j) */
        unsigned j = tzc(n->k);
        const ex_arg *ar = &x->pool[n->args];
        for (uint32_t i = 0; i < n->nargs; i++)
            if (tzc(ar[i].c) < j)
                j = tzc(ar[i].c);
        if (j > k)
            j = k;
        if (j > 0) {
            uint32_t na = n->nargs, first = n->args, width = n->width;
            ir_u128 kk = n->k >> j;
            x->nscr = 0;
            for (uint32_t i = 0; i < na; i++)
                if (scr_push(x, x->pool[first + i].id, x->pool[first + i].c >> j) != 0)
                    return fail(x, "out of memory");
            ex_id q = finish_sum(x, width, kk);
            return q ? mk_shr(x, q, k - j) : 0;
        }
    }
    if (n->kind == EX_SHR) {
        ir_u128 j = n->k;
        return mk_shr(x, x->pool[n->args].id, (unsigned)j + k);
    }
    ex_arg arg = { a, 0 };
    return intern(x, EX_SHR, width_of(n->hi >> k), false, k, &arg, 1, n->lo >> k, n->hi >> k);
}

ex_id ex_shr(ex_ctx *x, unsigned w, ex_id a, unsigned k)
{
    if (!valid(x, a))
        return fail(x, "bad operand");
    ex_id r = mk_shr(x, a, k);
    return r ? ex_trunc(x, w, r) : 0;
}


/* bitop — AND / OR / XOR of two operands by kind */
static ex_id bitop(ex_ctx *x, unsigned kind, ex_id a, ex_id b)
{
    return kind == EX_AND ? mk_and(x, a, b) : mk_orxor(x, kind, a, b);
}

/* select_distribute — op(select(c, p, q), r) = select(c, op(p, r), op(q, r)), and with both operands selects on
 * the same condition, select(c, op(p, r), op(q, s)). 0 when neither operand is a select (or out of memory). */
static ex_id select_distribute(ex_ctx *x, unsigned kind, ex_id a, ex_id b)
{
    if (x->n[a].kind != EX_SELECT) {
        ex_id t = a;
        a = b;
        b = t;
    }
    if (x->n[a].kind != EX_SELECT)
        return 0;
    const ex_arg *sa = &x->pool[x->n[a].args];
    ex_id c = sa[0].id, p = sa[1].id, q = sa[2].id, r = b, s = b;
    if (x->n[b].kind == EX_SELECT && x->pool[x->n[b].args].id == c) {
        const ex_arg *sb = &x->pool[x->n[b].args];
        r = sb[1].id;
        s = sb[2].id;
    }
    ex_id u = bitop(x, kind, p, r);
    ex_id v = u ? bitop(x, kind, q, s) : 0;
    return v ? mk_select(x, c, u, v) : 0;
}

static ex_id mk_and(ex_ctx *x, ex_id a, ex_id b)
{
    if (!a || !b)
        return 0;
    if (a == b)
        return a;
    if (x->n[a].kind == EX_CONST && x->n[b].kind == EX_CONST)
        return ex_const(x, x->n[a].k & x->n[b].k);
    if (x->n[a].kind == EX_CONST) {
        ex_id t = a;
        a = b;
        b = t;
    }
    if (x->n[b].kind == EX_CONST) {
        ir_u128 c = x->n[b].k;
        if (c == 0)
            return b;
        unsigned m = bitlen(c);
        if ((c & (c + 1)) == 0) /* x & (2^m - 1) = x mod 2^m */
            return ex_trunc(x, m, a);
        if (x->n[a].kind == EX_SUM && x->n[a].hi > mask(m)) {
            a = ex_trunc(x, m, a);
            if (!a)
                return 0;
            if (x->n[a].kind == EX_CONST)
                return ex_const(x, x->n[a].k & c);
        }
        ir_u128 all = mask(bitlen(x->n[a].hi));
        if ((c & all) == all)
            return a;
    }
    /* a mask from a bit selects: (0 - t) & y = t ? y : 0, (t - 1) & y = t ? 0 : y (y taken mod 2^w) */
    for (unsigned side = 0; side < 2; side++) {
        ex_id m = side ? b : a, y = side ? a : b, t;
        bool inv;
        unsigned w;
        if (as_mask(x, m, &t, &inv, &w)) {
            ex_id yy = ex_trunc(x, w, y), zero = ex_const(x, 0);
            if (!yy || !zero)
                return 0;
            return inv ? mk_select(x, t, yy, zero) : mk_select(x, t, zero, yy);
        }
    }
    if (x->n[a].kind == EX_SELECT || x->n[b].kind == EX_SELECT)
        return select_distribute(x, EX_AND, a, b);
    if (a > b) {
        ex_id t = a;
        a = b;
        b = t;
    }
    ir_u128 hi = x->n[a].hi < x->n[b].hi ? x->n[a].hi : x->n[b].hi;
    return mk2(x, EX_AND, width_of(hi), false, a, b, 0, 0, hi);
}

ex_id ex_and(ex_ctx *x, unsigned w, ex_id a, ex_id b)
{
    if (!valid(x, a) || !valid(x, b))
        return fail(x, "bad operand");
    ex_id r = mk_and(x, a, b);
    return r ? ex_trunc(x, w, r) : 0;
}

static ex_id mk_orxor(ex_ctx *x, unsigned kind, ex_id a, ex_id b)
{
    const ex_node *na = &x->n[a], *nb = &x->n[b];
    if (na->kind == EX_CONST && nb->kind == EX_CONST)
        return ex_const(x, kind == EX_OR ? na->k | nb->k : na->k ^ nb->k);
    if (a == b)
        return kind == EX_OR ? a : ex_const(x, 0);
    if (na->kind == EX_CONST && na->k == 0)
        return b;
    if (nb->kind == EX_CONST && nb->k == 0)
        return a;
    if (kind == EX_XOR) { /* (u ^ v) ^ u = v */
        for (unsigned side = 0; side < 2; side++) {
            ex_id p = side ? b : a, q = side ? a : b;
            if (x->n[p].kind == EX_XOR) {
                const ex_arg *pa = &x->pool[x->n[p].args];
                if (pa[0].id == q)
                    return pa[1].id;
                if (pa[1].id == q)
                    return pa[0].id;
            }
        }
    }
    if (na->kind == EX_SELECT || nb->kind == EX_SELECT)
        return select_distribute(x, kind, a, b);
    ir_u128 hi = mask(bitlen(na->hi > nb->hi ? na->hi : nb->hi));
    ir_u128 lo = kind == EX_OR ? (na->lo > nb->lo ? na->lo : nb->lo) : 0;
    if (a > b) {
        ex_id t = a;
        a = b;
        b = t;
    }
    return mk2(x, kind, width_of(hi), false, a, b, 0, lo, hi);
}

ex_id ex_or(ex_ctx *x, unsigned w, ex_id a, ex_id b)
{
    if (!valid(x, a) || !valid(x, b))
        return fail(x, "bad operand");
    ex_id r = mk_orxor(x, EX_OR, a, b);
    return r ? ex_trunc(x, w, r) : 0;
}

ex_id ex_xor(ex_ctx *x, unsigned w, ex_id a, ex_id b)
{
    if (!valid(x, a) || !valid(x, b))
        return fail(x, "bad operand");
    ex_id r = mk_orxor(x, EX_XOR, a, b);
    return r ? ex_trunc(x, w, r) : 0;
}

ex_id ex_lnot(ex_ctx *x, ex_id a)
{
    if (!valid(x, a))
        return fail(x, "bad operand");
    const ex_node *n = &x->n[a];
    if (n->kind == EX_CONST)
        return ex_const(x, n->k == 0);
    if (n->lo > 0)
        return ex_const(x, 0);
    ex_arg arg = { a, 0 };
    return intern(x, EX_EQZ, 1, false, 0, &arg, 1, 0, 1);
}

ex_id ex_lt(ex_ctx *x, ex_id a, ex_id b)
{
    if (!valid(x, a) || !valid(x, b))
        return fail(x, "bad operand");
    const ex_node *na = &x->n[a], *nb = &x->n[b];
    if (na->hi < nb->lo)
        return ex_const(x, 1);
    if (na->lo >= nb->hi || a == b)
        return ex_const(x, 0);
    if (na->kind == EX_CONST && na->k == 0 && nb->hi <= 1) /* 0 < t for a bit t is t (`neg` of a saved carry) */
        return b;
    if (nb->kind == EX_CONST && nb->k == 1 && na->hi <= 1) /* t < 1 for a bit t is t == 0 */
        return ex_lnot(x, a);
    return mk2(x, EX_LT, 1, false, a, b, 0, 0, 1);
}

static ex_id mk_select(ex_ctx *x, ex_id c, ex_id z, ex_id nz)
{
    for (;;) {
        const ex_node *nc = &x->n[c];
        if (z == nz || nc->hi == 0)
            return z;
        if (nc->lo > 0)
            return nz;
        if (nc->kind == EX_LT && x->n[x->pool[nc->args].id].kind == EX_CONST &&
            x->n[x->pool[nc->args].id].k == 0) { /* (0 < y) is nonzero exactly when y is */
            c = x->pool[nc->args + 1].id;
            continue;
        }
        if (nc->kind == EX_SUM && nc->nargs == 1 && nc->k == 1 && x->pool[nc->args].c == mask(nc->width) &&
            x->n[x->pool[nc->args].id].kind == EX_EQZ) { /* 1 - (y == 0) is nonzero exactly when y is */
            c = x->pool[x->n[x->pool[nc->args].id].args].id;
            continue;
        }
        if (nc->kind != EX_EQZ)
            break;
        /* (y == 0) == 0 ? z : nz  =  y == 0 ? nz : z */
        ex_id t = z;
        z = nz;
        nz = t;
        c = x->pool[nc->args].id;
    }
    const ex_node *a = &x->n[z], *b = &x->n[nz];
    ir_u128 lo = a->lo < b->lo ? a->lo : b->lo, hi = a->hi > b->hi ? a->hi : b->hi;
    ex_arg args[3] = { { c, 0 }, { z, 0 }, { nz, 0 } };
    return intern(x, EX_SELECT, width_of(hi), false, 0, args, 3, lo, hi);
}

ex_id ex_select(ex_ctx *x, unsigned w, ex_id c, ex_id z, ex_id nz)
{
    if (!valid(x, c) || !valid(x, z) || !valid(x, nz))
        return fail(x, "bad operand");
    ex_id r = mk_select(x, c, z, nz);
    return r ? ex_trunc(x, w, r) : 0;
}

int ex_mulx(ex_ctx *x, unsigned s, ex_id a, ex_id b, ex_id *lo, ex_id *hi)
{
    if (s < 1 || s > 64) {
        fail(x, "mulx size out of range");
        return -1;
    }
    ex_id p = ex_mul(x, 128, a, b);
    *lo = p ? ex_trunc(x, s, p) : 0;
    *hi = p ? ex_shr(x, 64, p, s) : 0;
    return *lo && *hi ? 0 : -1;
}

/* hi_of — a Z whose high word (Z >> 64) e is, else 0: e = Y >> j is the high word of Z = 2^(64-j) Y (j <= 64) or
 * of Z = Y >> (j - 64) (j > 64), as integers (Y is a value, whether or not it was reduced). */
static ex_id hi_of(ex_ctx *x, ex_id e)
{
    const ex_node *n = &x->n[e];
    if (n->kind != EX_SHR)
        return 0;
    ex_id y = x->pool[n->args].id;
    if (n->k == 64)
        return y;
    if (n->k > 64) /* Y >> j = (Y >> (j - 64)) >> 64 */
        return mk_shr(x, y, (unsigned)n->k - 64);
    ex_id z = sum1(x, 128, y, (ir_u128)1 << (64 - (unsigned)n->k), 0);
    return z && !x->n[z].wraps ? z : 0;
}

/* carry_chain — the high step of a two-word addition: with a = Za >> 64, b = Zb >> 64 (or 0) and
 * cin = E >> 64 where E = (Za mod 2^64) + (Zb mod 2^64) + R exactly (R >= 0), a + b + cin = (Za + Zb + R) >> 64, as
 * integers. Returns that exact high word, or 0 when the operands do not have this shape. */
static ex_id carry_chain(ex_ctx *x, ex_id cin, ex_id a, ex_id b)
{
    ex_id e = hi_of(x, cin);
    if (!e || x->n[e].kind != EX_SUM)
        return 0;
    ex_id z[2] = { 0, 0 }, op[2] = { a, b };
    unsigned nz = 0;
    for (unsigned i = 0; i < 2; i++) {
        const ex_node *n = &x->n[op[i]];
        if (n->kind == EX_CONST && n->k == 0)
            continue;
        if (!(z[nz] = hi_of(x, op[i])))
            return 0;
        nz++;
    }
    if (!nz)
        return 0;
    /* R = E - sum (Z mod 2^64): must be an exact sum (no negative coefficient left) */
    ex_id t[3] = { e, 0, 0 };
    ir_u128 c[3] = { 1, U128_MAX, U128_MAX };
    for (unsigned i = 0; i < nz; i++)
        if (!(t[1 + i] = ex_trunc(x, 64, z[i])))
            return 0;
    ex_id r = ex_sum(x, 128, t, c, 1 + nz, 0);
    if (!r || x->n[r].wraps)
        return 0;
    ex_id u[3] = { z[0], z[1], r };
    if (nz == 1)
        u[1] = r;
    ex_id full = ex_sum(x, 128, u, NULL, nz + 1, 0);
    if (!full || x->n[full].wraps)
        return 0;
    return mk_shr(x, full, 64);
}

int ex_addcarry(ex_ctx *x, unsigned s, ex_id cin, ex_id a, ex_id b, ex_id *sum, ex_id *carry)
{
    if (s < 1 || s > 64) {
        fail(x, "addcarry size out of range");
        return -1;
    }
    ex_id t[3] = { cin, a, b };
    ex_id full = 0;
    if (s == 64 && !x->raw && valid(x, cin) && valid(x, a) && valid(x, b))
        full = carry_chain(x, cin, a, b);
    if (!full)
        full = ex_sum(x, 128, t, NULL, 3, 0);
    *sum = full ? ex_trunc(x, s, full) : 0;
    *carry = full ? ex_shr(x, 1, full, s) : 0;
    return *sum && *carry ? 0 : -1;
}

int ex_subborrow(ex_ctx *x, unsigned s, ex_id bin, ex_id a, ex_id b, ex_id *diff, ex_id *borrow)
{
    if (s < 1 || s > 64) {
        fail(x, "subborrow size out of range");
        return -1;
    }
    ex_id t[3] = { a, b, bin };
    ir_u128 c[3] = { 1, U128_MAX, U128_MAX };
    *diff = ex_sum(x, s, t, c, 3, 0);
    ex_id sub = ex_sum(x, 128, t + 1, NULL, 2, 0);
    *borrow = sub ? ex_lt(x, a, sub) : 0;
    return *diff && *borrow ? 0 : -1;
}

ex_id ex_shrd(ex_ctx *x, ex_id hi, ex_id lo, unsigned k)
{
    if (valid(x, hi) && valid(x, lo)) {
        /* hi = Z >> 64 and lo = Z mod 2^64: the pair is Z */
        ex_id z = hi_of(x, hi);
        if (z && ex_trunc(x, 64, z) == lo)
            return ex_shr(x, 64, z, k);
    }
    ex_id t[2] = { hi, lo };
    ir_u128 c[2] = { (ir_u128)1 << 64, 1 };
    ex_id s = ex_sum(x, 128, t, c, 2, 0);
    return s ? ex_shr(x, 64, s, k) : 0;
}

/* ---- evaluation -------------------------------------------------------------------------------------------------- */

static void eval_upto(const ex_ctx *x, uint32_t upto, const uint64_t *const *in, ir_u128 *v)
{
    v[0] = 0;
    for (uint32_t id = 1; id <= upto; id++) {
        const ex_node *n = &x->n[id];
        const ex_arg *a = &x->pool[n->args];
        ir_u128 r = 0;
        switch ((ex_kind)n->kind) {
        case EX_CONST: r = n->k; break;
        case EX_INPUT: r = in[(uint32_t)(n->k >> 32)][(uint32_t)n->k]; break;
        case EX_UNKNOWN: r = 0; break;
        case EX_SUM:
            r = n->k;
            for (uint32_t i = 0; i < n->nargs; i++)
                r += a[i].c * v[a[i].id];
            break;
        case EX_MUL: r = v[a[0].id] * v[a[1].id]; break;
        case EX_SHR: r = n->k >= 128 ? 0 : v[a[0].id] >> (unsigned)n->k; break;
        case EX_AND: r = v[a[0].id] & v[a[1].id]; break;
        case EX_OR: r = v[a[0].id] | v[a[1].id]; break;
        case EX_XOR: r = v[a[0].id] ^ v[a[1].id]; break;
        case EX_EQZ: r = v[a[0].id] == 0; break;
        case EX_LT: r = v[a[0].id] < v[a[1].id]; break;
        case EX_SELECT: r = v[a[0].id] == 0 ? v[a[1].id] : v[a[2].id]; break;
        default: break;
        }
        v[id] = r & mask(n->width);
    }
}

int ex_eval_all(const ex_ctx *x, const uint64_t *const *in, ir_u128 *vals)
{
    eval_upto(x, x->nn - 1, in, vals);
    return 0;
}

int ex_eval(ex_ctx *x, ex_id e, const uint64_t *const *in, ir_u128 *out)
{
    if (!valid(x, e))
        return -1;
    if (x->evcap < x->nn) {
        ir_u128 *b = realloc(x->ev, x->nn * sizeof *b);
        if (!b)
            return -1;
        x->ev = b;
        x->evcap = x->nn;
    }
    eval_upto(x, e, in, x->ev);
    *out = x->ev[e];
    return 0;
}

/* ---- printing ---------------------------------------------------------------------------------------------------- */

static void put(char *buf, size_t len, size_t *pos, const char *s)
{
    size_t n = strlen(s);
    if (*pos + n + 4 >= len) {
        if (*pos + 4 < len)
            memcpy(buf + *pos, "...", 4), *pos += 3;
        *pos = len; /* full */
        return;
    }
    memcpy(buf + *pos, s, n + 1);
    *pos += n;
}

static void print_rec(const ex_ctx *x, ex_id e, char *buf, size_t len, size_t *pos, int depth)
{
    if (*pos >= len)
        return;
    const ex_node *n = &x->n[e];
    char tmp[80], hex[40];
    switch ((ex_kind)n->kind) {
    case EX_CONST: put(buf, len, pos, ir_u128_hex(n->k, hex)); return;
    case EX_INPUT:
        snprintf(tmp, sizeof tmp, "x%u_%u", (unsigned)(n->k >> 32), (unsigned)n->k);
        put(buf, len, pos, tmp);
        return;
    case EX_UNKNOWN:
        snprintf(tmp, sizeof tmp, "?%u", (unsigned)n->k);
        put(buf, len, pos, tmp);
        return;
    default: break;
    }
    if (depth > 12) {
        snprintf(tmp, sizeof tmp, "#%u", e);
        put(buf, len, pos, tmp);
        return;
    }
    static const char *const sym[EX_NKINDS] = { "", "", "", "+", "*", ">>", "&", "|", "^", "==0", "<", "?" };
    snprintf(tmp, sizeof tmp, "(%s%u%s", sym[n->kind], n->width, n->wraps ? "w" : "");
    put(buf, len, pos, tmp);
    const ex_arg *a = &x->pool[n->args];
    for (uint32_t i = 0; i < n->nargs; i++) {
        put(buf, len, pos, " ");
        if (n->kind == EX_SUM && a[i].c != 1) {
            put(buf, len, pos, ir_u128_hex(a[i].c, hex));
            put(buf, len, pos, "*");
        }
        print_rec(x, a[i].id, buf, len, pos, depth + 1);
    }
    if ((n->kind == EX_SUM && n->k) || n->kind == EX_SHR) {
        put(buf, len, pos, " ");
        put(buf, len, pos, ir_u128_hex(n->k, hex));
    }
    put(buf, len, pos, ")");
}

void ex_print(const ex_ctx *x, ex_id e, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = 0;
    if (!valid(x, e)) {
        snprintf(buf, len, "(none)");
        return;
    }
    size_t pos = 0;
    print_rec(x, e, buf, len, &pos, 0);
    buf[len - 1] = 0;
}
