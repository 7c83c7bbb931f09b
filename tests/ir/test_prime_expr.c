/* test_prime_expr.c — ir.prime_expr: ir_prime_expr_eval (ir/prime_expr.h) with its limits as parameters.
 *
 *   1. Random expression trees (literals decimal and hex, + - * ^, blanks, redundant parentheses), printed with the
 *      fewest parentheses the precedence rules allow, evaluated here on the tree with mpz arithmetic; random
 *      max_bits and max_depth. Accepted exactly when no value on the way exceeds max_bits, no exponent is negative and
 *      the nesting the tree prints with is at most max_depth; then the value is the tree's.
 *   2. The limits at their edges, each message with its column, err NULL, a short err buffer.
 *   3. Random byte mutations of printed expressions: a refusal always says "malformed expression at column C" with C
 *      inside the text (run it in the ASan build too).
 * gen's and check's wrappers (gen_prime_eval, check_prime_value) are tested by gen.build and check.edges.
 *
 * Usage: test_prime_expr [--seed N] [--iters N] */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gmp.h>

#include "ir/prime_expr.h"

static int failures;

#define CHECK(cond, ...)                                                                                              \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            failures++;                                                                                               \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                                      \
            fprintf(stderr, __VA_ARGS__);                                                                             \
            fputc('\n', stderr);                                                                                      \
        }                                                                                                             \
    } while (0)

static uint64_t rng_state = 1;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static unsigned rnd_below(unsigned n) { return (unsigned)(rnd() % n); }

/* ---- 1. random trees -------------------------------------------------------------------------------------------- */

enum { MAXNODE = 64, TEXTMAX = 1 << 16 };

typedef struct {
    char op; /* 0 a literal, else + - * ^ */
    int a, b;
    bool hex, paren; /* a literal in hex; parentheses beyond those the precedence needs */
} node;

typedef struct {
    node n[MAXNODE];
    mpz_t lit[MAXNODE];
    int count;
} tree;

static int prec(char op) { return op == 0 ? 4 : op == '^' ? 3 : op == '*' ? 2 : 1; }

static int build(tree *t, int budget)
{
    int k = t->count++;
    node *n = &t->n[k];
    memset(n, 0, sizeof *n);
    n->paren = rnd_below(8) == 0;
    if (budget <= 1 || rnd_below(3) == 0) {
        /* small numbers mostly (exponents and bases that stay in range), sometimes long ones */
        unsigned r = rnd_below(10);
        if (r < 6)
            mpz_set_ui(t->lit[k], rnd_below(r < 3 ? 4 : 40));
        else {
            mpz_set_ui(t->lit[k], 0);
            for (unsigned w = 1 + rnd_below(r == 9 ? 40 : 3); w--;) {
                mpz_mul_2exp(t->lit[k], t->lit[k], 32);
                mpz_add_ui(t->lit[k], t->lit[k], (unsigned long)(rnd() & 0xffffffffu));
            }
        }
        n->hex = rnd_below(3) == 0;
        return k;
    }
    static const char ops[] = "+-*^";
    n->op = ops[rnd_below(4)];
    int left = 1 + rnd_below((unsigned)budget - 1);
    n->a = build(t, left);
    n->b = build(t, budget - left);
    return k;
}

typedef struct {
    char *s;
    size_t len;
    unsigned depth; /* the deepest nesting of '(' and '^' the parser will meet */
} printer;

static void put(printer *p, const char *s)
{
    size_t l = strlen(s);
    if (p->len + l + 1 < TEXTMAX) {
        memcpy(p->s + p->len, s, l + 1);
        p->len += l;
    }
}

static void blanks(printer *p)
{
    for (unsigned b = rnd_below(6) == 0 ? 1 + rnd_below(2) : 0; b--;)
        put(p, rnd_below(2) ? " " : "\t");
}

/* the node printed at nesting d; parenthesised when its parent's precedence (pp) or side asks for it */
static void print_node(printer *p, const tree *t, int k, unsigned d, int pp, bool need_equal)
{
    const node *n = &t->n[k];
    bool par = n->paren || prec(n->op) < pp || (need_equal && prec(n->op) == pp);
    blanks(p);
    if (par) {
        put(p, "(");
        d++;
        if (d > p->depth)
            p->depth = d;
    }
    if (!n->op) {
        blanks(p);
        char *digits = mpz_get_str(NULL, n->hex ? 16 : 10, t->lit[k]);
        if (n->hex) {
            put(p, rnd_below(2) ? "0x" : "0X");
            for (char *c = digits; *c; c++)
                if (*c >= 'a' && *c <= 'f' && rnd_below(2))
                    *c = (char)(*c - 'a' + 'A');
        }
        put(p, digits);
        free(digits);
    } else {
        int q = prec(n->op);
        /* + - * are left-associative: a right operand of the same precedence needs parentheses; ^ is
         * right-associative: a left one does; and the right operand of ^ is parsed one level deeper */
        print_node(p, t, n->a, d, q, n->op == '^');
        blanks(p);
        char o[2] = { n->op, 0 };
        put(p, o);
        if (n->op == '^' && d + 1 > p->depth)
            p->depth = d + 1;
        print_node(p, t, n->b, n->op == '^' ? d + 1 : d, q, n->op != '^');
    }
    blanks(p);
    if (par)
        put(p, ")");
}

/* the tree's value at k into r; false when a value exceeds max_bits or an exponent is negative */
static bool model(const tree *t, int k, mpz_t r, unsigned max_bits)
{
    const node *n = &t->n[k];
    if (!n->op) {
        mpz_set(r, t->lit[k]);
        return mpz_sizeinbase(r, 2) <= max_bits;
    }
    mpz_t b;
    mpz_init(b);
    bool ok = model(t, n->a, r, max_bits) && model(t, n->b, b, max_bits);
    if (ok) {
        switch (n->op) {
        case '+': mpz_add(r, r, b); break;
        case '-': mpz_sub(r, r, b); break;
        case '*': mpz_mul(r, r, b); break;
        default:
            if (mpz_sgn(b) < 0)
                ok = false;
            else if (mpz_sgn(r) == 0)
                mpz_set_ui(r, mpz_sgn(b) == 0); /* 0^0 = 1 */
            else if (mpz_cmp_si(r, -1) == 0)
                mpz_set_si(r, mpz_odd_p(b) ? -1 : 1);
            else if (mpz_cmp_ui(r, 1) == 0)
                ;
            else if (mpz_cmp_ui(b, max_bits) > 0 || (mpz_sizeinbase(r, 2) - 1) * mpz_get_ui(b) > max_bits)
                ok = false; /* |r| >= 2^k, k >= 1: |r|^b >= 2^(k b), more than max_bits bits (and too long to make) */
            else
                mpz_pow_ui(r, r, mpz_get_ui(b));
        }
        ok = ok && mpz_sizeinbase(r, 2) <= max_bits;
    }
    mpz_clear(b);
    return ok;
}

static void test_random(int iters)
{
    tree t;
    for (int i = 0; i < MAXNODE; i++)
        mpz_init(t.lit[i]);
    char *text = malloc(TEXTMAX);
    char err[200];
    mpz_t got, want;
    mpz_inits(got, want, NULL);
    int accepted = 0, by_bits = 0, by_depth = 0;
    for (int it = 0; it < iters; it++) {
        t.count = 0;
        int root = build(&t, 1 + (int)rnd_below(MAXNODE / 2));
        printer p = { text, 0, 0 };
        text[0] = 0;
        print_node(&p, &t, root, 0, 0, false);
        unsigned max_bits = rnd_below(4) ? 8 + rnd_below(600) : 8192;
        /* the limit at the nesting the text has, one below or above it, or far */
        unsigned r = rnd_below(4), max_depth = r == 3 || p.depth < 2 ? 200 : p.depth - 1 + r;
        bool fits = model(&t, root, want, max_bits);
        bool ok = fits && p.depth <= max_depth;
        int rc = ir_prime_expr_eval(got, text, max_bits, max_depth, err, sizeof err);
        if (ok) {
            accepted++;
            CHECK(rc == 0, "\"%s\" (max_bits %u, max_depth %u, nesting %u) refused: %s", text, max_bits, max_depth,
                  p.depth, err);
            if (rc == 0 && mpz_cmp(got, want)) {
                failures++;
                gmp_fprintf(stderr, "FAIL: \"%s\" = %Zd, want %Zd\n", text, got, want);
            }
        } else {
            by_bits += !fits;
            by_depth += fits;
            CHECK(rc == -1, "\"%s\" (max_bits %u, max_depth %u, nesting %u, fits %d) accepted", text, max_bits,
                  max_depth, p.depth, fits);
            CHECK(rc == 0 || !strncmp(err, "malformed expression at column ", 31), "\"%s\": message %s", text, err);
        }
    }
    printf("random trees: %d, %d accepted, %d refused for their size, %d for their nesting\n", iters, accepted,
           by_bits, by_depth);
    CHECK(accepted > iters / 10 && by_bits > iters / 50 && by_depth > iters / 100, "the trees do not cover all three");
    mpz_clears(got, want, NULL);
    for (int i = 0; i < MAXNODE; i++)
        mpz_clear(t.lit[i]);
    free(text);
}

/* ---- 2. limits and messages ------------------------------------------------------------------------------------- */

static void expect(const char *text, unsigned max_bits, unsigned max_depth, long value, const char *msg)
{
    mpz_t v;
    mpz_init(v);
    char err[200] = "untouched";
    int rc = ir_prime_expr_eval(v, text, max_bits, max_depth, err, sizeof err);
    if (msg)
        CHECK(rc == -1 && !strcmp(err, msg), "\"%s\" (%u bits, depth %u): rc %d, \"%s\", want \"%s\"", text, max_bits,
              max_depth, rc, err, msg);
    else
        CHECK(rc == 0 && mpz_cmp_si(v, value) == 0 && err[0] == 0, "\"%s\" (%u bits, depth %u): rc %d, %s, want %ld",
              text, max_bits, max_depth, rc, err, value);
    mpz_clear(v);
}

static void test_limits(void)
{
    expect("65535", 16, 10, 65535, NULL);
    expect("65536", 16, 10, 0, "malformed expression at column 1: the value exceeds 16 bits");
    expect(" 0xffff", 16, 10, 65535, NULL);
    expect("1 + 0x10000", 16, 10, 0, "malformed expression at column 5: the value exceeds 16 bits");
    expect("2^15", 16, 10, 32768, NULL);
    expect("2^16", 16, 10, 0, "malformed expression at column 2: the value exceeds 16 bits");
    expect("2^17", 16, 10, 0, "malformed expression at column 2: the value exceeds 16 bits");
    expect("3^17", 16, 10, 0, "malformed expression at column 2: the value exceeds 16 bits");
    expect("3^99999999999999999999", 16, 10, 0, "malformed expression at column 3: the value exceeds 16 bits");
    expect("3^99999999999999999999", 80, 10, 0, "malformed expression at column 2: the value exceeds 80 bits");
    expect("1^99999999999999999999 + 0^7 + (0-1)^3 + 0^0", 80, 10, 1, NULL);
    expect("255*257", 16, 10, 65535, NULL);
    expect("256*256", 16, 10, 0, "malformed expression at column 4: the value exceeds 16 bits");
    expect("32768+32767", 16, 10, 65535, NULL);
    expect("32768+32768", 16, 10, 0, "malformed expression at column 6: the value exceeds 16 bits");
    expect("0-65535", 16, 10, -65535, NULL);
    expect("0-65535-1", 16, 10, 0, "malformed expression at column 8: the value exceeds 16 bits");
    expect("((2))", 2, 2, 2, NULL);
    expect("(((2)))", 2, 2, 0, "malformed expression at column 3: nested deeper than 2");
    expect("2^2^1", 3, 2, 4, NULL);
    expect("1^1^1^1", 3, 2, 0, "malformed expression at column 6: nested deeper than 2");
    expect("2^(1)", 3, 1, 0, "malformed expression at column 3: nested deeper than 1");
    expect("", 8, 1, 0, "malformed expression at column 1: the expression is empty");
    expect(" \t", 8, 1, 0, "malformed expression at column 1: the expression is empty");
    expect("2^(0-1)", 8, 4, 0, "malformed expression at column 2: negative exponent");
    expect("7 7", 8, 4, 0, "malformed expression at column 3: expected an operator (+ - * ^)");
    expect("7)", 8, 4, 0, "malformed expression at column 2: unmatched ')'");
    expect("(7", 8, 4, 0, "malformed expression at column 3: missing ')' at the end");
    expect("(7 7)", 8, 4, 0, "malformed expression at column 4: expected ')'");
    expect("7+", 8, 4, 0, "malformed expression at column 3: expected a number or '(' at the end");
    expect("-7", 8, 4, 0, "malformed expression at column 1: expected a number or '('");
    expect("0x", 8, 4, 0, "malformed expression at column 3: expected hex digits after 0x");
    expect("0xfg", 8, 4, 0, "malformed expression at column 4: unexpected character in a number");
    expect("1.5", 8, 4, 0, "malformed expression at column 2: unexpected character in a number");
    expect("12_3", 8, 4, 0, "malformed expression at column 3: unexpected character in a number");
    /* no err buffer; a short one is cut, never overrun */
    mpz_t v;
    mpz_init(v);
    CHECK(ir_prime_expr_eval(v, "2^^3", 8, 4, NULL, 0) == -1, "\"2^^3\" accepted without an err buffer");
    CHECK(ir_prime_expr_eval(v, NULL, 8, 4, NULL, 0) == -1, "NULL accepted");
    char small[12];
    memset(small, 'x', sizeof small);
    CHECK(ir_prime_expr_eval(v, "2^^3", 8, 4, small, 8) == -1 && !strcmp(small, "malform") && small[8] == 'x',
          "a short err buffer: \"%.8s\"", small);
    mpz_clear(v);
    printf("limits and messages: done\n");
}

/* ---- 3. mutations ------------------------------------------------------------------------------------------------ */

static void test_mutations(int iters)
{
    static const char *const seeds[] = { "2^255-19", "2^256-2^224+2^192+2^96-1", "(2^7)^3*0 + 0x7fffffff",
                                         "2^216*3^137-1", "((1+2)*(3-4))^2^2" };
    static const char alphabet[] = "0123456789xXaF()+-*^ \t._q";
    char text[64], err[200];
    mpz_t v;
    mpz_init(v);
    int parsed = 0;
    for (int it = 0; it < iters; it++) {
        snprintf(text, sizeof text, "%s", seeds[rnd_below(sizeof seeds / sizeof seeds[0])]);
        for (unsigned m = 1 + rnd_below(4); m--;) {
            size_t len = strlen(text), at = rnd_below((unsigned)len + 1);
            unsigned kind = rnd_below(3);
            if (kind == 0 && len + 1 < sizeof text) { /* insert */
                memmove(text + at + 1, text + at, len - at + 1);
                text[at] = alphabet[rnd_below(sizeof alphabet - 1)];
            } else if (kind == 1 && at < len) { /* delete */
                memmove(text + at, text + at + 1, len - at);
            } else if (at < len) { /* replace */
                text[at] = alphabet[rnd_below(sizeof alphabet - 1)];
            }
        }
        err[0] = 0;
        if (ir_prime_expr_eval(v, text, 1024, 8, err, sizeof err) == 0) {
            parsed++;
            CHECK(err[0] == 0, "\"%s\" accepted with a message: %s", text, err);
            continue;
        }
        unsigned long col = 0;
        CHECK(sscanf(err, "malformed expression at column %lu: ", &col) == 1 && col >= 1 && col <= strlen(text) + 1,
              "\"%s\": message \"%s\"", text, err);
    }
    printf("mutations: %d, %d parsed\n", iters, parsed);
    CHECK(parsed > 0 && parsed < iters, "the mutations are all accepted or all refused");
    mpz_clear(v);
}

int main(int argc, char **argv)
{
    uint64_t seed = (uint64_t)time(NULL);
    int iters = 20000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: test_prime_expr [--seed N] [--iters N]\n");
            return 2;
        }
    }
    printf("seed %llu, iters %d\n", (unsigned long long)seed, iters);
    rng_state = seed ? seed : 1;
    test_limits();
    test_random(iters);
    test_mutations(iters);
    if (failures) {
        printf("%d failures (seed %llu)\n", failures, (unsigned long long)seed);
        return 1;
    }
    printf("ok\n");
    return 0;
}
