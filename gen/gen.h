/* gen.h — generators: from a field spec (a prime and a limb count) to an IR function, written from the published
 * algorithms (see each generator's Source line). The IR functions carry what they compute (ir_func.prime, repr,
 * limbw, kind, pre_lt_p) so the GMP harness can check them.
 *
 * Signatures follow fiat-crypto: arrays "out1" (output, may alias every input), then "arg1" (and "arg2" for
 * binary operations), each of n 64-bit limbs. Every input limb is loaded before the first store; values are named
 * x1, x2, ... in program order (loads arg1_0, arg2_3, ...); the same spec always gives the same IR.
 *
 * What each method declares (limb bounds are inclusive upper bounds; lower bounds are 0):
 *   solinas-unsaturated  limbs of w_i = ceil((i+1)k/n) - ceil(ik/n) bits (k = bits of p), value sum limb_i 2^W_i.
 *                        Tight bounds T_i: what carry_mul, carry_square and carry provably reach (2^w_i - 1 for a
 *                        limb that ends masked, 2^w_i + 2^j for one that receives the last carry, e.g. 2^51 + 2^10
 *                        for limb 1 of 2^255-19 in 5 limbs). Loose bounds L_i = max(2 T_i, T_i + q_i), q the limbs
 *                        of 2p (or 4p) used by sub and opp. mul/square/carry: L -> T; add/sub/opp: T -> L.
 *                        Any n is accepted whose limbs are 1 to 62 bits wide and whose product columns fit u128.
 *   solinas-saturated    n x 64-bit words, inputs and output any 64-bit words (output congruent, not reduced).
 *                        n must be exactly ceil(k/64) (every word used) and at least 2.
 *   solinas-saturated-2chain  the same function (same arrays, bounds and output words) with each row added by
 *                        two independent carry chains, low halves and high halves (the MULX/ADCX/ADOX technique,
 *                        gen/gen_solinas.c), and a one-word last fold when C^2 + C <= 2^64.
 *   montgomery           n x 64-bit words of x*R mod p, R = 2^(64n); inputs and output below p (pre_lt_p). The
 *                        declared limb bounds are 2^64-1 for every limb, the top one included: the interval analysis
 *                        cannot prove the top word of the final select below p's top word, and inputs must accept
 *                        what outputs give so that functions compose (`call` checks a caller's limb bounds against
 *                        the callee's inputs); "below p" is the precondition pre_lt_p. n must be exactly
 *                        ceil(bits of p / 64) (every word used).
 *   montgomery-sparse    the same function as montgomery (same arrays, bounds, precondition and output words, the
 *                        same ops and spec errors); each reduction round adds m*p as shifted copies of the
 *                        quotient digit m (signed digits of p, gen/gen_mont.c) and uses mulx only for words of p
 *                        of signed-digit weight above 3; m' = 1 (p = -1 mod 2^64) takes m = T_0 and drops the
 *                        low word without a chain. Any odd prime is accepted (a dense p falls back to mulx). */
#ifndef ECOPT_GEN_H
#define ECOPT_GEN_H

#include <stddef.h>

#include "ir/ir.h"

typedef enum {
    GEN_SOLINAS_UNSATURATED, /* p = 2^k - c, n limbs of w_i bits (w_i = ceil((i+1)k/n) - ceil(ik/n)), u128 columns */
    GEN_SOLINAS_SATURATED,   /* p = 2^k - c with c small, n x 64-bit limbs, mulx/addcarryx */
    GEN_MONTGOMERY,          /* word-by-word Montgomery, R = 2^(64 n), inputs and output < p */
    GEN_SOLINAS_SATURATED_2CHAIN, /* as GEN_SOLINAS_SATURATED, rows added by two carry chains (adcx + adox) */
    GEN_MONTGOMERY_SPARSE,   /* as GEN_MONTGOMERY, m*p by shifts and subtractions where p's words allow */
    GEN_NMETHODS
} gen_method;

typedef struct {
    const char *prime;       /* integer expression: decimal or 0x literals, + - * ^ and parentheses */
    gen_method method;
    unsigned limbs;
    ir_kind op;              /* IR_KIND_MUL, _SQUARE, _CARRY, _ADD, _SUB, _OPP, _TO_MONT, _FROM_MONT */
    const char *name;        /* function name; NULL: gen_default_name() */
} gen_spec;

/* gen_method_parse — "solinas-unsaturated", "solinas-saturated", "montgomery", "solinas-saturated-2chain",
 * "montgomery-sparse".
 * 0 or -1. */
int gen_method_parse(const char *s, gen_method *out);
const char *gen_method_name(gen_method m);
/* gen_op_parse — "mul", "square", "carry", "add", "sub", "opp", "to-montgomery", "from-montgomery" (also fiat's
 * "carry_mul", "carry_square" and "_" spellings). 0 or -1. */
int gen_op_parse(const char *s, ir_kind *out);

/* gen_prime_eval — evaluate a prime expression into a GMP integer (mpz_t passed as void * so that this header
 * does not need gmp.h) and check it is a prime (mpz_probab_prime_p, 50 rounds). The grammar and the messages are
 * ir_prime_expr_eval's (ir/prime_expr.h: decimal and 0x literals, + - * ^ and parentheses, spaces between tokens;
 * ^ is right-associative and binds tighter than *; no unary minus), with no value above 8192 bits and no nesting
 * deeper than 200. 0, or -1 with err ("malformed expression at column 7: expected a number or '('", "not a prime:
 * EXPR"), columns counted from 1. */
int gen_prime_eval(const char *expr, void *mpz_out, char *err, size_t errlen);

/* gen_default_name — <method>_<prime>_<limbs>_<op> into buf (size len), a C identifier below IR_NAME_MAX:
 * "solinas_unsaturated_2e255m19_5_carry_mul", "montgomery_2e256m2e32m977_4_to_montgomery" (^ e, - m, + p, * x);
 * a prime too long for that becomes h<8 hex digits of its FNV-1a hash>. */
void gen_default_name(const gen_spec *s, char *buf, size_t len);

/* gen_build — the IR function for spec s (named s->name, or gen_default_name()).
 * Shapes:  out1, arg1[, arg2]: s->limbs 64-bit limbs each, layout and bounds as above for the method.
 * Bounds:  as above; the result passes ir_validate and ir_bounds (no u128 column, sum or shift can wrap, every
 *          stored limb within out1's bounds).
 * Alias:   out1 may alias every input (all loads come first).
 * Time:    the generated code is straight-line, constant time in its inputs (selects by cmovznz).
 * Returns: the function, or NULL with err (one sentence, no newline) for a bad spec:
 *          "malformed expression at column N: ...", "not a prime: EXPR", "p = 2: ...",
 *          "p is not 2^k - c with c small enough ..." (Solinas shape), "p has B bits: more than n x 64",
 *          "p has B bits: n limbs of 64 bits leave the top 1 limb(s) unused (use --limbs m)", "limbs cannot hold the product: ..."
 *          (a u128 column or the carry chain overflows; also refuses the layout's add/sub/opp),
 *          "unknown op for the M method: OP (it has ...)", "N limbs: 1 to 16 allowed".
 * Source:  Solinas 1999, Bernstein 2006 and Erbsen et al. 2019 (gen/gen_solinas.c); Koc, Acar, Kaliski 1996
 *          (CIOS) and Montgomery 1985 (gen/gen_mont.c). */
ir_func *gen_build(const gen_spec *s, char *err, size_t errlen);

#endif
