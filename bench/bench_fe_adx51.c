/* bench_fe_adx51.c — the adx51 backend's multiply and square (src/field/generated/ecopt_fe_{mul,sq}_adx51.S, from
 * `ecopt opt`) as chains of dependent operations, for bench.c's field section. Compiled with ECOPT_FE_BACKEND_adx51
 * so that the backend's field interface is visible; bench.c calls these only when bench_fe_adx51_available(). */
#include "bench_fe.h"

#include "field/fe.h"

static ecopt_fe acc, other;

int bench_fe_adx51_available(void)
{
    return ecopt_fe_backend_available();
}

void bench_fe_adx51_setup(const uint8_t a[32], const uint8_t b[32])
{
    ecopt_fe_frombytes(&acc, a);
    ecopt_fe_frombytes(&other, b);
}

void bench_fe_adx51_mul(int i)
{
    (void)i;
    for (int k = 0; k < BENCH_FE_CHAIN; k++) ecopt_fe_mul(&acc, &acc, &other);
}

void bench_fe_adx51_sq(int i)
{
    (void)i;
    for (int k = 0; k < BENCH_FE_CHAIN; k++) ecopt_fe_sq(&acc, &acc);
}
