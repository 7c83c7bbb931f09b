/* xmd_ref.h — expand_message_xmd with SHA-512 for the tests, written from RFC 9380 section 5.3.1 (and 5.3.3 for a
 * DST over 255 bytes) as one buffer per hash, over OpenSSL's one-shot SHA512: a second implementation, not the
 * library's parts-by-parts hashing. Test code only (malloc, no constant time). */
#ifndef ECOPT_TESTS_XMD_REF_H
#define ECOPT_TESTS_XMD_REF_H

#include <openssl/sha.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* DST_prime = DST || I2OSP(len(DST), 1), DST hashed first when over 255 bytes; returns its length (<= 256). */
static size_t xmd_ref_dst_prime(uint8_t out[256], const uint8_t *dst, size_t dstlen) {
    uint8_t h[64];
    if (dstlen > 255) {
        uint8_t *buf = malloc(17 + dstlen);
        if (buf == NULL) abort();
        memcpy(buf, "H2C-OVERSIZE-DST-", 17);
        memcpy(buf + 17, dst, dstlen);
        SHA512(buf, 17 + dstlen, h);
        free(buf);
        dst = h;
        dstlen = 64;
    }
    memcpy(out, dst, dstlen);
    out[dstlen] = (uint8_t)dstlen;
    return dstlen + 1;
}

/* msg_prime = Z_pad || msg || I2OSP(len, 2) || I2OSP(0, 1) || DST_prime, in a fresh malloc'd buffer. */
static uint8_t *xmd_ref_msg_prime(size_t *n, const uint8_t *msg, size_t msglen, size_t len, const uint8_t *dst,
                                  size_t dstlen) {
    uint8_t dp[256];
    size_t dplen = xmd_ref_dst_prime(dp, dst, dstlen);
    *n = 128 + msglen + 3 + dplen;
    uint8_t *mp = calloc(1, *n);
    if (mp == NULL) abort();
    if (msglen) memcpy(mp + 128, msg, msglen);
    mp[128 + msglen] = (uint8_t)(len >> 8);
    mp[128 + msglen + 1] = (uint8_t)len;
    mp[128 + msglen + 2] = 0;
    memcpy(mp + 128 + msglen + 3, dp, dplen);
    return mp;
}

/* out = expand_message_xmd(msg, DST, len), 1 <= len <= 16320. */
static void xmd_ref_expand(uint8_t *out, size_t len, const uint8_t *msg, size_t msglen, const uint8_t *dst,
                           size_t dstlen) {
    uint8_t dp[256], b0[64], bi[64], blk[64 + 1 + 256];
    size_t dplen = xmd_ref_dst_prime(dp, dst, dstlen), mplen;
    uint8_t *mp = xmd_ref_msg_prime(&mplen, msg, msglen, len, dst, dstlen);
    SHA512(mp, mplen, b0);
    free(mp);
    size_t ell = (len + 63) / 64;
    for (size_t i = 1; i <= ell; i++) {
        for (int k = 0; k < 64; k++) blk[k] = i == 1 ? b0[k] : (uint8_t)(b0[k] ^ bi[k]);
        blk[64] = (uint8_t)i;
        memcpy(blk + 65, dp, dplen);
        SHA512(blk, 65 + dplen, bi);
        size_t n = len - 64 * (i - 1) < 64 ? len - 64 * (i - 1) : 64;
        memcpy(out + 64 * (i - 1), bi, n);
    }
}

#endif /* ECOPT_TESTS_XMD_REF_H */
