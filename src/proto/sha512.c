/* sha512.c — SHA-512 through libcrypto's EVP interface (see sha512.h). */
#include "proto/sha512.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <string.h>

#include "ecopt/ecopt.h"

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
