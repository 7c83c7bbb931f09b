/* test_ct_invert.c — ct.invert.<backend>: constant-time evidence for the field inversions and the square-root chain
 * of one backend (compiled with -DECOPT_FE_BACKEND_<name>=1), under valgrind memcheck.
 *
 * The input element's bytes are marked undefined (ECOPT_CT_SECRET) before each call of ecopt_fe_invert_divsteps,
 * ecopt_fe_invert_fermat, ecopt_fe_invert (the chosen one) and ecopt_fe_pow22523; any branch or memory index on them
 * is a memcheck error and valgrind's exit code fails the test. Results are declassified and checked afterwards
 * (x * (1/x) = 1, the three inversions agree), so a harness that broke the computation would not pass. Inputs: 0,
 * 1, p - 1, p (unreduced), 2^255 - 1, a loose sum and random values.
 *
 * `cpu-check` runs natively first (run_ct.sh): exit 77 when this CPU lacks the backend (valgrind hides ADX from
 * cpuid, so under valgrind the test does not ask). */
#include <stdio.h>
#include <string.h>

#include "ct_valgrind.h"
#include "field/fe.h"
#include "testutil.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static int failures = 0;

static void check_inverse(const char *what, const ecopt_fe *x, const ecopt_fe *inv, int x_is_zero) {
    ecopt_fe t, one;
    ecopt_fe_mul(&t, x, inv);
    ecopt_fe_1(&one);
    uint8_t a[32], b[32];
    ecopt_fe_tobytes(a, &t);
    ecopt_fe_tobytes(b, x_is_zero ? inv : &one); /* 1/0 = 0: then inv itself must be 0 */
    if (x_is_zero) memset(a, 0, 32);
    if (memcmp(a, b, 32) != 0) {
        fprintf(stderr, "FAIL: %s: x * (1/x) != 1\n", what);
        failures++;
    }
}

static void round_on(const uint8_t in[32], int loose, int is_zero) {
    uint8_t b[32];
    ecopt_fe x, h1, h2, h3, h4;
    memcpy(b, in, 32);
    ECOPT_CT_SECRET(b, 32);
    ecopt_fe_frombytes(&x, b);
    if (loose) ecopt_fe_add(&x, &x, &x);
    ecopt_fe_invert_divsteps(&h1, &x);
    ecopt_fe_invert_fermat(&h2, &x);
    ecopt_fe_invert(&h3, &x);
    ecopt_fe_pow22523(&h4, &x);
    ECOPT_CT_PUBLIC(&x, sizeof x);
    ECOPT_CT_PUBLIC(&h1, sizeof h1);
    ECOPT_CT_PUBLIC(&h2, sizeof h2);
    ECOPT_CT_PUBLIC(&h3, sizeof h3);
    ECOPT_CT_PUBLIC(&h4, sizeof h4);
    check_inverse("invert_divsteps", &x, &h1, is_zero);
    check_inverse("invert_fermat", &x, &h2, is_zero);
    check_inverse("invert", &x, &h3, is_zero);
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
    if (RUNNING_ON_VALGRIND == 0)
        printf("note: not running under valgrind; the secret markings are no-ops (ctest runs this under valgrind)\n");
    static const uint8_t p_minus_1[32] = {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    uint8_t b[32];
    memset(b, 0, 32);
    round_on(b, 0, 1); /* 0 */
    b[0] = 1;
    round_on(b, 0, 0); /* 1 */
    round_on(p_minus_1, 0, 0);
    round_on(p_minus_1, 1, 0); /* loose: 2(p - 1) */
    memcpy(b, p_minus_1, 32);
    b[0] = 0xed;
    round_on(b, 0, 1); /* p, unreduced: 0 */
    memset(b, 0xff, 32);
    round_on(b, 0, 0); /* 2^255 - 1 (bit 255 ignored) */
    tu_rng rng;
    tu_rng_seed(&rng, 20261130);
    for (int i = 0; i < 4; i++) {
        tu_rng_bytes(&rng, b, 32);
        round_on(b, i & 1, 0);
    }
    if (failures) {
        printf("ct.invert: %d failure(s)\n", failures);
        return 1;
    }
    printf("ct.invert.%s: invert_divsteps, invert_fermat, invert, pow22523 ran with their input marked undefined\n",
           STR(ECOPT_BE_SUFFIX));
    return 0;
}
