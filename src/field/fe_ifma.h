/* fe_ifma.h — backends ifma and ifma_emu, scalar side: the u64 backend's representation (fe_u64.h: 5 limbs of 51
 * bits, the same tight and loose bounds) and all its operations (fe_u64.c, compiled again with
 * ECOPT_FE_BACKEND_ifma or ECOPT_FE_BACKEND_ifma_emu). The vector side, four field elements per register, is
 * field/ifma/fe4.h (on AVX-512 IFMA for ifma; the same source over portable C for ifma_emu, ECOPT_IFMA_EMULATE).
 * Private to src/field and the per-backend curve code. */
#ifndef ECOPT_FIELD_FE_IFMA_H
#define ECOPT_FIELD_FE_IFMA_H

#include "field/fe_u64.h"

#if defined(ECOPT_FE_BACKEND_ifma)
#define ecopt_fe_backend_available ECOPT_BE(ecopt_fe_backend_available)

/* ecopt_fe_backend_available — 1 when this CPU and OS can run AVX-512F, AVX-512VL and AVX-512IFMA code: cpuid leaf
 * 1 ecx OSXSAVE (bit 27); XCR0 (xgetbv 0) with the SSE (bit 1), AVX (2), opmask (5), ZMM_Hi256 (6) and Hi16_ZMM
 * (7) state enabled by the OS; cpuid leaf 7 subleaf 0 ebx AVX512F (bit 16), AVX512IFMA (21), AVX512VL (31). Else 0.
 * ifma_emu's is fe_u64.h's (1: portable C). Time: constant (no secret input). Source: Intel SDM vol. 1 section
 * 15.2 (detection of AVX-512 support), vol. 2A CPUID. */
int ecopt_fe_backend_available(void);
#endif

#endif /* ECOPT_FIELD_FE_IFMA_H */
