/* h2c.c — expand_message_xmd with SHA-512 (RFC 9380 section 5.3.1) and the public hash-to-curve functions of
 * include/ecopt/hash_to_curve.h, compiled once: the hashing is the same for every backend, and the curve half
 * (hash_to_field's reduction, the maps, cofactor clearing) is the chosen backend's (src/curve/group_ops.h). */
#include "ecopt/hash_to_curve.h"

#include <string.h>

#include "backend.h"
#include "ct.h"
#include "curve/group_ops.h"
#include "proto/sha512.h"

/* RFC 9380 section 5.3.3: the prefix of an oversize DST's hash. */
static const char oversize_prefix[] = "H2C-OVERSIZE-DST-";

int ecopt_expand_message_xmd_sha512(uint8_t *out, size_t outlen, const uint8_t *msg, size_t msglen,
                                    const uint8_t *dst, size_t dstlen) {
    /* b_in_bytes = 64 (SHA-512's output), s_in_bytes = 128 (its block); ell = ceil(outlen / 64) <= 255. */
    uint8_t dst_short[64], dst_len_byte, b0[64], bi[64], x[64], lib_str[2], zero = 0, idx;
    static const uint8_t z_pad[128] = {0};
    if (outlen > ECOPT_EXPAND_MESSAGE_XMD_SHA512_MAXBYTES || dstlen == 0) {
        if (outlen) memset(out, 0, outlen); /* out is outlen bytes, whatever outlen is (ecopt.h's convention) */
        return ECOPT_ERR_LENGTH;
    }
    if (outlen == 0) return ECOPT_OK;
    if (dstlen > 255) {
        ecopt_bytes parts[2] = {{(const uint8_t *)oversize_prefix, sizeof oversize_prefix - 1}, {dst, dstlen}};
        int rc = ecopt_sha512(dst_short, parts, 2);
        if (rc != ECOPT_OK) {
            memset(out, 0, outlen);
            return rc;
        }
        dst = dst_short;
        dstlen = sizeof dst_short;
    }
    dst_len_byte = (uint8_t)dstlen;
    lib_str[0] = (uint8_t)(outlen >> 8);
    lib_str[1] = (uint8_t)outlen;

    /* b_0 = H(Z_pad || msg || l_i_b_str || I2OSP(0, 1) || DST_prime) */
    ecopt_bytes p0[6] = {{z_pad, sizeof z_pad}, {msg, msglen}, {lib_str, 2}, {&zero, 1}, {dst, dstlen},
                         {&dst_len_byte, 1}};
    int rc = ecopt_sha512(b0, p0, 6);
    size_t ell = (outlen + 63) / 64;
    /* b_1 = H(b_0 || I2OSP(1, 1) || DST_prime); b_i = H(strxor(b_0, b_(i-1)) || I2OSP(i, 1) || DST_prime) */
    memcpy(x, b0, 64);
    for (size_t i = 1; i <= ell && rc == ECOPT_OK; i++) {
        idx = (uint8_t)i;
        ecopt_bytes pi[4] = {{x, 64}, {&idx, 1}, {dst, dstlen}, {&dst_len_byte, 1}};
        rc = ecopt_sha512(bi, pi, 4);
        size_t n = outlen - 64 * (i - 1) < 64 ? outlen - 64 * (i - 1) : 64;
        memcpy(out + 64 * (i - 1), bi, n);
        for (int k = 0; k < 64; k++) x[k] = (uint8_t)(b0[k] ^ bi[k]);
    }
    ecopt_memzero_explicit(b0, sizeof b0);
    ecopt_memzero_explicit(bi, sizeof bi);
    ecopt_memzero_explicit(x, sizeof x);
    /* The result of a failed SHA-512 call (libcrypto unavailable) is public, as in every caller of ecopt_sha512. */
    if (rc != ECOPT_OK) {
        ecopt_memzero_explicit(out, outlen);
        return rc;
    }
    return ECOPT_OK;
}

/* u = hash_to_field(msg, count), L = 48 (RFC 9380 section 5.2): expand_message_xmd to 48 count bytes, handed to the
 * backend, which reduces each 48-byte piece mod p. */
static int uniform_for_field(uint8_t uniform[96], size_t count, const uint8_t *msg, size_t msglen,
                             const uint8_t *dst, size_t dstlen) {
    return ecopt_expand_message_xmd_sha512(uniform, 48 * count, msg, msglen, dst, dstlen);
}

static int edwards(ecopt_edwards25519_point *p, size_t count, const uint8_t *msg, size_t msglen,
                   const uint8_t *dst, size_t dstlen) {
    uint8_t uniform[96];
    const ecopt_backend *be = ecopt_backend_get();
    int rc = uniform_for_field(uniform, count, msg, msglen, dst, dstlen);
    if (rc != ECOPT_OK) {
        memset(p, 0, sizeof *p);
        return rc;
    }
    be->h2c->edwards25519(p, uniform, count);
    ecopt_memzero_explicit(uniform, sizeof uniform);
    return ECOPT_OK;
}

static int montgomery(uint8_t u[32], uint8_t *v, size_t count, const uint8_t *msg, size_t msglen,
                      const uint8_t *dst, size_t dstlen) {
    uint8_t uniform[96];
    const ecopt_backend *be = ecopt_backend_get();
    int rc = uniform_for_field(uniform, count, msg, msglen, dst, dstlen);
    if (rc != ECOPT_OK) {
        memset(u, 0, 32);
        if (v != NULL) memset(v, 0, 32);
        return rc;
    }
    be->h2c->curve25519(u, v, uniform, count);
    ecopt_memzero_explicit(uniform, sizeof uniform);
    return ECOPT_OK;
}

int ecopt_edwards25519_hash_to_curve(ecopt_edwards25519_point *p, const uint8_t *msg, size_t msglen,
                                     const uint8_t *dst, size_t dstlen) {
    return edwards(p, 2, msg, msglen, dst, dstlen);
}

int ecopt_edwards25519_encode_to_curve(ecopt_edwards25519_point *p, const uint8_t *msg, size_t msglen,
                                       const uint8_t *dst, size_t dstlen) {
    return edwards(p, 1, msg, msglen, dst, dstlen);
}

int ecopt_curve25519_hash_to_curve(uint8_t u[32], uint8_t v[32], const uint8_t *msg, size_t msglen,
                                   const uint8_t *dst, size_t dstlen) {
    return montgomery(u, v, 2, msg, msglen, dst, dstlen);
}

int ecopt_curve25519_encode_to_curve(uint8_t u[32], uint8_t v[32], const uint8_t *msg, size_t msglen,
                                     const uint8_t *dst, size_t dstlen) {
    return montgomery(u, v, 1, msg, msglen, dst, dstlen);
}
