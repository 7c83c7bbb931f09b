/* test_diff.c — proto.diff.<backend>: ecopt against OpenSSL (EVP, raw keys) and libsodium on random inputs.
 *
 * Per operation, --iters random inputs (default 10,000):
 *   x25519 public keys        ecopt_x25519_base      = OpenSSL raw public key = crypto_scalarmult_base
 *   x25519 shared secrets     ecopt_x25519           = EVP_PKEY_derive        = crypto_scalarmult
 *                             (u random 32 bytes: non-canonical, twist and top-bit-set u included; half of them
 *                             real public keys)
 *   ed25519 public keys       keypair_from_seed      = OpenSSL raw public key = crypto_sign_seed_keypair
 *   ed25519 signatures        ecopt_ed25519_sign     = EVP_DigestSign         = crypto_sign_detached (bytes)
 *   ed25519 verdicts          valid signature accepted by all three (ecopt: strict and ZIP-215); one random bit
 *                             flipped in sig, msg or key rejected by all three (ecopt: both policies); ecopt's error code, on every 10th flip, the one the strict
 *                             policy gives (classified with the GMP reference's decoder)
 *   ed25519ph (empty ctx)     ecopt_ed25519ph_sign   = crypto_sign_ed25519ph_final_create (bytes); verdicts as
 *                             above against crypto_sign_ed25519ph_final_verify; the prehashed API over OpenSSL's
 *                             SHA-512 of the message gives the same bytes (also with a random context, against
 *                             ecopt_ed25519ph_sign) and the same verdicts
 *   ed25519ctx (no peer)      sign/verify round trips with random contexts of 1..255 bytes; another context, the
 *                             pure and ph variants all rejected; every 100th signature byte-compared with the GMP
 *                             reference signer
 * Peers are the oracle in the loops; the GMP reference only classifies error codes and checks ctx samples. */
#define _POSIX_C_SOURCE 200809L
#include <openssl/evp.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ecopt/ecopt.h"
#include "ref25519.h"
#include "testutil.h"
#include "tu_backend.h"

/* ---- OpenSSL, raw keys ---- */

static void ossl_die(const char *what) {
    fprintf(stderr, "FAIL: OpenSSL: %s\n", what);
    exit(1);
}

static void ossl_raw_public(uint8_t pub[32], int type, const uint8_t priv[32]) {
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(type, NULL, priv, 32);
    size_t len = 32;
    if (k == NULL || EVP_PKEY_get_raw_public_key(k, pub, &len) != 1 || len != 32) ossl_die("raw public key");
    EVP_PKEY_free(k);
}

/* 1 and out = X25519(priv, u), or 0 when OpenSSL refuses (all-zero output). */
static int ossl_x25519(uint8_t out[32], const uint8_t priv[32], const uint8_t u[32]) {
    EVP_PKEY *a = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, priv, 32);
    EVP_PKEY *b = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, u, 32);
    if (a == NULL || b == NULL) ossl_die("X25519 keys");
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(a, NULL);
    size_t len = 32;
    int ok = c != NULL && EVP_PKEY_derive_init(c) == 1 && EVP_PKEY_derive_set_peer(c, b) == 1 &&
             EVP_PKEY_derive(c, out, &len) == 1 && len == 32;
    EVP_PKEY_CTX_free(c);
    EVP_PKEY_free(a);
    EVP_PKEY_free(b);
    return ok;
}

static void ossl_ed25519_sign(uint8_t sig[64], const uint8_t seed[32], const uint8_t *msg, size_t msglen) {
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    size_t len = 64;
    if (k == NULL || m == NULL || EVP_DigestSignInit(m, NULL, NULL, NULL, k) != 1 ||
        EVP_DigestSign(m, sig, &len, msg, msglen) != 1 || len != 64)
        ossl_die("Ed25519 sign");
    EVP_MD_CTX_free(m);
    EVP_PKEY_free(k);
}

/* 1 when OpenSSL accepts. */
static int ossl_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t pub[32]) {
    EVP_PKEY *k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub, 32);
    if (k == NULL) return 0; /* OpenSSL refuses the key itself */
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (m == NULL) ossl_die("EVP_MD_CTX_new");
    int ok = EVP_DigestVerifyInit(m, NULL, NULL, NULL, k) == 1 && EVP_DigestVerify(m, sig, 64, msg, msglen) == 1;
    EVP_MD_CTX_free(m);
    EVP_PKEY_free(k);
    return ok;
}

/* ---- libsodium ---- */

static int sodium_ph_sign(uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t sk64[64]) {
    crypto_sign_ed25519ph_state st;
    crypto_sign_ed25519ph_init(&st);
    crypto_sign_ed25519ph_update(&st, msg, msglen);
    return crypto_sign_ed25519ph_final_create(&st, sig, NULL, sk64);
}

static int sodium_ph_verify(const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t pk[32]) {
    crypto_sign_ed25519ph_state st;
    crypto_sign_ed25519ph_init(&st);
    crypto_sign_ed25519ph_update(&st, msg, msglen);
    return crypto_sign_ed25519ph_final_verify(&st, sig, pk) == 0;
}

/* ---- the strict policy's code for a signature whose equation is known to fail (all peers reject it and it is a
 * random modification of a valid one): only the encoding and small-order steps decide between codes. ---- */
static int policy_code_equation_fails(const uint8_t sig[64], const uint8_t pub[32]) {
    ref_pt P;
    ref_pt_init(&P);
    int rc = ECOPT_ERR_VERIFY;
    mpz_t S;
    mpz_init(S);
    if (ref_pt_decode(&P, pub, 1) != REF_DEC_OK) rc = ECOPT_ERR_ENCODING;
    else if (ref_pt_small_order(&P)) rc = ECOPT_ERR_SMALL_ORDER;
    else if (ref_pt_decode(&P, sig, 1) != REF_DEC_OK) rc = ECOPT_ERR_ENCODING;
    else if (ref_pt_small_order(&P)) rc = ECOPT_ERR_SMALL_ORDER;
    else {
        ref_from_le(S, sig + 32, 32);
        if (mpz_cmp(S, ref_l) >= 0) rc = ECOPT_ERR_ENCODING;
    }
    mpz_clear(S);
    ref_pt_clear(&P);
    return rc;
}

/* ---- counters ---- */

typedef struct tally {
    const char *name;
    long n, ok;
} tally;

static void report(const tally *s, const char *peers) {
    printf("  %-34s %6ld/%-6ld agree (%s)\n", s->name, s->ok, s->n, peers);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static size_t random_msglen(tu_rng *rng) {
    switch (tu_rng_below(rng, 8)) {
    case 0: return 0;
    case 1: return 1 + tu_rng_below(rng, 4);
    case 2: return 100 + tu_rng_below(rng, 1500);
    default: return tu_rng_below(rng, 200);
    }
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 10000);
    tu_check_library_backend();
    if (sodium_init() < 0) {
        fprintf(stderr, "FAIL: sodium_init\n");
        return 1;
    }
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    const long N = o.iters;
    double t0 = now();

    /* ---- X25519 public keys ---- */
    tally xpub = {"x25519 public keys", 0, 0};
    for (long i = 0; i < N; i++) {
        uint8_t sk[32], e[32], so[32], os[32];
        tu_rng_bytes_density(&rng, sk, 32);
        int rc = ecopt_x25519_base(e, sk);
        int src = crypto_scalarmult_base(so, sk);
        ossl_raw_public(os, EVP_PKEY_X25519, sk);
        xpub.n++;
        if (rc == ECOPT_OK && src == 0 && memcmp(e, so, 32) == 0 && memcmp(e, os, 32) == 0) {
            xpub.ok++;
        } else {
            tu_fail("x25519 public key: ecopt rc %d, libsodium rc %d", rc, src);
            tu_hex_print("scalar", sk, 32), tu_hex_print("ecopt", e, 32), tu_hex_print("libsodium", so, 32),
                tu_hex_print("OpenSSL", os, 32);
        }
    }

    /* ---- X25519 shared secrets ---- */
    tally xdh = {"x25519 shared secrets", 0, 0};
    long xdh_refused = 0;
    for (long i = 0; i < N; i++) {
        uint8_t sk[32], u[32], e[32], so[32], os[32];
        tu_rng_bytes(&rng, sk, 32);
        if (i % 2 == 0) {
            uint8_t other[32];
            tu_rng_bytes(&rng, other, 32);
            if (crypto_scalarmult_base(u, other) != 0) tu_fail("crypto_scalarmult_base failed");
        } else {
            tu_rng_bytes_density(&rng, u, 32); /* any 32 bytes: top bit, u >= p, twist points */
        }
        memset(e, 0xaa, 32);
        int rc = ecopt_x25519(e, sk, u);
        int src = crypto_scalarmult(so, sk, u);
        int ook = ossl_x25519(os, sk, u);
        xdh.n++;
        int agree;
        if (rc == ECOPT_OK)
            agree = src == 0 && ook && memcmp(e, so, 32) == 0 && memcmp(e, os, 32) == 0;
        else /* all-zero output: libsodium and OpenSSL refuse too */
            agree = rc == ECOPT_ERR_SMALL_ORDER && src != 0 && !ook && sodium_is_zero(e, 32), xdh_refused += agree;
        if (agree) {
            xdh.ok++;
        } else {
            tu_fail("x25519: ecopt rc %d, libsodium rc %d, OpenSSL ok %d", rc, src, ook);
            tu_hex_print("scalar", sk, 32), tu_hex_print("u", u, 32), tu_hex_print("ecopt", e, 32),
                tu_hex_print("libsodium", so, 32), tu_hex_print("OpenSSL", os, 32);
        }
    }
    double t1 = now();

    /* ---- Ed25519: public keys, signatures, verdicts ---- */
    tally epub = {"ed25519 public keys", 0, 0}, esig = {"ed25519 signatures (bytes)", 0, 0},
         evalid = {"ed25519 verify, valid", 0, 0}, eflip = {"ed25519 verify, one bit flipped", 0, 0},
         ecode = {"ed25519 flipped: ecopt error code", 0, 0};
    long flips_where[3] = {0, 0, 0};
    uint8_t *msg = malloc(2000);
    for (long i = 0; i < N; i++) {
        uint8_t seed[32], pe[32], ps[32], po[32], sk64[64], se[64], ss[64], so[64];
        tu_rng_bytes(&rng, seed, 32);
        size_t msglen = random_msglen(&rng);
        tu_rng_bytes(&rng, msg, msglen);
        ecopt_ed25519_secretkey sk;
        int rc = ecopt_ed25519_keypair_from_seed(&sk, pe, seed);
        crypto_sign_seed_keypair(ps, sk64, seed);
        ossl_raw_public(po, EVP_PKEY_ED25519, seed);
        epub.n++;
        if (rc == ECOPT_OK && memcmp(pe, ps, 32) == 0 && memcmp(pe, po, 32) == 0) {
            epub.ok++;
        } else {
            tu_fail("ed25519 public key: rc %d", rc);
            tu_hex_print("seed", seed, 32), tu_hex_print("ecopt", pe, 32), tu_hex_print("libsodium", ps, 32),
                tu_hex_print("OpenSSL", po, 32);
        }
        rc = ecopt_ed25519_sign(se, msg, msglen, &sk);
        crypto_sign_detached(ss, NULL, msg, msglen, sk64);
        ossl_ed25519_sign(so, seed, msg, msglen);
        esig.n++;
        if (rc == ECOPT_OK && memcmp(se, ss, 64) == 0 && memcmp(se, so, 64) == 0) {
            esig.ok++;
        } else {
            tu_fail("ed25519 signature: rc %d", rc);
            tu_hex_print("seed", seed, 32), tu_hex_print("msg", msg, msglen), tu_hex_print("ecopt", se, 64),
                tu_hex_print("libsodium", ss, 64), tu_hex_print("OpenSSL", so, 64);
        }
        /* Valid: all accept. */
        int ve = ecopt_ed25519_verify(ss, msg, msglen, ps);
        int vs = crypto_sign_verify_detached(ss, msg, msglen, ps) == 0;
        int vo = ossl_ed25519_verify(ss, msg, msglen, ps);
        int vz = ecopt_ed25519_verify_zip215(ss, msg, msglen, ps);
        evalid.n++;
        if (ve == ECOPT_OK && vz == ECOPT_OK && vs && vo) evalid.ok++;
        else tu_fail("ed25519 valid signature: ecopt %d, zip215 %d, libsodium %d, OpenSSL %d", ve, vz, vs, vo),
            tu_hex_print("pub", ps, 32), tu_hex_print("sig", ss, 64), tu_hex_print("msg", msg, msglen);
        /* One random bit flipped in sig, msg (when non-empty) or key: all reject. */
        uint8_t sig2[64], pub2[32];
        memcpy(sig2, ss, 64);
        memcpy(pub2, ps, 32);
        int where = (int)tu_rng_below(&rng, msglen ? 3 : 2);
        size_t bit;
        if (where == 0) bit = tu_rng_below(&rng, 512), sig2[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        else if (where == 1) bit = tu_rng_below(&rng, 256), pub2[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        else bit = tu_rng_below(&rng, 8 * msglen), msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        flips_where[where]++;
        ve = ecopt_ed25519_verify(sig2, msg, msglen, pub2);
        vs = crypto_sign_verify_detached(sig2, msg, msglen, pub2) == 0;
        vo = ossl_ed25519_verify(sig2, msg, msglen, pub2);
        vz = ecopt_ed25519_verify_zip215(sig2, msg, msglen, pub2);
        eflip.n++;
        if (ve != ECOPT_OK && vz != ECOPT_OK && !vs && !vo) {
            eflip.ok++;
        } else {
            static const char *const wn[] = {"sig", "pub", "msg"};
            tu_fail("ed25519 %s bit %zu flipped: ecopt %d, zip215 %d, libsodium accepts %d, OpenSSL accepts %d",
                    wn[where], bit, ve, vz, vs, vo);
            tu_hex_print("pub", pub2, 32), tu_hex_print("sig", sig2, 64), tu_hex_print("msg", msg, msglen);
        }
        if (i % 10 == 0) {
            int want = policy_code_equation_fails(sig2, pub2);
            ecode.n++;
            if (ve == want) ecode.ok++;
            else tu_fail("ed25519 flipped: ecopt returned %d (%s), the strict policy gives %d (%s)", ve,
                         ecopt_strerror(ve), want, ecopt_strerror(want)),
                tu_hex_print("pub", pub2, 32), tu_hex_print("sig", sig2, 64), tu_hex_print("msg", msg, msglen);
        }
        ecopt_ed25519_secretkey_wipe(&sk);
    }
    double t2 = now();

    /* ---- Ed25519ph, empty context, against libsodium ---- */
    tally phsig = {"ed25519ph signatures (bytes)", 0, 0}, phvalid = {"ed25519ph verify, valid", 0, 0},
         phflip = {"ed25519ph verify, one bit flipped", 0, 0},
         phpre = {"ed25519ph prehashed = libsodium and = message API (bytes)", 0, 0};
    for (long i = 0; i < N; i++) {
        uint8_t seed[32], pk[32], sk64[64], se[64], ss[64];
        tu_rng_bytes(&rng, seed, 32);
        size_t msglen = random_msglen(&rng);
        tu_rng_bytes(&rng, msg, msglen);
        ecopt_ed25519_secretkey sk;
        int rc = ecopt_ed25519_keypair_from_seed(&sk, NULL, seed);
        crypto_sign_seed_keypair(pk, sk64, seed);
        rc |= ecopt_ed25519ph_sign(se, msg, msglen, NULL, 0, &sk);
        int src = sodium_ph_sign(ss, msg, msglen, sk64);
        phsig.n++;
        if (rc == ECOPT_OK && src == 0 && memcmp(se, ss, 64) == 0) phsig.ok++;
        else tu_fail("ed25519ph signature: rc %d", rc), tu_hex_print("seed", seed, 32),
            tu_hex_print("msg", msg, msglen), tu_hex_print("ecopt", se, 64), tu_hex_print("libsodium", ss, 64);
        /* The prehashed API over OpenSSL's SHA-512 of msg: libsodium's signature (empty context), and with a
         * random context of 0..255 bytes the signature the message-taking function gives. */
        uint8_t digest[64], sp[64], sm[64], pctx[255];
        unsigned int dlen = 0;
        if (EVP_Digest(msg, msglen, digest, &dlen, EVP_sha512(), NULL) != 1 || dlen != 64) ossl_die("SHA-512");
        size_t pctxlen = tu_rng_below(&rng, 256);
        tu_rng_bytes(&rng, pctx, pctxlen);
        int prc = ecopt_ed25519ph_sign_prehashed(sp, digest, NULL, 0, &sk);
        int mrc;
        phpre.n++;
        if (prc == ECOPT_OK && src == 0 && memcmp(sp, ss, 64) == 0 &&
            ecopt_ed25519ph_verify_prehashed(ss, digest, NULL, 0, pk) == ECOPT_OK)
            phpre.ok++;
        else tu_fail("ed25519ph_sign_prehashed (empty context): rc %d", prc), tu_hex_print("seed", seed, 32),
            tu_hex_print("msg", msg, msglen), tu_hex_print("prehashed", sp, 64), tu_hex_print("libsodium", ss, 64);
        if (i % 2 != 0) goto ph_verdicts; /* the context case on every other input: it costs two signatures */
        prc = ecopt_ed25519ph_sign_prehashed(sp, digest, pctx, pctxlen, &sk);
        mrc = ecopt_ed25519ph_sign(sm, msg, msglen, pctx, pctxlen, &sk);
        phpre.n++;
        if (prc == ECOPT_OK && mrc == ECOPT_OK && memcmp(sp, sm, 64) == 0 &&
            ecopt_ed25519ph_verify_prehashed(sm, digest, pctx, pctxlen, pk) == ECOPT_OK)
            phpre.ok++;
        else tu_fail("ed25519ph_sign_prehashed (%zu-byte context) differs from ed25519ph_sign: rc %d, %d", pctxlen,
                     prc, mrc),
            tu_hex_print("seed", seed, 32), tu_hex_print("ctx", pctx, pctxlen), tu_hex_print("msg", msg, msglen);
    ph_verdicts:;
        int ve = ecopt_ed25519ph_verify(ss, msg, msglen, NULL, 0, pk);
        int vs = sodium_ph_verify(ss, msg, msglen, pk);
        phvalid.n++;
        if (ve == ECOPT_OK && vs) phvalid.ok++;
        else tu_fail("ed25519ph valid signature: ecopt %d, libsodium %d", ve, vs);
        uint8_t sig2[64], pub2[32];
        memcpy(sig2, ss, 64);
        memcpy(pub2, pk, 32);
        int where = (int)tu_rng_below(&rng, msglen ? 3 : 2);
        size_t bit;
        if (where == 0) bit = tu_rng_below(&rng, 512), sig2[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        else if (where == 1) bit = tu_rng_below(&rng, 256), pub2[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        else bit = tu_rng_below(&rng, 8 * msglen), msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        ve = ecopt_ed25519ph_verify(sig2, msg, msglen, NULL, 0, pub2);
        vs = sodium_ph_verify(sig2, msg, msglen, pub2);
        if (EVP_Digest(msg, msglen, digest, &dlen, EVP_sha512(), NULL) != 1) ossl_die("SHA-512");
        int vp = ecopt_ed25519ph_verify_prehashed(sig2, digest, NULL, 0, pub2);
        phflip.n++;
        if (ve != ECOPT_OK && !vs && vp == ve) phflip.ok++;
        else tu_fail("ed25519ph flipped (%d, bit %zu): ecopt %d, libsodium accepts %d", where, bit, ve, vs),
            tu_hex_print("pub", pub2, 32), tu_hex_print("sig", sig2, 64), tu_hex_print("msg", msg, msglen);
        ecopt_ed25519_secretkey_wipe(&sk);
    }
    double t3 = now();

    /* ---- Ed25519ctx round trips (no peer implements it in OpenSSL 3.0 or libsodium) ---- */
    tally ctxrt = {"ed25519ctx sign/verify round trip", 0, 0}, ctxrej = {"ed25519ctx other ctx/variant", 0, 0},
         ctxref = {"ed25519ctx vs GMP reference (bytes)", 0, 0};
    long nctx = N / 2;
    for (long i = 0; i < nctx; i++) {
        uint8_t seed[32], pk[32], sig[64], ctx[256], ctx2[256];
        tu_rng_bytes(&rng, seed, 32);
        size_t msglen = random_msglen(&rng);
        tu_rng_bytes(&rng, msg, msglen);
        size_t ctxlen = 1 + tu_rng_below(&rng, 255);
        if (i % 7 == 0) ctxlen = 255;
        tu_rng_bytes(&rng, ctx, ctxlen);
        ecopt_ed25519_secretkey sk;
        int rc = ecopt_ed25519_keypair_from_seed(&sk, pk, seed);
        rc |= ecopt_ed25519ctx_sign(sig, msg, msglen, ctx, ctxlen, &sk);
        int v = ecopt_ed25519ctx_verify(sig, msg, msglen, ctx, ctxlen, pk);
        ctxrt.n++;
        if (rc == ECOPT_OK && v == ECOPT_OK) ctxrt.ok++;
        else tu_fail("ed25519ctx round trip: sign %d, verify %d", rc, v), tu_hex_print("seed", seed, 32),
            tu_hex_print("ctx", ctx, ctxlen), tu_hex_print("msg", msg, msglen);
        /* A context differing in one bit, one byte shorter, or one byte longer; then pure and ph. */
        memcpy(ctx2, ctx, ctxlen);
        size_t ctx2len = ctxlen;
        switch (tu_rng_below(&rng, 3)) {
        case 0: {
            size_t b = tu_rng_below(&rng, 8 * ctxlen);
            ctx2[b / 8] ^= (uint8_t)(1u << (b % 8));
            break;
        }
        case 1: ctx2len = ctxlen > 1 ? ctxlen - 1 : 2, ctx2[1] = 0; break;
        default: ctx2len = ctxlen < 255 ? ctxlen + 1 : 254, ctx2[ctxlen < 255 ? ctxlen : 0] ^= 1; break;
        }
        int r1 = ecopt_ed25519ctx_verify(sig, msg, msglen, ctx2, ctx2len, pk);
        int r2 = ecopt_ed25519_verify(sig, msg, msglen, pk);
        int r3 = ecopt_ed25519ph_verify(sig, msg, msglen, ctx, ctxlen, pk);
        ctxrej.n++;
        if (r1 == ECOPT_ERR_VERIFY && r2 == ECOPT_ERR_VERIFY && r3 == ECOPT_ERR_VERIFY) ctxrej.ok++;
        else tu_fail("ed25519ctx: other context %d, as pure %d, as ph %d (all should be ECOPT_ERR_VERIFY)", r1, r2, r3),
            tu_hex_print("seed", seed, 32), tu_hex_print("ctx", ctx, ctxlen), tu_hex_print("msg", msg, msglen);
        if (i % 100 == 0) {
            uint8_t want[64];
            ref_ed25519_sign(want, REF_ED25519CTX, ctx, ctxlen, msg, msglen, seed);
            ctxref.n++;
            if (memcmp(want, sig, 64) == 0) ctxref.ok++;
            else tu_fail("ed25519ctx signature differs from the reference"), tu_hex_print("seed", seed, 32),
                tu_hex_print("ctx", ctx, ctxlen), tu_hex_print("msg", msg, msglen), tu_hex_print("ecopt", sig, 64),
                tu_hex_print("reference", want, 64);
        }
        ecopt_ed25519_secretkey_wipe(&sk);
    }
    double t4 = now();
    free(msg);

    printf("proto.diff (backend %s), seed %llu:\n", ecopt_backend_name(), (unsigned long long)o.seed);
    report(&xpub, "OpenSSL, libsodium");
    report(&xdh, "OpenSSL, libsodium");
    printf("    (of which %ld all-zero outputs refused by all three)\n", xdh_refused);
    report(&epub, "OpenSSL, libsodium");
    report(&esig, "OpenSSL, libsodium");
    report(&evalid, "OpenSSL, libsodium");
    report(&eflip, "OpenSSL, libsodium");
    printf("    (flips in sig %ld, key %ld, msg %ld)\n", flips_where[0], flips_where[1], flips_where[2]);
    report(&ecode, "strict policy via GMP decoder");
    report(&phsig, "libsodium ed25519ph");
    report(&phvalid, "libsodium ed25519ph");
    report(&phflip, "libsodium ed25519ph");
    report(&phpre, "libsodium ed25519ph, ecopt_ed25519ph_sign, OpenSSL SHA-512");
    report(&ctxrt, "ecopt only");
    report(&ctxrej, "ecopt only");
    report(&ctxref, "GMP reference");
    printf("  times: x25519 %.1f s, ed25519 %.1f s, ed25519ph %.1f s, ed25519ctx %.1f s\n", t1 - t0, t2 - t1, t3 - t2,
           t4 - t3);
    return tu_finish("proto.diff");
}
