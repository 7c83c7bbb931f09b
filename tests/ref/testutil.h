/* testutil.h — shared helpers for the ecopt test programs: a seeded PRNG, hex, command-line options, JSON files,
 * the backend check and failure reporting.
 *
 * Nothing here computes an expected answer: oracles live in ref25519.h (GMP) or come from OpenSSL and libsodium. */
#ifndef ECOPT_TESTS_TESTUTIL_H
#define ECOPT_TESTS_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- PRNG: xoshiro256** seeded through splitmix64 (Blackman and Vigna); reproducible from one 64-bit seed. ---- */
typedef struct tu_rng {
    uint64_t s[4];
} tu_rng;

void tu_rng_seed(tu_rng *r, uint64_t seed);
uint64_t tu_rng_u64(tu_rng *r);
/* A value in [0, n), n >= 1 (slight modulo bias is irrelevant here). */
uint64_t tu_rng_below(tu_rng *r, uint64_t n);
/* n uniformly random bytes. */
void tu_rng_bytes(tu_rng *r, uint8_t *out, size_t n);
/* n bytes of random bit density: each 64-bit word is drawn from a mix of all-zero, all-one, sparse, dense and
 * uniform words, so long runs of zeros and ones (carry chains, limbs at their bounds) occur often. */
void tu_rng_bytes_density(tu_rng *r, uint8_t *out, size_t n);

/* ---- hex ---- */
/* Decode a hex string into out (capacity cap bytes). Returns the byte count, or -1 on bad hex or overflow. */
long tu_hex_decode(uint8_t *out, size_t cap, const char *hex);
/* Decode into a fresh malloc'd buffer (at least 1 byte allocated); *len gets the byte count. NULL on bad hex. */
uint8_t *tu_hex_alloc(const char *hex, size_t *len);
/* Print "label: <hex>\n" to stderr. */
void tu_hex_print(const char *label, const uint8_t *p, size_t n);

/* ---- options: --seed N, --iters N (and anything else is left to the caller via tu_opt_rest) ---- */
typedef struct tu_opts {
    uint64_t seed;
    long iters;
    int argc;     /* remaining non-option arguments */
    char **argv;  /* (pointers into the original argv) */
} tu_opts;
/* Parses --seed and --iters; seed defaults to a fresh one from the clock and pid, iters to default_iters.
 * Prints "<prog>: seed <seed> iters <iters>" so a failing run can be reproduced. Exits with 2 on a bad option. */
void tu_parse_opts(tu_opts *o, int argc, char **argv, long default_iters);

/* ---- failures ---- */
extern long tu_failures;
/* Report a failure (printf-style) and count it; at most 50 reports are printed in full. */
void tu_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Returns 1 (and prints both in hex, with label) when the byte strings differ. */
int tu_expect_bytes(const char *label, const uint8_t *got, const uint8_t *want, size_t n);
/* Print "N passed, M failed" style summary for the program and return the exit code (0 or 1). */
int tu_finish(const char *prog);

/* ---- environment ---- */
/* The backend requested by the ECOPT_BACKEND environment variable; exits 1 with a message when unset. */
const char *tu_requested_backend(void);
/* tu_check_library_backend() (fail unless ecopt_backend_name() equals ECOPT_BACKEND) is in tu_backend.h, so that
 * this file does not need libecopt. */

/* ---- files ---- */
/* Path of a vector file under the shared vectors folder (ECOPT_VECTORS_DIR), in a static buffer. */
const char *tu_vector_path(const char *rel);
/* Read and parse a JSON file with cJSON; exits 1 when it cannot (a missing vector file is a failure, not a skip).
 * Returns a cJSON * (void * here so that this header does not need cJSON). */
void *tu_load_json(const char *path);

/* The string member key of a cJSON object; NULL when the member is JSON null; exits 1 when it is missing or of
 * another type (a malformed vector file is a failure). */
const char *tu_json_str(const void *obj, const char *key);
/* Decode the hex string member key into out, which must be exactly n bytes long; exits 1 otherwise. */
void tu_json_hex_fixed(uint8_t *out, size_t n, const void *obj, const char *key);

#define TU_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif /* ECOPT_TESTS_TESTUTIL_H */
