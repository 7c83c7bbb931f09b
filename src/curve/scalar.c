/* scalar.c — scalars mod l (see scalar.h), as 64-bit limbs, little-endian.
 * Everything here is constant time: loops have fixed bounds and conditional subtraction is by mask. */
#include "curve/scalar.h"

#include "bytes.h"
#include "ct.h"

typedef unsigned __int128 u128;

/* l = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 section 5.1), 4 limbs. */
static const uint64_t L[4] = {0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0x0000000000000000, 0x1000000000000000};

/* mu = floor(2^512 / l), 5 limbs (261 bits): Barrett's constant for base b = 2^64, k = 4 (HAC 14.42). */
static const uint64_t MU[5] = {0xed9ce5a30a2c131b, 0x2106215d086329a7, 0xffffffffffffffeb, 0xffffffffffffffff,
                               0x000000000000000f};

/* r[0..na+nb) = a * b, schoolbook. */
static void mul_limbs(uint64_t *r, const uint64_t *a, int na, const uint64_t *b, int nb) {
    for (int i = 0; i < na + nb; i++) r[i] = 0;
    for (int i = 0; i < na; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < nb; j++) {
            u128 t = (u128)a[i] * b[j] + r[i + j] + carry;
            r[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        r[i + nb] = carry;
    }
}

/* If r (5 limbs) >= l, r -= l; by mask. */
static void cond_sub_l(uint64_t r[5]) {
    uint64_t t[5], borrow = 0;
    for (int i = 0; i < 5; i++) {
        uint64_t li = i < 4 ? L[i] : 0;
        u128 d = (u128)r[i] - li - borrow;
        t[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    /* borrow = 1 means r < l: keep r. */
    for (int i = 0; i < 5; i++) r[i] = ecopt_ct_select(borrow, r[i], t[i]);
}

/* out = x mod l for x < 2^512 (8 limbs). HAC algorithm 14.42 with b = 2^64, k = 4: q3 = floor(floor(x / b^3) mu /
 * b^5) is at most 2 below floor(x / l), so r = x - q3 l (computed mod b^5) lies in [0, 3l) and two conditional
 * subtractions finish. 3l < 2^254 fits in 5 limbs. */
static void barrett_reduce(uint64_t out[4], const uint64_t x[8]) {
    uint64_t q2[10], r2[9], r[5];
    mul_limbs(q2, x + 3, 5, MU, 5);         /* q1 * mu */
    mul_limbs(r2, q2 + 5, 5, L, 4);         /* q3 * l; only the low 5 limbs are used */
    uint64_t borrow = 0;
    for (int i = 0; i < 5; i++) {           /* r = (x - q3 l) mod b^5 */
        u128 d = (u128)x[i] - r2[i] - borrow;
        r[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    cond_sub_l(r);
    cond_sub_l(r);
    for (int i = 0; i < 4; i++) out[i] = r[i];
    ecopt_memzero_explicit(q2, sizeof q2);
    ecopt_memzero_explicit(r2, sizeof r2);
    ecopt_memzero_explicit(r, sizeof r);
}

void ecopt_scalar_reduce64(uint8_t r[32], const uint8_t x[64]) {
    uint64_t xl[8], out[4];
    for (int i = 0; i < 8; i++) xl[i] = ecopt_load64_le(x + 8 * i);
    barrett_reduce(out, xl);
    for (int i = 0; i < 4; i++) ecopt_store64_le(r + 8 * i, out[i]);
    ecopt_memzero_explicit(xl, sizeof xl);
    ecopt_memzero_explicit(out, sizeof out);
}

void ecopt_scalar_muladd(uint8_t r[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32]) {
    uint64_t al[4], bl[4], x[8], out[4];
    for (int i = 0; i < 4; i++) {
        al[i] = ecopt_load64_le(a + 8 * i);
        bl[i] = ecopt_load64_le(b + 8 * i);
    }
    mul_limbs(x, al, 4, bl, 4);
    /* + c: a b + c <= (2^256 - 1)^2 + 2^256 - 1 < 2^512, so the final carry is 0. */
    uint64_t carry = 0;
    for (int i = 0; i < 8; i++) {
        u128 t = (u128)x[i] + (i < 4 ? ecopt_load64_le(c + 8 * i) : 0) + carry;
        x[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
    barrett_reduce(out, x);
    for (int i = 0; i < 4; i++) ecopt_store64_le(r + 8 * i, out[i]);
    ecopt_memzero_explicit(al, sizeof al);
    ecopt_memzero_explicit(bl, sizeof bl);
    ecopt_memzero_explicit(x, sizeof x);
    ecopt_memzero_explicit(out, sizeof out);
}

uint64_t ecopt_scalar_is_canonical(const uint8_t s[32]) {
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        u128 d = (u128)ecopt_load64_le(s + 8 * i) - L[i] - borrow;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return borrow; /* s - l borrows exactly when s < l */
}

void ecopt_scalar_clamp(uint8_t out[32], const uint8_t in[32]) {
    for (int i = 0; i < 32; i++) out[i] = in[i];
    out[0] &= 248;
    out[31] &= 127;
    out[31] |= 64;
}
