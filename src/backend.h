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

struct ecopt_edwards25519_point; /* include/ecopt/edwards25519.h */

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
    /* ristretto255 (RFC 9496) and hash-to-curve's curve half (RFC 9380): src/curve/group_ops.h. */
    const struct ecopt_ristretto_ops *ristretto;
    const struct ecopt_h2c_ops *h2c;
    /* The edwards25519 point operations of the group API (include/ecopt/edwards25519.h): src/curve/group.h. */
    const struct ecopt_group_ops *group;
    /* Multiscalar multiplication and batch verification (src/curve/msm.h, src/proto/batch_core.h).
     * msm_scratch_size: the work memory msm_vartime needs for n points with algorithm algo (0 auto, 1 Straus,
     * 2 Pippenger), in bytes, any alignment; SIZE_MAX when it does not fit a size_t.
     * msm_vartime: out = sum [s_i] P_i, scalars n x 32 bytes (any value < 2^256, not reduced), points n public
     * points; ECOPT_OK, or ECOPT_ERR_LENGTH (out zeroed) when scratch_len < msm_scratch_size(n, algo). vartime.
     * msm_ct: the same in constant time (scalars and points secret, n public), no work memory.
     * ed25519_verify_batch_vartime: n <= ECOPT_BATCH_GROUP items, sigs n x 64, pubs n x 32, k n x 32 (the reduced
     * challenges), z n x 16 bytes of work memory (the random coefficients, drawn inside from
     * getrandom only when a combined check is needed); the items with results[i] == ECOPT_OK on entry get the
     * single verification's code under policy (include/ecopt/ecopt.h), or ECOPT_ERR_RNG when they pass the
     * per-item rules and getrandom fails; the others are left alone. vartime. */
    size_t (*msm_scratch_size)(size_t n, int algo);
    int (*msm_vartime)(struct ecopt_edwards25519_point *out, const uint8_t *scalars,
                       const struct ecopt_edwards25519_point *points, size_t n, void *scratch, size_t scratch_len,
                       int algo);
    void (*msm_ct)(struct ecopt_edwards25519_point *out, const uint8_t *scalars,
                   const struct ecopt_edwards25519_point *points, size_t n);
    void (*ed25519_verify_batch_vartime)(int *results, const uint8_t *sigs, const uint8_t *pubs, const uint8_t *k,
                                         uint8_t *z, size_t n, ecopt_verify_policy policy);
} ecopt_backend;

/* The most items one call of ed25519_verify_batch_vartime takes: ecopt_ed25519_verify_batch works in groups of
 * this many, each group one multiscalar multiplication (2 x 16 + 1 points) with its work memory on the stack. */
#define ECOPT_BATCH_GROUP 16

/* One per backend, defined in src/proto/ed25519_core.c for each compiled backend (adx, adx51, x64 and ifma on
 * x86-64 only; ifma_emu with ECOPT_IFMA_EMU). */
extern const ecopt_backend ecopt_backend_ifma, ecopt_backend_adx, ecopt_backend_adx51, ecopt_backend_x64, ecopt_backend_u64,
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
