/* msm.c — multiscalar multiplication on edwards25519 (see msm.h for the contracts and sources). */
#include "curve/msm.h"

#include <stdint.h>
#include <string.h>

#include "ct.h"
#include "ecopt/ecopt.h"
#include "ecopt/edwards25519.h"

/* Straus's width: NAF digits odd in [-15, 15], a table of the 8 odd multiples [1]P, [3]P, ..., [15]P per point.
 * Width 5 costs about 257/6 + 8 additions per 256-bit scalar, width 6 about 257/7 + 16: 5 wins. */
#define STRAUS_W 5
#define STRAUS_TABLE ECOPT_MSM_STRAUS_TABLE
#define NAF_DIGITS ECOPT_MSM_NAF_DIGITS

/* Work memory slack: the scratch pointer is rounded up to this alignment, enough for any ecopt_fe. */
#define SCRATCH_ALIGN ECOPT_MSM_ALIGN

static size_t mul_ok(size_t a, size_t b, int *ovf) {
    if (b != 0 && a > SIZE_MAX / b) *ovf = 1;
    return a * b;
}

static size_t add_ok(size_t a, size_t b, int *ovf) {
    if (a > SIZE_MAX - b) *ovf = 1;
    return a + b;
}

int ecopt_msm_pippenger_window(size_t n) {
    int best = 4;
    double best_cost = 0;
    for (int c = 4; c <= 16; c++) {
        double windows = (double)((257 + c - 1) / c);
        double cost = windows * ((double)n + (double)(1u << c));
        if (c == 4 || cost < best_cost) best = c, best_cost = cost;
    }
    return best;
}

static int pick(size_t n, int algo) {
    if (algo == MSM_STRAUS || algo == MSM_PIPPENGER) return algo;
    return n < ECOPT_MSM_PIPPENGER_MIN ? MSM_STRAUS : MSM_PIPPENGER;
}

/* The layout of the work memory, in this order, each part rounded up to SCRATCH_ALIGN bytes: the public entry's
 * copy of the points in extended coordinates (n), then ecopt_msm_vartime's own:
 *   Straus: n tables of STRAUS_TABLE cached points, then n NAFs of NAF_DIGITS bytes, then NAF_DIGITS flags;
 *   Pippenger: n cached points, n x windows digits (int16), 2^(c-1) buckets and 2^(c-1) flags. */
static size_t round_up(size_t x, int *ovf) {
    return add_ok(x, SCRATCH_ALIGN - 1, ovf) & ~(size_t)(SCRATCH_ALIGN - 1);
}

static size_t internal_bytes(size_t n, int algo, int *ovf) {
    size_t b = 0;
    if (pick(n, algo) == MSM_STRAUS) {
        b = add_ok(b, round_up(mul_ok(mul_ok(n, STRAUS_TABLE, ovf), sizeof(ecopt_ge_cached), ovf), ovf), ovf);
        b = add_ok(b, round_up(mul_ok(n, NAF_DIGITS, ovf), ovf), ovf);
        b = add_ok(b, round_up(NAF_DIGITS, ovf), ovf);
    } else {
        int c = ecopt_msm_pippenger_window(n);
        size_t windows = (size_t)((257 + c - 1) / c), nb = (size_t)1 << (c - 1);
        b = add_ok(b, round_up(mul_ok(n, sizeof(ecopt_ge_cached), ovf), ovf), ovf);
        b = add_ok(b, round_up(mul_ok(mul_ok(n, windows, ovf), sizeof(int16_t), ovf), ovf), ovf);
        b = add_ok(b, round_up(nb * sizeof(ecopt_ge_ext), ovf), ovf);
        b = add_ok(b, round_up(nb, ovf), ovf);
    }
    return b;
}

size_t ecopt_msm_scratch_bytes(size_t n, int algo) {
    int ovf = 0;
    if (n == 0) return 0;
    size_t b = round_up(mul_ok(n, sizeof(ecopt_ge_ext), &ovf), &ovf);
    b = add_ok(b, internal_bytes(n, algo, &ovf), &ovf);
    b = add_ok(b, SCRATCH_ALIGN, &ovf);
    return ovf ? SIZE_MAX : b;
}

static uint8_t *align_up(void *p) {
    uintptr_t a = (uintptr_t)p;
    return (uint8_t *)(a + ((SCRATCH_ALIGN - a % SCRATCH_ALIGN) % SCRATCH_ALIGN));
}

/* ---- recodings --------------------------------------------------------------------------------------------- */

static unsigned bit_at(const uint8_t s[32], int i) {
    return i < 256 ? (s[i >> 3] >> (i & 7)) & 1u : 0;
}

/* naf[0..256]: the width-STRAUS_W NAF of s < 2^256; vartime (public s). The bits are read from the bottom with a
 * carry c in {0, 1}, what the digits written so far leave to add to the bits not yet read: where bit i + c is
 * even, digit i is 0 and c passes on; where it is odd, the w bits from i plus c form v, odd, in [1, 2^w - 1]; the
 * digit is v when v < 2^(w-1), else v - 2^w with carry 1, and the next w - 1 digits are 0. The last nonzero digit
 * sits at most at 256 (bits from 256 on read 0, so a carry into 256 makes v = 1 there, no carry out): the NAF
 * ends within 257 digits. Returns the index of the top nonzero digit, -1 for s = 0. */
static int wnaf(int8_t naf[NAF_DIGITS], const uint8_t s[32]) {
    int top = -1;
    unsigned carry = 0;
    memset(naf, 0, NAF_DIGITS);
    for (int i = 0; i < NAF_DIGITS;) {
        if (bit_at(s, i) == carry) {
            i++;
            continue;
        }
        int v = (int)carry;
        for (int b = 0; b < STRAUS_W; b++) v += (int)bit_at(s, i + b) << b;
        carry = v > (1 << (STRAUS_W - 1));
        naf[i] = (int8_t)(v - ((int)carry << STRAUS_W));
        top = i;
        i += STRAUS_W;
    }
    return top;
}

/* d[0..windows-1]: s = sum d_j 2^(c j), d_j in [-2^(c-1), 2^(c-1)], for s < 2^256 and windows = ceil(257 / c):
 * v_j = bits c j .. c j + c - 1 of s, plus the carry in, lies in [0, 2^c]; above 2^(c-1) the digit is v_j - 2^c
 * and carries 1. The top window holds at most c - 1 bits of s (257 <= c windows), so its v is at most 2^(c-1)
 * and no carry is left over. vartime (public s). */
static void recode_signed(int16_t *d, const uint8_t s[32], int c, int windows) {
    int carry = 0;
    for (int j = 0; j < windows; j++) {
        int v = carry, base = c * j;
        for (int b = 0; b < c; b++) v += (int)bit_at(s, base + b) << b;
        carry = v > (1 << (c - 1));
        d[j] = (int16_t)(v - (carry << c));
    }
}

/* ---- Straus ------------------------------------------------------------------------------------------------- */

/* t[j] = [2j+1] p, j < STRAUS_TABLE: one doubling and STRAUS_TABLE - 1 additions. */
static void odd_multiples(ecopt_ge_cached *t, const ecopt_ge_ext *p) {
    ecopt_ge_ext p2, q = *p;
    ecopt_ge_cached c2;
    ecopt_ge_double(&p2, p, 1);
    ecopt_ge_cached_from_ext(&c2, &p2);
    ecopt_ge_cached_from_ext(&t[0], p);
    for (int j = 1; j < STRAUS_TABLE; j++) {
        ecopt_ge_add(&q, &q, &c2);
        ecopt_ge_cached_from_ext(&t[j], &q);
    }
}

static void straus(ecopt_ge_ext *r, const uint8_t *scalars, const ecopt_ge_ext *points, size_t n, uint8_t *mem) {
    int ovf = 0;
    ecopt_ge_cached *tables = (ecopt_ge_cached *)mem;
    mem += round_up(n * STRAUS_TABLE * sizeof(ecopt_ge_cached), &ovf);
    int8_t *nafs = (int8_t *)mem;
    mem += round_up(n * NAF_DIGITS, &ovf);
    uint8_t *any = mem; /* any[j]: some point has a nonzero digit j */
    memset(any, 0, NAF_DIGITS);
    int top = -1;
    for (size_t i = 0; i < n; i++) {
        int8_t *naf = nafs + i * NAF_DIGITS;
        int t = wnaf(naf, scalars + 32 * i);
        if (t < 0) continue; /* s_i = 0: no table, no digit */
        if (t > top) top = t;
        odd_multiples(tables + i * STRAUS_TABLE, &points[i]);
        for (int j = 0; j <= t; j++) any[j] |= naf[j] != 0;
    }
    ecopt_ge_ext acc;
    ecopt_ge_identity(&acc);
    for (int j = top; j >= 0; j--) {
        /* T is needed only by an addition right after, and in the result. */
        ecopt_ge_double(&acc, &acc, j == 0 || any[j]);
        if (!any[j]) continue;
        for (size_t i = 0; i < n; i++) {
            int d = nafs[i * NAF_DIGITS + (size_t)j];
            if (d > 0) ecopt_ge_add(&acc, &acc, &tables[i * STRAUS_TABLE + (size_t)(d / 2)]);
            else if (d < 0) ecopt_ge_sub(&acc, &acc, &tables[i * STRAUS_TABLE + (size_t)(-d / 2)]);
        }
    }
    *r = acc;
}

/* ---- Pippenger ---------------------------------------------------------------------------------------------- */

/* *acc += p, where *empty says acc holds nothing yet (then acc = p, no addition). */
static void add_ext(ecopt_ge_ext *acc, int *empty, const ecopt_ge_ext *p) {
    if (*empty) {
        *acc = *p;
        *empty = 0;
    } else {
        ecopt_ge_cached c;
        ecopt_ge_cached_from_ext(&c, p);
        ecopt_ge_add(acc, acc, &c);
    }
}

static void pippenger(ecopt_ge_ext *r, const uint8_t *scalars, const ecopt_ge_ext *points, size_t n,
                      uint8_t *mem) {
    int ovf = 0, c = ecopt_msm_pippenger_window(n), windows = (257 + c - 1) / c;
    size_t nb = (size_t)1 << (c - 1);
    ecopt_ge_cached *cached = (ecopt_ge_cached *)mem;
    mem += round_up(n * sizeof(ecopt_ge_cached), &ovf);
    int16_t *digits = (int16_t *)mem;
    mem += round_up(n * (size_t)windows * sizeof(int16_t), &ovf);
    ecopt_ge_ext *bucket = (ecopt_ge_ext *)mem;
    mem += round_up(nb * sizeof(ecopt_ge_ext), &ovf);
    uint8_t *used = mem;

    for (size_t i = 0; i < n; i++) {
        ecopt_ge_cached_from_ext(&cached[i], &points[i]);
        recode_signed(digits + i * (size_t)windows, scalars + 32 * i, c, windows);
    }
    ecopt_ge_ext acc;
    int acc_empty = 1;
    for (int w = windows - 1; w >= 0; w--) {
        if (!acc_empty)
            for (int k = 0; k < c; k++) ecopt_ge_double(&acc, &acc, k == c - 1);
        /* Bucket b (b < nb) collects the points whose digit here is +-(b + 1), negated for a negative digit. */
        memset(used, 0, nb);
        for (size_t i = 0; i < n; i++) {
            int d = digits[i * (size_t)windows + (size_t)w];
            if (d == 0) continue;
            size_t b = (size_t)(d > 0 ? d : -d) - 1;
            if (!used[b]) {
                if (d > 0) bucket[b] = points[i];
                else ecopt_ge_neg(&bucket[b], &points[i]);
                used[b] = 1;
            } else if (d > 0) {
                ecopt_ge_add(&bucket[b], &bucket[b], &cached[i]);
            } else {
                ecopt_ge_sub(&bucket[b], &bucket[b], &cached[i]);
            }
        }
        /* sum_b (b + 1) bucket[b] = sum over b of the running sums bucket[nb-1] + ... + bucket[b]. */
        ecopt_ge_ext run, sum;
        int run_empty = 1, sum_empty = 1;
        for (size_t b = nb; b-- > 0;) {
            if (used[b]) add_ext(&run, &run_empty, &bucket[b]);
            if (!run_empty) add_ext(&sum, &sum_empty, &run);
        }
        if (!sum_empty) add_ext(&acc, &acc_empty, &sum);
    }
    if (acc_empty) ecopt_ge_identity(&acc);
    *r = acc;
}

void ecopt_msm_vartime(ecopt_ge_ext *r, const uint8_t *scalars, const ecopt_ge_ext *points, size_t n,
                       void *scratch, int algo) {
    if (n == 0) {
        ecopt_ge_identity(r);
        return;
    }
    uint8_t *mem = align_up(scratch);
    if (pick(n, algo) == MSM_STRAUS) straus(r, scalars, points, n, mem);
    else pippenger(r, scalars, points, n, mem);
}

int ecopt_msm_public_vartime(struct ecopt_edwards25519_point *out, const uint8_t *scalars,
                             const struct ecopt_edwards25519_point *points, size_t n, void *scratch,
                             size_t scratch_len, int algo) {
    if (scratch_len < ecopt_msm_scratch_bytes(n, algo) || (n > 0 && scratch == NULL)) {
        memset(out, 0, sizeof *out);
        return ECOPT_ERR_LENGTH;
    }
    ecopt_ge_ext r;
    if (n == 0) {
        ecopt_ge_identity(&r);
    } else {
        /* the points in extended coordinates first, then the work memory of ecopt_msm_vartime */
        int ovf = 0;
        ecopt_ge_ext *pts = (ecopt_ge_ext *)align_up(scratch);
        for (size_t i = 0; i < n; i++) ecopt_ge_from_public(&pts[i], &points[i]);
        ecopt_msm_vartime(&r, scalars, pts, n, (uint8_t *)pts + round_up(n * sizeof(ecopt_ge_ext), &ovf), algo);
    }
    ecopt_ge_to_public(out, &r);
    return ECOPT_OK;
}

/* ---- constant time ------------------------------------------------------------------------------------------ */

#define CT_DIGITS 65 /* signed radix-16 digits of a scalar below 2^256 */

/* e[0..64]: s = sum e_i 16^i, e_i in [-8, 8) for i < 64 and e_64 in {0, 1}: the nibbles n_i of s plus the carry
 * in lie in [0, 16]; carry 1 out exactly when that is at least 8 (the add of 8 and shift by 4), and the digit is
 * the value less 16 times the carry. Arithmetic only: no branch or index on s. */
static void recode_radix16(int8_t e[CT_DIGITS], const uint8_t s[32]) {
    int8_t carry = 0;
    for (int i = 0; i < 64; i++) {
        int8_t v = (int8_t)(((s[i / 2] >> (4 * (i & 1))) & 15) + carry);
        carry = (int8_t)((v + 8) >> 4);
        e[i] = (int8_t)(v - (carry << 4));
    }
    e[64] = carry;
}

static void cached_cmov(ecopt_ge_cached *r, const ecopt_ge_cached *p, uint64_t bit) {
    ecopt_fe_cmov(&r->YpX, &p->YpX, bit);
    ecopt_fe_cmov(&r->YmX, &p->YmX, bit);
    ecopt_fe_cmov(&r->Z2, &p->Z2, bit);
    ecopt_fe_cmov(&r->T2d, &p->T2d, bit);
}

/* r = [e] P from table[j] = [j+1] P, e in [-8, 8] (secret): starts from the identity in cached form (1, 1, 2, 0),
 * reads all 8 entries, each moved in by mask when it is |e|'s, then negates by mask when e < 0
 * (-(Y+X, Y-X, 2Z, 2dT) = (Y-X, Y+X, 2Z, -2dT)). */
static void ct_select(ecopt_ge_cached *r, const ecopt_ge_cached table[8], int8_t e) {
    uint8_t ue = (uint8_t)e;
    uint64_t neg = ue >> 7;
    uint8_t abs = (uint8_t)((ue ^ (uint8_t)(0u - neg)) + neg);
    ecopt_fe negt;
    ecopt_fe_1(&r->YpX);
    ecopt_fe_1(&r->YmX);
    ecopt_fe_add(&r->Z2, &r->YpX, &r->YmX);
    ecopt_fe_carry(&r->Z2, &r->Z2);
    ecopt_fe_0(&r->T2d);
    for (int j = 0; j < 8; j++) cached_cmov(r, &table[j], ecopt_ct_eq(abs, (uint64_t)(j + 1)));
    ecopt_fe_cswap(&r->YpX, &r->YmX, neg);
    ecopt_fe_neg(&negt, &r->T2d);
    ecopt_fe_cmov(&r->T2d, &negt, neg);
}

void ecopt_msm_ct(ecopt_ge_ext *r, const uint8_t *scalars, const ecopt_ge_ext *points, size_t n) {
    ecopt_ge_cached table[ECOPT_MSM_CT_GROUP][8], sel;
    int8_t e[ECOPT_MSM_CT_GROUP][CT_DIGITS];
    ecopt_ge_ext acc, total, q;
    ecopt_ge_identity(&total);
    for (size_t g = 0; g < n; g += ECOPT_MSM_CT_GROUP) {
        size_t m = n - g < ECOPT_MSM_CT_GROUP ? n - g : ECOPT_MSM_CT_GROUP; /* n is public */
        for (size_t k = 0; k < m; k++) {
            const ecopt_ge_ext *p = &points[g + k];
            ecopt_ge_cached_from_ext(&table[k][0], p);
            ecopt_ge_double(&q, p, 1);
            ecopt_ge_cached_from_ext(&table[k][1], &q);
            for (int j = 2; j < 8; j++) {
                ecopt_ge_add(&q, &q, &table[k][0]);
                ecopt_ge_cached_from_ext(&table[k][j], &q);
            }
            recode_radix16(e[k], scalars + 32 * (g + k));
        }
        ecopt_ge_identity(&acc);
        for (int i = CT_DIGITS - 1; i >= 0; i--) {
            if (i != CT_DIGITS - 1) {
                ecopt_ge_double(&acc, &acc, 0);
                ecopt_ge_double(&acc, &acc, 0);
                ecopt_ge_double(&acc, &acc, 0);
                ecopt_ge_double(&acc, &acc, 1);
            }
            for (size_t k = 0; k < m; k++) {
                ct_select(&sel, table[k], e[k][i]);
                ecopt_ge_add(&acc, &acc, &sel);
            }
        }
        ecopt_ge_cached_from_ext(&sel, &acc);
        ecopt_ge_add(&total, &total, &sel);
    }
    *r = total;
    ecopt_memzero_explicit(table, sizeof table);
    ecopt_memzero_explicit(e, sizeof e);
    ecopt_memzero_explicit(&sel, sizeof sel);
    ecopt_memzero_explicit(&acc, sizeof acc);
    ecopt_memzero_explicit(&total, sizeof total);
    ecopt_memzero_explicit(&q, sizeof q);
}

void ecopt_msm_public_ct(struct ecopt_edwards25519_point *out, const uint8_t *scalars,
                         const struct ecopt_edwards25519_point *points, size_t n) {
    ecopt_ge_ext r, pts[ECOPT_MSM_CT_GROUP];
    ecopt_ge_ext total;
    ecopt_ge_cached c;
    ecopt_ge_identity(&total);
    for (size_t g = 0; g < n; g += ECOPT_MSM_CT_GROUP) {
        size_t m = n - g < ECOPT_MSM_CT_GROUP ? n - g : ECOPT_MSM_CT_GROUP;
        for (size_t k = 0; k < m; k++) ecopt_ge_from_public(&pts[k], &points[g + k]);
        ecopt_msm_ct(&r, scalars + 32 * g, pts, m);
        ecopt_ge_cached_from_ext(&c, &r);
        ecopt_ge_add(&total, &total, &c);
    }
    ecopt_ge_to_public(out, &total);
    ecopt_memzero_explicit(&r, sizeof r);
    ecopt_memzero_explicit(&total, sizeof total);
    ecopt_memzero_explicit(pts, sizeof pts);
    ecopt_memzero_explicit(&c, sizeof c);
}
