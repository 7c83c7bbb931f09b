/* fe_u32.h — backend u32: field elements mod p = 2^255 - 19 as 10 limbs alternating 26 and 25 bits (radix
 * 2^25.5), products 32 x 32 -> 64 bits. For CPUs and compilers without a 64 x 64 -> 128 multiplication.
 * Private to src/field.
 *
 * Value: sum v[i] 2^w(i), w = 0, 26, 51, 77, 102, 128, 153, 179, 204, 230; limb i has b(i) = 26 bits for even i,
 * 25 for odd i.
 * Bounds (fe.h's words made precise):
 *   tight: every limb < 2^b(i) + 2^14;
 *   loose: every limb < 2^(b(i)+1) + 2^15 (the sum of two tight elements).
 * Why loose inputs are safe for mul: a product term is f_i times g_j scaled by at most 2 * 19 = 38 (2 when both
 * limbs are odd: 2^w(i) 2^w(j) = 2 2^w(i+j); 19 when i + j >= 10: 2^255 = 19 mod p). The scaled g_j < 38 (2^26 +
 * 2^15) < 2^32 fits a u32, each term < 2^27.01 * 2^31.25, and ten terms < 2^62, within a u64 (doubled for sq2:
 * < 2^63).
 * Why sub can take loose g: it computes f + 4p - g limb by limb, and each limb of 4p (2^28 - 76, 2^27 - 4,
 * 2^28 - 4, ...) exceeds the loose bound of the same limb. */
#ifndef ECOPT_FIELD_FE_U32_H
#define ECOPT_FIELD_FE_U32_H

#include <stdint.h>

#include "ct.h"

typedef struct ecopt_fe {
    uint32_t v[10];
} ecopt_fe;

/* ecopt_fe_backend_available — 1 when this CPU can run the backend: portable C runs everywhere. */
static inline int ecopt_fe_backend_available(void) {
    return 1;
}

/* Out of line (fe_u32.c): the carry pass is longer than the subtraction. */
void ecopt_fe_sub(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g);

static inline void ecopt_fe_0(ecopt_fe *h) {
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) h->v[i] = 0;
}

static inline void ecopt_fe_1(ecopt_fe *h) {
    ecopt_fe_0(h);
    h->v[0] = 1;
}

static inline void ecopt_fe_copy(ecopt_fe *h, const ecopt_fe *f) {
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) h->v[i] = f->v[i];
}

static inline void ecopt_fe_add(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) h->v[i] = f->v[i] + g->v[i];
}

static inline void ecopt_fe_cmov(ecopt_fe *h, const ecopt_fe *f, uint64_t bit) {
    uint32_t m = (uint32_t)ecopt_ct_mask(bit);
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) h->v[i] ^= m & (h->v[i] ^ f->v[i]);
}

static inline void ecopt_fe_or_masked(ecopt_fe *h, const ecopt_fe *f, uint64_t mask) {
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) h->v[i] |= f->v[i] & (uint32_t)mask;
}

static inline void ecopt_fe_cswap(ecopt_fe *f, ecopt_fe *g, uint64_t bit) {
    uint32_t m = (uint32_t)ecopt_ct_mask(bit);
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) {
        uint32_t x = m & (f->v[i] ^ g->v[i]);
        f->v[i] ^= x;
        g->v[i] ^= x;
    }
}

#endif /* ECOPT_FIELD_FE_U32_H */
