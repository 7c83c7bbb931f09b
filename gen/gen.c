/* gen.c — the generators' front: method and op names, prime expressions (primality), default names, gen_build
 * (spec checks, dispatch to gen_solinas.c and gen_montgomery.c, the metadata every generated function carries). */
#include "gen/gen.h"

#include <stdio.h>
#include <string.h>

#include <gmp.h>

#include "gen/gen_internal.h"
#include "ir/prime_expr.h"

static const char *const method_names[GEN_NMETHODS] = {
    [GEN_SOLINAS_UNSATURATED] = "solinas-unsaturated",
    [GEN_SOLINAS_SATURATED] = "solinas-saturated",
    [GEN_MONTGOMERY] = "montgomery",
    [GEN_SOLINAS_SATURATED_2CHAIN] = "solinas-saturated-2chain",
    [GEN_MONTGOMERY_SPARSE] = "montgomery-sparse",
};

int gen_method_parse(const char *s, gen_method *out)
{
    for (int m = 0; s && m < GEN_NMETHODS; m++)
        if (!strcmp(s, method_names[m])) {
            *out = (gen_method)m;
            return 0;
        }
    return -1;
}

const char *gen_method_name(gen_method m)
{
    return (unsigned)m < GEN_NMETHODS ? method_names[m] : "?";
}

int gen_op_parse(const char *s, ir_kind *out)
{
    static const struct {
        const char *name;
        ir_kind kind;
    } ops[] = {
        { "mul", IR_KIND_MUL },       { "carry_mul", IR_KIND_MUL },      { "carry-mul", IR_KIND_MUL },
        { "square", IR_KIND_SQUARE }, { "carry_square", IR_KIND_SQUARE }, { "carry-square", IR_KIND_SQUARE },
        { "carry", IR_KIND_CARRY },   { "add", IR_KIND_ADD },            { "sub", IR_KIND_SUB },
        { "opp", IR_KIND_OPP },       { "to-montgomery", IR_KIND_TO_MONT }, { "to_montgomery", IR_KIND_TO_MONT },
        { "from-montgomery", IR_KIND_FROM_MONT }, { "from_montgomery", IR_KIND_FROM_MONT },
    };
    for (size_t i = 0; s && i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(s, ops[i].name)) {
            *out = ops[i].kind;
            return 0;
        }
    return -1;
}

/* ---- prime expressions: ir_prime_expr_eval (ir/prime_expr.h) with gen's limits, then a primality test ---------- */

enum {
    EXPR_MAX_BITS = 8192, /* no intermediate value may exceed this (a prime of the methods has at most 1024) */
    EXPR_MAX_DEPTH = 200
};

int gen_prime_eval(const char *expr, void *mpz_out, char *err, size_t errlen)
{
    mpz_ptr p = mpz_out;
    if (ir_prime_expr_eval(p, expr, EXPR_MAX_BITS, EXPR_MAX_DEPTH, err, errlen) < 0)
        return -1;
    /* Miller-Rabin with 50 rounds (after GMP's trial division and Baillie-PSW): a composite passes with
     * probability below 4^-50. */
    if (mpz_cmp_ui(p, 2) < 0 || mpz_probab_prime_p(p, 50) == 0) {
        snprintf(err, errlen, "not a prime: %.200s", expr);
        return -1;
    }
    return 0;
}

/* ---- names ---------------------------------------------------------------------------------------------------- */

static const char *op_tag(gen_method m, ir_kind op)
{
    switch (op) {
    case IR_KIND_MUL: return m == GEN_SOLINAS_UNSATURATED ? "carry_mul" : "mul";
    case IR_KIND_SQUARE: return m == GEN_SOLINAS_UNSATURATED ? "carry_square" : "square";
    case IR_KIND_CARRY: return "carry";
    case IR_KIND_ADD: return "add";
    case IR_KIND_SUB: return "sub";
    case IR_KIND_OPP: return "opp";
    case IR_KIND_TO_MONT: return "to_montgomery";
    case IR_KIND_FROM_MONT: return "from_montgomery";
    default: return "op";
    }
}

void gen_default_name(const gen_spec *s, char *buf, size_t len)
{
    /* <method>_<prime>_<limbs>_<op>, the prime spelled with e for ^, m for -, p for +, x for *; a prime that
     * does not fit in IR_NAME_MAX becomes h<FNV-1a 32 of the expression>. */
    char pt[IR_NAME_MAX], meth[32];
    size_t o = 0;
    uint32_t h = 2166136261u;
    const char *e = s->prime ? s->prime : "";
    bool fits = true;
    for (const char *c = e; *c; c++) {
        h = (h ^ (uint8_t)*c) * 16777619u;
        char t = 0;
        if ((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))
            t = *c;
        else if (*c == '^')
            t = 'e';
        else if (*c == '-')
            t = 'm';
        else if (*c == '+')
            t = 'p';
        else if (*c == '*')
            t = 'x';
        else if (*c == '(' || *c == ')')
            t = '_';
        if (!t)
            continue;
        if (o + 1 >= sizeof pt)
            fits = false;
        else
            pt[o++] = t;
    }
    pt[o] = 0;
    snprintf(meth, sizeof meth, "%s", gen_method_name(s->method));
    for (char *c = meth; *c; c++)
        if (*c == '-')
            *c = '_';
    const char *ot = op_tag(s->method, s->op);
    if (fits && strlen(meth) + strlen(pt) + strlen(ot) + 6 < IR_NAME_MAX)
        snprintf(buf, len, "%s_%s_%u_%s", meth, pt, s->limbs, ot);
    else
        snprintf(buf, len, "%s_h%08x_%u_%s", meth, (unsigned)h, s->limbs, ot);
}

/* ---- gen_build ------------------------------------------------------------------------------------------------ */

static bool method_has(gen_method m, ir_kind op)
{
    switch (m) {
    case GEN_SOLINAS_UNSATURATED:
        return op == IR_KIND_MUL || op == IR_KIND_SQUARE || op == IR_KIND_CARRY || op == IR_KIND_ADD
               || op == IR_KIND_SUB || op == IR_KIND_OPP;
    case GEN_SOLINAS_SATURATED:
    case GEN_SOLINAS_SATURATED_2CHAIN:
        return op == IR_KIND_MUL || op == IR_KIND_SQUARE;
    case GEN_MONTGOMERY:
    case GEN_MONTGOMERY_SPARSE:
        return op == IR_KIND_MUL || op == IR_KIND_SQUARE || op == IR_KIND_ADD || op == IR_KIND_SUB
               || op == IR_KIND_OPP || op == IR_KIND_TO_MONT || op == IR_KIND_FROM_MONT;
    default:
        return false;
    }
}

ir_func *gen_build(const gen_spec *s, char *err, size_t errlen)
{
    char name[IR_NAME_MAX];
    if (!s || !s->prime) {
        snprintf(err, errlen, "no prime given");
        return NULL;
    }
    if ((unsigned)s->method >= GEN_NMETHODS) {
        snprintf(err, errlen, "unknown method %d", (int)s->method);
        return NULL;
    }
    if ((unsigned)s->op >= IR_NKINDS || s->op == IR_KIND_NONE) {
        snprintf(err, errlen, "unknown op %d", (int)s->op);
        return NULL;
    }
    if (!method_has(s->method, s->op)) {
        snprintf(err, errlen, "unknown op for the %s method: %s (it has %s)", gen_method_name(s->method),
                 ir_kind_name(s->op),
                 s->method == GEN_SOLINAS_UNSATURATED ? "mul, square, carry, add, sub, opp"
                 : s->method == GEN_SOLINAS_SATURATED || s->method == GEN_SOLINAS_SATURATED_2CHAIN ? "mul, square"
                                                      : "mul, square, add, sub, opp, to-montgomery, from-montgomery");
        return NULL;
    }
    if (s->limbs == 0 || s->limbs > GEN_MAXN) {
        snprintf(err, errlen, "%u limbs: 1 to %d allowed", s->limbs, GEN_MAXN);
        return NULL;
    }
    if (strlen(s->prime) >= sizeof ((ir_func *)0)->prime) {
        snprintf(err, errlen, "the prime expression is longer than %zu characters",
                 sizeof ((ir_func *)0)->prime - 1);
        return NULL;
    }
    if (s->name && (strlen(s->name) >= IR_NAME_MAX || !s->name[0])) {
        snprintf(err, errlen, "function name '%.60s': 1 to %d characters allowed", s->name, IR_NAME_MAX - 1);
        return NULL;
    }
    if (s->name)
        snprintf(name, sizeof name, "%s", s->name);
    else
        gen_default_name(s, name, sizeof name);

    mpz_t p;
    mpz_init(p);
    ir_func *f = NULL;
    uint8_t limbw[GEN_MAXN] = { 0 };
    if (gen_prime_eval(s->prime, p, err, errlen) < 0)
        goto out;
    if (mpz_cmp_ui(p, 2) == 0) {
        snprintf(err, errlen, "p = 2: the methods need an odd prime");
        goto out;
    }
    switch (s->method) {
    case GEN_SOLINAS_UNSATURATED:
        f = gen_solinas_unsaturated(p, s->limbs, s->op, name, err, errlen, limbw);
        break;
    case GEN_SOLINAS_SATURATED:
        f = gen_solinas_saturated(p, s->limbs, s->op, name, err, errlen);
        for (unsigned i = 0; i < s->limbs; i++)
            limbw[i] = 64;
        break;
    case GEN_SOLINAS_SATURATED_2CHAIN:
        f = gen_solinas_saturated_2chain(p, s->limbs, s->op, name, err, errlen);
        for (unsigned i = 0; i < s->limbs; i++)
            limbw[i] = 64;
        break;
    case GEN_MONTGOMERY:
    case GEN_MONTGOMERY_SPARSE:
        f = gen_montgomery(p, s->limbs, s->op, name, err, errlen, s->method == GEN_MONTGOMERY_SPARSE);
        for (unsigned i = 0; i < s->limbs; i++)
            limbw[i] = 64;
        break;
    default:
        break;
    }
    if (!f)
        goto out;
    snprintf(f->prime, sizeof f->prime, "%s", s->prime);
    bool mont = s->method == GEN_MONTGOMERY || s->method == GEN_MONTGOMERY_SPARSE;
    f->repr = mont ? IR_REPR_MONTGOMERY : IR_REPR_RADIX;
    f->nlimbw = (uint8_t)s->limbs;
    memcpy(f->limbw, limbw, s->limbs);
    f->kind = s->op;
    f->pre_lt_p = mont;
out:
    mpz_clear(p);
    return f;
}
