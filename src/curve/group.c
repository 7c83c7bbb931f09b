/* group.c — the edwards25519 point operations of the public group API on one backend (group.h has the contracts;
 * include/ecopt/edwards25519.h the public ones). Each operation reads its points from the public type, computes
 * with ge.h's extended coordinates and writes the result back; secret intermediates are wiped before return. */
#include "field/fe.h"

#include "curve/group.h"

#include "bytes.h"
#include "ct.h"
#include "curve/ge.h"
#include "curve/scalar.h"
#include "ecopt/edwards25519.h"

typedef unsigned __int128 u128;
typedef struct ecopt_edwards25519_point pub_pt;

/* l = 2^252 + c, c = 27742317777372353535851937790883648493 (RFC 8032 section 5.1), as 4 little-endian limbs. */
#define L0 0x5812631a5cf5d3edULL
#define L1 0x14def9dea2f79cd6ULL
static const uint8_t L_BYTES[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                    0xa2, 0xde, 0xf9, 0xde, 0x14, 0,    0,    0,    0,    0,    0,
                                    0,    0,    0,    0,    0,    0,    0,    0,    0,    0x10};

static int g_decode(pub_pt *r, const uint8_t s[32], int zip215) {
    ecopt_ge_ext p;
    int ok = zip215 ? ecopt_ge_decode_zip215(&p, s) : ecopt_ge_decode(&p, s); /* zip215 is public */
    /* The verdict is the function's result (public by contract); the dispatcher branches on it. */
    ecopt_ct_declassify(&ok, sizeof ok);
    ecopt_ge_to_public(r, &p);
    ecopt_memzero_explicit(&p, sizeof p);
    return ok;
}

static void g_encode(uint8_t s[32], const pub_pt *p) {
    ecopt_ge_ext q;
    ecopt_ge_from_public(&q, p);
    ecopt_ge_encode(s, &q);
    ecopt_memzero_explicit(&q, sizeof q);
}

static void g_base(pub_pt *r) {
    ecopt_ge_ext b;
    ecopt_ge_base(&b);
    ecopt_ge_to_public(r, &b);
}

/* r = p + q (sub = 0) or p - q (sub = 1; public choice). */
static void add_or_sub_public(pub_pt *r, const pub_pt *p, const pub_pt *q, int sub) {
    ecopt_ge_ext a, b;
    ecopt_ge_cached bc;
    ecopt_ge_from_public(&a, p);
    ecopt_ge_from_public(&b, q);
    ecopt_ge_cached_from_ext(&bc, &b);
    if (sub)
        ecopt_ge_sub(&a, &a, &bc);
    else
        ecopt_ge_add(&a, &a, &bc);
    ecopt_ge_to_public(r, &a);
    ecopt_memzero_explicit(&a, sizeof a);
    ecopt_memzero_explicit(&b, sizeof b);
    ecopt_memzero_explicit(&bc, sizeof bc);
}

static void g_add(pub_pt *r, const pub_pt *p, const pub_pt *q) {
    add_or_sub_public(r, p, q, 0);
}

static void g_sub(pub_pt *r, const pub_pt *p, const pub_pt *q) {
    add_or_sub_public(r, p, q, 1);
}

static void g_neg(pub_pt *r, const pub_pt *p) {
    ecopt_ge_ext a;
    ecopt_ge_from_public(&a, p);
    ecopt_ge_neg(&a, &a);
    ecopt_ge_to_public(r, &a);
    ecopt_memzero_explicit(&a, sizeof a);
}

static void g_dbl(pub_pt *r, const pub_pt *p) {
    ecopt_ge_ext a;
    ecopt_ge_from_public(&a, p);
    ecopt_ge_double(&a, &a, 1);
    ecopt_ge_to_public(r, &a);
    ecopt_memzero_explicit(&a, sizeof a);
}

/* (X1 : Y1 : Z1) = (X2 : Y2 : Z2) exactly when X1 Z2 = X2 Z1 and Y1 Z2 = Y2 Z1 (Z1, Z2 nonzero on every point). */
static int g_equal(const pub_pt *p, const pub_pt *q) {
    ecopt_ge_ext a, b;
    ecopt_fe l, r;
    ecopt_ge_from_public(&a, p);
    ecopt_ge_from_public(&b, q);
    ecopt_fe_mul(&l, &a.X, &b.Z);
    ecopt_fe_mul(&r, &b.X, &a.Z);
    uint64_t eq = ecopt_fe_eq(&l, &r);
    ecopt_fe_mul(&l, &a.Y, &b.Z);
    ecopt_fe_mul(&r, &b.Y, &a.Z);
    eq &= ecopt_fe_eq(&l, &r);
    ecopt_memzero_explicit(&a, sizeof a);
    ecopt_memzero_explicit(&b, sizeof b);
    ecopt_memzero_explicit(&l, sizeof l);
    ecopt_memzero_explicit(&r, sizeof r);
    return (int)eq;
}

static int g_is_identity(const pub_pt *p) {
    ecopt_ge_ext a;
    ecopt_ge_from_public(&a, p);
    int r = (int)ecopt_ge_is_identity(&a);
    ecopt_memzero_explicit(&a, sizeof a);
    return r;
}

/* [s]p for any s < 2^256, where ecopt_ge_scalarmult takes s < 2^255. Write s = s' + b 2^255 (s' < 2^255, b the top
 * bit) and l = 2^252 + c: 8 l = 2^255 + 8c, and [8 l] is the identity map on the curve (its group has order 8 l),
 * so [s]p = [s' - 8 b c]p. d = s' - 8 b c lies in (-2^128, 2^255) (8c < 2^128), so |d| < 2^255 and
 * [s]p = sign(d) [|d|]p. Everything by masks: the subtrahend is 8c ANDed with b's mask, the sign is the final
 * borrow, |d| = (d XOR m) + (m & 1) for the sign's mask m, and the negation of the result is a cmov. */
static void g_scalarmult(pub_pt *r, const uint8_t s[32], const pub_pt *p) {
    static const uint64_t C8[4] = {L0 << 3, (L1 << 3) | (L0 >> 61), L1 >> 61, 0};
    uint64_t d[4], borrow = 0;
    uint8_t k[32];
    ecopt_ge_ext a, q, nq;
    uint64_t bm = ecopt_ct_mask((uint64_t)(s[31] >> 7));
    for (int i = 0; i < 4; i++) {
        uint64_t si = ecopt_load64_le(s + 8 * i);
        if (i == 3) si &= 0x7fffffffffffffffULL;
        u128 t = (u128)si - (C8[i] & bm) - borrow;
        d[i] = (uint64_t)t;
        borrow = (uint64_t)(t >> 64) & 1;
    }
    uint64_t neg = borrow, nm = ecopt_ct_mask(neg), carry = neg;
    for (int i = 0; i < 4; i++) {
        u128 t = (u128)(d[i] ^ nm) + carry;
        d[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
        ecopt_store64_le(k + 8 * i, d[i]);
    }
    ecopt_ge_from_public(&a, p);
    ecopt_ge_scalarmult(&q, &a, k);
    ecopt_ge_neg(&nq, &q);
    ecopt_fe_cmov(&q.X, &nq.X, neg);
    ecopt_fe_cmov(&q.T, &nq.T, neg);
    ecopt_ge_to_public(r, &q);
    ecopt_memzero_explicit(d, sizeof d);
    ecopt_memzero_explicit(k, sizeof k);
    ecopt_memzero_explicit(&a, sizeof a);
    ecopt_memzero_explicit(&q, sizeof q);
    ecopt_memzero_explicit(&nq, sizeof nq);
}

static void g_scalarmult_base(pub_pt *r, const uint8_t s[32]) {
    ecopt_ge_ext q;
    ecopt_ge_scalarmult_base(&q, s); /* any s < 2^256 (ge.h) */
    ecopt_ge_to_public(r, &q);
    ecopt_memzero_explicit(&q, sizeof q);
}

/* [a]p + [b]B, vartime, for any a, b < 2^256 (ge.h). b is reduced mod l first ([b]B = [b mod l]B, B of order l),
 * which keeps its NAF to 254 digits; a is used as it is: [a]p must be exact for a p with a small-order part. */
static void g_double_scalarmult_vartime(pub_pt *r, const uint8_t a[32], const pub_pt *p, const uint8_t b[32]) {
    uint8_t wide[64] = {0}, br[32];
    ecopt_ge_ext q;
    for (int i = 0; i < 32; i++) wide[i] = b[i];
    ecopt_scalar_reduce64(br, wide);
    ecopt_ge_from_public(&q, p);
    ecopt_ge_double_scalarmult_vartime(&q, a, &q, br);
    ecopt_ge_to_public(r, &q);
}

static void g_mul_by_cofactor(pub_pt *r, const pub_pt *p) {
    ecopt_ge_ext a;
    ecopt_ge_from_public(&a, p);
    ecopt_ge_double(&a, &a, 0);
    ecopt_ge_double(&a, &a, 0);
    ecopt_ge_double(&a, &a, 1);
    ecopt_ge_to_public(r, &a);
    ecopt_memzero_explicit(&a, sizeof a);
}

static int g_is_small_order(const pub_pt *p) {
    ecopt_ge_ext a;
    ecopt_ge_from_public(&a, p);
    int r = (int)ecopt_ge_has_small_order(&a);
    ecopt_memzero_explicit(&a, sizeof a);
    return r;
}

/* [l]p = identity, with the constant-time multiplication (l < 2^255, the public constant). */
static int g_is_torsion_free(const pub_pt *p) {
    ecopt_ge_ext a;
    ecopt_ge_from_public(&a, p);
    ecopt_ge_scalarmult(&a, &a, L_BYTES);
    int r = (int)ecopt_ge_is_identity(&a);
    ecopt_memzero_explicit(&a, sizeof a);
    return r;
}

/* u = (1 + y) / (1 - y) = (Z + Y) / (Z - Y). For y = 1 (the identity) Z - Y = 0, whose inverse is 0
 * (ecopt_fe_invert), so u = 0, the documented value. */
static void g_to_montgomery_u(uint8_t u[32], const pub_pt *p) {
    ecopt_ge_ext a;
    ecopt_fe n, d;
    ecopt_ge_from_public(&a, p);
    ecopt_fe_add(&n, &a.Z, &a.Y);
    ecopt_fe_sub(&d, &a.Z, &a.Y);
    ecopt_fe_invert(&d, &d);
    ecopt_fe_mul(&n, &n, &d);
    ecopt_fe_tobytes(u, &n);
    ecopt_memzero_explicit(&a, sizeof a);
    ecopt_memzero_explicit(&n, sizeof n);
    ecopt_memzero_explicit(&d, sizeof d);
}

/* y = (u - 1) / (u + 1), then the point with that y and x's low bit = sign, through the ZIP-215 decoding of its
 * encoding: y is canonical here (tobytes), so the two decodings differ only for x = 0, where ZIP-215 ignores the
 * sign as documented. u must be canonical (the re-encoding of u mod p equals all 32 bytes, bit 255 included) and
 * u + 1 nonzero. */
static int g_from_montgomery_u(pub_pt *r, const uint8_t u[32], uint64_t sign) {
    ecopt_fe U, one, num, den;
    ecopt_ge_ext q;
    uint8_t canon[32], enc[32];
    ecopt_fe_frombytes(&U, u);
    ecopt_fe_tobytes(canon, &U);
    uint64_t ok = ecopt_ct_bytes_eq(canon, u, 32);
    ecopt_fe_1(&one);
    ecopt_fe_sub(&num, &U, &one);
    ecopt_fe_add(&den, &U, &one);
    ecopt_fe_carry(&den, &den);
    ok &= ecopt_fe_is_zero(&den) ^ 1;
    ecopt_fe_invert(&den, &den);
    ecopt_fe_mul(&num, &num, &den);
    ecopt_fe_tobytes(enc, &num);
    enc[31] = (uint8_t)(enc[31] | (sign << 7));
    ok &= (uint64_t)ecopt_ge_decode_zip215(&q, enc);
    int verdict = (int)ok;
    ecopt_ct_declassify(&verdict, sizeof verdict); /* the result, public by contract */
    ecopt_ge_to_public(r, &q);
    ecopt_memzero_explicit(&U, sizeof U);
    ecopt_memzero_explicit(&num, sizeof num);
    ecopt_memzero_explicit(&den, sizeof den);
    ecopt_memzero_explicit(&q, sizeof q);
    ecopt_memzero_explicit(canon, sizeof canon);
    ecopt_memzero_explicit(enc, sizeof enc);
    return verdict;
}

const ecopt_group_ops ecopt_group_ops_table = {
    .decode = g_decode,
    .encode = g_encode,
    .base = g_base,
    .add = g_add,
    .sub = g_sub,
    .neg = g_neg,
    .dbl = g_dbl,
    .equal = g_equal,
    .is_identity = g_is_identity,
    .scalarmult = g_scalarmult,
    .scalarmult_base = g_scalarmult_base,
    .double_scalarmult_vartime = g_double_scalarmult_vartime,
    .mul_by_cofactor = g_mul_by_cofactor,
    .is_small_order = g_is_small_order,
    .is_torsion_free = g_is_torsion_free,
    .to_montgomery_u = g_to_montgomery_u,
    .from_montgomery_u = g_from_montgomery_u,
};
