/* test_search_opt.c — the optimizer's search (search/candidate.h, search/search.h). Correctness
 * only, never speed.
 *
 *   candidate      for the lowered curve25519 and p256 fiat multiplies and the X25519 ladder step: random starts
 *                  and --iters random mutations (default 10000) keep a legal order: after every one the candidate
 *                  is checked edge by edge (cand_valid), the applied function passes ir_validate and keeps the alias
 *                  rule (every load of an aliased input before the first store to the output), and every 500th
 *                  computes what the original computes (ir_eval on random inputs); search_cse keeps the function
 *                  valid and its outputs unchanged (200 random inputs).
 *   opt NAME       NAME = curve25519 | p256 | ladder: a short search (--evals, default 300; no compiler baselines),
 *                  then, independently of the search's own final gate: the .S text is PROVED by check_file against
 *                  the UNLOWERED program; the system assembler's bytes for it equal the bytes that were measured;
 *                  the assembled code, loaded as a shared object, agrees with GMP on --iters random inputs (default
 *                  100000; multiplies also with out1 == arg1 and with out1 == arg2: the fiat aliasing).
 *
 *   candidate also runs the tiny programs (2-4 nodes: load-xor-store, a constant stored with no inputs, a one-limb
 *                  add): a 300-evaluation search (no baselines) must finish within 60 s (a generous floor: it takes
 *                  well under a second; such programs have a handful of distinct codes, and the search once drew
 *                  1000 mutants with a mapping each per evaluation: 5 evaluations/s), do all 300 evaluations, and
 *                  its code, run by the CPU, gives the value computed here in C on random inputs.
 *
 * Usage: test_search_opt [--seed N] [--iters N] [--evals N] --fiat DIR --ladder FILE (candidate | opt NAME) */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gmp.h>

#include "check/check.h"
#include "check/elf.h"
#include "emit/encode.h"
#include "gen/gen.h"
#include "harness.h"
#include "ir/ir.h"
#include "ladder_prog.h"
#include "search/candidate.h"
#include "search/search.h"
#include "testutil.h"

extern char **environ;

static const char *fiat_dir, *ladder_path;
static uint64_t seed;
static long iters = -1, evals = 300;

static void die(const char *msg)
{
    fprintf(stderr, "test_search_opt: %s\n", msg);
    exit(2);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = 2 * cap + 8192;
            char *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, 4096, fp);
        n += got;
        if (got < 4096)
            break;
    }
    fclose(fp);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

static ir_func *load_fiat(const char *file, const char *fn)
{
    char path[1024], err[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", fiat_dir, file);
    char *json = slurp(path, &len);
    if (!json) {
        tu_fail("%s: %s", path, strerror(errno));
        return NULL;
    }
    ir_func *f = ir_fiat_load(json, len, path, fn, err, sizeof err);
    free(json);
    if (!f)
        tu_fail("%s: %s", fn, err);
    return f;
}

/* The ladder step composed with its callees (generated 2^255-19 carry_mul, carry_square, add, sub in front). */
static ir_func *load_ladder(void)
{
    char err[1024];
    ir_func *f = ladder_prog_load(ladder_path, err, sizeof err);
    if (!f)
        tu_fail("%s", err);
    return f;
}

static ir_func *load_named(const char *name)
{
    if (!strcmp(name, "curve25519"))
        return load_fiat("curve25519_64.json", "fiat_25519_carry_mul");
    if (!strcmp(name, "p256"))
        return load_fiat("p256_64.json", "fiat_p256_mul");
    if (!strcmp(name, "ladder"))
        return load_ladder();
    die("opt NAME: curve25519, p256 or ladder");
    return NULL;
}

/* Random limbs within array arr's declared bounds, of random bit density. */
static void random_limbs(uint64_t *x, const ir_func *f, int arr, tu_rng *rng)
{
    for (uint32_t l = 0; l < f->arr[arr].len; l++) {
        uint64_t lo = (uint64_t)f->arr[arr].lo[l], hi = f->arr[arr].hi[l] > UINT64_MAX ? UINT64_MAX
                                                                                       : (uint64_t)f->arr[arr].hi[l];
        uint64_t r;
        tu_rng_bytes_density(rng, (uint8_t *)&r, sizeof r);
        switch (tu_rng_below(rng, 8)) {
        case 0:
            x[l] = lo;
            break;
        case 1:
            x[l] = hi;
            break;
        default:
            x[l] = hi - lo == UINT64_MAX ? r : lo + (r <= hi - lo ? r : r % (hi - lo + 1));
            break;
        }
    }
}

/* ---- candidate ----------------------------------------------------------------------------------------------- */

/* The alias rule in f's node order. */
static const char *alias_order_ok(const ir_func *f)
{
    for (uint32_t o = 0; o < f->narr; o++) {
        if (!f->arr[o].is_output || !f->arr[o].alias)
            continue;
        bool stored = false;
        for (uint32_t k = 0; k < f->nnode; k++) {
            const ir_node *x = &f->node[k];
            if (x->op == IR_STORE && x->arr == o)
                stored = true;
            if (x->op == IR_LOAD && stored && x->arr < 64 && ((f->arr[o].alias >> x->arr) & 1))
                return "a load of an aliased input after the first store to the output";
        }
    }
    return NULL;
}

/* Interpreter outputs of f on the inputs in `in` (per array), into out (per array). */
static int eval_into(const ir_func *f, uint64_t in[][32], uint64_t out[][32])
{
    const uint64_t *pi[32] = { 0 };
    uint64_t *po[32] = { 0 };
    for (uint32_t j = 0; j < f->narr && j < 32; j++) {
        pi[j] = in[j];
        po[j] = out[j];
    }
    return ir_eval(f, pi, po);
}

static void test_candidate_one(const char *label, ir_func *src, tu_rng *rng)
{
    char err[1024];
    ir_func *low = ir_lower(src, err, sizeof err);
    if (!low) {
        tu_fail("%s: ir_lower: %s", label, err);
        return;
    }
    if (low->narr > 32) {
        tu_fail("%s: too many arrays for this test", label);
        ir_func_free(low);
        return;
    }
    cand_graph g;
    candidate c;
    cand_rng cr;
    cand_rng_seed(&cr, tu_rng_u64(rng));
    if (cand_graph_build(&g, low, EMIT_ASM_TARGET_ADX, err, sizeof err) != 0) {
        tu_fail("%s: cand_graph_build: %s", label, err);
        ir_func_free(low);
        return;
    }
    ir_func *work = ir_func_clone(low);
    uint8_t *dec = malloc(low->nnode);
    static uint64_t in[32][32], want[32][32], got[32][32];
    if (!work || !dec || cand_init(&c, &g) != 0)
        die("out of memory");
    /* search_cse: merged nodes, still valid, same outputs as the lowered function on random inputs */
    {
        static uint64_t cin[32][32], cwant[32][32], cgot[32][32];
        ir_func *cse = ir_func_clone(low);
        int merged = cse ? search_cse(cse) : -1;
        if (merged < 0)
            die("out of memory");
        if (ir_validate(cse) != 0)
            tu_fail("%s: search_cse: ir_validate: %s", label, cse->err);
        else if (cse->nnode + (uint32_t)merged > low->nnode)
            tu_fail("%s: search_cse merged %d nodes but left %u of %u", label, merged, cse->nnode, low->nnode);
        else
            for (int t = 0; t < 200; t++) {
                for (uint32_t j = 0; j < low->narr; j++)
                    if (!low->arr[j].is_output)
                        random_limbs(cin[j], low, (int)j, rng);
                if (eval_into(low, cin, cwant) != 0 || eval_into(cse, cin, cgot) != 0)
                    die("out of memory");
                for (uint32_t j = 0; j < low->narr; j++)
                    if (low->arr[j].is_output && memcmp(cwant[j], cgot[j], low->arr[j].len * sizeof(uint64_t))) {
                        tu_fail("%s: search_cse changed %s (input %d)", label, low->arr[j].name, t);
                        t = 200;
                    }
            }
        printf("%s: search_cse merged %d of %u nodes (%u left)\n", label, merged, low->nnode, cse->nnode);
        ir_func_free(cse);
    }
    if (!cand_valid(&c, &g))
        tu_fail("%s: the function's own order is not a legal candidate", label);
    long moves = 0, decs = 0, bad = 0;
    for (long i = 0; i < iters && bad < 5; i++) {
        if (i % 2500 == 0)
            cand_random(&c, &g, &cr);
        else {
            cand_mutation m = cand_mutate(&c, &g, &cr);
            moves += m == CAND_MUT_MOVE;
            decs += m == CAND_MUT_DECISION;
        }
        if (!cand_valid(&c, &g)) {
            tu_fail("%s: mutation %ld: the candidate breaks an edge of the dependence graph", label, i);
            bad++;
            continue;
        }
        cand_apply(&c, &g, work, dec);
        if (ir_validate(work) != 0) {
            tu_fail("%s: mutation %ld: ir_validate: %s", label, i, work->err);
            bad++;
            continue;
        }
        const char *why = alias_order_ok(work);
        if (why) {
            tu_fail("%s: mutation %ld: %s", label, i, why);
            bad++;
            continue;
        }
        for (uint32_t k = 0; k < work->nnode; k++)
            if (dec[k] != c.dec[c.order[k]]) {
                tu_fail("%s: mutation %ld: decision of node %u not carried with it", label, i, k);
                bad++;
                break;
            }
        if (i % 500 == 0) {
            for (uint32_t j = 0; j < low->narr; j++)
                if (!low->arr[j].is_output)
                    random_limbs(in[j], low, (int)j, rng);
            if (eval_into(low, in, want) != 0 || eval_into(work, in, got) != 0)
                die("out of memory");
            for (uint32_t j = 0; j < low->narr; j++)
                if (low->arr[j].is_output && memcmp(want[j], got[j], low->arr[j].len * sizeof(uint64_t))) {
                    tu_fail("%s: mutation %ld: the reordered function computes %s differently", label, i,
                            low->arr[j].name);
                    bad++;
                }
        }
    }
    if (moves < iters / 4 || (g.nflexible && decs < iters / 4))
        tu_fail("%s: %ld moves and %ld decision changes in %ld mutations: too few", label, moves, decs, iters);
    printf("%s: %u nodes, %u with a decision; %ld mutations (%ld moves, %ld decisions), all legal\n", label,
           g.n, g.nflexible, iters, moves, decs);
    cand_free(&c);
    free(dec);
    ir_func_free(work);
    cand_graph_free(&g);
    ir_func_free(low);
}

/* ---- tiny programs ------------------------------------------------------------------------------------------- */

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef void (*fn3)(void *, void *, void *);

static void test_tiny(tu_rng *rng)
{
    static const struct {
        const char *name, *text;
    } progs[] = {
        { "xor", "func xor\n  in a[1] 0..0xffffffffffffffff\n  out o[1] 0..0xffffffffffffffff\n"
                 "  x:u64 = load a[0]\n  y:u64 = xor x, 0x5555\n  store o[0], y\nend\n" },
        { "const", "func konst\n  out o[1] 0..0xffffffffffffffff\n  store o[0], 0x1234\nend\n" },
        { "add", "func add1\n  in a[1] 0..0xffffffff\n  in b[1] 0..0xffffffff\n  out o[1] 0..0x1fffffffe\n"
                 "  x:u64 = load a[0]\n  y:u64 = load b[0]\n  z:u64 = add x, y\n  store o[0], z\nend\n" },
    };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        char err[1024];
        ir_func *src = ir_parse(progs[i].text, err, sizeof err);
        ir_func *low = src ? ir_lower(src, err, sizeof err) : NULL;
        if (!low) {
            tu_fail("tiny %s: %s", progs[i].name, err);
            ir_func_free(src);
            continue;
        }
        search_opts o;
        search_result r;
        search_opts_default(&o);
        o.evals = 300;
        o.seed = seed;
        o.quiet = true;
        o.baselines = false;
        o.final_rounds = 11;
        double t0 = wall_s();
        int rc = search_run(low, src, &o, &r, err, sizeof err);
        double t = wall_s() - t0;
        if (rc != 0) {
            tu_fail("tiny %s: search_run: %s", progs[i].name, err);
            ir_func_free(low);
            ir_func_free(src);
            continue;
        }
        printf("tiny %s: %llu evals in %.2f s (%.0f/s), %llu kept, %llu same bytes; %.1f %s\n", progs[i].name,
               (unsigned long long)r.evals, t, (double)r.evals / (t > 0 ? t : 1e-9), (unsigned long long)r.nkept,
               (unsigned long long)r.nsame, r.ticks, r.unit);
        if (t > 60.0)
            tu_fail("tiny %s: 300 evaluations took %.1f s (at most 60)", progs[i].name, t);
        if (r.evals != o.evals || r.nwrong || r.nfailed)
            tu_fail("tiny %s: %llu evaluations of 300, %llu wrong, %llu refused: %s", progs[i].name,
                    (unsigned long long)r.evals, (unsigned long long)r.nwrong, (unsigned long long)r.nfailed,
                    r.wrong_msg);
        /* the measured code, run by the CPU, against C */
        size_t maplen = 0;
        void *map = encode_exec_map(r.code, r.code_len, &maplen);
        if (!map) {
            tu_fail("tiny %s: encode_exec_map failed", progs[i].name);
        } else {
            fn3 fn;
            memcpy(&fn, &map, sizeof fn);
            for (int k = 0; k < 1000; k++) {
                uint64_t a = tu_rng_u64(rng), b = tu_rng_u64(rng), out = 0x5a5a5a5a5a5a5a5aull, want;
                if (!strcmp(progs[i].name, "xor")) {
                    fn(&out, &a, NULL);
                    want = a ^ 0x5555;
                } else if (!strcmp(progs[i].name, "const")) {
                    fn(&out, NULL, NULL);
                    want = 0x1234;
                } else {
                    a &= 0xffffffff;
                    b &= 0xffffffff;
                    fn(&out, &a, &b);
                    want = a + b;
                }
                if (out != want) {
                    tu_fail("tiny %s: input %d: the code gives 0x%llx, C 0x%llx", progs[i].name, k,
                            (unsigned long long)out, (unsigned long long)want);
                    break;
                }
            }
            encode_exec_unmap(map, maplen);
        }
        search_result_free(&r);
        ir_func_free(low);
        ir_func_free(src);
    }
}

static void mode_candidate(void)
{
    tu_rng rng;
    tu_rng_seed(&rng, seed);
    if (iters < 0)
        iters = 10000;
    static const char *const names[] = { "curve25519", "p256", "ladder" };
    for (int i = 0; i < 3; i++) {
        ir_func *f = load_named(names[i]);
        if (f)
            test_candidate_one(names[i], f, &rng);
        ir_func_free(f);
    }
    /* rng bounds */
    cand_rng r;
    cand_rng_seed(&r, seed);
    for (int i = 0; i < 100000; i++) {
        uint64_t n = 1 + (uint64_t)i % 97;
        if (cand_rng_below(&r, n) >= n) {
            tu_fail("cand_rng_below(%llu) out of range", (unsigned long long)n);
            break;
        }
    }
    test_tiny(&rng);
}

/* ---- opt --------------------------------------------------------------------------------------------------------- */

typedef void (*fn12)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *);

static int run_cmd(char *const argv[])
{
    pid_t pid;
    int st;
    if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0)
        return -1;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The ladder step in GMP, RFC 7748 section 5 (a24 = 121665), written from the RFC's formulas. */
static void gmp_ladder(mpz_t o[4], mpz_t const x[5], const mpz_t p)
{
    /* x[0] = x1, x[1] = x2, x[2] = z2, x[3] = x3, x[4] = z3; o = x2', z2', x3', z3' */
    mpz_t A, AA, B, BB, E, C, D, DA, CB, t;
    mpz_inits(A, AA, B, BB, E, C, D, DA, CB, t, NULL);
    mpz_add(A, x[1], x[2]);
    mpz_mul(AA, A, A);
    mpz_sub(B, x[1], x[2]);
    mpz_mul(BB, B, B);
    mpz_sub(E, AA, BB);
    mpz_add(C, x[3], x[4]);
    mpz_sub(D, x[3], x[4]);
    mpz_mul(DA, D, A);
    mpz_mul(CB, C, B);
    mpz_add(t, DA, CB);
    mpz_mul(o[2], t, t);
    mpz_sub(t, DA, CB);
    mpz_mul(t, t, t);
    mpz_mul(o[3], x[0], t);
    mpz_mul(o[0], AA, BB);
    mpz_mul_ui(t, E, 121665);
    mpz_add(t, t, AA);
    mpz_mul(o[1], E, t);
    for (int i = 0; i < 4; i++)
        mpz_mod(o[i], o[i], p);
    mpz_clears(A, AA, B, BB, E, C, D, DA, CB, t, NULL);
}

static void radix51_value(mpz_t v, const uint64_t *x)
{
    mpz_set_ui(v, 0);
    for (int i = 4; i >= 0; i--) {
        mpz_mul_2exp(v, v, 51);
        mpz_add_ui(v, v, x[i]);
    }
}

/* 100k (iters) inputs through fn vs GMP. */
static void gmp_check(const char *label, const ir_func *f, fn12 fn, tu_rng *rng)
{
    char err[512];
    void *a[12] = { 0 };
    static uint64_t buf[16][32];
    int order[16], n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output == (pass == 0))
                order[n++] = (int)j;
    if (!strcmp(label, "ladder")) {
        mpz_t p, x[5], o[4], got;
        mpz_init_set_ui(p, 1);
        mpz_mul_2exp(p, p, 255);
        mpz_sub_ui(p, p, 19);
        mpz_init(got);
        for (int i = 0; i < 5; i++)
            mpz_init(x[i]);
        for (int i = 0; i < 4; i++)
            mpz_init(o[i]);
        static const char *const in_names[5] = { "x1", "x2", "z2", "x3", "z3" };
        static const char *const out_names[4] = { "x2_out", "z2_out", "x3_out", "z3_out" };
        int ia[5], oa[4];
        for (int i = 0; i < 5; i++)
            if ((ia[i] = ir_array_find(f, in_names[i])) < 0)
                die("ladder: missing input array");
        for (int i = 0; i < 4; i++)
            if ((oa[i] = ir_array_find(f, out_names[i])) < 0)
                die("ladder: missing output array");
        long fails = 0;
        for (long it = 0; it < iters && fails < 5; it++) {
            for (int i = 0; i < 5; i++) {
                random_limbs(buf[ia[i]], f, ia[i], rng);
                radix51_value(x[i], buf[ia[i]]);
            }
            for (int k = 0; k < n; k++)
                a[k] = buf[order[k]];
            fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
            gmp_ladder(o, (mpz_t const *)x, p);
            for (int i = 0; i < 4; i++) {
                radix51_value(got, buf[oa[i]]);
                mpz_mod(got, got, p);
                if (mpz_cmp(got, o[i]) != 0 || !hx_in_bounds(f, oa[i], buf[oa[i]])) {
                    tu_fail("ladder: input %ld: %s differs from GMP's ladder step (or leaves its bounds)", it,
                            out_names[i]);
                    for (int k = 0; k < 5; k++)
                        hx_print_limbs(in_names[k], buf[ia[k]], 5);
                    fails++;
                }
            }
        }
        printf("ladder: %ld random inputs agree with GMP\n", iters);
        mpz_clears(p, got, NULL);
        for (int i = 0; i < 5; i++)
            mpz_clear(x[i]);
        for (int i = 0; i < 4; i++)
            mpz_clear(o[i]);
        return;
    }
    hx_field h;
    if (hx_field_init(&h, f, err, sizeof err) != 0) {
        tu_fail("%s: %s", label, err);
        return;
    }
    if (h.nin != 2 || n != 3) {
        tu_fail("%s: expected one output and two inputs", label);
        hx_field_clear(&h);
        return;
    }
    mpz_t va, vb, e;
    mpz_inits(va, vb, e, NULL);
    uint64_t *A = buf[h.in[0]], *B = buf[h.in[1]], *O = buf[h.out];
    long fails = 0;
    for (long it = 0; it < iters && fails < 5; it++) {
        if (hx_random_input(A, &h, f, h.in[0], rng, err, sizeof err) != 0 ||
            hx_random_input(B, &h, f, h.in[1], rng, err, sizeof err) != 0) {
            tu_fail("%s: %s", label, err);
            break;
        }
        hx_value(va, &h, A);
        hx_value(vb, &h, B);
        hx_expected(e, &h, va, vb);
        for (int mode = 0; mode < 3; mode++) { /* separate, out == arg1, out == arg2 */
            static uint64_t a1[32], a2[32];
            memcpy(a1, A, h.n * sizeof(uint64_t));
            memcpy(a2, B, h.n * sizeof(uint64_t));
            memset(O, 0x5a, h.n * sizeof(uint64_t));
            void *pa = a1, *pb = a2;
            if (mode == 1) {
                memcpy(O, A, h.n * sizeof(uint64_t));
                pa = O;
            } else if (mode == 2) {
                memcpy(O, B, h.n * sizeof(uint64_t));
                pb = O;
            }
            fn(O, pa, pb, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
            const char *why = hx_check(&h, f, e, O);
            if (why) {
                tu_fail("%s: input %ld (%s): %s", label, it,
                        mode == 0 ? "separate arrays" : mode == 1 ? "out1 == arg1" : "out1 == arg2", why);
                hx_print_limbs("arg1", A, h.n);
                hx_print_limbs("arg2", B, h.n);
                hx_print_limbs("out1", O, h.n);
                fails++;
            }
        }
    }
    printf("%s: %ld random inputs agree with GMP (separate arrays, out1 == arg1, out1 == arg2)\n", label, iters);
    mpz_clears(va, vb, e, NULL);
    hx_field_clear(&h);
}

static void mode_opt(const char *name)
{
    char err[1024], dir[512], path[600], so[600];
    if (iters < 0)
        iters = 100000;
    ir_func *src = load_named(name);
    if (!src)
        return;
    ir_func *low = ir_lower(src, err, sizeof err);
    if (!low) {
        tu_fail("%s: ir_lower: %s", name, err);
        ir_func_free(src);
        return;
    }
    search_opts o;
    search_result r;
    search_opts_default(&o);
    o.evals = (uint64_t)evals;
    o.bets = 3;
    o.bet_ratio = 0.3;
    o.seed = seed;
    o.quiet = true;
    o.baselines = false;
    o.final_rounds = 11;
    o.symbol = "opt_under_test";
    if (search_run(low, src, &o, &r, err, sizeof err) != 0) {
        tu_fail("%s: search_run: %s", name, err);
        goto out0;
    }
    printf("%s: %llu evals (%.0f/s), %llu kept, %llu same bytes, %llu reverts; %.1f %s\n", name,
           (unsigned long long)r.evals, r.evals_per_s, (unsigned long long)r.nkept, (unsigned long long)r.nsame,
           (unsigned long long)r.nreverts, r.ticks, r.unit);
    if (r.nwrong || r.nfailed)
        tu_fail("%s: %llu candidates differed from the interpreter, %llu refused: %s", name,
                (unsigned long long)r.nwrong, (unsigned long long)r.nfailed, r.wrong_msg);
    if (r.evals != o.evals)
        tu_fail("%s: %llu evaluations done, %llu asked", name, (unsigned long long)r.evals,
                (unsigned long long)o.evals);

    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/test-search-opt-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(dir))
        die("mkdtemp failed");
    snprintf(path, sizeof path, "%s/opt.S", dir);
    snprintf(so, sizeof so, "%s/opt.so", dir);
    FILE *fp = fopen(path, "w");
    if (!fp || fputs(r.text, fp) < 0 || fclose(fp) != 0)
        die("cannot write the .S");

    /* 1: PROVED against the unlowered program */
    check_result cr;
    check_opts co;
    memset(&co, 0, sizeof co);
    check_file(src, path, o.symbol, &co, &cr);
    if (cr.verdict != CHECK_PROVED)
        tu_fail("%s: check_file: %s %s: %s", name, cr.verdict == CHECK_REJECTED ? "REJECTED" : "bad input",
                check_rule_name(cr.rule), cr.reason);
    else
        printf("%s: PROVED (%u limbs)\n", name, cr.nlimbs);

    /* 2: the system assembler's bytes are the measured bytes */
    check_code code;
    memset(&code, 0, sizeof code);
    if (check_code_read(path, o.symbol, &code, err, sizeof err) != 0)
        tu_fail("%s: check_code_read: %s", name, err);
    else if (code.size != r.code_len || memcmp(code.bytes, r.code, r.code_len) != 0)
        tu_fail("%s: the assembled bytes (%zu) differ from the measured ones (%zu)", name, code.size, r.code_len);
    else
        printf("%s: the assembler's %zu bytes equal the measured ones\n", name, code.size);
    check_code_free(&code);

    /* 3: the assembled code vs GMP */
    char *argv[] = { (char *)"cc", (char *)"-shared", (char *)"-o", so, path, NULL };
    if (run_cmd(argv) != 0) {
        tu_fail("%s: cc -shared failed", name);
    } else {
        void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
        void *sym = dl ? dlsym(dl, o.symbol) : NULL;
        if (!sym) {
            tu_fail("%s: dlopen/dlsym: %s", name, dlerror());
        } else {
            fn12 fn;
            memcpy(&fn, &sym, sizeof fn);
            tu_rng rng;
            tu_rng_seed(&rng, seed ^ 0x67);
            gmp_check(name, src, fn, &rng);
        }
        if (dl)
            dlclose(dl);
    }
    remove(so);
    remove(path);
    rmdir(dir);
    search_result_free(&r);
out0:
    ir_func_free(low);
    ir_func_free(src);
}

int main(int argc, char **argv)
{
    tu_opts to;
    const char *mode = NULL, *arg = NULL;
    const char *usage = "usage: test_search_opt [--seed N] [--iters N] [--evals N] --fiat DIR --ladder FILE "
                        "(candidate | opt NAME)";
    /* this program's own options first; the rest goes to tu_parse_opts */
    int n = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fiat") && i + 1 < argc)
            fiat_dir = argv[++i];
        else if (!strcmp(argv[i], "--ladder") && i + 1 < argc)
            ladder_path = argv[++i];
        else if (!strcmp(argv[i], "--evals") && i + 1 < argc)
            evals = atol(argv[++i]);
        else
            argv[n++] = argv[i];
    }
    tu_parse_opts(&to, n, argv, -1);
    seed = to.seed;
    iters = to.iters;
    for (int i = 0; i < to.argc; i++) {
        if (!mode)
            mode = to.argv[i];
        else if (!arg)
            arg = to.argv[i];
        else
            die(usage);
    }
    if (!fiat_dir || !ladder_path || !mode || evals < 1)
        die(usage);
    if (!strcmp(mode, "candidate"))
        mode_candidate();
    else if (!strcmp(mode, "opt") && arg)
        mode_opt(arg);
    else
        die("mode: candidate, or opt curve25519|p256|ladder");
    return tu_finish("test_search_opt");
}
