/* ir_text.c — libFuzzer harness for the IR text parser (ir/text.c: ir_parse) and what runs on what it accepts.
 *
 * Input: IR text (ir/TEXT.md), read up to its first NUL byte.
 *
 * Asserts (abort on failure), for every text that ir_parse accepts (it runs ir_validate and ir_bounds itself):
 *   - the round trip of ir/TEXT.md: ir_parse(ir_print(f)) succeeds and ir_print of that is byte for byte
 *     ir_print(f);
 *   - ir_lower(f), when it lowers, gives a function that passes ir_validate, and ir_eval of both on the same input
 *     limbs (drawn inside the input arrays' declared bounds) gives the same output limbs ("a new function computing
 *     the same outputs", ir/ir.h).
 * A refused text must come with a message ("line N: ..."). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

#define FUZZ_NAME "ir_text"
#include "fuzz.h"



static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: any fixed mixing will do, the point is inputs that depend on the program */
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A limb inside [lo, hi] (clipped to 64 bits, the width of a limb). */
static uint64_t draw(uint64_t *s, ir_u128 lo, ir_u128 hi)
{
    const ir_u128 m = UINT64_MAX;
    if (hi > m)
        hi = m;
    if (lo > hi)
        return (uint64_t)hi;
    uint64_t r = rng_next(s);
    switch (r & 3) { /* the ends of the range are where carries happen */
    case 0: return (uint64_t)lo;
    case 1: return (uint64_t)hi;
    default: {
        ir_u128 span = hi - lo + 1;
        return (uint64_t)(lo + (span ? (ir_u128)rng_next(s) % span : (ir_u128)rng_next(s)));
    }
    }
}

/* f and g (its lowering) compute the same outputs on a few inputs inside f's bounds. */
static void same_outputs(const ir_func *f, const ir_func *g, uint64_t seed)
{
    FUZZ_ASSERT(f->narr == g->narr);
    uint64_t **in = calloc(f->narr + 1, sizeof *in), **out_f = calloc(f->narr + 1, sizeof *out_f),
             **out_g = calloc(f->narr + 1, sizeof *out_g);
    FUZZ_ASSERT(in && out_f && out_g);
    for (uint32_t a = 0; a < f->narr; a++) {
        FUZZ_ASSERT(f->arr[a].len == g->arr[a].len && f->arr[a].is_output == g->arr[a].is_output);
        size_t n = f->arr[a].len ? f->arr[a].len : 1;
        in[a] = calloc(n, sizeof **in);
        out_f[a] = calloc(n, sizeof **out_f);
        out_g[a] = calloc(n, sizeof **out_g);
        FUZZ_ASSERT(in[a] && out_f[a] && out_g[a]);
    }
    for (int round = 0; round < 4; round++) {
        for (uint32_t a = 0; a < f->narr; a++)
            for (uint32_t l = 0; !f->arr[a].is_output && l < f->arr[a].len; l++)
                in[a][l] = draw(&seed, f->arr[a].lo[l], f->arr[a].hi[l]);
        FUZZ_ASSERT(ir_eval(f, (const uint64_t *const *)in, out_f) == 0);
        FUZZ_ASSERT(ir_eval(g, (const uint64_t *const *)in, out_g) == 0);
        for (uint32_t a = 0; a < f->narr; a++)
            if (f->arr[a].is_output)
                FUZZ_ASSERT(memcmp(out_f[a], out_g[a], f->arr[a].len * sizeof **out_f) == 0);
    }
    for (uint32_t a = 0; a < f->narr; a++) {
        free(in[a]);
        free(out_f[a]);
        free(out_g[a]);
    }
    free(in);
    free(out_f);
    free(out_g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512] = "";
    char *text = malloc(size + 1);
    FUZZ_ASSERT(text != NULL);
    memcpy(text, data, size);
    text[size] = 0;

    ir_func *f = ir_parse(text, err, sizeof err);
    if (f == NULL) {
        FUZZ_ASSERT(err[0] != 0);
        free(text);
        return 0;
    }
    char *p1 = ir_print(f);
    FUZZ_ASSERT(p1 != NULL);
    ir_func *g = ir_parse(p1, err, sizeof err);
    if (g == NULL) {
        fprintf(stderr, "fuzz_ir_text: ir_print's text does not parse: %s\n--- text:\n%s\n", err, p1);
        abort();
    }
    char *p2 = ir_print(g);
    FUZZ_ASSERT(p2 != NULL);
    if (strcmp(p1, p2) != 0) {
        fprintf(stderr, "fuzz_ir_text: round trip differs\n--- first:\n%s\n--- second:\n%s\n", p1, p2);
        abort();
    }

    ir_func *low = ir_lower(f, err, sizeof err);
    if (low != NULL) {
        FUZZ_ASSERT(ir_validate(low) == 0);
        uint64_t seed = size;
        for (size_t i = 0; i < size; i++)
            seed = seed * 31 + data[i];
        same_outputs(f, low, seed);
        ir_func_free(low);
    }
    free(p2);
    free(p1);
    ir_func_free(g);
    ir_func_free(f);
    free(text);
    return 0;
}
