/* test_field.c — field.fe.<backend>: every operation of src/field/fe.h against GMP, for one backend.
 *
 * Compiled once per backend with -DECOPT_FE_BACKEND_<name>=1, so the ecopt_fe_* names below are that backend's
 * (ecopt_fe_mul -> ecopt_fe_mul_u64). Inputs enter only through ecopt_fe_frombytes (the representation is private),
 * from byte strings of random bit density and from an edge set; results leave only through ecopt_fe_tobytes and the
 * predicates, and are compared with integers mod p computed by GMP.
 *
 * Bounds (fe.h): "tight" is what carrying ops return, "loose" the sum of two tight elements. Every element below
 * carries its bound class, and an op is only applied to what its contract accepts; the chains build long
 * sequences of loose sums fed to mul/sq/sub/neg/carry/tobytes to exercise the widest inputs reachable through the
 * API. */
#include <stdio.h>

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "field/fe.h"
#include "ref25519.h"
#include "testutil.h"

#define STR2(x) #x
#define STR(x) STR2(x)

/* An element under test: the backend's value, its exact integer (not reduced), and its bound class. */
typedef struct val {
    ecopt_fe f;
    mpz_t v;
    int loose;
} val;

static void val_init(val *a) {
    mpz_init(a->v);
    ecopt_fe_0(&a->f);
    a->loose = 0;
}

static void val_clear(val *a) { mpz_clear(a->v); }

/* a = frombytes(b); the reference integer is b with bit 255 cleared (fe.h: bit 255 ignored). */
static void val_from_bytes(val *a, const uint8_t b[32]) {
    uint8_t m[32];
    memcpy(m, b, 32);
    m[31] &= 0x7f;
    ref_from_le(a->v, m, 32);
    ecopt_fe_frombytes(&a->f, b);
    a->loose = 0;
}

static long n_checks = 0;

static void print_val(const char *label, mpz_srcptr v) {
    mpz_t r;
    mpz_init(r);
    mpz_mod(r, v, ref_p);
    gmp_fprintf(stderr, "  %s = 0x%Zx (mod p: 0x%Zx)\n", label, v, r);
    mpz_clear(r);
}

/* Compare the canonical encoding of h with want mod p; on failure print the op and its inputs in hex. */
static int expect(const char *op, const ecopt_fe *h, mpz_srcptr want, mpz_srcptr in1, mpz_srcptr in2) {
    uint8_t got[32], exp[32];
    mpz_t w;
    mpz_init(w);
    mpz_mod(w, want, ref_p);
    ref_to_le(exp, 32, w);
    mpz_clear(w);
    ecopt_fe_tobytes(got, h);
    n_checks++;
    if (memcmp(got, exp, 32) == 0) return 0;
    tu_fail("%s: result differs from GMP", op);
    if (tu_failures <= 50) {
        if (in1) print_val("f", in1);
        if (in2) print_val("g", in2);
        tu_hex_print("got ", got, 32);
        tu_hex_print("want", exp, 32);
    }
    return 1;
}

/* ---- edge set ---- */

/* Integers below 2^255 that frombytes can receive (bit 255 is ignored, so nothing at or above 2^255 can enter),
 * chosen at the boundaries of p and of the limb radices of the backends (2^25/2^26 for 10 limbs, 2^51 for 5,
 * 2^64 for 4). */
static const char *const edge_hex[] = {
    "0", "1", "2", "3", "12", "13", "14", "26", /* 18, 19, 20, 38 */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec",   /* p - 1 */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",   /* p */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffee",   /* p + 1 */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",   /* p + 18 = 2^255 - 1 */
    "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe",   /* p + 17 */
    "3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff6",   /* (p - 1)/2 */
    "3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7",   /* (p + 1)/2 */
    "4000000000000000000000000000000000000000000000000000000000000000",   /* 2^254 */
    "7ffffffffffffffffffffffffffffffffffffffffffffffffff8000000000000",   /* 2^255 - 2^51 */
    "3ffffff", "4000000", "1ffffff", "2000000",                          /* 2^26 - 1, 2^26, 2^25 - 1, 2^25 */
    "7ffffffffffff", "8000000000000", "ffffffffffffffff", "10000000000000000",
    "3fffffffffffffffffffffffff", "4000000000000000000000000000000000000",
    "4000000000000800000000000100000000000020000000000004000000000000", /* the top bit of every 51-bit limb */
    "4000002000000800000400000100000080000020000010000004000002000000", /* the top bit of every limb of radix 2^25.5 */
    "3ffffff0000007fffffe000000ffffffc000001ffffff8000003ffffff", /* even limbs of radix 2^25.5 all ones, odd limbs zero */
    "5555555555555555555555555555555555555555555555555555555555555555",
    "2aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffda",   /* p - 19 = 2^255 - 38 */
};

static void edge_bytes(uint8_t out[32], const char *hex) {
    mpz_t x;
    mpz_init_set_str(x, hex, 16);
    ref_to_le(out, 32, x);
    mpz_clear(x);
}

/* ---- unary and binary checks on given inputs (tight f, g) ---- */

static void check_pair(val *f, val *g) {
    mpz_t w, t;
    mpz_inits(w, t, NULL);
    val h, lf, lg;
    val_init(&h);
    val_init(&lf);
    val_init(&lg);

    /* add: tight + tight -> loose, checked through tobytes (which accepts loose). */
    ecopt_fe_add(&lf.f, &f->f, &g->f);
    mpz_add(lf.v, f->v, g->v);
    expect("add", &lf.f, lf.v, f->v, g->v);
    ecopt_fe_add(&lg.f, &g->f, &g->f);
    mpz_add(lg.v, g->v, g->v);
    expect("add (g + g)", &lg.f, lg.v, g->v, g->v);

    /* sub on tight and on loose inputs. */
    ecopt_fe_sub(&h.f, &f->f, &g->f);
    mpz_sub(w, f->v, g->v);
    expect("sub", &h.f, w, f->v, g->v);
    ecopt_fe_sub(&h.f, &lf.f, &lg.f);
    mpz_sub(w, lf.v, lg.v);
    expect("sub (loose, loose)", &h.f, w, lf.v, lg.v);
    ecopt_fe_sub(&h.f, &f->f, &lg.f);
    mpz_sub(w, f->v, lg.v);
    expect("sub (tight, loose)", &h.f, w, f->v, lg.v);

    /* mul on tight and loose. */
    ecopt_fe_mul(&h.f, &f->f, &g->f);
    mpz_mul(w, f->v, g->v);
    expect("mul", &h.f, w, f->v, g->v);
    ecopt_fe_mul(&h.f, &lf.f, &lg.f);
    mpz_mul(w, lf.v, lg.v);
    expect("mul (loose, loose)", &h.f, w, lf.v, lg.v);
    ecopt_fe_mul(&h.f, &lf.f, &g->f);
    mpz_mul(w, lf.v, g->v);
    expect("mul (loose, tight)", &h.f, w, lf.v, g->v);
#ifdef ECOPT_FE_BACKEND_u64
    /* u64 keeps its hand-written multiply and square beside the generated ones (fe_u64.h): both must hold. */
    ecopt_fe_u64_mul_handwritten(&h.f, &lf.f, &lg.f);
    mpz_mul(w, lf.v, lg.v);
    expect("mul handwritten (loose, loose)", &h.f, w, lf.v, lg.v);
    ecopt_fe_u64_mul_generated(&h.f, &lf.f, &lg.f);
    expect("mul generated (loose, loose)", &h.f, w, lf.v, lg.v);
    ecopt_fe_u64_sq_handwritten(&h.f, &lf.f);
    mpz_mul(w, lf.v, lf.v);
    expect("sq handwritten (loose)", &h.f, w, lf.v, NULL);
    ecopt_fe_u64_sq_generated(&h.f, &lf.f);
    expect("sq generated (loose)", &h.f, w, lf.v, NULL);
#endif

    /* eq on the pair and on equal values in different representations (f and (f + g) - g). */
    uint64_t want_eq = 0;
    mpz_sub(t, f->v, g->v);
    mpz_mod(t, t, ref_p);
    want_eq = mpz_sgn(t) == 0;
    n_checks++;
    if (ecopt_fe_eq(&f->f, &g->f) != want_eq) {
        tu_fail("eq: got %llu want %llu", (unsigned long long)ecopt_fe_eq(&f->f, &g->f), (unsigned long long)want_eq);
        print_val("f", f->v), print_val("g", g->v);
    }
    ecopt_fe_sub(&h.f, &lf.f, &g->f); /* = f mod p */
    n_checks++;
    if (ecopt_fe_eq(&h.f, &f->f) != 1) {
        tu_fail("eq: (f + g) - g != f");
        print_val("f", f->v), print_val("g", g->v);
    }
    n_checks++;
    if (ecopt_fe_eq(&lf.f, &lf.f) != 1) tu_fail("eq on a loose element with itself");

    /* cmov and cswap with both bits. */
    for (uint64_t bit = 0; bit <= 1; bit++) {
        ecopt_fe_copy(&h.f, &f->f);
        ecopt_fe_cmov(&h.f, &g->f, bit);
        expect(bit ? "cmov(1)" : "cmov(0)", &h.f, bit ? g->v : f->v, f->v, g->v);
        val a, b;
        val_init(&a), val_init(&b);
        ecopt_fe_copy(&a.f, &f->f);
        ecopt_fe_copy(&b.f, &g->f);
        ecopt_fe_cswap(&a.f, &b.f, bit);
        expect(bit ? "cswap(1) first" : "cswap(0) first", &a.f, bit ? g->v : f->v, f->v, g->v);
        expect(bit ? "cswap(1) second" : "cswap(0) second", &b.f, bit ? f->v : g->v, f->v, g->v);
        val_clear(&a), val_clear(&b);
    }

    /* Aliasing: h = f op g with h == f, h == g, and f == g == h. */
    struct {
        const char *name;
        void (*fn)(ecopt_fe *, const ecopt_fe *, const ecopt_fe *);
        int kind; /* 0 add, 1 sub, 2 mul */
    } const bin[] = {{"add", ecopt_fe_add, 0}, {"sub", ecopt_fe_sub, 1}, {"mul", ecopt_fe_mul, 2}};
    for (size_t k = 0; k < TU_ARRAY_LEN(bin); k++) {
        for (int mode = 0; mode < 3; mode++) {
            mpz_srcptr x = f->v, y = (mode == 2) ? f->v : g->v;
            switch (bin[k].kind) {
            case 0: mpz_add(w, x, y); break;
            case 1: mpz_sub(w, x, y); break;
            default: mpz_mul(w, x, y); break;
            }
            val a, b;
            val_init(&a), val_init(&b);
            ecopt_fe_copy(&a.f, &f->f);
            ecopt_fe_copy(&b.f, &g->f);
            const char *nm;
            if (mode == 0) {
                bin[k].fn(&a.f, &a.f, &b.f); /* out == first input */
                nm = "alias out=f";
                expect(nm, &a.f, w, x, y);
            } else if (mode == 1) {
                bin[k].fn(&b.f, &a.f, &b.f); /* out == second input */
                nm = "alias out=g";
                expect(nm, &b.f, w, x, y);
            } else {
                bin[k].fn(&a.f, &a.f, &a.f); /* all three the same */
                nm = "alias out=f=g";
                expect(nm, &a.f, w, x, y);
            }
            val_clear(&a), val_clear(&b);
        }
    }
    val_clear(&h), val_clear(&lf), val_clear(&lg);
    mpz_clears(w, t, NULL);
}

static void check_unary(val *f, tu_rng *rng) {
    mpz_t w, e;
    mpz_inits(w, e, NULL);
    val h, lf;
    val_init(&h);
    val_init(&lf);
    ecopt_fe_add(&lf.f, &f->f, &f->f);
    mpz_mul_ui(lf.v, f->v, 2);
    const val *ins[2] = {f, &lf};
    for (int li = 0; li < 2; li++) {
        const val *x = ins[li];
        const char *sfx = li ? " (loose)" : "";
        char nm[64];
        /* tobytes canonical, round trip through frombytes. */
        expect(li ? "tobytes (loose)" : "tobytes", &x->f, x->v, x->v, NULL);
        uint8_t b[32];
        ecopt_fe_tobytes(b, &x->f);
        n_checks++;
        if (b[31] & 0x80) tu_fail("tobytes: bit 255 set");
        ecopt_fe_frombytes(&h.f, b);
        expect("frombytes(tobytes(f))", &h.f, x->v, x->v, NULL);

        ecopt_fe_neg(&h.f, &x->f);
        mpz_neg(w, x->v);
        snprintf(nm, sizeof nm, "neg%s", sfx), expect(nm, &h.f, w, x->v, NULL);
        ecopt_fe_carry(&h.f, &x->f);
        snprintf(nm, sizeof nm, "carry%s", sfx), expect(nm, &h.f, x->v, x->v, NULL);
        /* carry's output is tight: add must accept it. */
        ecopt_fe_add(&h.f, &h.f, &h.f);
        mpz_mul_ui(w, x->v, 2);
        snprintf(nm, sizeof nm, "add(carry(f), carry(f))%s", sfx), expect(nm, &h.f, w, x->v, NULL);
        ecopt_fe_sq(&h.f, &x->f);
        mpz_mul(w, x->v, x->v);
        snprintf(nm, sizeof nm, "sq%s", sfx), expect(nm, &h.f, w, x->v, NULL);
        ecopt_fe_sq2(&h.f, &x->f);
        mpz_mul_ui(w, w, 2);
        snprintf(nm, sizeof nm, "sq2%s", sfx), expect(nm, &h.f, w, x->v, NULL);
        unsigned n = 1 + (unsigned)tu_rng_below(rng, 12);
        ecopt_fe_sq_n(&h.f, &x->f, n);
        mpz_ui_pow_ui(e, 2, n);
        mpz_powm(w, x->v, e, ref_p);
        snprintf(nm, sizeof nm, "sq_n(%u)%s", n, sfx), expect(nm, &h.f, w, x->v, NULL);
        static const uint32_t smalls[] = {0, 1, 2, 19, 121665, 121666, (1u << 20) - 1};
        uint32_t c = (tu_rng_below(rng, 2) == 0) ? smalls[tu_rng_below(rng, TU_ARRAY_LEN(smalls))]
                                                 : (uint32_t)tu_rng_below(rng, 1u << 20);
        ecopt_fe_mul_small(&h.f, &x->f, c);
        mpz_mul_ui(w, x->v, c);
        snprintf(nm, sizeof nm, "mul_small(%u)%s", c, sfx), expect(nm, &h.f, w, x->v, NULL);
        ecopt_fe_invert(&h.f, &x->f);
        mpz_sub_ui(e, ref_p, 2);
        mpz_mod(w, x->v, ref_p);
        mpz_powm(w, w, e, ref_p);
        snprintf(nm, sizeof nm, "invert%s", sfx), expect(nm, &h.f, w, x->v, NULL);
        ecopt_fe_pow22523(&h.f, &x->f);
        mpz_ui_pow_ui(e, 2, 252);
        mpz_sub_ui(e, e, 3);
        mpz_mod(w, x->v, ref_p);
        mpz_powm(w, w, e, ref_p);
        snprintf(nm, sizeof nm, "pow22523%s", sfx), expect(nm, &h.f, w, x->v, NULL);

        /* Predicates on the canonical value. */
        mpz_mod(w, x->v, ref_p);
        uint64_t want_neg = mpz_odd_p(w) ? 1 : 0, want_zero = mpz_sgn(w) == 0;
        uint64_t got_neg = ecopt_fe_is_negative(&x->f), got_zero = ecopt_fe_is_zero(&x->f);
        n_checks += 2;
        if (got_neg != want_neg) {
            tu_fail("is_negative%s: got %llu want %llu", sfx, (unsigned long long)got_neg,
                    (unsigned long long)want_neg);
            print_val("f", x->v);
        }
        if (got_zero != want_zero) {
            tu_fail("is_zero%s: got %llu want %llu", sfx, (unsigned long long)got_zero,
                    (unsigned long long)want_zero);
            print_val("f", x->v);
        }

        /* Unary aliasing: h == f. */
        val a;
        val_init(&a);
        ecopt_fe_copy(&a.f, &x->f);
        ecopt_fe_sq(&a.f, &a.f);
        mpz_mul(w, x->v, x->v);
        snprintf(nm, sizeof nm, "sq alias%s", sfx), expect(nm, &a.f, w, x->v, NULL);
        ecopt_fe_copy(&a.f, &x->f);
        ecopt_fe_neg(&a.f, &a.f);
        mpz_neg(w, x->v);
        snprintf(nm, sizeof nm, "neg alias%s", sfx), expect(nm, &a.f, w, x->v, NULL);
        ecopt_fe_copy(&a.f, &x->f);
        ecopt_fe_invert(&a.f, &a.f);
        mpz_sub_ui(e, ref_p, 2);
        mpz_mod(w, x->v, ref_p);
        mpz_powm(w, w, e, ref_p);
        snprintf(nm, sizeof nm, "invert alias%s", sfx), expect(nm, &a.f, w, x->v, NULL);
        ecopt_fe_copy(&a.f, &x->f);
        ecopt_fe_sq_n(&a.f, &a.f, 3);
        mpz_ui_pow_ui(e, 2, 3);
        mpz_powm(w, x->v, e, ref_p);
        snprintf(nm, sizeof nm, "sq_n alias%s", sfx), expect(nm, &a.f, w, x->v, NULL);
        ecopt_fe_copy(&a.f, &x->f);
        ecopt_fe_mul_small(&a.f, &a.f, 121666);
        mpz_mul_ui(w, x->v, 121666);
        snprintf(nm, sizeof nm, "mul_small alias%s", sfx), expect(nm, &a.f, w, x->v, NULL);
        ecopt_fe_copy(&a.f, &x->f);
        ecopt_fe_carry(&a.f, &a.f);
        snprintf(nm, sizeof nm, "carry alias%s", sfx), expect(nm, &a.f, x->v, x->v, NULL);
        ecopt_fe_copy(&a.f, &x->f);
        ecopt_fe_pow22523(&a.f, &a.f);
        mpz_ui_pow_ui(e, 2, 252);
        mpz_sub_ui(e, e, 3);
        mpz_mod(w, x->v, ref_p);
        mpz_powm(w, w, e, ref_p);
        snprintf(nm, sizeof nm, "pow22523 alias%s", sfx), expect(nm, &a.f, w, x->v, NULL);
        val_clear(&a);
    }
    val_clear(&h), val_clear(&lf);
    mpz_clears(w, e, NULL);
}

/* ---- constants ---- */

static void check_constants(void) {
    mpz_t w;
    mpz_init(w);
    expect("constant d", &ecopt_fe_d, ref_d, NULL, NULL);
    mpz_mul_ui(w, ref_d, 2);
    expect("constant d2", &ecopt_fe_d2, w, NULL, NULL);
    expect("constant sqrtm1", &ecopt_fe_sqrtm1, ref_sqrtm1, NULL, NULL);
    ref_pt B;
    ref_pt_init(&B);
    ref_pt_base(&B);
    expect("constant base_x", &ecopt_fe_base_x, B.x, NULL, NULL);
    expect("constant base_y", &ecopt_fe_base_y, B.y, NULL, NULL);
    mpz_mul(w, B.x, B.y);
    expect("constant base_t", &ecopt_fe_base_t, w, NULL, NULL);
    ref_pt_clear(&B);
    val h;
    val_init(&h);
    ecopt_fe_0(&h.f);
    mpz_set_ui(w, 0);
    expect("fe_0", &h.f, w, NULL, NULL);
    ecopt_fe_1(&h.f);
    mpz_set_ui(w, 1);
    expect("fe_1", &h.f, w, NULL, NULL);
    /* The constants are tight: add must accept them. */
    ecopt_fe_add(&h.f, &ecopt_fe_d, &ecopt_fe_sqrtm1);
    mpz_add(w, ref_d, ref_sqrtm1);
    expect("add(d, sqrtm1)", &h.f, w, NULL, NULL);
    ecopt_fe_add(&h.f, &ecopt_fe_d2, &ecopt_fe_base_t);
    ref_pt_init(&B);
    ref_pt_base(&B);
    mpz_mul(w, B.x, B.y);
    mpz_addmul_ui(w, ref_d, 2);
    expect("add(d2, base_t)", &h.f, w, NULL, NULL);
    ref_pt_clear(&B);
    val_clear(&h);
    mpz_clear(w);
}

/* ---- specific contract points ---- */

static void check_specials(void) {
    val h, z;
    val_init(&h), val_init(&z);
    mpz_t w;
    mpz_init(w);
    uint8_t b[32];

    /* invert(0) = 0, also for 0 written as p (non-canonical). */
    memset(b, 0, 32);
    val_from_bytes(&z, b);
    ecopt_fe_invert(&h.f, &z.f);
    mpz_set_ui(w, 0);
    expect("invert(0)", &h.f, w, z.v, NULL);
    edge_bytes(b, "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed");
    val_from_bytes(&z, b);
    ecopt_fe_invert(&h.f, &z.f);
    expect("invert(p)", &h.f, w, z.v, NULL);
    n_checks++;
    if (ecopt_fe_is_zero(&z.f) != 1) tu_fail("is_zero(frombytes(p)) != 1");

    /* frombytes ignores bit 255: x and x | 2^255 give the same element. */
    tu_rng r;
    tu_rng_seed(&r, 12345);
    for (int i = 0; i < 64; i++) {
        uint8_t a[32], a2[32], o1[32], o2[32];
        tu_rng_bytes_density(&r, a, 32);
        memcpy(a2, a, 32);
        a2[31] ^= 0x80;
        ecopt_fe_frombytes(&h.f, a);
        ecopt_fe_tobytes(o1, &h.f);
        ecopt_fe_frombytes(&h.f, a2);
        ecopt_fe_tobytes(o2, &h.f);
        n_checks++;
        if (memcmp(o1, o2, 32) != 0) {
            tu_fail("frombytes depends on bit 255");
            tu_hex_print("input", a, 32);
        }
    }

    /* tobytes is canonical: every x in [p, 2^255) encodes as x - p, and bit 255 is clear. */
    for (unsigned k = 0; k < 19; k++) {
        mpz_add_ui(w, ref_p, k);
        ref_to_le(b, 32, w);
        val_from_bytes(&z, b);
        expect("tobytes(p + k) canonical", &z.f, w, z.v, NULL);
        /* and eq(p + k, k) */
        val s;
        val_init(&s);
        uint8_t kb[32] = {0};
        kb[0] = (uint8_t)k;
        val_from_bytes(&s, kb);
        n_checks++;
        if (ecopt_fe_eq(&s.f, &z.f) != 1) tu_fail("eq(frombytes(p + %u), frombytes(%u)) != 1", k, k);
        n_checks++;
        if (ecopt_fe_is_negative(&z.f) != (k & 1)) tu_fail("is_negative(frombytes(p + %u)) != %u", k, k & 1);
        val_clear(&s);
    }

    /* pow22523 gives square roots (RFC 8032 section 5.1.3): for a square u, with v = 1,
     * x = u^((p+3)/8) = u * u^((p-5)/8); x^2 = u or x^2 = -u. Checked on squares of random elements. */
    for (int i = 0; i < 64; i++) {
        uint8_t a[32];
        tu_rng_bytes_density(&r, a, 32);
        val x, u, t;
        val_init(&x), val_init(&u), val_init(&t);
        val_from_bytes(&x, a);
        ecopt_fe_sq(&u.f, &x.f);
        ecopt_fe_pow22523(&t.f, &u.f);
        ecopt_fe_mul(&t.f, &t.f, &u.f);
        ecopt_fe_sq(&t.f, &t.f);
        mpz_mul(w, x.v, x.v);
        mpz_mod(w, w, ref_p);
        uint8_t got[32], want_pos[32], want_neg[32];
        ecopt_fe_tobytes(got, &t.f);
        ref_to_le(want_pos, 32, w);
        mpz_sub(w, ref_p, w);
        mpz_mod(w, w, ref_p);
        ref_to_le(want_neg, 32, w);
        n_checks++;
        if (memcmp(got, want_pos, 32) != 0 && memcmp(got, want_neg, 32) != 0) {
            tu_fail("pow22523 square root identity");
            tu_hex_print("x", a, 32);
        }
        val_clear(&x), val_clear(&u), val_clear(&t);
    }
    val_clear(&h), val_clear(&z);
    mpz_clear(w);
}

/* ---- chains: long random sequences over a pool, tracking bounds ---- */

static void check_chain(tu_rng *rng, int steps) {
    enum { POOL = 6 };
    val pool[POOL];
    uint8_t init[POOL][32];
    for (int i = 0; i < POOL; i++) {
        val_init(&pool[i]);
        tu_rng_bytes_density(rng, init[i], 32);
        val_from_bytes(&pool[i], init[i]);
    }
    mpz_t w;
    mpz_init(w);
    for (int s = 0; s < steps; s++) {
        int d = (int)tu_rng_below(rng, POOL), a = (int)tu_rng_below(rng, POOL), b = (int)tu_rng_below(rng, POOL);
        val *D = &pool[d], *A = &pool[a], *B = &pool[b];
        int op = (int)tu_rng_below(rng, 7);
        const char *name;
        /* add needs two tight inputs; when either is loose, carry it first (in place, as the curve code does). */
        if (op == 0) {
            if (A->loose) ecopt_fe_carry(&A->f, &A->f), A->loose = 0;
            if (B->loose) ecopt_fe_carry(&B->f, &B->f), B->loose = 0;
            mpz_add(w, A->v, B->v);
            ecopt_fe_add(&D->f, &A->f, &B->f);
            D->loose = 1;
            name = "chain add";
        } else if (op == 1) {
            mpz_sub(w, A->v, B->v);
            ecopt_fe_sub(&D->f, &A->f, &B->f);
            D->loose = 0;
            name = "chain sub";
        } else if (op == 2 || op == 3) {
            mpz_mul(w, A->v, B->v);
            ecopt_fe_mul(&D->f, &A->f, &B->f);
            D->loose = 0;
            name = "chain mul";
        } else if (op == 4) {
            mpz_mul(w, A->v, A->v);
            ecopt_fe_sq(&D->f, &A->f);
            D->loose = 0;
            name = "chain sq";
        } else if (op == 5) {
            mpz_neg(w, A->v);
            ecopt_fe_neg(&D->f, &A->f);
            D->loose = 0;
            name = "chain neg";
        } else {
            mpz_mul_ui(w, A->v, 121665);
            ecopt_fe_mul_small(&D->f, &A->f, 121665);
            D->loose = 0;
            name = "chain mul_small";
        }
        /* Keep the reference integers small: reduce mod p (the backend value is whatever its ops made). */
        mpz_mod(D->v, w, ref_p);
        if (expect(name, &D->f, D->v, A->v, B->v)) {
            fprintf(stderr, "  (chain step %d; initial pool follows)\n", s);
            for (int i = 0; i < POOL; i++) tu_hex_print("pool", init[i], 32);
            break;
        }
    }
    mpz_clear(w);
    for (int i = 0; i < POOL; i++) val_clear(&pool[i]);
}

/* The widest loose values reachable through the API: add of two frombytes(2^255 - 1), fed to every op. */
static void check_max_loose(void) {
    uint8_t mx[32];
    memset(mx, 0xff, 32);
    val m, l, h;
    val_init(&m), val_init(&l), val_init(&h);
    val_from_bytes(&m, mx);
    ecopt_fe_add(&l.f, &m.f, &m.f);
    mpz_mul_ui(l.v, m.v, 2);
    mpz_t w;
    mpz_init(w);
    expect("max loose tobytes", &l.f, l.v, l.v, NULL);
    ecopt_fe_mul(&h.f, &l.f, &l.f);
    mpz_mul(w, l.v, l.v);
    expect("max loose mul", &h.f, w, l.v, l.v);
    ecopt_fe_sq(&h.f, &l.f);
    expect("max loose sq", &h.f, w, l.v, NULL);
    ecopt_fe_sq2(&h.f, &l.f);
    mpz_mul_ui(w, w, 2);
    expect("max loose sq2", &h.f, w, l.v, NULL);
    ecopt_fe_sub(&h.f, &l.f, &l.f);
    mpz_set_ui(w, 0);
    expect("max loose sub", &h.f, w, l.v, l.v);
    val z;
    val_init(&z);
    ecopt_fe_0(&z.f);
    ecopt_fe_sub(&h.f, &z.f, &l.f);
    mpz_neg(w, l.v);
    expect("0 - max loose", &h.f, w, l.v, NULL);
    ecopt_fe_neg(&h.f, &l.f);
    expect("neg max loose", &h.f, w, l.v, NULL);
    ecopt_fe_mul_small(&h.f, &l.f, (1u << 20) - 1);
    mpz_mul_ui(w, l.v, (1u << 20) - 1);
    expect("mul_small max loose", &h.f, w, l.v, NULL);
    ecopt_fe_carry(&h.f, &l.f);
    expect("carry max loose", &h.f, l.v, l.v, NULL);
    val_clear(&m), val_clear(&l), val_clear(&h), val_clear(&z);
    mpz_clear(w);
}

/* ---- limbs at their documented bounds (needs the backend's limb layout; fe.h keeps it private to src/field, so
 * this section knows each backend's header) ---- */

#if defined(ECOPT_FE_BACKEND_u64) || defined(ECOPT_FE_BACKEND_adx51)
/* fe_u64.h (adx51 shares it): 5 limbs of radix 2^51; tight: limb < 2^51 + 2^15; loose: limb < 2^52 + 2^16. */
#define LIMB_N 5
typedef uint64_t limb_t;
static const unsigned limb_off[LIMB_N] = {0, 51, 102, 153, 204};
static const unsigned limb_bits[LIMB_N] = {51, 51, 51, 51, 51};
static uint64_t tight_bound(unsigned i) { return ((uint64_t)1 << limb_bits[i]) + ((uint64_t)1 << 15); }
static uint64_t loose_bound(unsigned i) { return ((uint64_t)1 << (limb_bits[i] + 1)) + ((uint64_t)1 << 16); }
#define HAVE_LIMBS 1
#elif defined(ECOPT_FE_BACKEND_u32)
/* fe_u32.h: 10 limbs of 26/25 bits; tight: limb < 2^b + 2^14; loose: limb < 2^(b+1) + 2^15. */
#define LIMB_N 10
typedef uint32_t limb_t;
static const unsigned limb_off[LIMB_N] = {0, 26, 51, 77, 102, 128, 153, 179, 204, 230};
static const unsigned limb_bits[LIMB_N] = {26, 25, 26, 25, 26, 25, 26, 25, 26, 25};
static uint64_t tight_bound(unsigned i) { return ((uint64_t)1 << limb_bits[i]) + ((uint64_t)1 << 14); }
static uint64_t loose_bound(unsigned i) { return ((uint64_t)1 << (limb_bits[i] + 1)) + ((uint64_t)1 << 15); }
#define HAVE_LIMBS 1
#elif defined(ECOPT_FE_BACKEND_adx) || defined(ECOPT_FE_BACKEND_x64)
/* fe_adx.h: 4 limbs of radix 2^64; tight = loose = every limb in [0, 2^64). A bound of 0 here stands for 2^64
 * (val_from_limbs: bound - 1 wraps to 2^64 - 1). */
#define LIMB_N 4
typedef uint64_t limb_t;
static const unsigned limb_off[LIMB_N] = {0, 64, 128, 192};
static const unsigned limb_bits[LIMB_N] = {64, 64, 64, 64};
static uint64_t tight_bound(unsigned i) { (void)i; return 0; }
static uint64_t loose_bound(unsigned i) { (void)i; return 0; }
#define HAVE_LIMBS 1
#else
#define HAVE_LIMBS 0
#endif

#if HAVE_LIMBS
/* a = limbs drawn below the bound (exclusive): mostly bound - 1 and other extremes, so that every limb of the
 * documented domain's corners occurs; the reference integer is sum limb_i 2^off_i (not reduced). */
static void val_from_limbs(val *a, tu_rng *rng, int loose) {
    mpz_set_ui(a->v, 0);
    mpz_t t;
    mpz_init(t);
    for (unsigned i = 0; i < LIMB_N; i++) {
        uint64_t bound = loose ? loose_bound(i) : tight_bound(i), x;
        switch (tu_rng_below(rng, 8)) {
        case 0: case 1: case 2: x = bound - 1; break;
        case 3: x = 0; break;
        case 4: x = limb_bits[i] < 64 ? ((uint64_t)1 << limb_bits[i]) - 1 : ~(uint64_t)0 >> 1; break;
        case 5: x = bound - 1 - tu_rng_below(rng, 1u << 16); break;
        default: x = bound ? tu_rng_below(rng, bound) : tu_rng_u64(rng); break;
        }
        a->f.v[i] = (limb_t)x;
        mpz_set_ui(t, (unsigned long)x);
        mpz_mul_2exp(t, t, limb_off[i]);
        mpz_add(a->v, a->v, t);
    }
    a->loose = loose;
    mpz_clear(t);
}

/* Every op that accepts loose inputs, on two loose elements at their bounds. */
static void check_loose_pair(val *f, val *g, tu_rng *rng) {
    mpz_t w, e;
    mpz_inits(w, e, NULL);
    val h;
    val_init(&h);
    expect("limbs: tobytes (loose)", &f->f, f->v, f->v, NULL);
    ecopt_fe_mul(&h.f, &f->f, &g->f);
    mpz_mul(w, f->v, g->v);
    expect("limbs: mul (loose, loose)", &h.f, w, f->v, g->v);
    ecopt_fe_sq(&h.f, &f->f);
    mpz_mul(w, f->v, f->v);
    expect("limbs: sq (loose)", &h.f, w, f->v, NULL);
    ecopt_fe_sq2(&h.f, &f->f);
    mpz_mul_ui(w, w, 2);
    expect("limbs: sq2 (loose)", &h.f, w, f->v, NULL);
    unsigned n = 1 + (unsigned)tu_rng_below(rng, 5);
    ecopt_fe_sq_n(&h.f, &f->f, n);
    mpz_ui_pow_ui(e, 2, n);
    mpz_powm(w, f->v, e, ref_p);
    expect("limbs: sq_n (loose)", &h.f, w, f->v, NULL);
    ecopt_fe_sub(&h.f, &f->f, &g->f);
    mpz_sub(w, f->v, g->v);
    expect("limbs: sub (loose, loose)", &h.f, w, f->v, g->v);
    ecopt_fe_neg(&h.f, &f->f);
    mpz_neg(w, f->v);
    expect("limbs: neg (loose)", &h.f, w, f->v, NULL);
    ecopt_fe_carry(&h.f, &f->f);
    expect("limbs: carry (loose)", &h.f, f->v, f->v, NULL);
    ecopt_fe_mul_small(&h.f, &f->f, (1u << 20) - 1);
    mpz_mul_ui(w, f->v, (1u << 20) - 1);
    expect("limbs: mul_small (loose)", &h.f, w, f->v, NULL);
    ecopt_fe_invert(&h.f, &f->f);
    mpz_sub_ui(e, ref_p, 2);
    mpz_mod(w, f->v, ref_p);
    mpz_powm(w, w, e, ref_p);
    expect("limbs: invert (loose)", &h.f, w, f->v, NULL);
    ecopt_fe_pow22523(&h.f, &f->f);
    mpz_ui_pow_ui(e, 2, 252);
    mpz_sub_ui(e, e, 3);
    mpz_mod(w, f->v, ref_p);
    mpz_powm(w, w, e, ref_p);
    expect("limbs: pow22523 (loose)", &h.f, w, f->v, NULL);
    mpz_mod(w, f->v, ref_p);
    n_checks += 3;
    if (ecopt_fe_is_negative(&f->f) != (uint64_t)mpz_odd_p(w)) tu_fail("limbs: is_negative (loose)"), print_val("f", f->v);
    if (ecopt_fe_is_zero(&f->f) != (uint64_t)(mpz_sgn(w) == 0)) tu_fail("limbs: is_zero (loose)"), print_val("f", f->v);
    mpz_sub(e, f->v, g->v);
    mpz_mod(e, e, ref_p);
    if (ecopt_fe_eq(&f->f, &g->f) != (uint64_t)(mpz_sgn(e) == 0))
        tu_fail("limbs: eq (loose, loose)"), print_val("f", f->v), print_val("g", g->v);
    val_clear(&h);
    mpz_clears(w, e, NULL);
}

static long check_limb_bounds(tu_rng *rng, long iters) {
    val f, g, lf, lg;
    val_init(&f), val_init(&g), val_init(&lf), val_init(&lg);
    long before = n_checks;
    for (long i = 0; i < iters; i++) {
        val_from_limbs(&f, rng, 0);
        val_from_limbs(&g, rng, 0);
        val_from_limbs(&lf, rng, 1);
        val_from_limbs(&lg, rng, 1);
        check_unary(&f, rng);    /* tight at the bound, and 2f (loose) */
        check_pair(&f, &g);      /* including add of two tight elements at their bounds */
        check_loose_pair(&lf, &lg, rng);
        check_loose_pair(&lg, &f, rng); /* loose with tight */
    }
    val_clear(&f), val_clear(&g), val_clear(&lf), val_clear(&lg);
    return n_checks - before;
}
#endif

#if defined(ECOPT_FE_BACKEND_adx) || defined(ECOPT_FE_BACKEND_x64)
/* adx's add, sub and mul_small fold a carry (or borrow) out of 2^256 as 38 and may need a second fold; these
 * 256-bit values (limbs set directly, beyond what frombytes makes) put both folds and tobytes' two reductions at
 * their edges: around 38, p, 2^255, 2p and 2^256. Every pair goes through check_pair, every value through
 * check_unary and check_loose_pair. */
static const char *const adx_edge_hex[] = {
    "0", "1", "25", "26", "27", "4c", "ffffffffffffffff", "10000000000000000",
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec", /* p - 1 */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed", /* p */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffee", /* p + 1 */
    "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", /* 2^255 - 1 */
    "8000000000000000000000000000000000000000000000000000000000000000", /* 2^255 */
    "8000000000000000000000000000000000000000000000000000000000000012", /* 2^255 + 18 */
    "8000000000000000000000000000000000000000000000000000000000000013", /* 2^255 + 19 */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd9", /* 2^256 - 39 */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffda", /* 2^256 - 38 = 2p */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdb", /* 2^256 - 37 */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec", /* 2^256 - 20 */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", /* 2^256 - 1 */
    "ffffffffffffffff0000000000000000ffffffffffffffff0000000000000000",
    "1000000000000000000000000000000000000000000000000", /* 2^192 */
};

static long check_adx_edges(tu_rng *rng) {
    size_t n = TU_ARRAY_LEN(adx_edge_hex);
    val *e = calloc(n, sizeof *e);
    long before = n_checks;
    for (size_t i = 0; i < n; i++) {
        val_init(&e[i]);
        mpz_set_str(e[i].v, adx_edge_hex[i], 16);
        mpz_fdiv_r_2exp(e[i].v, e[i].v, 256);
        for (unsigned k = 0; k < 4; k++) {
            mpz_t t;
            mpz_init(t);
            mpz_fdiv_q_2exp(t, e[i].v, 64 * k);
            e[i].f.v[k] = (uint64_t)mpz_get_ui(t); /* mpz_get_ui: the low 64 bits (unsigned long is 64 bits) */
            mpz_clear(t);
        }
        e[i].loose = 1;
    }
    for (size_t i = 0; i < n; i++) {
        check_unary(&e[i], rng);
        for (size_t j = 0; j < n; j++) {
            check_pair(&e[i], &e[j]);
            check_loose_pair(&e[i], &e[j], rng);
        }
    }
    for (size_t i = 0; i < n; i++) val_clear(&e[i]);
    free(e);
    return n_checks - before;
}
#endif

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 3000);
    /* Field tests call the backend directly (no dispatch), so the check is that ctest asked for the backend this
     * binary was compiled for. */
    const char *want = tu_requested_backend();
    if (strcmp(want, STR(ECOPT_BE_SUFFIX)) != 0) {
        fprintf(stderr, "FAIL: ECOPT_BACKEND=%s but this binary is compiled for %s\n", want, STR(ECOPT_BE_SUFFIX));
        return 1;
    }
    if (!ecopt_fe_backend_available()) {
        /* Compiled in but this CPU lacks it (adx, adx51: BMI2 and ADX): ctest's skip code, never a pass. */
        printf("SKIP: backend %s is compiled in but not available on this CPU\n", STR(ECOPT_BE_SUFFIX));
        return 77;
    }
    printf("backend: %s\n", STR(ECOPT_BE_SUFFIX));
    ref_init();
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);

    check_constants();
    check_specials();
    check_max_loose();

    /* Edge set: every pair. */
    size_t ne = TU_ARRAY_LEN(edge_hex);
    val *edges = calloc(ne, sizeof *edges);
    for (size_t i = 0; i < ne; i++) {
        uint8_t b[32];
        edge_bytes(b, edge_hex[i]);
        val_init(&edges[i]);
        val_from_bytes(&edges[i], b);
    }
    for (size_t i = 0; i < ne; i++) {
        check_unary(&edges[i], &rng);
        for (size_t j = 0; j < ne; j++) check_pair(&edges[i], &edges[j]);
    }
    long edge_checks = n_checks;

    /* Random inputs of random bit density, bit 255 random too (ignored by frombytes). */
    val f, g;
    val_init(&f), val_init(&g);
    for (long i = 0; i < o.iters; i++) {
        uint8_t a[32], b[32];
        tu_rng_bytes_density(&rng, a, 32);
        tu_rng_bytes_density(&rng, b, 32);
        val_from_bytes(&f, a);
        val_from_bytes(&g, b);
        long before = tu_failures;
        check_unary(&f, &rng);
        check_pair(&f, &g);
        /* Mixed: one edge with one random. */
        check_pair(&edges[tu_rng_below(&rng, ne)], &g);
        if (tu_failures != before) {
            tu_hex_print("input f", a, 32);
            tu_hex_print("input g", b, 32);
        }
    }
#if HAVE_LIMBS
    long limb_checks = check_limb_bounds(&rng, o.iters / 3 + 1);
    printf("field.fe.%s: %ld checks with limbs at the tight/loose bounds of the backend's header\n", STR(ECOPT_BE_SUFFIX),
           limb_checks);
#if defined(ECOPT_FE_BACKEND_adx) || defined(ECOPT_FE_BACKEND_x64)
    printf("field.fe.%s: %ld checks on 256-bit edge values (folds of 2^256 = 38, tobytes)\n", STR(ECOPT_BE_SUFFIX),
           check_adx_edges(&rng));
#endif
#else
    printf("field.fe.%s: limb-bound section not written for this backend (layout unknown to the test)\n",
           STR(ECOPT_BE_SUFFIX));
#endif
    long chains = o.iters / 10 + 1;
    for (long i = 0; i < chains; i++) check_chain(&rng, 200);
    val_clear(&f), val_clear(&g);
    for (size_t i = 0; i < ne; i++) val_clear(&edges[i]);
    free(edges);
    printf("field.fe.%s: %ld checks (%ld on the edge set of %zu values), %ld random pairs, %ld chains of 200 ops\n",
           STR(ECOPT_BE_SUFFIX), n_checks, edge_checks, ne, o.iters, chains);
    return tu_finish("field.fe");
}
