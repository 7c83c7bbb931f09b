/* test_scalar.c — curve.scalar: src/curve/scalar.h (scalars mod l, backend-independent) against GMP.
 *
 * reduce64, muladd, is_canonical and clamp on random inputs of random bit density and on an edge set around l,
 * its multiples and the powers of two that bound the inputs (2^252, 2^253, 2^256 - 1, 2^512 - 1), plus aliasing
 * (scalar.h: outputs may equal inputs); ratio_vartime (c k = sign k1 mod l, k1 < 2^126, 0 < c < 2^127) on every
 * reduced edge and on random reduced k. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "curve/scalar.h"
#include "ref25519.h"
#include "testutil.h"

static long n_checks = 0;

/* Edge values, each as an integer expression built from l and powers of two (filled in by make_edges). */
enum { MAX_EDGES = 40 };
static mpz_t edges[MAX_EDGES];
static int n_edges = 0;

static void add_edge(const mpz_t x, size_t maxbytes) {
    mpz_t t;
    mpz_init(t);
    mpz_ui_pow_ui(t, 2, 8 * maxbytes);
    if (mpz_sgn(x) >= 0 && mpz_cmp(x, t) < 0 && n_edges < MAX_EDGES) mpz_init_set(edges[n_edges++], x);
    mpz_clear(t);
}

/* The edge set for inputs of maxbytes bytes. */
static void make_edges(size_t maxbytes) {
    for (int i = 0; i < n_edges; i++) mpz_clear(edges[i]);
    n_edges = 0;
    mpz_t x, top;
    mpz_inits(x, top, NULL);
    mpz_ui_pow_ui(top, 2, 8 * maxbytes);
    static const long small[] = {0, 1, 2, 8};
    for (size_t i = 0; i < TU_ARRAY_LEN(small); i++) mpz_set_si(x, small[i]), add_edge(x, maxbytes);
    for (long k = -1; k <= 1; k++) { /* l - 1, l, l + 1 and the same around 2l, 8l, 16l */
        static const unsigned long mult[] = {1, 2, 8, 16};
        for (size_t m = 0; m < TU_ARRAY_LEN(mult); m++) {
            mpz_mul_ui(x, ref_l, mult[m]);
            if (k < 0) mpz_sub_ui(x, x, 1);
            else mpz_add_ui(x, x, (unsigned long)k);
            add_edge(x, maxbytes);
        }
    }
    static const unsigned pw[] = {252, 253, 255, 256, 384, 504, 511, 512};
    for (size_t i = 0; i < TU_ARRAY_LEN(pw); i++) {
        mpz_ui_pow_ui(x, 2, pw[i]);
        add_edge(x, maxbytes);
        mpz_sub_ui(x, x, 1);
        add_edge(x, maxbytes); /* 2^k - 1: 2^256 - 1, 2^512 - 1, ... */
    }
    /* (l - 1)^2 + (l - 1): the largest a*b + c for reduced inputs; l * 2^256 - 1; the largest multiple of l. */
    mpz_sub_ui(x, ref_l, 1);
    mpz_mul(x, x, x);
    mpz_add(x, x, ref_l);
    mpz_sub_ui(x, x, 1);
    add_edge(x, maxbytes);
    mpz_mul_2exp(x, ref_l, 256);
    mpz_sub_ui(x, x, 1);
    add_edge(x, maxbytes);
    mpz_sub_ui(x, top, 1);
    mpz_fdiv_q(x, x, ref_l);
    mpz_mul(x, x, ref_l);
    add_edge(x, maxbytes);
    mpz_clears(x, top, NULL);
}

static void check_reduce64(const uint8_t x[64]) {
    uint8_t got[32], want[32], buf[64];
    ref_sc_reduce(want, x, 64);
    ecopt_scalar_reduce64(got, x);
    n_checks++;
    if (tu_expect_bytes("reduce64", got, want, 32)) tu_hex_print("x", x, 64);
    memcpy(buf, x, 64);
    ecopt_scalar_reduce64(buf, buf); /* r == x */
    n_checks++;
    if (tu_expect_bytes("reduce64 (r == x)", buf, want, 32)) tu_hex_print("x", x, 64);
}

static void check_muladd(const uint8_t a[32], const uint8_t b[32], const uint8_t c[32]) {
    uint8_t got[32], want[32], buf[32];
    ref_sc_muladd(want, a, b, c);
    ecopt_scalar_muladd(got, a, b, c);
    n_checks++;
    int bad = tu_expect_bytes("muladd", got, want, 32);
    memcpy(buf, a, 32);
    ecopt_scalar_muladd(buf, buf, b, c);
    n_checks++;
    bad |= tu_expect_bytes("muladd (r == a)", buf, want, 32);
    memcpy(buf, b, 32);
    ecopt_scalar_muladd(buf, a, buf, c);
    n_checks++;
    bad |= tu_expect_bytes("muladd (r == b)", buf, want, 32);
    memcpy(buf, c, 32);
    ecopt_scalar_muladd(buf, a, b, buf);
    n_checks++;
    bad |= tu_expect_bytes("muladd (r == c)", buf, want, 32);
    if (bad) tu_hex_print("a", a, 32), tu_hex_print("b", b, 32), tu_hex_print("c", c, 32);
}

static void check_canonical_and_clamp(const uint8_t s[32]) {
    mpz_t x;
    mpz_init(x);
    ref_from_le(x, s, 32);
    uint64_t want = mpz_cmp(x, ref_l) < 0, got = ecopt_scalar_is_canonical(s);
    n_checks++;
    if (got != want) {
        tu_fail("is_canonical: got %llu want %llu", (unsigned long long)got, (unsigned long long)want);
        tu_hex_print("s", s, 32);
    }
    /* clamp: compare with the integer the RFCs define (ref_clamp), encoded back. */
    uint8_t wantc[32], gotc[32];
    ref_clamp(x, s);
    ref_to_le(wantc, 32, x);
    ecopt_scalar_clamp(gotc, s);
    n_checks++;
    if (tu_expect_bytes("clamp", gotc, wantc, 32)) tu_hex_print("s", s, 32);
    memcpy(gotc, s, 32);
    ecopt_scalar_clamp(gotc, gotc);
    n_checks++;
    if (tu_expect_bytes("clamp (out == in)", gotc, wantc, 32)) tu_hex_print("s", s, 32);
    mpz_clear(x);
}

/* ratio_vartime: k < l; the congruence and both bounds in mpz. */
static void check_ratio(const uint8_t k[32]) {
    uint8_t k1[16], c[16];
    mpz_t K, K1, C, lhs, rhs, bound;
    mpz_inits(K, K1, C, lhs, rhs, bound, NULL);
    int sign = ecopt_scalar_ratio_vartime(k1, c, k);
    ref_from_le(K, k, 32);
    ref_from_le(K1, k1, 16);
    ref_from_le(C, c, 16);
    mpz_mul(lhs, C, K);
    mpz_mod(lhs, lhs, ref_l);
    if (sign > 0)
        mpz_mod(rhs, K1, ref_l);
    else
        mpz_neg(rhs, K1), mpz_mod(rhs, rhs, ref_l);
    int bad = (sign != 1 && sign != -1) || mpz_cmp(lhs, rhs) != 0 || mpz_sgn(C) <= 0;
    mpz_set_ui(bound, 1);
    mpz_mul_2exp(bound, bound, 126);
    bad |= mpz_cmp(K1, bound) >= 0;
    mpz_mul_2exp(bound, bound, 1);
    bad |= mpz_cmp(C, bound) >= 0;
    n_checks++;
    if (bad) {
        tu_fail("scalar_ratio_vartime: c k != sign k1 mod l, or a bound fails");
        tu_hex_print("k", k, 32), tu_hex_print("k1", k1, 16), tu_hex_print("c", c, 16);
        fprintf(stderr, "  sign %d\n", sign);
    }
    mpz_clears(K, K1, C, lhs, rhs, bound, NULL);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 20000);
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);

    /* Edges: reduce64 on every 64-byte edge; is_canonical/clamp on every 32-byte edge; muladd on every triple. */
    make_edges(64);
    int e64 = n_edges;
    for (int i = 0; i < n_edges; i++) {
        uint8_t x[64];
        ref_to_le(x, 64, edges[i]);
        check_reduce64(x);
    }
    make_edges(32);
    int e32 = n_edges;
    uint8_t(*eb)[32] = malloc((size_t)n_edges * 32);
    for (int i = 0; i < n_edges; i++) {
        ref_to_le(eb[i], 32, edges[i]);
        check_canonical_and_clamp(eb[i]);
        if (mpz_cmp(edges[i], ref_l) < 0) check_ratio(eb[i]);
    }
    /* ratio_vartime on small k, powers of two and l - 1 - 2^j (all below l). */
    for (unsigned j = 0; j < 253; j++) {
        uint8_t s[32];
        mpz_t y;
        mpz_init_set_ui(y, 1);
        mpz_mul_2exp(y, y, j);
        if (mpz_cmp(y, ref_l) < 0) ref_to_le(s, 32, y), check_ratio(s);
        mpz_sub(y, ref_l, y);
        mpz_sub_ui(y, y, 1);
        if (mpz_sgn(y) >= 0) ref_to_le(s, 32, y), check_ratio(s);
        mpz_set_ui(y, j);
        ref_to_le(s, 32, y), check_ratio(s);
        mpz_clear(y);
    }
    for (int i = 0; i < n_edges; i++)
        for (int j = 0; j < n_edges; j++)
            for (int k = 0; k < n_edges; k++) check_muladd(eb[i], eb[j], eb[k]);
    /* Around l exactly: l - 2^k and l + 2^k for every bit k, through is_canonical. */
    mpz_t x;
    mpz_init(x);
    for (unsigned k = 0; k < 253; k++) {
        uint8_t s[32];
        mpz_set_ui(x, 1);
        mpz_mul_2exp(x, x, k);
        mpz_sub(x, ref_l, x);
        if (mpz_sgn(x) >= 0) ref_to_le(s, 32, x), check_canonical_and_clamp(s);
        mpz_set_ui(x, 1);
        mpz_mul_2exp(x, x, k);
        mpz_add(x, ref_l, x);
        ref_to_le(s, 32, x), check_canonical_and_clamp(s);
    }
    long edge_checks = n_checks;

    for (long i = 0; i < o.iters; i++) {
        uint8_t wide[64], a[32], b[32], c[32];
        tu_rng_bytes_density(&rng, wide, 64);
        check_reduce64(wide);
        tu_rng_bytes_density(&rng, a, 32);
        tu_rng_bytes_density(&rng, b, 32);
        tu_rng_bytes_density(&rng, c, 32);
        /* Sometimes reduced inputs (the signing case: r + k s with r, k, s < l), sometimes edges. */
        if (tu_rng_below(&rng, 3) == 0) {
            ref_sc_reduce(a, a, 32), ref_sc_reduce(b, b, 32), ref_sc_reduce(c, c, 32);
        } else if (tu_rng_below(&rng, 4) == 0) {
            memcpy(b, eb[tu_rng_below(&rng, (uint64_t)n_edges)], 32);
        }
        check_muladd(a, b, c);
        check_canonical_and_clamp(a);
        ref_sc_reduce(c, c, 32);
        check_ratio(c);
        /* Near l: l plus or minus a random offset below 2^20, through is_canonical and as a product input. */
        mpz_set_ui(x, (unsigned long)tu_rng_below(&rng, 1u << 20));
        if (tu_rng_below(&rng, 2)) mpz_neg(x, x);
        mpz_add(x, x, ref_l);
        ref_to_le(a, 32, x);
        check_canonical_and_clamp(a);
        check_muladd(a, a, b);
    }
    mpz_clear(x);
    for (int i = 0; i < n_edges; i++) mpz_clear(edges[i]);
    free(eb);
    printf("curve.scalar: %ld checks (%ld on edges: %d 64-byte, %d 32-byte values, all %d^3 muladd triples), "
           "%ld random rounds\n",
           n_checks, edge_checks, e64, e32, e32, o.iters);
    return tu_finish("curve.scalar");
}
