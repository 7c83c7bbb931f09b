/* lf.h — the checker's second normal form: every value as an exact integer linear combination of atoms,
 * with every reduction mod 2^w written out as a floor.
 *
 * Why: expr.h's sums are taken mod 2^w and may only absorb a sum of another width when interval bounds prove that
 * it does not wrap. Compilers regroup multi-word sums (a carry taken from a partial sum, two carries added later,
 * the high word of m * (2^32 - 1) computed as (m >> 32) - borrow((m << 32) mod 2^64 < m)); the regrouped forms are
 * equal only as integers, jointly with their carries. Here nothing is reduced implicitly:
 *     x mod 2^w      = x - 2^w * floor(x / 2^w)
 *     x >> k         = floor(x / 2^k)
 *     a < b          = -floor((a - b) / 2^w)           (0 <= a < 2^w, 0 <= b < 2^w, from the bounds)
 *     a * b          = 2^64 * mulhi(a, b) + mullo(a, b)  (mullo = a*b mod 2^64, mulhi = floor(a*b / 2^64))
 * and a floor is kept canonical by exact integer identities:
 *     floor((2^k q t + S) / 2^k) = q t + floor(S / 2^k)  (each coefficient and the constant reduced into [0, 2^k))
 *     floor((2^g S) / 2^k)       = floor(S / 2^(k-g))    (the common power of two)
 *     floor(floor(T / 2^j) / 2^k) = floor(T / 2^(j+k))
 *     floor(S / 2^k)             = 0                     (0 <= S < 2^k by interval bounds of the atoms)
 * Montgomery quotient digits and exact division. A 64-bit wrapping sum whose low word is, as a formal identity,
 * (c X) mod 2^64 with an odd c at least 2^32 away from 0 mod 2^64 and X a form with small coefficients (a digit
 * m = (m' t) mod 2^64 of Montgomery's REDC, Math. Comp. 44 (1985)) is the atom qd_c(X) rather than the expansion
 * c X - 2^64 floor(c X / 2^64), which would carry c into every later floor (X is the digit's word reduced mod 2^64
 * with the digits inside it replaced as below, so the atom depends only on the word mod 2^64; c is kept below 2^63,
 * (c X) mod 2^64 for c above being (-qd_(2^64-c)(X)) mod 2^64). The digit keeps its congruence for
 *     floor(S / 2^k) = floor((T + 2^j (exq_j(S_j - T) + Z)) / 2^k)     (j = min(k, 64))
 * where S = S_j + 2^j Z with S_j the symmetric residues of S's coefficients mod 2^j, and T is S_j with every digit
 * qd_c(X) replaced by c X, reduced mod 2^j: qd_c(X) = c X (mod 2^j) exactly for j <= 64, so S_j - T is 0 mod 2^j for
 * every value of the other atoms (they are opaque: the identity is formal), and exq_j(D) = D / 2^j is an exact
 * quotient, an atom. It is used when T has no digit and small coefficients; with T = 0 (Montgomery's dropped word,
 * t0 + lo(m p0) with p0 m' = -1 mod 2^64) the floor is the exact quotient itself. (When the digit is not an atom,
 * the first identity above already divides such a word exactly: tests/ir/test_check_expr.c, test_exact_division.)
 * Atoms: input limbs, mullo, mulhi, floor(S / 2^k) of a canonical sum S >= 0, digits qd_c(X), exact quotients
 * exq_k(D), and (uninterpreted) and, or, xor, == 0, select. Coefficients and bounds are GMP integers, so nothing overflows. Two values with the same lf id are
 * equal for every input within the declared bounds; different ids decide nothing.
 *
 * Sources: the identities above are elementary (floor division by powers of two); the splitting of products into
 * 64-bit halves mirrors mulx. */
#ifndef ECOPT_CHECK_LF_H
#define ECOPT_CHECK_LF_H

#include <stdbool.h>
#include <stdint.h>

#include "check/expr.h"

typedef uint32_t lf_id; /* a canonical sum; 0 = none (a value the form cannot express, or out of memory) */
typedef struct lf_ctx lf_ctx;

/* lf_new — a context translating the expressions of x (which must outlive it). NULL when memory runs out. */
lf_ctx *lf_new(const ex_ctx *x);
void lf_free(lf_ctx *l);
/* lf_of — the canonical form of expression e (memoised). 0 when e depends on an unknown value, or memory ran out. */
lf_id lf_of(lf_ctx *l, ex_id e);
/* lf_check_eval — evaluates the canonical forms of the given expressions for the inputs in[arr][limb] and compares
 * each with ex_eval's value (ev, from ex_eval_all), and every atom's and each given sum's value with its bounds: a
 * self-test of the translation. 0 all hold, 1 one fails (*bad = the expression's id, 0 for an atom out of its
 * bounds), -1 out of memory. */
int lf_check_eval(lf_ctx *l, const ex_id *e, uint32_t n, const uint64_t *const *in, const ir_u128 *ev, ex_id *bad);
/* lf_print — a short text form of s (truncated with "..."); lf_diff — the terms in which sums a and b differ,
 * one per line (a debugging aid for `ecopt check`'s explanations). */
void lf_print(const lf_ctx *l, lf_id s, char *buf, size_t len);
void lf_diff(const lf_ctx *l, lf_id a, lf_id b, char *buf, size_t len);

/* lf_range_equal — the range rule: two values whose canonical forms a and b differ are still equal when their
 * difference is a combination of values of known range that must lie in (-1, 1). It looks for rationals c_j with
 *     a - b  =  e + sum_j c_j w_j        (identical linear forms over the atoms; e the constant that is left)
 * among the sums w[0..n) (candidates: exact forms of values whose bounds [lo_j, hi_j] are known, such as words whose
 * results are dropped), by exact Gaussian elimination over the atoms (GMP rationals; free unknowns 0), and proves
 * a = b when e + sum_j c_j [lo_j, hi_j] lies inside (-1, 1): a - b is an integer, so it is 0. Sound whatever the
 * candidates are, because every lf sum equals its value exactly and lies within its bounds (lf.h's contract).
 * When that fails, each floor (or sign) atom of D whose operand such a combination bounds within one step of the floor
 * is replaced by its constant value, and the combination is sought again. The solution of the linear system is moved
 * (exact simplex pivots, chosen in floating point) to one of small width sum_j |c_j| (hi_j - lo_j) first.
 * 1 proved, 0 not (no combination, or the bound is too wide), -1 out of memory. ECOPT_RANGE_DEBUG=1..3 in the
 * environment prints each system's size, the solution and the bounds (a debugging aid). */
int lf_range_equal(lf_ctx *l, lf_id a, lf_id b, const lf_id *w, uint32_t n);
/* lf_alias — from now on the expression e has the form s (the caller has proved that e's value equals s's for
 * every input within the bounds, e.g. by lf_range_equal); every translation of a node above e is forgotten and
 * redone on demand, so dependants use s. 0, or -1 out of memory. */
int lf_alias(lf_ctx *l, ex_id e, lf_id s);
/* lf_range_work — rows x columns x min(rows, columns), summed over every linear system lf_range_equal has built (the
 * steps of its eliminations): a measure of its cost, for callers that budget it */
uint64_t lf_range_work(const lf_ctx *l);
/* lf_sum_is_const — s has no atoms (a constant) */
bool lf_sum_is_const(const lf_ctx *l, lf_id s);
/* lf_cut_classes — cut-points (smt.h, smt_cuts) for comparing the expressions a and b: the nodes under a and under b
 * (each cone marked down from its root) grouped by canonical form; a form that some node of each cone has (one node
 * in both cones counts; so does a sum outside a cone whose terms all occur in a sum of that cone, a word the normal
 * form flattened into it, which smt.c finds there) is a class, every such node its member, and the intersection of
 * the members' intervals its bounds, the widest member's width its width. Members are equal for every input within
 * the bounds (the contract above), so any of them may stand for the others. Constants, input leaves, forms without
 * atoms and values depending on an unknown are never members. Fills cls[0..ex_count] (class 1..n, 0 none), width,
 * lo and hi [1..n] (all of capacity ex_count + 1) and members[0..*nmem) (every member: for a caller's self-test
 * with lf_check_eval). Returns n, or -1 when memory runs out. */
int lf_cut_classes(lf_ctx *l, ex_id a, ex_id b, uint32_t *cls, uint8_t *width, ir_u128 *lo, ir_u128 *hi,
                   ex_id *members, uint32_t *nmem);

#endif
