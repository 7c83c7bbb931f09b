/* bench_s2n.h — s2n-bignum's X25519 and Ed25519 for ecopt_bench (bench_s2n.c, built with the peer's routines when
 * ECOPT_S2N_BIGNUM_DIR holds them; bench_s2n_stub.c otherwise). Same contracts as libsodium's calls of the same
 * names; 0 ok, -1 rejected (X25519: an all-zero output; verify: an invalid signature). */
#ifndef ECOPT_BENCH_S2N_H
#define ECOPT_BENCH_S2N_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_S2N_MSG_MAX 256 /* the longest message the Ed25519 rows take (the bench signs 64 bytes) */

/* 1 when the routines are built in and this CPU runs them (BMI2 and ADX); 0: the rows are n/a */
int bench_s2n_available(void);
/* what the rows are: one line for the report ("not built ..." in the stub) */
const char *bench_s2n_what(void);
int bench_s2n_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
void bench_s2n_x25519_base(uint8_t out[32], const uint8_t scalar[32]);
void bench_s2n_ed25519_keypair(uint8_t pub[32], const uint8_t seed[32]);
/* sk: seed || A, 64 bytes (libsodium's layout) */
int bench_s2n_ed25519_sign(uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t sk[64]);
int bench_s2n_ed25519_verify(const uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t pub[32]);

/* The same five over the routines' _alt versions (no MULX/ADX: any x86-64 CPU). 1 when built in. */
int bench_s2n_alt_available(void);
int bench_s2n_alt_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
void bench_s2n_alt_x25519_base(uint8_t out[32], const uint8_t scalar[32]);
void bench_s2n_alt_ed25519_keypair(uint8_t pub[32], const uint8_t seed[32]);
int bench_s2n_alt_ed25519_sign(uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t sk[64]);
int bench_s2n_alt_ed25519_verify(const uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t pub[32]);

#endif
