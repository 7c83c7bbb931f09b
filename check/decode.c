/* decode.c — Zydis 4.0 decoding and classification of a function's instructions (see decode.h).
 * Flag effects come from Zydis' tables, which transcribe the "Flags Affected" sections of the Intel 64 and IA-32
 * Architectures Software Developer's Manual, Vol. 2; test_check_decode.c checks a set of them against the SDM. */
#include "check/decode.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The instructions the checker models (DESIGN.md, "The checker"), plus what gcc 12 and clang 14 emit for the corpus (tests/ir/test_check_decode.c
 * prints the set per compiler). cmovcc and setcc are matched by Zydis' instruction category. movq/movd are
 * supported only between a general-purpose and an xmm register (spills); see classify(). */
static const ZydisMnemonic supported[] = {
    ZYDIS_MNEMONIC_MOV,  ZYDIS_MNEMONIC_MOVZX, ZYDIS_MNEMONIC_MOVSX, ZYDIS_MNEMONIC_MOVSXD, ZYDIS_MNEMONIC_CDQE,
    ZYDIS_MNEMONIC_LEA,  ZYDIS_MNEMONIC_ADD,   ZYDIS_MNEMONIC_ADC,   ZYDIS_MNEMONIC_ADCX,   ZYDIS_MNEMONIC_ADOX,
    ZYDIS_MNEMONIC_SUB,  ZYDIS_MNEMONIC_SBB,   ZYDIS_MNEMONIC_NEG,   ZYDIS_MNEMONIC_MUL,    ZYDIS_MNEMONIC_MULX,
    ZYDIS_MNEMONIC_IMUL, ZYDIS_MNEMONIC_SHL,   ZYDIS_MNEMONIC_SHR,   ZYDIS_MNEMONIC_SAR,    ZYDIS_MNEMONIC_SHLD,
    ZYDIS_MNEMONIC_SHRD, ZYDIS_MNEMONIC_SHLX,  ZYDIS_MNEMONIC_SHRX,  ZYDIS_MNEMONIC_BZHI,   ZYDIS_MNEMONIC_AND,
    ZYDIS_MNEMONIC_ANDN, /* BMI1: gcc and clang -march=haswell write it for masks */
    ZYDIS_MNEMONIC_OR,   ZYDIS_MNEMONIC_XOR,   ZYDIS_MNEMONIC_NOT,   ZYDIS_MNEMONIC_TEST,   ZYDIS_MNEMONIC_CMP,
    ZYDIS_MNEMONIC_CLC,  ZYDIS_MNEMONIC_STC,   ZYDIS_MNEMONIC_XCHG,  ZYDIS_MNEMONIC_PUSH,   ZYDIS_MNEMONIC_POP,
    ZYDIS_MNEMONIC_RET,  ZYDIS_MNEMONIC_MOVQ,  ZYDIS_MNEMONIC_MOVD,
    /* CryptOpt writes `mov $-2, r; inc r` to clear OF (and keep CF) before an adox chain */
    ZYDIS_MNEMONIC_INC,  ZYDIS_MNEMONIC_DEC,
    /* the VEX forms of the same moves: gcc -march=haswell spills through xmm with vmovq */
    ZYDIS_MNEMONIC_VMOVQ, ZYDIS_MNEMONIC_VMOVD,
    /* no effect on the state the checker tracks: padding and the CET landing pad (-fcf-protection) */
    ZYDIS_MNEMONIC_NOP,  ZYDIS_MNEMONIC_ENDBR64,
};

__attribute__((format(printf, 3, 4)))
static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void check_insn_list_free(check_insn_list *l)
{
    if (!l)
        return;
    free(l->insns);
    l->insns = NULL;
    l->n = 0;
}

const char *check_mnemonic(const check_insn *in)
{
    const char *s = ZydisMnemonicGetString(in->mnemonic);
    return s ? s : "?";
}

static int is_gpr(ZydisRegister r)
{
    ZydisRegisterClass c = ZydisRegisterGetClass(r);
    return c == ZYDIS_REGCLASS_GPR64 || c == ZYDIS_REGCLASS_GPR32;
}

static void classify(check_insn *in, const ZydisDecodedInstruction *zi)
{
    in->why = NULL;
    switch (zi->meta.category) {
    case ZYDIS_CATEGORY_COND_BR:
    case ZYDIS_CATEGORY_UNCOND_BR:
    case ZYDIS_CATEGORY_CALL:
        in->cls = CHECK_INSN_BRANCH;
        return;
    default:
        break;
    }
    if (in->mnemonic == ZYDIS_MNEMONIC_DIV || in->mnemonic == ZYDIS_MNEMONIC_IDIV) {
        in->cls = CHECK_INSN_DIVISION;
        return;
    }
    /* other control transfers: loop, jrcxz, syscall, int, iret, ... */
    if (zi->attributes & ZYDIS_ATTRIB_IS_RELATIVE && in->mnemonic != ZYDIS_MNEMONIC_LEA &&
        in->mnemonic != ZYDIS_MNEMONIC_MOV) {
        /* jrcxz / loop: relative targets without the COND_BR category in some tables */
        if (zi->meta.category == ZYDIS_CATEGORY_COND_BR || in->mnemonic == ZYDIS_MNEMONIC_JRCXZ ||
            in->mnemonic == ZYDIS_MNEMONIC_LOOP || in->mnemonic == ZYDIS_MNEMONIC_LOOPE ||
            in->mnemonic == ZYDIS_MNEMONIC_LOOPNE) {
            in->cls = CHECK_INSN_BRANCH;
            return;
        }
    }
    in->cls = CHECK_INSN_UNKNOWN;
    int known = zi->meta.category == ZYDIS_CATEGORY_CMOV || zi->meta.category == ZYDIS_CATEGORY_SETCC;
    for (size_t i = 0; !known && i < sizeof supported / sizeof supported[0]; i++)
        known = in->mnemonic == supported[i];
    if (!known)
        return;
    if (zi->attributes & ZYDIS_ATTRIB_HAS_LOCK) {
        in->why = "a lock prefix";
        return;
    }
    if (zi->attributes & (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE | ZYDIS_ATTRIB_HAS_REPNE)) {
        /* `rep ret` (AMD's branch-predictor idiom) is a plain return */
        if (in->mnemonic != ZYDIS_MNEMONIC_RET) {
            in->why = "a rep prefix";
            return;
        }
    }
    if (zi->attributes & ZYDIS_ATTRIB_HAS_BND) {
        in->why = "a bnd prefix";
        return;
    }
    if (zi->attributes & (ZYDIS_ATTRIB_HAS_SEGMENT_FS | ZYDIS_ATTRIB_HAS_SEGMENT_GS)) {
        in->why = "an fs/gs segment override";
        return;
    }
    if (in->mnemonic == ZYDIS_MNEMONIC_MOVQ || in->mnemonic == ZYDIS_MNEMONIC_MOVD ||
        in->mnemonic == ZYDIS_MNEMONIC_VMOVQ || in->mnemonic == ZYDIS_MNEMONIC_VMOVD) {
        int ok = in->nvisible == 2 && in->ops[0].kind == CHECK_OPND_REG && in->ops[1].kind == CHECK_OPND_REG;
        if (ok) {
            ZydisRegisterClass c0 = ZydisRegisterGetClass(in->ops[0].reg), c1 = ZydisRegisterGetClass(in->ops[1].reg);
            ok = (is_gpr(in->ops[0].reg) && c1 == ZYDIS_REGCLASS_XMM) ||
                 (c0 == ZYDIS_REGCLASS_XMM && is_gpr(in->ops[1].reg));
        }
        if (!ok) {
            in->why = "operands other than a general-purpose and an xmm register";
            return;
        }
    }
    if (in->mnemonic == ZYDIS_MNEMONIC_RET && in->nvisible) {
        in->why = "a stack adjustment (ret imm16)";
        return;
    }
    /* only the plain 64-bit near return: lret (cb / 48 cb) pops cs too; with an operand-size prefix (66 c3) AMD
     * pops 2 bytes where Intel pops 8, so the code means different things on different CPUs */
    if (in->mnemonic == ZYDIS_MNEMONIC_RET &&
        (zi->operand_width != 64 || zi->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR ||
         (zi->attributes & ZYDIS_ATTRIB_HAS_OPERANDSIZE))) {
        in->why = zi->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR ? "a far return" : "an operand-size prefix (retw)";
        return;
    }
    in->cls = CHECK_INSN_SUPPORTED;
}

static void convert_operand(check_operand *o, const ZydisDecodedOperand *zo)
{
    memset(o, 0, sizeof *o);
    o->size = zo->size;
    o->hidden = zo->visibility == ZYDIS_OPERAND_VISIBILITY_HIDDEN;
    if (zo->actions & ZYDIS_OPERAND_ACTION_MASK_READ)
        o->access |= CHECK_OPND_READ;
    if (zo->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE)
        o->access |= CHECK_OPND_WRITE;
    switch (zo->type) {
    case ZYDIS_OPERAND_TYPE_REGISTER:
        o->kind = CHECK_OPND_REG;
        o->reg = zo->reg.value;
        break;
    case ZYDIS_OPERAND_TYPE_MEMORY:
        o->kind = CHECK_OPND_MEM;
        o->mem.base = zo->mem.base;
        o->mem.index = zo->mem.index;
        o->mem.scale = zo->mem.index == ZYDIS_REGISTER_NONE ? 0 : zo->mem.scale;
        o->mem.disp = zo->mem.disp.has_displacement ? zo->mem.disp.value : 0;
        o->mem.segment = zo->mem.segment;
        o->mem.is_agen = zo->mem.type == ZYDIS_MEMOP_TYPE_AGEN;
        if (o->mem.is_agen)
            o->access = 0;
        break;
    case ZYDIS_OPERAND_TYPE_IMMEDIATE:
        o->kind = CHECK_OPND_IMM;
        o->imm = zo->imm.value.u;
        o->imm_signed = zo->imm.is_signed;
        o->access = CHECK_OPND_READ;
        break;
    default: /* pointer (far jmp/call operands): keep as an immediate */
        o->kind = CHECK_OPND_IMM;
        o->imm = zo->ptr.offset;
        break;
    }
}

/* Where the SDM defines more than Zydis' per-encoding tables can (they cannot see an immediate count), or
 * Zydis' table differs from the SDM. Intel SDM Vol. 2B, "SAL/SAR/SHL/SHR": "The OF flag is affected only on 1-bit
 * shifts ... otherwise, it is undefined"; "If the count is 0, the flags are not affected"; the count is masked to
 * 6 bits (64-bit operands) or 5 bits. "SHLD"/"SHRD": the same for OF and a count of 0. "SBB": "The OF, SF, ZF, AF,
 * PF, and CF flags are set according to the result" (Zydis 4.0 lists AF as undefined). */
static void fix_flags(check_insn *in)
{
    switch (in->mnemonic) {
    case ZYDIS_MNEMONIC_SHL:
    case ZYDIS_MNEMONIC_SHR:
    case ZYDIS_MNEMONIC_SAR:
    case ZYDIS_MNEMONIC_SHLD:
    case ZYDIS_MNEMONIC_SHRD: {
        /* the count: the last operand that is not hidden (imm8, the implicit 1 of D1 /4, or cl) */
        const check_operand *c = NULL;
        for (unsigned i = 0; i < in->nops; i++)
            if (!in->ops[i].hidden)
                c = &in->ops[i];
        if (!c)
            break;
        if (c->kind == CHECK_OPND_IMM) {
            unsigned count = (unsigned)(c->imm & (in->operand_width == 64 ? 63u : 31u));
            if (count == 0) {
                in->flags_read = in->flags_written = in->flags_undefined = 0;
            } else if (count == 1 && (in->flags_undefined & CHECK_FLAG_OF)) {
                in->flags_undefined &= ~CHECK_FLAG_OF;
                in->flags_written |= CHECK_FLAG_OF;
            }
        } else if (c->kind == CHECK_OPND_REG) {
            in->flags_conditional = true;
        }
        break;
    }
    case ZYDIS_MNEMONIC_SBB:
        in->flags_undefined &= ~CHECK_FLAG_AF;
        in->flags_written |= CHECK_FLAG_AF;
        break;
    default:
        break;
    }
}

int check_decode(const uint8_t *bytes, size_t n, uint64_t addr, check_insn_list *out, char *err, size_t errlen)
{
    out->insns = NULL;
    out->n = 0;
    ZydisDecoder dec;
    if (ZYAN_FAILED(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64))) {
        seterr(err, errlen, "cannot initialise the Zydis decoder");
        return -1;
    }
    size_t cap = 0;
    check_insn *v = NULL;
    for (size_t off = 0; off < n;) {
        ZydisDecodedInstruction zi;
        ZydisDecodedOperand zo[ZYDIS_MAX_OPERAND_COUNT];
        ZyanStatus st = ZydisDecoderDecodeFull(&dec, bytes + off, n - off, &zi, zo);
        if (ZYAN_FAILED(st)) {
            char hex[64] = "";
            size_t h = 0;
            for (size_t i = 0; i < 8 && off + i < n; i++)
                h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", bytes[off + i]);
            if (st == ZYDIS_STATUS_NO_MORE_DATA)
                seterr(err, errlen, "the last instruction at 0x%llx runs past the function's end (%s)",
                       (unsigned long long)(addr + off), hex);
            else
                seterr(err, errlen, "undecodable bytes at 0x%llx: %s", (unsigned long long)(addr + off), hex);
            free(v);
            return -1;
        }
        if (out->n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            check_insn *nv = realloc(v, nc * sizeof *nv);
            if (!nv) {
                free(v);
                seterr(err, errlen, "out of memory");
                return -1;
            }
            v = nv;
            cap = nc;
        }
        check_insn *in = &v[out->n++];
        memset(in, 0, sizeof *in);
        in->addr = addr + off;
        in->len = zi.length;
        memcpy(in->bytes, bytes + off, zi.length);
        in->mnemonic = zi.mnemonic;
        in->operand_width = zi.operand_width;
        in->reloc = -1;
        unsigned k = 0;
        /* visible operands first, then the hidden ones (Zydis already orders them so; keep it explicit) */
        for (int pass = 0; pass < 2; pass++)
            for (unsigned i = 0; i < zi.operand_count && k < CHECK_MAX_OPERANDS; i++) {
                int vis = zo[i].visibility != ZYDIS_OPERAND_VISIBILITY_HIDDEN;
                if (vis != (pass == 0))
                    continue;
                convert_operand(&in->ops[k], &zo[i]);
                if (pass == 0)
                    in->nvisible++;
                k++;
            }
        in->nops = (uint8_t)k;
        for (unsigned i = 0; i < k; i++) {
            const check_operand *o = &in->ops[i];
            if (o->kind != CHECK_OPND_MEM)
                continue;
            if (o->mem.base == ZYDIS_REGISTER_RIP || o->mem.base == ZYDIS_REGISTER_EIP)
                in->rip_relative = true;
            else if (o->mem.base == ZYDIS_REGISTER_NONE && o->mem.index == ZYDIS_REGISTER_NONE)
                in->absolute = true;
        }
        if (zi.cpu_flags) {
            uint32_t und = zi.cpu_flags->undefined;
            in->flags_read = zi.cpu_flags->tested;
            in->flags_written = (zi.cpu_flags->modified | zi.cpu_flags->set_0 | zi.cpu_flags->set_1) & ~und;
            in->flags_undefined = und;
        }
        fix_flags(in);
        classify(in, &zi);
        off += zi.length;
    }
    out->insns = v;
    return 0;
}

int check_decode_code(const check_code *code, check_insn_list *out, char *err, size_t errlen)
{
    if (check_decode(code->bytes, code->size, code->addr, out, err, errlen) != 0)
        return -1;
    /* every instruction that a relocation's reach overlaps (its field, and the bytes a relaxing linker rewrites
     * around it: elf.h), at least the one holding its offset */
    for (size_t r = 0; r < code->nrelocs; r++) {
        const check_reloc *cr = &code->relocs[r];
        uint64_t a = code->addr + cr->offset;
        uint64_t lo = cr->offset >= cr->before ? a - cr->before : code->addr, hi = a + (cr->after ? cr->after : 1);
        for (size_t i = 0; i < out->n; i++) {
            const check_insn *in = &out->insns[i];
            if (in->addr < hi && in->addr + in->len > lo && out->insns[i].reloc < 0)
                out->insns[i].reloc = (int)r;
        }
    }
    return 0;
}

const char *check_insn_describe(const check_insn *in, char *buf, size_t len)
{
    const char *m = check_mnemonic(in);
    unsigned long long a = (unsigned long long)in->addr;
    switch (in->cls) {
    case CHECK_INSN_BRANCH:
        snprintf(buf, len, "branch `%s` at 0x%llx", m, a);
        break;
    case CHECK_INSN_DIVISION:
        snprintf(buf, len, "division `%s` at 0x%llx", m, a);
        break;
    case CHECK_INSN_UNKNOWN:
        if (in->why)
            snprintf(buf, len, "unsupported instruction `%s` with %s at 0x%llx", m, in->why, a);
        else
            snprintf(buf, len, "unknown instruction `%s` at 0x%llx", m, a);
        break;
    default:
        snprintf(buf, len, "`%s` at 0x%llx", m, a);
        break;
    }
    return buf;
}

const char *check_insn_format(const check_insn *in, char *buf, size_t len)
{
    ZydisDecoder dec;
    ZydisFormatter fmt;
    ZydisDecodedInstruction zi;
    ZydisDecodedOperand zo[ZYDIS_MAX_OPERAND_COUNT];
    if (len)
        buf[0] = '\0';
    if (ZYAN_FAILED(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
        ZYAN_FAILED(ZydisFormatterInit(&fmt, ZYDIS_FORMATTER_STYLE_ATT)) ||
        ZYAN_FAILED(ZydisDecoderDecodeFull(&dec, in->bytes, in->len, &zi, zo)) ||
        ZYAN_FAILED(ZydisFormatterFormatInstruction(&fmt, &zi, zo, zi.operand_count_visible, buf, len, in->addr,
                                                    NULL)))
        snprintf(buf, len, "%s", check_mnemonic(in));
    return buf;
}
