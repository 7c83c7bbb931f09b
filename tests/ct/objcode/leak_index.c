/* leak_index.c — planted for ct.objcode_selftest: a table read at a secret index (the secret byte read through a
 * pointer), and one at an index passed by value. check-ct-objdump.py must reject both. */
#include <stdint.h>

uint64_t planted_index(const uint64_t table[16], const uint8_t *secret) { return table[secret[0] & 15]; }

uint64_t planted_index_arg(const uint64_t table[16], unsigned i) { return table[i & 15]; }
