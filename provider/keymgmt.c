/* keymgmt.c — key management of the ecopt provider for X25519 and Ed25519: one key object (prov.h's
 * ecopt_prov_key) for both types, raw keys in and out as OpenSSL's providers exchange them (OSSL_PKEY_PARAM_PUB_KEY
 * and OSSL_PKEY_PARAM_PRIV_KEY, 32-byte octet strings: the u-coordinate or A, the scalar or the seed), so that a key
 * moves between this provider and any other that speaks the same parameters (OpenSSL's default provider).
 *
 * Rules beyond the interface's: a private key always carries its public key, computed here from it (a public key
 * given beside it must equal that one, else the import fails: an Ed25519 key whose A is not [s]B would leak s
 * through two signatures of one message); every secret byte is wiped when the object is freed. */
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "prov.h"

#define KEY_BYTES 32

static ecopt_prov_key *key_new(void *provctx, int type) {
    ecopt_prov_key *k = OPENSSL_zalloc(sizeof *k);
    if (k == NULL) {
        ecopt_prov_err(provctx, ECOPT_PROV_R_NOMEM, NULL);
        return NULL;
    }
    k->provctx = provctx;
    k->type = type;
    return k;
}

static void *x25519_new(void *provctx) {
    return key_new(provctx, ECOPT_PROV_X25519);
}

static void *ed25519_new(void *provctx) {
    return key_new(provctx, ECOPT_PROV_ED25519);
}

static void key_free(void *keydata) {
    ecopt_prov_key *k = keydata;
    if (k == NULL) return;
    ecopt_ed25519_secretkey_wipe(&k->sk);
    OPENSSL_clear_free(k, sizeof *k); /* priv and the rest: cleansed, then freed */
}

/* The private part from 32 raw bytes, and the public key derived from it. Returns an ecopt status; on error the
 * key holds no private part. */
static int key_set_private(ecopt_prov_key *k, const uint8_t priv[KEY_BYTES]) {
    int rc;
    memcpy(k->priv, priv, KEY_BYTES);
    if (k->type == ECOPT_PROV_X25519)
        rc = ecopt_x25519_base(k->pub, k->priv);
    else
        rc = ecopt_ed25519_keypair_from_seed(&k->sk, k->pub, k->priv);
    if (rc != ECOPT_OK) {
        OPENSSL_cleanse(k->priv, KEY_BYTES);
        ecopt_ed25519_secretkey_wipe(&k->sk);
        k->has_priv = k->has_pub = 0;
        return rc;
    }
    k->has_priv = k->has_pub = 1;
    return ECOPT_OK;
}

static void key_clear_private(ecopt_prov_key *k) {
    OPENSSL_cleanse(k->priv, KEY_BYTES);
    ecopt_ed25519_secretkey_wipe(&k->sk);
    k->has_priv = 0;
}

/* Make k a public key alone: its private part wiped, pub (32 bytes) its public key. */
static void key_set_public(ecopt_prov_key *k, const uint8_t *pub) {
    key_clear_private(k);
    memcpy(k->pub, pub, KEY_BYTES);
    k->has_pub = 1;
}

/* A 32-byte octet string parameter: its bytes, or 0 with an error raised (wrong type or length). */
static int param_key_bytes(const ecopt_prov_key *k, const OSSL_PARAM *p, const uint8_t **out) {
    const void *v = NULL;
    size_t len = 0;
    if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &len)) {
        ecopt_prov_err(k->provctx, ECOPT_PROV_R_BAD_PARAM, "%s is not an octet string", p->key);
        return 0;
    }
    if (len != KEY_BYTES) {
        ecopt_prov_err(k->provctx, ECOPT_PROV_R_KEY_LENGTH, "%s: %zu bytes, not %d", p->key, len, KEY_BYTES);
        return 0;
    }
    *out = v;
    return 1;
}

static int key_has(const void *keydata, int selection) {
    const ecopt_prov_key *k = keydata;
    if (k == NULL) return 0;
    int ok = 1;
    /* every key with a private part has its public one, so the key pair's test is the public key's */
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0) ok = ok && k->has_pub;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) ok = ok && k->has_priv;
    return ok;
}

static int key_match(const void *keydata1, const void *keydata2, int selection) {
    const ecopt_prov_key *a = keydata1, *b = keydata2;
    if (a == NULL || b == NULL || a->type != b->type) return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1; /* no domain parameters to compare */
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && a->has_pub && b->has_pub)
        return CRYPTO_memcmp(a->pub, b->pub, KEY_BYTES) == 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && a->has_priv && b->has_priv)
        return CRYPTO_memcmp(a->priv, b->priv, KEY_BYTES) == 0;
    return 0; /* nothing comparable: not a match */
}

static int key_import(void *keydata, int selection, const OSSL_PARAM params[]) {
    ecopt_prov_key *k = keydata;
    if (k == NULL) return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) {
        ecopt_prov_err(k->provctx, ECOPT_PROV_R_MISSING_KEY, "no key part selected");
        return 0;
    }
    const OSSL_PARAM *ppub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
    const OSSL_PARAM *ppriv = NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ppriv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
    if (ppub == NULL && ppriv == NULL) {
        ecopt_prov_err(k->provctx, ECOPT_PROV_R_MISSING_KEY, "neither %s nor %s given", OSSL_PKEY_PARAM_PUB_KEY,
                       OSSL_PKEY_PARAM_PRIV_KEY);
        return 0;
    }
    const uint8_t *pub = NULL, *priv = NULL;
    if (ppub != NULL && !param_key_bytes(k, ppub, &pub)) return 0;
    if (ppriv != NULL && !param_key_bytes(k, ppriv, &priv)) return 0;
    if (priv != NULL) {
        int rc = key_set_private(k, priv);
        if (rc != ECOPT_OK) {
            ecopt_prov_err(k->provctx, ECOPT_PROV_R_LIBRARY, "%s", ecopt_strerror(rc));
            return 0;
        }
        if (pub != NULL && CRYPTO_memcmp(pub, k->pub, KEY_BYTES) != 0) {
            key_clear_private(k);
            k->has_pub = 0;
            ecopt_prov_err(k->provctx, ECOPT_PROV_R_KEY_MISMATCH, NULL);
            return 0;
        }
        return 1;
    }
    key_set_public(k, pub);
    return 1;
}

static const OSSL_PARAM key_types_pub[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_END,
};
static const OSSL_PARAM key_types_both[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *key_imexport_types(int selection) {
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) return key_types_both;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) return key_types_pub;
    return NULL;
}

static int key_export(void *keydata, int selection, OSSL_CALLBACK *param_cb, void *cbarg) {
    ecopt_prov_key *k = keydata;
    if (k == NULL || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 0;
    OSSL_PARAM params[3];
    size_t n = 0;
    if (k->has_pub) params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, k->pub, KEY_BYTES);
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && k->has_priv)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, k->priv, KEY_BYTES);
    params[n] = OSSL_PARAM_construct_end();
    return param_cb(params, cbarg);
}

static int key_get_params(void *keydata, OSSL_PARAM params[]) {
    ecopt_prov_key *k = keydata;
    if (k == NULL) return 0;
    int x = k->type == ECOPT_PROV_X25519;
    OSSL_PARAM *p;
    /* bits as OpenSSL counts them: X25519's scalars have 253 significant bits after clamping, Ed25519's keys 256 */
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL && !OSSL_PARAM_set_int(p, x ? 253 : 256))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL && !OSSL_PARAM_set_int(p, 128))
        return 0;
    /* the largest output: a shared secret (32 bytes) or a signature (64) */
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL &&
        !OSSL_PARAM_set_int(p, x ? ECOPT_X25519_BYTES : ECOPT_ED25519_SIGNATUREBYTES))
        return 0;
    if (k->has_pub) {
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) != NULL &&
            !OSSL_PARAM_set_octet_string(p, k->pub, KEY_BYTES))
            return 0;
        if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) != NULL &&
            !OSSL_PARAM_set_octet_string(p, k->pub, KEY_BYTES))
            return 0;
    }
    if (k->has_priv && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != NULL &&
        !OSSL_PARAM_set_octet_string(p, k->priv, KEY_BYTES))
        return 0;
    /* Ed25519 hashes the message itself: the empty mandatory digest tells EVP_DigestSignInit to name none */
    if (!x && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST)) != NULL &&
        !OSSL_PARAM_set_utf8_string(p, ""))
        return 0;
    return 1;
}

static const OSSL_PARAM x25519_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_END,
};
static const OSSL_PARAM ed25519_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *x25519_gettable_params(void *provctx) {
    (void)provctx;
    return x25519_gettable;
}

static const OSSL_PARAM *ed25519_gettable_params(void *provctx) {
    (void)provctx;
    return ed25519_gettable;
}

/* X25519 only: the peer's public key as TLS hands it over (the encoded key is the raw u-coordinate); it replaces
 * the whole key, a private part included. */
static int x25519_set_params(void *keydata, const OSSL_PARAM params[]) {
    ecopt_prov_key *k = keydata;
    if (k == NULL) return 0;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
    if (p == NULL) return 1;
    const uint8_t *pub;
    if (!param_key_bytes(k, p, &pub)) return 0;
    key_set_public(k, pub);
    return 1;
}

static const OSSL_PARAM x25519_settable[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *x25519_settable_params(void *provctx) {
    (void)provctx;
    return x25519_settable;
}

static int key_validate(const void *keydata, int selection, int checktype) {
    const ecopt_prov_key *k = keydata;
    (void)checktype;
    if (!key_has(keydata, selection)) return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && k->type == ECOPT_PROV_ED25519 &&
        ecopt_ed25519_publickey_check(k->pub) != ECOPT_OK) {
        ecopt_prov_err(k->provctx, ECOPT_PROV_R_KEY_INVALID, "not a canonical point of large order");
        return 0;
    }
    /* a private part's public key was computed from it (key_set_private): the pair is consistent by construction */
    return 1;
}

static void *key_dup(const void *keydata_from, int selection) {
    const ecopt_prov_key *from = keydata_from;
    if (from == NULL) return NULL;
    ecopt_prov_key *k = key_new((void *)from->provctx, from->type);
    if (k == NULL) return NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && from->has_priv) {
        memcpy(k->priv, from->priv, KEY_BYTES);
        k->sk = from->sk; /* the same bytes: the object is copied with memcpy (ecopt.h) */
        memcpy(k->pub, from->pub, KEY_BYTES);
        k->has_priv = k->has_pub = 1;
    } else if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && from->has_pub) {
        memcpy(k->pub, from->pub, KEY_BYTES);
        k->has_pub = 1;
    }
    return k;
}

/* ---- generation ---- */
typedef struct {
    ecopt_prov_ctx *provctx;
    int type, selection;
} gen_ctx;

static int gen_set_params(void *genctx, const OSSL_PARAM params[]) {
    gen_ctx *g = genctx;
    if (g == NULL) return 0;
    if (params == NULL) return 1;
    /* a group name is accepted when it names this very algorithm (OpenSSL's own key generation does the same) */
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);
    if (p != NULL) {
        const char *name = NULL;
        const char *want = g->type == ECOPT_PROV_X25519 ? "X25519" : "ED25519";
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || strcasecmp(name, want) != 0) {
            ecopt_prov_err(g->provctx, ECOPT_PROV_R_BAD_PARAM, "group name is not %s", want);
            return 0;
        }
    }
    return 1;
}

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *gen_settable_params(void *genctx, void *provctx) {
    (void)genctx;
    (void)provctx;
    return gen_settable;
}

static void *gen_init(void *provctx, int selection, const OSSL_PARAM params[], int type) {
    gen_ctx *g = OPENSSL_zalloc(sizeof *g);
    if (g == NULL) {
        ecopt_prov_err(provctx, ECOPT_PROV_R_NOMEM, NULL);
        return NULL;
    }
    g->provctx = provctx;
    g->type = type;
    g->selection = selection;
    if (!gen_set_params(g, params)) {
        OPENSSL_free(g);
        return NULL;
    }
    return g;
}

static void *x25519_gen_init(void *provctx, int selection, const OSSL_PARAM params[]) {
    return gen_init(provctx, selection, params, ECOPT_PROV_X25519);
}

static void *ed25519_gen_init(void *provctx, int selection, const OSSL_PARAM params[]) {
    return gen_init(provctx, selection, params, ECOPT_PROV_ED25519);
}

static void *key_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg) {
    gen_ctx *g = genctx;
    (void)cb;
    (void)cbarg;
    if (g == NULL) return NULL;
    ecopt_prov_key *k = key_new(g->provctx, g->type);
    if (k == NULL) return NULL;
    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return k; /* nothing asked but the (empty) object */
    int rc = g->type == ECOPT_PROV_X25519 ? ecopt_x25519_keygen(k->priv, k->pub)
                                          : ecopt_ed25519_keygen(k->priv, &k->sk, k->pub);
    if (rc != ECOPT_OK) {
        ecopt_prov_err(g->provctx, ECOPT_PROV_R_LIBRARY, "key generation: %s", ecopt_strerror(rc));
        key_free(k);
        return NULL;
    }
    k->has_priv = k->has_pub = 1;
    return k;
}

static void gen_cleanup(void *genctx) {
    OPENSSL_free(genctx);
}

#define FN(f) ((void (*)(void))(f))
const OSSL_DISPATCH ecopt_prov_x25519_keymgmt[] = {
    {OSSL_FUNC_KEYMGMT_NEW, FN(x25519_new)},
    {OSSL_FUNC_KEYMGMT_FREE, FN(key_free)},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, FN(x25519_gen_init)},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, FN(gen_set_params)},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, FN(gen_settable_params)},
    {OSSL_FUNC_KEYMGMT_GEN, FN(key_gen)},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, FN(gen_cleanup)},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, FN(key_get_params)},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, FN(x25519_gettable_params)},
    {OSSL_FUNC_KEYMGMT_SET_PARAMS, FN(x25519_set_params)},
    {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, FN(x25519_settable_params)},
    {OSSL_FUNC_KEYMGMT_HAS, FN(key_has)},
    {OSSL_FUNC_KEYMGMT_MATCH, FN(key_match)},
    {OSSL_FUNC_KEYMGMT_VALIDATE, FN(key_validate)},
    {OSSL_FUNC_KEYMGMT_IMPORT, FN(key_import)},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, FN(key_imexport_types)},
    {OSSL_FUNC_KEYMGMT_EXPORT, FN(key_export)},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, FN(key_imexport_types)},
    {OSSL_FUNC_KEYMGMT_DUP, FN(key_dup)},
    {0, NULL},
};

const OSSL_DISPATCH ecopt_prov_ed25519_keymgmt[] = {
    {OSSL_FUNC_KEYMGMT_NEW, FN(ed25519_new)},
    {OSSL_FUNC_KEYMGMT_FREE, FN(key_free)},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, FN(ed25519_gen_init)},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, FN(gen_set_params)},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, FN(gen_settable_params)},
    {OSSL_FUNC_KEYMGMT_GEN, FN(key_gen)},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, FN(gen_cleanup)},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, FN(key_get_params)},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, FN(ed25519_gettable_params)},
    {OSSL_FUNC_KEYMGMT_HAS, FN(key_has)},
    {OSSL_FUNC_KEYMGMT_MATCH, FN(key_match)},
    {OSSL_FUNC_KEYMGMT_VALIDATE, FN(key_validate)},
    {OSSL_FUNC_KEYMGMT_IMPORT, FN(key_import)},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, FN(key_imexport_types)},
    {OSSL_FUNC_KEYMGMT_EXPORT, FN(key_export)},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, FN(key_imexport_types)},
    {OSSL_FUNC_KEYMGMT_DUP, FN(key_dup)},
    {0, NULL},
};
