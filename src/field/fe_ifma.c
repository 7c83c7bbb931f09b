/* fe_ifma.c — backend ifma: the CPU test. The scalar arithmetic is fe_u64.c, compiled again for this backend; the
 * vector arithmetic is field/ifma/fe4.h, inlined into the curve code that uses it. */
#include "field/fe.h"

#if !defined(__x86_64__)
#error "the ifma backend is x86-64 only (CMakeLists.txt builds it only there)"
#endif

/* cpuid through the compiler's own header, xgetbv through its intrinsic: no assembly in src/. */
#include <cpuid.h>
#include <immintrin.h>

#define CPUID1_ECX_OSXSAVE (1u << 27)
#define CPUID7_EBX_AVX512F (1u << 16)
#define CPUID7_EBX_AVX512IFMA (1u << 21)
#define CPUID7_EBX_AVX512VL (1u << 31)
/* XCR0: SSE (bit 1) and AVX (bit 2) state, and AVX-512's opmask (5), ZMM_Hi256 (6) and Hi16_ZMM (7) state. */
#define XCR0_AVX512_STATE ((1u << 1) | (1u << 2) | (1u << 5) | (1u << 6) | (1u << 7))

/* xgetbv exists once OSXSAVE is set (checked before the call); the attribute only lets the compiler emit it. */
__attribute__((target("xsave"))) static uint64_t xcr0(void) {
    return (uint64_t)_xgetbv(0);
}

int ecopt_fe_backend_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & CPUID1_ECX_OSXSAVE)) return 0;
    if ((xcr0() & XCR0_AVX512_STATE) != XCR0_AVX512_STATE) return 0;
    /* __get_cpuid_count returns 0 when leaf 7 is above the CPU's highest basic leaf. */
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    unsigned int want = CPUID7_EBX_AVX512F | CPUID7_EBX_AVX512IFMA | CPUID7_EBX_AVX512VL;
    return (ebx & want) == want;
}
