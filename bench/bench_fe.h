/* bench_fe.h — field-level benchmark entries (bench_fe_u64.c), for bench.c. */
#ifndef ECOPT_BENCH_FE_H
#define ECOPT_BENCH_FE_H

#include <stdint.h>

#define BENCH_FE_CHAIN 100 /* dependent field operations per call */

void bench_fe_u64_setup(const uint8_t a[32], const uint8_t b[32]);
void bench_fe_u64_mul_handwritten(int i);
void bench_fe_u64_mul_generated(int i);
void bench_fe_u64_sq_handwritten(int i);
void bench_fe_u64_sq_generated(int i);

/* bench_fe_adx51.c, built when the adx51 backend is (BENCH_HAVE_ADX51). */
int bench_fe_adx51_available(void);
void bench_fe_adx51_setup(const uint8_t a[32], const uint8_t b[32]);
void bench_fe_adx51_mul(int i);
void bench_fe_adx51_sq(int i);

/* bench_fe_adx.c, built when the adx backend is (BENCH_HAVE_ADX): 4 x 64 limbs. */
int bench_fe_adx_available(void);
void bench_fe_adx_setup(const uint8_t a[32], const uint8_t b[32]);
void bench_fe_adx_mul(int i);
void bench_fe_adx_sq(int i);

#endif
