/* ristretto255.c — the public functions of include/ecopt/ristretto255.h, compiled once: each hands its whole
 * operation to the chosen backend's entry (src/curve/group_ops.h); hash_to_group's expand_message_xmd is
 * src/proto/h2c.c's. */
#include "ecopt/ristretto255.h"

#include <string.h>

#include "backend.h"
#include "ct.h"
#include "curve/group_ops.h"
#include "curve/scalar.h"
#include "ecopt/hash_to_curve.h"

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

/* [s]P = [s mod l]P: the group has order l. The multiplication needs s < 2^255 (ge.h). */
void ecopt_ristretto255_scalarmult(ecopt_ristretto255_point *r, const uint8_t s[32],
                                   const ecopt_ristretto255_point *p) {
    uint8_t wide[64] = {0}, red[32];
    memcpy(wide, s, 32);
    ecopt_scalar_reduce64(red, wide);
    ecopt_backend_get()->ristretto->scalarmult(r, p, red);
    ecopt_memzero_explicit(wide, sizeof wide);
    ecopt_memzero_explicit(red, sizeof red);
}

/* The fixed-base multiplication takes any s < 2^256, and G has order l: no reduction. */
void ecopt_ristretto255_scalarmult_base(ecopt_ristretto255_point *r, const uint8_t s[32]) {
    ecopt_backend_get()->ristretto->scalarmult_base(r, s);
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
