/* h2c_map.c — hash-to-curve's curve half for edwards25519 and curve25519 (RFC 9380; see h2c_map.h).
 *
 * map_to_curve is the plain Elligator 2 of section 6.7.1 (not appendix G.2.1's straight-line form): one inversion
 * for x1, and the two candidate square roots sqrt(g(x1)), sqrt(g(x2)) computed side by side with one interleaved
 * exponentiation (ecopt_fe_pow22523_x2), the choice between them made by masks. The field's bounds (fe.h): a sum
 * that feeds another sum is carried first. */
#include "curve/h2c_map.h"

#include <string.h>

#include "ct.h"
#include "ecopt/edwards25519.h"

/* J = 486662, the Montgomery coefficient A of curve25519 (RFC 7748 section 4.1; RFC 9380 section 6.7.1 with K = 1),
 * little-endian. */
static const uint8_t j_bytes[32] = {0x06, 0x6d, 0x07};

/* c1 = sqrt(-486664) mod p, the root with sgn0(c1) = 0 (even) that RFC 9380 section 6.8.2 prescribes for
 * edwards25519's rational map: 6853475219497561581579357271197624642482790079785650197046958215289687604742,
 * little-endian; the RFC's vectors and tests/curve/test_h2c.c's GMP map (which finds its own root) depend on it. */
static const uint8_t c1_bytes[32] = {
    0x06, 0x7e, 0x45, 0xff, 0xaa, 0x04, 0x6e, 0xcc, 0x82, 0x1a, 0x7d, 0x4b, 0xd1, 0xd3, 0xa1, 0xc5,
    0x7e, 0x4f, 0xfc, 0x03, 0xdc, 0x08, 0x7b, 0xd2, 0xbb, 0x06, 0xa0, 0x60, 0xf4, 0xed, 0x26, 0x0f};

/* 2^255 = 19 and 2^256 = 38 mod p: OS2IP(b) = hi 2^256 + lo with hi the first 16 bytes and lo the last 32, and
 * lo = lo' + 2^255 top, so OS2IP(b) = 38 hi + lo' + 19 top (mod p). frombytes ignores bit 255 (lo' is what it
 * reads) and accepts values up to 2^255 - 1; hi < 2^128, and mul_small takes any constant below 2^20. */
void ecopt_h2c_fe_from_bytes48(ecopt_fe *h, const uint8_t b[48]) {
    uint8_t lo[32], hi[32] = {0}, top[32] = {0};
    ecopt_fe a, c, e;
    for (int i = 0; i < 32; i++) lo[i] = b[47 - i];
    for (int i = 0; i < 16; i++) hi[i] = b[15 - i];
    top[0] = (uint8_t)(19u & (0u - (unsigned)(lo[31] >> 7)));
    ecopt_fe_frombytes(&a, lo);
    ecopt_fe_frombytes(&c, hi);
    ecopt_fe_mul_small(&c, &c, 38);
    ecopt_fe_frombytes(&e, top);
    ecopt_fe_add(h, &a, &c);
    ecopt_fe_carry(h, h);
    ecopt_fe_add(h, h, &e);
    ecopt_fe_carry(h, h);
    ecopt_memzero_explicit(lo, sizeof lo);
    ecopt_memzero_explicit(hi, sizeof hi);
    ecopt_memzero_explicit(top, sizeof top);
    ecopt_memzero_explicit(&a, sizeof a);
    ecopt_memzero_explicit(&c, sizeof c);
}

/* g(x) = x^3 + J x^2 + x = x (x (x + J) + 1). */
static void curve_g(ecopt_fe *g, const ecopt_fe *x, const ecopt_fe *j, const ecopt_fe *one) {
    ecopt_fe t;
    ecopt_fe_add(&t, x, j);
    ecopt_fe_mul(&t, &t, x);
    ecopt_fe_add(&t, &t, one);
    ecopt_fe_mul(g, &t, x);
}

/* Section 6.7.1, steps 1-10 with Z = 2, K = 1:
 *   x1 = -J / (1 + 2 u^2): 1 + 2 u^2 is never 0 (-1/2 is not a square: -1 is and 2 is not, p = 5 mod 8), so inv0
 *        is a plain inverse and x1 != 0 (J != 0): step 2's exceptional case never arises;
 *   x2 = -x1 - J, and g(x2) = Z u^2 g(x1) (section 6.7.1): with Z = 2 not a square, exactly one of g(x1), g(x2)
 *        is a square when u != 0; for u = 0, x2 = 0 and g(x2) = 0 is one. The choice below takes x1 whenever
 *        g(x1) is a square, as step 6 does.
 * A square root of a (p = 5 mod 8): r = a^((p+3)/8) = a a^((p-5)/8); r^2 = a, or r^2 = -a and r sqrt(-1) is one;
 * otherwise a is not a square. y = the root with sgn0(y) = 1 for x1, sgn0(y) = 0 for x2 (steps 6 and 7). */
void ecopt_h2c_elligator2(ecopt_fe *s, ecopt_fe *t, const ecopt_fe *u) {
    ecopt_fe one, j, d, x1, x2, g[2], y[2], chk, neg, yi;
    uint64_t sq[2];
    ecopt_fe_1(&one);
    ecopt_fe_frombytes(&j, j_bytes);

    ecopt_fe_sq(&d, u);
    ecopt_fe_add(&d, &d, &d);
    ecopt_fe_carry(&d, &d);
    ecopt_fe_add(&d, &d, &one);          /* 1 + Z u^2 */
    ecopt_fe_invert(&d, &d);
    ecopt_fe_mul(&x1, &d, &j);
    ecopt_fe_neg(&x1, &x1);              /* x1 = -J / (1 + Z u^2) */
    ecopt_fe_add(&x2, &x1, &j);
    ecopt_fe_neg(&x2, &x2);              /* x2 = -x1 - J */
    curve_g(&g[0], &x1, &j, &one);
    curve_g(&g[1], &x2, &j, &one);

    ecopt_fe_pow22523_x2(y, g);
    for (int k = 0; k < 2; k++) {
        ecopt_fe_mul(&y[k], &y[k], &g[k]); /* g^((p+3)/8) */
        ecopt_fe_sq(&chk, &y[k]);
        ecopt_fe_neg(&neg, &g[k]);
        uint64_t root = ecopt_fe_eq(&chk, &g[k]);
        uint64_t root_i = ecopt_fe_eq(&chk, &neg);
        ecopt_fe_mul(&yi, &y[k], &ecopt_fe_sqrtm1);
        ecopt_fe_cmov(&y[k], &yi, root_i & (root ^ 1));
        sq[k] = root | root_i;
    }
    uint64_t e1 = sq[0];
    ecopt_fe_copy(s, &x2);
    ecopt_fe_cmov(s, &x1, e1);
    ecopt_fe_copy(t, &y[1]);
    ecopt_fe_cmov(t, &y[0], e1);
    /* sgn0(t) must be e1 */
    ecopt_fe_neg(&neg, t);
    ecopt_fe_cmov(t, &neg, ecopt_fe_is_negative(t) ^ e1);

    ecopt_memzero_explicit(&d, sizeof d);
    ecopt_memzero_explicit(&x1, sizeof x1);
    ecopt_memzero_explicit(&x2, sizeof x2);
    ecopt_memzero_explicit(g, sizeof g);
    ecopt_memzero_explicit(y, sizeof y);
    ecopt_memzero_explicit(&chk, sizeof chk);
    ecopt_memzero_explicit(&neg, sizeof neg);
    ecopt_memzero_explicit(&yi, sizeof yi);
}

/* (x, y) = (c1 s / t, (s - 1) / (s + 1)) in extended coordinates without an inversion:
 * X = c1 s (s + 1), Y = (s - 1) t, Z = t (s + 1), T = c1 s (s - 1), so X / Z = c1 s / t, Y / Z = (s - 1) / (s + 1)
 * and T Z = X Y. Z = 0 exactly in the exceptional cases t = 0 or s = -1, which give the identity (RFC 9380
 * appendix G.2.2). */
void ecopt_h2c_map_to_edwards(ecopt_ge_ext *r, const ecopt_fe *u) {
    ecopt_fe s, t, one, c1, sp1, sm1, c1s;
    ecopt_ge_ext id;
    ecopt_h2c_elligator2(&s, &t, u);
    ecopt_fe_1(&one);
    ecopt_fe_frombytes(&c1, c1_bytes);
    ecopt_fe_add(&sp1, &s, &one);
    ecopt_fe_sub(&sm1, &s, &one);
    ecopt_fe_mul(&c1s, &c1, &s);
    ecopt_fe_mul(&r->X, &c1s, &sp1);
    ecopt_fe_mul(&r->Y, &sm1, &t);
    ecopt_fe_mul(&r->Z, &t, &sp1);
    ecopt_fe_mul(&r->T, &c1s, &sm1);
    uint64_t e = ecopt_fe_is_zero(&r->Z);
    ecopt_ge_identity(&id);
    ecopt_fe_cmov(&r->X, &id.X, e);
    ecopt_fe_cmov(&r->Y, &id.Y, e);
    ecopt_fe_cmov(&r->Z, &id.Z, e);
    ecopt_fe_cmov(&r->T, &id.T, e);
    ecopt_memzero_explicit(&s, sizeof s);
    ecopt_memzero_explicit(&t, sizeof t);
    ecopt_memzero_explicit(&sp1, sizeof sp1);
    ecopt_memzero_explicit(&sm1, sizeof sm1);
    ecopt_memzero_explicit(&c1s, sizeof c1s);
}

/* u = (Z + Y) / (Z - Y) = (Z + Y) X / ((Z - Y) X) and v = c1 u / x = c1 (Z + Y) Z / ((Z - Y) X): one inversion of
 * (Z - Y) X, which is 0 exactly when x = 0 (y = 1 means x = 0 on the curve), and the inversion's 0 for 0 then
 * gives u = v = 0. */
void ecopt_h2c_to_montgomery(uint8_t u[32], uint8_t *v, const ecopt_ge_ext *p) {
    ecopt_fe zpy, zmy, inv, a, c1;
    ecopt_fe_add(&zpy, &p->Z, &p->Y);
    ecopt_fe_sub(&zmy, &p->Z, &p->Y);
    ecopt_fe_mul(&inv, &zmy, &p->X);
    ecopt_fe_invert(&inv, &inv);
    ecopt_fe_mul(&a, &zpy, &p->X);
    ecopt_fe_mul(&a, &a, &inv);
    ecopt_fe_tobytes(u, &a);
    if (v != NULL) { /* public choice of the caller */
        ecopt_fe_frombytes(&c1, c1_bytes);
        ecopt_fe_mul(&a, &zpy, &p->Z);
        ecopt_fe_mul(&a, &a, &c1);
        ecopt_fe_mul(&a, &a, &inv);
        ecopt_fe_tobytes(v, &a);
    }
    ecopt_memzero_explicit(&zpy, sizeof zpy);
    ecopt_memzero_explicit(&zmy, sizeof zmy);
    ecopt_memzero_explicit(&inv, sizeof inv);
    ecopt_memzero_explicit(&a, sizeof a);
}

/* clear_cofactor(sum of map_to_curve(u_i)), h_eff = 8: three doublings (RFC 9380 section 8.5). */
static void map_sum_cleared(ecopt_ge_ext *r, const uint8_t *uniform, size_t count) {
    ecopt_fe u;
    ecopt_ge_ext q;
    ecopt_ge_cached c;
    ecopt_ge_identity(r);
    for (size_t i = 0; i < count; i++) {
        ecopt_h2c_fe_from_bytes48(&u, uniform + 48 * i);
        ecopt_h2c_map_to_edwards(&q, &u);
        ecopt_ge_cached_from_ext(&c, &q);
        ecopt_ge_add(r, r, &c);
    }
    ecopt_ge_double(r, r, 0);
    ecopt_ge_double(r, r, 0);
    ecopt_ge_double(r, r, 1);
    ecopt_memzero_explicit(&u, sizeof u);
    ecopt_memzero_explicit(&q, sizeof q);
    ecopt_memzero_explicit(&c, sizeof c);
}

static void op_edwards25519(ecopt_edwards25519_point *p, const uint8_t *uniform, size_t count) {
    ecopt_ge_ext r;
    map_sum_cleared(&r, uniform, count);
    ecopt_ge_to_public(p, &r);
    ecopt_memzero_explicit(&r, sizeof r);
}

static void op_curve25519(uint8_t u[32], uint8_t *v, const uint8_t *uniform, size_t count) {
    ecopt_ge_ext r;
    map_sum_cleared(&r, uniform, count);
    ecopt_h2c_to_montgomery(u, v, &r);
    ecopt_memzero_explicit(&r, sizeof r);
}

const ecopt_h2c_ops ecopt_h2c_ops_be = {
    .edwards25519 = op_edwards25519,
    .curve25519 = op_curve25519,
};
