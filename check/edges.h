/* edges.h — the checker's edge inputs at the prime: the values p - 1, p, p + 1, 2p - 1 and 2p of the
 * program's prime p (ir_func.prime), each written into an input array's limbs in the program's own representation,
 * for the concrete sampling that runs before the solver (check.c, sample_all).
 *
 * Why: code that mishandles an input equal to p (a wrong constant in the borrow chain of a Montgomery multiply's
 * final conditional subtraction: for a = p, REDC's T is exactly p, and T - p = 0 must be chosen) differs from the
 * program there and almost nowhere else: uniform samples and the all-hi / all-lo corners miss it, and the solver,
 * asked to find the difference, times out (p256 and secp256k1 multiplies: "unproved" after 60 s). Sampling can
 * only refute, so these inputs change no PROVED verdict; they turn such an "unproved" into a counterexample.
 *
 * Representation (ir.h, ir_repr): IR_REPR_RADIX with one width per limb (nlimbw equal to the array's length):
 * limb i holds bits W_i .. W_i + w_i - 1 (W_i = w_0 + ... + w_(i-1)) and the last limb everything from W_(n-1) up,
 * which must fit its 64 bits (2p of a 255-bit p in radix 2^51 puts bit 255 into limb 4). IR_REPR_MONTGOMERY and
 * IR_REPR_NONE: 64-bit words, least significant first (for a Montgomery program the words of p itself: the
 * interesting input is the integer p that the code reduces, not the Montgomery form of anything). A value is
 * skipped for an array when a limb falls outside the array's declared bounds [lo_i, hi_i]. */
#ifndef ECOPT_CHECK_EDGES_H
#define ECOPT_CHECK_EDGES_H

#include <gmp.h>
#include <stdint.h>

#include "ir/ir.h"

enum {
    CHECK_NEDGE = 5,                /* p - 1, p, p + 1, 2p - 1, 2p */
    CHECK_PRIME_MAX_BITS = 4096     /* no value in a prime expression may be longer */
};

/* check_prime_value — the value of the integer expression s (ir_func.prime: decimal and 0x literals, + - * ^ and
 * parentheses, blanks between tokens; ^ binds tighter than * and is right-associative; no unary minus) into out
 * (initialised by the caller): ir_prime_expr_eval (ir/prime_expr.h) with these limits. 0, or -1 when s is empty or
 * malformed, nests deeper than 100, or any value on the way exceeds CHECK_PRIME_MAX_BITS. The value is not tested for
 * primality (the checker only samples near it). */
int check_prime_value(const char *s, mpz_t out);

/* check_edge_limbs — v (>= 0) written into input array arr's limbs in f's representation (above) into limbs
 * (f->arr[arr].len entries). 1 when written and every limb lies within the array's declared bounds; 0 when v is
 * negative, the representation cannot hold it, the radix widths do not match the array's length, or a limb is
 * out of bounds (limbs then undefined). */
int check_edge_limbs(const ir_func *f, uint32_t arr, const mpz_t v, uint64_t *limbs);

/* check_edges — for input array arr of f, the limb vectors of p - 1, p, p + 1, 2p - 1 and 2p, in that order, each
 * that check_edge_limbs writes, packed into out (CHECK_NEDGE * f->arr[arr].len entries); which (may be NULL)
 * receives each vector's value number 0 .. 4. Returns how many: 0 when f states no prime or its expression does
 * not evaluate to at least 2. */
int check_edges(const ir_func *f, uint32_t arr, uint64_t *out, unsigned *which);

#endif
