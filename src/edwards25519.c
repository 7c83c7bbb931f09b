/* edwards25519.c — the group API of include/ecopt/edwards25519.h: scalars mod l (backend-independent, on
 * src/curve/scalar.h) and the dispatch of the point operations to the chosen backend's table (src/curve/group.h).
 * Each point operation loads the backend once and runs whole on it; the point type is backend-independent, so a
 * point made on one backend is valid on every other. */
#include "ecopt/edwards25519.h"

#include <string.h>

#include "backend.h"
#include "ct.h"
#include "curve/group.h"
#include "curve/scalar.h"
#include "rng.h"

size_t ecopt_edwards25519_bytes(void) {
    return ECOPT_EDWARDS25519_BYTES;
}

size_t ecopt_edwards25519_scalarbytes(void) {
    return ECOPT_EDWARDS25519_SCALARBYTES;
}

/* ---- scalars ------------------------------------------------------------------------------------------------ */

static const uint8_t ZERO[32] = {0};
static const uint8_t ONE[32] = {1};
/* l - 1 = -1 mod l: a scalar times it is its negation (one multiply-add, any input below 2^256). */
static const uint8_t L_MINUS_1[32] = {0xec, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                      0xa2, 0xde, 0xf9, 0xde, 0x14, 0,    0,    0,    0,    0,    0,
                                      0,    0,    0,    0,    0,    0,    0,    0,    0,    0x10};
/* l - 2, the exponent of inversion (Fermat: a^(l-1) = 1 for a != 0 mod l, l prime). */
static const uint8_t L_MINUS_2[32] = {0xeb, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                      0xa2, 0xde, 0xf9, 0xde, 0x14, 0,    0,    0,    0,    0,    0,
                                      0,    0,    0,    0,    0,    0,    0,    0,    0,    0x10};

int ecopt_edwards25519_scalar_from_bytes(uint8_t out[32], const uint8_t in[32]) {
    uint64_t ok = ecopt_scalar_is_canonical(in);
    uint8_t m = (uint8_t)ecopt_ct_mask(ok);
    for (int i = 0; i < 32; i++) out[i] = in[i] & m;
    ecopt_ct_declassify(&ok, sizeof ok); /* the verdict is the result */
    return ok ? ECOPT_OK : ECOPT_ERR_ENCODING;
}

void ecopt_edwards25519_scalar_reduce64(uint8_t out[32], const uint8_t x[64]) {
    uint8_t r[32];
    ecopt_scalar_reduce64(r, x); /* through r: out may overlap x */
    memcpy(out, r, 32);
    ecopt_memzero_explicit(r, sizeof r);
}

void ecopt_edwards25519_scalar_reduce(uint8_t out[32], const uint8_t x[32]) {
    ecopt_scalar_muladd(out, x, ONE, ZERO);
}

void ecopt_edwards25519_scalar_add(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]) {
    ecopt_scalar_muladd(out, a, ONE, b);
}

void ecopt_edwards25519_scalar_sub(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]) {
    ecopt_scalar_muladd(out, b, L_MINUS_1, a); /* a - b = b (l - 1) + a mod l */
}

void ecopt_edwards25519_scalar_neg(uint8_t out[32], const uint8_t a[32]) {
    ecopt_scalar_muladd(out, a, L_MINUS_1, ZERO);
}

void ecopt_edwards25519_scalar_mul(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]) {
    ecopt_scalar_muladd(out, a, b, ZERO);
}

/* a^(l-2) with 4-bit windows over the public exponent: table t[j] = a^j, then for each nibble of l - 2 from the
 * top, four squarings and one multiplication by t[nibble]. The index and the skipped zero nibbles depend on the
 * constant exponent only, never on a. For a = 0 mod l every power is 0, the documented result. */
void ecopt_edwards25519_scalar_invert(uint8_t out[32], const uint8_t a[32]) {
    uint8_t t[16][32], acc[32];
    memcpy(t[0], ONE, 32);
    ecopt_scalar_muladd(t[1], a, ONE, ZERO);
    for (int j = 2; j < 16; j++) ecopt_scalar_muladd(t[j], t[j - 1], t[1], ZERO);
    memcpy(acc, ONE, 32);
    for (int i = 63; i >= 0; i--) {
        if (i != 63)
            for (int k = 0; k < 4; k++) ecopt_scalar_muladd(acc, acc, acc, ZERO);
        int nib = (L_MINUS_2[i / 2] >> (4 * (i % 2))) & 15;
        if (nib) ecopt_scalar_muladd(acc, acc, t[nib], ZERO);
    }
    memcpy(out, acc, 32);
    ecopt_memzero_explicit(t, sizeof t);
    ecopt_memzero_explicit(acc, sizeof acc);
}

int ecopt_edwards25519_scalar_random(uint8_t out[32]) {
    uint8_t wide[64];
    int rc = ecopt_random_bytes(wide, sizeof wide);
    if (rc != ECOPT_OK) {
        memset(out, 0, 32);
        return rc;
    }
    ecopt_scalar_reduce64(out, wide);
    ecopt_memzero_explicit(wide, sizeof wide);
    return ECOPT_OK;
}

int ecopt_edwards25519_scalar_is_zero(const uint8_t a[32]) {
    uint8_t r[32];
    ecopt_scalar_muladd(r, a, ONE, ZERO);
    int z = (int)ecopt_ct_bytes_is_zero(r, 32);
    ecopt_memzero_explicit(r, sizeof r);
    return z;
}

int ecopt_edwards25519_scalar_equal(const uint8_t a[32], const uint8_t b[32]) {
    uint8_t ra[32], rb[32];
    ecopt_scalar_muladd(ra, a, ONE, ZERO);
    ecopt_scalar_muladd(rb, b, ONE, ZERO);
    int e = (int)ecopt_ct_bytes_eq(ra, rb, 32);
    ecopt_memzero_explicit(ra, sizeof ra);
    ecopt_memzero_explicit(rb, sizeof rb);
    return e;
}

/* ---- points --------------------------------------------------------------------------------------------------- */

static const struct ecopt_group_ops *ops(void) {
    return ecopt_backend_get()->group;
}

int ecopt_edwards25519_decode(ecopt_edwards25519_point *r, const uint8_t s[32]) {
    if (ops()->decode(r, s, 0)) return ECOPT_OK;
    memset(r, 0, sizeof *r);
    return ECOPT_ERR_ENCODING;
}

int ecopt_edwards25519_decode_zip215(ecopt_edwards25519_point *r, const uint8_t s[32]) {
    if (ops()->decode(r, s, 1)) return ECOPT_OK;
    memset(r, 0, sizeof *r);
    return ECOPT_ERR_ENCODING;
}

void ecopt_edwards25519_encode(uint8_t s[32], const ecopt_edwards25519_point *p) {
    ops()->encode(s, p);
}

/* (X : Y : Z : T) = (0 : 1 : 1 : 0), canonical coordinates of 32 little-endian bytes each: backend-independent. */
void ecopt_edwards25519_identity(ecopt_edwards25519_point *r) {
    memset(r, 0, sizeof *r);
    r->opaque[32] = 1;
    r->opaque[64] = 1;
}

void ecopt_edwards25519_base(ecopt_edwards25519_point *r) {
    ops()->base(r);
}

void ecopt_edwards25519_add(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p,
                            const ecopt_edwards25519_point *q) {
    ops()->add(r, p, q);
}

void ecopt_edwards25519_sub(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p,
                            const ecopt_edwards25519_point *q) {
    ops()->sub(r, p, q);
}

void ecopt_edwards25519_neg(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p) {
    ops()->neg(r, p);
}

void ecopt_edwards25519_double(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p) {
    ops()->dbl(r, p);
}

int ecopt_edwards25519_equal(const ecopt_edwards25519_point *p, const ecopt_edwards25519_point *q) {
    return ops()->equal(p, q);
}

int ecopt_edwards25519_is_identity(const ecopt_edwards25519_point *p) {
    return ops()->is_identity(p);
}

/* The two multiplications by a secret scalar call the backend through its table (never inlined here), then
 * zero the stack it used (ct.h). */
void ecopt_edwards25519_scalarmult(ecopt_edwards25519_point *r, const uint8_t s[32],
                                   const ecopt_edwards25519_point *p) {
    ops()->scalarmult(r, s, p);
    ecopt_stack_scrub();
}

void ecopt_edwards25519_scalarmult_base(ecopt_edwards25519_point *r, const uint8_t s[32]) {
    ops()->scalarmult_base(r, s);
    ecopt_stack_scrub();
}

void ecopt_edwards25519_double_scalarmult_vartime(ecopt_edwards25519_point *r, const uint8_t a[32],
                                                  const ecopt_edwards25519_point *p, const uint8_t b[32]) {
    ops()->double_scalarmult_vartime(r, a, p, b);
}

void ecopt_edwards25519_mul_by_cofactor(ecopt_edwards25519_point *r, const ecopt_edwards25519_point *p) {
    ops()->mul_by_cofactor(r, p);
}

int ecopt_edwards25519_is_small_order(const ecopt_edwards25519_point *p) {
    return ops()->is_small_order(p);
}

int ecopt_edwards25519_is_torsion_free(const ecopt_edwards25519_point *p) {
    return ops()->is_torsion_free(p);
}

void ecopt_edwards25519_to_montgomery_u(uint8_t u[32], const ecopt_edwards25519_point *p) {
    ops()->to_montgomery_u(u, p);
}

int ecopt_edwards25519_from_montgomery_u(ecopt_edwards25519_point *r, const uint8_t u[32], int sign) {
    /* nonzero -> 1 without a branch: the top bit of x | -x is set exactly when x != 0. */
    uint64_t x = (uint64_t)(unsigned)sign;
    if (ops()->from_montgomery_u(r, u, (x | (0 - x)) >> 63)) return ECOPT_OK;
    memset(r, 0, sizeof *r);
    return ECOPT_ERR_ENCODING;
}
