/* bench_fused.c — `make bench` (second program): the adx51 and adx backends' whole-formula functions
 * (src/curve/fused_adx51.h, fused_adx.h) against the C formulas of src/curve/ge_formulas.h (what mont.c and ge.c run
 * otherwise) over the same backend's field operations (calling the proved multiply and square one by one), side by
 * side in one process (bench_fused_be.c, compiled once per backend; the ladder rows: the step with its two cswaps,
 * which the whole formulas do by cmov): for each round every implementation runs one batch of BATCH calls in a
 * freshly shuffled order, pinned to one CPU; the report is the median batch in rdtsc ticks per call. Then a
 * verification-shaped loop three ways (all C, all fused, fused doublings only: what ge.c's ECOPT_GE_VT_FUSED
 * chose). Not a test: nothing here asserts a speed.
 *
 * Usage: ecopt_bench_fused [--rounds N] [--cpu N]   (--help: the text of usage() below). Exit: 0; 2 bad usage (an
 * unknown option or argument, a value that is not a number or out of range, --cpu not a CPU of this machine: one
 * line on stderr, before anything is measured); 3 the CPU exists but this process may not run on it. The same codes
 * as ecopt_bench. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
#define MAXROUNDS 10001

static void usage(void) {
    printf("usage: ecopt_bench_fused [--rounds N] [--cpu N]\n"
           "  the adx51 and adx whole-formula functions against the C formulas over the same field operations:\n"
           "  median rdtsc ticks per call over interleaved rounds, pinned to one CPU (x86-64 with BMI2 and ADX)\n"
           "  --rounds N   rounds 1..%d (default 301)\n"
           "  --cpu N      the CPU to pin to (default: the last one this process may run on)\n"
           "  -h, --help   this text\n"
           "exit status: 0; 2 bad usage (an unknown option or argument, a value not a number or out of range, --cpu\n"
           "  not a CPU of this machine; one line on stderr, nothing measured); 3 the environment failed (the CPU\n"
           "  exists but this process may not run on it); the same codes as ecopt_bench\n",
           MAXROUNDS);
}

/* bad — one line on stderr, exit status 2 */
static int bad(const char *arg, const char *why) {
    fprintf(stderr, "ecopt_bench_fused: %s%s%s (see --help)\n", arg ? arg : "", arg ? ": " : "", why);
    return 2;
}

/* parse_int — v as a decimal in [lo, hi]; 0 ok, -1 not a number, -2 out of range */
static int parse_int(const char *v, long lo, long hi, int *out) {
    char *end = NULL;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || (errno && errno != ERANGE)) return -1;
    if (errno == ERANGE || x < lo || x > hi) return -2;
    *out = (int)x;
    return 0;
}

int main(int argc, char **argv) {
    int rounds = 301, cpu = -1, seen_rounds = 0, seen_cpu = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        }
        int is_rounds = !strcmp(a, "--rounds"), is_cpu = !strcmp(a, "--cpu");
        if (!is_rounds && !is_cpu) return bad(a, a[0] == '-' ? "unknown option" : "unexpected argument");
        if (i + 1 >= argc) return bad(a, "an option without its value");
        if ((*(is_rounds ? &seen_rounds : &seen_cpu))++) return bad(a, "an option given more than once");
        const char *v = argv[++i];
        int pr = is_rounds ? parse_int(v, 1, MAXROUNDS, &rounds) : parse_int(v, 0, CPU_SETSIZE - 1, &cpu);
        if (pr != 0) {
            char what[64];
            snprintf(what, sizeof what, "%s %.40s", a, v);
            return bad(what, pr == -1 ? "not a number" : "a value out of range");
        }
    }
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    if (cpu >= 0 && ncpu > 0 && cpu >= ncpu) {
        fprintf(stderr, "ecopt_bench_fused: --cpu %d: no such CPU (this machine has CPUs 0 to %ld)\n", cpu, ncpu - 1);
        return 2;
    }
    cpu_set_t s;
    CPU_ZERO(&s);
    if (cpu < 0) { /* the last CPU this process may run on, as ecopt_bench */
        if (sched_getaffinity(0, sizeof s, &s) != 0) {
            fprintf(stderr, "ecopt_bench_fused: sched_getaffinity: %s\n", strerror(errno));
            return 3;
        }
        for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; c--)
            if (CPU_ISSET(c, &s)) cpu = c;
        CPU_ZERO(&s);
    }
    CPU_SET(cpu, &s);
    if (sched_setaffinity(0, sizeof s, &s) != 0) {
        fprintf(stderr, "ecopt_bench_fused: --cpu %d: this process may not run on it (%s)\n", cpu, strerror(errno));
        return 3;
    }
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
