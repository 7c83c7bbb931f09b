/* check_times.c — `make bench-check`: how long `ecopt check` (check_function, check/check.h) takes on the multiply
 * of curve25519, p256, p384 and p434 (docs/checker.md, "Checker times"). Not a test: nothing here asserts a time or a verdict.
 *
 * For each fiat-crypto function (fiat_25519_carry_mul, fiat_p256_mul, fiat_p384_mul, fiat_p434_mul from the
 * fiat-json folder) the code checked is:
 *   - compiler output: the C that `ecopt ir --emit c` emits, compiled to an object by gcc -O2 -fno-tree-vectorize,
 *     clang -O2 -fno-vectorize -fno-slp-vectorize, and both with -O3 -march=native (mulx where the CPU has BMI2),
 *     with and without their vectorizers;
 *   - optimizer-style code: the lowered program written as AT&T assembly by emit_asm (emit/emit_asm.h: mulx,
 *     adcx/adox), assembled by the system assembler.
 * Each is checked RUNS times (default 5) against the unlowered program; the table gives the median wall time of
 * check_function (decode, symbolic execution of both, normal forms, sampling, z3), the instruction count (decoded
 * bytes of the function), how many output limbs were proved by identical normal forms, by the exact linear forms
 * and by z3, and the last
 * run's split (check_result: decode + symbolic execution, then sampling + solver), next to the
 * times fiat-crypto's published checker needed (0.29 s, 1.07 s, 29 s, 315 s). Target: under 1 s each.
 * A check slower than --max-seconds (default 30), or a rejection, is not repeated: its time is reported, marked
 * "(1 run)".
 *
 * Usage: check_times [--fiat DIR] [--runs N] [--timeout-ms N] [--max-seconds S] [--only NAME] [--out FILE]
 * The table goes to standard output (and to FILE with --out). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/check.h"
#include "check/decode.h"
#include "check/elf.h"
#include "emit/emit_c.h"
#include "ir/ir.h"
#include "cc_util.h"
#include "emit/emit_asm.h"

#ifndef ECOPT_FIAT_DIR
#define ECOPT_FIAT_DIR "../shared/fiat-json"
#endif

#define MAXRUNS 51

typedef struct {
    const char *json, *fn, *label;
    const char *fiat_time; /* fiat-crypto's published checker time for this multiply */
} bench_func;

static const bench_func funcs[] = {
    { "curve25519_64.json", "fiat_25519_carry_mul", "curve25519", "0.29 s" },
    { "p256_64.json", "fiat_p256_mul", "p256", "1.07 s" },
    { "p384_64.json", "fiat_p384_mul", "p384", "29 s" },
    { "p434_64.json", "fiat_p434_mul", "p434", "315 s" },
};

typedef struct {
    const char *label; /* as printed */
    const char *cc;    /* NULL: emit_asm */
    const char *opt;
} bench_source;

static const bench_source sources[] = {
    { "gcc -O2 -fno-tree-vectorize", "gcc", "-O2 -fno-tree-vectorize" },
    { "clang -O2 -fno-vectorize -fno-slp-vectorize", "clang", "-O2 -fno-vectorize -fno-slp-vectorize" },
    { "gcc -O3 -march=native", "gcc", "-O3 -march=native" },
    { "clang -O3 -march=native", "clang", "-O3 -march=native" },
    { "gcc -O3 -march=native -fno-tree-vectorize", "gcc", "-O3 -march=native -fno-tree-vectorize" },
    { "clang -O3 -march=native -fno-vectorize -fno-slp-vectorize", "clang",
      "-O3 -march=native -fno-vectorize -fno-slp-vectorize" },
    { "emit_asm (optimizer-style: mulx, adcx/adox)", NULL, NULL },
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static char *read_text(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!fp)
        return NULL;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) != NULL) {
        if (fread(buf, 1, (size_t)n, fp) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else {
            buf[n] = 0;
            *len = (size_t)n;
        }
    }
    fclose(fp);
    return buf;
}

static int write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    size_t n = strlen(text);
    int bad = fwrite(text, 1, n, fp) != n;
    bad |= fclose(fp) != 0;
    return bad ? -1 : 0;
}

/* The code for one source: an object or a .S in dir, path into path. 0, -1 with err (a row that says why). */
static int make_code(const bench_source *s, const ir_func *f, const char *csrc, const char *dir, const char *stem,
                     char *path, size_t plen, char *err, size_t errlen)
{
    if (s->cc) {
        if (!cc_available(s->cc)) {
            snprintf(err, errlen, "%s not installed", s->cc);
            return -1;
        }
        return cc_build_obj(s->cc, s->opt, csrc, dir, stem, path, plen, err, errlen);
    }
    char e[512], *text = NULL;
    ir_func *low = ir_lower(f, e, sizeof e);
    if (!low) {
        snprintf(err, errlen, "ir_lower: %s", e);
        return -1;
    }
    int rc = emit_asm(low, NULL, &text, NULL, e, sizeof e);
    ir_func_free(low);
    if (rc != 0) {
        snprintf(err, errlen, "emit_asm: %s", e);
        return -1;
    }
    snprintf(path, plen, "%s/%s.S", dir, stem);
    rc = write_text(path, text);
    free(text);
    if (rc != 0) {
        snprintf(err, errlen, "cannot write %s", path);
        return -1;
    }
    return 0;
}

static void row(FILE *out, FILE *copy, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void row(FILE *out, FILE *copy, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fflush(out);
    if (copy) {
        va_start(ap, fmt);
        vfprintf(copy, fmt, ap);
        va_end(ap);
        fflush(copy);
    }
}

static int usage(void)
{
    fputs("usage: check_times [--fiat DIR] [--runs N] [--timeout-ms N] [--max-seconds S] [--only NAME] [--out FILE]\n",
          stderr);
    return 2;
}

int main(int argc, char **argv)
{
    const char *fiat = ECOPT_FIAT_DIR, *only = NULL, *outpath = NULL;
    int runs = 5;
    unsigned timeout_ms = 0;
    double max_seconds = 30;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--fiat") == 0 && v)
            fiat = v, i++;
        else if (strcmp(a, "--runs") == 0 && v && (runs = atoi(v)) >= 1 && runs <= MAXRUNS)
            i++;
        else if (strcmp(a, "--timeout-ms") == 0 && v && atoi(v) > 0)
            timeout_ms = (unsigned)atoi(v), i++;
        else if (strcmp(a, "--max-seconds") == 0 && v && (max_seconds = atof(v)) > 0)
            i++;
        else if (strcmp(a, "--only") == 0 && v)
            only = v, i++;
        else if (strcmp(a, "--out") == 0 && v)
            outpath = v, i++;
        else
            return usage();
    }
    FILE *copy = NULL;
    if (outpath && !(copy = fopen(outpath, "w"))) {
        fprintf(stderr, "check_times: %s: cannot write\n", outpath);
        return 1;
    }
    char dir[512], err[4096];
    if (cc_tmpdir(dir, sizeof dir, err, sizeof err) != 0) {
        fprintf(stderr, "check_times: %s\n", err);
        return 1;
    }
    check_opts co;
    memset(&co, 0, sizeof co);
    co.timeout_ms = timeout_ms;

    row(stdout, copy, "ecopt check: time of check_function (median of %d runs; wall clock, one thread)\n\n", runs);
    row(stdout, copy,
        "| function | code source | instructions | limbs identical / linear / by z3 | verdict | seconds | exec + solver s "
        "| fiat's checker |\n"
        "|---|---|---:|---:|---|---:|---:|---:|\n");
    int status = 0;
    for (size_t k = 0; k < sizeof funcs / sizeof funcs[0]; k++) {
        const bench_func *bf = &funcs[k];
        if (only && strcmp(only, bf->label) != 0 && strcmp(only, bf->fn) != 0)
            continue;
        char path[1024];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", fiat, bf->json);
        char *json = read_text(path, &len);
        ir_func *f = json ? ir_fiat_load(json, len, path, bf->fn, err, sizeof err) : NULL;
        free(json);
        if (!f) {
            row(stdout, copy, "| %s | (cannot load %s: %s) | | | | | | %s |\n", bf->fn, path,
                json ? err : "cannot read", bf->fiat_time);
            status = 1;
            continue;
        }
        char *csrc = emit_c(f, NULL, err, sizeof err);
        for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
            const bench_source *src = &sources[s];
            char stem[64], code_path[1024];
            snprintf(stem, sizeof stem, "%s_%zu", bf->label, s);
            if (src->cc && !csrc) {
                row(stdout, copy, "| %s | %s | | | emit_c failed: %s | | | %s |\n", bf->fn, src->label, err,
                    bf->fiat_time);
                continue;
            }
            if (make_code(src, f, csrc, dir, stem, code_path, sizeof code_path, err, sizeof err) != 0) {
                char *nl = strchr(err, '\n');
                if (nl)
                    *nl = 0;
                row(stdout, copy, "| %s | %s | | | %s | | | %s |\n", bf->fn, src->label, err, bf->fiat_time);
                continue;
            }
            check_code code;
            if (check_code_read(code_path, bf->fn, &code, err, sizeof err) != 0) {
                row(stdout, copy, "| %s | %s | | | cannot read the code: %s | | | %s |\n", bf->fn, src->label, err,
                    bf->fiat_time);
                continue;
            }
            check_insn_list insns;
            size_t ninsns = 0;
            memset(&insns, 0, sizeof insns);
            if (check_decode_code(&code, &insns, err, sizeof err) == 0)
                ninsns = insns.n;
            check_insn_list_free(&insns);
            double t[MAXRUNS];
            int done = 0;
            check_result r;
            for (int i = 0; i < runs; i++) {
                double t0 = now();
                check_function(f, &code, &co, &r);
                t[done++] = now() - t0;
                if (r.verdict != CHECK_PROVED || t[done - 1] > max_seconds)
                    break; /* a rejection is as fast every time; a slow check is not repeated */
            }
            check_code_free(&code);
            qsort(t, (size_t)done, sizeof t[0], cmp_double);
            char verdict[900];
            if (r.verdict == CHECK_PROVED)
                snprintf(verdict, sizeof verdict, "PROVED");
            else if (r.verdict == CHECK_REJECTED) {
                const char *rule = check_rule_name(r.rule), *why = r.reason;
                size_t rl = strlen(rule);
                if (strncmp(why, rule, rl) == 0 && why[rl] == ':' && why[rl + 1] == ' ')
                    why += rl + 2;
                snprintf(verdict, sizeof verdict, "REJECTED %s: %.700s", rule, why);
            }
            else
                snprintf(verdict, sizeof verdict, "bad input: %.700s", r.reason);
            for (char *p = verdict; *p; p++)
                if (*p == '|')
                    *p = '/';
            char nrun[32] = "";
            if (done < runs)
                snprintf(nrun, sizeof nrun, " (%d run%s)", done, done == 1 ? "" : "s");
            row(stdout, copy, "| %s | %s | %zu | %u / %u / %u | %s | %.4f%s | %.3f + %.3f | %s |\n", bf->fn,
                src->label, ninsns, r.nlimbs_identical, r.nlimbs_linear, r.nlimbs_smt, verdict, t[done / 2], nrun,
                r.seconds_exec, r.seconds_smt,
                bf->fiat_time);
        }
        free(csrc);
        ir_func_free(f);
    }
    cc_rmtree(dir);
    if (copy)
        fclose(copy);
    return status;
}
