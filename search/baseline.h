/* baseline.h — the compilers' versions of an IR function, for the optimizer's speedup over gcc
 * and clang (-O3 -march=native -mtune=native compiling the C that `ecopt ir --emit c` emits for the same IR).
 *
 * baseline_build emits f as C in-process (emit/emit_c.h, default options: the same text `ecopt ir --emit c`
 * prints), writes it to a fresh private directory ($TMPDIR or /tmp, "ecopt-baseline-XXXXXX"), runs
 * `<cc> -O3 -march=native -mtune=native -fPIC -shared -o f.so f.c` (no shell), dlopens the result and removes the
 * directory with its files at once (the loaded code stays mapped), so a process killed later leaves nothing
 * behind. The function has the fiat signature (outputs, then inputs; measure.h) and may be called through
 * measure_fn. */
#ifndef ECOPT_SEARCH_BASELINE_H
#define ECOPT_SEARCH_BASELINE_H

#include <stddef.h>

#include "ir/ir.h"
#include "search/measure.h"

#define BASELINE_FLAGS "-O3 -march=native -mtune=native -fPIC -shared"

typedef struct {
    void *dl;            /* dlopen handle, NULL when not built */
    measure_fn fn;       /* the function f->name in dl */
    char cc[16];         /* "gcc" or "clang" */
    char flags[128];     /* BASELINE_FLAGS */
    char version[128];   /* the first line of `<cc> --version` ("gcc (Debian 12.2.0-14) 12.2.0"), "" if unknown */
    char dir[256];       /* the temporary directory while baseline_build runs; "" once it returns */
} baseline;

/* baseline_build — compile f with cc ("gcc" or "clang") into *out (zeroed first). Returns 0, or -1 with err,
 * one line: "baseline: unknown compiler `tcc` (gcc or clang)", "baseline: clang not found", "baseline: gcc
 * failed: <its first stderr line>", an emit_c error, a dlopen/dlsym error. On failure nothing is left behind
 * and *out needs no baseline_free (calling it is harmless). */
int baseline_build(const ir_func *f, const char *cc, baseline *out, char *err, size_t errlen);

/* baseline_free — dlclose (and remove the temporary directory, should one be left); *b is zeroed. NULL or zeroed
 * b: nothing. */
void baseline_free(baseline *b);

/* baseline_cc_available — 1 when `<cc> --version` runs and exits 0, else 0. */
int baseline_cc_available(const char *cc);

#endif
