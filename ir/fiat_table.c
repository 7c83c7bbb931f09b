/* fiat_table.c — the primes and limb layouts of the fiat-crypto JSON files in ../shared/fiat-json.
 *
 * The unsaturated radix layouts follow fiat-crypto's rule (Erbsen et al., "Simple High-Level Code for
 * Cryptographic Arithmetic — With Proofs, Without Compromises", IEEE S&P 2019): limb i has weight 2^ceil(i k / n)
 * for a k-bit prime in n limbs, so 2^521-1 in 9 limbs is eight of 58 bits and one of 57. curve25519_solinas_64 is
 * saturated (4 x 64). Dettman's secp256k1 layout is libsecp256k1's 5 x 52 with the top limb holding 48 bits.
 * The Montgomery files are word-by-word Montgomery multiplication
 * (Montgomery, "Modular multiplication without trial division", Math. Comp. 44, 1985) with R = 2^(64 n). */
#include "ir/fiat_table.h"

#include <string.h>

#define W8(w) w, w, w, w, w, w, w, w

static const fiat_table_entry table[] = {
    { "curve25519_64", "fiat_25519_", "2^255-19", IR_REPR_RADIX, 5, { 51, 51, 51, 51, 51 } },
    { "curve25519_solinas_64", "fiat_curve25519_solinas_", "2^255-19", IR_REPR_RADIX, 4, { 64, 64, 64, 64 } },
    { "p448_solinas_64", "fiat_p448_", "2^448-2^224-1", IR_REPR_RADIX, 8, { W8(56) } },
    { "p521_64", "fiat_p521_", "2^521-1", IR_REPR_RADIX, 9, { W8(58), 57 } },
    { "poly1305_64", "fiat_poly1305_", "2^130-5", IR_REPR_RADIX, 3, { 44, 43, 43 } },
    { "secp256k1_dettman_64", "fiat_secp256k1_dettman_", "2^256-2^32-977", IR_REPR_RADIX, 5,
      { 52, 52, 52, 52, 48 } },
    { "p224_64", "fiat_p224_", "2^224-2^96+1", IR_REPR_MONTGOMERY, 4, { 64, 64, 64, 64 } },
    { "p256_64", "fiat_p256_", "2^256-2^224+2^192+2^96-1", IR_REPR_MONTGOMERY, 4, { 64, 64, 64, 64 } },
    { "p384_64", "fiat_p384_", "2^384-2^128-2^96+2^32-1", IR_REPR_MONTGOMERY, 6, { 64, 64, 64, 64, 64, 64 } },
    { "p434_64", "fiat_p434_", "2^216*3^137-1", IR_REPR_MONTGOMERY, 7, { 64, 64, 64, 64, 64, 64, 64 } },
    { "secp256k1_montgomery_64", "fiat_secp256k1_montgomery_", "2^256-2^32-977", IR_REPR_MONTGOMERY, 4,
      { 64, 64, 64, 64 } },
    { "curve25519_scalar_64", "fiat_25519_scalar_", "2^252+27742317777372353535851937790883648493",
      IR_REPR_MONTGOMERY, 4, { 64, 64, 64, 64 } },
    { "p256_scalar_64", "fiat_p256_scalar_", "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
      IR_REPR_MONTGOMERY, 4, { 64, 64, 64, 64 } },
};

const fiat_table_entry *fiat_table_find(const char *file, size_t len)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].file) == len && !memcmp(table[i].file, file, len))
            return &table[i];
    return NULL;
}

size_t fiat_table_size(void) { return sizeof table / sizeof table[0]; }

const fiat_table_entry *fiat_table_at(size_t i) { return i < fiat_table_size() ? &table[i] : NULL; }
