/* cc_util.h — compile C text at test time, load it, and look for branches in the machine code (the
 * emitted C is compiled with gcc and clang, run against the interpreter, and disassembled).
 *
 * Every build uses the project's warning flags (CC_UTIL_WARN: C11, -Wall -Wextra -Werror -Wshadow
 * -Wstrict-prototypes -Wmissing-prototypes), so emitted code that the library could not compile fails here too.
 * Compilers run directly (fork + execvp, no shell); their output goes into the err buffer on failure. */
#ifndef ECOPT_TESTS_IR_CC_UTIL_H
#define ECOPT_TESTS_IR_CC_UTIL_H

#include <stddef.h>

#define CC_UTIL_WARN "-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"

/* cc_available — 1 when `cc --version` runs and exits 0 (cached per name), else 0. */
int cc_available(const char *cc);

/* cc_tmpdir — a fresh private directory ($TMPDIR or /tmp, "ecopt-cc-XXXXXX") into dir (size len).
 * 0, or -1 with err. */
int cc_tmpdir(char *dir, size_t len, char *err, size_t errlen);

/* cc_rmtree — remove dir and everything in it. 0, or -1 when something could not be removed. */
int cc_rmtree(const char *dir);

/* cc_build_so — write csrc to dir/<stem>.c and compile it with `cc CC_UTIL_WARN opt -fPIC -shared` into
 * dir/<stem>.so (path into so_path, size so_len). opt is split at spaces ("-O3 -march=native"). 0, or -1 with err
 * (the compiler's messages, or why it could not run). A stem used twice in one dir overwrites the earlier files. */
int cc_build_so(const char *cc, const char *opt, const char *csrc, const char *dir, const char *stem, char *so_path,
                size_t so_len, char *err, size_t errlen);

/* cc_build_obj — the same into an object file dir/<stem>.o (`-c`, no -shared), for cc_find_conditional_jumps. */
int cc_build_obj(const char *cc, const char *opt, const char *csrc, const char *dir, const char *stem,
                 char *obj_path, size_t obj_len, char *err, size_t errlen);

/* cc_dlopen — dlopen(path, RTLD_NOW | RTLD_LOCAL); NULL with err (dlerror). Close with cc_dlclose. */
void *cc_dlopen(const char *path, char *err, size_t errlen);
void cc_dlclose(void *handle);

/* cc_fn — a function pointer type to hold any symbol; call it through a cast to its real type. */
typedef void (*cc_fn)(void);
/* cc_dlsym — the function symbol name in handle, NULL with err when absent. */
cc_fn cc_dlsym(void *handle, const char *name, char *err, size_t errlen);

/* cc_call_arrays — call fn(a[0], ..., a[n-1]) where fn is `void fn(uint64_t *, ...)` with n pointer arguments
 * (the fiat signature: outputs then inputs), 1 <= n <= 8. 0, or -1 when n is out of range. */
int cc_call_arrays(cc_fn fn, unsigned n, void *const *a);

/* cc_find_conditional_jumps — disassemble objpath (`objdump -d -r`) and list every branch that is not a call or a
 * return: conditional jumps (j<cc>, jrcxz/jecxz/jcxz, loop/loope/loopne), indirect jumps, and unconditional `jmp`
 * within a function, which straight-line field code never needs (it would mean the compiler built a branchy CFG
 * and joined it). Not listed: a `jmp` to the start of another function (its target is `<name>` with no offset, or
 * a relocation): a tail call, as when gcc's identical code folding makes one of two identical functions jump to
 * the other; where it goes does not depend on any data. Returns how many were found, with one line per branch in
 * report ("<function>+0x<offset>: <instruction>"), or -1 with report saying why objdump could not run. */
int cc_find_conditional_jumps(const char *objpath, char *report, size_t report_len);

#endif
