/* fe_adx51.c — backend adx51 (and adx): the CPU test. The arithmetic is fe_u64.c (compiled again for this
 * backend) with the multiply and square of src/field/generated/ecopt_fe_{mul,sq}_adx51.S; fe_adx51.h says why that
 * is sound. Compiled again for backend adx (4 x 64 limbs, fe_adx.h), which needs the same instructions. */
#include "field/fe.h"

#if !defined(__x86_64__)
#error "the adx and adx51 backends are x86-64 only (CMakeLists.txt builds it only there)"
#endif

/* cpuid through the compiler's own header (gcc and clang ship <cpuid.h>): no assembly in src/. */
#include <cpuid.h>

#define CPUID7_EBX_BMI2 (1u << 8)
#define CPUID7_EBX_ADX (1u << 19)

int ecopt_fe_backend_available(void) {
    unsigned int eax, ebx, ecx, edx;
    /* __get_cpuid_count returns 0 when leaf 7 is above the CPU's highest basic leaf. */
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & (CPUID7_EBX_BMI2 | CPUID7_EBX_ADX)) == (CPUID7_EBX_BMI2 | CPUID7_EBX_ADX);
}
