/* ristretto.h — ristretto255 (RFC 9496 section 4) on the extended edwards25519 points of ge.h, compiled per backend
 * (names carry its suffix). A ristretto255 element is the class P + E[4] of a point P of 2E (the even points); any
 * point of the class represents it. The functions below work on representatives; src/curve/group_ops.h's entry
 * wraps them for the public point type.
 * Alias: outputs may equal inputs. Time: constant in every argument (a decoding's verdict is returned). */
#ifndef ECOPT_CURVE_RISTRETTO_H
#define ECOPT_CURVE_RISTRETTO_H

#include <stdint.h>

#include "curve/ge.h"
#include "curve/group_ops.h"

#define ecopt_ristretto_sqrt_ratio_m1 ECOPT_BE(ecopt_ristretto_sqrt_ratio_m1)
#define ecopt_ristretto_decode ECOPT_BE(ecopt_ristretto_decode)
#define ecopt_ristretto_encode ECOPT_BE(ecopt_ristretto_encode)
#define ecopt_ristretto_eq ECOPT_BE(ecopt_ristretto_eq)
#define ecopt_ristretto_map ECOPT_BE(ecopt_ristretto_map)
#define ecopt_ristretto_from_uniform ECOPT_BE(ecopt_ristretto_from_uniform)
#define ecopt_ristretto_ops_be ECOPT_BE(ecopt_ristretto_ops)

/* ecopt_ristretto_sqrt_ratio_m1 — (was_square, r) = SQRT_RATIO_M1(u, v) (RFC 9496 section 4.2): r = the
 * non-negative sqrt(u / v) when u / v is a square (was_square = 1; r = 0 for u = 0), else the non-negative
 * sqrt(sqrt(-1) u / v) (was_square = 0; r = 0 for v = 0).
 * Bounds: in loose; out tight. Returns: was_square, 0 or 1. */
uint64_t ecopt_ristretto_sqrt_ratio_m1(ecopt_fe *r, const ecopt_fe *u, const ecopt_fe *v);

/* ecopt_ristretto_decode — r = a representative of the element encoded by s (RFC 9496 section 4.3.1), Z = 1.
 * Returns: 1 on success; 0 when s is rejected (r is then the identity). */
int ecopt_ristretto_decode(ecopt_ge_ext *r, const uint8_t s[32]);

/* ecopt_ristretto_encode — s = the canonical encoding of the class of p (RFC 9496 section 4.3.2); p must lie in
 * 2E (every point that decoding, the map and the group operations give). */
void ecopt_ristretto_encode(uint8_t s[32], const ecopt_ge_ext *p);

/* ecopt_ristretto_eq — 1 when p and q represent the same element (RFC 9496 section 4.3.3), else 0. */
uint64_t ecopt_ristretto_eq(const ecopt_ge_ext *p, const ecopt_ge_ext *q);

/* ecopt_ristretto_map — r = MAP(t), the one-way Elligator map of RFC 9496 section 4.3.4. Bounds: t loose. */
void ecopt_ristretto_map(ecopt_ge_ext *r, const ecopt_fe *t);

/* ecopt_ristretto_from_uniform — r = MAP(b[0..32]) + MAP(b[32..64]), each half little-endian, bit 255 cleared,
 * mod p (RFC 9496 section 4.3.4). */
void ecopt_ristretto_from_uniform(ecopt_ge_ext *r, const uint8_t b[64]);

/* This backend's entry of the table (backend.h, field ristretto). */
extern const ecopt_ristretto_ops ecopt_ristretto_ops_be;

#endif /* ECOPT_CURVE_RISTRETTO_H */
