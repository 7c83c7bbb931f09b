/* ristretto255.h — the prime-order group ristretto255 (RFC 9496), built on edwards25519.
 *
 * ristretto255 is a group of prime order l = 2^252 + 27742317777372353535851937790883648493: each element is a
 * class of four edwards25519 points P + T, T in the 4-torsion (RFC 9496 section 4), and each class has one
 * canonical 32-byte encoding. Protocols that need a prime-order group (PAKEs, anonymous credentials, VRFs,
 * threshold schemes) use it without cofactor corrections.
 * The conventions of ecopt.h hold here (outputs first, return codes, zeroed outputs on error, no heap, thread
 * safety). Every function of this header is constant time in all of its arguments (the exceptions are named in
 * each docstring: the verdict of a decoding, and the lengths of hashed strings, are public).
 * Alias: every function may be called with its output point equal to any input point. */
#ifndef ECOPT_RISTRETTO255_H
#define ECOPT_RISTRETTO255_H

#include "ecopt/ecopt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ecopt_ristretto255_point — an element of ristretto255, caller-allocated, fixed size (128 bytes), copyable with
 * memcpy or assignment. The contents are private: one representative of the class in extended edwards25519
 * coordinates (X : Y : Z : T), each a canonical field element (the layout of ecopt_edwards25519_point, a distinct
 * type so that the compiler refuses to mix the two groups), independent of the backend in use. Two points that
 * compare equal with ecopt_ristretto255_equal may differ in their bytes: compare with that function or through
 * ecopt_ristretto255_encode, never with memcmp. Only values written by this library's functions are points; any
 * other contents give unspecified (but memory-safe) results. */
typedef struct ecopt_ristretto255_point {
    uint8_t opaque[128];
} ecopt_ristretto255_point;

#define ECOPT_RISTRETTO255_BYTES 32        /* an encoded element (RFC 9496 section 4.3.2) */
#define ECOPT_RISTRETTO255_SCALARBYTES 32  /* a scalar, little-endian */
#define ECOPT_RISTRETTO255_UNIFORMBYTES 64 /* the input of ecopt_ristretto255_from_uniform_bytes */

ECOPT_API
size_t ecopt_ristretto255_bytes(void);
ECOPT_API
size_t ecopt_ristretto255_scalarbytes(void);
ECOPT_API
size_t ecopt_ristretto255_uniformbytes(void);

/* ecopt_ristretto255_decode — p = the element encoded by s (RFC 9496 section 4.3.1).
 * Shapes:  p the point out; s 32 bytes.
 * Alias:   none (p is written, s is read; they are different types).
 * Time:    constant in s until the verdict, which is returned (public: a decoding's success is the caller's to
 *          branch on).
 * Returns: ECOPT_OK; ECOPT_ERR_ENCODING, p zeroed, when s is not the canonical encoding of an element, each of
 *          RFC 9496's rejections: the field element s (little-endian, all 256 bits) is not below p = 2^255 - 19
 *          (non-canonical, bit 255 included); s is negative (odd); 1 / sqrt(v (1 + s^2)^2) does not exist (not a
 *          square); the point's t = x y is negative; y = 0 (as for s = -1). The all-zero string decodes to
 *          the identity.
 * Source:  RFC 9496 section 4.3.1 (SQRT_RATIO_M1: section 4.2). */
ECOPT_API
int ecopt_ristretto255_decode(ecopt_ristretto255_point *p,
                              const uint8_t s[ECOPT_RISTRETTO255_BYTES]) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ristretto255_encode — s = the canonical encoding of p (RFC 9496 section 4.3.2): the same 32 bytes for
 * every representative of the class; the encoding is a non-negative field element below p (bit 255 and bit 0
 * clear).
 * Shapes:  s 32 bytes out; p a point.
 * Time:    constant in p.
 * Source:  RFC 9496 section 4.3.2. */
ECOPT_API
void ecopt_ristretto255_encode(uint8_t s[ECOPT_RISTRETTO255_BYTES], const ecopt_ristretto255_point *p);

/* ecopt_ristretto255_equal — 1 when p and q are the same element of ristretto255, else 0: x1 y2 = y1 x2 or
 * y1 y2 = x1 x2 on the representatives (RFC 9496 section 4.3.3), without encoding either.
 * Time:    constant in p and q.
 * Returns: 1 or 0.
 * Source:  RFC 9496 section 4.3.3. */
ECOPT_API
int ecopt_ristretto255_equal(const ecopt_ristretto255_point *p, const ecopt_ristretto255_point *q);

/* ecopt_ristretto255_identity — p = the neutral element (encoding: 32 zero bytes). Time: constant. */
ECOPT_API
void ecopt_ristretto255_identity(ecopt_ristretto255_point *p);

/* ecopt_ristretto255_base — p = the generator of RFC 9496 section 4.4, the class of edwards25519's base point B
 * (RFC 8032 section 5.1; encoding e2f2ae0a...e08d2d76). Time: constant. */
ECOPT_API
void ecopt_ristretto255_base(ecopt_ristretto255_point *p);

/* ecopt_ristretto255_add, _sub — r = p + q, r = p - q: the edwards25519 addition of representatives, which is
 * well defined on the classes (RFC 9496 section 4.1). Alias: r may equal p or q. Time: constant.
 * Source: RFC 9496 section 4.1; the formulas of Hisil, Wong, Carter, Dawson (ASIACRYPT 2008). */
ECOPT_API
void ecopt_ristretto255_add(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p,
                            const ecopt_ristretto255_point *q);
ECOPT_API
void ecopt_ristretto255_sub(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p,
                            const ecopt_ristretto255_point *q);

/* ecopt_ristretto255_neg — r = -p. Alias: r may equal p. Time: constant. */
ECOPT_API
void ecopt_ristretto255_neg(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p);

/* ecopt_ristretto255_scalarmult — r = [s]p.
 * Shapes:  r, p points; s 32 bytes little-endian, any value below 2^256: it is reduced mod l first, which does not
 *          change the element, the group having order l (a scalar need not be canonical here; check it with the
 *          scalar functions when a protocol requires canonical scalars).
 * Alias:   r may equal p.
 * Time:    constant in s and p (a fixed-window multiplication, every table entry read for every digit).
 * Source:  RFC 9496 section 4.1 (the group operations are edwards25519's). */
ECOPT_API
void ecopt_ristretto255_scalarmult(ecopt_ristretto255_point *r, const uint8_t s[ECOPT_RISTRETTO255_SCALARBYTES],
                                   const ecopt_ristretto255_point *p);

/* ecopt_ristretto255_scalarmult_base — r = [s]G, G the generator (ecopt_ristretto255_base), with the library's
 * precomputed table of edwards25519's base point.
 * Shapes:  s 32 bytes little-endian, any value below 2^256 (reduced mod l, as above).
 * Time:    constant in s. */
ECOPT_API
void ecopt_ristretto255_scalarmult_base(ecopt_ristretto255_point *r,
                                        const uint8_t s[ECOPT_RISTRETTO255_SCALARBYTES]);

/* Scalars of ristretto255 are integers mod l, the scalars of edwards25519.h: reduce, add, multiply, invert and
 * draw them with the ecopt_edwards25519_scalar_* functions (32 bytes little-endian, canonical below l). */

/* ecopt_ristretto255_double_scalarmult_vartime — r = [a] p + [b] G, G the generator.
 * Shapes:  a, b 32 bytes little-endian, any value below 2^256 (the element is that of a mod l and b mod l).
 * Alias:   r may equal p.
 * Time:    vartime in a, b and p: for public inputs only (verification of proofs).
 * Source:  ecopt_edwards25519_double_scalarmult_vartime on the representative (the group operations are
 *          edwards25519's, RFC 9496 section 4.1). */
ECOPT_API
void ecopt_ristretto255_double_scalarmult_vartime(ecopt_ristretto255_point *r,
                                                  const uint8_t a[ECOPT_RISTRETTO255_SCALARBYTES],
                                                  const ecopt_ristretto255_point *p,
                                                  const uint8_t b[ECOPT_RISTRETTO255_SCALARBYTES]);

/* ecopt_ristretto255_msm_scratch_size — the work memory ecopt_ristretto255_msm_vartime needs for n points: the
 * same number as ecopt_edwards25519_msm_scratch_size(n) (msm.h). 0 for n = 0; SIZE_MAX when it does not fit. */
ECOPT_API
size_t ecopt_ristretto255_msm_scratch_size(size_t n);

/* ecopt_ristretto255_msm_vartime — out = sum_{i<n} [s_i] P_i, in variable time.
 * Shapes:  out one point; scalars n x 32 bytes little-endian, scalar i at scalars + 32 i, any value below 2^256;
 *          points n points; scratch scratch_len >= ecopt_ristretto255_msm_scratch_size(n) bytes, any alignment
 *          (scalars, points and scratch may be NULL when n = 0; n = 0 gives the identity).
 * Alias:   out may equal one of points; scratch may not overlap the other arguments.
 * Time:    vartime: for public scalars and points only; the method and cost of ecopt_edwards25519_msm_vartime.
 * Returns: ECOPT_OK; ECOPT_ERR_LENGTH when scratch_len is smaller than ecopt_ristretto255_msm_scratch_size(n) (or
 *          scratch is NULL with n > 0): out zeroed (not an element: the function's result must be checked).
 * Source:  ecopt_edwards25519_msm_vartime (msm.h) on the representatives. */
ECOPT_API
int ecopt_ristretto255_msm_vartime(ecopt_ristretto255_point *out, const uint8_t *scalars,
                                   const ecopt_ristretto255_point *points, size_t n, void *scratch,
                                   size_t scratch_len) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_ristretto255_from_uniform_bytes — r = the element derived from 64 uniformly random bytes (RFC 9496 section
 * 4.3.4): MAP(b[0..32]) + MAP(b[32..64]), each half read little-endian with bit 255 cleared and taken mod p, MAP
 * the one-way Elligator map of section 4.3.4. The result is indistinguishable from a uniform element when b is
 * uniform, and nobody knows its discrete logarithm. Use ecopt_ristretto255_hash_to_group to hash a message.
 * Shapes:  b 64 bytes.
 * Time:    constant in b.
 * Source:  RFC 9496 section 4.3.4. */
ECOPT_API
void ecopt_ristretto255_from_uniform_bytes(ecopt_ristretto255_point *r,
                                           const uint8_t b[ECOPT_RISTRETTO255_UNIFORMBYTES]);

/* ecopt_ristretto255_hash_to_group — r = from_uniform_bytes(expand_message_xmd(msg, dst, 64)) with SHA-512: the
 * hash to ristretto255 of RFC 9496 section 4.3.4 with RFC 9380's expander (section 5.3.1), the suite
 * ristretto255_XMD:SHA-512_R255MAP_RO_ of RFC 9380 appendix B.
 * Shapes:  msg msglen bytes (NULL allowed when msglen is 0); dst dstlen bytes, the domain separation tag of the
 *          protocol (RFC 9380 section 3.1), 1 <= dstlen: a DST of more than 255 bytes is replaced by
 *          SHA-512("H2C-OVERSIZE-DST-" || dst) as RFC 9380 section 5.3.3 says; RFC 9380 section 3.1 recommends at
 *          least 16 bytes (not enforced).
 * Alias:   r may not overlap msg or dst.
 * Time:    constant in the contents of msg and dst (SHA-512, XORs, and the map, all without secret branches or
 *          indices); their lengths are public. A secret message (an OPRF input, a password) may be hashed.
 * Returns: ECOPT_OK; ECOPT_ERR_LENGTH, r zeroed, when dstlen is 0 (RFC 9380 section 3.1: a DST MUST have nonzero
 *          length); ECOPT_ERR_NOMEM, r zeroed, when libcrypto cannot provide SHA-512.
 * Source:  RFC 9496 section 4.3.4; RFC 9380 sections 5.3.1, 5.3.3 and appendix B. */
ECOPT_API
int ecopt_ristretto255_hash_to_group(ecopt_ristretto255_point *r, const uint8_t *msg, size_t msglen,
                                     const uint8_t *dst, size_t dstlen) ECOPT_WARN_UNUSED_RESULT;

#ifdef __cplusplus
}
#endif

#endif /* ECOPT_RISTRETTO255_H */
