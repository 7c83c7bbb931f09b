/* test_search_measure.c — search/measure.c and search/baseline.c: correctness only, never
 * speed.
 *   - The gcc and clang baselines (the C from emit_c compiled with -O3 -march=native -mtune=native -fPIC -shared,
 *     dlopen'd) of fiat-crypto's curve25519 carry_mul and p256 mul agree with the IR interpreter (ir_eval) on the
 *     bounds' edges and on random inputs within the bounds, also when called with out1 == arg1 and out1 == arg2.
 *   - measure_new's inputs lie within the bounds (lowered IR too) and depend only on the seed; measure_run returns
 *     positive finite medians (printed, with the per-round spread, never compared).
 *   - The latency objective chains the calls: a probe around the gcc baseline sees each call's arg1 (and arg2) be
 *     the buffer the call before wrote as out1, with the limbs it wrote (but the first call of each batch), within
 *     the inputs' bounds, and every batch (warm-up, calibration and the rounds) start from the same limbs; measure_chain accepts the multiplies (out1 ->
 *     arg1, arg2) and refuses fiat_25519_add (out1 wider than arg1), and measure_set_objective refuses latency
 *     for it.
 *   - baseline_build leaves nothing in $TMPDIR once it returns (the test runs with a private empty TMPDIR and
 *     looks after every build, the failing ones too): a process killed during a search leaves no files.
 *   - Bad inputs give one-line errors: an unknown compiler name, a compiler that is not on PATH, a compiler that
 *     fails (a fake `gcc` script: its first stderr line is reported), bad measure_run/measure_new arguments.
 * Usage: test_search_measure [--seed N] [--iters N] [--runs N] --fiat DIR
 *   --runs N: measure_run N times per function pair and print the spread across runs (for noise reports).
 * Exit 0 pass, 1 fail, 2 usage, 77 skip (gcc or clang missing, not x86-64). */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir/ir.h"
#include "search/baseline.h"
#include "search/measure.h"

/* measure_run_ratio's subject: fns[0] of the test below, run twice per call */
static measure_fn twice_target;
static void twice(void *a0, void *a1, void *a2, void *a3, void *a4, void *a5, void *a6, void *a7, void *a8, void *a9,
                  void *a10, void *a11)
{
    twice_target(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);
    twice_target(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);
}

/* The latency probe: checks the chain around chain_target (the gcc baseline of the function chain_f). */
static measure_fn chain_target;
static const ir_func *chain_f;
static void *chain_prev_out;   /* out1 of the previous call (NULL: a batch may start) */
static uint64_t chain_prev_val[16]; /* the limbs it wrote there */
static uint64_t chain_first[16]; /* arg1 of a batch's first call, for the first batch seen */
static long chain_calls, chain_linked, chain_bad_bounds, chain_bad_arg2, chain_starts, chain_bad_start;
static void chain_probe(void *a0, void *a1, void *a2, void *a3, void *a4, void *a5, void *a6, void *a7, void *a8,
                        void *a9, void *a10, void *a11)
{
    const ir_array *in1 = &chain_f->arr[1], *in2 = &chain_f->arr[2]; /* out1, arg1, arg2: the fiat multiplies */
    const uint64_t *x = a1;
    chain_calls++;
    if (a1 == chain_prev_out && memcmp(a1, chain_prev_val, in1->len * sizeof(uint64_t)) == 0)
        chain_linked++;
    else { /* a batch's first call (warm-up and calibration batches too): always the same start limbs */
        if (chain_starts++ == 0)
            memcpy(chain_first, x, in1->len * sizeof(uint64_t));
        else if (memcmp(chain_first, x, in1->len * sizeof(uint64_t)) != 0)
            chain_bad_start++;
    }
    if (a2 != a1 && a1 != NULL)
        chain_bad_arg2++;
    for (uint32_t i = 0; i < in1->len; i++)
        if (x[i] < (uint64_t)in1->lo[i] || x[i] > (uint64_t)in1->hi[i] || x[i] < (uint64_t)in2->lo[i] ||
            x[i] > (uint64_t)in2->hi[i])
            chain_bad_bounds++;
    chain_target(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);
    chain_prev_out = a0;
    memcpy(chain_prev_val, a0, chain_f->arr[0].len * sizeof(uint64_t));
}

static int failures;
static int quiet; /* negative controls: count failures without printing them */
#define FAIL(...)                                                                                                    \
    do {                                                                                                             \
        if (!quiet) {                                                                                                \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                   \
            fputc('\n', stderr);                                                                                     \
        }                                                                                                            \
        failures++;                                                                                                  \
    } while (0)

static uint64_t seed = 1;
static long iters = 3000;
static int runs = 1;
static long aliased_calls; /* calls made with out1 == an input */

/* The private TMPDIR the baselines are built in ("" when it could not be made). */
static char tmpdir[1024];

/* The first entry left in tmpdir (into name), or 0 when it is empty. */
static int tmp_left(char *name, size_t n) {
    if (!tmpdir[0])
        return 0;
    DIR *d = opendir(tmpdir);
    if (d == NULL) {
        snprintf(name, n, "(cannot open %s)", tmpdir);
        return 1;
    }
    struct dirent *e;
    int left = 0;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(name, n, "%s/%s", tmpdir, e->d_name);
            left = 1;
            break;
        }
    closedir(d);
    return left;
}

#define CHECK_TMP_EMPTY(what)                                                                                        \
    do {                                                                                                             \
        char left_[1400];                                                                                            \
        if (tmp_left(left_, sizeof left_))                                                                           \
            FAIL("%s left %s behind", what, left_);                                                                  \
    } while (0)

static uint64_t rng_state;
static uint64_t rnd(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static char *read_all(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return NULL;
    if (fseek(fp, 0, SEEK_END) != 0) {
        fclose(fp);
        return NULL;
    }
    long n = ftell(fp);
    rewind(fp);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b == NULL || fread(b, 1, (size_t)n, fp) != (size_t)n) {
        free(b);
        fclose(fp);
        return NULL;
    }
    b[n] = 0;
    *len = (size_t)n;
    fclose(fp);
    return b;
}

static uint64_t lo_of(const ir_array *a, uint32_t i) { return a->lo ? (uint64_t)a->lo[i] : 0; }
static uint64_t hi_of(const ir_array *a, uint32_t i) {
    return a->hi ? (a->hi[i] > UINT64_MAX ? UINT64_MAX : (uint64_t)a->hi[i]) : UINT64_MAX;
}

#define MAXL 16

/* Fill input j of f: mode 0 random in bounds (random bit density), 1 all lo, 2 all hi. */
static void fill(const ir_array *a, uint64_t *x, int mode) {
    for (uint32_t i = 0; i < a->len; i++) {
        uint64_t lo = lo_of(a, i), hi = hi_of(a, i);
        if (mode == 1) {
            x[i] = lo;
        } else if (mode == 2) {
            x[i] = hi;
        } else {
            uint64_t r = rnd();
            switch (rnd() % 4) { /* sparse and dense words occur too (s2n-bignum's random_bignum idea) */
            case 0: r &= rnd(); break;
            case 1: r |= rnd(); break;
            default: break;
            }
            uint64_t span = hi - lo;
            x[i] = lo + (span == UINT64_MAX ? r : r % (span + 1));
        }
    }
}

/* Run b on one input set (in[j] for each input array, by f's array index), plain and aliased, against ir_eval. */
static int check_one(const ir_func *f, const baseline *b, uint64_t in[][MAXL]) {
    uint64_t want[MEASURE_MAX_ARGS][MAXL], got[MEASURE_MAX_ARGS][MAXL];
    const uint64_t *ein[MEASURE_MAX_ARGS];
    uint64_t *eout[MEASURE_MAX_ARGS];
    for (uint32_t j = 0; j < f->narr; j++) {
        ein[j] = in[j];
        eout[j] = want[j];
    }
    if (ir_eval(f, ein, eout) != 0) {
        FAIL("%s: ir_eval failed", f->name);
        return -1;
    }
    /* alias = -1: separate outputs; else out1 (the first output) is the same memory as input array `alias`. */
    for (int alias = -1; alias < (int)f->narr; alias++) {
        int first_out = -1;
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output) {
                first_out = (int)j;
                break;
            }
        if (alias >= 0 && (f->arr[alias].is_output || first_out < 0 || !((f->arr[first_out].alias >> alias) & 1)))
            continue;
        uint64_t copy[MEASURE_MAX_ARGS][MAXL];
        memcpy(copy, in, sizeof copy);
        void *args[MEASURE_MAX_ARGS] = {0};
        int k = 0;
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output) {
                memset(got[j], 0xa5, sizeof got[j]);
                args[k++] = ((int)j == first_out && alias >= 0) ? (void *)copy[alias] : (void *)got[j];
            }
        for (uint32_t j = 0; j < f->narr; j++)
            if (!f->arr[j].is_output)
                args[k++] = copy[j];
        aliased_calls += alias >= 0;
        b->fn(args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8], args[9], args[10],
              args[11]);
        for (uint32_t j = 0; j < f->narr; j++) {
            if (!f->arr[j].is_output)
                continue;
            const uint64_t *o = ((int)j == first_out && alias >= 0) ? copy[alias] : got[j];
            if (memcmp(o, want[j], f->arr[j].len * sizeof(uint64_t)) != 0) {
                FAIL("%s (%s): output %s differs from ir_eval%s%s", f->name, b->cc, f->arr[j].name,
                     alias >= 0 ? " with out1 == " : "", alias >= 0 ? f->arr[alias].name : "");
                return -1;
            }
        }
    }
    return 0;
}

static void check_baseline(const ir_func *f, const baseline *b) {
    long aliased_before = aliased_calls;
    uint64_t in[MEASURE_MAX_ARGS][MAXL];
    memset(in, 0, sizeof in);
    for (int mode = 1; mode <= 2; mode++) {
        for (uint32_t j = 0; j < f->narr; j++)
            if (!f->arr[j].is_output)
                fill(&f->arr[j], in[j], mode);
        if (check_one(f, b, in) != 0)
            return;
    }
    for (long it = 0; it < iters; it++) {
        for (uint32_t j = 0; j < f->narr; j++)
            if (!f->arr[j].is_output)
                fill(&f->arr[j], in[j], 0);
        if (check_one(f, b, in) != 0)
            return;
    }
    /* fiat's out1 may alias arg1 and arg2: both must have been exercised */
    if (aliased_calls - aliased_before != 2 * (iters + 2))
        FAIL("%s (%s): %ld aliased calls, want %ld", f->name, b->cc, aliased_calls - aliased_before, 2 * (iters + 2));
}

/* Negative control for check_one: a "function" that copies arg1 into out1 (wrong_len limbs) must be caught. */
static uint32_t wrong_len;
static void wrong_fn(void *o, void *a1, void *a2, void *a3, void *a4, void *a5, void *a6, void *a7, void *a8, void *a9,
                     void *a10, void *a11) {
    (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8, (void)a9, (void)a10, (void)a11;
    memmove(o, a1, wrong_len * sizeof(uint64_t));
}

static void check_negative_control(const ir_func *f) {
    baseline fake;
    memset(&fake, 0, sizeof fake);
    fake.fn = wrong_fn;
    snprintf(fake.cc, sizeof fake.cc, "wrong");
    wrong_len = f->arr[0].len;
    uint64_t in[MEASURE_MAX_ARGS][MAXL];
    memset(in, 0, sizeof in);
    for (uint32_t j = 0; j < f->narr; j++)
        if (!f->arr[j].is_output)
            fill(&f->arr[j], in[j], 0);
    int before = failures;
    quiet = 1;
    check_one(f, &fake, in);
    quiet = 0;
    if (failures == before)
        FAIL("%s: a wrong function (out1 = arg1) passed the comparison with ir_eval", f->name);
    else
        failures = before;
}

/* measure_new's inputs: within bounds, outputs first then inputs, the same for the same seed. */
static void check_ctx_inputs(const ir_func *f, const measure_ctx *m) {
    if (measure_nargs(m) != (int)f->narr) {
        FAIL("%s: measure_nargs %d, want %u", f->name, measure_nargs(m), f->narr);
        return;
    }
    void *const *a = measure_args(m);
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr; j++) {
            if (f->arr[j].is_output != (pass == 0))
                continue;
            const uint64_t *x = a[k++];
            if (x == NULL) {
                FAIL("%s: measure_args[%d] is NULL", f->name, k - 1);
                continue;
            }
            if (pass == 0)
                continue;
            for (uint32_t i = 0; i < f->arr[j].len; i++)
                if (x[i] < lo_of(&f->arr[j], i) || x[i] > hi_of(&f->arr[j], i))
                    FAIL("%s: measure input %s[%u] = 0x%llx outside its bounds", f->name, f->arr[j].name, i,
                         (unsigned long long)x[i]);
        }
    for (; k < MEASURE_MAX_ARGS; k++)
        if (a[k] != NULL)
            FAIL("%s: measure_args[%d] is not NULL beyond nargs", f->name, k);
}

static int same_inputs(const ir_func *f, const measure_ctx *a, const measure_ctx *b) {
    int k = 0, same = 1;
    for (uint32_t j = 0; j < f->narr; j++)
        if (f->arr[j].is_output)
            k++;
    for (uint32_t j = 0; j < f->narr; j++)
        if (!f->arr[j].is_output) {
            if (memcmp(measure_args(a)[k], measure_args(b)[k], f->arr[j].len * 8) != 0)
                same = 0;
            k++;
        }
    return same;
}

static void test_fiat(const char *dir, const char *file, const char *name) {
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t len = 0;
    char *json = read_all(path, &len);
    if (json == NULL) {
        FAIL("cannot read %s", path);
        return;
    }
    ir_func *f = ir_fiat_load(json, len, path, name, err, sizeof err);
    free(json);
    if (f == NULL) {
        FAIL("%s: %s", name, err);
        return;
    }
    for (uint32_t j = 0; j < f->narr; j++)
        if (f->arr[j].len > MAXL) {
            FAIL("%s: array longer than the test's %d limbs", name, MAXL);
            ir_func_free(f);
            return;
        }
    check_negative_control(f);
    baseline b[2];
    const char *ccs[2] = {"gcc", "clang"};
    int built = 0;
    for (int c = 0; c < 2; c++) {
        if (baseline_build(f, ccs[c], &b[c], err, sizeof err) != 0) {
            FAIL("%s: baseline %s: %s", name, ccs[c], err);
            continue;
        }
        built++;
        if (b[c].fn == NULL || b[c].dl == NULL || strcmp(b[c].cc, ccs[c]) != 0 || strcmp(b[c].flags, BASELINE_FLAGS) ||
            b[c].version[0] == 0)
            FAIL("%s: baseline %s: fields not filled (version `%s`)", name, ccs[c], b[c].version);
        if (b[c].dir[0])
            FAIL("%s: baseline %s: the temporary directory %s is still set after the build", name, ccs[c], b[c].dir);
        /* nothing on disk, the loaded code still runs (check_baseline below calls it) */
        CHECK_TMP_EMPTY("baseline_build");
        check_baseline(f, &b[c]);
    }
    if (built == 2) {
        measure_fn fns[2] = {b[0].fn, b[1].fn};
        char lerr[512];
        ir_func *lf = ir_lower(f, lerr, sizeof lerr);
        if (lf == NULL)
            FAIL("%s: ir_lower: %s", name, lerr);
        measure_ctx *m = measure_new(lf ? lf : f, seed, err, sizeof err);
        measure_ctx *m2 = measure_new(f, seed, err, sizeof err);
        measure_ctx *m3 = measure_new(f, seed + 1, err, sizeof err);
        if (m == NULL || m2 == NULL || m3 == NULL) {
            FAIL("%s: measure_new: %s", name, err);
        } else {
            check_ctx_inputs(f, m);
            check_ctx_inputs(f, m3);
            if (!same_inputs(f, m, m2))
                FAIL("%s: measure_new inputs differ for the same seed (lowered vs not)", name);
            if (same_inputs(f, m, m3))
                FAIL("%s: measure_new inputs equal for different seeds", name);
            double all[2][64];
            for (int r = 0; r < runs && r < 64; r++) {
                double res[2], lo[2], hi[2];
                if (measure_run_spread(m, fns, 2, res, lo, hi, err, sizeof err) != 0) {
                    FAIL("%s: measure_run: %s", name, err);
                    break;
                }
                for (int i = 0; i < 2; i++) {
                    if (!(res[i] > 0.0) || !isfinite(res[i]) || !(lo[i] <= res[i]) || !(res[i] <= hi[i]))
                        FAIL("%s: measure_run %s: median %g, quartiles %g..%g", name, ccs[i], res[i], lo[i], hi[i]);
                    all[i][r] = res[i];
                }
                printf("%s run %d: gcc %.1f %s (quartiles %.1f..%.1f), clang %.1f (%.1f..%.1f), gcc/clang %.3f\n",
                       name, r, res[0], measure_unit(), lo[0], hi[0], res[1], lo[1], hi[1], res[0] / res[1]);
            }
            if (runs > 1) {
                for (int i = 0; i < 2; i++) {
                    double mn = all[i][0], mx = all[i][0];
                    for (int r = 1; r < runs && r < 64; r++) {
                        mn = all[i][r] < mn ? all[i][r] : mn;
                        mx = all[i][r] > mx ? all[i][r] : mx;
                    }
                    printf("%s %s over %d runs: min %.1f max %.1f (spread %.1f%%)\n", name, ccs[i], runs, mn, mx,
                           100.0 * (mx - mn) / mn);
                }
                double rmn = all[0][0] / all[1][0], rmx = rmn;
                for (int r = 1; r < runs && r < 64; r++) {
                    double q = all[0][r] / all[1][r];
                    rmn = q < rmn ? q : rmn;
                    rmx = q > rmx ? q : rmx;
                }
                printf("%s gcc/clang over %d runs: min %.3f max %.3f (spread %.1f%%)\n", name, runs, rmn, rmx,
                       100.0 * (rmx - rmn) / rmn);
            }
            /* caller-held batch sizes: calibrated once, then reused */
            uint64_t calls[2] = {0, 0};
            double r2[2];
            if (measure_run_calls(m, fns, 2, calls, r2, NULL, NULL, err, sizeof err) != 0 || calls[0] == 0 ||
                calls[1] == 0)
                FAIL("%s: measure_run_calls (calibrating): %s", name, err);
            else if (measure_run_calls(m, fns, 2, calls, r2, NULL, NULL, err, sizeof err) != 0 || !(r2[0] > 0.0) ||
                     !(r2[1] > 0.0) || !isfinite(r2[0]) || !isfinite(r2[1]))
                FAIL("%s: measure_run_calls (given %llu, %llu calls): %s", name, (unsigned long long)calls[0],
                     (unsigned long long)calls[1], err);
            uint64_t toomany[2] = {1ULL << 31, 1};
            if (measure_run_calls(m, fns, 2, toomany, r2, NULL, NULL, err, sizeof err) == 0)
                FAIL("%s: measure_run_calls accepted 2^31 calls per batch", name);
            /* paired ratios: fns[0] against itself, against itself run twice per call, and against fns[1]. The
             * direction is the contract (ratio[i] = fns[i] / fns[0]): a function doing the work twice must come out
             * near 2, not near 1/2; the bounds are wide (a loaded host) but the two readings are 4x apart. */
            twice_target = fns[0];
            measure_fn pf[4] = {fns[0], fns[0], twice, fns[1]};
            double pres[4], pq[4];
            if (measure_run_ratio(m, pf, 4, pres, pq, err, sizeof err) != 0)
                FAIL("%s: measure_run_ratio: %s", name, err);
            else {
                printf("%s paired ratios to gcc: itself %.4f, twice %.3f, clang %.3f (separate medians %.3f)\n", name,
                       pq[1], pq[2], pq[3], pres[3] / pres[0]);
                if (pq[0] != 1.0 || !(pq[1] > 0.8 && pq[1] < 1.25) || !(pq[2] > 1.4 && pq[2] < 2.8) ||
                    !(pq[3] > 0.0) || !isfinite(pq[3]))
                    FAIL("%s: measure_run_ratio: ratios %g %g %g %g (want 1, ~1, ~2, > 0)", name, pq[0], pq[1], pq[2],
                         pq[3]);
            }
            if (measure_run_ratio(m, pf, 2, pres, NULL, err, sizeof err) == 0)
                FAIL("%s: measure_run_ratio accepted ratio = NULL", name);
            /* fewer rounds and a shorter batch work too */
            if (measure_set_rounds(m, 3) != 0 || measure_set_target(m, 2000) != 0)
                FAIL("measure_set_rounds/target rejected valid values");
            double res1[1];
            if (measure_run(m, fns, 1, res1, err, sizeof err) != 0 || !(res1[0] > 0.0) || !isfinite(res1[0]))
                FAIL("%s: measure_run (3 rounds): %s", name, err);
            measure_call(m, fns[0]);
            /* the latency chain, through the probe; then back to throughput: the probe sees no chain */
            char desc[192];
            int kind = measure_chain(f, desc, sizeof desc);
            if (kind != 2 || strcmp(desc, "out1 -> arg1, arg2") != 0)
                FAIL("%s: measure_chain: %d `%s` (want 2 `out1 -> arg1, arg2`)", name, kind, desc);
            if (measure_get_objective(m) != MEASURE_THROUGHPUT)
                FAIL("%s: the default objective is not throughput", name);
            chain_target = fns[0];
            chain_f = f;
            chain_prev_out = NULL;
            chain_calls = chain_linked = chain_bad_bounds = chain_bad_arg2 = chain_starts = chain_bad_start = 0;
            measure_fn cf[2] = {chain_probe, fns[1]};
            double cres[2], cq[2];
            if (measure_set_objective(m, MEASURE_LATENCY, err, sizeof err) != 0 ||
                measure_get_objective(m) != MEASURE_LATENCY)
                FAIL("%s: measure_set_objective(latency): %s", name, err);
            else if (measure_run_ratio(m, cf, 2, cres, cq, err, sizeof err) != 0)
                FAIL("%s: measure_run_ratio (latency): %s", name, err);
            else {
                printf("%s latency: %.1f %s per call (gcc, probed), %ld calls, %ld chained, %ld batch starts\n",
                       name, cres[0], measure_unit(), chain_calls, chain_linked, chain_starts);
                if (chain_calls < 50 || chain_linked + chain_starts != chain_calls || chain_linked < chain_calls / 2 ||
                    chain_starts < 4)
                    FAIL("%s: latency: %ld calls, %ld fed the previous call's out1, %ld batch starts", name,
                         chain_calls, chain_linked, chain_starts);
                if (chain_bad_bounds || chain_bad_arg2 || chain_bad_start)
                    FAIL("%s: latency: %ld limbs outside the bounds, %ld calls with arg2 != arg1, %ld batches from "
                         "another start", name, chain_bad_bounds, chain_bad_arg2, chain_bad_start);
            }
            chain_prev_out = NULL;
            chain_linked = 0;
            if (measure_set_objective(m, MEASURE_THROUGHPUT, err, sizeof err) != 0 ||
                measure_run(m, cf, 1, cres, err, sizeof err) != 0)
                FAIL("%s: measure_run (throughput again): %s", name, err);
            else if (chain_linked != 0)
                FAIL("%s: throughput: %ld calls fed a previous call's output", name, chain_linked);
        }
        measure_free(m);
        measure_free(m2);
        measure_free(m3);
        ir_func_free(lf);
    }
    for (int c = 0; c < 2; c++)
        baseline_free(&b[c]);
    CHECK_TMP_EMPTY("baseline_free");
    ir_func_free(f);
}

/* Error paths. */
static void test_errors(const char *dir) {
    char err[512], path[1024];
    snprintf(path, sizeof path, "%s/curve25519_64.json", dir);
    size_t len = 0;
    char *json = read_all(path, &len);
    ir_func *f = json ? ir_fiat_load(json, len, path, "fiat_25519_add", err, sizeof err) : NULL;
    free(json);
    if (f == NULL) {
        FAIL("cannot load fiat_25519_add from %s", path);
        return;
    }
    baseline b;
    err[0] = 0;
    if (baseline_build(f, "tcc", &b, err, sizeof err) == 0 || strstr(err, "unknown compiler") == NULL)
        FAIL("baseline_build(tcc): want `unknown compiler`, got `%s`", err);
    baseline_free(&b);
    CHECK_TMP_EMPTY("baseline_build(tcc)");
    if (baseline_build(f, NULL, &b, err, sizeof err) == 0)
        FAIL("baseline_build(NULL cc) succeeded");
    if (baseline_build(NULL, "gcc", &b, err, sizeof err) == 0)
        FAIL("baseline_build(NULL f) succeeded");
    if (baseline_cc_available("no-such-compiler-ecopt"))
        FAIL("baseline_cc_available(no-such-compiler-ecopt) is 1");

    /* A PATH with no compiler, then with a fake gcc that fails with a message. */
    const char *oldp = getenv("PATH");
    char *saved = strdup(oldp ? oldp : "/usr/bin:/bin");
    char tdir[] = "/tmp/ecopt-measure-test-XXXXXX";
    if (saved != NULL && mkdtemp(tdir) != NULL) {
        setenv("PATH", tdir, 1);
        if (baseline_build(f, "gcc", &b, err, sizeof err) == 0 || strstr(err, "not found") == NULL)
            FAIL("baseline_build with gcc missing: want `not found`, got `%s`", err);
        CHECK_TMP_EMPTY("baseline_build with gcc missing");
        char fake[1100];
        snprintf(fake, sizeof fake, "%s/gcc", tdir);
        FILE *fp = fopen(fake, "w");
        if (fp != NULL) {
            fputs("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'fake gcc 0.1'; exit 0; }\n"
                  "echo 'f.c:1:1: error: made-up failure' >&2\necho 'second line' >&2\nexit 3\n",
                  fp);
            fclose(fp);
            chmod(fake, 0700);
            if (baseline_build(f, "gcc", &b, err, sizeof err) == 0 || strstr(err, "made-up failure") == NULL ||
                strstr(err, "second line") != NULL || strchr(err, '\n') != NULL)
                FAIL("baseline_build with a failing gcc: want its first stderr line, got `%s`", err);
            CHECK_TMP_EMPTY("baseline_build with a failing gcc");
            unlink(fake);
        } else {
            FAIL("cannot write %s", fake);
        }
        rmdir(tdir);
        setenv("PATH", saved, 1);
    }
    free(saved);

    /* measure_* argument checks */
    if (measure_new(NULL, 1, err, sizeof err) != NULL)
        FAIL("measure_new(NULL) succeeded");
    measure_ctx *m = measure_new(f, 1, err, sizeof err);
    if (m == NULL) {
        FAIL("measure_new: %s", err);
    } else {
        double r[1];
        measure_fn none[1] = {NULL};
        if (measure_run(m, none, 0, r, err, sizeof err) == 0)
            FAIL("measure_run(n = 0) succeeded");
        if (measure_run(m, none, 1, r, err, sizeof err) == 0)
            FAIL("measure_run(NULL function) succeeded");
        if (measure_set_rounds(m, 0) == 0 || measure_set_rounds(m, 100000) == 0 || measure_set_target(m, 1.0) == 0 ||
            measure_set_target(m, NAN) == 0)
            FAIL("measure_set_rounds/target accepted a bad value");
    }
    measure_free(m);
    /* an add's outputs are wider than its inputs: no latency chain */
    char desc[192];
    if (measure_chain(f, desc, sizeof desc) != -1 || strstr(desc, "above arg1[0]'s bound") == NULL)
        FAIL("measure_chain(fiat_25519_add): want -1 with `above arg1[0]'s bound`, got `%s`", desc);
    m = measure_new(f, 1, err, sizeof err);
    if (m == NULL || measure_set_objective(m, MEASURE_LATENCY, err, sizeof err) == 0 ||
        strstr(err, "cannot be chained") == NULL || measure_get_objective(m) != MEASURE_THROUGHPUT)
        FAIL("measure_set_objective(fiat_25519_add, latency): want a refusal, got `%s`", m ? err : "no context");
    measure_free(m);
    measure_objective ob;
    if (measure_objective_parse("latency", &ob) != 0 || ob != MEASURE_LATENCY ||
        measure_objective_parse("throughput", &ob) != 0 || ob != MEASURE_THROUGHPUT ||
        measure_objective_parse("Latency", &ob) == 0 || measure_objective_parse(NULL, &ob) == 0 ||
        strcmp(measure_objective_name(MEASURE_LATENCY), "latency") != 0)
        FAIL("measure_objective_parse/name");
    if (measure_pin(1 << 20, err, sizeof err) >= 0)
        FAIL("measure_pin(2^20) succeeded");
    ir_func_free(f);
}

int main(int argc, char **argv) {
    const char *fdir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = strtol(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--fiat") && i + 1 < argc)
            fdir = argv[++i];
        else {
            fprintf(stderr, "usage: test_search_measure [--seed N] [--iters N] [--runs N] --fiat DIR\n");
            return 2;
        }
    }
    if (fdir == NULL || runs < 1 || runs > 64) {
        fprintf(stderr, "usage: test_search_measure [--seed N] [--iters N] [--runs 1..64] --fiat DIR\n");
        return 2;
    }
    printf("test_search_measure --seed %llu --iters %ld\n", (unsigned long long)seed, iters);
    rng_state = seed;
#if !defined(__x86_64__)
    printf("SKIP: not x86-64\n");
    return 77;
#endif
    if (!baseline_cc_available("gcc") || !baseline_cc_available("clang")) {
        printf("SKIP: gcc or clang missing\n");
        return 77;
    }
    char err[256], model[128];
    int cpu = measure_pin(-1, err, sizeof err);
    if (cpu < 0)
        FAIL("%s", err);
    const char *unit = measure_unit();
    if (strcmp(unit, "ticks") != 0 && strcmp(unit, "cycles") != 0)
        FAIL("measure_unit: `%s`", unit);
    measure_cpu_model(model, sizeof model);
    if (model[0] == 0)
        FAIL("measure_cpu_model is empty");
    uint64_t t0 = measure_now(), t1 = measure_now();
    if (t1 < t0)
        FAIL("measure_now went backwards: %llu then %llu", (unsigned long long)t0, (unsigned long long)t1);
    printf("cpu %d, %s, unit %s\n", cpu, model, unit);
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/ecopt-measure-tmp-XXXXXX", t && t[0] && strlen(t) < 120 ? t : "/tmp");
    if (mkdtemp(tmpdir) == NULL) {
        FAIL("mkdtemp %s", tmpdir);
        tmpdir[0] = 0;
    } else {
        setenv("TMPDIR", tmpdir, 1);
    }
    test_fiat(fdir, "curve25519_64.json", "fiat_25519_carry_mul");
    test_fiat(fdir, "p256_64.json", "fiat_p256_mul");
    test_errors(fdir);
    if (tmpdir[0]) {
        CHECK_TMP_EMPTY("the baselines");
        if (rmdir(tmpdir) != 0)
            FAIL("cannot remove %s", tmpdir);
    }
    if (failures) {
        fprintf(stderr, "%d failure(s); rerun with --seed %llu\n", failures, (unsigned long long)seed);
        return 1;
    }
    printf("ok\n");
    return 0;
}
