/* ir.h — the field-arithmetic IR: a straight-line SSA program over unsigned words (DESIGN.md, "The IR").
 *
 * A function (ir_func) is
 *   - arrays: its inputs and outputs (name, limb count, per-limb bounds; an output lists the inputs it may alias),
 *   - values: every SSA value (a constant, or result `slot` of node `node`), each with its width (1, 64 or 128
 *     bits) and its value bounds [lo, hi],
 *   - nodes: the operations in program order. Loads and stores are nodes, so a reordering of the node list is a
 *     schedule and the alias rule ("every load of an aliased input before the first store to the output") is a
 *     property of that order.
 *
 * Semantics (one rule for every operation): operands are zero-extended to unbounded integers, the operation is
 * applied, the result is reduced mod 2^width of the result. The bounds pass (ir_bounds) additionally proves that
 * no `+`, `-`, `*`, `<<`, `>>`, `|`, `^` or cmovznz loses bits: for those a result that can exceed its type is an
 * overflow error naming the node. The operations that wrap by definition are addcarryx/subborrowx (their
 * carry/borrow says how), mulx (hi:lo), `~`, static_cast to a narrower type, `&` into a narrower type and shrd;
 * but an operand of mulx/addcarryx/subborrowx (other than the carry) wider than their size s is an overflow too,
 * since the split at bit s would lose it. ir_validate also checks the metadata is coherent (see ir.c).
 *
 * Vocabulary (fiat-crypto's, plus shrd for the lowering pass):
 *   load    res = in[arr][limb]                      store  out[arr][limb] = a
 *   cast    res = a mod 2^w                          (fiat `static_cast` and `=` between widths)
 *   add sub mul shl shr and or xor : res = a OP b mod 2^w  (shift amounts are constants)
 *   not     res = ~a mod 2^w                         lnot   res = (a == 0)
 *   mulx    (lo, hi) = a * b, size s: lo = p mod 2^s, hi = p >> s            (a, b at most s bits)
 *   addcarryx  (sum, carry)   = c + a + b,  sum = mod 2^s, carry = >> s       (args: c, a, b; fiat order)
 *   subborrowx (diff, borrow) = a - b - c,  diff = mod 2^s, borrow = 1 when negative (args: c, a, b)
 *   cmovznz res = (c == 0) ? z : nz                    (args: c, z, nz; fiat order)
 *   shrd    res = ((hi * 2^64 + lo) >> k) mod 2^64     (args: hi, lo, k)
 */
#ifndef ECOPT_IR_H
#define ECOPT_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 ir_u128;
typedef uint32_t ir_val; /* index into ir_func.val */
#define IR_NOVAL UINT32_MAX

#define IR_NAME_MAX 48   /* value, array and function names, with the NUL */
#define IR_MAX_ARGS 3
#define IR_MAX_RES 2

typedef enum {
    IR_LOAD,
    IR_STORE,
    IR_CAST,
    IR_ADD,
    IR_SUB,
    IR_MUL,
    IR_SHL,
    IR_SHR,
    IR_AND,
    IR_OR,
    IR_XOR,
    IR_NOT,
    IR_LNOT,
    IR_MULX,
    IR_ADDCARRYX,
    IR_SUBBORROWX,
    IR_CMOVZNZ,
    IR_SHRD,
    IR_NOPS
} ir_op;

/* What a function computes, for the GMP harness and the emitters' comments; IR_KIND_NONE for hand-written
 * programs that say nothing. */
typedef enum {
    IR_KIND_NONE,
    IR_KIND_MUL,        /* mul, carry_mul */
    IR_KIND_SQUARE,     /* square, carry_square */
    IR_KIND_CARRY,
    IR_KIND_ADD,
    IR_KIND_SUB,
    IR_KIND_OPP,
    IR_KIND_TO_MONT,
    IR_KIND_FROM_MONT,
    IR_NKINDS
} ir_kind;

/* How limbs represent a field element. */
typedef enum {
    IR_REPR_NONE,       /* not stated */
    IR_REPR_RADIX,      /* value = sum limb_i * 2^(w_0 + ... + w_{i-1}); limbs may exceed w_i bits (unsaturated) */
    IR_REPR_MONTGOMERY  /* limbs are 64-bit words of x*R mod p, R = 2^(64 n) */
} ir_repr;

typedef struct {
    char name[IR_NAME_MAX];
    bool is_output;
    uint32_t len;          /* limbs */
    uint8_t width;         /* 64 */
    ir_u128 *lo, *hi;      /* per-limb bounds, len entries each */
    uint64_t alias;        /* outputs only: bit j = may alias array j (an input) */
} ir_array;

typedef struct {
    uint8_t width;         /* 1, 64 or 128 */
    bool is_const;
    bool overflow;         /* set by the bounds pass on a node result that can wrap where it must not */
    uint8_t slot;          /* which result of its node */
    uint32_t node;         /* defining node, IR_NOVAL for constants */
    ir_u128 k;             /* the constant */
    ir_u128 lo, hi;        /* value bounds (inclusive) */
    char name[IR_NAME_MAX];
} ir_value;

typedef struct {
    uint8_t op;            /* ir_op */
    uint8_t nargs, nres;
    uint8_t size;          /* mulx/addcarryx/subborrowx: the split position s (fiat's "size"), else 0 */
    uint32_t arr, limb;    /* load/store */
    ir_val arg[IR_MAX_ARGS];
    ir_val res[IR_MAX_RES];
} ir_node;

typedef struct ir_func {
    char name[IR_NAME_MAX];
    ir_array *arr;
    uint32_t narr;
    ir_value *val;
    uint32_t nval, capval;
    ir_node *node;
    uint32_t nnode, capnode;
    /* What it claims to compute (all optional). */
    char prime[512];       /* the prime as an integer expression ("2^255-19"), "" if not stated */
    ir_repr repr;
    uint8_t nlimbw;        /* IR_REPR_RADIX: limb widths w_i in bits */
    uint8_t limbw[32];
    ir_kind kind;
    bool pre_lt_p;         /* value precondition: every input's value is < p (Montgomery) */
    char err[512];         /* the last error message of a failed call */
} ir_func;

/* ---- construction -------------------------------------------------------------------------------------------- */

/* ir_func_new — an empty function named name. NULL when memory runs out. */
ir_func *ir_func_new(const char *name);
void ir_func_free(ir_func *f);
/* ir_func_clone — a deep copy, NULL when memory runs out. */
ir_func *ir_func_clone(const ir_func *f);

/* ir_array_add — declare an input (is_output false) or output array of len 64-bit limbs with bounds lo[i]..hi[i]
 * (NULL lo: all 0; NULL hi: all 2^64-1). Returns its index, or -1 (f->err says why). */
int ir_array_add(ir_func *f, const char *name, bool is_output, uint32_t len, const ir_u128 *lo, const ir_u128 *hi);
/* ir_array_find — index of the array called name, or -1. */
int ir_array_find(const ir_func *f, const char *name);

/* ir_const — the constant k of the given width (deduplicated). IR_NOVAL when k does not fit or memory runs out. */
ir_val ir_const(ir_func *f, unsigned width, ir_u128 k);

/* ir_emit — append one node: op, result width (for mulx/addcarryx/subborrowx the width of result 0; their second
 * result is 64 bits (mulx hi) or 1 bit (carry, borrow)), size (mulx/addcarryx/subborrowx only, else 0), args,
 * names for the results (NULL or "" = a fresh name "t<N>"). Checks operand counts, widths and that shift amounts are
 * constants; computes the results' bounds (see ir_bounds). Writes the result values to res (may be NULL).
 * Returns 0, or -1 with f->err. */
int ir_emit(ir_func *f, ir_op op, unsigned width, unsigned size, const ir_val *args, unsigned nargs, ir_val *res,
            const char *const *names);

/* Shorthands over ir_emit; return the (first) result or IR_NOVAL with f->err. */
ir_val ir_load(ir_func *f, uint32_t arr, uint32_t limb, const char *name);
int ir_store(ir_func *f, uint32_t arr, uint32_t limb, ir_val v);
ir_val ir_op1(ir_func *f, ir_op op, unsigned width, ir_val a, const char *name);
ir_val ir_op2(ir_func *f, ir_op op, unsigned width, ir_val a, ir_val b, const char *name);
ir_val ir_op3(ir_func *f, ir_op op, unsigned width, ir_val a, ir_val b, ir_val c, const char *name);

/* ir_set_name — rename value v (names must be unique among non-constant values; not checked here). */
void ir_set_name(ir_func *f, ir_val v, const char *name);

/* ir_validate — structure check: SSA (every argument defined before use; operand widths are checked as nodes are
 * built, by ir_emit), coherent metadata, every output limb
 * stored exactly once, every load in range. Returns 0 or -1 with f->err naming the node. */
int ir_validate(ir_func *f);

/* ---- analyses ------------------------------------------------------------------------------------------------ */

/* ir_bounds — interval analysis from the input arrays' declared bounds, in node order: recomputes every value's
 * [lo, hi] and marks `overflow` on a node result that can wrap where the semantics forbid it (see the top of this
 * file). Returns 0 when nothing overflows and every stored limb is within its output array's declared bounds;
 * otherwise -1 with f->err naming the first offending node ("node 12 (x40 = add x3, x7): u64 result can reach
 * 0x1...: overflow") or output limb. */
int ir_bounds(ir_func *f);

/* ir_eval — run f on concrete limbs: in[j] points at array j's limbs for each input array j (entries for output
 * arrays are ignored), out[j] for each output array j (entries for inputs ignored). Values are computed with the
 * wrapping semantics above, whatever the bounds. Returns 0, or -1 if memory runs out. */
int ir_eval(const ir_func *f, const uint64_t *const *in, uint64_t *const *out);

/* ir_count_ops — number of nodes that are operations (not loads or stores). */
uint32_t ir_count_ops(const ir_func *f);

/* ---- lowering ------------------------------------------------------------------------------------------------ */

/* ir_lower — a new function computing the same outputs with no u128 value: a u128 product of two 64-bit operands
 * becomes mulx, a u128 sum an addcarryx pair, a u128 right shift shrd, casts projections; then dead nodes are
 * removed. NULL with err (size errlen) filled when f uses u128 in a way that has no lowering. */
ir_func *ir_lower(const ir_func *f, char *err, size_t errlen);

/* ir_dce — remove nodes whose results are unused (stores are always used). */
void ir_dce(ir_func *f);

/* ---- text form (ir/text.c) ----------------------------------------------------------------------------------- */

/* ir_print — the text form of f as a NUL-terminated heap string (free it), NULL if memory runs out. */
char *ir_print(const ir_func *f);

/* ir_parse — parse text (one or more `func ... end` blocks; `call` inlines an earlier one). Returns the last
 * function in the text (the others are callees), or NULL with err (size errlen) "line N: ...". */
ir_func *ir_parse(const char *text, char *err, size_t errlen);

/* ---- fiat-crypto JSON (ir/fiat_json.c) ----------------------------------------------------------------------- */

/* ir_fiat_load — load function `name` from the fiat-crypto JSON text `json` (file name `path`, used to look the
 * prime and layout up in the table, and in messages). NULL with err filled when the file, the function or
 * anything in it cannot be expressed ("fiat_p256_to_bytes: operation `...` in statement 12 ..."). */
ir_func *ir_fiat_load(const char *json, size_t len, const char *path, const char *name, char *err, size_t errlen);

/* ---- helpers --------------------------------------------------------------------------------------------------- */
const char *ir_op_name(ir_op op);            /* "add", "mulx", ... (the text form's mnemonics) */
int ir_op_nargs(ir_op op);                   /* operands: load 0; store, cast, not, lnot 1; 3-operand ops 3; else 2 */
int ir_op_nres(ir_op op);                    /* results: store 0; mulx, addcarryx, subborrowx 2; else 1 */
bool ir_op_sized(ir_op op);                  /* takes a size (mulx, addcarryx, subborrowx) */
const char *ir_kind_name(ir_kind k);         /* "mul", "square", ... */
ir_u128 ir_width_max(unsigned width);        /* 2^width - 1 */
/* ir_u128_hex — "0x..." (lowercase, no leading zeros) into buf (at least 35 bytes); returns buf. */
char *ir_u128_hex(ir_u128 x, char *buf);
/* ir_u128_parse — decimal or 0x hex into *out; returns 0, -1 on syntax error or overflow. */
int ir_u128_parse(const char *s, ir_u128 *out);

#endif
