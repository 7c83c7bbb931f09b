/* test_ct_group.c — ct.group.<backend>: constant-time evidence for the group API (include/ecopt/edwards25519.h)
 * under valgrind memcheck, as test_ct.c does for the protocols.
 *
 * Run as `valgrind --error-exitcode=1 --track-origins=yes test_ct_group` with ECOPT_BACKEND set (and
 * ECOPT_BACKEND_FORCE=1: valgrind hides ADX from cpuid). Every scalar, point, encoding and u-coordinate handed to a
 * function not named _vartime is marked undefined (ECOPT_CT_SECRET) before the call; results are declared defined
 * (ECOPT_CT_PUBLIC) only once produced, then checked against another route to the same value so that a harness
 * that broke the computation cannot pass. A branch or memory index on a secret inside libecopt is a memcheck error.
 *
 * Secret inputs: scalar from_bytes (the verdict is public by contract and declassified by the library), reduce,
 * reduce64, add, sub, neg, mul, invert, is_zero, equal; point decode, decode_zip215 (verdict declassified by the
 * library), encode, add, sub, neg, double, equal, is_identity, scalarmult (scalar and point secret),
 * scalarmult_base, mul_by_cofactor, is_small_order, is_torsion_free, to_montgomery_u, from_montgomery_u (u and
 * sign secret).
 *
 * `cpu-check` only checks, outside valgrind, that ECOPT_BACKEND is usable on this CPU (exit 77 when not); run_ct.sh
 * runs it first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_valgrind.h"
#include "ecopt/ecopt.h"
#include "ecopt/edwards25519.h"
#include "testutil.h"
#include "tu_backend.h"

typedef ecopt_edwards25519_point pt;

static int failures = 0;

static void fail(const char *what) {
    fprintf(stderr, "FAIL: %s\n", what);
    failures++;
}

#define SECRET(x) ECOPT_CT_SECRET(&(x), sizeof(x))
#define PUBLIC(x) ECOPT_CT_PUBLIC(&(x), sizeof(x))

static void scalar_round(const uint8_t a_in[32], const uint8_t b_in[32], const uint8_t wide_in[64]) {
    uint8_t a[32], b[32], wide[64], r1[32], r2[32], r3[32], inv[32];
    memcpy(a, a_in, 32);
    memcpy(b, b_in, 32);
    memcpy(wide, wide_in, 64);

    SECRET(a);
    int rc = ecopt_edwards25519_scalar_from_bytes(r1, a);
    PUBLIC(rc);
    PUBLIC(r1);
    (void)rc; /* either verdict: the inputs are random 256-bit values */

    SECRET(wide);
    ecopt_edwards25519_scalar_reduce64(r1, wide);
    SECRET(a);
    ecopt_edwards25519_scalar_reduce(r2, a);
    SECRET(a), SECRET(b);
    ecopt_edwards25519_scalar_add(r3, a, b);
    SECRET(a), SECRET(b);
    ecopt_edwards25519_scalar_sub(r3, r3, b); /* (a + b) - b = a mod l */
    PUBLIC(r2), PUBLIC(r3);
    if (memcmp(r2, r3, 32) != 0) fail("(a + b) - b != a mod l");

    SECRET(a);
    ecopt_edwards25519_scalar_neg(r3, a);
    SECRET(a);
    ecopt_edwards25519_scalar_add(r3, r3, a);
    SECRET(r3);
    int z = ecopt_edwards25519_scalar_is_zero(r3);
    PUBLIC(z);
    if (!z) fail("-a + a != 0");

    SECRET(a);
    ecopt_edwards25519_scalar_invert(inv, a);
    SECRET(a), SECRET(inv);
    ecopt_edwards25519_scalar_mul(r3, a, inv);
    static const uint8_t one[32] = {1};
    SECRET(r3);
    int e = ecopt_edwards25519_scalar_equal(r3, one);
    PUBLIC(e);
    if (!e) fail("a * (1/a) != 1");
    memset(a, 0, 32);
}

static void point_round(const uint8_t s_in[32], const uint8_t t_in[32]) {
    uint8_t s[32], t[32], enc[32], u[32];
    pt b, p, q, r, x;
    memcpy(s, s_in, 32);
    memcpy(t, t_in, 32);
    ecopt_edwards25519_base(&b);

    SECRET(s);
    ecopt_edwards25519_scalarmult_base(&p, s); /* p = [s]B, secret */
    SECRET(s), SECRET(b);
    ecopt_edwards25519_scalarmult(&q, s, &b); /* q = [s]B the other way */
    SECRET(p), SECRET(q);
    int eq = ecopt_edwards25519_equal(&p, &q);
    PUBLIC(eq);
    if (!eq) fail("scalarmult_base(s) != scalarmult(s, B)");

    /* A secret point times a secret scalar, with bit 255 of the scalar set (the top-bit rewrite runs). */
    t[31] |= 0x80;
    SECRET(t), SECRET(p);
    ecopt_edwards25519_scalarmult(&q, t, &p); /* [t][s]B */
    SECRET(t), SECRET(s);
    ecopt_edwards25519_scalar_mul(u, t, s);
    SECRET(u);
    ecopt_edwards25519_scalarmult_base(&r, u); /* [t s mod l]B */
    SECRET(q), SECRET(r);
    eq = ecopt_edwards25519_equal(&q, &r);
    PUBLIC(eq);
    if (!eq) fail("[t]([s]B) != [t s]B");

    SECRET(p), SECRET(q);
    ecopt_edwards25519_add(&r, &p, &q);
    SECRET(r), SECRET(q);
    ecopt_edwards25519_sub(&r, &r, &q);
    SECRET(r);
    ecopt_edwards25519_neg(&r, &r);
    SECRET(r), SECRET(p);
    ecopt_edwards25519_add(&r, &r, &p); /* -(p + q - q) + p = 0 */
    SECRET(r);
    int id = ecopt_edwards25519_is_identity(&r);
    PUBLIC(id);
    if (!id) fail("-((p + q) - q) + p != identity");

    SECRET(p);
    ecopt_edwards25519_double(&r, &p);
    SECRET(p);
    ecopt_edwards25519_mul_by_cofactor(&x, &p);
    SECRET(p);
    int so = ecopt_edwards25519_is_small_order(&p);
    SECRET(p);
    int tf = ecopt_edwards25519_is_torsion_free(&p);
    PUBLIC(so), PUBLIC(tf);
    if (so || !tf) fail("[s]B: small order or not torsion-free");

    SECRET(p);
    ecopt_edwards25519_encode(enc, &p);
    SECRET(enc);
    int rc = ecopt_edwards25519_decode(&q, enc);
    PUBLIC(rc);
    SECRET(enc);
    int rcz = ecopt_edwards25519_decode_zip215(&r, enc);
    PUBLIC(rcz);
    SECRET(p), SECRET(q);
    eq = ecopt_edwards25519_equal(&p, &q);
    PUBLIC(eq);
    if (rc != ECOPT_OK || rcz != ECOPT_OK || !eq) fail("decode(encode(p)) != p");

    SECRET(p);
    ecopt_edwards25519_to_montgomery_u(u, &p);
    int sign = (int)(enc[31] >> 7);
    SECRET(u), SECRET(sign);
    rc = ecopt_edwards25519_from_montgomery_u(&q, u, sign);
    PUBLIC(rc);
    SECRET(p), SECRET(q);
    eq = ecopt_edwards25519_equal(&p, &q);
    PUBLIC(eq);
    if (rc != ECOPT_OK || !eq) fail("from_montgomery_u(to_montgomery_u(p), sign) != p");
    /* A u on the twist (refused, verdict public) with the same secret marking. */
    uint8_t tw[32] = {2}; /* u = 2: 8 + 4A + 2 is not a square mod p (the twist) */
    SECRET(tw);
    rc = ecopt_edwards25519_from_montgomery_u(&q, tw, 0);
    PUBLIC(rc);
    if (rc != ECOPT_ERR_ENCODING) fail("from_montgomery_u(2) accepted a twist point");
    (void)x;
    memset(s, 0, 32);
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "cpu-check") == 0) {
        tu_check_library_backend();
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [cpu-check]\n", argv[0]);
        return 2;
    }
    tu_check_library_backend();
    if (RUNNING_ON_VALGRIND == 0)
        printf("note: not running under valgrind; the secret markings are no-ops (ctest runs this under valgrind)\n");
    tu_rng rng;
    tu_rng_seed(&rng, 20260102);
    for (int round = 0; round < 3; round++) {
        uint8_t a[32], b[32], wide[64];
        tu_rng_bytes(&rng, a, 32);
        tu_rng_bytes(&rng, b, 32);
        tu_rng_bytes(&rng, wide, 64);
        if (round == 1) memset(a, 0xff, 32), memset(wide, 0xff, 64);
        scalar_round(a, b, wide);
        point_round(a, b);
    }
    if (failures) {
        printf("ct.group: %d failure(s)\n", failures);
        return 1;
    }
    printf("ct.group: scalar and point operations ran with secrets marked undefined\n");
    return 0;
}
