/* clean.c — for ct.objcode_selftest: constant-time code check-ct-objdump.py must accept. A table read that scans
 * every entry and selects with masks (a loop counter as the index, a secret only in the masks), a loop over
 * limbs with a spilled pointer, and a loop bounded by a count passed by value (accepted only when the test declares
 * that register public; rejected otherwise; restrict: no run-time check that the two pointers do not overlap, which
 * compares two arguments, rejected as such). */
#include <stdint.h>

void planted_select(uint64_t out[4], const uint64_t table[16][4], const uint8_t *secret) {
    uint64_t b = secret[0] & 15;
    uint64_t r[4] = {0, 0, 0, 0};
    for (uint64_t i = 0; i < 16; i++) {
        uint64_t d = i ^ b;
        uint64_t m = ((d | (0 - d)) >> 63) - 1; /* all ones when i == b */
        for (int j = 0; j < 4; j++) r[j] |= table[i][j] & m;
    }
    for (int j = 0; j < 4; j++) out[j] = r[j];
}

void planted_count(uint64_t *restrict out, const uint64_t *restrict in, unsigned long n) {
    for (unsigned long i = 0; i < n; i++) out[i] = in[i] * 19 + (in[i] >> 3);
}
