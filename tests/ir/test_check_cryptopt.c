/* test_check_cryptopt.c — `ecopt check` on code it did not write: CryptOpt's published x86-64 functions
 * (../shared/cryptopt-fiat-amd64, NASM syntax; its README maps each folder to its fiat program), each assembled with
 * `nasm -f elf64` and checked against its fiat-crypto program (../shared/fiat-json).
 *
 * The expected verdict is decided without the checker, on the CPU: the function's bytes (check_code_read of the
 * object) are copied into executable memory and called on random inputs within the program's limb bounds (and the
 * all-upper / all-lower corners), once per aliasing case the program allows: disjoint buffers, and out1 given the
 * very buffer of arg1 (of arg2, ...) holding that input, and, when out1 may alias both arguments, out1, arg1 and
 * arg2 all one buffer holding arg1's values (arg2 := arg1); each output is compared with ir_eval of the program on
 * the original inputs. A file whose runs all agree must be PROVED; a file whose runs differ in some case must be
 * REJECTED output-differs naming the first such case (check.c tries disjoint, then out1 == arg1, out1 == arg2,
 * then out1 == arg1 == arg2, in that order), or, for the disjoint case, REJECTED with no case named. Any other verdict is a failure. The runs
 * cannot prove a file correct, so a file the CPU finds no difference in but the checker rejects is reported as a
 * wrong rejection together with the checker's counterexample.
 *
 * Prints one line per file (verdict, the CPU's finding, seconds) and the counts. Usage:
 *   test_check_cryptopt SAMPLE_DIR FIAT_JSON_DIR [--only SUBSTR[,SUBSTR...]] [--runs N]
 *                       [--known-unproved SUBSTR[,SUBSTR...]]
 * A file named by --known-unproved is correct on the CPU but beyond the solver today: REJECTED unproved passes (and
 * is counted), PROVED passes with a note to drop it from the list, any other verdict fails.
 * Exit 0 pass, 1 fail, 77 skip (no BMI2/ADX on this CPU, no nasm, no sample). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <dirent.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check/check.h"
#include "check/elf.h"
#include "ir/ir.h"

extern char **environ;

static int failures;
#define FAIL(...)                                                                                                    \
    do {                                                                                                             \
        printf("FAIL: " __VA_ARGS__);                                                                                \
        printf("\n");                                                                                                \
        failures++;                                                                                                  \
    } while (0)

static uint64_t rng_state = 0xc0ffee;
static uint64_t rng(void)
{
    /* splitmix64 (Steele, Lea, Flood, OOPSLA 2014) */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* has_bmi2_adx — CPUID leaf 7 ebx: BMI2 (bit 8: mulx shlx shrx bzhi), ADX (bit 19: adcx adox) */
static bool has_bmi2_adx(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return false;
    return (b >> 8 & 1) && (b >> 19 & 1);
}

/* run_quiet — argv with standard output and error to /dev/null; its exit status, or -1 */
static int run_quiet(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(fp);
    if (b) {
        b[n] = '\0';
        *len = (size_t)n;
    }
    return b;
}

/* the sample README's mapping: folder -> JSON file and function */
static void program_of(const char *folder, char *json, size_t jl, char *fn, size_t fl)
{
    static const struct {
        const char *folder, *json, *fn;
    } special[] = {
        { "fiat_curve25519_carry_mul", "curve25519_64", "fiat_25519_carry_mul" },
        { "fiat_curve25519_carry_square", "curve25519_64", "fiat_25519_carry_square" },
        { "fiat_p448_solinas_carry_mul", "p448_solinas_64", "fiat_p448_carry_mul" },
        { "fiat_p448_solinas_carry_square", "p448_solinas_64", "fiat_p448_carry_square" },
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (!strcmp(folder, special[i].folder)) {
            snprintf(json, jl, "%s", special[i].json);
            snprintf(fn, fl, "%s", special[i].fn);
            return;
        }
    /* fiat_<curve>_[carry_]mul|square -> <curve>_64 */
    char c[128];
    snprintf(c, sizeof c, "%s", folder + 5);
    static const char *const tails[] = { "_carry_mul", "_carry_square", "_mul", "_square" };
    for (size_t i = 0; i < 4; i++) {
        size_t n = strlen(c), t = strlen(tails[i]);
        if (n > t && !strcmp(c + n - t, tails[i])) {
            c[n - t] = '\0';
            break;
        }
    }
    snprintf(json, jl, "%s_64", c);
    snprintf(fn, fl, "%s", folder);
}

typedef void (*fn3)(uint64_t *, const uint64_t *, const uint64_t *);
typedef void (*fn2)(uint64_t *, const uint64_t *);

/* cpu_case — run code (mapped) in one aliasing case: alias_arr f->narr disjoint, CASE_BOTH out1, arg1 and arg2 one
 * buffer (arg2's values arg1's), else out1 is input array alias_arr's buffer; on runs inputs. Returns the number of
 * inputs on which some output limb differs from ir_eval's */
enum { CASE_BOTH = 100 };
static long cpu_case(const ir_func *f, void *code, uint32_t alias_arr, unsigned runs)
{
    uint32_t o = f->narr, ins[2], nin = 0;
    for (uint32_t j = 0; j < f->narr; j++) {
        if (f->arr[j].is_output && o == f->narr)
            o = j;
        else if (!f->arr[j].is_output && nin < 2)
            ins[nin++] = j;
    }
    uint64_t in[16][32], want[32], buf[32];
    const uint64_t *inp[16];
    uint64_t *outp[16];
    long nd = 0;
    for (unsigned r = 0; r < runs; r++) {
        for (uint32_t j = 0; j < f->narr; j++) {
            inp[j] = in[j];
            outp[j] = j == o ? want : in[j];
            if (f->arr[j].is_output)
                continue;
            for (uint32_t i = 0; i < f->arr[j].len && i < 32; i++) {
                uint64_t lo = (uint64_t)f->arr[j].lo[i], hi = (uint64_t)f->arr[j].hi[i], z = rng();
                in[j][i] = r == 0 ? hi : r == 1 ? lo : hi - lo == ~(uint64_t)0 ? z : lo + z % (hi - lo + 1);
            }
        }
        if (alias_arr == CASE_BOTH) /* arg2 := arg1 (the caller checked lengths and bounds are the same) */
            memcpy(in[ins[1]], in[ins[0]], f->arr[ins[0]].len * sizeof in[0][0]);
        if (ir_eval(f, inp, outp) != 0)
            return -1;
        uint64_t *a[3] = { buf, in[ins[0]], nin > 1 ? in[ins[1]] : NULL };
        for (uint32_t i = 0; i < 32; i++)
            buf[i] = 0xa5a5a5a5deadbeefull;
        if (alias_arr == CASE_BOTH) {
            memcpy(buf, in[ins[0]], f->arr[ins[0]].len * sizeof *buf);
            a[1] = a[2] = buf;
        } else if (alias_arr != f->narr) {
            memcpy(buf, in[alias_arr], f->arr[alias_arr].len * sizeof *buf);
            for (uint32_t q = 0; q < nin; q++)
                if (ins[q] == alias_arr)
                    a[1 + q] = buf;
        }
        if (nin == 2)
            ((fn3)code)(a[0], a[1], a[2]);
        else
            ((fn2)code)(a[0], a[1]);
        if (memcmp(buf, want, f->arr[o].len * sizeof *buf) != 0)
            nd++;
    }
    return nd;
}

static bool only_match(const char *only, const char *s)
{
    if (!only)
        return true;
    char b[512];
    snprintf(b, sizeof b, "%s", only);
    for (char *t = strtok(b, ","); t; t = strtok(NULL, ","))
        if (strstr(s, t))
            return true;
    return false;
}

static int cmpstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_check_cryptopt SAMPLE_DIR FIAT_JSON_DIR [--only S[,S...]] [--runs N] "
                        "[--known-unproved S[,S...]]\n");
        return 2;
    }
    const char *sample = argv[1], *fiat = argv[2], *only = NULL, *known_unproved = NULL;
    unsigned runs = 2000;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--known-unproved") && i + 1 < argc)
            known_unproved = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = (unsigned)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "test_check_cryptopt: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!has_bmi2_adx()) {
        printf("SKIP: this CPU lacks BMI2 or ADX (the sample uses mulx, adcx, adox)\n");
        return 77;
    }
    char *nv[] = { (char *)"nasm", (char *)"-v", NULL };
    if (run_quiet(nv) != 0) {
        printf("SKIP: nasm is not installed (scripts/install-deps.sh installs it)\n");
        return 77;
    }
    DIR *top = opendir(sample);
    if (!top) {
        printf("SKIP: no sample at %s\n", sample);
        return 77;
    }
    char *folders[64];
    unsigned nf = 0;
    for (struct dirent *e; (e = readdir(top)) && nf < 64;)
        if (!strncmp(e->d_name, "fiat_", 5))
            folders[nf++] = strdup(e->d_name);
    closedir(top);
    qsort(folders, nf, sizeof *folders, cmpstr);
    char tmpl[] = "/tmp/ecopt-cryptopt-XXXXXX";
    char *tmp = mkdtemp(tmpl);
    if (!tmp) {
        FAIL("mkdtemp");
        return 1;
    }
    unsigned nfiles = 0, nproved = 0, nrej_alias = 0, nrej_other = 0, nknown = 0, nbad = 0, nslow = 0;
    double tmax = 0, ttotal = 0;
    char worst[256] = "";
    check_opts opts;
    memset(&opts, 0, sizeof opts);
    for (unsigned fi = 0; fi < nf; fi++) {
        char json[128], fname[128], path[1024];
        program_of(folders[fi], json, sizeof json, fname, sizeof fname);
        snprintf(path, sizeof path, "%s/%s.json", fiat, json);
        size_t jlen = 0;
        char *jtext = read_all(path, &jlen), err[512];
        ir_func *f = jtext ? ir_fiat_load(jtext, jlen, path, fname, err, sizeof err) : NULL;
        free(jtext);
        if (!f) {
            FAIL("%s: cannot load %s from %s: %s", folders[fi], fname, path, jtext ? err : "unreadable");
            continue;
        }
        if (ir_validate(f) != 0 || ir_bounds(f) != 0) {
            FAIL("%s: %s does not validate: %s", folders[fi], fname, f->err);
            ir_func_free(f);
            continue;
        }
        /* the aliasing cases the program allows, in the checker's order */
        uint32_t out = f->narr, cases[8], ncases = 0;
        unsigned nout = 0;
        for (uint32_t j = 0; j < f->narr; j++)
            if (f->arr[j].is_output) {
                nout++;
                if (out == f->narr)
                    out = j;
            }
        if (nout != 1 || f->narr > 3) {
            FAIL("%s: %s is not a fiat out1, arg1[, arg2] function", folders[fi], fname);
            ir_func_free(f);
            continue;
        }
        cases[ncases++] = f->narr; /* disjoint */
        for (uint32_t j = 0; j < f->narr && ncases < 8; j++)
            if (!f->arr[j].is_output && (f->arr[out].alias >> j & 1))
                cases[ncases++] = j;
        if (ncases == 3) { /* out1 may alias both: the case out1 == arg1 == arg2, if the two can be one array */
            const ir_array *a1 = &f->arr[cases[1]], *a2 = &f->arr[cases[2]];
            bool same = a1->len == a2->len && a1->len == f->arr[out].len;
            for (uint32_t i = 0; same && i < a1->len; i++)
                same = a1->lo[i] == a2->lo[i] && a1->hi[i] == a2->hi[i];
            if (!same) {
                FAIL("%s: %s: arg1 and arg2 differ in length or bounds (the CPU runs assume they do not)",
                     folders[fi], fname);
                ir_func_free(f);
                continue;
            }
            cases[ncases++] = CASE_BOTH;
        }
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", sample, folders[fi]);
        DIR *d = opendir(dir);
        char *files[64];
        unsigned nfl = 0;
        for (struct dirent *e; d && (e = readdir(d)) && nfl < 64;) {
            size_t n = strlen(e->d_name);
            if (n > 4 && !strcmp(e->d_name + n - 4, ".asm"))
                files[nfl++] = strdup(e->d_name);
        }
        if (d)
            closedir(d);
        qsort(files, nfl, sizeof *files, cmpstr);
        for (unsigned k = 0; k < nfl; k++) {
            char label[256], asmp[1200], obj[1200];
            snprintf(label, sizeof label, "%s/%s", folders[fi], files[k]);
            if (!only_match(only, label)) {
                free(files[k]);
                continue;
            }
            snprintf(asmp, sizeof asmp, "%s/%s", dir, files[k]);
            snprintf(obj, sizeof obj, "%s/x.o", tmp);
            char *av[] = { (char *)"nasm", (char *)"-f", (char *)"elf64", (char *)"-o", obj, asmp, NULL };
            nfiles++;
            if (run_quiet(av) != 0) {
                FAIL("%s: nasm failed", label);
                free(files[k]);
                continue;
            }
            /* the expectation, from the CPU */
            check_code code;
            if (check_code_read(obj, folders[fi], &code, err, sizeof err) != 0) {
                FAIL("%s: %s", label, err);
                free(files[k]);
                continue;
            }
            size_t pg = (size_t)sysconf(_SC_PAGESIZE), sz = (code.size + pg - 1) / pg * pg;
            void *mem = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (mem == MAP_FAILED) {
                FAIL("mmap");
                check_code_free(&code);
                break;
            }
            memcpy(mem, code.bytes, code.size);
            mprotect(mem, sz, PROT_READ | PROT_EXEC);
            long nd[8];
            int first_wrong = -1;
            for (uint32_t c = 0; c < ncases; c++) {
                nd[c] = cpu_case(f, mem, cases[c], runs);
                if (nd[c] != 0 && first_wrong < 0)
                    first_wrong = (int)c;
            }
            munmap(mem, sz);
            check_code_free(&code);
            char want_case[160] = "";
            if (first_wrong > 0 && cases[first_wrong] == CASE_BOTH)
                snprintf(want_case, sizeof want_case, "%s == %s == %s", f->arr[out].name, f->arr[cases[1]].name,
                         f->arr[cases[2]].name);
            else if (first_wrong > 0)
                snprintf(want_case, sizeof want_case, "%s == %s", f->arr[out].name, f->arr[cases[first_wrong]].name);
            char cpu[256];
            size_t at = 0;
            cpu[0] = '\0';
            for (uint32_t c = 0; c < ncases; c++) {
                char nm[160];
                if (c == 0)
                    snprintf(nm, sizeof nm, "disjoint");
                else if (cases[c] == CASE_BOTH)
                    snprintf(nm, sizeof nm, "==%s==%s", f->arr[cases[1]].name, f->arr[cases[2]].name);
                else
                    snprintf(nm, sizeof nm, "==%s", f->arr[cases[c]].name);
                at += (size_t)snprintf(cpu + at, sizeof cpu - at, "%s%s %s", c ? ", " : "", nm,
                                       nd[c] ? "differs" : "agrees");
            }
            /* the checker */
            check_result r;
            double t0 = now();
            check_file(f, obj, folders[fi], &opts, &r);
            double t = now() - t0;
            ttotal += t;
            if (t > tmax) {
                tmax = t;
                snprintf(worst, sizeof worst, "%s", label);
            }
            nslow += t >= 1.0;
            bool ok;
            bool known = first_wrong < 0 && known_unproved && only_match(known_unproved, label);
            if (known) {
                ok = r.verdict == CHECK_PROVED || (r.verdict == CHECK_REJECTED && r.rule == CHECK_RULE_UNPROVED);
                nknown += r.verdict != CHECK_PROVED;
                if (r.verdict == CHECK_PROVED)
                    printf("note: %s is PROVED now: drop it from --known-unproved\n", label);
            } else if (first_wrong < 0)
                ok = r.verdict == CHECK_PROVED;
            else
                ok = r.verdict == CHECK_REJECTED && r.rule == CHECK_RULE_OUTPUT_DIFFERS &&
                     !strcmp(r.alias_case, want_case);
            if (r.verdict == CHECK_PROVED)
                nproved++;
            else if (r.verdict == CHECK_REJECTED && r.alias_case[0])
                nrej_alias++;
            else if (r.verdict == CHECK_REJECTED)
                nrej_other++;
            else
                nbad++;
            char vc[160];
            snprintf(vc, sizeof vc, "%s%s%s%s%s",
                     r.verdict == CHECK_PROVED ? "PROVED" : r.verdict == CHECK_REJECTED ? "REJECTED " : "BAD_INPUT",
                     r.verdict == CHECK_REJECTED ? check_rule_name(r.rule) : "", r.alias_case[0] ? " (" : "",
                     r.alias_case, r.alias_case[0] ? ")" : "");
            printf("%-70s %7.3f s  %-36s [CPU: %s; cases %u, %u by the disjoint proof]\n", label, t, vc, cpu,
                   r.ncases, r.ncases_same);
            if (!ok) {
                FAIL("%s: expected %s%s%s, got %s %s (%s): %s %s", label,
                     first_wrong < 0 ? "PROVED" : "REJECTED output-differs", want_case[0] ? " in case " : "",
                     want_case, r.verdict == CHECK_PROVED ? "PROVED" : "not PROVED",
                     r.verdict == CHECK_REJECTED ? check_rule_name(r.rule) : "", r.alias_case, r.reason, r.cex);
            }
            free(files[k]);
        }
        ir_func_free(f);
    }
    for (unsigned fi = 0; fi < nf; fi++)
        free(folders[fi]);
    char obj[1200];
    snprintf(obj, sizeof obj, "%s/x.o", tmp);
    unlink(obj);
    rmdir(tmp);
    printf("\n%u files: %u PROVED, %u REJECTED in an aliasing case, %u REJECTED otherwise (%u of them known "
           "unproved), %u bad input; check %.1f s in all, %u at 1 s or more, slowest %.2f s (%s); %d failures\n",
           nfiles, nproved, nrej_alias, nrej_other, nknown, nbad, ttotal, nslow, tmax, worst, failures);
    if (nfiles == 0) {
        printf("FAIL: no file matched\n");
        return 1;
    }
    return failures ? 1 : 0;
}
