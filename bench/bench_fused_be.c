/* bench_fused_be.c — one backend's rows of ecopt_bench_fused (bench_fused.c): its whole-formula functions
 * (src/curve/fused_adx51.h or fused_adx.h) and the C formulas of src/curve/ge_formulas.h over its field operations
 * (what mont.c and ge.c run without the fused functions), each one call on a state of its own: the ladder step (C:
 * after the two cswaps, which the whole formula does by cmov; the swap bit alternating), madd, add, double with and
 * without T, and a verification-shaped loop three ways. Compiled once per backend with ECOPT_FE_BACKEND_adx51 or
 * ECOPT_FE_BACKEND_adx (the field type is that backend's). */
#include <string.h>

#include "bench_fused.h"
#include "curve/ge.h"
#include "curve/ge_formulas.h"
#include "field/fe.h"

#if defined(ECOPT_FE_BACKEND_adx51)
#include "curve/fused_adx51.h"
#define FUSED(op) ecopt_##op##_fused_adx51
#elif defined(ECOPT_FE_BACKEND_adx)
#include "curve/fused_adx.h"
#define FUSED(op) ecopt_##op##_fused_adx
#else
#error "bench_fused_be.c: compile with -DECOPT_FE_BACKEND_adx51=1 or -DECOPT_FE_BACKEND_adx=1"
#endif

#define BENCH_FUSED_CAT2(a, b) a##_##b
#define BENCH_FUSED_CAT(a, b) BENCH_FUSED_CAT2(a, b)
#define BE(sym) BENCH_FUSED_CAT(sym, ECOPT_BE_SUFFIX)

static ecopt_ge_ext P;
static ecopt_ge_niels N;
static ecopt_ge_cached Q;
static ecopt_fe x1, x2, z2, x3, z3;
static uint64_t swap_bit[1];
static int8_t na[BENCH_FUSED_STEPS], nb[BENCH_FUSED_STEPS];
static ecopt_ge_cached TA[8];
static ecopt_ge_niels TB[8];

/* A state of field elements that are not small: P the base point, Q and N its cached and Niels forms (N.YpX
 * carried: the fused programs take it tight); the ladder's x1 the base point's x, x2 = 1, z2 its y, x3 its t,
 * z3 = 1; the loop's digits as given. */
void BE(bench_fused_setup)(const int8_t a[BENCH_FUSED_STEPS], const int8_t b[BENCH_FUSED_STEPS]) {
    ecopt_ge_base(&P);
    ecopt_ge_cached_from_ext(&Q, &P);
    ecopt_fe_add(&N.YpX, &P.Y, &P.X);
    ecopt_fe_carry(&N.YpX, &N.YpX);
    ecopt_fe_sub(&N.YmX, &P.Y, &P.X);
    ecopt_fe_copy(&N.XY2d, &Q.T2d);
    ecopt_fe_copy(&x1, &P.X);
    ecopt_fe_1(&x2);
    ecopt_fe_copy(&z2, &P.Y);
    ecopt_fe_copy(&x3, &P.T);
    ecopt_fe_1(&z3);
    memcpy(na, a, sizeof na);
    memcpy(nb, b, sizeof nb);
    for (int j = 0; j < 8; j++) {
        TA[j] = Q;
        TB[j] = N;
    }
}

/* The C formulas, not inlined, so that each is timed as one call like its fused counterpart. */
__attribute__((noinline)) static void c_madd(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_niels *q) {
    madd_c(r, p, q);
}
__attribute__((noinline)) static void c_add(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_cached *q) {
    add_or_sub(r, p, q, 0);
}
__attribute__((noinline)) static void c_dbl(ecopt_ge_ext *r, const ecopt_ge_ext *p, int with_t) {
    double_c(r, p, with_t);
}

/* The ladder step with its two cswaps (the fused step does both, by cmov), the swap bit alternating. */
__attribute__((noinline)) void BE(bench_fused_c_ladder)(void) {
    swap_bit[0] ^= 1;
    ecopt_fe_cswap(&x2, &x3, swap_bit[0]);
    ecopt_fe_cswap(&z2, &z3, swap_bit[0]);
    ecopt_mont_ladderstep_c(&x2, &z2, &x3, &z3, &x1);
}
void BE(bench_fused_f_ladder)(void) {
    swap_bit[0] ^= 1;
    FUSED(mont_ladderstep)(x2.v, z2.v, x3.v, z3.v, x1.v, x2.v, z2.v, x3.v, z3.v, swap_bit);
}

void BE(bench_fused_c_madd)(void) { c_madd(&P, &P, &N); }
void BE(bench_fused_f_madd)(void) {
    FUSED(ge_madd)(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, N.YpX.v, N.YmX.v, N.XY2d.v);
}
void BE(bench_fused_c_add)(void) { c_add(&P, &P, &Q); }
void BE(bench_fused_f_add)(void) {
    FUSED(ge_add)(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, Q.YpX.v, Q.YmX.v, Q.Z2.v, Q.T2d.v);
}
void BE(bench_fused_c_dbl)(void) { c_dbl(&P, &P, 1); }
void BE(bench_fused_f_dbl)(void) { FUSED(ge_double)(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v); }
void BE(bench_fused_c_dblx)(void) { c_dbl(&P, &P, 0); }
void BE(bench_fused_f_dblx)(void) { FUSED(ge_double_xyz)(P.X.v, P.Y.v, P.Z.v, P.X.v, P.Y.v, P.Z.v); }

/* A verification-shaped loop (ecopt_ge_double_scalarmult_vartime): BENCH_FUSED_STEPS doublings, with T before an
 * addition; a cached point added where na[i] != 0, a Niels point where nb[i] != 0. All C formulas, all fused, or
 * fused doublings with C additions (what ge.c's ECOPT_GE_VT_FUSED chooses between). */
static void loop(int fused_dbl, int fused_add) {
    for (int i = BENCH_FUSED_STEPS - 1; i >= 0; i--) {
        int t = na[i] != 0 || nb[i] != 0;
        if (fused_dbl && t)
            FUSED(ge_double)(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v);
        else if (fused_dbl)
            FUSED(ge_double_xyz)(P.X.v, P.Y.v, P.Z.v, P.X.v, P.Y.v, P.Z.v);
        else
            c_dbl(&P, &P, t);
        if (na[i]) {
            const ecopt_ge_cached *q = &TA[na[i] & 7];
            if (fused_add)
                FUSED(ge_add)(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, q->YpX.v, q->YmX.v, q->Z2.v,
                              q->T2d.v);
            else
                c_add(&P, &P, q);
        }
        if (nb[i]) {
            const ecopt_ge_niels *q = &TB[nb[i] & 7];
            if (fused_add)
                FUSED(ge_madd)(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, q->YpX.v, q->YmX.v, q->XY2d.v);
            else
                c_madd(&P, &P, q);
        }
    }
}
void BE(bench_fused_loop_c)(void) { loop(0, 0); }
void BE(bench_fused_loop_fused)(void) { loop(1, 1); }
void BE(bench_fused_loop_fused_dbl)(void) { loop(1, 0); }
