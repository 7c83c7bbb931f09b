/* ladder_prog.h — the X25519 ladder step as one IR program for the tests: the generated 2^255-19 field operations
 * it calls (5 x 51 unsaturated Solinas carry_mul, carry_square, add, sub as fe_mul, fe_sq, fe_add, fe_sub, printed
 * by ir_print) in front of tests/ir/ladderstep.ir, which composes them with `call` (RFC 7748 section 5). */
#ifndef ECOPT_TESTS_LADDER_PROG_H
#define ECOPT_TESTS_LADDER_PROG_H

#include <stddef.h>

#include "ir/ir.h"

/* ladder_prog_load — the ladder step (the text's last function) parsed, or NULL with err (size errlen) set:
 * a generator failure, an unreadable ladder_path, a parse error, or out of memory. */
ir_func *ladder_prog_load(const char *ladder_path, char *err, size_t errlen);

#endif
