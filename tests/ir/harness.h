/* harness.h — the GMP cross-check harness for IR functions: reference semantics from the math,
 * input generators, and the check of one output against the reference.
 *
 * A function says what it computes through its metadata (ir_func.prime, repr, limbw, kind, pre_lt_p); the harness
 * reads nothing else from it. The references are computed with mpz from that claim, never from limb code:
 *   radix layouts (Solinas, Dettman, saturated): value(x) = sum x_i * 2^(w_0 + ... + w_{i-1});
 *     mul a*b, square a^2, carry a, add a+b, sub a-b, opp -a: output congruent mod p, every output limb within
 *     the output array's declared bounds;
 *   Montgomery (R = 2^(64 n)): value(x) = sum x_i * 2^(64 i);
 *     mul a*b*R^-1, square a^2*R^-1, add a+b, sub a-b, opp -a, to-montgomery a*R, from-montgomery a*R^-1, all
 *     mod p: output exactly equal (so < p), limbs within their declared bounds. */
#ifndef ECOPT_TESTS_IR_HARNESS_H
#define ECOPT_TESTS_IR_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* before gmp.h: it declares mpz_out_str only after stdio.h */

#include <gmp.h>

#include "ir/ir.h"
#include "testutil.h"

#define HX_MAXLIMBS 32

/* What a function claims, in a form the checks use directly. */
typedef struct {
    mpz_t p;                  /* the prime */
    mpz_t R, Rinv;            /* Montgomery: R = 2^(64 n) and R^-1 mod p */
    ir_repr repr;
    ir_kind kind;
    unsigned n;               /* limbs of every array */
    unsigned nin;             /* input arrays: 1 or 2 */
    unsigned W[HX_MAXLIMBS + 1]; /* radix: W[i] = w_0 + ... + w_{i-1} (bit position of limb i) */
    int out, in[2];           /* array indices in the function */
} hx_field;

/* hx_field_init — read f's claim. 0, or -1 with err (one sentence naming what is missing or inconsistent: no
 * prime, an unknown kind, arrays that are not one output and one or two inputs of the same length, limb widths that
 * do not match the array length). */
int hx_field_init(hx_field *h, const ir_func *f, char *err, size_t errlen);
void hx_field_clear(hx_field *h);

/* hx_value — the integer the limbs represent (radix or Montgomery words, per h). */
void hx_value(mpz_t v, const hx_field *h, const uint64_t *limbs);
/* hx_limbs — the canonical limbs of v >= 0 (radix: bits [W_i, W_i + w_i) in limb i, the top limb takes the rest).
 * Returns -1 when v does not fit in 64-bit limbs. */
int hx_limbs(uint64_t *limbs, const hx_field *h, const mpz_t v);

/* hx_expected — the reference result of h->kind on a (and b for binary kinds), reduced mod p into [0, p). */
void hx_expected(mpz_t e, const hx_field *h, const mpz_t a, const mpz_t b);

/* hx_check — does out satisfy the claim for inputs with values a, b (e = hx_expected)? Checks congruence (radix)
 * or equality (Montgomery) and every limb against f's declared output bounds. Returns NULL when it does, else a
 * static string saying what is wrong. */
const char *hx_check(const hx_field *h, const ir_func *f, const mpz_t e, const uint64_t *out);

/* ---- inputs --------------------------------------------------------------------------------------------------- */

/* hx_random_input — random limbs for input array arr of f: radix, each limb within its declared [lo, hi] with
 * random bit density (whole-vector uniform, dense/sparse, or per limb a mix of uniform, density, lo and hi);
 * Montgomery (pre_lt_p), a value below p (uniform, bit-density masked to p's length, small, p minus small).
 * Returns -1 (with err) only if a Montgomery value below p violates the declared limb bounds. */
int hx_random_input(uint64_t *limbs, const hx_field *h, const ir_func *f, int arr, tu_rng *rng, char *err,
                    size_t errlen);

/* hx_edge_inputs — the edge inputs for array arr: radix: zero (each limb at lo), one, every limb at hi, and the
 * canonical limbs of p-1, p, p+1 when within the declared bounds; Montgomery: 0, 1, 2, p-2, p-1. Writes up to
 * max vectors of h->n limbs into limbs (row i at limbs + i*h->n); returns the count. */
unsigned hx_edge_inputs(uint64_t *limbs, unsigned max, const hx_field *h, const ir_func *f, int arr);

/* hx_in_bounds — every limb of x within array arr's declared bounds. */
bool hx_in_bounds(const ir_func *f, int arr, const uint64_t *x);

/* ---- printing ------------------------------------------------------------------------------------------------- */
void hx_print_limbs(const char *label, const uint64_t *x, unsigned n);
void hx_print_mpz(const char *label, const mpz_t v);

#endif
