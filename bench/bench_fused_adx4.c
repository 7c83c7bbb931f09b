/* bench_fused_adx4.c — the adx4 backend's ladder step for bench_fused.c: the whole-formula function
 * (src/curve/fused_adx4.h) and the C formulas of src/curve/ge_formulas.h over the adx4 field operations after the
 * two cswaps (which the whole formula does by cmov), each one call on a state of its own, the swap bit
 * alternating. Compiled with ECOPT_FE_BACKEND_adx4 (the field type is adx4's here). */
#include "curve/fused_adx4.h"
#include "curve/ge_formulas.h"
#include "field/fe.h"

void bench_fused_adx4_setup(void);
void bench_fused_adx4_c_ladder(void);
void bench_fused_adx4_f_ladder(void);

static ecopt_fe x1, x2, z2, x3, z3;
static uint64_t swap_bit[1];

/* A state of field elements that are not small: x1 the base point's x, x2 its y, x3 its t (ecopt_fe_base_*). */
void bench_fused_adx4_setup(void) {
    ecopt_fe_copy(&x1, &ecopt_fe_base_x);
    ecopt_fe_1(&x2);
    ecopt_fe_copy(&z2, &ecopt_fe_base_y);
    ecopt_fe_copy(&x3, &ecopt_fe_base_t);
    ecopt_fe_1(&z3);
}

__attribute__((noinline)) void bench_fused_adx4_c_ladder(void) {
    swap_bit[0] ^= 1;
    ecopt_fe_cswap(&x2, &x3, swap_bit[0]);
    ecopt_fe_cswap(&z2, &z3, swap_bit[0]);
    ecopt_mont_ladderstep_c(&x2, &z2, &x3, &z3, &x1);
}

void bench_fused_adx4_f_ladder(void) {
    swap_bit[0] ^= 1;
    ecopt_mont_ladderstep_fused_adx4(x2.v, z2.v, x3.v, z3.v, x1.v, x2.v, z2.v, x3.v, z3.v, swap_bit);
}
