/* ir_cmds.c — `ecopt gen` and `ecopt ir`: field arithmetic as IR, from a field spec, a fiat-crypto JSON program
 * or IR text, printed as IR text or as C (docs/optimizer.md). */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <openssl/evp.h>

#include "cli.h"
#include "emit/emit_c.h"
#include "gen/gen.h"
#include "gen_sources_hash.h" /* ECOPT_GEN_SOURCES_SHA256, ECOPT_GEN_SOURCES_LIST: written by the build */
#include "ir/ir.h"

const char cli_gen_help[] =
    "usage: ecopt gen --prime EXPR --method METHOD --limbs N --op OP [--emit ir|c] [--lowered] [--name NAME]\n"
    "                 [--static] [-o FILE]\n"
    "\n"
    "Generate a field operation as an IR program (the optimizer's input) or as portable C.\n"
    "\n"
    "options:\n"
    "  --prime EXPR     the prime: decimal or 0x literals, + - * ^ and parentheses (2^255-19, 2^216*3^137-1)\n"
    "  --method METHOD  solinas-unsaturated  p = 2^k - c in N limbs of about k/N bits, u128 columns\n"
    "                   solinas-saturated    p = 2^k - c in N 64-bit limbs, mulx/addcarryx\n"
    "                   montgomery           word-by-word Montgomery, R = 2^(64 N), inputs and output < p\n"
    "                   solinas-saturated-2chain  as solinas-saturated, each row added by two carry chains\n"
    "                                        (low halves, high halves: adcx and adox)\n"
    "                   montgomery-sparse    as montgomery (the same function), m*p by shifts and subtractions\n"
    "                                        where p's words are sparse (P-256, P-384), mulx elsewhere\n"
    "  --limbs N        the number of 64-bit words (limbs)\n"
    "  --op OP          mul, square, carry, add, sub, opp (Solinas); mul, square, add, sub, opp,\n"
    "                   to-montgomery, from-montgomery (Montgomery). solinas-saturated(-2chain) has mul and square.\n"
    "  --emit ir|c      print the IR text form (default) or C with the fiat signature\n"
    "                   void f(uint64_t out1[N], const uint64_t arg1[N], const uint64_t arg2[N])\n"
    "  --lowered        lower u128 arithmetic to 64-bit operations first (mulx, addcarryx, shrd)\n"
    "  --name NAME      the function's name (default: from the spec)\n"
    "  --static         with --emit c: a static function (for a file that #includes it, as the library does)\n"
    "  -o, --out FILE   write to FILE instead of standard output\n"
    "  -h, --help       this text\n"
    "\n"
    "exit status: 0 written; 2 a bad spec (malformed expression, not a prime, not of the method's shape,\n"
    "limbs that cannot hold the product, unknown op); 3 writing failed.\n"
    "\n"
    "example:\n"
    "  ecopt gen --prime 2^255-19 --method solinas-unsaturated --limbs 5 --op mul --emit c\n";

const char cli_ir_help[] =
    "usage: ecopt ir (--fiat FILE.json --function NAME | --ir FILE.ir) [--emit ir|c] [--lowered] [-o FILE]\n"
    "\n"
    "Load a field-arithmetic program and print it as IR text or as C.\n"
    "\n"
    "options:\n"
    "  --fiat FILE.json  a fiat-crypto JSON file (its prime and limb layout come from ecopt's table, by file\n"
    "                    name: curve25519_64, p256_64, ...); with --function NAME, one of its functions:\n"
    "                    mul, square, carry_mul, carry_square, carry, add, sub, opp, to/from_montgomery\n"
    "  --ir FILE.ir      a program in ecopt's IR text form (ir/TEXT.md); the last function in the file,\n"
    "                    earlier ones being callees of `call`\n"
    "  --emit ir|c       print the IR text form (default) or C with the fiat signature\n"
    "  --lowered         lower u128 arithmetic to 64-bit operations first (mulx, addcarryx, shrd)\n"
    "  --stats           print the node counts (operations, before and after lowering) instead\n"
    "  -o, --out FILE    write to FILE instead of standard output\n"
    "  -h, --help        this text\n"
    "\n"
    "exit status: 0 written; 2 a missing or malformed file, a function that is not there or that the IR\n"
    "cannot express (named in the message); 3 writing failed.\n"
    "\n"
    "example:\n"
    "  ecopt ir --fiat ../shared/fiat-json/p256_64.json --function fiat_p256_mul --emit c --lowered\n";

/* sha256 of a buffer as 64 hex digits. */
static void sha256_hex(const uint8_t *data, size_t len, char out[65])
{
    unsigned char md[32];
    unsigned int mdlen = 0;
    if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32) {
        snprintf(out, 65, "%s", "(sha256 unavailable)");
        return;
    }
    cli_hex_encode(out, md, 32);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Print f (lowered first if asked) as IR text or C to out. inputs: header lines for C. */
static int write_result(ir_func *f, int emit_c_text, int lowered, int stats, int is_static, const char *command,
                        const char *inputs, const char *out)
{
    char err[512];
    char *text = NULL;
    ir_func *low = NULL;
    int rc;

    if (lowered || stats) {
        low = ir_lower(f, err, sizeof err);
        if (!low)
            return cli_fail(CLI_USAGE, f->name, "cannot lower: %s", err);
    }
    if (stats) {
        size_t cap = 512;
        text = malloc(cap);
        if (!text)
            return cli_fail(CLI_ENV, NULL, "out of memory");
        snprintf(text, cap, "%s: %u operations (%u nodes); lowered: %u operations (%u nodes)\n", f->name,
                 ir_count_ops(f), f->nnode, ir_count_ops(low), low->nnode);
    } else if (emit_c_text) {
        emit_c_opts o;
        memset(&o, 0, sizeof o);
        o.command = command;
        o.inputs = inputs;
        o.is_static = is_static != 0;
        text = emit_c(lowered ? low : f, &o, err, sizeof err);
        if (!text) {
            ir_func_free(low);
            return cli_fail(CLI_USAGE, f->name, "cannot emit C: %s", err);
        }
    } else {
        text = ir_print(lowered ? low : f);
    }
    ir_func_free(low);
    if (!text)
        return cli_fail(CLI_ENV, NULL, "out of memory");
    rc = cli_write_file(out, (const uint8_t *)text, strlen(text), 0);
    free(text);
    return rc;
}

static int parse_emit(const cli_opt *o, int *is_c)
{
    *is_c = 0;
    if (!o->given || strcmp(o->value, "ir") == 0)
        return CLI_OK;
    if (strcmp(o->value, "c") == 0) {
        *is_c = 1;
        return CLI_OK;
    }
    return cli_fail(CLI_USAGE, "--emit", "'%s' is not ir or c", o->value);
}

/* The generator's sources, hashed by the build, name the code that made the output (STYLE.md). */
static void generator_line(char *buf, size_t len)
{
    snprintf(buf, len, "sha256 %s  generator sources (%s)", ECOPT_GEN_SOURCES_SHA256, ECOPT_GEN_SOURCES_LIST);
}

int cli_cmd_gen(int argc, char **argv)
{
    cli_opt opts[] = { { NULL, "--prime", 1, NULL, 0 },  { NULL, "--method", 1, NULL, 0 },
                       { NULL, "--limbs", 1, NULL, 0 },  { NULL, "--op", 1, NULL, 0 },
                       { NULL, "--emit", 1, NULL, 0 },   { NULL, "--lowered", 0, NULL, 0 },
                       { NULL, "--name", 1, NULL, 0 },   { "-o", "--out", 1, NULL, 0 },
                       { NULL, "--static", 0, NULL, 0 } };
    cli_opt *o_prime = &opts[0], *o_method = &opts[1], *o_limbs = &opts[2], *o_op = &opts[3], *o_emit = &opts[4],
            *o_lowered = &opts[5], *o_name = &opts[6], *o_out = &opts[7], *o_static = &opts[8];
    size_t npos;
    int rc, is_c;
    gen_spec spec;
    char err[512], command[1024], inputs[512];
    char *end = NULL;
    unsigned long limbs;
    ir_func *f;

    rc = cli_parse_opts(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, 0, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(cli_gen_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if ((rc = cli_need(o_prime, "--prime EXPR")) != CLI_OK || (rc = cli_need(o_method, "--method METHOD")) != CLI_OK ||
        (rc = cli_need(o_limbs, "--limbs N")) != CLI_OK || (rc = cli_need(o_op, "--op OP")) != CLI_OK ||
        (rc = parse_emit(o_emit, &is_c)) != CLI_OK)
        return rc;
    memset(&spec, 0, sizeof spec);
    spec.prime = o_prime->value;
    if (gen_method_parse(o_method->value, &spec.method) != 0)
        return cli_fail(CLI_USAGE, "--method",
                        "'%s' is not solinas-unsaturated, solinas-saturated, solinas-saturated-2chain, montgomery or "
                        "montgomery-sparse",
                        o_method->value);
    limbs = strtoul(o_limbs->value, &end, 10);
    if (!o_limbs->value[0] || *end || o_limbs->value[0] == '-' || limbs < 1 || limbs > 16)
        return cli_fail(CLI_USAGE, "--limbs", "'%s' is not a limb count from 1 to 16", o_limbs->value);
    spec.limbs = (unsigned)limbs;
    if (gen_op_parse(o_op->value, &spec.op) != 0)
        return cli_fail(CLI_USAGE, "--op",
                        "'%s' is not mul, square, carry, add, sub, opp, to-montgomery or from-montgomery",
                        o_op->value);
    spec.name = o_name->given ? o_name->value : NULL;
    if (o_name->given && !o_name->value[0])
        return cli_fail(CLI_USAGE, "--name", "empty name");

    if (o_static->given && !is_c)
        return cli_fail(CLI_USAGE, "--static", "only with --emit c");
    f = gen_build(&spec, err, sizeof err);
    if (!f)
        return cli_fail(CLI_USAGE, NULL, "%s", err);
    snprintf(command, sizeof command, "ecopt gen --prime %s --method %s --limbs %u --op %s --emit %s%s%s%s%s",
             spec.prime, gen_method_name(spec.method), spec.limbs, ir_kind_name(spec.op), is_c ? "c" : "ir",
             o_lowered->given ? " --lowered" : "", o_name->given ? " --name " : "",
             o_name->given ? o_name->value : "", o_static->given ? " --static" : "");
    generator_line(inputs, sizeof inputs);
    rc = write_result(f, is_c, o_lowered->given, 0, o_static->given, command, inputs,
                      o_out->given ? o_out->value : "-");
    ir_func_free(f);
    return rc;
}

int cli_cmd_ir(int argc, char **argv)
{
    cli_opt opts[] = { { NULL, "--fiat", 1, NULL, 0 },  { NULL, "--function", 1, NULL, 0 },
                       { NULL, "--ir", 1, NULL, 0 },    { NULL, "--emit", 1, NULL, 0 },
                       { NULL, "--lowered", 0, NULL, 0 }, { NULL, "--stats", 0, NULL, 0 },
                       { "-o", "--out", 1, NULL, 0 } };
    cli_opt *o_fiat = &opts[0], *o_function = &opts[1], *o_ir = &opts[2], *o_emit = &opts[3], *o_lowered = &opts[4],
            *o_stats = &opts[5], *o_out = &opts[6];
    size_t npos, len = 0;
    int rc, is_c;
    uint8_t *data = NULL;
    char err[1024], command[1024], inputs[1024], hex[65];
    const char *path;
    ir_func *f = NULL;

    rc = cli_parse_opts(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, 0, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(cli_ir_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if ((rc = parse_emit(o_emit, &is_c)) != CLI_OK)
        return rc;
    if (o_fiat->given == o_ir->given)
        return cli_fail(CLI_USAGE, NULL, "give one of --fiat FILE.json or --ir FILE.ir (see 'ecopt ir --help')");
    if (o_fiat->given && (rc = cli_need(o_function, "--function NAME (a function of the JSON file)")) != CLI_OK)
        return rc;
    if (o_ir->given && o_function->given)
        return cli_fail(CLI_USAGE, "--function", "only with --fiat (an IR file's last function is the program)");
    if (o_stats->given && (o_emit->given || o_lowered->given))
        return cli_fail(CLI_USAGE, "--stats", "prints counts only: not with --emit or --lowered");
    path = o_fiat->given ? o_fiat->value : o_ir->value;
    if (o_out->given && (rc = cli_out_not_input(o_out->value, o_fiat, o_ir, NULL)) != CLI_OK)
        return rc;
    if ((rc = cli_read_file(path, 64u << 20, 0, "program", &data, &len)) != CLI_OK)
        return rc;
    if (o_ir->given && memchr(data, 0, len)) {
        cli_free_buffer(data, len, 0);
        return cli_fail(CLI_USAGE, path, "not a text file (contains a NUL byte)");
    }
    if (o_fiat->given) {
        f = ir_fiat_load((const char *)data, len, path, o_function->value, err, sizeof err);
    } else {
        char *text = malloc(len + 1);
        if (!text) {
            cli_free_buffer(data, len, 0);
            return cli_fail(CLI_ENV, NULL, "out of memory");
        }
        memcpy(text, data, len);
        text[len] = 0;
        f = ir_parse(text, err, sizeof err);
        free(text);
    }
    sha256_hex(data, len, hex);
    cli_free_buffer(data, len, 0);
    if (!f) {
        /* the reader's messages may start with the file's name, which the diagnostic already gives */
        const char *msg = err, *bn = base_name(path);
        size_t bl = strlen(bn);
        if (strncmp(msg, bn, bl) == 0 && msg[bl] == ':' && msg[bl + 1] == ' ')
            msg += bl + 2;
        return cli_fail(CLI_USAGE, strcmp(path, "-") == 0 ? "standard input" : path, "%s", msg);
    }
    /* A prime stated in hand-written IR is printed as a fact in the emitted C, and `call` trusts it: it must be
     * one (the fiat reader's table and the generators give only primes). */
    if (o_ir->given && f->prime[0]) { /* the fiat table's primes are primes */
        mpz_t p;
        char perr[512];
        mpz_init(p);
        int bad = gen_prime_eval(f->prime, p, perr, sizeof perr);
        mpz_clear(p);
        if (bad) {
            rc = cli_fail(CLI_USAGE, strcmp(path, "-") == 0 ? "standard input" : path, "%s: prime: %s", f->name, perr);
            ir_func_free(f);
            return rc;
        }
    }
    if (o_fiat->given)
        snprintf(command, sizeof command, "ecopt ir --fiat %s --function %s --emit %s%s", base_name(path),
                 o_function->value, is_c ? "c" : "ir", o_lowered->given ? " --lowered" : "");
    else
        snprintf(command, sizeof command, "ecopt ir --ir %s --emit %s%s", base_name(path), is_c ? "c" : "ir",
                 o_lowered->given ? " --lowered" : "");
    {
        char gline[512];
        generator_line(gline, sizeof gline);
        snprintf(inputs, sizeof inputs, "sha256 %s  %s\n%s", hex, base_name(path), gline);
    }
    rc = write_result(f, is_c, o_lowered->given, o_stats->given, 0, command, inputs,
                      o_out->given ? o_out->value : "-");
    ir_func_free(f);
    return rc;
}
