/* edges.c — the checker's edge inputs at the prime (check/edges.h). */
#include "check/edges.h"

#include <stdbool.h>

#include "ir/prime_expr.h"

/* ---- the prime expression: ir_prime_expr_eval (ir/prime_expr.h) with the checker's limits ---------------------- */

enum { PX_MAX_DEPTH = 100 };

int check_prime_value(const char *s, mpz_t out)
{
    return ir_prime_expr_eval(out, s, CHECK_PRIME_MAX_BITS, PX_MAX_DEPTH, NULL, 0);
}

/* ---- limbs ------------------------------------------------------------------------------------------------------ */

int check_edge_limbs(const ir_func *f, uint32_t arr, const mpz_t v, uint64_t *limbs)
{
    const ir_array *a = &f->arr[arr];
    uint32_t n = a->len;
    if (mpz_sgn(v) < 0 || n == 0)
        return 0;
    bool radix = f->repr == IR_REPR_RADIX;
    if (radix && f->nlimbw != n)
        return 0;
    mpz_t t;
    mpz_init(t);
    int ok = 1;
    unsigned long at = 0; /* W_i */
    for (uint32_t i = 0; i < n && ok; i++) {
        unsigned w = radix ? f->limbw[i] : 64;
        mpz_tdiv_q_2exp(t, v, at);
        if (i + 1 < n)
            mpz_fdiv_r_2exp(t, t, w);
        if (mpz_sizeinbase(t, 2) > 64)
            ok = 0; /* the last limb cannot hold the rest */
        else {
            /* two 32-bit halves: unsigned long may be 32 bits wide */
            uint64_t lo32 = (uint64_t)mpz_get_ui(t) & 0xffffffffu;
            mpz_tdiv_q_2exp(t, t, 32);
            limbs[i] = (uint64_t)mpz_get_ui(t) << 32 | lo32;
            ok = limbs[i] >= a->lo[i] && limbs[i] <= a->hi[i];
        }
        at += w;
    }
    mpz_clear(t);
    return ok;
}

int check_edges(const ir_func *f, uint32_t arr, uint64_t *out, unsigned *which)
{
    if (!f->prime[0])
        return 0;
    mpz_t p, v;
    mpz_inits(p, v, NULL);
    int n = 0;
    if (check_prime_value(f->prime, p) == 0 && mpz_cmp_ui(p, 2) >= 0) {
        uint32_t len = f->arr[arr].len;
        for (unsigned k = 0; k < CHECK_NEDGE; k++) {
            /* k: p - 1, p, p + 1, 2p - 1, 2p */
            mpz_mul_ui(v, p, k < 3 ? 1 : 2);
            if (k == 0 || k == 3)
                mpz_sub_ui(v, v, 1);
            else if (k == 2)
                mpz_add_ui(v, v, 1);
            if (check_edge_limbs(f, arr, v, out + (size_t)n * len)) {
                if (which)
                    which[n] = k;
                n++;
            }
        }
    }
    mpz_clears(p, v, NULL);
    return n;
}
