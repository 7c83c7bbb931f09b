/* emit_asm.h — lowered IR to x86-64 assembly (AT&T syntax, GNU as): the optimizer's
 * deterministic code generator.
 *
 * Input: a LOWERED function (ir_lower): every value 1 or 64 bits wide; operations load, store, cast, add, sub, mul,
 * shl, shr, and, or, xor, not, lnot, cmovznz, shrd and mulx/addcarryx/subborrowx of size 64. Anything else (a u128
 * value, a size other than 64) is refused with an error naming the node.
 *
 * Output: a complete .S: `.text`, `.globl`, optional `.hidden`, `.type sym,@function`, the function as straight-line
 * code (no branch of any kind), `ret`, `.size`, and `.section .note.GNU-stack,"",@progbits`.
 *
 * ABI: System V AMD64 with the fiat signature (emit/emit_c.h): every output array (declaration order), then every
 * input array, each a pointer to 64-bit limbs; the first six in rdi rsi rdx rcx r8 r9, the others on the stack at
 * 8(%rsp), 16(%rsp), ... at entry. Clobbers: rax rcx rdx rsi rdi r8-r11, xmm0-15 and the flags; rbx rbp r12-r15
 * are pushed and popped when used. Spills go to 8-byte slots at 0(%rsp), 8(%rsp), ... after `sub $N, %rsp` (no red
 * zone used), or to xmm0-15 (EMIT_ASM_D_XMM).
 *
 * Schedule: instructions follow the IR's node order. Loads are lazy: an input limb is read where it is used (as a
 * memory operand of add/adcx/mulx/..., or into a register), possibly more than once, but never after the first
 * store to an output that may alias its array: there, the values of that array still needed are read into free
 * registers or stack slots first. So the IR's alias rule (every load of an aliased input before the first store to
 * the output) holds for the machine code too, and stores keep their order.
 *
 * Instructions (every mnemonic the emitter can write, AT&T syntax as GNU as reads it; the Zydis encoder of the
 * measurement path parses exactly these): movq movl movabsq movzbl (register moves, loads, stores, immediates);
 * leaq (adds without a carry-out, constant multiples 2 3 4 5 8 9 and two-lea products such as 19 = 1 + 2*9,
 * small shifts left); imulq (2 and 3 operands: other constant multiples, 64-bit products); mulx (one operand in
 * rdx; target x86-64: mulq with a factor in rax); addq adcq adcx adox for addcarryx (CF chain by default, OF chain per decision); subq sbbq for subborrowx;
 * shrdq shrq shlq; shlxq shrxq (per decision: no flag written); andq andl orq xorq xorl notq; bzhiq (a mask 2^k-1,
 * per decision, k from a register: Intel SDM vol. 2A "BZHI"); negq (a carry-in that lives in a register back into
 * CF); testq + cmovnzq for cmovznz (cmovcq/cmovoq when the condition is still in the flag; sbbq + andl per
 * decision); setc/seto/sete + movzbl when a carry in a flag must outlive the next flag write; clc/stc for a constant carry-in when another chain's
 * flag is live; pushq popq ret; movq between a general-purpose and an xmm register (spills to xmm, per decision).
 *
 * Register allocation: deterministic; the 15 usable general-purpose registers; when none is free the value (or
 * argument pointer) whose next use is furthest is spilled (Belady, "A study of replacement algorithms for a
 * virtual-storage computer", IBM Systems Journal 5(2), 1966); a value is stored to a slot at most once (SSA), and
 * one that can be read again from its input array is not stored at all; a spilled value is used from its slot as a
 * memory operand where the instruction allows one. With EMIT_ASM_D_XMM on its defining node a value spills to the
 * first free xmm register instead (movq), kept there until its last use and moved back into a register (movq)
 * before each use. A register written with an immediate keeps that constant while it is free and no instruction
 * writes it: a later use of the same constant (38 in rdx for the next mulx, a zero for adcx/adox) takes it without
 * a new mov, and free registers holding no constant are allocated first. A zero is `xorl r, r` when no flag holds
 * a live value (it also clears CF and OF). When rdx must take a mulx operand, a value in rdx that has a copy in
 * memory is dropped rather than moved; a destination copied from a value that stays in memory or xmm is loaded
 * there directly; cmovnzq reuses the ZF of an earlier testq of its condition when no instruction wrote ZF since;
 * an OF chain (EMIT_ASM_D_OF) that starts while CF holds a live carry clears OF with `adox t, t` of a zero t. */
#ifndef ECOPT_EMIT_ASM_H
#define ECOPT_EMIT_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* Per-node decisions (bit flags; emit_asm_opts.decisions, one byte per node of f, in node order). */
#define EMIT_ASM_D_OF 1u    /* addcarryx: run this step on the OF chain (adox); ignored when the carry-in is not
                               0 or already in OF, or when OF cannot be cleared without losing a live CF */
#define EMIT_ASM_D_RDX_A 2u /* mulx: put arg[0] in rdx (target x86-64: in rax, mulq's implicit factor) */
#define EMIT_ASM_D_RDX_B 4u /* mulx: put arg[1] in rdx (neither: an operand already in rdx, else a constant, else
                               the operand used again sooner) */
#define EMIT_ASM_D_ADC0 8u  /* add of a carry still in CF and a u64 value: the other of `adc $0` (the default when
                               OF holds no live carry: adc writes OF) and setc + movzbl + lea (the default when it
                               does) */
#define EMIT_ASM_D_BZHI 16u /* and with a constant 2^k-1 (1 <= k <= 63): `movl $k, %t; bzhiq %t, a, %t` (no copy of
                               a, any k; the default is `andq $imm` for k <= 31, `movl` for k = 32, else movabsq +
                               andq) */
/* mul by a constant k >= 2, and shl by a constant (a multiply by 2^k): how (a 2-bit field; 0 = the default:
 * lea for 2 3 4 5 8 9 (shl: k <= 3), imul otherwise (shl: shlq)). A choice that does not apply to the node falls
 * back to the default: SHL needs a power of two; LEA one or two leas (k = p, p*q, 1 + s*p or p + s with p, q in
 * {2,3,4,5,8,9} and s in {1,2,4,8}; shl: k <= 3); IMUL a multiple that fits imul (any mul; shl: k <= 30). shlq and
 * imulq write the flags, lea does not. */
#define EMIT_ASM_D_CMUL_MASK 0x60u
#define EMIT_ASM_D_CMUL_SHL 0x20u
#define EMIT_ASM_D_CMUL_LEA 0x40u
#define EMIT_ASM_D_CMUL_IMUL 0x60u
#define EMIT_ASM_D_SHX 16u  /* the same bit as BZHI, on shl and shr by a constant: `movl $k, %t; shlxq/shrxq %t, a,
                               %t` (BMI2; writes no flag, so a live carry stays in its flag; before CMUL) */
#define EMIT_ASM_D_SBB 16u  /* the same bit again, on cmovznz(c, 0, K) with c in CF and dying there, 1 <= K < 2^31,
                               OF holding nothing live: `sbbq %d, %d; andl $K, %d` (two instructions, one register;
                               writes the flags) instead of two immediates and cmovcq. Measured with the program's
                               own order, all such nodes switched: the adx madd 1.02x the cmov form's ticks, so it is
                               a choice, not the default. */
#define EMIT_ASM_D_XMM 128u /* when this node's result must be spilled: to a free xmm register (movq; xmm0-15, all
                               caller-saved in System V) instead of a stack slot; reloaded with movq into a register
                               before use (an xmm copy is no memory operand). Falls back to a slot when all 16 are
                               taken. Argument pointers always spill to slots. */

typedef struct {
    unsigned ninsns;   /* instructions in the function, prologue and ret included */
    unsigned nspills;  /* stores of a register to a stack slot */
    unsigned nreloads; /* loads back from a slot (or of a stack-passed argument pointer) */
    unsigned nslots;   /* 8-byte stack slots (frame = 8 * nslots bytes) */
    unsigned nsaved;   /* callee-saved registers pushed */
    unsigned nflags;   /* carries materialised from a flag (setc/seto + movzbl) */
    unsigned nxmm;     /* values spilled to an xmm register (movq gpr -> xmm); their reloads count in nreloads */
    unsigned nxmmregs; /* distinct xmm registers used */
} emit_asm_stats;

/* The instruction set the code may use (emit_asm_opts.target).
 *   EMIT_ASM_TARGET_ADX (the default): x86-64 with BMI2 and ADX, everything listed above.
 *   EMIT_ASM_TARGET_X86_64: baseline x86-64 (every x86-64 CPU): no mulx, adcx, adox, bzhi, shlx, shrx (nor andn,
 *   which the emitter never writes). A 64x64-bit product is `mulq src` (Intel SDM vol. 2B "MUL": rax times r/m64
 *   into rdx:rax; CF and OF written, the other flags undefined), so the allocator puts one factor in rax, moves or
 *   spills whatever else rax and rdx hold first, and the product's halves are born in rax (low) and rdx (high);
 *   no carry can stay in a flag across a multiply. Additions with carry are adcq/addq on the single CF chain: a
 *   second chain's carry (EMIT_ASM_D_OF does not apply) lives in a register (setc + movzbl) and comes back with
 *   negq. Decisions: D_OF, D_BZHI (= D_SHX) do not apply and are ignored; D_RDX_A / D_RDX_B pick the factor put
 *   in rax; D_ADC0, D_CMUL_*, D_SBB and D_XMM as above. */
typedef enum { EMIT_ASM_TARGET_ADX = 0, EMIT_ASM_TARGET_X86_64 = 1 } emit_asm_target;

/* emit_asm_target_name — "adx" or "x86-64" (NULL for another value); emit_asm_target_parse — the inverse: 0 and
 * *t set, or -1 for a name that is neither. */
const char *emit_asm_target_name(emit_asm_target t);
int emit_asm_target_parse(const char *name, emit_asm_target *t);

typedef struct {
    const char *symbol;         /* NULL: f->name; must be a C identifier */
    emit_asm_target target;     /* the instruction set (0: EMIT_ASM_TARGET_ADX); written as the header's Target:
                                   line */
    bool hidden;                /* add `.hidden sym` (built into the library) */
    const uint8_t *decisions;   /* NULL (all 0) or f->nnode bytes of EMIT_ASM_D_* */
    const char *command;        /* for the header comment ("ecopt ..."); NULL: none */
    const char *header_extra;   /* NULL, or lines put verbatim at the end of the header comment (source hash, seed,
                                   ticks, verdict, ...): each line must start with " * " and none may contain
                                   the comment's end; a final newline is optional */
    emit_asm_stats *stats;      /* filled when not NULL */
} emit_asm_opts;

/* emit_asm — the .S text for the lowered function f (opts NULL: defaults). On success *out is a NUL-terminated
 * heap string (free it) of *len bytes (len may be NULL) and 0 is returned. On error -1 with err (size errlen) one
 * line: "node 12 (mulx.32): only size 64 is supported", "value x3 is u128: lower the function first (ir_lower)",
 * "symbol '1x' is not an identifier", "header_extra line 2 does not start with \" * \"", "out of memory", ... */
int emit_asm(const ir_func *f, const emit_asm_opts *opts, char **out, size_t *len, char *err, size_t errlen);

#endif
