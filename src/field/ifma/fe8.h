/* fe8.h — eight field elements mod p = 2^255 - 19, one per 64-bit lane of an ecopt_v8 (v8.h).
 *
 * Radix 2^51: an ecopt_fe8 is five limbs l[0..4], l[i] of weight 2^(51 i), each an ecopt_v8 holding limb i of the
 * eight elements. IFMA multiplies 52-bit operands, so a multiplication input must have every limb below 2^52 (a
 * "carried" element); an element with larger limbs (below 2^62, "wide") may only be added to, subtracted from or
 * carried. The product of two 52-bit limbs is lo + hi 2^52 = lo + (2 hi) 2^51: each column's high halves are summed
 * apart and doubled once, and the reduction is RFC 7748's 2^255 = 19 (mod p).
 *
 * Every function is lane-parallel (lane i of the result depends on lane i of the inputs only), constant time in the
 * lane values, and allows its output to equal any input. Bounds are per limb and hold for all eight lanes. */
#ifndef ECOPT_FIELD_IFMA_FE8_H
#define ECOPT_FIELD_IFMA_FE8_H

#include <stdint.h>

#include "field/ifma/v8.h"

typedef struct {
    ecopt_v8 l[5];
} ecopt_fe8;

#define ECOPT_FE8_MASK51 ((UINT64_C(1) << 51) - 1)

/* 19 x per lane (x < 2^59): 16 x + 2 x + x, three cheap operations where a vector multiply is slow. */
ECOPT_V8_FN ecopt_v8 ecopt_fe8_mul19(ecopt_v8 x) {
    return ecopt_v8_add(ecopt_v8_add(x, ecopt_v8_slli(x, 1)), ecopt_v8_slli(x, 4));
}

/* ecopt_fe8_carry — one parallel carry: limb i keeps its low 51 bits plus the carry out of limb i-1; limb 0 takes 19
 * times limb 4's (2^255 = 19).
 * Bounds:  in limbs < 2^63 (so carries < 2^12); out limbs < 2^51 + 2^12, limb 0 < 2^51 + 19 * 2^12: all < 2^52, a
 *          valid multiplication input. The value mod p is unchanged. */
ECOPT_V8_FN void ecopt_fe8_carry(ecopt_fe8 *h) {
    ecopt_v8 m = ecopt_v8_set1(ECOPT_FE8_MASK51), c[5];
    for (int i = 0; i < 5; i++) {
        c[i] = ecopt_v8_srli(h->l[i], 51);
        h->l[i] = ecopt_v8_and(h->l[i], m);
    }
    h->l[0] = ecopt_v8_add(h->l[0], ecopt_fe8_mul19(c[4]));
    for (int i = 1; i < 5; i++) h->l[i] = ecopt_v8_add(h->l[i], c[i - 1]);
}

/* The ten columns lo[k] + 2 hi[k] (weight 2^(51 k)) folded to five: column k + 5 has weight 2^255 2^(51 k), 19 times
 * column k's. */
ECOPT_V8_FN void ecopt_fe8_fold(ecopt_fe8 *h, const ecopt_v8 lo[10], const ecopt_v8 hi[10]) {
    for (int k = 0; k < 5; k++) {
        ecopt_v8 c = ecopt_v8_add(lo[k], ecopt_v8_slli(hi[k], 1));
        ecopt_v8 d = ecopt_v8_add(lo[k + 5], ecopt_v8_slli(hi[k + 5], 1));
        h->l[k] = ecopt_v8_add(c, ecopt_fe8_mul19(d));
    }
}

/* ecopt_fe8_mul_wide — h = f g mod p, lane by lane, not carried.
 * Bounds:  in limbs < 2^52. A column sums at most 5 low halves (< 2^52) and 5 doubled high halves (< 2^53):
 *          < 15 2^52 < 2^56; with 19 times its partner column < 20 2^56 < 2^61. Out limbs < 2^61 (wide). */
ECOPT_V8_FN void ecopt_fe8_mul_wide(ecopt_fe8 *h, const ecopt_fe8 *f, const ecopt_fe8 *g) {
    ecopt_v8 lo[10], hi[10];
    for (int k = 0; k < 10; k++) lo[k] = hi[k] = ecopt_v8_zero();
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            lo[i + j] = ecopt_v8_madd52lo(lo[i + j], f->l[i], g->l[j]);
            hi[i + j + 1] = ecopt_v8_madd52hi(hi[i + j + 1], f->l[i], g->l[j]);
        }
    ecopt_fe8_fold(h, lo, hi);
}

/* ecopt_fe8_sq_wide — h = f^2 mod p, lane by lane, not carried: the 10 products f_i f_j (i < j) once, doubled by a
 * shift of their column sums (doubling an operand instead would break the 52-bit bound), plus the 5 squares.
 * Bounds:  in limbs < 2^52; columns as ecopt_fe8_mul_wide's (the same sums). Out limbs < 2^61 (wide). */
ECOPT_V8_FN void ecopt_fe8_sq_wide(ecopt_fe8 *h, const ecopt_fe8 *f) {
    ecopt_v8 lo[10], hi[10];
    for (int k = 0; k < 10; k++) lo[k] = hi[k] = ecopt_v8_zero();
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++) {
            lo[i + j] = ecopt_v8_madd52lo(lo[i + j], f->l[i], f->l[j]);
            hi[i + j + 1] = ecopt_v8_madd52hi(hi[i + j + 1], f->l[i], f->l[j]);
        }
    for (int k = 0; k < 10; k++) {
        lo[k] = ecopt_v8_slli(lo[k], 1);
        hi[k] = ecopt_v8_slli(hi[k], 1);
    }
    for (int i = 0; i < 5; i++) {
        lo[2 * i] = ecopt_v8_madd52lo(lo[2 * i], f->l[i], f->l[i]);
        hi[2 * i + 1] = ecopt_v8_madd52hi(hi[2 * i + 1], f->l[i], f->l[i]);
    }
    ecopt_fe8_fold(h, lo, hi);
}

/* ecopt_fe8_mul, ecopt_fe8_sq — as the _wide forms, then carried. Out limbs as ecopt_fe8_carry's (< 2^52). */
ECOPT_V8_FN void ecopt_fe8_mul(ecopt_fe8 *h, const ecopt_fe8 *f, const ecopt_fe8 *g) {
    ecopt_fe8_mul_wide(h, f, g);
    ecopt_fe8_carry(h);
}
ECOPT_V8_FN void ecopt_fe8_sq(ecopt_fe8 *h, const ecopt_fe8 *f) {
    ecopt_fe8_sq_wide(h, f);
    ecopt_fe8_carry(h);
}

/* ecopt_fe8_mul_small — h = f k mod p, k < 2^20 the same constant in every lane, not carried.
 * Bounds:  in limbs < 2^52; low halves < 2^52, doubled high halves < 2^(52 + 20 - 52 + 1) = 2^21, the one from limb
 *          4 times 19 < 2^26. Out limbs < 2^53 (wide). */
ECOPT_V8_FN void ecopt_fe8_mul_small(ecopt_fe8 *h, const ecopt_fe8 *f, uint64_t k) {
    ecopt_v8 kv = ecopt_v8_set1(k), z = ecopt_v8_zero(), lo[5], hi[5];
    for (int i = 0; i < 5; i++) {
        lo[i] = ecopt_v8_madd52lo(z, f->l[i], kv);
        hi[i] = ecopt_v8_slli(ecopt_v8_madd52hi(z, f->l[i], kv), 1);
    }
    h->l[0] = ecopt_v8_add(lo[0], ecopt_fe8_mul19(hi[4]));
    for (int i = 1; i < 5; i++) h->l[i] = ecopt_v8_add(lo[i], hi[i - 1]);
}

/* ecopt_fe8_add — h = f + g, then carried.
 * Bounds:  in limbs < 2^62; the sums < 2^63; out as ecopt_fe8_carry's (< 2^52). */
ECOPT_V8_FN void ecopt_fe8_add(ecopt_fe8 *h, const ecopt_fe8 *f, const ecopt_fe8 *g) {
    for (int i = 0; i < 5; i++) h->l[i] = ecopt_v8_add(f->l[i], g->l[i]);
    ecopt_fe8_carry(h);
}

/* ecopt_fe8_sub — h = f - g + 2^11 p, then carried. 2^11 p in radix 2^51 has limbs 2^62 - 19 2^11 and 2^62 - 2^11
 * (four times), so with g's limbs < 2^61 no limb goes negative, and with f's < 2^61 the sums stay < 2^63.
 * Bounds:  in limbs < 2^61; out as ecopt_fe8_carry's (< 2^52). */
ECOPT_V8_FN void ecopt_fe8_sub(ecopt_fe8 *h, const ecopt_fe8 *f, const ecopt_fe8 *g) {
    ecopt_v8 k0 = ecopt_v8_set1((UINT64_C(1) << 62) - (UINT64_C(19) << 11));
    ecopt_v8 k = ecopt_v8_set1((UINT64_C(1) << 62) - (UINT64_C(1) << 11));
    h->l[0] = ecopt_v8_add(f->l[0], ecopt_v8_sub(k0, g->l[0]));
    for (int i = 1; i < 5; i++) h->l[i] = ecopt_v8_add(f->l[i], ecopt_v8_sub(k, g->l[i]));
    ecopt_fe8_carry(h);
}

/* ecopt_fe8_cswap — lane by lane, swap f and g where m is all ones, leave them where it is 0 (m a mask vector).
 * Time: constant in m. */
ECOPT_V8_FN void ecopt_fe8_cswap(ecopt_v8 m, ecopt_fe8 *f, ecopt_fe8 *g) {
    for (int i = 0; i < 5; i++) {
        ecopt_v8 a = f->l[i], b = g->l[i];
        f->l[i] = ecopt_v8_select(m, b, a);
        g->l[i] = ecopt_v8_select(m, a, b);
    }
}

/* ecopt_fe8_sqn — h = f^(2^n), n >= 1. Bounds: in limbs < 2^52; out < 2^52 (carried). */
ECOPT_V8_FN void ecopt_fe8_sqn(ecopt_fe8 *h, const ecopt_fe8 *f, int n) {
    ecopt_fe8_sq(h, f);
    for (int i = 1; i < n; i++) ecopt_fe8_sq(h, h);
}

/* ecopt_fe8_invert — h = f^(p-2) = 1/f mod p lane by lane (0 for f = 0 mod p), by Fermat's little theorem with the
 * addition chain of Bernstein, "Curve25519: new Diffie-Hellman speed records" (PKC 2006): 254 squarings and 11
 * multiplications. Bounds: in limbs < 2^52; out < 2^52 (carried). Time: constant (a fixed chain).
 * Not inlined: its 265 multiplications would be copied into every caller.
 * Source: the chain's exponents 2, 9, 11, 2^5 - 1, 2^10 - 1, ..., 2^250 - 1, then 2^255 - 21 = p - 2. */
static __attribute__((noinline, unused)) ECOPT_V8_TARGET void ecopt_fe8_invert(ecopt_fe8 *h, const ecopt_fe8 *f) {
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
