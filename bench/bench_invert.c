/* bench_invert.c — `bench_invert`: inversion mod 2^255 - 19 by Fermat (ecopt_fe_invert_fermat) against
 * Bernstein-Yang divsteps (ecopt_fe_invert_divsteps) on every compiled backend, plus pow22523, X25519 and X25519 base
 * per backend for scale (each X25519 does one ecopt_fe_invert). Not a test (speed is never asserted); it says which
 * inversion fe_common_impl.h should choose.
 *
 * Method (as bench.c): pinned to one CPU; ROUNDS rounds, in each every entry runs one batch of BATCH dependent calls
 * (x <- 1/x) in a freshly shuffled order; a sample is the batch's rdtsc ticks / BATCH; the report is the median.
 * Ticks are TSC ticks, not core cycles.
 *
 * Usage: bench_invert [--rounds N] [--batch N] [--cpu N] */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "backend.h"
#include "bench_invert.h"
#include "ecopt/ecopt.h"

#define MAXE 20
#define MAXROUNDS 1001

typedef struct entry {
    char name[48];
    void (*fn)(int n);         /* field entries */
    const ecopt_backend *be;   /* x25519 entries */
    int base;                  /* x25519_base instead of x25519 */
} entry;

static uint8_t scalar[32], point[32];
static volatile uint8_t sink;

static inline uint64_t ticks(void) {
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void run(const entry *e, int batch) {
    if (e->fn) {
        e->fn(batch);
    } else {
        uint8_t out[32];
        for (int c = 0; c < batch; c++) {
            if (e->base) e->be->x25519_base(out, scalar);
            else (void)e->be->x25519(out, scalar, point);
            sink ^= out[0];
            scalar[0] ^= out[1]; /* dependent, as the field chains */
        }
    }
}

int main(int argc, char **argv) {
    int rounds = 101, batch = 16, cpu = -1;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--rounds") && a + 1 < argc) rounds = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--batch") && a + 1 < argc) batch = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--cpu") && a + 1 < argc) cpu = atoi(argv[++a]);
        else {
            fprintf(stderr, "usage: bench_invert [--rounds N] [--batch N] [--cpu N]\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > MAXROUNDS || batch < 1) {
        fprintf(stderr, "bench_invert: --rounds must be 1..%d and --batch at least 1\n", MAXROUNDS);
        return 2;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpu < 0) {
        if (sched_getaffinity(0, sizeof set, &set) != 0) return 3;
        for (int c = CPU_SETSIZE - 1; c >= 0; c--)
            if (CPU_ISSET(c, &set)) {
                cpu = c;
                break;
            }
        CPU_ZERO(&set);
    }
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        fprintf(stderr, "bench_invert: cannot pin to CPU %d\n", cpu);
        return 3;
    }

    uint8_t a[32];
    for (int i = 0; i < 32; i++) a[i] = (uint8_t)(37 * i + 11), scalar[i] = (uint8_t)(91 * i + 5);
    point[0] = 9;

    entry es[MAXE];
    int n = 0;
#define ADD_BE(be)                                                                                                  \
    if (bench_inv_available_##be()) {                                                                               \
        bench_inv_setup_##be(a);                                                                                    \
        es[n++] = (entry){"invert fermat " #be, bench_inv_fermat_##be, NULL, 0};                                       \
        es[n++] = (entry){"invert divsteps " #be, bench_inv_divsteps_##be, NULL, 0};                                   \
        es[n++] = (entry){"pow22523 (sqrt chain) " #be, bench_inv_sqrt_##be, NULL, 0};                                 \
    }
#ifdef BENCH_HAVE_adx
    ADD_BE(adx)
#endif
#ifdef BENCH_HAVE_adx51
    ADD_BE(adx51)
#endif
#ifdef BENCH_HAVE_x64
    ADD_BE(x64)
#endif
#ifdef BENCH_HAVE_u64
    ADD_BE(u64)
#endif
#ifdef BENCH_HAVE_u32
    ADD_BE(u32)
#endif
    size_t nbe;
    const ecopt_backend *const *bes = ecopt_backend_all(&nbe);
    for (size_t b = 0; b < nbe && n + 1 < MAXE; b++)
        if (bes[b]->available()) {
            for (int base = 0; base < 2; base++) {
                snprintf(es[n].name, sizeof es[n].name, "x25519%s %s", base ? "_base" : "", bes[b]->name);
                es[n].fn = NULL;
                es[n].be = bes[b];
                es[n].base = base;
                n++;
            }
        }

    static double samples[MAXE][MAXROUNDS];
    int order[MAXE];
    for (int k = 0; k < n; k++) run(&es[k], batch); /* warm up */
    srand(12345);
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < n; k++) order[k] = k;
        for (int k = n - 1; k > 0; k--) {
            int j = rand() % (k + 1), t = order[k];
            order[k] = order[j];
            order[j] = t;
        }
        for (int k = 0; k < n; k++) {
            uint64_t t0 = ticks();
            run(&es[order[k]], batch);
            uint64_t t1 = ticks();
            samples[order[k]][r] = (double)(t1 - t0) / batch;
        }
    }
    printf("bench_invert: median rdtsc ticks per call (%d rounds of %d dependent calls, interleaved, CPU %d)\n",
           rounds, batch, cpu);
    for (int k = 0; k < n; k++) {
        qsort(samples[k], (size_t)rounds, sizeof(double), cmp_double);
        printf("  %-30s %10.0f\n", es[k].name, samples[k][rounds / 2]);
    }
#ifdef BENCH_HAVE_adx
    if (bench_inv_available_adx()) sink ^= bench_inv_result_adx();
#endif
#ifdef BENCH_HAVE_adx51
    if (bench_inv_available_adx51()) sink ^= bench_inv_result_adx51();
#endif
#ifdef BENCH_HAVE_x64
    if (bench_inv_available_x64()) sink ^= bench_inv_result_x64();
#endif
#ifdef BENCH_HAVE_u64
    sink ^= bench_inv_result_u64();
#endif
#ifdef BENCH_HAVE_u32
    sink ^= bench_inv_result_u32();
#endif
    return 0;
}
