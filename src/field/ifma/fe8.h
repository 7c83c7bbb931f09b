/* fe8.h — eight field elements mod p = 2^255 - 19, one per 64-bit lane of an ecopt_v8 (v8.h).
 *
 * Radix 2^51: an ecopt_fe8 is five limbs l[0..4], l[i] of weight 2^(51 i), each an ecopt_v8 holding limb i of the
 * eight elements. IFMA multiplies 52-bit operands, so a multiplication input must have every limb below 2^52 (a
 * "carried" element); an element with larger limbs (below 2^62, "wide") may only be added to, subtracted from or
 * carried. The product of two 52-bit limbs is lo + hi 2^52 = lo + (2 hi) 2^51: each column's high halves are summed
 * apart and doubled once, and the reduction is RFC 7748's 2^255 = 19 (mod p).
 *
 * Every function is lane-parallel (lane i of the result depends on lane i of the inputs only), constant time in the
 * lane values, and allows its output to equal any input. Bounds are per limb and hold for all eight lanes. The
 * names and contracts are those of fe4.h's four-lane functions with 8 for 4. */
#ifndef ECOPT_FIELD_IFMA_FE8_H
#define ECOPT_FIELD_IFMA_FE8_H

#include <stdint.h>

#include "field/ifma/v8.h"

typedef struct ecopt_fe8 {
    ecopt_v8 l[5];
} ecopt_fe8;

#define ECOPT_FE8_MASK51 ((UINT64_C(1) << 51) - 1)

/* ecopt_fe8_mul19_v8 — 19 x per lane as x + 2x + 16x, for x < 2^59 (shifts and adds: x is past IFMA's 52 bits). */
ECOPT_IFMA_INLINE ecopt_v8 ecopt_fe8_mul19_v8(ecopt_v8 x) {
    return ecopt_v8_add(ecopt_v8_add(x, ecopt_v8_slli(x, 1)), ecopt_v8_slli(x, 4));
}

/* ecopt_fe8_carry — h = a, one parallel carry: limb i keeps its low 51 bits plus the carry out of limb i-1; limb 0
 * takes 19 times limb 4's (2^255 = 19).
 * Bounds:  in any limbs (carries < 2^13); out limbs < 2^51 + 2^13, limb 0 < 2^51 + 19 * 2^13: all < 2^52, a valid
 *          multiplication input ("carried"). The value mod p is unchanged. */
ECOPT_IFMA_INLINE void ecopt_fe8_carry(ecopt_fe8 *h, const ecopt_fe8 *a) {
    ecopt_v8 m = ecopt_v8_set1(ECOPT_FE8_MASK51), c[5], r[5];
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        c[i] = ecopt_v8_srli(a->l[i], 51);
        r[i] = ecopt_v8_and(a->l[i], m);
    }
    /* 19 c4 by one multiply-add (c4 < 2^13 and 19 are valid 52-bit operands, the product fits its low half): one
     * instruction where the shifts and adds of mul19_v8 are four. */
    h->l[0] = ecopt_v8_madd52lo(r[0], c[4], ecopt_v8_set1(19));
    #pragma GCC unroll 10
    for (int i = 1; i < 5; i++) h->l[i] = ecopt_v8_add(r[i], c[i - 1]);
}

/* ecopt_fe8_carry_tight — h = a, one sequential carry: limb 0's carry goes into limb 1 before limb 1 is split, and so
 * on up to limb 4, whose carry comes back into limb 0 times 19. The same instruction count as ecopt_fe8_carry, a
 * longer dependency chain, and a tighter result: limbs 1..4 below 2^51, so that twice a limb is still a valid
 * multiplication operand (ecopt_fe8_sq_tight_wide).
 * Bounds:  in limbs < 2^63; out limbs 1..4 < 2^51, limb 0 < 2^51 + 19 * 2^13 ("tight", which implies carried). */
ECOPT_IFMA_INLINE void ecopt_fe8_carry_tight(ecopt_fe8 *h, const ecopt_fe8 *a) {
    ecopt_v8 m = ecopt_v8_set1(ECOPT_FE8_MASK51), t = a->l[0], r0;
    r0 = ecopt_v8_and(t, m);
    #pragma GCC unroll 10
    for (int i = 1; i < 5; i++) {
        t = ecopt_v8_add(a->l[i], ecopt_v8_srli(t, 51)); /* < 2^63 + 2^13 */
        h->l[i] = ecopt_v8_and(t, m);
    }
    h->l[0] = ecopt_v8_madd52lo(r0, ecopt_v8_srli(t, 51), ecopt_v8_set1(19));
}

/* The ten columns lo[k] + 2 hi[k] (weight 2^(51 k)) folded to five: column k + 5 has weight 2^255 2^(51 k), 19 times
 * column k's. */
ECOPT_IFMA_INLINE void ecopt_fe8_fold(ecopt_fe8 *h, const ecopt_v8 lo[10], const ecopt_v8 hi[10]) {
    #pragma GCC unroll 10
    for (int k = 0; k < 5; k++) {
        ecopt_v8 c = ecopt_v8_add(lo[k], ecopt_v8_slli(hi[k], 1));
        ecopt_v8 d = ecopt_v8_add(lo[k + 5], ecopt_v8_slli(hi[k + 5], 1));
        h->l[k] = ecopt_v8_add(c, ecopt_fe8_mul19_v8(d));
    }
}

/* ecopt_fe8_mul_wide — h = f g mod p, lane by lane, not carried.
 * Bounds:  in limbs < 2^52. A column sums at most 5 low halves (< 2^52) and 5 doubled high halves (< 2^53):
 *          < 15 2^52 < 2^56; with 19 times its partner column < 20 2^56 < 2^61. Out limbs < 2^61 (wide). */
ECOPT_IFMA_INLINE void ecopt_fe8_mul_wide(ecopt_fe8 *h, const ecopt_fe8 *f, const ecopt_fe8 *g) {
    ecopt_v8 lo[10], hi[10];
    #pragma GCC unroll 10
    for (int k = 0; k < 10; k++) lo[k] = hi[k] = ecopt_v8_zero();
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++)
        #pragma GCC unroll 10
        for (int j = 0; j < 5; j++) {
            lo[i + j] = ecopt_v8_madd52lo(lo[i + j], f->l[i], g->l[j]);
            hi[i + j + 1] = ecopt_v8_madd52hi(hi[i + j + 1], f->l[i], g->l[j]);
        }
    ecopt_fe8_fold(h, lo, hi);
}

/* ecopt_fe8_sq_wide — h = f^2 mod p, lane by lane, not carried: the 10 products f_i f_j (i < j) once, doubled by a
 * shift of their column sums (doubling an operand instead would break the 52-bit bound), plus the 5 squares.
 * Bounds:  in limbs < 2^52; columns as ecopt_fe8_mul_wide's (the same sums). Out limbs < 2^61 (wide). */
ECOPT_IFMA_INLINE void ecopt_fe8_sq_wide(ecopt_fe8 *h, const ecopt_fe8 *f) {
    ecopt_v8 lo[10], hi[10];
    #pragma GCC unroll 10
    for (int k = 0; k < 10; k++) lo[k] = hi[k] = ecopt_v8_zero();
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++)
        #pragma GCC unroll 10
        for (int j = i + 1; j < 5; j++) {
            lo[i + j] = ecopt_v8_madd52lo(lo[i + j], f->l[i], f->l[j]);
            hi[i + j + 1] = ecopt_v8_madd52hi(hi[i + j + 1], f->l[i], f->l[j]);
        }
    #pragma GCC unroll 10
    for (int k = 0; k < 10; k++) {
        lo[k] = ecopt_v8_slli(lo[k], 1);
        hi[k] = ecopt_v8_slli(hi[k], 1);
    }
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        lo[2 * i] = ecopt_v8_madd52lo(lo[2 * i], f->l[i], f->l[i]);
        hi[2 * i + 1] = ecopt_v8_madd52hi(hi[2 * i + 1], f->l[i], f->l[i]);
    }
    ecopt_fe8_fold(h, lo, hi);
}

/* ecopt_fe8_sq_tight_wide — h = f^2 mod p for a tight f (ecopt_fe8_carry_tight), not carried: the 10 cross products
 * f_i (2 f_j), i < j, with the doubled operand 2 f_j < 2^52 (j >= 1, so a limb below 2^51), exact, and the 5
 * squares; no column doubling, 16 shifts fewer than ecopt_fe8_sq_wide.
 * Bounds:  in tight; columns as ecopt_fe8_mul_wide's. Out limbs < 2^61 (wide). */
ECOPT_IFMA_INLINE void ecopt_fe8_sq_tight_wide(ecopt_fe8 *h, const ecopt_fe8 *f) {
    ecopt_v8 lo[10], hi[10], d[5];
    #pragma GCC unroll 10
    for (int k = 0; k < 10; k++) lo[k] = hi[k] = ecopt_v8_zero();
    #pragma GCC unroll 10
    for (int j = 1; j < 5; j++) d[j] = ecopt_v8_slli(f->l[j], 1);
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        lo[2 * i] = ecopt_v8_madd52lo(lo[2 * i], f->l[i], f->l[i]);
        hi[2 * i + 1] = ecopt_v8_madd52hi(hi[2 * i + 1], f->l[i], f->l[i]);
        #pragma GCC unroll 10
        for (int j = i + 1; j < 5; j++) {
            lo[i + j] = ecopt_v8_madd52lo(lo[i + j], f->l[i], d[j]);
            hi[i + j + 1] = ecopt_v8_madd52hi(hi[i + j + 1], f->l[i], d[j]);
        }
    }
    ecopt_fe8_fold(h, lo, hi);
}

/* ecopt_fe8_mul, ecopt_fe8_sq — as the _wide forms, then carried. Out limbs as ecopt_fe8_carry's (< 2^52). */
ECOPT_IFMA_INLINE void ecopt_fe8_mul(ecopt_fe8 *h, const ecopt_fe8 *f, const ecopt_fe8 *g) {
    ecopt_fe8_mul_wide(h, f, g);
    ecopt_fe8_carry(h, h);
}
ECOPT_IFMA_INLINE void ecopt_fe8_sq(ecopt_fe8 *h, const ecopt_fe8 *f) {
    ecopt_fe8_sq_wide(h, f);
    ecopt_fe8_carry(h, h);
}

/* ecopt_fe8_mul_small_wide — h = f * c mod p, lane j times lane j of c, not carried; c's lanes public constants below
 * 2^20 (121665 for the ladder's a24, RFC 7748).
 * Bounds:  in limbs < 2^52; low halves < 2^52, doubled high halves < 2^(52 + 20 - 52 + 1) = 2^21, the one from limb
 *          4 times 19 < 2^26. Out limbs < 2^53 (wide). */
ECOPT_IFMA_INLINE void ecopt_fe8_mul_small_wide(ecopt_fe8 *h, const ecopt_fe8 *f, ecopt_v8 c) {
    ecopt_v8 z = ecopt_v8_zero(), lo[5], hi[5];
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        lo[i] = ecopt_v8_madd52lo(z, f->l[i], c);
        hi[i] = ecopt_v8_slli(ecopt_v8_madd52hi(z, f->l[i], c), 1);
    }
    h->l[0] = ecopt_v8_add(lo[0], ecopt_fe8_mul19_v8(hi[4]));
    #pragma GCC unroll 10
    for (int i = 1; i < 5; i++) h->l[i] = ecopt_v8_add(lo[i], hi[i - 1]);
}

/* ecopt_fe8_mul_small — as mul_small_wide, carried. Bounds: in limbs < 2^52; out carried. */
ECOPT_IFMA_INLINE void ecopt_fe8_mul_small(ecopt_fe8 *h, const ecopt_fe8 *f, ecopt_v8 c) {
    ecopt_fe8_mul_small_wide(h, f, c);
    ecopt_fe8_carry(h, h);
}

/* ecopt_fe8_add — h = f + g limb by limb, no carry. Bounds: in with limb sums < 2^64; out the sum (carried only if
 * the sum is below 2^52 per limb, which two carried inputs are not). */
ECOPT_IFMA_INLINE void ecopt_fe8_add(ecopt_fe8 *h, const ecopt_fe8 *f, const ecopt_fe8 *g) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->l[i] = ecopt_v8_add(f->l[i], g->l[i]);
}

/* 2^12 p limb by limb: 2^12 (2^51 - 19) and 2^12 (2^51 - 1), fe4.h's constants. Above any g limb < 2^62, and
 * f + K - g < 2^64 for f limbs < 2^63: the subtraction never borrows and the sum fits. */
#define ECOPT_FE8_K0 ((((uint64_t)1) << 63) - (((uint64_t)19) << 12))
#define ECOPT_FE8_KN ((((uint64_t)1) << 63) - (((uint64_t)1) << 12))

/* ecopt_fe8_sub_wide — h = f - g mod p as f + 2^12 p - g, not carried.
 * Bounds:  in f limbs < 2^63, g limbs < 2^62; out limbs < 2^64. */
ECOPT_IFMA_INLINE void ecopt_fe8_sub_wide(ecopt_fe8 *h, const ecopt_fe8 *f, const ecopt_fe8 *g) {
    ecopt_v8 k0 = ecopt_v8_set1(ECOPT_FE8_K0), k = ecopt_v8_set1(ECOPT_FE8_KN);
    h->l[0] = ecopt_v8_add(f->l[0], ecopt_v8_sub(k0, g->l[0]));
    #pragma GCC unroll 10
    for (int i = 1; i < 5; i++) h->l[i] = ecopt_v8_add(f->l[i], ecopt_v8_sub(k, g->l[i]));
}

/* ecopt_fe8_sub — h = f - g mod p (as f + 2^12 p - g), then one carry.
 * Bounds:  in f limbs < 2^63, g limbs < 2^62; out carried. */
ECOPT_IFMA_INLINE void ecopt_fe8_sub(ecopt_fe8 *h, const ecopt_fe8 *f, const ecopt_fe8 *g) {
    ecopt_fe8_sub_wide(h, f, g);
    ecopt_fe8_carry(h, h);
}

/* ecopt_fe8_cswap — lane by lane, swap f and g where m is all ones, leave them where it is 0 (m a mask vector).
 * Time: constant in m. */
ECOPT_IFMA_INLINE void ecopt_fe8_cswap(ecopt_v8 m, ecopt_fe8 *f, ecopt_fe8 *g) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        ecopt_v8 a = f->l[i], b = g->l[i];
        f->l[i] = ecopt_v8_select(m, b, a);
        g->l[i] = ecopt_v8_select(m, a, b);
    }
}

/* ecopt_fe8_sqn — h = f^(2^n), n >= 1. Bounds: in limbs < 2^52; out < 2^52 (carried). */
ECOPT_IFMA_INLINE void ecopt_fe8_sqn(ecopt_fe8 *h, const ecopt_fe8 *f, int n) {
    ecopt_fe8_sq(h, f);
    for (int i = 1; i < n; i++) ecopt_fe8_sq(h, h);
}

/* ecopt_fe8_invert — h = f^(p-2) = 1/f mod p lane by lane (0 for f = 0 mod p), by Fermat's little theorem with the
 * addition chain of Bernstein, "Curve25519: new Diffie-Hellman speed records" (PKC 2006): 254 squarings and 11
 * multiplications. Bounds: in limbs < 2^52; out < 2^52 (carried). Time: constant (a fixed chain).
 * Not inlined: its 265 multiplications would be copied into every caller.
 * Source: the chain's exponents 2, 9, 11, 2^5 - 1, 2^10 - 1, ..., 2^250 - 1, then 2^255 - 21 = p - 2. */
static __attribute__((noinline, unused)) ECOPT_IFMA_TARGET void ecopt_fe8_invert(ecopt_fe8 *h, const ecopt_fe8 *f) {
    ecopt_fe8 z2, z9, z11, a, b, c;
    ecopt_fe8_sq(&z2, f);           /* 2 */
    ecopt_fe8_sqn(&a, &z2, 2);      /* 8 */
    ecopt_fe8_mul(&z9, &a, f);      /* 9 */
    ecopt_fe8_mul(&z11, &z9, &z2);  /* 11 */
    ecopt_fe8_sq(&a, &z11);         /* 22 */
    ecopt_fe8_mul(&a, &a, &z9);     /* 31 = 2^5 - 1 */
    ecopt_fe8_sqn(&b, &a, 5);
    ecopt_fe8_mul(&a, &b, &a);      /* 2^10 - 1 */
    ecopt_fe8_sqn(&b, &a, 10);
    ecopt_fe8_mul(&b, &b, &a);      /* 2^20 - 1 */
    ecopt_fe8_sqn(&c, &b, 20);
    ecopt_fe8_mul(&b, &c, &b);      /* 2^40 - 1 */
    ecopt_fe8_sqn(&b, &b, 10);
    ecopt_fe8_mul(&a, &b, &a);      /* 2^50 - 1 */
    ecopt_fe8_sqn(&b, &a, 50);
    ecopt_fe8_mul(&b, &b, &a);      /* 2^100 - 1 */
    ecopt_fe8_sqn(&c, &b, 100);
    ecopt_fe8_mul(&b, &c, &b);      /* 2^200 - 1 */
    ecopt_fe8_sqn(&b, &b, 50);
    ecopt_fe8_mul(&a, &b, &a);      /* 2^250 - 1 */
    ecopt_fe8_sqn(&a, &a, 5);       /* 2^255 - 32 */
    ecopt_fe8_mul(h, &a, &z11);     /* 2^255 - 21 */
}

#endif /* ECOPT_FIELD_IFMA_FE8_H */
