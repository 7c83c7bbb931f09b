/* bench_s2n.c — the s2n-bignum rows of ecopt_bench: AWS's proved x86-64 routines (a peer, for measurement only),
 * assembled from ECOPT_S2N_BIGNUM_DIR into the benchmark binary when that folder exists (bench/CMakeLists.txt);
 * nothing of it is in the library. Without it, bench_s2n_stub.c answers "not built" and the rows say n/a.
 *
 * X25519 and X25519 base point are s2n-bignum's own functions (curve25519_x25519, curve25519_x25519base), with the
 * all-zero check of RFC 7748 section 6.1 added as AWS-LC adds it (the routines skip it). Ed25519 is composed from
 * its routines the way AWS-LC's curve25519_s2n_bignum_asm.c composes it (../shared/peers/s2n-bignum/README.md), with
 * SHA-512 from libcrypto, over the 64-byte private key (seed || A) libsodium also takes:
 *   key generation: h = SHA-512(seed), clamp h[0..31], A = encode(edwards25519_scalarmulbase(h[0..31]));
 *   sign: h as above, r = SHA-512(h[32..63] || M) mod l (bignum_mod_n25519), R = encode(scalarmulbase(r)),
 *         k = SHA-512(R || A || M) mod l, S = k * s + r mod l (bignum_madd_n25519);
 *   verify: S < l, A' = edwards25519_decode(A) (reject when not a point), k = SHA-512(R || A || M) mod l,
 *         -A' (bignum_neg_p25519 on x), R' = encode(edwards25519_scalarmuldouble(k, -A', S)), R' == R.
 * The cofactorless equation with no small-order or canonical-R checks: less than ecopt's strict policy does.
 *
 * The routines use MULX and ADX: bench_s2n_available() asks cpuid (leaf 7: BMI2, ADX). Their _alt versions (the
 * same contracts without MULX/ADX, s2n-bignum's README) make the "s2n-bignum alt" rows, composed the same way
 * (bench_s2n_alt_*; bignum_mod_n25519, neg_p25519 and encode have no _alt: they multiply nothing). */
#include <cpuid.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <string.h>

#include "bench_s2n.h"

/* ../shared/peers/s2n-bignum/include/s2n-bignum.h's prototypes of the routines assembled (bench/CMakeLists.txt);
 * declared here so that this file compiles against only the object files. */
extern void curve25519_x25519(uint64_t res[4], const uint64_t scalar[4], const uint64_t point[4]);
extern void curve25519_x25519base(uint64_t res[4], const uint64_t scalar[4]);
extern void edwards25519_scalarmulbase(uint64_t res[8], const uint64_t scalar[4]);
extern void edwards25519_scalarmuldouble(uint64_t res[8], const uint64_t scalar[4], const uint64_t point[8],
                                         const uint64_t bscalar[4]);
extern uint64_t edwards25519_decode(uint64_t z[8], const uint8_t c[32]);
extern void edwards25519_encode(uint8_t z[32], const uint64_t p[8]);
extern void bignum_mod_n25519(uint64_t z[4], uint64_t k, const uint64_t *x);
extern void bignum_madd_n25519(uint64_t z[4], const uint64_t x[4], const uint64_t y[4], const uint64_t c[4]);
extern void bignum_neg_p25519(uint64_t z[4], const uint64_t x[4]);
extern void curve25519_x25519_alt(uint64_t res[4], const uint64_t scalar[4], const uint64_t point[4]);
extern void curve25519_x25519base_alt(uint64_t res[4], const uint64_t scalar[4]);
extern void edwards25519_scalarmulbase_alt(uint64_t res[8], const uint64_t scalar[4]);
extern void edwards25519_scalarmuldouble_alt(uint64_t res[8], const uint64_t scalar[4], const uint64_t point[8],
                                             const uint64_t bscalar[4]);
extern uint64_t edwards25519_decode_alt(uint64_t z[8], const uint8_t c[32]);
extern void bignum_madd_n25519_alt(uint64_t z[4], const uint64_t x[4], const uint64_t y[4], const uint64_t c[4]);

/* the routines one set of rows uses: MULX/ADX (BASE) or _alt (ALT) */
typedef struct {
    void (*x25519)(uint64_t res[4], const uint64_t scalar[4], const uint64_t point[4]);
    void (*x25519base)(uint64_t res[4], const uint64_t scalar[4]);
    void (*scalarmulbase)(uint64_t res[8], const uint64_t scalar[4]);
    void (*scalarmuldouble)(uint64_t res[8], const uint64_t scalar[4], const uint64_t point[8],
                            const uint64_t bscalar[4]);
    uint64_t (*decode)(uint64_t z[8], const uint8_t c[32]);
    void (*madd_n25519)(uint64_t z[4], const uint64_t x[4], const uint64_t y[4], const uint64_t c[4]);
} s2n_set;
static const s2n_set BASE = {curve25519_x25519, curve25519_x25519base, edwards25519_scalarmulbase,
                             edwards25519_scalarmuldouble, edwards25519_decode, bignum_madd_n25519};
static const s2n_set ALT = {curve25519_x25519_alt, curve25519_x25519base_alt, edwards25519_scalarmulbase_alt,
                            edwards25519_scalarmuldouble_alt, edwards25519_decode_alt, bignum_madd_n25519_alt};

const char *bench_s2n_what(void) {
    return "s2n-bignum: X25519 and base point its own functions (+ the RFC 7748 zero check); Ed25519 composed as "
           "AWS-LC does (scalarmulbase, scalarmuldouble, decode, encode, mod/madd n25519; SHA-512 from libcrypto)";
}

int bench_s2n_available(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 8 & 1) && (b >> 19 & 1); /* BMI2 (MULX), ADX */
}

int bench_s2n_alt_available(void) {
    return 1; /* baseline x86-64 */
}

static int x25519_with(const s2n_set *z, uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
    uint64_t r[4], s[4], p[4];
    memcpy(s, scalar, 32);
    memcpy(p, u, 32);
    z->x25519(r, s, p);
    memcpy(out, r, 32);
    static const uint8_t zero[32];
    return CRYPTO_memcmp(out, zero, 32) != 0 ? 0 : -1;
}

static void x25519_base_with(const s2n_set *z, uint8_t out[32], const uint8_t scalar[32]) {
    uint64_t r[4], s[4];
    memcpy(s, scalar, 32);
    z->x25519base(r, s);
    memcpy(out, r, 32);
}

/* h = SHA-512(seed), clamped (RFC 8032 section 5.1.5) */
static void expand_seed(uint8_t h[64], const uint8_t seed[32]) {
    SHA512(seed, 32, h);
    h[0] &= 248;
    h[31] &= 127;
    h[31] |= 64;
}

static void keypair_with(const s2n_set *z, uint8_t pub[32], const uint8_t seed[32]) {
    uint8_t h[64];
    uint64_t s[4], pt[8];
    expand_seed(h, seed);
    memcpy(s, h, 32);
    z->scalarmulbase(pt, s);
    edwards25519_encode(pub, pt);
}

/* out = SHA-512(a || b || m), the parts copied into one buffer (mlen <= BENCH_S2N_MSG_MAX) */
static void sha512_3(uint8_t out[64], const uint8_t a[32], const uint8_t *b, const uint8_t *m, size_t mlen) {
    uint8_t buf[64 + BENCH_S2N_MSG_MAX];
    size_t n = 0;
    memcpy(buf, a, 32), n += 32;
    if (b) memcpy(buf + n, b, 32), n += 32;
    memcpy(buf + n, m, mlen), n += mlen;
    SHA512(buf, n, out);
}

static int sign_with(const s2n_set *zs, uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t sk[64]) {
    if (mlen > BENCH_S2N_MSG_MAX) return -1;
    uint8_t h[64], dig[64];
    uint64_t s[4], r[8], k[8], pt[8], z[4];
    expand_seed(h, sk);
    memcpy(s, h, 32);
    sha512_3(dig, h + 32, NULL, m, mlen);
    memcpy(r, dig, 64);
    bignum_mod_n25519(r, 8, r);
    zs->scalarmulbase(pt, r);
    edwards25519_encode(sig, pt);
    sha512_3(dig, sig, sk + 32, m, mlen);
    memcpy(k, dig, 64);
    bignum_mod_n25519(k, 8, k);
    zs->madd_n25519(z, k, s, r);
    memcpy(sig + 32, z, 32);
    return 0;
}

static int verify_with(const s2n_set *z, const uint8_t sig[64], const uint8_t *m, size_t mlen,
                       const uint8_t pub[32]) {
    if (mlen > BENCH_S2N_MSG_MAX) return -1;
    /* S < l = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 section 5.1.7), little-endian bytes */
    static const uint8_t l[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                  0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0,
                                  0, 0, 0, 0, 0, 0, 0, 0, 0x10};
    int below = 0;
    for (int i = 31; i >= 0; i--)
        if (sig[32 + i] != l[i]) {
            below = sig[32 + i] < l[i];
            break;
        }
    if (!below) return -1;
    uint64_t a[8], k[8], S[4], pt[8];
    uint8_t dig[64], rc[32];
    if (z->decode(a, pub) != 0) return -1;
    sha512_3(dig, sig, pub, m, mlen);
    memcpy(k, dig, 64);
    bignum_mod_n25519(k, 8, k);
    bignum_neg_p25519(a, a);
    memcpy(S, sig + 32, 32);
    z->scalarmuldouble(pt, k, a, S);
    edwards25519_encode(rc, pt);
    return CRYPTO_memcmp(rc, sig, 32) == 0 ? 0 : -1;
}

int bench_s2n_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
    return x25519_with(&BASE, out, scalar, u);
}
void bench_s2n_x25519_base(uint8_t out[32], const uint8_t scalar[32]) {
    x25519_base_with(&BASE, out, scalar);
}
void bench_s2n_ed25519_keypair(uint8_t pub[32], const uint8_t seed[32]) {
    keypair_with(&BASE, pub, seed);
}
int bench_s2n_ed25519_sign(uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t sk[64]) {
    return sign_with(&BASE, sig, m, mlen, sk);
}
int bench_s2n_ed25519_verify(const uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t pub[32]) {
    return verify_with(&BASE, sig, m, mlen, pub);
}
int bench_s2n_alt_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
    return x25519_with(&ALT, out, scalar, u);
}
void bench_s2n_alt_x25519_base(uint8_t out[32], const uint8_t scalar[32]) {
    x25519_base_with(&ALT, out, scalar);
}
void bench_s2n_alt_ed25519_keypair(uint8_t pub[32], const uint8_t seed[32]) {
    keypair_with(&ALT, pub, seed);
}
int bench_s2n_alt_ed25519_sign(uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t sk[64]) {
    return sign_with(&ALT, sig, m, mlen, sk);
}
int bench_s2n_alt_ed25519_verify(const uint8_t sig[64], const uint8_t *m, size_t mlen, const uint8_t pub[32]) {
    return verify_with(&ALT, sig, m, mlen, pub);
}
