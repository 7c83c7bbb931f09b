/* fe_u64.h — backend u64: field elements mod p = 2^255 - 19 as 5 limbs of 51 bits (radix 2^51), products in
 * unsigned __int128. Private to src/field: other layers see only the type's size, never its limbs.
 *
 * Value: v[0] + v[1] 2^51 + v[2] 2^102 + v[3] 2^153 + v[4] 2^204 (mod p).
 * Bounds (fe.h's words made precise):
 *   tight: every limb < 2^51 + 2^15;
 *   loose: every limb < 2^52 + 2^16 (the sum of two tight elements).
 * Why loose inputs are safe for mul: each coefficient is a sum of at most 5 products, one factor multiplied by 19;
 * 5 * 19 * (2^52 + 2^16)^2 < 2^111, far below 2^128, and 19 * (2^52 + 2^16) < 2^57 fits a u64.
 * Why sub can take loose g: it computes f + 4p - g limb by limb, and each limb of 4p is at least 2^53 - 76 > any
 * loose limb, so no limb underflows. */
#ifndef ECOPT_FIELD_FE_U64_H
#define ECOPT_FIELD_FE_U64_H

#include <stdint.h>

#include "ct.h"

#define ECOPT_FE_U64_MASK51 ((((uint64_t)1) << 51) - 1)

typedef struct ecopt_fe {
    uint64_t v[5];
} ecopt_fe;

/* adx51 and ifma share this representation and have their own test (fe_adx51.h, fe_ifma.h) */
#if !defined(ECOPT_FE_BACKEND_adx51) && !defined(ECOPT_FE_BACKEND_ifma)
/* ecopt_fe_backend_available — 1 when this CPU can run the backend: portable C runs everywhere. */
static inline int ecopt_fe_backend_available(void) {
    return 1;
}
#endif

/* Carry limbs 0..4 in one pass, folding the carry out of limb 4 back into limb 0 times 19 (2^255 = 19 mod p).
 * Input limbs below 2^54 (sub's f + 4p - g, or loose): the carry out of limb 4 is below 2^3, so limbs 1..4 end
 * < 2^51 and limb 0 < 2^51 + 19 * 2^3: tight. */
static inline void ecopt_fe_u64_carry_pass(uint64_t t[5]) {
    t[1] += t[0] >> 51;
    t[0] &= ECOPT_FE_U64_MASK51;
    t[2] += t[1] >> 51;
    t[1] &= ECOPT_FE_U64_MASK51;
    t[3] += t[2] >> 51;
    t[2] &= ECOPT_FE_U64_MASK51;
    t[4] += t[3] >> 51;
    t[3] &= ECOPT_FE_U64_MASK51;
    t[0] += 19 * (t[4] >> 51);
    t[4] &= ECOPT_FE_U64_MASK51;
}

static inline void ecopt_fe_0(ecopt_fe *h) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->v[i] = 0;
}

static inline void ecopt_fe_1(ecopt_fe *h) {
    h->v[0] = 1;
    #pragma GCC unroll 10
    for (int i = 1; i < 5; i++) h->v[i] = 0;
}

static inline void ecopt_fe_copy(ecopt_fe *h, const ecopt_fe *f) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->v[i] = f->v[i];
}

static inline void ecopt_fe_add(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->v[i] = f->v[i] + g->v[i];
}

/* 4p, limb by limb: 4 * (2^51 - 19) and 4 * (2^51 - 1). */
#define ECOPT_FE_U64_FOUR_P0 ((uint64_t)0x1fffffffffffb4)
#define ECOPT_FE_U64_FOUR_PN ((uint64_t)0x1ffffffffffffc)

static inline void ecopt_fe_sub(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    uint64_t t[5];
    /* f + 4p - g: each limb < 2^52 + 2^16 + 2^53 < 2^54, never negative (above). */
    t[0] = f->v[0] + ECOPT_FE_U64_FOUR_P0 - g->v[0];
    #pragma GCC unroll 10
    for (int i = 1; i < 5; i++) t[i] = f->v[i] + ECOPT_FE_U64_FOUR_PN - g->v[i];
    ecopt_fe_u64_carry_pass(t);
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->v[i] = t[i];
}

static inline void ecopt_fe_cmov(ecopt_fe *h, const ecopt_fe *f, uint64_t bit) {
    uint64_t m = ecopt_ct_mask(bit);
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->v[i] ^= m & (h->v[i] ^ f->v[i]);
}

static inline void ecopt_fe_or_masked(ecopt_fe *h, const ecopt_fe *f, uint64_t mask) {
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) h->v[i] |= f->v[i] & mask;
}

static inline void ecopt_fe_cswap(ecopt_fe *f, ecopt_fe *g, uint64_t bit) {
    uint64_t m = ecopt_ct_mask(bit);
    #pragma GCC unroll 10
    for (int i = 0; i < 5; i++) {
        uint64_t x = m & (f->v[i] ^ g->v[i]);
        f->v[i] ^= x;
        g->v[i] ^= x;
    }
}

/* ecopt_fe_u64_{mul,sq}_{handwritten,generated} — h = f * g, h = f^2 mod p by each of the two implementations
 * (fe_u64.c): the same contract as ecopt_fe_mul / ecopt_fe_sq (in loose, out tight). ecopt_fe_mul and ecopt_fe_sq
 * are the generated ones; these names exist so that tests and the benchmark can run both.
 * Source: handwritten, Bernstein, "Curve25519" (2006), radix 2^51 as in fe_u64.h; generated, `ecopt gen --prime
 * 2^255-19 --method solinas-unsaturated --limbs 5 --op mul|square` (src/field/generated/). */
#if !defined(ECOPT_FE_BACKEND_adx51)
void ecopt_fe_u64_mul_handwritten(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g);
void ecopt_fe_u64_sq_handwritten(ecopt_fe *h, const ecopt_fe *f);
void ecopt_fe_u64_mul_generated(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g);
void ecopt_fe_u64_sq_generated(ecopt_fe *h, const ecopt_fe *f);
#endif

#endif /* ECOPT_FIELD_FE_U64_H */
