/* ecopt.c — the ecopt command: keys, Ed25519 signatures and X25519 agreement from the shell.
 *
 *   ecopt keygen ed25519|x25519 -o KEY.pem
 *   ecopt pubkey -i KEY.pem [-o PUB.pem]
 *   ecopt sign   -k KEY.pem -i FILE -o SIG [--context STR | --context-hex HEX] [--prehash] [--hex]
 *   ecopt verify -p PUB.pem -i FILE -s SIG [--context STR | --context-hex HEX] [--prehash] [--hex] [--zip215]
 *   ecopt verify --batch LIST [--zip215]
 *   ecopt x25519 -k KEY.pem -p PEER.pem [-o SECRET] [--hex]
 *   ecopt version
 *   ecopt gen --prime EXPR --method METHOD --limbs N --op OP [--emit ir|c]     (ir_cmds.c)
 *   ecopt ir (--fiat FILE.json --function NAME | --ir FILE.ir) [--emit ir|c]   (ir_cmds.c)
 *   ecopt check FILE.S|FILE.o (--fiat F.json --function NAME | --ir FILE.ir | --prime P ...)   (check_cmd.c)
 *   ecopt opt (--fiat F.json --function NAME | --ir FILE.ir | --prime P ...) -o OUT.S   (opt_cmd.c)
 *
 * All cryptography is libecopt's; libcrypto reads and writes the PEM files (keyfile.c). Exit codes and message
 * format: cli.h. Every command reads and checks all of its input before it writes anything. */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ecopt/ecopt.h>

#include "cli.h"

/* ---- help -------------------------------------------------------------------------------------------------- */

static const char main_help[] =
    "usage: ecopt <command> [options]\n"
    "\n"
    "Ed25519 signatures and X25519 key agreement with libecopt; keys are PEM files (RFC 8410).\n"
    "\n"
    "commands:\n"
    "  keygen ed25519|x25519 -o KEY.pem     make a private key (PKCS#8, mode 0600)\n"
    "  pubkey -i KEY.pem [-o PUB.pem]       write the public key of a private key\n"
    "  sign   -k KEY.pem -i FILE -o SIG     sign FILE with an Ed25519 key\n"
    "  verify -p PUB.pem -i FILE -s SIG     check an Ed25519 signature (strict, or --zip215)\n"
    "  verify --batch LIST                  check many signatures at once, one a line\n"
    "  x25519 -k KEY.pem -p PEER.pem        X25519 shared secret with a peer's public key\n"
    "  version                              library version and field backends\n"
    "  gen --prime P --method M --limbs N --op OP   a field operation as IR or C (see 'ecopt gen --help')\n"
    "  ir --fiat F.json --function NAME     load a fiat-crypto program (or --ir FILE); print IR or C\n"
#ifdef ECOPT_HAVE_CHECK
    "  check FILE.S --fiat F.json --function NAME   prove the code computes the program (PROVED/REJECTED)\n"
#endif
#ifdef ECOPT_HAVE_OPT
    "  opt --fiat F.json --function NAME -o OUT.S   search for the fastest PROVED x86-64 code of a program\n"
#endif
    "  help [COMMAND]                       this text, or a command's\n"
    "\n"
    "'ecopt COMMAND --help' describes a command. A FILE of '-' is standard input or output.\n"
    "output files: /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (or a link to one) are written through\n"
    "             that descriptor as '-' is (a shell's >> appends, nothing is truncated or replaced); any other\n"
    "             file is written to a temporary name beside it and renamed over it (old or new, never half).\n"
    "\n"
    "exit status: 0 success; 1 a signature does not verify, check rejects the code, or opt proved nothing (or\n"
    "             its search failed); 2 bad usage or bad input; 3 the environment failed (writing output,\n"
    "             random numbers, memory).\n"
    "environment: ECOPT_BACKEND=NAME picks a field backend (see 'ecopt version') for the commands that use the\n"
    "             library (keygen, pubkey, sign, verify, x25519, version); for them a name that is unknown, not\n"
    "             compiled in, or that this CPU cannot run is an error (exit 2); unset or empty: the default.\n"
    "             ECOPT_BACKEND_FORCE=1 (exactly 1) skips the CPU check (may crash with an illegal instruction;\n"
    "             for valgrind).\n";

static const char keygen_help[] =
    "usage: ecopt keygen ed25519|x25519 -o KEY.pem\n"
    "\n"
    "Make a new private key from getrandom(2) and write it as an unencrypted PKCS#8 v1 PEM file\n"
    "(RFC 8410) with mode 0600. An Ed25519 key holds the 32-byte seed of RFC 8032; an X25519 key the\n"
    "32-byte scalar of RFC 7748. 'ecopt pubkey' writes the matching public key.\n"
    "\n"
    "options:\n"
    "  -o, --out KEY.pem   the file to write ('-': standard output)\n"
    "  -h, --help          this text\n"
    "\n"
    "example:\n"
    "  ecopt keygen ed25519 -o alice.pem && ecopt pubkey -i alice.pem -o alice.pub.pem\n";

static const char pubkey_help[] =
    "usage: ecopt pubkey -i KEY.pem [-o PUB.pem]\n"
    "\n"
    "Write the public key (SubjectPublicKeyInfo PEM, RFC 8410) of an Ed25519 or X25519 private key.\n"
    "A public key given as input is written out unchanged in content; an Ed25519 public key must be\n"
    "a canonical encoding of a curve point that is not of small order (else exit 2, nothing written).\n"
    "\n"
    "options:\n"
    "  -i, --in KEY.pem    the private key ('-': standard input)\n"
    "  -o, --out PUB.pem   where to write the public key (default: standard output)\n"
    "  -h, --help          this text\n";

static const char sign_help[] =
    "usage: ecopt sign -k KEY.pem -i FILE -o SIG [--context STR | --context-hex HEX] [--prehash] [--hex]\n"
    "\n"
    "Sign FILE with an Ed25519 private key (RFC 8032, deterministic). The variant follows the options:\n"
    "  neither --context nor --prehash   Ed25519 (pure)\n"
    "  --context C                       Ed25519ctx with context C (1 to 255 bytes)\n"
    "  --prehash [--context C]           Ed25519ph: signs SHA-512(FILE), context 0 to 255 bytes; FILE\n"
    "                                    (also standard input) is read in 64 KiB pieces, never whole\n"
    "The signature is 64 raw bytes, or 128 hex digits and a newline with --hex.\n"
    "\n"
    "options:\n"
    "  -k, --key KEY.pem       Ed25519 private key (PKCS#8 PEM)\n"
    "  -i, --in FILE           the message ('-': standard input)\n"
    "  -o, --out SIG           where to write the signature ('-' or /dev/stdout: standard output)\n"
    "      --context STR       the context: the bytes of STR\n"
    "      --context-hex HEX   the context, given in hex\n"
    "      --prehash           Ed25519ph\n"
    "      --hex               write the signature in hex\n"
    "  -h, --help              this text\n"
    "\n"
    "example:\n"
    "  ecopt sign -k alice.pem -i report.pdf -o report.sig\n";

static const char verify_help[] =
    "usage: ecopt verify -p PUB.pem -i FILE -s SIG [--context STR | --context-hex HEX] [--prehash] [--hex]\n"
    "                    [--zip215]\n"
    "       ecopt verify --batch LIST [--zip215]\n"
    "\n"
    "Check an Ed25519 signature on FILE. The variant options must match the ones used to sign (see\n"
    "'ecopt sign --help'). Verification is strict: canonical encodings of the public key A and of R,\n"
    "neither of small order, S < l, and the cofactored equation [8][S]B = [8]R + [8][k]A.\n"
    "--zip215 applies ZIP 215 instead (pure Ed25519 only): non-canonical A and R and points of small\n"
    "order are accepted; S < l and the same cofactored equation are still required.\n"
    "Prints 'Signature OK' and exits 0, or names the failed rule and exits 1. Without --zip215, a\n"
    "public key file that is not a canonical curve point encoding, or of small order, is bad input\n"
    "(exit 2).\n"
    "\n"
    "options:\n"
    "  -p, --pub PUB.pem       Ed25519 public key (a private key is accepted too)\n"
    "  -i, --in FILE           the message ('-': standard input)\n"
    "  -s, --sig SIG           the signature: 64 raw bytes, or 128 hex digits (either case, a\n"
    "                          final newline optional) with --hex\n"
    "      --context STR       the context: the bytes of STR\n"
    "      --context-hex HEX   the context, given in hex\n"
    "      --prehash           Ed25519ph (FILE streamed through SHA-512, never read whole)\n"
    "      --hex               the signature file is hex\n"
    "      --zip215            the ZIP 215 policy instead of the strict one\n"
    "      --batch LIST        many pure Ed25519 signatures at once ('-': standard input), one a line:\n"
    "                          PUBKEY-HEX SIG-HEX [MSG-HEX] (64, 128 and an even number of hex digits,\n"
    "                          separated by spaces or tabs; no MSG-HEX: the empty message); blank lines\n"
    "                          and lines starting with '#' are skipped. Checked together\n"
    "                          (ecopt_ed25519_verify_batch), with the verdicts single verification gives;\n"
    "                          prints 'LINE: OK' or 'LINE: FAIL <rule>: <reason>' for each signature line,\n"
    "                          exits 0 when all are valid, 1 when any is not; the first malformed line\n"
    "                          is named on stderr with its number and nothing is verified (exit 2)\n"
    "  -h, --help              this text\n"
    "\n"
    "examples:\n"
    "  ecopt verify -p alice.pub.pem -i report.pdf -s report.sig\n"
    "  ecopt verify --batch signatures.txt\n";

static const char x25519_help[] =
    "usage: ecopt x25519 -k KEY.pem -p PEER.pem [-o SECRET] [--hex]\n"
    "\n"
    "Compute the X25519 shared secret (RFC 7748) of your private key and a peer's public key: 32 raw\n"
    "bytes, or 64 hex digits and a newline with --hex. Both sides get the same secret. A peer key of\n"
    "small order (all-zero secret) is refused. Hash the secret before using it as a key.\n"
    "\n"
    "options:\n"
    "  -k, --key KEY.pem     your X25519 private key (PKCS#8 PEM)\n"
    "  -p, --peer PEER.pem   the peer's X25519 public key (a private key is accepted too)\n"
    "  -o, --out SECRET      where to write the secret, mode 0600 (default: standard output)\n"
    "      --hex             write the secret in hex\n"
    "  -h, --help            this text\n"
    "\n"
    "example:\n"
    "  ecopt x25519 -k alice-x.pem -p bob-x.pub.pem --hex\n";

static const char version_help[] =
    "usage: ecopt version\n"
    "\n"
    "Print the libecopt version, the field backend in use and the backends compiled in.\n"
    "ECOPT_BACKEND=NAME selects a backend (unset or empty: the default, the first of the list this CPU can run);\n"
    "a name that is unknown, not compiled in, or that this CPU cannot run is an error (exit 2).\n"
    "ECOPT_BACKEND_FORCE=1 (exactly 1) skips the CPU check (may crash with an illegal instruction; for valgrind).\n";

/* ---- options: cli_opt, cli_parse_opts, cli_need (tools/opts.c) ---------------------------------------- */

/* Standard input can feed one input only. */
static int one_stdin(const cli_opt *a, const cli_opt *b, const cli_opt *c)
{
    int n = (a && a->given && strcmp(a->value, "-") == 0) + (b && b->given && strcmp(b->value, "-") == 0) +
            (c && c->given && strcmp(c->value, "-") == 0);
    if (n > 1)
        return cli_fail(CLI_USAGE, "-", "standard input can be used for one input only");
    return CLI_OK;
}

/* Raw bytes on a terminal are unreadable and may be secret: ask for --hex or a file instead. */
static int no_binary_to_tty(const char *out, int hex)
{
    int fd;
    if (!hex && strcmp(out, "-") == 0 && isatty(STDOUT_FILENO))
        return cli_fail(CLI_USAGE, "standard output", "is a terminal; use --hex or -o FILE for binary output");
    /* /dev/stdout and the like are written through the descriptor, as "-" is (cli_write_file) */
    if (!hex && cli_path_fd(out, &fd) > 0 && isatty(fd))
        return cli_fail(CLI_USAGE, out, "is a terminal; use --hex or -o FILE for binary output");
    return CLI_OK;
}

/* ---- library results --------------------------------------------------------------------------------------- */

/* How many bytes of s a message shows: all of it up to max bytes, else max or fewer, so that the cut never falls
 * inside a UTF-8 sequence (put_escaped would print the first bytes of a cut character as \xNN, as if the value
 * held invalid UTF-8); *cut says whether anything was left out. */
static size_t shown_len(const char *s, size_t max, int *cut)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), j;
    *cut = n > max;
    if (n <= max)
        return n;
    /* the lead byte of the character that holds byte max (at most 3 continuation bytes back) */
    for (j = max; j > 0 && max - j < 3 && (u[j] & 0xc0) == 0x80; j--)
        ;
    if (u[j] >= 0xc0) {
        size_t len = u[j] >= 0xf0 ? 4 : u[j] >= 0xe0 ? 3 : 2;
        if (j + len > max)
            return j;
    }
    return max;
}

/* in_list — name is one word of the space-separated list (a value holding a space, two names say, never is). */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    if (strchr(name, ' ') != NULL)
        return 0;
    for (const char *p = list; (p = strstr(p, name)) != NULL; p++)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* The library's test-only entry (src/backend.h): ecopt_backend_select without the CPU check, reached through
 * ECOPT_BACKEND_FORCE=1 for valgrind, which hides ADX from cpuid. The command links the static library, where it
 * is visible; the public header does not declare it. */
int ecopt_backend_select_forced(const char *name);

/* Choose the field backend from ECOPT_BACKEND before any work, so a bad name fails first and clearly. The library
 * does not read the environment; the command passes the variable on. Only the commands that use the library call
 * this (keygen, pubkey, sign, verify, x25519, version); gen, ir, check and opt do not read ECOPT_BACKEND. */
static int backend_init(void)
{
    const char *env = getenv("ECOPT_BACKEND");
    const char *force = getenv("ECOPT_BACKEND_FORCE");
    int forced = force != NULL && strcmp(force, "1") == 0;
    int rc;
    char what[96];
    size_t len;
    int cut;
    if (env != NULL && env[0] == '\0')
        env = NULL;
    rc = forced && env != NULL ? ecopt_backend_select_forced(env) : ecopt_backend_select(env);
    if (rc == ECOPT_OK)
        return CLI_OK;
    if (rc == ECOPT_ERR_UNSUPPORTED && env != NULL && env[0] != '\0') {
        /* The library has one code for both; the list of compiled-in names tells them apart. */
        const char *list = ecopt_backend_list();
        int known = in_list(list, env);
        len = shown_len(env, 60, &cut);
        snprintf(what, sizeof what, "ECOPT_BACKEND=%.*s%s", (int)len, env, cut ? "..." : "");
        if (known)
            return cli_fail(CLI_USAGE, what, "unavailable backend: this CPU cannot run it (compiled in: %s)", list);
        /* a backend of ecopt that this build left out (cmake -DECOPT_ADX=OFF, or not x86-64) */
        if (strcmp(env, "adx") == 0 || strcmp(env, "adx51") == 0 || strcmp(env, "x64") == 0)
            return cli_fail(CLI_USAGE, what,
                            "backend not compiled in (compiled in: %s; adx, adx51 and x64 need an x86-64 build with "
                            "cmake -DECOPT_ADX=ON, the default)",
                            list);
        if (strcmp(env, "ifma") == 0 || strcmp(env, "ifma_emu") == 0)
            return cli_fail(CLI_USAGE, what,
                            "backend not compiled in (compiled in: %s; ifma needs an x86-64 build with "
                            "cmake -DECOPT_IFMA=ON, ifma_emu a 64-bit one with -DECOPT_IFMA_EMU=ON)",
                            list);
        /* the 4 x 64 backend was once called adx4 (and adx meant what is now adx51): a hint, in every build */
        return cli_fail(CLI_USAGE, what, "unknown backend (compiled in: %s)%s", list,
                        strcmp(env, "adx4") != 0  ? ""
                        : in_list(list, "adx")    ? "; adx4 was renamed adx"
                                                  : "; adx4 was renamed adx, which this build left out");
    }
    return cli_fail(CLI_USAGE, "ECOPT_BACKEND", "no backend available: %s", ecopt_strerror(rc));
}

/* A library failure other than the ones a command handles itself. */
static int lib_fail(int rc, const char *what)
{
    switch (rc) {
    case ECOPT_ERR_RNG:
        return cli_fail(CLI_ENV, what, "cannot get random bytes: %s", ecopt_strerror(rc));
    case ECOPT_ERR_NOMEM:
        return cli_fail(CLI_ENV, what, "%s", ecopt_strerror(rc));
    case ECOPT_ERR_UNSUPPORTED:
        return cli_fail(CLI_USAGE, what, "%s", ecopt_strerror(rc));
    default:
        return cli_fail(CLI_ENV, what, "unexpected library error %d: %s", rc, ecopt_strerror(rc));
    }
}

/* An Ed25519 public key read from a public key file must pass rules 1 and 2 of the strict policy (ecopt.h:
 * canonical encoding of a curve point, not of small order): one that does not is bad input, named by its file.
 * A key derived from a private key is [s]B with s clamped, never of small order, and is not checked again. */
static int check_ed25519_public(const char *path, const cli_key *key)
{
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    int rc;
    if (key->type != CLI_KEY_ED25519 || key->has_private)
        return CLI_OK;
    rc = ecopt_ed25519_publickey_check(key->pub);
    switch (rc) {
    case ECOPT_OK:
        return CLI_OK;
    case ECOPT_ERR_ENCODING:
        return cli_fail(CLI_USAGE, name, "public key is not a canonical curve point encoding");
    case ECOPT_ERR_SMALL_ORDER:
        return cli_fail(CLI_USAGE, name, "public key has small order");
    default:
        return lib_fail(rc, name);
    }
}

/* ---- contexts (Ed25519ctx, Ed25519ph) ---------------------------------------------------------------------- */

typedef struct variant {
    int prehash;
    int has_ctx;
    uint8_t ctx[ECOPT_ED25519_CONTEXTMAXBYTES];
    size_t ctxlen;
} variant;

static const char *variant_name(const variant *v)
{
    return v->prehash ? "Ed25519ph" : v->has_ctx ? "Ed25519ctx" : "Ed25519";
}

static int get_variant(const cli_opt *ctx, const cli_opt *ctxhex, const cli_opt *prehash, variant *v)
{
    memset(v, 0, sizeof *v);
    v->prehash = prehash->given;
    if (ctx->given && ctxhex->given)
        return cli_fail(CLI_USAGE, "--context-hex", "cannot be combined with --context");
    if (ctx->given) {
        size_t n = strlen(ctx->value);
        if (n > ECOPT_ED25519_CONTEXTMAXBYTES)
            return cli_fail(CLI_USAGE, "--context", "%zu bytes long; a context has at most %d", n,
                            ECOPT_ED25519_CONTEXTMAXBYTES);
        memcpy(v->ctx, ctx->value, n);
        v->ctxlen = n;
        v->has_ctx = 1;
    } else if (ctxhex->given) {
        size_t n = strlen(ctxhex->value);
        uint8_t check[1];
        size_t i;
        for (i = 0; i + 1 < n; i += 2)
            if (cli_hex_decode(check, ctxhex->value + i, 2) != 0)
                break;
        if (n % 2 != 0 || i < n)
            return cli_fail(CLI_USAGE, "--context-hex", "not a hex string (an even number of hex digits)");
        if (n / 2 > ECOPT_ED25519_CONTEXTMAXBYTES)
            return cli_fail(CLI_USAGE, "--context-hex", "%zu bytes long; a context has at most %d", n / 2,
                            ECOPT_ED25519_CONTEXTMAXBYTES);
        (void)cli_hex_decode(v->ctx, ctxhex->value, n);
        v->ctxlen = n / 2;
        v->has_ctx = 1;
    }
    if (v->has_ctx && v->ctxlen == 0 && !v->prehash)
        return cli_fail(CLI_USAGE, ctx->given ? "--context" : "--context-hex",
                        "empty; Ed25519ctx needs 1 to 255 bytes (omit it for pure Ed25519)");
    return CLI_OK;
}

/* ---- commands ---------------------------------------------------------------------------------------------- */

static int cmd_keygen(int argc, char **argv)
{
    cli_opt opts[] = { { "-o", "--out", 1, NULL, 0 } };
    const char *pos[1];
    size_t npos;
    cli_key key;
    int rc;

    rc = cli_parse_opts(argc, argv, opts, 1, pos, 1, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(keygen_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if (npos == 0)
        return cli_fail(CLI_USAGE, "TYPE", "missing: ed25519 or x25519 (see 'ecopt keygen --help')");
    memset(&key, 0, sizeof key);
    if (strcasecmp(pos[0], "ed25519") == 0)
        key.type = CLI_KEY_ED25519;
    else if (strcasecmp(pos[0], "x25519") == 0)
        key.type = CLI_KEY_X25519;
    else
        return cli_fail(CLI_USAGE, pos[0], "unknown key type; use ed25519 or x25519");
    if ((rc = cli_need(&opts[0], "the output file")) != CLI_OK)
        return rc;
    if ((rc = backend_init()) != CLI_OK)
        return rc;

    if (key.type == CLI_KEY_ED25519) {
        ecopt_ed25519_secretkey sk;
        rc = ecopt_ed25519_keygen(key.priv, &sk, key.pub);
        ecopt_ed25519_secretkey_wipe(&sk);
    } else {
        rc = ecopt_x25519_keygen(key.priv, key.pub);
    }
    key.has_private = 1;
    if (rc != ECOPT_OK)
        rc = lib_fail(rc, rc == ECOPT_ERR_RNG ? "getrandom" : pos[0]);
    else
        rc = cli_key_write_private(opts[0].value, &key);
    cli_key_wipe(&key);
    return rc;
}

static int cmd_pubkey(int argc, char **argv)
{
    cli_opt opts[] = { { "-i", "--in", 1, NULL, 0 }, { "-o", "--out", 1, NULL, 0 } };
    size_t npos;
    cli_key key;
    int rc;

    rc = cli_parse_opts(argc, argv, opts, 2, NULL, 0, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(pubkey_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if ((rc = cli_need(&opts[0], "the private key file")) != CLI_OK ||
        (opts[1].given && (rc = cli_out_not_input(opts[1].value, &opts[0], NULL, NULL)) != CLI_OK))
        return rc;
    if ((rc = backend_init()) != CLI_OK)
        return rc;
    rc = cli_key_load_any(opts[0].value, &key);
    if (rc == CLI_OK)
        rc = check_ed25519_public(opts[0].value, &key);
    if (rc == CLI_OK)
        rc = cli_key_write_public(opts[1].given ? opts[1].value : "-", &key);
    cli_key_wipe(&key);
    return rc;
}

static int cmd_sign(int argc, char **argv)
{
    cli_opt opts[] = { { "-k", "--key", 1, NULL, 0 },         { "-i", "--in", 1, NULL, 0 },
                   { "-o", "--out", 1, NULL, 0 },         { NULL, "--context", 1, NULL, 0 },
                   { NULL, "--context-hex", 1, NULL, 0 }, { NULL, "--prehash", 0, NULL, 0 },
                   { NULL, "--hex", 0, NULL, 0 } };
    cli_opt *o_key = &opts[0], *o_in = &opts[1], *o_out = &opts[2], *o_hex = &opts[6];
    size_t npos, msglen = 0;
    uint8_t *msg = NULL;
    uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES], digest[ECOPT_ED25519PH_DIGESTBYTES];
    char hex[2 * ECOPT_ED25519_SIGNATUREBYTES + 2];
    ecopt_ed25519_secretkey sk;
    variant v;
    cli_key key;
    int rc;

    rc = cli_parse_opts(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, 0, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(sign_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if ((rc = cli_need(o_key, "the private key file")) != CLI_OK || (rc = cli_need(o_in, "the file to sign")) != CLI_OK ||
        (rc = cli_need(o_out, "the signature file")) != CLI_OK)
        return rc;
    if ((rc = get_variant(&opts[3], &opts[4], &opts[5], &v)) != CLI_OK ||
        (rc = one_stdin(o_key, o_in, NULL)) != CLI_OK || (rc = no_binary_to_tty(o_out->value, o_hex->given)) != CLI_OK ||
        (rc = cli_out_not_input(o_out->value, o_key, o_in, NULL)) != CLI_OK)
        return rc;
    if ((rc = backend_init()) != CLI_OK)
        return rc;

    memset(&sk, 0, sizeof sk);
    rc = cli_key_load(o_key->value, CLI_KEY_ED25519, 1, &key);
    if (rc != CLI_OK)
        goto out;
    rc = ecopt_ed25519_keypair_from_seed(&sk, NULL, key.priv);
    if (rc != ECOPT_OK) {
        rc = lib_fail(rc, o_key->value);
        goto out;
    }
    /* Ed25519ph needs only SHA-512(FILE): streamed, so a large file is never held in memory. */
    if (v.prehash)
        rc = cli_sha512_file(o_in->value, digest);
    else
        rc = cli_read_file(o_in->value, 0, 0, NULL, &msg, &msglen);
    if (rc != CLI_OK)
        goto out;

    if (v.prehash)
        rc = ecopt_ed25519ph_sign_prehashed(sig, digest, v.ctx, v.ctxlen, &sk);
    else if (v.has_ctx)
        rc = ecopt_ed25519ctx_sign(sig, msg, msglen, v.ctx, v.ctxlen, &sk);
    else
        rc = ecopt_ed25519_sign(sig, msg, msglen, &sk);
    if (rc != ECOPT_OK) {
        rc = rc == ECOPT_ERR_LENGTH ? cli_fail(CLI_USAGE, "--context", "%s", ecopt_strerror(rc))
                                    : lib_fail(rc, o_key->value);
        goto out;
    }
    if (o_hex->given) {
        cli_hex_encode(hex, sig, sizeof sig);
        hex[2 * sizeof sig] = '\n';
        rc = cli_write_file(o_out->value, (const uint8_t *)hex, 2 * sizeof sig + 1, 0);
    } else {
        rc = cli_write_file(o_out->value, sig, sizeof sig, 0);
    }
out:
    ecopt_ed25519_secretkey_wipe(&sk);
    cli_key_wipe(&key);
    cli_free_buffer(msg, msglen, 0);
    return rc;
}

/* Read a signature file: 64 raw bytes, or (hex) 128 hex digits and an optional newline. */
static int read_signature(const char *path, int hex, uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES])
{
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    uint8_t *buf;
    size_t len, n;
    int rc = cli_read_file(path, 4096, 0, "a signature", &buf, &len);
    if (rc != CLI_OK)
        return rc;
    if (hex) {
        n = len;
        if (n > 0 && buf[n - 1] == '\n')
            n--;
        if (n > 0 && buf[n - 1] == '\r')
            n--;
        if (n != 2 * ECOPT_ED25519_SIGNATUREBYTES)
            rc = cli_fail(CLI_USAGE, name, "%zu characters; a hex signature is 128 hex digits (and a newline)", n);
        else if (cli_hex_decode(sig, (const char *)buf, n) != 0)
            rc = cli_fail(CLI_USAGE, name, "not a hex signature (a character other than 0-9, a-f, A-F)");
    } else if (len != ECOPT_ED25519_SIGNATUREBYTES) {
        uint8_t tmp[ECOPT_ED25519_SIGNATUREBYTES];
        n = len;
        if (n > 0 && buf[n - 1] == '\n')
            n--;
        if (n == 2 * ECOPT_ED25519_SIGNATUREBYTES && cli_hex_decode(tmp, (const char *)buf, n) == 0)
            rc = cli_fail(CLI_USAGE, name, "%zu bytes; an Ed25519 signature is 64 (this one looks like hex: "
                          "use --hex)", len);
        else
            rc = cli_fail(CLI_USAGE, name, "%zu bytes; an Ed25519 signature is 64", len);
    } else {
        memcpy(sig, buf, ECOPT_ED25519_SIGNATUREBYTES);
    }
    cli_free_buffer(buf, len, 0);
    return rc;
}

/* One signature line of verify --batch: public key, signature, message (may be empty), from hex. */
typedef struct {
    uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES], sig[ECOPT_ED25519_SIGNATUREBYTES];
    uint8_t *msg;
    size_t msglen, line;
} batch_line;

/* The rule a verdict names, as single verify names it. */
static const char *batch_rule(int rc)
{
    switch (rc) {
    case ECOPT_ERR_ENCODING:
        return "encoding";
    case ECOPT_ERR_SMALL_ORDER:
        return "small order";
    case ECOPT_ERR_VERIFY:
        return "equation";
    default:
        return "error";
    }
}

/* Parse one field of hex digits [p, p + n) into out (want bytes, or any count when want is 0: *outlen). */
static const char *batch_field(const char *p, size_t n, uint8_t *out, size_t want)
{
    if (want && n != 2 * want)
        return "wrong length";
    if (n % 2)
        return "an odd number of hex digits";
    if (n && cli_hex_decode(out, p, n) != 0)
        return "not hex (a character other than 0-9, a-f, A-F)";
    return NULL;
}

static int cmd_verify_batch(const char *path, int zip215)
{
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    uint8_t *buf = NULL;
    size_t len = 0, nlines = 0, cap = 0;
    batch_line *lines = NULL;
    int rc = cli_read_file(path, 0, 0, NULL, &buf, &len);
    if (rc != CLI_OK)
        return rc;
    for (size_t off = 0, lineno = 1; off < len; lineno++) {
        const char *p = (const char *)buf + off;
        size_t n = 0;
        while (off + n < len && p[n] != '\n')
            n++;
        off += n + 1;
        if (n > 0 && p[n - 1] == '\r')
            n--;
        /* A line is read whole, up to its newline: a byte that no field or separator can hold (a NUL, another
         * control byte, anything above 0x7e such as a UTF-8 byte order mark) is named, not mistaken for a short
         * field. Comment lines may hold any byte after their '#'. */
        size_t lead = 0;
        while (lead < n && (p[lead] == ' ' || p[lead] == '\t'))
            lead++;
        if (lead == n || p[lead] != '#') {
            for (size_t c = 0; c < n; c++) {
                unsigned char ch = (unsigned char)p[c];
                if (ch == '\t' || (ch >= 0x20 && ch < 0x7f))
                    continue;
                char what[4200];
                snprintf(what, sizeof what, "%s:%zu", name, lineno);
                int bom = lineno == 1 && c == 0 && n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0;
                rc = cli_fail(CLI_USAGE, what, "unexpected byte 0x%02x at column %zu%s (nothing verified)", ch, c + 1,
                              bom ? ": a UTF-8 byte order mark; save the list without it" : "");
                goto out;
            }
        }
        /* fields separated by spaces or tabs */
        const char *f[4];
        size_t fl[4], nf = 0, i = 0;
        while (i < n) {
            while (i < n && (p[i] == ' ' || p[i] == '\t'))
                i++;
            if (i >= n)
                break;
            size_t j = i;
            while (j < n && p[j] != ' ' && p[j] != '\t')
                j++;
            if (nf < 4)
                f[nf] = p + i, fl[nf] = j - i;
            nf++;
            i = j;
        }
        if (nf == 0 || f[0][0] == '#')
            continue;
        const char *why = NULL, *which = "";
        if (nf < 2 || nf > 3) {
            why = "expected PUBKEY-HEX SIG-HEX [MSG-HEX]";
        } else {
            if (nlines == cap) {
                cap = cap ? 2 * cap : 64;
                batch_line *grown = realloc(lines, cap * sizeof *lines);
                if (grown == NULL) {
                    rc = cli_fail(CLI_ENV, name, "out of memory");
                    goto out;
                }
                lines = grown;
            }
            batch_line *b = &lines[nlines];
            b->line = lineno;
            b->msglen = nf == 3 ? fl[2] / 2 : 0;
            b->msg = malloc(b->msglen + 1);
            if (b->msg == NULL) {
                rc = cli_fail(CLI_ENV, name, "out of memory");
                goto out;
            }
            nlines++;
            if ((why = batch_field(f[0], fl[0], b->pub, sizeof b->pub)) != NULL)
                which = "public key: ";
            else if ((why = batch_field(f[1], fl[1], b->sig, sizeof b->sig)) != NULL)
                which = "signature: ";
            else if (nf == 3 && (why = batch_field(f[2], fl[2], b->msg, 0)) != NULL)
                which = "message: ";
            if (why && why[0] == 'w')
                why = which[0] == 'p' ? "wrong length (64 hex digits)" : "wrong length (128 hex digits)";
        }
        if (why) { /* the first malformed line is named, and nothing is verified */
            char what[4200];
            snprintf(what, sizeof what, "%s:%zu", name, lineno);
            rc = cli_fail(CLI_USAGE, what, "%s%s (nothing verified)", which, why);
            goto out;
        }
    }
    if ((rc = backend_init()) != CLI_OK)
        goto out;
    {
        uint8_t *sigs = malloc(64 * nlines + 1), *pubs = malloc(32 * nlines + 1);
        const uint8_t **msgs = malloc(sizeof *msgs * nlines + 1);
        size_t *lens = malloc(sizeof *lens * nlines + 1);
        int *res = malloc(sizeof *res * nlines + 1), lrc;
        if (!sigs || !pubs || !msgs || !lens || !res) {
            rc = cli_fail(CLI_ENV, name, "out of memory");
        } else {
            for (size_t k = 0; k < nlines; k++) {
                memcpy(sigs + 64 * k, lines[k].sig, 64);
                memcpy(pubs + 32 * k, lines[k].pub, 32);
                msgs[k] = lines[k].msg;
                lens[k] = lines[k].msglen;
            }
            lrc = ecopt_ed25519_verify_batch(res, sigs, msgs, lens, pubs, nlines,
                                             zip215 ? ECOPT_VERIFY_ZIP215 : ECOPT_VERIFY_STRICT);
            /* Any verdict left unknown (getrandom or SHA-512 unavailable) fails the run, nothing printed; the
             * library sets ECOPT_ERR_RNG only where the verdict needed randomness, so a list whose items all fail
             * their own rules still gets its verdicts. */
            int envfail = lrc == ECOPT_ERR_RNG || lrc == ECOPT_ERR_NOMEM ? lrc : ECOPT_OK;
            for (size_t k = 0; k < nlines && envfail == ECOPT_OK; k++)
                if (res[k] == ECOPT_ERR_RNG || res[k] == ECOPT_ERR_NOMEM)
                    envfail = res[k];
            if (envfail != ECOPT_OK) {
                rc = lib_fail(envfail, name);
            } else {
                size_t nbad = 0;
                for (size_t k = 0; k < nlines; k++) {
                    if (res[k] == ECOPT_OK)
                        printf("%zu: OK\n", lines[k].line);
                    else
                        printf("%zu: FAIL %s: %s\n", lines[k].line, batch_rule(res[k]), ecopt_strerror(res[k])), nbad++;
                }
                if (fflush(stdout) != 0)
                    rc = cli_fail(CLI_ENV, "standard output", "write failed");
                else if (nbad)
                    rc = cli_fail(CLI_NO, name, "%zu of %zu signature%s rejected%s", nbad, nlines,
                                  nlines == 1 ? "" : "s", zip215 ? " (ZIP-215)" : "");
                else
                    rc = CLI_OK;
            }
        }
        free(sigs), free(pubs), free(msgs), free(lens), free(res);
    }
out:
    for (size_t k = 0; k < nlines; k++)
        free(lines[k].msg);
    free(lines);
    cli_free_buffer(buf, len, 0);
    return rc;
}

static int cmd_verify(int argc, char **argv)
{
    cli_opt opts[] = { { "-p", "--pub", 1, NULL, 0 },         { "-i", "--in", 1, NULL, 0 },
                   { "-s", "--sig", 1, NULL, 0 },         { NULL, "--context", 1, NULL, 0 },
                   { NULL, "--context-hex", 1, NULL, 0 }, { NULL, "--prehash", 0, NULL, 0 },
                   { NULL, "--hex", 0, NULL, 0 },         { NULL, "--zip215", 0, NULL, 0 },
                   { NULL, "--batch", 1, NULL, 0 } };
    cli_opt *o_pub = &opts[0], *o_in = &opts[1], *o_sig = &opts[2], *o_hex = &opts[6], *o_zip215 = &opts[7];
    cli_opt *o_batch = &opts[8];
    size_t npos, msglen = 0;
    uint8_t *msg = NULL;
    uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES], digest[ECOPT_ED25519PH_DIGESTBYTES];
    const char *rule, *detail;
    variant v;
    cli_key key;
    int rc;

    rc = cli_parse_opts(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, 0, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(verify_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if (o_batch->given) {
        /* The list holds keys, signatures and messages itself: pure Ed25519 only, every other option refused. */
        for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
            if (opts[k].given && &opts[k] != o_batch && &opts[k] != o_zip215) {
                /* both spellings: the user may have typed either */
                char both[64];
                snprintf(both, sizeof both, "%s%s%s", opts[k].shortname ? opts[k].shortname : "",
                         opts[k].shortname ? "/" : "", opts[k].longname);
                return cli_fail(CLI_USAGE, both, "not with --batch (the list holds keys, signatures and "
                                "messages: pure Ed25519, --zip215 allowed)");
            }
        return cmd_verify_batch(o_batch->value, o_zip215->given);
    }
    if ((rc = cli_need(o_pub, "the public key file")) != CLI_OK || (rc = cli_need(o_in, "the signed file")) != CLI_OK ||
        (rc = cli_need(o_sig, "the signature file")) != CLI_OK)
        return rc;
    if ((rc = get_variant(&opts[3], &opts[4], &opts[5], &v)) != CLI_OK ||
        (rc = one_stdin(o_pub, o_in, o_sig)) != CLI_OK)
        return rc;
    if (o_zip215->given && (v.prehash || v.has_ctx))
        return cli_fail(CLI_USAGE, "--zip215", "defined for pure Ed25519 only (no --context, no --prehash)");
    if ((rc = backend_init()) != CLI_OK)
        return rc;

    memset(&key, 0, sizeof key);
    /* ZIP 215 accepts non-canonical and small-order keys, so only the strict policy checks the key first. */
    if ((rc = cli_key_load(o_pub->value, CLI_KEY_ED25519, 0, &key)) != CLI_OK ||
        (!o_zip215->given && (rc = check_ed25519_public(o_pub->value, &key)) != CLI_OK) ||
        (rc = read_signature(o_sig->value, o_hex->given, sig)) != CLI_OK ||
        (rc = v.prehash ? cli_sha512_file(o_in->value, digest)
                        : cli_read_file(o_in->value, 0, 0, NULL, &msg, &msglen)) != CLI_OK)
        goto out;

    if (v.prehash)
        rc = ecopt_ed25519ph_verify_prehashed(sig, digest, v.ctx, v.ctxlen, key.pub);
    else if (v.has_ctx)
        rc = ecopt_ed25519ctx_verify(sig, msg, msglen, v.ctx, v.ctxlen, key.pub);
    else if (o_zip215->given)
        rc = ecopt_ed25519_verify_zip215(sig, msg, msglen, key.pub);
    else
        rc = ecopt_ed25519_verify(sig, msg, msglen, key.pub);

    switch (rc) {
    case ECOPT_OK:
        printf("Signature OK (%s%s)\n", variant_name(&v), o_zip215->given ? ", ZIP-215" : "");
        rc = CLI_OK;
        goto out;
    /* The rule that failed (policy in ecopt.h). Under the strict policy A passed its checks above (or was derived
     * from a private key), so a point check that fails is R's; under ZIP 215 the library does not say which. */
    case ECOPT_ERR_ENCODING:
        rule = "encoding";
        detail = o_zip215->given ? "public key A or R not a curve point, or S >= l" : "R not canonical, or S >= l";
        break;
    case ECOPT_ERR_SMALL_ORDER:
        rule = "small order";
        detail = "R";
        break;
    case ECOPT_ERR_VERIFY:
        rule = "equation";
        detail = "wrong key, message, context or variant?";
        break;
    case ECOPT_ERR_LENGTH:
        rc = cli_fail(CLI_USAGE, "--context", "%s", ecopt_strerror(rc));
        goto out;
    default:
        rc = lib_fail(rc, o_sig->value);
        goto out;
    }
    rc = cli_fail(CLI_NO, strcmp(o_sig->value, "-") == 0 ? "standard input" : o_sig->value,
                  "%s%s signature rejected, %s: %s (%s)", variant_name(&v), o_zip215->given ? " (ZIP-215)" : "", rule,
                  ecopt_strerror(rc), detail);
out:
    cli_key_wipe(&key);
    cli_free_buffer(msg, msglen, 0);
    return rc;
}

static int cmd_x25519(int argc, char **argv)
{
    cli_opt opts[] = { { "-k", "--key", 1, NULL, 0 },
                   { "-p", "--peer", 1, NULL, 0 },
                   { "-o", "--out", 1, NULL, 0 },
                   { NULL, "--hex", 0, NULL, 0 } };
    cli_opt *o_key = &opts[0], *o_peer = &opts[1], *o_out = &opts[2], *o_hex = &opts[3];
    const char *out;
    uint8_t secret[ECOPT_X25519_BYTES];
    char hex[2 * ECOPT_X25519_BYTES + 2];
    cli_key key, peer;
    size_t npos;
    int rc;

    rc = cli_parse_opts(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, 0, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(x25519_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if ((rc = cli_need(o_key, "your private key file")) != CLI_OK || (rc = cli_need(o_peer, "the peer's public key file")) != CLI_OK)
        return rc;
    out = o_out->given ? o_out->value : "-";
    if ((rc = one_stdin(o_key, o_peer, NULL)) != CLI_OK || (rc = no_binary_to_tty(out, o_hex->given)) != CLI_OK ||
        (rc = cli_out_not_input(out, o_key, o_peer, NULL)) != CLI_OK)
        return rc;
    if ((rc = backend_init()) != CLI_OK)
        return rc;

    memset(&key, 0, sizeof key);
    memset(&peer, 0, sizeof peer);
    memset(secret, 0, sizeof secret);
    memset(hex, 0, sizeof hex);
    if ((rc = cli_key_load(o_key->value, CLI_KEY_X25519, 1, &key)) != CLI_OK ||
        (rc = cli_key_load(o_peer->value, CLI_KEY_X25519, 0, &peer)) != CLI_OK)
        goto out;
    rc = ecopt_x25519(secret, key.priv, peer.pub);
    if (rc == ECOPT_ERR_SMALL_ORDER) {
        rc = cli_fail(CLI_USAGE, strcmp(o_peer->value, "-") == 0 ? "standard input" : o_peer->value,
                      "the peer's public key has small order (the shared secret would be all zero)");
        goto out;
    }
    if (rc != ECOPT_OK) {
        rc = lib_fail(rc, o_key->value);
        goto out;
    }
    if (o_hex->given) {
        cli_hex_encode(hex, secret, sizeof secret);
        hex[2 * sizeof secret] = '\n';
        rc = cli_write_file(out, (const uint8_t *)hex, 2 * sizeof secret + 1, 1);
    } else {
        rc = cli_write_file(out, secret, sizeof secret, 1);
    }
out:
    cli_wipe(secret, sizeof secret);
    cli_wipe(hex, sizeof hex);
    cli_key_wipe(&key);
    cli_key_wipe(&peer);
    return rc;
}

static int cmd_version(int argc, char **argv)
{
    size_t npos;
    const char *name;
    int rc = cli_parse_opts(argc, argv, NULL, 0, NULL, 0, &npos);
    if (rc == CLI_PARSE_HELP)
        return fputs(version_help, stdout), CLI_OK;
    if (rc != CLI_OK)
        return rc;
    /* The backend first: on failure nothing at all goes to standard output. */
    if ((rc = backend_init()) != CLI_OK)
        return rc;
    printf("ecopt %s\n", ecopt_version());
    name = ecopt_backend_name();
    printf("backend: %s\n", name ? name : "(none)");
    printf("compiled in: %s\n", ecopt_backend_list());
    return CLI_OK;
}

/* ---- main -------------------------------------------------------------------------------------------------- */

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} command;

static const command commands[] = {
    { "keygen", cmd_keygen, keygen_help }, { "pubkey", cmd_pubkey, pubkey_help },
    { "sign", cmd_sign, sign_help },       { "verify", cmd_verify, verify_help },
    { "x25519", cmd_x25519, x25519_help }, { "version", cmd_version, version_help },
    { "gen", cli_cmd_gen, cli_gen_help },  { "ir", cli_cmd_ir, cli_ir_help },
#ifdef ECOPT_HAVE_CHECK
    { "check", cli_cmd_check, cli_check_help },
#endif
#ifdef ECOPT_HAVE_OPT
    { "opt", cli_cmd_opt, cli_opt_help },
#endif
};

static const command *find_command(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* Output that cannot be written is a failure of the environment, also for text printed with stdio. */
static int finish(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (rc == CLI_OK)
            rc = cli_fail(CLI_ENV, "standard output", "cannot write");
    }
    return rc;
}

int main(int argc, char **argv)
{
    const command *c;

    if (argc < 2)
        return cli_fail(CLI_USAGE, NULL, "missing command (see 'ecopt --help')");
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
        return fputs(main_help, stdout), finish(CLI_OK);
    if (strcmp(argv[1], "--version") == 0)
        argv[1] = (char *)"version";
    if (strcmp(argv[1], "help") == 0) {
        cli_cmd = "help";
        if (argc == 2)
            return fputs(main_help, stdout), finish(CLI_OK);
        if (argc > 3)
            return cli_fail(CLI_USAGE, argv[3], "unexpected argument (usage: ecopt help [COMMAND])");
        if (strcmp(argv[2], "help") == 0 || strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0)
            return fputs(main_help, stdout), finish(CLI_OK);
        c = find_command(argv[2]);
        if (c == NULL)
            return cli_fail(CLI_USAGE, argv[2], "unknown command (see 'ecopt --help')");
        return fputs(c->help, stdout), finish(CLI_OK);
    }
    c = find_command(argv[1]);
    if (c == NULL)
        return cli_fail(CLI_USAGE, argv[1], "unknown command (see 'ecopt --help')");
    cli_cmd = c->name;
    cli_install_signal_cleanup();
    return finish(c->run(argc - 2, argv + 2));
}
