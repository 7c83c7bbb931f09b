/* keyfile.c — Ed25519 and X25519 keys in PEM files (RFC 8410), read and written with OpenSSL's libcrypto.
 *
 * libcrypto does the PEM and DER work only: the public key of a private key is always derived with libecopt.
 * (EVP_PKEY_new_raw_private_key lets OpenSSL compute its own copy of the public key as a side effect; that copy
 * is never used.)
 *
 * Formats (RFC 8410):
 *   private key  "PRIVATE KEY"  PKCS#8 v1 PrivateKeyInfo { version 0, AlgorithmIdentifier { id-Ed25519 |
 *                               id-X25519, no parameters }, OCTET STRING { OCTET STRING (32 bytes) } }
 *   public key   "PUBLIC KEY"   SubjectPublicKeyInfo { AlgorithmIdentifier, BIT STRING (32 bytes) }
 * PKCS#8 v2 (RFC 5958 OneAsymmetricKey, version 1, usually with the public key attached) is refused: OpenSSL 3.0
 * cannot read it, and a key file that carries its own public key invites a mismatch. */
#define _XOPEN_SOURCE 700

#include <string.h>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/buffer.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <ecopt/ecopt.h>

#include "cli.h"

/* A PEM key file is a few hundred bytes; anything much larger is not one. */
#define KEYFILE_MAX 65536

const char *cli_key_name(cli_key_type type)
{
    return type == CLI_KEY_ED25519 ? "Ed25519" : "X25519";
}

void cli_key_wipe(cli_key *key)
{
    cli_wipe(key, sizeof *key);
}

/* The reason of the most recent libcrypto error, for messages; a fixed text when there is none. */
static const char *ossl_reason(void)
{
    unsigned long e = ERR_peek_last_error();
    const char *r = e ? ERR_reason_error_string(e) : NULL;
    return r ? r : "libcrypto gave no reason";
}

/* Map an algorithm OID to a key type; on no match describe it in name (for the message) and return 0. */
static cli_key_type type_of_oid(const ASN1_OBJECT *oid, char *name, size_t namelen)
{
    int nid = OBJ_obj2nid(oid);
    if (nid == NID_ED25519)
        return CLI_KEY_ED25519;
    if (nid == NID_X25519)
        return CLI_KEY_X25519;
    if (nid != NID_undef && OBJ_nid2sn(nid) != NULL)
        snprintf(name, namelen, "%s", OBJ_nid2sn(nid));
    else if (OBJ_obj2txt(name, (int)namelen, oid, 1) <= 0)
        snprintf(name, namelen, "(unreadable OID)");
    return 0;
}

/* "an Ed25519 key", "an X25519 key", or either when the command takes both. */
static const char *want_text(cli_key_type want)
{
    if (want == CLI_KEY_ED25519)
        return "an Ed25519 key";
    if (want == CLI_KEY_X25519)
        return "an X25519 key";
    return "an Ed25519 or X25519 key";
}

static int wrong_type(const char *path, cli_key_type got, cli_key_type want)
{
    return cli_fail(CLI_USAGE, path, "an %s key; this command needs %s", cli_key_name(got), want_text(want));
}

/* key->type from the algorithm OID; a failure (unknown algorithm, or not the wanted type when want != 0) is
 * reported for path and returned as CLI_USAGE. */
static int set_key_type(const char *path, const ASN1_OBJECT *oid, cli_key_type want, cli_key *key)
{
    char algname[80];
    key->type = type_of_oid(oid, algname, sizeof algname);
    if (key->type == 0)
        return cli_fail(CLI_USAGE, path, "unsupported key algorithm %s; this command needs %s", algname,
                        want_text(want));
    if (want != 0 && key->type != want)
        return wrong_type(path, key->type, want);
    return 0;
}

/* Peek at the version INTEGER that opens a PKCS#8 structure: SEQUENCE { INTEGER version, ... }.
 * Returns 0 with *version set, -1 when the DER does not start that way. */
static int pkcs8_version(const unsigned char *der, long len, long *version)
{
    const unsigned char *p = der;
    long clen;
    int tag, cls, r;
    ASN1_INTEGER *v;

    r = ASN1_get_object(&p, &clen, &tag, &cls, len);
    /* 0x80: error; 0x01: indefinite length (BER, never DER); 0x20 (V_ASN1_CONSTRUCTED) must be set. */
    if ((r & 0x80) || (r & 0x01) || !(r & V_ASN1_CONSTRUCTED) || tag != V_ASN1_SEQUENCE ||
        cls != V_ASN1_UNIVERSAL)
        return -1;
    v = d2i_ASN1_INTEGER(NULL, &p, clen);
    if (v == NULL)
        return -1;
    *version = ASN1_INTEGER_get(v); /* -1 for values that do not fit, which is "unsupported" anyway */
    ASN1_INTEGER_free(v);
    return 0;
}

/* Derive key->pub from key->priv with libecopt. */
static int derive_public(const char *path, cli_key *key)
{
    int rc;
    if (key->type == CLI_KEY_ED25519) {
        ecopt_ed25519_secretkey sk;
        rc = ecopt_ed25519_keypair_from_seed(&sk, key->pub, key->priv);
        ecopt_ed25519_secretkey_wipe(&sk);
    } else {
        rc = ecopt_x25519_base(key->pub, key->priv);
    }
    if (rc != ECOPT_OK)
        return cli_fail(rc == ECOPT_ERR_UNSUPPORTED ? CLI_USAGE : CLI_ENV, path,
                        "cannot derive the public key: %s", ecopt_strerror(rc));
    return CLI_OK;
}

static int load_pkcs8(const char *path, const unsigned char *der, long len, cli_key_type want, cli_key *key)
{
    const unsigned char *p = der;
    PKCS8_PRIV_KEY_INFO *p8 = NULL;
    const ASN1_OBJECT *oid = NULL;
    EVP_PKEY *pk = NULL;
    size_t n = 0;
    long version;
    int rc = CLI_USAGE;

    if (pkcs8_version(der, len, &version) != 0)
        return cli_fail(CLI_USAGE, path, "malformed PKCS#8 private key (no SEQUENCE and version)");
    if (version == 1)
        return cli_fail(CLI_USAGE, path,
                        "a PKCS#8 v2 key (OneAsymmetricKey, version 1) is not supported; "
                        "use a PKCS#8 v1 key (RFC 8410 section 7)");
    if (version != 0)
        return cli_fail(CLI_USAGE, path, "unsupported PKCS#8 version %ld (only version 0 is read)", version);

    p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, len);
    if (p8 == NULL) {
        cli_fail(CLI_USAGE, path, "malformed PKCS#8 private key: %s", ossl_reason());
        goto out;
    }
    if (p != der + len) {
        cli_fail(CLI_USAGE, path, "malformed PKCS#8 private key: %ld bytes after its end", (long)(der + len - p));
        goto out;
    }
    if (!PKCS8_pkey_get0(&oid, NULL, NULL, NULL, p8)) {
        cli_fail(CLI_USAGE, path, "malformed PKCS#8 private key: no algorithm");
        goto out;
    }
    if (set_key_type(path, oid, want, key) != 0)
        goto out;
    pk = EVP_PKCS82PKEY(p8);
    if (pk == NULL) {
        cli_fail(CLI_USAGE, path, "malformed %s private key: %s", cli_key_name(key->type), ossl_reason());
        goto out;
    }
    if (!EVP_PKEY_get_raw_private_key(pk, NULL, &n) || n != sizeof key->priv ||
        !EVP_PKEY_get_raw_private_key(pk, key->priv, &n)) {
        cli_fail(CLI_USAGE, path, "malformed %s private key: not 32 bytes", cli_key_name(key->type));
        goto out;
    }
    key->has_private = 1;
    rc = derive_public(path, key);
out:
    EVP_PKEY_free(pk);               /* wipes OpenSSL's copy of the key */
    PKCS8_PRIV_KEY_INFO_free(p8);    /* wipes the private key OCTET STRING */
    return rc;
}

/* SubjectPublicKeyInfo ::= SEQUENCE { AlgorithmIdentifier SEQUENCE, subjectPublicKey BIT STRING }. libcrypto
 * clears the bits a BIT STRING declares unused, which would silently change the key, so look at the count first.
 * Returns the count of unused bits; 0 also when the DER does not have this shape (d2i_X509_PUBKEY then says why). */
static int spki_unused_bits(const unsigned char *der, long len)
{
    const unsigned char *p = der, *end;
    long clen;
    int tag, cls, r;

    r = ASN1_get_object(&p, &clen, &tag, &cls, len);
    if ((r & 0x80) || (r & 0x01) || tag != V_ASN1_SEQUENCE || cls != V_ASN1_UNIVERSAL)
        return 0;
    end = p + clen;
    r = ASN1_get_object(&p, &clen, &tag, &cls, end - p); /* AlgorithmIdentifier */
    if ((r & 0x80) || (r & 0x01) || tag != V_ASN1_SEQUENCE || cls != V_ASN1_UNIVERSAL)
        return 0;
    p += clen;
    if (p >= end)
        return 0;
    r = ASN1_get_object(&p, &clen, &tag, &cls, end - p);
    if ((r & 0x80) || (r & 0x01) || tag != V_ASN1_BIT_STRING || cls != V_ASN1_UNIVERSAL || clen < 1)
        return 0;
    return p[0];
}

static int load_spki(const char *path, const unsigned char *der, long len, cli_key_type want, int need_private,
                     cli_key *key)
{
    const unsigned char *p = der;
    X509_PUBKEY *xpk = NULL;
    ASN1_OBJECT *oid = NULL;
    EVP_PKEY *pk;
    size_t n = 0;
    int rc = CLI_USAGE;

    if (spki_unused_bits(der, len) != 0) {
        cli_fail(CLI_USAGE, path, "malformed public key: BIT STRING with unused bits");
        goto out;
    }
    xpk = d2i_X509_PUBKEY(NULL, &p, len);
    if (xpk == NULL) {
        cli_fail(CLI_USAGE, path, "malformed public key: %s", ossl_reason());
        goto out;
    }
    if (p != der + len) {
        cli_fail(CLI_USAGE, path, "malformed public key: %ld bytes after its end", (long)(der + len - p));
        goto out;
    }
    if (!X509_PUBKEY_get0_param(&oid, NULL, NULL, NULL, xpk)) {
        cli_fail(CLI_USAGE, path, "malformed public key: no algorithm");
        goto out;
    }
    if (set_key_type(path, oid, want, key) != 0)
        goto out;
    if (need_private) {
        cli_fail(CLI_USAGE, path, "a public key; this command needs an %s private key", cli_key_name(key->type));
        goto out;
    }
    pk = X509_PUBKEY_get0(xpk); /* owned by xpk */
    if (pk == NULL || !EVP_PKEY_get_raw_public_key(pk, NULL, &n) || n != sizeof key->pub ||
        !EVP_PKEY_get_raw_public_key(pk, key->pub, &n)) {
        cli_fail(CLI_USAGE, path, "malformed %s public key: not 32 bytes", cli_key_name(key->type));
        goto out;
    }
    key->has_private = 0;
    rc = CLI_OK;
out:
    X509_PUBKEY_free(xpk);
    return rc;
}

static int load(const char *path, cli_key_type want, int need_private, cli_key *key)
{
    uint8_t *buf = NULL;
    size_t buflen = 0;
    BIO *bio = NULL;
    char *pem_name = NULL, *pem_header = NULL;
    unsigned char *der = NULL;
    long derlen = 0;
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    int rc;

    memset(key, 0, sizeof *key);
    rc = cli_read_file(path, KEYFILE_MAX, 1, "a key file", &buf, &buflen);
    if (rc != CLI_OK)
        return rc;

    rc = CLI_USAGE;
    ERR_clear_error();
    bio = BIO_new_mem_buf(buf, (int)buflen); /* read-only view of buf, no copy */
    if (bio == NULL) {
        rc = cli_fail(CLI_ENV, name, "out of memory");
        goto out;
    }
    /* PEM_FLAG_SECURE: libcrypto's intermediate buffers are wiped when freed. */
    if (!PEM_read_bio_ex(bio, &pem_name, &pem_header, &der, &derlen, PEM_FLAG_SECURE | PEM_FLAG_EAY_COMPATIBLE)) {
        unsigned long e = ERR_peek_last_error();
        if (ERR_GET_LIB(e) == ERR_LIB_PEM && ERR_GET_REASON(e) == PEM_R_NO_START_LINE)
            cli_fail(CLI_USAGE, name, "not a PEM file (no '-----BEGIN' line)");
        else
            cli_fail(CLI_USAGE, name, "malformed PEM: %s", ossl_reason());
        goto out;
    }
    /* Nothing but white space may follow the END line: neither a second PEM block nor other text. */
    {
        char rest[256];
        int n, i, other = 0;
        while (!other && (n = BIO_read(bio, rest, (int)sizeof rest)) > 0)
            for (i = 0; i < n; i++)
                if (rest[i] != ' ' && rest[i] != '\t' && rest[i] != '\r' && rest[i] != '\n') {
                    other = 1;
                    break;
                }
        cli_wipe(rest, sizeof rest);
        if (other) {
            cli_fail(CLI_USAGE, name, "malformed PEM: data after the END line (one PEM block per key file)");
            goto out;
        }
    }
    if (strcmp(pem_name, "ENCRYPTED PRIVATE KEY") == 0) {
        cli_fail(CLI_USAGE, name, "an encrypted private key; ecopt reads unencrypted PKCS#8 keys only");
        goto out;
    }
    if (pem_header != NULL && pem_header[0] != '\0') {
        cli_fail(CLI_USAGE, name, "a PEM block with headers (a legacy encrypted key?); not supported");
        goto out;
    }
    if (strcmp(pem_name, "PRIVATE KEY") == 0) {
        rc = load_pkcs8(name, der, derlen, want, key);
    } else if (strcmp(pem_name, "PUBLIC KEY") == 0) {
        rc = load_spki(name, der, derlen, want, need_private, key);
    } else {
        cli_fail(CLI_USAGE, name, "a PEM '%.40s' block; expected '%s'", pem_name,
                 need_private ? "PRIVATE KEY" : "PUBLIC KEY' or 'PRIVATE KEY");
    }
out:
    if (der != NULL)
        OPENSSL_secure_clear_free(der, (size_t)derlen);
    OPENSSL_secure_free(pem_name);
    OPENSSL_secure_free(pem_header);
    BIO_free(bio);
    cli_free_buffer(buf, buflen, 1);
    ERR_clear_error();
    if (rc != CLI_OK)
        cli_key_wipe(key);
    return rc;
}

int cli_key_load(const char *path, cli_key_type want, int need_private, cli_key *key)
{
    return load(path, want, need_private, key);
}

int cli_key_load_any(const char *path, cli_key *key)
{
    return load(path, 0, 0, key);
}

/* Write the PEM text held in a memory BIO to path. */
static int write_bio(const char *path, BIO *bio, int secret)
{
    BUF_MEM *bm = NULL;
    BIO_get_mem_ptr(bio, &bm);
    if (bm == NULL)
        return cli_fail(CLI_ENV, path, "cannot encode the key: out of memory");
    return cli_write_file(path, (const uint8_t *)bm->data, bm->length, secret);
}

static int nid_of(cli_key_type type)
{
    return type == CLI_KEY_ED25519 ? EVP_PKEY_ED25519 : EVP_PKEY_X25519;
}

int cli_key_write_private(const char *path, const cli_key *key)
{
    EVP_PKEY *pk = EVP_PKEY_new_raw_private_key(nid_of(key->type), NULL, key->priv, sizeof key->priv);
    BIO *bio = BIO_new(BIO_s_secmem()); /* wiped when freed */
    int rc;

    if (pk == NULL || bio == NULL || !PEM_write_bio_PrivateKey(bio, pk, NULL, NULL, 0, NULL, NULL))
        rc = cli_fail(CLI_ENV, path, "cannot encode the key: %s", ossl_reason());
    else
        rc = write_bio(path, bio, 1);
    BIO_free(bio);
    EVP_PKEY_free(pk);
    ERR_clear_error();
    return rc;
}

int cli_key_write_public(const char *path, const cli_key *key)
{
    EVP_PKEY *pk = EVP_PKEY_new_raw_public_key(nid_of(key->type), NULL, key->pub, sizeof key->pub);
    BIO *bio = BIO_new(BIO_s_mem());
    int rc;

    if (pk == NULL || bio == NULL || !PEM_write_bio_PUBKEY(bio, pk))
        rc = cli_fail(CLI_ENV, path, "cannot encode the key: %s", ossl_reason());
    else
        rc = write_bio(path, bio, 0);
    BIO_free(bio);
    EVP_PKEY_free(pk);
    ERR_clear_error();
    return rc;
}
