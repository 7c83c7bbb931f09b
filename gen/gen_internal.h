/* gen_internal.h — what the generators share (gen/ only): a builder that names values x1, x2, ... and remembers
 * the first failure, multi-word arithmetic over 64-bit words with a known maximum (mw_*), and the per-method
 * entry points that gen_build dispatches to. */
#ifndef ECOPT_GEN_INTERNAL_H
#define ECOPT_GEN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "gen/gen.h"
#include "ir/ir.h"

#define GEN_MAXN 16                 /* limbs */
#define GEN_MW (2 * GEN_MAXN + 4)   /* words of a multi-word value */

/* ---- builder ------------------------------------------------------------------------------------------------- */

typedef struct {
    ir_func *f;
    unsigned next;  /* number of the next fresh name x<next> */
    bool failed;    /* an ir_emit failed: f->err says why; every later call returns IR_NOVAL */
} gen_b;

/* gb_k64, gb_k1 — the constants k (u64) and k (u1). */
ir_val gb_k64(gen_b *b, uint64_t k);
ir_val gb_k1(gen_b *b, unsigned k);
/* gb_op1/2/3 — one node with one result named x<N>; IR_NOVAL after a failure. */
ir_val gb_op1(gen_b *b, ir_op op, unsigned width, ir_val x);
ir_val gb_op2(gen_b *b, ir_op op, unsigned width, ir_val x, ir_val y);
ir_val gb_op3(gen_b *b, ir_op op, unsigned width, ir_val x, ir_val y, ir_val z);
/* gb_mulx — (lo, hi) = x * y (64-bit words). gb_adc — (s, co) = c + x + y. gb_sbb — (d, bo) = x - y - c. */
void gb_mulx(gen_b *b, ir_val x, ir_val y, ir_val *lo, ir_val *hi);
void gb_adc(gen_b *b, ir_val c, ir_val x, ir_val y, ir_val *s, ir_val *co);
void gb_sbb(gen_b *b, ir_val c, ir_val x, ir_val y, ir_val *d, ir_val *bo);
/* gb_load — input limb arr[limb], named by the IR's default (arg1_0, ...). */
ir_val gb_load(gen_b *b, uint32_t arr, uint32_t limb);
void gb_store(gen_b *b, uint32_t arr, uint32_t limb, ir_val v);
/* gb_hi — the value's upper bound (0 for IR_NOVAL, which stands for a known zero). */
ir_u128 gb_hi(const gen_b *b, ir_val v);
/* gb_const — true when v is a constant (its value in *k). */
bool gb_const(const gen_b *b, ir_val v, ir_u128 *k);

/* gen_func_new — a function with "out1" (n limbs, bounds outhi, may alias every input) and nin inputs "arg1",
 * "arg2" (n limbs, bounds inhi); NULL hi arrays mean 2^64-1. NULL with err when memory runs out. */
ir_func *gen_func_new(const char *name, unsigned n, unsigned nin, const ir_u128 *inhi, const ir_u128 *outhi,
                      char *err, size_t errlen);

/* gen_finish — b's function checked: no builder failure, ir_validate, ir_bounds. On failure frees it, writes
 * "<what>: <reason>" to err and returns NULL. */
ir_func *gen_finish(gen_b *b, const char *what, char *err, size_t errlen);

/* ---- multi-word values ---------------------------------------------------------------------------------------
 * A value sum w[k] 2^(64k) with a proven maximum `max` (GMP). w[k] == IR_NOVAL is a zero word. The maximum decides
 * how many words a sum needs, so the carry out of the top word of a sum is dropped only where the maximum proves it
 * zero. */
typedef struct {
    ir_val w[GEN_MW];
    unsigned len;
    mpz_t max;
} gen_mw;

void mw_init(gen_mw *m);
void mw_clear(gen_mw *m);
/* mw_set — m = the words x[0..len-1] with maximum max. */
void mw_set(gen_mw *m, const ir_val *x, unsigned len, const mpz_t max);
/* mw_add — acc += x * 2^(64 off), x being xlen words with maximum xmax. summax (may be NULL) overrides the
 * maximum of the sum when the caller knows a tighter one (the sum then has exactly that many words). When top is
 * non-NULL and the top word of the sum would be the lone carry out of the word below, that carry (u1) goes to *top
 * and the word is not made. */
void mw_add(gen_b *b, gen_mw *acc, const ir_val *x, unsigned xlen, unsigned off, const mpz_t xmax,
            const mpz_t summax, ir_val *top);
/* mw_sub — acc -= x (xlen words) for a difference known to be at least 0 and at most resmax (which becomes acc's
 * maximum; words above it are dropped). One subborrowx chain from word 0. */
void mw_sub(gen_b *b, gen_mw *acc, const ir_val *x, unsigned xlen, const mpz_t resmax);
/* mw_mul_word — out = a * y for the multi-word a (maximum a->max) and the word y (maximum ymax): one mulx per
 * word of a (none for a zero word or a constant 0 or 1), then the high halves added in with one carry chain. */
void mw_mul_word(gen_b *b, gen_mw *out, const gen_mw *a, ir_val y, const mpz_t ymax);

/* ---- methods -------------------------------------------------------------------------------------------------- */

/* Each returns the function (metadata other than the arrays set by gen_build) or NULL with err. p is the prime. */
ir_func *gen_solinas_unsaturated(const mpz_t p, unsigned n, ir_kind op, const char *name, char *err, size_t errlen,
                                 uint8_t *limbw);
ir_func *gen_solinas_saturated(const mpz_t p, unsigned n, ir_kind op, const char *name, char *err, size_t errlen);
ir_func *gen_solinas_saturated_2chain(const mpz_t p, unsigned n, ir_kind op, const char *name, char *err,
                                     size_t errlen);
/* gen_montgomery — sparse: the reduction rounds use the form of p (shifts and subtractions for its sparse words,
 * mulx for the rest; gen_mont.c); the function computed is the same. */
ir_func *gen_montgomery(const mpz_t p, unsigned n, ir_kind op, const char *name, char *err, size_t errlen,
                        bool sparse);


#endif
