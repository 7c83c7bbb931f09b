/* msm.h — multiscalar multiplication on edwards25519: out = [s_0] P_0 + [s_1] P_1 + ... + [s_{n-1}] P_{n-1}.
 *
 * The conventions of ecopt.h hold here (outputs first, return codes, zeroed outputs on error, constant time unless
 * a name says _vartime, thread safety). The library allocates nothing: the variable-time function works in a
 * buffer the caller provides, of at least ecopt_edwards25519_msm_scratch_size(n) bytes; the constant-time one
 * needs no buffer (about 14 KB of stack, measured: tables of [1..8] P for 4 points and their recodings).
 *
 * Scalars: n x 32 bytes, little-endian, scalar i at scalars + 32 i. Every 32-byte value is accepted (0 up to
 * 2^256 - 1, l and above included) and is used as the integer it encodes, never reduced mod l: for a point with a
 * small-order component (any point of the curve is accepted, of small, mixed or prime order) [s]P depends on
 * s mod 8 l, and the result is exactly sum [s_i] P_i. (For points of order l, reducing first gives the same.) */
#ifndef ECOPT_MSM_H
#define ECOPT_MSM_H

#include "ecopt/ecopt.h"
#include "ecopt/edwards25519.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ecopt_edwards25519_msm_scratch_size — the bytes of work memory ecopt_edwards25519_msm_vartime needs for n
 * points: the most any compiled backend needs, so a buffer of this size stays enough after ecopt_backend_select;
 * ecopt_edwards25519_msm_vartime refuses a smaller one on every backend, even one whose own need is less.
 * Any alignment will do (the function aligns inside the buffer). It grows linearly: about 1.6 KB a point below
 * 96 points (Straus: a table of 8 points and a 257-digit NAF for each), about 0.4 KB a point from 96 on
 * (Pippenger: each point twice, its digits, and a few KB of buckets).
 * Returns: the size in bytes; 0 for n = 0; SIZE_MAX when it does not fit a size_t (no buffer can be given). */
ECOPT_API
size_t ecopt_edwards25519_msm_scratch_size(size_t n);

/* ecopt_edwards25519_msm_vartime — out = sum_{i<n} [s_i] P_i, in variable time.
 * Shapes:  out one point; scalars n x 32 bytes (above; may be NULL when n = 0); points n points (may be NULL when
 *          n = 0); scratch scratch_len bytes of work memory, scratch_len >= ecopt_edwards25519_msm_scratch_size(n)
 *          (may be NULL when n = 0). n = 0 gives the identity.
 * Alias:   out may equal one of points (it is written last); scratch may not overlap the other arguments; its
 *          contents on return are unspecified.
 * Time:    vartime: for public scalars and points only (verification, public coefficients): branches and
 *          memory indices follow the scalars' digits. Straus's interleaved width-5 NAFs below 96 points
 *          (about 257 doublings shared by all points and 51 additions a point), Pippenger's bucket method from 96
 *          points on (windows of c bits, c chosen from n, about (257 / c) (n + 2^c) additions); the crossover
 *          measured (docs/group.md).
 * Returns: ECOPT_OK; ECOPT_ERR_LENGTH when scratch_len is smaller than ecopt_edwards25519_msm_scratch_size(n)
 *          (or scratch is NULL with n > 0): out zeroed.
 * Source:  Straus, "Addition chains of vectors" (AMM 1964) with Moeller's interleaved wNAF ("Algorithms for
 *          multi-exponentiation", SAC 2001); Pippenger (SIAM J. Comput. 1980) with signed digits and running
 *          bucket sums (Bernstein, Doumen, Lange, Oosterwijk, "Faster batch forgery identification",
 *          INDOCRYPT 2012, section 4). */
ECOPT_API
int ecopt_edwards25519_msm_vartime(ecopt_edwards25519_point *out, const uint8_t *scalars,
                                   const ecopt_edwards25519_point *points, size_t n, void *scratch,
                                   size_t scratch_len) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_edwards25519_msm_ct — out = sum_{i<n} [s_i] P_i, in constant time, for a few secret scalars (and secret
 * points).
 * Shapes:  out one point; scalars n x 32 bytes (above; may be NULL when n = 0); points n points (NULL when n = 0).
 *          n = 0 gives the identity.
 * Alias:   out may equal one of points.
 * Time:    constant in the scalars and the points; n is public. Groups of 4 points share one chain of 256
 *          doublings: each point has a table of [1] P .. [8] P, and each of its 65 signed radix-16 digits picks
 *          an entry by reading all 8 (masks, no secret index or branch). Cost per group: 256 doublings and 65
 *          additions a point, so for n <= 4 it beats n separate multiplications; for more points the groups add
 *          up (about n / 4 times one group).
 * Returns: ECOPT_OK.
 * Source:  the fixed-window method, interleaved (Moeller, SAC 2001, section 3). */
ECOPT_API
int ecopt_edwards25519_msm_ct(ecopt_edwards25519_point *out, const uint8_t *scalars,
                              const ecopt_edwards25519_point *points, size_t n) ECOPT_WARN_UNUSED_RESULT;

#ifdef __cplusplus
}
#endif

#endif /* ECOPT_MSM_H */
