/* leak_branch.c — planted for ct.objcode_selftest: a branch on a secret byte (read through a pointer, as the
 * library's secrets are). check-ct-objdump.py must reject it. The two sides call different functions, so that no
 * compiler turns the branch into a conditional move. */
#include <stdint.h>

void planted_odd(void);
void planted_even(void);

void planted_branch(const uint8_t *secret) {
    if (secret[0] & 1)
        planted_odd();
    else
        planted_even();
}
