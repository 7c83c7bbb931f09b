/* test_curve.c — curve.ge.<backend>: edwards25519 points (src/curve/ge.h) and the Montgomery ladder
 * (src/curve/mont.h) of one backend against the GMP reference (affine coordinates, double-and-add).
 *
 * Points are compared through their canonical encodings (injective on the curve). Covered:
 *   - exhaustive over the 8-torsion points T_i and the mixed points T_i + B: add, sub, double, neg, encode, decode,
 *     is_identity, has_small_order on every pair;
 *   - group laws on random points (add/sub/double chains, doubling without T followed by one with T);
 *   - decode and decode_zip215 on edge encodings (y around 0, 1, p, 2^255 - 1, both sign bits) and random bytes,
 *     and decode_x2 on each of them paired with the one before against the one-lane decodes;
 *   - scalarmult and scalarmult_base on random and edge scalars, every (digit, position) of the radix-64 fixed-base
 *     table, scalarmult_base on scalars up to 2^256 - 1 whose recoded digits sit at their bounds (every lower
 *     digit -32, every one 31, the top digit 16), double_scalarmult_vartime, the ladder against RFC 7748's ladder
 *     in mpz;
 *   - cofactored_eq_vartime against [8]([s]B - [k]A - R) in the reference, A and R of mixed order, R chosen so that
 *     the equation holds (up to an 8-torsion point) or fails (off by [1]B, by [l]-free points, or random);
 *   - the backend table's ed25519_scalarmult_base on any 256-bit scalar. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "backend.h"
#include "curve/ge.h"
#include "curve/mont.h"
#include "ecopt/ecopt.h"
#include "ref25519.h"
#include "testutil.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static long n_checks = 0;

/* ecopt point from a reference point (through its canonical encoding). */
static void from_ref(ecopt_ge_ext *r, const ref_pt *P) {
    uint8_t e[32];
    ref_pt_encode(e, P);
    if (ecopt_ge_decode(r, e) != 1) {
        tu_fail("decode rejected the canonical encoding of a curve point");
        tu_hex_print("encoding", e, 32);
    }
}

/* Compare the encoding of an ecopt point with the reference point. */
static int expect_pt(const char *what, const ecopt_ge_ext *got, const ref_pt *want) {
    uint8_t g[32], w[32];
    ecopt_ge_encode(g, got);
    ref_pt_encode(w, want);
    n_checks++;
    return tu_expect_bytes(what, g, w, 32);
}

static void check_pair(const ref_pt *P, const ref_pt *Q, const char *ctx) {
    ecopt_ge_ext p, q, r;
    ecopt_ge_cached qc;
    ref_pt R;
    ref_pt_init(&R);
    from_ref(&p, P);
    from_ref(&q, Q);
    ecopt_ge_cached_from_ext(&qc, &q);
    int bad = 0;
    ecopt_ge_add(&r, &p, &qc);
    ref_pt_add(&R, P, Q);
    bad |= expect_pt("ge_add", &r, &R);
    ecopt_ge_add(&p, &p, &qc); /* r == p */
    bad |= expect_pt("ge_add (r == p)", &p, &R);
    from_ref(&p, P);
    ecopt_ge_sub(&r, &p, &qc);
    ref_pt neg;
    ref_pt_init(&neg);
    ref_pt_neg(&neg, Q);
    ref_pt_add(&R, P, &neg);
    bad |= expect_pt("ge_sub", &r, &R);
    ref_pt_clear(&neg);
    if (bad) {
        uint8_t e[32];
        fprintf(stderr, "  (%s)\n", ctx);
        ref_pt_encode(e, P), tu_hex_print("P", e, 32);
        ref_pt_encode(e, Q), tu_hex_print("Q", e, 32);
    }
    ref_pt_clear(&R);
}

static void check_single(const ref_pt *P, const char *ctx) {
    ecopt_ge_ext p, r;
    ref_pt R;
    ref_pt_init(&R);
    from_ref(&p, P);
    int bad = 0;
    ecopt_ge_double(&r, &p, 1);
    ref_pt_double(&R, P);
    bad |= expect_pt("ge_double", &r, &R);
    ecopt_ge_double(&r, &p, 0);
    ecopt_ge_double(&r, &r, 1); /* without T, then with T: [4]P */
    ref_pt_double(&R, &R);
    bad |= expect_pt("ge_double (no T, then T)", &r, &R);
    ecopt_ge_neg(&r, &p);
    ref_pt_neg(&R, P);
    bad |= expect_pt("ge_neg", &r, &R);
    uint64_t want_id = ref_pt_is_identity(P), want_small = ref_pt_small_order(P) != 0;
    n_checks += 2;
    if (ecopt_ge_is_identity(&p) != want_id) tu_fail("ge_is_identity: got %llu", (unsigned long long)!want_id), bad = 1;
    if (ecopt_ge_has_small_order(&p) != want_small)
        tu_fail("ge_has_small_order: got %llu", (unsigned long long)!want_small), bad = 1;
    if (bad) {
        uint8_t e[32];
        fprintf(stderr, "  (%s)\n", ctx);
        ref_pt_encode(e, P), tu_hex_print("P", e, 32);
    }
    ref_pt_clear(&R);
}

/* decode_x2 on e with the encoding checked before it, in both orders and both readings: each lane's verdict and
 * point must be those of the one-lane decode (which check_decode compares with the reference). Points are compared
 * coordinate by coordinate (the same arithmetic either way). */
static uint8_t prev_e[32];

static void check_decode_x2(const uint8_t e[32]) {
    const uint8_t *pair[2] = {e, prev_e};
    for (int zip = 0; zip < 2; zip++)
        for (int order = 0; order < 2; order++) {
            const uint8_t *s[2] = {pair[order], pair[order ^ 1]};
            ecopt_ge_ext rr[2], r1;
            int ok[2];
            ecopt_ge_decode_x2(rr, ok, s[0], s[1], zip);
            for (int k = 0; k < 2; k++) {
                int want = zip ? ecopt_ge_decode_zip215(&r1, s[k]) : ecopt_ge_decode(&r1, s[k]);
                n_checks++;
                if (ok[k] != want || !ecopt_fe_eq(&rr[k].X, &r1.X) || !ecopt_fe_eq(&rr[k].Y, &r1.Y) ||
                    !ecopt_fe_eq(&rr[k].Z, &r1.Z) || !ecopt_fe_eq(&rr[k].T, &r1.T)) {
                    tu_fail("ge_decode_x2 (zip215 %d) lane %d: verdict %d or point differs from the one-lane decode "
                            "(verdict %d)", zip, k, ok[k], want);
                    tu_hex_print("lane 0", s[0], 32);
                    tu_hex_print("lane 1", s[1], 32);
                }
            }
        }
    memcpy(prev_e, e, 32);
}

/* decode / decode_zip215 against the reference's strict and lenient decoders. */
static void check_decode(const uint8_t e[32]) {
    ref_pt P;
    ref_pt_init(&P);
    ecopt_ge_ext r;
    int want = ref_pt_decode(&P, e, 1) == REF_DEC_OK;
    int got = ecopt_ge_decode(&r, e);
    n_checks++;
    if (got != want) {
        tu_fail("ge_decode: returned %d, strict RFC 8032 decoding says %d", got, want);
        tu_hex_print("encoding", e, 32);
    } else if (want) {
        if (expect_pt("ge_decode point", &r, &P)) tu_hex_print("encoding", e, 32);
    } else {
        n_checks++;
        if (ecopt_ge_is_identity(&r) != 1) tu_fail("ge_decode failure did not leave the identity"), tu_hex_print("encoding", e, 32);
    }
    int rz = ref_pt_decode(&P, e, 0);
    want = rz != REF_DEC_NOT_ON_CURVE;
    got = ecopt_ge_decode_zip215(&r, e);
    n_checks++;
    if (got != want) {
        tu_fail("ge_decode_zip215: returned %d, the lenient reading says %d", got, want);
        tu_hex_print("encoding", e, 32);
    } else if (want) {
        if (expect_pt("ge_decode_zip215 point", &r, &P)) tu_hex_print("encoding", e, 32);
    }
    ref_pt_clear(&P);
    check_decode_x2(e);
}

static void check_scalarmult(const ref_pt *P, const uint8_t s[32], int with_base) {
    mpz_t k;
    mpz_init(k);
    ref_from_le(k, s, 32);
    ref_pt R;
    ref_pt_init(&R);
    ecopt_ge_ext p, r;
    from_ref(&p, P);
    ecopt_ge_scalarmult(&r, &p, s);
    ref_pt_mul(&R, k, P);
    if (expect_pt("ge_scalarmult", &r, &R)) {
        uint8_t e[32];
        ref_pt_encode(e, P), tu_hex_print("P", e, 32);
        tu_hex_print("s", s, 32);
    }
    if (with_base) {
        ref_pt B;
        ref_pt_init(&B);
        ref_pt_base(&B);
        ref_pt_mul(&R, k, &B);
        ecopt_ge_scalarmult_base(&r, s);
        if (expect_pt("ge_scalarmult_base", &r, &R)) tu_hex_print("s", s, 32);
        ref_pt_clear(&B);
    }
    ref_pt_clear(&R);
    mpz_clear(k);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 60);
    const char *want_be = tu_requested_backend();
    if (strcmp(want_be, STR(ECOPT_BE_SUFFIX)) != 0) {
        fprintf(stderr, "FAIL: ECOPT_BACKEND=%s but this binary is compiled for %s\n", want_be, STR(ECOPT_BE_SUFFIX));
        return 1;
    }
    if (!ecopt_fe_backend_available()) {
        /* Compiled in but this CPU lacks it (adx, adx51: BMI2 and ADX): ctest's skip code, never a pass. */
        printf("SKIP: backend %s is compiled in but not available on this CPU\n", STR(ECOPT_BE_SUFFIX));
        return 77;
    }
    printf("backend: %s\n", STR(ECOPT_BE_SUFFIX));
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    ref_pt B;
    ref_pt_init(&B);
    ref_pt_base(&B);

    /* ge_base and the identity. */
    {
        ecopt_ge_ext b, id;
        ecopt_ge_base(&b);
        expect_pt("ge_base", &b, &B);
        ref_pt I;
        ref_pt_init(&I);
        ecopt_ge_identity(&id);
        expect_pt("ge_identity", &id, &I);
        n_checks++;
        if (ecopt_ge_is_identity(&id) != 1 || ecopt_ge_is_identity(&b) != 0) tu_fail("ge_is_identity on O or B");
        ref_pt_clear(&I);
    }

    /* Exhaustive: the 8 torsion points and the 8 mixed points T_i + B, every pair and every single. */
    ref_pt S[16];
    ref_pt T[8];
    for (int i = 0; i < 8; i++) ref_pt_init(&T[i]);
    ref_torsion_points(T);
    for (int i = 0; i < 16; i++) {
        ref_pt_init(&S[i]);
        if (i < 8) ref_pt_set(&S[i], &T[i]);
        else ref_pt_add(&S[i], &T[i - 8], &B);
    }
    char ctx[64];
    for (int i = 0; i < 16; i++) {
        snprintf(ctx, sizeof ctx, "exhaustive point %d", i);
        check_single(&S[i], ctx);
        for (int j = 0; j < 16; j++) {
            snprintf(ctx, sizeof ctx, "exhaustive pair %d, %d", i, j);
            check_pair(&S[i], &S[j], ctx);
        }
        uint8_t e[32];
        ref_pt_encode(e, &S[i]);
        check_decode(e);
        /* Their non-canonical encodings: sign bit set on x = 0, and y + p where it fits below 2^255. */
        if (mpz_sgn(S[i].x) == 0) {
            e[31] |= 0x80;
            check_decode(e);
        }
        mpz_t y;
        mpz_init(y);
        mpz_add(y, S[i].y, ref_p);
        if (mpz_cmp(y, ref_2_255) < 0) {
            for (int sign = 0; sign < 2; sign++) {
                ref_to_le(e, 32, y);
                e[31] |= (uint8_t)(sign << 7);
                check_decode(e);
            }
        }
        mpz_clear(y);
    }
    long exhaustive = n_checks;

    /* Decode edges: y in {0..40, p - 20 .. 2^255 - 1} with both sign bits; random byte strings. */
    for (int sign = 0; sign < 2; sign++) {
        mpz_t y;
        mpz_init(y);
        for (int k = 0; k < 80; k++) {
            uint8_t e[32];
            if (k < 40) mpz_set_ui(y, (unsigned long)k);
            else mpz_sub_ui(y, ref_2_255, (unsigned long)(k - 39)); /* 2^255 - 1 down to 2^255 - 40 */
            ref_to_le(e, 32, y);
            e[31] |= (uint8_t)(sign << 7);
            check_decode(e);
        }
        mpz_clear(y);
    }
    for (long i = 0; i < 20 * o.iters; i++) {
        uint8_t e[32];
        tu_rng_bytes_density(&rng, e, 32);
        check_decode(e);
    }

    /* Random points: pairs, singles, and mixed with torsion. */
    mpz_t a;
    mpz_init(a);
    ref_pt P, Q;
    ref_pt_init(&P);
    ref_pt_init(&Q);
    for (long i = 0; i < o.iters; i++) {
        uint8_t s[32];
        tu_rng_bytes(&rng, s, 32);
        ref_from_le(a, s, 32);
        ref_pt_mul(&P, a, &B);
        ref_pt_add(&Q, &P, &T[tu_rng_below(&rng, 8)]);
        check_single(&P, "random point");
        check_single(&Q, "random mixed-order point");
        check_pair(&P, &Q, "random pair");
        check_pair(&P, &P, "random P, P");
        ref_pt_neg(&Q, &P);
        check_pair(&P, &Q, "random P, -P");
    }

    /* Scalar multiplication: random scalars below 2^255 (ge.h's precondition) of random bit density, and edges. */
    {
        mpz_t e;
        mpz_init(e);
        static const char *const edge_scalars[] = {"0", "1", "2", "7", "8", "9", "f", "10", "11"};
        uint8_t s[32];
        for (size_t i = 0; i < TU_ARRAY_LEN(edge_scalars) + 7; i++) {
            if (i < TU_ARRAY_LEN(edge_scalars)) mpz_set_str(e, edge_scalars[i], 16);
            else if (i == TU_ARRAY_LEN(edge_scalars)) mpz_sub_ui(e, ref_l, 1);
            else if (i == TU_ARRAY_LEN(edge_scalars) + 1) mpz_set(e, ref_l);
            else if (i == TU_ARRAY_LEN(edge_scalars) + 2) mpz_add_ui(e, ref_l, 1);
            else if (i == TU_ARRAY_LEN(edge_scalars) + 3) mpz_sub_ui(e, ref_2_255, 1);
            else if (i == TU_ARRAY_LEN(edge_scalars) + 4) mpz_mul_ui(e, ref_l, 8);
            else if (i == TU_ARRAY_LEN(edge_scalars) + 5) mpz_tdiv_q_2exp(e, ref_2_255, 1), mpz_sub_ui(e, e, 1);
            else mpz_tdiv_q_2exp(e, ref_2_255, 1); /* 2^254: a clamped scalar's top bit alone */
            ref_to_le(s, 32, e);
            check_scalarmult(&B, s, 1);
            check_scalarmult(&T[3], s, 0);
            ref_pt_add(&Q, &B, &T[5]);
            check_scalarmult(&Q, s, 0);
        }
        for (long i = 0; i < o.iters; i++) {
            tu_rng_bytes_density(&rng, s, 32);
            s[31] &= 0x7f;
            uint8_t t[32];
            tu_rng_bytes(&rng, t, 32);
            ref_from_le(a, t, 32);
            ref_pt_mul(&P, a, &B);
            if (i % 4 == 0) ref_pt_add(&P, &P, &T[tu_rng_below(&rng, 8)]);
            check_scalarmult(&P, s, 1);
        }
        mpz_clear(e);
    }

    /* Every (digit, position) of the radix-64 fixed-base table: s = d 64^i, d = 1..63, i = 0..41, and d = 1..15
     * at i = 42 (bits 252..255; bit 255 set is accepted by ecopt_ge_scalarmult_base). d >= 32 recodes to d - 64
     * and a carry, so both signs of every entry of rows 0..41 are read (d = 32: entry 32 negated), and the carry
     * out of row 41 (d >= 32 at i = 41) reaches the top row as digit 1; d = 15 at i = 42 reads top-row entry 15.
     * Expected values by repeated addition in the reference. */
    {
        ref_pt Pi, acc;
        ref_pt_init(&Pi);
        ref_pt_init(&acc);
        ref_pt_base(&Pi);
        long bad = 0;
        for (int i = 0; i < 43; i++) {
            ref_pt_identity(&acc);
            for (unsigned d = 1; d < (i < 42 ? 64u : 16u); d++) {
                ref_pt_add(&acc, &acc, &Pi);
                uint8_t s[32] = {0};
                /* d << 6i, spread over the bytes it touches (bits 6i..6i+5). */
                int bit = 6 * i;
                unsigned v = d << (bit % 8);
                s[bit / 8] = (uint8_t)v;
                if (bit / 8 + 1 < 32) s[bit / 8 + 1] = (uint8_t)(v >> 8);
                ecopt_ge_ext r;
                ecopt_ge_scalarmult_base(&r, s);
                if (expect_pt("ge_scalarmult_base table entry", &r, &acc)) {
                    fprintf(stderr, "  digit %u at position %d\n", d, i);
                    if (++bad > 5) break;
                }
            }
            for (int k = 0; k < 6; k++) ref_pt_double(&Pi, &Pi);
        }
        ref_pt_clear(&Pi);
        ref_pt_clear(&acc);
    }

    /* The radix-64 recoding at its bounds, any s < 2^256 (keygen passes a clamped scalar, sign a reduced nonce,
     * the backend table's entry anything): every raw 6-bit digit 32 then 31 (each recoded digit -32 with a
     * carry), every raw digit 31 (each 31, no carry), 63 (-1, then 0s, each with a carry; s = 2^256 - 1 with the
     * top four bits 15: top digit 16), 32 (-32, then -31s), the top four bits 0..15 under each pattern, and
     * 2^255, 2^255 - 1, 2^252 - 1, 2^252, l - 1, l, 8 l - 1, 2^256 - 2^252 - 1, vs [s]B in the reference (GMP
     * double-and-add). */
    {
        mpz_t e;
        mpz_init(e);
        ref_pt R;
        ref_pt_init(&R);
        long bad = 0;
        for (int k = 0; k < 4 * 16 + 8; k++) {
            uint8_t s[32] = {0};
            if (k < 4 * 16) {
                static const unsigned low[4] = {31, 31, 63, 32}; /* raw digits 1..41 (digit 0 below) */
                unsigned d0 = k / 16 == 0 ? 32 : low[k / 16];
                for (int i = 0; i < 43; i++) {
                    unsigned d = i == 0 ? d0 : i < 42 ? low[k / 16] : (unsigned)(k % 16);
                    int bit = 6 * i;
                    unsigned v = d << (bit % 8);
                    s[bit / 8] |= (uint8_t)v;
                    if (bit / 8 + 1 < 32) s[bit / 8 + 1] |= (uint8_t)(v >> 8);
                }
                ref_from_le(e, s, 32);
            } else {
                switch (k - 4 * 16) {
                case 0: mpz_set(e, ref_2_255); break;
                case 1: mpz_sub_ui(e, ref_2_255, 1); break;
                case 2: mpz_set_ui(e, 1), mpz_mul_2exp(e, e, 252), mpz_sub_ui(e, e, 1); break;
                case 3: mpz_set_ui(e, 1), mpz_mul_2exp(e, e, 252); break;
                case 4: mpz_sub_ui(e, ref_l, 1); break;
                case 5: mpz_set(e, ref_l); break;
                case 6: mpz_mul_ui(e, ref_l, 8), mpz_sub_ui(e, e, 1); break;
                default: mpz_set_ui(e, 15), mpz_mul_2exp(e, e, 252), mpz_sub_ui(e, e, 1); break;
                }
                ref_to_le(s, 32, e);
            }
            ref_pt_mul(&R, e, &B);
            ecopt_ge_ext r;
            ecopt_ge_scalarmult_base(&r, s);
            if (expect_pt("ge_scalarmult_base recoding bound", &r, &R)) {
                tu_hex_print("s", s, 32);
                if (++bad > 5) break;
            }
        }
        /* the all-ones scalar is the pattern k = 2 * 16 + 15 above; check the bytes once more, built plainly */
        uint8_t ones[32];
        memset(ones, 0xff, 32);
        ref_from_le(e, ones, 32);
        ref_pt_mul(&R, e, &B);
        ecopt_ge_ext r;
        ecopt_ge_scalarmult_base(&r, ones);
        if (expect_pt("ge_scalarmult_base 2^256 - 1", &r, &R)) tu_hex_print("s", ones, 32);
        ref_pt_clear(&R);
        mpz_clear(e);
    }

    /* double_scalarmult_vartime: [a]P + [b]B, a, b < l. */
    {
        mpz_t b;
        mpz_init(b);
        ref_pt R, t;
        ref_pt_init(&R);
        ref_pt_init(&t);
        for (long i = 0; i < o.iters / 2 + 4; i++) {
            uint8_t sa[32], sb[32], st[32];
            tu_rng_bytes_density(&rng, sa, 32);
            tu_rng_bytes_density(&rng, sb, 32);
            ref_sc_reduce(sa, sa, 32);
            ref_sc_reduce(sb, sb, 32);
            if (i == 0) memset(sa, 0, 32);
            if (i == 1) memset(sb, 0, 32);
            if (i == 2) mpz_sub_ui(a, ref_l, 1), ref_to_le(sa, 32, a), ref_to_le(sb, 32, a);
            ref_from_le(a, sa, 32);
            ref_from_le(b, sb, 32);
            tu_rng_bytes(&rng, st, 32);
            ref_from_le(b, st, 32);
            ref_pt_mul(&P, b, &B); /* P random */
            if (i % 3 == 0) ref_pt_add(&P, &P, &T[tu_rng_below(&rng, 8)]);
            ref_from_le(b, sb, 32);
            ref_pt_mul(&R, a, &P);
            ref_pt_mul(&t, b, &B);
            ref_pt_add(&R, &R, &t);
            ecopt_ge_ext p, r;
            from_ref(&p, &P);
            ecopt_ge_double_scalarmult_vartime(&r, sa, &p, sb);
            if (expect_pt("ge_double_scalarmult_vartime", &r, &R)) {
                uint8_t e[32];
                ref_pt_encode(e, &P);
                tu_hex_print("a", sa, 32), tu_hex_print("P", e, 32), tu_hex_print("b", sb, 32);
            }
        }
        ref_pt_clear(&R);
        ref_pt_clear(&t);
        mpz_clear(b);
    }

    /* cofactored_eq_vartime: [8]([s]B - [k]A - R) = identity, A with a random torsion part; R = [s]B - [k]A + T
     * (holds for every 8-torsion T) or that plus B (fails) or random (fails but for a 1 in l chance). Edge k:
     * 0, 1, l - 1, small; edge s: 0, l - 1. */
    {
        mpz_t kk, ss, x;
        mpz_inits(kk, ss, x, NULL);
        ref_pt A, R, t;
        ref_pt_init(&A), ref_pt_init(&R), ref_pt_init(&t);
        int holds_seen = 0, fails_seen = 0;
        for (long i = 0; i < o.iters / 2 + 12; i++) {
            uint8_t sk[32], sS[32], st[32];
            tu_rng_bytes_density(&rng, sk, 32);
            tu_rng_bytes_density(&rng, sS, 32);
            ref_sc_reduce(sk, sk, 32);
            ref_sc_reduce(sS, sS, 32);
            if (i == 0) memset(sk, 0, 32);
            if (i == 1) memset(sS, 0, 32);
            if (i == 2 || i == 3) mpz_sub_ui(x, ref_l, 1), ref_to_le(i == 2 ? sk : sS, 32, x);
            if (i == 4) memset(sk, 0, 32), sk[0] = 1;
            if (i == 5) memset(sk + 15, 0, 17); /* k < 2^120: the ratio is k itself */
            ref_from_le(kk, sk, 32);
            ref_from_le(ss, sS, 32);
            tu_rng_bytes(&rng, st, 32);
            ref_from_le(x, st, 32);
            ref_pt_mul(&A, x, &B);
            if (i % 2 == 0) ref_pt_add(&A, &A, &T[tu_rng_below(&rng, 8)]);
            /* R = [s]B - [k]A (+ T, + B) */
            ref_pt_mul(&R, ss, &B);
            ref_pt_mul(&t, kk, &A);
            ref_pt_neg(&t, &t);
            ref_pt_add(&R, &R, &t);
            int kind = (int)tu_rng_below(&rng, 4); /* 0, 1: + T (holds); 2: + T + B; 3: random R */
            if (kind <= 2) ref_pt_add(&R, &R, &T[tu_rng_below(&rng, 8)]);
            if (kind == 2) ref_pt_add(&R, &R, &B);
            if (kind == 3) tu_rng_bytes(&rng, st, 32), ref_from_le(x, st, 32), ref_pt_mul(&R, x, &B);
            /* want = [8]([s]B - [k]A - R) is the identity, in the reference */
            ref_pt_mul(&t, ss, &B);
            ref_pt w, u;
            ref_pt_init(&w), ref_pt_init(&u);
            ref_pt_mul(&u, kk, &A);
            ref_pt_neg(&u, &u);
            ref_pt_add(&w, &t, &u);
            ref_pt_neg(&u, &R);
            ref_pt_add(&w, &w, &u);
            int want = ref_pt_small_order(&w) != 0;
            ref_pt_clear(&w), ref_pt_clear(&u);
            ecopt_ge_ext ga, gr;
            from_ref(&ga, &A);
            from_ref(&gr, &R);
            int got = ecopt_ge_cofactored_eq_vartime(&ga, &gr, sk, sS);
            holds_seen += want, fails_seen += !want;
            n_checks++;
            if (got != want) {
                uint8_t e[32];
                tu_fail("ge_cofactored_eq_vartime disagrees with the reference");
                fprintf(stderr, "  got %d, want %d\n", got, want);
                ref_pt_encode(e, &A), tu_hex_print("A", e, 32);
                ref_pt_encode(e, &R), tu_hex_print("R", e, 32);
                tu_hex_print("k", sk, 32), tu_hex_print("s", sS, 32);
            }
        }
        if (!holds_seen || !fails_seen) tu_fail("ge_cofactored_eq_vartime: the cases did not cover both verdicts");
        ref_pt_clear(&A), ref_pt_clear(&R), ref_pt_clear(&t);
        mpz_clears(kk, ss, x, NULL);
    }

    /* The ladder with clamped scalars against RFC 7748's ladder in mpz; u random of any density (non-canonical and
     * twist points included), out aliasing k and u. */
    for (long i = 0; i < 4 * o.iters; i++) {
        uint8_t k[32], u[32], got[32], want[32], buf[32];
        tu_rng_bytes_density(&rng, k, 32);
        tu_rng_bytes_density(&rng, u, 32);
        k[0] &= 248, k[31] &= 127, k[31] |= 64;
        ref_x25519(want, k, u);
        ecopt_mont_ladder(got, k, u);
        n_checks++;
        if (tu_expect_bytes("mont_ladder", got, want, 32)) tu_hex_print("k", k, 32), tu_hex_print("u", u, 32);
        memcpy(buf, u, 32);
        ecopt_mont_ladder(buf, k, buf);
        n_checks++;
        if (tu_expect_bytes("mont_ladder (out == u)", buf, want, 32)) tu_hex_print("k", k, 32), tu_hex_print("u", u, 32);
        memcpy(buf, k, 32);
        ecopt_mont_ladder(buf, buf, u);
        n_checks++;
        if (tu_expect_bytes("mont_ladder (out == k)", buf, want, 32)) tu_hex_print("k", k, 32), tu_hex_print("u", u, 32);
    }

    /* The backend table's fixed-base entry takes any 32-byte s (backend.h): s up to 2^256 - 1. */
    {
        extern const ecopt_backend ECOPT_BE(ecopt_backend);
        const ecopt_backend *be = &ECOPT_BE(ecopt_backend);
        n_checks++;
        if (strcmp(be->name, STR(ECOPT_BE_SUFFIX)) != 0) tu_fail("backend table name %s", be->name);
        for (long i = 0; i < o.iters / 2 + 3; i++) {
            uint8_t s[32], got[32], want[32];
            tu_rng_bytes_density(&rng, s, 32);
            if (i == 0) memset(s, 0xff, 32);
            if (i == 1) s[31] |= 0x80;
            ref_from_le(a, s, 32);
            ref_pt_mul(&P, a, &B);
            ref_pt_encode(want, &P);
            be->ed25519_scalarmult_base(got, s);
            n_checks++;
            if (tu_expect_bytes("backend ed25519_scalarmult_base", got, want, 32)) tu_hex_print("s", s, 32);
        }
    }

    mpz_clear(a);
    ref_pt_clear(&P);
    ref_pt_clear(&Q);
    for (int i = 0; i < 16; i++) ref_pt_clear(&S[i]);
    for (int i = 0; i < 8; i++) ref_pt_clear(&T[i]);
    ref_pt_clear(&B);
    printf("curve.ge.%s: %ld checks (%ld exhaustive over the 8-torsion and T_i + B), %ld random rounds\n",
           STR(ECOPT_BE_SUFFIX), n_checks, exhaustive, o.iters);
    return tu_finish("curve.ge");
}
