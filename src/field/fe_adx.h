/* fe_adx.h — backends adx and x64: field elements mod p = 2^255 - 19 as 4 saturated limbs of 64 bits (radix 2^64),
 * with the multiply and square x86-64 assembly made by the optimizer and proved by the checker; everything else is
 * C (fe_adx.c), the same for both. x86-64 only. adx: the CPU must have BMI2 (mulx) and ADX (adcx, adox). x64: any
 * x86-64 CPU; its .S files come from `ecopt opt --target x86-64` (mulq, adcq, one carry chain; their headers say
 * `Target:  x86-64`, and ctest generated.asm refuses a BMI2 or ADX instruction in them), for CPUs without
 * BMI2/ADX. Private to src/field.
 *
 * Value: v[0] + v[1] 2^64 + v[2] 2^128 + v[3] 2^192 (mod p): any 256-bit integer, not reduced below p (nor below
 * 2^255) until tobytes.
 * Bounds (fe.h's words made precise): tight = loose = every limb in [0, 2^64), i.e. any value in [0, 2^256). So
 * every operation accepts every representable element, and add's output may feed add again (fe.h asks less).
 *
 * ecopt_fe_mul and ecopt_fe_sq of this backend are, after backend_ns.h's renaming, the symbols ecopt_fe_mul_adx
 * and ecopt_fe_sq_adx that src/field/generated/ecopt_fe_{mul,sq}_adx.S define: fiat's signature
 * void f(uint64_t out1[4], const uint64_t arg1[4], const uint64_t arg2[4]), the same System V call as fe.h's
 * prototypes (a pointer to ecopt_fe is a pointer to its first limb). Their contracts, from the IR program in each
 * header (`ecopt gen --prime 2^255-19 --method solinas-saturated --limbs 4 --op mul|square`):
 *   Bounds: in: every limb in [0, 2^64 - 1]; out: every limb in [0, 2^64 - 1] — the result is congruent to the
 *           product mod p and below 2^256, not necessarily below p (the program folds the high half times 38,
 *           2^256 = 38 mod p, twice). So fe.h's contract holds: in loose, out tight.
 *   Alias:  out1 may equal arg1 and arg2 (the checker proves the cases out1 == arg1 and out1 == arg2).
 *   Time:   constant: no branch, no data-dependent address (checker rules branch, data-address).
 *   Source: `ecopt opt` (the command, the program's sha256, seed, ticks and the PROVED verdict are in each
 *           file's header); ctest generated.asm re-runs `ecopt check` on them. */
#ifndef ECOPT_FIELD_FE_ADX_H
#define ECOPT_FIELD_FE_ADX_H

#include <immintrin.h>
#include <stdint.h>

#include "ct.h"

typedef struct ecopt_fe {
    uint64_t v[4];
} ecopt_fe;

#define ecopt_fe_backend_available ECOPT_BE(ecopt_fe_backend_available)

/* ecopt_fe_backend_available — adx: 1 when this CPU has BMI2 and ADX, else 0 (fe_adx51.c, compiled for this
 * backend too); x64: 1 (fe_adx.c). Time: constant (no secret input). */
int ecopt_fe_backend_available(void);

static inline void ecopt_fe_0(ecopt_fe *h) {
    for (int i = 0; i < 4; i++) h->v[i] = 0;
}

static inline void ecopt_fe_1(ecopt_fe *h) {
    h->v[0] = 1;
    for (int i = 1; i < 4; i++) h->v[i] = 0;
}

static inline void ecopt_fe_copy(ecopt_fe *h, const ecopt_fe *f) {
    for (int i = 0; i < 4; i++) h->v[i] = f->v[i];
}

/* Carry and borrow chains use the compiler's _addcarry_u64 and _subborrow_u64 (<immintrin.h>; plain ADC and SBB,
 * no ADX needed): gcc spills unsigned __int128 carry chains to the stack. */

/* h = f + g mod p, below 2^256. The 257-bit sum s = r + 2^256 c (c the carry) is r + 38 c mod p; adding 38 c can
 * carry out again (c2) only when r > 2^256 - 39, and then the new value is below 38, so adding 38 c2 to limb 0
 * cannot carry. Time: constant (c, c2 enter only masks and arithmetic). */
static inline void ecopt_fe_add(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    unsigned long long r0, r1, r2, r3;
    unsigned char c = _addcarry_u64(0, f->v[0], g->v[0], &r0);
    c = _addcarry_u64(c, f->v[1], g->v[1], &r1);
    c = _addcarry_u64(c, f->v[2], g->v[2], &r2);
    c = _addcarry_u64(c, f->v[3], g->v[3], &r3);
    c = _addcarry_u64(0, r0, (0 - (uint64_t)c) & 38, &r0);
    c = _addcarry_u64(c, r1, 0, &r1);
    c = _addcarry_u64(c, r2, 0, &r2);
    c = _addcarry_u64(c, r3, 0, &r3);
    h->v[0] = r0 + ((0 - (uint64_t)c) & 38);
    h->v[1] = r1;
    h->v[2] = r2;
    h->v[3] = r3;
}

/* h = f - g mod p, below 2^256. f - g = r - 2^256 b (b the borrow, r in [0, 2^256)) = r - 38 b mod p; subtracting
 * 38 b can borrow again (b2) only when r < 38, and then the new value r - 38 + 2^256 has limb 0 at least
 * 2^64 - 37, so subtracting 38 b2 from limb 0 cannot borrow. Time: constant (b, b2 enter only masks and
 * arithmetic). */
static inline void ecopt_fe_sub(ecopt_fe *h, const ecopt_fe *f, const ecopt_fe *g) {
    unsigned long long r0, r1, r2, r3;
    unsigned char b = _subborrow_u64(0, f->v[0], g->v[0], &r0);
    b = _subborrow_u64(b, f->v[1], g->v[1], &r1);
    b = _subborrow_u64(b, f->v[2], g->v[2], &r2);
    b = _subborrow_u64(b, f->v[3], g->v[3], &r3);
    b = _subborrow_u64(0, r0, (0 - (uint64_t)b) & 38, &r0);
    b = _subborrow_u64(b, r1, 0, &r1);
    b = _subborrow_u64(b, r2, 0, &r2);
    b = _subborrow_u64(b, r3, 0, &r3);
    h->v[0] = r0 - ((0 - (uint64_t)b) & 38);
    h->v[1] = r1;
    h->v[2] = r2;
    h->v[3] = r3;
}

static inline void ecopt_fe_cmov(ecopt_fe *h, const ecopt_fe *f, uint64_t bit) {
    uint64_t m = ecopt_ct_mask(bit);
    for (int i = 0; i < 4; i++) h->v[i] ^= m & (h->v[i] ^ f->v[i]);
}

static inline void ecopt_fe_or_masked(ecopt_fe *h, const ecopt_fe *f, uint64_t mask) {
    for (int i = 0; i < 4; i++) h->v[i] |= f->v[i] & mask;
}

static inline void ecopt_fe_cswap(ecopt_fe *f, ecopt_fe *g, uint64_t bit) {
    uint64_t m = ecopt_ct_mask(bit);
    for (int i = 0; i < 4; i++) {
        uint64_t x = m & (f->v[i] ^ g->v[i]);
        f->v[i] ^= x;
        g->v[i] ^= x;
    }
}

#endif /* ECOPT_FIELD_FE_ADX_H */
