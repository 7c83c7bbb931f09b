/* opt_cmd.c — `ecopt opt`: search for the fastest x86-64 code of a field-arithmetic IR function on this machine and
 * write it as a PROVED .S (DESIGN.md "The optimizer"; docs/optimizer.md).
 *
 * The program comes from a fiat-crypto JSON function, an IR text file or a generator spec (the readers of
 * `ecopt ir` / `ecopt gen`); it is lowered (ir_lower), searched (search/search.h: bet-and-run over schedules and
 * decisions, every candidate encoded with Zydis, tested against the interpreter and measured against the current
 * one), and the best candidate goes through the last gate (search_final_check): its .S, assembled by the system
 * assembler, must give exactly the measured bytes, and the checker (check/check.h) must prove it computes the
 * UNLOWERED program. Only then is OUT.S written.
 *
 * Exit status: 0 written; 1 the search failed or the result was not PROVED (nothing written); 2 bad input
 * (options, files, a program that does not load or lower); 3 writing failed, memory, or an unusable temporary
 * directory ($TMPDIR, else /tmp; checked before the search, see tmp_usable). */
#define _GNU_SOURCE /* sched_getaffinity, realpath */

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include "check/check.h"
#include "cli.h"
#include "program.h"
#include "ir/ir.h"
#include "search/measure.h"
#include "search/search.h"

const char cli_opt_help[] =
    "usage: ecopt opt PROGRAM -o OUT.S [--evals N] [--bets B] [--bet-ratio R] [--seed S] [--symbol SYM]\n"
    "                 [--hidden] [--cpu C] [--rounds N] [--objective latency|throughput] [-j N]\n"
    "                 [--target adx|x86-64] [--quiet]\n"
    "  PROGRAM: --fiat F.json --function NAME | --ir FILE.ir [--function NAME]\n"
    "           | --prime P --method M --limbs N --op OP\n"
    "\n"
    "Search for the fastest x86-64 assembly of a field-arithmetic program on this machine, and write it as an\n"
    "AT&T-syntax .S only when the equivalence checker has PROVED it computes the program. Signature:\n"
    "void f(outputs..., const inputs...) (System V, fiat order). How the search, the measurement and the\n"
    "result's choice work, and what OUT.S's header records: docs/optimizer.md.\n"
    "\n"
    "options:\n"
    "  --fiat F.json       a fiat-crypto JSON file, with --function NAME\n"
    "  --ir FILE.ir        a program in IR text form: its last function, or --function NAME\n"
    "  --prime P --method M --limbs N --op OP   a generated program (as in 'ecopt gen')\n"
    "  -o, --out OUT.S     the file to write (required)\n"
    "  --evals N           evaluations in all (default 20000)\n"
    "  --bets B            short runs first: run 0 from the program's own order, the others from random\n"
    "                      starts; the fastest continues (default 10, at most 64; 1: no bets)\n"
    "  --bet-ratio R       the share of the evaluations the bets use (default 0.2, from 0 to 1)\n"
    "  --seed S            the random seed (default 1): the same seed repeats the search, apart from timing\n"
    "  --symbol SYM        the function's symbol (default: the program's name)\n"
    "  --hidden            mark the symbol .hidden (for code built into a library)\n"
    "  --cpu C             pin the measurement to CPU C (default: the CPU it starts on)\n"
    "  --objective O       what every measurement times (candidates, compilers, the result):\n"
    "                      throughput (default): independent calls on the same inputs;\n"
    "                      latency: a dependent chain, each call's first output fed back as the next\n"
    "                      call's first input (and second, where its bounds allow), as a library calls\n"
    "                      its field operations; refused (exit 2) for a program whose first output is\n"
    "                      not a valid first input (other limbs, or wider bounds: an add, say)\n"
    "  -j, --jobs N        N independent searches (seeds S to S+N-1) in parallel processes, each on its\n"
    "                      own CPU of those this process may use (at most that many, and 32; not with\n"
    "                      --cpu); their results are measured again side by side on the first of those\n"
    "                      CPUs and the fastest is written (default 1: one search, in this process)\n"
    "  --rounds N          batches per screening measurement, candidate vs current (default 31; the final\n"
    "                      measurement against the compilers always takes 101)\n"
    "  --target T          the instruction set: adx (default; x86-64 with BMI2 and ADX: mulx, adcx, adox,\n"
    "                      bzhi, shlx, shrx) or x86-64 (baseline, every x86-64 CPU: mulq with rax and\n"
    "                      rdx, one carry chain on adcq/sbbq, and/shr/shl/shrd); the header's Target: line\n"
    "  --quiet             nothing on standard error but errors (no progress line, no summary)\n"
    "  -h, --help          this text\n"
    "\n"
    "examples:\n"
    "  ecopt opt --fiat ../shared/fiat-json/curve25519_64.json --function fiat_25519_carry_mul -o mul.S\n"
    "  ecopt opt --prime 2^255-19 --method solinas-unsaturated --limbs 5 --op mul -o fe_mul.S --symbol fe_mul \\\n"
    "      --hidden --evals 5000 --seed 2\n"
    "  ecopt opt --ir ladder.ir -o ladder.S --evals 2000 --quiet\n"
    "  ecopt opt --fiat ../shared/fiat-json/curve25519_64.json --function fiat_25519_carry_square -o sq.S \\\n"
    "      --objective latency -j 2\n"
    "\n"
    "exit status: 0 written; 1 not proved or the search failed (nothing written); 2 bad input; 3 writing\n"
    "failed, out of memory, or the temporary directory ($TMPDIR, else /tmp) is unusable (checked before\n"
    "the search).\n";

/* An unsigned decimal in [lo, hi]. */
static int parse_u64(const cli_opt *o, unsigned long long lo, unsigned long long hi, unsigned long long *v)
{
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(o->value, &end, 10);
    if (!o->value[0] || *end || o->value[0] == '-' || o->value[0] == '+' || errno || x < lo || x > hi)
        return cli_fail(CLI_USAGE, o->longname, "'%s' is not a whole number from %llu to %llu", o->value, lo, hi);
    *v = x;
    return CLI_OK;
}

static int is_identifier(const char *s)
{
    if (!s[0] || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return 1;
}

/* shell_word — a as one shell word (into out, size cap): as it is when every character is in [A-Za-z0-9_./:=@%^+,-]
 * and it does not start with '-', else in bash's $'...' quoting with every other byte as \xNN. So the header's
 * command line can be run again, and no newline or comment end reaches the header comment. */
static void shell_word(char *out, size_t cap, const char *a)
{
    static const char safe[] = "_./:=@%^+,-";
    int plain = a[0] && a[0] != '-';
    for (const char *p = a; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                strchr(safe, *p) != NULL;
    if (plain) {
        snprintf(out, cap, "%s", a);
        return;
    }
    size_t o = (size_t)snprintf(out, cap, "$'");
    for (const unsigned char *p = (const unsigned char *)a; *p && o + 8 < cap; p++) {
        int keep = *p != '\\' && *p != '\'' && *p != '/' && *p > ' ' && *p < 0x7f;
        o += (size_t)snprintf(out + o, cap - o, keep ? "%c" : "\\x%02x", *p);
    }
    snprintf(out + o, cap - o, "'");
}

/* Append printf-formatted text to buf (size cap, NUL-terminated), cut to fit. */
static void appendf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t cap, const char *fmt, ...)
{
    size_t l = strlen(buf);
    if (l + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + l, cap - l, fmt, ap);
    va_end(ap);
}

/* Append " text" to buf (len cap) as it is (option names, the fixed tail). */
static void cat_raw(char *buf, size_t cap, const char *t)
{
    size_t l = strlen(buf);
    if (l + 1 < cap)
        snprintf(buf + l, cap - l, " %s", t);
}

/* Append " arg" to buf (len cap), arg as one shell word (for the header's command line). */
static void cat_arg(char *buf, size_t cap, const char *a)
{
    char w[600];
    shell_word(w, sizeof w, a);
    size_t l = strlen(buf);
    if (l + 1 < cap)
        snprintf(buf + l, cap - l, " %s", w);
}

/* out_usable — whether -o names a file that can be written, checked before the search (which takes minutes): "-"
 * (standard output), a name of a descriptor such as /dev/stdout, an existing non-regular file (written through, as cli_write_file does), or a name whose
 * directory exists and takes a new file (the output is written to a temporary name there and renamed). */
static int out_usable(const char *path)
{
    struct stat st;
    if (!path[0])
        return cli_fail(CLI_USAGE, "-o", "empty file name");
    if (strcmp(path, "-") == 0)
        return CLI_OK;
    int outfd;
    int sp = cli_path_fd(path, &outfd);
    if (sp > 0) /* /dev/stdout and the like: written through the descriptor */
        return CLI_OK;
    if (sp < 0)
        return cli_fail(CLI_USAGE, path, "a descriptor of another process: not written (use -o - or a file name)");
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return cli_fail(CLI_USAGE, path, "is a directory");
        if (!S_ISREG(st.st_mode))
            return CLI_OK;
    }
    char real[PATH_MAX], dir[PATH_MAX];
    const char *target = realpath(path, real) ? real : path; /* a link to a regular file: its target's directory */
    snprintf(dir, sizeof dir, "%s", target);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cli_fail(CLI_USAGE, path, "no such directory: %s", dir);
    /* try it (permission bits do not tell root's answer, nor a read-only or special file system's) */
    char probe[PATH_MAX + 32];
    snprintf(probe, sizeof probe, "%s/.ecopt-opt-XXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0)
        return cli_fail(CLI_USAGE, path, "cannot create a file in %s: %s", dir, strerror(errno));
    close(fd);
    unlink(probe);
    return CLI_OK;
}

/* tmp_usable — whether $TMPDIR (else /tmp) takes a new directory, checked before the search: the final check
 * assembles the result there (search_final_check), which would otherwise fail only after the whole search. A probe
 * directory of the same shape and length limit (512 bytes) as search_final_check's, removed again. An unusable one
 * is the environment's fault: exit 3, named as `ecopt check` names it (check/elf.c). */
static int tmp_usable(void)
{
    const char *tmp = getenv("TMPDIR");
    const char *base = tmp && *tmp ? tmp : "/tmp";
    const char *which = tmp && *tmp ? "TMPDIR" : "TMPDIR is not set";
    char dir[512];
    if (snprintf(dir, sizeof dir, "%s/ecopt-opt-XXXXXX", base) >= (int)sizeof dir)
        return cli_fail(CLI_ENV, base, "the temporary directory is unusable (%s): its name is too long", which);
    if (!mkdtemp(dir))
        return cli_fail(CLI_ENV, base, "the temporary directory is unusable (%s): %s", which, strerror(errno));
    rmdir(dir);
    return CLI_OK;
}

/* The CPUs this process may run on, in increasing order, into cpus (at most max); returns how many (0 when
 * sched_getaffinity fails). */
static int allowed_cpu_list(int *cpus, int max)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set))
            cpus[n++] = c;
    return n;
}

/* The CPUs this process may run on, as "0-1" or "0,2,5" (at most len bytes). */
static void allowed_cpus(char *buf, size_t len)
{
    cpu_set_t set;
    buf[0] = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    size_t o = 0;
    for (int c = 0; c < CPU_SETSIZE && o + 16 < len; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
            e++;
        o += (size_t)snprintf(buf + o, len - o, e > c ? "%s%d-%d" : "%s%d", o ? "," : "", c, e);
        c = e;
    }
}

int cli_cmd_opt(int argc, char **argv)
{
    cli_opt opts[] = { { NULL, "--fiat", 1, NULL, 0 },      { NULL, "--function", 1, NULL, 0 },
                       { NULL, "--ir", 1, NULL, 0 },        { NULL, "--prime", 1, NULL, 0 },
                       { NULL, "--method", 1, NULL, 0 },    { NULL, "--limbs", 1, NULL, 0 },
                       { NULL, "--op", 1, NULL, 0 },        { "-o", "--out", 1, NULL, 0 },
                       { NULL, "--evals", 1, NULL, 0 },     { NULL, "--bets", 1, NULL, 0 },
                       { NULL, "--bet-ratio", 1, NULL, 0 }, { NULL, "--seed", 1, NULL, 0 },
                       { NULL, "--symbol", 1, NULL, 0 },    { NULL, "--hidden", 0, NULL, 0 },
                       { NULL, "--cpu", 1, NULL, 0 },       { NULL, "--quiet", 0, NULL, 0 },
                       { NULL, "--rounds", 1, NULL, 0 },    { NULL, "--objective", 1, NULL, 0 },
                       { "-j", "--jobs", 1, NULL, 0 },      { NULL, "--target", 1, NULL, 0 } };
    cli_opt *o_fiat = &opts[0], *o_function = &opts[1], *o_ir = &opts[2], *o_prime = &opts[3], *o_method = &opts[4],
            *o_limbs = &opts[5], *o_op = &opts[6], *o_out = &opts[7], *o_evals = &opts[8], *o_bets = &opts[9],
            *o_ratio = &opts[10], *o_seed = &opts[11], *o_symbol = &opts[12], *o_hidden = &opts[13],
            *o_cpu = &opts[14], *o_quiet = &opts[15], *o_rounds = &opts[16], *o_objective = &opts[17],
            *o_jobs = &opts[18], *o_target = &opts[19];
    size_t npos = 0;
    int rc;
    ir_func *f = NULL, *low = NULL;
    search_opts so;
    search_result sr;
    check_result cr;
    char err[1024], hex[65] = "", source[1600], command[2048] = "ecopt opt";
    char *extra = NULL, *final = NULL;
    unsigned long long v;
    unsigned jobs = 1;
    int jcpus[CPU_SETSIZE];
    char chain[192] = "", objective[320];
    search_jobs_info ji;

    rc = cli_parse_opts(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, 0, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(cli_opt_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    cli_program_src src = { o_fiat, o_function, o_ir, o_prime, o_method, o_limbs, o_op };
    if ((rc = cli_program_check(&src, "opt")) != CLI_OK)
        return rc;
    if ((rc = cli_need(o_out, "-o OUT.S (the file to write)")) != CLI_OK)
        return rc;
    if ((rc = cli_out_not_input(o_out->value, o_fiat, o_ir, NULL)) != CLI_OK)
        return rc;
    if ((rc = out_usable(o_out->value)) != CLI_OK)
        return rc;
    if (o_symbol->given && !is_identifier(o_symbol->value))
        return cli_fail(CLI_USAGE, "--symbol", "'%s' is not a C identifier", o_symbol->value);

    search_opts_default(&so);
    if (o_evals->given) {
        if ((rc = parse_u64(o_evals, 1, 100000000ull, &v)) != CLI_OK)
            return rc;
        so.evals = v;
    }
    if (o_bets->given) {
        if ((rc = parse_u64(o_bets, 1, 64, &v)) != CLI_OK)
            return rc;
        so.bets = (unsigned)v;
    }
    if (o_ratio->given) {
        char *end = NULL;
        errno = 0;
        double r = strtod(o_ratio->value, &end);
        if (!o_ratio->value[0] || *end || errno || !(r >= 0 && r <= 1))
            return cli_fail(CLI_USAGE, "--bet-ratio", "'%s' is not a number from 0 to 1", o_ratio->value);
        so.bet_ratio = r;
    }
    if (o_seed->given) {
        if ((rc = parse_u64(o_seed, 0, UINT64_MAX, &v)) != CLI_OK)
            return rc;
        so.seed = v;
    }
    if (o_rounds->given) {
        if ((rc = parse_u64(o_rounds, 1, 1001, &v)) != CLI_OK)
            return rc;
        so.rounds = (int)v;
    }
    if (o_cpu->given) {
        if ((rc = parse_u64(o_cpu, 0, 4095, &v)) != CLI_OK)
            return rc;
        so.cpu = (int)v;
    }
    if (o_cpu->given) { /* a CPU this process may not run on is bad input, not a failed search */
        char perr[256];
        if (measure_pin(so.cpu, perr, sizeof perr) < 0) {
            char cpus[128];
            allowed_cpus(cpus, sizeof cpus);
            return cli_fail(CLI_USAGE, "--cpu", "%s is not a CPU this process may run on (%s%s)", o_cpu->value,
                            cpus[0] ? "allowed: " : "", cpus[0] ? cpus : perr);
        }
    }
    if (o_objective->given && measure_objective_parse(o_objective->value, &so.objective) != 0)
        return cli_fail(CLI_USAGE, "--objective", "'%s' is not latency or throughput", o_objective->value);
    if (o_target->given && emit_asm_target_parse(o_target->value, &so.target) != 0)
        return cli_fail(CLI_USAGE, "--target", "'%s' is not adx or x86-64", o_target->value);
    if (o_jobs->given) {
        char *end = NULL;
        errno = 0;
        unsigned long long n = strtoull(o_jobs->value, &end, 10);
        if (!o_jobs->value[0] || *end || !(o_jobs->value[0] >= '0' && o_jobs->value[0] <= '9') || errno || n < 1)
            return cli_fail(CLI_USAGE, "-j", "'%s' is not a whole number of searches, at least 1", o_jobs->value);
        int ncpu = allowed_cpu_list(jcpus, CPU_SETSIZE);
        if (n > 1 && o_cpu->given)
            return cli_fail(CLI_USAGE, "-j", "%llu searches each take a CPU of their own: not with --cpu", n);
        if (n > (unsigned long long)ncpu) {
            char list[128];
            allowed_cpus(list, sizeof list);
            return cli_fail(CLI_USAGE, "-j", "%llu searches, but this process may run on %d CPU%s (%s)", n, ncpu,
                            ncpu == 1 ? "" : "s", list[0] ? list : "sched_getaffinity failed");
        }
        if (n > SEARCH_MAX_JOBS)
            return cli_fail(CLI_USAGE, "-j", "%llu searches: at most %d", n, SEARCH_MAX_JOBS);
        jobs = (unsigned)n;
    }
    so.quiet = o_quiet->given != 0;
    so.hidden = o_hidden->given != 0;
    if ((rc = tmp_usable()) != CLI_OK) /* usage first (2), then the environment (3), before any work */
        return rc;

    /* the program */
    if ((rc = cli_program_load(&src, &f, hex)) != CLI_OK)
        return rc;
    if (ir_validate(f) != 0 || ir_bounds(f) != 0) {
        rc = cli_fail(CLI_USAGE, f->name, "%s", f->err);
        goto out;
    }
    if (so.objective == MEASURE_LATENCY && measure_chain(f, chain, sizeof chain) < 0) {
        rc = cli_fail(CLI_USAGE, f->name,
                      "--objective latency: its calls cannot be chained (the first output fed back as the first "
                      "input): %s",
                      chain);
        goto out;
    }
    if (so.objective == MEASURE_THROUGHPUT)
        snprintf(objective, sizeof objective, "independent calls: the same inputs every call, the outputs to separate "
                                              "buffers");
    else
        snprintf(objective, sizeof objective, "a dependent chain, %s: each call's output is the next call's input",
                 chain);
    low = ir_lower(f, err, sizeof err);
    if (!low) {
        rc = cli_fail(CLI_USAGE, f->name, "cannot lower: %s", err);
        goto out;
    }
    so.symbol = o_symbol->given ? o_symbol->value : f->name;

    /* the command line and the source, for the header */
    char w1[300], w2[300];
    if (o_fiat->given) {
        cat_raw(command, sizeof command, "--fiat");
        cat_arg(command, sizeof command, cli_base_name(o_fiat->value));
        cat_raw(command, sizeof command, "--function");
        cat_arg(command, sizeof command, o_function->value);
        shell_word(w1, sizeof w1, cli_base_name(o_fiat->value));
        shell_word(w2, sizeof w2, o_function->value);
        snprintf(source, sizeof source, "%s, function %s", w1, w2);
    } else if (o_ir->given) {
        cat_raw(command, sizeof command, "--ir");
        cat_arg(command, sizeof command, cli_base_name(o_ir->value));
        if (o_function->given) {
            cat_raw(command, sizeof command, "--function");
            cat_arg(command, sizeof command, o_function->value);
        }
        shell_word(w1, sizeof w1, cli_base_name(o_ir->value));
        snprintf(source, sizeof source, "%s, function %s", w1, f->name);
    } else {
        char w3[300], w4[300];
        shell_word(w1, sizeof w1, o_prime->value);
        shell_word(w2, sizeof w2, o_method->value);
        shell_word(w3, sizeof w3, o_limbs->value);
        shell_word(w4, sizeof w4, o_op->value);
        snprintf(source, sizeof source, "ecopt gen --prime %s --method %s --limbs %s --op %s (its IR text)", w1, w2,
                 w3, w4);
        const cli_opt *g[4] = { o_prime, o_method, o_limbs, o_op };
        for (int i = 0; i < 4; i++) {
            cat_raw(command, sizeof command, g[i]->longname);
            cat_arg(command, sizeof command, g[i]->value);
        }
    }
    {
        char tail[256];
        snprintf(tail, sizeof tail, "--evals %llu --bets %u --bet-ratio %g --seed %llu --rounds %d --objective %s",
                 (unsigned long long)so.evals, so.bets, so.bet_ratio, (unsigned long long)so.seed, so.rounds,
                 measure_objective_name(so.objective));
        cat_raw(command, sizeof command, tail);
        if (jobs > 1) {
            snprintf(tail, sizeof tail, "-j %u", jobs);
            cat_raw(command, sizeof command, tail);
        }
        if (o_symbol->given) {
            cat_raw(command, sizeof command, "--symbol");
            cat_arg(command, sizeof command, o_symbol->value);
        }
        if (so.hidden)
            cat_raw(command, sizeof command, "--hidden");
        if (so.target != EMIT_ASM_TARGET_ADX) {
            cat_raw(command, sizeof command, "--target");
            cat_raw(command, sizeof command, emit_asm_target_name(so.target));
        }
    }
    so.command = command;

    /* the search, or -j searches side by side */
    if (jobs > 1 ? search_run_jobs(low, f, &so, jobs, jcpus, &sr, &ji, err, sizeof err) != 0
                 : search_run(low, f, &so, &sr, err, sizeof err) != 0) {
        rc = cli_fail(CLI_NO, f->name, "search failed: %s", err);
        goto out;
    }
    if (sr.nwrong || sr.nfailed)
        fprintf(stderr, "ecopt opt: %s: warning: %llu candidates differed from the interpreter and %llu were refused "
                        "(code-generator bugs, never kept): %s\n",
                f->name, (unsigned long long)sr.nwrong, (unsigned long long)sr.nfailed, sr.wrong_msg);

    /* the last gate: assembled bytes equal to the measured ones, PROVED against the unlowered program */
    if (search_final_check(f, sr.text, so.symbol, sr.code, sr.code_len, NULL, &cr, err, sizeof err) != 0) {
        rc = cli_fail(CLI_NO, so.symbol, "%s", err);
        goto out_sr;
    }
    if (cr.verdict != CHECK_PROVED) {
        rc = cli_fail(CLI_NO, so.symbol, "not written: the checker says %s: %s: %s",
                      cr.verdict == CHECK_REJECTED ? "REJECTED" : "bad input", check_rule_name(cr.rule), cr.reason);
        goto out_sr;
    }
    /* the header; the text with it must still give the same bytes */
    {
        size_t cap = 8192;
        extra = malloc(cap);
        if (!extra) {
            rc = cli_fail(CLI_ENV, NULL, "out of memory");
            goto out_sr;
        }
        double sg = sr.speedup_gcc, sc = sr.speedup_clang; /* paired ratios (measure_run_ratio) */
        char own[192] = "", bet[64], seedline[128], par[3072] = "";
        uint64_t seed = so.seed;
        if (jobs > 1) {
            seed = ji.seed[ji.winner];
            appendf(par, sizeof par, "\nParallel:  -j %u: seeds", jobs);
            for (unsigned k = 0; k < jobs; k++)
                appendf(par, sizeof par, "%s%llu", k ? ", " : " ", (unsigned long long)ji.seed[k]);
            appendf(par, sizeof par, " on CPUs");
            for (unsigned k = 0; k < jobs; k++)
                appendf(par, sizeof par, "%s%d", k ? ", " : " ", ji.cpu[k]);
            appendf(par, sizeof par, "; their results measured again side by side on CPU %d with the compilers (%d "
                                     "rounds): ", ji.measure_cpu, so.final_rounds);
            for (unsigned k = 0; k < jobs; k++)
                appendf(par, sizeof par, "%s%.2f", k ? ", " : "", ji.ticks[k]);
            appendf(par, sizeof par, " %s, paired ratios to seed %llu's", sr.unit, (unsigned long long)ji.seed[0]);
            for (unsigned k = 0; k < jobs; k++)
                appendf(par, sizeof par, "%s%.4f", k ? ", " : " ", ji.ratio[k]);
            appendf(par, sizeof par, "; seed %llu won", (unsigned long long)seed);
            snprintf(seedline, sizeof seedline, "%llu (search %u of -j %u won; see Parallel)", (unsigned long long)seed,
                     ji.winner + 1, jobs);
        } else {
            snprintf(seedline, sizeof seedline, "%llu", (unsigned long long)seed);
        }
        if (sr.own_order_won)
            snprintf(own, sizeof own,
                     "; the program's own order: the search's best (%.2f %s) was not clearly faster (paired ratio "
                     "own/best %.4f, under 1.005)",
                     sr.ticks_search, sr.unit, sr.own_ratio);
        else if (sr.own_ratio > 0)
            snprintf(own, sizeof own, "; the program's own order took %.4fx its time (paired)", sr.own_ratio);
        if (sr.bets_run > 1)
            snprintf(bet, sizeof bet, "bet %u of %u continued", sr.bet_chosen, sr.bets_run);
        else
            snprintf(bet, sizeof bet, "no bets run");
        snprintf(extra, cap,
                 "\n"
                 "Source:    %s\n"
                 "Sha256:    %s\n"
                 "Seed:      %s\n"
                 "Evals:     %llu (bets %u, bet ratio %g, %s; %.0f evals/s, %.1f s; %llu kept, %llu wrong)%s\n"
                 "CPU:       %s\n"
                 "Objective: %s (%s)\n"
                 "Measured:  %.2f %s per call (median of %d interleaved batches)%s\n"
                 "Baselines: gcc %.2f %s (%s), clang %.2f %s (%s); -O3 -march=native -mtune=native, same run\n"
                 "Speedup:   %.3f vs gcc, %.3f vs clang (paired ratios of that measurement)\n"
                 "Checker:   PROVED (%u limbs: %u identical, %u linear, %u by z3; %.2f s)",
                 source, hex, seedline, (unsigned long long)sr.evals, so.bets, so.bet_ratio, bet, sr.evals_per_s,
                 sr.seconds, (unsigned long long)sr.nkept, (unsigned long long)sr.nwrong, par, sr.cpu_model,
                 measure_objective_name(so.objective), objective, sr.ticks, sr.unit, so.final_rounds,
                 own, sr.ticks_gcc, sr.unit,
                 sr.gcc_version[0] ? sr.gcc_version : "gcc", sr.ticks_clang, sr.unit,
                 sr.clang_version[0] ? sr.clang_version : "clang", sg, sc, cr.nlimbs, cr.nlimbs_identical,
                 cr.nlimbs_linear, cr.nlimbs_smt, cr.seconds_total);
    }
    final = search_add_header(sr.text, extra);
    if (!final) {
        rc = cli_fail(CLI_ENV, NULL, "out of memory");
        goto out_sr;
    }
    if (search_final_check(f, final, so.symbol, sr.code, sr.code_len, NULL, NULL, err, sizeof err) != 0) {
        rc = cli_fail(CLI_NO, so.symbol, "%s", err);
        goto out_sr;
    }
    rc = cli_write_file(o_out->value, (const uint8_t *)final, strlen(final), 0);
    if (rc == CLI_OK && !so.quiet) {
        char won[96] = "";
        if (jobs > 1)
            snprintf(won, sizeof won, "; -j %u: seed %llu won", jobs, (unsigned long long)ji.seed[ji.winner]);
        fprintf(stderr,
                "ecopt opt: %s: PROVED, written to %s: %.2f %s (%s), %.3fx gcc, %.3fx clang (%llu evals%s%s)\n",
                so.symbol, o_out->value, sr.ticks, sr.unit, measure_objective_name(so.objective), sr.speedup_gcc,
                sr.speedup_clang, (unsigned long long)sr.evals, won,
                sr.own_order_won ? "; the program's own order: the search's best was not clearly faster" : "");
    }
    if (rc == CLI_OK && !so.quiet && sr.ticks_gcc > 0 && sr.speedup_gcc < 1.0)
        fprintf(stderr, "ecopt opt: note: slower than gcc -O3 in the final measurement (more --evals, or a quieter "
                        "machine, may help)\n");
out_sr:
    search_result_free(&sr);
out:
    free(extra);
    free(final);
    ir_func_free(low);
    ir_func_free(f);
    return rc;
}
