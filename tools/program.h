/* program.h — the program a command works on, for `ecopt check` and `ecopt opt`: a function of a fiat-crypto JSON
 * file (--fiat F.json --function NAME), an IR text file (--ir FILE.ir [--function NAME]: its last function, or the
 * one named, with the callees defined before it), or a generator spec (--prime P --method M --limbs N --op OP, as
 * in `ecopt gen`). */
#ifndef ECOPT_TOOLS_PROGRAM_H
#define ECOPT_TOOLS_PROGRAM_H

#include "cli.h"
#include "ir/ir.h"

typedef struct {
    const cli_opt *fiat, *function, *ir, *prime, *method, *limbs, *op;
} cli_program_src;

/* cli_program_gen_given — whether any of the generator options was given. */
int cli_program_gen_given(const cli_program_src *p);

/* cli_program_check — CLI_OK when exactly one source is given, with --function where a JSON file needs it and not
 * with a generator spec; else CLI_USAGE after a one-line message naming `cmd` ("check", "opt") for --help. */
int cli_program_check(const cli_program_src *p, const char *cmd);

/* cli_program_load — the program (call cli_program_check first). *out is the loaded function (ir_func_free it).
 * sha256_hex (65 bytes, may be NULL) gets the sha256 of the source file, or for a generator spec that of the
 * program's IR text (ir_print). Returns CLI_OK, CLI_USAGE (unreadable or malformed source, with its message) or
 * CLI_ENV (out of memory). */
int cli_program_load(const cli_program_src *p, ir_func **out, char *sha256_hex);

/* cli_base_name — the part of path after its last '/'. */
const char *cli_base_name(const char *path);

/* cli_strip_name — msg without a leading "<path>: " or "<base name>: " (the readers' messages may start with the
 * file's name, which the diagnostic already gives). */
const char *cli_strip_name(const char *msg, const char *path);

#endif
