/* expr.h — the checker's expression language (DESIGN.md "The checker"): hash-consed expressions over the
 * input limbs, built from the IR's operations and kept in a normal form, so that two computations of the same value
 * by the same structure get the same id (equal ids => equal values; different ids decide nothing: see smt.h).
 *
 * Semantics: every node has a width w (1..128) and denotes an unsigned integer below 2^w; operands are
 * zero-extended, as in the IR. Input leaves carry declared bounds [lo, hi]; every node's interval [lo, hi] is
 * derived from them, and the normal form relies on them: it is valid for inputs within their declared bounds
 * (the same precondition the IR's bounds pass uses).
 *
 * Node kinds (the whole language; every IR operation maps onto these):
 *   CONST k                 INPUT (arr, limb)        UNKNOWN (a fresh unknown value: an undefined flag)
 *   SUM_w  (k + sum c_i t_i) mod 2^w: the one additive node. add, sub, shl by k (coefficient 2^k), mul by a
 *          constant, not (2^w - 1 - x), a narrowing cast (a one-term sum of a wider term) all become sums.
 *   MUL    a * b of two non-constant operands (ordered by id); exact when the bounds fit 128 bits.
 *   SHR    a >> k            AND OR XOR (ordered operands)    EQZ (a == 0)    LT (a < b)
 *   SELECT (c == 0 ? z : nz) (fiat's cmovznz order)
 * mulx is one MUL with two projections (lo = the low s bits, hi = MUL >> s); add-with-carry is one exact SUM with
 * two projections (sum = its low s bits, carry = SUM >> s); sub-with-borrow is the wrapping SUM plus LT(a, b + c).
 *
 * Normalisation rules (each tested against concrete evaluation in tests/ir/test_check_expr.c):
 *   - constants folded in every node kind; operands of commutative nodes sorted by id;
 *   - sums flattened (a child sum is merged into its parent when the child cannot wrap, or when its width is at
 *     least the parent's: (x mod 2^v) mod 2^w = x mod 2^w for v >= w), equal terms merged, zero terms dropped,
 *     terms sorted by id; a sum of one width is never merged into a wider sum when its bounds say it can wrap;
 *   - a node that cannot wrap (by its bounds) gets the canonical width bitlen(hi), so u64 and u128 spellings of the
 *     same exact value meet; a one-term sum 1*t that cannot wrap is t;
 *   - a cast to w of a value below 2^w is the value; x & (2^m - 1) is the cast of x to m bits, and a wider
 *     sum under any other constant of m bits is first truncated to m bits; shr of shr adds the counts; shr past the
 *     bounds is 0;
 *     x & x = x | x = x, x ^ x = 0; select with equal arms or a constant condition picks; select on (y == 0)
 *     swaps arms on y; comparisons decided by the bounds are constants.
 *
 * Ids are created in topological order (operands before the node), which the evaluator and smt.c rely on. */
#ifndef ECOPT_CHECK_EXPR_H
#define ECOPT_CHECK_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

typedef uint32_t ex_id; /* 0 = no expression (out of memory / bad request); valid ids start at 1 */

typedef enum {
    EX_CONST,
    EX_INPUT,
    EX_UNKNOWN,
    EX_SUM,
    EX_MUL,
    EX_SHR,
    EX_AND,
    EX_OR,
    EX_XOR,
    EX_EQZ,
    EX_LT,
    EX_SELECT,
    EX_NKINDS
} ex_kind;

typedef struct {
    ex_id id;
    ir_u128 c; /* coefficient (sums only), reduced mod 2^width */
} ex_arg;

typedef struct {
    uint8_t kind;      /* ex_kind */
    uint8_t width;     /* 1..128 */
    bool wraps;        /* sums and products: the value is reduced mod 2^width (the bounds do not prove it is not) */
    bool unknown;      /* an UNKNOWN leaf is among its operands (transitively) */
    uint32_t nargs;
    uint32_t args;     /* index of the first operand in the context's operand pool */
    ir_u128 k;         /* CONST: the value; SUM: the constant term; SHR: the count; INPUT: arr << 32 | limb;
                          UNKNOWN: a serial number */
    ir_u128 lo, hi;    /* value bounds (inclusive) */
    uint32_t hash;
} ex_node;

typedef struct ex_ctx ex_ctx;

ex_ctx *ex_ctx_new(void);
void ex_ctx_free(ex_ctx *x);
/* ex_ctx_set_raw — with raw set, the two carry-merging rules (merge_carries in sums, carry_chain in add-with-carry)
 * are off, so sums stay as the operations wrote them (at most 65 bits for 64-bit add-with-carry): the input that
 * lf.h's exact linear form wants. Set before making any node. */
void ex_ctx_set_raw(ex_ctx *x, bool raw);
/* The node of id (valid until the next node is made), its operands, the number of nodes made (ids 1..count). */
const ex_node *ex_get(const ex_ctx *x, ex_id id);
const ex_arg *ex_args(const ex_ctx *x, ex_id id);
uint32_t ex_count(const ex_ctx *x);
/* ex_err — why the last constructor returned 0 ("out of memory", "width 0", ...). */
const char *ex_err(const ex_ctx *x);

/* ---- leaves ------------------------------------------------------------------------------------------------------ */
ex_id ex_const(ex_ctx *x, ir_u128 k);
/* ex_input — limb `limb` of input array `arr` (a 64-bit word) with bounds [lo, hi]; the same (arr, limb) always
 * gives the same id (the bounds of the first call stay). */
ex_id ex_input(ex_ctx *x, uint32_t arr, uint32_t limb, ir_u128 lo, ir_u128 hi);
/* ex_unknown — a fresh unknown value of width w (each call a different one). ex_has_unknown says whether an
 * expression depends on one: the checker rejects any such use. */
ex_id ex_unknown(ex_ctx *x, unsigned w);
bool ex_has_unknown(const ex_ctx *x, ex_id e);

/* ---- the IR's operations (results reduced mod 2^w; operands zero-extended; w in 1..128) ------------------------ */
ex_id ex_add(ex_ctx *x, unsigned w, ex_id a, ex_id b);
ex_id ex_sub(ex_ctx *x, unsigned w, ex_id a, ex_id b);
ex_id ex_mul(ex_ctx *x, unsigned w, ex_id a, ex_id b);
ex_id ex_shl(ex_ctx *x, unsigned w, ex_id a, unsigned k);
ex_id ex_shr(ex_ctx *x, unsigned w, ex_id a, unsigned k);
ex_id ex_and(ex_ctx *x, unsigned w, ex_id a, ex_id b);
ex_id ex_or(ex_ctx *x, unsigned w, ex_id a, ex_id b);
ex_id ex_xor(ex_ctx *x, unsigned w, ex_id a, ex_id b);
ex_id ex_not(ex_ctx *x, unsigned w, ex_id a);
ex_id ex_lnot(ex_ctx *x, ex_id a);                    /* a == 0, 1 bit */
ex_id ex_lt(ex_ctx *x, ex_id a, ex_id b);             /* a < b, 1 bit */
ex_id ex_trunc(ex_ctx *x, unsigned w, ex_id a);       /* a mod 2^w (the IR's cast) */
ex_id ex_select(ex_ctx *x, unsigned w, ex_id c, ex_id z, ex_id nz); /* (c == 0 ? z : nz) mod 2^w */
/* ex_sum — (k + sum c[i] t[i]) mod 2^w, the general additive constructor (c NULL: all 1). */
ex_id ex_sum(ex_ctx *x, unsigned w, const ex_id *t, const ir_u128 *c, unsigned n, ir_u128 k);
/* Two-result operations, as the IR defines them (s = fiat's size, 1..64). Return 0 or -1 (ex_err). */
int ex_mulx(ex_ctx *x, unsigned s, ex_id a, ex_id b, ex_id *lo, ex_id *hi);
int ex_addcarry(ex_ctx *x, unsigned s, ex_id cin, ex_id a, ex_id b, ex_id *sum, ex_id *carry);
int ex_subborrow(ex_ctx *x, unsigned s, ex_id bin, ex_id a, ex_id b, ex_id *diff, ex_id *borrow);
ex_id ex_shrd(ex_ctx *x, ex_id hi, ex_id lo, unsigned k);  /* ((hi * 2^64 + lo) >> k) mod 2^64 */

/* ---- evaluation -------------------------------------------------------------------------------------------------- */
/* ex_eval — the value of e for concrete input limbs: in[arr][limb] (uint64_t), for every input leaf of the context
 * (every node up to e is computed); unknown leaves are 0. Each node is
 * computed by its semantics mod 2^width (exact for inputs within the declared bounds). Returns 0 with *out, or -1
 * when memory runs out. */
int ex_eval(ex_ctx *x, ex_id e, const uint64_t *const *in, ir_u128 *out);
/* ex_eval_all — every node 1..ex_count() into vals[0..count] (vals[0] unused). 0 or -1. */
int ex_eval_all(const ex_ctx *x, const uint64_t *const *in, ir_u128 *vals);

/* ex_print — a short text form of e into buf (size len, truncated with "..."): "(+64 x0_1 3*x1_0 #5)". */
void ex_print(const ex_ctx *x, ex_id e, char *buf, size_t len);
const char *ex_kind_name(ex_kind k);

#endif
