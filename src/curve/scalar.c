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

/* r[0..nr) = (a * b) mod 2^(64 nr), nr <= na + nb: schoolbook by rows, each product with the row's carry added into
 * r (a 64 x 64-bit product plus two words < 2^64 fits 128 bits). The loop bounds and index tests depend on the
 * (constant) sizes only: once inlined, the pragmas have gcc and clang unroll them to straight-line code, which keeps
 * r in registers (the loops took about three times as long: see barrett_reduce). */
static inline void mul_rows(uint64_t *r, const uint64_t *a, int na, const uint64_t *b, int nb, int nr) {
#pragma GCC unroll 16
    for (int i = 0; i < nr; i++) r[i] = 0;
#pragma GCC unroll 8
    for (int i = 0; i < na; i++) {
        uint64_t carry = 0;
#pragma GCC unroll 8
        for (int j = 0; j < nb; j++) {
            if (i + j >= nr) break;
            u128 t = (u128)a[i] * b[j] + r[i + j] + carry;
            r[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        if (i + nb < nr) r[i + nb] = carry;
    }
}

/* out = r - l when r >= l, else r, by mask; r has 5 limbs, out keeps 5 (limb 4 of the result may be nonzero only
 * when r >= 2l). out may equal r. */
static inline void cond_sub_l(uint64_t out[5], const uint64_t r[5]) {
    uint64_t t[5], borrow = 0;
#pragma GCC unroll 8
    for (int i = 0; i < 5; i++) {
        uint64_t li = i < 4 ? L[i] : 0;
        u128 d = (u128)r[i] - li - borrow;
        t[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    /* borrow = 1 means r < l: keep r. */
    uint64_t keep = ecopt_ct_mask(borrow);
#pragma GCC unroll 8
    for (int i = 0; i < 5; i++) out[i] = t[i] ^ (keep & (r[i] ^ t[i]));
}

/* out = x mod l for x < 2^512 (8 limbs). HAC algorithm 14.42 with b = 2^64, k = 4: q3 = floor(floor(x / b^3) mu /
 * b^5) is at most 2 below floor(x / l), so r = x - q3 l (computed mod b^5) lies in [0, 3l) and two conditional
 * subtractions finish. 3l < 2^254 fits in 5 limbs; after them r < l, so limb 4 is 0. Unrolled (mul_rows), l's limb 2
 * (0) and limb 3 (2^60) become nothing and a shift. The last subtraction writes out directly: a copy of r after it
 * was compiled as two 16-byte loads of four 8-byte stores just made, which the CPU cannot forward (a stall that
 * cost more than the arithmetic). With this, unrolling and bytes.h's written-out loads and stores,
 * ecopt_scalar_reduce64 and ecopt_scalar_muladd take less than half the ticks of the looped form (gcc 12 -O2;
 * CHANGELOG.md). */
static void barrett_reduce(uint64_t out[4], const uint64_t x[8]) {
    uint64_t q2[10], r2[5], r[5], o[5];
    mul_rows(q2, x + 3, 5, MU, 5, 10); /* q1 mu; q3 = q2[5..9] */
    mul_rows(r2, q2 + 5, 5, L, 4, 5);  /* q3 l mod b^5 */
    uint64_t borrow = 0;
#pragma GCC unroll 8
    for (int i = 0; i < 5; i++) { /* r = (x - q3 l) mod b^5 */
        u128 d = (u128)x[i] - r2[i] - borrow;
        r[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    cond_sub_l(r, r);
    cond_sub_l(o, r);
    out[0] = o[0];
    out[1] = o[1];
    out[2] = o[2];
    out[3] = o[3];
    ecopt_memzero_explicit(q2, sizeof q2);
    ecopt_memzero_explicit(r2, sizeof r2);
    ecopt_memzero_explicit(r, sizeof r);
    ecopt_memzero_explicit(o, sizeof o);
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
    mul_rows(x, al, 4, bl, 4, 8);
    /* + c: a b + c <= (2^256 - 1)^2 + 2^256 - 1 < 2^512, so the final carry is 0. */
    uint64_t carry = 0;
#pragma GCC unroll 8
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

/* ---- variable time: the half-size fraction for verification ----------------------------------------------------- */

/* Bit length of a 4-limb value (0 for 0). */
static int bitlen4_vartime(const uint64_t x[4]) {
    for (int i = 3; i >= 0; i--)
        if (x[i]) return 64 * i + 64 - __builtin_clzll(x[i]);
    return 0;
}

/* r = x << s for 0 <= s < 256, when the result fits in 4 limbs. */
static void shl4_vartime(uint64_t r[4], const uint64_t x[4], int s) {
    int w = s / 64, b = s % 64;
    for (int i = 3; i >= 0; i--) {
        uint64_t hi = i - w >= 0 ? x[i - w] << b : 0;
        uint64_t lo = (b && i - w - 1 >= 0) ? x[i - w - 1] >> (64 - b) : 0;
        r[i] = hi | lo;
    }
}

/* 1 when a > b. */
static int gt4_vartime(const uint64_t a[4], const uint64_t b[4]) {
    for (int i = 3; i >= 0; i--)
        if (a[i] != b[i]) return a[i] > b[i];
    return 0;
}

/* a -= b, b <= a. */
static void sub4_vartime(uint64_t a[4], const uint64_t b[4]) {
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        u128 d = (u128)a[i] - b[i] - borrow;
        a[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
}

/* Two rows (r_0, t_0) = (l, 0) and (r_1, t_1) = (k, 1), each with r_i = t_i k (mod l). A step takes the row with
 * the larger r (a), the other (b), and subtracts 2^s times row b from row a, s the largest shift with
 * 2^s r_b <= r_a: r_a stays >= 0 and loses at least one bit. The steps keep r_0 t_1 - r_1 t_0 = l (each is
 * unimodular) with t_0 <= 0 <= t_1 (row 0 only ever subtracts multiples of t_1 >= 0, row 1 of t_0 <= 0), so
 * r_0 |t_1| + r_1 |t_0| = l: every |t_i| <= l / r_(other row). Stop once the smaller r is below 2^126; the other row
 * was not changed by the last step, so its r is still >= 2^126 and the small row's |t| <= l / 2^126 < 2^127. Before
 * the stop both r are >= 2^126, so every t (and t_b 2^s, which is below the new |t_a|) stays below 2^127 and
 * u128 magnitudes hold them. t of the small row is not 0: row 0 starts with r = l >= 2^126, and its t is nonzero
 * after its first step (|t_0| grows by |t_1| 2^s >= 1). */
int ecopt_scalar_ratio_vartime(uint8_t k1[16], uint8_t c[16], const uint8_t k[32]) {
    uint64_t r[2][4], tmp[4];
    u128 t[2] = {0, 1}; /* magnitudes; row 0's t is <= 0, row 1's >= 0 */
    for (int i = 0; i < 4; i++) {
        r[0][i] = L[i];
        r[1][i] = ecopt_load64_le(k + 8 * i);
    }
    int b;
    for (;;) {
        int a = gt4_vartime(r[1], r[0]);
        b = a ^ 1;
        int lb = bitlen4_vartime(r[b]);
        if (lb <= 126) break;
        int s = bitlen4_vartime(r[a]) - lb;
        shl4_vartime(tmp, r[b], s);
        if (gt4_vartime(tmp, r[a])) shl4_vartime(tmp, r[b], --s);
        sub4_vartime(r[a], tmp);
        t[a] += t[b] << s;
    }
    ecopt_store64_le(k1, r[b][0]);
    ecopt_store64_le(k1 + 8, r[b][1]);
    ecopt_store64_le(c, (uint64_t)t[b]);
    ecopt_store64_le(c + 8, (uint64_t)(t[b] >> 64));
    return b == 1 ? 1 : -1;
}
