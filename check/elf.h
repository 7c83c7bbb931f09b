/* elf.h — a function's machine code from an object file (the checker checks the bytes that run, not
 * the text).
 *
 * Input: an ELF64 x86-64 object (`.o`; executables and shared objects are read the same way), or an assembly file
 * (`.S` / `.s`), which is assembled first with the system compiler driver (`cc -c`, run directly with fork + execvp,
 * no shell, into a private temporary directory that is removed afterwards). The file's first bytes decide: "\x7fELF"
 * is an object, anything else must be named *.S or *.s.
 *
 * The function is the definition that the linkers bind the name `name` to (ld for an object, ld.so for a shared
 * object): every definition whose name, without a version suffix, is `name` counts, in .symtab and in .dynsym
 * (`name@@V`, `name@V` in an object's string table; .gnu.version / .gnu.version_d in a linked file), of every type
 * and binding. The name must have one definition (copies in both tables or versioned aliases at the same address
 * are one), GLOBAL or WEAK, of type STT_FUNC or STT_NOTYPE (a label: NASM's `global f`, gas without `.type`), in
 * a loaded (SHF_ALLOC), uncompressed code section outside any COMDAT group, and in a linked file the bytes the
 * loader maps there (the one executable PT_LOAD segment that holds them) must be the section's. Anything else
 * (a second definition elsewhere, a local or STT_OBJECT or STT_GNU_IFUNC one, ...) is the flaw CHECK_CODE_SYMBOL:
 * the callers would run other bytes than the ones checked. Its size is st_size; a global label without `.size`
 * (size 0) extends to the next symbol of its section or to the section's end. An STT_FUNC of size 0 is an error.
 *
 * Relocations: every SHT_RELA / SHT_REL section against the function's section (in a linked file every one, and
 * SHT_RELR, matched by address). Each type's reach is the bytes the linker may rewrite for it: its field (1, 2, 4,
 * 8 or 16 bytes, psABI) and, for the types that the linker may relax by rewriting the instruction (GOTPCRELX, the
 * TLS models), the opcode bytes before the field and the rest of the rewritten sequence after it. A relocation
 * whose offset lies inside the function is reported in relocs (RIP-relative or absolute data and calls to other
 * symbols all need one in an object file, and the checker rejects each instruction that its reach overlaps:
 * "no RIP-relative or absolute data"); one whose offset lies outside but whose reach overlaps the function, and
 * one of a type not known here, is the flaw CHECK_CODE_RELOCATION. */
#ifndef ECOPT_CHECK_ELF_H
#define ECOPT_CHECK_ELF_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t offset;   /* from the function's first byte */
    uint32_t before;   /* the bytes before offset that the linker may rewrite for it (an instruction relaxed) */
    uint32_t after;    /* the bytes from offset on that it may rewrite (the field, or the rest of a sequence) */
    uint32_t type;     /* R_X86_64_* */
    int64_t addend;    /* r_addend (SHT_RELA), 0 for SHT_REL */
    char sym[64];      /* the symbol it refers to (the section's name for a section symbol), truncated */
} check_reloc;

/* why the bytes read are not the bytes that callers of the name run (see above); check_function rejects a flawed
 * code as CHECK_RULE_RELOCATION / CHECK_RULE_SYMBOL with the reason in flaw_reason */
typedef enum { CHECK_CODE_SOUND = 0, CHECK_CODE_RELOCATION, CHECK_CODE_SYMBOL } check_code_flaw;

typedef struct {
    uint8_t *bytes;        /* size bytes, heap */
    size_t size;           /* bytes */
    uint64_t addr;         /* st_value: section-relative in a .o (what `objdump -d` prints), virtual otherwise */
    char section[64];      /* e.g. ".text" */
    check_reloc *relocs;   /* heap, sorted by offset */
    size_t nrelocs;
    check_code_flaw flaw;  /* SOUND, or why the bytes cannot be trusted (bytes may then be empty) */
    char flaw_reason[400]; /* one line naming the symbol or relocation and its offset */
} check_code;

/* check_code_read — the function `name` from path (.o, or .S/.s assembled first) into *out (free with
 * check_code_free). 0 (out->flaw may be set: the file was read, and the checker must reject it); or -1 with err (one
 * line, size errlen), out left empty: the file cannot be read, it is neither ELF nor .S/.s, it is not ELF64 x86-64, it
 * is truncated or malformed (libelf's reason), the assembler failed (its first error line), there is no such symbol
 * (the message lists the function symbols there), the symbol is undefined, not in a section with code, or of size 0; or
 * -2 with err when the environment failed while assembling a .S/.s (check_assemble's -2), not the file. */
int check_code_read(const char *path, const char *name, check_code *out, char *err, size_t errlen);

/* check_code_from_object — the same for an object already in memory (len bytes at obj; not kept). */
int check_code_from_object(const void *obj, size_t len, const char *what, const char *name, check_code *out,
                           char *err, size_t errlen);

/* check_assemble — assemble the .S/.s file src with `cc -c` into a heap buffer *obj (*len bytes; free it), in a
 * private directory under $TMPDIR (else /tmp). 0; -1 with err: src cannot be read, the assembler's first error line,
 * or that neither cc nor clang could be run; -2 with err: the environment failed, not the input (the temporary
 * directory is unusable: "DIR: the temporary directory is unusable (TMPDIR): REASON"; fork or wait failed). */
int check_assemble(const char *src, uint8_t **obj, size_t *len, char *err, size_t errlen);

/* check_source_conditional — the first preprocessor directive of the .S file src that makes its code depend on the
 * compiler driver that preprocesses it (#if, #ifdef, #ifndef, #include: `#ifdef __clang__`, -D flags, a header that
 * differs between systems), or the assembler's own (.if and its variants .ifdef, .ifc, .ifeqs, ...; .include,
 * .incbin): 1 with its line number in *line and the directive in what ("#ifdef"), 0 when there is
 * none, -1 when src cannot be read. (check_assemble proves nothing about another driver's reading of such a file.) */
int check_source_conditional(const char *src, unsigned *line, char *what, size_t len);

/* check_code_free — release out's buffers and empty it (also on an empty one). */
void check_code_free(check_code *c);

#endif
