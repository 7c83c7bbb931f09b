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
 * low 64 bits and records the matrix M = [[u, v], [q, r]] with 2^62 (f', g') = M (f, g) exactly; u, v, q, r start
 * as 8 * identity (2^3 = 2^(62 - 59)), so the full-size division is by 2^62, one limb. Row sums: after i steps
 * |u| + |v| <= 2^(3+i) and |q| + |r| <= 2^(3+i) (a swap or an add makes a row from both, and doubling the other),
 * so every entry fits 2^62 and the matrix products below fit a signed 128-bit accumulator.
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
 * Time: constant. The loop counts are fixed; every decision of a step is a mask from ecopt_ct_mask (value barrier),
 * no branch, no index depends on x. Signed right shifts of negative int64_t and __int128 values are arithmetic in
 * gcc and clang (implementation-defined in C11; both document sign extension); left shifts are done unsigned. */
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

/* 59 divsteps on the low 64 bits f0 (odd), g0; returns the new delta2 and the scaled matrix t = {u, v, q, r}.
 * One step with masks (all ones or 0): P = (delta2 > 0), odd = (g odd), sw = P & odd (the swap branch).
 *   g += (P ? -f : f) & odd          g - f in the swap branch, g + f in the other odd one, g when g is even
 *   f += g & sw                      in the swap branch the new f is the old g = f + (g - f)
 *   delta2 = (sw ? -delta2 : delta2) + 2;  g /= 2
 * and the rows (u, v) of f and (q, r) of g follow f and g, the f row doubled instead of g halved. The negation
 * by P is computed before odd is known, so g's chain per step is: low bit, mask, and, add, shift. */
static int64_t fe_inv_divsteps_59(int64_t delta2, uint64_t f0, uint64_t g0, int64_t t[4]) {
    /* Unsigned arithmetic (wrapping mod 2^64): the values fit int64_t by the row-sum bound above.
     * delta2 is carried as z = -(delta2 + 1) / 2 (delta2 is odd): delta2 > 0 exactly when z < 0, so the mask is z's
     * sign spread by an arithmetic shift; delta2 + 2 is z - 1, and 2 - delta2 is -z - 2 = (z ^ all ones) - 1. That
     * makes z's chain per step shift, and, xor, subtract (the form with delta2 took seven operations). */
    uint64_t u = 8, v = 0, q = 0, r = 8, z = (uint64_t)(-(delta2 + 1) / 2);
    for (int i = 0; i < FE_INV_STEPS; i++) {
        uint64_t pos = ecopt_ct_barrier((uint64_t)((int64_t)z >> 63));
        uint64_t nf = (f0 ^ pos) - pos, nu = (u ^ pos) - pos, nv = (v ^ pos) - pos;
        uint64_t odd = ecopt_ct_mask(g0 & 1);
        uint64_t sw = odd & pos;
        g0 += nf & odd;
        q += nu & odd;
        r += nv & odd;
        f0 += g0 & sw;
        u += q & sw;
        v += r & sw;
        z = (z ^ sw) - 1;
        g0 >>= 1;
        /* clang 14 (2026-11-30) vectorizes the pairs (u, v) and (q, r) into SSE registers, which puts moves between
         * register files on every step's chain (2.7x slower); the barriers keep them in general registers. */
        u = ecopt_ct_barrier(u << 1);
        v = ecopt_ct_barrier(v << 1);
        q = ecopt_ct_barrier(q);
        r = ecopt_ct_barrier(r);
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return -2 * (int64_t)z - 1; /* delta2 = -2z - 1 */
}

/* One limb out of a signed accumulator: the low 62 bits, then the accumulator shifted (arithmetic). */
static inline int64_t fe_inv_take62(fe_inv_i128 *c) {
    int64_t lo = (int64_t)((uint64_t)*c & FE_INV_M62);
    *c >>= 62;
    return lo;
}

/* (f, g) <- M (f, g) / 2^62, exact. Inputs: limbs 0..3 in [0, 2^62), |value| <= p. Each product < 2^124 in
 * magnitude, so two of them plus a carry below 2^64 fit the accumulator. */
static void fe_inv_update_fg(int64_t f[5], int64_t g[5], const int64_t t[4]) {
    fe_inv_i128 cf = (fe_inv_i128)t[0] * f[0] + (fe_inv_i128)t[1] * g[0];
    fe_inv_i128 cg = (fe_inv_i128)t[2] * f[0] + (fe_inv_i128)t[3] * g[0];
    cf >>= 62; /* the low 62 bits are zero: 2^62 divides M (f, g) */
    cg >>= 62;
    for (int i = 1; i < 5; i++) {
        cf += (fe_inv_i128)t[0] * f[i] + (fe_inv_i128)t[1] * g[i];
        cg += (fe_inv_i128)t[2] * f[i] + (fe_inv_i128)t[3] * g[i];
        f[i - 1] = fe_inv_take62(&cf);
        g[i - 1] = fe_inv_take62(&cg);
    }
    f[4] = (int64_t)cf; /* |f'|, |g'| <= p < 2^255: the top limb is small */
    g[4] = (int64_t)cg;
}

/* (d, e) <- M (d, e) / 2^62 mod p, exact after adding m p (see the top comment). |d|, |e| < 11p: products and sums
 * stay below 2^127 in magnitude. */
static void fe_inv_update_de(int64_t d[5], int64_t e[5], const int64_t t[4]) {
    uint64_t md = ((uint64_t)t[0] * (uint64_t)d[0] + (uint64_t)t[1] * (uint64_t)e[0]) * FE_INV_19INV & FE_INV_M62;
    uint64_t me = ((uint64_t)t[2] * (uint64_t)d[0] + (uint64_t)t[3] * (uint64_t)e[0]) * FE_INV_19INV & FE_INV_M62;
    /* m p = -19 m + 2^7 m 2^248: limb 0 gets -19 m (which cancels the low 62 bits), limb 4 gets 128 m. */
    fe_inv_i128 cd = (fe_inv_i128)t[0] * d[0] + (fe_inv_i128)t[1] * e[0] - (fe_inv_i128)19 * (int64_t)md;
    fe_inv_i128 ce = (fe_inv_i128)t[2] * d[0] + (fe_inv_i128)t[3] * e[0] - (fe_inv_i128)19 * (int64_t)me;
    cd >>= 62;
    ce >>= 62;
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
    int64_t delta2 = 1;
    for (int b = 0; b < FE_INV_BATCHES; b++) {
        uint64_t f0 = (uint64_t)f[0] | ((uint64_t)f[1] << 62), g0 = (uint64_t)g[0] | ((uint64_t)g[1] << 62);
        delta2 = fe_inv_divsteps_59(delta2, f0, g0, t);
        fe_inv_update_fg(f, g, t);
        fe_inv_update_de(d, e, t);
    }
    /* f = +-1: its sign is the sign of limb 4. w = sign(f) d + 16p > 0 (|d| < 11p), limb by limb (negating every
     * limb negates the value; the carries below renormalize). */
    uint64_t s = ecopt_ct_mask((uint64_t)f[4] >> 63);
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
