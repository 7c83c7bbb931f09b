/* fiat_json.c — libFuzzer harness for the fiat-crypto JSON reader (ir/fiat_json.c: ir_fiat_load).
 *
 * Input: fiat-crypto JSON text (../shared/fiat-json/FORMAT.md), a list of functions. The harness finds the first
 * four entries whose "operation" starts with the function prefix of a file of ir/fiat_table.c (the longest prefix
 * that matches) and loads each with ir_fiat_load under that file's name, as `ecopt check --fiat FILE NAME` would.
 * So both the raw files of ../shared/fiat-json and one-function extracts of them are useful seeds, and the reader
 * sees every layout of the table.
 *
 * Asserts (abort on failure):
 *   - a refused input comes with a message;
 *   - a loaded function prints (ir_print) to text that ir_parse reads back, and prints again byte for byte the same
 *     (the IR's round trip, ir/TEXT.md), so what the reader builds is an IR function the rest of the tools accept. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fiat_table.h"
#include "ir/ir.h"

#define FUZZ_NAME "fiat_json"
#include "fuzz.h"



/* The table entry whose function prefix is the longest one that starts name, or NULL. */
static const fiat_table_entry *entry_for(const char *name)
{
    const fiat_table_entry *best = NULL;
    for (size_t i = 0; i < fiat_table_size(); i++) {
        const fiat_table_entry *e = fiat_table_at(i);
        size_t n = strlen(e->prefix);
        if (strncmp(name, e->prefix, n) == 0 && (!best || n > strlen(best->prefix)))
            best = e;
    }
    return best;
}

static void load_one(const uint8_t *data, size_t size, const fiat_table_entry *e, const char *name)
{
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s.json", e->file);
    ir_func *f = ir_fiat_load((const char *)data, size, path, name, err, sizeof err);
    if (f == NULL) {
        FUZZ_ASSERT(err[0] != 0);
        return;
    }
    char *p1 = ir_print(f);
    FUZZ_ASSERT(p1 != NULL);
    ir_func *g = ir_parse(p1, err, sizeof err);
    if (g == NULL) {
        fprintf(stderr, "fuzz_fiat_json: %s: the loaded function's text does not parse: %s\n--- text:\n%s\n", name,
                err, p1);
        abort();
    }
    char *p2 = ir_print(g);
    FUZZ_ASSERT(p2 != NULL);
    if (strcmp(p1, p2) != 0) {
        fprintf(stderr, "fuzz_fiat_json: %s: round trip differs\n--- first:\n%s\n--- second:\n%s\n", name, p1, p2);
        abort();
    }
    free(p2);
    free(p1);
    ir_func_free(g);
    ir_func_free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *root = cJSON_ParseWithLength((const char *)data, size);
    char names[4][128];
    const fiat_table_entry *entries[4];
    int n = 0;
    if (cJSON_IsArray(root))
        for (const cJSON *x = root->child; x && n < 4; x = x->next) {
            const cJSON *op = cJSON_GetObjectItemCaseSensitive(x, "operation");
            const fiat_table_entry *e;
            if (cJSON_IsString(op) && strlen(op->valuestring) < sizeof names[0] &&
                (e = entry_for(op->valuestring)) != NULL) {
                snprintf(names[n], sizeof names[n], "%s", op->valuestring);
                entries[n++] = e;
            }
        }
    cJSON_Delete(root);
    if (n == 0) /* still the reader's error paths: malformed JSON, no such function */
        load_one(data, size, fiat_table_at(size % fiat_table_size()), "fiat_25519_carry_mul");
    for (int i = 0; i < n; i++)
        load_one(data, size, entries[i], names[i]);
    return 0;
}
