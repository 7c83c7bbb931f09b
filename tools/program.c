/* program.c — the program source shared by `ecopt check` and `ecopt opt` (program.h). */
#include "program.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "gen/gen.h"

static const char *shown(const char *path)
{
    return strcmp(path, "-") == 0 ? "standard input" : path;
}

const char *cli_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

const char *cli_strip_name(const char *msg, const char *path)
{
    const char *names[2] = { path, cli_base_name(path) };
    for (int k = 0; k < 2; k++) {
        size_t bl = strlen(names[k]);
        if (bl && strncmp(msg, names[k], bl) == 0 && msg[bl] == ':' && msg[bl + 1] == ' ')
            return msg + bl + 2;
    }
    return msg;
}

static void sha256_hex_of(const void *data, size_t len, char out[65])
{
    unsigned char md[32];
    unsigned int mdlen = 0;
    if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32) {
        snprintf(out, 65, "%s", "(sha256 unavailable)");
        return;
    }
    cli_hex_encode(out, md, 32);
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

/* The program of a fiat JSON or IR text file; hex (may be NULL) gets the sha256 of the whole file. */
static int load_file(const char *path, int is_fiat, const char *fn, ir_func **out, char *hex)
{
    uint8_t *data = NULL;
    size_t len = 0, use;
    char err[1024];
    int rc;

    if ((rc = cli_read_file(path, 64u << 20, 0, "program", &data, &len)) != CLI_OK)
        return rc;
    if (hex)
        sha256_hex_of(data, len, hex);
    if (is_fiat) {
        *out = ir_fiat_load((const char *)data, len, path, fn, err, sizeof err);
        cli_free_buffer(data, len, 0);
    } else {
        if (memchr(data, 0, len)) {
            cli_free_buffer(data, len, 0);
            return cli_fail(CLI_USAGE, shown(path), "not a text file (contains a NUL byte)");
        }
        use = len;
        if (fn) {
            use = select_function((const char *)data, len, fn);
            if (use == 0) {
                cli_free_buffer(data, len, 0);
                return cli_fail(CLI_USAGE, shown(path), "no function named \"%s\" (a `func %s` ... `end` block)",
                                fn, fn);
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
    }
    if (!*out)
        return cli_fail(CLI_USAGE, shown(path), "%s", cli_strip_name(err, path));
    return CLI_OK;
}

static int load_gen(const cli_program_src *p, ir_func **out, char *hex)
{
    gen_spec spec;
    char err[512], *end = NULL;
    unsigned long n;
    int rc;

    if ((rc = cli_need(p->prime, "--prime EXPR")) != CLI_OK || (rc = cli_need(p->method, "--method METHOD")) != CLI_OK ||
        (rc = cli_need(p->limbs, "--limbs N")) != CLI_OK || (rc = cli_need(p->op, "--op OP")) != CLI_OK)
        return rc;
    memset(&spec, 0, sizeof spec);
    spec.prime = p->prime->value;
    if (gen_method_parse(p->method->value, &spec.method) != 0)
        return cli_fail(CLI_USAGE, "--method",
                        "'%s' is not solinas-unsaturated, solinas-saturated, solinas-saturated-2chain, montgomery or "
                        "montgomery-sparse",
                        p->method->value);
    n = strtoul(p->limbs->value, &end, 10);
    if (!p->limbs->value[0] || *end || p->limbs->value[0] == '-' || n < 1 || n > 16)
        return cli_fail(CLI_USAGE, "--limbs", "'%s' is not a limb count from 1 to 16", p->limbs->value);
    spec.limbs = (unsigned)n;
    if (gen_op_parse(p->op->value, &spec.op) != 0)
        return cli_fail(CLI_USAGE, "--op",
                        "'%s' is not mul, square, carry, add, sub, opp, to-montgomery or from-montgomery",
                        p->op->value);
    *out = gen_build(&spec, err, sizeof err);
    if (!*out)
        return cli_fail(CLI_USAGE, NULL, "%s", err);
    if (hex) { /* no file: the hash of the program's IR text */
        char *t = ir_print(*out);
        if (!t) {
            ir_func_free(*out);
            *out = NULL;
            return cli_fail(CLI_ENV, NULL, "out of memory");
        }
        sha256_hex_of(t, strlen(t), hex);
        free(t);
    }
    return CLI_OK;
}

int cli_program_gen_given(const cli_program_src *p)
{
    return p->prime->given || p->method->given || p->limbs->given || p->op->given;
}

int cli_program_check(const cli_program_src *p, const char *cmd)
{
    int gen_given = cli_program_gen_given(p), rc;
    if (p->fiat->given + p->ir->given + (gen_given != 0) != 1)
        return cli_fail(CLI_USAGE, NULL,
                        "give one program: --fiat F.json --function NAME, --ir FILE.ir, or --prime P --method M "
                        "--limbs N --op OP (see 'ecopt %s --help')",
                        cmd);
    if (p->fiat->given && (rc = cli_need(p->function, "--function NAME (a function of the JSON file)")) != CLI_OK)
        return rc;
    if (gen_given && p->function->given)
        return cli_fail(CLI_USAGE, "--function", "not with a generator spec (use --symbol to name the code)");
    if (p->function->given && !p->function->value[0])
        return cli_fail(CLI_USAGE, "--function", "empty name");
    return CLI_OK;
}

int cli_program_load(const cli_program_src *p, ir_func **out, char *sha256_hex)
{
    *out = NULL;
    if (p->fiat->given)
        return load_file(p->fiat->value, 1, p->function->value, out, sha256_hex);
    if (p->ir->given)
        return load_file(p->ir->value, 0, p->function->given ? p->function->value : NULL, out, sha256_hex);
    return load_gen(p, out, sha256_hex);
}
