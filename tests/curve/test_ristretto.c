/* test_ristretto.c — curve.ristretto.<backend>: ristretto255 (include/ecopt/ristretto255.h, src/curve/ristretto.h)
 * on one backend.
 *
 * Against RFC 9496 appendix A (../shared/vectors/ristretto255/ristretto255.json, read in place):
 *   - the 16 encodings of [i]B: decode, re-encode, and the same bytes from i additions of the generator, from
 *     scalarmult_base(i) and from scalarmult(i, G);
 *   - the 29 bad encodings: decode refuses each (ECOPT_ERR_ENCODING, output zeroed);
 *   - the 11 from_uniform_bytes vectors, and for the 7 whose input is SHA-512 of a label, that label hashed with
 *     OpenSSL;
 *   - the 6 SQRT_RATIO_M1 vectors on the internal function.
 * Independent checks (the GMP reference of tests/ref, OpenSSL's SHA-512):
 *   - scalarmult and scalarmult_base against GMP double-and-add on edwards25519, compared as ristretto elements,
 *     with canonical and non-canonical scalars (up to 2^256 - 1, reduced mod l by the reference);
 *   - decode(encode(P)) == P and encode(decode(encode(P))) == encode(P) on random elements; decode's verdict and
 *     point on random strings against section 4.3.1 written here in mpz (and encode(decode(s)) == s when accepted);
 *   - the four representatives P + T, T in the 4-torsion (GMP's torsion points), are equal and encode alike;
 *     P + T8 (an odd torsion point) and P + G are not equal to P;
 *   - add, sub, neg against each other and against the reference, with r aliasing the inputs;
 *   - hash_to_group against expand_message_xmd written in the test (xmd_ref.h) over OpenSSL's SHA-512,
 *     then from_uniform_bytes; its DST rules (0 refused, over 255 hashed with "H2C-OVERSIZE-DST-"). */
#include <cjson/cJSON.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/ge.h"
#include "curve/ristretto.h"
#include "ecopt/edwards25519.h"
#include "ecopt/msm.h"
#include "ecopt/ristretto255.h"
#include "ref25519.h"
#include "testutil.h"
#include "tu_backend.h"
#include "xmd_ref.h"

static long n_checks = 0;

/* The public point's layout is four canonical coordinates (ristretto255.h, edwards25519.h): the internal
 * conversion of the edwards type applies. */
static void pt_from_ge(ecopt_ristretto255_point *r, const ecopt_ge_ext *p) {
    ecopt_edwards25519_point e;
    ecopt_ge_to_public(&e, p);
    memcpy(r->opaque, e.opaque, 128);
}

static void ge_from_pt(ecopt_ge_ext *r, const ecopt_ristretto255_point *p) {
    ecopt_edwards25519_point e;
    memcpy(e.opaque, p->opaque, 128);
    ecopt_ge_from_public(r, &e);
}

/* The reference point P as an ecopt point (through its Ed25519 encoding, which ecopt_ge_decode reads). */
static void ge_from_ref(ecopt_ge_ext *r, const ref_pt *P) {
    uint8_t e[32];
    ref_pt_encode(e, P);
    if (ecopt_ge_decode(r, e) != 1) tu_fail("ge_decode refused a reference point");
}

static void pt_from_ref(ecopt_ristretto255_point *r, const ref_pt *P) {
    ecopt_ge_ext g;
    ge_from_ref(&g, P);
    pt_from_ge(r, &g);
}

static void expect_equal(const char *what, const ecopt_ristretto255_point *a, const ecopt_ristretto255_point *b,
                         int want) {
    n_checks++;
    int got = ecopt_ristretto255_equal(a, b);
    if (got != want) tu_fail("%s: ristretto255_equal = %d, expected %d", what, got, want);
}

static void expect_enc(const char *what, const ecopt_ristretto255_point *p, const uint8_t want[32]) {
    uint8_t got[32];
    ecopt_ristretto255_encode(got, p);
    n_checks++;
    if (tu_expect_bytes(what, got, want, 32)) tu_fail("%s: wrong encoding", what);
}

/* ---- RFC 9496 appendix A ------------------------------------------------------------------------------------ */

static void test_vectors(void) {
    cJSON *j = tu_load_json(tu_vector_path("ristretto255/ristretto255.json"));
    cJSON *c;
    ecopt_ristretto255_point g, acc, p, q;
    ecopt_ristretto255_base(&g);
    ecopt_ristretto255_identity(&acc);
    int count = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "multiples_of_generator")) {
        uint8_t enc[32], s[32] = {0};
        int i = (int)cJSON_GetObjectItem(c, "multiple")->valuedouble;
        char what[64];
        tu_json_hex_fixed(enc, 32, c, "encoding");
        snprintf(what, sizeof what, "[%d]G", i);
        if (i != count) tu_fail("multiples_of_generator out of order at %d", i);
        int rc = ecopt_ristretto255_decode(&p, enc);
        n_checks++;
        if (rc != ECOPT_OK) tu_fail("%s: decode = %d", what, rc);
        expect_enc(what, &p, enc);
        expect_enc(what, &acc, enc); /* i additions of G */
        expect_equal(what, &p, &acc, 1);
        s[0] = (uint8_t)i;
        ecopt_ristretto255_scalarmult_base(&q, s);
        expect_enc(what, &q, enc);
        ecopt_ristretto255_scalarmult(&q, s, &g);
        expect_enc(what, &q, enc);
        ecopt_ristretto255_add(&acc, &acc, &g);
        count++;
    }
    if (count != 16) tu_fail("expected 16 multiples of the generator, read %d", count);

    count = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "invalid_encodings")) {
        uint8_t enc[32], zero[128] = {0};
        ecopt_ge_ext r;
        tu_json_hex_fixed(enc, 32, c, "encoding");
        memset(&p, 0xa5, sizeof p);
        int rc = ecopt_ristretto255_decode(&p, enc);
        n_checks++;
        if (rc != ECOPT_ERR_ENCODING || memcmp(p.opaque, zero, 128) != 0) {
            tu_fail("bad encoding %d (%s) accepted: rc %d", count, tu_json_str(c, "reason"), rc);
            tu_hex_print("encoding", enc, 32);
        }
        if (ecopt_ristretto_decode(&r, enc) != 0) tu_fail("internal decode accepted bad encoding %d", count);
        count++;
    }
    if (count != 29) tu_fail("expected 29 invalid encodings, read %d", count);

    count = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "from_uniform_bytes")) {
        uint8_t in[64], out[32];
        tu_json_hex_fixed(in, 64, c, "input");
        tu_json_hex_fixed(out, 32, c, "output");
        ecopt_ristretto255_from_uniform_bytes(&p, in);
        expect_enc("from_uniform_bytes", &p, out);
        cJSON *label = cJSON_GetObjectItem(c, "input_is_sha512_of_ascii");
        if (label != NULL && cJSON_IsString(label)) {
            uint8_t h[64];
            SHA512((const unsigned char *)label->valuestring, strlen(label->valuestring), h);
            n_checks++;
            if (tu_expect_bytes("SHA-512(label)", h, in, 64)) tu_fail("label %s", label->valuestring);
        }
        count++;
    }
    if (count != 11) tu_fail("expected 11 from_uniform_bytes vectors, read %d", count);

    count = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "sqrt_ratio_m1")) {
        uint8_t ub[32], vb[32], rb[32], got[32];
        ecopt_fe u, v, r;
        tu_json_hex_fixed(ub, 32, c, "u");
        tu_json_hex_fixed(vb, 32, c, "v");
        tu_json_hex_fixed(rb, 32, c, "r");
        int want_sq = cJSON_IsTrue(cJSON_GetObjectItem(c, "was_square"));
        ecopt_fe_frombytes(&u, ub);
        ecopt_fe_frombytes(&v, vb);
        uint64_t sq = ecopt_ristretto_sqrt_ratio_m1(&r, &u, &v);
        ecopt_fe_tobytes(got, &r);
        n_checks++;
        if ((int)sq != want_sq) tu_fail("sqrt_ratio_m1 %d: was_square %d, expected %d", count, (int)sq, want_sq);
        if (tu_expect_bytes("sqrt_ratio_m1 r", got, rb, 32)) tu_fail("sqrt_ratio_m1 %d", count);
        count++;
    }
    if (count != 6) tu_fail("expected 6 sqrt_ratio_m1 vectors, read %d", count);
    cJSON_Delete(j);
}

/* ---- independent checks ---------------------------------------------------------------------------------------- */

/* A random element: [k]B in the reference, plus a 4-torsion point when t4 (so the representative is not the one
 * in the prime-order subgroup). */
static void random_ref_point(ref_pt *P, tu_rng *rng, const ref_pt T[8], int t4) {
    uint8_t kb[64];
    mpz_t k;
    ref_pt B;
    mpz_init(k);
    ref_pt_init(&B);
    ref_pt_base(&B);
    tu_rng_bytes(rng, kb, 32);
    ref_from_le(k, kb, 32);
    ref_pt_mul(P, k, &B);
    if (t4) ref_pt_add(P, P, &T[2 * tu_rng_below(rng, 4)]);
    ref_pt_clear(&B);
    mpz_clear(k);
}

static void test_scalarmult(tu_rng *rng, long iters, const ref_pt T[8]) {
    ref_pt P, R, B;
    mpz_t k;
    ref_pt_init(&P);
    ref_pt_init(&R);
    ref_pt_init(&B);
    mpz_init(k);
    ref_pt_base(&B);
    for (long it = 0; it < iters; it++) {
        uint8_t s[32];
        ecopt_ristretto255_point p, r, want;
        /* random scalars, then the edges: 0, l - 1, l, l + 1, 2^255 - 1, 2^256 - 1 */
        tu_rng_bytes_density(rng, s, 32);
        if (it < 6) {
            mpz_set_ui(k, 0);
            if (it >= 1 && it <= 3) mpz_set(k, ref_l);
            if (it == 1) mpz_sub_ui(k, k, 1);
            if (it == 3) mpz_add_ui(k, k, 1);
            if (it == 4) mpz_sub_ui(k, ref_2_255, 1);
            if (it == 5) mpz_sub_ui(k, ref_2_256, 1);
            ref_to_le(s, 32, k);
        }
        ref_from_le(k, s, 32);
        random_ref_point(&P, rng, T, 1);
        pt_from_ref(&p, &P);
        ref_pt_mul(&R, k, &P);
        pt_from_ref(&want, &R);
        ecopt_ristretto255_scalarmult(&r, s, &p);
        expect_equal("scalarmult vs GMP", &r, &want, 1);
        ecopt_ristretto255_scalarmult(&p, s, &p); /* r == p */
        expect_equal("scalarmult (r == p) vs GMP", &p, &want, 1);
        ref_pt_mul(&R, k, &B);
        pt_from_ref(&want, &R);
        ecopt_ristretto255_scalarmult_base(&r, s);
        expect_equal("scalarmult_base vs GMP", &r, &want, 1);
        if (tu_failures) {
            tu_hex_print("scalar", s, 32);
            break;
        }
    }
    mpz_clear(k);
    ref_pt_clear(&P);
    ref_pt_clear(&R);
    ref_pt_clear(&B);
}

static void test_roundtrip_and_classes(tu_rng *rng, long iters, const ref_pt T[8]) {
    ref_pt P, Q, S;
    ref_pt_init(&P);
    ref_pt_init(&Q);
    ref_pt_init(&S);
    for (long it = 0; it < iters; it++) {
        ecopt_ristretto255_point p, q, d, rep[4], g, x;
        uint8_t e[32], e2[32];
        random_ref_point(&P, rng, T, 0);
        pt_from_ref(&p, &P);
        ecopt_ristretto255_encode(e, &p);
        n_checks++;
        if (ecopt_ristretto255_decode(&d, e) != ECOPT_OK) tu_fail("decode(encode(P)) refused");
        expect_equal("decode(encode(P)) == P", &d, &p, 1);
        ecopt_ristretto255_encode(e2, &d);
        n_checks++;
        if (tu_expect_bytes("encode(decode(encode(P)))", e2, e, 32)) tu_fail("re-encoding differs");

        /* P + T for the four 4-torsion points T = T8[0], T8[2], T8[4], T8[6] */
        for (int i = 0; i < 4; i++) {
            ref_pt_add(&Q, &P, &T[2 * i]);
            pt_from_ref(&rep[i], &Q);
            expect_enc("encode(P + T4)", &rep[i], e);
        }
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < 4; k++) expect_equal("P + T4[i] == P + T4[k]", &rep[i], &rep[k], 1);
        /* not equal: P + G and [2]P; equal: [2](P + T8) and [2]P, T8 of order 8 ([2]T8 is in the 4-torsion) */
        ecopt_ristretto255_base(&g);
        ecopt_ristretto255_add(&q, &p, &g);
        expect_equal("P + G != P", &q, &p, 0);
        ecopt_ristretto255_add(&q, &p, &p);
        expect_equal("[2]P != P", &q, &p, 0);
        ref_pt_add(&Q, &P, &T[1]);
        pt_from_ref(&x, &Q);
        ecopt_ristretto255_add(&x, &x, &x);
        expect_equal("[2](P + T8) == [2]P", &x, &q, 1);

        /* add, sub, neg against the reference and each other, with aliasing */
        random_ref_point(&Q, rng, T, 1);
        pt_from_ref(&q, &Q);
        ref_pt_add(&S, &P, &Q);
        pt_from_ref(&x, &S);
        ecopt_ristretto255_add(&d, &p, &q);
        expect_equal("add vs GMP", &d, &x, 1);
        ecopt_ristretto255_sub(&d, &d, &q); /* r == p */
        expect_equal("(P + Q) - Q == P", &d, &p, 1);
        ecopt_ristretto255_neg(&d, &q);
        ecopt_ristretto255_add(&d, &p, &d);
        ref_pt_neg(&S, &Q);
        ref_pt_add(&S, &P, &S);
        pt_from_ref(&x, &S);
        expect_equal("P + (-Q) vs GMP", &d, &x, 1);
        ecopt_ristretto255_sub(&q, &p, &q); /* r == q */
        expect_equal("P - Q vs GMP", &q, &x, 1);
        ecopt_ristretto255_neg(&q, &p);
        ecopt_ristretto255_add(&q, &q, &p);
        ecopt_ristretto255_identity(&x);
        expect_equal("-P + P == identity", &q, &x, 1);
        static const uint8_t zero[32] = {0};
        expect_enc("encode(-P + P)", &q, zero);
        if (tu_failures) {
            tu_hex_print("encode(P)", e, 32);
            break;
        }
    }
    ref_pt_clear(&P);
    ref_pt_clear(&Q);
    ref_pt_clear(&S);
}

/* RFC 9496 section 4.3.1 in mpz, from the RFC's steps (the non-negative root is the even one ref_fe_sqrt gives):
 * 1 and the affine (x, y) when in decodes, else 0. */
static int ref_ristretto_decode(mpz_t x, mpz_t y, const uint8_t in[32]) {
    mpz_t s, ss, u1, u2, u2sq, v, w, inv, dx, dy, t;
    int ok = 1;
    mpz_inits(s, ss, u1, u2, u2sq, v, w, inv, dx, dy, t, NULL);
    ref_from_le(s, in, 32);
    if (mpz_cmp(s, ref_p) >= 0 || mpz_odd_p(s)) ok = 0;
    if (ok) {
        ref_fe_mul(ss, s, s);
        mpz_ui_sub(u1, 1, ss);
        mpz_mod(u1, u1, ref_p);
        mpz_add_ui(u2, ss, 1);
        mpz_mod(u2, u2, ref_p);
        ref_fe_mul(u2sq, u2, u2);
        ref_fe_mul(v, u1, u1);
        ref_fe_mul(v, v, ref_d);
        mpz_neg(v, v);
        mpz_sub(v, v, u2sq);
        mpz_mod(v, v, ref_p);
        ref_fe_mul(w, v, u2sq);
        ref_fe_inv(w, w);
        /* 1 / sqrt(v u2^2): none when v u2^2 = 0 or not a square */
        if (mpz_sgn(w) == 0 || !ref_fe_sqrt(inv, w)) ok = 0;
    }
    if (ok) {
        ref_fe_mul(dx, inv, u2);
        ref_fe_mul(dy, inv, dx);
        ref_fe_mul(dy, dy, v);
        mpz_mul_ui(x, s, 2);
        ref_fe_mul(x, x, dx);
        if (mpz_odd_p(x)) mpz_sub(x, ref_p, x);
        ref_fe_mul(y, u1, dy);
        ref_fe_mul(t, x, y);
        if (mpz_odd_p(t) || mpz_sgn(y) == 0) ok = 0;
    }
    mpz_clears(s, ss, u1, u2, u2sq, v, w, inv, dx, dy, t, NULL);
    return ok;
}

/* decode's verdict and point on random strings against the mpz decoder: bit 255 and bit 0 each cleared half of the
 * time, so that the square-root and sign rules are reached often. */
static void test_decode_random(tu_rng *rng, long iters) {
    mpz_t x, y, gx;
    long accepted = 0;
    mpz_inits(x, y, gx, NULL);
    for (long it = 0; it < iters; it++) {
        uint8_t in[32], b[32];
        ecopt_ge_ext r;
        tu_rng_bytes_density(rng, in, 32);
        if (it & 1) in[31] &= 0x7f;
        if (it & 2) in[0] &= 0xfe;
        int want = ref_ristretto_decode(x, y, in);
        int got = ecopt_ristretto_decode(&r, in);
        n_checks++;
        if (got != want) {
            tu_fail("ristretto decode verdict %d, mpz decoder %d", got, want);
            tu_hex_print("encoding", in, 32);
            break;
        }
        if (!got) continue;
        accepted++;
        ecopt_fe_tobytes(b, &r.X);
        ref_from_le(gx, b, 32);
        n_checks++;
        if (mpz_cmp(gx, x) != 0) tu_fail("ristretto decode: x differs from the mpz decoder's");
        ecopt_fe_tobytes(b, &r.Y);
        ref_from_le(gx, b, 32);
        n_checks++;
        if (mpz_cmp(gx, y) != 0) tu_fail("ristretto decode: y differs from the mpz decoder's");
        uint8_t e[32];
        ecopt_ristretto_encode(e, &r);
        n_checks++;
        if (memcmp(e, in, 32) != 0) tu_fail("ristretto encode(decode(s)) != s for an accepted s");
    }
    n_checks++;
    if (accepted < iters / 50) tu_fail("only %ld of %ld random strings decoded: the test reaches too little", accepted,
                                       iters);
    mpz_clears(x, y, gx, NULL);
}

static void test_hash_to_group(tu_rng *rng, long iters) {
    static const size_t dstlens[] = {1, 16, 38, 255, 256, 300};
    for (long it = 0; it < iters; it++) {
        uint8_t msg[300], dst[300], uni[64];
        size_t msglen = (size_t)tu_rng_below(rng, sizeof msg + 1);
        size_t dstlen = dstlens[it % TU_ARRAY_LEN(dstlens)];
        tu_rng_bytes(rng, msg, sizeof msg);
        tu_rng_bytes(rng, dst, sizeof dst);
        ecopt_ristretto255_point got, want;
        int rc = ecopt_ristretto255_hash_to_group(&got, msglen ? msg : NULL, msglen, dst, dstlen);
        n_checks++;
        if (rc != ECOPT_OK) tu_fail("hash_to_group = %d", rc);
        xmd_ref_expand(uni, 64, msg, msglen, dst, dstlen);
        ecopt_ristretto255_from_uniform_bytes(&want, uni);
        uint8_t w[32];
        ecopt_ristretto255_encode(w, &want);
        char what[96];
        snprintf(what, sizeof what, "hash_to_group msglen %zu dstlen %zu", msglen, dstlen);
        expect_enc(what, &got, w);
    }
    /* dstlen 0: RFC 9380 section 3.1, ECOPT_ERR_LENGTH with the output zeroed */
    ecopt_ristretto255_point p;
    uint8_t zero[128] = {0};
    memset(&p, 0x5a, sizeof p);
    int rc = ecopt_ristretto255_hash_to_group(&p, (const uint8_t *)"abc", 3, (const uint8_t *)"", 0);
    n_checks++;
    if (rc != ECOPT_ERR_LENGTH || memcmp(p.opaque, zero, 128) != 0)
        tu_fail("hash_to_group with an empty DST: rc %d (expected ECOPT_ERR_LENGTH, zeroed output)", rc);
}

static void test_sizes(void) {
    n_checks++;
    if (ecopt_ristretto255_bytes() != 32 || ecopt_ristretto255_scalarbytes() != 32 ||
        ecopt_ristretto255_uniformbytes() != 64 || sizeof(ecopt_ristretto255_point) != 128)
        tu_fail("size getters");
    /* the identity's public bytes are the library's (0 : 1 : 1 : 0) in every backend */
    ecopt_ristretto255_point a, b;
    ecopt_ge_ext id;
    ecopt_ge_identity(&id);
    pt_from_ge(&a, &id);
    ecopt_ristretto255_identity(&b);
    n_checks++;
    if (memcmp(a.opaque, b.opaque, 128) != 0) tu_fail("identity's bytes differ from ge_identity's");
    ecopt_ge_ext g;
    ge_from_pt(&g, &b);
    n_checks++;
    if (!ecopt_ge_is_identity(&g)) tu_fail("identity is not the neutral point");
}

/* ecopt_ristretto255_msm_vartime and _double_scalarmult_vartime against sums of ecopt_ristretto255_scalarmult
 * (constant time, reduces mod l first) and scalarmult_base: random elements (from_uniform_bytes), scalars of any
 * 256-bit value (0 and 2^256 - 1 among them), n = 0..40, 100;
 * compared with ecopt_ristretto255_equal and through the encodings. The scratch of the public size, and one
 * byte short (ERR_LENGTH). */
static void test_msm_vartime(tu_rng *rng) {
    enum { NMAX = 100 };
    static ecopt_ristretto255_point pts[NMAX];
    static uint8_t sc[NMAX * 32];
    for (size_t n = 0; n <= NMAX; n = n == 40 ? NMAX : n + 1) {
        ecopt_ristretto255_point want, got, t;
        ecopt_ristretto255_identity(&want);
        for (size_t i = 0; i < n; i++) {
            uint8_t u[64];
            tu_rng_bytes(rng, u, 64);
            ecopt_ristretto255_from_uniform_bytes(&pts[i], u);
            tu_rng_bytes(rng, sc + 32 * i, 32);
            if (i % 7 == 3) memset(sc + 32 * i, 0xff, 32); /* 2^256 - 1: far above l */
            if (i % 11 == 5) memset(sc + 32 * i, 0, 32);
            ecopt_ristretto255_scalarmult(&t, sc + 32 * i, &pts[i]);
            ecopt_ristretto255_add(&want, &want, &t);
        }
        size_t len = ecopt_ristretto255_msm_scratch_size(n);
        n_checks++;
        if (len != ecopt_edwards25519_msm_scratch_size(n)) tu_fail("ristretto msm scratch size differs at n = %zu", n);
        uint8_t *buf = malloc(len + 1);
        int rc = ecopt_ristretto255_msm_vartime(&got, sc, pts, n, buf ? buf + 1 : NULL, len);
        n_checks++;
        if (rc != ECOPT_OK) tu_fail("ristretto255_msm_vartime n = %zu returned %d", n, rc);
        uint8_t ew[32], eg[32];
        ecopt_ristretto255_encode(ew, &want);
        ecopt_ristretto255_encode(eg, &got);
        expect_equal("msm_vartime vs sum of scalarmult", &got, &want, 1);
        n_checks++;
        if (memcmp(ew, eg, 32) != 0) tu_fail("msm_vartime n = %zu: encodings differ", n);
        if (n > 0) {
            rc = ecopt_ristretto255_msm_vartime(&got, sc, pts, n, buf, len - 1);
            n_checks++;
            if (rc != ECOPT_ERR_LENGTH) tu_fail("ristretto255_msm_vartime one byte short: returned %d", rc);
            /* double scalar: [a] P + [b] G with a, b the first two scalars */
            const uint8_t *a = sc, *b = sc + 32 * (n > 1);
            ecopt_ristretto255_point ps, bs;
            ecopt_ristretto255_scalarmult(&ps, a, &pts[0]);
            ecopt_ristretto255_scalarmult_base(&bs, b);
            ecopt_ristretto255_add(&want, &ps, &bs);
            got = pts[0];
            ecopt_ristretto255_double_scalarmult_vartime(&got, a, &got, b); /* r = p */
            expect_equal("double_scalarmult_vartime vs scalarmult + scalarmult_base", &got, &want, 1);
            ecopt_ristretto255_encode(ew, &want);
            ecopt_ristretto255_encode(eg, &got);
            n_checks++;
            if (memcmp(ew, eg, 32) != 0) tu_fail("double_scalarmult_vartime: encodings differ");
        }
        free(buf);
    }
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 40);
    tu_check_library_backend();
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    ref_pt T[8];
    for (int i = 0; i < 8; i++) ref_pt_init(&T[i]);
    ref_torsion_points(T);

    test_sizes();
    test_vectors();
    test_scalarmult(&rng, o.iters, T);
    test_roundtrip_and_classes(&rng, o.iters, T);
    test_decode_random(&rng, 50 * o.iters);
    test_hash_to_group(&rng, 4 * o.iters);
    test_msm_vartime(&rng);
    for (int i = 0; i < 8; i++) ref_pt_clear(&T[i]);
    printf("%ld checks\n", n_checks);
    return tu_finish("test_ristretto");
}
