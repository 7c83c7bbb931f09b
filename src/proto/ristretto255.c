/* ristretto255.c — the public functions of include/ecopt/ristretto255.h, compiled once: each hands its whole
 * operation to the chosen backend's entry (src/curve/group_ops.h); hash_to_group's expand_message_xmd is
 * src/proto/h2c.c's. */
#include "ecopt/ristretto255.h"

#include <string.h>

#include "backend.h"
#include "ct.h"
#include "curve/group_ops.h"
#include "curve/scalar.h"
#include "ecopt/edwards25519.h"
#include "ecopt/hash_to_curve.h"
#include "ecopt/msm.h"

size_t ecopt_ristretto255_bytes(void) {
    return ECOPT_RISTRETTO255_BYTES;
}

size_t ecopt_ristretto255_scalarbytes(void) {
    return ECOPT_RISTRETTO255_SCALARBYTES;
}

size_t ecopt_ristretto255_uniformbytes(void) {
    return ECOPT_RISTRETTO255_UNIFORMBYTES;
}

int ecopt_ristretto255_decode(ecopt_ristretto255_point *p, const uint8_t s[32]) {
    if (!ecopt_backend_get()->ristretto->decode(p, s)) {
        memset(p, 0, sizeof *p);
        return ECOPT_ERR_ENCODING;
    }
    return ECOPT_OK;
}

void ecopt_ristretto255_encode(uint8_t s[32], const ecopt_ristretto255_point *p) {
    ecopt_backend_get()->ristretto->encode(s, p);
}

int ecopt_ristretto255_equal(const ecopt_ristretto255_point *p, const ecopt_ristretto255_point *q) {
    return ecopt_backend_get()->ristretto->equal(p, q);
}

/* (0 : 1 : 1 : 0), four canonical little-endian coordinates: the same bytes in every backend. */
void ecopt_ristretto255_identity(ecopt_ristretto255_point *p) {
    memset(p, 0, sizeof *p);
    p->opaque[32] = 1;
    p->opaque[64] = 1;
}

void ecopt_ristretto255_base(ecopt_ristretto255_point *p) {
    ecopt_backend_get()->ristretto->base(p);
}

void ecopt_ristretto255_add(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p,
                            const ecopt_ristretto255_point *q) {
    ecopt_backend_get()->ristretto->add(r, p, q);
}

void ecopt_ristretto255_sub(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p,
                            const ecopt_ristretto255_point *q) {
    ecopt_backend_get()->ristretto->sub(r, p, q);
}

void ecopt_ristretto255_neg(ecopt_ristretto255_point *r, const ecopt_ristretto255_point *p) {
    ecopt_backend_get()->ristretto->neg(r, p);
}

/* [s]P = [s mod l]P: the group has order l. The multiplication needs s < 2^255 (ge.h). Not inlined into the public
 * function, which then zeroes the stack it used (ct.h). */
__attribute__((noinline)) static void scalarmult(ecopt_ristretto255_point *r, const uint8_t s[32],
                                                 const ecopt_ristretto255_point *p) {
    uint8_t wide[64] = {0}, red[32];
    memcpy(wide, s, 32);
    ecopt_scalar_reduce64(red, wide);
    ecopt_backend_get()->ristretto->scalarmult(r, p, red);
    ecopt_memzero_explicit(wide, sizeof wide);
    ecopt_memzero_explicit(red, sizeof red);
}

void ecopt_ristretto255_scalarmult(ecopt_ristretto255_point *r, const uint8_t s[32],
                                   const ecopt_ristretto255_point *p) {
    scalarmult(r, s, p);
    ecopt_stack_scrub();
}

/* The fixed-base multiplication takes any s < 2^256, and G has order l: no reduction. */
void ecopt_ristretto255_scalarmult_base(ecopt_ristretto255_point *r, const uint8_t s[32]) {
    ecopt_backend_get()->ristretto->scalarmult_base(r, s);
    ecopt_stack_scrub();
}

void ecopt_ristretto255_from_uniform_bytes(ecopt_ristretto255_point *r, const uint8_t b[64]) {
    ecopt_backend_get()->ristretto->from_uniform_bytes(r, b);
}

int ecopt_ristretto255_hash_to_group(ecopt_ristretto255_point *r, const uint8_t *msg, size_t msglen,
                                     const uint8_t *dst, size_t dstlen) {
    uint8_t uniform[64];
    const ecopt_backend *be = ecopt_backend_get();
    int rc = ecopt_expand_message_xmd_sha512(uniform, sizeof uniform, msg, msglen, dst, dstlen);
    if (rc != ECOPT_OK) {
        memset(r, 0, sizeof *r);
        return rc;
    }
    be->ristretto->from_uniform_bytes(r, uniform);
    ecopt_memzero_explicit(uniform, sizeof uniform);
    return ECOPT_OK;
}

/* The variable-time multiplications are edwards25519's on the representatives. A ristretto255 element is a class
 * P + E[4] of points of 2E (RFC 9496 section 4), and the point a ristretto255_point holds is any member of its
 * class. For members Q_i = P_i + T_i (T_i in E[4]) and any integers s_i, sum [s_i] Q_i = sum [s_i] P_i +
 * sum [s_i] T_i, and the second sum lies in the subgroup E[4]: the edwards result is a member of the class of
 * sum [s_i] P_i, which is what the ristretto255 sum is. Scalars need no reduction for the same reason: [s] Q and
 * [s mod l] Q differ by [k l] T, in E[4] as well, since [l] P = 0 for P in the subgroup of order l. The generator's
 * representative is edwards25519's base point B (RFC 9496 section 4.4), so [b] G is [b] B. The two point types
 * share one layout (ristretto255.h), checked below. */
_Static_assert(sizeof(ecopt_ristretto255_point) == sizeof(ecopt_edwards25519_point), "one layout");

void ecopt_ristretto255_double_scalarmult_vartime(ecopt_ristretto255_point *r, const uint8_t a[32],
                                                  const ecopt_ristretto255_point *p, const uint8_t b[32]) {
    ecopt_edwards25519_point e;
    memcpy(&e, p, sizeof e);
    ecopt_edwards25519_double_scalarmult_vartime(&e, a, &e, b);
    memcpy(r, &e, sizeof e);
}

size_t ecopt_ristretto255_msm_scratch_size(size_t n) {
    return ecopt_edwards25519_msm_scratch_size(n);
}

int ecopt_ristretto255_msm_vartime(ecopt_ristretto255_point *out, const uint8_t *scalars,
                                   const ecopt_ristretto255_point *points, size_t n, void *scratch,
                                   size_t scratch_len) {
    ecopt_edwards25519_point e;
    /* the points are read as edwards25519 points of the same layout (bytes: uint8_t access aliases any type) */
    int rc = ecopt_edwards25519_msm_vartime(&e, scalars, (const ecopt_edwards25519_point *)(const void *)points, n,
                                            scratch, scratch_len);
    memcpy(out, &e, sizeof e);
    return rc;
}
