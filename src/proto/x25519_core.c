/* x25519_core.c — X25519 on one backend (RFC 7748 sections 5 and 6.1); reached through the backend table. */
#include "backend.h"
#include "ct.h"
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

void ecopt_x25519_base_core(uint8_t pub[32], const uint8_t scalar[32]) {
    static const uint8_t nine[32] = {9};
    uint8_t k[32];
    ecopt_scalar_clamp(k, scalar);
    ecopt_mont_ladder(pub, k, nine);
    ecopt_memzero_explicit(k, sizeof k);
}
