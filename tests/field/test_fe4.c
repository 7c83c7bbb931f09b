/* test_fe4.c — field.fe4.<backend>: every operation of src/field/ifma/fe4.h against GMP, lane by lane, at the
 * limb bounds its comments state (ifma on AVX-512 IFMA, ifma_emu with ECOPT_IFMA_EMULATE).
 *
 * White box: the inputs are set limb by limb (fe4.h's representation is the point of the test), in each lane
 * independently one of: every limb at the largest value the operation's input bound allows, every limb zero, limbs
 * uniform below the bound, limbs just below the bound, random bit density, or a value edge (p - 1, p, 2^255 - 1
 * unreduced, 2^255 - 19 + 18 ..., 0, 1, 19 at limb 4 ...). Every result is checked twice: its value mod p against GMP
 * (from the exact integer of the input limbs), and its limbs against the output bound fe4.h promises (carried, wide),
 * so an input bound that a caller relies on but the arithmetic does not deliver shows up here. Skips (77) where the
 * backend's CPU test fails (ifma without AVX-512 IFMA). */
#include <stdio.h> /* before gmp.h, which declares gmp_fprintf only after stdio.h */

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "field/ifma/fe4.h"
#include "ref25519.h"
#include "testutil.h"

#define STR2(x) #x
#define STR(x) STR2(x)

/* Limbs of four lanes: l[limb][lane]. */
typedef struct lanes {
    uint64_t l[5][4];
} lanes;

/* Exclusive bounds per limb; 0 means 2^64 (any). */
typedef struct bound {
    const char *name;
    uint64_t b[5];
} bound;

#define P2(n) (((uint64_t)1) << (n))
static const bound B_ANY = {"any", {0, 0, 0, 0, 0}};
static const bound B_NARROW = {"narrow", {P2(52), P2(52), P2(52), P2(52), P2(52)}};
static const bound B_CARRIED = {"carried", {P2(51) + 19 * P2(13), P2(51) + P2(13), P2(51) + P2(13), P2(51) + P2(13),
                                            P2(51) + P2(13)}};
static const bound B_WIDE = {"wide", {P2(61), P2(61), P2(61), P2(61), P2(61)}};
static const bound B_A63 = {"addsub a", {P2(63), P2(63), P2(63), P2(63), P2(63)}};
static const bound B_B62 = {"addsub b", {P2(62), P2(62), P2(62), P2(62), P2(62)}};
/* fe_u64.h's tight bound, what to_fe promises. */
static const uint64_t U64_TIGHT = P2(51) + P2(15);

static long n_checks;

/* Value edges as radix-2^51 limbs below 2^51 (so within every input bound here). */
#define M51 (P2(51) - 1)
static const uint64_t value_edges[][5] = {
    {0, 0, 0, 0, 0},
    {1, 0, 0, 0, 0},
    {M51 - 19, M51, M51, M51, M51}, /* p - 1 */
    {M51 - 18, M51, M51, M51, M51}, /* p */
    {M51 - 17, M51, M51, M51, M51}, /* p + 1 */
    {M51, M51, M51, M51, M51},      /* 2^255 - 1, unreduced */
    {0, 0, 0, 0, P2(50)},           /* 2^254 */
    {19, 0, 0, 0, 0},
    {0, 0, 0, 0, 19},
    {M51, 0, M51, 0, M51},
};

static uint64_t bound_max(const bound *bd, int i) {
    return bd->b[i] ? bd->b[i] - 1 : ~(uint64_t)0;
}

static uint64_t below(tu_rng *r, const bound *bd, int i) {
    return bd->b[i] ? tu_rng_below(r, bd->b[i]) : tu_rng_u64(r);
}

/* One lane of x within bound bd, in a random one of the modes above. */
static void gen_lane(lanes *x, int j, const bound *bd, tu_rng *r) {
    unsigned mode = (unsigned)tu_rng_below(r, 7);
    for (int i = 0; i < 5; i++) {
        uint64_t m = bound_max(bd, i), v;
        switch (mode) {
        case 0: v = m; break;
        case 1: v = 0; break;
        case 2: v = below(r, bd, i); break;
        case 3: v = m - tu_rng_below(r, 1024); break; /* every bound here exceeds 1024 */
        case 4: {
            uint8_t b[8];
            tu_rng_bytes_density(r, b, 8);
            memcpy(&v, b, 8);
            if (bd->b[i]) v %= bd->b[i];
            break;
        }
        case 5: v = value_edges[tu_rng_below(r, TU_ARRAY_LEN(value_edges))][i]; break;
        default: v = (tu_rng_below(r, 2) ? m : below(r, bd, i)); break; /* limbs mixed: max and random */
        }
        x->l[i][j] = v;
    }
}

static void gen(lanes *x, const bound *bd, tu_rng *r) {
    for (int j = 0; j < 4; j++) gen_lane(x, j, bd, r);
}

/* The exact integer of lane j (not reduced). */
static void lane_value(mpz_t v, const lanes *x, int j) {
    mpz_set_ui(v, 0);
    for (int i = 4; i >= 0; i--) {
        mpz_mul_2exp(v, v, 51); /* v = v 2^51 + limb i */
        mpz_t t;
        mpz_init(t);
        mpz_import(t, 1, 1, sizeof(uint64_t), 0, 0, &x->l[i][j]);
        mpz_add(v, v, t);
        mpz_clear(t);
    }
}

static ECOPT_IFMA_TARGET void to_fe4(ecopt_fe4 *h, const lanes *x) {
    for (int i = 0; i < 5; i++) h->l[i] = ecopt_v4_load(x->l[i]);
}

static ECOPT_IFMA_TARGET void from_fe4(lanes *x, const ecopt_fe4 *h) {
    for (int i = 0; i < 5; i++) ecopt_v4_store(x->l[i], h->l[i]);
}

static void print_lanes(const char *label, const lanes *x) {
    fprintf(stderr, "  %s:", label);
    for (int j = 0; j < 4; j++) {
        fprintf(stderr, " [");
        for (int i = 0; i < 5; i++) fprintf(stderr, "%s%#llx", i ? " " : "", (unsigned long long)x->l[i][j]);
        fprintf(stderr, "]");
    }
    fprintf(stderr, "\n");
}

/* Check every lane of got: value = want[j] mod p, limbs within out. a and b (may be NULL) are printed on failure. */
static void expect(const char *op, const lanes *got, mpz_t want[4], const bound *out, const lanes *a, const lanes *b) {
    mpz_t g, w;
    mpz_inits(g, w, NULL);
    for (int j = 0; j < 4; j++) {
        n_checks++;
        lane_value(g, got, j);
        mpz_mod(g, g, ref_p);
        mpz_mod(w, want[j], ref_p);
        int bad_bound = -1;
        for (int i = 0; i < 5; i++)
            if (out->b[i] && got->l[i][j] >= out->b[i]) bad_bound = i;
        if (mpz_cmp(g, w) != 0 || bad_bound >= 0) {
            if (bad_bound >= 0)
                tu_fail("%s: lane %d limb %d = %#llx not %s", op, j, bad_bound,
                        (unsigned long long)got->l[bad_bound][j], out->name);
            else
                tu_fail("%s: lane %d value wrong", op, j);
            if (tu_failures <= 20) { /* the first few in full */
                gmp_fprintf(stderr, "  got 0x%Zx want 0x%Zx (mod p)\n", g, w);
                print_lanes("out", got);
                if (a) print_lanes("a", a);
                if (b) print_lanes("b", b);
            }
        }
    }
    mpz_clears(g, w, NULL);
}

/* Lane-exact comparison (permute, blend, select). */
static void expect_limbs(const char *op, const lanes *got, const lanes *want) {
    n_checks++;
    if (memcmp(got, want, sizeof *got) != 0) {
        tu_fail("%s: limbs differ", op);
        if (tu_failures <= 20) {
            print_lanes("got", got);
            print_lanes("want", want);
        }
    }
}

typedef struct vals {
    mpz_t v[4];
} vals;

static void vals_init(vals *v) {
    for (int j = 0; j < 4; j++) mpz_init(v->v[j]);
}
static void vals_clear(vals *v) {
    for (int j = 0; j < 4; j++) mpz_clear(v->v[j]);
}
static void vals_of(vals *v, const lanes *x) {
    for (int j = 0; j < 4; j++) lane_value(v->v[j], x, j);
}

/* ---- products: mul, sq, mul_small with and without the carry ------------------------------------------------ */
static ECOPT_IFMA_TARGET void check_products(const lanes *a, const lanes *b, const uint64_t c[4]) {
    ecopt_fe4 va, vb, vr;
    lanes r;
    vals A, B, W;
    vals_init(&A), vals_init(&B), vals_init(&W);
    vals_of(&A, a), vals_of(&B, b);
    to_fe4(&va, a), to_fe4(&vb, b);

    for (int j = 0; j < 4; j++) mpz_mul(W.v[j], A.v[j], B.v[j]);
    ecopt_fe4_mul(&vr, &va, &vb);
    from_fe4(&r, &vr);
    expect("mul", &r, W.v, &B_CARRIED, a, b);
    ecopt_fe4_mul_wide(&vr, &va, &vb);
    from_fe4(&r, &vr);
    expect("mul_wide", &r, W.v, &B_WIDE, a, b);
    vr = va;
    ecopt_fe4_mul(&vr, &vr, &vb); /* h == a */
    from_fe4(&r, &vr);
    expect("mul (h = a)", &r, W.v, &B_CARRIED, a, b);

    for (int j = 0; j < 4; j++) mpz_mul(W.v[j], A.v[j], A.v[j]);
    ecopt_fe4_sq(&vr, &va);
    from_fe4(&r, &vr);
    expect("sq", &r, W.v, &B_CARRIED, a, NULL);
    ecopt_fe4_sq_wide(&vr, &va);
    from_fe4(&r, &vr);
    expect("sq_wide", &r, W.v, &B_WIDE, a, NULL);

    for (int j = 0; j < 4; j++) mpz_mul_ui(W.v[j], A.v[j], (unsigned long)c[j]);
    ecopt_v4 cv = ecopt_v4_set4(c[0], c[1], c[2], c[3]);
    ecopt_fe4_mul_small(&vr, &va, cv);
    from_fe4(&r, &vr);
    expect("mul_small", &r, W.v, &B_CARRIED, a, NULL);
    ecopt_fe4_mul_small_wide(&vr, &va, cv);
    from_fe4(&r, &vr);
    expect("mul_small_wide", &r, W.v, &B_WIDE, a, NULL);

    vals_clear(&A), vals_clear(&B), vals_clear(&W);
}

/* ---- sums: add (exact limbs), addsub for every sign pattern, sub, carry ------------------------------------- */
static ECOPT_IFMA_TARGET void check_sums(const lanes *a, const lanes *b, const lanes *any) {
    ecopt_fe4 va, vb, vr;
    lanes r;
    vals A, B, W;
    vals_init(&A), vals_init(&B), vals_init(&W);
    vals_of(&A, a), vals_of(&B, b);
    to_fe4(&va, a), to_fe4(&vb, b);
    for (unsigned neg = 0; neg < 16; neg++) {
        char op[32];
        snprintf(op, sizeof op, "addsub neg=%u", neg);
        for (int j = 0; j < 4; j++) {
            if ((neg >> j) & 1)
                mpz_sub(W.v[j], A.v[j], B.v[j]);
            else
                mpz_add(W.v[j], A.v[j], B.v[j]);
        }
        /* addsub's sign pattern must be a constant at the call in the library; here the runtime value exercises
         * the same instruction (vpblendmq takes its mask from a register either way). */
        ecopt_fe4_addsub(&vr, &va, &vb, neg);
        from_fe4(&r, &vr);
        expect(op, &r, W.v, &B_CARRIED, a, b);
    }
    for (int j = 0; j < 4; j++) mpz_sub(W.v[j], A.v[j], B.v[j]);
    ecopt_fe4_sub(&vr, &va, &vb);
    from_fe4(&r, &vr);
    expect("sub", &r, W.v, &B_CARRIED, a, b);
    vr = vb;
    ecopt_fe4_sub(&vr, &va, &vr); /* h == b */
    from_fe4(&r, &vr);
    expect("sub (h = b)", &r, W.v, &B_CARRIED, a, b);

    /* carry of any limbs */
    vals X;
    vals_init(&X);
    vals_of(&X, any);
    to_fe4(&va, any);
    ecopt_fe4_carry(&vr, &va);
    from_fe4(&r, &vr);
    expect("carry", &r, X.v, &B_CARRIED, any, NULL);
    ecopt_fe4_carry(&va, &va);
    from_fe4(&r, &va);
    expect("carry (h = a)", &r, X.v, &B_CARRIED, any, NULL);
    vals_clear(&X);
    vals_clear(&A), vals_clear(&B), vals_clear(&W);
}

/* add: two wide elements, the limbs' exact sums. */
static ECOPT_IFMA_TARGET void check_add(const lanes *a, const lanes *b) {
    ecopt_fe4 va, vb, vr;
    lanes r, want;
    to_fe4(&va, a), to_fe4(&vb, b);
    ecopt_fe4_add(&vr, &va, &vb);
    from_fe4(&r, &vr);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++) want.l[i][j] = a->l[i][j] + b->l[i][j];
    expect_limbs("add", &r, &want);
}

/* ---- lane moves: permute (the library's patterns and a few more), blend, select ------------------------------ */
#define CHECK_PERM(i0, i1, i2, i3)                                                                                 \
    do {                                                                                                           \
        ECOPT_FE4_PERMUTE(&vr, &va, i0, i1, i2, i3);                                                               \
        from_fe4(&r, &vr);                                                                                         \
        const int idx[4] = {i0, i1, i2, i3};                                                                       \
        for (int i = 0; i < 5; i++)                                                                                \
            for (int j = 0; j < 4; j++) want.l[i][j] = a->l[i][idx[j]];                                            \
        expect_limbs("permute " #i0 #i1 #i2 #i3, &r, &want);                                                       \
    } while (0)

static ECOPT_IFMA_TARGET void check_moves(const lanes *a, const lanes *b, tu_rng *rng) {
    ecopt_fe4 va, vb, vr;
    lanes r, want;
    to_fe4(&va, a), to_fe4(&vb, b);
    CHECK_PERM(0, 0, 2, 2);
    CHECK_PERM(1, 1, 3, 3);
    CHECK_PERM(0, 1, 3, 2);
    CHECK_PERM(0, 1, 0, 1);
    CHECK_PERM(2, 2, 0, 0);
    CHECK_PERM(3, 3, 1, 1);
    CHECK_PERM(2, 3, 0, 1);
    CHECK_PERM(3, 2, 1, 0);
    CHECK_PERM(1, 0, 3, 2);
    CHECK_PERM(0, 1, 2, 3);
    for (unsigned m = 0; m < 16; m++) {
        ecopt_fe4_blend(&vr, &va, &vb, m);
        from_fe4(&r, &vr);
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 4; j++) want.l[i][j] = ((m >> j) & 1) ? b->l[i][j] : a->l[i][j];
        expect_limbs("blend", &r, &want);
    }
    uint64_t bits = tu_rng_below(rng, 16), mk[4];
    for (int j = 0; j < 4; j++) mk[j] = (uint64_t)0 - ((bits >> j) & 1);
    ecopt_fe4_select(&vr, ecopt_v4_load(mk), &va, &vb);
    from_fe4(&r, &vr);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++) want.l[i][j] = ((bits >> j) & 1) ? a->l[i][j] : b->l[i][j];
    expect_limbs("select", &r, &want);
    /* ecopt_v4_mask: all lanes from a for 1, from b for 0 */
    for (uint64_t bit = 0; bit < 2; bit++) {
        ecopt_fe4_select(&vr, ecopt_v4_mask(bit), &va, &vb);
        from_fe4(&r, &vr);
        expect_limbs("select by ecopt_v4_mask", &r, bit ? a : b);
    }
}

/* ---- conversions: from_fe, to_fe, broadcast, frombytes, tobytes --------------------------------------------- */
static ECOPT_IFMA_TARGET void check_conversions(const lanes *any, tu_rng *rng) {
    ecopt_fe f[4];
    ecopt_fe4 v;
    lanes r;
    vals X;
    vals_init(&X);
    vals_of(&X, any);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 5; i++) f[j].v[i] = any->l[i][j];
    ecopt_fe4_from_fe(&v, f);
    from_fe4(&r, &v);
    expect("from_fe", &r, X.v, &B_CARRIED, any, NULL);

    ecopt_fe4_broadcast(&v, &f[2]);
    from_fe4(&r, &v);
    mpz_t w4[4];
    for (int j = 0; j < 4; j++) mpz_init_set(w4[j], X.v[2]);
    expect("broadcast", &r, w4, &B_CARRIED, any, NULL);
    for (int j = 0; j < 4; j++) mpz_clear(w4[j]);

    to_fe4(&v, any);
    ecopt_fe4_to_fe(f, &v);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 5; i++) r.l[i][j] = f[j].v[i];
    const bound tight = {"u64 tight", {U64_TIGHT, U64_TIGHT, U64_TIGHT, U64_TIGHT, U64_TIGHT}};
    expect("to_fe", &r, X.v, &tight, any, NULL);

    /* bytes: random strings (bit 255 random, ignored) in and the canonical encoding out, against GMP */
    uint8_t s[4][32], out[4][32], want[32];
    mpz_t t;
    mpz_init(t);
    for (int j = 0; j < 4; j++) tu_rng_bytes_density(rng, s[j], 32);
    ecopt_fe4_frombytes(&v, (const uint8_t(*)[32])s);
    from_fe4(&r, &v);
    vals S;
    vals_init(&S);
    for (int j = 0; j < 4; j++) {
        uint8_t m[32];
        memcpy(m, s[j], 32);
        m[31] &= 0x7f;
        ref_from_le(S.v[j], m, 32);
    }
    expect("frombytes", &r, S.v, &B_CARRIED, NULL, NULL);
    to_fe4(&v, any);
    ecopt_fe4_tobytes(out, &v);
    for (int j = 0; j < 4; j++) {
        mpz_mod(t, X.v[j], ref_p);
        ref_to_le(want, 32, t);
        n_checks++;
        if (memcmp(out[j], want, 32) != 0) {
            tu_fail("tobytes: lane %d", j);
            if (tu_failures <= 20) print_lanes("in", any);
        }
    }
    mpz_clear(t);
    vals_clear(&S);
    vals_clear(&X);
}

/* ---- the ladder's pattern: wide products into addsub, its output into the next product ---------------------- */
static ECOPT_IFMA_TARGET void check_chain(const lanes *a, const lanes *b, tu_rng *rng) {
    ecopt_fe4 x, y, p, q;
    lanes r, xl, yl;
    vals X, Y, W;
    vals_init(&X), vals_init(&Y), vals_init(&W);
    to_fe4(&x, a), to_fe4(&y, b);
    vals_of(&X, a), vals_of(&Y, b);
    for (int step = 0; step < 8; step++) {
        from_fe4(&xl, &x), from_fe4(&yl, &y);
        ecopt_fe4_mul_wide(&p, &x, &y);
        ecopt_fe4_sq_wide(&q, &x);
        ecopt_fe4_add(&q, &q, &p); /* two wide: < 2^62, addsub's b bound */
        /* lanes with bit set: p - q = -x^2; else p + q = x^2 + 2 x y */
        unsigned neg = (unsigned)tu_rng_below(rng, 16);
        ecopt_fe4_addsub(&y, &p, &q, neg);
        for (int j = 0; j < 4; j++) {
            mpz_mul(W.v[j], X.v[j], X.v[j]);
            if ((neg >> j) & 1)
                mpz_neg(W.v[j], W.v[j]);
            else {
                mpz_addmul(W.v[j], X.v[j], Y.v[j]);
                mpz_addmul(W.v[j], X.v[j], Y.v[j]);
            }
        }
        from_fe4(&r, &y);
        expect("chain addsub(wide, wide + wide)", &r, W.v, &B_CARRIED, &xl, &yl);
        for (int j = 0; j < 4; j++) mpz_set(Y.v[j], W.v[j]);
        ecopt_fe4_mul(&x, &x, &y);
        for (int j = 0; j < 4; j++) mpz_mul(X.v[j], X.v[j], Y.v[j]), mpz_mod(X.v[j], X.v[j], ref_p);
        from_fe4(&r, &x);
        expect("chain mul", &r, X.v, &B_CARRIED, &xl, NULL);
    }
    vals_clear(&X), vals_clear(&Y), vals_clear(&W);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 2000);
    const char *want = tu_requested_backend();
    if (strcmp(want, STR(ECOPT_BE_SUFFIX)) != 0) {
        fprintf(stderr, "FAIL: ECOPT_BACKEND=%s but this binary is compiled for %s\n", want, STR(ECOPT_BE_SUFFIX));
        return 1;
    }
    if (!ecopt_fe_backend_available()) {
        /* ifma on a CPU without AVX-512 IFMA: ctest's skip code, never a pass. */
        printf("SKIP: backend %s is compiled in but not available on this CPU\n", STR(ECOPT_BE_SUFFIX));
        return 77;
    }
    printf("backend: %s\n", STR(ECOPT_BE_SUFFIX));
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    static const uint64_t smalls[] = {0, 1, 2, 19, 121665, 121666, P2(20) - 1, P2(51), P2(52) - 1};
    for (long it = 0; it < o.iters; it++) {
        lanes a, b, any, w1, w2, a63, b62;
        uint64_t c[4];
        gen(&a, &B_NARROW, &rng);
        gen(&b, it & 1 ? &B_NARROW : &B_CARRIED, &rng);
        for (int j = 0; j < 4; j++)
            c[j] = tu_rng_below(&rng, 2) ? smalls[tu_rng_below(&rng, TU_ARRAY_LEN(smalls))] : tu_rng_below(&rng, P2(52));
        check_products(&a, &b, c);
        gen(&a63, &B_A63, &rng);
        gen(&b62, &B_B62, &rng);
        gen(&any, &B_ANY, &rng);
        check_sums(&a63, &b62, &any);
        gen(&w1, &B_WIDE, &rng);
        gen(&w2, &B_WIDE, &rng);
        check_sums(&w1, &w2, &any); /* the ladder's case: wide minus wide */
        check_add(&w1, &w2);
        check_moves(&a, &any, &rng);
        check_conversions(&any, &rng);
        gen(&a, &B_CARRIED, &rng);
        gen(&b, &B_CARRIED, &rng);
        check_chain(&a, &b, &rng);
        if (tu_failures > 1000) break; /* enough to see; the summary says how many */
    }
    printf("%ld checks\n", n_checks);
    return tu_finish("test_fe4");
}
