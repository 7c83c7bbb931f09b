/* ge4.c — edwards25519 in parallel extended coordinates for the ifma and ifma_emu backends (ge4.h has the
 * coordinates, the formulas and the contracts). Compiled into those two backends only. */
#include "curve/ifma/ge4.h"

#include <pthread.h>
#include <string.h>

#include "ct.h"
#include "curve/ge_recode.h"
#include "curve/generated/ge_base_table.h"

/* 16 p limb by limb, 16 (2^51 - 19) and 16 (2^51 - 1): above any narrow limb (< 2^52), so K - b never borrows for
 * a narrow b, and a sum of a few narrow limbs and two such terms stays far below 2^64 (the doubling's combination
 * below). ecopt_fe4_addsub's 2^12 p leaves no room for a second subtraction in one lane. */
#define K16_0 ((((uint64_t)1) << 55) - ((uint64_t)19 << 4))
#define K16_N ((((uint64_t)1) << 55) - ((uint64_t)1 << 4))
/* 2 p limb by limb: 2^52 - 38 and 2^52 - 2. For a reduced b (limbs < 2^51), 2p - b has limbs in (2^51 - 38, 2^52):
 * the negation of a table entry stays narrow without a carry. */
#define K2_0 ((((uint64_t)1) << 52) - 38)
#define K2_N ((((uint64_t)1) << 52) - 2)

/* r = a + b lane by lane where bit j of neg is clear, a + 16p - b where it is set; no carry. neg is a public
 * constant. Bounds: b narrow; out limbs below a's + 2^55. */
ECOPT_IFMA_INLINE void addsub16_nc(ecopt_fe4 *r, const ecopt_fe4 *a, const ecopt_fe4 *b, unsigned neg) {
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        ecopt_v4 k = ecopt_v4_set1(i == 0 ? K16_0 : K16_N);
        r->l[i] = ecopt_v4_add(a->l[i], ecopt_v4_blend(b->l[i], ecopt_v4_sub(k, b->l[i]), neg));
    }
}

/* (Y-X, Y+X, Z, T) of p when sub = 0, (Y+X, Y-X, Z, T) when sub = 1 (public), carried: round 1's left operand. Y and
 * X are carried, so Y+X is not narrow: addsub carries it. */
ECOPT_IFMA_INLINE void pre_add(ecopt_fe4 *r, const ecopt_ge4_ext *p, int sub) {
    ecopt_fe4 a, b, zero;
    ecopt_fe4_zero(&zero);
    ECOPT_FE4_PERMUTE(&a, &p->v, 1, 1, 2, 3); /* (Y, Y, Z, T) */
    ECOPT_FE4_PERMUTE(&b, &p->v, 0, 0, 0, 0);
    ecopt_fe4_blend(&b, &b, &zero, 12); /* (X, X, 0, 0) */
    ecopt_fe4_addsub(r, &a, &b, sub ? 2 : 1);
}

/* r = p + q (sub = 0) or p - q (sub = 1), ge4.h's two rounds. Bounds: p carried, q narrow; out carried. */
ECOPT_IFMA_INLINE void add4(ecopt_ge4_ext *r, const ecopt_ge4_ext *p, const ecopt_ge4_cached *q, int sub) {
    ecopt_fe4 pre, v, x, y, u, l, rr;
    pre_add(&pre, p, sub);
    ecopt_fe4_mul(&v, &pre, &q->v);
    if (!sub) {
        /* v = (A, B, D, C): (E, F, G, H) = (B, D, D, B) + (-A, -C, C, A) */
        ECOPT_FE4_PERMUTE(&x, &v, 1, 2, 2, 1);
        ECOPT_FE4_PERMUTE(&y, &v, 0, 3, 3, 0);
        ecopt_fe4_addsub(&u, &x, &y, 3);
    } else {
        /* v = (B', A', D, C) for -q (C' = -C): (E, F, G, H) = (B', D, D, B') + (-A', C, -C, A') */
        ECOPT_FE4_PERMUTE(&x, &v, 0, 2, 2, 0);
        ECOPT_FE4_PERMUTE(&y, &v, 1, 3, 3, 1);
        ecopt_fe4_addsub(&u, &x, &y, 5);
    }
    ECOPT_FE4_PERMUTE(&l, &u, 0, 2, 1, 0);  /* (E, G, F, E) */
    ECOPT_FE4_PERMUTE(&rr, &u, 1, 3, 2, 3); /* (F, H, G, H) */
    ecopt_fe4_mul(&r->v, &l, &rr);          /* (X3, Y3, Z3, T3) */
}

/* r = 2p, ge4.h's two rounds. Bounds: p carried; out carried. */
ECOPT_IFMA_INLINE void double4(ecopt_ge4_ext *r, const ecopt_ge4_ext *p) {
    ecopt_fe4 a, b, zero, s, w, t, m, q, z, c, l, rr;
    ecopt_fe4_zero(&zero);
    ECOPT_FE4_PERMUTE(&a, &p->v, 0, 1, 2, 0); /* (X, Y, Z, X) */
    ECOPT_FE4_PERMUTE(&b, &p->v, 1, 1, 1, 1);
    ecopt_fe4_blend(&b, &zero, &b, 8);        /* (0, 0, 0, Y) */
    ecopt_fe4_addsub(&s, &a, &b, 0);          /* (X, Y, Z, X+Y), carried (X+Y is not narrow before) */
    ecopt_fe4_sq(&w, &s);                     /* (A, B, Z^2, S) */
    /* m = (A+B, A-B, A-B, A+B); z = (-S, 0, 2 Z^2, 0); c = m + z = (E', G', F', H'). Limbs: w narrow, m < 2^52 +
     * 2^55, z < 2^55 (16p - S, or Z^2 + Z^2 < 2^53), c < 2^57: one carry. */
    ECOPT_FE4_PERMUTE(&t, &w, 0, 0, 0, 0);
    ECOPT_FE4_PERMUTE(&q, &w, 1, 1, 1, 1);
    addsub16_nc(&m, &t, &q, 6);
    ECOPT_FE4_PERMUTE(&q, &w, 3, 0, 2, 0);
    ecopt_fe4_blend(&q, &zero, &q, 5);        /* (S, 0, Z^2, 0) */
    ecopt_fe4_add(&t, &q, &q);                /* lane 2: 2 Z^2 */
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        ecopt_v4 k = ecopt_v4_set1(i == 0 ? K16_0 : K16_N);
        /* lane 0: 16p - S; lane 2: 2 Z^2; lanes 1 and 3: 0 + 0 */
        z.l[i] = ecopt_v4_blend(t.l[i], ecopt_v4_sub(k, q.l[i]), 1);
    }
    ecopt_fe4_add(&c, &m, &z);
    ecopt_fe4_carry(&c, &c);
    ECOPT_FE4_PERMUTE(&l, &c, 0, 1, 2, 0);  /* (E', G', F', E') */
    ECOPT_FE4_PERMUTE(&rr, &c, 2, 3, 1, 3); /* (F', H', G', H') */
    ecopt_fe4_mul(&r->v, &l, &rr);          /* (E'F', G'H', F'G', E'H') = (X3, Y3, Z3, T3) */
}

/* (1, 1, 2, 2d) in the lanes: the multiplier that turns (Y-X, Y+X, Z, T) into the cached form. */
static ecopt_fe4 cached_k;

ECOPT_IFMA_INLINE void cached4(ecopt_ge4_cached *r, const ecopt_ge4_ext *p) {
    ecopt_fe4 pre;
    pre_add(&pre, p, 0);
    ecopt_fe4_mul(&r->v, &pre, &cached_k);
}

ECOPT_IFMA_INLINE void identity4(ecopt_ge4_ext *r) {
    ecopt_fe4_zero(&r->v);
    r->v.l[0] = ecopt_v4_set4(0, 1, 1, 0);
}

/* ---- first-use tables --------------------------------------------------------------------------------------- */

/* A fixed-base table entry: the cached point with Z = 1, (y-x, y+x, 2, 2dxy), in four vectors instead of five.
 * w[i], i < 4, holds limb i of y-x, y+x and 2dxy in lanes 0, 1 and 3, and in lane 2 (the constant 2's, which
 * select4 puts back) limb 4 of y-x (w[0]), y+x (w[1]) and 2dxy (w[2]); w[3]'s lane 2 is 0. The lookups read every
 * entry of a row, about 1.4 thousand entries per multiplication, 176 KB at 128 bytes (215 KB at 160): they run at
 * the speed of the L2 cache, so bytes are what they cost. Limbs reduced (< 2^51: from the canonical bytes), which
 * the negation by mask relies on. */
typedef struct base4_entry {
    ecopt_v4 w[4];
} base4_entry;

/* base4[i][j] = [(j+1) 64^i] B, i < 42, j < 32, and base4[42][j] = [(j+1) 64^42] B, j < 16 (row 42 uses 16). */
static base4_entry base4[BASE_DIGITS][BASE_ENTRIES];

/* The verification tables: odd4[0][j] = [2j+1] B and odd4[1][j] = [2j+1] [2^127] B, j < ODD4, for width-ODD4_W
 * NAFs, as cached points with Z = 1. Public data. */
#define ODD4_W ECOPT_GE_BASE_ODD_W
#define ODD4 (1 << (ODD4_W - 2))
static ecopt_ge4_cached odd4[2][ODD4];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static ECOPT_IFMA_TARGET void niels4_from_fe(ecopt_ge4_cached *r, const ecopt_fe *ypx, const ecopt_fe *ymx, const ecopt_fe *xy2d) {
    ecopt_fe f[4];
    f[0] = *ymx;
    f[1] = *ypx;
    ecopt_fe_0(&f[2]);
    f[2].v[0] = 2;
    f[3] = *xy2d;
    ecopt_fe4_from_fe(&r->v, f);
}


static ECOPT_IFMA_TARGET void tables_init(void) {
    ecopt_fe k[4];
    ecopt_fe_1(&k[0]);
    ecopt_fe_1(&k[1]);
    ecopt_fe_0(&k[2]);
    k[2].v[0] = 2;
    k[3] = ecopt_fe_d2;
    ecopt_fe4_from_fe(&cached_k, k);

    for (int i = 0; i < BASE_DIGITS; i++)
        for (int j = 0; j < (i < BASE_DIGITS - 1 ? BASE_ENTRIES : BASE_TOP_ENTRIES); j++) {
            const uint8_t(*b)[32] =
                i < BASE_DIGITS - 1 ? ecopt_ge_base_table_bytes[i][j] : ecopt_ge_base_table_top_bytes[j];
            ecopt_fe ypx, ymx, xy2d;
            ecopt_fe_frombytes(&ypx, b[0]);
            ecopt_fe_frombytes(&ymx, b[1]);
            ecopt_fe_frombytes(&xy2d, b[2]);
            for (int l = 0; l < 4; l++) {
                uint64_t lane2 = l == 0 ? ymx.v[4] : l == 1 ? ypx.v[4] : l == 2 ? xy2d.v[4] : 0;
                base4[i][j].w[l] = ecopt_v4_set4(ymx.v[l], ypx.v[l], lane2, xy2d.v[l]);
            }
        }

    for (int row = 0; row < 2; row++) {
        const ecopt_ge_niels *t = ecopt_ge_base_odd(row); /* the one-lane verification's tables, laid out in lanes */
        for (int j = 0; j < ODD4; j++) niels4_from_fe(&odd4[row][j], &t[j].YpX, &t[j].YmX, &t[j].XY2d);
    }
}

/* ---- exported formulas --------------------------------------------------------------------------------------- */

ECOPT_IFMA_TARGET void ecopt_ge4_from_ext(ecopt_ge4_ext *r, const ecopt_ge_ext *p) {
    ecopt_fe f[4] = {p->X, p->Y, p->Z, p->T};
    ecopt_fe4_from_fe(&r->v, f);
}

ECOPT_IFMA_TARGET void ecopt_ge4_to_ext(ecopt_ge_ext *r, const ecopt_ge4_ext *p) {
    ecopt_fe f[4];
    ecopt_fe4_to_fe(f, &p->v);
    r->X = f[0];
    r->Y = f[1];
    r->Z = f[2];
    r->T = f[3];
}

ECOPT_IFMA_TARGET void ecopt_ge4_cached_from_ext(ecopt_ge4_cached *r, const ecopt_ge4_ext *p) {
    pthread_once(&tables_once, tables_init); /* cached_k */
    cached4(r, p);
}

ECOPT_IFMA_TARGET void ecopt_ge4_cached_from_niels(ecopt_ge4_cached *r, const ecopt_ge_niels *q) {
    niels4_from_fe(r, &q->YpX, &q->YmX, &q->XY2d);
}

ECOPT_IFMA_TARGET void ecopt_ge4_add(ecopt_ge4_ext *r, const ecopt_ge4_ext *p, const ecopt_ge4_cached *q) {
    add4(r, p, q, 0);
}

ECOPT_IFMA_TARGET void ecopt_ge4_sub(ecopt_ge4_ext *r, const ecopt_ge4_ext *p, const ecopt_ge4_cached *q) {
    add4(r, p, q, 1);
}

ECOPT_IFMA_TARGET void ecopt_ge4_double(ecopt_ge4_ext *r, const ecopt_ge4_ext *p) {
    double4(r, p);
}

/* ---- constant-time fixed-base multiplication ------------------------------------------------------------------ */

/* r = [e] row, e in [-n, n], row[j] = [j+1] P (n public). Every entry is read whole: the one whose index equals |e|
 * is kept by a lane mask (ecopt_v4_select), none for e = 0, where the identity (1, 1, 2, 0) is ORed in by mask.
 * Then limb 4 is gathered from the lanes 2 (base4_entry) and the constant 2 put back in lane 2. For e < 0 the
 * negation -(x, y) = (-x, y) swaps lanes 0 and 1 (y-x and y+x) and takes 2p - 2dxy in lane 3; the choice is a
 * mask too. Entries are reduced and the identity's lane 3 is 0, so 2p - lane 3 is narrow. */
ECOPT_IFMA_INLINE void select4(ecopt_ge4_cached *r, const base4_entry *row, unsigned n, int8_t e) {
    uint8_t ue = (uint8_t)e;
    uint64_t neg = ue >> 7;
    uint64_t abs = (uint8_t)((ue ^ (uint8_t)(0u - neg)) + neg);
    ecopt_v4 w[4];
    ecopt_fe4 t, sw, ng;
    #pragma GCC unroll 5
    for (int i = 0; i < 4; i++) w[i] = ecopt_v4_zero();
    for (unsigned j = 0; j < n; j++) {
        ecopt_v4 m = ecopt_v4_mask(ecopt_ct_eq(abs, j + 1));
        #pragma GCC unroll 5
        for (int i = 0; i < 4; i++) w[i] = ecopt_v4_select(m, row[j].w[i], w[i]);
    }
    ecopt_v4 zero = ecopt_v4_zero();
    ecopt_v4 l4 = ECOPT_V4_PERMUTE(w[0], 2, 2, 2, 2);
    l4 = ecopt_v4_blend(l4, ECOPT_V4_PERMUTE(w[1], 2, 2, 2, 2), 2);
    l4 = ecopt_v4_blend(l4, ECOPT_V4_PERMUTE(w[2], 2, 2, 2, 2), 8);
    t.l[4] = ecopt_v4_blend(l4, zero, 4);
    t.l[0] = ecopt_v4_blend(w[0], ecopt_v4_set4(0, 0, 2, 0), 4);
    #pragma GCC unroll 5
    for (int i = 1; i < 4; i++) t.l[i] = ecopt_v4_blend(w[i], zero, 4);
    ecopt_v4 m0 = ecopt_v4_mask(ecopt_ct_eq(abs, 0));
    t.l[0] = ecopt_v4_or(t.l[0], ecopt_v4_and(m0, ecopt_v4_set4(1, 1, 0, 0)));
    ECOPT_FE4_PERMUTE(&sw, &t, 1, 0, 2, 3);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        ng.l[i] = ecopt_v4_blend(sw.l[i], ecopt_v4_sub(ecopt_v4_set1(i == 0 ? K2_0 : K2_N), sw.l[i]), 8);
    ecopt_fe4_select(&r->v, ecopt_v4_mask(neg), &ng, &t);
}

ECOPT_IFMA_TARGET void ecopt_ge4_scalarmult_base(ecopt_ge_ext *r, const uint8_t s[32]) {
    int8_t e[BASE_DIGITS];
    ecopt_ge4_ext acc;
    ecopt_ge4_cached sel;
    pthread_once(&tables_once, tables_init);
    recode_radix64(e, s);
    /* One chain of 43 additions from the identity. Two independent chains (even and odd positions, joined at the
     * end) were no faster: the row reads, not the additions' latency, set the pace. */
    identity4(&acc);
    for (int i = 0; i < BASE_DIGITS - 1; i++) {
        select4(&sel, base4[i], BASE_ENTRIES, e[i]);
        add4(&acc, &acc, &sel, 0);
    }
    select4(&sel, base4[BASE_DIGITS - 1], BASE_TOP_ENTRIES, e[BASE_DIGITS - 1]);
    add4(&acc, &acc, &sel, 0);
    ecopt_ge4_to_ext(r, &acc);
    ecopt_memzero_explicit(e, sizeof e);
    ecopt_memzero_explicit(&sel, sizeof sel);
    ecopt_memzero_explicit(&acc, sizeof acc);
}

/* ---- variable-time verification equation ---------------------------------------------------------------------- */

/* table[j] = [2j+1] p, j = 0..7, cached. */
ECOPT_IFMA_INLINE void odd_multiples4(ecopt_ge4_cached table[8], const ecopt_ge4_ext *p) {
    ecopt_ge4_ext p2, q = *p;
    ecopt_ge4_cached c2;
    double4(&p2, p);
    cached4(&c2, &p2);
    cached4(&table[0], p);
    for (int j = 1; j < 8; j++) {
        add4(&q, &q, &c2, 0);
        cached4(&table[j], &q);
    }
}

/* acc += [d] table (odd d, |d| < 2 n; d = 0 adds nothing). vartime: d is public. */
ECOPT_IFMA_INLINE void add_digit_vartime(ecopt_ge4_ext *acc, const ecopt_ge4_cached *table, int d) {
    if (d > 0) add4(acc, acc, &table[d / 2], 0);
    if (d < 0) add4(acc, acc, &table[-d / 2], 1);
}

/* ge.c's ecopt_ge_cofactored_eq_vartime, step for step, on the four-lane formulas. */
ECOPT_IFMA_TARGET int ecopt_ge4_cofactored_eq_vartime(const ecopt_ge_ext *A, const ecopt_ge_ext *R, const uint8_t k[32],
                                    const uint8_t s[32]) {
    uint8_t k1[16], c[16], s0[16], s1[16];
    int8_t na[129], nr[129], n0[129], n1[129];
    ecopt_ge4_cached ta[8], tr[8];
    ecopt_ge4_ext pa, pr, acc;
    ecopt_ge_ext t;
    pthread_once(&tables_once, tables_init);

    int sign = cofactored_scalars_vartime(k1, c, s0, s1, k, s);
    wnaf_vartime(na, k1, 16, 5);
    wnaf_vartime(nr, c, 16, 5);
    wnaf_vartime(n0, s0, 16, ODD4_W);
    wnaf_vartime(n1, s1, 16, ODD4_W);

    if (sign > 0)
        ecopt_ge_neg(&t, A);
    else
        t = *A;
    ecopt_ge4_from_ext(&pa, &t);
    ecopt_ge_neg(&t, R);
    ecopt_ge4_from_ext(&pr, &t);
    odd_multiples4(ta, &pa);
    odd_multiples4(tr, &pr);

    int top = 128;
    while (top >= 0 && na[top] == 0 && nr[top] == 0 && n0[top] == 0 && n1[top] == 0) top--;
    identity4(&acc);
    for (int i = top; i >= 0; i--) {
        double4(&acc, &acc);
        add_digit_vartime(&acc, ta, na[i]);
        add_digit_vartime(&acc, tr, nr[i]);
        add_digit_vartime(&acc, odd4[0], n0[i]);
        add_digit_vartime(&acc, odd4[1], n1[i]);
    }
    /* [8] acc = identity: three doublings, then X = 0 and Y = Z. */
    double4(&acc, &acc);
    double4(&acc, &acc);
    double4(&acc, &acc);
    ecopt_ge4_to_ext(&t, &acc);
    return (int)ecopt_ge_is_identity(&t);
}
