/* ed25519.c — Ed25519 signatures with libecopt (RFC 8032).
 *
 * First TEST 2 of RFC 8032 section 7.1, copied from the RFC's text: the seed must give the RFC's public key, the
 * one-byte message the RFC's signature (Ed25519 is deterministic), which verifies; the signature must not verify
 * for another message. Then a fresh key pair signs and verifies. Exit status 0 when everything matches, 1
 * otherwise.
 *
 * Build: make (pkg-config), or cmake (find_package); see Makefile and CMakeLists.txt beside this file. */
#include <ecopt/ecopt.h>

#include <stdio.h>
#include <string.h>

/* RFC 8032 section 7.1, TEST 2: SECRET KEY (the 32-byte seed), PUBLIC KEY, MESSAGE (1 byte), SIGNATURE. */
static const char *const SEED = "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb";
static const char *const PUBLIC_KEY = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";
static const uint8_t MESSAGE[1] = {0x72};
static const char *const SIGNATURE = "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                                     "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00";

/* Decode 2 * n hex digits into out. */
static void unhex(uint8_t *out, size_t n, const char *hex) {
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static int failures = 0;

static void expect(const char *what, const uint8_t *got, size_t n, const char *want_hex) {
    uint8_t want[64];
    unhex(want, n, want_hex);
    if (memcmp(got, want, n) != 0) {
        fprintf(stderr, "ed25519: %s differs from RFC 8032 section 7.1, TEST 2\n", what);
        failures++;
    }
}

/* rc must be want (ECOPT_OK, or the error a forged input must get). */
static void check(const char *what, int rc, int want) {
    if (rc != want) {
        fprintf(stderr, "ed25519: %s: %s (expected: %s)\n", what, ecopt_strerror(rc), ecopt_strerror(want));
        failures++;
    }
}

int main(void) {
    uint8_t seed[ECOPT_ED25519_SEEDBYTES], pub[ECOPT_ED25519_PUBLICKEYBYTES], sig[ECOPT_ED25519_SIGNATUREBYTES];
    ecopt_ed25519_secretkey sk;
    const uint8_t other[1] = {0x73};

    unhex(seed, sizeof seed, SEED);
    check("key pair from the seed", ecopt_ed25519_keypair_from_seed(&sk, pub, seed), ECOPT_OK);
    expect("the public key", pub, sizeof pub, PUBLIC_KEY);
    check("sign", ecopt_ed25519_sign(sig, MESSAGE, sizeof MESSAGE, &sk), ECOPT_OK);
    expect("the signature", sig, sizeof sig, SIGNATURE);
    check("verify", ecopt_ed25519_verify(sig, MESSAGE, sizeof MESSAGE, pub), ECOPT_OK);
    check("verify another message", ecopt_ed25519_verify(sig, other, sizeof other, pub), ECOPT_ERR_VERIFY);

    /* A fresh key pair: its signature verifies under its public key. */
    static const char text[] = "a message of the example";
    check("keygen", ecopt_ed25519_keygen(seed, &sk, pub), ECOPT_OK);
    check("sign", ecopt_ed25519_sign(sig, (const uint8_t *)text, strlen(text), &sk), ECOPT_OK);
    check("verify", ecopt_ed25519_verify(sig, (const uint8_t *)text, strlen(text), pub), ECOPT_OK);
    ecopt_ed25519_secretkey_wipe(&sk);

    if (failures != 0) {
        fprintf(stderr, "ed25519: %d failures\n", failures);
        return 1;
    }
    printf("ed25519: RFC 8032 section 7.1 TEST 2 and a fresh key pair ok (libecopt %s, backend %s)\n",
           ecopt_version(), ecopt_backend_name());
    return 0;
}
