/* edwards25519.h — the group API of libecopt: points of edwards25519 and scalars mod l.
 *
 * edwards25519 is the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2 over GF(2^255 - 19), d = -121665/121666, of
 * order 8 l, l = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 section 5.1; RFC 7748 section 4.1).
 * The conventions of ecopt.h hold here (outputs first, return codes, zeroed outputs on error, no heap, constant
 * time unless a name says _vartime, thread safety). */
#ifndef ECOPT_EDWARDS25519_H
#define ECOPT_EDWARDS25519_H

#include "ecopt/ecopt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ecopt_edwards25519_point — a point of edwards25519 (any point of the curve: small-order and mixed-order points
 * included), caller-allocated, fixed size (128 bytes), copyable with memcpy or assignment.
 * The contents are private: extended coordinates (X : Y : Z : T) (Hisil, Wong, Carter, Dawson, ASIACRYPT 2008),
 * each a canonical field element, independent of the backend in use, so a point stays valid across
 * ecopt_backend_select. Only values written by this library's functions are points; any other contents give
 * unspecified (but memory-safe) results. */
typedef struct ecopt_edwards25519_point {
    uint8_t opaque[128];
} ecopt_edwards25519_point;

#define ECOPT_EDWARDS25519_BYTES 32u       /* an encoded point (RFC 8032 section 5.1.2) */
#define ECOPT_EDWARDS25519_SCALARBYTES 32u /* a scalar mod l, canonical little-endian */
/* ecopt_edwards25519_bytes, ecopt_edwards25519_scalarbytes — the two sizes above, for bindings. Returns: 32. */
ECOPT_API
size_t ecopt_edwards25519_bytes(void);
ECOPT_API
size_t ecopt_edwards25519_scalarbytes(void);

/* ------------------------------------------------------------------------------------------------------------
 * Scalars mod l
 *
 * A scalar is 32 bytes, an integer little-endian. Every function below that returns a scalar returns it reduced
 * (canonical: in [0, l)). Inputs are read as integers in [0, 2^256) and reduced mod l where the operation is one
 * mod l, so a non-canonical input is accepted there and gives the result of its residue; only
 * ecopt_edwards25519_scalar_from_bytes rejects non-canonical bytes (for parsing a scalar received from elsewhere).
 * Alias: every output may equal any input. Time: constant in every argument (the scalars are taken as secret).
 * Arithmetic: Barrett reduction mod l (HAC algorithm 14.42) with 64-bit limbs; RFC 8032 section 5.1 defines l.
 * ------------------------------------------------------------------------------------------------------------ */

/* ecopt_edwards25519_scalar_from_bytes — out = in, when in is a canonical scalar (in < l).
 * Shapes:  out 32 bytes; in 32 bytes little-endian.
 * Alias:   out may equal in.
 * Time:    constant in in; the verdict (the return code) is public.
 * Returns: ECOPT_OK; ECOPT_ERR_ENCODING when in >= l (out zeroed). RFC 8032 section 5.1.7's rule for S.
 * Source:  RFC 8032 section 5.1 (l). */
ECOPT_API
int ecopt_edwards25519_scalar_from_bytes(uint8_t out[ECOPT_EDWARDS25519_SCALARBYTES],
                                         const uint8_t in[ECOPT_EDWARDS25519_SCALARBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_edwards25519_scalar_reduce64 — out = x mod l for a 64-byte x (a SHA-512 output: RFC 8032 section 5.1.6
 * reads it as a 512-bit little-endian integer and reduces it mod l).
 * Shapes:  out 32 bytes, reduced; x 64 bytes little-endian, any value.
 * Alias:   out may overlap x (x is read before out is written).
 * Time:    constant.
 * Source:  RFC 8032 sections 5.1.6 and 5.1.7 (the reduction of H(...) mod l); HAC algorithm 14.42. */
ECOPT_API
void ecopt_edwards25519_scalar_reduce64(uint8_t out[ECOPT_EDWARDS25519_SCALARBYTES], const uint8_t x[64]);

/* ecopt_edwards25519_scalar_reduce — out = x mod l for a 32-byte x, any value in [0, 2^256).
 * Shapes: out 32 bytes, reduced; x 32 bytes. Alias: out may equal x. Time: constant. */
ECOPT_API
void ecopt_edwards25519_scalar_reduce(uint8_t out[ECOPT_EDWARDS25519_SCALARBYTES],
                                      const uint8_t x[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ecopt_edwards25519_scalar_add — out = (a + b) mod l.
 * Shapes: out 32 bytes, reduced; a, b 32 bytes, any values. Alias: out may equal a or b. Time: constant. */
ECOPT_API
void ecopt_edwards25519_scalar_add(uint8_t out[ECOPT_EDWARDS25519_SCALARBYTES],
                                   const uint8_t a[ECOPT_EDWARDS25519_SCALARBYTES],
                                   const uint8_t b[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ecopt_edwards25519_scalar_sub — out = (a - b) mod l.
 * Shapes: out 32 bytes, reduced; a, b 32 bytes, any values. Alias: out may equal a or b. Time: constant. */
ECOPT_API
void ecopt_edwards25519_scalar_sub(uint8_t out[ECOPT_EDWARDS25519_SCALARBYTES],
                                   const uint8_t a[ECOPT_EDWARDS25519_SCALARBYTES],
                                   const uint8_t b[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ecopt_edwards25519_scalar_neg — out = -a mod l (0 for a = 0 mod l).
 * Shapes: out 32 bytes, reduced; a 32 bytes, any value. Alias: out may equal a. Time: constant. */
ECOPT_API
void ecopt_edwards25519_scalar_neg(uint8_t out[ECOPT_EDWARDS25519_SCALARBYTES],
                                   const uint8_t a[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ecopt_edwards25519_scalar_mul — out = (a * b) mod l.
 * Shapes: out 32 bytes, reduced; a, b 32 bytes, any values. Alias: out may equal a or b. Time: constant. */
ECOPT_API
void ecopt_edwards25519_scalar_mul(uint8_t out[ECOPT_EDWARDS25519_SCALARBYTES],
                                   const uint8_t a[ECOPT_EDWARDS25519_SCALARBYTES],
                                   const uint8_t b[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ecopt_edwards25519_scalar_invert — out = 1/a mod l, and 0 when a = 0 mod l (0 has no inverse: test
 * ecopt_edwards25519_scalar_is_zero first where a may be 0; this function does not report it, so that it has no
 * secret-dependent result besides out).
 * Shapes:  out 32 bytes, reduced; a 32 bytes, any value.
 * Alias:   out may equal a.
 * Time:    constant: a^(l-2) mod l (Fermat's little theorem; l is prime) with a fixed exponent, 4-bit windows
 *          (252 squarings and 47 multiplications mod l, 14 of them for the table of a^0..a^15).
 * Source:  RFC 8032 section 5.1 (l is prime). */
ECOPT_API
void ecopt_edwards25519_scalar_invert(uint8_t out[ECOPT_EDWARDS25519_SCALARBYTES],
                                      const uint8_t a[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ecopt_edwards25519_scalar_random — out = a uniformly random scalar mod l: 64 bytes from getrandom(2) reduced
 * mod l, whose bias from uniform is below 2^-259 (the 512-bit value's residues differ in count by at most one).
 * May be 0 (probability 1/l).
 * Shapes:  out 32 bytes, reduced.
 * Time:    constant in the random bytes (they are wiped before return).
 * Returns: ECOPT_OK; ECOPT_ERR_RNG (getrandom failed; out zeroed).
 * Source:  a 512-bit uniform value reduced mod l, as RFC 8032 section 5.1.6 reduces SHA-512 outputs (the wide
 *          reduction RFC 9380 section 5 prescribes, with 64 bytes for its 48). */
ECOPT_API
int ecopt_edwards25519_scalar_random(uint8_t out[ECOPT_EDWARDS25519_SCALARBYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_edwards25519_scalar_is_zero — 1 when a = 0 mod l (a = 0, l, 2l, ... below 2^256), else 0.
 * Shapes: a 32 bytes, any value. Time: constant in a (the answer is the result). */
ECOPT_API
int ecopt_edwards25519_scalar_is_zero(const uint8_t a[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ecopt_edwards25519_scalar_equal — 1 when a = b mod l, else 0 (for canonical a and b: when the bytes are equal).
 * Shapes: a, b 32 bytes, any values. Time: constant in a and b (no early exit; the answer is the result). */
ECOPT_API
int ecopt_edwards25519_scalar_equal(const uint8_t a[ECOPT_EDWARDS25519_SCALARBYTES],
                                    const uint8_t b[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ------------------------------------------------------------------------------------------------------------
 * Points of edwards25519
 *
 * Every function below takes and returns ecopt_edwards25519_point values made by this library (decode, identity,
 * base, from_montgomery_u and the operations). The group is the whole curve, of order 8 l: small-order points
 * (the 8 points of the 8-torsion subgroup) and mixed-order points (P + T, T of small order) are points like any
 * other; is_small_order and is_torsion_free tell them apart, mul_by_cofactor maps into the subgroup of order l.
 * Addition and doubling are complete (Hisil et al., ASIACRYPT 2008, section 3.1: a = -1 a square, d not), so no
 * input is special.
 * Alias: every output point may equal any input point. Time: constant in every point and scalar, except in
 * functions named _vartime. Scalars for multiplication are any 32 bytes (an integer in [0, 2^256)), not reduced:
 * [s]P is computed exactly, which differs from [s mod l]P when P has a small-order component.
 * ------------------------------------------------------------------------------------------------------------ */

/* ecopt_edwards25519_decode — r = the point encoded by s, strictly: RFC 8032 section 5.1.3 with both canonical
 * rules, the decoding of STRICT verification's rules 1 and 3 (ecopt.h): y < p (bits 0..254 as an integer), and
 * not x = 0 with the sign bit (bit 255) set; y must have an x on the curve. Small-order and mixed-order points
 * decode (they are points; ecopt_edwards25519_is_small_order tests for them).
 * Shapes:  r the point; s 32 bytes.
 * Time:    constant in s until the verdict, which is returned (public).
 * Returns: ECOPT_OK; ECOPT_ERR_ENCODING (y >= p, x = 0 with the sign bit, or no such point; r zeroed, which is
 *          not a point).
 * Source:  RFC 8032 section 5.1.3. */
ECOPT_API
int ecopt_edwards25519_decode(ecopt_edwards25519_point *r,
                              const uint8_t s[ECOPT_EDWARDS25519_BYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_edwards25519_decode_zip215 — as ecopt_edwards25519_decode with ZIP-215's permissive reading (the
 * decoding of ecopt_ed25519_verify_zip215): y >= p is taken mod p, x = 0 with the sign bit set decodes to x = 0.
 * Returns: ECOPT_OK; ECOPT_ERR_ENCODING only for a y with no x on the curve (r zeroed).
 * Time:    constant in s until the verdict (public). Source: Zcash ZIP 215; RFC 8032 section 5.1.3. */
ECOPT_API
int ecopt_edwards25519_decode_zip215(ecopt_edwards25519_point *r,
                                     const uint8_t s[ECOPT_EDWARDS25519_BYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_edwards25519_encode — s = the 32-byte encoding of p: y little-endian, bit 255 = the low bit of x
 * (canonical: ecopt_edwards25519_decode reads it back to an equal point).
 * Shapes: s 32 bytes. Time: constant (one field inversion). Source: RFC 8032 section 5.1.2. */
ECOPT_API
void ecopt_edwards25519_encode(uint8_t s[ECOPT_EDWARDS25519_BYTES], const ecopt_edwards25519_point *p);

/* ecopt_edwards25519_identity — r = the neutral element, (x, y) = (0, 1). Time: constant. */
ECOPT_API
void ecopt_edwards25519_identity(ecopt_edwards25519_point *r);

/* ecopt_edwards25519_base — r = B, the base point of RFC 8032 section 5.1 (y = 4/5, x even), of order l.
 * Time: constant. */
ECOPT_API
void ecopt_edwards25519_base(ecopt_edwards25519_point *r);

/* ecopt_edwards25519_add — r = p + q. Alias: r may equal p or q. Time: constant.
 * Source: add-2008-hwcd-3 (Hisil, Wong, Carter, Dawson, ASIACRYPT 2008, section 3.2). */
ECOPT_API
void ecopt_edwards25519_add(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p,
                            const ecopt_edwards25519_point *q);

/* ecopt_edwards25519_sub — r = p - q. Alias: r may equal p or q. Time: constant. */
ECOPT_API
void ecopt_edwards25519_sub(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p,
                            const ecopt_edwards25519_point *q);

/* ecopt_edwards25519_neg — r = -p = (-x, y). Alias: r may equal p. Time: constant. */
ECOPT_API
void ecopt_edwards25519_neg(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p);

/* ecopt_edwards25519_double — r = 2 p. Alias: r may equal p. Time: constant.
 * Source: dbl-2008-hwcd (Hisil et al., ASIACRYPT 2008, section 3.3). */
ECOPT_API
void ecopt_edwards25519_double(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p);

/* ecopt_edwards25519_equal — 1 when p and q are the same point, else 0: the projective comparison
 * X1 Z2 = X2 Z1 and Y1 Z2 = Y2 Z1 (a point has many coordinate representations; the bytes of two equal points
 * may differ, so never compare them with memcmp).
 * Time: constant in p and q (the answer is the result). */
ECOPT_API
int ecopt_edwards25519_equal(const ecopt_edwards25519_point *p, const ecopt_edwards25519_point *q);

/* ecopt_edwards25519_is_identity — 1 when p is the neutral element (X = 0 and Y = Z), else 0.
 * Time: constant (the answer is the result). */
ECOPT_API
int ecopt_edwards25519_is_identity(const ecopt_edwards25519_point *p);

/* ecopt_edwards25519_scalarmult — r = [s] p.
 * Shapes:  s 32 bytes little-endian, any integer in [0, 2^256), used as it is (not reduced mod l; not clamped).
 * Alias:   r may equal p.
 * Time:    constant in s and p: signed radix-16 fixed window (64 digits in [-8, 8]), a table of [1]p..[8]p read
 *          whole for every digit, 252 doublings and 64 additions. An s >= 2^255 is first rewritten, by masks, as
 *          d = s - 2^255 - 8 (l - 2^252), |d| < 2^255 with [s] p = [d] p because [8 l] p is the identity for every
 *          point of the curve.
 * Source:  k-ary (fixed-window) multiplication with signed digits (HAC section 14.6.1); RFC 8032 section 5.1 (the
 *          group order). */
ECOPT_API
void ecopt_edwards25519_scalarmult(ecopt_edwards25519_point *r, const uint8_t s[ECOPT_EDWARDS25519_SCALARBYTES],
                                   const ecopt_edwards25519_point *p);

/* ecopt_edwards25519_scalarmult_base — r = [s] B with the precomputed table of the base point (the one that key
 * generation and signing use).
 * Shapes:  s 32 bytes little-endian, any integer in [0, 2^256) (B has order l, so the result equals [s mod l] B).
 * Time:    constant in s: 43 signed radix-64 digits, each a whole-row table lookup, 42 mixed additions.
 * Source:  Bernstein, Duif, Lange, Schwabe, Yang, "High-speed high-security signatures" (CHES 2011), section 4,
 *          with radix 64. */
ECOPT_API
void ecopt_edwards25519_scalarmult_base(ecopt_edwards25519_point *r,
                                        const uint8_t s[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ecopt_edwards25519_double_scalarmult_vartime — r = [a] p + [b] B.
 * Shapes:  a, b 32 bytes little-endian, any integers in [0, 2^256) (not reduced; b is reduced mod l inside, which
 *          does not change [b] B).
 * Alias:   r may equal p.
 * Time:    vartime in a, b and p: for public inputs only (verification). Width-5 NAF for a, width-5 NAF with a
 *          table of odd multiples of B for b.
 * Source:  Straus's simultaneous multiplication (HAC section 14.6.1, simultaneous multiple exponentiation) with
 *          width-w NAFs (Solinas, "Efficient arithmetic on Koblitz curves", 2000). */
ECOPT_API
void ecopt_edwards25519_double_scalarmult_vartime(ecopt_edwards25519_point *r,
                                                  const uint8_t a[ECOPT_EDWARDS25519_SCALARBYTES],
                                                  const ecopt_edwards25519_point *p,
                                                  const uint8_t b[ECOPT_EDWARDS25519_SCALARBYTES]);

/* ecopt_edwards25519_mul_by_cofactor — r = [8] p (three doublings): a point of the subgroup of order l, the
 * identity exactly when p has small order.
 * Alias: r may equal p. Time: constant. Source: RFC 8032 section 5.1 (cofactor h = 8). */
ECOPT_API
void ecopt_edwards25519_mul_by_cofactor(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p);

/* ecopt_edwards25519_is_small_order — 1 when [8] p is the identity (p is one of the 8 points of the 8-torsion
 * subgroup, the identity included), else 0 (mixed-order points give 0).
 * Time: constant in p (the answer is the result). */
ECOPT_API
int ecopt_edwards25519_is_small_order(const ecopt_edwards25519_point *p);

/* ecopt_edwards25519_is_torsion_free — 1 when [l] p is the identity (p in the subgroup of order l, the identity
 * included), else 0 (small-order points but the identity, and every mixed-order point, give 0).
 * Time: constant in p (a constant-time [l] p, the cost of ecopt_edwards25519_scalarmult; the answer is the
 *       result). */
ECOPT_API
int ecopt_edwards25519_is_torsion_free(const ecopt_edwards25519_point *p);

/* ecopt_edwards25519_to_montgomery_u — u = the u-coordinate of the Curve25519 point birationally equivalent to p:
 * u = (1 + y) / (1 - y) (RFC 7748 section 4.1), so that B maps to u = 9 and to_montgomery_u([k] B) =
 * X25519(k, 9) for a clamped k. The points with 1 - y = 0 or 1 + y = 0: the identity (0, 1) has no u (it maps to
 * the point at infinity) and gives u = 0, as X25519's ladder does for it; (0, -1), of order 2, gives u = 0 too
 * (the Montgomery point (0, 0)). x is not used (p and -p give the same u).
 * Shapes:  u 32 bytes, canonical (in [0, p)), little-endian.
 * Time:    constant in p (one field inversion).
 * Source:  RFC 7748 section 4.1. */
ECOPT_API
void ecopt_edwards25519_to_montgomery_u(uint8_t u[ECOPT_X25519_BYTES], const ecopt_edwards25519_point *p);

/* ecopt_edwards25519_from_montgomery_u — r = the edwards25519 point with y = (u - 1) / (u + 1) (RFC 7748
 * section 4.1) and the low bit of x equal to sign: of the two points with a given u, sign chooses one (as bit 255
 * of an RFC 8032 encoding does). to_montgomery_u(from_montgomery_u(u, sign)) = u for every accepted u.
 * Shapes:  u 32 bytes little-endian; sign 0 or 1 (any nonzero value counts as 1).
 * Cases:   u = 0 gives (0, -1), the point of order 2, for either sign (x = 0 has no sign); u = 1 gives y = 0, a
 *          point of order 4; the identity is never the result (it has no u).
 * Time:    constant in u and sign until the verdict, which is returned (public).
 * Returns: ECOPT_OK; ECOPT_ERR_ENCODING (r zeroed) when u is not canonical (u >= p, bit 255 included: no masking
 *          as X25519 does), when u = p - 1 (u + 1 = 0, so no y; -1 is no point's u on Curve25519 either:
 *          u^3 + 486662 u^2 + u = 486660 there, not a square mod p, so u = -1 lies on the twist), or when u is
 *          not the u-coordinate of a point of Curve25519 (it lies on the twist: y then has no x).
 * Source:  RFC 7748 section 4.1. */
ECOPT_API
int ecopt_edwards25519_from_montgomery_u(ecopt_edwards25519_point *r, const uint8_t u[ECOPT_X25519_BYTES],
                                         int sign) ECOPT_WARN_UNUSED_RESULT;

#ifdef __cplusplus
}
#endif

#endif /* ECOPT_EDWARDS25519_H */
