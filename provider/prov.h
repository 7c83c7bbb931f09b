/* prov.h — the OpenSSL 3 provider module ecopt.so (provider/): what its four files share.
 *
 * The module offers X25519 and Ed25519 through OpenSSL's provider interface (<openssl/core_dispatch.h>), over
 * libecopt's public API (include/ecopt/ecopt.h) alone: keymgmt.c holds the key objects, exchange.c X25519 derive,
 * signature.c Ed25519 one-shot sign and verify, provider.c the entry point, the algorithm tables and the errors.
 * Every algorithm carries the property "provider=ecopt". docs/provider.md is the user's guide. */
#ifndef ECOPT_PROVIDER_PROV_H
#define ECOPT_PROVIDER_PROV_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include <ecopt/ecopt.h>

/* The provider context: one per loading of the module into a library context. */
typedef struct ecopt_prov_ctx {
    const OSSL_CORE_HANDLE *handle; /* the core's handle, for the error upcalls */
    char buildinfo[160];            /* OSSL_PROV_PARAM_BUILDINFO: libecopt's version and backend */
} ecopt_prov_ctx;

/* Reason codes of the errors the module raises; provider.c gives each its text (OSSL_FUNC_PROVIDER_GET_REASON_STRINGS). */
enum {
    ECOPT_PROV_R_KEY_LENGTH = 1,  /* a raw key of another length than 32 bytes */
    ECOPT_PROV_R_MISSING_KEY,     /* an operation without the key part it needs */
    ECOPT_PROV_R_KEY_MISMATCH,    /* a public key that is not the private key's */
    ECOPT_PROV_R_ALL_ZERO_SECRET, /* X25519 gave the all-zero output (RFC 7748 section 6.1) */
    ECOPT_PROV_R_DIGEST,          /* a digest named for Ed25519, which hashes the message itself */
    ECOPT_PROV_R_BUFFER_SMALL,    /* an output buffer shorter than the result */
    ECOPT_PROV_R_BAD_PARAM,       /* a parameter of the wrong type, or a group name not this algorithm's */
    ECOPT_PROV_R_LIBRARY,         /* libecopt failed (ecopt_strerror says why: RNG, memory) */
    ECOPT_PROV_R_NOMEM,           /* an allocation failed */
    ECOPT_PROV_R_KEY_INVALID      /* an Ed25519 public key that is not a valid point (validation) */
};

/* ecopt_prov_err — raise an OpenSSL error with one of the reasons above through the core's upcalls (so that
 * ERR_print_errors shows it under the provider's name, with the calling function, file and line); fmt adds detail,
 * or is NULL. provctx may be NULL (nothing is raised: no core initialised the module). */
void ecopt_prov_err_at(const ecopt_prov_ctx *provctx, const char *file, int line, const char *func, uint32_t reason,
                       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define ecopt_prov_err(provctx, reason, ...) \
    ecopt_prov_err_at((provctx), __FILE__, __LINE__, __func__, (reason), __VA_ARGS__)

/* The key object of both key types. */
#define ECOPT_PROV_X25519 1
#define ECOPT_PROV_ED25519 2
typedef struct ecopt_prov_key {
    const ecopt_prov_ctx *provctx;
    int type;                      /* ECOPT_PROV_X25519 or ECOPT_PROV_ED25519 */
    int has_pub, has_priv;         /* which parts are present (has_priv implies has_pub) */
    uint8_t pub[32];               /* X25519 u-coordinate, or Ed25519 A */
    uint8_t priv[32];              /* X25519 scalar as stored (unclamped), or Ed25519 seed */
    ecopt_ed25519_secretkey sk;    /* Ed25519: the expanded secret key, made from priv */
} ecopt_prov_key;

/* The dispatch tables of provider.c's algorithm lists. */
extern const OSSL_DISPATCH ecopt_prov_x25519_keymgmt[];
extern const OSSL_DISPATCH ecopt_prov_ed25519_keymgmt[];
extern const OSSL_DISPATCH ecopt_prov_x25519_keyexch[];
extern const OSSL_DISPATCH ecopt_prov_ed25519_signature[];

#endif /* ECOPT_PROVIDER_PROV_H */
