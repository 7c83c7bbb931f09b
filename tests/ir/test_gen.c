/* test_gen.c — gen.build: every generator x prime x op built, validated, bounds-checked and run with ir_eval on
 * random inputs (random bit density, within the declared input bounds) plus edge inputs, against GMP:
 *   Solinas (radix limbs):  output congruent to a*b, a^2, a (carry), a+b, a-b, -a mod p, limbs within the declared
 *                           output bounds;
 *   Montgomery (R = 2^(64n), inputs below p): exactly a*b*R^-1, a^2*R^-1, (a+b), (a-b), -a, a*R, a*R^-1 mod p.
 * Then every bad spec is refused with its message. Prints, per prime and op, the node count.
 * Usage: test_gen [--seed N] [--iters N] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "gen/gen.h"
#include "ir/ir.h"

static uint64_t rng_s[4];
static int failures;

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman, Vigna) */
static uint64_t rnd(void)
{
    uint64_t r = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;
    rng_s[2] ^= rng_s[0];
    rng_s[3] ^= rng_s[1];
    rng_s[1] ^= rng_s[2];
    rng_s[0] ^= rng_s[3];
    rng_s[2] ^= t;
    rng_s[3] = rotl(rng_s[3], 45);
    return r;
}

static void seed_rng(uint64_t seed)
{
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        uint64_t z = (seed += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        rng_s[i] = z ^ (z >> 31);
    }
}

/* A word of the given bit density class (s2n-bignum style: sparse, dense, runs, all 0, all 1, uniform). */
static uint64_t word_of(int cls)
{
    uint64_t r = rnd();
    switch (cls) {
    case 0: return r;
    case 1: return r & rnd() & rnd();
    case 2: return r | rnd() | rnd();
    case 3: return 0;
    case 4: return ~(uint64_t)0;
    case 5: { /* a run of ones */
        unsigned a = (unsigned)(rnd() % 64), b = (unsigned)(rnd() % 64);
        if (a > b) { unsigned t = a; a = b; b = t; }
        return (b - a == 63 ? ~(uint64_t)0 : (((uint64_t)1 << (b - a + 1)) - 1)) << a;
    }
    default: return (rnd() & 1) ? ~(uint64_t)0 >> (rnd() % 64) : (uint64_t)1 << (rnd() % 64);
    }
}

static int rnd_class(void)
{
    return (int)(rnd() % 7);
}

/* A limb in [lo, hi]: a word of the class, cut to hi's bit length, folded into range. */
static uint64_t limb_in(int cls, ir_u128 lo, ir_u128 hi)
{
    uint64_t h = (uint64_t)hi, l = (uint64_t)lo, v = word_of(cls);
    int bits = h ? 64 - __builtin_clzll(h) : 0;
    v = bits == 64 ? v : (v & (((uint64_t)1 << bits) - 1));
    if (v > h)
        v -= h + 1; /* v <= 2h + 1 */
    if (v < l)
        v = l + (v % (h - l + 1));
    return v;
}

static void mpz_from_u64(mpz_t r, uint64_t x)
{
    mpz_set_ui(r, (unsigned long)x); /* unsigned long is 64 bits on the platforms ecopt builds on */
}

/* value = sum x_i 2^(W_i), W_i = w_0 + ... + w_{i-1} */
static void value_of(mpz_t r, const uint64_t *x, const ir_func *f)
{
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(r, 0);
    unsigned W = 0;
    for (unsigned i = 0; i < f->nlimbw; i++) {
        mpz_from_u64(t, x[i]);
        mpz_mul_2exp(t, t, W);
        mpz_add(r, r, t);
        W += f->limbw[i];
    }
    mpz_clear(t);
}

/* limbs of x in f's radix (the top limb takes the rest); 0 when a limb exceeds 64 bits */
static int limbs_of(uint64_t *out, const mpz_t x, const ir_func *f)
{
    mpz_t t;
    mpz_init(t);
    unsigned W = 0;
    int ok = mpz_sgn(x) >= 0;
    for (unsigned i = 0; i < f->nlimbw; i++) {
        mpz_tdiv_q_2exp(t, x, W);
        if (i + 1 < f->nlimbw)
            mpz_fdiv_r_2exp(t, t, f->limbw[i]);
        if (mpz_sizeinbase(t, 2) > 64)
            ok = 0;
        out[i] = ok ? (uint64_t)mpz_get_ui(t) : 0;
        W += f->limbw[i];
    }
    mpz_clear(t);
    return ok;
}

static void print_limbs(const char *what, const uint64_t *x, unsigned n)
{
    fprintf(stderr, "  %s =", what);
    for (unsigned i = 0; i < n; i++)
        fprintf(stderr, " 0x%016" PRIx64, x[i]);
    fprintf(stderr, "\n");
}

typedef struct {
    const char *prime;
    gen_method method;
    unsigned limbs;
    const char *widths; /* expected limb widths ("51x5" style list "51,51,51,51,51"), NULL: not checked */
} field;

static const field fields[] = {
    { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, "51,51,51,51,51" },
    { "2^448-2^224-1", GEN_SOLINAS_UNSATURATED, 8, "56,56,56,56,56,56,56,56" },
    { "2^521-1", GEN_SOLINAS_UNSATURATED, 9, "58,58,58,58,58,58,58,58,57" },
    { "2^130-5", GEN_SOLINAS_UNSATURATED, 3, "44,43,43" },
    { "2^336 - 3", GEN_SOLINAS_UNSATURATED, 6, NULL },
    { "2^414-17", GEN_SOLINAS_UNSATURATED, 8, NULL },
    { "2^226-5", GEN_SOLINAS_UNSATURATED, 4, NULL },
    { "2^255-19", GEN_SOLINAS_SATURATED, 4, NULL },
    { "2^127-1", GEN_SOLINAS_SATURATED, 2, NULL },
    { "2^226-5", GEN_SOLINAS_SATURATED, 4, NULL },
    { "2^383-187", GEN_SOLINAS_SATURATED, 6, NULL },
    { "2^414-17", GEN_SOLINAS_SATURATED, 7, NULL },
    { "2^255-19", GEN_SOLINAS_SATURATED_2CHAIN, 4, NULL },
    { "2^127-1", GEN_SOLINAS_SATURATED_2CHAIN, 2, NULL },
    { "2^226-5", GEN_SOLINAS_SATURATED_2CHAIN, 4, NULL },   /* C^2 >= 2^64: fold 2 and 3 take full chains */
    { "2^383-187", GEN_SOLINAS_SATURATED_2CHAIN, 6, NULL },
    { "2^414-17", GEN_SOLINAS_SATURATED_2CHAIN, 7, NULL },
    { "2^224-2^96+1", GEN_MONTGOMERY, 4, NULL },                                        /* P-224 */
    { "2^256-2^224+2^192+2^96-1", GEN_MONTGOMERY, 4, NULL },                            /* P-256 */
    { "2^384-2^128-2^96+2^32-1", GEN_MONTGOMERY, 6, NULL },                             /* P-384 */
    { "2^256-2^32-977", GEN_MONTGOMERY, 4, NULL },                                      /* secp256k1 */
    { "2^216*3^137-1", GEN_MONTGOMERY, 7, NULL },                                       /* P-434 (SIKEp434) */
    { "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
      GEN_MONTGOMERY, 6, NULL },                                                        /* BLS12-381 p */
    { "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", GEN_MONTGOMERY, 4, NULL }, /* r */
    { "2^252+27742317777372353535851937790883648493", GEN_MONTGOMERY, 4, NULL },       /* edwards25519 l */
    { "(2^255-19)", GEN_MONTGOMERY, 4, NULL },                                          /* p25519, Montgomery */
    /* montgomery-sparse: p = -1 mod 2^64 (P-256, P-384, P-434), m' of weight 2 (P-384, P-224: m' = -1), a dense low
     * word (secp256k1, 2^255-19), dense primes that fall back to mulx (BLS12-381 p), one word (2^61-1) */
    { "2^224-2^96+1", GEN_MONTGOMERY_SPARSE, 4, NULL },
    { "2^256-2^224+2^192+2^96-1", GEN_MONTGOMERY_SPARSE, 4, NULL },
    { "2^384-2^128-2^96+2^32-1", GEN_MONTGOMERY_SPARSE, 6, NULL },
    { "2^256-2^32-977", GEN_MONTGOMERY_SPARSE, 4, NULL },
    { "2^216*3^137-1", GEN_MONTGOMERY_SPARSE, 7, NULL },
    { "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
      GEN_MONTGOMERY_SPARSE, 6, NULL },
    { "2^252+27742317777372353535851937790883648493", GEN_MONTGOMERY_SPARSE, 4, NULL },
    { "2^255-19", GEN_MONTGOMERY_SPARSE, 4, NULL },
    { "2^521-1", GEN_MONTGOMERY_SPARSE, 9, NULL },
    { "2^61-1", GEN_MONTGOMERY_SPARSE, 1, NULL },
};

#define IS_MONT(m) ((m) == GEN_MONTGOMERY || (m) == GEN_MONTGOMERY_SPARSE)

static const ir_kind ops_unsat[] = { IR_KIND_MUL, IR_KIND_SQUARE, IR_KIND_CARRY, IR_KIND_ADD, IR_KIND_SUB,
                                     IR_KIND_OPP };
static const ir_kind ops_sat[] = { IR_KIND_MUL, IR_KIND_SQUARE };
static const ir_kind ops_mont[] = { IR_KIND_MUL, IR_KIND_SQUARE, IR_KIND_ADD, IR_KIND_SUB, IR_KIND_OPP,
                                    IR_KIND_TO_MONT, IR_KIND_FROM_MONT };

#define FAIL(...)                                                                                                    \
    do {                                                                                                             \
        fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                       \
        fprintf(stderr, "\n");                                                                                       \
        failures++;                                                                                                  \
    } while (0)

/* The structure every generated function must have. */
static int check_shape(const ir_func *f, const gen_spec *s, const mpz_t p)
{
    const char *what = f->name;
    unsigned nin = (s->op == IR_KIND_MUL || s->op == IR_KIND_ADD || s->op == IR_KIND_SUB) ? 2 : 1;
    int bad = 0;
    if (f->narr != 1 + nin || strcmp(f->arr[0].name, "out1") || !f->arr[0].is_output || strcmp(f->arr[1].name, "arg1")
        || (nin == 2 && strcmp(f->arr[2].name, "arg2"))) {
        FAIL("%s: arrays are not out1, arg1%s", what, nin == 2 ? ", arg2" : "");
        return 1;
    }
    for (unsigned i = 0; i < f->narr; i++)
        if (f->arr[i].len != s->limbs) {
            FAIL("%s: array %s has %u limbs", what, f->arr[i].name, f->arr[i].len);
            bad = 1;
        }
    uint64_t want_alias = nin == 2 ? 6 : 2;
    if (f->arr[0].alias != want_alias) {
        FAIL("%s: out1 alias bits 0x%" PRIx64 ", want 0x%" PRIx64, what, f->arr[0].alias, want_alias);
        bad = 1;
    }
    if (strcmp(f->prime, s->prime) || f->kind != s->op || f->nlimbw != s->limbs
        || f->repr != (IS_MONT(s->method) ? IR_REPR_MONTGOMERY : IR_REPR_RADIX)
        || f->pre_lt_p != IS_MONT(s->method)) {
        FAIL("%s: metadata (prime '%s', kind %s, nlimbw %u, repr %d, pre_lt_p %d)", what, f->prime,
             ir_kind_name(f->kind), f->nlimbw, (int)f->repr, (int)f->pre_lt_p);
        bad = 1;
    }
    unsigned sum = 0;
    for (unsigned i = 0; i < f->nlimbw; i++)
        sum += f->limbw[i];
    unsigned k = (unsigned)mpz_sizeinbase(p, 2);
    if (s->method == GEN_SOLINAS_UNSATURATED ? sum != k : sum != 64 * s->limbs) {
        FAIL("%s: limb widths add up to %u", what, sum);
        bad = 1;
    }
    /* loads all come before the first store (out1 may alias the inputs); no dead node; names are unique */
    int stored = 0;
    uint8_t *used = calloc(f->nval, 1);
    for (uint32_t i = 0; i < f->nnode; i++) {
        const ir_node *n = &f->node[i];
        if (n->op == IR_STORE)
            stored = 1;
        if (n->op == IR_LOAD && stored) {
            FAIL("%s: node %u loads after a store", what, i);
            bad = 1;
        }
        for (unsigned j = 0; j < n->nargs; j++)
            used[n->arg[j]] = 1;
    }
    for (uint32_t i = 0; i < f->nnode; i++) {
        const ir_node *n = &f->node[i];
        int live = n->op == IR_STORE;
        for (unsigned j = 0; j < n->nres; j++)
            live |= used[n->res[j]];
        if (!live) {
            FAIL("%s: node %u (%s) is dead", what, i, ir_op_name((ir_op)n->op));
            bad = 1;
        }
    }
    free(used);
    for (uint32_t i = 0; i < f->nval && !bad; i++)
        for (uint32_t j = i + 1; j < f->nval; j++)
            if (!f->val[i].is_const && !f->val[j].is_const && !strcmp(f->val[i].name, f->val[j].name)) {
                FAIL("%s: two values named %s", what, f->val[i].name);
                bad = 1;
                break;
            }
    return bad;
}

/* Same spec, same IR (byte for byte in nodes, values and arrays). */
static int same_ir(const ir_func *a, const ir_func *b)
{
    if (a->nnode != b->nnode || a->nval != b->nval || a->narr != b->narr || strcmp(a->name, b->name))
        return 0;
    if (memcmp(a->node, b->node, a->nnode * sizeof *a->node) || memcmp(a->val, b->val, a->nval * sizeof *a->val))
        return 0;
    for (uint32_t i = 0; i < a->narr; i++)
        if (a->arr[i].len != b->arr[i].len || a->arr[i].alias != b->arr[i].alias
            || memcmp(a->arr[i].hi, b->arr[i].hi, a->arr[i].len * sizeof(ir_u128))
            || memcmp(a->arr[i].lo, b->arr[i].lo, a->arr[i].len * sizeof(ir_u128)))
            return 0;
    return 1;
}

typedef struct {
    const ir_func *f;
    const gen_spec *s;
    mpz_t p, R, Rinv;
    unsigned n;
} ctx;

/* Run f on in[0..nin-1] and compare with GMP. Returns 1 on a mismatch (printed). */
static int run_one(ctx *c, uint64_t in[2][16])
{
    const ir_func *f = c->f;
    unsigned n = c->n;
    uint64_t out[16] = { 0 };
    const uint64_t *ins[3] = { NULL, in[0], in[1] };
    uint64_t *outs[3] = { out, NULL, NULL };
    if (ir_eval(f, ins, outs) < 0) {
        FAIL("%s: ir_eval ran out of memory", f->name);
        return 1;
    }
    mpz_t a, b, want, got, t;
    mpz_inits(a, b, want, got, t, NULL);
    int mont = IS_MONT(c->s->method);
    value_of(a, in[0], f);
    value_of(b, in[1], f);
    value_of(got, out, f);
    switch (f->kind) {
    case IR_KIND_MUL: mpz_mul(want, a, b); break;
    case IR_KIND_SQUARE: mpz_mul(want, a, a); break;
    case IR_KIND_CARRY: mpz_set(want, a); break;
    case IR_KIND_ADD: mpz_add(want, a, b); break;
    case IR_KIND_SUB: mpz_sub(want, a, b); break;
    case IR_KIND_OPP: mpz_neg(want, a); break;
    case IR_KIND_TO_MONT: mpz_mul(want, a, c->R); break;
    case IR_KIND_FROM_MONT: mpz_set(want, a); break;
    default: break;
    }
    if (mont && (f->kind == IR_KIND_MUL || f->kind == IR_KIND_SQUARE || f->kind == IR_KIND_FROM_MONT))
        mpz_mul(want, want, c->Rinv);
    mpz_mod(want, want, c->p);
    int bad = 0;
    const char *why = "";
    if (mont) {
        if (mpz_cmp(got, want)) /* exactly the reduced value, which is below p */
            bad = 1, why = "not the reduced result";
    } else {
        mpz_mod(t, got, c->p);
        if (mpz_cmp(t, want))
            bad = 1, why = "not congruent";
    }
    for (unsigned i = 0; i < n && !bad; i++)
        if (out[i] > f->arr[0].hi[i] || out[i] < f->arr[0].lo[i])
            bad = 1, why = "a limb is outside the declared output bounds";
    if (bad) {
        FAIL("%s: %s", f->name, why);
        print_limbs("arg1", in[0], n);
        if (f->narr > 2)
            print_limbs("arg2", in[1], n);
        print_limbs("out1", out, n);
        gmp_fprintf(stderr, "  want 0x%Zx (mod p)\n  got  0x%Zx\n", want, got);
    }
    mpz_clears(a, b, want, got, t, NULL);
    return bad;
}

/* random input j within f's declared bounds (and below p for Montgomery) */
static void random_input(ctx *c, unsigned j, uint64_t *x)
{
    const ir_array *A = &c->f->arr[1 + j];
    int cls = rnd_class();
    for (unsigned i = 0; i < c->n; i++)
        x[i] = limb_in((rnd() & 7) ? cls : rnd_class(), A->lo[i], A->hi[i]);
    if (IS_MONT(c->s->method)) {
        mpz_t v;
        mpz_init(v);
        value_of(v, x, c->f);
        unsigned bits = (unsigned)mpz_sizeinbase(c->p, 2);
        mpz_fdiv_r_2exp(v, v, bits);
        if (mpz_cmp(v, c->p) >= 0)
            mpz_sub(v, v, c->p); /* v < 2^bits < 2p */
        limbs_of(x, v, c->f);
        mpz_clear(v);
    }
}

/* Edge inputs: 0, 1, p-1, p, p+1, 2p-1 (where the limbs can hold them), every limb at its upper bound, every limb
 * at its lower bound; Montgomery: 0, 1, 2, p-1, p-2, R mod p. */
static unsigned edge_inputs(ctx *c, unsigned j, uint64_t e[16][16])
{
    const ir_array *A = &c->f->arr[1 + j];
    unsigned ne = 0;
    mpz_t v;
    mpz_init(v);
    const char *vals_sol[] = { "0", "1", "p-1", "p", "p+1", "2p-1", "2p" };
    const char *vals_mont[] = { "0", "1", "2", "p-1", "p-2", "R" };
    int mont = IS_MONT(c->s->method);
    unsigned nv = mont ? 6 : 7;
    for (unsigned k = 0; k < nv; k++) {
        const char *s = mont ? vals_mont[k] : vals_sol[k];
        if (!strcmp(s, "0")) mpz_set_ui(v, 0);
        else if (!strcmp(s, "1")) mpz_set_ui(v, 1);
        else if (!strcmp(s, "2")) mpz_set_ui(v, 2);
        else if (!strcmp(s, "p-1")) mpz_sub_ui(v, c->p, 1);
        else if (!strcmp(s, "p-2")) mpz_sub_ui(v, c->p, 2);
        else if (!strcmp(s, "p")) mpz_set(v, c->p);
        else if (!strcmp(s, "p+1")) mpz_add_ui(v, c->p, 1);
        else if (!strcmp(s, "2p-1")) { mpz_mul_2exp(v, c->p, 1); mpz_sub_ui(v, v, 1); }
        else if (!strcmp(s, "2p")) mpz_mul_2exp(v, c->p, 1);
        else mpz_mod(v, c->R, c->p);
        if (!limbs_of(e[ne], v, c->f))
            continue;
        int ok = 1;
        for (unsigned i = 0; i < c->n; i++)
            ok &= e[ne][i] <= A->hi[i] && e[ne][i] >= A->lo[i];
        ne += ok;
    }
    if (!mont) {
        for (unsigned i = 0; i < c->n; i++)
            e[ne][i] = (uint64_t)A->hi[i];
        ne++;
        for (unsigned i = 0; i < c->n; i++)
            e[ne][i] = (uint64_t)A->lo[i];
        ne++;
        for (unsigned i = 0; i < c->n; i++) /* alternate high and low limbs */
            e[ne][i] = (uint64_t)(i & 1 ? A->lo[i] : A->hi[i]);
        ne++;
    }
    mpz_clear(v);
    return ne;
}

static void test_field_op(const field *fd, ir_kind op, unsigned iters)
{
    gen_spec s = { .prime = fd->prime, .method = fd->method, .limbs = fd->limbs, .op = op, .name = NULL };
    char err[512];
    ir_func *f = gen_build(&s, err, sizeof err);
    if (!f) {
        FAIL("%s %s n=%u %s: %s", gen_method_name(fd->method), fd->prime, fd->limbs, ir_kind_name(op), err);
        return;
    }
    ir_func *g = gen_build(&s, err, sizeof err);
    if (!g || !same_ir(f, g))
        FAIL("%s: a second build differs (the generator is not deterministic)", f->name);
    ir_func_free(g);
    char dn[IR_NAME_MAX];
    gen_default_name(&s, dn, sizeof dn);
    if (strcmp(dn, f->name))
        FAIL("%s: default name %s differs from the function's", f->name, dn);
    if (ir_validate(f) < 0)
        FAIL("%s: ir_validate: %s", f->name, f->err);
    if (ir_bounds(f) < 0)
        FAIL("%s: ir_bounds: %s", f->name, f->err);

    ctx c;
    c.f = f;
    c.s = &s;
    c.n = fd->limbs;
    mpz_inits(c.p, c.R, c.Rinv, NULL);
    if (gen_prime_eval(fd->prime, c.p, err, sizeof err) < 0)
        FAIL("%s: gen_prime_eval: %s", fd->prime, err);
    mpz_set_ui(c.R, 0);
    mpz_setbit(c.R, 64 * fd->limbs);
    mpz_invert(c.Rinv, c.R, c.p);
    check_shape(f, &s, c.p);
    if (fd->widths) {
        char buf[128];
        int o = 0;
        for (unsigned i = 0; i < f->nlimbw; i++)
            o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%u", i ? "," : "", f->limbw[i]);
        if (strcmp(buf, fd->widths))
            FAIL("%s: limb widths %s, want %s", f->name, buf, fd->widths);
    }

    unsigned nin = f->narr - 1, bad = 0, runs = 0;
    uint64_t in[2][16];
    memset(in, 0, sizeof in);
    /* edges: every pair of edge inputs */
    uint64_t e0[16][16], e1[16][16];
    unsigned n0 = edge_inputs(&c, 0, e0), n1 = nin == 2 ? edge_inputs(&c, 1, e1) : 1;
    for (unsigned i = 0; i < n0 && bad < 3; i++)
        for (unsigned j = 0; j < n1 && bad < 3; j++) {
            memcpy(in[0], e0[i], sizeof in[0]);
            if (nin == 2)
                memcpy(in[1], e1[j], sizeof in[1]);
            bad += (unsigned)run_one(&c, in);
            runs++;
        }
    for (unsigned it = 0; it < iters && bad < 3; it++) {
        for (unsigned j = 0; j < nin; j++)
            random_input(&c, j, in[j]);
        if (nin == 2 && (rnd() % 16) == 0)
            memcpy(in[1], in[0], sizeof in[0]); /* a == b */
        bad += (unsigned)run_one(&c, in);
        runs++;
    }
    printf("gen: %-20s %-28.28s n=%-2u %-15s %5u nodes %5u ops  %u runs%s\n", gen_method_name(fd->method),
           fd->prime, fd->limbs, ir_kind_name(op), f->nnode, ir_count_ops(f), runs, bad ? "  FAILED" : "");
    if (op == IR_KIND_MUL && fd->method == GEN_SOLINAS_UNSATURATED) {
        char b1[40], b2[40];
        printf("     tight limb 1 bound %s, loose %s\n", ir_u128_hex(f->arr[0].hi[1], b1), ir_u128_hex(f->arr[1].hi[1], b2));
    }
    mpz_clears(c.p, c.R, c.Rinv, NULL);
    ir_func_free(f);
}

/* The unsaturated ops compose: carried ops take the loose bounds add/sub/opp give and give the tight bounds
 * add/sub/opp take; tight bounds stay below 2^w_i + 2^(w_i-3). Montgomery limbs are all declared 2^64-1. */
static void test_layouts(void)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const field *fd = &fields[i];
        if (fd->method == GEN_SOLINAS_SATURATED || fd->method == GEN_SOLINAS_SATURATED_2CHAIN)
            continue;
        ir_func *f[8] = { NULL };
        const ir_kind *ops = fd->method == GEN_SOLINAS_UNSATURATED ? ops_unsat : ops_mont;
        size_t nops = fd->method == GEN_SOLINAS_UNSATURATED ? 6 : 7;
        char err[512];
        int ok = 1;
        for (size_t j = 0; j < nops; j++) {
            gen_spec s = { .prime = fd->prime, .method = fd->method, .limbs = fd->limbs, .op = ops[j] };
            f[j] = gen_build(&s, err, sizeof err);
            ok &= f[j] != NULL;
        }
        if (!ok) {
            FAIL("%s: a build failed: %s", fd->prime, err);
        } else if (fd->method == GEN_SOLINAS_UNSATURATED) {
            const ir_u128 *T = f[0]->arr[0].hi, *L = f[0]->arr[1].hi;
            for (size_t j = 0; j < nops; j++) {
                int carried = ops[j] == IR_KIND_MUL || ops[j] == IR_KIND_SQUARE || ops[j] == IR_KIND_CARRY;
                for (uint32_t a = 0; a < f[j]->narr; a++) {
                    const ir_u128 *want = (carried == f[j]->arr[a].is_output) ? T : L;
                    if (memcmp(f[j]->arr[a].hi, want, fd->limbs * sizeof(ir_u128)))
                        FAIL("%s: %s's %s bounds differ from the layout's %s bounds", fd->prime, f[j]->name,
                             f[j]->arr[a].name, want == T ? "tight" : "loose");
                }
            }
            for (unsigned l = 0; l < fd->limbs; l++) {
                unsigned w = f[0]->limbw[l];
                if (T[l] < ((ir_u128)1 << w) - 1 || T[l] > ((ir_u128)1 << w) + ((ir_u128)1 << (w - 3)) || L[l] < 2 * T[l])
                    FAIL("%s: limb %u: tight bound not within [2^w - 1, 2^w + 2^(w-3)] or loose below 2 tight", fd->prime,
                         l);
            }
        } else {
            for (size_t j = 0; j < nops; j++)
                for (uint32_t a = 0; a < f[j]->narr; a++)
                    for (unsigned l = 0; l < fd->limbs; l++)
                        if (f[j]->arr[a].hi[l] != UINT64_MAX || f[j]->arr[a].lo[l] != 0)
                            FAIL("%s: %s limb %u bound is not 0..2^64-1", f[j]->name, f[j]->arr[a].name, l);
        }
        for (size_t j = 0; j < nops; j++)
            ir_func_free(f[j]);
    }
}

/* ---- solinas-saturated-2chain computes solinas-saturated's function ----------------------------------------------
 * Both reduce the same product by the same three folds, so their output words are equal, not just congruent. The
 * last fold (add C when the second fold carries out) is the part of the 2-chain program that the interval analysis
 * does not cover (one word instead of a chain when C^2 + C <= 2^64): a GMP model of the folds counts the inputs
 * that take it, and with C >= 3 the all-ones inputs must (x = (2^(64n) - 1)^2: the second fold carries when
 * C^2 - 3C + 1 >= 0). */

/* does the second fold carry out for the product x? (GMP: x = lo + hi 2^(64n); y = lo + C hi; z = (y mod 2^(64n))
 * + C (y >> 64n); carry = z >= 2^(64n)) */
static int fold3_fires(const mpz_t x, unsigned n, const mpz_t C)
{
    mpz_t lo, hi, y;
    mpz_inits(lo, hi, y, NULL);
    mpz_fdiv_r_2exp(lo, x, 64 * n);
    mpz_fdiv_q_2exp(hi, x, 64 * n);
    mpz_addmul(lo, hi, C);            /* y */
    mpz_fdiv_q_2exp(hi, lo, 64 * n);  /* top word */
    mpz_fdiv_r_2exp(y, lo, 64 * n);
    mpz_addmul(y, hi, C);
    int r = mpz_sizeinbase(y, 2) > 64 * n;
    mpz_clears(lo, hi, y, NULL);
    return r;
}

static void test_2chain_same(unsigned iters)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const field *fd = &fields[i];
        if (fd->method != GEN_SOLINAS_SATURATED_2CHAIN)
            continue;
        for (size_t o = 0; o < 2; o++) {
            gen_spec s1 = { .prime = fd->prime, .method = GEN_SOLINAS_SATURATED, .limbs = fd->limbs, .op = ops_sat[o] };
            gen_spec s2 = s1;
            s2.method = GEN_SOLINAS_SATURATED_2CHAIN;
            char err[512];
            ir_func *f1 = gen_build(&s1, err, sizeof err), *f2 = f1 ? gen_build(&s2, err, sizeof err) : NULL;
            if (!f1 || !f2) {
                FAIL("%s %s: %s", fd->prime, ir_kind_name(ops_sat[o]), err);
                ir_func_free(f1);
                continue;
            }
            unsigned n = fd->limbs, nin = f1->narr - 1, fired = 0, bad = 0;
            mpz_t p, C, a, b, x;
            mpz_inits(p, C, a, b, x, NULL);
            gen_prime_eval(fd->prime, p, err, sizeof err);
            mpz_set_ui(C, 0);
            mpz_setbit(C, 64 * n);
            mpz_mod(C, C, p); /* c 2^(64n-k) for p = 2^k - c */
            uint64_t in[2][16] = { { 0 } }, o1[16], o2[16];
            for (unsigned it = 0; it < iters + 4 && bad < 3; it++) {
                for (unsigned j = 0; j < nin; j++)
                    for (unsigned l = 0; l < n; l++)
                        in[j][l] = it == 0 ? ~(uint64_t)0                      /* all ones */
                                   : it == 1 ? (l == 0 ? 0 : ~(uint64_t)0)     /* 2^(64n) - 2^64 */
                                   : it == 2 ? (j == 0 ? ~(uint64_t)0 : l == 0) /* all ones times 1 */
                                   : it == 3 ? 0
                                             : word_of(rnd_class());
                const uint64_t *ins[3] = { NULL, in[0], in[1] };
                uint64_t *out1[3] = { o1, NULL, NULL }, *out2[3] = { o2, NULL, NULL };
                if (ir_eval(f1, ins, out1) < 0 || ir_eval(f2, ins, out2) < 0) {
                    FAIL("ir_eval ran out of memory");
                    break;
                }
                value_of(a, in[0], f1);
                value_of(b, in[nin - 1], f1);
                mpz_mul(x, a, b);
                fired += (unsigned)fold3_fires(x, n, C);
                if (memcmp(o1, o2, n * sizeof o1[0])) {
                    FAIL("%s: output words differ from %s's", f2->name, f1->name);
                    print_limbs("arg1", in[0], n);
                    print_limbs("out (saturated)", o1, n);
                    print_limbs("out (2chain)", o2, n);
                    bad++;
                }
            }
            printf("gen: 2chain %-12s n=%u %-6s same words as solinas-saturated on %u inputs, %u take the last fold\n",
                   fd->prime, n, ir_kind_name(ops_sat[o]), iters + 4, fired);
            if (mpz_cmp_ui(C, 3) >= 0 && fired == 0)
                FAIL("%s: no input took the last fold (the all-ones input should)", f2->name);
            mpz_clears(p, C, a, b, x, NULL);
            ir_func_free(f1);
            ir_func_free(f2);
        }
    }
}

/* ---- bad specs ---------------------------------------------------------------------------------------------------- */

typedef struct {
    const char *prime;
    gen_method method;
    unsigned limbs;
    ir_kind op;
    const char *want; /* a substring of the message */
} bad_spec;

static const bad_spec bad_specs[] = {
    { "2^255-", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL, "malformed expression at column 7: expected a number" },
    { "2^^3", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL, "malformed expression at column 3: expected a number" },
    { "(2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL, "malformed expression at column 10: missing ')'" },
    { "2^255-19)", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL, "malformed expression at column 9: unmatched ')'" },
    { "2^255 19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL, "malformed expression at column 7: expected an operator" },
    { "2^255-19q", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL, "malformed expression at column 9: unexpected character" },
    { "0x", GEN_MONTGOMERY, 4, IR_KIND_MUL, "malformed expression at column 3: expected hex digits" },
    { "", GEN_MONTGOMERY, 4, IR_KIND_MUL, "malformed expression at column 1: the expression is empty" },
    { "  ", GEN_MONTGOMERY, 4, IR_KIND_MUL, "the expression is empty" },
    { "2^100000", GEN_MONTGOMERY, 4, IR_KIND_MUL, "malformed expression at column 2: the value exceeds 8192 bits" },
    { "-19", GEN_MONTGOMERY, 4, IR_KIND_MUL, "malformed expression at column 1: expected a number" },
    { "2^(3-5)", GEN_MONTGOMERY, 4, IR_KIND_MUL, "malformed expression at column 2: negative exponent" },
    { "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
      "(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((",
      GEN_MONTGOMERY, 4, IR_KIND_MUL, "malformed expression at column 201: nested deeper than 200" },
    { "2^255-21", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL, "not a prime: 2^255-21" },
    { "2^255-20", GEN_MONTGOMERY, 4, IR_KIND_MUL, "not a prime" },
    { "1", GEN_MONTGOMERY, 4, IR_KIND_MUL, "not a prime" },
    { "19-2^255", GEN_MONTGOMERY, 4, IR_KIND_MUL, "not a prime" },
    { "2", GEN_SOLINAS_UNSATURATED, 1, IR_KIND_MUL, "p = 2" },
    /* wrong shape */
    { "2^256-2^224+2^192+2^96-1", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_MUL, "p is not 2^256 - c with c small enough" },
    { "2^256-2^224+2^192+2^96-1", GEN_SOLINAS_SATURATED, 4, IR_KIND_MUL, "p is not 2^256 - c with c * 2^0 below 2^63" },
    { "2^255-19", GEN_MONTGOMERY, 3, IR_KIND_MUL, "p has 255 bits: more than 3 x 64" },
    { "2^224-2^96+1", GEN_MONTGOMERY, 5, IR_KIND_MUL, "p has 224 bits: 5 limbs of 64 bits leave the top 1 limb(s) unused" },
    { "2^255-19", GEN_SOLINAS_SATURATED, 5, IR_KIND_MUL, "leave the top 1 limb(s) unused" },
    { "2^255-19", GEN_SOLINAS_SATURATED, 3, IR_KIND_SQUARE, "p has 255 bits: more than 3 x 64" },
    { "2^61-1", GEN_SOLINAS_SATURATED, 1, IR_KIND_MUL, "needs at least 2 limbs" },
    { "2^256-2^224+2^192+2^96-1", GEN_SOLINAS_SATURATED_2CHAIN, 4, IR_KIND_MUL, "c * 2^0 below 2^63" },
    { "2^255-19", GEN_SOLINAS_SATURATED_2CHAIN, 5, IR_KIND_SQUARE, "leave the top 1 limb(s) unused" },
    { "2^61-1", GEN_SOLINAS_SATURATED_2CHAIN, 1, IR_KIND_MUL, "needs at least 2 limbs" },
    { "2^255-19", GEN_SOLINAS_SATURATED_2CHAIN, 4, IR_KIND_SUB,
      "unknown op for the solinas-saturated-2chain method: sub (it has mul, square)" },
    { "2^130-5", GEN_SOLINAS_UNSATURATED, 16, IR_KIND_MUL, NULL }, /* fine: 8- and 9-bit limbs */
    { "2^5-1", GEN_SOLINAS_UNSATURATED, 6, IR_KIND_MUL, "6 limbs for a 5-bit prime" },
    /* limbs that cannot hold the product */
    { "2^255-19", GEN_SOLINAS_UNSATURATED, 3, IR_KIND_MUL, "limbs cannot hold the product" },
    { "2^255-19", GEN_SOLINAS_UNSATURATED, 4, IR_KIND_ADD, "limbs cannot hold the product" },
    { "2^607-1", GEN_SOLINAS_UNSATURATED, 10, IR_KIND_SQUARE, "limbs cannot hold the product: node" },
    { "2^607-1", GEN_SOLINAS_UNSATURATED, 10, IR_KIND_ADD, "limbs cannot hold the product: node" },
    /* unknown op for the method */
    { "2^255-19", GEN_MONTGOMERY, 4, IR_KIND_CARRY, "unknown op for the montgomery method: carry" },
    { "2^255-19", GEN_MONTGOMERY_SPARSE, 4, IR_KIND_CARRY, "unknown op for the montgomery-sparse method: carry" },
    { "2^255-19", GEN_MONTGOMERY_SPARSE, 3, IR_KIND_MUL, "p has 255 bits: more than 3 x 64" },
    { "2^224-2^96+1", GEN_MONTGOMERY_SPARSE, 5, IR_KIND_SQUARE, "5 limbs of 64 bits leave the top 1 limb(s) unused" },
    { "2^255-21", GEN_MONTGOMERY_SPARSE, 4, IR_KIND_MUL, "not a prime" },
    { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_TO_MONT, "unknown op for the solinas-unsaturated method" },
    { "2^255-19", GEN_SOLINAS_SATURATED, 4, IR_KIND_ADD, "unknown op for the solinas-saturated method: add" },
    { "2^255-19", GEN_SOLINAS_UNSATURATED, 5, IR_KIND_NONE, "unknown op" },
    /* limb counts */
    { "2^255-19", GEN_SOLINAS_UNSATURATED, 0, IR_KIND_MUL, "0 limbs: 1 to 16 allowed" },
    { "2^255-19", GEN_MONTGOMERY, 17, IR_KIND_MUL, "17 limbs: 1 to 16 allowed" },
};

static void test_bad_specs(void)
{
    for (size_t i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; i++) {
        const bad_spec *b = &bad_specs[i];
        gen_spec s = { .prime = b->prime, .method = b->method, .limbs = b->limbs, .op = b->op, .name = NULL };
        char err[512] = "";
        ir_func *f = gen_build(&s, err, sizeof err);
        if (!b->want) {
            if (!f)
                FAIL("spec '%s' %s n=%u: refused: %s", b->prime, gen_method_name(b->method), b->limbs, err);
            ir_func_free(f);
            continue;
        }
        if (f) {
            FAIL("spec '%s' %s n=%u %s: built, want \"%s\"", b->prime, gen_method_name(b->method), b->limbs,
                 ir_kind_name(b->op), b->want);
            ir_func_free(f);
            continue;
        }
        if (!strstr(err, b->want) || strchr(err, '\n'))
            FAIL("spec '%s' %s n=%u: message \"%s\", want \"%s\"", b->prime, gen_method_name(b->method), b->limbs,
                 err, b->want);
        else
            printf("gen: refused '%s' %s n=%u %s: %s\n", b->prime, gen_method_name(b->method), b->limbs,
                   ir_kind_name(b->op), err);
    }
    /* NULL spec pieces and a bad name */
    char err[512];
    gen_spec s = { .prime = NULL, .method = GEN_MONTGOMERY, .limbs = 4, .op = IR_KIND_MUL, .name = NULL };
    if (gen_build(&s, err, sizeof err) || gen_build(NULL, err, sizeof err))
        FAIL("a spec without a prime was built");
    s.prime = "2^255-19";
    s.name = "a_name_that_is_far_too_long_for_the_ir_to_hold_it_at_all";
    if (gen_build(&s, err, sizeof err))
        FAIL("a function name longer than IR_NAME_MAX was accepted");
    s.name = "fe_mul";
    ir_func *f = gen_build(&s, err, sizeof err);
    if (!f || strcmp(f->name, "fe_mul"))
        FAIL("the spec's name is not the function's name");
    ir_func_free(f);
}

static void test_names(void)
{
    gen_method m;
    ir_kind k;
    if (gen_method_parse("solinas-unsaturated", &m) || m != GEN_SOLINAS_UNSATURATED
        || gen_method_parse("solinas-saturated", &m) || m != GEN_SOLINAS_SATURATED
        || gen_method_parse("montgomery", &m) || m != GEN_MONTGOMERY
        || gen_method_parse("solinas-saturated-2chain", &m) || m != GEN_SOLINAS_SATURATED_2CHAIN
        || gen_method_parse("montgomery-sparse", &m) || m != GEN_MONTGOMERY_SPARSE
        || !gen_method_parse("barrett", &m))
        FAIL("gen_method_parse");
    static const char *const opn[] = { "mul", "square", "carry", "add", "sub", "opp", "to-montgomery",
                                       "from-montgomery" };
    static const ir_kind opk[] = { IR_KIND_MUL, IR_KIND_SQUARE, IR_KIND_CARRY, IR_KIND_ADD, IR_KIND_SUB,
                                   IR_KIND_OPP, IR_KIND_TO_MONT, IR_KIND_FROM_MONT };
    for (int i = 0; i < 8; i++)
        if (gen_op_parse(opn[i], &k) || k != opk[i])
            FAIL("gen_op_parse(%s)", opn[i]);
    if (!gen_op_parse("div", &k) || !gen_op_parse("", &k))
        FAIL("gen_op_parse accepts an unknown op");
    char buf[IR_NAME_MAX];
    gen_spec s = { .prime = "2^255-19", .method = GEN_SOLINAS_UNSATURATED, .limbs = 5, .op = IR_KIND_MUL };
    gen_default_name(&s, buf, sizeof buf);
    if (strcmp(buf, "solinas_unsaturated_2e255m19_5_carry_mul"))
        FAIL("default name %s", buf);
    s.prime = "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
    s.method = GEN_MONTGOMERY;
    s.op = IR_KIND_FROM_MONT;
    s.limbs = 6;
    gen_default_name(&s, buf, sizeof buf);
    if (strncmp(buf, "montgomery_h", 12) || strlen(buf) >= IR_NAME_MAX)
        FAIL("default name of a long prime: %s", buf);
    gen_spec s2 = { .prime = "2^255-19", .method = GEN_SOLINAS_SATURATED_2CHAIN, .limbs = 4, .op = IR_KIND_SQUARE };
    gen_default_name(&s2, buf, sizeof buf);
    if (strcmp(buf, "solinas_saturated_2chain_2e255m19_4_square"))
        FAIL("default name %s", buf);
    /* expression values: precedence, associativity, hex, spaces (each a prime, compared by value) */
    static const struct {
        const char *e;
        unsigned long v;
    } ex[] = {
        { "2^3^2-3", 509 },          /* right-associative ^: (2^3)^2-3 would be 61 */
        { "2*3^2+1", 19 },           /* ^ binds tighter than *: (2*3)^2+1 would be 37 */
        { "10-2-1", 7 },             /* left-associative -: 10-(2-1) would be 9 */
        { " 0x1F + 6 ", 37 },        /* hex, spaces */
        { "(2^7)^3*0 + 0x7fffffff", 0x7fffffff },
        { "2^2^3-1-2*2*2*2*2*2*2", 127 },
        { "3^5-2*(5+7)^2+2^3^2", 467 },
        { "0X65", 101 },
    };
    mpz_t v, w;
    mpz_inits(v, w, NULL);
    char err[256];
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++)
        if (gen_prime_eval(ex[i].e, v, err, sizeof err) < 0 || mpz_cmp_ui(v, ex[i].v))
            FAIL("gen_prime_eval(%s) should be %lu: %s", ex[i].e, ex[i].v, err);
    if (gen_prime_eval("2^127-1", v, err, sizeof err) < 0)
        FAIL("gen_prime_eval(2^127-1): %s", err);
    mpz_set_ui(w, 1);
    mpz_mul_2exp(w, w, 127);
    mpz_sub_ui(w, w, 1);
    if (mpz_cmp(v, w))
        FAIL("gen_prime_eval(2^127-1) value");
    if (!gen_prime_eval("2^3^2", v, err, sizeof err) || strcmp(err, "not a prime: 2^3^2"))
        FAIL("gen_prime_eval(2^3^2) accepted a composite or said: %s", err);
    mpz_clears(v, w, NULL);
}

/* The primes every GMP reference in tests/ir takes from gen_prime_eval, checked against values built here with
 * mpz arithmetic directly (sums of signed powers; the hex literals read by mpz_set_str), so that a misreading of
 * an expression cannot make the generated code and its reference agree on a wrong p. */
static void test_prime_values(void)
{
    static const struct {
        const char *expr;
        struct { int sign; unsigned long base, exp, mul; } t[6]; /* sum of sign * mul * base^exp */
        const char *hex;                                     /* or a literal */
    } primes[] = {
        { "2^255-19", { { 1, 2, 255, 1 }, { -1, 19, 1, 1 } }, NULL },
        { "2^448-2^224-1", { { 1, 2, 448, 1 }, { -1, 2, 224, 1 }, { -1, 1, 0, 1 } }, NULL },
        { "2^521-1", { { 1, 2, 521, 1 }, { -1, 1, 0, 1 } }, NULL },
        { "2^130-5", { { 1, 2, 130, 1 }, { -1, 5, 1, 1 } }, NULL },
        { "2^224-2^96+1", { { 1, 2, 224, 1 }, { -1, 2, 96, 1 }, { 1, 1, 0, 1 } }, NULL },
        { "2^256-2^224+2^192+2^96-1", { { 1, 2, 256, 1 }, { -1, 2, 224, 1 }, { 1, 2, 192, 1 }, { 1, 2, 96, 1 },
                                        { -1, 1, 0, 1 } }, NULL },
        { "2^384-2^128-2^96+2^32-1", { { 1, 2, 384, 1 }, { -1, 2, 128, 1 }, { -1, 2, 96, 1 }, { 1, 2, 32, 1 },
                                       { -1, 1, 0, 1 } }, NULL },
        { "2^256-2^32-977", { { 1, 2, 256, 1 }, { -1, 2, 32, 1 }, { -1, 977, 1, 1 } }, NULL },
        { "2^216*3^137-1", { { 1, 3, 137, 1 }, { -1, 1, 0, 1 } }, NULL }, /* the first term times 2^216 below */
        { "2^252+27742317777372353535851937790883648493", { { 0 } },
          "1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed" },
    };
    mpz_t v, w, t;
    mpz_inits(v, w, t, NULL);
    char err[256];
    for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++) {
        if (primes[i].hex) {
            mpz_set_str(w, primes[i].hex, 16);
        } else {
            mpz_set_ui(w, 0);
            for (size_t k = 0; k < 6 && primes[i].t[k].sign; k++) {
                mpz_ui_pow_ui(t, primes[i].t[k].base, primes[i].t[k].exp);
                mpz_mul_ui(t, t, primes[i].t[k].mul);
                if (i == 8 && k == 0)
                    mpz_mul_2exp(t, t, 216);
                (primes[i].t[k].sign > 0 ? mpz_add : mpz_sub)(w, w, t);
            }
        }
        err[0] = 0;
        if (gen_prime_eval(primes[i].expr, v, err, sizeof err) < 0 || mpz_cmp(v, w))
            FAIL("gen_prime_eval(%s) is not the value built with mpz%s%s", primes[i].expr, err[0] ? ": " : "", err);
    }
    mpz_clears(v, w, t, NULL);
}

int main(int argc, char **argv)
{
    uint64_t seed = 0x5eed;
    unsigned iters = 2000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = (unsigned)strtoul(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: test_gen [--seed N] [--iters N]\n");
            return 2;
        }
    }
    printf("gen: seed 0x%" PRIx64 ", %u random inputs per function\n", seed, iters);
    seed_rng(seed);
    test_names();
    test_prime_values();
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        bool sat = fields[i].method == GEN_SOLINAS_SATURATED || fields[i].method == GEN_SOLINAS_SATURATED_2CHAIN;
        const ir_kind *ops = fields[i].method == GEN_SOLINAS_UNSATURATED ? ops_unsat : sat ? ops_sat : ops_mont;
        size_t nops = fields[i].method == GEN_SOLINAS_UNSATURATED ? 6 : sat ? 2 : 7;
        for (size_t j = 0; j < nops; j++)
            test_field_op(&fields[i], ops[j], iters);
    }
    test_layouts();
    test_2chain_same(iters);
    test_bad_specs();
    if (failures) {
        printf("gen: %d failures (seed 0x%" PRIx64 ")\n", failures, seed);
        return 1;
    }
    printf("gen: all passed\n");
    return 0;
}
