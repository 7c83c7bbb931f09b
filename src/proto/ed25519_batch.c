/* ed25519_batch.c — ecopt_ed25519_verify_batch (include/ecopt/ecopt.h): the hashing and the random coefficients,
 * compiled once; the random coefficients and the point arithmetic is the chosen backend's (backend.h's ed25519_verify_batch_vartime,
 * src/proto/ed25519_batch_core.c), fetched once per call. */
#include <string.h>

#include "backend.h"
#include "curve/scalar.h"
#include "ecopt/ecopt.h"
#include "proto/sha512.h"
#include "rng.h"

int ecopt_ed25519_verify_batch(int *results, const uint8_t *sigs, const uint8_t *const *msgs, const size_t *msglens,
                               const uint8_t *pubs, size_t n, int policy) {
    /* The policy first: an unknown one is refused whatever n, so a caller's typo shows on an empty list too. */
    if (policy != ECOPT_VERIFY_STRICT && policy != ECOPT_VERIFY_ZIP215) {
        for (size_t i = 0; i < n; i++) results[i] = ECOPT_ERR_UNSUPPORTED;
        return ECOPT_ERR_UNSUPPORTED;
    }
    ecopt_verify_policy pol = policy == ECOPT_VERIFY_STRICT ? ECOPT_POLICY_STRICT : ECOPT_POLICY_ZIP215;
    const ecopt_backend *be = ecopt_backend_get();
    for (size_t g = 0; g < n; g += ECOPT_BATCH_GROUP) {
        size_t m = n - g < ECOPT_BATCH_GROUP ? n - g : ECOPT_BATCH_GROUP;
        uint8_t k[ECOPT_BATCH_GROUP][32], z[ECOPT_BATCH_GROUP][16];
        for (size_t t = 0; t < m; t++) {
            /* k = SHA-512(R || A || M) mod l (RFC 8032 section 5.1.7 step 2), first, as single verification does */
            size_t i = g + t;
            uint8_t h[64];
            ecopt_bytes parts[3] = {{sigs + 64 * i, 32}, {pubs + 32 * i, 32}, {msgs[i], msglens[i]}};
            results[i] = ecopt_sha512(h, parts, 3);
            if (results[i] == ECOPT_OK) ecopt_scalar_reduce64(k[t], h);
        }
        /* The core draws the random coefficients into z itself, and only when a combined check is needed (more
         * survivors of the per-item rules than single checks settle): ed25519_batch_core.c. */
        be->ed25519_verify_batch_vartime(results + g, sigs + 64 * g, pubs + 32 * g, k[0], z[0], m, pol);
    }
    for (size_t i = 0; i < n; i++)
        if (results[i] != ECOPT_OK) return results[i];
    return ECOPT_OK;
}
