/* test_fused.c — curve.fused: the adx51 backend's whole-formula functions (src/curve/fused_adx51.h, made by
 * `ecopt opt` from src/curve/formulas/<name>.ir) on random field elements anywhere within their declared input bounds
 * (not only points of the curve: the programs are polynomial identities), against
 *   - GMP: each output mod p equals the formula evaluated in mpz (RFC 7748 section 5 for the ladder step; the
 *     add-2008-hwcd-3, madd-2008-hwcd-3 and dbl-2008-hwcd formulas of Hisil, Wong, Carter, Dawson 2008);
 *   - the C formulas of src/curve/ge.c in the u64 backend (this file is compiled with ECOPT_FE_BACKEND_u64):
 *     ecopt_ge_madd and ecopt_ge_add run the same field operations as the programs (the u64 multiply and square
 *     are generated from the same IR as the adx51 assembly), so their limbs must be identical; ecopt_ge_double
 *     (which computes 2 Z1^2 with fe_sq2) and ecopt_ge_sub agree mod p;
 *   - themselves with every output passed as the input it may alias (r = p, the ladder in place);
 * and every output limb within the multiply's output bounds (limb 1 <= 2^51 + 2^10, the others < 2^51). The ladder
 * steps (adx51, and adx's from src/curve/fused_adx.h on any 256-bit limbs) take the swap bit, 0 or 1 at random:
 * their outputs must be RFC 7748's two cswaps followed by the step.
 * Exit 77 (skip) when this CPU lacks BMI2/ADX. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "curve/fused_adx51.h"
#include "curve/fused_adx.h"
#include "curve/ge.h"
#include "ref25519.h"
#include "testutil.h"

int ecopt_fe_backend_available_adx51(void); /* src/field/fe_adx51.c (hidden in the library, linked statically) */

#define TIGHT 0x8000000007fffULL  /* fe_u64.h: tight, every limb < 2^51 + 2^15 */
#define LOOSE 0x1000000000ffffULL /* loose, every limb < 2^52 + 2^16 */
#define MUL_OUT0 0x7ffffffffffffULL
#define MUL_OUT1 0x8000000000400ULL

static long n_checks = 0;

/* A random limb in [0, bound]: uniform, or near an end (the bounds are what the proof covers). */
static uint64_t rnd_limb(tu_rng *r, uint64_t bound) {
    switch (tu_rng_below(r, 6)) {
    case 0: return bound - tu_rng_below(r, 64);
    case 1: return tu_rng_below(r, 64);
    case 2: return bound;
    default: return tu_rng_below(r, bound) + (tu_rng_below(r, 2) ? 1 : 0);
    }
}

static void rnd_fe(tu_rng *r, uint64_t v[5], uint64_t bound) {
    for (int i = 0; i < 5; i++) v[i] = rnd_limb(r, bound);
}

/* The ladder's inputs: within the multiply's output bounds. */
static void rnd_fe_mulout(tu_rng *r, uint64_t v[5]) {
    for (int i = 0; i < 5; i++) v[i] = rnd_limb(r, i == 1 ? MUL_OUT1 : MUL_OUT0);
}

static void to_mpz(mpz_t z, const uint64_t v[5]) {
    mpz_set_ui(z, 0);
    for (int i = 4; i >= 0; i--) {
        mpz_mul_2exp(z, z, 51);
        mpz_add_ui(z, z, v[i]); /* unsigned long is 64 bits on x86-64 */
    }
    mpz_mod(z, z, ref_p);
}

/* An output: within the multiply's output bounds and equal to want mod p. */
static int expect_fe(const char *what, const uint64_t got[5], const mpz_t want) {
    mpz_t g;
    mpz_init(g);
    to_mpz(g, got);
    int bad = mpz_cmp(g, want) != 0;
    for (int i = 0; i < 5; i++) bad |= got[i] > (i == 1 ? MUL_OUT1 : MUL_OUT0);
    if (bad) {
        tu_fail("%s: wrong value or limb out of bounds", what);
        gmp_fprintf(stderr, "  got  %#Zx (limbs %#llx %#llx %#llx %#llx %#llx)\n  want %#Zx\n", g,
                    (unsigned long long)got[0], (unsigned long long)got[1], (unsigned long long)got[2],
                    (unsigned long long)got[3], (unsigned long long)got[4], want);
    }
    mpz_clear(g);
    n_checks++;
    return bad;
}

static int expect_limbs(const char *what, const uint64_t got[5], const uint64_t want[5]) {
    n_checks++;
    if (memcmp(got, want, 40) == 0) return 0;
    tu_fail("%s: limbs differ from the C formula's", what);
    return 1;
}

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
    uint64_t in[5][5], out[4][5], st[5][5], sw[1];
    for (int k = 0; k < 5; k++) rnd_fe_mulout(rng, in[k]);
    sw[0] = tu_rng_below(rng, 2);
    ecopt_mont_ladderstep_fused_adx51(out[0], out[1], out[2], out[3], in[0], in[1], in[2], in[3], in[4], sw);
    /* in place, as mont.c calls it */
    memcpy(st, in, sizeof st);
    ecopt_mont_ladderstep_fused_adx51(st[1], st[2], st[3], st[4], st[0], st[1], st[2], st[3], st[4], sw);
    for (int k = 0; k < 4; k++) expect_limbs("ladderstep in place", st[k + 1], out[k]);

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
        expect_fe(label, out[k], want[k]);
    }
    for (int k = 0; k < 5; k++) mpz_clear(m[k]);
    for (int k = 0; k < 4; k++) mpz_clear(want[k]);
}

/* ---- the adx ladder step (4 x 64 bits, every 256-bit value an element) ------------------------------------ */
static void rnd_fe4(tu_rng *r, uint64_t v[4]) {
    for (int i = 0; i < 4; i++) v[i] = rnd_limb(r, UINT64_MAX);
}

static void to_mpz4(mpz_t z, const uint64_t v[4]) {
    mpz_set_ui(z, 0);
    for (int i = 3; i >= 0; i--) {
        mpz_mul_2exp(z, z, 64);
        mpz_add_ui(z, z, v[i]);
    }
    mpz_mod(z, z, ref_p);
}

static void check_ladder4(tu_rng *rng) {
    uint64_t in[5][4], out[4][4], st[5][4], sw[1];
    for (int k = 0; k < 5; k++) rnd_fe4(rng, in[k]);
    sw[0] = tu_rng_below(rng, 2);
    ecopt_mont_ladderstep_fused_adx(out[0], out[1], out[2], out[3], in[0], in[1], in[2], in[3], in[4], sw);
    memcpy(st, in, sizeof st);
    ecopt_mont_ladderstep_fused_adx(st[1], st[2], st[3], st[4], st[0], st[1], st[2], st[3], st[4], sw);
    for (int k = 0; k < 4; k++) {
        n_checks++;
        if (memcmp(st[k + 1], out[k], 32) != 0) tu_fail("adx ladderstep in place: limbs differ");
    }
    mpz_t m[5], want[4], g;
    for (int k = 0; k < 5; k++) {
        mpz_init(m[k]);
        to_mpz4(m[k], in[k]);
    }
    for (int k = 0; k < 4; k++) mpz_init(want[k]);
    mpz_init(g);
    ladder_ref(want, m, sw[0]);
    for (int k = 0; k < 4; k++) {
        to_mpz4(g, out[k]);
        n_checks++;
        if (mpz_cmp(g, want[k]) != 0) {
            tu_fail("adx ladderstep swap %d %s: wrong value", (int)sw[0], ladder_names[k]);
            gmp_fprintf(stderr, "  got  %#Zx\n  want %#Zx\n", g, want[k]);
            for (int q = 0; q < 5; q++)
                fprintf(stderr, "  in[%d] limbs %#llx %#llx %#llx %#llx\n", q, (unsigned long long)in[q][0],
                        (unsigned long long)in[q][1], (unsigned long long)in[q][2], (unsigned long long)in[q][3]);
        }
    }
    for (int k = 0; k < 5; k++) mpz_clear(m[k]);
    for (int k = 0; k < 4; k++) mpz_clear(want[k]);
    mpz_clear(g);
}

/* ---- edwards25519 ----------------------------------------------------------------------------------------- */
static void rnd_ext(tu_rng *rng, ecopt_ge_ext *p) {
    rnd_fe(rng, p->X.v, TIGHT);
    rnd_fe(rng, p->Y.v, TIGHT);
    rnd_fe(rng, p->Z.v, TIGHT);
    rnd_fe(rng, p->T.v, TIGHT);
}

/* E F, G H, F G, E H into X3 Y3 Z3 T3, checked against out. */
static void expect_efgh(const char *what, const ecopt_ge_ext *out, const mpz_t e, const mpz_t f, const mpz_t g,
                        const mpz_t h, int with_t) {
    mpz_t t;
    mpz_init(t);
    char label[64];
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

static void check_madd(tu_rng *rng) {
    ecopt_ge_ext p, r, rc, ra;
    ecopt_ge_niels q;
    rnd_ext(rng, &p);
    rnd_fe(rng, q.YpX.v, TIGHT);
    rnd_fe(rng, q.YmX.v, TIGHT);
    rnd_fe(rng, q.XY2d.v, TIGHT);
    ecopt_ge_madd_fused_adx51(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, q.YpX.v, q.YmX.v, q.XY2d.v);
    ra = p;
    ecopt_ge_madd_fused_adx51(ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, q.YpX.v, q.YmX.v,
                            q.XY2d.v);
    ecopt_ge_madd(&rc, &p, &q); /* u64: the C formula */
    expect_limbs("madd X3 vs C", r.X.v, rc.X.v);
    expect_limbs("madd Y3 vs C", r.Y.v, rc.Y.v);
    expect_limbs("madd Z3 vs C", r.Z.v, rc.Z.v);
    expect_limbs("madd T3 vs C", r.T.v, rc.T.v);
    expect_limbs("madd in place", ra.X.v, r.X.v);
    expect_limbs("madd in place", ra.Y.v, r.Y.v);
    expect_limbs("madd in place", ra.Z.v, r.Z.v);
    expect_limbs("madd in place", ra.T.v, r.T.v);

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
    ecopt_ge_ext p, r, rc, ra, rs, rsc;
    ecopt_ge_cached q;
    rnd_ext(rng, &p);
    /* ge.h: YpX and Z2 loose, YmX and T2d tight (the program takes all four loose; ge_sub swaps them) */
    rnd_fe(rng, q.YpX.v, LOOSE);
    rnd_fe(rng, q.YmX.v, TIGHT);
    rnd_fe(rng, q.Z2.v, LOOSE);
    rnd_fe(rng, q.T2d.v, TIGHT);
    ecopt_ge_add_fused_adx51(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, q.YpX.v, q.YmX.v, q.Z2.v,
                           q.T2d.v);
    ra = p;
    ecopt_ge_add_fused_adx51(ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, q.YpX.v, q.YmX.v,
                           q.Z2.v, q.T2d.v);
    ecopt_ge_add(&rc, &p, &q);
    expect_limbs("add X3 vs C", r.X.v, rc.X.v);
    expect_limbs("add Y3 vs C", r.Y.v, rc.Y.v);
    expect_limbs("add Z3 vs C", r.Z.v, rc.Z.v);
    expect_limbs("add T3 vs C", r.T.v, rc.T.v);
    expect_limbs("add in place", ra.X.v, r.X.v);
    expect_limbs("add in place", ra.Y.v, r.Y.v);
    expect_limbs("add in place", ra.Z.v, r.Z.v);
    expect_limbs("add in place", ra.T.v, r.T.v);

    /* p - q the way the adx51 ecopt_ge_sub does it: the addition of (Y-X, Y+X, 2Z, -2dT) */
    ecopt_fe negt;
    ecopt_fe_neg(&negt, &q.T2d);
    ecopt_ge_add_fused_adx51(rs.X.v, rs.Y.v, rs.Z.v, rs.T.v, p.X.v, p.Y.v, p.Z.v, p.T.v, q.YmX.v, q.YpX.v, q.Z2.v,
                           negt.v);
    ecopt_ge_sub(&rsc, &p, &q);

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
    ecopt_ge_ext p, r, r3, rc, ra;
    rnd_ext(rng, &p);
    ecopt_ge_double_fused_adx51(r.X.v, r.Y.v, r.Z.v, r.T.v, p.X.v, p.Y.v, p.Z.v);
    ecopt_ge_double_xyz_fused_adx51(r3.X.v, r3.Y.v, r3.Z.v, p.X.v, p.Y.v, p.Z.v);
    ra = p;
    ecopt_ge_double_fused_adx51(ra.X.v, ra.Y.v, ra.Z.v, ra.T.v, ra.X.v, ra.Y.v, ra.Z.v);
    expect_limbs("double in place", ra.X.v, r.X.v);
    expect_limbs("double in place", ra.Y.v, r.Y.v);
    expect_limbs("double in place", ra.Z.v, r.Z.v);
    expect_limbs("double in place", ra.T.v, r.T.v);
    expect_limbs("double_xyz = double", r3.X.v, r.X.v);
    expect_limbs("double_xyz = double", r3.Y.v, r.Y.v);
    expect_limbs("double_xyz = double", r3.Z.v, r.Z.v);
    ra = p;
    ecopt_ge_double_xyz_fused_adx51(ra.X.v, ra.Y.v, ra.Z.v, ra.X.v, ra.Y.v, ra.Z.v);
    expect_limbs("double_xyz in place", ra.X.v, r.X.v);
    expect_limbs("double_xyz in place", ra.Y.v, r.Y.v);
    expect_limbs("double_xyz in place", ra.Z.v, r.Z.v);
    ecopt_ge_double(&rc, &p, 1);

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
    expect_efgh("double (C formula)", &rc, e, f, g, h, 1);
    mpz_clears(X1, Y1, Z1, a, b, c, e, f, g, h, t, NULL);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 20000);
    if (!ecopt_fe_backend_available_adx51()) {
        printf("SKIP: this CPU lacks BMI2/ADX\n");
        return 77;
    }
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    for (long i = 0; i < o.iters; i++) {
        check_ladder(&rng);
        check_ladder4(&rng);
        check_madd(&rng);
        check_add(&rng);
        check_double(&rng);
    }
    printf("%ld checks\n", n_checks);
    return tu_finish("test_fused");
}
