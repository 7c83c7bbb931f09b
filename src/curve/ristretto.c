/* ristretto.c — ristretto255 (RFC 9496 section 4) on edwards25519 (see ristretto.h for the contracts).
 *
 * Every step follows the RFC's pseudo-code line by line, with the RFC's names; CT_SELECT, CT_NEG and CT_ABS are
 * ecopt_fe_cmov by a control bit, never a branch. The field operations' bounds (fe.h): ecopt_fe_add returns loose
 * and takes tight only, so a sum that feeds another sum is carried first (fe_add_tight). */
#include "curve/ristretto.h"

#include <string.h>

#include "ct.h"
#include "ecopt/edwards25519.h"
#include "ecopt/ristretto255.h"

/* SQRT_AD_MINUS_ONE = sqrt(a d - 1) = 25063068953384623474111414158702152701244531502492656460079210482610430750235
 * and INVSQRT_A_MINUS_D = 1 / sqrt(a - d) = 5446930700890931692099581386874514160539359729292745692120531289631172
 * 1017578, a = -1 (RFC 9496 section 4.1), little-endian; the RFC's vectors (tests/curve/test_ristretto.c) depend
 * on both. */
static const uint8_t sqrt_ad_minus_one_bytes[32] = {
    0x1b, 0x2e, 0x7b, 0x49, 0xa0, 0xf6, 0x97, 0x7e, 0xbd, 0x54, 0x78, 0x1b, 0x0c, 0x8e, 0x9d, 0xaf,
    0xfd, 0xd1, 0xf5, 0x31, 0xc9, 0xfc, 0x3c, 0x0f, 0xac, 0x48, 0x83, 0x2b, 0xbf, 0x31, 0x69, 0x37};
static const uint8_t invsqrt_a_minus_d_bytes[32] = {
    0xea, 0x40, 0x5d, 0x80, 0xaa, 0xfd, 0xc8, 0x99, 0xbe, 0x72, 0x41, 0x5a, 0x17, 0x16, 0x2f, 0x9d,
    0x40, 0xd8, 0x01, 0xfe, 0x91, 0x7b, 0xc2, 0x16, 0xa2, 0xfc, 0xaf, 0xcf, 0x05, 0x89, 0x6c, 0x78};

/* h = f + g, carried to tight. */
static void fe_add_tight(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    ecopt_fe_add(h, f, g);
    ecopt_fe_carry(h, h);
}

/* CT_NEG: h = -f when bit, else f (bit 0 or 1, secret). */
static void fe_cneg(ecopt_fe *h, const ecopt_fe *f, uint64_t bit) {
    ecopt_fe n;
    ecopt_fe_neg(&n, f);
    ecopt_fe_carry(h, f);
    ecopt_fe_cmov(h, &n, bit);
}

/* CT_ABS: h = |f|, the one of f, -f whose canonical encoding is even (RFC 9496 section 4.1, IS_NEGATIVE). */
static void fe_abs(ecopt_fe *h, const ecopt_fe *f) {
    fe_cneg(h, f, ecopt_fe_is_negative(f));
}

uint64_t ecopt_ristretto_sqrt_ratio_m1(ecopt_fe *r, const ecopt_fe *u, const ecopt_fe *v) {
    ecopt_fe v3, v7, t, check, neg_u, neg_u_i, r_prime;
    ecopt_fe_sq(&v3, v);
    ecopt_fe_mul(&v3, &v3, v);  /* v^3 */
    ecopt_fe_sq(&v7, &v3);
    ecopt_fe_mul(&v7, &v7, v);  /* v^7 */
    ecopt_fe_mul(&t, u, &v7);
    ecopt_fe_pow22523(&t, &t);  /* (u v^7)^((p-5)/8) */
    ecopt_fe_mul(&t, &t, &v3);
    ecopt_fe_mul(&t, &t, u);    /* r = (u v^3) (u v^7)^((p-5)/8) */

    ecopt_fe_sq(&check, &t);
    ecopt_fe_mul(&check, &check, v); /* check = v r^2 */
    ecopt_fe_neg(&neg_u, u);
    ecopt_fe_mul(&neg_u_i, &neg_u, &ecopt_fe_sqrtm1);
    uint64_t correct_sign_sqrt = ecopt_fe_eq(&check, u);
    uint64_t flipped_sign_sqrt = ecopt_fe_eq(&check, &neg_u);
    uint64_t flipped_sign_sqrt_i = ecopt_fe_eq(&check, &neg_u_i);

    ecopt_fe_mul(&r_prime, &t, &ecopt_fe_sqrtm1);
    ecopt_fe_cmov(&t, &r_prime, flipped_sign_sqrt | flipped_sign_sqrt_i);
    fe_abs(r, &t); /* the non-negative root */
    return correct_sign_sqrt | flipped_sign_sqrt;
}

int ecopt_ristretto_decode(ecopt_ge_ext *r, const uint8_t in[32]) {
    ecopt_fe s, ss, one, u1, u2, u2_sqr, v, t, invsqrt, den_x, den_y, x, y;
    uint8_t canon[32];

    /* s must be the canonical encoding (all 256 bits: bit 255 set is non-canonical) and non-negative. */
    ecopt_fe_frombytes(&s, in);
    ecopt_fe_tobytes(canon, &s);
    uint64_t ok = ecopt_ct_bytes_eq(canon, in, 32);
    ok &= ecopt_fe_is_negative(&s) ^ 1;

    ecopt_fe_sq(&ss, &s);
    ecopt_fe_1(&one);
    ecopt_fe_sub(&u1, &one, &ss);    /* u1 = 1 - s^2 */
    fe_add_tight(&u2, &one, &ss);    /* u2 = 1 + s^2 */
    ecopt_fe_sq(&u2_sqr, &u2);
    ecopt_fe_sq(&t, &u1);
    ecopt_fe_mul(&t, &t, &ecopt_fe_d);
    ecopt_fe_neg(&t, &t);
    ecopt_fe_sub(&v, &t, &u2_sqr);   /* v = -(D u1^2) - u2^2 */

    ecopt_fe_mul(&t, &v, &u2_sqr);
    uint64_t was_square = ecopt_ristretto_sqrt_ratio_m1(&invsqrt, &one, &t);

    ecopt_fe_mul(&den_x, &invsqrt, &u2);
    ecopt_fe_mul(&den_y, &invsqrt, &den_x);
    ecopt_fe_mul(&den_y, &den_y, &v);
    ecopt_fe_add(&t, &s, &s);
    ecopt_fe_mul(&t, &t, &den_x);
    fe_abs(&x, &t);                  /* x = |2 s den_x| */
    ecopt_fe_mul(&y, &u1, &den_y);
    ecopt_fe_mul(&t, &x, &y);

    ok &= was_square;
    ok &= ecopt_fe_is_negative(&t) ^ 1;
    ok &= ecopt_fe_is_zero(&y) ^ 1;

    ecopt_ge_identity(r);
    ecopt_fe_cmov(&r->X, &x, ok);
    ecopt_fe_cmov(&r->Y, &y, ok);
    ecopt_fe_cmov(&r->T, &t, ok);
    /* The verdict is public (the contract returns it). */
    ecopt_ct_declassify(&ok, sizeof ok);
    return (int)ok;
}

void ecopt_ristretto_encode(uint8_t out[32], const ecopt_ge_ext *p) {
    ecopt_fe u1, u2, t, one, invsqrt, den1, den2, z_inv, ix0, iy0, ench, x, y, den_inv, invsqrt_a_minus_d;

    ecopt_fe_add(&t, &p->Z, &p->Y);
    ecopt_fe_sub(&u1, &p->Z, &p->Y);
    ecopt_fe_mul(&u1, &u1, &t);          /* u1 = (z0 + y0) (z0 - y0) */
    ecopt_fe_mul(&u2, &p->X, &p->Y);     /* u2 = x0 y0 */
    ecopt_fe_sq(&t, &u2);
    ecopt_fe_mul(&t, &t, &u1);
    ecopt_fe_1(&one);
    (void)ecopt_ristretto_sqrt_ratio_m1(&invsqrt, &one, &t); /* 1 / sqrt(u1 u2^2) */
    ecopt_fe_mul(&den1, &invsqrt, &u1);
    ecopt_fe_mul(&den2, &invsqrt, &u2);
    ecopt_fe_mul(&z_inv, &den1, &den2);
    ecopt_fe_mul(&z_inv, &z_inv, &p->T);
    ecopt_fe_mul(&ix0, &p->X, &ecopt_fe_sqrtm1);
    ecopt_fe_mul(&iy0, &p->Y, &ecopt_fe_sqrtm1);
    ecopt_fe_frombytes(&invsqrt_a_minus_d, invsqrt_a_minus_d_bytes);
    ecopt_fe_mul(&ench, &den1, &invsqrt_a_minus_d); /* enchanted_denominator */

    ecopt_fe_mul(&t, &p->T, &z_inv);
    uint64_t rotate = ecopt_fe_is_negative(&t);
    ecopt_fe_carry(&x, &p->X);
    ecopt_fe_cmov(&x, &iy0, rotate);
    ecopt_fe_carry(&y, &p->Y);
    ecopt_fe_cmov(&y, &ix0, rotate);
    ecopt_fe_copy(&den_inv, &den2);
    ecopt_fe_cmov(&den_inv, &ench, rotate);

    ecopt_fe_mul(&t, &x, &z_inv);
    fe_cneg(&y, &y, ecopt_fe_is_negative(&t));
    ecopt_fe_sub(&t, &p->Z, &y);
    ecopt_fe_mul(&t, &den_inv, &t);
    fe_abs(&t, &t);                      /* s = |den_inv (z - y)| */
    ecopt_fe_tobytes(out, &t);
}

uint64_t ecopt_ristretto_eq(const ecopt_ge_ext *p, const ecopt_ge_ext *q) {
    ecopt_fe a, b;
    ecopt_fe_mul(&a, &p->X, &q->Y);
    ecopt_fe_mul(&b, &p->Y, &q->X);
    uint64_t e1 = ecopt_fe_eq(&a, &b);   /* x1 y2 == y1 x2 */
    ecopt_fe_mul(&a, &p->Y, &q->Y);
    ecopt_fe_mul(&b, &p->X, &q->X);
    uint64_t e2 = ecopt_fe_eq(&a, &b);   /* y1 y2 == x1 x2 (a = -1) */
    return e1 | e2;
}

void ecopt_ristretto_map(ecopt_ge_ext *out, const ecopt_fe *t) {
    ecopt_fe r, one, u, v, a, b, s, s_prime, c, n, w0, w1, w2, w3, one_minus_d_sq, d_minus_one_sq, sq;
    ecopt_fe_1(&one);
    /* ONE_MINUS_D_SQ = 1 - d^2 and D_MINUS_ONE_SQ = (d - 1)^2 (RFC 9496 section 4.1). */
    ecopt_fe_sq(&a, &ecopt_fe_d);
    ecopt_fe_sub(&one_minus_d_sq, &one, &a);
    ecopt_fe_sub(&a, &ecopt_fe_d, &one);
    ecopt_fe_sq(&d_minus_one_sq, &a);

    ecopt_fe_sq(&r, t);
    ecopt_fe_mul(&r, &r, &ecopt_fe_sqrtm1);   /* r = SQRT_M1 t^2 */
    ecopt_fe_add(&a, &r, &one);
    ecopt_fe_mul(&u, &a, &one_minus_d_sq);    /* u = (r + 1) ONE_MINUS_D_SQ */
    ecopt_fe_mul(&a, &r, &ecopt_fe_d);
    ecopt_fe_neg(&b, &one);
    ecopt_fe_sub(&a, &b, &a);                 /* -1 - r D */
    ecopt_fe_add(&b, &r, &ecopt_fe_d);        /* r + D */
    ecopt_fe_mul(&v, &a, &b);                 /* v = (-1 - r D) (r + D) */

    uint64_t was_square = ecopt_ristretto_sqrt_ratio_m1(&s, &u, &v);
    ecopt_fe_mul(&a, &s, t);
    fe_abs(&a, &a);
    ecopt_fe_neg(&s_prime, &a);               /* s_prime = -|s t| */
    ecopt_fe_cmov(&s, &s_prime, was_square ^ 1);
    ecopt_fe_copy(&c, &r);
    ecopt_fe_neg(&a, &one);
    ecopt_fe_cmov(&c, &a, was_square);        /* c = -1 if was_square, else r */

    ecopt_fe_sub(&a, &r, &one);
    ecopt_fe_mul(&n, &c, &a);
    ecopt_fe_mul(&n, &n, &d_minus_one_sq);
    ecopt_fe_sub(&n, &n, &v);                 /* N = c (r - 1) D_MINUS_ONE_SQ - v */

    ecopt_fe_add(&a, &s, &s);
    ecopt_fe_mul(&w0, &a, &v);                /* w0 = 2 s v */
    ecopt_fe_frombytes(&a, sqrt_ad_minus_one_bytes);
    ecopt_fe_mul(&w1, &n, &a);                /* w1 = N SQRT_AD_MINUS_ONE */
    ecopt_fe_sq(&sq, &s);
    ecopt_fe_sub(&w2, &one, &sq);             /* w2 = 1 - s^2 */
    fe_add_tight(&w3, &one, &sq);             /* w3 = 1 + s^2 */

    ecopt_fe_mul(&out->X, &w0, &w3);
    ecopt_fe_mul(&out->Y, &w2, &w1);
    ecopt_fe_mul(&out->Z, &w1, &w3);
    ecopt_fe_mul(&out->T, &w0, &w2);
}

void ecopt_ristretto_from_uniform(ecopt_ge_ext *r, const uint8_t b[64]) {
    ecopt_fe t;
    ecopt_ge_ext p1, p2;
    ecopt_ge_cached c2;
    /* frombytes ignores bit 255 and reduces mod p, the RFC's masking and decoding of each half. */
    ecopt_fe_frombytes(&t, b);
    ecopt_ristretto_map(&p1, &t);
    ecopt_fe_frombytes(&t, b + 32);
    ecopt_ristretto_map(&p2, &t);
    ecopt_ge_cached_from_ext(&c2, &p2);
    ecopt_ge_add(r, &p1, &c2);
    ecopt_memzero_explicit(&t, sizeof t);
    ecopt_memzero_explicit(&p1, sizeof p1);
    ecopt_memzero_explicit(&p2, sizeof p2);
    ecopt_memzero_explicit(&c2, sizeof c2);
}

/* ---- the table entry: the public point type, whose layout is that of ecopt_edwards25519_point ---------------- */

static void from_pub(ecopt_ge_ext *r, const ecopt_ristretto255_point *p) {
    ecopt_edwards25519_point e;
    memcpy(e.opaque, p->opaque, sizeof e.opaque);
    ecopt_ge_from_public(r, &e);
}

static void to_pub(ecopt_ristretto255_point *r, const ecopt_ge_ext *p) {
    ecopt_edwards25519_point e;
    ecopt_ge_to_public(&e, p);
    memcpy(r->opaque, e.opaque, sizeof r->opaque);
}

static int op_decode(ecopt_ristretto255_point *p, const uint8_t s[32]) {
    ecopt_ge_ext q;
    int ok = ecopt_ristretto_decode(&q, s);
    to_pub(p, &q);
    return ok;
}

static void op_encode(uint8_t s[32], const ecopt_ristretto255_point *p) {
    ecopt_ge_ext q;
    from_pub(&q, p);
    ecopt_ristretto_encode(s, &q);
}

static int op_equal(const ecopt_ristretto255_point *p, const ecopt_ristretto255_point *q) {
    ecopt_ge_ext a, b;
    from_pub(&a, p);
    from_pub(&b, q);
    return (int)ecopt_ristretto_eq(&a, &b);
}

static void op_add(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p,
                   const ecopt_ristretto255_point *q) {
    ecopt_ge_ext a, b;
    ecopt_ge_cached c;
    from_pub(&a, p);
    from_pub(&b, q);
    ecopt_ge_cached_from_ext(&c, &b);
    ecopt_ge_add(&a, &a, &c);
    to_pub(r, &a);
}

static void op_sub(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p,
                   const ecopt_ristretto255_point *q) {
    ecopt_ge_ext a, b;
    ecopt_ge_cached c;
    from_pub(&a, p);
    from_pub(&b, q);
    ecopt_ge_cached_from_ext(&c, &b);
    ecopt_ge_sub(&a, &a, &c);
    to_pub(r, &a);
}

static void op_neg(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p) {
    ecopt_ge_ext a;
    from_pub(&a, p);
    ecopt_ge_neg(&a, &a);
    to_pub(r, &a);
}

static void op_base(ecopt_ristretto255_point *r) {
    ecopt_ge_ext a;
    ecopt_ge_base(&a);
    to_pub(r, &a);
}

static void op_scalarmult(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p, const uint8_t s[32]) {
    ecopt_ge_ext a;
    from_pub(&a, p);
    ecopt_ge_scalarmult(&a, &a, s);
    to_pub(r, &a);
    ecopt_memzero_explicit(&a, sizeof a);
}

static void op_scalarmult_base(ecopt_ristretto255_point *r, const uint8_t s[32]) {
    ecopt_ge_ext a;
    ecopt_ge_scalarmult_base(&a, s);
    to_pub(r, &a);
    ecopt_memzero_explicit(&a, sizeof a);
}

static void op_from_uniform_bytes(ecopt_ristretto255_point *r, const uint8_t b[64]) {
    ecopt_ge_ext a;
    ecopt_ristretto_from_uniform(&a, b);
    to_pub(r, &a);
    ecopt_memzero_explicit(&a, sizeof a);
}

const ecopt_ristretto_ops ecopt_ristretto_ops_be = {
    .decode = op_decode,
    .encode = op_encode,
    .equal = op_equal,
    .add = op_add,
    .sub = op_sub,
    .neg = op_neg,
    .base = op_base,
    .scalarmult = op_scalarmult,
    .scalarmult_base = op_scalarmult_base,
    .from_uniform_bytes = op_from_uniform_bytes,
};
