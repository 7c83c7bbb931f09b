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

/* T = (T + m*p) / 2^64 with m = T_0 * m' mod 2^64, which makes the low word of T + m*p zero. */
static void reduce_round(gen_b *b, const mont *mo, gen_mw *T)
{
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

ir_func *gen_montgomery(const mpz_t p, unsigned n, ir_kind op, const char *name, char *err, size_t errlen)
{
    unsigned k = (unsigned)mpz_sizeinbase(p, 2);
    if (k > 64 * n) {
        snprintf(err, errlen, "p has %u bits: more than %u x 64 (Montgomery needs p < R = 2^%u)", k, n, 64 * n);
        return NULL;
    }
    if (k <= 64 * (n - 1)) {
        snprintf(err, errlen, "p has %u bits: %u limbs of 64 bits leave the top %u unused (use %u)", k, n,
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
