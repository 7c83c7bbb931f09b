/* ge.h — points of edwards25519, -x^2 + y^2 = 1 + d x^2 y^2 over GF(2^255 - 19) (RFC 8032 section 5.1), in the
 * coordinates of Hisil, Wong, Carter, Dawson, "Twisted Edwards curves revisited" (ASIACRYPT 2008):
 *   ecopt_ge_ext    (X:Y:Z:T), x = X/Z, y = Y/Z, x y = T/Z                          ("extended")
 *   ecopt_ge_cached (Y+X, Y-X, 2Z, 2d T) of an extended point, the second operand of an addition;
 *   ecopt_ge_niels  (y+x, y-x, 2d x y) of an affine point (Z = 1), the entries of the fixed-base table.
 * The addition (add-2008-hwcd-3) and doubling (dbl-2008-hwcd) formulas are complete on edwards25519 (a = -1 is a
 * square and d is not), so no input is special. Compiled per backend (names carry its suffix).
 * Alias:  outputs may equal inputs. Time: constant unless the name says _vartime. */
#ifndef ECOPT_CURVE_GE_H
#define ECOPT_CURVE_GE_H

#include <stdint.h>

#include "field/fe.h"

typedef struct ecopt_ge_ext {
    ecopt_fe X, Y, Z, T; /* tight */
} ecopt_ge_ext;

typedef struct ecopt_ge_niels {
    ecopt_fe YpX, YmX, XY2d; /* affine y+x, y-x, 2d x y; tight */
} ecopt_ge_niels;

typedef struct ecopt_ge_cached {
    ecopt_fe YpX, YmX, Z2, T2d; /* YpX, Z2 loose; YmX, T2d tight */
} ecopt_ge_cached;

#define ecopt_ge_identity ECOPT_BE(ecopt_ge_identity)
#define ecopt_ge_base ECOPT_BE(ecopt_ge_base)
#define ecopt_ge_cached_from_ext ECOPT_BE(ecopt_ge_cached_from_ext)
#define ecopt_ge_add ECOPT_BE(ecopt_ge_add)
#define ecopt_ge_sub ECOPT_BE(ecopt_ge_sub)
#define ecopt_ge_double ECOPT_BE(ecopt_ge_double)
#define ecopt_ge_neg ECOPT_BE(ecopt_ge_neg)
#define ecopt_ge_encode ECOPT_BE(ecopt_ge_encode)
#define ecopt_ge_decode ECOPT_BE(ecopt_ge_decode)
#define ecopt_ge_decode_zip215 ECOPT_BE(ecopt_ge_decode_zip215)
#define ecopt_ge_decode_x2 ECOPT_BE(ecopt_ge_decode_x2)
#define ecopt_ge_madd ECOPT_BE(ecopt_ge_madd)
#define ecopt_ge_is_identity ECOPT_BE(ecopt_ge_is_identity)
#define ecopt_ge_has_small_order ECOPT_BE(ecopt_ge_has_small_order)
#define ecopt_ge_scalarmult ECOPT_BE(ecopt_ge_scalarmult)
#define ecopt_ge_scalarmult_base ECOPT_BE(ecopt_ge_scalarmult_base)
#define ecopt_ge_double_scalarmult_vartime ECOPT_BE(ecopt_ge_double_scalarmult_vartime)
#define ecopt_ge_cofactored_eq_vartime ECOPT_BE(ecopt_ge_cofactored_eq_vartime)
#define ecopt_ge_from_public ECOPT_BE(ecopt_ge_from_public)
#define ecopt_ge_base_odd ECOPT_BE(ecopt_ge_base_odd)
#define ecopt_ge_to_public ECOPT_BE(ecopt_ge_to_public)

/* ecopt_ge_identity — r = the neutral element (0, 1). */
void ecopt_ge_identity(ecopt_ge_ext *r);

/* ecopt_ge_base — r = B, the base point of RFC 8032 section 5.1 (y = 4/5, x even). */
void ecopt_ge_base(ecopt_ge_ext *r);

/* ecopt_ge_cached_from_ext — r = the cached form of p. Cost: 1M. */
void ecopt_ge_cached_from_ext(ecopt_ge_cached *r, const ecopt_ge_ext *p);

/* ecopt_ge_add — r = p + q (add-2008-hwcd-3, k = 2d). Cost: 9M. */
void ecopt_ge_add(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_cached *q);

/* ecopt_ge_madd — r = p + q for an affine q (madd-2008-hwcd-3). Cost: 7M. */
void ecopt_ge_madd(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_niels *q);

/* ecopt_ge_sub — r = p - q. Cost: 9M. */
void ecopt_ge_sub(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_cached *q);

/* ecopt_ge_double — r = 2p (dbl-2008-hwcd, a = -1); with_t = 0 skips T (public choice; r->T then is garbage and
 * r may only be doubled again or converted after a doubling with with_t = 1). Cost: 4M + 4S (3M + 4S without T). */
void ecopt_ge_double(ecopt_ge_ext *r, const ecopt_ge_ext *p, int with_t);

/* ecopt_ge_neg — r = -p = (-X : Y : Z : -T). */
void ecopt_ge_neg(ecopt_ge_ext *r, const ecopt_ge_ext *p);

/* ecopt_ge_encode — s = the 32-byte encoding of p (RFC 8032 section 5.1.2): y little-endian, bit 255 = x's low
 * bit. Cost: one inversion. */
void ecopt_ge_encode(uint8_t s[32], const ecopt_ge_ext *p);

/* ecopt_ge_decode — r = the point encoded by s (RFC 8032 section 5.1.3), strict: rejects y >= p and x = 0 with
 * the sign bit set (non-canonical) and y with no x on the curve.
 * Time:    constant in s until the verdict, which is returned (the verdict is public).
 * Returns: 1 on success, 0 on failure (r is then the identity). */
int ecopt_ge_decode(ecopt_ge_ext *r, const uint8_t s[32]);

/* ecopt_ge_decode_zip215 — as ecopt_ge_decode, but with ZIP-215's permissive reading: y >= p is taken mod p and
 * x = 0 with the sign bit set decodes to x = 0. Only y with no x on the curve fails. Source: ZIP-215 (Zcash, 2020).
 * Returns: 1 on success, 0 on failure (r is then the identity). */
int ecopt_ge_decode_zip215(ecopt_ge_ext *r, const uint8_t s[32]);

/* ecopt_ge_decode_x2 — r[0], r[1] and ok[0], ok[1] as ecopt_ge_decode (zip215 = 0) or ecopt_ge_decode_zip215
 * (zip215 = 1) on s0 and s1, the two square roots computed side by side (faster than two calls). zip215 is public.
 * Time: constant in s0 and s1 until the verdicts, which are returned in ok (public). */
void ecopt_ge_decode_x2(ecopt_ge_ext r[2], int ok[2], const uint8_t s0[32], const uint8_t s1[32], int zip215);

/* ecopt_ge_is_identity — 1 when p is the neutral element (X = 0 and Y = Z), else 0. */
uint64_t ecopt_ge_is_identity(const ecopt_ge_ext *p);

/* ecopt_ge_has_small_order — 1 when [8]p is the identity (p in the 8-torsion subgroup), else 0. */
uint64_t ecopt_ge_has_small_order(const ecopt_ge_ext *p);

/* ecopt_ge_scalarmult — r = [s]p. Shapes: s 32 bytes little-endian, s < 2^255 (bit 255 must be clear: every
 * caller passes a clamped scalar or one reduced mod l). Fixed window: 64 signed radix-16 digits in [-8, 8], a
 * table of [1]p..[8]p read whole for every digit (constant-time selection), 252 doublings and 64 additions.
 * Time: constant in s and p. */
void ecopt_ge_scalarmult(ecopt_ge_ext *r, const ecopt_ge_ext *p, const uint8_t s[32]);

/* ecopt_ge_scalarmult_base — r = [s]B for any s < 2^256 (32 bytes little-endian; not reduced mod l, and bit 255
 * may be set), with the precomputed table of [k 64^i] B, k = 1..32, i = 0..41, and k = 1..16, i = 42
 * (src/curve/generated/ge_base_table.h, decoded to the backend's field elements at first use): 43 signed radix-64
 * digits (digits 0..41 in [-32, 31], the top one bits 252..255 plus a carry, in [0, 16]), each a whole-row
 * constant-time lookup (ecopt_ct_lookup_words) in its own row, 42 mixed additions (the first lookup is converted,
 * not added) and no doubling.
 * Time: constant in s. */
void ecopt_ge_scalarmult_base(ecopt_ge_ext *r, const uint8_t s[32]);

/* ecopt_ge_double_scalarmult_vartime — r = [a]p + [b]B, a and b 32 bytes, any values < 2^256 (used as they are:
 * [a]p is exact for a p with a small-order part). wNAF of width 5 for both (257 digits, bits 0..256), tables of odd
 * multiples [1]..[15].
 * Time: vartime: for verification only, where a, b and p are public. */
void ecopt_ge_double_scalarmult_vartime(ecopt_ge_ext *r, const uint8_t a[32], const ecopt_ge_ext *p,
                                        const uint8_t b[32]);

/* ecopt_ge_cofactored_eq_vartime — 1 when [8] ([s]B - [k]A - R) is the identity (RFC 8032 section 5.1.7's
 * cofactored equation), else 0.
 * Shapes:  k, s 32 bytes little-endian, reduced (< l); A, R any curve points (small or mixed order allowed).
 * Time:    vartime: for verification only, where A, R, k and s are public.
 * Returns: 1 or 0 as above; nothing else is checked (encodings, small order and s < l are the caller's).
 * Source:  the equation multiplied by a short c (ecopt_scalar_ratio_vartime; Antipa et al., SAC 2005; Pornin,
 *          IACR ePrint 2020/454): four multiples of at most 127 bits, 127 doublings (ge.c has the argument). */
int ecopt_ge_cofactored_eq_vartime(const ecopt_ge_ext *A, const ecopt_ge_ext *R, const uint8_t k[32],
                                   const uint8_t s[32]);

/* ecopt_ge_base_odd — row 0: [2j+1] B, row 1: [2j+1] [2^127] B, j < ECOPT_GE_BASE_ODD (the odd multiples a
 * width-ECOPT_GE_BASE_ODD_W NAF needs), in Niels form: verification's tables of B, made once at first use
 * (thread-safe). row is 0 or 1. Public data. */
#define ECOPT_GE_BASE_ODD_W 7
#define ECOPT_GE_BASE_ODD (1 << (ECOPT_GE_BASE_ODD_W - 2))
const ecopt_ge_niels *ecopt_ge_base_odd(int row);

/* ecopt_ge_from_public, ecopt_ge_to_public — between the public point type (include/ecopt/edwards25519.h: four
 * canonical 32-byte coordinates X, Y, Z, T, little-endian) and the backend's extended coordinates. to_public
 * reduces each coordinate to canonical form (four tobytes); from_public reads them back (four frombytes). The
 * point's projective class is kept as it is: nothing is normalised to Z = 1.
 * Time: constant. */
struct ecopt_edwards25519_point;
void ecopt_ge_from_public(ecopt_ge_ext *r, const struct ecopt_edwards25519_point *p);
void ecopt_ge_to_public(struct ecopt_edwards25519_point *r, const ecopt_ge_ext *p);

/* The ifma and ifma_emu backends: ecopt_ge_scalarmult_base and ecopt_ge_cofactored_eq_vartime are the four-lane
 * versions (curve/ifma/ge4.h, same contracts); the one-lane code of the other backends stays as these two, with
 * the contracts above, for the tests to compare with. */
#if defined(ECOPT_FE_BACKEND_ifma) || defined(ECOPT_FE_BACKEND_ifma_emu)
#define ECOPT_GE_IFMA 1
#define ecopt_ge_scalarmult_base_1way ECOPT_BE(ecopt_ge_scalarmult_base_1way)
#define ecopt_ge_cofactored_eq_1way_vartime ECOPT_BE(ecopt_ge_cofactored_eq_1way_vartime)
void ecopt_ge_scalarmult_base_1way(ecopt_ge_ext *r, const uint8_t s[32]);
int ecopt_ge_cofactored_eq_1way_vartime(const ecopt_ge_ext *A, const ecopt_ge_ext *R, const uint8_t k[32],
                                        const uint8_t s[32]);
#else
#define ECOPT_GE_IFMA 0
#endif

#endif /* ECOPT_CURVE_GE_H */
