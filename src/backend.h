/* backend.h — the table of whole operations each field backend provides, and the dispatcher that picks one.
 *
 * Each entry is compiled from the same curve and per-backend protocol sources (src/curve/ge.c, mont.c,
 * src/proto/x25519_core.c, ed25519_core.c) with that backend's field arithmetic. The public functions in
 * src/ecopt.c and src/proto/ed25519.c fetch the chosen backend once per call and hand the whole operation to it. */
#ifndef ECOPT_BACKEND_H
#define ECOPT_BACKEND_H

#include <stddef.h>
#include <stdint.h>

/* Verification policies (include/ecopt/ecopt.h documents each case). */
typedef enum { ECOPT_POLICY_STRICT = 0, ECOPT_POLICY_ZIP215 = 1 } ecopt_verify_policy;

typedef struct ecopt_backend {
    const char *name;
    /* 1 when this CPU can run the backend. */
    int (*available)(void);
    /* out = X25519(scalar, u), RFC 7748 section 5 (clamps, masks u's top bit). Returns ECOPT_OK or
     * ECOPT_ERR_SMALL_ORDER for an all-zero output (out zeroed). Constant time in scalar. */
    int (*x25519)(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
    /* pub = X25519(scalar, 9). Constant time in scalar. */
    void (*x25519_base)(uint8_t pub[32], const uint8_t scalar[32]);
    /* out_i = X25519(scalars_i, u_i) for n keys of 32 bytes at offset 32 i, status[i] (status NULL or n ints) each
     * key's code as x25519's; returns ECOPT_OK or ECOPT_ERR_SMALL_ORDER when any key's output is all zero. out may
     * equal scalars or u. Constant time in every scalar. NULL: the dispatcher (src/ecopt.c) calls x25519 n times,
     * which gives the same results. */
    int (*x25519_batch)(uint8_t *out, const uint8_t *scalars, const uint8_t *u, size_t n, int *status);
    /* pub_i = X25519(scalars_i, 9) for n keys; pub may equal scalars. NULL: x25519_base n times. */
    void (*x25519_base_batch)(uint8_t *pub, const uint8_t *scalars, size_t n);
    /* out = encode([s]B), s any 32-byte value (< 2^256). Constant time in s. */
    void (*ed25519_scalarmult_base)(uint8_t out[32], const uint8_t s[32]);
    /* The point checks and the equation of verification under a policy (include/ecopt/ecopt.h), given the
     * already-reduced challenge k = H(...) mod l. Returns ECOPT_OK, ECOPT_ERR_ENCODING, ECOPT_ERR_SMALL_ORDER
     * (strict only) or ECOPT_ERR_VERIFY. vartime: all inputs public. */
    int (*ed25519_verify_vartime)(const uint8_t sig[64], const uint8_t pub[32], const uint8_t k[32],
                                  ecopt_verify_policy policy);
    /* Rules 1 and 2 of the strict policy on A alone: ECOPT_OK, ECOPT_ERR_ENCODING or ECOPT_ERR_SMALL_ORDER.
     * vartime: public key. */
    int (*ed25519_publickey_check_vartime)(const uint8_t pub[32]);
} ecopt_backend;

/* One per backend, defined in src/proto/ed25519_core.c for each compiled backend (adx, adx51 and ifma on x86-64
 * only; ifma_emu with ECOPT_IFMA_EMU). */
extern const ecopt_backend ecopt_backend_ifma, ecopt_backend_adx, ecopt_backend_adx51, ecopt_backend_u64,
    ecopt_backend_u32, ecopt_backend_ifma_emu;

/* ecopt_backend_all — every compiled backend, in order of preference; *n receives the count. For benchmarks and
 * tests that compare backends in one process (check ->available() before use). */
const ecopt_backend *const *ecopt_backend_all(size_t *n);

/* ecopt_backend_get — the backend the public functions dispatch to: the first available one of ecopt_backend_all()
 * until ecopt_backend_select (ecopt.h) or ecopt_backend_select_forced changes it. Never NULL. Thread-safe:
 * pthread_once for the first choice, an atomic load after it; a caller uses the returned backend for its whole
 * operation. */
const ecopt_backend *ecopt_backend_get(void);

/* ecopt_backend_select_forced — TEST ONLY: as ecopt_backend_select, but a compiled-in backend is chosen without
 * asking the CPU whether it can run it. For valgrind, which hides ADX and BMI2 from cpuid but executes the
 * instructions, so that the constant-time tests run the adx and adx51 code that ships. On a CPU that lacks them
 * the program dies with SIGILL at the first multiply. Not in the public header and not exported from the shared
 * library (hidden visibility); the test programs and the ecopt command link the static library and reach it as
 * ECOPT_BACKEND_FORCE=1. Returns: ECOPT_OK; ECOPT_ERR_UNSUPPORTED for a name that is not compiled in (the
 * backend in use does not change). */
int ecopt_backend_select_forced(const char *name);

#endif /* ECOPT_BACKEND_H */
