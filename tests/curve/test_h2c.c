/* test_h2c.c — curve.h2c.<backend>: hash-to-curve for edwards25519 and curve25519 (include/ecopt/hash_to_curve.h,
 * src/curve/h2c_map.h) on one backend.
 *
 * Against RFC 9380's vectors (../shared/vectors/hash-to-curve, read in place):
 *   - expand_message_xmd with SHA-512 (appendix K.2, 10 cases), and the msg_prime of each case rebuilt by the test's
 *     own expander (xmd_ref.h), which is then trusted for the random cases below;
 *   - the four suites edwards25519_XMD:SHA-512_ELL2_{RO,NU}_ and curve25519_XMD:SHA-512_ELL2_{RO,NU}_ (appendix
 *     J.4, J.5, 5 messages each): the field elements u (hash_to_field), the points Q0, Q1 / Q (map_to_curve, before
 *     cofactor clearing) and P (the public functions).
 * Independent checks (GMP, tests/ref; OpenSSL's SHA-512):
 *   - expand_message_xmd against xmd_ref.h on random messages, output lengths 1..16320 and DSTs of 1..300 bytes;
 *     its length errors (outlen over 16320, empty DST) with zeroed outputs;
 *   - hash_to_field's reduction of 48 bytes mod p against mpz_mod;
 *   - Elligator 2 and the rational map written here in mpz from RFC 9380 sections 6.7.1 and 6.8.2 (with a square
 *     root of -486664 found by the reference), against the backend's on random and edge u (0, 1, -1, ...), and the
 *     whole RO and NU pipelines against the mpz version (points added and multiplied by 8 in the reference);
 *   - every output of random messages on its curve and in the subgroup of order l ([l]P = identity), the
 *     curve25519 output the image of the edwards25519 one under u = (1 + y) / (1 - y), and v = NULL allowed. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/ge.h"
#include "curve/h2c_map.h"
#include "ecopt/edwards25519.h"
#include "ecopt/hash_to_curve.h"
#include "ref25519.h"
#include "testutil.h"
#include "tu_backend.h"
#include "xmd_ref.h"

static long n_checks = 0;
static mpz_t J, c1; /* 486662, and the even sqrt(-486664) (found by the reference) */

/* ---- conversions ---------------------------------------------------------------------------------------------- */

static void fe_to_mpz(mpz_t r, const ecopt_fe *f) {
    uint8_t b[32];
    ecopt_fe_tobytes(b, f);
    ref_from_le(r, b, 32);
}

static void fe_from_mpz(ecopt_fe *f, const mpz_t x) {
    uint8_t b[32];
    ref_to_le(b, 32, x);
    ecopt_fe_frombytes(f, b);
}

/* affine (x, y) of an extended point */
static void ge_affine(ref_pt *P, const ecopt_ge_ext *p) {
    ecopt_fe zi, t;
    ecopt_fe_invert(&zi, &p->Z);
    ecopt_fe_mul(&t, &p->X, &zi);
    fe_to_mpz(P->x, &t);
    ecopt_fe_mul(&t, &p->Y, &zi);
    fe_to_mpz(P->y, &t);
}

/* "0x..." big-endian hex (as the RFC prints) into r; exits on malformed input. */
static void json_mpz(mpz_t r, const cJSON *obj, const char *key) {
    const char *s = tu_json_str(obj, key);
    if (s == NULL || strncmp(s, "0x", 2) != 0 || mpz_set_str(r, s + 2, 16) != 0) {
        fprintf(stderr, "malformed field %s\n", key);
        exit(1);
    }
}

static int expect_mpz(const char *what, const mpz_t got, const mpz_t want) {
    n_checks++;
    if (mpz_cmp(got, want) == 0) return 0;
    tu_fail("%s differs", what);
    ref_print("  got ", got);
    ref_print("  want", want);
    return 1;
}

static void expect_pt(const char *what, const ref_pt *got, const ref_pt *want) {
    char w[200];
    snprintf(w, sizeof w, "%s.x", what);
    expect_mpz(w, got->x, want->x);
    snprintf(w, sizeof w, "%s.y", what);
    expect_mpz(w, got->y, want->y);
}

/* ---- the reference maps in mpz (RFC 9380 sections 6.7.1 and 6.8.2, appendix G.2.2's exceptional case) -------- */

static void g_of(mpz_t g, const mpz_t x) {
    mpz_t t;
    mpz_init(t);
    mpz_mul(t, x, x);
    mpz_mul(g, t, x);      /* x^3 */
    mpz_mul(t, t, J);
    mpz_add(g, g, t);      /* + J x^2 */
    mpz_add(g, g, x);      /* + x */
    mpz_mod(g, g, ref_p);
    mpz_clear(t);
}

/* (s, t) = map_to_curve_elligator2(u), Z = 2, K = 1 */
static void ref_elligator2(mpz_t s, mpz_t t, const mpz_t u) {
    mpz_t x1, x2, gx1, gx2, tv;
    mpz_inits(x1, x2, gx1, gx2, tv, NULL);
    mpz_mul(tv, u, u);
    mpz_mul_ui(tv, tv, 2);
    mpz_add_ui(tv, tv, 1);
    mpz_mod(tv, tv, ref_p);
    ref_fe_inv(tv, tv); /* inv0 */
    mpz_neg(x1, J);
    ref_fe_mul(x1, x1, tv);
    if (mpz_sgn(x1) == 0) mpz_sub(x1, ref_p, J);
    g_of(gx1, x1);
    mpz_neg(x2, x1);
    mpz_sub(x2, x2, J);
    mpz_mod(x2, x2, ref_p);
    g_of(gx2, x2);
    if (ref_fe_sqrt(tv, gx1)) { /* even root; sgn0(y) must be 1 */
        mpz_set(s, x1);
        if (mpz_sgn(tv) != 0) mpz_sub(tv, ref_p, tv);
    } else {
        if (!ref_fe_sqrt(tv, gx2)) tu_fail("reference elligator2: neither g(x1) nor g(x2) is a square");
        mpz_set(s, x2); /* even root: sgn0(y) = 0 */
    }
    mpz_set(t, tv);
    mpz_clears(x1, x2, gx1, gx2, tv, NULL);
}

/* edwards25519's map_to_curve: elligator2, then (x, y) = (c1 s / t, (s - 1) / (s + 1)), identity for t = 0 or
 * s = -1 */
static void ref_map_to_edwards(ref_pt *P, const mpz_t u) {
    mpz_t s, t, a, b;
    mpz_inits(s, t, a, b, NULL);
    ref_elligator2(s, t, u);
    mpz_add_ui(a, s, 1);
    mpz_mod(a, a, ref_p);
    if (mpz_sgn(t) == 0 || mpz_sgn(a) == 0) {
        ref_pt_identity(P);
    } else {
        ref_fe_inv(b, t);
        ref_fe_mul(b, b, s);
        ref_fe_mul(P->x, b, c1);
        ref_fe_inv(b, a);
        mpz_sub_ui(a, s, 1);
        mpz_mod(a, a, ref_p);
        ref_fe_mul(P->y, a, b);
    }
    mpz_clears(s, t, a, b, NULL);
}

/* (u, v) of an edwards25519 point (RFC 7748 section 4.1); (0, 0) where x = 0 */
static void ref_to_montgomery(mpz_t u, mpz_t v, const ref_pt *P) {
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    if (mpz_sgn(P->x) == 0) {
        mpz_set_ui(u, 0);
        mpz_set_ui(v, 0);
    } else {
        mpz_add_ui(a, P->y, 1);
        mpz_ui_sub(b, 1, P->y);
        mpz_mod(b, b, ref_p);
        ref_fe_inv(b, b);
        ref_fe_mul(u, a, b);
        ref_fe_inv(b, P->x);
        ref_fe_mul(v, u, b);
        ref_fe_mul(v, v, c1);
    }
    mpz_clears(a, b, NULL);
}

/* the whole suite on field elements: clear_cofactor(sum of the maps) */
static void ref_pipeline(ref_pt *P, mpz_t *u, int count) {
    ref_pt Q;
    ref_pt_init(&Q);
    ref_pt_identity(P);
    for (int i = 0; i < count; i++) {
        ref_map_to_edwards(&Q, u[i]);
        ref_pt_add(P, P, &Q);
    }
    ref_pt_mul_ui(P, 8, P);
    ref_pt_clear(&Q);
}

/* ---- expand_message_xmd ---------------------------------------------------------------------------------------- */

static void test_expand_vectors(void) {
    cJSON *j = tu_load_json(tu_vector_path("hash-to-curve/expand_message_xmd_SHA512_38.json"));
    const char *dst = tu_json_str(j, "DST");
    cJSON *c;
    int count = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "tests")) {
        const char *msg = tu_json_str(c, "msg");
        size_t len = strtoul(tu_json_str(c, "len_in_bytes"), NULL, 16);
        size_t wl, mpl, mplen;
        uint8_t *want = tu_hex_alloc(tu_json_str(c, "uniform_bytes"), &wl);
        uint8_t *mpw = tu_hex_alloc(tu_json_str(c, "msg_prime"), &mpl);
        uint8_t *got = malloc(len), *ref = malloc(len);
        if (want == NULL || mpw == NULL || got == NULL || ref == NULL || wl != len) {
            fprintf(stderr, "expand_message_xmd vector %d malformed\n", count);
            exit(1);
        }
        int rc = ecopt_expand_message_xmd_sha512(got, len, (const uint8_t *)msg, strlen(msg), (const uint8_t *)dst,
                                                 strlen(dst));
        n_checks++;
        if (rc != ECOPT_OK) tu_fail("expand_message_xmd vector %d: rc %d", count, rc);
        if (tu_expect_bytes("expand_message_xmd", got, want, len)) tu_fail("expand_message_xmd vector %d", count);
        /* the test's own expander: the same msg_prime and the same answer */
        uint8_t *mp = xmd_ref_msg_prime(&mplen, (const uint8_t *)msg, strlen(msg), len, (const uint8_t *)dst,
                                        strlen(dst));
        n_checks++;
        if (mplen != mpl || memcmp(mp, mpw, mpl) != 0) tu_fail("xmd_ref_msg_prime differs from vector %d", count);
        xmd_ref_expand(ref, len, (const uint8_t *)msg, strlen(msg), (const uint8_t *)dst, strlen(dst));
        n_checks++;
        if (memcmp(ref, want, len) != 0) tu_fail("xmd_ref_expand differs from vector %d", count);
        free(mp);
        free(want);
        free(mpw);
        free(got);
        free(ref);
        count++;
    }
    if (count != 10) tu_fail("expected 10 expand_message_xmd vectors, read %d", count);
    cJSON_Delete(j);
}

static int all_zero(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

static void test_expand_random(tu_rng *rng, long iters) {
    static const size_t lens[] = {1, 32, 48, 63, 64, 65, 96, 127, 128, 129, 255, 256, 1000, 16319, 16320};
    static const size_t dstlens[] = {1, 2, 16, 64, 254, 255, 256, 257, 300};
    static uint8_t got[16320], ref[16320], msg[600], dst[300];
    for (long it = 0; it < iters; it++) {
        size_t len = lens[it % TU_ARRAY_LEN(lens)];
        size_t dstlen = dstlens[it % TU_ARRAY_LEN(dstlens)];
        size_t msglen = (size_t)tu_rng_below(rng, sizeof msg + 1);
        tu_rng_bytes_density(rng, msg, sizeof msg);
        tu_rng_bytes(rng, dst, sizeof dst);
        int rc = ecopt_expand_message_xmd_sha512(got, len, msglen ? msg : NULL, msglen, dst, dstlen);
        xmd_ref_expand(ref, len, msg, msglen, dst, dstlen);
        n_checks++;
        if (rc != ECOPT_OK || memcmp(got, ref, len) != 0)
            tu_fail("expand_message_xmd len %zu msglen %zu dstlen %zu: rc %d or bytes differ", len, msglen, dstlen,
                    rc);
    }
    /* errors: outlen over 16320 (ell > 255), empty DST; outlen 0 writes nothing */
    static uint8_t big[16321];
    memset(big, 0xa5, sizeof big);
    int rc = ecopt_expand_message_xmd_sha512(big, sizeof big, msg, 3, dst, 10);
    n_checks++;
    if (rc != ECOPT_ERR_LENGTH || !all_zero(big, sizeof big))
        tu_fail("expand_message_xmd outlen 16321: rc %d (expected ECOPT_ERR_LENGTH, zeroed output)", rc);
    memset(got, 0xa5, 64);
    rc = ecopt_expand_message_xmd_sha512(got, 64, msg, 3, dst, 0);
    n_checks++;
    if (rc != ECOPT_ERR_LENGTH || !all_zero(got, 64))
        tu_fail("expand_message_xmd dstlen 0: rc %d (expected ECOPT_ERR_LENGTH, zeroed output)", rc);
    rc = ecopt_expand_message_xmd_sha512(NULL, 0, msg, 3, dst, 10);
    n_checks++;
    if (rc != ECOPT_OK) tu_fail("expand_message_xmd outlen 0: rc %d", rc);
}

/* ---- hash_to_field, Elligator 2, the rational map ----------------------------------------------------------- */

static void test_field_and_maps(tu_rng *rng, long iters) {
    mpz_t x, y, s, t, ua[2];
    ref_pt P, Q;
    mpz_inits(x, y, s, t, ua[0], ua[1], NULL);
    ref_pt_init(&P);
    ref_pt_init(&Q);
    for (long it = 0; it < iters; it++) {
        uint8_t b[48];
        ecopt_fe f, fs, ft;
        tu_rng_bytes_density(rng, b, 48);
        if (it == 0) memset(b, 0xff, 48);
        if (it == 1) memset(b, 0, 48);
        mpz_import(x, 48, 1, 1, 0, 0, b); /* OS2IP: big-endian */
        mpz_mod(x, x, ref_p);
        ecopt_h2c_fe_from_bytes48(&f, b);
        fe_to_mpz(y, &f);
        if (expect_mpz("fe_from_bytes48", y, x)) tu_hex_print("bytes", b, 48);

        /* u: the reduced bytes, then edges 0, 1, -1, 2, (p-1)/2 */
        if (it >= 2 && it <= 6) {
            static const long edge[] = {0, 1, -1, 2};
            if (it <= 5)
                mpz_set_si(x, edge[it - 2]), mpz_mod(x, x, ref_p);
            else
                mpz_sub_ui(x, ref_p, 1), mpz_fdiv_q_2exp(x, x, 1);
        }
        fe_from_mpz(&f, x);
        ecopt_h2c_elligator2(&fs, &ft, &f);
        ref_elligator2(s, t, x);
        fe_to_mpz(y, &fs);
        expect_mpz("elligator2 s", y, s);
        fe_to_mpz(y, &ft);
        expect_mpz("elligator2 t", y, t);

        ecopt_ge_ext q;
        ecopt_h2c_map_to_edwards(&q, &f);
        ge_affine(&P, &q);
        ref_map_to_edwards(&Q, x);
        expect_pt("map_to_edwards", &P, &Q);
        n_checks++;
        if (!ref_pt_on_curve(&P)) tu_fail("map_to_edwards: not on the curve");
        if (tu_failures) {
            ref_print("u", x);
            break;
        }
    }
    mpz_clears(x, y, s, t, ua[0], ua[1], NULL);
    ref_pt_clear(&P);
    ref_pt_clear(&Q);
}

/* ---- the suites: vectors ----------------------------------------------------------------------------------- */

typedef struct suite {
    const char *file;
    int edwards; /* 1: edwards25519, 0: curve25519 */
    int count;   /* 2: RO (hash_to_curve), 1: NU (encode_to_curve) */
} suite;

static const suite suites[] = {
    {"hash-to-curve/edwards25519_XMD_SHA-512_ELL2_RO_.json", 1, 2},
    {"hash-to-curve/edwards25519_XMD_SHA-512_ELL2_NU_.json", 1, 1},
    {"hash-to-curve/curve25519_XMD_SHA-512_ELL2_RO_.json", 0, 2},
    {"hash-to-curve/curve25519_XMD_SHA-512_ELL2_NU_.json", 0, 1},
};

/* out = the suite's result in affine coordinates: (x, y) on edwards25519, (u, v) on curve25519. */
static int run_suite_fn(const suite *su, ref_pt *out, const uint8_t *msg, size_t msglen, const uint8_t *dst,
                        size_t dstlen) {
    int rc;
    if (su->edwards) {
        ecopt_edwards25519_point p;
        ecopt_ge_ext g;
        rc = su->count == 2 ? ecopt_edwards25519_hash_to_curve(&p, msg, msglen, dst, dstlen)
                            : ecopt_edwards25519_encode_to_curve(&p, msg, msglen, dst, dstlen);
        ecopt_ge_from_public(&g, &p);
        ge_affine(out, &g);
    } else {
        uint8_t u[32], v[32], u2[32];
        rc = su->count == 2 ? ecopt_curve25519_hash_to_curve(u, v, msg, msglen, dst, dstlen)
                            : ecopt_curve25519_encode_to_curve(u, v, msg, msglen, dst, dstlen);
        int rc2 = su->count == 2 ? ecopt_curve25519_hash_to_curve(u2, NULL, msg, msglen, dst, dstlen)
                                 : ecopt_curve25519_encode_to_curve(u2, NULL, msg, msglen, dst, dstlen);
        n_checks++;
        if (rc2 != rc || memcmp(u, u2, 32) != 0) tu_fail("curve25519 with v = NULL: a different u");
        ref_from_le(out->x, u, 32);
        ref_from_le(out->y, v, 32);
    }
    return rc;
}

static void test_suite_vectors(void) {
    ref_pt P, Q, W;
    mpz_t u[2], m1, m2;
    ref_pt_init(&P);
    ref_pt_init(&Q);
    ref_pt_init(&W);
    mpz_inits(u[0], u[1], m1, m2, NULL);
    for (size_t si = 0; si < TU_ARRAY_LEN(suites); si++) {
        const suite *su = &suites[si];
        cJSON *j = tu_load_json(tu_vector_path(su->file));
        const char *dst = tu_json_str(j, "dst");
        const char *name = tu_json_str(j, "ciphersuite");
        cJSON *c;
        int count = 0;
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "vectors")) {
            const char *msg = tu_json_str(c, "msg");
            char what[160];
            /* hash_to_field */
            uint8_t uni[96];
            int rc = ecopt_expand_message_xmd_sha512(uni, 48 * (size_t)su->count, (const uint8_t *)msg, strlen(msg),
                                                     (const uint8_t *)dst, strlen(dst));
            n_checks++;
            if (rc != ECOPT_OK) tu_fail("%s: expand rc %d", name, rc);
            cJSON *ul = cJSON_GetObjectItem(c, "u");
            if (!cJSON_IsArray(ul) || cJSON_GetArraySize(ul) != su->count) {
                fprintf(stderr, "%s: malformed u\n", name);
                exit(1);
            }
            for (int i = 0; i < su->count; i++) {
                ecopt_fe f;
                const char *us = cJSON_GetArrayItem(ul, i)->valuestring;
                mpz_set_str(u[i], us + 2, 16);
                ecopt_h2c_fe_from_bytes48(&f, uni + 48 * i);
                fe_to_mpz(m1, &f);
                snprintf(what, sizeof what, "%s msg \"%s\": u[%d]", name, msg, i);
                expect_mpz(what, m1, u[i]);

                /* map_to_curve before clearing: Q0, Q1 (RO) or Q (NU) */
                cJSON *qj = cJSON_GetObjectItem(c, su->count == 2 ? (i == 0 ? "Q0" : "Q1") : "Q");
                json_mpz(W.x, qj, "x");
                json_mpz(W.y, qj, "y");
                ecopt_ge_ext q;
                ecopt_h2c_map_to_edwards(&q, &f);
                if (su->edwards) {
                    ge_affine(&Q, &q);
                } else {
                    uint8_t ub[32], vb[32];
                    ecopt_h2c_to_montgomery(ub, vb, &q);
                    ref_from_le(Q.x, ub, 32);
                    ref_from_le(Q.y, vb, 32);
                }
                snprintf(what, sizeof what, "%s msg \"%s\": Q%d", name, msg, i);
                expect_pt(what, &Q, &W);
            }
            /* P, from the public function */
            rc = run_suite_fn(su, &P, (const uint8_t *)msg, strlen(msg), (const uint8_t *)dst, strlen(dst));
            n_checks++;
            if (rc != ECOPT_OK) tu_fail("%s: rc %d", name, rc);
            cJSON *pj = cJSON_GetObjectItem(c, "P");
            json_mpz(W.x, pj, "x");
            json_mpz(W.y, pj, "y");
            snprintf(what, sizeof what, "%s msg \"%s\": P", name, msg);
            expect_pt(what, &P, &W);
            /* and the mpz pipeline on the same u */
            ref_pipeline(&Q, u, su->count);
            if (!su->edwards) {
                ref_to_montgomery(m1, m2, &Q);
                mpz_set(Q.x, m1);
                mpz_set(Q.y, m2);
            }
            snprintf(what, sizeof what, "%s msg \"%s\": P (mpz pipeline)", name, msg);
            expect_pt(what, &Q, &W);
            count++;
        }
        if (count != 5) tu_fail("%s: expected 5 vectors, read %d", name, count);
        cJSON_Delete(j);
    }
    ref_pt_clear(&P);
    ref_pt_clear(&Q);
    ref_pt_clear(&W);
    mpz_clears(u[0], u[1], m1, m2, NULL);
}

/* ---- the suites: random messages ----------------------------------------------------------------------------- */

static void test_suite_random(tu_rng *rng, long iters) {
    ref_pt P, E, R, id;
    mpz_t m1, m2, u[2], t;
    ref_pt_init(&P);
    ref_pt_init(&E);
    ref_pt_init(&R);
    ref_pt_init(&id);
    ref_pt_identity(&id);
    mpz_inits(m1, m2, u[0], u[1], t, NULL);
    for (long it = 0; it < iters; it++) {
        uint8_t msg[200], dst[300], uni[96];
        size_t msglen = (size_t)tu_rng_below(rng, sizeof msg + 1);
        size_t dstlen = 1 + (size_t)tu_rng_below(rng, sizeof dst);
        tu_rng_bytes(rng, msg, sizeof msg);
        tu_rng_bytes(rng, dst, sizeof dst);
        for (int count = 1; count <= 2; count++) {
            const suite *se = &suites[count == 2 ? 0 : 1], *sc = &suites[count == 2 ? 2 : 3];
            int rc = run_suite_fn(se, &E, msg, msglen, dst, dstlen);
            n_checks++;
            if (rc != ECOPT_OK) tu_fail("edwards suite rc %d", rc);
            n_checks++;
            if (!ref_pt_on_curve(&E)) tu_fail("edwards25519 output not on the curve");
            ref_pt_mul(&R, ref_l, &E);
            n_checks++;
            if (!ref_pt_eq(&R, &id)) tu_fail("edwards25519 output not in the subgroup of order l");
            /* the mpz pipeline on the same u (expand, then mpz_mod of each 48-byte piece) */
            xmd_ref_expand(uni, 48 * (size_t)count, msg, msglen, dst, dstlen);
            for (int i = 0; i < count; i++) {
                mpz_import(u[i], 48, 1, 1, 0, 0, uni + 48 * i);
                mpz_mod(u[i], u[i], ref_p);
            }
            ref_pipeline(&R, u, count);
            expect_pt("edwards25519 output vs the mpz pipeline", &E, &R);

            rc = run_suite_fn(sc, &P, msg, msglen, dst, dstlen);
            n_checks++;
            if (rc != ECOPT_OK) tu_fail("curve25519 suite rc %d", rc);
            /* v^2 = u^3 + J u^2 + u, and the image of the edwards25519 output */
            ref_fe_mul(m1, P.y, P.y);
            g_of(m2, P.x);
            expect_mpz("curve25519 output on the curve", m1, m2);
            ref_to_montgomery(m1, m2, &E);
            expect_mpz("curve25519 u = (1 + y) / (1 - y)", P.x, m1);
            expect_mpz("curve25519 v = c1 u / x", P.y, m2);
        }
        if (tu_failures) {
            tu_hex_print("msg", msg, msglen);
            tu_hex_print("dst", dst, dstlen);
            break;
        }
    }
    /* an empty DST: ECOPT_ERR_LENGTH and zeroed outputs, in every suite */
    ecopt_edwards25519_point p;
    uint8_t ub[32], vb[32], zero[128] = {0};
    for (int count = 1; count <= 2; count++) {
        memset(&p, 0xa5, sizeof p);
        memset(ub, 0xa5, 32);
        memset(vb, 0xa5, 32);
        int r1 = count == 2 ? ecopt_edwards25519_hash_to_curve(&p, (const uint8_t *)"m", 1, zero, 0)
                            : ecopt_edwards25519_encode_to_curve(&p, (const uint8_t *)"m", 1, zero, 0);
        int r2 = count == 2 ? ecopt_curve25519_hash_to_curve(ub, vb, (const uint8_t *)"m", 1, zero, 0)
                            : ecopt_curve25519_encode_to_curve(ub, vb, (const uint8_t *)"m", 1, zero, 0);
        n_checks++;
        if (r1 != ECOPT_ERR_LENGTH || r2 != ECOPT_ERR_LENGTH || memcmp(p.opaque, zero, 128) != 0 ||
            memcmp(ub, zero, 32) != 0 || memcmp(vb, zero, 32) != 0)
            tu_fail("empty DST (count %d): rc %d, %d, expected ECOPT_ERR_LENGTH and zeroed outputs", count, r1, r2);
    }
    ref_pt_clear(&P);
    ref_pt_clear(&E);
    ref_pt_clear(&R);
    ref_pt_clear(&id);
    mpz_clears(m1, m2, u[0], u[1], t, NULL);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 30);
    tu_check_library_backend();
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);

    mpz_inits(J, c1, NULL);
    mpz_set_ui(J, 486662);
    mpz_set_si(c1, -486664);
    mpz_mod(c1, c1, ref_p);
    if (!ref_fe_sqrt(c1, c1)) tu_fail("-486664 is not a square mod p");

    test_expand_vectors();
    test_expand_random(&rng, 4 * o.iters);
    test_field_and_maps(&rng, 10 * o.iters);
    test_suite_vectors();
    test_suite_random(&rng, o.iters);
    mpz_clears(J, c1, NULL);
    printf("%ld checks\n", n_checks);
    return tu_finish("test_h2c");
}
