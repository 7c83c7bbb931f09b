/* measure.h — timing candidate functions on this machine (DESIGN.md, "Measuring on these
 * machines").
 *
 * Unit: core cycles from the PMU (perf_event_open(PERF_COUNT_HW_CPU_CYCLES), read in user space with rdpmc) where
 * the kernel allows it; otherwise rdtsc time-stamp-counter ticks, which are NOT core cycles (on the project's VMs
 * the TSC runs at ~2.1 GHz, the core at ~3.4-3.7 GHz). measure_unit() says which ("cycles" or "ticks"); every
 * number below is in that unit. Reads are serialised with lfence on both sides (Intel SDM Vol. 2B, RDTSC/RDPMC:
 * "LFENCE immediately before/after").
 *
 * Method (measure_run): the functions run interleaved in randomly ordered batches; each batch is about
 * target_ticks long (its call count calibrated per function at the start of every measure_run call), and a
 * function's result is the median over the rounds of (batch time / calls). Only ratios measured in one
 * measure_run call are meaningful: the host is shared and runs 1.3-1.6x slower for minutes at a time.
 *
 * The functions are called with the fiat signature: every output array (declaration order), then every input
 * array (declaration order), each a uint64_t pointer. Inputs are random limbs within the IR's per-limb bounds,
 * drawn once per context; outputs go to separate buffers, so the inputs never change during a measurement.
 * That is the throughput objective (independent calls, measure_set_objective): the default. The latency objective
 * chains the calls instead, each call's first output being the next call's first input (see measure_chain).
 * Environment: ECOPT_MEASURE_TSC set (any value) forces rdtsc ticks even where a PMU is readable.
 * Not thread-safe: one context per thread, and the PMU counter (if any) belongs to the thread that first
 * called measure_unit/measure_new. x86-64 only (elsewhere every call fails with an error). */
#ifndef ECOPT_SEARCH_MEASURE_H
#define ECOPT_SEARCH_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* The most arrays (outputs + inputs) a measured function may take. */
#define MEASURE_MAX_ARGS 12
/* Defaults for a new context. */
#define MEASURE_DEFAULT_ROUNDS 31
#define MEASURE_DEFAULT_TARGET 10000.0 /* batch length in ticks (or cycles) */

/* A function with the fiat signature: every output array, then every input array, as uint64_t pointers. Stored as
 * a 12-pointer prototype (System V passes 6 in registers and the rest on the stack, and a callee ignores the ones
 * it does not take), so any function of <= 12 arrays works. measure_run and measure_call call a function of
 * n <= 6 arrays through an n-pointer prototype (no stack arguments), one of more arrays through this one. */
typedef void (*measure_fn)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *,
                           void *);

/* measure_pin — pin the calling thread to one CPU (sched_setaffinity). cpu < 0: the CPU it is running on now.
 * Returns the CPU pinned to (>= 0), or -1 with err ("measure_pin: cpu 5: Invalid argument"). */
int measure_pin(int cpu, char *err, size_t errlen);

/* measure_unit — "cycles" when the PMU can be read from user space (perf_event + rdpmc), else "ticks" (rdtsc).
 * The first call probes the PMU (and keeps the counter open for the process). Never NULL. */
const char *measure_unit(void);

/* measure_after_fork — in a child process, forget the parent's PMU counter (it counts the parent's thread, not
 * this one): the next measure_unit / measure_now probes again for this process. */
void measure_after_fork(void);

/* measure_now — the current counter value in measure_unit()'s unit, lfence-serialised on both sides. */
uint64_t measure_now(void);

/* measure_cpu_model — the CPU's model name ("AMD EPYC 9R45 ...") into buf (size n, NUL-terminated, truncated to
 * fit): /proc/cpuinfo's "model name", else the cpuid brand string (leaves 0x80000002-4), else "unknown".
 * Returns buf. */
char *measure_cpu_model(char *buf, size_t n);

typedef struct measure_ctx measure_ctx;

/* What a measurement's time per call means. THROUGHPUT: every call reads the same inputs and writes separate
 * outputs, so the calls of a batch are independent and overlap in the core (the time per call is the reciprocal
 * throughput). LATENCY: a dependent chain, the way a library calls its field operations: call c + 1 reads as its
 * first input (and second, see measure_chain) the first output call c wrote, so one call starts only when the
 * previous one's output is there (the time per call is its latency, store-to-load forwarding included). */
typedef enum { MEASURE_THROUGHPUT = 0, MEASURE_LATENCY = 1 } measure_objective;

/* measure_objective_name — "throughput" or "latency". measure_objective_parse — the inverse: 0 with *o set, -1
 * for any other string (NULL included). */
const char *measure_objective_name(measure_objective o);
int measure_objective_parse(const char *s, measure_objective *o);

/* measure_chain — whether f's calls can be chained for the latency objective, and how. out1 = f's first output
 * array, arg1 / arg2 = its first / second input array (declaration order). The chain feeds out1 back as arg1, and
 * as arg2 too when f has one that out1 also fits; other inputs keep their random values, other outputs go to their
 * own buffers. out1 fits an input when both have the same number of limbs and every limb's declared output bounds
 * lie within that input limb's declared bounds, so every call of the chain gets inputs the IR allows (a field
 * multiply's tight outputs are valid loose inputs; an add's outputs, wider than its inputs, are not).
 * Returns 2 (out1 feeds arg1 and arg2), 1 (arg1 only), or -1 when the chain is impossible; desc (size n) gets
 * "out1 -> arg1, arg2" (the arrays' names) or the reason, one line ("out1 has 5 limbs, arg1 4"; "out1[0] may
 * reach 0x..., above arg1[0]'s bound 0x..."; "no output array"). */
int measure_chain(const ir_func *f, char *desc, size_t n);

/* measure_new — a context for functions computing f (lowered or not: only its arrays matter): one buffer per
 * array, inputs filled with random limbs in [lo, hi] of the array's per-limb bounds from a PRNG seeded with seed
 * (the same seed gives the same inputs), rounds = MEASURE_DEFAULT_ROUNDS, target = MEASURE_DEFAULT_TARGET. NULL
 * with err when f has no arrays or more than MEASURE_MAX_ARGS, or memory runs out. Free with measure_free. */
measure_ctx *measure_new(const ir_func *f, uint64_t seed, char *err, size_t errlen);
void measure_free(measure_ctx *m);

/* measure_set_rounds — rounds per measure_run (1..1001; e.g. fewer for screening). Returns 0, -1 if out of range. */
int measure_set_rounds(measure_ctx *m, int rounds);
/* measure_set_target — batch length in ticks (or cycles), 100..1e8. Returns 0, -1 if out of range. */
int measure_set_target(measure_ctx *m, double target);

/* measure_set_objective — the objective of the context's measurements from now on (default THROUGHPUT).
 * LATENCY needs a function measure_chain accepts: else -1 with err (measure_chain's reason) and nothing changes.
 * The chain starts, in every batch, from the same random limbs within out1's bounds (drawn at measure_new from
 * the seed, a stream apart from the inputs'), so every function of a measurement computes the same values.
 * Returns 0, or -1 with err. */
int measure_set_objective(measure_ctx *m, measure_objective o, char *err, size_t errlen);
measure_objective measure_get_objective(const measure_ctx *m);

/* measure_nargs — how many arrays the functions take (outputs + inputs). */
int measure_nargs(const measure_ctx *m);
/* measure_args — the MEASURE_MAX_ARGS argument pointers the functions are called with (outputs first, then
 * inputs; NULL beyond nargs). The input buffers hold the context's random inputs; do not write them. */
void *const *measure_args(const measure_ctx *m);

/* measure_run — ticks (or cycles) per call of each of fns[0..n-1] (1 <= n <= 64), measured interleaved. First
 * each function is warmed up and its batch size calibrated (calls doubled until a batch lasts >= target). Then
 * `rounds` rounds; in each round the n functions run in a fresh random order, each as one batch of its calls,
 * timed with measure_now() around the batch. result[i] = median over the rounds of batch time / calls (> 0,
 * finite). Returns 0, or -1 with err (bad arguments; a function whose single call takes longer than 1e9 ticks). */
int measure_run(measure_ctx *m, const measure_fn *fns, int n, double *result, char *err, size_t errlen);

/* measure_run_spread — measure_run that also reports, per function, the spread of the per-round values:
 * lo[i] / hi[i] = the 25th / 75th percentile (either may be NULL). */
int measure_run_spread(measure_ctx *m, const measure_fn *fns, int n, double *result, double *lo, double *hi,
                       char *err, size_t errlen);

/* measure_run_calls — measure_run_spread with the batch sizes under the caller's control: calls[i] == 0 on entry:
 * calibrate function i as measure_run does and store the call count used; calls[i] > 0: use that many calls per
 * batch (at most 2^30), no calibration (only a 16-call warm-up). Lets a search keep the baselines' batch sizes across runs, or
 * give a candidate the current one's. calls may not be NULL; lo, hi may. */
int measure_run_calls(measure_ctx *m, const measure_fn *fns, int n, uint64_t *calls, double *result, double *lo,
                      double *hi, char *err, size_t errlen);

/* measure_run_ratio — measure_run that also compares each function with fns[0] round by round: ratio[i] = median
 * over the rounds of (fns[i]'s time per call / fns[0]'s time per call in the same round); ratio[0] = 1. Both batches
 * of a round run within microseconds of each other, so a host that slows down for a while (other tenants, frequency)
 * moves both alike: the paired ratio is steadier than result[i] / result[0] (separate medians). */
int measure_run_ratio(measure_ctx *m, const measure_fn *fns, int n, double *result, double *ratio, char *err,
                      size_t errlen);

/* measure_call — one call of fn with the context's arguments (for warm-up or checking). */
void measure_call(const measure_ctx *m, measure_fn fn);

#endif
