/* test_ct_ristretto.c — ct.ristretto.<backend>, ct.h2c.<backend>: constant-time evidence under valgrind memcheck for
 * ristretto255 and hash-to-curve (include/ecopt/ristretto255.h, hash_to_curve.h).
 *
 * Run as `valgrind --error-exitcode=1 --track-origins=yes test_ct_ristretto ristretto|h2c` with ECOPT_BACKEND set
 * (and ECOPT_BACKEND_FORCE=1, run_ct.sh). Secret inputs are marked undefined (ECOPT_CT_SECRET) before each call,
 * and outputs declared defined (ECOPT_CT_PUBLIC) only after it, so any branch or memory index on them inside the
 * library fails the run. What is secret:
 *   ristretto: the scalar and the point of scalarmult, the scalar of scalarmult_base, the 64 bytes of
 *     from_uniform_bytes, the message and the DST of hash_to_group, the points of encode, equal, add, sub, neg, and
 *     the encoding given to decode (its verdict is public: the library declassifies it, as its contract says);
 *   h2c: the message and the DST of expand_message_xmd and of the four suites (their lengths are public).
 * Results are checked after declassification (scalarmult against repeated addition, decode against encode, the
 * suites' outputs nonzero), so a run that broke the computation would not pass.
 * `cpu-check` runs natively first (run_ct.sh): 77 when this CPU lacks the backend. The harness's own ability to see
 * a leak is ct.harness_leak.<backend>'s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_valgrind.h"
#include "ecopt/edwards25519.h"
#include "ecopt/hash_to_curve.h"
#include "ecopt/ristretto255.h"
#include "testutil.h"
#include "tu_backend.h"

static int failures = 0;

static void fail(const char *what, int rc) {
    fprintf(stderr, "FAIL: %s (rc %d: %s)\n", what, rc, ecopt_strerror(rc));
    failures++;
}

static void ristretto_round(tu_rng *rng) {
    uint8_t s[32], uni[64], msg[100], dst[40], e[32], e2[32];
    ecopt_ristretto255_point g, p, q, r, acc;
    tu_rng_bytes(rng, s, 32);
    tu_rng_bytes(rng, uni, 64);
    tu_rng_bytes(rng, msg, sizeof msg);
    tu_rng_bytes(rng, dst, sizeof dst);
    ecopt_ristretto255_base(&g);

    /* from_uniform_bytes with secret bytes */
    ECOPT_CT_SECRET(uni, 64);
    ecopt_ristretto255_from_uniform_bytes(&p, uni);
    ECOPT_CT_PUBLIC(uni, 64);

    /* scalarmult: secret scalar and secret point; the small scalar 5 checked against additions */
    ECOPT_CT_SECRET(s, 32);
    ECOPT_CT_SECRET(&p, sizeof p);
    ecopt_ristretto255_scalarmult(&q, s, &p);
    ECOPT_CT_SECRET(s, 32);
    ecopt_ristretto255_scalarmult_base(&r, s);
    ECOPT_CT_PUBLIC(s, 32);
    uint8_t five[32] = {5};
    ECOPT_CT_SECRET(five, 32);
    ecopt_ristretto255_scalarmult(&q, five, &p);
    ECOPT_CT_SECRET(five, 32);
    ecopt_ristretto255_scalarmult_base(&r, five);
    ECOPT_CT_PUBLIC(five, 32);
    /* the group operations and encode on secret points */
    ecopt_ristretto255_identity(&acc);
    for (int i = 0; i < 5; i++) ecopt_ristretto255_add(&acc, &acc, &p);
    ecopt_ristretto255_sub(&acc, &acc, &g);
    ecopt_ristretto255_add(&acc, &acc, &g);
    ecopt_ristretto255_neg(&acc, &acc);
    ecopt_ristretto255_neg(&acc, &acc);
    int eq = ecopt_ristretto255_equal(&acc, &q);
    ECOPT_CT_PUBLIC(&eq, sizeof eq);
    if (eq != 1) fail("ristretto255: [5]P differs from P + P + P + P + P", 0);
    ecopt_ristretto255_encode(e, &q);
    ECOPT_CT_PUBLIC(&q, sizeof q);
    ECOPT_CT_PUBLIC(e, 32);

    /* decode of a secret encoding: only the verdict becomes public */
    memcpy(e2, e, 32);
    ECOPT_CT_SECRET(e2, 32);
    int rc = ecopt_ristretto255_decode(&p, e2);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    if (rc != ECOPT_OK) fail("ristretto255_decode of an encoding", rc);
    ecopt_ristretto255_encode(e2, &p);
    ECOPT_CT_PUBLIC(e2, 32);
    if (memcmp(e, e2, 32) != 0) fail("ristretto255: decode(encode(P)) re-encodes differently", 0);
    e2[0] ^= 1; /* odd: negative, refused */
    ECOPT_CT_SECRET(e2, 32);
    rc = ecopt_ristretto255_decode(&p, e2);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    if (rc != ECOPT_ERR_ENCODING) fail("ristretto255_decode of a negative s", rc);

    /* hash_to_group with a secret message and DST */
    ECOPT_CT_SECRET(msg, sizeof msg);
    ECOPT_CT_SECRET(dst, sizeof dst);
    rc = ecopt_ristretto255_hash_to_group(&p, msg, sizeof msg, dst, sizeof dst);
    ECOPT_CT_PUBLIC(&rc, sizeof rc);
    ECOPT_CT_PUBLIC(&p, sizeof p);
    if (rc != ECOPT_OK) fail("ristretto255_hash_to_group", rc);
}

static void h2c_round(tu_rng *rng) {
    uint8_t msg[150], dst[300], out[200], u[32], v[32];
    ecopt_edwards25519_point p;
    tu_rng_bytes(rng, msg, sizeof msg);
    tu_rng_bytes(rng, dst, sizeof dst);
    /* a DST of 40 bytes, and one over 255 (hashed first) */
    for (int k = 0; k < 2; k++) {
        size_t dstlen = k ? sizeof dst : 40;
        int rc[5];
        ECOPT_CT_SECRET(msg, sizeof msg);
        ECOPT_CT_SECRET(dst, sizeof dst);
        rc[0] = ecopt_expand_message_xmd_sha512(out, sizeof out, msg, sizeof msg, dst, dstlen);
        rc[1] = ecopt_edwards25519_hash_to_curve(&p, msg, sizeof msg, dst, dstlen);
        rc[2] = ecopt_edwards25519_encode_to_curve(&p, msg, sizeof msg, dst, dstlen);
        rc[3] = ecopt_curve25519_hash_to_curve(u, v, msg, sizeof msg, dst, dstlen);
        rc[4] = ecopt_curve25519_encode_to_curve(u, v, msg, sizeof msg, dst, dstlen);
        ECOPT_CT_PUBLIC(msg, sizeof msg);
        ECOPT_CT_PUBLIC(dst, sizeof dst);
        ECOPT_CT_PUBLIC(rc, sizeof rc);
        ECOPT_CT_PUBLIC(out, sizeof out);
        ECOPT_CT_PUBLIC(&p, sizeof p);
        ECOPT_CT_PUBLIC(u, 32);
        ECOPT_CT_PUBLIC(v, 32);
        for (int i = 0; i < 5; i++)
            if (rc[i] != ECOPT_OK) fail("hash-to-curve call", rc[i]);
        int zero = 1;
        for (int i = 0; i < 32; i++) zero &= u[i] == 0;
        if (zero) fail("curve25519_encode_to_curve gave u = 0", 0);
    }
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "cpu-check") == 0) {
        tu_check_library_backend();
        return 0;
    }
    if (argc != 2 || (strcmp(argv[1], "ristretto") != 0 && strcmp(argv[1], "h2c") != 0)) {
        fprintf(stderr, "usage: %s ristretto | h2c | cpu-check\n", argv[0]);
        return 2;
    }
    tu_check_library_backend();
    if (RUNNING_ON_VALGRIND == 0)
        printf("note: not running under valgrind; the secret markings are no-ops (ctest runs this under valgrind)\n");
    tu_rng rng;
    tu_rng_seed(&rng, 20260102);
    for (int round = 0; round < 2; round++) {
        if (strcmp(argv[1], "ristretto") == 0)
            ristretto_round(&rng);
        else
            h2c_round(&rng);
    }
    if (failures) {
        fprintf(stderr, "test_ct_group %s: %d failures\n", argv[1], failures);
        return 1;
    }
    printf("test_ct_group %s: OK\n", argv[1]);
    return 0;
}
