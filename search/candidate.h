/* candidate.h — a point of the optimizer's search space (DESIGN.md "The optimizer").
 *
 * A candidate for a LOWERED function f (ir_lower) is
 *   - a schedule: a topological order of f's nodes (order[k] = index in f of the node placed k-th), and
 *   - one decision byte per node (EMIT_ASM_D_* of emit/emit_asm.h), indexed by the node's index IN f, so a
 *     decision travels with its node when the node moves.
 *
 * Legal orders. Node v must come after node u when
 *   - u defines an operand of v (data dependence);
 *   - u and v store to the same output array and u comes first in f (stores keep their relative order per array);
 *   - u loads from an input array that output array o may alias (ir_array.alias) and v is the first store to o in
 *     f (the alias rule: every load of an aliased input before the first store to the output).
 * cand_graph holds these edges; every order produced here (random starts, moves) respects all of them, so the
 * applied function passes ir_validate and computes the same outputs under ir_eval, also with aliased arrays.
 *
 * Mutations (CryptOpt's, Kuepper et al., "CryptOpt: Verified Compilation with Randomized Program Search for
 * Cryptographic Primitives", PLDI 2023): move one node to a random place within its legal window (after its last
 * predecessor, before its first successor), or change the decision of one node to another value that applies to
 * its kind (cand_choices). */
#ifndef ECOPT_SEARCH_CANDIDATE_H
#define ECOPT_SEARCH_CANDIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emit/emit_asm.h"
#include "ir/ir.h"

/* ---- random numbers (xoshiro256**, Blackman and Vigna, "Scrambled linear pseudorandom number generators",
 * ACM TOMS 2021; seeded through splitmix64) ----------------------------------------------------------------------- */
typedef struct {
    uint64_t s[4];
} cand_rng;

/* cand_rng_seed — the generator for seed (any value, 0 included). */
void cand_rng_seed(cand_rng *r, uint64_t seed);
/* cand_rng_next — 64 random bits. */
uint64_t cand_rng_next(cand_rng *r);
/* cand_rng_below — uniform in [0, n) (n >= 1; n == 0 returns 0). */
uint64_t cand_rng_below(cand_rng *r, uint64_t n);

/* ---- the dependence graph ------------------------------------------------------------------------------------ */
#define CAND_MAX_CHOICES 8

typedef struct {
    const ir_func *f;      /* the lowered function (not owned; must outlive the graph) */
    uint32_t n;            /* f->nnode */
    uint32_t *pred_start;  /* n + 1 offsets into pred: the predecessors of node v are pred[pred_start[v] ..] */
    uint32_t *pred;
    uint32_t *succ_start;  /* n + 1 offsets into succ */
    uint32_t *succ;
    uint8_t *nchoices;     /* per node: how many decision bytes apply (1: the decision is fixed at 0) */
    uint8_t (*choices)[CAND_MAX_CHOICES]; /* per node: the decision bytes that apply, choices[v][0] == 0 */
    uint32_t nflexible;    /* nodes with more than one choice */
    uint32_t *flexible;    /* their indices */
} cand_graph;

/* cand_graph_build — the edges and decision choices of the lowered function f for the emitter's target (on
 * EMIT_ASM_TARGET_X86_64 no choice needs BMI2 or ADX: no D_OF, D_BZHI, D_SHX). 0, or -1 with err (size errlen):
 * "out of memory", or "f has no nodes". The graph keeps a pointer to f. */
int cand_graph_build(cand_graph *g, const ir_func *f, emit_asm_target target, char *err, size_t errlen);
void cand_graph_free(cand_graph *g);

/* ---- candidates ---------------------------------------------------------------------------------------------- */
typedef struct {
    uint32_t n;
    uint32_t *order;  /* n node indices of f: a legal order */
    uint32_t *pos;    /* inverse: pos[order[k]] == k */
    uint8_t *dec;     /* n decisions, indexed by node index in f */
} candidate;

/* cand_init — allocate c for g (order = f's own order, every decision 0). 0, or -1 when memory runs out. */
int cand_init(candidate *c, const cand_graph *g);
void cand_free(candidate *c);
/* cand_copy — dst = src (same graph; dst initialised with cand_init). */
void cand_copy(candidate *dst, const candidate *src);

/* cand_random — a random legal order and per node the default decision 0 (3 times in 4) or a random applicable
 * one. The order is, with probability 1/2 each, a random post-order of the predecessor graph from the stores
 * (every value computed just before the subtree that uses it) or Kahn's algorithm picking 3 times in 4 among the 4
 * nodes that became ready last (a randomised depth-first order), else uniformly among the ready nodes. Both keep
 * few values live at once, unlike a uniformly random topological order. */
void cand_random(candidate *c, const cand_graph *g, cand_rng *r);

/* What cand_mutate did. */
typedef enum { CAND_MUT_MOVE = 0, CAND_MUT_DECISION = 1, CAND_MUT_NONE = 2 } cand_mutation;

/* cand_mutate — one random mutation of c in place: with probability 1/2 a decision change (when some node has a
 * choice), else a move of one node to another position in its legal window: 1 time in 4 right after its last
 * predecessor, 1 in 4 right before its first successor (moves that shorten live ranges at once), else uniformly
 * (a node whose window holds only its own place is re-drawn, up to a bound; CAND_MUT_NONE when nothing could
 * change). */
cand_mutation cand_mutate(candidate *c, const cand_graph *g, cand_rng *r);

/* cand_valid — c is a permutation of g's nodes respecting every edge, and each decision applies to its node. */
bool cand_valid(const candidate *c, const cand_graph *g);

/* cand_apply — write into dst (a clone of g->f made once with ir_func_clone, reused for every call) the function
 * with f's nodes in c's order, and into dec (n bytes) the decisions in that new node order, ready for
 * emit_asm_opts.decisions. Value numbers are unchanged; each value's defining node index is updated. */
void cand_apply(const candidate *c, const cand_graph *g, ir_func *dst, uint8_t *dec);

#endif
