/* ct.c — out-of-line constant-time helpers (see ct.h). */
#include "ct.h"

#include <string.h>

uint64_t ecopt_ct_bytes_is_zero(const uint8_t *p, size_t n) {
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= p[i];
    return ecopt_ct_is_zero(acc);
}

uint64_t ecopt_ct_bytes_eq(const uint8_t *a, const uint8_t *b, size_t n) {
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= (uint64_t)(a[i] ^ b[i]);
    return ecopt_ct_is_zero(acc);
}

void ecopt_memzero_explicit(void *p, size_t n) {
    if (n == 0) return;
    memset(p, 0, n);
    /* The asm claims to read the memory, so the memset above is not a dead store. */
    __asm__ volatile("" : : "r"(p) : "memory");
}

__attribute__((noinline)) void ecopt_stack_scrub(void) {
    uint8_t region[ECOPT_STACK_SCRUB_BYTES];
    memset(region, 0, sizeof region);
    __asm__ volatile("" : : "r"(region) : "memory");
}
