/* emit_c.h — IR to readable, deterministic C (docs/optimizer.md, "C emitter").
 *
 * One C statement per IR node (one line each; a node with two results declares both, then calls its helper),
 * uint64_t, ecopt_u1 (uint8_t) and ecopt_u128 (unsigned __int128), small helpers static inline (ecopt_mulx,
 * ecopt_addcarryx, ecopt_subborrowx with the split size, ecopt_cmovznz_u64/_u128, ecopt_shrd); selects (cmovznz)
 * without branches: m = 0 - (uint64_t)(c != 0) passed through a value barrier (an empty asm), then
 * (m & nz) | (~m & z). The text never contains `?`, `if`, `&&` or `||`.
 * The function is exported under f->name with the fiat signature: every output array (in declaration order), then
 * every input array, as `uint64_t out1[n]` / `const uint64_t arg1[n]`, preceded by the STYLE.md contract comment
 * and a prototype (for -Wmissing-prototypes). When the IR has a load after a store, all loads are emitted first (an
 * output may be the same memory as an input). Value and array names become C identifiers: other characters turn
 * into '_', keywords, reserved names and the helpers' prefix ecopt_ get "v_" in front, repeats get "_2", "_3", ...
 * The text compiles warning-free with -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
 * (also -Wconversion -Wsign-conversion -Wpedantic) under gcc and clang. */
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

/* emit_c — the C text for f (heap string, free it; opts NULL: header and helpers with "none" for command and
 * inputs), NULL with err filled: f->name is not a C identifier, f does not pass ir_validate (the message names the
 * node or the output limb), or an operation the emitter cannot express. */
char *emit_c(const ir_func *f, const emit_c_opts *opts, char *err, size_t errlen);

/* emit_c_helpers — just the helpers (barrier, addcarryx, subborrowx, mulx, cmovznz, shrd) as a heap string. */
char *emit_c_helpers(void);

#endif
