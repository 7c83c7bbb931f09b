/* test_vectors.c — proto.<file>.<backend>: the shared known-answer vectors through the public API.
 *
 * Usage: test_vectors <which>, which is one of
 *   rfc7748             RFC 7748 section 5.2 (scalar multiplication; iterated 1 and 1000) and 6.1 (DH)
 *   rfc7748_1m          the 1,000,000-iteration case alone (label slow)
 *   rfc8032             RFC 8032 section 7.1-7.3: public key, byte-identical signature, verify, flipped bits;
 *                       Ed25519ph also through the prehashed API over OpenSSL's SHA-512 of the message
 *   wycheproof_x25519   wycheproof/x25519_test.json: valid must equal; acceptable either rejected or equal;
 *                       an all-zero expected output must give ECOPT_ERR_SMALL_ORDER
 *   wycheproof_ed25519  wycheproof/ed25519_test.json: valid accepted, invalid rejected, each with the error code
 *                       the strict policy of ecopt.h gives (computed by the GMP reference); the same under
 *                       ecopt_ed25519_verify_zip215 and the ZIP-215 policy
 *   select              ecopt_backend_select over every backend; the environment is ignored; concurrent
 *                       selection under signing threads
 *   unsupported         (with ECOPT_BACKEND naming no backend, or one this CPU lacks) ecopt_backend_select
 *                       refuses it and nothing changes: same backend, same results
 * Files are read in place from ../shared/vectors. Prints "<file>: passed/total passed". */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <cjson/cJSON.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecopt/ecopt.h"
#include "ref25519.h"
#include "testutil.h"
#include "tu_backend.h"

static const uint8_t zero32[32];

static int tcid(const cJSON *t) { return (int)cJSON_GetObjectItem(t, "tcId")->valuedouble; }

/* ---- RFC 7748 ---- */

static int iterate(long n, const char *want_hex) {
    /* k = u = 9; n times (k, u) = (X25519(k, u), k). */
    uint8_t k[32] = {9}, u[32] = {9}, t[32], want[32];
    tu_hex_decode(want, 32, want_hex);
    for (long i = 0; i < n; i++) {
        int rc = ecopt_x25519(t, k, u);
        if (rc != ECOPT_OK) {
            tu_fail("iterated X25519: step %ld returned %d", i, rc);
            return 0;
        }
        memcpy(u, k, 32);
        memcpy(k, t, 32);
    }
    char label[64];
    snprintf(label, sizeof label, "iterated X25519 x%ld", n);
    return !tu_expect_bytes(label, k, want, 32);
}

static void run_rfc7748(int million) {
    cJSON *j = tu_load_json(tu_vector_path("rfc7748/rfc7748_x25519.json"));
    cJSON *c;
    int n = 0, ok = 0;
    if (million) {
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "iterated")) {
            long iters = (long)cJSON_GetObjectItem(c, "iterations")->valuedouble;
            if (iters != 1000000) continue;
            n++;
            ok += iterate(iters, tu_json_str(c, "output"));
        }
        printf("rfc7748_x25519.json (1,000,000 iterations): %d/%d passed\n", ok, n);
        if (n != 1) tu_fail("expected exactly one 1,000,000-iteration case, found %d", n);
        cJSON_Delete(j);
        return;
    }
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "scalar_multiplication")) {
        uint8_t k[32], u[32], want[32], got[32], buf[32];
        tu_json_hex_fixed(k, 32, c, "scalar");
        tu_json_hex_fixed(u, 32, c, "u");
        tu_json_hex_fixed(want, 32, c, "output");
        int good = 1;
        int rc = ecopt_x25519(got, k, u);
        if (rc != ECOPT_OK) tu_fail("RFC 7748 5.2: returned %d", rc), good = 0;
        good &= !tu_expect_bytes("RFC 7748 5.2", got, want, 32);
        /* The API lets out alias scalar or u. */
        memcpy(buf, k, 32);
        rc = ecopt_x25519(buf, buf, u);
        good &= rc == ECOPT_OK && !tu_expect_bytes("RFC 7748 5.2 out == scalar", buf, want, 32);
        memcpy(buf, u, 32);
        rc = ecopt_x25519(buf, k, buf);
        good &= rc == ECOPT_OK && !tu_expect_bytes("RFC 7748 5.2 out == u", buf, want, 32);
        n++;
        ok += good;
    }
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "iterated")) {
        long iters = (long)cJSON_GetObjectItem(c, "iterations")->valuedouble;
        if (iters > 1000) continue; /* proto.rfc7748_1m */
        n++;
        ok += iterate(iters, tu_json_str(c, "output"));
    }
    cJSON *dh = cJSON_GetObjectItem(j, "diffie_hellman");
    uint8_t a[32], ap[32], b[32], bp[32], ss[32], got[32], nine[32] = {9};
    tu_json_hex_fixed(a, 32, dh, "alice_private");
    tu_json_hex_fixed(ap, 32, dh, "alice_public");
    tu_json_hex_fixed(b, 32, dh, "bob_private");
    tu_json_hex_fixed(bp, 32, dh, "bob_public");
    tu_json_hex_fixed(ss, 32, dh, "shared_secret");
    int good;
    good = ecopt_x25519_base(got, a) == ECOPT_OK && !tu_expect_bytes("alice public (base)", got, ap, 32);
    good &= ecopt_x25519(got, a, nine) == ECOPT_OK && !tu_expect_bytes("alice public (u = 9)", got, ap, 32);
    n++, ok += good;
    good = ecopt_x25519_base(got, b) == ECOPT_OK && !tu_expect_bytes("bob public (base)", got, bp, 32);
    memcpy(got, b, 32);
    good &= ecopt_x25519_base(got, got) == ECOPT_OK && !tu_expect_bytes("bob public (pub == scalar)", got, bp, 32);
    n++, ok += good;
    good = ecopt_x25519(got, a, bp) == ECOPT_OK && !tu_expect_bytes("shared (alice)", got, ss, 32);
    n++, ok += good;
    good = ecopt_x25519(got, b, ap) == ECOPT_OK && !tu_expect_bytes("shared (bob)", got, ss, 32);
    n++, ok += good;
    printf("rfc7748_x25519.json: %d/%d passed (5.2 x2, iterated 1 and 1000, DH: 2 public keys, shared both ways)\n",
           ok, n);
    if (ok != n) tu_fail("rfc7748_x25519.json: %d of %d failed", n - ok, n);
    cJSON_Delete(j);
}

/* ---- RFC 8032 ---- */

static int sign_v(ref_ed_variant v, uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t *ctx,
                  size_t ctxlen, const ecopt_ed25519_secretkey *sk) {
    switch (v) {
    case REF_ED25519: return ecopt_ed25519_sign(sig, msg, msglen, sk);
    case REF_ED25519CTX: return ecopt_ed25519ctx_sign(sig, msg, msglen, ctx, ctxlen, sk);
    default: return ecopt_ed25519ph_sign(sig, msg, msglen, ctx, ctxlen, sk);
    }
}

static int verify_v(ref_ed_variant v, const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t *ctx,
                    size_t ctxlen, const uint8_t pub[32]) {
    switch (v) {
    case REF_ED25519: return ecopt_ed25519_verify(sig, msg, msglen, pub);
    case REF_ED25519CTX: return ecopt_ed25519ctx_verify(sig, msg, msglen, ctx, ctxlen, pub);
    default: return ecopt_ed25519ph_verify(sig, msg, msglen, ctx, ctxlen, pub);
    }
}

/* Verify a modified (sig, msg, ctx, pub); the library's code must be the one the policy gives (GMP reference). */
static int expect_verdict(const char *what, const char *name, ref_ed_variant v, const uint8_t sig[64],
                          const uint8_t *msg, size_t msglen, const uint8_t *ctx, size_t ctxlen, const uint8_t pub[32]) {
    int want = ref_ed25519_verify_policy(sig, v, ctx, ctxlen, msg, msglen, pub, 1, 1);
    int got = verify_v(v, sig, msg, msglen, ctx, ctxlen, pub);
    if (want == ECOPT_OK) {
        /* A flipped bit that still verifies would need a hash collision; the reference saying so is a test bug. */
        tu_fail("%s %s: the reference accepts the modified signature", name, what);
        return 0;
    }
    if (got != want) {
        tu_fail("%s %s: verify returned %d (%s), the strict policy gives %d (%s)", name, what, got,
                ecopt_strerror(got), want, ecopt_strerror(want));
        tu_hex_print("sig", sig, 64);
        tu_hex_print("pub", pub, 32);
        tu_hex_print("msg", msg, msglen);
        return 0;
    }
    if (v == REF_ED25519) {
        int zwant = ref_ed25519_verify_zip215(sig, msg, msglen, pub);
        int zgot = ecopt_ed25519_verify_zip215(sig, msg, msglen, pub);
        if (zwant == ECOPT_OK) {
            tu_fail("%s %s: the reference's ZIP-215 accepts the modified signature", name, what);
            return 0;
        }
        if (zgot != zwant) {
            tu_fail("%s %s: verify_zip215 returned %d (%s), the ZIP-215 policy gives %d (%s)", name, what, zgot,
                    ecopt_strerror(zgot), zwant, ecopt_strerror(zwant));
            tu_hex_print("sig", sig, 64);
            tu_hex_print("pub", pub, 32);
            tu_hex_print("msg", msg, msglen);
            return 0;
        }
    }
    return 1;
}

static void run_rfc8032(void) {
    cJSON *j = tu_load_json(tu_vector_path("rfc8032/rfc8032_ed25519.json"));
    cJSON *c;
    int n = 0, ok = 0, nflips = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "vectors")) {
        const char *name = tu_json_str(c, "name");
        const char *alg = tu_json_str(c, "algorithm");
        ref_ed_variant v = strcmp(alg, "Ed25519") == 0      ? REF_ED25519
                           : strcmp(alg, "Ed25519ctx") == 0 ? REF_ED25519CTX
                                                            : REF_ED25519PH;
        uint8_t seed[32], pub[32], sig[64], got_pub[32], got_seed[32], got_sig[64], s2[64], p2[32];
        tu_json_hex_fixed(seed, 32, c, "secret_key");
        tu_json_hex_fixed(pub, 32, c, "public_key");
        tu_json_hex_fixed(sig, 64, c, "signature");
        size_t msglen = 0, ctxlen = 0;
        uint8_t *msg = tu_hex_alloc(tu_json_str(c, "message"), &msglen);
        const char *ctxhex = tu_json_str(c, "context");
        uint8_t *ctx = tu_hex_alloc(ctxhex ? ctxhex : "", &ctxlen);
        const uint8_t *ctxp = ctxlen ? ctx : NULL; /* Ed25519ph's empty context passed as NULL, 0 */
        int good = 1, rc;

        ecopt_ed25519_secretkey sk;
        rc = ecopt_ed25519_keypair_from_seed(&sk, got_pub, seed);
        if (rc != ECOPT_OK) tu_fail("%s: keypair_from_seed returned %d", name, rc), good = 0;
        good &= !tu_expect_bytes("public key", got_pub, pub, 32);
        ecopt_ed25519_secretkey_public(got_pub, &sk);
        good &= !tu_expect_bytes("secretkey_public", got_pub, pub, 32);
        ecopt_ed25519_secretkey_seed(got_seed, &sk);
        good &= !tu_expect_bytes("secretkey_seed", got_seed, seed, 32);
        ecopt_ed25519_secretkey sk2;
        rc = ecopt_ed25519_keypair_from_seed(&sk2, NULL, seed); /* pub may be NULL */
        if (rc != ECOPT_OK || memcmp(&sk, &sk2, sizeof sk) != 0)
            tu_fail("%s: keypair_from_seed with pub = NULL gives another key object", name), good = 0;

        rc = sign_v(v, got_sig, msg, msglen, ctxp, ctxlen, &sk);
        if (rc != ECOPT_OK) tu_fail("%s: sign returned %d", name, rc), good = 0;
        if (tu_expect_bytes(name, got_sig, sig, 64)) good = 0;
        rc = verify_v(v, sig, msg, msglen, ctxp, ctxlen, pub);
        if (rc != ECOPT_OK) tu_fail("%s: verify of the RFC signature returned %d (%s)", name, rc, ecopt_strerror(rc)),
            good = 0;
        if (v == REF_ED25519 && (rc = ecopt_ed25519_verify_zip215(sig, msg, msglen, pub)) != ECOPT_OK)
            tu_fail("%s: verify_zip215 of the RFC signature returned %d (%s)", name, rc, ecopt_strerror(rc)), good = 0;

        if (v == REF_ED25519PH) {
            /* The prehashed API over PH(M) = SHA-512(M) computed by OpenSSL: the RFC's signature byte for byte,
             * accepted; a digest with one bit flipped is rejected; a context over 255 bytes is refused. */
            uint8_t digest[64], psig[64], bigctx[256] = {0};
            unsigned int dlen = 0;
            if (EVP_Digest(msg, msglen, digest, &dlen, EVP_sha512(), NULL) != 1 || dlen != 64)
                tu_fail("%s: OpenSSL SHA-512 failed", name), good = 0;
            rc = ecopt_ed25519ph_sign_prehashed(psig, digest, ctxp, ctxlen, &sk);
            if (rc != ECOPT_OK) tu_fail("%s: sign_prehashed returned %d", name, rc), good = 0;
            if (tu_expect_bytes("sign_prehashed", psig, sig, 64)) good = 0;
            rc = ecopt_ed25519ph_verify_prehashed(sig, digest, ctxp, ctxlen, pub);
            if (rc != ECOPT_OK) tu_fail("%s: verify_prehashed of the RFC signature returned %d", name, rc), good = 0;
            digest[0] ^= 1;
            rc = ecopt_ed25519ph_verify_prehashed(sig, digest, ctxp, ctxlen, pub);
            if (rc != ECOPT_ERR_VERIFY) tu_fail("%s: verify_prehashed, digest bit 0 flipped: %d", name, rc), good = 0;
            digest[0] ^= 1;
            memset(psig, 0xaa, 64);
            rc = ecopt_ed25519ph_sign_prehashed(psig, digest, bigctx, 256, &sk);
            if (rc != ECOPT_ERR_LENGTH || memcmp(psig, zero32, 32) != 0 || memcmp(psig + 32, zero32, 32) != 0)
                tu_fail("%s: sign_prehashed with a 256-byte context: %d (want ECOPT_ERR_LENGTH, sig zeroed)", name, rc),
                    good = 0;
            rc = ecopt_ed25519ph_verify_prehashed(sig, digest, bigctx, 256, pub);
            if (rc != ECOPT_ERR_LENGTH) tu_fail("%s: verify_prehashed with a 256-byte context: %d", name, rc), good = 0;
            if (ecopt_ed25519ph_digestbytes() != 64) tu_fail("ecopt_ed25519ph_digestbytes() != 64"), good = 0;
        }

        /* One flipped bit in R, in S, in A, and in M, each rejected with the policy's code. */
        static const int sig_bits[] = {0, 7, 100, 255, 256, 300, 507, 509, 511};
        for (size_t i = 0; i < TU_ARRAY_LEN(sig_bits); i++) {
            memcpy(s2, sig, 64);
            s2[sig_bits[i] / 8] ^= (uint8_t)(1u << (sig_bits[i] % 8));
            char what[48];
            snprintf(what, sizeof what, "sig bit %d flipped", sig_bits[i]);
            good &= expect_verdict(what, name, v, s2, msg, msglen, ctxp, ctxlen, pub);
            nflips++;
        }
        static const int pub_bits[] = {0, 1, 128, 254, 255};
        for (size_t i = 0; i < TU_ARRAY_LEN(pub_bits); i++) {
            memcpy(p2, pub, 32);
            p2[pub_bits[i] / 8] ^= (uint8_t)(1u << (pub_bits[i] % 8));
            char what[48];
            snprintf(what, sizeof what, "pub bit %d flipped", pub_bits[i]);
            good &= expect_verdict(what, name, v, sig, msg, msglen, ctxp, ctxlen, p2);
            nflips++;
        }
        if (msglen > 0) {
            for (size_t bit = 0; bit < 8 * msglen; bit += (8 * msglen + 2) / 3) {
                msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                good &= expect_verdict("msg bit flipped", name, v, sig, msg, msglen, ctxp, ctxlen, pub);
                msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                nflips++;
            }
        } else {
            uint8_t one = 0;
            good &= expect_verdict("msg extended by a zero byte", name, v, sig, &one, 1, ctxp, ctxlen, pub);
            nflips++;
        }
        if (v != REF_ED25519) {
            /* Another context, and for ctx also the other variants: domain separation must reject. */
            uint8_t other[3] = {'b', 'a', 'z'};
            good &= expect_verdict("other context", name, v, sig, msg, msglen, other, 3, pub);
            ref_ed_variant w = (v == REF_ED25519CTX) ? REF_ED25519PH : REF_ED25519CTX;
            if (ctxlen > 0) good &= expect_verdict("other variant", name, w, sig, msg, msglen, ctx, ctxlen, pub);
            nflips += 2;
        }
        good &= expect_verdict("as pure Ed25519", name, v == REF_ED25519 ? REF_ED25519CTX : REF_ED25519, sig, msg,
                               msglen, (const uint8_t *)"x", 1, pub);
        nflips++;
        n++;
        ok += good;
        ecopt_ed25519_secretkey_wipe(&sk);
        ecopt_ed25519_secretkey_wipe(&sk2);
        free(msg);
        free(ctx);
    }

    /* Context length rules (ecopt.h): ctx 1..255, ph 0..255; on error the signature is zeroed. */
    {
        uint8_t seed[32] = {1}, sig[64], big[256] = {0};
        ecopt_ed25519_secretkey sk;
        int rc = ecopt_ed25519_keypair_from_seed(&sk, NULL, seed);
        if (rc != ECOPT_OK) tu_fail("keypair_from_seed returned %d", rc);
        memset(sig, 0xaa, 64);
        rc = ecopt_ed25519ctx_sign(sig, (const uint8_t *)"m", 1, NULL, 0, &sk);
        if (rc != ECOPT_ERR_LENGTH || memcmp(sig, zero32, 32) || memcmp(sig + 32, zero32, 32))
            tu_fail("ed25519ctx_sign with an empty context: %d (want ECOPT_ERR_LENGTH and a zeroed signature)", rc);
        memset(sig, 0xaa, 64);
        rc = ecopt_ed25519ctx_sign(sig, (const uint8_t *)"m", 1, big, 256, &sk);
        if (rc != ECOPT_ERR_LENGTH || memcmp(sig, zero32, 32) || memcmp(sig + 32, zero32, 32))
            tu_fail("ed25519ctx_sign with a 256-byte context: %d (want ECOPT_ERR_LENGTH, zeroed)", rc);
        memset(sig, 0xaa, 64);
        rc = ecopt_ed25519ph_sign(sig, (const uint8_t *)"m", 1, big, 256, &sk);
        if (rc != ECOPT_ERR_LENGTH || memcmp(sig, zero32, 32) || memcmp(sig + 32, zero32, 32))
            tu_fail("ed25519ph_sign with a 256-byte context: %d (want ECOPT_ERR_LENGTH, zeroed)", rc);
        /* 255 bytes is allowed, and matches the reference. */
        uint8_t want[64], pub[32];
        ecopt_ed25519_secretkey_public(pub, &sk);
        rc = ecopt_ed25519ctx_sign(sig, (const uint8_t *)"m", 1, big, 255, &sk);
        ref_ed25519_sign(want, REF_ED25519CTX, big, 255, (const uint8_t *)"m", 1, seed);
        if (rc != ECOPT_OK || tu_expect_bytes("ctx_sign with a 255-byte context", sig, want, 64))
            tu_fail("ed25519ctx_sign with a 255-byte context: %d", rc);
        rc = ecopt_ed25519ctx_verify(sig, (const uint8_t *)"m", 1, big, 255, pub);
        if (rc != ECOPT_OK) tu_fail("ed25519ctx_verify with a 255-byte context: %d", rc);
        rc = ecopt_ed25519ctx_verify(sig, (const uint8_t *)"m", 1, big, 256, pub);
        if (rc != ECOPT_ERR_LENGTH) tu_fail("ed25519ctx_verify with a 256-byte context: %d, want LENGTH", rc);
        rc = ecopt_ed25519ctx_verify(sig, (const uint8_t *)"m", 1, NULL, 0, pub);
        if (rc != ECOPT_ERR_LENGTH) tu_fail("ed25519ctx_verify with an empty context: %d, want LENGTH", rc);
        rc = ecopt_ed25519ph_verify(sig, (const uint8_t *)"m", 1, big, 256, pub);
        if (rc != ECOPT_ERR_LENGTH) tu_fail("ed25519ph_verify with a 256-byte context: %d, want LENGTH", rc);
        ecopt_ed25519_secretkey_wipe(&sk);
        uint8_t zsk[sizeof sk] = {0};
        if (memcmp(&sk, zsk, sizeof sk) != 0) tu_fail("secretkey_wipe left non-zero bytes");
    }
    printf("rfc8032_ed25519.json: %d/%d passed (%d modified signatures rejected with the policy's code)\n", ok, n,
           nflips);
    if (ok != n) tu_fail("rfc8032_ed25519.json: %d of %d failed", n - ok, n);
    cJSON_Delete(j);
}

/* ---- Wycheproof X25519 ---- */

static void run_wycheproof_x25519(void) {
    cJSON *j = tu_load_json(tu_vector_path("wycheproof/x25519_test.json"));
    cJSON *g, *t;
    int n = 0, ok = 0, nvalid = 0, nacc = 0, acc_equal = 0, acc_rejected = 0, nzero = 0;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(j, "testGroups")) {
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(g, "tests")) {
            uint8_t pub[32], priv[32], shared[32], got[32];
            tu_json_hex_fixed(pub, 32, t, "public");
            tu_json_hex_fixed(priv, 32, t, "private");
            tu_json_hex_fixed(shared, 32, t, "shared");
            const char *result = tu_json_str(t, "result");
            memset(got, 0xaa, 32);
            int rc = ecopt_x25519(got, priv, pub);
            int good;
            n++;
            if (memcmp(shared, zero32, 32) == 0) {
                /* RFC 7748 section 6.1's check, which ecopt.h promises: all-zero output -> SMALL_ORDER, zeroed. */
                nzero++;
                good = rc == ECOPT_ERR_SMALL_ORDER && memcmp(got, zero32, 32) == 0;
                if (!good) tu_fail("tcId %d: all-zero shared secret: returned %d, want ECOPT_ERR_SMALL_ORDER", tcid(t), rc);
                if (strcmp(result, "valid") == 0) nvalid++;
                else nacc++, acc_rejected += good;
            } else if (strcmp(result, "valid") == 0) {
                nvalid++;
                good = rc == ECOPT_OK && memcmp(got, shared, 32) == 0;
                if (!good) tu_fail("tcId %d (valid): returned %d", tcid(t), rc);
            } else if (strcmp(result, "acceptable") == 0) {
                nacc++;
                if (rc == ECOPT_OK) {
                    good = memcmp(got, shared, 32) == 0;
                    acc_equal += good;
                    if (!good) tu_fail("tcId %d (acceptable): accepted with a different output", tcid(t));
                } else {
                    good = memcmp(got, zero32, 32) == 0; /* on error the output is zeroed */
                    acc_rejected += good;
                    if (!good) tu_fail("tcId %d (acceptable): rejected (%d) but output not zeroed", tcid(t), rc);
                }
            } else {
                good = rc != ECOPT_OK;
                if (!good) tu_fail("tcId %d (invalid): accepted", tcid(t));
            }
            if (!good) {
                tu_hex_print("private", priv, 32);
                tu_hex_print("public", pub, 32);
                tu_hex_print("got", got, 32);
                tu_hex_print("shared", shared, 32);
            }
            ok += good;
        }
    }
    printf("x25519_test.json: %d/%d passed (%d valid, %d acceptable: %d accepted and equal, %d rejected; "
           "%d all-zero outputs gave ECOPT_ERR_SMALL_ORDER)\n",
           ok, n, nvalid, nacc, acc_equal, acc_rejected, nzero);
    if (n != 518) tu_fail("x25519_test.json: expected 518 cases, read %d", n);
    cJSON_Delete(j);
}

/* ---- Wycheproof Ed25519 ---- */

static void run_wycheproof_ed25519(void) {
    cJSON *j = tu_load_json(tu_vector_path("wycheproof/ed25519_test.json"));
    cJSON *g, *t;
    int n = 0, ok = 0, nvalid = 0, ninvalid = 0, nlen = 0, zip_ok = 0, zip_acc = 0, zip_n = 0;
    int codes[8] = {0};
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(j, "testGroups")) {
        uint8_t pk[32];
        tu_json_hex_fixed(pk, 32, cJSON_GetObjectItem(g, "publicKey"), "pk");
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(g, "tests")) {
            size_t msglen, siglen;
            uint8_t *msg = tu_hex_alloc(tu_json_str(t, "msg"), &msglen);
            uint8_t *sig = tu_hex_alloc(tu_json_str(t, "sig"), &siglen);
            int valid = strcmp(tu_json_str(t, "result"), "valid") == 0;
            int good;
            n++;
            valid ? nvalid++ : ninvalid++;
            if (siglen != 64) {
                /* The API takes exactly 64 bytes: a caller holding another length rejects it before the call. */
                good = !valid;
                nlen++;
                if (!good) tu_fail("tcId %d: valid with a %zu-byte signature", tcid(t), siglen);
            } else {
                int want = ref_ed25519_verify_policy(sig, REF_ED25519, NULL, 0, msg, msglen, pk, 1, 1);
                int got = ecopt_ed25519_verify(sig, msg, msglen, pk);
                codes[-got & 7]++;
                good = (valid ? got == ECOPT_OK : got != ECOPT_OK) && got == want;
                if (!good) {
                    tu_fail("tcId %d (%s, %s): verify returned %d (%s); strict policy (GMP) gives %d (%s)", tcid(t),
                            tu_json_str(t, "result"), tu_json_str(t, "comment"), got, ecopt_strerror(got), want,
                            ecopt_strerror(want));
                    tu_hex_print("pk", pk, 32);
                    tu_hex_print("sig", sig, 64);
                    tu_hex_print("msg", msg, msglen);
                }
                /* The same case under ecopt_ed25519_verify_zip215 against the reference's ZIP-215 reading. */
                int zwant = ref_ed25519_verify_zip215(sig, msg, msglen, pk);
                int zgot = ecopt_ed25519_verify_zip215(sig, msg, msglen, pk);
                zip_n++;
                zip_acc += zgot == ECOPT_OK;
                if (zgot == zwant) {
                    zip_ok++;
                } else {
                    good = 0;
                    tu_fail("tcId %d (%s): verify_zip215 returned %d (%s); ZIP-215 policy (GMP) gives %d (%s)",
                            tcid(t), tu_json_str(t, "comment"), zgot, ecopt_strerror(zgot), zwant,
                            ecopt_strerror(zwant));
                    tu_hex_print("pk", pk, 32);
                    tu_hex_print("sig", sig, 64);
                    tu_hex_print("msg", msg, msglen);
                }
            }
            ok += good;
            free(msg);
            free(sig);
        }
    }
    printf("ed25519_test.json: %d/%d passed (%d valid accepted; %d invalid rejected: %d by length before the call, "
           "%d ENCODING, %d SMALL_ORDER, %d VERIFY)\n",
           ok, n, nvalid, ninvalid, nlen, codes[2], codes[3], codes[4]);
    printf("ed25519_test.json under ZIP-215: %d/%d as the policy gives (%d accepted: the %d valid and tcId 151)\n",
           zip_ok, zip_n, zip_acc, nvalid);
    if (n != 151) tu_fail("ed25519_test.json: expected 151 cases, read %d", n);
    cJSON_Delete(j);
}

/* ---- ECOPT_BACKEND naming no backend (or one this CPU cannot run): ecopt_backend_select refuses with
 * ECOPT_ERR_UNSUPPORTED and changes nothing (ecopt.h): the backend name stays, never NULL, and every operation
 * goes on working on the backend the library had, with the same results as before the call. ---- */

static void run_unsupported(void) {
    int n = 0, ok = 0;
    const char *before = ecopt_backend_name();
    uint8_t k[32] = {1}, u[32] = {9}, seed[32] = {2};
    uint8_t x0[32], x1[32], b0[32], b1[32], pub0[32], pub1[32], sig0[64], sig1[64];
    ecopt_ed25519_secretkey sk;
    int rc0 = ecopt_x25519(x0, k, u) | ecopt_x25519_base(b0, k) | ecopt_ed25519_keypair_from_seed(&sk, pub0, seed) |
              ecopt_ed25519_sign(sig0, (const uint8_t *)"m", 1, &sk);
    if (rc0 != ECOPT_OK) tu_fail("the operations failed before any selection: %d", rc0);

    int rc = tu_select_backend_from_env();
    n++, ok += rc == ECOPT_ERR_UNSUPPORTED;
    if (rc != ECOPT_ERR_UNSUPPORTED)
        tu_fail("ecopt_backend_select(ECOPT_BACKEND=%s) returned %d, want ECOPT_ERR_UNSUPPORTED", getenv("ECOPT_BACKEND"),
                rc);
    const char *after = ecopt_backend_name();
    n++, ok += after != NULL && strcmp(after, before) == 0;
    if (after == NULL || strcmp(after, before) != 0)
        tu_fail("the refused selection changed the backend from %s to %s", before, after ? after : "(null)");

    ecopt_ed25519_secretkey_wipe(&sk);
    rc = ecopt_x25519(x1, k, u) | ecopt_x25519_base(b1, k) | ecopt_ed25519_keypair_from_seed(&sk, pub1, seed) |
         ecopt_ed25519_sign(sig1, (const uint8_t *)"m", 1, &sk);
    n++, ok += rc == ECOPT_OK;
    if (rc != ECOPT_OK) tu_fail("an operation failed after the refused selection: %d", rc);
    n++, ok += memcmp(x0, x1, 32) == 0 && memcmp(b0, b1, 32) == 0 && memcmp(pub0, pub1, 32) == 0 &&
               memcmp(sig0, sig1, 64) == 0;
    if (memcmp(x0, x1, 32) != 0 || memcmp(b0, b1, 32) != 0 || memcmp(pub0, pub1, 32) != 0 || memcmp(sig0, sig1, 64) != 0)
        tu_fail("results differ after the refused selection");
    rc = ecopt_ed25519_verify(sig1, (const uint8_t *)"m", 1, pub1);
    n++, ok += rc == ECOPT_OK;
    if (rc != ECOPT_OK) tu_fail("ecopt_ed25519_verify after the refused selection returned %d", rc);
    ecopt_ed25519_secretkey_wipe(&sk);
    printf("unsupported backend (ECOPT_BACKEND=%s): refused, still on %s: %d/%d checks passed\n",
           getenv("ECOPT_BACKEND"), after ? after : "(null)", ok, n);
}

/* ---- ecopt_backend_select: the library ignores the environment (ctest sets ECOPT_BACKEND=u32 and
 * ECOPT_BACKEND_FORCE=1 for this run, neither of which may take effect), starts on the first backend of the list
 * this CPU runs, NULL and "" select that default, each available name selects itself, a refused name changes
 * nothing; and signing threads see identical signatures while another thread keeps switching backends. ---- */

enum { SELECT_THREADS = 2, SELECT_ROUNDS = 300 };

typedef struct {
    const ecopt_ed25519_secretkey *sk;
    const uint8_t *pub, *want;
    int bad;
} select_worker;

static void *select_work(void *arg) {
    select_worker *w = arg;
    uint8_t sig[64];
    for (int i = 0; i < SELECT_ROUNDS; i++) {
        if (ecopt_ed25519_sign(sig, (const uint8_t *)"threads", 7, w->sk) != ECOPT_OK || memcmp(sig, w->want, 64) != 0 ||
            ecopt_ed25519_verify(sig, (const uint8_t *)"threads", 7, w->pub) != ECOPT_OK)
            w->bad++;
    }
    return NULL;
}

static void run_select(void) {
    const char *start = ecopt_backend_name();
    char list[64];
    const char *avail[8];
    int navail = 0, rc;
    if (start == NULL) {
        tu_fail("ecopt_backend_name() is NULL before any selection");
        return;
    }
    snprintf(list, sizeof list, "%s", ecopt_backend_list());
    for (char *save = NULL, *name = strtok_r(list, " ", &save); name != NULL; name = strtok_r(NULL, " ", &save)) {
        rc = ecopt_backend_select(name);
        if (rc == ECOPT_OK) {
            if (strcmp(ecopt_backend_name(), name) != 0)
                tu_fail("ecopt_backend_select(%s) = OK but ecopt_backend_name() = %s", name, ecopt_backend_name());
            if (navail < 8) avail[navail++] = name;
        } else if (rc != ECOPT_ERR_UNSUPPORTED) {
            tu_fail("ecopt_backend_select(%s) returned %d", name, rc);
        }
    }
    if (navail == 0 || strcmp(start, avail[0]) != 0)
        tu_fail("the library started on %s (ECOPT_BACKEND=%s in the environment), want the first available, %s",
                start, getenv("ECOPT_BACKEND") ? getenv("ECOPT_BACKEND") : "(unset)", navail ? avail[0] : "(none)");
    if ((rc = ecopt_backend_select(NULL)) != ECOPT_OK || strcmp(ecopt_backend_name(), start) != 0)
        tu_fail("ecopt_backend_select(NULL) = %d, backend %s, want OK and %s", rc, ecopt_backend_name(), start);
    if (navail > 1 && ecopt_backend_select(avail[navail - 1]) != ECOPT_OK) tu_fail("reselecting %s", avail[navail - 1]);
    if ((rc = ecopt_backend_select("")) != ECOPT_OK || strcmp(ecopt_backend_name(), start) != 0)
        tu_fail("ecopt_backend_select(\"\") = %d, backend %s, want OK and %s", rc, ecopt_backend_name(), start);
    static const char *const refused[] = {"no-such-backend", "U64", "u64 ", " u64", "adx4", "u64 u32"};
    for (size_t i = 0; i < TU_ARRAY_LEN(refused); i++) {
        rc = ecopt_backend_select(refused[i]);
        if (rc != ECOPT_ERR_UNSUPPORTED || strcmp(ecopt_backend_name(), start) != 0)
            tu_fail("ecopt_backend_select(\"%s\") = %d, backend %s, want ECOPT_ERR_UNSUPPORTED and %s unchanged",
                    refused[i], rc, ecopt_backend_name(), start);
    }

    /* Concurrent selection: the results are the same on every backend (each is checked against the RFC vectors
     * by its own suites), so a signature that changes means a call saw a torn or half-made backend choice. */
    uint8_t seed[32] = {7}, pub[32], want[64];
    ecopt_ed25519_secretkey sk;
    if (ecopt_ed25519_keypair_from_seed(&sk, pub, seed) != ECOPT_OK ||
        ecopt_ed25519_sign(want, (const uint8_t *)"threads", 7, &sk) != ECOPT_OK) {
        tu_fail("keypair or sign failed");
        return;
    }
    pthread_t th[SELECT_THREADS];
    select_worker w[SELECT_THREADS];
    for (int i = 0; i < SELECT_THREADS; i++) {
        w[i] = (select_worker){&sk, pub, want, 0};
        if (pthread_create(&th[i], NULL, select_work, &w[i]) != 0) tu_fail("pthread_create");
    }
    long switches = 0;
    for (int i = 0; i < SELECT_ROUNDS; i++, switches++)
        if (ecopt_backend_select(avail[i % navail]) != ECOPT_OK) tu_fail("select %s during the run", avail[i % navail]);
    int bad = 0;
    for (int i = 0; i < SELECT_THREADS; i++) {
        pthread_join(th[i], NULL);
        bad += w[i].bad;
    }
    if (bad) tu_fail("%d of %d signatures or verifications differed while backends were switched", bad,
                     SELECT_THREADS * SELECT_ROUNDS);
    ecopt_ed25519_secretkey_wipe(&sk);
    printf("backend_select: started on %s, %d backend(s) available (%s ... %s), %ld switches under %d signing threads\n",
           start, navail, avail[0], avail[navail - 1], switches, SELECT_THREADS);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 0);
    if (o.argc == 1 && strcmp(o.argv[0], "unsupported") == 0) {
        run_unsupported();
        return tu_finish("unsupported");
    }
    if (o.argc == 1 && strcmp(o.argv[0], "select") == 0) {
        run_select();
        return tu_finish("backend_select");
    }
    if (o.argc != 1) {
        fprintf(stderr, "usage: %s rfc7748|rfc7748_1m|rfc8032|wycheproof_x25519|wycheproof_ed25519\n", argv[0]);
        return 2;
    }
    tu_check_library_backend();
    ref_init();
    const char *w = o.argv[0];
    if (strcmp(w, "rfc7748") == 0) run_rfc7748(0);
    else if (strcmp(w, "rfc7748_1m") == 0) run_rfc7748(1);
    else if (strcmp(w, "rfc8032") == 0) run_rfc8032();
    else if (strcmp(w, "wycheproof_x25519") == 0) run_wycheproof_x25519();
    else if (strcmp(w, "wycheproof_ed25519") == 0) run_wycheproof_ed25519();
    else {
        fprintf(stderr, "%s: unknown vector set '%s'\n", argv[0], w);
        return 2;
    }
    return tu_finish(w);
}
