/* fused_adx4.h — the adx4 backend's whole-formula X25519 ladder step: one straight-line x86-64 function that
 * `ecopt opt` made from one IR program and `ecopt check` proved
 * (src/field/generated/ecopt_mont_ladderstep_fused_adx4.S; the program is src/curve/formulas/ladderstep_adx4.ir:
 * the 4 x 64 field operations composed with `call`). Private to src/curve, the tests and the benchmarks.
 *
 * ecopt_mont_ladderstep_fused_adx4 — one X25519 ladder step with its conditional swap: (x2 : z2), (x3 : z3)
 *          exchanged when swap[0] = 1, then (x2, z2) = 2 (x2 : z2), (x3, z3) = the differential sum with
 *          difference x1, a24 = 121665: the same outputs as RFC 7748's two cswaps and the step.
 * Shapes:  fiat's convention: the four output arrays, then the five input arrays, each 4 limbs of 64 bits, least
 *          significant first (fe_adx4.h's layout: pass ecopt_fe.v).
 * Bounds:  in: every limb in [0, 2^64) (every 256-bit value, fe_adx4.h's tight and loose), swap[0] 0 or 1;
 *          out: every limb in [0, 2^64).
 * Alias:   each output may equal the input of the same coordinate (x2_out = x2, z2_out = z2, x3_out = x3,
 *          z3_out = z3), so mont.c updates the ladder state in place; no other overlap.
 * Time:    constant in every input, swap included (cmov; checker rules branch and data-address).
 * ABI:     System V AMD64; arguments beyond the sixth on the stack.
 * Returns: nothing; the outputs are congruent mod p to the formulas' values, not reduced below p.
 * Source:  the `ecopt opt` command in the .S header; formulas: RFC 7748 section 5, in the order of
 *          ecopt_mont_ladderstep_c (src/curve/ge_formulas.h).
 * Use:     mont.c calls it in the adx4 backend when built with ECOPT_ADX_FUSED (CMake option, default ON). */
#ifndef ECOPT_CURVE_FUSED_ADX4_H
#define ECOPT_CURVE_FUSED_ADX4_H

#include <stdint.h>

void ecopt_mont_ladderstep_fused_adx4(uint64_t x2_out[4], uint64_t z2_out[4], uint64_t x3_out[4], uint64_t z3_out[4],
                                      const uint64_t x1[4], const uint64_t x2[4], const uint64_t z2[4],
                                      const uint64_t x3[4], const uint64_t z3[4], const uint64_t swap[1]);

#endif /* ECOPT_CURVE_FUSED_ADX4_H */
