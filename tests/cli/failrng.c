/* failrng.c — a preload library whose getrandom(2) always fails, so that the tests can check how the ecopt
 * command reports ECOPT_ERR_RNG (exit 3). Used as LD_PRELOAD by tests/cli/errors.sh, case env_rng_failure. */
#include <errno.h>
#include <stddef.h>
#include <sys/random.h>
#include <sys/types.h>

ssize_t getrandom(void *buf, size_t buflen, unsigned int flags)
{
    (void)buf;
    (void)buflen;
    (void)flags;
    errno = EIO;
    return -1;
}
