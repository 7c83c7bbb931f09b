/* test_check_cpu_fuzz.c — the checker's x86-64 semantics (check/exec.c) against the CPU, on random straight-line
 * functions (check.cpu_fuzz; --iters more under label slow).
 *
 * Each function is built as machine code with Zydis' encoder from a table of the instruction forms the executor
 * supports (ops[] below: one line per mnemonic and operand shape), mapped executable and run natively on random
 * inputs, and executed by check_exec_observed; the executor's expressions are evaluated on the same inputs
 * (ex_eval_all) and compared with what the CPU computed: every body register, the stack frame, the xmm registers
 * used for spills, the output limbs the body stored, and every status flag the executor claims to know at ret
 * (read natively with pushfq, appended to the native copy only, after the last instruction the executor sees).
 *
 * Layout of a function f(out, in) (rdi = out, rsi = in, never written):
 *   push rbx rbp r12..r15; lea -32(%rsp), %rsp (8 slots: 4 in the frame, 4 in the red zone below it, which the
 *   body's pushes overwrite on both sides); the slots from in[13..20]; xmm0..3
 *   from in[21..24]; the 12 body registers (rax rcx rdx rbx rbp r8 r9 r10 r12..r15) from in[0..11] (r11 is the
 *   pointer register of SH_PTR: a copy of rsi or rdi moved by constants, loads and stores through it);
 *   the body: NBODY random instructions (register, stack-slot and input-limb operands of every width the form
 *   takes, high-byte registers, pushes and pops, output-limb stores and reloads);
 *   the 12 registers into out[0..11], the slots into out[13..20], xmm0..3 into out[21..24] (via rax); lea 32(%rsp),
 *   %rsp; the pops; ret.
 * The generator tracks which flags are defined (the SDM's "Flags Affected", as the executor models them; where the
 * executor is deliberately more cautious than the SDM, sar's CF for counts of at least the width, the generator
 * follows it), so that flag readers (adc sbb adcx adox cmovcc setcc) read only defined flags: the executor must
 * accept every function, a rejection is a failure. At ret a flag the executor knows must be one the model defines
 * (a value for a flag the SDM leaves undefined is a claim no CPU keeps) and equal the CPU's; a flag the model
 * defines must be known to the executor.
 *
 * Usage: test_check_cpu_fuzz [--seed N] [--iters N] [--samples N] [--len N] [--verbose]. The seed is printed; a
 * failure prints the function (address, bytes, AT&T text), the inputs and both values, and the seed and index
 * that rebuild it. Exit 0 pass, 1 fail, 77 skip (not x86-64 with BMI2/ADX). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <Zydis/Zydis.h>

#include "check/check.h"
#include "check/decode.h"
#include "check/exec.h"
#include "check/expr.h"
#include "emit/encode.h"
#include "ir/ir.h"

/* ---- random numbers ---------------------------------------------------------------------------------------------- */

static uint64_t rng_state;
static uint64_t rng(void)
{
    /* splitmix64 (Steele, Lea, Flood, OOPSLA 2014) */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static unsigned rn(unsigned n)
{
    return (unsigned)(rng() % n);
}

static const uint64_t edges[] = { 0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
                                  0xffffffff, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                  0xfffffffffffffffeull, 0xffffffffffffffffull, 0xffffffff80000000ull,
                                  0xffffffffffff8000ull, 0xffffffffffffff80ull };
#define NEDGES (sizeof edges / sizeof edges[0])

/* word — an edge value (or one off it), or a random word of random bit density */
static uint64_t word(void)
{
    switch (rn(6)) {
    case 0: return edges[rn(NEDGES)];
    case 1: return edges[rn(NEDGES)] + rn(3) - 1;
    case 2: return rng() & rng() & rng();
    case 3: return rng() | rng() | rng();
    default: return rng();
    }
}

/* an immediate of w bits' worth (the encoder picks imm8 or imm32 by value) */
static int64_t imm_val(unsigned w)
{
    int64_t v;
    switch (rn(4)) {
    case 0: v = (int64_t)rn(5) - 2; break;
    case 1: v = (int8_t)rng(); break;
    case 2: v = (int64_t)(int32_t)edges[rn(NEDGES)]; break;
    default: v = (int32_t)rng(); break;
    }
    if (w == 8)
        v = (int8_t)v;
    if (w == 16)
        v = (int16_t)v;
    return v;
}

/* ---- registers and the layout ------------------------------------------------------------------------------------ */

static const ZydisRegister R64[16] = { ZYDIS_REGISTER_RAX, ZYDIS_REGISTER_RCX, ZYDIS_REGISTER_RDX, ZYDIS_REGISTER_RBX,
                                       ZYDIS_REGISTER_RSP, ZYDIS_REGISTER_RBP, ZYDIS_REGISTER_RSI, ZYDIS_REGISTER_RDI,
                                       ZYDIS_REGISTER_R8,  ZYDIS_REGISTER_R9,  ZYDIS_REGISTER_R10, ZYDIS_REGISTER_R11,
                                       ZYDIS_REGISTER_R12, ZYDIS_REGISTER_R13, ZYDIS_REGISTER_R14, ZYDIS_REGISTER_R15 };
static const ZydisRegister R32[16] = { ZYDIS_REGISTER_EAX,  ZYDIS_REGISTER_ECX,  ZYDIS_REGISTER_EDX,
                                       ZYDIS_REGISTER_EBX,  ZYDIS_REGISTER_ESP,  ZYDIS_REGISTER_EBP,
                                       ZYDIS_REGISTER_ESI,  ZYDIS_REGISTER_EDI,  ZYDIS_REGISTER_R8D,
                                       ZYDIS_REGISTER_R9D,  ZYDIS_REGISTER_R10D, ZYDIS_REGISTER_R11D,
                                       ZYDIS_REGISTER_R12D, ZYDIS_REGISTER_R13D, ZYDIS_REGISTER_R14D,
                                       ZYDIS_REGISTER_R15D };
static const ZydisRegister R16[16] = { ZYDIS_REGISTER_AX,   ZYDIS_REGISTER_CX,   ZYDIS_REGISTER_DX,
                                       ZYDIS_REGISTER_BX,   ZYDIS_REGISTER_SP,   ZYDIS_REGISTER_BP,
                                       ZYDIS_REGISTER_SI,   ZYDIS_REGISTER_DI,   ZYDIS_REGISTER_R8W,
                                       ZYDIS_REGISTER_R9W,  ZYDIS_REGISTER_R10W, ZYDIS_REGISTER_R11W,
                                       ZYDIS_REGISTER_R12W, ZYDIS_REGISTER_R13W, ZYDIS_REGISTER_R14W,
                                       ZYDIS_REGISTER_R15W };
static const ZydisRegister R8L[16] = { ZYDIS_REGISTER_AL,   ZYDIS_REGISTER_CL,   ZYDIS_REGISTER_DL,
                                       ZYDIS_REGISTER_BL,   ZYDIS_REGISTER_SPL,  ZYDIS_REGISTER_BPL,
                                       ZYDIS_REGISTER_SIL,  ZYDIS_REGISTER_DIL,  ZYDIS_REGISTER_R8B,
                                       ZYDIS_REGISTER_R9B,  ZYDIS_REGISTER_R10B, ZYDIS_REGISTER_R11B,
                                       ZYDIS_REGISTER_R12B, ZYDIS_REGISTER_R13B, ZYDIS_REGISTER_R14B,
                                       ZYDIS_REGISTER_R15B };
static const ZydisRegister RHI[4] = { ZYDIS_REGISTER_AH, ZYDIS_REGISTER_CH, ZYDIS_REGISTER_DH, ZYDIS_REGISTER_BH };

enum { RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSP = 4, RBP = 5, RSI = 6, RDI = 7 };
#define NBODY 12
static const int body[NBODY] = { RAX, RCX, RDX, RBX, RBP, 8, 9, 10, 12, 13, 14, 15 };
#define PTR 11 /* r11: a copy of an argument pointer moved by constants (SH_PTR), never stored */
static const int saved[6] = { RBX, RBP, 12, 13, 14, 15 };
#define NSLOT 8     /* 8-byte stack slots: the frame's 4 and 4 in the red zone below it */
#define RED 32      /* bytes of the slots below the frame's rsp (the red zone) */
#define NXMM 4      /* xmm0..3 carry data */
#define IN_SLOT 13  /* in[13..20]: the slots */
#define IN_XMM 21   /* in[21..24]: xmm0..3 */
#define NIN 32      /* in[25..31]: memory operands only */
#define OUT_SLOT 13
#define OUT_XMM 21
#define OUT_STORE 25 /* out[25..28]: the body's own stores */
#define NSTORE 4
#define OUT_FLAGS 29 /* native only: rflags */
#define OUTLEN 30
#define POISON 0xa5a5a5a5deadbeefull

static ZydisRegister gpr(int id, unsigned w, bool high)
{
    if (high)
        return RHI[id & 3];
    switch (w) {
    case 8: return R8L[id];
    case 16: return R16[id];
    case 32: return R32[id];
    default: return R64[id];
    }
}

/* ---- flags ------------------------------------------------------------------------------------------------------- */

#define FC (1u << CHECK_EXEC_CF)
#define FP (1u << CHECK_EXEC_PF)
#define FA (1u << CHECK_EXEC_AF)
#define FZ (1u << CHECK_EXEC_ZF)
#define FS (1u << CHECK_EXEC_SF)
#define FO (1u << CHECK_EXEC_OF)
#define FALL (FC | FP | FA | FZ | FS | FO)
static const char *const flag_names[CHECK_EXEC_NFLAGS] = { "CF", "PF", "AF", "ZF", "SF", "OF" };
static const unsigned rflags_bit[CHECK_EXEC_NFLAGS] = { 0, 2, 4, 6, 7, 11 };

/* the flags each condition code reads (SDM Vol. 1 Appendix B), in Zydis' cmovcc / setcc order below */
static const unsigned cc_reads[16] = { FO, FO, FC, FC, FZ, FZ, FC | FZ, FC | FZ,
                                       FS, FS, FP, FP, FS | FO, FS | FO, FZ | FS | FO, FZ | FS | FO };
static const ZydisMnemonic CMOV[16] = {
    ZYDIS_MNEMONIC_CMOVO, ZYDIS_MNEMONIC_CMOVNO, ZYDIS_MNEMONIC_CMOVB,  ZYDIS_MNEMONIC_CMOVNB,
    ZYDIS_MNEMONIC_CMOVZ, ZYDIS_MNEMONIC_CMOVNZ, ZYDIS_MNEMONIC_CMOVBE, ZYDIS_MNEMONIC_CMOVNBE,
    ZYDIS_MNEMONIC_CMOVS, ZYDIS_MNEMONIC_CMOVNS, ZYDIS_MNEMONIC_CMOVP,  ZYDIS_MNEMONIC_CMOVNP,
    ZYDIS_MNEMONIC_CMOVL, ZYDIS_MNEMONIC_CMOVNL, ZYDIS_MNEMONIC_CMOVLE, ZYDIS_MNEMONIC_CMOVNLE };
static const ZydisMnemonic SETCC[16] = {
    ZYDIS_MNEMONIC_SETO, ZYDIS_MNEMONIC_SETNO, ZYDIS_MNEMONIC_SETB,  ZYDIS_MNEMONIC_SETNB,
    ZYDIS_MNEMONIC_SETZ, ZYDIS_MNEMONIC_SETNZ, ZYDIS_MNEMONIC_SETBE, ZYDIS_MNEMONIC_SETNBE,
    ZYDIS_MNEMONIC_SETS, ZYDIS_MNEMONIC_SETNS, ZYDIS_MNEMONIC_SETP,  ZYDIS_MNEMONIC_SETNP,
    ZYDIS_MNEMONIC_SETL, ZYDIS_MNEMONIC_SETNL, ZYDIS_MNEMONIC_SETLE, ZYDIS_MNEMONIC_SETNLE };

/* ---- the table of forms ------------------------------------------------------------------------------------------ */

typedef enum {
    SH_ALU,    /* op r/m, r/m/imm (two operands, not both memory); test takes no memory source */
    SH_UNARY,  /* op r/m */
    SH_MUL,    /* mul r/m: rdx:rax (ax for bytes) = rax * src */
    SH_IMUL2,  /* imul r, r/m */
    SH_IMUL3,  /* imul r, r/m, imm */
    SH_MULX,   /* mulx hi, lo, r/m (rdx) */
    SH_ADX,    /* adcx / adox r, r/m */
    SH_SHIFT,  /* shl shr sar r/m by imm, by 1 or by cl (set just before) */
    SH_SHXD,   /* shld shrd r/m, r, imm / cl */
    SH_SHX,    /* shlx shrx r, r/m, r (the count register set just before) */
    SH_BZHI,   /* bzhi r, r/m, r (the same) */
    SH_MOV,    /* mov r/m, r/m/imm (movabs for a 64-bit immediate) */
    SH_MOVX,   /* movzx movsx r, r/m8 / r/m16; movsxd r64, r/m32 */
    SH_CDQE,
    SH_LEA,    /* lea r, [base + index * scale + disp] of data registers */
    SH_CMOV,   /* cmovcc r, r/m */
    SH_SETCC,  /* setcc r/m8 */
    SH_CLC,    /* clc / stc */
    SH_XCHG,   /* xchg r, r/m */
    SH_PUSHPOP,/* push r/m/imm, pop r/m (64-bit; at most 4 deep; popped again before the end) */
    SH_RSP,    /* sub/add $8, %rsp or lea -+8(%rsp), %rsp (as deep as the pushes) */
    SH_PTR,    /* r11 = rsi or rdi plus a constant (mov, lea, add, sub, lea with a constant index), loads and
                  stores through it; loads through rsi with a constant index register */
    SH_XMM,    /* movq / movd / vmovq / vmovd between a body register and xmm0..3 */
    SH_STORE,  /* mov r64 to an output limb, and loads of one stored before */
    SH_NOP
} shape;

#define W8 1u
#define W16 2u
#define W32 4u
#define W64 8u
#define WALL (W8 | W16 | W32 | W64)

typedef struct {
    const char *name;
    ZydisMnemonic mn;
    shape sh;
    unsigned widths; /* W8..W64 */
    unsigned reads;  /* flags read (for SH_CMOV / SH_SETCC: by the condition) */
    unsigned def;    /* flags written with a defined value */
    unsigned undef;  /* flags left undefined (shifts: decided by the count, in gen_one) */
    unsigned weight;
    bool bmi;        /* needs BMI2 or ADX */
} form;

/* The executor's instruction set (check/exec.c, exec_one). A new instruction with its flag effects is one line. */
static const form forms[] = {
    { "add", ZYDIS_MNEMONIC_ADD, SH_ALU, WALL, 0, FALL, 0, 6, false },
    { "adc", ZYDIS_MNEMONIC_ADC, SH_ALU, WALL, FC, FALL, 0, 6, false },
    { "sub", ZYDIS_MNEMONIC_SUB, SH_ALU, WALL, 0, FALL, 0, 6, false },
    { "sbb", ZYDIS_MNEMONIC_SBB, SH_ALU, WALL, FC, FALL, 0, 6, false },
    { "cmp", ZYDIS_MNEMONIC_CMP, SH_ALU, WALL, 0, FALL, 0, 4, false },
    { "and", ZYDIS_MNEMONIC_AND, SH_ALU, WALL, 0, FALL & ~FA, FA, 3, false },
    { "or", ZYDIS_MNEMONIC_OR, SH_ALU, WALL, 0, FALL & ~FA, FA, 3, false },
    { "xor", ZYDIS_MNEMONIC_XOR, SH_ALU, WALL, 0, FALL & ~FA, FA, 3, false },
    { "test", ZYDIS_MNEMONIC_TEST, SH_ALU, WALL, 0, FALL & ~FA, FA, 3, false },
    { "neg", ZYDIS_MNEMONIC_NEG, SH_UNARY, WALL, 0, FALL, 0, 2, false },
    { "not", ZYDIS_MNEMONIC_NOT, SH_UNARY, WALL, 0, 0, 0, 2, false },
    { "mul", ZYDIS_MNEMONIC_MUL, SH_MUL, WALL, 0, FC | FO, FP | FA | FZ | FS, 3, false },
    { "imul", ZYDIS_MNEMONIC_IMUL, SH_IMUL2, W16 | W32 | W64, 0, FC | FO, FP | FA | FZ | FS, 2, false },
    { "imul", ZYDIS_MNEMONIC_IMUL, SH_IMUL3, W16 | W32 | W64, 0, FC | FO, FP | FA | FZ | FS, 2, false },
    { "mulx", ZYDIS_MNEMONIC_MULX, SH_MULX, W32 | W64, 0, 0, 0, 3, true },
    { "adcx", ZYDIS_MNEMONIC_ADCX, SH_ADX, W32 | W64, FC, FC, 0, 4, true },
    { "adox", ZYDIS_MNEMONIC_ADOX, SH_ADX, W32 | W64, FO, FO, 0, 4, true },
    { "shl", ZYDIS_MNEMONIC_SHL, SH_SHIFT, WALL, 0, 0, 0, 3, false },
    { "shr", ZYDIS_MNEMONIC_SHR, SH_SHIFT, WALL, 0, 0, 0, 3, false },
    { "sar", ZYDIS_MNEMONIC_SAR, SH_SHIFT, WALL, 0, 0, 0, 3, false },
    { "shld", ZYDIS_MNEMONIC_SHLD, SH_SHXD, W16 | W32 | W64, 0, 0, 0, 2, false },
    { "shrd", ZYDIS_MNEMONIC_SHRD, SH_SHXD, W16 | W32 | W64, 0, 0, 0, 2, false },
    { "shlx", ZYDIS_MNEMONIC_SHLX, SH_SHX, W32 | W64, 0, 0, 0, 1, true },
    { "shrx", ZYDIS_MNEMONIC_SHRX, SH_SHX, W32 | W64, 0, 0, 0, 1, true },
    { "bzhi", ZYDIS_MNEMONIC_BZHI, SH_BZHI, W32 | W64, 0, FC | FZ | FS | FO, FA | FP, 1, true },
    { "mov", ZYDIS_MNEMONIC_MOV, SH_MOV, WALL, 0, 0, 0, 4, false },
    { "movzx", ZYDIS_MNEMONIC_MOVZX, SH_MOVX, W16 | W32 | W64, 0, 0, 0, 2, false },
    { "movsx", ZYDIS_MNEMONIC_MOVSX, SH_MOVX, W16 | W32 | W64, 0, 0, 0, 2, false },
    { "movsxd", ZYDIS_MNEMONIC_MOVSXD, SH_MOVX, W64, 0, 0, 0, 1, false },
    { "cdqe", ZYDIS_MNEMONIC_CDQE, SH_CDQE, W64, 0, 0, 0, 1, false },
    { "lea", ZYDIS_MNEMONIC_LEA, SH_LEA, W16 | W32 | W64, 0, 0, 0, 2, false },
    { "cmovcc", ZYDIS_MNEMONIC_INVALID, SH_CMOV, W16 | W32 | W64, 0, 0, 0, 5, false },
    { "setcc", ZYDIS_MNEMONIC_INVALID, SH_SETCC, W8, 0, 0, 0, 4, false },
    { "clc", ZYDIS_MNEMONIC_CLC, SH_CLC, 0, 0, FC, 0, 1, false },
    { "stc", ZYDIS_MNEMONIC_STC, SH_CLC, 0, 0, FC, 0, 1, false },
    { "xchg", ZYDIS_MNEMONIC_XCHG, SH_XCHG, WALL, 0, 0, 0, 1, false },
    { "push/pop", ZYDIS_MNEMONIC_PUSH, SH_PUSHPOP, W64, 0, 0, 0, 2, false },
    /* the executor leaves every flag undefined after arithmetic on rsp (an address's flags), more cautious than
     * the SDM: the model follows it */
    { "add/sub rsp", ZYDIS_MNEMONIC_SUB, SH_RSP, W64, 0, 0, FALL, 1, false },
    { "lea rsp", ZYDIS_MNEMONIC_LEA, SH_RSP, W64, 0, 0, 0, 1, false },
    /* add/sub on a pointer: flags undefined (as for rsp) */
    { "pointer", ZYDIS_MNEMONIC_LEA, SH_PTR, W64, 0, 0, 0, 3, false },
    { "movq/movd", ZYDIS_MNEMONIC_MOVQ, SH_XMM, W32 | W64, 0, 0, 0, 1, false },
    { "vmovq/vmovd", ZYDIS_MNEMONIC_VMOVQ, SH_XMM, W32 | W64, 0, 0, 0, 1, true },
    { "store", ZYDIS_MNEMONIC_MOV, SH_STORE, W64, 0, 0, 0, 1, false },
    { "nop", ZYDIS_MNEMONIC_NOP, SH_NOP, 0, 0, 0, 0, 1, false },
};
#define NFORMS (sizeof forms / sizeof forms[0])

/* ---- building a function ----------------------------------------------------------------------------------------- */

typedef struct {
    uint8_t code[16384];
    size_t len;
    size_t ret_at; /* offset of the final ret (the native copy puts pushfq; pop; mov there) */
    unsigned defined; /* flags defined now (the model) */
    unsigned depth;   /* body pushes outstanding */
    bool stored[NSTORE];
    int preg;       /* r11: 0 data (entry garbage), 1 into in, 2 into out */
    int64_t poff;   /* r11's byte offset from its array's start */
    unsigned uses[NFORMS];
} fn;

static ZydisEncoderRequest req(ZydisMnemonic mn, unsigned n)
{
    ZydisEncoderRequest r;
    memset(&r, 0, sizeof r);
    r.machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
    r.mnemonic = mn;
    r.operand_count = (ZyanU8)n;
    return r;
}
static void op_reg(ZydisEncoderRequest *r, unsigned i, ZydisRegister reg)
{
    r->operands[i].type = ZYDIS_OPERAND_TYPE_REGISTER;
    r->operands[i].reg.value = reg;
}
static void op_imm(ZydisEncoderRequest *r, unsigned i, int64_t v)
{
    r->operands[i].type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
    r->operands[i].imm.s = v;
}
static void op_mem(ZydisEncoderRequest *r, unsigned i, ZydisRegister base, int64_t disp, unsigned bytes)
{
    r->operands[i].type = ZYDIS_OPERAND_TYPE_MEMORY;
    r->operands[i].mem.base = base;
    r->operands[i].mem.displacement = disp;
    r->operands[i].mem.size = (ZyanU16)bytes;
}

/* a pending group of instructions: encoded into a scratch buffer, appended only when all encode */
typedef struct {
    uint8_t buf[128];
    size_t len;
    bool ok;
} group;

static void emit(group *g, const ZydisEncoderRequest *r)
{
    if (!g->ok)
        return;
    ZyanUSize n = sizeof g->buf - g->len;
    if (ZYAN_FAILED(ZydisEncoderEncodeInstruction(r, g->buf + g->len, &n)))
        g->ok = false;
    else
        g->len += n;
}

static void commit(fn *F, const group *g)
{
    memcpy(F->code + F->len, g->buf, g->len);
    F->len += g->len;
}

static void emit_now(fn *F, const ZydisEncoderRequest *r)
{
    group g = { .len = 0, .ok = true };
    emit(&g, r);
    if (!g.ok) {
        fprintf(stderr, "cpu_fuzz: the fixed part of a function does not encode (mnemonic %s)\n",
                ZydisMnemonicGetString(r->mnemonic));
        exit(1);
    }
    commit(F, &g);
}

/* an r/m operand for width w: a body register, a stack slot (any byte offset inside the frame that fits) or, for
 * 64-bit reads only, an input limb; the chosen register id in *id (-1 for memory) */
typedef struct {
    bool mem;
    ZydisRegister reg;
    int id;
    bool high;
} rm;

static int body_reg(void)
{
    return body[rn(NBODY)];
}

/* reg_operand — a body register of width w; for bytes, sometimes ah ch dh bh (when legacy_only is set, only
 * registers that need no REX prefix) */
static rm reg_operand(unsigned w, bool allow_high, bool legacy_only)
{
    rm o = { false, 0, 0, false };
    if (w == 8 && allow_high && rn(4) == 0) {
        o.id = (int)rn(4);
        o.high = true;
    } else if (legacy_only) {
        static const int leg[4] = { RAX, RCX, RDX, RBX };
        o.id = leg[rn(4)];
    } else
        o.id = body_reg();
    o.reg = gpr(o.id, w, o.high);
    return o;
}

static void put_rm(fn *F, ZydisEncoderRequest *r, unsigned i, const rm *o, unsigned w, bool input_ok)
{
    if (!o->mem) {
        op_reg(r, i, o->reg);
        return;
    }
    unsigned bytes = w / 8;
    /* a 64-bit operand may also be an output limb stored before (read back, or read-modify-write) */
    if (w == 64 && rn(4) == 0) {
        unsigned k = rn(NSTORE);
        if (F->stored[k]) {
            op_mem(r, i, ZYDIS_REGISTER_RDI, 8 * (OUT_STORE + (int64_t)k), 8);
            return;
        }
    }
    if (input_ok && w == 64 && rn(3) == 0) {
        op_mem(r, i, ZYDIS_REGISTER_RSI, 8 * (int64_t)rn(NIN), 8);
        return;
    }
    unsigned off = rn(8 * NSLOT - bytes + 1);
    op_mem(r, i, ZYDIS_REGISTER_RSP, (int64_t)off - RED + 8 * (int64_t)F->depth, bytes);
}

static unsigned pick_width(unsigned mask)
{
    static const unsigned ws[4] = { 8, 16, 32, 64 };
    for (;;) {
        unsigned i = rn(4);
        if (mask >> i & 1)
            return ws[i];
    }
}

/* a shift count: small, around the width, or anything up to 255 */
static unsigned count_val(unsigned w)
{
    switch (rn(6)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return w - 1 + rn(3); /* w-1, w, w+1 */
    case 3: return rn(2) ? 64 : 32;
    case 4: return rn(256);
    default: return 1 + rn(w - 1);
    }
}

/* gen_one — one instruction (or a short group) of form fo into g; *def the flags after it. false: not possible
 * now (a flag it reads is undefined, ...) */
static bool gen_one(fn *F, const form *fo, group *g, unsigned *def)
{
    unsigned w = fo->widths ? pick_width(fo->widths) : 64;
    ZydisEncoderRequest r;
    *def = F->defined;
    if (fo->reads & ~F->defined)
        return false;
    switch (fo->sh) {
    case SH_ALU: {
        bool high = w == 8 && rn(4) == 0;
        rm d = reg_operand(w, high, high), s = reg_operand(w, high, high);
        int kind = (int)rn(6); /* 0-1 r,r  2 r,imm  3 r,m  4 m,r  5 m,imm */
        if (fo->mn == ZYDIS_MNEMONIC_TEST && kind == 3)
            kind = 4; /* test m, r is the only memory form */
        if (kind == 3)
            s.mem = true;
        if (kind == 4 || kind == 5)
            d.mem = true;
        r = req(fo->mn, 2);
        /* cmp and test only read their first operand: it may be an input limb */
        put_rm(F, &r, 0, &d, w, fo->mn == ZYDIS_MNEMONIC_CMP || fo->mn == ZYDIS_MNEMONIC_TEST);
        if (kind == 2 || kind == 5)
            op_imm(&r, 1, imm_val(w));
        else
            put_rm(F, &r, 1, &s, w, true);
        emit(g, &r);
        *def = (F->defined | fo->def) & ~fo->undef;
        return true;
    }
    case SH_UNARY: {
        rm d = reg_operand(w, true, false);
        d.mem = rn(4) == 0;
        r = req(fo->mn, 1);
        put_rm(F, &r, 0, &d, w, false);
        emit(g, &r);
        *def = (F->defined | fo->def) & ~fo->undef;
        return true;
    }
    case SH_MUL:
    case SH_IMUL2:
    case SH_IMUL3: {
        rm s = reg_operand(w, fo->sh == SH_MUL, false), d = reg_operand(w, false, false);
        s.mem = rn(4) == 0;
        if (fo->sh == SH_MUL) {
            r = req(fo->mn, 1);
            put_rm(F, &r, 0, &s, w, true);
        } else {
            r = req(fo->mn, fo->sh == SH_IMUL2 ? 2 : 3);
            op_reg(&r, 0, d.reg);
            put_rm(F, &r, 1, &s, w, true);
            if (fo->sh == SH_IMUL3)
                op_imm(&r, 2, imm_val(w));
        }
        emit(g, &r);
        *def = (F->defined | fo->def) & ~fo->undef;
        return true;
    }
    case SH_MULX: {
        rm s = reg_operand(w, false, false);
        s.mem = rn(4) == 0;
        r = req(fo->mn, 3);
        op_reg(&r, 0, gpr(body_reg(), w, false));
        op_reg(&r, 1, gpr(body_reg(), w, false));
        put_rm(F, &r, 2, &s, w, true);
        emit(g, &r);
        return true;
    }
    case SH_ADX: {
        rm s = reg_operand(w, false, false);
        s.mem = rn(4) == 0;
        r = req(fo->mn, 2);
        op_reg(&r, 0, gpr(body_reg(), w, false));
        put_rm(F, &r, 1, &s, w, true);
        emit(g, &r);
        *def = F->defined | fo->def;
        return true;
    }
    case SH_SHIFT:
    case SH_SHXD: {
        if (fo->sh == SH_SHXD && w == 8)
            w = 16;
        unsigned c = count_val(w), k = c & (w == 64 ? 63u : 31u);
        if (fo->sh == SH_SHXD && k > w) /* 16-bit double shifts past the width: undefined result (UNSUPPORTED) */
            return false;
        int how = (int)rn(3); /* 0 imm, 1 cl, 2 the implicit 1 (shifts) */
        if (how == 2 && fo->sh == SH_SHIFT)
            c = k = 1;
        bool high = fo->sh == SH_SHIFT && w == 8 && rn(4) == 0;
        rm d = reg_operand(w, high, high);
        d.mem = rn(4) == 0;
        if (how == 1) { /* the count into cl (mov $c, %cl keeps rcx's upper bits) or ecx */
            r = req(ZYDIS_MNEMONIC_MOV, 2);
            op_reg(&r, 0, rn(2) ? ZYDIS_REGISTER_CL : ZYDIS_REGISTER_ECX);
            op_imm(&r, 1, (int64_t)c);
            emit(g, &r); /* the shifted register may be rcx itself */
        }
        r = req(fo->mn, fo->sh == SH_SHIFT ? 2 : 3);
        put_rm(F, &r, 0, &d, w, false);
        unsigned ci = 1;
        if (fo->sh == SH_SHXD) {
            op_reg(&r, 1, gpr(high ? RAX : body_reg(), w, false));
            ci = 2;
        }
        if (how == 1)
            op_reg(&r, ci, ZYDIS_REGISTER_CL);
        else
            op_imm(&r, ci, (int64_t)c);
        emit(g, &r);
        if (k == 0)
            return true; /* "If the count is 0, the flags are not affected" */
        unsigned nd = FP | FZ | FS, nu = FA;
        /* CF: the last bit shifted out; undefined for shl/shr counts of at least the width (SDM); sar too (the
         * executor's caution); double shifts: defined up to the width */
        if (fo->sh == SH_SHXD || k < w)
            nd |= FC;
        else
            nu |= FC;
        if (k == 1)
            nd |= FO;
        else
            nu |= FO;
        *def = (F->defined | nd) & ~nu;
        return true;
    }
    case SH_SHX:
    case SH_BZHI: {
        int cr = body_reg();
        unsigned c = fo->sh == SH_BZHI && rn(2) ? rn(300) : count_val(w);
        r = req(ZYDIS_MNEMONIC_MOV, 2);
        bool byte = rn(2);
        op_reg(&r, 0, gpr(cr, byte ? 8 : 32, false));
        op_imm(&r, 1, (int64_t)(byte ? c & 0xff : c));
        emit(g, &r);
        rm s = reg_operand(w, false, false);
        s.mem = rn(4) == 0;
        r = req(fo->mn, 3);
        op_reg(&r, 0, gpr(body_reg(), w, false));
        put_rm(F, &r, 1, &s, w, true);
        op_reg(&r, 2, gpr(cr, w, false));
        emit(g, &r);
        if (fo->sh == SH_BZHI)
            *def = (F->defined | fo->def) & ~fo->undef;
        return true;
    }
    case SH_MOV: {
        bool high = w == 8 && rn(4) == 0;
        rm d = reg_operand(w, high, high), s = reg_operand(w, high, high);
        int kind = (int)rn(5); /* 0-1 r,r  2 r,imm  3 r,m  4 m,r / m,imm */
        if (kind == 3)
            s.mem = true;
        if (kind == 4)
            d.mem = true;
        r = req(fo->mn, 2);
        put_rm(F, &r, 0, &d, w, false);
        if (kind == 2 || (kind == 4 && rn(2))) {
            int64_t v = imm_val(w);
            if (w == 64 && kind == 2 && rn(3) == 0)
                v = (int64_t)word(); /* movabs */
            op_imm(&r, 1, v);
        } else
            put_rm(F, &r, 1, &s, w, true);
        emit(g, &r);
        return true;
    }
    case SH_MOVX: {
        unsigned from = fo->mn == ZYDIS_MNEMONIC_MOVSXD ? 32 : (w == 16 || rn(2) ? 8 : 16);
        bool high = from == 8 && rn(4) == 0;
        rm s = reg_operand(from, high, high), d = reg_operand(w, false, high);
        s.mem = rn(4) == 0;
        r = req(fo->mn, 2);
        op_reg(&r, 0, d.reg);
        put_rm(F, &r, 1, &s, from, false);
        emit(g, &r);
        return true;
    }
    case SH_CDQE:
        r = req(fo->mn, 0);
        emit(g, &r);
        return true;
    case SH_LEA: {
        r = req(fo->mn, 2);
        op_reg(&r, 0, gpr(body_reg(), w, false));
        r.operands[1].type = ZYDIS_OPERAND_TYPE_MEMORY;
        r.operands[1].mem.base = rn(5) ? R64[body_reg()] : ZYDIS_REGISTER_NONE;
        if (rn(3) || r.operands[1].mem.base == ZYDIS_REGISTER_NONE) {
            r.operands[1].mem.index = R64[body_reg()];
            r.operands[1].mem.scale = (ZyanU8)(1u << rn(4));
        }
        r.operands[1].mem.displacement = rn(2) ? (int64_t)rn(256) - 128 : (int64_t)(int32_t)rng();
        r.operands[1].mem.size = 8;
        emit(g, &r);
        return true;
    }
    case SH_CMOV:
    case SH_SETCC: {
        unsigned cc = rn(16);
        for (unsigned t = 0; t < 16 && (cc_reads[cc] & ~F->defined); t++)
            cc = (cc + 1) & 15;
        if (cc_reads[cc] & ~F->defined)
            return false;
        if (fo->sh == SH_CMOV) {
            rm s = reg_operand(w, false, false);
            s.mem = rn(4) == 0;
            r = req(CMOV[cc], 2);
            op_reg(&r, 0, gpr(body_reg(), w, false));
            put_rm(F, &r, 1, &s, w, true);
        } else {
            rm d = reg_operand(8, true, false);
            d.mem = rn(5) == 0;
            r = req(SETCC[cc], 1);
            put_rm(F, &r, 0, &d, 8, false);
        }
        emit(g, &r);
        return true;
    }
    case SH_CLC:
        r = req(fo->mn, 0);
        emit(g, &r);
        *def = F->defined | FC;
        return true;
    case SH_XCHG: {
        bool high = w == 8 && rn(4) == 0;
        rm d = reg_operand(w, high, high), s = reg_operand(w, high, high);
        s.mem = rn(3) == 0;
        r = req(fo->mn, 2);
        op_reg(&r, 0, d.reg);
        put_rm(F, &r, 1, &s, w, false);
        emit(g, &r);
        return true;
    }
    case SH_PUSHPOP: {
        rm o = reg_operand(64, false, false);
        o.mem = rn(4) == 0;
        if (F->depth < 4 && (F->depth == 0 || rn(2))) {
            r = req(ZYDIS_MNEMONIC_PUSH, 1);
            if (rn(5) == 0)
                op_imm(&r, 0, imm_val(32));
            else
                put_rm(F, &r, 0, &o, 64, false);
            emit(g, &r);
            F->depth++; /* undone by the caller when the group does not encode */
        } else {
            /* pop m with an rsp base: the address is computed after rsp is incremented */
            F->depth--;
            r = req(ZYDIS_MNEMONIC_POP, 1);
            put_rm(F, &r, 0, &o, 64, false);
            emit(g, &r);
        }
        return true;
    }
    case SH_RSP: {
        bool down = F->depth < 4 && (F->depth == 0 || rn(2));
        if (fo->mn == ZYDIS_MNEMONIC_LEA) {
            r = req(ZYDIS_MNEMONIC_LEA, 2);
            op_reg(&r, 0, ZYDIS_REGISTER_RSP);
            op_mem(&r, 1, ZYDIS_REGISTER_RSP, down ? -8 : 8, 8);
        } else {
            r = req(down ? ZYDIS_MNEMONIC_SUB : ZYDIS_MNEMONIC_ADD, 2);
            op_reg(&r, 0, ZYDIS_REGISTER_RSP);
            op_imm(&r, 1, 8);
        }
        emit(g, &r);
        if (down)
            F->depth++;
        else
            F->depth--;
        *def = F->defined & ~fo->undef;
        return true;
    }
    case SH_PTR: {
        unsigned what = rn(6);
        if (F->preg == 0 || what == 0) { /* point r11 at in or out, at a limb or a little outside */
            int reg = rn(2) ? 1 : 2;
            int64_t off = 8 * ((int64_t)rn(reg == 1 ? NIN + 4 : OUTLEN + 4) - 2);
            ZydisRegister base = reg == 1 ? ZYDIS_REGISTER_RSI : ZYDIS_REGISTER_RDI;
            switch (rn(3)) {
            case 0:
                r = req(ZYDIS_MNEMONIC_LEA, 2);
                op_reg(&r, 0, R64[PTR]);
                op_mem(&r, 1, base, off, 8);
                emit(g, &r);
                break;
            case 1:
                r = req(ZYDIS_MNEMONIC_MOV, 2);
                op_reg(&r, 0, R64[PTR]);
                op_reg(&r, 1, base);
                emit(g, &r);
                r = req(rn(2) ? ZYDIS_MNEMONIC_ADD : ZYDIS_MNEMONIC_SUB, 2);
                op_reg(&r, 0, R64[PTR]);
                op_imm(&r, 1, r.mnemonic == ZYDIS_MNEMONIC_ADD ? off : -off);
                emit(g, &r);
                *def = 0; /* arithmetic on a pointer: flags undefined */
                break;
            default: { /* lea (base, idx, 8): idx a body register holding a constant */
                int idx = body_reg();
                r = req(ZYDIS_MNEMONIC_MOV, 2);
                op_reg(&r, 0, R64[idx]); /* sign-extended: the index may be negative */
                op_imm(&r, 1, off / 8 - 1);
                emit(g, &r);
                r = req(ZYDIS_MNEMONIC_LEA, 2);
                op_reg(&r, 0, R64[PTR]);
                r.operands[1].type = ZYDIS_OPERAND_TYPE_MEMORY;
                r.operands[1].mem.base = base;
                r.operands[1].mem.index = R64[idx];
                r.operands[1].mem.scale = 8;
                r.operands[1].mem.displacement = 8;
                r.operands[1].mem.size = 8;
                emit(g, &r);
                break;
            }
            }
            F->preg = reg;
            F->poff = off;
            return true;
        }
        int64_t len = F->preg == 1 ? NIN : OUTLEN;
        if (what == 1) { /* move it by a constant */
            int64_t d = 8 * ((int64_t)rn(9) - 4);
            if (F->poff + d < -16 || F->poff + d > 8 * len + 16)
                d = -d;
            if (rn(2)) {
                r = req(ZYDIS_MNEMONIC_LEA, 2);
                op_reg(&r, 0, R64[PTR]);
                op_mem(&r, 1, R64[PTR], d, 8);
            } else {
                r = req(ZYDIS_MNEMONIC_ADD, 2);
                op_reg(&r, 0, R64[PTR]);
                op_imm(&r, 1, d);
                *def = 0;
            }
            emit(g, &r);
            F->poff += d;
            return true;
        }
        if (F->preg == 2 && what <= 3) { /* a store to a scratch limb through it */
            unsigned k = rn(NSTORE);
            r = req(ZYDIS_MNEMONIC_MOV, 2);
            op_mem(&r, 0, R64[PTR], 8 * (OUT_STORE + (int64_t)k) - F->poff, 8);
            op_reg(&r, 1, R64[body_reg()]);
            emit(g, &r);
            F->stored[k] = true;
            return true;
        }
        if (F->preg == 2) { /* a load of a stored scratch limb */
            unsigned k = rn(NSTORE);
            if (!F->stored[k])
                return false;
            r = req(ZYDIS_MNEMONIC_ADD, 2);
            op_reg(&r, 0, R64[body_reg()]);
            op_mem(&r, 1, R64[PTR], 8 * (OUT_STORE + (int64_t)k) - F->poff, 8);
            emit(g, &r);
            *def = FALL;
            return true;
        }
        if (what == 5) { /* an input limb through rsi and a constant index register */
            int idx = body_reg(), dst = body_reg();
            unsigned limb = rn(NIN);
            r = req(ZYDIS_MNEMONIC_MOV, 2);
            op_reg(&r, 0, R32[idx]);
            op_imm(&r, 1, (int64_t)limb + 1);
            emit(g, &r);
            r = req(ZYDIS_MNEMONIC_MOV, 2);
            op_reg(&r, 0, R64[dst]);
            r.operands[1].type = ZYDIS_OPERAND_TYPE_MEMORY;
            r.operands[1].mem.base = ZYDIS_REGISTER_RSI;
            r.operands[1].mem.index = R64[idx];
            r.operands[1].mem.scale = 8;
            r.operands[1].mem.displacement = -8;
            r.operands[1].mem.size = 8;
            emit(g, &r);
            return true;
        }
        r = req(ZYDIS_MNEMONIC_MOV, 2); /* an input limb through r11 */
        op_reg(&r, 0, R64[body_reg()]);
        op_mem(&r, 1, R64[PTR], 8 * (int64_t)rn(NIN) - F->poff, 8);
        emit(g, &r);
        return true;
    }
    case SH_XMM: {
        bool vex = fo->mn == ZYDIS_MNEMONIC_VMOVQ;
        ZydisMnemonic mn = w == 64 ? (vex ? ZYDIS_MNEMONIC_VMOVQ : ZYDIS_MNEMONIC_MOVQ)
                                   : (vex ? ZYDIS_MNEMONIC_VMOVD : ZYDIS_MNEMONIC_MOVD);
        ZydisRegister x = (ZydisRegister)(ZYDIS_REGISTER_XMM0 + rn(NXMM));
        r = req(mn, 2);
        if (rn(2)) {
            op_reg(&r, 0, x);
            op_reg(&r, 1, gpr(body_reg(), w, false));
        } else {
            op_reg(&r, 0, gpr(body_reg(), w, false));
            op_reg(&r, 1, x);
        }
        emit(g, &r);
        return true;
    }
    case SH_STORE: {
        unsigned k = rn(NSTORE);
        r = req(ZYDIS_MNEMONIC_MOV, 2);
        if (F->stored[k] && rn(2)) {
            op_reg(&r, 0, R64[body_reg()]);
            op_mem(&r, 1, ZYDIS_REGISTER_RDI, 8 * (OUT_STORE + (int64_t)k), 8);
        } else {
            op_mem(&r, 0, ZYDIS_REGISTER_RDI, 8 * (OUT_STORE + (int64_t)k), 8);
            op_reg(&r, 1, R64[body_reg()]);
            F->stored[k] = true; /* kept even when the group fails: a limb marked stored and never stored is caught
                                    by the comparison (poison) */
        }
        emit(g, &r);
        return true;
    }
    default:
        r = req(ZYDIS_MNEMONIC_NOP, 0);
        emit(g, &r);
        return true;
    }
}

static unsigned total_weight;

static const form *pick_form(void)
{
    unsigned t = rn(total_weight);
    for (size_t i = 0; i < NFORMS; i++) {
        if (t < forms[i].weight)
            return &forms[i];
        t -= forms[i].weight;
    }
    return &forms[0];
}

static void build(fn *F, unsigned nbody)
{
    ZydisEncoderRequest r;
    memset(F, 0, sizeof *F);
    for (int i = 0; i < 6; i++) {
        r = req(ZYDIS_MNEMONIC_PUSH, 1);
        op_reg(&r, 0, R64[saved[i]]);
        emit_now(F, &r);
    }
    r = req(ZYDIS_MNEMONIC_LEA, 2);
    op_reg(&r, 0, ZYDIS_REGISTER_RSP);
    op_mem(&r, 1, ZYDIS_REGISTER_RSP, -(8 * NSLOT - RED), 8);
    emit_now(F, &r);
    for (int i = 0; i < NSLOT + NXMM; i++) {
        r = req(ZYDIS_MNEMONIC_MOV, 2);
        op_reg(&r, 0, ZYDIS_REGISTER_RAX);
        op_mem(&r, 1, ZYDIS_REGISTER_RSI, 8 * (IN_SLOT + i), 8);
        emit_now(F, &r);
        if (i < NSLOT) {
            r = req(ZYDIS_MNEMONIC_MOV, 2);
            op_mem(&r, 0, ZYDIS_REGISTER_RSP, 8 * i - RED, 8);
            op_reg(&r, 1, ZYDIS_REGISTER_RAX);
        } else {
            r = req(ZYDIS_MNEMONIC_MOVQ, 2);
            op_reg(&r, 0, (ZydisRegister)(ZYDIS_REGISTER_XMM0 + (i - NSLOT)));
            op_reg(&r, 1, ZYDIS_REGISTER_RAX);
        }
        emit_now(F, &r);
    }
    for (int i = 0; i < NBODY; i++) {
        r = req(ZYDIS_MNEMONIC_MOV, 2);
        op_reg(&r, 0, R64[body[i]]);
        op_mem(&r, 1, ZYDIS_REGISTER_RSI, 8 * i, 8);
        emit_now(F, &r);
    }
    for (unsigned n = 0; n < nbody;) {
        const form *fo = pick_form();
        group g = { .len = 0, .ok = true };
        unsigned def = F->defined, depth = F->depth;
        int preg = F->preg;
        int64_t poff = F->poff;
        if (!gen_one(F, fo, &g, &def) || !g.ok) {
            /* not possible now, or a combination the instruction set does not have (ah with a REX prefix) */
            F->depth = depth;
            F->preg = preg;
            F->poff = poff;
            continue;
        }
        commit(F, &g);
        F->defined = def;
        F->uses[fo - forms]++;
        n++;
    }
    while (F->depth) {
        r = req(ZYDIS_MNEMONIC_POP, 1);
        op_reg(&r, 0, R64[body_reg()]);
        emit_now(F, &r);
        F->depth--;
    }
    /* the state into out: registers, slots, xmm (through rax, stored first) */
    for (int i = 0; i < NBODY; i++) {
        r = req(ZYDIS_MNEMONIC_MOV, 2);
        op_mem(&r, 0, ZYDIS_REGISTER_RDI, 8 * i, 8);
        op_reg(&r, 1, R64[body[i]]);
        emit_now(F, &r);
    }
    for (int i = 0; i < NSLOT + NXMM; i++) {
        if (i < NSLOT) {
            r = req(ZYDIS_MNEMONIC_MOV, 2);
            op_reg(&r, 0, ZYDIS_REGISTER_RAX);
            op_mem(&r, 1, ZYDIS_REGISTER_RSP, 8 * i - RED, 8);
        } else {
            r = req(ZYDIS_MNEMONIC_MOVQ, 2);
            op_reg(&r, 0, ZYDIS_REGISTER_RAX);
            op_reg(&r, 1, (ZydisRegister)(ZYDIS_REGISTER_XMM0 + (i - NSLOT)));
        }
        emit_now(F, &r);
        r = req(ZYDIS_MNEMONIC_MOV, 2);
        op_mem(&r, 0, ZYDIS_REGISTER_RDI, 8 * (OUT_SLOT + i), 8);
        op_reg(&r, 1, ZYDIS_REGISTER_RAX);
        emit_now(F, &r);
    }
    r = req(ZYDIS_MNEMONIC_LEA, 2);
    op_reg(&r, 0, ZYDIS_REGISTER_RSP);
    op_mem(&r, 1, ZYDIS_REGISTER_RSP, 8 * NSLOT - RED, 8);
    emit_now(F, &r);
    for (int i = 5; i >= 0; i--) {
        r = req(ZYDIS_MNEMONIC_POP, 1);
        op_reg(&r, 0, R64[saved[i]]);
        emit_now(F, &r);
    }
    F->ret_at = F->len;
    r = req(ZYDIS_MNEMONIC_RET, 0);
    emit_now(F, &r);
}

/* native — the copy that runs on the CPU: the function with pushfq; pop %rax; mov %rax, 8*OUT_FLAGS(%rdi) before
 * its ret (rax was stored already; the flags are those the executor sees at ret) */
static void native_copy(const fn *F, uint8_t *out, size_t *len)
{
    fn T;
    memcpy(T.code, F->code, F->ret_at);
    T.len = F->ret_at;
    ZydisEncoderRequest r = req(ZYDIS_MNEMONIC_PUSHFQ, 0);
    emit_now(&T, &r);
    r = req(ZYDIS_MNEMONIC_POP, 1);
    op_reg(&r, 0, ZYDIS_REGISTER_RAX);
    emit_now(&T, &r);
    r = req(ZYDIS_MNEMONIC_MOV, 2);
    op_mem(&r, 0, ZYDIS_REGISTER_RDI, 8 * OUT_FLAGS, 8);
    op_reg(&r, 1, ZYDIS_REGISTER_RAX);
    emit_now(&T, &r);
    r = req(ZYDIS_MNEMONIC_RET, 0);
    emit_now(&T, &r);
    memcpy(out, T.code, T.len);
    *len = T.len;
}

/* ---- running and comparing --------------------------------------------------------------------------------------- */

static unsigned nsamples = 32;
static unsigned last_uses[NFORMS]; /* the forms in the last function built */
static bool verbose;
static unsigned long long ncompared_values, nflags_compared;

static void print_function(const check_insn_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        char t[160], hex[48];
        size_t o = 0;
        for (unsigned b = 0; b < l->insns[i].len && o + 3 < sizeof hex; b++)
            o += (size_t)snprintf(hex + o, sizeof hex - o, "%02x ", l->insns[i].bytes[b]);
        fprintf(stderr, "  %4zu  0x%04llx  %-30s %s\n", i, (unsigned long long)l->insns[i].addr, hex,
                check_insn_format(&l->insns[i], t, sizeof t));
    }
}

static void print_inputs(const uint64_t *in)
{
    fprintf(stderr, "  inputs (in[0..%d]; rax rcx rdx rbx rbp r8 r9 r10 r12..r15 = in[0..11], slots in[13..20], xmm0..3 "
                    "in[21..24]):\n",
            NIN - 1);
    for (int i = 0; i < NIN; i++)
        fprintf(stderr, "    in[%2d] = 0x%016" PRIx64 "%s", i, in[i], i % 2 ? "\n" : "");
}

static const char *out_name(unsigned i, char *buf, size_t len)
{
    static const char *const names[NBODY] = { "rax", "rcx", "rdx", "rbx", "rbp", "r8",
                                              "r9",  "r10", "r12", "r13", "r14", "r15" };
    if (i < NBODY)
        snprintf(buf, len, "%s", names[i]);
    else if (i < OUT_XMM)
        snprintf(buf, len, "stack slot %u (rsp%+d below the body)", i - OUT_SLOT, 8 * (int)(i - OUT_SLOT) - RED);
    else if (i < OUT_STORE)
        snprintf(buf, len, "xmm%u", i - OUT_XMM);
    else
        snprintf(buf, len, "out[%u] (stored by the body)", i);
    return buf;
}

static ir_func *make_func(void)
{
    ir_func *f = ir_func_new("cpu_fuzz");
    if (!f || ir_array_add(f, "out1", true, OUTLEN, NULL, NULL) < 0 || ir_array_add(f, "in1", false, NIN, NULL, NULL) < 0) {
        fprintf(stderr, "cpu_fuzz: out of memory\n");
        exit(1);
    }
    return f;
}

typedef void (*native_fn)(uint64_t *out, const uint64_t *in);

/* run_one — build function number idx of the seed, execute it both ways; 0 agree, 1 a failure (printed) */
static int run_one(uint64_t seed, unsigned idx, unsigned len, const ir_func *f)
{
    static fn F;
    /* function idx's own stream: (seed, idx) hashed, so that neighbouring functions share nothing */
    rng_state = seed;
    rng_state = rng() ^ (0xd1b54a32d192ed03ull * (idx + 1));
    rng_state = rng();
    build(&F, len);
    memcpy(last_uses, F.uses, sizeof last_uses);
    int fail = 0;
    char err[256];
    check_insn_list l;
    if (check_decode(F.code, F.len, 0, &l, err, sizeof err) != 0) {
        fprintf(stderr, "FAIL: function %u (seed %llu): does not decode: %s\n", idx, (unsigned long long)seed, err);
        return 1;
    }
    ex_ctx *x = ex_ctx_new();
    if (!x) {
        fprintf(stderr, "cpu_fuzz: out of memory\n");
        exit(1);
    }
    uint32_t argmap[2] = { 0, 1 };
    ex_id outx[OUTLEN];
    ex_id *out[2] = { outx, NULL };
    check_result res;
    memset(&res, 0, sizeof res);
    check_exec_obs obs;
    memset(&obs, 0, sizeof obs);
    int rc = check_exec_observed(x, f, argmap, &l, false, out, &res, &obs);
    uint8_t ncode[16384 + 64];
    size_t nlen = 0;
    size_t maplen = 0;
    void *mem = NULL;
    ir_u128 *vals = NULL;
    uint64_t in[NIN], o[OUTLEN];
    if (rc != 0) {
        fprintf(stderr, "FAIL: function %u (seed %llu): the executor rejects it: %s: %s\n", idx,
                (unsigned long long)seed, check_rule_name(res.rule), res.reason);
        fail = 1;
        goto done;
    }
    native_copy(&F, ncode, &nlen);
    mem = encode_exec_map(ncode, nlen, &maplen);
    vals = malloc(((size_t)ex_count(x) + 1) * sizeof *vals);
    if (!mem || !vals) {
        fprintf(stderr, "cpu_fuzz: cannot map code or out of memory\n");
        exit(1);
    }
    for (unsigned s = 0; s < nsamples && !fail; s++) {
        for (int i = 0; i < NIN; i++)
            in[i] = word();
        for (int i = 0; i < OUTLEN; i++)
            o[i] = POISON;
        ((native_fn)mem)(o, in);
        const uint64_t *inp[2] = { o, in };
        if (ex_eval_all(x, inp, vals) != 0) {
            fprintf(stderr, "cpu_fuzz: out of memory\n");
            exit(1);
        }
        char nm[64], e[512];
        for (unsigned i = 0; i < OUT_FLAGS && fail < 4; i++) {
            if (!outx[i]) {
                if (o[i] != POISON) {
                    fprintf(stderr, "FAIL: function %u: %s stored by the CPU, never by the executor\n", idx,
                            out_name(i, nm, sizeof nm));
                    fail++;
                }
                continue;
            }
            ncompared_values++;
            if (vals[outx[i]] != (ir_u128)o[i]) {
                ex_print(x, outx[i], e, sizeof e);
                fprintf(stderr, "FAIL: function %u (seed %llu), sample %u: %s: CPU 0x%016" PRIx64
                                ", executor 0x%016" PRIx64 " (expression %s)\n",
                        idx, (unsigned long long)seed, s, out_name(i, nm, sizeof nm), o[i], (uint64_t)vals[outx[i]],
                        e);
                fail++;
            }
        }
        uint64_t fl = o[OUT_FLAGS];
        for (int k = 0; k < CHECK_EXEC_NFLAGS && fail < 4; k++) {
            bool model = F.defined >> k & 1, known = obs.flag[k] != 0;
            unsigned cpu = (unsigned)(fl >> rflags_bit[k] & 1);
            if (known && !model) {
                ex_print(x, obs.flag[k], e, sizeof e);
                fprintf(stderr, "FAIL: function %u (seed %llu): the executor claims %s = %s at ret, which the SDM "
                                "leaves undefined there\n",
                        idx, (unsigned long long)seed, flag_names[k], e);
                fail++;
            } else if (!known && model && s == 0) {
                fprintf(stderr, "FAIL: function %u (seed %llu): %s is defined at ret (SDM) but unknown to the "
                                "executor\n",
                        idx, (unsigned long long)seed, flag_names[k]);
                fail++;
            } else if (known) {
                nflags_compared++;
                if (vals[obs.flag[k]] != (ir_u128)cpu) {
                    ex_print(x, obs.flag[k], e, sizeof e);
                    fprintf(stderr, "FAIL: function %u (seed %llu), sample %u: %s at ret: CPU %u, executor %u "
                                    "(expression %s)\n",
                            idx, (unsigned long long)seed, s, flag_names[k], cpu, (unsigned)vals[obs.flag[k]], e);
                    fail++;
                }
            }
        }
        if (fail)
            print_inputs(in);
    }
done:
    if (fail) {
        fprintf(stderr, "  the function (rebuild: --seed %llu --first %u --iters 1 --len %u):\n",
                (unsigned long long)seed, idx, len);
        print_function(&l);
    } else if (verbose) {
        fprintf(stderr, "function %u:\n", idx);
        print_function(&l);
    }
    free(vals);
    encode_exec_unmap(mem, maplen);
    ex_ctx_free(x);
    check_insn_list_free(&l);
    return fail ? 1 : 0;
}

/* CPUID leaf 7: BMI1 (ebx bit 3), BMI2 (bit 8), ADX (bit 19); AVX (leaf 1 ecx bit 28) for vmovq */
static bool cpu_ok(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b >> 3 & 1) || !(b >> 8 & 1) || !(b >> 19 & 1))
        return false;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 28 & 1))
        return false;
    return true;
}

static unsigned long parse_num(const char *opt, const char *v)
{
    char *end = NULL;
    unsigned long long n = strtoull(v, &end, 0);
    if (!v[0] || *end || v[0] == '-') {
        fprintf(stderr, "test_check_cpu_fuzz: %s: '%s' is not a number\n", opt, v);
        exit(2);
    }
    return (unsigned long)n;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    unsigned iters = 3000, len = 40, first = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--verbose")) {
            verbose = true;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "usage: test_check_cpu_fuzz [--seed N] [--iters N] [--first N] [--samples N] [--len N] "
                            "[--verbose]\n");
            return 2;
        }
        unsigned long v = parse_num(argv[i], argv[i + 1]);
        if (!strcmp(argv[i], "--seed"))
            seed = v;
        else if (!strcmp(argv[i], "--iters"))
            iters = (unsigned)v;
        else if (!strcmp(argv[i], "--first"))
            first = (unsigned)v;
        else if (!strcmp(argv[i], "--samples"))
            nsamples = (unsigned)v;
        else if (!strcmp(argv[i], "--len") && v >= 1 && v <= 200)
            len = (unsigned)v;
        else {
            fprintf(stderr, "test_check_cpu_fuzz: unknown option or bad value: %s %s\n", argv[i], argv[i + 1]);
            return 2;
        }
        i++;
    }
    if (!cpu_ok()) {
        printf("SKIP: this CPU lacks BMI2, ADX or AVX (the forms mulx adcx adox shlx bzhi vmovq)\n");
        return 77;
    }
    for (size_t i = 0; i < NFORMS; i++)
        total_weight += forms[i].weight;
    printf("cpu_fuzz: seed %llu, functions %u..%u, %u body instructions, %u inputs each\n", (unsigned long long)seed,
           first, first + iters - 1, len, nsamples);
    fflush(stdout);
    ir_func *f = make_func();
    clock_t t0 = clock();
    unsigned nfail = 0;
    unsigned long long uses[NFORMS] = { 0 };
    for (unsigned k = 0; k < iters && nfail < 5; k++) {
        nfail += (unsigned)run_one(seed, first + k, len, f);
        for (size_t i = 0; i < NFORMS; i++)
            uses[i] += last_uses[i];
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("cpu_fuzz: %u functions, %llu values and %llu flags compared, %u failing; %.2f s CPU\n", iters,
           ncompared_values, nflags_compared, nfail, secs);
    /* every form of the table was generated (a form the generator can never place tests nothing) */
    for (size_t i = 0; i < NFORMS && iters >= 200; i++)
        if (!uses[i]) {
            printf("FAIL: form %s (table line %zu) was never generated\n", forms[i].name, i);
            nfail++;
        }
    if (verbose)
        for (size_t i = 0; i < NFORMS; i++)
            printf("  %-12s %llu\n", forms[i].name, uses[i]);
    ir_func_free(f);
    return nfail ? 1 : 0;
}
