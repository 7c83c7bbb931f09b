/* ge_recode.h — the scalar recodings of the edwards25519 multiplications, shared by the one-lane code (ge.c) and
 * the ifma backends' four-lane code (curve/ifma/ge4.c): the signed radix-64 digits of the fixed-base
 * multiplication, the width-w NAF of verification and the split of verification's scalars into halves of 127
 * bits. Private to src/curve; static inline, so each includer has its own copy and no symbol is added. */
#ifndef ECOPT_CURVE_GE_RECODE_H
#define ECOPT_CURVE_GE_RECODE_H

#include <stdint.h>
#include <string.h>

#include "curve/scalar.h"

/* The fixed-base layout: 43 signed radix-64 digits (BASE_DIGITS * 6 = 258 bits cover any s < 2^256: see
 * recode_radix64), a row of BASE_ENTRIES multiples for each of the 42 lower digit positions and a row of
 * BASE_TOP_ENTRIES for the top one, whose digit is in [0, 16]. */
#define BASE_DIGITS 43
#define BASE_ENTRIES 32
#define BASE_TOP_ENTRIES 16

/* e[0..42]: s = sum e_i 64^i for any s < 2^256, e_i in [-32, 31] for i < 42 and e_42 in [0, 16]. The raw digits
 * d_i = bits 6i..6i+5 of s are in [0, 63], and d_42 = bits 252..255 in [0, 15] (bits 256, 257 are zero). Carries
 * c_0 = 0, c_{i+1} = 1 exactly when d_i + c_i >= 32, and e_i = d_i + c_i - 64 c_{i+1}: d_i + c_i is in [0, 64], so
 * e_i is in [-32, 31] for i < 42, and e_42 = d_42 + c_42 in [0, 16] takes the last carry with nothing left over
 * (sum e_i 64^i = sum d_i 64^i = s, the carries telescoping). So every s < 2^256, clamped scalar or not, recodes
 * without a 44th digit. Arithmetic only, no branch on s; the byte indices depend on i alone (public). */
static inline void recode_radix64(int8_t e[BASE_DIGITS], const uint8_t s[32]) {
    for (int i = 0; i < BASE_DIGITS; i++) {
        int bit = 6 * i, byte = bit / 8, shift = bit % 8;
        unsigned v = (unsigned)s[byte] >> shift;
        if (byte + 1 < 32) v |= (unsigned)s[byte + 1] << (8 - shift);
        e[i] = (int8_t)(v & 63);
    }
    for (int i = 0; i < BASE_DIGITS - 1; i++) {
        /* e_i in [0, 64]: carry = 1 exactly when e_i >= 32 ((e_i + 32) >> 6 for a non-negative value). */
        int8_t carry = (int8_t)((e[i] + 32) >> 6);
        e[i] = (int8_t)(e[i] - (carry << 6));
        e[i + 1] = (int8_t)(e[i + 1] + carry);
    }
}

/* naf[0..8n]: the width-w NAF of s < 2^(8n), n <= 32 bytes, 2 <= w <= 8: each digit 0 or odd in
 * [-(2^(w-1) - 1), 2^(w-1) - 1], and any nonzero digit followed by at least w - 1 zeros. vartime: s is public.
 * The scan reads s's bits from the bottom with a carry c in {0, 1} (what the digits so far leave to add to the
 * bits not yet read): where bit i + c is even, digit i is 0 and c passes on; where it is odd, the w bits from i
 * plus c give a value v in [1, 2^w - 1], odd; digit i = v, or v - 2^w with carry 1 when v > 2^(w-1), and the scan
 * moves on by w. A digit at i <= 8n reads bits above 8n - 1 as 0; the last one, within w - 1 bits of the top,
 * is at most 2^(w-1) - 1 + 1 and odd, so below 2^(w-1): no carry is left past position 8n. */
static inline int wnaf_bit(const uint8_t *s, int n, int i) {
    return i < 8 * n ? (s[i / 8] >> (i % 8)) & 1 : 0;
}

static inline void wnaf_vartime(int8_t *naf, const uint8_t *s, int n, int w) {
    memset(naf, 0, (size_t)(8 * n + 1));
    int carry = 0;
    for (int i = 0; i <= 8 * n;) {
        if (wnaf_bit(s, n, i) == carry) {
            i++;
            continue;
        }
        int v = carry;
        for (int b = 0; b < w; b++) v += wnaf_bit(s, n, i + b) << b;
        carry = v > (1 << (w - 1));
        naf[i] = (int8_t)(v - (carry << w));
        i += w;
    }
}

/* The scalars of the halved verification equation (ecopt_ge_cofactored_eq_vartime, ge.h; ge.c has the argument):
 * k1, c with c k = sign k1 (mod l) (ecopt_scalar_ratio_vartime), and c s mod l = s0 + 2^127 s1. Shapes: k, s 32
 * bytes, reduced; k1, c, s0 (< 2^127), s1 (< 2^126) 16 bytes out. Returns sign (+1 or -1). vartime: k and s are
 * public. */
static inline int cofactored_scalars_vartime(uint8_t k1[16], uint8_t c[16], uint8_t s0[16], uint8_t s1[16],
                                             const uint8_t k[32], const uint8_t s[32]) {
    uint8_t c32[32] = {0}, zero[32] = {0}, cs[32];
    int sign = ecopt_scalar_ratio_vartime(k1, c, k);
    memcpy(c32, c, 16);
    ecopt_scalar_muladd(cs, c32, s, zero);
    /* s0 = cs mod 2^127, s1 = cs >> 127 (cs < l < 2^253) */
    memcpy(s0, cs, 16);
    s0[15] &= 0x7f;
    for (int i = 0; i < 16; i++) s1[i] = (uint8_t)((cs[15 + i] >> 7) | (cs[16 + i] << 1));
    return sign;
}

#endif /* ECOPT_CURVE_GE_RECODE_H */
