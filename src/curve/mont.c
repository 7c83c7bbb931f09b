/* mont.c — the X25519 Montgomery ladder (see mont.h). Names follow RFC 7748 section 5. */
#include "curve/mont.h"

#include "ct.h"
#include "curve/ge_formulas.h"

/* The adx, x64 and adx51 backends' ladder steps as one proved function each (fused_adx.h, fused_adx51.h), unless built
 * with -DECOPT_ADX_FUSED=OFF. */
#if defined(ECOPT_FE_BACKEND_adx51) && defined(ECOPT_ADX_FUSED)
#include "curve/fused_adx51.h"
#define ECOPT_MONT_FUSED 1
#define ecopt_mont_ladderstep_fused ecopt_mont_ladderstep_fused_adx51
#elif defined(ECOPT_FE_BACKEND_adx) && defined(ECOPT_ADX_FUSED)
#include "curve/fused_adx.h"
#define ECOPT_MONT_FUSED 1
#define ecopt_mont_ladderstep_fused ecopt_mont_ladderstep_fused_adx
#elif defined(ECOPT_FE_BACKEND_x64) && defined(ECOPT_ADX_FUSED)
#include "curve/fused_adx.h"
#define ECOPT_MONT_FUSED 1
#define ecopt_mont_ladderstep_fused ecopt_mont_ladderstep_fused_x64
#else
#define ECOPT_MONT_FUSED 0
#endif

#if defined(ECOPT_FE_BACKEND_ifma) || defined(ECOPT_FE_BACKEND_ifma_emu)
/* ifma, ifma_emu: the ladder on four lanes (mont_ifma.c), then the scalar tail as below. */
void ecopt_mont_ladder(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]) {
    ecopt_fe x1, x2, z2, t;
    ecopt_fe_frombytes(&x1, u); /* masks bit 255; limbs < 2^51 */
    ecopt_mont_ladder_x4(&x2, &z2, k, &x1);
    ecopt_fe_invert(&t, &z2); /* 0 when z2 = 0, so the output is 0 then */
    ecopt_fe_mul(&x2, &x2, &t);
    ecopt_fe_tobytes(out, &x2);
    ecopt_memzero_explicit(&x2, sizeof x2);
    ecopt_memzero_explicit(&z2, sizeof z2);
    ecopt_memzero_explicit(&t, sizeof t);
}
#else
void ecopt_mont_ladder(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]) {
    ecopt_fe x1, x2, z2, x3, z3, t;
    uint64_t swap = 0;
#if ECOPT_MONT_FUSED
    uint64_t sw[1]; /* the step's swap bit, in memory (fiat's convention: every argument an array) */
#endif

    ecopt_fe_frombytes(&x1, u); /* masks bit 255 (RFC 7748 decodeUCoordinate) */
    ecopt_fe_1(&x2);
    ecopt_fe_0(&z2);
    ecopt_fe_copy(&x3, &x1);
    ecopt_fe_1(&z3);

    for (int i = 254; i >= 0; i--) {
        uint64_t k_t = (uint64_t)(k[i >> 3] >> (i & 7)) & 1;
        swap ^= k_t;
#if ECOPT_MONT_FUSED
        /* The two cswaps and the step as one program (src/curve/formulas/ladderstep_adx51.ir, ladderstep_adx.ir): it
         * selects the doubled point's A = x + z and B = x - z by cmov, the sum needs no selecting, and it writes
         * what the cswaps and the step would, in place. The input bounds hold: adx's are every 256-bit value;
         * adx51's are the multiply's output bounds, and x1 is frombytes' (limbs < 2^51), x2, z2, x3, z3 are 0, 1,
         * x1 or outputs of the step itself; sw[0] is 0 or 1. */
        sw[0] = swap;
        ecopt_mont_ladderstep_fused(x2.v, z2.v, x3.v, z3.v, x1.v, x2.v, z2.v, x3.v, z3.v, sw);
        swap = k_t;
#else
        ecopt_fe_cswap(&x2, &x3, swap);
        ecopt_fe_cswap(&z2, &z3, swap);
        swap = k_t;
        ecopt_mont_ladderstep_c(&x2, &z2, &x3, &z3, &x1);
#endif
    }
    ecopt_fe_cswap(&x2, &x3, swap);
    ecopt_fe_cswap(&z2, &z3, swap);

    ecopt_fe_invert(&t, &z2);         /* z2^(p-2): 0 when z2 = 0, so the output is 0 then */
    ecopt_fe_mul(&x2, &x2, &t);
    ecopt_fe_tobytes(out, &x2);

    ecopt_memzero_explicit(&x2, sizeof x2);
    ecopt_memzero_explicit(&z2, sizeof z2);
    ecopt_memzero_explicit(&x3, sizeof x3);
    ecopt_memzero_explicit(&z3, sizeof z3);
    ecopt_memzero_explicit(&swap, sizeof swap);
#if ECOPT_MONT_FUSED
    ecopt_memzero_explicit(sw, sizeof sw);
#endif
}
#endif
