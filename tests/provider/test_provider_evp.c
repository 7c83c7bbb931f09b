/* test_provider_evp.c — the ecopt provider (provider/, ecopt.so) through OpenSSL's EVP interface, in a library
 * context that loads it beside OpenSSL's default provider:
 *   vectors   RFC 8032 section 7.1 (Ed25519) and RFC 7748 sections 5.2 and 6.1 (X25519) from ../shared/vectors,
 *             every operation fetched with "provider=ecopt" and checked to have run there (EVP_PKEY_get0_provider,
 *             EVP_PKEY_CTX_get0_provider);
 *   interop   keys made by either provider used by the other, signatures made by one verified by the other, shared
 *             secrets equal both ways, EVP_PKEY_eq across providers;
 *   negative  wrong-length raw keys, a public key that is not the private key's, all-zero X25519 peers, a digest
 *             named for Ed25519, a public key used to sign, bad signatures: each refused (with an OpenSSL error
 *             where one is due), never a crash.
 * Usage: test_provider_evp MODULE_DIR [vectors|interop|negative] (all three without a name). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "testutil.h"

#define ECOPT "provider=ecopt"
#define DEFLT "provider=default"

static OSSL_LIB_CTX *lctx;

static const char *pkey_prov(const EVP_PKEY *k) {
    const OSSL_PROVIDER *p = k ? EVP_PKEY_get0_provider(k) : NULL;
    return p ? OSSL_PROVIDER_get0_name(p) : "(none)";
}

static const char *ctx_prov(const EVP_PKEY_CTX *c) {
    const OSSL_PROVIDER *p = c ? EVP_PKEY_CTX_get0_provider(c) : NULL;
    return p ? OSSL_PROVIDER_get0_name(p) : "(none)";
}

/* The provider name a property query asks for. */
static const char *want_of(const char *propq) {
    return strcmp(propq, ECOPT) == 0 ? "ecopt" : "default";
}

static EVP_PKEY *raw_key(const char *alg, int priv, const uint8_t *b, size_t n, const char *propq) {
    EVP_PKEY *k = priv ? EVP_PKEY_new_raw_private_key_ex(lctx, alg, propq, b, n)
                       : EVP_PKEY_new_raw_public_key_ex(lctx, alg, propq, b, n);
    if (k != NULL && strcmp(pkey_prov(k), want_of(propq)) != 0) {
        tu_fail("%s key made with %s lives in provider %s", alg, propq, pkey_prov(k));
        EVP_PKEY_free(k);
        return NULL;
    }
    return k;
}

/* EVP_DigestSign with no digest, run by the provider propq names (checked). 1 on success. */
static int do_sign(EVP_PKEY *k, const char *propq, const uint8_t *m, size_t mlen, uint8_t sig[64]) {
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    size_t n = 64;
    int ok = md && EVP_DigestSignInit_ex(md, &pc, NULL, lctx, propq, k, NULL) == 1 &&
             EVP_DigestSign(md, sig, &n, m, mlen) == 1 && n == 64;
    if (ok && strcmp(ctx_prov(pc), want_of(propq)) != 0) {
        tu_fail("sign with %s ran in %s", propq, ctx_prov(pc));
        ok = 0;
    }
    EVP_MD_CTX_free(md);
    return ok;
}

/* EVP_DigestVerify's result (1 valid, 0 or below otherwise), run by the provider propq names; -99 when the
 * initialisation fails or ran elsewhere. */
static int do_verify(EVP_PKEY *k, const char *propq, const uint8_t *sig, size_t siglen, const uint8_t *m,
                     size_t mlen) {
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = NULL;
    int r = -99;
    if (md && EVP_DigestVerifyInit_ex(md, &pc, NULL, lctx, propq, k, NULL) == 1) {
        if (strcmp(ctx_prov(pc), want_of(propq)) != 0) tu_fail("verify with %s ran in %s", propq, ctx_prov(pc));
        else r = EVP_DigestVerify(md, sig, siglen, m, mlen);
    }
    EVP_MD_CTX_free(md);
    return r;
}

/* X25519 derive of own with peer, run by the provider propq names. 1 on success (32 bytes in out). */
static int do_derive(EVP_PKEY *own, EVP_PKEY *peer, const char *propq, uint8_t out[32]) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lctx, own, propq);
    size_t n = 32;
    int ok = c && EVP_PKEY_derive_init(c) == 1 && EVP_PKEY_derive_set_peer(c, peer) == 1 &&
             EVP_PKEY_derive(c, out, &n) == 1 && n == 32;
    if (ok && strcmp(ctx_prov(c), want_of(propq)) != 0) {
        tu_fail("derive with %s ran in %s", propq, ctx_prov(c));
        ok = 0;
    }
    EVP_PKEY_CTX_free(c);
    return ok;
}

static int raw_pub_of(EVP_PKEY *k, uint8_t out[32]) {
    size_t n = 32;
    return EVP_PKEY_get_raw_public_key(k, out, &n) == 1 && n == 32;
}

/* ---- vectors ---- */
static void test_ed25519_vectors(void) {
    cJSON *j = tu_load_json(tu_vector_path("rfc8032/rfc8032_ed25519.json"));
    cJSON *v;
    int n = 0;
    cJSON_ArrayForEach(v, cJSON_GetObjectItem(j, "vectors")) {
        if (strcmp(tu_json_str(v, "algorithm"), "Ed25519") != 0) continue;
        n++;
        uint8_t seed[32], pub[32], sig[64], got[64], gpub[32];
        tu_json_hex_fixed(seed, 32, v, "secret_key");
        tu_json_hex_fixed(pub, 32, v, "public_key");
        tu_json_hex_fixed(sig, 64, v, "signature");
        size_t mlen;
        uint8_t *m = tu_hex_alloc(tu_json_str(v, "message"), &mlen);
        const char *name = tu_json_str(v, "name");
        EVP_PKEY *k = raw_key("ED25519", 1, seed, 32, ECOPT);
        EVP_PKEY *kp = raw_key("ED25519", 0, pub, 32, ECOPT);
        EVP_PKEY *kd = raw_key("ED25519", 0, pub, 32, DEFLT);
        if (!k || !kp || !kd) {
            tu_fail("%s: key objects", name);
        } else {
            if (!raw_pub_of(k, gpub)) tu_fail("%s: no raw public key", name);
            else tu_expect_bytes(name, gpub, pub, 32);
            if (!do_sign(k, ECOPT, m, mlen, got)) tu_fail("%s: ecopt sign failed", name);
            else tu_expect_bytes(name, got, sig, 64);
            if (do_verify(kp, ECOPT, sig, 64, m, mlen) != 1) tu_fail("%s: ecopt rejects the RFC signature", name);
            if (do_verify(kd, DEFLT, got, 64, m, mlen) != 1) tu_fail("%s: default rejects ecopt's signature", name);
            /* a changed message or signature is refused */
            got[mlen % 64] ^= 1;
            if (do_verify(kp, ECOPT, got, 64, m, mlen) == 1) tu_fail("%s: ecopt accepts a changed signature", name);
        }
        EVP_PKEY_free(k);
        EVP_PKEY_free(kp);
        EVP_PKEY_free(kd);
        free(m);
    }
    if (n != 5) tu_fail("RFC 8032 section 7.1: %d Ed25519 vectors, not 5", n);
    cJSON_Delete(j);
}

static void test_x25519_vectors(void) {
    cJSON *j = tu_load_json(tu_vector_path("rfc7748/rfc7748_x25519.json"));
    cJSON *v;
    int n = 0;
    cJSON_ArrayForEach(v, cJSON_GetObjectItem(j, "scalar_multiplication")) {
        uint8_t k[32], u[32], want[32], got[32];
        tu_json_hex_fixed(k, 32, v, "scalar");
        tu_json_hex_fixed(u, 32, v, "u");
        tu_json_hex_fixed(want, 32, v, "output");
        EVP_PKEY *own = raw_key("X25519", 1, k, 32, ECOPT), *peer = raw_key("X25519", 0, u, 32, ECOPT);
        if (!own || !peer || !do_derive(own, peer, ECOPT, got)) tu_fail("RFC 7748 5.2 #%d: ecopt derive failed", n);
        else tu_expect_bytes("RFC 7748 section 5.2", got, want, 32);
        EVP_PKEY_free(own);
        EVP_PKEY_free(peer);
        n++;
    }
    if (n != 2) tu_fail("RFC 7748 section 5.2: %d vectors, not 2", n);
    cJSON *dh = cJSON_GetObjectItem(j, "diffie_hellman");
    uint8_t a[32], ap[32], b[32], bp[32], ss[32], got[32];
    tu_json_hex_fixed(a, 32, dh, "alice_private");
    tu_json_hex_fixed(ap, 32, dh, "alice_public");
    tu_json_hex_fixed(b, 32, dh, "bob_private");
    tu_json_hex_fixed(bp, 32, dh, "bob_public");
    tu_json_hex_fixed(ss, 32, dh, "shared_secret");
    EVP_PKEY *ka = raw_key("X25519", 1, a, 32, ECOPT), *kb = raw_key("X25519", 1, b, 32, ECOPT);
    if (!ka || !kb) {
        tu_fail("RFC 7748 6.1: key objects");
    } else {
        if (!raw_pub_of(ka, got)) tu_fail("RFC 7748 6.1: no public key");
        else tu_expect_bytes("RFC 7748 6.1 Alice's public key", got, ap, 32);
        if (!raw_pub_of(kb, got)) tu_fail("RFC 7748 6.1: no public key");
        else tu_expect_bytes("RFC 7748 6.1 Bob's public key", got, bp, 32);
        if (!do_derive(ka, kb, ECOPT, got)) tu_fail("RFC 7748 6.1: Alice's derive failed");
        else tu_expect_bytes("RFC 7748 6.1 K (Alice)", got, ss, 32);
        if (!do_derive(kb, ka, ECOPT, got)) tu_fail("RFC 7748 6.1: Bob's derive failed");
        else tu_expect_bytes("RFC 7748 6.1 K (Bob)", got, ss, 32);
    }
    EVP_PKEY_free(ka);
    EVP_PKEY_free(kb);
    cJSON_Delete(j);
}

/* ---- interop ---- */
static EVP_PKEY *gen(const char *alg, const char *propq) {
    EVP_PKEY *k = EVP_PKEY_Q_keygen(lctx, propq, alg);
    if (k == NULL) tu_fail("%s key generation with %s failed", alg, propq);
    else if (strcmp(pkey_prov(k), want_of(propq)) != 0) tu_fail("%s key from %s is in %s", alg, propq, pkey_prov(k));
    return k;
}

static void test_interop(void) {
    static const char *const pq[2] = {ECOPT, DEFLT};
    uint8_t msg[100];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 7 + 1);
    for (int round = 0; round < 8; round++) {
        for (int g = 0; g < 2; g++) { /* g: the provider that makes the keys */
            EVP_PKEY *ed = gen("ED25519", pq[g]);
            EVP_PKEY *x1 = gen("X25519", pq[g]), *x2 = gen("X25519", pq[1 - g]);
            if (!ed || !x1 || !x2) goto next;
            size_t mlen = (size_t)round * 13; /* 0 .. 91 bytes, the empty message included */
            uint8_t s[2][64], k[2][32];
            for (int u = 0; u < 2; u++) /* u: the provider that uses them */
                if (!do_sign(ed, pq[u], msg, mlen, s[u])) tu_fail("sign with %s of a %s key failed", pq[u], pq[g]);
            /* Ed25519 is deterministic: both providers give the same bytes, and each verifies the other's */
            tu_expect_bytes("signatures of the two providers", s[0], s[1], 64);
            for (int u = 0; u < 2; u++)
                for (int w = 0; w < 2; w++)
                    if (do_verify(ed, pq[u], s[w], 64, msg, mlen) != 1)
                        tu_fail("%s rejects %s's signature (key from %s)", pq[u], pq[w], pq[g]);
            /* shared secrets: each side with its own provider and with the other's */
            for (int u = 0; u < 2; u++) {
                if (!do_derive(x1, x2, pq[u], k[0]) || !do_derive(x2, x1, pq[1 - u], k[1]))
                    tu_fail("derive failed (keys from %s, first side in %s)", pq[g], pq[u]);
                else
                    tu_expect_bytes("X25519 shared secrets of both sides", k[0], k[1], 32);
            }
            /* a key matches its own public half made by the other provider */
            uint8_t pub[32];
            if (!raw_pub_of(ed, pub)) {
                tu_fail("no raw Ed25519 public key");
            } else {
                EVP_PKEY *p = raw_key("ED25519", 0, pub, 32, pq[1 - g]);
                if (!p || EVP_PKEY_eq(ed, p) != 1) tu_fail("EVP_PKEY_eq across providers is not 1");
                EVP_PKEY_free(p);
            }
        next:
            EVP_PKEY_free(ed);
            EVP_PKEY_free(x1);
            EVP_PKEY_free(x2);
        }
    }
    /* EVP_PKEY_get_params on an ecopt key */
    EVP_PKEY *ed = gen("ED25519", ECOPT), *x = gen("X25519", ECOPT);
    int bits = 0, sec = 0, max = 0;
    if (ed && (!EVP_PKEY_get_int_param(ed, OSSL_PKEY_PARAM_BITS, &bits) || bits != 256)) tu_fail("Ed25519 bits %d", bits);
    if (ed && (!EVP_PKEY_get_int_param(ed, OSSL_PKEY_PARAM_MAX_SIZE, &max) || max != 64)) tu_fail("Ed25519 max-size %d", max);
    if (x && (!EVP_PKEY_get_int_param(x, OSSL_PKEY_PARAM_BITS, &bits) || bits != 253)) tu_fail("X25519 bits %d", bits);
    if (x && (!EVP_PKEY_get_int_param(x, OSSL_PKEY_PARAM_SECURITY_BITS, &sec) || sec != 128))
        tu_fail("X25519 security-bits %d", sec);
    if (x && EVP_PKEY_get_size(x) != 32) tu_fail("X25519 EVP_PKEY_get_size %d", EVP_PKEY_get_size(x));
    uint8_t enc[64], pub[32];
    size_t el = 0;
    if (x && (!EVP_PKEY_get_octet_string_param(x, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, enc, sizeof enc, &el) ||
              el != 32 || !raw_pub_of(x, pub) || memcmp(enc, pub, 32) != 0))
        tu_fail("X25519 encoded public key is not the raw one");
    EVP_PKEY_free(ed);
    EVP_PKEY_free(x);
}

/* ---- negative ---- */
/* 1 when the error queue holds an error raised by the ecopt provider, the library of its code (and empties it). */
static int ecopt_error_raised(void) {
    int found = 0;
    unsigned long e;
    while ((e = ERR_get_error()) != 0) {
        const char *lib = ERR_lib_error_string(e);
        if (lib && strcmp(lib, "ecopt") == 0) found = 1;
    }
    return found;
}

static void test_negative(void) {
    uint8_t b[64] = {0}, out[32];
    for (int i = 0; i < 64; i++) b[i] = (uint8_t)(i + 1);
    static const size_t lens[] = {0, 1, 31, 33, 64};
    static const char *const algs[] = {"X25519", "ED25519"};
    for (size_t a = 0; a < 2; a++)
        for (size_t l = 0; l < TU_ARRAY_LEN(lens); l++)
            for (int priv = 0; priv < 2; priv++) {
                ERR_clear_error();
                EVP_PKEY *k = EVP_PKEY_new_raw_private_key_ex(lctx, algs[a], ECOPT, b, lens[l]);
                if (!priv) {
                    EVP_PKEY_free(k);
                    k = EVP_PKEY_new_raw_public_key_ex(lctx, algs[a], ECOPT, b, lens[l]);
                }
                if (k != NULL) tu_fail("%s: a %zu-byte raw %s key accepted", algs[a], lens[l], priv ? "private" : "public");
                else if (lens[l] != 0 && !ecopt_error_raised())
                    tu_fail("%s: a %zu-byte raw key refused without an ecopt error", algs[a], lens[l]);
                EVP_PKEY_free(k);
                ERR_clear_error();
            }
    /* a public key given beside a private key it does not belong to */
    for (size_t a = 0; a < 2; a++) {
        OSSL_PARAM p[3];
        p[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, b, 32);
        p[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, b + 32, 32);
        p[2] = OSSL_PARAM_construct_end();
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lctx, algs[a], ECOPT);
        EVP_PKEY *k = NULL;
        if (!c || EVP_PKEY_fromdata_init(c) != 1) tu_fail("%s: fromdata init", algs[a]);
        else if (EVP_PKEY_fromdata(c, &k, EVP_PKEY_KEYPAIR, p) == 1) tu_fail("%s: a mismatched key pair accepted", algs[a]);
        else if (!ecopt_error_raised()) tu_fail("%s: a mismatched pair refused without an ecopt error", algs[a]);
        EVP_PKEY_free(k);
        EVP_PKEY_CTX_free(c);
        /* neither part given */
        k = NULL;
        c = EVP_PKEY_CTX_new_from_name(lctx, algs[a], ECOPT);
        p[0] = OSSL_PARAM_construct_end();
        if (c && EVP_PKEY_fromdata_init(c) == 1 && EVP_PKEY_fromdata(c, &k, EVP_PKEY_KEYPAIR, p) == 1)
            tu_fail("%s: a key with no part accepted", algs[a]);
        EVP_PKEY_free(k);
        EVP_PKEY_CTX_free(c);
        ERR_clear_error();
    }
    /* X25519 peers whose shared secret is all zero: u = 0, u = 1, and a point of order 8 (RFC 7748 section 6.1) */
    static const char *const low[] = {
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    };
    EVP_PKEY *own = raw_key("X25519", 1, b, 32, ECOPT);
    for (size_t i = 0; i < TU_ARRAY_LEN(low); i++) {
        uint8_t u[32];
        tu_hex_decode(u, 32, low[i]);
        EVP_PKEY *peer = raw_key("X25519", 0, u, 32, ECOPT);
        memset(out, 0xa5, sizeof out);
        ERR_clear_error();
        if (!own || !peer) tu_fail("low-order peer %zu: key objects", i);
        else if (do_derive(own, peer, ECOPT, out)) tu_fail("low-order peer %zu: derive succeeded", i);
        else if (!ecopt_error_raised()) tu_fail("low-order peer %zu: refused without an ecopt error", i);
        /* the default provider, fed the same peer, refuses it too (the two agree) */
        EVP_PKEY *peer_d = raw_key("X25519", 0, u, 32, DEFLT);
        if (own && peer_d && do_derive(own, peer_d, DEFLT, out)) tu_fail("low-order peer %zu: default derived", i);
        ERR_clear_error();
        EVP_PKEY_free(peer);
        EVP_PKEY_free(peer_d);
    }
    /* derive without a peer; a public key as own key */
    EVP_PKEY_CTX *c = own ? EVP_PKEY_CTX_new_from_pkey(lctx, own, ECOPT) : NULL;
    size_t n = 32;
    if (c && EVP_PKEY_derive_init(c) == 1 && EVP_PKEY_derive(c, out, &n) == 1) tu_fail("derive without a peer succeeded");
    EVP_PKEY_CTX_free(c);
    EVP_PKEY *xpub = raw_key("X25519", 0, b, 32, ECOPT);
    c = xpub ? EVP_PKEY_CTX_new_from_pkey(lctx, xpub, ECOPT) : NULL;
    if (c && EVP_PKEY_derive_init(c) == 1) tu_fail("derive_init with a public key succeeded");
    EVP_PKEY_CTX_free(c);
    EVP_PKEY_free(xpub);
    EVP_PKEY_free(own);
    ERR_clear_error();

    /* Ed25519: a digest named, signing with a public key, a short signature buffer, bad signatures */
    EVP_PKEY *ed = raw_key("ED25519", 1, b, 32, ECOPT);
    uint8_t pub[32], sig[64];
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (!ed || !md || !raw_pub_of(ed, pub)) {
        tu_fail("Ed25519 key object");
    } else {
        if (EVP_DigestSignInit_ex(md, NULL, "SHA256", lctx, ECOPT, ed, NULL) == 1)
            tu_fail("Ed25519 accepted a digest name");
        EVP_MD_CTX_reset(md);
        EVP_PKEY *edpub = raw_key("ED25519", 0, pub, 32, ECOPT);
        if (edpub && EVP_DigestSignInit_ex(md, NULL, NULL, lctx, ECOPT, edpub, NULL) == 1)
            tu_fail("Ed25519 sign init with a public key succeeded");
        EVP_MD_CTX_reset(md);
        size_t sl = 63;
        if (EVP_DigestSignInit_ex(md, NULL, NULL, lctx, ECOPT, ed, NULL) != 1) tu_fail("Ed25519 sign init");
        else if (EVP_DigestSign(md, sig, &sl, b, 10) == 1) tu_fail("Ed25519 signed into a 63-byte buffer");
        if (!do_sign(ed, ECOPT, b, 10, sig)) tu_fail("Ed25519 sign");
        if (edpub && do_verify(edpub, ECOPT, sig, 64, b, 10) != 1) tu_fail("Ed25519 verify of a good signature");
        if (edpub && do_verify(edpub, ECOPT, sig, 63, b, 10) == 1) tu_fail("Ed25519 accepted a 63-byte signature");
        if (edpub && do_verify(edpub, ECOPT, sig, 64, b, 11) == 1) tu_fail("Ed25519 accepted another message");
        sig[63] |= 0xf0; /* S >= l */
        if (edpub && do_verify(edpub, ECOPT, sig, 64, b, 10) == 1) tu_fail("Ed25519 accepted S >= l");
        EVP_PKEY_free(edpub);
    }
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(ed);
    /* validation: a key of small order (the identity) fails the public check, a real key passes */
    static const uint8_t identity[32] = {1};
    EVP_PKEY *kid = raw_key("ED25519", 0, identity, 32, ECOPT), *kok = raw_key("ED25519", 1, b, 32, ECOPT);
    EVP_PKEY_CTX *vc = kid ? EVP_PKEY_CTX_new_from_pkey(lctx, kid, ECOPT) : NULL;
    if (!vc || EVP_PKEY_public_check(vc) == 1) tu_fail("Ed25519: the identity as public key passes the check");
    EVP_PKEY_CTX_free(vc);
    vc = kok ? EVP_PKEY_CTX_new_from_pkey(lctx, kok, ECOPT) : NULL;
    if (!vc || EVP_PKEY_public_check(vc) != 1 || EVP_PKEY_check(vc) != 1) tu_fail("Ed25519: a real key fails the check");
    EVP_PKEY_CTX_free(vc);
    EVP_PKEY_free(kid);
    EVP_PKEY_free(kok);
    ERR_clear_error();
    /* a group name that is not the algorithm's */
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(lctx, "X25519", ECOPT);
    OSSL_PARAM gp[2] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"P-256", 0),
                        OSSL_PARAM_construct_end()};
    if (g && EVP_PKEY_keygen_init(g) == 1 && EVP_PKEY_CTX_set_params(g, gp) == 1) tu_fail("X25519 took group P-256");
    EVP_PKEY_CTX_free(g);
    ERR_clear_error();
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s MODULE_DIR [vectors|interop|negative]\n", argv[0]);
        return 2;
    }
    const char *what = argc == 3 ? argv[2] : "all";
    lctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *pe = NULL, *pd = NULL;
    if (lctx == NULL || !OSSL_PROVIDER_set_default_search_path(lctx, argv[1]) ||
        (pe = OSSL_PROVIDER_load(lctx, "ecopt")) == NULL || (pd = OSSL_PROVIDER_load(lctx, "default")) == NULL) {
        fprintf(stderr, "%s: cannot load the ecopt provider from %s and the default provider\n", argv[0], argv[1]);
        ERR_print_errors_fp(stderr);
        return 1;
    }
    int all = strcmp(what, "all") == 0, known = 0;
    if (all || strcmp(what, "vectors") == 0) test_ed25519_vectors(), test_x25519_vectors(), known = 1;
    if (all || strcmp(what, "interop") == 0) test_interop(), known = 1;
    if (all || strcmp(what, "negative") == 0) test_negative(), known = 1;
    if (!known) {
        fprintf(stderr, "%s: %s: unknown test (vectors, interop or negative)\n", argv[0], what);
        return 2;
    }
    ERR_print_errors_fp(stderr); /* anything left over is shown, not judged */
    OSSL_PROVIDER_unload(pe);
    OSSL_PROVIDER_unload(pd);
    OSSL_LIB_CTX_free(lctx);
    return tu_finish(argv[0]);
}
