/* ct.h — constant-time primitives: the only home of mask helpers in libecopt.
 *
 * Only unsigned fixed-width types are used: signed overflow is undefined and right shifts of negative values are
 * implementation-defined. A "control bit" is a uint64_t (or uint32_t) that is exactly 0 or 1; a "mask" is 0 or
 * all ones. Every control bit passes ecopt_ct_barrier() before it becomes a mask: the empty asm makes the value
 * opaque to the optimiser, which otherwise may notice that it has only two values and turn the mask arithmetic
 * back into a branch or a conditional load (seen with clang on x25519 ladders, the failure Monocypher and
 * libsodium document). */
#ifndef ECOPT_CT_H
#define ECOPT_CT_H

#include <stddef.h>
#include <stdint.h>

#if defined(ECOPT_HAVE_VALGRIND)
#include <valgrind/memcheck.h>
#endif

/* ecopt_ct_barrier — returns x unchanged, hidden from the optimiser. Time: constant. */
static inline uint64_t ecopt_ct_barrier(uint64_t x) {
    __asm__ volatile("" : "+r"(x));
    return x;
}

/* ecopt_ct_mask — 0 -> 0, 1 -> all ones. bit must be exactly 0 or 1. */
static inline uint64_t ecopt_ct_mask(uint64_t bit) {
    return (uint64_t)0 - ecopt_ct_barrier(bit);
}

/* ecopt_ct_is_zero — 1 when x == 0, else 0: (~x & (x - 1)) has its top bit set only for x = 0. */
static inline uint64_t ecopt_ct_is_zero(uint64_t x) {
    return ((~x & (x - 1)) >> 63);
}

/* ecopt_ct_eq — 1 when a == b, else 0. */
static inline uint64_t ecopt_ct_eq(uint64_t a, uint64_t b) {
    return ecopt_ct_is_zero(a ^ b);
}

/* ecopt_ct_select — bit ? a : b, for bit exactly 0 or 1. */
static inline uint64_t ecopt_ct_select(uint64_t bit, uint64_t a, uint64_t b) {
    uint64_t m = ecopt_ct_mask(bit);
    return b ^ (m & (a ^ b));
}

/* ecopt_ct_lookup_words — r = entry `index` of table, n entries of `words` u64 each, entry j at table[j * words];
 * r = 0 when index >= n (no entry matches). Every word of every entry is read, whatever index is: the selected
 * entry leaves no trace in the addresses touched. Entry j is ANDed with the mask [index = j] (one value barrier
 * per entry) and ORed into r. words must be even and at most 16. The words are handled two at a time in GNU C
 * vector types (gcc and clang: SSE2 on any x86-64, NEON on arm64, pairs of scalars elsewhere) with r held in
 * registers: gcc 12 -O2 keeps the plain scalar loop's accumulators partly in memory, and a 16-entry lookup of
 * 128-byte entries (ge.c's fixed-base table) takes about 2/3 of that loop's ticks this way, the negation included.
 * Time: constant in index (secret); n and words public. */
typedef uint64_t ecopt_ct_u64x2 __attribute__((vector_size(16)));

static inline void ecopt_ct_lookup_words(uint64_t *r, const uint64_t *table, size_t n, size_t words, uint64_t index) {
    ecopt_ct_u64x2 acc[8];
    #pragma GCC unroll 8
    for (size_t k = 0; k < 8; k++) acc[k] = (ecopt_ct_u64x2){0, 0};
    for (size_t j = 0; j < n; j++) {
        uint64_t m = ecopt_ct_mask(ecopt_ct_eq(index, j));
        ecopt_ct_u64x2 mv = {m, m};
        #pragma GCC unroll 8
        for (size_t k = 0; k < 8; k++) {
            if (2 * k < words) {
                ecopt_ct_u64x2 v;
                __builtin_memcpy(&v, table + j * words + 2 * k, sizeof v);
                acc[k] |= v & mv;
            }
        }
    }
    #pragma GCC unroll 8
    for (size_t k = 0; k < 8; k++)
        if (2 * k < words) __builtin_memcpy(r + 2 * k, &acc[k], sizeof acc[k]);
}

/* ecopt_ct_lookup_words_x4 — ecopt_ct_lookup_words with the words four at a time (32-byte GNU C vectors); words a
 * multiple of 4, at most 16. For callers compiled for AVX2 (a function with __attribute__((target("avx2"))) that
 * runs only where cpuid says AVX2: ge.c's adx and adx51 fixed-base lookup), where it is one 256-bit load, and and or
 * per 32 bytes.
 * On x86-64 the masks are vector compares: the index, through the value barrier, is broadcast once, and entry j's
 * mask is (index == j) lane by lane (one vpcmpeqq), itself passed through ECOPT_CT_BARRIER_U64X4. The scalar mask
 * (ecopt_ct_eq, the barrier, a move to a vector register and a broadcast) would be 10 instructions per entry
 * against the entry's 6 (three loads-and, three ors), and the lookup is bound by instruction count, so vector
 * masks make it about 12% faster.
 * Time: constant in index (secret); n and words public. */
typedef uint64_t ecopt_ct_u64x4 __attribute__((vector_size(32)));

#if defined(__x86_64__)
/* ECOPT_CT_BARRIER_U64X4(m) — ecopt_ct_barrier for a 32-byte vector of masks m (an lvalue): the empty asm takes the
 * value as an in/out operand in a vector register ("x"), so the optimiser cannot see that every lane is 0 or all
 * ones, nor that at most one of a lookup's masks is nonzero (which would let it turn the lookup into an indexed
 * load). A macro, not a function: a 32-byte vector argument or return value changes the ABI in code not compiled
 * for AVX (gcc -Wpsabi). Only in code compiled for AVX (a 32-byte value does not fit an SSE register). */
#define ECOPT_CT_BARRIER_U64X4(m) __asm__ volatile("" : "+x"(m))
/* The lookup below is compiled for AVX2 itself (its callers are, and clang checks the "x" operand's size against the
 * function's own target features). */
#define ECOPT_CT_TARGET_AVX2 __attribute__((target("avx2")))
#else
#define ECOPT_CT_TARGET_AVX2
#endif

ECOPT_CT_TARGET_AVX2 static inline void ecopt_ct_lookup_words_x4(uint64_t *r, const uint64_t *table, size_t n,
                                                                 size_t words, uint64_t index) {
    ecopt_ct_u64x4 acc[4];
    #pragma GCC unroll 4
    for (size_t k = 0; k < 4; k++) acc[k] = (ecopt_ct_u64x4){0, 0, 0, 0};
#if defined(__x86_64__)
    uint64_t ix = ecopt_ct_barrier(index);
    ecopt_ct_u64x4 iv = {ix, ix, ix, ix}, jv = {0, 0, 0, 0}, one = {1, 1, 1, 1};
#endif
    for (size_t j = 0; j < n; j++) {
#if defined(__x86_64__)
        ecopt_ct_u64x4 mv = (ecopt_ct_u64x4)(iv == jv); /* jv = {j, j, j, j} */
        ECOPT_CT_BARRIER_U64X4(mv);
        jv += one;
#else
        uint64_t m = ecopt_ct_mask(ecopt_ct_eq(index, j));
        ecopt_ct_u64x4 mv = {m, m, m, m};
#endif
        #pragma GCC unroll 4
        for (size_t k = 0; k < 4; k++) {
            if (4 * k < words) {
                ecopt_ct_u64x4 v;
                __builtin_memcpy(&v, table + j * words + 4 * k, sizeof v);
                acc[k] |= v & mv;
            }
        }
    }
    #pragma GCC unroll 4
    for (size_t k = 0; k < 4; k++)
        if (4 * k < words) __builtin_memcpy(r + 4 * k, &acc[k], sizeof acc[k]);
}

/* ecopt_ct_bytes_is_zero — 1 when all n bytes of p are zero, else 0; reads every byte. */
uint64_t ecopt_ct_bytes_is_zero(const uint8_t *p, size_t n);

/* ecopt_ct_bytes_eq — 1 when the n bytes of a and b are equal, else 0; reads every byte (no early exit). */
uint64_t ecopt_ct_bytes_eq(const uint8_t *a, const uint8_t *b, size_t n);

/* ecopt_ct_declassify — mark n bytes at p as public. A no-op for the program; under valgrind memcheck (the
 * constant-time tests mark secrets undefined) it tells memcheck that these bytes are meant to be branched on:
 * a value derived from a secret that the function's contract makes public, such as X25519's all-zero verdict.
 * The client request is a few instructions that do nothing outside valgrind, so the build that ships is the build
 * that is tested. */
static inline void ecopt_ct_declassify(const void *p, size_t n) {
#if defined(ECOPT_HAVE_VALGRIND)
    (void)VALGRIND_MAKE_MEM_DEFINED(p, n);
#else
    (void)p;
    (void)n;
#endif
}

/* ecopt_memzero_explicit — overwrite n bytes at p with zeros; never optimised away (the compiler must assume the
 * asm reads the memory). For secret locals before return. */
void ecopt_memzero_explicit(void *p, size_t n);

/* ECOPT_STACK_SCRUB_BYTES — how far below its caller's frame ecopt_stack_scrub zeroes the stack: above the deepest
 * stack any secret-handling public function uses on any backend (measured by tests/proto/test_harden.c `depth`,
 * which fails when a path leaves less than 1 KB of margin): the deepest, ifma's batch X25519 with gcc 12, is under
 * 6 KB, so this leaves twice that for other compilers and libcrypto versions. */
#define ECOPT_STACK_SCRUB_BYTES 12288

/* ecopt_stack_scrub — zero the ECOPT_STACK_SCRUB_BYTES of stack just below the caller's frame: where the frames of
 * the functions the caller has just called lay, with the secrets their locals, spills and saved registers left
 * behind (a compiler may spill any register, and libcrypto's SHA-512 keeps its message schedule on the stack, so
 * zeroing named locals is not enough). A public function that handles secrets calls its work in a function that
 * is not inlined into it, then this, so that the dead stack it returns to its caller holds no secret. Not inlined
 * itself, and the zeroing is not optimised away (the asm claims to read it). Time: constant (a fixed size). */
void ecopt_stack_scrub(void);

#endif /* ECOPT_CT_H */
