/* bytes.h — little-endian loads and stores of 64-bit words, byte by byte (no alignment or aliasing assumptions).
 * Written out byte by byte, not as loops: gcc 12 -O2 compiles the loop forms (8 iterations, shift and or) as real
 * loops where they are themselves inside a loop, and merges the written-out forms into one 8-byte move (its bswap /
 * store-merging passes; clang 14 alike). ecopt_scalar_reduce64 spent more time in the loop forms than in its
 * arithmetic. */
#ifndef ECOPT_BYTES_H
#define ECOPT_BYTES_H

#include <stdint.h>

static inline uint64_t ecopt_load64_le(const uint8_t *s) {
    return (uint64_t)s[0] | (uint64_t)s[1] << 8 | (uint64_t)s[2] << 16 | (uint64_t)s[3] << 24 | (uint64_t)s[4] << 32 |
           (uint64_t)s[5] << 40 | (uint64_t)s[6] << 48 | (uint64_t)s[7] << 56;
}

static inline void ecopt_store64_le(uint8_t *s, uint64_t w) {
    s[0] = (uint8_t)w;
    s[1] = (uint8_t)(w >> 8);
    s[2] = (uint8_t)(w >> 16);
    s[3] = (uint8_t)(w >> 24);
    s[4] = (uint8_t)(w >> 32);
    s[5] = (uint8_t)(w >> 40);
    s[6] = (uint8_t)(w >> 48);
    s[7] = (uint8_t)(w >> 56);
}

#endif /* ECOPT_BYTES_H */
