/* fe_adx.c — backend adx (4 x 64 bits, saturated) of the field interface in fe.h. Bounds are defined in
 * fe_adx.h (every 256-bit value is both tight and loose). The multiply and square are the optimizer's proved
 * assembly, src/field/generated/ecopt_fe_{mul,sq}_adx.S; the CPU test is fe_adx51.c's, compiled for this backend. */
#include "field/fe.h"

#include "bytes.h"
#include "ct.h"

#if !defined(__x86_64__)
#error "the adx and x64 backends are x86-64 only (CMakeLists.txt builds them only there)"
#endif

#if defined(ECOPT_FE_BACKEND_x64)
/* x64: its multiply and square (and ladder step) use baseline x86-64 instructions only, and the C here needs
 * nothing more: every x86-64 CPU runs it. */
int ecopt_fe_backend_available(void) {
    return 1;
}
#endif

typedef unsigned __int128 u128;

#define LOW63 ((((uint64_t)1) << 63) - 1)

/* Constants (see fe.h): limbs of the canonical values, computed from their definitions with exact integer
 * arithmetic and checked against GMP in tests/field. */
const ecopt_fe ecopt_fe_d = {{0x75eb4dca135978a3, 0x00700a4d4141d8ab, 0x8cc740797779e898, 0x52036cee2b6ffe73}};
const ecopt_fe ecopt_fe_d2 = {{0xebd69b9426b2f159, 0x00e0149a8283b156, 0x198e80f2eef3d130, 0x2406d9dc56dffce7}};
const ecopt_fe ecopt_fe_sqrtm1 = {{0xc4ee1b274a0ea0b0, 0x2f431806ad2fe478, 0x2b4d00993dfbd7a7, 0x2b8324804fc1df0b}};
const ecopt_fe ecopt_fe_base_x = {{0xc9562d608f25d51a, 0x692cc7609525a7b2, 0xc0a4e231fdd6dc5c, 0x216936d3cd6e53fe}};
const ecopt_fe ecopt_fe_base_y = {{0x6666666666666658, 0x6666666666666666, 0x6666666666666666, 0x6666666666666666}};
const ecopt_fe ecopt_fe_base_t = {{0x6dde8ab3a5b7dda3, 0x20f09f80775152f5, 0x66ea4e8e64abe37d, 0x67875f0fd78b7665}};

void ecopt_fe_frombytes(ecopt_fe *h, const uint8_t s[32]) {
    h->v[0] = ecopt_load64_le(s);
    h->v[1] = ecopt_load64_le(s + 8);
    h->v[2] = ecopt_load64_le(s + 16);
    h->v[3] = ecopt_load64_le(s + 24) & LOW63; /* drops bit 255 */
}

/* t = t mod 2^255 + 19 * (bit 255 of t) (2^255 = 19 mod p). Below 2^255 + 19 afterwards, since limb 3 is cleared
 * to 63 bits before the addition and the carry into it is at most 1. */
static inline void fold255(unsigned long long t[4]) {
    uint64_t top = t[3] >> 63;
    t[3] &= LOW63;
    unsigned char c = _addcarry_u64(0, t[0], 19 * top, &t[0]);
    c = _addcarry_u64(c, t[1], 0, &t[1]);
    c = _addcarry_u64(c, t[2], 0, &t[2]);
    t[3] += c;
}

void ecopt_fe_tobytes(uint8_t s[32], const ecopt_fe *f) {
    unsigned long long t[4] = {f->v[0], f->v[1], f->v[2], f->v[3]}, u[4];
    /* After one fold t < 2^255 + 19; a second fold finds bit 255 set only if t was in [2^255, 2^255 + 19), and
     * then leaves t < 38. Either way t < 2^255 now. */
    fold255(t);
    fold255(t);
    /* u = t + 19 < 2^255 + 19: bit 255 of u is set exactly when t >= p, and then u mod 2^255 = t - p. */
    unsigned char c = _addcarry_u64(0, t[0], 19, &u[0]);
    c = _addcarry_u64(c, t[1], 0, &u[1]);
    c = _addcarry_u64(c, t[2], 0, &u[2]);
    u[3] = t[3] + c;
    uint64_t m = 0 - (u[3] >> 63); /* all ones when t >= p */
    u[3] &= LOW63;
    for (int i = 0; i < 4; i++) ecopt_store64_le(s + 8 * i, (u[i] & m) | (t[i] & ~m));
}

void ecopt_fe_neg(ecopt_fe *h, const ecopt_fe *f) {
    ecopt_fe z;
    ecopt_fe_0(&z);
    ecopt_fe_sub(h, &z, f);
}

/* Every 256-bit value is already tight (fe_adx.h): carrying is a copy. */
void ecopt_fe_carry(ecopt_fe *h, const ecopt_fe *f) {
    ecopt_fe_copy(h, f);
}

void ecopt_fe_sq2(ecopt_fe *h, const ecopt_fe *f) {
    ecopt_fe_sq(h, f);
    ecopt_fe_add(h, h, h);
}

void ecopt_fe_sq_n(ecopt_fe *h, const ecopt_fe *f, unsigned n) {
    ecopt_fe_sq(h, f);
    for (unsigned i = 1; i < n; i++) ecopt_fe_sq(h, h);
}

void ecopt_fe_mul_small(ecopt_fe *h, const ecopt_fe *f, uint32_t c) {
    /* f c < 2^276: four limbs and a fifth r4 < 2^20. r4 2^256 = 38 r4 mod p, and 38 r4 < 2^26; a carry out of
     * limb 3 after adding it leaves a value below 2^26, so adding 38 for it to limb 0 cannot carry. */
    u128 p0 = (u128)f->v[0] * c, p1 = (u128)f->v[1] * c, p2 = (u128)f->v[2] * c, p3 = (u128)f->v[3] * c;
    unsigned long long r0 = (uint64_t)p0, r1, r2, r3, r4;
    unsigned char k = _addcarry_u64(0, (uint64_t)p1, (uint64_t)(p0 >> 64), &r1);
    k = _addcarry_u64(k, (uint64_t)p2, (uint64_t)(p1 >> 64), &r2);
    k = _addcarry_u64(k, (uint64_t)p3, (uint64_t)(p2 >> 64), &r3);
    r4 = (uint64_t)(p3 >> 64) + k;
    k = _addcarry_u64(0, r0, 38 * r4, &r0);
    k = _addcarry_u64(k, r1, 0, &r1);
    k = _addcarry_u64(k, r2, 0, &r2);
    k = _addcarry_u64(k, r3, 0, &r3);
    h->v[0] = r0 + ((0 - (uint64_t)k) & 38);
    h->v[1] = r1;
    h->v[2] = r2;
    h->v[3] = r3;
}

#include "field/fe_common_impl.h"
