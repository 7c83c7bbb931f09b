/* tick_cal.h — TSC ticks and the measured ratio of TSC ticks to core cycles, for the benchmarks (ecopt_bench,
 * ifma_probe). Header-only: static functions, x86-64 (rdtsc).
 *
 * The TSC runs at a fixed rate, the core at whatever clock the load and the boost give it now, so the ratio is
 * measured in the run, not assumed: a chain of dependent 64-bit register adds, TICK_CAL_ADDS per loop iteration,
 * takes one core cycle per add (ADD r64, r64 has latency 1 on the x86-64 cores in Agner Fog's "Instruction tables";
 * the loop's counter runs beside the chain). A register operand, not an immediate: some cores fold chains of add-
 * immediates at rename. About TICK_CAL_MS ms in all, as TICK_CAL_TRIALS short trials sized with CLOCK_MONOTONIC,
 * and their median: a trial that spans another process's time slice on a shared core reads high, so the trials
 * are short (with a second process on the core, 5 ms trials read up to 3.5x high, while the median of 0.1 ms trials
 * stayed within about 1% of their minimum). */
#ifndef ECOPT_BENCH_TICK_CAL_H
#define ECOPT_BENCH_TICK_CAL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

/* ticks — the TSC, lfence on both sides so that the read neither starts early nor lets later work start first */
static inline uint64_t ticks(void) {
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

enum { TICK_CAL_ADDS = 10, TICK_CAL_TRIALS = 251, TICK_CAL_MS = 50 };

static volatile uint64_t tick_cal_sink;

static uint64_t tick_cal_add_chain(uint64_t iters) {
    uint64_t x = 0, one = 1;
    __asm__ volatile("" : "+r"(one)); /* unknown to the compiler: the chain cannot be folded */
    for (uint64_t i = 0; i < iters; i++)
        __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                         : "+r"(x)
                         : "r"(one));
    return x;
}

static double tick_cal_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int tick_cal_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ticks_per_cycle — the median over TICK_CAL_TRIALS trials of ticks / (iterations * TICK_CAL_ADDS); *q1, *q3 the
 * trials' quartiles */
static double ticks_per_cycle(double *q1, double *q3) {
    uint64_t iters = 1000;
    for (;;) { /* size a trial: grow until a run takes 2 ms, then scale to TICK_CAL_MS / TICK_CAL_TRIALS */
        double t0 = tick_cal_seconds();
        tick_cal_sink ^= tick_cal_add_chain(iters);
        double dt = tick_cal_seconds() - t0;
        if (dt >= 0.002 || iters >= (UINT64_C(1) << 40)) {
            iters = (uint64_t)((double)iters * (TICK_CAL_MS * 1e-3 / TICK_CAL_TRIALS) / (dt > 0 ? dt : 1e-3)) + 1;
            break;
        }
        iters *= 4;
    }
    static double r[TICK_CAL_TRIALS];
    for (int k = 0; k < TICK_CAL_TRIALS; k++) {
        uint64_t t0 = ticks();
        tick_cal_sink ^= tick_cal_add_chain(iters);
        r[k] = (double)(ticks() - t0) / ((double)iters * TICK_CAL_ADDS);
    }
    qsort(r, TICK_CAL_TRIALS, sizeof *r, tick_cal_cmp);
    *q1 = r[TICK_CAL_TRIALS / 4];
    *q3 = r[3 * TICK_CAL_TRIALS / 4];
    return r[TICK_CAL_TRIALS / 2];
}

#endif /* ECOPT_BENCH_TICK_CAL_H */
