/* x25519.c — libFuzzer harness: X25519 differential between ecopt (every backend this CPU runs), OpenSSL's
 * libcrypto and libsodium.
 *
 * Input: pairs of 32-byte blocks (scalar, u-coordinate), zero-padded to a whole pair, at most 8 pairs (the first
 * pair from a shorter input is all zero: X25519 of the zero u, the all-zero case).
 *
 * Asserts (abort on failure), for each pair:
 *   - ecopt_x25519 on every backend gives the same status and the same 32 bytes;
 *   - ECOPT_OK exactly when libsodium's crypto_scalarmult succeeds and when OpenSSL's EVP_PKEY_derive does (all three
 *     refuse an all-zero shared secret: RFC 7748 section 6.1), with the same bytes; on ECOPT_ERR_SMALL_ORDER the
 *     output is all zero;
 *   - ecopt_x25519_base of the scalar equals crypto_scalarmult_base and OpenSSL's public key of the raw private key;
 *   - ecopt_x25519_batch of all pairs, on every backend, gives each pair's single result and status, and
 *     ecopt_x25519_base_batch each base result.
 * LLVMFuzzerInitialize also checks the all-zero scalar and the all-zero u once, without waiting for the fuzzer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ecopt/ecopt.h>
#include <openssl/evp.h>
#include <sodium.h>

#define FUZZ_NAME "x25519"
#define FUZZ_BACKENDS
#include "fuzz.h"



#define MAXPAIRS 8


/* OpenSSL's X25519(scalar, u): 1 with out, 0 when it refuses (its all-zero check). */
static int openssl_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32])
{
    EVP_PKEY *priv = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, scalar, 32);
    EVP_PKEY *peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, u, 32);
    EVP_PKEY_CTX *ctx = priv ? EVP_PKEY_CTX_new(priv, NULL) : NULL;
    size_t n = 32;
    int ok;
    FUZZ_ASSERT(priv && peer && ctx);
    ok = EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
         EVP_PKEY_derive(ctx, out, &n) == 1 && n == 32;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(priv);
    return ok;
}

static void openssl_x25519_base(uint8_t pub[32], const uint8_t scalar[32])
{
    EVP_PKEY *priv = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, scalar, 32);
    size_t n = 32;
    FUZZ_ASSERT(priv != NULL && EVP_PKEY_get_raw_public_key(priv, pub, &n) == 1 && n == 32);
    EVP_PKEY_free(priv);
}

static void check_pairs(const uint8_t *in, size_t npairs)
{
    uint8_t ref[MAXPAIRS][32], refbase[MAXPAIRS][32], out[32];
    int refrc[MAXPAIRS];
    for (size_t j = 0; j < npairs; j++) {
        const uint8_t *scalar = in + 64 * j, *u = scalar + 32;
        uint8_t so[32], oo[32];
        int sodium_ok = crypto_scalarmult(so, scalar, u) == 0;
        int openssl_ok = openssl_x25519(oo, scalar, u);
        FUZZ_ASSERT(sodium_ok == openssl_ok);
        FUZZ_ASSERT(!sodium_ok || memcmp(so, oo, 32) == 0);
        for (int b = 0; b < fuzz_nbackends; b++) {
            fuzz_select_backend(b);
            int rc = ecopt_x25519(out, scalar, u);
            FUZZ_ASSERT(rc == ECOPT_OK || rc == ECOPT_ERR_SMALL_ORDER);
            FUZZ_ASSERT((rc == ECOPT_OK) == sodium_ok);
            if (rc == ECOPT_OK)
                FUZZ_ASSERT(memcmp(out, so, 32) == 0);
            else
                FUZZ_ASSERT(sodium_is_zero(out, 32));
            if (b == 0) {
                refrc[j] = rc;
                memcpy(ref[j], out, 32);
            }
            FUZZ_ASSERT(ecopt_x25519_base(out, scalar) == ECOPT_OK);
            if (b == 0) {
                uint8_t sb[32], ob[32];
                FUZZ_ASSERT(crypto_scalarmult_base(sb, scalar) == 0);
                openssl_x25519_base(ob, scalar);
                FUZZ_ASSERT(memcmp(sb, ob, 32) == 0);
                memcpy(refbase[j], sb, 32);
            }
            FUZZ_ASSERT(memcmp(out, refbase[j], 32) == 0);
        }
    }
    /* the batch entry points against the single results */
    uint8_t scalars[MAXPAIRS * 32], us[MAXPAIRS * 32], bout[MAXPAIRS * 32];
    int status[MAXPAIRS];
    for (size_t j = 0; j < npairs; j++) {
        memcpy(scalars + 32 * j, in + 64 * j, 32);
        memcpy(us + 32 * j, in + 64 * j + 32, 32);
    }
    for (int b = 0; b < fuzz_nbackends; b++) {
        fuzz_select_backend(b);
        int all_ok = 1;
        for (size_t j = 0; j < npairs; j++)
            all_ok &= refrc[j] == ECOPT_OK;
        int rc = ecopt_x25519_batch(bout, scalars, us, npairs, status);
        FUZZ_ASSERT(rc == (all_ok ? ECOPT_OK : ECOPT_ERR_SMALL_ORDER));
        for (size_t j = 0; j < npairs; j++) {
            FUZZ_ASSERT(status[j] == refrc[j]);
            FUZZ_ASSERT(memcmp(bout + 32 * j, ref[j], 32) == 0);
        }
        FUZZ_ASSERT(ecopt_x25519_base_batch(bout, scalars, npairs) == ECOPT_OK);
        for (size_t j = 0; j < npairs; j++)
            FUZZ_ASSERT(memcmp(bout + 32 * j, refbase[j], 32) == 0);
    }
    FUZZ_ASSERT(ecopt_backend_select(NULL) == ECOPT_OK);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0)
        abort();
    fuzz_backends_init();
    fprintf(stderr, "fuzz_x25519: backends:");
    for (int b = 0; b < fuzz_nbackends; b++)
        fprintf(stderr, " %s", fuzz_backends[b]);
    fprintf(stderr, "\n");

    /* the all-zero cases: zero u (small order: refused by all), zero scalar (clamped to 2^254) with u = 9 */
    uint8_t z[64] = { 0 };
    check_pairs(z, 1);
    z[32] = 9;
    check_pairs(z, 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t in[MAXPAIRS * 64] = { 0 };
    size_t n = size < sizeof in ? size : sizeof in;
    memcpy(in, data, n);
    check_pairs(in, n ? (n + 63) / 64 : 1);
    return 0;
}
