/* fe_invert_divsteps_impl.h — inversion mod p = 2^255 - 19 by Bernstein-Yang divsteps, on canonical bytes, so that
 * every backend shares it (included by fe_common_impl.h, i.e. compiled once per backend; needs unsigned __int128).
 *
 * Source: D. J. Bernstein, B.-Y. Yang, "Fast constant-time gcd computation and modular inversion", TCHES 2019(3):
 * the divstep (sec. 8), its batching through 2x2 transition matrices computed from the low bits only (sec. 10-11),
 * and the "half-delta" variant: delta starts at 1/2 instead of 1 (the paper's hddivstep). Iteration bound: 590
 * hddivsteps suffice for odd f and 0 <= g <= f < 2^256 (P. Wuille, github.com/sipa/safegcd-bounds, machine-checked
 * in Coq: coq/hddivsteps/hddivsteps590_proof.v, theorem hddivsteps590_prime_inverse). Here f = p < 2^255, g < p,
 * and we run exactly 590 = 10 x 59.
 *
 * The step, with delta2 = 2 delta (so delta2 starts at 1 and stays odd):
 *   if delta2 > 0 and g odd: (delta2, f, g) <- (2 - delta2, g, (g - f) / 2)
 *   else if g odd:           (delta2, f, g) <- (2 + delta2, f, (g + f) / 2)
 *   else:                    (delta2, f, g) <- (2 + delta2, f, g / 2)
 * f stays odd, and max(|f|, |g|) never grows (each new value is an old one or the half of a sum or difference of
 * two), so |f|, |g| <= p throughout. When g reaches 0, f = +-gcd(p, x) = +-1 for x != 0 (and f = p for x = 0).
 *
 * Batches. The first k steps depend only on the low k bits of f and g and on delta2. A batch runs 59 steps on the
 * low 64 bits and yields the matrix M = [[u, v], [q, r]] with 2^62 (f', g') = M (f, g) exactly: the product of the
 * matrices of four packed inner batches of 15, 15, 15 and 14 steps (below), each scaled by 2^k, times 2^3 = 2^(62 -
 * 59), so that the full-size division is by 2^62, one limb. Row sums: a row of a matrix scaled by 2^k has
 * |u| + |v| <= 2^k (a swap or an add makes a row from both, then halves it), so the product's rows have sums at most
 * 2^62: every entry fits int64_t and the matrix products below fit a signed 128-bit accumulator.
 *
 * Bezout coefficients. d, e with f = d x, g = e x (mod p): start d = 0, e = 1; each batch sets
 * (d', e') = M (d, e) / 2^62 mod p, done exactly by adding m p with m = (u d + v e) / 19 mod 2^62 (p = -19 mod
 * 2^62), which clears the low limb. |d'| <= (2^62 max(|d|, |e|) + 2^62 p) / 2^62, so after the 10 batches
 * |d|, |e| < 10p + 1. At the end f = +-1 and 1/x = f d (mod p); for x = 0, d = 0 and the result is 0 (the Coq
 * theorem's g = 0 case), as ecopt_fe_invert's contract requires.
 *
 * Numbers are 5 limbs of radix 2^62: limbs 0..3 in [0, 2^62), limb 4 signed (the value's sign), int64_t each. p is
 * 2^255 - 19 = -19 + 2^7 2^248: only limbs 0 and 4 take part in m p.
 *
 * Time: constant. The loop counts are fixed; every decision of a step is a mask from ecopt_ct_mask or
 * ecopt_ct_barrier (value barriers), no branch, no index depends on x (gcc 12 and clang 14 -O2 emit no branch, cmov
 * or setcc in the steps: checked in their assembly; tests/ct runs it under valgrind). Signed right
 * shifts of negative int64_t and __int128 values are arithmetic in gcc and clang (implementation-defined in C11;
 * both document sign extension); left shifts are done unsigned. */
#ifndef ECOPT_FIELD_FE_INVERT_DIVSTEPS_IMPL_H
#define ECOPT_FIELD_FE_INVERT_DIVSTEPS_IMPL_H

#include "bytes.h"
#include "ct.h"

#define FE_INV_M62 ((((uint64_t)1) << 62) - 1)
#define FE_INV_STEPS 59   /* divsteps per batch */
#define FE_INV_BATCHES 10 /* 10 x 59 = 590, the hddivstep bound for 256-bit inputs */

/* 1/19 mod 2^64: 19 * 0x86bca1af286bca1b = 10 * 2^64 + 1. */
#define FE_INV_19INV ((uint64_t)0x86bca1af286bca1bu)

typedef __int128 fe_inv_i128;

/* Packed inner batches. An inner batch of k <= 19 steps runs on two words that each hold a value's low bits together
 * with its row of the batch's transition matrix (Pornin, "Optimized Binary GCD for Modular Inversion", IACR ePrint
 * 2020/972, sec. 3, packs the update factors the same way):
 *   F = phi + 2^20 u + 2^42 v,   G = gam + 2^20 q + 2^42 r      (as signed 64-bit integers)
 * with the matrix scaled by 2^k: it starts as 2^k I, the g row is halved on every step (exactly: after i steps every
 * entry is a multiple of 2^(k-i)), and after the batch 2^k (f', g') = [[u, v], [q, r]] (f, g). The low fields start
 * as phi = f mod 2^k, gam = g mod 2^k, and follow the same linear map: phi = (u phi0 + v gam0) / 2^k, so
 * phi = f (mod 2^(k-i)) after i steps, enough for step i's parity test on gam (k - i >= 1). Adding F to G, negating
 * F and halving G (an arithmetic shift, exact: gam, q, r are even then) act on all three fields at once, so a step
 * costs the same few word operations as a step on bare low bits, and the matrix comes for free.
 * Field widths: every row of the scaled matrix has |u| + |v| <= 2^k (the start has, and each new row is an old one
 * or the half of a sum or difference of two), hence |phi|, |gam| < 2^k <= 2^19 (the max of phi0 and gam0 times the
 * row sum over 2^k), |phi + 2^20 u| < 2^19 + 2^39 < 2^41, |v| <= 2^19 < 2^21, and |F| < 2^19 + 2^39 + 2^61 < 2^63
 * (also before the halving, when the g row's sum is at most 2^(k+1)): no field spills into the next beyond a
 * borrow, and rounding recovers them: v = (F + 2^41) >> 42, u = the low 42 bits of F + 2^19, sign-extended, >> 20.
 * The parity is read from bit 1 of G before its halving, which takes the shift off g's chain (shift left, shift
 * right, and, add per step). */
#define FE_INV_LOW 20 /* the position of the middle field */
#define FE_INV_TOP 42 /* the position of the top field */

/* k packed divsteps (k <= 19) on F, G; *z is delta2's form z = -(delta2 + 1) / 2 (delta2 is odd): delta2 > 0 exactly
 * when z < 0; delta2 + 2 is z - 1 and 2 - delta2 is (z ^ all ones) - 1. One step with masks (all ones or 0):
 * pos = (delta2 > 0), odd = (g odd), sw = pos & odd (the swap branch), NF = (pos ? -F : F), computed at the end of
 * the previous step:
 *   G += NF & odd          g - f in the swap branch, g + f in the other odd one, g when g is even
 *   F ^= (F ^ G_old) & sw  the new f is the old g in the swap branch
 *   z = (z ^ sw) - 1;  G >>= 1
 * 14 word operations a step; the longest chain, sw -> z -> pos -> NF -> G -> odd -> sw, is 10 operations per two
 * steps, so the chain, not the operation count, sets the speed (about 5.4 core cycles a step). Why not the
 * alternatives: F += G_new & sw for the swap saves an operation but puts it on the chain; choosing the next step's
 * NF by sw between precomputed -+G and -+F shortens the chain to 8 but needs 24 operations a step; taking the
 * parity from G after the halving lengthens G's chain. Each measured slower (CHANGELOG.md); the loop is unrolled
 * because gcc's rolled loop is slower (clang's is slightly faster rolled, a smaller loss than gcc's). */
static inline __attribute__((always_inline)) void fe_inv_divsteps_packed(uint64_t *z, uint64_t *F, uint64_t *G,
                                                                         int k) {
    uint64_t f = *F, g = *G, zz = *z;
    uint64_t pos = ecopt_ct_barrier((uint64_t)((int64_t)zz >> 63));
    uint64_t nf = (f ^ pos) - pos;
    uint64_t odd = ecopt_ct_mask(g & 1);
#if defined(__clang__)
#pragma clang loop unroll(full)
#else
#pragma GCC unroll 20
#endif
    for (int i = 0; i < k; i++) {
        uint64_t sw = odd & pos;
        uint64_t gp = g + (nf & odd);
        f ^= (f ^ g) & sw;
        zz = (zz ^ sw) - 1;
        pos = ecopt_ct_barrier((uint64_t)((int64_t)zz >> 63));
        nf = (f ^ pos) - pos;
        odd = ecopt_ct_barrier((uint64_t)((int64_t)(gp << 62) >> 63)); /* bit 1 of gp: bit 0 of gp / 2 */
        g = (uint64_t)((int64_t)gp >> 1);
    }
    *F = f;
    *G = g;
    *z = zz;
}

/* The fields u, v of a packed word after an inner batch (see above). */
static inline int64_t fe_inv_field_lo(uint64_t w) {
    return (int64_t)((w + (((uint64_t)1) << (FE_INV_LOW - 1))) << (64 - FE_INV_TOP)) >> (64 - FE_INV_TOP + FE_INV_LOW);
}
static inline int64_t fe_inv_field_hi(uint64_t w) {
    return (int64_t)(w + (((uint64_t)1) << (FE_INV_TOP - 1))) >> FE_INV_TOP;
}

/* One packed inner batch of k steps from the low bits f0, g0 (k <= 19, a constant after inlining); m = {u, v, q, r},
 * the inner batch's matrix scaled by 2^k; when advance is set, f0, g0 move on to the low bits after it:
 * f0 <- (u f0 + v g0) / 2^k mod 2^64, exact in the low 64 - k bits (the products wrap mod 2^64, which keeps the low
 * bits, and 2^k divides the sum). */
static inline __attribute__((always_inline)) void fe_inv_batch(uint64_t *z, uint64_t *f0, uint64_t *g0, int k,
                                                               int advance, int64_t m[4]) {
    uint64_t lowmask = (((uint64_t)1) << k) - 1;
    uint64_t F = (*f0 & lowmask) + (((uint64_t)1) << (FE_INV_LOW + k));
    uint64_t G = (*g0 & lowmask) + (((uint64_t)1) << (FE_INV_TOP + k));
    fe_inv_divsteps_packed(z, &F, &G, k);
    m[0] = fe_inv_field_lo(F);
    m[1] = fe_inv_field_hi(F);
    m[2] = fe_inv_field_lo(G);
    m[3] = fe_inv_field_hi(G);
    if (advance) { /* public */
        uint64_t nf = (uint64_t)m[0] * *f0 + (uint64_t)m[1] * *g0, ng = (uint64_t)m[2] * *f0 + (uint64_t)m[3] * *g0;
        *f0 = nf >> k;
        *g0 = ng >> k;
    }
}

/* t <- m t (2x2 integer matrices; the entries stay below 2^59 in magnitude, see above). */
static inline void fe_inv_mat_mul(int64_t t[4], const int64_t m[4]) {
    int64_t a = m[0] * t[0] + m[1] * t[2], b = m[0] * t[1] + m[1] * t[3];
    int64_t c = m[2] * t[0] + m[3] * t[2], d = m[2] * t[1] + m[3] * t[3];
    t[0] = a;
    t[1] = b;
    t[2] = c;
    t[3] = d;
}

/* 59 divsteps on the low 64 bits f0 (odd), g0, in packed inner batches of 15, 15, 15 and 14 steps; updates *z and
 * returns the matrix t = {u, v, q, r} with 2^62 (f', g') = M (f, g): the inner batches' matrices multiplied, times
 * 2^3 = 2^(62 - 59). Each inner batch leaves 64 - k valid low bits for the next: 64 - 15 - 15 - 15 = 19 >= 14 for the
 * last. The product's row sums are at most 2^(15 + 15 + 15 + 14) = 2^59 (row sums multiply), 2^62 after the scaling. */
static void fe_inv_divsteps_59(uint64_t *z, uint64_t f0, uint64_t g0, int64_t t[4]) {
    int64_t m[4];
    fe_inv_batch(z, &f0, &g0, 15, 1, t);
    fe_inv_batch(z, &f0, &g0, 15, 1, m);
    fe_inv_mat_mul(t, m);
    fe_inv_batch(z, &f0, &g0, 15, 1, m);
    fe_inv_mat_mul(t, m);
    fe_inv_batch(z, &f0, &g0, 14, 0, m);
    fe_inv_mat_mul(t, m);
    _Static_assert(15 + 15 + 15 + 14 == FE_INV_STEPS, "the inner batches make one batch");
    for (int i = 0; i < 4; i++) t[i] = (int64_t)((uint64_t)t[i] << (62 - FE_INV_STEPS));
}

/* One limb out of a signed accumulator: the low 62 bits, then the accumulator shifted (arithmetic). */
static inline int64_t fe_inv_take62(fe_inv_i128 *c) {
    int64_t lo = (int64_t)((uint64_t)*c & FE_INV_M62);
    *c >>= 62;
    return lo;
}

/* (f, g) <- M (f, g) / 2^62, exact. Inputs: limbs 0..3 in [0, 2^62), |value| <= p. Each product < 2^124 in
 * magnitude, so two of them plus a carry below 2^64 fit the accumulator. */
static void fe_inv_update_fg(int64_t f[5], int64_t g[5], const int64_t tt[4]) {
    const int64_t t[4] = {tt[0], tt[1], tt[2], tt[3]};
    fe_inv_i128 cf = (fe_inv_i128)t[0] * f[0] + (fe_inv_i128)t[1] * g[0];
    fe_inv_i128 cg = (fe_inv_i128)t[2] * f[0] + (fe_inv_i128)t[3] * g[0];
    cf >>= 62; /* the low 62 bits are zero: 2^62 divides M (f, g) */
    cg >>= 62;
#pragma GCC unroll 4
    for (int i = 1; i < 5; i++) {
        cf += (fe_inv_i128)t[0] * f[i] + (fe_inv_i128)t[1] * g[i];
        cg += (fe_inv_i128)t[2] * f[i] + (fe_inv_i128)t[3] * g[i];
        f[i - 1] = fe_inv_take62(&cf);
        g[i - 1] = fe_inv_take62(&cg);
    }
    f[4] = (int64_t)cf; /* |f'|, |g'| <= p < 2^255: the top limb is small */
    g[4] = (int64_t)cg;
}

/* One row of the Bezout update: out = (a d + b e) / 2^62 mod p, exact after adding m p (see the top comment).
 * |d|, |e| < 11p, |a| + |b| <= 2^62: products and sums stay below 2^127 in magnitude. out may alias d (limb i is
 * read before limb i - 1 is written, and limb 0 first of all). */
static inline void fe_inv_update_row(int64_t out[5], const int64_t d[5], const int64_t e[5], int64_t a, int64_t b) {
    uint64_t m = ((uint64_t)a * (uint64_t)d[0] + (uint64_t)b * (uint64_t)e[0]) * FE_INV_19INV & FE_INV_M62;
    /* m p = -19 m + 2^7 m 2^248: limb 0 gets -19 m (which cancels the low 62 bits), limb 4 gets 128 m. */
    fe_inv_i128 c = (fe_inv_i128)a * d[0] + (fe_inv_i128)b * e[0] - (fe_inv_i128)19 * (int64_t)m;
    c >>= 62;
    for (int i = 1; i < 5; i++) {
        c += (fe_inv_i128)a * d[i] + (fe_inv_i128)b * e[i];
        if (i == 4) c += (fe_inv_i128)128 * (int64_t)m; /* public loop index */
        out[i - 1] = fe_inv_take62(&c);
    }
    out[4] = (int64_t)c;
}

/* (d, e) <- M (d, e) / 2^62 mod p: both rows of fe_inv_update_row in one loop (gcc 12 schedules the fused loop
 * better than two calls: about 12% fewer ticks). */
static void fe_inv_update_de(int64_t d[5], int64_t e[5], const int64_t tt[4]) {
    const int64_t t[4] = {tt[0], tt[1], tt[2], tt[3]};
    uint64_t md = ((uint64_t)t[0] * (uint64_t)d[0] + (uint64_t)t[1] * (uint64_t)e[0]) * FE_INV_19INV & FE_INV_M62;
    uint64_t me = ((uint64_t)t[2] * (uint64_t)d[0] + (uint64_t)t[3] * (uint64_t)e[0]) * FE_INV_19INV & FE_INV_M62;
    /* m p = -19 m + 2^7 m 2^248: limb 0 gets -19 m (which cancels the low 62 bits), limb 4 gets 128 m. */
    fe_inv_i128 cd = (fe_inv_i128)t[0] * d[0] + (fe_inv_i128)t[1] * e[0] - (fe_inv_i128)19 * (int64_t)md;
    fe_inv_i128 ce = (fe_inv_i128)t[2] * d[0] + (fe_inv_i128)t[3] * e[0] - (fe_inv_i128)19 * (int64_t)me;
    cd >>= 62;
    ce >>= 62;
#pragma GCC unroll 4
    for (int i = 1; i < 5; i++) {
        cd += (fe_inv_i128)t[0] * d[i] + (fe_inv_i128)t[1] * e[i];
        ce += (fe_inv_i128)t[2] * d[i] + (fe_inv_i128)t[3] * e[i];
        if (i == 4) { /* public loop index */
            cd += (fe_inv_i128)128 * (int64_t)md;
            ce += (fe_inv_i128)128 * (int64_t)me;
        }
        d[i - 1] = fe_inv_take62(&cd);
        e[i - 1] = fe_inv_take62(&ce);
    }
    d[4] = (int64_t)cd;
    e[4] = (int64_t)ce;
}

/* out = 1/x mod p (0 for x = 0), canonical. in: canonical, x < p (the bound needs g <= f). */
static void fe_inv_divsteps_bytes(uint8_t out[32], const uint8_t in[32]) {
    uint64_t a0 = ecopt_load64_le(in), a1 = ecopt_load64_le(in + 8), a2 = ecopt_load64_le(in + 16),
             a3 = ecopt_load64_le(in + 24);
    int64_t f[5] = {(int64_t)(FE_INV_M62 - 18), (int64_t)FE_INV_M62, (int64_t)FE_INV_M62, (int64_t)FE_INV_M62, 127};
    int64_t g[5] = {(int64_t)(a0 & FE_INV_M62), (int64_t)(((a0 >> 62) | (a1 << 2)) & FE_INV_M62),
                    (int64_t)(((a1 >> 60) | (a2 << 4)) & FE_INV_M62), (int64_t)(((a2 >> 58) | (a3 << 6)) & FE_INV_M62),
                    (int64_t)(a3 >> 56)};
    int64_t d[5] = {0, 0, 0, 0, 0}, e[5] = {1, 0, 0, 0, 0}, t[4];
    uint64_t z = (uint64_t)-1; /* delta2 = 1 */
    uint64_t f0, g0;
    for (int b = 0; b < FE_INV_BATCHES - 1; b++) {
        f0 = (uint64_t)f[0] | ((uint64_t)f[1] << 62);
        g0 = (uint64_t)g[0] | ((uint64_t)g[1] << 62);
        fe_inv_divsteps_59(&z, f0, g0, t);
        fe_inv_update_fg(f, g, t);
        fe_inv_update_de(d, e, t);
    }
    /* The last batch: only d and the sign of f are needed. 2^62 f' = u f + v g, so the low 64 bits of u f0 + v g0
     * (mod 2^64) hold f' mod 4 in bits 62 and 63: 01 for f' = 1, 11 for f' = -1 (for x = 0, f' = p and d = 0, and
     * the sign does not matter). */
    f0 = (uint64_t)f[0] | ((uint64_t)f[1] << 62);
    g0 = (uint64_t)g[0] | ((uint64_t)g[1] << 62);
    fe_inv_divsteps_59(&z, f0, g0, t);
    fe_inv_update_row(d, d, e, t[0], t[1]);
    /* f = +-1 with the sign s. w = sign(f) d + 16p > 0 (|d| < 11p), limb by limb (negating every limb negates the
     * value; the carries below renormalize). */
    uint64_t s = ecopt_ct_mask(((uint64_t)t[0] * f0 + (uint64_t)t[1] * g0) >> 63);
    int64_t w[5];
    for (int i = 0; i < 5; i++) w[i] = (int64_t)(((uint64_t)d[i] ^ s) - s);
    w[0] -= 16 * 19;
    w[4] += 16 * 128;
    fe_inv_i128 c = 0;
    for (int i = 0; i < 4; i++) {
        c += w[i];
        w[i] = fe_inv_take62(&c);
    }
    w[4] += (int64_t)c; /* 0 < w < 27p < 2^260: w[4] in [0, 2^12) */
    /* To 4 x 64 bits plus the bits from 256 up, then fold 2^255 = 19 (mod p) twice and subtract p once if needed. */
    uint64_t h0 = (uint64_t)w[0] | ((uint64_t)w[1] << 62), h1 = ((uint64_t)w[1] >> 2) | ((uint64_t)w[2] << 60),
             h2 = ((uint64_t)w[2] >> 4) | ((uint64_t)w[3] << 58), h3 = ((uint64_t)w[3] >> 6) | ((uint64_t)w[4] << 56);
    uint64_t top = ((uint64_t)w[4] >> 8) << 1 | (h3 >> 63); /* w >> 255, < 2^5 */
    h3 &= ~(((uint64_t)1) << 63);
    unsigned __int128 acc;
    for (int k = 0; k < 2; k++) {
        acc = (unsigned __int128)h0 + 19 * top;
        h0 = (uint64_t)acc;
        acc = (acc >> 64) + h1;
        h1 = (uint64_t)acc;
        acc = (acc >> 64) + h2;
        h2 = (uint64_t)acc;
        acc = (acc >> 64) + h3;
        h3 = (uint64_t)acc & ~(((uint64_t)1) << 63);
        top = (uint64_t)acc >> 63; /* after the first fold the value is < 2^255 + 19 * 2^5: the second leaves 0 */
    }
    /* Now h < 2^255. h >= p exactly when h + 19 reaches 2^255; then h - p = h + 19 - 2^255. */
    uint64_t y0, y1, y2, y3;
    acc = (unsigned __int128)h0 + 19;
    y0 = (uint64_t)acc;
    acc = (acc >> 64) + h1;
    y1 = (uint64_t)acc;
    acc = (acc >> 64) + h2;
    y2 = (uint64_t)acc;
    acc = (acc >> 64) + h3;
    y3 = (uint64_t)acc;
    uint64_t ge = ecopt_ct_mask(y3 >> 63);
    y3 &= ~(((uint64_t)1) << 63);
    ecopt_store64_le(out, h0 ^ (ge & (h0 ^ y0)));
    ecopt_store64_le(out + 8, h1 ^ (ge & (h1 ^ y1)));
    ecopt_store64_le(out + 16, h2 ^ (ge & (h2 ^ y2)));
    ecopt_store64_le(out + 24, h3 ^ (ge & (h3 ^ y3)));
}

#endif /* ECOPT_FIELD_FE_INVERT_DIVSTEPS_IMPL_H */
