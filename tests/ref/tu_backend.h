/* tu_backend.h — the per-backend check every library-level test program makes first.
 *
 * Each suite is registered once per backend with ECOPT_BACKEND=<name> in its environment. The library does not read
 * the environment: tu_check_library_backend passes the name to ecopt_backend_select (or, with
 * ECOPT_BACKEND_FORCE=1, to the test-only ecopt_backend_select_forced), then proves that the library really
 * dispatches to the requested backend, otherwise a silent fallback would make every per-backend run test the same
 * code. */
#ifndef ECOPT_TESTS_TU_BACKEND_H
#define ECOPT_TESTS_TU_BACKEND_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecopt/ecopt.h"
#include "testutil.h"

/* Test only, defined in src/ecopt.c and declared in src/backend.h (not in the public header): select without the
 * CPU check, for valgrind, which hides ADX from cpuid. The tests link the static library, where it is visible. */
int ecopt_backend_select_forced(const char *name);

/* tu_select_backend_from_env — ecopt_backend_select(ECOPT_BACKEND), or the forced selection when
 * ECOPT_BACKEND_FORCE is exactly "1"; unset or empty ECOPT_BACKEND selects the default. Returns the library's
 * code. */
static inline int tu_select_backend_from_env(void) {
    const char *want = getenv("ECOPT_BACKEND");
    const char *force = getenv("ECOPT_BACKEND_FORCE");
    if (want != NULL && want[0] == '\0') want = NULL;
    if (want != NULL && force != NULL && strcmp(force, "1") == 0) return ecopt_backend_select_forced(want);
    return ecopt_backend_select(want);
}

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
    int rc = tu_select_backend_from_env();
    const char *got = ecopt_backend_name();
    if (rc == ECOPT_ERR_UNSUPPORTED && tu_backend_compiled_in(want)) {
        /* Compiled in but this CPU lacks it: ctest's skip code (SKIP_RETURN_CODE 77), never a pass. */
        printf("SKIP: backend %s is compiled in but not available on this CPU\n", want);
        exit(77);
    }
    if (rc != ECOPT_OK || got == NULL || strcmp(got, want) != 0) {
        fprintf(stderr, "FAIL: ECOPT_BACKEND=%s but ecopt_backend_select() = %d (%s), ecopt_backend_name() = %s\n",
                want, rc, ecopt_strerror(rc), got ? got : "(null)");
        exit(1);
    }
    printf("backend: %s (compiled in: %s)\n", got, ecopt_backend_list());
}

#endif /* ECOPT_TESTS_TU_BACKEND_H */
