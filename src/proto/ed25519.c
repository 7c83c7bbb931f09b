/* ed25519.c — Ed25519, Ed25519ctx and Ed25519ph (RFC 8032 section 5.1): the hashing and scalar steps, compiled
 * once; the point arithmetic is the chosen backend's (backend.h), fetched once per call. */
#include <string.h>

#include "backend.h"
#include "ct.h"
#include "curve/scalar.h"
#include "ecopt/ecopt.h"
#include "proto/ed25519_internal.h"
#include "proto/sha512.h"
#include "rng.h"

/* Layout of ecopt_ed25519_secretkey.opaque: the seed, A = [s]B, and a check value binding the two, so that an
 * object whose A (or anything else) was changed is refused instead of signed with. s and the nonce prefix are not
 * stored: each signature derives them from the seed again (RFC 8032 section 5.1.5), so there is nothing in the
 * object besides the seed for A to disagree with. */
enum { SK_SEED = 0, SK_A = 32, SK_CHECK = 64, SK_CHECKBYTES = 64 };

/* check = SHA-512(tag || seed || A): one compression block (33 + 64 bytes). Keyed by the secret seed, so whoever
 * changes A cannot compute the matching check value without knowing the seed, and with the seed they need no
 * attack. The tag separates this hash from every other SHA-512 of the seed (RFC 8032's expansion hashes the
 * seed alone). */
static int sk_check_value(uint8_t check[64], const uint8_t seed[32], const uint8_t a[32]) {
    static const char tag[33] = "ecopt Ed25519 secret key check v1"; /* 33 bytes, no NUL */
    ecopt_bytes parts[3] = {{(const uint8_t *)tag, sizeof tag}, {seed, 32}, {a, 32}};
    return ecopt_sha512(check, parts, 3);
}

/* Expand the seed (RFC 8032 section 5.1.5): s = clamp(h[0..31]) and prefix = h[32..63], h = SHA-512(seed). */
static int sk_expand(uint8_t s[32], uint8_t prefix[32], const uint8_t seed[32]) {
    uint8_t h[64];
    int rc = ecopt_sha512(h, &(ecopt_bytes){seed, 32}, 1);
    ecopt_scalar_clamp(s, h);
    memcpy(prefix, h + 32, 32);
    ecopt_memzero_explicit(h, sizeof h);
    return rc;
}


size_t ecopt_ed25519_seedbytes(void) {
    return ECOPT_ED25519_SEEDBYTES;
}
size_t ecopt_ed25519_publickeybytes(void) {
    return ECOPT_ED25519_PUBLICKEYBYTES;
}
size_t ecopt_ed25519_signaturebytes(void) {
    return ECOPT_ED25519_SIGNATUREBYTES;
}

/* The public functions that take secrets run their work in a function that is not inlined into them, then
 * ecopt_stack_scrub (ct.h), which zeroes the stack that work used. */
int ecopt_ed25519_keypair_from_seed(ecopt_ed25519_secretkey *sk, uint8_t pub[32], const uint8_t seed[32]) {
    int rc = ecopt_ed25519_keypair_from_seed_be(ecopt_backend_get(), sk, pub, seed);
    ecopt_stack_scrub();
    return rc;
}

__attribute__((noinline)) int ecopt_ed25519_keypair_from_seed_be(const ecopt_backend *be, ecopt_ed25519_secretkey *sk,
                                                               uint8_t pub[32], const uint8_t seed[32]) {
    uint8_t s[32], prefix[32], seed_copy[32], a[32], check[64];
    int rc = ECOPT_ERR_UNSUPPORTED;
    memcpy(seed_copy, seed, 32); /* seed may lie inside *sk */
    if (be != NULL) rc = sk_expand(s, prefix, seed_copy);
    if (rc == ECOPT_OK) {
        be->ed25519_scalarmult_base(a, s); /* A = [s]B */
        rc = sk_check_value(check, seed_copy, a);
    }
    if (rc != ECOPT_OK) {
        ecopt_memzero_explicit(sk, sizeof *sk);
        if (pub) memset(pub, 0, 32);
    } else {
        memcpy(sk->opaque + SK_SEED, seed_copy, 32);
        memcpy(sk->opaque + SK_A, a, 32);
        memcpy(sk->opaque + SK_CHECK, check, SK_CHECKBYTES);
        if (pub) memcpy(pub, a, 32);
    }
    ecopt_memzero_explicit(s, sizeof s);
    ecopt_memzero_explicit(prefix, sizeof prefix);
    ecopt_memzero_explicit(seed_copy, sizeof seed_copy);
    ecopt_memzero_explicit(check, sizeof check);
    return rc;
}

__attribute__((noinline)) static int keygen(uint8_t seed[32], ecopt_ed25519_secretkey *sk, uint8_t pub[32]) {
    uint8_t s[32];
    int rc = ecopt_random_bytes(s, sizeof s);
    if (rc == ECOPT_OK) rc = ecopt_ed25519_keypair_from_seed_be(ecopt_backend_get(), sk, pub, s);
    if (rc != ECOPT_OK) {
        ecopt_memzero_explicit(sk, sizeof *sk);
        if (pub) memset(pub, 0, 32);
    }
    if (seed) {
        if (rc == ECOPT_OK) memcpy(seed, s, 32);
        else memset(seed, 0, 32);
    }
    ecopt_memzero_explicit(s, sizeof s);
    return rc;
}

int ecopt_ed25519_keygen(uint8_t seed[32], ecopt_ed25519_secretkey *sk, uint8_t pub[32]) {
    int rc = keygen(seed, sk, pub);
    ecopt_stack_scrub();
    return rc;
}

void ecopt_ed25519_secretkey_public(uint8_t pub[32], const ecopt_ed25519_secretkey *sk) {
    memcpy(pub, sk->opaque + SK_A, 32);
}

void ecopt_ed25519_secretkey_seed(uint8_t seed[32], const ecopt_ed25519_secretkey *sk) {
    memcpy(seed, sk->opaque + SK_SEED, 32);
}

void ecopt_ed25519_secretkey_wipe(ecopt_ed25519_secretkey *sk) {
    ecopt_memzero_explicit(sk, sizeof *sk);
}

/* The message as it enters the hashes: M itself, or PH(M) = SHA-512(M) for Ed25519ph. dom holds dom2(F, C). */
typedef struct {
    uint8_t dom[32 + 2 + 255];
    size_t domlen;
    uint8_t ph[64];
    ecopt_bytes m;
} ed_input;

static int ed_input_init(ed_input *in, ed_variant v, const uint8_t *msg, size_t msglen, const uint8_t *ctx,
                         size_t ctxlen) {
    static const char dom2_tag[32] = "SigEd25519 no Ed25519 collisions"; /* RFC 8032 section 2, no NUL */
    int ph = v == ED_PH || v == ED_PH_DIGEST;
    in->domlen = 0;
    if (v == ED_CTX && (ctxlen == 0 || ctxlen > 255)) return ECOPT_ERR_LENGTH;
    if (ph && ctxlen > 255) return ECOPT_ERR_LENGTH;
    if (v == ED_PH_DIGEST && msglen != 64) return ECOPT_ERR_LENGTH;
    if (v != ED_PURE) {
        memcpy(in->dom, dom2_tag, 32);
        in->dom[32] = (uint8_t)ph; /* F: 0 for Ed25519ctx, 1 for Ed25519ph */
        in->dom[33] = (uint8_t)ctxlen;
        if (ctxlen) memcpy(in->dom + 34, ctx, ctxlen);
        in->domlen = 34 + ctxlen;
    }
    if (v == ED_PH) {
        int rc = ecopt_sha512(in->ph, &(ecopt_bytes){msg, msglen}, 1);
        if (rc != ECOPT_OK) return rc;
        in->m = (ecopt_bytes){in->ph, 64};
    } else if (v == ED_PH_DIGEST) {
        memcpy(in->ph, msg, 64);
        in->m = (ecopt_bytes){in->ph, 64};
    } else {
        in->m = (ecopt_bytes){msg, msglen};
    }
    return ECOPT_OK;
}

/* k = SHA-512(dom2 || R || A || M) mod l (RFC 8032 section 5.1.6 step 4, 5.1.7 step 2). */
static int challenge(uint8_t k[32], const ed_input *in, const uint8_t r[32], const uint8_t a[32]) {
    uint8_t h[64];
    ecopt_bytes parts[4] = {{in->dom, in->domlen}, {r, 32}, {a, 32}, in->m};
    int rc = ecopt_sha512(h, parts, 4);
    if (rc == ECOPT_OK) ecopt_scalar_reduce64(k, h);
    return rc;
}

/* Expands sk into s and prefix after checking it: ECOPT_ERR_KEY unless its check value is the one
 * keypair_from_seed stored for its seed and A. The comparison reads all 64 bytes; only its verdict is branched on
 * (declassified for the constant-time tests: refusing a damaged object is public by contract). */
static int sk_open(uint8_t s[32], uint8_t prefix[32], const ecopt_ed25519_secretkey *sk) {
    uint8_t check[64];
    int rc = sk_check_value(check, sk->opaque + SK_SEED, sk->opaque + SK_A);
    if (rc == ECOPT_OK) {
        uint64_t ok = ecopt_ct_bytes_eq(check, sk->opaque + SK_CHECK, SK_CHECKBYTES);
        ecopt_ct_declassify(&ok, sizeof ok);
        if (!ok) rc = ECOPT_ERR_KEY;
    }
    ecopt_memzero_explicit(check, sizeof check);
    if (rc == ECOPT_OK) rc = sk_expand(s, prefix, sk->opaque + SK_SEED);
    return rc;
}

__attribute__((noinline)) int ecopt_ed25519_sign_be(const ecopt_backend *be, uint8_t sig[64], ed_variant v,
                                                     const uint8_t *msg, size_t msglen, const uint8_t *ctx,
                                                     size_t ctxlen, const ecopt_ed25519_secretkey *sk) {
    ed_input in;
    uint8_t h[64], r[32], rr[32], k[32], s[32], prefix[32];
    int rc = be ? ed_input_init(&in, v, msg, msglen, ctx, ctxlen) : ECOPT_ERR_UNSUPPORTED;
    if (rc == ECOPT_OK) rc = sk_open(s, prefix, sk);
    if (rc == ECOPT_OK) {
        /* RFC 8032 section 5.1.6: r = SHA-512(dom2 || prefix || M) mod l; R = [r]B. */
        ecopt_bytes parts[3] = {{in.dom, in.domlen}, {prefix, 32}, in.m};
        rc = ecopt_sha512(h, parts, 3);
    }
    if (rc == ECOPT_OK) {
        ecopt_scalar_reduce64(r, h);
        be->ed25519_scalarmult_base(rr, r);
        rc = challenge(k, &in, rr, sk->opaque + SK_A);
    }
    if (rc == ECOPT_OK) {
        uint8_t sum[32];
        ecopt_scalar_muladd(sum, k, s, r); /* S = (r + k s) mod l */
        memcpy(sig, rr, 32);
        memcpy(sig + 32, sum, 32);
        ecopt_memzero_explicit(sum, sizeof sum);
    } else {
        memset(sig, 0, 64);
    }
    ecopt_memzero_explicit(h, sizeof h);
    ecopt_memzero_explicit(r, sizeof r);
    ecopt_memzero_explicit(s, sizeof s);
    ecopt_memzero_explicit(prefix, sizeof prefix);
    ecopt_memzero_explicit(&in, sizeof in);
    return rc;
}

int ecopt_ed25519_sign(uint8_t sig[64], const uint8_t *msg, size_t msglen, const ecopt_ed25519_secretkey *sk) {
    int rc = ecopt_ed25519_sign_be(ecopt_backend_get(), sig, ED_PURE, msg, msglen, NULL, 0, sk);
    ecopt_stack_scrub();
    return rc;
}

int ecopt_ed25519ctx_sign(uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t *ctx, size_t ctxlen,
                          const ecopt_ed25519_secretkey *sk) {
    int rc = ecopt_ed25519_sign_be(ecopt_backend_get(), sig, ED_CTX, msg, msglen, ctx, ctxlen, sk);
    ecopt_stack_scrub();
    return rc;
}

int ecopt_ed25519ph_sign(uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t *ctx, size_t ctxlen,
                         const ecopt_ed25519_secretkey *sk) {
    int rc = ecopt_ed25519_sign_be(ecopt_backend_get(), sig, ED_PH, msg, msglen, ctx, ctxlen, sk);
    ecopt_stack_scrub();
    return rc;
}

int ecopt_ed25519ph_sign_prehashed(uint8_t sig[64], const uint8_t digest[64], const uint8_t *ctx, size_t ctxlen,
                                   const ecopt_ed25519_secretkey *sk) {
    int rc = ecopt_ed25519_sign_be(ecopt_backend_get(), sig, ED_PH_DIGEST, digest, 64, ctx, ctxlen, sk);
    ecopt_stack_scrub();
    return rc;
}

size_t ecopt_ed25519ph_digestbytes(void) {
    return ECOPT_ED25519PH_DIGESTBYTES;
}

int ecopt_ed25519_verify_be(const ecopt_backend *be, const uint8_t sig[64], ed_variant v, const uint8_t *msg,
                            size_t msglen, const uint8_t *ctx, size_t ctxlen, const uint8_t pub[32],
                            ecopt_verify_policy policy) {
    ed_input in;
    uint8_t k[32];
    if (be == NULL) return ECOPT_ERR_UNSUPPORTED;
    int rc = ed_input_init(&in, v, msg, msglen, ctx, ctxlen);
    if (rc == ECOPT_OK) rc = challenge(k, &in, sig, pub);
    if (rc == ECOPT_OK) rc = be->ed25519_verify_vartime(sig, pub, k, policy);
    return rc;
}

int ecopt_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t pub[32]) {
    return ecopt_ed25519_verify_be(ecopt_backend_get(), sig, ED_PURE, msg, msglen, NULL, 0, pub, ECOPT_POLICY_STRICT);
}

int ecopt_ed25519ctx_verify(const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t *ctx,
                            size_t ctxlen, const uint8_t pub[32]) {
    return ecopt_ed25519_verify_be(ecopt_backend_get(), sig, ED_CTX, msg, msglen, ctx, ctxlen, pub, ECOPT_POLICY_STRICT);
}

int ecopt_ed25519ph_verify(const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t *ctx,
                           size_t ctxlen, const uint8_t pub[32]) {
    return ecopt_ed25519_verify_be(ecopt_backend_get(), sig, ED_PH, msg, msglen, ctx, ctxlen, pub, ECOPT_POLICY_STRICT);
}

int ecopt_ed25519ph_verify_prehashed(const uint8_t sig[64], const uint8_t digest[64], const uint8_t *ctx,
                                     size_t ctxlen, const uint8_t pub[32]) {
    return ecopt_ed25519_verify_be(ecopt_backend_get(), sig, ED_PH_DIGEST, digest, 64, ctx, ctxlen, pub,
                                   ECOPT_POLICY_STRICT);
}

int ecopt_ed25519_verify_zip215(const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t pub[32]) {
    return ecopt_ed25519_verify_be(ecopt_backend_get(), sig, ED_PURE, msg, msglen, NULL, 0, pub, ECOPT_POLICY_ZIP215);
}

int ecopt_ed25519_publickey_check(const uint8_t pub[32]) {
    const ecopt_backend *be = ecopt_backend_get();
    return be ? be->ed25519_publickey_check_vartime(pub) : ECOPT_ERR_UNSUPPORTED;
}
