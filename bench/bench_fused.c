/* bench_fused.c — `make bench` (second program): the adx51 backend's whole-formula functions
 * (src/curve/fused_adx51.h) against the C formulas of src/curve/ge_formulas.h (what mont.c and ge.c run otherwise)
 * over the adx51 field operations (calling the proved multiply and square one by one), and the same for the adx
 * backend's (src/curve/fused_adx.h, bench_fused_adx.c), side by side in one process (the ladder rows: the step
 * with its two cswaps, which the whole formulas do by cmov): for
 * each round every implementation runs one batch of BATCH calls in a freshly shuffled order, pinned to one CPU;
 * the report is the median batch in rdtsc ticks per call. Then a verification-shaped loop three ways (all C, all
 * fused, fused doublings only: what ge.c's ECOPT_GE_VT_FUSED chose). Not a test: nothing here asserts a speed.
 *
 * Usage: ecopt_bench_fused [--rounds N] [--cpu N] */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "curve/fused_adx51.h"
#include "curve/ge.h"
#include "curve/ge_formulas.h"
#include "field/fe.h"

static inline uint64_t ticks(void) {
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

static ecopt_ge_ext P;
static ecopt_ge_niels N;
static ecopt_ge_cached Q;
static ecopt_fe x1, x2, z2, x3, z3;

/* The C formulas (curve/ge_formulas.h, what ge.c and mont.c run without the fused functions), not inlined here so
 * that each is timed as one call like its fused counterpart. */
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
static uint64_t swap_bit[1];
__attribute__((noinline)) static void c_ladder(void) {
    swap_bit[0] ^= 1;
    ecopt_fe_cswap(&x2, &x3, swap_bit[0]);
    ecopt_fe_cswap(&z2, &z3, swap_bit[0]);
    ecopt_mont_ladderstep_c(&x2, &z2, &x3, &z3, &x1);
}
/* bench_fused_adx.c: the adx backend's ladder step, C formulas and whole formula (a state of its own). */
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
static void f_ladder(void) {
    swap_bit[0] ^= 1;
    ecopt_mont_ladderstep_fused_adx51(x2.v, z2.v, x3.v, z3.v, x1.v, x2.v, z2.v, x3.v, z3.v, swap_bit);
}
static void f_madd(void) {
    ecopt_ge_madd_fused_adx51(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, N.YpX.v, N.YmX.v, N.XY2d.v);
}
static void cc_madd(void) {
    c_madd(&P, &P, &N);
}
static void f_add(void) {
    ecopt_ge_add_fused_adx51(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, Q.YpX.v, Q.YmX.v, Q.Z2.v, Q.T2d.v);
}
static void cc_add(void) {
    c_add(&P, &P, &Q);
}
static void f_dbl(void) {
    ecopt_ge_double_fused_adx51(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v);
}
static void cc_dbl(void) {
    c_dbl(&P, &P, 1);
}
static void f_dblx(void) {
    ecopt_ge_double_xyz_fused_adx51(P.X.v, P.Y.v, P.Z.v, P.X.v, P.Y.v, P.Z.v);
}
static void cc_dblx(void) {
    c_dbl(&P, &P, 0);
}
/* A verification-shaped loop (ecopt_ge_double_scalarmult_vartime): 253 doublings, with T before an addition; about
 * one step in six adds a cached point, one in six a Niels point (width-5 wNAF digits of two scalars). All C formulas,
 * all fused, or fused doublings with C additions (what ge.c uses, ECOPT_GE_VT_FUSED). */
static int8_t na[253], nb[253];
static ecopt_ge_cached TA[8];
static ecopt_ge_niels TB[8];
static void loop(int fused_dbl, int fused_add) {
    for (int i = 252; i >= 0; i--) {
        int t = na[i] != 0 || nb[i] != 0;
        if (fused_dbl && t)
            ecopt_ge_double_fused_adx51(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v);
        else if (fused_dbl)
            ecopt_ge_double_xyz_fused_adx51(P.X.v, P.Y.v, P.Z.v, P.X.v, P.Y.v, P.Z.v);
        else
            c_dbl(&P, &P, t);
        if (na[i]) {
            const ecopt_ge_cached *q = &TA[na[i] & 7];
            if (fused_add)
                ecopt_ge_add_fused_adx51(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, q->YpX.v, q->YmX.v,
                                       q->Z2.v, q->T2d.v);
            else
                c_add(&P, &P, q);
        }
        if (nb[i]) {
            const ecopt_ge_niels *q = &TB[nb[i] & 7];
            if (fused_add)
                ecopt_ge_madd_fused_adx51(P.X.v, P.Y.v, P.Z.v, P.T.v, P.X.v, P.Y.v, P.Z.v, P.T.v, q->YpX.v, q->YmX.v,
                                        q->XY2d.v);
            else
                c_madd(&P, &P, q);
        }
    }
}
static void loop_c(void) { loop(0, 0); }
static void loop_fused(void) { loop(1, 1); }
static void loop_fused_dbl(void) { loop(1, 0); }

typedef struct {
    const char *name;
    void (*fn)(void);
    int batch;
} impl;
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
int main(int argc, char **argv) {
    int rounds = 301, cpu = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--rounds") == 0)
            rounds = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--cpu") == 0)
            cpu = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: ecopt_bench_fused [--rounds N] [--cpu N]\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > 10001)
        rounds = 301;
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (sched_setaffinity(0, sizeof s, &s) != 0)
        fprintf(stderr, "ecopt_bench_fused: cannot pin to CPU %d\n", cpu);
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
    srand(1);
    for (int i = 0; i < 253; i++) {
        na[i] = (int8_t)(rand() % 6 == 0 ? 1 + rand() % 7 : 0);
        nb[i] = (int8_t)(rand() % 6 == 0 ? 1 + rand() % 7 : 0);
    }
    for (int j = 0; j < 8; j++) {
        TA[j] = Q;
        TB[j] = N;
    }
    bench_fused_adx_setup();
    impl im[] = {{"ladder adx51", c_ladder, 200}, {"ladder adx51", f_ladder, 200},
                 {"ladder adx", bench_fused_adx_c_ladder, 200}, {"ladder adx", bench_fused_adx_f_ladder, 200},
                 {"madd", cc_madd, 200},
                 {"madd", f_madd, 200},         {"add", cc_add, 200},          {"add", f_add, 200},
                 {"double", cc_dbl, 200},       {"double", f_dbl, 200},        {"double_xyz", cc_dblx, 200},
                 {"double_xyz", f_dblx, 200},   {"verify loop", loop_c, 2},    {"all fused", loop_fused, 2},
                 {"verify loop", loop_c, 2},    {"fused dbl", loop_fused_dbl, 2},
                 {"madd adx", bench_fused_adx_c_madd, 200}, {"madd adx", bench_fused_adx_f_madd, 200},
                 {"add adx", bench_fused_adx_c_add, 200}, {"add adx", bench_fused_adx_f_add, 200},
                 {"double adx", bench_fused_adx_c_dbl, 200}, {"double adx", bench_fused_adx_f_dbl, 200},
                 {"dbl_xyz adx", bench_fused_adx_c_dblx, 200}, {"dbl_xyz adx", bench_fused_adx_f_dblx, 200},
                 {"loop adx", bench_fused_adx_loop_c, 2}, {"all fused", bench_fused_adx_loop_fused, 2},
                 {"loop adx", bench_fused_adx_loop_c, 2}, {"fused dbl", bench_fused_adx_loop_fused_dbl, 2}};
    enum { NI = 28 };
    double *smp[NI];
    for (int k = 0; k < NI; k++)
        smp[k] = malloc(sizeof(double) * (size_t)rounds);
    srand(1);
    for (int r = 0; r < rounds; r++) {
        int ord[NI];
        for (int k = 0; k < NI; k++)
            ord[k] = k;
        for (int k = NI - 1; k > 0; k--) {
            int j = rand() % (k + 1);
            int t = ord[k];
            ord[k] = ord[j];
            ord[j] = t;
        }
        for (int k = 0; k < NI; k++) {
            impl *m = &im[ord[k]];
            uint64_t t0 = ticks();
            for (int c = 0; c < m->batch; c++)
                m->fn();
            smp[ord[k]][r] = (double)(ticks() - t0) / m->batch;
        }
    }
    printf("whole formulas (adx51; rows named adx: adx): median rdtsc ticks per call, %d rounds of 200 calls "
           "(loops: 2), pinned to CPU %d\n",
           rounds, cpu);
    double med[NI];
    for (int k = 0; k < NI; k++) {
        qsort(smp[k], (size_t)rounds, sizeof(double), cmp);
        med[k] = smp[k][rounds / 2];
        free(smp[k]);
    }
    for (int k = 0; k < NI; k += 2)
        printf("%-12s C %8.1f  %-14s %8.1f  ratio %.3f\n", im[k].name, med[k],
               im[k].batch > 2 ? "fused" : im[k + 1].name, med[k + 1], med[k + 1] / med[k]);
    return 0;
}
