/* sha512.c — SHA-512 from OpenSSL's libcrypto (see sha512.h). */
#include "proto/sha512.h"

#include <string.h>

#include "ecopt/ecopt.h"

/* libcrypto's SHA512_Init/Update/Final (deprecated since OpenSSL 3.0, still in every 3.x) run the same compression
 * function as the EVP interface on a context on the stack: no allocation, no provider lookup. For the messages of
 * Ed25519 (32 to ~200 bytes) that is about 0.64 of the EVP path's ticks (536 against 836 for 96 bytes, OpenSSL
 * 3.0.19, 201 x 64 calls, medians, pinned): sign hashes twice. A libcrypto built without the deprecated API
 * (OPENSSL_NO_DEPRECATED_3_0, or ECOPT_SHA512_EVP defined) takes the EVP path. */
#if !defined(ECOPT_SHA512_EVP)
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/sha.h>
#if defined(OPENSSL_NO_DEPRECATED_3_0)
#define ECOPT_SHA512_EVP 1
#endif
#endif

#if defined(ECOPT_SHA512_EVP)
#include <openssl/evp.h>
#include <pthread.h>

/* The SHA-512 implementation, fetched from the default provider once: EVP_sha512() makes every EVP_DigestInit_ex
 * fetch it again (OpenSSL 3.0), which costs more than hashing a short message. */
static EVP_MD *sha512_md;
static pthread_once_t sha512_once = PTHREAD_ONCE_INIT;

static void sha512_fetch(void) {
    sha512_md = EVP_MD_fetch(NULL, "SHA512", NULL);
}

int ecopt_sha512(uint8_t out[64], const ecopt_bytes *parts, size_t count) {
    pthread_once(&sha512_once, sha512_fetch);
    EVP_MD_CTX *ctx = sha512_md ? EVP_MD_CTX_new() : NULL;
    int ok = ctx != NULL && EVP_DigestInit_ex(ctx, sha512_md, NULL) == 1;
    for (size_t i = 0; ok && i < count; i++)
        if (parts[i].n > 0) ok = EVP_DigestUpdate(ctx, parts[i].p, parts[i].n) == 1;
    unsigned int len = 0;
    if (ok) ok = EVP_DigestFinal_ex(ctx, out, &len) == 1 && len == 64;
    EVP_MD_CTX_free(ctx); /* cleanses the state */
    if (!ok) {
        memset(out, 0, 64);
        return ECOPT_ERR_NOMEM;
    }
    return ECOPT_OK;
}
#else
int ecopt_sha512(uint8_t out[64], const ecopt_bytes *parts, size_t count) {
    SHA512_CTX ctx;
    int ok = SHA512_Init(&ctx) == 1;
    for (size_t i = 0; ok && i < count; i++)
        if (parts[i].n > 0) ok = SHA512_Update(&ctx, parts[i].p, parts[i].n) == 1;
    if (ok) ok = SHA512_Final(out, &ctx) == 1;
    OPENSSL_cleanse(&ctx, sizeof ctx); /* the state holds the secret key's hash in keygen and sign */
    if (!ok) {
        memset(out, 0, 64);
        return ECOPT_ERR_NOMEM;
    }
    return ECOPT_OK;
}
#endif
