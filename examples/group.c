/* group.c — the edwards25519 group API of libecopt (ecopt/edwards25519.h).
 *
 * First a check against RFC 7748 section 6.1: Alice's public key is the Montgomery u of [clamp(a)]B on
 * edwards25519 (RFC 7748 section 4.1's map), so to_montgomery_u(scalarmult_base(clamp(a))) must equal the RFC's
 * value. Then a Schnorr proof of knowledge of x for X = [x]B: the prover sends R = [r]B and z = r + c x mod l,
 * the verifier checks [z]B - [c]X = R (the challenge c is random here; a protocol derives it by hashing). Exit
 * status 0 when everything matches, 1 otherwise.
 *
 * Build: make (pkg-config), or cmake (find_package); see Makefile and CMakeLists.txt beside this file. */
#include <ecopt/edwards25519.h>

#include <stdio.h>
#include <string.h>

/* RFC 7748 section 6.1: Alice's private key and public key X25519(a, 9). */
static const char *const ALICE_PRIVATE = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
static const char *const ALICE_PUBLIC = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";

static void unhex(uint8_t *out, size_t n, const char *hex) {
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static int failures = 0;

static void check(const char *what, int ok) {
    if (!ok) {
        fprintf(stderr, "group: %s failed\n", what);
        failures++;
    }
}

/* The prover: R = [r]B for a fresh r, z = r + c x mod l. */
static int prove(uint8_t R_enc[32], uint8_t z[32], const uint8_t x[32], const uint8_t c[32]) {
    uint8_t r[32], cx[32];
    ecopt_edwards25519_point R;
    int rc = ecopt_edwards25519_scalar_random(r);
    if (rc != ECOPT_OK) return rc;
    ecopt_edwards25519_scalarmult_base(&R, r);
    ecopt_edwards25519_encode(R_enc, &R);
    ecopt_edwards25519_scalar_mul(cx, c, x);
    ecopt_edwards25519_scalar_add(z, r, cx);
    memset(r, 0, sizeof r);
    memset(cx, 0, sizeof cx);
    return ECOPT_OK;
}

/* The verifier: [z]B - [c]X = R, X torsion-free (the negation l - c of c acts as -c only on such points). */
static int verify(const uint8_t R_enc[32], const uint8_t z[32], const uint8_t X_enc[32], const uint8_t c[32]) {
    ecopt_edwards25519_point R, X, lhs;
    uint8_t negc[32];
    if (ecopt_edwards25519_decode(&R, R_enc) != ECOPT_OK) return 0;
    if (ecopt_edwards25519_decode(&X, X_enc) != ECOPT_OK) return 0;
    if (!ecopt_edwards25519_is_torsion_free(&X)) return 0;
    ecopt_edwards25519_scalar_neg(negc, c);
    ecopt_edwards25519_double_scalarmult_vartime(&lhs, negc, &X, z);
    return ecopt_edwards25519_equal(&lhs, &R);
}

int main(void) {
    uint8_t a[32], want[32], u[32];
    ecopt_edwards25519_point P;

    unhex(a, sizeof a, ALICE_PRIVATE);
    unhex(want, sizeof want, ALICE_PUBLIC);
    a[0] &= 248, a[31] &= 127, a[31] |= 64; /* RFC 7748 section 5's clamp */
    ecopt_edwards25519_scalarmult_base(&P, a);
    ecopt_edwards25519_to_montgomery_u(u, &P);
    check("to_montgomery_u([a]B) = RFC 7748 section 6.1's public key", memcmp(u, want, 32) == 0);

    uint8_t x[32], c[32], X_enc[32], R_enc[32], z[32];
    check("scalar_random", ecopt_edwards25519_scalar_random(x) == ECOPT_OK);
    check("scalar_random", ecopt_edwards25519_scalar_random(c) == ECOPT_OK);
    ecopt_edwards25519_scalarmult_base(&P, x);
    ecopt_edwards25519_encode(X_enc, &P);
    check("prove", prove(R_enc, z, x, c) == ECOPT_OK);
    check("the proof verifies", verify(R_enc, z, X_enc, c));
    z[0] ^= 1;
    check("a changed proof is refused", !verify(R_enc, z, X_enc, c));

    if (failures != 0) {
        fprintf(stderr, "group: %d failures\n", failures);
        return 1;
    }
    printf("group: RFC 7748 section 6.1 through edwards25519 and a Schnorr proof ok (libecopt %s, backend %s)\n",
           ecopt_version(), ecopt_backend_name());
    return 0;
}
