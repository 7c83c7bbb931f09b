/* test_invert.c — field.invert.<backend>: the three inversions of src/field/fe.h (ecopt_fe_invert, _fermat,
 * _divsteps) against GMP's mpz_invert, for one backend (compiled with -DECOPT_FE_BACKEND_<name>=1).
 *
 * Inputs: an edge set (0 -> 0, 1, 2, p - 1 = 2^255 - 20, p and the other values in [p, 2^255) that frombytes accepts
 * unreduced, (p +- 1)/2, 2^254, powers of two at limb boundaries), random bytes of random bit density (bit 255
 * random, ignored by frombytes), and loose inputs (ecopt_fe_add of two tight elements, so the value can reach
 * 2^256 and above 2p). Expected: mpz_invert(x mod p, p), or 0 for x = 0 mod p. Also 1/(1/x) = x through each
 * variant, and outputs aliasing inputs. */
#include <stdio.h>

#include <gmp.h>
#include <string.h>

#include "field/fe.h"
#include "ref25519.h"
#include "testutil.h"

#define STR2(x) #x
#define STR(x) STR2(x)

typedef void (*inv_fn)(ecopt_fe *h, const ecopt_fe *f);
static const struct {
    const char *name;
    inv_fn fn;
} variants[] = {
    {"invert", ecopt_fe_invert},
    {"invert_fermat", ecopt_fe_invert_fermat},
    {"invert_divsteps", ecopt_fe_invert_divsteps},
};
#define NVAR (sizeof variants / sizeof variants[0])

static long n_checks = 0;

/* want = 1/x mod p by GMP, 0 when x = 0 mod p. */
static void gmp_inverse(mpz_t want, const mpz_t x) {
    mpz_t r;
    mpz_init(r);
    mpz_mod(r, x, ref_p);
    if (mpz_sgn(r) == 0) mpz_set_ui(want, 0);
    else if (!mpz_invert(want, r, ref_p)) tu_fail("mpz_invert failed on a nonzero residue");
    mpz_clear(r);
}

static void expect_fe(const char *what, const char *variant, const ecopt_fe *h, const mpz_t want, const mpz_t x) {
    uint8_t got[32], exp[32];
    ecopt_fe_tobytes(got, h);
    ref_to_le(exp, 32, want);
    n_checks++;
    if (memcmp(got, exp, 32) != 0) {
        tu_fail("%s %s: differs from GMP", variant, what);
        if (tu_failures <= 50) {
            gmp_fprintf(stderr, "  x = 0x%Zx\n", x);
            tu_hex_print("got ", got, 32);
            tu_hex_print("want", exp, 32);
        }
    }
}

/* Every variant on f (value x, not reduced), plain, aliased, and inverted twice. */
static void check_one(const char *what, const ecopt_fe *f, const mpz_t x) {
    mpz_t want, xr;
    mpz_inits(want, xr, NULL);
    gmp_inverse(want, x);
    mpz_mod(xr, x, ref_p);
    for (size_t k = 0; k < NVAR; k++) {
        ecopt_fe h, a;
        variants[k].fn(&h, f);
        expect_fe(what, variants[k].name, &h, want, x);
        a = *f;
        variants[k].fn(&a, &a);
        expect_fe(what, variants[k].name, &a, want, x); /* h == f */
        variants[k].fn(&a, &h);
        expect_fe(what, variants[k].name, &a, xr, x); /* 1/(1/x) = x (and 0 -> 0) */
    }
    mpz_clears(want, xr, NULL);
}

static void check_bytes(const char *what, const uint8_t b[32]) {
    uint8_t m[32];
    memcpy(m, b, 32);
    m[31] &= 0x7f; /* frombytes ignores bit 255 */
    mpz_t x;
    mpz_init(x);
    ref_from_le(x, m, 32);
    ecopt_fe f;
    ecopt_fe_frombytes(&f, b);
    check_one(what, &f, x);
    mpz_clear(x);
}

/* Loose: f = a + b (ecopt_fe_add of two tight elements), value a + b unreduced. */
static void check_loose(const uint8_t a[32], const uint8_t b[32]) {
    uint8_t ma[32], mb[32];
    memcpy(ma, a, 32);
    memcpy(mb, b, 32);
    ma[31] &= 0x7f;
    mb[31] &= 0x7f;
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    ref_from_le(x, ma, 32);
    ref_from_le(y, mb, 32);
    mpz_add(x, x, y);
    ecopt_fe fa, fb, f;
    ecopt_fe_frombytes(&fa, a);
    ecopt_fe_frombytes(&fb, b);
    ecopt_fe_add(&f, &fa, &fb);
    check_one("loose (a + b)", &f, x);
    mpz_clears(x, y, NULL);
}

static const char *const edge_hex[] = {
    "0", "1", "2", "3", "13", "26",
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec", /* p - 1 = 2^255 - 20 */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeb", /* p - 2 */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed", /* p (= 0) */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffee", /* p + 1 (= 1) */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", /* 2^255 - 1 = p + 18 */
    "3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff6", /* (p - 1)/2 */
    "3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7", /* (p + 1)/2 */
    "4000000000000000000000000000000000000000000000000000000000000000", /* 2^254 */
    "4000000000000000", "3fffffffffffffff", "10000000000000000000000000000000", /* 2^62, 2^62 - 1, 2^124 */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",   /* 2^248 - 1 */
    "100000000000000000000000000000000000000000000000000000000000000",  /* 2^248 */
    "5555555555555555555555555555555555555555555555555555555555555555",
    "2aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
};

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 3000);
    const char *want = tu_requested_backend();
    if (strcmp(want, STR(ECOPT_BE_SUFFIX)) != 0) {
        fprintf(stderr, "FAIL: ECOPT_BACKEND=%s but this binary is compiled for %s\n", want, STR(ECOPT_BE_SUFFIX));
        return 1;
    }
    if (!ecopt_fe_backend_available()) {
        printf("SKIP: backend %s is compiled in but not available on this CPU\n", STR(ECOPT_BE_SUFFIX));
        return 77;
    }
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);

    size_t ne = sizeof edge_hex / sizeof edge_hex[0];
    uint8_t edges[sizeof edge_hex / sizeof edge_hex[0]][32];
    for (size_t i = 0; i < ne; i++) {
        mpz_t x;
        mpz_init_set_str(x, edge_hex[i], 16);
        ref_to_le(edges[i], 32, x);
        mpz_clear(x);
        check_bytes(edge_hex[i], edges[i]);
        /* bit 255 set: frombytes must ignore it */
        uint8_t b[32];
        memcpy(b, edges[i], 32);
        b[31] |= 0x80;
        check_bytes("edge with bit 255 set", b);
    }
    /* Loose edges: every pair of the largest values (sums up to 2^256 - 2). */
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++) check_loose(edges[i], edges[j]);
    long edge_checks = n_checks;

    for (long it = 0; it < o.iters; it++) {
        uint8_t a[32], b[32];
        tu_rng_bytes_density(&rng, a, 32);
        tu_rng_bytes_density(&rng, b, 32);
        long before = tu_failures;
        check_bytes("random", a);
        if (it % 4 == 0) check_loose(a, b);
        if (tu_failures != before) {
            tu_hex_print("input a", a, 32);
            tu_hex_print("input b", b, 32);
        }
    }
    printf("field.invert.%s: %ld checks (%ld on %zu edges and their loose sums), %ld random inputs\n",
           STR(ECOPT_BE_SUFFIX), n_checks, edge_checks, ne, o.iters);
    return tu_finish("field.invert");
}
