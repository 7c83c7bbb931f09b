/* bench_invert_be.c — one backend's Fermat and divsteps inversions (and pow22523, the square-root chain) as chains
 * of n dependent calls, for bench_invert.c. Compiled once per backend with ECOPT_FE_BACKEND_<name>. */
#include "bench_invert.h"

#include "field/fe.h"

#define BENCH_INV_CAT2(a, b) a##_##b
#define BENCH_INV_CAT(a, b) BENCH_INV_CAT2(a, b)
#define BE(sym) BENCH_INV_CAT(sym, ECOPT_BE_SUFFIX)

static ecopt_fe acc;

int BE(bench_inv_available)(void) { return ecopt_fe_backend_available(); }

void BE(bench_inv_setup)(const uint8_t a[32]) { ecopt_fe_frombytes(&acc, a); }

void BE(bench_inv_fermat)(int n) {
    for (int k = 0; k < n; k++) ecopt_fe_invert_fermat(&acc, &acc);
}

void BE(bench_inv_divsteps)(int n) {
    for (int k = 0; k < n; k++) ecopt_fe_invert_divsteps(&acc, &acc);
}

void BE(bench_inv_sqrt)(int n) {
    for (int k = 0; k < n; k++) ecopt_fe_pow22523(&acc, &acc);
}

uint8_t BE(bench_inv_result)(void) {
    uint8_t s[32];
    ecopt_fe_tobytes(s, &acc);
    return s[0];
}
