/* exchange.c — X25519 key exchange of the ecopt provider: derive = ecopt_x25519(own scalar, peer's u).
 *
 * The context copies the 32 bytes it needs from each key (the scalar at init, the peer's u at set_peer), so it
 * never depends on the key objects' lifetimes; the scalar is wiped when the context is freed. An all-zero result
 * (a peer key of small order) is refused with an error, as RFC 7748 section 6.1 allows and OpenSSL does. */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/params.h>

#include "prov.h"

typedef struct {
    ecopt_prov_ctx *provctx;
    int has_priv, has_peer;
    uint8_t priv[ECOPT_X25519_SCALARBYTES];
    uint8_t peer[ECOPT_X25519_BYTES];
} x_ctx;

static void *x_newctx(void *provctx) {
    x_ctx *c = OPENSSL_zalloc(sizeof *c);
    if (c == NULL) ecopt_prov_err(provctx, ECOPT_PROV_R_NOMEM, NULL);
    else c->provctx = provctx;
    return c;
}

static void x_freectx(void *ctx) {
    OPENSSL_clear_free(ctx, sizeof(x_ctx));
}

static void *x_dupctx(void *ctx) {
    if (ctx == NULL) return NULL;
    x_ctx *c = OPENSSL_malloc(sizeof *c);
    if (c == NULL) {
        ecopt_prov_err(((x_ctx *)ctx)->provctx, ECOPT_PROV_R_NOMEM, NULL);
        return NULL;
    }
    memcpy(c, ctx, sizeof *c);
    return c;
}

static int x_init(void *ctx, void *provkey, const OSSL_PARAM params[]) {
    x_ctx *c = ctx;
    const ecopt_prov_key *k = provkey;
    (void)params;
    if (c == NULL) return 0;
    if (k == NULL || k->type != ECOPT_PROV_X25519 || !k->has_priv) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_MISSING_KEY, "X25519 derive needs a private key");
        return 0;
    }
    memcpy(c->priv, k->priv, sizeof c->priv);
    c->has_priv = 1;
    return 1;
}

static int x_set_peer(void *ctx, void *provkey) {
    x_ctx *c = ctx;
    const ecopt_prov_key *k = provkey;
    if (c == NULL) return 0;
    if (k == NULL || k->type != ECOPT_PROV_X25519 || !k->has_pub) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_MISSING_KEY, "the X25519 peer key has no public key");
        return 0;
    }
    memcpy(c->peer, k->pub, sizeof c->peer);
    c->has_peer = 1;
    return 1;
}

static int x_derive(void *ctx, unsigned char *secret, size_t *secretlen, size_t outlen) {
    x_ctx *c = ctx;
    if (c == NULL || secretlen == NULL) return 0;
    if (!c->has_priv || !c->has_peer) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_MISSING_KEY, c->has_priv ? "no peer key set" : "no private key");
        return 0;
    }
    if (secret == NULL) { /* a length query */
        *secretlen = ECOPT_X25519_BYTES;
        return 1;
    }
    if (outlen < ECOPT_X25519_BYTES) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_BUFFER_SMALL, "%zu bytes for a %d-byte secret", outlen,
                       ECOPT_X25519_BYTES);
        return 0;
    }
    int rc = ecopt_x25519(secret, c->priv, c->peer);
    if (rc == ECOPT_ERR_SMALL_ORDER) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_ALL_ZERO_SECRET, NULL);
        return 0;
    }
    if (rc != ECOPT_OK) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_LIBRARY, "%s", ecopt_strerror(rc));
        return 0;
    }
    *secretlen = ECOPT_X25519_BYTES;
    return 1;
}

#define FN(f) ((void (*)(void))(f))
const OSSL_DISPATCH ecopt_prov_x25519_keyexch[] = {
    {OSSL_FUNC_KEYEXCH_NEWCTX, FN(x_newctx)},
    {OSSL_FUNC_KEYEXCH_INIT, FN(x_init)},
    {OSSL_FUNC_KEYEXCH_SET_PEER, FN(x_set_peer)},
    {OSSL_FUNC_KEYEXCH_DERIVE, FN(x_derive)},
    {OSSL_FUNC_KEYEXCH_FREECTX, FN(x_freectx)},
    {OSSL_FUNC_KEYEXCH_DUPCTX, FN(x_dupctx)},
    {0, NULL},
};
