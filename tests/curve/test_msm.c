/* test_msm.c — curve.msm.<backend>: multiscalar multiplication (src/curve/msm.h, include/ecopt/msm.h) of one
 * backend, against sums of single multiplications computed another way:
 *   - the reference: sum of ecopt_ge_scalarmult (the constant-time fixed-window multiplication, s < 2^255; a
 *     scalar s >= 2^255 as [s >> 1] [2] P + [s & 1] P), and for small n the GMP reference (ref_pt_mul, affine
 *     double-and-add);
 *   - n = 0..40, 64, 95, 96, 100, 256, 300, 1000 (the argument big adds 2000 and 4096), random scalars of random bit
 *     density and edge scalars (0, 1, l - 1, l, l + 1, 8 l, 2^255, 2^256 - 1) at random places, points random of
 *     mixed order ([r] B + T, T one of the 8 torsion points), small-order points and the identity among them;
 *   - Straus and Pippenger forced on the same inputs, and the automatic choice, and the public function with a
 *     buffer of ecopt_edwards25519_msm_scratch_size(n) bytes at an odd address (and one byte short: refused);
 *   - the constant-time multiscalar for n = 0..9 (groups of 4 and their sums), on the same kinds of input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "backend.h"
#include "curve/ge.h"
#include "curve/msm.h"
#include "ecopt/ecopt.h"
#include "ecopt/msm.h"
#include "ref25519.h"
#include "testutil.h"
#include "tu_backend.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static long n_checks = 0;
static ecopt_ge_ext torsion[8];
static uint8_t edge[8][32];
#define NEDGE 8

static void enc(uint8_t e[32], const ecopt_ge_ext *p) {
    ecopt_ge_encode(e, p);
}

static int same(const ecopt_ge_ext *a, const ecopt_ge_ext *b) {
    uint8_t x[32], y[32];
    enc(x, a);
    enc(y, b);
    return memcmp(x, y, 32) == 0;
}

/* [s] p for any s < 2^256 from ecopt_ge_scalarmult (which takes s < 2^255). */
static void mul_any(ecopt_ge_ext *r, const ecopt_ge_ext *p, const uint8_t s[32]) {
    if (!(s[31] & 0x80)) {
        ecopt_ge_scalarmult(r, p, s);
        return;
    }
    uint8_t h[32];
    for (int i = 0; i < 32; i++) h[i] = (uint8_t)((s[i] >> 1) | (i < 31 ? s[i + 1] << 7 : 0));
    ecopt_ge_ext p2, t;
    ecopt_ge_cached c;
    ecopt_ge_double(&p2, p, 1);
    ecopt_ge_scalarmult(r, &p2, h);
    if (s[0] & 1) {
        ecopt_ge_cached_from_ext(&c, p);
        t = *r;
        ecopt_ge_add(r, &t, &c);
    }
}

static void ref_sum(ecopt_ge_ext *r, const uint8_t *sc, const ecopt_ge_ext *pts, size_t n) {
    ecopt_ge_identity(r);
    for (size_t i = 0; i < n; i++) {
        ecopt_ge_ext t;
        ecopt_ge_cached c;
        mul_any(&t, &pts[i], sc + 32 * i);
        ecopt_ge_cached_from_ext(&c, &t);
        ecopt_ge_add(r, r, &c);
    }
}

/* The GMP reference: sum [s_i] P_i in affine coordinates, the points through their encodings. */
static void gmp_sum(uint8_t out[32], const uint8_t *sc, const ecopt_ge_ext *pts, size_t n) {
    ref_pt acc, P, T;
    mpz_t k;
    ref_pt_init(&acc), ref_pt_init(&P), ref_pt_init(&T);
    mpz_init(k);
    ref_pt_identity(&acc);
    for (size_t i = 0; i < n; i++) {
        uint8_t e[32];
        enc(e, &pts[i]);
        if (ref_pt_decode(&P, e, 0) != REF_DEC_OK) tu_fail("GMP reference refused an encoding");
        ref_from_le(k, sc + 32 * i, 32);
        ref_pt_mul(&T, k, &P);
        ref_pt_add(&acc, &acc, &T);
    }
    ref_pt_encode(out, &acc);
    ref_pt_clear(&acc), ref_pt_clear(&P), ref_pt_clear(&T);
    mpz_clear(k);
}

static void random_point(tu_rng *rng, ecopt_ge_ext *p) {
    uint64_t kind = tu_rng_below(rng, 16);
    if (kind == 0) {
        ecopt_ge_identity(p);
        return;
    }
    if (kind == 1) {
        *p = torsion[tu_rng_below(rng, 8)];
        return;
    }
    uint8_t s[32];
    tu_rng_bytes(rng, s, 32);
    ecopt_ge_scalarmult_base(p, s);
    if (kind < 8) { /* mixed order */
        ecopt_ge_cached c;
        ecopt_ge_cached_from_ext(&c, &torsion[tu_rng_below(rng, 8)]);
        ecopt_ge_add(p, p, &c);
    }
    /* a projective representative with Z != 1 */
    if (tu_rng_below(rng, 2)) ecopt_ge_double(p, p, 1);
}

static void random_scalar(tu_rng *rng, uint8_t s[32]) {
    uint64_t kind = tu_rng_below(rng, 8);
    if (kind == 0) memcpy(s, edge[tu_rng_below(rng, NEDGE)], 32);
    else if (kind == 1) { /* short: a 128-bit coefficient, as batch verification's */
        memset(s, 0, 32);
        tu_rng_bytes(rng, s, 16);
    } else tu_rng_bytes_density(rng, s, 32);
}

static int check_one(const char *what, size_t n, const ecopt_ge_ext *got, const ecopt_ge_ext *want) {
    n_checks++;
    if (same(got, want)) return 0;
    tu_fail("%s: n = %zu: the multiscalar sum differs from the sum of single multiplications", what, n);
    return 1;
}

static void check_n(tu_rng *rng, size_t n, int with_gmp) {
    uint8_t *sc = calloc(32 * n + 1, 1);
    ecopt_ge_ext *pts = calloc(n + 1, sizeof(ecopt_ge_ext));
    ecopt_edwards25519_point *pub = calloc(n + 1, sizeof(ecopt_edwards25519_point));
    if (!sc || !pts || !pub) {
        tu_fail("out of memory");
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        random_point(rng, &pts[i]);
        random_scalar(rng, sc + 32 * i);
        ecopt_ge_to_public(&pub[i], &pts[i]);
    }
    ecopt_ge_ext want, got;
    ref_sum(&want, sc, pts, n);
    if (with_gmp) {
        uint8_t g[32], w[32];
        gmp_sum(g, sc, pts, n);
        enc(w, &want);
        n_checks++;
        if (tu_expect_bytes("reference sum vs GMP", w, g, 32)) tu_fail("n = %zu", n);
    }
    int bad = 0;
    static const int algos[3] = {MSM_AUTO, MSM_STRAUS, MSM_PIPPENGER};
    static const char *names[3] = {"auto", "Straus", "Pippenger"};
    for (int a = 0; a < 3; a++) {
        size_t len = ecopt_msm_scratch_bytes(n, algos[a]);
        uint8_t *buf = malloc(len + 1);
        ecopt_msm_vartime(&got, sc, pts, n, buf ? buf + 1 : NULL, algos[a]); /* an odd address */
        bad |= check_one(names[a], n, &got, &want);
        free(buf);
    }
    /* the public function: the documented buffer size, then one byte short */
    size_t len = ecopt_edwards25519_msm_scratch_size(n);
    uint8_t *buf = malloc(len + 3);
    ecopt_edwards25519_point out;
    int rc = ecopt_edwards25519_msm_vartime(&out, sc, pub, n, buf ? buf + 3 : NULL, len);
    n_checks++;
    if (rc != ECOPT_OK) tu_fail("ecopt_edwards25519_msm_vartime: n = %zu: returned %d", n, rc);
    ecopt_ge_from_public(&got, &out);
    bad |= check_one("public", n, &got, &want);
    size_t own = ecopt_msm_scratch_bytes(n, MSM_AUTO); /* this backend's need; len is the largest backend's */
    n_checks++;
    if (len < own) tu_fail("msm_scratch_size(%zu) = %zu is below this backend's need %zu", n, len, own);
    if (n > 0) { /* one byte below the public size is refused on every backend, even where its own need is less */
        memset(&out, 0x5a, sizeof out);
        rc = ecopt_edwards25519_msm_vartime(&out, sc, pub, n, buf, len - 1);
        static const ecopt_edwards25519_point zero;
        n_checks++;
        if (rc != ECOPT_ERR_LENGTH || memcmp(&out, &zero, sizeof out) != 0)
            tu_fail("msm_vartime with scratch_len %zu < msm_scratch_size %zu (own need %zu): returned %d, out %s",
                    len - 1, len, own, rc, memcmp(&out, &zero, sizeof out) ? "not zeroed" : "zeroed");
    }
    free(buf);
    if (n <= 12) { /* the constant-time multiscalar */
        ecopt_msm_ct(&got, sc, pts, n);
        bad |= check_one("ct", n, &got, &want);
        rc = ecopt_edwards25519_msm_ct(&out, sc, pub, n);
        n_checks++;
        if (rc != ECOPT_OK) tu_fail("ecopt_edwards25519_msm_ct returned %d", rc);
        ecopt_ge_from_public(&got, &out);
        bad |= check_one("public ct", n, &got, &want);
    }
    if (bad && n <= 4)
        for (size_t i = 0; i < n; i++) {
            uint8_t e[32];
            enc(e, &pts[i]);
            tu_hex_print("point", e, 32);
            tu_hex_print("scalar", sc + 32 * i, 32);
        }
    free(sc);
    free(pts);
    free(pub);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 1);
    const char *want_be = tu_requested_backend();
    if (strcmp(want_be, STR(ECOPT_BE_SUFFIX)) != 0) {
        fprintf(stderr, "FAIL: ECOPT_BACKEND=%s but this binary is compiled for %s\n", want_be, STR(ECOPT_BE_SUFFIX));
        return 1;
    }
    if (!ecopt_fe_backend_available()) {
        printf("SKIP: backend %s is compiled in but not available on this CPU\n", STR(ECOPT_BE_SUFFIX));
        return 77;
    }
    tu_check_library_backend();
    printf("backend: %s\n", STR(ECOPT_BE_SUFFIX));
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    ref_pt T[8];
    for (int i = 0; i < 8; i++) {
        uint8_t e[32];
        ref_pt_init(&T[i]);
        (void)e;
    }
    ref_torsion_points(T);
    for (int i = 0; i < 8; i++) {
        uint8_t e[32];
        ref_pt_encode(e, &T[i]);
        if (!ecopt_ge_decode_zip215(&torsion[i], e)) tu_fail("a torsion point did not decode");
        ref_pt_clear(&T[i]);
    }
    /* edge scalars: 0, 1, l - 1, l, l + 1, 8 l, 2^255, 2^256 - 1 */
    {
        mpz_t v;
        mpz_init(v);
        memset(edge, 0, sizeof edge);
        edge[1][0] = 1;
        mpz_sub_ui(v, ref_l, 1), ref_to_le(edge[2], 32, v);
        ref_to_le(edge[3], 32, ref_l);
        mpz_add_ui(v, ref_l, 1), ref_to_le(edge[4], 32, v);
        mpz_mul_ui(v, ref_l, 8), ref_to_le(edge[5], 32, v);
        edge[6][31] = 0x80;
        memset(edge[7], 0xff, 32);
        mpz_clear(v);
    }
    /* every edge scalar on every kind of point, alone and in pairs */
    for (int e = 0; e < NEDGE; e++)
        for (int rep = 0; rep < 4; rep++) check_n(&rng, 1, 1), check_n(&rng, 2, 1);
    int big = 0;
    for (int a = 0; a < o.argc; a++)
        if (!strcmp(o.argv[a], "big")) big = 1;
    for (long it = 0; it < o.iters; it++) {
        for (size_t n = 0; n <= 40; n++) check_n(&rng, n, n <= 5);
        static const size_t more[] = {64, 95, 96, 100, 256, 300, 1000};
        for (size_t k = 0; k < sizeof more / sizeof more[0]; k++) check_n(&rng, more[k], 0);
        if (big) check_n(&rng, 2000, 0), check_n(&rng, 4096, 0);
    }
    /* all scalars 2^256 - 1 on the same point, and all zero: long runs of equal digits fill one bucket */
    {
        size_t n = 300;
        uint8_t *sc = malloc(32 * n);
        ecopt_ge_ext *pts = malloc(sizeof(ecopt_ge_ext) * n), want, got;
        uint8_t *buf = malloc(ecopt_msm_scratch_bytes(n, MSM_PIPPENGER) + ecopt_msm_scratch_bytes(n, MSM_STRAUS));
        for (int v = 0; v < 2; v++) {
            memset(sc, v ? 0xff : 0, 32 * n);
            random_point(&rng, &pts[0]);
            for (size_t i = 1; i < n; i++) pts[i] = pts[0];
            ref_sum(&want, sc, pts, n);
            ecopt_msm_vartime(&got, sc, pts, n, buf, MSM_PIPPENGER);
            check_one("Pippenger, equal inputs", n, &got, &want);
            ecopt_msm_vartime(&got, sc, pts, n, buf, MSM_STRAUS);
            check_one("Straus, equal inputs", n, &got, &want);
        }
        free(sc), free(pts), free(buf);
    }
    n_checks++;
    if (ecopt_edwards25519_msm_scratch_size(0) != 0) tu_fail("scratch_size(0) is not 0");
    n_checks++;
    if (ecopt_edwards25519_msm_scratch_size(SIZE_MAX / 2) != SIZE_MAX) tu_fail("scratch_size overflow not SIZE_MAX");
    printf("%ld checks\n", n_checks);
    return tu_finish("test_msm");
}
