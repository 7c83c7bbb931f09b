/* test_harness.c — the cross-check harness: every generated prime x op and every fiat-crypto function
 * the reader accepts, unlowered and lowered, evaluated by the interpreter and by its emitted C compiled with gcc
 * and clang, against the GMP reference of the field operation it claims (harness.h).
 *
 * Usage: test_harness [--seed N] [--iters N] MODE [GROUP]
 *   check GROUP       interpreter and compiled C vs GMP on edge inputs (all pairs) + N random inputs (default
 *                     10,000); outputs of aliased calls (out1 == arg1 / arg2) too; every variant of a function
 *                     must also agree exactly with the unlowered interpreter.
 *   text GROUP        print/parse round trips: print(parse(print(f))) == print(f), and the parsed function
 *                     evaluates like f (unlowered and lowered).
 *   nobranch CC OPT   every multiply and square (generated and fiat, unlowered and lowered) in one C file,
 *                     compiled by CC at -OOPT into one object: no conditional jump.
 *   bounds            the bounds pass catches deliberately overflowing programs.
 *   ladder [--print]  an X25519 ladder step (tests/ir/ladderstep.ir, with `call`) vs a GMP ladder step;
 *                     --print writes the composed text (callees + ladder step) to stdout instead.
 *   selftest          the harness catches wrong functions: false claims (kind, prime, bounds), altered programs
 *                     (unlowered, lowered only), a wrong compiled function, a branch in compiled C.
 *   table             per prime and op, the node count before and after lowering (markdown, deterministic).
 * GROUP: gen.unsat.25519, gen.mont.p256, ... (see gen_groups), fiat.<file name without .json>.
 * Exit 0 pass, 1 fail, 2 bad usage, 77 skip (a compiler is missing). */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cc_util.h"
#include "emit/emit_c.h"
#include "gen/gen.h"
#include "harness.h"
#include "ir/ir.h"
#include "testutil.h"

#ifndef HARNESS_FIAT_DIR
#error "HARNESS_FIAT_DIR (the fiat-json folder) must be defined"
#endif
#ifndef HARNESS_LADDER_IR
#error "HARNESS_LADDER_IR (tests/ir/ladderstep.ir) must be defined"
#endif

/* ---- groups ---------------------------------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    gen_method method;
    const char *prime;
    unsigned limbs;
} gen_group;

static const gen_group gen_groups[] = {
    { "gen.unsat.25519", GEN_SOLINAS_UNSATURATED, "2^255-19", 5 },
    { "gen.unsat.p448", GEN_SOLINAS_UNSATURATED, "2^448-2^224-1", 8 },
    { "gen.unsat.p521", GEN_SOLINAS_UNSATURATED, "2^521-1", 9 },
    { "gen.unsat.poly1305", GEN_SOLINAS_UNSATURATED, "2^130-5", 3 },
    { "gen.sat.25519", GEN_SOLINAS_SATURATED, "2^255-19", 4 },
    /* secp256k1 (SEC 2 2.4.1): p = 2^256 - c with c = 2^32 + 977, one fold multiplier */
    { "gen.sat.secp256k1", GEN_SOLINAS_SATURATED, "2^256-2^32-977", 4 },
    { "gen.sat2.secp256k1", GEN_SOLINAS_SATURATED_2CHAIN, "2^256-2^32-977", 4 },
    { "gen.mont.p224", GEN_MONTGOMERY, "2^224-2^96+1", 4 },
    { "gen.mont.p256", GEN_MONTGOMERY, "2^256-2^224+2^192+2^96-1", 4 },
    { "gen.mont.p384", GEN_MONTGOMERY, "2^384-2^128-2^96+2^32-1", 6 },
    { "gen.mont.secp256k1", GEN_MONTGOMERY, "2^256-2^32-977", 4 },
    { "gen.mont.p434", GEN_MONTGOMERY, "2^216*3^137-1", 7 },
    /* BLS12-381 (Bowe 2017; draft-irtf-cfrg-pairing-friendly-curves): base field p and scalar field r */
    { "gen.mont.bls12_381_p", GEN_MONTGOMERY,
      "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 6 },
    { "gen.mont.bls12_381_r", GEN_MONTGOMERY, "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
      4 },
    /* edwards25519's group order l (RFC 8032 section 5.1) */
    { "gen.mont.ed25519_l", GEN_MONTGOMERY, "2^252+27742317777372353535851937790883648493", 4 },
    /* montgomery-sparse: the sparse primes (NIST SP 800-186 3.2.1), p = -1 mod 2^64 (P-256, P-384, P-434), a
     * dense low word with sparse upper words (secp256k1), m' = 2^32 + 1 (P-384), and a dense prime (mulx only) */
    { "gen.msparse.p224", GEN_MONTGOMERY_SPARSE, "2^224-2^96+1", 4 },
    { "gen.msparse.p256", GEN_MONTGOMERY_SPARSE, "2^256-2^224+2^192+2^96-1", 4 },
    { "gen.msparse.p384", GEN_MONTGOMERY_SPARSE, "2^384-2^128-2^96+2^32-1", 6 },
    { "gen.msparse.secp256k1", GEN_MONTGOMERY_SPARSE, "2^256-2^32-977", 4 },
    { "gen.msparse.p434", GEN_MONTGOMERY_SPARSE, "2^216*3^137-1", 7 },
    { "gen.msparse.bls12_381_r", GEN_MONTGOMERY_SPARSE,
      "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 4 },
    { "gen.msparse.ed25519_l", GEN_MONTGOMERY_SPARSE, "2^252+27742317777372353535851937790883648493", 4 },
};

static const ir_kind ops_unsat[] = { IR_KIND_MUL, IR_KIND_SQUARE, IR_KIND_CARRY, IR_KIND_ADD, IR_KIND_SUB, IR_KIND_OPP };
static const ir_kind ops_sat[] = { IR_KIND_MUL, IR_KIND_SQUARE };
static const ir_kind ops_mont[] = { IR_KIND_MUL, IR_KIND_SQUARE, IR_KIND_ADD, IR_KIND_SUB,
                                    IR_KIND_OPP, IR_KIND_TO_MONT, IR_KIND_FROM_MONT };

static const char *const fiat_files[] = {
    "curve25519_64",   "curve25519_scalar_64", "curve25519_solinas_64", "p224_64",
    "p256_64",         "p256_scalar_64",       "p384_64",               "p434_64",
    "p448_solinas_64", "p521_64",              "poly1305_64",           "secp256k1_dettman_64",
    "secp256k1_montgomery_64",
};

/* Function-name suffixes that the reader must accept (every mul, square, carry_mul, carry_square, carry,
 * add, sub and opp in the 13 files loads: docs/optimizer.md; the Montgomery files' to/from_montgomery too). */
static const char *const fiat_must_load[] = { "_mul", "_square", "_carry", "_add", "_sub", "_opp",
                                              "_to_montgomery", "_from_montgomery" };

/* ---- subjects ------------------------------------------------------------------------------------------------- */

enum { UNL = 0, LOW = 1 };
static const char *const form_name[2] = { "unlowered", "lowered" };
static const char *const compilers[2] = { "gcc", "clang" };

typedef struct {
    char label[200];       /* "gen.mont.p256 montgomery_... (mul)" */
    char group[64];
    char method[40];       /* "solinas-unsaturated", ..., or the fiat file */
    ir_func *f[2];         /* unlowered, lowered */
    hx_field h;
    bool h_ok;
    cc_fn fn[2][2];        /* [form][compiler], NULL when not compiled */
} subject;

typedef struct {
    subject *s;
    unsigned n, cap;
} subjects;

static void subjects_free(subjects *ss)
{
    for (unsigned i = 0; i < ss->n; i++) {
        ir_func_free(ss->s[i].f[UNL]);
        ir_func_free(ss->s[i].f[LOW]);
        if (ss->s[i].h_ok)
            hx_field_clear(&ss->s[i].h);
    }
    free(ss->s);
    memset(ss, 0, sizeof *ss);
}

static void die_oom(void)
{
    fprintf(stderr, "test_harness: out of memory\n");
    exit(1);
}

/* Add f (owned from here on) and its lowered form. Failures are test failures, counted by the caller's tu_fail. */
static void subjects_add(subjects *ss, const char *group, const char *method, ir_func *f)
{
    char err[512];
    if (ss->n == ss->cap) {
        ss->cap = ss->cap ? 2 * ss->cap : 16;
        ss->s = realloc(ss->s, ss->cap * sizeof *ss->s);
        if (!ss->s)
            die_oom();
    }
    subject *s = &ss->s[ss->n];
    memset(s, 0, sizeof *s);
    snprintf(s->group, sizeof s->group, "%s", group);
    snprintf(s->method, sizeof s->method, "%s", method);
    snprintf(s->label, sizeof s->label, "%s %s (%s)", group, f->name, ir_kind_name(f->kind));
    s->f[UNL] = f;
    if (hx_field_init(&s->h, f, err, sizeof err) < 0) {
        hx_field_clear(&s->h);
        tu_fail("%s: %s", s->label, err);
        ir_func_free(f);
        return;
    }
    s->h_ok = true;
    s->f[LOW] = ir_lower(f, err, sizeof err);
    if (!s->f[LOW]) {
        tu_fail("%s: ir_lower: %s", s->label, err);
        hx_field_clear(&s->h);
        ir_func_free(f);
        return;
    }
    /* The lowered form gets its own C symbol. */
    if (strlen(f->name) + 8 < IR_NAME_MAX)
        snprintf(s->f[LOW]->name, IR_NAME_MAX, "%s_lowered", f->name);
    else
        snprintf(s->f[LOW]->name, IR_NAME_MAX, "hx%u_lowered", ss->n);
    ss->n++;
}

static const gen_group *find_gen_group(const char *name)
{
    for (size_t i = 0; i < TU_ARRAY_LEN(gen_groups); i++)
        if (!strcmp(gen_groups[i].name, name))
            return &gen_groups[i];
    return NULL;
}

static ir_func *gen_one(const gen_group *g, ir_kind op, const char *name, char *err, size_t errlen)
{
    gen_spec spec = { .prime = g->prime, .method = g->method, .limbs = g->limbs, .op = op, .name = name };
    return gen_build(&spec, err, errlen);
}

static void load_gen_group(subjects *ss, const gen_group *g, bool mul_square_only)
{
    bool sat = g->method == GEN_SOLINAS_SATURATED || g->method == GEN_SOLINAS_SATURATED_2CHAIN;
    const ir_kind *ops = g->method == GEN_SOLINAS_UNSATURATED ? ops_unsat : sat ? ops_sat : ops_mont;
    size_t nops = g->method == GEN_SOLINAS_UNSATURATED ? TU_ARRAY_LEN(ops_unsat)
                  : sat                                ? TU_ARRAY_LEN(ops_sat)
                                                       : TU_ARRAY_LEN(ops_mont);
    for (size_t i = 0; i < nops; i++) {
        char err[512];
        if (mul_square_only && ops[i] != IR_KIND_MUL && ops[i] != IR_KIND_SQUARE)
            continue;
        ir_func *f = gen_one(g, ops[i], NULL, err, sizeof err);
        if (!f) {
            tu_fail("%s %s: gen_build: %s", g->name, ir_kind_name(ops[i]), err);
            continue;
        }
        subjects_add(ss, g->name, gen_method_name(g->method), f);
    }
}

static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t k = fread(buf + n, 1, cap - n, fp);
        n += k;
        if (n < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap + 1);
        if (!nb)
            free(buf);
        buf = nb;
    }
    fclose(fp);
    if (!buf)
        return NULL;
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* Load every function of fiat file `base` that the reader accepts; a mul/square/carry/add/sub/opp/to/from that it
 * refuses is a failure. */
static void load_fiat_group(subjects *ss, const char *base, bool mul_square_only, bool verbose)
{
    char path[1024], group[64];
    snprintf(path, sizeof path, "%s/%s.json", HARNESS_FIAT_DIR, base);
    snprintf(group, sizeof group, "fiat.%s", base);
    size_t len;
    char *json = read_file(path, &len);
    if (!json) {
        tu_fail("%s: cannot read: %s", path, strerror(errno));
        return;
    }
    cJSON *root = cJSON_ParseWithLength(json, len);
    if (!cJSON_IsArray(root)) {
        tu_fail("%s: not a JSON array", path);
        cJSON_Delete(root);
        free(json);
        return;
    }
    unsigned loaded = 0, refused = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, root)
    {
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(item, "operation");
        if (!cJSON_IsString(op))
            continue;
        const char *name = op->valuestring;
        bool must = false;
        for (size_t i = 0; i < TU_ARRAY_LEN(fiat_must_load); i++)
            must = must || ends_with(name, fiat_must_load[i]);
        if (mul_square_only && !ends_with(name, "_mul") && !ends_with(name, "_square"))
            continue;
        char err[512];
        ir_func *f = ir_fiat_load(json, len, path, name, err, sizeof err);
        if (!f) {
            refused++;
            if (must)
                tu_fail("%s: %s must load: %s", path, name, err);
            continue;
        }
        loaded++;
        subjects_add(ss, group, base, f);
    }
    if (verbose)
        printf("%s: %u functions loaded, %u refused by the reader\n", group, loaded, refused);
    cJSON_Delete(root);
    free(json);
}

static int load_group(subjects *ss, const char *group, bool mul_square_only)
{
    const gen_group *g = find_gen_group(group);
    if (g) {
        load_gen_group(ss, g, mul_square_only);
        return 0;
    }
    if (!strncmp(group, "fiat.", 5) && group[5]) {
        load_fiat_group(ss, group + 5, mul_square_only, !mul_square_only);
        return 0;
    }
    return -1;
}

static void unknown_group(const char *group)
{
    fprintf(stderr, "test_harness: unknown group %s (groups:", group);
    for (size_t i = 0; i < TU_ARRAY_LEN(gen_groups); i++)
        fprintf(stderr, " %s", gen_groups[i].name);
    fprintf(stderr, " fiat.<a file in %s, without .json>)\n", HARNESS_FIAT_DIR);
}

static void load_all(subjects *ss, bool mul_square_only)
{
    for (size_t i = 0; i < TU_ARRAY_LEN(gen_groups); i++)
        load_gen_group(ss, &gen_groups[i], mul_square_only);
    for (size_t i = 0; i < TU_ARRAY_LEN(fiat_files); i++) {
        char g[64];
        snprintf(g, sizeof g, "fiat.%s", fiat_files[i]);
        load_group(ss, g, mul_square_only);
    }
}

/* ---- emitted C ------------------------------------------------------------------------------------------------ */

/* One C file holding every subject's unlowered and lowered function (helpers once). NULL on an emitter failure
 * (reported). */
static char *emit_all(const subjects *ss)
{
    size_t cap = 1 << 16, len = 0;
    char *src = malloc(cap);
    if (!src)
        die_oom();
    src[0] = 0;
    bool first = true;
    for (unsigned i = 0; i < ss->n; i++)
        for (int k = 0; k < 2; k++) {
            char err[512];
            emit_c_opts o = { .command = "test_harness", .no_header = !first, .no_helpers = !first };
            char *c = emit_c(ss->s[i].f[k], &o, err, sizeof err);
            if (!c) {
                tu_fail("%s (%s): emit_c: %s", ss->s[i].label, form_name[k], err);
                free(src);
                return NULL;
            }
            first = false;
            size_t cl = strlen(c);
            if (len + cl + 2 > cap) {
                while (len + cl + 2 > cap)
                    cap *= 2;
                src = realloc(src, cap);
                if (!src)
                    die_oom();
            }
            memcpy(src + len, c, cl);
            len += cl;
            src[len++] = '\n';
            src[len] = 0;
            free(c);
        }
    return src;
}

/* ---- compiling: through tests/ir/cc_util ---------------------------------------------------------------------- */

typedef struct {
    char dir[512];
    void *dl[2];
} compiled;

/* Compile the group's C with gcc and clang at -O2 into shared objects and look every function up. Returns 0, 77
 * when a compiler is missing (the other one is still used; the caller skips once the rest has passed), or 1
 * (failures reported). */
static int compile_group(subjects *ss, compiled *cp)
{
    memset(cp, 0, sizeof *cp);
    char *src = emit_all(ss);
    if (!src)
        return 1;
    char err[2048];
    if (cc_tmpdir(cp->dir, sizeof cp->dir, err, sizeof err) < 0) {
        tu_fail("temporary directory: %s", err);
        cp->dir[0] = 0;
        free(src);
        return 1;
    }
    int rc = 0;
    for (int c = 0; c < 2; c++) {
        if (!cc_available(compilers[c])) {
            printf("%s not found: its compiled C is not checked\n", compilers[c]);
            rc = rc ? rc : 77;
            continue;
        }
        char so[1024], stem[64];
        snprintf(stem, sizeof stem, "harness_%s", compilers[c]);
        if (cc_build_so(compilers[c], "-O2", src, cp->dir, stem, so, sizeof so, err, sizeof err) < 0) {
            tu_fail("%s -O2: %s", compilers[c], err);
            rc = 1;
            continue;
        }
        cp->dl[c] = cc_dlopen(so, err, sizeof err);
        if (!cp->dl[c]) {
            tu_fail("%s", err);
            rc = 1;
            continue;
        }
        for (unsigned i = 0; i < ss->n; i++)
            for (int k = 0; k < 2; k++) {
                ss->s[i].fn[k][c] = cc_dlsym(cp->dl[c], ss->s[i].f[k]->name, err, sizeof err);
                if (!ss->s[i].fn[k][c]) {
                    tu_fail("%s: %s: %s", ss->s[i].label, compilers[c], err);
                    rc = 1;
                }
            }
    }
    free(src);
    return rc;
}

static void compiled_close(compiled *cp)
{
    for (int c = 0; c < 2; c++)
        if (cp->dl[c])
            cc_dlclose(cp->dl[c]);
    if (cp->dir[0])
        cc_rmtree(cp->dir);
}

/* ---- check ---------------------------------------------------------------------------------------------------- */

/* Evaluate f (interpreter) on inputs a, b into out; the array layout comes from h. */
static int eval_subject(const ir_func *f, const hx_field *h, const uint64_t *a, const uint64_t *b, uint64_t *out)
{
    const uint64_t *in[64] = { 0 };
    uint64_t *o[64] = { 0 };
    in[h->in[0]] = a;
    if (h->nin > 1)
        in[h->in[1]] = b;
    o[h->out] = out;
    return ir_eval(f, in, o);
}

/* Call compiled fn: outputs then inputs, in declaration order (emit_c.h); with alias 1 or 2 the output buffer is
 * first loaded with input 1 or 2 and passed in its place. */
static void call_compiled(cc_fn fn, const hx_field *h, const uint64_t *a, const uint64_t *b, uint64_t *out,
                          int alias)
{
    const uint64_t *x = a, *y = b;
    if (alias == 1) {
        memcpy(out, a, h->n * sizeof *out);
        x = out;
    } else if (alias == 2) {
        memcpy(out, b, h->n * sizeof *out);
        y = out;
    }
    /* inputs in declaration order */
    const uint64_t *first = x, *second = y;
    if (h->nin > 1 && h->in[0] > h->in[1])
        first = y, second = x;
    void *args[3] = { out, (void *)(uintptr_t)first, (void *)(uintptr_t)second };
    cc_call_arrays(fn, 1 + h->nin, args);
}

/* Same for the interpreter, aliasing the output onto an input buffer. */
static int eval_aliased(const ir_func *f, const hx_field *h, const uint64_t *a, const uint64_t *b, uint64_t *out,
                        int alias)
{
    if (alias == 1) {
        memcpy(out, a, h->n * sizeof *out);
        return eval_subject(f, h, out, b, out);
    }
    memcpy(out, b, h->n * sizeof *out);
    return eval_subject(f, h, a, out, out);
}

static bool may_alias(const ir_func *f, const hx_field *h, int input)
{
    return (f->arr[h->out].alias >> h->in[input]) & 1;
}

/* Self-test (mode selftest): a failure that is expected is recorded here instead of reported. */
static bool expecting;
static char caught[200];

static void report(const subject *s, const char *variant, uint64_t seed, long iter, const uint64_t *a,
                   const uint64_t *b, const uint64_t *out, const mpz_t e, const char *why)
{
    if (expecting) {
        snprintf(caught, sizeof caught, "%s: %s", variant, why);
        return;
    }
    tu_fail("%s: %s: %s (seed %llu, input %ld)", s->label, variant, why, (unsigned long long)seed, iter);
    if (tu_failures > 50)
        return;
    hx_print_limbs("arg1", a, s->h.n);
    if (s->h.nin > 1)
        hx_print_limbs("arg2", b, s->h.n);
    hx_print_limbs("out1", out, s->h.n);
    mpz_t v;
    mpz_init(v);
    hx_value(v, &s->h, out);
    hx_print_mpz("value", v);
    hx_print_mpz("expected", e);
    hx_print_mpz("p", s->h.p);
    mpz_clear(v);
}

/* Check one subject on edge pairs + iters random inputs. Returns the number of inputs checked. */
static long check_subject(subject *s, uint64_t seed, long iters)
{
    const hx_field *h = &s->h;
    const ir_func *f = s->f[UNL];
    unsigned n = h->n;
    enum { MAXE = 8 };
    uint64_t ea[MAXE * HX_MAXLIMBS], eb[MAXE * HX_MAXLIMBS];
    unsigned na = hx_edge_inputs(ea, MAXE, h, f, h->in[0]);
    unsigned nb = h->nin > 1 ? hx_edge_inputs(eb, MAXE, h, f, h->in[1]) : 1;
    long nedge = (long)na * nb, total = nedge + iters;
    tu_rng rng;
    tu_rng_seed(&rng, seed ^ (uint64_t)strlen(s->label) * 0x9e3779b97f4a7c15ULL);
    for (const char *c = s->label; *c; c++)
        rng.s[0] = rng.s[0] * 31 + (uint8_t)*c; /* a stream per function, reproducible from the seed */
    mpz_t va, vb, e;
    mpz_inits(va, vb, e, NULL);
    uint64_t a[HX_MAXLIMBS] = { 0 }, b[HX_MAXLIMBS] = { 0 }, ref[HX_MAXLIMBS], out[HX_MAXLIMBS];
    char err[512];
    long it;
    bool bad = false;
    bool al1 = may_alias(f, h, 0), al2 = h->nin > 1 && may_alias(f, h, 1);
    for (it = 0; it < total && !bad; it++) {
        if (it < nedge) {
            memcpy(a, ea + (size_t)(it / nb) * n, n * sizeof *a);
            if (h->nin > 1)
                memcpy(b, eb + (size_t)(it % nb) * n, n * sizeof *b);
        } else {
            if (hx_random_input(a, h, f, h->in[0], &rng, err, sizeof err) < 0 ||
                (h->nin > 1 && hx_random_input(b, h, f, h->in[1], &rng, err, sizeof err) < 0)) {
                tu_fail("%s: %s", s->label, err);
                break;
            }
        }
        hx_value(va, h, a);
        hx_value(vb, h, b);
        hx_expected(e, h, va, vb);
        const char *why;
        /* interpreter, unlowered: the reference for the exact comparisons below (buffers poisoned first, so an
         * output limb the function never stores cannot pass with a stale value) */
        memset(ref, 0xa5, n * sizeof *ref);
        memset(out, 0x5a, n * sizeof *out);
        if (eval_subject(f, h, a, b, ref) < 0)
            die_oom();
        if ((why = hx_check(h, f, e, ref))) {
            report(s, "ir_eval unlowered", seed, it, a, b, ref, e, why);
            bad = true;
            break;
        }
        /* interpreter, lowered */
        if (eval_subject(s->f[LOW], h, a, b, out) < 0)
            die_oom();
        if ((why = hx_check(h, f, e, out)) || memcmp(out, ref, n * sizeof *out)) {
            report(s, "ir_eval lowered", seed, it, a, b, out, e, why ? why : "differs from the unlowered function");
            bad = true;
            break;
        }
        /* compiled, both forms, both compilers; every 8th input also with out1 aliasing arg1 / arg2 */
        int nalias = (it % 8 == 0) ? 3 : 1;
        for (int al = 0; al < nalias && !bad; al++) {
            if ((al == 1 && !al1) || (al == 2 && !al2))
                continue;
            for (int k = 0; k < 2 && !bad; k++) {
                if (al) {
                    if (eval_aliased(s->f[k], h, a, b, out, al) < 0)
                        die_oom();
                    if ((why = hx_check(h, f, e, out)) || memcmp(out, ref, n * sizeof *out)) {
                        char v[80];
                        snprintf(v, sizeof v, "ir_eval %s, out1 == arg%d", form_name[k], al);
                        report(s, v, seed, it, a, b, out, e, why ? why : "differs from the unaliased result");
                        bad = true;
                    }
                }
                for (int c = 0; c < 2 && !bad; c++) {
                    if (!s->fn[k][c])
                        continue;
                    memset(out, 0xa5, sizeof out);
                    call_compiled(s->fn[k][c], h, a, b, out, al);
                    if ((why = hx_check(h, f, e, out)) || memcmp(out, ref, n * sizeof *out)) {
                        char v[80];
                        snprintf(v, sizeof v, "%s -O2 %s%s", compilers[c], form_name[k],
                                 al == 1 ? ", out1 == arg1" : al == 2 ? ", out1 == arg2" : "");
                        report(s, v, seed, it, a, b, out, e, why ? why : "differs from the interpreter");
                        bad = true;
                    }
                }
            }
        }
    }
    mpz_clears(va, vb, e, NULL);
    return it;
}

static int mode_check(const char *group, uint64_t seed, long iters)
{
    subjects ss = { 0 };
    if (load_group(&ss, group, false) < 0) {
        unknown_group(group);
        return 2;
    }
    if (ss.n == 0)
        tu_fail("%s: no function to check", group);
    compiled cp;
    int rc = compile_group(&ss, &cp); /* on a failure, the interpreter checks still run */
    for (unsigned i = 0; i < ss.n; i++) {
        clock_t t0 = clock();
        long cnt = check_subject(&ss.s[i], seed, iters);
        printf("%-70s %6ld inputs  %5u/%5u ops  %.2fs\n", ss.s[i].label, cnt, ir_count_ops(ss.s[i].f[UNL]),
               ir_count_ops(ss.s[i].f[LOW]), (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
    compiled_close(&cp);
    subjects_free(&ss);
    if (rc == 77 && tu_failures == 0) {
        printf("SKIP: a C compiler is missing (see above); everything else passed\n");
        return 77;
    }
    return tu_finish("test_harness");
}

/* ---- self-test: the harness catches wrong functions ---------------------------------------------------------- */

/* Run check_subject on s expecting a failure whose variant starts with want. */
static void expect_caught(subject *s, const char *what, const char *want, uint64_t seed)
{
    expecting = true;
    caught[0] = 0;
    check_subject(s, seed, 500);
    expecting = false;
    if (!caught[0])
        tu_fail("selftest: %s: not caught", what);
    else if (strncmp(caught, want, strlen(want)))
        tu_fail("selftest: %s: caught by the wrong check (%s), expected %s", what, caught, want);
    else
        printf("selftest: %-50s caught: %s\n", what, caught);
}

static subject *find_kind(subjects *ss, ir_kind k)
{
    for (unsigned i = 0; i < ss->n; i++)
        if (ss->s[i].f[UNL]->kind == k)
            return &ss->s[i];
    tu_fail("selftest: no %s function", ir_kind_name(k));
    return NULL;
}

/* The last store to out1[limb] in f, or -1. */
static int store_of(const ir_func *f, uint32_t limb)
{
    for (uint32_t i = f->nnode; i-- > 0;)
        if (f->node[i].op == IR_STORE && f->node[i].limb == limb)
            return (int)i;
    return -1;
}

static int mode_selftest(uint64_t seed)
{
    subjects good = { 0 }, mont = { 0 }, bad = { 0 };
    load_group(&good, "gen.unsat.25519", false);
    load_group(&mont, "gen.mont.p256", false);
    subject *mul = find_kind(&good, IR_KIND_MUL), *add = find_kind(&good, IR_KIND_ADD);
    subject *mmul = find_kind(&mont, IR_KIND_MUL);
    if (!mul || !add || !mmul)
        goto out;
    /* wrong claims: the reference must disagree */
    ir_func *f = ir_func_clone(mul->f[UNL]);
    f->kind = IR_KIND_ADD;
    subjects_add(&bad, "selftest", "kind", f);
    f = ir_func_clone(mmul->f[UNL]);
    snprintf(f->prime, sizeof f->prime, "2^256-2^32-977");
    subjects_add(&bad, "selftest", "prime", f);
    f = ir_func_clone(mul->f[UNL]);
    f->arr[0].hi[0] >>= 1;
    subjects_add(&bad, "selftest", "bounds", f);
    /* wrong programs: the interpreter's result must be caught, unlowered or lowered */
    f = ir_func_clone(mul->f[UNL]);
    int s0 = store_of(f, 0), s1 = store_of(f, 1);
    if (s0 >= 0 && s1 >= 0) {
        ir_val t = f->node[s0].arg[0];
        f->node[s0].arg[0] = f->node[s1].arg[0];
        f->node[s1].arg[0] = t;
    }
    subjects_add(&bad, "selftest", "swap", f);
    subjects_add(&bad, "selftest", "lowered", ir_func_clone(mmul->f[UNL]));
    if (bad.n != 5) {
        tu_fail("selftest: %u of 5 mutants built", bad.n);
        goto out;
    }
    ir_func *lw = bad.s[4].f[LOW];
    bool mutated = false;
    for (uint32_t i = lw->nnode; i-- > 0 && !mutated;)
        if (lw->node[i].op == IR_ADDCARRYX) {
            lw->node[i].op = IR_SUBBORROWX;
            mutated = true;
        }
    if (!mutated)
        tu_fail("selftest: the lowered Montgomery mul has no addcarryx to mutate");
    expect_caught(&bad.s[0], "carry_mul claimed as add", "ir_eval unlowered", seed);
    expect_caught(&bad.s[1], "P-256 mul claimed mod secp256k1's p", "ir_eval unlowered", seed);
    expect_caught(&bad.s[2], "carry_mul with out1[0]'s bound halved", "ir_eval unlowered", seed);
    expect_caught(&bad.s[3], "carry_mul with out1[0] and out1[1] swapped", "ir_eval unlowered", seed);
    expect_caught(&bad.s[4], "lowered P-256 mul, one addcarryx made subborrowx", "ir_eval lowered", seed);
    /* a wrong compiled function: the add compiled by clang called as the lowered mul */
    compiled cp;
    int rc = compile_group(&good, &cp);
    if (rc == 0) {
        mul->fn[LOW][1] = add->fn[LOW][1];
        expect_caught(mul, "clang's lowered carry_mul replaced by add", "clang -O2 lowered", seed);
    } else if (rc == 77) {
        printf("selftest: a wrong compiled function: not checked (a compiler is missing)\n");
    }
    compiled_close(&cp);
    /* the branch finder finds a branch */
    char dir[512], obj[1024], err[4096];
    static const char branchy[] = "#include <stdint.h>\n"
                                  "void ext(uint64_t *o);\n"
                                  "void branchy(uint64_t *o, const uint64_t *a);\n"
                                  "void branchy(uint64_t *o, const uint64_t *a)\n"
                                  "{\n"
                                  "    if (a[0] & 1)\n"
                                  "        ext(o);\n"
                                  "    else\n"
                                  "        o[0] = a[1] * 3;\n"
                                  "}\n";
    if (cc_tmpdir(dir, sizeof dir, err, sizeof err) < 0) {
        tu_fail("temporary directory: %s", err);
    } else {
        for (int c = 0; c < 2; c++) {
            if (!cc_available(compilers[c]))
                continue;
            if (cc_build_obj(compilers[c], "-O2", branchy, dir, compilers[c], obj, sizeof obj, err, sizeof err) < 0)
                tu_fail("selftest: %s: %s", compilers[c], err);
            else if (cc_find_conditional_jumps(obj, err, sizeof err) <= 0)
                /* (-1 leaves objdump's complaint in err; 0 is a miss) */
                tu_fail("selftest: %s -O2: no conditional jump found in a function with an if", compilers[c]);
            else
                printf("selftest: %-50s caught: %s", compilers[c], err);
        }
        cc_rmtree(dir);
    }
out:
    subjects_free(&good);
    subjects_free(&mont);
    subjects_free(&bad);
    return tu_finish("test_harness");
}

/* ---- text round trips --------------------------------------------------------------------------------------- */

static void text_round_trip(const subject *s, int k, uint64_t seed, long iters)
{
    const ir_func *f = s->f[k];
    char err[512];
    char *t1 = ir_print(f);
    if (!t1)
        die_oom();
    ir_func *g = ir_parse(t1, err, sizeof err);
    if (!g) {
        tu_fail("%s (%s): ir_parse(ir_print(f)): %s", s->label, form_name[k], err);
        free(t1);
        return;
    }
    char *t2 = ir_print(g);
    if (!t2)
        die_oom();
    if (strcmp(t1, t2)) {
        size_t i = 0;
        while (t1[i] && t1[i] == t2[i])
            i++;
        size_t line = 1;
        for (size_t j = 0; j < i; j++)
            line += t1[j] == '\n';
        tu_fail("%s (%s): print(parse(print(f))) differs from print(f) at line %zu", s->label, form_name[k], line);
    } else {
        /* the parsed function evaluates like f */
        const hx_field *h = &s->h;
        tu_rng rng;
        tu_rng_seed(&rng, seed);
        uint64_t a[HX_MAXLIMBS] = { 0 }, b[HX_MAXLIMBS] = { 0 }, o1[HX_MAXLIMBS], o2[HX_MAXLIMBS];
        for (long it = 0; it < iters; it++) {
            if (hx_random_input(a, h, s->f[UNL], h->in[0], &rng, err, sizeof err) < 0 ||
                (h->nin > 1 && hx_random_input(b, h, s->f[UNL], h->in[1], &rng, err, sizeof err) < 0)) {
                tu_fail("%s: %s", s->label, err);
                break;
            }
            if (eval_subject(f, h, a, b, o1) < 0 || eval_subject(g, h, a, b, o2) < 0)
                die_oom();
            if (memcmp(o1, o2, h->n * sizeof *o1)) {
                tu_fail("%s (%s): the parsed function evaluates differently (seed %llu, input %ld)", s->label,
                        form_name[k], (unsigned long long)seed, it);
                hx_print_limbs("arg1", a, h->n);
                if (h->nin > 1)
                    hx_print_limbs("arg2", b, h->n);
                hx_print_limbs("f", o1, h->n);
                hx_print_limbs("parsed", o2, h->n);
                break;
            }
        }
    }
    free(t1);
    free(t2);
    ir_func_free(g);
}

static int mode_text(const char *group, uint64_t seed, long iters)
{
    subjects ss = { 0 };
    if (load_group(&ss, group, false) < 0) {
        unknown_group(group);
        return 2;
    }
    if (ss.n == 0)
        tu_fail("%s: no function to check", group);
    for (unsigned i = 0; i < ss.n; i++)
        for (int k = 0; k < 2; k++)
            text_round_trip(&ss.s[i], k, seed, iters);
    printf("%s: %u functions x 2 forms round-tripped\n", group, ss.n);
    subjects_free(&ss);
    return tu_finish("test_harness");
}

/* ---- no conditional jumps ------------------------------------------------------------------------------------ */

static int mode_nobranch(const char *cc, const char *opt)
{
    if (!cc_available(cc)) {
        printf("SKIP: %s not found\n", cc);
        return 77;
    }
    subjects ss = { 0 };
    load_all(&ss, true);
    char *src = emit_all(&ss);
    char dir[512], obj[1024], err[4096], flag[16];
    snprintf(flag, sizeof flag, "-O%s", opt);
    if (src && cc_tmpdir(dir, sizeof dir, err, sizeof err) < 0) {
        tu_fail("temporary directory: %s", err);
        free(src);
        src = NULL;
    }
    if (src) {
        if (cc_build_obj(cc, flag, src, dir, "nobranch", obj, sizeof obj, err, sizeof err) < 0) {
            tu_fail("%s %s: %s", cc, flag, err);
        } else {
            char rep[8192];
            int nj = cc_find_conditional_jumps(obj, rep, sizeof rep);
            if (nj < 0)
                tu_fail("%s %s: objdump: %s", cc, flag, rep);
            else if (nj > 0)
                tu_fail("%s %s: %d conditional jumps in the multiplies and squares:\n%s", cc, flag, nj, rep);
            else
                printf("%s %s: %u multiplies and squares (x2 forms) compiled, no conditional jump\n", cc, flag,
                       ss.n);
        }
        cc_rmtree(dir);
        free(src);
    }
    subjects_free(&ss);
    return tu_finish("test_harness");
}

/* ---- the bounds pass catches overflow ------------------------------------------------------------------------ */

static void expect_overflow(ir_func *f, const char *what)
{
    int rc = ir_bounds(f);
    if (rc == 0) {
        tu_fail("%s: ir_bounds passed", what);
        return;
    }
    if (!strstr(f->err, "overflow") || strncmp(f->err, "node ", 5)) {
        tu_fail("%s: ir_bounds message does not name a node and say overflow: %s", what, f->err);
        return;
    }
    bool flagged = false;
    for (uint32_t v = 0; v < f->nval; v++)
        flagged = flagged || f->val[v].overflow;
    if (!flagged)
        tu_fail("%s: no value marked overflow", what);
    printf("%s: %s\n", what, f->err);
}

static void widen_inputs(ir_func *f)
{
    for (uint32_t i = 0; i < f->narr; i++)
        if (!f->arr[i].is_output)
            for (uint32_t l = 0; l < f->arr[i].len; l++)
                f->arr[i].lo[l] = 0, f->arr[i].hi[l] = ir_width_max(64);
}

static int mode_bounds(void)
{
    char err[512];
    /* 1. the generated 2^255-19 carry_mul with every input limb widened to 2^64-1 */
    ir_func *f = gen_one(&gen_groups[0], IR_KIND_MUL, NULL, err, sizeof err);
    if (!f) {
        tu_fail("gen 2^255-19 carry_mul: %s", err);
    } else {
        if (ir_bounds(f) != 0)
            tu_fail("gen 2^255-19 carry_mul: ir_bounds fails on the function as generated: %s", f->err);
        widen_inputs(f);
        expect_overflow(f, "gen 2^255-19 carry_mul, inputs widened to 2^64-1");
        ir_func_free(f);
    }
    /* 2. fiat's curve25519 carry_mul likewise */
    char path[1024];
    snprintf(path, sizeof path, "%s/curve25519_64.json", HARNESS_FIAT_DIR);
    size_t len;
    char *json = read_file(path, &len);
    f = json ? ir_fiat_load(json, len, path, "fiat_25519_carry_mul", err, sizeof err) : NULL;
    if (!f) {
        tu_fail("%s fiat_25519_carry_mul: %s", path, json ? err : strerror(errno));
    } else {
        if (ir_bounds(f) != 0)
            tu_fail("fiat_25519_carry_mul: ir_bounds fails on the function as loaded: %s", f->err);
        widen_inputs(f);
        expect_overflow(f, "fiat_25519_carry_mul, inputs widened to 2^64-1");
        ir_func_free(f);
    }
    free(json);
    /* 3. hand-made: a u64 add of two full-range loads */
    f = ir_func_new("add_two_loads");
    if (!f)
        die_oom();
    int out = ir_array_add(f, "out1", true, 1, NULL, NULL);
    int in = ir_array_add(f, "arg1", false, 2, NULL, NULL);
    ir_val x = ir_load(f, (uint32_t)in, 0, "x"), y = ir_load(f, (uint32_t)in, 1, "y");
    ir_val z = x != IR_NOVAL && y != IR_NOVAL ? ir_op2(f, IR_ADD, 64, x, y, "z") : IR_NOVAL;
    if (out < 0 || in < 0 || z == IR_NOVAL || ir_store(f, (uint32_t)out, 0, z) < 0 || ir_validate(f) < 0)
        tu_fail("add_two_loads: building: %s", f->err);
    else
        expect_overflow(f, "add_two_loads (u64 z = x + y, x and y full range)");
    /* and with x, y below 2^63 it passes */
    f->arr[in].hi[0] = f->arr[in].hi[1] = ((ir_u128)1 << 63) - 1;
    if (ir_bounds(f) != 0)
        tu_fail("add_two_loads with inputs below 2^63: ir_bounds fails: %s", f->err);
    ir_func_free(f);
    /* 4. the text form refuses such a program (ir_parse runs ir_bounds) */
    static const char prog[] = "func add_two_loads\n"
                               "  in arg1[2]\n"
                               "  out out1[1]\n"
                               "  x:u64 = load arg1[0]\n"
                               "  y:u64 = load arg1[1]\n"
                               "  z:u64 = add x, y\n"
                               "  store out1[0], z\n"
                               "end\n";
    f = ir_parse(prog, err, sizeof err);
    if (f)
        tu_fail("ir_parse accepted a u64 add of two full-range loads");
    else if (!strstr(err, "overflow"))
        tu_fail("ir_parse of an overflowing add: message does not say overflow: %s", err);
    else
        printf("text form: %s\n", err);
    ir_func_free(f);
    return tu_finish("test_harness");
}

/* ---- ladder step (RFC 7748 section 5) -------------------------------------------------------------------------- */

/* The composed text: the generated 2^255-19 (5 limbs) carry_mul, carry_square, add, sub as fe_mul, fe_sq, fe_add,
 * fe_sub (printed by ir_print), then tests/ir/ladderstep.ir. NULL with a failure reported. */
static char *ladder_text(void)
{
    static const struct {
        ir_kind op;
        const char *name;
    } callees[] = { { IR_KIND_MUL, "fe_mul" }, { IR_KIND_SQUARE, "fe_sq" }, { IR_KIND_ADD, "fe_add" },
                    { IR_KIND_SUB, "fe_sub" } };
    size_t len = 0;
    char *text = NULL;
    for (size_t i = 0; i <= TU_ARRAY_LEN(callees); i++) {
        char err[512], *t;
        if (i < TU_ARRAY_LEN(callees)) {
            ir_func *f = gen_one(&gen_groups[0], callees[i].op, callees[i].name, err, sizeof err);
            if (!f) {
                tu_fail("gen 2^255-19 %s: %s", ir_kind_name(callees[i].op), err);
                free(text);
                return NULL;
            }
            t = ir_print(f);
            ir_func_free(f);
        } else {
            t = read_file(HARNESS_LADDER_IR, NULL);
            if (!t) {
                tu_fail("%s: %s", HARNESS_LADDER_IR, strerror(errno));
                free(text);
                return NULL;
            }
        }
        if (!t)
            die_oom();
        size_t tl = strlen(t);
        text = realloc(text, len + tl + 2);
        if (!text)
            die_oom();
        memcpy(text + len, t, tl);
        len += tl;
        text[len++] = '\n';
        text[len] = 0;
        free(t);
    }
    return text;
}

static int find_arr(const ir_func *f, const char *name, bool is_output, unsigned n)
{
    int i = ir_array_find(f, name);
    if (i < 0 || f->arr[i].is_output != is_output || f->arr[i].len != n) {
        tu_fail("ladder step: no %s array %s[%u]", is_output ? "output" : "input", name, n);
        return -1;
    }
    return i;
}

/* One ladder step in GMP, from RFC 7748 section 5 (a24 = 121665):
 *   A = x2 + z2, AA = A^2, B = x2 - z2, BB = B^2, E = AA - BB, C = x3 + z3, D = x3 - z3, DA = D*A, CB = C*B,
 *   x3 = (DA + CB)^2, z3 = x1 * (DA - CB)^2, x2 = AA * BB, z2 = E * (AA + a24 * E). */
static void gmp_ladder_step(mpz_t x2o, mpz_t z2o, mpz_t x3o, mpz_t z3o, const mpz_t x1, const mpz_t x2,
                            const mpz_t z2, const mpz_t x3, const mpz_t z3, const mpz_t p)
{
    mpz_t A, AA, B, BB, E, C, D, DA, CB, t;
    mpz_inits(A, AA, B, BB, E, C, D, DA, CB, t, NULL);
    mpz_add(A, x2, z2);
    mpz_mul(AA, A, A);
    mpz_mod(AA, AA, p);
    mpz_sub(B, x2, z2);
    mpz_mul(BB, B, B);
    mpz_mod(BB, BB, p);
    mpz_sub(E, AA, BB);
    mpz_mod(E, E, p);
    mpz_add(C, x3, z3);
    mpz_sub(D, x3, z3);
    mpz_mul(DA, D, A);
    mpz_mod(DA, DA, p);
    mpz_mul(CB, C, B);
    mpz_mod(CB, CB, p);
    mpz_add(t, DA, CB);
    mpz_mul(x3o, t, t);
    mpz_mod(x3o, x3o, p);
    mpz_sub(t, DA, CB);
    mpz_mul(t, t, t);
    mpz_mul(z3o, x1, t);
    mpz_mod(z3o, z3o, p);
    mpz_mul(x2o, AA, BB);
    mpz_mod(x2o, x2o, p);
    mpz_mul_ui(t, E, 121665);
    mpz_add(t, t, AA);
    mpz_mul(z2o, E, t);
    mpz_mod(z2o, z2o, p);
    mpz_clears(A, AA, B, BB, E, C, D, DA, CB, t, NULL);
}

static int mode_ladder(bool print_only, uint64_t seed, long iters)
{
    char *text = ladder_text();
    if (!text)
        return tu_finish("test_harness");
    if (print_only) {
        fputs(text, stdout);
        free(text);
        return 0;
    }
    char err[512];
    ir_func *f[2] = { ir_parse(text, err, sizeof err), NULL };
    free(text);
    if (!f[0]) {
        tu_fail("ladder step: ir_parse: %s", err);
        return tu_finish("test_harness");
    }
    f[1] = ir_lower(f[0], err, sizeof err);
    if (!f[1])
        tu_fail("ladder step: ir_lower: %s", err);
    /* the flat (inlined) program round-trips through the text form like any other */
    for (int k = 0; k < 2 && f[1]; k++) {
        char *t1 = ir_print(f[k]), *t2 = NULL;
        ir_func *g = t1 ? ir_parse(t1, err, sizeof err) : NULL;
        if (!g)
            tu_fail("ladder step (%s): ir_parse(ir_print(f)): %s", form_name[k], t1 ? err : "out of memory");
        else if (!(t2 = ir_print(g)) || strcmp(t1, t2))
            tu_fail("ladder step (%s): print(parse(print(f))) differs from print(f)", form_name[k]);
        free(t1);
        free(t2);
        ir_func_free(g);
    }
    static const char *const in_names[5] = { "x1", "x2", "z2", "x3", "z3" };
    static const char *const out_names[4] = { "x2_out", "z2_out", "x3_out", "z3_out" };
    enum { N = 5 };
    int ia[5], oa[4];
    bool ok = true;
    for (int i = 0; i < 5; i++)
        ok = (ia[i] = find_arr(f[0], in_names[i], false, N)) >= 0 && ok;
    for (int i = 0; i < 4; i++)
        ok = (oa[i] = find_arr(f[0], out_names[i], true, N)) >= 0 && ok;
    if (!ok || !f[1]) {
        ir_func_free(f[0]);
        ir_func_free(f[1]);
        return tu_finish("test_harness");
    }
    /* value of limbs in radix 2^51 via a hx_field of the generated fe_mul */
    ir_func *mul = gen_one(&gen_groups[0], IR_KIND_MUL, NULL, err, sizeof err);
    hx_field h;
    int hrc = mul ? hx_field_init(&h, mul, err, sizeof err) : -1;
    if (hrc < 0) {
        tu_fail("ladder step: reference field: %s", err);
        if (mul)
            hx_field_clear(&h);
        ir_func_free(mul);
        ir_func_free(f[0]);
        ir_func_free(f[1]);
        return tu_finish("test_harness");
    }
    tu_rng rng;
    tu_rng_seed(&rng, seed);
    uint64_t in[5][N], out[2][4][N];
    mpz_t vin[5], want[4], got;
    for (int i = 0; i < 5; i++)
        mpz_init(vin[i]);
    for (int i = 0; i < 4; i++)
        mpz_init(want[i]);
    mpz_init(got);
    /* edge inputs: every combination of the edge values of the five inputs (hx_edge_inputs: zero, one, every limb
     * at its bound, p-1, p, p+1 where within bounds), then random inputs within the bounds */
    enum { MAXE = 8 };
    uint64_t edges[5][MAXE * N];
    unsigned nedges[5];
    long nedge = 1;
    for (int i = 0; i < 5; i++) {
        nedges[i] = hx_edge_inputs(edges[i], MAXE, &h, f[0], ia[i]);
        nedge *= nedges[i] ? nedges[i] : 1;
    }
    long it;
    bool bad = false;
    for (it = 0; it < nedge + iters && !bad; it++) {
        long digits = it;
        for (int i = 0; i < 5; i++) {
            if (it < nedge && nedges[i]) {
                memcpy(in[i], edges[i] + (size_t)(digits % nedges[i]) * N, sizeof in[i]);
                digits /= nedges[i];
            } else if (hx_random_input(in[i], &h, f[0], ia[i], &rng, err, sizeof err) < 0) {
                tu_fail("ladder step: %s", err);
                bad = true;
            }
            hx_value(vin[i], &h, in[i]);
        }
        gmp_ladder_step(want[0], want[1], want[2], want[3], vin[0], vin[1], vin[2], vin[3], vin[4], h.p);
        for (int k = 0; k < 2 && !bad; k++) {
            const uint64_t *ins[64] = { 0 };
            uint64_t *outs[64] = { 0 };
            for (int i = 0; i < 5; i++)
                ins[ia[i]] = in[i];
            for (int i = 0; i < 4; i++)
                outs[oa[i]] = out[k][i];
            if (ir_eval(f[k], ins, outs) < 0)
                die_oom();
            for (int i = 0; i < 4 && !bad; i++) {
                hx_value(got, &h, out[k][i]);
                mpz_sub(got, got, want[i]);
                const char *why = !mpz_divisible_p(got, h.p)            ? "not congruent to the GMP ladder step"
                                  : !hx_in_bounds(f[0], oa[i], out[k][i]) ? "a limb outside its declared bounds"
                                  : (k == 1 && memcmp(out[1][i], out[0][i], sizeof out[0][i]))
                                      ? "lowered differs from unlowered"
                                      : NULL;
                if (why) {
                    tu_fail("ladder step (%s): %s: %s (seed %llu, input %ld)", form_name[k], out_names[i], why,
                            (unsigned long long)seed, it);
                    for (int j = 0; j < 5; j++)
                        hx_print_limbs(in_names[j], in[j], N);
                    hx_print_limbs(out_names[i], out[k][i], N);
                    hx_print_mpz("expected", want[i]);
                    bad = true;
                }
            }
        }
    }
    printf("ladder step: %ld inputs, %u ops unlowered, %u lowered\n", it, ir_count_ops(f[0]), ir_count_ops(f[1]));
    for (int i = 0; i < 5; i++)
        mpz_clear(vin[i]);
    for (int i = 0; i < 4; i++)
        mpz_clear(want[i]);
    mpz_clear(got);
    hx_field_clear(&h);
    ir_func_free(mul);
    ir_func_free(f[0]);
    ir_func_free(f[1]);
    return tu_finish("test_harness");
}

/* ---- node-count table ------------------------------------------------------------------------------------------ */

static int mode_table(void)
{
    subjects ss = { 0 };
    for (size_t i = 0; i < TU_ARRAY_LEN(gen_groups); i++)
        load_gen_group(&ss, &gen_groups[i], false);
    for (size_t i = 0; i < TU_ARRAY_LEN(fiat_files); i++)
        load_fiat_group(&ss, fiat_files[i], false, false);
    printf("| source | prime | limbs | op | function | nodes | nodes lowered |\n");
    printf("|---|---|---:|---|---|---:|---:|\n");
    for (unsigned i = 0; i < ss.n; i++) {
        const subject *s = &ss.s[i];
        /* long literal primes (BLS12-381's) shortened to their first and last hex digits */
        char prime[64];
        const char *pe = s->f[UNL]->prime;
        size_t pl = strlen(pe);
        if (pl > 40)
            snprintf(prime, sizeof prime, "%.10s...%s", pe, pe + pl - 6);
        else
            snprintf(prime, sizeof prime, "%s", pe);
        printf("| %s | %s | %u | %s | %s | %u | %u |\n", s->method, prime, s->h.n,
               ir_kind_name(s->f[UNL]->kind), s->f[UNL]->name, ir_count_ops(s->f[UNL]), ir_count_ops(s->f[LOW]));
    }
    subjects_free(&ss);
    if (tu_failures) {
        fprintf(stderr, "test_harness: %ld failures while loading\n", tu_failures);
        return 1;
    }
    return 0;
}

/* ---- main ------------------------------------------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr, "usage: test_harness [--seed N] [--iters N] check GROUP | text GROUP | nobranch CC OPT | bounds "
                    "| ladder [--print] | selftest | table\n");
    exit(2);
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || !*s || *end)
        return -1;
    *v = (uint64_t)x;
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t seed, v;
    long iters = -1;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
    const char *rest[4];
    int nrest = 0;
    bool print_only = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (parse_u64(argv[++i], &seed) < 0)
                usage();
        } else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
            if (parse_u64(argv[++i], &v) < 0 || v > 100000000)
                usage();
            iters = (long)v;
        } else if (!strcmp(argv[i], "--print")) {
            print_only = true;
        } else if (!strcmp(argv[i], "--table")) {
            rest[nrest++] = "table";
        } else if (argv[i][0] == '-' || nrest == 4) {
            usage();
        } else {
            rest[nrest++] = argv[i];
        }
    }
    if (nrest == 0)
        usage();
    const char *mode = rest[0];
    if (!strcmp(mode, "table") && nrest == 1)
        return mode_table();
    if (!strcmp(mode, "ladder") && print_only && nrest == 1)
        return mode_ladder(true, seed, 0);
    printf("test_harness %s%s%s: seed %llu (rerun with --seed %llu)\n", mode, nrest > 1 ? " " : "",
           nrest > 1 ? rest[1] : "", (unsigned long long)seed, (unsigned long long)seed);
    fflush(stdout);
    if (!strcmp(mode, "check") && nrest == 2)
        return mode_check(rest[1], seed, iters < 0 ? 10000 : iters);
    if (!strcmp(mode, "text") && nrest == 2)
        return mode_text(rest[1], seed, iters < 0 ? 200 : iters);
    if (!strcmp(mode, "nobranch") && nrest == 3)
        return mode_nobranch(rest[1], rest[2]);
    if (!strcmp(mode, "bounds") && nrest == 1)
        return mode_bounds();
    if (!strcmp(mode, "selftest") && nrest == 1)
        return mode_selftest(seed);
    if (!strcmp(mode, "ladder") && nrest == 1)
        return mode_ladder(false, seed, iters < 0 ? 10000 : iters);
    usage();
    return 2;
}
