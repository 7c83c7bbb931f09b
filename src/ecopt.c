/* ecopt.c — backend choice and dispatch, error strings, randomness, and the X25519 entry points. */
#define _GNU_SOURCE
#include "ecopt/ecopt.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "backend.h"
#include "ct.h"
#include "rng.h"

/* Every compiled backend, in order of preference (fastest first); ECOPT_BACKENDS in CMakeLists.txt. */
static const ecopt_backend *const backends[] = {
#if defined(ECOPT_HAVE_BACKEND_adx)
    &ecopt_backend_adx, /* 4 x 64 with the whole-formula ladder step: the fastest (docs/backends.md) */
#endif
#if defined(ECOPT_HAVE_BACKEND_adx51)
    &ecopt_backend_adx51, /* 5 x 51 with whole formulas: slower than adx, kept as a second proved backend */
#endif
    &ecopt_backend_u64,
    &ecopt_backend_u32,
};
#define NBACKENDS (sizeof backends / sizeof backends[0])

static pthread_once_t backend_once = PTHREAD_ONCE_INIT;
static const ecopt_backend *chosen;
static char backend_names[64];

static void backend_choose(void) {
    size_t off = 0;
    for (size_t i = 0; i < NBACKENDS; i++) {
        size_t n = strlen(backends[i]->name);
        if (off + n + 2 > sizeof backend_names) break;
        if (off) backend_names[off++] = ' ';
        memcpy(backend_names + off, backends[i]->name, n);
        off += n;
    }
    backend_names[off] = '\0';

    const char *want = secure_getenv("ECOPT_BACKEND");
    chosen = NULL;
    if (want == NULL || want[0] == '\0') {
        for (size_t i = 0; i < NBACKENDS && chosen == NULL; i++)
            if (backends[i]->available()) chosen = backends[i];
        return;
    }
    /* A named backend that is unknown or unavailable is an error, never a silent fallback. ECOPT_BACKEND_FORCE=1
     * skips the CPU check for a named backend: valgrind hides ADX from cpuid although it executes ADCX, ADOX
     * and MULX, and the constant-time tests must run the adx and adx51 code that ships. On a CPU that really lacks
     * the instructions the first multiply dies with SIGILL (include/ecopt/ecopt.h). */
    const char *force = secure_getenv("ECOPT_BACKEND_FORCE");
    int forced = force != NULL && strcmp(force, "1") == 0;
    for (size_t i = 0; i < NBACKENDS; i++)
        if (strcmp(want, backends[i]->name) == 0 && (forced || backends[i]->available())) chosen = backends[i];
}

const ecopt_backend *const *ecopt_backend_all(size_t *n) {
    *n = NBACKENDS;
    return backends;
}

const ecopt_backend *ecopt_backend_get(void) {
    pthread_once(&backend_once, backend_choose);
    return chosen;
}

int ecopt_backend_init(void) {
    return ecopt_backend_get() ? ECOPT_OK : ECOPT_ERR_UNSUPPORTED;
}

const char *ecopt_backend_name(void) {
    const ecopt_backend *be = ecopt_backend_get();
    return be ? be->name : NULL;
}

const char *ecopt_backend_list(void) {
    pthread_once(&backend_once, backend_choose);
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
    case ECOPT_ERR_UNSUPPORTED: return "the requested backend is unknown or not supported by this CPU";
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

int ecopt_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
    const ecopt_backend *be = ecopt_backend_get();
    if (be == NULL) {
        memset(out, 0, 32);
        return ECOPT_ERR_UNSUPPORTED;
    }
    return be->x25519(out, scalar, u);
}

int ecopt_x25519_base(uint8_t pub[32], const uint8_t scalar[32]) {
    const ecopt_backend *be = ecopt_backend_get();
    if (be == NULL) {
        memset(pub, 0, 32);
        return ECOPT_ERR_UNSUPPORTED;
    }
    be->x25519_base(pub, scalar);
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
    return ECOPT_OK;
}
