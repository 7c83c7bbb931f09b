/* lf.c — exact integer linear forms with floor atoms (lf.h). */
#include "check/lf.h"

#include <gmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LA_INPUT, LA_MULLO, LA_MULHI, LA_FLOOR, LA_AND, LA_OR, LA_XOR, LA_EQZ, LA_SELECT, LA_SIGN, LA_QDIG, LA_EXQ };
/* LA_QDIG: (k * X) mod 2^64 for the operand sum X and the odd constant k (a Montgomery quotient digit, lf.h);
 * LA_EXQ: S / 2^k for an operand sum S that is 0 mod 2^k by the formal congruence (lf.h's exact division) */

typedef struct {
    uint8_t kind;
    uint8_t na;
    uint32_t a[3]; /* operand sums */
    uint64_t k;    /* INPUT: arr << 32 | limb; FLOOR: the shift */
    mpz_t lo, hi;
    uint32_t hash;
    uint64_t sh; /* structural hash: from kinds, coefficients and operands' structural hashes, never from ids, so
                    the same value built in another order gets the same one (used for choices, not for identity) */
} lf_atom;

typedef struct {
    uint32_t first, n; /* terms in the pool */
    mpz_t k;           /* constant term */
    mpz_t lo, hi;      /* value bounds (inclusive) */
    uint32_t hash;
    uint64_t sh;       /* structural hash (see lf_atom) */
} lf_sum;

struct lf_ctx {
    const ex_ctx *x;
    lf_atom *at; /* at[0] unused */
    uint32_t nat, capat;
    lf_sum *su; /* su[0] unused */
    uint32_t nsu, capsu;
    uint32_t *tatom; /* term pool */
    mpz_t *tcoef;
    uint32_t nt, capt;
    uint32_t *htat, *htsu; /* open addressing tables of ids, 0 = empty */
    uint32_t capht_at, capht_su;
    lf_id *memo; /* ex id -> sum id (0 = not yet / none) */
    bool *done;
    lf_id *alias; /* ex id -> the form lf_alias gave it (0 = none); capmemo entries like memo */
    uint64_t range_work; /* the elimination steps of every system the range rule has built (lf_range_work) */
    uint32_t capmemo;
    bool oom;
};

/* ---- builders ---------------------------------------------------------------------------------------------------- */
typedef struct {
    uint32_t *a;
    mpz_t *c;
    uint32_t n, cap;
    mpz_t k;
    bool oom;
} bld;

static void b_init(bld *b)
{
    memset(b, 0, sizeof *b);
    mpz_init(b->k);
}

static void b_clear(bld *b)
{
    for (uint32_t i = 0; i < b->cap; i++)
        mpz_clear(b->c[i]);
    free(b->a);
    free(b->c);
    mpz_clear(b->k);
}

/* b_term — adds c * atom (c as mpz) */
static void b_term(bld *b, uint32_t atom, const mpz_t c)
{
    if (b->oom || mpz_sgn(c) == 0)
        return;
    if (b->n == b->cap) {
        uint32_t nc = b->cap ? 2 * b->cap : 16;
        uint32_t *na = realloc(b->a, nc * sizeof *na);
        if (!na) {
            b->oom = true;
            return;
        }
        b->a = na;
        mpz_t *ncf = realloc(b->c, nc * sizeof *ncf);
        if (!ncf) {
            b->oom = true;
            return;
        }
        b->c = ncf;
        for (uint32_t i = b->cap; i < nc; i++)
            mpz_init(b->c[i]);
        b->cap = nc;
    }
    b->a[b->n] = atom;
    mpz_set(b->c[b->n], c);
    b->n++;
}

/* b_sum — adds mult * (sum s) */
static void b_sum(lf_ctx *l, bld *b, lf_id s, const mpz_t mult)
{
    if (mpz_sgn(mult) == 0)
        return;
    mpz_t t;
    mpz_init(t);
    uint32_t first = l->su[s].first, n = l->su[s].n;
    for (uint32_t i = 0; i < n; i++) {
        mpz_mul(t, l->tcoef[first + i], mult);
        b_term(b, l->tatom[first + i], t);
    }
    mpz_addmul(b->k, l->su[s].k, mult);
    mpz_clear(t);
}

static void b_sum1(lf_ctx *l, bld *b, lf_id s, long mult)
{
    mpz_t m;
    mpz_init_set_si(m, mult);
    b_sum(l, b, s, m);
    mpz_clear(m);
}

static uint32_t mix(uint32_t h, uint64_t v)
{
    uint64_t z = (h ^ v) * 0x9e3779b97f4a7c15ull;
    z ^= z >> 29;
    z *= 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(z ^ (z >> 32));
}

static uint64_t mix64(uint64_t h, uint64_t v)
{
    uint64_t z = (h ^ v) * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    z ^= z >> 31;
    z *= 0xbf58476d1ce4e5b9ull;
    return z ^ (z >> 29);
}

static uint64_t mpz_sh(const mpz_t v)
{
    uint64_t h = mix64((uint64_t)(mpz_sgn(v) + 1), mpz_size(v));
    for (size_t i = 0; i < mpz_size(v); i++)
        h = mix64(h, mpz_getlimbn(v, (mp_size_t)i));
    return h;
}

static uint32_t mpz_hash(uint32_t h, const mpz_t v)
{
    h = mix(h, (uint64_t)(mpz_sgn(v) + 1));
    h = mix(h, mpz_getlimbn(v, 0));
    return mix(h, mpz_size(v));
}

static int grow_table(uint32_t **tab, uint32_t *cap, uint32_t count, const void *items, size_t isz, size_t hoff)
{
    if ((uint64_t)(count + 1) * 2 < *cap)
        return 0;
    uint32_t nc = *cap ? *cap * 2 : 1024;
    uint32_t *nt = calloc(nc, sizeof *nt);
    if (!nt)
        return -1;
    for (uint32_t id = 1; id <= count; id++) {
        uint32_t h;
        memcpy(&h, (const char *)items + id * isz + hoff, sizeof h);
        uint32_t i = h & (nc - 1);
        while (nt[i])
            i = (i + 1) & (nc - 1);
        nt[i] = id;
    }
    free(*tab);
    *tab = nt;
    *cap = nc;
    return 0;
}

/* sum_bounds — interval of k + sum c_i a_i from the atoms' bounds. A pair of floors of one sum X,
 * c floor(X / 2^j) - c 2^(k-j) floor(X / 2^k) with j < k, is c floor((X mod 2^k) / 2^j), in c [0, 2^(k-j) - 1]
 * (X = 2^k q + r: floor(X / 2^j) = 2^(k-j) q + floor(r / 2^j)): the bits j..k-1 of X, which interval arithmetic
 * on the two floors alone would widen to the range of X. */
static void sum_bounds(const lf_ctx *l, const uint32_t *a, mpz_t *c, uint32_t n, const mpz_t k, mpz_t lo, mpz_t hi)
{
    mpz_set(lo, k);
    mpz_set(hi, k);
    uint32_t fl[16], nfl = 0;
    uint64_t paired = 0; /* bit q: fl[q] is in a pair */
    for (uint32_t i = 0; i < n && nfl < 16; i++)
        if (l->at[a[i]].kind == LA_FLOOR)
            fl[nfl++] = i;
    if (nfl >= 2) {
        mpz_t m, plo, phi;
        mpz_init(m);
        mpz_init(plo);
        mpz_init(phi);
        for (uint32_t p = 0; p < nfl; p++)
            for (uint32_t q = 0; q < nfl; q++) {
                uint32_t i = fl[p], j = fl[q];
                const lf_atom *ti = &l->at[a[i]], *tj = &l->at[a[j]];
                if (p == q || ((paired >> p) & 1) || ((paired >> q) & 1) || ti->a[0] != tj->a[0] || ti->k >= tj->k)
                    continue;
                mpz_mul_2exp(m, c[i], (mp_bitcnt_t)(tj->k - ti->k));
                mpz_neg(m, m);
                if (mpz_cmp(m, c[j]) != 0)
                    continue;
                /* c_i [0, 2^(kj-ki) - 1] */
                mpz_set_ui(m, 1);
                mpz_mul_2exp(m, m, (mp_bitcnt_t)(tj->k - ti->k));
                mpz_sub_ui(m, m, 1);
                mpz_mul(m, m, c[i]);
                if (mpz_sgn(c[i]) > 0) {
                    mpz_set_ui(plo, 0);
                    mpz_set(phi, m);
                } else {
                    mpz_set(plo, m);
                    mpz_set_ui(phi, 0);
                }
                mpz_add(lo, lo, plo);
                mpz_add(hi, hi, phi);
                paired |= (uint64_t)1 << p | (uint64_t)1 << q;
            }
        mpz_clear(m);
        mpz_clear(plo);
        mpz_clear(phi);
    }
    for (uint32_t i = 0; i < n; i++) {
        bool skip = false;
        for (uint32_t p = 0; p < nfl && !skip; p++)
            skip = fl[p] == i && ((paired >> p) & 1);
        if (skip)
            continue;
        const lf_atom *t = &l->at[a[i]];
        if (mpz_sgn(c[i]) > 0) {
            mpz_addmul(lo, c[i], t->lo);
            mpz_addmul(hi, c[i], t->hi);
        } else {
            mpz_addmul(lo, c[i], t->hi);
            mpz_addmul(hi, c[i], t->lo);
        }
    }
}

static int cmp_u32_by(const void *pa, const void *pb, void *ctx)
{
    const uint32_t *atoms = ctx;
    uint32_t a = atoms[*(const uint32_t *)pa], b = atoms[*(const uint32_t *)pb];
    return (a > b) - (a < b);
}

/* b_finish — the canonical sum of b (terms sorted by atom, merged, zeros dropped), interned. b is consumed. */
static lf_id b_finish(lf_ctx *l, bld *b)
{
    lf_id res = 0;
    if (b->oom || l->oom)
        goto out;
    /* sort indices by atom (insertion sort: sums are short) */
    uint32_t *ix = malloc((b->n ? b->n : 1) * sizeof *ix);
    if (!ix)
        goto out;
    for (uint32_t i = 0; i < b->n; i++)
        ix[i] = i;
    for (uint32_t i = 1; i < b->n; i++) {
        uint32_t v = ix[i], j = i;
        while (j > 0 && cmp_u32_by(&ix[j - 1], &v, b->a) > 0) {
            ix[j] = ix[j - 1];
            j--;
        }
        ix[j] = v;
    }
    /* merge into the tail of the pool (tentatively) */
    uint32_t need = l->nt + b->n;
    if (need > l->capt || !l->tatom) { /* (a first sum without terms still needs the pool: tatom + 0) */
        uint32_t nc = l->capt ? l->capt : 4096;
        while (nc < need)
            nc *= 2;
        uint32_t *na = realloc(l->tatom, nc * sizeof *na);
        if (!na) {
            free(ix);
            goto out;
        }
        l->tatom = na;
        mpz_t *ncf = realloc(l->tcoef, nc * sizeof *ncf);
        if (!ncf) {
            free(ix);
            goto out;
        }
        l->tcoef = ncf;
        for (uint32_t i = l->capt; i < nc; i++)
            mpz_init(l->tcoef[i]);
        l->capt = nc;
    }
    uint32_t first = l->nt, n = 0;
    for (uint32_t i = 0; i < b->n;) {
        uint32_t a = b->a[ix[i]];
        mpz_set(l->tcoef[first + n], b->c[ix[i]]);
        i++;
        while (i < b->n && b->a[ix[i]] == a) {
            mpz_add(l->tcoef[first + n], l->tcoef[first + n], b->c[ix[i]]);
            i++;
        }
        if (mpz_sgn(l->tcoef[first + n]) != 0) {
            l->tatom[first + n] = a;
            n++;
        }
    }
    free(ix);
    uint32_t h = mix(0x5u, n);
    h = mpz_hash(h, b->k);
    for (uint32_t i = 0; i < n; i++) {
        h = mix(h, l->tatom[first + i]);
        h = mpz_hash(h, l->tcoef[first + i]);
    }
    if (l->capht_su) {
        for (uint32_t i = h & (l->capht_su - 1); l->htsu[i]; i = (i + 1) & (l->capht_su - 1)) {
            const lf_sum *s = &l->su[l->htsu[i]];
            if (s->hash != h || s->n != n || mpz_cmp(s->k, b->k) != 0)
                continue;
            bool same = true;
            for (uint32_t q = 0; q < n && same; q++)
                same = l->tatom[s->first + q] == l->tatom[first + q] &&
                       mpz_cmp(l->tcoef[s->first + q], l->tcoef[first + q]) == 0;
            if (same) {
                res = l->htsu[i];
                goto out;
            }
        }
    }
    if (l->nsu + 1 >= l->capsu) {
        uint32_t nc = l->capsu ? 2 * l->capsu : 1024;
        lf_sum *ns = realloc(l->su, nc * sizeof *ns);
        if (!ns)
            goto out;
        l->su = ns;
        l->capsu = nc;
    }
    if (grow_table(&l->htsu, &l->capht_su, l->nsu, l->su, sizeof *l->su, offsetof(lf_sum, hash)) != 0)
        goto out;
    lf_id id = ++l->nsu;
    lf_sum *s = &l->su[id];
    s->first = first;
    s->n = n;
    s->hash = h;
    mpz_init_set(s->k, b->k);
    mpz_init(s->lo);
    mpz_init(s->hi);
    s->sh = mpz_sh(b->k);
    for (uint32_t q = 0; q < n; q++) /* order-free: a sum of the terms' mixes */
        s->sh += mix64(l->at[l->tatom[first + q]].sh, mpz_sh(l->tcoef[first + q]));
    sum_bounds(l, l->tatom + first, l->tcoef + first, n, b->k, s->lo, s->hi);
    l->nt += n;
    uint32_t i = h & (l->capht_su - 1);
    while (l->htsu[i])
        i = (i + 1) & (l->capht_su - 1);
    l->htsu[i] = id;
    res = id;
out:
    if (!res)
        l->oom = true;
    b_clear(b);
    return res;
}

/* intersect — the sum s is also known to lie in [lo, hi] */
static void intersect(lf_ctx *l, lf_id s, const mpz_t lo, const mpz_t hi)
{
    lf_sum *S = &l->su[s];
    if (mpz_cmp(lo, S->lo) > 0)
        mpz_set(S->lo, lo);
    if (mpz_cmp(hi, S->hi) < 0)
        mpz_set(S->hi, hi);
    /* s = c t + k with one atom t: t lies in [(lo - k) / c, (hi - k) / c] (rounded inwards; c > 0) */
    if (S->n == 1 && mpz_sgn(l->tcoef[S->first]) > 0) {
        lf_atom *t = &l->at[l->tatom[S->first]];
        mpz_t a, b;
        mpz_init(a);
        mpz_init(b);
        mpz_sub(a, S->lo, S->k);
        mpz_cdiv_q(a, a, l->tcoef[S->first]);
        mpz_sub(b, S->hi, S->k);
        mpz_fdiv_q(b, b, l->tcoef[S->first]);
        if (mpz_cmp(a, t->lo) > 0)
            mpz_set(t->lo, a);
        if (mpz_cmp(b, t->hi) < 0)
            mpz_set(t->hi, b);
        mpz_clear(a);
        mpz_clear(b);
    }
}

static void intersect_u128(lf_ctx *l, lf_id s, ir_u128 lo, ir_u128 hi)
{
    mpz_t a, b;
    mpz_init(a);
    mpz_init(b);
    mpz_import(a, 2, -1, sizeof(uint64_t), 0, 0, (uint64_t[2]){ (uint64_t)lo, (uint64_t)(lo >> 64) });
    mpz_import(b, 2, -1, sizeof(uint64_t), 0, 0, (uint64_t[2]){ (uint64_t)hi, (uint64_t)(hi >> 64) });
    intersect(l, s, a, b);
    mpz_clear(a);
    mpz_clear(b);
}

/* ---- atoms ------------------------------------------------------------------------------------------------------- */
/* atom — the interned atom; bounds are computed by the caller into lo/hi (used only when the atom is new) */
static uint32_t atom(lf_ctx *l, unsigned kind, const uint32_t *a, unsigned na, uint64_t k, const mpz_t lo,
                     const mpz_t hi)
{
    if (l->oom)
        return 0;
    uint32_t h = mix(kind, k);
    for (unsigned i = 0; i < na; i++)
        h = mix(h, a[i]);
    if (l->capht_at)
        for (uint32_t i = h & (l->capht_at - 1); l->htat[i]; i = (i + 1) & (l->capht_at - 1)) {
            const lf_atom *t = &l->at[l->htat[i]];
            if (t->hash == h && t->kind == kind && t->na == na && t->k == k &&
                (!na || !memcmp(t->a, a, na * sizeof *a)))
                return l->htat[i];
        }
    if (l->nat + 1 >= l->capat) {
        uint32_t nc = l->capat ? 2 * l->capat : 1024;
        lf_atom *nn = realloc(l->at, nc * sizeof *nn);
        if (!nn) {
            l->oom = true;
            return 0;
        }
        l->at = nn;
        l->capat = nc;
    }
    if (grow_table(&l->htat, &l->capht_at, l->nat, l->at, sizeof *l->at, offsetof(lf_atom, hash)) != 0) {
        l->oom = true;
        return 0;
    }
    uint32_t id = ++l->nat;
    lf_atom *t = &l->at[id];
    memset(t, 0, sizeof *t);
    t->kind = (uint8_t)kind;
    t->na = (uint8_t)na;
    if (na)
        memcpy(t->a, a, na * sizeof *a);
    t->k = k;
    t->hash = h;
    {
        uint64_t sa[3] = { 0, 0, 0 };
        for (unsigned i = 0; i < na; i++)
            sa[i] = l->su[a[i]].sh;
        if (kind != LA_SELECT && na == 2 && sa[0] > sa[1]) { /* commutative: operand order by id is not structural */
            uint64_t x = sa[0];
            sa[0] = sa[1];
            sa[1] = x;
        }
        t->sh = mix64(mix64(kind + 1, kind == LA_INPUT || kind == LA_FLOOR || kind == LA_QDIG || kind == LA_EXQ ? k : 0),
                      sa[0]);
        t->sh = mix64(mix64(t->sh, sa[1]), sa[2]);
    }
    mpz_init_set(t->lo, lo);
    mpz_init_set(t->hi, hi);
    if (kind != LA_FLOOR && kind != LA_SIGN && kind != LA_EXQ && mpz_sgn(t->lo) < 0)
        mpz_set_ui(t->lo, 0); /* every atom but a floor is a non-negative integer */
    uint32_t i = h & (l->capht_at - 1);
    while (l->htat[i])
        i = (i + 1) & (l->capht_at - 1);
    l->htat[i] = id;
    return id;
}

static lf_id sum_of_atom(lf_ctx *l, uint32_t a)
{
    if (!a)
        return 0;
    bld b;
    b_init(&b);
    mpz_t one;
    mpz_init_set_ui(one, 1);
    b_term(&b, a, one);
    mpz_clear(one);
    return b_finish(l, &b);
}

static lf_id sum_const(lf_ctx *l, const mpz_t k)
{
    bld b;
    b_init(&b);
    mpz_set(b.k, k);
    return b_finish(l, &b);
}

/* split — c = 2^k q + r with r in (-2^(k-1), 2^(k-1)] (the symmetric remainder) */
static void split(mpz_t q, mpz_t r, const mpz_t c, unsigned k, const mpz_t half, const mpz_t full)
{
    mpz_fdiv_r_2exp(r, c, k);
    if (mpz_cmp(r, half) > 0)
        mpz_sub(r, r, full);
    mpz_sub(q, c, r);
    mpz_fdiv_q_2exp(q, q, k);
}

/* jmin — the least j >= 1 with -2^j <= lo and hi < 2^j */
static unsigned jmin(const mpz_t lo, const mpz_t hi)
{
    unsigned j = 1;
    size_t bh = mpz_sgn(hi) > 0 ? mpz_sizeinbase(hi, 2) : 0; /* hi < 2^bh */
    if (bh > j)
        j = (unsigned)bh;
    if (mpz_sgn(lo) < 0) { /* -2^j <= lo  <=>  -lo - 1 < 2^j */
        mpz_t t;
        mpz_init(t);
        mpz_neg(t, lo);
        mpz_sub_ui(t, t, 1);
        size_t bl = mpz_sgn(t) > 0 ? mpz_sizeinbase(t, 2) : 0;
        if (bl > j)
            j = (unsigned)bl;
        mpz_clear(t);
    }
    return j;
}

/* formal_add — adds mult * (sum s) to b, each quotient digit atom (k * X) mod 2^64 replaced by k * X (congruent
 * mod 2^j for j <= 64), recursively (depth bounded); other atoms stay as they are (opaque) */
static void formal_add(const lf_ctx *l, bld *b, lf_id s, const mpz_t mult, int depth)
{
    const lf_sum *S = &l->su[s];
    mpz_t t;
    mpz_init(t);
    for (uint32_t i = 0; i < S->n && !b->oom; i++) {
        uint32_t a = l->tatom[S->first + i];
        const lf_atom *at = &l->at[a];
        mpz_mul(t, l->tcoef[S->first + i], mult);
        if (at->kind == LA_QDIG && depth < 16) {
            mpz_t kk;
            mpz_init(kk);
            mpz_import(kk, 1, -1, sizeof at->k, 0, 0, &at->k);
            mpz_mul(t, t, kk);
            mpz_clear(kk);
            formal_add(l, b, at->a[0], t, depth + 1);
        } else
            b_term(b, a, t);
    }
    mpz_addmul(b->k, S->k, mult);
    mpz_clear(t);
}

static bool has_qdig(const lf_ctx *l, lf_id s)
{
    const lf_sum *S = &l->su[s];
    for (uint32_t i = 0; i < S->n; i++)
        if (l->at[l->tatom[S->first + i]].kind == LA_QDIG)
            return true;
    return false;
}

/* formal_zero — sum s is 0 mod 2^j (1 <= j <= 64) as a formal identity: with every quotient digit (k X) mod 2^64
 * replaced by k X (exact mod 2^j) and every other atom an unknown integer, each coefficient and the constant is a
 * multiple of 2^j. Then s's value is a multiple of 2^j for every value of the atoms. -1 out of memory. */
static int formal_zero(const lf_ctx *l, lf_id s, unsigned j)
{
    bld b;
    b_init(&b);
    mpz_t one;
    mpz_init_set_ui(one, 1);
    formal_add(l, &b, s, one, 0);
    mpz_clear(one);
    int res = b.oom ? -1 : 1;
    /* sort terms by atom (insertion sort on indices), add each atom's coefficients, test mod 2^j */
    for (uint32_t i = 1; i < b.n && res == 1; i++) {
        uint32_t a = b.a[i], q = i;
        mpz_t c;
        mpz_init_set(c, b.c[i]);
        while (q > 0 && b.a[q - 1] > a) {
            b.a[q] = b.a[q - 1];
            mpz_swap(b.c[q], b.c[q - 1]);
            q--;
        }
        b.a[q] = a;
        mpz_swap(b.c[q], c);
        mpz_clear(c);
    }
    mpz_t acc;
    mpz_init(acc);
    for (uint32_t i = 0; i < b.n && res == 1;) {
        mpz_set(acc, b.c[i]);
        uint32_t a = b.a[i++];
        while (i < b.n && b.a[i] == a)
            mpz_add(acc, acc, b.c[i++]);
        if (!mpz_divisible_2exp_p(acc, j))
            res = 0;
    }
    if (res == 1 && !mpz_divisible_2exp_p(b.k, j))
        res = 0;
    mpz_clear(acc);
    b_clear(&b);
    return res;
}

/* small_coefs — every coefficient of s below 2^bits in magnitude */
static bool small_coefs(const lf_ctx *l, lf_id s, size_t bits)
{
    const lf_sum *S = &l->su[s];
    for (uint32_t i = 0; i < S->n; i++)
        if (mpz_sizeinbase(l->tcoef[S->first + i], 2) > bits)
            return false;
    return true;
}

/* formal_residue — the sum congruent to s mod 2^j (1 <= j <= 64) with every quotient digit (c X) mod 2^64
 * replaced by c X (formal_add) and each coefficient and the constant reduced to its symmetric residue mod 2^j;
 * 0 when memory runs out */
static lf_id formal_residue(lf_ctx *l, lf_id s, unsigned j)
{
    bld b;
    b_init(&b);
    mpz_t one;
    mpz_init_set_ui(one, 1);
    formal_add(l, &b, s, one, 0);
    lf_id f = b_finish(l, &b); /* merged; coefficients not reduced yet */
    lf_id res = 0;
    if (f) {
        bld rb;
        b_init(&rb);
        mpz_t q, r, full, half;
        mpz_init(q);
        mpz_init(r);
        mpz_init_set_ui(full, 1);
        mpz_mul_2exp(full, full, j);
        mpz_init(half);
        mpz_fdiv_q_2exp(half, full, 1);
        const lf_sum *F = &l->su[f];
        for (uint32_t i = 0; i < F->n; i++) {
            split(q, r, l->tcoef[F->first + i], j, half, full);
            b_term(&rb, l->tatom[F->first + i], r);
        }
        split(q, r, F->k, j, half, full);
        mpz_set(rb.k, r);
        mpz_clear(q);
        mpz_clear(r);
        mpz_clear(full);
        mpz_clear(half);
        res = b_finish(l, &rb);
    }
    mpz_clear(one);
    return res;
}

/* exq_form — the exact quotient D / 2^j (1 <= j <= 64; D a multiple of 2^j for every value of the atoms, formal_zero)
 * over one basis per quotient digit, so that quotients of one digit taken in different ways meet. For a digit
 * qd = qd_c(X) = (c X) mod 2^64 let H = exq_64(c X - qd), the atom whose value is the integer (c X - qd) / 2^64
 * = floor(c X / 2^64). Then, as integers, for every value of X (no side condition: the mod is the least
 * non-negative residue),
 *     qd = c X - 2^64 H.
 * Write D = N' + sum_i b_i qd_i (the digits that occur in D with their coefficients) and N = N' + sum_i b_i c_i X_i:
 * D = N - 2^64 sum_i b_i H_i exactly. When N has no digit and each of its coefficients and its constant is a multiple
 * of 2^j, N / 2^j is an integer form and
 *     D / 2^j = N / 2^j - 2^(64-j) sum_i b_i H_i                       (exact: j <= 64)
 * So exq_64(c lo - qd) = H, exq_63(c lo - qd) = 2 H, exq_32(lo - qd) = 2^32 H - lo (c = 2^32 + 1): the shift-based
 * products of a digit meet the program's. Otherwise (and for D = H's own operand) D / 2^j stays one atom with the
 * bounds of D / 2^j. Bounds of the form come from its atoms. 0 when memory runs out. */
static lf_id exq_form(lf_ctx *l, lf_id ds, unsigned j)
{
    lf_id res = 0;
    mpz_t q, r, t, kk;
    mpz_init(q);
    mpz_init(r);
    mpz_init(t);
    mpz_init(kk);
    bld nb;
    b_init(&nb);
    uint32_t nd = 0;
    {
        const lf_sum *D = &l->su[ds];
        for (uint32_t i = 0; i < D->n; i++) {
            uint32_t a = l->tatom[D->first + i];
            const lf_atom *at = &l->at[a];
            if (at->kind == LA_QDIG) {
                nd++;
                mpz_import(kk, 1, -1, sizeof at->k, 0, 0, &at->k);
                mpz_mul(t, l->tcoef[D->first + i], kk);
                b_sum(l, &nb, at->a[0], t); /* + b c X */
            } else
                b_term(&nb, a, l->tcoef[D->first + i]);
            D = &l->su[ds];
        }
        mpz_add(nb.k, nb.k, D->k);
    }
    lf_id ns = nd ? b_finish(l, &nb) : 0;
    if (!nd)
        b_clear(&nb);
    bool basis = false;
    if (ns && !has_qdig(l, ns)) {
        const lf_sum *N = &l->su[ns];
        basis = mpz_divisible_2exp_p(N->k, j);
        for (uint32_t i = 0; i < N->n && basis; i++)
            basis = mpz_divisible_2exp_p(l->tcoef[N->first + i], j);
        /* D = H's own operand (N = 0 and one digit with coefficient -1 at j = 64) is the atom itself */
        if (basis && N->n == 0 && mpz_sgn(N->k) == 0 && nd == 1 && j == 64) {
            const lf_sum *D = &l->su[ds];
            for (uint32_t i = 0; i < D->n; i++)
                if (l->at[l->tatom[D->first + i]].kind == LA_QDIG && mpz_cmp_si(l->tcoef[D->first + i], -1) == 0)
                    basis = false;
        }
    }
    if (!basis) {
        const lf_sum *D = &l->su[ds];
        mpz_cdiv_q_2exp(q, D->lo, j);
        mpz_fdiv_q_2exp(r, D->hi, j);
        uint32_t e = atom(l, LA_EXQ, &ds, 1, j, q, r);
        res = e ? sum_of_atom(l, e) : 0;
        goto out;
    }
    {
        bld rb;
        b_init(&rb);
        const lf_sum *N = &l->su[ns];
        for (uint32_t i = 0; i < N->n; i++) {
            mpz_fdiv_q_2exp(t, l->tcoef[N->first + i], j); /* exact */
            b_term(&rb, l->tatom[N->first + i], t);
        }
        mpz_fdiv_q_2exp(rb.k, N->k, j);
        uint32_t nq = l->su[ds].n;
        for (uint32_t i = 0; i < nq && !rb.oom; i++) {
            const lf_sum *D = &l->su[ds];
            uint32_t a = l->tatom[D->first + i];
            const lf_atom *at = &l->at[a];
            if (at->kind != LA_QDIG)
                continue;
            mpz_t b;
            mpz_init_set(b, l->tcoef[D->first + i]);
            bld hb;
            b_init(&hb);
            mpz_import(kk, 1, -1, sizeof at->k, 0, 0, &at->k);
            b_sum(l, &hb, at->a[0], kk); /* c X */
            mpz_set_si(t, -1);
            b_term(&hb, a, t); /* - qd */
            lf_id hs = b_finish(l, &hb);
            uint32_t h = 0;
            if (hs) {
                mpz_cdiv_q_2exp(q, l->su[hs].lo, 64);
                mpz_fdiv_q_2exp(r, l->su[hs].hi, 64);
                h = atom(l, LA_EXQ, &hs, 1, 64, q, r);
            }
            if (!h) {
                mpz_clear(b);
                b_clear(&rb);
                goto out;
            }
            mpz_mul_2exp(t, b, 64 - j);
            mpz_neg(t, t);
            b_term(&rb, h, t); /* - 2^(64-j) b H */
            mpz_clear(b);
        }
        res = b_finish(l, &rb);
    }
out:
    mpz_clear(q);
    mpz_clear(r);
    mpz_clear(t);
    mpz_clear(kk);
    return res;
}

/* lf_floor — floor(s / 2^k), canonical (lf.h): coefficients and constant reduced to symmetric remainders (the
 * quotients leave the floor), the common power of two divided out, and a floor decided or narrowed by the bounds
 * of what is left: 0 on [0, 2^k), -1 on [-2^k, 0), and on [-2^k, 2^k) the sign atom -[S < 0] (the same for every
 * such k, so that floors by different powers of one narrow S meet). */
static lf_id lf_floor(lf_ctx *l, lf_id s, unsigned k)
{
    if (!s || l->oom)
        return 0;
    if (k == 0)
        return s;
    bld outer;
    b_init(&outer);
    mpz_t q, r, half, full;
    mpz_init(q);
    mpz_init(r);
    mpz_init(half);
    mpz_init(full);
    lf_id res = 0, cur = s;
    /* decided by the bounds known for s itself (they may be narrower than its terms' interval: intersect) */
    mpz_fdiv_q_2exp(q, l->su[s].lo, k);
    mpz_fdiv_q_2exp(r, l->su[s].hi, k);
    if (mpz_cmp(q, r) == 0) {
        res = sum_const(l, q);
        b_clear(&outer);
        goto out;
    }
    for (;;) {
        mpz_set_ui(full, 1);
        mpz_mul_2exp(full, full, k);
        mpz_fdiv_q_2exp(half, full, 1);
        bld inner;
        b_init(&inner);
        uint32_t first = l->su[cur].first, n = l->su[cur].n;
        for (uint32_t i = 0; i < n; i++) {
            split(q, r, l->tcoef[first + i], k, half, full);
            b_term(&outer, l->tatom[first + i], q);
            b_term(&inner, l->tatom[first + i], r);
        }
        split(q, r, l->su[cur].k, k, half, full);
        mpz_add(outer.k, outer.k, q);
        mpz_set(inner.k, r);
        if (inner.n == 0) { /* floor(r / 2^k) for |r| <= 2^(k-1) */
            mpz_fdiv_q_2exp(q, r, k);
            mpz_add(outer.k, outer.k, q);
            b_clear(&inner);
            break;
        }
        /* the common power of two of the coefficients: floor((2^g T + c) / 2^k) = floor((T + floor(c / 2^g)) /
         * 2^(k-g)) for g <= k (the part of c below 2^g cannot carry into a multiple of 2^g) */
        mp_bitcnt_t g = (mp_bitcnt_t)k;
        for (uint32_t i = 0; i < inner.n; i++) {
            mp_bitcnt_t t = mpz_scan1(inner.c[i], 0);
            if (t < g)
                g = t;
        }
        if (g > 0) {
            for (uint32_t i = 0; i < inner.n; i++)
                mpz_fdiv_q_2exp(inner.c[i], inner.c[i], g);
            mpz_fdiv_q_2exp(inner.k, inner.k, g);
            k -= (unsigned)g;
        }
        lf_id in = b_finish(l, &inner);
        if (!in) {
            b_clear(&outer);
            goto out;
        }
        const lf_sum *is = &l->su[in];
        mpz_fdiv_q_2exp(q, is->lo, k);
        mpz_fdiv_q_2exp(r, is->hi, k);
        if (mpz_cmp(q, r) == 0) { /* decided by the bounds */
            mpz_add(outer.k, outer.k, q);
            break;
        }
        if (has_qdig(l, in)) {
            /* exact division (lf.h): in = R + 2^j Z with R the symmetric residues mod 2^j, j = min(k, 64). When R has
             * quotient digits, T = R with each digit (c X) mod 2^64 replaced by c X, reduced mod 2^j again, is
             * congruent to R mod 2^j as a formal identity, so D = R - T is a multiple of 2^j for every value of
             * the atoms, and in = T + 2^j (D / 2^j + Z) exactly; the loop goes on with that (no digit left in the
             * low j bits). */
            unsigned j = k < 64 ? k : 64;
            lf_id rs = 0, zs = 0;
            {
                bld rb, zb;
                b_init(&rb);
                b_init(&zb);
                mpz_t jf, jh;
                mpz_init(jf);
                mpz_init(jh);
                mpz_set_ui(jf, 1);
                mpz_mul_2exp(jf, jf, j);
                mpz_fdiv_q_2exp(jh, jf, 1);
                for (uint32_t i = 0; i < is->n; i++) {
                    split(q, r, l->tcoef[is->first + i], j, jh, jf);
                    b_term(&zb, l->tatom[is->first + i], q);
                    b_term(&rb, l->tatom[is->first + i], r);
                }
                split(q, r, is->k, j, jh, jf);
                mpz_set(zb.k, q);
                mpz_set(rb.k, r);
                mpz_clear(jf);
                mpz_clear(jh);
                rs = b_finish(l, &rb);
                zs = b_finish(l, &zb);
            }
            if (!rs || !zs) {
                b_clear(&outer);
                goto out;
            }
            if (has_qdig(l, rs)) {
                lf_id ts = formal_residue(l, rs, j);
                if (!ts) {
                    b_clear(&outer);
                    goto out;
                }
                if (!has_qdig(l, ts) && small_coefs(l, ts, 34)) {
                    bld db;
                    b_init(&db);
                    b_sum1(l, &db, rs, 1);
                    b_sum1(l, &db, ts, -1);
                    lf_id ds = b_finish(l, &db);
                    int fz = ds ? formal_zero(l, ds, j) : -1;
                    if (fz < 0) {
                        l->oom = true;
                        b_clear(&outer);
                        goto out;
                    }
                    if (fz == 1 && l->su[ds].n > 0) {
                        lf_id es = exq_form(l, ds, j);
                        if (!es) {
                            b_clear(&outer);
                            goto out;
                        }
                        bld nb;
                        b_init(&nb);
                        b_sum1(l, &nb, ts, 1);
                        mpz_set_ui(q, 1);
                        mpz_mul_2exp(q, q, j);
                        b_sum(l, &nb, es, q);
                        b_sum(l, &nb, zs, q);
                        lf_id nx = b_finish(l, &nb);
                        if (!nx) {
                            b_clear(&outer);
                            goto out;
                        }
                        cur = nx;
                        continue;
                    }
                }
            }
            is = &l->su[in]; /* (the sums made above may have moved the table) */
        }
        if (is->n == 1) {
            const lf_atom *t = &l->at[l->tatom[is->first]];
            mpz_sub(q, t->hi, t->lo);
            if (mpz_cmp_ui(q, 1) == 0) {
                /* floor((k0 + c t) / 2^k) with t in {v, v + 1}: f(v) + (t - v) (f(v + 1) - f(v)),
                 * f(u) = floor((k0 + c u) / 2^k) */
                mpz_t v;
                mpz_init_set(v, t->lo);
                mpz_mul(q, l->tcoef[is->first], v);
                mpz_add(q, q, is->k);
                mpz_add(r, q, l->tcoef[is->first]);
                mpz_fdiv_q_2exp(q, q, k); /* f(v) */
                mpz_fdiv_q_2exp(r, r, k); /* f(v + 1) */
                mpz_sub(r, r, q);         /* the step */
                mpz_add(outer.k, outer.k, q);
                mpz_submul(outer.k, r, v);
                b_term(&outer, l->tatom[is->first], r);
                mpz_clear(v);
                break;
            }
        }
        { /* a carry inside: floor((A + floor(B / 2^j)) / 2^k) = floor((2^j A + B) / 2^(j+k)) */
            uint32_t pick = UINT32_MAX;
            /* (a sign atom -[B < 0] is floor(B / 2^j) for the least j with B in [-2^j, 2^j)) */
            /* several: the one of largest structural hash, so that the choice does not depend on creation order */
            for (uint32_t i = 0; i < is->n; i++) {
                const lf_atom *c = &l->at[l->tatom[is->first + i]];
                if ((c->kind == LA_FLOOR || c->kind == LA_SIGN) && mpz_cmp_ui(l->tcoef[is->first + i], 1) == 0 &&
                    (pick == UINT32_MAX || c->sh > l->at[l->tatom[is->first + pick]].sh))
                    pick = i;
            }
            const lf_atom *t = pick != UINT32_MAX ? &l->at[l->tatom[is->first + pick]] : NULL;
            unsigned j = !t ? 0 : t->kind == LA_FLOOR ? (unsigned)t->k : jmin(l->su[t->a[0]].lo, l->su[t->a[0]].hi);
            if (t && k + j <= 4096) {
                lf_id bsum = t->a[0];
                bld nb;
                b_init(&nb);
                mpz_set_ui(q, 1);
                mpz_mul_2exp(q, q, j);
                b_sum(l, &nb, in, q);
                mpz_neg(q, q);
                b_term(&nb, l->tatom[is->first + pick], q);
                mpz_set_ui(q, 1);
                b_sum(l, &nb, bsum, q);
                lf_id nx = b_finish(l, &nb);
                if (!nx) {
                    b_clear(&outer);
                    goto out;
                }
                cur = nx;
                k += j;
                continue;
            }
        }
        mpz_fdiv_q_2exp(q, is->lo, k);
        mpz_fdiv_q_2exp(r, is->hi, k);
        if (mpz_cmp_si(q, -1) == 0 && mpz_sgn(r) == 0) { /* S in [-2^k, 2^k): floor(S / 2^k) = -[S < 0], whatever k */
            mpz_set_si(q, -1);
            mpz_set_ui(r, 0);
            uint32_t a = atom(l, LA_SIGN, &in, 1, 0, q, r);
            mpz_set_ui(q, 1);
            b_term(&outer, a, q);
            break;
        }
        /* (floor(floor(T / 2^j) / 2^k) was absorbed above: T / 2^(j+k)) */
        mpz_fdiv_q_2exp(q, is->lo, k);
        mpz_fdiv_q_2exp(r, is->hi, k);
        uint32_t a = atom(l, LA_FLOOR, &in, 1, k, q, r);
        mpz_set_ui(q, 1);
        b_term(&outer, a, q);
        break;
    }
    res = b_finish(l, &outer);
out:
    mpz_clear(q);
    mpz_clear(r);
    mpz_clear(half);
    mpz_clear(full);
    return res;
}

/* lf_mod — s mod 2^w = s - 2^w floor(s / 2^w), in [0, 2^w) */
static lf_id lf_mod(lf_ctx *l, lf_id s, unsigned w)
{
    if (!s || l->oom)
        return 0;
    if (mpz_sgn(l->su[s].lo) >= 0 && mpz_sizeinbase(l->su[s].hi, 2) <= w)
        return s;
    lf_id f = lf_floor(l, s, w);
    if (!f)
        return 0;
    bld b;
    b_init(&b);
    mpz_t m;
    mpz_init(m);
    mpz_set_ui(m, 1);
    b_sum(l, &b, s, m);
    mpz_set_si(m, -1);
    mpz_mul_2exp(m, m, w);
    b_sum(l, &b, f, m);
    lf_id res = b_finish(l, &b);
    if (res) {
        mpz_t lo, hi;
        mpz_init(lo);
        mpz_init(hi);
        mpz_set_ui(hi, 1);
        mpz_mul_2exp(hi, hi, w);
        mpz_sub_ui(hi, hi, 1);
        intersect(l, res, lo, hi);
        mpz_clear(lo);
        mpz_clear(hi);
    }
    mpz_clear(m);
    return res;
}

/* qdig_of — s mod 2^64 as a quotient digit when it has that shape. F = s's formal residue mod 2^64 (formal_residue:
 * every digit in s replaced by what it is congruent to, coefficients reduced); c the first odd coefficient of F that
 * is far (2^32) from 0 mod 2^64, and X = c^-1 F mod 2^64 with small coefficients (a Montgomery digit
 * m = (m' t) mod 2^64: c = m' times t's coefficient, X = t's low word as a form): then s mod 2^64 = (c X) mod 2^64,
 * an atom of its own (lf.h) instead of c X - 2^64 floor(c X / 2^64), which spreads c through every later carry. X
 * depends only on s mod 2^64 (as a formal identity), whichever way s was written; for c above 2^63 the value is
 * (-Y) mod 2^64 with Y the digit of 2^64 - c, so that m and (-m) mod 2^64 (the low word of m (2^64 - 1)) share one
 * atom. 0 when the shape does not fit (or memory ran out). */
static lf_id qdig_of(lf_ctx *l, lf_id s)
{
    lf_id res = 0;
    lf_id f = formal_residue(l, s, 64);
    if (!f)
        return 0;
    mpz_t q, r, full, half, c, ci;
    mpz_init(q);
    mpz_init(r);
    mpz_init_set_ui(full, 1);
    mpz_mul_2exp(full, full, 64);
    mpz_init(half);
    mpz_fdiv_q_2exp(half, full, 1);
    mpz_init(c);
    mpz_init(ci);
    const lf_sum *F = &l->su[f];
    lf_id x = 0;
    for (uint32_t i = 0; i < F->n && !x; i++) { /* terms are sorted by atom: the first that fits is canonical */
        const mpz_t *ct = &l->tcoef[F->first + i];
        if (!mpz_odd_p(*ct) || mpz_sizeinbase(*ct, 2) <= 32)
            continue;
        /* a digit's word t has mostly unit coefficients: most of F's are +-c (a word that merely contains a digit,
         * (-m) mod 2^64 + a + b, has one such term) */
        uint32_t same = 0;
        for (uint32_t j = 0; j < F->n; j++)
            same += mpz_cmpabs(l->tcoef[F->first + j], *ct) == 0;
        if (2 * same <= F->n)
            continue;
        mpz_fdiv_r_2exp(c, *ct, 64);
        if (!mpz_invert(ci, c, full))
            continue;
        bld xb;
        b_init(&xb);
        bool small = true;
        for (uint32_t j = 0; j < F->n && small; j++) {
            mpz_mul(q, l->tcoef[F->first + j], ci);
            split(q, r, q, 64, half, full);
            small = mpz_sizeinbase(r, 2) <= 40;
            b_term(&xb, l->tatom[F->first + j], r);
        }
        mpz_mul(q, F->k, ci);
        split(q, r, q, 64, half, full);
        mpz_set(xb.k, r);
        small = small && mpz_sizeinbase(r, 2) <= 40;
        if (!small) {
            b_clear(&xb);
            continue;
        }
        x = b_finish(l, &xb);
        if (!x)
            goto out;
        F = &l->su[f];
    }
    if (!x)
        goto out;
    bool neg = mpz_cmp(c, half) >= 0;
    if (neg)
        mpz_sub(c, full, c);
    uint64_t cv = mpz_get_ui(c);
    mpz_set_ui(q, 0);
    mpz_sub_ui(r, full, 1);
    uint32_t at = atom(l, LA_QDIG, &x, 1, cv, q, r);
    if (!neg) {
        res = sum_of_atom(l, at);
        goto out;
    }
    bld nb;
    b_init(&nb);
    mpz_set_si(q, -1);
    b_term(&nb, at, q);
    lf_id ng = b_finish(l, &nb);
    res = ng ? lf_mod(l, ng, 64) : 0;
out:
    mpz_clear(q);
    mpz_clear(r);
    mpz_clear(full);
    mpz_clear(half);
    mpz_clear(c);
    mpz_clear(ci);
    return res;
}

/* ---- translation ------------------------------------------------------------------------------------------------- */
lf_ctx *lf_new(const ex_ctx *x)
{
    lf_ctx *l = calloc(1, sizeof *l);
    if (l)
        l->x = x;
    return l;
}

void lf_free(lf_ctx *l)
{
    if (!l)
        return;
    for (uint32_t i = 1; i <= l->nat; i++) {
        mpz_clear(l->at[i].lo);
        mpz_clear(l->at[i].hi);
    }
    for (uint32_t i = 1; i <= l->nsu; i++) {
        mpz_clear(l->su[i].k);
        mpz_clear(l->su[i].lo);
        mpz_clear(l->su[i].hi);
    }
    for (uint32_t i = 0; i < l->capt; i++)
        mpz_clear(l->tcoef[i]);
    free(l->at);
    free(l->su);
    free(l->tatom);
    free(l->tcoef);
    free(l->htat);
    free(l->htsu);
    free(l->memo);
    free(l->done);
    free(l->alias);
    free(l);
}

static void set_u128(mpz_t z, ir_u128 v)
{
    uint64_t w[2] = { (uint64_t)v, (uint64_t)(v >> 64) };
    mpz_import(z, 2, -1, sizeof(uint64_t), 0, 0, w);
}

static unsigned bitlen128(ir_u128 v)
{
    unsigned n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

/* binary atom with its operands ordered (commutative kinds) */
static lf_id op_atom(lf_ctx *l, unsigned kind, lf_id a, lf_id b)
{
    if (a > b) {
        lf_id t = a;
        a = b;
        b = t;
    }
    uint32_t args[2] = { a, b };
    mpz_t lo, hi;
    mpz_init(lo);
    mpz_init(hi);
    const mpz_t *ha = &l->su[a].hi, *hb = &l->su[b].hi;
    if (kind == LA_AND)
        mpz_set(hi, mpz_cmp(*ha, *hb) < 0 ? *ha : *hb);
    else { /* or, xor: below 2^bitlen(max) */
        size_t bl = mpz_sizeinbase(mpz_cmp(*ha, *hb) > 0 ? *ha : *hb, 2);
        mpz_set_ui(hi, 1);
        mpz_mul_2exp(hi, hi, bl);
        mpz_sub_ui(hi, hi, 1);
    }
    uint32_t t = atom(l, kind, args, 2, 0, lo, hi);
    mpz_clear(lo);
    mpz_clear(hi);
    return sum_of_atom(l, t);
}

static lf_id tr_node(lf_ctx *l, ex_id e)
{
    const ex_node *n = ex_get(l->x, e);
    const ex_arg *a = ex_args(l->x, e);
    lf_id A = n->nargs > 0 ? l->memo[a[0].id] : 0, B = n->nargs > 1 ? l->memo[a[1].id] : 0;
    for (uint32_t i = 0; i < n->nargs; i++)
        if (!l->memo[a[i].id])
            return 0;
    lf_id res = 0;
    mpz_t t, lo, hi;
    mpz_init(t);
    mpz_init(lo);
    mpz_init(hi);
    switch ((ex_kind)n->kind) {
    case EX_CONST:
        set_u128(t, n->k);
        res = sum_const(l, t);
        break;
    case EX_INPUT: {
        set_u128(lo, n->lo);
        set_u128(hi, n->hi);
        uint32_t at = atom(l, LA_INPUT, NULL, 0, (uint64_t)n->k, lo, hi);
        res = sum_of_atom(l, at);
        break;
    }
    case EX_UNKNOWN: res = 0; break;
    case EX_SUM: {
        /* A wrapping sum is (k + sum c_i v_i) mod 2^w: any coefficients congruent mod 2^w give it, so those above
         * 2^(w-1) are taken negative (c - 2^w), and when the interval of k + sum c_i v_i from the operands' own
         * bounds (narrower than their terms' intervals: intersect) lies in [0, 2^w), the sum is that integer and
         * needs no floor (a - b + 2p of a field subtraction, say). */
        bld b;
        b_init(&b);
        set_u128(b.k, n->k);
        mpz_set(lo, b.k);
        mpz_set(hi, b.k);
        mpz_t full, half;
        mpz_init(full);
        mpz_init(half);
        mpz_set_ui(full, 1);
        mpz_mul_2exp(full, full, n->width);
        mpz_fdiv_q_2exp(half, full, 1);
        for (uint32_t i = 0; i < n->nargs; i++) {
            set_u128(t, a[i].c);
            if (n->wraps && mpz_cmp(t, half) > 0)
                mpz_sub(t, t, full);
            const lf_sum *os = &l->su[l->memo[a[i].id]];
            mpz_addmul(lo, t, mpz_sgn(t) > 0 ? os->lo : os->hi);
            mpz_addmul(hi, t, mpz_sgn(t) > 0 ? os->hi : os->lo);
            b_sum(l, &b, l->memo[a[i].id], t);
        }
        res = b_finish(l, &b);
        if (res && n->wraps) {
            lf_id qd = 0;
            if (mpz_sgn(lo) >= 0 && mpz_cmp(hi, full) < 0)
                intersect(l, res, lo, hi);
            else if (n->width == 64 && (qd = qdig_of(l, res)) != 0)
                res = qd;
            else
                res = lf_mod(l, res, n->width);
        } else if (res)
            intersect(l, res, lo, hi);
        mpz_clear(full);
        mpz_clear(half);
        break;
    }
    case EX_MUL: {
        if (A > B) {
            lf_id q = A;
            A = B;
            B = q;
        }
        uint32_t args[2] = { A, B };
        mpz_t plo, phi;
        mpz_init(plo);
        mpz_init(phi);
        if (mpz_sgn(l->su[A].lo) > 0 && mpz_sgn(l->su[B].lo) > 0)
            mpz_mul(plo, l->su[A].lo, l->su[B].lo);
        mpz_mul(phi, l->su[A].hi, l->su[B].hi);
        if (mpz_sizeinbase(phi, 2) <= 64) {
            uint32_t lo_at = atom(l, LA_MULLO, args, 2, 0, plo, phi);
            res = sum_of_atom(l, lo_at);
        } else {
            mpz_set_ui(hi, 1);
            mpz_mul_2exp(hi, hi, 64);
            /* a square's low word is at most 2^64 - 4: x^2 mod 8 is 0, 1 or 4, so x^2 mod 2^64 is never 2^64 - 1,
             * 2^64 - 2 or 2^64 - 3 (compilers use it: clang adds a bit to the low word of x*x without a carry) */
            mpz_sub_ui(hi, hi, A == B ? 4 : 1);
            uint32_t lo_at = atom(l, LA_MULLO, args, 2, 0, lo, hi);
            mpz_fdiv_q_2exp(plo, plo, 64);
            mpz_fdiv_q_2exp(phi, phi, 64);
            uint32_t hi_at = atom(l, LA_MULHI, args, 2, 0, plo, phi);
            bld b;
            b_init(&b);
            mpz_set_ui(t, 1);
            b_term(&b, lo_at, t);
            mpz_mul_2exp(t, t, 64);
            b_term(&b, hi_at, t);
            res = b_finish(l, &b);
        }
        mpz_clear(plo);
        mpz_clear(phi);
        if (res && n->wraps)
            res = lf_mod(l, res, n->width);
        break;
    }
    case EX_SHR: res = n->k >= 256 ? 0 : lf_floor(l, A, (unsigned)n->k); break;
    case EX_AND: res = op_atom(l, LA_AND, A, B); break;
    case EX_OR: res = op_atom(l, LA_OR, A, B); break;
    case EX_XOR: res = op_atom(l, LA_XOR, A, B); break;
    case EX_EQZ: {
        mpz_set_ui(hi, 1);
        uint32_t at = atom(l, LA_EQZ, &A, 1, 0, lo, hi);
        res = sum_of_atom(l, at);
        break;
    }
    case EX_LT: { /* a < b = -floor((a - b) / 2^w) for 0 <= a, b < 2^w */
        const ex_node *na = ex_get(l->x, a[0].id), *nb = ex_get(l->x, a[1].id);
        unsigned w = bitlen128(na->hi > nb->hi ? na->hi : nb->hi);
        if (w == 0)
            w = 1;
        bld b;
        b_init(&b);
        b_sum1(l, &b, A, 1);
        b_sum1(l, &b, B, -1);
        lf_id d = b_finish(l, &b);
        lf_id f = lf_floor(l, d, w);
        if (f) {
            b_init(&b);
            b_sum1(l, &b, f, -1);
            res = b_finish(l, &b);
        }
        break;
    }
    case EX_SELECT: {
        uint32_t args[3] = { A, B, l->memo[a[2].id] };
        const mpz_t *l1 = &l->su[args[1]].lo, *l2 = &l->su[args[2]].lo;
        const mpz_t *h1 = &l->su[args[1]].hi, *h2 = &l->su[args[2]].hi;
        mpz_set(lo, mpz_cmp(*l1, *l2) < 0 ? *l1 : *l2);
        mpz_set(hi, mpz_cmp(*h1, *h2) > 0 ? *h1 : *h2);
        uint32_t at = atom(l, LA_SELECT, args, 3, 0, lo, hi);
        res = sum_of_atom(l, at);
        break;
    }
    default: res = 0; break;
    }
    if (res)
        intersect_u128(l, res, n->lo, n->hi);
    mpz_clear(t);
    mpz_clear(lo);
    mpz_clear(hi);
    return res;
}

lf_id lf_of(lf_ctx *l, ex_id e)
{
    uint32_t cnt = ex_count(l->x);
    if (!e || e > cnt || l->oom)
        return 0;
    if (cnt + 1 > l->capmemo) {
        lf_id *nm = realloc(l->memo, (cnt + 1) * sizeof *nm);
        if (nm)
            l->memo = nm;
        bool *nd = nm ? realloc(l->done, (cnt + 1) * sizeof *nd) : NULL;
        if (nd)
            l->done = nd;
        lf_id *na = nd ? realloc(l->alias, (cnt + 1) * sizeof *na) : NULL;
        if (!na) {
            l->oom = true;
            return 0;
        }
        l->alias = na;
        memset(nm + l->capmemo, 0, (cnt + 1 - l->capmemo) * sizeof *nm);
        memset(nd + l->capmemo, 0, (cnt + 1 - l->capmemo) * sizeof *nd);
        memset(na + l->capmemo, 0, (cnt + 1 - l->capmemo) * sizeof *na);
        l->capmemo = cnt + 1;
    }
    if (l->done[e])
        return l->memo[e];
    /* mark what e needs (ids are topological: operands below the node), then translate in id order */
    bool *need = calloc(e + 1, sizeof *need);
    uint32_t *st = malloc((e + 1) * sizeof *st);
    if (!need || !st) {
        free(need);
        free(st);
        l->oom = true;
        return 0;
    }
    uint32_t sp = 0;
    st[sp++] = e;
    need[e] = true;
    while (sp) {
        ex_id v = st[--sp];
        const ex_node *n = ex_get(l->x, v);
        const ex_arg *a = ex_args(l->x, v);
        for (uint32_t i = 0; i < n->nargs; i++)
            if (!l->done[a[i].id] && !need[a[i].id]) {
                need[a[i].id] = true;
                st[sp++] = a[i].id;
            }
    }
    for (ex_id v = 1; v <= e && !l->oom; v++)
        if (need[v] && !l->done[v]) {
            l->memo[v] = l->alias[v] ? l->alias[v] : tr_node(l, v);
            l->done[v] = true;
        }
    free(need);
    free(st);
    return l->oom ? 0 : l->memo[e];
}

int lf_alias(lf_ctx *l, ex_id e, lf_id s)
{
    if (!e || !s || s > l->nsu || l->oom)
        return -1;
    if (!lf_of(l, e)) /* grows the tables to e */
        return -1;
    l->alias[e] = s;
    l->memo[e] = s;
    for (uint32_t v = e + 1; v < l->capmemo; v++) /* dependants have larger ids: translate them again */
        l->done[v] = false;
    return 0;
}

uint64_t lf_range_work(const lf_ctx *l)
{
    return l->range_work;
}

bool lf_sum_is_const(const lf_ctx *l, lf_id s)
{
    return s && s <= l->nsu && l->su[s].n == 0;
}

static void debug_sample(const lf_ctx *l, lf_id s);

/* ---- the range rule ---------------------------------------------------------------------------------------------- */
/* coef_of — the coefficient of atom t in sum s (NULL when absent): a binary search, terms are sorted by atom */
static const mpz_t *coef_of(const lf_ctx *l, lf_id s, uint32_t t)
{
    const lf_sum *S = &l->su[s];
    uint32_t lo = 0, hi = S->n;
    while (lo < hi) {
        uint32_t m = (lo + hi) / 2, a = l->tatom[S->first + m];
        if (a == t)
            return &l->tcoef[S->first + m];
        if (a < t)
            lo = m + 1;
        else
            hi = m;
    }
    return NULL;
}

static bool range_debug(int level)
{
    const char *e = getenv("ECOPT_RANGE_DEBUG");
    return e && atoi(e) >= level;
}

static double dabs(double x)
{
    return x < 0 ? -x : x;
}

/* narrow_l1 — moves the solution of the reduced row echelon system M (rank pivot rows; pivrow: unknown -> pivot row or
 * UINT32_MAX when free; column nc the right-hand side) to one of smaller width sum_j |c_j| (hi_j - lo_j): the simplex
 * method for that L1 objective, each step bringing in the free unknown and leaving the basic one that lower it most
 * (a breakpoint of the convex piecewise-linear cost along that unknown's direction). The choice is made in floating
 * point; every pivot is exact, so the system stays equivalent to the original one whatever the choices (only the
 * bound that the caller derives from the final solution depends on them). 0, or -1 out of memory. */
static int narrow_l1(const lf_ctx *l, mpq_t *M, uint32_t ncol, uint32_t nc, uint32_t rank, uint32_t *pivrow,
                     const lf_id *w, const uint32_t *col)
{
    double *wd = malloc(nc * sizeof *wd), *val = malloc(rank * sizeof *val), *a = malloc(rank * sizeof *a);
    uint32_t *rowvar = malloc(rank * sizeof *rowvar);
    if (!wd || !val || !a || !rowvar) {
        free(wd);
        free(val);
        free(a);
        free(rowvar);
        return -1;
    }
    mpz_t z;
    mpz_init(z);
    for (uint32_t c = 0; c < nc; c++) {
        mpz_sub(z, l->su[w[col[c]]].hi, l->su[w[col[c]]].lo);
        wd[c] = mpz_get_d(z) + 1.0;
        if (pivrow[c] != UINT32_MAX)
            rowvar[pivrow[c]] = c;
    }
    mpz_clear(z);
    mpq_t f, t;
    mpq_init(f);
    mpq_init(t);
    for (int iter = 0; iter < 100; iter++) {
        double g0 = 0;
        for (uint32_t r = 0; r < rank; r++) {
            val[r] = mpq_get_d(M[r * ncol + nc]);
            g0 += wd[rowvar[r]] * dabs(val[r]);
        }
        double best = g0 * (1 - 1e-9);
        uint32_t bf = UINT32_MAX, br = 0;
        for (uint32_t fc = 0; fc < nc; fc++) {
            if (pivrow[fc] != UINT32_MAX)
                continue;
            for (uint32_t r = 0; r < rank; r++)
                a[r] = mpq_sgn(M[r * ncol + fc]) ? mpq_get_d(M[r * ncol + fc]) : 0.0;
            for (uint32_t r0 = 0; r0 < rank; r0++) {
                if (a[r0] == 0.0)
                    continue;
                double tt = val[r0] / a[r0], g = wd[fc] * dabs(tt);
                for (uint32_t r = 0; r < rank && g < best; r++)
                    if (r != r0)
                        g += wd[rowvar[r]] * dabs(val[r] - tt * a[r]);
                if (g < best) {
                    best = g;
                    bf = fc;
                    br = r0;
                }
            }
        }
        if (bf == UINT32_MAX)
            break;
        /* pivot: unknown bf enters at row br, rowvar[br] leaves */
        mpq_inv(f, M[br * ncol + bf]);
        for (uint32_t q = 0; q < ncol; q++)
            mpq_mul(M[br * ncol + q], M[br * ncol + q], f);
        for (uint32_t r = 0; r < rank; r++) {
            if (r == br || mpq_sgn(M[r * ncol + bf]) == 0)
                continue;
            mpq_set(f, M[r * ncol + bf]);
            for (uint32_t q = 0; q < ncol; q++) {
                if (mpq_sgn(M[br * ncol + q]) == 0)
                    continue;
                mpq_mul(t, f, M[br * ncol + q]);
                mpq_sub(M[r * ncol + q], M[r * ncol + q], t);
            }
        }
        pivrow[rowvar[br]] = UINT32_MAX;
        pivrow[bf] = br;
        rowvar[br] = bf;
    }
    mpq_clear(f);
    mpq_clear(t);
    free(wd);
    free(val);
    free(a);
    free(rowvar);
    return 0;
}

/* range_of — bounds [lo, hi] of the value of sum d from a combination of the candidates: rationals c_j with
 * d = e + sum_j c_j w_j as linear forms over the atoms (e a constant), found by exact Gaussian elimination (free
 * unknowns 0) over the candidates connected to d by shared atoms; then d lies in e + sum_j c_j [lo_j, hi_j] for every
 * input, because each w_j equals its value and lies within its bounds. 1 with lo, hi set; 0 no combination; -1 out of
 * memory. */
static int range_of(lf_ctx *l, lf_id d, const lf_id *w, uint32_t n, mpq_t lo, mpq_t hi)
{
    enum { MAXC = 256, MAXR = 2048 }; /* larger systems are left alone (their cost grows as rows x columns) */
    int32_t *row = calloc(l->nat + 1, sizeof *row); /* atom -> row + 1 (0: not in the system) */
    uint32_t *ratom = malloc(MAXR * sizeof *ratom), *col = malloc(MAXC * sizeof *col);
    bool *taken = calloc(n ? n : 1, sizeof *taken);
    int res = 0;
    if (!row || !ratom || !col || !taken) {
        res = -1;
        goto out0;
    }
    uint32_t nr = 0, nc = 0;
    const lf_sum *D = &l->su[d];
    for (uint32_t i = 0; i < D->n && nr < MAXR; i++) {
        row[l->tatom[D->first + i]] = (int32_t)++nr;
        ratom[nr - 1] = l->tatom[D->first + i];
    }
    if (nr == MAXR)
        goto out0;
    for (bool grew = true; grew;) { /* the closure: candidates sharing an atom with d or with one already taken */
        grew = false;
        for (uint32_t j = 0; j < n; j++) {
            if (taken[j] || !w[j] || w[j] > l->nsu)
                continue;
            const lf_sum *W = &l->su[w[j]];
            bool shares = false;
            for (uint32_t i = 0; i < W->n && !shares; i++)
                shares = row[l->tatom[W->first + i]] != 0;
            if (!shares)
                continue;
            if (nc == MAXC)
                goto out0;
            taken[j] = true;
            col[nc++] = j;
            grew = true;
            for (uint32_t i = 0; i < W->n; i++)
                if (!row[l->tatom[W->first + i]]) {
                    if (nr == MAXR)
                        goto out0;
                    row[l->tatom[W->first + i]] = (int32_t)++nr;
                    ratom[nr - 1] = l->tatom[W->first + i];
                }
        }
    }
    /* the system M c = d over the atoms: nr rows, nc unknowns, column nc the right-hand side */
    uint32_t ncol = nc + 1;
    l->range_work += (uint64_t)nr * ncol * (nc < nr ? nc + 1 : nr); /* the elimination's steps */
    mpq_t *M = malloc((size_t)nr * ncol * sizeof *M);
    uint32_t *pivrow = malloc((nc ? nc : 1) * sizeof *pivrow); /* unknown -> its pivot row, UINT32_MAX: free */
    if (!M || !pivrow) {
        free(M);
        free(pivrow);
        res = -1;
        goto out0;
    }
    for (uint32_t r = 0; r < nr; r++) {
        for (uint32_t c = 0; c < nc; c++) {
            mpq_init(M[r * ncol + c]);
            const mpz_t *v = coef_of(l, w[col[c]], ratom[r]);
            if (v)
                mpq_set_z(M[r * ncol + c], *v);
        }
        mpq_init(M[r * ncol + nc]);
        const mpz_t *v = coef_of(l, d, ratom[r]);
        if (v)
            mpq_set_z(M[r * ncol + nc], *v);
    }
    mpq_t t, f;
    mpq_init(t);
    mpq_init(f);
    uint32_t rank = 0;
    for (uint32_t c = 0; c < nc; c++) { /* reduced row echelon form */
        pivrow[c] = UINT32_MAX;
        uint32_t p = rank;
        while (p < nr && mpq_sgn(M[p * ncol + c]) == 0)
            p++;
        if (p == nr)
            continue;
        if (p != rank)
            for (uint32_t q = 0; q < ncol; q++)
                mpq_swap(M[p * ncol + q], M[rank * ncol + q]);
        mpq_inv(f, M[rank * ncol + c]);
        for (uint32_t q = c; q < ncol; q++)
            mpq_mul(M[rank * ncol + q], M[rank * ncol + q], f);
        for (uint32_t r = 0; r < nr; r++) {
            if (r == rank || mpq_sgn(M[r * ncol + c]) == 0)
                continue;
            mpq_set(f, M[r * ncol + c]);
            for (uint32_t q = c; q < ncol; q++) {
                mpq_mul(t, f, M[rank * ncol + q]);
                mpq_sub(M[r * ncol + q], M[r * ncol + q], t);
            }
        }
        pivrow[c] = rank++;
    }
    bool consistent = true;
    for (uint32_t r = rank; r < nr && consistent; r++)
        consistent = mpq_sgn(M[r * ncol + nc]) == 0;
    if (range_debug(1))
        fprintf(stderr, "range: d %u terms, %u rows %u cols rank %u consistent %d\n", D->n, nr, nc, rank, consistent);
    if (consistent && rank < nc && narrow_l1(l, M, ncol, nc, rank, pivrow, w, col) != 0) {
        res = -1;
        consistent = false;
    }
    if (consistent) {
        /* d = (k_d - sum c_j k_j) + sum c_j w_j, each w_j in [lo_j, hi_j] */
        mpq_set_z(lo, D->k);
        for (uint32_t c = 0; c < nc; c++) {
            if (pivrow[c] == UINT32_MAX)
                continue;
            mpq_set_z(t, l->su[w[col[c]]].k);
            mpq_mul(t, t, M[pivrow[c] * ncol + nc]);
            mpq_sub(lo, lo, t);
        }
        mpq_set(hi, lo);
        for (uint32_t c = 0; c < nc; c++) {
            if (pivrow[c] == UINT32_MAX)
                continue;
            const mpq_t *cj = &M[pivrow[c] * ncol + nc];
            const lf_sum *W = &l->su[w[col[c]]];
            mpq_set_z(t, mpq_sgn(*cj) > 0 ? W->lo : W->hi);
            mpq_mul(t, t, *cj);
            mpq_add(lo, lo, t);
            mpq_set_z(t, mpq_sgn(*cj) > 0 ? W->hi : W->lo);
            mpq_mul(t, t, *cj);
            mpq_add(hi, hi, t);
        }
        /* and within d's own bounds */
        mpq_set_z(t, D->lo);
        if (mpq_cmp(t, lo) > 0)
            mpq_set(lo, t);
        mpq_set_z(t, D->hi);
        if (mpq_cmp(t, hi) < 0)
            mpq_set(hi, t);
        res = 1;
        if (range_debug(2))
            for (uint32_t c = 0; c < nc; c++) {
                if (pivrow[c] == UINT32_MAX || mpq_sgn(M[pivrow[c] * ncol + nc]) == 0)
                    continue;
                const mpq_t *cj = &M[pivrow[c] * ncol + nc];
                const lf_sum *W = &l->su[w[col[c]]];
                static char pb[600];
                lf_print(l, w[col[c]], pb, sizeof pb);
                fprintf(stderr, "   c %s%zu/%zu bits, w [%zu..%zu bits] %s\n", mpq_sgn(*cj) < 0 ? "-" : "",
                        mpz_sizeinbase(mpq_numref(*cj), 2), mpz_sizeinbase(mpq_denref(*cj), 2),
                        mpz_sizeinbase(W->lo, 2), mpz_sizeinbase(W->hi, 2), pb);
            }
        if (range_debug(1)) {
            mpz_t zl, zh;
            mpz_init(zl);
            mpz_init(zh);
            mpz_fdiv_q(zl, mpq_numref(lo), mpq_denref(lo));
            mpz_fdiv_q(zh, mpq_numref(hi), mpq_denref(hi));
            fprintf(stderr, "range: interval [%s%zu bits, %s%zu bits]\n", mpz_sgn(zl) < 0 ? "-" : "",
                    mpz_sizeinbase(zl, 2), mpz_sgn(zh) < 0 ? "-" : "", mpz_sizeinbase(zh, 2));
            mpz_clear(zl);
            mpz_clear(zh);
        }
    }
    mpq_clear(t);
    mpq_clear(f);
    free(pivrow);
    for (size_t i = 0; i < (size_t)nr * ncol; i++)
        mpq_clear(M[i]);
    free(M);
out0:
    free(row);
    free(ratom);
    free(col);
    free(taken);
    return res;
}

/* in_unit — -1 < lo and hi < 1 */
static bool in_unit(const mpq_t lo, const mpq_t hi)
{
    mpq_t x;
    mpq_init(x);
    mpq_set_si(x, -1, 1);
    bool in = mpq_cmp(lo, x) > 0;
    mpq_set_si(x, 1, 1);
    in = in && mpq_cmp(hi, x) < 0;
    mpq_clear(x);
    return in;
}

int lf_range_equal(lf_ctx *l, lf_id a, lf_id b, const lf_id *w, uint32_t n)
{
    if (!a || !b || l->oom)
        return 0;
    if (a == b)
        return 1;
    bld bd;
    b_init(&bd);
    b_sum1(l, &bd, a, 1);
    b_sum1(l, &bd, b, -1);
    lf_id d = b_finish(l, &bd); /* D = a - b */
    if (!d)
        return -1;
    if (range_debug(3)) {
        static char pb[20000];
        lf_print(l, d, pb, sizeof pb);
        fprintf(stderr, "  D = %s\n", pb);
    }
    mpq_t lo, hi;
    mpq_init(lo);
    mpq_init(hi);
    int res = 0;
    for (int pass = 0; pass < 2 && res == 0; pass++) {
        if (pass == 1) {
            /* each floor (or sign) atom of D whose operand the candidates bound inside one step is that constant:
             * floor(X / 2^k) = q when X lies in [q 2^k, (q + 1) 2^k); -[X < 0] = 0 when X >= 0, -1 when X < 0 */
            bld nb;
            b_init(&nb);
            b_sum1(l, &nb, d, 1);
            const lf_sum *D = &l->su[d];
            bool changed = false;
            mpz_t zl, zh;
            mpz_init(zl);
            mpz_init(zh);
            for (uint32_t i = 0; i < l->su[d].n && res >= 0; i++) {
                uint32_t at = l->tatom[D->first + i];
                const lf_atom *t = &l->at[at];
                if (t->kind != LA_FLOOR && t->kind != LA_SIGN)
                    continue;
                if (range_debug(1)) {
                    const lf_sum *X = &l->su[t->a[0]];
                    fprintf(stderr, "range: floor atom @%u kind %u k %u: operand bounds %d%zu .. %d%zu bits\n", at,
                            t->kind, (unsigned)t->k, mpz_sgn(X->lo), mpz_sizeinbase(X->lo, 2), mpz_sgn(X->hi),
                            mpz_sizeinbase(X->hi, 2));
                }
                if (range_debug(2))
                    debug_sample(l, t->a[0]);
                int rr = range_of(l, t->a[0], w, n, lo, hi);
                D = &l->su[d]; /* (range_of may grow nothing, but stay safe) */
                if (rr < 0) {
                    res = -1;
                    break;
                }
                if (rr == 0)
                    continue;
                /* X is an integer in [ceil(lo), floor(hi)], and within its own bounds */
                mpz_cdiv_q(zl, mpq_numref(lo), mpq_denref(lo));
                mpz_fdiv_q(zh, mpq_numref(hi), mpq_denref(hi));
                if (mpz_cmp(zl, l->su[t->a[0]].lo) < 0)
                    mpz_set(zl, l->su[t->a[0]].lo);
                if (mpz_cmp(zh, l->su[t->a[0]].hi) > 0)
                    mpz_set(zh, l->su[t->a[0]].hi);
                if (t->kind == LA_FLOOR) {
                    mpz_fdiv_q_2exp(zl, zl, (mp_bitcnt_t)t->k);
                    mpz_fdiv_q_2exp(zh, zh, (mp_bitcnt_t)t->k);
                } else {
                    mpz_set_si(zl, mpz_sgn(zl) < 0 ? -1 : 0);
                    mpz_set_si(zh, mpz_sgn(zh) < 0 ? -1 : 0);
                }
                if (mpz_cmp(zl, zh) != 0)
                    continue;
                /* D - c (atom - q) */
                mpz_t mc;
                mpz_init(mc);
                mpz_neg(mc, l->tcoef[D->first + i]);
                b_term(&nb, at, mc);
                mpz_neg(mc, mc);
                mpz_addmul(nb.k, mc, zl);
                mpz_clear(mc);
                changed = true;
                if (range_debug(1))
                    fprintf(stderr, "range: atom @%u decided\n", at);
            }
            mpz_clear(zl);
            mpz_clear(zh);
            if (res < 0 || !changed) {
                b_clear(&nb);
                break;
            }
            d = b_finish(l, &nb);
            if (!d) {
                res = -1;
                break;
            }
            if (l->su[d].n == 0) {
                res = mpz_sgn(l->su[d].k) == 0 ? 1 : 0;
                break;
            }
        }
        int rr = range_of(l, d, w, n, lo, hi);
        if (rr < 0)
            res = -1;
        else if (rr == 1 && in_unit(lo, hi))
            res = 1;
    }
    mpq_clear(lo);
    mpq_clear(hi);
    return res;
}

/* ---- evaluation (self-test) -------------------------------------------------------------------------------------- */
static void eval_sum(const lf_ctx *l, lf_id s, mpz_t *av, mpz_t out)
{
    const lf_sum *S = &l->su[s];
    mpz_set(out, S->k);
    for (uint32_t i = 0; i < S->n; i++)
        mpz_addmul(out, l->tcoef[S->first + i], av[l->tatom[S->first + i]]);
}

/* eval_atoms — every atom's value for the inputs in[arr][limb] into av[1..nat] (atoms in id order: an atom's
 * operand sums refer only to older atoms) */
static void eval_atoms(const lf_ctx *l, const uint64_t *const *in, mpz_t *av)
{
    mpz_t s1, s2, s3;
    mpz_init(s1);
    mpz_init(s2);
    mpz_init(s3);
    for (uint32_t i = 1; i <= l->nat; i++) {
        const lf_atom *t = &l->at[i];
        switch (t->kind) {
        case LA_INPUT: mpz_set_ui(av[i], in[(uint32_t)(t->k >> 32)][(uint32_t)t->k]); break;
        case LA_MULLO:
        case LA_MULHI:
            eval_sum(l, t->a[0], av, s1);
            eval_sum(l, t->a[1], av, s2);
            mpz_mul(s3, s1, s2);
            if (t->kind == LA_MULLO)
                mpz_fdiv_r_2exp(av[i], s3, 64);
            else
                mpz_fdiv_q_2exp(av[i], s3, 64);
            break;
        case LA_FLOOR:
            eval_sum(l, t->a[0], av, s1);
            mpz_fdiv_q_2exp(av[i], s1, (mp_bitcnt_t)t->k);
            break;
        case LA_AND:
        case LA_OR:
        case LA_XOR:
            eval_sum(l, t->a[0], av, s1);
            eval_sum(l, t->a[1], av, s2);
            if (t->kind == LA_AND)
                mpz_and(av[i], s1, s2);
            else if (t->kind == LA_OR)
                mpz_ior(av[i], s1, s2);
            else
                mpz_xor(av[i], s1, s2);
            break;
        case LA_EQZ:
            eval_sum(l, t->a[0], av, s1);
            mpz_set_ui(av[i], mpz_sgn(s1) == 0);
            break;
        case LA_SIGN:
            eval_sum(l, t->a[0], av, s1);
            mpz_set_si(av[i], mpz_sgn(s1) < 0 ? -1 : 0);
            break;
        case LA_SELECT:
            eval_sum(l, t->a[0], av, s1);
            eval_sum(l, t->a[mpz_sgn(s1) == 0 ? 1 : 2], av, av[i]);
            break;
        case LA_QDIG:
            eval_sum(l, t->a[0], av, s1);
            mpz_import(s2, 1, -1, sizeof t->k, 0, 0, &t->k);
            mpz_mul(s1, s1, s2);
            mpz_fdiv_r_2exp(av[i], s1, 64);
            break;
        case LA_EXQ: /* (lf_check_eval checks that the division is exact) */
            eval_sum(l, t->a[0], av, s1);
            mpz_fdiv_q_2exp(av[i], s1, (mp_bitcnt_t)t->k);
            break;
        default: break;
        }
    }
    mpz_clear(s1);
    mpz_clear(s2);
    mpz_clear(s3);
}

/* debug_sample — prints the bit length of sum s's value on a few random inputs (each input atom uniform within
 * its bounds' bit length; a debugging aid, ECOPT_RANGE_DEBUG=2) */
static void debug_sample(const lf_ctx *l, lf_id s)
{
    static uint64_t buf[16][64];
    const uint64_t *in[16];
    for (int i = 0; i < 16; i++)
        in[i] = buf[i];
    mpz_t *av = malloc((l->nat + 1) * sizeof *av), v;
    if (!av)
        return;
    for (uint32_t i = 0; i <= l->nat; i++)
        mpz_init(av[i]);
    mpz_init(v);
    uint64_t st = 88172645463325252ull;
    fprintf(stderr, "range: samples:");
    for (int it = 0; it < 8; it++) {
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 64; j++) {
                st ^= st << 13;
                st ^= st >> 7;
                st ^= st << 17;
                buf[i][j] = st;
            }
        for (uint32_t i = 1; i <= l->nat; i++)
            if (l->at[i].kind == LA_INPUT && mpz_sizeinbase(l->at[i].hi, 2) < 64)
                buf[l->at[i].k >> 32][(uint32_t)l->at[i].k] &= ((uint64_t)1 << mpz_sizeinbase(l->at[i].hi, 2)) - 1;
        eval_atoms(l, in, av);
        eval_sum(l, s, av, v);
        fprintf(stderr, " %s%zu", mpz_sgn(v) < 0 ? "-" : "", mpz_sizeinbase(v, 2));
    }
    fprintf(stderr, "\n");
    for (uint32_t i = 0; i <= l->nat; i++)
        mpz_clear(av[i]);
    free(av);
    mpz_clear(v);
}

int lf_check_eval(lf_ctx *l, const ex_id *e, uint32_t n, const uint64_t *const *in, const ir_u128 *ev, ex_id *bad)
{
    for (uint32_t q = 0; q < n; q++) /* translate first: evaluation covers the atoms that exist */
        (void)lf_of(l, e[q]);
    /* atoms in id order: an atom's operand sums refer only to older atoms */
    mpz_t *av = malloc((l->nat + 1) * sizeof *av);
    if (!av)
        return -1;
    mpz_t s1, s2, s3;
    mpz_init(s1);
    mpz_init(s2);
    mpz_init(s3);
    for (uint32_t i = 0; i <= l->nat; i++)
        mpz_init(av[i]);
    eval_atoms(l, in, av);
    int rc = 0;
    for (uint32_t i = 1; i <= l->nat && rc == 0; i++) { /* every atom within its bounds, every exact quotient exact */
        if (mpz_cmp(av[i], l->at[i].lo) < 0 || mpz_cmp(av[i], l->at[i].hi) > 0)
            rc = 1;
        if (l->at[i].kind == LA_EXQ) {
            eval_sum(l, l->at[i].a[0], av, s1);
            if (!mpz_divisible_2exp_p(s1, (mp_bitcnt_t)l->at[i].k))
                rc = 1;
        }
        if (rc)
            *bad = 0;
    }
    for (uint32_t q = 0; q < n && rc == 0; q++) {
        lf_id s = lf_of(l, e[q]);
        if (!s)
            continue;
        eval_sum(l, s, av, s1);
        set_u128(s2, ev[e[q]]);
        if (mpz_cmp(s1, s2) != 0 || mpz_cmp(s1, l->su[s].lo) < 0 || mpz_cmp(s1, l->su[s].hi) > 0) {
            rc = 1;
            *bad = e[q];
        }
    }
    for (uint32_t i = 0; i <= l->nat; i++)
        mpz_clear(av[i]);
    free(av);
    mpz_clear(s1);
    mpz_clear(s2);
    mpz_clear(s3);
    return rc;
}

/* ---- printing ---------------------------------------------------------------------------------------------------- */
static void lf_put(char *buf, size_t len, size_t *pos, const char *s)
{
    size_t n = strlen(s);
    if (*pos + n + 4 >= len) {
        if (*pos + 4 < len) {
            memcpy(buf + *pos, "...", 4);
            *pos += 3;
        }
        *pos = len;
        return;
    }
    memcpy(buf + *pos, s, n + 1);
    *pos += n;
}

static void print_sum(const lf_ctx *l, lf_id s, char *buf, size_t len, size_t *pos, int depth);

static void print_atom(const lf_ctx *l, uint32_t a, char *buf, size_t len, size_t *pos, int depth)
{
    static const char *const nm[] = { "x", "lo", "hi", "fl", "and", "or", "xor", "eqz", "sel", "sign", "qd", "exq" };
    const lf_atom *t = &l->at[a];
    char tmp[64];
    if (t->kind == LA_INPUT) {
        snprintf(tmp, sizeof tmp, "x%u_%u", (unsigned)(t->k >> 32), (unsigned)t->k);
        lf_put(buf, len, pos, tmp);
        return;
    }
    if (depth > 6) {
        snprintf(tmp, sizeof tmp, "@%u", a);
        lf_put(buf, len, pos, tmp);
        return;
    }
    snprintf(tmp, sizeof tmp, "%s%s", nm[t->kind], t->kind == LA_FLOOR ? "" : "(");
    if (t->kind == LA_FLOOR)
        snprintf(tmp, sizeof tmp, "fl%u(", (unsigned)t->k);
    if (t->kind == LA_EXQ)
        snprintf(tmp, sizeof tmp, "exq%u(", (unsigned)t->k);
    if (t->kind == LA_QDIG)
        snprintf(tmp, sizeof tmp, "qd%llx(", (unsigned long long)t->k);
    lf_put(buf, len, pos, tmp);
    for (unsigned i = 0; i < t->na; i++) {
        if (i)
            lf_put(buf, len, pos, ", ");
        print_sum(l, t->a[i], buf, len, pos, depth + 1);
    }
    lf_put(buf, len, pos, ")");
}

static void print_sum(const lf_ctx *l, lf_id s, char *buf, size_t len, size_t *pos, int depth)
{
    const lf_sum *S = &l->su[s];
    bool first = true;
    if (S->n != 1 || mpz_sgn(S->k) || mpz_cmp_ui(l->tcoef[S->first], 1))
        lf_put(buf, len, pos, "[");
    for (uint32_t i = 0; i < S->n; i++) {
        const mpz_t *c = &l->tcoef[S->first + i];
        if (mpz_cmp_ui(*c, 1) != 0) {
            char *cs = mpz_get_str(NULL, 16, *c);
            lf_put(buf, len, pos, first ? "" : " ");
            lf_put(buf, len, pos, cs);
            lf_put(buf, len, pos, "*");
            free(cs);
        } else if (!first)
            lf_put(buf, len, pos, " + ");
        print_atom(l, l->tatom[S->first + i], buf, len, pos, depth);
        first = false;
    }
    if (mpz_sgn(S->k)) {
        char *cs = mpz_get_str(NULL, 16, S->k);
        lf_put(buf, len, pos, " #");
        lf_put(buf, len, pos, cs);
        free(cs);
    }
    if (S->n != 1 || mpz_sgn(S->k) || mpz_cmp_ui(l->tcoef[S->first], 1))
        lf_put(buf, len, pos, "]");
}

void lf_print(const lf_ctx *l, lf_id s, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = 0;
    size_t pos = 0;
    if (s && s <= l->nsu)
        print_sum(l, s, buf, len, &pos, 0);
    buf[len - 1] = 0;
}

/* atom_bits — "{lo..hi: operand lo..hi}" as signed bit lengths (debugging aid; a static buffer) */
static const char *atom_bits(const lf_ctx *l, uint32_t a)
{
    static char out[160];
    const lf_atom *t = &l->at[a];
    long v[6] = { 0, 0, 0, 0, 0, 0 };
    const mpz_t *z[6] = { &t->lo, &t->hi, NULL, NULL, NULL, NULL };
    for (unsigned i = 0; i < t->na && i < 2; i++) {
        z[2 + 2 * i] = &l->su[t->a[i]].lo;
        z[3 + 2 * i] = &l->su[t->a[i]].hi;
    }
    for (int i = 0; i < 6; i++)
        if (z[i])
            v[i] = mpz_sgn(*z[i]) * (long)(mpz_sgn(*z[i]) ? mpz_sizeinbase(*z[i], 2) : 0);
    if (t->na >= 2)
        snprintf(out, sizeof out, "{%ld..%ld bits; operands %ld..%ld, %ld..%ld} ", v[0], v[1], v[2], v[3], v[4], v[5]);
    else
        snprintf(out, sizeof out, "{%ld..%ld bits; operand %ld..%ld} ", v[0], v[1], v[2], v[3]);
    return out;
}

/* lf_diff — the terms in which sums a and b differ; where exactly one atom differs on each side and both are of
 * one kind, it descends into the first differing operand pair (a debugging aid). */
void lf_diff(const lf_ctx *l, lf_id a, lf_id b, char *buf, size_t len)
{
    size_t pos = 0;
    buf[0] = 0;
    /* ECOPT_CHECK_EXPLAIN=N prints N levels of each differing term (1 to 3; other values: 3) */
    const char *ev = getenv("ECOPT_CHECK_EXPLAIN");
    int lv = ev ? atoi(ev) : 3;
    if (lv < 1 || lv > 3)
        lv = 3;
    if (getenv("ECOPT_CHECK_ATOMS")) { /* ECOPT_CHECK_ATOMS=ID,ID,...: those atoms and their bounds first */
        const char *p = getenv("ECOPT_CHECK_ATOMS");
        while (*p) {
            char *e;
            unsigned long id = strtoul(p, &e, 10);
            if (e == p) break;
            p = *e ? e + 1 : e;
            if (id == 0 || id > l->nat) continue;
            char tmp[128];
            snprintf(tmp, sizeof tmp, "\n  atom @%lu %s", id, atom_bits(l, (uint32_t)id));
            lf_put(buf, len, &pos, tmp);
            print_atom(l, (uint32_t)id, buf, len, &pos, 5);
        }
    }
    for (int depth = 0; depth < 40; depth++) {
        const lf_sum *A = &l->su[a], *B = &l->su[b];
        uint32_t onlya[64], onlyb[64], na = 0, nb = 0;
        uint32_t i = 0, j = 0;
        while (i < A->n || j < B->n) {
            uint32_t ta = i < A->n ? l->tatom[A->first + i] : UINT32_MAX;
            uint32_t tb = j < B->n ? l->tatom[B->first + j] : UINT32_MAX;
            if (ta == tb) {
                if (mpz_cmp(l->tcoef[A->first + i], l->tcoef[B->first + j]) != 0) {
                    if (na < 64) onlya[na++] = A->first + i;
                    if (nb < 64) onlyb[nb++] = B->first + j;
                }
                i++, j++;
            } else if (ta < tb) {
                if (na < 64) onlya[na++] = A->first + i;
                i++;
            } else {
                if (nb < 64) onlyb[nb++] = B->first + j;
                j++;
            }
        }
        char tmp[96];
        char *ka = mpz_get_str(NULL, 16, A->k), *kb = mpz_get_str(NULL, 16, B->k);
        snprintf(tmp, sizeof tmp, "\n-- depth %d: A %u terms #%s, B %u terms #%s", depth, A->n, ka, B->n, kb);
        free(ka);
        free(kb);
        lf_put(buf, len, &pos, tmp);
        if (na == 1 && nb == 1 && l->tatom[onlya[0]] != l->tatom[onlyb[0]] &&
            mpz_cmp(l->tcoef[onlya[0]], l->tcoef[onlyb[0]]) == 0) {
            const lf_atom *x = &l->at[l->tatom[onlya[0]]], *y = &l->at[l->tatom[onlyb[0]]];
            if (x->kind == y->kind && x->k == y->k && x->na == y->na) {
                unsigned q = 0;
                while (q < x->na && x->a[q] == y->a[q])
                    q++;
                if (q < x->na) {
                    snprintf(tmp, sizeof tmp, " -> atom kind %u k %u operand %u", x->kind, (unsigned)x->k, q);
                    lf_put(buf, len, &pos, tmp);
                    a = x->a[q];
                    b = y->a[q];
                    continue;
                }
            }
        }
        if (na == 1 && nb == 1) { /* show both operand sums, one level */
            const lf_atom *x = &l->at[l->tatom[onlya[0]]], *y = &l->at[l->tatom[onlyb[0]]];
            if (x->na == 1 && y->na == 1) {
                const lf_sum *X = &l->su[x->a[0]], *Y = &l->su[y->a[0]];
                for (int side = 0; side < 2; side++) {
                    const lf_sum *Z = side ? Y : X;
                    char *lo = mpz_get_str(NULL, 10, Z->lo), *hi = mpz_get_str(NULL, 10, Z->hi);
                    snprintf(tmp, sizeof tmp, "\n  %s operand [%s .. %s]:", side ? "B" : "A", lo, hi);
                    free(lo);
                    free(hi);
                    lf_put(buf, len, &pos, tmp);
                    const lf_sum *O = side ? X : Z == X ? Y : X;
                    for (uint32_t q = 0; q < Z->n; q++) {
                        bool common = false;
                        for (uint32_t w = 0; w < O->n && !common; w++)
                            common = l->tatom[O->first + w] == l->tatom[Z->first + q] &&
                                     !mpz_cmp(l->tcoef[O->first + w], l->tcoef[Z->first + q]);
                        if (common)
                            continue;
                        const lf_atom *u = &l->at[l->tatom[Z->first + q]];
                        char *cs = mpz_get_str(NULL, 16, l->tcoef[Z->first + q]);
                        char *ul = mpz_get_str(NULL, 10, u->lo), *uh = mpz_get_str(NULL, 16, u->hi);
                        snprintf(tmp, sizeof tmp, "\n     %s * @%u kind %u [%s..%s] ", cs, l->tatom[Z->first + q], u->kind, ul, uh);
                        free(cs);
                        free(ul);
                        free(uh);
                        lf_put(buf, len, &pos, tmp);
                        print_atom(l, l->tatom[Z->first + q], buf, len, &pos, 5);
                    }
                    char *ks = mpz_get_str(NULL, 16, Z->k);
                    lf_put(buf, len, &pos, "\n     const ");
                    lf_put(buf, len, &pos, ks);
                    free(ks);
                }
            }
        }
        for (uint32_t q = 0; q < na; q++) {
            char *cs = mpz_get_str(NULL, 16, l->tcoef[onlya[q]]);
            lf_put(buf, len, &pos, "\n  A: ");
            lf_put(buf, len, &pos, cs);
            free(cs);
            snprintf(tmp, sizeof tmp, " * @%u %s", l->tatom[onlya[q]], atom_bits(l, l->tatom[onlya[q]]));
            lf_put(buf, len, &pos, tmp);
            print_atom(l, l->tatom[onlya[q]], buf, len, &pos, 7 - lv);
        }
        for (uint32_t q = 0; q < nb; q++) {
            char *cs = mpz_get_str(NULL, 16, l->tcoef[onlyb[q]]);
            lf_put(buf, len, &pos, "\n  B: ");
            lf_put(buf, len, &pos, cs);
            free(cs);
            snprintf(tmp, sizeof tmp, " * @%u %s", l->tatom[onlyb[q]], atom_bits(l, l->tatom[onlyb[q]]));
            lf_put(buf, len, &pos, tmp);
            print_atom(l, l->tatom[onlyb[q]], buf, len, &pos, 7 - lv);
        }
        break;
    }
    if (len)
        buf[len - 1] = 0;
}

/* cut_entry — a node of a limb's two cones with its exact form, sorted by form to find the classes */
typedef struct {
    lf_id form;
    ex_id id;
} cut_entry;

static int cut_entry_cmp(const void *p, const void *q)
{
    const cut_entry *a = p, *b = q;
    if (a->form != b->form)
        return a->form < b->form ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* lf_cut_classes — lf.h: the forms both cones share, as cut-point classes */
int lf_cut_classes(lf_ctx *l, ex_id ce, ex_id pe, uint32_t *cls, uint8_t *width, ir_u128 *lo, ir_u128 *hi,
                   ex_id *members, uint32_t *nmem)
{
    const ex_ctx *x = l->x;
    uint32_t cnt = ex_count(x);
    uint8_t *in = calloc((size_t)cnt + 1, 1), *vin = NULL; /* bit 0: under pe, bit 1: under ce */
    cut_entry *e = malloc(((size_t)cnt + 1) * sizeof *e), *pair = NULL;
    int ncls = -1;
    *nmem = 0;
    if (!in || !e)
        goto out;
    memset(cls, 0, ((size_t)cnt + 1) * sizeof *cls);
    in[pe] |= 1;
    in[ce] |= 2;
    for (ex_id v = cnt; v >= 1; v--) { /* operands have smaller ids */
        if (!in[v])
            continue;
        const ex_node *n = ex_get(x, v);
        const ex_arg *a = ex_args(x, v);
        for (uint32_t i = 0; i < n->nargs; i++)
            in[a[i].id] |= in[v];
    }
    /* a sum C outside a cone whose terms all occur in a sum S of the cone (a word the normal form flattened into S:
     * smt.c's resum can find it there) counts as in S's cone for its form's sides: vin */
    uint32_t npair = 0;
    for (ex_id v = 1; v <= cnt; v++)
        if (in[v] && ex_get(x, v)->kind == EX_SUM && ex_get(x, v)->nargs >= 2)
            npair += ex_get(x, v)->nargs;
    vin = calloc((size_t)cnt + 1, 1);
    pair = malloc(((size_t)npair + 1) * sizeof *pair);
    if (!vin || !pair)
        goto out;
    npair = 0;
    for (ex_id v = 1; v <= cnt; v++) {
        const ex_node *n = ex_get(x, v);
        const ex_arg *a = ex_args(x, v);
        for (uint32_t i = 0; in[v] && n->kind == EX_SUM && n->nargs >= 2 && i < n->nargs; i++) {
            pair[npair].form = a[i].id; /* (term, sum) pairs, sorted by term */
            pair[npair++].id = v;
        }
    }
    qsort(pair, npair, sizeof *pair, cut_entry_cmp);
    for (ex_id c = 1; c <= cnt; c++) {
        const ex_node *cn = ex_get(x, c);
        const ex_arg *ca = ex_args(x, c);
        if (cn->kind != EX_SUM || cn->nargs < 2 || in[c] == 3 || cn->unknown)
            continue;
        uint32_t lo_i = 0, hi_i = npair; /* the first pair of term ca[0] */
        while (lo_i < hi_i) {
            uint32_t mid = (lo_i + hi_i) / 2;
            if (pair[mid].form < ca[0].id)
                lo_i = mid + 1;
            else
                hi_i = mid;
        }
        for (uint32_t q = lo_i; q < npair && pair[q].form == ca[0].id; q++) {
            ex_id sv = pair[q].id;
            const ex_node *sn = ex_get(x, sv);
            if (sv == c || (in[sv] & ~(in[c] | vin[c])) == 0 || (cn->width < sn->width && cn->wraps) ||
                cn->nargs > sn->nargs)
                continue;
            bool all = true;
            for (uint32_t i = 1; i < cn->nargs && all; i++) {
                const ex_arg *sa = ex_args(x, sv);
                int lo2 = 0, hi2 = (int)sn->nargs - 1;
                all = false;
                while (lo2 <= hi2 && !all) {
                    int mid = (lo2 + hi2) / 2;
                    if (sa[mid].id == ca[i].id)
                        all = true;
                    else if (sa[mid].id < ca[i].id)
                        lo2 = mid + 1;
                    else
                        hi2 = mid - 1;
                }
            }
            if (all)
                vin[c] |= in[sv];
        }
    }
    uint32_t ne = 0;
    for (ex_id v = 1; v <= cnt; v++) {
        const ex_node *n = ex_get(x, v);
        if (!(in[v] | vin[v]) || n->kind == EX_CONST || n->kind == EX_INPUT || n->unknown)
            continue;
        lf_id f = lf_of(l, v);
        if (!f || lf_sum_is_const(l, f))
            continue;
        e[ne].form = f;
        e[ne++].id = v;
    }
    qsort(e, ne, sizeof *e, cut_entry_cmp);
    ncls = 0;
    for (uint32_t i = 0; i < ne;) {
        uint32_t k = i;
        uint8_t sides = 0;
        while (k < ne && e[k].form == e[i].form) {
            sides |= in[e[k].id] | vin[e[k].id];
            k++;
        }
        if (sides == 3) {
            uint32_t c = (uint32_t)ncls + 1;
            width[c] = 0;
            lo[c] = 0;
            hi[c] = ~(ir_u128)0;
            for (uint32_t q = i; q < k; q++) {
                const ex_node *n = ex_get(x, e[q].id);
                if (n->width > width[c])
                    width[c] = n->width;
                if (n->lo > lo[c])
                    lo[c] = n->lo;
                if (n->hi < hi[c])
                    hi[c] = n->hi;
            }
            if (lo[c] <= hi[c]) { /* else the intervals contradict the forms: a checker bug; no class */
                ncls++;
                for (uint32_t q = i; q < k; q++) {
                    cls[e[q].id] = c;
                    members[(*nmem)++] = e[q].id;
                }
            }
        }
        i = k;
    }
out:
    free(in);
    free(vin);
    free(pair);
    free(e);
    return ncls;
}
