/* emit_progs.c — hand-built IR programs for tests/ir/test_lower.c and tests/ir/test_emit.c (see emit_progs.h). */
#define _GNU_SOURCE
#include "emit_progs.h"

#include <cjson/cJSON.h>
#include <dirent.h>
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
