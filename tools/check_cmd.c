/* check_cmd.c — `ecopt check`: prove that a function's machine code computes exactly what an IR program computes
 * (DESIGN.md "The checker", docs/checker.md; the checker itself is check/check.h).
 *
 * The program comes from a fiat-crypto JSON function, an IR text file or a generator spec, loaded with the same
 * readers as `ecopt ir` and `ecopt gen` (ir_fiat_load, ir_parse, gen_build); the code is the symbol --symbol
 * (default: the program's name) of a .o, or of a .S/.s assembled by the system assembler (check/elf.h).
 *
 * Output (standard output), one line:
 *     PROVED <symbol> (<n> limbs: <i> identical, <l> linear, <s> by z3; <t> s)
 *     REJECTED <symbol>: <rule>: <reason>
 *     REJECTED <symbol>: <rule> (<case>): <reason>     in an aliasing case, <case> as "out1 == arg1"
 * and after REJECTED, when the checker found inputs on which the two differ, a second line
 *     counterexample: <inputs and both values>
 * Exit status: 0 proved, 1 rejected, 2 bad usage or input, 3 the environment failed (an unusable temporary
 * directory, fork, memory); cli_check_help lists every cause. Errors are one line on standard error, also with
 * --quiet (which drops only the verdict lines on standard output). */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/elf.h"
#include "check/explain.h"
#include "cli.h"
#include "program.h"
#include "ir/ir.h"

const char cli_check_help[] =
    "usage: ecopt check FILE.S|FILE.o PROGRAM [--symbol SYM] [--no-red-zone] [--timeout-ms N] [--explain]\n"
    "                   [--quiet]\n"
    "  PROGRAM: --fiat F.json --function NAME | --ir FILE.ir [--function NAME]\n"
    "           | --prime P --method M --limbs N --op OP\n"
    "\n"
    "Prove that the machine code of one function computes exactly what an IR program computes, for every input\n"
    "within the program's bounds (never by tests). Calling convention: System V, the fiat signature (outputs\n"
    "first, then inputs). How it works, the rules and the known limits: docs/checker.md.\n"
    "\n"
    "options:\n"
    "  --fiat F.json       a fiat-crypto JSON file, with --function NAME (as in 'ecopt ir')\n"
    "  --ir FILE.ir        a program in IR text form: its last function, or --function NAME (an earlier one)\n"
    "  --prime P --method M --limbs N --op OP   a generated program (as in 'ecopt gen')\n"
    "  --symbol SYM        the function in FILE (default: the program's name)\n"
    "  --no-red-zone       forbid the 128 bytes below rsp (allowed to leaf functions by System V)\n"
    "  --timeout-ms N      the solver's time limit per query (default 60000); a limb may take two: one with\n"
    "                      cut-points (at most 10000 ms) and the plain one; the sweep's queries are bounded by\n"
    "                      z3's rlimit, at most 10000 ms each (ECOPT_NO_SWEEP=1 turns the sweep off)\n"
    "  --explain           after REJECTED, lines 'explain: ...': the rule broken and its instruction, or, when\n"
    "                      an output differs, the first output limb that differs on the counterexample, both\n"
    "                      values, the input, the instruction that stores the limb and the one where the code\n"
    "                      leaves the program's values (the earliest in the limb's data flow whose result is\n"
    "                      no value the program computes, on that input and 8 random ones, while every value\n"
    "                      it reads is one)\n"
    "  --quiet             no PROVED, REJECTED or counterexample line on standard output: the exit status is\n"
    "                      the answer; errors (exit 2 and 3) are still printed on standard error\n"
    "  -h, --help          this text\n"
    "\n"
    "examples:\n"
    "  ecopt ir --fiat ../shared/fiat-json/p256_64.json --function fiat_p256_mul --emit c -o p256.c\n"
    "  cc -O2 -S p256.c && ecopt check p256.s --fiat ../shared/fiat-json/p256_64.json --function fiat_p256_mul\n"
    "  ecopt check fe_mul.S --prime 2^255-19 --method solinas-unsaturated --limbs 5 --op mul --symbol fe_mul\n"
    "  ecopt check wrong.S --prime 2^255-19 --method solinas-saturated-2chain --limbs 4 --op mul \\\n"
    "      --symbol ecopt_fe_mul_adx --explain\n"
    "\n"
    "output: PROVED <symbol> (<n> limbs: <i> identical, <l> linear, <s> by z3; <t> s)\n"
    "        REJECTED <symbol>: <rule>: <reason>   [+ a line 'counterexample: ...']\n"
    "        REJECTED <symbol>: <rule> (out1 == arg1): <reason>   in that aliasing case (each case the program\n"
    "        allows is proved: all arrays disjoint, and each output equal to an input it may alias)\n"
    "\n"
    "exit status: 0 proved; 1 rejected; 2 bad usage or input: an option or its value, not exactly one program;\n"
    "  FILE missing or unreadable, neither ELF nor .S/.s, not ELF64 x86-64, truncated or malformed; an assembler\n"
    "  error; the symbol missing, undefined, outside the code or of size 0; a program that does not load (JSON,\n"
    "  IR text, generator spec); a program that fails validation or the bounds pass (a sum that may wrap), has\n"
    "  no output array or never stores an output; a solver error. 3 the environment failed: the temporary\n"
    "  directory ($TMPDIR, else /tmp) is unusable (missing, not a directory, not writable), the assembler\n"
    "  cannot be started (fork), memory ran out, the output cannot be written.\n";

/* "0x2c" appears in the reason? (then the instruction's address is already named) */
static int names_addr(const char *reason, uint64_t addr)
{
    char hex[24];
    snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)addr);
    return strstr(reason, hex) != NULL;
}

int cli_cmd_check(int argc, char **argv)
{
    cli_opt opts[] = { { NULL, "--fiat", 1, NULL, 0 },       { NULL, "--function", 1, NULL, 0 },
                       { NULL, "--ir", 1, NULL, 0 },         { NULL, "--prime", 1, NULL, 0 },
                       { NULL, "--method", 1, NULL, 0 },     { NULL, "--limbs", 1, NULL, 0 },
                       { NULL, "--op", 1, NULL, 0 },         { NULL, "--symbol", 1, NULL, 0 },
                       { NULL, "--no-red-zone", 0, NULL, 0 }, { NULL, "--timeout-ms", 1, NULL, 0 },
                       { NULL, "--quiet", 0, NULL, 0 },      { NULL, "--explain", 0, NULL, 0 } };
    cli_opt *o_fiat = &opts[0], *o_function = &opts[1], *o_ir = &opts[2], *o_prime = &opts[3], *o_method = &opts[4],
            *o_limbs = &opts[5], *o_op = &opts[6], *o_symbol = &opts[7], *o_nored = &opts[8], *o_timeout = &opts[9],
            *o_quiet = &opts[10], *o_explain = &opts[11];
    const char *pos[2];
    size_t npos = 0;
    int rc;
    ir_func *f = NULL;
    check_opts co;
    check_code code;
    check_result r;
    char err[1024];
    const char *file, *sym;

    rc = cli_parse_opts(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 2, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(cli_check_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if (npos == 0)
        return cli_fail(CLI_USAGE, "FILE", "missing: the .S or .o file to check (see 'ecopt check --help')");
    if (npos > 1)
        return cli_fail(CLI_USAGE, pos[1], "unexpected argument (one file is checked at a time)");
    file = pos[0];
    if (!file[0])
        return cli_fail(CLI_USAGE, "FILE", "empty file name");
    if (strcmp(file, "-") == 0)
        return cli_fail(CLI_USAGE, "FILE", "standard input is not supported (give a .S or .o file)");

    /* exactly one program source */
    cli_program_src src = { o_fiat, o_function, o_ir, o_prime, o_method, o_limbs, o_op };
    if ((rc = cli_program_check(&src, "check")) != CLI_OK)
        return rc;
    if (o_symbol->given && !o_symbol->value[0])
        return cli_fail(CLI_USAGE, "--symbol", "empty name");
    if (o_explain->given && o_quiet->given)
        return cli_fail(CLI_USAGE, "--explain", "not with --quiet (the explanation is printed on standard output)");

    memset(&co, 0, sizeof co);
    co.no_red_zone = o_nored->given != 0;
    if (o_timeout->given) {
        char *end = NULL;
        unsigned long t = strtoul(o_timeout->value, &end, 10);
        if (!o_timeout->value[0] || *end || o_timeout->value[0] == '-' || t < 1 || t > 86400000ul)
            return cli_fail(CLI_USAGE, "--timeout-ms", "'%s' is not a time from 1 to 86400000 ms", o_timeout->value);
        co.timeout_ms = (unsigned)t;
    }

    /* the program */
    if ((rc = cli_program_load(&src, &f, NULL)) != CLI_OK)
        return rc;

    /* the code */
    sym = o_symbol->given ? o_symbol->value : f->name;
    memset(&code, 0, sizeof code);
    int cr = check_code_read(file, sym, &code, err, sizeof err);
    if (cr != 0) {
        if (cr == -2) /* the environment (the temporary directory, fork), not the file: err names the cause */
            rc = cli_fail(CLI_ENV, NULL, "%s", err);
        else
            rc = cli_fail(CLI_USAGE, file, "%s", cli_strip_name(err, file));
        ir_func_free(f);
        return rc;
    }

    /* a .S read by the preprocessor: the verdict is for what this machine's `cc -c` made of it (elf.h) */
    size_t fl = strlen(file);
    unsigned cline = 0;
    char cdir[16];
    if (fl > 2 && !strcmp(file + fl - 2, ".S") && check_source_conditional(file, &cline, cdir, sizeof cdir) == 1)
        fprintf(stderr, "ecopt check: warning: %s:%u: `%s`: the verdict is for the code that this system's cc -c "
                "preprocessed and assembled; another compiler, assembler or -D flag may give other code (check the "
                ".o that ships)\n", file, cline, cdir);
    check_function(f, &code, &co, &r);
    bool explain_oom = false;
    switch (r.verdict) {
    case CHECK_PROVED:
        if (!o_quiet->given)
            printf("PROVED %s (%u limbs: %u identical, %u linear, %u by z3; %.3f s)\n", sym, r.nlimbs,
                   r.nlimbs_identical, r.nlimbs_linear, r.nlimbs_smt, r.seconds_total);
        rc = CLI_OK;
        break;
    case CHECK_REJECTED:
        if (!o_quiet->given) {
            const char *rule = check_rule_name(r.rule), *why = r.reason;
            size_t rl = strlen(rule);
            if (strncmp(why, rule, rl) == 0 && why[rl] == ':' && why[rl + 1] == ' ')
                why += rl + 2; /* "unproved: output limb 0 ..." names its rule already */
            if (r.alias_case[0])
                printf("REJECTED %s: %s (%s): %s", sym, rule, r.alias_case, why);
            else
                printf("REJECTED %s: %s: %s", sym, rule, why);
            if (r.has_addr && !names_addr(why, r.addr))
                printf(" (at 0x%llx)", (unsigned long long)r.addr);
            printf("\n");
            if (r.cex[0])
                printf("counterexample: %s\n", r.cex);
            if (o_explain->given && check_explain(f, &code, &co, &r, stdout) != 0)
                explain_oom = true;
        }
        rc = explain_oom ? cli_fail(CLI_ENV, NULL, "--explain: out of memory") : CLI_NO;
        break;
    default: /* BAD_INPUT: the program or the code cannot be checked; or memory ran out (check_function's reason
              * is then exactly "out of memory"), an environment failure */
        rc = cli_fail(strcmp(r.reason, "out of memory") == 0 ? CLI_ENV : CLI_USAGE, sym, "%s",
                      r.reason[0] ? r.reason : "cannot be checked");
        break;
    }
    check_code_free(&code);
    ir_func_free(f);
    return rc;
}
