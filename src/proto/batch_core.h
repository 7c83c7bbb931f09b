/* batch_core.h — the per-backend half of batch Ed25519 verification (names carry the backend suffix), reached
 * from ed25519_batch.c through the backend table's ed25519_verify_batch_vartime (backend.h). */
#ifndef ECOPT_PROTO_BATCH_CORE_H
#define ECOPT_PROTO_BATCH_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "backend_ns.h"

#define ecopt_ed25519_verify_batch_vartime ECOPT_BE(ecopt_ed25519_verify_batch_vartime)

/* ecopt_ed25519_verify_batch_vartime — the contract of backend.h's ed25519_verify_batch_vartime. */
void ecopt_ed25519_verify_batch_vartime(int *results, const uint8_t *sigs, const uint8_t *pubs, const uint8_t *k,
                                     uint8_t *z, size_t n, ecopt_verify_policy policy);

#endif /* ECOPT_PROTO_BATCH_CORE_H */
