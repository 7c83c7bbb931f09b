/* test_check_edges.c — the checker's inputs at the prime's edges (check/edges.h, sample_all in check/check.c).
 *
 *   1. check_prime_value against GMP: every prime of ../shared/fiat-json's table and the generators' spellings,
 *      built here with mpz_ui_pow_ui and friends (the expected values do not come from the parser), precedence
 *      and associativity, and malformed or oversized expressions refused.
 *   2. check_edges on the multiplies of every fiat-json file that states a prime: each limb vector, recombined
 *      here with the representation's weights (radix widths, or 2^64 words), is exactly p - 1, p, p + 1, 2p - 1 or
 *      2p, in that order, every limb within the array's bounds; the counts where the words cannot hold 2p - 1
 *      (4-word Montgomery p256, secp256k1) or the bounds refuse it (secp256k1 dettman's top limb, hand-written
 *      bounds); no prime, none.
 *   3. A hand-written reduction modulo p = 2^64 - 59 whose carry test is off by one (it treats x = p as below p):
 *      REJECTED output-differs by the edge samples, the counterexample x = p with both values as ir_eval and the
 *      code's arithmetic give them; the correct code PROVED. Without the edge samples z3 finds the same input
 *      instead, so the test asserts that sampling found it ("at the prime's edges").
 *   4. The bug class a new user found: fiat p256 and secp256k1 Montgomery multiplies emitted as C, compiled by
 *      gcc -O2 and clang -O2 to assembly, with each `adcq $-1` of the final conditional subtraction made
 *      `adcq $-2` in turn: every mutant REJECTED output-differs with a counterexample (solver timeout 5 s: without
 *      the edge samples, p256's gcc and clang mutants and secp256k1's are "unproved" after the timeouts).
 *
 * Usage: test_check_edges [--keep]  (--keep leaves the temporary directory) */
#define _POSIX_C_SOURCE 200809L
#include <gmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cc_util.h"
#include "check/check.h"
#include "check/edges.h"
#include "emit/emit_c.h"
#include "ir/ir.h"

#ifndef FIAT_JSON_DIR
#error "FIAT_JSON_DIR must name ../shared/fiat-json"
#endif

static int failures;
static char tmpdir[512];

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

static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(fp);
    if (b) {
        b[n] = 0;
        *len = n;
    }
    return b;
}

static int write_all(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    int rc = fputs(text, fp) < 0 ? -1 : 0;
    return fclose(fp) != 0 ? -1 : rc;
}

static ir_func *load_fiat(const char *file, const char *fn)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/%s.json", FIAT_JSON_DIR, file);
    size_t len = 0;
    char *json = read_all(path, &len);
    if (!json) {
        failf("cannot read %s", path);
        return NULL;
    }
    ir_func *f = ir_fiat_load(json, len, path, fn, err, sizeof err);
    free(json);
    if (!f)
        failf("%s: %s", fn, err);
    return f;
}

/* ---- 1. the prime expression ------------------------------------------------------------------------------------ */

/* r = sum of sign_i * 2^e_i (a sparse prime, as the tables write them), built without the parser */
static void sparse(mpz_t r, const int *terms, int n)
{
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(r, 0);
    for (int i = 0; i < n; i++) {
        int e = terms[i] < 0 ? -terms[i] : terms[i];
        if (e == 1000) /* the constant 1 */
            mpz_set_ui(t, 1);
        else
            mpz_ui_pow_ui(t, 2, (unsigned long)e);
        if (terms[i] < 0)
            mpz_sub(r, r, t);
        else
            mpz_add(r, r, t);
    }
    mpz_clear(t);
}

static void expect_value(const char *expr, const mpz_t want)
{
    mpz_t got;
    mpz_init(got);
    if (check_prime_value(expr, got) != 0)
        failf("check_prime_value(\"%s\") refused it", expr);
    else if (mpz_cmp(got, want) != 0)
        gmp_printf("FAIL: check_prime_value(\"%s\") = %Zd, want %Zd\n", expr, got, want), failures++;
    mpz_clear(got);
}

static void test_prime_value(void)
{
    mpz_t w, t;
    mpz_inits(w, t, NULL);
    enum { ONE = 1000 };
    static const struct {
        const char *expr;
        int terms[8];
        int n;
    } sp[] = {
        { "2^255-19", { 255, -4, -1, -ONE }, 4 }, /* 19 = 16 + 2 + 1 */
        { "2^448-2^224-1", { 448, -224, -ONE }, 3 },
        { "2^521-1", { 521, -ONE }, 2 },
        { "2^130-5", { 130, -2, -ONE }, 3 },
        { "2^256-2^32-977", { 256, -32, -ONE }, 3 }, /* 977 added below */
        { "2^224-2^96+1", { 224, -96, ONE }, 3 },
        { "2^256-2^224+2^192+2^96-1", { 256, -224, 192, 96, -ONE }, 5 },
        { "2^384-2^128-2^96+2^32-1", { 384, -128, -96, 32, -ONE }, 5 },
        { " ( 2^255 ) - 19 ", { 255, -4, -1, -ONE }, 4 },
    };
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) {
        sparse(w, sp[i].terms, sp[i].n);
        if (strstr(sp[i].expr, "977"))
            mpz_sub_ui(w, w, 976); /* the table's -1 plus 976 */
        expect_value(sp[i].expr, w);
    }
    /* p434 = 2^216 3^137 - 1 */
    mpz_ui_pow_ui(w, 3, 137);
    mpz_mul_2exp(w, w, 216);
    mpz_sub_ui(w, w, 1);
    expect_value("2^216*3^137-1", w);
    /* the scalar fields, decimal and hex literals */
    mpz_set_str(w, "27742317777372353535851937790883648493", 10);
    mpz_ui_pow_ui(t, 2, 252);
    mpz_add(w, w, t);
    expect_value("2^252+27742317777372353535851937790883648493", w);
    mpz_set_str(w, "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16);
    expect_value("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", w);
    expect_value("0XfF", (mpz_set_ui(w, 255), w));
    /* precedence and associativity: ^ right-associative above *, then + - left to right */
    expect_value("2^3^2", (mpz_set_ui(w, 512), w));
    expect_value("(2^3)^2", (mpz_set_ui(w, 64), w));
    expect_value("2*3^2", (mpz_set_ui(w, 18), w));
    expect_value("10-4-3", (mpz_set_ui(w, 3), w));
    expect_value("2+3*4", (mpz_set_ui(w, 14), w));
    expect_value("(2+3)*4", (mpz_set_ui(w, 20), w));
    expect_value("7^0+0^5+1^4000000", (mpz_set_ui(w, 2), w));
    expect_value("3-5", (mpz_set_si(w, -2), w));
    mpz_ui_pow_ui(w, 2, CHECK_PRIME_MAX_BITS - 1);
    expect_value("2^4095", w);
    static const char *const bad[] = { "", "   ", "2^", "^2", "2^^3", "(2", "2)", "2 3", "-5", "0x", "0xg", "12ab",
                                       "2^4096", "2^4095*2", "3^4096", "2^(0-1)", "2^100000000000000000000",
                                       "2^255-19#", "2.5", "p" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (check_prime_value(bad[i], t) == 0)
            failf("check_prime_value(\"%s\") accepted it", bad[i]);
    char deep[400];
    memset(deep, '(', 150);
    strcpy(deep + 150, "2");
    memset(deep + 151, ')', 150);
    deep[301] = 0;
    if (check_prime_value(deep, t) == 0)
        failf("check_prime_value accepted 150 nested parentheses");
    if (check_prime_value("((((2))))", t) != 0 || mpz_cmp_ui(t, 2) != 0)
        failf("check_prime_value(\"((((2))))\") is not 2");
    mpz_clears(w, t, NULL);
    printf("prime expressions: done\n");
}

/* ---- 2. limbs --------------------------------------------------------------------------------------------------- */

/* the value of limbs in f's representation, recombined here: radix weights 2^(w_0 + ... + w_(i-1)), else 2^(64 i) */
static void recombine(const ir_func *f, const uint64_t *limbs, uint32_t n, mpz_t out)
{
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(out, 0);
    unsigned long at = 0;
    for (uint32_t i = 0; i < n; i++) {
        mpz_set_ui(t, (unsigned long)(limbs[i] >> 32));
        mpz_mul_2exp(t, t, 32);
        mpz_add_ui(t, t, (unsigned long)(limbs[i] & 0xffffffffu));
        mpz_mul_2exp(t, t, at);
        mpz_add(out, out, t);
        at += f->repr == IR_REPR_RADIX ? f->limbw[i] : 64;
    }
    mpz_clear(t);
}

/* every edge vector of every input array of f is the value it claims, in order, within bounds; returns the count
 * for the first input array (-1 on a failure) */
static int verify_edges(const ir_func *f, const char *label)
{
    mpz_t p, v, want;
    mpz_inits(p, v, want, NULL);
    int first = -1;
    bool ok = true;
    if (check_prime_value(f->prime, p) != 0) {
        failf("%s: prime %s does not evaluate", label, f->prime);
        ok = false;
    }
    for (uint32_t j = 0; ok && j < f->narr; j++) {
        if (f->arr[j].is_output)
            continue;
        uint32_t n = f->arr[j].len;
        uint64_t *e = malloc((size_t)CHECK_NEDGE * n * sizeof *e);
        unsigned which[CHECK_NEDGE];
        int c = check_edges(f, j, e, which);
        if (first < 0)
            first = c;
        for (int k = 0; k < c; k++) {
            if (k > 0 && which[k] <= which[k - 1])
                failf("%s: edge values out of order", label);
            mpz_mul_ui(want, p, which[k] < 3 ? 1 : 2);
            if (which[k] == 0 || which[k] == 3)
                mpz_sub_ui(want, want, 1);
            if (which[k] == 2)
                mpz_add_ui(want, want, 1);
            recombine(f, e + (size_t)k * n, n, v);
            if (mpz_cmp(v, want) != 0)
                failf("%s: %s edge %u recombines to another value", label, f->arr[j].name, which[k]);
            for (uint32_t i = 0; i < n; i++)
                if (e[(size_t)k * n + i] < f->arr[j].lo[i] || e[(size_t)k * n + i] > f->arr[j].hi[i])
                    failf("%s: %s edge %u limb %u out of bounds", label, f->arr[j].name, which[k], i);
        }
        free(e);
    }
    mpz_clears(p, v, want, NULL);
    return ok ? first : -1;
}

static void test_edges(void)
{
    static const struct {
        const char *file, *fn;
        int want; /* edge vectors of the first input: 5, or 3 where the words or the bounds cannot hold 2p - 1 */
    } fx[] = {
        { "curve25519_64", "fiat_25519_carry_mul", 5 },
        { "curve25519_solinas_64", "fiat_curve25519_solinas_mul", 5 },
        { "p448_solinas_64", "fiat_p448_carry_mul", 5 },
        { "p521_64", "fiat_p521_carry_mul", 5 },
        { "poly1305_64", "fiat_poly1305_carry_mul", 5 },
        { "secp256k1_dettman_64", "fiat_secp256k1_dettman_mul", 3 }, /* 2p - 1's top limb 2^49 - 1: bound 2^49 - 2 */
        { "p224_64", "fiat_p224_mul", 5 },
        { "p256_64", "fiat_p256_mul", 3 },
        { "p384_64", "fiat_p384_mul", 3 },
        { "p434_64", "fiat_p434_mul", 5 },
        { "secp256k1_montgomery_64", "fiat_secp256k1_montgomery_mul", 3 },
        { "curve25519_scalar_64", "fiat_25519_scalar_mul", 5 },
        { "p256_scalar_64", "fiat_p256_scalar_mul", 3 },
    };
    for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
        ir_func *f = load_fiat(fx[i].file, fx[i].fn);
        if (!f)
            continue;
        int c = verify_edges(f, fx[i].fn);
        if (c != fx[i].want)
            failf("%s: %d edge vectors, want %d", fx[i].fn, c, fx[i].want);
        /* no prime, no edges */
        f->prime[0] = 0;
        uint64_t e[CHECK_NEDGE * 16];
        for (uint32_t j = 0; j < f->narr; j++)
            if (!f->arr[j].is_output && f->arr[j].len <= 16 && check_edges(f, j, e, NULL) != 0)
                failf("%s without a prime: edge vectors", fx[i].fn);
        ir_func_free(f);
    }
    /* bounds and representation decide: radix 2^32 words over 2 limbs for p = 2^61 - 1; x's top limb bound stops at
     * p's top limb (only p - 1 and p fit), y's top limb may hold 2p (all five), z's low limb forbids 0xffffffff
     * (p's: p - 1, p + 1, 2p - 1 and 2p fit, low limbs 0xfffffffe, 0, 0xfffffffd, 0xfffffffe) */
    static const char text[] = "func t\n"
                               "  prime 2^61-1\n"
                               "  repr radix 32, 32\n"
                               "  in x[2] 0..0xffffffff, 0..0x1fffffff\n"
                               "  in y[2] 0..0xffffffff, 0..0x3fffffff\n"
                               "  in z[2] 0..0xfffffffe, 0..0x3fffffff\n"
                               "  out o[1]\n"
                               "  a:u64 = load x[0]\n"
                               "  b:u64 = load y[0]\n"
                               "  c:u64 = load z[0]\n"
                               "  s:u64 = add a, b\n"
                               "  s2:u64 = add s, c\n"
                               "  store o[0], s2\n"
                               "end\n";
    char err[256];
    ir_func *f = ir_parse(text, err, sizeof err);
    if (!f) {
        failf("hand-written radix program: %s", err);
        return;
    }
    verify_edges(f, "radix 2^32, p = 2^61 - 1");
    static const struct {
        uint32_t arr;
        int n;
        unsigned which[CHECK_NEDGE];
    } cnt[] = { { 0, 2, { 0, 1 } }, { 1, 5, { 0, 1, 2, 3, 4 } }, { 2, 4, { 0, 2, 3, 4 } } };
    for (size_t i = 0; i < sizeof cnt / sizeof cnt[0]; i++) {
        uint64_t e[CHECK_NEDGE * 2];
        unsigned which[CHECK_NEDGE];
        int c = check_edges(f, cnt[i].arr, e, which);
        if (c != cnt[i].n || memcmp(which, cnt[i].which, (size_t)c * sizeof *which) != 0)
            failf("radix 2^32 array %s: %d edge vectors, want %d", f->arr[cnt[i].arr].name, c, cnt[i].n);
    }
    /* p = 2^61 - 1 in x: limbs 0xffffffff, 0x1fffffff */
    uint64_t e[CHECK_NEDGE * 2];
    if (check_edges(f, 0, e, NULL) == 2 && (e[2] != 0xffffffffu || e[3] != 0x1fffffffu))
        failf("radix 2^32: p's limbs are 0x%llx 0x%llx", (unsigned long long)e[2], (unsigned long long)e[3]);
    /* 2p = 2^62 - 2: limbs 0xfffffffe, 0x3fffffff */
    if (check_edges(f, 1, e, NULL) == 5 && (e[8] != 0xfffffffeu || e[9] != 0x3fffffffu))
        failf("radix 2^32: 2p's limbs are 0x%llx 0x%llx", (unsigned long long)e[8], (unsigned long long)e[9]);
    f->nlimbw = 3; /* widths that do not match the arrays: no edge */
    f->limbw[2] = 32;
    if (check_edges(f, 1, e, NULL) != 0)
        failf("radix widths for 3 limbs over a 2-limb array: edge vectors");
    ir_func_free(f);
    printf("edge limbs: done\n");
}

/* ---- 3. a hand-written reduction -------------------------------------------------------------------------------- */

/* y = x >= p ? x - p : x for p = 2^64 - 59: x + 59 carries exactly when x >= p, and is then x - p mod 2^64 */
static const char red_ir[] = "func red\n"
                             "  prime 2^64-59\n"
                             "  in x[1]\n"
                             "  out y[1]\n"
                             "  x0:u64 = load x[0]\n"
                             "  t:u64, b:u1 = subborrowx.64 0:u1, x0, 0xffffffffffffffc5\n"
                             "  y0:u64 = cmovznz b, t, x0\n"
                             "  store y[0], y0\n"
                             "end\n";

/* %s: the carry test's constant, 59 (right) or 58 (wrong: x = p is taken as below p) */
static const char red_asm[] = "\t.text\n"
                              "\t.globl\tred\n"
                              "\t.type\tred, @function\n"
                              "red:\n"
                              "\tmovq\t(%%rsi), %%rax\n"
                              "\tmovq\t%%rax, %%rdx\n"
                              "\taddq\t$%d, %%rdx\n"
                              "\tleaq\t%d(%%rax), %%rcx\n"
                              "\tcmovcq\t%%rcx, %%rax\n"
                              "\tmovq\t%%rax, (%%rdi)\n"
                              "\tret\n"
                              "\t.size\tred, .-red\n"
                              "\t.section\t.note.GNU-stack,\"\",@progbits\n";

static void test_reduction(void)
{
    char err[256];
    ir_func *f = ir_parse(red_ir, err, sizeof err);
    if (!f) {
        failf("reduction program: %s", err);
        return;
    }
    uint64_t p = 0xffffffffffffffc5u, y = 1, x = p;
    const uint64_t *in[2] = { &x, NULL };
    uint64_t *out[2] = { NULL, &y };
    if (ir_eval(f, in, out) != 0 || y != 0)
        failf("reduction program: ir_eval(p) = 0x%llx, want 0", (unsigned long long)y);
    for (int wrong = 0; wrong < 2; wrong++) {
        char src[1024], path[1024];
        snprintf(src, sizeof src, red_asm, wrong ? 58 : 59, 59);
        snprintf(path, sizeof path, "%s/red%d.S", tmpdir, wrong);
        if (write_all(path, src) != 0) {
            failf("cannot write %s", path);
            continue;
        }
        check_opts o = { false, 20000, 0, false };
        check_result r;
        check_file(f, path, "red", &o, &r);
        printf("reduction mod 2^64-59, carry test +%d: %s %s (%.3f s)\n", wrong ? 58 : 59,
               r.verdict == CHECK_PROVED ? "PROVED" : r.verdict == CHECK_REJECTED ? "REJECTED" : "BAD_INPUT",
               r.verdict == CHECK_REJECTED ? check_rule_name(r.rule) : "", r.seconds_total);
        if (!wrong) {
            if (r.verdict != CHECK_PROVED)
                failf("the right reduction: not PROVED: %s", r.reason);
            continue;
        }
        /* the code's own value at x = p: p + 58 does not carry, so p stays; the program's is 0 */
        uint64_t code_at_p = p + 58 < p ? p + 59 : p;
        char want[256];
        snprintf(want, sizeof want, "x = {0x%016llx}: y[0] = 0x%016llx (code), 0x%016llx (program)",
                 (unsigned long long)p, (unsigned long long)code_at_p, (unsigned long long)y);
        if (r.verdict != CHECK_REJECTED || r.rule != CHECK_RULE_OUTPUT_DIFFERS)
            failf("the wrong reduction: not REJECTED output-differs: %s", r.reason);
        else if (!strstr(r.reason, "at the prime's edges"))
            failf("the wrong reduction: not found by the edge samples: %s", r.reason);
        else if (strcmp(r.cex, want) != 0)
            failf("the wrong reduction: counterexample \"%s\", want \"%s\"", r.cex, want);
    }
    ir_func_free(f);
}

/* ---- 4. compiled Montgomery multiplies, the final subtraction mutated ------------------------------------------ */

static int run_cc(char *const argv[])
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static unsigned n_mutants;

static void test_compiled(const char *file, const char *fn)
{
    static const struct {
        const char *cc, *flags[4];
    } ccs[] = { { "gcc", { "-O2", "-fno-tree-vectorize", NULL } },
                { "clang", { "-O2", "-fno-vectorize", "-fno-slp-vectorize" } } };
    ir_func *f = load_fiat(file, fn);
    if (!f)
        return;
    char err[512], cpath[1024];
    char *csrc = emit_c(f, NULL, err, sizeof err);
    snprintf(cpath, sizeof cpath, "%s/%s.c", tmpdir, fn);
    if (!csrc || write_all(cpath, csrc) != 0) {
        failf("%s: emit_c or writing %s: %s", fn, cpath, csrc ? "" : err);
        free(csrc);
        ir_func_free(f);
        return;
    }
    free(csrc);
    for (size_t c = 0; c < sizeof ccs / sizeof ccs[0]; c++) {
        if (!cc_available(ccs[c].cc)) {
            printf("%s: no %s here: skipped\n", fn, ccs[c].cc);
            continue;
        }
        char spath[1100];
        snprintf(spath, sizeof spath, "%s/%s.%s.s", tmpdir, fn, ccs[c].cc);
        char *argv[12];
        int k = 0;
        argv[k++] = (char *)ccs[c].cc;
        for (int i = 0; i < 4 && ccs[c].flags[i]; i++)
            argv[k++] = (char *)ccs[c].flags[i];
        argv[k++] = (char *)"-S";
        argv[k++] = (char *)"-o";
        argv[k++] = spath;
        argv[k++] = cpath;
        argv[k] = NULL;
        size_t len = 0;
        char *s = NULL;
        if (run_cc(argv) != 0 || !(s = read_all(spath, &len))) {
            failf("%s: %s -S failed", fn, ccs[c].cc);
            continue;
        }
        /* each line "\tadcq\t$-1, %reg" in turn: the borrow of one word of the subtraction of p */
        static const char pat[] = "\tadcq\t$-1, %";
        for (char *at = strstr(s, pat); at; at = strstr(at + 1, pat)) {
            char mpath[1200];
            snprintf(mpath, sizeof mpath, "%s/%s.%s.mut%u.s", tmpdir, fn, ccs[c].cc, n_mutants);
            at[8] = '2'; /* "$-1" -> "$-2" */
            int wr = write_all(mpath, s);
            at[8] = '1';
            if (wr != 0) {
                failf("cannot write %s", mpath);
                continue;
            }
            n_mutants++;
            unsigned line = 1;
            for (const char *q = s; q < at; q++)
                line += *q == '\n';
            check_opts o = { false, 5000, 0, false };
            check_result r;
            check_file(f, mpath, fn, &o, &r);
            printf("%s %s, line %u adcq $-2: %s %s (%.3f s)\n", fn, ccs[c].cc, line,
                   r.verdict == CHECK_PROVED ? "PROVED" : r.verdict == CHECK_REJECTED ? "REJECTED" : "BAD_INPUT",
                   r.verdict == CHECK_REJECTED ? check_rule_name(r.rule) : "", r.seconds_total);
            if (r.verdict != CHECK_REJECTED || r.rule != CHECK_RULE_OUTPUT_DIFFERS || !r.cex[0])
                failf("%s %s line %u mutated: want REJECTED output-differs with a counterexample, got: %s", fn,
                      ccs[c].cc, line, r.reason);
        }
        free(s);
    }
    ir_func_free(f);
}

int main(int argc, char **argv)
{
    bool keep = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--keep"))
            keep = true;
        else {
            fprintf(stderr, "usage: test_check_edges [--keep]\n");
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    char err[256];
    if (cc_tmpdir(tmpdir, sizeof tmpdir, err, sizeof err) != 0) {
        printf("FAIL: %s\n", err);
        return 1;
    }
    test_prime_value();
    test_edges();
    test_reduction();
    test_compiled("p256_64", "fiat_p256_mul");
    test_compiled("secp256k1_montgomery_64", "fiat_secp256k1_montgomery_mul");
    if (n_mutants == 0)
        failf("no `adcq $-1` in any compiled multiply: the compilers changed, update test_compiled");
    if (keep)
        printf("kept %s\n", tmpdir);
    else
        cc_rmtree(tmpdir);
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("ok (%u mutants)\n", n_mutants);
    return 0;
}
