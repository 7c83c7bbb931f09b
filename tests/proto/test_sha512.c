/* test_sha512.c — ecopt_sha512 (src/proto/sha512.c) against FIPS 180-4's examples and libcrypto's EVP one-shot
 * digest over one buffer, for messages split into parts at every kind of boundary (empty parts, parts across the
 * 128-byte block). Built twice: against the library (the low-level SHA512_* path) and with ECOPT_SHA512_EVP. */
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <string.h>

#include "ecopt/ecopt.h"
#include "proto/sha512.h"

static int fails;

static void hex(const char *h, uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) sscanf(h + 2 * i, "%2hhx", &out[i]);
}

int main(void) {
    /* FIPS 180-4 / NIST CSRC examples: SHA-512("abc") and of the 112-byte two-block message. */
    static const char *msgs[2] = {"abc", "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop"
                                         "jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"};
    static const char *want[2] = {
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423"
        "643ce80e2a9ac94fa54ca49f",
        "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329ee"
        "b6dd26545e96e55b874be909"};
    for (int k = 0; k < 2; k++) {
        uint8_t w[64], got[64];
        hex(want[k], w, 64);
        size_t n = strlen(msgs[k]);
        ecopt_bytes parts[3] = {{(const uint8_t *)msgs[k], 1}, {NULL, 0}, {(const uint8_t *)msgs[k] + 1, n - 1}};
        if (ecopt_sha512(got, parts, 3) != ECOPT_OK || memcmp(got, w, 64) != 0) {
            printf("FAIL FIPS 180-4 example %d\n", k);
            fails++;
        }
    }
    /* Random messages of 0..400 bytes, cut into 1..4 parts at random points, against EVP_Digest on the whole. */
    uint8_t buf[400];
    for (int t = 0; t < 2000; t++) {
        unsigned char r[4];
        if (RAND_bytes(buf, sizeof buf) != 1 || RAND_bytes(r, sizeof r) != 1) return 2;
        size_t n = (size_t)(r[0] | r[1] << 8) % (sizeof buf + 1);
        size_t c1 = n ? r[2] % (n + 1) : 0, c2 = n ? r[3] % (n + 1) : 0;
        if (c1 > c2) {
            size_t s = c1;
            c1 = c2;
            c2 = s;
        }
        ecopt_bytes parts[4] = {{buf, c1}, {buf + c1, 0}, {buf + c1, c2 - c1}, {buf + c2, n - c2}};
        uint8_t want_d[64], got[64];
        unsigned int len = 0;
        if (EVP_Digest(buf, n, want_d, &len, EVP_sha512(), NULL) != 1 || len != 64) return 2;
        if (ecopt_sha512(got, parts, 4) != ECOPT_OK || memcmp(got, want_d, 64) != 0) {
            printf("FAIL random message %d (%zu bytes, cuts %zu %zu)\n", t, n, c1, c2);
            fails++;
        }
    }
    if (!fails) printf("ok: SHA-512 FIPS 180-4 examples and 2000 split messages vs EVP_Digest\n");
    return fails ? 1 : 0;
}
