/* gen.h — generators: from a field spec (a prime and a limb count) to an IR function, written from the published
 * algorithms (see each generator's Source line). The IR functions carry what they compute (ir_func.prime, repr,
 * limbw, kind, pre_lt_p) so the GMP harness can check them.
 *
 * Signatures follow fiat-crypto: arrays "out1" (output, may alias every input), then "arg1" (and "arg2" for
 * binary operations), each of n 64-bit limbs. */
#ifndef ECOPT_GEN_H
#define ECOPT_GEN_H

#include <stddef.h>

#include "ir/ir.h"

typedef enum {
    GEN_SOLINAS_UNSATURATED, /* p = 2^k - c, n limbs of w_i bits (w_i = ceil((i+1)k/n) - ceil(ik/n)), u128 columns */
    GEN_SOLINAS_SATURATED,   /* p = 2^k - c with c small, n x 64-bit limbs, mulx/addcarryx */
    GEN_MONTGOMERY,          /* word-by-word Montgomery, R = 2^(64 n), inputs and output < p */
    GEN_NMETHODS
} gen_method;

typedef struct {
    const char *prime;       /* integer expression: decimal or 0x literals, + - * ^ and parentheses */
    gen_method method;
    unsigned limbs;
    ir_kind op;              /* IR_KIND_MUL, _SQUARE, _CARRY, _ADD, _SUB, _OPP, _TO_MONT, _FROM_MONT */
    const char *name;        /* function name; NULL: gen_default_name() */
} gen_spec;

/* gen_method_parse — "solinas-unsaturated", "solinas-saturated", "montgomery". 0 or -1. */
int gen_method_parse(const char *s, gen_method *out);
const char *gen_method_name(gen_method m);
/* gen_op_parse — "mul", "square", "carry", "add", "sub", "opp", "to-montgomery", "from-montgomery". 0 or -1. */
int gen_op_parse(const char *s, ir_kind *out);

/* gen_prime_eval — evaluate a prime expression into a GMP integer (mpz_t passed as void * so that this header
 * does not need gmp.h). 0, or -1 with err ("malformed expression at column 7: ...", "not a prime"). */
int gen_prime_eval(const char *expr, void *mpz_out, char *err, size_t errlen);

/* gen_default_name — e.g. "solinas_unsaturated_2e255m19_5_mul" style name into buf (size len). */
void gen_default_name(const gen_spec *s, char *buf, size_t len);

/* gen_build — the IR function for spec s. NULL with err (one sentence) for a bad spec: a malformed expression,
 * not a prime, not of the method's shape (Solinas: p = 2^k - c with c > 0 small enough that the reduction fits),
 * limbs that cannot hold the value or the product columns (bounds pass overflow), an op the method does not
 * have (carry for Montgomery, to/from-montgomery for Solinas). The result passes ir_validate and ir_bounds. */
ir_func *gen_build(const gen_spec *s, char *err, size_t errlen);

#endif
