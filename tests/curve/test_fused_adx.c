/* test_fused_adx.c — curve.fused_adx: the adx backend's whole-formula point operations (src/curve/fused_adx.h,
 * made by `ecopt opt` from src/curve/formulas/ge_*_adx.ir) on random 4 x 64-bit limbs (every 256-bit value is an
 * element of this backend, so the programs take any: uniform limbs, limbs near 0 and 2^64 - 1, and whole values
 * at the edges of the representation, 0, 1, p - 1, p, p + 1, 2p - 1, 2p, 2^255 - 1, 2^255, 2^256 - 38,
 * 2^256 - 1), against
 *   - GMP: each output mod p equals the formula evaluated in mpz (add-2008-hwcd-3, madd-2008-hwcd-3 and
 *     dbl-2008-hwcd of Hisil, Wong, Carter, Dawson 2008, with the negations of ge_formulas.h's double_c);
 *   - the C formulas of src/curve/ge_formulas.h compiled here for the adx backend (this file is compiled with
 *     ECOPT_FE_BACKEND_adx): madd_c, add_or_sub(.., 0) and double_c run the same field operations in the same order
 *     as the programs, so the limbs must be identical; add_or_sub(.., 1) agrees with ecopt_ge_sub mod p;
 *   - the library's adx ecopt_ge_madd, _add, _sub, _double (which call the fused functions when built with
 *     ECOPT_ADX_FUSED): identical limbs to the direct calls;
 *   - themselves with every output passed as the input it may alias (r = p, as ge.c calls them);
 * and on points of the curve ([k]B for random k, in projective coordinates with a random Z), the sum and double
 * equal GMP's affine point arithmetic (ref25519). Exit 77 (skip) when this CPU lacks BMI2/ADX. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "curve/fused_adx.h"
#include "curve/ge.h"
#include "curve/ge_formulas.h"
#include "ref25519.h"
#include "testutil.h"

static long n_checks = 0;

/* Whole values at the edges: little-endian limbs. */
#define M64 UINT64_MAX
static const uint64_t edge_values[][4] = {
    {0, 0, 0, 0},
    {1, 0, 0, 0},
    {M64 - 19, M64, M64, 0x7fffffffffffffffULL},      /* p - 1 */
    {M64 - 18, M64, M64, 0x7fffffffffffffffULL},      /* p */
    {M64 - 17, M64, M64, 0x7fffffffffffffffULL},      /* p + 1 */
    {M64 - 37, M64, M64, M64},                        /* 2p - 1 = 2^256 - 39 */
    {M64 - 36, M64, M64, M64},                        /* 2p = 2^256 - 38 */
    {M64 - 35, M64, M64, M64},                        /* 2^256 - 37 */
    {M64, M64, M64, 0x7fffffffffffffffULL},           /* 2^255 - 1 */
    {0, 0, 0, 0x8000000000000000ULL},                 /* 2^255 */
    {M64, M64, M64, M64},                             /* 2^256 - 1 */
    {38, 0, 0, 0},
    {0, 0, 0, 1},
    {M64, 0, 0, 0},
};

static uint64_t rnd_limb(tu_rng *r) {
    switch (tu_rng_below(r, 6)) {
    case 0: return M64 - tu_rng_below(r, 64);
    case 1: return tu_rng_below(r, 64);
    default: return tu_rng_u64(r);
    }
}

static void rnd_fe4(tu_rng *r, uint64_t v[4]) {
    if (tu_rng_below(r, 4) == 0) {
        memcpy(v, edge_values[tu_rng_below(r, TU_ARRAY_LEN(edge_values))], 32);
        return;
    }
    for (int i = 0; i < 4; i++) v[i] = rnd_limb(r);
}

static void to_mpz4(mpz_t z, const uint64_t v[4]) {
    mpz_set_ui(z, 0);
    for (int i = 3; i >= 0; i--) {
        mpz_mul_2exp(z, z, 64);
        mpz_add_ui(z, z, v[i]); /* unsigned long is 64 bits on x86-64 */
    }
    mpz_mod(z, z, ref_p);
}

static void from_mpz4(uint64_t v[4], const mpz_t z) {
    mpz_t t;
    mpz_init_set(t, z);
    for (int i = 0; i < 4; i++) {
        v[i] = mpz_get_ui(t);
        mpz_tdiv_q_2exp(t, t, 64);
    }
    mpz_clear(t);
}

static int expect_fe(const char *what, const uint64_t got[4], const mpz_t want) {
    mpz_t g;
    mpz_init(g);
    to_mpz4(g, got);
    n_checks++;
    int bad = mpz_cmp(g, want) != 0;
    if (bad) {
        tu_fail("%s: wrong value", what);
        gmp_fprintf(stderr, "  got  %#Zx\n  want %#Zx\n", g, want);
    }
    mpz_clear(g);
    return bad;
}

static int expect_limbs(const char *what, const uint64_t got[4], const uint64_t want[4]) {
    n_checks++;
    if (memcmp(got, want, 32) == 0) return 0;
    tu_fail("%s: limbs differ", what);
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

#define M(r, a, b) ref_fe_mul(r, a, b)
#define A(r, a, b) ref_fe_add(r, a, b)
#define S(r, a, b) ref_fe_sub(r, a, b)

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

static void rnd_ext(tu_rng *rng, ecopt_ge_ext *p) {
    rnd_fe4(rng, p->X.v);
    rnd_fe4(rng, p->Y.v);
    rnd_fe4(rng, p->Z.v);
    rnd_fe4(rng, p->T.v);
}

static void check_madd(tu_rng *rng) {
    ecopt_ge_ext p, r, rc, rl, ra;
    ecopt_ge_niels q;
    rnd_ext(rng, &p);
    rnd_fe4(rng, q.YpX.v);
    rnd_fe4(rng, q.YmX.v);
    rnd_fe4(rng, q.XY2d.v);
    ecopt_ge_madd_fused_adx(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, q.YpX.v, q.YmX.v, q.XY2d.v);
    madd_c(&rc, &p, &q);
    expect_ext("madd vs C", &r, &rc, 1);
    ecopt_ge_madd(&rl, &p, &q);
    expect_ext("madd vs library", &rl, &r, 1);
    ra = p;
    ecopt_ge_madd_fused_adx(ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, q.YpX.v, q.YmX.v,
                             q.XY2d.v);
    expect_ext("madd in place", &ra, &r, 1);

    mpz_t X1, Y1, Z1, T1, yp, ym, xy, a, b, c, d, e, f, g, h, t;
    mpz_inits(X1, Y1, Z1, T1, yp, ym, xy, a, b, c, d, e, f, g, h, t, NULL);
    to_mpz4(X1, p.X.v);
    to_mpz4(Y1, p.Y.v);
    to_mpz4(Z1, p.Z.v);
    to_mpz4(T1, p.T.v);
    to_mpz4(yp, q.YpX.v);
    to_mpz4(ym, q.YmX.v);
    to_mpz4(xy, q.XY2d.v);
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
    rnd_fe4(rng, q.YpX.v);
    rnd_fe4(rng, q.YmX.v);
    rnd_fe4(rng, q.Z2.v);
    rnd_fe4(rng, q.T2d.v);
    ecopt_ge_add_fused_adx(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, q.YpX.v, q.YmX.v, q.Z2.v,
                            q.T2d.v);
    add_or_sub(&rc, &p, &q, 0);
    expect_ext("add vs C", &r, &rc, 1);
    ecopt_ge_add(&rl, &p, &q);
    expect_ext("add vs library", &rl, &r, 1);
    ra = p;
    ecopt_ge_add_fused_adx(ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, q.YpX.v, q.YmX.v,
                            q.Z2.v, q.T2d.v);
    expect_ext("add in place", &ra, &r, 1);

    /* p - q as ge.c's ecopt_ge_sub does it with the fused addition: (Y-X, Y+X, 2Z, -2dT) */
    ecopt_fe negt;
    ecopt_fe_neg(&negt, &q.T2d);
    ecopt_ge_add_fused_adx(rs.X.v, rs.Y.v, rs.Z.v, rs.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, q.YmX.v, q.YpX.v, q.Z2.v,
                            negt.v);
    add_or_sub(&rsc, &p, &q, 1);
    ecopt_ge_sub(&rsl, &p, &q);
    expect_ext("sub vs library", &rsl, &rs, 1);

    mpz_t X1, Y1, Z1, T1, yp, ym, z2, t2d, a, b, c, d, e, f, g, h, t;
    mpz_inits(X1, Y1, Z1, T1, yp, ym, z2, t2d, a, b, c, d, e, f, g, h, t, NULL);
    to_mpz4(X1, p.X.v);
    to_mpz4(Y1, p.Y.v);
    to_mpz4(Z1, p.Z.v);
    to_mpz4(T1, p.T.v);
    to_mpz4(yp, q.YpX.v);
    to_mpz4(ym, q.YmX.v);
    to_mpz4(z2, q.Z2.v);
    to_mpz4(t2d, q.T2d.v);
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
    ecopt_ge_double_fused_adx(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v);
    ecopt_ge_double_xyz_fused_adx(r3.X.v, r3.Y.v, r3.Z.v, p.X.v, p.Y.v, p.Z.v);
    double_c(&rc, &p, 1);
    double_c(&rc3, &p, 0);
    expect_ext("double vs C", &r, &rc, 1);
    expect_ext("double_xyz vs C", &r3, &rc3, 0);
    ecopt_ge_double(&rl, &p, 1);
    ecopt_ge_double(&rl3, &p, 0);
    expect_ext("double vs library", &rl, &r, 1);
    expect_ext("double_xyz vs library", &rl3, &r3, 0);
    ra = p;
    ecopt_ge_double_fused_adx(ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, ra.X.v, ra.Y.v, ra.Z.v);
    expect_ext("double in place", &ra, &r, 1);
    ra = p;
    ecopt_ge_double_xyz_fused_adx(ra.X.v, ra.Y.v, ra.Z.v, ra.X.v, ra.Y.v, ra.Z.v);
    expect_ext("double_xyz in place", &ra, &r3, 0);
    n_checks++;
    if (memcmp(ra.T.v, p.T.v, 32) != 0) tu_fail("double_xyz wrote T");

    mpz_t X1, Y1, Z1, a, b, c, e, f, g, h, t;
    mpz_inits(X1, Y1, Z1, a, b, c, e, f, g, h, t, NULL);
    to_mpz4(X1, p.X.v);
    to_mpz4(Y1, p.Y.v);
    to_mpz4(Z1, p.Z.v);
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
/* [k]B in projective coordinates (xZ, yZ, Z, xyZ) with a random Z != 0 mod p (a random 256-bit Z, then its
 * limbs as they are: possibly above p). */
static void rnd_point(tu_rng *rng, ref_pt *P, ecopt_ge_ext *e) {
    ref_pt B;
    ref_pt_init(&B);
    ref_pt_base(&B);
    ref_pt_mul_ui(P, tu_rng_u64(rng) | 1, &B);
    ref_pt_clear(&B);
    mpz_t z, t;
    mpz_inits(z, t, NULL);
    do {
        rnd_fe4(rng, e->Z.v);
        to_mpz4(z, e->Z.v);
    } while (mpz_sgn(z) == 0);
    M(t, P->x, z);
    from_mpz4(e->X.v, t);
    M(t, P->y, z);
    from_mpz4(e->Y.v, t);
    M(t, P->x, P->y);
    M(t, t, z);
    from_mpz4(e->T.v, t);
    mpz_clears(z, t, NULL);
}

/* The affine point of e (X/Z, Y/Z) equals want; with_t: also T Z = X Y. */
static void expect_point(const char *what, const ecopt_ge_ext *e, const ref_pt *want, int with_t) {
    mpz_t X, Y, Z, T, zi, x, y, l, r;
    mpz_inits(X, Y, Z, T, zi, x, y, l, r, NULL);
    to_mpz4(X, e->X.v);
    to_mpz4(Y, e->Y.v);
    to_mpz4(Z, e->Z.v);
    to_mpz4(T, e->T.v);
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
    ecopt_ge_add_fused_adx(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, qc.YpX.v, qc.YmX.v, qc.Z2.v,
                            qc.T2d.v);
    ref_pt_add(&R, &P, &Q);
    expect_point("points: add", &r, &R, 1);
    ecopt_ge_sub(&r, &p, &qc);
    ref_pt_neg(&R, &Q);
    ref_pt_add(&R, &P, &R);
    expect_point("points: sub", &r, &R, 1);

    /* madd: q affine in Niels form (y+x, y-x, 2d x y) */
    ecopt_ge_niels qn;
    mpz_t t, d2;
    mpz_inits(t, d2, NULL);
    A(t, Q.y, Q.x);
    from_mpz4(qn.YpX.v, t);
    S(t, Q.y, Q.x);
    from_mpz4(qn.YmX.v, t);
    A(d2, ref_d, ref_d);
    M(t, Q.x, Q.y);
    M(t, t, d2);
    from_mpz4(qn.XY2d.v, t);
    mpz_clears(t, d2, NULL);
    ecopt_ge_madd_fused_adx(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, qn.YpX.v, qn.YmX.v,
                             qn.XY2d.v);
    ref_pt_add(&R, &P, &Q);
    expect_point("points: madd", &r, &R, 1);

    ecopt_ge_double_fused_adx(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v);
    ref_pt_double(&R, &P);
    expect_point("points: double", &r, &R, 1);
    ecopt_ge_double_xyz_fused_adx(r.X.v, r.Y.v, r.Z.v, p.X.v, p.Y.v, p.Z.v);
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
        check_madd(&rng);
        check_add(&rng);
        check_double(&rng);
        if (i % 16 == 0) check_points(&rng);
    }
    printf("%ld checks\n", n_checks);
    return tu_finish("test_fused_adx");
}
