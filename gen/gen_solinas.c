/* gen_solinas.c — Solinas-prime generators: p = 2^k - c with c > 0 small.
 *
 * Unsaturated (carry_mul, carry_square, carry, add, sub, opp): n limbs of w_i bits at weights W_i = ceil(ik/n),
 * limbs allowed to exceed w_i bits between carries. A product is a schoolbook column sum in u128; the columns at
 * or above n fold back with 2^k = c (mod p), then one carry chain brings every limb back to about w_i bits.
 * Sources: J. Solinas, "Generalized Mersenne Numbers", CACR tech. report CORR 99-39, 1999 (reduction by 2^k = c);
 * D. J. Bernstein, "Curve25519: new Diffie-Hellman speed records", PKC 2006, section 4 (limbs of non-integral radix
 * 2^25.5, the carry chain, multiplying the wrapped part by 19); A. Erbsen, J. Philipoom, J. Gross, R. Sloan,
 * A. Chlipala, "Simple High-Level Code For Cryptographic Arithmetic", IEEE S&P 2019, section 3 (the unsaturated
 * layout w_i = ceil((i+1)k/n) - ceil(ik/n), tight and loose bounds, subtraction through a multiple of p).
 *
 * Saturated (mul, square): n 64-bit words, p = 2^k - c with C = c * 2^(64n-k) < 2^63, so 2^(64n) = C (mod p).
 * A 2n-word product (mulx/addcarryx, schoolbook rows; squares add the cross products once, double them and add the
 * diagonal), then two folds of the high part by C and a last conditional add of C (Bernstein's Curve25519 paper,
 * section 4; Solinas 1999). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_internal.h"

#define U64MAX ((ir_u128)UINT64_MAX)

/* w_i = ceil((i+1)k/n) - ceil(ik/n). */
static void gen_limb_widths(unsigned k, unsigned n, unsigned *w)
{
    for (unsigned i = 0; i < n; i++)
        w[i] = (unsigned)((((uint64_t)(i + 1) * k + n - 1) / n) - (((uint64_t)i * k + n - 1) / n));
}

/* ---- unsaturated layout ----------------------------------------------------------------------------------------- */

typedef struct {
    unsigned n, k;
    unsigned w[GEN_MAXN];
    unsigned W[2 * GEN_MAXN];                 /* W_m = ceil(mk/n); W_{m+n} = k + W_m */
    uint64_t d[GEN_MAXN];                     /* c = sum_s d_s 2^W_s, d_s < 2^w_s */
    uint64_t pl[GEN_MAXN];                    /* p = sum_i pl_i 2^W_i, pl_i < 2^w_i */
    uint64_t red[2 * GEN_MAXN][GEN_MAXN];     /* 2^W_m = sum_t red[m][t] 2^W_t (mod p), m <= 2n-2 */
    ir_u128 T[GEN_MAXN];                      /* tight limb bounds (carried outputs, add/sub/opp inputs) */
    ir_u128 L[GEN_MAXN];                      /* loose limb bounds (add/sub/opp outputs, carried inputs) */
    ir_u128 q[GEN_MAXN];                      /* limbs of m*p, each >= T_i, used by sub and opp */
    unsigned m;
} unsat;

static void limbs_of(const mpz_t x, const unsat *ly, uint64_t *out)
{
    mpz_t t;
    mpz_init(t);
    for (unsigned i = 0; i < ly->n; i++) {
        mpz_tdiv_q_2exp(t, x, ly->W[i]);
        mpz_fdiv_r_2exp(t, t, ly->w[i]);
        out[i] = (uint64_t)mpz_get_ui(t);
    }
    mpz_clear(t);
}

static void describe_c(char *buf, size_t len, const mpz_t c)
{
    if (mpz_sizeinbase(c, 2) <= 128)
        gmp_snprintf(buf, len, "0x%Zx", c);
    else
        snprintf(buf, len, "a %zu-bit number", mpz_sizeinbase(c, 2));
}

/* The shape: k = bits of p, c = 2^k - p; c must fit below the top limb (so 2^k = c folds into limbs 0..n-2) and
 * every fold multiplier red[m][t] must fit a word. */
static int unsat_shape(const mpz_t p, unsigned n, unsat *ly, char *err, size_t errlen)
{
    memset(ly, 0, sizeof *ly);
    ly->n = n;
    ly->k = (unsigned)mpz_sizeinbase(p, 2);
    if (n > ly->k) {
        snprintf(err, errlen, "%u limbs for a %u-bit prime: every limb needs at least one bit", n, ly->k);
        return -1;
    }
    gen_limb_widths(ly->k, n, ly->w);
    for (unsigned m = 0; m < 2 * n; m++)
        ly->W[m] = (unsigned)(((uint64_t)m * ly->k + n - 1) / n);
    for (unsigned i = 0; i < n; i++)
        if (ly->w[i] > 62) {
            snprintf(err, errlen,
                     "limbs cannot hold the product: %u limbs of up to %u bits leave no headroom in 64-bit words",
                     n, ly->w[i]);
            return -1;
        }
    mpz_t c, t;
    mpz_inits(c, t, NULL);
    mpz_setbit(c, ly->k);
    mpz_sub(c, c, p);
    char cs[64];
    describe_c(cs, sizeof cs, c);
    int rc = -1;
    if (n == 1) {
        snprintf(err, errlen, "unsaturated Solinas needs at least 2 limbs (the reduction folds the top limbs down)");
        goto out;
    }
    if (mpz_sizeinbase(c, 2) > ly->W[n - 1]) {
        snprintf(err, errlen,
                 "p is not 2^%u - c with c small enough for unsaturated Solinas reduction in %u limbs (c = %s)",
                 ly->k, n, cs);
        goto out;
    }
    limbs_of(c, ly, ly->d);
    limbs_of(p, ly, ly->pl);
    /* red: 2^W_m for m < n is limb m itself. For m >= n, 2^W_m = 2^k 2^W_{m-n} = c 2^W_{m-n}
     * = sum_s d_s 2^(W_s + W_{m-n}) and W_s + W_{m-n} = W_{m-n+s} + delta with delta 0 or 1 (a sum of two
     * ceilings is the ceiling of the sum or one more), so the terms land in lower columns: recursive in m. */
    for (unsigned m = 0; m + 1 < 2 * n; m++) {
        if (m < n) {
            ly->red[m][m] = 1;
            continue;
        }
        for (unsigned s = 0; s + 1 < n; s++) {
            if (!ly->d[s])
                continue;
            unsigned lower = m - n + s;
            unsigned delta = ly->W[m - n] + ly->W[s] - ly->W[lower];
            for (unsigned tcol = 0; tcol < n; tcol++) {
                ir_u128 v = (ir_u128)ly->d[s] * ly->red[lower][tcol];
                if (ly->red[lower][tcol] && (v >> (64 - delta)) != 0)
                    goto big;
                v <<= delta;
                v += ly->red[m][tcol];
                if (v > U64MAX)
                    goto big;
                ly->red[m][tcol] = (uint64_t)v;
            }
        }
    }
    rc = 0;
    goto out;
big:
    snprintf(err, errlen,
             "p is not 2^%u - c with c small enough for unsaturated Solinas reduction in %u limbs (c = %s: a "
             "reduction multiplier exceeds 64 bits)",
             ly->k, n, cs);
out:
    mpz_clears(c, t, NULL);
    return rc;
}

/* q = limbs of m*p with q_i >= T_i, m = 2 or 4 (the smallest that works; a limb below T_i borrows 2^w_i from the
 * limb above it), then L_i = max(2 T_i, T_i + q_i): what add (T + T), sub (T + q - 0) and opp (q - 0) reach. */
static int unsat_loose(unsat *ly, char *err, size_t errlen)
{
    for (int borrow = 0; borrow < 2; borrow++)
        for (unsigned m = 2; m <= 4; m *= 2) {
            ir_u128 q[GEN_MAXN];
            bool ok = true;
            for (unsigned i = 0; i < ly->n; i++)
                q[i] = (ir_u128)m * ly->pl[i];
            for (unsigned i = 0; i < ly->n && ok; i++) {
                if (q[i] >= ly->T[i])
                    continue;
                if (!borrow || i + 1 == ly->n) {
                    ok = false;
                    break;
                }
                ir_u128 unit = (ir_u128)1 << ly->w[i];
                ir_u128 need = (ly->T[i] - q[i] + unit - 1) / unit;
                if (q[i + 1] < need) {
                    ok = false;
                    break;
                }
                q[i] += need * unit;
                q[i + 1] -= need;
            }
            if (!ok)
                continue;
            ly->m = m;
            for (unsigned i = 0; i < ly->n; i++) {
                ly->q[i] = q[i];
                ir_u128 a = 2 * ly->T[i], b = ly->T[i] + q[i];
                ly->L[i] = a > b ? a : b;
                if (ly->L[i] > U64MAX) {
                    char b1[40];
                    snprintf(err, errlen, "limbs cannot hold the sum: limb %u would need loose bound %s >= 2^64", i,
                             ir_u128_hex(ly->L[i], b1));
                    return -1;
                }
            }
            return 0;
        }
    snprintf(err, errlen, "limbs cannot hold the difference: no multiple 2p or 4p has every limb above the tight bound");
    return -1;
}

/* ---- unsaturated functions ---------------------------------------------------------------------------------------- */

static unsigned width_for(ir_u128 hi)
{
    return hi > U64MAX ? 128 : 64;
}

static ir_u128 sat_add(ir_u128 a, ir_u128 b)
{
    ir_u128 r;
    return __builtin_add_overflow(a, b, &r) ? ~(ir_u128)0 : r;
}

static unsigned width_of(const gen_b *b, ir_val v)
{
    return v == IR_NOVAL ? 64 : b->f->val[v].width;
}

/* x + y in u64 when both are u64 and the sum provably fits, else u128. */
static ir_val add_auto(gen_b *b, ir_val x, ir_val y)
{
    unsigned wd = (width_of(b, x) == 128 || width_of(b, y) == 128) ? 128 : width_for(sat_add(gb_hi(b, x), gb_hi(b, y)));
    return gb_op2(b, IR_ADD, wd, x, y);
}

typedef struct {
    ir_val x;
    uint64_t k;
    ir_val r;
} fold_ent;

typedef struct {
    fold_ent e[4 * GEN_MAXN * GEN_MAXN];
    unsigned n;
} fold_cache;

/* x*k as a u64 (k small enough that it provably fits), made once per (x, k). */
static ir_val fold(gen_b *b, fold_cache *fc, ir_val x, uint64_t k)
{
    if (k == 1)
        return x;
    for (unsigned i = 0; i < fc->n; i++)
        if (fc->e[i].x == x && fc->e[i].k == k)
            return fc->e[i].r;
    ir_val r = gb_op2(b, IR_MUL, 64, x, gb_k64(b, k));
    if (fc->n < sizeof fc->e / sizeof fc->e[0])
        fc->e[fc->n++] = (fold_ent){ x, k, r };
    return r;
}

static bool fits(const gen_b *b, ir_val x, uint64_t k)
{
    return gb_hi(b, x) * k <= U64MAX; /* both below 2^64: the product does not wrap in 128 bits */
}

/* mult * x * y as a u128, the multiplier folded into a u64 operand where the bounds allow (like 19 * b_j in
 * Bernstein's radix-2^51 multiplication); otherwise split between both operands; otherwise a u128 product by the
 * constant, which the bounds pass accepts only if it fits. */
static ir_val product(gen_b *b, fold_cache *fc, ir_val x, ir_val y, uint64_t mult)
{
    if (mult == 1)
        return gb_op2(b, IR_MUL, 128, x, y);
    if (fits(b, y, mult))
        return gb_op2(b, IR_MUL, 128, x, fold(b, fc, y, mult));
    if (fits(b, x, mult))
        return gb_op2(b, IR_MUL, 128, fold(b, fc, x, mult), y);
    for (uint64_t m1 = 2; m1 <= 4096 && m1 < mult; m1++)
        if (mult % m1 == 0 && fits(b, x, m1) && fits(b, y, mult / m1))
            return gb_op2(b, IR_MUL, 128, fold(b, fc, x, m1), fold(b, fc, y, mult / m1));
    return gb_op2(b, IR_MUL, 128, gb_op2(b, IR_MUL, 128, x, y), gb_k64(b, mult));
}

/* The carry chain (Bernstein 2006, section 4): limb i keeps its low w_i bits, the rest is carried into limb i+1;
 * the carry out of the top limb has weight 2^k = c = sum d_s 2^W_s, so it is multiplied by d_s and added to limb
 * s, whose carry goes one limb up once more. Every limb ends below 2^w_i except those that received that last
 * carry (slightly above: the tight bound T says by how much). Operations are u128 only where the bounds need it. */
static void carry_chain(gen_b *b, const unsat *ly, const ir_val *h, ir_val *r)
{
    unsigned n = ly->n;
    ir_val carry = IR_NOVAL;
    for (unsigned i = 0; i < n; i++) {
        ir_val t = carry == IR_NOVAL ? h[i] : add_auto(b, h[i], carry);
        carry = gb_op2(b, IR_SHR, width_for(gb_hi(b, t) >> ly->w[i]), t, gb_k64(b, ly->w[i]));
        r[i] = gb_op2(b, IR_AND, 64, t, gb_k64(b, ((uint64_t)1 << ly->w[i]) - 1));
    }
    for (unsigned s = 0; s + 1 < n; s++) {
        if (!ly->d[s])
            continue;
        ir_val v = carry;
        if (ly->d[s] != 1) {
            ir_u128 hi = gb_hi(b, carry);
            bool small = hi <= U64MAX && hi * ly->d[s] <= U64MAX;
            v = gb_op2(b, IR_MUL, small ? 64 : 128, carry, gb_k64(b, ly->d[s]));
        }
        ir_val t = add_auto(b, r[s], v);
        ir_val c2 = gb_op2(b, IR_SHR, width_for(gb_hi(b, t) >> ly->w[s]), t, gb_k64(b, ly->w[s]));
        r[s] = gb_op2(b, IR_AND, 64, t, gb_k64(b, ((uint64_t)1 << ly->w[s]) - 1));
        r[s + 1] = gb_op2(b, IR_ADD, 64, r[s + 1], c2);
    }
}

/* One unsaturated function. probe: outputs unbounded (used to find what the carry chain reaches). */
static ir_func *unsat_func(const unsat *ly, ir_kind op, const char *name, bool probe, char *err, size_t errlen)
{
    unsigned n = ly->n;
    bool carried = op == IR_KIND_MUL || op == IR_KIND_SQUARE || op == IR_KIND_CARRY;
    unsigned nin = (op == IR_KIND_MUL || op == IR_KIND_ADD || op == IR_KIND_SUB) ? 2 : 1;
    const ir_u128 *inb = carried ? ly->L : ly->T;
    const ir_u128 *outb = probe ? NULL : carried ? ly->T : ly->L;
    ir_func *f = gen_func_new(name, n, nin, inb, outb, err, errlen);
    if (!f)
        return NULL;
    gen_b b = { .f = f, .next = 1, .failed = false };
    ir_val a[GEN_MAXN] = { 0 }, c[GEN_MAXN] = { 0 }, h[GEN_MAXN] = { 0 }, r[GEN_MAXN] = { 0 };
    for (unsigned i = 0; i < n; i++)
        a[i] = gb_load(&b, 1, i);
    for (unsigned i = 0; nin == 2 && i < n; i++)
        c[i] = gb_load(&b, 2, i);

    switch (op) {
    case IR_KIND_MUL:
    case IR_KIND_SQUARE: {
        fold_cache *fc = calloc(1, sizeof *fc);
        if (!fc) {
            b.failed = true;
            snprintf(f->err, sizeof f->err, "out of memory");
            break;
        }
        bool sq = op == IR_KIND_SQUARE;
        const ir_val *y = sq ? a : c;
        /* Column t collects a_i * y_j * 2^delta_ij * red[i+j][t], where W_i + W_j = W_{i+j} + delta_ij. A
         * square takes each i < j once, doubled. */
        for (unsigned t = 0; t < n; t++) {
            ir_val sum = IR_NOVAL;
            for (unsigned i = 0; i < n; i++)
                for (unsigned j = sq ? i : 0; j < n; j++) {
                    uint64_t rm = ly->red[i + j][t];
                    if (!rm)
                        continue;
                    unsigned delta = ly->W[i] + ly->W[j] - ly->W[i + j];
                    ir_u128 mult = (ir_u128)rm << delta;
                    if (sq && i != j)
                        mult <<= 1;
                    if (mult > U64MAX) {
                        b.failed = true;
                        snprintf(f->err, sizeof f->err, "column %u: multiplier of a%u*a%u exceeds 64 bits", t, i, j);
                        continue;
                    }
                    ir_val pr = product(&b, fc, a[i], y[j], (uint64_t)mult);
                    sum = sum == IR_NOVAL ? pr : gb_op2(&b, IR_ADD, 128, sum, pr);
                }
            h[t] = sum == IR_NOVAL ? gb_k64(&b, 0) : sum;
        }
        free(fc);
        carry_chain(&b, ly, h, r);
        break;
    }
    case IR_KIND_CARRY:
        carry_chain(&b, ly, a, r);
        break;
    case IR_KIND_ADD:
        for (unsigned i = 0; i < n; i++)
            r[i] = gb_op2(&b, IR_ADD, 64, a[i], c[i]);
        break;
    case IR_KIND_SUB:
        /* a - b + m*p, limb by limb: q_i >= T_i >= b_i, so nothing goes negative. */
        for (unsigned i = 0; i < n; i++)
            r[i] = gb_op2(&b, IR_SUB, 64, gb_op2(&b, IR_ADD, 64, a[i], gb_k64(&b, (uint64_t)ly->q[i])), c[i]);
        break;
    case IR_KIND_OPP:
        for (unsigned i = 0; i < n; i++)
            r[i] = gb_op2(&b, IR_SUB, 64, gb_k64(&b, (uint64_t)ly->q[i]), a[i]);
        break;
    default:
        b.failed = true;
        snprintf(f->err, sizeof f->err, "no op %s", ir_kind_name(op));
        break;
    }
    for (unsigned i = 0; i < n; i++)
        gb_store(&b, 0, i, r[i]);
    return gen_finish(&b,
                      op == IR_KIND_MUL || op == IR_KIND_SQUARE ? "limbs cannot hold the product"
                      : op == IR_KIND_CARRY                     ? "limbs cannot hold the carried value"
                                                                : "limbs cannot hold the result",
                      err, errlen);
}

/* Smallest bound >= r of the form 2^w - 1 or 2^w + 2^j (readable, and stable across the iteration below). */
static ir_u128 round_tight(ir_u128 r, unsigned w)
{
    ir_u128 base = (ir_u128)1 << w;
    if (r < base)
        return base - 1;
    ir_u128 e = r - base, j = 1;
    if (e == 0)
        return base;
    while (j < e)
        j <<= 1;
    return base + j;
}

ir_func *gen_solinas_unsaturated(const mpz_t p, unsigned n, ir_kind op, const char *name, char *err, size_t errlen,
                                 uint8_t *limbw)
{
    unsat *ly = malloc(sizeof *ly);
    ir_func *f = NULL;
    if (!ly) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (unsat_shape(p, n, ly, err, errlen) < 0)
        goto out;
    /* Tight bounds: start from 2^w_i - 1 and raise each to what carry_mul, carry_square and carry provably reach
     * from the loose bounds that follow from it, until that settles (two or three rounds in practice). */
    for (unsigned i = 0; i < n; i++)
        ly->T[i] = ((ir_u128)1 << ly->w[i]) - 1;
    for (int iter = 0;; iter++) {
        if (unsat_loose(ly, err, errlen) < 0)
            goto out;
        ir_u128 R[GEN_MAXN] = { 0 };
        static const ir_kind carried[3] = { IR_KIND_MUL, IR_KIND_SQUARE, IR_KIND_CARRY };
        for (int o = 0; o < 3; o++) {
            ir_func *g = unsat_func(ly, carried[o], "probe", true, err, errlen);
            if (!g)
                goto out;
            for (uint32_t i = 0; i < g->nnode; i++)
                if (g->node[i].op == IR_STORE && g->val[g->node[i].arg[0]].hi > R[g->node[i].limb])
                    R[g->node[i].limb] = g->val[g->node[i].arg[0]].hi;
            ir_func_free(g);
        }
        bool settled = true;
        for (unsigned i = 0; i < n; i++)
            if (R[i] > ly->T[i]) {
                settled = false;
                ly->T[i] = round_tight(R[i], ly->w[i]);
            }
        if (settled)
            break;
        if (iter == 8) {
            snprintf(err, errlen, "limbs cannot hold the product: the carry chain does not settle on tight bounds");
            goto out;
        }
    }
    f = unsat_func(ly, op, name, false, err, errlen);
    for (unsigned i = 0; f && i < n; i++)
        limbw[i] = (uint8_t)ly->w[i];
out:
    free(ly);
    return f;
}

/* ---- saturated ---------------------------------------------------------------------------------------------------- */

/* saturated_shape — whether p fits n limbs of 64 bits with the top limb used and n >= 2, and p = 2^k - c with
 * C = c 2^(64n-k) below 2^63 (both saturated methods: 2^(64n) = 2^(64n-k) 2^k = C mod p, the constant the high
 * words are folded with); *C set and true, or the reason in err and false. */
static bool saturated_shape(const mpz_t p, unsigned n, uint64_t *C, char *err, size_t errlen)
{
    unsigned k = (unsigned)mpz_sizeinbase(p, 2);
    if (k > 64 * n) {
        snprintf(err, errlen, "p has %u bits: more than %u x 64", k, n);
        return false;
    }
    if (k <= 64 * (n - 1)) {
        snprintf(err, errlen, "p has %u bits: %u limbs of 64 bits leave the top %u limb(s) unused (use --limbs %u)", k, n,
                 n - (k + 63) / 64, (k + 63) / 64);
        return false;
    }
    if (n < 2) {
        snprintf(err, errlen, "the saturated Solinas method needs at least 2 limbs (p has %u bits)", k);
        return false;
    }
    mpz_t c, cm;
    mpz_inits(c, cm, NULL);
    mpz_setbit(c, k);
    mpz_sub(c, c, p);
    mpz_mul_2exp(cm, c, 64 * n - k);
    bool ok = mpz_sizeinbase(cm, 2) <= 63;
    if (ok) {
        *C = (uint64_t)mpz_get_ui(cm);
    } else {
        char cs[64];
        describe_c(cs, sizeof cs, c);
        snprintf(err, errlen,
                 "p is not 2^%u - c with c * 2^%u below 2^63 (c = %s): saturated Solinas reduction needs it", k,
                 64 * n - k, cs);
    }
    mpz_clears(c, cm, NULL);
    return ok;
}

ir_func *gen_solinas_saturated(const mpz_t p, unsigned n, ir_kind op, const char *name, char *err, size_t errlen)
{
    uint64_t C;
    if (!saturated_shape(p, n, &C, err, errlen))
        return NULL;
    mpz_t w64, wmax, cm, t0, zero;
    mpz_inits(w64, wmax, cm, t0, zero, NULL);
    mpz_set_ui(cm, C); /* the fold constant as a bound (mw_mul_word, mw_add) */
    ir_func *f = NULL;
    gen_mw A, acc, row, H, HC, R, Tw, TC, R2, R3;
    gen_mw *all[] = { &A, &acc, &row, &H, &HC, &R, &Tw, &TC, &R2, &R3 };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        mw_init(all[i]);
    mpz_set_ui(w64, 0);
    mpz_setbit(w64, 64);
    mpz_sub_ui(w64, w64, 1); /* 2^64 - 1 */
    mpz_set_ui(wmax, 0);
    mpz_setbit(wmax, 64 * n);
    mpz_sub_ui(wmax, wmax, 1); /* 2^(64n) - 1 */

    unsigned nin = op == IR_KIND_MUL ? 2 : 1;
    f = gen_func_new(name, n, nin, NULL, NULL, err, errlen);
    if (!f)
        goto out;
    gen_b b = { .f = f, .next = 1, .failed = false };
    ir_val a[GEN_MAXN] = { 0 }, y[GEN_MAXN] = { 0 };
    for (unsigned i = 0; i < n; i++)
        a[i] = gb_load(&b, 1, i);
    for (unsigned i = 0; i < n; i++)
        y[i] = nin == 2 ? gb_load(&b, 2, i) : a[i];

    if (op == IR_KIND_MUL) {
        /* schoolbook: row i = a * b_i (mulx per word, high halves added by one addcarryx chain), added at word i */
        mw_set(&A, a, n, wmax);
        for (unsigned i = 0; i < n; i++) {
            mw_mul_word(&b, &row, &A, y[i], w64);
            mw_add(&b, &acc, row.w, row.len, i, row.max, NULL, NULL);
        }
    } else {
        /* square: sum_{i<j} a_i a_j 2^(64(i+j)) by rows, doubled, plus the diagonal a_i^2 2^(128 i) */
        for (unsigned i = 0; i + 1 < n; i++) {
            mpz_set_ui(t0, 0);
            mpz_setbit(t0, 64 * (n - 1 - i));
            mpz_sub_ui(t0, t0, 1);
            mw_set(&A, a + i + 1, n - 1 - i, t0);
            mw_mul_word(&b, &row, &A, a[i], w64);
            mw_add(&b, &acc, row.w, row.len, 2 * i + 1, row.max, NULL, NULL);
        }
        ir_val cross[GEN_MW];
        memcpy(cross, acc.w, sizeof cross);
        mw_add(&b, &acc, cross, acc.len, 0, acc.max, NULL, NULL);
        ir_val dg[2 * GEN_MAXN];
        for (unsigned i = 0; i < n; i++)
            gb_mulx(&b, a[i], a[i], &dg[2 * i], &dg[2 * i + 1]);
        mpz_mul(t0, wmax, wmax); /* the sum is a^2 exactly: at most (2^(64n) - 1)^2, 2n words */
        mw_add(&b, &acc, dg, 2 * n, 0, zero, t0, NULL);
    }

    /* Fold 1: x = lo + hi*C with lo, hi the low and high n words: x < (2^(64n))(C + 1), so its word n (t) is at
     * most C. */
    mw_set(&H, acc.w + n, n, wmax);
    mw_mul_word(&b, &HC, &H, gb_k64(&b, C), cm);
    mw_set(&R, acc.w, n, wmax);
    mw_add(&b, &R, HC.w, HC.len, 0, HC.max, NULL, NULL);
    /* Fold 2: x' = (x mod 2^(64n)) + t*C < 2^(64n) + C^2: its carry out c2 is 0 or 1. */
    mpz_set_ui(t0, C);
    ir_val tw = R.len > n ? R.w[n] : IR_NOVAL;
    mw_set(&Tw, &tw, 1, t0);
    mw_mul_word(&b, &TC, &Tw, gb_k64(&b, C), cm);
    mw_set(&R2, R.w, n, wmax);
    ir_val c2 = IR_NOVAL;
    mw_add(&b, &R2, TC.w, TC.len, 0, TC.max, NULL, &c2);
    /* Fold 3: add c2*C (selected by cmovznz, no branch) with a full carry chain. Its carry out is 0: when c2 = 1,
     * x' - 2^(64n) < C^2, so the sum is below C^2 + C < 2^126 + 2^63 < 2^(64n) for n >= 2. */
    mw_set(&R3, R2.w, n, wmax);
    if (c2 != IR_NOVAL) {
        ir_val cc = gb_op3(&b, IR_CMOVZNZ, 64, c2, gb_k64(&b, 0), gb_k64(&b, C));
        mw_add(&b, &R3, &cc, 1, 0, cm, wmax, NULL);
    }
    for (unsigned i = 0; i < n; i++)
        gb_store(&b, 0, i, R3.w[i] != IR_NOVAL ? R3.w[i] : gb_k64(&b, 0));
    f = gen_finish(&b, "saturated Solinas", err, errlen);
out:
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        mw_clear(all[i]);
    mpz_clears(w64, wmax, cm, t0, zero, NULL);
    return f;
}

/* ---- saturated, two carry chains ----------------------------------------------------------------------------------
 * The same product and reduction mod 2^k - c as above, arranged as in the MULX/ADCX/ADOX technique (Ozturk,
 * Guilford, Gopal, Feghali, "New instructions supporting large integer arithmetic on Intel architecture processors",
 * Intel white paper, 2012; Gueron, Krasnov, "Fast prime field elliptic-curve cryptography with 256-bit primes",
 * J. Cryptogr. Eng. 5(2), 2015): a row y * (x_0 .. x_{m-1}) is added into the accumulator by two independent carry
 * chains, the low halves of the mulx products by one and the high halves by the other, so that the code can run one
 * on CF (adcx) and the other on OF (adox) and overlap them. The IR only states the two chains (each starts with a
 * carry-in of 0); which flag each one uses is the emitter's decision (EMIT_ASM_D_OF). A square adds its cross
 * products the same way, then doubles them on one chain while the other adds the diagonal squares. */

/* s = x + y + c with a carry-out that is zero by the caller's argument (not by the interval analysis). */
static ir_val adc_top(gen_b *b, ir_val c, ir_val x, ir_val y)
{
    ir_val s, co;
    gb_adc(b, c, x, y, &s, &co);
    return s;
}

/* w[0..m] = y * x[0..m-1]: one chain (l_j + h_{j-1}); w[m] = h_{m-1} + carry (h_{m-1} <= 2^64 - 2: no carry out). */
static void row_first(gen_b *b, const ir_val *x, unsigned m, ir_val y, ir_val *w)
{
    ir_val l[GEN_MAXN] = { 0 }, h[GEN_MAXN] = { 0 }, cf = IR_NOVAL;
    for (unsigned j = 0; j < m; j++)
        gb_mulx(b, x[j], y, &l[j], &h[j]);
    w[0] = l[0];
    for (unsigned j = 1; j < m; j++)
        gb_adc(b, cf == IR_NOVAL ? gb_k1(b, 0) : cf, l[j], h[j - 1], &w[j], &cf);
    w[m] = cf == IR_NOVAL ? h[m - 1] : adc_top(b, cf, h[m - 1], gb_k64(b, 0));
}

/* w[0..m-1] += y * x[0..m-1], the new top word in w[m]: the low halves l_j go into w[j] on chain A, the high halves
 * h_j into w[j+1] on chain B (Intel's order: at each word, B's h_{j-1} before A's l_j). The caller guarantees that
 * the sum fits m + 1 words, so the top word h_{m-1} + A's carry + B's carry has no carry out. */
static void row_add(gen_b *b, ir_val *w, const ir_val *x, unsigned m, ir_val y)
{
    ir_val l[GEN_MAXN] = { 0 }, h[GEN_MAXN] = { 0 }, ca = IR_NOVAL, cb = IR_NOVAL;
    for (unsigned j = 0; j < m; j++)
        gb_mulx(b, x[j], y, &l[j], &h[j]);
    for (unsigned j = 0; j < m; j++) {
        gb_adc(b, ca == IR_NOVAL ? gb_k1(b, 0) : ca, w[j], l[j], &w[j], &ca);
        if (j + 1 < m)
            gb_adc(b, cb == IR_NOVAL ? gb_k1(b, 0) : cb, w[j + 1], h[j], &w[j + 1], &cb);
    }
    ir_val top = h[m - 1];
    if (cb != IR_NOVAL)
        top = adc_top(b, cb, top, gb_k64(b, 0));
    w[m] = adc_top(b, ca, top, gb_k64(b, 0));
}

ir_func *gen_solinas_saturated_2chain(const mpz_t p, unsigned n, ir_kind op, const char *name, char *err,
                                     size_t errlen)
{
    uint64_t C;
    if (!saturated_shape(p, n, &C, err, errlen))
        return NULL;
    ir_func *f = NULL;
    unsigned nin = op == IR_KIND_MUL ? 2 : 1;
    f = gen_func_new(name, n, nin, NULL, NULL, err, errlen);
    if (!f)
        goto out;
    gen_b b = { .f = f, .next = 1, .failed = false };
    ir_val a[GEN_MAXN] = { 0 }, y[GEN_MAXN] = { 0 }, t[2 * GEN_MAXN] = { 0 };
    for (unsigned i = 0; i < n; i++)
        a[i] = gb_load(&b, 1, i);
    for (unsigned i = 0; i < n; i++)
        y[i] = nin == 2 ? gb_load(&b, 2, i) : a[i];

    if (op == IR_KIND_MUL) {
        /* t = a * y: row 0 on one chain, then row i added at word i (before it, t has words 0 .. n+i-1; the
         * partial sum a * (y mod 2^(64(i+1))) fits n+i+1 words) */
        row_first(&b, a, n, y[0], t);
        for (unsigned i = 1; i < n; i++)
            row_add(&b, t + i, a, n, y[i]);
    } else {
        /* cross products sum_{i<j} a_i a_j 2^(64(i+j)) in words 1 .. 2n-2: row i = a_i * (a_{i+1} .. a_{n-1}) at
         * word 2i+1 (row 0 on one chain, the others added; after row i the words run to n+i) */
        ir_val cr[2 * GEN_MAXN] = { 0 };
        row_first(&b, a + 1, n - 1, a[0], cr + 1);
        for (unsigned i = 1; i + 1 < n; i++)
            row_add(&b, cr + 2 * i + 1, a + i + 1, n - 1 - i, a[i]);
        /* t = 2 cross + diagonal: chain A doubles word by word (d_k = cr_k + cr_k + carry, k = 1 .. 2n-2, its
         * last carry the top bit of word 2n-1), chain B adds the squares a_i^2 = (lo_i, hi_i) at words 2i, 2i+1 */
        ir_val dg[2 * GEN_MAXN];
        for (unsigned i = 0; i < n; i++)
            gb_mulx(&b, a[i], a[i], &dg[2 * i], &dg[2 * i + 1]);
        ir_val ca = IR_NOVAL, cb = IR_NOVAL;
        t[0] = dg[0];
        for (unsigned w = 1; w + 1 < 2 * n; w++) {
            ir_val d;
            gb_adc(&b, ca == IR_NOVAL ? gb_k1(&b, 0) : ca, cr[w], cr[w], &d, &ca);
            gb_adc(&b, cb == IR_NOVAL ? gb_k1(&b, 0) : cb, d, dg[w], &t[w], &cb);
        }
        /* word 2n-1: hi_{n-1} + both carries; a^2 < 2^(128n), so no carry out */
        t[2 * n - 1] = adc_top(&b, cb, adc_top(&b, ca, dg[2 * n - 1], gb_k64(&b, 0)), gb_k64(&b, 0));
    }

    /* Fold 1: r = t_lo + t_hi * C, with the row of the two chains (x = t_lo + t_hi C < 2^(64n)(C+1): the top
     * word r_n is at most C). */
    ir_val r[GEN_MAXN + 1], kC = gb_k64(&b, C);
    for (unsigned i = 0; i < n; i++)
        r[i] = t[i];
    row_add(&b, r, t + n, n, kC);
    /* Fold 2: r_n * C into words 0 .. n-1, one chain (its high half, zero when C^2 < 2^64, at word 1); the sum
     * x' < 2^(64n) + C^2 */
    ir_val lo, hi, cy;
    bool small = (ir_u128)C * C < ((ir_u128)1 << 64);
    gb_mulx(&b, r[n], kC, &lo, &hi);
    gb_adc(&b, gb_k1(&b, 0), r[0], lo, &r[0], &cy);
    for (unsigned i = 1; i < n; i++)
        gb_adc(&b, cy, r[i], i == 1 && !small ? hi : gb_k64(&b, 0), &r[i], &cy);
    /* Fold 3: add (carry ? C : 0). With a carry, x' - 2^(64n) < C^2, so the words above word 0 are zero and word 0
     * is below C^2: when C^2 + C <= 2^64 the sum stays in word 0 (no carry out), else it takes the full chain
     * (its carry out is zero: the sum is below C^2 + C < 2^(64n) for n >= 2). */
    ir_val cc = gb_op3(&b, IR_CMOVZNZ, 64, cy, gb_k64(&b, 0), kC);
    bool one_word = (ir_u128)C * C + C <= ((ir_u128)1 << 64);
    gb_adc(&b, gb_k1(&b, 0), r[0], cc, &r[0], &cy);
    for (unsigned i = 1; !one_word && i < n; i++)
        gb_adc(&b, cy, r[i], gb_k64(&b, 0), &r[i], &cy);
    for (unsigned i = 0; i < n; i++)
        gb_store(&b, 0, i, r[i]);
    f = gen_finish(&b, "saturated Solinas", err, errlen);
out:
    return f;
}
