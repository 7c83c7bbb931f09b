/* fe4.h — four field elements mod p = 2^255 - 19, one per 64-bit lane of v4.h's vectors: the ifma backend's vector
 * field arithmetic (real or, with ECOPT_IFMA_EMULATE, emulated).
 *
 * Shape: ecopt_fe4 holds five limbs of radix 2^51, l[i] = limb i of all four elements; lane j's value is
 * sum_i lane_j(l[i]) 2^(51 i) (mod p), the representation of the u64 backend (fe_u64.h) once per lane. IFMA
 * multiplies 52-bit operands: a product of two limbs is lo + hi 2^52 = lo + (2 hi) 2^51, so the high halves of each
 * column are summed apart and doubled once, and 2^255 = 19 (mod p) folds the upper five columns down (RFC 7748's
 * field; the radix keeps the cheap fold that radix 2^52 would lose).
 *
 * Bounds (per limb, every lane):
 *   any     — below 2^64: accepted by ecopt_fe4_carry and the conversions.
 *   narrow  — below 2^52: what mul, sq and mul_small read. VPMADD52 ignores a multiplier's bits above 51, so a
 *             larger limb would be truncated silently, not just overflow: every multiplication input must be narrow.
 *   carried — narrow with limbs 1..4 < 2^51 + 2^13 and limb 0 < 2^51 + 19 * 2^13: what ecopt_fe4_carry returns, and
 *             every carrying operation here (mul, sq, mul_small, addsub, sub, the conversions).
 *   wide    — below 2^61: what the _wide products return (no carry); accepted by add, addsub, sub and carry, not by
 *             a multiplication.
 * The sum of two carried elements is not narrow (it reaches 2^53): carry it (or use addsub) before multiplying.
 * Alias: every output may equal any input. Time: constant in every limb of every lane; lane masks given as integers
 * (blend's m, addsub's neg) and permutation indices are public constants of the code.
 *
 * Source: the ladder's 4-way arrangement and these bounds follow bench/ifma_probe_ladder.h, our measured prototype;
 * VPMADD52LUQ/HUQ: Intel SDM vol. 2. */
#ifndef ECOPT_FIELD_IFMA_FE4_H
#define ECOPT_FIELD_IFMA_FE4_H

#include <stdint.h>

#include "field/fe.h"
#include "field/ifma/v4.h"

#if !defined(ECOPT_FE_U64_MASK51)
#error "fe4.h converts to and from the u64 field representation (compile with ECOPT_FE_BACKEND_ifma or ifma_emu)"
#endif

typedef struct ecopt_fe4 {
    ecopt_v4 l[5];
} ecopt_fe4;

#define ECOPT_FE4_MASK51 ((((uint64_t)1) << 51) - 1)

/* ecopt_fe4_mul19_v4 — 19 x per lane as x + 2x + 16x, for x < 2^59 (shifts and adds: x is past IFMA's 52 bits). */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_fe4_mul19_v4(ecopt_v4 x) {
    return ecopt_v4_add(ecopt_v4_add(x, ecopt_v4_slli(x, 1)), ecopt_v4_slli(x, 4));
}

/* ecopt_fe4_zero — h = 0 in every lane. Bounds: out carried. */
ECOPT_IFMA_INLINE void ecopt_fe4_zero(ecopt_fe4 *h) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->l[i] = ecopt_v4_zero();
}

/* ecopt_fe4_copy — h = a. Bounds: out as in. */
ECOPT_IFMA_INLINE void ecopt_fe4_copy(ecopt_fe4 *h, const ecopt_fe4 *a) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->l[i] = a->l[i];
}

/* ecopt_fe4_carry — h = a, one parallel carry: limb i keeps its low 51 bits plus limb i-1's carry, limb 0 takes 19
 * times limb 4's (2^255 = 19). Bounds: in any (carries < 2^13); out carried. */
ECOPT_IFMA_INLINE void ecopt_fe4_carry(ecopt_fe4 *h, const ecopt_fe4 *a) {
    ecopt_v4 m = ecopt_v4_set1(ECOPT_FE4_MASK51), t[5], r[5];
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        t[i] = ecopt_v4_srli(a->l[i], 51);
        r[i] = ecopt_v4_and(a->l[i], m);
    }
    h->l[0] = ecopt_v4_add(r[0], ecopt_fe4_mul19_v4(t[4]));
    #pragma GCC unroll 10
    for (int i = 1; i < 5; i++) h->l[i] = ecopt_v4_add(r[i], t[i - 1]);
}

/* ecopt_fe4_fold — h limb k = (lo[k] + 2 hi[k]) + 19 (lo[k+5] + 2 hi[k+5]): the ten columns of a product (lo: the
 * low halves of column k, weight 2^(51 k); hi: the high halves that land there) folded to five. Each column < 15 *
 * 2^52 (below), so the result is < 20 * 15 * 2^52 < 2^61: wide. */
ECOPT_IFMA_INLINE void ecopt_fe4_fold(ecopt_fe4 *h, const ecopt_v4 lo[10], const ecopt_v4 hi[10]) {
    #pragma GCC unroll 10
    for (int k = 0; k < 5; k++) {
        ecopt_v4 c = ecopt_v4_add(lo[k], ecopt_v4_slli(hi[k], 1));
        ecopt_v4 d = ecopt_v4_add(lo[k + 5], ecopt_v4_slli(hi[k + 5], 1));
        h->l[k] = ecopt_v4_add(c, ecopt_fe4_mul19_v4(d));
    }
}

/* ecopt_fe4_mul_wide — h = a * b mod p, lane by lane, not carried. Column k sums at most 5 low halves (< 2^52
 * each) and 5 high halves (< 2^52, doubled): < 15 * 2^52. Bounds: in narrow, narrow; out wide. */
ECOPT_IFMA_INLINE void ecopt_fe4_mul_wide(ecopt_fe4 *h, const ecopt_fe4 *a, const ecopt_fe4 *b) {
    ecopt_v4 lo[10], hi[10];
    #pragma GCC unroll 10
    for (int k = 0; k < 10; k++) lo[k] = hi[k] = ecopt_v4_zero();
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++)
        #pragma GCC unroll 10
        for (int j = 0; j < 5; j++) {
            lo[i + j] = ecopt_v4_madd52lo(lo[i + j], a->l[i], b->l[j]);
            hi[i + j + 1] = ecopt_v4_madd52hi(hi[i + j + 1], a->l[i], b->l[j]);
        }
    ecopt_fe4_fold(h, lo, hi);
}

/* ecopt_fe4_mul — h = a * b mod p, lane by lane. Bounds: in narrow, narrow; out carried. */
ECOPT_IFMA_INLINE void ecopt_fe4_mul(ecopt_fe4 *h, const ecopt_fe4 *a, const ecopt_fe4 *b) {
    ecopt_fe4 t;
    ecopt_fe4_mul_wide(&t, a, b);
    ecopt_fe4_carry(h, &t);
}

/* ecopt_fe4_sq_wide — h = a^2 mod p, lane by lane, not carried: 15 limb products instead of 25, the 10 cross
 * products a_i a_j (i < j) taken once and doubled with the sum (doubling a limb instead would leave 52 bits).
 * Column k is lo_d + 2 (hi_d + lo_x) + 4 hi_x (d: the square a_{k/2}^2, x: cross products), at most the value of
 * mul's column (< 15 * 2^52). Bounds: in narrow; out wide. */
ECOPT_IFMA_INLINE void ecopt_fe4_sq_wide(ecopt_fe4 *h, const ecopt_fe4 *a) {
    ecopt_v4 d[10], x2[10], x4[10]; /* weight 1, 2, 4 */
    #pragma GCC unroll 10
    for (int k = 0; k < 10; k++) d[k] = x2[k] = x4[k] = ecopt_v4_zero();
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        d[2 * i] = ecopt_v4_madd52lo(d[2 * i], a->l[i], a->l[i]);
        x2[2 * i + 1] = ecopt_v4_madd52hi(x2[2 * i + 1], a->l[i], a->l[i]);
        #pragma GCC unroll 10
        for (int j = i + 1; j < 5; j++) {
            x2[i + j] = ecopt_v4_madd52lo(x2[i + j], a->l[i], a->l[j]);
            x4[i + j + 1] = ecopt_v4_madd52hi(x4[i + j + 1], a->l[i], a->l[j]);
        }
    }
    /* lo + 2 hi in fold's terms: lo = d + 2 x2 - ... rewritten as lo = d, hi = x2 + 2 x4. */
    ecopt_v4 hi[10];
    #pragma GCC unroll 10
    for (int k = 0; k < 10; k++) hi[k] = ecopt_v4_add(x2[k], ecopt_v4_slli(x4[k], 1));
    ecopt_fe4_fold(h, d, hi);
}

/* ecopt_fe4_sq — h = a^2 mod p, lane by lane. Bounds: in narrow; out carried. */
ECOPT_IFMA_INLINE void ecopt_fe4_sq(ecopt_fe4 *h, const ecopt_fe4 *a) {
    ecopt_fe4 t;
    ecopt_fe4_sq_wide(&t, a);
    ecopt_fe4_carry(h, &t);
}

/* ecopt_fe4_mul_small_wide — h = a * c mod p, lane j times lane j of c, not carried; c's lanes public constants
 * below 2^52 (121665 for the ladder's a24, RFC 7748). Limb i is lo_i + 2 hi_{i-1} < 3 * 2^52, limb 0 lo_0 + 38 hi_4
 * < 39 * 2^52. Bounds: in narrow; out wide. */
ECOPT_IFMA_INLINE void ecopt_fe4_mul_small_wide(ecopt_fe4 *h, const ecopt_fe4 *a, ecopt_v4 c) {
    ecopt_v4 lo[5], hi[5];
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        lo[i] = ecopt_v4_madd52lo(ecopt_v4_zero(), a->l[i], c);
        hi[i] = ecopt_v4_slli(ecopt_v4_madd52hi(ecopt_v4_zero(), a->l[i], c), 1);
    }
    h->l[0] = ecopt_v4_add(lo[0], ecopt_fe4_mul19_v4(hi[4]));
    #pragma GCC unroll 10
    for (int i = 1; i < 5; i++) h->l[i] = ecopt_v4_add(lo[i], hi[i - 1]);
}

/* ecopt_fe4_mul_small — h = a * c mod p as mul_small_wide, carried. Bounds: in narrow; out carried. */
ECOPT_IFMA_INLINE void ecopt_fe4_mul_small(ecopt_fe4 *h, const ecopt_fe4 *a, ecopt_v4 c) {
    ecopt_fe4 t;
    ecopt_fe4_mul_small_wide(&t, a, c);
    ecopt_fe4_carry(h, &t);
}

/* ecopt_fe4_add — h = a + b limb by limb, no carry. Bounds: in with limb sums < 2^64 (two wide: < 2^62); out the
 * sum, narrow only if the sum is (two carried elements are not: see the bounds above). */
ECOPT_IFMA_INLINE void ecopt_fe4_add(ecopt_fe4 *h, const ecopt_fe4 *a, const ecopt_fe4 *b) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->l[i] = ecopt_v4_add(a->l[i], b->l[i]);
}

/* 2^12 p, limb by limb: 2^12 (2^51 - 19) and 2^12 (2^51 - 1). Above any b limb < 2^62, and a + K - b < 2^64 for a
 * limb < 2^63: the subtraction never borrows and the sum fits. */
#define ECOPT_FE4_K0 ((((uint64_t)1) << 63) - (((uint64_t)19) << 12))
#define ECOPT_FE4_KN ((((uint64_t)1) << 63) - (((uint64_t)1) << 12))

/* ecopt_fe4_addsub — h = a + b in the lanes whose bit in neg is clear, a - b mod p (as a + 2^12 p - b) in the lanes
 * whose bit is set, then one carry; neg a public constant in 0..15 (bit j: lane j). Bounds: in a limbs < 2^63, b
 * limbs < 2^62 (wide, or the sum of two wide); out carried. */
ECOPT_IFMA_INLINE void ecopt_fe4_addsub(ecopt_fe4 *h, const ecopt_fe4 *a, const ecopt_fe4 *b, unsigned neg) {
    ecopt_fe4 t;
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        ecopt_v4 k = ecopt_v4_set1(i == 0 ? ECOPT_FE4_K0 : ECOPT_FE4_KN);
        ecopt_v4 s = ecopt_v4_blend(b->l[i], ecopt_v4_sub(k, b->l[i]), neg);
        t.l[i] = ecopt_v4_add(a->l[i], s);
    }
    ecopt_fe4_carry(h, &t);
}

/* ecopt_fe4_sub — h = a - b mod p in every lane, carried. Bounds: as addsub's. */
ECOPT_IFMA_INLINE void ecopt_fe4_sub(ecopt_fe4 *h, const ecopt_fe4 *a, const ecopt_fe4 *b) {
    ecopt_fe4_addsub(h, a, b, 15);
}

/* ECOPT_FE4_PERMUTE(h, a, i0, i1, i2, i3) — lane k of every limb of h = lane ik of a's (constants 0..3); a
 * statement. h may equal a. */
#define ECOPT_FE4_PERMUTE(h, a, i0, i1, i2, i3)                                                                    \
    do {                                                                                                           \
        ecopt_fe4 *ecopt_fe4_p_h_ = (h);                                                                           \
        const ecopt_fe4 *ecopt_fe4_p_a_ = (a);                                                                     \
        _Pragma("GCC unroll 10")                                                                                   \
        for (int ecopt_fe4_p_i_ = 0; ecopt_fe4_p_i_ < 5; ecopt_fe4_p_i_++)                                         \
            ecopt_fe4_p_h_->l[ecopt_fe4_p_i_] = ECOPT_V4_PERMUTE(ecopt_fe4_p_a_->l[ecopt_fe4_p_i_], i0, i1, i2, i3); \
    } while (0)

/* ecopt_fe4_blend — lane j of h from b where bit j of m is set, else from a; m a public constant in 0..15. Bounds:
 * out lane by lane as the chosen input. */
ECOPT_IFMA_INLINE void ecopt_fe4_blend(ecopt_fe4 *h, const ecopt_fe4 *a, const ecopt_fe4 *b, unsigned m) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->l[i] = ecopt_v4_blend(a->l[i], b->l[i], m);
}

/* ecopt_fe4_select — lane j of h from a where lane j of mask is all ones, from b where it is 0 (mask lanes exactly
 * 0 or all ones; may be secret: ecopt_v4_mask). Bounds: out as the chosen input. */
ECOPT_IFMA_INLINE void ecopt_fe4_select(ecopt_fe4 *h, ecopt_v4 mask, const ecopt_fe4 *a, const ecopt_fe4 *b) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->l[i] = ecopt_v4_select(mask, a->l[i], b->l[i]);
}

/* ecopt_fe4_broadcast — h = f in every lane (an ecopt_fe of the u64 representation, e.g. ecopt_fe_d2), carried.
 * Bounds: in any u64 limbs; out carried. */
ECOPT_IFMA_INLINE void ecopt_fe4_broadcast(ecopt_fe4 *h, const ecopt_fe *f) {
    ecopt_fe4 t;
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) t.l[i] = ecopt_v4_set1(f->v[i]);
    ecopt_fe4_carry(h, &t);
}

/* ecopt_fe4_from_fe — lane j of h = f[j] (u64 representation, fe_u64.h), carried. Bounds: in any limbs; out
 * carried. */
ECOPT_IFMA_INLINE void ecopt_fe4_from_fe(ecopt_fe4 *h, const ecopt_fe f[4]) {
    ecopt_fe4 t;
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) t.l[i] = ecopt_v4_set4(f[0].v[i], f[1].v[i], f[2].v[i], f[3].v[i]);
    ecopt_fe4_carry(h, &t);
}

/* ecopt_fe4_to_fe — f[j] = lane j of a, as u64 field elements: one vector carry, then fe_u64.h's carry pass (its
 * input bound 2^54 holds after the first). Bounds: in any; out u64 tight. */
ECOPT_IFMA_INLINE void ecopt_fe4_to_fe(ecopt_fe f[4], const ecopt_fe4 *a) {
    ecopt_fe4 c;
    ecopt_fe4_carry(&c, a);
    uint64_t lane[4];
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        ecopt_v4_store(lane, c.l[i]);
        #pragma GCC unroll 10
        for (int j = 0; j < 4; j++) f[j].v[i] = lane[j];
    }
    #pragma GCC unroll 10
    for (int j = 0; j < 4; j++) ecopt_fe_u64_carry_pass(f[j].v);
}

/* ecopt_fe4_frombytes — lane j of h = s[j] mod p (32 bytes little-endian, bit 255 ignored, as ecopt_fe_frombytes).
 * Bounds: out carried. */
ECOPT_IFMA_INLINE void ecopt_fe4_frombytes(ecopt_fe4 *h, const uint8_t s[4][32]) {
    ecopt_fe f[4];
    #pragma GCC unroll 10
    for (int j = 0; j < 4; j++) ecopt_fe_frombytes(&f[j], s[j]);
    ecopt_fe4_from_fe(h, f);
}

/* ecopt_fe4_tobytes — s[j] = the canonical encoding of lane j of a, in [0, p), 32 bytes little-endian. Bounds: in
 * any. */
ECOPT_IFMA_INLINE void ecopt_fe4_tobytes(uint8_t s[4][32], const ecopt_fe4 *a) {
    ecopt_fe f[4];
    ecopt_fe4_to_fe(f, a);
    #pragma GCC unroll 10
    for (int j = 0; j < 4; j++) ecopt_fe_tobytes(s[j], &f[j]);
}

#endif /* ECOPT_FIELD_IFMA_FE4_H */
