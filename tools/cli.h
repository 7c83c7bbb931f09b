/* cli.h — what the parts of the ecopt command share: exit codes, diagnostics, file I/O, hex, key files.
 *
 * Every function that can fail prints its own diagnostic, one line on stderr in the form
 *     ecopt <cmd>: <file|arg>: <reason>
 * and returns the exit code the command should end with (CLI_OK when it did not fail). Callers pass the code
 * up unchanged, wipe their secrets, and exit with it. Messages never contain secret bytes. */
#ifndef ECOPT_TOOLS_CLI_H
#define ECOPT_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

/* Exit codes (STYLE.md, "Errors and the CLI"). */
enum {
    CLI_OK = 0,       /* success */
    CLI_NO = 1,       /* the answer is no: a signature does not verify */
    CLI_USAGE = 2,    /* bad usage or bad input: options, missing or malformed files, wrong key type, lengths */
    CLI_ENV = 3       /* the environment failed: writing output, getrandom, memory */
};

/* The command being run ("keygen", "sign", ...), for diagnostics; set once by main. */
extern const char *cli_cmd;

/* cli_fail — print "ecopt <cmd>: <what>: <printf-formatted reason>" on stderr and return code. Control
 * characters in what and in the formatted reason (user-supplied names and values) are escaped as \n, \r, \t or
 * \xNN, so the message is always one line. */
int cli_fail(int code, const char *what, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* cli_wipe — overwrite n bytes with zeros in a way the compiler keeps (OPENSSL_cleanse). */
void cli_wipe(void *p, size_t n);

/* ---- files ------------------------------------------------------------------------------------------------- */

/* cli_read_file — read a whole file ("-" is standard input) into a fresh heap buffer.
 * max is the largest accepted size in bytes (0: no limit besides memory); secret says the contents are secret,
 * so every intermediate buffer is wiped. what_max names the kind of file in the "too large" message.
 * Returns CLI_OK with *out (free it with cli_free_buffer) and *outlen; CLI_USAGE when the file is missing,
 * unreadable or over max; CLI_ENV when memory runs out. */
int cli_read_file(const char *path, size_t max, int secret, const char *what_max, uint8_t **out, size_t *outlen);

/* cli_sha512_file — digest = SHA-512 of the whole file ("-" is standard input), read in fixed 64 KiB pieces, so
 * that memory use does not grow with the file (Ed25519ph's PH(M) for --prehash). Not for secrets (the pieces are
 * not wiped). Returns CLI_OK; CLI_USAGE when the file is missing or unreadable; CLI_ENV when libcrypto fails
 * (digest zeroed on error). */
int cli_sha512_file(const char *path, uint8_t digest[64]);

/* cli_free_buffer — wipe (when secret) and free a buffer from cli_read_file. NULL is fine. */
void cli_free_buffer(uint8_t *buf, size_t len, int secret);

/* cli_path_fd — whether path names one of this process's open-file descriptors: /dev/stdin, /dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N, /proc/<own pid>/fd/N (recognised by spelling,
 * even where the name does not exist), or a chain of symbolic links that reaches one of them or a directory that
 * resolves to /proc/<own pid>/fd. Returns 1 with *fd set; -1 when the chain reaches a descriptor of another
 * process (/proc/<other pid>/fd/N, /proc/<other pid>/task/<tid>/fd/N); else 0. Does not check that the
 * descriptor is open. */
int cli_path_fd(const char *path, int *fd);

/* cli_write_file — write len bytes to path, or to standard output when path is "-".
 * A name of a descriptor (cli_path_fd) is written through that descriptor as "-" is through standard output: at
 * its offset, append mode kept, never truncated, created or renamed; a descriptor that is not open, or open only
 * for reading, is an error (CLI_ENV). A descriptor of another process is refused (CLI_USAGE).
 * Any other symbolic link is followed: a link to a regular file has its target replaced, the link stays. An existing
 * file that is not a regular file (a device such as /dev/null, a FIFO, a socket) is opened and written through,
 * never replaced or created; a directory is an error. Otherwise (a regular file, or a new name) the data is
 * written to a temporary name in the directory of the (resolved) target (mode 0600), flushed to disk and renamed
 * over it, so it holds either the old or the complete new contents and nothing is left behind on failure
 * (nor on SIGINT, SIGTERM, SIGHUP). secret: the file keeps mode 0600; otherwise it gets 0666 & ~umask.
 * Returns CLI_OK; CLI_ENV when anything fails. */
int cli_write_file(const char *path, const uint8_t *data, size_t len, int secret);

/* cli_install_signal_cleanup — make SIGINT, SIGTERM and SIGHUP remove a half-written temporary file. */
void cli_install_signal_cleanup(void);

/* ---- hex --------------------------------------------------------------------------------------------------- */

/* cli_hex_encode — 2*len lowercase hex digits and a NUL into out (2*len + 1 bytes). */
void cli_hex_encode(char *out, const uint8_t *in, size_t len);

/* cli_hex_decode — decode exactly inlen hex digits (either case) into out (inlen/2 bytes).
 * Returns 0; -1 when inlen is odd or a character is not a hex digit. Not constant time: public data only. */
int cli_hex_decode(uint8_t *out, const char *in, size_t inlen);

/* ---- key files (RFC 8410 PEM) ------------------------------------------------------------------------------ */

typedef enum { CLI_KEY_ED25519 = 1, CLI_KEY_X25519 = 2 } cli_key_type;

typedef struct cli_key {
    cli_key_type type;
    int has_private;  /* 1: read from a PKCS#8 private key; priv holds the seed (Ed25519) or scalar (X25519) */
    uint8_t priv[32]; /* secret; wipe with cli_key_wipe */
    uint8_t pub[32];  /* the public key: read from the file, or derived from priv with libecopt */
} cli_key;

/* cli_key_name — "Ed25519" or "X25519". */
const char *cli_key_name(cli_key_type type);

/* cli_key_load — read a PEM key file ("-" is standard input).
 * want: the key type the command needs. need_private: 1 when only a PKCS#8 private key will do; 0 when a
 * SubjectPublicKeyInfo public key is wanted (a private key is accepted too and its public key derived).
 * PKCS#8 v2 (OneAsymmetricKey, version 1), encrypted keys and other PEM blocks are refused.
 * Returns CLI_OK; CLI_USAGE for a missing, malformed, unsupported or wrong-type key; CLI_ENV for memory or
 * the backend failing. On error *key is wiped. */
int cli_key_load(const char *path, cli_key_type want, int need_private, cli_key *key);

/* cli_key_load_any — as cli_key_load, accepting either key type and either kind (private or public). */
int cli_key_load_any(const char *path, cli_key *key);

/* cli_key_write_private — write key->priv as an unencrypted PKCS#8 v1 PEM file with mode 0600. */
int cli_key_write_private(const char *path, const cli_key *key);

/* cli_key_write_public — write key->pub as a SubjectPublicKeyInfo PEM file. */
int cli_key_write_public(const char *path, const cli_key *key);

/* cli_key_wipe — zero the whole structure. */
void cli_key_wipe(cli_key *key);

/* ---- options ----------------------------------------------------------------------------------------------- */

typedef struct cli_opt {
    const char *shortname; /* "-k", or NULL */
    const char *longname;  /* "--key" */
    int has_arg;
    const char *value;     /* the argument, when given */
    int given;
} cli_opt;

#define CLI_PARSE_HELP (-1)

/* cli_parse_opts — parse args against opts; positional arguments go to pos (at most maxpos). Returns CLI_OK,
 * CLI_PARSE_HELP when -h/--help was given, or CLI_USAGE after printing why. Accepts "--long=value" and "--". */
int cli_parse_opts(int argc, char **argv, cli_opt *opts, size_t nopts, const char **pos, size_t maxpos,
                   size_t *npos);

/* cli_need — CLI_OK when o was given, else CLI_USAGE after "missing: <what>". */
int cli_need(const cli_opt *o, const char *what);

/* cli_out_not_input — CLI_USAGE (with a message) when the output file out is the same file as one of the given
 * inputs a, b, c (NULL or not given: skipped; "-" is standard input); CLI_OK otherwise. */
int cli_out_not_input(const char *out, const cli_opt *a, const cli_opt *b, const cli_opt *c);

/* ---- field-arithmetic subcommands (ir_cmds.c) --------------------------------------------------------------- */
extern const char cli_gen_help[], cli_ir_help[];
int cli_cmd_gen(int argc, char **argv); /* ecopt gen */
int cli_cmd_ir(int argc, char **argv);  /* ecopt ir */
extern const char cli_check_help[]; int cli_cmd_check(int argc, char **argv); /* ecopt check (check_cmd.c) */
extern const char cli_opt_help[]; int cli_cmd_opt(int argc, char **argv); /* ecopt opt (opt_cmd.c) */

#endif /* ECOPT_TOOLS_CLI_H */
