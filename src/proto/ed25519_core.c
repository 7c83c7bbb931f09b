/* ed25519_core.c — the point arithmetic of Ed25519 on one backend, and that backend's table of whole operations
 * (backend.h). Hashing and the protocol steps live in ed25519.c, compiled once. */
#include "backend.h"
#include "ct.h"
#include "curve/ge.h"
#include "curve/group.h"
#include "curve/scalar.h"
#include "ecopt/ecopt.h"

#include "proto/core.h"
#include "curve/h2c_map.h"
#include "curve/ristretto.h"
#include "curve/msm.h"
#include "proto/batch_core.h"

/* out = encode([s]B) for any 32-byte s: ecopt_ge_scalarmult_base takes every s < 2^256 (its top digit is bit 255
 * plus a carry, at most 2), so neither the clamped secret scalar of key generation nor the reduced nonce of signing
 * is reduced again here (a Barrett reduction would cost about 250 ticks in each). */
static void scalarmult_base_encode(uint8_t out[32], const uint8_t s[32]) {
    ecopt_ge_ext p;
    ecopt_ge_scalarmult_base(&p, s);
    ecopt_ge_encode(out, &p);
    ecopt_memzero_explicit(&p, sizeof p);
}

/* Strict rules 1-2 (for A) and 3-4 (for R) of ecopt.h, given the canonical decoding's result ok and point p:
 * refuse a non-canonical encoding, then small order. vartime: the encoding is public. */
static int strict_verdict_vartime(int ok, const ecopt_ge_ext *p) {
    if (!ok) return ECOPT_ERR_ENCODING;
    if (ecopt_ge_has_small_order(p)) return ECOPT_ERR_SMALL_ORDER;
    return ECOPT_OK;
}

static int publickey_check_vartime(const uint8_t pub[32]) {
    ecopt_ge_ext a;
    int ok = ecopt_ge_decode(&a, pub);
    return strict_verdict_vartime(ok, &a);
}

/* The policies of ecopt.h, steps in the documented order. vartime: sig, pub and k are public.
 * strict: canonical A, A not small, canonical R, R not small, S < l, cofactored equation.
 * ZIP-215: A and R decoded permissively (y mod p, x = 0 with either sign), S < l, cofactored equation. */
static int verify_vartime(const uint8_t sig[64], const uint8_t pub[32], const uint8_t k[32],
                          ecopt_verify_policy policy) {
    /* A and R decoded together (ecopt_ge_decode_x2: the two square roots interleaved), then the verdicts taken in
     * the documented order, so the result is that of decoding A, then R, one at a time. */
    ecopt_ge_ext ar[2];
    int ok[2];
    ecopt_ge_decode_x2(ar, ok, pub, sig, policy != ECOPT_POLICY_STRICT);
    if (policy == ECOPT_POLICY_STRICT) {
        int rc = strict_verdict_vartime(ok[0], &ar[0]);
        if (rc == ECOPT_OK) rc = strict_verdict_vartime(ok[1], &ar[1]);
        if (rc != ECOPT_OK) return rc;
    } else {
        if (!ok[0] || !ok[1]) return ECOPT_ERR_ENCODING;
    }
    if (!ecopt_scalar_is_canonical(sig + 32)) return ECOPT_ERR_ENCODING;
    /* [8]([S]B - [k]A - R) = identity */
    if (!ecopt_ge_cofactored_eq_vartime(&ar[0], &ar[1], k, sig + 32)) return ECOPT_ERR_VERIFY;
    return ECOPT_OK;
}

const ecopt_backend ECOPT_BE(ecopt_backend) = {
    .name = ECOPT_BE_NAME,
    .available = ecopt_fe_backend_available,
    .x25519 = ecopt_x25519_core,
    .x25519_base = ecopt_x25519_base_core,
#if defined(ECOPT_FE_BACKEND_ifma) || defined(ECOPT_FE_BACKEND_ifma_emu)
    .x25519_batch = ecopt_x25519_batch_core, /* eight keys at a time (x25519_batch_ifma.c) */
    /* x25519_base_batch stays NULL (n single calls): the four-lane fixed base (12.6k ticks a key on a Zen 4)
     * beats eight ladders on u = 9 (17.0k a key). */
#endif
    .ed25519_scalarmult_base = scalarmult_base_encode,
    .ed25519_verify_vartime = verify_vartime,
    .ed25519_publickey_check_vartime = publickey_check_vartime,
    .ristretto = &ecopt_ristretto_ops_be,
    .h2c = &ecopt_h2c_ops_be,
    .group = &ecopt_group_ops_table,
    .msm_scratch_size = ecopt_msm_scratch_bytes,
    .msm_vartime = ecopt_msm_public_vartime,
    .msm_ct = ecopt_msm_public_ct,
    .ed25519_verify_batch_vartime = ecopt_ed25519_verify_batch_vartime,
};
