/* ph_oracle.c — the Ed25519ph signature (RFC 8032, empty context) of a file by libsodium's streaming API, as the
 * independent answer for the streamed `ecopt sign --prehash` (tests/cli/stream.sh).
 *
 *   ph_oracle SEEDHEX FILE     prints the 64-byte signature in hex and a newline; exit 0, or 1 with a message */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int main(int argc, char **argv) {
    unsigned char seed[32], pk[32], sk[64], sig[64], buf[65536];
    crypto_sign_ed25519ph_state st;
    size_t n;
    FILE *f;
    if (argc != 3 || strlen(argv[1]) != 64) {
        fprintf(stderr, "usage: ph_oracle SEEDHEX(64 digits) FILE\n");
        return 1;
    }
    for (int i = 0; i < 32; i++) {
        int hi = hexval(argv[1][2 * i]), lo = hexval(argv[1][2 * i + 1]);
        if (hi < 0 || lo < 0) {
            fprintf(stderr, "ph_oracle: not hex: %s\n", argv[1]);
            return 1;
        }
        seed[i] = (unsigned char)(hi << 4 | lo);
    }
    if (sodium_init() < 0 || crypto_sign_seed_keypair(pk, sk, seed) != 0) {
        fprintf(stderr, "ph_oracle: libsodium failed\n");
        return 1;
    }
    f = strcmp(argv[2], "-") == 0 ? stdin : fopen(argv[2], "rb");
    if (f == NULL) {
        perror(argv[2]);
        return 1;
    }
    crypto_sign_ed25519ph_init(&st);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) crypto_sign_ed25519ph_update(&st, buf, n);
    if (ferror(f) || crypto_sign_ed25519ph_final_create(&st, sig, NULL, sk) != 0) {
        fprintf(stderr, "ph_oracle: reading or signing failed\n");
        return 1;
    }
    for (int i = 0; i < 64; i++) printf("%02x", sig[i]);
    printf("\n");
    return 0;
}
