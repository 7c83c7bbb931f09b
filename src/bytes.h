/* bytes.h — little-endian loads and stores of 64-bit words, byte by byte (no alignment or aliasing assumptions;
 * compilers turn them into single moves). */
#ifndef ECOPT_BYTES_H
#define ECOPT_BYTES_H

#include <stdint.h>

static inline uint64_t ecopt_load64_le(const uint8_t *s) {
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--) w = (w << 8) | s[i];
    return w;
}

static inline void ecopt_store64_le(uint8_t *s, uint64_t w) {
    for (int i = 0; i < 8; i++) s[i] = (uint8_t)(w >> (8 * i));
}

#endif /* ECOPT_BYTES_H */
