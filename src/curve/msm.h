/* msm.h — multiscalar multiplication on edwards25519: r = sum [s_i] P_i, in variable time (Straus's interleaved
 * wNAF windows for small n, Pippenger's bucket method for large n) and in constant time (fixed windows, every
 * table read whole). Compiled per backend (names carry its suffix); the public functions are
 * include/ecopt/msm.h's, dispatched through the backend table (backend.h).
 *
 * Shapes: scalars n x 32 bytes, little-endian, scalar i at scalars + 32 i, each any value below 2^256, taken as
 *         an integer (never reduced mod l: a point with a small-order component gets [s]P exactly).
 * Alias:  r may equal no input point. */
#ifndef ECOPT_CURVE_MSM_H
#define ECOPT_CURVE_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "curve/ge.h"

/* The algorithm of ecopt_msm_vartime: MSM_AUTO picks from n (MSM_STRAUS below ECOPT_MSM_PIPPENGER_MIN points,
 * MSM_PIPPENGER from there); the other two force one, for tests and benchmarks. */
enum { MSM_AUTO = 0, MSM_STRAUS = 1, MSM_PIPPENGER = 2 };

/* Straus below this many points, Pippenger from it: the crossover measured on Zen 4 (adx backend, random 252-bit
 * scalars: Straus 24.7k ticks a point at n = 64 against Pippenger's 25.8k, Pippenger 9% faster at n = 128). */
#define ECOPT_MSM_PIPPENGER_MIN 96

#define ecopt_msm_scratch_bytes ECOPT_BE(ecopt_msm_scratch_bytes)
#define ecopt_msm_vartime ECOPT_BE(ecopt_msm_vartime)
#define ecopt_msm_ct ECOPT_BE(ecopt_msm_ct)
#define ecopt_msm_pippenger_window ECOPT_BE(ecopt_msm_pippenger_window)
#define ecopt_msm_public_vartime ECOPT_BE(ecopt_msm_public_vartime)
#define ecopt_msm_public_ct ECOPT_BE(ecopt_msm_public_ct)

/* ECOPT_MSM_STRAUS_BYTES(n) — a compile-time bound on the work memory of ecopt_msm_vartime with MSM_STRAUS for n
 * points (any alignment), for callers that keep it on the stack (batch verification). */
#define ECOPT_MSM_ALIGN 64
#define ECOPT_MSM_STRAUS_TABLE 8 /* odd multiples per point: width-5 NAFs */
#define ECOPT_MSM_NAF_DIGITS 257
#define ECOPT_MSM_STRAUS_BYTES(n) \
    (4 * ECOPT_MSM_ALIGN + (n) * (ECOPT_MSM_STRAUS_TABLE * sizeof(ecopt_ge_cached) + ECOPT_MSM_NAF_DIGITS) + \
     ECOPT_MSM_NAF_DIGITS)

/* ecopt_msm_scratch_bytes — the bytes of work memory ecopt_msm_vartime needs for n points with algorithm algo
 * (MSM_AUTO: the one it picks for n), alignment slack included (any address will do). 0 for n = 0.
 * Returns SIZE_MAX when the size does not fit a size_t. */
size_t ecopt_msm_scratch_bytes(size_t n, int algo);

/* ecopt_msm_pippenger_window — the window width c (bits) Pippenger uses for n points: the c in [4, 16] that
 * minimises the additions of the bucket method, ceil(257 / c) windows x (n bucket additions + 2^c additions to
 * sum 2^(c-1) buckets). */
int ecopt_msm_pippenger_window(size_t n);

/* ecopt_msm_vartime — r = sum_{i<n} [s_i] P_i (r = identity for n = 0).
 * Shapes:  scalars as above; points n extended points (any curve points); scratch at least
 *          ecopt_msm_scratch_bytes(n, algo) bytes (ECOPT_MSM_STRAUS_BYTES(n) for MSM_STRAUS), any alignment.
 * Time:    vartime: for public scalars and points only (branches and table indices follow the digits).
 * Source:  Straus, "Addition chains of vectors" (AMM 1964), with width-5 NAFs (Solinas; Moeller, "Algorithms for
 *          multi-exponentiation", SAC 2001, interleaving); Pippenger (SIAM J. Comput. 1980) as in Bernstein,
 *          Doumen, Lange, Oosterwijk, "Faster batch forgery identification" (INDOCRYPT 2012), section 4: signed
 *          digits, 2^(c-1) buckets per window, the buckets summed by running sums. */
void ecopt_msm_vartime(ecopt_ge_ext *r, const uint8_t *scalars, const ecopt_ge_ext *points, size_t n,
                       void *scratch, int algo);

/* ecopt_msm_ct — r = sum_{i<n} [s_i] P_i, constant time in the scalars and the points (n public).
 * Groups of up to 4 points share one chain of 256 doublings; each point has a table of [1..8] P_i, and each of
 * its 65 signed radix-16 digits (in [-8, 8]) selects an entry by reading all 8 (ecopt_fe_cmov), the sign by mask.
 * Source: the fixed-window method, interleaved (Moeller, SAC 2001, section 3). */
#define ECOPT_MSM_CT_GROUP 4
void ecopt_msm_ct(ecopt_ge_ext *r, const uint8_t *scalars, const ecopt_ge_ext *points, size_t n);

/* The backend-table entries (backend.h): the public point type in and out (ecopt_ge_from_public / to_public).
 * msm_public_vartime returns ECOPT_OK, or ECOPT_ERR_LENGTH (out zeroed) when scratch_len is below
 * ecopt_msm_scratch_bytes(n, algo). */
struct ecopt_edwards25519_point;
int ecopt_msm_public_vartime(struct ecopt_edwards25519_point *out, const uint8_t *scalars,
                             const struct ecopt_edwards25519_point *points, size_t n, void *scratch,
                             size_t scratch_len, int algo);
void ecopt_msm_public_ct(struct ecopt_edwards25519_point *out, const uint8_t *scalars,
                         const struct ecopt_edwards25519_point *points, size_t n);

#endif /* ECOPT_CURVE_MSM_H */
