/* x25519_batch_ifma.c — batch X25519 (RFC 7748 sections 5 and 6.1) with eight independent Montgomery ladders, one
 * key per 64-bit lane of the zmm registers (src/field/ifma/fe8.h).
 *
 * A per-backend source of the ifma backends (the table entry x25519_batch, backend.h; the base point batch makes n
 * single calls, whose four-lane fixed base is the faster): for
 * ifma the functions that touch vectors carry ECOPT_IFMA_TARGET and are reached only once the backend's cpuid check
 * passed; for ifma_emu (ECOPT_IFMA_EMULATE) the same code runs on plain-C lanes, everywhere.
 *
 * Each lane runs RFC 7748's ladder on its own scalar: at step t every lane takes bit t of its own scalar, and the
 * conditional swap is a lane-wise masked select on that bit, so lanes never wait on one another and nothing depends
 * on a scalar but the masks. The inversion z^(p-2) runs in the lanes as well (a fixed Fermat chain); n mod 8 keys
 * leave lanes free, which get a fixed dummy key whose results are dropped. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bytes.h"
#include "ct.h"
#include "curve/scalar.h"
#include "ecopt/ecopt.h"
#include "field/ifma/fe8.h"
#include "proto/core.h"


#define MASK51 ((UINT64_C(1) << 51) - 1)

/* u (32 bytes, top bit masked, RFC 7748 section 5) as five radix-2^51 limbs, each < 2^51; u >= p is kept as it is
 * (the arithmetic is mod p, so a non-canonical u acts as u mod p). */
static void u_to_limbs(uint64_t l[5], const uint8_t u[32]) {
    uint64_t w0 = ecopt_load64_le(u), w1 = ecopt_load64_le(u + 8), w2 = ecopt_load64_le(u + 16);
    uint64_t w3 = ecopt_load64_le(u + 24) & ~(UINT64_C(1) << 63);
    l[0] = w0 & MASK51;
    l[1] = (w0 >> 51 | w1 << 13) & MASK51;
    l[2] = (w1 >> 38 | w2 << 26) & MASK51;
    l[3] = (w2 >> 25 | w3 << 39) & MASK51;
    l[4] = w3 >> 12;
}

/* s = the canonical encoding of h mod p, limbs of h < 2^52. One carry pass leaves limbs 1..4 < 2^51 and limb 0 <
 * 2^51 + 19 * 2^2, so h < 2^255 + 2^7 < 2p; q = floor((h + 19) / 2^255) is then 1 exactly when h >= p, and
 * h + 19 q - q 2^255 is the reduced value. Time: constant (no branch). */
static void limbs_to_bytes(uint8_t s[32], const uint64_t in[5]) {
    uint64_t h[5];
    memcpy(h, in, sizeof h);
    for (int i = 0; i < 4; i++) {
        h[i + 1] += h[i] >> 51;
        h[i] &= MASK51;
    }
    h[0] += 19 * (h[4] >> 51);
    h[4] &= MASK51;
    uint64_t q = (h[0] + 19) >> 51;
    for (int i = 1; i < 5; i++) q = (h[i] + q) >> 51;
    h[0] += 19 * q;
    for (int i = 0; i < 4; i++) {
        h[i + 1] += h[i] >> 51;
        h[i] &= MASK51;
    }
    h[4] &= MASK51; /* drops q 2^255 */
    ecopt_store64_le(s, h[0] | h[1] << 51);
    ecopt_store64_le(s + 8, h[1] >> 13 | h[2] << 38);
    ecopt_store64_le(s + 16, h[2] >> 26 | h[3] << 25);
    ecopt_store64_le(s + 24, h[3] >> 39 | h[4] << 12);
    ecopt_memzero_explicit(h, sizeof h);
}

/* One ladder step of RFC 7748 section 5 in every lane (A, AA, B, BB, E, C, D, DA, CB; a24 = 121665).
 * In: x2, z2, x3, z3 limbs < 2^61 (wide allowed), x1 < 2^52. Out: the new x2, z2, x3, z3, limbs < 2^61 (wide:
 * they are only ever added, subtracted, swapped or carried next). Each multiplication input is carried first. */
ECOPT_IFMA_INLINE void ladderstep8(ecopt_fe8 *x2, ecopt_fe8 *z2, ecopt_fe8 *x3, ecopt_fe8 *z3, const ecopt_fe8 *x1) {
    ecopt_fe8 a, b, c, d, aa, bb, e, t;
    /* The four squarings take tight inputs (ecopt_fe8_carry_tight, for ecopt_fe8_sq_tight_wide's doubled operands);
     * the other multiplication inputs are carried. */
    ecopt_fe8_add(&a, x2, z2); /* A = x2 + z2 (limbs < 2^62) */
    ecopt_fe8_carry_tight(&a, &a);
    ecopt_fe8_sub_wide(&b, x2, z2); /* B = x2 - z2 */
    ecopt_fe8_carry_tight(&b, &b);
    ecopt_fe8_add(&c, x3, z3); /* C = x3 + z3 */
    ecopt_fe8_carry(&c, &c);
    ecopt_fe8_sub(&d, x3, z3); /* D = x3 - z3 */
    ecopt_fe8_sq_tight_wide(&aa, &a); /* AA = A^2 */
    ecopt_fe8_carry(&aa, &aa);
    ecopt_fe8_sq_tight_wide(&bb, &b); /* BB = B^2 */
    ecopt_fe8_carry(&bb, &bb);
    ecopt_fe8_mul_wide(&d, &d, &a); /* DA = D * A */
    ecopt_fe8_mul_wide(&c, &c, &b); /* CB = C * B */
    ecopt_fe8_sub(&e, &aa, &bb);    /* E = AA - BB */
    ecopt_fe8_add(&a, &d, &c);      /* DA + CB (< 2^62) */
    ecopt_fe8_carry_tight(&a, &a);
    ecopt_fe8_sub_wide(&b, &d, &c); /* DA - CB */
    ecopt_fe8_carry_tight(&b, &b);
    ecopt_fe8_sq_tight_wide(x3, &a); /* x3 = (DA + CB)^2 */
    ecopt_fe8_sq_tight_wide(&b, &b); /* (DA - CB)^2 */
    ecopt_fe8_carry(&b, &b);
    ecopt_fe8_mul_wide(z3, x1, &b);   /* z3 = x1 * (DA - CB)^2 */
    ecopt_fe8_mul_wide(x2, &aa, &bb); /* x2 = AA * BB */
    ecopt_fe8_mul_small_wide(&t, &e, ecopt_v8_set1(121665)); /* a24 * E, limbs < 2^53 */
    ecopt_fe8_add(&t, &aa, &t);                                /* AA + a24 * E, < 2^54 */
    ecopt_fe8_carry(&t, &t);
    ecopt_fe8_mul_wide(z2, &e, &t); /* z2 = E * (AA + a24 * E) */
}

/* out[j] = X25519 ladder result x2 / z2 for lane j, from clamped scalars k[j] and u limbs ul[i][j] (< 2^51).
 * Time: constant in k and u: the scalars' bits only become lane masks. */
static __attribute__((noinline)) ECOPT_IFMA_TARGET void ladder8(uint8_t out[8][32], const uint8_t k[8][32],
                                                              const uint64_t ul[5][8]) {
    uint64_t kw[4][8], xl[5][8];
    for (int j = 0; j < 8; j++)
        for (int w = 0; w < 4; w++) kw[w][j] = ecopt_load64_le(k[j] + 8 * w);
    ecopt_v8 kv[4];
    for (int w = 0; w < 4; w++) kv[w] = ecopt_v8_load(kw[w]);
    ecopt_v8 zero = ecopt_v8_zero(), one = ecopt_v8_set1(1), swap = zero;
    ecopt_fe8 x1, x2, z2, x3, z3;
    for (int i = 0; i < 5; i++) {
        x1.l[i] = x3.l[i] = ecopt_v8_load(ul[i]);
        x2.l[i] = z3.l[i] = i == 0 ? one : zero; /* x2 = 1, z3 = 1 */
        z2.l[i] = zero;                           /* z2 = 0 */
    }
    for (int t = 254; t >= 0; t--) {
        ecopt_v8 kt = ecopt_v8_and(ecopt_v8_srli(kv[t >> 6], (unsigned)(t & 63)), one); /* bit t of each lane */
        ecopt_v8 m = ecopt_v8_sub(zero, ecopt_v8_xor(swap, kt)); /* swap ^= k_t, as a mask */
        ecopt_fe8_cswap(m, &x2, &x3);
        ecopt_fe8_cswap(m, &z2, &z3);
        swap = kt;
        ladderstep8(&x2, &z2, &x3, &z3, &x1);
    }
    ecopt_v8 m = ecopt_v8_sub(zero, swap);
    ecopt_fe8_cswap(m, &x2, &x3);
    ecopt_fe8_cswap(m, &z2, &z3);
    ecopt_fe8_carry(&x2, &x2);
    ecopt_fe8_carry(&z2, &z2);
    ecopt_fe8_invert(&z2, &z2); /* 0 where z2 = 0 (u of small order): the output is then 0 */
    ecopt_fe8_mul(&x2, &x2, &z2);
    for (int i = 0; i < 5; i++) ecopt_v8_store(xl[i], x2.l[i]);
    for (int j = 0; j < 8; j++) {
        uint64_t h[5];
        for (int i = 0; i < 5; i++) h[i] = xl[i][j];
        limbs_to_bytes(out[j], h);
        ecopt_memzero_explicit(h, sizeof h);
    }
    ecopt_memzero_explicit(kw, sizeof kw);
    ecopt_memzero_explicit(xl, sizeof xl);
    ecopt_memzero_explicit(kv, sizeof kv);
    ecopt_memzero_explicit(&x2, sizeof x2);
    ecopt_memzero_explicit(&z2, sizeof z2);
    ecopt_memzero_explicit(&x3, sizeof x3);
    ecopt_memzero_explicit(&z3, sizeof z3);
}

/* Keys base .. base + m - 1 (m <= 8) into lanes 0 .. m - 1 of k and ul, the dummy key (scalar 0, clamped to 2^254,
 * and u = 9) into the others. */
static void load_group(uint8_t k[8][32], uint64_t ul[5][8], const uint8_t *scalars, const uint8_t *u, size_t base,
                       size_t m) {
    static const uint8_t nine[32] = {9};
    static const uint8_t dummy[32] = {0};
    for (size_t j = 0; j < 8; j++) {
        uint64_t l[5];
        ecopt_scalar_clamp(k[j], j < m ? scalars + 32 * (base + j) : dummy);
        u_to_limbs(l, j < m ? u + 32 * (base + j) : nine);
        for (int i = 0; i < 5; i++) ul[i][j] = l[i];
    }
}

int ecopt_x25519_batch_core(uint8_t *out, const uint8_t *scalars, const uint8_t *u, size_t n, int *status) {
    int rc = ECOPT_OK;
    for (size_t base = 0; base < n; base += 8) {
        size_t m = n - base < 8 ? n - base : 8; /* the key count is public */
        uint8_t k[8][32], o[8][32];
        uint64_t ul[5][8];
        /* The whole group is read before any of its outputs is written: out may be scalars or u itself. */
        load_group(k, ul, scalars, u, base, m);
        ladder8(o, k, ul);
        for (size_t j = 0; j < m; j++) {
            memcpy(out + 32 * (base + j), o[j], 32);
            /* RFC 7748 section 6.1: an all-zero output (then already all zero) means u of small order. The verdict
             * is public: it is the function's result for this key. */
            uint64_t zero = ecopt_ct_bytes_is_zero(o[j], 32);
            ecopt_ct_declassify(&zero, sizeof zero);
            int st = zero ? ECOPT_ERR_SMALL_ORDER : ECOPT_OK;
            if (status != NULL) status[base + j] = st;
            if (st != ECOPT_OK) rc = st;
        }
        ecopt_memzero_explicit(k, sizeof k);
        ecopt_memzero_explicit(o, sizeof o);
    }
    return rc;
}
