/* ge.c — edwards25519 group operations (see ge.h for coordinates, formulas and contracts). */
#include "curve/ge.h"

#include <pthread.h>
#include <string.h>

#include "ct.h"
#include "ecopt/edwards25519.h"
#include "curve/ge_formulas.h"
#include "curve/ge_recode.h"
#include "curve/scalar.h"
#include "curve/generated/ge_base_table.h"

/* ECOPT_GE_FUSED: the adx51 and adx backends' whole-formula functions (fused_adx51.h, fused_adx.h) replace the C
 * formulas of ge_formulas.h, which then stay as the other backends' code (and adx51's and adx's when built with
 * -DECOPT_ADX_FUSED=OFF). fused_madd etc. name the including backend's functions: the same shapes and aliasing,
 * 5 limbs of 51 bits in adx51, 4 of 64 in adx (each ecopt_fe.v). */
#if defined(ECOPT_FE_BACKEND_adx51) && defined(ECOPT_ADX_FUSED)
#include "curve/fused_adx51.h"
#define ECOPT_GE_FUSED 1
#define fused_madd ecopt_ge_madd_fused_adx51
#define fused_add ecopt_ge_add_fused_adx51
#define fused_double ecopt_ge_double_fused_adx51
#define fused_double_xyz ecopt_ge_double_xyz_fused_adx51
#elif defined(ECOPT_FE_BACKEND_adx) && defined(ECOPT_ADX_FUSED)
#include "curve/fused_adx.h"
#define ECOPT_GE_FUSED 1
#define fused_madd ecopt_ge_madd_fused_adx
#define fused_add ecopt_ge_add_fused_adx
#define fused_double ecopt_ge_double_fused_adx
#define fused_double_xyz ecopt_ge_double_xyz_fused_adx
#elif defined(ECOPT_FE_BACKEND_x64) && defined(ECOPT_ADX_FUSED)
#include "curve/fused_adx.h"
#define ECOPT_GE_FUSED 1
#define fused_madd ecopt_ge_madd_fused_x64
#define fused_add ecopt_ge_add_fused_x64
#define fused_double ecopt_ge_double_fused_x64
#define fused_double_xyz ecopt_ge_double_xyz_fused_x64
#else
#define ECOPT_GE_FUSED 0
#endif

/* ECOPT_GE_IFMA (ge.h): the fixed-base multiplication and the verification equation run on the four-lane formulas
 * (curve/ifma/ge4.c); the one-lane code below stays under the names ..._1way, for the tests to compare with. */
#if ECOPT_GE_IFMA
#include "curve/ifma/ge4.h"
#define SCALARMULT_BASE_1WAY ecopt_ge_scalarmult_base_1way
#define COFACTORED_EQ_1WAY ecopt_ge_cofactored_eq_1way_vartime
void ecopt_ge_scalarmult_base(ecopt_ge_ext *r, const uint8_t s[32]) {
    ecopt_ge4_scalarmult_base(r, s);
}
int ecopt_ge_cofactored_eq_vartime(const ecopt_ge_ext *A, const ecopt_ge_ext *R, const uint8_t k[32],
                                   const uint8_t s[32]) {
    return ecopt_ge4_cofactored_eq_vartime(A, R, k, s);
}
#else
#define SCALARMULT_BASE_1WAY ecopt_ge_scalarmult_base
#define COFACTORED_EQ_1WAY ecopt_ge_cofactored_eq_vartime
#endif

void ecopt_ge_identity(ecopt_ge_ext *r) {
    ecopt_fe_0(&r->X);
    ecopt_fe_1(&r->Y);
    ecopt_fe_1(&r->Z);
    ecopt_fe_0(&r->T);
}

void ecopt_ge_base(ecopt_ge_ext *r) {
    ecopt_fe_copy(&r->X, &ecopt_fe_base_x);
    ecopt_fe_copy(&r->Y, &ecopt_fe_base_y);
    ecopt_fe_1(&r->Z);
    ecopt_fe_copy(&r->T, &ecopt_fe_base_t);
}

void ecopt_ge_cached_from_ext(ecopt_ge_cached *r, const ecopt_ge_ext *p) {
    ecopt_fe_add(&r->YpX, &p->Y, &p->X);
    ecopt_fe_sub(&r->YmX, &p->Y, &p->X);
    ecopt_fe_add(&r->Z2, &p->Z, &p->Z);
    ecopt_fe_mul(&r->T2d, &p->T, &ecopt_fe_d2);
}


void ecopt_ge_add(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_cached *q) {
#if ECOPT_GE_FUSED
    fused_add(r->X.v, r->Y.v, r->Z.v, r->T.v, p->X.v, p->Y.v, p->Z.v, p->T.v, q->YpX.v, q->YmX.v, q->Z2.v,
              q->T2d.v);
#else
    add_or_sub(r, p, q, 0);
#endif
}

void ecopt_ge_sub(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_cached *q) {
#if ECOPT_GE_FUSED
    /* p - q = p + (-q), -q = (Y-X, Y+X, 2Z, -2dT) in cached form; the fused addition takes all four loose (adx:
     * any 256-bit values, ecopt_fe_neg's output among them). */
    ecopt_fe negt;
    ecopt_fe_neg(&negt, &q->T2d);
    fused_add(r->X.v, r->Y.v, r->Z.v, r->T.v, p->X.v, p->Y.v, p->Z.v, p->T.v, q->YmX.v, q->YpX.v, q->Z2.v,
              negt.v);
#else
    add_or_sub(r, p, q, 1);
#endif
}


void ecopt_ge_double(ecopt_ge_ext *r, const ecopt_ge_ext *p, int with_t) {
#if ECOPT_GE_FUSED
    /* The same formula (adx51: with C = 2 Z1^2 computed as Z1 (Z1 + Z1), src/curve/formulas/ge_double_adx51.ir). */
    if (with_t)
        fused_double(r->X.v, r->Y.v, r->Z.v, r->T.v, p->X.v, p->Y.v, p->Z.v);
    else
        fused_double_xyz(r->X.v, r->Y.v, r->Z.v, p->X.v, p->Y.v, p->Z.v);
#else
    double_c(r, p, with_t);
#endif
}

void ecopt_ge_neg(ecopt_ge_ext *r, const ecopt_ge_ext *p) {
    ecopt_fe_neg(&r->X, &p->X);
    ecopt_fe_copy(&r->Y, &p->Y);
    ecopt_fe_copy(&r->Z, &p->Z);
    ecopt_fe_neg(&r->T, &p->T);
}

void ecopt_ge_encode(uint8_t s[32], const ecopt_ge_ext *p) {
    ecopt_fe zi, x, y;
    ecopt_fe_invert(&zi, &p->Z);
    ecopt_fe_mul(&x, &p->X, &zi);
    ecopt_fe_mul(&y, &p->Y, &zi);
    ecopt_fe_tobytes(s, &y);
    s[31] |= (uint8_t)(ecopt_fe_is_negative(&x) << 7);
}

/* strict = 1: RFC 8032 section 5.1.3 with both canonical checks; strict = 0: ZIP-215's reading, where y is taken
 * mod p and x = 0 with the sign bit set decodes to x = 0. strict is public. decode_lanes decodes `lanes` (1 or 2,
 * public) encodings s[k] into r[k], ok[k] as ecopt_ge_decode's return; with two, the square-root exponentiations run
 * interleaved (ecopt_fe_pow22523_x2): verification decodes A and R, and the two chains overlapped save about a
 * quarter of their ticks. */
static void decode_lanes(ecopt_ge_ext *r, int *ok_out, const uint8_t *const *s, int lanes, int strict) {
    ecopt_fe y[2], u[2], v[2], v3[2], t[2], x, vx2, negu, xi;
    uint64_t ok[2], sign[2];

    for (int k = 0; k < lanes; k++) {
        uint8_t masked[32], canon[32];
        sign[k] = s[k][31] >> 7;
        /* y < p: the canonical re-encoding of y equals the received bytes (bit 255 aside). */
        memcpy(masked, s[k], 32);
        masked[31] &= 127;
        ecopt_fe_frombytes(&y[k], s[k]);
        ecopt_fe_tobytes(canon, &y[k]);
        ok[k] = strict ? ecopt_ct_bytes_eq(canon, masked, 32) : 1;

        /* x^2 = u / v with u = y^2 - 1, v = d y^2 + 1; candidate x = u v^3 (u v^7)^((p-5)/8) (RFC 8032 5.1.3). */
        ecopt_fe_sq(&t[k], &y[k]);
        ecopt_fe_1(&u[k]);
        ecopt_fe_mul(&v[k], &t[k], &ecopt_fe_d);
        ecopt_fe_add(&v[k], &v[k], &u[k]);
        ecopt_fe_carry(&v[k], &v[k]);
        ecopt_fe_sub(&u[k], &t[k], &u[k]);
        ecopt_fe_sq(&v3[k], &v[k]);
        ecopt_fe_mul(&v3[k], &v3[k], &v[k]); /* v^3 */
        ecopt_fe_sq(&t[k], &v3[k]);
        ecopt_fe_mul(&t[k], &t[k], &v[k]);   /* v^7 */
        ecopt_fe_mul(&t[k], &t[k], &u[k]);   /* u v^7 */
    }
    if (lanes == 2)
        ecopt_fe_pow22523_x2(t, t);
    else
        ecopt_fe_pow22523(&t[0], &t[0]);

    for (int k = 0; k < lanes; k++) {
        ecopt_fe_mul(&t[k], &t[k], &v3[k]);
        ecopt_fe_mul(&x, &t[k], &u[k]); /* u v^3 (u v^7)^((p-5)/8) */

        /* v x^2 = u: x is a root; v x^2 = -u: x sqrt(-1) is; otherwise u/v is not a square. */
        ecopt_fe_sq(&t[k], &x);
        ecopt_fe_mul(&vx2, &t[k], &v[k]);
        ecopt_fe_neg(&negu, &u[k]);
        uint64_t root = ecopt_fe_eq(&vx2, &u[k]);
        uint64_t root_i = ecopt_fe_eq(&vx2, &negu);
        ecopt_fe_mul(&xi, &x, &ecopt_fe_sqrtm1);
        ecopt_fe_cmov(&x, &xi, root_i & (root ^ 1));
        ok[k] &= root | root_i;

        /* x = 0 with the sign bit set is a non-canonical encoding (RFC 8032 5.1.3 step 4). */
        if (strict) ok[k] &= (ecopt_fe_is_zero(&x) & sign[k]) ^ 1;
        ecopt_fe_neg(&t[k], &x);
        ecopt_fe_cmov(&x, &t[k], ecopt_fe_is_negative(&x) ^ sign[k]);

        ecopt_fe_copy(&r[k].X, &x);
        ecopt_fe_copy(&r[k].Y, &y[k]);
        ecopt_fe_1(&r[k].Z);
        ecopt_fe_mul(&r[k].T, &x, &y[k]);
        ecopt_ge_ext id;
        ecopt_ge_identity(&id);
        ecopt_fe_cmov(&r[k].X, &id.X, ok[k] ^ 1);
        ecopt_fe_cmov(&r[k].Y, &id.Y, ok[k] ^ 1);
        ecopt_fe_cmov(&r[k].T, &id.T, ok[k] ^ 1);
        ok_out[k] = (int)ok[k];
    }
}

int ecopt_ge_decode(ecopt_ge_ext *r, const uint8_t s[32]) {
    int ok;
    decode_lanes(r, &ok, &s, 1, 1);
    return ok;
}

int ecopt_ge_decode_zip215(ecopt_ge_ext *r, const uint8_t s[32]) {
    int ok;
    decode_lanes(r, &ok, &s, 1, 0);
    return ok;
}

void ecopt_ge_decode_x2(ecopt_ge_ext r[2], int ok[2], const uint8_t s0[32], const uint8_t s1[32], int zip215) {
    const uint8_t *s[2] = {s0, s1};
    decode_lanes(r, ok, s, 2, !zip215);
}

uint64_t ecopt_ge_is_identity(const ecopt_ge_ext *p) {
    return ecopt_fe_is_zero(&p->X) & ecopt_fe_eq(&p->Y, &p->Z);
}

uint64_t ecopt_ge_has_small_order(const ecopt_ge_ext *p) {
    ecopt_ge_ext q;
    ecopt_ge_double(&q, p, 0);
    ecopt_ge_double(&q, &q, 0);
    ecopt_ge_double(&q, &q, 0);
    return ecopt_ge_is_identity(&q);
}

/* ---- constant-time fixed-window scalar multiplication ---------------------------------------------------------- */

/* e[0..63]: s = sum e_i 16^i with e_i in [-8, 8), e_63 in [0, 8] for s < 2^255. Arithmetic only, no branches. */
static void recode_radix16(int8_t e[64], const uint8_t s[32]) {
    for (int i = 0; i < 32; i++) {
        e[2 * i] = (int8_t)(s[i] & 15);
        e[2 * i + 1] = (int8_t)(s[i] >> 4);
    }
    for (int i = 0; i < 63; i++) {
        /* e_i in [0, 16]: carry = 1 exactly when e_i >= 8 ((e_i + 8) >> 4 for a non-negative value). */
        int8_t carry = (int8_t)((e[i] + 8) >> 4);
        e[i] = (int8_t)(e[i] - (carry << 4));
        e[i + 1] = (int8_t)(e[i + 1] + carry);
    }
}

static void cached_cmov(ecopt_ge_cached *r, const ecopt_ge_cached *p, uint64_t bit) {
    ecopt_fe_cmov(&r->YpX, &p->YpX, bit);
    ecopt_fe_cmov(&r->YmX, &p->YmX, bit);
    ecopt_fe_cmov(&r->Z2, &p->Z2, bit);
    ecopt_fe_cmov(&r->T2d, &p->T2d, bit);
}

/* r = [e] table, e in [-8, 8], table[j] = [j+1]P: reads all 8 entries, then negates by mask when e < 0. */
static void table_select(ecopt_ge_cached *r, const ecopt_ge_cached table[8], int8_t e) {
    uint8_t ue = (uint8_t)e;
    uint64_t neg = ue >> 7;
    uint8_t abs = (uint8_t)((ue ^ (uint8_t)(0u - neg)) + neg);
    /* identity: Y+X = 1, Y-X = 1, 2Z = 2, 2dT = 0 */
    ecopt_fe_1(&r->YpX);
    ecopt_fe_1(&r->YmX);
    ecopt_fe_add(&r->Z2, &r->YpX, &r->YmX);
    ecopt_fe_0(&r->T2d);
    for (int j = 0; j < 8; j++) cached_cmov(r, &table[j], ecopt_ct_eq(abs, (uint64_t)(j + 1)));
    ecopt_fe negt;
    ecopt_fe_cswap(&r->YpX, &r->YmX, neg);
    ecopt_fe_neg(&negt, &r->T2d);
    ecopt_fe_cmov(&r->T2d, &negt, neg);
}

void ecopt_ge_scalarmult(ecopt_ge_ext *r, const ecopt_ge_ext *p, const uint8_t s[32]) {
    ecopt_ge_cached table[8], sel;
    ecopt_ge_ext q, acc;
    int8_t e[64];

    ecopt_ge_cached_from_ext(&table[0], p);
    ecopt_ge_double(&q, p, 1);
    ecopt_ge_cached_from_ext(&table[1], &q);
    for (int j = 2; j < 8; j++) {
        ecopt_ge_add(&q, &q, &table[0]);
        ecopt_ge_cached_from_ext(&table[j], &q);
    }
    recode_radix16(e, s);
    ecopt_ge_identity(&acc);
    for (int i = 63; i >= 0; i--) {
        if (i != 63) {
            ecopt_ge_double(&acc, &acc, 0);
            ecopt_ge_double(&acc, &acc, 0);
            ecopt_ge_double(&acc, &acc, 0);
            ecopt_ge_double(&acc, &acc, 1);
        }
        table_select(&sel, table, e[i]);
        ecopt_ge_add(&acc, &acc, &sel);
    }
    *r = acc;
    ecopt_memzero_explicit(e, sizeof e);
    ecopt_memzero_explicit(table, sizeof table);
    ecopt_memzero_explicit(&sel, sizeof sel);
    ecopt_memzero_explicit(&q, sizeof q);
    ecopt_memzero_explicit(&acc, sizeof acc);
}

/* ---- constant-time fixed-base multiplication with the precomputed table ------------------------------------------ */

/* A fixed-base table entry: the Niels point padded to whole 32-byte blocks (128 bytes for 5 limbs of 64 bits,
 * 96 for 4) and aligned to them, so that the constant-time lookup reads it as whole words (ecopt_ct_lookup_words)
 * and the compiler can do that with vector loads. The padding words are zero, except in the adx backend (4 limbs of
 * 64 bits), whose entries are 128 bytes with -2dxy (tight) in words 12..15: its AVX2 selection
 * (niels_select_adx_avx2) picks 2dxy or -2dxy by mask in a vector register instead of negating with a scalar
 * borrow chain after the lookup. */
#if defined(ECOPT_FE_BACKEND_adx)
#define NIELS_WORDS 16
#define NIELS_NEG_XY2D 12 /* the word where -2dxy starts */
#else
#define NIELS_WORDS ((sizeof(ecopt_ge_niels) + 31) / 32 * 4)
#endif
typedef union niels_entry {
    ecopt_ge_niels p;
    uint64_t w[NIELS_WORDS];
} niels_entry;

/* The fixed-base layout (BASE_DIGITS, BASE_ENTRIES, BASE_TOP_ENTRIES): ge_recode.h. */

/* base_table[i][j] = [(j+1) 64^i] B in Niels form, i < 42, and base_top[j] = [(j+1) 64^42] B, decoded once from
 * the committed bytes (generated/). */
static _Alignas(32) niels_entry base_table[BASE_DIGITS - 1][BASE_ENTRIES];
static _Alignas(32) niels_entry base_top[BASE_TOP_ENTRIES];
static pthread_once_t base_table_once = PTHREAD_ONCE_INIT;

/* The x86-64 backends read the rows with 256-bit vectors where the CPU has AVX2 (every CPU with BMI2 and ADX
 * known to us has, but neither implies it, so cpuid decides; __builtin_cpu_supports also checks that the OS saves
 * the YMM state). The choice depends on the CPU alone (public). On 52 lookups of 16 entries it takes about 30%
 * fewer ticks than the SSE2 form. */
#if defined(ECOPT_FE_BACKEND_adx51) || defined(ECOPT_FE_BACKEND_adx) || defined(ECOPT_FE_BACKEND_ifma)
#define BASE_AVX2 1
static int base_avx2;

__attribute__((target("avx2"))) static void row_lookup_avx2(niels_entry *t, const niels_entry *row, size_t n,
                                                             uint64_t index) {
    ecopt_ct_lookup_words_x4(t->w, row[0].w, n, NIELS_WORDS, index);
}
#if defined(ECOPT_FE_BACKEND_adx)
/* niels_select for the adx backend where the CPU has AVX2: each of the entry's four fields (y+x, y-x, 2dxy, -2dxy)
 * is one 32-byte vector, so after the lookup the whole selection stays in vector registers: the identity's 1 ORed
 * into y+x and y-x by mask when abs = 0, the swap of y+x and y-x and the choice of -2dxy by mask when neg = 1, then
 * three 32-byte stores. abs in [0, n], neg in {0, 1} (secret; masks through ecopt_ct_mask). Negating 2dxy after
 * the lookup instead (ecopt_fe_sub, then ecopt_fe_cmov, through the stack) costs about 40% more ticks per
 * selection. */
__attribute__((target("avx2"))) static void niels_select_adx_avx2(ecopt_ge_niels *r, const niels_entry *row,
                                                                   size_t n, uint64_t abs, uint64_t neg) {
    uint64_t w[NIELS_WORDS];
    ecopt_ct_u64x4 a, b, c, nc;
    ecopt_ct_lookup_words_x4(w, row[0].w, n, NIELS_WORDS, abs - 1);
    __builtin_memcpy(&a, w, sizeof a);
    __builtin_memcpy(&b, w + 4, sizeof b);
    __builtin_memcpy(&c, w + 8, sizeof c);
    __builtin_memcpy(&nc, w + NIELS_NEG_XY2D, sizeof nc);
    uint64_t m0 = ecopt_ct_mask(ecopt_ct_eq(abs, 0)), mn = ecopt_ct_mask(neg);
    ecopt_ct_u64x4 id = {m0 & 1, 0, 0, 0}, mnv = {mn, mn, mn, mn};
    a |= id;
    b |= id;
    ecopt_ct_u64x4 x = (a ^ b) & mnv;
    a ^= x;
    b ^= x;
    __builtin_memcpy(r->YpX.v, &a, sizeof a);
    __builtin_memcpy(r->YmX.v, &b, sizeof b);
    c ^= (c ^ nc) & mnv;
    __builtin_memcpy(r->XY2d.v, &c, sizeof c);
}
#endif
#else
#define BASE_AVX2 0
#endif

static void base_table_init(void) {
#if BASE_AVX2
    base_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
    for (int i = 0; i < BASE_DIGITS; i++)
        for (int j = 0; j < (i < BASE_DIGITS - 1 ? BASE_ENTRIES : BASE_TOP_ENTRIES); j++) {
            niels_entry *t = i < BASE_DIGITS - 1 ? &base_table[i][j] : &base_top[j];
            const uint8_t(*b)[32] =
                i < BASE_DIGITS - 1 ? ecopt_ge_base_table_bytes[i][j] : ecopt_ge_base_table_top_bytes[j];
            ecopt_fe_frombytes(&t->p.YpX, b[0]);
            ecopt_fe_frombytes(&t->p.YmX, b[1]);
            ecopt_fe_frombytes(&t->p.XY2d, b[2]);
#if defined(NIELS_NEG_XY2D)
            ecopt_fe nxy;
            ecopt_fe_neg(&nxy, &t->p.XY2d);
            memcpy(&t->w[NIELS_NEG_XY2D], nxy.v, sizeof nxy.v);
#endif
        }
}

void ecopt_ge_madd(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_niels *q) {
#if ECOPT_GE_FUSED
    fused_madd(r->X.v, r->Y.v, r->Z.v, r->T.v, p->X.v, p->Y.v, p->Z.v, p->T.v, q->YpX.v, q->YmX.v, q->XY2d.v);
#else
    madd_c(r, p, q);
#endif
}

/* r = [e] row, e in [-n, n], row[j] = [j+1] P, j < n (n public): reads all n entries whole
 * (ecopt_ct_lookup_words; |e| - 1 wraps to 2^64 - 1 for e = 0, which selects none, and the identity (1, 1, 0) is
 * ORed in by mask instead); negation (-(x, y) = (-x, y) swaps y+x with y-x and negates 2dxy) by mask when e < 0.
 * The negation is 0 - 2dxy with the backend's inline subtraction (tight out, as madd wants), not a call to
 * ecopt_fe_neg. */
static void niels_select(ecopt_ge_niels *r, const niels_entry *row, size_t n, int8_t e) {
    uint8_t ue = (uint8_t)e;
    uint64_t neg = ue >> 7;
    uint8_t abs = (uint8_t)((ue ^ (uint8_t)(0u - neg)) + neg);
    niels_entry t;
    ecopt_fe one, zero, negt;
#if BASE_AVX2 && defined(ECOPT_FE_BACKEND_adx)
    if (base_avx2) { /* public: the CPU's features */
        niels_select_adx_avx2(r, row, n, abs, neg);
        return;
    }
#endif
#if BASE_AVX2
    if (base_avx2)
        row_lookup_avx2(&t, row, n, (uint64_t)abs - 1);
    else
#endif
        ecopt_ct_lookup_words(t.w, row[0].w, n, NIELS_WORDS, (uint64_t)abs - 1);
    ecopt_fe_1(&one);
    ecopt_fe_0(&zero);
    uint64_t m0 = ecopt_ct_mask(ecopt_ct_eq(abs, 0));
    ecopt_fe_or_masked(&t.p.YpX, &one, m0);
    ecopt_fe_or_masked(&t.p.YmX, &one, m0);
    ecopt_fe_cswap(&t.p.YpX, &t.p.YmX, neg);
    ecopt_fe_sub(&negt, &zero, &t.p.XY2d);
    ecopt_fe_cmov(&t.p.XY2d, &negt, neg);
    *r = t.p;
}

/* r = the affine point q = (y+x, y-x, 2dxy) in extended coordinates, as (4x : 4y : 4 : 4xy): 2x = (y+x) - (y-x),
 * 2y = (y+x) + (y-x), T = 2x 2y. 1M, where a mixed addition to the identity costs 7M. Every output tight. */
static void ext_from_niels(ecopt_ge_ext *r, const ecopt_ge_niels *q) {
    static const uint8_t four[32] = {4};
    ecopt_fe x2, y2;
    ecopt_fe_sub(&x2, &q->YpX, &q->YmX);
    ecopt_fe_add(&y2, &q->YpX, &q->YmX);
    ecopt_fe_carry(&y2, &y2);
    ecopt_fe_mul(&r->T, &x2, &y2);
    ecopt_fe_add(&r->X, &x2, &x2);
    ecopt_fe_carry(&r->X, &r->X);
    ecopt_fe_add(&r->Y, &y2, &y2);
    ecopt_fe_carry(&r->Y, &r->Y);
    ecopt_fe_frombytes(&r->Z, four);
}

/* [s]B = sum_i e_i 64^i B, one table row per digit: 43 table lookups (42 of 32 entries, the top digit's of 16), 42
 * mixed additions (the first lookup is converted, not added to the identity), no doubling. The table is
 * (42 x 32 + 16) x 128 bytes = 170 KB in every backend (u32's and the 5-limb entries padded, adx's with -2dxy),
 * decoded at first use from 1360 entries of 96 bytes. Why radix 64: against radix 32 (52 rows of 16 entries,
 * 51 additions) it trades 9 of the 7M mixed additions for twice the bytes per lookup, a gain where an addition
 * costs most (adx51 clearly, adx and u64 slightly); radix 16 (ref10's layout) and 1024^i rows need doublings.
 * adx entries stay 128 bytes with -2dxy stored: 96-byte entries negated after the lookup were no faster. The
 * measurements: CHANGELOG.md. Source: the signed fixed-window method with a table per digit, as in Bernstein, Duif,
 * Lange, Schwabe, Yang, "High-speed high-security signatures" (CHES 2011), section 4, with radix 64 for their
 * radix 16 and no doubling. */
void SCALARMULT_BASE_1WAY(ecopt_ge_ext *r, const uint8_t s[32]) {
    ecopt_ge_niels sel;
    ecopt_ge_ext acc;
    int8_t e[BASE_DIGITS];
    pthread_once(&base_table_once, base_table_init);
    recode_radix64(e, s);
    niels_select(&sel, base_table[0], BASE_ENTRIES, e[0]);
    ext_from_niels(&acc, &sel);
    for (int i = 1; i < BASE_DIGITS - 1; i++) {
        niels_select(&sel, base_table[i], BASE_ENTRIES, e[i]);
        ecopt_ge_madd(&acc, &acc, &sel);
    }
    niels_select(&sel, base_top, BASE_TOP_ENTRIES, e[BASE_DIGITS - 1]);
    ecopt_ge_madd(&acc, &acc, &sel);
    *r = acc;
    ecopt_memzero_explicit(e, sizeof e);
    ecopt_memzero_explicit(&sel, sizeof sel);
    ecopt_memzero_explicit(&acc, sizeof acc);
}

/* ---- variable-time double scalar multiplication (verification only) -------------------------------------------- */

/* table[j] = [2j+1] p, j = 0..7 */
static void odd_multiples(ecopt_ge_cached table[8], const ecopt_ge_ext *p) {
    ecopt_ge_ext p2, q = *p;
    ecopt_ge_cached c2;
    ecopt_ge_double(&p2, p, 1);
    ecopt_ge_cached_from_ext(&c2, &p2);
    ecopt_ge_cached_from_ext(&table[0], p);
    for (int j = 1; j < 8; j++) {
        ecopt_ge_add(&q, &q, &c2);
        ecopt_ge_cached_from_ext(&table[j], &q);
    }
}

/* The verification tables of B: base_odd[0][j] = [2j+1] B and base_odd[1][j] = [2j+1] [2^127] B in Niels form,
 * j = 0..BASE_ODD - 1 (the odd multiples a width-BASE_ODD_W NAF needs), made once at first use (2 BASE_ODD
 * inversions, about 0.1 ms): verification adds these with 7M mixed additions instead of building a projective
 * table of B every time. Public data. */
#define BASE_ODD_W ECOPT_GE_BASE_ODD_W
#define BASE_ODD ECOPT_GE_BASE_ODD
static ecopt_ge_niels base_odd[2][BASE_ODD];
static pthread_once_t base_odd_once = PTHREAD_ONCE_INIT;

static void niels_from_ext(ecopt_ge_niels *r, const ecopt_ge_ext *p) {
    ecopt_fe zi, x, y;
    ecopt_fe_invert(&zi, &p->Z);
    ecopt_fe_mul(&x, &p->X, &zi);
    ecopt_fe_mul(&y, &p->Y, &zi);
    ecopt_fe_add(&r->YpX, &y, &x);
    ecopt_fe_carry(&r->YpX, &r->YpX);
    ecopt_fe_sub(&r->YmX, &y, &x);
    ecopt_fe_mul(&r->XY2d, &x, &y);
    ecopt_fe_mul(&r->XY2d, &r->XY2d, &ecopt_fe_d2);
}

static void base_odd_init(void) {
    ecopt_ge_ext b, b2, q;
    ecopt_ge_cached c2;
    ecopt_ge_base(&b);
    for (int row = 0; row < 2; row++) {
        if (row == 1)
            for (int i = 0; i < 127; i++) ecopt_ge_double(&b, &b, 1); /* [2^127] B */
        ecopt_ge_double(&b2, &b, 1);
        ecopt_ge_cached_from_ext(&c2, &b2);
        q = b;
        niels_from_ext(&base_odd[row][0], &q);
        for (int j = 1; j < BASE_ODD; j++) {
            ecopt_ge_add(&q, &q, &c2);
            niels_from_ext(&base_odd[row][j], &q);
        }
    }
}

const ecopt_ge_niels *ecopt_ge_base_odd(int row) {
    pthread_once(&base_odd_once, base_odd_init);
    return base_odd[row != 0];
}

/* Which whole-formula functions (fused_adx51.h, fused_adx.h) the verification loop uses in the adx51 and adx
 * backends: bit 0 the doublings, bit 1 additions and subtractions, bit 2 mixed additions; the others run the C
 * formulas. adx51: the doublings only; adx: all three. Each fused function is faster alone (bench/bench_fused.c),
 * but in adx51 the loop mixes four of them, about 26 KB of straight-line code together, and with all four it
 * is no faster than the C formulas (which share the small multiply and square), while fused doublings with C
 * additions are clearly faster (a verification-shaped loop, both ways interleaved in one process).
 * adx's four are smaller (about 18 KB): there all four beat the doublings alone (bench_fused, rows "loop adx", and
 * ecopt_bench's verify; figures in CHANGELOG.md). -DECOPT_GE_VT_FUSED=N (both backends) to measure again. */
#ifndef ECOPT_GE_VT_FUSED
#if defined(ECOPT_FE_BACKEND_adx) || defined(ECOPT_FE_BACKEND_x64)
#define ECOPT_GE_VT_FUSED 7
#else
#define ECOPT_GE_VT_FUSED 1
#endif
#endif
#if ECOPT_GE_FUSED
#define VT_FUSED(bit) ((ECOPT_GE_VT_FUSED >> (bit)) & 1)
#else
#define VT_FUSED(bit) 0
#endif
#define VT_DOUBLE(r, p, t) (VT_FUSED(0) ? ecopt_ge_double(r, p, t) : double_c(r, p, t))
#define VT_ADD(r, p, q) (VT_FUSED(1) ? ecopt_ge_add(r, p, q) : add_or_sub(r, p, q, 0))
#define VT_SUB(r, p, q) (VT_FUSED(1) ? ecopt_ge_sub(r, p, q) : add_or_sub(r, p, q, 1))
#define VT_MADD(r, p, q) (VT_FUSED(2) ? ecopt_ge_madd(r, p, q) : madd_c(r, p, q))

/* r = p - q for an affine q: madd with -q = (y-x, y+x, -2dxy). vartime use only (a public q). */
static void msub_vartime(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_niels *q) {
    ecopt_ge_niels n;
    ecopt_fe_copy(&n.YpX, &q->YmX);
    ecopt_fe_copy(&n.YmX, &q->YpX);
    ecopt_fe_neg(&n.XY2d, &q->XY2d);
    VT_MADD(r, p, &n);
}

void ecopt_ge_double_scalarmult_vartime(ecopt_ge_ext *r, const uint8_t a[32], const ecopt_ge_ext *p,
                                        const uint8_t b[32]) {
    int8_t na[257], nb[257];
    ecopt_ge_cached ta[8];
    ecopt_ge_ext acc;
    pthread_once(&base_odd_once, base_odd_init);
    wnaf_vartime(na, a, 32, 5);
    wnaf_vartime(nb, b, 32, 5);
    odd_multiples(ta, p);

    int top = 256;
    while (top >= 0 && na[top] == 0 && nb[top] == 0) top--;
    ecopt_ge_identity(&acc);
    for (int i = top; i >= 0; i--) {
        /* T is needed only by an addition right after, and in the result. */
        VT_DOUBLE(&acc, &acc, i == 0 || na[i] != 0 || nb[i] != 0);
        if (na[i] > 0) VT_ADD(&acc, &acc, &ta[na[i] / 2]);
        if (na[i] < 0) VT_SUB(&acc, &acc, &ta[-na[i] / 2]);
        if (nb[i] > 0) VT_MADD(&acc, &acc, &base_odd[0][nb[i] / 2]);
        if (nb[i] < 0) msub_vartime(&acc, &acc, &base_odd[0][-nb[i] / 2]);
    }
    *r = acc;
}

/* Halving the doublings (Antipa et al., SAC 2005; Pornin, ePrint 2020/454, section 4): with c k = sign k1 (mod l),
 * k1 < 2^126 and 0 < c < 2^127 (ecopt_scalar_ratio_vartime), and c s mod l = s0 + 2^127 s1 (s0 < 2^127,
 * s1 < 2^126),
 *   Q' = [s0] B + [s1] [2^127] B + [k1] (-sign A) + [c] (-R)
 * satisfies [8] Q' = [c] [8] ([s] B - [k] A - R): [8] B and [8] A lie in the subgroup of order l, where
 * [sign k1] = [c k] and [c s mod l] = [c s], and [8] R is multiplied by c on both sides. The group has order 8 l,
 * so [8] Q = [8] ([s] B - [k] A - R) lies in the subgroup of order l, and c, 0 < c < l, is invertible mod l:
 * [c] [8] Q is the identity exactly when [8] Q is. So the cofactored equation holds exactly when [8] Q' is the
 * identity, and Q' is a sum of four multiples of 127 bits at most: 127 doublings where [s] B + [k] A took 253.
 * Q' uses width-5 NAFs for A and R (tables of 8 odd multiples made here) and width-7 NAFs for B and [2^127] B
 * (the static base_odd rows). */
int COFACTORED_EQ_1WAY(const ecopt_ge_ext *A, const ecopt_ge_ext *R, const uint8_t k[32], const uint8_t s[32]) {
    uint8_t k1[16], c[16], s0[16], s1[16];
    int8_t na[129], nr[129], n0[129], n1[129];
    ecopt_ge_cached ta[8], tr[8];
    ecopt_ge_ext pa, pr, acc;
    pthread_once(&base_odd_once, base_odd_init);

    int sign = cofactored_scalars_vartime(k1, c, s0, s1, k, s);
    wnaf_vartime(na, k1, 16, 5);
    wnaf_vartime(nr, c, 16, 5);
    wnaf_vartime(n0, s0, 16, BASE_ODD_W);
    wnaf_vartime(n1, s1, 16, BASE_ODD_W);

    if (sign > 0)
        ecopt_ge_neg(&pa, A);
    else
        pa = *A;
    ecopt_ge_neg(&pr, R);
    odd_multiples(ta, &pa);
    odd_multiples(tr, &pr);

    int top = 128;
    while (top >= 0 && na[top] == 0 && nr[top] == 0 && n0[top] == 0 && n1[top] == 0) top--;
    ecopt_ge_identity(&acc);
    for (int i = top; i >= 0; i--) {
        /* T is needed only by an addition right after (the final check uses X, Y, Z alone). */
        VT_DOUBLE(&acc, &acc, na[i] != 0 || nr[i] != 0 || n0[i] != 0 || n1[i] != 0);
        if (na[i] > 0) VT_ADD(&acc, &acc, &ta[na[i] / 2]);
        if (na[i] < 0) VT_SUB(&acc, &acc, &ta[-na[i] / 2]);
        if (nr[i] > 0) VT_ADD(&acc, &acc, &tr[nr[i] / 2]);
        if (nr[i] < 0) VT_SUB(&acc, &acc, &tr[-nr[i] / 2]);
        if (n0[i] > 0) VT_MADD(&acc, &acc, &base_odd[0][n0[i] / 2]);
        if (n0[i] < 0) msub_vartime(&acc, &acc, &base_odd[0][-n0[i] / 2]);
        if (n1[i] > 0) VT_MADD(&acc, &acc, &base_odd[1][n1[i] / 2]);
        if (n1[i] < 0) msub_vartime(&acc, &acc, &base_odd[1][-n1[i] / 2]);
    }
    return (int)ecopt_ge_has_small_order(&acc);
}

void ecopt_ge_from_public(ecopt_ge_ext *r, const struct ecopt_edwards25519_point *p) {
    ecopt_fe_frombytes(&r->X, p->opaque);
    ecopt_fe_frombytes(&r->Y, p->opaque + 32);
    ecopt_fe_frombytes(&r->Z, p->opaque + 64);
    ecopt_fe_frombytes(&r->T, p->opaque + 96);
}

void ecopt_ge_to_public(struct ecopt_edwards25519_point *r, const ecopt_ge_ext *p) {
    ecopt_fe_tobytes(r->opaque, &p->X);
    ecopt_fe_tobytes(r->opaque + 32, &p->Y);
    ecopt_fe_tobytes(r->opaque + 64, &p->Z);
    ecopt_fe_tobytes(r->opaque + 96, &p->T);
}
