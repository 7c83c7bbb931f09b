/* x25519_batch.h — the 8-lane batch X25519 of src/proto/x25519_batch_ifma.c, in its two builds: _ifma (AVX-512F, VL
 * and IFMA: call only where cpuid reports them and the OS saves the zmm state) and _ifma_emu (plain C, any CPU).
 * Reached from outside through the backend table (backend.h) and by the tests. */
#ifndef ECOPT_PROTO_X25519_BATCH_H
#define ECOPT_PROTO_X25519_BATCH_H

#include <stddef.h>
#include <stdint.h>

/* ecopt_x25519_batch_ifma — out_i = X25519(scalars_i, u_i) for i < n, keys 32 bytes each at offset 32 i.
 * Alias:   out may equal scalars or u (each group of eight keys is read before its outputs are written); no other
 *          overlap.
 * Time:    constant in every scalar and u; n is public.
 * Returns: ECOPT_OK when every output is nonzero, else ECOPT_ERR_SMALL_ORDER; status (NULL, or n ints) gets each
 *          key's code. Outputs are written for every key (an all-zero output is all zero).
 * Source:  RFC 7748 sections 5 and 6.1. */
int ecopt_x25519_batch_ifma(uint8_t *out, const uint8_t *scalars, const uint8_t *u, size_t n, int *status);
int ecopt_x25519_batch_ifma_emu(uint8_t *out, const uint8_t *scalars, const uint8_t *u, size_t n, int *status);

/* ecopt_x25519_base_batch_ifma — pub_i = X25519(scalars_i, 9) for i < n. Alias: pub may equal scalars. Time:
 * constant in every scalar. */
void ecopt_x25519_base_batch_ifma(uint8_t *pub, const uint8_t *scalars, size_t n);
void ecopt_x25519_base_batch_ifma_emu(uint8_t *pub, const uint8_t *scalars, size_t n);

#endif /* ECOPT_PROTO_X25519_BATCH_H */
