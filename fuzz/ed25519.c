/* ed25519.c — libFuzzer harness: Ed25519 differential between ecopt (every backend this CPU runs), OpenSSL's
 * libcrypto and libsodium, signing and verifying.
 *
 * Input: a control byte c, then
 *   c even ("raw"):    pk (32) | sig (64) | msg (the rest), zero-padded: fuzzed (pk, msg, sig) as they come;
 *   c odd ("signed"):  seed (32) | t (1) | pos (2) | x (1) | msg (the rest), zero-padded. The harness signs msg
 *                      from seed, then adds the small-order point T[t & 7] to R and T[(t >> 3) & 7] to A and signs
 *                      again over the changed R and A (S = r + k s with k = H(R' || A' || M)): a signature that the
 *                      cofactored equation accepts and the cofactorless one accepts only when
 *                      T_R + [k mod 8] T_A is the identity. Then, when x != 0, the byte at pos of pk || sig || msg
 *                      is xored with x.
 *
 * Asserts (abort on failure):
 *   signing (c odd): ecopt's public key and signature from the seed, on every backend, equal libsodium's
 *     (crypto_sign_seed_keypair, crypto_sign_detached) and OpenSSL's (EVP_DigestSign); the harness's own
 *     construction with no small-order point added gives the same signature.
 *   verifying, on every (pk, msg, sig): every backend returns the same code for ecopt_ed25519_verify (STRICT) and
 *     ecopt_ed25519_verify_zip215. With e = ecopt STRICT, z = ecopt ZIP-215, s = libsodium, o = OpenSSL, and, read
 *     with libsodium: pA / pR = the point is canonical, decodes (crypto_core_ed25519_add) and is not of small order
 *     ([8]P is not the identity): STRICT's rules 1-2, resp. 3-4; tA / tR = the same and torsion-free
 *     (crypto_core_ed25519_is_valid_point), sl = S < l:
 *     1. ecopt_ed25519_publickey_check(pk) succeeds exactly when pA;
 *     2. e implies pA, pR and sl (STRICT rules 1-5);
 *     3. e implies z (include/ecopt/ecopt.h: every signature STRICT accepts, ZIP-215 accepts);
 *     4. s implies e. libsodium refuses small-order and non-canonical A and R and S >= l, and its cofactorless
 *        equation implies the cofactored one;
 *     5. o, pA, pR and sl imply e. OpenSSL accepts small-order and non-canonical A, which STRICT refuses: those
 *        are excluded by pA and pR; S >= l is excluded by sl whatever OpenSSL does with it;
 *     6. o and sl imply z: ZIP-215 takes what OpenSSL takes (non-canonical A reduced, small order allowed, the
 *        hash over the received bytes) with the cofactored equation, which the cofactorless one implies;
 *     7. tA, tR and sl imply e == z == s == o: for torsion-free points the two equations are one;
 *     8. a "signed" input left unmutated: e and z accept, and s and o accept exactly when
 *        T_R + [k mod 8] T_A is the identity (the policies differ there, by design: STRICT is cofactored).
 *   Not asserted, by policy: e against s or o when A or R has a small-order component (mixed order): STRICT's
 *   cofactored equation accepts signatures that the cofactorless ones of libsodium and OpenSSL refuse; nor z
 *   against s or o beyond 6, since ZIP-215 accepts small-order and non-canonical points that libsodium refuses. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ecopt/ecopt.h>
#include <openssl/evp.h>
#include <sodium.h>

#define FUZZ_NAME "ed25519"
#define FUZZ_BACKENDS
#include "fuzz.h"



#define MAXMSG 256


/* The eight points of small order, canonical encodings: the identity, the point of order 2, the two of order 4 and
 * the four of order 8. LLVMFuzzerInitialize checks each ([8]T = identity, distinct, on the curve). */
static uint8_t torsion[8][32];
static const char *const torsion_hex[8] = {
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
};
/* l = 2^252 + 27742317777372353535851937790883648493, little-endian */
static const uint8_t L[32] = { 0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                               0xa2, 0xde, 0xf9, 0xde, 0x14, 0,    0,    0,    0,    0,    0,
                               0,    0,    0,    0,    0,    0,    0,    0,    0,    0x10 };

/* S < l, S little-endian */
static int s_below_l(const uint8_t s[32])
{
    for (int i = 31; i >= 0; i--)
        if (s[i] != L[i])
            return s[i] < L[i];
    return 0;
}

/* P canonical (y < p; the x = 0 encodings with the sign bit set are of small order), a curve point (libsodium's
 * crypto_core_ed25519_add decodes it) and not of small order ([8]P, by three doublings, is not the identity):
 * STRICT's rules 1-2 read independently of ecopt. (crypto_scalarmult_ed25519_noclamp and
 * crypto_core_ed25519_is_valid_point also refuse points with a small-order component.) */
static int strict_point(const uint8_t p[32])
{
    static const uint8_t identity[32] = { 1 };
    uint8_t q[32];
    int below_p = (p[31] & 0x7f) != 0x7f || p[0] < 0xed;
    for (int i = 1; i < 31 && !below_p; i++)
        below_p = p[i] != 0xff;
    if (!below_p || crypto_core_ed25519_add(q, p, identity) != 0)
        return 0;
    for (int i = 0; i < 3; i++)
        if (crypto_core_ed25519_add(q, q, q) != 0)
            return 0;
    return memcmp(q, identity, 32) != 0;
}

/* [m]T by repeated addition (m small), libsodium's point addition */
static void torsion_mul(uint8_t out[32], const uint8_t t[32], unsigned m)
{
    memcpy(out, torsion[0], 32);
    for (unsigned i = 0; i < m; i++)
        FUZZ_ASSERT(crypto_core_ed25519_add(out, out, t) == 0);
}

static int openssl_verify(const uint8_t sig[64], const uint8_t *msg, size_t len, const uint8_t pk[32])
{
    EVP_PKEY *pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pk, 32);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = 0;
    FUZZ_ASSERT(ctx != NULL);
    if (pkey != NULL && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, pkey) == 1)
        ok = EVP_DigestVerify(ctx, sig, 64, msg, len) == 1;
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(pkey);
    return ok;
}

static void openssl_sign(uint8_t sig[64], uint8_t pk[32], const uint8_t *msg, size_t len, const uint8_t seed[32])
{
    EVP_PKEY *pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t n = 64, m = 32;
    FUZZ_ASSERT(pkey && ctx && EVP_DigestSignInit(ctx, NULL, NULL, NULL, pkey) == 1);
    FUZZ_ASSERT(EVP_DigestSign(ctx, sig, &n, msg, len) == 1 && n == 64);
    FUZZ_ASSERT(EVP_PKEY_get_raw_public_key(pkey, pk, &m) == 1 && m == 32);
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(pkey);
}

/* Sign msg from seed with T_R added to R and T_A to A (the RFC 8032 signature when both are the identity),
 * from libsodium's scalar and point operations. Writes pk = A + T_A, sig = (R + T_R, S); *kmod8 = k mod 8.
 * Returns 0, or -1 in the negligible case r = 0. */
static int sign_with_torsion(uint8_t pk[32], uint8_t sig[64], unsigned *kmod8, const uint8_t *msg, size_t len,
                             const uint8_t seed[32], const uint8_t tr[32], const uint8_t ta[32])
{
    uint8_t h[64], a[64] = { 0 }, r64[64], r[32], k64[64], k[32], ka[32], A[32], R[32];
    crypto_hash_sha512_state st;
    crypto_hash_sha512(h, seed, 32);
    memcpy(a, h, 32);
    a[0] &= 248;
    a[31] &= 127;
    a[31] |= 64;
    FUZZ_ASSERT(crypto_scalarmult_ed25519_base_noclamp(A, a) == 0);
    crypto_core_ed25519_scalar_reduce(a, a); /* s mod l */
    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, h + 32, 32);
    crypto_hash_sha512_update(&st, msg, len);
    crypto_hash_sha512_final(&st, r64);
    crypto_core_ed25519_scalar_reduce(r, r64);
    if (crypto_scalarmult_ed25519_base_noclamp(R, r) != 0)
        return -1;
    FUZZ_ASSERT(crypto_core_ed25519_add(R, R, tr) == 0);
    FUZZ_ASSERT(crypto_core_ed25519_add(A, A, ta) == 0);
    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, R, 32);
    crypto_hash_sha512_update(&st, A, 32);
    crypto_hash_sha512_update(&st, msg, len);
    crypto_hash_sha512_final(&st, k64);
    crypto_core_ed25519_scalar_reduce(k, k64);
    *kmod8 = k[0] & 7;
    crypto_core_ed25519_scalar_mul(ka, k, a);
    crypto_core_ed25519_scalar_add(sig + 32, r, ka);
    memcpy(sig, R, 32);
    memcpy(pk, A, 32);
    sodium_memzero(h, sizeof h);
    sodium_memzero(a, sizeof a);
    sodium_memzero(r, sizeof r);
    sodium_memzero(r64, sizeof r64);
    return 0;
}

/* Relations 1-7 on one (pk, msg, sig); returns ecopt's STRICT verdict, and ZIP-215's in *zip. */
static int verify_all(const uint8_t pk[32], const uint8_t sig[64], const uint8_t *msg, size_t len, int *zip)
{
    int e_rc = 0, z_rc = 0, pk_rc = 0;
    for (int b = 0; b < fuzz_nbackends; b++) {
        fuzz_select_backend(b);
        int e1 = ecopt_ed25519_verify(sig, msg, len, pk), z1 = ecopt_ed25519_verify_zip215(sig, msg, len, pk);
        int p1 = ecopt_ed25519_publickey_check(pk);
        if (b == 0) {
            e_rc = e1;
            z_rc = z1;
            pk_rc = p1;
        }
        FUZZ_ASSERT(e1 == e_rc && z1 == z_rc && p1 == pk_rc);
    }
    FUZZ_ASSERT(ecopt_backend_select(NULL) == ECOPT_OK);
    FUZZ_ASSERT(e_rc == ECOPT_OK || e_rc == ECOPT_ERR_ENCODING || e_rc == ECOPT_ERR_SMALL_ORDER ||
                e_rc == ECOPT_ERR_VERIFY);
    FUZZ_ASSERT(z_rc == ECOPT_OK || z_rc == ECOPT_ERR_ENCODING || z_rc == ECOPT_ERR_VERIFY);
    int e = e_rc == ECOPT_OK, z = z_rc == ECOPT_OK;
    int s = crypto_sign_verify_detached(sig, msg, len, pk) == 0;
    int o = openssl_verify(sig, msg, len, pk);
    int pA = strict_point(pk), pR = strict_point(sig);
    int tA = crypto_core_ed25519_is_valid_point(pk), tR = crypto_core_ed25519_is_valid_point(sig);
    int sl = s_below_l(sig + 32);

    FUZZ_ASSERT((pk_rc == ECOPT_OK) == pA);          /* 1 */
    FUZZ_ASSERT(!e || (pA && pR && sl));             /* 2 */
    FUZZ_ASSERT(!e || z);                            /* 3 */
    FUZZ_ASSERT(!s || e);                            /* 4 */
    FUZZ_ASSERT(!(o && pA && pR && sl) || e);        /* 5 */
    FUZZ_ASSERT(!(o && sl) || z);                    /* 6 */
    if (tA && tR && sl)                              /* 7 */
        FUZZ_ASSERT(e == z && e == s && e == o);
    *zip = z;
    return e;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0)
        abort();
    fuzz_backends_init();
    for (int i = 0; i < 8; i++) {
        uint8_t t8[32];
        FUZZ_ASSERT(sodium_hex2bin(torsion[i], 32, torsion_hex[i], 64, NULL, NULL, NULL) == 0);
        FUZZ_ASSERT(!crypto_core_ed25519_is_valid_point(torsion[i]));
        torsion_mul(t8, torsion[i], 8);
        FUZZ_ASSERT(memcmp(t8, torsion[0], 32) == 0);
        for (int j = 0; j < i; j++)
            FUZZ_ASSERT(memcmp(torsion[i], torsion[j], 32) != 0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t in[1 + 96 + MAXMSG] = { 0 };
    if (size < 1)
        return 0;
    size_t n = size < sizeof in ? size : sizeof in;
    memcpy(in, data, n);

    if ((in[0] & 1) == 0) {
        size_t len = n > 97 ? n - 97 : 0;
        int zip;
        (void)verify_all(in + 1, in + 33, in + 97, len, &zip);
        return 0;
    }

    const uint8_t *seed = in + 1;
    unsigned t = in[33], pos = in[34] | (unsigned)in[35] << 8, x = in[36];
    size_t len = n > 37 ? n - 37 : 0;
    uint8_t buf[96 + MAXMSG]; /* pk | sig | msg */
    memcpy(buf + 96, in + 37, len);
    const uint8_t *msg = buf + 96;

    /* signing: ecopt on every backend, libsodium, OpenSSL, the construction above */
    uint8_t spk[32], ssk[64], ssig[64], opk[32], osig[64], epk[32], esig[64];
    FUZZ_ASSERT(crypto_sign_seed_keypair(spk, ssk, seed) == 0);
    FUZZ_ASSERT(crypto_sign_detached(ssig, NULL, msg, len, ssk) == 0);
    sodium_memzero(ssk, sizeof ssk);
    openssl_sign(osig, opk, msg, len, seed);
    FUZZ_ASSERT(memcmp(spk, opk, 32) == 0 && memcmp(ssig, osig, 64) == 0);
    for (int b = 0; b < fuzz_nbackends; b++) {
        ecopt_ed25519_secretkey sk;
        fuzz_select_backend(b);
        FUZZ_ASSERT(ecopt_ed25519_keypair_from_seed(&sk, epk, seed) == ECOPT_OK);
        FUZZ_ASSERT(ecopt_ed25519_sign(esig, msg, len, &sk) == ECOPT_OK);
        ecopt_ed25519_secretkey_wipe(&sk);
        FUZZ_ASSERT(memcmp(epk, spk, 32) == 0 && memcmp(esig, ssig, 64) == 0);
    }
    FUZZ_ASSERT(ecopt_backend_select(NULL) == ECOPT_OK);
    unsigned kmod8;
    uint8_t cpk[32], csig[64];
    if (sign_with_torsion(cpk, csig, &kmod8, msg, len, seed, torsion[0], torsion[0]) == 0)
        FUZZ_ASSERT(memcmp(cpk, spk, 32) == 0 && memcmp(csig, ssig, 64) == 0);

    /* the signature over R + T_R and A + T_A */
    const uint8_t *tr = torsion[t & 7], *ta = torsion[(t >> 3) & 7];
    if (sign_with_torsion(buf, buf + 32, &kmod8, msg, len, seed, tr, ta) != 0)
        return 0;
    int e, z;
    if (x == 0) {
        uint8_t sum[32];
        torsion_mul(sum, ta, kmod8);
        FUZZ_ASSERT(crypto_core_ed25519_add(sum, sum, tr) == 0);
        int cofactorless = memcmp(sum, torsion[0], 32) == 0;
        e = verify_all(buf, buf + 32, msg, len, &z);
        FUZZ_ASSERT(e && z); /* 8 */
        FUZZ_ASSERT((crypto_sign_verify_detached(buf + 32, msg, len, buf) == 0) == cofactorless);
        FUZZ_ASSERT(openssl_verify(buf + 32, msg, len, buf) == cofactorless);
    } else {
        buf[pos % (96 + len)] ^= (uint8_t)x;
        (void)verify_all(buf, buf + 32, msg, len, &z);
    }
    return 0;
}
