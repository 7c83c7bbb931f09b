/* fuzz.h — what the harnesses of fuzz/ share: libFuzzer's entry points, FUZZ_ASSERT, and for the differential
 * harnesses (FUZZ_BACKENDS defined before this header) the backends this CPU runs.
 * Define FUZZ_NAME ("x25519", ...) before including it: it names the harness in an assertion's message. */
#ifndef ECOPT_FUZZ_H
#define ECOPT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef FUZZ_BACKENDS
#include <ecopt/ecopt.h>
#define FUZZ_ASSERT_WHERE ", backend ", ecopt_backend_name()
#else
#define FUZZ_ASSERT_WHERE "", ""
#endif

/* FUZZ_ASSERT(c): when c is false, say which harness, condition and line (and the backend selected), then abort,
 * which libFuzzer reports as a crash with the input that caused it. */
#define FUZZ_ASSERT(c)                                                                                           \
    do {                                                                                                         \
        if (!(c)) {                                                                                              \
            fprintf(stderr, "fuzz_" FUZZ_NAME ": assertion failed: %s (line %d%s%s)\n", #c, __LINE__,              \
                    FUZZ_ASSERT_WHERE);                                                                          \
            abort();                                                                                             \
        }                                                                                                        \
    } while (0)

#ifdef FUZZ_BACKENDS
/* The backends of ecopt_backend_list() that this CPU runs (ecopt_backend_select refuses the others), filled by
 * fuzz_backends_init, which leaves the default backend selected. */
static char fuzz_backends[16][32];
static int fuzz_nbackends;

static void fuzz_backends_init(void) {
    char list[256];
    snprintf(list, sizeof list, "%s", ecopt_backend_list());
    for (char *w = strtok(list, " "); w && fuzz_nbackends < 16; w = strtok(NULL, " "))
        if (ecopt_backend_select(w) == ECOPT_OK) snprintf(fuzz_backends[fuzz_nbackends++], sizeof fuzz_backends[0], "%s", w);
    FUZZ_ASSERT(fuzz_nbackends > 0 && ecopt_backend_select(NULL) == ECOPT_OK);
}

static void fuzz_select_backend(int i) {
    FUZZ_ASSERT(ecopt_backend_select(fuzz_backends[i]) == ECOPT_OK);
}
#endif

#endif /* ECOPT_FUZZ_H */
