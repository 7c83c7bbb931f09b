/* test_ge4.c — curve.ge4.<backend> (ifma, ifma_emu): the four-lane point formulas of src/curve/ifma/ge4.h against
 * the same backend's one-lane ge code and the GMP reference (tests/ref), through canonical encodings.
 *
 * Covered: add, sub, double and the addition of an affine (Niels) point on random points of mixed order, the
 * identity, the 8-torsion points, P + P and P - P; chains of 64 operations without a conversion in between (the
 * limb bounds carried from one formula into the next), against the one-lane chain; the fixed-base multiplication
 * on edge scalars (0, 1, l - 1, l, l + 1, 8 l, 2^252, 2^255 - 1, 2^255, 2^256 - 1, every raw radix-64 digit at
 * 31, 32 or 63) and random ones, against the one-lane ecopt_ge_scalarmult_base_1way and [s]B in the reference; the
 * verification equation against the one-lane ecopt_ge_cofactored_eq_1way_vartime on equations that hold (up to
 * torsion) and fail. On ifma, a CPU without AVX-512 IFMA is a skip (77), never a pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "curve/ge.h"
#include "curve/ifma/ge4.h"
#include "ref25519.h"
#include "testutil.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static long n_checks;

static void from_ref(ecopt_ge_ext *r, const ref_pt *P) {
    uint8_t e[32];
    ref_pt_encode(e, P);
    if (ecopt_ge_decode(r, e) != 1) tu_fail("decode rejected the canonical encoding of a curve point");
}

static int expect_ext(const char *what, const ecopt_ge_ext *got, const ecopt_ge_ext *want) {
    uint8_t g[32], w[32];
    ecopt_ge_encode(g, got);
    ecopt_ge_encode(w, want);
    n_checks++;
    return tu_expect_bytes(what, g, w, 32);
}

static int expect4(const char *what, const ecopt_ge4_ext *got, const ref_pt *want) {
    ecopt_ge_ext g;
    uint8_t e[32], w[32];
    ecopt_ge4_to_ext(&g, got);
    ecopt_ge_encode(e, &g);
    ref_pt_encode(w, want);
    n_checks++;
    return tu_expect_bytes(what, e, w, 32);
}

/* The Niels form (y+x, y-x, 2dxy) of an affine reference point, as ecopt_fe (bytes from GMP). */
static void niels_from_ref(ecopt_ge_niels *n, const ref_pt *P) {
    mpz_t t, d2;
    mpz_inits(t, d2, NULL);
    uint8_t b[32];
    ref_fe_add(t, P->y, P->x);
    ref_to_le(b, 32, t);
    ecopt_fe_frombytes(&n->YpX, b);
    ref_fe_sub(t, P->y, P->x);
    ref_to_le(b, 32, t);
    ecopt_fe_frombytes(&n->YmX, b);
    ref_fe_add(d2, ref_d, ref_d);
    ref_fe_mul(t, P->x, P->y);
    ref_fe_mul(t, t, d2);
    ref_to_le(b, 32, t);
    ecopt_fe_frombytes(&n->XY2d, b);
    mpz_clears(t, d2, NULL);
}

/* add, sub, double, madd of P and Q in four lanes vs the reference. */
static void check_pair(const ref_pt *P, const ref_pt *Q, const char *ctx) {
    ecopt_ge_ext p, q;
    ecopt_ge4_ext p4, q4, r4;
    ecopt_ge4_cached c4;
    ecopt_ge_niels n;
    ref_pt R;
    ref_pt_init(&R);
    from_ref(&p, P);
    from_ref(&q, Q);
    ecopt_ge4_from_ext(&p4, &p);
    ecopt_ge4_from_ext(&q4, &q);
    ecopt_ge4_cached_from_ext(&c4, &q4);
    int bad = 0;
    ref_pt_add(&R, P, Q);
    ecopt_ge4_add(&r4, &p4, &c4);
    bad |= expect4("ge4_add", &r4, &R);
    niels_from_ref(&n, Q);
    ecopt_ge4_cached_from_niels(&c4, &n);
    ecopt_ge4_add(&r4, &p4, &c4);
    bad |= expect4("ge4_add of a Niels point (madd)", &r4, &R);
    ecopt_ge4_cached_from_ext(&c4, &q4);
    ref_pt_neg(&R, Q);
    ref_pt_add(&R, P, &R);
    ecopt_ge4_sub(&r4, &p4, &c4);
    bad |= expect4("ge4_sub", &r4, &R);
    ecopt_ge4_cached_from_niels(&c4, &n);
    ecopt_ge4_sub(&r4, &p4, &c4);
    bad |= expect4("ge4_sub of a Niels point", &r4, &R);
    ref_pt_double(&R, P);
    ecopt_ge4_double(&r4, &p4);
    bad |= expect4("ge4_double", &r4, &R);
    ecopt_ge4_double(&p4, &p4); /* in place */
    bad |= expect4("ge4_double in place", &p4, &R);
    if (bad) {
        uint8_t e[32];
        ref_pt_encode(e, P), tu_hex_print("P", e, 32);
        ref_pt_encode(e, Q), tu_hex_print("Q", e, 32);
        fprintf(stderr, "  (%s)\n", ctx);
    }
    ref_pt_clear(&R);
}

/* 64 steps of double / add / sub / madd picked by the generator, in four lanes and in one lane side by side: the
 * four-lane values are never converted in between, so each formula takes the previous one's output bounds. */
static void check_chain(tu_rng *rng, const ref_pt *P, const ref_pt *Q) {
    ecopt_ge_ext p, q, r, r4e;
    ecopt_ge_cached qc;
    ecopt_ge4_ext a4, q4;
    ecopt_ge4_cached qc4, qn4;
    ecopt_ge_niels n;
    from_ref(&p, P);
    from_ref(&q, Q);
    niels_from_ref(&n, Q);
    ecopt_ge_cached_from_ext(&qc, &q);
    ecopt_ge4_from_ext(&a4, &p);
    ecopt_ge4_from_ext(&q4, &q);
    ecopt_ge4_cached_from_ext(&qc4, &q4);
    ecopt_ge4_cached_from_niels(&qn4, &n);
    r = p;
    char ops[65];
    for (int i = 0; i < 64; i++) {
        int op = (int)tu_rng_below(rng, 5);
        ops[i] = "dasmn"[op];
        switch (op) {
        case 0: ecopt_ge_double(&r, &r, 1), ecopt_ge4_double(&a4, &a4); break;
        case 1: ecopt_ge_add(&r, &r, &qc), ecopt_ge4_add(&a4, &a4, &qc4); break;
        case 2: ecopt_ge_sub(&r, &r, &qc), ecopt_ge4_sub(&a4, &a4, &qc4); break;
        case 3: ecopt_ge_madd(&r, &r, &n), ecopt_ge4_add(&a4, &a4, &qn4); break;
        default: ecopt_ge_sub(&r, &r, &qc), ecopt_ge4_sub(&a4, &a4, &qn4); break;
        }
    }
    ops[64] = 0;
    ecopt_ge4_to_ext(&r4e, &a4);
    if (expect_ext("ge4 chain vs the one-lane chain", &r4e, &r)) fprintf(stderr, "  ops %s\n", ops);
}

static void check_base(const uint8_t s[32], const ref_pt *B) {
    ecopt_ge_ext r4, r1;
    ecopt_ge4_scalarmult_base(&r4, s);
    ecopt_ge_scalarmult_base_1way(&r1, s);
    int bad = expect_ext("ge4_scalarmult_base vs the one-lane one", &r4, &r1);
    mpz_t k;
    mpz_init(k);
    ref_from_le(k, s, 32);
    ref_pt R;
    ref_pt_init(&R);
    ref_pt_mul(&R, k, B);
    ecopt_ge4_ext t;
    ecopt_ge4_from_ext(&t, &r4);
    bad |= expect4("ge4_scalarmult_base vs the reference", &t, &R);
    if (bad) tu_hex_print("s", s, 32);
    ref_pt_clear(&R);
    mpz_clear(k);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 40);
    const char *want_be = tu_requested_backend();
    if (strcmp(want_be, STR(ECOPT_BE_SUFFIX)) != 0) {
        fprintf(stderr, "FAIL: ECOPT_BACKEND=%s but this binary is compiled for %s\n", want_be, STR(ECOPT_BE_SUFFIX));
        return 1;
    }
    if (!ecopt_fe_backend_available()) {
        printf("SKIP: backend %s is compiled in but not available on this CPU (no AVX-512 IFMA)\n",
               STR(ECOPT_BE_SUFFIX));
        return 77;
    }
    printf("backend: %s\n", STR(ECOPT_BE_SUFFIX));
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    ref_pt B, I, P, Q, T[8];
    ref_pt_init(&B), ref_pt_init(&I), ref_pt_init(&P), ref_pt_init(&Q);
    ref_pt_base(&B);
    ref_pt_identity(&I);
    for (int i = 0; i < 8; i++) ref_pt_init(&T[i]);
    ref_torsion_points(T);
    mpz_t a;
    mpz_init(a);

    /* Formulas: the identity, the torsion points, B, their sums, P + P, P - P, random mixed-order pairs. */
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            ref_pt_add(&P, &T[i], &B);
            check_pair(&T[i], &T[j], "torsion pair");
            check_pair(&P, &T[j], "T_i + B, T_j");
        }
    check_pair(&I, &I, "identity, identity");
    check_pair(&B, &B, "B, B");
    for (long i = 0; i < o.iters; i++) {
        uint8_t s[32];
        tu_rng_bytes(&rng, s, 32);
        ref_from_le(a, s, 32);
        ref_pt_mul(&P, a, &B);
        if (i % 2) ref_pt_add(&P, &P, &T[tu_rng_below(&rng, 8)]);
        tu_rng_bytes(&rng, s, 32);
        ref_from_le(a, s, 32);
        ref_pt_mul(&Q, a, &B);
        if (i % 3) ref_pt_add(&Q, &Q, &T[tu_rng_below(&rng, 8)]);
        check_pair(&P, &Q, "random pair");
        check_pair(&P, &P, "random P, P");
        check_chain(&rng, &P, &Q);
    }

    /* Fixed base: edge scalars, then digit patterns, then random scalars of random bit density. */
    {
        mpz_t e;
        mpz_init(e);
        uint8_t s[32];
        for (int k = 0; k < 12; k++) {
            switch (k) {
            case 0: mpz_set_ui(e, 0); break;
            case 1: mpz_set_ui(e, 1); break;
            case 2: mpz_sub_ui(e, ref_l, 1); break;
            case 3: mpz_set(e, ref_l); break;
            case 4: mpz_add_ui(e, ref_l, 1); break;
            case 5: mpz_mul_ui(e, ref_l, 8); break;
            case 6: mpz_set_ui(e, 1), mpz_mul_2exp(e, e, 252); break;
            case 7: mpz_sub_ui(e, ref_2_255, 1); break;
            case 8: mpz_set(e, ref_2_255); break;
            case 9: mpz_set_ui(e, 1), mpz_mul_2exp(e, e, 256), mpz_sub_ui(e, e, 1); break;
            case 10: mpz_set_ui(e, 1), mpz_mul_2exp(e, e, 254); break;
            default: mpz_set_ui(e, 1), mpz_mul_2exp(e, e, 255), mpz_add(e, e, ref_l); break;
            }
            ref_to_le(s, 32, e);
            check_base(s, &B);
        }
        static const unsigned raw[3] = {31, 32, 63}; /* recoded: 31; -32 with a carry; -1 with a carry */
        for (int k = 0; k < 3; k++)
            for (unsigned top = 0; top < 16; top += 5) {
                memset(s, 0, 32);
                for (int i = 0; i < 43; i++) {
                    unsigned d = i < 42 ? raw[k] : top;
                    int bit = 6 * i;
                    unsigned v = d << (bit % 8);
                    s[bit / 8] |= (uint8_t)v;
                    if (bit / 8 + 1 < 32) s[bit / 8 + 1] |= (uint8_t)(v >> 8);
                }
                check_base(s, &B);
            }
        for (long i = 0; i < 4 * o.iters; i++) {
            tu_rng_bytes_density(&rng, s, 32);
            check_base(s, &B);
        }
        mpz_clear(e);
    }

    /* Verification equation: four lanes vs one lane, and vs the expected verdict. */
    {
        mpz_t kk, ss, x;
        mpz_inits(kk, ss, x, NULL);
        ref_pt A, R, t;
        ref_pt_init(&A), ref_pt_init(&R), ref_pt_init(&t);
        for (long i = 0; i < 2 * o.iters; i++) {
            uint8_t sk[32], sS[32], st[32];
            tu_rng_bytes_density(&rng, sk, 32);
            tu_rng_bytes_density(&rng, sS, 32);
            ref_sc_reduce(sk, sk, 32);
            ref_sc_reduce(sS, sS, 32);
            if (i == 0) memset(sk, 0, 32);
            if (i == 1) memset(sS, 0, 32);
            if (i == 2) mpz_sub_ui(x, ref_l, 1), ref_to_le(sk, 32, x), ref_to_le(sS, 32, x);
            ref_from_le(kk, sk, 32);
            ref_from_le(ss, sS, 32);
            tu_rng_bytes(&rng, st, 32);
            ref_from_le(x, st, 32);
            ref_pt_mul(&A, x, &B);
            if (i % 2 == 0) ref_pt_add(&A, &A, &T[tu_rng_below(&rng, 8)]);
            ref_pt_mul(&R, ss, &B);
            ref_pt_mul(&t, kk, &A);
            ref_pt_neg(&t, &t);
            ref_pt_add(&R, &R, &t);
            int kind = (int)(i % 3); /* 0: + T (holds); 1: + T + B (fails); 2: random R (fails) */
            ref_pt_add(&R, &R, &T[tu_rng_below(&rng, 8)]);
            if (kind == 1) ref_pt_add(&R, &R, &B);
            if (kind == 2) tu_rng_bytes(&rng, st, 32), ref_from_le(x, st, 32), ref_pt_mul(&R, x, &B);
            ecopt_ge_ext ea, er;
            from_ref(&ea, &A);
            from_ref(&er, &R);
            int got = ecopt_ge4_cofactored_eq_vartime(&ea, &er, sk, sS);
            int one = ecopt_ge_cofactored_eq_1way_vartime(&ea, &er, sk, sS);
            n_checks++;
            if (got != one || got != (kind == 0)) {
                tu_fail("ge4_cofactored_eq_vartime: %d, one lane %d, expected %d", got, one, kind == 0);
                tu_hex_print("k", sk, 32), tu_hex_print("s", sS, 32);
            }
        }
        ref_pt_clear(&A), ref_pt_clear(&R), ref_pt_clear(&t);
        mpz_clears(kk, ss, x, NULL);
    }

    mpz_clear(a);
    ref_pt_clear(&B), ref_pt_clear(&I), ref_pt_clear(&P), ref_pt_clear(&Q);
    for (int i = 0; i < 8; i++) ref_pt_clear(&T[i]);
    printf("%ld checks\n", n_checks);
    return tu_finish("test_ge4");
}
