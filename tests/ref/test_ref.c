/* test_ref.c — ref.selftest: the GMP reference checked against published values before it judges anything.
 *
 * The reference is the oracle of every other suite, so it is itself held to numbers it did not compute: the
 * constants printed in RFC 8032, the RFC 7748 and RFC 8032 vectors, every answer of the Wycheproof X25519 and
 * Ed25519 files, and two internal consistency checks between independently written parts (the Montgomery ladder
 * against Edwards scalar multiplication through the birational map u = (1 + y)/(1 - y); the group order). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecopt/ecopt.h"
#include "ref25519.h"
#include "testutil.h"

static void check_constants(void) {
    mpz_t want, t;
    mpz_inits(want, t, NULL);
    /* RFC 8032 section 5.1 prints d, and B's coordinates, in decimal. */
    mpz_set_str(want, "37095705934669439343138083508754565189542113879843219016388785533085940283555", 10);
    if (mpz_cmp(ref_d, want) != 0) tu_fail("d differs from RFC 8032");
    ref_pt B, R;
    ref_pt_init(&B);
    ref_pt_init(&R);
    ref_pt_base(&B);
    mpz_set_str(want, "15112221349535400772501151409588531511454012693041857206046113283949847762202", 10);
    if (mpz_cmp(B.x, want) != 0) tu_fail("B.x differs from RFC 8032");
    mpz_set_str(want, "46316835694926478169428394003475163141307993866256225615783033603165251855960", 10);
    if (mpz_cmp(B.y, want) != 0) tu_fail("B.y differs from RFC 8032");
    if (!ref_pt_on_curve(&B)) tu_fail("B not on the curve");
    /* l prime, [l]B = O, [l-1]B = -B. */
    if (mpz_probab_prime_p(ref_l, 30) == 0) tu_fail("l is not prime");
    if (mpz_probab_prime_p(ref_p, 30) == 0) tu_fail("p is not prime");
    ref_pt_mul(&R, ref_l, &B);
    if (!ref_pt_is_identity(&R)) tu_fail("[l]B is not the identity");
    mpz_sub_ui(t, ref_l, 1);
    ref_pt_mul(&R, t, &B);
    ref_pt_add(&R, &R, &B);
    if (!ref_pt_is_identity(&R)) tu_fail("[l-1]B + B is not the identity");
    /* Encoding of B: 5866...66 (RFC 8032 section 5.1: y = 4/5, x positive). */
    uint8_t enc[32], want_enc[32];
    ref_pt_encode(enc, &B);
    tu_hex_decode(want_enc, 32, "5866666666666666666666666666666666666666666666666666666666666666");
    tu_expect_bytes("encode(B)", enc, want_enc, 32);
    /* sqrt(-1)^2 = -1 was checked in ref_init; check it is the RFC's value 2^((p-1)/4) (not its negative). */
    mpz_set_str(want, "19681161376707505956807079304988542015446066515923890162744021073123829784752", 10);
    if (mpz_cmp(ref_sqrtm1, want) != 0) tu_fail("sqrt(-1) differs from RFC 8032 section 5.1.3's 2^((p-1)/4)");
    ref_pt_clear(&B);
    ref_pt_clear(&R);
    mpz_clears(want, t, NULL);
}

static void check_torsion(void) {
    ref_pt T[8];
    for (int i = 0; i < 8; i++) ref_pt_init(&T[i]);
    ref_torsion_points(T);
    static const int want_order[8] = {1, 8, 4, 8, 2, 8, 4, 8};
    for (int i = 0; i < 8; i++) {
        if (!ref_pt_on_curve(&T[i])) tu_fail("torsion point %d not on the curve", i);
        if (ref_pt_small_order(&T[i]) != want_order[i]) tu_fail("torsion point %d has the wrong order", i);
        for (int j = 0; j < i; j++)
            if (ref_pt_eq(&T[i], &T[j])) tu_fail("torsion points %d and %d coincide", i, j);
    }
    /* The point of order 2 is (0, -1); those of order 4 are (+-sqrt(-1), 0). */
    mpz_t pm1;
    mpz_init(pm1);
    mpz_sub_ui(pm1, ref_p, 1);
    if (mpz_sgn(T[4].x) != 0 || mpz_cmp(T[4].y, pm1) != 0) tu_fail("[4]T8 is not (0, -1)");
    if (mpz_sgn(T[2].y) != 0 || mpz_sgn(T[6].y) != 0) tu_fail("[2]T8, [6]T8 do not have y = 0");
    mpz_clear(pm1);
    for (int i = 0; i < 8; i++) ref_pt_clear(&T[i]);
}

static void check_rfc7748(void) {
    cJSON *j = tu_load_json(tu_vector_path("rfc7748/rfc7748_x25519.json"));
    cJSON *c;
    int n = 0, ok = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "scalar_multiplication")) {
        uint8_t k[32], u[32], want[32], got[32];
        tu_json_hex_fixed(k, 32, c, "scalar");
        tu_json_hex_fixed(u, 32, c, "u");
        tu_json_hex_fixed(want, 32, c, "output");
        ref_x25519(got, k, u);
        n++;
        ok += !tu_expect_bytes("ref_x25519 RFC 7748 5.2", got, want, 32);
        /* The decimal fields: clamped scalar and masked u. */
        mpz_t a, b;
        mpz_inits(a, b, NULL);
        ref_clamp(a, k);
        mpz_set_str(b, tu_json_str(c, "scalar_decoded_decimal"), 10);
        if (mpz_cmp(a, b) != 0) tu_fail("clamp differs from scalar_decoded_decimal");
        u[31] &= 127;
        ref_from_le(a, u, 32);
        mpz_set_str(b, tu_json_str(c, "u_decoded_decimal"), 10);
        if (mpz_cmp(a, b) != 0) tu_fail("u differs from u_decoded_decimal");
        mpz_clears(a, b, NULL);
    }
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "iterated")) {
        long iters = (long)cJSON_GetObjectItem(c, "iterations")->valuedouble;
        if (iters > 1000) continue; /* the million is for the library's slow test, not for the reference */
        uint8_t k[32] = {9}, u[32] = {9}, t[32], want[32];
        for (long i = 0; i < iters; i++) {
            ref_x25519(t, k, u);
            memcpy(u, k, 32);
            memcpy(k, t, 32);
        }
        tu_json_hex_fixed(want, 32, c, "output");
        n++;
        ok += !tu_expect_bytes("ref_x25519 iterated", k, want, 32);
    }
    cJSON *dh = cJSON_GetObjectItem(j, "diffie_hellman");
    uint8_t a[32], ap[32], b[32], bp[32], ss[32], got[32], nine[32] = {9};
    tu_json_hex_fixed(a, 32, dh, "alice_private");
    tu_json_hex_fixed(ap, 32, dh, "alice_public");
    tu_json_hex_fixed(b, 32, dh, "bob_private");
    tu_json_hex_fixed(bp, 32, dh, "bob_public");
    tu_json_hex_fixed(ss, 32, dh, "shared_secret");
    ref_x25519(got, a, nine);
    n++, ok += !tu_expect_bytes("alice public", got, ap, 32);
    ref_x25519(got, b, nine);
    n++, ok += !tu_expect_bytes("bob public", got, bp, 32);
    ref_x25519(got, a, bp);
    n++, ok += !tu_expect_bytes("shared (alice)", got, ss, 32);
    ref_x25519(got, b, ap);
    n++, ok += !tu_expect_bytes("shared (bob)", got, ss, 32);
    printf("ref: rfc7748_x25519.json: %d/%d passed (iterations up to 1000)\n", ok, n);
    cJSON_Delete(j);
}

static void check_rfc8032(void) {
    cJSON *j = tu_load_json(tu_vector_path("rfc8032/rfc8032_ed25519.json"));
    cJSON *c;
    int n = 0, ok = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "vectors")) {
        const char *alg = tu_json_str(c, "algorithm");
        ref_ed_variant v = strcmp(alg, "Ed25519") == 0      ? REF_ED25519
                           : strcmp(alg, "Ed25519ctx") == 0 ? REF_ED25519CTX
                                                            : REF_ED25519PH;
        uint8_t seed[32], pub[32], sig[64], got_pub[32], got_sig[64], prefix[32];
        tu_json_hex_fixed(seed, 32, c, "secret_key");
        tu_json_hex_fixed(pub, 32, c, "public_key");
        tu_json_hex_fixed(sig, 64, c, "signature");
        size_t msglen = 0, ctxlen = 0;
        uint8_t *msg = tu_hex_alloc(tu_json_str(c, "message"), &msglen);
        const char *ctxhex = tu_json_str(c, "context");
        uint8_t *ctx = tu_hex_alloc(ctxhex ? ctxhex : "", &ctxlen);
        mpz_t s;
        mpz_init(s);
        ref_ed25519_expand(s, prefix, got_pub, seed);
        ref_ed25519_sign(got_sig, v, ctx, ctxlen, msg, msglen, seed);
        int good = !tu_expect_bytes(tu_json_str(c, "name"), got_pub, pub, 32);
        good &= !tu_expect_bytes(tu_json_str(c, "name"), got_sig, sig, 64);
        if (ref_ed25519_verify_policy(sig, v, ctx, ctxlen, msg, msglen, pub, 1, 1) != ECOPT_OK ||
            ref_ed25519_verify_policy(sig, v, ctx, ctxlen, msg, msglen, pub, 0, 0) != ECOPT_OK) {
            tu_fail("%s: reference rejects the RFC signature", tu_json_str(c, "name"));
            good = 0;
        }
        n++;
        ok += good;
        mpz_clear(s);
        free(msg);
        free(ctx);
    }
    printf("ref: rfc8032_ed25519.json: %d/%d passed\n", ok, n);
    cJSON_Delete(j);
}

static void check_wycheproof_x25519(void) {
    cJSON *j = tu_load_json(tu_vector_path("wycheproof/x25519_test.json"));
    cJSON *g, *t;
    int n = 0, ok = 0;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(j, "testGroups")) {
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(g, "tests")) {
            uint8_t pub[32], priv[32], shared[32], got[32];
            tu_json_hex_fixed(pub, 32, t, "public");
            tu_json_hex_fixed(priv, 32, t, "private");
            tu_json_hex_fixed(shared, 32, t, "shared");
            ref_x25519(got, priv, pub);
            n++;
            if (memcmp(got, shared, 32) == 0)
                ok++;
            else
                tu_fail("wycheproof x25519 tcId %d: reference differs",
                        (int)cJSON_GetObjectItem(t, "tcId")->valuedouble);
        }
    }
    printf("ref: x25519_test.json: %d/%d passed\n", ok, n);
    cJSON_Delete(j);
}

static void check_wycheproof_ed25519(void) {
    cJSON *j = tu_load_json(tu_vector_path("wycheproof/ed25519_test.json"));
    cJSON *g, *t;
    int n = 0, ok = 0, zip_extra = 0;
    cJSON_ArrayForEach(g, cJSON_GetObjectItem(j, "testGroups")) {
        uint8_t pk[32];
        tu_json_hex_fixed(pk, 32, cJSON_GetObjectItem(g, "publicKey"), "pk");
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(g, "tests")) {
            size_t msglen, siglen;
            uint8_t *msg = tu_hex_alloc(tu_json_str(t, "msg"), &msglen);
            uint8_t *sig = tu_hex_alloc(tu_json_str(t, "sig"), &siglen);
            int want_valid = strcmp(tu_json_str(t, "result"), "valid") == 0;
            int got_valid = siglen == 64 &&
                            ref_ed25519_verify_policy(sig, REF_ED25519, NULL, 0, msg, msglen, pk, 1, 1) == ECOPT_OK;
            n++;
            if (got_valid == want_valid)
                ok++;
            else
                tu_fail("wycheproof ed25519 tcId %d: reference says %s, file says %s",
                        (int)cJSON_GetObjectItem(t, "tcId")->valuedouble, got_valid ? "valid" : "invalid",
                        tu_json_str(t, "result"));
            /* ZIP-215: accepts every valid case, and of the invalid ones only tcId 151 (R = 0100..0080, x = 0 with the
             * sign bit set), per the vector README. */
            int zip_valid = siglen == 64 && ref_ed25519_verify_zip215(sig, msg, msglen, pk) == ECOPT_OK;
            if (want_valid && !zip_valid) tu_fail("wycheproof ed25519 tcId %d: reference ZIP-215 rejects a valid case",
                                                  (int)cJSON_GetObjectItem(t, "tcId")->valuedouble);
            if (!want_valid && zip_valid) {
                zip_extra++;
                if ((int)cJSON_GetObjectItem(t, "tcId")->valuedouble != 151)
                    tu_fail("wycheproof ed25519 tcId %d: reference ZIP-215 accepts it",
                            (int)cJSON_GetObjectItem(t, "tcId")->valuedouble);
            }
            free(msg);
            free(sig);
        }
    }
    if (zip_extra != 1) tu_fail("reference ZIP-215 accepts %d invalid Wycheproof cases, expected exactly tcId 151", zip_extra);
    printf("ref: ed25519_test.json: %d/%d passed (strict policy, cofactored); ZIP-215 accepts the valid ones and tcId 151\n",
           ok, n);
    cJSON_Delete(j);
}

/* The ladder (x-only, Montgomery form) against Edwards double-and-add: for a clamped s, the u-coordinate of [s]B
 * mapped to Curve25519 by u = (1 + y)/(1 - y) (RFC 7748 section 4.1) must be X25519(s, 9). */
static void check_ladder_vs_edwards(tu_rng *rng, long iters) {
    ref_pt B, P;
    ref_pt_init(&B);
    ref_pt_init(&P);
    ref_pt_base(&B);
    mpz_t k, u, t;
    mpz_inits(k, u, t, NULL);
    for (long i = 0; i < iters; i++) {
        uint8_t sc[32], nine[32] = {9}, got[32], want[32];
        tu_rng_bytes_density(rng, sc, 32);
        ref_clamp(k, sc);
        ref_pt_mul(&P, k, &B);
        mpz_ui_sub(t, 1, P.y);
        ref_fe_inv(t, t);
        mpz_add_ui(u, P.y, 1);
        ref_fe_mul(u, u, t);
        ref_to_le(want, 32, u);
        ref_x25519(got, sc, nine);
        if (tu_expect_bytes("ladder vs edwards", got, want, 32)) tu_hex_print("scalar", sc, 32);
    }
    mpz_clears(k, u, t, NULL);
    ref_pt_clear(&B);
    ref_pt_clear(&P);
}

/* Group laws on random points: associativity, [a]P + [b]P = [a+b]P, decode(encode(P)) = P. */
static void check_group(tu_rng *rng, long iters) {
    ref_pt B, P, Q, R, S1, S2;
    ref_pt_init(&B), ref_pt_init(&P), ref_pt_init(&Q), ref_pt_init(&R), ref_pt_init(&S1), ref_pt_init(&S2);
    ref_pt_base(&B);
    mpz_t a, b, c;
    mpz_inits(a, b, c, NULL);
    for (long i = 0; i < iters; i++) {
        uint8_t buf[32];
        tu_rng_bytes(rng, buf, 32);
        ref_from_le(a, buf, 32);
        tu_rng_bytes(rng, buf, 32);
        ref_from_le(b, buf, 32);
        ref_pt_mul(&P, a, &B);
        ref_pt_mul(&Q, b, &B);
        ref_pt_add(&S1, &P, &Q);
        mpz_add(c, a, b);
        ref_pt_mul(&S2, c, &B);
        if (!ref_pt_eq(&S1, &S2)) tu_fail("[a]B + [b]B != [a+b]B");
        ref_pt_add(&R, &S1, &B);
        ref_pt_add(&S2, &Q, &B);
        ref_pt_add(&S2, &P, &S2);
        if (!ref_pt_eq(&R, &S2)) tu_fail("(P + Q) + B != P + (Q + B)");
        if (!ref_pt_on_curve(&R)) tu_fail("sum not on the curve");
        ref_pt_encode(buf, &R);
        if (ref_pt_decode(&S1, buf, 1) != REF_DEC_OK || !ref_pt_eq(&S1, &R)) tu_fail("decode(encode(P)) != P");
    }
    mpz_clears(a, b, c, NULL);
    ref_pt_clear(&B), ref_pt_clear(&P), ref_pt_clear(&Q), ref_pt_clear(&R), ref_pt_clear(&S1), ref_pt_clear(&S2);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 20);
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    ref_init();
    check_constants();
    check_torsion();
    check_rfc7748();
    check_rfc8032();
    check_wycheproof_x25519();
    check_wycheproof_ed25519();
    check_ladder_vs_edwards(&rng, o.iters);
    check_group(&rng, o.iters);
    return tu_finish("ref.selftest");
}
