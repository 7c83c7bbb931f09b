/* fe_adx51.h — backend adx51: the u64 backend's representation (fe_u64.h: 5 limbs of 51 bits, the same tight and
 * loose bounds) and all its operations (fe_u64.c, compiled again with ECOPT_FE_BACKEND_adx51), except that the
 * multiply and square are x86-64 assembly made by the optimizer and proved by the checker. x86-64 only; the CPU
 * must have BMI2 (mulx) and ADX (adcx, adox). Private to src/field.
 *
 * ecopt_fe_mul and ecopt_fe_sq of this backend are, after backend_ns.h's renaming, the symbols ecopt_fe_mul_adx51 and
 * ecopt_fe_sq_adx51 that src/field/generated/ecopt_fe_{mul,sq}_adx51.S define: fiat's signature
 * void f(uint64_t out1[5], const uint64_t arg1[5], const uint64_t arg2[5]), the same System V call as fe.h's
 * prototypes (a pointer to ecopt_fe is a pointer to its first limb). Their contracts, from the IR program in each
 * header (`ecopt gen --prime 2^255-19 --method solinas-unsaturated --limbs 5 --op mul|square`, the program the u64
 * backend's generated C comes from):
 *   Bounds: in: limb 0 <= 0x17ffffffffffd9, limb 1 <= 0x180000000003fe, limbs 2-4 <= 0x17fffffffffffd (about
 *           3 * 2^51, above loose: 2^52 + 2^16); out: limb 1 <= 2^51 + 2^10, the others < 2^51 (within tight:
 *           2^51 + 2^15). So fe.h's contract holds: in loose, out tight.
 *   Alias:  out1 may equal arg1 and arg2 (every input limb is loaded before the first store; the checker
 *           proves the cases out1 == arg1 and out1 == arg2 besides the disjoint one).
 *   Time:   constant: no branch, no data-dependent address (checker rules branch, data-address).
 *   Source: `ecopt opt` (the command, the program's sha256, seed, ticks and the PROVED verdict are in each
 *           file's header); ctest generated.asm re-runs `ecopt check` on them. */
#ifndef ECOPT_FIELD_FE_ADX51_H
#define ECOPT_FIELD_FE_ADX51_H

#include "field/fe_u64.h"

#define ecopt_fe_backend_available ECOPT_BE(ecopt_fe_backend_available)

/* ecopt_fe_backend_available — 1 when this CPU has BMI2 and ADX (cpuid leaf 7, subleaf 0: ebx bits 8 and 19),
 * else 0. Time: constant (no secret input). Source: Intel SDM vol. 2A, CPUID, leaf 07H. */
int ecopt_fe_backend_available(void);

#endif /* ECOPT_FIELD_FE_ADX51_H */
