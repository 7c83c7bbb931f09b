/* ge_formulas.h — the C formulas of the point operations and of the X25519 ladder step over the ecopt_fe
 * operations of the including backend: ge.c and mont.c use them (the adx51 backend's fused functions replace them
 * there, fused_adx51.h), and bench/bench_fused.c times them against the fused functions. Private to src/curve and
 * the benchmarks; static inline, so each includer compiles them with its own backend. */
#ifndef ECOPT_CURVE_GE_FORMULAS_H
#define ECOPT_CURVE_GE_FORMULAS_H

#include "curve/ge.h"
#include "field/fe.h"

/* add-2008-hwcd-3 (a = -1, k = 2d): A = (Y1-X1)(Y2-X2), B = (Y1+X1)(Y2+X2), C = T1 k T2, D = 2 Z1 Z2, E = B-A,
 * F = D-C, G = D+C, H = B+A, X3 = E F, Y3 = G H, T3 = E H, Z3 = F G. For p - q, -q = (-X2, Y2, Z2, -T2) swaps
 * Y2+X2 with Y2-X2 and negates C, so F and G trade places. Bounds: every sum below adds two tight values (loose),
 * every difference and product is tight, and mul accepts loose. */
static inline void add_or_sub(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_cached *q, int sub) {
    ecopt_fe a, b, c, d, e, f, g, h, t;
    ecopt_fe_sub(&t, &p->Y, &p->X);
    ecopt_fe_mul(&a, &t, sub ? &q->YpX : &q->YmX);
    ecopt_fe_add(&t, &p->Y, &p->X);
    ecopt_fe_mul(&b, &t, sub ? &q->YmX : &q->YpX);
    ecopt_fe_mul(&c, &p->T, &q->T2d);
    ecopt_fe_mul(&d, &p->Z, &q->Z2);
    ecopt_fe_sub(&e, &b, &a);
    if (sub) {
        ecopt_fe_add(&f, &d, &c);
        ecopt_fe_sub(&g, &d, &c);
    } else {
        ecopt_fe_sub(&f, &d, &c);
        ecopt_fe_add(&g, &d, &c);
    }
    ecopt_fe_add(&h, &b, &a);
    ecopt_fe_mul(&r->X, &e, &f);
    ecopt_fe_mul(&r->Y, &g, &h);
    ecopt_fe_mul(&r->T, &e, &h);
    ecopt_fe_mul(&r->Z, &f, &g);
}

/* dbl-2008-hwcd with a = -1: A = X1^2, B = Y1^2, C = 2 Z1^2, D = -A, E = (X1+Y1)^2 - A - B, G = D + B, F = G - C,
 * H = D - B; X3 = E F, Y3 = G H, T3 = E H, Z3 = F G. Computed with E' = -E, F' = -F, G' = -G, H' = -H (the
 * products are unchanged, as each has two negated factors), which keeps every sum an addition of two tight values:
 * H' = A + B, E' = H' - (X1+Y1)^2, G' = A - B, F' = C + G'. */
static inline void double_c(ecopt_ge_ext *r, const ecopt_ge_ext *p, int with_t) {
    ecopt_fe a, b, c, e, f, g, h, t;
    ecopt_fe_sq(&a, &p->X);
    ecopt_fe_sq(&b, &p->Y);
    ecopt_fe_sq2(&c, &p->Z);
    ecopt_fe_add(&h, &a, &b);
    ecopt_fe_add(&t, &p->X, &p->Y);
    ecopt_fe_sq(&t, &t);
    ecopt_fe_sub(&e, &h, &t);
    ecopt_fe_sub(&g, &a, &b);
    ecopt_fe_add(&f, &c, &g);
    ecopt_fe_mul(&r->X, &e, &f);
    ecopt_fe_mul(&r->Y, &g, &h);
    ecopt_fe_mul(&r->Z, &f, &g);
    if (with_t) ecopt_fe_mul(&r->T, &e, &h);
}

/* add-2008-hwcd-3 with Z2 = 1 (madd-2008-hwcd-3): D = 2 Z1 needs no multiplication. D is carried so that
 * F = D - C and G = D + C take tight operands. Cost: 7M. */
static inline void madd_c(ecopt_ge_ext *r, const ecopt_ge_ext *p, const ecopt_ge_niels *q) {
    ecopt_fe a, b, c, d, e, f, g, h, t;
    ecopt_fe_sub(&t, &p->Y, &p->X);
    ecopt_fe_mul(&a, &t, &q->YmX);
    ecopt_fe_add(&t, &p->Y, &p->X);
    ecopt_fe_mul(&b, &t, &q->YpX);
    ecopt_fe_mul(&c, &p->T, &q->XY2d);
    ecopt_fe_add(&d, &p->Z, &p->Z);
    ecopt_fe_carry(&d, &d);
    ecopt_fe_sub(&e, &b, &a);
    ecopt_fe_sub(&f, &d, &c);
    ecopt_fe_add(&g, &d, &c);
    ecopt_fe_add(&h, &b, &a);
    ecopt_fe_mul(&r->X, &e, &f);
    ecopt_fe_mul(&r->Y, &g, &h);
    ecopt_fe_mul(&r->T, &e, &h);
    ecopt_fe_mul(&r->Z, &f, &g);
}

/* One X25519 ladder step, RFC 7748 section 5 (the formulas between the two cswaps): (x2, z2) = 2 (x2 : z2),
 * (x3, z3) = the differential sum with difference x1 (a24 = 121665); in place. */
static inline void ecopt_mont_ladderstep_c(ecopt_fe *x2, ecopt_fe *z2, ecopt_fe *x3, ecopt_fe *z3,
                                           const ecopt_fe *x1) {
    ecopt_fe a, aa, b, bb, e, c, d, da, cb, t;
    ecopt_fe_add(&a, x2, z2);         /* A = x2 + z2 (loose) */
    ecopt_fe_sq(&aa, &a);             /* AA = A^2 */
    ecopt_fe_sub(&b, x2, z2);         /* B = x2 - z2 */
    ecopt_fe_sq(&bb, &b);             /* BB = B^2 */
    ecopt_fe_sub(&e, &aa, &bb);       /* E = AA - BB */
    ecopt_fe_add(&c, x3, z3);         /* C = x3 + z3 */
    ecopt_fe_sub(&d, x3, z3);         /* D = x3 - z3 */
    ecopt_fe_mul(&da, &d, &a);        /* DA = D * A */
    ecopt_fe_mul(&cb, &c, &b);        /* CB = C * B */
    ecopt_fe_add(&t, &da, &cb);
    ecopt_fe_sq(x3, &t);              /* x3 = (DA + CB)^2 */
    ecopt_fe_sub(&t, &da, &cb);
    ecopt_fe_sq(&t, &t);
    ecopt_fe_mul(z3, x1, &t);         /* z3 = x1 * (DA - CB)^2 */
    ecopt_fe_mul(x2, &aa, &bb);       /* x2 = AA * BB */
    ecopt_fe_mul_small(&t, &e, 121665);
    ecopt_fe_add(&t, &aa, &t);
    ecopt_fe_mul(z2, &e, &t);         /* z2 = E * (AA + a24 * E) */
}

#endif /* ECOPT_CURVE_GE_FORMULAS_H */
