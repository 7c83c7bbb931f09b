/* x25519_core.c — X25519 on one backend (RFC 7748 sections 5 and 6.1); reached through the backend table. */
#include "backend.h"
#include "ct.h"
#include "curve/ge.h"
#include "curve/mont.h"
#include "curve/scalar.h"
#include "ecopt/ecopt.h"

#include "proto/core.h"

int ecopt_x25519_core(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
    uint8_t k[32];
    ecopt_scalar_clamp(k, scalar);
    ecopt_mont_ladder(out, k, u);
    ecopt_memzero_explicit(k, sizeof k);
    /* RFC 7748 section 6.1: an all-zero output means u was of small order; the check reads every byte. The
     * verdict itself is public (it is the function's result), so branching on it afterwards is fine. */
    uint64_t zero = ecopt_ct_bytes_is_zero(out, 32);
    ecopt_ct_declassify(&zero, sizeof zero);
    return zero ? ECOPT_ERR_SMALL_ORDER : ECOPT_OK;
}

/* [k]B on edwards25519 with the fixed-base table, then the birational map to Curve25519, u = (1 + y) / (1 - y)
 * = (Z + Y) / (Z - Y) (RFC 7748 section 4.1): B maps to u = 9. Z - Y != 0 because [k]B is not the identity for a
 * clamped k (k is a nonzero multiple of 8 below 2^255 < 8 l, so l does not divide it). */
void ecopt_x25519_base_core(uint8_t pub[32], const uint8_t scalar[32]) {
    uint8_t k[32];
    ecopt_ge_ext p;
    ecopt_fe n, d;
    ecopt_scalar_clamp(k, scalar);
    ecopt_ge_scalarmult_base(&p, k);
    ecopt_fe_add(&n, &p.Z, &p.Y);
    ecopt_fe_sub(&d, &p.Z, &p.Y);
    ecopt_fe_invert(&d, &d);
    ecopt_fe_mul(&n, &n, &d);
    ecopt_fe_tobytes(pub, &n);
    ecopt_memzero_explicit(k, sizeof k);
    ecopt_memzero_explicit(&p, sizeof p);
    ecopt_memzero_explicit(&n, sizeof n);
}
