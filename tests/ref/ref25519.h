/* ref25519.h — a slow, independent reference for Curve25519 in GMP (mpz), the oracle of the ecopt tests.
 *
 * Written from the mathematics of RFC 7748 and RFC 8032, not from limb code: field elements are integers mod
 * p = 2^255 - 19, points of edwards25519 are affine (x, y) with the complete twisted Edwards addition law
 * (a = -1), scalar multiplication is plain double-and-add, X25519 is RFC 7748's ladder on integers, scalars are
 * integers mod l. Nothing here is constant time or fast (one scalar multiplication is about a millisecond).
 * SHA-512 comes from OpenSSL's libcrypto.
 *
 * Call ref_init() once before anything else. */
#ifndef ECOPT_TESTS_REF25519_H
#define ECOPT_TESTS_REF25519_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* before gmp.h, which declares gmp_fprintf only when FILE is known */

#include <gmp.h>

/* Constants, set by ref_init(): p = 2^255 - 19; l = 2^252 + 27742317777372353535851937790883648493;
 * d = -121665/121666 mod p; sqrtm1 = 2^((p-1)/4) mod p; the base point B = (x, 4/5) with x even. */
extern mpz_t ref_p, ref_l, ref_d, ref_sqrtm1, ref_2_255, ref_2_256;

void ref_init(void);

/* ---- integers <-> little-endian bytes ---- */
/* r = the n-byte little-endian integer (no masking). */
void ref_from_le(mpz_t r, const uint8_t *b, size_t n);
/* b = x as n little-endian bytes; x must satisfy 0 <= x < 2^(8n) (aborts otherwise). */
void ref_to_le(uint8_t *b, size_t n, const mpz_t x);
/* Print "label: <decimal>" and its hex to stderr. */
void ref_print(const char *label, const mpz_t x);

/* ---- field mod p (all results in [0, p)) ---- */
void ref_fe_add(mpz_t r, const mpz_t a, const mpz_t b);
void ref_fe_sub(mpz_t r, const mpz_t a, const mpz_t b);
void ref_fe_mul(mpz_t r, const mpz_t a, const mpz_t b);
void ref_fe_inv(mpz_t r, const mpz_t a); /* 1/a mod p (= a^(p-2)); 0 for a = 0 */
/* r = a square root of a mod p; returns 1 when a is a square, else 0 (r undefined). The root returned is the one
 * with (r mod p) even; callers pick the sign. */
int ref_fe_sqrt(mpz_t r, const mpz_t a);

/* ---- edwards25519, affine; the identity is (0, 1) ---- */
typedef struct ref_pt {
    mpz_t x, y;
} ref_pt;

void ref_pt_init(ref_pt *P);
void ref_pt_clear(ref_pt *P);
void ref_pt_set(ref_pt *R, const ref_pt *P);
void ref_pt_identity(ref_pt *R);
void ref_pt_base(ref_pt *R);
int ref_pt_eq(const ref_pt *P, const ref_pt *Q);
int ref_pt_is_identity(const ref_pt *P);
int ref_pt_on_curve(const ref_pt *P); /* -x^2 + y^2 = 1 + d x^2 y^2 */
void ref_pt_add(ref_pt *R, const ref_pt *P, const ref_pt *Q); /* R may alias P or Q */
void ref_pt_neg(ref_pt *R, const ref_pt *P);
void ref_pt_double(ref_pt *R, const ref_pt *P);
void ref_pt_mul(ref_pt *R, const mpz_t k, const ref_pt *P); /* [k]P, k >= 0 */
void ref_pt_mul_ui(ref_pt *R, unsigned long k, const ref_pt *P);
/* The order of P when it divides 8 (1, 2, 4 or 8), else 0. */
int ref_pt_small_order(const ref_pt *P);

/* The 8-torsion: T[i] = [i]T8 for i = 0..7, T8 a point of order 8 found as [l]Q for curve points Q (y = 2, 3, ...)
 * until [l]Q has order exactly 8; [l]Q always has order dividing 8 because the group order is 8 l. */
void ref_torsion_points(ref_pt T[8]);

/* Encoding of RFC 8032 section 5.1.2: y little-endian, bit 255 = x mod 2. */
void ref_pt_encode(uint8_t out[32], const ref_pt *P);

/* Decoding of RFC 8032 section 5.1.3. Returns one of: */
enum {
    REF_DEC_OK = 0,
    REF_DEC_Y_NONCANONICAL = 1, /* y >= p (strict: rejected) */
    REF_DEC_NOT_ON_CURVE = 2,   /* (y^2 - 1)/(d y^2 + 1) is not a square */
    REF_DEC_X0_SIGN = 3         /* x = 0 but the sign bit is set (strict: rejected) */
};
/* strict = 1: as RFC 8032 (y < p required, x = 0 with sign bit rejected). strict = 0: y is reduced mod p and a set
 * sign bit with x = 0 is ignored (the ZIP-215 reading); the return value still reports which rule the encoding
 * broke (REF_DEC_Y_NONCANONICAL / REF_DEC_X0_SIGN) while P is filled in; only REF_DEC_NOT_ON_CURVE leaves P unset. */
int ref_pt_decode(ref_pt *P, const uint8_t in[32], int strict);

/* ---- X25519 (RFC 7748 section 5) ---- */
/* out = X25519(scalar, u): clamps the scalar, masks bit 255 of u, reduces u mod p, runs the ladder on integers. */
void ref_x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]);
/* The clamped scalar of RFC 7748 decodeScalar25519 / RFC 8032 section 5.1.5. */
void ref_clamp(mpz_t k, const uint8_t scalar[32]);

/* ---- scalars mod l ---- */
void ref_sc_reduce(uint8_t out[32], const uint8_t *in, size_t n); /* out = (n-byte LE integer) mod l */
void ref_sc_muladd(uint8_t out[32], const uint8_t a[32], const uint8_t b[32], const uint8_t c[32]);

/* ---- Ed25519 family (RFC 8032 section 5.1) ---- */
typedef enum ref_ed_variant { REF_ED25519 = 0, REF_ED25519CTX = 1, REF_ED25519PH = 2 } ref_ed_variant;

void ref_sha512(uint8_t out[64], const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                const uint8_t *c, size_t clen, const uint8_t *d, size_t dlen);

/* Secret expansion (section 5.1.5): s = clamp(H(seed)[0..32]), prefix = H(seed)[32..64], A = encode([s]B). */
void ref_ed25519_expand(mpz_t s, uint8_t prefix[32], uint8_t pub[32], const uint8_t seed[32]);

/* k = SHA-512(dom2(F, C) || R || A || PH(M)) mod l, for the given variant (dom2 empty for pure Ed25519). */
void ref_ed25519_challenge(mpz_t k, ref_ed_variant v, const uint8_t *ctx, size_t ctxlen, const uint8_t R[32],
                           const uint8_t A[32], const uint8_t *msg, size_t msglen);

/* Signing (section 5.1.6) from a seed. */
void ref_ed25519_sign(uint8_t sig[64], ref_ed_variant v, const uint8_t *ctx, size_t ctxlen, const uint8_t *msg,
                      size_t msglen, const uint8_t seed[32]);

/* The verdict of ecopt's STRICT verification policy (include/ecopt/ecopt.h), derived here from the policy text:
 * returns the ecopt_status value the library must return (0, ECOPT_ERR_ENCODING, ECOPT_ERR_SMALL_ORDER or
 * ECOPT_ERR_VERIFY). cofactored = 1 is the policy; cofactored = 0 replaces step 6 by the cofactorless equation
 * [S]B = R + [k]A (what libsodium and OpenSSL check) and drops the small-order rules 2 and 4 when
 * small_order_rules = 0. */
int ref_ed25519_verify_policy(const uint8_t sig[64], ref_ed_variant v, const uint8_t *ctx, size_t ctxlen,
                              const uint8_t *msg, size_t msglen, const uint8_t pub[32], int cofactored,
                              int small_order_rules);

/* The verdict of ecopt's ZIP-215 policy (ecopt.h; Zcash ZIP 215) for pure Ed25519: A and R decoded permissively
 * (y taken mod p, x = 0 with the sign bit set read as x = 0; ECOPT_ERR_ENCODING only for a y with no curve point),
 * no small-order rules, S < l (ECOPT_ERR_ENCODING), the cofactored equation with k over the received bytes. */
int ref_ed25519_verify_zip215(const uint8_t sig[64], const uint8_t *msg, size_t msglen, const uint8_t pub[32]);

#endif /* ECOPT_TESTS_REF25519_H */
