/* check.c — the checker's driver (check/check.h): run the program and the machine code symbolically into one
 * expression context, then prove each output limb equal: identical normal forms, else identical exact linear forms
 * (lf.h; the range rule), else (after concrete sampling, which can only find counterexamples) an unsat answer from
 * z3: first with cut-points, then without.
 *
 * Cut-points (prove_cut; A. Kuehlmann, F. Krohm, "Equivalence checking using cuts and heaps", DAC 1997). Where the
 * code and the program compute a word by different operations but to the same exact linear form (lf.h: equal for
 * every input within the bounds), the z3 query replaces every node of that form by one fresh variable within the
 * intersection of the nodes' intervals (lf_cut_classes, smt_differ_cut), so that the solver sees only what lies
 * between the shared words and the output limb (for a Montgomery multiply: the final conditional subtraction over
 * the words of T, rather than the whole multiplication). The rule: a cut replaces equal values by one variable
 * that may take any value in their common range, independently of the rest, so every real input still has a
 * matching assignment; an unsat answer with cuts is therefore unsat without them and proves the limb. A sat
 * answer proves nothing (the cut forgets how the shared words relate to each other and to the inputs): smt.c
 * replays its model's inputs on the real expressions, and whatever the outcome the limb goes on to the uncut query
 * as before (a cut model is never reported as a counterexample). A word that the normal form flattened into a
 * larger sum (a 64-bit add of a 64-bit word) is found inside it by its terms and coefficients (smt.c, sum_plan: an
 * identity mod 2^w), and counts as a node of that sum's side when the classes are formed (lf_cut_classes). Before
 * a limb's cut query, every class member's form is evaluated against its expression on 4 inputs (the same self-test
 * as the linear forms'); the first limb whose cut query is not unsat ends the cut stage (after the sweep, below,
 * the limbs' queries are asked once more), and a cut query is given at most CUT_TIMEOUT_MS (10 s).
 * ECOPT_CHECK_EXPLAIN prints each cut query's size and answer, ECOPT_CUT_DEBUG=1 its nodes, ECOPT_SMT_DUMP=FILE
 * appends every query as SMT-LIB text (debugging aids).
 *
 * Sweeping (sweep; Kuehlmann & Krohm, sec. 3). Where a code word and a program word are equal but their exact forms
 * differ (the linear forms cannot see it), the classes stop below them and the limb's cut query keeps everything in
 * between (secp256k1's Montgomery multiply compiled by gcc: both rounds, a timeout). When a limb's cut query is not
 * unsat, such pairs (chosen by agreeing on sampled inputs) are asked one at a time, bottom-up in the program's order,
 * as small cut queries of their own, and the pending limbs' cut queries are asked again when any was proved (a
 * subject that the cut queries prove pays nothing for it). Soundness is the cut rule's: an unsat pair query is unsat
 * without its cuts, so the pair is equal for every input within the bounds; the code node then takes the program
 * node's form (lf_alias, the contract the range rule relies on), so that the pair is one class in every later query,
 * itself sound by the same rule. Sampling only chooses the pairs, and any other answer to a pair query (sat, a
 * spurious model, a limit reached) proves and refutes nothing: a sweep query's model is never a counterexample. The
 * outcome does not depend on how the code's nodes are numbered (the order is the program's, and each query is
 * bounded by z3's resource count, not by time); the work is bounded by a number of queries (SWEEP_QUERIES,
 * SWEEP_BARREN), with wall and CPU time only as backstops. check_opts.no_sweep or ECOPT_NO_SWEEP=1 turns it off. */
#define _POSIX_C_SOURCE 200809L
#include "check/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/decode.h"
#include "check/edges.h"
#include "check/exec.h"
#include "check/expr.h"
#include "check/lf.h"
#include "check/ir_sym.h"
#include "check/smt.h"

static const char *const rule_names[CHECK_RULE_COUNT] = {
    [CHECK_RULE_NONE] = "none",
    [CHECK_RULE_UNKNOWN_INSN] = "unknown-insn",
    [CHECK_RULE_UNSUPPORTED] = "unsupported",
    [CHECK_RULE_BRANCH] = "branch",
    [CHECK_RULE_DIVISION] = "division",
    [CHECK_RULE_RIP_DATA] = "rip-data",
    [CHECK_RULE_DATA_ADDRESS] = "data-address",
    [CHECK_RULE_MEMORY_BOUNDS] = "memory-bounds",
    [CHECK_RULE_STORE_INPUT] = "store-input",
    [CHECK_RULE_STACK_UNWRITTEN] = "stack-unwritten",
    [CHECK_RULE_UNKNOWN_VALUE] = "unknown-value",
    [CHECK_RULE_CALLEE_SAVED] = "callee-saved",
    [CHECK_RULE_STACK_UNBALANCED] = "stack-unbalanced",
    [CHECK_RULE_OUTPUT_MISSING] = "output-missing",
    [CHECK_RULE_OUTPUT_DIFFERS] = "output-differs",
    [CHECK_RULE_UNPROVED] = "unproved",
    [CHECK_RULE_RELOCATION] = "relocation",
    [CHECK_RULE_SYMBOL] = "symbol",
    [CHECK_RULE_FRAME_SIZE] = "frame-size",
};

const char *check_rule_name(check_rule r)
{
    return (unsigned)r < CHECK_RULE_COUNT ? rule_names[r] : "?";
}

int check_rule_parse(const char *s)
{
    for (int i = 0; i < CHECK_RULE_COUNT; i++)
        if (strcmp(s, rule_names[i]) == 0)
            return i;
    return -1;
}

/* cpu_now — this process's CPU time (z3 runs in it, one thread): a budget that a busy machine does not eat */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}


/* explain_on — ECOPT_CHECK_EXPLAIN is set to something other than empty or "0" (docs/checker.md: N = 1 to 3) */
static bool explain_on(void)
{
    const char *e = getenv("ECOPT_CHECK_EXPLAIN");
    return e && e[0] && strcmp(e, "0") != 0;
}

/* copy_line — src into dst (size len), truncated with "..." */
static void copy_line(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n < len) {
        memcpy(dst, src, n + 1);
        return;
    }
    memcpy(dst, src, len - 4);
    memcpy(dst + len - 4, "...", 4);
}

static check_verdict bad(check_result *r, const char *what)
{
    r->verdict = CHECK_BAD_INPUT;
    r->rule = CHECK_RULE_NONE;
    copy_line(r->reason, sizeof r->reason, what);
    return r->verdict;
}

static check_verdict reject(check_result *r, check_rule rule, const char *reason)
{
    r->verdict = CHECK_REJECTED;
    r->rule = rule;
    copy_line(r->reason, sizeof r->reason, reason);
    return r->verdict;
}

/* the array's name and limb, "out1[3]" */
static void limb_name(const ir_func *f, uint32_t arr, uint32_t limb, char *buf, size_t len)
{
    snprintf(buf, len, "%s[%u]", f->arr[arr].name, limb);
}

/* cex_text — "arg1 = {0x.., ...}, arg2 = {...}: out1[2] = 0x... (code), 0x... (program)" from per-leaf values. */
static void cex_text(const ir_func *f, uint64_t *const *in, const bool *const *used, uint32_t oarr, uint32_t olimb,
                     ir_u128 vcode, ir_u128 vprog, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
#define PUT(...)                                                                                                  \
    do {                                                                                                          \
        if (o < len) {                                                                                            \
            int n_ = snprintf(buf + o, len - o, __VA_ARGS__);                                                     \
            o += n_ > 0 ? (size_t)n_ : 0;                                                                         \
        }                                                                                                         \
    } while (0)
    bool first = true;
    for (uint32_t j = 0; j < f->narr; j++) {
        if (f->arr[j].is_output)
            continue;
        PUT("%s%s = {", first ? "" : ", ", f->arr[j].name);
        first = false;
        for (uint32_t i = 0; i < f->arr[j].len; i++) {
            if (used && !used[j][i])
                PUT("%s_", i ? ", " : "");
            else
                PUT("%s0x%016llx", i ? ", " : "", (unsigned long long)in[j][i]);
        }
        PUT("}");
    }
    char nm[IR_NAME_MAX + 16];
    limb_name(f, oarr, olimb, nm, sizeof nm);
    PUT(": %s = 0x%016llx (code), 0x%016llx (program)", nm, (unsigned long long)(uint64_t)vcode,
        (unsigned long long)(uint64_t)vprog);
#undef PUT
    if (o >= len && len > 4)
        memcpy(buf + len - 4, "...", 4);
}


static uint64_t splitmix(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

typedef struct {
    const ir_func *f;
    ex_ctx *x;
    ex_id **prog, **code; /* per array (outputs only), per limb */
    uint64_t **in;        /* per array (inputs only), per limb: the current sample */
    uint64_t *inbuf;
    const int32_t *same_as; /* the aliasing case (check_exec_case), NULL: disjoint */
} run;

/* fill_inputs — sample number it into R->in: every input limb within its declared bounds; the first two samples
 * are all upper and all lower bounds, then each limb is its upper bound, its lower bound or uniform. */
static void fill_inputs(run *R, unsigned it, uint64_t *st)
{
    const ir_func *f = R->f;
    for (uint32_t j = 0; j < f->narr; j++) {
        if (f->arr[j].is_output)
            continue;
        for (uint32_t i = 0; i < f->arr[j].len; i++) {
            uint64_t z = splitmix(st), lo = (uint64_t)f->arr[j].lo[i], hi = (uint64_t)f->arr[j].hi[i], v;
            switch (it < 2 ? it : z % 4) {
            case 0: v = hi; break;
            case 1: v = lo; break;
            default: v = hi - lo == ~(uint64_t)0 ? z : lo + (z >> 2) % (hi - lo + 1); break;
            }
            R->in[j][i] = v;
        }
    }
}

/* tie_inputs — in a case with equal inputs, the sample of an input equal to another is the other's (no leaf reads
 * it: this is for the counterexample's text) */
static void tie_inputs(run *R)
{
    for (uint32_t b = 0; R->same_as && b < R->f->narr; b++)
        if (!R->f->arr[b].is_output && R->same_as[b] >= 0)
            for (uint32_t i = 0; i < R->f->arr[b].len; i++)
                R->in[b][i] = R->in[R->same_as[b]][i];
}

/* edge_samples — the inputs at the prime's edges (edges.h), for sample_all: every input array that the edges fit
 * alone at each of its edge values (p - 1, p, p + 1, 2p - 1, 2p, in its limbs) with the other arrays sampled as by
 * fill_inputs; then, with two or more such arrays, all of them at one value together, and with exactly two, every
 * pair of their values. Each sample is a whole copy of R->inbuf (total limbs, every array in order; the outputs'
 * slots unused): *n of them in the returned array (free it), NULL with *n = 0 when there are none (no prime, or
 * nothing fits the bounds) or memory runs out. R->in is left holding scratch. */
static uint64_t *edge_samples(run *R, uint32_t total, unsigned *n)
{
    const ir_func *f = R->f;
    uint64_t *ev[16] = { 0 }, *buf = NULL;
    unsigned which[16][CHECK_NEDGE], cnt[16] = { 0 }, nfit = 0, cap = 0, k = 0;
    uint32_t fit[16];
    uint64_t st = 0x243f6a8885a308d3u; /* its own stream: sample_all's random samples stay what they were */
    *n = 0;
    for (uint32_t j = 0; j < f->narr && j < 16; j++) {
        if (f->arr[j].is_output)
            continue;
        ev[j] = malloc((size_t)CHECK_NEDGE * f->arr[j].len * sizeof *ev[j]);
        if (!ev[j])
            goto out;
        int c = check_edges(f, j, ev[j], which[j]);
        cnt[j] = c > 0 ? (unsigned)c : 0;
        if (cnt[j]) {
            fit[nfit++] = j;
            cap += cnt[j];
        }
    }
    if (nfit == 0)
        goto out;
    if (nfit >= 2)
        cap += CHECK_NEDGE;
    if (nfit == 2)
        cap += CHECK_NEDGE * CHECK_NEDGE;
    buf = malloc((size_t)cap * total * sizeof *buf);
    if (!buf)
        goto out;
#define PUT_EDGE(a, e)                                                                                            \
    memcpy(R->in[fit[a]], ev[fit[a]] + (size_t)(e) * f->arr[fit[a]].len, f->arr[fit[a]].len * sizeof *buf)
#define KEEP() memcpy(buf + (size_t)k++ * total, R->inbuf, total * sizeof *buf)
    for (unsigned a = 0; a < nfit; a++) /* one array at an edge, the others sampled */
        for (unsigned e = 0; e < cnt[fit[a]]; e++) {
            fill_inputs(R, 2, &st);
            PUT_EDGE(a, e);
            KEEP();
        }
    for (unsigned v = 0; nfit >= 2 && v < CHECK_NEDGE; v++) { /* all at value v together (where it fits) */
        bool any = false;
        fill_inputs(R, 2, &st);
        for (unsigned a = 0; a < nfit; a++)
            for (unsigned e = 0; e < cnt[fit[a]]; e++)
                if (which[fit[a]][e] == v) {
                    PUT_EDGE(a, e);
                    any = true;
                }
        if (any)
            KEEP();
    }
    for (unsigned e0 = 0; nfit == 2 && e0 < cnt[fit[0]]; e0++) /* two arrays: every pair of different values */
        for (unsigned e1 = 0; e1 < cnt[fit[1]]; e1++)
            if (which[fit[0]][e0] != which[fit[1]][e1]) {
                fill_inputs(R, 2, &st);
                PUT_EDGE(0, e0);
                PUT_EDGE(1, e1);
                KEEP();
            }
#undef PUT_EDGE
#undef KEEP
    *n = k;
out:
    for (unsigned j = 0; j < 16; j++)
        free(ev[j]);
    if (*n == 0) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

static bool range_debug(int level)
{
    const char *e = getenv("ECOPT_RANGE_DEBUG");
    return e && atoi(e) >= level;
}

/* debug_search — (ECOPT_RANGE_DEBUG=4, a debugging aid) looks for an input, limbs near their upper bounds, on which
 * nodes a and b differ, and says whether it found one */
static void debug_search(run *R, ex_ctx *x, ir_u128 *ev, ex_id a, ex_id b)
{
    uint64_t sq = 12345;
    unsigned ndiff = 0;
    for (unsigned it = 0; it < 200000 && ndiff == 0; it++) {
        for (uint32_t j = 0; j < R->f->narr; j++)
            for (uint32_t q = 0; !R->f->arr[j].is_output && q < R->f->arr[j].len; q++) {
                uint64_t z = splitmix(&sq), hi = (uint64_t)R->f->arr[j].hi[q];
                R->in[j][q] = z % 3 == 0 ? hi - (z >> 60) : z % 3 == 1 ? hi - (z >> (8 + (z >> 2) % 56)) : z;
            }
        ex_eval_all(x, (const uint64_t *const *)R->in, ev);
        ndiff += ev[a] != ev[b];
    }
    fprintf(stderr, "search node %u vs %u: %s\n", a, b, ndiff ? "DIFFER" : "no difference found");
}

enum { RANGE_BUDGET = 6000000 }; /* lf_range_work units (a fraction of a second): then no more pairs are tried */

/* sig_slot — the slot of signature sig in the open-addressing table tab (cap a power of two): the one holding a
 * program node with that signature (the first of its chain, sig_chains), or the empty one where it would go */
static uint32_t sig_slot(const ex_id *tab, uint32_t cap, const uint64_t *sigs, uint64_t sig)
{
    uint32_t i = (uint32_t)(sig & (cap - 1));
    while (tab[i] && sigs[tab[i]] != sig)
        i = (i + 1) & (cap - 1);
    return i;
}

/* sig_chains — the program nodes 1 .. boundary whose values vary on the samples, chained by signature (sig,
 * sample_signatures): tab (cap slots, a power of two at least 2 * (boundary + 1): at most half full) holds at
 * sig_slot(sig) the first node of that signature's chain, nxt[y] the node after y in y's chain, 0 at its end. */
typedef struct {
    ex_id *tab, *nxt;
    uint32_t cap;
} sig_chains;

/* sig_chains_build — c's chains (the caller frees c->tab and c->nxt, NULL when not allocated); earliest_first: each
 * chain runs in increasing id order, else in decreasing. 0, or -1 when memory runs out. */
static int sig_chains_build(sig_chains *c, const uint64_t *sig, const bool *varies, ex_id boundary, bool earliest_first)
{
    c->cap = 1;
    while (c->cap < 2 * (boundary + 1))
        c->cap *= 2;
    c->tab = calloc(c->cap, sizeof *c->tab);
    c->nxt = calloc((size_t)boundary + 1, sizeof *c->nxt);
    if (!c->tab || !c->nxt)
        return -1;
    /* each node goes in front of its chain: inserted in decreasing id order, the chain runs in increasing order */
    for (ex_id k = 1; k <= boundary; k++) {
        ex_id y = earliest_first ? boundary + 1 - k : k;
        if (!varies[y])
            continue;
        uint32_t i = sig_slot(c->tab, c->cap, sig, sig[y]);
        c->nxt[y] = c->tab[i];
        c->tab[i] = y;
    }
    return 0;
}

/* sig_chains_first — the first program node of signature sg's chain, 0 when none */
static ex_id sig_chains_first(const sig_chains *c, const uint64_t *sig, uint64_t sg)
{
    return c->tab[sig_slot(c->tab, c->cap, sig, sg)];
}

/* sample_signatures — evaluates every node on NSIG random inputs within the bounds (fill_inputs from a fixed seed,
 * not the all-hi/all-lo corners): sig[v] hashes node v's values, varies[v] says whether they were not all equal
 * (both zeroed by the caller, ex_count + 1 entries; ev is scratch of that size). Nodes with one sig agreed on every
 * sample. 0, or -1 when evaluation fails. */
enum { NSIG = 24 };
static int sample_signatures(run *R, ex_ctx *x, ir_u128 *ev, uint64_t *sig, bool *varies)
{
    uint32_t cnt = ex_count(x);
    ir_u128 *first = malloc(((size_t)cnt + 1) * sizeof *first);
    uint64_t st = 0x3c6ef372fe94f82bull;
    if (!first)
        return -1;
    for (unsigned s = 0; s < NSIG; s++) {
        fill_inputs(R, s + 2, &st);
        if (ex_eval_all(x, (const uint64_t *const *)R->in, ev) != 0) {
            free(first);
            return -1;
        }
        for (ex_id v = 1; v <= cnt; v++) {
            if (s == 0)
                first[v] = ev[v];
            else if (ev[v] != first[v])
                varies[v] = true;
            sig[v] = (sig[v] ^ (uint64_t)ev[v] ^ (uint64_t)(ev[v] >> 64) * 0x9e3779b97f4a7c15ull) *
                         0xbf58476d1ce4e5b9ull +
                     s;
        }
    }
    free(first);
    return 0;
}

/* range_aliases — the range rule (lf_range_equal) applied node by node: every node the code made (ids above
 * boundary, in increasing order, so operands first) whose value agrees on a few sampled inputs with a node of the
 * program but whose exact form differs is tried against that node, with the values whose results nothing uses
 * (words dropped by the code or the program, such as the low words of Montgomery rounds) as the candidates of known
 * range; when it is proved equal, it takes the program node's form (lf_alias), so the code's later nodes are built on
 * the program's. Sampling only chooses the pairs to try; the proof is lf_range_equal's. The pairs are tried until
 * the systems built reach RANGE_BUDGET (lf_range_work), so that a large function does not spend long here before the
 * solver. Returns the number of nodes aliased, or -1 when memory runs out. */
static int range_aliases(run *R, ex_ctx *x, lf_ctx *l, ex_id boundary)
{
    uint32_t cnt = ex_count(x);
    ir_u128 *ev = malloc(((size_t)cnt + 1) * sizeof *ev);
    uint64_t *sig = calloc((size_t)cnt + 1, sizeof *sig);
    bool *varies = calloc((size_t)cnt + 1, sizeof *varies);
    uint32_t *users = calloc((size_t)cnt + 1, sizeof *users);
    sig_chains ch = { 0 }; /* each chain from the last program node of its signature to the first */
    lf_id *cand = malloc(((size_t)cnt + 1) * sizeof *cand);
    ex_id *candid = malloc(((size_t)cnt + 1) * sizeof *candid);
    int nal = -1;
    if (!ev || !sig || !varies || !users || !cand || !candid || sample_signatures(R, x, ev, sig, varies) ||
        sig_chains_build(&ch, sig, varies, boundary, false))
        goto out;
    for (ex_id v = 1; v <= cnt; v++) {
        const ex_node *n = ex_get(x, v);
        const ex_arg *a = ex_args(x, v);
        for (uint32_t i = 0; i < n->nargs; i++)
            users[a[i].id]++;
    }
    nal = 0;
    uint32_t ncand = 0;
    for (ex_id v = 1; v <= cnt; v++) {
        lf_id s = lf_of(l, v);
        if (!s && ex_get(x, v)->kind != EX_UNKNOWN && !ex_has_unknown(x, v)) {
            nal = -1; /* out of memory (a form that cannot be expressed also gives 0: only unknowns, here) */
            break;
        }
        if (!s)
            continue;
        if (v > boundary && varies[v] && lf_range_work(l) < RANGE_BUDGET) {
            /* every program node of that signature (a rare carry can make two agree on the samples), at most 8 */
            unsigned ntry = 0;
            for (ex_id y = sig_chains_first(&ch, sig, sig[v]); y && ntry < 8; y = ch.nxt[y], ntry++) {
                lf_id t = lf_of(l, y);
                if (t == s)
                    break;
                if (!t)
                    continue;
                if (range_debug(4) && ex_get(x, v)->width <= 8)
                    debug_search(R, x, ev, v, y);
                int rc = lf_range_equal(l, s, t, cand, ncand);
                if (range_debug(1)) {
                    fprintf(stderr, "try node %u (w%u) vs program %u: %d (%u candidates)\n", v, ex_get(x, v)->width, y,
                            rc, ncand);
                    if (range_debug(2)) {
                        static char pb[4000];
                        lf_print(l, s, pb, sizeof pb);
                        fprintf(stderr, "  code %s\n", pb);
                        lf_print(l, t, pb, sizeof pb);
                        fprintf(stderr, "  prog %s\n", pb);
                        ex_print(x, v, pb, sizeof pb);
                        fprintf(stderr, "  code ex %s\n", pb);
                        ex_print(x, y, pb, sizeof pb);
                        fprintf(stderr, "  prog ex %s\n", pb);
                    }
                }
                if (rc < 0) {
                    nal = -1;
                    break;
                }
                if (rc == 1) {
                    if (lf_alias(l, v, t) != 0) {
                        nal = -1;
                        break;
                    }
                    nal++;
                    if (explain_on())
                        fprintf(stderr, "range rule: node %u = program node %u\n", v, y);
                    s = t;
                    break;
                }
            }
            if (nal < 0)
                break;
        }
        if (!lf_sum_is_const(l, s) && !users[v]) {
            cand[ncand] = s;
            candid[ncand++] = v;
        }
    }
out:
    free(ev);
    free(sig);
    free(varies);
    free(users);
    free(ch.tab);
    free(ch.nxt);
    free(cand);
    free(candid);
    return nal;
}


/* lf_match_debug — (ECOPT_LF_MATCH=1 or 2 in the environment, a debugging aid) one line per program node that the
 * program's outputs use and whose value varies on the samples: '=' the code uses the same node, 'L' some code node
 * has the same exact linear form, 'S' a code node agrees on NSIG sampled inputs but its form differs (probably the
 * same value: these are where the forms part), '-' none; with 2, both forms. Reading it in program order finds the
 * first word at which the code's and the program's forms part. */
static void lf_match_debug(run *R, ex_ctx *x, lf_ctx *l, ex_id boundary, ex_id **code, ex_id **prog)
{
    uint32_t cnt = ex_count(x);
    ir_u128 *ev = malloc(((size_t)cnt + 1) * sizeof *ev);
    uint64_t *sig = calloc((size_t)cnt + 1, sizeof *sig);
    bool *varies = calloc((size_t)cnt + 1, sizeof *varies);
    bool *inc = calloc((size_t)cnt + 1, sizeof *inc), *inp = calloc((size_t)cnt + 1, sizeof *inp);
    char *buf = malloc(4000);
    if (!ev || !sig || !varies || !inc || !inp || !buf || sample_signatures(R, x, ev, sig, varies))
        goto out;
    for (uint32_t j = 0; j < R->f->narr; j++)
        for (uint32_t i = 0; R->f->arr[j].is_output && i < R->f->arr[j].len; i++) {
            inc[code[j][i]] = code[j][i] != 0;
            inp[prog[j][i]] = prog[j][i] != 0;
        }
    for (ex_id v = cnt; v >= 1; v--) { /* operands have smaller ids */
        const ex_node *n = ex_get(x, v);
        const ex_arg *a = ex_args(x, v);
        for (uint32_t i = 0; i < n->nargs; i++) {
            inc[a[i].id] |= inc[v];
            inp[a[i].id] |= inp[v];
        }
    }
    bool both = atoi(getenv("ECOPT_LF_MATCH")) >= 2;
    for (ex_id y = 1; y <= boundary; y++) {
        if (!varies[y] || !inp[y])
            continue;
        lf_id t = lf_of(l, y);
        char c = inc[y] ? '=' : '-';
        ex_id hit = 0;
        for (ex_id v = boundary + 1; v <= cnt && c != '=' && c != 'L'; v++) {
            if (sig[v] != sig[y] || !inc[v])
                continue;
            if (lf_of(l, v) == t)
                c = 'L';
            else if (c == 'S')
                continue;
            else
                c = 'S';
            hit = v;
        }
        fprintf(stderr, "lf match: program %u w%u %c code %u\n", y, ex_get(x, y)->width, c, hit);
        if (both && c == 'S') {
            static char dbuf[20000];
            lf_diff(l, lf_of(l, hit), t, dbuf, sizeof dbuf);
            fprintf(stderr, "  code (A) vs program (B): %s\n", dbuf);
            if (atoi(getenv("ECOPT_LF_MATCH")) >= 3) {
                ex_print(x, y, buf, 4000);
                fprintf(stderr, "  program ex %s\n", buf);
                ex_print(x, hit, buf, 4000);
                fprintf(stderr, "  code ex    %s\n", buf);
            }
        }
    }
out:
    free(ev);
    free(sig);
    free(varies);
    free(inc);
    free(inp);
    free(buf);
}

/* raw_run — the program and the code executed once more into a raw context (ex_ctx_set_raw: sums as the operations
 * wrote them), with a linear-form context over it: what prove_linear and prove_cut start from. prog[j] / code[j] are
 * the arrays' limb ids; boundary is the first node the code's run made (the program's run makes those below). */
typedef struct raw_run {
    ex_ctx *x;
    lf_ctx *l;
    ex_id **prog, **code;
    ex_id *ids;
    check_result *scratch;
    ex_id boundary;
} raw_run;

static void raw_run_free(raw_run *w)
{
    lf_free(w->l);
    ex_ctx_free(w->x);
    free(w->prog);
    free(w->code);
    free(w->ids);
    free(w->scratch);
}

/* 1 run, 0 a run failed (the main run passed them, so only memory can have failed there: the caller leaves the limbs
 * to the solver), -1 no memory; raw_run_free in every case. */
static int raw_run_make(raw_run *w, const run *R, const uint32_t *argmap, const check_insn_list *insns,
                        bool no_red_zone)
{
    const ir_func *f = R->f;
    uint32_t total = 0;
    for (uint32_t j = 0; j < f->narr; j++)
        total += f->arr[j].len;
    w->x = ex_ctx_new();
    w->prog = calloc(f->narr, sizeof *w->prog);
    w->code = calloc(f->narr, sizeof *w->code);
    w->ids = calloc(2 * (size_t)(total ? total : 1), sizeof *w->ids);
    w->scratch = calloc(1, sizeof *w->scratch);
    w->l = w->x ? lf_new(w->x) : NULL;
    w->boundary = 0;
    if (!w->x || !w->prog || !w->code || !w->ids || !w->scratch || !w->l)
        return -1;
    ex_ctx_set_raw(w->x, true);
    for (uint32_t j = 0, at = 0; j < f->narr; at += f->arr[j].len, j++) {
        w->prog[j] = w->ids + at;
        w->code[j] = w->ids + total + at;
    }
    char err[256];
    if (ir_sym_run(w->x, f, w->prog, err, sizeof err) != 0)
        return 0;
    w->boundary = ex_count(w->x);
    if (check_exec_case(w->x, f, argmap, insns, no_red_zone, R->same_as, w->code, w->scratch) != 0)
        return 0;
    return 1;
}

/* prove_linear — the limbs whose normal forms differ, compared in the exact linear form with floors (lf.h). Both
 * the program and the code are executed again into a raw context (ex_ctx_set_raw: sums as the operations wrote
 * them), whose expressions lf.h rewrites; a limb whose two forms are the same lf sum is proved (same[j][i] set).
 * The translation is also evaluated on a few inputs against the raw expressions' own values, as a self-test: a
 * mismatch there is a checker bug, and the limb is left to the solver. Returns the number of limbs proved, or -1
 * when memory runs out. */
static int prove_linear(run *R, bool **same, const uint32_t *argmap, const check_insn_list *insns, bool no_red_zone,
                        bool ranged, check_result *r)
{
    const ir_func *f = R->f;
    raw_run w;
    ir_u128 *ev = NULL;
    int made = raw_run_make(&w, R, argmap, insns, no_red_zone);
    int nproved = made < 0 ? -1 : 0;
    ex_ctx *x = w.x;
    lf_ctx *l = w.l;
    ex_id **prog = w.prog, **code = w.code, boundary = w.boundary;
    if (made <= 0)
        goto out;
    uint64_t st = 0x1f0e5a3cull;
    if (!ranged && getenv("ECOPT_LF_MATCH"))
        lf_match_debug(R, x, l, boundary, code, prog);
    if (ranged) {
        int na = range_aliases(R, x, l, boundary);
        if (na < 0) {
            nproved = -1;
            goto out;
        }
        r->nranged += (unsigned)na;
        if (na == 0)
            goto out;
    }
    for (uint32_t j = 0; j < f->narr; j++) {
        if (!f->arr[j].is_output)
            continue;
        for (uint32_t i = 0; i < f->arr[j].len; i++) {
            if (same[j][i] || !code[j][i] || !prog[j][i])
                continue;
            ex_id ce = ex_trunc(x, 64, code[j][i]);
            if (!ce || ex_has_unknown(x, ce))
                continue;
            lf_id a = lf_of(l, ce), b = lf_of(l, prog[j][i]);
            if (a && b && a != b && explain_on()) {
                static char dbuf[200000];
                lf_diff(l, a, b, dbuf, sizeof dbuf);
                fprintf(stderr, "LF limb %u%s: %s\n", i, ranged ? " (after the range rule)" : "", dbuf);
            }
            if (!a || a != b)
                continue;
            /* self-test on 4 inputs */
            ex_id pair[2] = { ce, prog[j][i] };
            bool ok = true;
            free(ev);
            ev = malloc(((size_t)ex_count(x) + 1) * sizeof *ev);
            if (!ev) {
                nproved = -1;
                goto out;
            }
            for (unsigned s = 0; s < 4 && ok; s++) {
                fill_inputs(R, s, &st);
                ex_eval_all(x, (const uint64_t *const *)R->in, ev);
                ex_id badid = 0;
                int rc = lf_check_eval(l, pair, 2, (const uint64_t *const *)R->in, ev, &badid);
                if (rc < 0) {
                    nproved = -1;
                    goto out;
                }
                ok = rc == 0;
            }
            if (ok) {
                same[j][i] = true;
                r->nlimbs_linear++;
                nproved++;
            }
        }
    }
out:
    free(ev);
    raw_run_free(&w);
    return nproved;
}

/* cut_selftest — every class member's form evaluated against its expression on 4 inputs (lf_check_eval, the
 * self-test prove_linear makes; ev is scratch of ex_count + 1 entries): 1 all agree, 0 a mismatch (a checker bug),
 * -1 out of memory */
static int cut_selftest(run *R, ex_ctx *x, lf_ctx *l, const ex_id *members, uint32_t nmem, ir_u128 *ev, uint64_t *st)
{
    for (unsigned s = 0; s < 4; s++) {
        fill_inputs(R, s, st);
        if (ex_eval_all(x, (const uint64_t *const *)R->in, ev) != 0)
            return -1;
        ex_id badid = 0;
        int rc = lf_check_eval(l, members, nmem, (const uint64_t *const *)R->in, ev, &badid);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
    }
    return 1;
}

/* sweep — (A. Kuehlmann, F. Krohm, DAC 1997, sec. 3: sweeping, the companion of cut-points) when a limb's cut query
 * fails: pairs of a code node and a program node that agree on sampled inputs (sample_signatures) but whose exact
 * forms differ are asked of z3, "can these two differ?", each as a small cut query over the classes established so
 * far (smt_differ_cut on the pair: what lies below their last shared words is cut away). unsat proves the pair
 * equal for every input within the bounds (the cut rule, as for a limb), and the code node takes the program node's
 * form (lf_alias, the contract the range rule uses): the two form one class in every later query, what lies below
 * them is cut there, and the code's nodes built on it are translated again on the program's form. Sampling only
 * chooses the pairs; the proof is the solver's. Any other answer proves nothing and refutes nothing (a model of a
 * cut query is no counterexample): the pair stays as it was. A pair query whose model the real expressions do not
 * confirm is refined up to SWEEP_REFINE times (smt_differ_cut): the classes whose variables the model sets to values
 * their nodes do not take on its inputs are uncut and the query asked again (p384's Montgomery digit, computed by
 * gcc as (t << 32) + t, is a class whose free variable forgets that it is a multiple of t; uncut, the words built on
 * it prove). Uncutting keeps the cut rule, and a model confirmed on the real expressions is a real difference of the
 * pair (never of the function: the pair is only dropped).
 * Candidates: nodes in the regions of the pending limbs' cut queries (what a limb's query reaches from its roots
 * without passing a cut node: elsewhere an equality changes nothing the query sees); every code node there against
 * the program nodes there with its signature (at most SWEEP_PARTNERS, lowest ids first: samples rarely tell a word
 * from the same word plus a carry that is almost always 0; the earliest is the one the code's word usually equals).
 * Independent of the code's node numbering (a renamed register, a dead move or a moved instruction numbers the
 * code's nodes otherwise): the candidates are taken in the order of their program node (the program is run first,
 * so its numbering does not depend on the code, and it is topological: a pair comes after the pairs below it), then
 * of the code node's width and depth (the longest path from a leaf); the code node's number only breaks a tie of
 * all three. A pair proved is merged at once (the pairs above it see it cut), and a code node merged is not asked
 * again. The sweep goes in rounds, each over the candidates derived anew (the regions shrink as pairs merge), until
 * a round proves nothing; a pair whose query failed is asked again only when its query has changed (a hash of the
 * query's region and of its cut nodes' forms). Each query is bounded by z3's resource count (SWEEP_RLIMIT: its own
 * work count, so that a busy machine gives the same answers as an idle one), the sweep by SWEEP_QUERIES queries and
 * by SWEEP_BARREN failed queries in a row (a subject whose pairs the sweep cannot prove, such as p384's gcc multiply,
 * stops early); wall time (SWEEP_QUERY_MS per query, or the caller's timeout when smaller) and this process's CPU
 * time (SWEEP_BUDGET_MS) are only backstops (secp256k1's gcc multiply: 12 pairs proved by 92 queries in 2 rounds,
 * about 28 s of CPU, the same for each of its variants; p384's and p434's gcc multiplies, which the sweep does not
 * prove: 67 and 48 queries, 6 and 10 s). Tiny resource limits first (asking every pair cheaply, then the rest
 * with more) were tried: a query costs about 0.05 s whatever its limit (a z3 context, the translation), and the
 * unsat pairs of secp256k1's gcc multiply need more than 100000, so that round only added queries. Returns the
 * number of pairs proved, or -1 when memory runs out. */
enum {
    SWEEP_PARTNERS = 2,
    SWEEP_RLIMIT = 400000,
    SWEEP_QUERIES = 160,
    SWEEP_BARREN = 48,
    SWEEP_QUERY_MS = 10000,
    SWEEP_BUDGET_MS = 90000,
    SWEEP_REFINE = 1
};

/* a candidate pair of a round, and what the sweep remembers of each code node's partners */
typedef struct {
    ex_id v, y;    /* code node, program node */
    uint32_t slot; /* its record: v's partners from rec[(v - boundary - 1) * SWEEP_PARTNERS] */
    uint32_t depth;
    uint8_t width;
    uint8_t wdiff; /* 0: v's width is y's */
} sw_cand;
typedef struct {
    ex_id y;       /* 0: free */
    uint64_t fp;   /* the query's fingerprint when it last failed */
    bool failed;   /* its query with that fingerprint was not unsat */
    bool dead;     /* a real difference (the model replayed): never asked again */
} sw_rec;

static int sw_cand_cmp(const void *p, const void *q)
{
    const sw_cand *a = p, *b = q;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    if (a->wdiff != b->wdiff)
        return a->wdiff < b->wdiff ? -1 : 1;
    if (a->width != b->width)
        return a->width < b->width ? -1 : 1;
    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    return a->v < b->v ? -1 : a->v > b->v;
}

/* sweep_regions — in[v] bit 0: v is in a pending limb's program region, bit 1: in its code region (what the limb's
 * cut query reaches from its roots without passing a cut node). 0, or -1 when memory runs out. */
static int sweep_regions(run *R, ex_ctx *x, lf_ctx *l, ex_id *const *code, ex_id *const *prog,
                         const bool *const *same, uint32_t *cls, uint8_t *width, ir_u128 *lo, ir_u128 *hi,
                         ex_id *members, uint8_t *in, uint8_t *reg)
{
    const ir_func *f = R->f;
    uint32_t cnt = ex_count(x);
    memset(in, 0, (size_t)cnt + 1);
    for (uint32_t j = 0; j < f->narr; j++)
        for (uint32_t i = 0; f->arr[j].is_output && i < f->arr[j].len; i++) {
            ex_id ce = code[j][i], pe = prog[j][i];
            if (same[j][i] || !ce || !pe || ex_has_unknown(x, ce))
                continue;
            uint32_t nmem;
            if (lf_cut_classes(l, ce, pe, cls, width, lo, hi, members, &nmem) < 0)
                return -1;
            memset(reg, 0, (size_t)cnt + 1);
            reg[pe] |= 1;
            reg[ce] |= 2;
            for (ex_id v = cnt; v >= 1; v--) { /* operands have smaller ids */
                const ex_node *n = ex_get(x, v);
                const ex_arg *a = ex_args(x, v);
                for (uint32_t k = 0; reg[v] && !cls[v] && k < n->nargs; k++)
                    reg[a[k].id] |= reg[v];
                in[v] |= reg[v];
            }
        }
    return 0;
}

/* sweep_fingerprint — a hash of the query of pair (v, y) under the classes cls: the nodes it reaches from both
 * roots without passing a cut node, and the forms of the cut nodes it stops at */
static uint64_t sweep_fingerprint(ex_ctx *x, lf_ctx *l, ex_id v, ex_id y, const uint32_t *cls, uint8_t *reg)
{
    ex_id top = v > y ? v : y;
    memset(reg, 0, (size_t)top + 1);
    reg[v] = reg[y] = 1;
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (ex_id u = top; u >= 1; u--) {
        if (!reg[u])
            continue;
        uint64_t z = (uint64_t)u << 1 | (cls[u] != 0);
        if (cls[u])
            z ^= (uint64_t)lf_of(l, u) << 33;
        h = (h ^ z) * 0x100000001b3ull;
        h ^= h >> 29;
        if (cls[u] && u != v && u != y)
            continue;
        const ex_node *n = ex_get(x, u);
        const ex_arg *a = ex_args(x, u);
        for (uint32_t k = 0; k < n->nargs; k++)
            reg[a[k].id] = 1;
    }
    return h;
}

static int sweep(run *R, ex_ctx *x, lf_ctx *l, ex_id boundary, ex_id *const *code, ex_id *const *prog,
                 const bool *const *same, unsigned timeout, uint32_t *cls, uint8_t *width, ir_u128 *lo, ir_u128 *hi,
                 ex_id *members, ir_u128 *ev)
{
    uint32_t cnt = ex_count(x), ncode = cnt - boundary;
    uint64_t *sig = calloc((size_t)cnt + 1, sizeof *sig);
    bool *varies = calloc((size_t)cnt + 1, sizeof *varies);
    uint8_t *in = calloc((size_t)cnt + 1, 1), *reg = calloc((size_t)cnt + 1, 1);
    uint32_t *depth = calloc((size_t)cnt + 1, sizeof *depth);
    bool *swept = calloc((size_t)ncode + 1, sizeof *swept); /* code node boundary + 1 + i aliased by the sweep */
    sw_rec *rec = calloc((size_t)ncode * SWEEP_PARTNERS + 1, sizeof *rec);
    sw_cand *cand = malloc(((size_t)ncode * SWEEP_PARTNERS + 1) * sizeof *cand);
    sig_chains ch = { 0 }; /* chains in increasing id order: the earliest program node first */
    int nsw = -1;
    if (!sig || !varies || !in || !reg || !depth || !swept || !rec || !cand ||
        sample_signatures(R, x, ev, sig, varies) || sig_chains_build(&ch, sig, varies, boundary, true))
        goto out;
    for (ex_id v = 1; v <= cnt; v++) { /* the longest path from a leaf: numbering-independent */
        const ex_node *n = ex_get(x, v);
        const ex_arg *a = ex_args(x, v);
        for (uint32_t k = 0; k < n->nargs; k++)
            if (depth[a[k].id] + 1 > depth[v])
                depth[v] = depth[a[k].id] + 1;
    }
    nsw = 0;
    double t0 = cpu_now();
    unsigned nq = 0, nround = 0, barren = 0;
    uint64_t st = 0x510e527fade682d1ull;
    bool stop = false;
    while (!stop) {
        nround++;
        if (sweep_regions(R, x, l, code, prog, same, cls, width, lo, hi, members, in, reg) < 0) {
            nsw = -1;
            goto out;
        }
        uint32_t nc = 0;
        for (ex_id v = boundary + 1; v <= cnt; v++) {
            if (!(in[v] & 2) || !varies[v] || swept[v - boundary] || ex_has_unknown(x, v))
                continue;
            lf_id s = lf_of(l, v);
            if (!s)
                continue;
            sw_rec *r0 = rec + (size_t)(v - boundary - 1) * SWEEP_PARTNERS;
            unsigned np = 0;
            for (ex_id y = sig_chains_first(&ch, sig, sig[v]); y && np < SWEEP_PARTNERS; y = ch.nxt[y]) {
                if (!(in[y] & 1))
                    continue;
                np++;
                lf_id t = lf_of(l, y);
                if (!t || t == s)
                    continue;
                uint32_t k = 0;
                while (k < SWEEP_PARTNERS && r0[k].y && r0[k].y != y)
                    k++;
                if (k == SWEEP_PARTNERS)
                    continue; /* v's records are full (its partners changed with the regions) */
                if (!r0[k].y)
                    r0[k].y = y;
                if (r0[k].dead)
                    continue;
                cand[nc++] = (sw_cand){ v, y, (uint32_t)(v - boundary - 1) * SWEEP_PARTNERS + k, depth[v],
                                        ex_get(x, v)->width, ex_get(x, v)->width != ex_get(x, y)->width };
            }
        }
        qsort(cand, nc, sizeof *cand, sw_cand_cmp);
        unsigned merged = 0;
        ex_id matched = 0; /* the last program node that a code node of its own width was proved equal to */
        for (uint32_t c = 0; c < nc && !stop; c++) {
            sw_rec *pr = rec + cand[c].slot;
            ex_id v = cand[c].v, y = cand[c].y;
            lf_id t = lf_of(l, y);
            if (swept[v - boundary] || lf_of(l, v) == t) /* merged, or meets y through a merge below it */
                continue;
            if (y == matched && cand[c].wdiff)
                continue; /* y has its partner; a wider code word of its value is a sum with a carry still in it */
            uint32_t nmem;
            int ncls = lf_cut_classes(l, v, y, cls, width, lo, hi, members, &nmem);
            if (ncls < 0) {
                nsw = -1;
                goto out;
            }
            uint64_t fp = sweep_fingerprint(x, l, v, y, cls, reg);
            if (pr->failed && pr->fp == fp)
                continue; /* the same query failed before */
            if (nq >= SWEEP_QUERIES || barren >= SWEEP_BARREN || SWEEP_BUDGET_MS - (cpu_now() - t0) * 1e3 < 50) {
                stop = true;
                break;
            }
            int ok = cut_selftest(R, x, l, members, nmem, ev, &st);
            if (ok < 0) {
                nsw = -1;
                goto out;
            }
            if (!ok)
                continue;
            nq++;
            smt_cuts cuts = { cls, cnt, (uint32_t)ncls, width, lo, hi, SWEEP_RLIMIT, SWEEP_REFINE };
            smt_result sr;
            smt_verdict sv = smt_differ_cut(x, v, y, &cuts, timeout < SWEEP_QUERY_MS ? timeout : SWEEP_QUERY_MS, &sr);
            if (explain_on())
                fprintf(stderr, "sweep round %u: code node %u (w%u) vs program node %u (w%u): %d classes; "
                        "query: %u nodes, %u cut variables, %u refinements: %s%s%s (%.3f s)\n", nround, v,
                        ex_get(x, v)->width, y, ex_get(x, y)->width, ncls, sr.nnodes, sr.ncutvars, sr.refines,
                        smt_verdict_name(sv), sr.err[0] ? ": " : "", sr.err, sr.seconds);
            smt_result_free(&sr);
            if (sv == SMT_EQUAL) {
                if (lf_alias(l, v, t) != 0) {
                    nsw = -1;
                    goto out;
                }
                swept[v - boundary] = true;
                if (!cand[c].wdiff)
                    matched = y;
                barren = 0;
                merged++;
                nsw++;
            } else if (sv == SMT_DIFFERENT) {
                pr->dead = true; /* the model's inputs make them differ: the signatures met by chance */
                barren++;
            } else {
                barren++;
                pr->fp = fp;
                pr->failed = true;
            }
        }
        if (!merged)
            stop = true;
    }
    if (explain_on())
        fprintf(stderr, "sweep: %d pairs proved in %u rounds, %u queries, %.3f s CPU\n", nsw, nround, nq,
                cpu_now() - t0);
out:
    free(sig);
    free(varies);
    free(in);
    free(reg);
    free(depth);
    free(swept);
    free(rec);
    free(cand);
    free(ch.tab);
    free(ch.nxt);
    return nsw;
}

/* cut_limbs — the pending limbs' cut queries in turn (prove_cut): 1 every pending limb proved, 0 one was not (that
 * one and the later ones stay pending), -1 out of memory. Each proved limb is set in same and counted. rlimit: z3's
 * resource limit for each query (0: none; check_cut_sweep's tests set one). */
enum { CUT_TIMEOUT_MS = 10000 }; /* at most this per cut query (those that prove take well under a second) */
static int cut_limbs(run *R, ex_ctx *x, lf_ctx *l, ex_id *const *code, ex_id *const *prog, bool **same,
                     unsigned timeout, uint32_t *cls, uint8_t *width, ir_u128 *lo, ir_u128 *hi, ex_id *members,
                     ir_u128 *ev, uint64_t *st, unsigned rlimit, int *nproved, check_result *r)
{
    const ir_func *f = R->f;
    uint32_t cnt = ex_count(x);
    for (uint32_t j = 0; j < f->narr; j++) {
        if (!f->arr[j].is_output)
            continue;
        for (uint32_t i = 0; i < f->arr[j].len; i++) {
            ex_id ce = code[j][i], pe = prog[j][i];
            if (same[j][i] || !ce || !pe || ex_has_unknown(x, ce))
                continue;
            uint32_t nmem;
            int ncls = lf_cut_classes(l, ce, pe, cls, width, lo, hi, members, &nmem);
            if (ncls < 0)
                return -1;
            if (ncls == 0)
                continue;
            int ok = cut_selftest(R, x, l, members, nmem, ev, st);
            if (ok < 0)
                return -1;
            if (!ok)
                continue;
            smt_cuts cuts = { cls, cnt, (uint32_t)ncls, width, lo, hi, rlimit, 0 };
            smt_result sr;
            smt_verdict sv =
                smt_differ_cut(x, ce, pe, &cuts, timeout < CUT_TIMEOUT_MS ? timeout : CUT_TIMEOUT_MS, &sr);
            if (explain_on())
                fprintf(stderr,
                        "cut limb %u: %d classes (%u nodes); query: %u nodes, %u cut variables, %u cut sums inside "
                        "sums: %s%s%s (%.3f s)\n",
                        i, ncls, nmem, sr.nnodes, sr.ncutvars, sr.nresums, smt_verdict_name(sv), sr.err[0] ? ": " : "",
                        sr.err, sr.seconds);
            smt_result_free(&sr);
            if (sv != SMT_EQUAL)
                return 0; /* the other limbs' cut queries would most likely fare no better: one timeout at most */
            same[j][i] = true;
            r->nlimbs_smt++;
            (*nproved)++;
        }
    }
    return 1;
}

/* prove_cut — the limbs still pending after the linear forms, asked of z3 with cut-points (smt_differ_cut): the
 * program and the code are run into a raw context again (as prove_linear does), and every node that has the same
 * exact linear form as a node of the other side's cone becomes its class's free variable, so the query holds only
 * what lies between the last shared words and the limbs (for a Montgomery multiply, the final conditional
 * subtraction over the words of T). Before a limb's query, every class member's form is evaluated on 4 inputs
 * against its expression (lf_check_eval, the self-test prove_linear makes): a mismatch, a checker bug, leaves the
 * limb to the uncut query. unsat proves the limb (counted as by z3). The first limb whose query is not unsat stops
 * the limbs' queries; unless no_sweep, the sweep then proves what pairs of nodes it can, and when it proved any, the
 * limbs still pending are asked again (a subject the cut queries prove pays nothing for the sweep). A limb left
 * unproved here, and every later one, goes to the uncut query (a model of a cut query is no counterexample;
 * stopping at the first failure bounds the time a subject that cuts do not prove spends here by one timeout per
 * round, each at most CUT_TIMEOUT_MS, plus the sweep's bounded work). Returns the number of limbs proved, or -1 when
 * memory runs out. */
static int prove_cut(run *R, bool **same, const uint32_t *argmap, const check_insn_list *insns, bool no_red_zone,
                     unsigned timeout, bool no_sweep, check_result *r)
{
    const ir_func *f = R->f;
    raw_run w;
    uint32_t *cls = NULL;
    uint8_t *width = NULL;
    ir_u128 *lo = NULL, *hi = NULL, *ev = NULL;
    ex_id *members = NULL;
    int made = raw_run_make(&w, R, argmap, insns, no_red_zone);
    int nproved = made < 0 ? -1 : 0;
    ex_ctx *x = w.x;
    lf_ctx *l = w.l;
    ex_id **prog = w.prog, **code = w.code, boundary = w.boundary;
    if (made <= 0)
        goto out;
    for (uint32_t j = 0; j < f->narr; j++)
        for (uint32_t i = 0; f->arr[j].is_output && i < f->arr[j].len; i++)
            if (code[j][i] && !(code[j][i] = ex_trunc(x, 64, code[j][i]))) {
                nproved = -1;
                goto out;
            }
    uint32_t cnt = ex_count(x); /* no node is made below this point */
    cls = malloc(((size_t)cnt + 1) * sizeof *cls);
    width = malloc((size_t)cnt + 1);
    lo = malloc(((size_t)cnt + 1) * sizeof *lo);
    hi = malloc(((size_t)cnt + 1) * sizeof *hi);
    ev = malloc(((size_t)cnt + 1) * sizeof *ev);
    members = malloc(((size_t)cnt + 1) * sizeof *members);
    if (!cls || !width || !lo || !hi || !ev || !members) {
        nproved = -1;
        goto out;
    }
    uint64_t st = 0x5be0cd19137e2179ull;
    int rc = cut_limbs(R, x, l, code, prog, same, timeout, cls, width, lo, hi, members, ev, &st, 0, &nproved, r);
    if (rc == 0 && !no_sweep) {
        int ns = sweep(R, x, l, boundary, code, prog, (const bool *const *)same, timeout, cls, width, lo, hi, members,
                       ev);
        if (ns > 0) {
            r->nswept += (unsigned)ns;
            rc = cut_limbs(R, x, l, code, prog, same, timeout, cls, width, lo, hi, members, ev, &st, 0, &nproved, r);
        } else if (ns < 0)
            rc = -1;
    }
    if (rc < 0)
        nproved = -1;
out:
    free(cls);
    free(width);
    free(lo);
    free(hi);
    free(ev);
    free(members);
    raw_run_free(&w);
    return nproved;
}

int check_cut_sweep(const ir_func *f, ex_ctx *x, ex_id boundary, ex_id c, ex_id p, unsigned rlimit, bool do_sweep,
                    unsigned *nswept)
{
    run R;
    memset(&R, 0, sizeof R);
    R.f = f;
    R.x = x;
    uint32_t total = 0, oa = f->narr;
    for (uint32_t j = 0; j < f->narr; j++) {
        total += f->arr[j].len;
        if (f->arr[j].is_output && oa == f->narr)
            oa = j;
    }
    uint32_t cnt = ex_count(x);
    ex_id cc = c, pp = p, *cp = &cc, *pq = &pp, **codes = calloc(f->narr, sizeof *codes),
          **progs = calloc(f->narr, sizeof *progs);
    bool same0 = false, *sp = &same0, **same = calloc(f->narr, sizeof *same);
    R.in = calloc(f->narr, sizeof *R.in);
    R.inbuf = calloc(total ? total : 1, sizeof *R.inbuf);
    lf_ctx *l = lf_new(x);
    uint32_t *cls = malloc(((size_t)cnt + 1) * sizeof *cls);
    uint8_t *width = malloc((size_t)cnt + 1);
    ir_u128 *lo = malloc(((size_t)cnt + 1) * sizeof *lo), *hi = malloc(((size_t)cnt + 1) * sizeof *hi),
            *ev = malloc(((size_t)cnt + 1) * sizeof *ev);
    ex_id *members = malloc(((size_t)cnt + 1) * sizeof *members);
    check_result *r = calloc(1, sizeof *r);
    int rc = -1;
    *nswept = 0;
    if (oa == f->narr || f->arr[oa].len != 1 || !codes || !progs || !same || !R.in || !R.inbuf || !l || !cls ||
        !width || !lo || !hi || !ev || !members || !r)
        goto out;
    for (uint32_t j = 0, at = 0; j < f->narr; at += f->arr[j].len, j++)
        if (!f->arr[j].is_output)
            R.in[j] = R.inbuf + at;
    codes[oa] = cp;
    progs[oa] = pq;
    same[oa] = sp;
    R.code = codes;
    R.prog = progs;
    uint64_t st = 0x5be0cd19137e2179ull;
    int np = 0;
    rc = cut_limbs(&R, x, l, codes, progs, same, CUT_TIMEOUT_MS, cls, width, lo, hi, members, ev, &st, rlimit, &np, r);
    if (rc == 0 && do_sweep) {
        int ns = sweep(&R, x, l, boundary, codes, progs, (const bool *const *)same, CUT_TIMEOUT_MS, cls, width, lo, hi,
                       members, ev);
        if (ns > 0) {
            *nswept = (unsigned)ns;
            rc = cut_limbs(&R, x, l, codes, progs, same, CUT_TIMEOUT_MS, cls, width, lo, hi, members, ev, &st, rlimit,
                           &np, r);
        } else if (ns < 0)
            rc = -1;
    }
    rc = rc < 0 ? -1 : same0;
out:
    free(codes);
    free(progs);
    free(same);
    free(R.in);
    free(R.inbuf);
    lf_free(l);
    free(cls);
    free(width);
    free(lo);
    free(hi);
    free(ev);
    free(members);
    free(r);
    return rc;
}

/* sample_all — evaluate every non-identical output limb of both on nsamples inputs within the declared bounds
 * (edges often), all limbs per evaluation, and on the inputs at the prime's edges (edge_samples) after the two
 * corners. 1 with r filled (OUTPUT_DIFFERS) when some limb differs, 0 none, -1 no
 * memory. */
static int sample_all(run *R, unsigned nsamples, const bool *const *same, check_result *r)
{
    const ir_func *f = R->f;
    uint32_t n = ex_count(R->x);
    ir_u128 *vals = malloc(((size_t)n + 1) * sizeof *vals);
    if (!vals)
        return -1;
    uint64_t st = 0x6a09e667f3bcc908u;
    int found = 0;
    uint32_t total = 0;
    for (uint32_t j = 0; j < f->narr; j++)
        total += f->arr[j].len;
    unsigned nedge = 0, ncorner = nsamples < 2 ? nsamples : 2;
    uint64_t *edges = edge_samples(R, total, &nedge); /* none also when memory runs out: they only add samples */
    for (unsigned it = 0; it < nsamples + nedge && !found; it++) {
        bool edge = it >= ncorner && it < ncorner + nedge;
        if (edge)
            memcpy(R->inbuf, edges + (size_t)(it - ncorner) * total, total * sizeof *edges);
        else
            fill_inputs(R, it < ncorner ? it : it - nedge, &st);
        tie_inputs(R);
        if (ex_eval_all(R->x, (const uint64_t *const *)R->in, vals) != 0) {
            free(vals);
            return -1;
        }
        for (uint32_t j = 0; j < f->narr && !found; j++) {
            if (!f->arr[j].is_output)
                continue;
            for (uint32_t i = 0; i < f->arr[j].len && !found; i++) {
                if (same[j][i])
                    continue;
                ir_u128 vp = vals[R->prog[j][i]], vc = vals[R->code[j][i]];
                if (vp != vc) {
                    found = 1;
                    char nm[IR_NAME_MAX + 16];
                    limb_name(f, j, i, nm, sizeof nm);
                    r->verdict = CHECK_REJECTED;
                    r->rule = CHECK_RULE_OUTPUT_DIFFERS;
                    snprintf(r->reason, sizeof r->reason,
                             "output limb %u (%s) differs from the program on a sampled input%s (see counterexample)",
                             i, nm, edge ? " at the prime's edges" : "");
                    cex_text(f, R->in, NULL, j, i, vc, vp, r->cex, sizeof r->cex);
                }
            }
        }
    }
    free(vals);
    free(edges);
    return found;
}

/* check_case — the whole proof in one aliasing case (same_as, check_exec_case; NULL: disjoint) */
static check_verdict check_case(const ir_func *f0, const check_code *code, const check_opts *o, const int32_t *same_as,
                                check_result *r)
{
    double t0 = now();
    memset(r, 0, sizeof *r);
    check_opts dflt = { false, 0, 0, false };
    if (!o)
        o = &dflt;
    unsigned timeout = o->timeout_ms ? o->timeout_ms : 60000, nsamples = o->nsamples ? o->nsamples : 64;
    if (!f0 || !code)
        return bad(r, "no program or no code");
    if (f0->narr == 0 || f0->narr > 16)
        return bad(r, "the program must have 1 to 16 arrays");
    ir_func *f = ir_func_clone(f0);
    if (!f)
        return bad(r, "out of memory");
    check_verdict v = CHECK_PROVED;
    char msg[1024];
    ex_ctx *x = NULL;
    run R = { f, NULL, NULL, NULL, NULL, NULL, same_as };
    bool **same = NULL;
    check_insn_list insns = { NULL, 0 };
    /* equal inputs (same_as[b] = a, alias_cases): the program runs on b := a, its loads of b made loads of a, whose
     * values lie in both arrays' bounds */
    for (uint32_t b = 0; same_as && b < f->narr; b++) {
        int32_t a = same_as[b];
        if (f->arr[b].is_output || a < 0)
            continue;
        if ((uint32_t)a >= f->narr || f->arr[a].is_output || f->arr[a].len != f->arr[b].len) {
            v = bad(r, "an aliasing case with unequal inputs");
            goto out;
        }
        for (uint32_t i = 0; i < f->arr[b].len; i++) {
            ir_u128 lo = f->arr[a].lo[i] > f->arr[b].lo[i] ? f->arr[a].lo[i] : f->arr[b].lo[i];
            ir_u128 hi = f->arr[a].hi[i] < f->arr[b].hi[i] ? f->arr[a].hi[i] : f->arr[b].hi[i];
            f->arr[a].lo[i] = f->arr[b].lo[i] = lo;
            f->arr[a].hi[i] = f->arr[b].hi[i] = hi;
        }
        for (uint32_t k = 0; k < f->nnode; k++)
            if (f->node[k].op == IR_LOAD && f->node[k].arr == b)
                f->node[k].arr = (uint32_t)a;
    }
    if (ir_validate(f) != 0 || ir_bounds(f) != 0) {
        snprintf(msg, sizeof msg, "the program does not validate: %s", f->err);
        v = bad(r, msg);
        goto out;
    }
    uint32_t nout = 0, total = 0;
    for (uint32_t j = 0; j < f->narr; j++) {
        nout += f->arr[j].is_output;
        total += f->arr[j].len;
    }
    if (nout == 0) {
        v = bad(r, "the program has no output array");
        goto out;
    }
    /* the bytes and the name first: a proof of bytes that the callers of the name do not run proves nothing */
    if (code->flaw != CHECK_CODE_SOUND) {
        v = reject(r, code->flaw == CHECK_CODE_RELOCATION ? CHECK_RULE_RELOCATION : CHECK_RULE_SYMBOL,
                   code->flaw_reason);
        goto out;
    }
    x = ex_ctx_new();
    R.x = x;
    R.prog = calloc(f->narr, sizeof *R.prog);
    R.code = calloc(f->narr, sizeof *R.code);
    R.in = calloc(f->narr, sizeof *R.in);
    same = calloc(f->narr, sizeof *same);
    R.inbuf = calloc(total ? total : 1, sizeof *R.inbuf);
    ex_id *ids = calloc(2 * (size_t)(total ? total : 1), sizeof *ids);
    bool *sbuf = calloc(total ? total : 1, sizeof *sbuf);
    if (!x || !R.prog || !R.code || !R.in || !same || !R.inbuf || !ids || !sbuf) {
        free(ids);
        free(sbuf);
        v = bad(r, "out of memory");
        goto out;
    }
    /* ids and sbuf are owned through R.prog[0]... : keep the base pointers for freeing */
    {
        size_t at = 0;
        for (uint32_t j = 0; j < f->narr; j++) {
            R.prog[j] = ids + at;
            R.code[j] = ids + total + at;
            R.in[j] = R.inbuf + at;
            same[j] = sbuf + at;
            at += f->arr[j].len;
        }
    }

    /* the program */
    char err[512];
    if (ir_sym_run(x, f, R.prog, err, sizeof err) != 0) {
        v = bad(r, err);
        goto out;
    }
    /* the code */
    if (check_decode_code(code, &insns, err, sizeof err) != 0) {
        snprintf(msg, sizeof msg, "the code does not decode: %s", err);
        v = reject(r, CHECK_RULE_UNKNOWN_INSN, msg);
        goto out;
    }
    uint32_t argmap[16];
    check_exec_argmap(f, argmap);
    int rc = check_exec_case(x, f, argmap, &insns, o->no_red_zone, same_as, R.code, r);
    if (rc != 0) {
        v = rc > 0 ? CHECK_REJECTED : CHECK_BAD_INPUT;
        r->verdict = v;
        goto out;
    }
    r->seconds_exec = now() - t0;

    /* compare: identical normal forms first, every limb */
    double ts = now();
    unsigned pending = 0;
    for (uint32_t j = 0; j < f->narr && v == CHECK_PROVED; j++) {
        if (!f->arr[j].is_output)
            continue;
        for (uint32_t i = 0; i < f->arr[j].len; i++) {
            char nm[IR_NAME_MAX + 16];
            limb_name(f, j, i, nm, sizeof nm);
            r->nlimbs++;
            if (!R.code[j][i]) {
                snprintf(msg, sizeof msg, "output limb %u (%s) is never stored", i, nm);
                v = reject(r, CHECK_RULE_OUTPUT_MISSING, msg);
                break;
            }
            if (!R.prog[j][i]) {
                snprintf(msg, sizeof msg, "the program never stores %s", nm);
                v = bad(r, msg);
                break;
            }
            R.code[j][i] = ex_trunc(x, 64, R.code[j][i]);
            if (!R.code[j][i]) {
                v = bad(r, ex_err(x));
                break;
            }
            if (R.code[j][i] == R.prog[j][i]) {
                same[j][i] = true;
                r->nlimbs_identical++;
            } else if (ex_has_unknown(x, R.code[j][i])) {
                snprintf(msg, sizeof msg,
                         "output limb %u (%s) depends on a value the function did not compute (an undefined flag or "
                         "a register's value at entry)",
                         i, nm);
                v = reject(r, CHECK_RULE_UNKNOWN_VALUE, msg);
                break;
            } else
                pending++;
        }
    }
    if (v == CHECK_PROVED && pending > 0) {
        int lr = prove_linear(&R, same, argmap, &insns, o->no_red_zone, false, r);
        if (lr < 0) {
            v = bad(r, "out of memory");
            goto timed;
        }
        pending -= (unsigned)lr;
    }
    if (v != CHECK_PROVED || pending == 0)
        goto timed;
    /* sampling can only refute; it runs first so that a broken function is rejected without the solver */
    int s = sample_all(&R, nsamples, (const bool *const *)same, r);
    if (s != 0) {
        v = s > 0 ? CHECK_REJECTED : bad(r, "out of memory");
        goto timed;
    }
    { /* the linear forms again, with the range rule's aliases (after sampling: it costs more) */
        int lr = prove_linear(&R, same, argmap, &insns, o->no_red_zone, true, r);
        if (lr < 0) {
            v = bad(r, "out of memory");
            goto timed;
        }
        pending -= (unsigned)lr;
        if (pending == 0)
            goto timed;
    }
    { /* z3 with cut-points at the words both sides share (prove_cut), before the uncut queries */
        bool no_sweep = o->no_sweep || (getenv("ECOPT_NO_SWEEP") && strcmp(getenv("ECOPT_NO_SWEEP"), "0") != 0);
        int cr = prove_cut(&R, same, argmap, &insns, o->no_red_zone, timeout, no_sweep, r);
        if (cr < 0) {
            v = bad(r, "out of memory");
            goto timed;
        }
        pending -= (unsigned)cr;
        if (pending == 0)
            goto timed;
    }
    for (uint32_t j = 0; j < f->narr && v == CHECK_PROVED; j++) {
        if (!f->arr[j].is_output)
            continue;
        for (uint32_t i = 0; i < f->arr[j].len && v == CHECK_PROVED; i++) {
            if (same[j][i])
                continue;
            char nm[IR_NAME_MAX + 16];
            limb_name(f, j, i, nm, sizeof nm);
            smt_result sr;
            memset(&sr, 0, sizeof sr);
            smt_verdict sv = smt_differ(x, R.code[j][i], R.prog[j][i], timeout, &sr);
            if (sv == SMT_EQUAL) {
                r->nlimbs_smt++;
            } else if (sv == SMT_DIFFERENT) {
                for (uint32_t k = 0; k < sr.ncex; k++)
                    if (sr.cex[k].arr < f->narr && sr.cex[k].limb < f->arr[sr.cex[k].arr].len)
                        R.in[sr.cex[k].arr][sr.cex[k].limb] = sr.cex[k].v;
                tie_inputs(&R);
                /* limbs the counterexample does not read are printed as "_" */
                bool **used = calloc(f->narr, sizeof *used);
                bool *ub = calloc(total, sizeof *ub);
                if (used && ub) {
                    size_t at = 0;
                    for (uint32_t q = 0; q < f->narr; q++) {
                        used[q] = ub + at;
                        at += f->arr[q].len;
                    }
                    for (uint32_t k = 0; k < sr.ncex; k++)
                        if (sr.cex[k].arr < f->narr && sr.cex[k].limb < f->arr[sr.cex[k].arr].len)
                            used[sr.cex[k].arr][sr.cex[k].limb] = true;
                    for (uint32_t q = 0; q < f->narr; q++) /* an input equal to another shows the other's values */
                        for (uint32_t i2 = 0; same_as && !f->arr[q].is_output && same_as[q] >= 0 && i2 < f->arr[q].len;
                             i2++)
                            used[q][i2] = used[same_as[q]][i2];
                }
                snprintf(msg, sizeof msg, "output limb %u (%s) differs from the program (solver counterexample)", i,
                         nm);
                v = reject(r, CHECK_RULE_OUTPUT_DIFFERS, msg);
                cex_text(f, R.in, used && ub ? (const bool *const *)used : NULL, j, i, sr.va, sr.vb, r->cex,
                         sizeof r->cex);
                free(used);
                free(ub);
            } else if (sv == SMT_UNKNOWN) {
                snprintf(msg, sizeof msg, "unproved: output limb %u (%s): %s", i, nm, sr.err);
                v = reject(r, CHECK_RULE_UNPROVED, msg);
            } else {
                snprintf(msg, sizeof msg, "solver: %s", sr.err);
                v = bad(r, msg);
            }
            smt_result_free(&sr);
        }
    }
timed:
    r->seconds_smt = now() - ts;
out:
    if (R.prog) {
        free(R.prog[0]);
        free(same ? same[0] : NULL);
    }
    free(R.prog);
    free(R.code);
    free(R.in);
    free(R.inbuf);
    free(same);
    check_insn_list_free(&insns);
    ex_ctx_free(x);
    ir_func_free(f);
    r->verdict = v;
    r->seconds_total = now() - t0;
    return v;
}

/* Aliasing (check.h): every case the program allows is proved on its own, each output disjoint from the inputs or
 * equal to one input it may alias (ir_array.alias; no two outputs equal to one input), with the program evaluated
 * on the original input values. Inputs are read-only, so two of them may always be equal; that matters only when
 * an output equals both (fe_mul(h, h, h)): then the case out1 == arg1 == arg2 is proved too, one memory for the
 * three (same length, and bounds that meet; else the case cannot occur), the program evaluated with arg2's loads
 * made loads of arg1 (check_case) and the code with arg2's loads made arg1's (check_exec_case). A case whose code
 * computes, in one expression context, the very same output nodes as the disjoint case (the loads that see a store
 * read nothing that differs) is proved by the disjoint case's proof: the nodes are the same functions of the
 * inputs. With equal inputs the reference is the disjoint case executed with arg2's loads made arg1's leaves: its
 * nodes are the disjoint nodes with arg2 := arg1, and the disjoint proof, for every arg2, holds for arg2 = arg1.
 * Any other case runs the whole proof again. */
enum { MAX_ALIAS_CASES = 256 };

/* meet — do inputs a and b have the same length and, limb by limb, bounds that meet? */
static bool meet(const ir_func *f, uint32_t a, uint32_t b)
{
    if (f->arr[a].len != f->arr[b].len)
        return false;
    for (uint32_t i = 0; i < f->arr[a].len; i++)
        if (f->arr[a].lo[i] > f->arr[b].hi[i] || f->arr[b].lo[i] > f->arr[a].hi[i])
            return false;
    return true;
}

/* alias_cases — the cases after the disjoint one, each a same_as vector of f->narr entries (check_exec_case), into
 * cases (room for MAX_ALIAS_CASES): first every case with each output equal to at most one input, then those with
 * an output equal to two or more inputs; returns how many, or -1 when there are more */
static int alias_cases(const ir_func *f, int32_t (*cases)[16])
{
    uint32_t outs[16], no = 0;
    uint64_t allow[16], inputs = 0;
    for (uint32_t j = 0; j < f->narr && j < 64; j++)
        if (!f->arr[j].is_output)
            inputs |= (uint64_t)1 << j;
    for (uint32_t j = 0; j < f->narr; j++)
        if (f->arr[j].is_output) {
            allow[no] = f->arr[j].alias & inputs;
            outs[no++] = j;
        }
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        /* an odometer over the outputs' choices: each a subset of the inputs it may alias, in increasing order */
        uint64_t cur[16] = { 0 }, steps = 0;
        for (;;) {
            if (++steps > (uint64_t)1 << 22)
                return -1; /* so many choices that the cases would be far more than MAX_ALIAS_CASES */
            uint32_t k = 0;
            for (; k < no; k++) {
                cur[k] = (cur[k] - allow[k]) & allow[k]; /* the next subset of allow[k] (0 after the last) */
                if (cur[k])
                    break;
            }
            if (k == no)
                break;
            bool ok = true, multi = false;
            uint64_t used = 0;
            int32_t c[16];
            for (uint32_t q = 0; q < 16; q++)
                c[q] = -1;
            for (uint32_t a = 0; a < no && ok; a++) {
                if (cur[a] & used)
                    ok = false; /* two outputs equal to one input: they would be equal to each other */
                used |= cur[a];
                if (!cur[a])
                    continue;
                uint32_t rep = (uint32_t)__builtin_ctzll(cur[a]);
                c[outs[a]] = (int32_t)rep;
                for (uint64_t m = cur[a] & (cur[a] - 1); m && ok; m &= m - 1) {
                    uint32_t b = (uint32_t)__builtin_ctzll(m);
                    multi = true;
                    ok = meet(f, rep, b) && f->arr[outs[a]].len == f->arr[rep].len;
                    c[b] = (int32_t)rep;
                }
            }
            if (!ok || multi != (pass == 1))
                continue;
            if (n == MAX_ALIAS_CASES)
                return -1;
            memcpy(cases[n++], c, sizeof c);
        }
    }
    return n;
}

/* case_name — "out1 == arg1", "out1 == arg1, out2 == arg3", "out1 == arg1 == arg2" */
static void case_name(const ir_func *f, const int32_t *same_as, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (uint32_t j = 0; j < f->narr && o < len; j++)
        if (f->arr[j].is_output && same_as[j] >= 0) {
            int n = snprintf(buf + o, len - o, "%s%s == %s", o ? ", " : "", f->arr[j].name, f->arr[same_as[j]].name);
            o += n > 0 ? (size_t)n : 0;
            for (uint32_t k = 0; k < f->narr && o < len; k++)
                if (!f->arr[k].is_output && same_as[k] == same_as[j]) {
                    n = snprintf(buf + o, len - o, " == %s", f->arr[k].name);
                    o += n > 0 ? (size_t)n : 0;
                }
        }
}

/* same_outputs — in one scratch context: does the code in case same_as reach the same output nodes as disjoint
 * (with equal inputs: as disjoint with those inputs' loads made the same leaves)? 1 yes, 0 no (or the case breaks
 * a rule: *cr holds the rejection), -1 the executor failed (memory). */
static int same_outputs(const ir_func *f0, const check_insn_list *insns, const uint32_t *argmap, bool no_red_zone,
                        const int32_t *same_as, check_result *cr)
{
    ir_func *f = ir_func_clone(f0);
    ex_ctx *x = ex_ctx_new();
    uint32_t total = 0;
    int ret = -1;
    ex_id *ids = NULL, *a[16] = { 0 }, *b[16] = { 0 };
    if (!f || !x || ir_validate(f) != 0 || ir_bounds(f) != 0)
        goto out;
    for (uint32_t j = 0; j < f->narr; j++)
        total += f->arr[j].len;
    ids = calloc(2 * (size_t)(total ? total : 1), sizeof *ids);
    if (!ids)
        goto out;
    for (uint32_t j = 0, at = 0; j < f->narr; at += f->arr[j].len, j++) {
        a[j] = ids + at;
        b[j] = ids + total + at;
    }
    /* the reference: the disjoint case, but with equal inputs tied as in this case (its nodes are the disjoint
     * case's with arg2's leaves made arg1's, so the disjoint proof covers them for arg2 = arg1) */
    int32_t ref[16];
    bool tied = false;
    for (uint32_t j = 0; j < 16; j++) {
        ref[j] = j < f->narr && !f->arr[j].is_output ? same_as[j] : -1;
        tied |= ref[j] >= 0;
    }
    memset(cr, 0, sizeof *cr);
    if (check_exec_case(x, f, argmap, insns, no_red_zone, tied ? ref : NULL, a, cr) != 0)
        goto out; /* the disjoint case passed this (tied: the same code on fewer values): only memory fails here */
    memset(cr, 0, sizeof *cr);
    int rc = check_exec_case(x, f, argmap, insns, no_red_zone, same_as, b, cr);
    if (rc != 0) {
        ret = rc > 0 ? 0 : -1;
        goto out;
    }
    ret = 1;
    for (uint32_t j = 0; j < f->narr; j++)
        for (uint32_t i = 0; f->arr[j].is_output && i < f->arr[j].len; i++)
            if (a[j][i] != b[j][i])
                ret = 0;
out:
    free(ids);
    ex_ctx_free(x);
    ir_func_free(f);
    return ret;
}

check_verdict check_function(const ir_func *f0, const check_code *code, const check_opts *o, check_result *r)
{
    double t0 = now();
    check_verdict v = check_case(f0, code, o, NULL, r);
    if (v != CHECK_PROVED)
        return v;
    int32_t (*cases)[16] = malloc(MAX_ALIAS_CASES * sizeof *cases);
    if (!cases)
        return bad(r, "out of memory");
    int n = alias_cases(f0, cases);
    check_insn_list insns = { NULL, 0 };
    char err[512];
    if (n < 0) {
        v = bad(r, "the program allows more than 256 aliasing cases");
        goto out;
    }
    r->ncases = 1;
    if (n == 0)
        goto out;
    if (check_decode_code(code, &insns, err, sizeof err) != 0) {
        v = bad(r, "the code does not decode a second time");
        goto out;
    }
    uint32_t argmap[16];
    check_exec_argmap(f0, argmap);
    check_result *cr = malloc(sizeof *cr);
    if (!cr) {
        v = bad(r, "out of memory");
        goto out;
    }
    bool no_red_zone = o ? o->no_red_zone : false;
    for (int c = 0; c < n && v == CHECK_PROVED; c++) {
        r->ncases++;
        int same = same_outputs(f0, &insns, argmap, no_red_zone, cases[c], cr);
        if (same == 1) {
            r->ncases_same++;
            continue;
        }
        if (same < 0) {
            v = bad(r, "out of memory");
            break;
        }
        if (cr->verdict != CHECK_REJECTED) {
            v = check_case(f0, code, o, cases[c], cr);
            cr->seconds_total += r->seconds_total;
            cr->ncases = r->ncases;
            cr->ncases_same = r->ncases_same;
        }
        v = cr->verdict;
        if (v != CHECK_PROVED) {
            unsigned nc = r->ncases, ns = r->ncases_same;
            *r = *cr;
            r->ncases = nc;
            r->ncases_same = ns;
            case_name(f0, cases[c], r->alias_case, sizeof r->alias_case);
        }
    }
    free(cr);
out:
    free(cases);
    check_insn_list_free(&insns);
    r->verdict = v;
    r->seconds_total = now() - t0;
    return v;
}

check_verdict check_file(const ir_func *f, const char *path, const char *symbol, const check_opts *o,
                         check_result *r)
{
    memset(r, 0, sizeof *r);
    check_code code;
    char err[512];
    if (check_code_read(path, symbol, &code, err, sizeof err) != 0)
        return bad(r, err);
    check_verdict v = check_function(f, &code, o, r);
    check_code_free(&code);
    return v;
}
