/* tu_backend.h — the per-backend check every library-level test program makes first.
 *
 * Each suite is registered once per backend with ECOPT_BACKEND=<name> in its environment; the library reads that
 * variable itself. The test must prove that the library really dispatched to the requested backend, otherwise a
 * silent fallback would make every per-backend run test the same code. */
#ifndef ECOPT_TESTS_TU_BACKEND_H
#define ECOPT_TESTS_TU_BACKEND_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecopt/ecopt.h"
#include "testutil.h"

/* 1 when name is one of the space-separated words of ecopt_backend_list(). */
static inline int tu_backend_compiled_in(const char *name) {
    const char *list = ecopt_backend_list();
    size_t n = strlen(name);
    while (list != NULL && *list != '\0') {
        const char *end = strchr(list, ' ');
        size_t len = end ? (size_t)(end - list) : strlen(list);
        if (len == n && memcmp(list, name, n) == 0) return 1;
        list = end ? end + 1 : NULL;
    }
    return 0;
}

static inline void tu_check_library_backend(void) {
    const char *want = tu_requested_backend();
    int rc = ecopt_backend_init();
    const char *got = ecopt_backend_name();
    if (rc == ECOPT_ERR_UNSUPPORTED && tu_backend_compiled_in(want)) {
        /* Compiled in but this CPU lacks it: ctest's skip code (SKIP_RETURN_CODE 77), never a pass. */
        printf("SKIP: backend %s is compiled in but not available on this CPU\n", want);
        exit(77);
    }
    if (rc != ECOPT_OK || got == NULL || strcmp(got, want) != 0) {
        fprintf(stderr, "FAIL: ECOPT_BACKEND=%s but ecopt_backend_init() = %d (%s), ecopt_backend_name() = %s\n",
                want, rc, ecopt_strerror(rc), got ? got : "(null)");
        exit(1);
    }
    printf("backend: %s (compiled in: %s)\n", got, ecopt_backend_list());
}

#endif /* ECOPT_TESTS_TU_BACKEND_H */
