/* bench_fused.h — per-backend entries of ecopt_bench_fused (bench_fused_be.c, compiled once for adx51 and once for
 * adx): each backend's whole-formula functions and its C formulas, each one call on a state of that backend. */
#ifndef ECOPT_BENCH_FUSED_H
#define ECOPT_BENCH_FUSED_H

#include <stdint.h>

/* The verification-shaped loop's digits: BENCH_FUSED_STEPS steps, a nonzero na[i] adds a cached point, a nonzero
 * nb[i] a Niels point (all the same point: only which steps add matters). */
#define BENCH_FUSED_STEPS 253

#define BENCH_FUSED_DECL(be)                                                                                        \
    void bench_fused_setup_##be(const int8_t na[BENCH_FUSED_STEPS], const int8_t nb[BENCH_FUSED_STEPS]);           \
    void bench_fused_c_ladder_##be(void);                                                                           \
    void bench_fused_f_ladder_##be(void);                                                                           \
    void bench_fused_c_madd_##be(void);                                                                             \
    void bench_fused_f_madd_##be(void);                                                                             \
    void bench_fused_c_add_##be(void);                                                                              \
    void bench_fused_f_add_##be(void);                                                                              \
    void bench_fused_c_dbl_##be(void);                                                                              \
    void bench_fused_f_dbl_##be(void);                                                                              \
    void bench_fused_c_dblx_##be(void);                                                                             \
    void bench_fused_f_dblx_##be(void);                                                                             \
    void bench_fused_loop_c_##be(void);                                                                             \
    void bench_fused_loop_fused_##be(void);                                                                         \
    void bench_fused_loop_fused_dbl_##be(void);

BENCH_FUSED_DECL(adx51)
BENCH_FUSED_DECL(adx)

#endif
