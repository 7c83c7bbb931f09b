/* elf.c — libFuzzer harness for the checker's ELF reader (check/elf.c: check_code_from_object), which reads the
 * object file handed to `ecopt check`.
 *
 * Input: an ELF file. The harness asks for the functions "f" and "g" (the names the seed objects of
 * fuzz/corpus/elf/ define) and "ecopt_fe_mul_adx" (one of the project's generated functions).
 * .S/.s input is out of scope: check_code_read assembles it with the system compiler, not a parser of ecopt's.
 *
 * Asserts (abort on failure):
 *   - the reader returns 0 or -1, and -1 comes with a message and an empty result;
 *   - on 0: size bytes were copied (bytes not NULL when size > 0), unless the code is flagged
 *     (CHECK_CODE_RELOCATION / CHECK_CODE_SYMBOL) with a reason; the relocations are sorted by offset and each
 *     lies inside the function; the section name and every relocation's symbol are NUL-terminated.
 * ASan checks each read of the input against its length. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/elf.h"

#define FUZZ_NAME "elf"
#include "fuzz.h"



static void read_one(const uint8_t *data, size_t size, const char *name)
{
    check_code c;
    char err[512] = "";
    int rc = check_code_from_object(data, size, "fuzz.o", name, &c, err, sizeof err);
    FUZZ_ASSERT(rc == 0 || rc == -1);
    if (rc != 0) {
        FUZZ_ASSERT(err[0] != 0);
        FUZZ_ASSERT(c.bytes == NULL && c.relocs == NULL && c.nrelocs == 0);
        check_code_free(&c);
        return;
    }
    FUZZ_ASSERT(memchr(c.section, 0, sizeof c.section) != NULL);
    FUZZ_ASSERT(memchr(c.flaw_reason, 0, sizeof c.flaw_reason) != NULL);
    if (c.flaw == CHECK_CODE_SOUND) {
        FUZZ_ASSERT(c.size == 0 || c.bytes != NULL);
        /* every byte is readable (ASan would report a short buffer) */
        volatile uint8_t sum = 0;
        for (size_t i = 0; i < c.size; i++)
            sum ^= c.bytes[i];
        (void)sum;
        for (size_t i = 0; i < c.nrelocs; i++) {
            FUZZ_ASSERT(c.relocs[i].offset < c.size);
            FUZZ_ASSERT(i == 0 || c.relocs[i - 1].offset <= c.relocs[i].offset);
            FUZZ_ASSERT(memchr(c.relocs[i].sym, 0, sizeof c.relocs[i].sym) != NULL);
        }
    } else {
        FUZZ_ASSERT(c.flaw == CHECK_CODE_RELOCATION || c.flaw == CHECK_CODE_SYMBOL);
        FUZZ_ASSERT(c.flaw_reason[0] != 0);
    }
    check_code_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_one(data, size, "f");
    read_one(data, size, "g");
    read_one(data, size, "ecopt_fe_mul_adx");
    return 0;
}
