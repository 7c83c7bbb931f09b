/* emit_c.h — IR to readable, deterministic C (issue 4, "C emitter").
 *
 * One C statement per IR node, uint64_t and unsigned __int128, small helpers static inline; selects (cmovznz)
 * without branches: m = 0 - (uint64_t)(c != 0) passed through a value barrier, then (m & nz) | (~m & z).
 * The function is exported under f->name with the fiat signature: every output array (in declaration order), then
 * every input array, as `uint64_t out1[n]` / `const uint64_t arg1[n]`. */
#ifndef ECOPT_EMIT_C_H
#define ECOPT_EMIT_C_H

#include <stdbool.h>

#include "ir/ir.h"

typedef struct {
    const char *command;     /* the command that made it, for the header ("ecopt gen --prime ..."); NULL: none */
    const char *inputs;      /* "sha256 <hex>  <name>" lines for the header, '\n'-separated; NULL: none */
    bool no_header;          /* omit the header and the includes (several functions in one file) */
    bool no_helpers;         /* omit the static inline helpers (already emitted once in this file) */
    bool is_static;          /* declare the function static (e.g. used inside a library file) */
} emit_c_opts;

/* emit_c — the C text for f (heap string, free it), NULL with err filled (an IR the emitter cannot express). */
char *emit_c(const ir_func *f, const emit_c_opts *opts, char *err, size_t errlen);

/* emit_c_helpers — just the helpers (barrier, addcarryx, subborrowx, mulx, cmovznz, shrd) as a heap string. */
char *emit_c_helpers(void);

#endif
