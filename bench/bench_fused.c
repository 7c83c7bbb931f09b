/* bench_fused.c — `make bench` (second program): the adx51 and adx backends' whole-formula functions
 * (src/curve/fused_adx51.h, fused_adx.h) against the C formulas of src/curve/ge_formulas.h (what mont.c and ge.c run
 * otherwise) over the same backend's field operations (calling the proved multiply and square one by one), side by
 * side in one process (bench_fused_be.c, compiled once per backend; the ladder rows: the step with its two cswaps,
 * which the whole formulas do by cmov): for each round every implementation runs one batch of BATCH calls in a
 * freshly shuffled order, pinned to one CPU; the report is the median batch in rdtsc ticks per call. Then a
 * verification-shaped loop three ways (all C, all fused, fused doublings only: what ge.c's ECOPT_GE_VT_FUSED
 * chose). Not a test: nothing here asserts a speed.
 *
 * Usage: ecopt_bench_fused [--rounds N] [--cpu N] */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "bench_fused.h"

static inline uint64_t ticks(void) {
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

/* The loop's digits, one step in six adding: adx51's drawn with rand() after srand(1), adx's from a fixed linear
 * congruential sequence (each the pattern its rows were first measured with: 39 cached and 41 Niels additions for
 * adx51, 49 and 29 for adx). */
static void digits_adx51(int8_t na[BENCH_FUSED_STEPS], int8_t nb[BENCH_FUSED_STEPS]) {
    srand(1);
    for (int i = 0; i < BENCH_FUSED_STEPS; i++) {
        na[i] = (int8_t)(rand() % 6 == 0 ? 1 + rand() % 7 : 0);
        nb[i] = (int8_t)(rand() % 6 == 0 ? 1 + rand() % 7 : 0);
    }
}
static void digits_adx(int8_t na[BENCH_FUSED_STEPS], int8_t nb[BENCH_FUSED_STEPS]) {
    uint64_t s = 1;
    for (int i = 0; i < BENCH_FUSED_STEPS; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        na[i] = (int8_t)((s >> 33) % 6 == 0 ? 1 : 0);
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        nb[i] = (int8_t)((s >> 33) % 6 == 0 ? 1 : 0);
    }
}

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
    int8_t na[BENCH_FUSED_STEPS], nb[BENCH_FUSED_STEPS];
    digits_adx51(na, nb);
    bench_fused_setup_adx51(na, nb);
    digits_adx(na, nb);
    bench_fused_setup_adx(na, nb);
    impl im[] = {{"ladder adx51", bench_fused_c_ladder_adx51, 200}, {"ladder adx51", bench_fused_f_ladder_adx51, 200},
                 {"ladder adx", bench_fused_c_ladder_adx, 200},     {"ladder adx", bench_fused_f_ladder_adx, 200},
                 {"madd", bench_fused_c_madd_adx51, 200},           {"madd", bench_fused_f_madd_adx51, 200},
                 {"add", bench_fused_c_add_adx51, 200},             {"add", bench_fused_f_add_adx51, 200},
                 {"double", bench_fused_c_dbl_adx51, 200},          {"double", bench_fused_f_dbl_adx51, 200},
                 {"double_xyz", bench_fused_c_dblx_adx51, 200},     {"double_xyz", bench_fused_f_dblx_adx51, 200},
                 {"verify loop", bench_fused_loop_c_adx51, 2},      {"all fused", bench_fused_loop_fused_adx51, 2},
                 {"verify loop", bench_fused_loop_c_adx51, 2},      {"fused dbl", bench_fused_loop_fused_dbl_adx51, 2},
                 {"madd adx", bench_fused_c_madd_adx, 200},         {"madd adx", bench_fused_f_madd_adx, 200},
                 {"add adx", bench_fused_c_add_adx, 200},           {"add adx", bench_fused_f_add_adx, 200},
                 {"double adx", bench_fused_c_dbl_adx, 200},        {"double adx", bench_fused_f_dbl_adx, 200},
                 {"dbl_xyz adx", bench_fused_c_dblx_adx, 200},      {"dbl_xyz adx", bench_fused_f_dblx_adx, 200},
                 {"loop adx", bench_fused_loop_c_adx, 2},           {"all fused", bench_fused_loop_fused_adx, 2},
                 {"loop adx", bench_fused_loop_c_adx, 2},           {"fused dbl", bench_fused_loop_fused_dbl_adx, 2}};
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
