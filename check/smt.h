/* smt.h — "can expression a differ from expression b?" as a z3 bit-vector query (where normal forms
 * differ, the solver decides). Each node becomes a bit-vector term of its width with its exact semantics, except
 * products of two non-constant operands: each becomes the uninterpreted pair mul_lo(a, b), mul_hi(a, b) (64-bit
 * operand terms, operands ordered by id, as the normal form has them), full product = mul_hi : mul_lo, constrained
 * only by the product's interval bounds (true of the real product). Products by a constant are sums (c * x) and
 * stay bit-vector arithmetic. Input limbs are 64-bit variables constrained to their declared bounds.
 *
 * unsat means the two can never differ (for inputs within bounds): the abstraction over-approximates
 * multiplication, so a proof with it holds for the real one. A model may be spurious (the uninterpreted product
 * is not the real one): it is checked by concrete evaluation (ex_eval) and only a model under which a and b really
 * differ gives SMT_DIFFERENT; any other outcome is SMT_UNKNOWN with a reason. */
#ifndef ECOPT_CHECK_SMT_H
#define ECOPT_CHECK_SMT_H

#include <stdint.h>

#include "check/expr.h"

typedef enum {
    SMT_EQUAL,     /* unsat: a == b for every input within bounds */
    SMT_DIFFERENT, /* a counterexample, verified by concrete evaluation */
    SMT_UNKNOWN,   /* timeout, solver gave up, or its model is spurious (err says which) */
    SMT_ERROR      /* bad request: an unknown value is used, out of memory (err says which) */
} smt_verdict;

typedef struct {
    uint32_t arr, limb;
    uint64_t v;
} smt_limb;

typedef struct {
    smt_verdict verdict;
    smt_limb *cex;      /* SMT_DIFFERENT: every input limb a or b reads (free with smt_result_free) */
    uint32_t ncex;
    ir_u128 va, vb;     /* SMT_DIFFERENT: the values of a and b under cex (va != vb) */
    bool sampled;       /* SMT_DIFFERENT found by smt_differ_sampled's sampling, not by the solver */
    double seconds;     /* wall time of the query (translation and solving) */
    uint32_t nnodes;    /* the query's size: nodes translated term by term, */
    uint32_t ncutvars;  /* ... cut-point variables made (smt_differ_cut), */
    uint32_t nresums;   /* ... and cut sums found inside other sums (smt_differ_cut) */
    uint32_t refines;   /* ... and how many times its cuts were refined (smt_differ_cut: the last query's size) */
    char err[256];
} smt_result;

/* smt_differ — decide whether a and b (zero-extended) can differ; timeout_ms 0 = no limit. Fills r and returns
 * r->verdict. */
smt_verdict smt_differ(ex_ctx *x, ex_id a, ex_id b, unsigned timeout_ms, smt_result *r);
/* smt_differ_sampled — first evaluate a and b on nsamples pseudo-random inputs within bounds (ex_eval; edges
 * often): a difference is SMT_DIFFERENT with that input (r->sampled); otherwise smt_differ. Never EQUAL on the
 * strength of samples. */
smt_verdict smt_differ_sampled(ex_ctx *x, ex_id a, ex_id b, unsigned nsamples, unsigned timeout_ms, smt_result *r);
void smt_result_free(smt_result *r);

/* Cut-points (A. Kuehlmann, F. Krohm, "Equivalence checking using cuts and heaps", DAC 1997). The caller groups
 * nodes it has PROVED equal, as integers, for every input within the bounds (the same node, the same exact linear
 * form (lf.h), or an earlier unsat answer) into classes; smt_differ_cut then translates every node of a class that
 * the query reaches as one fresh variable of the class's width, constrained only to the class's bounds [lo, hi]
 * (which every member's value lies within), and leaves what lies below a cut node out of the query (unless reached
 * by another way). The rule: for any input, giving each class variable the common value of its members turns a
 * real difference of a and b into a model of the cut query, so unsat with cuts is unsat without them (a cut only
 * widens the space of values: SMT_EQUAL is a proof). The converse fails: the cut loses what relates two cut values
 * (or a cut value and the inputs), so a model is NOT a counterexample: it is replayed on the real expressions from
 * its input values alone, and unless they really differ there the verdict is SMT_UNKNOWN (never SMT_DIFFERENT).
 * Constants and input leaves are never cut. A class width of w needs hi < 2^w; each member is seen at its own
 * width, so hi must also be below 2^width of every member (true of a value equal to it). */
typedef struct {
    const uint32_t *cls;    /* cls[id] for ids 1..nnodes: its class 1..ncls, or 0 (not cut) */
    uint32_t nnodes, ncls;
    const uint8_t *width;   /* per class 1..ncls: 1..128 */
    const ir_u128 *lo, *hi; /* per class 1..ncls: bounds of the common value */
    unsigned rlimit;        /* z3's resource limit for the query ("rlimit": deterministic, unlike a timeout); 0 none */
    unsigned refine;        /* at most this many refinements of the cuts (below); 0 none */
} smt_cuts;
/* smt_differ_cut — smt_differ with cut-points (NULL cuts: smt_differ). A model that the real expressions do not
 * confirm is examined: every class whose variable it gives a value that the class's node does not take on the
 * model's inputs is uncut (its nodes are translated from their operands, which may themselves be cut), and the
 * query is asked again, at most cuts->refine more times, within timeout_ms together, each with cuts->rlimit
 * (counterexample-guided refinement of the abstraction, as for the products). Uncutting keeps the rule above: any subset of the classes is a set of proved classes, so an unsat
 * answer in any round is a proof; a confirmed model is a real difference of a and b. Refinement suits small
 * queries (the sweep's): a large query uncut may cost the whole timeout where the cut one failed at once. */
smt_verdict smt_differ_cut(ex_ctx *x, ex_id a, ex_id b, const smt_cuts *cuts, unsigned timeout_ms, smt_result *r);
const char *smt_verdict_name(smt_verdict v);

#endif
