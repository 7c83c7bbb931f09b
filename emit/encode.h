/* encode.h — machine code for emit_asm's AT&T text without an assembler (Zydis' encoder
 * straight into executable memory, so the search measures without assembling), and executable memory to run it.
 *
 * Every instruction line is parsed and handed to Zydis' encoder (ZydisEncoderEncodeInstruction); where Zydis and
 * GNU as could choose different encodings of the same text (the direction bit of a register-to-register ALU
 * operation or move, the shift-by-one form, imm8/imm32, movabs's 64-bit immediate) the choice GNU as makes is
 * taken, so the bytes are EXACTLY those `cc -c` produces for the same .S (tests/ir/test_emit_encode.c compares them
 * for every form with every register and for emit_asm's output). About 0.2-0.35 us per instruction; reentrant.
 * Link with Zydis::Zydis (ecopt_emit does not link it itself).
 *
 * Syntax accepted (what emit/emit_asm.c writes): one instruction per line; `/ * ... * /` comments (also over several
 * lines), `#` comments, directives (a line starting with `.`) and labels (`name:`) are skipped. Operands: %reg (the
 * 64-, 32- and 8-bit general-purpose registers, %xmm0-%xmm15), $imm (decimal or 0x hex, optionally negative),
 * disp(%base), disp(%base,%index,scale), (,%index,scale). Mnemonics, with or without the AT&T size suffix where one
 * exists: mov movabs movzbl lea add adc sub sbb and or xor test neg not mul (one operand) shl shr sar shld shrd imul (2 and 3
 * operands) mulx adcx adox bzhi shlx shrx sarx cmov<cc> set<cc> push pop clc stc ret, and movq between a
 * general-purpose and an xmm register. Anything else is an error. */
#ifndef ECOPT_EMIT_ENCODE_H
#define ECOPT_EMIT_ENCODE_H

#include <stddef.h>
#include <stdint.h>

/* encode_asm_text — the machine code of the one function in text (a NUL-terminated AT&T .S as emit_asm writes it;
 * directives, comments and the label are skipped, every instruction line is encoded in order). On success *code is
 * a heap buffer (free it) of *len bytes and 0 is returned (an empty function gives *code non-NULL, *len 0). On error
 * -1, *code NULL, *len 0, and err (size errlen) one line naming the line number and the text that could not be
 * parsed or encoded: "line 12: 'addq %eax, %rbx': register %eax is not 64-bit (suffix q)". */
int encode_asm_text(const char *text, uint8_t **code, size_t *len, char *err, size_t errlen);

/* encode_exec_map — an executable copy of len bytes of code (mmap read-write, copy, the rest of the last page filled
 * with int3, mprotect read+execute). Returns the start of the copy, or NULL (len 0, code NULL, mmap or mprotect
 * failed; errno is kept). *maplen gets the mapping's size in bytes for encode_exec_unmap. */
void *encode_exec_map(const uint8_t *code, size_t len, size_t *maplen);

/* encode_exec_unmap — release a mapping from encode_exec_map (p NULL: nothing). */
void encode_exec_unmap(void *p, size_t maplen);

#endif
