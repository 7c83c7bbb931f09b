/* bench_invert.h — per-backend entries of bench_invert (bench_invert_be.c, compiled once per backend). */
#ifndef ECOPT_BENCH_INVERT_H
#define ECOPT_BENCH_INVERT_H

#include <stdint.h>

#define BENCH_INV_DECL(be)                                                                                          \
    int bench_inv_available_##be(void);                                                                             \
    void bench_inv_setup_##be(const uint8_t a[32]);                                                                 \
    void bench_inv_fermat_##be(int n);                                                                              \
    void bench_inv_divsteps_##be(int n);                                                                            \
    void bench_inv_sqrt_##be(int n);                                                                                \
    uint8_t bench_inv_result_##be(void);

BENCH_INV_DECL(u64)
BENCH_INV_DECL(u32)
BENCH_INV_DECL(adx51)
BENCH_INV_DECL(adx)
BENCH_INV_DECL(x64)

#endif
