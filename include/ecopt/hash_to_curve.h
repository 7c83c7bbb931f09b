/* hash_to_curve.h — hashing to edwards25519 and curve25519 (RFC 9380), and its expander expand_message_xmd.
 *
 * Four suites of RFC 9380 section 8.5, each with the caller's domain separation tag (DST):
 *   edwards25519_XMD:SHA-512_ELL2_RO_  ecopt_edwards25519_hash_to_curve    (random oracle: two maps, added)
 *   edwards25519_XMD:SHA-512_ELL2_NU_  ecopt_edwards25519_encode_to_curve  (nonuniform: one map)
 *   curve25519_XMD:SHA-512_ELL2_RO_    ecopt_curve25519_hash_to_curve
 *   curve25519_XMD:SHA-512_ELL2_NU_    ecopt_curve25519_encode_to_curve
 * each hash_to_field (section 5.2, L = 48 bytes per element, mod p = 2^255 - 19) with expand_message_xmd over
 * SHA-512 (section 5.3.1), Elligator 2 to curve25519 (section 6.7.1, Z = 2), the rational map to edwards25519
 * (section 6.8.2, appendix D) and clear_cofactor, multiplication by h_eff = 8 (section 7). Every output is in the
 * subgroup of prime order l. RO suites are the ones to use where a random oracle is assumed; NU outputs are
 * distinguishable from random points (section 2.2.2).
 *
 * DST rules, for every function here: 1 <= dstlen (RFC 9380 section 3.1: tags MUST have nonzero length;
 * ECOPT_ERR_LENGTH otherwise); a DST of more than 255 bytes is replaced by SHA-512("H2C-OVERSIZE-DST-" || DST),
 * 64 bytes (section 5.3.3). Section 3.1 recommends at least 16 bytes and a DST naming the protocol, its version and
 * the suite, e.g. "MYAPP-V01-CS01-with-edwards25519_XMD:SHA-512_ELL2_RO_" (not enforced).
 *
 * Time, for every function here: constant in the contents of msg and dst (libcrypto's SHA-512, XORs, reductions
 * mod p, Elligator 2 with constant-time selections and square roots by fixed exponentiations), so a secret message
 * (a password in a PAKE, an OPRF input) may be hashed; the lengths msglen, dstlen and outlen are public.
 * The conventions of ecopt.h hold here (outputs first, return codes, zeroed outputs on error, no heap beyond
 * libcrypto's SHA-512 context, thread safety). Alias: outputs may not overlap inputs. */
#ifndef ECOPT_HASH_TO_CURVE_H
#define ECOPT_HASH_TO_CURVE_H

#include "ecopt/ecopt.h"
#include "ecopt/edwards25519.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECOPT_EXPAND_MESSAGE_XMD_SHA512_MAXBYTES 16320 /* 255 SHA-512 blocks of output (RFC 9380 section 5.3.1) */
#define ECOPT_CURVE25519_BYTES 32                      /* a Montgomery coordinate, little-endian */

/* ecopt_expand_message_xmd_sha512 — out = expand_message_xmd(msg, DST, outlen) with H = SHA-512 (b_in_bytes = 64,
 * s_in_bytes = 128): b_0 = H(Z_pad || msg || I2OSP(outlen, 2) || I2OSP(0, 1) || DST_prime), b_1 = H(b_0 ||
 * I2OSP(1, 1) || DST_prime), b_i = H((b_0 XOR b_(i-1)) || I2OSP(i, 1) || DST_prime), out = the first outlen
 * bytes of b_1 || ... || b_ell, DST_prime = DST || I2OSP(len(DST), 1).
 * Shapes:  out outlen bytes, 0 <= outlen <= 16320 (ell = ceil(outlen / 64) <= 255; outlen 0 writes nothing);
 *          msg msglen bytes (NULL allowed when msglen is 0); dst dstlen bytes, 1 <= dstlen, hashed first when
 *          over 255 bytes (see above).
 * Time:    constant in the contents of msg and dst; lengths public.
 * Returns: ECOPT_OK; ECOPT_ERR_LENGTH, out zeroed, when outlen > 16320 or dstlen = 0; ECOPT_ERR_NOMEM, out zeroed,
 *          when libcrypto cannot provide SHA-512.
 * Source:  RFC 9380 sections 5.3.1 and 5.3.3. */
ECOPT_API
int ecopt_expand_message_xmd_sha512(uint8_t *out, size_t outlen, const uint8_t *msg, size_t msglen,
                                    const uint8_t *dst, size_t dstlen) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_edwards25519_hash_to_curve — p = hash_to_curve(msg) of suite edwards25519_XMD:SHA-512_ELL2_RO_:
 * u0, u1 = hash_to_field(msg, 2); p = clear_cofactor(map_to_curve(u0) + map_to_curve(u1)), map_to_curve Elligator 2
 * to curve25519 followed by the rational map to edwards25519.
 * Shapes:  p the point out (a point of the prime-order subgroup); msg msglen bytes; dst dstlen bytes.
 * Returns: ECOPT_OK; ECOPT_ERR_LENGTH (dstlen 0; p zeroed); ECOPT_ERR_NOMEM (p zeroed).
 * Source:  RFC 9380 sections 3, 5.2, 6.7.1, 6.8.2, 8.5 and appendix G.2.2 (the exceptional case: a Montgomery
 *          point with t = 0 or s = -1 maps to the identity). */
ECOPT_API
int ecopt_edwards25519_hash_to_curve(ecopt_edwards25519_point *p, const uint8_t *msg, size_t msglen,
                                     const uint8_t *dst, size_t dstlen) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_edwards25519_encode_to_curve — p = encode_to_curve(msg) of suite edwards25519_XMD:SHA-512_ELL2_NU_:
 * u = hash_to_field(msg, 1); p = clear_cofactor(map_to_curve(u)). Shapes, returns: as ecopt_edwards25519_hash_to_curve.
 * Source:  RFC 9380 sections 3, 8.5. */
ECOPT_API
int ecopt_edwards25519_encode_to_curve(ecopt_edwards25519_point *p, const uint8_t *msg, size_t msglen,
                                       const uint8_t *dst, size_t dstlen) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_curve25519_hash_to_curve — (u, v) = hash_to_curve(msg) of suite curve25519_XMD:SHA-512_ELL2_RO_, the
 * affine point of the Montgomery curve v^2 = u^3 + 486662 u^2 + u (RFC 7748 section 4.1) in the prime-order
 * subgroup: the same computation as ecopt_edwards25519_hash_to_curve (the curves are birationally equivalent and
 * the map respects the group law), the result taken to Montgomery form by u = (1 + y) / (1 - y),
 * v = sqrt(-486664) u / x, sqrt(-486664) the even root (RFC 9380 section 6.8.2).
 * Shapes:  u 32 bytes out, little-endian, canonical (< p): what X25519 takes as a peer's public value; v 32 bytes
 *          out, little-endian, canonical, or NULL when not wanted (X25519 uses u alone). msg, dst as above.
 *          The point at infinity (the result only when the maps' points add up to a point of order dividing 8:
 *          probability about 2^-252 for a hashed message) is written as u = 0, v = 0, the u that X25519 gives it.
 * Returns: ECOPT_OK; ECOPT_ERR_LENGTH (dstlen 0; u and v zeroed); ECOPT_ERR_NOMEM (u and v zeroed).
 * Source:  RFC 9380 sections 3, 5.2, 6.7.1, 8.5; RFC 7748 section 4.1 (the birational map). */
ECOPT_API
int ecopt_curve25519_hash_to_curve(uint8_t u[ECOPT_CURVE25519_BYTES], uint8_t v[ECOPT_CURVE25519_BYTES],
                                   const uint8_t *msg, size_t msglen, const uint8_t *dst,
                                   size_t dstlen) ECOPT_WARN_UNUSED_RESULT;

/* ecopt_curve25519_encode_to_curve — (u, v) = encode_to_curve(msg) of suite curve25519_XMD:SHA-512_ELL2_NU_:
 * u = hash_to_field(msg, 1); clear_cofactor(map_to_curve(u)), in Montgomery form as above. Shapes, returns: as
 * ecopt_curve25519_hash_to_curve.
 * Source:  RFC 9380 sections 3, 8.5. */
ECOPT_API
int ecopt_curve25519_encode_to_curve(uint8_t u[ECOPT_CURVE25519_BYTES], uint8_t v[ECOPT_CURVE25519_BYTES],
                                     const uint8_t *msg, size_t msglen, const uint8_t *dst,
                                     size_t dstlen) ECOPT_WARN_UNUSED_RESULT;

#ifdef __cplusplus
}
#endif

#endif /* ECOPT_HASH_TO_CURVE_H */
