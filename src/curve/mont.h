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

#endif /* ECOPT_CURVE_MONT_H */
