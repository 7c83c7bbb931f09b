/* gen_mont.c — word-by-word Montgomery arithmetic, R = 2^(64n), values x*R mod p held as n 64-bit words below p.
 *
 * Multiplication is CIOS (coarsely integrated operand scanning): C. K. Koc, T. Acar, B. S. Kaliski Jr.,
 * "Analyzing and Comparing Montgomery Multiplication Algorithms", IEEE Micro 16(3), 1996, section 4 (CIOS): for each
 * word b_i, T += a*b_i; m = T_0 * m' mod 2^64 with m' = -p^-1 mod 2^64; T = (T + m*p) / 2^64. Starting from T = 0
 * with a < p and b_i < 2^64, T stays below 2p (T <= (T + (p-1)(2^64-1) + (2^64-1)p) / 2^64), so one conditional
 * subtraction at the end gives a*b*R^-1 mod p < p. Where 2p > R (P-256, secp256k1) T keeps an extra word; the
 * multi-word helpers (gen_util.c) size every sum from its proven maximum, so no carry that can be set is dropped.
 * The conditional subtraction is a subborrowx chain and a cmovznz per word on the final borrow (no branch);
 * subtraction adds p masked by the borrow (P. L. Montgomery, "Modular multiplication without trial division",
 * Math. Comp. 44, 1985, for the reduction itself). Only mulx, addcarryx, subborrowx, cmovznz and `&` are used. */
#include <stdio.h>
#include <string.h>

#include "gen/gen_internal.h"

typedef struct {
    unsigned n;
    uint64_t pw[GEN_MAXN];   /* words of p */
    uint64_t r2[GEN_MAXN];   /* words of R^2 mod p */
    uint64_t mprime;         /* -p^-1 mod 2^64 */
    mpz_t p, pm1, w64;       /* p, p - 1, 2^64 - 1 */
    /* montgomery-sparse: T + m*p as T' + m*K with K = p, or K = (p + 1) / 2^64 and T' = floor(T / 2^64) when
     * p = -1 mod 2^64 (drop0); K = sum of gw[j] 2^(64 gj[j]) (mulx words) + sum of sd[i] 2^se[i] (signed digits). */
    bool sparse, drop0;
    unsigned ng, nd, nmd;
    unsigned gj[GEN_MW];
    uint64_t gw[GEN_MW];
    int sd[2 * 64 * GEN_MW];
    unsigned se[2 * 64 * GEN_MW];
    int md[64];              /* m' = sum md[i] 2^me[i] mod 2^64 when nmd > 0 (m = T_0 m' by shifts) */
    unsigned me[64];
} mont;

static void words_of_mpz(const mpz_t x, unsigned n, uint64_t *out)
{
    mpz_t t;
    mpz_init(t);
    for (unsigned i = 0; i < n; i++) {
        mpz_tdiv_q_2exp(t, x, 64 * i);
        mpz_fdiv_r_2exp(t, t, 64);
        out[i] = (uint64_t)mpz_get_ui(t);
    }
    mpz_clear(t);
}

/* ---- montgomery-sparse: m*p by shifts and subtractions ----------------------------------------------------------
 * The form of p decides the work, as in the NIST primes' special reductions: P-256 is 2^256 - 2^224 + 2^192 + 2^96
 * - 1 (FIPS 186-4 D.1.2.3, NIST SP 800-186 3.2.1.3), so m*p is a few shifted copies of m added and subtracted, no
 * multiplication. Two facts from S. Gueron and V. Krasnov, "Fast prime field elliptic-curve cryptography with
 * 256-bit primes", J. Cryptographic Engineering 5(2), 2015, section 4 (Montgomery reduction for P-256):
 *   - p = -1 mod 2^64 gives m' = 1, so the quotient digit m is T_0 itself, and then
 *     T + m*p = (T - T_0) + m*(p + 1), whose low word is 0 with no carry: the round is
 *     T' = floor(T / 2^64) + m*(p + 1)/2^64, and (p + 1)/2^64 = 2^192 - 2^160 + 2^128 + 2^32 for P-256;
 *   - a product m * 2^e is two words, (m << s) mod 2^64 at word e/64 and m >> (64 - s) at the next (s = e mod 64).
 * In general K (p, or (p + 1)/2^64) is split: a word of K whose signed-digit (NAF) weight exceeds SPARSE_MAXW is
 * multiplied by mulx; the rest of K is written in non-adjacent form (digits +-1, at most half the bits non-zero,
 * the minimal weight: Reitwiesner 1960), each digit a shifted copy of m. The copies that do not overlap (different
 * words, or disjoint bits of one word, joined by `|`) form one addend, so P-256's round is one addcarryx chain
 * (m<<32 | m>>32 | m | m over four words) and one subborrowx chain (m<<32, m>>32 at words 2 and 3). Addends of one
 * sign are summed first (short chains), the positive sum is added to T, then the negative sum subtracted: T + m*p
 * is never negative, so that last chain needs no word above the result's maximum. The same shifts
 * compute m = T_0 m' mod 2^64 when m' has weight at most 2 (P-384: m' = 2^32 + 1). The result is T + m*p over
 * 2^64 exactly as in `montgomery`, so the two methods compute the same function. */
enum { SPARSE_MAXW = 3 };

/* The non-adjacent form of x >= 0: x = sum d[i] 2^e[i], d = +-1; returns the count. */
static unsigned naf(const mpz_t x, int *d, unsigned *e, unsigned cap)
{
    mpz_t t;
    mpz_init_set(t, x);
    unsigned nd = 0;
    for (unsigned bit = 0; mpz_sgn(t) != 0; bit++) {
        if (mpz_odd_p(t)) {
            int di = mpz_fdiv_ui(t, 4) == 1 ? 1 : -1;
            if (di > 0)
                mpz_sub_ui(t, t, 1);
            else
                mpz_add_ui(t, t, 1);
            if (nd < cap) {
                d[nd] = di;
                e[nd] = bit;
            }
            nd++;
        }
        mpz_tdiv_q_2exp(t, t, 1);
    }
    mpz_clear(t);
    return nd;
}

static unsigned naf_weight_u64(uint64_t w)
{
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(t, (unsigned long)w);
    unsigned nw = naf(t, NULL, NULL, 0);
    mpz_clear(t);
    return nw;
}

/* The plan of a sparse reduction round (mo->p, mo->mprime set). */
static void sparse_plan(mont *mo)
{
    mpz_t K, t, w;
    mpz_inits(K, t, w, NULL);
    mo->drop0 = mo->pw[0] == UINT64_MAX;
    mpz_set(K, mo->p);
    if (mo->drop0) {
        mpz_add_ui(K, K, 1);
        mpz_tdiv_q_2exp(K, K, 64);
    }
    unsigned kw = (unsigned)((mpz_sizeinbase(K, 2) + 63) / 64);
    mo->ng = 0;
    mpz_set(t, K);
    for (unsigned j = 0; j < kw; j++) {
        mpz_tdiv_q_2exp(w, K, 64 * j);
        mpz_fdiv_r_2exp(w, w, 64);
        uint64_t v = (uint64_t)mpz_get_ui(w);
        if (v == 0 || naf_weight_u64(v) <= SPARSE_MAXW)
            continue;
        mo->gj[mo->ng] = j;
        mo->gw[mo->ng++] = v;
        mpz_mul_2exp(w, w, 64 * j);
        mpz_sub(t, t, w); /* the sparse rest of K */
    }
    mo->nd = naf(t, mo->sd, mo->se, sizeof mo->sd / sizeof mo->sd[0]);
    mo->nmd = 0;
    if (mo->mprime != 1) {
        mpz_set_ui(t, (unsigned long)mo->mprime);
        unsigned nw = naf(t, mo->md, mo->me, 64);
        unsigned keep = 0;
        for (unsigned i = 0; i < nw && i < 64; i++)
            if (mo->me[i] < 64) /* a digit 2^64 vanishes mod 2^64 */
                mo->md[keep] = mo->md[i], mo->me[keep++] = mo->me[i];
        mo->nmd = keep <= 2 ? keep : 0;
    }
    mpz_clears(K, t, w, NULL);
}

/* (x << s) mod 2^64 for 0 < s < 64: the bits that stay, masked first (a `<<` may not lose bits), then shifted. */
static ir_val shl_low(gen_b *b, ir_val x, unsigned s)
{
    ir_val lo = gb_op2(b, IR_AND, 64, x, gb_k64(b, UINT64_MAX >> s));
    return gb_op2(b, IR_SHL, 64, lo, gb_k64(b, s));
}

/* m = T_0 m' mod 2^64 */
static ir_val quotient_digit(gen_b *b, const mont *mo, ir_val t0)
{
    if (mo->mprime == 1)
        return t0;
    if (mo->nmd == 0) {
        ir_val m, mhi;
        gb_mulx(b, t0, gb_k64(b, mo->mprime), &m, &mhi);
        return m;
    }
    ir_val acc = IR_NOVAL;
    for (unsigned i = 0; i < mo->nmd; i++) {
        ir_val term = mo->me[i] == 0 ? t0 : shl_low(b, t0, mo->me[i]), r, c;
        if (acc == IR_NOVAL && mo->md[i] > 0) {
            acc = term;
            continue;
        }
        if (mo->md[i] > 0)
            gb_adc(b, gb_k1(b, 0), acc, term, &r, &c); /* mod 2^64: the carry is dropped */
        else
            gb_sbb(b, gb_k1(b, 0), acc == IR_NOVAL ? gb_k64(b, 0) : acc, term, &r, &c);
        acc = r;
    }
    return acc;
}

/* Addends: each word holds pieces with disjoint bits (mask), joined by `|`; max is the sum of the pieces' maxima. */
typedef struct {
    ir_val w[GEN_MW];
    uint64_t mask[GEN_MW];
    unsigned len;
    mpz_t max;
} addend;

enum { MAX_ADDENDS = 2 * GEN_MW };

typedef struct {
    addend a[MAX_ADDENDS];
    unsigned n;
} addends;

static void piece(gen_b *b, addends *A, unsigned word, ir_val v, uint64_t mask, const mpz_t vmax)
{
    if (word >= GEN_MW) {
        b->failed = true;
        snprintf(b->f->err, sizeof b->f->err, "a sparse reduction term lands above word %u", GEN_MW);
        return;
    }
    unsigned i = 0;
    while (i < A->n && (A->a[i].mask[word] & mask) != 0)
        i++;
    if (i == MAX_ADDENDS) {
        b->failed = true;
        snprintf(b->f->err, sizeof b->f->err, "more than %u sparse reduction addends", MAX_ADDENDS);
        return;
    }
    addend *d = &A->a[i];
    if (i == A->n) {
        memset(d->mask, 0, sizeof d->mask);
        for (unsigned k = 0; k < GEN_MW; k++)
            d->w[k] = IR_NOVAL;
        d->len = 0;
        mpz_init(d->max);
        A->n++;
    }
    d->w[word] = d->w[word] == IR_NOVAL ? v : gb_op2(b, IR_OR, 64, d->w[word], v);
    d->mask[word] |= mask;
    if (d->len < word + 1)
        d->len = word + 1;
    mpz_t t;
    mpz_init(t);
    mpz_mul_2exp(t, vmax, 64 * word);
    mpz_add(d->max, d->max, t);
    mpz_clear(t);
}

/* m * 2^e as one or two pieces. */
static void shifted(gen_b *b, addends *A, ir_val m, unsigned e)
{
    unsigned word = e / 64, s = e % 64;
    mpz_t mx;
    mpz_init(mx);
    if (s == 0) {
        mpz_set_ui(mx, 0);
        mpz_setbit(mx, 64);
        mpz_sub_ui(mx, mx, 1);
        piece(b, A, word, m, UINT64_MAX, mx);
    } else {
        uint64_t lomask = UINT64_MAX << s, himask = UINT64_MAX >> (64 - s);
        mpz_set_ui(mx, (unsigned long)lomask);
        piece(b, A, word, shl_low(b, m, s), lomask, mx);
        mpz_set_ui(mx, (unsigned long)himask);
        piece(b, A, word + 1, gb_op2(b, IR_SHR, 64, m, gb_k64(b, 64 - s)), himask, mx);
    }
    mpz_clear(mx);
}

static void addends_clear(addends *A)
{
    for (unsigned i = 0; i < A->n; i++)
        mpz_clear(A->a[i].max);
    A->n = 0;
}

/* One round with the plan: T = (T + m*p) / 2^64. */
static void reduce_round_sparse(gen_b *b, const mont *mo, gen_mw *T)
{
    ir_val t0 = T->len ? T->w[0] : IR_NOVAL;
    mpz_t tight;
    mpz_init(tight);
    /* the exact result's maximum: (T + (2^64 - 1) p) / 2^64 */
    mpz_mul(tight, mo->w64, mo->p);
    mpz_add(tight, tight, T->max);
    if (t0 == IR_NOVAL || gb_hi(b, t0) == 0) {
        mpz_set(tight, T->max); /* m = 0 */
        goto shift;
    }
    ir_val m = quotient_digit(b, mo, t0);
    if (mo->drop0) {
        /* T' = floor(T / 2^64): T - T_0 over 2^64, then + m*K below */
        for (unsigned i = 0; i + 1 < GEN_MW; i++)
            T->w[i] = T->w[i + 1];
        T->w[GEN_MW - 1] = IR_NOVAL;
        T->len = T->len ? T->len - 1 : 0;
        mpz_tdiv_q_2exp(T->max, T->max, 64);
        mpz_tdiv_q_2exp(tight, tight, 64);
    }
    addends P = { .n = 0 }, N = { .n = 0 };
    mpz_t mx;
    mpz_init(mx);
    for (unsigned g = 0; g < mo->ng; g++) {
        ir_val lo, hi;
        gb_mulx(b, m, gb_k64(b, mo->gw[g]), &lo, &hi);
        mpz_set(mx, mo->w64);
        piece(b, &P, mo->gj[g], lo, UINT64_MAX, mx);
        mpz_mul_ui(mx, mo->w64, (unsigned long)mo->gw[g]);
        mpz_tdiv_q_2exp(mx, mx, 64);
        piece(b, &P, mo->gj[g] + 1, hi, UINT64_MAX, mx);
    }
    for (unsigned i = 0; i < mo->nd; i++)
        shifted(b, mo->sd[i] > 0 ? &P : &N, m, mo->se[i]);
    /* Several addends of one sign are summed first (chains as long as the addends), then added to or subtracted
     * from T once (chains as long as T). */
    gen_mw Ps, Ns;
    mw_init(&Ps);
    mw_init(&Ns);
    for (unsigned i = 0; i < P.n && !b->failed; i++)
        mw_add(b, &Ps, P.a[i].w, P.a[i].len, 0, P.a[i].max, NULL, NULL);
    for (unsigned i = 0; i < N.n && !b->failed; i++)
        mw_add(b, &Ns, N.a[i].w, N.a[i].len, 0, N.a[i].max, NULL, NULL);
    if (P.n && !b->failed)
        mw_add(b, T, Ps.w, Ps.len, 0, Ps.max, NULL, NULL);
    if (N.n && !b->failed)
        mw_sub(b, T, Ns.w, Ns.len, tight);
    else if (mpz_cmp(tight, T->max) < 0)
        mpz_set(T->max, tight);
    mw_clear(&Ps);
    mw_clear(&Ns);
    addends_clear(&P);
    addends_clear(&N);
    mpz_clear(mx);
    if (mo->drop0) {
        mpz_clear(tight);
        return;
    }
shift:
    /* the low word is 0 (its carry went up): divide by 2^64 */
    for (unsigned i = 0; i + 1 < GEN_MW; i++)
        T->w[i] = T->w[i + 1];
    T->w[GEN_MW - 1] = IR_NOVAL;
    T->len = T->len ? T->len - 1 : 0;
    mpz_tdiv_q_2exp(T->max, T->max, 64);
    mpz_clear(tight);
}

/* T = (T + m*p) / 2^64 with m = T_0 * m' mod 2^64, which makes the low word of T + m*p zero. */
static void reduce_round(gen_b *b, const mont *mo, gen_mw *T)
{
    if (mo->sparse) {
        reduce_round_sparse(b, mo, T);
        return;
    }
    ir_val t0 = T->len ? T->w[0] : IR_NOVAL;
    if (t0 != IR_NOVAL && gb_hi(b, t0) != 0) {
        ir_val m = t0, mhi;
        if (mo->mprime != 1) /* m' = 1 when p = -1 mod 2^64 (P-256, P-384, P-434): m is T_0 itself */
            gb_mulx(b, t0, gb_k64(b, mo->mprime), &m, &mhi); /* only the low half: m' * T_0 mod 2^64 */
        gen_mw P, row;
        mw_init(&P);
        mw_init(&row);
        ir_val pv[GEN_MAXN];
        for (unsigned i = 0; i < mo->n; i++)
            pv[i] = gb_k64(b, mo->pw[i]);
        mw_set(&P, pv, mo->n, mo->p);
        mw_mul_word(b, &row, &P, m, mo->w64);
        mw_add(b, T, row.w, row.len, 0, row.max, NULL, NULL);
        mw_clear(&P);
        mw_clear(&row);
    }
    /* the low word is 0 (its carry went up): divide by 2^64 */
    for (unsigned i = 0; i + 1 < GEN_MW; i++)
        T->w[i] = T->w[i + 1];
    T->w[GEN_MW - 1] = IR_NOVAL;
    T->len = T->len ? T->len - 1 : 0;
    mpz_tdiv_q_2exp(T->max, T->max, 64);
}

/* out = T mod p for T below 2p: T - p by a subborrowx chain over every word of T; the final borrow selects T
 * (T < p) or T - p with cmovznz. Skipped when T's maximum is already below p. */
static void final_sub(gen_b *b, const mont *mo, const gen_mw *T, ir_val *out)
{
    unsigned n = mo->n;
    if (mpz_cmp(T->max, mo->p) < 0) {
        for (unsigned i = 0; i < n; i++)
            out[i] = i < T->len && T->w[i] != IR_NOVAL ? T->w[i] : gb_k64(b, 0);
        return;
    }
    ir_val d[GEN_MW], t[GEN_MW], bo = gb_k1(b, 0);
    unsigned len = T->len > n ? T->len : n;
    for (unsigned i = 0; i < len; i++) {
        t[i] = i < T->len && T->w[i] != IR_NOVAL ? T->w[i] : gb_k64(b, 0);
        gb_sbb(b, bo, t[i], gb_k64(b, i < n ? mo->pw[i] : 0), &d[i], &bo);
    }
    for (unsigned i = 0; i < n; i++)
        out[i] = gb_op3(b, IR_CMOVZNZ, 64, bo, d[i], t[i]); /* borrow: T < p, keep T */
}

/* a * y * R^-1 mod p for a < p (words a) and y < R (words y; constants allowed). */
static void mont_mul(gen_b *b, const mont *mo, const ir_val *a, const ir_val *y, ir_val *out)
{
    gen_mw A, T, row;
    mw_init(&A);
    mw_init(&T);
    mw_init(&row);
    mpz_t ymax;
    mpz_init(ymax);
    mw_set(&A, a, mo->n, mo->pm1);
    for (unsigned i = 0; i < mo->n; i++) {
        ir_u128 k;
        if (gb_const(b, y[i], &k))
            mpz_set_ui(ymax, (unsigned long)(uint64_t)k);
        else
            mpz_set(ymax, mo->w64);
        mw_mul_word(b, &row, &A, y[i], ymax);
        mw_add(b, &T, row.w, row.len, 0, row.max, NULL, NULL);
        reduce_round(b, mo, &T);
    }
    final_sub(b, mo, &T, out);
    mw_clear(&A);
    mw_clear(&T);
    mw_clear(&row);
    mpz_clear(ymax);
}

ir_func *gen_montgomery(const mpz_t p, unsigned n, ir_kind op, const char *name, char *err, size_t errlen,
                        bool sparse)
{
    unsigned k = (unsigned)mpz_sizeinbase(p, 2);
    if (k > 64 * n) {
        snprintf(err, errlen, "p has %u bits: more than %u x 64 (Montgomery needs p < R = 2^%u)", k, n, 64 * n);
        return NULL;
    }
    if (k <= 64 * (n - 1)) {
        snprintf(err, errlen, "p has %u bits: %u limbs of 64 bits leave the top %u limb(s) unused (use --limbs %u)", k, n,
                 n - (k + 63) / 64, (k + 63) / 64);
        return NULL;
    }
    if (mpz_even_p(p)) {
        snprintf(err, errlen, "Montgomery arithmetic needs an odd p");
        return NULL;
    }
    mont mo;
    memset(&mo, 0, sizeof mo);
    mo.n = n;
    mpz_inits(mo.p, mo.pm1, mo.w64, NULL);
    mpz_t t, r;
    mpz_inits(t, r, NULL);
    mpz_set(mo.p, p);
    mpz_sub_ui(mo.pm1, p, 1);
    mpz_setbit(mo.w64, 64);
    mpz_sub_ui(mo.w64, mo.w64, 1);
    words_of_mpz(p, n, mo.pw);
    /* m' = -p^-1 mod 2^64 */
    mpz_set_ui(r, 0);
    mpz_setbit(r, 64);
    mpz_invert(t, p, r);
    mpz_sub(t, r, t);
    mpz_fdiv_r_2exp(t, t, 64);
    mo.mprime = (uint64_t)mpz_get_ui(t);
    mo.sparse = sparse;
    if (sparse)
        sparse_plan(&mo);
    /* R^2 mod p */
    mpz_set_ui(r, 0);
    mpz_setbit(r, 128 * n);
    mpz_mod(t, r, p);
    words_of_mpz(t, n, mo.r2);

    unsigned nin = (op == IR_KIND_MUL || op == IR_KIND_ADD || op == IR_KIND_SUB) ? 2 : 1;
    ir_func *f = gen_func_new(name, n, nin, NULL, NULL, err, errlen);
    if (!f)
        goto out;
    gen_b b = { .f = f, .next = 1, .failed = false };
    ir_val a[GEN_MAXN] = { 0 }, y[GEN_MAXN] = { 0 }, o[GEN_MAXN] = { 0 };
    for (unsigned i = 0; i < n; i++)
        a[i] = gb_load(&b, 1, i);
    for (unsigned i = 0; nin == 2 && i < n; i++)
        y[i] = gb_load(&b, 2, i);

    switch (op) {
    case IR_KIND_MUL:
        mont_mul(&b, &mo, a, y, o);
        break;
    case IR_KIND_SQUARE:
        mont_mul(&b, &mo, a, a, o);
        break;
    case IR_KIND_TO_MONT: {
        /* a*R = mont_mul(a, R^2 mod p) */
        ir_val r2[GEN_MAXN] = { 0 };
        for (unsigned i = 0; i < n; i++)
            r2[i] = gb_k64(&b, mo.r2[i]);
        mont_mul(&b, &mo, a, r2, o);
        break;
    }
    case IR_KIND_FROM_MONT: {
        /* a*R^-1: n reduction rounds on a alone. T < p throughout (T <= (T + (2^64-1)p) / 2^64 with T < p), so
         * final_sub finds the maximum below p and subtracts nothing. */
        gen_mw T;
        mw_init(&T);
        mw_set(&T, a, n, mo.pm1);
        for (unsigned i = 0; i < n; i++)
            reduce_round(&b, &mo, &T);
        final_sub(&b, &mo, &T, o);
        mw_clear(&T);
        break;
    }
    case IR_KIND_ADD: {
        /* a + b < 2p (n words and a carry), then the conditional subtraction of p */
        gen_mw S;
        mw_init(&S);
        mw_set(&S, a, n, mo.pm1);
        mpz_set(t, mo.pm1);
        ir_val top = IR_NOVAL;
        mw_add(&b, &S, y, n, 0, t, NULL, &top);
        if (top != IR_NOVAL)
            S.w[n] = top; /* the carry (u1) is the top word of the subtraction */
        final_sub(&b, &mo, &S, o);
        mw_clear(&S);
        break;
    }
    case IR_KIND_SUB:
    case IR_KIND_OPP: {
        /* d = a - b mod 2^(64n) by a subborrowx chain; the final borrow makes a mask (cmovznz, no branch) and p & mask
         * is added back. When a < b, d = a - b + 2^(64n) and d + p wraps to a - b + p in [0, p): the carry out of
         * that addition is the 2^(64n) being dropped. */
        ir_val d[GEN_MAXN], bo = gb_k1(&b, 0), pm[GEN_MAXN];
        for (unsigned i = 0; i < n; i++)
            gb_sbb(&b, bo, op == IR_KIND_SUB ? a[i] : gb_k64(&b, 0), op == IR_KIND_SUB ? y[i] : a[i], &d[i], &bo);
        ir_val mask = gb_op3(&b, IR_CMOVZNZ, 64, bo, gb_k64(&b, 0), gb_k64(&b, UINT64_MAX));
        for (unsigned i = 0; i < n; i++)
            pm[i] = mo.pw[i] == 0 ? IR_NOVAL
                    : mo.pw[i] == UINT64_MAX ? mask
                                             : gb_op2(&b, IR_AND, 64, mask, gb_k64(&b, mo.pw[i]));
        gen_mw D;
        mw_init(&D);
        mpz_set_ui(r, 0);
        mpz_setbit(r, 64 * n);
        mpz_sub_ui(r, r, 1);
        mw_set(&D, d, n, r);
        mw_add(&b, &D, pm, n, 0, mo.p, r, NULL); /* n words: the sum is taken mod 2^(64n) */
        for (unsigned i = 0; i < n; i++)
            o[i] = D.w[i] != IR_NOVAL ? D.w[i] : gb_k64(&b, 0);
        mw_clear(&D);
        break;
    }
    default:
        b.failed = true;
        snprintf(f->err, sizeof f->err, "no op %s", ir_kind_name(op));
        for (unsigned i = 0; i < n; i++)
            o[i] = IR_NOVAL;
        break;
    }
    for (unsigned i = 0; i < n; i++)
        gb_store(&b, 0, i, o[i]);
    f = gen_finish(&b, "Montgomery", err, errlen);
out:
    mpz_clears(mo.p, mo.pm1, mo.w64, t, r, NULL);
    return f;
}
