/* rng.h — randomness for key generation: getrandom(2), blocking until the kernel pool is initialised.
 * ecopt_random_bytes — fill out with n random bytes. Returns: ECOPT_OK; ECOPT_ERR_RNG (out zeroed). */
#ifndef ECOPT_RNG_H
#define ECOPT_RNG_H

#include <stddef.h>
#include <stdint.h>

int ecopt_random_bytes(uint8_t *out, size_t n);

#endif /* ECOPT_RNG_H */
