/* test_fused.c — curve.fused.<be>: the whole-formula functions of the adx backend (src/curve/fused_adx.h, 4 x 64-bit
 * limbs, programs src/curve/formulas/<name>_adx.ir) or of the adx51 backend (src/curve/fused_adx51.h, 5 x 51-bit limbs,
 * programs src/curve/formulas/<name>_adx51.ir), whichever this file is compiled for (ECOPT_FE_BACKEND_adx or
 * ECOPT_FE_BACKEND_adx51; tests/CMakeLists.txt builds it once for each). The inputs are random limbs anywhere within
 * the programs' declared input bounds (not only points of the curve: the programs are polynomial identities):
 * uniform, near 0 and near the bound, the bound itself, and with probability 1/4 whole values at the edges of the
 * representation (0, 1, p - 1, p, p + 1, 2p - 1, 2p, 2^256 - 37, 2^255 - 1, 2^255, 2^256 - 1, 38, 2^192, 2^64 - 1),
 * each used where its limbs are within the input's bounds (adx: all of them everywhere; adx51, whose top limb holds
 * bits 204 to 255: those from 2p - 1 to 2^256 - 1 only for the loose inputs, 2^255 not for the ladder's). Checked
 * against
 *   - GMP: each output mod p equals the formula evaluated in mpz (RFC 7748 section 5 for the ladder step with its
 *     two cswaps; add-2008-hwcd-3, madd-2008-hwcd-3 and dbl-2008-hwcd of Hisil, Wong, Carter, Dawson 2008, with
 *     the negations of ge_formulas.h's double_c);
 *   - the C formulas of src/curve/ge_formulas.h compiled here for the same backend: madd_c, add_or_sub(.., 0)
 *     and double_c run the same field operations in the same order as the programs (adx51's multiply and square
 *     are generated from the same IR as u64's), so the limbs must be identical; add_or_sub(.., 1) and the ladder's
 *     two cswaps followed by ecopt_mont_ladderstep_c agree with GMP (the fused ladder step's limbs are not always
 *     the C's: a value 0 mod p may come out as 0 from one and as p or 2p from the other);
 *   - the library's ecopt_ge_madd, _add, _sub, _double of this backend: the same limbs as the direct calls when
 *     the library is built with ECOPT_ADX_FUSED (it calls them), else as the C formulas;
 *   - themselves with every output passed as the input it may alias (r = p, the ladder in place), and double_xyz
 *     leaving T alone;
 * every output limb within the programs' output bounds (adx51: the multiply's, limb 1 <= 2^51 + 2^10, the others
 * < 2^51; adx: any 64-bit limb), and on points of the curve ([k]B for random k, in projective coordinates with a
 * random Z) the sum, difference and double equal GMP's affine point arithmetic (ref25519).
 * Exit 77 (skip) when this CPU lacks BMI2/ADX. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "curve/ge.h"
#include "curve/ge_formulas.h"
#include "ref25519.h"
#include "testutil.h"

#define M64 UINT64_MAX

#if defined(ECOPT_FE_BACKEND_adx)
#include "curve/fused_adx.h"
#define BE "adx"
#define NL 4     /* limbs */
#define RADIX 64 /* bits a limb (the top one takes what is left of 256) */
#define FUSED(op) ecopt_##op##_fused_adx
/* Bounds (inclusive) a limb: every 256-bit value is an element of this backend. */
static const uint64_t TIGHT[NL] = {M64, M64, M64, M64};
static const uint64_t LOOSE[NL] = {M64, M64, M64, M64};
static const uint64_t MUL_OUT[NL] = {M64, M64, M64, M64}; /* the ladder's inputs, every output */
#elif defined(ECOPT_FE_BACKEND_x64) /* adx's programs and bounds, searched for baseline x86-64 */
#include "curve/fused_adx.h"
#define BE "x64"
#define NL 4
#define RADIX 64
#define FUSED(op) ecopt_##op##_fused_x64
static const uint64_t TIGHT[NL] = {M64, M64, M64, M64};
static const uint64_t LOOSE[NL] = {M64, M64, M64, M64};
static const uint64_t MUL_OUT[NL] = {M64, M64, M64, M64};
#elif defined(ECOPT_FE_BACKEND_adx51)
#include "curve/fused_adx51.h"
#define BE "adx51"
#define NL 5
#define RADIX 51
#define FUSED(op) ecopt_##op##_fused_adx51
#define T51 0x8000000007fffULL  /* fe_u64.h: tight, every limb < 2^51 + 2^15 */
#define L51 0x1000000000ffffULL /* loose, every limb < 2^52 + 2^16 */
static const uint64_t TIGHT[NL] = {T51, T51, T51, T51, T51};
static const uint64_t LOOSE[NL] = {L51, L51, L51, L51, L51};
/* the multiply's output bounds: the ladder's inputs (fused_adx51.h) and every output */
static const uint64_t MUL_OUT[NL] = {0x7ffffffffffffULL, 0x8000000000400ULL, 0x7ffffffffffffULL, 0x7ffffffffffffULL,
                                     0x7ffffffffffffULL};
#else
#error "test_fused.c: compile with -DECOPT_FE_BACKEND_adx=1, _x64=1 or _adx51=1"
#endif

static long n_checks = 0;

/* Whole values at the edges, as little-endian 64-bit words. */
static const uint64_t edge_values[][4] = {
    {0, 0, 0, 0},
    {1, 0, 0, 0},
    {M64 - 19, M64, M64, 0x7fffffffffffffffULL}, /* p - 1 */
    {M64 - 18, M64, M64, 0x7fffffffffffffffULL}, /* p */
    {M64 - 17, M64, M64, 0x7fffffffffffffffULL}, /* p + 1 */
    {M64 - 37, M64, M64, M64},                   /* 2p - 1 = 2^256 - 39 */
    {M64 - 36, M64, M64, M64},                   /* 2p = 2^256 - 38 */
    {M64 - 35, M64, M64, M64},                   /* 2^256 - 37 */
    {M64, M64, M64, 0x7fffffffffffffffULL},      /* 2^255 - 1 */
    {0, 0, 0, 0x8000000000000000ULL},            /* 2^255 */
    {M64, M64, M64, M64},                        /* 2^256 - 1 */
    {38, 0, 0, 0},
    {0, 0, 0, 1},                                /* 2^192 */
    {M64, 0, 0, 0},                              /* 2^64 - 1 */
};

/* The limbs of a value below 2^256: RADIX bits each, the top limb takes the rest. */
static void from_mpz(uint64_t v[NL], const mpz_t z) {
    mpz_t t;
    mpz_init_set(t, z);
    for (int i = 0; i < NL; i++) {
        if (i < NL - 1 && RADIX < 64) {
            mpz_t lo;
            mpz_init(lo);
            mpz_fdiv_r_2exp(lo, t, RADIX);
            v[i] = mpz_get_ui(lo); /* unsigned long is 64 bits on x86-64 */
            mpz_clear(lo);
        } else {
            v[i] = mpz_get_ui(t);
        }
        mpz_tdiv_q_2exp(t, t, RADIX);
    }
    mpz_clear(t);
}

/* The value of the limbs, mod p. */
static void to_mpz(mpz_t z, const uint64_t v[NL]) {
    mpz_set_ui(z, 0);
    for (int i = NL - 1; i >= 0; i--) {
        mpz_mul_2exp(z, z, RADIX);
        mpz_add_ui(z, z, v[i]);
    }
    mpz_mod(z, z, ref_p);
}

static int within(const uint64_t v[NL], const uint64_t bound[NL]) {
    for (int i = 0; i < NL; i++)
        if (v[i] > bound[i]) return 0;
    return 1;
}

/* A random limb in [0, bound]: uniform, or near an end (the bounds are what the proof covers). */
static uint64_t rnd_limb(tu_rng *r, uint64_t bound) {
    switch (tu_rng_below(r, 6)) {
    case 0: return bound - tu_rng_below(r, 64);
    case 1: return tu_rng_below(r, 64);
    case 2: return bound;
    default: return bound == M64 ? tu_rng_u64(r) : tu_rng_below(r, bound) + tu_rng_below(r, 2);
    }
}

/* A random element within bound: an edge value (when its limbs are within bound) or random limbs. */
static void rnd_fe(tu_rng *r, uint64_t v[NL], const uint64_t bound[NL]) {
    if (tu_rng_below(r, 4) == 0) {
        const uint64_t *w = edge_values[tu_rng_below(r, TU_ARRAY_LEN(edge_values))];
        mpz_t z;
        mpz_init(z);
        mpz_import(z, 4, -1, sizeof w[0], 0, 0, w);
        from_mpz(v, z);
        mpz_clear(z);
        if (within(v, bound)) return;
    }
    for (int i = 0; i < NL; i++) v[i] = rnd_limb(r, bound[i]);
}

static void print_limbs(const char *what, const uint64_t v[NL]) {
    fprintf(stderr, "  %s limbs", what);
    for (int i = 0; i < NL; i++) fprintf(stderr, " %#llx", (unsigned long long)v[i]);
    fprintf(stderr, "\n");
}

/* An output: within the output bounds and equal to want mod p. */
static int expect_fe(const char *what, const uint64_t got[NL], const mpz_t want) {
    mpz_t g;
    mpz_init(g);
    to_mpz(g, got);
    n_checks++;
    int bad = mpz_cmp(g, want) != 0 || !within(got, MUL_OUT);
    if (bad) {
        tu_fail("%s: wrong value or limb out of bounds", what);
        gmp_fprintf(stderr, "  got  %#Zx\n  want %#Zx\n", g, want);
        print_limbs("got", got);
    }
    mpz_clear(g);
    return bad;
}

static int expect_limbs(const char *what, const uint64_t got[NL], const uint64_t want[NL]) {
    n_checks++;
    if (memcmp(got, want, NL * sizeof got[0]) == 0) return 0;
    tu_fail("%s: limbs differ", what);
    print_limbs("got ", got);
    print_limbs("want", want);
    return 1;
}

static void expect_ext(const char *what, const ecopt_ge_ext *got, const ecopt_ge_ext *want, int with_t) {
    char label[96];
    snprintf(label, sizeof label, "%s X3", what);
    expect_limbs(label, got->X.v, want->X.v);
    snprintf(label, sizeof label, "%s Y3", what);
    expect_limbs(label, got->Y.v, want->Y.v);
    snprintf(label, sizeof label, "%s Z3", what);
    expect_limbs(label, got->Z.v, want->Z.v);
    if (with_t) {
        snprintf(label, sizeof label, "%s T3", what);
        expect_limbs(label, got->T.v, want->T.v);
    }
}

/* What the library's ecopt_ge_* must return: the fused functions' limbs when it calls them, else the C's. */
#ifdef ECOPT_ADX_FUSED
#define LIB_WANT(fused, c) (fused)
#else
#define LIB_WANT(fused, c) (c)
#endif

#define M(r, a, b) ref_fe_mul(r, a, b)
#define A(r, a, b) ref_fe_add(r, a, b)
#define S(r, a, b) ref_fe_sub(r, a, b)

/* ---- the ladder step -------------------------------------------------------------------------------------- */
/* The step with its swap: in = x1, x2, z2, x3, z3 (mod p), swap 0 or 1; want[0..3] = x2, z2, x3, z3 after RFC 7748's
 * two cswaps by swap and the step. */
static void ladder_ref(mpz_t want[4], mpz_t in[5], uint64_t swap) {
    mpz_t x1, x2, z2, x3, z3, a, aa, b, bb, e, c, d, da, cb, t, a24;
    mpz_inits(x1, x2, z2, x3, z3, a, aa, b, bb, e, c, d, da, cb, t, a24, NULL);
    mpz_set(x1, in[0]);
    mpz_set(x2, in[swap ? 3 : 1]);
    mpz_set(z2, in[swap ? 4 : 2]);
    mpz_set(x3, in[swap ? 1 : 3]);
    mpz_set(z3, in[swap ? 2 : 4]);
    mpz_set_ui(a24, 121665);
    A(a, x2, z2);
    M(aa, a, a);
    S(b, x2, z2);
    M(bb, b, b);
    S(e, aa, bb);
    A(c, x3, z3);
    S(d, x3, z3);
    M(da, d, a);
    M(cb, c, b);
    A(t, da, cb);
    M(want[2], t, t);       /* x3 = (DA + CB)^2 */
    S(t, da, cb);
    M(t, t, t);
    M(want[3], t, x1);      /* z3 = x1 (DA - CB)^2 */
    M(want[0], aa, bb);     /* x2 = AA BB */
    M(t, a24, e);
    A(t, t, aa);
    M(want[1], t, e);       /* z2 = E (AA + a24 E) */
    mpz_clears(x1, x2, z2, x3, z3, a, aa, b, bb, e, c, d, da, cb, t, a24, NULL);
}

static const char *const ladder_names[4] = {"x2", "z2", "x3", "z3"};

static void check_ladder(tu_rng *rng) {
    uint64_t in[5][NL], out[4][NL], st[5][NL], sw[1];
    for (int k = 0; k < 5; k++) rnd_fe(rng, in[k], MUL_OUT);
    sw[0] = tu_rng_below(rng, 2);
    FUSED(mont_ladderstep)(out[0], out[1], out[2], out[3], in[0], in[1], in[2], in[3], in[4], sw);
    /* in place, as mont.c calls it */
    memcpy(st, in, sizeof st);
    FUSED(mont_ladderstep)(st[1], st[2], st[3], st[4], st[0], st[1], st[2], st[3], st[4], sw);
    for (int k = 0; k < 4; k++) expect_limbs("ladderstep in place", st[k + 1], out[k]);

    /* the C step after the two cswaps, as mont.c runs it without ECOPT_ADX_FUSED: the same values mod p (not
     * always the same limbs: a value 0 mod p may come out as 0 from one and as p or 2p from the other) */
    ecopt_fe x1, c_out[4];
    memcpy(x1.v, in[0], sizeof x1.v);
    for (int k = 0; k < 4; k++) memcpy(c_out[k].v, in[k + 1], sizeof c_out[k].v);
    ecopt_fe_cswap(&c_out[0], &c_out[2], sw[0]);
    ecopt_fe_cswap(&c_out[1], &c_out[3], sw[0]);
    ecopt_mont_ladderstep_c(&c_out[0], &c_out[1], &c_out[2], &c_out[3], &x1);

    mpz_t m[5], want[4];
    for (int k = 0; k < 5; k++) {
        mpz_init(m[k]);
        to_mpz(m[k], in[k]);
    }
    for (int k = 0; k < 4; k++) mpz_init(want[k]);
    ladder_ref(want, m, sw[0]);
    char label[64];
    for (int k = 0; k < 4; k++) {
        snprintf(label, sizeof label, "ladderstep swap %d %s", (int)sw[0], ladder_names[k]);
        if (expect_fe(label, out[k], want[k]))
            for (int q = 0; q < 5; q++) print_limbs("in", in[q]);
        snprintf(label, sizeof label, "ladderstep (C formula) swap %d %s", (int)sw[0], ladder_names[k]);
        expect_fe(label, c_out[k].v, want[k]);
    }
    for (int k = 0; k < 5; k++) mpz_clear(m[k]);
    for (int k = 0; k < 4; k++) mpz_clear(want[k]);
}

/* ---- edwards25519 ----------------------------------------------------------------------------------------- */
/* E F, G H, F G, E H against X3 Y3 Z3 T3. */
static void expect_efgh(const char *what, const ecopt_ge_ext *out, const mpz_t e, const mpz_t f, const mpz_t g,
                        const mpz_t h, int with_t) {
    mpz_t t;
    mpz_init(t);
    char label[96];
    M(t, e, f);
    snprintf(label, sizeof label, "%s X3", what);
    expect_fe(label, out->X.v, t);
    M(t, g, h);
    snprintf(label, sizeof label, "%s Y3", what);
    expect_fe(label, out->Y.v, t);
    M(t, f, g);
    snprintf(label, sizeof label, "%s Z3", what);
    expect_fe(label, out->Z.v, t);
    if (with_t) {
        M(t, e, h);
        snprintf(label, sizeof label, "%s T3", what);
        expect_fe(label, out->T.v, t);
    }
    mpz_clear(t);
}

/* ge.h: the coordinates of a point are tight. */
static void rnd_ext(tu_rng *rng, ecopt_ge_ext *p) {
    rnd_fe(rng, p->X.v, TIGHT);
    rnd_fe(rng, p->Y.v, TIGHT);
    rnd_fe(rng, p->Z.v, TIGHT);
    rnd_fe(rng, p->T.v, TIGHT);
}

static void check_madd(tu_rng *rng) {
    ecopt_ge_ext p, r, rc, rl, ra;
    ecopt_ge_niels q;
    rnd_ext(rng, &p);
    rnd_fe(rng, q.YpX.v, TIGHT);
    rnd_fe(rng, q.YmX.v, TIGHT);
    rnd_fe(rng, q.XY2d.v, TIGHT);
    FUSED(ge_madd)(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, q.YpX.v, q.YmX.v, q.XY2d.v);
    madd_c(&rc, &p, &q);
    expect_ext("madd vs C", &r, &rc, 1);
    ecopt_ge_madd(&rl, &p, &q);
    expect_ext("madd vs library", &rl, LIB_WANT(&r, &rc), 1);
    ra = p;
    FUSED(ge_madd)(ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, q.YpX.v, q.YmX.v, q.XY2d.v);
    expect_ext("madd in place", &ra, &r, 1);

    mpz_t X1, Y1, Z1, T1, yp, ym, xy, a, b, c, d, e, f, g, h, t;
    mpz_inits(X1, Y1, Z1, T1, yp, ym, xy, a, b, c, d, e, f, g, h, t, NULL);
    to_mpz(X1, p.X.v);
    to_mpz(Y1, p.Y.v);
    to_mpz(Z1, p.Z.v);
    to_mpz(T1, p.T.v);
    to_mpz(yp, q.YpX.v);
    to_mpz(ym, q.YmX.v);
    to_mpz(xy, q.XY2d.v);
    S(t, Y1, X1);
    M(a, t, ym);
    A(t, Y1, X1);
    M(b, t, yp);
    M(c, T1, xy);
    A(d, Z1, Z1);
    S(e, b, a);
    S(f, d, c);
    A(g, d, c);
    A(h, b, a);
    expect_efgh("madd", &r, e, f, g, h, 1);
    mpz_clears(X1, Y1, Z1, T1, yp, ym, xy, a, b, c, d, e, f, g, h, t, NULL);
}

static void check_add(tu_rng *rng) {
    ecopt_ge_ext p, r, rc, rl, ra, rs, rsc, rsl;
    ecopt_ge_cached q;
    rnd_ext(rng, &p);
    /* ge.h: YpX and Z2 loose, YmX and T2d tight (the programs take all four loose; ge_sub swaps them) */
    rnd_fe(rng, q.YpX.v, LOOSE);
    rnd_fe(rng, q.YmX.v, TIGHT);
    rnd_fe(rng, q.Z2.v, LOOSE);
    rnd_fe(rng, q.T2d.v, TIGHT);
    FUSED(ge_add)(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, q.YpX.v, q.YmX.v, q.Z2.v, q.T2d.v);
    add_or_sub(&rc, &p, &q, 0);
    expect_ext("add vs C", &r, &rc, 1);
    ecopt_ge_add(&rl, &p, &q);
    expect_ext("add vs library", &rl, LIB_WANT(&r, &rc), 1);
    ra = p;
    FUSED(ge_add)(ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, q.YpX.v, q.YmX.v, q.Z2.v,
                  q.T2d.v);
    expect_ext("add in place", &ra, &r, 1);

    /* p - q as ge.c's ecopt_ge_sub does it with the fused addition: (Y-X, Y+X, 2Z, -2dT) */
    ecopt_fe negt;
    ecopt_fe_neg(&negt, &q.T2d);
    FUSED(ge_add)(rs.X.v, rs.Y.v, rs.Z.v, rs.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, q.YmX.v, q.YpX.v, q.Z2.v, negt.v);
    add_or_sub(&rsc, &p, &q, 1);
    ecopt_ge_sub(&rsl, &p, &q);
    expect_ext("sub vs library", &rsl, LIB_WANT(&rs, &rsc), 1);

    mpz_t X1, Y1, Z1, T1, yp, ym, z2, t2d, a, b, c, d, e, f, g, h, t;
    mpz_inits(X1, Y1, Z1, T1, yp, ym, z2, t2d, a, b, c, d, e, f, g, h, t, NULL);
    to_mpz(X1, p.X.v);
    to_mpz(Y1, p.Y.v);
    to_mpz(Z1, p.Z.v);
    to_mpz(T1, p.T.v);
    to_mpz(yp, q.YpX.v);
    to_mpz(ym, q.YmX.v);
    to_mpz(z2, q.Z2.v);
    to_mpz(t2d, q.T2d.v);
    S(t, Y1, X1);
    M(a, t, ym);
    A(t, Y1, X1);
    M(b, t, yp);
    M(c, T1, t2d);
    M(d, Z1, z2);
    S(e, b, a);
    S(f, d, c);
    A(g, d, c);
    A(h, b, a);
    expect_efgh("add", &r, e, f, g, h, 1);
    /* sub: A and B trade factors, F and G trade places */
    S(t, Y1, X1);
    M(a, t, yp);
    A(t, Y1, X1);
    M(b, t, ym);
    S(e, b, a);
    A(f, d, c);
    S(g, d, c);
    A(h, b, a);
    expect_efgh("sub", &rs, e, f, g, h, 1);
    expect_efgh("sub (C formula)", &rsc, e, f, g, h, 1);
    mpz_clears(X1, Y1, Z1, T1, yp, ym, z2, t2d, a, b, c, d, e, f, g, h, t, NULL);
}

static void check_double(tu_rng *rng) {
    ecopt_ge_ext p, r, r3, rc, rc3, rl, rl3, ra;
    rnd_ext(rng, &p);
    FUSED(ge_double)(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v);
    FUSED(ge_double_xyz)(r3.X.v, r3.Y.v, r3.Z.v, p.X.v, p.Y.v, p.Z.v);
    double_c(&rc, &p, 1);
    double_c(&rc3, &p, 0);
    expect_ext("double vs C", &r, &rc, 1);
    expect_ext("double_xyz vs C", &r3, &rc3, 0);
    ecopt_ge_double(&rl, &p, 1);
    ecopt_ge_double(&rl3, &p, 0);
    expect_ext("double vs library", &rl, LIB_WANT(&r, &rc), 1);
    expect_ext("double_xyz vs library", &rl3, LIB_WANT(&r3, &rc3), 0);
    ra = p;
    FUSED(ge_double)(ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, ra.X.v, ra.Y.v, ra.Z.v);
    expect_ext("double in place", &ra, &r, 1);
    ra = p;
    FUSED(ge_double_xyz)(ra.X.v, ra.Y.v, ra.Z.v, ra.X.v, ra.Y.v, ra.Z.v);
    expect_ext("double_xyz in place", &ra, &r3, 0);
    n_checks++;
    if (memcmp(ra.T.v, p.T.v, sizeof p.T.v) != 0) tu_fail("double_xyz wrote T");

    mpz_t X1, Y1, Z1, a, b, c, e, f, g, h, t;
    mpz_inits(X1, Y1, Z1, a, b, c, e, f, g, h, t, NULL);
    to_mpz(X1, p.X.v);
    to_mpz(Y1, p.Y.v);
    to_mpz(Z1, p.Z.v);
    M(a, X1, X1);
    M(b, Y1, Y1);
    M(c, Z1, Z1);
    A(c, c, c);
    A(h, a, b);     /* H' = -H */
    A(t, X1, Y1);
    M(t, t, t);
    S(e, h, t);     /* E' = -E */
    S(g, a, b);     /* G' = -G */
    A(f, c, g);     /* F' = -F */
    expect_efgh("double", &r, e, f, g, h, 1);
    mpz_clears(X1, Y1, Z1, a, b, c, e, f, g, h, t, NULL);
}

/* ---- points of the curve ---------------------------------------------------------------------------------- */
/* [k]B in projective coordinates (xZ, yZ, Z, xyZ) with a random tight Z != 0 mod p (its limbs as they are:
 * possibly above p); the others reduced below p. */
static void rnd_point(tu_rng *rng, ref_pt *P, ecopt_ge_ext *e) {
    ref_pt B;
    ref_pt_init(&B);
    ref_pt_base(&B);
    ref_pt_mul_ui(P, tu_rng_u64(rng) | 1, &B);
    ref_pt_clear(&B);
    mpz_t z, t;
    mpz_inits(z, t, NULL);
    do {
        rnd_fe(rng, e->Z.v, TIGHT);
        to_mpz(z, e->Z.v);
    } while (mpz_sgn(z) == 0);
    M(t, P->x, z);
    from_mpz(e->X.v, t);
    M(t, P->y, z);
    from_mpz(e->Y.v, t);
    M(t, P->x, P->y);
    M(t, t, z);
    from_mpz(e->T.v, t);
    mpz_clears(z, t, NULL);
}

/* The affine point of e (X/Z, Y/Z) equals want; with_t: also T Z = X Y. */
static void expect_point(const char *what, const ecopt_ge_ext *e, const ref_pt *want, int with_t) {
    mpz_t X, Y, Z, T, zi, x, y, l, r;
    mpz_inits(X, Y, Z, T, zi, x, y, l, r, NULL);
    to_mpz(X, e->X.v);
    to_mpz(Y, e->Y.v);
    to_mpz(Z, e->Z.v);
    to_mpz(T, e->T.v);
    ref_fe_inv(zi, Z);
    M(x, X, zi);
    M(y, Y, zi);
    n_checks++;
    int bad = mpz_sgn(Z) == 0 || mpz_cmp(x, want->x) != 0 || mpz_cmp(y, want->y) != 0;
    if (with_t) {
        M(l, T, Z);
        M(r, X, Y);
        bad |= mpz_cmp(l, r) != 0;
    }
    if (bad) tu_fail("%s: not the expected point", what);
    mpz_clears(X, Y, Z, T, zi, x, y, l, r, NULL);
}

static void check_points(tu_rng *rng) {
    ref_pt P, Q, R;
    ref_pt_init(&P);
    ref_pt_init(&Q);
    ref_pt_init(&R);
    ecopt_ge_ext p, q, r;
    rnd_point(rng, &P, &p);
    rnd_point(rng, &Q, &q);
    if (tu_rng_below(rng, 8) == 0) { /* P + P through the addition, P - P = identity */
        ref_pt_set(&Q, &P);
        q = p;
    }

    ecopt_ge_cached qc;
    ecopt_ge_cached_from_ext(&qc, &q);
    FUSED(ge_add)(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, qc.YpX.v, qc.YmX.v, qc.Z2.v, qc.T2d.v);
    ref_pt_add(&R, &P, &Q);
    expect_point("points: add", &r, &R, 1);
    ecopt_ge_sub(&r, &p, &qc);
    ref_pt_neg(&R, &Q);
    ref_pt_add(&R, &P, &R);
    expect_point("points: sub", &r, &R, 1);

    /* madd: q affine in Niels form (y+x, y-x, 2d x y), each reduced below p */
    ecopt_ge_niels qn;
    mpz_t t, d2;
    mpz_inits(t, d2, NULL);
    A(t, Q.y, Q.x);
    from_mpz(qn.YpX.v, t);
    S(t, Q.y, Q.x);
    from_mpz(qn.YmX.v, t);
    A(d2, ref_d, ref_d);
    M(t, Q.x, Q.y);
    M(t, t, d2);
    from_mpz(qn.XY2d.v, t);
    mpz_clears(t, d2, NULL);
    FUSED(ge_madd)(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, qn.YpX.v, qn.YmX.v, qn.XY2d.v);
    ref_pt_add(&R, &P, &Q);
    expect_point("points: madd", &r, &R, 1);

    FUSED(ge_double)(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v);
    ref_pt_double(&R, &P);
    expect_point("points: double", &r, &R, 1);
    FUSED(ge_double_xyz)(r.X.v, r.Y.v, r.Z.v, p.X.v, p.Y.v, p.Z.v);
    expect_point("points: double_xyz", &r, &R, 0);
    ref_pt_clear(&P);
    ref_pt_clear(&Q);
    ref_pt_clear(&R);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 20000);
    if (!ecopt_fe_backend_available()) {
        printf("SKIP: this CPU lacks BMI2/ADX\n");
        return 77;
    }
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    for (long i = 0; i < o.iters; i++) {
        check_ladder(&rng);
        check_madd(&rng);
        check_add(&rng);
        check_double(&rng);
        if (i % 16 == 0) check_points(&rng);
    }
    printf("%s: %ld checks\n", BE, n_checks);
    return tu_finish("test_fused_" BE);
}
