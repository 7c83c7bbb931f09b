/* x25519.c — X25519 key agreement with libecopt (RFC 7748).
 *
 * First the Diffie-Hellman example of RFC 7748 section 6.1, whose keys and shared secret are copied from the RFC's
 * text: both sides must compute the RFC's public keys and the same, RFC's, shared secret. Then a fresh agreement
 * between two random key pairs. Exit status 0 when everything matches, 1 otherwise.
 *
 * Build: make (pkg-config), or cmake (find_package); see Makefile and CMakeLists.txt beside this file. */
#include <ecopt/ecopt.h>

#include <stdio.h>
#include <string.h>

/* RFC 7748 section 6.1: Alice's and Bob's private keys (32 random bytes each), their public keys
 * X25519(private, 9) and the shared secret K. */
static const char *const ALICE_PRIVATE = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
static const char *const ALICE_PUBLIC = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
static const char *const BOB_PRIVATE = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
static const char *const BOB_PUBLIC = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";
static const char *const SHARED = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";

/* Decode 2 * n hex digits into out. */
static void unhex(uint8_t *out, size_t n, const char *hex) {
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static int failures = 0;

static void expect(const char *what, const uint8_t *got, const char *want_hex) {
    uint8_t want[32];
    unhex(want, sizeof want, want_hex);
    if (memcmp(got, want, sizeof want) != 0) {
        fprintf(stderr, "x25519: %s differs from RFC 7748 section 6.1\n", what);
        failures++;
    }
}

static void check(const char *what, int rc) {
    if (rc != ECOPT_OK) {
        fprintf(stderr, "x25519: %s: %s\n", what, ecopt_strerror(rc));
        failures++;
    }
}

int main(void) {
    uint8_t a[32], b[32], pub_a[32], pub_b[32], k_a[32], k_b[32];

    unhex(a, sizeof a, ALICE_PRIVATE);
    unhex(b, sizeof b, BOB_PRIVATE);
    check("Alice's public key", ecopt_x25519_base(pub_a, a));
    check("Bob's public key", ecopt_x25519_base(pub_b, b));
    expect("Alice's public key", pub_a, ALICE_PUBLIC);
    expect("Bob's public key", pub_b, BOB_PUBLIC);
    check("Alice's shared secret", ecopt_x25519(k_a, a, pub_b));
    check("Bob's shared secret", ecopt_x25519(k_b, b, pub_a));
    expect("Alice's shared secret", k_a, SHARED);
    expect("Bob's shared secret", k_b, SHARED);

    /* Two fresh key pairs agree on one secret. */
    check("keygen", ecopt_x25519_keygen(a, pub_a));
    check("keygen", ecopt_x25519_keygen(b, pub_b));
    check("shared secret", ecopt_x25519(k_a, a, pub_b));
    check("shared secret", ecopt_x25519(k_b, b, pub_a));
    if (memcmp(k_a, k_b, sizeof k_a) != 0) {
        fprintf(stderr, "x25519: the two sides of a fresh agreement differ\n");
        failures++;
    }

    if (failures != 0) {
        fprintf(stderr, "x25519: %d failures\n", failures);
        return 1;
    }
    printf("x25519: RFC 7748 section 6.1 agreement and a fresh one ok (libecopt %s, backend %s)\n", ecopt_version(),
           ecopt_backend_name());
    return 0;
}
