/* test_check_corpus.c — the checker's corpus: compiler output PROVED, variants PROVED, mutants
 * REJECTED for exactly their rule.
 *
 * Subjects: the multiply and square of curve25519_64 (carry_mul, carry_square), curve25519_solinas_64, p256_64,
 * secp256k1_montgomery_64 (mul, square) and poly1305_64 (carry_mul, carry_square), read with ir_fiat_load from
 * FIAT_JSON_DIR in place, and the X25519 ladder step LADDER_IR (four outputs, composed with `call` from the generated
 * 2^255-19 5-limb fe_mul, fe_sq, fe_add, fe_sub, as tests/ir/test_harness.c composes it). Each is emitted as C
 * (emit_c) and compiled to assembly by gcc -O2 -fno-tree-vectorize and by clang -O2 -fno-vectorize
 * -fno-slp-vectorize.
 *
 * 1. check_file(the unlowered program, the .S) must be PROVED.
 * 2. For each proved one, every edit `ecopt_mutate --list` offers (ECOPT_MUTATE, tests/ir/check_mutate.c) is
 *    applied and checked: a variant must be PROVED, a mutant REJECTED with exactly its label (check_rule_name).
 *    An original left "unproved" (a failure already) still gets its mutants, which must be rejected for their own
 *    rule, but no variants.
 * 3. Real values, independent of the checker: the original, every variant and every output-differs mutant are
 *    assembled into shared objects and run on the CPU on random inputs within the program's limb bounds (and the
 *    all-lo / all-hi corners). A variant must agree with the original on every input; an output-differs mutant is
 *    "confirmed" when some input shows a difference (a mutant not confirmed is listed, not failed: random inputs
 *    can miss a rare carry).
 * Prints a table (subject x compiler x class -> mutants/variants, and how many behaved), the totals per class and
 * the check times. Usage: test_check_corpus [--only SUBSTRING[,SUBSTRING...]] [--keep] [--runs N] [--timeout-ms MS]
 * [--confirm-every N] [--sweep-variant-every N] (--timeout-ms: the solver's limit per query, default the checker's;
 * --confirm-every: run on the CPU only every N-th variant and output-differs mutant; --sweep-variant-every: check only
 * every N-th variant of a subject only the sweep proves; both CI's quick run). Exit 0 pass, 1 fail, 77 skip
 * (no gcc or clang). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check/check.h"
#include "emit/emit_c.h"
#include "gen/gen.h"
#include "ir/ir.h"
#include "ladder_prog.h"

#ifndef FIAT_JSON_DIR
#error "FIAT_JSON_DIR (the fiat-json folder) must be defined"
#endif
#ifndef LADDER_IR
#error "LADDER_IR (tests/ir/ladderstep.ir) must be defined"
#endif
#ifndef ECOPT_MUTATE
#error "ECOPT_MUTATE (the ecopt_mutate executable) must be defined"
#endif

static int failures;
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    failures++;
}

static void die_oom(void)
{
    fprintf(stderr, "test_check_corpus: out of memory\n");
    exit(1);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x5eed2026;
static uint64_t rng(void)
{
    /* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014) */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    for (size_t got; b && (got = fread(b + n, 1, cap - n, fp)) > 0;) {
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
    if (b)
        b[n] = '\0';
    if (len)
        *len = n;
    return b;
}

static int write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    size_t n = strlen(text);
    size_t w = fwrite(text, 1, n, fp);
    return (fclose(fp) == 0 && w == n) ? 0 : -1;
}

/* run argv (no shell) with stdout into outpath (NULL: /dev/null) and stderr into errpath (NULL: /dev/null);
 * the exit status, 127 when it could not start, -1 on a fork failure */
static int run(char *const *argv, const char *outpath, const char *errpath)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fo = open(outpath ? outpath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = open(errpath ? errpath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo >= 0)
            dup2(fo, 1);
        if (fe >= 0)
            dup2(fe, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static char tmpdir[512];

/* the first line of file path into buf */
static void first_line(const char *path, char *buf, size_t len)
{
    char *t = slurp(path, NULL);
    snprintf(buf, len, "%s", t ? t : "");
    buf[strcspn(buf, "\n")] = 0;
    free(t);
}

/* ---- subjects ------------------------------------------------------------------------------------------------ */

typedef struct {
    char label[48];   /* short name in the table */
    ir_func *f;
    unsigned nout;    /* output arrays */
    bool alias;       /* some output may alias an input */
} subject;

static ir_func *load_fiat(const char *file, const char *fn)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/%s.json", FIAT_JSON_DIR, file);
    size_t len;
    char *json = slurp(path, &len);
    if (!json) {
        fail("%s: %s", path, strerror(errno));
        return NULL;
    }
    ir_func *f = ir_fiat_load(json, len, path, fn, err, sizeof err);
    free(json);
    if (!f)
        fail("%s %s: %s", path, fn, err);
    return f;
}

/* the ladder step with its callees in front (as tests/ir/test_harness.c composes it) */
static ir_func *load_ladder(void)
{
    char err[1024];
    ir_func *f = ladder_prog_load(LADDER_IR, err, sizeof err);
    if (!f)
        fail("%s", err);
    return f;
}

/* ---- running machine code on the CPU ------------------------------------------------------------------------- */

typedef void (*fn_t)(void);

/* assemble path (.S) with the compiler cc that wrote it (clang's .addrsig is not GNU as syntax) into a shared
 * object and dlopen it; NULL with a failure */
static void *load_so(const char *cc, const char *spath, const char *sym, fn_t *fn)
{
    char so[1100], log[1100];
    snprintf(so, sizeof so, "%s.so", spath);
    snprintf(log, sizeof log, "%s.so.log", spath);
    char *argv[] = { (char *)cc, (char *)"-shared", (char *)"-fPIC", (char *)"-o", so, (char *)spath, NULL };
    if (run(argv, NULL, log) != 0) {
        char msg[512];
        first_line(log, msg, sizeof msg);
        fail("%s: %s -shared: %s", spath, cc, msg);
        return NULL;
    }
    void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fail("dlopen %s: %s", so, dlerror());
        return NULL;
    }
    void *p = dlsym(h, sym);
    if (!p) {
        fail("%s: no symbol %s", so, sym);
        dlclose(h);
        return NULL;
    }
    memcpy(fn, &p, sizeof *fn);
    return h;
}

#define MAXARR 12
#define MAXLIMB 16

static void call_fn(fn_t fn, unsigned n, uint64_t (*a)[MAXLIMB])
{
    typedef uint64_t *P;
    P p[MAXARR];
    for (unsigned i = 0; i < n; i++)
        p[i] = a[i];
    switch (n) {
    case 2: ((void (*)(P, P))fn)(p[0], p[1]); break;
    case 3: ((void (*)(P, P, P))fn)(p[0], p[1], p[2]); break;
    case 9: ((void (*)(P, P, P, P, P, P, P, P, P))fn)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8]); break;
    default: break;
    }
}

static uint64_t rand_between(ir_u128 lo, ir_u128 hi, int mode)
{
    uint64_t l = (uint64_t)lo, h = hi > UINT64_MAX ? UINT64_MAX : (uint64_t)hi;
    if (mode == 0)
        return l;
    if (mode == 1)
        return h;
    uint64_t span = h - l, r = rng();
    /* random widths too, so that small values occur */
    unsigned sh = (unsigned)(rng() % 4 == 0 ? rng() % 64 : 0);
    r >>= sh;
    return span == UINT64_MAX ? r : l + r % (span + 1);
}

/* the call order: outputs (declaration order), then inputs; argidx[k] = array of f */
static unsigned call_order(const ir_func *f, unsigned *argidx)
{
    unsigned n = 0;
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned a = 0; a < f->narr && n < MAXARR; a++)
            if (f->arr[a].is_output == (pass == 0))
                argidx[n++] = a;
    return n;
}

/* run g and h on `iters` inputs (the two corners first); the number of inputs on which an output differs */
static long compare_runs(const ir_func *f, fn_t g, fn_t h, long iters)
{
    unsigned argidx[MAXARR], n = call_order(f, argidx);
    if (n != 2 && n != 3 && n != 9)
        return -1;
    static uint64_t a[MAXARR][MAXLIMB], b[MAXARR][MAXLIMB];
    long ndiff = 0;
    for (long it = 0; it < iters; it++) {
        int mode = it < 2 ? (int)it : 2;
        for (unsigned k = 0; k < n; k++) {
            const ir_array *A = &f->arr[argidx[k]];
            for (unsigned i = 0; i < MAXLIMB; i++)
                a[k][i] = b[k][i] = 0x5555555555555555ull;
            if (!A->is_output)
                for (unsigned i = 0; i < A->len && i < MAXLIMB; i++)
                    a[k][i] = b[k][i] = rand_between(A->lo[i], A->hi[i], mode);
        }
        call_fn(g, n, a);
        call_fn(h, n, b);
        if (memcmp(a, b, sizeof a))
            ndiff++;
    }
    return ndiff;
}

/* ---- the table ----------------------------------------------------------------------------------------------- */

typedef struct {
    char subj[48], cc[8], cls[32], expect[24];
    int total, ok, confirmed;
    double seconds, max_seconds;
} row;

static row *rows;
static int nrows, caprows;

static row *get_row(const char *subj, const char *cc, const char *cls, const char *expect)
{
    for (int i = 0; i < nrows; i++)
        if (!strcmp(rows[i].subj, subj) && !strcmp(rows[i].cc, cc) && !strcmp(rows[i].cls, cls))
            return &rows[i];
    if (nrows == caprows) {
        caprows = caprows ? 2 * caprows : 64;
        rows = realloc(rows, (size_t)caprows * sizeof *rows);
        if (!rows)
            die_oom();
    }
    row *r = &rows[nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->subj, sizeof r->subj, "%s", subj);
    snprintf(r->cc, sizeof r->cc, "%s", cc);
    snprintf(r->cls, sizeof r->cls, "%s", cls);
    snprintf(r->expect, sizeof r->expect, "%s", expect);
    return r;
}

static long runs = 2000;
static check_opts opts;

/* matches_only — label contains one of the comma-separated substrings of only */
static bool matches_only(const char *only, const char *label)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", only);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (strstr(label, t))
            return true;
    return false;
}
/* run-confirm (build, load and run on the CPU) every confirm_every-th variant or output-differs mutant: 1 = all */
static unsigned confirm_every = 1, confirm_count;
/* check only every sweep_variant_every-th variant of a subject only the sweep proves (needs_sweep: ~30 s of CPU per
 * variant, CI's quick run); 1 = all. Its mutants are all checked. */
static unsigned sweep_variant_every = 1;

/* The known gap (docs/checker.md): compilers regroup the multi-word sums of saturated Solinas and Montgomery
 * multiplication into other add/adc pairs than the program's. The exact linear forms (check/lf.h) meet for the
 * saturated Solinas multiply and square (gcc, clang); for the Montgomery ones (p256, secp256k1) they meet on every
 * word of T before the final conditional subtraction, whose borrow compilers compute otherwise (from a 128-bit two's
 * complement), and z3 with cut-points at those words (check.c, prove_cut) decides the rest: PROVED. secp256k1's gcc
 * multiply, whose words 1 and 2 of T still differ in their linear forms (the cut query held both Montgomery rounds
 * and timed out), is proved since the sweep (check.c: pairs proved equal by small cut queries, bottom-up), and must
 * stay unproved without it (needs_sweep). A subject listed here must come out REJECTED "unproved" (never PROVED
 * wrongly, never another rule), with a short solver limit; its mutants are still checked. The list is empty now:
 * everything must be PROVED. Entries are label prefixes ("p256." would be both compilers of both operations). */
#define GAP_TIMEOUT_MS 2000
static int n_gap;
static bool known_gap(const char *label)
{
    static const char *const gap[] = { NULL }; /* none now: secp256k1.mul gcc is proved by sweeping (check.c) */
    for (size_t i = 0; i < sizeof gap / sizeof gap[0]; i++)
        if (gap[i] && !strncmp(label, gap[i], strlen(gap[i])))
            return true;
    return false;
}
/* needs_sweep — subjects that only the cut stage's sweep proves (check.c, sweep): each must also stay unproved with
 * check_opts.no_sweep, so that the sweep is seen to be what proves it */
static bool needs_sweep(const char *label)
{
    /* none now: secp256k1.mul gcc, which once needed it, meets by its linear forms since the quotient digit's exact
     * quotients share one basis (lf.c, exq_form) */
    static const char *const ns[] = { NULL };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        if (ns[i] && !strncmp(label, ns[i], strlen(ns[i])))
            return true;
    return false;
}
static double t_orig_total, t_orig_max;
static int n_orig, n_orig_ok;
static int unconfirmed;

/* the variants and mutants of one proved .S */
static void mutate_all(const subject *s, const char *cc, const char *spath, fn_t orig_fn, bool variants)
{
    const char *sym = s->f->name;
    char listpath[1100], errpath[1100], nout[8];
    snprintf(listpath, sizeof listpath, "%s.list", spath);
    snprintf(errpath, sizeof errpath, "%s.list.err", spath);
    snprintf(nout, sizeof nout, "%u", s->nout);
    char *argv[10];
    int k = 0;
    argv[k++] = (char *)ECOPT_MUTATE;
    argv[k++] = (char *)"--outputs";
    argv[k++] = nout;
    if (!s->alias)
        argv[k++] = (char *)"--no-alias";
    argv[k++] = (char *)"--list";
    argv[k++] = (char *)spath;
    argv[k++] = (char *)sym;
    argv[k] = NULL;
    if (run(argv, listpath, errpath) != 0) {
        char msg[512];
        first_line(errpath, msg, sizeof msg);
        fail("%s %s: ecopt_mutate --list: %s", s->label, cc, msg);
        return;
    }
    char *list = slurp(listpath, NULL);
    if (!list)
        die_oom();
    int nedits = 0;
    unsigned nvariant = 0;
    char full[160];
    snprintf(full, sizeof full, "%s %s", s->label, cc);
    bool thin = sweep_variant_every > 1 && needs_sweep(full);
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        char id[64], cls[32], expect[24];
        if (sscanf(line, "%63s %31s %23s", id, cls, expect) != 3) {
            fail("%s %s: ecopt_mutate printed a malformed line: %s", s->label, cc, line);
            continue;
        }
        bool variant = !strcmp(expect, "proved");
        if (variant && (!variants || (thin && nvariant++ % sweep_variant_every != 0)))
            continue;
        nedits++;
        int want_rule = variant ? CHECK_RULE_NONE : check_rule_parse(expect);
        if (want_rule < 0) {
            fail("%s %s: %s: unknown rule label %s", s->label, cc, id, expect);
            continue;
        }
        char mpath[1200];
        snprintf(mpath, sizeof mpath, "%s.%s.S", spath, id);
        char *margv[12];
        k = 0;
        margv[k++] = (char *)ECOPT_MUTATE;
        margv[k++] = (char *)"--outputs";
        margv[k++] = nout;
        if (!s->alias)
            margv[k++] = (char *)"--no-alias";
        margv[k++] = (char *)spath;
        margv[k++] = (char *)sym;
        margv[k++] = id;
        margv[k++] = (char *)"-o";
        margv[k++] = mpath;
        margv[k] = NULL;
        if (run(margv, NULL, errpath) != 0) {
            char msg[512];
            first_line(errpath, msg, sizeof msg);
            fail("%s %s: ecopt_mutate %s: %s", s->label, cc, id, msg);
            continue;
        }
        check_result r;
        check_file(s->f, mpath, sym, &opts, &r);
        row *w = get_row(s->label, cc, cls, expect);
        w->total++;
        w->seconds += r.seconds_total;
        if (r.seconds_total > w->max_seconds)
            w->max_seconds = r.seconds_total;
        bool ok = variant ? r.verdict == CHECK_PROVED
                          : r.verdict == CHECK_REJECTED && (int)r.rule == want_rule;
        if (ok)
            w->ok++;
        else
            fail("%s %s %s (%s): expected %s, got %s%s%s: %s", s->label, cc, id, line + strlen(id) + 1,
                 variant ? "PROVED" : expect,
                 r.verdict == CHECK_PROVED ? "PROVED" : r.verdict == CHECK_REJECTED ? "REJECTED " : "BAD_INPUT",
                 r.verdict == CHECK_REJECTED ? check_rule_name(r.rule) : "", "", r.reason);
        /* real values: variants agree with the original, output-differs mutants differ somewhere (an aliasing
         * mutant differs only when out1 is the input's buffer: the runs here are disjoint) */
        if (orig_fn && (variant || (want_rule == CHECK_RULE_OUTPUT_DIFFERS && strcmp(cls, "alias"))) &&
            confirm_count++ % confirm_every == 0) {
            fn_t mf;
            void *h = load_so(cc, mpath, sym, &mf);
            if (h) {
                long nd = compare_runs(s->f, orig_fn, mf, variant ? runs / 4 : runs);
                if (variant && nd != 0)
                    fail("%s %s %s: the variant differs from the original on %ld of %ld inputs (run on the CPU)",
                         s->label, cc, id, nd, runs / 4);
                if (!variant && nd > 0)
                    w->confirmed++;
                if (!variant && nd == 0) {
                    unconfirmed++;
                    printf("  note: %s %s %s: no difference found on %ld random inputs\n", s->label, cc, id, runs);
                }
                dlclose(h);
            }
        }
    }
    free(list);
    if (nedits == 0)
        fail("%s %s: ecopt_mutate offered no edits", s->label, cc);
}

static void check_subject(const subject *s, const char *only)
{
    static const struct {
        const char *name, *flags[6];
    } ccs[] = { { "gcc", { "-O2", "-fno-tree-vectorize", NULL } },
                { "clang", { "-O2", "-fno-vectorize", "-fno-slp-vectorize", NULL } } };
    char err[512];
    char *csrc = emit_c(s->f, NULL, err, sizeof err);
    if (!csrc) {
        fail("%s: emit_c: %s", s->label, err);
        return;
    }
    char cpath[1024];
    snprintf(cpath, sizeof cpath, "%s/%s.c", tmpdir, s->label);
    if (write_file(cpath, csrc) < 0) {
        fail("cannot write %s", cpath);
        free(csrc);
        return;
    }
    free(csrc);
    for (size_t c = 0; c < sizeof ccs / sizeof ccs[0]; c++) {
        char label[96];
        snprintf(label, sizeof label, "%s %s", s->label, ccs[c].name);
        if (only && !matches_only(only, label))
            continue;
        char spath[1024], log[1100];
        snprintf(spath, sizeof spath, "%s/%s.%s.S", tmpdir, s->label, ccs[c].name);
        snprintf(log, sizeof log, "%s.log", spath);
        char *argv[16];
        int k = 0;
        argv[k++] = (char *)ccs[c].name;
        for (int i = 0; ccs[c].flags[i]; i++)
            argv[k++] = (char *)ccs[c].flags[i];
        argv[k++] = (char *)"-S";
        argv[k++] = (char *)"-o";
        argv[k++] = spath;
        argv[k++] = cpath;
        argv[k] = NULL;
        if (run(argv, NULL, log) != 0) {
            char msg[512];
            first_line(log, msg, sizeof msg);
            fail("%s: %s -S: %s", label, ccs[c].name, msg);
            continue;
        }
        check_result r;
        bool gap = known_gap(label);
        check_opts o = opts;
        if (gap && !o.timeout_ms)
            o.timeout_ms = GAP_TIMEOUT_MS;
        check_file(s->f, spath, s->f->name, &o, &r);
        n_orig++;
        t_orig_total += r.seconds_total;
        if (r.seconds_total > t_orig_max)
            t_orig_max = r.seconds_total;
        printf("%-22s %-5s %-9s %5zu insns, %2u limbs (%u identical, %u linear, %u by z3), %.3f s\n", s->label,
               ccs[c].name, r.verdict == CHECK_PROVED ? "PROVED" : "NOT", r.ninsns, r.nlimbs, r.nlimbs_identical,
               r.nlimbs_linear, r.nlimbs_smt, r.seconds_total);
        fflush(stdout);
        bool proved = r.verdict == CHECK_PROVED;
        if (proved)
            n_orig_ok++;
        else if (gap && r.verdict == CHECK_REJECTED && r.rule == CHECK_RULE_UNPROVED) {
            n_gap++;
            printf("  known gap: %s is unproved (%s)\n", label, r.reason);
        } else
            fail("%s: expected PROVED, got %s %s: %s", label,
                 r.verdict == CHECK_REJECTED ? "REJECTED" : "BAD_INPUT",
                 r.verdict == CHECK_REJECTED ? check_rule_name(r.rule) : "", r.reason);
        if (gap && proved)
            printf("  note: %s is PROVED now: take it off the known-gap list in test_check_corpus.c\n", label);
        if (proved && needs_sweep(label)) {
            check_opts ons = opts;
            ons.no_sweep = true;
            if (!ons.timeout_ms)
                ons.timeout_ms = GAP_TIMEOUT_MS;
            check_result rn;
            check_file(s->f, spath, s->f->name, &ons, &rn);
            printf("  without the sweep: %s%s%s (%.3f s)\n", rn.verdict == CHECK_PROVED ? "PROVED" : "NOT",
                   rn.verdict == CHECK_REJECTED ? " " : "", rn.verdict == CHECK_REJECTED ? check_rule_name(rn.rule) : "",
                   rn.seconds_total);
            if (rn.verdict != CHECK_REJECTED || rn.rule != CHECK_RULE_UNPROVED)
                fail("%s: without the sweep want unproved, got %s", label,
                     rn.verdict == CHECK_PROVED ? "PROVED" : rn.reason);
            if (r.nswept == 0)
                fail("%s: PROVED without a swept pair", label);
        }
        /* an original the solver could not decide still gets its mutants (each must be rejected for its own rule:
         * sampling finds the output-differs ones), not its variants; one rejected for another rule gets neither */
        if (!proved && !(r.verdict == CHECK_REJECTED && r.rule == CHECK_RULE_UNPROVED))
            continue;
        fn_t fn = NULL;
        void *h = load_so(ccs[c].name, spath, s->f->name, &fn);
        mutate_all(s, ccs[c].name, spath, h ? fn : NULL, proved);
        if (h)
            dlclose(h);
    }
}

static void print_table(void)
{
    printf("\nper subject and compiler: class (expected): ok/total [run-confirmed], check seconds total / max\n");
    for (int i = 0; i < nrows; i++) {
        const row *w = &rows[i];
        printf("  %-22s %-5s %-18s %-16s %3d/%-3d", w->subj, w->cc, w->cls, w->expect, w->ok, w->total);
        if (strcmp(w->expect, "proved"))
            printf(" [%d]", w->confirmed);
        printf("  %.2f / %.2f s\n", w->seconds, w->max_seconds);
    }
    printf("\ntotals per class:\n");
    int vt = 0, vo = 0, mt = 0, mo = 0;
    for (int i = 0; i < nrows; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            if (!strcmp(rows[j].cls, rows[i].cls) && !strcmp(rows[j].expect, rows[i].expect))
                seen = true;
        if (seen)
            continue;
        int t = 0, o = 0, cf = 0;
        double sec = 0, mx = 0;
        for (int j = i; j < nrows; j++)
            if (!strcmp(rows[j].cls, rows[i].cls) && !strcmp(rows[j].expect, rows[i].expect)) {
                t += rows[j].total;
                o += rows[j].ok;
                cf += rows[j].confirmed;
                sec += rows[j].seconds;
                mx = rows[j].max_seconds > mx ? rows[j].max_seconds : mx;
            }
        bool variant = !strcmp(rows[i].expect, "proved");
        printf("  %-8s %-18s %-16s %4d/%-4d", variant ? "variant" : "mutant", rows[i].cls, rows[i].expect, o, t);
        if (!variant)
            printf(" run-confirmed %d", cf);
        printf("  mean %.3f s, max %.3f s\n", t ? sec / t : 0.0, mx);
        if (variant) {
            vt += t;
            vo += o;
        } else {
            mt += t;
            mo += o;
        }
        if (!variant && t < 2)
            fail("mutant class %s: %d mutants (the issue asks for at least two)", rows[i].cls, t);
    }
    printf("  variants %d/%d PROVED, mutants %d/%d REJECTED for their rule, %d output-differs mutants unconfirmed "
           "by running\n",
           vo, vt, mo, mt, unconfirmed);
    printf("originals: %d/%d PROVED, %d unproved on the known-gap list, check time %.3f s total, max %.3f s\n",
           n_orig_ok, n_orig, n_gap, t_orig_total, t_orig_max);
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    bool keep = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--keep"))
            keep = true;
        else if (!strcmp(argv[i], "--timeout-ms") && i + 1 < argc)
            opts.timeout_ms = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--confirm-every") && i + 1 < argc)
            confirm_every = atoi(argv[++i]) > 1 ? (unsigned)atoi(argv[i]) : 1;
        else if (!strcmp(argv[i], "--sweep-variant-every") && i + 1 < argc)
            sweep_variant_every = atoi(argv[++i]) > 1 ? (unsigned)atoi(argv[i]) : 1;
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atol(argv[++i]) > 4 ? atol(argv[i]) : 4;
        else {
            fprintf(stderr, "usage: test_check_corpus [--only SUBSTRING[,SUBSTRING...]] [--keep] [--runs N] [--timeout-ms MS] "
                            "[--confirm-every N] [--sweep-variant-every N]\n");
            return 2;
        }
    }
    char *v1[] = { (char *)"gcc", (char *)"--version", NULL }, *v2[] = { (char *)"clang", (char *)"--version", NULL };
    if (run(v1, NULL, NULL) != 0 || run(v2, NULL, NULL) != 0) {
        printf("SKIP: gcc and clang are both needed\n");
        return 77;
    }
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/ecopt-corpus-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "mkdtemp %s: %s\n", tmpdir, strerror(errno));
        return 1;
    }
    static const struct {
        const char *file, *fn, *label;
    } fiat[] = {
        { "curve25519_64", "fiat_25519_carry_mul", "curve25519.mul" },
        { "curve25519_64", "fiat_25519_carry_square", "curve25519.square" },
        { "curve25519_solinas_64", "fiat_curve25519_solinas_mul", "c25519_solinas.mul" },
        { "curve25519_solinas_64", "fiat_curve25519_solinas_square", "c25519_solinas.square" },
        { "p256_64", "fiat_p256_mul", "p256.mul" },
        { "p256_64", "fiat_p256_square", "p256.square" },
        { "secp256k1_montgomery_64", "fiat_secp256k1_montgomery_mul", "secp256k1.mul" },
        { "secp256k1_montgomery_64", "fiat_secp256k1_montgomery_square", "secp256k1.square" },
        { "poly1305_64", "fiat_poly1305_carry_mul", "poly1305.mul" },
        { "poly1305_64", "fiat_poly1305_carry_square", "poly1305.square" },
    };
    double t0 = now();
    for (size_t i = 0; i <= sizeof fiat / sizeof fiat[0]; i++) {
        subject s;
        memset(&s, 0, sizeof s);
        if (i < sizeof fiat / sizeof fiat[0]) {
            s.f = load_fiat(fiat[i].file, fiat[i].fn);
            snprintf(s.label, sizeof s.label, "%s", fiat[i].label);
        } else {
            s.f = load_ladder();
            snprintf(s.label, sizeof s.label, "ladderstep");
        }
        if (!s.f)
            continue;
        for (unsigned a = 0; a < s.f->narr; a++) {
            s.nout += s.f->arr[a].is_output ? 1u : 0u;
            if (s.f->arr[a].is_output && s.f->arr[a].alias)
                s.alias = true;
        }
        check_subject(&s, only);
        ir_func_free(s.f);
    }
    print_table();
    printf("total %.1f s\n", now() - t0);
    free(rows);
    if (keep)
        printf("files kept in %s\n", tmpdir);
    else {
        char *argv2[] = { (char *)"rm", (char *)"-rf", tmpdir, NULL };
        run(argv2, NULL, NULL);
    }
    if (failures) {
        fprintf(stderr, "test_check_corpus: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_check_corpus: pass\n");
    return 0;
}
