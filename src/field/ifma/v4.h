/* v4.h — four 64-bit lanes: the vector operations of the ifma backend, over AVX-512VL/IFMA on ymm registers or, with
 * ECOPT_IFMA_EMULATE defined (the ifma_emu backend), over portable C that computes exactly the same lane values.
 *
 * Type ecopt_v4: four uint64_t lanes, lane 0 first (lane i is element i of ecopt_v4_store's array). Every function
 * is static inline and works lane by lane unless it says otherwise. An eight-lane twin (zmm, ecopt_v8_*) keeps these
 * names with 8 for 4, so code written over one carries to the other.
 *
 * Target: the real functions carry ECOPT_IFMA_TARGET (gcc/clang target attribute for AVX-512F, VL and IFMA) and only
 * code with the same attribute may call them; the library as a whole is compiled for baseline x86-64, and no
 * AVX-512 instruction runs before the backend's available() has read cpuid and XCR0.
 * Macros, not functions, where the instruction needs an immediate operand that a function parameter cannot be under
 * clang: ECOPT_V4_PERMUTE.
 *
 * Time: every operation is constant time in its lane values. Lane masks given as integers (ecopt_v4_blend's m) and
 * shift counts and permutation indices are public constants of the code, never data.
 *
 * Source: the instructions' semantics, Intel 64 and IA-32 Architectures Software Developer's Manual, vol. 2:
 * VPMADD52LUQ, VPMADD52HUQ (both multiply the low 52 bits of each 64-bit lane of the two multiplier operands; the
 * 104-bit product's bits 0..51, resp. 52..103, are added to the accumulator lane modulo 2^64), VPERMQ, VPBLENDMQ,
 * VPTERNLOGQ. */
#ifndef ECOPT_FIELD_IFMA_V4_H
#define ECOPT_FIELD_IFMA_V4_H

#include <stdint.h>
#include <string.h>

#include "ct.h"

#if defined(ECOPT_FE_BACKEND_ifma_emu) && !defined(ECOPT_IFMA_EMULATE)
#error "the ifma_emu backend is compiled with ECOPT_IFMA_EMULATE (CMakeLists.txt)"
#endif

#if defined(ECOPT_IFMA_EMULATE)

/* ---- emulation: plain C, any CPU ------------------------------------------------------------------------------- */
typedef struct ecopt_v4 {
    uint64_t w[4];
} ecopt_v4;

/* ECOPT_IFMA_TARGET — the attribute of every function that uses these operations (empty here). ECOPT_IFMA_INLINE —
 * static inline, always inlined, with that attribute. */
#define ECOPT_IFMA_TARGET
#define ECOPT_IFMA_INLINE static inline __attribute__((always_inline))

/* The low 52 bits of a multiplier lane: the instructions read only those. */
#define ECOPT_V4_M52 ((((uint64_t)1) << 52) - 1)

/* ecopt_v4_madd52lo — c + (bits 0..51 of a[51:0] * b[51:0]) mod 2^64, per lane (VPMADD52LUQ). */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_madd52lo(ecopt_v4 c, ecopt_v4 a, ecopt_v4 b) {
    #pragma GCC unroll 10
    for (int i = 0; i < 4; i++)
        c.w[i] += (uint64_t)((unsigned __int128)(a.w[i] & ECOPT_V4_M52) * (b.w[i] & ECOPT_V4_M52)) & ECOPT_V4_M52;
    return c;
}

/* ecopt_v4_madd52hi — c + (bits 52..103 of a[51:0] * b[51:0]) mod 2^64, per lane (VPMADD52HUQ). */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_madd52hi(ecopt_v4 c, ecopt_v4 a, ecopt_v4 b) {
    #pragma GCC unroll 10
    for (int i = 0; i < 4; i++)
        c.w[i] += (uint64_t)(((unsigned __int128)(a.w[i] & ECOPT_V4_M52) * (b.w[i] & ECOPT_V4_M52)) >> 52);
    return c;
}

#define ECOPT_V4_LANEWISE(name, expr)                                                                              \
    ECOPT_IFMA_INLINE ecopt_v4 name(ecopt_v4 a, ecopt_v4 b) {                                                      \
        ecopt_v4 r;                                                                                                \
        _Pragma("GCC unroll 10")                                                                                   \
        for (int i = 0; i < 4; i++) r.w[i] = (expr);                                                               \
        return r;                                                                                                  \
    }
/* ecopt_v4_add, _sub — a + b, a - b mod 2^64; _and, _or, _xor — bitwise; _andnot — ~a & b (VPANDNQ's order). */
ECOPT_V4_LANEWISE(ecopt_v4_add, a.w[i] + b.w[i])
ECOPT_V4_LANEWISE(ecopt_v4_sub, a.w[i] - b.w[i])
ECOPT_V4_LANEWISE(ecopt_v4_and, a.w[i] & b.w[i])
ECOPT_V4_LANEWISE(ecopt_v4_or, a.w[i] | b.w[i])
ECOPT_V4_LANEWISE(ecopt_v4_xor, a.w[i] ^ b.w[i])
ECOPT_V4_LANEWISE(ecopt_v4_andnot, ~a.w[i] & b.w[i])
#undef ECOPT_V4_LANEWISE

/* ecopt_v4_srli, _slli — a >> n, a << n, for a public constant 0 <= n < 64. */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_srli(ecopt_v4 a, unsigned n) {
    #pragma GCC unroll 10
    for (int i = 0; i < 4; i++) a.w[i] >>= n;
    return a;
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_slli(ecopt_v4 a, unsigned n) {
    #pragma GCC unroll 10
    for (int i = 0; i < 4; i++) a.w[i] <<= n;
    return a;
}

/* ecopt_v4_set1 — x in every lane; ecopt_v4_set4 — (l0, l1, l2, l3), lane 0 first; ecopt_v4_zero — 0. */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_set1(uint64_t x) {
    ecopt_v4 r = {{x, x, x, x}};
    return r;
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_set4(uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3) {
    ecopt_v4 r = {{l0, l1, l2, l3}};
    return r;
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_zero(void) {
    return ecopt_v4_set1(0);
}

/* ecopt_v4_load — the four lanes from p[0..3]; ecopt_v4_store — p[0..3] = the lanes. p need not be aligned. */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_load(const uint64_t p[4]) {
    ecopt_v4 r;
    memcpy(r.w, p, sizeof r.w);
    return r;
}
ECOPT_IFMA_INLINE void ecopt_v4_store(uint64_t p[4], ecopt_v4 a) {
    memcpy(p, a.w, sizeof a.w);
}

/* ECOPT_V4_PERMUTE(a, i0, i1, i2, i3) — (a[i0], a[i1], a[i2], a[i3]): lane k of the result is lane ik of a; the
 * indices are constants in 0..3 (VPERMQ with an immediate). */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_permute_emu(ecopt_v4 a, unsigned i0, unsigned i1, unsigned i2, unsigned i3) {
    ecopt_v4 r = {{a.w[i0 & 3], a.w[i1 & 3], a.w[i2 & 3], a.w[i3 & 3]}};
    return r;
}
#define ECOPT_V4_PERMUTE(a, i0, i1, i2, i3) ecopt_v4_permute_emu((a), (i0), (i1), (i2), (i3))

/* ecopt_v4_blend — lane i from b where bit i of m is set, else from a; m a public constant in 0..15 (VPBLENDMQ).
 * Mask arithmetic, not a branch, so that even a data-dependent m would leave no trace. */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_blend(ecopt_v4 a, ecopt_v4 b, unsigned m) {
    #pragma GCC unroll 10
    for (int i = 0; i < 4; i++) {
        uint64_t k = (uint64_t)0 - (uint64_t)((m >> i) & 1);
        a.w[i] ^= k & (a.w[i] ^ b.w[i]);
    }
    return a;
}

/* ecopt_v4_select — (mask & a) | (~mask & b), bit by bit: lanes of a where mask is all ones, of b where it is 0
 * (VPTERNLOGQ 0xca). mask may be secret. */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_select(ecopt_v4 mask, ecopt_v4 a, ecopt_v4 b) {
    #pragma GCC unroll 10
    for (int i = 0; i < 4; i++) b.w[i] ^= mask.w[i] & (a.w[i] ^ b.w[i]);
    return b;
}

#else /* !ECOPT_IFMA_EMULATE */

/* ---- AVX-512VL + IFMA on ymm registers ------------------------------------------------------------------------ */
#if !defined(__x86_64__)
#error "the ifma backend is x86-64 only; other targets build ifma_emu (ECOPT_IFMA_EMULATE)"
#endif
#include <immintrin.h>

typedef __m256i ecopt_v4;

#define ECOPT_IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define ECOPT_IFMA_INLINE static inline __attribute__((always_inline, target("avx512f,avx512vl,avx512ifma")))

ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_madd52lo(ecopt_v4 c, ecopt_v4 a, ecopt_v4 b) {
    return _mm256_madd52lo_epu64(c, a, b);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_madd52hi(ecopt_v4 c, ecopt_v4 a, ecopt_v4 b) {
    return _mm256_madd52hi_epu64(c, a, b);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_add(ecopt_v4 a, ecopt_v4 b) {
    return _mm256_add_epi64(a, b);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_sub(ecopt_v4 a, ecopt_v4 b) {
    return _mm256_sub_epi64(a, b);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_and(ecopt_v4 a, ecopt_v4 b) {
    return _mm256_and_si256(a, b);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_or(ecopt_v4 a, ecopt_v4 b) {
    return _mm256_or_si256(a, b);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_xor(ecopt_v4 a, ecopt_v4 b) {
    return _mm256_xor_si256(a, b);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_andnot(ecopt_v4 a, ecopt_v4 b) {
    return _mm256_andnot_si256(a, b);
}
/* n is a constant at every call: after inlining the compilers emit the immediate form. */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_srli(ecopt_v4 a, unsigned n) {
    return _mm256_srli_epi64(a, (int)n);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_slli(ecopt_v4 a, unsigned n) {
    return _mm256_slli_epi64(a, (int)n);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_set1(uint64_t x) {
    return _mm256_set1_epi64x((long long)x);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_set4(uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3) {
    return _mm256_set_epi64x((long long)l3, (long long)l2, (long long)l1, (long long)l0);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_zero(void) {
    return _mm256_setzero_si256();
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_load(const uint64_t p[4]) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
ECOPT_IFMA_INLINE void ecopt_v4_store(uint64_t p[4], ecopt_v4 a) {
    _mm256_storeu_si256((__m256i *)(void *)p, a);
}
#define ECOPT_V4_PERMUTE(a, i0, i1, i2, i3)                                                                        \
    _mm256_permute4x64_epi64((a), ((i0) & 3) | (((i1) & 3) << 2) | (((i2) & 3) << 4) | (((i3) & 3) << 6))
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_blend(ecopt_v4 a, ecopt_v4 b, unsigned m) {
    return _mm256_mask_blend_epi64((__mmask8)(m & 15), a, b);
}
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_select(ecopt_v4 mask, ecopt_v4 a, ecopt_v4 b) {
    return _mm256_ternarylogic_epi64(mask, a, b, 0xca);
}

#endif /* ECOPT_IFMA_EMULATE */

/* ecopt_v4_mask — all ones in every lane for bit = 1, 0 for bit = 0; bit exactly 0 or 1 (may be secret): ct.h's
 * mask, value barrier included, broadcast. */
ECOPT_IFMA_INLINE ecopt_v4 ecopt_v4_mask(uint64_t bit) {
    return ecopt_v4_set1(ecopt_ct_mask(bit));
}

#endif /* ECOPT_FIELD_IFMA_V4_H */
