/* keyfile.c — libFuzzer harness for the ecopt command's key reader (tools/keyfile.c: cli_key_load,
 * cli_key_load_any), the code that reads every key file the command is given.
 *
 * Input: one control byte, then the body. The control byte's low two bits say what the key file holds:
 *   0, 3  the body itself (PEM text as a user would hand it over);
 *   1     the body as DER inside a "PRIVATE KEY" PEM block (base64 in lines of 64), so that the mutations reach the
 *         PKCS#8 parser without first having to keep the base64 intact;
 *   2     the same inside a "PUBLIC KEY" block (SubjectPublicKeyInfo).
 * Bits 2-4 pick the call: cli_key_load_any, or cli_key_load for Ed25519 / X25519 with need_private 1 or 0.
 * The file is written to a memfd and read through /proc/self/fd/N, as the command reads a file named on its
 * command line.
 *
 * Asserts (abort on failure):
 *   - the reader returns CLI_OK or CLI_USAGE (a malformed file is a usage error, never CLI_ENV nor a crash);
 *   - an accepted key has the type and kind the call asked for;
 *   - an accepted key is one that OpenSSL's own reader (PEM_read_bio_PrivateKey / PEM_read_bio_PUBKEY) accepts too,
 *     with the same type and the same 32 bytes (ecopt is stricter, never looser);
 *   - the public key of an accepted private key is libsodium's (crypto_sign_seed_keypair for Ed25519,
 *     crypto_scalarmult_base for X25519);
 *   - a refused key leaves the cli_key structure all zero.
 * The diagnostics go to stderr; scripts/fuzz.sh runs with -close_fd_mask=2 to keep them out of the log. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sodium.h>

#include "cli.h"

#define FUZZ_NAME "keyfile"
#include "fuzz.h"


static int memfd = -1;
static char memfd_path[64];


int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    memfd = memfd_create("fuzz-key", MFD_CLOEXEC);
    if (memfd < 0 || sodium_init() < 0) {
        perror("fuzz_keyfile: memfd_create or sodium_init");
        abort();
    }
    snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
    cli_cmd = "fuzz";
    return 0;
}

/* The body as DER in a PEM block labelled label; returns the text's length in out (size at least
 * 2 * len + 128). */
static size_t armour(char *out, const char *label, const uint8_t *der, size_t len)
{
    size_t o = (size_t)sprintf(out, "-----BEGIN %s-----\n", label);
    for (size_t i = 0; i < len; i += 48) {
        size_t n = len - i < 48 ? len - i : 48;
        o += (size_t)EVP_EncodeBlock((unsigned char *)out + o, der + i, (int)n);
        out[o++] = '\n';
    }
    o += (size_t)sprintf(out + o, "-----END %s-----\n", label);
    return o;
}

/* OpenSSL's reading of the same file: its key type (0 when it refuses the file) and raw key bytes. */
static int openssl_read(const char *text, size_t len, int private, uint8_t raw[32])
{
    BIO *bio = BIO_new_mem_buf(text, (int)len);
    EVP_PKEY *pk;
    size_t n = 32;
    int type = 0;
    FUZZ_ASSERT(bio != NULL);
    pk = private ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
    if (pk != NULL) {
        int id = EVP_PKEY_get_id(pk);
        type = id == EVP_PKEY_ED25519 ? CLI_KEY_ED25519 : id == EVP_PKEY_X25519 ? CLI_KEY_X25519 : -1;
        if (type > 0 && !(private ? EVP_PKEY_get_raw_private_key(pk, raw, &n) : EVP_PKEY_get_raw_public_key(pk, raw, &n)))
            type = -1;
        if (n != 32)
            type = -1;
    }
    EVP_PKEY_free(pk);
    BIO_free(bio);
    ERR_clear_error();
    return type;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct { cli_key_type want; int need_private; } calls[] = {
        { 0, 0 }, { CLI_KEY_ED25519, 1 }, { CLI_KEY_ED25519, 0 }, { CLI_KEY_X25519, 1 }, { CLI_KEY_X25519, 0 },
    };
    if (size < 1 || size > 16384)
        return 0;
    unsigned ctl = data[0], wrap = ctl & 3, call = (ctl >> 2) % 5;
    const uint8_t *body = data + 1;
    size_t blen = size - 1;
    char *text = malloc(2 * blen + 128);
    size_t tlen;
    FUZZ_ASSERT(text != NULL);
    if (wrap == 1)
        tlen = armour(text, "PRIVATE KEY", body, blen);
    else if (wrap == 2)
        tlen = armour(text, "PUBLIC KEY", body, blen);
    else {
        memcpy(text, body, blen);
        tlen = blen;
    }
    FUZZ_ASSERT(ftruncate(memfd, 0) == 0);
    FUZZ_ASSERT(pwrite(memfd, text, tlen, 0) == (ssize_t)tlen);

    cli_key key;
    int rc = calls[call].want == 0 ? cli_key_load_any(memfd_path, &key)
                                   : cli_key_load(memfd_path, calls[call].want, calls[call].need_private, &key);
    FUZZ_ASSERT(rc == CLI_OK || rc == CLI_USAGE);
    if (rc != CLI_OK) {
        static const cli_key zero;
        FUZZ_ASSERT(memcmp(&key, &zero, sizeof key) == 0);
        free(text);
        return 0;
    }
    FUZZ_ASSERT(key.type == CLI_KEY_ED25519 || key.type == CLI_KEY_X25519);
    FUZZ_ASSERT(calls[call].want == 0 || key.type == calls[call].want);
    FUZZ_ASSERT(!calls[call].need_private || key.has_private);

    uint8_t raw[32];
    int otype = openssl_read(text, tlen, key.has_private, raw);
    FUZZ_ASSERT(otype == (int)key.type);
    FUZZ_ASSERT(memcmp(raw, key.has_private ? key.priv : key.pub, 32) == 0);
    if (key.has_private) {
        uint8_t pub[32];
        if (key.type == CLI_KEY_ED25519) {
            uint8_t sk[64];
            FUZZ_ASSERT(crypto_sign_seed_keypair(pub, sk, key.priv) == 0);
            sodium_memzero(sk, sizeof sk);
        } else {
            FUZZ_ASSERT(crypto_scalarmult_base(pub, key.priv) == 0);
        }
        FUZZ_ASSERT(memcmp(pub, key.pub, 32) == 0);
    }
    cli_key_wipe(&key);
    free(text);
    return 0;
}
