/* test_fiat.c — the fiat-crypto JSON reader (ir_fiat_load, ir/fiat_json.c), on the files in ../shared/fiat-json
 * read in place.
 *
 *   1. Every field operation (mul, square, carry_mul, carry_square, carry, add, sub, opp, to_montgomery,
 *      from_montgomery) of the 13 files loads, validates and passes ir_bounds, with the right metadata; the metadata
 *      is checked against the math (GMP): each prime is prime, the limb widths cover it, a Montgomery file's
 *      multiply uses the words of p and m' = -p^-1 mod 2^64, an unsaturated file's carry_mul masks with 2^w_i - 1.
 *      A table of node counts is printed.
 *   2. Every other function of every file is refused, and the message names it.
 *   3. Each construct the reader cannot express, made by editing a real function's JSON in memory, is refused
 *      with a message naming the function, the statement and the construct.
 *   4. Truncated and garbage JSON is refused with a one-line message, never a crash (run it under ASan too).
 *   5. Smoke check of the semantics: fiat_25519_carry_mul under ir_eval equals a*b mod 2^255-19 (GMP) on random
 *      limbs within the input bounds, and stays within the output bounds.
 *
 * Usage: test_fiat [--seed N] [--iters N] */
#include <cjson/cJSON.h>
#include <gmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

#ifndef FIAT_JSON_DIR
#error "FIAT_JSON_DIR must name ../shared/fiat-json"
#endif

static int failures;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    failures++;
}

/* ---- random numbers (splitmix64) ------------------------------------------------------------------------------ */

static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* rnd_upto — uniform-ish in [0, hi] with random bit density: sometimes all ones below a random top bit. */
static uint64_t rnd_upto(uint64_t hi)
{
    uint64_t r = rnd();
    switch (rnd() % 4) {
    case 0: return hi;
    case 1: r = ~(uint64_t)0 >> (rnd() % 64); break;
    case 2: r &= rnd(); break;
    default: break;
    }
    return hi == ~(uint64_t)0 ? r : r % (hi + 1);
}

/* ---- files ------------------------------------------------------------------------------------------------------ */

static char *read_file(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FIAT_JSON_DIR, name);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        printf("cannot open %s\n", path);
        exit(1);
    }
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        printf("cannot read %s\n", path);
        exit(1);
    }
    fclose(fp);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

/* ---- a prime expression evaluator (decimal / 0x literals, + - * ^, parentheses), independent of ir/ and gen/ -- */

static const char *px;
static void pexpr(mpz_t r);
static void patom(mpz_t r)
{
    while (*px == ' ')
        px++;
    if (*px == '(') {
        px++;
        pexpr(r);
        if (*px++ != ')')
            abort();
        return;
    }
    const char *s = px;
    int base = 10;
    if (s[0] == '0' && s[1] == 'x')
        base = 16, s += 2, px += 2;
    while ((*px >= '0' && *px <= '9') || (base == 16 && ((*px >= 'a' && *px <= 'f') || (*px >= 'A' && *px <= 'F'))))
        px++;
    char tmp[200];
    snprintf(tmp, sizeof tmp, "%.*s", (int)(px - s), s);
    if (mpz_set_str(r, tmp, base) != 0)
        abort();
}
static void pfactor(mpz_t r)
{
    patom(r);
    if (*px == '^') {
        px++;
        mpz_t e;
        mpz_init(e);
        pfactor(e);
        mpz_pow_ui(r, r, mpz_get_ui(e));
        mpz_clear(e);
    }
}
static void pterm(mpz_t r)
{
    pfactor(r);
    while (*px == '*') {
        px++;
        mpz_t t;
        mpz_init(t);
        pfactor(t);
        mpz_mul(r, r, t);
        mpz_clear(t);
    }
}
static void pexpr(mpz_t r)
{
    pterm(r);
    while (*px == '+' || *px == '-') {
        char op = *px++;
        mpz_t t;
        mpz_init(t);
        pterm(t);
        if (op == '+')
            mpz_add(r, r, t);
        else
            mpz_sub(r, r, t);
        mpz_clear(t);
    }
}
static void prime_eval(const char *s, mpz_t r)
{
    px = s;
    pexpr(r);
    if (*px)
        abort();
}

/* ---- what each file is (the expectations, written from the files' documentation, not from the reader's table) ---- */

typedef struct {
    const char *file;
    const char *prime;
    bool mont;
    unsigned n;
    uint8_t w[9];
} expect;

static const expect files[] = {
    { "curve25519_64", "2^255-19", false, 5, { 51, 51, 51, 51, 51 } },
    { "curve25519_solinas_64", "2^255-19", false, 4, { 64, 64, 64, 64 } },
    { "p448_solinas_64", "2^448-2^224-1", false, 8, { 56, 56, 56, 56, 56, 56, 56, 56 } },
    { "p521_64", "2^521-1", false, 9, { 58, 58, 58, 58, 58, 58, 58, 58, 57 } },
    { "poly1305_64", "2^130-5", false, 3, { 44, 43, 43 } },
    { "secp256k1_dettman_64", "2^256-2^32-977", false, 5, { 52, 52, 52, 52, 48 } },
    { "p224_64", "2^224-2^96+1", true, 4, { 0 } },
    { "p256_64", "2^256-2^224+2^192+2^96-1", true, 4, { 0 } },
    { "p384_64", "2^384-2^128-2^96+2^32-1", true, 6, { 0 } },
    { "p434_64", "2^216*3^137-1", true, 7, { 0 } },
    { "secp256k1_montgomery_64", "2^256-2^32-977", true, 4, { 0 } },
    { "curve25519_scalar_64", "2^252+27742317777372353535851937790883648493", true, 4, { 0 } },
    { "p256_scalar_64", "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", true, 4, { 0 } },
};
#define NFILES (sizeof files / sizeof files[0])

/* The kind a function name claims (suffix after its last field-op word), IR_KIND_NONE for the others. */
static ir_kind kind_of(const char *fn)
{
    static const struct {
        const char *suf;
        ir_kind k;
    } ks[] = {
        { "_carry_mul", IR_KIND_MUL },  { "_carry_square", IR_KIND_SQUARE }, { "_mul", IR_KIND_MUL },
        { "_square", IR_KIND_SQUARE },  { "_carry", IR_KIND_CARRY },         { "_add", IR_KIND_ADD },
        { "_sub", IR_KIND_SUB },        { "_opp", IR_KIND_OPP },             { "_to_montgomery", IR_KIND_TO_MONT },
        { "_from_montgomery", IR_KIND_FROM_MONT },
    };
    size_t l = strlen(fn);
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        size_t s = strlen(ks[i].suf);
        if (l > s && !strcmp(fn + l - s, ks[i].suf))
            return ks[i].k;
    }
    return IR_KIND_NONE;
}

static bool has_const(const ir_func *f, ir_u128 k)
{
    for (uint32_t v = 0; v < f->nval; v++)
        if (f->val[v].is_const && f->val[v].k == k)
            return true;
    return false;
}

/* check_meta — f's metadata against the expectation e, and the math behind it. */
static void check_meta(const ir_func *f, const expect *e, ir_kind kind)
{
    if (strcmp(f->prime, e->prime))
        failf("%s: prime %s, expected %s", f->name, f->prime, e->prime);
    if (f->kind != kind)
        failf("%s: kind %s, expected %s", f->name, ir_kind_name(f->kind), ir_kind_name(kind));
    if (f->repr != (e->mont ? IR_REPR_MONTGOMERY : IR_REPR_RADIX))
        failf("%s: repr %d", f->name, (int)f->repr);
    if (f->pre_lt_p != e->mont)
        failf("%s: pre_lt_p %d", f->name, (int)f->pre_lt_p);
    if (f->nlimbw != e->n)
        failf("%s: %u limb widths, expected %u", f->name, f->nlimbw, e->n);
    for (unsigned i = 0; i < e->n && i < f->nlimbw; i++)
        if (f->limbw[i] != (e->mont ? 64 : e->w[i]))
            failf("%s: limb %u is %u bits", f->name, i, f->limbw[i]);
    /* Arrays: out1 first (aliasing every input), then arg1 (arg2), n limbs each. */
    unsigned nin = (kind == IR_KIND_MUL || kind == IR_KIND_ADD || kind == IR_KIND_SUB) ? 2 : 1;
    if (f->narr != 1 + nin || !f->arr[0].is_output || strcmp(f->arr[0].name, "out1") ||
        f->arr[0].alias != ((1u << (1 + nin)) - 2))
        failf("%s: arrays are not out1 (aliasing every input) then the inputs", f->name);
    for (uint32_t a = 0; a < f->narr; a++) {
        char nm[16];
        snprintf(nm, sizeof nm, "arg%u", a);
        if (f->arr[a].len != e->n || (a > 0 && (f->arr[a].is_output || strcmp(f->arr[a].name, nm))))
            failf("%s: array %u (%s) has %u limbs", f->name, a, f->arr[a].name, f->arr[a].len);
    }
}

/* check_prime_math — per file, once: the prime is prime and its layout fits, and it is the prime the code uses. */
static void check_prime_math(const expect *e, const ir_func *mulf)
{
    mpz_t p, t;
    mpz_inits(p, t, NULL);
    prime_eval(e->prime, p);
    if (!mpz_probab_prime_p(p, 40))
        failf("%s: %s is not prime", e->file, e->prime);
    size_t bits = mpz_sizeinbase(p, 2);
    unsigned total = 0;
    for (unsigned i = 0; i < e->n; i++)
        total += e->mont ? 64 : e->w[i];
    if (total < bits || (!e->mont && e->w[0] != 64 && total != bits))
        failf("%s: limbs of %u bits in all for a %zu-bit prime", e->file, total, bits);
    if (e->mont) {
        /* Word-by-word Montgomery multiplies by the words of p and by m' = -p^-1 mod 2^64 (skipped when m' = 1). */
        for (unsigned i = 0; i < e->n; i++) {
            mpz_tdiv_q_2exp(t, p, 64 * i);
            mpz_tdiv_r_2exp(t, t, 64);
            uint64_t word = mpz_get_ui(t);
            if (word && !has_const(mulf, word))
                failf("%s: word %u of p (0x%016llx) is not a constant of %s", e->file, i, (unsigned long long)word,
                      mulf->name);
        }
        mpz_t b;
        mpz_init_set_ui(b, 0);
        mpz_setbit(b, 64);
        mpz_invert(t, p, b);
        mpz_sub(t, b, t);
        uint64_t mp = mpz_get_ui(t);
        if (mp != 1 && !has_const(mulf, mp))
            failf("%s: m' = 0x%016llx is not a constant of %s", e->file, (unsigned long long)mp, mulf->name);
        mpz_clear(b);
    } else {
        /* An unsaturated carry_mul masks each limb to its width. */
        for (unsigned i = 0; i < e->n && e->w[i] < 64; i++)
            if (!has_const(mulf, ((ir_u128)1 << e->w[i]) - 1))
                failf("%s: no mask 2^%u-1 in %s", e->file, e->w[i], mulf->name);
    }
    mpz_clears(p, t, NULL);
}

/* ---- 1 and 2: every function of every file ---------------------------------------------------------------------- */

static void test_all_functions(void)
{
    printf("%-42s %-16s %6s %6s %6s\n", "function", "kind", "nodes", "ops", "values");
    unsigned loaded = 0, refused = 0;
    for (size_t fi = 0; fi < NFILES; fi++) {
        const expect *e = &files[fi];
        char fname[128], err[512];
        snprintf(fname, sizeof fname, "%s.json", e->file);
        size_t len;
        char *json = read_file(fname, &len);
        cJSON *root = cJSON_Parse(json);
        if (!cJSON_IsArray(root)) {
            failf("%s: not a JSON list", fname);
            continue;
        }
        ir_func *mulf = NULL;
        for (const cJSON *fn = root->child; fn; fn = fn->next) {
            const char *name = cJSON_GetObjectItemCaseSensitive(fn, "operation")->valuestring;
            ir_kind want = kind_of(name);
            /* Helpers (addcarryx_u51 ...) end in _u<N>, never in a kind; carry_scmul_121666 neither. */
            char path[1200];
            snprintf(path, sizeof path, "%s/%s", FIAT_JSON_DIR, fname);
            err[0] = 0;
            ir_func *f = ir_fiat_load(json, len, path, name, err, sizeof err);
            if (want == IR_KIND_NONE) {
                refused++;
                if (f)
                    failf("%s: loaded, but it is not a field operation", name);
                else if (!strstr(err, name) || !strstr(err, "not supported") || strchr(err, '\n'))
                    failf("%s: refused with \"%s\"", name, err);
                else if (fn == root->child || !strcmp(name + strlen(name) - 8, "to_bytes"))
                    printf("  refused as expected: %s\n", err);
                ir_func_free(f);
                continue;
            }
            if (!f) {
                failf("%s: %s", name, err);
                continue;
            }
            loaded++;
            check_meta(f, e, want);
            if (ir_validate(f) < 0)
                failf("%s: ir_validate: %s", name, f->err);
            if (ir_bounds(f) < 0)
                failf("%s: ir_bounds: %s", name, f->err);
            printf("%-42s %-16s %6u %6u %6u\n", name, ir_kind_name(f->kind), f->nnode, ir_count_ops(f), f->nval);
            if (want == IR_KIND_MUL && !mulf)
                mulf = f;
            else
                ir_func_free(f);
        }
        if (mulf)
            check_prime_math(e, mulf);
        else
            failf("%s: no multiply loaded", fname);
        ir_func_free(mulf);
        cJSON_Delete(root);
        free(json);
    }
    printf("%u functions loaded, %u refused\n", loaded, refused);
    /* Four unsaturated files with carry_mul, carry_square, carry, add, sub, opp; curve25519_solinas_64 and
     * secp256k1_dettman_64 with mul and square; seven Montgomery files with mul, square, add, sub, opp,
     * to_montgomery and from_montgomery (counted from the files with jq). */
    if (loaded != 4 * 6 + 2 * 2 + 7 * 7)
        failf("%u functions loaded, expected %d", loaded, 4 * 6 + 2 * 2 + 7 * 7);
}

/* ---- 3: bad constructs, made by editing a real function ------------------------------------------------------- */

typedef struct {
    char *json;         /* the file's text */
    size_t len;
    cJSON *root;
    const char *file;   /* "curve25519_64.json" */
} file_t;

static file_t open_file(const char *file)
{
    file_t F;
    F.file = file;
    F.json = read_file(file, &F.len);
    F.root = cJSON_Parse(F.json);
    if (!F.root) {
        printf("cannot parse %s\n", file);
        exit(1);
    }
    return F;
}

static void close_file(file_t *F)
{
    cJSON_Delete(F->root);
    free(F->json);
}

/* dup_fn — a deep copy of function `name` of F. */
static cJSON *dup_fn(const file_t *F, const char *name)
{
    for (const cJSON *fn = F->root->child; fn; fn = fn->next)
        if (!strcmp(cJSON_GetObjectItemCaseSensitive(fn, "operation")->valuestring, name))
            return cJSON_Duplicate(fn, true);
    printf("no function %s\n", name);
    exit(1);
}

static cJSON *body_at(cJSON *fn, int i) { return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(fn, "body"), i); }

/* expect_refused — load the one-function file [fn] (consumed) and require a message with each of the strings. */
static void expect_refused(const file_t *F, cJSON *fn, const char *what, const char *m1, const char *m2,
                           const char *m3)
{
    cJSON *arr = cJSON_CreateArray();
    const char *name = cJSON_GetObjectItemCaseSensitive(fn, "operation")->valuestring;
    char fname[128];
    snprintf(fname, sizeof fname, "%s", name);
    cJSON_AddItemToArray(arr, fn);
    char *text = cJSON_PrintUnformatted(arr);
    char err[512] = "";
    ir_func *f = ir_fiat_load(text, strlen(text), F->file, fname, err, sizeof err);
    if (f) {
        failf("%s: loaded (%s)", what, fname);
        ir_func_free(f);
    } else if (!strstr(err, fname) || (m1 && !strstr(err, m1)) || (m2 && !strstr(err, m2)) ||
               (m3 && !strstr(err, m3)) || strchr(err, '\n')) {
        failf("%s: message \"%s\" lacks \"%s\" / \"%s\" / \"%s\"", what, err, m1 ? m1 : "", m2 ? m2 : "",
              m3 ? m3 : "");
    } else {
        printf("  %-34s %s\n", what, err);
    }
    free(text);
    cJSON_Delete(arr);
}

/* first_string — the first string argument (depth first) of expression e that starts with c; NULL if none. */
static cJSON *first_string(cJSON *e, char c)
{
    cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "arguments");
    for (cJSON *a = args ? args->child : NULL; a; a = a->next) {
        if (cJSON_IsString(a) && a->valuestring[0] == c)
            return a;
        if (cJSON_IsObject(a)) {
            cJSON *r = first_string(a, c);
            if (r)
                return r;
        }
    }
    return NULL;
}

/* find_op — the first (sub-)expression of e whose operation is op. */
static cJSON *find_op(cJSON *e, const char *op)
{
    if (!strcmp(cJSON_GetObjectItemCaseSensitive(e, "operation")->valuestring, op))
        return e;
    cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "arguments");
    for (cJSON *a = args ? args->child : NULL; a; a = a->next)
        if (cJSON_IsObject(a)) {
            cJSON *r = find_op(a, op);
            if (r)
                return r;
        }
    return NULL;
}

/* stmt_with — index of the first statement of fn containing operation op (a string name), -1 if none. */
static int stmt_with(cJSON *fn, const char *op, cJSON **sub)
{
    int i = 0;
    for (cJSON *st = cJSON_GetObjectItemCaseSensitive(fn, "body")->child; st; st = st->next, i++) {
        cJSON *r = find_op(st, op);
        if (r) {
            if (sub)
                *sub = r;
            return i;
        }
    }
    return -1;
}

/* stmt_named — index of the statement whose first name is s. */
static int stmt_named(cJSON *fn, const char *s)
{
    int i = 0;
    for (cJSON *st = cJSON_GetObjectItemCaseSensitive(fn, "body")->child; st; st = st->next, i++) {
        cJSON *n = cJSON_GetObjectItemCaseSensitive(st, "name");
        if (n && n->child && !strcmp(n->child->valuestring, s))
            return i;
    }
    return -1;
}

/* stmt_reading_var — index of the first statement with a string argument x<N>; *arg is that argument. */
static int stmt_reading_var(cJSON *fn, cJSON **arg)
{
    int i = 0;
    for (cJSON *st = cJSON_GetObjectItemCaseSensitive(fn, "body")->child; st; st = st->next, i++)
        if ((*arg = first_string(st, 'x')) != NULL)
            return i;
    return -1;
}

/* decl — fiat's declaration i of list key ("arguments" or "returns") of fn; decl_at — its field key. */
static cJSON *decl(cJSON *fn, const char *key, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(fn, key), i);
}
static cJSON *decl_at(cJSON *fn, const char *key, int i, const char *field)
{
    return cJSON_GetObjectItemCaseSensitive(decl(fn, key, i), field);
}

static void set_string(cJSON *item, const char *s)
{
    cJSON_SetValuestring(item, s);
}

static void replace_key(cJSON *obj, const char *key, cJSON *v)
{
    cJSON_ReplaceItemInObjectCaseSensitive(obj, key, v);
}

static void test_bad_constructs(void)
{
    char at[64], what[128];
    file_t F = open_file("curve25519_64.json"), M = open_file("p256_64.json");
    const char *cm = "fiat_25519_carry_mul", *pm = "fiat_p256_mul";
    cJSON *fn, *x;
    int i;

    /* The unedited functions load (the edits below are the only difference). */
    expect_refused(&F, dup_fn(&F, "fiat_25519_to_bytes"), "to_bytes", "not supported", "bytes", NULL);

    static const char *const bad_ops[] = { "dereference", "frobnicate", "/", "%" };
    for (size_t k = 0; k < sizeof bad_ops / sizeof bad_ops[0]; k++) {
        fn = dup_fn(&F, cm);
        set_string(cJSON_GetObjectItemCaseSensitive(body_at(fn, 7), "operation"), bad_ops[k]);
        char m[64];
        snprintf(m, sizeof m, "operation \"%s\" is not supported", bad_ops[k]);
        snprintf(what, sizeof what, "operation %s", bad_ops[k]);
        expect_refused(&F, fn, what, "statement 7:", m, NULL);
    }
    /* A nested operation, too. */
    fn = dup_fn(&F, cm);
    i = stmt_with(fn, "*", &x);
    set_string(cJSON_GetObjectItemCaseSensitive(x, "operation"), "dereference");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "nested dereference", at, "operation \"dereference\" is not supported", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_reading_var(fn, &x);
    set_string(x, "&x1");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "&x name", at, "\"&x1\" (a reference) is not supported", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_reading_var(fn, &x);
    set_string(x, "*x1");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "*x name", at, "\"*x1\" (a dereference) is not supported", NULL);

    fn = dup_fn(&F, cm);
    set_string(cJSON_GetObjectItemCaseSensitive(body_at(fn, 3), "name")->child, "&x4");
    expect_refused(&F, fn, "&x as a result name", "statement 3:", "\"&x4\" (a reference)", NULL);

    static const char *const bad_types[] = { "i64", "i1", "i128", "u8", "u32", "u256", "float", "u64[5]" };
    for (size_t k = 0; k < sizeof bad_types / sizeof bad_types[0]; k++) {
        fn = dup_fn(&F, cm);
        set_string(cJSON_GetObjectItemCaseSensitive(body_at(fn, 12), "datatype"), bad_types[k]);
        char m[64];
        snprintf(m, sizeof m, "type \"%s\"", bad_types[k]);
        snprintf(what, sizeof what, "type %s", bad_types[k]);
        expect_refused(&F, fn, what, "statement 12:", m, "not supported");
    }
    /* A type in a nested expression. */
    fn = dup_fn(&F, cm);
    i = stmt_with(fn, "*", &x);
    set_string(cJSON_GetObjectItemCaseSensitive(x, "datatype"), "i128");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "nested i128", at, "type \"i128\" is not supported", NULL);

    fn = dup_fn(&F, cm);
    set_string(decl_at(fn, "arguments", 0, "datatype"), "u8[32]");
    expect_refused(&F, fn, "u8[32] argument", "argument arg1", "type \"u8[32]\" is not supported", NULL);

    fn = dup_fn(&F, cm);
    set_string(decl_at(fn, "returns", 0, "datatype"), "u32[5]");
    expect_refused(&F, fn, "u32[5] return", "return out1", "type \"u32[5]\" is not supported", NULL);

    fn = dup_fn(&F, cm);
    {
        cJSON *a = decl(fn, "arguments", 1);
        set_string(cJSON_GetObjectItemCaseSensitive(a, "datatype"), "u64");
        replace_key(a, "lbound", cJSON_CreateString("0x0"));
        replace_key(a, "ubound", cJSON_CreateString("0xffffffffffffffff"));
    }
    expect_refused(&F, fn, "scalar argument", "argument arg2", "a scalar of type \"u64\" is not supported", NULL);

    fn = dup_fn(&F, cm);
    replace_key(decl(fn, "arguments", 0), "ubound", cJSON_CreateNull());
    expect_refused(&F, fn, "null bounds", "argument arg1", "null", NULL);

    fn = dup_fn(&F, cm);
    set_string(cJSON_GetArrayItem(decl_at(fn, "arguments", 0, "ubound"), 2), "0x1ffffffffffffffff");
    expect_refused(&F, fn, "bound above 2^64", "argument arg1", "limb 2", "below 2^64");

    fn = dup_fn(&F, cm);
    i = stmt_reading_var(fn, &x);
    set_string(x, "x99999");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "undefined variable", at, "variable x99999 is used before it is defined", NULL);

    /* A variable read before its statement (moved first). */
    fn = dup_fn(&F, cm);
    {
        cJSON *body = cJSON_GetObjectItemCaseSensitive(fn, "body");
        int last = cJSON_GetArraySize(body) - 1;
        cJSON_InsertItemInArray(body, 0, cJSON_DetachItemFromArray(body, last)); /* out1[4] = x.. first */
    }
    expect_refused(&F, fn, "use before definition", "statement 0:", "is used before it is defined", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_reading_var(fn, &x);
    set_string(x, "_");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "_ read", at, "unused name \"_\" is read", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_reading_var(fn, &x);
    set_string(x, "foo");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "unknown name", at, "\"foo\" is not a variable", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_reading_var(fn, &x);
    set_string(x, "arg1[5]");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "limb out of range", at, "arg1[5] is beyond the 5 limbs of arg1", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_reading_var(fn, &x);
    set_string(x, "out1[0]");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "output read", at, "out1[0] reads an output", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_reading_var(fn, &x);
    set_string(x, "0x1fffffffffffffffffffffffffffffffff");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "literal above 2^128", at, "literal", "is not a decimal or 0x hex number");

    fn = dup_fn(&F, cm);
    i = stmt_with(fn, "&", &x); /* a u64 mask */
    cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(x, "arguments"), 1,
                             cJSON_CreateString("0x10000000000000000"));
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "literal too wide", at, "literal 0x10000000000000000 does not fit its type u64", NULL);

    fn = dup_fn(&F, cm);
    set_string(cJSON_GetObjectItemCaseSensitive(body_at(fn, 20), "name")->child, "x3");
    expect_refused(&F, fn, "variable assigned twice", "statement 20:", "variable x3 is assigned twice", NULL);

    fn = dup_fn(&F, cm);
    set_string(cJSON_GetObjectItemCaseSensitive(body_at(fn, 20), "name")->child, "arg1[0]");
    expect_refused(&F, fn, "assignment to an input", "statement 20:", "arg1[0]: assigns to an input", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_named(fn, "out1[2]");
    cJSON_DeleteItemFromArray(cJSON_GetObjectItemCaseSensitive(fn, "body"), i);
    expect_refused(&F, fn, "output never assigned", "output out1[2] is never assigned", NULL, NULL);

    fn = dup_fn(&F, cm);
    {
        cJSON *body = cJSON_GetObjectItemCaseSensitive(fn, "body");
        i = stmt_named(fn, "out1[0]");
        cJSON_AddItemToArray(body, cJSON_Duplicate(cJSON_GetArrayItem(body, i), true));
        snprintf(at, sizeof at, "statement %d:", cJSON_GetArraySize(body) - 1);
    }
    expect_refused(&F, fn, "output assigned twice", at, "output out1[0] is assigned twice", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_with(fn, ">>", &x);
    {
        cJSON *args = cJSON_GetObjectItemCaseSensitive(x, "arguments");
        cJSON_ReplaceItemInArray(args, 1, cJSON_CreateString("x1"));
    }
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "non-constant shift", at, "the shift amount x1 is not a constant", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_with(fn, ">>", &x);
    cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(x, "arguments"), 1, cJSON_CreateString("200"));
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "shift too far", at, "shift amount 200", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_with(fn, "+", &x);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(x, "arguments"), cJSON_CreateString("0x1"));
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "three operands for +", at, "operation + takes 2 arguments, not 3", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_with(fn, "+", &x);
    cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(x, "arguments"), 0, cJSON_CreateNumber(5));
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "JSON number operand", at, "argument 1 is neither", NULL);

    fn = dup_fn(&F, cm);
    i = stmt_with(fn, "*", &x);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(x, "name"), cJSON_CreateString("x77777"));
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "named nested expression", at, "nested expression with a name", NULL);

    fn = dup_fn(&F, cm);
    cJSON_DeleteItemFromObjectCaseSensitive(body_at(fn, 9), "operation");
    expect_refused(&F, fn, "no operation", "statement 9:", "no \"operation\"", NULL);

    fn = dup_fn(&F, cm);
    cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(fn, "body"), 4, cJSON_CreateString("x1"));
    expect_refused(&F, fn, "statement not an object", "statement 4:", "not an expression object", NULL);

    fn = dup_fn(&F, cm);
    replace_key(body_at(fn, 6), "name", cJSON_CreateArray());
    expect_refused(&F, fn, "unassigned statement", "statement 6:", "not assigned to a name", NULL);

    /* Montgomery: the size parameter, and mulx inside an expression. */
    static const char *const bad_sizes[] = { "0", "65", "128", "abc", "-1" };
    for (size_t k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++) {
        fn = dup_fn(&M, pm);
        i = stmt_with(fn, "mulx", &x);
        cJSON *par = cJSON_GetObjectItemCaseSensitive(x, "parameters");
        if (bad_sizes[k][0] == 'a' || bad_sizes[k][0] == '-')
            replace_key(par, "size", cJSON_CreateString(bad_sizes[k]));
        else
            replace_key(par, "size", cJSON_CreateNumber(atoi(bad_sizes[k])));
        snprintf(at, sizeof at, "statement %d:", i);
        snprintf(what, sizeof what, "mulx size %s", bad_sizes[k]);
        expect_refused(&M, fn, what, at, "size parameter", NULL);
    }
    fn = dup_fn(&M, pm);
    i = stmt_with(fn, "addcarryx", &x);
    cJSON_DeleteItemFromObjectCaseSensitive(x, "parameters");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&M, fn, "addcarryx without size", at, "addcarryx has no size parameter", NULL);

    fn = dup_fn(&M, pm);
    i = stmt_with(fn, "subborrowx", &x);
    replace_key(x, "parameters", cJSON_Parse("{\"size\": 64.5}"));
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&M, fn, "subborrowx size 64.5", at, "size parameter 64.5 is not an integer in 1..64", NULL);

    fn = dup_fn(&M, pm);
    {
        int j = stmt_with(fn, "mulx", &x);
        cJSON *mx = cJSON_Duplicate(x, true);
        replace_key(mx, "name", cJSON_CreateArray());
        i = stmt_with(fn, "addcarryx", &x);
        if (i <= j)
            failf("p256_mul: no addcarryx after the first mulx");
        cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(x, "arguments"), 1, mx);
    }
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&M, fn, "mulx in an expression", at, "mulx inside an expression is not supported", NULL);

    fn = dup_fn(&M, pm);
    i = stmt_with(fn, "cmovznz", &x);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItemCaseSensitive(x, "arguments"), 2);
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&M, fn, "cmovznz with two arguments", at, "cmovznz takes 3 arguments, not 2", NULL);

    fn = dup_fn(&M, pm);
    i = stmt_with(fn, "mulx", &x);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItemCaseSensitive(x, "name"), 1);
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&M, fn, "mulx with one name", at, "mulx has 2 results but 1 name", NULL);

    /* A carry-in literal that is not a bit. */
    fn = dup_fn(&M, pm);
    i = stmt_with(fn, "addcarryx", &x);
    cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(x, "arguments"), 0, cJSON_CreateString("0x2"));
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&M, fn, "carry-in 2", at, "literal 0x2 does not fit its type u1", NULL);

    /* The bounds pass runs on load: a wider input bound makes carry_mul's u128 sums overflow. */
    fn = dup_fn(&F, cm);
    {
        cJSON *ub = decl_at(fn, "arguments", 0, "ubound");
        for (cJSON *b = ub->child; b; b = b->next)
            set_string(b, "0xffffffffffffffff");
    }
    expect_refused(&F, fn, "bounds overflow", "bounds:", "overflow", NULL);

    /* A tighter output bound than the code achieves. */
    fn = dup_fn(&F, cm);
    set_string(cJSON_GetArrayItem(decl_at(fn, "returns", 0, "ubound"), 1), "0x1000");
    expect_refused(&F, fn, "output bound", "bounds:", "output out1[1]", "above its declared bound");

    /* Limb counts that disagree with the table. */
    fn = dup_fn(&F, cm);
    set_string(decl_at(fn, "arguments", 0, "datatype"), "u64[4]");
    expect_refused(&F, fn, "limb count", "argument arg1", "4 limbs, but curve25519_64 has 5", NULL);

    /* A function of a kind the reader loads, but under another file's prefix. */
    fn = dup_fn(&F, cm);
    replace_key(fn, "operation", cJSON_CreateString("fiat_p256_mul"));
    expect_refused(&F, fn, "another file's prefix", "not a function of curve25519_64", NULL, NULL);

    /* to_montgomery in a radix file. */
    fn = dup_fn(&F, "fiat_25519_carry");
    replace_key(fn, "operation", cJSON_CreateString("fiat_25519_to_montgomery"));
    expect_refused(&F, fn, "to_montgomery in a radix file", "not a Montgomery file", NULL, NULL);

    /* Control characters in a name come out escaped, on one line. */
    fn = dup_fn(&F, cm);
    i = stmt_reading_var(fn, &x);
    set_string(x, "x1\nx2");
    snprintf(at, sizeof at, "statement %d:", i);
    expect_refused(&F, fn, "newline in a name", at, "x1\\x0ax2", NULL);

    close_file(&F);
    close_file(&M);
}

/* ---- file-level errors, truncated and garbage JSON --------------------------------------------------------------- */

/* load_copy — ir_fiat_load on an exact-size heap copy of text[0..len) (so ASan sees any read past it). */
static ir_func *load_copy(const char *text, size_t len, const char *file, const char *name, char *err, size_t errlen)
{
    char *buf = malloc(len ? len : 1);
    memcpy(buf, text, len);
    ir_func *f = ir_fiat_load(buf, len, file, name, err, errlen);
    free(buf);
    return f;
}

static void expect_file_error(const char *text, size_t len, const char *file, const char *name, const char *what,
                              const char *m1, const char *m2)
{
    char err[512] = "";
    ir_func *f = load_copy(text, len, file, name, err, sizeof err);
    if (f) {
        failf("%s: loaded", what);
        ir_func_free(f);
    } else if (!err[0] || strchr(err, '\n') || (m1 && !strstr(err, m1)) || (m2 && !strstr(err, m2))) {
        failf("%s: message \"%s\" lacks \"%s\" / \"%s\"", what, err, m1 ? m1 : "", m2 ? m2 : "");
    } else if (m1 && strcmp(what, "truncated")) {
        printf("  %-34s %s\n", what, err);
    }
}

static void test_malformed(void)
{
    size_t len;
    char *json = read_file("poly1305_64.json", &len);
    const char *file = "poly1305_64.json", *name = "fiat_poly1305_carry_mul";
    char err[512];

    /* The intact file loads from an exact-size buffer. */
    ir_func *f = load_copy(json, len, file, name, err, sizeof err);
    if (!f)
        failf("poly1305 carry_mul from an exact-size copy: %s", err);
    ir_func_free(f);

    expect_file_error(json, len, "/x/y/p999_64.json", name, "unknown file", "p999_64.json: not a known",
                      "curve25519_64, curve25519_solinas_64");
    expect_file_error(json, len, file, "fiat_poly1305_frobnicate", "unknown function",
                      "no function named \"fiat_poly1305_frobnicate\"", NULL);
    expect_file_error(json, len, file, "", "empty function name", "no function named \"\"", NULL);

    /* Truncated: every length up to 300 bytes, then a spread of cuts through the file. */
    for (size_t cut = 0; cut < 300; cut++)
        expect_file_error(json, cut, file, name, "truncated", "malformed JSON: the text ends early", NULL);
    for (size_t k = 1; k < 400; k++) {
        size_t cut = (size_t)((double)len * k / 400);
        expect_file_error(json, cut, file, name, "truncated", "malformed JSON: the text ends early", NULL);
    }
    printf("  truncated at 699 lengths: refused\n");
    expect_file_error(json, len / 2, file, name, "truncated in the middle", "malformed JSON: the text ends early",
                      NULL);

    /* `#error` where fiat-crypto could not print an expression. */
    {
        const char *needle = "\"operation\": \"static_cast\"";
        char *p = strstr(json, needle);
        if (!p)
            p = strstr(json, "\"static_cast\"");
        size_t off = (size_t)(p - json);
        const char *ins = "#error \"could not print\"\n";
        char *t = malloc(len + strlen(ins) + 1);
        memcpy(t, json, off);
        memcpy(t + off, ins, strlen(ins));
        memcpy(t + off + strlen(ins), json + off, len - off);
        expect_file_error(t, len + strlen(ins), file, name, "#error", "malformed JSON", "#error");
        free(t);
    }

    /* Trailing data after the list. */
    {
        char *t = malloc(len + 8);
        memcpy(t, json, len);
        memcpy(t + len, "\n[]", 3);
        expect_file_error(t, len + 3, file, name, "trailing data", "text after the list", NULL);
        free(t);
    }

    static const char *const garbage[] = {
        "",
        "null",
        "{}",
        "[]",
        "[1, 2]",
        "[{\"operation\": 5}]",
        "[{\"operation\": \"fiat_poly1305_carry_mul\"}]",
        "[{\"operation\": \"fiat_poly1305_carry_mul\", \"arguments\": 7, \"returns\": [], \"body\": []}]",
        "[{\"operation\": \"fiat_poly1305_carry_mul\", \"arguments\": [], \"returns\": [], \"body\": {}}]",
        "[{\"operation\": \"fiat_poly1305_carry_mul\", \"arguments\": [{}], \"returns\": [], \"body\": []}]",
        "[{\"operation\": \"fiat_poly1305_carry_mul\", \"arguments\": [], \"returns\": [], \"body\": []},"
        " {\"operation\": \"fiat_poly1305_carry_mul\"}]",
        "[{\"operation\": \"fiat_poly1305_carry_mul\", \"arguments\": [], \"returns\": [{\"name\": \"out1\","
        " \"datatype\": \"u64[3]\", \"lbound\": [\"0x0\",\"0x0\",\"0x0\"], \"ubound\": [\"0x1\",\"0x1\",\"0x1\"]}],"
        " \"body\": [[[[[[]]]]]]}]",
        "[{\"operation\": \"fiat_poly1305_carry_mul\", \"arguments\": [], \"returns\": [{\"name\": \"out1\","
        " \"datatype\": \"u64[3]\", \"lbound\": [\"0x2\",\"0x0\",\"0x0\"], \"ubound\": [\"0x1\",\"0x1\",\"0x1\"]}],"
        " \"body\": []}]",
        "[\"\\ud800\"]",
        "{\"a\":",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    };
    for (size_t k = 0; k < sizeof garbage / sizeof garbage[0]; k++)
        expect_file_error(garbage[k], strlen(garbage[k]), file, name, "garbage", NULL, NULL);
    static const char binary[12] = { '\xff', '\xfe', 0, 1, 'g', 'a', 'r', 'b', 'a', 'g', 'e', '[' };
    expect_file_error(binary, sizeof binary, file, name, "binary garbage", "malformed JSON", NULL);
    expect_file_error(garbage[3], strlen(garbage[3]), file, name, "empty list", "no function named", NULL);
    expect_file_error(garbage[2], strlen(garbage[2]), file, name, "object at the top", "not a list of functions",
                      NULL);
    expect_file_error(garbage[10], strlen(garbage[10]), file, name, "function twice", "defined twice", NULL);
    expect_file_error(garbage[12], strlen(garbage[12]), file, name, "lbound above ubound", "lo <= hi", NULL);

    /* Deep nesting: beyond cJSON's limit is a parse error; below it, a deep expression chain is refused or read
     * without exhausting the stack. */
    {
        size_t depth = 5000, o = 0;
        char *t = malloc(depth * 2 + 16);
        for (size_t k = 0; k < depth; k++)
            t[o++] = '[';
        for (size_t k = 0; k < depth; k++)
            t[o++] = ']';
        expect_file_error(t, o, file, name, "deep nesting", "malformed JSON", NULL);
        free(t);
    }

    /* Random garbage and random byte flips in a real function; neither may crash. */
    for (int k = 0; k < 300; k++) {
        size_t n = rnd() % 2000;
        char *t = malloc(n ? n : 1);
        for (size_t j = 0; j < n; j++)
            t[j] = (char)(rnd() % 4 ? " [{}]\",:0x1u64_abcdefx[]"[rnd() % 25] : (char)rnd());
        expect_file_error(t, n, file, name, "random garbage", NULL, NULL);
        free(t);
    }
    for (int k = 0; k < 300; k++) {
        char *t = malloc(len);
        memcpy(t, json, len);
        for (int j = 0; j < 3; j++)
            t[rnd() % len] = (char)rnd();
        err[0] = 0;
        f = load_copy(t, len, file, name, err, sizeof err);
        if (!f && (!err[0] || strchr(err, '\n')))
            failf("byte flips: refused without a one-line message: \"%s\"", err);
        ir_func_free(f); /* a flip may leave it valid (in a name of an unused function, say) */
        free(t);
    }
    free(json);
}

/* ---- 5: semantics of fiat_25519_carry_mul vs GMP ------------------------------------------------------------ */

static void limbs_to_mpz(mpz_t r, const uint64_t *l, unsigned n, unsigned w)
{
    mpz_set_ui(r, 0);
    for (unsigned i = n; i-- > 0;) {
        mpz_mul_2exp(r, r, w);
        mpz_add_ui(r, r, l[i]);
    }
}

static void test_carry_mul_semantics(unsigned iters)
{
    size_t len;
    char *json = read_file("curve25519_64.json", &len);
    char err[512];
    ir_func *f = ir_fiat_load(json, len, "curve25519_64.json", "fiat_25519_carry_mul", err, sizeof err);
    free(json);
    if (!f) {
        failf("fiat_25519_carry_mul: %s", err);
        return;
    }
    mpz_t p, a, b, r, t;
    mpz_inits(p, a, b, r, t, NULL);
    prime_eval("2^255-19", p);
    uint64_t x[5], y[5], z[5];
    const uint64_t *in[3] = { NULL, x, y };
    uint64_t *out[3] = { z, NULL, NULL };
    unsigned bad = 0;
    for (unsigned it = 0; it < iters && bad < 5; it++) {
        for (unsigned i = 0; i < 5; i++) {
            /* Edges first: all zero, all at the bound; then random within the declared bounds. */
            x[i] = it == 0 ? 0 : it == 1 ? (uint64_t)f->arr[1].hi[i] : rnd_upto((uint64_t)f->arr[1].hi[i]);
            y[i] = it == 0 ? 0 : it == 1 ? (uint64_t)f->arr[2].hi[i] : rnd_upto((uint64_t)f->arr[2].hi[i]);
        }
        if (ir_eval(f, in, out) < 0) {
            failf("ir_eval: out of memory");
            break;
        }
        limbs_to_mpz(a, x, 5, 51);
        limbs_to_mpz(b, y, 5, 51);
        limbs_to_mpz(r, z, 5, 51);
        mpz_mul(t, a, b);
        mpz_sub(t, t, r);
        bool ok = mpz_divisible_p(t, p);
        for (unsigned i = 0; i < 5; i++)
            ok = ok && z[i] <= (uint64_t)f->arr[0].hi[i] && z[i] >= (uint64_t)f->arr[0].lo[i];
        if (!ok) {
            bad++;
            failf("fiat_25519_carry_mul (iteration %u): out is not a*b mod p within its bounds", it);
            for (unsigned i = 0; i < 5; i++)
                printf("  a[%u] = 0x%016llx  b[%u] = 0x%016llx  out[%u] = 0x%016llx\n", i, (unsigned long long)x[i],
                       i, (unsigned long long)y[i], i, (unsigned long long)z[i]);
        }
    }
    printf("fiat_25519_carry_mul: %u evaluations against GMP%s\n", iters, bad ? ", FAILED" : ", all equal mod p");
    mpz_clears(p, a, b, r, t, NULL);
    ir_func_free(f);
}

int main(int argc, char **argv)
{
    uint64_t seed = 0;
    unsigned iters = 2000;
    bool have_seed = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
            have_seed = true;
        } else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
            iters = (unsigned)strtoul(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "usage: %s [--seed N] [--iters N]\n", argv[0]);
            return 2;
        }
    }
    if (!have_seed) {
        FILE *fp = fopen("/dev/urandom", "rb");
        if (!fp || fread(&seed, sizeof seed, 1, fp) != 1)
            seed = 1;
        if (fp)
            fclose(fp);
    }
    rng_state = seed;
    printf("test_fiat: seed %llu (rerun with --seed %llu)\n", (unsigned long long)seed, (unsigned long long)seed);

    printf("== every function of every file\n");
    test_all_functions();
    printf("== constructs the reader refuses\n");
    test_bad_constructs();
    printf("== malformed files\n");
    test_malformed();
    printf("== semantics\n");
    test_carry_mul_semantics(iters);

    if (failures) {
        printf("%d failure(s) (seed %llu)\n", failures, (unsigned long long)seed);
        return 1;
    }
    printf("all passed\n");
    return 0;
}
