/* fe.h — field elements mod p = 2^255 - 19: the interface every backend implements.
 *
 * The representation (type ecopt_fe, limb count and radix) is private to the backend chosen at compile time by
 * ECOPT_FE_BACKEND_<name> (see backend_ns.h); code outside src/field uses ecopt_fe only as an opaque value and the
 * functions below. Each backend's copy of these symbols carries its suffix (ecopt_fe_mul_u64, ...).
 *
 * Bounds, stated in terms each backend defines precisely in its own header:
 *   tight — what every carrying operation returns (mul, sq, sub, neg, carry, frombytes, constants).
 *   loose — the sum of two tight elements (ecopt_fe_add); accepted by mul, sq, sub, neg, tobytes and the
 *           predicates, but not by add. Everything that accepts loose accepts tight.
 * Alias:   every output may equal any input.
 * Time:    constant in every argument, except where a function says vartime. */
#ifndef ECOPT_FIELD_FE_H
#define ECOPT_FIELD_FE_H

#include <stdint.h>

#include "backend_ns.h"


#define ecopt_fe_0 ECOPT_BE(ecopt_fe_0)
#define ecopt_fe_1 ECOPT_BE(ecopt_fe_1)
#define ecopt_fe_copy ECOPT_BE(ecopt_fe_copy)
#define ecopt_fe_frombytes ECOPT_BE(ecopt_fe_frombytes)
#define ecopt_fe_tobytes ECOPT_BE(ecopt_fe_tobytes)
#define ecopt_fe_add ECOPT_BE(ecopt_fe_add)
#define ecopt_fe_sub ECOPT_BE(ecopt_fe_sub)
#define ecopt_fe_neg ECOPT_BE(ecopt_fe_neg)
#define ecopt_fe_carry ECOPT_BE(ecopt_fe_carry)
#define ecopt_fe_mul ECOPT_BE(ecopt_fe_mul)
#define ecopt_fe_sq ECOPT_BE(ecopt_fe_sq)
#define ecopt_fe_sq2 ECOPT_BE(ecopt_fe_sq2)
#define ecopt_fe_sq_n ECOPT_BE(ecopt_fe_sq_n)
#define ecopt_fe_mul_small ECOPT_BE(ecopt_fe_mul_small)
#define ecopt_fe_cmov ECOPT_BE(ecopt_fe_cmov)
#define ecopt_fe_cswap ECOPT_BE(ecopt_fe_cswap)
#define ecopt_fe_or_masked ECOPT_BE(ecopt_fe_or_masked)
#define ecopt_fe_invert ECOPT_BE(ecopt_fe_invert)
#define ecopt_fe_invert_fermat ECOPT_BE(ecopt_fe_invert_fermat)
#define ecopt_fe_invert_divsteps ECOPT_BE(ecopt_fe_invert_divsteps)
#define ecopt_fe_pow22523 ECOPT_BE(ecopt_fe_pow22523)
#define ecopt_fe_pow22523_x2 ECOPT_BE(ecopt_fe_pow22523_x2)
#define ecopt_fe_is_negative ECOPT_BE(ecopt_fe_is_negative)
#define ecopt_fe_is_zero ECOPT_BE(ecopt_fe_is_zero)
#define ecopt_fe_eq ECOPT_BE(ecopt_fe_eq)
#define ecopt_fe_d ECOPT_BE(ecopt_fe_d)
#define ecopt_fe_d2 ECOPT_BE(ecopt_fe_d2)
#define ecopt_fe_sqrtm1 ECOPT_BE(ecopt_fe_sqrtm1)
#define ecopt_fe_base_x ECOPT_BE(ecopt_fe_base_x)
#define ecopt_fe_base_y ECOPT_BE(ecopt_fe_base_y)
#define ecopt_fe_base_t ECOPT_BE(ecopt_fe_base_t)

/* The backend's header defines ecopt_fe and provides the small operations marked "(backend header)" below, static
 * inline where inlining them into the curve code pays. */
#if defined(ECOPT_FE_BACKEND_u64)
#include "field/fe_u64.h"
#elif defined(ECOPT_FE_BACKEND_adx51)
#include "field/fe_adx51.h"
#elif defined(ECOPT_FE_BACKEND_adx) || defined(ECOPT_FE_BACKEND_x64)
#include "field/fe_adx.h" /* x64: the same representation and C, multiply and square without BMI2/ADX */
#elif defined(ECOPT_FE_BACKEND_u32)
#include "field/fe_u32.h"
#elif defined(ECOPT_FE_BACKEND_ifma) || defined(ECOPT_FE_BACKEND_ifma_emu)
#include "field/fe_ifma.h"
#endif

/* Constants, tight. d = -121665/121666 (RFC 8032 section 5.1), d2 = 2d, sqrtm1 = 2^((p-1)/4), a square root of -1
 * (RFC 8032 section 5.1.3); base_x, base_y, base_t = x*y: the base point B of edwards25519 (RFC 8032 section 5.1,
 * y = 4/5, x even). Checked against GMP in tests/field. */
extern const ecopt_fe ecopt_fe_d, ecopt_fe_d2, ecopt_fe_sqrtm1, ecopt_fe_base_x, ecopt_fe_base_y, ecopt_fe_base_t;

/* ecopt_fe_0, ecopt_fe_1 — h = 0, h = 1. Bounds: out tight. */
/* (backend header) */

/* ecopt_fe_copy — h = f. Bounds: out as in. */
/* (backend header) */

/* ecopt_fe_frombytes — h = s mod p, s 32 bytes little-endian with bit 255 ignored (RFC 7748 section 5 masks it);
 * values in [p, 2^255) are accepted, not reduced to canonical form until tobytes. Bounds: out tight. */
void ecopt_fe_frombytes(ecopt_fe *h, const uint8_t s[32]);

/* ecopt_fe_tobytes — s = the canonical encoding of f, in [0, p), 32 bytes little-endian, bit 255 clear.
 * Bounds: in loose. */
void ecopt_fe_tobytes(uint8_t s[32], const ecopt_fe *f);

/* ecopt_fe_add — h = f + g, no carry. Bounds: in tight, tight; out loose. */
/* (backend header) */

/* ecopt_fe_sub — h = f - g mod p, carried. Bounds: in loose, loose; out tight. */
/* (backend header) */

/* ecopt_fe_neg — h = -f mod p, carried. Bounds: in loose; out tight. */
void ecopt_fe_neg(ecopt_fe *h, const ecopt_fe *f);

/* ecopt_fe_carry — h = f, limbs carried. Bounds: in loose; out tight. */
void ecopt_fe_carry(ecopt_fe *h, const ecopt_fe *f);

/* ecopt_fe_mul — h = f * g mod p. Bounds: in loose, loose; out tight. */
void ecopt_fe_mul(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g);

/* ecopt_fe_sq — h = f^2 mod p. Bounds: in loose; out tight. */
void ecopt_fe_sq(ecopt_fe *h, const ecopt_fe *f);

/* ecopt_fe_sq2 — h = 2 f^2 mod p. Bounds: in loose; out tight. */
void ecopt_fe_sq2(ecopt_fe *h, const ecopt_fe *f);

/* ecopt_fe_sq_n — h = f^(2^n) mod p, n >= 1 (public). Bounds: in loose; out tight. */
void ecopt_fe_sq_n(ecopt_fe *h, const ecopt_fe *f, unsigned n);

/* ecopt_fe_mul_small — h = f * c mod p for a public constant 0 <= c < 2^20 (121665 for the ladder's a24).
 * Bounds: in loose; out tight. */
void ecopt_fe_mul_small(ecopt_fe *h, const ecopt_fe *f, uint32_t c);

/* ecopt_fe_cmov — if bit, h = f; bit exactly 0 or 1 (secret). Bounds: out as the chosen input. */
/* (backend header) */

/* ecopt_fe_or_masked — h |= f & mask, limb by limb, for mask 0 or all ones (secret). For table lookups that
 * accumulate the one selected entry into a zeroed h, reading every entry. Bounds: out as f when h was 0. */
/* (backend header) */

/* ecopt_fe_cswap — if bit, swap f and g; bit exactly 0 or 1 (secret). */
/* (backend header) */

/* ecopt_fe_invert — h = 1/f mod p, and 0 for f = 0: whichever of the two below is faster on this backend
 * (fe_common_impl.h says which; bench/bench_invert.c measures both). Bounds: in loose; out tight. */
void ecopt_fe_invert(ecopt_fe *h, const ecopt_fe *f);

/* ecopt_fe_invert_fermat — h = f^(p-2) mod p (= 1/f, and 0 for f = 0): Fermat, addition chain of 254 squarings
 * and 11 multiplications. 254 squarings is the least any chain for p - 2 = 2^255 - 21 can use, and by Schoenhage's
 * bound l(n) >= log2 n + log2 v(n) - 2.13 (v = 253 one bits) no chain is shorter than 261 steps, so at most 4
 * multiplications could be saved; addchain's search (M. McLoughlin, github.com/mmcloughlin/addchain, doc/gen.md)
 * finds 254 + 12. Bounds: in loose; out tight. Source: the chain of Bernstein, "Curve25519" (2006), sec. 5. */
void ecopt_fe_invert_fermat(ecopt_fe *h, const ecopt_fe *f);

/* ecopt_fe_invert_divsteps — h = 1/f mod p, and 0 for f = 0: Bernstein-Yang divsteps (590 half-delta divsteps in
 * 10 batches of 59, signed 62-bit limbs) on f's canonical encoding; fe_invert_divsteps_impl.h has the argument.
 * Bounds: in loose; out tight. Time: constant. Built where the compiler has unsigned __int128.
 * Source: Bernstein, Yang, "Fast constant-time gcd computation and modular inversion", TCHES 2019; the 590 bound:
 * P. Wuille, safegcd-bounds (Coq proof hddivsteps590). */
void ecopt_fe_invert_divsteps(ecopt_fe *h, const ecopt_fe *f);

/* ecopt_fe_pow22523 — h = f^((p-5)/8) = f^(2^252-3) mod p, for square roots (RFC 8032 section 5.1.3).
 * Addition chain: the inversion chain's first 249 squarings and 10 multiplications, then 2 squarings and 1
 * multiplication (251 + 11 = 262 steps; Schoenhage's bound, v(2^252-3) = 251 one bits, is 258).
 * Bounds: in loose; out tight. */
void ecopt_fe_pow22523(ecopt_fe *h, const ecopt_fe *f);

/* ecopt_fe_pow22523_x2 — h[k] = f[k]^((p-5)/8) for k = 0, 1: ecopt_fe_pow22523 on two inputs with the two chains'
 * steps interleaved (fe_common_impl.h), for decoding two points at once (ecopt_ge_decode_x2). h may equal f.
 * Bounds: in loose; out tight. */
void ecopt_fe_pow22523_x2(ecopt_fe h[2], const ecopt_fe f[2]);

/* ecopt_fe_is_negative — the low bit of the canonical encoding of f (RFC 8032's "negative", x_0). Returns 0 or 1. */
uint64_t ecopt_fe_is_negative(const ecopt_fe *f);

/* ecopt_fe_is_zero — 1 when f = 0 mod p, else 0. */
uint64_t ecopt_fe_is_zero(const ecopt_fe *f);

/* ecopt_fe_eq — 1 when f = g mod p, else 0. */
uint64_t ecopt_fe_eq(const ecopt_fe *f, const ecopt_fe *g);

#endif /* ECOPT_FIELD_FE_H */
