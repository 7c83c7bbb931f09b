/* sha512.c — SHA-512 through libcrypto's EVP interface (see sha512.h). */
#include "proto/sha512.h"

#include <openssl/evp.h>
#include <string.h>

#include "ecopt/ecopt.h"

int ecopt_sha512(uint8_t out[64], const ecopt_bytes *parts, size_t count) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx != NULL && EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) == 1;
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
