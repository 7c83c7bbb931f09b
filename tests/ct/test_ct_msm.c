/* test_ct_msm.c — ct.msm.<backend>: constant-time evidence for the constant-time multiscalar multiplication
 * (src/curve/msm.h's ecopt_msm_ct, and the public ecopt_edwards25519_msm_ct of include/ecopt/msm.h) under
 * valgrind memcheck: the scalars and the points are marked undefined (ECOPT_CT_SECRET) before each call and the
 * result declared defined after (ECOPT_CT_PUBLIC); any branch or memory index on them inside the library is a
 * memcheck error, which valgrind's exit code turns into a failure. n = 1..6 (one group of 4, and groups added up),
 * scalars random and at the edges (0, 2^256 - 1), points of mixed order and the identity. The results are checked
 * after declassification against the sum of ecopt_ge_scalarmult, so a harness that broke the computation would not
 * pass silently. `cpu-check` only checks, natively, that the backend runs on this CPU (run_ct.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_valgrind.h"
#include "curve/ge.h"
#include "curve/msm.h"
#include "ecopt/ecopt.h"
#include "ecopt/msm.h"
#include "testutil.h"
#include "tu_backend.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static int failures = 0;

static void check(const char *what, size_t n, const uint8_t *sc, const ecopt_ge_ext *pts, const ecopt_ge_ext *got) {
    ecopt_ge_ext want, t;
    ecopt_ge_cached c;
    uint8_t a[32], b[32];
    ecopt_ge_identity(&want);
    for (size_t i = 0; i < n; i++) {
        uint8_t s[32];
        memcpy(s, sc + 32 * i, 32);
        s[31] &= 0x7f; /* ecopt_ge_scalarmult takes s < 2^255: the scalars here keep bit 255 clear */
        ecopt_ge_scalarmult(&t, &pts[i], s);
        ecopt_ge_cached_from_ext(&c, &t);
        ecopt_ge_add(&want, &want, &c);
    }
    ecopt_ge_encode(a, got);
    ecopt_ge_encode(b, &want);
    if (memcmp(a, b, 32) != 0) {
        fprintf(stderr, "FAIL: %s, n = %zu: wrong sum\n", what, n);
        failures++;
    }
}

int main(int argc, char **argv) {
    const char *want = tu_requested_backend();
    if (strcmp(want, STR(ECOPT_BE_SUFFIX)) != 0) {
        fprintf(stderr, "FAIL: ECOPT_BACKEND=%s but this binary is compiled for %s\n", want, STR(ECOPT_BE_SUFFIX));
        return 1;
    }
    if (argc == 2 && strcmp(argv[1], "cpu-check") == 0) {
        if (!ecopt_fe_backend_available()) {
            printf("SKIP: backend %s is compiled in but not available on this CPU\n", STR(ECOPT_BE_SUFFIX));
            return 77;
        }
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
    tu_rng_seed(&rng, 26);
    ecopt_ge_ext pts[6], got;
    ecopt_edwards25519_point pub[6], out;
    uint8_t sc[6 * 32];
    for (int i = 0; i < 6; i++) {
        uint8_t s[32];
        tu_rng_bytes(&rng, s, 32);
        if (i == 5) ecopt_ge_identity(&pts[i]);
        else ecopt_ge_scalarmult_base(&pts[i], s);
        if (i == 2) { /* mixed order: + a point of order 4 (y = 0) */
            ecopt_ge_ext t4;
            ecopt_ge_cached c;
            static const uint8_t y0[32] = {0};
            if (!ecopt_ge_decode_zip215(&t4, y0)) failures++;
            ecopt_ge_cached_from_ext(&c, &t4);
            ecopt_ge_add(&pts[i], &pts[i], &c);
        }
        ecopt_ge_to_public(&pub[i], &pts[i]);
        tu_rng_bytes(&rng, sc + 32 * i, 32);
        sc[32 * i + 31] &= 0x7f;
    }
    memset(sc + 32, 0, 32);       /* a zero scalar */
    memset(sc + 96, 0xff, 31);    /* the largest the reference takes, 2^255 - 1 */
    sc[96 + 31] = 0x7f;
    for (size_t n = 1; n <= 6; n++) {
        ECOPT_CT_SECRET(sc, sizeof sc);
        ECOPT_CT_SECRET(pts, sizeof pts);
        ecopt_msm_ct(&got, sc, pts, n);
        ECOPT_CT_PUBLIC(&got, sizeof got);
        ECOPT_CT_PUBLIC(sc, sizeof sc);
        ECOPT_CT_PUBLIC(pts, sizeof pts);
        check("ecopt_msm_ct", n, sc, pts, &got);

        ECOPT_CT_SECRET(sc, sizeof sc);
        ECOPT_CT_SECRET(pub, sizeof pub);
        int rc = ecopt_edwards25519_msm_ct(&out, sc, pub, n);
        ECOPT_CT_PUBLIC(&rc, sizeof rc);
        ECOPT_CT_PUBLIC(&out, sizeof out);
        ECOPT_CT_PUBLIC(sc, sizeof sc);
        ECOPT_CT_PUBLIC(pub, sizeof pub);
        if (rc != ECOPT_OK) failures++;
        ecopt_ge_from_public(&got, &out);
        check("ecopt_edwards25519_msm_ct", n, sc, pts, &got);
    }
    if (failures) fprintf(stderr, "test_ct_msm: %d failure(s)\n", failures);
    else printf("test_ct_msm: OK (%s)\n", STR(ECOPT_BE_SUFFIX));
    return failures ? 1 : 0;
}
