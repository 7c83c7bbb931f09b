/* ed25519_internal.h — Ed25519 on an explicitly given backend, for the public functions (which pass the chosen
 * one) and for benchmarks and tests that compare backends in one process. Contracts as the public functions in
 * include/ecopt/ecopt.h; be NULL gives ECOPT_ERR_UNSUPPORTED (outputs zeroed). */
#ifndef ECOPT_PROTO_ED25519_INTERNAL_H
#define ECOPT_PROTO_ED25519_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "ecopt/ecopt.h"

/* Which member of the family: pure Ed25519 has no dom2 prefix; ctx and ph use dom2(F, C) with F = 0 and 1
 * (RFC 8032 section 5.1). ED_PH_DIGEST is Ed25519ph (F = 1) whose msg is PH(M) = SHA-512(M) already, 64 bytes,
 * computed by the caller. */
typedef enum { ED_PURE = -1, ED_CTX = 0, ED_PH = 1, ED_PH_DIGEST = 2 } ed_variant;

int ecopt_ed25519_keypair_from_seed_be(const ecopt_backend *be, ecopt_ed25519_secretkey *sk, uint8_t pub[32],
                                       const uint8_t seed[32]);

/* Time: constant in sk. */
int ecopt_ed25519_sign_be(const ecopt_backend *be, uint8_t sig[64], ed_variant v, const uint8_t *msg, size_t msglen,
                          const uint8_t *ctx, size_t ctxlen, const ecopt_ed25519_secretkey *sk);

/* vartime: signature, message, context and public key are public. */
int ecopt_ed25519_verify_be(const ecopt_backend *be, const uint8_t sig[64], ed_variant v, const uint8_t *msg,
                            size_t msglen, const uint8_t *ctx, size_t ctxlen, const uint8_t pub[32],
                            ecopt_verify_policy policy);

#endif /* ECOPT_PROTO_ED25519_INTERNAL_H */
