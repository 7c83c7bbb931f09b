/* emit_progs.c — hand-built IR programs for tests/ir/test_lower.c and tests/ir/test_emit.c (see emit_progs.h). */
#define _GNU_SOURCE
#include "emit_progs.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M64 ((ir_u128)UINT64_MAX)
#define P2(k) ((ir_u128)1 << (k))
#define ALL128 (~(ir_u128)0)

/* ---- a tiny builder: every failure is a bug in this file, so it exits ---------------------------------------- */

static ir_func *B;
static ir_val outv[EP_MAXLIMB];
static unsigned nout;

static void bdie(int line)
{
    fprintf(stderr, "emit_progs.c:%d: building %s: %s\n", line, B ? B->name : "?", B ? B->err : "");
    exit(1);
}

#define CK(x) ck((x), __LINE__)
static ir_val ck(ir_val v, int line)
{
    if (v == IR_NOVAL)
        bdie(line);
    return v;
}

static void begin(const char *name)
{
    B = ir_func_new(name);
    if (!B)
        bdie(__LINE__);
    nout = 0;
}

/* an input array of len limbs, limb i within [lo[i], hi[i]] (NULL: the same bounds lo0/hi0 for all) */
static int in_arr(const char *name, unsigned len, ir_u128 lo0, ir_u128 hi0)
{
    ir_u128 lo[EP_MAXLIMB], hi[EP_MAXLIMB];
    for (unsigned i = 0; i < len; i++)
        lo[i] = lo0, hi[i] = hi0;
    int a = ir_array_add(B, name, false, len, lo, hi);
    if (a < 0)
        bdie(__LINE__);
    return a;
}

static ir_val K(unsigned w, ir_u128 k) { return ck(ir_const(B, w, k), __LINE__); }
static ir_val ld(int a, unsigned l, const char *nm) { return ck(ir_load(B, (uint32_t)a, l, nm), __LINE__); }
static ir_val op1(ir_op op, unsigned w, ir_val a, const char *nm) { return ck(ir_op1(B, op, w, a, nm), __LINE__); }
static ir_val op2(ir_op op, unsigned w, ir_val a, ir_val b, const char *nm)
{
    return ck(ir_op2(B, op, w, a, b, nm), __LINE__);
}
static ir_val op3(ir_op op, unsigned w, ir_val a, ir_val b, ir_val c, const char *nm)
{
    return ck(ir_op3(B, op, w, a, b, c, nm), __LINE__);
}
static ir_val shr(unsigned w, ir_val a, unsigned k, const char *nm) { return op2(IR_SHR, w, a, K(64, k), nm); }
static ir_val shl(unsigned w, ir_val a, unsigned k, const char *nm) { return op2(IR_SHL, w, a, K(64, k), nm); }
static ir_val w128(ir_val a) { return op1(IR_CAST, 128, a, NULL); }

/* mulx / addcarryx / subborrowx: two results */
static void two(ir_op op, unsigned size, const ir_val *args, unsigned nargs, ir_val *r0, ir_val *r1, const char *n0,
                const char *n1)
{
    ir_val r[2];
    const char *names[2] = { n0, n1 };
    if (ir_emit(B, op, 64, size, args, nargs, r, names) < 0)
        bdie(__LINE__);
    *r0 = r[0];
    if (r1)
        *r1 = r[1];
}

/* queue v (of 64 bits or less) as the next output limb */
static void put(ir_val v)
{
    if (nout >= EP_MAXLIMB)
        bdie(__LINE__);
    if (B->val[v].width == 128)
        v = op1(IR_CAST, 64, v, NULL);
    outv[nout++] = v;
}

/* both words of a u128 */
static void put2(ir_val v)
{
    put(v);
    put(shr(128, v, 64, NULL));
}

/* declare the output array over the queued values (bounds [lo, hi] each, alias mask) and store them */
static ir_func *finish_bounds(const char *name, ir_u128 lo0, ir_u128 hi0, uint64_t alias)
{
    ir_u128 lo[EP_MAXLIMB], hi[EP_MAXLIMB];
    for (unsigned i = 0; i < nout; i++)
        lo[i] = lo0, hi[i] = hi0;
    int o = ir_array_add(B, name, true, nout, lo, hi);
    if (o < 0)
        bdie(__LINE__);
    B->arr[o].alias = alias;
    for (unsigned i = 0; i < nout; i++)
        if (ir_store(B, (uint32_t)o, i, outv[i]) < 0)
            bdie(__LINE__);
    if (ir_validate(B) < 0)
        bdie(__LINE__);
    ir_func *f = B;
    B = NULL;
    return f;
}

static ir_func *finish(void) { return finish_bounds("out1", 0, M64, 0); }

/* ---- lowering rules --------------------------------------------------------------------------------------------- */

/* u128 products: of two u64 (mulx), small enough for a u64 mul, by 0 and by 1 (folded), by a constant. */
static ir_func *p_mul(void)
{
    begin("lw_mul");
    int a = in_arr("arg1", 2, 0, M64), s = in_arr("arg2", 2, 0, P2(30) - 1);
    ir_val a0 = ld(a, 0, "a0"), a1 = ld(a, 1, "a1"), s0 = ld(s, 0, "s0"), s1 = ld(s, 1, "s1");
    put2(op2(IR_MUL, 128, a0, a1, "p"));                   /* mulx */
    put2(op2(IR_MUL, 128, w128(a0), w128(a1), "pc"));      /* the fiat form: operands cast to u128 first */
    put2(op2(IR_MUL, 128, s0, s1, "q"));                   /* < 2^60: a u64 mul */
    put2(op2(IR_MUL, 128, a0, K(128, 1), "r"));            /* folded */
    put2(op2(IR_MUL, 128, a1, K(128, 0), "z"));            /* folded */
    put2(op2(IR_MUL, 128, a0, K(128, 19), "m19"));         /* mulx by a constant */
    put2(op2(IR_MUL, 128, K(64, UINT64_MAX), a1, "mmax")); /* an edge constant */
    return finish();
}

/* u128 sums: carry into the high word, full pairs, constants, a small sum (plain add). */
static ir_func *p_add(void)
{
    begin("lw_add");
    int a = in_arr("arg1", 4, 0, M64), b = in_arr("arg2", 2, 0, P2(62));
    ir_val a0 = ld(a, 0, "a0"), a1 = ld(a, 1, "a1"), a2 = ld(a, 2, "a2"), a3 = ld(a, 3, "a3");
    ir_val b0 = ld(b, 0, "b0"), b1 = ld(b, 1, "b1");
    ir_val s = op2(IR_ADD, 128, a0, a1, "s"); /* both high words zero: the carry is the high word */
    ir_val p = op2(IR_MUL, 128, a2, a3, "p");
    ir_val t = op2(IR_ADD, 128, s, p, "t");   /* full pair; t <= 2^128 - 1 exactly */
    put2(s);
    put2(t);
    put2(op2(IR_ADD, 128, p, K(128, P2(64)), "v"));                  /* a constant with a zero low word */
    put2(op2(IR_ADD, 128, p, K(128, M64), "v2"));                    /* 2^64 - 1 */
    put2(op2(IR_ADD, 128, K(128, 0), p, "v0"));                      /* + 0: folded */
    put2(op2(IR_ADD, 128, b0, b1, "sm"));                            /* < 2^64: a plain add */
    put2(op2(IR_ADD, 128, op2(IR_ADD, 128, b0, b1, "sm1"), a0, "sm2")); /* a sum with a dropped high word + u64 */
    return finish();
}

/* u128 differences: full pairs and a small difference (plain sub). */
static ir_func *p_sub(void)
{
    begin("lw_sub");
    int a = in_arr("arg1", 4, 0, M64);
    ir_u128 blo[2] = { P2(40), 0 }, bhi[2] = { P2(62), P2(40) - 1 };
    int b = ir_array_add(B, "arg2", false, 2, blo, bhi);
    ir_u128 clo[2] = { 0, 0 }, chi[2] = { P2(63) - 1, P2(63) - 1 };
    int c = ir_array_add(B, "arg3", false, 2, clo, chi);
    if (b < 0 || c < 0)
        bdie(__LINE__);
    ir_val a0 = ld(a, 0, "a0"), a1 = ld(a, 1, "a1");
    (void)ld(a, 2, "a2");
    (void)ld(a, 3, "a3");
    ir_val b0 = ld(b, 0, "b0"), b1 = ld(b, 1, "b1"), c0 = ld(c, 0, "c0"), c1 = ld(c, 1, "c1");
    ir_val x = op2(IR_ADD, 128, op2(IR_MUL, 128, c0, c1, "cc"), K(128, P2(127)), "x"); /* [2^127, 2^127+2^126) */
    ir_val d = op2(IR_SUB, 128, x, op2(IR_MUL, 128, a0, c0, "ac"), "d");              /* a*c < 2^127 */
    put2(d);
    put2(op2(IR_SUB, 128, x, K(128, P2(127)), "d2"));
    put2(op2(IR_SUB, 128, x, a1, "d3"));
    put2(op2(IR_SUB, 128, b0, b1, "e")); /* >= 1 and < 2^64: a plain sub */
    put2(op2(IR_SUB, 128, x, K(128, 0), "d0"));
    return finish();
}

/* Shifts: >> by 0, 1, 51, 63, 64, 65, 127 (low and high words), << by 0, 1, 13, 63, 64, 100, << that drops low-word
 * bits into the high word, and the u64-result shifts of fiat's carry chains. */
static ir_func *p_shift(void)
{
    begin("lw_shift");
    int a = in_arr("arg1", 2, 0, M64), s = in_arr("arg2", 1, 0, P2(20) - 1), m = in_arr("arg3", 2, 0, P2(50) - 1);
    ir_val a0 = ld(a, 0, "a0"), a1 = ld(a, 1, "a1"), s0 = ld(s, 0, "s0"), m0 = ld(m, 0, "m0"), m1 = ld(m, 1, "m1");
    ir_val x = op2(IR_MUL, 128, a0, a1, "x");
    static const unsigned rk[] = { 0, 1, 51, 63, 64, 65, 127 };
    for (unsigned i = 0; i < sizeof rk / sizeof rk[0]; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "xr%u", rk[i]);
        put2(shr(128, x, rk[i], nm));
    }
    ir_val y = shr(128, x, 51, "y");
    put(shr(128, shr(128, y, 13, "y13"), 64, NULL)); /* uses the high word of a shifted value */
    ir_val z = w128(s0);
    static const unsigned lk[] = { 0, 1, 13, 63, 64, 100 };
    for (unsigned i = 0; i < sizeof lk / sizeof lk[0]; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "zl%u", lk[i]);
        put2(shl(128, z, lk[i], nm));
    }
    ir_val mm = op2(IR_MUL, 128, m0, m1, "mm"); /* < 2^100 */
    put2(shl(128, mm, 20, "mm20"));              /* low word loses bits: masked shl + shrd */
    put2(shl(128, mm, 27, "mm27"));
    /* u64 results of u128 shifts: the shifted value fits 64 bits (a narrowing that drops bits is an overflow) */
    put(shr(64, mm, 51, "x51"));                 /* fiat: (u64)(x >> 51) */
    put(shr(64, x, 70, "x70"));
    put(shr(64, op2(IR_AND, 128, x, K(128, M64), "xlo"), 0, "x0"));
    put(shr(1, x, 127, "xtop"));
    put(shl(64, shr(128, mm, 40, "mm40"), 3, "mm40s")); /* u64 result of a u128 shl, no bits lost */
    return finish();
}

/* & | ^ ~ with constants (0, 2^51-1, 2^64-1, 2^128-1, 2^128-2^64, a mixed one) and between values. */
static ir_func *p_bits(void)
{
    begin("lw_bits");
    int a = in_arr("arg1", 4, 0, M64);
    ir_val a0 = ld(a, 0, "a0"), a1 = ld(a, 1, "a1"), a2 = ld(a, 2, "a2"), a3 = ld(a, 3, "a3");
    ir_val x = op2(IR_MUL, 128, a0, a1, "x"), y = op2(IR_MUL, 128, a2, a3, "y");
    const ir_u128 ks[] = { 0, P2(51) - 1, M64, ALL128, ALL128 - M64,
                           ((ir_u128)0x0123456789abcdefULL << 64) | 0xfedcba9876543210ULL };
    const ir_op ops[] = { IR_AND, IR_OR, IR_XOR };
    for (unsigned i = 0; i < sizeof ks / sizeof ks[0]; i++)
        for (unsigned j = 0; j < 3; j++)
            put2(op2(ops[j], 128, x, K(128, ks[i]), NULL));
    for (unsigned j = 0; j < 3; j++)
        put2(op2(ops[j], 128, x, y, NULL));
    put2(op2(IR_AND, 128, K(128, ks[5]), y, "ky")); /* constant on the left */
    put2(op1(IR_NOT, 128, x, "nx"));
    put2(op1(IR_NOT, 128, w128(a0), "na0"));        /* high word of ~(u128)a0 is all ones */
    put(op2(IR_AND, 64, x, K(128, P2(51) - 1), "lo51")); /* fiat: (u64)(x & 0x7ffffffffffff) */
    put(op2(IR_AND, 64, x, K(64, UINT64_MAX), "lo64"));
    /* u64 results of u128 operands that fit 64 bits (a narrowing | or ^ that drops bits is an overflow) */
    ir_val xl = op2(IR_AND, 128, x, K(128, M64), "xl"), yl = op2(IR_AND, 128, y, K(128, M64), "yl");
    put(op2(IR_OR, 64, xl, yl, "or64"));
    put(op2(IR_XOR, 64, xl, a3, "xor64"));
    put(op2(IR_AND, 1, x, K(64, 1), "bit0"));
    return finish();
}

/* Casts (u128 <-> u64 <-> u1), lnot, cmovznz with a u128 condition and u128 operands, a u64 sum of u128 values. */
static ir_func *p_misc(void)
{
    begin("lw_misc");
    int a = in_arr("arg1", 4, 0, M64), c = in_arr("arg2", 1, 0, 1);
    ir_val a0 = ld(a, 0, "a0"), a1 = ld(a, 1, "a1"), a2 = ld(a, 2, "a2"), a3 = ld(a, 3, "a3"), c0 = ld(c, 0, "c0");
    ir_val x = op2(IR_MUL, 128, a0, a1, "x"), y = op2(IR_MUL, 128, a2, a3, "y");
    ir_val b1 = op1(IR_CAST, 1, x, "b1");
    put(b1);
    put2(op2(IR_ADD, 128, op1(IR_CAST, 128, b1, "b128"), x, "xb"));
    put(op1(IR_LNOT, 1, x, "lx"));
    put2(op1(IR_LNOT, 128, x, "lx128"));
    put(op1(IR_LNOT, 64, op2(IR_AND, 128, x, K(128, ALL128 - M64), "xh"), "lxh"));
    put2(op3(IR_CMOVZNZ, 128, x, y, x, "cm1"));  /* u128 condition, u128 operands */
    put(op3(IR_CMOVZNZ, 64, x, a2, a3, "cm2"));  /* u128 condition, u64 result */
    put2(op3(IR_CMOVZNZ, 128, c0, x, y, "cm3")); /* u64 condition */
    put(op3(IR_CMOVZNZ, 64, c0, op2(IR_AND, 128, x, K(128, M64), "xl"), op2(IR_AND, 128, y, K(128, M64), "yl"),
            "cm4"));                             /* u64 result of u128 operands below 2^64 */
    put2(op3(IR_CMOVZNZ, 128, c0, x, x, "cm5")); /* both the same */
    put(op3(IR_CMOVZNZ, 1, op2(IR_SHR, 128, x, K(64, 64), "xhi"), c0, K(64, 1), "cm6"));
    ir_val cw = w128(c0);
    put(op2(IR_ADD, 64, cw, cw, "c2"));                                /* u64 result, u128 operands, <= 2 */
    put(op2(IR_SUB, 64, op2(IR_ADD, 128, cw, K(128, 5), "c5"), cw, "c3")); /* 5 */
    put(op2(IR_MUL, 64, cw, K(128, 7), "c7"));
    put(op1(IR_CAST, 64, K(128, ALL128), "kall"));
    put(op1(IR_CAST, 64, op2(IR_SHR, 128, K(128, ALL128), K(64, 64), NULL), "kallhi"));
    put2(op2(IR_ADD, 128, K(128, P2(64) + 1), K(128, 2), "kk")); /* constants only */
    return finish();
}

/* Operations that wrap on purpose (ir_bounds rejects the program; the semantics are still defined). */
static ir_func *p_wrap(void)
{
    begin("lw_wrap");
    int a = in_arr("arg1", 4, 0, M64);
    ir_val a0 = ld(a, 0, "a0"), a1 = ld(a, 1, "a1"), a2 = ld(a, 2, "a2"), a3 = ld(a, 3, "a3");
    ir_val x = op2(IR_MUL, 128, a0, a1, "x"), y = op2(IR_MUL, 128, a2, a3, "y");
    put2(op2(IR_ADD, 128, x, y, "s"));
    put2(op2(IR_ADD, 128, x, K(128, ALL128), "sall"));
    put2(op2(IR_SUB, 128, x, y, "d"));
    put2(op2(IR_SUB, 128, a0, a1, "d1")); /* both high words zero, may borrow: the high word is -borrow */
    put2(op2(IR_SUB, 128, K(128, 0), x, "neg"));
    put2(shl(128, x, 70, "sh70"));
    put2(shl(128, x, 5, "sh5"));
    put(op2(IR_ADD, 64, x, y, "add64"));
    put(op2(IR_SUB, 64, x, y, "sub64"));
    put(op2(IR_MUL, 64, x, y, "mul64"));
    put(op1(IR_NOT, 64, x, "not64"));
    put(shl(64, x, 3, "shl64"));
    put(shl(64, x, 70, "shl70"));
    put(op2(IR_ADD, 1, x, y, "add1"));
    put(op1(IR_NOT, 1, x, "not1"));
    return finish();
}

/* A u128 product whose operand can exceed 64 bits: no lowering (ir_lower must fail naming the node). */
static ir_func *p_widemul(void)
{
    begin("lw_widemul");
    int a = in_arr("arg1", 2, 0, M64);
    ir_val x = op2(IR_MUL, 128, ld(a, 0, "a0"), ld(a, 1, "a1"), "x");
    ir_val x2 = shr(128, x, 32, "x2");
    put2(op2(IR_MUL, 128, x2, K(128, 3), "bad"));
    return finish();
}

/* Every operation at every width, in the unlowered vocabulary (u128 included): casts, u1 arithmetic, lnot, not,
 * shifts, mulx at sizes 64 and 32, addcarryx/subborrowx at sizes 64 and 51, cmovznz of every width, shrd. Several
 * u64 and u1 operations wrap (ir_bounds rejects the program; the emitted C must wrap the same way). */
static ir_func *p_ops(void)
{
    begin("lw_ops");
    int a = in_arr("arg1", 4, 0, M64), h = in_arr("arg2", 2, 0, P2(32) - 1), d = in_arr("arg3", 2, 0, P2(51) - 1);
    ir_val a0 = ld(a, 0, "a0"), a1 = ld(a, 1, "a1"), a2 = ld(a, 2, "a2"), a3 = ld(a, 3, "a3");
    ir_val h0 = ld(h, 0, "h0"), h1 = ld(h, 1, "h1"), d0 = ld(d, 0, "d0"), d1 = ld(d, 1, "d1");
    ir_val lo, hi, c, c2;
    ir_val args[3];
    args[0] = a0, args[1] = a1;
    two(IR_MULX, 64, args, 2, &lo, &hi, "mlo", "mhi");
    put(lo), put(hi);
    args[0] = h0, args[1] = h1;
    two(IR_MULX, 32, args, 2, &lo, &hi, "m32lo", "m32hi");
    put(lo), put(hi);
    args[0] = K(1, 0), args[1] = a0, args[2] = a1;
    two(IR_ADDCARRYX, 64, args, 3, &lo, &c, "s0", "cy0");
    put(lo), put(c);
    args[0] = c, args[1] = a2, args[2] = a3;
    two(IR_ADDCARRYX, 64, args, 3, &lo, &c2, "s1", "cy1");
    put(lo), put(c2);
    args[0] = K(1, 1), args[1] = d0, args[2] = d1;
    two(IR_ADDCARRYX, 51, args, 3, &lo, &c, "s51", "cy51");
    put(lo), put(c);
    args[0] = K(1, 0), args[1] = a0, args[2] = a1;
    two(IR_SUBBORROWX, 64, args, 3, &lo, &c, "b0", "bw0");
    put(lo), put(c);
    args[0] = c, args[1] = a2, args[2] = a3;
    two(IR_SUBBORROWX, 64, args, 3, &lo, &c2, "b1", "bw1");
    put(lo), put(c2);
    args[0] = c2, args[1] = d0, args[2] = d1;
    two(IR_SUBBORROWX, 51, args, 3, &lo, &c, "b51", "bw51");
    put(lo), put(c);
    put(op3(IR_CMOVZNZ, 64, c, a0, a1, "cmv"));
    put(op3(IR_CMOVZNZ, 64, a2, a0, a1, "cmv2"));         /* u64 condition */
    put(op3(IR_CMOVZNZ, 1, a3, c2, c, "cmv1"));           /* u1 result */
    put2(op3(IR_CMOVZNZ, 128, c, w128(a0), op2(IR_MUL, 128, a1, a2, "p12"), "cmv128"));
    put(op3(IR_CMOVZNZ, 64, K(1, 1), a0, a1, "cmvk"));   /* constant condition */
    put(op3(IR_SHRD, 64, a0, a1, K(64, 0), "sd0"));
    put(op3(IR_SHRD, 64, a0, a1, K(64, 1), "sd1"));
    put(op3(IR_SHRD, 64, a0, a1, K(64, 63), "sd63"));
    put(op3(IR_SHRD, 64, c, a1, K(64, 7), "sdc"));       /* a u1 high word */
    /* u1 arithmetic */
    ir_val u = op1(IR_CAST, 1, a0, "u"), v = op1(IR_CAST, 1, a1, "v");
    put(op2(IR_ADD, 1, u, v, "uadd"));
    put(op2(IR_SUB, 1, u, v, "usub"));
    put(op2(IR_MUL, 1, u, v, "umul"));
    put(op2(IR_AND, 1, u, v, "uand"));
    put(op2(IR_OR, 1, u, v, "uor"));
    put(op2(IR_XOR, 1, u, v, "uxor"));
    put(op1(IR_NOT, 1, u, "unot"));
    put(op1(IR_LNOT, 1, u, "ulnot"));
    put(op1(IR_CAST, 1, u, "ucast"));
    put(op2(IR_ADD, 64, u, a3, "mixed"));                 /* a u1 operand of a u64 operation */
    put(shr(1, a0, 63, "top"));
    /* u64 */
    put(op2(IR_SUB, 64, a0, a1, "d64"));
    put(op2(IR_MUL, 64, a0, a1, "mul64"));
    put(op2(IR_AND, 64, a0, K(64, 0xff), "and64"));
    put(op2(IR_OR, 64, a0, a1, "or64"));
    put(op2(IR_XOR, 64, a0, K(64, UINT64_MAX), "xor64"));
    put(op1(IR_NOT, 64, a0, "not64"));
    put(op1(IR_LNOT, 64, a0, "lnot64"));
    put(shl(64, a0, 13, "shl64"));
    put(shr(64, a0, 13, "shr64"));
    put(op2(IR_ADD, 64, a0, a1, "add64"));
    /* u128 */
    ir_val p = op2(IR_MUL, 128, a0, a1, "p");
    put2(op2(IR_ADD, 128, p, a2, "padd"));
    put2(op2(IR_SUB, 128, p, a2, "psub"));
    put2(shl(128, w128(a3), 64, "pshl"));
    put2(shr(128, p, 3, "pshr"));
    put2(op2(IR_XOR, 128, p, K(128, ALL128), "pxor"));
    put2(op1(IR_NOT, 128, p, "pnot"));
    put(op1(IR_LNOT, 1, p, "plnot"));
    put(op1(IR_CAST, 1, p, "pu1"));
    put(op1(IR_CAST, 64, K(1, 1), "k1"));
    return finish();
}

/* ---- two field operations from their published algorithms (checked against GMP by the tests) ------------------- */

/* h = f*g mod 2^255-19, 5 limbs of 51 bits: schoolbook columns with 2^255 = 19 folded into the multiplier
 * (Bernstein, Duif, Lange, Schwabe, Yang, "High-speed high-security signatures", CHES 2011, section 4.1, radix
 * 2^51), then one carry pass and the carry out of limb 4 multiplied by 19 into limb 0. Columns are u128 sums of
 * u128 products: the form fiat-crypto's JSON has, which is what the lowering exists for. */
static ir_func *p_carry25519(void)
{
    begin("lw_carry25519");
    const ir_u128 inb = 0x18000000000000; /* 1.5 * 2^52, fiat-crypto's loose bound */
    int fa = in_arr("arg1", 5, 0, inb), ga = in_arr("arg2", 5, 0, inb);
    ir_val f[5], g[5], g19[5], col[5];
    for (unsigned i = 0; i < 5; i++) {
        char n1[8], n2[8], n3[8];
        snprintf(n1, sizeof n1, "f%u", i);
        snprintf(n2, sizeof n2, "g%u", i);
        snprintf(n3, sizeof n3, "g%u_19", i);
        f[i] = ld(fa, i, n1);
        g[i] = ld(ga, i, n2);
        g19[i] = op2(IR_MUL, 64, g[i], K(64, 19), n3);
    }
    for (unsigned k = 0; k < 5; k++) {
        ir_val acc = IR_NOVAL;
        for (unsigned i = 0; i < 5; i++) {
            unsigned j = (k + 5 - i) % 5; /* i + j = k or k + 5 */
            ir_val pr = op2(IR_MUL, 128, f[i], i + j >= 5 ? g19[j] : g[j], NULL);
            acc = acc == IR_NOVAL ? pr : op2(IR_ADD, 128, acc, pr, NULL);
        }
        char nm[8];
        snprintf(nm, sizeof nm, "c%u", k);
        ir_set_name(B, acc, nm);
        col[k] = acc;
    }
    const ir_u128 mask = P2(51) - 1;
    ir_val r[5], carry = IR_NOVAL;
    for (unsigned k = 0; k < 5; k++) {
        char nm[16];
        ir_val c = carry == IR_NOVAL ? col[k] : op2(IR_ADD, 128, col[k], carry, NULL);
        snprintf(nm, sizeof nm, "r%u", k);
        r[k] = op2(IR_AND, 64, c, K(128, mask), nm);
        snprintf(nm, sizeof nm, "q%u", k);
        carry = shr(64, c, 51, nm);
    }
    ir_val r0 = op2(IR_ADD, 64, r[0], op2(IR_MUL, 64, carry, K(64, 19), "q4_19"), "r0b");
    ir_val r1 = op2(IR_ADD, 64, r[1], shr(64, r0, 51, "q0b"), "r1b");
    put(op2(IR_AND, 64, r0, K(64, mask), "h0"));
    put(r1);
    put(r[2]);
    put(r[3]);
    put(r[4]);
    ir_func *fn = finish_bounds("out1", 0, P2(52) - 1, 0x3);
    memcpy(fn->prime, "2^255-19", 9);
    fn->repr = IR_REPR_RADIX;
    fn->nlimbw = 5;
    for (unsigned i = 0; i < 5; i++)
        fn->limbw[i] = 51;
    fn->kind = IR_KIND_MUL;
    return fn;
}

/* h = f + g mod p for p = 2^255-19 in 4 x 64-bit words, inputs < p: the sum with addcarryx, the sum minus p with
 * subborrowx, and the final borrow (which says whether f + g < p) choosing between them with cmovznz. This is the
 * modular addition of Menezes, van Oorschot, Vanstone, Handbook of Applied Cryptography, 14.27, with the comparison
 * done by a trial subtraction so that no branch is needed. */
static ir_func *p_modadd(void)
{
    begin("lw_modadd");
    int fa = in_arr("arg1", 4, 0, M64), ga = in_arr("arg2", 4, 0, M64);
    const uint64_t p[4] = { 0xffffffffffffffedULL, UINT64_MAX, UINT64_MAX, 0x7fffffffffffffffULL };
    ir_val s[4], t[4], c = K(1, 0), b = K(1, 0), args[3];
    for (unsigned i = 0; i < 4; i++) {
        char n1[8], n2[8], n3[8], n4[8];
        snprintf(n1, sizeof n1, "f%u", i);
        snprintf(n2, sizeof n2, "g%u", i);
        snprintf(n3, sizeof n3, "s%u", i);
        snprintf(n4, sizeof n4, "cs%u", i);
        args[0] = c, args[1] = ld(fa, i, n1), args[2] = ld(ga, i, n2);
        two(IR_ADDCARRYX, 64, args, 3, &s[i], &c, n3, n4);
    }
    for (unsigned i = 0; i < 4; i++) {
        char n1[8], n2[8];
        snprintf(n1, sizeof n1, "t%u", i);
        snprintf(n2, sizeof n2, "bt%u", i);
        args[0] = b, args[1] = s[i], args[2] = K(64, p[i]);
        two(IR_SUBBORROWX, 64, args, 3, &t[i], &b, n1, n2);
    }
    ir_val dummy, lt;
    args[0] = b, args[1] = op1(IR_CAST, 64, c, "c64"), args[2] = K(64, 0);
    two(IR_SUBBORROWX, 64, args, 3, &dummy, &lt, "top", "lt");
    for (unsigned i = 0; i < 4; i++) {
        char nm[8];
        snprintf(nm, sizeof nm, "h%u", i);
        put(op3(IR_CMOVZNZ, 64, lt, t[i], s[i], nm));
    }
    ir_func *fn = finish_bounds("out1", 0, M64, 0x3);
    memcpy(fn->prime, "2^255-19", 9);
    fn->repr = IR_REPR_RADIX; /* saturated: 4 limbs of 64 bits */
    fn->nlimbw = 4;
    for (unsigned i = 0; i < 4; i++)
        fn->limbw[i] = 64;
    fn->kind = IR_KIND_ADD;
    fn->pre_lt_p = true;
    return fn;
}

/* ---- programs for the emitter only ------------------------------------------------------------------------------ */

/* Names that are not C identifiers, are C keywords or helper names, repeat, or equal an array name. */
static ir_func *p_names(void)
{
    begin("lw_names");
    int a = in_arr("arg1", 2, 0, M64);
    ir_val a0 = ld(a, 0, "int"), a1 = ld(a, 1, "if");
    ir_val x = op2(IR_ADD, 64, a0, K(64, 0), "x.1");
    ir_val y = op2(IR_XOR, 64, x, a1, "1x");
    ir_val z = op2(IR_OR, 64, y, a0, "ecopt_mulx");
    ir_val w = op2(IR_AND, 64, z, a1, "out1");
    ir_val u = op2(IR_XOR, 64, w, a0, "_");
    ir_val v = op2(IR_XOR, 64, u, a1, "_");
    ir_val t = op2(IR_SUB, 64, v, K(64, 0), "uint64_t");
    ir_val s = op2(IR_ADD, 64, t, K(64, 0), "arg1");
    ir_val r = op2(IR_ADD, 64, s, K(64, 0), "m");
    ir_val q = op2(IR_ADD, 64, r, K(64, 0), "lw_names");
    ir_val dead = op2(IR_AND, 64, q, a0, "dead"); /* unused: emitted with (void) */
    (void)dead;
    put(q);
    return finish();
}

/* A store before later loads: with out1 == arg1 the emitted C must read every input before the first store. */
static ir_func *p_hoist(void)
{
    begin("lw_hoist");
    int a = in_arr("arg1", 3, 0, M64);
    int o = ir_array_add(B, "out1", true, 3, NULL, NULL);
    if (o < 0)
        bdie(__LINE__);
    B->arr[o].alias = 1u << a;
    ir_val a2 = ld(a, 2, "a2");
    if (ir_store(B, (uint32_t)o, 0, op1(IR_NOT, 64, a2, "n2")) < 0)
        bdie(__LINE__);
    ir_val a0 = ld(a, 0, "a0");
    if (ir_store(B, (uint32_t)o, 1, op1(IR_NOT, 64, a0, "n0")) < 0)
        bdie(__LINE__);
    ir_val a1 = ld(a, 1, "a1");
    if (ir_store(B, (uint32_t)o, 2, op2(IR_XOR, 64, a1, a0, "x10")) < 0)
        bdie(__LINE__);
    if (ir_validate(B) < 0)
        bdie(__LINE__);
    ir_func *f = B;
    B = NULL;
    return f;
}

const ep_prog ep_progs[] = {
    { "lw_mul", p_mul, true, true, "mulx mul" },
    { "lw_add", p_add, true, true, "addcarryx add cast" },
    { "lw_sub", p_sub, true, true, "subborrowx sub" },
    { "lw_shift", p_shift, true, true, "shrd shr shl and" },
    { "lw_bits", p_bits, true, true, "and or xor not" },
    { "lw_misc", p_misc, true, true, "cmovznz lnot or" },
    { "lw_wrap", p_wrap, false, true, "addcarryx subborrowx" },
    { "lw_widemul", p_widemul, true, false, "" },
    { "lw_ops", p_ops, false, true, "mulx addcarryx subborrowx cmovznz shrd" },
    { "lw_carry25519", p_carry25519, true, true, "mulx addcarryx shrd" },
    { "lw_modadd", p_modadd, true, true, "addcarryx subborrowx cmovznz" },
    { "lw_names", p_names, true, true, "" },
    { "lw_hoist", p_hoist, true, true, "" },
};
const unsigned ep_nprogs = sizeof ep_progs / sizeof ep_progs[0];

const ep_prog *ep_find(const char *name)
{
    for (unsigned i = 0; i < ep_nprogs; i++)
        if (!strcmp(ep_progs[i].name, name))
            return &ep_progs[i];
    return NULL;
}

/* ---- programs for the register allocator and the flag handling of emit/emit_asm.c ------------------------ */

/* carries: c0 outlives an imul (flag write) and is used as a value and as a carry-in; a borrow in CF selects;
 * a carry that was clobbered selects from a register; u1 results of lnot, casts, not on u1 */
static const char T_h_flags[] =
    "func h_flags\n"
    "  in a[4] 0..0xffffffff\n"
    "  in b[4] 0..0xffffffff\n"
    "  out o[12]\n"
    "  a0:u64 = load a[0]\n  a1:u64 = load a[1]\n  a2:u64 = load a[2]\n  a3:u64 = load a[3]\n"
    "  b0:u64 = load b[0]\n  b1:u64 = load b[1]\n  b2:u64 = load b[2]\n  b3:u64 = load b[3]\n"
    "  s0:u64, c0:u1 = addcarryx.64 0:u1, a0, b0\n"
    "  m1:u64 = mul a1, 19\n"
    "  s1:u64, c1:u1 = addcarryx.64 c0, m1, b1\n"
    "  t1:u64 = add c1, a2\n"
    "  s2:u64, c2:u1 = addcarryx.64 c1, a2, 0\n"
    "  d0:u64, w0:u1 = subborrowx.64 0:u1, a3, b3\n"
    "  d1:u64, w1:u1 = subborrowx.64 w0, a0, b1\n"
    "  k0:u64 = cmovznz w1, d0, d1\n"
    "  k1:u64 = cmovznz c2, a3, t1\n"
    "  k2:u64 = cmovznz a1, 0xffffffffffffffff, 0\n"
    "  n0:u64 = not a0\n"
    "  l0:u1 = lnot a1\n"
    "  l1:u1 = not l0\n"
    "  x0:u64 = xor n0, 0xffffffff00000000\n"
    "  z0:u64 = and x0, 0xfffffffffffff\n"
    "  z1:u64 = and x0, 0xffffffff\n"
    "  z2:u64 = or z1, 0x8000000000000000\n"
    "  r0:u64 = shrd a0, b0, 13\n"
    "  q0:u64 = shl a1, 3\n  q1:u64 = shl a1, 17\n  q2:u64 = shr b2, 7\n  q3:u64 = add q0, q1\n"
    "  p0:u64 = mul a2, 3\n  p1:u64 = mul a2, 8\n  p2:u64 = mul q2, 0x100000000\n  p3:u64 = mul a2, q2\n"
    "  u0:u64 = add p0, p1\n  u1:u64 = add u0, p2\n  u2:u64 = add u1, p3\n  u3:u64 = add u2, 0xfffffffffff\n"
    "  e0:u1 = cast s2\n"
    "  e1:u64 = add e0, l1\n"
    "  e2:u64 = add e1, c0\n"
    "  e3:u64 = sub 0x100, e2\n"
    "  f0:u64 = add s1, c2\n"
    "  s3:u64, c3:u1 = addcarryx.64 1:u1, a3, b2\n"
    "  f1:u64 = add s3, c3\n"
    "  f2:u64 = add f1, f0\n"
    "  store o[0], s0\n  store o[1], f2\n  store o[2], s2\n  store o[3], k0\n  store o[4], k1\n"
    "  store o[5], k2\n  store o[6], z0\n  store o[7], z2\n  store o[8], r0\n  store o[9], q3\n"
    "  store o[10], u3\n  store o[11], e3\n"
    "end\n";

/* twenty-four loads live at once: spills, reloads, the argument pointers spilled too */
static const char T_h_spill[] =
    "func h_spill\n"
    "  in a[24] 0..0xffffff\n"
    "  out o[2]\n"
    "  x0:u64 = load a[0]\n  x1:u64 = load a[1]\n  x2:u64 = load a[2]\n  x3:u64 = load a[3]\n"
    "  x4:u64 = load a[4]\n  x5:u64 = load a[5]\n  x6:u64 = load a[6]\n  x7:u64 = load a[7]\n"
    "  x8:u64 = load a[8]\n  x9:u64 = load a[9]\n  x10:u64 = load a[10]\n  x11:u64 = load a[11]\n"
    "  x12:u64 = load a[12]\n  x13:u64 = load a[13]\n  x14:u64 = load a[14]\n  x15:u64 = load a[15]\n"
    "  x16:u64 = load a[16]\n  x17:u64 = load a[17]\n  x18:u64 = load a[18]\n  x19:u64 = load a[19]\n"
    "  x20:u64 = load a[20]\n  x21:u64 = load a[21]\n  x22:u64 = load a[22]\n  x23:u64 = load a[23]\n"
    "  p0:u64, h0:u64 = mulx.64 x11, x12\n  p1:u64, h1:u64 = mulx.64 x10, x13\n"
    "  p2:u64, h2:u64 = mulx.64 x9, x14\n   p3:u64, h3:u64 = mulx.64 x8, x15\n"
    "  p4:u64, h4:u64 = mulx.64 x7, x16\n   p5:u64, h5:u64 = mulx.64 x6, x17\n"
    "  p6:u64, h6:u64 = mulx.64 x5, x18\n   p7:u64, h7:u64 = mulx.64 x4, x19\n"
    "  p8:u64, h8:u64 = mulx.64 x3, x20\n   p9:u64, h9:u64 = mulx.64 x2, x21\n"
    "  p10:u64, h10:u64 = mulx.64 x1, x22\n p11:u64, h11:u64 = mulx.64 x0, x23\n"
    "  s0:u64, c0:u1 = addcarryx.64 0:u1, p0, p1\n  s1:u64, c1:u1 = addcarryx.64 c0, s0, p2\n"
    "  s2:u64, c2:u1 = addcarryx.64 c1, s1, p3\n  s3:u64, c3:u1 = addcarryx.64 c2, s2, p4\n"
    "  s4:u64, c4:u1 = addcarryx.64 c3, s3, p5\n  s5:u64, c5:u1 = addcarryx.64 c4, s4, p6\n"
    "  s6:u64 = add s5, p7\n  s7:u64 = add s6, p8\n  s8:u64 = add s7, p9\n  s9:u64 = add s8, p10\n"
    "  s10:u64 = add s9, p11\n"
    "  g0:u64 = add h0, h1\n  g1:u64 = add g0, h11\n  g2:u64 = add g1, c5\n"
    "  store o[0], s10\n  store o[1], g2\n"
    "end\n";

/* eight arrays: the last two pointers arrive on the stack; the outputs may alias inputs */
static const char T_h_stack[] =
    "func h_stack\n"
    "  in a[2] 0..0xffffffff\n  in b[2] 0..0xffffffff\n  in c[2] 0..0xffffffff\n"
    "  in d[2] 0..0xffffffff\n  in e[2] 0..0xffffffff\n  in g[2] 0..0xffffffff\n"
    "  out o1[2] alias a, b\n  out o2[2] alias g\n"
    "  a0:u64 = load a[0]\n  a1:u64 = load a[1]\n  b0:u64 = load b[0]\n  b1:u64 = load b[1]\n"
    "  c0:u64 = load c[0]\n  c1:u64 = load c[1]\n  d0:u64 = load d[0]\n  d1:u64 = load d[1]\n"
    "  e0:u64 = load e[0]\n  e1:u64 = load e[1]\n  g0:u64 = load g[0]\n  g1:u64 = load g[1]\n"
    "  t0:u64 = add a0, g1\n  t1:u64 = add b1, e0\n  t2:u64 = add c0, d1\n  t3:u64 = add g0, a1\n"
    "  u0:u64 = add t0, t1\n  u1:u64 = add t2, t3\n  u2:u64 = add b0, c1\n  u3:u64 = add d0, e1\n"
    "  store o1[0], u0\n  store o1[1], u1\n  store o2[0], u2\n  store o2[1], u3\n"
    "end\n";

/* values loaded from an input used after the first store to an output that may alias it: they must be read
 * before that store (the emitter loads lazily, so it saves them to slots there) */
static const char T_h_alias[] =
    "func h_alias\n"
    "  in a[4] 0..0xffffffff\n  in b[4] 0..0xffffffff\n"
    "  out o[4] alias a, b\n"
    "  a0:u64 = load a[0]\n  a1:u64 = load a[1]\n  a2:u64 = load a[2]\n  a3:u64 = load a[3]\n"
    "  b0:u64 = load b[0]\n  b1:u64 = load b[1]\n  b2:u64 = load b[2]\n  b3:u64 = load b[3]\n"
    "  s0:u64 = add a0, b0\n"
    "  store o[0], s0\n"
    "  p1:u64, h1:u64 = mulx.64 a1, b1\n  s1:u64 = add p1, a3\n"
    "  store o[1], s1\n"
    "  s2:u64, c2:u1 = addcarryx.64 0:u1, a2, b2\n  s3:u64 = add h1, c2\n  t3:u64 = xor s3, b3\n"
    "  store o[2], s2\n  store o[3], t3\n"
    "end\n";

/* carries: one live across another chain's flag write (c0 across the subborrowx, w0 across c1's add), carries
 * needed twice (c1 as a cmov condition and as a carry-in; c2 and c3 as carry-ins and as values), cmov with the
 * condition still in CF, a constant multiply (lea, imul or shl by decision) between a carry and its use, masks of
 * the form 2^k-1 (and or bzhi) and a shift left (shl, lea or imul) */
static const char T_h_carries[] =
    "func h_carries\n"
    "  in a[4] 0..0xffffffffffffff\n"
    "  in b[4]\n"
    "  out o[10]\n"
    "  a0:u64 = load a[0]\n  a1:u64 = load a[1]\n  a2:u64 = load a[2]\n  a3:u64 = load a[3]\n"
    "  b0:u64 = load b[0]\n  b1:u64 = load b[1]\n  b2:u64 = load b[2]\n  b3:u64 = load b[3]\n"
    "  s0:u64, c0:u1 = addcarryx.64 0:u1, a0, b0\n"
    "  d0:u64, w0:u1 = subborrowx.64 0:u1, a1, b1\n"
    "  s1:u64, c1:u1 = addcarryx.64 c0, a1, b1\n"
    "  e0:u64 = add c0, a2\n"
    "  d1:u64, w1:u1 = subborrowx.64 w0, a2, b2\n"
    "  k0:u64 = cmovznz w1, s0, s1\n"
    "  k1:u64 = cmovznz c1, d0, d1\n"
    "  s2:u64, c2:u1 = addcarryx.64 c1, a3, b3\n"
    "  m0:u64 = mul a3, 19\n"
    "  s3:u64, c3:u1 = addcarryx.64 c2, m0, e0\n"
    "  t0:u64 = add c3, c2\n"
    "  t1:u64 = add t0, w1\n"
    "  k2:u64 = cmovznz c3, t1, s3\n"
    "  s4:u64, c4:u1 = addcarryx.64 c3, s2, d1\n"
    "  z0:u64 = and s4, 0x3ffffffffffff\n"
    "  z1:u64 = and d1, 0x7fffff\n"
    "  q0:u64 = shl z1, 5\n"
    "  q1:u64 = shl z1, 2\n"
    "  m1:u64 = mul a0, 72\n"
    "  m2:u64 = mul a1, 8\n"
    "  m3:u64 = mul a2, 41\n"
    "  m4:u64 = mul z1, 0x123456789\n"
    "  u0:u64 = add q0, q1\n  u1:u64 = add m1, m2\n  u2:u64 = xor m3, m4\n  u3:u64 = add u0, c4\n"
    "  store o[0], k0\n  store o[1], k1\n  store o[2], k2\n  store o[3], s3\n  store o[4], z0\n"
    "  store o[5], u3\n  store o[6], u1\n  store o[7], u2\n  store o[8], t1\n  store o[9], s4\n"
    "end\n";

/* eight arrays, 3 limbs each input: the last two input pointers arrive on the stack, and with more values live than
 * registers the pointers in registers are spilled and reloaded too; both outputs may alias inputs */
static const char T_h_stack8[] =
    "func h_stack8\n"
    "  in a[3]\n  in b[3]\n  in c[3]\n  in d[3]\n  in e[3]\n  in g[3]\n"
    "  out o1[3] alias a, b\n  out o2[3] alias g, e\n"
    "  a0:u64 = load a[0]\n  a1:u64 = load a[1]\n  a2:u64 = load a[2]\n"
    "  b0:u64 = load b[0]\n  b1:u64 = load b[1]\n  b2:u64 = load b[2]\n"
    "  c0:u64 = load c[0]\n  c1:u64 = load c[1]\n  c2:u64 = load c[2]\n"
    "  d0:u64 = load d[0]\n  d1:u64 = load d[1]\n  d2:u64 = load d[2]\n"
    "  e0:u64 = load e[0]\n  e1:u64 = load e[1]\n  e2:u64 = load e[2]\n"
    "  g0:u64 = load g[0]\n  g1:u64 = load g[1]\n  g2:u64 = load g[2]\n"
    "  p0:u64, h0:u64 = mulx.64 a0, g2\n  p1:u64, h1:u64 = mulx.64 b0, e2\n  p2:u64, h2:u64 = mulx.64 c0, d2\n"
    "  p3:u64, h3:u64 = mulx.64 a1, g1\n  p4:u64, h4:u64 = mulx.64 b1, e1\n  p5:u64, h5:u64 = mulx.64 c1, d1\n"
    "  p6:u64, h6:u64 = mulx.64 a2, g0\n  p7:u64, h7:u64 = mulx.64 b2, e0\n  p8:u64, h8:u64 = mulx.64 c2, d0\n"
    "  s0:u64, k0:u1 = addcarryx.64 0:u1, p0, p1\n  s1:u64, k1:u1 = addcarryx.64 k0, p2, h0\n"
    "  s2:u64, k2:u1 = addcarryx.64 k1, h1, h2\n  s3:u64, k3:u1 = addcarryx.64 0:u1, p3, p4\n"
    "  s4:u64, k4:u1 = addcarryx.64 k3, p5, h3\n  s5:u64, k5:u1 = addcarryx.64 k4, h4, h5\n"
    "  s6:u64, k6:u1 = addcarryx.64 0:u1, p6, p7\n  s7:u64, k7:u1 = addcarryx.64 k6, p8, h6\n"
    "  s8:u64, k8:u1 = addcarryx.64 k7, h7, h8\n"
    "  r0:u64, j0:u1 = subborrowx.64 0:u1, s0, a0\n  r1:u64, j1:u1 = subborrowx.64 j0, s1, g1\n"
    "  r2:u64, j2:u1 = subborrowx.64 j1, s2, e2\n"
    "  x0:u64 = cmovznz j2, r0, s3\n  x1:u64 = cmovznz k2, s4, r1\n  x2:u64 = cmovznz k5, r2, s5\n"
    "  y0:u64 = xor s6, d0\n  y1:u64 = xor s7, c2\n  y2:u64 = cmovznz k8, b1, d1\n"
    "  store o1[0], x0\n  store o1[1], x1\n  store o1[2], x2\n"
    "  store o2[0], y0\n  store o2[1], y1\n  store o2[2], y2\n"
    "end\n";

/* known constants and flags: a borrow chain (CF) interleaved with a carry chain that starts while the borrow is
 * live (asked on OF, as test_emit_asm's xmm variant asks every chain: OF is cleared by adox of a zero register),
 * three multiplies by 38 (the constant stays in rdx: one movl), carry chains, three selects on one condition (one
 * testq: ZF still holds it), and a last select of 0 after the chains (no flag live: the zero is `xorl`, which
 * writes the flags, so a second testq follows it) */
static const char T_h_consts[] =
    "func h_consts\n"
    "  in a[4]\n"
    "  in s[1] 0..1\n"
    "  out o[13]\n"
    "  a0:u64 = load a[0]\n  a1:u64 = load a[1]\n  a2:u64 = load a[2]\n  a3:u64 = load a[3]\n"
    "  c:u64 = load s[0]\n"
    "  v0:u64, f0:u1 = subborrowx.64 0:u1, a2, a3\n  w0:u64, g0:u1 = addcarryx.64 0:u1, a3, a0\n"
    "  v1:u64, f1:u1 = subborrowx.64 f0, a0, a2\n  w1:u64, g1:u1 = addcarryx.64 g0, a1, a3\n"
    "  l0:u64, h0:u64 = mulx.64 a0, 38\n  l1:u64, h1:u64 = mulx.64 a1, 38\n  l2:u64, h2:u64 = mulx.64 a2, 38\n"
    "  r0:u64, k0:u1 = addcarryx.64 0:u1, l0, h1\n  r1:u64, k1:u1 = addcarryx.64 k0, l1, h2\n"
    "  r2:u64, k2:u1 = addcarryx.64 k1, h0, 0\n"
    "  x0:u64 = cmovznz c, r0, r1\n  x1:u64 = cmovznz c, r1, r2\n  x2:u64 = cmovznz c, a3, r0\n"
    "  q0:u64, j0:u1 = addcarryx.64 0:u1, x0, l2\n  q1:u64, j1:u1 = addcarryx.64 j0, x1, 0\n"
    "  x3:u64 = cmovznz c, 0, a3\n"
    "  store o[0], x0\n  store o[1], x1\n  store o[2], x2\n  store o[3], q0\n  store o[4], q1\n"
    "  store o[5], k2\n  store o[6], x3\n  store o[7], g1\n  store o[8], f1\n  store o[9], v0\n"
    "  store o[10], v1\n  store o[11], w0\n  store o[12], w1\n"
    "end\n";

/* built by ep_rprog_build (see below) */
#define T_GENERATED NULL

const ep_rprog ep_rprogs[] = {
    { "h_flags", T_h_flags },
    { "h_spill", T_h_spill },
    { "h_stack", T_h_stack },
    { "h_alias", T_h_alias },
    { "h_carries", T_h_carries },
    { "h_stack8", T_h_stack8 },
    { "h_consts", T_h_consts },
    { "h_live40", T_GENERATED },
    { "h_alias4", T_GENERATED },
};
const unsigned ep_nrprogs = sizeof ep_rprogs / sizeof ep_rprogs[0];

/* a growing text */
typedef struct {
    char *s;
    size_t n, cap;
} tbuf;

static void tb(tbuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tb(tbuf *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            bdie(__LINE__);
        if (t->s && (size_t)k < t->cap - t->n) {
            t->n += (size_t)k;
            return;
        }
        size_t nc = 2 * t->cap + (size_t)k + 4096;
        char *ns = realloc(t->s, nc);
        if (!ns)
            bdie(__LINE__);
        t->s = ns;
        t->cap = nc;
    }
}

/* h_live40: forty products of input limbs by constants (lea, imul, shl: 2 3 4 5 8 9 16 19 25 72 ...), all live at
 * once, so more than the 15 registers and the 16 xmm registers: spills to xmm and to the stack; masks 2^k-1 on
 * some; summed in reverse order */
static void gen_live40(tbuf *t)
{
    static const unsigned K[40] = { 2,  3,  4,  5,  8,  9,  16, 19, 25, 72, 10, 15, 27, 37, 45, 73, 81, 7, 11, 13,
                                    17, 21, 64, 6,  12, 18, 24, 36, 40, 41, 65, 33, 1000003, 255, 129, 131, 99, 1024,
                                    3000, 100 };
    tb(t, "func h_live40\n  in a[8] 0..0xffffffff\n  out o[4]\n");
    for (int i = 0; i < 8; i++)
        tb(t, "  x%d:u64 = load a[%d]\n", i, i);
    for (int j = 0; j < 40; j++)
        tb(t, "  v%d:u64 = mul x%d, %u\n", j, j % 8, K[j]);
    for (int j = 0; j < 40; j++)
        if (j % 3 == 0)
            tb(t, "  m%d:u64 = and v%d, 0x%llx\n", j, j, (unsigned long long)((1ull << (20 + j % 37)) - 1));
        else
            tb(t, "  m%d:u64 = add v%d, 0\n", j, j);
    tb(t, "  s39:u64 = add m39, 0\n");
    for (int j = 38; j >= 0; j--)
        tb(t, "  s%d:u64 = add s%d, m%d\n", j, j + 1, j);
    /* an addcarryx chain over the raw products, the other way */
    tb(t, "  r0:u64, c0:u1 = addcarryx.64 0:u1, v0, v39\n");
    for (int j = 1; j < 20; j++)
        tb(t, "  r%d:u64, c%d:u1 = addcarryx.64 c%d, r%d, v%d\n", j, j, j - 1, j - 1, 39 - j);
    tb(t, "  e0:u64, c20:u1 = addcarryx.64 c19, r19, 0\n  e1:u64 = xor v20, v21\n  e2:u64 = mul v22, 3\n");
    tb(t, "  store o[0], s0\n  store o[1], e0\n  store o[2], e1\n  store o[3], e2\nend\n");
}

/* h_alias4: the low four limbs of a 4x4-limb product (mulx + addcarryx columns) with the output allowed to be
 * either input: limb 0 is stored first, so every input limb still needed is read before that store */
static void gen_alias4(tbuf *t)
{
    tb(t, "func h_alias4\n  in a[4]\n  in b[4]\n  out o[4] alias a, b\n");
    for (int i = 0; i < 4; i++)
        tb(t, "  a%d:u64 = load a[%d]\n  b%d:u64 = load b[%d]\n", i, i, i, i);
    for (int i = 0; i < 4; i++)
        for (int j = 0; i + j < 4; j++)
            tb(t, "  l%d%d:u64, h%d%d:u64 = mulx.64 a%d, b%d\n", i, j, i, j, i, j);
    /* column k: the lows of i+j = k and the highs of i+j = k-1, summed with carries counted in n<k> */
    tb(t, "  store o[0], l00\n");
    for (int k = 1; k < 4; k++) {
        int m = 0;
        tb(t, "  z%d_0:u64 = add l0%d, 0\n  n%d_0:u64 = add 0, 0\n", k, k, k);
        for (int i = 1; i <= k; i++, m++)
            tb(t, "  z%d_%d:u64, q%d_%d:u1 = addcarryx.64 0:u1, z%d_%d, l%d%d\n  n%d_%d:u64 = add n%d_%d, q%d_%d\n", k,
               m + 1, k, m + 1, k, m, i, k - i, k, m + 1, k, m, k, m + 1);
        for (int i = 0; i < k; i++, m++)
            tb(t, "  z%d_%d:u64, q%d_%d:u1 = addcarryx.64 0:u1, z%d_%d, h%d%d\n  n%d_%d:u64 = add n%d_%d, q%d_%d\n", k,
               m + 1, k, m + 1, k, m, i, k - 1 - i, k, m + 1, k, m, k, m + 1);
        if (k > 1)
            tb(t, "  f%d:u64, g%d:u1 = addcarryx.64 0:u1, z%d_%d, n%d_%d\n  store o[%d], f%d\n", k, k, k, m,
               k - 1, 2 * (k - 1), k, k);
        else
            tb(t, "  store o[%d], z%d_%d\n", k, k, m);
    }
    tb(t, "end\n");
}

/* ---- aliased programs for random schedules (ep_aprogs) ---------------------------------------------------------- */

/* six inputs of three limbs, two outputs that may alias every one of them: the first store kills all six, and in a
 * schedule that moves the arithmetic after it, up to 18 limbs must be rescued at once (more than registers) */
static const char T_a_many[] =
    "func a_many\n"
    "  out o1[3] alias a, b, c, d, e, f\n  out o2[3] alias a, b, c, d, e, f\n"
    "  in a[3] 0..0xffffffff\n  in b[3] 0..0xffffffff\n  in c[3] 0..0xffffffff\n"
    "  in d[3] 0..0xffffffff\n  in e[3] 0..0xffffffff\n  in f[3] 0..0xffffffff\n"
    "  a0:u64 = load a[0]\n  a1:u64 = load a[1]\n  a2:u64 = load a[2]\n"
    "  b0:u64 = load b[0]\n  b1:u64 = load b[1]\n  b2:u64 = load b[2]\n"
    "  c0:u64 = load c[0]\n  c1:u64 = load c[1]\n  c2:u64 = load c[2]\n"
    "  d0:u64 = load d[0]\n  d1:u64 = load d[1]\n  d2:u64 = load d[2]\n"
    "  e0:u64 = load e[0]\n  e1:u64 = load e[1]\n  e2:u64 = load e[2]\n"
    "  f0:u64 = load f[0]\n  f1:u64 = load f[1]\n  f2:u64 = load f[2]\n"
    "  s0:u64 = add a0, b0\n  t0:u64 = add s0, c0\n  u0:u64 = add t0, d0\n  v0:u64 = add u0, e0\n"
    "  l0:u64, h0:u64 = mulx.64 v0, f1\n  z0:u64 = and a0, 1\n  q0:u64 = cmovznz z0, l0, h0\n"
    "  store o1[0], q0\n  store o2[1], l0\n"
    "  s1:u64 = add a1, b1\n  t1:u64 = add s1, c1\n  u1:u64 = add t1, d1\n  v1:u64 = add u1, e1\n"
    "  l1:u64, h1:u64 = mulx.64 v1, f2\n  z1:u64 = and a1, 1\n  q1:u64 = cmovznz z1, l1, h1\n"
    "  store o1[1], q1\n  store o2[2], l1\n"
    "  s2:u64 = add a2, b2\n  t2:u64 = add s2, c2\n  u2:u64 = add t2, d2\n  v2:u64 = add u2, e2\n"
    "  l2:u64, h2:u64 = mulx.64 v2, f0\n  z2:u64 = and a2, 1\n  q2:u64 = cmovznz z2, l2, h2\n"
    "  store o1[2], q2\n  store o2[0], l2\n"
    "end\n";

/* two inputs of eight limbs, both outputs may alias both: sixteen limbs live across the first store */
static const char T_a_press[] =
    "func a_press\n"
    "  in a[8] 0..0xffffffff\n  in b[8] 0..0xffffffff\n"
    "  out o[8] alias a, b\n  out p[8] alias a, b\n"
    "  a0:u64 = load a[0]\n  b0:u64 = load b[0]\n  a1:u64 = load a[1]\n  b1:u64 = load b[1]\n"
    "  a2:u64 = load a[2]\n  b2:u64 = load b[2]\n  a3:u64 = load a[3]\n  b3:u64 = load b[3]\n"
    "  a4:u64 = load a[4]\n  b4:u64 = load b[4]\n  a5:u64 = load a[5]\n  b5:u64 = load b[5]\n"
    "  a6:u64 = load a[6]\n  b6:u64 = load b[6]\n  a7:u64 = load a[7]\n  b7:u64 = load b[7]\n"
    "  m0:u64, n0:u64 = mulx.64 a0, b7\n  x0:u64 = xor m0, a7\n  y0:u64 = xor b3, a5\n"
    "  m1:u64, n1:u64 = mulx.64 a1, b6\n  x1:u64 = xor m1, a6\n  y1:u64 = xor b4, a6\n"
    "  m2:u64, n2:u64 = mulx.64 a2, b5\n  x2:u64 = xor m2, a5\n  y2:u64 = xor b5, a7\n"
    "  m3:u64, n3:u64 = mulx.64 a3, b4\n  x3:u64 = xor m3, a4\n  y3:u64 = add b6, n0\n"
    "  m4:u64, n4:u64 = mulx.64 a4, b3\n  x4:u64 = xor m4, a3\n  y4:u64 = xor b7, a1\n"
    "  m5:u64, n5:u64 = mulx.64 a5, b2\n  x5:u64 = xor m5, a2\n  y5:u64 = xor b0, n5\n"
    "  m6:u64, n6:u64 = mulx.64 a6, b1\n  x6:u64 = xor m6, a1\n  y6:u64 = xor b1, a3\n"
    "  m7:u64, n7:u64 = mulx.64 a7, b0\n  x7:u64 = xor m7, a0\n  w7:u64, k7:u1 = addcarryx.64 0:u1, b2, a4\n"
    "  y7:u64 = add w7, k7\n"
    "  store o[7], x0\n  store p[0], y0\n  store o[6], x1\n  store p[1], y1\n"
    "  store o[5], x2\n  store p[2], y2\n  store o[4], x3\n  store p[3], y3\n"
    "  store o[3], x4\n  store p[4], y4\n  store o[2], x5\n  store p[5], y5\n"
    "  store o[1], x6\n  store p[6], y6\n  store o[0], x7\n  store p[7], y7\n"
    "end\n";

const ep_rprog ep_aprogs[] = {
    { "a_many", T_a_many },
    { "a_press", T_a_press },
};
const unsigned ep_naprogs = sizeof ep_aprogs / sizeof ep_aprogs[0];

ir_func *ep_aprog_build(unsigned i)
{
    if (i >= ep_naprogs)
        return NULL;
    char err[512];
    ir_func *f = ir_parse(ep_aprogs[i].text, err, sizeof err);
    if (!f) {
        fprintf(stderr, "emit_progs.c: %s: %s\n", ep_aprogs[i].name, err);
        exit(1);
    }
    return f;
}

ir_func *ep_rprog_build(unsigned i)
{
    if (i >= ep_nrprogs)
        return NULL;
    tbuf t = { NULL, 0, 0 };
    const char *text = ep_rprogs[i].text;
    if (!text) {
        if (!strcmp(ep_rprogs[i].name, "h_live40"))
            gen_live40(&t);
        else
            gen_alias4(&t);
        text = t.s;
    }
    char err[512];
    ir_func *f = ir_parse(text, err, sizeof err);
    if (!f) {
        fprintf(stderr, "emit_progs.c: %s: %s\n", ep_rprogs[i].name, err);
        exit(1);
    }
    free(t.s);
    return f;
}

/* ---- inputs ------------------------------------------------------------------------------------------------------ */

uint64_t ep_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* x clipped into [lo, hi] */
static uint64_t clip(ir_u128 x, ir_u128 lo, ir_u128 hi)
{
    return (uint64_t)(x < lo ? lo : x > hi ? hi : x);
}

void ep_inputs(const ir_func *f, int mode, uint64_t *state, uint64_t in[EP_MAXARR][EP_MAXLIMB])
{
    uint64_t style = ep_rand(state) % 6;
    for (uint32_t j = 0; j < f->narr && j < EP_MAXARR; j++) {
        const ir_array *a = &f->arr[j];
        for (uint32_t l = 0; l < a->len && l < EP_MAXLIMB; l++) {
            ir_u128 lo = a->lo[l], hi = a->hi[l], span = hi - lo;
            uint64_t r = ep_rand(state), v;
            if (a->is_output) {
                in[j][l] = 0;
                continue;
            }
            if (mode >= 0) {
                static const ir_u128 edge[] = { 0, 1, 2, M64, M64 - 1, (ir_u128)1 << 63 };
                switch ((unsigned)mode) {
                case 0: v = (uint64_t)lo; break;
                case 1: v = (uint64_t)hi; break;
                case 2: v = clip(0, lo, hi); break;
                case 3: v = clip(1, lo, hi); break;
                case 4: v = clip(M64, lo, hi); break;
                case 5: v = (uint64_t)(l & 1 ? lo : hi); break;
                case 6: v = (uint64_t)(l & 1 ? hi : lo); break;
                case 7: v = clip(hi - 1 < lo ? lo : hi - 1, lo, hi); break;
                case 8: v = clip(lo + 1 > hi ? hi : lo + 1, lo, hi); break;
                default: v = clip(edge[(l + (unsigned)mode + j) % 6], lo, hi); break;
                }
            } else {
                uint64_t s = style == 5 ? ep_rand(state) % 5 : style;
                switch (s) {
                case 0: v = r; break;                          /* uniform */
                case 1: v = r & ep_rand(state) & ep_rand(state); break; /* sparse */
                case 2: v = r | ep_rand(state) | ep_rand(state); break; /* dense */
                case 3: v = (uint64_t)lo + (r & 7); break;     /* near lo */
                default: v = (uint64_t)hi - (r & 7); break;    /* near hi */
                }
                if (v < lo || v > hi)
                    v = (uint64_t)(lo + (span == M64 ? (ir_u128)v : (ir_u128)v % (span + 1)));
            }
            in[j][l] = v;
        }
    }
}

int ep_eval(const ir_func *f, uint64_t in[EP_MAXARR][EP_MAXLIMB], uint64_t out[EP_MAXARR][EP_MAXLIMB])
{
    const uint64_t *ip[EP_MAXARR];
    uint64_t *op[EP_MAXARR];
    for (unsigned j = 0; j < EP_MAXARR; j++) {
        ip[j] = in[j];
        op[j] = out[j];
    }
    return ir_eval(f, ip, op);
}

/* ---- fiat-crypto's programs --------------------------------------------------------------------------------- */

static int wanted(const char *fn)
{
    static const char *const suffix[] = { "_mul", "_square", "_carry", "_add", "_sub", "_opp" };
    size_t n = strlen(fn);
    for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
        size_t m = strlen(suffix[i]);
        if (n > m && !strcmp(fn + n - m, suffix[i]))
            return 1; /* _carry_mul and _carry_square end in _mul and _square */
    }
    return 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *s = NULL;
    long n = -1;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0)
        s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, fp) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(fp);
    if (s) {
        s[n] = 0;
        *len = (size_t)n;
    }
    return s;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int ep_fiat_load_dir(const char *dir, ir_func **fns, unsigned max, unsigned *failed)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char *files[128];
    unsigned nf = 0, n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && nf < 128) {
        size_t len = strlen(de->d_name);
        if (len > 5 && !strcmp(de->d_name + len - 5, ".json"))
            files[nf++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(files, nf, sizeof files[0], cmp_str);
    for (unsigned i = 0; i < nf; i++) {
        char path[1024], err[1024];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        char *json = slurp(path, &len);
        cJSON *root = json ? cJSON_Parse(json) : NULL;
        if (!root) {
            fprintf(stderr, "FAIL: %s: unreadable JSON\n", path);
            (*failed)++;
            free(json);
            continue;
        }
        const cJSON *it;
        cJSON_ArrayForEach(it, root)
        {
            const cJSON *op = cJSON_GetObjectItemCaseSensitive(it, "operation");
            if (!cJSON_IsString(op) || !wanted(op->valuestring) || n >= max)
                continue;
            ir_func *f = ir_fiat_load(json, len, path, op->valuestring, err, sizeof err);
            if (!f) {
                fprintf(stderr, "FAIL: %s: %s: ir_fiat_load: %s\n", files[i], op->valuestring, err);
                (*failed)++;
                continue;
            }
            fns[n++] = f;
        }
        cJSON_Delete(root);
        free(json);
    }
    for (unsigned i = 0; i < nf; i++)
        free(files[i]);
    return (int)n;
}

bool ep_has_op(const ir_func *f, ir_op op)
{
    for (uint32_t i = 0; i < f->nnode; i++)
        if (f->node[i].op == op)
            return true;
    return false;
}

void ep_print_limbs(const char *label, const uint64_t *x, unsigned n)
{
    fprintf(stderr, "  %s:", label);
    for (unsigned i = 0; i < n; i++)
        fprintf(stderr, " 0x%016llx", (unsigned long long)x[i]);
    fprintf(stderr, "\n");
}

/* A random schedule of f: a random topological order of its nodes (every operand defined before use) in which the
 * loads and stores keep their relative order (the alias rule). The optimizer's search moves nodes the same way. */
ir_func *ep_random_schedule(const ir_func *f, uint64_t *st)
{
    ir_func *g = ir_func_clone(f);
    uint32_t n = f->nnode, *order = calloc(n + 1, sizeof *order), *ready = calloc(n + 1, sizeof *ready);
    uint8_t *done = calloc(n + 1, 1);
    if (!g || !order || !ready || !done) {
        ir_func_free(g);
        g = NULL;
        goto out;
    }
    uint32_t next_mem = 0; /* the first load/store not yet scheduled */
    for (uint32_t k = 0; k < n; k++) {
        while (next_mem < n &&
               (done[next_mem] || (f->node[next_mem].op != IR_LOAD && f->node[next_mem].op != IR_STORE)))
            next_mem++;
        uint32_t nr = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (done[i])
                continue;
            const ir_node *x = &f->node[i];
            if ((x->op == IR_LOAD || x->op == IR_STORE) && i != next_mem)
                continue;
            int ok = 1;
            for (int a = 0; a < x->nargs && ok; a++)
                if (!f->val[x->arg[a]].is_const && !done[f->val[x->arg[a]].node])
                    ok = 0;
            if (ok)
                ready[nr++] = i;
        }
        uint32_t pick = ready[ep_rand(st) % nr];
        done[pick] = 1;
        order[k] = pick;
    }
    for (uint32_t k = 0; k < n; k++) {
        g->node[k] = f->node[order[k]];
        for (int r = 0; r < g->node[k].nres; r++)
            g->val[g->node[k].res[r]].node = k;
    }
out:
    free(order);
    free(ready);
    free(done);
    return g;
}
