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


/* h[k] = f[k]^(2^n) and h[k] = f[k] g[k] for k < lanes (1 or 2). With two lanes the steps of the two chains
 * alternate: each chain is a string of dependent multiplications, and the CPU overlaps the other chain's next one
 * with it (adx: about 14.4 TSC ticks per square with two chains against 19.3 with one). One lane is the plain ecopt_fe_sq_n and ecopt_fe_mul. lanes is public. */
static void fe_sq_n_lanes(ecopt_fe *h, const ecopt_fe *f, unsigned n, int lanes) {
    if (lanes == 1) {
        ecopt_fe_sq_n(h, f, n);
        return;
    }
    for (int k = 0; k < lanes; k++) ecopt_fe_sq(&h[k], &f[k]);
    for (unsigned i = 1; i < n; i++)
        for (int k = 0; k < lanes; k++) ecopt_fe_sq(&h[k], &h[k]);
}

static void fe_mul_lanes(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g, int lanes) {
    for (int k = 0; k < lanes; k++) ecopt_fe_mul(&h[k], &f[k], &g[k]);
}

/* z_2_250_1 = z^(2^250 - 1), and z11 = z^11 for the inversion's tail, for each of `lanes` (1 or 2) inputs. The
 * chain of Bernstein, "Curve25519: new Diffie-Hellman speed records" (2006), section 5: exponents 2, 9, 11, 2^5-1,
 * 2^10-1, 2^20-1, 2^40-1, 2^50-1, 2^100-1, 2^200-1, 2^250-1. */
static void fe_pow_2_250_1(ecopt_fe *z_2_250_1, ecopt_fe *z11, const ecopt_fe *z, int lanes) {
    ecopt_fe z2[2], z9[2], t[2], z_5[2], z_10[2], z_20[2], z_50[2], z_100[2];
    fe_sq_n_lanes(z2, z, 1, lanes);               /* 2 */
    fe_sq_n_lanes(t, z2, 2, lanes);               /* 8 */
    fe_mul_lanes(z9, t, z, lanes);                /* 9 */
    fe_mul_lanes(z11, z9, z2, lanes);             /* 11 */
    fe_sq_n_lanes(t, z11, 1, lanes);              /* 22 */
    fe_mul_lanes(z_5, t, z9, lanes);              /* 31 = 2^5 - 1 */
    fe_sq_n_lanes(t, z_5, 5, lanes);              /* 2^10 - 2^5 */
    fe_mul_lanes(z_10, t, z_5, lanes);            /* 2^10 - 1 */
    fe_sq_n_lanes(t, z_10, 10, lanes);            /* 2^20 - 2^10 */
    fe_mul_lanes(z_20, t, z_10, lanes);           /* 2^20 - 1 */
    fe_sq_n_lanes(t, z_20, 20, lanes);            /* 2^40 - 2^20 */
    fe_mul_lanes(t, t, z_20, lanes);              /* 2^40 - 1 */
    fe_sq_n_lanes(t, t, 10, lanes);               /* 2^50 - 2^10 */
    fe_mul_lanes(z_50, t, z_10, lanes);           /* 2^50 - 1 */
    fe_sq_n_lanes(t, z_50, 50, lanes);            /* 2^100 - 2^50 */
    fe_mul_lanes(z_100, t, z_50, lanes);          /* 2^100 - 1 */
    fe_sq_n_lanes(t, z_100, 100, lanes);          /* 2^200 - 2^100 */
    fe_mul_lanes(t, t, z_100, lanes);             /* 2^200 - 1 */
    fe_sq_n_lanes(t, t, 50, lanes);               /* 2^250 - 2^50 */
    fe_mul_lanes(z_2_250_1, t, z_50, lanes);      /* 2^250 - 1 */
}

void ecopt_fe_invert_fermat(ecopt_fe *h, const ecopt_fe *f) {
    ecopt_fe t, z11;
    fe_pow_2_250_1(&t, &z11, f, 1);
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

/* Divsteps on every backend: bench/bench_invert, which times both side by side, finds them faster than Fermat's
 * chain on each (even on adx, whose 254 squarings are the cheapest of all backends; figures in CHANGELOG.md).
 * Building with -DECOPT_FE_INVERT_FORCE_FERMAT keeps Fermat everywhere, to measure the effect on whole operations. */
#if defined(__SIZEOF_INT128__) && !defined(ECOPT_FE_INVERT_FORCE_FERMAT) && \
    (defined(ECOPT_FE_BACKEND_adx) || defined(ECOPT_FE_BACKEND_x64) || defined(ECOPT_FE_BACKEND_adx51) || defined(ECOPT_FE_BACKEND_u64) || \
     defined(ECOPT_FE_BACKEND_u32) || defined(ECOPT_FE_BACKEND_ifma) || defined(ECOPT_FE_BACKEND_ifma_emu))
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
    fe_pow_2_250_1(&t, &z11, f, 1);
    ecopt_fe_sq_n(&t, &t, 2); /* 2^252 - 4 */
    ecopt_fe_mul(h, &t, f);   /* 2^252 - 3 = (p - 5) / 8 */
}

void ecopt_fe_pow22523_x2(ecopt_fe h[2], const ecopt_fe f[2]) {
    ecopt_fe t[2], z11[2];
    fe_pow_2_250_1(t, z11, f, 2);
    fe_sq_n_lanes(t, t, 2, 2); /* 2^252 - 4 */
    fe_mul_lanes(h, t, f, 2);  /* 2^252 - 3 = (p - 5) / 8 */
}

#endif /* ECOPT_FIELD_FE_COMMON_IMPL_H */
