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

#if defined(ECOPT_FE_BACKEND_ifma) || defined(ECOPT_FE_BACKEND_ifma_emu)
#include <stddef.h>

#define ecopt_x25519_batch_core ECOPT_BE(ecopt_x25519_batch_core)

/* ecopt_x25519_batch_core — out_i = X25519(scalars_i, u_i) for i < n, keys 32 bytes each at offset 32 i, eight
 * ladders at a time in the lanes of the vector registers (src/proto/x25519_batch_ifma.c). Contract as the table's
 * x25519_batch entry in backend.h: status NULL or n ints; out may equal scalars or u (each group of eight keys is
 * read before its outputs are written), no other overlap. Time: constant in every scalar and u; n public.
 * Returns: ECOPT_OK, or ECOPT_ERR_SMALL_ORDER when some output is all zero (that key's status). */
int ecopt_x25519_batch_core(uint8_t *out, const uint8_t *scalars, const uint8_t *u, size_t n, int *status);

#endif

#endif /* ECOPT_PROTO_CORE_H */
