/* test_v4_emu.c — field.v4_emu: the emulated lane operations of src/field/ifma/v4.h (ECOPT_IFMA_EMULATE, the
 * ifma_emu backend) against the real instructions (VPMADD52LUQ, VPMADD52HUQ and the rest), on this CPU.
 *
 * The emulation is what every CPU without AVX-512 tests the ifma code through, so it must compute exactly what the
 * instructions compute, including on inputs the library never feeds them: multiplier lanes with bits above 51
 * (the instructions ignore them), accumulators near 2^64 (the sum wraps). Inputs: every triple of an edge set (0,
 * 1, 2^51 +- 1, 2^52 +- 1, bits 52..63 only, 2^63, 2^64 - 1, ...) in each lane and random triples. Skips (77)
 * where the CPU lacks AVX-512 IFMA (the real side cannot run). */
#include <immintrin.h>
#include <stdio.h>
#include <string.h>

#include "field/ifma/v4.h"
#include "testutil.h"

#if !defined(ECOPT_IFMA_EMULATE)
#error "compiled with ECOPT_IFMA_EMULATE (tests/CMakeLists.txt): ecopt_v4 is the emulated type here"
#endif

/* The ifma backend's CPU test (src/field/fe_ifma.c), reached in the static library. */
int ecopt_fe_backend_available_ifma(void);

#define R __attribute__((target("avx512f,avx512vl,avx512ifma")))

static long n_checks;

static R __m256i real_of(ecopt_v4 a) {
    return _mm256_loadu_si256((const __m256i *)(const void *)a.w);
}

static R void expect_same(const char *op, ecopt_v4 emu, __m256i real, ecopt_v4 c, ecopt_v4 a, ecopt_v4 b) {
    uint64_t r[4];
    _mm256_storeu_si256((__m256i *)(void *)r, real);
    n_checks++;
    if (memcmp(r, emu.w, sizeof r) != 0) {
        tu_fail("%s: emulation differs from the instruction", op);
        for (int j = 0; j < 4; j++)
            fprintf(stderr, "  lane %d: c %#llx a %#llx b %#llx: emulated %#llx, real %#llx\n", j,
                    (unsigned long long)c.w[j], (unsigned long long)a.w[j], (unsigned long long)b.w[j],
                    (unsigned long long)emu.w[j], (unsigned long long)r[j]);
    }
}

static R void check_triple(ecopt_v4 c, ecopt_v4 a, ecopt_v4 b) {
    __m256i rc = real_of(c), ra = real_of(a), rb = real_of(b);
    expect_same("madd52lo", ecopt_v4_madd52lo(c, a, b), _mm256_madd52lo_epu64(rc, ra, rb), c, a, b);
    expect_same("madd52hi", ecopt_v4_madd52hi(c, a, b), _mm256_madd52hi_epu64(rc, ra, rb), c, a, b);
    expect_same("add", ecopt_v4_add(a, b), _mm256_add_epi64(ra, rb), c, a, b);
    expect_same("sub", ecopt_v4_sub(a, b), _mm256_sub_epi64(ra, rb), c, a, b);
    expect_same("and", ecopt_v4_and(a, b), _mm256_and_si256(ra, rb), c, a, b);
    expect_same("or", ecopt_v4_or(a, b), _mm256_or_si256(ra, rb), c, a, b);
    expect_same("xor", ecopt_v4_xor(a, b), _mm256_xor_si256(ra, rb), c, a, b);
    expect_same("andnot", ecopt_v4_andnot(a, b), _mm256_andnot_si256(ra, rb), c, a, b);
    expect_same("srli 1", ecopt_v4_srli(a, 1), _mm256_srli_epi64(ra, 1), c, a, b);
    expect_same("srli 51", ecopt_v4_srli(a, 51), _mm256_srli_epi64(ra, 51), c, a, b);
    expect_same("srli 63", ecopt_v4_srli(a, 63), _mm256_srli_epi64(ra, 63), c, a, b);
    expect_same("slli 1", ecopt_v4_slli(a, 1), _mm256_slli_epi64(ra, 1), c, a, b);
    expect_same("slli 4", ecopt_v4_slli(a, 4), _mm256_slli_epi64(ra, 4), c, a, b);
    expect_same("slli 63", ecopt_v4_slli(a, 63), _mm256_slli_epi64(ra, 63), c, a, b);
    expect_same("permute 0022", ECOPT_V4_PERMUTE(a, 0, 0, 2, 2), _mm256_permute4x64_epi64(ra, 0xa0), c, a, b);
    expect_same("permute 2301", ECOPT_V4_PERMUTE(a, 2, 3, 0, 1), _mm256_permute4x64_epi64(ra, 0x4e), c, a, b);
    expect_same("permute 3210", ECOPT_V4_PERMUTE(a, 3, 2, 1, 0), _mm256_permute4x64_epi64(ra, 0x1b), c, a, b);
    expect_same("permute 0132", ECOPT_V4_PERMUTE(a, 0, 1, 3, 2), _mm256_permute4x64_epi64(ra, 0xb4), c, a, b);
    for (unsigned m = 0; m < 16; m++)
        expect_same("blend", ecopt_v4_blend(a, b, m), _mm256_mask_blend_epi64((__mmask8)m, ra, rb), c, a, b);
    /* select by a mask vector: c as the mask, each lane forced to 0 or all ones (the contract) */
    ecopt_v4 mk;
    for (int j = 0; j < 4; j++) mk.w[j] = (uint64_t)0 - (c.w[j] & 1);
    expect_same("select", ecopt_v4_select(mk, a, b), _mm256_ternarylogic_epi64(real_of(mk), ra, rb, 0xca), mk, a, b);
}

static R void check_set(uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3) {
    ecopt_v4 z = ecopt_v4_zero();
    expect_same("set4", ecopt_v4_set4(x0, x1, x2, x3),
                _mm256_set_epi64x((long long)x3, (long long)x2, (long long)x1, (long long)x0), z, z, z);
    expect_same("set1", ecopt_v4_set1(x2), _mm256_set1_epi64x((long long)x2), z, z, z);
    expect_same("mask 1", ecopt_v4_mask(1), _mm256_set1_epi64x(-1), z, z, z);
    expect_same("mask 0", ecopt_v4_mask(0), _mm256_setzero_si256(), z, z, z);
}

int main(int argc, char **argv) {
    tu_opts o;
    tu_parse_opts(&o, argc, argv, 200000);
    if (!ecopt_fe_backend_available_ifma()) {
        printf("SKIP: this CPU lacks AVX-512 IFMA (or the OS its state): the emulation has nothing to be compared with\n");
        return 77;
    }
    tu_rng rng;
    tu_rng_seed(&rng, o.seed);
    const uint64_t one = 1;
    static uint64_t edges[] = {0, 1, 2, 19, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    size_t ne = 4;
    edges[ne++] = (one << 51) - 1;
    edges[ne++] = one << 51;
    edges[ne++] = (one << 52) - 1;
    edges[ne++] = one << 52;
    edges[ne++] = (one << 52) + 1;
    edges[ne++] = ~((one << 52) - 1);     /* bits 52..63 only: the instructions read 0 */
    edges[ne++] = ~(uint64_t)0 >> 1;      /* 2^63 - 1 */
    edges[ne++] = one << 63;
    edges[ne++] = ~(uint64_t)0;           /* 2^64 - 1: the accumulator wraps */
    edges[ne++] = ~(uint64_t)0 - ((one << 52) - 2);
    /* every edge triple, the four lanes rotated through the edge set */
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++)
            for (size_t k = 0; k < ne; k++) {
                ecopt_v4 c, a, b;
                for (int l = 0; l < 4; l++) {
                    c.w[l] = edges[(i + (size_t)l) % ne];
                    a.w[l] = edges[(j + 3 * (size_t)l) % ne];
                    b.w[l] = edges[(k + 5 * (size_t)l) % ne];
                }
                check_triple(c, a, b);
            }
    /* random triples: uniform, random bit density, and multipliers below 2^52 (the library's case) */
    for (long it = 0; it < o.iters; it++) {
        ecopt_v4 v[3];
        for (int t = 0; t < 3; t++) {
            uint8_t bytes[32];
            if (it % 3 == 0)
                tu_rng_bytes(&rng, bytes, 32);
            else
                tu_rng_bytes_density(&rng, bytes, 32);
            memcpy(v[t].w, bytes, 32);
            if (it % 3 == 2 && t > 0)
                for (int l = 0; l < 4; l++) v[t].w[l] &= (one << 52) - 1;
        }
        check_triple(v[0], v[1], v[2]);
        if (it % 64 == 0) check_set(v[0].w[0], v[1].w[1], v[2].w[2], v[0].w[3]);
        if (tu_failures > 1000) break;
    }
    printf("%ld checks\n", n_checks);
    return tu_finish("test_v4_emu");
}
