/* test_bounds.c — ctest ir.bounds: the bounds pass (ir_bounds, run by ir_parse) refuses every way a program can
 * lose bits where the IR's semantics (ir/ir.h) say it must not, names the node, and accepts the same programs once
 * the bits provably fit. Each case is checked against the arithmetic by hand: the comment says why it overflows. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"

static int failures;

/* expect: parse `body` inside a one-input, one-output function with input bounds `in`; want NULL = accepted,
 * otherwise the error must contain want. */
static void expect(const char *name, const char *in, const char *out, const char *body, const char *want)
{
    char text[2048], err[512];
    snprintf(text, sizeof text, "func %s\n  in a[1] %s\n  out o[1] %s\n  x:u64 = load a[0]\n%send\n", name, in, out,
             body);
    ir_func *f = ir_parse(text, err, sizeof err);
    if (!want && !f) {
        fprintf(stderr, "FAIL %s: refused: %s\n", name, err);
        failures++;
    } else if (want && f) {
        fprintf(stderr, "FAIL %s: accepted, expected an error containing \"%s\"\n", name, want);
        failures++;
    } else if (want && !strstr(err, want)) {
        fprintf(stderr, "FAIL %s: error \"%s\" does not contain \"%s\"\n", name, err, want);
        failures++;
    } else {
        printf("ok %s%s%s\n", name, want ? ": " : "", want ? err : "");
    }
    ir_func_free(f);
}

int main(void)
{
    /* mulx.32 of 2^48 * 2^48 = 2^96: hi = 2^64 does not fit 64 bits (an operand is wider than 32 bits) */
    expect("mulx32_wide", "0x1000000000000..0x1000000000000", "",
           "  y:u64, c:u64 = mulx.32 x, x\n  store o[0], c\n", "node 1 (y, c = mulx x, x)");
    expect("mulx32_fits", "0..0xffffffff", "", "  y:u64, c:u64 = mulx.32 x, x\n  store o[0], c\n", NULL);
    /* addcarryx.32 of 2^63 + 2^63: the carry would be 2^32, not a bit */
    expect("addcarryx32_wide", "0x8000000000000000..0x8000000000000000", "",
           "  y:u64, c:u1 = addcarryx.32 0:u1, x, x\n  store o[0], y\n", "overflow");
    expect("addcarryx32_fits", "0..0xffffffff", "", "  y:u64, c:u1 = addcarryx.32 0:u1, x, x\n  store o[0], y\n",
           NULL);
    /* subborrowx.32 of 2^32 - 0: the difference does not fit 32 bits and the borrow says nothing */
    expect("subborrowx32_wide", "0x100000000..0x100000000", "",
           "  y:u64, c:u1 = subborrowx.32 0:u1, x, 0\n  store o[0], y\n", "overflow");
    /* (x * x) >> 1 into u64 keeps bits 1..64 of a 128-bit value: bit 64 and up are lost */
    expect("shr_narrowing", "", "", "  p:u128 = mul x, x\n  h:u64 = shr p, 1\n  store o[0], h\n",
           "node 2 (h = shr p, 0x1)");
    expect("shr_narrowing_fits", "", "", "  p:u128 = mul x, x\n  h:u64 = shr p, 64\n  store o[0], h\n", NULL);
    /* | and ^ into u64 of a 128-bit value */
    expect("or_narrowing", "", "", "  p:u128 = mul x, x\n  h:u64 = or p, 1\n  store o[0], h\n", "overflow");
    expect("xor_narrowing", "", "", "  p:u128 = mul x, x\n  h:u64 = xor p, x\n  store o[0], h\n", "overflow");
    /* cmovznz into u64 choosing a 128-bit value */
    expect("cmov_narrowing", "", "", "  p:u128 = mul x, x\n  h:u64 = cmovznz x, p, x\n  store o[0], h\n",
           "overflow");
    /* the classic ones: add, sub below zero, mul, shl */
    expect("add", "", "", "  y:u64 = add x, x\n  store o[0], y\n", "overflow");
    expect("sub", "0..5", "", "  y:u64 = sub x, 1\n  store o[0], y\n", "overflow");
    expect("mul", "0..0x100000000", "", "  y:u64 = mul x, x\n  store o[0], y\n", "overflow");
    expect("mul_fits", "0..0xffffffff", "", "  y:u64 = mul x, x\n  store o[0], y\n", NULL);
    expect("shl", "0..0x2", "", "  y:u64 = shl x, 63\n  store o[0], y\n", "overflow");
    /* a narrowing & of constants is reduced too: 3 & 3 into u1 is 1, so 1 - 2 always borrows (once the bounds
     * said 3..1 and "proved" the borrow 0) */
    expect("and_const_narrowing", "", "0..0",
           "  c:u1 = and 3, 3\n  d:u64, bb:u1 = subborrowx.64 0:u1, c, 2\n  w:u64 = cast bb\n  store o[0], w\n",
           "o[0] = w can reach 0x1, above its declared bound 0x0");
    /* output bounds: above the upper bound, and below the lower bound (each said as such) */
    expect("out_above", "2..3", "1..2", "  store o[0], x\n", "can reach 0x3, above its declared bound 0x2");
    expect("out_below", "0..3", "1..5", "  store o[0], x\n", "can be as low as 0x0, below its declared bound 0x1");
    printf("%d failure%s\n", failures, failures == 1 ? "" : "s");
    return failures != 0;
}
