/* provider.c — the entry point of the OpenSSL 3 provider module ecopt.so: OSSL_provider_init, the provider's
 * parameters, its algorithm tables and its errors (prov.h says what the module offers). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "prov.h"

/* The core's error functions, from OSSL_provider_init's dispatch table; the same in every library context the
 * module is loaded into (one libcrypto per process). */
static OSSL_FUNC_core_new_error_fn *c_new_error;
static OSSL_FUNC_core_set_error_debug_fn *c_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *c_vset_error;

void ecopt_prov_err_at(const ecopt_prov_ctx *provctx, const char *file, int line, const char *func, uint32_t reason,
                       const char *fmt, ...) {
    if (provctx == NULL || c_new_error == NULL || c_vset_error == NULL) return;
    va_list ap;
    va_start(ap, fmt);
    c_new_error(provctx->handle);
    if (c_set_error_debug != NULL) c_set_error_debug(provctx->handle, file, line, func);
    c_vset_error(provctx->handle, reason, fmt, ap);
    va_end(ap);
}

static const OSSL_ITEM reason_strings[] = {
    {ECOPT_PROV_R_KEY_LENGTH, "wrong raw key length (X25519 and Ed25519 keys are 32 bytes)"},
    {ECOPT_PROV_R_MISSING_KEY, "the key lacks the part this operation needs"},
    {ECOPT_PROV_R_KEY_MISMATCH, "the public key does not belong to the private key"},
    {ECOPT_PROV_R_ALL_ZERO_SECRET, "X25519 shared secret is all zero (small-order peer key, RFC 7748 section 6.1)"},
    {ECOPT_PROV_R_DIGEST, "Ed25519 takes no digest (use a NULL or empty digest name)"},
    {ECOPT_PROV_R_BUFFER_SMALL, "output buffer too small"},
    {ECOPT_PROV_R_BAD_PARAM, "bad parameter"},
    {ECOPT_PROV_R_LIBRARY, "libecopt failed"},
    {ECOPT_PROV_R_NOMEM, "out of memory"},
    {ECOPT_PROV_R_KEY_INVALID, "invalid public key"},
    {0, NULL},
};

static const OSSL_ITEM *prov_reason_strings(void *provctx) {
    (void)provctx;
    return reason_strings;
}

static const OSSL_PARAM prov_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *prov_gettable_params(void *provctx) {
    (void)provctx;
    return prov_param_types;
}

static int prov_get_params(void *provctx, OSSL_PARAM params[]) {
    OSSL_PARAM *p;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, "ecopt provider (X25519, Ed25519)")) return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, ecopt_version())) return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, ((ecopt_prov_ctx *)provctx)->buildinfo)) return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
    if (p != NULL && !OSSL_PARAM_set_int(p, 1)) return 0;
    return 1;
}

/* The names are OpenSSL's own with their OIDs, so that a key of either provider finds the other's key
 * management under the same name (exports between providers go by name). */
#define PROPS "provider=ecopt"
static const OSSL_ALGORITHM keymgmt_algs[] = {
    {"X25519:1.3.101.110", PROPS, ecopt_prov_x25519_keymgmt, "X25519 keys (ecopt)"},
    {"ED25519:1.3.101.112", PROPS, ecopt_prov_ed25519_keymgmt, "Ed25519 keys (ecopt)"},
    {NULL, NULL, NULL, NULL},
};
static const OSSL_ALGORITHM keyexch_algs[] = {
    {"X25519:1.3.101.110", PROPS, ecopt_prov_x25519_keyexch, "X25519 key exchange, RFC 7748 (ecopt)"},
    {NULL, NULL, NULL, NULL},
};
static const OSSL_ALGORITHM signature_algs[] = {
    {"ED25519:1.3.101.112", PROPS, ecopt_prov_ed25519_signature, "Ed25519 signatures, RFC 8032 (ecopt)"},
    {NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM *prov_query(void *provctx, int operation_id, int *no_cache) {
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_KEYMGMT:
        return keymgmt_algs;
    case OSSL_OP_KEYEXCH:
        return keyexch_algs;
    case OSSL_OP_SIGNATURE:
        return signature_algs;
    default:
        return NULL;
    }
}

static void prov_teardown(void *provctx) {
    OPENSSL_free(provctx);
}

static const OSSL_DISPATCH prov_dispatch[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))prov_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))prov_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))prov_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))prov_query},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))prov_reason_strings},
    {0, NULL},
};

/* The one exported symbol of the module (the rest is compiled with hidden visibility). */
__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                                                              const OSSL_DISPATCH **out, void **provctx) {
    for (; in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
            c_new_error = OSSL_FUNC_core_new_error(in);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            c_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            c_vset_error = OSSL_FUNC_core_vset_error(in);
            break;
        default:
            break;
        }
    }
    ecopt_prov_ctx *ctx = OPENSSL_zalloc(sizeof *ctx);
    if (ctx == NULL) return 0;
    ctx->handle = handle;
    /* the backend choice, made now rather than inside the first operation */
    if (ecopt_backend_init() != ECOPT_OK) {
        OPENSSL_free(ctx);
        return 0;
    }
    snprintf(ctx->buildinfo, sizeof ctx->buildinfo, "libecopt %s, backend %s (of %s)", ecopt_version(),
             ecopt_backend_name(), ecopt_backend_list());
    *provctx = ctx;
    *out = prov_dispatch;
    return 1;
}
