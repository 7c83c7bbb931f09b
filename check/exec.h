/* exec.h — symbolic execution of decoded x86-64 machine code (check/decode.h) into check/expr.h expressions, with
 * the checker's rules (see check/check.h for the calling convention and the rule classes).
 *
 * State: the 16 general-purpose registers, xmm0..xmm15 (the low 64 bits; movq/movd/vmovq/vmovd between them and
 * general-purpose registers, for spills), CF PF AF ZF SF OF, the function's stack frame, the argument arrays.
 * A register holds either data (an expression) or a pointer (region + constant byte offset): at entry the
 * argument registers point at offset 0 of their arrays, rsp at offset 0 of the stack (the return address is at
 * [0, 8), stack arguments at 8, 16, ...), rbx rbp r12..r15 hold distinct unknown values (their entry values,
 * compared by id at ret), every other register and every flag an unknown value.
 *
 * Semantics are the Intel SDM's: partial-register writes (8/16-bit keep the rest, 32-bit zero the upper half),
 * flags as 1-bit expressions (an undefined flag is a fresh unknown; reading it is UNKNOWN_VALUE at that
 * instruction), sign extensions and sar as sums with the sign bit, mul/mulx as one product with two projections,
 * adc/adcx/adox/sbb as exact sums with a carry projection, xor r,r and sub r,r as 0.
 *
 * Memory: an address is base + index * scale + disp where base/index hold pointers or constants; anything else is
 * DATA_ADDRESS. Argument arrays: whole 64-bit limbs at offsets 8*i inside [0, 8*len); input arrays read-only
 * (a store is STORE_INPUT), an output array's limb reads back what was stored (a read of an output limb never
 * stored is STACK_UNWRITTEN); the arrays are disjoint, or in one aliasing case (check_exec_case) an output and the
 * input (or the equal inputs) it equals are one memory. Stack: byte-exact cells; reading a byte never written is
 * STACK_UNWRITTEN; accesses must lie in [rsp - 128 (0 with no_red_zone), 0) relative to entry rsp, except reads of
 * the stack arguments [8, 8 + 8*nstack). The frame is bounded (FRAME_SIZE): no access and no rsp lies more than
 * 4096 bytes (a page) below the lowest stack byte accessed before it, the return address at offset 0 being the
 * first: without probes, every access lies in [entry rsp - 4096, entry rsp), red zone included; a larger frame
 * touches each page in order (gcc -fstack-clash-protection's `sub $4096, %rsp; or $0, (%rsp)`).
 *
 * Execution runs in address order and stops at the first ret (only nop/int3 padding may follow it).
 *
 * Details (each compared with the CPU in tests/ir/test_check_exec.c):
 *   - flags are built lazily from the operation that set them; AF is modelled but no supported instruction reads
 *     it; CF of shl/shr/sar by at least the operand size (8/16-bit forms), OF of shifts by more than 1, and the
 *     flags the SDM leaves undefined (mul's SF ZF AF PF, ...) are undefined; imul's CF/OF (the signed product does
 *     not fit) are modelled; the one-operand (widening) imul is UNSUPPORTED;
 *   - shift and bzhi counts from a register need their low 8 bits constant (else UNSUPPORTED); a count of 0
 *     leaves the flags and still writes the destination (a 32-bit one is zero-extended);
 *   - 64-bit shld is the IR's shrd of the pair (a:b >> (64 - k)), shrd is ex_shrd, so u128 shifts meet the IR's;
 *   - inc/dec keep CF and set OF SF ZF AF PF as add/sub of 1 (CryptOpt: `mov $-2, r; inc r` clears OF);
 *   - test/cmp of a pointer (any width, `test %al, %al` on a register holding one): its value is opaque, a fresh
 *     unknown, so test's CF = OF = 0 are known and every other flag is unknown where it is used (UNKNOWN_VALUE);
 *   - pointers: add/sub of a constant, inc/dec and lea keep them pointers (the flags of such an add are
 *     undefined); a partial read of a pointer, a pointer stored into an output, other arithmetic on one is
 *     UNSUPPORTED; an
 *     8/16-bit write over a pointer leaves unknown upper bits (clang's setb %sil on a dead argument register);
 *   - `or $0, m` on a stack slot (gcc's stack-clash probe) changes no byte: a touch for the frame bound that
 *     leaves the slot as it was (unwritten if it was), flags those of the slot's value when every byte holds data,
 *     else of an unknown value (CF = OF = 0, the rest unknown where used);
 *   - stack: a read of bytes from several stores is assembled byte-exactly; a stored pointer reads back only
 *     whole; argument arrays: whole aligned limbs only (a partial-limb access is UNSUPPORTED);
 *   - andn (BMI1, which gcc and clang emit with -march=haswell) has semantics here, CPU-tested, but decode.c does
 *     not classify it SUPPORTED yet, so it is rejected as UNKNOWN_INSN before it gets here;
 *   - UNKNOWN_VALUE is raised where a value is used: a store to an output, a cmov/setcc condition, a read of an
 *     undefined flag (every flag is undefined at entry); addresses from data are DATA_ADDRESS.
 * On success r->verdict and r->rule are left as they were (check.c decides the verdict). */
#ifndef ECOPT_CHECK_EXEC_H
#define ECOPT_CHECK_EXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "check/check.h"
#include "check/decode.h"
#include "check/expr.h"
#include "ir/ir.h"

/* check_exec — execute insns (code's decoded instructions) symbolically in x for the program f's signature.
 * Argument k of the call is array argmap[k] of f (outputs first, then inputs; see check.h); nargs = f->narr.
 * Input leaves are ex_input(x, array, limb, lo, hi) with f's bounds (call ir_sym_run first or make them the same way).
 * On success returns 0 and out[j][i] is the 64-bit value stored last to output array j limb i (0 when never stored;
 * entries of input arrays untouched); r->ninsns is set. On a rule violation returns 1 with r->verdict REJECTED,
 * r->rule, r->reason (one line naming the instruction: "store into input array arg1 at 0x2c: mov %rax, 8(%rsi)"),
 * r->has_addr/r->addr. Out of memory or a malformed request: -1 with r->verdict BAD_INPUT and r->reason. */
/* check_exec_argmap — the calling convention's order of f's arrays: argmap[k] is the array passed as argument k,
 * every output (in declaration order), then every input. Fills at most 16 entries (check_exec refuses more). */
void check_exec_argmap(const ir_func *f, uint32_t argmap[16]);

int check_exec(ex_ctx *x, const ir_func *f, const uint32_t *argmap, const check_insn_list *insns, bool no_red_zone,
               ex_id *const *out, check_result *r);

/* What check_exec_observed reports besides check_exec's results (for the CPU cross-test and `ecopt check
 * --explain`; check_function does not use it).
 *   write (optional): called for each data value an instruction writes, with insns index `insn`: a register
 *     (where = CHECK_EXEC_AT_REG, the value at the register's width before the 8/16-bit merge), a stack store
 *     (AT_STACK) or an output-array store (AT_ARRAY, array arr limb limb), and (where = CHECK_EXEC_READ) each
 *     data value it reads from a register or memory (not immediates); pointers are not reported. Flags, for
 *     following a carry from the instruction that set it to the one that reads it: AT_FLAG when an instruction
 *     sets status flags, READ_FLAG when it reads one, both with the same tag id (the flag's value, or the result
 *     the lazily built flags come from), which is not the flag's value.
 *   at ret, when check_exec_observed returns 0: the executor's own view of the state, so that a test can compare
 *     every value it claims to know: flag[CHECK_EXEC_CF ..] the 1-bit value of each status flag, 0 when the flag is
 *     undefined (unknown) at ret; gpr[i] / xmm[i] (Zydis' register ids: rax 0, rcx 1, ... r15 15; the low 64 bits
 *     of xmm i) the data value, 0 for a pointer (gpr_ptr[i] set). */
enum { CHECK_EXEC_CF, CHECK_EXEC_PF, CHECK_EXEC_AF, CHECK_EXEC_ZF, CHECK_EXEC_SF, CHECK_EXEC_OF, CHECK_EXEC_NFLAGS };
enum { CHECK_EXEC_AT_REG, CHECK_EXEC_AT_STACK, CHECK_EXEC_AT_ARRAY, CHECK_EXEC_READ, CHECK_EXEC_AT_FLAG,
       CHECK_EXEC_READ_FLAG };
typedef struct {
    void (*write)(void *arg, size_t insn, ex_id value, int where, uint32_t arr, uint32_t limb);
    void *arg;
    ex_id flag[CHECK_EXEC_NFLAGS];
    ex_id gpr[16], xmm[16];
    bool gpr_ptr[16];
} check_exec_obs;

/* check_exec_observed — check_exec, reporting to obs (NULL: exactly check_exec). */
int check_exec_observed(ex_ctx *x, const ir_func *f, const uint32_t *argmap, const check_insn_list *insns,
                        bool no_red_zone, ex_id *const *out, check_result *r, check_exec_obs *obs);

/* check_exec_case — check_exec in one aliasing case: same_as[j] (per array of f; NULL: all -1) is, for an output
 * array j, the input array whose pointer it equals (-1: disjoint from every input). The two then share one memory:
 * a load of the input reads what the output stored at that limb, a load of the output before it stored the limb
 * reads the input's value; out[j][i] is still what output j stored last. For an input array k, same_as[k] = i is
 * an input equal to input i (the same pointer, the same length): every load of k is a load of i (leaves
 * ex_input(i, ...), and what an output equal to i stored), so that out1 == arg1 == arg2 is same_as[out1] = arg1,
 * same_as[arg2] = arg1. The target i of any entry must have same_as[i] = -1, and each input at most one output
 * equals (else BAD_INPUT); whether the program allows the pairing is the caller's matter (check.c runs the cases
 * ir_array.alias allows, and evaluates the program with k's loads made loads of i). */
int check_exec_case(ex_ctx *x, const ir_func *f, const uint32_t *argmap, const check_insn_list *insns,
                    bool no_red_zone, const int32_t *same_as, ex_id *const *out, check_result *r);

#endif
