/* fused_adx51.h — whole curve formulas of the adx51 backend, each one straight-line x86-64 function that `ecopt opt`
 * made from one IR program and `ecopt check` proved (src/field/generated/ecopt_*_fused_adx51.S; the programs are
 * src/curve/formulas/<name>.ir: the field operations composed with `call`). Private to src/curve and the tests.
 *
 * Shapes:  fiat's convention: every output array, then every input array, each a pointer to 5 limbs (radix 2^51,
 *          fe_u64.h's layout: pass ecopt_fe.v).
 * Bounds:  in: the programs' (checked by the proof for every input within them): ecopt_ge_* coordinates tight
 *          (every limb < 2^51 + 2^15, fe_u64.h), cached YpX, YmX, Z2, T2d loose (< 2^52 + 2^16); the ladder's five
 *          inputs within the multiply's output bounds (limb 1 <= 2^51 + 2^10, the others < 2^51), which every
 *          ladder value in mont.c meets (products, frombytes, 0, 1, and cswaps of them); the ladder's swap bit 0
 *          or 1.
 *          out: the multiply's output bounds (within tight).
 * Alias:   each output may equal the input of the same coordinate (X3 = X1, ..., x2_out = x2, ...), so r = p and
 *          the ladder state update in place; no other overlap.
 * Time:    constant (checker rules branch and data-address).
 * ABI:     System V AMD64; arguments beyond the sixth on the stack.
 * Source:  the `ecopt opt` command in each .S header; formulas: RFC 7748 section 5 (ladder step), Hisil, Wong,
 *          Carter, Dawson, "Twisted Edwards curves revisited" (ASIACRYPT 2008): add-2008-hwcd-3,
 *          madd-2008-hwcd-3, dbl-2008-hwcd (a = -1), as src/curve/ge.c writes them.
 * Use:     mont.c and ge.c call them in the adx51 backend when built with ECOPT_ADX_FUSED (CMake option, default ON);
 *          otherwise the C formulas over the adx51 field operations run. */
#ifndef ECOPT_CURVE_FUSED_ADX51_H
#define ECOPT_CURVE_FUSED_ADX51_H

#include <stdint.h>

/* One X25519 ladder step with its conditional swap (swap[0] in {0, 1}, a secret: selected by cmov, no branch):
 * (x2 : z2), (x3 : z3) exchanged when swap[0] = 1, then (x2, z2) = 2 (x2 : z2), (x3, z3) = the differential sum
 * with difference x1: the same outputs as RFC 7748's two cswaps and the step. tests/ir/ladderstep.ir with the
 * swap, src/curve/formulas/ladderstep_adx51.ir. */
void ecopt_mont_ladderstep_fused_adx51(uint64_t x2_out[5], uint64_t z2_out[5], uint64_t x3_out[5], uint64_t z3_out[5],
                                     const uint64_t x1[5], const uint64_t x2[5], const uint64_t z2[5],
                                     const uint64_t x3[5], const uint64_t z3[5], const uint64_t swap[1]);

/* (X3:Y3:Z3:T3) = (X1:Y1:Z1:T1) + (y2+x2, y2-x2, 2d x2 y2): ecopt_ge_madd. */
void ecopt_ge_madd_fused_adx51(uint64_t X3[5], uint64_t Y3[5], uint64_t Z3[5], uint64_t T3[5], const uint64_t X1[5],
                             const uint64_t Y1[5], const uint64_t Z1[5], const uint64_t T1[5],
                             const uint64_t YpX2[5], const uint64_t YmX2[5], const uint64_t XY2d2[5]);

/* (X3:Y3:Z3:T3) = (X1:Y1:Z1:T1) + (Y2+X2, Y2-X2, 2 Z2, 2d T2): ecopt_ge_add. */
void ecopt_ge_add_fused_adx51(uint64_t X3[5], uint64_t Y3[5], uint64_t Z3[5], uint64_t T3[5], const uint64_t X1[5],
                            const uint64_t Y1[5], const uint64_t Z1[5], const uint64_t T1[5],
                            const uint64_t YpX2[5], const uint64_t YmX2[5], const uint64_t Z22[5],
                            const uint64_t T2d2[5]);

/* (X3:Y3:Z3:T3) = 2 (X1:Y1:Z1) (T1 is not needed): ecopt_ge_double with T. */
void ecopt_ge_double_fused_adx51(uint64_t X3[5], uint64_t Y3[5], uint64_t Z3[5], uint64_t T3[5], const uint64_t X1[5],
                               const uint64_t Y1[5], const uint64_t Z1[5]);

/* (X3:Y3:Z3) = 2 (X1:Y1:Z1), no T: ecopt_ge_double without T. */
void ecopt_ge_double_xyz_fused_adx51(uint64_t X3[5], uint64_t Y3[5], uint64_t Z3[5], const uint64_t X1[5],
                                   const uint64_t Y1[5], const uint64_t Z1[5]);

#endif /* ECOPT_CURVE_FUSED_ADX51_H */
