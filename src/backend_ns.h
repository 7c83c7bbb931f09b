/* backend_ns.h — symbol names for code compiled once per field backend.
 *
 * The field, curve and per-backend protocol files are compiled once for each entry of ECOPT_BACKENDS (CMake), with
 * ECOPT_FE_BACKEND_<name> defined. ECOPT_BE(sym) appends the backend's suffix, so each backend's copy has its own
 * symbols (ecopt_fe_mul_u64, ecopt_ge_scalarmult_base_u64, ...) and all of them link into one library. */
#ifndef ECOPT_BACKEND_NS_H
#define ECOPT_BACKEND_NS_H

#if defined(ECOPT_FE_BACKEND_u64)
#define ECOPT_BE_SUFFIX u64
#elif defined(ECOPT_FE_BACKEND_u32)
#define ECOPT_BE_SUFFIX u32
#elif defined(ECOPT_FE_BACKEND_adx51)
#define ECOPT_BE_SUFFIX adx51
#elif defined(ECOPT_FE_BACKEND_adx)
#define ECOPT_BE_SUFFIX adx
#elif defined(ECOPT_FE_BACKEND_x64)
#define ECOPT_BE_SUFFIX x64
#elif defined(ECOPT_FE_BACKEND_ifma)
#define ECOPT_BE_SUFFIX ifma
#elif defined(ECOPT_FE_BACKEND_ifma_emu)
#define ECOPT_BE_SUFFIX ifma_emu
#else
#error "compile per-backend code with -DECOPT_FE_BACKEND_<name>=1"
#endif

#define ECOPT_BE_CAT2(a, b) a##_##b
#define ECOPT_BE_CAT(a, b) ECOPT_BE_CAT2(a, b)
#define ECOPT_BE(sym) ECOPT_BE_CAT(sym, ECOPT_BE_SUFFIX)
#define ECOPT_BE_STR2(x) #x
#define ECOPT_BE_STR(x) ECOPT_BE_STR2(x)
#define ECOPT_BE_NAME ECOPT_BE_STR(ECOPT_BE_SUFFIX) /* "u64" */

#endif /* ECOPT_BACKEND_NS_H */
