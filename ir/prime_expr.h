/* prime_expr.h — the value of a prime expression (ir_func.prime, `ecopt gen --prime`, `ecopt check --prime`), one
 * evaluator for its two users: gen/ (gen_prime_eval: at most 8192 bits, nesting 200, then a primality test) and
 * check/ (check_prime_value: at most 4096 bits, nesting 100, no primality test).
 *
 * Grammar (recursive descent):  expr := term (('+' | '-') term)*      term := power ('*' power)*
 *                               power := atom ('^' power)?   (right-associative, binds tighter than '*')
 *                               atom := decimal | 0x hex | 0X hex | '(' expr ')'
 * Blanks (space, tab) anywhere between tokens. No unary minus; a difference may be negative ("3-5" is -2); a
 * number may not run into a letter, '_' or '.' ("12ab", "0x1g", "2.5"). */
#ifndef ECOPT_IR_PRIME_EXPR_H
#define ECOPT_IR_PRIME_EXPR_H

#include <gmp.h>
#include <stddef.h>

/* ir_prime_expr_eval — out = the value of the expression text (NULL reads as "").
 * Shapes:  out initialised by the caller; err a buffer of errlen bytes (err may be NULL when errlen is 0).
 * Bounds:  no value on the way (a literal, partial sum or product, power) may exceed max_bits bits in absolute value;
 *          a power is refused from its operands' sizes before it is computed (|x|^e >= 2^(e floor(log2 |x|)) for
 *          |x| >= 2), so no input costs more than a few max_bits-bit products. Parentheses and '^'
 *          together may nest at most max_depth deep (the recursion is bounded by it).
 * Alias:   none.
 * Time:    variable (the expression is public).
 * Returns: 0 (err ""); or -1 with err "malformed expression at column C: REASON" (C counted from 1; REASON one of
 *          "the expression is empty", "expected a number or '('" (" at the end" when the text ends there), "expected
 *          hex digits after 0x", "unexpected character in a number", "expected ')'", "missing ')' at the end",
 *          "unmatched ')'", "expected an operator (+ - * ^)", "negative exponent", "the value exceeds MAX_BITS bits",
 *          "nested deeper than MAX_DEPTH"), out then undefined. The value is not tested for primality.
 * Source:  none (the grammar above). */
int ir_prime_expr_eval(mpz_t out, const char *text, unsigned max_bits, unsigned max_depth, char *err, size_t errlen);

#endif
