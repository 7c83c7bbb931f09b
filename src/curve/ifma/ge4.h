/* ge4.h — edwards25519 points in parallel extended coordinates, for the ifma and ifma_emu backends only: one
 * ecopt_fe4 (field/ifma/fe4.h) holds the four coordinates of one point, one per lane, so that each round of four
 * independent multiplications of the formulas below is one ecopt_fe4_mul (Hisil, Wong, Carter, Dawson, "Twisted
 * Edwards curves revisited", ASIACRYPT 2008, section 4: the extended coordinates' addition and doubling on four
 * processors; written here from the paper for a = -1):
 *   ecopt_ge4_ext     lanes (X, Y, Z, T) of an extended point (x = X/Z, y = Y/Z, x y = T/Z); limbs carried.
 *   ecopt_ge4_cached  lanes (Y-X, Y+X, 2Z, 2d T), the second operand of an addition; an affine point's Niels form
 *                     (y-x, y+x, 2, 2d x y) is the cached form with Z = 1 (the fixed-base table's entries). Narrow.
 * Addition (add-2008-hwcd-3, k = 2d), two rounds:
 *   round 1  (Y1-X1, Y1+X1, Z1, T1) x (Y2-X2, Y2+X2, 2 Z2, 2d T2) = (A, B, D, C)
 *            then (E, F, G, H) = (B-A, D-C, D+C, B+A), one lane-signed addition
 *   round 2  (E, G, F, E) x (F, H, G, H) = (X3, Y3, Z3, T3)
 * Subtraction: the same rounds with -q = (Y2+X2, Y2-X2, 2 Z2, -2d T2) absorbed in the lane patterns: round 1 takes
 * (Y1+X1, Y1-X1, Z1, T1), then (E, F, G, H) = (B'-A', D+C, D-C, B'+A'). No negation, so no extra carry.
 * Doubling (dbl-2008-hwcd, a = -1), two rounds, as ge_formulas.h's double_c with E' = -E, F' = -F, G' = -G,
 * H' = -H (each product has two negated factors):
 *   round 1  (X1, Y1, Z1, X1+Y1)^2 = (A, B, Z1^2, S)
 *            then (E', G', F', H') = (A+B-S, A-B, A-B+2 Z1^2, A+B), one lane-signed combination, one carry
 *   round 2  (E', G', F', E') x (F', H', G', H') = (X3, Y3, Z3, T3)
 * Both formulas are complete on edwards25519 (ge.h), so no input is special. A "madd" is an addition whose cached
 * operand has Z = 1: in four lanes it costs what an addition costs (the lane that multiplies 2 Z2 is there anyway).
 * Names carry the backend's suffix (ECOPT_BE). Functions with ECOPT_IFMA_TARGET run only where the backend's
 * available() said yes (ifma); the ifma_emu copies run anywhere.
 * Alias: outputs may equal inputs. Time: constant unless the name says _vartime. */
#ifndef ECOPT_CURVE_IFMA_GE4_H
#define ECOPT_CURVE_IFMA_GE4_H

#include <stdint.h>

#include "curve/ge.h"
#include "field/ifma/fe4.h"

typedef struct ecopt_ge4_ext {
    ecopt_fe4 v; /* lanes X, Y, Z, T; carried */
} ecopt_ge4_ext;

typedef struct ecopt_ge4_cached {
    ecopt_fe4 v; /* lanes Y-X, Y+X, 2Z, 2dT; narrow */
} ecopt_ge4_cached;

#define ecopt_ge4_from_ext ECOPT_BE(ecopt_ge4_from_ext)
#define ecopt_ge4_to_ext ECOPT_BE(ecopt_ge4_to_ext)
#define ecopt_ge4_cached_from_ext ECOPT_BE(ecopt_ge4_cached_from_ext)
#define ecopt_ge4_cached_from_niels ECOPT_BE(ecopt_ge4_cached_from_niels)
#define ecopt_ge4_add ECOPT_BE(ecopt_ge4_add)
#define ecopt_ge4_sub ECOPT_BE(ecopt_ge4_sub)
#define ecopt_ge4_double ECOPT_BE(ecopt_ge4_double)
#define ecopt_ge4_scalarmult_base ECOPT_BE(ecopt_ge4_scalarmult_base)
#define ecopt_ge4_cofactored_eq_vartime ECOPT_BE(ecopt_ge4_cofactored_eq_vartime)

/* ecopt_ge4_from_ext, ecopt_ge4_to_ext — between the one-lane extended point (ge.h, u64 limbs, tight) and the
 * four-lane one. Bounds: from: in any u64 limbs, out carried; to: out tight. */
ECOPT_IFMA_TARGET void ecopt_ge4_from_ext(ecopt_ge4_ext *r, const ecopt_ge_ext *p);
ECOPT_IFMA_TARGET void ecopt_ge4_to_ext(ecopt_ge_ext *r, const ecopt_ge4_ext *p);

/* ecopt_ge4_cached_from_ext — r = the cached form of p: one lane-signed addition and one round, (Y-X, Y+X, Z, T)
 * x (1, 1, 2, 2d). */
ECOPT_IFMA_TARGET void ecopt_ge4_cached_from_ext(ecopt_ge4_cached *r, const ecopt_ge4_ext *p);

/* ecopt_ge4_cached_from_niels — r = the affine point q (ge.h's Niels form) as a cached point with Z = 1,
 * (y-x, y+x, 2, 2dxy). Bounds: in tight; out narrow. */
ECOPT_IFMA_TARGET void ecopt_ge4_cached_from_niels(ecopt_ge4_cached *r, const ecopt_ge_niels *q);

/* ecopt_ge4_add, ecopt_ge4_sub — r = p + q, r = p - q (two rounds each, above). */
ECOPT_IFMA_TARGET void ecopt_ge4_add(ecopt_ge4_ext *r, const ecopt_ge4_ext *p, const ecopt_ge4_cached *q);
ECOPT_IFMA_TARGET void ecopt_ge4_sub(ecopt_ge4_ext *r, const ecopt_ge4_ext *p, const ecopt_ge4_cached *q);

/* ecopt_ge4_double — r = 2p (two rounds, above; T always computed: it is a lane of the second round). */
ECOPT_IFMA_TARGET void ecopt_ge4_double(ecopt_ge4_ext *r, const ecopt_ge4_ext *p);

/* ecopt_ge4_scalarmult_base — r = [s]B, ecopt_ge_scalarmult_base's contract (ge.h): any s < 2^256, 32 bytes
 * little-endian, not reduced. The same signed radix-64 digits and table entries ([k 64^i] B, from
 * src/curve/generated/ge_base_table.h, put in four-lane Niels form at first use under pthread_once), each row read
 * whole with lane masks and the digit's sign applied by mask, then 43 additions (no doubling).
 * Time: constant in s. */
ECOPT_IFMA_TARGET void ecopt_ge4_scalarmult_base(ecopt_ge_ext *r, const uint8_t s[32]);

/* ecopt_ge4_cofactored_eq_vartime — ecopt_ge_cofactored_eq_vartime's contract and method (ge.h, ge.c: the equation
 * multiplied by a short c, four multiples of at most 127 bits, width-5 NAFs for A and R and width-7 NAFs for B and
 * [2^127] B) on the four-lane formulas; the tables of B are made at first use under pthread_once.
 * Time: vartime: for verification only, where A, R, k and s are public. Returns: 1 or 0. */
ECOPT_IFMA_TARGET int ecopt_ge4_cofactored_eq_vartime(const ecopt_ge_ext *A, const ecopt_ge_ext *R,
                                                      const uint8_t k[32], const uint8_t s[32]);

#endif /* ECOPT_CURVE_IFMA_GE4_H */
