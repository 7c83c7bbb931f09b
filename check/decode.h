/* decode.h — a function's bytes as a list of instructions for the symbolic executor (DESIGN.md, "The checker").
 *
 * Decoded with Zydis 4.0 (ZydisDecoderDecodeFull, 64-bit long mode, 64-bit stack width): address, length,
 * mnemonic, every operand (register / memory base+index*scale+disp / immediate, sizes in bits, read/write), and the
 * flags the instruction reads, writes and leaves undefined (Zydis' cpu_flags, which follow the Intel SDM's "Flags
 * Affected" sections, corrected where an immediate shift count decides: a count of 1 defines OF, a count of 0
 * changes no flag; and SBB's AF, which the SDM defines). Each instruction is classified:
 *   CHECK_INSN_SUPPORTED  the checker has (or will have) semantics for it (mov, movabs, movzx,
 *                         movsx/movsxd, cdqe, lea, add, adc, adcx, adox, sub, sbb, neg, mul, mulx, imul, shl, shr,
 *                         sar, shld, shrd, shlx, shrx, bzhi, and, andn, or, xor, not, cmovcc, setcc, test, cmp, clc,
 *                         stc, xchg, push, pop, ret, movq/movd and vmovq/vmovd between a general-purpose and an xmm
 *                         register) plus nop and endbr64, and inc and dec (CryptOpt's code). gcc and clang emit
 *                         nothing else on the corpus (see test_check_decode.c)
 *   CHECK_INSN_BRANCH     jcc, jmp, call, loop, jrcxz (decoded; the rules reject them)
 *   CHECK_INSN_DIVISION   div, idiv (decoded; the rules reject them)
 *   CHECK_INSN_UNKNOWN    anything else; check_insn_describe names it ("unknown instruction `vpaddq` at 0x4c")
 * Instructions with a LOCK/REP prefix or a segment override (fs/gs) are UNKNOWN too. RIP-relative and absolute
 * memory operands and bytes covered by a relocation are marked (the checker rejects them). */
#ifndef ECOPT_CHECK_DECODE_H
#define ECOPT_CHECK_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

#include "check/elf.h"

/* flag masks: EFLAGS bit positions, the same values as Zydis' ZYDIS_CPUFLAG_* */
#define CHECK_FLAG_CF (1u << 0)
#define CHECK_FLAG_PF (1u << 2)
#define CHECK_FLAG_AF (1u << 4)
#define CHECK_FLAG_ZF (1u << 6)
#define CHECK_FLAG_SF (1u << 7)
#define CHECK_FLAG_DF (1u << 10)
#define CHECK_FLAG_OF (1u << 11)
#define CHECK_FLAGS_STATUS                                                                                        \
    (CHECK_FLAG_CF | CHECK_FLAG_PF | CHECK_FLAG_AF | CHECK_FLAG_ZF | CHECK_FLAG_SF | CHECK_FLAG_OF)

typedef enum { CHECK_OPND_REG, CHECK_OPND_MEM, CHECK_OPND_IMM } check_opnd_kind;

#define CHECK_OPND_READ 1u
#define CHECK_OPND_WRITE 2u

typedef struct {
    check_opnd_kind kind;
    uint16_t size;           /* bits: the register's, the memory access's; IMM: the encoded size (imm is extended) */
    uint8_t access;          /* CHECK_OPND_READ | CHECK_OPND_WRITE (for MEM: of the memory, not the address regs;
                                lea: neither, the address is the value) */
    bool hidden;             /* not written in the text (mul's rax/rdx, push's rsp, ...); operands the opcode
                                implies but the text shows (test's rax in `test $imm, %rax`) are visible */
    ZydisRegister reg;       /* REG */
    struct {
        ZydisRegister base;  /* ZYDIS_REGISTER_NONE when absent; ZYDIS_REGISTER_RIP for RIP-relative */
        ZydisRegister index;
        uint8_t scale;       /* 0 (no index), 1, 2, 4, 8 */
        int64_t disp;
        ZydisRegister segment;
        bool is_agen;        /* lea's address operand: no memory access */
    } mem;                   /* MEM */
    uint64_t imm;            /* IMM: the value sign- or zero-extended to 64 bits as the instruction uses it */
    bool imm_signed;
} check_operand;

typedef enum { CHECK_INSN_SUPPORTED, CHECK_INSN_BRANCH, CHECK_INSN_DIVISION, CHECK_INSN_UNKNOWN } check_insn_class;

#define CHECK_MAX_OPERANDS 10

typedef struct {
    uint64_t addr;           /* code->addr + offset */
    uint8_t len;             /* bytes */
    uint8_t bytes[15];
    ZydisMnemonic mnemonic;  /* ZydisMnemonicGetString gives its Intel name ("mov", "movsxd", "cdqe", "setb") */
    uint16_t operand_width;  /* bits (Zydis' operand_width) */
    uint8_t nops;            /* operands, visible ones first (nvisible of them), then the hidden ones */
    uint8_t nvisible;
    check_operand ops[CHECK_MAX_OPERANDS];
    uint32_t flags_read;     /* CHECK_FLAG_* the instruction reads */
    uint32_t flags_written;  /* ... writes with a defined value (modified, set to 0, set to 1) */
    uint32_t flags_undefined;/* ... leaves undefined (never also in flags_written) */
    bool flags_conditional;  /* a shift by cl: the flag effects above apply only when the masked count is not 0;
                                with a count of 0 every flag keeps its value (the executor must decide which) */
    check_insn_class cls;
    const char *why;         /* UNKNOWN: why, when not merely the mnemonic ("a lock prefix"); else NULL */
    bool rip_relative;       /* some memory operand is RIP-relative */
    bool absolute;           /* some memory operand has neither base nor index (absolute address) */
    int reloc;               /* index into the code's relocations covering this instruction's bytes, or -1 */
} check_insn;

typedef struct {
    check_insn *insns;
    size_t n;
} check_insn_list;

/* check_decode — decode n bytes at addr (every byte must belong to an instruction). 0, or -1 with err (one line):
 * bytes that do not decode ("undecodable bytes at 0x12: 0f ff"), or the last instruction runs past the end. */
int check_decode(const uint8_t *bytes, size_t n, uint64_t addr, check_insn_list *out, char *err, size_t errlen);

/* check_decode_code — check_decode of code->bytes at code->addr, and each insn's reloc set from code->relocs. */
int check_decode_code(const check_code *code, check_insn_list *out, char *err, size_t errlen);

void check_insn_list_free(check_insn_list *l);

/* check_mnemonic — the instruction's lower-case Intel mnemonic ("adcx") */
const char *check_mnemonic(const check_insn *in);

/* check_insn_describe — the reason the rules would give for a non-SUPPORTED instruction, into buf:
 * "unknown instruction `vpaddq` at 0x4c", "branch `jz` at 0x7", "division `div` at 0x9"; for a SUPPORTED one,
 * "`add` at 0x3". Returns buf. */
const char *check_insn_describe(const check_insn *in, char *buf, size_t len);

/* check_insn_format — the instruction in AT&T syntax (Zydis' formatter), for messages. Returns buf. */
const char *check_insn_format(const check_insn *in, char *buf, size_t len);

#endif
