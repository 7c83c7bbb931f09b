/* fe_common_impl.h — the field operations every backend builds the same way from its tobytes, mul and sq:
 * predicates on the canonical encoding, and exponentiations by fixed addition chains. Included at the end of each
 * backend's fe_<name>.c so that they compile against that backend.
 * Time: constant (the chains depend only on p; the predicates read every byte). Bounds: in loose; out tight. */
#ifndef ECOPT_FIELD_FE_COMMON_IMPL_H
#define ECOPT_FIELD_FE_COMMON_IMPL_H

uint64_t ecopt_fe_is_negative(const ecopt_fe *f) {
    uint8_t s[32];
    ecopt_fe_tobytes(s, f);
    return s[0] & 1;
}

uint64_t ecopt_fe_is_zero(const ecopt_fe *f) {
    uint8_t s[32];
    ecopt_fe_tobytes(s, f);
    return ecopt_ct_bytes_is_zero(s, 32);
}

uint64_t ecopt_fe_eq(const ecopt_fe *f, const ecopt_fe *g) {
    uint8_t a[32], b[32];
    ecopt_fe_tobytes(a, f);
    ecopt_fe_tobytes(b, g);
    return ecopt_ct_bytes_eq(a, b, 32);
}


/* z_2_250_1 = z^(2^250 - 1), and z11 = z^11 for the inversion's tail. The chain of Bernstein, "Curve25519: new
 * Diffie-Hellman speed records" (2006), section 5: exponents 2, 9, 11, 2^5-1, 2^10-1, 2^20-1, 2^40-1, 2^50-1,
 * 2^100-1, 2^200-1, 2^250-1. */
static void fe_pow_2_250_1(ecopt_fe *z_2_250_1, ecopt_fe *z11, const ecopt_fe *z) {
    ecopt_fe z2, z9, t, z_5, z_10, z_20, z_50, z_100;
    ecopt_fe_sq(&z2, z);             /* 2 */
    ecopt_fe_sq_n(&t, &z2, 2);       /* 8 */
    ecopt_fe_mul(&z9, &t, z);        /* 9 */
    ecopt_fe_mul(z11, &z9, &z2);     /* 11 */
    ecopt_fe_sq(&t, z11);            /* 22 */
    ecopt_fe_mul(&z_5, &t, &z9);     /* 31 = 2^5 - 1 */
    ecopt_fe_sq_n(&t, &z_5, 5);      /* 2^10 - 2^5 */
    ecopt_fe_mul(&z_10, &t, &z_5);   /* 2^10 - 1 */
    ecopt_fe_sq_n(&t, &z_10, 10);    /* 2^20 - 2^10 */
    ecopt_fe_mul(&z_20, &t, &z_10);  /* 2^20 - 1 */
    ecopt_fe_sq_n(&t, &z_20, 20);    /* 2^40 - 2^20 */
    ecopt_fe_mul(&t, &t, &z_20);     /* 2^40 - 1 */
    ecopt_fe_sq_n(&t, &t, 10);       /* 2^50 - 2^10 */
    ecopt_fe_mul(&z_50, &t, &z_10);  /* 2^50 - 1 */
    ecopt_fe_sq_n(&t, &z_50, 50);    /* 2^100 - 2^50 */
    ecopt_fe_mul(&z_100, &t, &z_50); /* 2^100 - 1 */
    ecopt_fe_sq_n(&t, &z_100, 100);  /* 2^200 - 2^100 */
    ecopt_fe_mul(&t, &t, &z_100);    /* 2^200 - 1 */
    ecopt_fe_sq_n(&t, &t, 50);       /* 2^250 - 2^50 */
    ecopt_fe_mul(z_2_250_1, &t, &z_50); /* 2^250 - 1 */
}

void ecopt_fe_invert_fermat(ecopt_fe *h, const ecopt_fe *f) {
    ecopt_fe t, z11;
    fe_pow_2_250_1(&t, &z11, f);
    ecopt_fe_sq_n(&t, &t, 5);  /* 2^255 - 2^5 */
    ecopt_fe_mul(h, &t, &z11); /* 2^255 - 21 = p - 2 */
}

#if defined(__SIZEOF_INT128__)
#include "field/fe_invert_divsteps_impl.h"

void ecopt_fe_invert_divsteps(ecopt_fe *h, const ecopt_fe *f) {
    uint8_t s[32];
    ecopt_fe_tobytes(s, f); /* canonical: x < p, as the iteration bound needs */
    fe_inv_divsteps_bytes(s, s);
    ecopt_fe_frombytes(h, s);
}
#endif

/* The faster of the two for each backend, measured side by side by bench/bench_invert (median TSC ticks, pinned,
 * gcc 12 -O2, 2026-11-30): divsteps on all three, adx51 3435 vs Fermat 5862, u64 3439 vs 5503, u32 3645 vs 18991.
 * The adx backend (4 x 64, added later) was left on Fermat; bench_invert --cpu 1 --rounds 51 (2026-12-01): divsteps
 * 3370 vs Fermat 5292 (its 254 squarings at about 20 ticks each are the fastest of all backends, still slower).
 * Building with -DECOPT_FE_INVERT_FORCE_FERMAT keeps Fermat everywhere, to measure the effect on whole operations. */
#if defined(__SIZEOF_INT128__) && !defined(ECOPT_FE_INVERT_FORCE_FERMAT) && \
    (defined(ECOPT_FE_BACKEND_adx) || defined(ECOPT_FE_BACKEND_adx51) || defined(ECOPT_FE_BACKEND_u64) || \
     defined(ECOPT_FE_BACKEND_u32))
#define FE_INVERT_DIVSTEPS 1
#endif

void ecopt_fe_invert(ecopt_fe *h, const ecopt_fe *f) {
#if defined(FE_INVERT_DIVSTEPS)
    ecopt_fe_invert_divsteps(h, f);
#else
    ecopt_fe_invert_fermat(h, f);
#endif
}

void ecopt_fe_pow22523(ecopt_fe *h, const ecopt_fe *f) {
    ecopt_fe t, z11;
    fe_pow_2_250_1(&t, &z11, f);
    ecopt_fe_sq_n(&t, &t, 2); /* 2^252 - 4 */
    ecopt_fe_mul(h, &t, f);   /* 2^252 - 3 = (p - 5) / 8 */
}

#endif /* ECOPT_FIELD_FE_COMMON_IMPL_H */
