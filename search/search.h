/* search.h — the optimizer's random program search (DESIGN.md "The optimizer").
 *
 * search_run looks for the fastest x86-64 code for a LOWERED function f among the candidates of candidate.h:
 *
 *   bet-and-run (Fischetti and Monaci, "Exploiting erraticism in search", Operations Research 62(1), 2014; as used
 *   by CryptOpt, Kuepper et al., PLDI 2023): `bets` short runs share bet_ratio * evals evaluations; the B results
 *   are then measured side by side and the fastest continues for the rest of the budget. Run 0 starts from the
 *   program's own order with the default decisions (emit_asm's deterministic code, often a good start: on p256's
 *   multiply it beats both compilers by itself), the other B - 1 from random starts (cand_random). With one bet,
 *   or a bet share too small to give each bet an evaluation, a single run starts from the program's own order.
 *   A run is a local search: mutate the current candidate (one move or one decision, cand_mutate), evaluate, keep
 *   the mutant when it is not slower. Every 200 evaluations the current candidate is measured against the best one
 *   seen in the run, and reset to it when more than 2% slower (the walk otherwise drifts: under noisy timings a
 *   slightly slower mutant is kept about half the time).
 *
 *   The function searched is f after search_cse (repeated computations merged).
 *
 *   one evaluation = cand_apply -> emit_asm -> encode_asm_text (Zydis; the bytes GNU as would make) -> executable
 *   copy -> run on random inputs (also with every output passed as each input it may alias) and compare with the
 *   interpreter (ir_eval of `ref`): a candidate that differs is a code-generator bug: it is never kept, it is
 *   counted (search_result.nwrong) and the first one is described (search_result.wrong_msg) -> measure the mutant
 *   and the current candidate in one measure_run (interleaved, random order, median of `rounds` rounds). A mutant
 *   whose bytes equal the current one's (a decision that changes nothing there, a move between independent
 *   instructions that the emitter orders alike) is kept without being mapped, run or measured, and is not counted
 *   as an evaluation (search_result.nsame): `evals` counts candidates with new code, except that the 100th such
 *   mutant in a row counts (a program of a few nodes has a handful of distinct codes: its evaluations end, at a
 *   rate like a real program's).
 *
 *   The gcc and clang baselines (baseline.h) are measured with the current candidate at the start, every
 *   `baseline_every` evaluations and at the end; the final measurement (search_result.ticks, ticks_gcc,
 *   ticks_clang) runs the best candidate and both compilers' code side by side with `final_rounds` rounds.
 *   Every one of these measurements (candidates, baselines, the final one) has the objective `objective`: the
 *   throughput of independent calls, or the latency of a chain of dependent ones (measure_set_objective).
 *
 * The same seed gives the same sequence of random starts, mutations and test inputs; which mutants are kept
 * depends on timing, so two runs agree only where the timings do.
 *
 * Progress (unless quiet): one line on stderr, rewritten in place about 4 times a second on a terminal (a new
 * line every 5 s otherwise):
 *   "opt: 1200/20000 evals  current 61.2 ticks  best 1.31x gcc 1.12x clang  410 evals/s  46 s left"
 * and a final line after the final measurement; the line also ends with a newline when the search stops early
 * with an error. Measurement: `rounds` (default 31) interleaved batches per screening comparison, `final_rounds`
 * (101) for the final one. */
#ifndef ECOPT_SEARCH_SEARCH_H
#define ECOPT_SEARCH_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/check.h"
#include "emit/emit_asm.h"
#include "ir/ir.h"
#include "search/measure.h"

typedef struct {
    uint64_t evals;        /* total evaluations (>= 1); default 20000 */
    unsigned bets;         /* B >= 1; default 10 */
    double bet_ratio;      /* R in [0, 1]: the share of evals spent on the B bets; default 0.2 */
    uint64_t seed;         /* random starts, mutations, test inputs, measured inputs */
    int cpu;               /* pin to this CPU; -1: the CPU it runs on */
    const char *symbol;    /* the function's symbol (NULL: f->name) */
    bool hidden;           /* `.hidden` in the .S */
    const char *command;   /* for the .S header (emit_asm_opts.command); NULL: none */
    bool quiet;            /* no progress line */
    bool baselines;        /* measure the gcc and clang code (baseline.h); false: ticks_gcc/ticks_clang are 0 */
    int rounds;            /* rounds per screening measurement (candidate vs current); default 31 */
    int final_rounds;      /* rounds of the final measurement; default 101 */
    unsigned ntests;       /* random input vectors every candidate is run on; default 8 */
    uint64_t baseline_every; /* evaluations between baseline measurements; default 2000 */
    emit_asm_target target; /* the instruction set (emit/emit_asm.h; default EMIT_ASM_TARGET_ADX): passed to
                               emit_asm, and the decisions that need BMI2/ADX are not searched without them */
    measure_objective objective; /* what every measurement times (measure.h): MEASURE_THROUGHPUT (default,
                                    independent calls) or MEASURE_LATENCY (a dependent chain; f must pass
                                    measure_chain) */
} search_opts;

/* search_opts_default — the defaults above (seed 1, cpu -1, baselines on). */
void search_opts_default(search_opts *o);

typedef struct {
    char *text;            /* the best candidate's .S (emit_asm with symbol, hidden and command), heap */
    size_t text_len;
    uint8_t *code;         /* its machine code as measured (encode_asm_text), heap */
    size_t code_len;
    ir_func *best;         /* the lowered function in the best candidate's order (owned), */
    uint8_t *decisions;    /* ... and its decisions in that order (best->nnode bytes): emit_asm of these two with
                              the same options gives text again */
    uint64_t evals;        /* evaluations done */
    uint64_t nkept;        /* mutants kept */
    uint64_t nsame;        /* mutants whose bytes equalled the current candidate's: kept, not counted in evals
                              (but every 100th in a row, search.c SAME_STREAK) */
    uint64_t nreverts;     /* resets of the current candidate to the best one seen (elitism, search.c) */
    uint64_t nwrong;       /* candidates that differed from the interpreter (generator bugs) */
    uint64_t nfailed;      /* candidates emit_asm or the encoder refused (generator bugs too) */
    char wrong_msg[512];   /* the first of those, or "" */
    double ticks;          /* final measurement, in `unit` per call: the best candidate */
    double ticks_gcc;      /* gcc -O3 -march=native -mtune=native (0 without baselines) */
    double ticks_clang;    /* clang, likewise */
    double speedup_gcc;    /* gcc's time / the result's, the paired ratio of that measurement (0 without baselines) */
    double speedup_clang;  /* clang, likewise */
    double ticks_start;    /* the best bet's start candidate, measured at the start (for the record) */
    unsigned bets_run;     /* bets run (0: none; --bets 1, or too few evaluations for one per bet) */
    unsigned bet_chosen;   /* then the bet the search continued: 0 = the run from the program's own order */
    bool own_order_won;    /* the program's own order (default decisions) is the result: in the final measurement
                              the search's best was not clearly faster (paired ratio below 0.995, search.c) */
    double ticks_search;   /* then: the search's best in that measurement (0 otherwise) */
    double own_ratio;      /* the own order's time / the search's best's, paired (the lower of the final
                              measurement's and, when that one is >= 1.005, a second one's); 0 when they are the
                              same code */
    double seconds;        /* wall time of the search */
    double evals_per_s;
    char unit[8];          /* "ticks" or "cycles" (measure_unit) */
    char cpu_model[128];
    char gcc_version[128], clang_version[128];
} search_result;

/* search_run — search for f (LOWERED, ir_lower; it must pass ir_validate) with ref the function the candidates
 * are compared with (the unlowered source or f itself; same arrays). Fills r (free with search_result_free).
 * Returns 0, or -1 with err (size errlen), one line: bad options, f cannot be emitted or encoded at all, a
 * baseline that does not build, pinning or measuring failed, memory. A search in which some candidates were
 * wrong still returns 0 (see nwrong): the caller decides. */
int search_run(const ir_func *f, const ir_func *ref, const search_opts *o, search_result *r, char *err,
               size_t errlen);

void search_result_free(search_result *r);

/* The most searches search_run_jobs runs at once (with the two compilers, within measure_run's 64 functions). */
#define SEARCH_MAX_JOBS 32

/* What search_run_jobs did, per search k (0 .. jobs - 1) and in all. */
typedef struct {
    unsigned jobs;
    uint64_t seed[SEARCH_MAX_JOBS];  /* search k's seed: o->seed + k */
    int cpu[SEARCH_MAX_JOBS];        /* the CPU it ran on */
    uint64_t evals[SEARCH_MAX_JOBS]; /* its evaluations */
    double seconds[SEARCH_MAX_JOBS]; /* its wall time */
    double ticks[SEARCH_MAX_JOBS];   /* its result in the side-by-side measurement, in r->unit per call */
    double ratio[SEARCH_MAX_JOBS];   /* its paired ratio to search 0's result there (ratio[0] = 1) */
    unsigned winner;                 /* the search whose result r is: the lowest ratio (the first of equals) */
    int measure_cpu;                 /* the CPU of the side-by-side measurement (cpus[0]) */
} search_jobs_info;

/* search_run_jobs — `jobs` independent searches (1 <= jobs <= SEARCH_MAX_JOBS) of f in parallel child processes:
 * search k is search_run with o's options but seed o->seed + k, pinned to cpus[k] (distinct CPUs this process may
 * run on), quiet and without the baselines. When all have finished, their results are measured again side by side
 * in this process, pinned to cpus[0], with both compilers' code (o->baselines), o->final_rounds rounds and
 * o->objective; the result with the lowest paired ratio to search 0's is r. r is that search's search_result with
 * ticks, ticks_gcc, ticks_clang and the speedups from the side-by-side measurement (r->best and r->decisions are
 * NULL: text and code are what the caller needs). Progress (unless o->quiet): a line on stderr when the searches
 * start, one per search as its result is read (in search order), and one with the side-by-side result. The
 * children die with this process (PR_SET_PDEATHSIG) and probe the PMU afresh (measure_after_fork). Returns 0, or -1 with err (one line): bad arguments, a fork or pipe that
 * failed, a search that failed ("search 2 (seed 3): <its error>") or died, a baseline or measurement failure. */
int search_run_jobs(const ir_func *f, const ir_func *ref, const search_opts *o, unsigned jobs, const int *cpus,
                    search_result *r, search_jobs_info *info, char *err, size_t errlen);

/* search_cse — merge the nodes of the lowered function f that compute the same operation on the same operands
 * (commutative operands in either order; loads and stores are left alone: emit_asm reads input limbs lazily), then
 * remove the nodes left unused (ir_dce). search_run searches f after this pass (fiat's multiplies compute some
 * products by 19 or by a constant twice). Returns the number of nodes merged, or -1 when memory runs out (f
 * unchanged). */
int search_cse(ir_func *f);

/* search_add_header — text (a .S from emit_asm) with the lines of extra ("\n"-separated, each written as
 * " * <line>") added at the end of its header comment (before the first line " *" + "/"). A heap string, or NULL
 * when memory runs out or text has no header comment. */
char *search_add_header(const char *text, const char *extra);

/* search_final_check — the last gate before output: write text to a private temporary .S, assemble it with the
 * system assembler (`cc -c`, check/elf.h), require the function `symbol`'s bytes to equal code (len bytes: the
 * bytes that were measured), then (cr not NULL) check them against src (the UNLOWERED program) with
 * check_function (opts co, NULL: defaults) into *cr. Returns 0 when the bytes are equal and the checker ran (its verdict is cr->verdict),
 * -1 with err (one line): the text does not assemble, the bytes differ ("assembled bytes differ from the measured
 * ones at offset 12 (0x48 vs 0x4c)"), a temporary file cannot be written. */
int search_final_check(const ir_func *src, const char *text, const char *symbol, const uint8_t *code, size_t len,
                       const check_opts *co, check_result *cr, char *err, size_t errlen);

#endif
