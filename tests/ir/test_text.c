/* test_text.c — ir.text: the IR text form (ir/text.c, grammar in ir/TEXT.md).
 *
 *   round trips   functions built with the ir.h builder (every op, every width, two-result ops, constants of every
 *                 width, arrays with aliases and bounds, every kind of metadata, duplicate and non-identifier
 *                 names, a large function): parse(print(f)) is f, print(parse(print(f))) == print(f) byte for
 *                 byte, and both evaluate alike on random inputs;
 *   composition   `call` chains two levels deep computing (a+b)*c in radix 2^32, checked against GMP; the < p
 *                 rules; the inlined function is flat;
 *   errors        every parse error gives `line N: <reason>` with the right line and text;
 *   fuzz          random truncations and mutations of valid texts never crash; what parses round-trips.
 *
 * Usage: test_text [--seed N] [--iters N]  (iters: fuzz mutations; random inputs scale with it) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "ir/ir.h"

#include <ctype.h>
#include <gmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TEXT_MD
#define TEXT_MD "ir/TEXT.md"
#endif

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

/* ---- random numbers (xorshift64*) ---------------------------------------------------------------------------------- */

static uint64_t rng_state = 1;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

/* a value in [lo, hi] (hi <= 2^64-1) with varied bit density: often an end point */
static uint64_t rnd_in(ir_u128 lo, ir_u128 hi)
{
    uint64_t l = (uint64_t)lo, h = (uint64_t)hi, span = h - l;
    switch (rnd() % 8) {
    case 0: return l;
    case 1: return h;
    case 2: return l + (span ? (rnd() & rnd()) % span : 0);
    default: return span == UINT64_MAX ? rnd() : l + rnd() % (span + 1);
    }
}

/* ---- comparing functions --------------------------------------------------------------------------------------------- */

static const char *hex(ir_u128 x)
{
    static char buf[8][40];
    static int i;
    i = (i + 1) & 7;
    return ir_u128_hex(x, buf[i]);
}

/* same_func — g equals f: metadata, arrays, node order, operations, operands (constants by width and value, other
 * values by defining node and slot), result widths and bounds, and names when `names`. NULL or the difference. */
static const char *same_func(const ir_func *f, const ir_func *g, bool names)
{
    static char why[1200];
#define DIFF(...) return (snprintf(why, sizeof why, __VA_ARGS__), why)
    if (names && strcmp(f->name, g->name))
        DIFF("function name %s vs %s", f->name, g->name);
    if (strcmp(f->prime, g->prime))
        DIFF("prime `%s` vs `%s`", f->prime, g->prime);
    if (f->repr != g->repr || f->nlimbw != g->nlimbw || memcmp(f->limbw, g->limbw, f->nlimbw))
        DIFF("repr");
    if (f->kind != g->kind || f->pre_lt_p != g->pre_lt_p)
        DIFF("kind or precondition");
    if (f->narr != g->narr)
        DIFF("%u vs %u arrays", f->narr, g->narr);
    for (uint32_t i = 0; i < f->narr; i++) {
        const ir_array *a = &f->arr[i], *b = &g->arr[i];
        if ((names && strcmp(a->name, b->name)) || a->is_output != b->is_output || a->len != b->len ||
            a->width != b->width || a->alias != b->alias)
            DIFF("array %u (%s vs %s)", i, a->name, b->name);
        for (uint32_t l = 0; l < a->len; l++)
            if (a->lo[l] != b->lo[l] || a->hi[l] != b->hi[l])
                DIFF("array %s limb %u bounds", a->name, l);
    }
    if (f->nnode != g->nnode)
        DIFF("%u vs %u nodes", f->nnode, g->nnode);
    for (uint32_t i = 0; i < f->nnode; i++) {
        const ir_node *m = &f->node[i], *n = &g->node[i];
        if (m->op != n->op || m->nargs != n->nargs || m->nres != n->nres || m->size != n->size)
            DIFF("node %u: %s vs %s", i, ir_op_name((ir_op)m->op), ir_op_name((ir_op)n->op));
        if ((m->op == IR_LOAD || m->op == IR_STORE) && (m->arr != n->arr || m->limb != n->limb))
            DIFF("node %u: array limb", i);
        for (unsigned k = 0; k < m->nargs; k++) {
            const ir_value *a = &f->val[m->arg[k]], *b = &g->val[n->arg[k]];
            if (a->is_const != b->is_const || a->width != b->width)
                DIFF("node %u operand %u: kind or width", i, k);
            if (a->is_const ? a->k != b->k : (a->node != b->node || a->slot != b->slot))
                DIFF("node %u operand %u: %s vs %s", i, k, a->name, b->name);
        }
        for (unsigned k = 0; k < m->nres; k++) {
            const ir_value *a = &f->val[m->res[k]], *b = &g->val[n->res[k]];
            if (a->width != b->width || a->lo != b->lo || a->hi != b->hi || a->slot != b->slot)
                DIFF("node %u result %u (%s): width or bounds [%s, %s] vs [%s, %s]", i, k, a->name, hex(a->lo),
                     hex(a->hi), hex(b->lo), hex(b->hi));
            if (names && strcmp(a->name, b->name))
                DIFF("node %u result %u: name %s vs %s", i, k, a->name, b->name);
        }
    }
    return NULL;
#undef DIFF
}

/* same_eval — f and g (same arrays) compute the same outputs on n random inputs within the input bounds. */
static int same_eval(const ir_func *f, const ir_func *g, int n)
{
    uint64_t buf[64][64], outf[64][64], outg[64][64];
    const uint64_t *in[64];
    uint64_t *of[64], *og[64];
    for (uint32_t j = 0; j < f->narr; j++) {
        in[j] = buf[j];
        of[j] = outf[j];
        og[j] = outg[j];
    }
    for (int it = 0; it < n; it++) {
        for (uint32_t j = 0; j < f->narr; j++)
            for (uint32_t l = 0; l < f->arr[j].len; l++)
                buf[j][l] = f->arr[j].is_output ? 0 : rnd_in(f->arr[j].lo[l], f->arr[j].hi[l]);
        memset(outf, 0xa5, sizeof outf);
        memset(outg, 0x5a, sizeof outg);
        if (ir_eval(f, in, of) < 0 || ir_eval(g, in, og) < 0)
            return -1;
        for (uint32_t j = 0; j < f->narr; j++)
            for (uint32_t l = 0; f->arr[j].is_output && l < f->arr[j].len; l++)
                if (outf[j][l] != outg[j][l]) {
                    fprintf(stderr, "  %s: %s[%u] = %s vs %s\n", f->name, f->arr[j].name, l, hex(outf[j][l]),
                            hex(outg[j][l]));
                    return -1;
                }
    }
    return 0;
}

static int eval_iters = 200;

/* roundtrip — print f, parse, compare, print again; returns the parsed function (or NULL). */
static ir_func *roundtrip(const ir_func *f, bool names, const char *label)
{
    char err[512];
    char *t1 = ir_print(f);
    CHECK(t1, "%s: ir_print failed", label);
    if (!t1)
        return NULL;
    ir_func *g = ir_parse(t1, err, sizeof err);
    CHECK(g, "%s: the printed text does not parse: %s\n%s", label, err, t1);
    if (!g) {
        free(t1);
        return NULL;
    }
    const char *d = same_func(f, g, names);
    CHECK(!d, "%s: parse(print(f)) differs from f: %s", label, d ? d : "");
    char *t2 = ir_print(g);
    CHECK(t2 && !strcmp(t1, t2), "%s: print(parse(print(f))) != print(f):\n%s\n----\n%s", label, t1, t2 ? t2 : "");
    CHECK(same_eval(f, g, eval_iters) == 0, "%s: f and parse(print(f)) evaluate differently", label);
    CHECK(!strstr(t1, "call "), "%s: a printed function shows a call", label);
    free(t1);
    free(t2);
    return g;
}

/* ---- functions built with the ir.h builder ----------------------------------------------------------------------------- */

static ir_val C(ir_func *f, unsigned w, ir_u128 k)
{
    ir_val v = ir_const(f, w, k);
    if (v == IR_NOVAL) {
        fprintf(stderr, "builder: %s\n", f->err);
        exit(1);
    }
    return v;
}

static ir_val OK(ir_func *f, ir_val v)
{
    if (v == IR_NOVAL) {
        fprintf(stderr, "builder: %s\n", f->err);
        exit(1);
    }
    return v;
}

static void two(ir_func *f, ir_op op, unsigned size, ir_val a, ir_val b, ir_val c, ir_val *r, const char *n0,
                const char *n1)
{
    ir_val args[3] = { a, b, c };
    const char *names[2] = { n0, n1 };
    if (ir_emit(f, op, 64, size, args, op == IR_MULX ? 2 : 3, r, names) < 0) {
        fprintf(stderr, "builder: %s\n", f->err);
        exit(1);
    }
}

static void store(ir_func *f, uint32_t arr, uint32_t limb, ir_val v)
{
    if (ir_store(f, arr, limb, v) < 0) {
        fprintf(stderr, "builder: %s\n", f->err);
        exit(1);
    }
}

/* every_op — every operation, every result width, two-result ops with several sizes, constants u1, u64 (small and
 * large), u128 (below and above 2^64), stores of u64, u1 and constant values; arrays with per-limb and uniform
 * bounds and aliases; all metadata. Every step stays within its type (ir_bounds passes). */
static ir_func *every_op(void)
{
    ir_func *f = ir_func_new("every_op");
    const ir_u128 M64 = ir_width_max(64);
    ir_u128 alo[4] = { (ir_u128)1 << 40, 0, 0, 0 }, ahi[4] = { (ir_u128)1 << 41, M64, 1, 0xffffffff };
    ir_u128 blo[2] = { 0, 0 }, bhi[2] = { 0x3fffffff, M64 };
    ir_u128 ulo[3] = { 0, 0, 0 }, uhi[3] = { 0x7ff, 0x7ff, 0x7ff };
    int o1 = ir_array_add(f, "o1", true, 8, NULL, NULL);
    int a = ir_array_add(f, "a", false, 4, alo, ahi);
    int b = ir_array_add(f, "b", false, 2, blo, bhi);
    int u = ir_array_add(f, "u", false, 3, ulo, uhi);
    int o2 = ir_array_add(f, "o2", true, 5, NULL, NULL);
    if (o1 < 0 || a < 0 || b < 0 || u < 0 || o2 < 0)
        exit(1);
    f->arr[o1].alias = (1u << a) | (1u << b);
    f->arr[o2].alias = 1u << u;
    snprintf(f->prime, sizeof f->prime, "2^255 - 19");
    f->repr = IR_REPR_RADIX;
    f->nlimbw = 5;
    for (int i = 0; i < 5; i++)
        f->limbw[i] = 51;
    f->kind = IR_KIND_NONE; /* a kind must match the arrays (ir_validate): mul has two inputs and one output */
    f->pre_lt_p = true;

    ir_val x0 = OK(f, ir_load(f, a, 0, "x0")), x1 = OK(f, ir_load(f, a, 1, "x1"));
    ir_val x2 = OK(f, ir_load(f, a, 2, "x2")), x3 = OK(f, ir_load(f, a, 3, "x3"));
    ir_val y0 = OK(f, ir_load(f, b, 0, "y0")), y1 = OK(f, ir_load(f, b, 1, "y1"));
    ir_val u0 = OK(f, ir_load(f, u, 0, NULL)); /* default name u_0 */
    ir_val c1 = OK(f, ir_op1(f, IR_CAST, 1, x2, "c1"));
    ir_val w = OK(f, ir_op1(f, IR_CAST, 128, x1, "w"));
    ir_val s = OK(f, ir_op2(f, IR_ADD, 64, x0, y0, "s"));
    ir_val d = OK(f, ir_op2(f, IR_SUB, 64, x0, y0, "d"));
    ir_val p = OK(f, ir_op2(f, IR_MUL, 128, x1, y1, "p"));
    ir_val q = OK(f, ir_op2(f, IR_MUL, 64, x3, x3, "q"));
    ir_val q2 = OK(f, ir_op2(f, IR_MUL, 64, x3, C(f, 64, 0x13), "q2"));
    ir_val pl = OK(f, ir_op2(f, IR_ADD, 128, p, C(f, 128, 5), "pl"));
    ir_val bg = OK(f, ir_op2(f, IR_AND, 128, pl, C(f, 128, ((ir_u128)0xffff << 64) | 0xffff), "bg"));
    ir_val sh = OK(f, ir_op2(f, IR_SHL, 128, w, C(f, 64, 3), "sh"));
    ir_val sr = OK(f, ir_op2(f, IR_SHR, 64, x1, C(f, 64, 5), "sr"));
    ir_val hi = OK(f, ir_op2(f, IR_SHR, 64, p, C(f, 64, 64), "hi"));
    ir_val lo = OK(f, ir_op1(f, IR_CAST, 64, p, "lo"));
    ir_val an = OK(f, ir_op2(f, IR_AND, 64, x1, C(f, 64, 0x7ffffffffffff), "an"));
    ir_val orr = OK(f, ir_op2(f, IR_OR, 64, x3, C(f, 64, 0x100000000), "orr"));
    ir_val xo = OK(f, ir_op2(f, IR_XOR, 64, x1, y1, "xo"));
    ir_val nt = OK(f, ir_op1(f, IR_NOT, 64, x1, "nt"));
    ir_val n1 = OK(f, ir_op1(f, IR_NOT, 1, c1, "n1"));
    ir_val ln = OK(f, ir_op1(f, IR_LNOT, 1, x1, "ln"));
    ir_val ln64 = OK(f, ir_op1(f, IR_LNOT, 64, x3, "ln64"));
    ir_val ln128 = OK(f, ir_op1(f, IR_LNOT, 128, sh, "ln128"));
    ir_val m[2], m32[2], ac[2], ac2[2], ac51[2], sb[2], sb2[2];
    two(f, IR_MULX, 64, x1, y1, IR_NOVAL, m, "ml", "mh");
    two(f, IR_MULX, 32, x3, C(f, 64, 0xfffffffe), IR_NOVAL, m32, "m32l", "m32h");
    two(f, IR_ADDCARRYX, 64, c1, x1, y1, ac, "sum", "cy");
    two(f, IR_ADDCARRYX, 64, ac[1], m[0], C(f, 64, 0), ac2, "sum2", "cy2");
    two(f, IR_ADDCARRYX, 51, C(f, 1, 1), an, an, ac51, "sum51", "cy51");
    two(f, IR_SUBBORROWX, 64, C(f, 1, 0), x1, y1, sb, "df", "bw");
    two(f, IR_SUBBORROWX, 64, sb[1], m[1], C(f, 64, 1), sb2, "df2", "bw2");
    ir_val sel = OK(f, ir_op3(f, IR_CMOVZNZ, 64, sb[1], x1, y1, "sel"));
    ir_val sel1 = OK(f, ir_op3(f, IR_CMOVZNZ, 1, x2, ac[1], sb[1], "sel1"));
    ir_val sd = OK(f, ir_op3(f, IR_SHRD, 64, m[1], m[0], C(f, 64, 13), "sd"));
    ir_val c128 = OK(f, ir_op1(f, IR_CAST, 128, sd, "c128"));
    ir_val mix = OK(f, ir_op2(f, IR_XOR, 128, bg, c128, "mix"));
    ir_val mixl = OK(f, ir_op1(f, IR_CAST, 64, mix, "mixl")); /* narrowing by a cast: xor into u64 may not drop bits */
    ir_val mix2 = OK(f, ir_op2(f, IR_XOR, 64, mixl, sr, "mix2"));
    ir_val mix3 = OK(f, ir_op2(f, IR_OR, 64, ln128, n1, "mix3"));
    ir_val ucy = OK(f, ir_op2(f, IR_ADD, 64, u0, ln, "ucy"));
    store(f, o1, 0, ac[0]);
    store(f, o1, 1, hi);
    store(f, o1, 2, lo);
    store(f, o1, 3, sel);
    store(f, o1, 4, sd);
    store(f, o1, 5, sb2[0]);
    store(f, o1, 6, ac2[1]);       /* a u1 value */
    store(f, o1, 7, C(f, 64, 0x5)); /* a constant */
    ir_val z = OK(f, ir_op2(f, IR_XOR, 64, xo, nt, "z"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, orr, "z2"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, q2, "z3"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, ln64, "z4"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, m32[0], "z5"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, m32[1], "z6"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, ac51[0], "z7"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, ac51[1], "z8"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, sb[0], "z9"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, sel1, "z10"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, mix2, "z11"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, mix3, "z12"));
    z = OK(f, ir_op2(f, IR_XOR, 64, z, mixl, "z13"));
    /* o2: stored with tight per-limb bounds taken from the values' intervals */
    ir_val o2v[5] = { s, d, q, z, ucy };
    for (uint32_t l = 0; l < 5; l++) {
        store(f, o2, l, o2v[l]);
        f->arr[o2].lo[l] = f->val[o2v[l]].lo;
        f->arr[o2].hi[l] = f->val[o2v[l]].hi;
    }
    if (ir_validate(f) < 0 || ir_bounds(f) < 0) {
        fprintf(stderr, "every_op: %s\n", f->err);
        exit(1);
    }
    return f;
}

/* odd_names — duplicate names (fiat's `_`), an empty name, names that are not identifiers, a name equal to a
 * suffixed duplicate's spelling, 47-character names that collide; odd array and function names. */
static ir_func *odd_names(void)
{
    ir_func *f = ir_func_new("odd.names fn");
    ir_u128 bo[1] = { 0xffffffff };
    int o = ir_array_add(f, "out 1", true, 4, NULL, NULL);
    int a = ir_array_add(f, "arg-1", false, 1, NULL, bo);
    int b = ir_array_add(f, "2arg", false, 1, NULL, bo);
    if (o < 0 || a < 0 || b < 0)
        exit(1);
    f->arr[o].alias = 1u << a;
    const char *long1 = "abcdefghijabcdefghijabcdefghijabcdefghijabcdefg"; /* 47 characters */
    ir_val x = OK(f, ir_load(f, a, 0, "_"));
    ir_val y = OK(f, ir_load(f, b, 0, "_"));
    ir_val s = OK(f, ir_op2(f, IR_ADD, 64, x, y, "_"));
    ir_val t = OK(f, ir_op2(f, IR_ADD, 64, s, x, "__3")); /* the spelling a renamed `_` could take */
    ir_val e = OK(f, ir_op2(f, IR_MUL, 64, x, C(f, 64, 3), "x"));
    ir_set_name(f, e, "");
    ir_val n1 = OK(f, ir_op2(f, IR_AND, 64, e, y, "1st"));
    ir_val n2 = OK(f, ir_op2(f, IR_OR, 64, n1, y, "a.b-c"));
    ir_val l1 = OK(f, ir_op2(f, IR_XOR, 64, n2, x, long1));
    ir_val l2 = OK(f, ir_op2(f, IR_XOR, 64, l1, y, long1));
    ir_val r[2];
    two(f, IR_ADDCARRYX, 64, C(f, 1, 0), l2, t, r, "_", "_");
    store(f, o, 0, r[0]);
    store(f, o, 1, r[1]);
    store(f, o, 2, s);
    store(f, o, 3, l1);
    if (ir_validate(f) < 0 || ir_bounds(f) < 0) {
        fprintf(stderr, "odd_names: %s\n", f->err);
        exit(1);
    }
    return f;
}

/* tiny — one input, one output, the given metadata. */
static ir_func *tiny(const char *name, const char *prime, ir_repr repr, unsigned nw, unsigned wv, ir_kind kind,
                     bool lt_p, ir_u128 lo, ir_u128 hi)
{
    ir_func *f = ir_func_new(name);
    ir_u128 l[3] = { lo, lo, lo }, h[3] = { hi, hi, hi };
    int a = ir_array_add(f, "arg1", false, 3, l, h);
    int o = ir_array_add(f, "out1", true, 3, NULL, NULL);
    /* binary kinds take a second input (ir_validate checks the kind against the arrays) */
    if (kind == IR_KIND_MUL || kind == IR_KIND_ADD || kind == IR_KIND_SUB)
        (void)ir_array_add(f, "arg2", false, 3, l, h);
    if (a < 0 || o < 0)
        exit(1);
    snprintf(f->prime, sizeof f->prime, "%s", prime);
    f->repr = repr;
    f->nlimbw = (uint8_t)nw;
    for (unsigned i = 0; i < nw; i++)
        f->limbw[i] = (uint8_t)(wv + i % 2);
    f->kind = kind;
    f->pre_lt_p = lt_p;
    for (uint32_t i = 0; i < 3; i++)
        store(f, o, i, OK(f, ir_load(f, a, i, NULL)));
    return f;
}

/* big — n nodes of dependent arithmetic (a hash-like chain), for speed: print and parse are linear. */
static ir_func *big(uint32_t n)
{
    ir_func *f = ir_func_new("big");
    int o = ir_array_add(f, "out1", true, 4, NULL, NULL);
    int a = ir_array_add(f, "arg1", false, 4, NULL, NULL);
    if (o < 0 || a < 0)
        exit(1);
    ir_val v[4], mask = C(f, 64, 0xffffffff), k = C(f, 64, 0x9e3779b1), sh = C(f, 64, 32);
    for (uint32_t i = 0; i < 4; i++)
        v[i] = OK(f, ir_load(f, a, i, NULL));
    char nm[32];
    for (uint32_t i = 0; f->nnode + 8 < n; i++) {
        ir_val x = v[i % 4], y = v[(i + 1) % 4];
        snprintf(nm, sizeof nm, "m%u", i);
        ir_val t = OK(f, ir_op2(f, IR_AND, 64, x, mask, nm));
        snprintf(nm, sizeof nm, "p%u", i);
        ir_val p = OK(f, ir_op2(f, IR_MUL, 64, t, k, nm));
        snprintf(nm, sizeof nm, "h%u", i);
        ir_val h = OK(f, ir_op2(f, IR_SHR, 64, y, sh, nm));
        snprintf(nm, sizeof nm, "x%u", i);
        v[i % 4] = OK(f, ir_op2(f, IR_XOR, 64, p, h, nm));
    }
    for (uint32_t i = 0; i < 4; i++)
        store(f, o, i, v[i]);
    return f;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void test_roundtrips(void)
{
    ir_func *f = every_op(), *g;
    /* every op appears */
    bool seen[IR_NOPS] = { false };
    for (uint32_t i = 0; i < f->nnode; i++)
        seen[f->node[i].op] = true;
    for (int op = 0; op < IR_NOPS; op++)
        CHECK(seen[op], "every_op lacks %s", ir_op_name((ir_op)op));
    g = roundtrip(f, true, "every_op");
    if (g) {
        /* the printed form shows the literal and bounds conventions documented in TEXT.md */
        char *t = ir_print(f);
        CHECK(strstr(t, "  x2:u64 = load a[2]\n"), "load line");
        CHECK(strstr(t, "= addcarryx.51 1:u1, an, an\n"), "u1 literal and size suffix");
        CHECK(strstr(t, "pl:u128 = add p, 5:u128\n"), "small u128 literal");
        CHECK(strstr(t, "bg:u128 = and pl, 0xffff000000000000ffff\n"), "large u128 literal");
        CHECK(strstr(t, "sd:u64 = shrd mh, ml, 13\n"), "shift amounts in decimal");
        CHECK(strstr(t, "  store o1[7], 5\n"), "a stored constant");
        CHECK(strstr(t, "  out o1[8] alias a, b\n"), "full bounds are omitted");
        CHECK(strstr(t, "  in u[3] 0..0x7ff\n"), "one bound for equal limbs");
        CHECK(strstr(t, "  in a[4] 0x10000000000..0x20000000000, 0..0xffffffffffffffff, 0..1, 0..0xffffffff\n"),
              "per-limb bounds");
        CHECK(strstr(t, "  prime 2^255 - 19\n  repr radix 51,51,51,51,51\n  require inputs < p\n"),
              "metadata");
        CHECK(strstr(t, "u_0:u64 = load u[0]"), "ir_load's default name");
        free(t);
        ir_func_free(g);
    }
    ir_func_free(f);

    /* after ir_dce: dead values keep their slots in f->val but no node defines them; they are not printed */
    f = every_op();
    ir_val dead = OK(f, ir_op2(f, IR_ADD, 64, f->node[0].res[0], C(f, 64, 1), "x0"));
    OK(f, ir_op2(f, IR_MUL, 128, dead, dead, "deadsq"));
    uint32_t before = f->nnode;
    ir_dce(f);
    CHECK(f->nnode == before - 2, "ir_dce removed %u nodes", before - f->nnode);
    g = roundtrip(f, true, "every_op after ir_dce");
    if (g) {
        char *t = ir_print(f);
        CHECK(!strstr(t, "deadsq") && !strstr(t, "x0_"), "dead values are not printed:\n%s", t);
        free(t);
    }
    ir_func_free(g);
    ir_func_free(f);

    f = odd_names();
    g = roundtrip(f, false, "odd_names");
    if (g) {
        char *t = ir_print(f);
        CHECK(strstr(t, "func odd_names_fn\n"), "function name made an identifier:\n%s", t);
        CHECK(strstr(t, "  out out_1[4] alias arg_1\n"), "array names made identifiers:\n%s", t);
        CHECK(strstr(t, "  in v2arg[1] 0..0xffffffff\n"), "leading digit:\n%s", t);
        CHECK(strstr(t, "  _:u64 = load arg_1[0]\n  __1:u64 = load v2arg[0]\n  __2:u64 = add _, __1\n"),
              "duplicates renamed <name>_<id>:\n%s", t);
        CHECK(strstr(t, "  __3:u64 = add __2, _\n"), "an original name keeps its spelling:\n%s", t);
        CHECK(strstr(t, "  t5:u64 = mul _, 3\n  v1st:u64 = and t5, __1\n  a_b_c:u64 = or v1st, __1\n"),
              "empty and odd names:\n%s", t);
        CHECK(strstr(t, "abcdefghijabcdefghijabcdefghijabcdefghijabcdefg:u64 = xor a_b_c, _\n"
                        "  abcdefghijabcdefghijabcdefghijabcdefghijabcde_9:u64 = xor "),
              "long duplicate cut to fit:\n%s", t);
        /* names are unique in the parsed function */
        for (uint32_t i = 0; i < g->nval; i++)
            for (uint32_t j = i + 1; j < g->nval; j++)
                CHECK(g->val[i].is_const || g->val[j].is_const || strcmp(g->val[i].name, g->val[j].name),
                      "duplicate name %s after parsing", g->val[i].name);
        free(t);
        ir_func_free(g);
    }
    ir_func_free(f);

    /* metadata of every kind and representation */
    const ir_u128 M64 = ir_width_max(64);
    for (int k = 0; k < IR_NKINDS; k++)
        for (int r = 0; r < 3; r++) {
            char label[64];
            snprintf(label, sizeof label, "tiny kind %s repr %d", ir_kind_name((ir_kind)k), r);
            /* coherent metadata (ir_validate): a kind or `require` needs a prime, radix widths one per limb */
            f = tiny("tiny", (r || k) ? "2^216*3^137-1" : "", (ir_repr)r,
                     (r == IR_REPR_RADIX && k) ? 3 : (unsigned)(k * 3 % 33), 50, (ir_kind)k, k & 1,
                     (ir_u128)k, k & 2 ? M64 : M64 >> k);
            g = roundtrip(f, true, label);
            ir_func_free(g);
            ir_func_free(f);
        }

    /* a prime with blanks and characters the form cannot hold: printed trimmed, `#` replaced, still a fixed point */
    f = tiny("p", "  2^130 - 5  ", IR_REPR_RADIX, 3, 43, IR_KIND_CARRY, false, 0, M64);
    char *t = ir_print(f), err[512];
    CHECK(strstr(t, "  prime 2^130 - 5\n"), "prime trimmed:\n%s", t);
    g = ir_parse(t, err, sizeof err);
    CHECK(g && !strcmp(g->prime, "2^130 - 5"), "prime parsed verbatim");
    ir_func_free(g);
    free(t);
    snprintf(f->prime, sizeof f->prime, "2^130#5\tx");
    t = ir_print(f);
    CHECK(strstr(t, "  prime 2^130?5 x\n"), "prime sanitised:\n%s", t);
    /* ... and refused when read back: `?` is not part of an integer expression (ir_validate) */
    g = ir_parse(t, err, sizeof err);
    CHECK(!g && strstr(err, "prime `2^130?5 x`"), "sanitised prime refused: %s", g ? "parsed" : err);
    free(t);
    ir_func_free(g);
    ir_func_free(f);

    /* speed: a function of ~30,000 nodes (ten times the largest fiat program) prints and parses in linear time */
    f = big(30000);
    double t0 = now();
    t = ir_print(f);
    double t1 = now();
    g = t ? ir_parse(t, err, sizeof err) : NULL;
    double t2b = now();
    CHECK(g, "big: %s", err);
    if (g) {
        const char *d = same_func(f, g, true);
        CHECK(!d, "big: %s", d);
    }
    printf("big: %u nodes, %zu bytes: print %.1f ms, parse %.1f ms\n", f->nnode, t ? strlen(t) : 0,
           1e3 * (t1 - t0), 1e3 * (t2b - t1));
    free(t);
    ir_func_free(g);
    ir_func_free(f);
}

/* ---- composition ----------------------------------------------------------------------------------------------------------- */

/* Radix 2^32, two limbs: add2 adds limb-wise, mul2 multiplies into five 32-bit limbs; fma = mul2(add2(a, b), c);
 * top calls fma twice, add2 and mul2 directly, and reads a local array's limbs as operands. */
static const char *compose_text =
    "# add2: limb-wise a + b (radix 2^32)\n"
    "func add2\n"
    "  in a[2] 0..0xffffffff\n"
    "  in b[2] 0..0xffffffff\n"
    "  out o[2] 0..0x1fffffffe\n"
    "  a0:u64 = load a[0]\n"
    "  a1:u64 = load a[1]\n"
    "  b0:u64 = load b[0]\n"
    "  b1:u64 = load b[1]\n"
    "  s0:u64 = add a0, b0\n"
    "  s1:u64 = add a1, b1\n"
    "  store o[0], s0\n"
    "  store o[1], s1\n"
    "end\n"
    "\n"
    "# mul2: x*y as five 32-bit limbs; x's limbs may be 33 bits (add2's output)\n"
    "func mul2\n"
    "  in x[2] 0..0x1ffffffff\n"
    "  in y[2] 0..0xffffffff\n"
    "  out z[5] 0..0xffffffff\n"
    "  x0:u64 = load x[0]\n"
    "  x1:u64 = load x[1]\n"
    "  y0:u64 = load y[0]\n"
    "  y1:u64 = load y[1]\n"
    "  p00:u128 = mul x0, y0\n"
    "  p01:u128 = mul x0, y1\n"
    "  p10:u128 = mul x1, y0\n"
    "  p11:u128 = mul x1, y1\n"
    "  c1:u128 = add p01, p10\n"
    "  z0:u64 = and p00, 0xffffffff\n"
    "  h0:u128 = shr p00, 32\n"
    "  t1:u128 = add c1, h0\n"
    "  z1:u64 = and t1, 0xffffffff\n"
    "  h1:u128 = shr t1, 32\n"
    "  t2:u128 = add p11, h1\n"
    "  z2:u64 = and t2, 0xffffffff\n"
    "  h2:u128 = shr t2, 32\n"
    "  z3:u64 = and h2, 0xffffffff\n"
    "  z4:u64 = shr h2, 32\n"
    "  store z[0], z0\n"
    "  store z[1], z1\n"
    "  store z[2], z2\n"
    "  store z[3], z3\n"
    "  store z[4], z4\n"
    "end\n"
    "\n"
    "func fma   # (a + b) * c\n"
    "  in a[2] 0..0xffffffff\n"
    "  in b[2] 0..0xffffffff\n"
    "  in c[2] 0..0xffffffff\n"
    "  out r[5] 0..0xffffffff\n"
    "  call add2(a, b) -> (t)\n"
    "  call mul2(t, c) -> (r)\n"
    "end\n"
    "\n"
    "func top\n"
    "  in a[2] 0..0xffffffff\n"
    "  in b[2] 0..0xffffffff\n"
    "  in c[2] 0..0xffffffff\n"
    "  out r1[5] 0..0xffffffff alias a, b, c\n"
    "  out r2[5] 0..0xffffffff\n"
    "  out r3[1]\n"
    "  const k[2] = 0x12345678, 7\n"
    "  call fma(a, b, c) -> (r1)      # (a + b) * c\n"
    "  call fma(k, a, c) -> (u)       # (k + a) * c, a local array\n"
    "  s:u64 = add u[0], u[4]         # its limbs as operands\n"
    "  store r3[0], s\n"
    "  call add2(k, k) -> (kk)\n"
    "  call mul2(kk, c) -> (r2)       # 2k * c\n"
    "end\n";

static void limbs_to_mpz(mpz_t r, const uint64_t *l, int n)
{
    mpz_set_ui(r, 0);
    for (int i = n - 1; i >= 0; i--) {
        mpz_mul_2exp(r, r, 32);
        mpz_add_ui(r, r, l[i]);
    }
}

static void test_compose(int iters)
{
    char err[512];
    ir_func *f = ir_parse(compose_text, err, sizeof err);
    CHECK(f, "composition text: %s", err);
    if (!f)
        return;
    CHECK(!strcmp(f->name, "top"), "the last function is returned");
    char *t = ir_print(f);
    if (!t) {
        CHECK(0, "ir_print");
        ir_func_free(f);
        return;
    }
    CHECK(!strstr(t, "call"), "the inlined function is flat");
    /* inlined names: per-call prefixes, caller inputs loaded once and named <array>_<limb> */
    CHECK(strstr(t, "  a_0:u64 = load a[0]\n"), "caller input loads:\n%s", t);
    CHECK(strstr(t, "r1_t_s0:u64 = add a_0, b_0\n"), "two-level prefix:\n%s", t);
    CHECK(strstr(t, "u_t_s0:u64 = add 0x12345678, a_0\n"), "const array limbs are literals:\n%s", t);
    CHECK(strstr(t, "  s:u64 = add u_r_z0, u_r_z4\n"), "local limbs as operands:\n%s", t);
    int loads = 0;
    for (uint32_t i = 0; i < f->nnode; i++)
        loads += f->node[i].op == IR_LOAD;
    CHECK(loads == 6, "every input limb is loaded once (%d loads)", loads);
    ir_func_free(roundtrip(f, true, "top"));
    free(t);

    /* evaluate against GMP: r1 = (a+b)*c, r2 = 2k*c, r3 = limb 0 + limb 4 of (k+a)*c */
    mpz_t A, B, Cc, K, R, E, U;
    mpz_inits(A, B, Cc, K, R, E, U, NULL);
    const uint64_t k[2] = { 0x12345678, 7 };
    limbs_to_mpz(K, k, 2);
    for (int it = 0; it < iters; it++) {
        uint64_t a[2], b[2], c[2], r1[5], r2[5], r3[1];
        for (int i = 0; i < 2; i++) {
            a[i] = rnd_in(0, 0xffffffff);
            b[i] = rnd_in(0, 0xffffffff);
            c[i] = rnd_in(0, 0xffffffff);
        }
        const uint64_t *in[6] = { a, b, c, NULL, NULL, NULL };
        uint64_t *out[6] = { NULL, NULL, NULL, r1, r2, r3 };
        if (ir_eval(f, in, out) < 0) {
            CHECK(0, "ir_eval");
            break;
        }
        limbs_to_mpz(A, a, 2);
        limbs_to_mpz(B, b, 2);
        limbs_to_mpz(Cc, c, 2);
        mpz_add(E, A, B);
        mpz_mul(E, E, Cc);
        limbs_to_mpz(R, r1, 5);
        CHECK(!mpz_cmp(R, E), "r1 != (a+b)*c for a = %lx %lx, b = %lx %lx, c = %lx %lx", (unsigned long)a[0],
              (unsigned long)a[1], (unsigned long)b[0], (unsigned long)b[1], (unsigned long)c[0], (unsigned long)c[1]);
        mpz_mul_2exp(E, K, 1);
        mpz_mul(E, E, Cc);
        limbs_to_mpz(R, r2, 5);
        CHECK(!mpz_cmp(R, E), "r2 != 2k*c for c = %lx %lx", (unsigned long)c[0], (unsigned long)c[1]);
        mpz_add(U, K, A);
        mpz_mul(U, U, Cc);
        uint64_t u0 = mpz_getlimbn(U, 0) & 0xffffffff;
        mpz_tdiv_q_2exp(E, U, 128);
        uint64_t u4 = mpz_get_ui(E);
        CHECK(r3[0] == u0 + u4, "r3 = %lx, want %lx", (unsigned long)r3[0], (unsigned long)(u0 + u4));
        for (int i = 0; i < 5; i++)
            CHECK(r1[i] <= 0xffffffff && r2[i] <= 0xffffffff, "output limbs within 32 bits");
    }
    mpz_clears(A, B, Cc, K, R, E, U, NULL);
    ir_func_free(f);
}

/* The first example of ir/TEXT.md parses and computes what it says: r = (a+b)*c, r2 = 2k*c. */
static void test_doc_example(const char *path, int iters)
{
    FILE *fp = fopen(path, "rb");
    CHECK(fp, "cannot open %s", path);
    if (!fp)
        return;
    static char doc[1 << 16];
    size_t n = fread(doc, 1, sizeof doc - 1, fp);
    fclose(fp);
    doc[n] = 0;
    char *a = strstr(doc, "```\n"), *b = a ? strstr(a + 4, "```") : NULL, err[512];
    CHECK(a && b, "%s: no example block", path);
    if (!a || !b)
        return;
    *b = 0;
    ir_func *f = ir_parse(a + 4, err, sizeof err);
    CHECK(f, "%s: the example does not parse: %s", path, err);
    if (!f)
        return;
    mpz_t A, B, Cc, R, E;
    mpz_inits(A, B, Cc, R, E, NULL);
    for (int it = 0; it < iters; it++) {
        uint64_t x[3][2], r[5], r2[5];
        for (int i = 0; i < 6; i++)
            x[i / 2][i % 2] = rnd_in(0, 0xffffffff);
        const uint64_t *in[5] = { x[0], x[1], x[2], NULL, NULL };
        uint64_t *out[5] = { NULL, NULL, NULL, r, r2 };
        if (ir_eval(f, in, out) < 0)
            break;
        limbs_to_mpz(A, x[0], 2);
        limbs_to_mpz(B, x[1], 2);
        limbs_to_mpz(Cc, x[2], 2);
        mpz_add(E, A, B);
        mpz_mul(E, E, Cc);
        limbs_to_mpz(R, r, 5);
        CHECK(!mpz_cmp(R, E), "TEXT.md example: r != (a+b)*c");
        mpz_set_ui(E, 0x2468acf0 + ((uint64_t)14 << 32));
        mpz_mul(E, E, Cc);
        limbs_to_mpz(R, r2, 5);
        CHECK(!mpz_cmp(R, E), "TEXT.md example: r2 != 2k*c");
    }
    mpz_clears(A, B, Cc, R, E, NULL);
    ir_func_free(f);
}

/* ---- the < p rule ----------------------------------------------------------------------------------------------------------- */

static const char *mont_callees =
    "func madd\n"                 /* 1 */
    "  prime 2^61 - 1\n"          /* 2 */
    "  repr montgomery\n"         /* 3 */
    "  kind add\n"                /* 4 */
    "  require inputs < p\n"      /* 5 */
    "  in a[1]\n"                 /* 6 */
    "  in b[1]\n"                 /* 7 */
    "  out o[1]\n"                /* 8 */
    "  x:u64 = load a[0]\n"       /* 9 */
    "  y:u64 = load b[0]\n"       /* 10 */
    "  z:u64 = xor x, y\n"        /* 11 */
    "  store o[0], z\n"           /* 12 */
    "end\n"                       /* 13 */
    "func plain\n"                /* 14: no metadata */
    "  in a[1]\n"                 /* 15 */
    "  out o[1]\n"                /* 16 */
    "  x:u64 = load a[0]\n"       /* 17 */
    "  store o[0], x\n"           /* 18 */
    "end\n"                       /* 19 */
    "func mnone\n"                /* 20: Montgomery, no kind */
    "  prime 2^61-1\n"            /* 21 */
    "  repr montgomery\n"         /* 22 */
    "  in a[1]\n"                 /* 23 */
    "  out o[1]\n"                /* 24 */
    "  x:u64 = load a[0]\n"       /* 25 */
    "  store o[0], x\n"           /* 26 */
    "end\n"                       /* 27 */
    "func mother\n"               /* 28: Montgomery mul of another prime */
    "  prime 2^31-1\n"            /* 29 */
    "  repr montgomery\n"         /* 30 */
    "  kind square\n"                /* 31 */
    "  in a[1]\n"                 /* 32 */
    "  out o[1]\n"                /* 33 */
    "  x:u64 = load a[0]\n"       /* 34 */
    "  store o[0], x\n"           /* 35 */
    "end\n";                      /* 36 */
#define MONT_LINES 36

typedef struct {
    const char *caller; /* appended after mont_callees (line 37 on) */
    const char *want;   /* NULL: parses */
} case_t;

static void run_cases(const char *prefix, const case_t *cs, size_t n, const char *label)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(prefix) + strlen(cs[i].caller) + 1;
        char *text = malloc(len), err[512];
        snprintf(text, len, "%s%s", prefix, cs[i].caller);
        ir_func *f = ir_parse(text, err, sizeof err);
        if (!cs[i].want)
            CHECK(f, "%s case %zu: should parse, got: %s", label, i, err);
        else
            CHECK(!f && !strcmp(err, cs[i].want), "%s case %zu:\n  got  %s\n  want %s", label, i, f ? "(parsed)" : err,
                  cs[i].want);
        ir_func_free(f);
        free(text);
    }
}

static void test_lt_p(void)
{
    static const case_t cs[] = {
        /* the caller's inputs, the caller requiring inputs < p of the same prime (blanks do not matter) */
        { "func ok1\n  prime 2^61-1\n  require inputs < p\n  in a[1]\n  in b[1]\n  out o[1]\n"
          "  call madd(a, b) -> (t)\n  call madd(t, a) -> (o)\nend\n", NULL },
        { "func ok2\n  in a[1]\n  out o[1]\n  call madd(t0, a) -> (o)\nend\n",
          "line 40: call madd: argument 1: unknown array `t0`" },
        { "func no1\n  in a[1]\n  in b[1]\n  out o[1]\n  call madd(a, b) -> (o)\nend\n",
          "line 41: call madd: argument 1 (a) must be < 2^61 - 1 (madd requires inputs < p): the caller no1 does not "
          "state `require inputs < p` with the same prime" },
        { "func no2\n  prime 2^61-2\n  require inputs < p\n  in a[1]\n  in b[1]\n  out o[1]\n"
          "  call madd(a, b) -> (o)\nend\n",
          "line 43: call madd: argument 1 (a) must be < 2^61 - 1 (madd requires inputs < p): the caller no2 does not "
          "state `require inputs < p` with the same prime" },
        { "func no3\n  in a[1]\n  out o[1]\n  const k[1] = 5\n  call plain(a) -> (t)\n  call madd(t, k) -> (o)\n"
          "end\n",
          "line 42: call madd: argument 1 (t) must be < p (madd requires inputs < p), but it comes from plain, which "
          "is not a Montgomery mul, square, add, sub, opp, to- or from-montgomery of the same prime" },
        { "func no4\n  prime 2^61-1\n  require inputs < p\n  in a[1]\n  out o[1]\n  const k[1] = 5\n"
          "  call madd(a, k) -> (o)\nend\n",
          "line 43: call madd: argument 2 (k) must be < p (madd requires inputs < p), which a const array is not "
          "known to be" },
        { "func no5\n  prime 2^61-1\n  require inputs < p\n  in a[1]\n  out o[1]\n  call mnone(a) -> (t)\n"
          "  call madd(a, t) -> (o)\nend\n",
          "line 43: call madd: argument 2 (t) must be < p (madd requires inputs < p), but it comes from mnone, which "
          "is not a Montgomery mul, square, add, sub, opp, to- or from-montgomery of the same prime" },
        { "func no6\n  prime 2^61-1\n  require inputs < p\n  in a[1]\n  out o[1]\n  call mother(a) -> (t)\n"
          "  call madd(a, t) -> (o)\nend\n",
          "line 43: call madd: argument 2 (t) must be < p (madd requires inputs < p), but it comes from mother, which "
          "is not a Montgomery mul, square, add, sub, opp, to- or from-montgomery of the same prime" },
        /* a chain of Montgomery operations: each output feeds the next */
        { "func ok3\n  prime 2^61 -1\n  require inputs < p\n  in a[1]\n  out o[1]\n  call madd(a, a) -> (t)\n"
          "  call madd(t, t) -> (u)\n  call madd(u, t) -> (o)\nend\n", NULL },
    };
    run_cases(mont_callees, cs, sizeof cs / sizeof cs[0], "lt_p");
}

/* ---- errors ------------------------------------------------------------------------------------------------------------------- */

/* Every case is a complete text; lines are counted from 1. The base function: */
#define HEAD "func f\n  in a[2] 0..0xffff\n  out o[2]\n  a0:u64 = load a[0]\n" /* lines 1-4 */
#define TAIL "  store o[0], a0\n  store o[1], a0\nend\n"

static void test_errors(void)
{
    static const case_t cs[] = {
        { HEAD TAIL, NULL },
        /* statements */
        { HEAD "  x:u64 = frob a0, a0\n" TAIL, "line 5: unknown operation `frob`" },
        { HEAD "  x:u64 = add a0, zz\n" TAIL, "line 5: undefined value `zz`" },
        { HEAD "  a0:u64 = add a0, a0\n" TAIL, "line 5: a0 is already defined (line 4)" },
        { HEAD "  x:u64, x:u1 = addcarryx.64 0:u1, a0, a0\n" TAIL, "line 5: x is named twice" },
        { HEAD "  x:u64 = add a0\n" TAIL, "line 5: add takes 2 operands, got 1" },
        { HEAD "  x:u64 = not a0, a0\n" TAIL, "line 5: not takes 1 operand, got 2" },
        { HEAD "  x:u64 = cmovznz a0, a0, a0, a0\n" TAIL, "line 5: cmovznz takes 3 operands, got 4" },
        { HEAD "  x:u64 = add a0, 2:u1\n" TAIL, "line 5: literal 0x2 does not fit u1" },
        { HEAD "  x:u64 = add a0, 0x10000000000000000:u64\n" TAIL,
          "line 5: literal 0x10000000000000000 does not fit u64" },
        { HEAD "  x:u64 = add a0, 0x100000000000000000000000000000000\n" TAIL,
          "line 5: number `0x100000000000000000000000000000000` does not fit 128 bits" },
        { HEAD "  x:u64 = add a0, 0x1g\n" TAIL, "line 5: bad number `0x1g` (decimal or 0x hex)" },
        { HEAD "  x:u32 = add a0, a0\n" TAIL, "line 5: expected a type (u1, u64 or u128), found `u32`" },
        { HEAD "  x:u64, c:u64 = addcarryx.64 0:u1, a0, a0\n" TAIL,
          "line 5: addcarryx: the second result c is u1, not u64" },
        { HEAD "  x:u64, c:u1 = mulx.64 a0, a0\n" TAIL, "line 5: mulx: the second result c is u64, not u1" },
        { HEAD "  x:u128 = shrd a0, a0, 3\n" TAIL, "line 5: shrd: result must be u64" },
        { HEAD "  x:u1 = load a[1]\n" TAIL, "line 5: load: the result x is u64, not u1" },
        { HEAD "  x:u64 = add a0, a0\n  y:u64 = shl x, x\n" TAIL,
          "line 6: shl: the shift amount x is not a constant" },
        { HEAD "  x:u64 = mulx a0, a0\n" TAIL, "line 5: mulx has 2 results, got 1" },
        { HEAD "  x:u64, y:u64 = mulx a0, a0\n" TAIL, "line 5: mulx needs a size suffix, e.g. mulx.64" },
        { HEAD "  x:u64, y:u64 = mulx.65 a0, a0\n" TAIL, "line 5: mulx.65: size 1 to 64 allowed" },
        { HEAD "  x:u64 = add.64 a0, a0\n" TAIL, "line 5: add takes no size suffix" },
        { HEAD "  x:u64, y:u64 = add a0, a0\n" TAIL, "line 5: add has 1 result, got 2" },
        { HEAD "  x:u64 = store o[0], a0\n" TAIL, "line 5: store has no result: write `store ARRAY[LIMB], VALUE`" },
        { HEAD "  x = add a0, a0\n" TAIL, "line 5: `x`: a result needs a type, e.g. `x:u64 = ...`" },
        { HEAD "  frob a0\n" TAIL, "line 5: unknown statement `frob`" },
        { HEAD "  x:u64 = add a0, a0 a0\n" TAIL, "line 5: expected `,` or the end of the line, found `a0`" },
        { HEAD "  x:u64 = add a0, $\n" TAIL, "line 5: unexpected character `$`" },
        { HEAD "  x:u64 = add a0, a0\xff\n" TAIL, "line 5: unexpected byte 0xff" },
        /* arrays, loads, stores */
        { HEAD "  x:u64 = load b[0]\n" TAIL, "line 5: unknown array `b`" },
        { HEAD "  x:u64 = load o[0]\n" TAIL, "line 5: o is an output array of f and cannot be read" },
        { HEAD "  x:u64 = load a[2]\n" TAIL, "line 5: a[2]: a has 2 limbs" },
        { HEAD "  store a[0], a0\n" TAIL, "line 5: a is an input array; only outputs are stored" },
        { HEAD "  store o[0], a0\n" TAIL, "line 6: o[0] is already stored (line 5)" },
        { HEAD "  store o[0], a0\nend\n", "line 6: f: output o[1] is never stored" },
        { HEAD "  x:u128 = cast a0\n  store o[0], x\n" TAIL, "line 6: store o[0]: value x is u128" },
        { HEAD "  x:u64 = add a0, o[0]\n" TAIL, "line 5: o is an output array of f and cannot be read" },
        { HEAD "  x:u64 = add a0, a[0]\n" TAIL, "line 5: a is an input array: read its limbs with `load`" },
        { HEAD "  const k[2] = 1, 2\n  x:u64 = add a0, k[2]\n" TAIL, "line 6: k[2]: k has 2 limbs" },
        { HEAD "  const k[2] = 1, 2\n  x:u64 = load k[0]\n" TAIL,
          "line 6: k is a local array (line 5): use k[i] as an operand, not a load" },
        { HEAD "  const k[2] = 1\n" TAIL, "line 5: const k has 2 limbs but 1 values are given" },
        { HEAD "  const k[2] = 1, 2, 3\n" TAIL, "line 5: const k has 2 limbs but more values are given" },
        { HEAD "  const k[1] = 1:u1\n" TAIL, "line 5: const k: limbs are u64, not u1" },
        { HEAD "  const a[1] = 1\n" TAIL, "line 5: array a is already declared (line 2)" },
        /* bounds and overflow */
        { "func f\n  in a[2] 5..3\n", "line 2: bad bound 0x5..0x3: lo > hi" },
        { "func f\n  in a[2] 0..0x10000000000000000\n", "line 2: bad bound 0x0..0x10000000000000000: above 2^64-1" },
        { "func f\n  in a[2] 0..1, 0..1, 0..1\n", "line 2: array a has 2 limbs but more bounds are given" },
        { "func f\n  in a[3] 0..1, 0..1\n",
          "line 2: array a has 3 limbs but 2 bounds are given (one for every limb, or one each)" },
        { "func f\n  in a[3] 0..\n", "line 2: expected the upper end of a bound lo..hi, found the end of the line" },
        { "func f\n  in a[3] 0.1\n", "line 2: expected `..` in a bound lo..hi, found `.`" },
        { "func f\n  in a[0]\n", "line 2: array a: 0 limbs (1 to 64 allowed)" },
        { "func f\n  in a[65]\n", "line 2: array a: 65 limbs (1 to 64 allowed)" },
        { "func f\n  in a[1]\n  in a[2]\n", "line 3: array a is already declared (line 2)" },
        { "func f\n  in a[1]\n  out o[1]\n  x:u64 = load a[0]\n  y:u64 = add x, x\n  store o[0], y\nend\n",
          "line 5: f: node 1 (y = add x, x): the u64 result can overflow (operands up to 0xffffffffffffffff and "
          "0xffffffffffffffff): overflow" },
        { "func f\n  in a[1]\n  out o[1] 0..0xff\n  x:u64 = load a[0]\n  store o[0], x\nend\n",
          "line 5: f: output o[0] = x can reach 0xffffffffffffffff, above its declared bound 0xff" },
        /* aliases and header lines */
        { "func f\n  out o[1] alias q\n  in a[1]\n  x:u64 = load a[0]\n", "line 2: o: alias names unknown array `q`" },
        { "func f\n  out o[1] alias p\n  out p[1]\nend\n", "line 2: o: alias names p, an output; outputs may alias inputs only" },
        { "func f\n  in a[1] alias a\n", "line 2: array a: only outputs declare aliases" },
        { HEAD "  in b[1]\n" TAIL, "line 5: `in` must come before the first statement of f" },
        { HEAD "  prime 2^127-1\n" TAIL, "line 5: `prime` must come before the first statement of f" },
        { "func f\n  prime\n", "line 2: prime: expected an expression such as 2^255-19" },
        { "func f\n  prime 7\n  prime 7\n", "line 3: prime is given twice" },
        { "func f\n  kind multiply\n", "line 2: unknown kind `multiply` (mul, square, carry, add, sub, opp, "
                                       "to-montgomery, from-montgomery, none)" },
        { "func f\n  repr binary\n", "line 2: expected radix, montgomery or none after repr, found `binary`" },
        { "func f\n  repr radix 51, 0\n", "line 2: repr: limb width 0 (1 to 64 allowed)" },
        { "func f\n  repr radix 51,\n", "line 2: repr: expected a limb width after `,`, found the end of the line" },
        { "func f\n  require inputs <= p\n", "line 2: expected `require inputs < p`" },
        /* blocks */
        { "", "line 0: no function in the text (expected `func NAME` ... `end`)" },
        { "# nothing\n\n", "line 2: no function in the text (expected `func NAME` ... `end`)" },
        { "x:u64 = load a[0]\n", "line 1: expected `func NAME`, found `x`" },
        { HEAD, "line 4: func f: missing `end`" },
        { HEAD "func g\n", "line 5: `func` inside func f (missing `end`?)" },
        { HEAD TAIL "func f\n", "line 8: function f is already defined (line 1)" },
        { "func\n", "line 1: expected a function name after func, found the end of the line" },
        { "func f g\n", "line 1: expected the end of the line, found `g`" },
        { "func abcdefghijabcdefghijabcdefghijabcdefghijabcdefgh\n",
          "line 1: name `abcdefghijabcdefghij...` is longer than 47 characters" },
        { HEAD TAIL "end\n", "line 8: expected `func NAME`, found `end`" },
        /* comments, blanks, CRLF, tabs are fine */
        { "# c\r\nfunc f # c\r\n\tin a[1]\r\n  out o[1]\r\n x:u64=load a[0]#c\r\nstore o[0],x\r\nend", NULL },
    };
    run_cases("", cs, sizeof cs / sizeof cs[0], "errors");

    /* calls (after the composition callees add2, mul2, fma: lines 1-55) */
    static const case_t calls[] = {
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (o)\nend\n", NULL },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call nope(a, a) -> (o)\nend\n",
          "line 59: call: unknown function `nope` (a callee is defined earlier in the text)" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a) -> (o)\nend\n",
          "line 59: call add2: add2 takes 2 input arrays, got 1" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (o, p)\nend\n",
          "line 59: call add2: add2 has 1 output array, got 2" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, o) -> (t)\nend\n",
          "line 59: call add2: argument 2 (o) is an output of c; outputs cannot be read" },
        { "func c\n  in a[2] 0..0xffffffff\n  in b[3]\n  out o[2]\n  call add2(a, b) -> (o)\nend\n",
          "line 60: call add2: argument 2 (b) has 3 limbs, add2's input b has 2" },
        { "func c\n  in a[2] 0..0xfffffffff\n  out o[2]\n  call add2(a, a) -> (o)\nend\n",
          "line 59: call add2: argument 1 limb 0 (a[0]) can reach 0xfffffffff, above add2's input bound 0xffffffff" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (t)\n  call add2(t, a) -> (o)\nend\n",
          "line 60: call add2: argument 1 limb 0 (t_s0) can reach 0x1fffffffe, above add2's input bound 0xffffffff" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (o)\n  call add2(a, a) -> (o)\nend\n",
          "line 60: call add2: o[0] is already stored (line 59)" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  store o[1], 0\n  call add2(a, a) -> (o)\nend\n",
          "line 60: call add2: o[1] is already stored (line 59)" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (o)\n  store o[1], 0\nend\n",
          "line 60: o[1] is already stored (line 59)" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (a)\nend\n",
          "line 59: call add2: result a is an input array; a result is a new array or an output" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (t)\n  call add2(a, a) -> (t)\nend\n",
          "line 60: call add2: result t is already defined (line 59); a result is a new array or an output" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[3]\n  call add2(a, a) -> (o)\nend\n",
          "line 59: call add2: result o has 3 limbs, add2's output o has 2" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (t, t)\nend\n",
          "line 59: call add2: t is named twice as a result" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) (o)\nend\n",
          "line 59: expected `->` and the result arrays, found `(`" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (o)\n  a_0:u64 = load a[0]\nend\n",
          "line 60: a_0 is already defined (line 59)" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call add2(a, a) -> (t)\n  t_s0:u64 = load a[0]\nend\n",
          "line 60: t_s0 is already defined (line 59)" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2] alias a\n  store o[0], 1\n  call add2(a, a) -> (t)\nend\n",
          "line 60: call add2: reads a[0] after a store to o (line 59), which may alias a" },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[5]\n  call fma(a, a, a) -> (o)\nend\n", NULL },
        { "func c\n  in a[2] 0..0xffffffff\n  out o[2]\n  call c(a, a) -> (o)\nend\n",
          "line 59: call: unknown function `c` (a callee is defined earlier in the text)" },
    };
    /* the composition text up to the end of fma (line 55) */
    const char *top = strstr(compose_text, "\nfunc top");
    size_t plen = (size_t)(top - compose_text) + 1;
    char *prefix = malloc(plen + 1);
    memcpy(prefix, compose_text, plen);
    prefix[plen] = 0;
    int lines = 0;
    for (const char *s = prefix; *s; s++)
        lines += *s == '\n';
    CHECK(lines == 55, "compose prefix has %d lines", lines);
    run_cases(prefix, calls, sizeof calls / sizeof calls[0], "calls");
    free(prefix);
}

/* ---- fuzz ---------------------------------------------------------------------------------------------------------------------- */

static const char pool[] = "0123456789abcdefxu:,.=[]()<->#\n \t_zqlp^-";

/* Words a token-level mutation puts in place of a word of the text: operations, types, keywords, edge numbers. */
static const char *const words[] = {
    "load", "store", "cast", "add", "sub", "mul", "shl", "shr", "and", "or", "xor", "not", "lnot", "mulx",
    "addcarryx", "subborrowx", "cmovznz", "shrd", "u1", "u64", "u128", "in", "out", "const", "call", "end", "func",
    "alias", "prime", "kind", "repr", "radix", "montgomery", "require", "0", "1", "2", "31", "32", "51", "63", "64",
    "65", "127", "128", "255", "256", "0xffffffff", "0xffffffffffffffff", "0x10000000000000000",
    "0xffffffffffffffffffffffffffffffff", "0x100000000000000000000000000000000", "99999999999",
};

/* replace_word — replace the pos-th byte's word (a run of letters, digits, `_`) with w. */
static char *replace_word(char *t, size_t pos, const char *w)
{
    size_t n = strlen(t), b = pos, e = pos;
    while (b > 0 && (isalnum((unsigned char)t[b - 1]) || t[b - 1] == '_'))
        b--;
    while (e < n && (isalnum((unsigned char)t[e]) || t[e] == '_'))
        e++;
    size_t wl = strlen(w);
    char *u = malloc(n - (e - b) + wl + 1);
    memcpy(u, t, b);
    memcpy(u + b, w, wl);
    memcpy(u + b + wl, t + e, n - e + 1);
    free(t);
    return u;
}

static char *mutate(const char *src)
{
    size_t n = strlen(src);
    char *t = malloc(n + 64);
    memcpy(t, src, n + 1);
    int kind = (int)(rnd() % 10);
    size_t pos = n ? rnd() % n : 0;
    switch (kind) {
    case 0: /* truncate */
        t[pos] = 0;
        break;
    case 1: /* replace a byte with a character of the grammar */
        if (n)
            t[pos] = pool[rnd() % (sizeof pool - 1)];
        break;
    case 2: /* replace a byte with anything but NUL */
        if (n)
            t[pos] = (char)(1 + rnd() % 255);
        break;
    case 3: { /* delete a line */
        char *b = t + pos;
        while (b > t && b[-1] != '\n')
            b--;
        char *e = strchr(b, '\n');
        if (e)
            memmove(b, e + 1, strlen(e + 1) + 1);
        else
            *b = 0;
        break;
    }
    case 4: { /* duplicate a line (small texts only need this much room) */
        char *b = t + pos;
        while (b > t && b[-1] != '\n')
            b--;
        char *e = strchr(b, '\n');
        size_t ln = e ? (size_t)(e - b) + 1 : strlen(b);
        char *u = malloc(n + ln + 2);
        size_t off = (size_t)(b - t);
        memcpy(u, t, off);
        memcpy(u + off, b, ln);
        memcpy(u + off + ln, b, n - off + 1);
        free(t);
        t = u;
        break;
    }
    case 5: /* insert a digit or a letter (bigger numbers, other names) */
        memmove(t + pos + 1, t + pos, n - pos + 1);
        t[pos] = "0f9x_"[rnd() % 5];
        break;
    case 6: /* several byte replacements */
        for (int i = 0; i < 4 && n; i++)
            t[rnd() % n] = pool[rnd() % (sizeof pool - 1)];
        break;
    case 7: /* a word becomes an operation, a type, a keyword or an edge number */
        if (n)
            t = replace_word(t, pos, words[rnd() % (sizeof words / sizeof words[0])]);
        break;
    default: { /* a word becomes another word of the text (names, numbers, operations) */
        size_t q = n ? rnd() % n : 0, e = q;
        while (e < n && (isalnum((unsigned char)t[e]) || t[e] == '_'))
            e++;
        while (q > 0 && (isalnum((unsigned char)t[q - 1]) || t[q - 1] == '_'))
            q--;
        char w[64];
        size_t wl = e - q < sizeof w - 1 ? e - q : sizeof w - 1;
        memcpy(w, t + q, wl);
        w[wl] = 0;
        if (n && wl)
            t = replace_word(t, pos, w);
        break;
    }
    }
    return t;
}

static void test_fuzz(int iters)
{
    ir_func *f = every_op();
    char *texts[4] = { ir_print(f), (char *)compose_text, NULL, NULL };
    ir_func_free(f);
    f = odd_names();
    texts[3] = ir_print(f);
    ir_func_free(f);
    size_t cl = strlen(mont_callees) + 200;
    texts[2] = malloc(cl);
    snprintf(texts[2], cl, "%s%s", mont_callees,
             "func ok3\n  prime 2^61 -1\n  require inputs < p\n  in a[1]\n  out o[1]\n  call madd(a, a) -> (t)\n"
             "  call madd(t, t) -> (u)\n  call madd(u, t) -> (o)\nend\n");
    int parsed = 0;
    for (int it = 0; it < iters; it++) {
        const char *src = texts[it % 4];
        char *t = mutate(src);
        if (rnd() % 4 == 0) { /* mutate twice */
            char *u = mutate(t);
            free(t);
            t = u;
        }
        char err[256];
        ir_func *g = ir_parse(t, err, sizeof err);
        if (g) {
            parsed++;
            char *p1 = ir_print(g), err2[256];
            ir_func *h = p1 ? ir_parse(p1, err2, sizeof err2) : NULL;
            char *p2 = h ? ir_print(h) : NULL;
            CHECK(p2 && !strcmp(p1, p2), "fuzz %d: a parsed mutation does not round-trip (%s):\n%s", it,
                  h ? "texts differ" : err2, t);
            free(p1);
            free(p2);
            ir_func_free(h);
            ir_func_free(g);
        } else {
            CHECK(!strncmp(err, "line ", 5) && strlen(err) > 8, "fuzz %d: message `%s`", it, err);
        }
        free(t);
    }
    printf("fuzz: %d mutations, %d parsed\n", iters, parsed);
    free(texts[0]);
    free(texts[2]);
    free(texts[3]);
}

/* A function with no arrays, values or nodes (`func f` then `end`) parses, clones and lowers: ir_func_clone copied
 * its NULL value and node arrays with memcpy (undefined behaviour, UBSan's report; found by fuzz/ir_text.c). */
static void test_empty_function(void)
{
    char err[256] = "";
    ir_func *f = ir_parse("# nothing but a name\nfunc f\n  # and a comment\nend\n", err, sizeof err);
    CHECK(f != NULL, "empty function: %s", err);
    if (!f)
        return;
    ir_func *g = ir_func_clone(f);
    CHECK(g != NULL && g->nval == 0 && g->nnode == 0 && g->narr == 0, "empty function: clone");
    ir_func *low = ir_lower(f, err, sizeof err);
    CHECK(low != NULL && low->nnode == 0, "empty function: lower: %s", err);
    char *text = ir_print(f);
    CHECK(text != NULL && strstr(text, "func f") != NULL, "empty function: print");
    free(text);
    ir_func_free(low);
    ir_func_free(g);
    ir_func_free(f);
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
            fprintf(stderr, "usage: test_text [--seed N] [--iters N]\n");
            return 2;
        }
    }
    printf("seed %llu, iters %d\n", (unsigned long long)seed, iters);
    rng_state = seed ? seed : 1;
    eval_iters = iters / 20 > 10 ? iters / 20 : 10;
    test_roundtrips();
    test_compose(iters / 4 > 100 ? iters / 4 : 100);
    test_doc_example(TEXT_MD, 1000);
    test_lt_p();
    test_errors();
    test_empty_function();
    test_fuzz(iters);
    if (failures) {
        printf("%d failures (seed %llu)\n", failures, (unsigned long long)seed);
        return 1;
    }
    printf("ok\n");
    return 0;
}
