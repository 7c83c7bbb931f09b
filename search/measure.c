/* measure.c — see measure.h. */
#define _GNU_SOURCE
#include "search/measure.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#define MEASURE_X86 1
#else
#define MEASURE_X86 0
#endif

struct measure_ctx {
    int nargs;
    void *args[MEASURE_MAX_ARGS];   /* outputs first, then inputs; each 64-byte aligned */
    uint32_t len[MEASURE_MAX_ARGS]; /* limbs */
    int rounds;
    double target;
    uint64_t rng;                   /* splitmix64 state for the round orders */
    /* the latency objective (measure_chain): chain[0] and chain[1] take turns as out1 and as the input(s) it is
     * fed back as; cargs[k] are the arguments of the chain's calls with an even (k = 0) or odd (k = 1) index */
    measure_objective objective;
    int chain_kind;                 /* measure_chain's result for the function */
    char chain_why[192];            /* its description or reason */
    uint32_t chain_len;             /* out1's limbs */
    uint64_t *chain[2], *chain0;    /* the two chain buffers and the start value (out1's bounds) */
    void *cargs[2][MEASURE_MAX_ARGS];
};

/* ---- counters ------------------------------------------------------------------------------------------------ */

#if MEASURE_X86
static int pmu_state;                               /* 0 not probed, 1 PMU usable, -1 rdtsc */
static volatile struct perf_event_mmap_page *pmu_page;

static void pmu_probe(void) {
    if (pmu_state != 0)
        return;
    pmu_state = -1;
    if (getenv("ECOPT_MEASURE_TSC") != NULL) /* force ticks (testing the fallback where a PMU exists) */
        return;
    struct perf_event_attr pa;
    memset(&pa, 0, sizeof pa);
    pa.type = PERF_TYPE_HARDWARE;
    pa.size = sizeof pa;
    pa.config = PERF_COUNT_HW_CPU_CYCLES;
    pa.exclude_kernel = 1;
    pa.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0UL);
    if (fd < 0)
        return;
    long pg = sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, (size_t)(pg > 0 ? pg : 4096), PROT_READ, MAP_SHARED, (int)fd, 0);
    if (p == MAP_FAILED) {
        close((int)fd);
        return;
    }
    volatile struct perf_event_mmap_page *pc = p;
    /* The kernel grants user-space rdpmc (CR4.PCE) only when cap_user_rdpmc is set; index 0 = not on a counter. */
    if (!pc->cap_user_rdpmc || pc->index == 0 || pc->pmc_width == 0) {
        munmap(p, (size_t)(pg > 0 ? pg : 4096));
        close((int)fd);
        return;
    }
    pmu_page = pc; /* fd and mapping stay open for the life of the process */
    pmu_state = 1;
}

static inline uint64_t rdtsc_fenced(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

/* The perf_event mmap page's self-monitoring read sequence (linux/perf_event.h's comment on the page). */
static inline uint64_t rdpmc_fenced(void) {
    volatile struct perf_event_mmap_page *pc = pmu_page;
    uint32_t seq, idx;
    uint64_t count;
    do {
        seq = pc->lock;
        __asm__ __volatile__("" ::: "memory");
        idx = pc->index;
        int64_t offset = pc->offset;
        uint16_t width = pc->pmc_width;
        uint32_t lo, hi;
        if (idx == 0)
            return rdtsc_fenced(); /* descheduled from the counter: should not happen while pinned */
        __asm__ __volatile__("lfence\n\trdpmc\n\tlfence" : "=a"(lo), "=d"(hi) : "c"(idx - 1) : "memory");
        int64_t pmc = (int64_t)(((uint64_t)hi << 32) | lo);
        pmc = (int64_t)((uint64_t)pmc << (64 - width)) >> (64 - width);
        count = (uint64_t)(offset + pmc);
        __asm__ __volatile__("" ::: "memory");
    } while (pc->lock != seq);
    return count;
}
#endif

const char *measure_unit(void) {
#if MEASURE_X86
    pmu_probe();
    return pmu_state == 1 ? "cycles" : "ticks";
#else
    return "ticks";
#endif
}

void measure_after_fork(void) {
#if MEASURE_X86
    pmu_state = 0; /* the inherited mapping stays mapped, unused: it is the parent's counter's page */
    pmu_page = NULL;
#endif
}

uint64_t measure_now(void) {
#if MEASURE_X86
    pmu_probe();
    return pmu_state == 1 ? rdpmc_fenced() : rdtsc_fenced();
#else
    return 0;
#endif
}

int measure_pin(int cpu, char *err, size_t errlen) {
    if (cpu < 0) {
        cpu = sched_getcpu();
        if (cpu < 0) {
            snprintf(err, errlen, "measure_pin: sched_getcpu: %s", strerror(errno));
            return -1;
        }
    }
    if (cpu >= CPU_SETSIZE) {
        snprintf(err, errlen, "measure_pin: cpu %d: out of range", cpu);
        return -1;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        snprintf(err, errlen, "measure_pin: cpu %d: %s", cpu, strerror(errno));
        return -1;
    }
    return cpu;
}

static void copy_trim(char *buf, size_t n, const char *s) {
    while (*s == ' ' || *s == '\t')
        s++;
    size_t k = strlen(s);
    while (k > 0 && (s[k - 1] == '\n' || s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '\r'))
        k--;
    if (k >= n)
        k = n - 1;
    memcpy(buf, s, k);
    buf[k] = 0;
}

char *measure_cpu_model(char *buf, size_t n) {
    if (buf == NULL || n == 0)
        return buf;
    buf[0] = 0;
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (fp != NULL) {
        char line[512];
        while (fgets(line, sizeof line, fp) != NULL) {
            if (strncmp(line, "model name", 10) == 0) {
                char *colon = strchr(line, ':');
                if (colon != NULL)
                    copy_trim(buf, n, colon + 1);
                break;
            }
        }
        fclose(fp);
        if (buf[0])
            return buf;
    }
#if MEASURE_X86
    /* cpuid leaves 0x80000002..4: the 48-byte processor brand string (Intel SDM Vol. 2A, CPUID). */
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000004u) {
        char brand[49];
        for (unsigned leaf = 0; leaf < 3; leaf++) {
            __get_cpuid(0x80000002u + leaf, &a, &b, &c, &d);
            memcpy(brand + 16 * leaf, (unsigned[4]){a, b, c, d}, 16);
        }
        brand[48] = 0;
        copy_trim(buf, n, brand);
        if (buf[0])
            return buf;
    }
#endif
    copy_trim(buf, n, "unknown");
    return buf;
}

/* ---- context ------------------------------------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

const char *measure_objective_name(measure_objective o) { return o == MEASURE_LATENCY ? "latency" : "throughput"; }

int measure_objective_parse(const char *s, measure_objective *o) {
    if (s != NULL && strcmp(s, "throughput") == 0)
        *o = MEASURE_THROUGHPUT;
    else if (s != NULL && strcmp(s, "latency") == 0)
        *o = MEASURE_LATENCY;
    else
        return -1;
    return 0;
}

/* The first output array and the first two input arrays of f (declaration order), -1 where there is none. */
static void chain_arrays(const ir_func *f, int *out1, int *in1, int *in2) {
    *out1 = *in1 = *in2 = -1;
    for (uint32_t j = 0; j < f->narr; j++) {
        if (f->arr[j].is_output) {
            if (*out1 < 0)
                *out1 = (int)j;
        } else if (*in1 < 0) {
            *in1 = (int)j;
        } else if (*in2 < 0) {
            *in2 = (int)j;
        }
    }
}

static ir_u128 bound_lo(const ir_array *a, uint32_t i) { return a->lo ? a->lo[i] : 0; }
static ir_u128 bound_hi(const ir_array *a, uint32_t i) { return a->hi ? a->hi[i] : UINT64_MAX; }

/* A zeroed buffer for an array of len limbs (at least one), 64-byte aligned and a whole number of cache lines;
 * NULL when out of memory. */
static uint64_t *limb_buffer(uint32_t len) {
    size_t bytes = ((size_t)(len ? len : 1) * 8 + 63) / 64 * 64;
    uint64_t *buf = aligned_alloc(64, bytes);
    if (buf != NULL)
        memset(buf, 0, bytes);
    return buf;
}

/* Random limbs within a's declared bounds (each limb uniform in [lo, hi], hi capped at 2^64 - 1), from *state. */
static void fill_in_bounds(uint64_t *buf, const ir_array *a, uint64_t *state) {
    for (uint32_t i = 0; i < a->len; i++) {
        ir_u128 lo = bound_lo(a, i), hi = bound_hi(a, i);
        if (hi > UINT64_MAX)
            hi = UINT64_MAX;
        if (lo > hi)
            lo = hi;
        uint64_t span = (uint64_t)(hi - lo), r = splitmix64(state);
        buf[i] = (uint64_t)lo + (span == UINT64_MAX ? r : r % (span + 1));
    }
}

/* Whether out fits as input in (measure_chain); 0, else -1 with the reason. */
static int chain_fits(const ir_array *out, const ir_array *in, char *why, size_t n) {
    if (out->len != in->len) {
        snprintf(why, n, "%s has %u limbs, %s %u", out->name, out->len, in->name, in->len);
        return -1;
    }
    for (uint32_t i = 0; i < out->len; i++) {
        if (bound_hi(out, i) > bound_hi(in, i)) {
            snprintf(why, n, "%s[%u] may reach 0x%llx, above %s[%u]'s bound 0x%llx", out->name, i,
                     (unsigned long long)bound_hi(out, i), in->name, i, (unsigned long long)bound_hi(in, i));
            return -1;
        }
        if (bound_lo(out, i) < bound_lo(in, i)) {
            snprintf(why, n, "%s[%u] may be 0x%llx, below %s[%u]'s bound 0x%llx", out->name, i,
                     (unsigned long long)bound_lo(out, i), in->name, i, (unsigned long long)bound_lo(in, i));
            return -1;
        }
    }
    return 0;
}

int measure_chain(const ir_func *f, char *desc, size_t n) {
    int o1, i1, i2;
    char why[192];
    if (f == NULL) {
        snprintf(desc, n, "no function");
        return -1;
    }
    chain_arrays(f, &o1, &i1, &i2);
    if (o1 < 0 || i1 < 0) {
        snprintf(desc, n, "%s has no %s array", f->name, o1 < 0 ? "output" : "input");
        return -1;
    }
    if (chain_fits(&f->arr[o1], &f->arr[i1], desc, n) != 0)
        return -1;
    if (i2 >= 0 && chain_fits(&f->arr[o1], &f->arr[i2], why, sizeof why) == 0) {
        snprintf(desc, n, "%s -> %s, %s", f->arr[o1].name, f->arr[i1].name, f->arr[i2].name);
        return 2;
    }
    snprintf(desc, n, "%s -> %s", f->arr[o1].name, f->arr[i1].name);
    return 1;
}

measure_ctx *measure_new(const ir_func *f, uint64_t seed, char *err, size_t errlen) {
    if (f == NULL) {
        snprintf(err, errlen, "measure_new: no function");
        return NULL;
    }
    if (f->narr == 0 || f->narr > MEASURE_MAX_ARGS) {
        snprintf(err, errlen, "measure_new: %s has %u arrays (1..%d supported)", f->name, f->narr,
                 MEASURE_MAX_ARGS);
        return NULL;
    }
    measure_ctx *m = calloc(1, sizeof *m);
    if (m == NULL) {
        snprintf(err, errlen, "measure_new: out of memory");
        return NULL;
    }
    m->rounds = MEASURE_DEFAULT_ROUNDS;
    m->target = MEASURE_DEFAULT_TARGET;
    m->rng = seed ^ 0x6d656173757265ULL; /* a different stream from the inputs' */
    uint64_t s = seed;
    /* Outputs in declaration order, then inputs in declaration order: the fiat signature (emit_c.h). */
    int k = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t j = 0; j < f->narr; j++) {
            const ir_array *a = &f->arr[j];
            if (a->is_output != (pass == 0))
                continue;
            uint64_t *buf = limb_buffer(a->len);
            if (buf == NULL) {
                measure_free(m);
                snprintf(err, errlen, "measure_new: out of memory");
                return NULL;
            }
            m->args[k] = buf;
            m->len[k] = a->len;
            k++;
            if (!a->is_output)
                fill_in_bounds(buf, a, &s);
        }
    }
    m->nargs = k;
    /* the latency chain: its buffers and start value, from a stream of its own (the inputs stay as they were) */
    m->chain_kind = measure_chain(f, m->chain_why, sizeof m->chain_why);
    if (m->chain_kind > 0) {
        int o1, i1, i2, nout = 0;
        chain_arrays(f, &o1, &i1, &i2);
        for (uint32_t j = 0; j < f->narr; j++)
            nout += f->arr[j].is_output;
        const ir_array *a = &f->arr[o1];
        for (int b = 0; b < 3; b++) {
            uint64_t *buf = limb_buffer(a->len);
            if (buf == NULL) {
                measure_free(m);
                snprintf(err, errlen, "measure_new: out of memory");
                return NULL;
            }
            if (b < 2)
                m->chain[b] = buf;
            else
                m->chain0 = buf;
        }
        uint64_t cs = seed ^ 0x636861696eULL;
        fill_in_bounds(m->chain0, a, &cs); /* within out1's bounds, which measure_chain found inside the inputs' */
        m->chain_len = a->len;
        /* positions in the call: outputs first (out1 is the first), then inputs (arg1 at nout, arg2 after it) */
        for (int c = 0; c < 2; c++) {
            memcpy(m->cargs[c], m->args, sizeof m->args);
            m->cargs[c][0] = m->chain[1 - c];
            m->cargs[c][nout] = m->chain[c];
            if (m->chain_kind == 2)
                m->cargs[c][nout + 1] = m->chain[c];
        }
    }
    return m;
}

int measure_set_objective(measure_ctx *m, measure_objective o, char *err, size_t errlen) {
    if (m == NULL || (o != MEASURE_THROUGHPUT && o != MEASURE_LATENCY)) {
        snprintf(err, errlen, "measure_set_objective: bad arguments");
        return -1;
    }
    if (o == MEASURE_LATENCY && m->chain_kind <= 0) {
        snprintf(err, errlen, "the calls cannot be chained: %s", m->chain_why);
        return -1;
    }
    m->objective = o;
    return 0;
}

measure_objective measure_get_objective(const measure_ctx *m) { return m ? m->objective : MEASURE_THROUGHPUT; }

void measure_free(measure_ctx *m) {
    if (m == NULL)
        return;
    for (int i = 0; i < MEASURE_MAX_ARGS; i++)
        free(m->args[i]);
    free(m->chain[0]);
    free(m->chain[1]);
    free(m->chain0);
    free(m);
}

int measure_set_rounds(measure_ctx *m, int rounds) {
    if (m == NULL || rounds < 1 || rounds > 1001)
        return -1;
    m->rounds = rounds;
    return 0;
}

int measure_set_target(measure_ctx *m, double target) {
    if (m == NULL || !(target >= 100.0 && target <= 1e8))
        return -1;
    m->target = target;
    return 0;
}

int measure_nargs(const measure_ctx *m) { return m ? m->nargs : 0; }

void *const *measure_args(const measure_ctx *m) { return m->args; }

void measure_call(const measure_ctx *m, measure_fn fn) {
    void *const *a = m->args;
    fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
}

/* ---- measuring ----------------------------------------------------------------------------------------------- */

/* One batch: calls calls of fn, timed. A function of up to 6 arrays is called through a prototype of exactly that
 * many pointers (all in registers), so the 6 stack slots of the 12-pointer prototype do not add their stores to
 * every call of the common 2- and 3-array functions; more arrays go through the 12-pointer prototype. */
typedef void (*generic_fn)(void); /* the cast through it is the sanctioned one (gcc -Wcast-function-type) */
typedef void (*fn1)(void *);
typedef void (*fn2)(void *, void *);
typedef void (*fn3)(void *, void *, void *);
typedef void (*fn4)(void *, void *, void *, void *);
typedef void (*fn5)(void *, void *, void *, void *, void *);
typedef void (*fn6)(void *, void *, void *, void *, void *, void *);

#define BATCH_LOOP(CALL)                                                                                             \
    do {                                                                                                             \
        t0 = measure_now();                                                                                          \
        for (uint64_t c = 0; c < calls; c++)                                                                         \
            CALL;                                                                                                    \
        t1 = measure_now();                                                                                          \
    } while (0)

/* The chain's calls: call c takes cargs[c & 1] (out1 into one chain buffer, its inputs from the other), so each
 * call reads what the one before it wrote. Selecting the argument vector costs the loop an `and` and an address,
 * off the chain's critical path. */
#define CHAIN_LOOP(CALL)                                                                                             \
    do {                                                                                                             \
        t0 = measure_now();                                                                                          \
        for (uint64_t c = 0; c < calls; c++) {                                                                       \
            void *const *a = m->cargs[c & 1];                                                                        \
            CALL;                                                                                                    \
        }                                                                                                            \
        t1 = measure_now();                                                                                          \
    } while (0)

#define BATCH_CALLS(LOOP)                                                                                            \
    switch (m->nargs) {                                                                                              \
    case 1: LOOP(((fn1)(generic_fn)fn)(a[0])); break;                                                                \
    case 2: LOOP(((fn2)(generic_fn)fn)(a[0], a[1])); break;                                                          \
    case 3: LOOP(((fn3)(generic_fn)fn)(a[0], a[1], a[2])); break;                                                    \
    case 4: LOOP(((fn4)(generic_fn)fn)(a[0], a[1], a[2], a[3])); break;                                              \
    case 5: LOOP(((fn5)(generic_fn)fn)(a[0], a[1], a[2], a[3], a[4])); break;                                        \
    case 6: LOOP(((fn6)(generic_fn)fn)(a[0], a[1], a[2], a[3], a[4], a[5])); break;                                  \
    default: LOOP(fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11])); break;              \
    }

static uint64_t batch(measure_ctx *m, measure_fn fn, uint64_t calls) {
    uint64_t t0, t1;
    if (m->objective == MEASURE_LATENCY) {
        /* every batch starts the chain from the same value (untimed): the functions compute the same values */
        memcpy(m->chain[0], m->chain0, (size_t)m->chain_len * sizeof(uint64_t));
        BATCH_CALLS(CHAIN_LOOP)
    } else {
        void *const *a = m->args;
        BATCH_CALLS(BATCH_LOOP)
    }
    return t1 - t0;
}

static int cmp_double(const void *pa, const void *pb) {
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

#define MEASURE_MAX_FNS 64

/* measure_run_calls and measure_run_ratio: ratio may be NULL */
static int run_rounds(measure_ctx *m, const measure_fn *fns, int n, uint64_t *ucalls, double *result, double *lo,
                      double *hi, double *ratio, char *err, size_t errlen) {
    if (m == NULL || fns == NULL || result == NULL || ucalls == NULL || n < 1 || n > MEASURE_MAX_FNS) {
        snprintf(err, errlen, "measure_run: bad arguments (n = %d, 1..%d functions)", n, MEASURE_MAX_FNS);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (fns[i] == NULL) {
            snprintf(err, errlen, "measure_run: function %d is NULL", i);
            return -1;
        }
#if !MEASURE_X86
    snprintf(err, errlen, "measure_run: x86-64 only");
    return -1;
#else
    pmu_probe();
    uint64_t calls[MEASURE_MAX_FNS];
    int order[MEASURE_MAX_FNS];
    double *per = malloc(sizeof(double) * (size_t)n * (size_t)m->rounds);
    if (per == NULL) {
        snprintf(err, errlen, "measure_run: out of memory");
        return -1;
    }
    /* Calibrate: warm up (code and data into the caches, branch predictors), then double the call count until a
     * batch lasts at least the target. */
    for (int i = 0; i < n; i++) {
        (void)batch(m, fns[i], 16);
        order[i] = i;
        if (ucalls[i] > (1ULL << 30)) {
            free(per);
            snprintf(err, errlen, "measure_run: function %d: %llu calls per batch (at most 2^30)", i,
                     (unsigned long long)ucalls[i]);
            return -1;
        }
        if (ucalls[i] > 0) {
            calls[i] = ucalls[i];
            continue;
        }
        uint64_t c = 1, t = 0;
        for (;;) {
            t = batch(m, fns[i], c);
            if (c == 1 && t > 1000000000ULL) {
                free(per);
                snprintf(err, errlen, "measure_run: function %d: one call took %llu %s", i, (unsigned long long)t,
                         measure_unit());
                return -1;
            }
            if ((double)t >= m->target || c >= (1ULL << 30))
                break;
            c *= 2;
        }
        calls[i] = c;
        ucalls[i] = c;
    }
    for (int r = 0; r < m->rounds; r++) {
        for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
            int j = (int)(splitmix64(&m->rng) % (uint64_t)(i + 1));
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int k = 0; k < n; k++) {
            int i = order[k];
            uint64_t t = batch(m, fns[i], calls[i]);
            per[(size_t)i * (size_t)m->rounds + (size_t)r] = (double)t / (double)calls[i];
        }
    }
    if (ratio != NULL) { /* paired: each round's batch of fns[i] against the same round's batch of fns[0] */
        double *q = malloc(sizeof(double) * (size_t)m->rounds);
        if (q == NULL) {
            free(per);
            snprintf(err, errlen, "measure_run: out of memory");
            return -1;
        }
        ratio[0] = 1.0;
        for (int i = 1; i < n; i++) {
            int R = m->rounds;
            for (int r = 0; r < R; r++)
                q[r] = per[(size_t)i * (size_t)R + (size_t)r] / per[r];
            qsort(q, (size_t)R, sizeof *q, cmp_double);
            double med = (R % 2) ? q[R / 2] : 0.5 * (q[R / 2 - 1] + q[R / 2]);
            ratio[i] = (med > 0.0 && isfinite(med)) ? med : 1.0;
        }
        free(q);
    }
    for (int i = 0; i < n; i++) {
        double *v = per + (size_t)i * (size_t)m->rounds;
        qsort(v, (size_t)m->rounds, sizeof *v, cmp_double);
        int R = m->rounds;
        double med = (R % 2) ? v[R / 2] : 0.5 * (v[R / 2 - 1] + v[R / 2]);
        /* A batch that measured 0 (cannot happen with >= target ticks, but keep the contract: > 0). */
        if (!(med > 0.0) || !isfinite(med))
            med = 1.0 / (double)calls[i];
        result[i] = med;
        if (lo != NULL)
            lo[i] = v[(R - 1) / 4];
        if (hi != NULL)
            hi[i] = v[(3 * (R - 1)) / 4];
    }
    free(per);
    return 0;
#endif
}

int measure_run_calls(measure_ctx *m, const measure_fn *fns, int n, uint64_t *ucalls, double *result, double *lo,
                      double *hi, char *err, size_t errlen) {
    return run_rounds(m, fns, n, ucalls, result, lo, hi, NULL, err, errlen);
}

int measure_run_ratio(measure_ctx *m, const measure_fn *fns, int n, double *result, double *ratio, char *err,
                      size_t errlen) {
    uint64_t calls[MEASURE_MAX_FNS] = {0};
    if (ratio == NULL) {
        snprintf(err, errlen, "measure_run_ratio: ratio is NULL");
        return -1;
    }
    return run_rounds(m, fns, n, calls, result, NULL, NULL, ratio, err, errlen);
}

int measure_run_spread(measure_ctx *m, const measure_fn *fns, int n, double *result, double *lo, double *hi,
                       char *err, size_t errlen) {
    uint64_t calls[MEASURE_MAX_FNS] = {0};
    return measure_run_calls(m, fns, n, calls, result, lo, hi, err, errlen);
}

int measure_run(measure_ctx *m, const measure_fn *fns, int n, double *result, char *err, size_t errlen) {
    return measure_run_spread(m, fns, n, result, NULL, NULL, err, errlen);
}
