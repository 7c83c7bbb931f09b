/* fe_u64.h — backend u64: field elements mod p = 2^255 - 19 as 5 limbs of 51 bits (radix 2^51), products in
 * unsigned __int128. Private to src/field: other layers see only the type's size, never its limbs.
 *
 * Value: v[0] + v[1] 2^51 + v[2] 2^102 + v[3] 2^153 + v[4] 2^204 (mod p).
 * Bounds (fe.h's words made precise):
 *   tight: every limb < 2^51 + 2^15;
 *   loose: every limb < 2^52 + 2^16 (the sum of two tight elements).
 * Why loose inputs are safe for mul: each coefficient is a sum of at most 5 products, one factor multiplied by 19;
 * 5 * 19 * (2^52 + 2^16)^2 < 2^111, far below 2^128, and 19 * (2^52 + 2^16) < 2^57 fits a u64.
 * Why sub can take loose g: it computes f + 4p - g limb by limb, and each limb of 4p is at least 2^53 - 76 > any
 * loose limb, so no limb underflows. */
#ifndef ECOPT_FIELD_FE_U64_H
#define ECOPT_FIELD_FE_U64_H

#include <stdint.h>

typedef struct ecopt_fe {
    uint64_t v[5];
} ecopt_fe;

/* ecopt_fe_backend_available — 1 when this CPU can run the backend: portable C runs everywhere. */
static inline int ecopt_fe_backend_available(void) {
    return 1;
}

#endif /* ECOPT_FIELD_FE_U64_H */
