/* mont_ifma.c — the X25519 ladder of the ifma and ifma_emu backends on four lanes (mont.h, ecopt_mont_ladder_x4).
 *
 * Ladder step: RFC 7748 section 5 (A, AA, B, BB, E, C, D, DA, CB; z_2 = E (AA + a24 E), a24 = 121665) in three
 * rounds of four lane-parallel multiplications on fe4.h's vectors:
 *   round 1  (A, B, D, C)           x (A, B, A, B)                   = (AA, BB, DA, CB)
 *   round 2  (DA+CB, DA-CB, AA, E)  x (DA+CB, DA-CB, BB, AA + a24 E) = (x_3, z_3 / x_1, x_2, z_2)
 *   round 3  that                   x (1, x_1, 1, 1)                 = (x_3, z_3, x_2, z_2)
 * five multiplications and four squarings (and the constant a24) on 12 lane-multiplications, the 4-way arrangement
 * of Hisil, Egrice and Yassi ("Fast 4 way vectorized ladder for the complete set of Montgomery curves", 2020) and
 * of Nath and Sarkar (IEEE TC 2022), written from RFC 7748. Round 3 leaves the two points' pairs swapped, so the
 * next conditional swap and that swap-back are one masked select: the state stays (x_3, z_3, x_2, z_2) between
 * steps, and the step reads (x_2, z_2, x_3, z_3) after RFC 7748's cswap, a lane permutation away. */
#include "curve/mont.h"

#include "ct.h"
#include "field/ifma/fe4.h"

#define A24 121665 /* RFC 7748 section 5: (486662 - 2) / 4 */

/* The step. In: s = (x_2, z_2, x_3, z_3), limbs wide (< 2^61); x1v = (1, x_1, 1, 1), narrow. Out: r = (x_3, z_3,
 * x_2, z_2) of RFC 7748's step (pairs swapped), wide: only multiplication inputs are carried (at addsub and before
 * round 2), never a product that goes on to an addition. Not inlined: one copy, called 255 times, keeps the ladder's
 * loop small without costing a measurable tick. */
static ECOPT_IFMA_TARGET __attribute__((noinline)) void ladderstep(ecopt_fe4 *r, const ecopt_fe4 *s,
                                                                    const ecopt_fe4 *x1v) {
    ecopt_fe4 u, w, t, l, m, p, q1, q2, l2, e24, r2;
    ECOPT_FE4_PERMUTE(&u, s, 0, 0, 2, 2);  /* (x_2, x_2, x_3, x_3) */
    ECOPT_FE4_PERMUTE(&w, s, 1, 1, 3, 3);  /* (z_2, z_2, z_3, z_3) */
    ecopt_fe4_addsub(&t, &u, &w, 10);      /* (A, B, C, D), carried */
    ECOPT_FE4_PERMUTE(&l, &t, 0, 1, 3, 2); /* (A, B, D, C) */
    ECOPT_FE4_PERMUTE(&m, &t, 0, 1, 0, 1); /* (A, B, A, B) */
    ecopt_fe4_mul_wide(&p, &l, &m);        /* (AA, BB, DA, CB), wide */
    ECOPT_FE4_PERMUTE(&q1, &p, 2, 2, 0, 0); /* (DA, DA, AA, AA) */
    ECOPT_FE4_PERMUTE(&q2, &p, 3, 3, 1, 1); /* (CB, CB, BB, BB) */
    ecopt_fe4 q2z;
    ecopt_fe4_zero(&t);
    ecopt_fe4_blend(&q2z, &q2, &t, 4);     /* (CB, CB, 0, BB) */
    ecopt_fe4_addsub(&l2, &q1, &q2z, 10);  /* (DA+CB, DA-CB, AA, E = AA-BB), carried */
    ecopt_fe4_mul_small_wide(&e24, &l2, ecopt_v4_set1(A24)); /* lane 3: a24 E, < 2^58 */
    ecopt_fe4_add(&t, &q1, &e24);          /* lane 3: AA + a24 E, < 2^61 + 2^58 */
    ecopt_fe4_blend(&r2, &l2, &q2, 4);     /* (DA+CB, DA-CB, BB, E) */
    ecopt_fe4_blend(&r2, &r2, &t, 8);      /* (DA+CB, DA-CB, BB, AA + a24 E) */
    ecopt_fe4_carry(&r2, &r2);
    ecopt_fe4_mul(&p, &l2, &r2);           /* (x_3, (DA-CB)^2, x_2, z_2), carried */
    ecopt_fe4_mul_wide(r, &p, x1v);        /* (x_3, z_3, x_2, z_2), wide */
}

/* Every lane value the ladder keeps passes through pv and s; they are wiped before return (ecopt_memzero_explicit,
 * as the scalar ladder wipes its points). */
ECOPT_IFMA_TARGET void ecopt_mont_ladder_x4(ecopt_fe *x2, ecopt_fe *z2, const uint8_t k[32], const ecopt_fe *x1) {
    ecopt_fe4 x1v, pv, s, q;
    ecopt_fe f[4];
    /* x1v = (1, x_1, 1, 1); pv = (x_3, z_3, x_2, z_2) = (x_1, 1, 1, 0): RFC 7748's start, pairs swapped. */
    ecopt_fe_1(&f[0]);
    ecopt_fe_copy(&f[1], x1);
    ecopt_fe_1(&f[2]);
    ecopt_fe_1(&f[3]);
    ecopt_fe4_from_fe(&x1v, f);
    ecopt_fe_copy(&f[0], x1);
    ecopt_fe_1(&f[1]);
    ecopt_fe_1(&f[2]);
    ecopt_fe_0(&f[3]);
    ecopt_fe4_from_fe(&pv, f);

    uint64_t swap = 0;
    for (int i = 254; i >= 0; i--) {
        uint64_t k_t = (uint64_t)(k[i >> 3] >> (i & 7)) & 1;
        /* swap ^ k_t = 1: RFC 7748's cswap, i.e. keep pv's swapped order; 0: undo it. */
        ecopt_v4 mask = ecopt_v4_mask(swap ^ k_t);
        swap = k_t;
        ECOPT_FE4_PERMUTE(&q, &pv, 2, 3, 0, 1);
        ecopt_fe4_select(&s, mask, &pv, &q);
        ladderstep(&pv, &s, &x1v);
    }
    ECOPT_FE4_PERMUTE(&q, &pv, 2, 3, 0, 1);
    ecopt_fe4_select(&s, ecopt_v4_mask(swap), &pv, &q); /* (x_2, z_2, x_3, z_3) */
    ecopt_fe4_to_fe(f, &s);
    ecopt_fe_copy(x2, &f[0]);
    ecopt_fe_copy(z2, &f[1]);

    ecopt_memzero_explicit(&pv, sizeof pv);
    ecopt_memzero_explicit(&s, sizeof s);
    ecopt_memzero_explicit(&q, sizeof q);
    ecopt_memzero_explicit(f, sizeof f);
    ecopt_memzero_explicit(&swap, sizeof swap);
}
