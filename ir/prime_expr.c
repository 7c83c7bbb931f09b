/* prime_expr.c — the prime expression evaluator (ir/prime_expr.h). */
#include "ir/prime_expr.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t i;
    unsigned max_bits, max_depth;
    unsigned depth; /* parentheses and ^ nesting, bounded so that no input can exhaust the stack */
    char *err;
    size_t errlen;
    bool failed;
} parser;

/* the first error wins: a caller's later check cannot overwrite the cause */
static void perr(parser *ps, size_t col, const char *msg)
{
    if (!ps->failed && ps->err && ps->errlen)
        snprintf(ps->err, ps->errlen, "malformed expression at column %zu: %s", col + 1, msg);
    ps->failed = true;
}

static void skip(parser *ps)
{
    while (ps->s[ps->i] == ' ' || ps->s[ps->i] == '\t')
        ps->i++;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void exceeds(parser *ps, size_t col)
{
    char msg[48];
    snprintf(msg, sizeof msg, "the value exceeds %u bits", ps->max_bits);
    perr(ps, col, msg);
}

static void too_big(parser *ps, size_t col, const mpz_t r)
{
    if (!ps->failed && mpz_sizeinbase(r, 2) > ps->max_bits)
        exceeds(ps, col);
}

/* one more level of nesting at column col; false (and the error) past max_depth */
static bool nest(parser *ps, size_t col)
{
    if (++ps->depth <= ps->max_depth)
        return true;
    char msg[48];
    snprintf(msg, sizeof msg, "nested deeper than %u", ps->max_depth);
    perr(ps, col, msg);
    return false;
}

static void p_expr(parser *ps, mpz_t r);

static void p_atom(parser *ps, mpz_t r)
{
    skip(ps);
    size_t col = ps->i;
    char c = ps->s[ps->i];
    if (c == '(') {
        if (!nest(ps, col))
            return;
        ps->i++;
        p_expr(ps, r);
        ps->depth--;
        if (ps->failed)
            return;
        skip(ps);
        if (ps->s[ps->i] != ')') {
            perr(ps, ps->i, ps->s[ps->i] ? "expected ')'" : "missing ')' at the end");
            return;
        }
        ps->i++;
        return;
    }
    if (c < '0' || c > '9') {
        perr(ps, col, c ? "expected a number or '('" : "expected a number or '(' at the end");
        return;
    }
    unsigned base = 10;
    if (c == '0' && (ps->s[ps->i + 1] == 'x' || ps->s[ps->i + 1] == 'X')) {
        base = 16;
        ps->i += 2;
        if (hexval(ps->s[ps->i]) < 0) {
            perr(ps, ps->i, "expected hex digits after 0x");
            return;
        }
    }
    /* the bound is checked digit by digit, so that a long literal costs no more than a max_bits-bit one */
    mpz_set_ui(r, 0);
    for (int d; !ps->failed && (d = hexval(ps->s[ps->i])) >= 0 && (unsigned)d < base; ps->i++) {
        mpz_mul_ui(r, r, base);
        mpz_add_ui(r, r, (unsigned long)d);
        too_big(ps, col, r);
    }
    c = ps->s[ps->i];
    if (!ps->failed && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.'))
        perr(ps, ps->i, "unexpected character in a number");
}

static void p_power(parser *ps, mpz_t r)
{
    p_atom(ps, r);
    if (ps->failed)
        return;
    skip(ps);
    if (ps->s[ps->i] != '^')
        return;
    size_t col = ps->i;
    ps->i++;
    if (!nest(ps, col))
        return;
    mpz_t e;
    mpz_init(e);
    p_power(ps, e); /* right-associative: 2^3^2 = 2^9 */
    ps->depth--;
    if (!ps->failed) {
        /* |r|^e has at least e * rb bits (rb = floor(log2 |r|)): refuse those before computing anything huge.
         * 0, 1 and -1 (rb = 0) stay 0, 1 or -1 for any e: r^e is r^(e mod 2 or 2), with 0^0 = 1. */
        size_t rb = mpz_cmpabs_ui(r, 1) <= 0 ? 0 : mpz_sizeinbase(r, 2) - 1;
        if (mpz_sgn(e) < 0)
            perr(ps, col, "negative exponent");
        else if (rb == 0)
            mpz_pow_ui(r, r, mpz_sgn(e) == 0 ? 0 : mpz_odd_p(e) ? 1 : 2);
        else if (mpz_cmp_ui(e, ps->max_bits) > 0 || rb * mpz_get_ui(e) > ps->max_bits)
            exceeds(ps, col);
        else {
            mpz_pow_ui(r, r, mpz_get_ui(e)); /* below 2^((rb+1)e) <= 2^(2 max_bits): cheap */
            too_big(ps, col, r);
        }
    }
    mpz_clear(e);
}

/* A left-associative chain sub (op sub)*, op one of ops: `*` for terms, `+ -` for expressions. */
static void p_chain(parser *ps, mpz_t r, const char *ops, void (*sub)(parser *, mpz_t))
{
    sub(ps, r);
    mpz_t t;
    mpz_init(t);
    for (;;) {
        if (ps->failed)
            break;
        skip(ps);
        char c = ps->s[ps->i];
        if (!c || !strchr(ops, c))
            break;
        size_t col = ps->i;
        ps->i++;
        sub(ps, t);
        if (ps->failed)
            break;
        if (c == '*')
            mpz_mul(r, r, t);
        else if (c == '+')
            mpz_add(r, r, t);
        else
            mpz_sub(r, r, t);
        too_big(ps, col, r);
    }
    mpz_clear(t);
}

static void p_term(parser *ps, mpz_t r) { p_chain(ps, r, "*", p_power); }
static void p_expr(parser *ps, mpz_t r) { p_chain(ps, r, "+-", p_term); }

int ir_prime_expr_eval(mpz_t out, const char *text, unsigned max_bits, unsigned max_depth, char *err, size_t errlen)
{
    parser ps = { .s = text ? text : "", .max_bits = max_bits, .max_depth = max_depth, .err = err, .errlen = errlen };
    if (err && errlen)
        err[0] = 0;
    skip(&ps);
    if (!ps.s[ps.i]) {
        perr(&ps, 0, "the expression is empty");
        return -1;
    }
    p_expr(&ps, out);
    if (!ps.failed) {
        skip(&ps);
        if (ps.s[ps.i])
            perr(&ps, ps.i, ps.s[ps.i] == ')' ? "unmatched ')'" : "expected an operator (+ - * ^)");
    }
    return ps.failed ? -1 : 0;
}
