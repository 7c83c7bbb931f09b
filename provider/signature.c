/* signature.c — Ed25519 signatures of the ecopt provider (pure Ed25519, RFC 8032 section 5.1): one-shot
 * EVP_DigestSign / EVP_DigestVerify with no digest named, as OpenSSL's own Ed25519 works (the message is hashed
 * inside the scheme; there is no streaming update).
 *
 * Signing uses the key's ecopt_ed25519_secretkey, copied into the context at init and wiped when the context is
 * freed; verification is ecopt_ed25519_verify, ecopt's STRICT policy (include/ecopt/ecopt.h): it refuses
 * non-canonical encodings and small-order A or R, which OpenSSL's own Ed25519 accepts (docs/provider.md). */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "prov.h"

typedef struct {
    ecopt_prov_ctx *provctx;
    int has_priv, has_pub;
    ecopt_ed25519_secretkey sk;
    uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES];
} ed_ctx;

static void *ed_newctx(void *provctx, const char *propq) {
    (void)propq;
    ed_ctx *c = OPENSSL_zalloc(sizeof *c);
    if (c == NULL) ecopt_prov_err(provctx, ECOPT_PROV_R_NOMEM, NULL);
    else c->provctx = provctx;
    return c;
}

static void ed_freectx(void *ctx) {
    ed_ctx *c = ctx;
    if (c == NULL) return;
    ecopt_ed25519_secretkey_wipe(&c->sk);
    OPENSSL_clear_free(c, sizeof *c);
}

static void *ed_dupctx(void *ctx) {
    if (ctx == NULL) return NULL;
    ed_ctx *c = OPENSSL_malloc(sizeof *c);
    if (c == NULL) {
        ecopt_prov_err(((ed_ctx *)ctx)->provctx, ECOPT_PROV_R_NOMEM, NULL);
        return NULL;
    }
    memcpy(c, ctx, sizeof *c);
    return c;
}

/* Both inits: a NULL or empty digest name only; the key's parts copied in (a NULL key keeps the previous one, as a
 * re-initialisation does). */
static int ed_init(ed_ctx *c, const char *mdname, const ecopt_prov_key *k, int sign) {
    if (c == NULL) return 0;
    if (mdname != NULL && mdname[0] != '\0') {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_DIGEST, "digest %s given", mdname);
        return 0;
    }
    if (k != NULL) {
        if (k->type != ECOPT_PROV_ED25519) {
            ecopt_prov_err(c->provctx, ECOPT_PROV_R_MISSING_KEY, "not an Ed25519 key");
            return 0;
        }
        ecopt_ed25519_secretkey_wipe(&c->sk);
        c->has_priv = k->has_priv;
        c->has_pub = k->has_pub;
        if (k->has_priv) c->sk = k->sk;
        memcpy(c->pub, k->pub, sizeof c->pub);
    }
    if (sign ? !c->has_priv : !c->has_pub) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_MISSING_KEY, sign ? "signing needs a private key"
                                                                   : "verification needs a public key");
        return 0;
    }
    return 1;
}

static int ed_sign_init(void *ctx, const char *mdname, void *provkey, const OSSL_PARAM params[]) {
    (void)params;
    return ed_init(ctx, mdname, provkey, 1);
}

static int ed_verify_init(void *ctx, const char *mdname, void *provkey, const OSSL_PARAM params[]) {
    (void)params;
    return ed_init(ctx, mdname, provkey, 0);
}

static int ed_sign(void *ctx, unsigned char *sigret, size_t *siglen, size_t sigsize, const unsigned char *tbs,
                   size_t tbslen) {
    ed_ctx *c = ctx;
    if (c == NULL || siglen == NULL) return 0;
    if (!c->has_priv) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_MISSING_KEY, "signing needs a private key");
        return 0;
    }
    if (sigret == NULL) { /* a length query */
        *siglen = ECOPT_ED25519_SIGNATUREBYTES;
        return 1;
    }
    if (sigsize < ECOPT_ED25519_SIGNATUREBYTES) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_BUFFER_SMALL, "%zu bytes for a %d-byte signature", sigsize,
                       ECOPT_ED25519_SIGNATUREBYTES);
        return 0;
    }
    int rc = ecopt_ed25519_sign(sigret, tbs, tbslen, &c->sk);
    if (rc != ECOPT_OK) {
        ecopt_prov_err(c->provctx, ECOPT_PROV_R_LIBRARY, "%s", ecopt_strerror(rc));
        return 0;
    }
    *siglen = ECOPT_ED25519_SIGNATUREBYTES;
    return 1;
}

/* 1 for a valid signature, 0 for any other (a wrong length, an invalid signature: no error raised, as OpenSSL's
 * Ed25519 does; an error only when libecopt itself failed). */
static int ed_verify(void *ctx, const unsigned char *sig, size_t siglen, const unsigned char *tbs, size_t tbslen) {
    ed_ctx *c = ctx;
    if (c == NULL || !c->has_pub) return 0;
    if (sig == NULL || siglen != ECOPT_ED25519_SIGNATUREBYTES) return 0;
    int rc = ecopt_ed25519_verify(sig, tbs, tbslen, c->pub);
    if (rc == ECOPT_OK) return 1;
    if (rc == ECOPT_ERR_NOMEM) ecopt_prov_err(c->provctx, ECOPT_PROV_R_LIBRARY, "%s", ecopt_strerror(rc));
    return 0;
}

/* The AlgorithmIdentifier of Ed25519 in DER, for certificates and CMS: SEQUENCE { OID 1.3.101.112 } with no
 * parameters (RFC 8410 section 3). */
static const unsigned char ed25519_algid[] = {0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70};

static int ed_get_ctx_params(void *ctx, OSSL_PARAM params[]) {
    if (ctx == NULL) return 0;
    OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID);
    if (p != NULL && !OSSL_PARAM_set_octet_string(p, ed25519_algid, sizeof ed25519_algid)) return 0;
    return 1;
}

static const OSSL_PARAM ed_gettable[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *ed_gettable_ctx_params(void *ctx, void *provctx) {
    (void)ctx;
    (void)provctx;
    return ed_gettable;
}

#define FN(f) ((void (*)(void))(f))
const OSSL_DISPATCH ecopt_prov_ed25519_signature[] = {
    {OSSL_FUNC_SIGNATURE_NEWCTX, FN(ed_newctx)},
    {OSSL_FUNC_SIGNATURE_FREECTX, FN(ed_freectx)},
    {OSSL_FUNC_SIGNATURE_DUPCTX, FN(ed_dupctx)},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, FN(ed_sign_init)},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN, FN(ed_sign)},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, FN(ed_verify_init)},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, FN(ed_verify)},
    {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, FN(ed_get_ctx_params)},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, FN(ed_gettable_ctx_params)},
    {0, NULL},
};
