/* ecopt.c — backend choice and dispatch, error strings, randomness, and the X25519 entry points. */
#define _GNU_SOURCE
#include "ecopt/ecopt.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "backend.h"
#include "ct.h"
#include "rng.h"

/* Every compiled backend, in order of preference (fastest first); ECOPT_BACKENDS in CMakeLists.txt. */
static const ecopt_backend *const backends[] = {
#if defined(ECOPT_HAVE_BACKEND_ifma)
    &ecopt_backend_ifma, /* AVX-512 IFMA: the ladder on four lanes of a vector (docs/backends.md) */
#endif
#if defined(ECOPT_HAVE_BACKEND_adx)
    &ecopt_backend_adx, /* 4 x 64 with the whole-formula ladder step: the fastest (docs/backends.md) */
#endif
#if defined(ECOPT_HAVE_BACKEND_adx51)
    &ecopt_backend_adx51, /* 5 x 51 with whole formulas: slower than adx, kept as a second proved backend */
#endif
#if defined(ECOPT_HAVE_BACKEND_x64)
    &ecopt_backend_x64, /* adx's C and formulas with proved code of baseline x86-64 (mulq): CPUs without BMI2/ADX */
#endif
    &ecopt_backend_u64,
    &ecopt_backend_u32,
#if defined(ECOPT_HAVE_BACKEND_ifma_emu)
    /* ifma's source over portable C, for its tests on any CPU: last, so never the default (always available) */
    &ecopt_backend_ifma_emu,
#endif
};
#define NBACKENDS (sizeof backends / sizeof backends[0])

/* The backend the public functions dispatch to. It starts as the first available backend (set once under
 * pthread_once, together with the name list) and changes only through ecopt_backend_select and
 * ecopt_backend_select_forced. It is an atomic pointer so that a select may run while other threads are inside the
 * library: each call loads it once (ecopt_backend_get) and runs its whole operation on that backend, and every
 * backend computes the same function, so a call sees either the old or the new one, never a mixture. Release on
 * store and acquire on load are enough: the backend tables are constant. */
static pthread_once_t backend_once = PTHREAD_ONCE_INIT;
static _Atomic(const ecopt_backend *) chosen;
static char backend_names[64];

static const ecopt_backend *backend_default(void) {
    for (size_t i = 0; i < NBACKENDS; i++)
        if (backends[i]->available()) return backends[i];
    /* u64 and u32 are portable C and always available; never reached. */
    return &ecopt_backend_u32;
}

static void backend_setup(void) {
    size_t off = 0;
    for (size_t i = 0; i < NBACKENDS; i++) {
        size_t n = strlen(backends[i]->name);
        if (off + n + 2 > sizeof backend_names) break;
        if (off) backend_names[off++] = ' ';
        memcpy(backend_names + off, backends[i]->name, n);
        off += n;
    }
    backend_names[off] = '\0';
    atomic_store_explicit(&chosen, backend_default(), memory_order_release);
}

const ecopt_backend *const *ecopt_backend_all(size_t *n) {
    *n = NBACKENDS;
    return backends;
}

const ecopt_backend *ecopt_backend_get(void) {
    pthread_once(&backend_once, backend_setup);
    return atomic_load_explicit(&chosen, memory_order_acquire);
}

/* The backend of that name, or NULL; check_cpu 0 skips the CPU check (the test-only path below). */
static int backend_select(const char *name, int check_cpu) {
    const ecopt_backend *be = NULL;
    pthread_once(&backend_once, backend_setup);
    if (name == NULL || name[0] == '\0') {
        be = backend_default();
    } else {
        for (size_t i = 0; i < NBACKENDS; i++)
            if (strcmp(name, backends[i]->name) == 0 && (!check_cpu || backends[i]->available())) be = backends[i];
    }
    /* An unknown or unavailable name changes nothing: the library keeps the backend it had. */
    if (be == NULL) return ECOPT_ERR_UNSUPPORTED;
    atomic_store_explicit(&chosen, be, memory_order_release);
    return ECOPT_OK;
}

int ecopt_backend_select(const char *name) {
    return backend_select(name, 1);
}

/* Valgrind hides ADX and BMI2 from cpuid although it executes ADCX, ADOX and MULX, and the constant-time tests must
 * run the adx and adx51 code that ships: this entry skips the CPU check (backend.h). On a CPU that really lacks the
 * instructions the first multiply dies with SIGILL. Not in the public header. */
int ecopt_backend_select_forced(const char *name) {
    return backend_select(name, 0);
}

int ecopt_backend_init(void) {
    pthread_once(&backend_once, backend_setup);
    return ECOPT_OK;
}

const char *ecopt_backend_name(void) {
    return ecopt_backend_get()->name;
}

const char *ecopt_backend_list(void) {
    pthread_once(&backend_once, backend_setup);
    return backend_names;
}

const char *ecopt_version(void) {
    return "0.1.0";
}

const char *ecopt_strerror(int code) {
    switch (code) {
    case ECOPT_OK: return "success";
    case ECOPT_ERR_LENGTH: return "a length is out of range";
    case ECOPT_ERR_ENCODING: return "malformed or non-canonical encoding";
    case ECOPT_ERR_SMALL_ORDER: return "point of small order";
    case ECOPT_ERR_VERIFY: return "signature does not verify";
    case ECOPT_ERR_RNG: return "the system random number generator failed";
    case ECOPT_ERR_NOMEM: return "out of memory";
    case ECOPT_ERR_UNSUPPORTED: return "unknown backend or verification policy, or a backend this CPU does not support";
    case ECOPT_ERR_KEY: return "the secret key object was changed after it was made (its check value does not match)";
    default: return "unknown error code";
    }
}

int ecopt_random_bytes(uint8_t *out, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(out + got, n - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            ecopt_memzero_explicit(out, n);
            return ECOPT_ERR_RNG;
        }
        got += (size_t)r;
    }
    return ECOPT_OK;
}

size_t ecopt_x25519_bytes(void) {
    return ECOPT_X25519_BYTES;
}

size_t ecopt_x25519_scalarbytes(void) {
    return ECOPT_X25519_SCALARBYTES;
}

/* The public functions that take secret scalars run their work in a function that is not inlined into them (the
 * backend's, through its table, or a noinline one here), then ecopt_stack_scrub (ct.h), which zeroes the stack that
 * work used. */
int ecopt_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
    const ecopt_backend *be = ecopt_backend_get();
    if (be == NULL) {
        memset(out, 0, 32);
        return ECOPT_ERR_UNSUPPORTED;
    }
    int rc = be->x25519(out, scalar, u);
    ecopt_stack_scrub();
    return rc;
}

int ecopt_x25519_base(uint8_t pub[32], const uint8_t scalar[32]) {
    const ecopt_backend *be = ecopt_backend_get();
    if (be == NULL) {
        memset(pub, 0, 32);
        return ECOPT_ERR_UNSUPPORTED;
    }
    be->x25519_base(pub, scalar);
    ecopt_stack_scrub();
    return ECOPT_OK;
}

int ecopt_x25519_keygen(uint8_t scalar[32], uint8_t pub[32]) {
    const ecopt_backend *be = ecopt_backend_get();
    int rc = be ? ecopt_random_bytes(scalar, 32) : ECOPT_ERR_UNSUPPORTED;
    if (rc != ECOPT_OK) {
        ecopt_memzero_explicit(scalar, 32);
        memset(pub, 0, 32);
        return rc;
    }
    be->x25519_base(pub, scalar);
    ecopt_stack_scrub();
    return ECOPT_OK;
}

/* With n = 0 nothing is read or written, so NULL buffers are fine then; with n > 0 a NULL buffer is refused here,
 * before any backend sees it, so that every backend answers alike (the ifma batch code must never take a NULL u).
 * A backend without batch code gives its single-key results one key at a time (the same function). */
__attribute__((noinline)) static int x25519_batch(uint8_t *out, const uint8_t *scalars, const uint8_t *u, size_t n,
                                                  int *status) {
    const ecopt_backend *be = ecopt_backend_get();
    if (be->x25519_batch != NULL) return be->x25519_batch(out, scalars, u, n, status);
    int rc = ECOPT_OK;
    for (size_t i = 0; i < n; i++) {
        int st = be->x25519(out + 32 * i, scalars + 32 * i, u + 32 * i);
        if (status != NULL) status[i] = st;
        if (st != ECOPT_OK) rc = st;
    }
    return rc;
}

int ecopt_x25519_batch(uint8_t *out, const uint8_t *scalars, const uint8_t *u, size_t n, int *status) {
    if (n > 0 && (out == NULL || scalars == NULL || u == NULL)) return ECOPT_ERR_LENGTH;
    int rc = x25519_batch(out, scalars, u, n, status);
    ecopt_stack_scrub();
    return rc;
}

__attribute__((noinline)) static void x25519_base_batch(uint8_t *pub, const uint8_t *scalars, size_t n) {
    const ecopt_backend *be = ecopt_backend_get();
    if (be->x25519_base_batch != NULL) {
        be->x25519_base_batch(pub, scalars, n);
        return;
    }
    for (size_t i = 0; i < n; i++) be->x25519_base(pub + 32 * i, scalars + 32 * i);
}

int ecopt_x25519_base_batch(uint8_t *pub, const uint8_t *scalars, size_t n) {
    if (n > 0 && (pub == NULL || scalars == NULL)) return ECOPT_ERR_LENGTH;
    x25519_base_batch(pub, scalars, n);
    ecopt_stack_scrub();
    return ECOPT_OK;
}
