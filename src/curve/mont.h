/* mont.h — the Montgomery ladder on Curve25519, v^2 = u^3 + 486662 u^2 + u (RFC 7748 sections 4.1 and 5).
 * Compiled per backend (names carry its suffix). */
#ifndef ECOPT_CURVE_MONT_H
#define ECOPT_CURVE_MONT_H

#include <stdint.h>

#include "field/fe.h"

#define ecopt_mont_ladder ECOPT_BE(ecopt_mont_ladder)

/* ecopt_mont_ladder — out = the u-coordinate of [k]P for a point P with u-coordinate u, k the clamped scalar.
 * Shapes:  out 32 bytes canonical (in [0, p)); k 32 bytes already clamped (bit 255 clear, bit 254 set, low 3
 *          bits clear); u 32 bytes, bit 255 ignored, non-canonical values reduced.
 * Alias:   out may equal k or u.
 * Time:    constant in k: 255 ladder steps with a conditional swap by mask between them (RFC 7748 section 5).
 * Returns: nothing; the all-zero check is the caller's (RFC 7748 section 6.1).
 * Source:  RFC 7748 section 5 (a24 = 121665). */
void ecopt_mont_ladder(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]);

#if defined(ECOPT_FE_BACKEND_ifma) || defined(ECOPT_FE_BACKEND_ifma_emu)
#define ecopt_mont_ladder_x4 ECOPT_BE(ecopt_mont_ladder_x4)

/* ecopt_mont_ladder_x4 — (x2, z2) = the projective u-coordinate of [k]P, P with u-coordinate x1, by the ladder of
 * RFC 7748 section 5 with its four field operations of each round in the four lanes of the ifma backend's vectors
 * (field/ifma/fe4.h; src/curve/mont_ifma.c has the arrangement). ecopt_mont_ladder of the ifma backends is this,
 * then the scalar inversion and encoding.
 * Shapes:  k 32 bytes already clamped; x1 a u64-representation element with limbs < 2^52 (frombytes' output);
 *          x2, z2 u64 tight.
 * Alias:   none needed (x1 is read before x2 and z2 are written).
 * Time:    constant in k: the conditional swap is a masked select of lanes.
 * Source:  RFC 7748 section 5 (a24 = 121665). */
void ecopt_mont_ladder_x4(ecopt_fe *x2, ecopt_fe *z2, const uint8_t k[32], const ecopt_fe *x1);
#endif

#endif /* ECOPT_CURVE_MONT_H */
