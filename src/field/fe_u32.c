/* fe_u32.c — backend u32 (10 limbs, 26/25 bits) of the field interface in fe.h. Bounds are defined in
 * fe_u32.h. */
#include "field/fe.h"

#include "ct.h"

/* Limb i starts at bit W[i] and holds BITS[i] bits. */
static const unsigned W[10] = {0, 26, 51, 77, 102, 128, 153, 179, 204, 230};
#define BITS(i) (((i) & 1) ? 25u : 26u)
#define MASK(i) ((((uint64_t)1) << BITS(i)) - 1)

/* Constants (see fe.h): limbs of the canonical values, computed from their definitions with exact integer
 * arithmetic and checked against GMP in tests/field. */
const ecopt_fe ecopt_fe_d = {
    {0x35978a3, 0x0d37284, 0x3156ebd, 0x06a0a0e, 0x001c029, 0x179e898, 0x3a03cbb, 0x1ce7198, 0x2e2b6ff, 0x1480db3}};
const ecopt_fe ecopt_fe_d2 = {
    {0x2b2f159, 0x1a6e509, 0x22add7a, 0x0d4141d, 0x0038052, 0x0f3d130, 0x3407977, 0x19ce331, 0x1c56dff, 0x0901b67}};
const ecopt_fe ecopt_fe_sqrtm1 = {
    {0x20ea0b0, 0x186c9d2, 0x08f189d, 0x035697f, 0x0bd0c60, 0x1fbd7a7, 0x2804c9e, 0x1e16569, 0x004fc1d, 0x0ae0c92}};
const ecopt_fe ecopt_fe_base_x = {
    {0x325d51a, 0x18b5823, 0x0f6592a, 0x104a92d, 0x1a4b31d, 0x1d6dc5c, 0x27118fe, 0x07fd814, 0x13cd6e5, 0x085a4db}};
const ecopt_fe ecopt_fe_base_y = {
    {0x2666658, 0x1999999, 0x0cccccc, 0x1333333, 0x1999999, 0x0666666, 0x3333333, 0x0cccccc, 0x2666666, 0x1999999}};
const ecopt_fe ecopt_fe_base_t = {
    {0x1b7dda3, 0x1a2ace9, 0x25eadbb, 0x003ba8a, 0x083c27e, 0x0abe37d, 0x1274732, 0x0ccacdd, 0x0fd78b7, 0x19e1d7c}};

void ecopt_fe_frombytes(ecopt_fe *h, const uint8_t s[32]) {
    uint64_t w[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 32; i++) w[i / 8] |= (uint64_t)s[i] << (8 * (i % 8));
    w[3] &= ~((uint64_t)1 << 63); /* bit 255 is ignored */
    for (int i = 0; i < 10; i++) {
        unsigned q = W[i] / 64, r = W[i] % 64;
        uint64_t x = w[q] >> r;
        if (r != 0) x |= w[q + 1] << (64 - r); /* public positions */
        h->v[i] = (uint32_t)(x & MASK(i));
    }
}

/* One carry pass over 64-bit limbs, folding the carry out of limb 9 into limb 0 times 19. */
static void carry_pass64(uint64_t t[10]) {
    for (int i = 0; i < 9; i++) {
        t[i + 1] += t[i] >> BITS(i);
        t[i] &= MASK(i);
    }
    t[0] += 19 * (t[9] >> 25);
    t[9] &= MASK(9);
}

void ecopt_fe_tobytes(uint8_t s[32], const ecopt_fe *f) {
    uint64_t t[10], w[4] = {0, 0, 0, 0};
    for (int i = 0; i < 10; i++) t[i] = f->v[i];
    /* As in fe_u64.c: two passes leave every limb below 2^b(i) and the value in [0, 2^255). */
    carry_pass64(t);
    carry_pass64(t);
    /* q = 1 exactly when t >= p (t + 19 reaches 2^255). */
    uint64_t q = (t[0] + 19) >> 26;
    for (int i = 1; i < 10; i++) q = (t[i] + q) >> BITS(i);
    t[0] += 19 * q;
    for (int i = 0; i < 9; i++) {
        t[i + 1] += t[i] >> BITS(i);
        t[i] &= MASK(i);
    }
    t[9] &= MASK(9); /* drops 2^255: t - p */
    for (int i = 0; i < 10; i++) {
        unsigned q2 = W[i] / 64, r = W[i] % 64;
        w[q2] |= t[i] << r;
        if (r + BITS(i) > 64) w[q2 + 1] |= t[i] >> (64 - r);
    }
    for (int i = 0; i < 32; i++) s[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

/* Carry 64-bit coefficients (each < 2^63) to a tight element. The carry out of limb 9 is < 2^38; times 19 it is
 * added to limb 0 and carried twice more, so limb 1 ends < 2^25 and limb 2 < 2^26 + 1. */
static void reduce_wide(ecopt_fe *h, uint64_t c[10]) {
    for (int i = 0; i < 9; i++) {
        c[i + 1] += c[i] >> BITS(i);
        c[i] &= MASK(i);
    }
    c[0] += 19 * (c[9] >> 25);
    c[9] &= MASK(9);
    c[1] += c[0] >> 26;
    c[0] &= MASK(0);
    c[2] += c[1] >> 25;
    c[1] &= MASK(1);
    for (int i = 0; i < 10; i++) h->v[i] = (uint32_t)c[i];
}

void ecopt_fe_sub(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    uint64_t t[10];
    /* f + 4p - g, never negative (fe_u32.h); then one carry pass (limbs < 2^29: the carry out of limb 9 is
     * below 2^4, so limb 0 ends < 2^26 + 19 * 2^4, tight). */
    for (int i = 0; i < 10; i++) {
        uint64_t fourp = 4 * MASK(i) - (i == 0 ? 4 * 18 : 0); /* 4 (2^26 - 19) for limb 0 */
        t[i] = (uint64_t)f->v[i] + fourp - g->v[i];
    }
    carry_pass64(t);
    for (int i = 0; i < 10; i++) h->v[i] = (uint32_t)t[i];
}

void ecopt_fe_neg(ecopt_fe *h, const ecopt_fe *f) {
    ecopt_fe z;
    ecopt_fe_0(&z);
    ecopt_fe_sub(h, &z, f);
}

void ecopt_fe_carry(ecopt_fe *h, const ecopt_fe *f) {
    uint64_t t[10];
    for (int i = 0; i < 10; i++) t[i] = f->v[i];
    carry_pass64(t);
    for (int i = 0; i < 10; i++) h->v[i] = (uint32_t)t[i];
}

/* c[k] = the coefficients of f g before carrying (see fe_u32.h for the scaling by 2 and 19). */
static void mul_coeffs(uint64_t c[10], const ecopt_fe *f, const ecopt_fe *g) {
    for (int k = 0; k < 10; k++) c[k] = 0;
    /* Fully unrolled, the scales are constants (gcc and clang both honour the pragma). */
#pragma GCC unroll 10
    for (int i = 0; i < 10; i++) {
#pragma GCC unroll 10
        for (int j = 0; j < 10; j++) {
            uint32_t scale = ((i & 1) && (j & 1)) ? 2 : 1;
            int k = i + j;
            if (k >= 10) {
                k -= 10;
                scale *= 19;
            }
            c[k] += (uint64_t)f->v[i] * (uint32_t)(g->v[j] * scale);
        }
    }
}

void ecopt_fe_mul(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    uint64_t c[10];
    mul_coeffs(c, f, g);
    reduce_wide(h, c);
}

void ecopt_fe_sq(ecopt_fe *h, const ecopt_fe *f) {
    uint64_t c[10];
    mul_coeffs(c, f, f);
    reduce_wide(h, c);
}

void ecopt_fe_sq2(ecopt_fe *h, const ecopt_fe *f) {
    uint64_t c[10];
    mul_coeffs(c, f, f);
    for (int k = 0; k < 10; k++) c[k] *= 2; /* < 2^63 (fe_u32.h) */
    reduce_wide(h, c);
}

void ecopt_fe_sq_n(ecopt_fe *h, const ecopt_fe *f, unsigned n) {
    ecopt_fe_sq(h, f);
    for (unsigned i = 1; i < n; i++) ecopt_fe_sq(h, h);
}

void ecopt_fe_mul_small(ecopt_fe *h, const ecopt_fe *f, uint32_t c) {
    uint64_t t[10];
    for (int i = 0; i < 10; i++) t[i] = (uint64_t)f->v[i] * c; /* < 2^28 2^20 */
    reduce_wide(h, t);
}

#include "field/fe_common_impl.h"
