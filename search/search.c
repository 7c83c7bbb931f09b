/* search.c — bet-and-run random program search over candidates (search.h). */
#define _POSIX_C_SOURCE 200809L

#include "search/search.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emit/emit_asm.h"
#include "emit/encode.h"
#include "search/baseline.h"
#include "search/candidate.h"
#include "search/measure.h"

void search_opts_default(search_opts *o)
{
    memset(o, 0, sizeof *o);
    o->evals = 20000;
    o->bets = 10;
    o->bet_ratio = 0.2;
    o->seed = 1;
    o->cpu = -1;
    o->baselines = true;
    o->rounds = MEASURE_DEFAULT_ROUNDS;
    o->final_rounds = 101;
    o->ntests = 8;
    o->baseline_every = 2000;
}

void search_result_free(search_result *r)
{
    free(r->text);
    free(r->code);
    ir_func_free(r->best);
    free(r->decisions);
    memset(r, 0, sizeof *r);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the search state ------------------------------------------------------------------------------------------ */

/* A candidate with its code, mapped for running. */
typedef struct {
    candidate c;
    uint8_t *code;
    size_t len;
    void *map;
    size_t maplen;
    measure_fn fn;
} point;

typedef struct {
    const ir_func *f, *ref;
    ir_func *own;          /* f after search_cse (owned) */
    const search_opts *o;
    search_result *r;
    cand_graph g;
    cand_rng rng;
    ir_func *work;         /* f in a candidate's order (cand_apply) */
    uint8_t *dec;          /* its decisions */
    emit_asm_opts eo;
    measure_ctx *m;
    baseline gcc, clang;
    bool have_gcc, have_clang;
    /* tests: ntests vectors; per array j a buffer of ntests * len limbs (inputs: the random limbs, outputs: the
     * expected limbs) */
    unsigned ntests;
    uint64_t *tin[MEASURE_MAX_ARGS], *tref[MEASURE_MAX_ARGS];
    uint64_t *scratch[MEASURE_MAX_ARGS];
    int order[MEASURE_MAX_ARGS]; /* call order: outputs then inputs, as array indices */
    int nargs;
    /* progress */
    double t0, last_print;
    bool line_open;        /* a progress line was written in place ("\r", no newline yet) */
    double cur_ticks, best_gcc, best_clang;
    uint64_t done;
    char err[512];
} state;

static void point_release(point *p)
{
    encode_exec_unmap(p->map, p->maplen);
    free(p->code);
    p->map = NULL;
    p->code = NULL;
    p->len = p->maplen = 0;
    p->fn = NULL;
}

static void point_free(point *p)
{
    point_release(p);
    cand_free(&p->c);
}

/* dst = src (candidate, code and a mapping of its own); dst's candidate initialised. 0, or -1 (memory). */
static int point_clone(point *dst, const point *src)
{
    point_release(dst);
    cand_copy(&dst->c, &src->c);
    dst->code = malloc(src->len ? src->len : 1);
    if (!dst->code)
        return -1;
    memcpy(dst->code, src->code, src->len);
    dst->len = src->len;
    dst->map = encode_exec_map(dst->code, dst->len, &dst->maplen);
    if (!dst->map) {
        point_release(dst);
        return -1;
    }
    memcpy(&dst->fn, &dst->map, sizeof dst->fn);
    return 0;
}

static void note_wrong(state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_wrong(state *s, const char *fmt, ...)
{
    if (!s->r->wrong_msg[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->r->wrong_msg, sizeof s->r->wrong_msg, fmt, ap);
        va_end(ap);
    }
}

/* ---- test inputs ----------------------------------------------------------------------------------------------- */

static uint64_t random_limb(cand_rng *rng, ir_u128 lo128, ir_u128 hi128)
{
    uint64_t lo = lo128 > UINT64_MAX ? UINT64_MAX : (uint64_t)lo128;
    uint64_t hi = hi128 > UINT64_MAX ? UINT64_MAX : (uint64_t)hi128;
    if (hi <= lo)
        return lo;
    uint64_t span = hi - lo, x;
    switch (cand_rng_below(rng, 6)) {
    case 0:
        return lo;
    case 1:
        return hi;
    case 2: /* sparse bits */
        x = cand_rng_next(rng) & cand_rng_next(rng) & cand_rng_next(rng);
        break;
    case 3: /* dense bits */
        x = cand_rng_next(rng) | cand_rng_next(rng) | cand_rng_next(rng);
        break;
    default:
        x = cand_rng_next(rng);
        break;
    }
    if (span == UINT64_MAX || x <= span)
        return lo + x; /* keeps the bit pattern where it fits */
    return lo + x % (span + 1);
}

static int make_tests(state *s)
{
    const ir_func *f = s->ref;
    unsigned nt = s->ntests;
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output == (pass == 0))
                s->order[k++] = (int)j;
    s->nargs = k;
    for (uint32_t j = 0; j < f->narr; j++) {
        size_t len = f->arr[j].len ? f->arr[j].len : 1;
        s->scratch[j] = calloc(len + 8, sizeof(uint64_t)); /* room to copy an input of another length */
        if (f->arr[j].is_output)
            s->tref[j] = calloc(nt * len, sizeof(uint64_t));
        else
            s->tin[j] = calloc(nt * len, sizeof(uint64_t));
        if (!s->scratch[j] || (f->arr[j].is_output ? !s->tref[j] : !s->tin[j]))
            return -1;
        if (!f->arr[j].is_output)
            for (unsigned t = 0; t < nt; t++)
                for (uint32_t l = 0; l < f->arr[j].len; l++)
                    s->tin[j][t * len + l] = random_limb(&s->rng, f->arr[j].lo[l], f->arr[j].hi[l]);
    }
    for (unsigned t = 0; t < nt; t++) {
        const uint64_t *in[MEASURE_MAX_ARGS] = { 0 };
        uint64_t *out[MEASURE_MAX_ARGS] = { 0 };
        for (uint32_t j = 0; j < f->narr; j++) {
            size_t len = f->arr[j].len ? f->arr[j].len : 1;
            if (f->arr[j].is_output)
                out[j] = s->tref[j] + t * len;
            else
                in[j] = s->tin[j] + t * len;
        }
        if (ir_eval(f, in, out) != 0)
            return -1;
    }
    return 0;
}

static void call_fn(measure_fn fn, void *const *a)
{
    fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
}

/* Run fn on test t; alias_out/alias_in >= 0: output alias_out is passed as input alias_in (holding its limbs).
 * 0 when every output limb equals the interpreter's. */
static int run_test(state *s, measure_fn fn, unsigned t, int alias_out, int alias_in)
{
    const ir_func *f = s->ref;
    void *a[MEASURE_MAX_ARGS] = { 0 };
    for (uint32_t j = 0; j < f->narr; j++) {
        size_t len = f->arr[j].len ? f->arr[j].len : 1;
        if (f->arr[j].is_output)
            memset(s->scratch[j], 0xa5, len * sizeof(uint64_t));
        else
            memcpy(s->scratch[j], s->tin[j] + t * len, f->arr[j].len * sizeof(uint64_t));
    }
    if (alias_out >= 0) {
        uint32_t n = f->arr[alias_in].len < f->arr[alias_out].len + 8 ? f->arr[alias_in].len
                                                                      : f->arr[alias_out].len + 8;
        memcpy(s->scratch[alias_out], s->scratch[alias_in], n * sizeof(uint64_t));
    }
    for (int k = 0; k < s->nargs; k++) {
        int j = s->order[k];
        a[k] = (alias_out >= 0 && j == alias_in) ? s->scratch[alias_out] : s->scratch[j];
    }
    call_fn(fn, a);
    for (uint32_t j = 0; j < f->narr; j++) {
        if (!f->arr[j].is_output)
            continue;
        size_t len = f->arr[j].len ? f->arr[j].len : 1;
        if (memcmp(s->scratch[j], s->tref[j] + t * len, f->arr[j].len * sizeof(uint64_t)) != 0)
            return -1;
    }
    return 0;
}

/* Every test vector, then the first two again with each declared alias. */
static int run_tests(state *s, measure_fn fn, char *why, size_t whylen)
{
    const ir_func *f = s->ref;
    for (unsigned t = 0; t < s->ntests; t++)
        if (run_test(s, fn, t, -1, -1)) {
            snprintf(why, whylen, "differs from the interpreter on test input %u", t);
            return -1;
        }
    for (uint32_t o = 0; o < f->narr; o++)
        for (uint32_t i = 0; i < f->narr && i < 64; i++)
            if (f->arr[o].is_output && ((f->arr[o].alias >> i) & 1))
                for (unsigned t = 0; t < s->ntests && t < 2; t++)
                    if (run_test(s, fn, t, (int)o, (int)i)) {
                        snprintf(why, whylen, "differs from the interpreter on test input %u with %s == %s", t,
                                 f->arr[o].name, f->arr[i].name);
                        return -1;
                    }
    return 0;
}

/* ---- evaluation ------------------------------------------------------------------------------------------------- */

/* Emit and encode candidate p->c into p->code (no mapping yet: a mutant whose bytes equal the current candidate's
 * is never mapped or run). 0: p has code; 1: emit_asm or the encoder refused it (counted, p has no code). */
static int encode_point(state *s, point *p)
{
    char *text = NULL, err[512];
    point_release(p);
    cand_apply(&p->c, &s->g, s->work, s->dec);
    s->eo.decisions = s->dec;
    if (emit_asm(s->work, &s->eo, &text, NULL, err, sizeof err) != 0) {
        s->r->nfailed++;
        note_wrong(s, "emit_asm refused a candidate: %s", err);
        return 1;
    }
    int rc = encode_asm_text(text, &p->code, &p->len, err, sizeof err);
    free(text);
    if (rc != 0) {
        s->r->nfailed++;
        note_wrong(s, "the encoder refused a candidate: %s", err);
        return 1;
    }
    return 0;
}

/* Map p's code executable and run it on the tests. 0: p has fn; 1: the candidate is wrong (counted, p has no code);
 * -1: memory (or mmap). */
static int map_point(state *s, point *p)
{
    char why[256];
    p->map = encode_exec_map(p->code, p->len, &p->maplen);
    if (!p->map) {
        point_release(p);
        return -1;
    }
    memcpy(&p->fn, &p->map, sizeof p->fn);
    if (run_tests(s, p->fn, why, sizeof why) != 0) {
        s->r->nwrong++;
        note_wrong(s, "a candidate %s (a code-generator bug)", why);
        point_release(p);
        return 1;
    }
    return 0;
}

/* Emit, encode, map and test candidate p->c. 0: p has code and fn; 1: the candidate is wrong or refused (counted,
 * p has no code); -1: memory. */
static int build_point(state *s, point *p)
{
    int rc = encode_point(s, p);
    return rc != 0 ? rc : map_point(s, p);
}

static bool same_code(const point *a, const point *b)
{
    return a->code && b->code && a->len == b->len && memcmp(a->code, b->code, a->len) == 0;
}

static void progress(state *s, bool force)
{
    if (s->o->quiet)
        return;
    double t = now_s();
    bool tty = isatty(2);
    if (!force && t - s->last_print < (tty ? 0.25 : 5.0)) /* a log file gets a line every 5 s */
        return;
    s->last_print = t;
    double el = t - s->t0, rate = el > 0 ? (double)s->done / el : 0;
    double left = rate > 0 ? (double)(s->o->evals - s->done) / rate : 0;
    fprintf(stderr, "%sopt: %llu/%llu evals  current %.1f %s", tty ? "\r" : "", (unsigned long long)s->done,
            (unsigned long long)s->o->evals, s->cur_ticks, s->r->unit);
    if (s->have_gcc)
        fprintf(stderr, "  best %.2fx gcc %.2fx clang", s->best_gcc, s->best_clang);
    fprintf(stderr, "  %.0f evals/s  %.0f s left%s", rate, left, tty ? "   " : "\n");
    fflush(stderr);
    s->line_open = tty;
}

/* Measure cur with the baselines; updates the best speedups. */
static int measure_baselines(state *s, const point *cur)
{
    measure_fn fns[3] = { cur->fn, NULL, NULL };
    double res[3];
    int n = 1;
    if (!s->have_gcc)
        return 0;
    fns[n++] = s->gcc.fn;
    fns[n++] = s->clang.fn;
    if (measure_run(s->m, fns, n, res, s->err, sizeof s->err) != 0)
        return -1;
    s->cur_ticks = res[0];
    if (res[1] / res[0] > s->best_gcc)
        s->best_gcc = res[1] / res[0];
    if (res[2] / res[0] > s->best_clang)
        s->best_clang = res[2] / res[0];
    return 0;
}

/* A random start for *cur (which is built); counts its evaluations. -1: failed. */
static int random_start(state *s, point *cur)
{
    for (int tries = 0; tries < 100; tries++) {
        cand_random(&cur->c, &s->g, &s->rng);
        s->done++;
        int rc = build_point(s, cur);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return 0;
    }
    snprintf(s->err, sizeof s->err, "100 random starts were all refused or wrong: %.400s", s->r->wrong_msg);
    return -1;
}

/* Elitism against the drift of "keep when not slower" under noisy timings (a mutant that is slower by less than
 * the noise is kept about half the time, and most mutants are slightly slower): every ELITE_EVERY evaluations the
 * current candidate is measured against the best one seen (paired ratio, measure_run_ratio); it becomes the best
 * only when it is faster by more than CLEARLY_FASTER, in that measurement and in a second one, and is reset to the
 * best when it is more than ELITE_MARGIN slower. (With "faster or equal" for a new best, the best itself drifted:
 * a 60,000-evaluation search of the adx madd from its own order ended 8% slower than where it started.) */
#define ELITE_EVERY 200
#define ELITE_MARGIN 1.02
#define CLEARLY_FASTER 0.005

/* Acceptance of a mutant (local_search), by the paired ratio q = mutant / current (measure_run_ratio): kept when
 * q <= 1 and its code is not longer, or when q < 1 - KEEP_LONGER_MARGIN whatever its length. A longer mutant (a
 * spill, a flag save, a longer encoding) that only ties within the noise is refused: on a loaded host "not slower"
 * kept such mutants about half the time and a 60,000-evaluation search of the ladder step drifted to 1,648
 * instructions with 107 flag saves (the committed one: 1,248 and 9). Same-length mutants keep the neutral moves the
 * search explores with. A-vs-A paired ratios of the madd (31 rounds) on such a host: 1.000 in 8 of 12 runs, at most
 * 1.010; separate medians 0.990-1.017. */
#define KEEP_LONGER_MARGIN 0.005

/* The most mutants in a row with the current code's bytes before one counts as an evaluation (local_search). On the
 * fiat multiplies and adds a streak is rarely longer than 10 and was never longer than 50 in 3000 evaluations; a
 * program of a few nodes has a handful of distinct codes, and each streak there costs SAME_STREAK emit + encode
 * passes of a few microseconds each (at 1000, with a mapping and the tests per mutant, it ran 5 evaluations/s). */
#define SAME_STREAK 100

static int elite_check(state *s, point *cur, point *best)
{
    measure_fn fns[2] = { best->fn, cur->fn };
    double res[2], q[2];
    if (cur->len == best->len && memcmp(cur->code, best->code, cur->len) == 0)
        return 0;
    if (measure_run_ratio(s->m, fns, 2, res, q, s->err, sizeof s->err) != 0)
        return -1;
    if (q[1] < 1.0 - CLEARLY_FASTER) {
        if (measure_run_ratio(s->m, fns, 2, res, q, s->err, sizeof s->err) != 0)
            return -1;
        if (q[1] < 1.0 - CLEARLY_FASTER)
            return point_clone(best, cur) ? (snprintf(s->err, sizeof s->err, "out of memory"), -1) : 0;
    }
    if (q[1] > ELITE_MARGIN) {
        s->r->nreverts++;
        return point_clone(cur, best) ? (snprintf(s->err, sizeof s->err, "out of memory"), -1) : 0;
    }
    return 0;
}

/* Local search from cur for `budget` evaluations (mutant in *tmp, swapped with *cur when kept); at the end cur is
 * the faster of itself and the best candidate seen. */
static int local_search(state *s, point *cur, point *tmp, uint64_t budget)
{
    point best;
    int rc = -1;
    memset(&best, 0, sizeof best);
    if (cand_init(&best.c, &s->g) != 0 || point_clone(&best, cur) != 0) {
        snprintf(s->err, sizeof s->err, "out of memory");
        goto out;
    }
    unsigned same_streak = 0;
    for (uint64_t k = 0; k < budget && s->done < s->o->evals; k++) {
        cand_copy(&tmp->c, &cur->c);
        cand_mutate(&tmp->c, &s->g, &s->rng);
        int b = encode_point(s, tmp);
        if (b == 0 && same_code(tmp, cur)) {
            /* A mutant with the current code's bytes is kept (a neutral step: cur takes its order and decisions
             * and keeps its own code and mapping), without being mapped, run or measured. It is no evaluation:
             * another mutation is drawn, up to SAME_STREAK in a row; the last of a streak counts (a program
             * with few distinct codes, e.g. 3 nodes, would otherwise never finish its evaluations). */
            cand_copy(&cur->c, &tmp->c);
            s->r->nsame++;
            if (++same_streak < SAME_STREAK) {
                k--;
                continue;
            }
            same_streak = 0;
            s->done++;
            s->r->nkept++;
        } else {
            same_streak = 0;
            s->done++;
            if (b == 0)
                b = map_point(s, tmp);
            if (b < 0) {
                snprintf(s->err, sizeof s->err, "out of memory");
                goto out;
            }
            if (b == 0) {
                measure_fn fns[2] = { cur->fn, tmp->fn };
                double res[2], q[2];
                if (measure_run_ratio(s->m, fns, 2, res, q, s->err, sizeof s->err) != 0)
                    goto out;
                bool keep = (q[1] <= 1.0 && tmp->len <= cur->len) || q[1] < 1.0 - KEEP_LONGER_MARGIN;
                s->cur_ticks = keep ? res[1] : res[0];
                if (keep) {
                    point t = *cur;
                    *cur = *tmp;
                    *tmp = t;
                    s->r->nkept++;
                }
            }
        }
        if ((k + 1) % ELITE_EVERY == 0 && elite_check(s, cur, &best) != 0)
            goto out;
        if (s->o->baseline_every && s->done % s->o->baseline_every == 0 && measure_baselines(s, cur) != 0)
            goto out;
        progress(s, false);
    }
    if (elite_check(s, cur, &best) != 0)
        goto out;
    {   /* the best, unless the current one is clearly faster */
        measure_fn fns[2] = { best.fn, cur->fn };
        double res[2], q[2];
        if (!(cur->len == best.len && memcmp(cur->code, best.code, cur->len) == 0)) {
            if (measure_run_ratio(s->m, fns, 2, res, q, s->err, sizeof s->err) != 0)
                goto out;
            if (!(q[1] < 1.0 - CLEARLY_FASTER) && point_clone(cur, &best) != 0) {
                snprintf(s->err, sizeof s->err, "out of memory");
                goto out;
            }
        }
    }
    rc = 0;
out:
    point_free(&best);
    return rc;
}

static int check_opts_ok(const ir_func *f, const ir_func *ref, const search_opts *o, char *err, size_t errlen)
{
    if (o->evals < 1 || o->evals > 100000000ull)
        return snprintf(err, errlen, "evals %llu: not from 1 to 100000000", (unsigned long long)o->evals), -1;
    if (o->bets < 1 || o->bets > 64)
        return snprintf(err, errlen, "bets %u: not from 1 to 64", o->bets), -1;
    if (!(o->bet_ratio >= 0 && o->bet_ratio <= 1))
        return snprintf(err, errlen, "bet ratio %g: not from 0 to 1", o->bet_ratio), -1;
    if (o->rounds < 1 || o->rounds > 1001 || o->final_rounds < 1 || o->final_rounds > 1001)
        return snprintf(err, errlen, "rounds: not from 1 to 1001"), -1;
    if (f->narr != ref->narr)
        return snprintf(err, errlen, "the reference function has other arrays"), -1;
    for (uint32_t j = 0; j < f->narr; j++)
        if (f->arr[j].is_output != ref->arr[j].is_output || f->arr[j].len != ref->arr[j].len)
            return snprintf(err, errlen, "the reference function has other arrays"), -1;
    if (f->narr > MEASURE_MAX_ARGS)
        return snprintf(err, errlen, "%u arrays: at most %d", f->narr, MEASURE_MAX_ARGS), -1;
    return 0;
}

int search_run(const ir_func *f, const ir_func *ref, const search_opts *o, search_result *r, char *err,
               size_t errlen)
{
    state s;
    point cur, tmp, own, *bets = NULL;
    unsigned nb = o->bets;
    uint64_t per_bet;
    int rc = -1;

    memset(r, 0, sizeof *r);
    memset(&s, 0, sizeof s);
    memset(&cur, 0, sizeof cur);
    memset(&tmp, 0, sizeof tmp);
    memset(&own, 0, sizeof own);
    if (check_opts_ok(f, ref, o, err, errlen) != 0)
        return -1;
    s.f = f;
    s.ref = ref;
    s.o = o;
    s.r = r;
    s.ntests = o->ntests ? o->ntests : 8;
    cand_rng_seed(&s.rng, o->seed);
    snprintf(r->unit, sizeof r->unit, "%s", measure_unit());
    measure_cpu_model(r->cpu_model, sizeof r->cpu_model);
    s.eo.symbol = o->symbol;
    s.eo.hidden = o->hidden;
    s.eo.target = o->target;

    /* the function searched: f with common subexpressions merged (the checker proves the result against the
     * unlowered program all the same) */
    s.own = ir_func_clone(f);
    if (!s.own || search_cse(s.own) < 0 || ir_validate(s.own) != 0) {
        snprintf(s.err, sizeof s.err, "%s", s.own && s.own->err[0] ? s.own->err : "out of memory");
        goto out;
    }
    f = s.own;
    s.f = f;
    if (cand_graph_build(&s.g, f, o->target, s.err, sizeof s.err) != 0)
        goto out;
    s.work = ir_func_clone(f);
    s.dec = calloc(f->nnode + 1, 1);
    if (!s.work || !s.dec || cand_init(&cur.c, &s.g) || cand_init(&tmp.c, &s.g) || make_tests(&s) != 0) {
        snprintf(s.err, sizeof s.err, "out of memory");
        goto out;
    }
    if (measure_pin(o->cpu, s.err, sizeof s.err) < 0)
        goto out;
    s.m = measure_new(f, o->seed ^ 0x6d656173ull, s.err, sizeof s.err);
    if (!s.m || measure_set_rounds(s.m, o->rounds) != 0 ||
        measure_set_objective(s.m, o->objective, s.err, sizeof s.err) != 0)
        goto out;
    if (o->baselines) {
        if (baseline_build(ref, "gcc", &s.gcc, s.err, sizeof s.err) != 0 ||
            baseline_build(ref, "clang", &s.clang, s.err, sizeof s.err) != 0)
            goto out;
        s.have_gcc = s.have_clang = true;
        snprintf(r->gcc_version, sizeof r->gcc_version, "%s", s.gcc.version);
        snprintf(r->clang_version, sizeof r->clang_version, "%s", s.clang.version);
    }
    /* f's own order with the default decisions must work: otherwise nothing will */
    s.t0 = now_s();
    s.done = 1;
    {
        int b = build_point(&s, &cur);
        if (b != 0) {
            snprintf(s.err, sizeof s.err, "%s", b < 0 ? "out of memory" : r->wrong_msg);
            goto out;
        }
    }
    if (measure_baselines(&s, &cur) != 0)
        goto out;
    /* kept for the final measurement: the search's result is never one measured slower than this */
    if (cand_init(&own.c, &s.g) != 0 || point_clone(&own, &cur) != 0) {
        snprintf(s.err, sizeof s.err, "out of memory");
        goto out;
    }

    /* bet-and-run */
    per_bet = (uint64_t)floor(o->bet_ratio * (double)o->evals / nb);
    if (nb > 1 && per_bet >= 1) {
        bets = calloc(nb, sizeof *bets);
        if (!bets) {
            snprintf(s.err, sizeof s.err, "out of memory");
            goto out;
        }
        measure_fn fns[64];
        double res[64];
        for (unsigned b = 0; b < nb; b++) {
            if (cand_init(&bets[b].c, &s.g) != 0) {
                snprintf(s.err, sizeof s.err, "out of memory");
                goto out;
            }
            uint64_t start = s.done;
            if (b == 0) { /* the program's own order with the default decisions, evaluated above */
                if (point_clone(&bets[0], &cur) != 0) {
                    snprintf(s.err, sizeof s.err, "out of memory");
                    goto out;
                }
                start--;
            } else if (random_start(&s, &bets[b]) != 0) {
                goto out;
            }
            if (local_search(&s, &bets[b], &tmp, per_bet > s.done - start ? per_bet - (s.done - start) : 0) != 0)
                goto out;
            fns[b] = bets[b].fn;
        }
        double q[64];
        if (measure_run_ratio(s.m, fns, (int)nb, res, q, s.err, sizeof s.err) != 0)
            goto out;
        unsigned best = 0; /* by the paired ratio to bet 0 (the program's own order, searched) */
        for (unsigned b = 1; b < nb; b++)
            if (q[b] < q[best])
                best = b;
        r->bet_chosen = best;
        r->bets_run = nb;
        point_free(&cur);
        cur = bets[best];
        memset(&bets[best], 0, sizeof bets[best]);
        s.cur_ticks = res[best];
    } /* else: one run, from the program's own order (cur) */
    if (measure_baselines(&s, &cur) != 0)
        goto out;
    r->ticks_start = s.cur_ticks;
    if (local_search(&s, &cur, &tmp, o->evals > s.done ? o->evals - s.done : 0) != 0)
        goto out;

    /* the final measurement: best, the program's own order and both compilers side by side. On a noisy host a
     * search can drift, so the own order is the result (r->own_order_won) unless the search's best is clearly
     * faster, here and in a second measurement of the two. */
    r->seconds = now_s() - s.t0;
    r->evals = s.done;
    r->evals_per_s = r->seconds > 0 ? (double)s.done / r->seconds : 0;
    {
        bool same = cur.len == own.len && memcmp(cur.code, own.code, cur.len) == 0;
        measure_fn fns[4] = { cur.fn, s.gcc.fn, s.clang.fn, own.fn };
        double res[4], q[4];
        int nf = s.have_gcc ? 3 : 1;
        if (!same) {
            fns[nf] = own.fn;
            nf++;
        }
        if (measure_set_rounds(s.m, o->final_rounds) != 0 ||
            measure_run_ratio(s.m, fns, nf, res, q, s.err, sizeof s.err) != 0)
            goto out;
        if (!same) { /* the search's best must be clearly faster than the own order, in two measurements */
            r->own_ratio = q[nf - 1];
            if (q[nf - 1] >= 1.0 + CLEARLY_FASTER) {
                measure_fn two[2] = { cur.fn, own.fn };
                double res2[2], q2[2];
                if (measure_run_ratio(s.m, two, 2, res2, q2, s.err, sizeof s.err) != 0)
                    goto out;
                if (q2[1] < r->own_ratio)
                    r->own_ratio = q2[1];
            }
        }
        if (!same && r->own_ratio < 1.0 + CLEARLY_FASTER) {
            point t = cur;
            cur = own;
            own = t;
            r->ticks_search = res[0];
            res[0] = res[nf - 1];
            r->own_order_won = true;
        }
        r->ticks = res[0];
        if (s.have_gcc) {
            r->ticks_gcc = res[1];
            r->ticks_clang = res[2];
            /* paired: q[i] = compiler / search's best; over the own order when it is the result */
            double base = r->own_order_won ? q[nf - 1] : 1.0;
            r->speedup_gcc = base > 0 ? q[1] / base : 0;
            r->speedup_clang = base > 0 ? q[2] / base : 0;
            s.cur_ticks = res[0];
            if (res[1] / res[0] > s.best_gcc)
                s.best_gcc = res[1] / res[0];
            if (res[2] / res[0] > s.best_clang)
                s.best_clang = res[2] / res[0];
        }
    }
    progress(&s, true);

    /* the result: the best candidate's function, decisions, text and measured bytes */
    r->best = ir_func_clone(f);
    r->decisions = calloc(f->nnode + 1, 1);
    if (!r->best || !r->decisions) {
        snprintf(s.err, sizeof s.err, "out of memory");
        goto out;
    }
    cand_apply(&cur.c, &s.g, r->best, r->decisions);
    emit_asm_opts eo = s.eo;
    eo.decisions = r->decisions;
    eo.command = o->command;
    if (emit_asm(r->best, &eo, &r->text, &r->text_len, s.err, sizeof s.err) != 0)
        goto out;
    r->code = cur.code;
    r->code_len = cur.len;
    cur.code = NULL;
    rc = 0;
out:
    if (s.line_open) /* the last progress line ends, also when the search stops early (the caller's error follows) */
        fputc('\n', stderr);
    if (rc != 0)
        snprintf(err, errlen, "%s", s.err[0] ? s.err : "search failed");
    if (bets) {
        for (unsigned b = 0; b < nb; b++)
            point_free(&bets[b]);
        free(bets);
    }
    point_free(&cur);
    point_free(&tmp);
    point_free(&own);
    for (int j = 0; j < MEASURE_MAX_ARGS; j++) {
        free(s.tin[j]);
        free(s.tref[j]);
        free(s.scratch[j]);
    }
    measure_free(s.m);
    baseline_free(&s.gcc);
    baseline_free(&s.clang);
    free(s.dec);
    ir_func_free(s.work);
    cand_graph_free(&s.g);
    ir_func_free(s.own);
    if (rc != 0) {
        char keep[512];
        snprintf(keep, sizeof keep, "%s", r->wrong_msg);
        search_result_free(r);
        snprintf(r->wrong_msg, sizeof r->wrong_msg, "%s", keep);
    }
    return rc;
}

/* ---- common subexpressions ------------------------------------------------------------------------------------ */

static bool commutes(ir_op op)
{
    return op == IR_ADD || op == IR_MUL || op == IR_AND || op == IR_OR || op == IR_XOR || op == IR_MULX;
}

/* Same operation on the same operands (commutative operands in either order), same result width and size. */
static bool same_node(const ir_func *f, const ir_node *x, const ir_node *y)
{
    if (x->op != y->op || x->nargs != y->nargs || x->nres != y->nres || x->size != y->size)
        return false;
    for (int i = 0; i < x->nres; i++)
        if (f->val[x->res[i]].width != f->val[y->res[i]].width)
            return false;
    bool eq = true;
    for (int a = 0; a < x->nargs; a++)
        eq &= x->arg[a] == y->arg[a];
    if (eq)
        return true;
    if (commutes((ir_op)x->op) && x->nargs == 2)
        return x->arg[0] == y->arg[1] && x->arg[1] == y->arg[0];
    if (x->op == IR_ADDCARRYX) /* (c, a, b): a and b commute */
        return x->arg[0] == y->arg[0] && x->arg[1] == y->arg[2] && x->arg[2] == y->arg[1];
    return false;
}

int search_cse(ir_func *f)
{
    uint32_t n = f->nnode, merged = 0;
    ir_val *repl = malloc((f->nval ? f->nval : 1) * sizeof *repl);
    if (!repl)
        return -1;
    for (uint32_t v = 0; v < f->nval; v++)
        repl[v] = v;
    for (uint32_t i = 0; i < n; i++) {
        ir_node *x = &f->node[i];
        for (int a = 0; a < x->nargs; a++)
            x->arg[a] = repl[x->arg[a]];
        if (x->op == IR_LOAD || x->op == IR_STORE || x->nres == 0)
            continue;
        for (uint32_t j = 0; j < i; j++) {
            const ir_node *y = &f->node[j];
            if (y->nres && repl[y->res[0]] == y->res[0] && same_node(f, x, y)) {
                for (int r = 0; r < x->nres; r++)
                    repl[x->res[r]] = y->res[r];
                merged++;
                break;
            }
        }
    }
    free(repl);
    if (merged)
        ir_dce(f);
    return (int)merged;
}

/* ---- output ------------------------------------------------------------------------------------------------------ */

char *search_add_header(const char *text, const char *extra)
{
    const char *end = strstr(text, "\n */\n");
    if (!end)
        return NULL;
    size_t head = (size_t)(end - text) + 1, add = 0;
    for (const char *p = extra; *p;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        add += l + 4;
        p += l + (nl ? 1 : 0);
    }
    char *out = malloc(strlen(text) + add + 1), *w;
    if (!out)
        return NULL;
    memcpy(out, text, head);
    w = out + head;
    for (const char *p = extra; *p;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        memcpy(w, l ? " * " : " *", l ? 3 : 2);
        w += l ? 3 : 2;
        memcpy(w, p, l);
        w += l;
        *w++ = '\n';
        p += l + (nl ? 1 : 0);
    }
    strcpy(w, text + head);
    return out;
}

int search_final_check(const ir_func *src, const char *text, const char *symbol, const uint8_t *code, size_t len,
                       const check_opts *co, check_result *cr, char *err, size_t errlen)
{
    const char *tmpdir = getenv("TMPDIR");
    char dir[512], path[600];
    check_code cc;
    check_opts defaults;
    int rc = -1;

    memset(&cc, 0, sizeof cc);
    if (cr)
        memset(cr, 0, sizeof *cr);
    snprintf(dir, sizeof dir, "%s/ecopt-opt-XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "cannot make a temporary directory in %s", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
        return -1;
    }
    snprintf(path, sizeof path, "%s/opt.S", dir);
    FILE *fp = fopen(path, "w");
    if (!fp || fputs(text, fp) < 0 || fclose(fp) != 0) {
        if (fp)
            fclose(fp);
        snprintf(err, errlen, "cannot write %s", path);
        goto out;
    }
    fp = NULL;
    if (check_code_read(path, symbol, &cc, err, errlen) != 0)
        goto out;
    if (cc.size != len) {
        snprintf(err, errlen, "assembled function is %zu bytes, the measured one %zu", cc.size, len);
        goto out;
    }
    for (size_t i = 0; i < len; i++)
        if (cc.bytes[i] != code[i]) {
            snprintf(err, errlen, "assembled bytes differ from the measured ones at offset %zu (0x%02x vs 0x%02x)", i,
                     cc.bytes[i], code[i]);
            goto out;
        }
    if (!cr) {
        rc = 0;
        goto out;
    }
    if (!co) {
        memset(&defaults, 0, sizeof defaults);
        co = &defaults;
    }
    check_function(src, &cc, co, cr);
    rc = 0;
out:
    check_code_free(&cc);
    remove(path);
    rmdir(dir);
    return rc;
}
