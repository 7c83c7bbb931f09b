/* core.h — the per-backend protocol functions shared between the src/proto/..._core.c files (names carry the backend suffix).
 * They are reached from outside only through the backend table (backend.h). */
#ifndef ECOPT_PROTO_CORE_H
#define ECOPT_PROTO_CORE_H

#include <stdint.h>

#include "backend_ns.h"

#define ecopt_x25519_core ECOPT_BE(ecopt_x25519_core)
#define ecopt_x25519_base_core ECOPT_BE(ecopt_x25519_base_core)

/* ecopt_x25519_core — out = X25519(scalar, u): clamps scalar, ladder, all-zero check. Contract as the table's
 * x25519 entry in backend.h (ECOPT_OK, or ECOPT_ERR_SMALL_ORDER with out all zero). Time: constant in scalar. */
int ecopt_x25519_core(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);

/* ecopt_x25519_base_core — pub = X25519(scalar, 9). Time: constant in scalar. */
void ecopt_x25519_base_core(uint8_t pub[32], const uint8_t scalar[32]);

#endif /* ECOPT_PROTO_CORE_H */
