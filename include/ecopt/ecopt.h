/* ecopt.h — the public API of libecopt: X25519 (RFC 7748) and Ed25519, Ed25519ctx, Ed25519ph (RFC 8032).
 *
 * Conventions (once, for every function below):
 * - Arguments: outputs first, then inputs; each length right after its buffer.
 * - Byte strings are little-endian as in the RFCs; fixed sizes are given by the ECOPT_*_BYTES macros, each
 *   with a size_t getter for bindings.
 * - Every fallible function returns ECOPT_OK (0) or a negative ecopt_status code; ecopt_strerror() names it.
 *   On any error, every output buffer is zeroed (never left holding partial results). One exception, the batch
 *   X25519 (ecopt_x25519_batch): a key whose output is all zero fails alone, with its own status, and the other
 *   keys' outputs are written as usual.
 * - The library never prints and never exits; it allocates only inside libcrypto's SHA-512 (ECOPT_ERR_NOMEM when
 *   that fails).
 * - Outputs may not overlap inputs unless a function says so.
 * - Constant time: everything that takes a secret (seed, scalar, secret key) runs in time independent of it;
 *   verification takes public inputs only.
 * - Dead stack: every function that takes a secret (Ed25519 key generation and signing, X25519 and its batch and
 *   keygen functions, the scalar multiplications of edwards25519.h and ristretto255.h) zeroes, before it returns,
 *   the stack its work used (12 KB below its frame, above the deepest path measured on every backend), so no secret
 *   its callees spilled stays behind for later code to read. Registers are not cleared, nor the caller's frame.
 * - Threads: every function may run in several threads at once (see "Backends and threads" below).
 * - ECOPT_ERR_UNSUPPORTED comes only from ecopt_backend_select (and from ecopt_ed25519_verify_batch given an
 *   unknown policy): a backend is always chosen, so the operations
 *   that list it below (for callers written against earlier versions, where the environment could leave the
 *   library without one) never return it. */
#ifndef ECOPT_ECOPT_H
#define ECOPT_ECOPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ECOPT_API marks each function of this header, on the line before its declaration. libecopt is compiled with
 * hidden visibility and ECOPT_BUILDING defined, so these functions, and nothing else, are exported from
 * libecopt.so; for the library's users the mark is empty. A new public function gets the mark too: ctest
 * build.exports fails unless the shared library exports exactly the functions declared in include/ecopt/. */
#if defined(ECOPT_BUILDING) && defined(__GNUC__)
#define ECOPT_API __attribute__((visibility("default")))
#else
#define ECOPT_API
#endif

#if defined(__GNUC__)
#define ECOPT_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#else
#define ECOPT_WARN_UNUSED_RESULT
#endif

/* Return codes. ECOPT_OK is 0; every error is negative. */
typedef enum ecopt_status {
    ECOPT_OK = 0,
    ECOPT_ERR_LENGTH = -1,      /* a length argument is out of range (e.g. a context over 255 bytes) */
    ECOPT_ERR_ENCODING = -2,    /* a point or scalar encoding is malformed or non-canonical */
    ECOPT_ERR_SMALL_ORDER = -3, /* a point of small order where the policy forbids one; all-zero X25519 output */
    ECOPT_ERR_VERIFY = -4,      /* the signature equation does not hold */
    ECOPT_ERR_RNG = -5,         /* getrandom(2) failed */
    ECOPT_ERR_NOMEM = -6,       /* out of memory, or libcrypto could not provide SHA-512 */
    ECOPT_ERR_UNSUPPORTED = -7, /* unknown or unavailable backend requested; unknown batch verification policy */
    ECOPT_ERR_KEY = -8          /* a secret key object that keypair_from_seed or keygen did not make (changed) */
} ecopt_status;

/* ecopt_strerror — one English sentence for a return code.
 * Returns: a static string; "unknown error code" for a value outside ecopt_status. */
ECOPT_API
const char *ecopt_strerror(int code);

/* ecopt_version — the library version, e.g. "0.1.0". */
ECOPT_API
const char *ecopt_version(void);

/* ------------------------------------------------------------------------------------------------------------
 * Backends and threads
 *
 * A backend is one implementation of the field arithmetic (and of the curve operations compiled with it); every
 * backend computes the same results, they differ in speed and in the instructions they need. The library starts
 * on the first backend of ecopt_backend_list() that this CPU can run (ifma needs AVX-512F, VL and IFMA with the OS
 * saving their state (cpuid, XCR0); adx and adx51 need BMI2 and ADX, read from cpuid) and changes only when ecopt_backend_select says so. The library never reads the environment: the
 * ECOPT_BACKEND variable is a convenience of the ecopt command and of the tests, which pass it to
 * ecopt_backend_select.
 *
 * Thread safety. Every function of this header may be called from any number of threads at once, with no lock
 * and no initialisation call first: the library's global state (the default backend, the libcrypto SHA-512
 * handle, the precomputed tables of the base point) is made once under pthread_once at first use and never
 * changes after, except the backend choice, an atomic pointer; the operations keep all other state on the
 * caller's stack and in the caller's buffers.
 * Two threads may share an input (a secret key object, a public key, a message) as long as neither writes it;
 * buffers one thread writes must not be read or written by another during the call. ecopt_backend_select may
 * run at any time, also while other threads are inside the library: an operation loads the backend once when
 * it starts and finishes on it, so a concurrent select affects only the operations that start after it
 * returns. The expected use is one call at start-up, before any thread is started.
 * ------------------------------------------------------------------------------------------------------------ */

/* ecopt_backend_select — choose the backend the operations below run on.
 * Shapes:  name a NUL-terminated string: one word of ecopt_backend_list(), or NULL or "" for the default (the
 *          first backend of the list that this CPU can run, the choice the library starts with).
 * Time:    not applicable (no secret input).
 * Returns: ECOPT_OK; ECOPT_ERR_UNSUPPORTED when name is not compiled in (unknown, or left out of this build) or
 *          names a backend this CPU cannot run. On error nothing changes: the library keeps the backend it had
 *          and every operation goes on working on it (never a silent switch to another backend).
 * Threads: may be called at any time, before or after the first operation and concurrently with other calls
 *          (see "Thread safety" above); operations already running finish on the backend they started with. */
ECOPT_API
int ecopt_backend_select(const char *name) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_backend_name — the name of the backend the operations dispatch to now ("ifma", "adx", "adx51", "u64", "u32",
 * or "ifma_emu", the ifma code over emulated instructions, chosen only by name).
 * Returns: a static string, never NULL. */
ECOPT_API
const char *ecopt_backend_name(void);

/* ecopt_backend_init — set up the default backend choice now rather than at the first call; idempotent. Kept for
 * callers of earlier versions; ecopt_backend_select(NULL) does the same and more. The environment is not read.
 * Returns: ECOPT_OK (there is always a backend: u64 and u32 run on every CPU). */
ECOPT_API
int ecopt_backend_init(void);

/* ecopt_backend_list — the names of all backends compiled in, in order of preference, separated by single spaces
 * ("ifma adx adx51 u64 u32 ifma_emu" on x86-64 with ecopt's own build, "u64 u32" elsewhere). Returns: a static string. */
ECOPT_API
const char *ecopt_backend_list(void);

/* ------------------------------------------------------------------------------------------------------------
 * X25519 (RFC 7748 section 5, section 6.1)
 * ------------------------------------------------------------------------------------------------------------ */
#define ECOPT_X25519_BYTES 32       /* scalar, u-coordinate and shared secret, each */
#define ECOPT_X25519_SCALARBYTES 32
ECOPT_API
size_t ecopt_x25519_bytes(void);
ECOPT_API
size_t ecopt_x25519_scalarbytes(void);

/* ecopt_x25519 — out = X25519(scalar, u) (RFC 7748 section 5).
 * Shapes:  out 32 bytes; scalar 32 bytes (clamped here: bits 0,1,2,255 cleared, bit 254 set); u 32 bytes,
 *          little-endian, top bit masked, values >= p accepted and reduced mod p (non-canonical u allowed).
 * Alias:   out may equal scalar or u.
 * Time:    constant in scalar (Montgomery ladder, conditional swaps by masks); u is treated as public.
 * Returns: ECOPT_OK; ECOPT_ERR_SMALL_ORDER when the result is all zero (u of small order or on the twist's
 *          small subgroup), checked in constant time, as RFC 7748 section 6.1 allows and TLS 1.3 requires:
 *          out is zeroed.
 * Source:  RFC 7748 sections 5 and 6.1. */
ECOPT_API
int ecopt_x25519(uint8_t out[ECOPT_X25519_BYTES], const uint8_t scalar[ECOPT_X25519_SCALARBYTES],
                 const uint8_t u[ECOPT_X25519_BYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_x25519_base — pub = X25519(scalar, 9): the public key of a secret scalar.
 * Shapes:  pub 32 bytes; scalar 32 bytes (clamped here).
 * Alias:   pub may equal scalar.
 * Time:    constant in scalar.
 * Returns: ECOPT_OK.
 * Source:  RFC 7748 section 6.1. */
ECOPT_API
int ecopt_x25519_base(uint8_t pub[ECOPT_X25519_BYTES],
                      const uint8_t scalar[ECOPT_X25519_SCALARBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_x25519_keygen — a fresh secret scalar from getrandom(2) and its public key.
 * Shapes:  scalar 32 random bytes (stored unclamped, as RFC 7748 keys are); pub 32 bytes.
 * Time:    constant in the secret.
 * Returns: ECOPT_OK; ECOPT_ERR_RNG (both outputs zeroed). */
ECOPT_API
int ecopt_x25519_keygen(uint8_t scalar[ECOPT_X25519_SCALARBYTES],
                        uint8_t pub[ECOPT_X25519_BYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_x25519_batch — out_i = X25519(scalar_i, u_i) for n keys at once: the results of n ecopt_x25519 calls,
 * faster per key where the backend has batch code (ifma: eight ladders side by side in the lanes of the AVX-512
 * registers); every other backend makes the n single calls.
 * Shapes:  out, scalars and u each n * 32 bytes, key i at offset 32 i; each scalar clamped and each u read (top bit
 *          masked, non-canonical values reduced) as ecopt_x25519 does. status NULL, or n ints. n = 0 touches
 *          nothing (every pointer may then be NULL).
 * Alias:   out may equal scalars or u (the same pointer: each key's output replaces its input); no other overlap
 *          of out with an input, and status overlaps nothing.
 * Time:    constant in every scalar and every u; n is public, and so is which keys fail.
 * Returns: ECOPT_OK when every key gave ECOPT_OK; ECOPT_ERR_SMALL_ORDER when at least one key's output was all zero
 *          (RFC 7748 section 6.1, checked per key in constant time as ecopt_x25519 does). Unlike the other
 *          functions, an error does not zero every output: the failing keys' 32 bytes are zero and status[i] (when
 *          status is not NULL) is ECOPT_ERR_SMALL_ORDER for them, ECOPT_OK for the others, whose outputs are
 *          written and valid. ECOPT_ERR_LENGTH: n > 0 with out, scalars or u NULL (nothing read or written,
 *          status untouched), on every backend.
 * Source:  RFC 7748 sections 5 and 6.1. */
ECOPT_API
int ecopt_x25519_batch(uint8_t *out, const uint8_t *scalars, const uint8_t *u, size_t n,
                       int *status) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_x25519_base_batch — pub_i = X25519(scalar_i, 9) for n keys at once: the public keys of n secret scalars,
 * the results of n ecopt_x25519_base calls.
 * Shapes:  pub and scalars each n * 32 bytes, key i at offset 32 i (scalars clamped here). n = 0 touches nothing
 *          (the pointers may then be NULL).
 * Alias:   pub may equal scalars (the same pointer); no other overlap.
 * Time:    constant in every scalar; n is public.
 * Returns: ECOPT_OK (the output for a clamped scalar is never zero); ECOPT_ERR_LENGTH: n > 0 with pub or scalars
 *          NULL (nothing read or written).
 * Source:  RFC 7748 sections 5 and 6.1. */
ECOPT_API
int ecopt_x25519_base_batch(uint8_t *pub, const uint8_t *scalars, size_t n) ECOPT_WARN_UNUSED_RESULT;

/* ------------------------------------------------------------------------------------------------------------
 * Ed25519, Ed25519ctx, Ed25519ph (RFC 8032 section 5.1)
 *
 * A secret key is an ecopt_ed25519_secretkey object made from a 32-byte seed (RFC 8032's "private key") by
 * ecopt_ed25519_keypair_from_seed or ecopt_ed25519_keygen. It holds the seed, the public key A = [s]B derived from it,
 * and a 64-byte check value, SHA-512("ecopt Ed25519 secret key check v1" || seed || A) (the tag's 33 ASCII bytes,
 * no NUL). Every signing function recomputes the check value from the object's seed and A, compares it in
 * constant time with the stored one, and refuses the object with ECOPT_ERR_KEY (sig zeroed) when they differ; it
 * then derives s and the nonce prefix from the seed again (RFC 8032 section 5.1.5), so no stored copy of them can
 * disagree with the seed. An object whose A was changed therefore never signs: a signature under a wrong A would
 * let anyone holding two signatures of one message, under the right and the wrong A, solve for s (libsodium's
 * 64-byte secret keys have that weakness). The check is not a signature of A: a changed seed with its own
 * recomputed check value makes a valid object of a different key, which needs no attack. Objects saved by
 * versions before this layout are refused too: make them again from their seed. Wipe the object with
 * ecopt_ed25519_secretkey_wipe().
 *
 * Verification policies. The ..._verify functions apply STRICT; ecopt_ed25519_verify_zip215 applies ZIP-215.
 *
 * STRICT. A signature (R, S) on M under public key A is accepted if and only if all of the following hold,
 * checked in this order:
 *   1. A is a canonical encoding: its y < p, and not x = 0 with the sign bit set; A decodes to a curve point.
 *      Otherwise ECOPT_ERR_ENCODING.
 *   2. A is not of small order ([8]A != identity). Otherwise ECOPT_ERR_SMALL_ORDER. (A of mixed order, A' + T
 *      with T of small order, is not small order and passes this check.)
 *   3. R (the signature's first 32 bytes) is canonical and decodes, as for A. Otherwise ECOPT_ERR_ENCODING.
 *   4. R is not of small order. Otherwise ECOPT_ERR_SMALL_ORDER.
 *   5. S (the last 32 bytes, little-endian) < l. Otherwise ECOPT_ERR_ENCODING.
 *   6. The cofactored equation [8][S]B = [8]R + [8][k]A holds, k = SHA-512(dom2(F, C) || R || A || PH(M)) mod l
 *      over the received bytes of R and A. Otherwise ECOPT_ERR_VERIFY.
 * (RFC 8032 section 5.1.7 with its preferred cofactored check; the small-order rules go beyond the RFC.)
 *
 * ZIP-215 (Zcash ZIP 215, "Explicitly Defining and Modifying Ed25519 Validation Rules"), pure Ed25519 only; case by
 * case against STRICT:
 *   1. A: non-canonical encodings are accepted: y >= p is taken mod p, and x = 0 with the sign bit set decodes to
 *      x = 0. Only a y with no x on the curve fails (ECOPT_ERR_ENCODING).
 *   2. A of small order: accepted (no check).
 *   3. R: as A in 1 (ECOPT_ERR_ENCODING when it is not a point).
 *   4. R of small order: accepted (no check).
 *   5. S < l: still required (ECOPT_ERR_ENCODING).
 *   6. The same cofactored equation, with k hashed over the received bytes of R and A (not re-encoded), so a
 *      batch verifier can agree with it. Otherwise ECOPT_ERR_VERIFY.
 * Every signature STRICT accepts, ZIP-215 accepts.
 * ------------------------------------------------------------------------------------------------------------ */
#define ECOPT_ED25519_SEEDBYTES 32
#define ECOPT_ED25519_PUBLICKEYBYTES 32
#define ECOPT_ED25519_SIGNATUREBYTES 64
#define ECOPT_ED25519_CONTEXTMAXBYTES 255
#define ECOPT_ED25519PH_DIGESTBYTES 64 /* PH(M) = SHA-512(M), the input of the ..._prehashed functions */

ECOPT_API
size_t ecopt_ed25519_seedbytes(void);
ECOPT_API
size_t ecopt_ed25519_publickeybytes(void);
ECOPT_API
size_t ecopt_ed25519_signaturebytes(void);
ECOPT_API
size_t ecopt_ed25519ph_digestbytes(void);

/* The secret key object. Its contents are private; copy it with memcpy, wipe it with the function below. */
typedef struct ecopt_ed25519_secretkey {
    uint8_t opaque[128]; /* seed (32) | A (32) | check value (64), see above */
} ecopt_ed25519_secretkey;

/* ecopt_ed25519_keypair_from_seed — expand a 32-byte seed (RFC 8032 section 5.1.5) into a secret key object and
 * its public key A.
 * Shapes:  sk the object; pub 32 bytes (may be NULL when not wanted); seed 32 bytes.
 * Time:    constant in seed.
 * Returns: ECOPT_OK; ECOPT_ERR_NOMEM (SHA-512 unavailable; sk and pub zeroed).
 * Source:  RFC 8032 section 5.1.5. */
ECOPT_API
int ecopt_ed25519_keypair_from_seed(ecopt_ed25519_secretkey *sk, uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES],
                                    const uint8_t seed[ECOPT_ED25519_SEEDBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519_keygen — a fresh seed from getrandom(2), expanded as above.
 * Shapes:  seed 32 bytes out (may be NULL when not wanted); sk; pub 32 bytes (may be NULL).
 * Returns: ECOPT_OK; ECOPT_ERR_RNG; ECOPT_ERR_NOMEM (all outputs zeroed on error). */
ECOPT_API
int ecopt_ed25519_keygen(uint8_t seed[ECOPT_ED25519_SEEDBYTES], ecopt_ed25519_secretkey *sk,
                         uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519_secretkey_public — copy the public key A held in sk (not checked: a changed object gives its
 * changed A, and the signing functions refuse it). Shapes: pub 32 bytes. Time: constant. */
ECOPT_API
void ecopt_ed25519_secretkey_public(uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES], const ecopt_ed25519_secretkey *sk);

/* ecopt_ed25519_secretkey_seed — copy the seed held in sk. Shapes: seed 32 bytes. Time: constant. */
ECOPT_API
void ecopt_ed25519_secretkey_seed(uint8_t seed[ECOPT_ED25519_SEEDBYTES], const ecopt_ed25519_secretkey *sk);

/* ecopt_ed25519_secretkey_wipe — overwrite sk with zeros (not optimised away). */
ECOPT_API
void ecopt_ed25519_secretkey_wipe(ecopt_ed25519_secretkey *sk);

/* ecopt_ed25519_sign — pure Ed25519 signature (RFC 8032 section 5.1.6), deterministic.
 * Shapes:  sig 64 bytes (R || S); msg msglen bytes (msg may be NULL when msglen is 0).
 * Alias:   sig may not overlap msg.
 * Time:    constant in sk; msg and msglen are public, and so is whether sk is refused.
 * Returns: ECOPT_OK; ECOPT_ERR_KEY (sk's check value does not match its seed and A, see above; sig zeroed);
 *          ECOPT_ERR_NOMEM (SHA-512 unavailable; sig zeroed).
 * Source:  RFC 8032 section 5.1.6. */
ECOPT_API
int ecopt_ed25519_sign(uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES], const uint8_t *msg, size_t msglen,
                       const ecopt_ed25519_secretkey *sk) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519ctx_sign — Ed25519ctx: as ecopt_ed25519_sign with dom2(0, ctx) (RFC 8032 section 5.1).
 * Shapes:  ctx ctxlen bytes, 1 <= ctxlen <= 255.
 * Returns: ECOPT_OK; ECOPT_ERR_LENGTH (ctxlen 0 or over 255; sig zeroed); ECOPT_ERR_KEY; ECOPT_ERR_NOMEM. */
ECOPT_API
int ecopt_ed25519ctx_sign(uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES], const uint8_t *msg, size_t msglen,
                          const uint8_t *ctx, size_t ctxlen,
                          const ecopt_ed25519_secretkey *sk) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519ph_sign — Ed25519ph: signs PH(M) = SHA-512(msg) with dom2(1, ctx) (RFC 8032 section 5.1).
 * Shapes:  ctx ctxlen bytes, 0 <= ctxlen <= 255 (ctx may be NULL when ctxlen is 0).
 * Returns: ECOPT_OK; ECOPT_ERR_LENGTH (ctxlen over 255; sig zeroed); ECOPT_ERR_KEY; ECOPT_ERR_NOMEM. */
ECOPT_API
int ecopt_ed25519ph_sign(uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES], const uint8_t *msg, size_t msglen,
                         const uint8_t *ctx, size_t ctxlen,
                         const ecopt_ed25519_secretkey *sk) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519ph_sign_prehashed — Ed25519ph over a digest the caller computed: the signature
 * ecopt_ed25519ph_sign(sig, M, ..., ctx, ctxlen, sk) gives, from digest = PH(M) = SHA-512(M) (RFC 8032 section 5.1)
 * instead of M, so that a long message can be hashed in pieces (a streaming SHA-512 over a file) and never held
 * in memory.
 * Shapes:  sig 64 bytes (R || S); digest 64 bytes, the SHA-512 of the message, as SHA-512 outputs it; ctx ctxlen
 *          bytes, 0 <= ctxlen <= 255 (ctx may be NULL when ctxlen is 0).
 * Alias:   sig may not overlap digest or ctx.
 * Time:    constant in sk; digest, ctx and ctxlen are public.
 * Returns: ECOPT_OK; ECOPT_ERR_LENGTH (ctxlen over 255; sig zeroed); ECOPT_ERR_KEY (as ecopt_ed25519_sign; sig
 *          zeroed); ECOPT_ERR_NOMEM (SHA-512 unavailable; sig zeroed). Not checked: that digest is the SHA-512 of anything; any 64 bytes are signed as PH(M), so
 *          whoever supplies the digest chooses the message signed: compute it from the message yourself.
 * Source:  RFC 8032 sections 5.1 (PH = SHA-512) and 5.1.6. */
ECOPT_API
int ecopt_ed25519ph_sign_prehashed(uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES],
                                   const uint8_t digest[ECOPT_ED25519PH_DIGESTBYTES], const uint8_t *ctx,
                                   size_t ctxlen, const ecopt_ed25519_secretkey *sk) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519_verify — verify a pure Ed25519 signature under the STRICT policy above.
 * Shapes:  sig 64 bytes; msg msglen bytes; pub 32 bytes.
 * Time:    vartime: signature, message and public key are public.
 * Returns: ECOPT_OK (valid); ECOPT_ERR_ENCODING, ECOPT_ERR_SMALL_ORDER, ECOPT_ERR_VERIFY as listed in the policy;
 *          ECOPT_ERR_NOMEM (SHA-512 unavailable). */
ECOPT_API
int ecopt_ed25519_verify(const uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES], const uint8_t *msg, size_t msglen,
                         const uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519_verify_zip215 — verify a pure Ed25519 signature under the ZIP-215 policy above.
 * Shapes:  sig 64 bytes; msg msglen bytes; pub 32 bytes.
 * Time:    vartime: signature, message and public key are public.
 * Returns: ECOPT_OK (valid); ECOPT_ERR_ENCODING (A or R not a curve point, or S >= l); ECOPT_ERR_VERIFY;
 *          ECOPT_ERR_NOMEM.
 * Source:  ZIP 215; RFC 8032 section 5.1.7. */
ECOPT_API
int ecopt_ed25519_verify_zip215(const uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES], const uint8_t *msg, size_t msglen,
                                const uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* Policies for ecopt_ed25519_verify_batch (the two policies above). */
#define ECOPT_VERIFY_STRICT 0
#define ECOPT_VERIFY_ZIP215 1

/* ecopt_ed25519_verify_batch — verify n pure Ed25519 signatures at once: results[i] is exactly what
 * ecopt_ed25519_verify (policy ECOPT_VERIFY_STRICT) or ecopt_ed25519_verify_zip215 (ECOPT_VERIFY_ZIP215) returns
 * for item i, on every input, except with probability at most 2 n 2^-128 for the whole call (below).
 * Shapes:  results n ints out; sigs n x 64 bytes (signature i at sigs + 64 i); msgs n pointers, msgs[i] to
 *          msglens[i] bytes (msgs[i] may be NULL when msglens[i] is 0); msglens n sizes; pubs n x 32 bytes (key i
 *          at pubs + 32 i); n any count (0: nothing is read, results may be NULL). Duplicate items are fine.
 * Alias:   results may not overlap any input.
 * Method:  each item first gets the single verification's own checks in its order (SHA-512 of R || A || M, then
 *          rules 1-5 of the policy: decodings, small order in STRICT, S < l), with the same return codes; then the
 *          survivors' cofactored equations are checked together, in groups of 16 items: one multiscalar
 *          multiplication per group, [8] ([sum z_i S_i] B - sum [z_i k_i] A_i - sum [z_i] R_i) = identity, with
 *          fresh random 128-bit z_i from getrandom(2). A group that passes is valid; one that fails is bisected,
 *          and sets of at most 2 items are settled by single checks. A valid set always passes (the equation is
 *          cofactored, as single verification's is), so a valid signature is never refused; an invalid one is
 *          accepted only if a random z_i hits one value in l > 2^252, probability at most 2^-128 per check (the
 *          argument: src/proto/ed25519_batch_core.c), and a call makes fewer than 2 n checks.
 * Time:    vartime: signatures, messages and keys are public. All valid, per signature: about 0.6 of a single
 *          verification (docs/group.md), about 1.0 on the ifma backends (single checks, see Returns); each invalid item adds up to 2 log2(16) smaller combined checks and two
 *          single ones.
 * Memory:  no allocation; about 80 KB of stack (measured with a painted stack, bisection included).
 * Returns: ECOPT_OK when every item is valid (every results[i] is ECOPT_OK); otherwise results[j] for the first j
 *          with results[j] != ECOPT_OK. Per item: ECOPT_OK, ECOPT_ERR_ENCODING, ECOPT_ERR_SMALL_ORDER (STRICT),
 *          ECOPT_ERR_VERIFY as in the policy, ECOPT_ERR_NOMEM (SHA-512 unavailable). ECOPT_ERR_RNG: getrandom
 *          is called once per group of 16 that has more than 2 items passing the per-item rules (fewer are settled
 *          by single checks, no randomness; on the ifma backends, whose single checks are the faster, every group
 *          is settled so and getrandom is never called), and when it fails, exactly those items of that group get
 *          ECOPT_ERR_RNG (never ECOPT_OK); every item that failed a per-item rule keeps its own code, and other
 *          groups keep their verdicts. So results[i] is ECOPT_ERR_RNG only for an item whose verdict needed the
 *          combined check, and every other results[i] equals single verification's. ECOPT_ERR_UNSUPPORTED:
 *          policy is neither ECOPT_VERIFY_STRICT nor ECOPT_VERIFY_ZIP215, checked first, whatever n (also n = 0,
 *          results NULL); every results[i] is set to it. (results is never zeroed: 0 would read as valid.)
 * Source:  RFC 8032 section 5.1.7 (cofactored equation); Bernstein, Duif, Lange, Schwabe, Yang, "High-speed
 *          high-security signatures" (CHES 2011), section 5 (batch verification with random coefficients); ZIP 215
 *          (batch and single verification agree when both are cofactored). */
ECOPT_API
int ecopt_ed25519_verify_batch(int *results, const uint8_t *sigs, const uint8_t *const *msgs, const size_t *msglens,
                               const uint8_t *pubs, size_t n, int policy) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519_publickey_check — rules 1 and 2 of STRICT on a public key alone, e.g. when a key is imported.
 * Shapes:  pub 32 bytes.
 * Time:    vartime: the key is public.
 * Returns: ECOPT_OK; ECOPT_ERR_ENCODING (non-canonical, or not a curve point); ECOPT_ERR_SMALL_ORDER. */
ECOPT_API
int ecopt_ed25519_publickey_check(const uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519ctx_verify — Ed25519ctx verification (STRICT). ctxlen 1..255, else ECOPT_ERR_LENGTH. */
ECOPT_API
int ecopt_ed25519ctx_verify(const uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES], const uint8_t *msg, size_t msglen,
                            const uint8_t *ctx, size_t ctxlen,
                            const uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519ph_verify — Ed25519ph verification (STRICT) of SHA-512(msg). ctxlen 0..255, else ECOPT_ERR_LENGTH. */
ECOPT_API
int ecopt_ed25519ph_verify(const uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES], const uint8_t *msg, size_t msglen,
                           const uint8_t *ctx, size_t ctxlen,
                           const uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ed25519ph_verify_prehashed — Ed25519ph verification (STRICT) given digest = PH(M) = SHA-512(M): the
 * verdict ecopt_ed25519ph_verify gives for M.
 * Shapes:  sig 64 bytes; digest 64 bytes; ctx ctxlen bytes, 0 <= ctxlen <= 255; pub 32 bytes.
 * Time:    vartime: signature, digest, context and public key are public.
 * Returns: ECOPT_OK (valid); ECOPT_ERR_ENCODING, ECOPT_ERR_SMALL_ORDER, ECOPT_ERR_VERIFY as in the STRICT
 *          policy; ECOPT_ERR_LENGTH (ctxlen over 255); ECOPT_ERR_NOMEM.
 * Source:  RFC 8032 section 5.1.7. */
ECOPT_API
int ecopt_ed25519ph_verify_prehashed(const uint8_t sig[ECOPT_ED25519_SIGNATUREBYTES],
                                     const uint8_t digest[ECOPT_ED25519PH_DIGESTBYTES], const uint8_t *ctx,
                                     size_t ctxlen,
                                     const uint8_t pub[ECOPT_ED25519_PUBLICKEYBYTES]) ECOPT_WARN_UNUSED_RESULT;

#ifdef __cplusplus
}
#endif

#endif /* ECOPT_ECOPT_H */
