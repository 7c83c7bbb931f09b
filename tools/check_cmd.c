/* check_cmd.c — `ecopt check`: prove that a function's machine code computes exactly what an IR program computes
 * (issue 5, DESIGN.md "The checker"; the checker itself is check/check.h).
 *
 * The program comes from a fiat-crypto JSON function, an IR text file or a generator spec, loaded with the same
 * readers as `ecopt ir` and `ecopt gen` (ir_fiat_load, ir_parse, gen_build); the code is the symbol --symbol
 * (default: the program's name) of a .o, or of a .S/.s assembled by the system assembler (check/elf.h).
 *
 * Output (standard output), one line:
 *     PROVED <symbol> (<n> limbs: <i> identical, <s> by z3; <t> s)
 *     REJECTED <symbol>: <rule>: <reason>
 * and after REJECTED, when the checker found inputs on which the two differ, a second line
 *     counterexample: <inputs and both values>
 * Exit status: 0 proved, 1 rejected, 2 bad input (one line on standard error). */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/elf.h"
#include "cli.h"
#include "gen/gen.h"
#include "ir/ir.h"

const char cli_check_help[] =
    "usage: ecopt check FILE.S|FILE.o PROGRAM [--symbol SYM] [--no-red-zone] [--timeout-ms N] [--quiet]\n"
    "  PROGRAM: --fiat F.json --function NAME | --ir FILE.ir [--function NAME]\n"
    "           | --prime P --method M --limbs N --op OP\n"
    "\n"
    "Prove that the machine code of one function computes exactly what an IR program computes: the function's\n"
    "bytes (from the object file, or from assembling FILE.S with the system assembler) are decoded and executed\n"
    "symbolically, and every output limb is compared with the unlowered program's, by identical normal forms or\n"
    "by the SMT solver z3. Calling convention: System V, the fiat signature (outputs first, then inputs).\n"
    "\n"
    "options:\n"
    "  --fiat F.json       a fiat-crypto JSON file, with --function NAME (as in 'ecopt ir')\n"
    "  --ir FILE.ir        a program in IR text form: its last function, or --function NAME (an earlier one)\n"
    "  --prime P --method M --limbs N --op OP   a generated program (as in 'ecopt gen')\n"
    "  --symbol SYM        the function in FILE (default: the program's name)\n"
    "  --no-red-zone       forbid the 128 bytes below rsp (allowed to leaf functions by System V)\n"
    "  --timeout-ms N      the solver's time limit per output limb (default 60000)\n"
    "  --quiet             print nothing; the exit status is the answer\n"
    "  -h, --help          this text\n"
    "\n"
    "output: PROVED <symbol> (<n> limbs: <i> identical, <s> by z3; <t> s)\n"
    "        REJECTED <symbol>: <rule>: <reason>   [+ a line 'counterexample: ...']\n"
    "\n"
    "exit status: 0 proved; 1 rejected; 2 bad input (usage, an unreadable file, a missing symbol, a program\n"
    "that does not load, an assembler error); 3 memory or output failed.\n"
    "\n"
    "example:\n"
    "  ecopt ir --fiat ../shared/fiat-json/p256_64.json --function fiat_p256_mul --emit c -o p256.c\n"
    "  cc -O2 -S p256.c && ecopt check p256.s --fiat ../shared/fiat-json/p256_64.json --function fiat_p256_mul\n";

static const char *shown(const char *path)
{
    return strcmp(path, "-") == 0 ? "standard input" : path;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The readers' messages may start with the file's name (as given, or its base name), which the diagnostic already
 * gives. */
static const char *strip_name(const char *msg, const char *path)
{
    const char *names[2] = { path, base_name(path) };
    for (int k = 0; k < 2; k++) {
        size_t bl = strlen(names[k]);
        if (bl && strncmp(msg, names[k], bl) == 0 && msg[bl] == ':' && msg[bl + 1] == ' ')
            return msg + bl + 2;
    }
    return msg;
}

/* The length of the first token of the line at s (after blanks), its start in *tok. */
static size_t first_token(const char *s, const char *end, const char **tok)
{
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    *tok = s;
    const char *e = s;
    while (e < end && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r' && *e != '#')
        e++;
    return (size_t)(e - s);
}

/* select_function — the length of the prefix of text (len bytes) that ends with the `end` line of `func name`:
 * parsing that prefix gives function name (its callees come before it, ir/TEXT.md). 0 when there is no such
 * block. */
static size_t select_function(const char *text, size_t len, const char *name)
{
    const char *p = text, *end = text + len;
    int in_block = 0;
    size_t nl = strlen(name);
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *next = eol ? eol + 1 : end;
        const char *tok;
        size_t tl = first_token(p, eol ? eol : end, &tok);
        if (!in_block && tl == 4 && memcmp(tok, "func", 4) == 0) {
            const char *tok2;
            size_t tl2 = first_token(tok + 4, eol ? eol : end, &tok2);
            if (tok + 4 < end && (tok[4] == ' ' || tok[4] == '\t') && tl2 == nl && memcmp(tok2, name, nl) == 0)
                in_block = 1;
        } else if (in_block && tl == 3 && memcmp(tok, "end", 3) == 0) {
            return (size_t)(next - text);
        }
        p = next;
    }
    return 0;
}

/* load_ir_text — the program of an IR text file: the last function, or the one named fn. */
static int load_ir_text(const char *path, const char *fn, ir_func **out)
{
    uint8_t *data = NULL;
    size_t len = 0, use;
    char err[1024];
    int rc;

    if ((rc = cli_read_file(path, 64u << 20, 0, "program", &data, &len)) != CLI_OK)
        return rc;
    if (memchr(data, 0, len)) {
        cli_free_buffer(data, len, 0);
        return cli_fail(CLI_USAGE, shown(path), "not a text file (contains a NUL byte)");
    }
    use = len;
    if (fn) {
        use = select_function((const char *)data, len, fn);
        if (use == 0) {
            cli_free_buffer(data, len, 0);
            return cli_fail(CLI_USAGE, shown(path), "no function named \"%s\" (a `func %s` ... `end` block)", fn,
                            fn);
        }
    }
    char *text = malloc(use + 1);
    if (!text) {
        cli_free_buffer(data, len, 0);
        return cli_fail(CLI_ENV, NULL, "out of memory");
    }
    memcpy(text, data, use);
    text[use] = 0;
    cli_free_buffer(data, len, 0);
    *out = ir_parse(text, err, sizeof err);
    free(text);
    if (!*out)
        return cli_fail(CLI_USAGE, shown(path), "%s", strip_name(err, path));
    return CLI_OK;
}

static int load_fiat(const char *path, const char *fn, ir_func **out)
{
    uint8_t *data = NULL;
    size_t len = 0;
    char err[1024];
    int rc;

    if ((rc = cli_read_file(path, 64u << 20, 0, "program", &data, &len)) != CLI_OK)
        return rc;
    *out = ir_fiat_load((const char *)data, len, path, fn, err, sizeof err);
    cli_free_buffer(data, len, 0);
    if (!*out)
        return cli_fail(CLI_USAGE, shown(path), "%s", strip_name(err, path));
    return CLI_OK;
}

static int load_gen(const cli_opt *prime, const cli_opt *method, const cli_opt *limbs, const cli_opt *op,
                    ir_func **out)
{
    gen_spec spec;
    char err[512], *end = NULL;
    unsigned long n;
    int rc;

    if ((rc = cli_need(prime, "--prime EXPR")) != CLI_OK || (rc = cli_need(method, "--method METHOD")) != CLI_OK ||
        (rc = cli_need(limbs, "--limbs N")) != CLI_OK || (rc = cli_need(op, "--op OP")) != CLI_OK)
        return rc;
    memset(&spec, 0, sizeof spec);
    spec.prime = prime->value;
    if (gen_method_parse(method->value, &spec.method) != 0)
        return cli_fail(CLI_USAGE, "--method", "'%s' is not solinas-unsaturated, solinas-saturated or montgomery",
                        method->value);
    n = strtoul(limbs->value, &end, 10);
    if (!limbs->value[0] || *end || limbs->value[0] == '-' || n < 1 || n > 16)
        return cli_fail(CLI_USAGE, "--limbs", "'%s' is not a limb count from 1 to 16", limbs->value);
    spec.limbs = (unsigned)n;
    if (gen_op_parse(op->value, &spec.op) != 0)
        return cli_fail(CLI_USAGE, "--op",
                        "'%s' is not mul, square, carry, add, sub, opp, to-montgomery or from-montgomery", op->value);
    *out = gen_build(&spec, err, sizeof err);
    if (!*out)
        return cli_fail(CLI_USAGE, NULL, "%s", err);
    return CLI_OK;
}

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
                       { NULL, "--quiet", 0, NULL, 0 } };
    cli_opt *o_fiat = &opts[0], *o_function = &opts[1], *o_ir = &opts[2], *o_prime = &opts[3], *o_method = &opts[4],
            *o_limbs = &opts[5], *o_op = &opts[6], *o_symbol = &opts[7], *o_nored = &opts[8], *o_timeout = &opts[9],
            *o_quiet = &opts[10];
    const char *pos[2];
    size_t npos = 0;
    int rc, nsrc;
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
    if (strcmp(file, "-") == 0)
        return cli_fail(CLI_USAGE, "FILE", "standard input is not supported (give a .S or .o file)");

    /* exactly one program source */
    int gen_given = o_prime->given || o_method->given || o_limbs->given || o_op->given;
    nsrc = o_fiat->given + o_ir->given + gen_given;
    if (nsrc != 1)
        return cli_fail(CLI_USAGE, NULL,
                        "give one program: --fiat F.json --function NAME, --ir FILE.ir, or --prime P --method M "
                        "--limbs N --op OP (see 'ecopt check --help')");
    if (o_fiat->given && (rc = cli_need(o_function, "--function NAME (a function of the JSON file)")) != CLI_OK)
        return rc;
    if (gen_given && o_function->given)
        return cli_fail(CLI_USAGE, "--function", "not with a generator spec (use --symbol to name the code)");
    if (o_function->given && !o_function->value[0])
        return cli_fail(CLI_USAGE, "--function", "empty name");
    if (o_symbol->given && !o_symbol->value[0])
        return cli_fail(CLI_USAGE, "--symbol", "empty name");

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
    if (o_fiat->given)
        rc = load_fiat(o_fiat->value, o_function->value, &f);
    else if (o_ir->given)
        rc = load_ir_text(o_ir->value, o_function->given ? o_function->value : NULL, &f);
    else
        rc = load_gen(o_prime, o_method, o_limbs, o_op, &f);
    if (rc != CLI_OK)
        return rc;

    /* the code */
    sym = o_symbol->given ? o_symbol->value : f->name;
    memset(&code, 0, sizeof code);
    if (check_code_read(file, sym, &code, err, sizeof err) != 0) {
        rc = cli_fail(CLI_USAGE, file, "%s", strip_name(err, file));
        ir_func_free(f);
        return rc;
    }

    check_function(f, &code, &co, &r);
    check_code_free(&code);
    switch (r.verdict) {
    case CHECK_PROVED:
        if (!o_quiet->given)
            printf("PROVED %s (%u limbs: %u identical, %u by z3; %.3f s)\n", sym, r.nlimbs, r.nlimbs_identical,
                   r.nlimbs_smt, r.seconds_total);
        rc = CLI_OK;
        break;
    case CHECK_REJECTED:
        if (!o_quiet->given) {
            const char *rule = check_rule_name(r.rule), *why = r.reason;
            size_t rl = strlen(rule);
            if (strncmp(why, rule, rl) == 0 && why[rl] == ':' && why[rl + 1] == ' ')
                why += rl + 2; /* "unproved: output limb 0 ..." names its rule already */
            printf("REJECTED %s: %s: %s", sym, rule, why);
            if (r.has_addr && !names_addr(why, r.addr))
                printf(" (at 0x%llx)", (unsigned long long)r.addr);
            printf("\n");
            if (r.cex[0])
                printf("counterexample: %s\n", r.cex);
        }
        rc = CLI_NO;
        break;
    default:
        rc = cli_fail(CLI_USAGE, sym, "%s", r.reason[0] ? r.reason : "cannot be checked");
        break;
    }
    ir_func_free(f);
    return rc;
}
