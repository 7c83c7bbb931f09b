/* fiat_table.h — private to ir/: what each fiat-crypto JSON file implements (the files do not say it).
 *
 * Keyed by the file's basename without ".json" (curve25519_64, p256_64, ...). Each entry gives the prefix of its
 * function names, the prime as an integer expression, and the limb layout: for radix files the limb widths w_i
 * (value = sum limb_i * 2^(w_0 + ... + w_{i-1})), for Montgomery files n 64-bit words of x*R mod p, R = 2^(64 n),
 * with the value precondition "every input < p". */
#ifndef ECOPT_IR_FIAT_TABLE_H
#define ECOPT_IR_FIAT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

typedef struct {
    const char *file;       /* basename without .json */
    const char *prefix;     /* every function name of the file starts with it ("fiat_25519_") */
    const char *prime;      /* integer expression: decimal or 0x literals, + - * ^ */
    ir_repr repr;           /* IR_REPR_RADIX or IR_REPR_MONTGOMERY */
    uint8_t nlimbs;
    uint8_t limbw[16];      /* limb widths in bits (64 for every Montgomery word) */
} fiat_table_entry;

/* fiat_table_find — the entry for basename `file` (without .json, length len), NULL if there is none. */
const fiat_table_entry *fiat_table_find(const char *file, size_t len);

/* fiat_table_at — entry i (0 .. fiat_table_size()-1), for listing the known files. */
size_t fiat_table_size(void);
const fiat_table_entry *fiat_table_at(size_t i);

#endif
