/* fused_adx.h — the adx backend's whole formulas: the X25519 ladder step and the edwards25519 point operations,
 * each one straight-line x86-64 function that `ecopt opt` made from one IR program and `ecopt check` proved
 * (src/field/generated/ecopt_*_fused_adx.S; the programs are src/curve/formulas/<name>_adx.ir: the 4 x 64 field
 * operations composed with `call`). Private to src/curve, the tests and the benchmarks.
 *
 * Shapes:  fiat's convention: every output array, then every input array, each 4 limbs of 64 bits, least
 *          significant first (fe_adx.h's layout: pass ecopt_fe.v).
 * Bounds:  in: every limb in [0, 2^64) (every 256-bit value: fe_adx.h's tight and loose, so whatever an
 *          ecopt_fe of this backend holds), the ladder's swap[0] 0 or 1; out: every limb in [0, 2^64).
 * Alias:   each output may equal the input of the same coordinate (x2_out = x2, ..., X3 = X1, ...), so mont.c
 *          updates the ladder state in place and ge.c's r may be p; no other overlap.
 * Time:    constant in every input, swap included (cmov; checker rules branch and data-address).
 * ABI:     System V AMD64; arguments beyond the sixth on the stack.
 * Returns: nothing; the outputs are congruent mod p to the formulas' values, not reduced below p.
 * Source:  the `ecopt opt` command in each .S header; formulas: RFC 7748 section 5 in the order of
 *          ecopt_mont_ladderstep_c, and Hisil, Wong, Carter, Dawson, "Twisted Edwards curves revisited"
 *          (ASIACRYPT 2008): add-2008-hwcd-3, madd-2008-hwcd-3, dbl-2008-hwcd (a = -1) in the order of add_or_sub,
 *          madd_c and double_c (src/curve/ge_formulas.h, as this backend compiles them: the same limbs).
 * Use:     mont.c and ge.c call them in the adx backend (the _x64 ones below in the x64 backend) when built with
 *          ECOPT_ADX_FUSED (CMake option, default ON). */
#ifndef ECOPT_CURVE_FUSED_ADX_H
#define ECOPT_CURVE_FUSED_ADX_H

#include <stdint.h>

/* One X25519 ladder step with its conditional swap: (x2 : z2), (x3 : z3) exchanged when swap[0] = 1, then
 * (x2, z2) = 2 (x2 : z2), (x3, z3) = the differential sum with difference x1, a24 = 121665: the same outputs as
 * RFC 7748's two cswaps and the step. src/curve/formulas/ladderstep_adx.ir. */
void ecopt_mont_ladderstep_fused_adx(uint64_t x2_out[4], uint64_t z2_out[4], uint64_t x3_out[4], uint64_t z3_out[4],
                                      const uint64_t x1[4], const uint64_t x2[4], const uint64_t z2[4],
                                      const uint64_t x3[4], const uint64_t z3[4], const uint64_t swap[1]);

/* (X3:Y3:Z3:T3) = (X1:Y1:Z1:T1) + (y2+x2, y2-x2, 2d x2 y2): ecopt_ge_madd. ge_madd_adx.ir. */
void ecopt_ge_madd_fused_adx(uint64_t X3[4], uint64_t Y3[4], uint64_t Z3[4], uint64_t T3[4], const uint64_t X1[4],
                              const uint64_t Y1[4], const uint64_t Z1[4], const uint64_t T1[4],
                              const uint64_t YpX2[4], const uint64_t YmX2[4], const uint64_t XY2d2[4]);

/* (X3:Y3:Z3:T3) = (X1:Y1:Z1:T1) + (Y2+X2, Y2-X2, 2 Z2, 2d T2): ecopt_ge_add (and ecopt_ge_sub with the cached
 * point negated). ge_add_adx.ir. */
void ecopt_ge_add_fused_adx(uint64_t X3[4], uint64_t Y3[4], uint64_t Z3[4], uint64_t T3[4], const uint64_t X1[4],
                             const uint64_t Y1[4], const uint64_t Z1[4], const uint64_t T1[4],
                             const uint64_t YpX2[4], const uint64_t YmX2[4], const uint64_t Z22[4],
                             const uint64_t T2d2[4]);

/* (X3:Y3:Z3:T3) = 2 (X1:Y1:Z1) (T1 is not needed): ecopt_ge_double with T. T3 may not overlap any input.
 * ge_double_adx.ir. */
void ecopt_ge_double_fused_adx(uint64_t X3[4], uint64_t Y3[4], uint64_t Z3[4], uint64_t T3[4], const uint64_t X1[4],
                                const uint64_t Y1[4], const uint64_t Z1[4]);

/* (X3:Y3:Z3) = 2 (X1:Y1:Z1), no T: ecopt_ge_double without T. ge_double_xyz_adx.ir. */
void ecopt_ge_double_xyz_fused_adx(uint64_t X3[4], uint64_t Y3[4], uint64_t Z3[4], const uint64_t X1[4],
                                    const uint64_t Y1[4], const uint64_t Z1[4]);

/* The x64 backend's five: the same programs, contracts and shapes, searched with `ecopt opt --target x86-64`
 * (no BMI2/ADX instruction; src/field/generated/ecopt_*_fused_x64.S). */
void ecopt_mont_ladderstep_fused_x64(uint64_t x2_out[4], uint64_t z2_out[4], uint64_t x3_out[4], uint64_t z3_out[4],
                                      const uint64_t x1[4], const uint64_t x2[4], const uint64_t z2[4],
                                      const uint64_t x3[4], const uint64_t z3[4], const uint64_t swap[1]);
void ecopt_ge_madd_fused_x64(uint64_t X3[4], uint64_t Y3[4], uint64_t Z3[4], uint64_t T3[4], const uint64_t X1[4],
                              const uint64_t Y1[4], const uint64_t Z1[4], const uint64_t T1[4],
                              const uint64_t YpX2[4], const uint64_t YmX2[4], const uint64_t XY2d2[4]);
void ecopt_ge_add_fused_x64(uint64_t X3[4], uint64_t Y3[4], uint64_t Z3[4], uint64_t T3[4], const uint64_t X1[4],
                             const uint64_t Y1[4], const uint64_t Z1[4], const uint64_t T1[4],
                             const uint64_t YpX2[4], const uint64_t YmX2[4], const uint64_t Z22[4],
                             const uint64_t T2d2[4]);
void ecopt_ge_double_fused_x64(uint64_t X3[4], uint64_t Y3[4], uint64_t Z3[4], uint64_t T3[4], const uint64_t X1[4],
                                const uint64_t Y1[4], const uint64_t Z1[4]);
void ecopt_ge_double_xyz_fused_x64(uint64_t X3[4], uint64_t Y3[4], uint64_t Z3[4], const uint64_t X1[4],
                                    const uint64_t Y1[4], const uint64_t Z1[4]);

#endif /* ECOPT_CURVE_FUSED_ADX_H */
