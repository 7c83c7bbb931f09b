/* bench_fused_adx.c — the adx backend's rows of bench_fused.c: the whole-formula functions
 * (src/curve/fused_adx.h) and the C formulas of src/curve/ge_formulas.h over the adx field operations, each one
 * call on a state of its own: the ladder step (C: after the two cswaps, which the whole formula does by cmov; the
 * swap bit alternating), madd, add, double with and without T, and the verification-shaped loop of bench_fused.c
 * three ways. Compiled with ECOPT_FE_BACKEND_adx (the field type is adx's here). */
#include <stdint.h>

#include "curve/fused_adx.h"
#include "curve/ge.h"
#include "curve/ge_formulas.h"
#include "field/fe.h"

void bench_fused_adx_setup(void);
void bench_fused_adx_c_ladder(void);
void bench_fused_adx_f_ladder(void);
void bench_fused_adx_c_madd(void);
void bench_fused_adx_f_madd(void);
void bench_fused_adx_c_add(void);
void bench_fused_adx_f_add(void);
void bench_fused_adx_c_dbl(void);
void bench_fused_adx_f_dbl(void);
void bench_fused_adx_c_dblx(void);
void bench_fused_adx_f_dblx(void);
void bench_fused_adx_loop_c(void);
void bench_fused_adx_loop_fused(void);
void bench_fused_adx_loop_fused_dbl(void);

static ecopt_fe x1, x2, z2, x3, z3;
static uint64_t swap_bit[1];
static ecopt_ge_ext P;
static ecopt_ge_niels N;
static ecopt_ge_cached Q;
static int8_t na[253], nb[253];

/* A state of field elements that are not small: x1 the base point's x, x2 its y, x3 its t (ecopt_fe_base_*); P
 * the base point, Q and N its cached and Niels forms; the loop's digits as bench_fused.c draws them (one step in
 * six adds, from a fixed linear congruential sequence). */
void bench_fused_adx_setup(void) {
    ecopt_fe_copy(&x1, &ecopt_fe_base_x);
    ecopt_fe_1(&x2);
    ecopt_fe_copy(&z2, &ecopt_fe_base_y);
    ecopt_fe_copy(&x3, &ecopt_fe_base_t);
    ecopt_fe_1(&z3);
    ecopt_ge_base(&P);
    ecopt_ge_cached_from_ext(&Q, &P);
    ecopt_fe_add(&N.YpX, &P.Y, &P.X);
    ecopt_fe_sub(&N.YmX, &P.Y, &P.X);
    ecopt_fe_copy(&N.XY2d, &Q.T2d);
    uint64_t s = 1;
    for (int i = 0; i < 253; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        na[i] = (int8_t)((s >> 33) % 6 == 0 ? 1 : 0);
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        nb[i] = (int8_t)((s >> 33) % 6 == 0 ? 1 : 0);
    }
}

__attribute__((noinline)) void bench_fused_adx_c_ladder(void) {
    swap_bit[0] ^= 1;
    ecopt_fe_cswap(&x2, &x3, swap_bit[0]);
    ecopt_fe_cswap(&z2, &z3, swap_bit[0]);
    ecopt_mont_ladderstep_c(&x2, &z2, &x3, &z3, &x1);
}

void bench_fused_adx_f_ladder(void) {
    swap_bit[0] ^= 1;
    ecopt_mont_ladderstep_fused_adx(x2.v, z2.v, x3.v, z3.v, x1.v, x2.v, z2.v, x3.v, z3.v, swap_bit);
}

/* The C formulas, not inlined, so that each is timed as one call like its fused counterpart. */
__attribute__((noinline)) void bench_fused_adx_c_madd(void) { madd_c(&P, &P, &N); }
__attribute__((noinline)) void bench_fused_adx_c_add(void) { add_or_sub(&P, &P, &Q, 0); }
__attribute__((noinline)) void bench_fused_adx_c_dbl(void) { double_c(&P, &P, 1); }
__attribute__((noinline)) void bench_fused_adx_c_dblx(void) { double_c(&P, &P, 0); }

void bench_fused_adx_f_madd(void) {
    ecopt_ge_madd_fused_adx(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, N.YpX.v, N.YmX.v, N.XY2d.v);
}
void bench_fused_adx_f_add(void) {
    ecopt_ge_add_fused_adx(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, Q.YpX.v, Q.YmX.v, Q.Z2.v,
                            Q.T2d.v);
}
void bench_fused_adx_f_dbl(void) { ecopt_ge_double_fused_adx(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v); }
void bench_fused_adx_f_dblx(void) { ecopt_ge_double_xyz_fused_adx(P.X.v, P.Y.v, P.Z.v, P.X.v, P.Y.v, P.Z.v); }

static void loop(int fused_dbl, int fused_add) {
    for (int i = 252; i >= 0; i--) {
        int t = na[i] != 0 || nb[i] != 0;
        if (fused_dbl && t)
            bench_fused_adx_f_dbl();
        else if (fused_dbl)
            bench_fused_adx_f_dblx();
        else
            double_c(&P, &P, t);
        if (na[i]) {
            if (fused_add)
                bench_fused_adx_f_add();
            else
                bench_fused_adx_c_add();
        }
        if (nb[i]) {
            if (fused_add)
                bench_fused_adx_f_madd();
            else
                bench_fused_adx_c_madd();
        }
    }
}
void bench_fused_adx_loop_c(void) { loop(0, 0); }
void bench_fused_adx_loop_fused(void) { loop(1, 1); }
void bench_fused_adx_loop_fused_dbl(void) { loop(1, 0); }
