/* ifma_probe.c — an experiment: how fast a 4-way AVX-512 IFMA Montgomery ladder (X25519, RFC 7748) runs on
 * the host, next to libecopt's X25519 and libsodium's. Not library code and not a backend: a measured prototype.
 *
 *   ifma_probe --check [--random N]   RFC 7748 section 5.2 vectors (and the 1 and 1000 iterations) and N random or
 *                                     edge inputs (default 1000) against ecopt_x25519, for the plain-C emulation of
 *                                     the IFMA instructions (every CPU), for the vector code with only the IFMA
 *                                     instructions emulated (AVX2 CPUs) and for the IFMA code (when cpuid reports
 *                                     AVX512F, AVX512VL and AVX512IFMA and the OS saves zmm state; else a SKIP line)
 *   ifma_probe --bench [--rounds N]   median rdtsc ticks per ladder step and per X25519, interleaved in one process
 *                                     with ecopt_x25519 and libsodium's crypto_scalarmult, and the step in core
 *                                     cycles by the ticks-per-cycle ratio measured in the run; SKIP line without IFMA
 *   ifma_probe --baseline [--rounds N]  the last two only (the ratio the IFMA figures are compared with)
 * Exit 0 when all checks pass (or are skipped), 1 otherwise.
 *
 * The ladder itself is ifma_probe_ladder.h, included twice. The inversion at the end is a scalar radix-2^51 Fermat
 * chain (z^(p-2), Bernstein's 11-multiplication chain from "Curve25519: new Diffie-Hellman speed records", 2006). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (the build is -std=c11) */
#include <cjson/cJSON.h>
#include <cpuid.h>
#include <immintrin.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "ecopt/ecopt.h"
#include "tick_cal.h"

#ifndef IFMA_PROBE_VECTORS
#error "IFMA_PROBE_VECTORS (the rfc7748_x25519.json path) is set by bench/CMakeLists.txt"
#endif

/* ---- the emulation copy: the instructions' semantics (Intel SDM, VPMADD52LUQ / VPMADD52HUQ) in plain C ---------- */
typedef struct {
    uint64_t w[4];
} emu_v;
#define M52 ((UINT64_C(1) << 52) - 1)
/* Multiplier operands with bits above 52, which the instructions ignore: the ladder's bound arguments say none. */
static unsigned long emu_wide_operands;
static inline void emu_note_wide(emu_v a, emu_v b) {
    for (int i = 0; i < 4; i++) emu_wide_operands += ((a.w[i] | b.w[i]) >> 52) != 0;
}
static inline emu_v emu_madd52lo(emu_v c, emu_v a, emu_v b) {
    emu_note_wide(a, b);
    for (int i = 0; i < 4; i++) c.w[i] += (uint64_t)((unsigned __int128)(a.w[i] & M52) * (b.w[i] & M52)) & M52;
    return c;
}
static inline emu_v emu_madd52hi(emu_v c, emu_v a, emu_v b) {
    emu_note_wide(a, b);
    for (int i = 0; i < 4; i++) c.w[i] += (uint64_t)(((unsigned __int128)(a.w[i] & M52) * (b.w[i] & M52)) >> 52);
    return c;
}
#define EMU_OP(name, expr)                                                                                         \
    static inline emu_v emu_##name(emu_v a, emu_v b) {                                                             \
        emu_v r;                                                                                                   \
        for (int i = 0; i < 4; i++) r.w[i] = (expr);                                                               \
        return r;                                                                                                  \
    }
EMU_OP(add, a.w[i] + b.w[i])
EMU_OP(sub, a.w[i] - b.w[i])
EMU_OP(and, a.w[i] & b.w[i])
EMU_OP(or, a.w[i] | b.w[i])
EMU_OP(andnot, ~a.w[i] & b.w[i])
#undef EMU_OP
static inline emu_v emu_srli(emu_v a, int n) {
    for (int i = 0; i < 4; i++) a.w[i] >>= n;
    return a;
}
static inline emu_v emu_slli(emu_v a, int n) {
    for (int i = 0; i < 4; i++) a.w[i] <<= n;
    return a;
}
static inline emu_v emu_set1(uint64_t x) { return (emu_v){{x, x, x, x}}; }
static inline emu_v emu_set4(uint64_t a, uint64_t b, uint64_t c, uint64_t d) { return (emu_v){{a, b, c, d}}; }
static inline void emu_store(uint64_t *p, emu_v a) { memcpy(p, a.w, sizeof a.w); }
static inline emu_v emu_perm(emu_v a, int imm) {
    emu_v r;
    for (int i = 0; i < 4; i++) r.w[i] = a.w[(imm >> (2 * i)) & 3];
    return r;
}
static inline emu_v emu_blend(emu_v a, emu_v b, int m) {
    for (int i = 0; i < 4; i++)
        if (m >> i & 1) a.w[i] = b.w[i]; /* m is a compile-time constant lane pattern, never secret */
    return a;
}

#define V emu_v
#define ATTR
#define NS(x) x##_emu
#define v_madd52lo emu_madd52lo
#define v_madd52hi emu_madd52hi
#define v_add emu_add
#define v_sub emu_sub
#define v_and emu_and
#define v_or emu_or
#define v_andnot emu_andnot
#define V_SRLI emu_srli
#define V_SLLI emu_slli
#define v_set1 emu_set1
#define v_set4 emu_set4
#define v_store emu_store
#define V_PERM emu_perm
#define V_BLEND emu_blend
#include "ifma_probe_ladder.h"
#undef V
#undef ATTR
#undef NS
#undef v_madd52lo
#undef v_madd52hi
#undef v_add
#undef v_sub
#undef v_and
#undef v_or
#undef v_andnot
#undef V_SRLI
#undef V_SLLI
#undef v_set1
#undef v_set4
#undef v_store
#undef V_PERM
#undef V_BLEND
#undef PERM4
#undef MASK51

/* ---- the vector copies: ymm registers, four lanes. All but the two IFMA instructions are AVX2 intrinsics, shared
 * by the IFMA copy and the "avx2" copy, which runs the same vector code with the IFMA instructions emulated lane by
 * lane, so the lane mapping of every permute, blend and constant is tested on CPUs without AVX-512 too. ---------- */
#define V __m256i
#define v_add _mm256_add_epi64
#define v_sub _mm256_sub_epi64
#define v_and _mm256_and_si256
#define v_or _mm256_or_si256
#define v_andnot _mm256_andnot_si256
#define V_SRLI _mm256_srli_epi64
#define V_SLLI _mm256_slli_epi64
#define v_set1(x) _mm256_set1_epi64x((long long)(x))
#define v_set4(a, b, c, d) _mm256_set_epi64x((long long)(d), (long long)(c), (long long)(b), (long long)(a))
#define v_store(p, a) _mm256_storeu_si256((__m256i *)(void *)(p), (a))
#define V_PERM _mm256_permute4x64_epi64
/* vpblendd: two 32-bit selector bits per 64-bit lane. */
#define V_BLEND(a, b, m)                                                                                           \
    _mm256_blend_epi32((a), (b), (((m) & 1) ? 0x03 : 0) | (((m) & 2) ? 0x0c : 0) | (((m) & 4) ? 0x30 : 0) |        \
                                     (((m) & 8) ? 0xc0 : 0))

#define ATTR __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define NS(x) x##_ifma
#define v_madd52lo _mm256_madd52lo_epu64
#define v_madd52hi _mm256_madd52hi_epu64
#include "ifma_probe_ladder.h"
#undef ATTR
#undef NS
#undef v_madd52lo
#undef v_madd52hi
#undef PERM4
#undef MASK51

#define ATTR __attribute__((target("avx2")))
#define NS(x) x##_avx2
static ATTR inline __m256i avx2_madd52lo(__m256i c, __m256i a, __m256i b) {
    emu_v cv, av, bv;
    _mm256_storeu_si256((__m256i *)(void *)cv.w, c);
    _mm256_storeu_si256((__m256i *)(void *)av.w, a);
    _mm256_storeu_si256((__m256i *)(void *)bv.w, b);
    cv = emu_madd52lo(cv, av, bv);
    return _mm256_loadu_si256((const __m256i *)(const void *)cv.w);
}
static ATTR inline __m256i avx2_madd52hi(__m256i c, __m256i a, __m256i b) {
    emu_v cv, av, bv;
    _mm256_storeu_si256((__m256i *)(void *)cv.w, c);
    _mm256_storeu_si256((__m256i *)(void *)av.w, a);
    _mm256_storeu_si256((__m256i *)(void *)bv.w, b);
    cv = emu_madd52hi(cv, av, bv);
    return _mm256_loadu_si256((const __m256i *)(const void *)cv.w);
}
#define v_madd52lo avx2_madd52lo
#define v_madd52hi avx2_madd52hi
#include "ifma_probe_ladder.h"

/* ---- scalar radix-2^51 field: decoding, the final inversion and encoding ---------------------------------------- */
typedef unsigned __int128 u128;
#define MASK51_S ((UINT64_C(1) << 51) - 1)

/* h = f g mod p. In: limbs < 2^52 (so 19 g_j < 2^57 and every product < 2^109). Columns < 5 * 2^109 < 2^112.
 * Out: limbs < 2^51 + 2^15. */
static unsigned long fe51_wide_inputs; /* inputs of 2^52 or more: none, by the bound arguments (--check counts) */
static void fe51_mul(uint64_t h[5], const uint64_t f[5], const uint64_t g[5]) {
    uint64_t g19[5];
    for (int j = 0; j < 5; j++) fe51_wide_inputs += ((f[j] | g[j]) >> 52) != 0; /* public: a bound check */
    for (int j = 1; j < 5; j++) g19[j] = 19 * g[j]; /* 2^255 = 19 (mod p) */
    u128 c0 = (u128)f[0] * g[0] + (u128)f[1] * g19[4] + (u128)f[2] * g19[3] + (u128)f[3] * g19[2] + (u128)f[4] * g19[1];
    u128 c1 = (u128)f[0] * g[1] + (u128)f[1] * g[0] + (u128)f[2] * g19[4] + (u128)f[3] * g19[3] + (u128)f[4] * g19[2];
    u128 c2 = (u128)f[0] * g[2] + (u128)f[1] * g[1] + (u128)f[2] * g[0] + (u128)f[3] * g19[4] + (u128)f[4] * g19[3];
    u128 c3 = (u128)f[0] * g[3] + (u128)f[1] * g[2] + (u128)f[2] * g[1] + (u128)f[3] * g[0] + (u128)f[4] * g19[4];
    u128 c4 = (u128)f[0] * g[4] + (u128)f[1] * g[3] + (u128)f[2] * g[2] + (u128)f[3] * g[1] + (u128)f[4] * g[0];
    c1 += (uint64_t)(c0 >> 51);
    h[0] = (uint64_t)c0 & MASK51_S;
    c2 += (uint64_t)(c1 >> 51);
    h[1] = (uint64_t)c1 & MASK51_S;
    c3 += (uint64_t)(c2 >> 51);
    h[2] = (uint64_t)c2 & MASK51_S;
    c4 += (uint64_t)(c3 >> 51);
    h[3] = (uint64_t)c3 & MASK51_S;
    uint64_t top = (uint64_t)(c4 >> 51); /* < 2^62 */
    h[4] = (uint64_t)c4 & MASK51_S;
    u128 x = (u128)h[0] + (u128)top * 19;
    h[0] = (uint64_t)x & MASK51_S;
    h[1] += (uint64_t)(x >> 51); /* < 2^15 */
}

static void fe51_sqn(uint64_t h[5], const uint64_t f[5], int n) {
    memcpy(h, f, 5 * sizeof *h);
    for (int i = 0; i < n; i++) fe51_mul(h, h, h);
}

/* h = z^(p-2) = z^(2^255 - 21) = 1/z (0 for z = 0): 254 squarings, 11 multiplications. */
static void fe51_invert(uint64_t h[5], const uint64_t z[5]) {
    uint64_t z2[5], z9[5], z11[5], a[5], b[5], c[5], t[5];
    fe51_mul(z2, z, z);         /* 2 */
    fe51_sqn(t, z2, 2);         /* 8 */
    fe51_mul(z9, t, z);         /* 9 */
    fe51_mul(z11, z9, z2);      /* 11 */
    fe51_mul(t, z11, z11);      /* 22 */
    fe51_mul(a, t, z9);         /* 2^5 - 1 */
    fe51_sqn(t, a, 5);
    fe51_mul(b, t, a);          /* 2^10 - 1 */
    fe51_sqn(t, b, 10);
    fe51_mul(c, t, b);          /* 2^20 - 1 */
    fe51_sqn(t, c, 20);
    fe51_mul(t, t, c);          /* 2^40 - 1 */
    fe51_sqn(t, t, 10);
    fe51_mul(b, t, b);          /* 2^50 - 1 */
    fe51_sqn(t, b, 50);
    fe51_mul(c, t, b);          /* 2^100 - 1 */
    fe51_sqn(t, c, 100);
    fe51_mul(t, t, c);          /* 2^200 - 1 */
    fe51_sqn(t, t, 50);
    fe51_mul(t, t, b);          /* 2^250 - 1 */
    fe51_sqn(t, t, 5);          /* 2^255 - 2^5 */
    fe51_mul(h, t, z11);        /* 2^255 - 21 */
}

/* u-coordinate decoding (RFC 7748 section 5: the top bit masked; values >= p kept, they reduce in the arithmetic). */
static void fe51_decode(uint64_t h[5], const uint8_t s[32]) {
    uint64_t w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = 0;
        for (int j = 7; j >= 0; j--) w[i] = (w[i] << 8) | s[8 * i + j];
    }
    w[3] &= (UINT64_C(1) << 63) - 1;
    h[0] = w[0] & MASK51_S;
    h[1] = ((w[0] >> 51) | (w[1] << 13)) & MASK51_S;
    h[2] = ((w[1] >> 38) | (w[2] << 26)) & MASK51_S;
    h[3] = ((w[2] >> 25) | (w[3] << 39)) & MASK51_S;
    h[4] = w[3] >> 12;
}

/* The canonical encoding of f (limbs < 2^52), constant time. */
static void fe51_encode(uint8_t s[32], const uint64_t f[5]) {
    uint64_t h[5], c;
    memcpy(h, f, sizeof h);
    for (int r = 0; r < 2; r++) { /* two carry passes: limbs < 2^51 + 1, value < 2^255 + 19 */
        c = 0;
        for (int i = 0; i < 5; i++) {
            h[i] += c;
            c = h[i] >> 51;
            h[i] &= MASK51_S;
        }
        h[0] += 19 * c;
    }
    /* q = 1 iff h >= p, i.e. h + 19 >= 2^255; then h - p = h + 19 - 2^255. */
    c = (h[0] + 19) >> 51;
    for (int i = 1; i < 5; i++) c = (h[i] + c) >> 51;
    h[0] += 19 * c;
    for (int i = 0; i < 4; i++) {
        h[i + 1] += h[i] >> 51;
        h[i] &= MASK51_S;
    }
    h[4] &= MASK51_S;
    uint64_t w[4] = {h[0] | h[1] << 51, h[1] >> 13 | h[2] << 38, h[2] >> 26 | h[3] << 25, h[3] >> 39 | h[4] << 12};
    for (int i = 0; i < 32; i++) s[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

/* out = X25519(scalar, u) with the given ladder. */
typedef void ladder_fn(uint64_t x2[5], uint64_t z2[5], const uint8_t k[32], const uint64_t u[5]);
static void x25519_with(ladder_fn *ladder, uint8_t out[32], const uint8_t scalar[32], const uint8_t ub[32]) {
    uint8_t k[32];
    uint64_t u[5], x2[5], z2[5], zi[5], r[5];
    memcpy(k, scalar, 32); /* clamping, RFC 7748 section 5 (decodeScalar25519) */
    k[0] &= 248;
    k[31] &= 127;
    k[31] |= 64;
    fe51_decode(u, ub);
    ladder(x2, z2, k, u);
    fe51_invert(zi, z2);
    fe51_mul(r, x2, zi);
    fe51_encode(out, r);
}
static void x25519_emu(uint8_t out[32], const uint8_t s[32], const uint8_t u[32]) { x25519_with(ladder_emu, out, s, u); }
static void x25519_ifma(uint8_t out[32], const uint8_t s[32], const uint8_t u[32]) {
    x25519_with(ladder_ifma, out, s, u);
}
static void x25519_avx2(uint8_t out[32], const uint8_t s[32], const uint8_t u[32]) {
    x25519_with(ladder_avx2, out, s, u);
}
typedef void x25519_fn(uint8_t out[32], const uint8_t s[32], const uint8_t u[32]);

/* ---- CPU test -------------------------------------------------------------------------------------------------- */
/* AVX512F (leaf 7 ebx bit 16), AVX512IFMA (bit 21), AVX512VL (bit 31), and the OS saving opmask, upper ymm and zmm
 * state (XCR0 bits 1, 2, 5, 6, 7; Intel SDM vol. 1, 15.2). */
static int have_ifma(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1)) return 0; /* OSXSAVE */
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 0xe6) != 0xe6) return 0;
    if (__get_cpuid_max(0, NULL) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b >> 16 & 1) && (b >> 21 & 1) && (b >> 31 & 1);
}

/* AVX2 (leaf 7 ebx bit 5) and the OS saving ymm state (XCR0 bits 1, 2). */
static int have_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1)) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 0x6) != 0x6 || __get_cpuid_max(0, NULL) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return b >> 5 & 1;
}

/* ---- checks ---------------------------------------------------------------------------------------------------- */
static int hex32(uint8_t out[32], const char *hex) {
    if (!hex || strlen(hex) != 64) return -1;
    for (int i = 0; i < 32; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

static uint64_t rng_state = UINT64_C(0x1f2e3d4c5b6a7988);
static uint64_t rng_u64(void) { /* splitmix64 (Steele, Lea and Flood, OOPSLA 2014) */
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
/* 32 bytes whose 64-bit words are uniform, zero, all ones, or all ones but the low bits (p's neighbourhood). */
static void rng_bytes(uint8_t out[32]) {
    for (int i = 0; i < 4; i++) {
        uint64_t w = rng_u64(), kind = rng_u64() % 8;
        if (kind == 0) w = 0;
        if (kind == 1) w = ~UINT64_C(0);
        if (kind == 2) w = ~UINT64_C(0) - (w & 63);
        memcpy(out + 8 * i, &w, 8);
    }
}

static int fails;
static void expect(const char *what, int i, const uint8_t got[32], const uint8_t want[32]) {
    if (memcmp(got, want, 32) == 0) return;
    if (fails++ < 10) {
        fprintf(stderr, "FAIL %s #%d\n  got  ", what, i);
        for (int j = 0; j < 32; j++) fprintf(stderr, "%02x", got[j]);
        fprintf(stderr, "\n  want ");
        for (int j = 0; j < 32; j++) fprintf(stderr, "%02x", want[j]);
        fprintf(stderr, "\n");
    }
}

static cJSON *load_vectors(void) {
    FILE *f = fopen(IFMA_PROBE_VECTORS, "rb");
    if (!f) {
        perror(IFMA_PROBE_VECTORS);
        exit(1);
    }
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    cJSON *j = cJSON_Parse(buf);
    if (!j) {
        fprintf(stderr, "%s: not JSON\n", IFMA_PROBE_VECTORS);
        exit(1);
    }
    return j;
}

static void check_one(const char *name, x25519_fn *fn, long nrandom) {
    int before = fails, nvec = 0;
    cJSON *j = load_vectors(), *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "scalar_multiplication")) {
        uint8_t k[32], u[32], want[32], got[32];
        if (hex32(k, cJSON_GetStringValue(cJSON_GetObjectItem(c, "scalar"))) ||
            hex32(u, cJSON_GetStringValue(cJSON_GetObjectItem(c, "u"))) ||
            hex32(want, cJSON_GetStringValue(cJSON_GetObjectItem(c, "output")))) {
            fprintf(stderr, "bad vector file\n");
            exit(1);
        }
        fn(got, k, u);
        expect("rfc7748 5.2", nvec++, got, want);
    }
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "iterated")) {
        long iters = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(c, "iterations"));
        uint8_t k[32] = {9}, u[32] = {9}, want[32], t[32];
        if (iters > 1000) continue; /* the 10^6 one takes minutes */
        if (hex32(want, cJSON_GetStringValue(cJSON_GetObjectItem(c, "output")))) exit(1);
        for (long i = 0; i < iters; i++) {
            fn(t, k, u);
            memcpy(u, k, 32);
            memcpy(k, t, 32);
        }
        expect("rfc7748 5.2 iterated", (int)iters, k, want);
        nvec++;
    }
    cJSON_Delete(j);
    /* edge u (0, 1, p - 1, p, p + 1, 2^255 - 1 masked, all bytes 0xff) and random ones vs libecopt */
    static const uint8_t pm[32] = {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}; /* p - 1 */
    rng_state = UINT64_C(0x1f2e3d4c5b6a7988);
    for (long i = 0; i < nrandom; i++) {
        uint8_t k[32], u[32], want[32], got[32];
        rng_bytes(k);
        rng_bytes(u);
        if (i < 7) {
            memset(u, 0, 32);
            if (i == 1) u[0] = 1;
            if (i >= 2 && i <= 4) memcpy(u, pm, 32), u[0] = (uint8_t)(0xec + (i - 2)); /* p - 1, p, p + 1 */
            if (i == 5) memset(u, 0xff, 32), u[31] = 0x7f;
            if (i == 6) memset(u, 0xff, 32);
        }
        int rc = ecopt_x25519(want, k, u); /* small-order u: ECOPT_ERR_SMALL_ORDER and zeros, which X25519 gives */
        if (rc != ECOPT_OK && rc != ECOPT_ERR_SMALL_ORDER) {
            fprintf(stderr, "ecopt_x25519: %s\n", ecopt_strerror(rc));
            exit(1);
        }
        fn(got, k, u);
        expect("random vs ecopt_x25519", (int)i, got, want);
    }
    printf("ifma_probe: %s: %d RFC 7748 vectors, %ld inputs vs ecopt_x25519 (%s): %s\n", name, nvec, nrandom,
           ecopt_backend_name(), fails == before ? "ok" : "FAILED");
}

/* ---- benchmark ------------------------------------------------------------------------------------------------- */
static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
static double median(uint64_t *x, int n) {
    qsort(x, (size_t)n, sizeof *x, cmp_u64);
    return n % 2 ? (double)x[n / 2] : 0.5 * ((double)x[n / 2 - 1] + (double)x[n / 2]);
}

static uint64_t sink;
static void sodium_x25519(uint8_t out[32], const uint8_t s[32], const uint8_t u[32]) {
    if (crypto_scalarmult(out, s, u) != 0) memset(out, 0, 32);
}
static void ecopt_x25519_void(uint8_t out[32], const uint8_t s[32], const uint8_t u[32]) {
    if (ecopt_x25519(out, s, u) != ECOPT_OK) memset(out, 0, 32);
}
/* The scalar tail of the probe's X25519 (inversion, one multiplication, encoding): no IFMA, timed on any CPU. */
static void probe_tail(uint8_t out[32], const uint8_t s[32], const uint8_t u[32]) {
    uint64_t x[5], z[5], zi[5], r[5];
    (void)s;
    fe51_decode(x, u);
    fe51_decode(z, out);
    fe51_invert(zi, z);
    fe51_mul(r, x, zi);
    fe51_encode(out, r);
}


enum { STEPS_PER_CALL = 255 };
static int bench(int rounds, int with_ifma) {
    enum { NI = 5 };
    const char *names[NI] = {"ifma 4-way X25519", "ifma 4-way ladder step x255", "ecopt_x25519", "libsodium",
                             "probe's scalar inversion tail"};
    x25519_fn *fns[NI] = {x25519_ifma, NULL, ecopt_x25519_void, sodium_x25519, probe_tail};
    uint64_t *samp[NI];
    for (int k = 0; k < NI; k++) samp[k] = calloc((size_t)rounds, sizeof(uint64_t));
    uint8_t s[32], u[32], out[32] = {9};
    uint64_t ul[5];
    rng_bytes(s);
    rng_bytes(u);
    u[31] &= 127;
    fe51_decode(ul, u);
    int first = with_ifma ? 0 : 2;
    for (int w = 0; w < 50; w++) /* warm-up */
        for (int k = first; k < NI; k++)
            if (fns[k]) fns[k](out, s, u);
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < NI - first; j++) {
            int k = first + (r + j) % (NI - first); /* rotate the order each round */
            uint64_t t0 = ticks();
            if (fns[k]) {
                fns[k](out, s, u);
                sink ^= out[0];
            } else {
                sink ^= steps_ifma(STEPS_PER_CALL, ul);
            }
            samp[k][r] = ticks() - t0;
            s[1] ^= out[1]; /* fresh inputs now and then, without a data dependence on the timing */
        }
    double med[NI];
    for (int k = first; k < NI; k++) med[k] = median(samp[k], rounds);
    double tpc_lo, tpc_hi, tpc = ticks_per_cycle(&tpc_lo, &tpc_hi);
    printf("ifma_probe bench: median rdtsc ticks, %d rounds interleaved (1 core cycle = %.3f TSC ticks, measured "
           "after them: a chain of dependent adds, median of %d trials in %d ms, quartiles %.3f-%.3f)\n",
           rounds, tpc, TICK_CAL_TRIALS, TICK_CAL_MS, tpc_lo, tpc_hi);
    for (int k = first; k < NI; k++) {
        printf("  %-30s %10.0f ticks", names[k], med[k]);
        if (k == 1) printf("  = %.1f ticks per step (%.1f cycles)", med[k] / STEPS_PER_CALL,
                           med[k] / STEPS_PER_CALL / tpc);
        if (k != 1) printf("  ratio vs libsodium %.3f", med[k] / med[3]);
        if (k == 0) printf("  (%.0f ticks outside the 255 steps)", med[0] - med[1]);
        printf("\n");
    }
    for (int k = 0; k < NI; k++) free(samp[k]);
    return 0;
}

int main(int argc, char **argv) {
    if (sodium_init() < 0 || ecopt_backend_init() != ECOPT_OK) {
        fprintf(stderr, "ifma_probe: sodium_init or ecopt_backend_init failed\n");
        return 1;
    }
    const char *mode = argc > 1 ? argv[1] : "--check";
    long nrandom = 1000;
    int rounds = 2001;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--random")) nrandom = strtol(argv[i + 1], NULL, 10);
        if (!strcmp(argv[i], "--rounds")) rounds = (int)strtol(argv[i + 1], NULL, 10);
    }
    if (rounds < 1) rounds = 1;
    int ifma = have_ifma();
    if (!strcmp(mode, "--check")) {
        check_one("emulated IFMA (plain C)", x25519_emu, nrandom);
        if (have_avx2())
            check_one("AVX2 with emulated IFMA", x25519_avx2, nrandom);
        else
            printf("ifma_probe: SKIP AVX2 check: cpuid/XCR0 report no AVX2 on this CPU\n");
        if (ifma)
            check_one("AVX-512 IFMA", x25519_ifma, nrandom);
        else
            printf("ifma_probe: SKIP AVX-512 IFMA check: cpuid/XCR0 report no AVX512F+VL+IFMA on this CPU\n");
        if (fe51_wide_inputs) {
            printf("ifma_probe: FAIL: %lu scalar multiplication inputs of 2^52 or more\n", fe51_wide_inputs);
            fails++;
        }
        if (emu_wide_operands) {
            printf("ifma_probe: FAIL: %lu multiplier operands of 2^52 or more in the emulated runs\n", emu_wide_operands);
            fails++;
        }
        return fails ? 1 : 0;
    }
    if (!strcmp(mode, "--bench") || !strcmp(mode, "--baseline")) {
        if (!ifma && !strcmp(mode, "--bench")) {
            printf("ifma_probe: SKIP bench: cpuid/XCR0 report no AVX512F+VL+IFMA on this CPU\n");
            return 0;
        }
        return bench(rounds, ifma && !strcmp(mode, "--bench"));
    }
    fprintf(stderr, "usage: ifma_probe --check [--random N] | --bench [--rounds N] | --baseline [--rounds N]\n");
    return 2;
}
