/* edges.c — the checker's edge inputs at the prime (check/edges.h). */
#include "check/edges.h"

#include <stdbool.h>
#include <string.h>

/* ---- the prime expression ---------------------------------------------------------------------------------------
 * Recursive descent:  expr = term (('+' | '-') term)*,  term = power ('*' power)*,  power = atom ('^' power)?,
 * atom = number | '(' expr ')'.  Every value is bounded by CHECK_PRIME_MAX_BITS as soon as it is made. */

enum { PX_MAX_DEPTH = 100 };

typedef struct {
    const char *s;
    size_t i;
    unsigned depth;
    bool bad;
} px;

static void px_blank(px *P)
{
    while (P->s[P->i] == ' ' || P->s[P->i] == '\t')
        P->i++;
}

static void px_limit(px *P, const mpz_t r)
{
    if (mpz_sizeinbase(r, 2) > CHECK_PRIME_MAX_BITS)
        P->bad = true;
}

static int px_digit(char c, int base)
{
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                                                        : 99;
    return d < base ? d : -1;
}

static void px_expr(px *P, mpz_t r);

static void px_atom(px *P, mpz_t r)
{
    px_blank(P);
    if (P->s[P->i] == '(') {
        if (++P->depth > PX_MAX_DEPTH) {
            P->bad = true;
            return;
        }
        P->i++;
        px_expr(P, r);
        P->depth--;
        px_blank(P);
        if (P->bad || P->s[P->i] != ')') {
            P->bad = true;
            return;
        }
        P->i++;
        return;
    }
    int base = 10;
    if (P->s[P->i] == '0' && (P->s[P->i + 1] == 'x' || P->s[P->i + 1] == 'X')) {
        base = 16;
        P->i += 2;
    }
    if (px_digit(P->s[P->i], base) < 0) {
        P->bad = true;
        return;
    }
    mpz_set_ui(r, 0);
    for (int d; !P->bad && (d = px_digit(P->s[P->i], base)) >= 0; P->i++) {
        mpz_mul_ui(r, r, (unsigned long)base);
        mpz_add_ui(r, r, (unsigned long)d);
        px_limit(P, r);
    }
    /* "12ab" or "0x1g": a number runs into letters */
    char c = P->s[P->i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
        P->bad = true;
}

static void px_power(px *P, mpz_t r)
{
    px_atom(P, r);
    px_blank(P);
    if (P->bad || P->s[P->i] != '^')
        return;
    P->i++;
    if (++P->depth > PX_MAX_DEPTH) {
        P->bad = true;
        return;
    }
    mpz_t e;
    mpz_init(e);
    px_power(P, e); /* right-associative: 2^3^2 = 2^9 */
    P->depth--;
    if (!P->bad) {
        /* |r| >= 2 gives |r|^e >= 2^(b e), b = floor(log2 |r|): refuse before computing; 0, 1 (and -1) stay small */
        size_t b = mpz_cmpabs_ui(r, 1) <= 0 ? 0 : mpz_sizeinbase(r, 2) - 1;
        if (mpz_sgn(e) < 0)
            P->bad = true;
        else if (b == 0)
            mpz_pow_ui(r, r, mpz_odd_p(e) ? 1 : mpz_sgn(e) == 0 ? 0 : 2);
        else if (mpz_cmp_ui(e, CHECK_PRIME_MAX_BITS) > 0 || b * mpz_get_ui(e) > CHECK_PRIME_MAX_BITS)
            P->bad = true;
        else {
            mpz_pow_ui(r, r, mpz_get_ui(e));
            px_limit(P, r);
        }
    }
    mpz_clear(e);
}

static void px_chain(px *P, mpz_t r, const char *ops, void (*sub)(px *, mpz_t))
{
    sub(P, r);
    mpz_t t;
    mpz_init(t);
    for (;;) {
        px_blank(P);
        char c = P->s[P->i];
        if (P->bad || !c || !strchr(ops, c))
            break;
        P->i++;
        sub(P, t);
        if (P->bad)
            break;
        if (c == '*')
            mpz_mul(r, r, t);
        else if (c == '+')
            mpz_add(r, r, t);
        else
            mpz_sub(r, r, t);
        px_limit(P, r);
    }
    mpz_clear(t);
}

static void px_term(px *P, mpz_t r) { px_chain(P, r, "*", px_power); }
static void px_expr(px *P, mpz_t r) { px_chain(P, r, "+-", px_term); }

int check_prime_value(const char *s, mpz_t out)
{
    px P = { s ? s : "", 0, 0, false };
    px_blank(&P);
    if (!P.s[P.i])
        return -1;
    px_expr(&P, out);
    px_blank(&P);
    return P.bad || P.s[P.i] ? -1 : 0;
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
