/* sha512.h — SHA-512 (FIPS 180-4) of a concatenation of byte strings, from OpenSSL's libcrypto: SHA512_Init,
 * Update and Final, or EVP where libcrypto lacks the deprecated API or ECOPT_SHA512_EVP is defined (sha512.c). */
#ifndef ECOPT_PROTO_SHA512_H
#define ECOPT_PROTO_SHA512_H

#include <stddef.h>
#include <stdint.h>

typedef struct ecopt_bytes {
    const uint8_t *p; /* may be NULL when n is 0 */
    size_t n;
} ecopt_bytes;

/* ecopt_sha512 — out = SHA-512(parts[0] || parts[1] || ... || parts[count-1]).
 * Shapes:  out 64 bytes.
 * Time:    constant in the contents (libcrypto's SHA-512 has no data-dependent branch or index); lengths public.
 * Returns: ECOPT_OK; ECOPT_ERR_NOMEM when libcrypto cannot provide SHA-512 (fetch), allocate or initialise its
 *          context (out zeroed).
 *          The context is cleansed before returning (OPENSSL_cleanse; EVP: by libcrypto when freed). */
int ecopt_sha512(uint8_t out[64], const ecopt_bytes *parts, size_t count);

#endif /* ECOPT_PROTO_SHA512_H */
