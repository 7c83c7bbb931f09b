/* test_group.c — curve.group.<backend>: the public group API of include/ecopt/edwards25519.h on one backend,
 * against the GMP reference (tests/ref: affine points, double-and-add, integers mod l), the shared vectors, the
 * literature's encodings of the 8-torsion points, and X25519 (the ladder, an independent computation of u).
 *
 * Points are compared through their canonical encodings (injective on the curve) and with ecopt_edwards25519_equal.
 * Covered:
 *   - scalars: from_bytes, reduce, reduce64, add, sub, neg, mul, invert, is_zero, equal against mpz mod l, on edge
 *     values (0, 1, l - 1, l, l + 1, 2l, 2^252, 2^255 - 1, 2^255, 2^256 - 1, ...) and inputs of random bit density,
 *     with out aliasing an input; random (in range, not repeating);
 *   - decode and decode_zip215 on RFC 8032's public keys, on every public key and R of Wycheproof's Ed25519 set,
 *     on edge encodings (y near 0, 1, p, 2^255, both sign bits) and random bytes, verdicts and points against the
 *     reference's decoding; non-canonical encodings (y >= p, x = 0 with the sign bit) refused with r zeroed;
 *   - the 8 small-order points from their published encodings: is_small_order, is_torsion_free, mul_by_cofactor,
 *     is_identity, and the same on mixed-order points;
 *   - add, sub, double, neg, equal on mixed-order points against the affine formulas, outputs aliasing inputs, a
 *     point made on this backend read on every other;
 *   - scalarmult against double-and-add in GMP (scalars up to 2^256 - 1, around 2^255 + 8 (l - 2^252) where the
 *     top-bit rewrite changes sign), against repeated addition for small multiples, [l]P = identity;
 *     scalarmult_base against scalarmult(B); double_scalarmult_vartime against GMP;
 *   - to_montgomery_u against (1 + y)/(1 - y) in GMP and against ecopt_x25519 of the same scalar, from_montgomery_u
 *     round trips, its rejections (u >= p, bit 255, u = -1, twist points) against the reference. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "ecopt/ecopt.h"
#include "ecopt/edwards25519.h"
#include "ref25519.h"
#include "testutil.h"
#include "tu_backend.h"

typedef ecopt_edwards25519_point pt;

static tu_rng rng;

/* ---- helpers ---- */

static void pt_from_ref(pt *r, const ref_pt *P) {
    uint8_t e[32];
    ref_pt_encode(e, P);
    if (ecopt_edwards25519_decode(r, e) != ECOPT_OK) {
        tu_fail("decode rejected the canonical encoding of a curve point");
        tu_hex_print("encoding", e, 32);
    }
}

static int expect_pt(const char *what, const pt *got, const ref_pt *want) {
    uint8_t g[32], w[32];
    ecopt_edwards25519_encode(g, got);
    ref_pt_encode(w, want);
    return tu_expect_bytes(what, g, w, 32);
}

static void mpz_to_sc(uint8_t out[32], const mpz_t x) {
    ref_to_le(out, 32, x);
}

/* A random point [k]B + T_i of the reference, i in [0, 8) (i = 0: torsion-free), k random. */
static ref_pt T[8];
static void random_ref_point(ref_pt *P, int i) {
    uint8_t kb[32];
    mpz_t k;
    mpz_init(k);
    tu_rng_bytes(&rng, kb, 32);
    ref_from_le(k, kb, 32);
    ref_pt_base(P);
    ref_pt_mul(P, k, P);
    ref_pt_add(P, P, &T[i & 7]);
    mpz_clear(k);
}

/* ---- scalars ---- */

static void edge_scalars(mpz_t *e, int *n) {
    int k = 0;
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(e[k++], 0);
    mpz_set_ui(e[k++], 1);
    mpz_set_ui(e[k++], 2);
    mpz_sub_ui(e[k++], ref_l, 1);
    mpz_set(e[k++], ref_l);
    mpz_add_ui(e[k++], ref_l, 1);
    mpz_mul_ui(e[k++], ref_l, 2);
    mpz_mul_ui(t, ref_l, 2), mpz_sub_ui(e[k++], t, 1);
    mpz_ui_pow_ui(e[k++], 2, 252);
    mpz_ui_pow_ui(t, 2, 255), mpz_sub_ui(e[k++], t, 1);
    mpz_ui_pow_ui(e[k++], 2, 255);
    mpz_ui_pow_ui(t, 2, 256), mpz_sub_ui(e[k++], t, 1);
    mpz_mul_ui(t, ref_l, 15), mpz_set(e[k++], t); /* 15 l < 2^256, the largest multiple of l below it */
    mpz_mul_ui(t, ref_l, 8), mpz_sub_ui(e[k++], t, 1);
    *n = k;
    mpz_clear(t);
}

static void check_scalar_pair(const mpz_t a, const mpz_t b) {
    uint8_t ab[32], bb[32], out[32], want[32], tmp[32];
    mpz_t r;
    mpz_init(r);
    mpz_to_sc(ab, a);
    mpz_to_sc(bb, b);
    int bad = 0;

    mpz_add(r, a, b), mpz_mod(r, r, ref_l), mpz_to_sc(want, r);
    ecopt_edwards25519_scalar_add(out, ab, bb);
    bad |= tu_expect_bytes("scalar_add", out, want, 32);
    memcpy(tmp, ab, 32);
    ecopt_edwards25519_scalar_add(tmp, tmp, bb);
    bad |= tu_expect_bytes("scalar_add (out == a)", tmp, want, 32);

    mpz_sub(r, a, b), mpz_mod(r, r, ref_l), mpz_to_sc(want, r);
    ecopt_edwards25519_scalar_sub(out, ab, bb);
    bad |= tu_expect_bytes("scalar_sub", out, want, 32);
    memcpy(tmp, bb, 32);
    ecopt_edwards25519_scalar_sub(tmp, ab, tmp);
    bad |= tu_expect_bytes("scalar_sub (out == b)", tmp, want, 32);

    mpz_mul(r, a, b), mpz_mod(r, r, ref_l), mpz_to_sc(want, r);
    ecopt_edwards25519_scalar_mul(out, ab, bb);
    bad |= tu_expect_bytes("scalar_mul", out, want, 32);

    mpz_t am, bm;
    mpz_inits(am, bm, NULL);
    mpz_mod(am, a, ref_l);
    mpz_mod(bm, b, ref_l);
    int eq = ecopt_edwards25519_scalar_equal(ab, bb);
    if (eq != (mpz_cmp(am, bm) == 0)) tu_fail("scalar_equal = %d", eq), bad = 1;
    mpz_clears(am, bm, NULL);
    if (bad) tu_hex_print("a", ab, 32), tu_hex_print("b", bb, 32);
    mpz_clear(r);
}

static void check_scalar_single(const mpz_t a) {
    uint8_t ab[32], out[32], want[32], tmp[32];
    mpz_t r;
    mpz_init(r);
    mpz_to_sc(ab, a);
    int bad = 0;

    mpz_mod(r, a, ref_l), mpz_to_sc(want, r);
    ecopt_edwards25519_scalar_reduce(out, ab);
    bad |= tu_expect_bytes("scalar_reduce", out, want, 32);
    int z = ecopt_edwards25519_scalar_is_zero(ab);
    if (z != (mpz_sgn(r) == 0)) tu_fail("scalar_is_zero = %d", z), bad = 1;

    int canon = mpz_cmp(a, ref_l) < 0;
    int rc = ecopt_edwards25519_scalar_from_bytes(out, ab);
    if (rc != (canon ? ECOPT_OK : ECOPT_ERR_ENCODING)) tu_fail("scalar_from_bytes = %d, canonical %d", rc, canon), bad = 1;
    static const uint8_t zero[32] = {0};
    bad |= tu_expect_bytes("scalar_from_bytes out", out, canon ? ab : zero, 32);

    mpz_neg(r, a), mpz_mod(r, r, ref_l), mpz_to_sc(want, r);
    ecopt_edwards25519_scalar_neg(out, ab);
    bad |= tu_expect_bytes("scalar_neg", out, want, 32);

    mpz_mod(r, a, ref_l);
    if (mpz_sgn(r) == 0)
        memset(want, 0, 32);
    else
        mpz_invert(r, r, ref_l), mpz_to_sc(want, r);
    memcpy(tmp, ab, 32);
    ecopt_edwards25519_scalar_invert(tmp, tmp);
    bad |= tu_expect_bytes("scalar_invert (out == a)", tmp, want, 32);
    if (bad) tu_hex_print("a", ab, 32);
    mpz_clear(r);
}

static void test_scalars(long iters) {
    mpz_t e[16], a, b;
    int ne;
    for (int i = 0; i < 16; i++) mpz_init(e[i]);
    mpz_inits(a, b, NULL);
    edge_scalars(e, &ne);
    for (int i = 0; i < ne; i++) {
        check_scalar_single(e[i]);
        for (int j = 0; j < ne; j++) check_scalar_pair(e[i], e[j]);
    }
    for (long it = 0; it < iters; it++) {
        uint8_t x[32], y[32];
        tu_rng_bytes_density(&rng, x, 32);
        tu_rng_bytes_density(&rng, y, 32);
        ref_from_le(a, x, 32);
        ref_from_le(b, y, 32);
        check_scalar_single(a);
        check_scalar_pair(a, b);
        check_scalar_pair(a, e[it % ne]);
        check_scalar_pair(a, a); /* equal on equal inputs */
        /* a and a + l name the same residue: equal must say so where a + l < 2^256. */
        mpz_add(b, a, ref_l);
        if (mpz_sizeinbase(b, 2) <= 256) check_scalar_pair(a, b);
    }

    /* reduce64 on 64-byte inputs: random density, all ones, multiples of l and their neighbours. */
    for (long it = 0; it < iters + 4; it++) {
        uint8_t x[64], out[32], want[32];
        if (it < iters) {
            tu_rng_bytes_density(&rng, x, 64);
        } else {
            mpz_set_ui(a, 0);
            if (it == iters) mpz_ui_pow_ui(a, 2, 512), mpz_sub_ui(a, a, 1);
            if (it == iters + 1) mpz_ui_pow_ui(a, 2, 259), mpz_mul(a, a, ref_l);
            if (it == iters + 2) mpz_ui_pow_ui(a, 2, 259), mpz_mul(a, a, ref_l), mpz_sub_ui(a, a, 1);
            ref_to_le(x, 64, a);
        }
        ref_sc_reduce(want, x, 64);
        ref_from_le(a, x, 64);
        mpz_mod(a, a, ref_l);
        ref_to_le(out, 32, a);
        tu_expect_bytes("ref_sc_reduce vs mpz_mod", want, out, 32);
        ecopt_edwards25519_scalar_reduce64(out, x);
        if (tu_expect_bytes("scalar_reduce64", out, want, 32)) tu_hex_print("x", x, 64);
        ecopt_edwards25519_scalar_reduce64(x, x); /* out overlapping x */
        tu_expect_bytes("scalar_reduce64 (out == x)", x, want, 32);
    }

    /* random: in range, and no two of 64 draws equal (a repeat has probability about 2^-241). */
    uint8_t draws[64][32];
    for (int i = 0; i < 64; i++) {
        int rc = ecopt_edwards25519_scalar_random(draws[i]);
        if (rc != ECOPT_OK) tu_fail("scalar_random = %d", rc);
        ref_from_le(a, draws[i], 32);
        if (mpz_cmp(a, ref_l) >= 0) tu_fail("scalar_random returned a value >= l");
        for (int j = 0; j < i; j++)
            if (memcmp(draws[i], draws[j], 32) == 0) tu_fail("scalar_random repeated a value");
    }
    for (int i = 0; i < 16; i++) mpz_clear(e[i]);
    mpz_clears(a, b, NULL);
}

/* ---- decoding ---- */

/* decode and decode_zip215 of s against the reference: verdicts, points, and the canonical re-encoding. */
static void check_decode(const uint8_t s[32], const char *ctx) {
    ref_pt P;
    ref_pt_init(&P);
    pt r;
    for (int strict = 1; strict >= 0; strict--) {
        int ref = ref_pt_decode(&P, s, strict);
        int want_ok = strict ? ref == REF_DEC_OK : ref != REF_DEC_NOT_ON_CURVE;
        int rc = strict ? ecopt_edwards25519_decode(&r, s) : ecopt_edwards25519_decode_zip215(&r, s);
        if (rc != (want_ok ? ECOPT_OK : ECOPT_ERR_ENCODING)) {
            tu_fail("%s: %s returned %d, reference verdict %d", ctx, strict ? "decode" : "decode_zip215", rc, ref);
            tu_hex_print("s", s, 32);
            continue;
        }
        if (want_ok) {
            if (expect_pt(strict ? "decode" : "decode_zip215", &r, &P)) tu_hex_print("s", s, 32);
            uint8_t e[32];
            ecopt_edwards25519_encode(e, &r);
            if (strict && tu_expect_bytes("encode(decode(s)) == s", e, s, 32)) tu_hex_print("s", s, 32);
        } else {
            static const uint8_t zero[128] = {0};
            if (memcmp(r.opaque, zero, 128) != 0) tu_fail("%s: rejected decoding left r not zeroed", ctx);
        }
    }
    ref_pt_clear(&P);
}

static void test_decode_vectors(void) {
    cJSON *j = tu_load_json(tu_vector_path("rfc8032/rfc8032_ed25519.json"));
    cJSON *c, *g, *t;
    int n = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "vectors")) {
        uint8_t pk[32];
        tu_json_hex_fixed(pk, 32, c, "public_key");
        check_decode(pk, "RFC 8032 public key");
        pt r;
        if (ecopt_edwards25519_decode(&r, pk) != ECOPT_OK) tu_fail("RFC 8032 public key %d refused", n);
        n++;
    }
    cJSON_Delete(j);
    j = tu_load_json(tu_vector_path("wycheproof/ed25519_test.json"));
    int nw = 0;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(j, "testGroups")) {
        uint8_t pk[32];
        tu_json_hex_fixed(pk, 32, cJSON_GetObjectItem(g, "publicKey"), "pk");
        check_decode(pk, "Wycheproof public key");
        nw++;
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(g, "tests")) {
            size_t siglen;
            uint8_t *sig = tu_hex_alloc(tu_json_str(t, "sig"), &siglen);
            if (siglen >= 32) check_decode(sig, "Wycheproof R"), nw++;
            free(sig);
        }
    }
    cJSON_Delete(j);
    printf("decode: %d RFC 8032 public keys, %d Wycheproof encodings (public keys and R)\n", n, nw);
}

static void test_decode_edges(long iters) {
    mpz_t y, p2;
    mpz_inits(y, p2, NULL);
    mpz_ui_pow_ui(p2, 2, 255);
    /* y near 0, 1, p - 1, p, p + 1, 2^255 - 1 (each with both sign bits). */
    static const long offs[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    int nchecked = 0;
    for (int base = 0; base < 4; base++)
        for (size_t k = 0; k < TU_ARRAY_LEN(offs); k++)
            for (int sign = 0; sign < 2; sign++) {
                uint8_t s[32];
                if (base == 0) mpz_set_ui(y, (unsigned long)offs[k]);                   /* 0..8 */
                if (base == 1) mpz_sub_ui(y, ref_p, (unsigned long)offs[k] + 1);        /* p-1 .. p-9 */
                if (base == 2) mpz_add_ui(y, ref_p, (unsigned long)offs[k]);            /* p .. p+8 (non-canonical) */
                if (base == 3) mpz_sub_ui(y, p2, (unsigned long)offs[k] + 1);           /* 2^255-1 .. */
                ref_to_le(s, 32, y);
                s[31] |= (uint8_t)(sign << 7);
                check_decode(s, "edge encoding");
                nchecked++;
            }
    /* The two non-canonical kinds, refused by decode and accepted by decode_zip215, stated outright. */
    uint8_t s[32];
    pt r, id;
    ecopt_edwards25519_identity(&id);
    mpz_set(y, ref_p); /* y = p: y mod p = 0, a point (x^2 = -1) */
    ref_to_le(s, 32, y);
    if (ecopt_edwards25519_decode(&r, s) != ECOPT_ERR_ENCODING) tu_fail("decode accepted y = p");
    if (ecopt_edwards25519_decode_zip215(&r, s) != ECOPT_OK) tu_fail("decode_zip215 refused y = p");
    memset(s, 0, 32);
    s[0] = 1;
    s[31] = 0x80; /* y = 1, x = 0 with the sign bit: the identity, non-canonically */
    if (ecopt_edwards25519_decode(&r, s) != ECOPT_ERR_ENCODING) tu_fail("decode accepted x = 0 with the sign bit");
    if (ecopt_edwards25519_decode_zip215(&r, s) != ECOPT_OK || !ecopt_edwards25519_equal(&r, &id))
        tu_fail("decode_zip215 of y = 1 with the sign bit is not the identity");
    for (long it = 0; it < iters; it++) {
        tu_rng_bytes(&rng, s, 32);
        check_decode(s, "random bytes");
    }
    printf("decode: %d edge encodings, %ld random\n", nchecked, iters);
    mpz_clears(y, p2, NULL);
}

static void ref_u_of(uint8_t u[32], const ref_pt *P);

/* ---- small order ---- */

/* The 8 points of the 8-torsion subgroup by their canonical encodings, as published (e.g. Chalkias, Garillot,
 * Nikolaenko, "Taming the many EdDSAs", SSR 2020, table 6; the list libsodium's crypto_core_ed25519_is_valid_point
 * rejects): identity, order 2, two of order 4, four of order 8. */
static const char *const SMALL_ORDER_HEX[8] = {
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
};

static void test_small_order(void) {
    /* The published list is the reference's 8-torsion, as a set. */
    uint8_t enc[8][32];
    for (int i = 0; i < 8; i++) ref_pt_encode(enc[i], &T[i]);
    for (int k = 0; k < 8; k++) {
        uint8_t s[32];
        tu_hex_decode(s, 32, SMALL_ORDER_HEX[k]);
        int found = 0;
        for (int i = 0; i < 8; i++) found |= memcmp(s, enc[i], 32) == 0;
        if (!found) tu_fail("published small-order encoding %d is not in the reference's 8-torsion", k);
        pt r, c;
        if (ecopt_edwards25519_decode(&r, s) != ECOPT_OK) {
            tu_fail("decode refused small-order point %d (small-order points are points)", k);
            continue;
        }
        if (ecopt_edwards25519_is_small_order(&r) != 1) tu_fail("is_small_order(T%d) != 1", k);
        if (ecopt_edwards25519_is_torsion_free(&r) != (k == 0)) tu_fail("is_torsion_free(T%d) wrong", k);
        if (ecopt_edwards25519_is_identity(&r) != (k == 0)) tu_fail("is_identity(T%d) wrong", k);
        ecopt_edwards25519_mul_by_cofactor(&c, &r);
        if (!ecopt_edwards25519_is_identity(&c)) tu_fail("mul_by_cofactor(T%d) is not the identity", k);
    }
    /* Every pair of 8-torsion points: add and sub against the reference, equal exactly when i = j; the Montgomery
     * u of each against GMP, and back where it has one (all but the identity: to_u gives 0 for it, which maps to
     * (0, -1)). */
    pt tp[8];
    for (int i = 0; i < 8; i++) pt_from_ref(&tp[i], &T[i]);
    ref_pt S;
    ref_pt_init(&S);
    for (int i = 0; i < 8; i++) {
        for (int k = 0; k < 8; k++) {
            pt s;
            ecopt_edwards25519_add(&s, &tp[i], &tp[k]);
            ref_pt_add(&S, &T[i], &T[k]);
            expect_pt("add on the 8-torsion", &s, &S);
            ecopt_edwards25519_sub(&s, &tp[i], &tp[k]);
            if (ecopt_edwards25519_is_identity(&s) != (i == k)) tu_fail("T%d - T%d: is_identity wrong", i, k);
            if (ecopt_edwards25519_equal(&tp[i], &tp[k]) != (i == k)) tu_fail("equal(T%d, T%d) wrong", i, k);
        }
        uint8_t u[32], want[32];
        ecopt_edwards25519_to_montgomery_u(u, &tp[i]);
        ref_u_of(want, &T[i]);
        tu_expect_bytes("to_montgomery_u on the 8-torsion", u, want, 32);
        pt back;
        int sign = mpz_odd_p(T[i].x) ? 1 : 0;
        if (i != 0 && (ecopt_edwards25519_from_montgomery_u(&back, u, sign) != ECOPT_OK ||
                       !ecopt_edwards25519_equal(&back, &tp[i])))
            tu_fail("from_montgomery_u(to_montgomery_u(T%d)) != T%d", i, i);
    }
    ref_pt_clear(&S);
    /* Mixed order: [k]B + T_i. */
    ref_pt P, Q;
    ref_pt_init(&P);
    ref_pt_init(&Q);
    for (int it = 0; it < 16; it++) {
        int i = it & 7;
        random_ref_point(&P, i);
        pt p, c;
        pt_from_ref(&p, &P);
        if (ecopt_edwards25519_is_small_order(&p) != 0) tu_fail("is_small_order([k]B + T%d) != 0", i);
        if (ecopt_edwards25519_is_torsion_free(&p) != (i == 0)) tu_fail("is_torsion_free([k]B + T%d) wrong", i);
        ecopt_edwards25519_mul_by_cofactor(&c, &p);
        ref_pt_mul_ui(&Q, 8, &P);
        expect_pt("mul_by_cofactor", &c, &Q);
        ecopt_edwards25519_mul_by_cofactor(&p, &p);
        expect_pt("mul_by_cofactor (r == p)", &p, &Q);
        if (ecopt_edwards25519_is_torsion_free(&p) != 1) tu_fail("[8]P is not torsion-free");
    }
    ref_pt_clear(&P);
    ref_pt_clear(&Q);
}

/* ---- group operations ---- */

static void test_group_ops(long iters) {
    ref_pt P, Q, R;
    ref_pt_init(&P), ref_pt_init(&Q), ref_pt_init(&R);
    pt p, q, r, s, id, b;
    ecopt_edwards25519_identity(&id);
    ecopt_edwards25519_base(&b);
    ref_pt_base(&R);
    expect_pt("base", &b, &R);
    ref_pt_identity(&R);
    expect_pt("identity", &id, &R);
    if (!ecopt_edwards25519_is_identity(&id) || ecopt_edwards25519_is_identity(&b)) tu_fail("is_identity");
    for (long it = 0; it < iters; it++) {
        random_ref_point(&P, (int)tu_rng_below(&rng, 8));
        if (it % 4 == 0)
            ref_pt_set(&Q, &T[it % 8]); /* small-order second operand */
        else
            random_ref_point(&Q, (int)tu_rng_below(&rng, 8));
        pt_from_ref(&p, &P);
        pt_from_ref(&q, &Q);
        ref_pt_add(&R, &P, &Q);
        ecopt_edwards25519_add(&r, &p, &q);
        expect_pt("add", &r, &R);
        s = p;
        ecopt_edwards25519_add(&s, &s, &q);
        expect_pt("add (r == p)", &s, &R);
        s = q;
        ecopt_edwards25519_add(&s, &p, &s);
        expect_pt("add (r == q)", &s, &R);

        ref_pt_neg(&R, &Q);
        ref_pt_add(&R, &P, &R);
        ecopt_edwards25519_sub(&r, &p, &q);
        expect_pt("sub", &r, &R);
        s = q;
        ecopt_edwards25519_sub(&s, &p, &s);
        expect_pt("sub (r == q)", &s, &R);

        ref_pt_double(&R, &P);
        ecopt_edwards25519_double(&r, &p);
        expect_pt("double", &r, &R);
        s = p;
        ecopt_edwards25519_double(&s, &s);
        expect_pt("double (r == p)", &s, &R);
        ecopt_edwards25519_add(&s, &p, &p);
        if (!ecopt_edwards25519_equal(&s, &r)) tu_fail("equal(p + p, 2p) = 0");

        ref_pt_neg(&R, &P);
        ecopt_edwards25519_neg(&r, &p);
        expect_pt("neg", &r, &R);
        ecopt_edwards25519_add(&s, &p, &r);
        if (!ecopt_edwards25519_is_identity(&s)) tu_fail("p + (-p) is not the identity");
        if (!ecopt_edwards25519_equal(&s, &id)) tu_fail("equal(p + (-p), identity) = 0");

        /* equal across representations: (p + q) - q has other coordinates than p (Z != 1). */
        ecopt_edwards25519_add(&r, &p, &q);
        ecopt_edwards25519_sub(&r, &r, &q);
        if (!ecopt_edwards25519_equal(&r, &p)) tu_fail("equal((p + q) - q, p) = 0");
        int want = ref_pt_eq(&P, &Q);
        if (ecopt_edwards25519_equal(&p, &q) != want) tu_fail("equal(p, q) != reference");
        ecopt_edwards25519_add(&r, &p, &q); /* p + T for T != 0 differs from p */
        ref_pt_add(&R, &P, &Q);
        if (ecopt_edwards25519_equal(&r, &p) != ref_pt_eq(&R, &P)) tu_fail("equal(p + q, p) != reference");
        ecopt_edwards25519_neg(&r, &p);
        ref_pt_neg(&R, &P);
        if (ecopt_edwards25519_equal(&r, &p) != ref_pt_eq(&R, &P)) tu_fail("equal(-p, p) != reference");
        /* (x, -y) = -p + (0, -1), T[4] of order 2: the same X, another Y. */
        pt t4;
        pt_from_ref(&t4, &T[4]);
        ecopt_edwards25519_add(&r, &r, &t4);
        ref_pt_add(&R, &R, &T[4]);
        if (ecopt_edwards25519_equal(&r, &p) != ref_pt_eq(&R, &P)) tu_fail("equal((x, -y), p) != reference");
    }
    /* A point made on this backend, read on every other (the type is backend-independent). */
    random_ref_point(&P, 3);
    pt_from_ref(&p, &P);
    ecopt_edwards25519_double(&p, &p); /* Z != 1 */
    ref_pt_double(&R, &P);
    const char *home = ecopt_backend_name();
    char list[128];
    snprintf(list, sizeof list, "%s", ecopt_backend_list());
    for (char *w = strtok(list, " "); w; w = strtok(NULL, " ")) {
        if (ecopt_backend_select(w) != ECOPT_OK) continue; /* this CPU lacks it */
        char what[64];
        snprintf(what, sizeof what, "a point read on backend %s", w);
        expect_pt(what, &p, &R);
    }
    if (ecopt_backend_select(home) != ECOPT_OK) tu_fail("could not return to backend %s", home);
    ref_pt_clear(&P), ref_pt_clear(&Q), ref_pt_clear(&R);
}

/* ---- multiplication ---- */

static void check_scalarmult(const ref_pt *P, const uint8_t s[32]) {
    pt p, r;
    ref_pt R;
    mpz_t k;
    mpz_init(k);
    ref_pt_init(&R);
    ref_from_le(k, s, 32);
    ref_pt_mul(&R, k, P);
    pt_from_ref(&p, P);
    ecopt_edwards25519_scalarmult(&r, s, &p);
    if (expect_pt("scalarmult", &r, &R)) tu_hex_print("s", s, 32);
    ecopt_edwards25519_scalarmult(&p, s, &p);
    if (expect_pt("scalarmult (r == p)", &p, &R)) tu_hex_print("s", s, 32);
    mpz_clear(k);
    ref_pt_clear(&R);
}

static void test_scalarmult(long iters) {
    ref_pt P, R, B;
    ref_pt_init(&P), ref_pt_init(&R), ref_pt_init(&B);
    ref_pt_base(&B);
    mpz_t e[16], t, c8;
    int ne;
    for (int i = 0; i < 16; i++) mpz_init(e[i]);
    mpz_inits(t, c8, NULL);
    edge_scalars(e, &ne);
    /* 8 (l - 2^252): scalars 2^255 + x with x around it make the rewrite's d change sign. */
    mpz_ui_pow_ui(t, 2, 252);
    mpz_sub(c8, ref_l, t);
    mpz_mul_ui(c8, c8, 8);
    for (long it = 0; it < iters; it++) {
        random_ref_point(&P, (int)(it & 7));
        uint8_t s[32];
        for (int i = 0; i < ne; i++) {
            ref_to_le(s, 32, e[i]);
            check_scalarmult(&P, s);
        }
        for (int dx = -2; dx <= 2; dx++) {
            mpz_ui_pow_ui(t, 2, 255);
            mpz_add(t, t, c8);
            if (dx < 0) mpz_sub_ui(t, t, (unsigned long)-dx);
            else mpz_add_ui(t, t, (unsigned long)dx);
            ref_to_le(s, 32, t);
            check_scalarmult(&P, s);
        }
        mpz_ui_pow_ui(t, 2, 255), mpz_add_ui(t, t, 5); /* d = 5 - 8c < 0 */
        ref_to_le(s, 32, t);
        check_scalarmult(&P, s);
        tu_rng_bytes_density(&rng, s, 32);
        check_scalarmult(&P, s);
        tu_rng_bytes(&rng, s, 32);
        check_scalarmult(&P, s);
    }
    /* Small multiples against repeated addition with the public add, on a mixed-order point. */
    random_ref_point(&P, 5);
    pt p, acc, r;
    pt_from_ref(&p, &P);
    ecopt_edwards25519_identity(&acc);
    for (unsigned k = 0; k <= 40; k++) {
        uint8_t s[32] = {0};
        s[0] = (uint8_t)k;
        ecopt_edwards25519_scalarmult(&r, s, &p);
        if (!ecopt_edwards25519_equal(&r, &acc)) tu_fail("scalarmult(%u) != %u additions", k, k);
        ecopt_edwards25519_add(&acc, &acc, &p);
    }
    /* [l]P = identity exactly for torsion-free P; [l](P + T_i) = [l] T_i otherwise. */
    uint8_t lb[32];
    ref_to_le(lb, 32, ref_l);
    for (int i = 0; i < 8; i++) {
        random_ref_point(&P, i);
        pt_from_ref(&p, &P);
        ecopt_edwards25519_scalarmult(&r, lb, &p);
        if (ecopt_edwards25519_is_identity(&r) != (i == 0)) tu_fail("[l](P + T%d): is_identity wrong", i);
        ref_pt_mul(&R, ref_l, &P);
        expect_pt("[l]P", &r, &R);
    }
    /* scalarmult_base against scalarmult(B) and GMP, on every edge scalar and random ones. */
    pt b;
    ecopt_edwards25519_base(&b);
    for (long it = 0; it < ne + 3 * iters; it++) {
        uint8_t s[32];
        if (it < ne) ref_to_le(s, 32, e[it]);
        else tu_rng_bytes_density(&rng, s, 32);
        pt x, y;
        ecopt_edwards25519_scalarmult_base(&x, s);
        ecopt_edwards25519_scalarmult(&y, s, &b);
        if (!ecopt_edwards25519_equal(&x, &y)) tu_fail("scalarmult_base != scalarmult(B)"), tu_hex_print("s", s, 32);
        if (it % 4 == 0) {
            ref_from_le(t, s, 32);
            ref_pt_mul(&R, t, &B);
            if (expect_pt("scalarmult_base", &x, &R)) tu_hex_print("s", s, 32);
        }
    }
    /* double_scalarmult_vartime: [a]P + [b]B against GMP, P of mixed order, a and b up to 2^256 - 1. */
    for (long it = 0; it < 2 * iters; it++) {
        uint8_t a[32], bs[32];
        ref_pt A2, B2;
        ref_pt_init(&A2), ref_pt_init(&B2);
        random_ref_point(&P, (int)(it & 7));
        if (it < ne) {
            ref_to_le(a, 32, e[it]);
            ref_to_le(bs, 32, e[ne - 1 - it]);
        } else {
            tu_rng_bytes_density(&rng, a, 32);
            tu_rng_bytes_density(&rng, bs, 32);
        }
        ref_from_le(t, a, 32);
        ref_pt_mul(&A2, t, &P);
        ref_from_le(t, bs, 32);
        ref_pt_mul(&B2, t, &B);
        ref_pt_add(&R, &A2, &B2);
        pt_from_ref(&p, &P);
        ecopt_edwards25519_double_scalarmult_vartime(&r, a, &p, bs);
        if (expect_pt("double_scalarmult_vartime", &r, &R)) tu_hex_print("a", a, 32), tu_hex_print("b", bs, 32);
        ecopt_edwards25519_double_scalarmult_vartime(&p, a, &p, bs);
        expect_pt("double_scalarmult_vartime (r == p)", &p, &R);
        ref_pt_clear(&A2), ref_pt_clear(&B2);
    }
    for (int i = 0; i < 16; i++) mpz_clear(e[i]);
    mpz_clears(t, c8, NULL);
    ref_pt_clear(&P), ref_pt_clear(&R), ref_pt_clear(&B);
}

/* ---- Montgomery u ---- */

/* u = (1 + y) / (1 - y) mod p in GMP (0 where 1 - y = 0, as documented). */
static void ref_u_of(uint8_t u[32], const ref_pt *P) {
    mpz_t n, d;
    mpz_inits(n, d, NULL);
    mpz_add_ui(n, P->y, 1);
    mpz_mod(n, n, ref_p);
    mpz_ui_sub(d, 1, P->y);
    mpz_mod(d, d, ref_p);
    ref_fe_inv(d, d);
    ref_fe_mul(n, n, d);
    ref_to_le(u, 32, n);
    mpz_clears(n, d, NULL);
}

/* from_montgomery_u(u, sign) against the reference: y = (u - 1)/(u + 1) decoded with the sign (ZIP-215 reading for
 * x = 0); refused for u >= p (bit 255 included), u = p - 1, and u whose y has no x. */
static void check_from_u(const uint8_t u[32], int sign) {
    mpz_t U, y, d;
    mpz_inits(U, y, d, NULL);
    ref_from_le(U, u, 32);
    int want_ok = mpz_cmp(U, ref_p) < 0;
    ref_pt P;
    ref_pt_init(&P);
    mpz_add_ui(d, U, 1);
    mpz_mod(d, d, ref_p);
    if (mpz_sgn(d) == 0) want_ok = 0;
    if (want_ok) {
        uint8_t e[32];
        ref_fe_inv(d, d);
        mpz_sub_ui(y, U, 1);
        mpz_mod(y, y, ref_p);
        ref_fe_mul(y, y, d);
        ref_to_le(e, 32, y);
        e[31] |= (uint8_t)(sign << 7);
        if (ref_pt_decode(&P, e, 0) == REF_DEC_NOT_ON_CURVE) want_ok = 0;
    }
    pt r;
    int rc = ecopt_edwards25519_from_montgomery_u(&r, u, sign);
    if (rc != (want_ok ? ECOPT_OK : ECOPT_ERR_ENCODING)) {
        tu_fail("from_montgomery_u returned %d, reference %s", rc, want_ok ? "a point" : "none");
        tu_hex_print("u", u, 32);
    } else if (want_ok) {
        if (expect_pt("from_montgomery_u", &r, &P)) tu_hex_print("u", u, 32);
        uint8_t back[32];
        ecopt_edwards25519_to_montgomery_u(back, &r);
        tu_expect_bytes("to_montgomery_u(from_montgomery_u(u))", back, u, 32);
    }
    ref_pt_clear(&P);
    mpz_clears(U, y, d, NULL);
}

static void test_montgomery(long iters) {
    ref_pt P;
    ref_pt_init(&P);
    static const uint8_t nine[32] = {9};
    for (long it = 0; it < iters; it++) {
        /* [clamp(k)]B against X25519(k, 9), through both X25519 entry points. */
        uint8_t k[32], kc[32], u[32], x1[32], x2[32];
        tu_rng_bytes_density(&rng, k, 32);
        memcpy(kc, k, 32);
        kc[0] &= 248, kc[31] &= 127, kc[31] |= 64; /* RFC 7748 section 5 decodeScalar25519 */
        pt r, b;
        ecopt_edwards25519_scalarmult_base(&r, kc);
        ecopt_edwards25519_to_montgomery_u(u, &r);
        if (ecopt_x25519_base(x1, k) != ECOPT_OK || ecopt_x25519(x2, k, nine) != ECOPT_OK) tu_fail("x25519 failed");
        tu_expect_bytes("to_montgomery_u([k]B) vs x25519_base", u, x1, 32);
        tu_expect_bytes("to_montgomery_u([k]B) vs x25519(k, 9)", u, x2, 32);
        ecopt_edwards25519_base(&b);
        ecopt_edwards25519_scalarmult(&r, kc, &b);
        ecopt_edwards25519_to_montgomery_u(u, &r);
        tu_expect_bytes("to_montgomery_u(scalarmult(k, B)) vs x25519", u, x1, 32);

        /* A mixed-order point: u against GMP, and X25519 on its u against scalarmult then to_u (the ladder
         * computes the same u of [k]P independently); round trip through from_montgomery_u. */
        random_ref_point(&P, (int)(it & 7));
        pt p;
        pt_from_ref(&p, &P);
        uint8_t want[32];
        ecopt_edwards25519_to_montgomery_u(u, &p);
        ref_u_of(want, &P);
        tu_expect_bytes("to_montgomery_u vs GMP", u, want, 32);
        int sign = mpz_odd_p(P.x) ? 1 : 0;
        pt q;
        if (ecopt_edwards25519_from_montgomery_u(&q, u, sign) != ECOPT_OK || !ecopt_edwards25519_equal(&q, &p))
            tu_fail("from_montgomery_u(to_montgomery_u(P), sign of x) != P");
        if (ecopt_edwards25519_from_montgomery_u(&q, u, 1 - sign) != ECOPT_OK || ecopt_edwards25519_equal(&q, &p))
            tu_fail("from_montgomery_u with the other sign does not give -P");
        ecopt_edwards25519_scalarmult(&r, kc, &p);
        ecopt_edwards25519_to_montgomery_u(want, &r);
        int rc = ecopt_x25519(x1, k, u);
        if (rc == ECOPT_OK) tu_expect_bytes("x25519(k, u(P)) vs to_montgomery_u([k]P)", x1, want, 32);
        else tu_fail("x25519 on a mixed-order point's u returned %d", rc);
        check_from_u(u, sign);

        /* Random u (about half on the twist) with both signs. */
        tu_rng_bytes(&rng, u, 32);
        u[31] &= 127;
        check_from_u(u, 0);
        check_from_u(u, 1);
    }
    /* The documented special cases. */
    pt id, r, q;
    uint8_t u[32];
    ecopt_edwards25519_identity(&id);
    ecopt_edwards25519_to_montgomery_u(u, &id);
    static const uint8_t zero[32] = {0};
    tu_expect_bytes("to_montgomery_u(identity)", u, zero, 32);
    ecopt_edwards25519_decode(&r, (const uint8_t *)"\xec\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
                                                  "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f")
        == ECOPT_OK ? (void)0 : tu_fail("decode of (0, -1)");
    ecopt_edwards25519_to_montgomery_u(u, &r);
    tu_expect_bytes("to_montgomery_u((0, -1))", u, zero, 32);
    for (int sign = 0; sign < 2; sign++) {
        if (ecopt_edwards25519_from_montgomery_u(&q, zero, sign) != ECOPT_OK || !ecopt_edwards25519_equal(&q, &r))
            tu_fail("from_montgomery_u(0, %d) != (0, -1)", sign);
        check_from_u(zero, sign);
    }
    mpz_t U;
    mpz_init(U);
    static const long offs[] = {-2, -1, 0, 1, 2};
    for (size_t i = 0; i < TU_ARRAY_LEN(offs); i++) { /* p - 2, p - 1 (= -1, refused), p, p + 1, p + 2 */
        mpz_set(U, ref_p);
        if (offs[i] < 0) mpz_sub_ui(U, U, (unsigned long)-offs[i]);
        else mpz_add_ui(U, U, (unsigned long)offs[i]);
        ref_to_le(u, 32, U);
        for (int sign = 0; sign < 2; sign++) check_from_u(u, sign);
        if (offs[i] >= -1 && ecopt_edwards25519_from_montgomery_u(&q, u, 0) != ECOPT_ERR_ENCODING)
            tu_fail("from_montgomery_u accepted u = p%+ld", offs[i]);
    }
    memcpy(u, nine, 32);
    u[31] |= 0x80; /* 9 with bit 255 set: not canonical */
    if (ecopt_edwards25519_from_montgomery_u(&q, u, 0) != ECOPT_ERR_ENCODING) tu_fail("accepted u with bit 255");
    for (int sign = 0; sign < 2; sign++) check_from_u(u, sign);
    for (unsigned v = 1; v < 12; v++) { /* u = 1 (order 4), 9 (B or -B), small values */
        memset(u, 0, 32);
        u[0] = (uint8_t)v;
        check_from_u(u, 0), check_from_u(u, 1);
    }
    pt b;
    ecopt_edwards25519_base(&b);
    if (ecopt_edwards25519_from_montgomery_u(&q, nine, 0) != ECOPT_OK || !ecopt_edwards25519_equal(&q, &b))
        tu_fail("from_montgomery_u(9, 0) != B (B's x is even)");
    if (ecopt_edwards25519_from_montgomery_u(&q, nine, 2) != ECOPT_OK || ecopt_edwards25519_equal(&q, &b))
        tu_fail("from_montgomery_u(9, 2): a nonzero sign must give -B");
    mpz_clear(U);
    ref_pt_clear(&P);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 40);
    tu_check_library_backend();
    ref_init();
    tu_rng_seed(&rng, o.seed);
    for (int i = 0; i < 8; i++) ref_pt_init(&T[i]);
    ref_torsion_points(T);

    if (ecopt_edwards25519_bytes() != 32 || ecopt_edwards25519_scalarbytes() != 32) tu_fail("size getters");
    test_scalars(o.iters * 5);
    test_decode_vectors();
    test_decode_edges(o.iters * 10);
    test_small_order();
    test_group_ops(o.iters);
    test_scalarmult(o.iters / 8 + 1);
    test_montgomery(o.iters);
    for (int i = 0; i < 8; i++) ref_pt_clear(&T[i]);
    return tu_finish("curve.group");
}
