/* test_lower.c — ir_lower (ir/lower.c): every hand-built program of emit_progs.c, lowered, computes the same outputs
 * as the source under the interpreter on edge and random inputs, has no u128 value, uses the operations its rules
 * promise, keeps the arrays and metadata, and passes ir_validate and ir_bounds; the two field operations also
 * agree with GMP; a u128 product of wide operands is refused with a message naming the node.
 *
 * Usage: test_lower [--seed N] [--iters N]            the hand-built programs (ctest ir.lower)
 *        test_lower [--seed N] [--iters N] --fiat DIR  every mul/square/carry/add/sub/opp in the .json files of DIR, loaded with
 *                                                     ir_fiat_load, lowered and compared (ctest ir.lower.fiat)
 * Exit 0 pass, 1 fail, 2 usage, 77 skip (DIR missing). */
#define _GNU_SOURCE
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emit_progs.h"
#include "ir/ir.h"

static int failures;

#define FAIL(...)                                                                                                    \
    do {                                                                                                             \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                       \
        fprintf(stderr, "\n");                                                                                       \
        failures++;                                                                                                  \
    } while (0)

static uint64_t seed, iters = 2000;

/* ---- structural checks ---------------------------------------------------------------------------------------- */

static void check_no_u128(const ir_func *g)
{
    for (uint32_t i = 0; i < g->nnode; i++) {
        const ir_node *n = &g->node[i];
        for (unsigned k = 0; k < n->nargs; k++)
            if (g->val[n->arg[k]].width > 64)
                FAIL("%s: node %u operand %s is still u128", g->name, i, g->val[n->arg[k]].name);
        for (unsigned k = 0; k < n->nres; k++)
            if (g->val[n->res[k]].width > 64)
                FAIL("%s: node %u result %s is still u128", g->name, i, g->val[n->res[k]].name);
    }
}

static void check_same_shape(const ir_func *f, const ir_func *g)
{
    if (strcmp(f->name, g->name) || f->narr != g->narr || strcmp(f->prime, g->prime) || f->repr != g->repr ||
        f->kind != g->kind || f->pre_lt_p != g->pre_lt_p || f->nlimbw != g->nlimbw ||
        memcmp(f->limbw, g->limbw, sizeof f->limbw)) {
        FAIL("%s: the lowered function lost its name, arrays or metadata", f->name);
        return;
    }
    for (uint32_t j = 0; j < f->narr; j++) {
        const ir_array *a = &f->arr[j], *b = &g->arr[j];
        if (strcmp(a->name, b->name) || a->is_output != b->is_output || a->len != b->len || a->alias != b->alias ||
            memcmp(a->lo, b->lo, a->len * sizeof(ir_u128)) || memcmp(a->hi, b->hi, a->len * sizeof(ir_u128)))
            FAIL("%s: array %s differs after lowering", f->name, a->name);
    }
}

static int find_op(const char *name, ir_op *op)
{
    for (int o = 0; o < IR_NOPS; o++)
        if (!strcmp(ir_op_name((ir_op)o), name)) {
            *op = (ir_op)o;
            return 0;
        }
    return -1;
}

static void check_ops(const ir_func *g, const char *expect)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", expect);
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        ir_op op;
        if (find_op(w, &op) < 0)
            FAIL("%s: unknown operation %s in the expectation", g->name, w);
        else if (!ep_has_op(g, op))
            FAIL("%s: the lowered form has no %s node", g->name, w);
    }
}

static int has_value_named(const ir_func *g, const char *name)
{
    for (uint32_t i = 0; i < g->nnode; i++)
        for (unsigned k = 0; k < g->node[i].nres; k++)
            if (!strcmp(g->val[g->node[i].res[k]].name, name))
                return 1;
    return 0;
}

/* ---- GMP references for the two field operations --------------------------------------------------------------- */

static void value_radix(mpz_t v, const uint64_t *x, unsigned n, unsigned w)
{
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(v, 0);
    for (unsigned i = n; i-- > 0;) {
        mpz_mul_2exp(v, v, w);
        mpz_set_ui(t, (unsigned long)(x[i] >> 32));
        mpz_mul_2exp(t, t, 32);
        mpz_add_ui(t, t, (unsigned long)(x[i] & 0xffffffffu));
        mpz_add(v, v, t);
    }
    mpz_clear(t);
}

/* out of f (lw_carry25519: out = a*b mod p; lw_modadd: out = (a+b) mod p exactly) against GMP */
static void check_gmp(const ir_func *f, uint64_t in[EP_MAXARR][EP_MAXLIMB], uint64_t out[EP_MAXARR][EP_MAXLIMB],
                      const char *form)
{
    mpz_t p, a, b, e, o;
    mpz_inits(p, a, b, e, o, NULL);
    mpz_ui_pow_ui(p, 2, 255);
    mpz_sub_ui(p, p, 19);
    int carry = !strcmp(f->name, "lw_carry25519");
    unsigned n = carry ? 5 : 4, w = carry ? 51 : 64;
    value_radix(a, in[0], n, w);
    value_radix(b, in[1], n, w);
    value_radix(o, out[2], n, w);
    if (carry)
        mpz_mul(e, a, b);
    else
        mpz_add(e, a, b);
    mpz_mod(e, e, p);
    if (carry)
        mpz_mod(o, o, p);
    if (mpz_cmp(e, o)) {
        FAIL("%s (%s): output differs from GMP", f->name, form);
        ep_print_limbs("arg1", in[0], n);
        ep_print_limbs("arg2", in[1], n);
        ep_print_limbs("out1", out[2], n);
    }
    mpz_clears(p, a, b, e, o, NULL);
}

/* inputs below p for lw_modadd (its precondition) */
static void below_p(uint64_t in[EP_MAXARR][EP_MAXLIMB])
{
    for (unsigned j = 0; j < 2; j++) {
        in[j][3] &= 0x7fffffffffffffffULL;
        if (in[j][3] == 0x7fffffffffffffffULL && in[j][2] == UINT64_MAX && in[j][1] == UINT64_MAX &&
            in[j][0] >= 0xffffffffffffffedULL)
            in[j][0] = 0xffffffffffffffecULL; /* p - 1 */
    }
}

/* ---- f and g agree --------------------------------------------------------------------------------------------- */

static void compare(const ir_func *f, const ir_func *g, int gmp)
{
    uint64_t state = seed ^ (uint64_t)strlen(f->name) * 0x9e3779b97f4a7c15ULL;
    static uint64_t in[EP_MAXARR][EP_MAXLIMB], o1[EP_MAXARR][EP_MAXLIMB], o2[EP_MAXARR][EP_MAXLIMB];
    unsigned bad = 0;
    for (long t = -(long)EP_NEDGE; t < (long)iters && bad < 3; t++) {
        memset(in, 0, sizeof in);
        ep_inputs(f, t < 0 ? (int)(t + EP_NEDGE) : -1, &state, in);
        if (gmp && !strcmp(f->name, "lw_modadd"))
            below_p(in);
        memset(o1, 0xa5, sizeof o1);
        memset(o2, 0x5a, sizeof o2);
        if (ep_eval(f, in, o1) < 0 || ep_eval(g, in, o2) < 0) {
            FAIL("%s: ir_eval ran out of memory", f->name);
            return;
        }
        for (uint32_t j = 0; j < f->narr; j++) {
            if (!f->arr[j].is_output)
                continue;
            if (memcmp(o1[j], o2[j], f->arr[j].len * sizeof(uint64_t))) {
                for (uint32_t l = 0; l < f->arr[j].len; l++)
                    if (o1[j][l] != o2[j][l]) {
                        FAIL("%s: %s[%u] = 0x%016llx unlowered, 0x%016llx lowered (input %s %ld)", f->name,
                             f->arr[j].name, l, (unsigned long long)o1[j][l], (unsigned long long)o2[j][l],
                             t < 0 ? "edge" : "random", t < 0 ? t + EP_NEDGE : t);
                        break;
                    }
                for (uint32_t k = 0; k < f->narr; k++)
                    if (!f->arr[k].is_output)
                        ep_print_limbs(f->arr[k].name, in[k], f->arr[k].len);
                bad++;
            }
        }
        if (gmp) {
            check_gmp(f, in, o1, "unlowered");
            check_gmp(g, in, o2, "lowered");
        }
    }
}

static void test_prog(const ep_prog *p)
{
    char err[512];
    ir_func *f = p->build();
    if (ir_validate(f) < 0)
        FAIL("%s: source does not validate: %s", p->name, f->err);
    int brc = ir_bounds(f);
    if (p->bounds_ok && brc < 0)
        FAIL("%s: source fails ir_bounds: %s", p->name, f->err);
    if (!p->bounds_ok && brc == 0)
        FAIL("%s: source was meant to wrap but passes ir_bounds", p->name);
    ir_func *g = ir_lower(f, err, sizeof err);
    if (!p->lowerable) {
        if (g)
            FAIL("%s: lowered although a product has operands wider than 64 bits", p->name);
        else if (!strstr(err, "node") || !strstr(err, "bad") || !strstr(err, "mul"))
            FAIL("%s: the refusal does not name the node: %s", p->name, err);
        else
            printf("%s: refused as expected: %s\n", p->name, err);
        ir_func_free(g);
        ir_func_free(f);
        return;
    }
    if (!g) {
        FAIL("%s: ir_lower: %s", p->name, err);
        ir_func_free(f);
        return;
    }
    if (ir_validate(g) < 0)
        FAIL("%s: lowered form does not validate: %s", p->name, g->err);
    if (p->bounds_ok && ir_bounds(g) < 0)
        FAIL("%s: lowered form fails ir_bounds: %s", p->name, g->err);
    check_no_u128(g);
    check_same_shape(f, g);
    check_ops(g, p->expect_ops);
    int gmp = !strcmp(p->name, "lw_carry25519") || !strcmp(p->name, "lw_modadd");
    compare(f, g, gmp);
    /* lowering a lowered function changes nothing that matters: the same operations, the same outputs */
    ir_func *g2 = ir_lower(g, err, sizeof err);
    if (!g2)
        FAIL("%s: lowering the lowered form: %s", p->name, err);
    else {
        if (g2->nnode != g->nnode)
            FAIL("%s: lowering the lowered form changed its node count (%u -> %u)", p->name, g->nnode, g2->nnode);
        compare(g, g2, 0);
    }
    printf("%s: %u operations -> %u lowered (%u nodes), %llu random + %u edge inputs agree\n", p->name,
           ir_count_ops(f), ir_count_ops(g), g->nnode, (unsigned long long)iters, EP_NEDGE);
    ir_func_free(g2);
    ir_func_free(g);
    ir_func_free(f);
}

/* names: x -> x_lo, x_hi; a value whose bounds are below 2^64 keeps its name */
static void test_names(void)
{
    char err[256];
    ir_func *f = ep_find("lw_mul")->build();
    ir_func *g = ir_lower(f, err, sizeof err);
    if (!g) {
        FAIL("lw_mul: %s", err);
    } else {
        if (!has_value_named(g, "p_lo") || !has_value_named(g, "p_hi"))
            FAIL("lw_mul: the lowered product p is not named p_lo, p_hi");
        if (!has_value_named(g, "q"))
            FAIL("lw_mul: the small product q (< 2^64) is not a single value named q");
    }
    ir_func_free(g);
    ir_func_free(f);
    f = ep_find("lw_add")->build();
    g = ir_lower(f, err, sizeof err);
    if (!g)
        FAIL("lw_add: %s", err);
    else if (!has_value_named(g, "s_lo") || !has_value_named(g, "s_hi") || !has_value_named(g, "t_hi"))
        FAIL("lw_add: the lowered sums are not named s_lo, s_hi, t_hi");
    ir_func_free(g);
    ir_func_free(f);
}

/* ---- fiat-crypto's programs --------------------------------------------------------------------------------- */

static int test_fiat(const char *dir)
{
    static ir_func *fns[256];
    unsigned failed = 0;
    int n = ep_fiat_load_dir(dir, fns, 256, &failed);
    if (n < 0) {
        printf("FAIL: fiat-crypto JSON folder %s not found (../shared is part of the test setup)\n", dir);
        return 1;
    }
    failures += (int)failed;
    for (int i = 0; i < n; i++) {
        char err[1024];
        ir_func *f = fns[i];
        ir_func *g = ir_lower(f, err, sizeof err);
        if (!g) {
            FAIL("%s: ir_lower: %s", f->name, err);
            ir_func_free(f);
            continue;
        }
        if (ir_validate(g) < 0)
            FAIL("%s: lowered form does not validate: %s", f->name, g->err);
        int fb = ir_bounds(f);
        if (ir_bounds(g) < 0)
            FAIL("%s: lowered form fails ir_bounds%s: %s", f->name, fb < 0 ? " (so does the source)" : "", g->err);
        check_no_u128(g);
        check_same_shape(f, g);
        compare(f, g, 0);
        printf("%s: %u operations -> %u lowered\n", f->name, ir_count_ops(f), ir_count_ops(g));
        ir_func_free(g);
        ir_func_free(f);
    }
    printf("%d fiat-crypto functions lowered and compared\n", n);
    if (n == 0)
        FAIL("no fiat-crypto function found in %s", dir);
    return 0;
}

int main(int argc, char **argv)
{
    const char *fiat = NULL;
    seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--fiat") && i + 1 < argc)
            fiat = argv[++i];
        else {
            fprintf(stderr, "usage: test_lower [--seed N] [--iters N] [--fiat DIR]\n");
            return 2;
        }
    }
    printf("test_lower: seed %llu, %llu random inputs per program\n", (unsigned long long)seed,
           (unsigned long long)iters);
    if (fiat) {
        int rc = test_fiat(fiat);
        if (rc == 77)
            return 77;
    } else {
        for (unsigned i = 0; i < ep_nprogs; i++)
            test_prog(&ep_progs[i]);
        test_names();
    }
    if (failures) {
        printf("test_lower: %d failures (seed %llu)\n", failures, (unsigned long long)seed);
        return 1;
    }
    printf("test_lower: all passed\n");
    return 0;
}
