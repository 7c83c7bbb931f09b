/* scalar.h — scalars mod l = 2^252 + 27742317777372353535851937790883648493, the order of the edwards25519 base
 * point (RFC 8032 section 5.1). Backend-independent: compiled once.
 *
 * Shapes: every scalar is 32 bytes little-endian; reduced means the value is in [0, l).
 * Alias:  outputs may equal inputs.
 * Time:   constant in every argument unless a function says vartime. */
#ifndef ECOPT_CURVE_SCALAR_H
#define ECOPT_CURVE_SCALAR_H

#include <stdint.h>

/* ecopt_scalar_reduce64 — r = x mod l, x 64 bytes little-endian (a SHA-512 output).
 * Shapes: r 32 bytes out, reduced; x 64 bytes. Source: Barrett reduction, HAC algorithm 14.42, base 2^64, k = 4. */
void ecopt_scalar_reduce64(uint8_t r[32], const uint8_t x[64]);

/* ecopt_scalar_muladd — r = (a * b + c) mod l.
 * Shapes: r 32 bytes out, reduced; a, b, c 32 bytes each, any value below 2^256. */
void ecopt_scalar_muladd(uint8_t r[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32]);

/* ecopt_scalar_is_canonical — 1 when s < l, else 0 (RFC 8032 section 5.1.7 step 1 for S). */
uint64_t ecopt_scalar_is_canonical(const uint8_t s[32]);

/* ecopt_scalar_clamp — the Ed25519/X25519 clamp: clear bits 0, 1, 2 and 255, set bit 254 (RFC 8032 section 5.1.5,
 * RFC 7748 section 5). out may equal in. */
void ecopt_scalar_clamp(uint8_t out[32], const uint8_t in[32]);

/* ecopt_scalar_ratio_vartime — a short fraction equal to k mod l: k1 and c with c k = sign k1 (mod l), where
 * k1 < 2^126, 0 < c < 2^127 (so c is invertible mod l) and sign = +1 or -1 (the return value).
 * Shapes:  k 32 bytes, reduced (k < l); k1, c 16 bytes out, little-endian.
 * Time:    vartime: for verification only, where k (the challenge hash) is public.
 * Returns: +1 when c k = k1 (mod l), -1 when c k = -k1 (mod l).
 * Source:  the half-extended Euclidean algorithm on (l, k), stopped halfway (Antipa, Brown, Gallant, Lambert,
 *          Struik, Vanstone, "Accelerated verification of ECDSA signatures", SAC 2005, section 3; Pornin, "Optimized
 *          lattice basis reduction in dimension 2, and fast Schnorr and EdDSA signature verification", IACR ePrint
 *          2020/454), with binary steps r_a -= 2^s r_b in place of whole quotients; scalar.c has the bounds. */
int ecopt_scalar_ratio_vartime(uint8_t k1[16], uint8_t c[16], const uint8_t k[32]);

#endif /* ECOPT_CURVE_SCALAR_H */
