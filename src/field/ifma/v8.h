/* v8.h — eight 64-bit lanes: the vector operations the 8-way field code (fe8.h) is written in.
 *
 * Two builds of one interface. Normally an ecopt_v8 is a zmm register (__m512i) and each operation one AVX-512F or
 * AVX-512 IFMA instruction, in functions compiled for those features only (ECOPT_IFMA_TARGET, as v4.h): the rest of the library
 * stays portable, and the caller checks cpuid before reaching any of them. With ECOPT_IFMA_EMULATE defined, an
 * ecopt_v8 is eight uint64_t and every operation plain C computing exactly what the instruction computes, so the
 * same field, ladder and protocol sources build, run and are tested on every CPU (and under valgrind, which cannot
 * execute AVX-512).
 *
 * The two multiply-adds are the reason for the vector unit: per lane, vpmadd52luq adds the low 52 bits and
 * vpmadd52huq bits 52..103 of the 104-bit product of the low 52 bits of its two multiplicands (Intel SDM,
 * VPMADD52LUQ / VPMADD52HUQ). Bits 52..63 of a multiplicand are ignored, not an error: every caller must prove its
 * operands below 2^52, and the emulation truncates them exactly as the hardware does (so a missed bound shows as a
 * wrong result in the emulated tests too).
 *
 * Masks are vectors, lane by lane 0 or all ones (never AVX-512 k registers): a lane's own bit selects in that lane
 * only, and the emulation needs no branch to select. Time: every operation here runs in time independent of the
 * lane values (the emulation's selects pass each mask through a value barrier, as src/ct.h explains). */
#ifndef ECOPT_FIELD_IFMA_V8_H
#define ECOPT_FIELD_IFMA_V8_H

#include <stdint.h>
#include <string.h>

#if defined(ECOPT_IFMA_EMULATE)

typedef struct {
    uint64_t w[8];
} ecopt_v8;

/* ECOPT_IFMA_TARGET, ECOPT_IFMA_INLINE: as in v4.h (empty target, static inline always inlined); the same
 * definitions, so the two headers may be included together in either order. */
#define ECOPT_IFMA_TARGET
#define ECOPT_IFMA_INLINE static inline __attribute__((always_inline))

/* The lane loop of every emulated operation. ecopt_v8_andnot is ~a & b (VPANDNQ's order), as v4.h's. */
#define ECOPT_V8_MAP(expr)                                                                                         \
    ecopt_v8 r;                                                                                                    \
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) r.w[i] = (expr);                                           \
    return r

ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_set1(uint64_t x) { ECOPT_V8_MAP(x); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_load(const uint64_t p[8]) { ECOPT_V8_MAP(p[i]); }
ECOPT_IFMA_INLINE void ecopt_v8_store(uint64_t p[8], ecopt_v8 a) { memcpy(p, a.w, sizeof a.w); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_add(ecopt_v8 a, ecopt_v8 b) { ECOPT_V8_MAP(a.w[i] + b.w[i]); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_sub(ecopt_v8 a, ecopt_v8 b) { ECOPT_V8_MAP(a.w[i] - b.w[i]); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_and(ecopt_v8 a, ecopt_v8 b) { ECOPT_V8_MAP(a.w[i] & b.w[i]); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_or(ecopt_v8 a, ecopt_v8 b) { ECOPT_V8_MAP(a.w[i] | b.w[i]); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_xor(ecopt_v8 a, ecopt_v8 b) { ECOPT_V8_MAP(a.w[i] ^ b.w[i]); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_andnot(ecopt_v8 a, ecopt_v8 b) { ECOPT_V8_MAP(~a.w[i] & b.w[i]); }
/* Shifts by a count n in 0..63 (public). */
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_srli(ecopt_v8 a, unsigned n) { ECOPT_V8_MAP(a.w[i] >> n); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_slli(ecopt_v8 a, unsigned n) { ECOPT_V8_MAP(a.w[i] << n); }
#define ECOPT_V8_M52 ((UINT64_C(1) << 52) - 1)
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_madd52lo(ecopt_v8 c, ecopt_v8 a, ecopt_v8 b) {
    ECOPT_V8_MAP(c.w[i] + ((uint64_t)((unsigned __int128)(a.w[i] & ECOPT_V8_M52) * (b.w[i] & ECOPT_V8_M52)) &
                           ECOPT_V8_M52));
}
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_madd52hi(ecopt_v8 c, ecopt_v8 a, ecopt_v8 b) {
    ECOPT_V8_MAP(c.w[i] + (uint64_t)(((unsigned __int128)(a.w[i] & ECOPT_V8_M52) * (b.w[i] & ECOPT_V8_M52)) >> 52));
}
/* Lane by lane: a where m is all ones, b where it is 0. The barrier keeps the compiler from seeing that each mask
 * lane has two values only and turning the select back into a branch. */
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_select(ecopt_v8 m, ecopt_v8 a, ecopt_v8 b) {
    ecopt_v8 r;
    #pragma GCC unroll 10
    for (int i = 0; i < 8; i++) {
        uint64_t mi = m.w[i];
        __asm__ volatile("" : "+r"(mi));
        r.w[i] = b.w[i] ^ (mi & (a.w[i] ^ b.w[i]));
    }
    return r;
}
#undef ECOPT_V8_MAP

#else /* the AVX-512 build */

#include <immintrin.h>

typedef __m512i ecopt_v8;

/* AVX-512VL is not used by the 8-lane code, but the ifma backend requires it with IFMA (its 4-lane code, v4.h, runs
 * on ymm registers), so one feature set covers both; the same definitions as v4.h's. */
#define ECOPT_IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))
#define ECOPT_IFMA_INLINE static inline __attribute__((always_inline, target("avx512f,avx512vl,avx512ifma")))

ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_set1(uint64_t x) { return _mm512_set1_epi64((long long)x); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_load(const uint64_t p[8]) { return _mm512_loadu_si512((const void *)p); }
ECOPT_IFMA_INLINE void ecopt_v8_store(uint64_t p[8], ecopt_v8 a) { _mm512_storeu_si512((void *)p, a); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_add(ecopt_v8 a, ecopt_v8 b) { return _mm512_add_epi64(a, b); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_sub(ecopt_v8 a, ecopt_v8 b) { return _mm512_sub_epi64(a, b); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_and(ecopt_v8 a, ecopt_v8 b) { return _mm512_and_si512(a, b); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_or(ecopt_v8 a, ecopt_v8 b) { return _mm512_or_si512(a, b); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_xor(ecopt_v8 a, ecopt_v8 b) { return _mm512_xor_si512(a, b); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_andnot(ecopt_v8 a, ecopt_v8 b) { return _mm512_andnot_si512(a, b); }
/* Shifts by a count n in 0..63 (public); the count goes through an xmm register (vpsrlq / vpsllq zmm, xmm), so it
 * need not be a compile-time constant. */
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_srli(ecopt_v8 a, unsigned n) { return _mm512_srl_epi64(a, _mm_cvtsi32_si128((int)n)); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_slli(ecopt_v8 a, unsigned n) { return _mm512_sll_epi64(a, _mm_cvtsi32_si128((int)n)); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_madd52lo(ecopt_v8 c, ecopt_v8 a, ecopt_v8 b) { return _mm512_madd52lo_epu64(c, a, b); }
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_madd52hi(ecopt_v8 c, ecopt_v8 a, ecopt_v8 b) { return _mm512_madd52hi_epu64(c, a, b); }
/* Lane by lane: a where m is all ones, b where it is 0: one vpternlogq, bitwise m ? a : b (truth table 0xca). */
ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_select(ecopt_v8 m, ecopt_v8 a, ecopt_v8 b) {
    return _mm512_ternarylogic_epi64(m, a, b, 0xca);
}

#endif

ECOPT_IFMA_INLINE ecopt_v8 ecopt_v8_zero(void) { return ecopt_v8_set1(0); }

#endif /* ECOPT_FIELD_IFMA_V8_H */
