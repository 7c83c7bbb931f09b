/* bench_s2n_stub.c — ecopt_bench without s2n-bignum (ECOPT_S2N_BIGNUM_DIR not there, or not x86-64): the rows say
 * n/a. The operations are never called when bench_s2n_available() is 0. */
#include <stdlib.h>

#include "bench_s2n.h"

int bench_s2n_available(void) { return 0; }
const char *bench_s2n_what(void) {
    return "s2n-bignum: not built (no peers/s2n-bignum at ECOPT_S2N_BIGNUM_DIR when configured): rows n/a";
}
int bench_s2n_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
    (void)out, (void)scalar, (void)u;
    abort();
}
void bench_s2n_x25519_base(uint8_t out[32], const uint8_t scalar[32]) {
    (void)out, (void)scalar;
    abort();
}
void bench_s2n_ed25519_keypair(uint8_t pub[32], const uint8_t seed[32]) {
    (void)pub, (void)seed;
    abort();
}
int bench_s2n_ed25519_sign(uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t sk[64]) {
    (void)sig, (void)m, (void)mlen, (void)sk;
    abort();
}
int bench_s2n_ed25519_verify(const uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t pub[32]) {
    (void)sig, (void)m, (void)mlen, (void)pub;
    abort();
}
int bench_s2n_alt_available(void) { return 0; }
int bench_s2n_alt_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
    (void)out, (void)scalar, (void)u;
    abort();
}
void bench_s2n_alt_x25519_base(uint8_t out[32], const uint8_t scalar[32]) {
    (void)out, (void)scalar;
    abort();
}
void bench_s2n_alt_ed25519_keypair(uint8_t pub[32], const uint8_t seed[32]) {
    (void)pub, (void)seed;
    abort();
}
int bench_s2n_alt_ed25519_sign(uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t sk[64]) {
    (void)sig, (void)m, (void)mlen, (void)sk;
    abort();
}
int bench_s2n_alt_ed25519_verify(const uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t pub[32]) {
    (void)sig, (void)m, (void)mlen, (void)pub;
    abort();
}
