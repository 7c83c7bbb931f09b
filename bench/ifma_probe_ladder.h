/* ifma_probe_ladder.h — the 4-way Montgomery ladder of the IFMA probe (an experiment, not library code).
 *
 * Included twice by ifma_probe.c: once over AVX-512 IFMA intrinsics on ymm registers, once over a plain-C emulation
 * of the same instructions (so the arithmetic and the schedule are tested on any x86-64). Before including, define:
 *   V                 a vector of four 64-bit lanes
 *   ATTR              attributes of every function here (the target attribute for the IFMA copy)
 *   NS(x)             x with the copy's suffix
 *   v_madd52lo(c,a,b) c + low 52 bits of a[51:0]*b[51:0], per lane (vpmadd52luq)
 *   v_madd52hi(c,a,b) c + bits 52..103 of a[51:0]*b[51:0], per lane (vpmadd52huq)
 *   v_add v_sub v_and v_or, v_andnot(a,b) = ~a & b, V_SRLI(a,n) V_SLLI(a,n) (constant n), v_set1(x),
 *   v_set4(l0,l1,l2,l3), v_load(p) v_store(p,a) (4 x u64), V_PERM(a,imm) (vpermq: lane i = a[(imm >> 2i) & 3]),
 *   V_BLEND(a,b,m) (lane i from b when bit i of the constant m is set, else from a).
 *
 * Field elements mod p = 2^255 - 19 in radix 2^51: five limbs, limb i of weight 2^(51 i). An fv holds four field
 * elements, one per lane: l[i] is limb i of all four. IFMA multiplies the low 52 bits of its operands, so every
 * multiplication input must have limbs < 2^52 (bits above 52 would be dropped silently); the bounds are argued at
 * each function. The product of two 52-bit limbs is lo + hi 2^52 = lo + (2 hi) 2^51: the high halves of column k are
 * summed apart and doubled once, so radix 2^51 costs one shift and one add per column over radix 2^52 and keeps
 * the reduction 2^255 = 19 (mod p) of RFC 7748's field.
 *
 * Ladder step: RFC 7748 section 5 (A, AA, B, BB, E, C, D, DA, CB; z_2 = E (AA + a24 E), a24 = 121665) in three rounds
 * of four lane-parallel multiplications:
 *   round 1  (A, B, D, C)           x (A, B, A, B)              = (AA, BB, DA, CB)
 *   round 2  (DA+CB, DA-CB, AA, E)  x (DA+CB, DA-CB, BB, AA + a24 E) = (x_3, z_3 / x_1, x_2, z_2)
 *   round 3  that                   x (1, x_1, 1, 1)             = (x_3, z_3, x_2, z_2)
 * i.e. five multiplications and four squarings (plus the constant a24) on 12 lane-multiplications, as in the 4-way
 * arrangements of Hisil, Egrice and Yassi ("Fast 4 way vectorized ladder for the complete set of Montgomery
 * curves", 2020) and Nath and Sarkar (IEEE TC 2022), which this code follows in spirit only (written from RFC 7748).
 * Round 3 leaves the pairs swapped: the next conditional swap and that swap-back are one masked select. */

typedef struct {
    V l[5];
} NS(fv);

#define PERM4(a, b, c, d) ((a) | ((b) << 2) | ((c) << 4) | ((d) << 6))
#define MASK51 ((UINT64_C(1) << 51) - 1)

static ATTR inline NS(fv) NS(fv_perm_0022)(const NS(fv) *a) {
    NS(fv) r;
    for (int i = 0; i < 5; i++) r.l[i] = V_PERM(a->l[i], PERM4(0, 0, 2, 2));
    return r;
}
static ATTR inline NS(fv) NS(fv_perm_1133)(const NS(fv) *a) {
    NS(fv) r;
    for (int i = 0; i < 5; i++) r.l[i] = V_PERM(a->l[i], PERM4(1, 1, 3, 3));
    return r;
}
static ATTR inline NS(fv) NS(fv_perm_0132)(const NS(fv) *a) {
    NS(fv) r;
    for (int i = 0; i < 5; i++) r.l[i] = V_PERM(a->l[i], PERM4(0, 1, 3, 2));
    return r;
}
static ATTR inline NS(fv) NS(fv_perm_0101)(const NS(fv) *a) {
    NS(fv) r;
    for (int i = 0; i < 5; i++) r.l[i] = V_PERM(a->l[i], PERM4(0, 1, 0, 1));
    return r;
}
static ATTR inline NS(fv) NS(fv_perm_2200)(const NS(fv) *a) {
    NS(fv) r;
    for (int i = 0; i < 5; i++) r.l[i] = V_PERM(a->l[i], PERM4(2, 2, 0, 0));
    return r;
}
static ATTR inline NS(fv) NS(fv_perm_3311)(const NS(fv) *a) {
    NS(fv) r;
    for (int i = 0; i < 5; i++) r.l[i] = V_PERM(a->l[i], PERM4(3, 3, 1, 1));
    return r;
}
static ATTR inline NS(fv) NS(fv_perm_2301)(const NS(fv) *a) {
    NS(fv) r;
    for (int i = 0; i < 5; i++) r.l[i] = V_PERM(a->l[i], PERM4(2, 3, 0, 1));
    return r;
}

/* 19 x, per lane (x < 2^59). */
static ATTR inline V NS(v_mul19)(V x) { return v_add(v_add(x, V_SLLI(x, 1)), V_SLLI(x, 4)); }

/* One parallel carry: limb i keeps its low 51 bits plus the carry of limb i-1; limb 0 takes 19 times limb 4's.
 * In: limbs < 2^63 (carries < 2^12). Out: limbs < 2^51 + 2^12, limb 0 < 2^51 + 19 * 2^12 (< 2^52: a valid IFMA
 * input). */
static ATTR inline void NS(fv_carry)(NS(fv) *a) {
    V m = v_set1(MASK51), t[5];
    for (int i = 0; i < 5; i++) {
        t[i] = V_SRLI(a->l[i], 51);
        a->l[i] = v_and(a->l[i], m);
    }
    a->l[0] = v_add(a->l[0], NS(v_mul19)(t[4]));
    for (int i = 1; i < 5; i++) a->l[i] = v_add(a->l[i], t[i - 1]);
}

/* r = a * b lane by lane. In: limbs < 2^52. Column k (weight 2^(51 k)) sums at most 5 low halves (< 2^52 each) and
 * 5 doubled high halves (< 2^53): < 15 * 2^52 < 2^56; folding column k+5 (2^255 = 19) gives < 20 * 2^56 < 2^61.
 * Out: with carry, as fv_carry's; without, limbs < 2^61 ("wide": not a multiplication input). */
static ATTR inline __attribute__((always_inline)) NS(fv) NS(fv_mul)(const NS(fv) *a, const NS(fv) *b, int carry) {
    V lo[10], hi[10];
    for (int k = 0; k < 10; k++) lo[k] = hi[k] = v_set1(0);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            lo[i + j] = v_madd52lo(lo[i + j], a->l[i], b->l[j]);
            hi[i + j + 1] = v_madd52hi(hi[i + j + 1], a->l[i], b->l[j]);
        }
    NS(fv) r;
    for (int k = 0; k < 5; k++) {
        V c = v_add(lo[k], V_SLLI(hi[k], 1));
        V d = v_add(lo[k + 5], V_SLLI(hi[k + 5], 1));
        r.l[k] = v_add(c, NS(v_mul19)(d));
    }
    if (carry) NS(fv_carry)(&r);
    return r;
}

/* r = a * k lane by lane, k < 2^20 a constant. In: limbs < 2^52. Columns < 2^52 + 2 k, column 5 (< 2 k) folds
 * into column 0 times 19. Out: limbs < 2^53, not carried (wide). */
static ATTR inline NS(fv) NS(fv_mul_small)(const NS(fv) *a, uint64_t k) {
    V kv = v_set1(k), z = v_set1(0), hi[5];
    NS(fv) r;
    for (int i = 0; i < 5; i++) {
        r.l[i] = v_madd52lo(z, a->l[i], kv);
        hi[i] = V_SLLI(v_madd52hi(z, a->l[i], kv), 1);
    }
    r.l[0] = v_add(r.l[0], NS(v_mul19)(hi[4]));
    for (int i = 1; i < 5; i++) r.l[i] = v_add(r.l[i], hi[i - 1]);
    return r;
}

/* r = a + (per lane: b, K - b or 0), then one carry; K = 2^11 p (limbs 2^62 - 19 * 2^11 and 2^62 - 2^11). In: limbs
 * of a and b < 2^61 (wide products allowed), so K - b has no negative limb and the sum is < 2^63. Out: as fv_carry's
 * (carries < 2^12: limbs < 2^51 + 2^12, limb 0 < 2^51 + 19 * 2^12). neg and zero are constant lane masks. */
#define NS_ADDSUB(name, neg, zero)                                                                                 \
    static ATTR inline NS(fv) NS(name)(const NS(fv) *a, const NS(fv) *b) {                                         \
        NS(fv) r;                                                                                                  \
        for (int i = 0; i < 5; i++) {                                                                              \
            V k = v_set1(i == 0 ? (UINT64_C(1) << 62) - (UINT64_C(19) << 11) : (UINT64_C(1) << 62) - (UINT64_C(1) << 11)); \
            V t = V_BLEND(b->l[i], v_sub(k, b->l[i]), neg);                                                        \
            r.l[i] = v_add(a->l[i], V_BLEND(t, v_set1(0), zero));                                                  \
        }                                                                                                          \
        NS(fv_carry)(&r);                                                                                          \
        return r;                                                                                                  \
    }
NS_ADDSUB(fv_pmpm, 10, 0) /* (a0 + b0, a1 - b1, a2 + b2, a3 - b3) */
NS_ADDSUB(fv_pm0m, 10, 4) /* (a0 + b0, a1 - b1, a2, a3 - b3) */
#undef NS_ADDSUB

/* The ladder step. In: s = (x_2, z_2, x_3, z_3), limbs < 2^61; x1v = (1, x_1, 1, 1), limbs < 2^52.
 * Out: (x_3, z_3, x_2, z_2) of RFC 7748's step (pairs swapped), limbs < 2^61 (wide: carried at the next step's
 * first addition). Only multiplication inputs are carried: three carries fewer than carrying every result. */
static ATTR __attribute__((noinline)) NS(fv) NS(ladderstep)(const NS(fv) *s, const NS(fv) *x1v) {
    NS(fv) u = NS(fv_perm_0022)(s), w = NS(fv_perm_1133)(s); /* (x2, x2, x3, x3), (z2, z2, z3, z3) */
    NS(fv) t = NS(fv_pmpm)(&u, &w);                          /* (A, B, C, D) */
    NS(fv) l = NS(fv_perm_0132)(&t), r = NS(fv_perm_0101)(&t);
    NS(fv) p = NS(fv_mul)(&l, &r, 0);                           /* (AA, BB, DA, CB), wide */
    NS(fv) q1 = NS(fv_perm_2200)(&p), q2 = NS(fv_perm_3311)(&p); /* (DA, DA, AA, AA), (CB, CB, BB, BB) */
    NS(fv) l2 = NS(fv_pm0m)(&q1, &q2);                        /* (DA+CB, DA-CB, AA, E = AA-BB) */
    NS(fv) e24 = NS(fv_mul_small)(&l2, 121665);              /* lane 3: a24 E (RFC 7748: a24 = 121665), wide */
    NS(fv) r2;
    for (int i = 0; i < 5; i++) {
        V s24 = v_add(q1.l[i], e24.l[i]); /* lane 3: AA + a24 E, < 2^61 + 2^53 */
        r2.l[i] = V_BLEND(V_BLEND(l2.l[i], q2.l[i], 4), s24, 8); /* (DA+CB, DA-CB, BB, AA + a24 E) */
    }
    NS(fv_carry)(&r2);
    NS(fv) p2 = NS(fv_mul)(&l2, &r2, 1); /* (x_3, (DA-CB)^2, x_2, z_2) */
    return NS(fv_mul)(&p2, x1v, 0);      /* (x_3, z_3, x_2, z_2), wide */
}

/* Lanes (a if mask is all ones, else b): the constant-time select. */
static ATTR inline NS(fv) NS(fv_select)(V mask, const NS(fv) *a, const NS(fv) *b) {
    NS(fv) r;
    for (int i = 0; i < 5; i++) r.l[i] = v_or(v_and(mask, a->l[i]), v_andnot(mask, b->l[i]));
    return r;
}

/* The ladder of RFC 7748 section 5 on a clamped scalar k (bits 254..0) and u given as five radix-2^51 limbs
 * (< 2^51 each). Writes x_2 and z_2 (limbs < 2^52). Constant time in k: the bit only makes a mask. */
static ATTR void NS(ladder)(uint64_t x2[5], uint64_t z2[5], const uint8_t k[32], const uint64_t u[5]) {
    NS(fv) x1v, pv;
    for (int i = 0; i < 5; i++) {
        uint64_t one = i == 0;
        x1v.l[i] = v_set4(one, u[i], one, one);
        pv.l[i] = v_set4(u[i], one, one, 0); /* (x_3, z_3, x_2, z_2) = (u, 1, 1, 0): the start, pairs swapped */
    }
    uint64_t swap = 0;
    for (int t = 254; t >= 0; t--) {
        uint64_t kt = (k[t >> 3] >> (t & 7)) & 1;
        V mask = v_set1(UINT64_C(0) - (swap ^ kt));
        swap = kt;
        NS(fv) q = NS(fv_perm_2301)(&pv);
        NS(fv) s = NS(fv_select)(mask, &pv, &q); /* swap ^ kt = 1: stay swapped, i.e. RFC 7748's cswap */
        pv = NS(ladderstep)(&s, &x1v);
    }
    NS(fv) q = NS(fv_perm_2301)(&pv);
    NS(fv) s = NS(fv_select)(v_set1(UINT64_C(0) - swap), &pv, &q);
    NS(fv_carry)(&s); /* limbs < 2^52 for the scalar tail */
    for (int i = 0; i < 5; i++) {
        uint64_t lane[4];
        v_store(lane, s.l[i]);
        x2[i] = lane[0];
        z2[i] = lane[1];
    }
}

/* n ladder steps on a fixed state, for the benchmark: the step's time alone. */
static ATTR __attribute__((unused)) uint64_t NS(steps)(long n, const uint64_t u[5]) {
    NS(fv) x1v, pv;
    for (int i = 0; i < 5; i++) {
        uint64_t one = i == 0;
        x1v.l[i] = v_set4(one, u[i], one, one);
        pv.l[i] = v_set4(u[i], one, one, 0);
    }
    for (long j = 0; j < n; j++) pv = NS(ladderstep)(&pv, &x1v);
    uint64_t lane[4];
    v_store(lane, pv.l[0]);
    return lane[0] ^ lane[1];
}
