/* fe_u64.c — backend u64 (5 x 51 bits) of the field interface in fe.h. Bounds are defined in fe_u64.h.
 * Compiled a second time for the adx51 backend (ECOPT_FE_BACKEND_adx51, fe_adx51.h): everything here but the multiply
 * and square, which that backend takes from the optimizer's assembly. Compiled whole again for the ifma and
 * ifma_emu backends (fe_ifma.h): their scalar side. */
#include "field/fe.h"

#include "bytes.h"
#include "ct.h"

typedef unsigned __int128 u128;

#define MASK51 ((((uint64_t)1) << 51) - 1)

/* Constants (see fe.h): limbs of the canonical values, computed from their definitions with exact integer
 * arithmetic and checked against GMP in tests/field. */
const ecopt_fe ecopt_fe_d = {{0x34dca135978a3, 0x1a8283b156ebd, 0x5e7a26001c029, 0x739c663a03cbb, 0x52036cee2b6ff}};
const ecopt_fe ecopt_fe_d2 = {{0x69b9426b2f159, 0x35050762add7a, 0x3cf44c0038052, 0x6738cc7407977, 0x2406d9dc56dff}};
const ecopt_fe ecopt_fe_sqrtm1 = {
    {0x61b274a0ea0b0, 0x0d5a5fc8f189d, 0x7ef5e9cbd0c60, 0x78595a6804c9e, 0x2b8324804fc1d}};
const ecopt_fe ecopt_fe_base_x = {
    {0x62d608f25d51a, 0x412a4b4f6592a, 0x75b7171a4b31d, 0x1ff60527118fe, 0x216936d3cd6e5}};
const ecopt_fe ecopt_fe_base_y = {
    {0x6666666666658, 0x4cccccccccccc, 0x1999999999999, 0x3333333333333, 0x6666666666666}};
const ecopt_fe ecopt_fe_base_t = {
    {0x68ab3a5b7dda3, 0x00eea2a5eadbb, 0x2af8df483c27e, 0x332b375274732, 0x67875f0fd78b7}};

void ecopt_fe_frombytes(ecopt_fe *h, const uint8_t s[32]) {
    uint64_t w0 = ecopt_load64_le(s), w1 = ecopt_load64_le(s + 8), w2 = ecopt_load64_le(s + 16), w3 = ecopt_load64_le(s + 24);
    h->v[0] = w0 & MASK51;
    h->v[1] = ((w0 >> 51) | (w1 << 13)) & MASK51;
    h->v[2] = ((w1 >> 38) | (w2 << 26)) & MASK51;
    h->v[3] = ((w2 >> 25) | (w3 << 39)) & MASK51;
    h->v[4] = (w3 >> 12) & MASK51; /* drops bit 255 */
}

void ecopt_fe_tobytes(uint8_t s[32], const ecopt_fe *f) {
    uint64_t t[5];
    for (int i = 0; i < 5; i++) t[i] = f->v[i];
    /* Two passes: after the first, limb 0 < 2^51 + 19 * 2^2 and limbs 1..4 < 2^51; after the second every limb
     * is < 2^51 (a carry out of limb 4 in the second pass means limbs 1..4 were all 2^51 - 1 plus a carry, so
     * limb 0 was small and adding 19 keeps it below 2^51). The value is now in [0, 2^255). */
    ecopt_fe_u64_carry_pass(t);
    ecopt_fe_u64_carry_pass(t);
    /* q = 1 exactly when t >= p, i.e. when t + 19 reaches 2^255. */
    uint64_t q = (t[0] + 19) >> 51;
    q = (t[1] + q) >> 51;
    q = (t[2] + q) >> 51;
    q = (t[3] + q) >> 51;
    q = (t[4] + q) >> 51;
    /* t - p = t + 19 - 2^255: add 19q, carry, and drop bit 255. */
    t[0] += 19 * q;
    t[1] += t[0] >> 51;
    t[0] &= MASK51;
    t[2] += t[1] >> 51;
    t[1] &= MASK51;
    t[3] += t[2] >> 51;
    t[2] &= MASK51;
    t[4] += t[3] >> 51;
    t[3] &= MASK51;
    t[4] &= MASK51;
    ecopt_store64_le(s, t[0] | (t[1] << 51));
    ecopt_store64_le(s + 8, (t[1] >> 13) | (t[2] << 38));
    ecopt_store64_le(s + 16, (t[2] >> 26) | (t[3] << 25));
    ecopt_store64_le(s + 24, (t[3] >> 39) | (t[4] << 12));
}

void ecopt_fe_neg(ecopt_fe *h, const ecopt_fe *f) {
    ecopt_fe z;
    ecopt_fe_0(&z);
    ecopt_fe_sub(h, &z, f);
}

void ecopt_fe_carry(ecopt_fe *h, const ecopt_fe *f) {
    uint64_t t[5];
    for (int i = 0; i < 5; i++) t[i] = f->v[i];
    ecopt_fe_u64_carry_pass(t);
    for (int i = 0; i < 5; i++) h->v[i] = t[i];
}

/* Reduce five 128-bit coefficients (each < 2^115) to a tight element. The carry out of c4 is below 2^64 / 19
 * only after the interleaved carries, so the fold into limb 0 is done in 128 bits. */
static inline __attribute__((always_inline)) void reduce_wide(ecopt_fe *h, u128 c0, u128 c1, u128 c2, u128 c3, u128 c4) {
    uint64_t r0, r1, r2, r3, r4;
    c1 += (uint64_t)(c0 >> 51);
    r0 = (uint64_t)c0 & MASK51;
    c2 += (uint64_t)(c1 >> 51);
    r1 = (uint64_t)c1 & MASK51;
    c3 += (uint64_t)(c2 >> 51);
    r2 = (uint64_t)c2 & MASK51;
    c4 += (uint64_t)(c3 >> 51);
    r3 = (uint64_t)c3 & MASK51;
    /* c4 < 2^115 + 2^64, so c4 >> 51 < 2^65: fold it in 128 bits. */
    u128 t = (c4 >> 51) * 19 + r0;
    r4 = (uint64_t)c4 & MASK51;
    r0 = (uint64_t)t & MASK51;
    /* t < 2^70, so t >> 51 < 2^19: limb 1 < 2^51 + 2^19, which one more step brings below the tight bound. */
    r1 += (uint64_t)(t >> 51);
    r2 += r1 >> 51;
    r1 &= MASK51;
    h->v[0] = r0;
    h->v[1] = r1;
    h->v[2] = r2; /* < 2^51 + 1 */
    h->v[3] = r3;
    h->v[4] = r4;
}

#if !defined(ECOPT_FE_BACKEND_adx51) /* adx51: multiply and square are the .S files (fe_adx51.h) */
/* unused: the ifma backends' copy has no caller of these two unless built with ECOPT_FE_U64_HANDWRITTEN */
static inline __attribute__((always_inline, unused)) void fe_mul_handwritten(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3], g4 = g->v[4];
    uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4;
    /* Schoolbook product; a term f_i g_j with i + j >= 5 stands at 2^(51(i+j)) = 2^255 2^(51(i+j-5)), and
     * 2^255 = 19 mod p, so it moves down five limbs times 19. */
    u128 c0 = (u128)f0 * g0 + (u128)f1 * g4_19 + (u128)f2 * g3_19 + (u128)f3 * g2_19 + (u128)f4 * g1_19;
    u128 c1 = (u128)f0 * g1 + (u128)f1 * g0 + (u128)f2 * g4_19 + (u128)f3 * g3_19 + (u128)f4 * g2_19;
    u128 c2 = (u128)f0 * g2 + (u128)f1 * g1 + (u128)f2 * g0 + (u128)f3 * g4_19 + (u128)f4 * g3_19;
    u128 c3 = (u128)f0 * g3 + (u128)f1 * g2 + (u128)f2 * g1 + (u128)f3 * g0 + (u128)f4 * g4_19;
    u128 c4 = (u128)f0 * g4 + (u128)f1 * g3 + (u128)f2 * g2 + (u128)f3 * g1 + (u128)f4 * g0;
    reduce_wide(h, c0, c1, c2, c3, c4);
}
#endif

/* The coefficients of f^2 (the same reduction as mul, with each cross term f_i f_j, i != j, counted twice). */
static inline __attribute__((always_inline)) void sq_coeffs(const ecopt_fe *f, u128 c[5]) {
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t d0 = 2 * f0, d1 = 2 * f1, d2 = 2 * f2, d3 = 2 * f3;
    uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4;
    c[0] = (u128)f0 * f0 + (u128)d1 * f4_19 + (u128)d2 * f3_19;
    c[1] = (u128)d0 * f1 + (u128)d2 * f4_19 + (u128)f3 * f3_19;
    c[2] = (u128)d0 * f2 + (u128)f1 * f1 + (u128)d3 * f4_19;
    c[3] = (u128)d0 * f3 + (u128)d1 * f2 + (u128)f4 * f4_19;
    c[4] = (u128)d0 * f4 + (u128)d1 * f3 + (u128)f2 * f2;
}

#if !defined(ECOPT_FE_BACKEND_adx51)
static inline __attribute__((always_inline, unused)) void fe_sq_handwritten(ecopt_fe *h, const ecopt_fe *f) {
    u128 c[5];
    sq_coeffs(f, c);
    reduce_wide(h, c[0], c[1], c[2], c[3], c[4]);
}

/* The multiply and square exist twice: hand-written above, and generated by `ecopt gen` (the files below; their
 * bounds, in their headers, take every loose input and give tight output as defined in fe_u64.h: inputs up to
 * 3 * 2^51 - 39 per limb, output limbs below 2^51 except limb 1 below 2^51 + 2^10). ecopt_fe_mul and ecopt_fe_sq
 * use the generated ones, which `make bench` measures at least as fast (docs/optimizer.md, "C emitter"); both
 * stay exported under their own names so that the benchmark compares them in one process.
 * For adx51, ecopt_fe_mul and ecopt_fe_sq (ecopt_fe_mul_adx51, ecopt_fe_sq_adx51 after backend_ns.h) are the .S files
 * in src/field/generated/ (fe_adx51.h), so none of this is compiled there. */
#include "field/generated/ecopt_fe_mul_u64_gen.c"
#include "field/generated/ecopt_fe_sq_u64_gen.c"

/* Once, in the u64 backend: the ifma backends compile this file again and must not define them a second time. */
#if defined(ECOPT_FE_BACKEND_u64)
void ecopt_fe_u64_mul_handwritten(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) { fe_mul_handwritten(h, f, g); }
void ecopt_fe_u64_sq_handwritten(ecopt_fe *h, const ecopt_fe *f) { fe_sq_handwritten(h, f); }
void ecopt_fe_u64_mul_generated(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    ecopt_fe_mul_u64_gen(h->v, f->v, g->v);
}
void ecopt_fe_u64_sq_generated(ecopt_fe *h, const ecopt_fe *f) { ecopt_fe_sq_u64_gen(h->v, f->v); }
#endif

#ifdef ECOPT_FE_U64_HANDWRITTEN
void ecopt_fe_mul(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) { fe_mul_handwritten(h, f, g); }
void ecopt_fe_sq(ecopt_fe *h, const ecopt_fe *f) { fe_sq_handwritten(h, f); }
#else
void ecopt_fe_mul(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) { ecopt_fe_mul_u64_gen(h->v, f->v, g->v); }
void ecopt_fe_sq(ecopt_fe *h, const ecopt_fe *f) { ecopt_fe_sq_u64_gen(h->v, f->v); }
#endif
#endif /* !ECOPT_FE_BACKEND_adx51 */

void ecopt_fe_sq2(ecopt_fe *h, const ecopt_fe *f) {
    u128 c[5];
    sq_coeffs(f, c);
    /* Each coefficient < 2^113, so doubling stays below 2^115 (reduce_wide's bound). */
    reduce_wide(h, 2 * c[0], 2 * c[1], 2 * c[2], 2 * c[3], 2 * c[4]);
}

void ecopt_fe_sq_n(ecopt_fe *h, const ecopt_fe *f, unsigned n) {
    ecopt_fe_sq(h, f);
    for (unsigned i = 1; i < n; i++) ecopt_fe_sq(h, h);
}

void ecopt_fe_mul_small(ecopt_fe *h, const ecopt_fe *f, uint32_t c) {
    /* Each product < (2^52 + 2^16) 2^20 < 2^73. */
    reduce_wide(h, (u128)f->v[0] * c, (u128)f->v[1] * c, (u128)f->v[2] * c, (u128)f->v[3] * c,
                (u128)f->v[4] * c);
}

#include "field/fe_common_impl.h"
