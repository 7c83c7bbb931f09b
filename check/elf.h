/* elf.h — a function's machine code from an object file (the checker checks the bytes that run, not
 * the text).
 *
 * Input: an ELF64 x86-64 object (`.o`; executables and shared objects are read the same way), or an assembly file
 * (`.S` / `.s`), which is assembled first with the system compiler driver (`cc -c`, run directly with fork + execvp,
 * no shell, into a private temporary directory that is removed afterwards). The file's first bytes decide: "\x7fELF"
 * is an object, anything else must be named *.S or *.s.
 *
 * The function is the symbol `name` in .symtab (or .dynsym when there is no .symtab): STT_FUNC, or an STT_NOTYPE
 * label with global binding (hand-written assembly). Its size is st_size; a global label without `.size` (size 0)
 * extends to the next symbol of its section or to the section's end. An STT_FUNC of size 0 is an error.
 *
 * Every relocation (SHT_RELA / SHT_REL against the function's section) whose offset lies inside the function is
 * reported: RIP-relative or absolute data and calls to other symbols all need one in an object file, and the checker
 * rejects each ("no RIP-relative or absolute data"). */
#ifndef ECOPT_CHECK_ELF_H
#define ECOPT_CHECK_ELF_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t offset;   /* from the function's first byte */
    uint32_t type;     /* R_X86_64_* */
    int64_t addend;    /* r_addend (SHT_RELA), 0 for SHT_REL */
    char sym[64];      /* the symbol it refers to (the section's name for a section symbol), truncated */
} check_reloc;

typedef struct {
    uint8_t *bytes;        /* size bytes, heap */
    size_t size;           /* bytes */
    uint64_t addr;         /* st_value: section-relative in a .o (what `objdump -d` prints), virtual otherwise */
    char section[64];      /* e.g. ".text" */
    check_reloc *relocs;   /* heap, sorted by offset */
    size_t nrelocs;
} check_code;

/* check_code_read — the function `name` from path (.o, or .S/.s assembled first) into *out (free with
 * check_code_free). 0; or -1 with err (one line, size errlen), out left empty: the file cannot be read, it is
 * neither ELF nor .S/.s, it is not ELF64 x86-64, it is truncated or malformed (libelf's reason), the assembler
 * failed (its first error line), there is no such symbol (the message lists the function symbols there), the symbol
 * is undefined, not in a section with code, or of size 0; or -2 with err when the environment failed while
 * assembling a .S/.s (check_assemble's -2), not the file. */
int check_code_read(const char *path, const char *name, check_code *out, char *err, size_t errlen);

/* check_code_from_object — the same for an object already in memory (len bytes at obj; not kept). */
int check_code_from_object(const void *obj, size_t len, const char *what, const char *name, check_code *out,
                           char *err, size_t errlen);

/* check_assemble — assemble the .S/.s file src with `cc -c` into a heap buffer *obj (*len bytes; free it), in a
 * private directory under $TMPDIR (else /tmp). 0; -1 with err: src cannot be read, the assembler's first error line,
 * or that neither cc nor clang could be run; -2 with err: the environment failed, not the input (the temporary
 * directory is unusable: "DIR: the temporary directory is unusable (TMPDIR): REASON"; fork or wait failed). */
int check_assemble(const char *src, uint8_t **obj, size_t *len, char *err, size_t errlen);

/* check_code_free — release out's buffers and empty it (also on an empty one). */
void check_code_free(check_code *c);

#endif
