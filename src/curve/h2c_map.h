/* h2c_map.h — the curve half of hash-to-curve for edwards25519 and curve25519 (RFC 9380): hash_to_field's
 * reduction, Elligator 2, the rational map, cofactor clearing and the Montgomery form. Compiled per backend (names
 * carry its suffix); expand_message_xmd (the hashing half) is compiled once, in src/proto/h2c.c.
 * Alias: outputs may equal inputs. Time: constant in every argument. */
#ifndef ECOPT_CURVE_H2C_MAP_H
#define ECOPT_CURVE_H2C_MAP_H

#include <stdint.h>

#include "curve/ge.h"
#include "curve/group_ops.h"

#define ecopt_h2c_fe_from_bytes48 ECOPT_BE(ecopt_h2c_fe_from_bytes48)
#define ecopt_h2c_elligator2 ECOPT_BE(ecopt_h2c_elligator2)
#define ecopt_h2c_map_to_edwards ECOPT_BE(ecopt_h2c_map_to_edwards)
#define ecopt_h2c_to_montgomery ECOPT_BE(ecopt_h2c_to_montgomery)
#define ecopt_h2c_ops_be ECOPT_BE(ecopt_h2c_ops)

/* ecopt_h2c_fe_from_bytes48 — h = OS2IP(b) mod p, b 48 bytes big-endian (RFC 9380 section 5.2, L = 48). Bounds: out
 * tight. */
void ecopt_h2c_fe_from_bytes48(ecopt_fe *h, const uint8_t b[48]);

/* ecopt_h2c_elligator2 — (s, t) = map_to_curve_elligator2(u) on curve25519, t^2 = s^3 + 486662 s^2 + s, affine
 * (RFC 9380 section 6.7.1 with J = 486662, K = 1, Z = 2). Bounds: u loose; s, t tight. */
void ecopt_h2c_elligator2(ecopt_fe *s, ecopt_fe *t, const ecopt_fe *u);

/* ecopt_h2c_map_to_edwards — r = map_to_curve(u) of the edwards25519 suites: Elligator 2, then the rational map
 * x = sqrt(-486664) s / t, y = (s - 1) / (s + 1) (RFC 9380 section 6.8.2), (0, 1) where t = 0 or s = -1
 * (appendix G.2.2's convention). Not cofactor-cleared. Bounds: u loose. */
void ecopt_h2c_map_to_edwards(ecopt_ge_ext *r, const ecopt_fe *u);

/* ecopt_h2c_to_montgomery — (u, v) = the curve25519 point of p: u = (1 + y) / (1 - y), v = sqrt(-486664) u / x
 * (RFC 7748 section 4.1), both canonical little-endian; u = v = 0 when x = 0 (the identity, whose image is the
 * point at infinity, and (0, -1), whose image is (0, 0)). v may be NULL. */
void ecopt_h2c_to_montgomery(uint8_t u[32], uint8_t *v, const ecopt_ge_ext *p);

/* This backend's entry of the table (backend.h, field h2c). */
extern const ecopt_h2c_ops ecopt_h2c_ops_be;

#endif /* ECOPT_CURVE_H2C_MAP_H */
